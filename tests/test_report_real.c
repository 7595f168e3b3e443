/*
 * test_report_real.c — the report's "Real models and traces" section
 * (results/report/real.h): which suites count as real, and per real suite
 * the best greedy plan against the best plan, as a table in Markdown (within
 * 120 columns) and HTML, and in HTML a picture of each plan with the tensors
 * that set its arena named. Small databases built through the store API with
 * hand-made rows and plans, as test_report.c builds them.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/formats/suite.h"
#include "results/report/real.h"
#include "results/report/report.h"
#include "results/report/svg.h"
#include "tests/support.h"

/* ---- building databases ---------------------------------------------------- */

/* A model imported from TFLite: first-fit leaves a hole the exact search
 * does not. Max-load 48 at instruction 2 (dw_conv + concat_out). */
static const char face_yaml[] =
    "suite: face\n"
    "description: 'Imported from the TFLite model face.tflite: subgraph 0, 3 tensors'\n"
    "tensors:\n"
    "  - {name: input_conv, size: 16, start: 0, end: 1}\n"
    "  - {name: dw_conv, size: 16, start: 1, end: 2}\n"
    "  - {name: concat_out, size: 32, start: 2, end: 3}\n";
/* first-fit: concat_out on top (64); best-fit: worse (80); canonical: 48,
 * input_conv and concat_out both end at the arena. */
static const int64_t face_ff[] = {0, 16, 32}, face_bf[] = {0, 16, 48}, face_can[] = {32, 0, 16};

/* A published network's layers (the mobilenet_v1 generator): greedy is
 * optimal. Named to come first in the store's order (by name), last in the
 * section's (largest loss first). */
static const char net_yaml[] =
    "suite: backbone\n"
    "description: 'generated: mobilenet_v1 (MobileNet v1 (alpha 1) at 224x224); live ranges'\n"
    "tensors:\n"
    "  - {name: conv0, size: 100, start: 0, end: 1}\n"
    "  - {name: dw1, size: 80, start: 1, end: 2}\n";
static const int64_t net_bf[] = {0, 100}, net_ec[] = {80, 0};

/* A compiler's trace (MiniMalloc CSV): first-fit +10% over canonical, whose
 * plan was not stored. */
static const char trace_yaml[] =
    "suite: gpu_trace\n"
    "description: 'imported from MiniMalloc CSV (half-open [lower, upper) read as inclusive "
    "[lower, upper - 1])'\n"
    "tensors:\n"
    "  - {name: t0, size: 100, start: 0, end: 0}\n"
    "  - {name: t1, size: 10, start: 1, end: 1}\n";
static const int64_t trace_ff[] = {0, 100};

/* Synthetic: residual blocks of the resnet generator (not ResNet-18), with the
 * largest gap of the run. */
static const char syn_yaml[] =
    "suite: syn\n"
    "description: 'generated: resnet (residual blocks with skip connections); live ranges'\n"
    "tensors:\n"
    "  - {name: s0, size: 10, start: 0, end: 1}\n"
    "  - {name: s1, size: 10, start: 1, end: 2}\n";
static const int64_t syn_ff[] = {0, 30};

/* Stores a suite with its arena view, as `run` does. */
static int64_t suite(abs_store *s, const char *name, const char *text, int64_t peak) {
    abs_suite su;
    abs_suite_init(&su);
    ab_problem full, view;
    ab_problem_init(&full);
    ab_problem_init(&view);
    cr_assert_eq(abf_suite_load_buffer(name, text, strlen(text), &full, NULL), AB_OK);
    cr_assert_eq(ab_problem_arena_view(&full, &view, NULL, NULL), AB_OK);
    su.view = &view;
    su.name = name;
    su.text = text;
    su.text_len = strlen(text);
    su.tensors = (int64_t)full.n;
    su.lower_bound = peak;
    su.peak_live_bytes = peak;
    int64_t id;
    ab_error err;
    cr_assert_eq(abs_suite_put(s, &su, &id, &err), AB_OK, "%s", err.msg);
    ab_problem_free(&full);
    ab_problem_free(&view);
    return id;
}

/* A valid row with its plan (plan NULL: none stored), or a failed one. */
static void result(abs_store *s, int64_t run, int64_t su, const char *spec, abo_status status,
                   int64_t arena, abo_proof proof, const int64_t *plan, size_t nplan) {
    abo_row r;
    abo_row_init(&r);
    r.run = run;
    r.suite = su;
    r.spec = spec;
    r.status = status;
    r.arena = arena;
    r.k = 1;
    r.proven_by = proof;
    r.offsets = plan;
    r.noffsets = nplan;
    r.verdict = status == ABO_STATUS_OK ? "ok" : "overlap";
    r.check_message = status == ABO_STATUS_OK ? NULL : "input_conv and dw_conv overlap";
    r.wall_s = r.cpu_s = r.cpu_min_s = r.cpu_max_s = 0.25;
    ab_error err;
    cr_assert_eq(abs_result_put(s, &r, &err), AB_OK, "%s", err.msg);
}

#define OK_ ABO_STATUS_OK
#define NOPROOF ABO_PROOF_NONE

/* Adds face's rows: first-fit 64, best-fit 80, tflm-greedy invalid at 40
 * (never picked), canonical 48 proven; and a subset bound of 48 (a bound,
 * not a planner: never picked). */
static void face_rows(abs_store *s, int64_t run, int64_t f) {
    result(s, run, f, "first-fit", OK_, 64, NOPROOF, face_ff, 3);
    result(s, run, f, "best-fit", OK_, 80, NOPROOF, face_bf, 3);
    result(s, run, f, "tflm-greedy", ABO_STATUS_INVALID, 40, NOPROOF, NULL, 0);
    result(s, run, f, "canonical", OK_, 48, ABO_PROOF_EXHAUSTIVE, face_can, 3);
    abs_bound b = {.run = run, .suite = f, .source = "nodes=200,time=30",
                   .b = {.kind = ABO_BOUND_SUBSET, .value = 48, .certificate = "window 1..2",
                         .nodes = 1},
                   .cpu_s = 0.1};
    ab_error err;
    cr_assert_eq(abs_bound_put(s, &b, &err), AB_OK, "%s", err.msg);
}

/* The run: face (greedy loses by 33%), gpu_trace (by 10%), backbone (greedy
 * optimal), syn (synthetic). With synthetic_only, syn alone. */
static char *fixture(int64_t *run, bool synthetic_only) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    *run = abt_begin(s, "nightly", "abc123");
    int64_t y = suite(s, "syn", syn_yaml, 20);
    result(s, *run, y, "first-fit", OK_, 40, NOPROOF, syn_ff, 2);
    result(s, *run, y, "canonical", OK_, 20, ABO_PROOF_LOWER_BOUND, NULL, 0);
    if (!synthetic_only) {
        int64_t f = suite(s, "face", face_yaml, 48);
        int64_t n = suite(s, "backbone", net_yaml, 180);
        int64_t t = suite(s, "gpu_trace", trace_yaml, 100);
        face_rows(s, *run, f);
        result(s, *run, n, "best-fit", OK_, 180, NOPROOF, net_bf, 2);
        result(s, *run, n, "exact-cover", OK_, 180, ABO_PROOF_LOWER_BOUND, net_ec, 2);
        result(s, *run, t, "first-fit", OK_, 110, NOPROOF, trace_ff, 2);
        result(s, *run, t, "canonical", OK_, 100, ABO_PROOF_LOWER_BOUND, NULL, 0);
    }
    ab_error err;
    cr_assert_eq(abs_run_finish(s, *run, ABS_RUN_DONE, &err), AB_OK, "%s", err.msg);
    abs_close(s);
    return path;
}

/* The report of run in fmt (owned by the caller). */
static char *render(const char *path, int64_t run, abr_report_format fmt,
                    const abr_report_opts *opt) {
    abs_store *s = abt_open_db(path, ABS_OPEN_READONLY);
    ab_buf b = {0};
    ab_error err;
    cr_assert_eq(abr_report_render(s, run, fmt, opt, &b, &err), AB_OK, "%s", err.msg);
    abs_close(s);
    char *out = strdup(b.s ? b.s : "");
    ab_buf_free(&b);
    return out;
}

static size_t count(const char *s, const char *sub) {
    size_t n = 0;
    for (const char *p = strstr(s, sub); p; p = strstr(p + 1, sub)) n++;
    return n;
}

/* The text from `from` to the next `to` (or the end), copied; NULL when
 * `from` is absent. */
static char *slice(const char *s, const char *from, const char *to) {
    const char *a = strstr(s, from);
    if (a == NULL) return NULL;
    const char *b = to ? strstr(a + strlen(from), to) : NULL;
    size_t n = b ? (size_t)(b - a) : strlen(a);
    char *r = malloc(n + 1);
    memcpy(r, a, n);
    r[n] = '\0';
    return r;
}

/* The figures (<figure class="plan real"> ... </figure>) of an HTML report,
 * in order: *n of them, each owned, the array too. */
static char **figures(const char *html, size_t *n) {
    char **v = calloc(count(html, "<figure class=\"plan real\">") + 1, sizeof *v);
    *n = 0;
    for (const char *p = strstr(html, "<figure class=\"plan real\">"); p;
         p = strstr(p + 1, "<figure class=\"plan real\">"))
        v[(*n)++] = slice(p, "<figure class=\"plan real\">", "</figure>");
    return v;
}

static void free_all(char **v, size_t n) {
    for (size_t i = 0; i < n; i++) free(v[i]);
    free(v);
}

#define HAS(text, sub) \
    cr_assert(strstr((text), (sub)) != NULL, "missing: %s\n---\n%s", (sub), (text))
#define HASNT(text, sub) \
    cr_assert(strstr((text), (sub)) == NULL, "unexpected: %s\n---\n%s", (sub), (text))

/* ---- which suites are real ---------------------------------------------------- */

Test(report_real, tells_real_suites_by_their_description_or_source) {
    cr_assert_eq(abr_real_kind_of(face_yaml, NULL), ABR_REAL_MODEL);
    cr_assert_eq(abr_real_kind_of("suite: o\ndescription: Imported from the ONNX model m.onnx\n",
                                  NULL), ABR_REAL_MODEL);
    cr_assert_eq(abr_real_kind_of(net_yaml, NULL), ABR_REAL_NETWORK);
    cr_assert_eq(abr_real_kind_of("suite: r\ndescription: \"generated: resnet18 (ResNet-18)\"\n",
                                  NULL), ABR_REAL_NETWORK);
    cr_assert_eq(abr_real_kind_of(syn_yaml, NULL), ABR_REAL_NONE, "the resnet generator's "
                 "blocks are synthetic");
    cr_assert_eq(abr_real_kind_of("suite: t\ndescription: imported from MiniMalloc CSV (half-"
                                  "open)\n", NULL), ABR_REAL_TRACE);
    cr_assert_eq(abr_real_kind_of("suite: x\ntensors: []\n", "models/m.tflite"), ABR_REAL_MODEL);
    cr_assert_eq(abr_real_kind_of("suite: x\ntensors: []\n", "traces/G_1.csv"), ABR_REAL_TRACE);
    cr_assert_eq(abr_real_kind_of("suite: x\ntensors: []\n", "suites/x.yaml"), ABR_REAL_NONE);
    /* a tensor named like the key is not the suite's description */
    cr_assert_eq(abr_real_kind_of("suite: x\ntensors:\n  - {name: a}\n  description: Imported "
                                  "from the \n", NULL), ABR_REAL_NONE);
    cr_assert_eq(abr_real_kind_of(NULL, NULL), ABR_REAL_NONE);
}

/* ---- the HTML pictures -------------------------------------------------------- */

Test(report_real, a_model_where_first_fit_loses_shows_both_plans_with_their_peaks) {
    int64_t run;
    char *path = fixture(&run, false);
    char *html = render(path, run, ABR_REPORT_HTML, &(abr_report_opts){0});
    char *sec = slice(html, "<section id=\"real\">", "</section>");
    cr_assert_not_null(sec);
    HAS(sec, "<h2>Real models and traces: best greedy against best</h2>");
    HAS(html, "<p><a href=\"#real\">Real models and traces</a>: 3 suites; the best greedy plan "
              "loses on 2 (most: face, +33.33%), is already best on 1.</p>");
    cr_assert(strstr(html, "<a href=\"#real\">") < strstr(html, "<h2>Planners</h2>"),
              "the line comes under the header, before the tables");
    HAS(sec, "3 of the run's 4 suites are real: 1 imported from a model file (TFLite, ONNX), 1 "
             "a published network's layers (suites/models/, by the generators), 1 a compiler's "
             "trace (MiniMalloc CSV).");
    size_t n;
    char **fig = figures(sec, &n);
    cr_assert_eq(n, 5, "face and gpu_trace: greedy and best; backbone: one");
    /* face first (greedy loses), its greedy plan first: first-fit, not the
     * worse best-fit, not the invalid tflm-greedy */
    HAS(sec, "<h3>face <small>(model)</small>: the best greedy plan is 16 B (+33.33%) over the "
             "best, which is optimal (");
    HAS(fig[0], "face: first-fit (best greedy), arena 64, gap +33.33%");
    HAS(fig[0], "<b>Best greedy</b>: first-fit, arena 64 B, gap +33.33% to the best bound.");
    HAS(fig[0], "Arena set by <b>concat_out</b> (offset 32 B + size 32 B, live [2, 3])");
    HAS(fig[0], "fragmentation 16 B");
    HAS(fig[0], "red outline: the tensor that sets the arena: concat_out");
    cr_assert_eq(count(fig[0], "<rect class=\"mark\""), 1);
    HASNT(fig[0], "input_conv</b>");
    /* the best: canonical, optimal, both tensors at its top named */
    HAS(fig[1], "face: canonical (best), arena 48, optimal (");
    HAS(fig[1], "<b>Best</b>: canonical, arena 48 B, optimal (");
    HAS(fig[1], "Arena set by <b>input_conv</b> (offset 32 B + size 16 B, live [0, 1]) and "
                "<b>concat_out</b> (offset 16 B + size 32 B, live [2, 3])");
    HAS(fig[1], "the tensors that set the arena: input_conv and concat_out");
    HAS(fig[1], "fragmentation 0 B");
    cr_assert_eq(count(fig[1], "<rect class=\"mark\""), 2);
    /* both on one scale, the greedy arena's: 0 to 80 B (48 B alone would stop lower) */
    char *axis0 = slice(fig[0], "<text class=\"yt\"", "</svg>");
    char *axis1 = slice(fig[1], "<text class=\"yt\"", "</svg>");
    cr_assert_eq(count(axis0, "class=\"yt\""), count(axis1, "class=\"yt\""));
    HAS(axis0, "text-anchor=\"end\">80 B</text>");
    HAS(axis1, "text-anchor=\"end\">80 B</text>");
    /* never a row that failed, never a bound */
    HASNT(sec, "tflm-greedy");
    HASNT(sec, "nodes=200,time=30");
    HASNT(sec, "subset");
    /* gpu_trace next (+10%): its best has no stored plan, and says so */
    HAS(fig[2], "gpu_trace: first-fit (best greedy), arena 110, gap +10.00%");
    HAS(fig[3], "Cannot draw the plan of canonical on gpu_trace: no plan was stored for it");
    HAS(fig[4], "backbone: best-fit (best greedy, also the best)");
    free(axis0);
    free(axis1);
    free_all(fig, n);
    free(sec);
    free(html);
    free(path);
}

Test(report_real, a_suite_where_greedy_is_optimal_shows_one_picture) {
    int64_t run;
    char *path = fixture(&run, false);
    char *html = render(path, run, ABR_REPORT_HTML, &(abr_report_opts){0});
    char *net = slice(html, "<h3>backbone ", "</section>");
    cr_assert_not_null(net);
    HAS(net, "<h3>backbone <small>(network)</small>: greedy is already best, and optimal (");
    size_t n;
    char **fig = figures(net, &n);
    cr_assert_eq(n, 1);
    HAS(fig[0], "backbone: best-fit (best greedy, also the best), arena 180, optimal (");
    HAS(fig[0], "<b>Best greedy, also the best</b>: best-fit, arena 180 B, optimal (");
    HAS(fig[0], "greedy is already best, reached by best-fit, exact-cover");
    HAS(fig[0], "Arena set by <b>dw1</b>");
    free_all(fig, n);
    free(net);
    free(html);
    free(path);
}

Test(report_real, the_synthetic_suites_are_not_drawn_there) {
    int64_t run;
    char *path = fixture(&run, false);
    char *html = render(path, run, ABR_REPORT_HTML, &(abr_report_opts){0});
    char *sec = slice(html, "<section id=\"real\">", "</section>");
    HASNT(sec, "syn");
    /* the largest gaps are still pictured: syn's first-fit among them */
    HAS(html, "<h2>The plans with the largest gaps</h2>");
    HAS(html, "syn: first-fit, arena 40, gap +100.00%");
    free(sec);
    free(html);
    free(path);
}

Test(report_real, a_synthetic_only_run_says_it_has_no_real_suite) {
    int64_t run;
    char *path = fixture(&run, true);
    char *html = render(path, run, ABR_REPORT_HTML, &(abr_report_opts){0});
    char *sec = slice(html, "<section id=\"real\">", "</section>");
    cr_assert_not_null(sec);
    HAS(sec, "No real model or trace among this run's suites");
    HASNT(html, "<a href=\"#real\">");
    cr_assert_eq(count(sec, "<figure"), 0);
    cr_assert_eq(count(sec, "<table"), 0);
    char *md = render(path, run, ABR_REPORT_MD, NULL);
    HAS(md, "## Real models and traces: best greedy against best\n\nNo real model or trace");
    free(md);
    free(sec);
    free(html);
    free(path);
}

Test(report_real, suites_past_the_limit_are_counted_not_dropped) {
    int64_t run;
    char *path = fixture(&run, false);
    char *html = render(path, run, ABR_REPORT_HTML, &(abr_report_opts){.real_suites = 1});
    char *sec = slice(html, "<section id=\"real\">", "</section>");
    size_t n;
    char **fig = figures(sec, &n);
    cr_assert_eq(n, 2, "face's two plans only");
    HAS(sec, "2 more real suites not drawn (the first 1 in the table's order are; the table "
             "lists all 3).");
    HAS(sec, "<td class=\"l\">backbone</td>");
    free_all(fig, n);
    free(sec);
    free(html);
    free(path);
}

/* ---- the marks on a picture (svg.h: abr_svg_plan_marked) ------------------------- */

/* An aggregated picture (over ABR_SVG_DETAIL_MAX tensors) still outlines and
 * names each marked tensor, however small, skips an index out of range, and
 * draws at most ABR_SVG_MARKED_MAX; y_top raises the axis. */
Test(report_real, marks_survive_aggregation_and_are_capped) {
    size_t n = ABR_SVG_DETAIL_MAX + 50;
    ab_problem p;
    ab_problem_init(&p);
    int64_t *off = calloc(n, sizeof *off);
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "t%zu", i);
        int64_t size = i == 7 ? 1 : 1000;
        ab_tensor t = {.name = name, .size = size, .logical_bits = size * 8,
                       .start = (int64_t)i, .end = (int64_t)i, .align = 1, .offset = AB_NONE};
        cr_assert_eq(ab_problem_add(&p, &t, NULL), AB_OK);
    }
    off[7] = 1000;
    ab_plan pl;
    cr_assert_eq(ab_plan_from_offsets(&pl, off, n, NULL), AB_OK);
    size_t marked[ABR_SVG_MARKED_MAX + 3];
    marked[0] = 7;
    marked[1] = n + 5; /* not a tensor: skipped */
    for (size_t k = 2; k < sizeof marked / sizeof marked[0]; k++) marked[k] = 100 + k;
    abr_svg_marks mk = {.marked = marked, .nmarked = sizeof marked / sizeof marked[0],
                        .y_top = 4000, .note = "red: <the top>"};
    ab_buf b = {0};
    cr_assert_eq(abr_svg_plan_marked(&b, &p, &pl, 1000, "t", AB_NO_TENSOR, AB_NO_TENSOR, &mk,
                                     NULL), AB_OK);
    HAS(b.s, "aggregated: ");
    cr_assert_eq(count(b.s, "<rect class=\"mark\""), ABR_SVG_MARKED_MAX);
    HAS(b.s, ">t7</text>");
    HAS(b.s, "<title>t7: [7, 7] bytes [1000, 1001), marked</title>");
    HAS(b.s, "red: &lt;the top&gt;");
    HAS(b.s, "text-anchor=\"end\">4 KiB</text>");
    ab_buf_free(&b);
    /* without marks: the picture of abr_svg_plan, byte for byte */
    ab_buf c = {0}, d = {0};
    cr_assert_eq(abr_svg_plan(&c, &p, &pl, 1000, "t", AB_NO_TENSOR, AB_NO_TENSOR, NULL), AB_OK);
    cr_assert_eq(abr_svg_plan_marked(&d, &p, &pl, 1000, "t", AB_NO_TENSOR, AB_NO_TENSOR,
                                     &(abr_svg_marks){0}, NULL), AB_OK);
    cr_assert_str_eq(c.s, d.s);
    HASNT(c.s, "class=\"mark\"");
    ab_buf_free(&c);
    ab_buf_free(&d);
    ab_plan_free(&pl);
    ab_problem_free(&p);
    free(off);
}

/* ---- the Markdown table --------------------------------------------------------- */

Test(report_real, markdown_lists_best_greedy_against_best_within_120_columns) {
    int64_t run;
    char *path = fixture(&run, false);
    char *md = render(path, run, ABR_REPORT_MD, NULL);
    char *sec = slice(md, "## Real models and traces", "\n## ");
    cr_assert_not_null(sec);
    HAS(sec, "| suite | plan: planner | arena | over best | gap to bound |\n");
    HAS(sec, "| face | greedy: first-fit | 64 | +33.33% | +33.33% |\n"
             "|  | best: canonical | 48 | - | optimal |\n"
             "| gpu\\_trace | greedy: first-fit | 110 | +10.00% | +10.00% |\n"
             "|  | best: canonical | 100 | - | optimal |\n"
             "| backbone | both: best-fit | 180 | 0.00% | optimal |\n");
    HASNT(sec, "syn");
    HASNT(sec, "tflm");
    HASNT(sec, "(continued");
    for (const char *line = sec; *line; ) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (line[0] == '|') cr_assert_leq(len, 120, "%.*s", (int)len, line);
        if (end == NULL) break;
        line = end + 1;
    }
    free(sec);
    free(md);
    free(path);
}

Test(report_real, the_section_is_the_same_bytes_each_time) {
    int64_t run;
    char *path = fixture(&run, false);
    for (int f = ABR_REPORT_MD; f <= ABR_REPORT_HTML; f++) {
        char *a = render(path, run, (abr_report_format)f, NULL);
        char *b = render(path, run, (abr_report_format)f, NULL);
        cr_assert_str_eq(a, b);
        free(a);
        free(b);
    }
    free(path);
}

Test(report_real, fails_cleanly_at_each_allocation) {
    int64_t run;
    char *path = fixture(&run, false);
    abs_store *s = abt_open_db(path, ABS_OPEN_READONLY);
    for (int f = ABR_REPORT_MD; f <= ABR_REPORT_HTML; f++) {
        for (long n = 1;; n++) {
            ab_buf b = {0};
            ab_error err;
            ab_alloc_fail_at(n);
            ab_status st = abr_report_render(s, run, (abr_report_format)f, NULL, &b, &err);
            long made = ab_alloc_fail_at(0);
            ab_buf_free(&b);
            if (made < n) {
                cr_assert_eq(st, AB_OK, "format %d: %s", f, err.msg);
                break;
            }
            cr_assert_eq(st, AB_ENOMEM, "format %d, allocation %ld: %d %s", f, n, st, err.msg);
        }
    }
    abs_close(s);
    free(path);
}
