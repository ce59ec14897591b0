/* names.c — the compiler's string map (see names.h): FNV-1a hashing,
 * linear probing, and a table doubled whenever it is half full. */
#include "config.h"
#include "compiler/names.h"
#include "base/mem.h"

#include <stdint.h>
#include <string.h>

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;   /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

int names_get(const Names *m, const char *key)
{
    if (!m->cap)
        return -1;
    for (size_t i = hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->slots[i].key)
            return -1;
        if (strcmp(m->slots[i].key, key) == 0)
            return m->slots[i].value;
    }
}

static void insert(NameSlot *slots, size_t cap, const char *key, int value, size_t *count)
{
    for (size_t i = hash(key) & (cap - 1);; i = (i + 1) & (cap - 1)) {
        if (!slots[i].key) {
            slots[i] = (NameSlot){ key, value };
            ++*count;
            return;
        }
        if (strcmp(slots[i].key, key) == 0) {
            slots[i].value = value;
            return;
        }
    }
}

void names_put(Names *m, const char *key, int value)
{
    if ((m->count + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 32;
        NameSlot *slots = mem_alloc(sizeof(NameSlot) * cap);
        size_t count = 0;
        for (size_t i = 0; i < m->cap; i++)
            if (m->slots[i].key)
                insert(slots, cap, m->slots[i].key, m->slots[i].value, &count);
        m->slots = slots;
        m->cap = cap;
        m->count = count;
    }
    insert(m->slots, m->cap, key, value, &m->count);
}
