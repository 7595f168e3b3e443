/*
 * test_plan_formats.c — the one table of plan file formats
 * (harness/formats/plan_formats.h) and the report formats' table
 * (results/report/report.h), walked row by row so that a new row is tested
 * without touching this file:
 *   - every row's sniff takes what its own writer wrote and none of the other
 *     rows' output (and a row reads exactly when it sniffs);
 *   - every format that reads gives back the plan it wrote;
 *   - the names in the commands' messages and help are the table's rows.
 * The plans are of the fuzz seed tiny.tflite (so tflm-offline has a model)
 * and of a suite with pools and names that need quoting.
 */
#include <criterion/criterion.h>
#include <sys/resource.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/problem.h"
#include "harness/formats/formats.h"
#include "harness/formats/plan_formats.h"
#include "results/report/report.h"
#include "tests/support.h"

#define HAS(s, sub) cr_assert(strstr((s), (sub)) != NULL, "expected '%s' in:\n%s", (sub), (s))

/* ---- helpers ------------------------------------------------------------------------ */

static size_t nrows(void) {
    size_t n = 0;
    while (abf_plan_formats[n] != NULL) n++;
    return n;
}

/* A suite loaded from path, its arena view, and a valid plan of the view: the
 * tensors stacked in order, each offset rounded up to its alignment. */
typedef struct fixture {
    ab_problem full, view;
    int64_t *offsets;
    ab_plan plan;
    char model[4096]; /* the .tflite the suite is, or "" */
} fixture;

static void fixture_load(fixture *x, const char *path, bool is_model) {
    ab_error e = {0};
    cr_assert_eq(abf_load_problem(path, NULL, &x->full, &e), AB_OK, "%s", e.msg);
    cr_assert_eq(ab_problem_arena_view(&x->full, &x->view, NULL, &e), AB_OK, "%s", e.msg);
    cr_assert_gt(x->view.n, 1);
    x->offsets = calloc(x->view.n, sizeof *x->offsets);
    cr_assert_not_null(x->offsets);
    int64_t top = 0;
    for (size_t i = 0; i < x->view.n; i++) {
        int64_t a = x->view.t[i].align > 1 ? x->view.t[i].align : 1;
        x->offsets[i] = (top + a - 1) / a * a;
        top = x->offsets[i] + x->view.t[i].size;
    }
    cr_assert_eq(ab_plan_from_offsets(&x->plan, x->offsets, x->view.n, &e), AB_OK);
    snprintf(x->model, sizeof x->model, "%s", is_model ? path : "");
}

static void fixture_free(fixture *x) {
    ab_plan_free(&x->plan);
    free(x->offsets);
    ab_problem_free(&x->view);
    ab_problem_free(&x->full);
}

/* Row f's output for x into *b; the status (a format may refuse a suite). */
static ab_status write_row(const abf_plan_format *f, const fixture *x, ab_buf *b, ab_error *e) {
    abf_plan_out o = {.view = &x->view, .offsets = x->offsets, .plan = &x->plan,
                      .suite_hash = NULL, .plan_path = "p",
                      .model = x->model[0] != '\0' ? x->model : NULL};
    return f->write(&o, b, e);
}

static const char *tmp_path(const char *name) {
    static char *dir;
    static char path[4][4096];
    static int slot;
    if (dir == NULL) dir = abt_tmpdir();
    char *p = path[slot++ % 4];
    snprintf(p, 4096, "%s/%s", dir, name);
    return p;
}

static void put(const char *path, const ab_buf *b) {
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s", path);
    cr_assert_eq(fwrite(b->s, 1, b->n, f), b->n);
    fclose(f);
}

/* A suite with two pools and names a plan CSV must quote. */
static const char *const pooled_yaml =
    "suite: pooled\n"
    "pools:\n"
    "  - {name: sram, size: 64}\n"
    "  - {name: psram}\n"
    "tensors:\n"
    "  - {name: 'a,b', size: 48, start: 0, end: 2}\n"
    "  - {name: 'say \"hi\"', size: 40, start: 1, end: 3}\n"
    "  - {name: plain, size: 16, start: 2, end: 4, align: 8}\n";

/* ---- the table ---------------------------------------------------------------------- */

Test(plan_formats, each_row_is_named_once_and_reads_exactly_when_it_sniffs) {
    cr_assert_geq(nrows(), 5);
    for (size_t i = 0; abf_plan_formats[i] != NULL; i++) {
        const abf_plan_format *f = abf_plan_formats[i];
        cr_assert(f->name != NULL && f->name[0] != '\0' && f->summary != NULL);
        cr_assert_not_null(f->write, "%s writes", f->name);
        cr_assert_eq(f->sniff == NULL, f->read == NULL, "%s: a sniff only for a reader", f->name);
        cr_assert_eq(abf_plan_format_named(f->name), f, "%s", f->name);
        cr_assert_leq(strlen(f->summary) + 16, 90, "%s: the summary fits a help line", f->name);
    }
    cr_assert_null(abf_plan_format_named("nope"));
    cr_assert_not_null(abf_plan_formats[0]->read, "the default reads");
}

/* Every row writes x; each output is taken by its own row's sniff (and by
 * abf_plan_format_of from a file) and by no other sniff. */
static void sniffs_tell_outputs_apart(fixture *x) {
    size_t n = nrows();
    ab_buf *out = calloc(n, sizeof *out);
    cr_assert_not_null(out);
    for (size_t j = 0; j < n; j++) {
        ab_error e = {0};
        cr_assert_eq(write_row(abf_plan_formats[j], x, &out[j], &e), AB_OK, "%s: %s",
                     abf_plan_formats[j]->name, e.msg);
        cr_assert_gt(out[j].n, 0);
    }
    for (size_t r = 0; r < n; r++) {
        const abf_plan_format *f = abf_plan_formats[r];
        if (f->sniff == NULL) continue;
        for (size_t j = 0; j < n; j++) {
            size_t len = out[j].n < ABF_PLAN_SNIFF_BYTES ? out[j].n : ABF_PLAN_SNIFF_BYTES;
            bool took = f->sniff((const unsigned char *)out[j].s, len);
            cr_assert_eq(took, r == j, "%s's sniff %s %s's output:\n%.200s", f->name,
                         took ? "takes" : "refuses", abf_plan_formats[j]->name, out[j].s);
        }
    }
    for (size_t j = 0; j < n; j++) {
        if (abf_plan_formats[j]->read == NULL) continue;
        const char *path = tmp_path("sniffed");
        put(path, &out[j]);
        cr_assert_eq(abf_plan_format_of(path), abf_plan_formats[j], "%s",
                     abf_plan_formats[j]->name);
    }
    for (size_t j = 0; j < n; j++) ab_buf_free(&out[j]);
    free(out);
}

Test(plan_formats, every_sniff_takes_its_own_output_and_no_other_rows) {
    fixture x = {0};
    fixture_load(&x, abt_src("fuzz/seeds/tflite/tiny.tflite"), true);
    sniffs_tell_outputs_apart(&x);
    fixture_free(&x);
}

Test(plan_formats, sniffs_take_headers_as_the_readers_take_them) {
    static const struct {
        const char *head, *format; /* NULL: no row takes it */
    } cases[] = {
        {"tensor,offset\n", "csv"},
        {"\xEF\xBB\xBF \"Tensor\" ,offset\r\nx,0\n", "csv"},
        {"\n  \t\r\noffset,TENSOR", "csv"},
        {"id,lower,upper,size,offset\n", "minimalloc"},
        {"buffer,start,end,size,offset\n", "minimalloc"},
        {"offset, buffer_id\n", "minimalloc"},
        {"ID,offset\n", NULL}, /* MiniMalloc's names are case-sensitive */
        {"tensors,offset\n", NULL},
        {"", NULL},
        {"name\ntensor,offset\n", NULL}, /* only the first line counts */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (size_t r = 0; abf_plan_formats[r] != NULL; r++) {
            const abf_plan_format *f = abf_plan_formats[r];
            if (f->sniff == NULL) continue;
            bool want = cases[c].format != NULL && strcmp(cases[c].format, f->name) == 0;
            cr_assert_eq(f->sniff((const unsigned char *)cases[c].head, strlen(cases[c].head)),
                         want, "%s on '%s'", f->name, cases[c].head);
        }
    cr_assert_eq(abf_plan_format_of(tmp_path("no-such-file")), abf_plan_formats[0]);
}

/* ---- round trips ---------------------------------------------------------------------- */

/* Each format that reads gives back what it wrote of x, entry for entry, or
 * refuses to write it (AB_EINPUT: a name it cannot hold). Returns how many
 * round-tripped. */
static int round_trips(const fixture *x) {
    int done = 0;
    for (size_t r = 0; abf_plan_formats[r] != NULL; r++) {
        const abf_plan_format *f = abf_plan_formats[r];
        if (f->read == NULL) continue;
        ab_buf b = {0};
        ab_error e = {0};
        ab_status st = write_row(f, x, &b, &e);
        if (st != AB_OK) {
            cr_assert_eq(st, AB_EINPUT, "%s: %s", f->name, e.msg);
            ab_buf_free(&b);
            continue;
        }
        const char *path = tmp_path("round.trip");
        put(path, &b);
        ab_buf_free(&b);
        ab_plan back;
        cr_assert_eq(f->read(path, &x->view, &back, &e), AB_OK, "%s: %s", f->name, e.msg);
        cr_assert_eq(back.n, x->plan.n, "%s", f->name);
        for (size_t i = 0; i < back.n; i++) {
            cr_assert_eq(back.v[i].tensor, x->plan.v[i].tensor, "%s: entry %zu", f->name, i);
            cr_assert_eq(back.v[i].offset, x->plan.v[i].offset, "%s: entry %zu", f->name, i);
        }
        ab_plan_free(&back);
        done++;
    }
    return done;
}

Test(plan_formats, every_reader_reads_back_what_its_writer_wrote) {
    fixture x = {0};
    fixture_load(&x, abt_src("fuzz/seeds/tflite/tiny.tflite"), true);
    size_t readers = 0;
    for (size_t r = 0; abf_plan_formats[r] != NULL; r++) readers += abf_plan_formats[r]->read != NULL;
    cr_assert_eq(round_trips(&x), (int)readers, "every reader round-trips plain names");
    fixture_free(&x);
    fixture y = {0};
    fixture_load(&y, abt_write_tmp(pooled_yaml, ".yaml"), false);
    cr_assert_gt(y.view.npools, 0);
    cr_assert_geq(round_trips(&y), 1, "the default holds any name");
    fixture_free(&y);
}

/* ---- the names users see ---------------------------------------------------------------- */

/* Splits "a, b or c" (len bytes at s) into names; returns how many. */
static size_t split_names(const char *s, size_t len, char names[][32], size_t max) {
    size_t n = 0;
    const char *end = s + len;
    while (s < end && n < max) {
        const char *comma = strstr(s, ", "), *or_ = strstr(s, " or ");
        const char *stop = end;
        if (comma != NULL && comma < stop) stop = comma;
        if (or_ != NULL && or_ < stop) stop = or_;
        cr_assert_lt((size_t)(stop - s), 32);
        snprintf(names[n++], 32, "%.*s", (int)(stop - s), s);
        s = stop == end ? end : stop + (stop == comma ? 2 : 4);
    }
    return n;
}

/* The names between before and after in text. */
static size_t names_between(const char *text, const char *before, const char *after,
                            char names[][32], size_t max) {
    const char *a = strstr(text, before);
    cr_assert_not_null(a, "'%s' in:\n%s", before, text);
    a += strlen(before);
    const char *b = strstr(a, after);
    cr_assert_not_null(b, "'%s' in:\n%s", after, text);
    return split_names(a, (size_t)(b - a), names, max);
}

/* names[0..n) are, in order, the rows that read (readers) or write. */
static void are_the_rows(char names[][32], size_t n, bool readers, const char *where) {
    size_t k = 0;
    for (size_t r = 0; abf_plan_formats[r] != NULL; r++) {
        const abf_plan_format *f = abf_plan_formats[r];
        if (readers ? f->read == NULL : f->write == NULL) continue;
        cr_assert_lt(k, n, "%s lacks %s", where, f->name);
        cr_assert_str_eq(names[k], f->name, "%s", where);
        k++;
    }
    cr_assert_eq(k, n, "%s names %zu formats, the table %zu", where, n, k);
}

static char *run_err(int want, const char *args) {
    char *out = NULL, *err = NULL;
    cr_assert_eq(abt_run(args, &out, &err), want, "%s: %s", args, err);
    free(out);
    return err;
}

static char *run_out(const char *args) {
    char *out = NULL, *err = NULL;
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s: %s", args, err);
    free(err);
    return out;
}

/* CPU seconds (user + system) of the waited-for children so far. */
static double children_cpu(void) {
    struct rusage ru;
    cr_assert_eq(getrusage(RUSAGE_CHILDREN, &ru), 0);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

/* A plan misspelling every name of a large trace is judged in linear time:
 * the note on I/O tensors scanned the suite once per unknown entry (80k
 * names took tens of CPU seconds; now well under one). Measured in CPU time
 * of the child, not wall-clock, with a bound far above the linear cost. */
Test(plan_formats, validate_with_every_name_unknown_is_linear, .timeout = 120) {
    enum { N = 80000 };
    ab_buf suite = {0}, plan = {0};
    ab_buf_printf(&suite, "id,lower,upper,size\n");
    ab_buf_printf(&plan, "tensor,offset\n");
    for (int i = 0; i < N; i++) {
        ab_buf_printf(&suite, "b%d,%d,%d,64\n", i, i, i + 3);
        ab_buf_printf(&plan, "c%d,%d\n", i, (i % 4) * 64);
    }
    cr_assert(!suite.oom && !plan.oom);
    char s[4096], p[4096], line[8300];
    snprintf(s, sizeof s, "%s", abt_write_tmp(suite.s, ".csv"));
    snprintf(p, sizeof p, "%s", abt_write_tmp(plan.s, ".csv"));
    ab_buf_free(&suite);
    ab_buf_free(&plan);
    snprintf(line, sizeof line, "validate '%s' '%s'", s, p);
    double before = children_cpu();
    char *out = NULL;
    int rc = abt_run(line, &out, NULL);
    double cpu = children_cpu() - before;
    cr_assert_eq(rc, 1, "%s", out);
    HAS(out, "names 'c0', not a tensor of the suite");
    free(out);
    cr_assert_lt(cpu, 5.0, "validate took %.1f s of CPU for %d unknown names", cpu, N);
}

Test(plan_formats, usage_errors_list_exactly_the_tables_rows) {
    char line[8192], names[16][32];
    const char *suite = abt_write_tmp("suite: s\ntensors:\n  - {name: a, size: 4, start: 0, end: 0}\n",
                                      ".yaml");
    char s[4096];
    snprintf(s, sizeof s, "%s", suite);
    const char *plan = abt_write_tmp("tensor,offset\na,0\n", ".csv");
    char p[4096];
    snprintf(p, sizeof p, "%s", plan);

    snprintf(line, sizeof line, "validate '%s' '%s' --format nope", s, p);
    char *err = run_err(2, line);
    are_the_rows(names, names_between(err, "--format takes ", ", not 'nope'", names, 16), true,
                 "validate");
    free(err);

    snprintf(line, sizeof line, "plan '%s' --format nope", s);
    err = run_err(2, line);
    are_the_rows(names, names_between(err, "--format takes ", ", not 'nope'", names, 16), true,
                 "plan");
    free(err);

    snprintf(line, sizeof line, "export '%s' --plan '%s' --format nope", s, p);
    err = run_err(2, line);
    are_the_rows(names, names_between(err, "(a suite), or ", " with --plan PLAN", names, 16),
                 false, "export");
    free(err);

    snprintf(line, sizeof line, "export '%s' --plan '%s' --format yaml", s, p);
    err = run_err(2, line);
    are_the_rows(names, names_between(err, "with --plan use ", "\n", names, 16), false,
                 "export --format yaml");
    free(err);

    /* the suite formats that render, in the same message */
    snprintf(line, sizeof line, "export '%s' --format nope", s);
    err = run_err(2, line);
    const char *a = strstr(err, "--format takes ");
    cr_assert_not_null(a, "%s", err);
    size_t k = 0;
    for (size_t i = 0; abf_formats[i] != NULL; i++) {
        if (abf_formats[i]->render == NULL) continue;
        char want[64];
        snprintf(want, sizeof want, "%s %s", k == 0 ? "takes" : "or", abf_formats[i]->name);
        HAS(a, want);
        k++;
    }
    free(err);
}

Test(plan_formats, report_format_errors_list_exactly_the_report_table) {
    char names[16][32];
    char *dir = abt_tmpdir(), line[4200];
    snprintf(line, sizeof line, "report --db '%s/none.db' --format pdf", dir);
    char *err = run_err(2, line);
    size_t n = names_between(err, "--format takes ", ", not 'pdf'", names, 16);
    cr_assert_eq(n, (size_t)ABR_REPORT_NFORMATS, "%s", err);
    for (size_t i = 0; i < n; i++)
        cr_assert_str_eq(names[i], abr_report_format_name((abr_report_format)i));
    cr_assert_null(abr_report_format_name(ABR_REPORT_NFORMATS));
    free(err);
    free(dir);
}

/* The lines under title in a help text: "  name  summary" until a blank line. */
static size_t help_rows(const char *help, const char *title, char names[][32], size_t max) {
    const char *at = strstr(help, title);
    cr_assert_not_null(at, "'%s' in:\n%s", title, help);
    at = strchr(at + strlen(title), '\n') + 1;
    size_t n = 0;
    while (strncmp(at, "  ", 2) == 0 && n < max) {
        cr_assert_eq(sscanf(at, "%31s", names[n]), 1);
        n++;
        at = strchr(at, '\n');
        if (at == NULL) break;
        at++;
    }
    return n;
}

Test(plan_formats, help_lists_every_row_with_its_summary) {
    char names[16][32];
    const char *cmds[] = {"plan --help", "validate --help"};
    for (size_t c = 0; c < 2; c++) {
        char *out = run_out(cmds[c]);
        are_the_rows(names, help_rows(out, "\nPlan file formats (", names, 16), true, cmds[c]);
        for (size_t r = 0; abf_plan_formats[r] != NULL; r++)
            if (abf_plan_formats[r]->read != NULL) HAS(out, abf_plan_formats[r]->summary);
        free(out);
    }
    char *out = run_out("export --help");
    are_the_rows(names, help_rows(out, "Formats of a plan", names, 16), false, "export --help");
    for (size_t r = 0; abf_plan_formats[r] != NULL; r++) HAS(out, abf_plan_formats[r]->summary);
    free(out);
    out = run_out("report --help");
    size_t n = help_rows(out, "Formats (--format F", names, 16);
    cr_assert_eq(n, (size_t)ABR_REPORT_NFORMATS, "%s", out);
    for (size_t i = 0; i < n; i++) {
        cr_assert_str_eq(names[i], abr_report_format_name((abr_report_format)i));
        HAS(out, abr_report_format_summary((abr_report_format)i));
    }
    free(out);
}

Test(plan_formats, export_takes_every_readable_plan_file_by_its_header) {
    const char *suite = abt_write_tmp("suite: s\ntensors:\n  - {name: a, size: 4, start: 0, end: 1}\n"
                                      "  - {name: b, size: 4, start: 1, end: 2}\n", ".yaml");
    char s[4096], line[12000];
    snprintf(s, sizeof s, "%s", suite);
    for (size_t r = 0; abf_plan_formats[r] != NULL; r++) {
        const abf_plan_format *f = abf_plan_formats[r];
        if (f->read == NULL) continue;
        const char *p = tmp_path(f->name);
        snprintf(line, sizeof line, "plan -p first-fit '%s' --format %s -o '%s'", s, f->name, p);
        free(run_out(line));
        snprintf(line, sizeof line, "export '%s' --plan '%s' --format json", s, p);
        char *out = run_out(line);
        HAS(out, "\"arena\": 8,");
        free(out);
    }
}
