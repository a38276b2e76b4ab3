/*
 * display/http.c - what every HTTP front end (the web server, the CGI program) says
 * about the pages dp_render_html() makes: the security headers sent with each response
 * and the reason phrases of the statuses they answer with. One copy, so that both
 * front ends send the same policy.
 */
#include <stddef.h>

#include "display.h"

static const char dp_http_csp[] = "default-src 'none'; style-src 'unsafe-inline'; "
				  "script-src 'self'; connect-src 'self'; img-src 'self' data:; "
				  "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const char *const dp_http_headers[][2] = {
	{"Content-Security-Policy", dp_http_csp},
	{"X-Content-Type-Options", "nosniff"},
	{"X-Frame-Options", "DENY"},
	{"Referrer-Policy", "no-referrer"},
	{NULL, NULL},
};

const char *dp_http_reason(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 400:
		return "Bad Request";
	case 403:
		return "Forbidden";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 414:
		return "URI Too Long";
	case 503:
		return "Service Unavailable";
	case 504:
		return "Gateway Timeout";
	default:
		return status >= 500 ? "Internal Server Error" : "Error";
	}
}
