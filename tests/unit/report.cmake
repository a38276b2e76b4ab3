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

# Every column header sorts both ways on every page kind (the header links of the
# display, followed twice, on the fixture and on simulated profiles).
dp_unit_test(test_report_sort ${CMAKE_CURRENT_LIST_DIR}/test_report_sort.c ${DP_REP_FIX}
	${CMAKE_CURRENT_LIST_DIR}/test_analysis_gen.c)
target_link_libraries(test_report_sort PRIVATE dp_display)

# One meaning of a procedure's total on every page, on a recursive clique.
dp_unit_test(test_report_total ${CMAKE_CURRENT_LIST_DIR}/test_report_total.c ${DP_REP_FIX}
	${CMAKE_CURRENT_LIST_DIR}/test_analysis_gen.c)
target_link_libraries(test_report_total PRIVATE dp_display)

# Names as users type them, and the search page.
dp_unit_test(test_report_names ${CMAKE_CURRENT_LIST_DIR}/test_report_names.c ${DP_REP_FIX}
	${CMAKE_CURRENT_LIST_DIR}/test_analysis_gen.c)
target_link_libraries(test_report_names PRIVATE dp_display)
