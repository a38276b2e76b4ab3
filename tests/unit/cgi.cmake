# tests/unit/cgi.cmake: unit tests of src/cgi (request verdicts, mangled names, pipe
# messages, CGI responses, lock/want/pipe files); the processes are
# tests/integration/test_cgi.py's.
if(TARGET dp_cgi)
	dp_unit_test(test_cgi ${CMAKE_CURRENT_LIST_DIR}/test_cgi.c)
	target_link_libraries(test_cgi PRIVATE dp_cgi)
endif()
