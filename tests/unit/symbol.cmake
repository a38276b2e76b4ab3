# tests/unit/symbol.cmake: unit tests of the symbol module (docs/internals/symbol.md).
# The fixtures (tests/unit/symbol/) are built here with each available compiler at -O0
# and -O2, instrumented, with debug info and a build-id; test_symbol runs them to learn
# real addresses. Also: an executable + shared library pair (-O2), and the gcc -O2 C
# fixture without debug info and with its debug info in a separate file (debuglink).
find_program(DP_FIX_GCC gcc)
find_program(DP_FIX_GXX g++)
find_program(DP_FIX_CLANG clang)
find_program(DP_FIX_CLANGXX clang++)
find_program(DP_FIX_OBJCOPY objcopy)

set(DP_FIX_SRC ${CMAKE_CURRENT_SOURCE_DIR}/symbol)
set(DP_FIX_DIR ${CMAKE_CURRENT_BINARY_DIR}/symbol-fixtures)
file(MAKE_DIRECTORY ${DP_FIX_DIR})
set(DP_FIX_FLAGS -g -finstrument-functions -fno-omit-frame-pointer -Wl,--build-id)

set(DP_FIX_OUTPUTS)
foreach(fam gcc clang)
	if(fam STREQUAL "gcc")
		set(cc ${DP_FIX_GCC})
		set(cxx ${DP_FIX_GXX})
	else()
		set(cc ${DP_FIX_CLANG})
		set(cxx ${DP_FIX_CLANGXX})
	endif()
	foreach(opt O0 O2)
		foreach(lang c cpp)
			if(lang STREQUAL "c")
				set(comp ${cc})
				set(src ${DP_FIX_SRC}/fix_c.c)
			else()
				set(comp ${cxx})
				set(src ${DP_FIX_SRC}/fix_cpp.cc)
			endif()
			if(NOT comp)
				continue()
			endif()
			set(out ${DP_FIX_DIR}/fix_${lang}_${fam}_${opt})
			add_custom_command(OUTPUT ${out}
				COMMAND ${comp} -${opt} ${DP_FIX_FLAGS} -o ${out} ${src}
				DEPENDS ${src} ${DP_FIX_SRC}/minirt.h
				VERBATIM)
			list(APPEND DP_FIX_OUTPUTS ${out})
		endforeach()
	endforeach()
	if(cc)
		set(lib ${DP_FIX_DIR}/libfixso_${fam}.so)
		set(out ${DP_FIX_DIR}/fix_so_${fam}_O2)
		add_custom_command(OUTPUT ${lib}
			COMMAND ${cc} -O2 ${DP_FIX_FLAGS} -shared -fPIC -o ${lib}
				${DP_FIX_SRC}/fix_so_lib.c
			DEPENDS ${DP_FIX_SRC}/fix_so_lib.c
			VERBATIM)
		add_custom_command(OUTPUT ${out}
			COMMAND ${cc} -O2 ${DP_FIX_FLAGS} -Wl,--export-dynamic -o ${out}
				${DP_FIX_SRC}/fix_so_main.c ${lib} -Wl,-rpath,${DP_FIX_DIR}
			DEPENDS ${DP_FIX_SRC}/fix_so_main.c ${DP_FIX_SRC}/minirt.h ${lib}
			VERBATIM)
		list(APPEND DP_FIX_OUTPUTS ${lib} ${out})
	endif()
endforeach()
if(DP_FIX_GCC)
	# a position-dependent executable (ET_EXEC, load bias 0)
	set(out ${DP_FIX_DIR}/fix_c_gcc_O2_nopie)
	add_custom_command(OUTPUT ${out}
		COMMAND ${DP_FIX_GCC} -O2 -no-pie ${DP_FIX_FLAGS} -o ${out} ${DP_FIX_SRC}/fix_c.c
		DEPENDS ${DP_FIX_SRC}/fix_c.c ${DP_FIX_SRC}/minirt.h
		VERBATIM)
	list(APPEND DP_FIX_OUTPUTS ${out})
endif()
# DWARF 4 (line table header with include_directories / file_names, GNU call sites):
# src/symbol/lines.c reads both header layouts
foreach(fam gcc clang)
	if(fam STREQUAL "gcc")
		set(cc ${DP_FIX_GCC})
	else()
		set(cc ${DP_FIX_CLANG})
	endif()
	if(cc)
		set(out ${DP_FIX_DIR}/fix_c_${fam}_O2_dwarf4)
		add_custom_command(OUTPUT ${out}
			COMMAND ${cc} -O2 -gdwarf-4 ${DP_FIX_FLAGS} -o ${out} ${DP_FIX_SRC}/fix_c.c
			DEPENDS ${DP_FIX_SRC}/fix_c.c ${DP_FIX_SRC}/minirt.h
			VERBATIM)
		list(APPEND DP_FIX_OUTPUTS ${out})
	endif()
endforeach()
if(DP_FIX_GCC AND DP_FIX_OBJCOPY)
	set(in ${DP_FIX_DIR}/fix_c_gcc_O2)
	add_custom_command(OUTPUT ${in}.nodebug ${in}.split ${in}.split.debug
		COMMAND ${DP_FIX_OBJCOPY} --strip-debug ${in} ${in}.nodebug
		COMMAND ${DP_FIX_OBJCOPY} --only-keep-debug ${in} ${in}.split.debug
		COMMAND ${DP_FIX_OBJCOPY} --strip-debug --add-gnu-debuglink=${in}.split.debug
			${in} ${in}.split
		DEPENDS ${in}
		WORKING_DIRECTORY ${DP_FIX_DIR}
		VERBATIM)
	list(APPEND DP_FIX_OUTPUTS ${in}.nodebug ${in}.split)
endif()
add_custom_target(dp_symbol_fixtures DEPENDS ${DP_FIX_OUTPUTS})

dp_unit_test(test_symbol test_symbol.c test_symbol_fix.c)
target_link_libraries(test_symbol PRIVATE dp_symbol dp_format dp_core)
target_compile_definitions(test_symbol PRIVATE DP_FIX_DIR="${DP_FIX_DIR}"
	DP_FIX_SRC="${DP_FIX_SRC}")
add_dependencies(test_symbol dp_symbol_fixtures)
