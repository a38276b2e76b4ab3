/*
 * core/strtab.h - interned strings with dense integer ids.
 *
 * Id 0 is always the empty string; other ids count up from 1 in order of first
 * interning. Strings live in the table's own arena until dp_strtab_release().
 * Depends on core/arena.
 */
#ifndef DP_CORE_STRTAB_H
#define DP_CORE_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"

struct dp_strtab {
	struct dp_arena arena;
	const char **str; /* str[id], n entries */
	uint32_t *len;	  /* len[id] */
	uint32_t n, cap;
	uint32_t *slots;  /* open-addressing hash: 0 = empty, else id */
	uint32_t n_slots; /* power of two */
};

/* dp_strtab_init - an empty table holding only id 0 (""); returns 0 or -DP_ENOMEM. */
int dp_strtab_init(struct dp_strtab *t);

/*
 * dp_strtab_intern - the id of the @len bytes at @s, adding them if new.
 * Return: the id (>= 0; 0 for the empty string), or -DP_ENOMEM.
 */
int64_t dp_strtab_intern(struct dp_strtab *t, const char *s, size_t len);

/* dp_strtab_cstr - shorthand for a NUL-terminated string. */
int64_t dp_strtab_intern_cstr(struct dp_strtab *t, const char *s);

/* dp_strtab_get - the string of @id (NUL-terminated, owned by the table); "" if @id is
 * out of range. */
const char *dp_strtab_get(const struct dp_strtab *t, uint32_t id);

/* dp_strtab_release - free everything. */
void dp_strtab_release(struct dp_strtab *t);

#endif /* DP_CORE_STRTAB_H */
