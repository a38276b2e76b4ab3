/*
 * analysis/contour.c - contour exclusion (mercury-deep-profiler.md C.9): parsing a
 * FILE.contour ("all MODULE" / "internal MODULE" lines) into the set of excluded
 * procedures, and dp_contour_site(), the walk from a caller CSD up through excluded
 * callers to the call site it is grouped under.
 */
#include "contour.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/vec.h"
#include "deepprof/format.h"

#define CT_FILE_MAX   ((size_t)64 << 20) /* a contour file is a few lines; refuse more */
#define CT_SHOW_MAX   60		 /* bytes of a bad line quoted in a message */
#define CT_WARN_LINES 100		 /* warnings kept; more are counted only */

static int nomem(void)
{
	return dp_error(DP_ENOMEM, "out of memory reading the contour file");
}

/* A line being parsed: its words as (pointer, length). */
struct ct_line {
	const char *w[3];
	size_t len[3];
	uint32_t n_words; /* up to 3 (3 = too many) */
};

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static void split_words(const char *s, size_t len, struct ct_line *l)
{
	size_t i = 0;

	l->n_words = 0;
	while (i < len && l->n_words < 3) {
		size_t start;

		while (i < len && is_space(s[i]))
			i++;
		if (i == len)
			break;
		start = i;
		while (i < len && !is_space(s[i]))
			i++;
		l->w[l->n_words] = s + start;
		l->len[l->n_words++] = i - start;
	}
}

static int word_is(const struct ct_line *l, uint32_t k, const char *lit)
{
	return l->len[k] == strlen(lit) && memcmp(l->w[k], lit, l->len[k]) == 0;
}

/* @s (@len bytes) printable and truncated, into @buf (@size bytes). */
static const char *show(const char *s, size_t len, char *buf, size_t size)
{
	size_t n = 0;

	for (size_t i = 0; i < len && n + 5 < size; i++) {
		unsigned char c = (unsigned char)s[i];

		if (i == CT_SHOW_MAX) {
			memcpy(buf + n, "...", 3);
			n += 3;
			break;
		}
		buf[n++] = c >= 0x20 && c < 0x7F ? (char)c : '?';
	}
	buf[n] = '\0';
	return buf;
}

/* Whether @name equals @module, or ends with it right after a '/'. */
static int name_matches(const char *name, const char *module, size_t len)
{
	size_t n = strlen(name);

	if (n < len || memcmp(name + n - len, module, len) != 0)
		return 0;
	return n == len || name[n - len - 1] == '/';
}

/* Exclude the procedures of the modules and objects named @module (@len bytes; static
 * ones only if @internal). Returns whether anything was named so. */
static int exclude(struct dp_contour *c, const struct dp_analysis *a, const char *module,
		   size_t len, int internal)
{
	const struct dp_profile *p = a->p;
	int found = 0;

	for (uint32_t m = 1; m <= a->n_modules; m++) {
		if (a->module_file[m] == 0 ||
		    !name_matches(dp_profile_str(p, a->module_file[m]), module, len))
			continue;
		found = 1;
		for (uint32_t k = 0; k < dp_csr_count(&a->module_pss, m); k++) {
			uint32_t ps = dp_csr_items(&a->module_pss, m)[k];

			if (!internal || p->ps[ps].linkage == DP_LINK_STATIC)
				c->excluded[ps] = 1;
		}
	}
	for (uint32_t o = 1; o <= p->n_objects; o++) {
		if (p->objects[o].path == 0 ||
		    !name_matches(dp_profile_str(p, p->objects[o].path), module, len))
			continue;
		found = 1;
		for (uint32_t ps = 1; ps <= p->n_ps; ps++)
			if (p->ps[ps].object == o &&
			    (!internal || p->ps[ps].linkage == DP_LINK_STATIC))
				c->excluded[ps] = 1;
	}
	return found;
}

/* The warnings: @text, @n bytes (and a NUL) of @cap. */
struct ct_warn {
	char *text;
	size_t n, cap;
};

/* Append "PATH:LINE: unknown module 'x'\n" to the warnings @w. */
static int warn_unknown(struct ct_warn *w, const char *path, uint32_t line, const char *mod)
{
	size_t need = strlen(path) + strlen(mod) + 48;

	if (DP_VEC_GROWZ(w->text, w->cap, w->n + need) < 0)
		return nomem();
	w->n += (size_t)snprintf(w->text + w->n, need, "%s:%" PRIu32 ": unknown module '%s'\n",
				 path, line, mod);
	return 0;
}

/* Parse the lines into @c; *@n_named / *@n_unknown count the modules named / unknown. */
static int parse_lines(struct dp_contour *c, const char *path, const char *text, size_t len,
		       const struct dp_analysis *a, uint32_t *n_named, uint32_t *n_unknown,
		       struct ct_warn *warn)
{
	uint32_t line = 0;
	char shown[CT_SHOW_MAX + 8];

	for (size_t pos = 0; pos < len;) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		struct ct_line l;
		int internal, rc;

		pos += n + 1;
		line++;
		split_words(s, n, &l);
		if (l.n_words == 0 || l.w[0][0] == '#')
			continue;
		internal = word_is(&l, 0, "internal");
		if (l.n_words != 2 || (!internal && !word_is(&l, 0, "all")))
			return dp_error(DP_EUSAGE,
					"%s:%" PRIu32
					": expected 'all MODULE' or 'internal MODULE', got '%s'",
					path, line, show(s, n, shown, sizeof(shown)));
		(*n_named)++;
		if (exclude(c, a, l.w[1], l.len[1], internal))
			continue;
		if (++*n_unknown > CT_WARN_LINES)
			continue;
		rc = warn_unknown(warn, path, line, show(l.w[1], l.len[1], shown, sizeof(shown)));
		if (rc < 0)
			return rc;
	}
	return 0;
}

int dp_contour_parse(const char *path, const char *text, size_t len, const struct dp_analysis *a,
		     struct dp_contour **out)
{
	struct dp_contour *c = calloc(1, sizeof(*c));
	uint32_t n_named = 0, n_unknown = 0;
	struct ct_warn warn = {0};
	int rc;

	*out = NULL;
	if (!c)
		return nomem();
	c->n_ps = a->p->n_ps;
	c->excluded = calloc((size_t)c->n_ps + 1, 1);
	c->warnings = calloc(1, 1);
	if (!c->excluded || !c->warnings) {
		dp_contour_free(c);
		return nomem();
	}
	warn.text = c->warnings;
	warn.cap = 1;
	rc = parse_lines(c, path, text, len, a, &n_named, &n_unknown, &warn);
	c->warnings = warn.text;
	if (rc == 0 && n_named > 0 && n_unknown == n_named)
		rc = dp_error(DP_EUSAGE,
			      "%s: none of the %" PRIu32
			      " module(s) named is in the profile (%.*s)",
			      path, n_named, (int)strcspn(c->warnings, "\n"), c->warnings);
	if (rc < 0) {
		dp_contour_free(c);
		return rc;
	}
	for (uint32_t ps = 1; ps <= c->n_ps; ps++)
		c->n_excluded += c->excluded[ps];
	*out = c;
	return 0;
}

int dp_contour_read(const char *path, const struct dp_analysis *a, struct dp_contour **out)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	*out = NULL;
	if (!f)
		return dp_error(DP_EIO, "cannot open contour file %s: %s", path, strerror(errno));
	for (;;) {
		if (n == cap && (cap >= CT_FILE_MAX || DP_VEC_GROWZ(buf, cap, n + 4096) < 0)) {
			rc = cap >= CT_FILE_MAX
				     ? dp_error(DP_EUSAGE, "contour file %s is too large", path)
				     : nomem();
			break;
		}
		size_t got = fread(buf + n, 1, cap - n, f);

		n += got;
		if (got == 0)
			break;
	}
	if (rc == 0 && ferror(f))
		rc = dp_error(DP_EIO, "cannot read contour file %s: %s", path, strerror(errno));
	fclose(f);
	if (rc == 0)
		rc = dp_contour_parse(path, buf ? buf : "", n, a, out);
	free(buf);
	return rc;
}

void dp_contour_free(struct dp_contour *c)
{
	if (!c)
		return;
	free(c->excluded);
	free(c->warnings);
	free(c);
}

uint32_t dp_contour_site(const struct dp_analysis *a, const struct dp_contour *c, uint32_t csd)
{
	const struct dp_profile *p = a->p;

	if (!c || csd < 1 || csd > p->n_csd)
		return csd;
	/* each step goes to the entry of the caller's clique, whose own caller lies in a
	 * clique of a higher id (bottom-up numbering): at most n_cliques steps */
	for (;;) {
		uint32_t caller = p->csd[csd].caller, ps = p->pd[caller].ps, entry;

		if (ps > c->n_ps || !c->excluded[ps])
			return csd;
		entry = a->clique_entry[a->pd_clique[caller]];
		if (entry == 0 || entry == csd)
			return csd;
		csd = entry;
	}
}
