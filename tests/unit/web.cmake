# tests/unit/web.cmake: unit tests of src/web (docs/internals/web.md): the router, its
# helpers, and the libmicrohttpd server on a free loopback port.
if(TARGET dp_web)
	dp_unit_test(test_web ${CMAKE_CURRENT_LIST_DIR}/test_web.c
		${CMAKE_CURRENT_LIST_DIR}/../fuzz/sample_profile.c)
	target_include_directories(test_web PRIVATE ${CMAKE_CURRENT_LIST_DIR}/../fuzz)
	target_link_libraries(test_web PRIVATE dp_web dp_front dp_export dp_format)
	# the version the downloads write, as `deepprof export` does
	target_compile_definitions(test_web PRIVATE DP_VERSION="${PROJECT_VERSION}")
endif()
