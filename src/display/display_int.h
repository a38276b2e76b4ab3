/*
 * display/display_int.h - the layout of a display page (struct dp_display) shared by the
 * builder (display*.c) and the renderers (text*.c, html*.c), and the helpers they share:
 * human units, name shortening, arena strings. Private to src/display.
 */
#ifndef DP_DISPLAY_DISPLAY_INT_H
#define DP_DISPLAY_DISPLAY_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/arena.h"
#include "display.h"

/* A link: label and query string (without prefix); href NULL = not a link (current). */
struct dp_dlink {
	const char *label;
	const char *href;
};

/* A named value. */
struct dp_dfact {
	const char *label;
	const char *value;
};

enum dp_dcol_kind {
	DP_DCOL_ID = 0, /* text only: the short reference ("c12") of the row's link */
	DP_DCOL_NAME,	/* indented name, links to the row's page */
	DP_DCOL_WHERE,	/* file:line */
	DP_DCOL_NUM	/* a right-aligned number */
};

struct dp_dcol {
	enum dp_dcol_kind kind;
	const char *label; /* header */
	const char *group; /* heading over a run of columns ("time"), NULL = none */
	const char *href;  /* header link (re-sort), NULL = none */
	bool sorted;	   /* the table is sorted by this column ... */
	bool rev;	   /* ... the other way round (ascending costs, descending names) */
	int port;	   /* 1 calls, 2 exits, 3 unwinds, 0 other: text omits exits and
			      unwinds when every row has exits == calls and no unwinds */
	bool cmp;	   /* a compare column (against --base): kept first when narrow */
};

/* Size of a formatted value, NUL included (every dp_fmt_* output fits). */
#define DP_UNIT_MAX 32

/* What the tooltip of a cell says: its raw value as a count, samples, bytes, or nothing. */
enum dp_tip { DP_TIP_NONE = 0, DP_TIP_COUNT, DP_TIP_SAMPLES, DP_TIP_BYTES };

/* A number cell, stored inline (big pages have 100,000 of them). */
struct dp_dcell {
	char text[DP_UNIT_MAX]; /* as shown */
	uint64_t raw;		/* the value it shows (0 for per-call values) */
	uint8_t len;		/* strlen(text) */
	uint8_t tip;		/* enum dp_tip: the exact value for the HTML tooltip */
};

/* Row flags beyond DP_ROW_* (report.h), kept in the high bits. */
#define DP_DROW_SUBJECT 0x10000u /* the page's subject row */

struct dp_drow {
	uint32_t depth;
	unsigned flags;	      /* DP_ROW_* of the report row, DP_DROW_* */
	const char *href;     /* the row's link, NULL = none */
	const char *ref;      /* its short form for text ("c12", "p3"), "" = none */
	const char *name;     /* full name (cell of the DP_DCOL_NAME column); a row with a
				 call path: the path, elided in the middle */
	const char *title;    /* the whole call path (the name's tooltip), or NULL */
	const char *where;    /* "file:line" or "" */
	struct dp_dcell *num; /* one per DP_DCOL_NUM column, in column order */
};

struct dp_dtable {
	uint32_t n_cols;
	struct dp_dcol *cols;
	uint32_t n_num; /* DP_DCOL_NUM columns */
	uint32_t n_rows;
	struct dp_drow *rows;
	uint32_t n_hidden;     /* inactive rows left out */
	const char *show_href; /* link showing them, NULL = none */
};

/* One node of a flame graph, in preorder. */
struct dp_dflame_node {
	uint32_t depth;
	unsigned flags; /* DP_ROW_* */
	const char *name;
	const char *where; /* "file:line" or "" */
	const char *href;  /* NULL = none */
	double x, w;	   /* left edge and width, as fractions of the root's width */
	bool last;	   /* the last child of its parent (text tree guides) */
	const char *total, *total_pct, *self, *self_pct, *calls; /* formatted values */
	uint32_t row; /* the report row it shows (of the first section) */
};

/* A flame node compared with a base profile (the differential flame graph). */
struct dp_dflame_cmp {
	double change;		 /* the change of its self value (display_compare.c's units) */
	double heat;		 /* change / the largest |change| of the graph: -1 .. 1 */
	const char *self_change; /* the change of its self value, formatted ("+1.2%") */
	const char *tip;	 /* tooltip lines: its base values and changes */
};

/* What a flame block draws: the calling-context tree (flame page), the inverted tree of
 * a procedure's callers (flame_callers, the sandwich's upper half), or the tree of its
 * callees (flame&proc=N, the sandwich's lower half). */
enum dp_dflame_kind { DP_DFLAME_TREE = 0, DP_DFLAME_CALLERS, DP_DFLAME_CALLEES };

struct dp_dflame {
	const char *metric; /* "time", "calls", ... */
	bool inverted;	    /* callers graph: children are callers */
	bool down;	    /* drawn with the root at the top (else at the bottom) */
	enum dp_dflame_kind kind;
	const char *sec; /* the id of the report section it draws ("tree", "callers"...) */
	uint32_t max_depth;
	uint32_t n_nodes;
	struct dp_dflame_node *nodes;
	/* compared with a base profile: per node (NULL: no comparison), the base's name and
	   the largest |change| of a node's self value, formatted ("" if none changed) */
	struct dp_dflame_cmp *cmp;
	const char *cmp_base, *cmp_max;
};

enum dp_dblock_kind {
	DP_DB_PARA = 0, /* text */
	DP_DB_NOTE,	/* text, a remark for the reader */
	DP_DB_ERROR,	/* text, what went wrong */
	DP_DB_FACTS,	/* facts */
	DP_DB_LINKS,	/* links */
	DP_DB_PAGER,	/* links: first/prev/pages/next/last; href NULL = the current page */
	DP_DB_TABLE,	/* table */
	DP_DB_FLAME	/* flame */
};

struct dp_dblock {
	enum dp_dblock_kind kind;
	const char *title; /* heading, NULL = none */
	const char *id;	   /* anchor, NULL = none */
	const char *text;
	uint32_t n_facts;
	struct dp_dfact *facts;
	uint32_t n_links;
	struct dp_dlink *links;
	struct dp_dtable table;
	struct dp_dflame flame;
};

/* A group of preference toggles ("fields", "inactive", ...): one link per choice. */
struct dp_dtoggles {
	const char *label;
	uint32_t n_links;
	struct dp_dlink *links; /* href NULL: the current choice */
	bool *on;		/* per link: the choice is in effect (sets of fields) */
};

/* How links to one page from the report's query are made (dp_disp_link_to()): the
 * query string is head, the id in decimal, tail ("page=clique&id=" 12 "&fields=..."). */
struct dp_dlinkt {
	int state; /* 0 not made yet, 1 usable, -1 not usable (format each link) */
	const char *head, *tail;
	size_t head_len, tail_len;
};

struct dp_display {
	struct dp_arena arena;		       /* owns everything below */
	const struct dp_query *link_base;      /* the query links[] are made from, or NULL */
	struct dp_dlinkt links[DP_PAGE_COUNT]; /* per page (valid while building) */
	int status;			       /* 200, or the error page's status */
	const char *title;
	const char *text_title; /* the title as text, when it differs ("Call tree" for a flame
				   graph), else NULL */
	bool fields_default;	/* the columns are the default fields (text may leave some
				   groups out to fit the width, not the user's choice) */
	/* HTML: the search box's query without its text ("page=search&sort=name": the
	   page's preferences kept) and the text it shows (the search page's), or NULL */
	const char *search, *search_text;
	uint32_t n_nav;
	struct dp_dlink *nav;
	uint32_t n_nav_general; /* nav[0..n_nav_general) are the everywhere links (menu,
				   root, ...), the rest are about this page's subject */
	uint32_t n_toggles;
	struct dp_dtoggles *toggles;
	uint32_t n_blocks, cap_blocks;
	struct dp_dblock *blocks;
	const char *legend; /* text only: what the ids of the Id column mean, or NULL */
	/* HTML: the query of the page's subtree that the "download as" links add
	   download=FMT to ("page=clique&id=3&", "view=threads&", "" = the whole profile);
	   NULL: no downloads (error pages) */
	const char *download;
	/* HTML: the report as compact JSON, which the page carries for its script (the
	   interactive flame graphs draw from it); empty: none (dp_display_attach_data()) */
	struct dp_buf data;
};

/* --- display_util.c --- */

/* dp_disp_new - an empty page; NULL on out of memory (-DP_ENOMEM set). */
struct dp_display *dp_disp_new(void);

/* dp_disp_block - a new zeroed block of @kind at the end of @d, or NULL (-DP_ENOMEM). */
struct dp_dblock *dp_disp_block(struct dp_display *d, enum dp_dblock_kind kind);

/* dp_disp_link_block - a new block of @kind named @id with room for @n links in b->links
 * (none used yet), or NULL (-DP_ENOMEM set). */
struct dp_dblock *dp_disp_link_block(struct dp_display *d, enum dp_dblock_kind kind, const char *id,
				     size_t n);

/* dp_disp_link_base - make links from @q (the report's query, which must outlive the
 * build) by template: dp_disp_link_to(d, @q, ...) then formats the query once per page. */
void dp_disp_link_base(struct dp_display *d, const struct dp_query *q);

/* dp_disp_strdup / dp_disp_printf - strings in @d's arena; NULL on out of memory.
 * dp_disp_strdup replaces control characters by '?' (dp_disp_strdup_lines keeps line
 * breaks): every string from the profile goes through one of them. */
char *dp_disp_strdup(struct dp_display *d, const char *s);
char *dp_disp_strdup_lines(struct dp_display *d, const char *s);
/* dp_disp_strndup - dp_disp_strdup() of the @len bytes at @s. */
char *dp_disp_strndup(struct dp_display *d, const char *s, size_t len);
char *dp_disp_printf(struct dp_display *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * dp_disp_pack - copies of the @n strings @s[i] (@len[i] bytes each) in one block of
 * @d's arena, each NUL-terminated, into @out[i]. In the first @n_clean (strings from the
 * profile) control characters are replaced as dp_disp_strdup() does; the rest (text the
 * display formatted) are copied as they are. String @where_i (if < @n) gets ":@line"
 * appended when @line is not 0 (a file:line). Return: 0 or -DP_ENOMEM (message set).
 */
int dp_disp_pack(struct dp_display *d, size_t n, size_t n_clean, const char *const *s,
		 const size_t *len, size_t where_i, uint32_t line, char **out);

/* dp_disp_where - "FILE:LINE" ("FILE" if @line is 0, "" if @file is NULL) in @d's arena. */
const char *dp_disp_where(struct dp_display *d, const char *file, uint32_t line);

/* dp_disp_ref - the short reference "@c@id" ("c12") in @d's arena. */
const char *dp_disp_ref(struct dp_display *d, char c, uint32_t id);

/* dp_disp_href - the canonical query string of @q in @d's arena (NULL on failure). */
const char *dp_disp_href(struct dp_display *d, const struct dp_query *q);

/* dp_disp_link_to - the query string of @base's prefs with page @page and id @id. */
const char *dp_disp_link_to(struct dp_display *d, const struct dp_query *base, enum dp_page page,
			    uint32_t id);

/* Units. Each writes a NUL-terminated string of at most @n - 1 bytes into @s and
 * returns its length. */
/* dp_fmt_u64 - the decimal digits of @v and a NUL into @s (room for 21 bytes).
 * Return: the number of digits. */
size_t dp_fmt_u64(char *s, uint64_t v);
/* dp_fmt_count - 1234, 12.3k, 456k, 1.2M ... (exact below 10,000) */
size_t dp_fmt_count(char *s, size_t n, double v);
/* dp_fmt_bytes - 512 B, 4.5 KiB, 12.3 MiB ... */
size_t dp_fmt_bytes(char *s, size_t n, double v);
/* dp_fmt_seconds - @v seconds in @unit: auto picks s/ms/us/ns per value ("1.2 s",
 * "340 ms"); a fixed unit prints the bare number in it ("0.340"). */
size_t dp_fmt_seconds(char *s, size_t n, double v, enum dp_time_unit unit);
/* dp_fmt_pct - a percentage: "100%", "12.3%", "<0.1%", "0%"; "-" if @den is 0. */
size_t dp_fmt_pct(char *s, size_t n, double num, double den);
/* dp_cell_tip - the tooltip of @c ("400 samples", "4608 bytes", "25000") into @s (of
 * DP_UNIT_MAX bytes); "" if it has none. */
void dp_cell_tip(const struct dp_dcell *c, char *s);

/* dp_text_plain - whether the @len bytes at @s hold no control character (< 0x20, 0x7f). */
bool dp_text_plain(const char *s, size_t len);

/* dp_text_width - display columns of UTF-8 string @s (continuation bytes not counted),
 * up to @len bytes or its NUL; all @len bytes must be readable (it reads words). */
size_t dp_text_width(const char *s, size_t len);

/*
 * dp_shorten_name - @name fitted in @width columns, into @out (reset first): as is if it
 * fits; else with template arguments elided ("std::map<...>::find"), then parameter
 * lists ("f(...)"); then cut in the middle ("std::vec...::push_back"). Never splits a
 * UTF-8 sequence. Return: 0 or the buffer's sticky error.
 */
int dp_shorten_name(struct dp_buf *out, const char *name, size_t width);

/* --- display_table.c --- */

/* dp_disp_inh - the value of metric @m in inheritable costs @c (0 for calls and count). */
uint64_t dp_disp_inh(const struct dp_inherit *c, enum dp_metric m);

/* dp_disp_row_raw - @row's raw value of @m in @scope: own, plus desc for DP_SCOPE_TOTAL
 * (calls: the row's own calls in either scope). */
uint64_t dp_disp_row_raw(const struct dp_rep_row *row, enum dp_metric m, enum dp_scope scope);

/* dp_disp_table - a table block titled @title for rows @rows (hidden inactive rows
 * dropped), columns from @r's prefs; @subject: the rows are the page's subject. With a
 * comparison (r->cmp), @base holds each row's counterpart, shown in the compare columns.
 * Return: 0 or -DP_ENOMEM. */
int dp_disp_table(struct dp_display *d, const struct dp_report *r, const char *title,
		  const char *id, const struct dp_rep_row *rows, uint32_t n_rows, bool subject,
		  const struct dp_rep_base *base);

/* dp_disp_flame - the flame graph blocks of a flame, flame_callers or sandwich report. */
int dp_disp_flame(struct dp_display *d, const struct dp_report *r);

/* dp_is_flame - whether @r's page is drawn as flame graphs. */
bool dp_is_flame(const struct dp_report *r);

/* --- display_compare.c: the compare view (r->cmp) --- */

/* The compare columns of a table, after the others. */
enum dp_dcmp { DP_DCMP_BASE = 0, DP_DCMP_NEW, DP_DCMP_CHANGE, DP_DCMP_REL, DP_DCMP_N };

/* dp_disp_cmp_label - the header of compare column @k ("Base", ...). */
const char *dp_disp_cmp_label(enum dp_dcmp k);

/* dp_disp_cmp_group - the heading over the compare columns of @r ("vs base: time
 * total"), in @d's arena; NULL on out of memory. */
const char *dp_disp_cmp_group(struct dp_display *d, const struct dp_report *r);

/* dp_disp_cmp_cell - cell @cell of compare column @k for @row, whose counterpart in the
 * base is @b (NULL or not found: none). */
void dp_disp_cmp_cell(const struct dp_report *r, enum dp_dcmp k, const struct dp_rep_row *row,
		      const struct dp_rep_base *b, struct dp_dcell *cell);

/* dp_disp_cmp_note - the note block saying what @r is compared with, and how.
 * Return: 0 or -DP_ENOMEM. */
int dp_disp_cmp_note(struct dp_display *d, const struct dp_report *r);

/* dp_disp_flame_cmp - the differential values of flame block @b of @r (b->flame.cmp).
 * Return: 0 or -DP_ENOMEM. */
int dp_disp_flame_cmp(struct dp_display *d, const struct dp_report *r, struct dp_dblock *b);

/* --- display_nav.c --- */

/* dp_disp_nav - navigation links of @r's page into d->nav. Return: 0 or -DP_ENOMEM. */
int dp_disp_nav(struct dp_display *d, const struct dp_report *r);
/* dp_disp_toggles - preference toggles of @r's page into d->toggles. */
int dp_disp_toggles(struct dp_display *d, const struct dp_report *r);
/* dp_disp_pager - the pager block of a callers or top report (nothing if one page). */
int dp_disp_pager(struct dp_display *d, const struct dp_report *r);

#endif /* DP_DISPLAY_DISPLAY_INT_H */
