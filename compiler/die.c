/* die.c — `die` declarations and the rolls of their dice.
 *
 * A die declaration lists a die's faces as the rules text describes the
 * die: numbers (`2, 3, 3, 4, 4, 5`, a run `0..9`) or members of one enum
 * (`3 hit, crit, 2 focus, 2 blank`).  The program keeps the faces' values
 * in ascending order (a symbol's value is its member's index), which is all
 * that rolling needs, and the faces as written, for the sheet.
 *
 * A roll of such dice compiles to ROLL_DIE (one die: an int, or a member of
 * the faces' enum) or ROLL_DIE_POOL (a count of them: a pool).  A pool of
 * symbol dice has the type `pool of E`; comparing it with a member of E
 * compares the members' indexes (a constant index, or ORD of a value), and
 * its highest or lowest die is turned back into a member (MEMBER).
 */
#include "config.h"
#include "compiler/internal.h"
#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

int comp_find_die(const Compiler *c, const char *name)
{
    return names_get(&c->die_names, name);
}

/* The enum and member of a symbol face, or false after an error. */
static bool face_member(Compiler *c, const DieFace *f, int *enum_id, int *member)
{
    if (f->enum_name) {
        *enum_id = comp_find_enum(c, f->enum_name);
        if (*enum_id < 0) {
            comp_error(c, f->span, "unknown enum '%s'", f->enum_name);
            return false;
        }
    } else {
        *enum_id = names_get(&c->member_names, f->name);
        if (*enum_id >= 0 && names_get(&c->member_shared, f->name) >= 0) {
            comp_error(c, f->name_span, "'%s' is a member of more than one enum; write it as %s.%s (or another enum's name)",
                       f->name, c->prog->enums[*enum_id].name, f->name);
            return false;
        }
        if (*enum_id < 0) {
            const char *near = NULL;
            for (int e = 0; e < c->prog->nenums && !near; e++)
                near = compiler_closest(f->name, c->prog->enums[e].members, c->prog->enums[e].nmembers);
            if (near)
                comp_error(c, f->name_span, "unknown face '%s'; did you mean '%s'?", f->name, near);
            else
                comp_error(c, f->name_span, "unknown face '%s': a face is a number or a member of an enum "
                           "(declare the symbols first, as in 'enum Face { hit, blank }')", f->name);
            return false;
        }
    }
    *member = comp_find_member(c, *enum_id, f->name);
    if (*member < 0) {
        comp_error(c, f->name_span, "%s has no member '%s'", c->prog->enums[*enum_id].name, f->name);
        return false;
    }
    return true;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The faces of a die, or the items of a bag, as written: each value with
 * how many show it.  False after an error. */
typedef struct Item {
    int32_t value;
    int64_t count;
} Item;

#define BAG_MAX_ITEMS 100000

static bool read_items(Compiler *c, const Decl *d, bool bag, Item *items, int *nitems, int *symbols_out)
{
    const char *face = bag ? "item" : "face", *what = bag ? "bag" : "die";
    int n = 0, symbols = 0;
    int64_t total = 0;
    bool ok = true, numbers = false, over = false;
    for (int i = 0; i < d->as.die.n; i++) {
        const DieFace *f = &d->as.die.items[i];
        int64_t lo, hi;
        if (f->symbol) {
            int e, m;
            if (!face_member(c, f, &e, &m)) {
                ok = false;
                continue;
            }
            if (numbers || (symbols && symbols != e + 1)) {
                comp_error(c, f->span, "the %ss of a %s are all numbers or all members of one enum: "
                           "'%s' is a member of %s, where the %ss before are %s%s", face, what, f->name,
                           c->prog->enums[e].name, face, numbers ? "numbers" : "members of ",
                           numbers ? "" : c->prog->enums[symbols - 1].name);
                ok = false;
                continue;
            }
            symbols = e + 1;
            if (f->count < 1) {
                comp_error(c, f->count_span, bag ? "a bag holds 1 or more of an item, not %lld"
                                                 : "a face is on 1 or more faces of a die, not %lld",
                           (long long)f->count);
                ok = false;
                continue;
            }
            lo = hi = m;
        } else {
            if (symbols) {
                comp_error(c, f->span, "the %ss of a %s are all numbers or all members of one enum: "
                           "this one is a number, where the %ss before are members of %s", face, what, face,
                           c->prog->enums[symbols - 1].name);
                ok = false;
                continue;
            }
            numbers = true;
            lo = f->value;
            hi = f->last;
            if (hi < lo) {
                comp_error(c, f->span, "a run of %ss goes up: write %lld..%lld", face, (long long)hi, (long long)lo);
                ok = false;
                continue;
            }
            if (lo < -DIE_MAX_VALUE || hi > DIE_MAX_VALUE) {
                comp_error(c, f->span, "a %s shows at most %d (and at least -%d)", face, DIE_MAX_VALUE, DIE_MAX_VALUE);
                ok = false;
                continue;
            }
        }
        int64_t entries = f->symbol ? 1 : hi - lo + 1, each = f->symbol ? f->count : 1;
        int64_t limit = bag ? BAG_MAX_ITEMS : DIE_MAX_FACES;
        if (!over && (n + entries > DIE_MAX_FACES || total + entries * each > limit)) {
            if (bag && n + entries > DIE_MAX_FACES)
                comp_error(c, f->span, "a bag holds at most %d kinds of item; '%s' has more", DIE_MAX_FACES, d->name);
            else
                comp_error(c, f->span, "a %s has at most %lld %ss; '%s' has more", what, (long long)limit, face,
                           d->name);
            over = true;
        }
        if (over) {
            ok = false;
            continue;
        }
        for (int64_t k = 0; k < entries; k++)
            items[n++] = (Item){ (int32_t)(lo + k), each };
        total += entries * each;
    }
    if (d->as.die.n == 0) {
        comp_error(c, d->name_span, bag ? "bag '%s' holds nothing: list its items, as in 'bag %s { 3 red, 2 blue }'"
                                        : "die '%s' has no faces: list them, as in 'die %s { 1, 2, 3 }'",
                   d->name, d->name);
        ok = false;
    }
    if (!ok) {
        /* (declared all the same, with one face, so that its uses are not errors too) */
        n = 1;
        items[0] = (Item){ 0, 1 };
    }
    *nitems = n;
    *symbols_out = symbols;
    return ok;
}

static bool declared_twice(Compiler *c, const Decl *d)
{
    if (comp_find_die(c, d->name) >= 0 || comp_find_bag(c, d->name) >= 0) {
        comp_error(c, d->name_span, "'%s' is declared twice", d->name);
        return true;
    }
    return comp_name_taken(c, d->name, d->name_span);
}

static void *grow_array(void *items, int n, int *cap, size_t size)
{
    if (n < *cap)
        return items;
    int was = *cap;
    *cap = was ? 2 * was : 8;
    return mem_realloc(items, size * (size_t)was, size * (size_t)*cap, 0);
}

void comp_declare_die(Compiler *c, const Decl *d)
{
    if (declared_twice(c, d))
        return;
    Item items[DIE_MAX_FACES];
    int n, symbols;
    read_items(c, d, false, items, &n, &symbols);
    int32_t values[DIE_MAX_FACES];
    int faces = 0;
    for (int i = 0; i < n; i++)
        for (int64_t k = 0; k < items[i].count; k++)
            values[faces++] = items[i].value;
    Program *prog = c->prog;
    prog->dies = grow_array(prog->dies, prog->ndies, &prog->dies_cap, sizeof(DieDesc));
    int32_t *written = mem_alloc_atomic(sizeof(int32_t) * (size_t)faces);
    int32_t *sorted = mem_alloc_atomic(sizeof(int32_t) * (size_t)faces);
    memcpy(written, values, sizeof(int32_t) * (size_t)faces);
    memcpy(sorted, values, sizeof(int32_t) * (size_t)faces);
    qsort(sorted, (size_t)faces, sizeof(int32_t), cmp_i32);
    int id = prog->ndies++;
    const EnumDesc *en = symbols ? &prog->enums[symbols - 1] : NULL;
    prog->dies[id] = (DieDesc){ .die = { d->name, faces, sorted, en ? en->members : NULL, en ? en->nmembers : 0 },
                                .symbols = symbols, .text = d->as.die.text, .written = written };
    names_put(&c->die_names, d->name, id);
}

int comp_find_bag(const Compiler *c, const char *name)
{
    return names_get(&c->bag_names, name);
}

void comp_declare_bag(Compiler *c, const Decl *d)
{
    if (declared_twice(c, d))
        return;
    Item items[DIE_MAX_FACES];
    int n, symbols;
    read_items(c, d, true, items, &n, &symbols);
    /* its kinds: the values in ascending order, with how many of each */
    int32_t *value = mem_alloc_atomic(sizeof(int32_t) * (size_t)n);
    int64_t *count = mem_alloc_atomic(sizeof(int64_t) * (size_t)n);
    int32_t *wvalue = mem_alloc_atomic(sizeof(int32_t) * (size_t)n);
    int64_t *wcount = mem_alloc_atomic(sizeof(int64_t) * (size_t)n);
    int kinds = 0;
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        wvalue[i] = items[i].value;
        wcount[i] = items[i].count;
        total += items[i].count;
        int k = 0;
        while (k < kinds && value[k] < items[i].value)
            k++;
        if (k < kinds && value[k] == items[i].value) {
            count[k] += items[i].count;
            continue;
        }
        memmove(value + k + 1, value + k, sizeof(int32_t) * (size_t)(kinds - k));
        memmove(count + k + 1, count + k, sizeof(int64_t) * (size_t)(kinds - k));
        value[k] = items[i].value;
        count[k] = items[i].count;
        kinds++;
    }
    Program *prog = c->prog;
    prog->bags = grow_array(prog->bags, prog->nbags, &prog->bags_cap, sizeof(BagDesc));
    int id = prog->nbags++;
    const EnumDesc *en = symbols ? &prog->enums[symbols - 1] : NULL;
    prog->bags[id] = (BagDesc){ .kinds = { d->name, kinds, value, en ? en->members : NULL, en ? en->nmembers : 0 },
                                .count = count, .total = total, .symbols = symbols, .text = d->as.die.text,
                                .written_value = wvalue, .written_count = wcount, .nwritten = n,
                                .base = (int32_t)prog->bag_items };
    prog->bag_items += kinds;
    names_put(&c->bag_names, d->name, id);
}

/* A roll or draw of a name that is no die (no bag): the nearest die's
 * (bag's) name, if one is near, or how one is declared. */
static void unknown_name(Compiler *c, const Expr *e, bool bag)
{
    const char *name = e->as.roll.die;
    int n = bag ? c->prog->nbags : c->prog->ndies;
    const char **names = mem_alloc(sizeof(char *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        names[i] = bag ? c->prog->bags[i].kinds.name : c->prog->dies[i].die.name;
    const char *near = compiler_closest(name, names, n);
    if (near)
        comp_error(c, e->as.roll.die_span, "unknown %s '%s'; did you mean '%s'?", bag ? "bag" : "die", name, near);
    else if (bag)
        comp_error(c, e->as.roll.die_span, "unknown bag '%s' (a bag is declared with 'bag %s { ... }')", name, name);
    else
        comp_error(c, e->as.roll.die_span, "unknown die '%s' (dice are d6, d(n), or declared with 'die %s { ... }')",
                   name, name);
}

/* The die a roll names, or -1 after an error that says what the name is. */
static int roll_die_of(Compiler *c, const Expr *e)
{
    const char *name = e->as.roll.die;
    int id = comp_find_die(c, name);
    if (id >= 0)
        return id;
    if (comp_find_local(c, name))
        comp_error(c, e->as.roll.die_span, "'%s' is a local, not a die: 'roll N NAME' rolls N dice of a 'die' "
                   "declaration, and a count stands before the die, as in 'roll %s d6' or 'roll 3 Battle'",
                   name, name);
    else if (comp_find_enum(c, name) >= 0)
        comp_error(c, e->as.roll.die_span, "'%s' is an enum, not a die; a die of its members is declared "
                   "with 'die NAME { ... }'", name);
    else if (comp_find_proc(c, name))
        comp_error(c, e->as.roll.die_span, "'%s' is a procedure, not a die", name);
    else
        unknown_name(c, e, false);
    return -1;
}

Type comp_roll_die(Compiler *c, const Expr *e, bool pool)
{
    if (pool && e->as.roll.count) {
        Type t = comp_expr(c, e->as.roll.count, T_INT);
        if (t.kind != TY_INT && !is_err(t))
            comp_error(c, e->as.roll.count->span, "the number of dice must be an int, not %s%s",
                       comp_type_name(c, t), t.kind == TY_RAT ? " (round it with floor, ceil or round)" : "");
    } else if (pool) {
        comp_emit_const(c, val_int(1), e->span);
    }
    int id = roll_die_of(c, e);
    if (id < 0) {
        if (!pool)
            comp_emit_const(c, val_int(0), e->span);   /* (the expression's place on the stack) */
        return T_ERR;
    }
    const DieDesc *dd = &c->prog->dies[id];
    comp_emit_op(c, pool ? OP_ROLL_DIE_POOL : OP_ROLL_DIE, e->span);
    comp_emit_u16(c, (unsigned)id, e->span);
    if (pool)
        return (Type){ TY_POOL, dd->symbols };
    return dd->symbols ? (Type){ TY_ENUM, dd->symbols - 1 } : T_INT;
}

Type comp_draw(Compiler *c, const Expr *e)
{
    bool pool = e->as.roll.count != NULL;
    if (pool) {
        Type t = comp_expr(c, e->as.roll.count, T_INT);
        if (t.kind != TY_INT && !is_err(t))
            comp_error(c, e->as.roll.count->span, "the number of items to draw must be an int, not %s%s",
                       comp_type_name(c, t), t.kind == TY_RAT ? " (round it with floor, ceil or round)" : "");
    }
    const char *name = e->as.roll.die;
    int id = comp_find_bag(c, name);
    if (id < 0) {
        if (comp_find_die(c, name) >= 0)
            comp_error(c, e->as.roll.die_span, "'%s' is a die: roll it ('roll %s'); 'draw' takes from a bag", name,
                       name);
        else
            unknown_name(c, e, true);
        if (!pool)
            comp_emit_const(c, val_int(0), e->span);   /* (the expression's place on the stack) */
        return T_ERR;
    }
    const BagDesc *bg = &c->prog->bags[id];
    const Expr *n = e->as.roll.count;
    if (n && n->kind == EX_INT && (n->as.i > bg->total || n->as.i < 0))
        comp_error(c, n->span, "%s holds %lld item%s; it cannot give %lld", name, (long long)bg->total,
                   bg->total == 1 ? "" : "s", (long long)n->as.i);
    comp_emit_op(c, pool ? OP_DRAW_POOL : OP_DRAW, e->span);
    comp_emit_u16(c, (unsigned)id, e->span);
    if (pool)
        return (Type){ TY_POOL, bg->symbols };
    return bg->symbols ? (Type){ TY_ENUM, bg->symbols - 1 } : T_INT;
}
