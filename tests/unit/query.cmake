# tests/unit/query.cmake: tests of src/query (docs/QUERIES.md): test_query (every page,
# parameter, preference and error message; canonical formatting) and test_query_prop
# (random round trips, random bytes; TEST_QUERY_SEED / TEST_QUERY_N change the run).
dp_unit_test(test_query ${CMAKE_CURRENT_LIST_DIR}/test_query.c)
target_link_libraries(test_query PRIVATE dp_query)
dp_unit_test(test_query_prop ${CMAKE_CURRENT_LIST_DIR}/test_query_prop.c)
target_link_libraries(test_query_prop PRIVATE dp_query)
