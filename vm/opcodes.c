/* opcodes.c — the opcode information table. */
#include "config.h"
#include "opcodes.h"

const OpInfo op_info[OP__COUNT] = {
#define OP(name, operands, effect, summary) { #name, operands, effect, summary },
#include "opcodes.def"
#undef OP
};

const char *const cmp_op_text[6] = { "==", "!=", "<", "<=", ">", ">=" };
