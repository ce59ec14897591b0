/* compiler.c — name resolution, type checking and code generation, done
 * together in one walk over the syntax tree (there is no separate pass for
 * each).
 *
 * Here are expressions, statements, built-in functions, calls, procedures,
 * enum and record declarations, and compiler_compile, which drives the
 * whole compile in order: types first (so declarations may use each other
 * in any order), then every callable's signature, the defaults, the bodies,
 * then examples, turn sequences and the ruleset header; with no error, the
 * peephole pass and chunk_mark_pure run over the finished program.  Tables
 * and bands are built in tables.c, modifier lists and the rest in rules.c.
 */
#include "config.h"
#include "compiler/internal.h"
#include "compiler/peephole.h"
#include "base/mem.h"
#include "vm/opcodes.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- diagnostics ---- */

__attribute__((format(printf, 3, 4)))
void comp_error(Compiler *c, Span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(c->diag, DIAG_ERROR, c->src, at, fmt, ap);
    va_end(ap);
}

__attribute__((format(printf, 3, 4)))
void comp_warning(Compiler *c, Span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(c->diag, DIAG_WARNING, c->src, at, fmt, ap);
    va_end(ap);
}

void comp_note(Compiler *c, Span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(c->diag, DIAG_NOTE, c->src, at, fmt, ap);
    va_end(ap);
}

/* ---- types ---- */

static void print_pool_of(FILE *out, const char *name)
{
    fprintf(out, "pool of %s", name);
}

const char *comp_type_name(const Compiler *c, Type t)
{
    switch (t.kind) {
    case TY_INT: return "int";
    case TY_RAT: return "rat";
    case TY_BOOL: return "bool";
    case TY_STR: return "str";
    case TY_POOL:
        return t.enum_id ? mem_printed((void (*)(FILE *, const void *))print_pool_of, c->prog->enums[t.enum_id - 1].name)
                         : "pool";
    case TY_ENUM: return c->prog->enums[t.enum_id].name;
    case TY_RECORD: return c->prog->records[t.enum_id].name;
    case TY_ERROR: break;
    }
    return "<error>";
}


int comp_find_enum(const Compiler *c, const char *name)
{
    return names_get(&c->enum_names, name);
}

int comp_find_member(const Compiler *c, int enum_id, const char *name)
{
    const EnumDesc *e = &c->prog->enums[enum_id];
    for (int i = 0; i < e->nmembers; i++)
        if (strcmp(e->members[i], name) == 0)
            return i;
    return -1;
}

ProcSig *comp_find_proc(Compiler *c, const char *name)
{
    int i = names_get(&c->proc_names, name);
    return i >= 0 ? &c->procs[i] : NULL;
}

bool comp_resolve_type(Compiler *c, TypeRef ref, Type *out)
{
    if (!strcmp(ref.name, COMPILER_INFERRED_TYPE)) {   /* no script can write a name with spaces */
        *out = T_INFER;
        return true;
    }
    if (ref.of) {
        int e = comp_find_enum(c, ref.of);
        if (strcmp(ref.name, "pool") != 0) {
            comp_error(c, ref.span, "only a pool is 'of' something: 'pool of %s'", ref.of);
        } else if (e < 0) {
            comp_error(c, ref.of_span, "unknown enum '%s' (a pool of symbol dice is 'pool of ENUM', "
                       "the enum of its faces)", ref.of);
        } else {
            *out = (Type){ TY_POOL, e + 1 };
            return true;
        }
        *out = T_ERR;
        return false;
    }
    static const struct { const char *name; TypeKind kind; } builtin[] = {
        { "int", TY_INT }, { "rat", TY_RAT }, { "bool", TY_BOOL }, { "str", TY_STR }, { "pool", TY_POOL },
    };
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
        if (strcmp(ref.name, builtin[i].name) == 0) {
            *out = (Type){ builtin[i].kind, 0 };
            return true;
        }
    int e = comp_find_enum(c, ref.name);
    if (e >= 0) {
        *out = (Type){ TY_ENUM, e };
        return true;
    }
    int r = names_get(&c->record_names, ref.name);
    if (r >= 0) {
        *out = (Type){ TY_RECORD, r };
        return true;
    }
    comp_error(c, ref.span, "unknown type '%s' (the types are int, rat, bool, str, pool and the enums and records the script declares)",
          ref.name);
    *out = T_ERR;
    return false;
}

/* ---- suggestions ---- */

static int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 32 || lb > 32)
        return 99;
    int d[33][33];
    for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            int del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
    return d[la][lb];
}

typedef struct Suggest {
    const char *target;
    const char *best;
    int dist;
} Suggest;

static void consider(Suggest *s, const char *name)
{
    int d = edit_distance(s->target, name);
    int limit = strlen(s->target) <= 3 ? 1 : 2;
    if (d <= limit && d < s->dist) {
        s->dist = d;
        s->best = name;
    }
}

const char *compiler_closest(const char *target, const char *const *names, int n)
{
    Suggest s = { target, NULL, 99 };
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], target))
            consider(&s, names[i]);
    return s.best;
}

/* The table of built-in functions is with the code that compiles their calls. */
typedef struct Builtin Builtin;
static const Builtin *find_builtin(const char *name);
static void consider_builtins(Suggest *s);

bool comp_is_builtin(const char *name)
{
    return find_builtin(name) != NULL;
}

static bool is_type_name(const char *name)
{
    return !strcmp(name, "int") || !strcmp(name, "rat") || !strcmp(name, "bool") || !strcmp(name, "str")
           || !strcmp(name, "pool");
}

static const char *suggest_name(Compiler *c, const char *name, bool values, bool calls)
{
    Suggest s = { name, NULL, 99 };
    if (values && c->fn)
        for (int i = 0; i < c->fn->nlocals; i++)
            consider(&s, c->fn->locals[i].name);
    if (values)
        for (int e = 0; e < c->prog->nenums; e++)
            for (int m = 0; m < c->prog->enums[e].nmembers; m++)
                consider(&s, c->prog->enums[e].members[m]);
    if (calls) {
        for (int i = 0; i < c->nprocs; i++)
            consider(&s, c->procs[i].name);
        consider_builtins(&s);
    }
    return s.best;
}

/* The value of a constant whole-number expression (numbers, '+', '-',
 * '*', and a decimal such as 0.0), without overflow; false if e is not one. */
static bool const_whole(const Expr *e, int64_t *out)
{
    int64_t a, b;
    switch (e->kind) {
    case EX_INT:
        *out = e->as.i;
        return true;
    case EX_UNARY:
        if (e->as.unary.op == OPR_NOT || !const_whole(e->as.unary.operand, &a))
            return false;
        if (e->as.unary.op == OPR_POS) {
            *out = a;
            return true;
        }
        return !__builtin_sub_overflow((int64_t)0, a, out);
    case EX_BINARY:
        if (!const_whole(e->as.binary.left, &a) || !const_whole(e->as.binary.right, &b))
            return false;
        switch (e->as.binary.op) {
        case OPR_ADD: return !__builtin_add_overflow(a, b, out);
        case OPR_SUB: return !__builtin_sub_overflow(a, b, out);
        case OPR_MUL: return !__builtin_mul_overflow(a, b, out);
        case OPR_DIV:
            if (b == 0 || a % b != 0 || (a == INT64_MIN && b == -1))
                return false;
            *out = a / b;
            return true;
        default: return false;
        }
    default:
        return false;
    }
}

/* ---- emitting ---- */

void comp_emit_byte(Compiler *c, uint8_t b, Span at)
{
    FnState *fn = c->fn;
    if (fn->proto->len >= MAX_CODE) {
        if (!fn->too_big)
            comp_error(c, fn->sig->span, "procedure '%s' is too long to compile (over %d bytes of code); split it up",
                  fn->sig->name, MAX_CODE);
        fn->too_big = true;
        return;
    }
    chunk_emit(fn->proto, b, comp_pos(c, at.begin));
}

void comp_adjust_stack(Compiler *c, int effect)
{
    FnState *fn = c->fn;
    fn->stack += effect;
    if (fn->stack > fn->max_stack)
        fn->max_stack = fn->stack;
}

void comp_emit_op(Compiler *c, OpCode op, Span at)
{
    comp_emit_byte(c, (uint8_t)op, at);
    comp_adjust_stack(c, op_info[op].stack_effect);
}

void comp_emit_u16(Compiler *c, unsigned v, Span at)
{
    comp_emit_byte(c, (uint8_t)(v & 0xff), at);
    comp_emit_byte(c, (uint8_t)(v >> 8), at);
}

void comp_emit_const(Compiler *c, Value v, Span at)
{
    if (c->fn->proto->nconsts >= MAX_CONSTS) {
        comp_error(c, at, "too many constants in one procedure");
        return;
    }
    comp_emit_op(c, OP_CONST, at);
    comp_emit_u16(c, (unsigned)chunk_const(c->fn->proto, v), at);
}

int comp_emit_jump(Compiler *c, OpCode op, Span at)
{
    comp_emit_op(c, op, at);
    int pos = c->fn->proto->len;
    comp_emit_u16(c, 0xffff, at);
    return pos;
}

void comp_patch_jump(Compiler *c, int pos)
{
    Proto *p = c->fn->proto;
    if (c->fn->too_big)
        return;
    int dist = p->len - (pos + 2);
    p->code[pos] = (uint8_t)(dist & 0xff);
    p->code[pos + 1] = (uint8_t)(dist >> 8);
}

/* ---- locals ---- */

Local *comp_find_local(Compiler *c, const char *name)
{
    FnState *fn = c->fn;
    if (!fn)
        return NULL;
    for (int i = fn->nlocals - 1; i >= 0; i--)
        if (strcmp(fn->locals[i].name, name) == 0)
            return &fn->locals[i];
    return NULL;
}

Local *comp_add_local(Compiler *c, const char *name, Span span, Type type, bool is_param)
{
    FnState *fn = c->fn;
    for (int i = fn->nlocals - 1; *name && i >= 0 && fn->locals[i].scope == fn->scope; i--)
        if (strcmp(fn->locals[i].name, name) == 0) {
            comp_error(c, span, "'%s' is already defined in this block", name);
            comp_note(c, fn->locals[i].span, "'%s' was defined here", name);
            return NULL;
        }
    if (fn->nlocals >= MAX_SLOTS || fn->next_slot >= MAX_SLOTS) {
        comp_error(c, span, "too many local names in one procedure (the limit is %d)", MAX_SLOTS);
        return NULL;
    }
    Local *l = &fn->locals[fn->nlocals++];
    *l = (Local){ name, span, type, fn->next_slot++, fn->scope, is_param, false };
    if (fn->next_slot > fn->max_slot)
        fn->max_slot = fn->next_slot;
    return l;
}

/* A hidden temporary slot (for reordering named arguments); its empty name
 * can never be looked up or clash. */
int comp_add_temp(Compiler *c, Span at)
{
    Local *l = comp_add_local(c, "", at, T_ERR, false);
    return l ? l->slot : 0;
}

void comp_begin_scope(Compiler *c) { c->fn->scope++; }


/* A name given with `let` and never read is probably a mistake. */
static void lint_unused(Compiler *c, const Local *l)
{
    if (l->used || l->is_param || !*l->name || c->diag->errors)
        return;
    Compiled *out = c->out;
    int cap = out->nlints;
    out->lints = ast_grow(out->lints, out->nlints, &cap, sizeof(Lint));
    char *msg = mem_alloc_atomic(strlen(l->name) + 64);
    sprintf(msg, "'%s' is never used", l->name);
    out->lints[out->nlints++] = (Lint){ c->src, l->span, msg };
}

void comp_end_scope(Compiler *c)
{
    FnState *fn = c->fn;
    while (fn->nlocals > 0 && fn->locals[fn->nlocals - 1].scope == fn->scope) {
        lint_unused(c, &fn->locals[fn->nlocals - 1]);
        fn->nlocals--;
        fn->next_slot--;
    }
    fn->scope--;
}

/* ---- expressions ---- */

Type comp_expr(Compiler *c, const Expr *e, Type hint);

static bool is_cmp(Operator op) { return op >= OPR_EQ && op <= OPR_GE; }

static CmpOp cmp_of(Operator op) { return (CmpOp)(op - OPR_EQ); }

static CmpOp cmp_flip(CmpOp op)
{
    switch (op) {
    case CMP_LT: return CMP_GT;
    case CMP_LE: return CMP_GE;
    case CMP_GT: return CMP_LT;
    case CMP_GE: return CMP_LE;
    default: return op;
    }
}

static const char *pool_hint = "count(p), sum(p), highest(p) or lowest(p) turn a pool into an int";

/* The enum type of a bare `Enum.member` or of a local, without compiling it;
 * lets `light == Armour.light` resolve its left side. */
static Type enum_of(Compiler *c, const Expr *e)
{
    if (e->kind == EX_MEMBER && e->as.member.object->kind == EX_NAME
        && !comp_find_local(c, e->as.member.object->as.name)) {
        int id = comp_find_enum(c, e->as.member.object->as.name);
        if (id >= 0)
            return (Type){ TY_ENUM, id };
    } else if (e->kind == EX_NAME) {
        Local *l = comp_find_local(c, e->as.name);
        if (l && l->type.kind == TY_ENUM)
            return l->type;
    }
    return T_NONE;
}

/* The value a pool's dice are compared with (the right side of `p >= 4`,
 * `p == hit`), compiled onto the stack: a number for dice of numbers; for
 * dice of symbols, a member of their enum, as its index (the dice hold
 * indexes): a constant index for a member written out, else ORD of the
 * value.  False after an error. */
static bool pool_operand(Compiler *c, Type pool, const Expr *r)
{
    if (!pool.enum_id) {
        Type rt = comp_expr(c, r, T_INT);
        if (is_err(rt))
            return false;
        if (!is_num(rt)) {
            comp_error(c, r->span, "a pool's dice are compared with a number, not %s", comp_type_name(c, rt));
            return false;
        }
        return true;
    }
    Type want = { TY_ENUM, pool.enum_id - 1 };
    int member = -1;
    if (r->kind == EX_NAME && !comp_find_local(c, r->as.name))
        member = comp_find_member(c, want.enum_id, r->as.name);
    else if (r->kind == EX_MEMBER && r->as.member.object->kind == EX_NAME
             && !comp_find_local(c, r->as.member.object->as.name)
             && comp_find_enum(c, r->as.member.object->as.name) == want.enum_id)
        member = comp_find_member(c, want.enum_id, r->as.member.member);
    if (member >= 0) {
        comp_emit_const(c, val_int(member), r->span);
        return true;
    }
    Type rt = comp_expr(c, r, want);
    if (is_err(rt))
        return false;
    if (!same(rt, want)) {
        comp_error(c, r->span, "these dice show members of %s; compare them with one (as in 'p == %s'), not %s",
                   comp_type_name(c, want), c->prog->enums[want.enum_id].members[0], comp_type_name(c, rt));
        return false;
    }
    comp_emit_op(c, OP_ORD, r->span);
    return true;
}

/* Does the code from pc on roll, draw or call a procedure (which may)? */
static bool code_may_roll(const Compiler *c, int from, int to)
{
    const uint8_t *code = c->fn->proto->code;
    for (int pc = from; pc < to; pc += chunk_insn_len(code, pc))
        if (op_is(code[pc], OPF_DICE) || code[pc] == OP_CALL)
            return true;
    return false;
}

/* After an operation that combines two values that both may come from the
 * dice: the exact engine may merge the runs that reach it with the same
 * result (and the same state), so independent parts added up are counted
 * as a convolution, each new part once per total so far.  The peephole
 * pass drops the MERGE when no dice come after it, or the calls roll none. */
static void merge_point(Compiler *c, const Expr *e, int left_at, int right_at)
{
    if (code_may_roll(c, left_at, right_at) && code_may_roll(c, right_at, c->fn->proto->len))
        comp_emit_op(c, OP_MERGE, e->as.binary.op_span);
}

static Type binary(Compiler *c, const Expr *e, Type hint)
{
    Operator op = e->as.binary.op;
    const Expr *l = e->as.binary.left, *r = e->as.binary.right;

    if (op == OPR_AND || op == OPR_OR) {
        Type lt = comp_expr(c, l, T_BOOL);
        if (!fits(T_BOOL, lt))
            comp_error(c, l->span, "'%s' needs bool operands, not %s", ast_operator_text[op], comp_type_name(c, lt));
        int j = comp_emit_jump(c, op == OPR_AND ? OP_AND_JUMP : OP_OR_JUMP, e->span);
        comp_adjust_stack(c, -1);   /* the operand is popped on the fall-through path */
        Type rt = comp_expr(c, r, T_BOOL);
        if (!fits(T_BOOL, rt))
            comp_error(c, r->span, "'%s' needs bool operands, not %s", ast_operator_text[op], comp_type_name(c, rt));
        comp_patch_jump(c, j);
        return T_BOOL;
    }

    int left_at = c->fn->proto->len;
    Type lt = comp_expr(c, l, is_cmp(op) ? enum_of(c, r) : hint);
    if (is_cmp(op) && lt.kind == TY_POOL) {
        /* a filter of the pool's dice */
        if (!pool_operand(c, lt, r)) {
            comp_emit_const(c, val_int(0), r->span);   /* (the operand's place) */
            comp_emit_op(c, OP_POP, e->span);
            return T_ERR;
        }
        comp_emit_op(c, OP_FILTER, e->as.binary.op_span);
        comp_emit_byte(c, (uint8_t)cmp_of(op), e->as.binary.op_span);
        return lt;
    }
    int right_at = c->fn->proto->len;
    Type rt = comp_expr(c, r, lt.kind == TY_ENUM ? lt : T_NONE);
    if (is_err(lt) || is_err(rt)) {
        comp_emit_op(c, OP_POP, e->span);
        return is_cmp(op) ? T_BOOL : T_ERR;
    }

    if (is_cmp(op)) {
        CmpOp cmp = cmp_of(op);
        if ((is_num(lt) || lt.kind == TY_ENUM) && rt.kind == TY_POOL) {
            comp_error(c, e->span, "write the pool first when filtering dice, as in 'p %s x'", cmp_op_text[cmp_flip(cmp)]);
            return T_ERR;
        }
        bool ok;
        if (is_num(lt) && is_num(rt))
            ok = true;
        else if (lt.kind == TY_ENUM && same(lt, rt))
            ok = true;   /* enums are ordered */
        else if ((lt.kind == TY_BOOL || lt.kind == TY_STR || lt.kind == TY_RECORD) && same(lt, rt))
            ok = cmp == CMP_EQ || cmp == CMP_NE;
        else
            ok = false;
        if (!ok) {
            if (lt.kind == TY_POOL || rt.kind == TY_POOL)
                comp_error(c, e->span, "cannot compare %s with %s (a pool compared with a number filters its dice)",
                      comp_type_name(c, lt), comp_type_name(c, rt));
            else if (same(lt, rt))
                comp_error(c, e->span, "%s values can only be compared with == and !=", comp_type_name(c, lt));
            else
                comp_error(c, e->span, "cannot compare %s with %s", comp_type_name(c, lt), comp_type_name(c, rt));
            return T_BOOL;
        }
        comp_emit_op(c, (OpCode)(OP_EQ + cmp), e->as.binary.op_span);
        return T_BOOL;
    }

    /* arithmetic */
    if (op == OPR_ADD && lt.kind == TY_STR && rt.kind == TY_STR) {
        comp_emit_op(c, OP_ADD, e->as.binary.op_span);
        return T_STR;
    }
    if (!is_num(lt) || !is_num(rt)) {
        Type bad = is_num(lt) ? rt : lt;
        comp_error(c, is_num(lt) ? r->span : l->span, "'%s' needs numbers, not %s%s%s", ast_operator_text[op],
              comp_type_name(c, bad), bad.kind == TY_POOL ? ": " : "", bad.kind == TY_POOL ? pool_hint : "");
        return T_ERR;
    }
    static const OpCode ops[] = { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD };
    if (op == OPR_MOD && (lt.kind != TY_INT || rt.kind != TY_INT)) {
        comp_error(c, e->span, "'%%' needs two ints (round a rational first with floor, ceil or round)");
        return T_ERR;
    }
    int64_t divisor;
    if ((op == OPR_DIV || op == OPR_MOD) && const_whole(r, &divisor) && divisor == 0)
        comp_error(c, r->span, "division by zero: the %s here is always 0, so every run would stop with an error",
                   op == OPR_DIV ? "divisor" : "divisor of '%'");
    comp_emit_op(c, ops[op - OPR_ADD], e->as.binary.op_span);
    merge_point(c, e, left_at, right_at);
    if (op == OPR_DIV)
        return T_RAT;
    return lt.kind == TY_RAT || rt.kind == TY_RAT ? T_RAT : T_INT;
}

static Type name_expr(Compiler *c, const Expr *e, Type hint)
{
    const char *name = e->as.name;
    Local *l = comp_find_local(c, name);
    if (l) {
        l->used = true;
        comp_emit_op(c, OP_LOAD, e->span);
        comp_emit_byte(c, (uint8_t)l->slot, e->span);
        return l->type;
    }
    if (hint.kind == TY_ENUM) {
        int m = comp_find_member(c, hint.enum_id, name);
        if (m >= 0) {
            comp_emit_const(c, val_enum(hint.enum_id, m), e->span);
            return hint;
        }
    }
    int found_enum = names_get(&c->member_names, name);
    int found_member = found_enum >= 0 ? comp_find_member(c, found_enum, name) : -1;
    int matches = found_enum < 0 ? 0 : names_get(&c->member_shared, name) >= 0 ? 2 : 1;
    if (matches == 1) {
        comp_emit_const(c, val_enum(found_enum, found_member), e->span);
        return (Type){ TY_ENUM, found_enum };
    }
    if (matches > 1) {
        comp_error(c, e->span, "'%s' is a member of more than one enum; write it as %s.%s (or another enum's name)",
              name, c->prog->enums[found_enum].name, name);
        return T_ERR;
    }
    const ProcSig *of = c->default_of;
    int param = -1;
    for (int i = 0; of && i < of->nparams; i++)
        if (!strcmp(of->pnames[i], name))
            param = i;
    if (param >= 0)
        comp_error(c, e->span, "the default of a parameter cannot use the other parameters of '%s' ('%s' is one): "
                   "a default is worked out on its own", of->name, name);
    else if (comp_find_proc(c, name))
        comp_error(c, e->span, "'%s' is a procedure; call it with %s(...)", name, name);
    else if (comp_find_enum(c, name) >= 0)
        comp_error(c, e->span, "'%s' is an enum type, not a value; name a member, as in %s.%s", name, name,
              c->prog->enums[comp_find_enum(c, name)].nmembers ? c->prog->enums[comp_find_enum(c, name)].members[0] : "x");
    else if (hint.kind == TY_ENUM) {
        const EnumDesc *en = &c->prog->enums[hint.enum_id];
        char list[256];
        size_t len = 0;
        list[0] = '\0';
        for (int i = 0; i < en->nmembers && len < sizeof list - 8; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", en->members[i]);
        comp_error(c, e->span, "unknown name '%s': %s has no such member (its members are %s)", name, en->name, list);
    } else {
        const char *s = suggest_name(c, name, true, false);
        if (s)
            comp_error(c, e->span, "unknown name '%s'; did you mean '%s'?", name, s);
        else
            comp_error(c, e->span, "unknown name '%s'", name);
    }
    return T_ERR;
}

/* x.m: a member of an enum (Enum.member), a field of a record, or a field
 * of an outcome. */
static Type member_expr(Compiler *c, const Expr *e)
{
    const Expr *obj = e->as.member.object;
    const char *m = e->as.member.member;
    if (obj->kind == EX_NAME && !comp_find_local(c, obj->as.name)) {
        int id = comp_find_enum(c, obj->as.name);
        if (id >= 0) {
            int k = comp_find_member(c, id, m);
            if (k < 0) {
                comp_error(c, e->as.member.member_span, "%s has no member '%s'", obj->as.name, m);
                return T_ERR;
            }
            comp_emit_const(c, val_enum(id, k), e->span);
            return (Type){ TY_ENUM, id };
        }
        if (names_get(&c->member_names, obj->as.name) < 0 && names_get(&c->record_names, obj->as.name) < 0) {
            /* probably a misspelt enum */
            Suggest sg = { obj->as.name, NULL, 99 };
            for (int i = 0; i < c->prog->nenums; i++)
                consider(&sg, c->prog->enums[i].name);
            for (int i = 0; c->fn && i < c->fn->nlocals; i++)
                consider(&sg, c->fn->locals[i].name);
            if (sg.best)
                comp_error(c, obj->span, "unknown name '%s'; did you mean '%s'?", obj->as.name, sg.best);
            else
                comp_error(c, obj->span, "unknown name '%s'", obj->as.name);
            return T_ERR;
        }
        if (names_get(&c->record_names, obj->as.name) >= 0) {
            comp_error(c, e->span, "'%s' is a record type; make one with %s(...) and read its fields from that",
                       obj->as.name, obj->as.name);
            return T_ERR;
        }
    }
    Type t = comp_expr(c, obj, T_NONE);
    if (is_err(t))
        return T_ERR;
    if (t.kind == TY_RECORD) {
        const RecordDesc *r = &c->prog->records[t.enum_id];
        for (int i = 0; i < r->nfields; i++)
            if (strcmp(r->fields[i], m) == 0) {
                comp_emit_op(c, OP_FIELD, e->as.member.member_span);
                comp_emit_byte(c, (uint8_t)i, e->as.member.member_span);
                const Decl *d = comp_find_proc(c, r->name)->decl;
                Type ft;
                comp_resolve_type(c, d->params.items[i].type, &ft);
                return ft;
            }
        comp_error(c, e->as.member.member_span, "record %s has no field '%s'", r->name, m);
        return T_ERR;
    }
    if (t.kind == TY_ENUM && c->field_tables[t.enum_id] >= 0) {
        const ParamList *fields = c->outcome_fields[t.enum_id];
        for (int i = 0; i < fields->n; i++)
            if (strcmp(fields->items[i].name, m) == 0) {
                comp_emit_const(c, val_int(i), e->as.member.member_span);
                comp_emit_table(c, c->field_tables[t.enum_id], 2, e->as.member.member_span);
                Type ft;
                comp_resolve_type(c, fields->items[i].type, &ft);
                return ft;
            }
        comp_error(c, e->as.member.member_span, "outcome %s has no field '%s'", comp_type_name(c, t), m);
        return T_ERR;
    }
    comp_error(c, e->as.member.member_span, "%s has no fields, so '.%s' means nothing here", comp_type_name(c, t), m);
    return T_ERR;
}

/* ---- calls ---- */

static bool no_named_args(Compiler *c, const Expr *e)
{
    for (int i = 0; i < e->as.call.nargs; i++)
        if (e->as.call.args[i].name) {
            comp_error(c, e->as.call.args[i].name_span, "built-in function '%s' takes no named arguments",
                  e->as.call.callee);
            return false;
        }
    return true;
}

static bool arity(Compiler *c, const Expr *e, int lo, int hi, const char *usage)
{
    int n = e->as.call.nargs;
    if (n < lo || n > hi) {
        comp_error(c, e->span, "wrong number of arguments to %s: %d given; use %s", e->as.call.callee, n, usage);
        return false;
    }
    return true;
}

static Type arg_expect(Compiler *c, const Expr *e, int i, TypeKind kind, const char *what)
{
    const Expr *a = e->as.call.args[i].value;
    Type t = comp_expr(c, a, T_NONE);
    bool ok = kind == TY_RAT ? (is_num(t) || is_err(t)) : (t.kind == kind || is_err(t));
    if (!ok)
        comp_error(c, a->span, "%s() needs %s here, not %s%s%s", e->as.call.callee, what, comp_type_name(c, t),
              t.kind == TY_POOL ? ": " : "", t.kind == TY_POOL ? pool_hint : "");
    return ok ? t : T_ERR;
}

/* ---- built-in functions ----
 *
 * Built-in functions are compiled inline, from one row each of `builtins`.
 * A row gives the name, how many arguments it takes and how to call it, and
 * either the kind every argument must be and the opcode that follows them,
 * or an emitter for a function a row cannot describe. */

/* Compiles the arguments of a call whose count is already checked, emits
 * the call and returns its type. */
typedef Type (*BuiltinEmit)(Compiler *c, const Expr *e, const Builtin *b);

typedef enum {
    RES_INT, RES_RAT, RES_BOOL, RES_STR,   /* always this type, even for a malformed call */
    RES_ARG,       /* the type of the first argument: abs, shift */
    RES_WIDEST,    /* int, or rat if an argument is: min, max, clamp */
    RES_EMITTER,   /* as the emitter finds: an int or a pool (highest, lowest), the choice (choose) */
} ResultRule;

struct Builtin {
    const char *name;
    int min_args, max_args;
    const char *usage;       /* shown when the number of arguments is wrong */
    TypeKind arg;            /* what each argument must be (TY_RAT: any number), */
    const char *arg_what;    /* and how a message says it; TY_ERROR, NULL: the emitter checks */
    OpCode ops[2];           /* ops[0] follows a lone argument, or joins each two (min, max);
                                an emitter's second, if it has one: clamp's MIN, highest(n, p)'s */
    ResultRule result;
    BuiltinEmit emit;        /* NULL: the arguments and ops[0] are the whole call */
};

static Type emit_clamp(Compiler *c, const Expr *e, const Builtin *b);
static Type emit_pick(Compiler *c, const Expr *e, const Builtin *b);
/* sum(p) adds numbers: the dice of a symbol die are counted instead. */
static Type emit_sum(Compiler *c, const Expr *e, const Builtin *b);
static Type emit_any(Compiler *c, const Expr *e, const Builtin *b);
static Type emit_all(Compiler *c, const Expr *e, const Builtin *b);
static Type emit_shift(Compiler *c, const Expr *e, const Builtin *b);
static Type emit_choose(Compiler *c, const Expr *e, const Builtin *b);
static Type emit_text(Compiler *c, const Expr *e, const Builtin *b);
static Type emit_prob(Compiler *c, const Expr *e, const Builtin *b);

/* The order is the order "did you mean" considers them in. */
static const Builtin builtins[] = {
    /* name      args   usage                                           argument  as said                       opcodes                       result       emitter */
    { "floor",   1, 1,  "one number",                                   TY_RAT,   "a number",                   { OP_FLOOR },                 RES_INT,     NULL },
    { "ceil",    1, 1,  "one number",                                   TY_RAT,   "a number",                   { OP_CEIL },                  RES_INT,     NULL },
    { "round",   1, 1,  "one number",                                   TY_RAT,   "a number",                   { OP_ROUND },                 RES_INT,     NULL },
    { "abs",     1, 1,  "abs(x)",                                       TY_RAT,   "a number",                   { OP_ABS },                   RES_ARG,     NULL },
    { "min",     2, 64, "two or more numbers",                          TY_RAT,   "numbers",                    { OP_MIN },                   RES_WIDEST,  NULL },
    { "max",     2, 64, "two or more numbers",                          TY_RAT,   "numbers",                    { OP_MAX },                   RES_WIDEST,  NULL },
    { "clamp",   3, 3,  "clamp(x, low, high)",                          TY_RAT,   "numbers",                    { OP_MAX, OP_MIN },           RES_WIDEST,  emit_clamp },
    { "count",   1, 1,  "one pool",                                     TY_POOL,  "a pool",                     { OP_COUNT },                 RES_INT,     NULL },
    { "sum",     1, 1,  "one pool",                                     TY_POOL,  "a pool",                     { OP_SUM },                   RES_INT,     emit_sum },
    { "highest", 1, 2,  "highest(p) or highest(n, p)",                  TY_POOL,  "a pool",                     { OP_HIGHEST, OP_HIGHEST_N }, RES_EMITTER, emit_pick },
    { "lowest",  1, 2,  "lowest(p) or lowest(n, p)",                    TY_POOL,  "a pool",                     { OP_LOWEST, OP_LOWEST_N },   RES_EMITTER, emit_pick },
    { "any",     1, 1,  "any(p == 6) or any(p)",                        TY_ERROR, NULL,                         { OP_ANY },                   RES_BOOL,    emit_any },
    { "all",     1, 1,  "all(p == 1)",                                  TY_ERROR, NULL,                         { OP_ALL },                   RES_BOOL,    emit_all },
    { "doubles", 1, 1,  "one pool",                                     TY_POOL,  "a pool",                     { OP_DOUBLES },               RES_BOOL,    NULL },
    { "shift",   2, 2,  "shift(state, steps), as in shift(morale, +1)", TY_INT,   "a number of steps (an int)", { OP_SHIFT },                 RES_ARG,     emit_shift },
    { "choose",  1, 1,  "choose(Choice)",                               TY_ERROR, NULL,                         { OP_CHOOSE },                RES_EMITTER, emit_choose },
    { "text",    1, 1,  "text(x)",                                      TY_ERROR, NULL,                         { OP_TABLE },                 RES_STR,     emit_text },
    { "prob",    1, 1,  "prob(claim), as in prob(hits(6) >= 3)",        TY_ERROR, NULL,                         { OP_PROB },                  RES_RAT,     emit_prob },
};

static const Builtin *find_builtin(const char *name)
{
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (strcmp(builtins[i].name, name) == 0)
            return &builtins[i];
    return NULL;
}

const char *compiler_builtin_name(int i)
{
    return i >= 0 && (size_t)i < sizeof builtins / sizeof builtins[0] ? builtins[i].name : NULL;
}

static void consider_builtins(Suggest *s)
{
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        consider(s, builtins[i].name);
}

/* The type of a call whose result does not depend on its arguments; T_ERR
 * for one that does. */
static Type fixed_result(ResultRule rule)
{
    switch (rule) {
    case RES_INT: return T_INT;
    case RES_RAT: return T_RAT;
    case RES_BOOL: return T_BOOL;
    case RES_STR: return T_STR;
    default: return T_ERR;
    }
}

/* The type of min, max and clamp so far: rat once an argument is rat. */
static Type widen(Type so_far, Type t)
{
    if (t.kind == TY_RAT)
        so_far = T_RAT;
    if (is_err(t))
        so_far = T_ERR;
    return so_far;
}

/* A row without an emitter: each argument is of the row's kind, and the
 * opcode follows a lone argument or joins each further one to those before
 * it. */
static Type emit_plain(Compiler *c, const Expr *e, const Builtin *b)
{
    Type first = T_ERR, widest = T_INT;
    for (int i = 0; i < e->as.call.nargs; i++) {
        Type t = arg_expect(c, e, i, b->arg, b->arg_what);
        if (i == 0)
            first = t;
        widest = widen(widest, t);
        if (i > 0 || b->max_args == 1)
            comp_emit_op(c, b->ops[0], e->span);
    }
    return b->result == RES_ARG ? first : b->result == RES_WIDEST ? widest : fixed_result(b->result);
}

/* clamp(x, low, high) is min(max(x, low), high). */
static Type emit_clamp(Compiler *c, const Expr *e, const Builtin *b)
{
    Type result = T_INT;
    for (int i = 0; i < 3; i++) {
        result = widen(result, arg_expect(c, e, i, b->arg, b->arg_what));
        if (i > 0)
            comp_emit_op(c, b->ops[i - 1], e->span);
    }
    return result;
}

/* highest(p) is an int; highest(n, p) the pool of the n highest dice. */
static Type emit_pick(Compiler *c, const Expr *e, const Builtin *b)
{
    if (e->as.call.nargs == 1) {
        Type t = arg_expect(c, e, 0, b->arg, b->arg_what);
        comp_emit_op(c, b->ops[0], e->span);
        if (t.kind == TY_POOL && t.enum_id) {
            /* the die of symbols: its index back as the member */
            comp_emit_op(c, OP_MEMBER, e->span);
            comp_emit_u16(c, (unsigned)(t.enum_id - 1), e->span);
            return (Type){ TY_ENUM, t.enum_id - 1 };
        }
        return T_INT;
    }
    const Expr *first = e->as.call.args[0].value;
    Type t0 = comp_expr(c, first, T_INT);
    if (t0.kind == TY_POOL)
        comp_error(c, first->span, "%s(n, p) takes the number of dice first and the pool second", b->name);
    else if (t0.kind != TY_INT && !is_err(t0))
        comp_error(c, first->span, "%s() needs a number of dice (an int) here, not %s", b->name,
                   comp_type_name(c, t0));
    Type t = arg_expect(c, e, 1, b->arg, b->arg_what);
    comp_emit_op(c, b->ops[1], e->span);
    return is_err(t) ? T_POOL : t;
}

/* sum(p) adds numbers: the dice of a symbol die are counted instead. */
static Type emit_sum(Compiler *c, const Expr *e, const Builtin *b)
{
    Type t = arg_expect(c, e, 0, b->arg, b->arg_what);
    if (t.kind == TY_POOL && t.enum_id) {
        const EnumDesc *en = &c->prog->enums[t.enum_id - 1];
        comp_error(c, e->as.call.args[0].value->span, "sum() adds numbers, and these show members of %s: "
                   "count them instead, as in count(p == %s)", en->name, en->members[0]);
    }
    comp_emit_op(c, b->ops[0], e->span);
    if (comp_is_fresh_sum(e))
        comp_defer_part(c, e, T_INT);
    return T_INT;
}

/* any(p OP x) and all(p OP x) ask the pool directly, building no filtered
 * pool; any(p) alone asks whether the pool has dice at all.  `sample` is
 * the comparison the messages show. */
static Type emit_pool_test(Compiler *c, const Expr *e, const Builtin *b, bool bare_pool, const char *sample)
{
    const char *f = b->name;
    Span at = e->span;
    const Expr *a = e->as.call.args[0].value;
    if (a->kind == EX_BINARY && is_cmp(a->as.binary.op)) {
        Type lt = comp_expr(c, a->as.binary.left, T_NONE);
        if (lt.kind == TY_POOL) {
            if (!pool_operand(c, lt, a->as.binary.right))
                comp_emit_const(c, val_int(0), at);   /* (the operand's place) */
            comp_emit_op(c, b->ops[0], at);
            comp_emit_byte(c, (uint8_t)cmp_of(a->as.binary.op), at);
            return T_BOOL;
        }
        if (!is_err(lt))
            comp_error(c, a->span, "%s() needs a comparison of a pool's dice with the pool first, as in %s(p %s 6)",
                  f, f, sample);
        return T_BOOL;
    }
    Type t = comp_expr(c, a, T_NONE);
    if (bare_pool && t.kind == TY_POOL) {
        comp_emit_op(c, OP_COUNT, at);
        comp_emit_const(c, val_int(0), at);
        comp_emit_op(c, OP_GT, at);
    } else if (!is_err(t)) {
        comp_error(c, a->span, "%s() needs a comparison of a pool's dice, as in %s(p %s 6)", f, f, sample);
    }
    return T_BOOL;
}

static Type emit_any(Compiler *c, const Expr *e, const Builtin *b)
{
    return emit_pool_test(c, e, b, true, ">=");
}

static Type emit_all(Compiler *c, const Expr *e, const Builtin *b)
{
    return emit_pool_test(c, e, b, false, "==");
}

/* shift(state, steps): the state must be a ladder, and is the result. */
static Type emit_shift(Compiler *c, const Expr *e, const Builtin *b)
{
    const Expr *a = e->as.call.args[0].value;
    Type t = comp_expr(c, a, T_NONE);
    if (!is_err(t) && (t.kind != TY_ENUM || c->prog->enums[t.enum_id].flavour != FLAVOUR_LADDER)) {
        comp_error(c, a->span, "shift() moves along a ladder; %s is not one (declare it with 'ladder')",
                   comp_type_name(c, t));
        t = T_ERR;
    }
    arg_expect(c, e, 1, b->arg, b->arg_what);
    comp_emit_op(c, b->ops[0], e->span);
    return t;
}

static Type emit_choose(Compiler *c, const Expr *e, const Builtin *b)
{
    const Expr *a = e->as.call.args[0].value;
    int id = a->kind == EX_NAME ? comp_find_enum(c, a->as.name) : -1;
    if (id < 0 || c->prog->enums[id].flavour != FLAVOUR_CHOICE) {
        comp_error(c, a->span, "choose() takes the name of a choice (declared with 'choice')");
        return T_ERR;
    }
    comp_emit_op(c, b->ops[0], e->span);
    comp_emit_u16(c, (unsigned)id, e->span);
    return (Type){ TY_ENUM, id };
}

/* text(x): a lookup in the table of the enum's words (see comp_text_table). */
static Type emit_text(Compiler *c, const Expr *e, const Builtin *b)
{
    const Expr *a = e->as.call.args[0].value;
    Type t = comp_expr(c, a, T_NONE);
    if (is_err(t))
        return T_STR;
    if (t.kind != TY_ENUM) {
        comp_error(c, a->span, "text() gives the words of an enum member or outcome, not of %s",
                   comp_type_name(c, t));
        return T_STR;
    }
    comp_emit_table(c, comp_text_table(c, t.enum_id), 1, e->span);
    return T_STR;
}

/* The locals of the procedure a claim is written in (c->fn) that the
 * claim names, each once, in the order first named.  An expression binds
 * no names of its own, so every name that is such a local means it, here
 * as in the procedure. */
typedef struct ClaimNames {
    Compiler *c;
    Local **found;
    int n;
} ClaimNames;

static void claim_name(void *ud, const Expr *name)
{
    ClaimNames *cn = ud;
    Local *l = comp_find_local(cn->c, name->as.name);
    if (!l)
        return;
    for (int i = 0; i < cn->n; i++)
        if (cn->found[i] == l)
            return;
    cn->found[cn->n++] = l;   /* (at most one each of the procedure's locals) */
}

/* prob(claim): the claim becomes a procedure of its own, worked out
 * exactly.  The names of the code around it that it uses (parameters and
 * locals) become its parameters, and their values where prob() is worked
 * out its arguments, so that it is worked out once per distinct values
 * (see exact_claim). */
static Type emit_prob(Compiler *c, const Expr *e, const Builtin *b)
{
    const Expr *claim = e->as.call.args[0].value;
    char *name = mem_alloc_atomic(64);
    int line, col;
    source_linecol(c->src, claim->span.begin, &line, &col);
    snprintf(name, 64, "prob() on line %d", line);
    FnState *outer = c->fn;
    Local **uses = mem_alloc(sizeof(Local *) * (MAX_SLOTS + 1));
    ClaimNames named = { c, uses, 0 };
    ast_each_name(claim, claim_name, &named);
    int nuses = named.n;
    Proto *p = chunk_proto_new(c->prog, name, comp_pos(c, claim->span.begin));
    p->hidden = true;
    int index = c->prog->nprotos - 1;
    if (c->nclaims == c->claims_cap) {
        int cap = c->claims_cap ? 2 * c->claims_cap : 8;
        c->claims = mem_realloc(c->claims, sizeof *c->claims * (size_t)c->claims_cap, sizeof *c->claims * (size_t)cap, 0);
        c->claims_cap = cap;
    }
    c->claims[c->nclaims++] = (struct ClaimSite){ index, claim->span, c->src, c->in_example };
    ProcSig *sig = mem_alloc(sizeof *sig);
    *sig = (ProcSig){ .kind = SIG_PROC, .name = name, .proto = index, .ret = T_BOOL, .span = claim->span,
                      .nparams = nuses };
    sig->pnames = mem_alloc(sizeof(char *) * (size_t)(nuses + 1));
    sig->ptypes = mem_alloc(sizeof(Type) * (size_t)(nuses + 1));
    for (int i = 0; i < nuses; i++) {
        sig->pnames[i] = uses[i]->name;
        sig->ptypes[i] = uses[i]->type;
        uses[i]->used = true;
    }
    p->nparams = nuses;
    p->param_names = sig->pnames;
    FnState *fn = mem_alloc(sizeof *fn);
    comp_begin_fn(c, fn, sig, name, claim->span);
    for (int i = 0; i < nuses; i++)
        comp_add_local(c, uses[i]->name, uses[i]->span, uses[i]->type, true);
    fn->scope = 1;
    Type t = comp_expr(c, claim, T_BOOL);
    if (!fits(T_BOOL, t))
        comp_error(c, claim->span, "prob() takes a claim that is true or false, such as prob(hits(6) >= 3), not %s",
                   comp_type_name(c, t));
    comp_emit_op(c, OP_RETURN, claim->span);
    comp_end_fn(c, fn);
    c->fn = outer;
    for (int i = 0; i < nuses; i++) {
        comp_emit_op(c, OP_LOAD, e->span);
        comp_emit_byte(c, (uint8_t)uses[i]->slot, e->span);
    }
    comp_emit_op(c, b->ops[0], e->span);
    comp_emit_u16(c, (unsigned)index, e->span);
    comp_emit_byte(c, (uint8_t)nuses, e->span);
    comp_adjust_stack(c, 1 - nuses);
    return T_RAT;
}

/* A call of a built-in function: its checks are the same for all of them. */
static Type call_builtin(Compiler *c, const Expr *e, const Builtin *b)
{
    if (!no_named_args(c, e) || !arity(c, e, b->min_args, b->max_args, b->usage))
        return fixed_result(b->result);
    return b->emit ? b->emit(c, e, b) : emit_plain(c, e, b);
}

void comp_emit_call(Compiler *c, int proto, int argc, Span at)
{
    comp_emit_op(c, OP_CALL, at);
    comp_emit_u16(c, (unsigned)proto, at);
    comp_emit_byte(c, (uint8_t)argc, at);
    comp_adjust_stack(c, 1 - argc);
}

/* A '?' given for parameter p of sig stands for that argument (or field). */
static void arg_role(Compiler *c, const ProcSig *sig, int p, const Expr *value)
{
    if (sig->kind == SIG_RECORD)
        comp_unknown_role(c, value, "field '%s' of %s", sig->pnames[p], sig->name);
    else
        comp_unknown_role(c, value, "argument '%s' of '%s'", sig->pnames[p], sig->name);
}

static Type comp_call_proc(Compiler *c, const Expr *e, ProcSig *sig)
{
    /* a record is built with a call whose "parameters" are its fields */
    const char *param = sig->kind == SIG_RECORD ? "field" : "parameter";
    const char *arg = sig->kind == SIG_RECORD ? "field" : "argument";
    int n = e->as.call.nargs;
    const Arg *args = e->as.call.args;
    int slot_of_param[MAX_SLOTS];   /* which written argument fills each parameter */
    for (int i = 0; i < sig->nparams; i++)
        slot_of_param[i] = -1;
    bool ok = true, seen_named = false, in_order = true;
    int next_pos = 0;
    for (int i = 0; i < n; i++) {
        int p;
        if (args[i].name) {
            seen_named = true;
            for (p = 0; p < sig->nparams; p++)
                if (strcmp(sig->pnames[p], args[i].name) == 0)
                    break;
            if (p == sig->nparams) {
                comp_error(c, args[i].name_span, "'%s' has no %s named '%s'", sig->name, param, args[i].name);
                ok = false;
                continue;
            }
        } else {
            if (seen_named) {
                comp_error(c, args[i].value->span, "a positional argument cannot follow named ones");
                ok = false;
                continue;
            }
            p = next_pos++;
            if (p >= sig->nparams) {
                comp_error(c, args[i].value->span, "too many %ss: '%s' takes %d", arg, sig->name, sig->nparams);
                ok = false;
                break;
            }
        }
        if (slot_of_param[p] >= 0) {
            comp_error(c, args[i].name ? args[i].name_span : args[i].value->span,
                  "%s '%s' of '%s' is given twice", param, sig->pnames[p], sig->name);
            ok = false;
            continue;
        }
        slot_of_param[p] = i;
    }
    for (int p = 0; p < sig->nparams && ok; p++)
        if (slot_of_param[p] < 0 && sig->pdefault[p] < 0) {
            comp_error(c, e->span, "missing %s '%s' (%s) in %s '%s'", arg, sig->pnames[p],
                  comp_type_name(c, sig->ptypes[p]), sig->kind == SIG_RECORD ? "building" : "call to", sig->name);
            comp_note(c, sig->span, "'%s' is declared here", sig->name);
            ok = false;
        }
    if (!ok) {
        /* still check the arguments themselves for errors */
        for (int i = 0; i < n; i++) {
            comp_expr(c, args[i].value, T_NONE);
            comp_emit_op(c, OP_POP, e->span);
        }
        comp_emit_const(c, val_int(0), e->span);
        return sig->ret;
    }
    /* Arguments are evaluated in the order written (dice are rolled in
     * that order); when that differs from the parameter order they go
     * through temporaries. */
    for (int i = 0, last = -1; i < sig->nparams; i++)
        if (slot_of_param[i] >= 0) {
            if (slot_of_param[i] < last)
                in_order = false;
            last = slot_of_param[i];
        }
    int temps[MAX_SLOTS];
    if (!in_order) {
        comp_begin_scope(c);
        for (int i = 0; i < n; i++) {
            int p;
            for (p = 0; p < sig->nparams && slot_of_param[p] != i; p++)
                ;
            arg_role(c, sig, p, args[i].value);
            Type t = comp_expr(c, args[i].value, sig->ptypes[p]);
            if (!fits(sig->ptypes[p], t))
                comp_error(c, args[i].value->span, "%s '%s' of '%s' must be %s, not %s", arg, sig->pnames[p],
                      sig->name, comp_type_name(c, sig->ptypes[p]), comp_type_name(c, t));
            temps[p] = comp_add_temp(c, args[i].value->span);
            comp_emit_op(c, OP_STORE, args[i].value->span);
            comp_emit_byte(c, (uint8_t)temps[p], args[i].value->span);
        }
    }
    for (int p = 0; p < sig->nparams; p++) {
        int i = slot_of_param[p];
        if (i < 0) {
            comp_emit_call(c, sig->pdefault[p], 0, e->span);
        } else if (!in_order) {
            comp_emit_op(c, OP_LOAD, args[i].value->span);
            comp_emit_byte(c, (uint8_t)temps[p], args[i].value->span);
        } else {
            arg_role(c, sig, p, args[i].value);
            Type t = comp_expr(c, args[i].value, sig->ptypes[p]);
            if (!fits(sig->ptypes[p], t))
                comp_error(c, args[i].value->span, "%s '%s' of '%s' must be %s, not %s", arg, sig->pnames[p],
                      sig->name, comp_type_name(c, sig->ptypes[p]), comp_type_name(c, t));
        }
    }
    if (!in_order)
        comp_end_scope(c);
    comp_emit_call(c, sig->proto, sig->nparams, e->span);
    return sig->ret;
}

/* A whole number written out (7, -1) or a member of enum_id (hit,
 * Face.hit): its value in *v (a member's index); false for anything else. */
static bool listed_value(Compiler *c, const Expr *x, int enum_id, int64_t *v)
{
    if (enum_id < 0) {
        bool neg = x->kind == EX_UNARY && x->as.unary.op == OPR_NEG;
        const Expr *k = neg ? x->as.unary.operand : x;
        if (k->kind != EX_INT)
            return false;
        *v = neg ? -k->as.i : k->as.i;
        return true;
    }
    int m = -1;
    if (x->kind == EX_NAME && !comp_find_local(c, x->as.name))
        m = comp_find_member(c, enum_id, x->as.name);
    else if (x->kind == EX_MEMBER && x->as.member.object->kind == EX_NAME
             && comp_find_enum(c, x->as.member.object->as.name) == enum_id)
        m = comp_find_member(c, enum_id, x->as.member.member);
    *v = m;
    return m >= 0;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* `x in [a, b, ...]`.  Of one value (a number or a member): whether it is
 * one of those listed (x == a or x == b ...).  Of a pool: the dice that
 * show one of them, a filter, as the runs of listed values one after
 * another (p >= a and <= b, then the next run, joined). */
static Type in_list(Compiler *c, const Expr *e)
{
    const Expr *subject = e->as.call.args[0].value;
    int n = e->as.call.nargs - 1;
    Type st = comp_expr(c, subject, T_NONE);
    int slot = comp_add_temp(c, subject->span);
    comp_emit_op(c, OP_STORE, subject->span);
    comp_emit_byte(c, (uint8_t)slot, subject->span);
    if (st.kind == TY_POOL) {
        int enum_id = st.enum_id - 1;
        int64_t *v = mem_alloc_atomic(sizeof(int64_t) * (size_t)(n + 1));
        int nv = 0;
        for (int i = 0; i < n; i++) {
            const Expr *x = e->as.call.args[i + 1].value;
            if (!listed_value(c, x, enum_id, &v[nv])) {
                if (enum_id >= 0)
                    comp_error(c, x->span, "the list after 'in' holds members of %s written out (as in 'p in [%s]'), "
                               "not a value worked out", c->prog->enums[enum_id].name, c->prog->enums[enum_id].members[0]);
                else
                    comp_error(c, x->span, "a pool's dice are compared with numbers written out here, as in 'p in [1, 6]'");
                continue;
            }
            nv++;
        }
        qsort(v, (size_t)nv, sizeof(int64_t), cmp_i64);
        int runs = 0;
        for (int i = 0; i < nv;) {
            int j = i;
            while (j + 1 < nv && v[j + 1] <= v[j] + 1)
                j++;
            comp_emit_op(c, OP_LOAD, e->span);
            comp_emit_byte(c, (uint8_t)slot, e->span);
            comp_emit_const(c, val_int(v[i]), e->span);
            comp_emit_op(c, OP_FILTER, e->span);
            comp_emit_byte(c, (uint8_t)(v[i] == v[j] ? CMP_EQ : CMP_GE), e->span);
            if (v[j] != v[i]) {
                comp_emit_const(c, val_int(v[j]), e->span);
                comp_emit_op(c, OP_FILTER, e->span);
                comp_emit_byte(c, (uint8_t)CMP_LE, e->span);
            }
            if (runs++)
                comp_emit_op(c, OP_JOIN, e->span);
            i = j + 1;
        }
        if (!runs) {
            /* (an error was reported, or nothing listed: no dice) */
            comp_emit_op(c, OP_LOAD, e->span);
            comp_emit_byte(c, (uint8_t)slot, e->span);
            comp_emit_const(c, val_int(0), e->span);
            comp_emit_op(c, OP_FILTER, e->span);
            comp_emit_byte(c, (uint8_t)CMP_NE, e->span);
            comp_emit_const(c, val_int(0), e->span);
            comp_emit_op(c, OP_FILTER, e->span);
            comp_emit_byte(c, (uint8_t)CMP_EQ, e->span);
        }
        return st;
    }
    if (!is_err(st) && !is_num(st) && st.kind != TY_ENUM)
        comp_error(c, subject->span, "'in' asks whether a number, a member or a pool's dice are among those listed, "
                   "not a %s", comp_type_name(c, st));
    int jumps[256];
    int nj = 0;
    for (int i = 0; i < n; i++) {
        const Expr *x = e->as.call.args[i + 1].value;
        if (i > 0) {
            int j = comp_emit_jump(c, OP_OR_JUMP, x->span);
            comp_adjust_stack(c, -1);   /* (popped on the path that goes on) */
            if (nj < 256)
                jumps[nj++] = j;
        }
        comp_emit_op(c, OP_LOAD, x->span);
        comp_emit_byte(c, (uint8_t)slot, x->span);
        Type t = comp_expr(c, x, st.kind == TY_ENUM ? st : T_NONE);
        if (!is_err(st) && !is_err(t) && !(is_num(st) && is_num(t)) && !same(st, t))
            comp_error(c, x->span, "cannot compare %s with %s", comp_type_name(c, st), comp_type_name(c, t));
        comp_emit_op(c, OP_EQ, x->span);
    }
    if (n == 0)
        comp_emit_op(c, OP_FALSE, e->span);
    for (int k = 0; k < nj; k++)
        comp_patch_jump(c, jumps[k]);
    return T_BOOL;
}

static Type call(Compiler *c, const Expr *e)
{
    if (!strcmp(e->as.call.callee, AST_IN_CALLEE))
        return in_list(c, e);
    const Builtin *b = find_builtin(e->as.call.callee);
    if (b)
        return call_builtin(c, e, b);
    ProcSig *sig = comp_find_proc(c, e->as.call.callee);
    if (sig) {
        Type t = comp_call_proc(c, e, sig);
        comp_defer_part(c, e, t);
        return t;
    }
    const char *s = suggest_name(c, e->as.call.callee, false, true);
    const char *module = c->stdlib ? c->stdlib(e->as.call.callee) : NULL;
    if (comp_find_local(c, e->as.call.callee))
        comp_error(c, e->as.call.callee_span, "'%s' is a value, not a procedure", e->as.call.callee);
    else if (module)
        comp_error(c, e->as.call.callee_span, "unknown procedure '%s'; the standard library has it: "
                   "write 'import \"%s\"' at the top of the script", e->as.call.callee, module);
    else if (s)
        comp_error(c, e->as.call.callee_span, "unknown procedure '%s'; did you mean '%s'?", e->as.call.callee, s);
    else
        comp_error(c, e->as.call.callee_span, "unknown procedure '%s'", e->as.call.callee);
    for (int i = 0; i < e->as.call.nargs; i++) {
        comp_expr(c, e->as.call.args[i].value, T_NONE);
        comp_emit_op(c, OP_POP, e->span);
    }
    comp_emit_const(c, val_int(0), e->span);
    return T_ERR;
}

/* ---- '?': a value the rules text does not give ---- */

void comp_unknown_role(Compiler *c, const Expr *e, const char *fmt, ...)
{
    if (!e || e->kind != EX_UNKNOWN)
        return;
    char *what = mem_alloc_atomic(256);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, 256, fmt, ap);
    va_end(ap);
    c->unknown_for = e;
    c->unknown_what = what;
}

/* A '?' written as an expression: an unknown (see value.h) of the type
 * its place expects, for it has none of its own.  It may stand only where
 * a value is kept, passed on or returned (where comp_unknown_role named
 * it): anywhere else its value would be needed at once and every run
 * would stop there.  `muster check` lists it with the table cells. */
static Type unknown_expr(Compiler *c, const Expr *e, Type hint)
{
    Value v = val_int(0);
    Type t = T_ERR;
    if (c->unknown_for != e) {
        comp_error(c, e->span, "'?' stands for a value the rules text does not give: it can be kept, passed on or "
                   "returned (by 'let', 'return', as an argument or a record's field), but here its value would be "
                   "needed at once");
    } else if (is_err(hint)) {
        if (hint.enum_id != 0)   /* (T_ERR: the type it was to take was wrong, and reported) */
            comp_error(c, e->span, "'?' has no type of its own, and nothing here says which it is");
    } else {
        const char *owner = c->owner ? c->owner : "the script";
        int site = chunk_add_unknown(c->prog, (UnknownSite){ .table = -1, .cell = -1,
                                                             .offset = comp_pos(c, e->span.begin), .owner = owner,
                                                             .what = c->unknown_what });
        char *listed = mem_alloc_atomic(strlen(owner) + strlen(c->unknown_what) + 4);
        sprintf(listed, "%s, %s", owner, c->unknown_what);
        comp_list_unknown(c, e->span, listed);
        v = val_unknown(site, 0);
        t = hint;
    }
    comp_emit_const(c, v, e->span);
    return t;
}

/* The number of sides: a literal (d6) or an expression (d(n)). */
static void roll_sides(Compiler *c, const Expr *e)
{
    if (!e->as.roll.sides_expr) {
        comp_emit_const(c, val_int(e->as.roll.sides), e->span);
        return;
    }
    Type t = comp_expr(c, e->as.roll.sides_expr, T_INT);
    if (t.kind != TY_INT && !is_err(t))
        comp_error(c, e->as.roll.sides_expr->span, "the number of sides must be an int, not %s", comp_type_name(c, t));
}

static Type roll(Compiler *c, const Expr *e)
{
    if (e->as.roll.nparts) {
        /* a mixed pool: each part rolled as a pool of its own (one die a
         * pool of one), then joined in turn */
        Type t = T_POOL;
        const Expr *first = NULL;
        for (int i = 0; i < e->as.roll.nparts; i++) {
            const Expr *part = e->as.roll.parts[i];
            Type pt;
            if (part->as.roll.die) {
                pt = comp_roll_die(c, part, true);
            } else if (part->as.roll.count) {
                pt = roll(c, part);
            } else {
                comp_emit_const(c, val_int(1), part->span);
                roll_sides(c, part);
                comp_emit_op(c, OP_ROLL_POOL, part->span);
                pt = T_POOL;
            }
            if (!is_err(pt) && !first) {
                t = pt;
                first = part;
            } else if (!is_err(pt) && !same(t, pt)) {
                comp_error(c, part->span, "the dice of a mixed pool must all show numbers or all show members of "
                           "one enum: this part gives a %s, the first part (%s) a %s", comp_type_name(c, pt),
                           mem_printed((void (*)(FILE *, const void *))ast_print_expr, first), comp_type_name(c, t));
            }
            if (i > 0)
                comp_emit_op(c, OP_JOIN, e->span);
        }
        return t;
    }
    if (e->as.roll.draw)
        return comp_draw(c, e);
    if (e->as.roll.die)
        return comp_roll_die(c, e, e->as.roll.count != NULL);
    if (!e->as.roll.count) {
        roll_sides(c, e);
        comp_emit_op(c, OP_ROLL, e->span);
        return T_INT;
    }
    Type t = comp_expr(c, e->as.roll.count, T_INT);
    if (t.kind != TY_INT && !is_err(t))
        comp_error(c, e->as.roll.count->span, "the number of dice must be an int, not %s%s", comp_type_name(c, t),
              t.kind == TY_RAT ? " (round it with floor, ceil or round)" : "");
    roll_sides(c, e);
    comp_emit_op(c, OP_ROLL_POOL, e->span);
    return T_POOL;
}

Type comp_expr(Compiler *c, const Expr *e, Type hint)
{
    switch (e->kind) {
    case EX_INT:
        comp_emit_const(c, val_int(e->as.i), e->span);
        return T_INT;
    case EX_BOOL:
        comp_emit_op(c, e->as.b ? OP_TRUE : OP_FALSE, e->span);
        return T_BOOL;
    case EX_STR:
        comp_emit_const(c, val_str(val_new_str(e->as.str.bytes, e->as.str.len)), e->span);
        return T_STR;
    case EX_NAME:
        return name_expr(c, e, hint);
    case EX_MEMBER:
        return member_expr(c, e);
    case EX_UNARY: {
        Type t = comp_expr(c, e->as.unary.operand, e->as.unary.op == OPR_NOT ? T_BOOL : T_NONE);
        if (e->as.unary.op == OPR_NOT) {
            if (!fits(T_BOOL, t))
                comp_error(c, e->as.unary.operand->span, "'not' needs a bool, not %s", comp_type_name(c, t));
            comp_emit_op(c, OP_NOT, e->span);
            return T_BOOL;
        }
        if (t.kind == TY_POOL && e->as.unary.op == OPR_NEG) {
            comp_error(c, e->as.unary.operand->span, "cannot negate a pool; for the negative of its total, write '-sum(...)'");
            return T_ERR;
        }
        if (!is_num(t) && !is_err(t)) {
            comp_error(c, e->as.unary.operand->span, "cannot %s %s", e->as.unary.op == OPR_POS ? "put '+' before" : "negate",
                       comp_type_name(c, t));
            return T_ERR;
        }
        if (e->as.unary.op == OPR_NEG)
            comp_emit_op(c, OP_NEG, e->span);
        return t;
    }
    case EX_BINARY:
        return binary(c, e, hint);
    case EX_CALL:
        return call(c, e);
    case EX_ROLL:
        return roll(c, e);
    case EX_ERROR:
        comp_emit_const(c, val_int(0), e->span);
        return T_ERR;
    case EX_UNKNOWN:
        return unknown_expr(c, e, hint);
    case EX_NA:
        comp_error(c, e->span, "'-' marks a table cell the rules say does not apply; it is not a value");
        comp_emit_const(c, val_int(0), e->span);
        return T_ERR;
    }
    return T_ERR;
}

/* ---- statements ---- */

/* Compile a list; returns whether it always ends in return or reroll. */
bool comp_block(Compiler *c, const StmtList *list);

static bool comp_stmt(Compiler *c, const Stmt *s)
{
    FnState *fn = c->fn;
    switch (s->kind) {
    case ST_LET: {
        Type want = T_NONE;
        bool typed = s->as.let.type.name != NULL;
        if (typed && !comp_resolve_type(c, s->as.let.type, &want))
            want = T_ERR;
        comp_unknown_role(c, s->as.let.value, "'%s'", s->as.let.name);
        comp_let_part(c, s);
        if (!typed && s->as.let.value->kind == EX_UNKNOWN) {
            comp_error(c, s->as.let.value->span, "'?' has no type of its own: write the type of '%s', as in "
                       "'let %s: int = ?'", s->as.let.name, s->as.let.name);
            want = T_ERR;
        }
        Type t = comp_expr(c, s->as.let.value, want);
        if (typed && !fits(want, t))
            comp_error(c, s->as.let.value->span, "'%s' is declared %s but given %s", s->as.let.name,
                  comp_type_name(c, want), comp_type_name(c, t));
        c->ndeferrable = c->deferred = 0;
        Local *l = comp_add_local(c, s->as.let.name, s->as.let.name_span, typed ? want : t, false);
        comp_emit_op(c, OP_STORE, s->span);
        comp_emit_byte(c, (uint8_t)(l ? l->slot : 0), s->span);
        return false;
    }
    case ST_ASSIGN: {
        Local *l = comp_find_local(c, s->as.let.name);
        comp_unknown_role(c, s->as.let.value, "'%s'", s->as.let.name);
        Type t = comp_expr(c, s->as.let.value, l ? l->type : T_ERR);
        if (!l) {
            comp_error(c, s->as.let.name_span, "'%s' is not defined; introduce it with 'let %s = ...'",
                  s->as.let.name, s->as.let.name);
        } else if (l->is_param) {
            comp_error(c, s->as.let.name_span, "parameters cannot be changed; use 'let' for a new name");
        } else if (!fits(l->type, t)) {
            comp_error(c, s->as.let.value->span, "'%s' is %s and cannot be given %s", l->name,
                  comp_type_name(c, l->type), comp_type_name(c, t));
        }
        comp_emit_op(c, OP_STORE, s->span);
        comp_emit_byte(c, (uint8_t)(l ? l->slot : 0), s->span);
        return false;
    }
    case ST_RETURN: {
        Type want = fn->sig->ret;
        comp_unknown_role(c, s->as.ret, "its result");
        comp_return_parts(c, s->as.ret);
        Type t = comp_expr(c, s->as.ret, want.kind == TY_ERROR && want.enum_id == -3 ? T_NONE : want);
        if (c->deferred)
            comp_emit_op(c, OP_SETTLE, s->span);
        c->ndeferrable = c->deferred = 0;
        if (want.kind == TY_ERROR && want.enum_id == -3) {
            /* a one-off expression: its type is whatever it is */
            fn->sig->ret = t;
            want = t;
        }
        OddsKind odds = fn->sig->decl && fn->sig->decl->kind == DECL_PROC ? fn->sig->decl->as.proc.odds : ODDS_NONE;
        if (!fits(want, t) && odds != ODDS_NONE)
            comp_error(c, s->as.ret->span, odds == ODDS_CHANCE ? "'chance' takes a claim, true or false, not %s"
                       : "'mean' takes a number, not %s", comp_type_name(c, t));
        else if (!fits(want, t))
            comp_error(c, s->as.ret->span, "'%s' returns %s, but this is %s", fn->sig->name,
                  comp_type_name(c, want), comp_type_name(c, t));
        comp_emit_op(c, OP_RETURN, s->span);
        fn->stack = 0;
        return true;
    }
    case ST_REROLL:
        comp_emit_op(c, OP_REROLL, s->span);
        fn->proto->rerolls = true;
        return true;
    case ST_EXPECT:
        comp_expect(c, s);
        return false;
    case ST_DICE:
        return false;   /* gathered by the example before it runs */
    case ST_CHOOSE: {
        /* from here on, the choice takes this option */
        int id = comp_find_enum(c, s->as.choose.choice);
        if (id < 0 || c->prog->enums[id].flavour != FLAVOUR_CHOICE) {
            comp_error(c, s->as.choose.choice_span, "'%s' is not a choice", s->as.choose.choice);
            return false;
        }
        int k = comp_find_member(c, id, s->as.choose.option);
        if (k < 0) {
            comp_error(c, s->as.choose.option_span, "'%s' is not an option of %s", s->as.choose.option,
                       s->as.choose.choice);
            return false;
        }
        comp_emit_op(c, OP_PICK, s->span);
        comp_emit_u16(c, (unsigned)id, s->span);
        comp_emit_u16(c, (unsigned)k, s->span);
        return false;
    }
    case ST_IF: {
        Type t = comp_expr(c, s->as.if_.cond, T_BOOL);
        if (!fits(T_BOOL, t))
            comp_error(c, s->as.if_.cond->span, "an 'if' condition must be bool, not %s%s", comp_type_name(c, t),
                  t.kind == TY_POOL ? " (any(p >= 4) asks whether some die is 4 or more)" : "");
        int skip = comp_emit_jump(c, OP_JUMP_FALSE, s->as.if_.cond->span);
        comp_begin_scope(c);
        bool then_ends = comp_block(c, &s->as.if_.then);
        comp_end_scope(c);
        if (!s->as.if_.has_else) {
            comp_patch_jump(c, skip);
            return false;
        }
        int over = then_ends ? -1 : comp_emit_jump(c, OP_JUMP, s->as.if_.else_span);
        comp_patch_jump(c, skip);
        comp_begin_scope(c);
        bool else_ends = comp_block(c, &s->as.if_.els);
        comp_end_scope(c);
        if (over >= 0)
            comp_patch_jump(c, over);
        return then_ends && else_ends;
    }
    }
    return false;
}

bool comp_block(Compiler *c, const StmtList *list)
{
    bool ends = false;
    for (int i = 0; i < list->n; i++) {
        if (ends) {
            comp_error(c, list->items[i]->span, "this statement can never run: the one before it always returns or rerolls");
            break;
        }
        /* where the exact engine may merge runs (the peephole pass drops
         * those with no dice after them); not before the first statement,
         * whose state is the caller's when it called */
        if (c->fn->proto->len > 0)
            comp_emit_op(c, OP_MERGE, list->items[i]->span);
        ends = comp_stmt(c, list->items[i]);
    }
    return ends;
}

/* ---- declarations ---- */

Proto *comp_begin_fn(Compiler *c, FnState *fn, ProcSig *sig, const char *name, Span at)
{
    memset(fn, 0, sizeof *fn);
    fn->sig = sig;
    fn->proto = c->prog->protos[sig ? sig->proto : c->prog->nprotos - 1];
    (void)name;
    (void)at;
    c->fn = fn;
    return fn->proto;
}

void comp_end_fn(Compiler *c, FnState *fn)
{
    for (int i = 0; i < fn->nlocals; i++)
        lint_unused(c, &fn->locals[i]);
    fn->proto->nlocals = fn->max_slot;
    fn->proto->max_stack = fn->max_stack + 1;
    c->fn = NULL;
}

static void *grow(void *items, int n, int *cap, size_t size)
{
    return ast_grow(items, n, cap, size);
}

bool comp_name_taken(Compiler *c, const char *name, Span at)
{
    if (comp_is_builtin(name)) {
        comp_error(c, at, "'%s' is a built-in function; choose another name", name);
        return true;
    }
    if (is_type_name(name)) {
        comp_error(c, at, "'%s' is a built-in type; choose another name", name);
        return true;
    }
    ProcSig *other = comp_find_proc(c, name);
    if (other) {
        comp_error(c, at, "'%s' is declared twice", name);
        /* the first may be in another file */
        const Source *here = c->src;
        if (other->decl && other->decl->src)
            c->src = other->decl->src;
        comp_note(c, other->span, "the first '%s' is here", name);
        c->src = here;
        return true;
    }
    if (comp_find_enum(c, name) >= 0 || names_get(&c->record_names, name) >= 0) {
        comp_error(c, at, "'%s' is already the name of a type", name);
        return true;
    }
    if (comp_find_die(c, name) >= 0) {
        comp_error(c, at, "'%s' is already the name of a die", name);
        return true;
    }
    if (comp_find_bag(c, name) >= 0) {
        comp_error(c, at, "'%s' is already the name of a bag", name);
        return true;
    }
    return false;
}

/* A second type of the same name. */
static bool type_twice(Compiler *c, const Decl *d)
{
    if (comp_find_enum(c, d->name) < 0 && names_get(&c->record_names, d->name) < 0)
        return false;
    comp_error(c, d->name_span, "'%s' is declared twice", d->name);
    return true;
}

static void declare_enum(Compiler *c, const Decl *d)
{
    if (type_twice(c, d) || comp_name_taken(c, d->name, d->name_span))
        return;
    int n = d->as.enm.n;
    static const char *const words[] = { "enum", "ladder", "outcome", "choice" };
    const char *word = words[d->as.enm.flavour];
    if (n == 0)
        comp_error(c, d->name_span, "%s '%s' has no members", word, d->name);
    Program *prog = c->prog;
    prog->enums = grow(prog->enums, prog->nenums, &prog->enums_cap, sizeof(EnumDesc));
    const char **members = mem_alloc(sizeof(char *) * (size_t)(n + 1));
    const char **texts = mem_alloc(sizeof(char *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        const Member *m = &d->as.enm.items[i];
        members[i] = m->name;
        texts[i] = m->text;
        for (int j = 0; j < i; j++)
            if (strcmp(m->name, members[j]) == 0)
                comp_error(c, m->span, "'%s' is listed twice in %s %s", m->name, word, d->name);
        if (m->fields.n && d->as.enm.flavour != ENUM_OUTCOME)
            comp_error(c, m->span, "only the members of an outcome have fields");
    }
    static const EnumFlavourTag flavours[] = { FLAVOUR_ENUM, FLAVOUR_LADDER, FLAVOUR_OUTCOME, FLAVOUR_CHOICE };
    int id = prog->nenums;
    prog->enums[prog->nenums++] = (EnumDesc){ d->name, n, members, texts, flavours[d->as.enm.flavour], -1,
                                              d->as.enm.prompt };
    names_put(&c->enum_names, d->name, id);
    for (int i = 0; i < n; i++) {
        int first = names_get(&c->member_names, members[i]);
        if (first < 0)
            names_put(&c->member_names, members[i], id);
        else if (first != id)
            names_put(&c->member_shared, members[i], 1);
    }
    if (d->as.enm.flavour == ENUM_CHOICE) {
        int k = comp_find_member(c, id, d->as.enm.deflt);
        if (k < 0)
            comp_error(c, d->as.enm.deflt_span, "the default '%s' is not one of the options of %s", d->as.enm.deflt,
                       d->name);
        prog->enums[id].deflt = k < 0 ? 0 : k;
    }
}

static void declare_record(Compiler *c, const Decl *d)
{
    if (type_twice(c, d) || comp_name_taken(c, d->name, d->name_span))
        return;
    Program *prog = c->prog;
    prog->records = grow(prog->records, prog->nrecords, &prog->records_cap, sizeof(RecordDesc));
    int n = d->params.n;
    const char **fields = mem_alloc(sizeof(char *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        fields[i] = d->params.items[i].name;
    if (n == 0)
        comp_error(c, d->name_span, "record '%s' has no fields", d->name);
    if (n > 255)
        comp_error(c, d->name_span, "record '%s' has %d fields; the limit is 255", d->name, n);
    names_put(&c->record_names, d->name, prog->nrecords);
    prog->records[prog->nrecords++] = (RecordDesc){ d->name, n, fields };
}

static bool has_factor(const ModList *items)
{
    for (int i = 0; i < items->n; i++)
        if (items->items[i].kind == MOD_MUL || (items->items[i].kind == MOD_ONEOF && has_factor(&items->items[i].group)))
            return true;
    return false;
}

ProcSig *comp_declare_callable(Compiler *c, const Decl *d, SigKind kind, const ParamList *params, TypeRef ret)
{
    if (kind != SIG_RECORD && comp_name_taken(c, d->name, d->name_span))
        return NULL;
    c->procs = grow(c->procs, c->nprocs, &c->procs_cap, sizeof(ProcSig));
    names_put(&c->proc_names, d->name, c->nprocs);
    ProcSig *sig = &c->procs[c->nprocs++];
    memset(sig, 0, sizeof *sig);
    int np = params->n;
    sig->kind = kind;
    sig->name = d->name;
    sig->span = d->name_span;
    sig->decl = d;
    sig->nparams = np;
    sig->pnames = mem_alloc(sizeof(char *) * (size_t)(np + 1));
    sig->ptypes = mem_alloc(sizeof(Type) * (size_t)(np + 1));
    sig->pdefault = mem_alloc_atomic(sizeof(int) * (size_t)(np + 1));
    sig->pdeftext = mem_alloc(sizeof(char *) * (size_t)(np + 1));
    if (np > 64 && kind != SIG_RECORD)
        comp_error(c, d->name_span, "'%s' has %d parameters; the limit is 64", d->name, np);
    for (int i = 0; i < np; i++) {
        const Param *p = &params->items[i];
        sig->pnames[i] = p->name;
        sig->pdefault[i] = -1;
        for (int j = 0; j < i; j++)
            if (strcmp(p->name, sig->pnames[j]) == 0)
                comp_error(c, p->span, "%s '%s' is listed twice", kind == SIG_RECORD ? "field" : "parameter", p->name);
        comp_resolve_type(c, p->type, &sig->ptypes[i]);
        bool odds = kind == SIG_PROC && d->kind == DECL_PROC && d->as.proc.odds != ODDS_NONE;
        if (p->has_range && kind != SIG_BANDS && !odds)
            comp_error(c, p->range_span, "only the parameters of bands and odds take a range of values");
    }
    if (kind == SIG_RECORD) {
        sig->ret = (Type){ TY_RECORD, names_get(&c->record_names, d->name) };
    } else if (kind == SIG_MODIFIERS) {
        /* the total is an int, or a rat once a factor is involved, unless declared */
        if (ret.name) {
            comp_resolve_type(c, ret, &sig->ret);
            if (!is_num(sig->ret) && !is_err(sig->ret))
                comp_error(c, ret.span, "the total of a modifier list is an int or a rat, not %s",
                           comp_type_name(c, sig->ret));
        } else {
            sig->ret = has_factor(&d->as.mods.items) ? T_RAT : T_INT;
        }
    } else if (!ret.name) {
        const char *word = kind == SIG_TABLE ? "table" : kind == SIG_BANDS ? "bands" : "proc";
        comp_error(c, d->name_span, "%s '%s' needs a result type, as in '%s %s(...) -> int'",
                   kind == SIG_PROC ? "procedure" : word, d->name, word, d->name);
        sig->ret = T_ERR;
    } else {
        comp_resolve_type(c, ret, &sig->ret);
    }
    Proto *proto = chunk_proto_new(c->prog, d->name, comp_pos(c, d->name_span.begin));
    sig->proto = c->prog->nprotos - 1;
    proto->nparams = np;
    proto->param_names = sig->pnames;
    return sig;
}

FnState *comp_begin_params(Compiler *c, ProcSig *sig, const ParamList *params)
{
    FnState *fn = mem_alloc(sizeof *fn);
    comp_begin_fn(c, fn, sig, sig->name, sig->span);
    for (int i = 0; i < sig->nparams; i++) {
        bool dup = false;   /* a repeated parameter was reported when declared */
        for (int j = 0; j < i; j++)
            dup |= strcmp(sig->pnames[i], sig->pnames[j]) == 0;
        if (!dup)
            comp_add_local(c, sig->pnames[i], params->items[i].span, sig->ptypes[i], true);
    }
    fn->scope = 1;
    return fn;
}

/* The text of a span with each run of blanks and line breaks folded to
 * one space, for showing a default the way it was written. */
static const char *folded_text(const Source *src, Span span)
{
    char *out = mem_alloc_atomic(span.end - span.begin + 1);
    size_t n = 0;
    for (uint32_t i = span.begin; i < span.end && i < src->len; i++) {
        char ch = src->text[i];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
            if (n > 0 && out[n - 1] != ' ')
                out[n++] = ' ';
        } else {
            out[n++] = ch;
        }
    }
    while (n > 0 && out[n - 1] == ' ')
        n--;
    out[n] = 0;
    return out;
}

/* Each default value becomes a tiny procedure of no arguments, so a call
 * site and the command line get it the same way.  Every default gets its
 * procedure (declare_defaults) before any is compiled (compile_defaults), so
 * a default may call a procedure declared further down and leave out that
 * one's own defaults. */
static void declare_defaults(Compiler *c, ProcSig *sig, const ParamList *params)
{
    for (int i = 0; i < sig->nparams; i++) {
        const Param *p = &params->items[i];
        if (!p->deflt)
            continue;
        size_t len = strlen(sig->name) + strlen(p->name) + 32;
        char *name = mem_alloc_atomic(len);
        snprintf(name, len, "%s(%s: default)", sig->name, p->name);
        SourceMark was = comp_enter_source(c, p->src);
        chunk_proto_new(c->prog, name, comp_pos(c, p->deflt->span.begin))->hidden = true;
        sig->pdefault[i] = c->prog->nprotos - 1;
        sig->pdeftext[i] = folded_text(c->src, p->deflt->span);
        comp_leave_source(c, was);
    }
}

static void compile_defaults(Compiler *c, ProcSig *sig, const ParamList *params)
{
    for (int i = 0; i < sig->nparams; i++) {
        const Param *p = &params->items[i];
        if (!p->deflt)
            continue;
        const char *name = c->prog->protos[sig->pdefault[i]]->name;
        ProcSig tmp = { .name = name, .proto = sig->pdefault[i], .ret = sig->ptypes[i], .span = p->span };
        FnState fn;
        SourceMark was = comp_enter_source(c, p->src);
        comp_begin_fn(c, &fn, &tmp, name, p->span);
        c->default_of = sig;
        comp_unknown_role(c, p->deflt, "the default of '%s'", p->name);
        Type t = comp_expr(c, p->deflt, sig->ptypes[i]);
        c->default_of = NULL;
        if (!fits(sig->ptypes[i], t))
            comp_error(c, p->deflt->span, "the default of '%s' must be %s, not %s", p->name,
                  comp_type_name(c, sig->ptypes[i]), comp_type_name(c, t));
        comp_emit_op(c, OP_RETURN, p->deflt->span);
        comp_end_fn(c, &fn);
        comp_leave_source(c, was);
    }
}

/* Most rows or columns an odds table may have. */
#define ODDS_MAX_VALUES 40

/* An odds table's parameters are its rows and columns: at most two, each
 * with a list of values to show (an enum's members, true and false, or an
 * int's `in lo..hi`). */
static void check_odds(Compiler *c, const ProcSig *sig)
{
    const Decl *d = sig->decl;
    if (d->params.n > 2)
        comp_error(c, d->params.items[2].span, "an odds table has rows and columns: at most two parameters, not %d",
                   d->params.n);
    for (int i = 0; i < d->params.n && i < 2; i++) {
        const Param *p = &d->params.items[i];
        Type t = sig->ptypes[i];
        if (t.kind == TY_INT) {
            if (!p->has_range || p->lo_open || p->hi_open)
                comp_error(c, p->has_range ? p->range_span : p->span,
                           "the odds table shows a row or column for each value of '%s': give them, as in "
                           "'%s: int in 1..6'", p->name, p->name);
            else if (p->hi - p->lo + 1 > ODDS_MAX_VALUES)
                comp_error(c, p->range_span, "%lld values of '%s' are too many for an odds table (at most %d)",
                           (long long)(p->hi - p->lo + 1), p->name, ODDS_MAX_VALUES);
        } else if (t.kind != TY_ENUM && t.kind != TY_BOOL && !is_err(t)) {
            comp_error(c, p->type.span, "an odds table's rows and columns are the values of an enum, a bool or an "
                       "int with a range, not %s", comp_type_name(c, t));
        }
    }
}

static void compile_proc(Compiler *c, ProcSig *sig)
{
    const Decl *d = sig->decl;
    if (d->as.proc.odds != ODDS_NONE)
        check_odds(c, sig);
    FnState *fn = comp_begin_params(c, sig, &d->params);
    comp_find_named_parts(c, &d->as.proc.body);
    bool ends = comp_block(c, &d->as.proc.body);
    c->nnamed_lets = c->nnamed_reads = 0;
    if (!ends && !is_err(sig->ret))
        comp_error(c, d->as.proc.body_end, "'%s' can reach its end without returning a value (it must return %s on every path)",
              sig->name, comp_type_name(c, sig->ret));
    if (!ends) {
        /* unreachable in a correct program; keeps the bytecode well formed */
        comp_emit_const(c, val_int(0), d->as.proc.body_end);
        comp_emit_op(c, OP_RETURN, d->as.proc.body_end);
    }
    comp_end_fn(c, fn);
}

/* A record's constructor: its fields are the parameters. */
static void compile_record(Compiler *c, ProcSig *sig)
{
    const Decl *d = sig->decl;
    FnState *fn = comp_begin_params(c, sig, &d->params);
    for (int i = 0; i < sig->nparams; i++) {
        comp_emit_op(c, OP_LOAD, d->name_span);
        comp_emit_byte(c, (uint8_t)i, d->name_span);
    }
    fn->proto->hidden = true;   /* building a record is not a step of the rules */
    comp_emit_op(c, OP_RECORD, d->name_span);
    comp_emit_u16(c, (unsigned)sig->ret.enum_id, d->name_span);
    comp_emit_byte(c, (uint8_t)sig->nparams, d->name_span);
    comp_adjust_stack(c, 1 - sig->nparams);
    comp_emit_op(c, OP_RETURN, d->name_span);
    comp_end_fn(c, fn);
}

/* Where src starts in the one numbering of positions that every proto's
 * line table and every table's cells use: the files one after another,
 * in the order the compiler first meets them (see compiler_locate). */
static uint32_t source_start(Compiler *c, const Source *src)
{
    Compiled *out = c->out;
    for (int i = 0; i < out->nsources; i++)
        if (out->sources[i] == src)
            return out->source_start[i];
    uint32_t start = 0;
    if (out->nsources > 0) {
        int last = out->nsources - 1;
        uint64_t next = (uint64_t)out->source_start[last] + out->sources[last]->len + 1;
        if (next + src->len >= UINT32_MAX) {
            /* each file is at most SOURCE_MAX_BYTES; this takes dozens of them */
            if (!out->too_much_text)
                diag_report(c->diag, DIAG_ERROR, src, (Span){ 0, 0 },
                            "the files of this ruleset hold over 4 GB of text together; muster cannot point into them");
            out->too_much_text = true;
            return 0;
        }
        start = (uint32_t)next;
    }
    int cap = out->nsources;
    out->sources = grow(out->sources, out->nsources, &cap, sizeof(Source *));
    cap = out->nsources;
    out->source_start = grow(out->source_start, out->nsources, &cap, sizeof(uint32_t));
    out->sources[out->nsources] = src;
    out->source_start[out->nsources++] = start;
    return start;
}

const Source *decl_source(const Compiler *c, const Decl *d)
{
    return d->src ? d->src : c->out->src;
}

/* Point diagnostics and new protos at the file a declaration came from. */
static void at_decl(Compiler *c, const Decl *d)
{
    c->src = decl_source(c, d);
    c->src_start = source_start(c, c->src);
}

SourceMark comp_enter_source(Compiler *c, const Source *src)
{
    SourceMark was = { c->src, c->src_start };
    if (src && src != c->src) {
        c->src = src;
        c->src_start = source_start(c, src);
    }
    return was;
}

void comp_leave_source(Compiler *c, SourceMark was)
{
    c->src = was.src;
    c->src_start = was.start;
}

/* What the messages of a '?' in sig's code call it: "procedure 'volley'". */
static const char *owner_text(const ProcSig *sig)
{
    static const char *const words[] = { [SIG_PROC] = "procedure", [SIG_TABLE] = "table", [SIG_BANDS] = "bands",
                                         [SIG_MODIFIERS] = "modifiers", [SIG_RECORD] = "record" };
    const char *word = sig->decl && sig->decl->kind == DECL_PROC && sig->decl->as.proc.odds != ODDS_NONE
                       ? "odds" : words[sig->kind];
    char *owner = mem_alloc_atomic(strlen(word) + strlen(sig->name) + 8);
    sprintf(owner, sig->kind == SIG_RECORD ? "%s %s" : "%s '%s'", word, sig->name);
    return owner;
}

static SigKind sig_kind(DeclKind k)
{
    switch (k) {
    case DECL_TABLE: return SIG_TABLE;
    case DECL_BANDS: return SIG_BANDS;
    case DECL_MODIFIERS: return SIG_MODIFIERS;
    case DECL_RECORD: return SIG_RECORD;
    default: return SIG_PROC;
    }
}

/* What draws from a bag depends on what the run drew before: a procedure
 * that rerolls cannot draw (a reroll would have to put the items back),
 * and the claim of a prob() inside a procedure cannot (its odds are worked
 * out with every bag full, which a procedure may no longer have). */
static void check_draws(Compiler *c)
{
    for (int i = 0; i < c->nprocs; i++) {
        const ProcSig *sig = &c->procs[i];
        const Proto *p = c->prog->protos[sig->proto];
        if (sig->kind == SIG_PROC && p->rerolls && p->draws) {
            at_decl(c, sig->decl);
            comp_error(c, sig->span, "'%s' rerolls and draws from a bag (itself or in a procedure it calls): "
                       "a reroll cannot put the items back; draw outside the procedure that rerolls", sig->name);
        }
        /* (a record's defaults are worked out where it is made, inside the run) */
        for (int k = 0; sig->kind != SIG_RECORD && k < sig->nparams && sig->decl && k < sig->decl->params.n; k++)
            if (sig->pdefault[k] >= 0 && c->prog->protos[sig->pdefault[k]]->draws) {
                at_decl(c, sig->decl);
                comp_error(c, sig->decl->params.items[k].span, "the default of '%s' draws from a bag: a default is "
                           "worked out on its own, before the procedure's run; draw in the procedure's body",
                           sig->pnames[k]);
            }
    }
    for (int i = 0; i < c->nclaims; i++) {
        const struct ClaimSite *cl = &c->claims[i];
        if (cl->in_example || !c->prog->protos[cl->proto]->draws)
            continue;
        c->src = cl->src;
        c->src_start = source_start(c, cl->src);
        comp_error(c, cl->span, "the odds of a claim that draws from a bag are worked out with every bag full, "
                   "which only an example can be sure of: ask prob() of it in an example, or 'muster prob'");
    }
}

Compiled *compiler_compile(const Module *m, Diag *diag)
{
    return compiler_compile_with(m, diag, NULL);
}

Compiled *compiler_compile_with(const Module *m, Diag *diag, StdlibLookup *stdlib)
{
    int errors_before = diag->errors;
    Compiled *out = mem_alloc(sizeof *out);
    out->src = m->src;
    out->module = m;
    Compiler c = { .diag = diag, .stdlib = stdlib, .src = m->src, .prog = chunk_program_new(), .out = out };
    out->prog = c.prog;
    c.src_start = source_start(&c, m->src);   /* the main file starts at 0 */

    /* types first, so declarations may use each other in any order */
    for (int i = 0; i < m->n; i++) {
        const Decl *d = m->decls[i];
        at_decl(&c, d);
        if (d->kind == DECL_ENUM)
            declare_enum(&c, d);
        else if (d->kind == DECL_RECORD)
            declare_record(&c, d);
    }
    /* then the dice, whose faces may be the enums' members */
    for (int i = 0; i < m->n; i++) {
        const Decl *d = m->decls[i];
        at_decl(&c, d);
        if (d->kind == DECL_DIE)
            comp_declare_die(&c, d);
        else if (d->kind == DECL_BAG)
            comp_declare_bag(&c, d);
    }
    int nenums = c.prog->nenums;
    c.field_tables = mem_alloc_atomic(sizeof(int) * (size_t)(nenums + 1));
    c.text_tables = mem_alloc_atomic(sizeof(int) * (size_t)(nenums + 1));
    c.outcome_fields = mem_alloc(sizeof(ParamList *) * (size_t)(nenums + 1));
    c.enum_decls = mem_alloc(sizeof(Decl *) * (size_t)(nenums + 1));
    for (int i = 0; i < nenums; i++)
        c.field_tables[i] = c.text_tables[i] = -1;
    for (int i = 0; i < m->n; i++) {
        const Decl *d = m->decls[i];
        at_decl(&c, d);
        if (d->kind != DECL_ENUM)
            continue;
        int id = comp_find_enum(&c, d->name);
        /* (a duplicate declaration was reported and has no enum of its own) */
        if (id < 0 || c.prog->enums[id].nmembers != d->as.enm.n
            || (d->as.enm.n && c.prog->enums[id].members[0] != d->as.enm.items[0].name))
            continue;
        c.enum_decls[id] = d;
        if (d->as.enm.flavour == ENUM_OUTCOME)
            comp_outcome_fields(&c, id, d);
    }
    /* then everything callable */
    for (int i = 0; i < m->n; i++) {
        const Decl *d = m->decls[i];
        at_decl(&c, d);
        switch (d->kind) {
        case DECL_PROC: case DECL_TABLE: case DECL_BANDS: case DECL_MODIFIERS: case DECL_RECORD:
            comp_declare_callable(&c, d, sig_kind(d->kind), &d->params, d->ret);
            break;
        default:
            break;
        }
    }
    int ncallables = c.nprocs;
    for (int i = 0; i < ncallables; i++) {
        at_decl(&c, c.procs[i].decl);
        declare_defaults(&c, &c.procs[i], &c.procs[i].decl->params);
    }
    for (int i = 0; i < ncallables; i++) {
        at_decl(&c, c.procs[i].decl);
        c.owner = owner_text(&c.procs[i]);
        compile_defaults(&c, &c.procs[i], &c.procs[i].decl->params);
    }
    for (int i = 0; i < ncallables; i++) {
        ProcSig *sig = &c.procs[i];
        at_decl(&c, sig->decl);
        c.owner = owner_text(sig);
        switch (sig->kind) {
        case SIG_PROC: compile_proc(&c, sig); break;
        case SIG_RECORD: compile_record(&c, sig); break;
        case SIG_TABLE: case SIG_BANDS: comp_table(&c, sig, sig->decl); break;
        case SIG_MODIFIERS: comp_modifiers(&c, sig, sig->decl); break;
        }
    }
    /* and what checks and describes the rules */
    for (int i = 0; i < m->n; i++) {
        const Decl *d = m->decls[i];
        at_decl(&c, d);
        switch (d->kind) {
        case DECL_EXAMPLE: {
            /* an imported file's examples are its own (`muster test` runs them
             * there); a variant's base's are run against the variant */
            char *owner = mem_alloc_atomic(strlen(d->name) + 16);
            sprintf(owner, "example \"%s\"", d->name);
            c.owner = owner;
            if (d->src == m->src || !d->src || d->of_base)
                comp_example(&c, d);
            break;
        }
        case DECL_SEQUENCE: comp_sequence(&c, d); break;
        case DECL_RULESET: comp_ruleset(&c, d); break;
        default: break;
        }
    }
    if (diag->errors > errors_before)
        return NULL;
    peephole_program(c.prog);
    chunk_mark_pure(c.prog);
    peephole_merges(c.prog);
    check_draws(&c);
    if (diag->errors > errors_before)
        return NULL;
    out->procs = c.procs;
    out->nprocs = c.nprocs;
    return out;
}

const ProcSig *compiler_find_proc(const Compiled *c, const char *name)
{
    for (int i = 0; i < c->nprocs; i++)
        if (strcmp(c->procs[i].name, name) == 0)
            return &c->procs[i];
    return NULL;
}

const Source *compiler_locate(const Compiled *c, uint32_t pos, uint32_t *offset)
{
    int lo = 0, hi = c->nsources - 1, found = -1;
    while (lo <= hi) {   /* the last file that starts at or before pos */
        int mid = lo + (hi - lo) / 2;
        if (c->source_start[mid] <= pos) {
            found = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    if (found < 0) {
        *offset = 0;
        return c->src;
    }
    *offset = pos - c->source_start[found];
    return c->sources[found];
}

const char *compiler_type_name(const Compiled *c, Type t)
{
    Compiler tmp = { .prog = c->prog };
    return comp_type_name(&tmp, t);
}
