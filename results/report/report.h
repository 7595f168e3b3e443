/*
 * report.h — the report of one run (`arenabench report`, DESIGN.md §5–§7):
 * read from the results store, rendered as Markdown, HTML, CSV or JSON into
 * a text buffer. Library code: nothing is printed; the command layer writes
 * the buffer out.
 *
 * The figures, as every format computes them:
 *
 *   best bound of a suite   the largest of: the suite's max-load bound
 *                           (peak live bytes), the suite's stored lower bound,
 *                           any row's lower bound (a bound its planner proved),
 *                           any row's ILP bound, and the arena of any valid row
 *                           that is proven optimal (its proof makes the arena
 *                           a bound). AB_NONE when none is known.
 *   best arena of a suite   the smallest arena of its valid (status ok) rows.
 *   gap of a valid row      arena / best bound - 1 (0 when both are 0; none
 *                           when the bound is unknown or 0 under a non-zero
 *                           arena).
 *   geomean (per planner)   the geometric mean of arena / best bound over its
 *                           valid rows that have a gap.
 *   proven (per planner)    its valid rows whose arena is proven optimal: the
 *                           row says so (proven_by) or the arena equals the
 *                           best bound.
 *   wins (per planner)      its valid rows whose arena equals the best arena
 *                           of the suite (ties all win).
 *   certificate of a suite  the best arena, who reached it, the best bound and
 *                           where it came from; "optimal" with the proof
 *                           (lower-bound: the max-load or stored bound equals
 *                           it; ilp: an ILP bound or an ILP proof; exhaustive:
 *                           an exact planner refuted every smaller height)
 *                           when they meet, else the gap left open.
 *   capacity decision       for a suite with a capacity (the suite row's, or
 *                           for a suite stored before schema 4 its stored
 *                           arena view's), from its rows' status, arena
 *                           and the best bound: fits (a valid arena within
 *                           the capacity; its gap to the best bound), does
 *                           not fit (the best bound exceeds it, or a row is
 *                           infeasible), not decided (the smallest arena in
 *                           [best bound, smallest valid plan, over-capacity
 *                           plans included], and why: an exact planner's row
 *                           at k = 1 stopped undecided, failed, or none ran),
 *                           or a conflict. It replaces the certificate's
 *                           verdict for such a suite (unless a valid arena
 *                           is below a bound: CONFLICT), so a plan over the
 *                           capacity never reads as an open gap; model.h
 *                           (abr_cap) has the rules.
 *   k of a row              the spec's k parameter (`exact-cover:k=64`), else
 *                           the row's stored k. Rows of one suite whose specs
 *                           differ only in k form a series for the k chart.
 *
 * Formats: Markdown and HTML show gaps as percentages; CSV and JSON carry
 * them as fractions (0.25 for 25 %), times in seconds, sizes in bytes, and
 * an absent value as an empty field (CSV, LF line ends, RFC 4180 quoting) or
 * null (JSON, UTF-8; invalid bytes in stored text become U+FFFD).
 *
 * Order: planners (specs) by byte order; suites in the store's row order
 * (name, hash); every sort has a total order, and nothing depends on the
 * time of rendering, so the same database gives the same bytes.
 */
#ifndef AB_REPORT_H
#define AB_REPORT_H

#include "core/buf.h"
#include "core/problem.h"
#include "results/store/store.h"

/* The report formats, one row each: X(ID, word, alias or NULL, one-line
 * description). A row's renderer is abr_render_<word> (render.h declares it
 * from this table), in its own file report_<word>.c. Adding a format: that
 * file and one row; `report`'s help and messages list the rows. The first
 * row is the default. (json: a suite's capacity_* fields, report_json.c, are
 * null without a capacity.) */
#define ABR_REPORT_FORMATS(X)                                                           \
    X(MD, md, "markdown", "Markdown: tables for a terminal, a PR comment or a wiki")     \
    X(HTML, html, NULL, "one self-contained page, inline SVG charts and plan pictures") \
    X(CSV, csv, NULL, "one line per result after a header line, RFC 4180 quoting")      \
    X(JSON, json, NULL, "one object: run, planners, suites, rows")

typedef enum abr_report_format {
#define ABR_REPORT_ENUM_(id, word, alias, summary) ABR_REPORT_##id,
    ABR_REPORT_FORMATS(ABR_REPORT_ENUM_)
#undef ABR_REPORT_ENUM_
    ABR_REPORT_NFORMATS /* the number of formats, not a format */
} abr_report_format;

/* The HTML plan pictures: the valid rows with the largest gaps (> 0), each
 * drawn from the suite's stored arena view and the stored plan. */
#define ABR_REPORT_PICTURES 3

/* The HTML pictures of the real models and traces (real.h): per suite, its
 * best greedy plan beside its best plan, for at most this many suites in the
 * table's order (the report says how many more there are). */
#define ABR_REPORT_REAL_SUITES 20

typedef struct abr_report_opts {
    int pictures;    /* how many worst plans to draw; <= 0: ABR_REPORT_PICTURES */
    int real_suites; /* how many real suites to draw; <= 0: ABR_REPORT_REAL_SUITES */
} abr_report_opts;

/* The format named w (a row's word or alias: "md", "markdown", "html", ...);
 * false (and *f untouched) for any other word. */
bool abr_report_format_parse(const char *w, abr_report_format *f);

/* Format f's word ("md") and its one-line description; NULL when f is not a
 * format. */
const char *abr_report_format_name(abr_report_format f);
const char *abr_report_format_summary(abr_report_format f);

/* Appends every format's word to b, as "md, html, csv or json". */
void abr_report_format_list(ab_buf *b);

/* Appends the report of run `run` in format fmt to out. opt may be NULL,
 * which is the same as every field 0: the defaults, so HTML still draws
 * ABR_REPORT_PICTURES plan pictures and up to ABR_REPORT_REAL_SUITES real
 * suites (the other formats draw none and read no option). AB_EINPUT for an unknown run, AB_ENOMEM when memory
 * runs out (out->oom included), the store's status for a read failure. A
 * plan picture that cannot be drawn (the loader refuses the text, the plan
 * does not fit the suite) is replaced by a line saying why; it does not fail
 * the report. On failure out may hold part of the report. */
ab_status abr_report_render(abs_store *s, int64_t run, abr_report_format fmt,
                            const abr_report_opts *opt, ab_buf *out, ab_error *err);

#endif
