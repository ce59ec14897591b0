/* names.h — a string-to-int map for the compiler's symbol tables.
 *
 * Open addressing over GC memory; keys are not copied (the syntax tree
 * owns them and outlives the compile).  Lookup and insertion are O(1) on
 * average, so scripts with thousands of declarations compile quickly.
 */
#ifndef MUSTER_COMPILER_NAMES_H
#define MUSTER_COMPILER_NAMES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct NameSlot {
    const char *key;
    int value;
} NameSlot;

typedef struct Names {
    NameSlot *slots;
    size_t cap, count;
} Names;

/* The value stored for key, or -1. */
int names_get(const Names *m, const char *key);
/* Store key -> value (replacing any value); value must be >= 0. */
void names_put(Names *m, const char *key, int value);

#endif
