# tests/unit/format.cmake: unit tests of the format module (codecs, reader, writer,
# corruption, JSON and dump), the replay of the reader corpus (tests/corpus/reader) and
# the generator of its valid seeds. Owner: the format helper.
set(DP_FMT_FUZZ ${CMAKE_CURRENT_LIST_DIR}/../fuzz)
foreach(t test_format test_format_corrupt test_format_json)
	dp_unit_test(${t} ${CMAKE_CURRENT_LIST_DIR}/${t}.c ${DP_FMT_FUZZ}/sample_profile.c)
	target_include_directories(${t} PRIVATE ${DP_FMT_FUZZ})
	target_link_libraries(${t} PRIVATE dp_format)
endforeach()

# test_format_json writes sample_dump.json; python checks it is JSON with the
# documented schema (docs/FORMAT.md, "deepprof dump --format=json").
set_tests_properties(test_format_json PROPERTIES FIXTURES_SETUP dp_sample_dump)
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
	add_test(NAME dump_json_schema
		COMMAND ${Python3_EXECUTABLE} ${DP_FMT_FUZZ}/check_dump_json.py
			${CMAKE_CURRENT_BINARY_DIR}/sample_dump.json)
	set_tests_properties(dump_json_schema PROPERTIES LABELS unit TIMEOUT 60
		FIXTURES_REQUIRED dp_sample_dump)
endif()

add_executable(replay_reader ${DP_FMT_FUZZ}/replay_reader.c)
target_link_libraries(replay_reader PRIVATE dp_format)
dp_warnings(replay_reader)
dp_sanitize(replay_reader)
add_test(NAME reader_corpus_replay
	COMMAND replay_reader ${CMAKE_CURRENT_LIST_DIR}/../corpus/reader)
set_tests_properties(reader_corpus_replay PROPERTIES LABELS unit TIMEOUT 120)

# Regenerates the seeds: build gen_reader_corpus, run it with tests/corpus/reader as
# its argument, commit the files.
add_executable(gen_reader_corpus ${DP_FMT_FUZZ}/gen_corpus.c ${DP_FMT_FUZZ}/sample_profile.c)
target_include_directories(gen_reader_corpus PRIVATE ${DP_FMT_FUZZ})
target_link_libraries(gen_reader_corpus PRIVATE dp_format)
dp_warnings(gen_reader_corpus)
dp_sanitize(gen_reader_corpus)
