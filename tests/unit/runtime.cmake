# tests/unit/runtime.cmake: the runtime's tests. Programs built with -finstrument-functions
# and linked with the static runtime exactly as `deepprof cc` links (whole archive, hooks
# and allocators exported), which write their profile and check it with the reader.
# Not under DP_SANITIZE or DP_TSAN: the runtime defines malloc, which ASan and TSan also do.
add_test(NAME runtime_exports COMMAND ${PROJECT_SOURCE_DIR}/runtime/check-exports.sh
	$<TARGET_FILE:deepprof_rt_shared>)
set_tests_properties(runtime_exports PROPERTIES LABELS unit TIMEOUT 30)

if(NOT DP_SANITIZE AND NOT DP_TSAN)
	find_package(Threads REQUIRED)
	set(DP_RT_EXPORTS __cyg_profile_func_enter __cyg_profile_func_exit deepprof_write
		__cxa_begin_catch malloc
		calloc realloc posix_memalign aligned_alloc memalign valloc pvalloc)
	# dp_rt_test(NAME SOURCES...): the test runs in its own output directory.
	function(dp_rt_test name)
		add_executable(${name} ${ARGN})
		target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
		target_compile_options(${name} PRIVATE -finstrument-functions -fno-omit-frame-pointer)
		dp_warnings(${name})
		target_link_libraries(${name} PRIVATE
			"$<LINK_LIBRARY:WHOLE_ARCHIVE,deepprof_rt_static>" dp_format Threads::Threads)
		foreach(s ${DP_RT_EXPORTS})
			target_link_options(${name} PRIVATE -Wl,--export-dynamic-symbol=${s})
		endforeach()
		set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY
			${CMAKE_CURRENT_BINARY_DIR})
		set(out ${CMAKE_CURRENT_BINARY_DIR}/${name}.out)
		file(MAKE_DIRECTORY ${out})
		add_test(NAME ${name} COMMAND ${name})
		set_tests_properties(${name} PROPERTIES LABELS unit TIMEOUT 120 SKIP_RETURN_CODE 77
			ENVIRONMENT "DEEPPROF_OUTPUT=${out}/${name}.data")
	endfunction()

	dp_rt_test(test_rt_graph test_rt_graph.c)
	dp_rt_test(test_rt_thread test_rt_thread.c)
	dp_rt_test(test_rt_fork test_rt_fork.c)
	dp_rt_test(test_rt_proc test_rt_proc.c)
endif()
