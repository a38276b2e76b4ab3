# tests/unit/runtime.cmake: the runtime's tests. Programs built with -finstrument-functions
# and linked with the static runtime exactly as `deepprof cc` links (whole archive, hooks
# and allocators exported), which write their profile and check it with the reader.
# Not under DP_SANITIZE or DP_TSAN: the runtime defines malloc, which ASan and TSan also do.
add_test(NAME runtime_exports COMMAND ${PROJECT_SOURCE_DIR}/runtime/check-exports.sh
	$<TARGET_FILE:deepprof_rt_shared>)
set_tests_properties(runtime_exports PROPERTIES LABELS unit TIMEOUT 30)
add_test(NAME runtime_exports_header COMMAND ${PROJECT_SOURCE_DIR}/runtime/check-exports.sh
	--header ${PROJECT_SOURCE_DIR}/include/deepprof/exports.h)
set_tests_properties(runtime_exports_header PROPERTIES LABELS unit TIMEOUT 30)
# the stubs' slow path uses no vector or x87 register and calls no libc but system calls
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
	add_test(NAME runtime_light COMMAND ${PROJECT_SOURCE_DIR}/runtime/check-light.sh
		$<TARGET_FILE:deepprof_rt_static>)
	set_tests_properties(runtime_light PROPERTIES LABELS unit TIMEOUT 30)
endif()
# the exported names, from the one list (runtime/libdeepprof.map's global: section)
file(STRINGS ${PROJECT_SOURCE_DIR}/runtime/libdeepprof.map DP_RT_MAP_LINES
	REGEX "^[ \t]+[A-Za-z_][A-Za-z0-9_]*;")
set(DP_RT_EXPORTS)
foreach(line ${DP_RT_MAP_LINES})
	string(REGEX REPLACE "^[ \t]+([A-Za-z_][A-Za-z0-9_]*);.*" "\\1" name "${line}")
	list(APPEND DP_RT_EXPORTS ${name})
endforeach()

if(NOT DP_SANITIZE AND NOT DP_TSAN)
	find_package(Threads REQUIRED)
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
