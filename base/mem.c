/* mem.c — the allocator behind mem.h, built one of two ways.
 *
 * Normally libgc, with the heap limit of MUSTER_MAX_HEAP and a clear
 * message (exit 1) when memory runs out; with --enable-plain-alloc, calloc
 * with nothing freed, for AddressSanitizer, with the same limit counted by
 * hand.  Either way GMP's numbers are routed through here too
 * (mp_set_memory_functions in mem_init), and here are the scratch arenas'
 * blocks, the threads that allocate and mem_printed.
 */
#include "config.h"
#include "base/mem.h"

#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The catches pushed on this thread, innermost first (see MemCatch). */
static __thread MemCatch *catches;

static size_t catch_mark(void);
static void release_to(size_t mark);

void mem_catch_push(MemCatch *c)
{
    c->outer = catches;
    c->mark = catch_mark();
    catches = c;
}

void mem_catch_pop(MemCatch *c)
{
    catches = c->outer;
}

/* Out of memory: to the innermost catch, if there is one (never returns
 * then); else the caller prints its message and exits. */
static size_t asked_bytes;   /* any thread's: a worker's is reported by the thread that started it */

size_t mem_oom_asked(void) { return asked_bytes; }

static void throw_out_of_memory(size_t bytes)
{
    MemCatch *c = catches;
    if (!c)
        return;
    asked_bytes = bytes;
    catches = c->outer;
    release_to(c->mark);
    longjmp(c->jump, 1);
}

#ifdef MUSTER_PLAIN_ALLOC

/* Nothing is freed here but GMP's numbers, so the limit is on every byte
 * handed out (GMP's while they live): the same promise as the collector's
 * heap, counted more strictly. */
static size_t max_heap_bytes;
static size_t used_bytes;    /* atomic: the simulation's workers allocate too */

static void out_of_memory(size_t bytes)
{
    throw_out_of_memory(bytes);
    if (max_heap_bytes)
        fprintf(stderr, "muster: error: out of memory (asked for %zu more bytes; the limit is %zu MiB, "
                "set by MUSTER_MAX_HEAP)\n", bytes, max_heap_bytes >> 20);
    else
        fputs("muster: error: out of memory\n", stderr);
    exit(1);
}

static void *checked(void *p, size_t size)
{
    if (!p)
        out_of_memory(size);
    return p;
}

static void take(size_t size)
{
    size_t now = __atomic_add_fetch(&used_bytes, size, __ATOMIC_RELAXED);
    if (max_heap_bytes && now > max_heap_bytes)
        out_of_memory(size);
}

static void give_back(size_t size) { __atomic_sub_fetch(&used_bytes, size, __ATOMIC_RELAXED); }

/* A catch marks the bytes counted; running out gives back the count to it. */
static size_t catch_mark(void) { return __atomic_load_n(&used_bytes, __ATOMIC_RELAXED); }
static void release_to(size_t mark) { __atomic_store_n(&used_bytes, mark, __ATOMIC_RELAXED); }

/* A handle is a few bytes: not counted. */
void *mem_alloc_root(size_t size) { return checked(calloc(1, size ? size : 1), size); }
void mem_free_root(void *p) { free(p); }

/* GMP's numbers: malloc, but a failure is muster's message, not GMP's abort() */
static void *gmp_alloc(size_t size)
{
    take(size);
    return checked(malloc(size ? size : 1), size);
}

static void *gmp_realloc(void *p, size_t old_size, size_t new_size)
{
    if (new_size > old_size)
        take(new_size - old_size);
    else
        give_back(old_size - new_size);
    return checked(realloc(p, new_size ? new_size : 1), new_size);
}

static void gmp_free(void *p, size_t size)
{
    give_back(size);
    free(p);
}

void mem_init(size_t max_heap)
{
    static int initialised;
    if (initialised)
        return;
    initialised = 1;
    max_heap_bytes = max_heap;
    mp_set_memory_functions(gmp_alloc, gmp_realloc, gmp_free);
}

void *mem_alloc(size_t size)
{
    take(size);
    return checked(calloc(1, size ? size : 1), size);
}

void *mem_alloc_atomic(size_t size)
{
    take(size);
    return checked(malloc(size ? size : 1), size);
}

void *mem_realloc(void *p, size_t old_size, size_t new_size, int atomic)
{
    void *q = atomic ? mem_alloc_atomic(new_size) : mem_alloc(new_size);
    if (p && old_size)
        memcpy(q, p, old_size < new_size ? old_size : new_size);
    return q;
}

size_t mem_heap_limit(void) { return max_heap_bytes; }
size_t mem_collections(void) { return 0; }
size_t mem_allocated(void) { return 0; }

int mem_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg)
{
    return pthread_create(thread, NULL, fn, arg);
}

int mem_thread_join(pthread_t thread) { return pthread_join(thread, NULL); }

#else

#define GC_THREADS
#include <gc.h>

int mem_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg)
{
    return GC_pthread_create(thread, NULL, fn, arg);
}

int mem_thread_join(pthread_t thread) { return GC_pthread_join(thread, NULL); }

static int initialised;
static size_t max_heap_bytes;

static void *on_oom(size_t bytes)
{
    throw_out_of_memory(bytes);
    fprintf(stderr, "muster: error: out of memory (asked for %zu more bytes; the limit is %zu MiB, "
            "set by MUSTER_MAX_HEAP)\n", bytes, max_heap_bytes >> 20);
    exit(1);
}

/* GMP's numbers (the exact engine's probabilities) come from the
 * collector's heap, so MUSTER_MAX_HEAP bounds them too and running out is
 * on_oom's message and exit status, not GMP's abort().  GMP frees what it
 * allocates, as with malloc, so they are uncollectable: never collected,
 * freed by hand.  Atomic too, so the collector never scans their digits for
 * pointers.  (GMP's scratch blocks for big products hold a pointer to the
 * previous block, but only to free it; nothing needs the collector to see
 * it.)
 *
 * Being uncollectable, the numbers of a call that ran out of memory would
 * never be given back: so each block has a header that links it into its
 * thread's list of live blocks, with the number of its allocation, and a
 * MemCatch marks that number; running out frees the thread's blocks
 * allocated since (release_to).  A block keeps its number when GMP grows
 * it, so a number made before the catch survives. */
typedef struct GmpBlock {
    struct GmpBlock *prev, *next;
    struct GmpBlock **list;  /* the thread's list it is on */
    size_t seq;              /* its allocation's number on that thread */
} GmpBlock;                  /* 32 bytes: the digits stay 16-byte aligned */

static __thread GmpBlock *gmp_live;
static __thread size_t gmp_seq;

static void gmp_link(GmpBlock *b)
{
    b->list = &gmp_live;
    b->prev = NULL;
    b->next = gmp_live;
    if (gmp_live)
        gmp_live->prev = b;
    gmp_live = b;
}

static void gmp_unlink(GmpBlock *b)
{
    if (b->prev)
        b->prev->next = b->next;
    else
        *b->list = b->next;
    if (b->next)
        b->next->prev = b->prev;
}

static void *gmp_alloc(size_t size)
{
    GmpBlock *b = GC_MALLOC_ATOMIC_UNCOLLECTABLE(sizeof *b + size);
    if (!b)
        return on_oom(size);
    b->seq = ++gmp_seq;
    gmp_link(b);
    return b + 1;
}

static void *gmp_realloc(void *p, size_t old_size, size_t new_size)
{
    (void)old_size;
    GmpBlock *b = (GmpBlock *)p - 1;
    gmp_unlink(b);
    GmpBlock *q = GC_REALLOC(b, sizeof *b + new_size);   /* keeps the kind: uncollectable */
    if (!q) {
        gmp_link(b);
        return on_oom(new_size);
    }
    gmp_link(q);
    return q + 1;
}

static void gmp_free(void *p, size_t size)
{
    (void)size;
    GmpBlock *b = (GmpBlock *)p - 1;
    gmp_unlink(b);
    GC_FREE(b);
}

/* A catch marks the allocations of GMP's blocks so far on this thread;
 * running out frees those made since. */
static size_t catch_mark(void) { return gmp_seq; }

static void release_to(size_t mark)
{
    for (GmpBlock *b = gmp_live, *next; b; b = next) {
        next = b->next;
        if (b->seq > mark) {
            gmp_unlink(b);
            GC_FREE(b);
        }
    }
}

/* The collector's own warnings (e.g. before it reports out of memory) are
 * not for hobbyists; on_oom says what matters. */
static void quiet(char *msg, GC_word arg)
{
    (void)msg;
    (void)arg;
}

void mem_init(size_t max_heap)
{
    if (initialised)
        return;
    initialised = 1;
    GC_INIT();
    GC_allow_register_threads();
    GC_set_warn_proc(quiet);
    GC_set_oom_fn(on_oom);
    if (max_heap) {
        GC_set_max_heap_size(max_heap);
        max_heap_bytes = max_heap;
    }
    /* before the first GMP number: GMP must free with the allocator that
     * made the block */
    mp_set_memory_functions(gmp_alloc, gmp_realloc, gmp_free);
}

void *mem_alloc(size_t size)
{
    if (!initialised)
        mem_init(0);
    void *p = GC_MALLOC(size ? size : 1);
    return p ? p : on_oom(size);
}

void *mem_alloc_atomic(size_t size)
{
    if (!initialised)
        mem_init(0);
    void *p = GC_MALLOC_ATOMIC(size ? size : 1);
    return p ? p : on_oom(size);
}

void *mem_realloc(void *p, size_t old_size, size_t new_size, int atomic)
{
    if (!p)
        return atomic ? mem_alloc_atomic(new_size) : mem_alloc(new_size);
    void *q = GC_REALLOC(p, new_size ? new_size : 1);
    if (!q)
        return on_oom(new_size);
    if (!atomic && new_size > old_size)
        memset((char *)q + old_size, 0, new_size - old_size);
    return q;
}

void *mem_alloc_root(size_t size)
{
    if (!initialised)
        mem_init(0);
    void *p = GC_MALLOC_UNCOLLECTABLE(size ? size : 1);
    return p ? p : on_oom(size);
}

void mem_free_root(void *p)
{
    GC_FREE(p);
}

size_t mem_heap_limit(void) { return max_heap_bytes; }
size_t mem_collections(void) { return (size_t)GC_get_gc_no(); }
size_t mem_allocated(void) { return (size_t)GC_get_total_bytes(); }

#endif

char *mem_strndup(const char *s, size_t n)
{
    char *d = mem_alloc_atomic(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *mem_strdup(const char *s) { return mem_strndup(s, strlen(s)); }

void *arena_grow(Arena *a, size_t size)
{
    /* a bigger block; what was handed out from the old one stays valid (the
     * collector keeps it while anything points into it) */
    size_t n = a->size ? a->size * 2 : 1 << 16;
    while (n < size)
        n *= 2;
    a->block = mem_alloc(n);   /* scanned: records in it point at strings */
    a->size = n;
    a->used = size;
    return a->block;
}

char *mem_printed(void (*print)(FILE *out, const void *what), const void *what)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return mem_strdup("?");
    print(m, what);
    fclose(m);
    char *copy = mem_strndup(buf, len);
    free(buf);
    return copy;
}
