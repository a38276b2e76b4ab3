/*
 * tests/unit/test_display_html.c - golden fragments of the HTML of hand-built reports:
 * escaping of every profile string ("<script>", "operator<<", "&") and of the link
 * prefix, hrefs that keep every preference, re-sorting headers, right-aligned numbers,
 * toggles, hidden-row notes, the error page; writes the flame SVG to display_flame.svg
 * for the XML check of display.cmake.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/err.h"
#include "harness.h"
#include "test_display_rep.h"

static size_t count(const char *s, const char *frag)
{
	size_t n = 0;

	for (s = strstr(s, frag); s; s = strstr(s + 1, frag))
		n++;
	return n;
}

TEST(escape)
{
	struct dp_buf b;

	dp_buf_init(&b, 1024);
	CHECK_EQ(dp_html_escape(&b, "a<b>&\"'c"), 0);
	CHECK_EQ(dp_html_escape(&b, NULL), 0);
	CHECK_STR(dp_buf_cstr(&b), "a&lt;b&gt;&amp;&quot;&#39;c");
	dp_buf_release(&b);
}

TEST(clique_page_html)
{
	struct dp_report *r = tr_clique("page=clique&id=3&mq=never");
	char *s;

	r->sections[1].rows[4].name = "std::operator<<(std::ostream&, Foo<int> const&)";
	s = tr_render(r, true, 0);
	CHECK(tr_contains(s, "<!DOCTYPE html>\n<html lang=\"en\">"));
	CHECK(tr_contains(s, "table.cost td{text-align:right}table.cost td.l{text-align:left}"));
	CHECK(tr_contains(s, "<title>Clique 3: fib - deepprof</title>"));
	/* profile strings escaped; the page's only script element is its own */
	CHECK(tr_contains(s, "<a href=\"/?file=0&amp;page=clique&amp;id=7&amp;mq=never\">"
			     "&lt;script&gt;alert(1)&lt;/script&gt;</a>"));
	CHECK(tr_contains(
		s, "<a href=\"/?file=0&amp;page=clique&amp;id=6&amp;mq=never\">"
		   "std::operator&lt;&lt;(std::ostream&amp;, Foo&lt;int&gt; const&amp;)</a>"));
	CHECK_EQ(count(s, "<script"), 1);
	CHECK_EQ(count(s, "alert(1)<"), 0);
	CHECK(tr_contains(s, "main -&gt; fib</a>"));
	/* header links re-sort, keeping the other preferences */
	CHECK(tr_contains(s, "<th><a href=\"/?file=0&amp;page=clique&amp;id=3&amp;"
			     "sort=cost:calls:self&amp;mq=never\">Calls</a></th><th>Exits</th>"));
	CHECK(tr_contains(s, "<th rowspan=\"2\"><a href=\"/?file=0&amp;"
			     "page=clique&amp;id=3&amp;sort=source&amp;mq=never\">Where</a></th>"));
	/* the sorted column (total time, the default) says so, and sorts the other way */
	CHECK(tr_contains(s,
			  "<th class=\"sorted\" aria-sort=\"descending\"><a href=\"/?file=0"
			  "&amp;page=clique&amp;id=3&amp;sort=cost:asc&amp;mq=never\" title=\"sort "
			  "the other way\">Total &#9660;</a></th>"));
	/* the search box: to the server's path, with the file and the page's preferences */
	CHECK(tr_contains(s,
			  "<form class=\"search\" role=\"search\" method=\"get\" action=\"/\">"
			  "<input type=\"hidden\" name=\"file\" value=\"0\"><input type=\"hidden\" "
			  "name=\"page\" value=\"search\"><input type=\"hidden\" name=\"mq\" "
			  "value=\"never\"><input type=\"search\" name=\"q\""));
	CHECK(tr_contains(s, "<th class=\"g\" colspan=\"3\">ports</th><th class=\"g\" "
			     "colspan=\"4\">time</th>"));
	/* rows: depth, flags, numbers (right-aligned by the CSS) with exact values in titles */
	CHECK(tr_contains(
		s,
		"<tr class=\"d1\"><td class=\"l\" style=\"padding-left:1.6em\"><a href=\"/?file=0"
		"&amp;page=clique&amp;id=3&amp;mq=never\">fib</a><span class=\"rec\""));
	CHECK(tr_contains(s, "<td title=\"390 samples\">390 ms</td>"
			     "<td>39.0%</td>"));
	CHECK(tr_contains(s, "<td title=\"4608 bytes\">4.5 KiB</td>"));
	CHECK(tr_contains(s, "<td class=\"w\">fib.c:9</td></tr>"));
	CHECK(tr_contains(
		s, "<p class=\"hidden\">3 inactive rows hidden. <a href=\"/?file=0&amp;"
		   "page=clique&amp;id=3&amp;inactive=sss&amp;mq=never\">Show them</a></p>"));
	/* toggles and navigation keep the preferences */
	CHECK(tr_contains(s, "<div>inactive:<a href=\"/?file=0&amp;page=clique&amp;id=3&amp;"
			     "inactive=shh&amp;mq=never\">sites</a>"));
	CHECK(tr_contains(s, "<a href=\"/?file=0&amp;page=callers&amp;proc=2&amp;mq=never\">"
			     "callers</a>"));
	CHECK(tr_contains(s, "<b class=\"on\">never</b>"));
	CHECK_EQ(count(s, "<a "), count(s, "<a href=\"/?file=0&amp;page=") +
					  count(s, "<a class=\"on\" href=\"/?file=0&amp;page="));
	free(s);
	tr_free(r);
}

TEST(link_prefix_and_title_escaped)
{
	struct dp_report *r = tr_menu();
	struct dp_render_opts o = {.link_prefix = "/cgi?file=%2Fa\"b<c>&", .title = "x<y>.data"};
	struct dp_display *d = NULL;
	struct dp_buf b;

	dp_buf_init(&b, 1 << 20);
	CHECK_EQ(dp_display_build(r, &d), 0);
	CHECK_EQ(dp_render_html(d, &o, &b), 0);
	CHECK(tr_contains(dp_buf_cstr(&b),
			  "<title>x&lt;y&gt;.data - Profile of ./prog &lt;a&amp;b&gt; "
			  "- deepprof</title>"));
	CHECK(tr_contains(dp_buf_cstr(&b), "<h1>Profile of ./prog &lt;a&amp;b&gt;</h1>"));
	CHECK(tr_contains(dp_buf_cstr(&b), "<li><a href=\"/cgi?file=%2Fa&quot;b&lt;c&gt;&amp;"
					   "page=top&amp;scope=total\">Top 100 procedures by total "
					   "time</a></li>"));
	CHECK(tr_contains(dp_buf_cstr(&b), "<tr><td>cliques</td><td>42</td></tr>"));
	dp_display_free(d);
	dp_buf_release(&b);
	tr_free(r);
}

TEST(pager_html)
{
	struct dp_report *r = tr_callers("page=callers&proc=6&bunch=2");
	char *s = tr_render(r, true, 0);

	CHECK(tr_contains(s, "<nav class=\"pager\">Page 2 of 5 (93 items): <a href=\"/?file=0&amp;"
			     "page=callers&amp;proc=6\">first</a>"));
	CHECK(tr_contains(s, "caller22</a><span class=\"rec\" title=\"regrouped by contour "
			     "exclusion\">&#8679;</span>"));
	CHECK(tr_contains(s, "<b>2</b><a href=\"/?file=0&amp;page=callers&amp;proc=6&amp;bunch=3\">"
			     "3</a>"));
	free(s);
	tr_free(r);
}

/* Write the <svg>...</svg> of @s to @path. */
static void save_svg(const char *s, const char *path)
{
	const char *a = strstr(s, "<svg"), *e = strstr(s, "</svg>");
	FILE *f;

	CHECK(a && e);
	if (!a || !e)
		return;
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fwrite(a, 1, (size_t)(e - a) + 6, f);
	fclose(f);
}

TEST(flame_svg)
{
	struct dp_report *r = tr_flame("page=flame");
	char *s;

	r->sections[0].rows[2].name = "std::vector<int>::operator[]<script>";
	s = tr_render(r, true, 0);
	CHECK(tr_contains(s, "<svg class=\"flame\" xmlns=\"http://www.w3.org/2000/svg\" "
			     "viewBox=\"0 0 1200 51\" width=\"100%\">"));
	CHECK(tr_contains(s, "<a href=\"/?file=0&amp;page=clique&amp;id=2\"><g><title>a\na.c:2\n"
			     "time: 600 ms (60.0%), self 100 ms (10.0%), calls 3</title>"
			     "<rect x=\"0.00\" y=\"17\" width=\"720.00\" height=\"16\""));
	CHECK(tr_contains(s, "std::vector&lt;int&gt;::operator[]&lt;script&gt;</text>"));
	CHECK(tr_contains(s, "<g><title>other\ntime: 100 ms (10.0%)"));
	CHECK_EQ(count(s, "<rect "), 5);
	save_svg(s, "display_flame.svg");
	free(s);
	tr_free(r);
	/* callers graph: root at the top, links to procedures; long labels clipped */
	r = tr_flame("page=flame_callers&proc=1");
	r->sections[0].rows[3].name = "a_very_long_procedure_name_that_cannot_fit_in_360_units_"
				      "of_width_at_all_no_way_not_even_close_really";
	s = tr_render(r, true, 0);
	CHECK(tr_contains(s, "<a href=\"/?file=0&amp;page=proc&amp;id=1\"><g><title>main"));
	CHECK(tr_contains(s, "<rect x=\"0.00\" y=\"0\" width=\"1200.00\""));
	/* (360 - 6) / 6.8 = 52 characters: 50 and ".." */
	CHECK(tr_contains(s, "<text x=\"723.00\" y=\"29\">"
			     "a_very_long_procedure_name_that_cannot_fit_in_360_..</text>"));
	save_svg(s, "display_flame_callers.svg");
	free(s);
	tr_free(r);
}

/* Render @r as HTML with @o, the report's JSON attached as the session does. */
static char *render_with_data(const struct dp_report *r, const struct dp_render_opts *o)
{
	struct dp_display *d = NULL;
	struct dp_buf b;
	char *s;

	dp_buf_init(&b, 1 << 24);
	CHECK_EQ(dp_display_build(r, &d), 0);
	CHECK_EQ(dp_display_attach_data(d, r), 0);
	CHECK_EQ(dp_render_html(d, o, &b), 0);
	s = malloc(b.len + 1);
	if (s)
		memcpy(s, dp_buf_cstr(&b), b.len + 1);
	dp_display_free(d);
	dp_buf_release(&b);
	return s;
}

/*
 * The interactive flame graph's parts: the block's div says which section it draws and
 * how; the report's JSON rides in a data block where no profile string can end the
 * element (every '<' as \u003c); the script is loaded from the front end, or inline.
 * Dropping the '<' rewrite, the div or the script element fails it.
 */
TEST(flame_data_and_script)
{
	struct dp_report *r = tr_flame("page=flame");
	struct dp_render_opts served = {.link_prefix = "/?file=0&", .asset_prefix = "/?"};
	struct dp_render_opts file = {.link_prefix = "?"};
	char want[128];
	const char *data;
	char *s;

	r->sections[0].rows[2].name = "x</script><!--<b>";
	s = render_with_data(r, &served);
	CHECK(tr_contains(s, "<div class=\"fg\" data-sec=\"flame\" data-kind=\"tree\" "
			     "data-down=\"0\">\n<p class=\"fgnote\">Width: time."));
	CHECK(tr_contains(s, "<script type=\"application/json\" id=\"dp-data\" "
			     "data-prefix=\"/?file=0&amp;\">{\"schema\":2,\"page\":\"flame\""));
	CHECK(tr_contains(s, "\"name\":\"x\\u003c/script>\\u003c!--\\u003cb>\""));
	snprintf(want, sizeof(want), "<script src=\"/?asset=deepprof.js&amp;v=%s\" defer></script>",
		 dp_html_asset_version());
	CHECK(tr_contains(s, want));
	data = strstr(s, "id=\"dp-data\"");
	CHECK(data != NULL && strchr(data, '<') == strstr(data, "</script>"));
	CHECK_EQ(count(s, "<script"), 2);
	CHECK_EQ(count(s, "</script>"), 2);
	free(s);
	/* no server: the script is in the page */
	s = render_with_data(r, &file);
	CHECK(tr_contains(s, "<script>/*\n * deepprof.js - "));
	CHECK(!tr_contains(s, "asset=deepprof.js&amp;v="));
	free(s);
	tr_free(r);
	/* pages without a graph carry no data */
	r = tr_clique("page=clique&id=3");
	s = render_with_data(r, &served);
	CHECK(!tr_contains(s, "dp-data"));
	CHECK_EQ(count(s, "<script"), 1);
	free(s);
	tr_free(r);
}

/* The sandwich page: its callers above (root at the bottom) and callees below (root at
 * the top), each a block drawing its section. */
TEST(sandwich_blocks)
{
	struct dp_report *r = tr_flame("page=sandwich&proc=1");
	struct dp_rep_section *two = calloc(2, sizeof(*two));
	char *s;

	two[0] = r->sections[0];
	two[0].id = "callers";
	two[1] = r->sections[0];
	two[1].id = "callees";
	r->sections = two;
	r->n_sections = 2;
	s = tr_render(r, true, 0);
	CHECK(tr_contains(s, "<h2>Callers</h2>\n<div class=\"fg\" data-sec=\"callers\" "
			     "data-kind=\"callers\" data-down=\"0\">\n<p class=\"fgnote\">Width: "
			     "time; the procedure at the bottom, its callers above."));
	CHECK(tr_contains(s, "<h2>Callees</h2>\n<div class=\"fg\" data-sec=\"callees\" "
			     "data-kind=\"callees\" data-down=\"1\">\n<p class=\"fgnote\">Width: "
			     "time; the procedure at the top, its callees below."));
	CHECK_EQ(count(s, "<svg "), 2);
	free(s);
	free(two);
	r->n_sections = 0;
	tr_free(r);
}

/* The pages' script as the front ends serve it: present, never able to end the inline
 * script element it is written into, with a stable version. */
TEST(asset)
{
	size_t len = 0;
	const char *ctype = NULL, *js = dp_html_asset("deepprof.js", &len, &ctype);
	const char *v = dp_html_asset_version();

	CHECK(js != NULL && len > 1000 && strlen(js) == len);
	CHECK_STR(ctype, "text/javascript; charset=utf-8");
	CHECK(js && !strstr(js, "</") && !strstr(js, "<!--") && !strstr(js, "<script"));
	CHECK(dp_html_asset("../deepprof.js", &len, &ctype) == NULL);
	CHECK(dp_html_asset(NULL, &len, &ctype) == NULL);
	CHECK_EQ(strlen(v), 16);
	CHECK_EQ(strspn(v, "0123456789abcdef"), 16);
	CHECK(v == dp_html_asset_version());
}

TEST(error_page_html)
{
	char *s = tr_render_error(404, "no procedure named '<script>x</script>'", true);

	CHECK(tr_contains(s, "<h1>Error 404: Not found</h1>"));
	CHECK(tr_contains(s, "<p class=\"error\">no procedure named "
			     "&#39;&lt;script&gt;x&lt;/script&gt;&#39;</p>"));
	CHECK(tr_contains(s, "<li><a href=\"?page=menu\">menu</a></li>"));
	CHECK_EQ(count(s, "<script"), 1);
	free(s);
}

DP_TEST_MAIN(test_escape, test_clique_page_html, test_link_prefix_and_title_escaped,
	     test_pager_html, test_flame_svg, test_flame_data_and_script, test_sandwich_blocks,
	     test_asset, test_error_page_html)
