# tests/unit/front.cmake: unit tests of src/front (docs/internals/front.md): the
# session's background thread (the merged view's flame index and the per-thread view).
if(TARGET dp_front)
	dp_unit_test(test_session ${CMAKE_CURRENT_LIST_DIR}/test_session.c
		${CMAKE_CURRENT_LIST_DIR}/test_analysis_gen.c)
	target_link_libraries(test_session PRIVATE dp_front dp_format)
endif()
# allocation fault injection over the whole pipeline (tests/fault/fault_alloc.h): every
# allocation in the plain build (35 s), every 5th under ASan (each run is slower there:
# 290 s for all); not under TSan, which it would teach nothing about threads
if(TARGET dp_front AND NOT DP_TSAN)
	dp_unit_test(test_fault ${CMAKE_CURRENT_LIST_DIR}/test_fault.c
		${CMAKE_CURRENT_LIST_DIR}/../fuzz/sample_profile.c)
	target_include_directories(test_fault PRIVATE ${CMAKE_CURRENT_LIST_DIR}/../fuzz)
	target_link_libraries(test_fault PRIVATE dp_front dp_format)
	dp_fault_inject(test_fault)
	set_tests_properties(test_fault PROPERTIES TIMEOUT 600)
	if(DP_SANITIZE)
		set_tests_properties(test_fault PROPERTIES ENVIRONMENT DP_FAULT_STRIDE=5)
	endif()
endif()
