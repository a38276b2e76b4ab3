/*
 * display/html_asset.c - the file HTML pages load besides themselves: the pages' script
 * (assets/deepprof.js, plain JavaScript compiled in by cmake/Embed.cmake: the table
 * filter, keyboard navigation and the interactive flame graphs), its version digest for
 * URLs, and the script element that loads it from the front end or carries it inline.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "html_int.h"

extern const char dp_asset_deepprof_js[];
extern const size_t dp_asset_deepprof_js_len;

const char *dp_html_asset(const char *name, size_t *len, const char **ctype)
{
	if (!name || strcmp(name, "deepprof.js") != 0)
		return NULL;
	*len = dp_asset_deepprof_js_len;
	*ctype = "text/javascript; charset=utf-8";
	return dp_asset_deepprof_js;
}

const char *dp_html_asset_version(void)
{
	static char v[17];
	static const char hex[] = "0123456789abcdef";
	uint64_t h = 14695981039346656037u;

	if (v[0])
		return v;
	for (size_t i = 0; i < dp_asset_deepprof_js_len; i++)
		h = (h ^ (uint8_t)dp_asset_deepprof_js[i]) * 1099511628211u;
	for (int i = 15; i >= 0; i--, h >>= 4)
		v[i] = hex[h & 15];
	return v;
}

void dp_html_script(struct dp_buf *out, const struct dp_render_opts *o)
{
	if (o && o->asset_prefix) {
		dp_buf_adds(out, "<script src=\"");
		dp_html_escape(out, o->asset_prefix);
		dp_buf_adds(out, "asset=deepprof.js&amp;v=");
		dp_buf_adds(out, dp_html_asset_version());
		dp_buf_adds(out, "\" defer></script>\n");
		return;
	}
	/* the script never holds "</script" or "<!--" (a unit test checks) */
	dp_buf_adds(out, "<script>");
	dp_buf_add(out, dp_asset_deepprof_js, dp_asset_deepprof_js_len);
	dp_buf_adds(out, "</script>\n");
}
