/*
 * deepprof/format.h - the on-disk format of deepprof data files: constants and the
 * encoding helpers shared by the runtime (writer) and the tools (reader, writer).
 *
 * Everything here is static inline so that the runtime never links tool code.
 * The authoritative description of the layout is docs/FORMAT.md; keep both in step.
 * Depends on nothing but the C library headers.
 */
#ifndef DEEPPROF_FORMAT_H
#define DEEPPROF_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------- file header --- */

#define DP_FMT_MAGIC		  "DEEPPROF" /* 8 bytes, no terminator on disk */
#define DP_FMT_VERSION		  1u
#define DP_FMT_MIN_READER_VERSION 1u
#define DP_FMT_HEADER_SIZE	  32u
#define DP_FMT_ENDIAN_MARK	  0x0A0B0C0Du /* stored little-endian: 0D 0C 0B 0A */

/*
 * Header, DP_FMT_HEADER_SIZE bytes, little-endian:
 *   OFFSET SIZE DESCRIPTION
 *   0      8    magic "DEEPPROF"
 *   8      2    version (DP_FMT_VERSION)
 *   10     2    oldest reader version that can read this file
 *   12     2    header size in bytes (32)
 *   14     2    ELF machine of the profiled process (EM_X86_64 = 62, EM_AARCH64 = 183)
 *   16     4    endianness marker DP_FMT_ENDIAN_MARK
 *   20     4    reserved, 0
 *   24     8    feature flags (DP_FEAT_*)
 */
#define DP_FEAT_SYMBOLIZED (1u << 0) /* a SYMS chunk is present */
#define DP_FEAT_STOPPED	   (1u << 1) /* collection stopped early; see INFO stop_reason */
#define DP_FEAT_COVERAGE   (1u << 2) /* PS/PD records carry coverage points */
#define DP_FEAT_KNOWN	   (DP_FEAT_SYMBOLIZED | DP_FEAT_STOPPED | DP_FEAT_COVERAGE)

/*
 * Chunk: 16-byte chunk header, then the payload.
 *   0  4  chunk id (four ASCII bytes, DP_CHUNK_*)
 *   4  4  reserved, 0
 *   8  8  payload length in bytes
 */
#define DP_FMT_CHUNK_HEADER_SIZE 16u

/*
 * Table of contents: one 24-byte entry per chunk, in the order the chunks appear.
 *   0  4  chunk id
 *   4  4  reserved, 0
 *   8  8  file offset of the chunk's payload
 *   16 8  payload length
 */
#define DP_FMT_TOC_ENTRY_SIZE 24u

/*
 * End record: the last 32 bytes of every complete file.
 *   0  8  magic "DPEND\0\0\1"
 *   8  8  file offset of the table of contents
 *   16 8  total file size, end record included
 *   24 4  number of TOC entries
 *   28 4  CRC-32 (IEEE 802.3, as zlib's crc32) of every byte before this field
 */
#define DP_FMT_END_MAGIC "DPEND\0\0\1"
#define DP_FMT_END_SIZE	 32u

#define DP_FMT_ID(a, b, c, d)                                                                  \
	((uint32_t)(uint8_t)(a) | (uint32_t)(uint8_t)(b) << 8 | (uint32_t)(uint8_t)(c) << 16 | \
	 (uint32_t)(uint8_t)(d) << 24)

#define DP_CHUNK_INFO DP_FMT_ID('I', 'N', 'F', 'O') /* run information, node counts */
#define DP_CHUNK_THRD DP_FMT_ID('T', 'H', 'R', 'D') /* thread table */
#define DP_CHUNK_OBJS DP_FMT_ID('O', 'B', 'J', 'S') /* loaded objects */
#define DP_CHUNK_PSTA DP_FMT_ID('P', 'S', 'T', 'A') /* ProcStatic records */
#define DP_CHUNK_CSST DP_FMT_ID('C', 'S', 'S', 'T') /* CallSiteStatic records */
#define DP_CHUNK_PDYN DP_FMT_ID('P', 'D', 'Y', 'N') /* ProcDynamic records */
#define DP_CHUNK_CSDY DP_FMT_ID('C', 'S', 'D', 'Y') /* CallSiteDynamic records */
#define DP_CHUNK_SYMS DP_FMT_ID('S', 'Y', 'M', 'S') /* symbols (after symbolization) */
#define DP_CHUNK_ORIG DP_FMT_ID('O', 'R', 'I', 'G') /* optional: imported from another tool */
#define DP_CHUNK_SPCS DP_FMT_ID('S', 'P', 'C', 'S') /* optional: sampled PCs per CSD */

/* ---------------------------------------------------------------- node kinds --- */

/* PS kinds: what a ProcStatic stands for. */
enum dp_ps_kind {
	DP_PS_FUNCTION = 0, /* an instrumented function; addr = its entry address */
	DP_PS_ROOT = 1,	    /* the artificial program root ("<program>"), addr 0 */
	DP_PS_THREAD = 2,   /* the artificial root of one thread ("<thread>"), addr 0 */
	DP_PS_REGION = 3,   /* a region the program marked with deepprof_enter/leave, addr 0;
			       its record also holds its name and mismatched leaves */
	DP_PS_KIND_MAX = 3, /* the last kind one run's file holds (tables of names that stop
			       here show the merged kind below as unknown) */
	DP_PS_PROGRAM = 4,  /* artificial, in merged files only: one program of several, named
			       by its SYMS name (the program's path), under the root; addr 0 */
	DP_PS_LIBRARY = 5,  /* symbolized files only: code outside instrumented functions (a
			       library's function, assembly) named by its symbol and object;
			       addr = the symbol's address; a leaf with samples only */
	/* the last kind any file may hold */
	DP_PS_KIND_FILE_MAX = 5
};

/* CSS kinds: how the caller reaches the callee(s) at this site. */
enum dp_css_kind {
	DP_CSS_UNKNOWN = 0,  /* not symbolized yet, or no call-site debug info */
	DP_CSS_DIRECT = 1,   /* a call whose callee is known statically */
	DP_CSS_INDIRECT = 2, /* a call through a pointer (function pointer, virtual call) */
	DP_CSS_CALLBACK = 3, /* the return address lies outside the caller: uninstrumented code
				called back into instrumented code (qsort comparator, ...) */
	DP_CSS_THREAD = 4,   /* artificial: program root -> a thread's root */
	DP_CSS_ENTRY = 5,    /* a thread root -> a top-level function of that thread
				(main, a thread start routine, a constructor, an atexit handler) */
	DP_CSS_INLINED = 6,  /* the hooks of a function inlined into the caller: the return
				address is the caller's own return address */
	DP_CSS_TAIL = 7,     /* entered through a tail call: the callee replaced a function
				that the caller called at this site (same address as that
				site's own CSS) */
	DP_CSS_KIND_MAX = 7, /* the last kind one run's file holds */
	DP_CSS_PROGRAM = 8,  /* artificial, merged files only: program root -> a program node */
	DP_CSS_LIBRARY = 9,  /* symbolized files only: a function -> a library leaf (above);
				addr = the leaf's address */
	/* the last kind any file may hold */
	DP_CSS_KIND_FILE_MAX = 9
};

/* Linkage of a function, from its ELF symbol. */
enum dp_linkage {
	DP_LINK_UNKNOWN = 0,
	DP_LINK_GLOBAL = 1,
	DP_LINK_STATIC = 2,
	DP_LINK_WEAK = 3,
	DP_LINK_MAX = 3
};

/* Bits of a CSD record's field mask; fields follow the mask in this bit order.
 * Zero fields are omitted. */
enum dp_csd_field {
	DP_CSD_CALLS = 1u << 0,
	DP_CSD_EXITS = 1u << 1,
	DP_CSD_UNWINDS = 1u << 2,
	DP_CSD_SAMPLES = 1u << 3,
	DP_CSD_CALLSEQS = 1u << 4,
	DP_CSD_ALLOCS = 1u << 5,
	DP_CSD_ALLOC_BYTES = 1u << 6,
	DP_CSD_N_FIELDS = 7
};
#define DP_CSD_FIELDS_KNOWN 0x7Fu

/* Thread flags (THRD chunk). */
#define DP_THREAD_ENDED	  (1u << 0) /* the thread had exited when the file was written */
#define DP_THREAD_MAIN	  (1u << 1) /* the process's initial thread */
#define DP_THREAD_STOPPED (1u << 2) /* collection stopped in this thread (see lost counts) */

/* ------------------------------------------------------------ primitive codecs --- */

/*
 * num: unsigned varint, big-endian base-128 as in Mercury's Deep.data: seven data bits
 * per byte, most significant group first, 0x80 set on every byte but the last.
 * A uint64_t takes at most DP_VARINT_MAX bytes. A canonical encoding never starts with
 * a 0x80 byte (a leading zero group); readers reject such encodings.
 */
#define DP_VARINT_MAX 10

/* dp_fmt_put_varint - encode @v into @out (room for DP_VARINT_MAX bytes); returns the
 * number of bytes written. */
static inline size_t dp_fmt_put_varint(uint8_t *out, uint64_t v)
{
	uint8_t tmp[DP_VARINT_MAX];
	size_t n = 0, i;

	do {
		tmp[n++] = (uint8_t)(v & 0x7F);
		v >>= 7;
	} while (v != 0);
	for (i = 0; i < n; i++)
		out[i] = (uint8_t)(tmp[n - 1 - i] | (i + 1 < n ? 0x80 : 0));
	return n;
}

/* dp_fmt_varint_size - the number of bytes dp_fmt_put_varint() writes for @v. */
static inline size_t dp_fmt_varint_size(uint64_t v)
{
	size_t n = 1;

	while (v >>= 7)
		n++;
	return n;
}

/*
 * dp_fmt_get_varint - decode one num from [@p, @end) into *@v.
 * Returns the number of bytes consumed, 0 if the input ends inside the number, or
 * (size_t)-1 if the encoding is invalid (leading zero group, or a value above 2^64-1).
 */
static inline size_t dp_fmt_get_varint(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
	uint64_t acc = 0;
	size_t n = 0;

	if (p < end && *p == 0x80)
		return (size_t)-1;
	while (p + n < end) {
		uint8_t b = p[n++];

		if (acc > (UINT64_MAX >> 7))
			return (size_t)-1;
		acc = (acc << 7) | (b & 0x7F);
		if (!(b & 0x80)) {
			*v = acc;
			return n;
		}
		if (n >= DP_VARINT_MAX)
			return (size_t)-1;
	}
	return 0;
}

static inline void dp_fmt_put_u16(uint8_t *out, uint16_t v)
{
	out[0] = (uint8_t)v;
	out[1] = (uint8_t)(v >> 8);
}

static inline void dp_fmt_put_u32(uint8_t *out, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		out[i] = (uint8_t)(v >> (8 * i));
}

static inline void dp_fmt_put_u64(uint8_t *out, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		out[i] = (uint8_t)(v >> (8 * i));
}

static inline uint16_t dp_fmt_get_u16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (uint16_t)(p[1] << 8));
}

static inline uint32_t dp_fmt_get_u32(const uint8_t *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static inline uint64_t dp_fmt_get_u64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

/*
 * dp_fmt_crc32 - continue a CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320; the
 * same value zlib's crc32() computes) over @len bytes. Start with @crc = 0.
 * Bitwise with a nibble table: slow (~300 MB/s) but needs no table initialisation,
 * which suits the runtime; the tools may use zlib's crc32() for speed.
 */
static inline uint32_t dp_fmt_crc32(uint32_t crc, const uint8_t *p, size_t len)
{
	static const uint32_t nib[16] = {
		0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u,
		0x4DB26158u, 0x5005713Cu, 0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
		0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu,
	};

	crc = ~crc;
	for (size_t i = 0; i < len; i++) {
		crc ^= p[i];
		crc = (crc >> 4) ^ nib[crc & 15];
		crc = (crc >> 4) ^ nib[crc & 15];
	}
	return ~crc;
}

#endif /* DEEPPROF_FORMAT_H */
