/*
 * web/mhd.h - GNU libmicrohttpd, opened with dlopen() when `deepprof serve` starts rather
 * than linked: linking it made every deepprof command load it and the GnuTLS stack it
 * depends on (15 libraries, about 2 ms of start-up), which only the server needs.
 */
#ifndef DP_WEB_MHD_H
#define DP_WEB_MHD_H

#include <microhttpd.h>

/* The libmicrohttpd functions serve.c calls, with their library prototypes. */
struct dp_mhd {
	__typeof__(MHD_start_daemon) *start_daemon;
	__typeof__(MHD_stop_daemon) *stop_daemon;
	__typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
	__typeof__(MHD_add_response_header) *add_response_header;
	__typeof__(MHD_queue_response) *queue_response;
	__typeof__(MHD_destroy_response) *destroy_response;
};

/*
 * dp_mhd_get - the library's functions, loaded on the first call (thread-safe; the
 * library stays loaded for the life of the process). The library is DP_MHD_SONAME,
 * set by the build from the libmicrohttpd it found.
 * Return: the table, or NULL with the message set (-DP_EIO: not installed or too old).
 */
const struct dp_mhd *dp_mhd_get(void);

#endif /* DP_WEB_MHD_H */
