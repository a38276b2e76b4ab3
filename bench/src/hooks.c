/*
 * bench/src/hooks.c - empty -finstrument-functions hooks: the floor of the
 * instrumentation method. Linked into the "hooks" benchmark configuration, it measures
 * the bare cost of the calls the compiler inserts, against which deepprof's runtime is
 * judged. Compiled without -finstrument-functions.
 */

/* __cyg_profile_func_enter - called on entry of every instrumented function; does nothing. */
__attribute__((no_instrument_function, noinline)) void __cyg_profile_func_enter(void *fn,
										void *site);
/* __cyg_profile_func_exit - called on exit of every instrumented function; does nothing. */
__attribute__((no_instrument_function, noinline)) void __cyg_profile_func_exit(void *fn,
									       void *site);

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
