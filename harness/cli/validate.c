/*
 * validate.c — `arenabench validate SUITE PLAN`: checks a plan file (a
 * format of the plan formats table that reads) against a suite with the independent overlap checker; exit 1
 * when it is invalid, naming both tensors, the instruction and the bytes.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/buf.h"
#include "harness/cli/commands.h"
#include "harness/cli/common.h"
#include "harness/cli/fail.h"
#include "harness/formats/formats.h"
#include "harness/cli/human.h"
#include "harness/formats/plan_formats.h"

/* Explains unknown plan entries that name an I/O tensor kept outside the
 * arena. One look-up per entry in a name table (a plan misspelling every
 * name of a large suite took a scan of the suite per entry: quadratic). */
static void explain_io_entries(const ab_problem *full, const ab_plan *pl) {
    if (full->io != AB_IO_SEPARATE) return;
    bool outside = false;
    for (size_t j = 0; j < full->n && !outside; j++) outside = !ab_in_arena(full, j);
    if (!outside) return; /* every tensor is in the view: an unknown name is unknown */
    ab_names *names = NULL;
    if (ab_names_build(full, &names, NULL, NULL, NULL) != AB_OK) return; /* only a note */
    for (size_t i = 0; i < pl->n; i++) {
        if (pl->v[i].tensor != AB_NO_TENSOR || pl->v[i].name == NULL) continue;
        size_t j = ab_names_find(names, pl->v[i].name, strlen(pl->v[i].name));
        if (j == AB_NO_TENSOR) continue;
        printf("  note: '%s' is an %s tensor; with io: separate it lives outside the arena "
               "and takes no offset\n",
               ab_term(full->t[j].name), full->t[j].kind == AB_KIND_INPUT ? "input" : "output");
    }
    ab_names_free(names);
}

/* After a plan file failed to read as format: says what the file is instead
 * (a plan another format reads, or a suite), with what to do. */
static void explain_wrong_file(const char *plan, const ab_problem *view,
                               const abf_plan_format *format) {
    unsigned char head[ABF_PLAN_SNIFF_BYTES];
    size_t n = 0;
    struct stat sb; /* a regular file only: a pipe is gone, a FIFO could block */
    if (stat(plan, &sb) != 0 || !S_ISREG(sb.st_mode)) return;
    FILE *f = fopen(plan, "rb");
    if (f != NULL) {
        n = fread(head, 1, sizeof head, f);
        fclose(f);
    }
    if (format->sniff != NULL && format->sniff(head, n)) return; /* its format, wrong within */
    const abf_plan_format *pf = abf_plan_format_of(plan);
    bool reads = false;
    if (pf != NULL && pf != format && pf->read != NULL) {
        ab_plan pl;
        ab_plan_init(&pl);
        reads = pf->read(plan, view, &pl, NULL) == AB_OK;
        ab_plan_free(&pl);
    }
    if (reads) {
        fprintf(stderr, "arenabench: %s reads as a plan of format %s (%s): give --format %s\n",
                ab_term(plan), pf->name, pf->summary, pf->name);
        return;
    }
    ab_error e;
    const abf_format *sf = abf_format_of(plan, true, &e);
    if (sf != NULL)
        fprintf(stderr, "arenabench: %s looks like a suite (%s), not a plan: plan it first, e.g. "
                "arenabench plan -o plan.csv %s\n", ab_term(plan), sf->title, ab_term(plan));
}

int abc_validate(const abc_args *a) {
    const abf_plan_format *format;
    if (a->noperands != 2) return abc_usage_error(a->cmd, "expected a suite file and a plan file");
    int rc = abc_plan_file_format(a, &format);
    if (rc != 0) return rc;
    const char *suite = a->operands[0], *plan = a->operands[1];
    ab_problem full, view;
    ab_plan pl;
    ab_problem_init(&view);
    ab_plan_init(&pl);
    static abc_model_opts model;
    abf_profile_choice prof;
    rc = abc_model_args(a, &model);
    if (rc == 0) rc = abc_plan_profile(a, plan, &prof);
    if (rc == 0) rc = abc_load_suite_with(suite, &model, &full);
    if (rc == 0) rc = abc_profile_apply(&prof, &full);
    if (rc != 0) return rc;
    ab_error err;
    ab_error_clear(&err);
    abo_report r;
    ab_status st = ab_problem_arena_view(&full, &view, NULL, &err);
    bool read = false;
    if (st == AB_OK) st = format->read(plan, &view, &pl, &err), read = st == AB_OK;
    if (st == AB_OK) st = abo_check(&view, &pl, &r, &err);
    if (st != AB_OK) {
        rc = abc_fail(&err);
        if (!read && st == AB_EINPUT) explain_wrong_file(plan, &view, format);
    } else {
        printf("suite      %s (%zu tensors in the arena)\n", ab_term(full.name), view.n);
        printf("plan       %s (%zu entries)\n", ab_term(plan), pl.n);
        if (r.verdict == ABO_OK) abc_print_bytes(stdout, "arena", r.arena);
        rc = abc_print_verdict(&r, stdout);
        if (r.verdict == ABO_UNKNOWN) explain_io_entries(&full, &pl);
    }
    ab_plan_free(&pl);
    ab_problem_free(&view);
    ab_problem_free(&full);
    return rc;
}
