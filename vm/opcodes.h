/* opcodes.h — the instruction set as an enum plus a table of facts about
 * each opcode (operands, stack effect, effects, where a jump's offset is),
 * both generated from opcodes.def so the code generator, the VM, the
 * disassembler and the passes over bytecode can never disagree.  The
 * decoder of instructions built on this table is in chunk.h. */
#ifndef MUSTER_VM_OPCODES_H
#define MUSTER_VM_OPCODES_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
#define OP(name, operands, pops, pushes, jump_at, effects, summary) OP_##name,
#include "vm/opcodes.def"
#undef OP
} OpCode;

/* How many opcodes there are: outside OpCode, so that a switch over every
 * opcode with no default is warned about (-Wswitch) when it misses one. */
enum {
    OP__COUNT = 0
#define OP(name, operands, pops, pushes, jump_at, effects, summary) + 1
#include "vm/opcodes.def"
#undef OP
};

/* The effects column of opcodes.def (see there for what each means). */
enum {
    OPF_PURE = 1 << 0,
    OPF_IMPURE = 1 << 1,
    OPF_DICE = 1 << 2,
    OPF_VALUE = 1 << 3,
    OPF_FAILS = 1 << 4,
    OPF_MOVES = 1 << 5,
    OPF_ENDS = 1 << 6,
    OPF_WRITES = 1 << 7,
    OPF_TRACE = 1 << 8,
};

#define OP_VARIES (-1)       /* pops or pushes: an operand decides */
#define OP_NOJUMP (-1)       /* jump_at: not a jump */

typedef struct OpInfo {
    const char *name;
    int operand_bytes;
    int stack_effect;        /* pushes - pops, or 0 if either varies */
    int pops, pushes;        /* or OP_VARIES */
    int jump_at;             /* operand byte of a jump's u16 offset, or OP_NOJUMP */
    unsigned effects;        /* OPF_... */
    const char *summary;
} OpInfo;

extern const OpInfo op_info[OP__COUNT];

/* Does opcode op have every effect in `effects`? */
static inline bool op_is(uint8_t op, unsigned effects)
{
    return (op_info[op].effects & effects) == effects;
}

typedef enum { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE } CmpOp;

/* What a NOTE reports: a modifier that applied, a factor, a cap that bit,
 * the starting value of a modifier list. */
typedef enum { NOTE_ADD, NOTE_MUL, NOTE_CAP, NOTE_BASE } NoteKind;
extern const char *const cmp_op_text[6];

/* Does a three-way comparison result c (<0, 0, >0) satisfy op? */
static inline int cmp_holds(int c, CmpOp op)
{
    switch (op) {
    case CMP_EQ: return c == 0;
    case CMP_NE: return c != 0;
    case CMP_LT: return c < 0;
    case CMP_LE: return c <= 0;
    case CMP_GT: return c > 0;
    case CMP_GE: return c >= 0;
    }
    return 0;
}

#endif
