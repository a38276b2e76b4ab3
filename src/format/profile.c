/*
 * format/profile.c - lifecycle and small accessors of struct dp_profile.
 */
#include "profile.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "deepprof/format.h"

int dp_profile_init(struct dp_profile *p)
{
	memset(p, 0, sizeof(*p));
	dp_arena_init(&p->arena, 0);
	return dp_strtab_init(&p->strs);
}

void dp_profile_release(struct dp_profile *p)
{
	dp_arena_release(&p->arena);
	dp_strtab_release(&p->strs);
	memset(p, 0, sizeof(*p));
}

const char *dp_profile_str(const struct dp_profile *p, uint32_t id)
{
	return dp_strtab_get(&p->strs, id);
}

const char *dp_profile_ps_label(const struct dp_profile *p, uint32_t id, char *buf, size_t len)
{
	const struct dp_ps *ps;

	if (id == 0 || id > p->n_ps)
		return "<none>";
	ps = &p->ps[id];
	if (ps->kind == DP_PS_ROOT)
		return "<program>";
	if (ps->kind == DP_PS_THREAD)
		return "<thread>";
	if (ps->kind == DP_PS_PROGRAM && !ps->name)
		return "<a program>";
	if (ps->name)
		return dp_profile_str(p, ps->name);
	snprintf(buf, len, "0x%" PRIx64, ps->addr);
	return buf;
}
