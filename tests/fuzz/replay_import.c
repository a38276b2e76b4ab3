/*
 * tests/fuzz/replay_import.c - CTest import_corpus_replay: import every file of a corpus
 * directory (tests/corpus/import) in the format its name ends with (.folded,
 * .perf-script, .pb or .pb.gz, .uftrace). Files named ok-* must be imported (and pass
 * the checks of dp_fuzz_import_one()), bad-* rejected with "NAME: ...": a line or a byte
 * offset; others (the fuzzers' finds) must just not crash.
 * Usage: replay_import DIR. Exit 0 or 1.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "fuzz_import.h"

/* The file at @path in a malloc'd buffer; NULL if it cannot be read. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	long n;

	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (data = malloc((size_t)n + 1)) && fread(data, 1, (size_t)n, f) == (size_t)n) {
		*len = (size_t)n;
	} else {
		free(data);
		data = NULL;
	}
	if (f)
		fclose(f);
	return data;
}

static int ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int one(const char *dir, const char *name, const char *tmp)
{
	enum dp_import_from from;
	char path[4096], *data;
	size_t len;
	int rc;

	if (ends(name, ".folded"))
		from = DP_IMPORT_FOLDED;
	else if (ends(name, ".perf-script"))
		from = DP_IMPORT_PERF_SCRIPT;
	else if (ends(name, ".pb") || ends(name, ".pb.gz"))
		from = DP_IMPORT_PPROF;
	else if (ends(name, ".uftrace"))
		from = DP_IMPORT_UFTRACE;
	else
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(data = slurp(path, &len))) {
		fprintf(stderr, "%s: cannot read\n", path);
		return 1;
	}
	rc = dp_fuzz_import_one(from, path, (const uint8_t *)data, len, tmp);
	free(data);
	if (strncmp(name, "ok-", 3) == 0 && rc != 0) {
		fprintf(stderr, "%s: should import: %s\n", name, dp_errmsg());
		return 1;
	}
	if (strncmp(name, "bad-", 4) == 0 &&
	    (rc != 1 || (!strstr(dp_errmsg(), ": line ") && !strstr(dp_errmsg(), " at byte ")))) {
		fprintf(stderr, "%s: should be rejected with a position: %s\n", name,
			rc == 1 ? dp_errmsg() : "(imported)");
		return 1;
	}
	printf("%s: %s\n", name, rc == 0 ? "imported" : dp_errmsg());
	return 0;
}

int main(int argc, char **argv)
{
	char tmp[] = "/tmp/dp-replay-import.XXXXXX";
	struct dirent **ents;
	int n, fails = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: replay_import DIR\n");
		return 1;
	}
	if (!mkdtemp(tmp))
		return 1;
	n = scandir(argv[1], &ents, NULL, alphasort);
	if (n < 0) {
		perror(argv[1]);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		fails += one(argv[1], ents[i]->d_name, tmp);
		free(ents[i]);
	}
	free(ents);
	for (const char *f = "info\0task.txt\0sid-0123456789abcdef.map\0prog.sym\01.dat\0"; *f;
	     f += strlen(f) + 1) {
		char p[256];

		snprintf(p, sizeof(p), "%s/%s", tmp, f);
		remove(p);
	}
	remove(tmp);
	return fails ? 1 : 0;
}
