/*
 * test_report_capacity.c — the report's capacity decisions (results/report/
 * model.h: abr_cap): a suite with a capacity fits, does not fit, or is not
 * decided, from its rows' status, arena and bounds, the same in every format;
 * a gap over the capacity never reads as an open instance; a suite without a
 * capacity keeps its verdict. Databases are built through the store API with
 * hand-made rows shaped as `run` writes them: a plan over the capacity is
 * over-capacity, a refuted one infeasible with its refuting bound.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/formats/suite.h"
#include "results/report/report.h"
#include "tests/support.h"

/* Three tensors, max-load 3072 (a + b at 0-1, b + c at 2-3), optimum 3072. */
#define TENSORS                                      \
    "tensors:\n"                                     \
    "  - {name: a, size: 2048, start: 0, end: 1}\n"  \
    "  - {name: b, size: 1024, start: 0, end: 3}\n"  \
    "  - {name: c, size: 2048, start: 2, end: 3}\n"
#define PEAK 3072

static const char fits_yaml[] = "suite: fits\ncapacity: 4096\n" TENSORS;
static const char open_yaml[] = "suite: open\ncapacity: 4096\n" TENSORS;
static const char refuted_yaml[] = "suite: refuted\ncapacity: 3500\n" TENSORS;
static const char nocap_yaml[] = "suite: nocap\n" TENSORS;

static const abr_report_opts defaults = {0};

/* ---- building databases ---------------------------------------------------- */

/* Whether suite() stores the suite's arena view with it, as `run` does
 * (false: a suite of a file of schema 3, with neither capacity nor view). */
static bool store_views = true;

static int64_t suite(abs_store *s, const char *name, const char *text) {
    abs_suite su;
    abs_suite_init(&su);
    ab_problem full, view; /* its arena view, stored with it as `run` does */
    ab_problem_init(&full);
    ab_problem_init(&view);
    cr_assert_eq(abf_suite_load_buffer(name, text, strlen(text), &full, NULL), AB_OK);
    cr_assert_eq(ab_problem_arena_view(&full, &view, NULL, NULL), AB_OK);
    if (store_views) su.view = &view;
    su.name = name;
    su.text = text;
    su.text_len = strlen(text);
    su.tensors = 3;
    su.lower_bound = PEAK;
    su.peak_live_bytes = PEAK;
    int64_t id;
    ab_error err;
    cr_assert_eq(abs_suite_put(s, &su, &id, &err), AB_OK, "%s", err.msg);
    ab_problem_free(&full);
    ab_problem_free(&view);
    return id;
}

/* A row as the tests write it: what is not given stays unknown (lower bound:
 * the max-load bound, as the run writes it). */
typedef struct row {
    const char *spec;
    abo_status status;
    int64_t arena, lower_bound, k;
    abo_proof proof;
    const char *capped, *note;
    int signal;
} row;

static void result(abs_store *s, int64_t run, int64_t su, row w) {
    abo_row r;
    abo_row_init(&r);
    r.run = run;
    r.suite = su;
    r.spec = w.spec;
    r.status = w.status;
    r.arena = w.arena ? w.arena : AB_NONE;
    r.lower_bound = w.lower_bound ? w.lower_bound : PEAK;
    r.k = w.k ? w.k : 1;
    r.proven_by = w.proof;
    r.capped = w.capped;
    r.note = w.note;
    r.signal = w.signal;
    r.verdict = w.arena ? (w.status == ABO_STATUS_OK ? "ok" : "over-capacity") : NULL;
    r.wall_s = r.cpu_s = 0.25;
    ab_error err;
    cr_assert_eq(abs_result_put(s, &r, &err), AB_OK, "%s", err.msg);
}

#define ROW(spec_, status_, arena_, ...) \
    ((row){.spec = (spec_), .status = (status_), .arena = (arena_), __VA_ARGS__})

static void finish(abs_store *s, int64_t run) {
    ab_error err;
    cr_assert_eq(abs_run_finish(s, run, ABS_RUN_DONE, &err), AB_OK, "%s", err.msg);
    abs_close(s);
}

/* The fixture: one run, four suites of max-load 3072.
 *   fits     capacity 4096: first-fit over it (5120); canonical:target=capacity
 *            packs it at 4096, +33.33% over the bound: it fits all the same
 *   open     capacity 4096: first-fit 5120 and best-fit 4608 over it, and the
 *            exact search stopped on its time budget with its greedy plan 4608
 *   refuted  capacity 3500: first-fit 5120 over it; canonical refuted 3500, its
 *            bound 3501 (its plan 4096 over the capacity: infeasible)
 *   nocap    no capacity: first-fit 4096 (+33.33%), best-fit 3584 (+16.67%) */
static char *fixture(int64_t *run) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    *run = abt_begin(s, "cap", "abc123");
    int64_t f = suite(s, "fits", fits_yaml), o = suite(s, "open", open_yaml);
    int64_t r = suite(s, "refuted", refuted_yaml), n = suite(s, "nocap", nocap_yaml);
    result(s, *run, f, ROW("first-fit", ABO_STATUS_OVER_CAPACITY, 5120));
    result(s, *run, f, ROW("canonical:target=capacity", ABO_STATUS_OK, 4096,
                           .note = "fits the capacity 4096: arena 4096 (search) after 9 nodes"));
    result(s, *run, o, ROW("first-fit", ABO_STATUS_OVER_CAPACITY, 5120));
    result(s, *run, o, ROW("best-fit", ABO_STATUS_OVER_CAPACITY, 4608));
    result(s, *run, o, ROW("canonical:target=capacity", ABO_STATUS_OVER_CAPACITY, 4608,
                           .capped = "time",
                           .note = "budget: time; capacity 4096 undecided; best 4608, bound 3072"));
    result(s, *run, r, ROW("first-fit", ABO_STATUS_OVER_CAPACITY, 5120));
    result(s, *run, r, ROW("canonical:target=capacity", ABO_STATUS_INFEASIBLE, 4096,
                           .lower_bound = 3501,
                           .note = "does not fit the capacity 3500: refuted after 7 nodes; "
                                   "best 4096"));
    result(s, *run, n, ROW("first-fit", ABO_STATUS_OK, 4096));
    result(s, *run, n, ROW("best-fit", ABO_STATUS_OK, 3584));
    finish(s, *run);
    return path;
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
    return out;
}

/* The line of text holding `key` (a copy, owned by the caller). */
static char *line_of(const char *text, const char *key) {
    const char *p = strstr(text, key);
    cr_assert_not_null(p, "no line with %s in\n%s", key, text);
    const char *a = p, *e = p + strcspn(p, "\n");
    while (a > text && a[-1] != '\n') a--;
    return strndup(a, (size_t)(e - a));
}

/* The Markdown row of suite name in the table under heading (a copy). */
static char *md_row(const char *md, const char *heading, const char *name) {
    const char *t = strstr(md, heading);
    cr_assert_not_null(t, "no %s in\n%s", heading, md);
    char key[64];
    snprintf(key, sizeof key, "\n| %s |", name);
    const char *p = strstr(t, key);
    const char *next = strstr(t + 1, "\n## ");
    cr_assert(p != NULL && (next == NULL || p < next), "no joined %s under %s in\n%s", name,
              heading, md);
    /* A table wider than 120 characters comes in parts that repeat the key
     * column (issue 31): the joined is its parts joined again, as one line. */
    char *joined = line_of(p + 1, "|");
    for (const char *q = strstr(p + 1, key); q != NULL && (next == NULL || q < next);
         q = strstr(q + 1, key)) {
        char *part = line_of(q + 1, "|");
        size_t keep = strlen(joined), skip = strlen(key) - 1; /* "| name |" */
        joined = realloc(joined, keep + strlen(part) + 1);
        cr_assert_not_null(joined);
        strcpy(joined + keep, part + skip);
        free(part);
    }
    return joined;
}

/* The JSON line of suite name: its object, one a line (a copy). */
static char *json_suite(const char *json, const char *name) {
    char key[64];
    snprintf(key, sizeof key, "{\"name\": \"%s\"", name);
    return line_of(json, key);
}

#define HAS(text, sub) \
    cr_assert(strstr((text), (sub)) != NULL, "missing: %s\n---\n%s", (sub), (text))
#define HASNT(text, sub) \
    cr_assert(strstr((text), (sub)) == NULL, "unexpected: %s\n---\n%s", (sub), (text))

#define CERTS "## Optimality certificates"
#define CAPS "## Capacity decisions"

/* ---- fits ------------------------------------------------------------------------ */

/* A heuristic over the capacity and an exact row at it: fits, with the exact
 * row's arena and its gap to the best bound, never "open, gap". */
Test(report_capacity, a_plan_within_the_capacity_fits) {
    int64_t run;
    char *path = fixture(&run);
    char *md = render(path, run, ABR_REPORT_MD, &defaults);
    char *cert = md_row(md, CERTS, "fits");
    HAS(cert, "| 4096 | canonical:t=capacity | 3072 | max-load | fits the capacity 4096: "
              "arena 4096, gap +33.33% to the best bound 3072 |");
    HASNT(cert, "open");
    char *cap = md_row(md, CAPS, "fits");
    cr_assert_str_eq(cap, "| fits | 4096 | fits the capacity 4096: arena 4096, gap +33.33% to "
                          "the best bound 3072 | 4096 | canonical:t=capacity | 3072 | "
                          "max-load | canonical:t=capacity (ok) |");
    /* the heuristic's plan over the capacity shows its arena and gap in its cell */
    char *cells = md_row(md, "## Suites", "fits");
    HAS(cells, "| **4096** (+33.33%) | over-capacity (5120, +66.67%) |");
    char *json = render(path, run, ABR_REPORT_JSON, &defaults);
    char *js = json_suite(json, "fits");
    HAS(js, "\"verdict\": \"fits the capacity 4096: arena 4096, gap +33.33% to the best bound "
            "3072\"");
    HAS(js, "\"capacity\": 4096, \"capacity_verdict\": \"fits\", \"capacity_arena\": 4096, "
            "\"capacity_gap\": 0.333333, \"capacity_bracket\": [3072, 4096], "
            "\"capacity_reached_by\": \"canonical:target=capacity\", "
            "\"capacity_undecided\": null");
    char *csv = render(path, run, ABR_REPORT_CSV, &defaults);
    HAS(csv, ",capped,capacity,capacity_verdict\n");
    char *ff = line_of(csv, "fits,");
    HAS(ff, ",4096,fits");
    char *html = render(path, run, ABR_REPORT_HTML, &defaults);
    HAS(html, "<h2>Capacity decisions</h2>");
    HAS(html, "fits the capacity 4096: arena 4096, gap +33.33% to the best bound 3072");
    free(cert), free(cap), free(cells), free(js), free(ff);
    free(md), free(json), free(csv), free(html), free(path);
}

/* ---- not decided ----------------------------------------------------------------- */

/* Greedy plans over the capacity and an exact search stopped on its budget:
 * not decided, with the range of the smallest arena, in every format; the
 * rows keep their gaps but the suite line is no "open, gap". */
Test(report_capacity, an_exact_search_out_of_budget_is_not_decided) {
    int64_t run;
    char *path = fixture(&run);
    static const char words[] = "not decided (exact search ran out of budget): capacity 4096, "
                                "smallest arena in [3072, 4608]";
    static const char md_words[] = "not decided (exact search ran out of budget): capacity "
                                   "4096, smallest arena in \\[3072, 4608\\]";
    char *md = render(path, run, ABR_REPORT_MD, &defaults);
    char *cert = md_row(md, CERTS, "open");
    HAS(cert, md_words);
    HASNT(cert, "gap");
    char *cap = md_row(md, CAPS, "open");
    cr_assert_str_eq(cap, "| open | 4096 | not decided (exact search ran out of budget): "
                          "capacity 4096, smallest arena in \\[3072, 4608\\] | 4608 | "
                          "best-fit, canonical:t=capacity | 3072 | max-load | "
                          "canonical:t=capacity (over-capacity, capped: time) |");
    char *cells = md_row(md, "## Suites", "open");
    HAS(cells, "| over-capacity (4608, +50.00%) | over-capacity (4608, +50.00%) | "
               "over-capacity (5120, +66.67%) |");
    char *json = render(path, run, ABR_REPORT_JSON, &defaults);
    char *js = json_suite(json, "open");
    HAS(js, words);
    HASNT(js, "open, gap");
    HAS(js, "\"capacity\": 4096, \"capacity_verdict\": \"not_decided\", \"capacity_arena\": "
            "null, \"capacity_gap\": null, \"capacity_bracket\": [3072, 4608], "
            "\"capacity_reached_by\": \"best-fit, canonical:target=capacity\", "
            "\"capacity_undecided\": \"exact_budget\"");
    char *csv = render(path, run, ABR_REPORT_CSV, &defaults);
    char *cr = line_of(csv, "open,");
    HAS(cr, ",4096,not_decided");
    char *html = render(path, run, ABR_REPORT_HTML, &defaults);
    HAS(html, words);
    size_t rows = 0;
    for (const char *p = strstr(html, "<tr><td class=\"l\">open</td>"); p != NULL;
         p = strstr(p + 1, "<tr><td class=\"l\">open</td>"), rows++) {
        char *tr = line_of(p, "<tr>");
        HASNT(tr, "open, gap");
        free(tr);
    }
    cr_assert_eq(rows, 7, "its rows: suites, peak, certificates, capacity, 3 failures; not %zu",
                 rows);
    free(cert), free(cap), free(cells), free(js), free(cr);
    free(md), free(json), free(csv), free(html), free(path);
}

/* Why a capacity stays open: no exact search ran (an exact planner at k > 1
 * is none), or the exact ones failed; a heuristic's plan within the capacity
 * decides it all the same. */
Test(report_capacity, says_why_a_capacity_is_not_decided) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    int64_t run = abt_begin(s, "cap", "abc123");
    int64_t h = suite(s, "heuristics", "suite: heuristics\ncapacity: 4000\n" TENSORS);
    int64_t c = suite(s, "crashed", "suite: crashed\ncapacity: 4000\n" TENSORS);
    int64_t g = suite(s, "greedy-fits", "suite: greedy-fits\ncapacity: 4000\n" TENSORS);
    result(s, run, h, ROW("first-fit", ABO_STATUS_OVER_CAPACITY, 5120));
    result(s, run, h, ROW("exact-cover:k=64", ABO_STATUS_OVER_CAPACITY, 4096, .k = 64));
    result(s, run, c, ROW("best-fit", ABO_STATUS_OVER_CAPACITY, 4608));
    result(s, run, c, ROW("canonical", ABO_STATUS_CRASH, 0, .signal = 11));
    result(s, run, g, ROW("best-fit", ABO_STATUS_OK, 3584));
    result(s, run, g, ROW("canonical:time=1", ABO_STATUS_OVER_CAPACITY, 4608, .capped = "time"));
    finish(s, run);
    char *md = render(path, run, ABR_REPORT_MD, &defaults);
    char *row1 = md_row(md, CAPS, "heuristics");
    HAS(row1, "| not decided (no exact search ran): capacity 4000, smallest arena in "
              "\\[3072, 4096\\] | 4096 | exact-cover:k=64 |");
    HAS(row1, "| - |"); /* no exact search at k = 1 */
    char *row2 = md_row(md, CAPS, "crashed");
    HAS(row2, "| not decided (exact search failed): capacity 4000, smallest arena in "
              "\\[3072, 4608\\] |");
    HAS(row2, "| canonical (crash) |");
    char *row3 = md_row(md, CERTS, "greedy-fits");
    HAS(row3, "fits the capacity 4000: arena 3584, gap +16.67% to the best bound 3072");
    char *json = render(path, run, ABR_REPORT_JSON, &defaults);
    HAS(json, "\"capacity_undecided\": \"no_exact\"");
    HAS(json, "\"capacity_undecided\": \"exact_failed\"");
    free(row1), free(row2), free(row3), free(md), free(json), free(path);
}

/* ---- does not fit ---------------------------------------------------------------- */

/* An exact search's refutation (its bound above the capacity) or a max-load
 * bound above it: does not fit, whatever plans over it were found. */
Test(report_capacity, a_bound_above_the_capacity_does_not_fit) {
    int64_t run;
    char *path = fixture(&run);
    char *md = render(path, run, ABR_REPORT_MD, &defaults);
    char *cert = md_row(md, CERTS, "refuted");
    HAS(cert, "| 3501 | bound proved by canonical:t=capacity | does not fit the capacity "
              "3500: bound 3501 > 3500 |");
    char *cap = md_row(md, CAPS, "refuted");
    cr_assert_str_eq(cap, "| refuted | 3500 | does not fit the capacity 3500: bound 3501 > 3500 "
                          "| 4096 | canonical:t=capacity | 3501 | bound proved by "
                          "canonical:t=capacity | canonical:t=capacity (infeasible) |");
    char *json = render(path, run, ABR_REPORT_JSON, &defaults);
    char *js = json_suite(json, "refuted");
    HAS(js, "\"verdict\": \"does not fit the capacity 3500: bound 3501 > 3500\"");
    HAS(js, "\"capacity\": 3500, \"capacity_verdict\": \"does_not_fit\", \"capacity_arena\": "
            "null, \"capacity_gap\": null, \"capacity_bracket\": [3501, 4096]");
    char *csv = render(path, run, ABR_REPORT_CSV, &defaults);
    char *cr = line_of(csv, "refuted,");
    HAS(cr, ",3500,does_not_fit");
    char *html = render(path, run, ABR_REPORT_HTML, &defaults);
    HAS(html, "does not fit the capacity 3500: bound 3501 &gt; 3500");
    free(cert), free(cap), free(js), free(cr), free(md), free(json), free(csv), free(html);

    /* the max-load bound alone refutes a capacity below it, heuristics only */
    char *p2 = abt_db_path();
    abs_store *s = abt_open_db(p2, ABS_OPEN_CREATE);
    int64_t r2 = abt_begin(s, "cap", "abc123");
    int64_t su = suite(s, "small", "suite: small\ncapacity: 3000\n" TENSORS);
    result(s, r2, su, ROW("first-fit", ABO_STATUS_INFEASIBLE, 4096));
    finish(s, r2);
    md = render(p2, r2, ABR_REPORT_MD, &defaults);
    cap = md_row(md, CAPS, "small");
    HAS(cap, "| does not fit the capacity 3000: bound 3072 > 3000 | 4096 | first-fit | 3072 | "
             "max-load | - |");
    free(cap), free(md), free(p2), free(path);
}

/* A plan within the capacity beside a proof that none fits: a conflict, said
 * as such in the decision. */
Test(report_capacity, a_plan_within_a_refuted_capacity_is_a_conflict) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    int64_t run = abt_begin(s, "cap", "abc123");
    int64_t su = suite(s, "liar", "suite: liar\ncapacity: 3500\n" TENSORS);
    result(s, run, su, ROW("first-fit", ABO_STATUS_OK, 3072));
    result(s, run, su, ROW("canonical:target=capacity", ABO_STATUS_INFEASIBLE, 4096,
                           .lower_bound = 3501));
    finish(s, run);
    char *md = render(path, run, ABR_REPORT_MD, &defaults);
    char *cap = md_row(md, CAPS, "liar");
    HAS(cap, "| CONFLICT: arena 3072 fits the capacity 3500, but bound 3501 > 3500 |");
    char *cert = md_row(md, CERTS, "liar");
    HAS(cert, "CONFLICT: a valid arena below a lower bound");
    char *json = render(path, run, ABR_REPORT_JSON, &defaults);
    HAS(json, "\"capacity_verdict\": \"conflict\"");
    free(cap), free(cert), free(md), free(json), free(path);
}

/* ---- no capacity ----------------------------------------------------------------- */

/* Beside suites with a capacity, a suite without one keeps its verdict and
 * gets no decision: no row in the capacity table, nulls in JSON, empty CSV
 * fields. */
Test(report_capacity, a_suite_without_a_capacity_keeps_its_verdict) {
    int64_t run;
    char *path = fixture(&run);
    char *md = render(path, run, ABR_REPORT_MD, &defaults);
    char *cert = md_row(md, CERTS, "nocap");
    HAS(cert, "| 3584 | best-fit | 3072 | max-load | open, gap +16.67% | - |");
    const char *caps = strstr(md, CAPS);
    cr_assert_not_null(caps, "%s", md);
    char *section = strndup(caps, (size_t)(strstr(caps, "\n## Failures") - caps));
    HAS(section, "| fits |");
    HASNT(section, "| nocap |");
    free(section);
    char *json = render(path, run, ABR_REPORT_JSON, &defaults);
    char *js = json_suite(json, "nocap");
    HAS(js, "\"verdict\": \"open, gap +16.67%\", \"capacity\": null, \"capacity_verdict\": null, "
            "\"capacity_arena\": null, \"capacity_gap\": null, \"capacity_bracket\": null, "
            "\"capacity_reached_by\": null, \"capacity_undecided\": null}");
    char *csv = render(path, run, ABR_REPORT_CSV, &defaults);
    char *cr = line_of(csv, "nocap,");
    cr_assert(strlen(cr) > 2 && strcmp(cr + strlen(cr) - 2, ",,") == 0, "%s", cr);
    free(cert), free(js), free(cr), free(md), free(json), free(csv), free(path);
}

/* A run without a capacity renders as before: with or without the loader
 * (which serves the capacities) the same bytes, but for what the loader adds
 * anyway (in Markdown the last section, what makes up the peak; in HTML the
 * plan pictures); no capacity section; the CSV's 36 columns. Without a loader
 * nothing tells the capacity: no decision. */
Test(report_capacity, a_run_without_capacities_is_unchanged) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    int64_t run = abt_begin(s, "cap", "abc123");
    int64_t n = suite(s, "nocap", nocap_yaml);
    result(s, run, n, ROW("first-fit", ABO_STATUS_OK, 4096));
    result(s, run, n, ROW("best-fit", ABO_STATUS_OK, 3584));
    finish(s, run);
    static const abr_report_format fmts[] = {ABR_REPORT_MD, ABR_REPORT_HTML, ABR_REPORT_CSV};
    for (size_t k = 0; k < sizeof fmts / sizeof fmts[0]; k++) {
        char *a = render(path, run, fmts[k], &defaults);
        char *b = render(path, run, fmts[k], NULL);
        if (fmts[k] != ABR_REPORT_HTML)
            cr_assert(strncmp(a, b, strlen(b)) == 0 &&
                      (a[strlen(b)] == '\0' || strncmp(a + strlen(b), "\n## What makes up the "
                                                        "peak\n", 26) == 0),
                      "with the loader:\n%s\nwithout:\n%s", a, b);
        HASNT(a, "apacity decisions");
        HASNT(a, "capacity_verdict");
        free(a), free(b);
    }
    char *md = render(path, run, ABR_REPORT_MD, &defaults);
    HAS(md, "| open, gap +16.67% |");
    free(md);
    /* the fixture with neither capacity columns nor views: no capacity known,
     * the old verdicts */
    int64_t run2;
    store_views = false;
    char *p2 = fixture(&run2);
    md = render(p2, run2, ABR_REPORT_MD, NULL);
    HASNT(md, CAPS);
    char *cert = md_row(md, CERTS, "fits");
    HAS(cert, "open, gap +33.33%");
    free(cert), free(md), free(p2), free(path);
}

/* Every allocation of a report with capacity decisions may fail: the render
 * says AB_ENOMEM, and frees what it made. */
Test(report_capacity, fails_cleanly_at_each_allocation) {
    int64_t run;
    char *path = fixture(&run);
    abs_store *s = abt_open_db(path, ABS_OPEN_READONLY);
    for (int f = ABR_REPORT_MD; f <= ABR_REPORT_JSON; f++) {
        for (long n = 1;; n++) {
            ab_buf b = {0};
            ab_error err;
            ab_alloc_fail_at(n);
            ab_status st = abr_report_render(s, run, (abr_report_format)f, &defaults, &b, &err);
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
