# tests/unit/export.cmake: unit tests of src/export (docs/internals/export.md) on profiles
# built in memory; the formats read by their tools are tests/export.
if(TARGET dp_export)
	dp_unit_test(test_export ${CMAKE_CURRENT_LIST_DIR}/test_export.c)
	target_link_libraries(test_export PRIVATE dp_export)
endif()
