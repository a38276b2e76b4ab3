# plugin/llvm.cmake: deepprof_llvm.so, the LLVM pass plugin that keeps tail calls under
# clang (optional). Built when llvm-config of the installed clang's major version and
# its headers exist (Debian: llvm-14-dev), with the C++ compiler; links nothing (clang
# provides LLVM's symbols when it loads the plugin). Next to it, deepprof_llvm.ver holds
# the LLVM major version: `deepprof cc` passes the plugin only to a clang of that version.
find_program(DP_CLANG clang)
if(NOT DP_CLANG)
	message(STATUS "deepprof_llvm plugin: not built (no clang)")
	return()
endif()
execute_process(COMMAND ${DP_CLANG} -dumpversion OUTPUT_VARIABLE dp_clang_ver
	OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
string(REGEX MATCH "^[0-9]+" dp_clang_major "${dp_clang_ver}")
find_program(DP_LLVM_CONFIG NAMES llvm-config-${dp_clang_major} llvm-config
	PATHS /usr/lib/llvm-${dp_clang_major}/bin NO_DEFAULT_PATH)
if(NOT dp_clang_major OR NOT DP_LLVM_CONFIG)
	message(STATUS "deepprof_llvm plugin: not built (no llvm-config for clang "
		"${dp_clang_ver}; Debian: llvm-${dp_clang_major}-dev)")
	return()
endif()
execute_process(COMMAND ${DP_LLVM_CONFIG} --includedir OUTPUT_VARIABLE dp_llvm_inc
	OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT EXISTS "${dp_llvm_inc}/llvm/Passes/PassPlugin.h")
	message(STATUS "deepprof_llvm plugin: not built (no LLVM headers in '${dp_llvm_inc}')")
	return()
endif()
include(CheckLanguage)
check_language(CXX)
if(NOT CMAKE_CXX_COMPILER)
	message(STATUS "deepprof_llvm plugin: not built (no C++ compiler)")
	return()
endif()
enable_language(CXX)
message(STATUS "deepprof_llvm plugin: for clang ${dp_clang_major}")
add_library(deepprof_llvm MODULE deepprof_llvm.cc)
set_target_properties(deepprof_llvm PROPERTIES PREFIX "" OUTPUT_NAME deepprof_llvm
	LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib/deepprof
	CXX_STANDARD 17 CXX_EXTENSIONS OFF CXX_VISIBILITY_PRESET hidden)
# LLVM's headers are built without RTTI and do not pass -Wextra: system headers.
target_include_directories(deepprof_llvm SYSTEM PRIVATE ${dp_llvm_inc})
target_compile_definitions(deepprof_llvm PRIVATE __STDC_CONSTANT_MACROS
	__STDC_FORMAT_MACROS __STDC_LIMIT_MACROS)
target_compile_options(deepprof_llvm PRIVATE -fno-rtti -fno-exceptions -Wall -Wextra)
if(DP_WERROR)
	target_compile_options(deepprof_llvm PRIVATE -Werror)
endif()
file(WRITE ${CMAKE_BINARY_DIR}/lib/deepprof/deepprof_llvm.ver "${dp_clang_major}\n")
install(TARGETS deepprof_llvm LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/deepprof)
install(FILES ${CMAKE_BINARY_DIR}/lib/deepprof/deepprof_llvm.ver
	DESTINATION ${CMAKE_INSTALL_LIBDIR}/deepprof)
