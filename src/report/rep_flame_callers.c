/*
 * report/rep_flame_callers.c - the flame_callers page: the inverted tree of one
 * procedure's callers (the rules are in rep_flame.c's header), made by the climb of
 * flame_climb.c (dp_fc_callers_tree()), then walked like the flame page's.
 */
#include "../core/err.h"
#include "rep_flame_int.h"

int dp_rep_flame_callers(struct dp_report *r, const struct dp_report_ctx *c)
{
	struct fl f;
	int rc = dp_fl_setup(&f, r, c);

	if (rc < 0)
		return rc;
	if (r->q.proc == 0 && !r->q.name[0])
		return dp_error(DP_EUSAGE, "page flame_callers needs proc=N or name=PROCEDURE");
	rc = dp_rep_resolve_proc(r, c, r->q.proc);
	if (rc < 0)
		return rc;
	f.callers = true;
	f.top = (uint32_t)rc;
	r->has_subject = true;
	dp_rep_row_ps(r, c, f.top, &r->subject);
	f.min = (double)dp_fl_value(f.m, &r->subject.own, &r->subject.desc) * r->q.min_pct / 100.0;
	r->title = dp_rep_printf(r, "Callers of %s (inverted flame graph)", r->subject.name);
	rc = r->title ? dp_fc_callers_tree(&f, r->q.depth) : -DP_ENOMEM;
	if (rc == 0)
		rc = dp_fl_walk_capped(&f, 1, dp_fl_value(f.m, &r->subject.own, &r->subject.desc));
	dp_fl_free(&f);
	return rc;
}
