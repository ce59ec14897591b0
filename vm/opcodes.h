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

#endif
