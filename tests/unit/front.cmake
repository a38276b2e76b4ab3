# tests/unit/front.cmake: unit tests of src/front (docs/internals/front.md): the
# session's background thread (the merged view's flame index and the per-thread view).
if(TARGET dp_front)
	dp_unit_test(test_session ${CMAKE_CURRENT_LIST_DIR}/test_session.c
		${CMAKE_CURRENT_LIST_DIR}/test_analysis_gen.c)
	target_link_libraries(test_session PRIVATE dp_front dp_format)
endif()
