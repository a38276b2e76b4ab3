/*
 * core/arena.h - bump allocator for objects that live and die together (one profile).
 *
 * Nothing allocated from an arena is freed alone; dp_arena_release() frees it all.
 * An arena is not copied by value and is used by one thread at a time; if asked to
 * (dp_arena_prefault()) it runs a helper thread of its own that faults in big blocks'
 * pages ahead of their first use, which dp_arena_release() joins. Depends on nothing
 * but pthreads.
 */
#ifndef DP_CORE_ARENA_H
#define DP_CORE_ARENA_H

#include <stdarg.h>
#include <stddef.h>

struct dp_arena_block;
struct dp_arena_pf;

struct dp_arena {
	struct dp_arena_block *head; /* newest block first */
	size_t used;		     /* bytes handed out from head */
	size_t total;		     /* bytes obtained from malloc, all blocks */
	size_t limit;		     /* ceiling on total; 0 = none */
	struct dp_arena_pf *pf;	     /* the thread faulting in big blocks, or NULL */
	int prefault;		     /* fault in new big blocks on a helper thread */
};

#define DP_ARENA_INIT \
	{             \
		0     \
	}

/* dp_arena_init - set up an empty arena that will never hold more than @limit bytes
 * (0 = no ceiling). Allocates nothing. */
void dp_arena_init(struct dp_arena *a, size_t limit);

/*
 * dp_arena_alloc - @size bytes aligned to 16, zeroed, owned by the arena.
 * Return: the memory, or NULL when malloc fails or the ceiling would be passed.
 */
void *dp_arena_alloc(struct dp_arena *a, size_t size);

/* dp_arena_array - like dp_arena_alloc for @n elements of @size, NULL on overflow too. */
void *dp_arena_array(struct dp_arena *a, size_t n, size_t size);

/* dp_arena_strndup - copy @len bytes of @s plus a terminator into the arena. */
char *dp_arena_strndup(struct dp_arena *a, const char *s, size_t len);

/* dp_arena_printf - printf-style formatted text in the arena; NULL when the arena is out
 * of memory or the format fails (no message set: callers say what they were doing). */
char *dp_arena_printf(struct dp_arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* dp_arena_vprintf - dp_arena_printf with a va_list (consumed). */
char *dp_arena_vprintf(struct dp_arena *a, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/*
 * dp_arena_prefault - from now on, have the pages of big requests (16 MiB and more) faulted
 * in on a helper thread while the caller fills them (@on), or not. For arrays that are
 * written in full soon after they are allocated: sparse ones would only grow the RSS.
 */
void dp_arena_prefault(struct dp_arena *a, int on);

/* dp_arena_release - free every block; the arena is empty and reusable afterwards. */
void dp_arena_release(struct dp_arena *a);

/* dp_arena_cache_drop - free the released blocks kept for the next arenas that grow (the
 * process-wide cache of up to 64 MiB behind dp_arena_release()): for tests that count
 * the allocations still live. Any thread. */
void dp_arena_cache_drop(void);

/*
 * dp_advise_huge - ask the kernel to back the 2 MiB-aligned interior of [@p, @p + @size)
 * with transparent huge pages; call before the memory is first touched. Advice only:
 * nothing happens where THP is off or the range holds no aligned 2 MiB.
 */
void dp_advise_huge(void *p, size_t size);

/* dp_big_malloc - malloc for a large array of @n items of @size bytes, with transparent
 * huge pages asked for from 8 MiB (fewer page faults); NULL on failure or overflow.
 * free() it. */
void *dp_big_malloc(size_t n, size_t size);

#endif /* DP_CORE_ARENA_H */
