/*
 * export.c — `arenabench export SUITE`: the suite in another format of the
 * suite formats table (MiniMalloc CSV by default, or canonical YAML); with
 * --plan PLAN (a plan file, its format recognised by its header), that plan
 * of the suite, checked by the oracle first, in a format of the plan formats
 * table (harness/formats/plan_formats.h): a plan file again, a C header,
 * JSON, or TFLite Micro's offline plan in a copy of the .tflite model.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "harness/cli/commands.h"
#include "harness/cli/common.h"
#include "harness/cli/fail.h"
#include "harness/cli/human.h"
#include "harness/formats/formats.h"
#include "harness/formats/plan_formats.h"
#include "harness/formats/suite.h"
#include "oracle/check.h"
#include "results/store/sha256.h"

#define TFLM_ROUND 16 /* TFLite Micro rounds every tensor up to 16 bytes (kBufferAlignment) */

/* "--format takes yaml or minimalloc (a suite), or csv, ... with --plan PLAN;
 * not 'x'": every suite format that renders, every plan format that writes. */
static int bad_format(const char *format) {
    ab_buf names = {0}, plans = {0};
    for (size_t i = 0; abf_formats[i] != NULL; i++) {
        const abf_format *f = abf_formats[i];
        if (f->render != NULL) ab_buf_printf(&names, "%s %s", i == 0 ? "" : " or", f->name);
    }
    abf_plan_format_list(&plans, false);
    int rc = abc_failf(ABC_EXIT_USAGE, "--format takes%s (a suite), or %s with --plan PLAN; not "
                       "'%s'", names.s ? names.s : "", plans.s ? plans.s : "", format);
    ab_buf_free(&names);
    ab_buf_free(&plans);
    return rc;
}

/* The plan format named format when it writes; else NULL. */
static const abf_plan_format *plan_format_writing(const char *format) {
    const abf_plan_format *f = abf_plan_format_named(format);
    return f != NULL && f->write != NULL ? f : NULL;
}

/* ---- the suite, as before ------------------------------------------------------------ */

static int export_suite(const abc_args *a, const char *path, const char *format) {
    const abf_format *to = abf_format_named(format);
    if (to == NULL || to->render == NULL) return bad_format(format);
    static abc_model_opts model;
    abf_profile_choice prof;
    ab_problem p;
    ab_error err;
    ab_error_clear(&err);
    int rc = abc_model_args(a, &model);
    if (rc == 0) rc = abc_profile_args(a, true, &prof);
    if (rc == 0) rc = abc_load_suite_with(path, &model, &p);
    if (rc == 0) rc = abc_profile_apply(&prof, &p);
    if (rc != 0) return rc;
    ab_buf b = {0};
    ab_status st = to->render(&p, &b, &err);
    if (st == AB_OK) st = ab_buf_write_file(&b, abc_opt(a, "output", "-"), &err);
    bool mm = strcmp(to->name, "minimalloc") == 0;
    if (st == AB_OK && mm && p.io == AB_IO_SEPARATE && ab_problem_io_outside(&p) > 0)
        abc_note("note: %s keeps its inputs and outputs outside the arena (io: separate); "
                  "they are not in the MiniMalloc file", path);
    ab_buf_free(&b);
    ab_problem_free(&p);
    return st == AB_OK ? 0 : abc_fail(&err);
}

/* ---- a plan ------------------------------------------------------------------------ */

typedef struct plan_job {
    const char *suite, *plan, *out;
    const abf_plan_format *format; /* what to write */
    ab_problem full, view;
    ab_plan pl;
    int64_t *offsets; /* one per view tensor */
    char hash[ABS_SHA256_HEX];
    abc_model_opts *model;   /* a model's options */
    abf_profile_choice prof; /* the command line's profile, or the plan's record */
} plan_job;

/* Loads the suite and the plan, checks the plan; 0 or the exit code (1 when
 * the checker finds it invalid, with its verdict printed). */
static int load_checked(plan_job *j) {
    ab_error err;
    ab_error_clear(&err);
    int rc = abc_load_suite_with(j->suite, j->model, &j->full);
    if (rc == 0) rc = abc_profile_apply(&j->prof, &j->full);
    if (rc != 0) return rc;
    ab_status st = ab_problem_arena_view(&j->full, &j->view, NULL, &err);
    if (st == AB_OK) /* the plan file's format, by its header (DESIGN.md §4) */
        st = abf_plan_format_of(j->plan)->read(j->plan, &j->view, &j->pl, &err);
    abo_report r;
    if (st == AB_OK) st = abo_check(&j->view, &j->pl, &r, &err);
    if (st != AB_OK) return abc_fail(&err);
    if (r.verdict != ABO_OK) {
        fprintf(stderr, "arenabench: %s: the plan is not valid for %s; nothing written\n",
                ab_term(j->plan), ab_term(j->suite));
        abc_print_verdict(&r, stderr);
        return ABC_EXIT_CHECK;
    }
    j->offsets = calloc(j->view.n ? j->view.n : 1, sizeof *j->offsets);
    if (j->offsets == NULL) return abc_failf(ABC_EXIT_INTERNAL, "out of memory");
    for (size_t i = 0; i < j->pl.n; i++) j->offsets[j->pl.v[i].tensor] = j->pl.v[i].offset;
    ab_buf canon = {0};
    st = abf_suite_render(&j->full, &canon, &err);
    if (st == AB_OK) abs_sha256_hex(canon.s ? canon.s : "", canon.n, j->hash);
    ab_buf_free(&canon);
    return st == AB_OK ? 0 : abc_fail(&err);
}

/* What TFLite Micro does to the plan: every size rounded up to 16 bytes (and
 * its buffers 16-aligned). A plan that overlaps then would corrupt tensors at
 * run time: an error, unless --force. */
static int tflm_rounding_ok(const plan_job *j, bool force) {
    ab_problem r;
    ab_error err;
    ab_error_clear(&err);
    if (ab_problem_clone(&j->view, &r, &err) != AB_OK) return abc_fail(&err);
    for (size_t i = 0; i < r.n; i++) {
        r.t[i].size = (r.t[i].size + TFLM_ROUND - 1) / TFLM_ROUND * TFLM_ROUND;
        if (r.t[i].align < TFLM_ROUND) r.t[i].align = TFLM_ROUND;
    }
    r.capacity = AB_NONE;
    abo_report rep;
    ab_status st = abo_check(&r, &j->pl, &rep, &err);
    ab_problem_free(&r);
    if (st != AB_OK) return abc_fail(&err);
    if (rep.verdict == ABO_OK) return 0;
    fprintf(stderr, "arenabench: %s: %s: TFLite Micro rounds every tensor up to %d bytes and "
            "aligns it to %d; this plan does not hold then:\n", force ? "warning" : "error",
            ab_term(j->plan), TFLM_ROUND, TFLM_ROUND);
    abc_print_verdict(&rep, stderr);
    fprintf(stderr, "  plan a suite with alignment %d (e.g. `arenabench import --profile tflm`)%s\n",
            TFLM_ROUND, force ? "; written anyway (--force)" : ", or write it anyway with --force");
    return force ? 0 : ABC_EXIT_CHECK;
}

/* The model the offline plan goes into: --model, else the suite when it is one. */
static const char *model_path(const abc_args *a, const char *suite) {
    const char *m = abc_opt(a, "model", NULL);
    if (m != NULL) return m;
    ab_error err;
    ab_error_clear(&err);
    const abf_format *f = abf_format_of(suite, false, &err);
    return f != NULL && strcmp(f->name, "tflite") == 0 ? suite : NULL;
}

/* A format written into a copy of the model (ABF_PLAN_FORMAT_TFLM_MODEL): the
 * model (*model), a file to write that is not the model, a plan that holds
 * once TFLite Micro rounds it. Returns 0 or the exit code. */
static int model_copy_ok(const abc_args *a, const plan_job *j, const char **model) {
    const char *name = j->format->name;
    *model = model_path(a, j->suite);
    if (*model == NULL)
        return abc_usage_error(a->cmd, "%s needs the model: give the .tflite as SUITE or with "
                               "--model M.tflite", name);
    if (strcmp(j->out, "-") == 0)
        return abc_usage_error(a->cmd, "%s writes a copy of the model: give -o FILE", name);
    if (strcmp(j->out, *model) == 0)
        return abc_usage_error(a->cmd, "-o %s is the model itself; the original is never "
                               "modified: write the copy elsewhere", j->out);
    return tflm_rounding_ok(j, abc_flag(a, "force"));
}

static int export_plan(const abc_args *a, const char *suite, const abf_plan_format *format) {
    static abc_model_opts model;
    plan_job j = {.suite = suite, .plan = abc_opt(a, "plan", NULL), .format = format,
                  .out = abc_opt(a, "output", "-"), .model = &model};
    ab_problem_init(&j.full);
    ab_problem_init(&j.view);
    ab_plan_init(&j.pl);
    ab_buf b = {0};
    int rc = abc_model_args(a, &model);
    if (rc == 0) rc = abc_plan_profile(a, j.plan, &j.prof); /* the plan's own, unless given */
    if (rc == 0) rc = load_checked(&j);
    if (rc == 0) {
        ab_error err;
        ab_error_clear(&err);
        char rec[128];
        abf_plan_out o = {.view = &j.view, .offsets = j.offsets, .suite_hash = j.hash,
                          .plan_path = j.plan, .plan = &j.pl};
        if (abf_profile_record(&j.prof, rec, sizeof rec)) o.profile = rec;
        if (format->flags & ABF_PLAN_FORMAT_TFLM_MODEL) rc = model_copy_ok(a, &j, &o.model);
        ab_status st = rc == 0 ? format->write(&o, &b, &err) : AB_OK;
        if (rc == 0 && st == AB_OK) st = ab_buf_write_file(&b, j.out, &err);
        if (rc == 0 && st != AB_OK) rc = abc_fail(&err);
    }
    ab_buf_free(&b);
    free(j.offsets);
    ab_plan_free(&j.pl);
    ab_problem_free(&j.view);
    ab_problem_free(&j.full);
    return rc;
}

int abc_export(const abc_args *a) {
    if (a->noperands != 1) return abc_usage_error(a->cmd, "expected one suite file");
    const char *path = a->operands[0], *plan = abc_opt(a, "plan", NULL);
    const char *format = abc_opt(a, "format", "minimalloc");
    const abf_plan_format *writes = plan_format_writing(format);
    if (plan == NULL) {
        if (writes != NULL && abf_format_named(format) == NULL)
            return abc_usage_error(a->cmd, "--format %s writes a plan: give --plan PLAN (a plan "
                                   "file, as `arenabench plan -o PLAN` writes)", format);
        if (abc_opt(a, "model", NULL) || abc_flag(a, "force"))
            return abc_usage_error(a->cmd, "--model and --force go with --plan and --format "
                                   "tflm-offline");
        return export_suite(a, path, format);
    }
    if (writes == NULL) {
        if (abf_format_named(format) == NULL) return bad_format(format);
        ab_buf names = {0};
        abf_plan_format_list(&names, false);
        int rc = abc_usage_error(a->cmd, "--format %s writes a suite, not a plan; with --plan "
                                 "use %s", format, names.s ? names.s : "");
        ab_buf_free(&names);
        return rc;
    }
    return export_plan(a, path, writes);
}
