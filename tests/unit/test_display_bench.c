/*
 * tests/unit/test_display_bench.c - times the display step and both renderers on big
 * hand-built pages (a table of N rows with every field group, a flame graph of N nodes);
 * run by hand: test_display_bench [N_ROWS] (default 5000). Not a CTest test: timings
 * are for docs/PERFORMANCE.md, never asserted.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../../src/core/err.h"
#include "test_display_rep.h"

/* CPU time of the process: the machine may be shared; wall time follows it when idle. */
static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A page of @n rows (depth 0..3, names with templates) answering @qs. */
static struct dp_report *big(const char *qs, uint32_t n)
{
	struct dp_report *r = tr_new(qs);
	struct dp_rep_section *s = tr_section(r, "rows", "Rows", n);

	for (uint32_t i = 0; i < n; i++) {
		static const uint32_t depth[4] = {0, 1, 2, 1};
		struct dp_rep_row *w = tr_row(s, DP_ENT_CSD, i + 1, i ? depth[i % 4] : 0, 0,
					      "std::map<std::string, std::vector<int>>::find",
					      "/usr/include/c++/12/bits/stl_map.h", 1200 + i);

		w->clique = i + 1;
		w->ps = i + 1;
		tr_costs(w, 1000 + i, n - i, i, 10 * i, 20 * i, 64 * i);
	}
	return r;
}

static void time_page(const char *what, const struct dp_report *r, int iters)
{
	double t0, t_build = 0, t_text = 0, t_html = 0;
	size_t text_len = 0, html_len = 0;

	for (int k = 0; k < iters; k++) {
		struct dp_render_opts o = {.link_prefix = "/?file=0&", .width = 100};
		struct dp_display *d = NULL;
		struct dp_buf b;

		dp_buf_init(&b, (size_t)1 << 30);
		t0 = now_ms();
		if (dp_display_build(r, &d) < 0)
			exit(1);
		t_build += now_ms() - t0;
		t0 = now_ms();
		dp_render_text(d, &o, &b);
		t_text += now_ms() - t0;
		text_len = b.len;
		dp_buf_reset(&b);
		t0 = now_ms();
		dp_render_html(d, &o, &b);
		t_html += now_ms() - t0;
		html_len = b.len;
		dp_buf_release(&b);
		dp_display_free(d);
	}
	printf("%-30s CPU: build %.2f ms  text %.2f ms (%zu KiB)  html %.2f ms (%zu KiB)\n", what,
	       t_build / iters, t_text / iters, text_len >> 10, t_html / iters, html_len >> 10);
}

int main(int argc, char **argv)
{
	uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 5000;
	struct dp_report *r;
	char label[64];

	r = big("page=clique&id=1&fields=pqTSAB&inactive=sss", n);
	snprintf(label, sizeof(label), "clique, %u rows, all fields", n);
	time_page(label, r, 20);
	tr_free(r);
	r = big("page=clique&id=1", n);
	snprintf(label, sizeof(label), "clique, %u rows, default", n);
	time_page(label, r, 20);
	tr_free(r);
	r = big("page=flame", n);
	snprintf(label, sizeof(label), "flame, %u nodes", n);
	time_page(label, r, 20);
	tr_free(r);
	return 0;
}
