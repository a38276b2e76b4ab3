/*
 * bench/src/stubs.S - empty stubs of deepprof's default method (runtime/rt_stub_x86_64.S):
 * the floor of that method. Linked into the "stubs" benchmark configuration, it measures
 * the bare cost of the stub calls gcc inserts (the plugin's stubs mode: -pg -mfentry
 * -minstrument-return=call), against which deepprof's runtime is judged.
 */
	.text
	.p2align 4
	.globl __deepprof_fentry, __fentry__, __return__, __deepprof_exit, __deepprof_tail
	.type __deepprof_fentry, @function
__deepprof_fentry:
__fentry__:
__return__:
__deepprof_exit:
__deepprof_tail:
	ret
	.size __deepprof_fentry, . - __deepprof_fentry
	.section .note.GNU-stack, "", @progbits
