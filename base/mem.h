/* mem.h — the one door through which muster allocates its objects.
 *
 * Every object of the language (AST nodes, types, bytecode, values, pools)
 * comes from here.  Normally that is the Boehm collector (libgc): objects
 * that may hold pointers come from mem_alloc, pointer-free data (strings,
 * bytecode, dice faces) from mem_alloc_atomic, so the collector never scans
 * it.  Configured with --enable-plain-alloc the door maps onto calloc and
 * nothing is ever freed: that build exists so AddressSanitizer, which cannot
 * see inside GC memory, can check the bounds of the language's own objects.
 *
 * Also here: the heap limit (mem_init), scratch arenas that a simulated
 * trial resets instead of allocating anew, threads created so the collector
 * knows them, and mem_printed, a printing function's output as a string.
 *
 * Rule: never keep the only pointer to one of these objects in malloc'ed
 * memory; the collector does not scan it.
 */
#ifndef MUSTER_BASE_MEM_H
#define MUSTER_BASE_MEM_H

#include <stddef.h>
#include <stdio.h>

/* Set the collector up once (idempotent); `max_heap` of 0 keeps the default. */
void mem_init(size_t max_heap);

/* Zeroed memory that may contain pointers; never NULL (out of memory, past
 * the heap limit set by mem_init, exits with a message, or longjmps to the
 * thread's MemCatch when one is pushed). */
void *mem_alloc(size_t size);
/* Memory that holds no pointers; its contents are NOT zeroed. */
void *mem_alloc_atomic(size_t size);
/* Grow a block from mem_alloc or mem_alloc_atomic (atomic says which). */
void *mem_realloc(void *p, size_t old_size, size_t new_size, int atomic);
/* Copy of a byte string, NUL-terminated, atomic. */
char *mem_strndup(const char *s, size_t n);
char *mem_strdup(const char *s);
/* Objects the caller of the library holds (a context, a program): never
 * collected, whatever points at them, until mem_free_root; what they point
 * at stays alive with them.  Zeroed. */
void *mem_alloc_root(size_t size);
void mem_free_root(void *p);

/* Running out of memory as an error to handle instead of the exit: while a
 * MemCatch is pushed on a thread, running out on that thread longjmps to
 * its `jump` (after which the catch is popped already).  Use it as
 *
 *     MemCatch mc;
 *     mem_catch_push(&mc);
 *     if (setjmp(mc.jump)) { ...out of memory... }
 *     ...work...
 *     mem_catch_pop(&mc);
 *
 * with the work in a function of its own (setjmp's rules on locals).  What
 * the work allocated is left to the collector (under plain allocation it
 * is leaked, and no longer counted against the heap limit). */
#include <setjmp.h>
typedef struct MemCatch {
    jmp_buf jump;
    struct MemCatch *outer;
    size_t mark;             /* what to give back to on running out (see mem.c) */
} MemCatch;
void mem_catch_push(MemCatch *c);
void mem_catch_pop(MemCatch *c);
/* What the allocation that ran out of memory last (on any thread) asked for. */
size_t mem_oom_asked(void);

/* A scratch arena: bump allocation of objects that live only until the
 * owner resets it (the dice pools and records of one simulated trial), so a
 * simulation allocates nothing per trial once the arena has grown.  Its
 * blocks come from the collector and are scanned, so what an object in it
 * points at stays alive. */
typedef struct Arena {
    char *block;
    size_t used, size;
} Arena;

/* A new block for an arena that is full (see arena_alloc). */
void *arena_grow(Arena *a, size_t size);
/* Inline: a simulated trial's pools and records come from here. */
static inline void *arena_alloc(Arena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (a->used + size > a->size)
        return arena_grow(a, size);
    void *p = a->block + a->used;
    a->used += size;
    return p;
}
static inline void arena_reset(Arena *a) { a->used = 0; }
/* Where an arena stands, to give back later everything allocated after
 * this point (a reroll starts its procedure again with nothing of the
 * attempt before). */
typedef struct ArenaMark {
    char *block;
    size_t used;
} ArenaMark;
static inline ArenaMark arena_mark(const Arena *a) { return (ArenaMark){ a->block, a->used }; }
static inline void arena_release(Arena *a, ArenaMark m)
{
    /* a block newer than the mark holds only what came after it */
    a->used = a->block == m.block ? m.used : 0;
}

/* Threads that allocate: created through the collector so it knows them. */
#include <pthread.h>
int mem_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg);
int mem_thread_join(pthread_t thread);

/* What print writes to a stream, as a NUL-terminated string (GC memory). */
char *mem_printed(void (*print)(FILE *out, const void *what), const void *what);
/* The heap limit mem_init set (bytes; 0: none). */
size_t mem_heap_limit(void);
/* How many collections have run so far (0 under plain allocation). */
size_t mem_collections(void);
/* Bytes allocated from the collector so far (0 under plain allocation). */
size_t mem_allocated(void);

#endif
