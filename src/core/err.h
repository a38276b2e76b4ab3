/*
 * core/err.h - error codes and the one place an error message is made.
 *
 * Functions in src/ return 0 on success or a negative enum dp_err; the message describing
 * the failure is made once, where the error is detected, with dp_error(), and the command
 * line prints it (dp_errmsg()). Depends on nothing.
 */
#ifndef DP_CORE_ERR_H
#define DP_CORE_ERR_H

enum dp_err {
	DP_OK = 0,
	DP_ENOMEM = 1,	/* out of memory or over a size ceiling */
	DP_EIO = 2,	/* a system call failed (open, read, write, rename, ...) */
	DP_EFORMAT = 3, /* malformed or truncated data file */
	DP_EUSAGE = 4,	/* bad command line, query or parameter */
	DP_ESYMBOL = 5, /* symbolization failed (missing object, build-id mismatch, ...) */
	DP_ENOENT = 6,	/* something named does not exist */
};

/*
 * dp_error - record the message for the current error and return -@code.
 * The message is kept in a thread-local buffer (truncated at 1 KiB) until the next call.
 */
int dp_error(enum dp_err code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* dp_errmsg - the message of the last dp_error() on this thread ("" if none). */
const char *dp_errmsg(void);

/* dp_errcode - the code of the last dp_error() on this thread (DP_OK if none). */
enum dp_err dp_errcode(void);

#endif /* DP_CORE_ERR_H */
