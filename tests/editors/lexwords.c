/* lexwords.c — where muster's lexer reads a keyword, for tests/editors.sh.
 *
 *   lexwords FILE...   one line per keyword token: FILE LINE COL WORD (tab-separated)
 *
 * Runs the real lexer (lang/lexer.re) over each file and prints every token
 * that is a word but not a name: the keywords, including the words that
 * are keywords only where they stand (a declaration word at the top level,
 * `each` in a modifiers block...) and the phrases `one of` and `start at`
 * (the blanks inside them printed as one space).  COL counts bytes from 1,
 * as Vim's col() does.  The editors' grammars are checked against this:
 * each of these tokens must be highlighted as a keyword, and a word the
 * lexer reads as a name here must not be.
 */
#include "config.h"

#include "base/mem.h"
#include "lang/parser_state.h"
#include "lang/parser.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: lexwords FILE...\n");
        return 2;
    }
    mem_init(0);
    int status = 0;
    for (int a = 1; a < argc; a++) {
        char err[256];
        Source *src = source_read(argv[a], err, sizeof err);
        if (!src) {
            fprintf(stderr, "lexwords: %s\n", err);
            status = 2;
            continue;
        }
        FILE *sink = fopen("/dev/null", "w");
        Diag diag;
        diag_init(&diag, sink ? sink : stderr, 0);
        Parser ps;
        lang_lex_init(&ps, src, &diag);
        for (;;) {
            LANG_YYSTYPE lval;
            memset(&lval, 0, sizeof lval);
            Span loc;
            int kind = lang_lex(&ps, &lval, &loc);
            if (kind == END)
                break;
            if (kind == IDENT || kind == INT || kind == DECIMAL || kind == DIE || kind == STRING || kind == DPAREN
                || kind == ROWEND || loc.end <= loc.begin || !isalpha((unsigned char)src->text[loc.begin]))
                continue;
            int line = 1;
            uint32_t start = 0;
            for (uint32_t i = 0; i < loc.begin; i++)
                if (src->text[i] == '\n') {
                    line++;
                    start = i + 1;
                }
            printf("%s\t%d\t%u\t", argv[a], line, loc.begin - start + 1);
            bool blank = false;
            for (uint32_t i = loc.begin; i < loc.end; i++) {
                char c = src->text[i];
                if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                    blank = true;
                    continue;
                }
                if (blank)
                    putchar(' ');
                blank = false;
                putchar(c);
            }
            putchar('\n');
        }
        if (sink)
            fclose(sink);
    }
    return status;
}
