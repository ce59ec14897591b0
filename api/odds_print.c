/* odds_print.c — the odds of prob printed as text, JSON or CSV, and --vs.
 *
 * The text table sizes its value column to the widest value, writes the
 * exact engine's fractions with GMP, and avoids printf's general conversion
 * per row, since a die of a million sides has a million rows.
 */
#include "config.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Wilson score interval at 95%. */
static void wilson(uint64_t k, uint64_t n, double *lo, double *hi)
{
    const double z = 1.959963984540054;
    double p = (double)k / (double)n, nn = (double)n;
    double denom = 1 + z * z / nn;
    double centre = (p + z * z / (2 * nn)) / denom;
    double half = z * sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / denom;
    *lo = centre - half < 0 ? 0 : centre - half;
    *hi = centre + half > 1 ? 1 : centre + half;
}

typedef struct Shown {
    Value v;
    const Program *prog;
} Shown;

static void print_shown(FILE *out, const void *what)
{
    const Shown *s = what;
    val_print(out, s->v, s->prog);
}

/* A value's text form as a string (GC memory). */
static char *value_text(Value v, const Program *prog)
{
    if (v.tag == VAL_INT) {
        /* the common case, without a stream (a die of a million sides has a million rows) */
        char buf[24];
        snprintf(buf, sizeof buf, "%lld", (long long)v.as.i);
        return mem_strdup(buf);
    }
    Shown s = { v, prog };
    return mem_printed(print_shown, &s);
}

/* The value column of an odds table: each value as text, cut at 40
 * characters; *width grows to the widest. */
static char **value_column(const Value *vals, int n, const Program *prog, int *width)
{
    char **texts = mem_alloc(sizeof(char *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        texts[i] = value_text(vals[i], prog);
        int w = (int)strlen(texts[i]);
        if (w > 40) {
            strcpy(texts[i] + 37, "...");
            w = 40;
        }
        if (w > *width)
            *width = w;
    }
    return texts;
}

/* A CSV field: quoted (with doubled quotes) when it holds a comma, quote or newline. */
static void csv_field(FILE *out, const char *text)
{
    if (!strpbrk(text, ",\"\n\r")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

static double as_double(Value v)
{
    return v.tag == VAL_RAT ? (double)v.as.q.num / (double)v.as.q.den : (double)v.as.i;
}

/* The --choose options in force, each choice once (the last given wins). */
static void print_choosing(FILE *out, const muster_prob_opts *opts)
{
    bool first = true;
    for (int i = 0; i < opts->nchoices; i++) {
        const char *eq = strchr(opts->choices[i], '=');
        size_t name = eq ? (size_t)(eq - opts->choices[i]) : strlen(opts->choices[i]);
        bool later = false;
        for (int j = i + 1; j < opts->nchoices; j++)
            later |= !strncmp(opts->choices[j], opts->choices[i], name) && opts->choices[j][name] == '=';
        if (later)
            continue;
        fprintf(out, "%s%s", first ? " choosing " : ", ", opts->choices[i]);
        first = false;
    }
}

static void print_mpq(FILE *out, const mpq_t q)
{
    mpz_out_str(out, 10, mpq_numref(q));
    if (mpz_cmp_ui(mpq_denref(q), 1) != 0) {
        fputc('/', out);
        mpz_out_str(out, 10, mpq_denref(q));
    }
}

static char *mem_printed_double(double d)
{
    char buf[32];
    snprintf(buf, sizeof buf, "~%.3g", d);
    return mem_strdup(buf);
}

static char *mpq_text(const mpq_t q)
{
    if (mpz_sizeinbase(mpq_numref(q), 10) + mpz_sizeinbase(mpq_denref(q), 10) + 3 <= 64) {
        /* the common case, in place (a die of a million sides has a million rows) */
        char buf[64];
        return mem_strdup(mpq_get_str(buf, 10, q));
    }
    char *s = mpq_get_str(NULL, 10, q);
    char *copy = mem_strdup(s);
    void (*freefunc)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &freefunc);
    freefunc(s, strlen(s) + 1);
    return copy;
}

/* x as printf's "%.<digits>f" would write it (digits 1..10), without the
 * cost of printf's general conversion: x's exact binary value times
 * 10^digits, rounded half to even, in 128-bit integers.  Numbers it cannot
 * do that way (huge, infinite, not a number) go to snprintf.  buf holds at
 * least 48 bytes; the length is returned. */
static int fixed_text(char *buf, double x, int digits)
{
    static const uint64_t pow10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
                                      1000000000, 10000000000ULL };
    int e;
    double f = frexp(fabs(x), &e);          /* |x| = f 2^e, f in [0.5, 1) */
    if (!isfinite(x) || e > 20 || digits < 1 || digits > 10)
        return snprintf(buf, 48, "%.*f", digits, x);
    int len = 0;
    if (signbit(x))
        buf[len++] = '-';
    unsigned __int128 q = 0;
    if (f != 0) {
        /* |x| = m 2^(e-53), m a whole number of 53 bits */
        uint64_t m = (uint64_t)ldexp(f, 53);
        int sh = 53 - e;                     /* > 32 */
        unsigned __int128 n = (unsigned __int128)m * pow10[digits];
        if (sh < 128) {
            q = n >> sh;
            unsigned __int128 rem = n & ((((unsigned __int128)1) << sh) - 1), half = ((unsigned __int128)1) << (sh - 1);
            if (rem > half || (rem == half && (q & 1)))
                q++;
        }
    }
    uint64_t whole = (uint64_t)(q / pow10[digits]), frac = (uint64_t)(q % pow10[digits]);
    char digits_of_whole[24];
    int w = 0;
    do {
        digits_of_whole[w++] = (char)('0' + whole % 10);
        whole /= 10;
    } while (whole);
    while (w)
        buf[len++] = digits_of_whole[--w];
    buf[len++] = '.';
    for (int k = digits - 1; k >= 0; k--) {
        buf[len + k] = (char)('0' + frac % 10);
        frac /= 10;
    }
    len += digits;
    buf[len] = '\0';
    return len;
}

/* text in a column of `width`, right-aligned (or left, for `left`) */
static void put_column(FILE *out, const char *text, int width, bool left)
{
    int pad = width - (int)strlen(text);
    if (left)
        fputs(text, out);
    for (; pad > 0; pad--)
        putc(' ', out);
    if (!left)
        fputs(text, out);
}

/* ends an odds row with a bar of '#', one per 2.5% of probability */
static void end_with_bar(FILE *out, double p)
{
    int bar = (int)(p * 40 + 0.5);
    if (bar)
        fputs("  ", out);
    for (int k = 0; k < bar; k++)
        fputc('#', out);
    fputc('\n', out);
}

/* Print an exact distribution in the chosen format; MUSTER_OK. */
int api_print_exact(muster_ctx *ctx, const Compiled *c, const ProcSig *sig, const Value *argv, const bool *given,
                       const muster_prob_opts *opts, const char *field, const ExactResult *r)
{
    FILE *out = ctx->out;
    bool numeric = r->n > 0 && (r->outcomes[0].value.tag == VAL_INT || r->outcomes[0].value.tag == VAL_RAT);
    /* mean and spread over the outcomes with a value */
    mpq_t mean, sq;
    mpq_inits(mean, sq, NULL);
    if (numeric)
        exact_moments(r, mean, sq);
    if (opts->json) {
        fputs("{\"exact\": true, \"trials\": null, \"outcomes\": [", out);
        for (int i = 0; i < r->n; i++) {
            fputs(i ? ", {\"value\": " : "{\"value\": ", out);
            val_print_json(out, r->outcomes[i].value, c->prog);
            fputs(", \"p\": \"", out);
            print_mpq(out, r->outcomes[i].p);
            fprintf(out, "\", \"probability\": %.10g}", mpq_get_d(r->outcomes[i].p));
        }
        if (mpq_sgn(r->not_given) > 0) {
            fputs(r->n ? ", " : "", out);
            fputs("{\"value\": null, \"not_given\": true, \"p\": \"", out);
            print_mpq(out, r->not_given);
            fprintf(out, "\", \"probability\": %.10g}", mpq_get_d(r->not_given));
        }
        fputs("]", out);
        if (mpq_sgn(r->dropped) > 0) {
            fputs(", \"dropped\": \"", out);
            print_mpq(out, r->dropped);
            fputc('"', out);
        }
        if (numeric)
            fprintf(out, ", \"mean\": %.10g, \"sd\": %.10g", mpq_get_d(mean), sqrt(mpq_get_d(sq)));
        fputs("}\n", out);
    } else if (opts->csv) {
        fputs("value,p,probability\n", out);
        for (int i = 0; i < r->n; i++) {
            char p[48];
            fixed_text(p, mpq_get_d(r->outcomes[i].p), 10);
            csv_field(out, value_text(r->outcomes[i].value, c->prog));
            fputc(',', out);
            print_mpq(out, r->outcomes[i].p);
            fprintf(out, ",%s\n", p);
        }
        if (mpq_sgn(r->not_given) > 0) {
            fputs("not given in source,", out);
            print_mpq(out, r->not_given);
            fprintf(out, ",%.10f\n", mpq_get_d(r->not_given));
        }
        if (mpq_sgn(r->dropped) > 0) {
            fputs("cut off,", out);
            print_mpq(out, r->dropped);
            fprintf(out, ",%.10f\n", mpq_get_d(r->dropped));
        }
    } else {
        api_print_call_given(out, c, sig, argv, given);
        if (field)
            fprintf(out, ".%s", field);
        print_choosing(out, opts);
        fprintf(out, ": exact (%llu run%s)\n", (unsigned long long)r->runs, r->runs == 1 ? "" : "s");
        int width = mpq_sgn(r->not_given) > 0 ? 19 : 5, pw = 1;
        Value *vals = mem_alloc(sizeof(Value) * (size_t)(r->n + 1));
        for (int i = 0; i < r->n; i++)
            vals[i] = r->outcomes[i].value;
        char **texts = value_column(vals, r->n, c->prog, &width);
        char **ps = mem_alloc(sizeof(char *) * (size_t)(r->n + 2));
        for (int i = 0; i < r->n; i++) {
            ps[i] = mpq_text(r->outcomes[i].p);
            if (strlen(ps[i]) > 30) {
                /* a fraction too long to read: its size instead (JSON keeps it whole) */
                char approx[32];
                snprintf(approx, sizeof approx, "~%.3g", mpq_get_d(r->outcomes[i].p));
                ps[i] = mem_strdup(approx);
            }
            if ((int)strlen(ps[i]) > pw)
                pw = (int)strlen(ps[i]);
        }
        if (pw > 30)
            pw = 30;
        fprintf(out, "%*s  %-*s  %11s  %9s  %9s\n", width, "value", pw, "p", "probability", "at least", "at most");
        double below = 0, valued = 1 - mpq_get_d(r->not_given) - mpq_get_d(r->dropped);
        for (int i = 0; i < r->n; i++) {
            double p = mpq_get_d(r->outcomes[i].p);
            double at_least = valued - below;   /* as in a simulation: of the runs with a value */
            if (r->n > 60 && i >= 40 && at_least < 1e-4) {
                /* a long tail (an exploding die): one line for what is left; --json has it all */
                fprintf(out, "%*s  %-*s  %11.5f  %9.5f  %9.5f\n", width, "more", pw, "", at_least, at_least, valued);
                fprintf(out, "(%d more values, from ", r->n - i);
                val_print(out, r->outcomes[i].value, c->prog);
                fputs(" to ", out);
                val_print(out, r->outcomes[r->n - 1].value, c->prog);
                fputs(", each rarer than shown; --json or --csv lists them)\n", out);
                break;
            }
            below += p;
            char pt[48], lt[48], mt[48];
            fixed_text(pt, p, 5);
            fixed_text(lt, at_least, 5);
            fixed_text(mt, below, 5);
            /* (as "%*s  %-*s  %11.5f  %9.5f  %9.5f", without printf's cost per row) */
            put_column(out, texts[i], width, false);
            fputs("  ", out);
            put_column(out, ps[i], pw, true);
            fputs("  ", out);
            put_column(out, pt, 11, false);
            fputs("  ", out);
            put_column(out, lt, 9, false);
            fputs("  ", out);
            put_column(out, mt, 9, false);
            end_with_bar(out, p);
        }
        if (mpq_sgn(r->not_given) > 0) {
            char *p = mpq_text(r->not_given);
            fprintf(out, "%*s  %-*s  %11.5f\n", width, "not given in source", pw, p, mpq_get_d(r->not_given));
        }
        if (mpq_sgn(r->dropped) > 0) {
            char *p = mpq_text(r->dropped);
            fprintf(out, "cut off: an open-ended roll went on past the depth limit with probability %s; "
                    "that is in no row above\n", strlen(p) <= 30 ? p : mem_printed_double(mpq_get_d(r->dropped)));
        }
        if (numeric) {
            char *m = mpq_text(mean);
            fprintf(out, "mean %.4f", mpq_get_d(mean));
            if (strlen(m) <= 30 && mpz_cmp_ui(mpq_denref(mean), 1) != 0)
                fprintf(out, " (%s)", m);
            fprintf(out, ", standard deviation %.4f%s\n", sqrt(mpq_get_d(sq)),
                    mpq_sgn(r->not_given) > 0 ? " (of the outcomes with a value)" : "");
        }
    }
    mpq_clears(mean, sq, NULL);
    return MUSTER_OK;
}

/* Print simulated odds in the chosen format. */
int api_print_simulated(muster_ctx *ctx, const Compiled *c, const muster_prob_opts *opts, const Odds *o)
{
    const ProcSig *sig = o->sig;
    const Value *argv = o->argv;
    const Tallies t = o->t;
    uint64_t trials = o->trials, unknown = o->unknown;
    const Proto *unknown_at = o->unknown_at;
    uint32_t unknown_offset = o->unknown_offset;
    int field = opts->field ? 0 : -1;
    struct { uint64_t seed; } rng = { o->seed };

    bool numeric = t.n > 0 && (t.items[0].value.tag == VAL_INT || t.items[0].value.tag == VAL_RAT);
    double mean = 0, var = 0;
    uint64_t known = trials - unknown;   /* mean and spread are of the trials with a value */
    if (numeric) {
        for (size_t i = 0; i < t.n; i++)
            mean += as_double(t.items[i].value) * (double)t.items[i].count;
        mean /= (double)known;
        for (size_t i = 0; i < t.n; i++) {
            double d = as_double(t.items[i].value) - mean;
            var += d * d * (double)t.items[i].count;
        }
        var /= (double)known;
    }
    double p_unknown = (double)unknown / (double)trials, u_lo = 0, u_hi = 0;
    if (unknown)
        wilson(unknown, trials, &u_lo, &u_hi);
    FILE *out = ctx->out;
    if (opts->json) {
        fprintf(out, "{\"exact\": false, \"trials\": %llu, \"seed\": %llu, \"outcomes\": [",
                (unsigned long long)trials, (unsigned long long)rng.seed);
        for (size_t i = 0; i < t.n; i++) {
            double p = (double)t.items[i].count / (double)trials, lo, hi;
            wilson(t.items[i].count, trials, &lo, &hi);
            fputs(i ? ", " : "", out);
            fputs("{\"value\": ", out);
            val_print_json(out, t.items[i].value, c->prog);
            fprintf(out, ", \"p\": %.6g, \"probability\": %.6g, \"low\": %.6g, \"high\": %.6g}", p, p, lo, hi);
        }
        if (unknown)
            fprintf(out, "%s{\"value\": null, \"not_given\": true, \"p\": %.6g, \"probability\": %.6g, "
                    "\"low\": %.6g, \"high\": %.6g}", t.n ? ", " : "", p_unknown, p_unknown, u_lo, u_hi);
        fputs("]", out);
        if (numeric)
            fprintf(out, ", \"mean\": %.6g, \"sd\": %.6g", mean, sqrt(var));
        fputs("}\n", out);
        return MUSTER_OK;
    }
    if (opts->csv) {
        fputs("value,probability,low,high,count\n", out);
        for (size_t i = 0; i < t.n; i++) {
            double lo, hi;
            wilson(t.items[i].count, trials, &lo, &hi);
            csv_field(out, value_text(t.items[i].value, c->prog));
            fprintf(out, ",%.6f,%.6f,%.6f,%llu\n", (double)t.items[i].count / (double)trials, lo, hi,
                    (unsigned long long)t.items[i].count);
        }
        if (unknown)
            fprintf(out, "not given in source,%.6f,%.6f,%.6f,%llu\n", p_unknown, u_lo, u_hi,
                    (unsigned long long)unknown);
        return MUSTER_OK;
    }
    api_print_call_given(out, c, sig, argv, o->given);
    if (field >= 0)
        fprintf(out, ".%s", opts->field);
    print_choosing(out, opts);
    fprintf(out, ": %llu trials, seed %llu (simulated; 95%% intervals)\n", (unsigned long long)trials,
            (unsigned long long)rng.seed);
    /* the value column is as wide as the widest value (up to a point) */
    int width = unknown ? 19 : 5;
    Value *vals = mem_alloc(sizeof(Value) * (t.n + 1));
    for (size_t i = 0; i < t.n; i++)
        vals[i] = t.items[i].value;
    char **texts = value_column(vals, (int)t.n, c->prog, &width);
    fprintf(out, "%*s  %9s  %19s  %9s  %9s\n", width, "value", "p", "95% interval", "at least", "at most");
    uint64_t below = 0;
    for (size_t i = 0; i < t.n; i++) {
        double p = (double)t.items[i].count / (double)trials, lo, hi;
        wilson(t.items[i].count, trials, &lo, &hi);
        double at_least = (double)(trials - unknown - below) / (double)trials;
        below += t.items[i].count;
        double at_most = (double)below / (double)trials;
        fprintf(out, "%*s  %9.5f  [%7.5f, %7.5f]  %9.5f  %9.5f", width, texts[i], p, lo, hi, at_least, at_most);
        end_with_bar(out, p);
    }
    if (unknown) {
        fprintf(out, "%*s  %9.5f  [%7.5f, %7.5f]\n", width, "not given in source", p_unknown, u_lo, u_hi);
        int line, col;
        source_linecol(compiler_source_of(c, unknown_at), unknown_offset, &line, &col);
        fprintf(out, "(%llu trials reached a value the rules text does not give, such as %s line %d)\n",
                (unsigned long long)unknown, compiler_source_of(c, unknown_at)->path, line);
    }
    if (numeric)
        fprintf(out, "mean %.4f, standard deviation %.4f%s\n", mean, sqrt(var),
                unknown ? " (of the trials with a value)" : "");
    return MUSTER_OK;
}

/* One side of a comparison: each value with its probability (and the exact
 * fraction when there is one). */
typedef struct Side {
    int n;
    Value *v;
    char **text;             /* values as text: two scripts' enums compare by name */
    double *p;
    char **exact;
    double mean;
    bool numeric;
} Side;

static void side_of(const Odds *o, const Program *prog, Side *s)
{
    memset(s, 0, sizeof *s);
    int n = o->exact ? o->er.n : (int)o->t.n;
    s->n = n;
    s->v = mem_alloc(sizeof(Value) * (size_t)(n + 1));
    s->p = mem_alloc_atomic(sizeof(double) * (size_t)(n + 1));
    s->text = mem_alloc(sizeof(char *) * (size_t)(n + 1));
    s->exact = mem_alloc(sizeof(char *) * (size_t)(n + 1));
    double total = 0;
    for (int i = 0; i < n; i++) {
        if (o->exact) {
            s->v[i] = o->er.outcomes[i].value;
            s->p[i] = mpq_get_d(o->er.outcomes[i].p);
            s->exact[i] = mpq_text(o->er.outcomes[i].p);
        } else {
            s->v[i] = o->t.items[i].value;
            s->p[i] = (double)o->t.items[i].count / (double)o->trials;
        }
        s->text[i] = value_text(s->v[i], prog);
        total += s->p[i];
    }
    s->numeric = n > 0 && (s->v[0].tag == VAL_INT || s->v[0].tag == VAL_RAT);
    for (int i = 0; s->numeric && i < n; i++)
        s->mean += as_double(s->v[i]) * s->p[i];
    if (s->numeric && total > 0)
        s->mean /= total;
}

static double p_of(const Side *s, const char *text)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->text[i], text))
            return s->p[i];
    return 0;
}

/* The share of runs that reached a value the rules text does not give. */
static double not_given_share(const Odds *o)
{
    if (o->exact)
        return mpq_get_d(o->er.not_given);
    return o->trials ? (double)o->unknown / (double)o->trials : 0;
}

/* --vs: the odds under the rules and under a house rule, side by side. */
int api_compare_odds(muster_ctx *ctx, const Compiled *c, const char *proc, int nargs, char *const *args,
                        const muster_prob_opts *opts, uint64_t seed, const Odds *base)
{
    muster_program *variant = muster_load(ctx, opts->vs);
    if (!variant)
        return MUSTER_ERROR;
    Odds other;
    int st = api_compute_odds(ctx, variant->compiled, proc, nargs, args, opts, seed, &other);
    if (st != MUSTER_OK)
        return st;
    Side a, b;
    side_of(base, c->prog, &a);
    side_of(&other, variant->compiled->prog, &b);
    /* every value either side gives: the rules' in order, then any only the variant gives */
    char **all = mem_alloc(sizeof(char *) * (size_t)(a.n + b.n + 1));
    Value *vals = mem_alloc(sizeof(Value) * (size_t)(a.n + b.n + 1));
    const Program **progs = mem_alloc(sizeof(Program *) * (size_t)(a.n + b.n + 1));
    int n = 0;
    for (int k = 0; k < 2; k++) {
        const Side *sd = k ? &b : &a;
        for (int i = 0; i < sd->n; i++) {
            int j;
            for (j = 0; j < n && strcmp(all[j], sd->text[i]); j++)
                ;
            if (j == n) {
                all[n] = sd->text[i];
                vals[n] = sd->v[i];
                progs[n++] = k ? variant->compiled->prog : c->prog;
            }
        }
    }
    /* numbers sort the same in both scripts: put them in order */
    bool numbers = true;
    for (int i = 0; i < n; i++)
        numbers &= vals[i].tag == VAL_INT || vals[i].tag == VAL_RAT;
    for (int i = 1; numbers && i < n; i++)
        for (int j = i; j > 0 && val_num_cmp(vals[j - 1], vals[j]) > 0; j--) {
            Value tv = vals[j];
            vals[j] = vals[j - 1];
            vals[j - 1] = tv;
            char *tt = all[j];
            all[j] = all[j - 1];
            all[j - 1] = tt;
        }
    bool exact = base->exact && other.exact;
    FILE *out = ctx->out;
    if (opts->json) {
        fprintf(out, "{\"exact\": %s, \"base\": ", exact ? "true" : "false");
        val_json_string(out, c->src->path, strlen(c->src->path));
        fputs(", \"variant\": ", out);
        val_json_string(out, opts->vs, strlen(opts->vs));
        fputs(", \"outcomes\": [", out);
        for (int i = 0; i < n; i++) {
            double pa = p_of(&a, all[i]), pb = p_of(&b, all[i]);
            fputs(i ? ", {\"value\": " : "{\"value\": ", out);
            val_print_json(out, vals[i], progs[i]);
            fprintf(out, ", \"base\": %.10g, \"variant\": %.10g, \"change\": %.10g}", pa, pb, pb - pa);
        }
        fputs("]", out);
        if (a.numeric && b.numeric)
            fprintf(out, ", \"base_mean\": %.10g, \"variant_mean\": %.10g, \"mean_change\": %.10g", a.mean, b.mean,
                    b.mean - a.mean);
        fputs("}\n", out);
        return MUSTER_OK;
    }
    api_print_call_given(out, c, base->sig, base->argv, base->given);
    if (opts->field)
        fprintf(out, ".%s", opts->field);
    print_choosing(out, opts);
    /* the file names as diag_put_text writes them: no raw control character */
    bool mixed = !exact && (base->exact || other.exact);   /* one side past the budget */
    char sim[64];
    snprintf(sim, sizeof sim, " (simulated, seed %llu)", (unsigned long long)seed);
    fputs(": ", out);
    diag_put_text(out, c->src->path);
    if (mixed)
        fputs(base->exact ? " (exact)" : sim, out);
    fputs(" against ", out);
    diag_put_text(out, opts->vs);
    if (mixed)
        fputs(other.exact ? " (exact)" : sim, out);
    else if (exact)
        fputs(", exact", out);
    else
        fprintf(out, ", simulated on the same dice, seed %llu", (unsigned long long)seed);
    fputc('\n', out);
    int width = not_given_share(base) > 0 || not_given_share(&other) > 0 ? 19 : 5;
    char **texts = mem_alloc(sizeof(char *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        texts[i] = mem_strdup(all[i]);
        if (strlen(texts[i]) > 40)
            strcpy(texts[i] + 37, "...");
        if ((int)strlen(texts[i]) > width)
            width = (int)strlen(texts[i]);
    }
    fprintf(out, "%*s  %9s  %9s  %9s\n", width, "value", "rules", "variant", "change");
    for (int i = 0; i < n; i++) {
        double pa = p_of(&a, all[i]), pb = p_of(&b, all[i]);
        fprintf(out, "%*s  %9.5f  %9.5f  %+9.5f\n", width, texts[i], pa, pb, pb - pa);
    }
    double ua = not_given_share(base), ub = not_given_share(&other);
    if (ua > 0 || ub > 0)
        fprintf(out, "%*s  %9.5f  %9.5f  %+9.5f\n", width, "not given in source", ua, ub, ub - ua);
    if (a.numeric && b.numeric)
        fprintf(out, "%*s  %9.4f  %9.4f  %+9.4f\n", width, "mean", a.mean, b.mean, b.mean - a.mean);
    if (base->exact)
        exact_clear((ExactResult *)&base->er);
    if (other.exact)
        exact_clear(&other.er);
    return MUSTER_OK;
}
