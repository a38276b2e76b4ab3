/*
 * display/display_util.c - what the display builder and the renderers share: the page's
 * arena (blocks, strings, links; a page's links to one kind of page are made from a
 * template formatted once), human units for counts, bytes, seconds and percentages,
 * UTF-8 widths and control-character scans (a word at a time), and the shortening of
 * long names to a column width.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "display_int.h"

/* A page is small: a ceiling far above any real page catches runaway loops. */
#define DP_DISP_ARENA_MAX ((size_t)1 << 30)
/* Longest query string a link may have. */
#define DP_DISP_HREF_MAX ((size_t)16 << 10)
/* The most JSON a page carries for its script (a flame page's is about 2 MB at most). */
#define DP_DISP_DATA_MAX ((size_t)128 << 20)

struct dp_display *dp_disp_new(void)
{
	struct dp_display *d = calloc(1, sizeof(*d));

	if (!d) {
		dp_error(DP_ENOMEM, "out of memory building a page");
		return NULL;
	}
	dp_arena_init(&d->arena, DP_DISP_ARENA_MAX);
	dp_buf_init(&d->data, DP_DISP_DATA_MAX);
	d->status = 200;
	d->title = "";
	return d;
}

void dp_display_free(struct dp_display *d)
{
	if (!d)
		return;
	dp_arena_release(&d->arena);
	dp_buf_release(&d->data);
	free(d);
}

struct dp_dblock *dp_disp_block(struct dp_display *d, enum dp_dblock_kind kind)
{
	struct dp_dblock *b;

	if (d->n_blocks == d->cap_blocks) {
		uint32_t cap = d->cap_blocks ? 2 * d->cap_blocks : 16;
		struct dp_dblock *nb = dp_arena_array(&d->arena, cap, sizeof(*nb));

		if (!nb) {
			dp_error(DP_ENOMEM, "out of memory building a page");
			return NULL;
		}
		if (d->n_blocks)
			memcpy(nb, d->blocks, d->n_blocks * sizeof(*nb));
		d->blocks = nb;
		d->cap_blocks = cap;
	}
	b = &d->blocks[d->n_blocks++];
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	return b;
}

struct dp_dblock *dp_disp_link_block(struct dp_display *d, enum dp_dblock_kind kind, const char *id,
				     size_t n)
{
	struct dp_dblock *b = dp_disp_block(d, kind);

	if (!b)
		return NULL;
	b->id = id;
	b->links = dp_arena_array(&d->arena, n, sizeof(*b->links));
	if (!b->links) {
		dp_error(DP_ENOMEM, "out of memory building a page");
		return NULL;
	}
	return b;
}

/* Copy the @len bytes at @s into @d's arena with control characters (terminal escapes,
 * line breaks unless @lines) replaced by '?': profile strings must not drive a terminal
 * or break a row. */
static char *dp_disp_copy(struct dp_display *d, const char *s, size_t len, bool lines)
{
	char *c = dp_arena_alloc(&d->arena, len + 1);

	if (!c) {
		dp_error(DP_ENOMEM, "out of memory building a page");
		return NULL;
	}
	memcpy(c, s, len);
	c[len] = 0;
	if (dp_text_plain(c, len))
		return c;
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)c[i];

		if ((ch < 0x20 && !(lines && ch == '\n')) || ch == 0x7f)
			c[i] = '?';
	}
	return c;
}

char *dp_disp_strdup(struct dp_display *d, const char *s)
{
	return s ? dp_disp_copy(d, s, strlen(s), false) : dp_disp_copy(d, "", 0, false);
}

char *dp_disp_strndup(struct dp_display *d, const char *s, size_t len)
{
	return dp_disp_copy(d, s, len, false);
}

char *dp_disp_strdup_lines(struct dp_display *d, const char *s)
{
	return s ? dp_disp_copy(d, s, strlen(s), true) : dp_disp_copy(d, "", 0, true);
}

char *dp_disp_printf(struct dp_display *d, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = dp_arena_vprintf(&d->arena, fmt, ap);
	va_end(ap);
	if (!s)
		dp_error(DP_ENOMEM, "out of memory building a page");
	return s;
}

int dp_disp_pack(struct dp_display *d, size_t n, size_t n_clean, const char *const *s,
		 const size_t *len, size_t where_i, uint32_t line, char **out)
{
	size_t size = where_i < n && line ? 11 : 0;
	char *p;

	for (size_t i = 0; i < n; i++)
		size += len[i] + 1;
	p = dp_arena_alloc(&d->arena, size);
	if (!p)
		return dp_error(DP_ENOMEM, "out of memory building a page");
	for (size_t i = 0; i < n; i++) {
		out[i] = p;
		memcpy(p, s[i], len[i]);
		if (i < n_clean && !dp_text_plain(p, len[i]))
			for (size_t k = 0; k < len[i]; k++)
				if ((unsigned char)p[k] < 0x20 || p[k] == 0x7f)
					p[k] = '?';
		p += len[i];
		if (i == where_i && line) {
			*p++ = ':';
			p += dp_buf_fmt_u64(p, line);
		}
		*p++ = 0;
	}
	return 0;
}

const char *dp_disp_where(struct dp_display *d, const char *file, uint32_t line)
{
	size_t len;
	char *s;

	if (!file || !line)
		return dp_disp_strdup(d, file ? file : "");
	len = strlen(file);
	s = dp_arena_alloc(&d->arena, len + 12);
	if (!s) {
		dp_error(DP_ENOMEM, "out of memory building a page");
		return NULL;
	}
	memcpy(s, file, len);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			s[i] = '?';
	s[len] = ':';
	dp_fmt_u64(s + len + 1, line);
	return s;
}

const char *dp_disp_ref(struct dp_display *d, char c, uint32_t id)
{
	char *s = dp_arena_alloc(&d->arena, 12);

	if (!s) {
		dp_error(DP_ENOMEM, "out of memory building a page");
		return NULL;
	}
	s[0] = c;
	dp_fmt_u64(s + 1, id);
	return s;
}

const char *dp_disp_href(struct dp_display *d, const struct dp_query *q)
{
	struct dp_buf b;
	char *s = NULL;

	dp_buf_init(&b, DP_DISP_HREF_MAX);
	if (dp_query_format(q, &b) == 0)
		s = dp_arena_strndup(&d->arena, dp_buf_cstr(&b), b.len);
	if (!s)
		dp_error(DP_ENOMEM, "out of memory making a link");
	dp_buf_release(&b);
	return s;
}

/* dp_query_link(@base, @page, @id) into @d's arena (length into *@len), or NULL. */
static char *dp_disp_link_fmt(struct dp_display *d, const struct dp_query *base, enum dp_page page,
			      uint32_t id, size_t *len)
{
	struct dp_buf b;
	char *s = NULL;

	dp_buf_init(&b, DP_DISP_HREF_MAX);
	if (dp_query_link(base, page, id, &b) == 0)
		s = dp_arena_strndup(&d->arena, dp_buf_cstr(&b), b.len);
	if (s) {
		s[b.len] = 0;
		*len = b.len;
	} else {
		dp_error(DP_ENOMEM, "out of memory making a link");
	}
	dp_buf_release(&b);
	return s;
}

/*
 * The template of links to @page from @base: the link with id 0 must be "page=P" TAIL
 * and the link with id 1 "page=P&id=1" TAIL (the id is the one part that varies); else
 * the template is unusable and every link is formatted. Return: 0 or -DP_ENOMEM.
 */
static int dp_disp_link_make(struct dp_display *d, const struct dp_query *base, enum dp_page page)
{
	struct dp_dlinkt *t = &d->links[page];
	const char *name = dp_query_page_name(page);
	size_t nl = strlen(name), l0, l1;
	char *s0 = dp_disp_link_fmt(d, base, page, 0, &l0);
	char *s1 = dp_disp_link_fmt(d, base, page, 1, &l1);
	char *head;

	if (!s0 || !s1)
		return -DP_ENOMEM;
	t->state = -1;
	if (l0 < 5 + nl || memcmp(s0, "page=", 5) != 0 || memcmp(s0 + 5, name, nl) != 0)
		return 0;
	t->tail = s0 + 5 + nl;
	t->tail_len = l0 - 5 - nl;
	if (l1 != l0 + 5 || memcmp(s1, s0, 5 + nl) != 0 || memcmp(s1 + 5 + nl, "&id=1", 5) != 0 ||
	    memcmp(s1 + 10 + nl, t->tail, t->tail_len) != 0)
		return 0;
	head = s1; /* "page=P&id=" */
	t->head = head;
	t->head_len = 9 + nl;
	t->state = 1;
	return 0;
}

void dp_disp_link_base(struct dp_display *d, const struct dp_query *q)
{
	d->link_base = q;
	memset(d->links, 0, sizeof(d->links));
}

const char *dp_disp_link_to(struct dp_display *d, const struct dp_query *base, enum dp_page page,
			    uint32_t id)
{
	struct dp_dlinkt *t;
	char *s;
	size_t len, k;

	if (base != d->link_base || (unsigned)page >= DP_PAGE_COUNT || !id)
		return dp_disp_link_fmt(d, base, page, id, &len);
	t = &d->links[page];
	if (t->state == 0 && dp_disp_link_make(d, base, page) < 0)
		return NULL;
	if (t->state < 0)
		return dp_disp_link_fmt(d, base, page, id, &len);
	s = dp_arena_alloc(&d->arena, t->head_len + 10 + t->tail_len + 1);
	if (!s) {
		dp_error(DP_ENOMEM, "out of memory making a link");
		return NULL;
	}
	memcpy(s, t->head, t->head_len);
	k = t->head_len + dp_buf_fmt_u64(s + t->head_len, id);
	memcpy(s + k, t->tail, t->tail_len);
	s[k + t->tail_len] = 0;
	return s;
}

size_t dp_fmt_u64(char *s, uint64_t v)
{
	size_t n = dp_buf_fmt_u64(s, v);

	s[n] = 0;
	return n;
}

/* Append @s at @o (bounded by @end); return the new end. */
static char *dp_put(char *o, const char *end, const char *s)
{
	while (*s && o < end)
		*o++ = *s++;
	return o;
}

/* @v (>= 0) with @dec (0..3) decimals, then @sep and @unit, into @s (of @n bytes).
 * Integer arithmetic: printf's float formatting is the bottleneck of big pages.
 * Return: the length. */
static size_t dp_fixed(char *s, size_t n, double v, unsigned dec, const char *sep, const char *unit)
{
	static const uint64_t p10[4] = {1, 10, 100, 1000};
	uint64_t r, fp;
	char *o;
	size_t k;

	if (!(v >= 0) || v > 1e15 || dec > 3 || n < DP_UNIT_MAX) {
		int len = snprintf(s, n, "%.*f%s%s", (int)dec, v, sep, unit);

		return len < 0 ? 0 : (size_t)len < n ? (size_t)len : n - 1;
	}
	r = (uint64_t)(v * (double)p10[dec] + 0.5);
	k = dp_fmt_u64(s, r / p10[dec]);
	if (dec) {
		fp = r % p10[dec];
		s[k++] = '.';
		for (unsigned i = dec; i-- > 0;) {
			s[k + i] = (char)('0' + fp % 10);
			fp /= 10;
		}
		k += dec;
	}
	o = dp_put(dp_put(s + k, s + n - 1, sep), s + n - 1, unit);
	*o = 0;
	return (size_t)(o - s);
}

/* Copy @lit into @s (of @n bytes); return its length. */
static size_t dp_lit(char *s, size_t n, const char *lit)
{
	char *o = dp_put(s, s + n - 1, lit);

	*o = 0;
	return (size_t)(o - s);
}

/* @v scaled by @base through @units (units[0] = ""): one decimal below 100, none above. */
static size_t dp_fmt_scaled(char *s, size_t n, double v, double base, const char *const *units,
			    size_t n_units, const char *sep)
{
	size_t u = 0;

	while (u + 1 < n_units && v >= base - 0.5 * base / 1000.0) {
		v /= base;
		u++;
	}
	return dp_fixed(s, n, v, v < 99.95 ? 1 : 0, sep, units[u]);
}

/* A plain number below the abbreviation threshold: integral values exactly. */
static size_t dp_fmt_plain(char *s, size_t n, double v, const char *unit)
{
	unsigned dec = v == floor(v) ? 0 : v < 9.995 ? 2 : v < 99.95 ? 1 : 0;

	return dp_fixed(s, n, v, dec, "", unit);
}

size_t dp_fmt_count(char *s, size_t n, double v)
{
	static const char *const units[] = {"", "k", "M", "G", "T", "P", "E"};

	if (v < 9999.5)
		return dp_fmt_plain(s, n, v, "");
	return dp_fmt_scaled(s, n, v, 1000.0, units, 7, "");
}

size_t dp_fmt_bytes(char *s, size_t n, double v)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

	if (v < 1023.5)
		return dp_fmt_plain(s, n, v, " B");
	return dp_fmt_scaled(s, n, v, 1024.0, units, 7, " ");
}

size_t dp_fmt_seconds(char *s, size_t n, double v, enum dp_time_unit unit)
{
	static const char *const units[] = {"ns", "us", "ms", "s"};

	switch (unit) {
	case DP_TIME_S:
		return dp_fixed(s, n, v, 3, "", "");
	case DP_TIME_MS:
		return dp_fixed(s, n, v * 1e3, 1, "", "");
	case DP_TIME_US:
	case DP_TIME_TICKS:
		return dp_fixed(s, n, v * 1e6, 0, "", "");
	case DP_TIME_AUTO:
		break;
	}
	if (v <= 0)
		return dp_lit(s, n, "0");
	return dp_fmt_scaled(s, n, v * 1e9, 1000.0, units, 4, " ");
}

size_t dp_fmt_pct(char *s, size_t n, double num, double den)
{
	double p;

	if (den <= 0)
		return dp_lit(s, n, "-");
	p = 100.0 * num / den;
	if (num <= 0)
		return dp_lit(s, n, "0%");
	if (p >= 99.95 && p < 100.05)
		return dp_lit(s, n, "100%");
	if (p < 0.05)
		return dp_lit(s, n, "<0.1%");
	return dp_fixed(s, n, p, 1, "", "%");
}

void dp_cell_tip(const struct dp_dcell *c, char *s)
{
	size_t k;

	s[0] = 0;
	if (c->tip == DP_TIP_NONE)
		return;
	k = dp_fmt_u64(s, c->raw);
	if (c->tip == DP_TIP_SAMPLES)
		dp_lit(s + k, DP_UNIT_MAX - k, c->raw == 1 ? " sample" : " samples");
	else if (c->tip == DP_TIP_BYTES)
		dp_lit(s + k, DP_UNIT_MAX - k, " bytes");
}

/* Eight bytes of @s, as they lie in memory. */
static inline uint64_t dp_word(const char *s)
{
	uint64_t w;

	memcpy(&w, s, 8);
	return w;
}

#define DP_W01 0x0101010101010101ull
#define DP_W80 0x8080808080808080ull

/* Whether word @w has a byte < 0x20, or 0x7f (its xor with 0x7f is 0). */
static inline bool dp_word_ctl(uint64_t w)
{
	uint64_t x = w ^ (0x7f * DP_W01);

	return ((w - 0x20 * DP_W01) & ~w & DP_W80) || ((x - DP_W01) & ~x & DP_W80);
}

bool dp_text_plain(const char *s, size_t len)
{
	size_t i = 0;

	if (len >= 8) { /* words, the last one overlapping the one before */
		for (; i + 8 <= len; i += 8)
			if (dp_word_ctl(dp_word(s + i)))
				return false;
		return !dp_word_ctl(dp_word(s + len - 8));
	}
	for (; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return true;
}

size_t dp_text_width(const char *s, size_t len)
{
	size_t w = 0, i = 0;

	/* eight bytes at a time while none is NUL: each continuation byte (10xxxxxx) has
	 * bit 7 set and bit 6 clear */
	for (; i + 8 <= len; i += 8) {
		uint64_t x = dp_word(s + i);

		if ((x - DP_W01) & ~x & DP_W80)
			break;
		w += 8 - (size_t)((((x & ~(x << 1) & DP_W80) >> 7) * DP_W01) >> 56);
	}
	for (; i < len && s[i]; i++)
		if (((unsigned char)s[i] & 0xC0u) != 0x80u)
			w++;
	return w;
}

/* Whether @out (so far) ends with "operator": then brackets are part of the name. */
static bool dp_ends_operator(const struct dp_buf *out)
{
	return out->len >= 8 && memcmp(out->data + out->len - 8, "operator", 8) == 0;
}

/* Copy of @name with the contents of each outermost @open...@close pair replaced by
 * "..." into @out (reset first). Return: true if done, false when unbalanced. */
static bool dp_elide(struct dp_buf *out, const char *name, char open, char close)
{
	int depth = 0;

	dp_buf_reset(out);
	for (const char *p = name; *p; p++) {
		if (depth == 0 && *p == open && dp_ends_operator(out)) {
			while (*p == '<' || *p == '=' || *p == '>' || *p == '(' || *p == ')')
				dp_buf_addc(out, (uint8_t)*p++);
			p--;
		} else if (*p == open) {
			if (depth++ == 0)
				dp_buf_adds(out, open == '<' ? "<..." : "(...");
		} else if (*p == close && depth > 0) {
			if (--depth == 0)
				dp_buf_addc(out, (uint8_t)close);
		} else if (depth == 0) {
			dp_buf_addc(out, (uint8_t)*p);
		}
	}
	return depth == 0;
}

/* Byte offset after the first @cols columns of @s (length @len). */
static size_t dp_cols_prefix(const char *s, size_t len, size_t cols)
{
	size_t i = 0, w = 0;

	while (i < len) {
		if (((unsigned char)s[i] & 0xC0u) != 0x80u) {
			if (w == cols)
				break;
			w++;
		}
		i++;
	}
	return i;
}

/* Byte offset where the last @cols columns of @s (length @len) begin. */
static size_t dp_cols_suffix(const char *s, size_t len, size_t cols)
{
	size_t i = len, w = 0;

	while (i > 0 && w < cols) {
		i--;
		if (((unsigned char)s[i] & 0xC0u) != 0x80u)
			w++;
	}
	return i;
}

/* @name (@len bytes, wider than @width) cut in the middle to @width columns into @out. */
static int dp_shorten_cut(struct dp_buf *out, const char *name, size_t len, size_t width)
{
	size_t head, tail, h, t;

	if (width <= 3)
		return dp_buf_add(out, name, dp_cols_prefix(name, len, width));
	head = (width - 3 + 1) / 2;
	tail = width - 3 - head;
	h = dp_cols_prefix(name, len, head);
	t = dp_cols_suffix(name, len, tail);
	dp_buf_add(out, name, h);
	dp_buf_add(out, "...", 3);
	return dp_buf_add(out, name + t, len - t);
}

int dp_shorten_name(struct dp_buf *out, const char *name, size_t width)
{
	struct dp_buf tmp;
	size_t len = strlen(name);
	int rc;

	dp_buf_reset(out);
	if (dp_text_width(name, len) <= width)
		return dp_buf_add(out, name, len);
	if (!memchr(name, '<', len) && !memchr(name, '(', len))
		return dp_shorten_cut(out, name, len, width); /* nothing to elide */
	dp_buf_init(&tmp, out->max);
	if (dp_elide(&tmp, name, '<', '>') && dp_buf_error(&tmp) == 0) {
		struct dp_buf t2;

		dp_buf_init(&t2, out->max);
		if (dp_text_width(dp_buf_cstr(&tmp), tmp.len) > width &&
		    dp_elide(&t2, dp_buf_cstr(&tmp), '(', ')') && dp_buf_error(&t2) == 0) {
			dp_buf_release(&tmp);
			tmp = t2;
		} else {
			rc = dp_buf_fail(out, dp_buf_error(&t2)); /* out of memory: no fallback */
			dp_buf_release(&t2);
			if (rc < 0) {
				dp_buf_release(&tmp);
				return rc;
			}
		}
	} else if (dp_buf_fail(out, dp_buf_error(&tmp)) < 0) {
		dp_buf_release(&tmp);
		return dp_buf_error(out);
	} else {
		dp_buf_reset(&tmp);
		dp_buf_add(&tmp, name, len);
	}
	name = dp_buf_cstr(&tmp);
	len = tmp.len;
	if (dp_text_width(name, len) <= width)
		rc = dp_buf_add(out, name, len);
	else
		rc = dp_shorten_cut(out, name, len, width);
	dp_buf_release(&tmp);
	return rc;
}
