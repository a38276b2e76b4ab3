/*
 * core/strtab.c - string interning: FNV-1a hash, linear probing, table at most half full.
 */
#include "strtab.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

static uint32_t str_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

static int strtab_rehash(struct dp_strtab *t, uint32_t n_slots)
{
	uint32_t *slots = calloc(n_slots, sizeof(*slots));

	if (!slots)
		return dp_error(DP_ENOMEM, "out of memory interning strings");
	for (uint32_t id = 1; id < t->n; id++) {
		uint32_t i = str_hash(t->str[id], t->len[id]) & (n_slots - 1);

		while (slots[i])
			i = (i + 1) & (n_slots - 1);
		slots[i] = id;
	}
	free(t->slots);
	t->slots = slots;
	t->n_slots = n_slots;
	return 0;
}

int dp_strtab_init(struct dp_strtab *t)
{
	memset(t, 0, sizeof(*t));
	dp_arena_init(&t->arena, 0);
	t->cap = 64;
	t->str = malloc(t->cap * sizeof(*t->str));
	t->len = malloc(t->cap * sizeof(*t->len));
	if (!t->str || !t->len) {
		dp_strtab_release(t);
		return dp_error(DP_ENOMEM, "out of memory interning strings");
	}
	t->str[0] = "";
	t->len[0] = 0;
	t->n = 1;
	if (strtab_rehash(t, 128) < 0) {
		dp_strtab_release(t);
		return -DP_ENOMEM;
	}
	return 0;
}

int64_t dp_strtab_intern(struct dp_strtab *t, const char *s, size_t len)
{
	uint32_t mask, i;
	char *copy;

	if (len == 0)
		return 0;
	if (len > UINT32_MAX)
		return dp_error(DP_ENOMEM, "string of %zu bytes is too long", len);
	mask = t->n_slots - 1;
	for (i = str_hash(s, len) & mask; t->slots[i]; i = (i + 1) & mask) {
		uint32_t id = t->slots[i];

		if (t->len[id] == len && memcmp(t->str[id], s, len) == 0)
			return id;
	}
	if (t->n == UINT32_MAX)
		return dp_error(DP_ENOMEM, "too many strings");
	if (t->n == t->cap) {
		uint32_t cap = t->cap * 2;
		const char **str = realloc(t->str, cap * sizeof(*str));
		uint32_t *lens;

		if (!str)
			return dp_error(DP_ENOMEM, "out of memory interning strings");
		t->str = str;
		lens = realloc(t->len, cap * sizeof(*lens));
		if (!lens)
			return dp_error(DP_ENOMEM, "out of memory interning strings");
		t->len = lens;
		t->cap = cap;
	}
	copy = dp_arena_strndup(&t->arena, s, len);
	if (!copy)
		return dp_error(DP_ENOMEM, "out of memory interning strings");
	t->str[t->n] = copy;
	t->len[t->n] = (uint32_t)len;
	t->slots[i] = t->n;
	t->n++;
	if (t->n * 2 > t->n_slots) {
		int rc = strtab_rehash(t, t->n_slots * 2);

		if (rc < 0)
			return rc;
	}
	return t->n - 1;
}

int64_t dp_strtab_intern_cstr(struct dp_strtab *t, const char *s)
{
	return dp_strtab_intern(t, s, strlen(s));
}

const char *dp_strtab_get(const struct dp_strtab *t, uint32_t id)
{
	return id < t->n ? t->str[id] : "";
}

void dp_strtab_release(struct dp_strtab *t)
{
	free(t->str);
	free(t->len);
	free(t->slots);
	dp_arena_release(&t->arena);
	memset(t, 0, sizeof(*t));
}
