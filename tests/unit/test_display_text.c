/*
 * tests/unit/test_display_text.c - golden text of hand-built reports: aligned columns,
 * human units, group headings, the two-line layout of wide tables, names shortened to
 * the width, the "See also" queries, the flame page as a tree with ASCII guides, and the
 * error page.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/err.h"
#include "harness.h"
#include "test_display_rep.h"

TEST(clique_page_golden)
{
	struct dp_report *r = tr_clique("page=clique&id=3&fields=t");
	char *s = tr_render(r, false, 100);

	CHECK_STR(s, "Clique 3: fib\n"
		     "=============\n"
		     "\n"
		     "          time --------------------\n"
		     "Id  Name    Self     %  Total     %  Where\n"
		     "c3  fib   400 ms 40.0% 500 ms 50.0%  fib.c:3\n"
		     "\n"
		     "Ancestors:\n"
		     "                 time -------------------\n"
		     "Id  Name           Self    %  Total     %  Where\n"
		     "c1  main -> fib  1.0 ms 0.1% 500 ms 50.0%  main.c:12\n"
		     "\n"
		     "Procedures:\n"
		     "                                    time ----------------------\n"
		     "Id   Name                              Self     %   Total     %  Where\n"
		     "p2   fib                             400 ms 40.0%  500 ms 50.0%  fib.c:3\n"
		     "c3     fib (rec)                     390 ms 39.0%  390 ms 39.0%  fib.c:5\n"
		     "s11    (indirect)                   60.0 ms  6.0%  100 ms 10.0%  fib.c:9\n"
		     "c6       cb_a                       50.0 ms  5.0% 90.0 ms  9.0%  fib.c:9\n"
		     "c7       <script>alert(1)</script>  10.0 ms  1.0% 10.0 ms  1.0%  fib.c:9\n"
		     "  (3 inactive rows hidden; to show them: "
		     "page=clique&id=3&fields=t&inactive=sss)\n"
		     "\n"
		     "See also:\n"
		     "  procedure      page=proc&id=2&fields=t\n"
		     "  callers        page=callers&proc=2&fields=t\n"
		     "  callers graph  page=flame_callers&proc=2&fields=t\n"
		     "  sandwich       page=sandwich&proc=2&fields=t\n"
		     "  module         page=module&id=1&fields=t\n"
		     "\n"
		     "Ids: cN = clique (page=clique&id=N), pN = procedure (page=proc&id=N), sN = "
		     "call site\n"
		     "     (page=site&id=N), mN = module (page=module&id=N).\n");
	free(s);
	tr_free(r);
}

/* the longest line of @s */
static size_t longest(const char *s)
{
	size_t max = 0;

	for (const char *line = s; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		max = len > max ? len : max;
		line += len + (nl ? 1 : 0);
	}
	return max;
}

TEST(wide_tables_take_two_lines)
{
	struct dp_report *r = tr_clique("page=clique&id=3&fields=ptsb");
	char *s = tr_render(r, false, 100);

	/* zero bytes in every row: no bytes columns; the rows fit on one line */
	CHECK(tr_contains(
		s, "Ancestors:\n"
		   "                 ports  time -------------------  callseqs -------------\n"
		   "Id  Name         Calls    Self    %  Total     %  Self     % Total     %  "
		   "Where\n"
		   "c1  main -> fib      1  1.0 ms 0.1% 500 ms 50.0%    10 <0.1% 25.0k 50.0%  "
		   "main.c:12\n"));
	/* bytes in some rows, chosen: the name and where, then the numbers */
	CHECK(tr_contains(s, "c7       <script>alert(1)</script>  fib.c:9\n"
			     "        10  10.0 ms  1.0% 10.0 ms  1.0%    100  0.2%   100  0.2%    "
			     "512 B <0.1%   512 B <0.1%\n"));
	CHECK(tr_contains(s, "Exits and Unwinds left out: every row has exits = calls, no "
			     "unwinds.\nLeft out, zero in every row: bytes.\n"));
	CHECK(longest(s) <= 100);
	free(s);
	/* the default fields: groups go for the width, and the page says which */
	tr_free(r);
	r = tr_clique("page=clique&id=3");
	s = tr_render(r, false, 80);
	CHECK(tr_contains(s,
			  "c3     fib (rec)                       99   390 ms 39.0%  390 ms 39.0%  "
			  "fib.c:5\n"));
	CHECK(tr_contains(s, "Left out for the width: callseqs, bytes (--width or fields= shows "
			     "them).\n"));
	CHECK(longest(s) <= 80);
	free(s);
	/* at 40 columns, numbers come in bands of whole groups */
	tr_free(r);
	r = tr_clique("page=clique&id=3&fields=pts");
	s = tr_render(r, false, 40);
	CHECK(tr_contains(s, "Id   Name  Where\n"
			     "     ports  time ----------------------\n"
			     "     Calls     Self     %   Total     %\n"
			     "     callseqs --------------\n"
			     "      Self     % Total     %\n"
			     "p2   fib  fib.c:3\n"
			     "       100   400 ms 40.0%  500 ms 50.0%\n"
			     "     20.0k 40.0% 25.0k 50.0%\n"));
	CHECK(longest(s) <= 40);
	free(s);
	tr_free(r);
}

/* no line of any page is longer than the width, whatever the width and fields */
TEST(every_width_fits)
{
	static const char *const fields[] = {"", "&fields=p", "&fields=pTSAB", "&fields=qtsab"};
	struct dp_report *(*const pages[])(const char *) = {tr_clique, tr_flame, tr_callers};
	static const char *const qs[] = {"page=clique&id=3", "page=flame", "page=callers&proc=2"};

	for (unsigned w = 40; w <= 160; w += 7)
		for (unsigned f = 0; f < 4; f++)
			for (unsigned p = 0; p < 3; p++) {
				char q[128];
				struct dp_report *r;
				char *s;

				snprintf(q, sizeof(q), "%s%s", qs[p], fields[f]);
				if (p == 1 && w < 56)
					continue; /* a tree's columns and guides need 56 */
				r = pages[p](q);
				s = tr_render(r, false, w);
				if (longest(s) > w)
					fprintf(stderr, "%s at %u: %zu columns\n%s", q, w,
						longest(s), s);
				CHECK(longest(s) <= w);
				free(s);
				tr_free(r);
			}
}

TEST(unwinds_shown_when_they_happen)
{
	struct dp_report *r = tr_clique("page=clique&id=3&fields=p");
	char *s;

	r->sections[0].rows[0].own.unwinds = 1;
	r->sections[0].rows[0].own.exits = 0;
	s = tr_render(r, false, 100);
	CHECK(tr_contains(s, "Ancestors:\n"
			     "                 ports -------------\n"
			     "Id  Name         Calls Exits Unwinds  Where\n"
			     "c1  main -> fib      1     0       1  main.c:12\n"));
	free(s);
	tr_free(r);
}

TEST(names_shortened_to_fit)
{
	struct dp_report *r = tr_clique("page=clique&id=3&fields=p");
	char *s;

	r->sections[1].rows[4].name =
		"std::_Rb_tree<std::string, std::pair<std::string const, int>>::_M_insert_unique"
		"(std::pair<std::string const, int> const&)";
	s = tr_render(r, false, 66);
	CHECK(tr_contains(s,
			  "Id   Name                                           Calls  Where\n"
			  "p2   fib                                              100  fib.c:3\n"));
	CHECK(tr_contains(s, "c6       std::_Rb_tree<...>::_M_insert_unique(...)     20  "
			     "fib.c:9\n"));
	free(s);
	r->sections[1].rows[4].name = "abcdefghijklmnopqrstuvwxyz_abcdefghijklmnopqrstuvwxyz"
				      "_abcdefghijklmnopqrstuvwxyz";
	s = tr_render(r, false, 66);
	CHECK(tr_contains(s,
			  "c6       abcdefghijklmnopqrs...hijklmnopqrstuvwxyz     20  fib.c:9\n"));
	free(s);
	tr_free(r);
}

TEST(flame_tree_golden)
{
	struct dp_report *r = tr_flame("page=flame");
	char *s = tr_render(r, false, 100);

	CHECK_STR(s, "Call tree\n"
		     "=========\n"
		     "\n"
		     "Total   Self    time  Calls  Call tree\n"
		     " 100%     0%   1.0 s      1  main  main.c:10\n"
		     "60.0%  10.0%  600 ms      3  |-- a  a.c:2\n"
		     "50.0%  50.0%  500 ms   1200  |   `-- c<int>  c.cc:8\n"
		     "30.0%  30.0%  300 ms      2  |-- b & co  b.c:4\n"
		     "10.0%  10.0%  100 ms      0  `-- other\n");
	free(s);
	tr_free(r);
}

TEST(tree_guides_under_last_child)
{
	struct dp_report *r = tr_new("page=flame&metric=calls");
	struct dp_rep_section *sec = tr_section(r, "flame", NULL, 5);
	static const char *const names[5] = {"root", "x", "y", "z", "w"};
	static const uint32_t depth[5] = {0, 1, 2, 3, 2};
	char *s;

	for (uint32_t i = 0; i < 5; i++)
		tr_costs(tr_row(sec, DP_ENT_CSD, i + 1, depth[i], 0, names[i], NULL, 0),
			 100 - 10 * i, 0, 0, 0, 0, 0);
	s = tr_render(r, false, 100);
	/* with metric=calls, a node's self is its calls */
	CHECK(tr_contains(s, "Total   Self  calls  Calls  Call tree\n"
			     " 100%   100%    100    100  root\n"
			     "90.0%  90.0%     90     90  `-- x\n"
			     "80.0%  80.0%     80     80      |-- y\n"
			     "70.0%  70.0%     70     70      |   `-- z\n"
			     "60.0%  60.0%     60     60      `-- w\n"));
	free(s);
	tr_free(r);
}

TEST(error_page_text)
{
	char *s = tr_render_error(400, "unknown page 'foo'; pages: menu, root, action", false);

	CHECK_STR(s, "Error 400: Bad query\n"
		     "====================\n"
		     "\n"
		     "Error: unknown page 'foo'; pages: menu, root, action\n"
		     "\n"
		     "Where to go from here:\n"
		     "  menu            page=menu\n"
		     "  root            page=root\n"
		     "  top procedures  page=top\n"
		     "  modules         page=modules\n"
		     "  flame graph     page=flame\n");
	free(s);
}

TEST(menu_and_pager_text)
{
	struct dp_report *r = tr_menu();
	char *s = tr_render(r, false, 100);

	/* the summary first, where to go, then the details */
	CHECK(tr_contains(s, "Profile of ./prog <a&b>\n=======================\n\n"
			     "  program  ./prog\n\n"
			     "Starting points:\n"
			     "  The root clique                   page=root\n"
			     "  Top 100 procedures by total time  page=top&scope=total\n\n"
			     "Details:\n"
			     "  cliques           42\n"
			     "  sample rate (Hz)  999.5\n"));
	free(s);
	tr_free(r);
	r = tr_callers("page=callers&proc=6&bunch=2");
	s = tr_render(r, false, 100);
	CHECK(tr_contains(s, "Page 2 of 5 (93 items):\n"
			     "  first  page=callers&proc=6\n"
			     "  prev   page=callers&proc=6\n"
			     "  1      page=callers&proc=6\n"
			     "  3      page=callers&proc=6&bunch=3\n"));
	CHECK(tr_contains(s, "  last   page=callers&proc=6&bunch=5\n"));
	CHECK(tr_contains(s, "s41  caller22 (contour)     40  5.0 ms 0.5% 5.0 ms 0.5%  c.c:22\n"));
	CHECK(tr_contains(s, "Left out, zero in every row: callseqs, bytes.\n"));
	free(s);
	tr_free(r);
}

TEST(control_characters_neutralised)
{
	struct dp_report *r = tr_clique("page=clique&id=3&fields=p");
	char *s;

	r->sections[0].rows[0].name = "evil\x1b[31mred\nline\x7f";
	r->sections[0].rows[0].file = "a\tb.c";
	s = tr_render(r, false, 100);
	CHECK(tr_contains(s, "c1  evil?[31mred?line?      1  a?b.c:12\n"));
	CHECK(strchr(s, '\x1b') == NULL);
	free(s);
	tr_free(r);
}

DP_TEST_MAIN(test_clique_page_golden, test_wide_tables_take_two_lines, test_every_width_fits,
	     test_unwinds_shown_when_they_happen, test_names_shortened_to_fit,
	     test_flame_tree_golden, test_tree_guides_under_last_child, test_error_page_text,
	     test_menu_and_pager_text, test_control_characters_neutralised)
