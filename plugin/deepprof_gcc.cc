/*
 * plugin/deepprof_gcc.cc - a GCC plugin that instruments functions after inlining, so
 * that only functions that still exist in the object are profiled and inlined copies
 * cost nothing. Two methods: by default (argument `stubs`, x86-64) the register-
 * preserving stubs of gcc's own -pg -mfentry -minstrument-return=call, switched on here
 * inside cc1 so that the driver links no gprof start-up files (dp_stubs_*); otherwise the
 * -finstrument-functions hooks __cyg_profile_func_enter/exit, inserted as clang's
 * -finstrument-functions-after-inlining does. In C++ because GCC's plugin API is C++ only
 * (its headers are C++). Used by `deepprof cc` (src/cli/cmd_cc.c);
 * docs/internals/runtime.md, "The GCC plugin" and "The stubs".
 * GCC loads only plugins under a GPL-compatible licence: this file is under the MIT
 * licence (SPDX-License-Identifier: MIT).
 */
/* gcc-plugin.h first, then the order gcc's own sources use: not sorted. */
// clang-format off
#include "gcc-plugin.h"
#include "plugin-version.h"

#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimple-ssa.h"
#include "ssa.h"
#include "stringpool.h"
#include "attribs.h"
#include "options.h"
#include "langhooks.h"
#include "diagnostic-core.h"
#include "ggc.h"
#include "tm.h"
// clang-format on

/* The two symbols gcc looks up; everything else is hidden (CXX_VISIBILITY_PRESET). */
#define DP_PLUGIN_EXPORT __attribute__((visibility("default")))

/* GCC loads only plugins that declare this. */
DP_PLUGIN_EXPORT int plugin_is_GPL_compatible;

namespace
{

const pass_data dp_pass_data = {
	GIMPLE_PASS,
	"deepprof",		       /* name, for -fdump-tree-deepprof */
	OPTGROUP_NONE,		       /* optinfo_flags */
	TV_NONE,		       /* tv_id */
	PROP_ssa | PROP_cfg,	       /* properties_required */
	0,			       /* properties_provided */
	0,			       /* properties_destroyed */
	0,			       /* todo_flags_start */
	TODO_update_ssa_only_virtuals, /* todo_flags_finish */
};

/*
 * Whether @s contains one of the strings of @list, a list option as gcc keeps it (a
 * vec<char *>, NULL when the option was not given).
 */
bool dp_listed(void *list, const char *s)
{
	const vec<char *> *v = (const vec<char *> *)list;

	for (unsigned i = 0; v && s && i < v->length(); i++)
		if (strstr(s, (*v)[i]))
			return true;
	return false;
}

/*
 * Whether the function being compiled gets hooks: not if the user asked for none (the
 * attribute, or -finstrument-functions-exclude-function-list= or -file-list=, which gcc
 * keeps without -finstrument-functions: a substring of the function's name as the
 * language prints it, or of the file it is defined in, as gcc matches them), not if
 * gcc instruments it already (-finstrument-functions given too), not a naked function,
 * nor with a front end that does not declare the hooks (gcc's own instrumentation uses the
 * same declarations). The attribute is looked up by name: gcc sets
 * DECL_NO_INSTRUMENT_FUNCTION_ENTRY_EXIT on every function once gimplified, so the flag no longer
 * tells.
 */
bool dp_wanted(function *fun)
{
	tree fn = fun->decl;

	if (flag_instrument_function_entry_exit)
		return false;
	if (lookup_attribute("no_instrument_function", DECL_ATTRIBUTES(fn)))
		return false;
	if (lookup_attribute("naked", DECL_ATTRIBUTES(fn)))
		return false;
	if (dp_listed(flag_instrument_functions_exclude_functions,
		      lang_hooks.decl_printable_name(fn, 1)) ||
	    dp_listed(flag_instrument_functions_exclude_files, DECL_SOURCE_FILE(fn)))
		return false;
	return builtin_decl_implicit(BUILT_IN_PROFILE_FUNC_ENTER) &&
	       builtin_decl_implicit(BUILT_IN_PROFILE_FUNC_EXIT);
}

/* The runtime's tail-exit hook, void __deepprof_func_tail_exit(void *fn, void *site,
 * void *callee) (runtime/rt_hooks.c): built once per compilation. */
tree dp_tail_decl;

/* dp_tail_decl lives across functions: a root for gcc's garbage collector. */
const struct ggc_root_tab dp_roots[] = {
	{&dp_tail_decl, 1, sizeof(dp_tail_decl), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node},
	LAST_GGC_ROOT_TAB};

tree dp_tail_exit_decl(void)
{
	tree &decl = dp_tail_decl;

	if (!decl) {
		tree type = build_function_type_list(void_type_node, ptr_type_node, ptr_type_node,
						     ptr_type_node, NULL_TREE);

		decl = build_fn_decl("__deepprof_func_tail_exit", type);
		TREE_NOTHROW(decl) = 1;
		DECL_ATTRIBUTES(decl) = tree_cons(get_identifier("leaf"), NULL_TREE,
						  tree_cons(get_identifier("nothrow"), NULL_TREE,
							    DECL_ATTRIBUTES(decl)));
	}
	return decl;
}

/* A call of the hook @which (BUILT_IN_PROFILE_FUNC_ENTER or _EXIT, or END_BUILTINS for the
 * runtime's tail-exit hook, which also gets @callee) with the arguments gcc itself
 * passes: the function's address and __builtin_return_address(0), appended to @seq, at
 * source location @loc. The enter and exit hooks' declarations are gcc's own builtins,
 * so a user's declaration merges with them. */
void dp_build_hook(gimple_seq *seq, enum built_in_function which, function *fun, location_t loc,
		   tree callee = NULL_TREE)
{
	tree ra_fn = builtin_decl_implicit(BUILT_IN_RETURN_ADDRESS);
	tree ra = make_ssa_name(ptr_type_node);
	gcall *get = gimple_build_call(ra_fn, 1, integer_zero_node);
	gcall *hook;

	gimple_call_set_lhs(get, ra);
	gimple_set_location(get, loc);
	gimple_seq_add_stmt(seq, get);
	if (which == END_BUILTINS)
		hook = gimple_build_call(dp_tail_exit_decl(), 3, build_fold_addr_expr(fun->decl), ra,
					 callee);
	else
		hook = gimple_build_call(builtin_decl_implicit(which), 2,
					 build_fold_addr_expr(fun->decl), ra);
	gimple_set_location(hook, loc);
	gimple_seq_add_stmt(seq, hook);
}

/*
 * Whether the tail call @call (marked by gcc's tailc pass) stays a sibling call for sure
 * once the exit hook goes before it: every argument a scalar passed in a register (at
 * most six, no aggregate), so that the call needs no outgoing stack arguments, which
 * could make gcc's RTL expansion fall back to a real call after the hook has run; and
 * not a call of the runtime's API (deepprof_leave() at the end of a function must run
 * while the function is still the one the runtime sees), nor of __cxa_end_catch, which a
 * handler calls last and which runs the caught exception's destructor: that destructor
 * and what it calls belong to the catching function's context, so the catching function
 * must still be active then. Nor a call of a gcc builtin (__atomic_store_n, memcpy): the
 * expansion may make it inline code, and then the hook's callee argument, the builtin's
 * address, would be an undefined symbol (__atomic_store_4) and the exit hook after it
 * would run too.
 */
bool dp_keep_tail(gcall *call)
{
	tree callee = gimple_call_fndecl(call);

	if (gimple_call_num_args(call) > 6 || gimple_call_internal_p(call))
		return false;
	if (callee && DECL_BUILT_IN_CLASS(callee) != NOT_BUILT_IN)
		return false;
	/* the runtime's API (deepprof_leave, ...) runs in the caller's activation */
	if (callee && DECL_NAME(callee) &&
	    (strncmp(IDENTIFIER_POINTER(DECL_NAME(callee)), "deepprof_", 9) == 0 ||
	     strcmp(IDENTIFIER_POINTER(DECL_NAME(callee)), "__cxa_end_catch") == 0))
		return false;
	for (unsigned i = 0; i < gimple_call_num_args(call); i++) {
		tree t = TREE_TYPE(gimple_call_arg(call, i));

		if (!(INTEGRAL_TYPE_P(t) || POINTER_TYPE_P(t)) ||
		    !tree_fits_uhwi_p(TYPE_SIZE_UNIT(t)) || tree_to_uhwi(TYPE_SIZE_UNIT(t)) > 8)
			return false;
	}
	return true;
}

/* The address @call jumps to as a value the hook can take (a function's address, a
 * pointer), or a null pointer if it is not one. */
tree dp_callee(gcall *call)
{
	tree fn = gimple_call_fn(call);

	if (fn && TREE_CODE(fn) == OBJ_TYPE_REF)
		fn = OBJ_TYPE_REF_EXPR(fn);
	if (!fn || !is_gimple_val(fn) || !POINTER_TYPE_P(TREE_TYPE(fn)))
		return null_pointer_node;
	return fn;
}

/*
 * Give every call in tail position (gcc's tailc pass marked it, and gcc's RTL expansion
 * emits a marked call as a jump and drops the statements after it) the runtime's
 * tail-exit hook before it, if it surely stays a sibling call (dp_keep_tail); clear the
 * mark of the others, whose return now follows the exit hook (a call left marked would
 * skip it). MLton's rule: when only the profiling exit makes a call a non-tail call, the
 * exit moves before the call, so a program written with tail calls runs in constant stack
 * under profiling. With @check, only tell whether a call must stay a tail call (g++ makes
 * some thunks so): such a function is left without hooks.
 */
bool dp_tails(function *fun, bool check)
{
	basic_block bb;

	FOR_EACH_BB_FN(bb, fun)
	{
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
			gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
			gimple_seq seq = NULL;

			if (!call)
				continue;
			if (check && gimple_call_must_tail_p(call))
				return true;
			if (check || !gimple_call_tail_p(call))
				continue;
			if (!dp_keep_tail(call)) {
				gimple_call_set_tail(call, false);
				continue;
			}
			dp_build_hook(&seq, END_BUILTINS, fun, gimple_location(call),
				      dp_callee(call));
			gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
		}
	}
	return false;
}

/* The enter hook on the edge out of the entry block, at the function's line; an exit hook
 * before every return, at the return's line (a path through a sibling call never reaches
 * it: dp_tails). */
unsigned int dp_instrument(function *fun)
{
	edge e;
	edge_iterator ei;
	gimple_seq seq = NULL;

	if (dp_tails(fun, true))
		return 0;
	dp_tails(fun, false);
	dp_build_hook(&seq, BUILT_IN_PROFILE_FUNC_ENTER, fun, DECL_SOURCE_LOCATION(fun->decl));
	gsi_insert_seq_on_edge_immediate(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)), seq);
	FOR_EACH_EDGE(e, ei, EXIT_BLOCK_PTR_FOR_FN(fun)->preds)
	{
		gimple_stmt_iterator gsi = gsi_last_bb(e->src);

		if (gsi_end_p(gsi) || gimple_code(gsi_stmt(gsi)) != GIMPLE_RETURN)
			continue; /* a noreturn call or a throw: no exit hook, as in clang */
		seq = NULL;
		dp_build_hook(&seq, BUILT_IN_PROFILE_FUNC_EXIT, fun,
			      gimple_location(gsi_stmt(gsi)));
		gsi_insert_seq_before(&gsi, seq, GSI_SAME_STMT);
	}
	return 0;
}

/* The stubs method is on for this compilation (dp_stubs_init). */
bool dp_stubs;

/*
 * Switch on gcc's -pg -mfentry -minstrument-return=call for the whole compilation, as if
 * given on cc1's command line (the driver never sees -pg, so it links no gcrt1.o and
 * writes no gmon.out): every function calls __deepprof_fentry first, before its
 * prologue, and __return__ after its epilogue, right before its `ret` or a sibling
 * call's jump, both without arguments and without clobbering a register
 * (runtime/rt_stub_x86_64.S). Only on x86-64 with the small or medium code model (the
 * runtime finds a function's entry from the call's return address) and when neither -pg
 * nor -finstrument-functions is given; returns whether it did.
 */
bool dp_stubs_init(void)
{
	/* plugins start before the target's option override: -mcmodel= is as given */
	if (!TARGET_64BIT || profile_flag || flag_instrument_function_entry_exit ||
	    (global_options_set.x_ix86_cmodel && ix86_cmodel != CM_SMALL &&
	     ix86_cmodel != CM_MEDIUM))
		return false;
	profile_flag = 1;
	global_options_set.x_profile_flag = 1;
	flag_fentry = 1;
	global_options_set.x_flag_fentry = 1; /* or the target's option override resets it */
	fentry_name = "__deepprof_fentry";
	ix86_instrument_return = instrument_return_call;
	return true;
}

/*
 * The stubs method for one function: without them if the user asked for none (the same
 * rules as for the hooks, dp_wanted) or if it must keep a tail call (a g++ thunk): gcc
 * emits neither stub call for a function flagged no-instrument. Calls in tail position of
 * the runtime's API and of __cxa_end_catch lose their tail-call mark, as with the hooks
 * (dp_keep_tail): they must run while the function is still the runtime's current one.
 * Every other sibling call stays one: gcc puts the exit stub's call before its jump.
 */
unsigned int dp_stubs_instrument(function *fun)
{
	basic_block bb;

	if (!dp_wanted(fun) || dp_tails(fun, true)) {
		DECL_NO_INSTRUMENT_FUNCTION_ENTRY_EXIT(fun->decl) = 1;
		return 0;
	}
	FOR_EACH_BB_FN(bb, fun)
	{
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
			gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
			tree callee = call ? gimple_call_fndecl(call) : NULL_TREE;
			const char *name;

			if (!call || !gimple_call_tail_p(call) || !callee || !DECL_NAME(callee))
				continue;
			name = IDENTIFIER_POINTER(DECL_NAME(callee));
			if (strncmp(name, "deepprof_", 9) == 0 || strcmp(name, "__cxa_end_catch") == 0)
				gimple_call_set_tail(call, false);
		}
	}
	return 0;
}

class dp_pass : public gimple_opt_pass
{
      public:
	dp_pass(gcc::context *ctxt) : gimple_opt_pass(dp_pass_data, ctxt)
	{
	}
	bool gate(function *fun) final override
	{
		return dp_stubs || dp_wanted(fun);
	}
	unsigned int execute(function *fun) final override
	{
		return dp_stubs ? dp_stubs_instrument(fun) : dp_instrument(fun);
	}
};

} // namespace

/*
 * plugin_init - gcc's entry point: checks that the plugin runs in the gcc it was built
 * for, switches the stubs method on if asked (-fplugin-arg-deepprof_gcc-stubs) and
 * possible, and inserts the pass after "optimized", the last GIMPLE pass (after
 * inlining, cloning and tail-call marking; it runs at every -O level). Returns 0 on
 * success.
 */
DP_PLUGIN_EXPORT int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
	struct register_pass_info pass;

	if (!plugin_default_version_check(version, &gcc_version)) {
		error("%<deepprof_gcc%> was built for gcc %s, not for this gcc %s",
		      gcc_version.basever, version->basever);
		return 1;
	}
	for (int i = 0; i < info->argc; i++)
		if (strcmp(info->argv[i].key, "stubs") == 0)
			dp_stubs = dp_stubs_init();
	pass.pass = new dp_pass(g);
	pass.reference_pass_name = "optimized";
	pass.ref_pass_instance_number = 1;
	pass.pos_op = PASS_POS_INSERT_AFTER;
	register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
	register_callback(info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL, (void *)dp_roots);
	return 0;
}
