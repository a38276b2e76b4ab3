# cmake/Warnings.cmake - the project's warning set (gcc 12 and clang 14 accept it).
# dp_warnings(TARGET) applies it; DP_WERROR=ON (CI, make check) turns warnings into errors.
set(DP_WARNINGS_C
	-Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
	-Wmissing-declarations -Wold-style-definition -Wwrite-strings -Wpointer-arith
	-Wcast-qual -Wcast-align -Wformat=2 -Wundef -Wvla -Wconversion -Wno-sign-conversion
	-Wdouble-promotion -Wnull-dereference -Wimplicit-fallthrough -Wredundant-decls
	-fno-common)
if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
	list(APPEND DP_WARNINGS_C -Wlogical-op -Wduplicated-cond -Wduplicated-branches)
elseif(CMAKE_C_COMPILER_ID MATCHES "Clang")
	list(APPEND DP_WARNINGS_C -Wcomma -Wshorten-64-to-32 -Wconditional-uninitialized)
endif()

function(dp_warnings target)
	target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C>:${DP_WARNINGS_C}>)
	if(DP_WERROR)
		target_compile_options(${target} PRIVATE -Werror)
	endif()
endfunction()
