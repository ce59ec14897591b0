/* dice.c — the two plain dice sources, and the parser of `--dice` lists.
 *
 * Seeded dice (RngDice) draw face = rng_below(sides) + 1, the same draw the
 * VM makes itself through base.rng; scripted dice (ScriptDice) hand out a
 * given list of faces in order and fail, with a message, when it runs out
 * or a face does not fit the die.  Neither keeps pools lazily (base.pools
 * is NULL).
 */
#include "config.h"
#include "vm/dice.h"
#include "base/mem.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rng_roll(DiceSource *self, int64_t n, int32_t sides, const Die *die, int32_t *out, char *err,
                    size_t errlen)
{
    (void)die;
    (void)err;
    (void)errlen;
    RngDice *d = (RngDice *)self;
    for (int64_t i = 0; i < n; i++)
        out[i] = (int32_t)rng_below(&d->rng, (uint64_t)sides) + 1;
    return 0;
}

void dice_draw_rng(Rng *rng, int64_t n, int32_t kinds, const int64_t *left, int64_t total, int64_t *taken,
                   int32_t *order)
{
    for (int32_t k = 0; k < kinds; k++)
        taken[k] = 0;
    for (int64_t i = 0; i < n; i++, total--) {
        /* one item of those left, each as likely: the r-th, counted kind by kind */
        int64_t r = (int64_t)rng_below(rng, (uint64_t)total);
        int32_t k = 0;
        while (r >= left[k] - taken[k]) {
            r -= left[k] - taken[k];
            k++;
        }
        taken[k]++;
        if (order)
            order[i] = k;
    }
}

static int rng_draw(DiceSource *self, int64_t n, const Die *kinds, const int64_t *left, int64_t total,
                    int64_t *taken, int32_t *order, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    dice_draw_rng(&((RngDice *)self)->rng, n, kinds->n, left, total, taken, order);
    return 0;
}

void dice_rng_init(RngDice *d, uint64_t seed)
{
    d->base.draw = rng_draw;
    d->base.roll = rng_roll;
    d->base.rng = &d->rng;
    d->base.pools = NULL;
    d->seed = seed;
    rng_seed(&d->rng, seed);
}

/* "Average (2, 3, 3, 4, 4, 5)", "Attack (hit, hit, crit)": a die and its
 * faces, written at err + len. */
static void list_faces(const Die *die, char *err, size_t errlen, int len)
{
    if (len < 0 || (size_t)len >= errlen)
        return;
    len += snprintf(err + len, errlen - (size_t)len, "%s (", die->name);
    for (int32_t j = 0; j < die->n && len > 0 && (size_t)len < errlen; j++)
        len += die->names ? snprintf(err + len, errlen - (size_t)len, "%s%s", j ? ", " : "", die->names[die->value[j]])
                          : snprintf(err + len, errlen - (size_t)len, "%s%d", j ? ", " : "", (int)die->value[j]);
    if (len > 0 && (size_t)len < errlen)
        snprintf(err + len, errlen - (size_t)len, ")");
}

static int script_roll(DiceSource *self, int64_t n, int32_t sides, const Die *die, int32_t *out, char *err,
                       size_t errlen)
{
    ScriptDice *d = (ScriptDice *)self;
    for (int64_t i = 0; i < n; i++) {
        if (d->next >= d->n) {
            char kind[64];
            if (die)
                snprintf(kind, sizeof kind, "%s", die->name);
            else
                snprintf(kind, sizeof kind, "d%d", (int)sides);
            if (n == 1)
                snprintf(err, errlen, "ran out of scripted dice: %zu given, %s%s needs one more", d->n,
                         die ? "one " : "a ", kind);
            else
                snprintf(err, errlen,
                         "ran out of scripted dice: %zu given, a pool of %lld %s needs %lld more",
                         d->n, (long long)n, kind, (long long)(n - i));
            return -1;
        }
        int64_t f = d->faces[d->next];
        const char *word = d->words ? d->words[d->next] : NULL;
        if (word || (die && die->names)) {
            /* a symbol: the member's index, if the die shows it */
            int32_t v = -1;
            for (int32_t j = 0; word && die && die->names && j < die->nnames; j++)
                if (!strcmp(die->names[j], word))
                    v = j;
            int32_t k = 0;
            while (v >= 0 && k < die->n && die->value[k] != v)
                k++;
            if (v < 0 || k == die->n) {
                int len;
                if (word)
                    len = snprintf(err, errlen, "scripted die #%zu is '%s', which is not a face of ", d->next + 1, word);
                else
                    len = snprintf(err, errlen, "scripted die #%zu is %lld, which is not a face of ", d->next + 1,
                                   (long long)f);
                if (!die) {
                    snprintf(err + len, errlen - (size_t)len, "a d%d (1..%d)", (int)sides, (int)sides);
                    return -1;
                }
                list_faces(die, err, errlen, len);
                return -1;
            }
            d->next++;
            out[i] = k + 1;
            continue;
        }
        if (die) {
            /* the value a player read off the die: its first face showing it */
            int32_t k = 0;
            while (k < die->n && die->value[k] != f)
                k++;
            if (k == die->n) {
                int len = snprintf(err, errlen, "scripted die #%zu is %lld, which is not a face of ", d->next + 1,
                                   (long long)f);
                list_faces(die, err, errlen, len);
                return -1;
            }
            d->next++;
            out[i] = k + 1;
            continue;
        }
        if (f < 1 || f > sides) {
            snprintf(err, errlen, "scripted die #%zu is %lld, which is not a face of a d%d (1..%d)",
                     d->next + 1, (long long)f, (int)sides, (int)sides);
            return -1;
        }
        d->next++;
        out[i] = (int32_t)f;
    }
    return 0;
}

/* A bag's items, as listed: "union, rebel" or "3, 5". */
static void list_kinds(const Die *kinds, const int64_t *left, char *out, size_t len)
{
    int at = 0;
    for (int32_t k = 0; k < kinds->n && at >= 0 && (size_t)at < len; k++) {
        if (kinds->names)
            at += snprintf(out + at, len - (size_t)at, "%s%lld %s", k ? ", " : "", (long long)left[k],
                           kinds->names[kinds->value[k]]);
        else
            at += snprintf(out + at, len - (size_t)at, "%s%lld of %d", k ? ", " : "", (long long)left[k],
                           (int)kinds->value[k]);
    }
}

static int script_draw(DiceSource *self, int64_t n, const Die *kinds, const int64_t *left, int64_t total,
                       int64_t *taken, int32_t *order, char *err, size_t errlen)
{
    (void)total;
    ScriptDice *d = (ScriptDice *)self;
    for (int32_t k = 0; k < kinds->n; k++)
        taken[k] = 0;
    for (int64_t i = 0; i < n; i++) {
        if (d->next >= d->n) {
            snprintf(err, errlen, "ran out of scripted dice: %zu given, a draw of %lld from %s needs %lld more",
                     d->n, (long long)n, kinds->name, (long long)(n - i));
            return -1;
        }
        const char *word = d->words ? d->words[d->next] : NULL;
        int64_t v = d->faces[d->next];
        bool known = !word;          /* a number, or a name the bag's enum has */
        for (int32_t j = 0; word && kinds->names && j < kinds->nnames; j++)
            if (!strcmp(kinds->names[j], word)) {
                v = j;
                known = true;
            }
        int32_t k = 0;
        while (known && k < kinds->n && kinds->value[k] != v)
            k++;
        if (!known)
            k = kinds->n;
        char what[64], held[256];
        if (word)
            snprintf(what, sizeof what, "'%s'", word);
        else
            snprintf(what, sizeof what, "%lld", (long long)v);
        if (k == kinds->n || (!word && kinds->names)) {
            list_kinds(kinds, left, held, sizeof held);
            snprintf(err, errlen, "scripted draw #%zu is %s, which is not an item of %s (%s)", d->next + 1, what,
                     kinds->name, held);
            return -1;
        }
        if (taken[k] == left[k]) {
            list_kinds(kinds, left, held, sizeof held);
            snprintf(err, errlen, "scripted draw #%zu is %s, but %s has no more of it (the draw began with %s)",
                     d->next + 1, what, kinds->name, held);
            return -1;
        }
        taken[k]++;
        if (order)
            order[i] = k;
        d->next++;
    }
    return 0;
}

void dice_script_init(ScriptDice *d, const int64_t *faces, const char *const *words, size_t n)
{
    d->base.draw = script_draw;
    d->words = words;
    d->base.roll = script_roll;
    d->base.rng = NULL;
    d->base.pools = NULL;
    d->faces = faces;
    d->n = n;
    d->next = 0;
}

long dice_parse_list(const char *text, int64_t **faces, const char ***words, char *err, size_t errlen)
{
    size_t cap = 8, n = 0;
    int64_t *v = mem_alloc_atomic(cap * sizeof *v);
    const char **w = mem_alloc(cap * sizeof *w);
    bool any_word = false;
    const char *p = text;
    while (*p) {
        while (isspace((unsigned char)*p))
            p++;
        if (n == cap) {
            v = mem_realloc(v, cap * sizeof *v, 2 * cap * sizeof *v, 1);
            w = mem_realloc(w, cap * sizeof *w, 2 * cap * sizeof *w, 0);
            cap *= 2;
        }
        if (isalpha((unsigned char)*p) || *p == '_') {
            /* a symbol die's face, by name */
            const char *start = p;
            while (isalnum((unsigned char)*p) || *p == '_')
                p++;
            w[n] = mem_strndup(start, (size_t)(p - start));
            v[n++] = 0;
            any_word = true;
        } else {
            if (!isdigit((unsigned char)*p) && !(*p == '-' && isdigit((unsigned char)p[1]))) {
                snprintf(err, errlen, "expected a die face (a whole number, or a symbol's name) at '%s'",
                         *p ? p : "end of list");
                return -1;
            }
            errno = 0;
            char *end;
            long long f = strtoll(p, &end, 10);
            if (errno || f > 1000000000LL || f < -1000000000LL) {
                snprintf(err, errlen, "die face '%.*s' is too large", (int)(end - p), p);
                return -1;
            }
            w[n] = NULL;
            v[n++] = f;
            p = end;
        }
        while (isspace((unsigned char)*p))
            p++;
        if (*p == ',')
            p++;
        else if (*p) {
            snprintf(err, errlen, "expected ',' between die faces at '%s'", p);
            return -1;
        }
    }
    if (n == 0) {
        snprintf(err, errlen, "the dice list is empty");
        return -1;
    }
    *faces = v;
    *words = any_word ? w : NULL;
    return (long)n;
}
