/*
 * cmd_ilp.c — `arenabench ilp SUITE [--time S] [--gap G] [--write-lp F]
 * [-o PLAN] [--no-ps] [--cuts]`: the GLPK optimum of a suite, or its best plan
 * with a proven bound and the gap (oracle/ilp.h), checked by the oracle.
 *
 * Exit codes: 0 optimal or feasible (a limit ended the search with a plan);
 * 1 no solution (GLPK found none in time: the figures are the heuristic's),
 * infeasible, or a disagreement with the suite's expect.optimum; 2 bad usage
 * or input; 3 an internal error (GLPK failed, or its plan failed the check).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/problem.h"
#include "planners/ilp.h"
#include "harness/formats/plan_csv.h"
#include "harness/formats/formats.h"
#include "harness/formats/suite.h"

#include "harness/cli/commands.h"

#define EXIT_CHECK 1
#define EXIT_USAGE 2

static const char usage[] =
    "ilp SUITE [--time S] [--gap G] [--write-lp FILE] [-o PLAN] [--no-ps] [--cuts]";

static const char help[] =
    "\n"
    "Solves the suite's arena-minimisation integer program with GLPK: the optimum,\n"
    "or, when the time runs out, the best plan found with a proven lower bound and\n"
    "the gap. The plan is checked by the oracle like any other. Tensors with a\n"
    "fixed offset stay there; a suite capacity bounds the arena (status infeasible\n"
    "when nothing fits).\n"
    "\n"
    "options:\n"
    "  --time S        time limit in seconds (default 60)\n"
    "  --gap G         stop at this relative gap (arena - bound) / arena, a fraction\n"
    "                  (0.01) or a percentage (1%%); default 0: prove optimality\n"
    "  --write-lp FILE write the model in CPLEX LP format first (offsets are\n"
    "                  x_i = unit * align_i * y_i bytes; the unit is printed)\n"
    "  -o, --output PLAN  write the plan as CSV\n"
    "  --no-ps         without GLPK's proximity search heuristic (on by default:\n"
    "                  it finds better plans, and spends up to 3/4 of the time)\n"
    "  --cuts          GLPK's cut generators (off by default: they can fail GLPK's\n"
    "                  assertions on these models)\n"
    "\n"
    "status: optimal | feasible (a limit ended the search; gap > 0) |\n"
    "        timeout-no-solution (GLPK found no plan in time: heuristic plan and\n"
    "        bound) | infeasible (no plan fits the capacity, or fixed offsets clash)\n"
    "\n"
    "exit status: 0 optimal or feasible; 1 timeout-no-solution, infeasible, or an\n"
    "optimum that disagrees with the suite's expect.optimum; 2 bad usage or input;\n"
    "3 internal error (GLPK failed, or its plan failed the check)\n";

typedef struct ilp_args {
    const char *suite, *lp, *out;
    abo_ilp_options o;
} ilp_args;

static int usage_error(const char *what, const char *arg) {
    fprintf(stderr, "arenabench: %s '%s'\nusage: arenabench %s\n(see 'arenabench ilp --help')\n",
            what, arg, usage);
    return EXIT_USAGE;
}

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

/* Matches argv[*i] against --name (taking a value as "--name=V" or the next
 * argument); returns 1 with *val set, 0 when it is not this option, -1 when
 * its value is missing. */
static int take_value(char **argv, int argc, int *i, const char *name, const char *shrt,
                      const char **val) {
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) == 0 && a[n] == '=') {
        *val = a + n + 1;
        return 1;
    }
    if (strcmp(a, name) != 0 && (shrt == NULL || strcmp(a, shrt) != 0)) return 0;
    if (*i + 1 >= argc) return -1;
    *val = argv[++*i];
    return 1;
}

/* Parses argv; returns -1 to go on, else an exit code. */
static int parse_args(int argc, char **argv, ilp_args *a) {
    abo_ilp_options_init(&a->o);
    bool operands = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *val = NULL;
        if (!operands && (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)) {
            printf("usage: arenabench %s\n%s", usage, help);
            return 0;
        }
        if (!operands && strcmp(arg, "--") == 0) {
            operands = true;
            continue;
        }
        if (operands || arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (a->suite != NULL) return usage_error("unexpected operand", arg);
            a->suite = arg;
            continue;
        }
        int r;
        if ((r = take_value(argv, argc, &i, "--time", NULL, &val)) != 0) {
            if (r < 0) return usage_error("option needs a value:", arg);
            if (!parse_number(val, false, &a->o.time_limit))
                return usage_error("--time: expected seconds > 0, got", val);
        } else if ((r = take_value(argv, argc, &i, "--gap", NULL, &val)) != 0) {
            if (r < 0) return usage_error("option needs a value:", arg);
            if (!parse_number(val, true, &a->o.gap))
                return usage_error("--gap: expected a fraction in [0, 1] or a percentage, got", val);
        } else if ((r = take_value(argv, argc, &i, "--write-lp", NULL, &val)) != 0) {
            if (r < 0) return usage_error("option needs a value:", arg);
            a->lp = val;
        } else if ((r = take_value(argv, argc, &i, "--output", "-o", &val)) != 0) {
            if (r < 0) return usage_error("option needs a value:", arg);
            a->out = val;
        } else if (strcmp(arg, "--no-ps") == 0) {
            a->o.proximity = false;
        } else if (strcmp(arg, "--cuts") == 0) {
            a->o.cuts = true;
        } else {
            return usage_error("unknown option", arg);
        }
    }
    if (a->suite == NULL) {
        fprintf(stderr, "arenabench: expected one suite file\nusage: arenabench %s\n", usage);
        return EXIT_USAGE;
    }
    return -1;
}

static int fail(const ab_error *err) {
    fprintf(stderr, "arenabench: %s\n", err->msg);
    return ab_status_exit_code(err->status);
}

/* Writes the LP file; an infeasible problem has none (said on stdout). */
static int write_lp(const ilp_args *a, const ab_problem *view) {
    ab_error err;
    ab_error_clear(&err);
    int64_t unit = 1;
    ab_status st = abp_ilp_write_lp(view, &a->o, a->lp, &unit, &err);
    if (st == AB_ECHECK) {
        printf("lp         not written: %s\n", err.msg);
        return 0;
    }
    if (st != AB_OK) return fail(&err);
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
    printf("suite      %s (%zu tensors in the arena", full->name, view->n);
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

/* 0, or EXIT_CHECK when the result contradicts the suite's expect.optimum. */
static int check_expectation(const ab_problem *full, const abo_ilp_result *r) {
    int64_t opt = full->expect_optimum;
    if (opt == AB_NONE || r->status == ABO_ILP_INFEASIBLE) return 0;
    const char *what = NULL;
    if (r->verdict == ABO_OK && r->arena < opt) what = "arena is below";
    else if (r->bound > opt) what = "bound is above";
    else if (r->status == ABO_ILP_OPTIMAL && r->arena != opt) what = "optimum differs from";
    if (what == NULL) return 0;
    fprintf(stderr, "arenabench: %s: the ILP %s expect.optimum %lld (arena %lld, bound %lld)\n",
            full->name, what, (long long)opt, (long long)r->arena, (long long)r->bound);
    return EXIT_CHECK;
}

int abh_cmd_ilp(int argc, char **argv) {
    ilp_args a = {0};
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0) return rc;
    ab_error err;
    ab_error_clear(&err);
    ab_problem full, view;
    ab_problem_init(&view);
    if (abh_load_problem(a.suite, NULL, &full, &err) != AB_OK) {
        ab_problem_free(&full);
        return fail(&err);
    }
    if (ab_problem_arena_view(&full, &view, NULL, &err) != AB_OK) {
        ab_problem_free(&full);
        return fail(&err);
    }
    rc = a.lp != NULL ? write_lp(&a, &view) : 0;
    abo_ilp_result r;
    memset(&r, 0, sizeof r);
    if (rc == 0 && abp_ilp_solve(&view, &a.o, &r, &err) != AB_OK) rc = fail(&err);
    if (rc == 0) {
        print_result(&full, &view, &r);
        if (r.status == ABO_ILP_NO_SOLUTION || r.status == ABO_ILP_INFEASIBLE) rc = EXIT_CHECK;
        int e = check_expectation(&full, &r);
        if (e != 0) rc = e;
    }
    if (a.out != NULL && r.offsets != NULL && (rc == 0 || r.status == ABO_ILP_NO_SOLUTION)) {
        ab_plan pl;
        if (ab_plan_from_offsets(&pl, r.offsets, r.n, &err) != AB_OK ||
            abh_plan_write(a.out, &view, &pl, &err) != AB_OK)
            rc = fail(&err);
        ab_plan_free(&pl);
    }
    abo_ilp_result_free(&r);
    ab_problem_free(&view);
    ab_problem_free(&full);
    return rc;
}
