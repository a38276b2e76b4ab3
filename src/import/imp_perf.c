/*
 * import/imp_perf.c - placeholder.
 */
#include "core/err.h"
#include "imp_int.h"
#include "import.h"

/* dp_imp_perf - imp_int.h: fill @b from @o->input and finish it, or abort it and return
 * the error. */
int dp_imp_perf(struct imp *b, const struct dp_import_opts *o)
{
	imp_abort(b);
	return dp_error(DP_EUSAGE, "%s: importing from perf is not implemented yet", o->input);
}
