/* pty_drive.c — types at a program running on a pseudo-terminal, and waits
 * for what it prints: the test of `muster repl` at a terminal (tests/repl.sh).
 *
 *   pty_drive [-t SECONDS] [-o TRANSCRIPT] -- COMMAND [ARG]... < STEPS
 *
 * COMMAND runs on a new pseudo-terminal (forkpty: its own session, the
 * terminal its controlling one, 80 columns by 24 lines, TERM=vt100), so it
 * sees a terminal on every stream and Ctrl-C typed there reaches it as
 * SIGINT.  The steps are read from standard input, one a line:
 *
 *   send TEXT   type TEXT; \t \r \n \e \\ and \xHH stand for their bytes
 *               (\x03 is Ctrl-C, \x04 Ctrl-D, \e[A the up arrow)
 *   wait TEXT   wait until TEXT (the same escapes) shows in what the program
 *               has written since the end of the last text waited for, the
 *               terminal's escape sequences, carriage returns, tabs, bells,
 *               backspaces and padding NULs taken out
 *   shell CMD   run CMD with the shell (to change a file the program reads),
 *               which must succeed
 *   end N       wait for the program to end, with exit status N
 *   # ...       a comment (blank lines too)
 *
 * Nothing is timed but the bound on each wait (-t, 20 seconds by default):
 * a step that is not met within it fails, and pty_drive then says which
 * step, shows the end of what it read, kills the program and exits 1.  Every
 * byte read is written, as read, to TRANSCRIPT; the text waits look at is
 * written to TRANSCRIPT.clean.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

typedef struct Buf {
    char *data;
    size_t len, cap;
} Buf;

static void buf_add(Buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->data = realloc(b->data, b->cap);
        if (!b->data) {
            perror("pty_drive");
            exit(2);
        }
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static int master = -1;
static pid_t child = -1;
static bool ended;
static int child_status;
static Buf raw, clean;
static size_t seen;          /* clean text before this was matched already */
static double timeout = 20;
static const char *transcript;
static int esc_state;        /* where the cleaner is in an escape sequence */

/* The terminal's output without what only moves the cursor or colours. */
static void clean_add(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (esc_state == 1) {            /* after ESC */
            esc_state = c == '[' ? 2 : (c == '(' || c == ')') ? 3 : 0;
            continue;
        }
        if (esc_state == 2) {            /* a CSI sequence, up to its final byte */
            if (c >= 0x40 && c <= 0x7e)
                esc_state = 0;
            continue;
        }
        if (esc_state == 3) {            /* a character set: one byte more */
            esc_state = 0;
            continue;
        }
        if (c == 0x1b) {
            esc_state = 1;
            continue;
        }
        if (c == '\r' || c == '\a' || c == '\b' || c == '\t' || c == '\0')
            continue;   /* (a tab moves the cursor, as libedit uses it; NULs pad) */
        buf_add(&clean, (const char *)&c, 1);
    }
}

static void save(void)
{
    if (!transcript)
        return;
    FILE *f = fopen(transcript, "wb");
    if (f) {
        fwrite(raw.data ? raw.data : "", 1, raw.len, f);
        fclose(f);
    }
    char name[4096];
    snprintf(name, sizeof name, "%s.clean", transcript);
    f = fopen(name, "wb");
    if (f) {
        fwrite(clean.data ? clean.data : "", 1, clean.len, f);
        fclose(f);
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Read what the program wrote, waiting at most `wait` seconds for it: 1
 * when something was read, 0 when nothing came, -1 once the program's side
 * of the terminal is closed and everything it wrote was read. */
static int pump(double wait)
{
    if (master < 0)
        return -1;
    struct pollfd p = { master, POLLIN, 0 };
    int ms = wait <= 0 ? 0 : (int)(wait * 1000) + 1;
    int r = poll(&p, 1, ms);
    if (r <= 0)
        return 0;
    char chunk[4096];
    ssize_t n = read(master, chunk, sizeof chunk);
    if (n > 0) {
        buf_add(&raw, chunk, (size_t)n);
        clean_add(chunk, (size_t)n);
        return 1;
    }
    if (n < 0 && errno == EINTR)
        return 0;
    /* EIO: the terminal's other side is closed (the program has ended) */
    close(master);
    master = -1;
    return -1;
}

static void reap(bool block)
{
    if (ended || child < 0)
        return;
    int st;
    pid_t got = waitpid(child, &st, block ? 0 : WNOHANG);
    if (got == child) {
        ended = true;
        child_status = st;
    }
}

static void show_tail(void)
{
    size_t from = clean.len > 1500 ? clean.len - 1500 : 0;
    fprintf(stderr, "---- the last of what it printed (cleaned) ----\n%s\n---- end ----\n",
            clean.data ? clean.data + from : "");
}

static void fail(int lineno, const char *step, const char *why)
{
    fprintf(stderr, "pty_drive: step %d (%s): %s\n", lineno, step, why);
    show_tail();
    save();
    if (child > 0 && !ended) {
        kill(child, SIGKILL);
        reap(true);
    }
    exit(1);
}

/* TEXT with its escapes turned into bytes; returns the length. */
static size_t unescape(const char *in, char *out)
{
    size_t n = 0;
    for (const char *p = in; *p; p++) {
        if (*p != '\\' || !p[1]) {
            out[n++] = *p;
            continue;
        }
        p++;
        switch (*p) {
        case 't': out[n++] = '\t'; break;
        case 'r': out[n++] = '\r'; break;
        case 'n': out[n++] = '\n'; break;
        case 'e': out[n++] = 0x1b; break;
        case '\\': out[n++] = '\\'; break;
        case 'x': {
            unsigned v = 0;
            int k = 0;
            while (k < 2 && p[1] && strchr("0123456789abcdefABCDEF", p[1])) {
                char d = *++p;
                v = v * 16 + (unsigned)(d <= '9' ? d - '0' : (d | 0x20) - 'a' + 10);
                k++;
            }
            out[n++] = (char)v;
            break;
        }
        default: out[n++] = '\\'; out[n++] = *p; break;
        }
    }
    out[n] = '\0';
    return n;
}

int main(int argc, char **argv)
{
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        if (!strcmp(argv[i], "-t") && i + 1 < argc)
            timeout = atof(argv[++i]);
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            transcript = argv[++i];
        else {
            fprintf(stderr, "usage: pty_drive [-t SECONDS] [-o TRANSCRIPT] -- COMMAND [ARG]... < STEPS\n");
            return 2;
        }
    }
    if (i + 1 >= argc) {
        fprintf(stderr, "usage: pty_drive [-t SECONDS] [-o TRANSCRIPT] -- COMMAND [ARG]... < STEPS\n");
        return 2;
    }
    char **command = argv + i + 1;
    /* the steps first, so that the program's standard input is not ours */
    char *steps[4096];
    int nsteps = 0;
    char line[8192];
    while (nsteps < 4096 && fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = '\0';
        steps[nsteps++] = strdup(line);
    }
    struct winsize ws = { .ws_row = 24, .ws_col = 80 };
    fflush(stdout);
    child = forkpty(&master, NULL, NULL, &ws);
    if (child < 0) {
        perror("pty_drive: forkpty");
        return 2;
    }
    if (child == 0) {
        setenv("TERM", "vt100", 1);
        execvp(command[0], command);
        perror("pty_drive: exec");
        _exit(127);
    }
    for (int k = 0; k < nsteps; k++) {
        char *step = steps[k];
        if (!*step || *step == '#')
            continue;
        char text[8192];
        if (!strncmp(step, "send ", 5)) {
            size_t n = unescape(step + 5, text);
            if (master < 0)
                fail(k + 1, step, "the program has ended");
            for (size_t off = 0; off < n;) {
                ssize_t w = write(master, text + off, n - off);
                if (w < 0 && errno == EINTR)
                    continue;
                if (w <= 0)
                    fail(k + 1, step, "cannot write to the terminal");
                off += (size_t)w;
            }
        } else if (!strncmp(step, "wait ", 5)) {
            unescape(step + 5, text);
            double until = now() + timeout;
            for (;;) {
                char *at = clean.data ? strstr(clean.data + seen, text) : NULL;
                if (at) {
                    seen = (size_t)(at - clean.data) + strlen(text);
                    break;
                }
                double left = until - now();
                if (left <= 0)
                    fail(k + 1, step, "not printed in time");
                if (pump(left < 0.5 ? left : 0.5) < 0)
                    fail(k + 1, step, "the program ended without printing it");
            }
        } else if (!strncmp(step, "shell ", 6)) {
            if (system(step + 6) != 0)
                fail(k + 1, step, "the command failed");
        } else if (!strncmp(step, "end ", 4)) {
            int want = atoi(step + 4);
            double until = now() + timeout;
            while (pump(0.2) >= 0)
                if (now() > until)
                    fail(k + 1, step, "the program did not end in time");
            while (!ended) {
                reap(false);
                if (ended)
                    break;
                if (now() > until)
                    fail(k + 1, step, "the program did not end in time");
                struct timespec pause = { 0, 10 * 1000 * 1000 };
                nanosleep(&pause, NULL);
            }
            if (!WIFEXITED(child_status)) {
                char why[64];
                snprintf(why, sizeof why, "the program was ended by signal %d", WTERMSIG(child_status));
                fail(k + 1, step, why);
            }
            if (WEXITSTATUS(child_status) != want) {
                char why[64];
                snprintf(why, sizeof why, "exit status %d", WEXITSTATUS(child_status));
                fail(k + 1, step, why);
            }
        } else {
            fail(k + 1, step, "not a step (send, wait, shell, end or #)");
        }
    }
    /* whatever is still coming, for the transcript */
    while (pump(0.1) > 0)
        ;
    if (!ended && child > 0) {
        kill(child, SIGKILL);
        reap(true);
    }
    save();
    return 0;
}
