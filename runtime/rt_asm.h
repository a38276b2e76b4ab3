/*
 * runtime/rt_asm.h - the constants the stubs' assembly (rt_stub_x86_64.S) shares with the
 * C runtime: field offsets of the thread-local state, of a shadow-stack entry and of a
 * CSD, the CSD table's hash multiplier, and the kinds of the stubs' slow paths. Only
 * #defines, so that the assembler can include it; rt_stub.c checks every offset against
 * the structures of rt_int.h with static assertions.
 */
#ifndef DP_RT_ASM_H
#define DP_RT_ASM_H

/* struct dp_rt_tls */
#define DP_TLS_TOP   0
#define DP_TLS_LIMIT 8
#define DP_TLS_LAST  16

/* struct dp_rt_pd */
#define DP_PD_TAB  0
#define DP_PD_MASK 8

/* struct dp_rt_frame (DP_FRAME_SIZE bytes) */
#define DP_FRAME_CSD  0
#define DP_FRAME_PD   8
#define DP_FRAME_FP   16
#define DP_FRAME_FN   24
#define DP_FRAME_SIZE 32

/* struct dp_rt_csd */
#define DP_CSD_SITE	0
#define DP_CSD_FN	8
#define DP_CSD_CALLER	16
#define DP_CSD_CALLEE	24
#define DP_CSD_CALLS	40
#define DP_CSD_EXITS	48
#define DP_CSD_CALLSEQS 56

/* The CSD tables' multiplicative hash of a site (dp_rt_home), the high half of whose
 * 64-bit product is used: all 64 bits are needed (a 32-bit multiplier, which an imul
 * could take as an immediate, moves nearby sites by too few of those bits: most lookups
 * then probed many slots). The stubs read it from dp_rt_hash_mul. */
#define DP_RT_HASH_MUL 0x9E3779B97F4A7C15

/* The slow paths of the stubs (dp_rt_stub_slow, dp_rt_stub_full): the entry stub, the
 * exit stub called after the epilogue (before a `ret` or a sibling call's jump), and the
 * exit and tail-exit stubs called before the epilogue (clang). */
#define DP_STUB_ENTER 0
#define DP_STUB_RET   1
#define DP_STUB_EXIT  2
#define DP_STUB_TAIL  3

#endif /* DP_RT_ASM_H */
