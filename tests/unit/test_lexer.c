/* test_lexer.c — the re2c lexer: token kinds, spans, values, diagnostics. */
#include "config.h"
#include "tests/unit/harness.h"

#include "lang/parser_state.h"
#include "lang/parser.h"

#include <string.h>

#define MAX_TOKENS 64

typedef struct Tok {
    int kind;
    uint32_t begin, end;
    int64_t i;
    char text[64];           /* IDENT name or STRING bytes */
    size_t len;              /* STRING length */
} Tok;

typedef struct Lexed {
    Tok tok[MAX_TOKENS];
    int n;                   /* tokens before END */
    Tok end;                 /* the END token */
    int errors;
    char messages[4096];
} Lexed;

/* Lex text_len bytes of text up to END, recording every token. */
static void lex_n(Lexed *out, const char *text, size_t len)
{
    memset(out, 0, sizeof *out);
    Capture cap;
    capture_open(&cap);
    Parser ps;
    lang_lex_init(&ps, test_source_n(text, len), &cap.diag);
    for (int guard = 0; guard < MAX_TOKENS; guard++) {
        LANG_YYSTYPE lval;
        memset(&lval, 0, sizeof lval);
        Span loc = { 0xdead, 0xbeef };
        int kind = lang_lex(&ps, &lval, &loc);
        Tok *t = kind == END ? &out->end : &out->tok[out->n++];
        t->kind = kind;
        t->begin = loc.begin;
        t->end = loc.end;
        if (kind == INT || kind == DIE)
            t->i = lval.i;
        else if (kind == IDENT)
            snprintf(t->text, sizeof t->text, "%s", lval.s);
        else if (kind == STRING) {
            t->len = lval.str.len;
            memcpy(t->text, lval.str.bytes, lval.str.len < sizeof t->text ? lval.str.len : sizeof t->text);
        }
        if (kind == END)
            break;
    }
    CU_ASSERT_FATAL(out->end.kind == END && out->n < MAX_TOKENS);
    out->errors = cap.diag.errors;
    snprintf(out->messages, sizeof out->messages, "%s", capture_text(&cap));
    capture_close(&cap);
}

static void lex(Lexed *out, const char *text)
{
    lex_n(out, text, strlen(text));
}

/* Assert token k has this kind and span. */
#define TOKEN(lx, k, kind_, b, e)                        \
    do {                                                 \
        CU_ASSERT_EQUAL((lx).tok[k].kind, (kind_));      \
        CU_ASSERT_EQUAL((lx).tok[k].begin, (uint32_t)(b)); \
        CU_ASSERT_EQUAL((lx).tok[k].end, (uint32_t)(e)); \
    } while (0)

static void test_keywords(void)
{
    static const struct { const char *word; int kind; } kw[] = {
        { "proc", PROC }, { "enum", ENUM }, { "let", LET }, { "return", RETURN }, { "if", IF },
        { "else", ELSE }, { "reroll", REROLL }, { "roll", ROLL }, { "true", TRUE },
        { "false", FALSE }, { "and", AND }, { "or", OR }, { "not", NOT },
    };
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++) {
        char text[32];
        snprintf(text, sizeof text, "  %s ", kw[i].word);
        Lexed lx;
        lex(&lx, text);
        CU_ASSERT_EQUAL(lx.n, 1);
        TOKEN(lx, 0, kw[i].kind, 2, 2 + strlen(kw[i].word));
        CU_ASSERT_EQUAL(lx.errors, 0);
    }
}

/* Every word a prompt offers to complete as a keyword is one, first in a
 * script (where a declaration may start). */
static void test_prompt_keywords(void)
{
    int n = 0;
    for (const char *const *w = lang_keywords; *w; w++, n++) {
        Lexed lx;
        lex(&lx, *w);
        CU_ASSERT_EQUAL(lx.n, 1);
        CU_ASSERT_NOT_EQUAL(lx.tok[0].kind, IDENT);
        if (lx.tok[0].kind == IDENT)
            fprintf(stderr, "'%s' is lexed as a name\n", *w);
    }
    CU_ASSERT(n > 20);
}

static void test_names_are_not_keywords(void)
{
    /* a keyword is only a keyword as a whole word */
    static const char *const names[] = {
        "procs", "proc_", "enums", "letter", "returned", "iffy", "elsewhere", "rerolls",
        "roller", "truth", "falsely", "android", "order", "nothing", "Proc", "IF", "_roll", "d", "D6",
        "d6x", "x2", "_",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        Lexed lx;
        lex(&lx, names[i]);
        CU_ASSERT_EQUAL(lx.n, 1);
        TOKEN(lx, 0, IDENT, 0, strlen(names[i]));
        CU_ASSERT_STRING_EQUAL(lx.tok[0].text, names[i]);
        CU_ASSERT_EQUAL(lx.errors, 0);
    }
}

static void test_punctuation(void)
{
    /* offsets:    0123456789012345678901234567890 */
    const char *s = "-> == != <= >= ( ) { } , : = + - * / % < > . ;";
    static const int kinds[] = { ARROW, EQ, NE, LE, GE, '(', ')', '{', '}', ',', ':', '=', '+', '-',
                                 '*', '/', '%', '<', '>', '.', ';' };
    Lexed lx;
    lex(&lx, s);
    CU_ASSERT_EQUAL_FATAL(lx.n, (int)(sizeof kinds / sizeof kinds[0]));
    uint32_t at = 0;
    for (int k = 0; k < lx.n; k++) {
        uint32_t len = k < 5 ? 2 : 1;
        TOKEN(lx, k, kinds[k], at, at + len);
        at += len + 1;
    }
    CU_ASSERT_EQUAL(lx.errors, 0);
}

static void test_operators_without_spaces(void)
{
    /* "a<=-b" is a, <=, -, b; "x->y" is x, ->, y; "a==b" is a, ==, b */
    Lexed lx;
    lex(&lx, "a<=-b x->y a==b");
    CU_ASSERT_EQUAL_FATAL(lx.n, 10);
    TOKEN(lx, 0, IDENT, 0, 1);
    TOKEN(lx, 1, LE, 1, 3);
    TOKEN(lx, 2, '-', 3, 4);
    TOKEN(lx, 3, IDENT, 4, 5);
    TOKEN(lx, 4, IDENT, 6, 7);
    TOKEN(lx, 5, ARROW, 7, 9);
    TOKEN(lx, 6, IDENT, 9, 10);
    TOKEN(lx, 7, IDENT, 11, 12);
    TOKEN(lx, 8, EQ, 12, 14);
    TOKEN(lx, 9, IDENT, 14, 15);
}

static void test_integers(void)
{
    Lexed lx;
    lex(&lx, "0 7 42 007 9223372036854775807");
    CU_ASSERT_EQUAL_FATAL(lx.n, 5);
    TOKEN(lx, 0, INT, 0, 1);
    CU_ASSERT_EQUAL(lx.tok[0].i, 0);
    TOKEN(lx, 1, INT, 2, 3);
    CU_ASSERT_EQUAL(lx.tok[1].i, 7);
    TOKEN(lx, 2, INT, 4, 6);
    CU_ASSERT_EQUAL(lx.tok[2].i, 42);
    TOKEN(lx, 3, INT, 7, 10);
    CU_ASSERT_EQUAL(lx.tok[3].i, 7);
    TOKEN(lx, 4, INT, 11, 30);
    CU_ASSERT_EQUAL(lx.tok[4].i, INT64_MAX);
    CU_ASSERT_EQUAL(lx.errors, 0);
}

static void test_integer_overflow(void)
{
    Lexed lx;
    lex(&lx, "9223372036854775808 5");
    CU_ASSERT_EQUAL_FATAL(lx.n, 2);
    TOKEN(lx, 0, INT, 0, 19);
    CU_ASSERT_EQUAL(lx.tok[0].i, 0);
    TOKEN(lx, 1, INT, 20, 21);
    CU_ASSERT_EQUAL(lx.tok[1].i, 5);
    CU_ASSERT_EQUAL(lx.errors, 1);
    CU_ASSERT(contains(lx.messages, "test.muster:1:1: error: number too large"));
    CU_ASSERT(contains(lx.messages, "9223372036854775807"));

    lex(&lx, "123456789012345678901234567890");
    CU_ASSERT_EQUAL(lx.n, 1);
    CU_ASSERT_EQUAL(lx.errors, 1);
    CU_ASSERT(contains(lx.messages, "number too large"));
}

static void test_dice(void)
{
    Lexed lx;
    lex(&lx, "d6 d20 d100 d1 d1048576");
    CU_ASSERT_EQUAL_FATAL(lx.n, 5);
    TOKEN(lx, 0, DIE, 0, 2);
    CU_ASSERT_EQUAL(lx.tok[0].i, 6);
    TOKEN(lx, 1, DIE, 3, 6);
    CU_ASSERT_EQUAL(lx.tok[1].i, 20);
    TOKEN(lx, 2, DIE, 7, 11);
    CU_ASSERT_EQUAL(lx.tok[2].i, 100);
    TOKEN(lx, 3, DIE, 12, 14);
    CU_ASSERT_EQUAL(lx.tok[3].i, 1);
    TOKEN(lx, 4, DIE, 15, 23);
    CU_ASSERT_EQUAL(lx.tok[4].i, 1048576);
    CU_ASSERT_EQUAL(lx.errors, 0);
}

static void test_count_and_die(void)
{
    /* 2d6 is a count then a die, with adjacent spans */
    Lexed lx;
    lex(&lx, "2d6 10d10 (n)d8");
    CU_ASSERT_EQUAL_FATAL(lx.n, 8);
    TOKEN(lx, 0, INT, 0, 1);
    CU_ASSERT_EQUAL(lx.tok[0].i, 2);
    TOKEN(lx, 1, DIE, 1, 3);
    CU_ASSERT_EQUAL(lx.tok[1].i, 6);
    TOKEN(lx, 2, INT, 4, 6);
    CU_ASSERT_EQUAL(lx.tok[2].i, 10);
    TOKEN(lx, 3, DIE, 6, 9);
    CU_ASSERT_EQUAL(lx.tok[3].i, 10);
    TOKEN(lx, 4, '(', 10, 11);
    TOKEN(lx, 5, IDENT, 11, 12);
    TOKEN(lx, 6, ')', 12, 13);
    TOKEN(lx, 7, DIE, 13, 15);
    CU_ASSERT_EQUAL(lx.tok[7].i, 8);
    CU_ASSERT_EQUAL(lx.errors, 0);
}

static void test_bad_dice(void)
{
    Lexed lx;
    lex(&lx, "d0");
    CU_ASSERT_EQUAL_FATAL(lx.n, 1);
    TOKEN(lx, 0, DIE, 0, 2);
    CU_ASSERT_EQUAL(lx.errors, 1);
    CU_ASSERT(contains(lx.messages, "a die needs at least one side"));

    lex(&lx, "d1048577");
    CU_ASSERT_EQUAL_FATAL(lx.n, 1);
    TOKEN(lx, 0, DIE, 0, 8);
    CU_ASSERT_EQUAL(lx.errors, 1);
    CU_ASSERT(contains(lx.messages, "at most 1048576 sides"));

    lex(&lx, "d99999999999999999999");
    CU_ASSERT_EQUAL(lx.n, 1);
    CU_ASSERT_EQUAL(lx.errors, 1);
    CU_ASSERT(contains(lx.messages, "at most 1048576 sides"));
}

static void test_digit_then_letters(void)
{
    /* "3x" and "2d6x" are neither numbers nor names: one error, one token */
    Lexed lx;
    lex(&lx, "3x + 2d6x + 2d");
    CU_ASSERT_EQUAL_FATAL(lx.n, 5);
    TOKEN(lx, 0, INT, 0, 2);
    TOKEN(lx, 1, '+', 3, 4);
    TOKEN(lx, 2, INT, 5, 9);
    TOKEN(lx, 3, '+', 10, 11);
    TOKEN(lx, 4, INT, 12, 14);
    CU_ASSERT_EQUAL(lx.errors, 3);
    CU_ASSERT(contains(lx.messages, "'3x' is neither a number nor a name"));
    CU_ASSERT(contains(lx.messages, "'2d6x' is neither a number nor a name"));
    CU_ASSERT(contains(lx.messages, "'2d' is neither a number nor a name"));
}

static void test_strings(void)
{
    Lexed lx;
    lex(&lx, "\"hits\" \"\" \"a\\\"b\\n\\t\\\\c\"");
    CU_ASSERT_EQUAL_FATAL(lx.n, 3);
    TOKEN(lx, 0, STRING, 0, 6);
    CU_ASSERT_EQUAL(lx.tok[0].len, 4);
    CU_ASSERT_NSTRING_EQUAL(lx.tok[0].text, "hits", 4);
    TOKEN(lx, 1, STRING, 7, 9);
    CU_ASSERT_EQUAL(lx.tok[1].len, 0);
    /* "a\"b\n\t\\c" : 13 bytes of source, 7 bytes of value */
    TOKEN(lx, 2, STRING, 10, 23);
    CU_ASSERT_EQUAL(lx.tok[2].len, 7);
    CU_ASSERT_NSTRING_EQUAL(lx.tok[2].text, "a\"b\n\t\\c", 7);
    CU_ASSERT_EQUAL(lx.errors, 0);

    /* keywords and comment marks inside strings are plain text */
    lex(&lx, "\"proc # not a comment\"");
    CU_ASSERT_EQUAL_FATAL(lx.n, 1);
    TOKEN(lx, 0, STRING, 0, 22);
    CU_ASSERT_NSTRING_EQUAL(lx.tok[0].text, "proc # not a comment", 20);
}

static void test_unterminated_string(void)
{
    Lexed lx;
    lex(&lx, "x = \"open\ny");
    CU_ASSERT_EQUAL_FATAL(lx.n, 4);
    TOKEN(lx, 0, IDENT, 0, 1);
    TOKEN(lx, 1, '=', 2, 3);
    TOKEN(lx, 2, STRING, 4, 9);       /* up to, not including, the newline */
    CU_ASSERT_EQUAL(lx.tok[2].len, 4);
    CU_ASSERT_NSTRING_EQUAL(lx.tok[2].text, "open", 4);
    TOKEN(lx, 3, IDENT, 10, 11);
    CU_ASSERT_EQUAL(lx.errors, 1);
    CU_ASSERT(contains(lx.messages, "test.muster:1:5: error: unterminated string"));

    /* at the very end of the input too */
    lex(&lx, "\"abc");
    CU_ASSERT_EQUAL_FATAL(lx.n, 1);
    TOKEN(lx, 0, STRING, 0, 4);
    CU_ASSERT_EQUAL(lx.errors, 1);
    CU_ASSERT(contains(lx.messages, "unterminated string"));
}

static void test_comments_and_whitespace(void)
{
    Lexed lx;
    lex(&lx, "# a comment with proc and \"quotes\"\n\tx # trailing\r\n\f\v y#z");
    CU_ASSERT_EQUAL_FATAL(lx.n, 2);
    TOKEN(lx, 0, IDENT, 36, 37);
    CU_ASSERT_STRING_EQUAL(lx.tok[0].text, "x");
    TOKEN(lx, 1, IDENT, 53, 54);
    CU_ASSERT_STRING_EQUAL(lx.tok[1].text, "y");
    CU_ASSERT_EQUAL(lx.errors, 0);
    CU_ASSERT_EQUAL(lx.end.begin, 56);
}

static void test_end_of_input(void)
{
    Lexed lx;
    lex(&lx, "");
    CU_ASSERT_EQUAL(lx.n, 0);
    CU_ASSERT_EQUAL(lx.end.kind, END);
    CU_ASSERT_EQUAL(lx.end.begin, 0);
    CU_ASSERT_EQUAL(lx.errors, 0);

    lex(&lx, "x   ");
    CU_ASSERT_EQUAL(lx.n, 1);
    CU_ASSERT_EQUAL(lx.end.begin, 4);
    CU_ASSERT_EQUAL(lx.end.end, 4);

    lex(&lx, "x # comment to the end");
    CU_ASSERT_EQUAL(lx.n, 1);
    CU_ASSERT_EQUAL(lx.end.begin, 22);

    /* END is sticky: asking again gives END again */
    Capture cap;
    capture_open(&cap);
    Parser ps;
    lang_lex_init(&ps, test_source("a"), &cap.diag);
    LANG_YYSTYPE lval;
    Span loc;
    CU_ASSERT_EQUAL(lang_lex(&ps, &lval, &loc), IDENT);
    CU_ASSERT_EQUAL(lang_lex(&ps, &lval, &loc), END);
    CU_ASSERT_EQUAL(lang_lex(&ps, &lval, &loc), END);
    CU_ASSERT_EQUAL(loc.begin, 1);
    capture_close(&cap);
}

static void test_bad_characters(void)
{
    /* each bad character is reported with its position and skipped */
    Lexed lx;
    lex(&lx, "a @ b $c ! d & e | f");
    CU_ASSERT_EQUAL_FATAL(lx.n, 6);
    TOKEN(lx, 0, IDENT, 0, 1);
    TOKEN(lx, 1, IDENT, 4, 5);
    TOKEN(lx, 2, IDENT, 7, 8);
    TOKEN(lx, 3, IDENT, 11, 12);
    TOKEN(lx, 4, IDENT, 15, 16);
    TOKEN(lx, 5, IDENT, 19, 20);
    CU_ASSERT_EQUAL(lx.errors, 5);
    CU_ASSERT(contains(lx.messages, "test.muster:1:3: error: unexpected character '@'"));
    CU_ASSERT(contains(lx.messages, "test.muster:1:7: error: unexpected character '$'"));
    CU_ASSERT(contains(lx.messages, "test.muster:1:10: error: unexpected '!': write 'not'"));
    CU_ASSERT(contains(lx.messages, "test.muster:1:14: error: unexpected '&': write 'and' / 'or'"));
    CU_ASSERT(contains(lx.messages, "test.muster:1:18: error: unexpected '|'"));
}

static void test_non_ascii(void)
{
    /* a two-byte UTF-8 character is one error spanning both bytes */
    Lexed lx;
    lex(&lx, "x \xc3\xa9 y");
    CU_ASSERT_EQUAL_FATAL(lx.n, 2);
    TOKEN(lx, 0, IDENT, 0, 1);
    TOKEN(lx, 1, IDENT, 5, 6);
    CU_ASSERT_EQUAL(lx.errors, 1);
    CU_ASSERT(contains(lx.messages, "unexpected byte 0xc3: outside strings and comments a script is plain ASCII"));

    /* but inside strings and comments it is fine */
    lex(&lx, "\"caf\xc3\xa9\" # \xe2\x9a\x94");
    CU_ASSERT_EQUAL_FATAL(lx.n, 1);
    TOKEN(lx, 0, STRING, 0, 7);
    CU_ASSERT_EQUAL(lx.tok[0].len, 5);
    CU_ASSERT_EQUAL(lx.errors, 0);

    /* a control character */
    lex(&lx, "a\x01 b");
    CU_ASSERT_EQUAL(lx.n, 2);
    CU_ASSERT_EQUAL(lx.errors, 1);
    CU_ASSERT(contains(lx.messages, "unexpected character byte 0x01"));
}

static void test_nul_bytes(void)
{
    /* a NUL inside the text is a bad character, not the end of input */
    static const char text[] = "a\0b";
    Lexed lx;
    lex_n(&lx, text, 3);
    CU_ASSERT_EQUAL_FATAL(lx.n, 2);
    TOKEN(lx, 0, IDENT, 0, 1);
    TOKEN(lx, 1, IDENT, 2, 3);
    CU_ASSERT_STRING_EQUAL(lx.tok[1].text, "b");
    CU_ASSERT_EQUAL(lx.end.begin, 3);
    CU_ASSERT_EQUAL(lx.errors, 1);
    CU_ASSERT(contains(lx.messages, "byte 0x00"));

    /* a NUL ends a comment and a string, and is reported each time */
    static const char text2[] = "# c\0x \"s\0 y";
    lex_n(&lx, text2, sizeof text2 - 1);
    CU_ASSERT_EQUAL_FATAL(lx.n, 3);
    TOKEN(lx, 0, IDENT, 4, 5);
    TOKEN(lx, 1, STRING, 6, 8);
    CU_ASSERT_EQUAL(lx.tok[1].len, 1);
    TOKEN(lx, 2, IDENT, 10, 11);
    CU_ASSERT_EQUAL(lx.errors, 3);
    CU_ASSERT_EQUAL(occurrences(lx.messages, "byte 0x00"), 2);
    CU_ASSERT_EQUAL(occurrences(lx.messages, "unterminated string"), 1);
    CU_ASSERT_EQUAL(lx.end.begin, sizeof text2 - 1);

    /* the parser refuses a file with a NUL byte outright, at the byte */
    static const char text3[] = "proc f() -> int { return 1 }\0junk";
    Capture cap;
    capture_open(&cap);
    Module *m = parse_module(test_source_n(text3, sizeof text3 - 1), &cap.diag);
    CU_ASSERT_PTR_NOT_NULL(m);
    CU_ASSERT_EQUAL(m->n, 0);
    CU_ASSERT_EQUAL(cap.diag.errors, 1);
    CU_ASSERT(contains(capture_text(&cap), "test.muster:1:29: error: the file contains a NUL byte"));
    capture_close(&cap);
}

static void test_spans_across_lines(void)
{
    /* offsets are bytes from the start of the file; messages give line:col */
    Lexed lx;
    lex(&lx, "proc\n  f\n\n@");
    CU_ASSERT_EQUAL_FATAL(lx.n, 2);
    TOKEN(lx, 0, PROC, 0, 4);
    TOKEN(lx, 1, IDENT, 7, 8);
    CU_ASSERT(contains(lx.messages, "test.muster:4:1: error: unexpected character '@'"));
    /* the message shows the line and a caret under the character */
    CU_ASSERT(contains(lx.messages, "    4 | @\n"));
    CU_ASSERT(contains(lx.messages, "      | ^\n"));

    /* columns count characters, not bytes: the e-acute is one column */
    lex(&lx, "\"caf\xc3\xa9\" @");
    CU_ASSERT_EQUAL(lx.errors, 1);
    CU_ASSERT_EQUAL(lx.tok[0].end, 7);
    CU_ASSERT(contains(lx.messages, "test.muster:1:8: error: unexpected character '@'"));
    CU_ASSERT(contains(lx.messages, "      |        ^\n"));
}

static void test_statement_tokens(void)
{
    /* a whole line, as the parser sees it */
    const char *s = "let dice = roll (n + 1) d6";
    static const int kinds[] = { LET, IDENT, '=', ROLL, '(', IDENT, '+', INT, ')', DIE };
    static const uint32_t begins[] = { 0, 4, 9, 11, 16, 17, 19, 21, 22, 24 };
    Lexed lx;
    lex(&lx, s);
    CU_ASSERT_EQUAL_FATAL(lx.n, 10);
    for (int k = 0; k < 10; k++) {
        CU_ASSERT_EQUAL(lx.tok[k].kind, kinds[k]);
        CU_ASSERT_EQUAL(lx.tok[k].begin, begins[k]);
    }
    CU_ASSERT_EQUAL(lx.tok[9].end, 26);
    CU_ASSERT_STRING_EQUAL(lx.tok[1].text, "dice");
}


/* ---- rules constructs: contextual keywords and table bodies ---- */

/* The tokens of text, written out one word each: keywords in capitals
 * (TABLE, EACH, ROWEND, ...), names as themselves, numbers by value (so the
 * one token -3 shows as "-3" and '-' then 3 as "- 3"), strings quoted,
 * punctuation as itself.  "ERRORS" is appended when there were errors. */
static const char *token_words(const char *text)
{
    static char out[4096];
    static const struct { int kind; const char *name; } names[] = {
        { PROC, "PROC" }, { ENUM, "ENUM" }, { LET, "LET" }, { RETURN, "RETURN" }, { IF, "IF" },
        { ELSE, "ELSE" }, { REROLL, "REROLL" }, { ROLL, "ROLL" }, { TRUE, "TRUE" }, { FALSE, "FALSE" },
        { AND, "AND" }, { OR, "OR" }, { NOT, "NOT" }, { RULESET, "RULESET" }, { LADDER, "LADDER" },
        { RECORD, "RECORD" }, { TABLE, "TABLE" }, { BANDS, "BANDS" }, { MODIFIERS, "MODIFIERS" },
        { OUTCOME, "OUTCOME" }, { CHOICE, "CHOICE" }, { SEQUENCE, "SEQUENCE" }, { EXAMPLE, "EXAMPLE" },
        { IMPORT, "IMPORT" }, { EXPECT, "EXPECT" }, { EACH, "EACH" }, { CAP, "CAP" }, { ONEOF, "ONEOF" },
        { STARTAT, "STARTAT" }, { ARROW, "->" }, { EQ, "==" }, { NE, "!=" }, { LE, "<=" }, { GE, ">=" },
        { DOTDOT, ".." }, { FATARROW, "=>" }, { DPAREN, "d(" }, { ROWEND, "ROWEND" }, { DIE, "DIE" },
    };
    Capture cap;
    capture_open(&cap);
    Parser ps;
    lang_lex_init(&ps, test_source(text), &cap.diag);
    size_t len = 0;
    out[0] = '\0';
    for (int guard = 0; guard < 1000; guard++) {
        LANG_YYSTYPE lval;
        memset(&lval, 0, sizeof lval);
        Span loc;
        int kind = lang_lex(&ps, &lval, &loc);
        if (kind == END)
            break;
        char word[80];
        if (kind == INT)
            snprintf(word, sizeof word, "%lld", (long long)lval.i);
        else if (kind == IDENT)
            snprintf(word, sizeof word, "%s", lval.s);
        else if (kind == STRING)
            snprintf(word, sizeof word, "\"%.*s\"", (int)lval.str.len, lval.str.bytes);
        else if (kind > 0 && kind < 256)
            snprintf(word, sizeof word, "%c", kind);
        else {
            snprintf(word, sizeof word, "<%d>", kind);
            for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
                if (names[i].kind == kind)
                    snprintf(word, sizeof word, "%s", names[i].name);
        }
        len += (size_t)snprintf(out + len, sizeof out - len, "%s%s", len ? " " : "", word);
        CU_ASSERT_FATAL(len < sizeof out - 100);
    }
    if (cap.diag.errors)
        snprintf(out + len, sizeof out - len, " ERRORS");
    capture_close(&cap);
    return out;
}

#define WORDS(text, want)                                                       \
    do {                                                                        \
        const char *got_ = token_words(text);                                   \
        if (strcmp(got_, want) != 0)                                            \
            fprintf(stderr, "\nlexing %s\n  got:  %s\n  want: %s\n", text, got_, want); \
        CU_ASSERT_STRING_EQUAL(got_, want);                                     \
    } while (0)

static void test_table_rows_end_at_line_ends(void)
{
    /* a line of a table body is a row: its newline is a ROWEND token; the
     * newline right after '{', blank lines and comment lines add none */
    WORDS("table t(f: F) -> int {\n  a: 1\n\n  # a comment\n  b: 2  # trailing\n}\n",
          "TABLE t ( f : F ) -> int { a : 1 ROWEND b : 2 ROWEND }");
    /* the same for bands, with ranges, lists and the sheet's words */
    WORDS("bands b(x: int) -> R {\n  ..2 => lo \"Low\"\n  3, 4 => mid\n  5.. => hi\n}",
          "BANDS b ( x : int ) -> R { .. 2 => lo \"Low\" ROWEND 3 , 4 => mid ROWEND 5 .. => hi ROWEND }");
    /* a last row ended by '}' on its own line gets its ROWEND before the '}' */
    WORDS("table t(f: F) -> int { a: 1 }", "TABLE t ( f : F ) -> int { a : 1 ROWEND }");
    /* outside a table body newlines are nothing, also after the table */
    WORDS("table t(f: F) -> int {\n a: 1\n}\nproc g() -> int {\n  return 1\n}\n",
          "TABLE t ( f : F ) -> int { a : 1 ROWEND } PROC g ( ) -> int { RETURN 1 }");
    WORDS("proc f() -> int {\n  let x = 1\n  return x\n}", "PROC f ( ) -> int { LET x = 1 RETURN x }");
    /* inside brackets within a table body a newline is not a line end */
    WORDS("table t(f: F) -> int {\n a: (1\n 2)\n}", "TABLE t ( f : F ) -> int { a : ( 1 2 ) ROWEND }");
    /* the column headings line is a row of its own */
    WORDS("table m(a: A, b: B) -> int {\n  columns x y\n  p: 1 2\n}",
          "TABLE m ( a : A , b : B ) -> int { columns x y ROWEND p : 1 2 ROWEND }");
}

static void test_table_row_end_spans(void)
{
    /* the ROWEND of a line is its newline; one before '}' is empty, at the '}' */
    Lexed lx;
    /*         0         1         2
     *         0123456789012345678901234567 */
    lex(&lx, "table t(f: F) -> int {\na: 1\n}");
    CU_ASSERT_EQUAL_FATAL(lx.n, 15);
    TOKEN(lx, 10, IDENT, 23, 24);
    TOKEN(lx, 12, INT, 26, 27);
    TOKEN(lx, 13, ROWEND, 27, 28);
    TOKEN(lx, 14, '}', 28, 29);
    lex(&lx, "table t(f: F) -> int { a: 1 }");
    CU_ASSERT_EQUAL_FATAL(lx.n, 15);
    TOKEN(lx, 13, ROWEND, 28, 28);
    TOKEN(lx, 14, '}', 28, 29);
    CU_ASSERT_EQUAL(lx.errors, 0);
}

static void test_table_signed_numbers(void)
{
    /* in a table body a sign and its digits are one number, and a lone '-'
     * is the "not applicable" cell */
    WORDS("table t(f: F) -> int {\n a: -3 - +2 -\n b: - 3\n}",
          "TABLE t ( f : F ) -> int { a : -3 - 2 - ROWEND b : - 3 ROWEND }");
    WORDS("table t(f: F) -> rat {\n a: -1/4 ? 1/2\n}", "TABLE t ( f : F ) -> rat { a : -1 / 4 ? 1 / 2 ROWEND }");
    WORDS("bands b(x: int) -> int {\n ..-2 => -1\n -1..+1 => 0\n}",
          "BANDS b ( x : int ) -> int { .. -2 => -1 ROWEND -1 .. 1 => 0 ROWEND }");
    /* elsewhere -3 is '-' then 3 (so a - 3 and a-3 both subtract) */
    WORDS("proc f(a: int) -> int { return a-3 + -2 }", "PROC f ( a : int ) -> int { RETURN a - 3 + - 2 }");
    /* in the parameter list of a table, before its body, too */
    WORDS("table t(f: int = -3) -> int {\n 1: -3\n}", "TABLE t ( f : int = - 3 ) -> int { 1 : -3 ROWEND }");
    /* a signed number too large for 64 bits is reported */
    CU_ASSERT_STRING_EQUAL(token_words("table t(f: F) -> int {\n a: -9223372036854775808\n}"),
                           "TABLE t ( f : F ) -> int { a : 0 ROWEND } ERRORS");
    CU_ASSERT_STRING_EQUAL(token_words("table t(f: F) -> int {\n a: -9223372036854775807\n}"),
                           "TABLE t ( f : F ) -> int { a : -9223372036854775807 ROWEND }");
}

static void test_top_level_keywords_only_at_the_top(void)
{
    WORDS("ruleset ladder record table bands modifiers outcome choice sequence example import",
          "RULESET LADDER RECORD TABLE BANDS MODIFIERS OUTCOME CHOICE SEQUENCE EXAMPLE IMPORT");
    /* inside any bracket they are names: parameters, locals, members, fields */
    WORDS("proc f(table: int) -> int { let outcome = table return outcome }",
          "PROC f ( table : int ) -> int { LET outcome = table RETURN outcome }");
    WORDS("enum Kind { record, choice, import }", "ENUM Kind { record , choice , import }");
    WORDS("record Unit { sequence: int, example: bool }", "RECORD Unit { sequence : int , example : bool }");
    /* words that are never keywords at the top level stay names there */
    WORDS("each cap expect one of start at columns source step phase dice choose default in",
          "each cap expect one of start at columns source step phase dice choose default in");
}

static void test_block_keywords_only_in_their_blocks(void)
{
    /* each, cap, "one of" and "start at" in a modifier list (also inside its
     * "one of" group); the parameters before the body are names */
    WORDS("modifiers m(each: int, cap: bool) { start at 1 \"b\" one of { each n : +1 \"x\" } cap ..3 \"c\" }",
          "MODIFIERS m ( each : int , cap : bool ) { STARTAT 1 \"b\" ONEOF { EACH n : + 1 \"x\" } CAP .. 3 \"c\" }");
    /* elsewhere they are names */
    WORDS("proc f() -> int { let each = 1 let cap = one of start at }",
          "PROC f ( ) -> int { LET each = 1 LET cap = one of start at }");
    /* "one of" and "start at" are whole words, across a line break too */
    WORDS("modifiers m() { one offset start atom one\n of start\tat }",
          "MODIFIERS m ( ) { one offset start atom ONEOF STARTAT }");
    /* expect in an example; in a procedure it is a name */
    WORDS("example \"e\" { dice 6 expect f() == 1 }", "EXAMPLE \"e\" { dice 6 EXPECT f ( ) == 1 }");
    WORDS("proc f(expect: int) -> int { return expect }", "PROC f ( expect : int ) -> int { RETURN expect }");
    WORDS("modifiers m() { expect }", "MODIFIERS m ( ) { expect }");
    WORDS("example \"e\" { each cap }", "EXAMPLE \"e\" { each cap }");
}

static void test_doc_comments_make_no_tokens(void)
{
    WORDS("## The fire table.\n##\n## More.\nproc f() -> int { ## inside\n return 1 }",
          "PROC f ( ) -> int { RETURN 1 }");
    WORDS("table t(f: F) -> int {\n## a doc line in a body\n a: 1 ## after a row\n}",
          "TABLE t ( f : F ) -> int { a : 1 ROWEND }");
}

void register_tests(void)
{
    static const TestDef tests[] = {
        { "keywords", test_keywords },
        { "the keywords a prompt completes", test_prompt_keywords },
        { "names that contain keywords are names", test_names_are_not_keywords },
        { "punctuation and operators", test_punctuation },
        { "operators without spaces", test_operators_without_spaces },
        { "integers", test_integers },
        { "integer overflow", test_integer_overflow },
        { "dice", test_dice },
        { "2d6 is a count and a die", test_count_and_die },
        { "bad dice", test_bad_dice },
        { "digits followed by letters", test_digit_then_letters },
        { "strings and escapes", test_strings },
        { "unterminated string", test_unterminated_string },
        { "comments and whitespace", test_comments_and_whitespace },
        { "end of input", test_end_of_input },
        { "bad characters are reported and skipped", test_bad_characters },
        { "non-ASCII bytes", test_non_ascii },
        { "NUL bytes", test_nul_bytes },
        { "spans across lines", test_spans_across_lines },
        { "a statement's tokens", test_statement_tokens },
        { NULL, NULL },
    };
    add_suite("lexer", tests);
    static const TestDef rules[] = {
        { "table rows end at line ends", test_table_rows_end_at_line_ends },
        { "spans of row ends", test_table_row_end_spans },
        { "signed numbers and '-' cells in tables", test_table_signed_numbers },
        { "declaration keywords only at the top level", test_top_level_keywords_only_at_the_top },
        { "block keywords only in their blocks", test_block_keywords_only_in_their_blocks },
        { "doc comments make no tokens", test_doc_comments_make_no_tokens },
        { NULL, NULL },
    };
    add_suite("lexer: rules constructs", rules);
}
