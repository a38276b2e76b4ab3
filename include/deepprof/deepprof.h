/*
 * deepprof/deepprof.h - the runtime API a profiled program may call.
 *
 * Programs built with `deepprof cc` are profiled without calling anything; this header
 * is for programs that want to write their profile at a moment of their choosing.
 * `deepprof cc` defines DEEPPROF=1 and puts this header on the include path.
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

#ifdef __cplusplus
}
#endif

#endif /* DEEPPROF_DEEPPROF_H */
