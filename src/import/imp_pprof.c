/*
 * import/imp_pprof.c - placeholder.
 */
#include "core/err.h"
#include "imp_int.h"
#include "import.h"

/* dp_imp_pprof - imp_int.h: fill @b from @o->input and finish it, or abort it and return
 * the error. */
int dp_imp_pprof(struct imp *b, const struct dp_import_opts *o)
{
	imp_abort(b);
	return dp_error(DP_EUSAGE, "%s: importing from pprof is not implemented yet", o->input);
}
