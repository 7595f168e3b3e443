/*
 * human.c — byte counts for a person, the tensors that make up the peak and
 * the runtime profile options (human.h).
 */
#include "core/buf.h"
#include "harness/cli/human.h"
#include "harness/formats/plan_formats.h"

#include <inttypes.h>
#include <string.h>

#include "core/ab.h"
#include "harness/cli/fail.h"
#include "oracle/bounds.h"

const char *abc_bytes(char *buf, int64_t v, bool raw) {
    static const char *const units[] = {"KiB", "MiB", "GiB"};
    if (raw) {
        snprintf(buf, ABC_BYTES_LEN, "%" PRId64 " bytes", v);
        return buf;
    }
    if (v < 1024 && v > -1024) {
        snprintf(buf, ABC_BYTES_LEN, "%" PRId64 " B", v);
        return buf;
    }
    double x = (double)v / 1024.0;
    size_t u = 0;
    while (u + 1 < sizeof units / sizeof units[0] && (x >= 1024.0 || x <= -1024.0)) {
        x /= 1024.0;
        u++;
    }
    snprintf(buf, ABC_BYTES_LEN, "%.2f %s", x, units[u]);
    return buf;
}

void abc_print_size(FILE *to, const char *label, int64_t v, bool raw) {
    char b[ABC_BYTES_LEN];
    fprintf(to, "%-10s %s\n", label, abc_bytes(b, v, raw));
}

/* The width of the name column: the longest name shown, within 12 .. 40. */
static int name_width(const ab_problem *p, const size_t *idx, size_t n) {
    size_t w = 12;
    for (size_t i = 0; i < n; i++)
        if (strlen(p->t[idx[i]].name) > w) w = strlen(p->t[idx[i]].name);
    return w > 40 ? 40 : (int)w;
}

int abc_print_peak(FILE *to, const ab_problem *p, int64_t instr, int64_t peak,
                   const int64_t *offsets, bool raw) {
    size_t *idx, n;
    ab_error err;
    ab_error_clear(&err);
    if (abo_live_at(p, instr, &idx, &n, &err) != AB_OK) return abc_fail(&err);
    char b[ABC_BYTES_LEN], c[ABC_BYTES_LEN];
    fprintf(to, "peak live  %s at instruction %" PRId64 ", %zu tensor%s:\n",
            abc_bytes(b, peak, raw), instr, n, n == 1 ? "" : "s");
    int w = name_width(p, idx, n < ABC_PEAK_ROWS ? n : ABC_PEAK_ROWS);
    fprintf(to, "  %-*s  %14s  %6s%s\n", w, "tensor", "size", "share", offsets ? "  offset" : "");
    int64_t rest = 0;
    for (size_t i = 0; i < n; i++) {
        const ab_tensor *t = &p->t[idx[i]];
        if (i >= ABC_PEAK_ROWS) {
            rest += t->size;
            continue;
        }
        fprintf(to, "  %-*.*s  %14s  %5.1f%%", w, w, ab_term(t->name), abc_bytes(b, t->size, raw),
                peak > 0 ? 100.0 * (double)t->size / (double)peak : 0.0);
        if (offsets) fprintf(to, "  %s", abc_bytes(c, offsets[idx[i]], raw));
        fprintf(to, "\n");
    }
    if (n > ABC_PEAK_ROWS)
        fprintf(to, "  ... and %zu more, %s (%.1f%%)\n", n - ABC_PEAK_ROWS,
                abc_bytes(b, rest, raw), peak > 0 ? 100.0 * (double)rest / (double)peak : 0.0);
    ab_free(idx);
    return 0;
}

void abc_print_top(FILE *to, const ab_problem *view, const int64_t *offsets, int64_t arena,
                   int64_t peak, bool raw) {
    char b[ABC_BYTES_LEN], c[ABC_BYTES_LEN];
    size_t shown = 0, at_top = 0;
    for (size_t i = 0; i < view->n; i++) {
        const ab_tensor *t = &view->t[i];
        if (offsets[i] + t->size != arena) continue;
        at_top++;
        if (shown == ABC_PEAK_ROWS) continue;
        fprintf(to, "%-10s %s: offset %s + size %s, live [%" PRId64 ", %" PRId64 "]\n",
                shown ? "" : "top", ab_term(t->name), abc_bytes(b, offsets[i], raw),
                abc_bytes(c, t->size, raw), t->start, t->end);
        shown++;
    }
    if (at_top > shown) fprintf(to, "%-10s ... and %zu more\n", "", at_top - shown);
    fprintf(to, "%-10s %s (arena minus peak live, %.1f%% of the arena)\n", "fragmented",
            abc_bytes(b, arena - peak, raw),
            arena > 0 ? 100.0 * (double)(arena - peak) / (double)arena : 0.0);
}

int abc_profile_args(const abc_args *a, bool io_option, abf_profile_choice *c) {
    ab_error err;
    ab_error_clear(&err);
    if (abf_profile_choose(abc_opt(a, "profile", NULL), io_option ? abc_opt(a, "io", NULL) : NULL,
                           abc_opt(a, "align", NULL), c, &err) != AB_OK)
        return abc_usage_error(a->cmd, "%s", err.msg);
    const char *cap = abc_opt(a, "capacity", NULL);
    if (cap != NULL && !ab_parse_bytes(cap, &c->capacity))
        return abc_usage_error(a->cmd, "--capacity takes a byte count >= 1 (digits, optionally "
                               "with K, M, G or T: 256K), not '%s'", cap);
    return 0;
}

int abc_plan_profile(const abc_args *a, const char *plan, abf_profile_choice *c) {
    int rc = abc_profile_args(a, true, c);
    char rec[128];
    if (rc != 0 || !abf_plan_profile_of(plan, rec, sizeof rec)) return rc;
    abf_profile_choice made;
    ab_error err;
    ab_error_clear(&err);
    if (abf_profile_from_record(rec, &made, &err) != AB_OK)
        return abc_failf(ABC_EXIT_USAGE, "%s: line 1: %s", plan, err.msg);
    bool given = abc_opt(a, "profile", NULL) || abc_opt(a, "io", NULL) || abc_opt(a, "align", NULL);
    if (!given) {
        made.capacity = c->capacity;
        *c = made;
        return 0;
    }
    if (abf_profile_same(c, &made)) return 0;
    return abc_failf(ABC_EXIT_USAGE, "%s was made under %s; the suite taken under --profile %s "
                     "is another problem: give the same profile, or none (the plan's is then "
                     "used)", plan, rec, c->profile->name);
}

int abc_profile_apply(const abf_profile_choice *c, ab_problem *p) {
    ab_error err;
    ab_error_clear(&err);
    if (abf_profile_apply(c, p, NULL, &err) == AB_OK) return 0;
    ab_problem_free(p);
    return abc_fail(&err);
}
