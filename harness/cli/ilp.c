/*
 * ilp.c — `arenabench ilp SUITE`: the GLPK optimum of a suite, or its best
 * plan with a proven bound and the gap (oracle/ilp.h), checked by the oracle.
 *
 * Exit codes: 0 optimal or feasible (a limit ended the search with a plan);
 * 1 no solution (GLPK found none in time: the figures are the heuristic's),
 * infeasible, or a disagreement with the suite's expect.optimum; 2 bad usage
 * or input; 3 an internal error (GLPK failed, or its plan failed the check).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/problem.h"
#include "harness/cli/commands.h"
#include "harness/cli/fail.h"
#include "harness/formats/formats.h"
#include "harness/formats/plan_csv.h"
#include "planners/ilp.h"

typedef struct ilp_args {
    const char *suite, *lp, *out;
    abo_ilp_options o;
} ilp_args;

/* A number > 0 (or >= 0 for a gap, where a trailing '%' means percent). */
static bool parse_number(const char *s, bool gap, double *out) {
    char *end;
    double v = strtod(s, &end);
    if (gap && end != s && *end == '%') {
        end++;
        v /= 100;
    }
    if (end == s || *end != '\0' || !(v == v)) return false;
    if (gap ? !(v >= 0 && v <= 1) : !(v > 0 && v <= 1e7)) return false;
    *out = v;
    return true;
}

/* The parsed command line into *a; returns 0 or the exit code of a misuse. */
static int read_args(const abc_args *args, ilp_args *a) {
    const abc_command *c = args->cmd;
    abo_ilp_options_init(&a->o);
    const char *time = abc_opt(args, "time", NULL), *gap = abc_opt(args, "gap", NULL);
    if (time != NULL && !parse_number(time, false, &a->o.time_limit))
        return abc_usage_error(c, "--time: expected seconds > 0, got '%s'", time);
    if (gap != NULL && !parse_number(gap, true, &a->o.gap))
        return abc_usage_error(
            c, "--gap: expected a fraction in [0, 1] or a percentage, got '%s'", gap);
    a->lp = abc_opt(args, "write-lp", NULL);
    a->out = abc_opt(args, "output", NULL);
    if (abc_flag(args, "no-ps")) a->o.proximity = false;
    if (abc_flag(args, "cuts")) a->o.cuts = true;
    if (args->noperands != 1) return abc_usage_error(c, "expected one suite file");
    a->suite = args->operands[0];
    return 0;
}

typedef struct lp_job {
    const ilp_args *a;
    const ab_problem *view;
    int64_t unit;
} lp_job;

/* GLPK writes the LP to tmp, a temporary the core renames over the path. */
static ab_status lp_to(void *ctx, const char *tmp, ab_error *err) {
    lp_job *j = ctx;
    ab_status st = abp_ilp_write_lp(j->view, &j->a->o, tmp, &j->unit, err);
    if (st == AB_EINPUT) /* GLPK's message names the temporary: name the file */
        st = ab_fail(err, AB_EINPUT, "%s: cannot write the LP file (the file, if any, is left "
                     "as it was)", j->a->lp);
    return st;
}

/* Writes the LP file (atomically); an infeasible problem has none (said on
 * stdout). */
static int write_lp(const ilp_args *a, const ab_problem *view) {
    ab_error err;
    ab_error_clear(&err);
    lp_job j = {.a = a, .view = view, .unit = 1};
    ab_status st = ab_file_write_via(a->lp, lp_to, &j, &err);
    int64_t unit = j.unit;
    if (st == AB_ECHECK) {
        printf("lp         not written: %s\n", err.msg);
        return 0;
    }
    if (st != AB_OK) return abc_fail(&err);
    printf("lp         %s (offset x_i = %lld * align_i * y_i bytes; minimise P, the arena in "
           "units of %lld bytes)\n",
           a->lp, (long long)unit, (long long)unit);
    return 0;
}

static const char *arena_label(abo_ilp_status s) {
    switch (s) {
    case ABO_ILP_OPTIMAL: return "optimum";
    case ABO_ILP_FEASIBLE: return "incumbent";
    default: return "plan";
    }
}

static void print_result(const ab_problem *full, const ab_problem *view, const abo_ilp_result *r) {
    printf("suite      %s (%zu tensors in the arena", ab_term(full->name), view->n);
    if (full->n > view->n) printf(", %zu I/O outside", full->n - view->n);
    printf(")\n");
    printf("model      unit %lld bytes; %zu component%s, %zu solved by GLPK; largest %zu rows, "
           "%zu columns, %zu nonzeros\n",
           (long long)r->unit, r->components, r->components == 1 ? "" : "s", r->solved, r->rows,
           r->cols, r->nonzeros);
    printf("status     %s (%s)\n", abo_ilp_status_word(r->status), abo_ilp_status_text(r->status));
    printf("%-10s %lld bytes\n", arena_label(r->status), (long long)r->arena);
    printf("bound      %lld bytes (max-load %lld)\n", (long long)r->bound, (long long)r->max_load);
    if (r->status != ABO_ILP_INFEASIBLE) printf("gap        %.2f%%\n", 100 * r->gap);
    printf("heuristic  %lld bytes (best of first-fit and best-fit)\n", (long long)r->heuristic);
    printf("nodes      %lld\n", (long long)r->nodes);
    printf("time       %.2f s\n", r->seconds);
    printf("note       %s\n", r->note);
    printf("check      %s (%s)\n", abo_verdict_word(r->verdict), abo_verdict_text(r->verdict));
    if (full->capacity != AB_NONE) printf("capacity   %lld bytes\n", (long long)full->capacity);
}

/* 0, or ABC_EXIT_CHECK when the result contradicts the suite's expect.optimum. */
static int check_expectation(const ab_problem *full, const abo_ilp_result *r) {
    int64_t opt = full->expect_optimum;
    if (opt == AB_NONE || r->status == ABO_ILP_INFEASIBLE) return 0;
    const char *what = NULL;
    if (r->verdict == ABO_OK && r->arena < opt) what = "arena is below";
    else if (r->bound > opt) what = "bound is above";
    else if (r->status == ABO_ILP_OPTIMAL && r->arena != opt) what = "optimum differs from";
    if (what == NULL) return 0;
    return abc_failf(ABC_EXIT_CHECK, "%s: the ILP %s expect.optimum %lld (arena %lld, bound %lld)",
                     full->name, what, (long long)opt, (long long)r->arena, (long long)r->bound);
}

int abc_ilp(const abc_args *args) {
    ilp_args a = {0};
    int rc = read_args(args, &a);
    if (rc != 0) return rc;
    ab_error err;
    ab_error_clear(&err);
    ab_problem full, view;
    ab_problem_init(&view);
    if (abf_load_problem(a.suite, NULL, &full, &err) != AB_OK) {
        ab_problem_free(&full);
        return abc_fail(&err);
    }
    if (ab_problem_arena_view(&full, &view, NULL, &err) != AB_OK) {
        ab_problem_free(&full);
        return abc_fail(&err);
    }
    rc = a.lp != NULL ? write_lp(&a, &view) : 0;
    abo_ilp_result r;
    memset(&r, 0, sizeof r);
    if (rc == 0 && abp_ilp_solve(&view, &a.o, &r, &err) != AB_OK) rc = abc_fail(&err);
    if (rc == 0) {
        print_result(&full, &view, &r);
        if (r.status == ABO_ILP_NO_SOLUTION || r.status == ABO_ILP_INFEASIBLE) rc = ABC_EXIT_CHECK;
        int e = check_expectation(&full, &r);
        if (e != 0) rc = e;
    }
    if (a.out != NULL && r.offsets != NULL && (rc == 0 || r.status == ABO_ILP_NO_SOLUTION)) {
        ab_plan pl;
        if (ab_plan_from_offsets(&pl, r.offsets, r.n, &err) != AB_OK ||
            abf_plan_write(a.out, &view, &pl, &err) != AB_OK)
            rc = abc_fail(&err);
        ab_plan_free(&pl);
    }
    abo_ilp_result_free(&r);
    ab_problem_free(&view);
    ab_problem_free(&full);
    return rc;
}

int abc_cmd_ilp(int argc, char **argv) { return abc_command_main(argc, argv); }
