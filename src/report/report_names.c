/*
 * report/report_names.c - names as users type them: a procedure named without its
 * parameter list, with "..." for any text (what the text tables print when they shorten
 * a name: "f(...)", "std::map<...>::find", "abcd...xyz"), or as "file.c: name" (module
 * qualified, as the tables print it); the ambiguous ones listed, the unknown ones with a
 * "did you mean". Used by name= (dp_rep_resolve_proc) and the search page.
 */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <string.h>

#include "../core/err.h"
#include "../core/suggest.h"
#include "deepprof/format.h"
#include "report_int.h"

/* whether @s[0..n) ends with the word @w (preceded by a space or a ')') */
static bool ends_with_word(const char *s, size_t n, const char *w)
{
	size_t lw = strlen(w);

	return n > lw && memcmp(s + n - lw, w, lw) == 0 &&
	       (s[n - lw - 1] == ' ' || s[n - lw - 1] == ')');
}

size_t dp_rep_name_base(const char *name)
{
	size_t n = strlen(name);
	int depth = 0;

	/* trailing qualifiers of a member function: const, volatile, &, &&, noexcept */
	for (;;) {
		while (n > 0 && (name[n - 1] == ' ' || name[n - 1] == '&'))
			n--;
		if (ends_with_word(name, n, "const"))
			n -= 5;
		else if (ends_with_word(name, n, "volatile"))
			n -= 8;
		else if (ends_with_word(name, n, "noexcept"))
			n -= 8;
		else
			break;
	}
	if (n == 0 || name[n - 1] != ')')
		return strlen(name);
	while (n > 0) { /* back to the '(' matching the last ')' */
		char ch = name[--n];

		depth += ch == ')' ? 1 : ch == '(' ? -1 : 0;
		if (depth == 0)
			break;
	}
	/* "(anonymous namespace)" or another parenthesised word alone: no parameters */
	return depth == 0 && n > 0 ? n : strlen(name);
}

/* dots_at - the first run of three dots or more in @p[0..n) (its start; *@len its
 * length), or NULL: a shortened name's "..." may meet an elided "(...)" as "....)" */
static const char *dots_at(const char *p, size_t n, size_t *len)
{
	const char *d = n >= 3 ? memmem(p, n, "...", 3) : NULL;

	if (d)
		for (*len = 3; (size_t)(d - p) + *len < n && d[*len] == '.';)
			(*len)++;
	return d;
}

/* like - whether @name[0..nlen) matches pattern @pat[0..plen) in which a run of three
 * dots or more is any text */
static bool like(const char *pat, size_t plen, const char *name, size_t nlen)
{
	size_t dl = 0, head, pos;
	const char *dots = dots_at(pat, plen, &dl);

	if (!dots)
		return plen == nlen && memcmp(pat, name, plen) == 0;
	head = (size_t)(dots - pat);
	if (head > nlen || memcmp(pat, name, head) != 0)
		return false;
	pat += head + dl;
	plen -= head + dl;
	pos = head;
	for (;;) { /* each segment after dots: the first place it fits, the last at the end */
		const char *next = dots_at(pat, plen, &dl);
		size_t seg = next ? (size_t)(next - pat) : plen;
		const char *at;

		if (!next)
			return seg <= nlen - pos && memcmp(name + nlen - seg, pat, seg) == 0;
		at = seg ? memmem(name + pos, nlen - pos, pat, seg) : name + pos;
		if (!at)
			return false;
		pos = (size_t)(at - name) + seg;
		pat += seg + dl;
		plen -= seg + dl;
	}
}

bool dp_rep_name_like(const char *pat, const char *name)
{
	size_t plen = strlen(pat), nlen = strlen(name);

	if (like(pat, plen, name, nlen))
		return true;
	/* without a parameter list, the name without its own */
	return !memchr(pat, '(', plen) && like(pat, plen, name, dp_rep_name_base(name));
}

/* The names a procedure answers to: its label (demangled) and its linkage name. */
static const char *ps_names(const struct dp_profile *p, uint32_t ps, char *buf, size_t len,
			    const char **linkage)
{
	*linkage = p->ps[ps].linkage_name ? dp_profile_str(p, p->ps[ps].linkage_name) : NULL;
	return dp_profile_ps_label(p, ps, buf, len);
}

/* A name as asked: the pattern, and the module its "file.c: " prefix names (0 = any). */
struct asked {
	const char *pat;
	const char *file; /* the prefix's file name, NULL = none */
	size_t file_len;
};

static struct asked asked_of(const char *name)
{
	const char *colon = strstr(name, ": ");
	struct asked a = {name, NULL, 0};

	/* "util.c: cheap": a file name (no space, no "::") then ": " */
	if (colon && colon > name && !memchr(name, ' ', (size_t)(colon - name)) &&
	    colon[-1] != ':' && memchr(name, '.', (size_t)(colon - name))) {
		a.file = name;
		a.file_len = (size_t)(colon - name);
		a.pat = colon + 2;
	}
	return a;
}

/* whether the module of @ps has the base name the asked prefix gives (if any) */
static bool in_asked_file(const struct dp_report_ctx *c, uint32_t ps, const struct asked *a)
{
	const char *path, *base;

	if (!a->file)
		return true;
	path = dp_analysis_module_name(c->a, c->a->ps_module[ps]);
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return strlen(base) == a->file_len && memcmp(base, a->file, a->file_len) == 0;
}

/* matches - whether @ps answers to @a: exactly (@loose false) or as typed (true) */
static bool matches(const struct dp_report_ctx *c, uint32_t ps, const struct asked *a, bool loose)
{
	char buf[64];
	const char *linkage, *label = ps_names(c->p, ps, buf, sizeof(buf), &linkage);

	if (!in_asked_file(c, ps, a))
		return false;
	if (!loose)
		return strcmp(label, a->pat) == 0 || (linkage && strcmp(linkage, a->pat) == 0);
	return dp_rep_name_like(a->pat, label) || (linkage && dp_rep_name_like(a->pat, linkage));
}

/* ambiguous - the -DP_EUSAGE error listing up to 10 of the @n_match procedures matching */
static int ambiguous(const struct dp_report_ctx *c, const char *name, const struct asked *a,
		     bool loose, uint32_t n_match)
{
	const struct dp_profile *p = c->p;
	char list[1536], buf[64];
	size_t len = 0;
	uint32_t shown = 0;

	list[0] = 0;
	for (uint32_t ps = 1; ps <= p->n_ps && shown < 10; ps++) {
		const char *path;
		int w;

		if (!matches(c, ps, a, loose))
			continue;
		path = dp_analysis_module_name(c->a, c->a->ps_module[ps]);
		w = snprintf(list + len, sizeof(list) - len, "%s id=%u %s (%s)", shown ? ";" : "",
			     ps, dp_profile_ps_label(p, ps, buf, sizeof(buf)), path);
		if (w < 0 || (size_t)w >= sizeof(list) - len)
			break;
		len += (size_t)w;
		shown++;
	}
	return dp_error(DP_EUSAGE, "%u procedures are called '%s'; choose one by id:%s%s", n_match,
			name, list, n_match > shown ? "; ..." : "");
}

/* The one procedure name (without its parameter list) that contains @pat, ASCII case
 * aside, into @out (@size bytes); "" if none or several do. */
static void containing_name(const struct dp_report_ctx *c, const char *pat, char *out, size_t size)
{
	const struct dp_profile *p = c->p;
	uint32_t found = 0;
	char buf[64];

	out[0] = 0;
	for (uint32_t ps = 1; ps <= p->n_ps && found < 2; ps++) {
		const char *label;
		size_t n;

		if (p->ps[ps].kind != DP_PS_FUNCTION && p->ps[ps].kind != DP_PS_REGION)
			continue;
		label = dp_profile_ps_label(p, ps, buf, sizeof(buf));
		n = dp_rep_name_base(label);
		if (!strcasestr(label, pat) || (size_t)(strcasestr(label, pat) - label) >= n)
			continue;
		if (found++ == 0 || strncmp(out, label, n) || out[n])
			snprintf(out, size, "%.*s", (int)n, label);
	}
	if (found != 1)
		out[0] = 0;
}

/* The nearest name to @pat of the procedures (by edit distance, without parameter
 * lists, else the one containing it), into @out (@size bytes); "" if none is near. */
static void nearest_name(const struct dp_report_ctx *c, const char *pat, char *out, size_t size)
{
	const struct dp_profile *p = c->p;
	size_t best = dp_suggest_max(pat) + 1, plen = strlen(pat);
	char buf[64], base[256];

	out[0] = 0;
	for (uint32_t ps = 1; ps <= p->n_ps && best > 0; ps++) {
		const char *label;
		size_t n, d;

		if (p->ps[ps].kind != DP_PS_FUNCTION && p->ps[ps].kind != DP_PS_REGION)
			continue;
		label = dp_profile_ps_label(p, ps, buf, sizeof(buf));
		n = dp_rep_name_base(label);
		if (n >= sizeof(base) || (n > plen ? n - plen : plen - n) >= best)
			continue;
		memcpy(base, label, n);
		base[n] = 0;
		d = dp_edit_distance(pat, base, best - 1);
		if (d < best) {
			best = d;
			snprintf(out, size, "%s", base);
		}
	}
	if (!out[0])
		containing_name(c, pat, out, size);
}

int dp_rep_resolve_proc(struct dp_report *r, const struct dp_report_ctx *c, uint32_t id)
{
	const struct dp_profile *p = c->p;
	const char *name = r->q.name;
	uint32_t found = 0, n_match = 0;
	char near[256];
	struct asked a;
	int rc;

	if (id) {
		rc = dp_rep_check_id(r, "procedure", id, p->n_ps);
		return rc < 0 ? rc : (int)id;
	}
	if (!name[0])
		return dp_error(DP_EUSAGE, "page %s needs id=N or name=PROCEDURE",
				dp_query_page_name(r->q.page));
	a = asked_of(name);
	for (int loose = 0; loose < 2 && n_match == 0; loose++) {
		for (uint32_t ps = 1; ps <= p->n_ps; ps++) {
			if (matches(c, ps, &a, loose)) {
				found = ps;
				n_match++;
			}
		}
		if (n_match > 1)
			return ambiguous(c, name, &a, loose, n_match);
	}
	if (n_match == 1)
		return (int)found;
	nearest_name(c, a.pat, near, sizeof(near));
	if (near[0])
		return dp_error(DP_ENOENT,
				"no procedure is called '%s'; did you mean '%s'? (to search: "
				"page=search&q=%s)",
				name, near, a.pat);
	return dp_error(DP_ENOENT, "no procedure is called '%s' (to search: page=search&q=%s)",
			name, a.pat);
}
