/* placeholder */
#include "../core/err.h"
#include "export_int.h"

int dp_exp_speedscope(const struct dp_exp_tree *t, const struct dp_export_opts *o,
		      struct dp_exp_out *out)
{
	(void)t;
	(void)o;
	(void)out;
	return dp_error(DP_EUSAGE, "not yet");
}
