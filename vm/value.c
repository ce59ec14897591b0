/* value.c — exact integer and rational arithmetic, ordering and printing.
 *
 * Ints are added and multiplied with the compiler's overflow checks and
 * rationals are worked in 128-bit integers, then brought back to 64 bits,
 * so an overflow is reported ("integer overflow"), never wrapped;
 * every function that can fail returns its message, or NULL.  Values print
 * as text (what muster shows) and as JSON.
 */
#include "config.h"
#include "vm/value.h"
#include "vm/chunk.h"
#include "base/mem.h"
#include "vm/pool.h"

#include <string.h>

typedef __int128 wide;

static const char OVERFLOW[] = "integer overflow";
static const char DIVZERO[] = "division by zero";

static wide wide_gcd(wide a, wide b)
{
    if (a < 0) a = -a;
    if (b < 0) b = -b;
    while (b) {
        wide t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Stein's binary gcd: shifts and subtractions, where Euclid's remainders
 * cost a hardware division each (most of the time of a small quotient). */
static uint64_t gcd64(uint64_t a, uint64_t b)
{
    if (a == 0)
        return b;
    if (b == 0)
        return a;
    int shift = __builtin_ctzll(a | b);
    a >>= __builtin_ctzll(a);
    do {
        b >>= __builtin_ctzll(b);
        if (a > b) {
            uint64_t t = a;
            a = b;
            b = t;
        }
        b -= a;
    } while (b);
    return a << shift;
}

/* A rational from its reduced terms, written whole (see val_make). */
static inline Value rat_make(int64_t num, int64_t den)
{
    Value v = val_make(VAL_RAT, 0, num);
    v.as.q.den = den;
    return v;
}

/* Reduce num/den (den != 0) and store it if it fits in int64. */
static bool rat_from_wide(wide num, wide den, Value *out)
{
    if (num > INT64_MIN && num <= INT64_MAX && den > 0 && den <= INT64_MAX) {
        /* the usual case: 64-bit arithmetic is enough */
        int64_t n = (int64_t)num, d = (int64_t)den;
        uint64_t g = gcd64(n < 0 ? -(uint64_t)n : (uint64_t)n, (uint64_t)d);
        *out = g > 1 ? rat_make(n / (int64_t)g, d / (int64_t)g) : rat_make(n, d);
        return true;
    }
    if (den < 0) {
        num = -num;
        den = -den;
    }
    wide g = wide_gcd(num, den);
    if (g > 1) {
        num /= g;
        den /= g;
    }
    if (num > INT64_MAX || num < INT64_MIN || den > INT64_MAX)
        return false;
    *out = rat_make((int64_t)num, (int64_t)den);
    return true;
}

bool val_make_rat(int64_t num, int64_t den, Value *out)
{
    return rat_from_wide(num, den, out);
}

MuStr *val_new_str(const char *bytes, size_t len)
{
    MuStr *s = mem_alloc_atomic(sizeof(MuStr) + len + 1);
    s->len = len;
    if (bytes)
        memcpy(s->bytes, bytes, len);
    s->bytes[len] = '\0';
    return s;
}

static void as_frac(Value v, wide *num, wide *den)
{
    if (v.tag == VAL_RAT) {
        *num = v.as.q.num;
        *den = v.as.q.den;
    } else {
        *num = v.as.i;
        *den = 1;
    }
}

const char *val_add(Value a, Value b, Value *out)
{
    if (a.tag == VAL_INT && b.tag == VAL_INT) {
        int64_t r;
        if (__builtin_add_overflow(a.as.i, b.as.i, &r))
            return OVERFLOW;
        *out = val_int(r);
        return NULL;
    }
    wide an, ad, bn, bd;
    as_frac(a, &an, &ad);
    as_frac(b, &bn, &bd);
    /* each term fits in 127 bits: |n|,|d| < 2^63 */
    return rat_from_wide(an * bd + bn * ad, ad * bd, out) ? NULL : OVERFLOW;
}

const char *val_sub(Value a, Value b, Value *out)
{
    if (a.tag == VAL_INT && b.tag == VAL_INT) {
        int64_t r;
        if (__builtin_sub_overflow(a.as.i, b.as.i, &r))
            return OVERFLOW;
        *out = val_int(r);
        return NULL;
    }
    wide an, ad, bn, bd;
    as_frac(a, &an, &ad);
    as_frac(b, &bn, &bd);
    return rat_from_wide(an * bd - bn * ad, ad * bd, out) ? NULL : OVERFLOW;
}

const char *val_mul(Value a, Value b, Value *out)
{
    if (a.tag == VAL_INT && b.tag == VAL_INT) {
        int64_t r;
        if (__builtin_mul_overflow(a.as.i, b.as.i, &r))
            return OVERFLOW;
        *out = val_int(r);
        return NULL;
    }
    wide an, ad, bn, bd;
    as_frac(a, &an, &ad);
    as_frac(b, &bn, &bd);
    /* cross-reduce first so the products stay within 127 bits */
    wide g1 = wide_gcd(an, bd), g2 = wide_gcd(bn, ad);
    if (g1 > 1) { an /= g1; bd /= g1; }
    if (g2 > 1) { bn /= g2; ad /= g2; }
    return rat_from_wide(an * bn, ad * bd, out) ? NULL : OVERFLOW;
}

const char *val_div(Value a, Value b, Value *out)
{
    if (a.tag == VAL_INT && b.tag == VAL_INT && b.as.i > 0 && a.as.i > INT64_MIN)
        return rat_from_wide(a.as.i, b.as.i, out) ? NULL : OVERFLOW;
    wide an, ad, bn, bd;
    as_frac(a, &an, &ad);
    as_frac(b, &bn, &bd);
    if (bn == 0)
        return DIVZERO;
    wide g1 = wide_gcd(an, bn), g2 = wide_gcd(ad, bd);
    if (g1 > 1) { an /= g1; bn /= g1; }
    if (g2 > 1) { ad /= g2; bd /= g2; }
    return rat_from_wide(an * bd, ad * bn, out) ? NULL : OVERFLOW;
}

const char *val_mod(Value a, Value b, Value *out)
{
    if (b.as.i == 0)
        return DIVZERO;
    if (a.as.i == INT64_MIN && b.as.i == -1) {
        *out = val_int(0);
        return NULL;
    }
    int64_t r = a.as.i % b.as.i;
    if (r != 0 && ((r < 0) != (b.as.i < 0)))
        r += b.as.i;
    *out = val_int(r);
    return NULL;
}

const char *val_neg(Value a, Value *out)
{
    if (a.tag == VAL_INT) {
        if (a.as.i == INT64_MIN)
            return OVERFLOW;
        *out = val_int(-a.as.i);
        return NULL;
    }
    return rat_from_wide(-(wide)a.as.q.num, a.as.q.den, out) ? NULL : OVERFLOW;
}

/* floor of num/den for den > 0 */
static int64_t floor_div(int64_t num, int64_t den)
{
    int64_t q = num / den;
    if ((num % den != 0) && (num < 0))
        q--;
    return q;
}

const char *val_floor(Value a, Value *out)
{
    *out = a.tag == VAL_INT ? a : val_int(floor_div(a.as.q.num, a.as.q.den));
    return NULL;
}

const char *val_ceil(Value a, Value *out)
{
    if (a.tag == VAL_INT) {
        *out = a;
        return NULL;
    }
    /* ceil(n/d) = -floor(-n/d); -n cannot overflow since d > 1 implies n != INT64_MIN or reducible */
    wide n = a.as.q.num, d = a.as.q.den;
    wide q = n / d;
    if (n % d != 0 && n > 0)
        q++;
    *out = val_int((int64_t)q);
    return NULL;
}

const char *val_round(Value a, Value *out)
{
    if (a.tag == VAL_INT) {
        *out = a;
        return NULL;
    }
    /* nearest integer, halves away from zero: sign * floor((2|n| + d) / 2d) */
    wide n = a.as.q.num, d = a.as.q.den;
    wide m = n < 0 ? -n : n;
    wide r = (2 * m + d) / (2 * d);
    *out = val_int((int64_t)(n < 0 ? -r : r));
    return NULL;
}

const char *val_idiv(Value a, Value b, DivMode mode, Value *out)
{
    int64_t q;
    if (a.tag == VAL_INT && b.tag == VAL_INT && val_idiv_fast(a.as.i, b.as.i, mode, &q)) {
        *out = val_int(q);
        return NULL;
    }
    Value r;
    const char *e = val_div(a, b, &r);
    if (e)
        return e;
    return mode == DIV_FLOOR ? val_floor(r, out) : mode == DIV_CEIL ? val_ceil(r, out) : val_round(r, out);
}

const char *val_abs(Value a, Value *out)
{
    if (a.tag == VAL_INT ? a.as.i < 0 : a.as.q.num < 0)
        return val_neg(a, out);
    *out = a;
    return NULL;
}

int val_num_cmp(Value a, Value b)
{
    if (a.tag == VAL_INT && b.tag == VAL_INT)
        return (a.as.i > b.as.i) - (a.as.i < b.as.i);
    wide an, ad, bn, bd;
    as_frac(a, &an, &ad);
    as_frac(b, &bn, &bd);
    wide l = an * bd, r = bn * ad;
    return (l > r) - (l < r);
}

static bool is_num(Value v) { return v.tag == VAL_INT || v.tag == VAL_RAT; }

bool val_equal(Value a, Value b)
{
    if (is_num(a) && is_num(b))
        return val_num_cmp(a, b) == 0;
    return val_order(a, b) == 0;
}

static int tag_rank(ValTag t)
{
    switch (t) {
    case VAL_INT: case VAL_RAT: return 0;
    case VAL_BOOL: return 1;
    case VAL_ENUM: return 2;
    case VAL_STR: return 3;
    case VAL_POOL: return 4;
    case VAL_RECORD: return 5;
    case VAL_UNKNOWN: return 6;
    case VAL_DIST: return 7;
    }
    return 8;
}

int val_order(Value a, Value b)
{
    int ra = tag_rank(a.tag), rb = tag_rank(b.tag);
    if (ra != rb)
        return ra < rb ? -1 : 1;
    switch (a.tag) {
    case VAL_INT: case VAL_RAT:
        return val_num_cmp(a, b);
    case VAL_BOOL:
        return (int)a.as.b - (int)b.as.b;
    case VAL_ENUM:
        if (a.enum_id != b.enum_id)
            return a.enum_id < b.enum_id ? -1 : 1;
        return (a.as.i > b.as.i) - (a.as.i < b.as.i);
    case VAL_STR: {
        size_t n = a.as.s->len < b.as.s->len ? a.as.s->len : b.as.s->len;
        int c = memcmp(a.as.s->bytes, b.as.s->bytes, n);
        if (c)
            return c;
        return (a.as.s->len > b.as.s->len) - (a.as.s->len < b.as.s->len);
    }
    case VAL_POOL: {
        const Pool *p = pool_order(pool_plain(a.as.p)), *q = pool_order(pool_plain(b.as.p));
        if (p->n != q->n)
            return p->n < q->n ? -1 : 1;
        for (int64_t i = 0; i < p->n; i++)
            if (p->face[i] != q->face[i])
                return p->face[i] < q->face[i] ? -1 : 1;
        return 0;
    }
    case VAL_RECORD: {
        const Record *p = a.as.r, *q = b.as.r;
        if (p->type != q->type)
            return p->type < q->type ? -1 : 1;
        for (int32_t i = 0; i < p->n && i < q->n; i++) {
            int c = val_order(p->field[i], q->field[i]);
            if (c)
                return c;
        }
        return 0;
    }
    case VAL_UNKNOWN:
        /* the same '?' met with the same keys is the same unknown */
        if (a.enum_id != b.enum_id)
            return a.enum_id < b.enum_id ? -1 : 1;
        return (a.as.i > b.as.i) - (a.as.i < b.as.i);
    case VAL_DIST:
        /* (the engine's own: the same distribution is the same object) */
        return (a.as.dist > b.as.dist) - (a.as.dist < b.as.dist);
    }
    return 0;
}

const Value *val_find_unknown_in_record(const Value *v)
{
    for (int32_t i = 0; i < v->as.r->n; i++) {
        const Value *u = val_find_unknown(&v->as.r->field[i]);
        if (u)
            return u;
    }
    return NULL;
}

/* One word more into a hash, cheaply (FxHash's step: a rotation and a
 * multiplication); val_hash_any mixes the whole once at the end. */
static inline uint64_t hash_word(uint64_t h, uint64_t w)
{
    return (((h << 5) | (h >> 59)) ^ w) * 0x517cc1b727220a95ULL;
}

/* A value's tag and enum in one word. */
static inline uint64_t tag_word(const Value *v)
{
    return (uint64_t)v->tag | (uint64_t)(uint32_t)v->enum_id << 8;
}

static uint64_t hash_value(uint64_t h, const Value *v)
{
    h = hash_word(h, tag_word(v));
    switch (v->tag) {
    case VAL_INT: case VAL_ENUM: case VAL_UNKNOWN:   /* (an unknown: its '?' in enum_id, its key here) */
        return hash_word(h, (uint64_t)v->as.i);
    case VAL_DIST:
        return hash_word(h, (uint64_t)(uintptr_t)v->as.dist);
    case VAL_BOOL:
        return hash_word(h, v->as.b);
    case VAL_RAT:
        return hash_word(hash_word(h, (uint64_t)v->as.q.num), (uint64_t)v->as.q.den);
    case VAL_STR:
        for (size_t i = 0; i < v->as.s->len; i++)
            h = hash_word(h, (unsigned char)v->as.s->bytes[i]);
        return h;
    case VAL_POOL: {
        const Pool *p = pool_order(pool_plain(v->as.p));
        h = hash_word(h, (uint64_t)p->n);
        for (int64_t i = 0; i < p->n; i++)
            h = hash_word(h, (uint64_t)p->face[i]);
        return h;
    }
    case VAL_RECORD:
        return hash_word(h, val_hash(v));   /* (its fields: see value.h) */
    }
    return h;
}

uint64_t val_hash_any(const Value *v)
{
    if (v->tag == VAL_RECORD)
        return val_hash(v);
    /* splitmix64's finalizer: every bit of the words moves every bit of the hash */
    uint64_t z = hash_value(0, v);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

bool val_identical_any(const Value *a, const Value *b)
{
    if (a->tag != b->tag || a->enum_id != b->enum_id)
        return false;
    switch (a->tag) {
    case VAL_INT: case VAL_ENUM: case VAL_UNKNOWN:
        return a->as.i == b->as.i;
    case VAL_DIST:
        return a->as.dist == b->as.dist;
    case VAL_BOOL:
        return a->as.b == b->as.b;
    case VAL_RAT:
        return a->as.q.num == b->as.q.num && a->as.q.den == b->as.q.den;
    case VAL_STR:
        return a->as.s->len == b->as.s->len && memcmp(a->as.s->bytes, b->as.s->bytes, a->as.s->len) == 0;
    case VAL_POOL:
        return val_order(*a, *b) == 0;
    case VAL_RECORD:
        return val_identical(a, b);   /* (its fields: see value.h) */
    }
    return false;
}

/* A pool as [1, 3, 5]; a pool of symbol dice as [hit, hit, blank] (JSON:
 * ["hit", "hit", "blank"]). */
static void print_pool(FILE *out, const Pool *p, const Program *prog, bool json)
{
    const Pool *lazy = p;
    p = pool_order(pool_plain(p));
    int symbols = p->symbols ? p->symbols : lazy->symbols;
    const EnumDesc *e = symbols && prog && symbols - 1 < prog->nenums ? &prog->enums[symbols - 1] : NULL;
    fputc('[', out);
    for (int64_t i = 0; i < p->n; i++) {
        if (i)
            fputs(", ", out);
        if (e && p->face[i] >= 0 && p->face[i] < e->nmembers)
            fprintf(out, json ? "\"%s\"" : "%s", e->members[p->face[i]]);
        else
            fprintf(out, "%d", (int)p->face[i]);
    }
    fputc(']', out);
}

static const char *enum_member(Value v, const Program *prog)
{
    if (prog && v.enum_id >= 0 && v.enum_id < prog->nenums && v.as.i >= 0
        && v.as.i < prog->enums[v.enum_id].nmembers)
        return prog->enums[v.enum_id].members[v.as.i];
    return "?";
}

static const RecordDesc *record_desc(const Record *r, const Program *prog)
{
    if (prog && r->type >= 0 && r->type < prog->nrecords && prog->records[r->type].nfields == r->n)
        return &prog->records[r->type];
    return NULL;
}

void val_print(FILE *out, Value v, const Program *prog)
{
    switch (v.tag) {
    case VAL_INT: fprintf(out, "%lld", (long long)v.as.i); break;
    case VAL_RAT:
        if (v.as.q.den == 1)
            fprintf(out, "%lld", (long long)v.as.q.num);
        else
            fprintf(out, "%lld/%lld", (long long)v.as.q.num, (long long)v.as.q.den);
        break;
    case VAL_BOOL: fputs(v.as.b ? "true" : "false", out); break;
    case VAL_ENUM: fputs(enum_member(v, prog), out); break;
    case VAL_STR: val_json_string(out, v.as.s->bytes, v.as.s->len); break;
    case VAL_POOL: print_pool(out, v.as.p, prog, false); break;
    case VAL_RECORD: {
        const RecordDesc *d = record_desc(v.as.r, prog);
        fprintf(out, "%s(", d ? d->name : "record");
        for (int32_t i = 0; i < v.as.r->n; i++) {
            if (d)
                fprintf(out, "%s%s: ", i ? ", " : "", d->fields[i]);
            else if (i)
                fputs(", ", out);
            val_print(out, v.as.r->field[i], prog);
        }
        fputc(')', out);
        break;
    }
    case VAL_UNKNOWN: fputc('?', out); break;
    case VAL_DIST: fputs("(an int not chosen yet)", out); break;
    }
}

/* The length of the well-formed UTF-8 sequence at s (of len bytes), or 0. */
static int utf8_sequence(const char *str, size_t len)
{
    const unsigned char *s = (const unsigned char *)str;
    unsigned char c = s[0];
    int n = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (!n || len < (size_t)n)
        return 0;
    for (int k = 1; k < n; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 0;
    if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F) || (c == 0xF0 && s[1] < 0x90)
        || (c == 0xF4 && s[1] > 0x8F))
        return 0;
    return n;
}

void val_json_string(FILE *out, const char *s, size_t len)
{
    fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\t': fputs("\\t", out); break;
        case '\r': fputs("\\r", out); break;
        default:
            if (c < 0x20 || c == 0x7f) {
                fprintf(out, "\\u%04x", c);
            } else if (c < 0x80) {
                fputc(c, out);
            } else {
                /* UTF-8 as it is, but for C1 control characters (escaped)
                 * and bytes that are not UTF-8 (an argument can hold any):
                 * U+FFFD, so the JSON stays valid */
                int n = utf8_sequence(s + i, len - i);
                if (n == 2 && c == 0xC2 && (unsigned char)s[i + 1] <= 0x9F)
                    fprintf(out, "\\u%04x", (unsigned char)s[i + 1]);
                else if (n)
                    fwrite(s + i, 1, (size_t)n, out);
                else
                    fputs("\\ufffd", out);
                i += n ? (size_t)n - 1 : 0;
            }
        }
    }
    fputc('"', out);
}

void val_print_json(FILE *out, Value v, const Program *prog)
{
    switch (v.tag) {
    case VAL_RAT:
        if (v.as.q.den != 1) {
            fprintf(out, "\"%lld/%lld\"", (long long)v.as.q.num, (long long)v.as.q.den);
            break;
        }
        /* fall through */
    case VAL_INT: case VAL_BOOL:
        val_print(out, v, prog);
        break;
    case VAL_POOL:
        print_pool(out, v.as.p, prog, true);
        break;
    case VAL_ENUM: {
        const char *m = enum_member(v, prog);
        val_json_string(out, m, strlen(m));
        break;
    }
    case VAL_RECORD: {
        const RecordDesc *d = record_desc(v.as.r, prog);
        fputc('{', out);
        for (int32_t i = 0; i < v.as.r->n; i++) {
            char name[32];
            snprintf(name, sizeof name, "%d", (int)i);
            const char *f = d ? d->fields[i] : name;
            fputs(i ? ", " : "", out);
            val_json_string(out, f, strlen(f));
            fputs(": ", out);
            val_print_json(out, v.as.r->field[i], prog);
        }
        fputc('}', out);
        break;
    }
    case VAL_STR: val_json_string(out, v.as.s->bytes, v.as.s->len); break;
    case VAL_UNKNOWN: case VAL_DIST: fputs("null", out); break;
    }
}
