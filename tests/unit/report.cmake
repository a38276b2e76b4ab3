# tests/unit/report.cmake: unit tests of src/report, helper A's part: the shared helpers
# (report_util.c), the clique/root/action pages, the proc/callers/site pages and the
# flame pages, on the hand-built fixture of test_report_fix.c and on generated profiles
# (test_analysis_gen.c). Helper B's tests are in report2.cmake.
set(DP_REP_FIX ${CMAKE_CURRENT_LIST_DIR}/test_report_fix.c)
foreach(t util clique proc flame flame_ix sandwich compare)
	dp_unit_test(test_report_${t} ${CMAKE_CURRENT_LIST_DIR}/test_report_${t}.c ${DP_REP_FIX}
		${CMAKE_CURRENT_LIST_DIR}/test_analysis_gen.c)
	target_link_libraries(test_report_${t} PRIVATE dp_report)
endforeach()
