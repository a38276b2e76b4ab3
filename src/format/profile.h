/*
 * format/profile.h - the in-memory form of one data file, as the reader builds it and the
 * tool-side writer writes it back. Plain arrays indexed by node id (index 0 unused, ids
 * from 1, as in the file); every string is an id into the profile's string table.
 *
 * The analysis (src/analysis) builds its own indexes on top; this module only holds
 * what the file holds. Depends on core/ and include/deepprof/format.h.
 */
#ifndef DP_FORMAT_PROFILE_H
#define DP_FORMAT_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/arena.h"
#include "../core/strtab.h"

#define DP_BUILD_ID_MAX 64

struct dp_segment {
	uint64_t start; /* runtime address */
	uint64_t size;
	uint32_t flags; /* ELF p_flags (PF_X = 1, PF_W = 2, PF_R = 4) */
};

struct dp_object {
	uint32_t path; /* string id */
	uint64_t bias; /* runtime address = ELF vaddr + bias */
	uint8_t build_id[DP_BUILD_ID_MAX];
	uint32_t build_id_len;
	uint32_t first_seg; /* index into profile->segs */
	uint32_t n_segs;
};

struct dp_thread {
	uint64_t tid;
	uint32_t name; /* string id */
	uint32_t root_pd;
	uint64_t start_ns, end_ns;
	uint64_t samples_inside;
	uint32_t flags; /* DP_THREAD_* */
};

/* A coverage point of a function (detail profiling; unused until that lands). */
struct dp_cp {
	uint32_t kind;
	uint32_t line;
};

struct dp_ps {
	uint32_t kind; /* enum dp_ps_kind */
	uint64_t addr;
	/* from SYMS (0 = unknown until symbolized) */
	uint32_t name;	       /* string id: demangled name */
	uint32_t linkage_name; /* string id: mangled name, 0 if the same as name */
	uint32_t file;	       /* string id: source file of the definition */
	uint32_t line;
	uint32_t linkage; /* enum dp_linkage */
	uint32_t object;  /* 1-based index into objects, 0 unknown */
	/* a region's (kind DP_PS_REGION): leaves naming it that did not match the innermost
	 * open region; its name (above) comes from its PSTA record */
	uint64_t mismatched;
	/* coverage points: room for detail profiling; n_cp is 0 unless DP_FEAT_COVERAGE */
	uint32_t n_cp;
	struct dp_cp *cp; /* n_cp points, NULL when n_cp == 0 */
};

struct dp_css {
	uint32_t ps; /* caller */
	uint64_t addr;
	uint32_t kind; /* enum dp_css_kind */
	/* from SYMS */
	uint32_t file; /* string id */
	uint32_t line;
	uint32_t callee_ps; /* statically known callee, 0 unknown */
};

struct dp_pd {
	uint32_t ps;
	uint32_t thread; /* 1-based thread index; 0 for the program root */
	uint32_t n_cp;	 /* equal to its PS's n_cp */
	uint64_t *cp;	 /* n_cp coverage counts, NULL when n_cp == 0 */
};

struct dp_csd {
	uint32_t caller; /* PD id */
	uint32_t css;
	uint32_t callee; /* PD id */
	uint64_t calls, exits, unwinds, samples, callseqs, allocs, alloc_bytes;
};

/* A sampled PC (SPCS): @samples of CSD @csd's samples interrupted the program at @pc. */
struct dp_pcs {
	uint32_t csd;
	uint64_t pc;
	uint64_t samples;
};

struct dp_profile {
	struct dp_arena arena; /* owns every array below */
	struct dp_strtab strs; /* every string of the profile */

	/* header */
	uint32_t version;
	uint32_t elf_machine;
	uint64_t features; /* DP_FEAT_* */

	/* INFO */
	uint32_t root_pd;
	uint64_t sample_period_ns, hz;
	uint64_t samples_inside, samples_outside, total_callseqs;
	uint64_t lost_calls, lost_samples, lost_allocs;
	uint32_t stop_reason; /* string id */
	uint32_t program;     /* string id */
	uint32_t argc;
	uint32_t *argv; /* argc string ids */
	uint64_t pid, ppid;
	uint64_t start_ns, end_ns;
	uint64_t exit_status; /* exit() status + 1; 0 unknown */

	/* ORIG (optional): where an imported profile came from. origin is 0 for a profile
	 * written by the deepprof runtime, which measures every counter */
	uint32_t origin;       /* string id: the tool ("uftrace", "perf", "pprof", "folded") */
	uint32_t origin_input; /* string id: the input it was imported from */
	uint32_t origin_note;  /* string id: free text (units, what was converted how) */
	uint32_t metrics;      /* DP_CSD_* bits of the counters the source measured; only
				  meaningful when origin != 0 */

	/* SPCS (optional): the runtime's sampled PCs, until the symbolizer turns them into
	 * library leaves (DP_PS_LIBRARY) and empties the list; pcs_missed stays */
	bool has_pcs;	     /* the chunk is present (written back when set) */
	uint32_t n_pcs;	     /* records */
	struct dp_pcs *pcs;  /* [0..n_pcs) */
	uint64_t pcs_missed; /* samples charged to their CSD without a PC record */

	uint32_t n_threads;
	struct dp_thread *threads; /* [1..n_threads] */
	uint32_t n_objects;
	struct dp_object *objects; /* [1..n_objects] */
	uint32_t n_segs;
	struct dp_segment *segs; /* [0..n_segs) */

	uint32_t n_ps, n_css, n_pd, n_csd;
	struct dp_ps *ps;   /* [1..n_ps] */
	struct dp_css *css; /* [1..n_css] */
	struct dp_pd *pd;   /* [1..n_pd] */
	struct dp_csd *csd; /* [1..n_csd] */
};

/* dp_profile_init - an empty profile (no nodes); returns 0 or -DP_ENOMEM. */
int dp_profile_init(struct dp_profile *p);

/* dp_profile_release - free everything the profile owns. */
void dp_profile_release(struct dp_profile *p);

/* dp_profile_str - the string with id @id ("" for 0 or out of range). */
const char *dp_profile_str(const struct dp_profile *p, uint32_t id);

/*
 * dp_profile_ps_label - a printable name for PS @id: the symbol name if known, else
 * "<program>", "<thread>" or "0x<addr>" written into @buf (@len bytes). Returns a string
 * owned by the profile or @buf.
 */
const char *dp_profile_ps_label(const struct dp_profile *p, uint32_t id, char *buf, size_t len);

#endif /* DP_FORMAT_PROFILE_H */
