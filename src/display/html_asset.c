/*
 * display/html_asset.c - the file HTML pages load besides themselves: the pages' script
 * (assets/deepprof.js, plain JavaScript compiled in by cmake/Embed.cmake: the table
 * filter, keyboard navigation and the interactive flame graphs), its version digest for
 * URLs, and the script element that loads it from the front end or carries it inline.
 */
#include <string.h>

#include "html_int.h"

extern const char dp_asset_deepprof_js[];
extern const size_t dp_asset_deepprof_js_len;
extern const char dp_asset_deepprof_js_version[]; /* SHA-256's first 16 hex digits */

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
	return dp_asset_deepprof_js_version;
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
