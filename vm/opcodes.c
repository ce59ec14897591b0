/* opcodes.c — op_info, the table of facts about each opcode, expanded from
 * opcodes.def (the stack effect worked out from pops and pushes), and the
 * text of the comparisons. */
#include "config.h"
#include "vm/opcodes.h"

const OpInfo op_info[OP__COUNT] = {
#define VARIES OP_VARIES
#define NOJUMP OP_NOJUMP
#define PURE OPF_PURE
#define IMPURE OPF_IMPURE
#define DICE OPF_DICE
#define VALUE OPF_VALUE
#define FAILS OPF_FAILS
#define MOVES OPF_MOVES
#define ENDS OPF_ENDS
#define WRITES OPF_WRITES
#define TRACE OPF_TRACE
#define OP(name, operands, pops, pushes, jump_at, effects, summary) \
    { #name, operands, (pops) == OP_VARIES || (pushes) == OP_VARIES ? 0 : (pushes) - (pops), \
      pops, pushes, jump_at, effects, summary },
#include "vm/opcodes.def"
#undef OP
#undef VARIES
#undef NOJUMP
#undef PURE
#undef IMPURE
#undef DICE
#undef VALUE
#undef FAILS
#undef MOVES
#undef ENDS
#undef WRITES
#undef TRACE
};

const char *const cmp_op_text[6] = { "==", "!=", "<", "<=", ">", ">=" };
