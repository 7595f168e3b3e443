/*
 * sections.h — the report's tables (private to results/report/): each built
 * once from the model, then rendered by report_md.c (abr_table_md) and by
 * report_html.c (abr_table_html), each in its own order around its own
 * header and, for HTML, the charts.
 */
#ifndef AB_REPORT_SECTIONS_H
#define AB_REPORT_SECTIONS_H

#include "results/report/model.h"
#include "results/report/real.h"
#include "results/report/table.h"

typedef struct abr_sections {
    abr_table planners;     /* per planner spec: statuses, geomean, proven, wins */
    abr_table timing;       /* per planner spec: CPU and wall time, peak RSS, capped rows */
    abr_table suites;       /* per suite: sizes, bound, one cell per spec */
    abr_table io;           /* separate against workspace I/O; empty unless --io both */
    abr_table certificates; /* per suite: best arena, best bound, verdict */
    abr_table bounds;       /* per suite: each bound of the run with its certificate
                               (oracle/bound.h); empty for a run stored before them */
    abr_table capacity;     /* per suite with a capacity: its decision (model.h: abr_cap);
                               empty when no suite has one */
    abr_table failures;     /* every failed row, or "No failures." */
    abr_table *pools;       /* the "Bytes per pool" heading, then a table per suite
                               with two or more pools; npools 0 without them */
    size_t npools;
    abr_table peaks;        /* per suite: the tensors live at its max-load instruction
                               (from the stored arena view) */
    abr_table real;         /* per real suite (real.h): its best greedy plan against its
                               best plan; a paragraph saying so when the run has none */
    abr_reals reals;        /* those suites and rows, in the table's order (the HTML
                               report draws their plans) */
} abr_sections;

/* Builds the tables of model m into *x (initialised by the call; free with
 * abr_sections_free, even on failure). s serves the stored arena views and
 * plans of the bytes per pool and the peaks. AB_ENOMEM when memory runs out;
 * a suite or plan that cannot be read again is left out, not a failure. */
ab_status abr_sections_build(abs_store *s, const abr_model *m, abr_sections *x, ab_error *err);

/* Frees the tables; x may be NULL. */
void abr_sections_free(abr_sections *x);

/* The colour and the marker of planner spec j: the mark in the planners and
 * timing tables, the legend and the charts. 30 colours (10 hues in 3 shades)
 * and ABR_NMARKERS shapes, assigned by spec order: colours are distinct for
 * the first 30 specs, (colour, marker) pairs for the first 210. */
const char *abr_color(size_t j);

/* The marker of spec j: 0 circle, 1 square, 2 triangle up, 3 diamond,
 * 4 triangle down, 5 plus, 6 star. */
#define ABR_NMARKERS 7
int abr_marker(size_t j);


#endif
