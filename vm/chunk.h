/* chunk.h — compiled code: procedures (protos) and the program that holds them.
 *
 * A Proto is one procedure's bytecode with its constants and a line table:
 * for every byte of code the source position it came from, so a runtime
 * error can point at the exact expression.  A position is a byte offset in
 * the program's files taken one after another, so one procedure's code can
 * come from several files (a variant's line in a base's modifiers).  The VM
 * only ever sees positions; turning them into file:line:col is the front
 * end's job (it owns the source text).  A Program is the list of protos plus what running and
 * printing them needs: the enums (member names), the records (field names)
 * and the lookup tables.  The instruction decoder every pass shares
 * (chunk_u16, chunk_insn_len, the jump helpers) is here too.
 */
#ifndef MUSTER_VM_CHUNK_H
#define MUSTER_VM_CHUNK_H

#include "vm/value.h"
#include "vm/dice.h"
#include "vm/opcodes.h"

#include <stdint.h>

typedef struct Proto {
    const char *name;
    int nparams;
    int nlocals;             /* params included */
    int max_stack;           /* deepest the operand stack gets above the locals */
    const char **param_names;
    uint8_t *code;
    uint32_t *offsets;       /* source position of each code byte */
    int len, cap;
    Value *consts;
    int nconsts, consts_cap;
    uint32_t decl_offset;    /* position where the procedure is declared */
    bool hidden;             /* compiler-made (a default value): not shown in traces */
    bool rerolls;            /* its body has a `reroll` */
    /* Set by chunk_mark_pure: the same arguments always give the same
     * result (no dice, odds, examples' picks or rerolls, here or in
     * anything it calls), and `memo`: pure and with enough work in it
     * (a call or a table) that remembering its last result pays. */
    bool pure;
    bool memo;
    /* Also set by chunk_mark_pure: not pure, and it can call itself
     * (directly or through other procedures). */
    bool recursive;
    /* Also set by chunk_mark_pure: it draws from a bag, or calls a procedure
     * that does: its result depends on what the run drew before it, so the
     * exact engine works out a call of it on its own (when recursive) from
     * what the bags have left, each result with what they have left after. */
    bool draws;
    /* Also set by chunk_mark_pure, for a procedure that draws: something may
     * draw after a call of it returns (the code after one of its calls, or
     * after its caller's own call returns), so what it leaves in the bags
     * matters to the rest of the run. */
    bool drawn_after;
} Proto;

/* A lookup table: the compiled form of a `table` or `bands` block (and of
 * the hidden tables behind outcome fields and member texts).  Rows are
 * found by key: an enum member or bool (directly by index), an exact int,
 * or a range of ints (bands); columns likewise, or by a plain index. */
typedef enum { KEYS_INDEX, KEYS_INTS, KEYS_RANGES } KeyMode;

typedef enum { CELL_VALUE, CELL_UNKNOWN, CELL_NA } CellKind;

typedef struct TableDim {
    KeyMode mode;
    int n;                   /* rows (or columns) */
    int nkeys;               /* KEYS_INDEX: how many key values; else entries in lo/hi */
    int *index;              /* KEYS_INDEX: key value -> row, or -1 */
    int64_t *lo, *hi;        /* KEYS_INTS/RANGES: sorted; INT64_MIN/MAX for open ends */
    int *row;                /* KEYS_INTS/RANGES: the row of each entry */
    const char **labels;     /* how each row is written, for messages */
    ValTag key_tag;          /* what a key is (VAL_INT, VAL_ENUM of key_enum, VAL_BOOL): to print */
    int32_t key_enum;        /* the keys a '?' cell was met with (see vm_unknown_text) */
    /* KEYS_INTS/RANGES over a small span of keys: the row of every key in
     * [direct_lo, direct_lo + direct_n) looked up once (chunk_add_table),
     * and the rows below and above it (-1: none); NULL otherwise */
    int *direct;
    int64_t direct_lo;
    int direct_n, below, above;
} TableDim;

typedef struct Table {
    const char *name;
    bool bands;              /* a `bands` block: rows are ranges of a total */
    bool fields;             /* an outcome's fields (member x field): a field of an unknown member is that unknown */
    int ndims;               /* 1 or 2 */
    TableDim dim[2];
    Value *cells;            /* rows x columns */
    CellKind *kinds;
    uint32_t *cell_offsets;  /* position where each cell is written */
    int32_t *unknown_site;   /* per cell: a '?' cell's index in Program.unknowns (chunk_add_table) */
    const char **row_texts;  /* bands: the sheet's words for each row, or NULL */
    int64_t key_shift;       /* a table the specializer made with its keys moved down by this much
                                (looked up on x, it is the table it was made from on x + key_shift) */
    TableDim *col_rows;      /* `column` blocks: each column's own rows (into the one list of rows), or NULL */
    /* One key over a small span (chunk_add_table): fast[i] is the cell
     * that key fast_lo + i selects, for i in [0, fast_n); fast[-1] that of
     * every key below the span and fast[fast_n] that of every key above it
     * (an open-ended band, "8.. => destroyed").  A '?' cell is its
     * unknown with the key left 0, for the VM to fill in; a cell is NULL
     * where there is no value (a '-', no row).  fast is NULL if the table
     * has none of this; fast_block is the array, from fast[-1]. */
    const Value **fast;
    int64_t fast_lo;
    int fast_n;
    const Value **fast_block;
} Table;

/* A '?': a value the rules text does not give, as a table's cell (an
 * outcome's field among them) or written as an expression.  An unknown
 * value (value.h) names the '?' it came from by its index in
 * Program.unknowns; the VM words its message from it (vm_unknown_text). */
typedef struct UnknownSite {
    int table;               /* the table it is a cell of, or -1: a '?' written as an expression */
    int cell;                /* the cell, in the table's cells */
    uint32_t offset;         /* position where it is written */
    const char *owner;       /* an expression: the declaration it is in ("procedure 'volley'") */
    const char *what;        /* ... and what it stands for ("its result"), or NULL */
} UnknownSite;

/* A `die` declaration: its faces' values in ascending order (what dice
 * sources roll), the enum its faces are members of, and the sheet's view. */
typedef struct DieDesc {
    Die die;
    int32_t symbols;         /* 0: its faces are numbers; else 1 + the enum of its faces */
    const char *text;        /* the sheet's words for it, or NULL */
    const int32_t *written;  /* its faces' values in the order written (die.n of them) */
} DieDesc;

/* A `bag` declaration: items drawn without replacement within a run.
 * kinds holds its distinct items' values in ascending order (as a Die's
 * faces: a symbol's value is its member's index), count how many of each
 * it holds when a run starts. */
typedef struct BagDesc {
    Die kinds;
    const int64_t *count;
    int64_t total;
    int32_t symbols;         /* 0: numbers; else 1 + the enum of its items */
    const char *text;        /* the sheet's words for it, or NULL */
    const int32_t *written_value;    /* its items as written, for the sheet */
    const int64_t *written_count;
    int32_t nwritten;
    int32_t base;            /* its kinds' place in a run's record of what is left (Vm.bag_left) */
} BagDesc;

typedef struct Program {
    Proto **protos;
    int nprotos, protos_cap;
    EnumDesc *enums;
    int nenums, enums_cap;
    RecordDesc *records;
    int nrecords, records_cap;
    Table **tables;
    int ntables, tables_cap;
    UnknownSite *unknowns;   /* every '?' of the program */
    int nunknowns, unknowns_cap;
    DieDesc *dies;
    int ndies, dies_cap;
    BagDesc *bags;
    int nbags, bags_cap;
    int64_t bag_items;       /* the kinds of all bags: the size of a run's record of what is left */
} Program;

Program *chunk_program_new(void);
Proto *chunk_proto_new(Program *prog, const char *name, uint32_t offset);
/* Append a byte and return its position. */
int chunk_emit(Proto *p, uint8_t byte, uint32_t offset);
/* Add a constant (reusing an equal int/enum constant) and return its index. */
int chunk_const(Proto *p, Value v);
/* Add a table; returns its index.  Indexes its int keys directly where
 * their span is small, and adds its '?' cells to prog->unknowns (unless
 * t->unknown_site is already set: a table made from another's cells). */
int chunk_add_table(Program *prog, Table *t);
/* Add a '?' to prog->unknowns; returns its index. */
int chunk_add_unknown(Program *prog, UnknownSite site);
/* The row (or column) an int key selects in a KEYS_INTS or KEYS_RANGES
 * dimension, or -1: by binary search (chunk_dim_search), or, inline, from
 * the direct index where the dimension has one. */
int chunk_dim_search(const TableDim *d, int64_t k);
static inline int chunk_dim_find(const TableDim *d, int64_t k)
{
    if (d->direct) {
        if (k < d->direct_lo)
            return d->below;
        uint64_t at = (uint64_t)k - (uint64_t)d->direct_lo;   /* k >= direct_lo: no overflow this way */
        return at < (uint64_t)d->direct_n ? d->direct[at] : d->above;
    }
    return chunk_dim_search(d, k);
}

/* The row (or column) a key (an int, member or bool) selects, or -1. */
static inline int chunk_key_find(const TableDim *d, Value key)
{
    int64_t k = key.tag == VAL_BOOL ? (int64_t)key.as.b : key.as.i;
    if (d->mode == KEYS_INDEX)
        return k >= 0 && k < d->nkeys ? d->index[k] : -1;
    return chunk_dim_find(d, k);
}
/* Look a procedure up by name; -1 if none. */
int chunk_find_proto(const Program *prog, const char *name);

/* Work out every proto's `pure` and `memo` flags (after compiling). */
void chunk_mark_pure(Program *prog);

/* ---- the instruction decoder ----
 * The one reader of bytecode, shared by the VM, the disassembler, purity,
 * the peephole pass and the specializer; what it knows of each opcode
 * comes from op_info (opcodes.def). */

/* The u16 operand at `at` (little-endian). */
static inline unsigned chunk_u16(const uint8_t *at)
{
    return (unsigned)at[0] | ((unsigned)at[1] << 8);
}

/* Length of the instruction at code[pc], operands included. */
static inline int chunk_insn_len(const uint8_t *code, int pc)
{
    return 1 + op_info[code[pc]].operand_bytes;
}

/* Is op a (forward) jump? */
static inline bool chunk_is_jump(uint8_t op)
{
    return op_info[op].jump_at != OP_NOJUMP;
}

/* Where the jump at code[pc] lands: its offset counts from the end of the
 * instruction. */
static inline int chunk_jump_target(const uint8_t *code, int pc)
{
    const OpInfo *info = &op_info[code[pc]];
    return pc + 1 + info->operand_bytes + (int)chunk_u16(code + pc + 1 + info->jump_at);
}

/* Make the jump at code[pc] land on `target` (at or after its end). */
static inline void chunk_set_jump(uint8_t *code, int pc, int target)
{
    const OpInfo *info = &op_info[code[pc]];
    unsigned off = (unsigned)(target - (pc + 1 + info->operand_bytes));
    code[pc + 1 + info->jump_at] = (uint8_t)(off & 0xff);
    code[pc + 2 + info->jump_at] = (uint8_t)(off >> 8);
}

/* How many values the instruction at ip takes from the stack and puts on
 * it, with the counts opcodes.def gives as VARIES worked out from its
 * operands (and, for TABLE, the table's keys). */
int chunk_insn_pops(const Program *prog, const uint8_t *ip);
int chunk_insn_pushes(const Program *prog, const uint8_t *ip);
/* Disassemble one procedure / the whole program. */
void chunk_disassemble(FILE *out, const Program *prog, const Proto *p);
void chunk_disassemble_program(FILE *out, const Program *prog);

#endif
