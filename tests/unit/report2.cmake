# tests/unit/report2.cmake: tests of the menu, threads, list (modules, module, top) and
# dump pages and of the JSON form of reports (src/report/rep_{menu,list,dump}.c,
# report_json.c), on the sample profile and on generated ones.
set(DP_R2_FUZZ ${CMAKE_CURRENT_LIST_DIR}/../fuzz)
foreach(t test_report_menu test_report_list test_report_dump test_report_json)
	if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/${t}.c)
		dp_unit_test(${t} ${CMAKE_CURRENT_LIST_DIR}/${t}.c ${DP_R2_FUZZ}/sample_profile.c
			${CMAKE_CURRENT_LIST_DIR}/test_analysis_gen.c)
		target_include_directories(${t} PRIVATE ${DP_R2_FUZZ})
		target_link_libraries(${t} PRIVATE dp_report)
	endif()
endforeach()
