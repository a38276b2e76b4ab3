# cmake/Sanitizers.cmake - DP_SANITIZE=ON builds the tools and tests (not the runtime,
# which runs inside programs built by the user's compiler) with ASan and UBSan;
# DP_TSAN=ON with ThreadSanitizer instead (the two cannot be combined).
if(DP_SANITIZE AND DP_TSAN)
	message(FATAL_ERROR "DP_SANITIZE and DP_TSAN cannot be combined")
elseif(DP_SANITIZE)
	set(DP_SAN_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all
		-fno-omit-frame-pointer)
elseif(DP_TSAN)
	set(DP_SAN_FLAGS -fsanitize=thread -fno-omit-frame-pointer)
endif()

function(dp_sanitize target)
	if(DP_SANITIZE OR DP_TSAN)
		target_compile_options(${target} PRIVATE ${DP_SAN_FLAGS})
		# the sanitized builds check the assert()ed invariants too
		target_compile_options(${target} PRIVATE -UNDEBUG)
		target_link_options(${target} PRIVATE ${DP_SAN_FLAGS})
	endif()
endfunction()
