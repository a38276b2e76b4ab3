/*
 * tests/fuzz/replay_reader.c - CTest reader_corpus_replay: feed every file of a corpus
 * directory to the reader. Files named ok-* must be accepted (and then render and
 * round-trip), bad-* must be rejected with "NAME: ... at byte N"; any other file (inputs
 * the fuzzer found) must just not crash. Usage: replay_reader DIR. Exit 0 or 1.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "format/dump.h"
#include "format/reader.h"
#include "format/writer.h"

/* Renders and round-trips an accepted profile; returns 0 or -1. */
static int exercise(const struct dp_profile *p, const char *path)
{
	struct dp_profile q;
	struct dp_buf b;
	int rc;

	dp_buf_init(&b, (size_t)256 << 20);
	rc = dp_write_buffer(p, &b);
	if (rc == 0)
		rc = dp_read_buffer(b.data, b.len, path, &q);
	if (rc == 0)
		dp_profile_release(&q);
	dp_buf_reset(&b);
	if (rc == 0)
		rc = dp_dump_json(p, &b, NULL, NULL);
	dp_buf_reset(&b);
	if (rc == 0)
		rc = dp_dump_text(p, path, &b, NULL, NULL);
	dp_buf_release(&b);
	if (rc < 0)
		fprintf(stderr, "%s: accepted but does not render or round-trip: %s\n", path,
			dp_errmsg());
	return rc < 0 ? -1 : 0;
}

/* Reads one file; returns 1 if accepted, 0 if rejected properly, -1 on a failed rule. */
static int replay(const char *dir, const char *name)
{
	char path[4096];
	struct dp_profile p;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	rc = dp_read_file(path, &p);
	if (rc == 0) {
		rc = exercise(&p, path);
		dp_profile_release(&p);
		if (rc == 0 && strncmp(name, "bad-", 4) == 0) {
			fprintf(stderr, "%s: accepted but should be rejected\n", path);
			return -1;
		}
		return rc < 0 ? -1 : 1;
	}
	if (rc != -DP_EFORMAT || strstr(dp_errmsg(), " at byte ") == NULL ||
	    strncmp(dp_errmsg(), path, strlen(path)) != 0) {
		fprintf(stderr, "%s: bad rejection (%d): %s\n", path, rc, dp_errmsg());
		return -1;
	}
	if (strncmp(name, "ok-", 3) == 0) {
		fprintf(stderr, "%s: rejected but should be accepted: %s\n", path, dp_errmsg());
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int n = 0, ok = 0, bad = 0, failed = 0;
	struct dirent *de;
	DIR *d;

	if (argc != 2) {
		fprintf(stderr, "usage: replay_reader CORPUS_DIR\n");
		return 2;
	}
	d = opendir(argv[1]);
	if (!d) {
		perror(argv[1]);
		return 1;
	}
	while ((de = readdir(d))) {
		int r;

		if (de->d_name[0] == '.')
			continue;
		r = replay(argv[1], de->d_name);
		n++;
		ok += r == 1;
		bad += r == 0;
		failed += r < 0;
	}
	closedir(d);
	printf("%d files: %d accepted, %d rejected, %d broke a rule\n", n, ok, bad, failed);
	return failed || ok == 0 || bad == 0 ? 1 : 0;
}
