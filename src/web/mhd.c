/*
 * web/mhd.c - loading GNU libmicrohttpd on demand (mhd.h): dlopen() of the library the
 * build found, dlsym() of each function serve.c uses, once per process.
 */
#include "mhd.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../core/err.h"

#ifndef DP_MHD_SONAME
#define DP_MHD_SONAME "libmicrohttpd.so.12"
#endif

static struct dp_mhd mhd;
static const struct dp_mhd *mhd_ok;
static char mhd_why[256];
static pthread_once_t mhd_once = PTHREAD_ONCE_INIT;

/* Look up @name into *@slot (a function pointer's bytes); 0 or -1 with mhd_why set. */
static int mhd_sym(void *h, const char *name, void *slot, size_t size)
{
	void *sym = dlsym(h, name);

	if (!sym) {
		snprintf(mhd_why, sizeof(mhd_why), "%s has no %s", DP_MHD_SONAME, name);
		return -1;
	}
	memcpy(slot, &sym, size); /* object to function pointer, as POSIX allows */
	return 0;
}

#define DP_MHD_SYM(h, f) mhd_sym(h, "MHD_" #f, &mhd.f, sizeof(mhd.f))

static void mhd_load(void)
{
	void *h = dlopen(DP_MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
	const char *e;

	if (!h) {
		e = dlerror();
		snprintf(mhd_why, sizeof(mhd_why), "%s", e ? e : DP_MHD_SONAME);
		return;
	}
	if (DP_MHD_SYM(h, start_daemon) || DP_MHD_SYM(h, stop_daemon) ||
	    DP_MHD_SYM(h, create_response_from_buffer) || DP_MHD_SYM(h, add_response_header) ||
	    DP_MHD_SYM(h, queue_response) || DP_MHD_SYM(h, destroy_response))
		return; /* the handle stays open: harmless, and dlclose could run destructors */
	mhd_ok = &mhd;
}

const struct dp_mhd *dp_mhd_get(void)
{
	pthread_once(&mhd_once, mhd_load);
	if (!mhd_ok)
		dp_error(DP_EIO,
			 "cannot load GNU libmicrohttpd for the web server: %s "
			 "(install the Debian package libmicrohttpd12)",
			 mhd_why);
	return mhd_ok;
}
