# cmake/Sanitizers.cmake - DP_SANITIZE=ON builds the tools and tests (not the runtime,
# which runs inside programs built by the user's compiler) with ASan and UBSan.
if(DP_SANITIZE)
	set(DP_SAN_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all
		-fno-omit-frame-pointer)
endif()

function(dp_sanitize target)
	if(DP_SANITIZE)
		target_compile_options(${target} PRIVATE ${DP_SAN_FLAGS})
		target_link_options(${target} PRIVATE ${DP_SAN_FLAGS})
	endif()
endfunction()
