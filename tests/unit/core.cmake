dp_unit_test(test_core test_core.c)
target_link_libraries(test_core PRIVATE dp_core)
