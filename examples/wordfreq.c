/*
 * examples/wordfreq.c - the `make demo` program: counts the words of a generated text
 * with two threads, sorts them (qsort with a callback, and a recursive merge sort), prints
 * the most frequent through a table of formatters, and suggests corrections for the rare
 * words. edit_distance() is cheap when dedupe() calls it on ten words and expensive when
 * suggest() calls it on every rare word: a flat profile cannot tell them apart, a deep one
 * can. Usage: wordfreq [WORDS=400000]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXW	32
#define BUCKETS 4096

struct entry {
	char word[MAXW];
	long count;
	struct entry *next;
};

struct table {
	struct entry *bucket[BUCKETS];
	long n;
};

struct job {
	char **words;
	long n;
	struct table t;
};

static const char *const syllables[] = {"ka", "lo", "mi", "ne", "ru", "sa", "to", "vi",
					"an", "el", "or", "ut", "ba", "de", "fi", "go"};

static unsigned rnd(unsigned *s) /* xorshift32 */
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* A word of 1-6 syllables: short ones skewed (a few very frequent), long ones rare. */
static void make_word(unsigned *s, char *out)
{
	unsigned n = 1 + (rnd(s) % 8 == 0 ? 2 + rnd(s) % 4 : rnd(s) % 2);
	unsigned i;

	out[0] = '\0';
	for (i = 0; i < n; i++)
		strcat(out, syllables[(rnd(s) % 16) * (rnd(s) % 16) / 16]);
}

static unsigned hash(const char *w)
{
	unsigned h = 2166136261u;

	while (*w)
		h = (h ^ (unsigned char)*w++) * 16777619u;
	return h % BUCKETS;
}

static void add(struct table *t, const char *w, long count)
{
	struct entry **b = &t->bucket[hash(w)], *e;

	for (e = *b; e; e = e->next)
		if (strcmp(e->word, w) == 0) {
			e->count += count;
			return;
		}
	e = calloc(1, sizeof(*e));
	if (!e)
		exit(1);
	snprintf(e->word, sizeof(e->word), "%s", w);
	e->count = count;
	e->next = *b;
	*b = e;
	t->n++;
}

static void *count_words(void *arg)
{
	struct job *j = arg;
	long i;

	for (i = 0; i < j->n; i++)
		add(&j->t, j->words[i], 1);
	return NULL;
}

static struct entry **flatten(struct table *t)
{
	struct entry **v = malloc((size_t)t->n * sizeof(*v)), *e;
	long i, k = 0;

	if (!v)
		exit(1);
	for (i = 0; i < BUCKETS; i++)
		for (e = t->bucket[i]; e; e = e->next)
			v[k++] = e;
	return v;
}

static int by_count(const void *a, const void *b)
{
	const struct entry *x = *(struct entry *const *)a, *y = *(struct entry *const *)b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->word, y->word);
}

/* Recursive merge sort by word, for the alphabetical listing. */
static void merge_sort(struct entry **v, struct entry **tmp, long n)
{
	long h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	merge_sort(v, tmp, h);
	merge_sort(v + h, tmp, n - h);
	while (i < h && j < n)
		tmp[k++] = strcmp(v[i]->word, v[j]->word) <= 0 ? v[i++] : v[j++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, (size_t)n * sizeof(*v));
}

static int edit_distance(const char *a, const char *b)
{
	int d[MAXW + 1][MAXW + 1], la = (int)strlen(a), lb = (int)strlen(b), i, j;

	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			int del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;

			d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
	return d[la][lb];
}

/* Pairs of frequent words that are one edit apart (cheap: 10 words). Kept out of line, as
 * suggest() is: -O2 would inline both into main, and the profile would show one caller of
 * edit_distance() instead of the two contexts this example is about. */
__attribute__((noinline)) static int dedupe(struct entry **v, long n)
{
	int pairs = 0;
	long i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			pairs += edit_distance(v[i]->word, v[j]->word) == 1;
	return pairs;
}

/* For every rare word, the closest frequent word (expensive: rare x frequent). */
__attribute__((noinline)) static long suggest(struct entry **v, long n, long frequent)
{
	long i, j, found = 0;

	for (i = frequent; i < n; i++) {
		if (v[i]->count > 2)
			continue;
		for (j = 0; j < frequent; j++)
			if (edit_distance(v[i]->word, v[j]->word) <= 3) {
				found++;
				break;
			}
	}
	return found;
}

static void print_plain(const struct entry *e, long total)
{
	printf("  %-12s %8ld\n", e->word, e->count);
	(void)total;
}

static void print_bar(const struct entry *e, long total)
{
	int w = (int)(60 * e->count / total) + 1;

	printf("  %-12s %8ld %.*s\n", e->word, e->count, w,
	       "############################################################");
}

static void (*const formatters[])(const struct entry *, long) = {print_plain, print_bar};

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 400000, i, total = 0;
	char **words = malloc((size_t)n * sizeof(*words));
	struct job jobs[2] = {{0}, {0}};
	struct entry **v, **tmp;
	pthread_t th[2];
	unsigned seed = 42;

	if (!words || n < 2)
		return 1;
	for (i = 0; i < n; i++) {
		words[i] = malloc(MAXW);
		if (!words[i])
			return 1;
		make_word(&seed, words[i]);
	}
	for (i = 0; i < 2; i++) {
		jobs[i].words = words + i * (n / 2);
		jobs[i].n = i ? n - n / 2 : n / 2;
		pthread_create(&th[i], NULL, count_words, &jobs[i]);
	}
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < BUCKETS; i++) {
		struct entry *e;

		for (e = jobs[1].t.bucket[i]; e; e = e->next)
			add(&jobs[0].t, e->word, e->count);
	}
	v = flatten(&jobs[0].t);
	tmp = malloc((size_t)jobs[0].t.n * sizeof(*tmp));
	if (!tmp)
		return 1;
	qsort(v, (size_t)jobs[0].t.n, sizeof(*v), by_count);
	for (i = 0; i < jobs[0].t.n; i++)
		total += v[i]->count;
	printf("%ld words, %ld distinct; the most frequent:\n", total, jobs[0].t.n);
	for (i = 0; i < 10 && i < jobs[0].t.n; i++)
		formatters[i < 3](v[i], v[0]->count);
	printf("near-duplicates among them: %d\n", dedupe(v, 10));
	printf("rare words with a suggestion: %ld\n", suggest(v, jobs[0].t.n, 100));
	merge_sort(v, tmp, jobs[0].t.n);
	printf("alphabetically first: %s, last: %s\n", v[0]->word, v[jobs[0].t.n - 1]->word);
	return 0;
}
