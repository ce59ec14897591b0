/* compiler.c — name resolution, type checking and code generation. */
#include "config.h"
#include "compiler.h"
#include "names.h"
#include "mem.h"
#include "opcodes.h"

#include <stdarg.h>
#include <string.h>

#define MAX_SLOTS 255
#define MAX_CODE 65535
#define MAX_CONSTS 65535

typedef struct Local {
    const char *name;
    Span span;
    Type type;
    int slot;
    int scope;
    bool is_param;
} Local;

typedef struct FnState {
    ProcSig *sig;
    Proto *proto;
    Local locals[MAX_SLOTS + 1];
    int nlocals;
    int scope;
    int stack, max_stack;
    int next_slot, max_slot;
    bool too_big;            /* already reported */
} FnState;

typedef struct Compiler {
    Diag *diag;
    const Source *src;
    Program *prog;
    const Decl **enum_decls;
    ProcSig *procs;
    int nprocs;
    FnState *fn;
    Names proc_names;        /* name -> index in procs */
    Names enum_names;        /* name -> enum id */
    Names member_names;      /* member name -> the first enum that has it */
    Names member_shared;     /* member names found in more than one enum */
} Compiler;

static const Type T_ERR = { TY_ERROR, 0 }, T_INT = { TY_INT, 0 }, T_RAT = { TY_RAT, 0 },
                  T_BOOL = { TY_BOOL, 0 }, T_STR = { TY_STR, 0 }, T_POOL = { TY_POOL, 0 };
static const Type T_NONE = { TY_ERROR, -1 };   /* "no expectation" hint */

/* ---- diagnostics ---- */

__attribute__((format(printf, 3, 4)))
static void error(Compiler *c, Span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(c->diag, DIAG_ERROR, c->src, at, fmt, ap);
    va_end(ap);
}

__attribute__((format(printf, 3, 4)))
static void note(Compiler *c, Span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(c->diag, DIAG_NOTE, c->src, at, fmt, ap);
    va_end(ap);
}

/* ---- types ---- */

static const char *type_name(const Compiler *c, Type t)
{
    switch (t.kind) {
    case TY_INT: return "int";
    case TY_RAT: return "rat";
    case TY_BOOL: return "bool";
    case TY_STR: return "str";
    case TY_POOL: return "pool";
    case TY_ENUM: return c->prog->enums[t.enum_id].name;
    case TY_ERROR: break;
    }
    return "<error>";
}

static bool is_err(Type t) { return t.kind == TY_ERROR; }
static bool is_num(Type t) { return t.kind == TY_INT || t.kind == TY_RAT; }
static bool same(Type a, Type b) { return a.kind == b.kind && (a.kind != TY_ENUM || a.enum_id == b.enum_id); }
/* Can a value of type `from` be used where `to` is expected? */
static bool fits(Type to, Type from)
{
    return is_err(to) || is_err(from) || same(to, from) || (to.kind == TY_RAT && from.kind == TY_INT);
}

static int find_enum(const Compiler *c, const char *name)
{
    return names_get(&c->enum_names, name);
}

static int find_member(const Compiler *c, int enum_id, const char *name)
{
    const EnumDesc *e = &c->prog->enums[enum_id];
    for (int i = 0; i < e->nmembers; i++)
        if (strcmp(e->members[i], name) == 0)
            return i;
    return -1;
}

static ProcSig *find_proc(Compiler *c, const char *name)
{
    int i = names_get(&c->proc_names, name);
    return i >= 0 ? &c->procs[i] : NULL;
}

static bool resolve_type(Compiler *c, TypeRef ref, Type *out)
{
    static const struct { const char *name; TypeKind kind; } builtin[] = {
        { "int", TY_INT }, { "rat", TY_RAT }, { "bool", TY_BOOL }, { "str", TY_STR }, { "pool", TY_POOL },
    };
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
        if (strcmp(ref.name, builtin[i].name) == 0) {
            *out = (Type){ builtin[i].kind, 0 };
            return true;
        }
    int e = find_enum(c, ref.name);
    if (e >= 0) {
        *out = (Type){ TY_ENUM, e };
        return true;
    }
    error(c, ref.span, "unknown type '%s' (the types are int, rat, bool, str, pool and the enums declared in the script)",
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

static const char *const builtin_names[] = {
    "floor", "ceil", "round", "abs", "min", "max", "clamp",
    "count", "sum", "highest", "lowest", "any", "all", "doubles", NULL
};

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
        for (int i = 0; builtin_names[i]; i++)
            consider(&s, builtin_names[i]);
    }
    return s.best;
}

/* ---- emitting ---- */

static void emit_byte(Compiler *c, uint8_t b, Span at)
{
    FnState *fn = c->fn;
    if (fn->proto->len >= MAX_CODE) {
        if (!fn->too_big)
            error(c, fn->sig->span, "procedure '%s' is too long to compile (over %d bytes of code); split it up",
                  fn->sig->name, MAX_CODE);
        fn->too_big = true;
        return;
    }
    chunk_emit(fn->proto, b, at.begin);
}

static void adjust_stack(Compiler *c, int effect)
{
    FnState *fn = c->fn;
    fn->stack += effect;
    if (fn->stack > fn->max_stack)
        fn->max_stack = fn->stack;
}

static void emit_op(Compiler *c, OpCode op, Span at)
{
    emit_byte(c, (uint8_t)op, at);
    adjust_stack(c, op_info[op].stack_effect);
}

static void emit_u16(Compiler *c, unsigned v, Span at)
{
    emit_byte(c, (uint8_t)(v & 0xff), at);
    emit_byte(c, (uint8_t)(v >> 8), at);
}

static void emit_const(Compiler *c, Value v, Span at)
{
    if (c->fn->proto->nconsts >= MAX_CONSTS) {
        error(c, at, "too many constants in one procedure");
        return;
    }
    emit_op(c, OP_CONST, at);
    emit_u16(c, (unsigned)chunk_const(c->fn->proto, v), at);
}

static int emit_jump(Compiler *c, OpCode op, Span at)
{
    emit_op(c, op, at);
    int pos = c->fn->proto->len;
    emit_u16(c, 0xffff, at);
    return pos;
}

static void patch_jump(Compiler *c, int pos)
{
    Proto *p = c->fn->proto;
    if (c->fn->too_big)
        return;
    int dist = p->len - (pos + 2);
    p->code[pos] = (uint8_t)(dist & 0xff);
    p->code[pos + 1] = (uint8_t)(dist >> 8);
}

/* ---- locals ---- */

static Local *find_local(Compiler *c, const char *name)
{
    FnState *fn = c->fn;
    if (!fn)
        return NULL;
    for (int i = fn->nlocals - 1; i >= 0; i--)
        if (strcmp(fn->locals[i].name, name) == 0)
            return &fn->locals[i];
    return NULL;
}

static Local *add_local(Compiler *c, const char *name, Span span, Type type, bool is_param)
{
    FnState *fn = c->fn;
    for (int i = fn->nlocals - 1; *name && i >= 0 && fn->locals[i].scope == fn->scope; i--)
        if (strcmp(fn->locals[i].name, name) == 0) {
            error(c, span, "'%s' is already defined in this block", name);
            note(c, fn->locals[i].span, "'%s' was defined here", name);
            return NULL;
        }
    if (fn->nlocals >= MAX_SLOTS || fn->next_slot >= MAX_SLOTS) {
        error(c, span, "too many local names in one procedure (the limit is %d)", MAX_SLOTS);
        return NULL;
    }
    Local *l = &fn->locals[fn->nlocals++];
    *l = (Local){ name, span, type, fn->next_slot++, fn->scope, is_param };
    if (fn->next_slot > fn->max_slot)
        fn->max_slot = fn->next_slot;
    return l;
}

/* A hidden temporary slot (for reordering named arguments); its empty name
 * can never be looked up or clash. */
static int add_temp(Compiler *c, Span at)
{
    Local *l = add_local(c, "", at, T_ERR, false);
    return l ? l->slot : 0;
}

static void begin_scope(Compiler *c) { c->fn->scope++; }

static void end_scope(Compiler *c)
{
    FnState *fn = c->fn;
    while (fn->nlocals > 0 && fn->locals[fn->nlocals - 1].scope == fn->scope) {
        fn->nlocals--;
        fn->next_slot--;
    }
    fn->scope--;
}

/* ---- expressions ---- */

static Type expr(Compiler *c, const Expr *e, Type hint);

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
    if (e->kind == EX_MEMBER) {
        int id = find_enum(c, e->as.member.type);
        if (id >= 0)
            return (Type){ TY_ENUM, id };
    } else if (e->kind == EX_NAME) {
        Local *l = find_local(c, e->as.name);
        if (l && l->type.kind == TY_ENUM)
            return l->type;
    }
    return T_NONE;
}

static Type binary(Compiler *c, const Expr *e, Type hint)
{
    Operator op = e->as.binary.op;
    const Expr *l = e->as.binary.left, *r = e->as.binary.right;

    if (op == OPR_AND || op == OPR_OR) {
        Type lt = expr(c, l, T_BOOL);
        if (!fits(T_BOOL, lt))
            error(c, l->span, "'%s' needs bool operands, not %s", ast_operator_text[op], type_name(c, lt));
        int j = emit_jump(c, op == OPR_AND ? OP_AND_JUMP : OP_OR_JUMP, e->span);
        adjust_stack(c, -1);   /* the operand is popped on the fall-through path */
        Type rt = expr(c, r, T_BOOL);
        if (!fits(T_BOOL, rt))
            error(c, r->span, "'%s' needs bool operands, not %s", ast_operator_text[op], type_name(c, rt));
        patch_jump(c, j);
        return T_BOOL;
    }

    Type lt = expr(c, l, is_cmp(op) ? enum_of(c, r) : hint);
    Type rt = expr(c, r, lt.kind == TY_ENUM ? lt : T_NONE);
    if (is_err(lt) || is_err(rt)) {
        emit_op(c, OP_POP, e->span);
        return is_cmp(op) ? T_BOOL : T_ERR;
    }

    if (is_cmp(op)) {
        CmpOp cmp = cmp_of(op);
        if (lt.kind == TY_POOL && is_num(rt)) {
            emit_op(c, OP_FILTER, e->as.binary.op_span);
            emit_byte(c, (uint8_t)cmp, e->as.binary.op_span);
            return T_POOL;
        }
        if (is_num(lt) && rt.kind == TY_POOL) {
            error(c, e->span, "write the pool first when filtering dice, as in 'p %s x'", cmp_op_text[cmp_flip(cmp)]);
            return T_ERR;
        }
        bool ok;
        if (is_num(lt) && is_num(rt))
            ok = true;
        else if (lt.kind == TY_ENUM && same(lt, rt))
            ok = true;   /* enums are ordered */
        else if ((lt.kind == TY_BOOL || lt.kind == TY_STR) && same(lt, rt))
            ok = cmp == CMP_EQ || cmp == CMP_NE;
        else
            ok = false;
        if (!ok) {
            if (lt.kind == TY_POOL || rt.kind == TY_POOL)
                error(c, e->span, "cannot compare %s with %s (a pool compared with a number filters its dice)",
                      type_name(c, lt), type_name(c, rt));
            else if (same(lt, rt))
                error(c, e->span, "%s values can only be compared with == and !=", type_name(c, lt));
            else
                error(c, e->span, "cannot compare %s with %s", type_name(c, lt), type_name(c, rt));
            return T_BOOL;
        }
        emit_op(c, (OpCode)(OP_EQ + cmp), e->as.binary.op_span);
        return T_BOOL;
    }

    /* arithmetic */
    if (op == OPR_ADD && lt.kind == TY_STR && rt.kind == TY_STR) {
        emit_op(c, OP_ADD, e->as.binary.op_span);
        return T_STR;
    }
    if (!is_num(lt) || !is_num(rt)) {
        Type bad = is_num(lt) ? rt : lt;
        error(c, is_num(lt) ? r->span : l->span, "'%s' needs numbers, not %s%s%s", ast_operator_text[op],
              type_name(c, bad), bad.kind == TY_POOL ? ": " : "", bad.kind == TY_POOL ? pool_hint : "");
        return T_ERR;
    }
    static const OpCode ops[] = { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD };
    if (op == OPR_MOD && (lt.kind != TY_INT || rt.kind != TY_INT)) {
        error(c, e->span, "'%%' needs two ints (round a rational first with floor, ceil or round)");
        return T_ERR;
    }
    emit_op(c, ops[op - OPR_ADD], e->as.binary.op_span);
    if (op == OPR_DIV)
        return T_RAT;
    return lt.kind == TY_RAT || rt.kind == TY_RAT ? T_RAT : T_INT;
}

static Type name_expr(Compiler *c, const Expr *e, Type hint)
{
    const char *name = e->as.name;
    Local *l = find_local(c, name);
    if (l) {
        emit_op(c, OP_LOAD, e->span);
        emit_byte(c, (uint8_t)l->slot, e->span);
        return l->type;
    }
    if (hint.kind == TY_ENUM) {
        int m = find_member(c, hint.enum_id, name);
        if (m >= 0) {
            emit_const(c, val_enum(hint.enum_id, m), e->span);
            return hint;
        }
    }
    int found_enum = names_get(&c->member_names, name);
    int found_member = found_enum >= 0 ? find_member(c, found_enum, name) : -1;
    int matches = found_enum < 0 ? 0 : names_get(&c->member_shared, name) >= 0 ? 2 : 1;
    if (matches == 1) {
        emit_const(c, val_enum(found_enum, found_member), e->span);
        return (Type){ TY_ENUM, found_enum };
    }
    if (matches > 1) {
        error(c, e->span, "'%s' is a member of more than one enum; write it as %s.%s (or another enum's name)",
              name, c->prog->enums[found_enum].name, name);
        return T_ERR;
    }
    if (find_proc(c, name))
        error(c, e->span, "'%s' is a procedure; call it with %s(...)", name, name);
    else if (find_enum(c, name) >= 0)
        error(c, e->span, "'%s' is an enum type, not a value; name a member, as in %s.%s", name, name,
              c->prog->enums[find_enum(c, name)].nmembers ? c->prog->enums[find_enum(c, name)].members[0] : "x");
    else if (hint.kind == TY_ENUM) {
        const EnumDesc *en = &c->prog->enums[hint.enum_id];
        char list[256];
        size_t len = 0;
        list[0] = '\0';
        for (int i = 0; i < en->nmembers && len < sizeof list - 8; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", en->members[i]);
        error(c, e->span, "unknown name '%s': %s has no such member (its members are %s)", name, en->name, list);
    } else {
        const char *s = suggest_name(c, name, true, false);
        if (s)
            error(c, e->span, "unknown name '%s'; did you mean '%s'?", name, s);
        else
            error(c, e->span, "unknown name '%s'", name);
    }
    return T_ERR;
}

static Type member_expr(Compiler *c, const Expr *e)
{
    int id = find_enum(c, e->as.member.type);
    if (id < 0) {
        error(c, e->span, "unknown enum '%s'", e->as.member.type);
        return T_ERR;
    }
    int m = find_member(c, id, e->as.member.member);
    if (m < 0) {
        error(c, e->span, "enum %s has no member '%s'", e->as.member.type, e->as.member.member);
        return T_ERR;
    }
    emit_const(c, val_enum(id, m), e->span);
    return (Type){ TY_ENUM, id };
}

/* ---- calls ---- */

static bool no_named_args(Compiler *c, const Expr *e)
{
    for (int i = 0; i < e->as.call.nargs; i++)
        if (e->as.call.args[i].name) {
            error(c, e->as.call.args[i].name_span, "built-in function '%s' takes no named arguments",
                  e->as.call.callee);
            return false;
        }
    return true;
}

static bool arity(Compiler *c, const Expr *e, int lo, int hi, const char *usage)
{
    int n = e->as.call.nargs;
    if (n < lo || n > hi) {
        error(c, e->span, "wrong number of arguments to %s: %d given; use %s", e->as.call.callee, n, usage);
        return false;
    }
    return true;
}

static Type arg_expect(Compiler *c, const Expr *e, int i, TypeKind kind, const char *what)
{
    const Expr *a = e->as.call.args[i].value;
    Type t = expr(c, a, T_NONE);
    bool ok = kind == TY_RAT ? (is_num(t) || is_err(t)) : (t.kind == kind || is_err(t));
    if (!ok)
        error(c, a->span, "%s() needs %s here, not %s%s%s", e->as.call.callee, what, type_name(c, t),
              t.kind == TY_POOL ? ": " : "", t.kind == TY_POOL ? pool_hint : "");
    return ok ? t : T_ERR;
}

static Type call_builtin(Compiler *c, const Expr *e, bool *handled)
{
    const char *f = e->as.call.callee;
    *handled = true;
    Span at = e->span;
    if (!strcmp(f, "floor") || !strcmp(f, "ceil") || !strcmp(f, "round")) {
        if (!no_named_args(c, e) || !arity(c, e, 1, 1, "one number"))
            return T_INT;
        arg_expect(c, e, 0, TY_RAT, "a number");
        emit_op(c, f[0] == 'f' ? OP_FLOOR : f[0] == 'c' ? OP_CEIL : OP_ROUND, at);
        return T_INT;
    }
    if (!strcmp(f, "abs")) {
        if (!no_named_args(c, e) || !arity(c, e, 1, 1, "abs(x)"))
            return T_ERR;
        Type t = arg_expect(c, e, 0, TY_RAT, "a number");
        emit_op(c, OP_ABS, at);
        return t;
    }
    if (!strcmp(f, "min") || !strcmp(f, "max") || !strcmp(f, "clamp")) {
        bool clamp = f[1] == 'l';
        if (!no_named_args(c, e) || !arity(c, e, clamp ? 3 : 2, clamp ? 3 : 64, clamp ? "clamp(x, low, high)" : "two or more numbers"))
            return T_ERR;
        Type result = T_INT;
        for (int i = 0; i < e->as.call.nargs; i++) {
            Type t = arg_expect(c, e, i, TY_RAT, "numbers");
            if (t.kind == TY_RAT)
                result = T_RAT;
            if (is_err(t))
                result = T_ERR;
            if (clamp && i == 1)
                emit_op(c, OP_MAX, at);
            else if (clamp && i == 2)
                emit_op(c, OP_MIN, at);
            else if (!clamp && i > 0)
                emit_op(c, f[1] == 'i' ? OP_MIN : OP_MAX, at);
        }
        return result;
    }
    if (!strcmp(f, "count") || !strcmp(f, "sum")) {
        if (!no_named_args(c, e) || !arity(c, e, 1, 1, "one pool"))
            return T_INT;
        arg_expect(c, e, 0, TY_POOL, "a pool");
        emit_op(c, f[0] == 'c' ? OP_COUNT : OP_SUM, at);
        return T_INT;
    }
    if (!strcmp(f, "highest") || !strcmp(f, "lowest")) {
        bool hi = f[0] == 'h';
        if (!no_named_args(c, e) || !arity(c, e, 1, 2, hi ? "highest(p) or highest(n, p)" : "lowest(p) or lowest(n, p)"))
            return T_ERR;
        if (e->as.call.nargs == 1) {
            arg_expect(c, e, 0, TY_POOL, "a pool");
            emit_op(c, hi ? OP_HIGHEST : OP_LOWEST, at);
            return T_INT;
        }
        const Expr *first = e->as.call.args[0].value;
        Type t0 = expr(c, first, T_INT);
        if (t0.kind == TY_POOL)
            error(c, first->span, "%s(n, p) takes the number of dice first and the pool second", f);
        else if (t0.kind != TY_INT && !is_err(t0))
            error(c, first->span, "%s() needs a number of dice (an int) here, not %s", f, type_name(c, t0));
        arg_expect(c, e, 1, TY_POOL, "a pool");
        emit_op(c, hi ? OP_HIGHEST_N : OP_LOWEST_N, at);
        return T_POOL;
    }
    if (!strcmp(f, "any") || !strcmp(f, "all")) {
        bool any = f[1] == 'n';
        if (!no_named_args(c, e) || !arity(c, e, 1, 1, any ? "any(p == 6) or any(p)" : "all(p == 1)"))
            return T_BOOL;
        const Expr *a = e->as.call.args[0].value;
        if (a->kind == EX_BINARY && is_cmp(a->as.binary.op)) {
            /* any(p OP x) / all(p OP x): ask the pool directly, no filtered pool is built */
            Type lt = expr(c, a->as.binary.left, T_NONE);
            if (lt.kind == TY_POOL) {
                Type rt = expr(c, a->as.binary.right, T_INT);
                if (!is_num(rt) && !is_err(rt))
                    error(c, a->as.binary.right->span, "a pool's dice are compared with a number, not %s",
                          type_name(c, rt));
                emit_op(c, any ? OP_ANY : OP_ALL, at);
                emit_byte(c, (uint8_t)cmp_of(a->as.binary.op), at);
                return T_BOOL;
            }
            if (!is_err(lt))
                error(c, a->span, "%s() needs a comparison of a pool's dice with the pool first, as in %s(p %s 6)",
                      f, f, any ? ">=" : "==");
            return T_BOOL;
        }
        Type t = expr(c, a, T_NONE);
        if (any && t.kind == TY_POOL) {
            /* any(p): does the pool have dice at all? */
            emit_op(c, OP_COUNT, at);
            emit_const(c, val_int(0), at);
            emit_op(c, OP_GT, at);
        } else if (!is_err(t)) {
            error(c, a->span, "%s() needs a comparison of a pool's dice, as in %s(p %s 6)", f, f, any ? ">=" : "==");
        }
        return T_BOOL;
    }
    if (!strcmp(f, "doubles")) {
        if (!no_named_args(c, e) || !arity(c, e, 1, 1, "one pool"))
            return T_BOOL;
        arg_expect(c, e, 0, TY_POOL, "a pool");
        emit_op(c, OP_DOUBLES, at);
        return T_BOOL;
    }
    *handled = false;
    return T_ERR;
}

static void emit_call(Compiler *c, int proto, int argc, Span at)
{
    emit_op(c, OP_CALL, at);
    emit_u16(c, (unsigned)proto, at);
    emit_byte(c, (uint8_t)argc, at);
    adjust_stack(c, 1 - argc);
}

static Type call_proc(Compiler *c, const Expr *e, ProcSig *sig)
{
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
                error(c, args[i].name_span, "'%s' has no parameter named '%s'", sig->name, args[i].name);
                ok = false;
                continue;
            }
        } else {
            if (seen_named) {
                error(c, args[i].value->span, "a positional argument cannot follow named ones");
                ok = false;
                continue;
            }
            p = next_pos++;
            if (p >= sig->nparams) {
                error(c, args[i].value->span, "too many arguments: '%s' takes %d", sig->name, sig->nparams);
                ok = false;
                break;
            }
        }
        if (slot_of_param[p] >= 0) {
            error(c, args[i].name ? args[i].name_span : args[i].value->span,
                  "parameter '%s' of '%s' is given twice", sig->pnames[p], sig->name);
            ok = false;
            continue;
        }
        slot_of_param[p] = i;
    }
    for (int p = 0; p < sig->nparams && ok; p++)
        if (slot_of_param[p] < 0 && sig->pdefault[p] < 0) {
            error(c, e->span, "missing argument '%s' (%s) in call to '%s'", sig->pnames[p],
                  type_name(c, sig->ptypes[p]), sig->name);
            note(c, sig->span, "'%s' is declared here", sig->name);
            ok = false;
        }
    if (!ok) {
        /* still check the arguments themselves for errors */
        for (int i = 0; i < n; i++) {
            expr(c, args[i].value, T_NONE);
            emit_op(c, OP_POP, e->span);
        }
        emit_const(c, val_int(0), e->span);
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
        begin_scope(c);
        for (int i = 0; i < n; i++) {
            int p;
            for (p = 0; p < sig->nparams && slot_of_param[p] != i; p++)
                ;
            Type t = expr(c, args[i].value, sig->ptypes[p]);
            if (!fits(sig->ptypes[p], t))
                error(c, args[i].value->span, "argument '%s' of '%s' must be %s, not %s", sig->pnames[p],
                      sig->name, type_name(c, sig->ptypes[p]), type_name(c, t));
            temps[p] = add_temp(c, args[i].value->span);
            emit_op(c, OP_STORE, args[i].value->span);
            emit_byte(c, (uint8_t)temps[p], args[i].value->span);
        }
    }
    for (int p = 0; p < sig->nparams; p++) {
        int i = slot_of_param[p];
        if (i < 0) {
            emit_call(c, sig->pdefault[p], 0, e->span);
        } else if (!in_order) {
            emit_op(c, OP_LOAD, args[i].value->span);
            emit_byte(c, (uint8_t)temps[p], args[i].value->span);
        } else {
            Type t = expr(c, args[i].value, sig->ptypes[p]);
            if (!fits(sig->ptypes[p], t))
                error(c, args[i].value->span, "argument '%s' of '%s' must be %s, not %s", sig->pnames[p],
                      sig->name, type_name(c, sig->ptypes[p]), type_name(c, t));
        }
    }
    if (!in_order)
        end_scope(c);
    emit_call(c, sig->proto, sig->nparams, e->span);
    return sig->ret;
}

static Type call(Compiler *c, const Expr *e)
{
    bool handled;
    Type t = call_builtin(c, e, &handled);
    if (handled)
        return t;
    ProcSig *sig = find_proc(c, e->as.call.callee);
    if (sig)
        return call_proc(c, e, sig);
    const char *s = suggest_name(c, e->as.call.callee, false, true);
    if (find_local(c, e->as.call.callee))
        error(c, e->as.call.callee_span, "'%s' is a value, not a procedure", e->as.call.callee);
    else if (s)
        error(c, e->as.call.callee_span, "unknown procedure '%s'; did you mean '%s'?", e->as.call.callee, s);
    else
        error(c, e->as.call.callee_span, "unknown procedure '%s'", e->as.call.callee);
    for (int i = 0; i < e->as.call.nargs; i++) {
        expr(c, e->as.call.args[i].value, T_NONE);
        emit_op(c, OP_POP, e->span);
    }
    emit_const(c, val_int(0), e->span);
    return T_ERR;
}

static Type roll(Compiler *c, const Expr *e)
{
    if (!e->as.roll.count) {
        emit_const(c, val_int(e->as.roll.sides), e->span);
        emit_op(c, OP_ROLL, e->span);
        return T_INT;
    }
    Type t = expr(c, e->as.roll.count, T_INT);
    if (t.kind != TY_INT && !is_err(t))
        error(c, e->as.roll.count->span, "the number of dice must be an int, not %s%s", type_name(c, t),
              t.kind == TY_RAT ? " (round it with floor, ceil or round)" : "");
    emit_const(c, val_int(e->as.roll.sides), e->span);
    emit_op(c, OP_ROLL_POOL, e->span);
    return T_POOL;
}

static Type expr(Compiler *c, const Expr *e, Type hint)
{
    switch (e->kind) {
    case EX_INT:
        emit_const(c, val_int(e->as.i), e->span);
        return T_INT;
    case EX_BOOL:
        emit_op(c, e->as.b ? OP_TRUE : OP_FALSE, e->span);
        return T_BOOL;
    case EX_STR:
        emit_const(c, val_str(val_new_str(e->as.str.bytes, e->as.str.len)), e->span);
        return T_STR;
    case EX_NAME:
        return name_expr(c, e, hint);
    case EX_MEMBER:
        return member_expr(c, e);
    case EX_UNARY: {
        Type t = expr(c, e->as.unary.operand, e->as.unary.op == OPR_NOT ? T_BOOL : T_NONE);
        if (e->as.unary.op == OPR_NOT) {
            if (!fits(T_BOOL, t))
                error(c, e->as.unary.operand->span, "'not' needs a bool, not %s", type_name(c, t));
            emit_op(c, OP_NOT, e->span);
            return T_BOOL;
        }
        if (!is_num(t) && !is_err(t)) {
            error(c, e->as.unary.operand->span, "cannot negate %s", type_name(c, t));
            return T_ERR;
        }
        emit_op(c, OP_NEG, e->span);
        return t;
    }
    case EX_BINARY:
        return binary(c, e, hint);
    case EX_CALL:
        return call(c, e);
    case EX_ROLL:
        return roll(c, e);
    case EX_ERROR:
        emit_const(c, val_int(0), e->span);
        return T_ERR;
    }
    return T_ERR;
}

/* ---- statements ---- */

/* Compile a list; returns whether it always ends in return or reroll. */
static bool block(Compiler *c, const StmtList *list);

static bool stmt(Compiler *c, const Stmt *s)
{
    FnState *fn = c->fn;
    switch (s->kind) {
    case ST_LET: {
        Type want = T_NONE;
        bool typed = s->as.let.type.name != NULL;
        if (typed && !resolve_type(c, s->as.let.type, &want))
            want = T_ERR;
        Type t = expr(c, s->as.let.value, want);
        if (typed && !fits(want, t))
            error(c, s->as.let.value->span, "'%s' is declared %s but given %s", s->as.let.name,
                  type_name(c, want), type_name(c, t));
        Local *l = add_local(c, s->as.let.name, s->as.let.name_span, typed ? want : t, false);
        emit_op(c, OP_STORE, s->span);
        emit_byte(c, (uint8_t)(l ? l->slot : 0), s->span);
        return false;
    }
    case ST_ASSIGN: {
        Local *l = find_local(c, s->as.let.name);
        Type t = expr(c, s->as.let.value, l ? l->type : T_NONE);
        if (!l) {
            error(c, s->as.let.name_span, "'%s' is not defined; introduce it with 'let %s = ...'",
                  s->as.let.name, s->as.let.name);
        } else if (l->is_param) {
            error(c, s->as.let.name_span, "parameters cannot be changed; use 'let' for a new name");
        } else if (!fits(l->type, t)) {
            error(c, s->as.let.value->span, "'%s' is %s and cannot be given %s", l->name,
                  type_name(c, l->type), type_name(c, t));
        }
        emit_op(c, OP_STORE, s->span);
        emit_byte(c, (uint8_t)(l ? l->slot : 0), s->span);
        return false;
    }
    case ST_RETURN: {
        Type want = fn->sig->ret;
        Type t = expr(c, s->as.ret, want);
        if (!fits(want, t))
            error(c, s->as.ret->span, "'%s' returns %s, but this is %s", fn->sig->name,
                  type_name(c, want), type_name(c, t));
        emit_op(c, OP_RETURN, s->span);
        fn->stack = 0;
        return true;
    }
    case ST_REROLL:
        emit_op(c, OP_REROLL, s->span);
        return true;
    case ST_IF: {
        Type t = expr(c, s->as.if_.cond, T_BOOL);
        if (!fits(T_BOOL, t))
            error(c, s->as.if_.cond->span, "an 'if' condition must be bool, not %s%s", type_name(c, t),
                  t.kind == TY_POOL ? " (any(p >= 4) asks whether some die is 4 or more)" : "");
        int skip = emit_jump(c, OP_JUMP_FALSE, s->as.if_.cond->span);
        begin_scope(c);
        bool then_ends = block(c, &s->as.if_.then);
        end_scope(c);
        if (!s->as.if_.has_else) {
            patch_jump(c, skip);
            return false;
        }
        int over = then_ends ? -1 : emit_jump(c, OP_JUMP, s->as.if_.else_span);
        patch_jump(c, skip);
        begin_scope(c);
        bool else_ends = block(c, &s->as.if_.els);
        end_scope(c);
        if (over >= 0)
            patch_jump(c, over);
        return then_ends && else_ends;
    }
    }
    return false;
}

static bool block(Compiler *c, const StmtList *list)
{
    bool ends = false;
    for (int i = 0; i < list->n; i++) {
        if (ends) {
            error(c, list->items[i]->span, "this statement can never run: the one before it always returns or rerolls");
            break;
        }
        ends = stmt(c, list->items[i]);
    }
    return ends;
}

/* ---- declarations ---- */

static Proto *begin_fn(Compiler *c, FnState *fn, ProcSig *sig, const char *name, Span at)
{
    memset(fn, 0, sizeof *fn);
    fn->sig = sig;
    fn->proto = c->prog->protos[sig ? sig->proto : c->prog->nprotos - 1];
    (void)name;
    (void)at;
    c->fn = fn;
    return fn->proto;
}

static void end_fn(Compiler *c, FnState *fn)
{
    fn->proto->nlocals = fn->max_slot;
    fn->proto->max_stack = fn->max_stack + 1;
    c->fn = NULL;
}

static void declare_enum(Compiler *c, const Decl *d)
{
    if (find_enum(c, d->name) >= 0) {
        error(c, d->name_span, "enum '%s' is declared twice", d->name);
        return;
    }
    if (d->as.enm.n == 0)
        error(c, d->name_span, "enum '%s' has no members", d->name);
    Program *prog = c->prog;
    if (prog->nenums == prog->enums_cap) {
        int cap = prog->enums_cap ? prog->enums_cap * 2 : 8;
        prog->enums = mem_realloc(prog->enums, sizeof(EnumDesc) * (size_t)prog->enums_cap,
                                  sizeof(EnumDesc) * (size_t)cap, 0);
        prog->enums_cap = cap;
    }
    for (int i = 0; i < d->as.enm.n; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(d->as.enm.members[i], d->as.enm.members[j]) == 0)
                error(c, d->as.enm.spans[i], "'%s' is listed twice in enum %s", d->as.enm.members[i], d->name);
    int id = prog->nenums;
    prog->enums[prog->nenums++] = (EnumDesc){ d->name, d->as.enm.n, d->as.enm.members };
    names_put(&c->enum_names, d->name, id);
    for (int i = 0; i < d->as.enm.n; i++) {
        int first = names_get(&c->member_names, d->as.enm.members[i]);
        if (first < 0)
            names_put(&c->member_names, d->as.enm.members[i], id);
        else if (first != id)
            names_put(&c->member_shared, d->as.enm.members[i], 1);
    }
}

static bool is_builtin_name(const char *name)
{
    for (int i = 0; builtin_names[i]; i++)
        if (strcmp(builtin_names[i], name) == 0)
            return true;
    return false;
}

static bool is_type_name(const char *name)
{
    return !strcmp(name, "int") || !strcmp(name, "rat") || !strcmp(name, "bool") || !strcmp(name, "str")
           || !strcmp(name, "pool");
}

static void declare_proc(Compiler *c, const Decl *d, int *cap)
{
    if (is_builtin_name(d->name)) {
        error(c, d->name_span, "'%s' is a built-in function; choose another name", d->name);
        return;
    }
    if (find_proc(c, d->name)) {
        error(c, d->name_span, "procedure '%s' is declared twice", d->name);
        note(c, find_proc(c, d->name)->span, "the first '%s' is here", d->name);
        return;
    }
    if (find_enum(c, d->name) >= 0) {
        error(c, d->name_span, "'%s' is already the name of an enum", d->name);
        return;
    }
    if (c->nprocs == *cap) {
        int ncap = *cap ? *cap * 2 : 16;
        c->procs = mem_realloc(c->procs, sizeof(ProcSig) * (size_t)*cap, sizeof(ProcSig) * (size_t)ncap, 0);
        *cap = ncap;
    }
    names_put(&c->proc_names, d->name, c->nprocs);
    ProcSig *sig = &c->procs[c->nprocs++];
    int np = d->as.proc.nparams;
    sig->name = d->name;
    sig->span = d->name_span;
    sig->decl = d;
    sig->nparams = np;
    sig->pnames = mem_alloc(sizeof(char *) * (size_t)(np + 1));
    sig->ptypes = mem_alloc(sizeof(Type) * (size_t)(np + 1));
    sig->pdefault = mem_alloc_atomic(sizeof(int) * (size_t)(np + 1));
    if (np > 64)
        error(c, d->name_span, "'%s' has %d parameters; the limit is 64", d->name, np);
    for (int i = 0; i < np; i++) {
        const Param *p = &d->as.proc.params[i];
        sig->pnames[i] = p->name;
        sig->pdefault[i] = -1;
        for (int j = 0; j < i; j++)
            if (strcmp(p->name, sig->pnames[j]) == 0)
                error(c, p->span, "parameter '%s' is listed twice", p->name);
        resolve_type(c, p->type, &sig->ptypes[i]);
    }
    if (!d->as.proc.ret.name) {
        error(c, d->name_span, "procedure '%s' needs a result type, as in 'proc %s(...) -> int'", d->name, d->name);
        sig->ret = T_ERR;
    } else {
        resolve_type(c, d->as.proc.ret, &sig->ret);
    }
    Proto *proto = chunk_proto_new(c->prog, d->name, 0, d->name_span.begin);
    sig->proto = c->prog->nprotos - 1;
    proto->nparams = np;
    proto->param_names = sig->pnames;
}

/* Each default value becomes a tiny procedure of no arguments, so a call
 * site and the command line get it the same way. */
static void compile_defaults(Compiler *c, ProcSig *sig)
{
    const Decl *d = sig->decl;
    for (int i = 0; i < sig->nparams; i++) {
        const Param *p = &d->as.proc.params[i];
        if (!p->deflt)
            continue;
        size_t len = strlen(sig->name) + strlen(p->name) + 32;
        char *name = mem_alloc_atomic(len);
        snprintf(name, len, "%s(%s: default)", sig->name, p->name);
        chunk_proto_new(c->prog, name, 0, p->deflt->span.begin)->hidden = true;
        sig->pdefault[i] = c->prog->nprotos - 1;
        ProcSig tmp = { .name = name, .proto = sig->pdefault[i], .ret = sig->ptypes[i], .span = p->span };
        FnState fn;
        begin_fn(c, &fn, &tmp, name, p->span);
        Type t = expr(c, p->deflt, sig->ptypes[i]);
        if (!fits(sig->ptypes[i], t))
            error(c, p->deflt->span, "the default of '%s' must be %s, not %s", p->name,
                  type_name(c, sig->ptypes[i]), type_name(c, t));
        emit_op(c, OP_RETURN, p->deflt->span);
        end_fn(c, &fn);
    }
}

static void compile_proc(Compiler *c, ProcSig *sig)
{
    const Decl *d = sig->decl;
    FnState *fn = mem_alloc(sizeof *fn);
    begin_fn(c, fn, sig, sig->name, d->name_span);
    for (int i = 0; i < sig->nparams; i++) {
        bool dup = false;   /* a repeated parameter was reported when declared */
        for (int j = 0; j < i; j++)
            dup |= strcmp(sig->pnames[i], sig->pnames[j]) == 0;
        if (!dup)
            add_local(c, sig->pnames[i], d->as.proc.params[i].span, sig->ptypes[i], true);
    }
    fn->scope = 1;
    bool ends = block(c, &d->as.proc.body);
    if (!ends && !is_err(sig->ret))
        error(c, d->as.proc.body_end, "'%s' can reach its end without returning a value (it must return %s on every path)",
              sig->name, type_name(c, sig->ret));
    if (!ends) {
        /* unreachable in a correct program; keeps the bytecode well formed */
        emit_const(c, val_int(0), d->as.proc.body_end);
        emit_op(c, OP_RETURN, d->as.proc.body_end);
    }
    end_fn(c, fn);
}

Compiled *compiler_compile(const Module *m, Diag *diag)
{
    int errors_before = diag->errors;
    Compiler c = { .diag = diag, .src = m->src, .prog = chunk_program_new() };
    int cap = 0;
    for (int i = 0; i < m->n; i++)
        if (m->decls[i]->kind == DECL_ENUM) {
            const Decl *d = m->decls[i];
            if (is_type_name(d->name))
                error(&c, d->name_span, "'%s' is a built-in type; choose another name", d->name);
            else
                declare_enum(&c, d);
        }
    for (int i = 0; i < m->n; i++)
        if (m->decls[i]->kind == DECL_PROC)
            declare_proc(&c, m->decls[i], &cap);
    int nuser = c.nprocs;
    for (int i = 0; i < nuser; i++)
        compile_defaults(&c, &c.procs[i]);
    for (int i = 0; i < nuser; i++)
        compile_proc(&c, &c.procs[i]);
    if (diag->errors > errors_before)
        return NULL;
    Compiled *out = mem_alloc(sizeof *out);
    out->prog = c.prog;
    out->src = m->src;
    out->procs = c.procs;
    out->nprocs = nuser;
    return out;
}

const ProcSig *compiler_find_proc(const Compiled *c, const char *name)
{
    for (int i = 0; i < c->nprocs; i++)
        if (strcmp(c->procs[i].name, name) == 0)
            return &c->procs[i];
    return NULL;
}

const char *compiler_type_name(const Compiled *c, Type t)
{
    Compiler tmp = { .prog = c->prog };
    return type_name(&tmp, t);
}
