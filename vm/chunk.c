/* chunk.c — building protos and programs, and the disassembler.
 *
 * Besides emitting bytes and constants: a table added to a program is
 * indexed for the VM (a direct array over a span of at most 1024 keys,
 * else binary search over its bands), chunk_mark_pure decides which protos
 * are pure and worth remembering, and chunk_insn_pops and chunk_insn_pushes
 * count what an instruction whose stack effect VARIES takes and leaves.
 */
#include "config.h"
#include "vm/chunk.h"
#include "base/mem.h"
#include "vm/opcodes.h"

#include <string.h>

Program *chunk_program_new(void)
{
    return mem_alloc(sizeof(Program));
}

Proto *chunk_proto_new(Program *prog, const char *name, uint32_t offset)
{
    Proto *p = mem_alloc(sizeof(Proto));
    p->name = name;
    p->decl_offset = offset;
    if (prog->nprotos == prog->protos_cap) {
        int cap = prog->protos_cap ? prog->protos_cap * 2 : 16;
        prog->protos = mem_realloc(prog->protos, sizeof(Proto *) * prog->protos_cap,
                                   sizeof(Proto *) * cap, 0);
        prog->protos_cap = cap;
    }
    prog->protos[prog->nprotos++] = p;
    return p;
}

int chunk_emit(Proto *p, uint8_t byte, uint32_t offset)
{
    if (p->len == p->cap) {
        int cap = p->cap ? p->cap * 2 : 64;
        p->code = mem_realloc(p->code, p->cap, cap, 1);
        p->offsets = mem_realloc(p->offsets, sizeof(uint32_t) * p->cap, sizeof(uint32_t) * cap, 1);
        p->cap = cap;
    }
    p->code[p->len] = byte;
    p->offsets[p->len] = offset;
    return p->len++;
}

int chunk_const(Proto *p, Value v)
{
    for (int i = 0; i < p->nconsts; i++) {
        Value c = p->consts[i];
        if (c.tag == v.tag && (v.tag == VAL_INT || v.tag == VAL_ENUM)
            && c.enum_id == v.enum_id && c.as.i == v.as.i)
            return i;
    }
    if (p->nconsts == p->consts_cap) {
        int cap = p->consts_cap ? p->consts_cap * 2 : 8;
        p->consts = mem_realloc(p->consts, sizeof(Value) * p->consts_cap, sizeof(Value) * cap, 0);
        p->consts_cap = cap;
    }
    p->consts[p->nconsts] = v;
    return p->nconsts++;
}

int chunk_dim_search(const TableDim *d, int64_t k)
{
    int lo = 0, hi = d->nkeys;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (d->hi[mid] < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < d->nkeys && d->lo[lo] <= k && k <= d->hi[lo] ? d->row[lo] : -1;
}

#define DIRECT_SPAN 1024

/* Bands like 2..4, 5..7, 8.. are found by binary search; over a span of at
 * most DIRECT_SPAN keys a table of rows answers at once.  Every key below
 * the smallest finite bound meets the same row (an open-ended one or
 * none), and likewise above the largest. */
static void index_dim(TableDim *d)
{
    d->direct = NULL;
    if (d->mode == KEYS_INDEX || d->nkeys == 0)
        return;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int i = 0; i < d->nkeys; i++) {
        int64_t b[2] = { d->lo[i], d->hi[i] };
        for (int j = 0; j < 2; j++)
            if (b[j] != INT64_MIN && b[j] != INT64_MAX) {
                lo = b[j] < lo ? b[j] : lo;
                hi = b[j] > hi ? b[j] : hi;
            }
    }
    if (lo > hi || (uint64_t)hi - (uint64_t)lo >= DIRECT_SPAN)
        return;
    int n = (int)(hi - lo + 1);
    int *direct = mem_alloc_atomic(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        direct[i] = chunk_dim_find(d, lo + i);
    d->below = chunk_dim_find(d, lo - 1);
    d->above = chunk_dim_find(d, hi + 1);
    d->direct_lo = lo;
    d->direct_n = n;
    d->direct = direct;
}

/* Where the VM's first look finds the cell of row `row`.  A '?' cell is
 * its unknown with no key yet (val_unknown(site, 0)): the VM puts in the
 * key it looked up, which the unknown names in its message. */
static const Value *fast_cell(const Table *t, int row)
{
    if (row < 0)
        return NULL;
    if (t->kinds[row] == CELL_VALUE)
        return &t->cells[row];
    if (t->kinds[row] != CELL_UNKNOWN || !t->unknown_site)
        return NULL;
    Value *u = mem_alloc_atomic(sizeof *u);
    *u = val_unknown(t->unknown_site[row], 0);
    return u;
}

/* A one-key table's cells by key, for the VM's first look. */
static void index_cells(Table *t)
{
    t->fast = t->fast_block = NULL;
    if (t->ndims != 1 || t->col_rows)
        return;
    const TableDim *d = &t->dim[0];
    int64_t lo;
    int n;
    if (d->mode == KEYS_INDEX) {
        lo = 0;
        n = d->nkeys;
    } else if (d->direct) {
        lo = d->direct_lo;
        n = d->direct_n;
    } else {
        return;
    }
    const Value **block = mem_alloc(sizeof(Value *) * (size_t)(n + 2));
    const Value **fast = block + 1;
    for (int i = 0; i < n; i++)
        fast[i] = fast_cell(t, d->mode == KEYS_INDEX ? d->index[i] : d->direct[i]);
    fast[-1] = d->mode == KEYS_INDEX ? NULL : fast_cell(t, d->below);
    fast[n] = d->mode == KEYS_INDEX ? NULL : fast_cell(t, d->above);
    t->fast_lo = lo;
    t->fast_n = n;
    t->fast_block = block;
    t->fast = fast;
}

int chunk_add_unknown(Program *prog, UnknownSite site)
{
    if (prog->nunknowns == prog->unknowns_cap) {
        int cap = prog->unknowns_cap ? prog->unknowns_cap * 2 : 8;
        prog->unknowns = mem_realloc(prog->unknowns, sizeof(UnknownSite) * (size_t)prog->unknowns_cap,
                                     sizeof(UnknownSite) * (size_t)cap, 0);
        prog->unknowns_cap = cap;
    }
    prog->unknowns[prog->nunknowns] = site;
    return prog->nunknowns++;
}

/* Each '?' cell of table number `index` gets its entry in prog->unknowns. */
static void add_unknown_cells(Program *prog, Table *t, int index)
{
    if (t->unknown_site)
        return;
    int ncells = t->col_rows ? t->dim[0].n : t->dim[0].n * (t->ndims == 2 ? t->dim[1].n : 1);
    for (int i = 0; i < ncells; i++) {
        if (t->kinds[i] != CELL_UNKNOWN)
            continue;
        if (!t->unknown_site) {
            t->unknown_site = mem_alloc_atomic(sizeof(int32_t) * (size_t)(ncells + 1));
            for (int k = 0; k < ncells; k++)
                t->unknown_site[k] = -1;
        }
        uint32_t offset = t->cell_offsets ? t->cell_offsets[i] : 0;   /* (a table made by hand may have none) */
        t->unknown_site[i] = chunk_add_unknown(prog, (UnknownSite){ .table = index, .cell = i, .offset = offset });
    }
}

int chunk_add_table(Program *prog, Table *t)
{
    add_unknown_cells(prog, t, prog->ntables);
    for (int i = 0; i < t->ndims; i++)
        index_dim(&t->dim[i]);
    if (t->col_rows && t->ndims == 2)
        for (int b = 0; b < t->dim[1].n; b++)
            index_dim(&t->col_rows[b]);
    index_cells(t);
    if (prog->ntables == prog->tables_cap) {
        int cap = prog->tables_cap ? prog->tables_cap * 2 : 8;
        prog->tables = mem_realloc(prog->tables, sizeof(Table *) * (size_t)prog->tables_cap,
                                   sizeof(Table *) * (size_t)cap, 0);
        prog->tables_cap = cap;
    }
    prog->tables[prog->ntables] = t;
    return prog->ntables++;
}

int chunk_find_proto(const Program *prog, const char *name)
{
    for (int i = 0; i < prog->nprotos; i++)
        if (strcmp(prog->protos[i]->name, name) == 0)
            return i;
    return -1;
}

/* A proto is impure if it has an instruction opcodes.def does not declare
 * PURE (one that rolls, asks for odds, picks an option, checks an
 * expectation or rerolls), or calls something impure.  (A choice taken at
 * its default or its override is fixed while a program runs: an owner that
 * remembers results keeps the choices unchanged.)  It is worth
 * remembering when it calls something or does more than a few steps that
 * are not MOVES.  Calls may be recursive, so start from "pure" everywhere
 * and strike protos out until nothing changes. */
/* Can protos[from] call protos[to], through any chain of calls?  (seen:
 * the protos visited so far, one byte each.) */
static bool reaches(const Program *prog, int from, int to, uint8_t *seen)
{
    const Proto *p = prog->protos[from];
    for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc)) {
        if (p->code[pc] != OP_CALL)
            continue;
        int callee = (int)chunk_u16(p->code + pc + 1);
        if (callee == to)
            return true;
        if (callee < prog->nprotos && !seen[callee]) {
            seen[callee] = 1;
            if (reaches(prog, callee, to, seen))
                return true;
        }
    }
    return false;
}

/* `recursive`: a proto that rolls dice (is not pure) and can call itself,
 * directly or through others.  The exact engine works out each of its
 * calls as a distribution of its own, by its arguments (exact.c). */
static void mark_recursive(Program *prog)
{
    uint8_t *seen = mem_alloc_atomic((size_t)prog->nprotos + 1);
    for (int i = 0; i < prog->nprotos; i++) {
        Proto *p = prog->protos[i];
        p->recursive = false;
        if (p->pure)
            continue;
        memset(seen, 0, (size_t)prog->nprotos + 1);
        p->recursive = reaches(prog, i, i, seen);
    }
}

/* Does the instruction at code[pc] draw, itself or in the procedure it calls? */
static bool insn_draws(const Program *prog, const uint8_t *code, int pc)
{
    if (code[pc] == OP_DRAW || code[pc] == OP_DRAW_POOL)
        return true;
    if (code[pc] != OP_CALL)
        return false;
    unsigned callee = chunk_u16(code + pc + 1);
    return (int)callee < prog->nprotos && prog->protos[callee]->draws;
}

/* Proto.drawn_after.  Jumps only go forward, so one pass from the end of a
 * procedure's code finds, for every instruction, whether a path from it
 * may draw (draws[pc]) and whether it may return (rets[pc]).  A call's
 * continuation is what may run after it: the instructions that follow it,
 * and its caller's continuation when those may return. */
static void mark_drawn_after(Program *prog)
{
    int n = prog->nprotos;
    /* tails: (caller, callee) for each call of a procedure that draws from
     * which the caller may return: the callee's continuation holds the
     * caller's */
    int ntails = 0, tails_cap = 16;
    int *tails = mem_alloc_atomic(sizeof(int) * 2 * (size_t)tails_cap);
    for (int i = 0; i < n; i++)
        prog->protos[i]->drawn_after = false;
    for (int i = 0; i < n; i++) {
        Proto *p = prog->protos[i];
        if (!p->draws)
            continue;
        int npc = 0;
        int *pcs = mem_alloc_atomic(sizeof(int) * (size_t)(p->len + 1));
        for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc))
            pcs[npc++] = pc;
        /* draws[pc]: a path from pc on may draw; rets[pc]: may return */
        bool *draws = mem_alloc_atomic(sizeof(bool) * (size_t)(p->len + 1) * 2), *rets = draws + p->len + 1;
        memset(draws, 0, sizeof(bool) * (size_t)(p->len + 1) * 2);
        for (int k = npc - 1; k >= 0; k--) {
            int pc = pcs[k], next = pc + chunk_insn_len(p->code, pc);
            uint8_t op = p->code[pc];
            bool d = false, r = false;
            if (op == OP_RETURN || op == OP_RETURNL || op == OP_RETURNK)
                r = true;
            else if (!op_is(op, OPF_ENDS)) {
                if (op != OP_JUMP && next <= p->len) {
                    d |= draws[next];
                    r |= rets[next];
                }
                if (chunk_is_jump(op)) {
                    int t = chunk_jump_target(p->code, pc);
                    if (t <= p->len) {
                        d |= draws[t];
                        r |= rets[t];
                    }
                }
            }
            if (op == OP_CALL && insn_draws(prog, p->code, pc)) {
                unsigned callee = chunk_u16(p->code + pc + 1);
                if (d)
                    prog->protos[callee]->drawn_after = true;
                if (r) {
                    if (ntails == tails_cap) {
                        int *more = mem_alloc_atomic(sizeof(int) * 4 * (size_t)tails_cap);
                        memcpy(more, tails, sizeof(int) * 2 * (size_t)ntails);
                        tails = more;
                        tails_cap *= 2;
                    }
                    tails[2 * ntails] = i;
                    tails[2 * ntails + 1] = (int)callee;
                    ntails++;
                }
            }
            draws[pc] = d || insn_draws(prog, p->code, pc);
            rets[pc] = r;
        }
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int t = 0; t < ntails; t++) {
            Proto *caller = prog->protos[tails[2 * t]], *callee = prog->protos[tails[2 * t + 1]];
            if (caller->drawn_after && !callee->drawn_after)
                changed = callee->drawn_after = true;
        }
    }
}

void chunk_mark_pure(Program *prog)
{
    for (int i = 0; i < prog->nprotos; i++) {
        Proto *p = prog->protos[i];
        p->pure = true;
        p->memo = false;
        int work = 0;         /* instructions that compute something */
        for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc)) {
            uint8_t op = p->code[pc];
            if (!op_is(op, OPF_PURE))
                p->pure = false;
            else if (op == OP_CALL)
                p->memo = true;
            else if (!op_is(op, OPF_MOVES))
                work++;
        }
        /* a lone table lookup or record is cheaper than looking it up */
        if (work >= 6)
            p->memo = true;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < prog->nprotos; i++) {
            Proto *p = prog->protos[i];
            if (!p->pure)
                continue;
            for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc))
                if (p->code[pc] == OP_CALL) {
                    unsigned callee = chunk_u16(p->code + pc + 1);
                    if ((int)callee < prog->nprotos && !prog->protos[callee]->pure) {
                        p->pure = false;
                        changed = true;
                        break;
                    }
                }
        }
    }
    for (int i = 0; i < prog->nprotos; i++)
        prog->protos[i]->memo &= prog->protos[i]->pure;
    mark_recursive(prog);
    /* what draws from a bag, here or in what it calls */
    for (int i = 0; i < prog->nprotos; i++) {
        Proto *p = prog->protos[i];
        p->draws = false;
        for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc))
            p->draws |= p->code[pc] == OP_DRAW || p->code[pc] == OP_DRAW_POOL;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < prog->nprotos; i++) {
            Proto *p = prog->protos[i];
            for (int pc = 0; pc < p->len && !p->draws; pc += chunk_insn_len(p->code, pc))
                if (p->code[pc] == OP_CALL) {
                    unsigned callee = chunk_u16(p->code + pc + 1);
                    if ((int)callee < prog->nprotos && prog->protos[callee]->draws)
                        changed = p->draws = true;
                }
        }
    }
    mark_drawn_after(prog);
}

int chunk_insn_pops(const Program *prog, const uint8_t *ip)
{
    int n = op_info[ip[0]].pops;
    if (n != OP_VARIES)
        return n;
    switch ((OpCode)ip[0]) {
    case OP_CALL: case OP_RECORD: case OP_PROB: return ip[3];
    case OP_RECORDK: return __builtin_popcount(chunk_u16(ip + 3));
    case OP_TABLE: return prog->tables[chunk_u16(ip + 1)]->ndims;
    default: return 0;   /* (a unit test checks that none is missing) */
    }
}

int chunk_insn_pushes(const Program *prog, const uint8_t *ip)
{
    (void)prog;
    int n = op_info[ip[0]].pushes;
    if (n != OP_VARIES)
        return n;
    switch ((OpCode)ip[0]) {
    case OP_LOADN: return ip[2];
    default: return 0;   /* (a unit test checks that none is missing) */
    }
}

void chunk_disassemble(FILE *out, const Program *prog, const Proto *p)
{
    static const char *const div_mode_text[3] = { "floor", "ceil", "round" };   /* DivMode */
    fprintf(out, "proc %s (params %d, locals %d, stack %d, %d bytes)\n",
            p->name, p->nparams, p->nlocals, p->max_stack, p->len);
    for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc)) {
        const uint8_t *ip = p->code + pc;
        const OpInfo *info = &op_info[*ip];
        fprintf(out, "  %04d  %s", pc, info->name);
        if (info->operand_bytes && strlen(info->name) < 11)
            fprintf(out, "%*s", 11 - (int)strlen(info->name), "");
        switch ((OpCode)*ip) {
        case OP_CONST:
            fprintf(out, " %-5u ; ", chunk_u16(ip + 1));
            val_print(out, p->consts[chunk_u16(ip + 1)], prog);
            break;
        case OP_ROLLK: case OP_ADDK: case OP_SUBK: case OP_MULK:
            fprintf(out, " %-5u ; ", chunk_u16(ip + 1));
            val_print(out, p->consts[chunk_u16(ip + 1)], prog);
            break;
        case OP_ROLL_POOLK:
            fprintf(out, " %u %u ; ", chunk_u16(ip + 1), chunk_u16(ip + 3));
            val_print(out, p->consts[chunk_u16(ip + 1)], prog);
            fputs("d", out);
            val_print(out, p->consts[chunk_u16(ip + 3)], prog);
            break;
        case OP_ROLL_COUNTK:
            fprintf(out, " %u %u %u ; count(", chunk_u16(ip + 1), chunk_u16(ip + 3), chunk_u16(ip + 5));
            val_print(out, p->consts[chunk_u16(ip + 1)], prog);
            fputs("d", out);
            val_print(out, p->consts[chunk_u16(ip + 3)], prog);
            fprintf(out, " %s ", ip[7] < 6 ? cmp_op_text[ip[7]] : "?");
            val_print(out, p->consts[chunk_u16(ip + 5)], prog);
            fputc(')', out);
            break;
        case OP_COUNT_IFK: case OP_ANYK: case OP_ALLK:
            fprintf(out, " %-5u ; %s ", chunk_u16(ip + 1), ip[3] < 6 ? cmp_op_text[ip[3]] : "?");
            val_print(out, p->consts[chunk_u16(ip + 1)], prog);
            break;
        case OP_JUMP_UNLESS:
            fprintf(out, " %-5u ; unless %s ", chunk_u16(ip + 1), ip[3] < 6 ? cmp_op_text[ip[3]] : "?");
            val_print(out, p->consts[chunk_u16(ip + 1)], prog);
            fprintf(out, " -> %04d", chunk_jump_target(p->code, pc));
            break;
        case OP_JUMP_UNLESS_L:
            fprintf(out, " %u %-3u ; unless ", ip[1], chunk_u16(ip + 2));
            if (ip[1] < p->nparams)
                fprintf(out, "%s ", p->param_names[ip[1]]);
            fprintf(out, "%s ", ip[4] < 6 ? cmp_op_text[ip[4]] : "?");
            val_print(out, p->consts[chunk_u16(ip + 2)], prog);
            fprintf(out, " -> %04d", chunk_jump_target(p->code, pc));
            break;
        case OP_JUMP_CMP:
            fprintf(out, " %-5u ; unless %s -> %04d", chunk_u16(ip + 2), ip[1] < 6 ? cmp_op_text[ip[1]] : "?",
                    chunk_jump_target(p->code, pc));
            break;
        case OP_RETURNK:
            fprintf(out, " %-5u ; ", chunk_u16(ip + 1));
            val_print(out, p->consts[chunk_u16(ip + 1)], prog);
            break;
        case OP_CMPK:
            fprintf(out, " %-5u ; %s ", chunk_u16(ip + 1), ip[3] < 6 ? cmp_op_text[ip[3]] : "?");
            val_print(out, p->consts[chunk_u16(ip + 1)], prog);
            break;
        case OP_IDIV:
            fprintf(out, " %-5u ; %s", ip[1], ip[1] < 3 ? div_mode_text[ip[1]] : "?");
            break;
        case OP_IDIVK:
            fprintf(out, " %-5u ; / ", chunk_u16(ip + 1));
            val_print(out, p->consts[chunk_u16(ip + 1)], prog);
            fprintf(out, ", %s", chunk_u16(ip + 3) >> 14 < 3 ? div_mode_text[chunk_u16(ip + 3) >> 14] : "?");
            break;
        case OP_LOAD: case OP_STORE: case OP_TEE: case OP_RETURNL:
            if (ip[1] < p->nparams)
                fprintf(out, " %-5u ; %s", ip[1], p->param_names[ip[1]]);
            else
                fprintf(out, " %u", ip[1]);
            break;
        case OP_LOADN:
            fprintf(out, " %u %u ; slots %u..%u", ip[1], ip[2], ip[1], ip[1] + ip[2] - 1);
            break;
        case OP_JUMP: case OP_JUMP_FALSE: case OP_AND_JUMP: case OP_OR_JUMP:
            fprintf(out, " %-5u ; -> %04d", chunk_u16(ip + 1), chunk_jump_target(p->code, pc));
            break;
        case OP_CALL:
            fprintf(out, " %-5u ; %s, %u args", chunk_u16(ip + 1),
                    prog->protos[chunk_u16(ip + 1)]->name, ip[3]);
            break;
        case OP_TABLE:
            fprintf(out, " %-5u ; %s", chunk_u16(ip + 1), prog->tables[chunk_u16(ip + 1)]->name);
            break;
        case OP_RECORD:
            fprintf(out, " %-5u ; %s, %u fields", chunk_u16(ip + 1), prog->records[chunk_u16(ip + 1)].name, ip[3]);
            break;
        case OP_RECORDK: {
            fprintf(out, " %-5u ; ", chunk_u16(ip + 1));
            const Record *r = p->consts[chunk_u16(ip + 1)].as.r;
            fprintf(out, "%s, fields", prog->records[r->type].name);
            for (int i = 0; i < 16; i++)
                if (chunk_u16(ip + 3) >> i & 1)
                    fprintf(out, " %s", prog->records[r->type].fields[i]);
            fputs(" given", out);
            break;
        }
        case OP_FIELD:
            fprintf(out, " %u", ip[1]);
            break;
        case OP_NOTE:
            fprintf(out, " %-5u ; ", chunk_u16(ip + 1));
            val_print(out, p->consts[chunk_u16(ip + 1)], prog);
            break;
        case OP_CHOOSE: case OP_MEMBER:
            fprintf(out, " %-5u ; %s", chunk_u16(ip + 1), prog->enums[chunk_u16(ip + 1)].name);
            break;
        case OP_ROLL_DIE: case OP_ROLL_DIE_POOL:
            fprintf(out, " %-5u ; %s", chunk_u16(ip + 1), prog->dies[chunk_u16(ip + 1)].die.name);
            break;
        case OP_DRAW: case OP_DRAW_POOL:
            fprintf(out, " %-5u ; %s", chunk_u16(ip + 1), prog->bags[chunk_u16(ip + 1)].kinds.name);
            break;
        case OP_PROB:
            if (ip[3])
                fprintf(out, " %-5u ; %s, %u args", chunk_u16(ip + 1), prog->protos[chunk_u16(ip + 1)]->name, ip[3]);
            else
                fprintf(out, " %-5u ; %s", chunk_u16(ip + 1), prog->protos[chunk_u16(ip + 1)]->name);
            break;
        case OP_PICK:
            fprintf(out, " %u %u ; %s = %s", chunk_u16(ip + 1), chunk_u16(ip + 3), prog->enums[chunk_u16(ip + 1)].name,
                    prog->enums[chunk_u16(ip + 1)].members[chunk_u16(ip + 3)]);
            break;
        case OP_EXPECT:
            fprintf(out, " %u", chunk_u16(ip + 1));
            break;
        case OP_FILTER: case OP_ANY: case OP_ALL: case OP_COUNT_IF:
            fprintf(out, " %-5u ; %s", ip[1], ip[1] < 6 ? cmp_op_text[ip[1]] : "?");
            break;
        default:
            break;
        }
        fputc('\n', out);
    }
}

void chunk_disassemble_program(FILE *out, const Program *prog)
{
    for (int i = 0; i < prog->nprotos; i++) {
        if (i)
            fputc('\n', out);
        chunk_disassemble(out, prog, prog->protos[i]);
    }
}
