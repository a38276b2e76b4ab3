/*
 * core/err.c - the thread-local last-error message behind dp_error().
 */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_msg[1024];
static _Thread_local enum dp_err last_code;

int dp_error(enum dp_err code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
	va_end(ap);
	last_code = code;
	return -(int)code;
}

const char *dp_errmsg(void)
{
	return last_msg;
}

enum dp_err dp_errcode(void)
{
	return last_code;
}
