/*
 * deepprof/deepprof.h - the runtime API a profiled program may call.
 *
 * Programs built with `deepprof cc` are profiled without calling anything; this header
 * is for programs that want to write their profile at a moment of their choosing, or to
 * mark regions of their own (an interpreter's guest functions, a parser's phases).
 * `deepprof cc` defines DEEPPROF=1 and puts this header on the include path; the
 * DEEPPROF_ENTER and DEEPPROF_LEAVE macros compile to nothing without DEEPPROF.
 */
#ifndef DEEPPROF_DEEPPROF_H
#define DEEPPROF_DEEPPROF_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * deepprof_write - write the profile collected so far to the output file now.
 *
 * The file is named by DEEPPROF_OUTPUT (default Deep.data) and written atomically (a
 * temporary file renamed into place). Collection goes on; a later write (another call,
 * the periodic or signal-triggered write, or the one at exit) replaces the file with a
 * newer snapshot. Callable from any thread, but not from a signal handler.
 *
 * Return: 0 on success, -1 if the file could not be written (the reason is printed once
 * on stderr and recorded in the next file written).
 */
int deepprof_write(void);

/**
 * deepprof_enter - enter the region named @name (a NUL-terminated string; the first
 * 1024 bytes count).
 *
 * A region is a procedure of the profile, of kind region, named @name: calls made until
 * the matching deepprof_leave() are its children, its call site is the caller of
 * deepprof_enter(), regions nest in functions and in each other, and a region entered
 * again while open folds like a recursive function. Names are compared by content, so
 * @name may be a buffer the program reuses. A region still open when the function that
 * entered it returns, or is left by longjmp or an exception, is closed then (counted as
 * an unwind). Callable from any thread; after a name's first use it takes no lock and
 * allocates nothing. At most 65,536 distinct names (later ones are not profiled).
 */
void deepprof_enter(const char *name);

/**
 * deepprof_leave - leave the region named @name, which must be the innermost open one
 * (entered by the same function, or a region it entered). A leave that names another
 * region leaves nothing and is counted for the region it names; `deepprof check`
 * reports such mismatched leaves.
 */
void deepprof_leave(const char *name);

#ifdef DEEPPROF
#define DEEPPROF_ENTER(name) deepprof_enter(name)
#define DEEPPROF_LEAVE(name) deepprof_leave(name)
#else
#define DEEPPROF_ENTER(name) ((void)0)
#define DEEPPROF_LEAVE(name) ((void)0)
#endif

#ifdef __cplusplus
}
#endif

#endif /* DEEPPROF_DEEPPROF_H */
