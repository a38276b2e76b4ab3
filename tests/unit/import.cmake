# tests/unit/import.cmake: unit tests of src/import (docs/IMPORTS.md): the context-stack
# builder's folding, importing from memory, and the ORIG chunk through writer and reader.
dp_unit_test(test_import ${CMAKE_CURRENT_LIST_DIR}/test_import.c)
target_link_libraries(test_import PRIVATE dp_import dp_format)
