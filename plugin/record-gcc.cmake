# plugin/record-gcc.cmake - run after deepprof_gcc.so is linked (cmake -P, with CC and
# OUT): writes to OUT the identity of the gcc the plugin was built for, one line
# "CC1 SIZE MTIME": the path `CC -print-prog-name=cc1` prints, and that file's size and
# modification time (seconds since 1970). `deepprof cc` passes -fplugin only to a
# compiler whose cc1 has the same size and time (src/cli/cmd_cc.c, find_plugin).
execute_process(COMMAND ${CC} -print-prog-name=cc1 OUTPUT_VARIABLE cc1
	OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 0 OR NOT IS_ABSOLUTE "${cc1}" OR NOT EXISTS "${cc1}")
	message(FATAL_ERROR "record-gcc: '${CC} -print-prog-name=cc1' gave no cc1 ('${cc1}')")
endif()
file(SIZE "${cc1}" size)
file(TIMESTAMP "${cc1}" mtime "%s" UTC)
file(WRITE "${OUT}" "${cc1} ${size} ${mtime}\n")
