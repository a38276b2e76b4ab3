# cmake/Fault.cmake - allocation fault injection (tests/fault/fault_alloc.h).
# dp_fault_inject(target) links @target's own calls to malloc, calloc, realloc, strdup and
# free through the wrappers that fail the N-th allocation. DP_FAULT=ON builds deepprof so
# (DP_FAULT_ALLOC=N deepprof ... fails the N-th); the fault-injection test always is.
option(DP_FAULT "Build deepprof with allocation fault injection (DP_FAULT_ALLOC=N)" OFF)

function(dp_fault_inject target)
	target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/tests/fault/fault_alloc.c)
	target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/tests/fault)
	target_link_options(${target} PRIVATE -rdynamic
		-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=free)
endfunction()
