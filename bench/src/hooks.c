/*
 * bench/src/hooks.c - empty -finstrument-functions hooks (and the plugin's tail-exit
 * hook): the floor of deepprof's hooks method (DEEPPROF_INSTRUMENT=after-inlining).
 * Linked into the "hooks" benchmark configuration, it measures the bare cost of the calls
 * the compiler inserts. Compiled without -finstrument-functions.
 */

/* __cyg_profile_func_enter - called on entry of every instrumented function; does nothing. */
__attribute__((no_instrument_function, noinline)) void __cyg_profile_func_enter(void *fn,
										void *site);
/* __cyg_profile_func_exit - called on exit of every instrumented function; does nothing. */
__attribute__((no_instrument_function, noinline)) void __cyg_profile_func_exit(void *fn,
									       void *site);
/* __deepprof_func_tail_exit - called before a kept tail call; does nothing. */
__attribute__((no_instrument_function, noinline)) void
__deepprof_func_tail_exit(void *fn, void *site, void *callee);

void __cyg_profile_func_enter(void *fn, void *site)
{
	(void)fn;
	(void)site;
}

void __cyg_profile_func_exit(void *fn, void *site)
{
	(void)fn;
	(void)site;
}

void __deepprof_func_tail_exit(void *fn, void *site, void *callee)
{
	(void)fn;
	(void)site;
	(void)callee;
}
