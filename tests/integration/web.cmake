# tests/integration/web.cmake (included by CMakeLists.txt here): the built-in web server
# over HTTP (test_serve.py: pages, downloads, several files, security, concurrency, the per-thread
# view analysed in the background, command line)
# and in headless Chromium (test_browser.py; screenshots in work/integ_browser/shots);
# the compare view of serve --base and report --base (test_compare.py,
# test_browser_compare.py).
# Only when `deepprof serve` is built (src/web, libmicrohttpd).
if(TARGET dp_web)
	foreach(t pages downloads files security concurrency threads cli)
		add_test(NAME integ_serve_${t}
			COMMAND Python3::Interpreter ${CMAKE_CURRENT_LIST_DIR}/test_serve.py
				--deepprof $<TARGET_FILE:deepprof>
				--work ${CMAKE_CURRENT_BINARY_DIR}/work/integ_serve_${t} ${t})
		set_tests_properties(integ_serve_${t} PROPERTIES LABELS "integration;web;asan"
			TIMEOUT 300 SKIP_RETURN_CODE 77)
	endforeach()
	add_test(NAME integ_browser
		COMMAND Python3::Interpreter ${CMAKE_CURRENT_LIST_DIR}/test_browser.py
			--deepprof $<TARGET_FILE:deepprof>
			--work ${CMAKE_CURRENT_BINARY_DIR}/work/integ_browser
			--artifacts ${CMAKE_CURRENT_BINARY_DIR}/work/integ_browser_shots)
	set_tests_properties(integ_browser PROPERTIES LABELS "integration;web;browser;asan"
		TIMEOUT 300 SKIP_RETURN_CODE 77)
	# the compare view (serve --base): over HTTP, and in headless Chromium with its
	# screenshots in work/integ_browser_compare_shots
	add_test(NAME integ_compare_serve
		COMMAND Python3::Interpreter ${CMAKE_CURRENT_LIST_DIR}/test_compare.py
			--deepprof $<TARGET_FILE:deepprof>
			--work ${CMAKE_CURRENT_BINARY_DIR}/work/integ_compare_serve serve)
	set_tests_properties(integ_compare_serve PROPERTIES LABELS "integration;web;asan"
		TIMEOUT 300 SKIP_RETURN_CODE 77)
	add_test(NAME integ_browser_compare
		COMMAND Python3::Interpreter ${CMAKE_CURRENT_LIST_DIR}/test_browser_compare.py
			--deepprof $<TARGET_FILE:deepprof>
			--work ${CMAKE_CURRENT_BINARY_DIR}/work/integ_browser_compare
			--artifacts ${CMAKE_CURRENT_BINARY_DIR}/work/integ_browser_compare_shots)
	set_tests_properties(integ_browser_compare PROPERTIES
		LABELS "integration;web;browser" TIMEOUT 300 SKIP_RETURN_CODE 77)
endif()
# the compare view on the command line (report, tree --base)
add_test(NAME integ_compare_report
	COMMAND Python3::Interpreter ${CMAKE_CURRENT_LIST_DIR}/test_compare.py
		--deepprof $<TARGET_FILE:deepprof>
		--work ${CMAKE_CURRENT_BINARY_DIR}/work/integ_compare_report report)
set_tests_properties(integ_compare_report PROPERTIES LABELS "integration;asan" TIMEOUT 300
	SKIP_RETURN_CODE 77)
