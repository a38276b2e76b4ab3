# tests/integration/cgi.cmake - deepprof-cgi behind lighttpd (test_cgi.py: bursts of
# parallel requests across idle timeouts, security refusals, quit/timeout, recovery from a
# killed server and a stale lock, --no-detach). Included by CMakeLists.txt. RUN_SERIAL: its
# bursts and 1-second timeouts are timing-sensitive and it counts processes.
if(TARGET deepprof-cgi)
	add_test(NAME integ_cgi
		COMMAND Python3::Interpreter ${CMAKE_CURRENT_LIST_DIR}/test_cgi.py
			--deepprof $<TARGET_FILE:deepprof> --cgi $<TARGET_FILE:deepprof-cgi>
			--work ${CMAKE_CURRENT_BINARY_DIR}/work/integ_cgi)
	set_tests_properties(integ_cgi PROPERTIES LABELS integration TIMEOUT 300
		SKIP_RETURN_CODE 77 RUN_SERIAL TRUE)
endif()
