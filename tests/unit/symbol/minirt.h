/*
 * tests/unit/symbol/minirt.h - a miniature deepprof runtime for the symbolizer's test
 * fixtures: the instrumentation hooks record each distinct (function, return address,
 * caller) triple, and at exit the fixture prints them with its loaded objects (bias,
 * PT_LOAD segments, build-id), so the test can build a profile of real addresses.
 */
#ifndef DP_TEST_MINIRT_H
#define DP_TEST_MINIRT_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifdef __cplusplus
#define MINIRT_C extern "C"
#else
#define MINIRT_C
#endif
#define NI __attribute__((no_instrument_function))
#ifdef __clang__
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noipa))
#endif

struct minirt_rec {
	void *fn, *site, *caller;
};
static struct minirt_rec minirt_recs[1024];
static int minirt_n;
static void *minirt_stack[256];
static int minirt_depth;

MINIRT_C NI void __cyg_profile_func_enter(void *fn, void *site);
MINIRT_C NI void __cyg_profile_func_exit(void *fn, void *site);

MINIRT_C NI void __cyg_profile_func_enter(void *fn, void *site)
{
	void *caller = minirt_depth ? minirt_stack[minirt_depth - 1] : 0;
	int i;

	for (i = 0; i < minirt_n; i++)
		if (minirt_recs[i].fn == fn && minirt_recs[i].site == site &&
		    minirt_recs[i].caller == caller)
			break;
	if (i == minirt_n && minirt_n < 1024) {
		minirt_recs[i].fn = fn;
		minirt_recs[i].site = site;
		minirt_recs[i].caller = caller;
		minirt_n++;
	}
	if (minirt_depth < 256)
		minirt_stack[minirt_depth] = fn;
	minirt_depth++;
}

MINIRT_C NI void __cyg_profile_func_exit(void *fn, void *site)
{
	(void)fn;
	(void)site;
	minirt_depth--;
}

NI static int minirt_obj(struct dl_phdr_info *info, size_t size, void *arg)
{
	char exe[4096];
	const char *path = info->dlpi_name;
	ssize_t n;
	int i;

	(void)size;
	if (!arg && !path[0])
		return 0;
	if (!path[0]) {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = 0;
		path = exe;
	}
	printf("OBJ %s %lx ", path, (unsigned long)info->dlpi_addr);
	int have_id = 0;
	for (i = 0; i < info->dlpi_phnum && !have_id; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
		const unsigned char *end = p + ph->p_memsz;

		if (ph->p_type != PT_NOTE)
			continue;
		while (p + sizeof(ElfW(Nhdr)) <= end && !have_id) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
			const unsigned char *name = p + sizeof(*nh);
			const unsigned char *desc = name + ((nh->n_namesz + 3) & ~3u);

			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    memcmp(name, "GNU", 4) == 0) {
				for (unsigned k = 0; k < nh->n_descsz; k++)
					printf("%02x", desc[k]);
				have_id = 1;
			}
			p = desc + ((nh->n_descsz + 3) & ~3u);
		}
	}
	printf("%s\n", have_id ? "" : "-");
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD)
			printf("SEG %lx %lx %u\n", (unsigned long)(info->dlpi_addr + ph->p_vaddr),
			       (unsigned long)ph->p_memsz, (unsigned)ph->p_flags);
	}
	return 0;
}

__attribute__((destructor)) NI static void minirt_dump(void)
{
	int first = 1;

	dl_iterate_phdr(minirt_obj, &first); /* the executable comes first */
	for (int i = 0; i < minirt_n; i++)
		printf("REC %lx %lx %lx\n", (unsigned long)minirt_recs[i].fn,
		       (unsigned long)minirt_recs[i].site, (unsigned long)minirt_recs[i].caller);
	fflush(stdout);
}

#endif /* DP_TEST_MINIRT_H */
