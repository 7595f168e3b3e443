/*
 * export.c — `arenabench export SUITE`: the suite in another format of the
 * formats table (MiniMalloc CSV by default, or canonical YAML); with
 * --plan PLAN, that plan of the suite, checked by the oracle first, as a C
 * header, JSON, MiniMalloc CSV with offsets, or TFLite Micro's offline plan in
 * a copy of the .tflite model (harness/formats/plan_out.h, tflite_offline.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/file.h"
#include "harness/cli/commands.h"
#include "harness/cli/common.h"
#include "harness/cli/fail.h"
#include "harness/formats/formats.h"
#include "harness/formats/minimalloc.h"
#include "harness/formats/plan_csv.h"
#include "harness/formats/plan_out.h"
#include "harness/formats/suite.h"
#include "harness/formats/tflite_offline.h"
#include "oracle/check.h"
#include "results/store/sha256.h"

#define TFLM_ROUND 16 /* TFLite Micro rounds every tensor up to 16 bytes (kBufferAlignment) */

/* The formats of a plan, after the suite formats that render. */
static const char *const plan_formats[] = {"c-header", "json", "minimalloc", "tflm-offline",
                                           NULL};

/* "--format takes minimalloc or yaml, not 'x'": every format that renders. */
static int bad_format(const char *format) {
    char names[256] = "";
    size_t used = 0;
    for (size_t i = 0; abh_formats[i] != NULL; i++) {
        const abh_format *f = abh_formats[i];
        if (f->render != NULL && used < sizeof names)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s %s",
                                     i == 0 ? "" : " or", f->name);
    }
    return abc_failf(ABC_EXIT_USAGE, "--format takes%s (a suite), or c-header, json, minimalloc "
                     "or tflm-offline with --plan PLAN; not '%s'", names, format);
}

static bool is_plan_format(const char *format) {
    for (const char *const *f = plan_formats; *f; f++)
        if (strcmp(*f, format) == 0) return true;
    return false;
}

/* ---- the suite, as before ------------------------------------------------------------ */

static int export_suite(const abc_args *a, const char *path, const char *format) {
    const abh_format *to = abh_format_named(format);
    if (to == NULL || to->render == NULL) return bad_format(format);
    ab_problem p;
    ab_error err;
    ab_error_clear(&err);
    if (abh_load_problem(path, NULL, &p, &err) != AB_OK) return abc_fail(&err);
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
    const char *suite, *plan, *format, *out;
    ab_problem full, view;
    ab_plan pl;
    int64_t *offsets; /* one per view tensor */
    char hash[ABR_SHA256_HEX];
} plan_job;

/* true when the plan file's header names a `tensor` column (plan CSV), false
 * for MiniMalloc's `id` (DESIGN.md §4). */
static bool plan_is_csv(const char *path) {
    char line[1024] = "";
    FILE *f = fopen(path, "r");
    if (f == NULL) return true; /* the CSV reader says it cannot be read */
    if (fgets(line, sizeof line, f) == NULL) line[0] = '\0';
    fclose(f);
    for (char *tok = strtok(line, ",\r\n"); tok; tok = strtok(NULL, ",\r\n"))
        if (strcmp(tok, "tensor") == 0) return true;
    return false;
}

/* Loads the suite and the plan, checks the plan; 0 or the exit code (1 when
 * the checker finds it invalid, with its verdict printed). */
static int load_checked(plan_job *j) {
    ab_error err;
    ab_error_clear(&err);
    int rc = abc_load_suite(j->suite, &j->full);
    if (rc != 0) return rc;
    ab_status st = ab_problem_arena_view(&j->full, &j->view, NULL, &err);
    if (st == AB_OK)
        st = plan_is_csv(j->plan) ? abh_plan_read(j->plan, &j->view, &j->pl, &err)
                                  : abh_minimalloc_plan_read(j->plan, &j->view, &j->pl, &err);
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
    st = abh_suite_render(&j->full, &canon, &err);
    if (st == AB_OK) abr_sha256_hex(canon.s ? canon.s : "", canon.n, j->hash);
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
    const abh_format *f = abh_format_of(suite, false, &err);
    return f != NULL && strcmp(f->name, "tflite") == 0 ? suite : NULL;
}

static int export_tflm(const abc_args *a, plan_job *j, ab_buf *b) {
    const char *model = model_path(a, j->suite);
    if (model == NULL)
        return abc_usage_error(a->cmd, "tflm-offline needs the model: give the .tflite as SUITE "
                               "or with --model M.tflite");
    if (strcmp(j->out, "-") == 0)
        return abc_usage_error(a->cmd, "tflm-offline writes a copy of the model: give -o FILE");
    if (strcmp(j->out, model) == 0)
        return abc_usage_error(a->cmd, "-o %s is the model itself; the original is never "
                               "modified: write the copy elsewhere", j->out);
    int rc = tflm_rounding_ok(j, abc_flag(a, "force"));
    if (rc != 0) return rc;
    char *bytes = NULL;
    size_t len = 0;
    int32_t *words = NULL;
    abh_tflite_model m;
    ab_error err;
    ab_error_clear(&err);
    ab_status st = ab_read_file(model, &bytes, &len, &err);
    if (st == AB_OK) {
        st = abh_tflite_parse(model, (const unsigned char *)bytes, len, &m, &err);
        if (st == AB_OK) st = abh_tflite_offline_offsets(&m, &j->view, j->offsets, &words, &err);
        if (st == AB_OK)
            st = abh_tflite_offline_write(model, (const unsigned char *)bytes, len, words,
                                          m.ntensors, b, &err);
        abh_tflite_model_free(&m);
    }
    ab_free(words);
    ab_free(bytes);
    return st == AB_OK ? 0 : abc_fail(&err);
}

static int export_plan(const abc_args *a, const char *suite, const char *format) {
    plan_job j = {.suite = suite, .plan = abc_opt(a, "plan", NULL), .format = format,
                  .out = abc_opt(a, "output", "-")};
    ab_problem_init(&j.full);
    ab_problem_init(&j.view);
    ab_plan_init(&j.pl);
    ab_buf b = {0};
    int rc = load_checked(&j);
    if (rc == 0) {
        ab_error err;
        ab_error_clear(&err);
        abh_plan_out o = {.view = &j.view, .offsets = j.offsets, .suite_hash = j.hash,
                          .plan_path = j.plan};
        ab_status st = AB_OK;
        if (strcmp(format, "c-header") == 0) st = abh_plan_render_c_header(&o, &b, &err);
        else if (strcmp(format, "json") == 0) st = abh_plan_render_json(&o, &b, &err);
        else if (strcmp(format, "minimalloc") == 0)
            st = abh_minimalloc_plan_render(&j.view, &j.pl, &b, &err);
        else rc = export_tflm(a, &j, &b);
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
    if (plan == NULL) {
        if (is_plan_format(format) && abh_format_named(format) == NULL)
            return abc_usage_error(a->cmd, "--format %s writes a plan: give --plan PLAN (a plan "
                                   "file, as `arenabench plan -o PLAN` writes)", format);
        if (abc_opt(a, "model", NULL) || abc_flag(a, "force"))
            return abc_usage_error(a->cmd, "--model and --force go with --plan and --format "
                                   "tflm-offline");
        return export_suite(a, path, format);
    }
    if (!is_plan_format(format)) {
        if (abh_format_named(format) != NULL)
            return abc_usage_error(a->cmd, "--format %s writes a suite, not a plan; with --plan "
                                   "use c-header, json, minimalloc or tflm-offline", format);
        return bad_format(format);
    }
    return export_plan(a, path, format);
}
