/*
 * tests/unit/test_report2_fix.h - the fixture of the report tests of the menu, list,
 * dump and JSON pages: a profile (the sample, or any) with its analysis, building a
 * report from a query string, and finding facts and sections by key. Test code only.
 */
#ifndef DP_TEST_REPORT2_FIX_H
#define DP_TEST_REPORT2_FIX_H

#include <stdlib.h>

#include "analysis/analysis.h"
#include "core/err.h"
#include "deepprof/format.h"
#include "harness.h"
#include "report/report.h"
#include "sample_profile.h"

struct fix {
	struct dp_profile p;
	struct dp_analysis *a;
	struct dp_report_ctx c;
};

/* fix_analyse - analyse f->p (already filled) and set up the context */
static inline int fix_analyse(struct fix *f)
{
	int err = 0;

	f->a = dp_analysis_new(&f->p, &err);
	if (!f->a) {
		fprintf(stderr, "dp_analysis_new: %s\n", dp_errmsg());
		dp_profile_release(&f->p);
		return -1;
	}
	f->c = (struct dp_report_ctx){.p = &f->p, .a = f->a};
	return 0;
}

/* fix_sample - the sample profile with @features (DP_FEAT_SYMBOLIZED is always added) */
static inline int fix_sample(struct fix *f, uint64_t features)
{
	if (dp_sample_profile(&f->p, features | DP_FEAT_SYMBOLIZED) < 0)
		return -1;
	return fix_analyse(f);
}

static inline void fix_release(struct fix *f)
{
	dp_analysis_free(f->a);
	dp_profile_release(&f->p);
}

/* fix_try - build the report of @qs; return the dp_report_build() code, *@out set */
static inline int fix_try(struct fix *f, const char *qs, struct dp_report **out)
{
	struct dp_query q;
	int rc = dp_query_parse(qs, f->a->root_total.samples > 10, &q);

	*out = NULL;
	if (rc < 0) {
		fprintf(stderr, "dp_query_parse(%s): %s\n", qs, dp_errmsg());
		return rc;
	}
	return dp_report_build(&f->c, &q, out);
}

/* fix_report - the report of @qs, which must build (a failed check and NULL if not) */
static inline struct dp_report *fix_report(struct fix *f, const char *qs)
{
	struct dp_report *r = NULL;
	int rc = fix_try(f, qs, &r);

	if (rc < 0)
		fprintf(stderr, "report %s: %s\n", qs, dp_errmsg());
	CHECK_EQ(rc, 0);
	return rc < 0 ? NULL : r;
}

static inline const struct dp_rep_fact *fact(const struct dp_report *r, const char *key)
{
	for (uint32_t i = 0; r && i < r->n_facts; i++)
		if (strcmp(r->facts[i].key, key) == 0)
			return &r->facts[i];
	return NULL;
}

/* fact_u - the value of u64 fact @key, UINT64_MAX if absent or of another type */
static inline uint64_t fact_u(const struct dp_report *r, const char *key)
{
	const struct dp_rep_fact *f = fact(r, key);

	return f && f->type == DP_FACT_U64 ? f->u : UINT64_MAX;
}

/* fact_s - the value of string fact @key, NULL if absent or of another type */
static inline const char *fact_s(const struct dp_report *r, const char *key)
{
	const struct dp_rep_fact *f = fact(r, key);

	return f && f->type == DP_FACT_STR ? f->s : NULL;
}

static inline const struct dp_rep_section *section(const struct dp_report *r, const char *id)
{
	for (uint32_t i = 0; r && i < r->n_sections; i++)
		if (strcmp(r->sections[i].id, id) == 0)
			return &r->sections[i];
	return NULL;
}

/* CHECK_IDS(section, kind, ids...) - the section's rows are of @kind with exactly @ids */
#define CHECK_IDS(sec, k, ...)                                                                \
	do {                                                                                  \
		const uint32_t ids_[] = {__VA_ARGS__};                                        \
		const struct dp_rep_section *s_ = (sec);                                      \
		CHECK(s_ != NULL);                                                            \
		if (!s_)                                                                      \
			break;                                                                \
		CHECK_EQ(s_->n_rows, sizeof(ids_) / sizeof(ids_[0]));                         \
		for (uint32_t i_ = 0; i_ < s_->n_rows && i_ < sizeof(ids_) / sizeof(ids_[0]); \
		     i_++) {                                                                  \
			CHECK_EQ(s_->rows[i_].id, ids_[i_]);                                  \
			CHECK_EQ(s_->rows[i_].kind, (k));                                     \
		}                                                                             \
	} while (0)

/* CHECK_EMPTY(section) - the section exists and has no rows */
#define CHECK_EMPTY(sec)                                   \
	do {                                               \
		const struct dp_rep_section *s_ = (sec);   \
		CHECK(s_ != NULL);                         \
		CHECK_EQ(s_ ? s_->n_rows : UINT32_MAX, 0); \
	} while (0)

#endif /* DP_TEST_REPORT2_FIX_H */
