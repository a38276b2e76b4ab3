# tests/unit/analysis.cmake: unit and property tests of src/analysis
# (docs/internals/analysis.md), and test_analysis_scale, the load-time measurement of
# the analysis on a large simulated profile (run by hand: test_analysis_scale [N_STEPS]).
set(DP_AN_FUZZ ${CMAKE_CURRENT_LIST_DIR}/../fuzz)
dp_unit_test(test_analysis ${CMAKE_CURRENT_LIST_DIR}/test_analysis.c
	${DP_AN_FUZZ}/sample_profile.c)
target_include_directories(test_analysis PRIVATE ${DP_AN_FUZZ})
target_link_libraries(test_analysis PRIVATE dp_analysis)

dp_unit_test(test_analysis_prop ${CMAKE_CURRENT_LIST_DIR}/test_analysis_prop.c
	${CMAKE_CURRENT_LIST_DIR}/test_analysis_gen.c)
target_link_libraries(test_analysis_prop PRIVATE dp_analysis)

add_executable(test_analysis_scale ${CMAKE_CURRENT_LIST_DIR}/test_analysis_scale.c
	${CMAKE_CURRENT_LIST_DIR}/test_analysis_gen.c)
target_include_directories(test_analysis_scale PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(test_analysis_scale PRIVATE dp_analysis)
dp_warnings(test_analysis_scale)
dp_sanitize(test_analysis_scale)

# the merged thread view and contour exclusion (docs/internals/analysis.md, last sections)
dp_unit_test(test_analysis_merge ${CMAKE_CURRENT_LIST_DIR}/test_analysis_merge.c
	${CMAKE_CURRENT_LIST_DIR}/test_analysis_gen.c)
target_link_libraries(test_analysis_merge PRIVATE dp_analysis)

dp_unit_test(test_analysis_contour ${CMAKE_CURRENT_LIST_DIR}/test_analysis_contour.c)
target_link_libraries(test_analysis_contour PRIVATE dp_analysis)

# merging profiles of many runs (analysis/profile_merge.h, docs/MERGE.md)
dp_unit_test(test_analysis_pmerge ${CMAKE_CURRENT_LIST_DIR}/test_analysis_pmerge.c
	${CMAKE_CURRENT_LIST_DIR}/test_analysis_gen.c)
target_link_libraries(test_analysis_pmerge PRIVATE dp_analysis)
