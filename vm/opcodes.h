/* opcodes.h — the instruction set as an enum plus a table of facts about
 * each opcode, both generated from opcodes.def so the code generator, the
 * VM and the disassembler can never disagree. */
#ifndef MUSTER_VM_OPCODES_H
#define MUSTER_VM_OPCODES_H

typedef enum {
#define OP(name, operands, effect, summary) OP_##name,
#include "opcodes.def"
#undef OP
    OP__COUNT
} OpCode;

typedef struct OpInfo {
    const char *name;
    int operand_bytes;
    int stack_effect;
    const char *summary;
} OpInfo;

extern const OpInfo op_info[OP__COUNT];

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
