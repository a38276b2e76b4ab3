/*
 * import/imp_pprof.c - pprof's profile.proto (package perftools.profiles), gzip'd or
 * not: Go, gperftools and other pprof writers. Decoded with the protobuf wire rules (a
 * varint tag = field << 3 | wire type; varints, fixed 32/64, length-delimited; repeated
 * numbers packed or not). Used fields: Profile sample_type 1, sample 2, location 4,
 * function 5, string_table 6, period_type 11, period 12; Sample location_id 1 (leaf
 * first), value 2; Location id 1, address 3, line 4 (Line function_id 1, line 2; the
 * last line the outermost of inlined frames); Function id 1, name 2, filename 4,
 * start_line 5. Each sample's stack is walked root first; its values go to the leaf
 * context's counters by sample type: samples/count (with a period in ns), a time in
 * ns, us, ms or s, calls, callseqs, allocs or alloc_objects, alloc_space or bytes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../core/err.h"
#include "../core/vec.h"
#include "deepprof/format.h"
#include "imp_int.h"
#include "import.h"

/* A bounded view [pos, end) of the decoded profile. */
struct pb {
	const uint8_t *d;
	size_t pos, end;
};

struct span {
	size_t pos, end;
};

struct spans {
	struct span *v;
	size_t n, cap;
};

struct pprof {
	struct imp *b;
	const char *name;
	const char *where; /* "" or " of the decompressed profile" */
	const uint8_t *d;
	struct spans types, samples, locs, funcs, strs;
	struct span period_type;
	int64_t period;
	/* functions: PS id by index; locations: address and lines (function index) */
	uint32_t *fn_ps;
	struct dp_map64 fn_ids, loc_ids; /* id -> index + 1 */
	uint64_t loc_max_id;		 /* the largest Location id */
	uint32_t *loc_dense; /* [id]: loc_ids as an array, when the ids are dense; or NULL */
	uint64_t *loc_addr;
	uint32_t *loc_first, *loc_n, *lines;
	size_t n_lines;
	/* what each sample value feeds: a DP_CSD_* bit (0 ignored) and a multiplier */
	uint32_t *val_bit;
	uint64_t *val_mul;
	uint64_t divide; /* the time values' common period, 1 if none */
	uint32_t *frames;
	uint64_t *frame_loc;
	size_t cap_frames, cap_frame_loc;
	/* the previous sample's stack, root first: each frame's PS and call site (a sample
	   walks only where it parts from it, as the folded importer does) */
	uint32_t *prev_ps;
	uint64_t *prev_site;
	size_t prev_n, cap_prev_ps, cap_prev_site;
};

static int bad(const struct pprof *f, size_t at, const char *what)
{
	return dp_error(DP_EFORMAT, "%s: %s at byte %zu%s", f->name, what, at, f->where);
}

static int varint(const struct pprof *f, struct pb *c, uint64_t *v)
{
	uint64_t acc = 0;

	for (int shift = 0; shift < 64; shift += 7) {
		uint8_t x;

		if (c->pos >= c->end)
			return bad(f, c->pos, "truncated varint");
		x = c->d[c->pos++];
		if (shift == 63 && x > 1)
			return bad(f, c->pos - 1, "varint above 2^64 - 1");
		acc |= (uint64_t)(x & 0x7F) << shift;
		if (!(x & 0x80)) {
			*v = acc;
			return 0;
		}
	}
	return bad(f, c->pos, "varint longer than 10 bytes");
}

/* The next field: its number, wire type, and value (wire types 0, 1, 5) or payload
 * (2, in *@sub). */
static int field(const struct pprof *f, struct pb *c, uint32_t *num, uint32_t *wt, uint64_t *v,
		 struct pb *sub)
{
	size_t at = c->pos;
	uint64_t tag, len;
	int rc = varint(f, c, &tag);

	if (rc < 0)
		return rc;
	*num = (uint32_t)(tag >> 3);
	*wt = (uint32_t)(tag & 7);
	if (tag >> 3 == 0 || tag >> 3 > 0x1FFFFFFF)
		return bad(f, at, "bad field number 0");
	switch (*wt) {
	case 0:
		return varint(f, c, v);
	case 1:
	case 5:
		len = *wt == 1 ? 8 : 4;
		if (c->end - c->pos < len)
			return bad(f, c->pos, "truncated fixed-width field");
		*v = 0;
		for (uint64_t i = 0; i < len; i++)
			*v |= (uint64_t)c->d[c->pos + i] << (8 * i);
		c->pos += len;
		return 0;
	case 2:
		if ((rc = varint(f, c, &len)) < 0)
			return rc;
		if (len > c->end - c->pos)
			return bad(f, at, "length-delimited field runs past its message");
		*sub = (struct pb){c->d, c->pos, c->pos + len};
		c->pos += len;
		return 0;
	default:
		return bad(f, at, "unsupported wire type (groups are not used by profile.proto)");
	}
}

static int push(struct spans *s, size_t pos, size_t end)
{
	if (DP_VEC_GROWZ(s->v, s->cap, s->n + 1) < 0)
		return dp_error(DP_ENOMEM, "out of memory reading a pprof profile");
	s->v[s->n++] = (struct span){pos, end};
	return 0;
}

/* Pass 1: where the repeated messages and strings are. */
static int index_profile(struct pprof *f, size_t len)
{
	struct pb c = {f->d, 0, len}, sub;
	uint32_t num, wt;
	uint64_t v;
	int rc = 0;

	while (rc == 0 && c.pos < c.end) {
		size_t at = c.pos;

		if ((rc = field(f, &c, &num, &wt, &v, &sub)) < 0)
			break;
		if ((num <= 6 && num != 3 && wt != 2) || ((num == 11) && wt != 2) ||
		    (num == 12 && wt != 0))
			return bad(f, at, "field of the wrong wire type in Profile");
		if (num == 1)
			rc = push(&f->types, sub.pos, sub.end);
		else if (num == 2)
			rc = push(&f->samples, sub.pos, sub.end);
		else if (num == 4)
			rc = push(&f->locs, sub.pos, sub.end);
		else if (num == 5)
			rc = push(&f->funcs, sub.pos, sub.end);
		else if (num == 6)
			rc = push(&f->strs, sub.pos, sub.end);
		else if (num == 11)
			f->period_type = (struct span){sub.pos, sub.end};
		else if (num == 12)
			f->period = (int64_t)v;
	}
	if (rc == 0 && (f->strs.n == 0 || f->strs.v[0].end != f->strs.v[0].pos))
		rc = bad(f, f->strs.n ? f->strs.v[0].pos : len,
			 "string table missing or its first entry is not empty");
	return rc;
}

/* String @idx of the table, or an error naming the field at @at. */
static int string_at(const struct pprof *f, uint64_t idx, size_t at, const char **s, size_t *n)
{
	if (idx >= f->strs.n)
		return bad(f, at, "string index out of range");
	*s = (const char *)f->d + f->strs.v[idx].pos;
	*n = f->strs.v[idx].end - f->strs.v[idx].pos;
	return 0;
}

static int str_is(const struct pprof *f, uint64_t idx, const char *want)
{
	return idx < f->strs.n && f->strs.v[idx].end - f->strs.v[idx].pos == strlen(want) &&
	       memcmp(f->d + f->strs.v[idx].pos, want, strlen(want)) == 0;
}

/* A ValueType's type and unit string indexes. */
static int value_type(const struct pprof *f, struct span s, uint64_t *type, uint64_t *unit)
{
	struct pb c = {f->d, s.pos, s.end}, sub;
	uint32_t num, wt;
	uint64_t v;
	int rc = 0;

	*type = *unit = 0;
	while (rc == 0 && c.pos < c.end) {
		size_t at = c.pos;

		if ((rc = field(f, &c, &num, &wt, &v, &sub)) == 0 && num <= 2) {
			if (wt != 0)
				return bad(f, at, "ValueType field is not a varint");
			if (v >= f->strs.n)
				return bad(f, at, "ValueType string index out of range");
			*(num == 1 ? type : unit) = v;
		}
	}
	return rc;
}

/* ns per unit of a time unit name, 0 if it is not one. */
static uint64_t time_unit(const struct pprof *f, uint64_t unit)
{
	return str_is(f, unit, "nanoseconds")	 ? 1
	       : str_is(f, unit, "microseconds") ? 1000
	       : str_is(f, unit, "milliseconds") ? 1000000
	       : str_is(f, unit, "seconds")	 ? 1000000000
						 : 0;
}

/* Which sample type feeds which counter (see the file comment); the note says so. */
static int choose_values(struct pprof *f, char *note, size_t size)
{
	uint64_t pt_type = 0, pt_unit = 0, ns, time_mul = 1;
	int64_t samples_at = -1, time_at = -1;
	size_t used = 0;
	int rc = 0;

	f->val_bit = calloc(f->types.n + 1, sizeof(*f->val_bit));
	f->val_mul = calloc(f->types.n + 1, sizeof(*f->val_mul));
	if (!f->val_bit || !f->val_mul)
		return dp_error(DP_ENOMEM, "out of memory reading a pprof profile");
	if (f->period_type.end > f->period_type.pos)
		rc = value_type(f, f->period_type, &pt_type, &pt_unit);
	f->divide = 1;
	used += (size_t)snprintf(note, size, "pprof sample types:");
	for (size_t i = 0; rc == 0 && i < f->types.n; i++) {
		uint64_t t, u;
		const char *ts = "", *us = "";
		size_t tn = 0, un = 0;

		if ((rc = value_type(f, f->types.v[i], &t, &u)) < 0)
			break;
		f->val_mul[i] = 1;
		if (str_is(f, t, "calls"))
			f->val_bit[i] = DP_CSD_CALLS;
		else if (str_is(f, t, "callseqs"))
			f->val_bit[i] = DP_CSD_CALLSEQS;
		else if (str_is(f, t, "allocs") || str_is(f, t, "alloc_objects"))
			f->val_bit[i] = DP_CSD_ALLOCS;
		else if ((str_is(f, t, "bytes") || str_is(f, t, "alloc_space")) &&
			 str_is(f, u, "bytes"))
			f->val_bit[i] = DP_CSD_ALLOC_BYTES;
		else if (str_is(f, t, "samples") && str_is(f, u, "count") && samples_at < 0)
			samples_at = (int64_t)i;
		else if (time_unit(f, u) && time_at < 0) {
			time_at = (int64_t)i;
			time_mul = time_unit(f, u);
		}
		string_at(f, t, 0, &ts, &tn);
		string_at(f, u, 0, &us, &un);
		if (used < size)
			used += (size_t)snprintf(note + used, size - used, " %.*s/%.*s", (int)tn,
						 ts, (int)un, us);
	}
	ns = time_unit(f, pt_unit);
	if (rc < 0)
		return rc;
	if (samples_at >= 0 && ns && f->period > 0) {
		f->val_bit[samples_at] = DP_CSD_SAMPLES;
		f->b->p->sample_period_ns = (uint64_t)f->period * ns;
	} else if (time_at >= 0) {
		f->val_bit[time_at] = DP_CSD_SAMPLES;
		f->val_mul[time_at] = time_mul;
		f->divide = ns && f->period > 0 ? (uint64_t)f->period * ns : 1;
		f->b->p->sample_period_ns = 1;
	} else if (samples_at >= 0) {
		f->val_bit[samples_at] = DP_CSD_SAMPLES;
	}
	return 0;
}

static int parse_function(struct pprof *f, struct span s)
{
	struct pb c = {f->d, s.pos, s.end}, sub;
	uint64_t id = 0, name = 0, sys = 0, file = 0, line = 0, v;
	uint32_t num, wt;
	const char *ns = "", *fs = "";
	size_t nn = 0, fn = 0;
	int64_t ps, fid;
	int rc = 0;

	while (rc == 0 && c.pos < c.end) {
		size_t at = c.pos;

		if ((rc = field(f, &c, &num, &wt, &v, &sub)) < 0)
			return rc;
		if (num >= 1 && num <= 5 && wt != 0)
			return bad(f, at, "Function field is not a varint");
		if ((num >= 2 && num <= 4) && v >= f->strs.n)
			return bad(f, at, "Function string index out of range");
		switch (num) {
		case 1:
			id = v;
			break;
		case 2:
			name = v;
			break;
		case 3:
			sys = v;
			break;
		case 4:
			file = v;
			break;
		case 5:
			line = v;
			break;
		default:
			break;
		}
	}
	if (id == 0)
		return bad(f, s.pos, "Function without an id");
	if (dp_map64_get(&f->fn_ids, id) != DP_MAP32_NONE)
		return bad(f, s.pos, "two Functions with the same id");
	string_at(f, name ? name : sys, 0, &ns, &nn);
	string_at(f, file, 0, &fs, &fn);
	if (nn == 0) {
		char buf[40];

		snprintf(buf, sizeof(buf), "<function %" PRIu64 ">", id);
		ps = imp_proc(f->b, buf, strlen(buf), file, 0);
	} else {
		ps = imp_proc(f->b, ns, nn, file, 0);
	}
	if (ps < 0)
		return (int)ps;
	if (fn && (fid = imp_str(f->b, fs, fn)) > 0) {
		f->b->ps[ps].file = (uint32_t)fid;
		f->b->ps[ps].line = line < UINT32_MAX ? (uint32_t)line : 0;
	}
	fid = (int64_t)(f->fn_ids.n + 1);
	f->fn_ps[fid] = (uint32_t)ps;
	if (dp_map64_intern(&f->fn_ids, id, (uint32_t)fid) == DP_MAP32_NONE)
		return dp_error(DP_ENOMEM, "out of memory reading a pprof profile");
	return 0;
}

/* A Line: its function's PS appended to f->lines. */
static int parse_line(struct pprof *f, struct pb c)
{
	struct pb sub;
	uint64_t v, fid = 0;
	uint32_t num, wt, idx;
	int rc = 0;

	while (rc == 0 && c.pos < c.end) {
		size_t at = c.pos;

		if ((rc = field(f, &c, &num, &wt, &v, &sub)) < 0)
			return rc;
		if (num == 1 && wt != 0)
			return bad(f, at, "Line function_id is not a varint");
		if (num == 1)
			fid = v;
	}
	idx = dp_map64_get(&f->fn_ids, fid);
	if (idx == DP_MAP32_NONE)
		return bad(f, c.end, "Line refers to a Function id that does not exist");
	f->lines[f->n_lines++] = f->fn_ps[idx];
	return 0;
}

static int parse_location(struct pprof *f, size_t i)
{
	struct pb c = {f->d, f->locs.v[i].pos, f->locs.v[i].end}, sub;
	uint64_t id = 0, v;
	uint32_t num, wt;
	int rc = 0;

	f->loc_first[i] = (uint32_t)f->n_lines;
	while (rc == 0 && c.pos < c.end) {
		size_t at = c.pos;

		if ((rc = field(f, &c, &num, &wt, &v, &sub)) < 0)
			return rc;
		if ((num == 1 || num == 3) && wt != 0)
			return bad(f, at, "Location id or address is not a varint");
		if (num == 1)
			id = v;
		else if (num == 3)
			f->loc_addr[i] = v;
		else if (num == 4 && wt == 2)
			rc = parse_line(f, sub);
	}
	if (rc < 0)
		return rc;
	f->loc_n[i] = (uint32_t)(f->n_lines - f->loc_first[i]);
	if (f->loc_n[i] == 0) { /* not symbolized: a function per address */
		char buf[32];
		int64_t ps;

		snprintf(buf, sizeof(buf), "0x%" PRIx64, f->loc_addr[i]);
		if ((ps = imp_proc(f->b, buf, strlen(buf), f->loc_addr[i], f->loc_addr[i])) < 0)
			return (int)ps;
		f->lines[f->n_lines++] = (uint32_t)ps;
		f->loc_n[i] = 1;
	}
	if (id == 0)
		return bad(f, f->locs.v[i].pos, "Location without an id");
	if (dp_map64_get(&f->loc_ids, id) != DP_MAP32_NONE)
		return bad(f, f->locs.v[i].pos, "two Locations with the same id");
	if (id > f->loc_max_id)
		f->loc_max_id = id;
	if (dp_map64_intern(&f->loc_ids, id, (uint32_t)i + 1) == DP_MAP32_NONE)
		return dp_error(DP_ENOMEM, "out of memory reading a pprof profile");
	return 0;
}

/* The index + 1 of Location @id in the map, 0 if none. */
static uint32_t loc_index(const struct pprof *f, uint64_t id)
{
	uint32_t i = dp_map64_get(&f->loc_ids, id);

	return i == DP_MAP32_NONE ? 0 : i;
}

/* f->loc_dense: the Location ids as an array when they are dense (at most twice as many
 * ids as Locations, as pprof writers number them 1, 2, ...): a sample's every frame looks
 * its location up, and an array read costs less than the map's. Without memory for it
 * the map serves. */
static void dense_locations(struct pprof *f)
{
	if (f->loc_max_id > 2 * (uint64_t)f->locs.n + 1024)
		return;
	f->loc_dense = calloc(f->loc_max_id + 1, sizeof(*f->loc_dense));
	for (uint64_t id = 1; f->loc_dense && id <= f->loc_max_id; id++)
		f->loc_dense[id] = loc_index(f, id);
}

/* Room for @n more frames. */
static int frames_room(struct pprof *f, size_t n)
{
	if (DP_VEC_GROWZ(f->frames, f->cap_frames, n) < 0 ||
	    DP_VEC_GROWZ(f->frame_loc, f->cap_frame_loc, n) < 0)
		return dp_error(DP_ENOMEM, "out of memory reading a pprof profile");
	return 0;
}

/* One location id of a sample: its frames (innermost first) appended, each with its
 * location (index + 1). */
static int sample_loc(struct pprof *f, uint64_t id, size_t at, size_t *n)
{
	uint32_t i = f->loc_dense ? (id <= f->loc_max_id ? f->loc_dense[id] : 0) : loc_index(f, id);
	int rc;

	if (!i)
		return bad(f, at, "Sample refers to a Location id that does not exist");
	i--;
	if ((rc = frames_room(f, *n + f->loc_n[i] + 1)) < 0)
		return rc;
	for (uint32_t k = 0; k < f->loc_n[i]; k++) {
		f->frames[*n] = f->lines[f->loc_first[i] + k];
		f->frame_loc[*n] = (uint64_t)i + 1;
		(*n)++;
	}
	return 0;
}

/* Enter the @n frames of f->frames (innermost first) on @st, root first, from where the
 * stack parts from the previous sample's (the same frames through the same sites: the
 * same CSDs); *@csd is the innermost frame's CSD. Return: 0 or a negative dp_err. */
static int walk_stack(struct pprof *f, struct imp_stack *st, size_t n, int64_t *csd)
{
	size_t keep = 0;
	int rc;

	if (DP_VEC_GROWZ(f->prev_ps, f->cap_prev_ps, n) < 0 ||
	    DP_VEC_GROWZ(f->prev_site, f->cap_prev_site, n) < 0)
		return dp_error(DP_ENOMEM, "out of memory reading a pprof profile");
	for (size_t j = 0; j < n; j++) {
		size_t k = n - 1 - j; /* frame j from the root */
		/* its call site: the caller location's address (inlined: 0) */
		uint64_t site = k + 1 < n && f->frame_loc[k + 1] != f->frame_loc[k]
					? f->loc_addr[f->frame_loc[k + 1] - 1]
					: 0;

		if (keep == j && j < f->prev_n && j + 1 < st->n && f->prev_ps[j] == f->frames[k] &&
		    f->prev_site[j] == site)
			keep++;
		f->prev_ps[j] = f->frames[k];
		f->prev_site[j] = site;
	}
	f->prev_n = n;
	if (keep) {
		st->n = (uint32_t)keep + 1;
		*csd = st->f[keep].csd;
	} else if ((rc = imp_stack_start(f->b, st, 1)) < 0) {
		return rc;
	}
	for (size_t j = keep; j < n; j++)
		if ((*csd = imp_enter(f->b, st, f->prev_ps[j], f->prev_site[j], 0)) < 0)
			return (int)*csd;
	return 0;
}

static int parse_sample(struct pprof *f, struct span s, struct imp_stack *st)
{
	struct pb c = {f->d, s.pos, s.end}, sub;
	uint64_t v, vals[16];
	size_t n = 0, nv = 0;
	uint32_t num, wt;
	int64_t csd = 0;
	int rc = 0;

	while (rc == 0 && c.pos < c.end) {
		size_t at = c.pos;

		if ((rc = field(f, &c, &num, &wt, &v, &sub)) < 0)
			return rc;
		if (num != 1 && num != 2)
			continue;
		if (wt != 0 && wt != 2)
			return bad(f, at, "Sample location_id or value of the wrong wire type");
		for (int first = 1; wt == 0 ? first : sub.pos < sub.end; first = 0) {
			/* one number, or each of a packed run */
			if (wt == 2 && (rc = varint(f, &sub, &v)) < 0)
				return rc;
			if (num == 1 && (rc = sample_loc(f, v, at, &n)) < 0)
				return rc;
			if (num == 2 && (int64_t)v < 0)
				return bad(f, at,
					   "negative sample value (a difference of profiles?)");
			if (num == 2 && nv < 16)
				vals[nv] = v;
			nv += num == 2;
		}
	}
	if (nv != f->types.n)
		return bad(f, s.pos, "Sample has a different number of values than sample types");
	if (n == 0)
		return 0; /* no stack: nowhere to put it */
	if ((rc = walk_stack(f, st, n, &csd)) < 0)
		return rc;
	for (size_t i = 0; i < nv && i < 16; i++) {
		struct dp_csd *d = &f->b->csd[csd];
		uint64_t x = vals[i] * f->val_mul[i];

		switch (f->val_bit[i]) {
		case DP_CSD_SAMPLES:
			if (f->divide > 1 && x % f->divide)
				f->divide = 1; /* not a whole number of periods: keep ns */
			d->samples += x;
			break;
		case DP_CSD_CALLS:
			d->calls += x;
			break;
		case DP_CSD_CALLSEQS:
			d->callseqs += x;
			break;
		case DP_CSD_ALLOCS:
			d->allocs += x;
			break;
		case DP_CSD_ALLOC_BYTES:
			d->alloc_bytes += x;
			break;
		default:
			break;
		}
	}
	return 0;
}

/* Inflates a gzip'd profile into *@out. */
static int gunzip(const char *name, const uint8_t *in, size_t len, char **out, size_t *out_len)
{
	z_stream z;
	size_t cap = 0;
	char *buf = NULL;
	int zr;

	if (DP_VEC_GROWZ(buf, cap, len * 4 + 4096) < 0)
		return dp_error(DP_ENOMEM, "out of memory decompressing %s", name);
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		free(buf);
		return dp_error(DP_ENOMEM, "out of memory decompressing %s", name);
	}
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)(len > UINT32_MAX ? UINT32_MAX : len);
	do {
		if (z.total_out == cap &&
		    (cap >= (size_t)1 << 34 || DP_VEC_GROWZ(buf, cap, cap + 1) < 0)) {
			inflateEnd(&z);
			free(buf);
			return dp_error(DP_ENOMEM, "%s: decompressed profile too large", name);
		}
		z.next_out = (Bytef *)buf + z.total_out;
		z.avail_out =
			(uInt)(cap - z.total_out > UINT32_MAX ? UINT32_MAX : cap - z.total_out);
		zr = inflate(&z, Z_NO_FLUSH);
	} while (zr == Z_OK);
	*out_len = z.total_out;
	inflateEnd(&z);
	if (zr != Z_STREAM_END) {
		free(buf);
		return dp_error(DP_EFORMAT, "%s: gzip data %s at byte %zu", name,
				zr == Z_BUF_ERROR ? "truncated" : "corrupt",
				(size_t)(z.next_in - (const Bytef *)in));
	}
	*out = buf;
	return 0;
}

static int decode(struct pprof *f, size_t len, char *note, size_t size)
{
	struct imp_stack st = {0};
	int64_t t;
	int rc = index_profile(f, len);

	if (rc == 0)
		rc = choose_values(f, note, size);
	if (rc < 0)
		return rc;
	f->fn_ps = calloc(f->funcs.n + 1, sizeof(*f->fn_ps));
	f->loc_addr = calloc(f->locs.n + 1, sizeof(*f->loc_addr));
	f->loc_first = calloc(f->locs.n + 1, sizeof(*f->loc_first));
	f->loc_n = calloc(f->locs.n + 1, sizeof(*f->loc_n));
	f->lines = calloc(len / 2 + f->locs.n + 1, sizeof(*f->lines)); /* a Line is >= 2 bytes */
	if (!f->fn_ps || !f->loc_addr || !f->loc_first || !f->loc_n || !f->lines ||
	    f->funcs.n > UINT32_MAX || f->locs.n > UINT32_MAX ||
	    dp_map64_reserve(&f->fn_ids, (uint32_t)f->funcs.n) < 0 ||
	    dp_map64_reserve(&f->loc_ids, (uint32_t)f->locs.n) < 0)
		return dp_error(DP_ENOMEM, "out of memory reading a pprof profile");
	for (size_t i = 0; rc == 0 && i < f->funcs.n; i++)
		rc = parse_function(f, f->funcs.v[i]);
	for (size_t i = 0; rc == 0 && i < f->locs.n; i++)
		rc = parse_location(f, i);
	if (rc == 0)
		dense_locations(f);
	if (rc == 0 && (t = imp_thread(f->b, 0, NULL)) < 0)
		rc = (int)t;
	for (size_t i = 0; rc == 0 && i < f->samples.n; i++)
		rc = parse_sample(f, f->samples.v[i], &st);
	imp_stack_release(&st);
	if (rc == 0 && f->divide > 1) {
		for (uint32_t i = 1; i <= f->b->n_csd; i++)
			f->b->csd[i].samples /= f->divide;
		f->b->p->sample_period_ns = f->divide;
	}
	return rc;
}

static void pprof_release(struct pprof *f)
{
	free(f->types.v);
	free(f->samples.v);
	free(f->locs.v);
	free(f->funcs.v);
	free(f->strs.v);
	free(f->fn_ps);
	free(f->loc_addr);
	free(f->loc_first);
	free(f->loc_n);
	free(f->lines);
	free(f->val_bit);
	free(f->val_mul);
	free(f->frames);
	free(f->frame_loc);
	free(f->prev_ps);
	free(f->prev_site);
	free(f->loc_dense);
	dp_map64_free(&f->fn_ids);
	dp_map64_free(&f->loc_ids);
}

/* dp_imp_pprof - imp_int.h: fill @b from @o->input and finish it, or abort it and return
 * the error. */
int dp_imp_pprof(struct imp *b, const struct dp_import_opts *o)
{
	struct pprof f = {.b = b, .name = o->input, .where = ""};
	char *raw, *plain = NULL, note[400];
	size_t len, plen = 0;
	uint32_t metrics = 0;
	int rc = imp_contents(o, &raw, &len);

	if (rc == 0 && len >= 2 && (uint8_t)raw[0] == 0x1f && (uint8_t)raw[1] == 0x8b) {
		rc = gunzip(o->input, (const uint8_t *)raw, len, &plain, &plen);
		f.where = " of the decompressed profile";
		f.d = (const uint8_t *)plain;
	} else {
		f.d = (const uint8_t *)raw;
		plen = len;
	}
	if (rc == 0)
		rc = decode(&f, plen, note, sizeof(note));
	for (size_t i = 0; rc == 0 && i < f.types.n; i++)
		metrics |= f.val_bit[i];
	pprof_release(&f);
	free(raw);
	free(plain);
	if (rc < 0) {
		imp_abort(b);
		return rc;
	}
	return imp_finish(b, "pprof", o->input, metrics, note);
}
