# tests/integration/cgi.cmake - deepprof-cgi behind lighttpd (test_cgi.py: bursts of
# parallel requests across idle timeouts, security refusals, quit/timeout, recovery from a
# killed server and a stale lock, --no-detach). Included by CMakeLists.txt. RUN_SERIAL: its
# bursts and 500 ms timeouts are timing-sensitive and it counts processes.
# The bursts run in the plain build; the sanitized builds, whose processes start slowly,
# run one small burst (--quick) for the sanitizers to see concurrent clients.
set(DP_CGI_TEST_ARGS)
if(DP_SANITIZE OR DP_TSAN)
	set(DP_CGI_TEST_ARGS --quick)
endif()
if(TARGET deepprof-cgi)
	add_test(NAME integ_cgi
		COMMAND Python3::Interpreter ${CMAKE_CURRENT_LIST_DIR}/test_cgi.py
			--deepprof $<TARGET_FILE:deepprof> --cgi $<TARGET_FILE:deepprof-cgi>
			--work ${CMAKE_CURRENT_BINARY_DIR}/work/integ_cgi ${DP_CGI_TEST_ARGS})
	set_tests_properties(integ_cgi PROPERTIES LABELS "integration;asan" TIMEOUT 300
		SKIP_RETURN_CODE 77 RUN_SERIAL TRUE)
endif()
