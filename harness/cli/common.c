/*
 * common.c — steps that more than one command takes (common.h).
 */
#include "core/buf.h"
#include "harness/cli/common.h"

#include <stdlib.h>
#include <string.h>

#include "harness/cli/fail.h"
#include "harness/engine/spawn.h"
#include "harness/formats/formats.h"
#include "harness/formats/plan_formats.h"
#include "results/report/report.h"
#include "results/store/store.h"

int abc_load_suite(const char *path, ab_problem *p) {
    ab_error err;
    ab_error_clear(&err);
    if (abf_load_problem(path, NULL, p, &err) != AB_OK) return abc_fail(&err);
    return 0;
}

/* Parses --dim NAME=VALUE (split at the last '=': names may hold '=') into
 * m's next dim. Returns 0 or the exit code. */
static int parse_dim(const abc_command *c, abc_model_opts *m, const char *s) {
    const char *eq = strrchr(s, '=');
    int64_t v;
    if (eq == NULL || eq == s || !ab_parse_int64(eq + 1, strlen(eq + 1), &v) || v < 1 ||
        v > AB_MAX_SIZE)
        return abc_usage_error(
            c, "--dim takes NAME=VALUE with a tensor name and a value >= 1, not '%s'", s);
    size_t n = (size_t)(eq - s), k = m->lo.ndims;
    if (n >= sizeof m->names[0])
        return abc_usage_error(c, "--dim: a tensor name of %zu bytes is too long", n);
    memcpy(m->names[k], s, n);
    m->names[k][n] = '\0';
    m->dims[k] = (abf_tflite_dim){.tensor = m->names[k], .value = v};
    m->lo.ndims = k + 1;
    return 0;
}

int abc_model_args(const abc_args *a, abc_model_opts *m) {
    const abc_command *c = a->cmd;
    m->lo = (abf_load_options){.fold_constants = abc_flag(a, "fold-constants"), .dims = m->dims};
    const char *dyn = abc_opt(a, "assume-dynamic", NULL);
    if (dyn != NULL && (!ab_parse_int64(dyn, strlen(dyn), &m->lo.assume_dynamic) ||
                        m->lo.assume_dynamic < 1 || m->lo.assume_dynamic > AB_MAX_SIZE))
        return abc_usage_error(c, "--assume-dynamic takes a value >= 1, not '%s'", dyn);
    const char *dims[ABC_MAX_DIMS];
    int ndims = abc_opt_all(a, "dim", dims);
    for (int i = 0; i < ndims; i++) {
        int rc = parse_dim(c, m, dims[i]);
        if (rc != 0) return rc;
    }
    return 0;
}

bool abc_model_opts_given(const abc_model_opts *m) {
    return m->lo.fold_constants || m->lo.ndims > 0 || m->lo.assume_dynamic > 0;
}

int abc_load_suite_with(const char *path, const abc_model_opts *m, ab_problem *p) {
    ab_error err;
    ab_error_clear(&err);
    ab_problem_init(p);
    if (m != NULL && abc_model_opts_given(m)) {
        const abf_format *f = abf_format_of(path, true, &err);
        if (f == NULL) return abc_fail(&err);
        if (!(f->flags & ABF_FORMAT_MODEL_OPTS))
            return abc_failf(ABC_EXIT_USAGE, "%s: --fold-constants, --dim and --assume-dynamic "
                             "apply to models, not to a %s", path, f->title);
    }
    if (abf_load_problem(path, m != NULL ? &m->lo : NULL, p, &err) != AB_OK) return abc_fail(&err);
    return 0;
}

void abc_print_bytes(FILE *to, const char *label, int64_t v) {
    fprintf(to, "%-10s %lld bytes\n", label, (long long)v);
}

/* The len bytes at m on a line of their own after prefix, escaped for the
 * terminal (checker messages hold tensor names). */
static void put_line(FILE *to, const char *prefix, const char *m, size_t len) {
    ab_buf line = {0};
    ab_buf_append(&line, m, len);
    fprintf(to, "%s%s\n", prefix, line.oom ? "(out of memory)" : ab_term(line.s ? line.s : ""));
    ab_buf_free(&line);
}

int abc_print_verdict(const abo_report *r, FILE *to) {
    if (r->verdict == ABO_OK) {
        fprintf(to, "check      ok (%s)\n", abo_verdict_text(ABO_OK));
        return 0;
    }
    if (r->verdict == ABO_OVER_CAPACITY)
        fprintf(to, "check      OVER CAPACITY: the plan is otherwise valid, but %s (%zu "
                "problem%s)\n", abo_verdict_text(r->verdict), r->nproblems,
                r->nproblems == 1 ? "" : "s");
    else
        fprintf(to, "check      INVALID: %s (%zu problem%s)\n", abo_verdict_text(r->verdict),
            r->nproblems, r->nproblems == 1 ? "" : "s");
    const char *m = r->msg;
    while (*m != '\0') {
        size_t len = strcspn(m, "\n");
        put_line(to, "  ", m, len);
        m += len + (m[len] == '\n');
    }
    return ABC_EXIT_CHECK;
}

void abc_print_over_capacity(const abo_report *r, int64_t capacity, abo_proof refuted_by,
                             int64_t bound, FILE *to) {
    if (capacity != AB_NONE && r->arena > capacity)
        fprintf(to, "check      valid plan, but over the capacity: arena %lld exceeds capacity "
                "%lld by %lld bytes\n", (long long)r->arena, (long long)capacity,
                (long long)(r->arena - capacity));
    else
        put_line(to, "check      valid plan, but over a pool: ", r->msg, strcspn(r->msg, "\n"));
    if (refuted_by != ABO_PROOF_NONE)
        fprintf(to, "status     infeasible: no plan fits the capacity %lld, proven by %s (lower "
                "bound %lld > %lld)\n", (long long)capacity, abo_proof_word(refuted_by),
                (long long)bound, (long long)capacity);
    else
        fprintf(to, "status     over-capacity: nothing proved that no plan fits (another "
                "planner may fit it)\n");
}

int abc_containment_arg(const abc_args *a) {
    const char *word = abc_opt(a, "containment", "auto");
    abe_contain_mode m;
    if (!abe_parse_containment(word, &m))
        return abc_usage_error(a->cmd, "--containment takes auto, cgroup or subreaper, not '%s'",
                               word);
    abe_set_containment(m);
    ab_error err;
    if (abe_containment_check(&err) != AB_OK) return abc_fail(&err);
    return 0;
}

int abc_plan_file_format(const abc_args *a, const abf_plan_format **f) {
    const char *name = abc_opt(a, "format", NULL);
    *f = name == NULL ? abf_plan_formats[0] : abf_plan_format_named(name);
    if (*f != NULL && (*f)->read != NULL) return 0;
    ab_buf known = {0};
    abf_plan_format_list(&known, true);
    int rc = abc_usage_error(a->cmd, "--format takes %s, not '%s'", known.s ? known.s : "",
                             name);
    ab_buf_free(&known);
    return rc;
}

/* Whether row f reads (readers_only) or writes. */
static bool listed(const abf_plan_format *f, bool readers_only) {
    return readers_only ? f->read != NULL : f->write != NULL;
}

/* The widest name of the rows that read (readers_only) or write. */
static int plan_names_width(bool readers_only) {
    size_t w = 0;
    for (size_t i = 0; abf_plan_formats[i] != NULL; i++) {
        const abf_plan_format *f = abf_plan_formats[i];
        if (listed(f, readers_only) && strlen(f->name) > w) w = strlen(f->name);
    }
    return (int)w;
}

/* The rows that read (readers_only) or write, under title, names w wide. */
static void print_plan_formats(FILE *to, const char *title, bool readers_only, int w) {
    fprintf(to, "\n%s\n", title);
    for (size_t i = 0; abf_plan_formats[i] != NULL; i++) {
        const abf_plan_format *f = abf_plan_formats[i];
        if (!listed(f, readers_only)) continue;
        fprintf(to, "  %-*s  %s\n", w, f->name, f->summary);
    }
}

void abc_print_plan_file_formats(FILE *to) {
    print_plan_formats(to, "Plan file formats (--format F; the first is the default):", true,
                       plan_names_width(true));
}

void abc_print_export_formats(FILE *to) {
    int w = plan_names_width(false);
    for (size_t i = 0; abf_formats[i] != NULL; i++)
        if (abf_formats[i]->render != NULL && (int)strlen(abf_formats[i]->name) > w)
            w = (int)strlen(abf_formats[i]->name);
    fprintf(to, "\nFormats of a suite (--format F):\n");
    for (size_t i = 0; abf_formats[i] != NULL; i++)
        if (abf_formats[i]->render != NULL)
            fprintf(to, "  %-*s  %s\n", w, abf_formats[i]->name, abf_formats[i]->title);
    print_plan_formats(to, "Formats of a plan (--plan PLAN --format F):", false, w);
}

void abc_print_report_formats(FILE *to) {
    size_t w = 0;
    for (int i = 0; i < ABR_REPORT_NFORMATS; i++)
        if (strlen(abr_report_format_name((abr_report_format)i)) > w)
            w = strlen(abr_report_format_name((abr_report_format)i));
    fprintf(to, "\nFormats (--format F; the first is the default):\n");
    for (int i = 0; i < ABR_REPORT_NFORMATS; i++)
        fprintf(to, "  %-*s  %s\n", (int)w, abr_report_format_name((abr_report_format)i),
                abr_report_format_summary((abr_report_format)i));
}

bool abc_parse_number(const char *s, double *out, bool zero_ok) {
    char *end;
    *out = strtod(s, &end);
    return *end == '\0' && end != s && (*out > 0 || (zero_ok && *out == 0));
}

int abc_resolve_run(abs_store *db, const char *path, const char *which, const char *tag,
                    int64_t *run) {
    ab_error err;
    ab_error_clear(&err);
    if (which == NULL || strcmp(which, "latest") == 0) {
        if (abs_run_latest(db, tag, run, &err) != AB_OK) return abc_fail(&err);
        if (*run == 0)
            return abc_failf(ABC_EXIT_USAGE, "%s: no runs%s%s yet", path, tag ? " tagged " : "",
                             tag ? tag : "");
        return 0;
    }
    if (!ab_parse_int64(which, strlen(which), run) || *run <= 0)
        return abc_failf(ABC_EXIT_USAGE, "a run is an id or 'latest', not '%s'", which);
    abs_run info;
    if (abs_run_get(db, *run, &info, &err) != AB_OK)
        return abc_failf(ABC_EXIT_USAGE, "%s: no run %s", path, which);
    abs_run_free(&info);
    return 0;
}
