/*
 * tests/unit/test_report_names.c - names as users type them and the search page, on the
 * fixture with C++ names: name= without a parameter list, with "...", qualified by its
 * file; every overload listed when ambiguous; the nearest name for a miss; every
 * shortening the text tables make of a name pastes back; search by substring and by
 * regular expression over procedures, modules and objects.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/err.h"
#include "../../src/core/url.h"
#include "../../src/display/display_int.h"
#include "../../src/report/report_int.h"
#include "harness.h"
#include "test_report_fix.h"

/* the fixture with C++ names: work is Json::throwLogicError, the two dups overloads of
 * ns::f (in a.c and b.c), cb1 a member of std::map */
static int cxx_names(struct dp_profile *p)
{
	static const struct {
		uint32_t ps;
		const char *name;
	} names[] = {
		{TF_WORK, "Json::throwLogicError(std::string const&)"},
		{TF_DUP_A, "ns::f(int)"},
		{TF_DUP_B, "ns::f(double)"},
		{TF_CB1, "std::map<int, int, std::less<int> >::find(int const&) const"},
	};

	if (tf_build(p) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int64_t id = dp_strtab_intern_cstr(&p->strs, names[i].name);

		if (id < 0)
			return -1;
		p->ps[names[i].ps].name = (uint32_t)id;
	}
	return 0;
}

/* the procedure name= @name finds on the proc page (0: none; the error in *@rc) */
static uint32_t found(struct tf_ctx *t, const char *name, int *rc)
{
	struct dp_buf q;
	struct dp_report *r;
	uint32_t ps;

	dp_buf_init(&q, 1 << 16);
	dp_buf_adds(&q, "page=proc&name=");
	dp_url_encode(&q, name, NULL);
	r = tf_report(t, dp_buf_cstr(&q), rc, 1);
	dp_buf_release(&q);
	ps = r ? r->subject.id : 0;
	if (r && rc)
		*rc = 0;
	dp_report_free(r);
	return ps;
}

TEST(names_as_typed)
{
	struct tf_ctx t;
	int rc;

	TF_OPEN(&t, cxx_names);
	/* without the parameter list; exactly; the linkage of an overload by its list */
	CHECK_EQ(found(&t, "Json::throwLogicError", &rc), TF_WORK);
	CHECK_EQ(found(&t, "Json::throwLogicError(std::string const&)", &rc), TF_WORK);
	CHECK_EQ(found(&t, "ns::f(int)", &rc), TF_DUP_A);
	/* overloads: every one listed, with its id */
	CHECK_EQ(found(&t, "ns::f", &rc), 0);
	CHECK_EQ(rc, -DP_EUSAGE);
	CHECK(strstr(dp_errmsg(), "2 procedures are called 'ns::f'; choose one by id: id=11 "
				  "ns::f(int) (src/a.c); id=12 ns::f(double) (src/b.c)") != NULL);
	/* qualified by the file, as tables print names of another module */
	CHECK_EQ(found(&t, "a.c: ns::f", &rc), TF_DUP_A);
	CHECK_EQ(found(&t, "b.c: ns::f", &rc), TF_DUP_B);
	CHECK_EQ(found(&t, "util.c: cheap", &rc), TF_CHEAP);
	CHECK_EQ(found(&t, "a.c: cheap", &rc), 0);
	/* "..." for any text */
	CHECK_EQ(found(&t, "std::map<...>::find", &rc), TF_CB1);
	CHECK_EQ(found(&t, "std::map<...>::find(...) const", &rc), TF_CB1);
	CHECK_EQ(found(&t, "std::ma...t&) const", &rc), TF_CB1);
	CHECK_EQ(found(&t, "...LogicError", &rc), TF_WORK);
	/* misses: the nearest name, or the one containing the text */
	CHECK_EQ(found(&t, "chaep", &rc), 0);
	CHECK_EQ(rc, -DP_ENOENT);
	CHECK(strstr(dp_errmsg(), "did you mean 'cheap'?") != NULL);
	CHECK_EQ(found(&t, "throwLogic", &rc), 0);
	CHECK(strstr(dp_errmsg(), "did you mean 'Json::throwLogicError'?") != NULL);
	CHECK_EQ(found(&t, "zzzzzzzzzz", &rc), 0);
	CHECK(strstr(dp_errmsg(), "did you mean") == NULL);
	CHECK(strstr(dp_errmsg(), "page=search&q=zzzzzzzzzz") != NULL);
	tf_close(&t);
}

/* every shortening of a name the text tables make finds it again */
TEST(shortened_names_paste_back)
{
	static const uint32_t ps[] = {TF_WORK, TF_CB1, TF_MAIN};
	struct tf_ctx t;
	struct dp_buf s;
	unsigned tried = 0;

	TF_OPEN(&t, cxx_names);
	dp_buf_init(&s, 1 << 16);
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		const char *name = dp_profile_str(&t.p, t.p.ps[ps[i]].name);

		for (size_t w = 6; w <= strlen(name); w++) {
			int rc;

			CHECK_EQ(dp_shorten_name(&s, name, w), 0);
			if (strstr(dp_buf_cstr(&s), "...") == NULL && strcmp(dp_buf_cstr(&s), name))
				continue;
			tried++;
			if (found(&t, dp_buf_cstr(&s), &rc) != ps[i])
				fprintf(stderr, "'%s' (%zu columns of '%s') did not find it: %s\n",
					dp_buf_cstr(&s), w, name, dp_errmsg());
			CHECK_EQ(found(&t, dp_buf_cstr(&s), &rc), ps[i]);
		}
	}
	CHECK(tried > 50);
	dp_buf_release(&s);
	tf_close(&t);
}

TEST(name_base)
{
	CHECK_EQ(dp_rep_name_base("f"), 1);
	CHECK_EQ(dp_rep_name_base("ns::f(int)"), 5);
	CHECK_EQ(dp_rep_name_base("ns::C::g() const &&"), 8);
	CHECK_EQ(dp_rep_name_base("operator()(int) noexcept"), 10);
	CHECK_EQ(dp_rep_name_base("f(std::function<void (int)>)"), 1);
	CHECK_EQ(dp_rep_name_base("(anonymous namespace)"), 21);
	CHECK(dp_rep_name_like("ns::f", "ns::f(int)"));
	CHECK(!dp_rep_name_like("ns::f(", "ns::f(int)"));
	CHECK(dp_rep_name_like("a...c...e", "abcde"));
	CHECK(!dp_rep_name_like("a...c...e", "abcdef"));
	CHECK(!dp_rep_name_like("ns::g", "ns::f(int)"));
}

static uint32_t rows_of(const struct dp_report *r, const char *sec)
{
	const struct dp_rep_section *s = r ? tf_section(r, sec) : NULL;

	return s ? s->n_rows : UINT32_MAX;
}

TEST(search_page)
{
	struct tf_ctx t;
	struct dp_report *r;
	int rc;

	TF_OPEN(&t, cxx_names);
	/* a substring, case aside, in procedure names and source files */
	r = tf_report(&t, "page=search&q=MAP", NULL, 0);
	CHECK_EQ(rows_of(r, "procs"), 1);
	CHECK(r && tf_section(r, "procs")->rows[0].id == TF_CB1);
	CHECK_EQ(rows_of(r, "modules"), 0);
	CHECK(r && tf_fact(r, "procs") == 1);
	dp_report_free(r);
	r = tf_report(&t, "page=search&q=util", NULL, 0);
	CHECK_EQ(rows_of(r, "procs"), 0);
	CHECK_EQ(rows_of(r, "modules"), 1);
	dp_report_free(r);
	/* a regular expression: the two overloads, sorted by name */
	r = tf_report(&t, "page=search&q=%5Ens%3A%3A&match=regex&sort=name", NULL, 0);
	CHECK_EQ(rows_of(r, "procs"), 2);
	if (rows_of(r, "procs") == 2) {
		CHECK_STR(tf_section(r, "procs")->rows[0].name, "ns::f(double)");
		CHECK_STR(tf_section(r, "procs")->rows[1].name, "ns::f(int)");
	}
	dp_report_free(r);
	/* paged: one procedure a bunch */
	r = tf_report(&t, "page=search&q=i&size=1&bunch=2", NULL, 0);
	CHECK_EQ(rows_of(r, "procs"), 1);
	CHECK(r && r->n_bunches > 2);
	dp_report_free(r);
	CHECK(tf_report(&t, "page=search&q=%28&match=regex", &rc, 1) == NULL);
	CHECK_EQ(rc, -DP_EUSAGE);
	CHECK(strstr(dp_errmsg(), "bad regular expression '('") != NULL);
	tf_close(&t);
}

DP_TEST_MAIN(test_names_as_typed, test_shortened_names_paste_back, test_name_base, test_search_page)
