/* peephole.c — fusing common instruction sequences (the list is in
 * peephole.h).  A scan over a proto copies its code, fusing as it goes, then
 * moves every jump to the new place of its target.  Each proto is scanned
 * until nothing more fuses, since one fusion can make another (CONST,
 * FILTER, COUNT becomes CONST, COUNT_IF, then COUNT_IFK). */
#include "config.h"
#include "compiler/peephole.h"
#include "base/mem.h"
#include "vm/opcodes.h"

#include <stdbool.h>
#include <string.h>

/* IDIVK's second operand: mode m in its top 2 bits, and in the low 14 the
 * constant of p that holds the reciprocal of constant k, ceil(2^64 / k),
 * for the VM to divide a dividend of 32 bits by a multiplication; 0x3fff
 * where k is no int from 2 to 2^32 - 1 (or the constants are many). */
static uint16_t mode_and_reciprocal(Proto *p, uint16_t k, int m)
{
    Value d = p->consts[k];
    int at = 0x3fff;
    if (d.tag == VAL_INT && d.as.i >= 2 && d.as.i < ((int64_t)1 << 32) && p->nconsts < 0x3fff)
        at = chunk_const(p, val_int((int64_t)(UINT64_MAX / (uint64_t)d.as.i + 1)));
    return (uint16_t)((unsigned)m << 14 | (unsigned)at);
}

/* The DivMode of IDIV for an instruction that makes a quotient whole, or -1. */
static int div_mode(uint8_t op)
{
    return op == OP_FLOOR ? DIV_FLOOR : op == OP_CEIL ? DIV_CEIL : op == OP_ROUND ? DIV_ROUND : -1;
}

/* Write one fused instruction at code[*n]: its bytes, each with the source
 * offset `off` (that of the part that can fail, for its errors). */
static void put(uint8_t *code, uint32_t *offsets, int *n, const uint8_t *bytes, int len, uint32_t off)
{
    for (int k = 0; k < len; k++) {
        code[*n + k] = bytes[k];
        offsets[*n + k] = off;
    }
    *n += len;
}

/* Is the CONST at code[pc] one an instruction may take as its operand?
 * Not an unknown (a '?', value.h): the fused forms take their constant as
 * a value the rules text gives, so an unknown goes on the stack, where the
 * instruction that needs it stops the run. */
static bool fusable_const(const Proto *p, const uint8_t *code, int pc)
{
    return p->consts[chunk_u16(code + pc + 1)].tag != VAL_UNKNOWN;
}

/* Which MERGEs, DEFERs and SETTLEs of the code `old` (len bytes, jump
 * targets marked) to keep: keep[pc] for each one at pc. */
static bool *merges_kept(const Program *prog, const uint8_t *old, int len, const bool *target)
{
    bool *keep = mem_alloc_atomic((size_t)len + 1);
    /* a MERGE is kept only between dice: some instruction before it and
     * some at or after it rolls, draws or calls a procedure that may (the
     * code jumps only forward, so before in the code is before in time);
     * of two in a row, the second */
    int npcs = 0;
    int *pcs = mem_alloc_atomic(sizeof(int) * (size_t)len);
    bool *rolls = mem_alloc_atomic((size_t)len + 1);
    for (int pc = 0; pc < len; pc += chunk_insn_len(old, pc)) {
        pcs[npcs++] = pc;
        uint8_t op = old[pc];
        rolls[pc] = op_is(op, OPF_DICE)
                 || (op == OP_CALL && !(prog && prog->protos[chunk_u16(old + pc + 1)]->pure));
    }
    bool after = false;
    for (int k = npcs - 1; k >= 0; k--) {
        after = after || rolls[pcs[k]];
        keep[pcs[k]] = after;
    }
    /* and not one that only a kept MERGE with no dice since reaches
     * (no jump landing between): the runs there are those of that one */
    bool before = false, clean = false;
    for (int k = 0; k < npcs; k++) {
        int pc = pcs[k];
        clean = clean && !target[pc];
        if (old[pc] == OP_MERGE) {
            keep[pc] = keep[pc] && before && !clean
                    && !(k + 1 < npcs && old[pcs[k + 1]] == OP_MERGE);
            clean = clean || keep[pc];
        }
        before = before || rolls[pc];
        clean = clean && !rolls[pc];
    }
    /* a DEFER only after a part that may roll (a call of a procedure that
     * is not pure, a sum), and SETTLEs only where a DEFER is kept */
    bool deferred = false;
    for (int k = 0; k < npcs; k++)
        if (old[pcs[k]] == OP_DEFER) {
            uint8_t part = k > 0 ? old[pcs[k - 1]] : OP_POP;
            keep[pcs[k]] = !target[pcs[k]] && (part == OP_SUM || (part == OP_CALL && rolls[pcs[k - 1]]));
            deferred = deferred || keep[pcs[k]];
        }
    for (int k = 0; k < npcs; k++)
        if (old[pcs[k]] == OP_SETTLE)
            keep[pcs[k]] = deferred;
    return keep;
}

/* One pass over p; prog, when given, says which callees are pure (no
 * MERGE is kept for a call of one). */
static bool scan(Proto *p, const Program *prog)
{
    if (p->len == 0)
        return false;
    int len = p->len;
    const uint8_t *old = p->code;
    /* where jumps land: no fused sequence may swallow one */
    bool *target = mem_alloc_atomic((size_t)len + 1);
    memset(target, 0, (size_t)len + 1);
    for (int pc = 0; pc < len; pc += chunk_insn_len(old, pc))
        if (chunk_is_jump(old[pc]))
            target[chunk_jump_target(old, pc)] = true;
    /* the jumps of the new code: where each one is, and its old target,
     * moved when all is placed */
    typedef struct { int at, to; } Fix;
    Fix *fix = mem_alloc_atomic(sizeof(Fix) * ((size_t)len + 1));
    int nfix = 0;

    bool *keep = merges_kept(prog, old, len, target);

    uint8_t *code = mem_alloc_atomic((size_t)len);
    uint32_t *offsets = mem_alloc_atomic(sizeof(uint32_t) * (size_t)len);
    int *moved = mem_alloc_atomic(sizeof(int) * ((size_t)len + 1));   /* old pc -> new pc */
    int n = 0;
    for (int pc = 0; pc < len;) {
        moved[pc] = n;
        uint8_t op = old[pc];
        if ((op == OP_MERGE || op == OP_DEFER || op == OP_SETTLE) && !keep[pc]) {
            pc++;            /* (a jump to it lands on what follows) */
            continue;
        }
        if (op == OP_LOAD && pc + 2 < len && old[pc + 2] == OP_LOAD && old[pc + 3] == old[pc + 1] + 1
            && !target[pc + 2]) {
            /* a run of LOADs of consecutive slots */
            int count = 1, at = pc + 2;
            while (at < len && old[at] == OP_LOAD && old[at + 1] == old[pc + 1] + count && !target[at] && count < 255) {
                moved[at] = n;
                count++;
                at += 2;
            }
            put(code, offsets, &n, (const uint8_t[]){ OP_LOADN, old[pc + 1], (uint8_t)count }, 3, p->offsets[pc]);
            pc = at;
            continue;
        }
        if (op == OP_ROLL_POOLK && pc + 5 < len && old[pc + 5] == OP_COUNT_IFK && !target[pc + 5]) {
            /* count(roll 8d6 >= 4): the dice counted as they are drawn */
            moved[pc + 5] = n;
            put(code, offsets, &n, (const uint8_t[]){ OP_ROLL_COUNTK, old[pc + 1], old[pc + 2], old[pc + 3], old[pc + 4],
                                                      old[pc + 6], old[pc + 7], old[pc + 8] }, 8, p->offsets[pc]);
            pc += 9;
            continue;
        }
        if (op == OP_FILTER && pc + 2 < len && old[pc + 2] == OP_COUNT && !target[pc + 2]) {
            moved[pc + 2] = n;
            put(code, offsets, &n, (const uint8_t[]){ OP_COUNT_IF, old[pc + 1] }, 2, p->offsets[pc]);
            pc += 3;
            continue;
        }
        if (op == OP_CONST && pc + 6 < len && old[pc + 3] == OP_CONST && old[pc + 6] == OP_ROLL_POOL
            && !target[pc + 3] && !target[pc + 6] && fusable_const(p, old, pc) && fusable_const(p, old, pc + 3)) {
            /* a pool of a fixed number of dice of fixed sides */
            moved[pc + 3] = moved[pc + 6] = n;
            put(code, offsets, &n, (const uint8_t[]){ OP_ROLL_POOLK, old[pc + 1], old[pc + 2], old[pc + 4], old[pc + 5] },
                5, p->offsets[pc + 6]);
            pc += 7;
            continue;
        }
        if (op == OP_CONST && pc + 4 < len && old[pc + 3] == OP_DIV && div_mode(old[pc + 4]) >= 0
            && !target[pc + 3] && !target[pc + 4] && fusable_const(p, old, pc)) {
            /* floor(x / 3): a quotient by a constant made whole */
            moved[pc + 3] = moved[pc + 4] = n;
            uint16_t mr = mode_and_reciprocal(p, chunk_u16(old + pc + 1), div_mode(old[pc + 4]));
            put(code, offsets, &n, (const uint8_t[]){ OP_IDIVK, old[pc + 1], old[pc + 2], (uint8_t)(mr & 0xff),
                                                      (uint8_t)(mr >> 8) },
                5, p->offsets[pc + 3]);
            pc += 5;
            continue;
        }
        if (op == OP_DIV && pc + 1 < len && div_mode(old[pc + 1]) >= 0 && !target[pc + 1]) {
            /* floor(a / b): no rational made on the way when both are ints */
            moved[pc + 1] = n;
            put(code, offsets, &n, (const uint8_t[]){ OP_IDIV, (uint8_t)div_mode(old[pc + 1]) }, 2, p->offsets[pc]);
            pc += 2;
            continue;
        }
        if (op == OP_CONST && pc + 3 < len && old[pc + 3] == OP_IDIV && !target[pc + 3] && fusable_const(p, old, pc)) {
            moved[pc + 3] = n;
            uint16_t mr = mode_and_reciprocal(p, chunk_u16(old + pc + 1), old[pc + 4]);
            put(code, offsets, &n, (const uint8_t[]){ OP_IDIVK, old[pc + 1], old[pc + 2], (uint8_t)(mr & 0xff),
                                                      (uint8_t)(mr >> 8) }, 5,
                p->offsets[pc + 3]);
            pc += 5;
            continue;
        }
        if (op == OP_CONST && pc + 3 < len && !target[pc + 3] && fusable_const(p, old, pc)) {
            /* a constant and the instruction that takes it */
            uint8_t next = old[pc + 3];
            int fused = next == OP_ROLL ? OP_ROLLK : next == OP_ADD ? OP_ADDK : next == OP_SUB ? OP_SUBK
                      : next == OP_MUL ? OP_MULK : next >= OP_EQ && next <= OP_GE ? OP_CMPK : -1;
            int pooled = next == OP_COUNT_IF ? OP_COUNT_IFK : next == OP_ANY ? OP_ANYK : next == OP_ALL ? OP_ALLK : -1;
            if (pooled >= 0) {
                /* a test of a pool's dice against a constant */
                moved[pc + 3] = n;
                put(code, offsets, &n, (const uint8_t[]){ (uint8_t)pooled, old[pc + 1], old[pc + 2], old[pc + 4] },
                    4, p->offsets[pc + 3]);
                pc += 5;
                continue;
            }
            if (fused == OP_CMPK && pc + 6 < len && old[pc + 4] == OP_JUMP_FALSE && !target[pc + 4]) {
                /* ... and a jump on what it says */
                moved[pc + 3] = moved[pc + 4] = n;
                fix[nfix++] = (Fix){ n, chunk_jump_target(old, pc + 4) };
                put(code, offsets, &n,
                    (const uint8_t[]){ OP_JUMP_UNLESS, old[pc + 1], old[pc + 2], (uint8_t)(next - OP_EQ), 0, 0 },
                    6, p->offsets[pc + 3]);
                pc += 7;
                continue;
            }
            if (fused >= 0) {
                moved[pc + 3] = n;
                put(code, offsets, &n, (const uint8_t[]){ (uint8_t)fused, old[pc + 1], old[pc + 2], (uint8_t)(next - OP_EQ) },
                    fused == OP_CMPK ? 4 : 3, p->offsets[pc + 3]);
                pc += 4;
                continue;
            }
        }
        if (op == OP_CONST && pc + 3 < len && old[pc + 3] == OP_RETURN && !target[pc + 3]) {
            moved[pc + 3] = n;
            put(code, offsets, &n, (const uint8_t[]){ OP_RETURNK, old[pc + 1], old[pc + 2] }, 3, p->offsets[pc + 3]);
            pc += 4;
            continue;
        }
        if (op == OP_LOAD && pc + 2 < len && old[pc + 2] == OP_JUMP_UNLESS && !target[pc + 2]) {
            /* an else-if chain on one local: each test reads it in place */
            moved[pc + 2] = n;
            fix[nfix++] = (Fix){ n, chunk_jump_target(old, pc + 2) };
            put(code, offsets, &n, (const uint8_t[]){ OP_JUMP_UNLESS_L, old[pc + 1], old[pc + 3], old[pc + 4], old[pc + 5], 0, 0 },
                7, p->offsets[pc + 2]);
            pc += 8;
            continue;
        }
        if (op >= OP_EQ && op <= OP_GE && pc + 1 < len && old[pc + 1] == OP_JUMP_FALSE && !target[pc + 1]) {
            /* if a > d: the test of two values and its branch */
            moved[pc + 1] = n;
            fix[nfix++] = (Fix){ n, chunk_jump_target(old, pc + 1) };
            put(code, offsets, &n, (const uint8_t[]){ OP_JUMP_CMP, (uint8_t)(op - OP_EQ), 0, 0 }, 4, p->offsets[pc]);
            pc += 4;
            continue;
        }
        if (op == OP_LOAD && pc + 2 < len && old[pc + 2] == OP_RETURN && !target[pc + 2]) {
            moved[pc + 2] = n;
            put(code, offsets, &n, (const uint8_t[]){ OP_RETURNL, old[pc + 1] }, 2, p->offsets[pc + 2]);
            pc += 3;
            continue;
        }
        if (op == OP_STORE && pc + 3 < len && old[pc + 2] == OP_LOAD && old[pc + 3] == old[pc + 1]
            && !target[pc + 2]) {
            moved[pc + 2] = n;
            put(code, offsets, &n, (const uint8_t[]){ OP_TEE, old[pc + 1] }, 2, p->offsets[pc]);
            pc += 4;
            continue;
        }
        int il = chunk_insn_len(old, pc);
        memcpy(code + n, old + pc, (size_t)il);
        memcpy(offsets + n, p->offsets + pc, sizeof(uint32_t) * (size_t)il);
        if (chunk_is_jump(op))
            fix[nfix++] = (Fix){ n, chunk_jump_target(old, pc) };
        n += il;
        pc += il;
    }
    moved[len] = n;
    /* jumps: the same targets, at their new places */
    for (int i = 0; i < nfix; i++)
        chunk_set_jump(code, fix[i].at, moved[fix[i].to]);
    p->code = code;
    p->offsets = offsets;
    p->len = p->cap = n;
    return n < len;
}

bool peephole_proto(Proto *p)
{
    return scan(p, NULL);
}

void peephole_merges(Program *prog)
{
    for (int i = 0; i < prog->nprotos; i++)
        while (scan(prog->protos[i], prog))
            ;
}

void peephole_program(Program *prog)
{
    /* until nothing more is fused: what one pass makes may fuse again
     * (CONST k, FILTER, COUNT -> CONST k, COUNT_IF -> COUNT_IFK; and with a
     * ROLL_POOLK before it, ROLL_COUNTK) */
    for (int i = 0; i < prog->nprotos; i++)
        while (peephole_proto(prog->protos[i]))
            ;
}
