/*
 * display/render_opts.h - the output formats and the options a front end gives the
 * renderers (how links are made, how wide a terminal is). Shared by display/ and the
 * front ends; depends on nothing.
 */
#ifndef DP_DISPLAY_RENDER_OPTS_H
#define DP_DISPLAY_RENDER_OPTS_H

enum dp_format {
	DP_FMT_TEXT = 0,
	DP_FMT_JSON = 1,
	DP_FMT_HTML = 2,
};

/* How links and layout are made; zero-initialised means the command line's defaults. */
struct dp_render_opts {
	/* HTML: every generated link is link_prefix followed by a query string
	 * ("page=clique&id=3&..."). E.g. "/?file=0&" for the built-in server,
	 * "/cgi-bin/deepprof-cgi?file=%2Fdata%2Fx.data&" for CGI. NULL means "?". The
	 * prefix is copied into the page verbatim (HTML-escaped): the caller URL-encodes
	 * what it puts in. */
	const char *link_prefix;
	/* text: the terminal width to lay tables out for; 0 means 100 */
	unsigned width;
	/* HTML: a title prefix (the file's name), NULL for none */
	const char *title;
	/* HTML: the export formats the front end serves as downloads (download=FMT added to
	 * a page's subtree query), NULL-terminated; NULL: no "download as" menu */
	const char *const *downloads;
	/* HTML: where the front end serves the pages' script (dp_html_asset()): the page
	   loads it from asset_prefix followed by "asset=deepprof.js&v=VERSION" (e.g. "/?"
	   for the built-in server); NULL: the script is written into the page (no server:
	   the command line's HTML files) */
	const char *asset_prefix;
};

#endif /* DP_DISPLAY_RENDER_OPTS_H */
