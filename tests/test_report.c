/*
 * test_report.c — the run report in its four formats, from small databases
 * built through the store API with hand-made rows: the per-planner numbers
 * (geometric mean, proven, wins), the per-suite cells, the certificates and
 * what proved them, every failure with its message, escaping in each
 * format, the HTML charts and plan pictures (self-contained), JSON that
 * parses, CSV records, byte-for-byte determinism and allocation failures;
 * and the table model the Markdown and HTML tables share (one table,
 * rendered both ways, escaped for each).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/formats/suite.h"
#include "results/report/report.h"
#include "results/report/table.h"
#include "tests/support.h"

/* ---- building databases ---------------------------------------------------- */

static const char alpha_yaml[] = "suite: alpha\ntensors:\n"
                                 "  - {name: a, size: 16, start: 0, end: 1}\n"
                                 "  - {name: b, size: 16, start: 1, end: 2}\n"
                                 "  - {name: c, size: 32, start: 2, end: 3}\n";
static const char beta_yaml[] = "suite: beta\ntensors:\n"
                                "  - {name: p, size: 60, start: 0, end: 1}\n"
                                "  - {name: q, size: 40, start: 1, end: 1}\n";
static const char gamma_yaml[] = "suite: gamma\ntensors:\n"
                                 "  - {name: x, size: 100, start: 0, end: 1}\n"
                                 "  - {name: y, size: 80, start: 1, end: 2}\n";
static const char delta_yaml[] = "suite: delta\ntensors:\n"
                                 "  - {name: d, size: 250, start: 0, end: 0}\n";

/* The nasty message: every format must escape it. */
static const char nasty[] = "x and y overlap, \"bytes\" [0, 8)\nat <instr> 1 | end";

/* Whether suite() stores the suite's arena view with it, as `run` does
 * (false: as a file of schema 4 or older has it). */
static bool store_views = true;

static int64_t suite(abs_store *s, const char *name, const char *text, int64_t tensors,
                     int64_t peak) {
    abs_suite su;
    abs_suite_init(&su);
    ab_problem full, view;
    ab_problem_init(&full);
    ab_problem_init(&view);
    if (store_views && abf_suite_load_buffer(name, text, strlen(text), &full, NULL) == AB_OK &&
        ab_problem_arena_view(&full, &view, NULL, NULL) == AB_OK)
        su.view = &view;
    su.name = name;
    su.text = text;
    su.text_len = strlen(text);
    su.tensors = tensors;
    su.lower_bound = peak;
    su.peak_live_bytes = peak;
    int64_t id;
    ab_error err;
    cr_assert_eq(abs_suite_put(s, &su, &id, &err), AB_OK, "%s", err.msg);
    ab_problem_free(&full);
    ab_problem_free(&view);
    return id;
}

/* A row as the tests write it: what is not given stays unknown. */
typedef struct row {
    const char *spec;
    abo_status status;
    int64_t arena, lower_bound, k;
    abo_proof proof;
    const int64_t *plan;
    size_t nplan;
    int signal;
    const char *verdict, *check, *error;
    int64_t ilp_bound;
    double wall, cpu;   /* cpu 0: the wall time */
    const char *capped;
} row;

#define OK(spec_, arena_, lb_, ...) \
    ((row){.spec = (spec_), .status = ABO_STATUS_OK, .arena = (arena_), .lower_bound = (lb_), \
           __VA_ARGS__})
#define FAIL(spec_, status_, ...) ((row){.spec = (spec_), .status = (status_), __VA_ARGS__})

static void result(abs_store *s, int64_t run, int64_t su, row w) {
    abo_row r;
    abo_row_init(&r);
    r.run = run;
    r.suite = su;
    r.spec = w.spec;
    r.status = w.status;
    r.arena = w.arena ? w.arena : AB_NONE;
    r.lower_bound = w.lower_bound ? w.lower_bound : AB_NONE;
    r.k = w.k ? w.k : 1;
    r.proven_by = w.proof;
    r.offsets = w.plan;
    r.noffsets = w.nplan;
    r.signal = w.signal;
    r.verdict = w.verdict ? w.verdict : (w.status == ABO_STATUS_OK ? "ok" : NULL);
    r.check_message = w.check;
    r.error = w.error;
    r.ilp_bound = w.ilp_bound ? w.ilp_bound : AB_NONE;
    if (w.ilp_bound) {
        r.ilp_status = "optimal";
        r.ilp_objective = w.arena;
    }
    r.wall_s = w.wall ? w.wall : 0.25;
    r.cpu_s = w.cpu ? w.cpu : r.wall_s;
    r.cpu_min_s = r.cpu_max_s = r.cpu_s;
    r.capped = w.capped;
    ab_error err;
    cr_assert_eq(abs_result_put(s, &r, &err), AB_OK, "%s", err.msg);
}

static const int64_t alpha_ff[] = {0, 16, 32}, alpha_bf[] = {16, 0, 16};
static const int64_t gamma_bf[] = {0, 130}, gamma_k64[] = {0};

/* The fixture: four suites, five specs, one run (id 1):
 *   alpha (max-load 48):  best-fit 48 (proven lower-bound), first-fit 64
 *   beta  (max-load 100): best-fit timeout, exact-cover crash (SIGSEGV),
 *                         first-fit 120 (no plan)
 *   delta (max-load 250): ilp:time=30 300, ILP bound 300, proven ilp
 *   gamma (max-load 180): best-fit 210, exact-cover 200 (its bound 200,
 *                         proven exhaustive), exact-cover:k=64 256 (a plan
 *                         that does not fit), first-fit invalid (nasty) */
static char *fixture(int64_t *run) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    *run = abt_begin(s, "nightly", "abc123");
    int64_t a = suite(s, "alpha", alpha_yaml, 3, 48);
    int64_t b = suite(s, "beta", beta_yaml, 2, 100);
    int64_t g = suite(s, "gamma", gamma_yaml, 2, 180);
    int64_t d = suite(s, "delta", delta_yaml, 1, 250);
    result(s, *run, a, OK("first-fit", 64, 48, .plan = alpha_ff, .nplan = 3));
    result(s, *run, a, OK("best-fit", 48, 48, .proof = ABO_PROOF_LOWER_BOUND, .plan = alpha_bf,
                             .nplan = 3));
    result(s, *run, b, OK("first-fit", 120, 100));
    result(s, *run, b, FAIL("best-fit", ABO_STATUS_TIMEOUT, .error = "killed at the time limit",
                               .wall = 10.0));
    result(s, *run, b, FAIL("exact-cover", ABO_STATUS_CRASH, .signal = 11));
    result(s, *run, g, OK("best-fit", 210, 180, .plan = gamma_bf, .nplan = 2));
    result(s, *run, g, OK("exact-cover", 200, 200, .proof = ABO_PROOF_EXHAUSTIVE));
    result(s, *run, g, OK("exact-cover:k=64", 256, 180, .k = 64, .plan = gamma_k64, .nplan = 1));
    result(s, *run, g, FAIL("first-fit", ABO_STATUS_INVALID, .arena = 150, .lower_bound = 180,
                               .verdict = "overlap", .check = nasty));
    result(s, *run, d, OK("ilp:time=30", 300, 250, .proof = ABO_PROOF_ILP, .ilp_bound = 300));
    ab_error err;
    cr_assert_eq(abs_run_finish(s, *run, ABS_RUN_DONE, &err), AB_OK, "%s", err.msg);
    abs_close(s);
    return path;
}

/* With ABT_REPORT_DUMP=folder, each rendered report is also written there
 * (report.md, .html, ...: the last of each format wins), to look at. */
static void dump(abr_report_format fmt, const char *text) {
    static const char *const ext[] = {"md", "html", "csv", "json"};
    const char *dir = getenv("ABT_REPORT_DUMP");
    if (dir == NULL) return;
    char path[4096];
    snprintf(path, sizeof path, "%s/report.%s", dir, ext[fmt]);
    FILE *f = fopen(path, "wb");
    if (f == NULL) return;
    fputs(text, f);
    fclose(f);
}

/* The report of run in fmt, as a string owned by the caller (free). */
static char *render(const char *path, int64_t run, abr_report_format fmt,
                    const abr_report_opts *opt) {
    abs_store *s = abt_open_db(path, ABS_OPEN_READONLY);
    ab_buf b = {0};
    ab_error err;
    ab_status st = abr_report_render(s, run, fmt, opt, &b, &err);
    cr_assert_eq(st, AB_OK, "%s", err.msg);
    abs_close(s);
    char *out = strdup(b.s ? b.s : "");
    ab_buf_free(&b);
    dump(fmt, out);
    return out;
}

static size_t count(const char *s, const char *sub) {
    size_t n = 0;
    for (const char *p = strstr(s, sub); p; p = strstr(p + 1, sub)) n++;
    return n;
}

/* The SVG pictures of an HTML report: every <svg but the legend's markers. */
static size_t plots(const char *html) {
    return count(html, "<svg") - count(html, "<span class=\"lg\"><svg");
}

#define HAS(text, sub) \
    cr_assert(strstr((text), (sub)) != NULL, "missing: %s\n---\n%s", (sub), (text))
#define HASNT(text, sub) cr_assert(strstr((text), (sub)) == NULL, "unexpected: %s", (sub))

/* ---- a tiny JSON checker ------------------------------------------------------ */

static const char *js_value(const char *p, int depth);

static const char *js_ws(const char *p) {
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++;
    return p;
}

static const char *js_string(const char *p) {
    if (*p++ != '"') return NULL;
    for (; *p != '"'; p++) {
        if ((unsigned char)*p < 0x20) return NULL;
        if (*p != '\\') continue;
        p++;
        if (*p == 'u') {
            for (int i = 1; i <= 4; i++)
                if (!strchr("0123456789abcdefABCDEF", p[i]) || p[i] == '\0') return NULL;
            p += 4;
        } else if (!strchr("\"\\/bfnrt", *p) || *p == '\0') {
            return NULL;
        }
    }
    return p + 1;
}

static const char *js_number(const char *p) {
    const char *q = p;
    if (*q == '-') q++;
    if (*q < '0' || *q > '9') return NULL;
    while ((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E' || *q == '+' ||
           (*q == '-' && q > p))
        q++;
    return q;
}

static const char *js_list(const char *p, char close, bool keys, int depth) {
    p = js_ws(p + 1);
    if (*p == close) return p + 1;
    for (;;) {
        if (keys) {
            if ((p = js_string(js_ws(p))) == NULL) return NULL;
            p = js_ws(p);
            if (*p++ != ':') return NULL;
        }
        if ((p = js_value(p, depth + 1)) == NULL) return NULL;
        p = js_ws(p);
        if (*p == close) return p + 1;
        if (*p++ != ',') return NULL;
    }
}

static const char *js_value(const char *p, int depth) {
    p = js_ws(p);
    if (depth > 64) return NULL;
    if (*p == '{') return js_list(p, '}', true, depth);
    if (*p == '[') return js_list(p, ']', false, depth);
    if (*p == '"') return js_string(p);
    if (strncmp(p, "true", 4) == 0) return p + 4;
    if (strncmp(p, "false", 5) == 0) return p + 5;
    if (strncmp(p, "null", 4) == 0) return p + 4;
    return js_number(p);
}

static bool json_ok(const char *s) {
    const char *end = js_value(s, 0);
    return end != NULL && *js_ws(end) == '\0';
}

/* Runs python3 with script on text as stdin; its exit code, or -1 when
 * python3 is not there. */
static int python(const char *script, const char *text) {
    if (system("command -v python3 >/dev/null 2>&1") != 0) return -1;
    const char *in = abt_write_tmp(text, ".txt");
    char *inpath = strdup(in);
    const char *py = abt_write_tmp(script, ".py");
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "python3 %s < %s", py, inpath);
    free(inpath);
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

/* ---- Markdown ------------------------------------------------------------------ */

Test(report_md, has_the_run_header) {
    int64_t run;
    char *path = fixture(&run);
    char *md = render(path, run, ABR_REPORT_MD, NULL);
    HAS(md, "# arenabench report: run 1\n");
    HAS(md, "| run | 1 (done) |");
    HAS(md, "| tag | nightly |");
    HAS(md, "| revision | abc123 |");
    HAS(md, "| host | box |");
    HAS(md, "| command | arenabench run suites/ |");
    HAS(md, "| started | 20");
    HAS(md, "| finished | 20");
    /* the counts by kind since issue 30 ("3 failed" before: a row a time limit stopped is
     * not a failed row) */
    HAS(md, "4 suites, 5 planner specs, 10 results: 7 valid, 2 failed (invalid, crash or error), "
            "1 stopped by a limit (0 of them by a time or memory cap), 0 over the capacity or "
            "infeasible.");
    HAS(md, "**Verdict:** no verdict against an earlier run (no earlier run tagged nightly); 2 "
            "rows failed (invalid, crash or error); 1 row ran out of its budget.");
    cr_assert(strstr(md, "**Verdict:**") < strstr(md, "| run | 1 (done) |"), "the verdict first");
    free(md);
    free(path);
}

Test(report_md, summarises_each_planner) {
    int64_t run;
    char *path = fixture(&run);
    char *md = render(path, run, ABR_REPORT_MD, NULL);
    /* planner | suites | valid | invalid | timeout | crash | oom | over-capacity | infeasible | error |
     * then (the table is wider than 120 characters: issue 31) planner | geomean | proven | wins |
     * label. best-fit: sqrt(48/48 * 210/200) = 1.0247. */
    HAS(md, "| best-fit | 3 | 2 | 0 | 1 | 0 | 0 | 0 | 0 | 0 |");
    HAS(md, "| best-fit | 1.0247 | 1 | 1 | best-fit |");
    /* first-fit: sqrt(64/48 * 120/100) = sqrt(1.6) = 1.2649; wins beta alone. */
    HAS(md, "| first-fit | 3 | 2 | 1 | 0 | 0 | 0 | 0 | 0 | 0 |");
    HAS(md, "| first-fit | 1.2649 | 0 | 1 | first-fit |");
    HAS(md, "| exact-cover | 2 | 1 | 0 | 0 | 1 | 0 | 0 | 0 | 0 |");
    HAS(md, "| exact-cover | 1.0000 | 1 | 1 | exact-cover |");
    HAS(md, "| exact-cover:k=64 | 1 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |");
    HAS(md, "| exact-cover:k=64 | 1.2800 | 0 | 0 | exact-cover:k=64 |");
    HAS(md, "| ilp:time=30 | 1 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |");
    HAS(md, "| ilp:time=30 | 1.0000 | 1 | 1 | ilp:t=30 |");
    HAS(md, "(continued: columns 11 to 14 of 14)");
    free(md);
    free(path);
}

Test(report_md, tabulates_each_suite_with_gaps_and_failed_cells) {
    int64_t run;
    char *path = fixture(&run);
    char *md = render(path, run, ABR_REPORT_MD, NULL);
    /* in two parts, each within 120 characters, specs by their labels (issue 31) */
    HAS(md, "| suite | tensors | logical | physical | peak live | bound | best-fit | exact-cover | "
            "exact-cover:k=64 |");
    HAS(md, "| suite | first-fit | ilp:t=30 |");
    HAS(md, "| alpha | 3 | - | - | 48 | 48 | **48** (+0.00%) | - | - |");
    HAS(md, "| alpha | 64 (+33.33%) | - |");
    HAS(md, "| beta | 2 | - | - | 100 | 100 | timeout | crash SIGSEGV (11) | - |");
    HAS(md, "| beta | **120** (+20.00%) | - |");
    HAS(md, "| gamma | 2 | - | - | 180 | 200 | 210 (+5.00%) | **200** (+0.00%) | 256 (+28.00%) |");
    HAS(md, "| gamma | invalid | - |");
    HAS(md, "| delta | 1 | - | - | 250 | 300 | - | - | - |");
    HAS(md, "| delta | - | **300** (+0.00%) |");
    /* Suites in the store's order: by name. */
    cr_assert(strstr(md, "| alpha | 3") < strstr(md, "| beta | 2") &&
              strstr(md, "| beta | 2") < strstr(md, "| delta | 1") &&
              strstr(md, "| delta | 1") < strstr(md, "| gamma | 2"));
    free(md);
    free(path);
}

Test(report_md, certifies_optima_and_names_the_proof) {
    int64_t run;
    char *path = fixture(&run);
    char *md = render(path, run, ABR_REPORT_MD, NULL);
    /* specs by their labels, proofs by kind, in two parts (issue 31) */
    HAS(md, "| alpha | 48 | best-fit | 48 | max-load | optimal (lower-bound) |");
    HAS(md, "| alpha | lower-bound: best-fit |");
    HAS(md, "| beta | 120 | first-fit | 100 | max-load | open, gap +20.00% |");
    HAS(md, "| beta | - |");
    HAS(md, "| gamma | 200 | exact-cover | 200 | bound proved by exact-cover | "
            "optimal (exhaustive) |");
    HAS(md, "| gamma | exhaustive: exact-cover |");
    HAS(md, "| delta | 300 | ilp:t=30 | 300 | ILP bound of ilp:t=30 | optimal (ilp) |");
    HAS(md, "| delta | ilp: ilp:t=30 |");
    free(md);
    free(path);
}

Test(report_md, lists_every_failure_with_its_message_escaped) {
    int64_t run;
    char *path = fixture(&run);
    char *md = render(path, run, ABR_REPORT_MD, NULL);
    HAS(md, "3 failed results.");
    HAS(md, "| beta | best-fit | timeout | killed at the time limit |");
    HAS(md, "| beta | exact-cover | crash | signal SIGSEGV (11) |");
    HAS(md, "| gamma | first-fit | invalid | overlap; x and y overlap, \"bytes\" \\[0, 8) at "
            "&lt;instr> 1 \\| end |"); /* no raw HTML, no link brackets (DESIGN.md §5) */
    free(md);
    free(path);
}

Test(report_md, ties_all_win) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    int64_t run = abt_begin(s, NULL, "abc123");
    int64_t a = suite(s, "alpha", alpha_yaml, 3, 48);
    result(s, run, a, OK("one", 64, 48));
    result(s, run, a, OK("two", 64, 48));
    result(s, run, a, OK("three", 80, 48));
    abs_close(s);
    char *md = render(path, run, ABR_REPORT_MD, NULL);
    HAS(md, "| one | 1.3333 | 0 | 1 | one |");
    HAS(md, "| two | 1.3333 | 0 | 1 | two |");
    HAS(md, "| three | 1.6667 | 0 | 0 | three |");
    HAS(md, "| alpha | 64 | one, two | 48 | max-load | open, gap +33.33% | - |");
    HAS(md, "| tag | - |");
    HAS(md, "No failures.");
    free(md);
    free(path);
}

Test(report_md, tells_apart_suites_of_one_name) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    int64_t run = abt_begin(s, NULL, "abc123");
    int64_t a = suite(s, "same", "suite: same\n# one\n", 1, 10);
    int64_t b = suite(s, "same", "suite: same\n# two\n", 1, 10);
    result(s, run, a, OK("first-fit", 10, 10));
    result(s, run, b, OK("first-fit", 12, 10));
    abs_close(s);
    char *md = render(path, run, ABR_REPORT_MD, NULL);
    cr_assert_eq(count(md, "| same@"), 4, "%s", md); /* suites table and certificates */
    HASNT(md, "| same |");
    free(md);
    free(path);
}

Test(report_md, flags_a_bound_above_a_valid_arena) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    int64_t run = abt_begin(s, NULL, "abc123");
    int64_t a = suite(s, "alpha", alpha_yaml, 3, 48);
    result(s, run, a, OK("liar", 40, 48));
    abs_close(s);
    char *md = render(path, run, ABR_REPORT_MD, NULL);
    HAS(md, "CONFLICT: a valid arena below a lower bound");
    HAS(md, "**40** (-16.67%)");
    free(md);
    free(path);
}

/* The verdict against the run before with the same tag, as compare judges:
 * an arena that grew is a regression; the JSON says it too. */
Test(report_md, gives_the_verdict_against_the_previous_run_first) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    int64_t r1 = abt_begin(s, "nightly", "abc123");
    int64_t a = suite(s, "alpha", alpha_yaml, 3, 48);
    result(s, r1, a, OK("first-fit", 64, 48));
    result(s, r1, a, OK("best-fit", 48, 48));
    ab_error err;
    cr_assert_eq(abs_run_finish(s, r1, ABS_RUN_DONE, &err), AB_OK, "%s", err.msg);
    int64_t r2 = abt_begin(s, "nightly", "abc123");
    result(s, r2, a, OK("first-fit", 80, 48));
    result(s, r2, a, OK("best-fit", 48, 48));
    cr_assert_eq(abs_run_finish(s, r2, ABS_RUN_DONE, &err), AB_OK, "%s", err.msg);
    abs_close(s);
    char *md = render(path, r2, ABR_REPORT_MD, NULL);
    HAS(md, "**Verdict:** 1 REGRESSION against run 1: 1 of 2 pairs unchanged.");
    char *json = render(path, r2, ABR_REPORT_JSON, NULL);
    HAS(json, "\"verdict\": {\"base\": 1, \"regressions\": 1,");
    char *html = render(path, r2, ABR_REPORT_HTML, NULL);
    HAS(html, "<p class=\"verdict\"><b>Verdict:</b> 1 REGRESSION against run 1");
    free(md), free(json), free(html), free(path);
}

/* The nightly that went red on unchanged code (issue 30): a row ok before, now
 * stopped by the runner's wall clock with its CPU time far below the limit,
 * is not a regression; the verdict says so and the row is not "failed". */
Test(report_md, a_row_the_wall_clock_stopped_under_load_is_not_judged) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    int64_t r1 = abt_begin(s, "nightly", "abc123");
    int64_t a = suite(s, "alpha", alpha_yaml, 3, 48);
    result(s, r1, a, OK("canonical", 48, 48, .cpu = 18.0, .wall = 18.5));
    ab_error err;
    cr_assert_eq(abs_run_finish(s, r1, ABS_RUN_DONE, &err), AB_OK, "%s", err.msg);
    int64_t r2 = abt_begin(s, "nightly", "abc123");
    result(s, r2, a, FAIL("canonical", ABO_STATUS_TIMEOUT, .capped = "time", .cpu = 18.6,
                          .wall = 601.0, .error = "exceeded the time limit of 600 s"));
    cr_assert_eq(abs_run_finish(s, r2, ABS_RUN_DONE, &err), AB_OK, "%s", err.msg);
    abs_close(s);
    char *md = render(path, r2, ABR_REPORT_MD, NULL);
    HAS(md, "**Verdict:** no regression against run 1: 0 of 1 pairs unchanged, 1 row stopped by "
            "the wall clock under load, not judged; 1 row stopped by a time or memory cap "
            "(load can cause it).");
    HAS(md, "0 failed (invalid, crash or error), 1 stopped by a limit (1 of them by a time or "
            "memory cap)");
    free(md), free(path);
}

Test(report_md, renders_an_empty_run) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    int64_t run = abt_begin(s, "empty", "abc123");
    abs_close(s);
    char *md = render(path, run, ABR_REPORT_MD, NULL);
    HAS(md, "0 suites, 0 planner specs, 0 results: 0 valid, 0 failed (invalid, crash or error), "
            "0 stopped by a limit (0 of them by a time or memory cap), 0 over the capacity or "
            "infeasible.");
    HAS(md, "| finished | not finished |");
    HAS(md, "No failures.");
    char *json = render(path, run, ABR_REPORT_JSON, NULL);
    cr_assert(json_ok(json), "%s", json);
    char *csv = render(path, run, ABR_REPORT_CSV, NULL);
    cr_assert_eq(count(csv, "\n"), 1, "only the header: %s", csv);
    char *html = render(path, run, ABR_REPORT_HTML, NULL);
    HAS(html, "</html>\n");
    free(md);
    free(json);
    free(csv);
    free(html);
    free(path);
}

/* ---- CSV ------------------------------------------------------------------------ */

Test(report_csv, one_line_per_result_with_a_header) {
    int64_t run;
    char *path = fixture(&run);
    char *csv = render(path, run, ABR_REPORT_CSV, NULL);
    static const char head[] =
        "run,suite,suite_hash,tensors,spec,k,status,arena,lower_bound,max_load,best_bound,gap,"
        "proven,win,proven_by,ilp_status,ilp_objective,ilp_bound,wall_s,cpu_s,peak_rss,nodes,"
        "signal,verdict,check_message,error,note,plan_hash,recorded,repeats,cpu_min_s,"
        "cpu_max_s,wall_min_s,wall_max_s,plan_cpu_s,capped\n";
    cr_assert(strncmp(csv, head, strlen(head)) == 0, "%s", csv);
    /* 1 header + 10 rows; the nasty message's newline is \x0A (README), one
     * line per row */
    cr_assert_eq(count(csv, "\n"), 11);
    HAS(csv, ",best-fit,1,ok,48,48,48,48,0.000000,1,1,lower-bound,,,,0.250000,0.250000,,,,ok,,,,");
    HAS(csv, ",exact-cover:k=64,64,ok,256,180,180,200,0.280000,0,0,none,");
    HAS(csv, ",exact-cover,1,crash,,,100,100,,0,0,none,,,,0.250000,0.250000,,,11,,,,,,");
    HAS(csv, ",overlap,\"x and y overlap, \"\"bytes\"\" [0, 8)\\x0Aat <instr> 1 | end\",,,,");
    cr_assert(strncmp(csv + strcspn(csv, "\n") + 1, "1,alpha,", 8) == 0);
    int rc = python("import csv,sys\n"
                    "r = list(csv.reader(sys.stdin))\n"
                    "assert len(r) == 11, len(r)\n"
                    "assert all(len(x) == 36 for x in r)\n"
                    "assert r[0][0] == 'run' and r[1][1] == 'alpha' and r[1][4] == 'best-fit'\n"
                    "bad = [x for x in r if x[4] == 'first-fit' and x[1] == 'gamma'][0]\n"
                    "assert bad[24].startswith('x and y overlap, \"bytes\"'), bad[24]\n",
                    csv);
    if (rc >= 0) cr_assert_eq(rc, 0, "python's csv module disagrees");
    free(csv);
    free(path);
}

/* ---- JSON ----------------------------------------------------------------------- */

Test(report_json, parses_and_holds_run_planners_suites_rows) {
    int64_t run;
    char *path = fixture(&run);
    char *json = render(path, run, ABR_REPORT_JSON, NULL);
    cr_assert(json_ok(json), "%s", json);
    HAS(json, "\"run\": {\"id\": 1, ");
    HAS(json, "\"tag\": \"nightly\"");
    HAS(json, "{\"spec\": \"best-fit\", \"suites\": 3, \"ok\": 2, \"invalid\": 0, \"timeout\": "
              "1, \"crash\": 0, \"oom\": 0, \"over-capacity\": 0, \"infeasible\": 0, \"error\": 0, \"geomean_ratio\": "
              "1.024695, \"ratios\": 2, \"proven\": 1, \"wins\": 1, \"runs\": 0, "
              "\"cpu_median_s\": 0.250000, \"wall_median_s\": 0.250000, "
              "\"plan_cpu_median_s\": null, \"peak_rss_median\": null, \"peak_rss_max\": null, "
              "\"capped\": 0}");
    HAS(json, "\"check_message\": \"x and y overlap, \\\"bytes\\\" [0, 8)\\nat <instr> 1 | "
              "end\"");
    HAS(json, "\"gap\": null");
    HAS(json, "\"signal\": 11");
    HAS(json, "\"proof\": \"exhaustive\"");
    HAS(json, "\"bound_from\": \"bound proved by exact-cover\"");
    int rc = python("import json,sys\n"
                    "d = json.load(sys.stdin)\n"
                    "assert d['run']['id'] == 1 and d['run']['finished']\n"
                    "assert [p['spec'] for p in d['planners']] == ['best-fit', 'exact-cover', "
                    "'exact-cover:k=64', 'first-fit', 'ilp:time=30']\n"
                    "assert len(d['rows']) == 10 and len(d['suites']) == 4\n"
                    "g = [s for s in d['suites'] if s['name'] == 'gamma'][0]\n"
                    "assert g['best_arena'] == 200 and g['optimal'] is True\n"
                    "r = [r for r in d['rows'] if r['status'] == 'crash'][0]\n"
                    "assert r['arena'] is None and r['signal'] == 11\n"
                    "assert abs(d['planners'][3]['geomean_ratio'] - 1.6 ** 0.5) < 1e-6\n",
                    json);
    if (rc >= 0) cr_assert_eq(rc, 0, "python's json module disagrees");
    free(json);
    free(path);
}

Test(report_json, escapes_control_bytes_and_bad_utf8) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    int64_t run = abt_begin(s, "t\"ag", "abc123");
    int64_t a = suite(s, "alpha", alpha_yaml, 3, 48);
    result(s, run, a, FAIL("first-fit", ABO_STATUS_ERROR, .error = "bell\a tab\t bad\xff\xfe "
                                                                 "ok\xc3\xa9 back\\slash"));
    abs_close(s);
    char *json = render(path, run, ABR_REPORT_JSON, NULL);
    cr_assert(json_ok(json), "%s", json);
    HAS(json, "\"error\": \"bell\\u0007 tab\\t bad\\ufffd\\ufffd ok\xc3\xa9 back\\\\slash\"");
    HAS(json, "\"tag\": \"t\\\"ag\"");
    int rc = python("import json,sys\njson.load(sys.stdin)\n", json);
    if (rc >= 0) cr_assert_eq(rc, 0);
    free(json);
    free(path);
}

/* ---- HTML ------------------------------------------------------------------------ */

Test(report_html, is_one_self_contained_page) {
    int64_t run;
    char *path = fixture(&run);
    abr_report_opts opt = {0};
    char *html = render(path, run, ABR_REPORT_HTML, &opt);
    cr_assert(strncmp(html, "<!DOCTYPE html>\n", 16) == 0);
    HAS(html, "<style>");
    HAS(html, "</html>\n");
    cr_assert_eq(count(html, "http"), count(html, "http://www.w3.org/2000/svg"),
                 "only the SVG namespace may name a URL");
    HASNT(html, "<script");
    HASNT(html, "<link");
    HASNT(html, "src=");
    HASNT(html, "@import");
    HASNT(html, "url(");
    /* Each section is there. */
    HAS(html, "<h2>Planners</h2>");
    HAS(html, "<h2>Suites</h2>");
    HAS(html, "<h2>Optimality certificates</h2>");
    HAS(html, "<h2>Failures</h2>");
    HAS(html, "optimal (exhaustive)");
    HAS(html, "<td>1.0247</td>");
    free(html);
    free(path);
}

Test(report_html, escapes_every_text) {
    int64_t run;
    char *path = fixture(&run);
    char *html = render(path, run, ABR_REPORT_HTML, NULL);
    HAS(html, "x and y overlap, &quot;bytes&quot; [0, 8)\nat &lt;instr&gt; 1 | end");
    HASNT(html, "<instr>");
    free(html);
    free(path);
}

Test(report_html, draws_the_gap_chart) {
    int64_t run;
    char *path = fixture(&run);
    char *html = render(path, run, ABR_REPORT_HTML, NULL);
    HAS(html, "<h2>Gap to the best bound</h2>");
    /* One dot per valid row with a gap (7), one mark per failure (3). */
    cr_assert_eq(count(html, "fill-opacity=\"0.85\""), 7);
    HAS(html, "<title>first-fit: arena 64, gap +33.33%</title>");
    HAS(html, "<title>exact-cover: crash</title>");
    free(html);
    free(path);
}

/* A greedy outlier (+300%) beside a +10% gap: the axis stops at 50% so the
 * small gaps keep their room, and the outlier sits in the shaded column on
 * the right, its value in its title and the caption. Geometry: the band is
 * 520 - 44 px wide from x = 230, so +10% is at 230 + 476 / 5 = 325.2; the
 * outlier column is centred at 230 + 476 + 3 + 22 = 731 (a square marker of
 * half-width 3.6 starts at 727.4). */
Test(report_html, clips_the_gap_axis_at_50_percent_and_marks_outliers_apart) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    int64_t run = abt_begin(s, "nightly", "abc123");
    int64_t a = suite(s, "alpha", alpha_yaml, 3, 48);
    result(s, run, a, OK("best-fit", 110, 100));
    result(s, run, a, OK("first-fit", 400, 100));
    ab_error err;
    cr_assert_eq(abs_run_finish(s, run, ABS_RUN_DONE, &err), AB_OK, "%s", err.msg);
    abs_close(s);
    char *html = render(path, run, ABR_REPORT_HTML, NULL);
    HAS(html, "class=\"outliers\"");
    HAS(html, ">&gt;50%</text>");
    HAS(html, "The axis runs to 50%; the gaps above it (the largest is 300.0%) sit in the shaded "
              "column on its right.");
    HAS(html, "<circle cx=\"325.2\"");
    HAS(html, "<rect x=\"727.4\"");
    HAS(html, "<title>first-fit: arena 400, gap +300.00%</title>");
    free(html);
    int64_t run2;
    char *p2 = fixture(&run2); /* gaps within 50%: no clipping */
    html = render(p2, run2, ABR_REPORT_HTML, NULL);
    HASNT(html, "class=\"outliers\"");
    free(html);
    free(p2);
    free(path);
}

Test(report_html, draws_arena_versus_k_when_specs_differ_in_k) {
    int64_t run;
    char *path = fixture(&run);
    char *html = render(path, run, ABR_REPORT_HTML, NULL);
    HAS(html, "<h2>Arena versus coarsening k</h2>");
    HAS(html, "font-weight=\"bold\">gamma</text>\n<text x=\"8\" y=\"31\" font-size=\"11\" "
              "fill=\"#555\">arena (bytes) versus k</text>");
    cr_assert_eq(count(html, "versus k</text>"), 1, "only gamma has several k");
    HAS(html, "<title>exact-cover:k=64: arena 256, 0.250 s</title>");
    HAS(html, "<title>exact-cover: arena 200, 0.250 s</title>");
    free(html);
    free(path);
}

Test(report_html, leaves_out_the_k_section_without_several_k) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    int64_t run = abt_begin(s, NULL, "abc123");
    int64_t a = suite(s, "alpha", alpha_yaml, 3, 48);
    result(s, run, a, OK("first-fit", 64, 48));
    result(s, run, a, OK("exact-cover:k=4", 64, 48, .k = 4));
    abs_close(s);
    char *html = render(path, run, ABR_REPORT_HTML, NULL);
    HASNT(html, "Arena versus coarsening k");
    HASNT(html, "versus k</text>");
    free(html);
    free(path);
}

Test(report_html, pictures_the_worst_plans) {
    int64_t run;
    char *path = fixture(&run);
    abr_report_opts opt = {0};
    char *html = render(path, run, ABR_REPORT_HTML, &opt);
    /* Worst valid gaps with a plan: alpha first-fit (33%), gamma
     * exact-cover:k=64 (28%, a plan that does not fit), gamma best-fit (5%). */
    HAS(html, "alpha: first-fit, arena 64, gap +33.33%");
    HAS(html, "Cannot draw the plan of exact-cover:k=64 on gamma: the plan has 1 offsets but "
              "the suite&#39;s arena view has 2 tensors");
    HAS(html, "gamma: best-fit, arena 210, gap +5.00%");
    cr_assert(strstr(html, "alpha: first-fit, arena 64") < strstr(html, "gamma: best-fit, arena"));
    cr_assert_eq(plots(html), 4, "gap chart, one k chart, two plans");
    /* A rectangle per tensor of each plan (3 + 2). */
    cr_assert_eq(count(html, "stroke=\"#333\" stroke-width=\"0.5\""), 5);
    opt.pictures = 1;
    char *one = render(path, run, ABR_REPORT_HTML, &opt);
    cr_assert_eq(plots(one), 3);
    HASNT(one, "Cannot draw");
    free(one);
    free(html);
    free(path);
}

/* No options (NULL) are the defaults, pictures included: the same page as
 * every field 0 (report.h, abr_report_render). */
Test(report_html, null_options_are_the_defaults_with_pictures) {
    int64_t run;
    char *path = fixture(&run);
    char *null_opt = render(path, run, ABR_REPORT_HTML, NULL);
    char *zero_opt = render(path, run, ABR_REPORT_HTML, &(abr_report_opts){0});
    cr_assert_str_eq(null_opt, zero_opt);
    HAS(null_opt, "gamma: best-fit, arena 210, gap +5.00%");
    cr_assert_eq(plots(null_opt), 4, "gap chart, one k chart, two plans");
    free(zero_opt);
    free(null_opt);
    free(path);
}

/* Suites stored without their arena view (a file of schema 4 or older, never
 * filled by a run since): each picture says why it is missing, and nothing
 * parses the suite text instead. */
Test(report_html, says_why_a_suite_without_its_view_is_not_drawn) {
    int64_t run;
    store_views = false;
    char *path = fixture(&run);
    char *html = render(path, run, ABR_REPORT_HTML, &(abr_report_opts){0});
    HAS(html, "Cannot draw the plan of");
    HAS(html, "was stored before schema version 5, without its tensors");
    cr_assert_eq(plots(html), 2);
    free(html);
    free(path);
}

/* ---- all formats ---------------------------------------------------------------- */

Test(report, is_byte_for_byte_deterministic) {
    int64_t run;
    char *path = fixture(&run);
    abr_report_opts opt = {0};
    for (int f = ABR_REPORT_MD; f <= ABR_REPORT_JSON; f++) {
        char *a = render(path, run, (abr_report_format)f, &opt);
        char *b = render(path, run, (abr_report_format)f, &opt);
        cr_assert_str_eq(a, b, "format %d differs between two renders", f);
        cr_assert_gt(strlen(a), 100);
        free(a);
        free(b);
    }
    free(path);
}

Test(report, parses_format_words) {
    abr_report_format f = ABR_REPORT_JSON;
    cr_assert(abr_report_format_parse("md", &f) && f == ABR_REPORT_MD);
    cr_assert(abr_report_format_parse("markdown", &f) && f == ABR_REPORT_MD);
    cr_assert(abr_report_format_parse("html", &f) && f == ABR_REPORT_HTML);
    cr_assert(abr_report_format_parse("csv", &f) && f == ABR_REPORT_CSV);
    cr_assert(abr_report_format_parse("json", &f) && f == ABR_REPORT_JSON);
    cr_assert(!abr_report_format_parse("pdf", &f) && f == ABR_REPORT_JSON);
    cr_assert(!abr_report_format_parse(NULL, &f));
}

Test(report, refuses_an_unknown_run) {
    int64_t run;
    char *path = fixture(&run);
    abs_store *s = abt_open_db(path, ABS_OPEN_READONLY);
    ab_buf b = {0};
    ab_error err;
    cr_assert_eq(abr_report_render(s, 99, ABR_REPORT_MD, NULL, &b, &err), AB_EINPUT);
    HAS(err.msg, "no run 99");
    ab_buf_free(&b);
    abs_close(s);
    free(path);
}

Test(report, fails_cleanly_at_each_allocation) {
    int64_t run;
    char *path = fixture(&run);
    abs_store *s = abt_open_db(path, ABS_OPEN_READONLY);
    abr_report_opts opt = {0};
    for (int f = ABR_REPORT_MD; f <= ABR_REPORT_JSON; f++) {
        for (long n = 1;; n++) {
            ab_buf b = {0};
            ab_error err;
            ab_alloc_fail_at(n);
            ab_status st = abr_report_render(s, run, (abr_report_format)f, &opt, &b, &err);
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

/* ---- the table model (table.h) ----------------------------------------------------- */

/* A small table with every kind of cell: a left and a right column, a dot, a
 * note, a bold best cell, a class, and text each format must escape. */
static void small_table(abr_table *t) {
    abr_table_init(t);
    abr_table_title(t, 2, "Planners <&>");
    abr_table_para(t, "before, both", ABR_IN_BOTH, false, false);
    abr_table_para(t, "md only", ABR_IN_MD, false, false);
    abr_table_para(t, "html note", ABR_IN_HTML, true, true);
    abr_table_column(t, "planner | name", ABR_LEFT);
    abr_table_column(t, "arena", ABR_RIGHT);
    abr_table_add(t, (abr_cell){.text = "a|b\\c\nd", .swatch = "#123456"});
    abr_table_add(t, (abr_cell){.text = "96", .note = "+50.00%", .strong = true, .cls = "best"});
    abr_table_add(t, (abr_cell){.text = "<x & \"y\" 'z'>"});
    abr_table_addf(t, "%d", 7);
    cr_assert_not(t->oom);
    cr_assert_eq(abr_table_rows(t), 2);
}

static char *rendered(const abr_table *t, bool html) {
    ab_buf b = {0};
    if (html) abr_table_html(&b, t);
    else abr_table_md(&b, t);
    cr_assert_not(b.oom);
    return b.s;
}

Test(report_table, renders_one_table_as_markdown_with_cells_escaped) {
    abr_table t;
    small_table(&t);
    char *md = rendered(&t, false);
    cr_assert_str_eq(md, "\n## Planners &lt;&amp;>\n"
                         "\nbefore, both\n"
                         "\nmd only\n"
                         "\n| planner \\| name | arena |\n"
                         "|---|--:|\n"
                         "| a\\|b\\\\c d | **96** (+50.00%) |\n"
                         "| &lt;x &amp; \"y\" 'z'> | 7 |\n");
    ab_free(md);
    abr_table_free(&t);
}

Test(report_table, renders_the_same_table_as_html_with_text_escaped) {
    abr_table t;
    small_table(&t);
    char *html = rendered(&t, true);
    cr_assert_str_eq(html, "<h2>Planners &lt;&amp;&gt;</h2>\n"
                           "<p>before, both</p>\n"
                           "<table>\n<tr><th class=\"l\">planner | name</th><th>arena</th></tr>\n"
                           "<tr><td class=\"l\"><span style=\"color:#123456\">&#9679;</span> "
                           "a|b\\c\nd</td><td class=\"best\">96<br><small>+50.00%</small></td>"
                           "</tr>\n"
                           "<tr><td class=\"l\">&lt;x &amp; &quot;y&quot; &#39;z&#39;&gt;</td>"
                           "<td>7</td></tr>\n"
                           "</table>\n"
                           "<p class=\"note\">html note</p>\n");
    ab_free(html);
    abr_table_free(&t);
}

Test(report_table, html_unaligned_drops_the_alignment_classes) {
    abr_table t;
    abr_table_init(&t);
    t.html_unaligned = true;
    abr_table_column(&t, "suite", ABR_LEFT);
    abr_table_column(&t, "saving", ABR_RIGHT);
    abr_table_add(&t, (abr_cell){.text = "s"});
    abr_table_add(&t, (abr_cell){.text = "1", .cls = "best"});
    char *html = rendered(&t, true);
    cr_assert_str_eq(html, "<table><tr><th>suite</th><th>saving</th></tr>\n"
                           "<tr><td>s</td><td class=\"best\">1</td></tr>\n</table>\n");
    char *md = rendered(&t, false);
    cr_assert_str_eq(md, "\n| suite | saving |\n|---|--:|\n| s | 1 |\n");
    ab_free(html);
    ab_free(md);
    abr_table_free(&t);
}

Test(report_table, a_table_without_columns_is_a_heading_and_paragraphs) {
    abr_table t;
    abr_table_init(&t);
    abr_table_title(&t, 3, "Failures");
    abr_table_para(&t, "No failures.", ABR_IN_BOTH, false, false);
    char *md = rendered(&t, false), *html = rendered(&t, true);
    cr_assert_str_eq(md, "\n### Failures\n\nNo failures.\n");
    cr_assert_str_eq(html, "<h3>Failures</h3>\n<p>No failures.</p>\n");
    ab_free(md);
    ab_free(html);
    abr_table_free(&t);
    abr_table_free(NULL);
}

Test(report_table, marks_oom_at_each_allocation_and_frees_cleanly) {
    for (long n = 1;; n++) {
        abr_table t;
        ab_alloc_fail_at(n);
        abr_table_init(&t);
        abr_table_title(&t, 2, "T");
        abr_table_para(&t, "p", ABR_IN_BOTH, false, false);
        abr_table_column(&t, "a", ABR_LEFT);
        abr_table_add(&t, (abr_cell){.text = "x", .note = "y"});
        abr_table_addf(&t, "%d", 1);
        long made = ab_alloc_fail_at(0);
        bool oom = t.oom;
        abr_table_free(&t);
        if (made < n) {
            cr_assert_not(oom);
            break;
        }
        cr_assert(oom, "allocation %ld failed unnoticed", n);
    }
}
