/*
 * picture.c — a plan as text (see picture.h).
 */
#include "results/report/picture.h"

#include <inttypes.h>
#include <string.h>

static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
#define NLETTERS ((size_t)(sizeof letters - 1))

static char letter_of(size_t i) {
    return i < NLETTERS ? letters[i] : '*';
}

/* The rows' span of instructions and the step between drawn rows. */
static void row_span(const ab_problem *p, int64_t *t0, int64_t *t1, int64_t *step) {
    *t0 = INT64_MAX, *t1 = INT64_MIN;
    for (size_t i = 0; i < p->n; i++) {
        if (p->t[i].start < *t0) *t0 = p->t[i].start;
        if (p->t[i].end > *t1) *t1 = p->t[i].end;
    }
    int64_t span = *t1 - *t0 + 1;
    *step = (span + ABR_PICTURE_ROWS - 1) / ABR_PICTURE_ROWS;
    if (*step < 1) *step = 1;
}

/* Fills row (ABR_PICTURE_COLUMNS cells) with the tensors live at t; returns
 * their bytes. A cell shows the tensor holding the byte at its middle. */
static int64_t fill_row(const ab_problem *p, const int64_t *off, int64_t arena, int64_t t,
                        char *row) {
    memset(row, '.', ABR_PICTURE_COLUMNS);
    double slice = (double)arena / ABR_PICTURE_COLUMNS;
    int64_t live = 0;
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *x = &p->t[i];
        if (x->start > t || x->end < t) continue;
        live += x->size;
        if (off[i] < 0) continue;
        double lo = (double)off[i], hi = (double)off[i] + (double)x->size;
        int c0 = (int)(lo / slice - 0.5), c1 = (int)(hi / slice + 0.5);
        if (c0 < 0) c0 = 0;
        if (c1 > ABR_PICTURE_COLUMNS - 1) c1 = ABR_PICTURE_COLUMNS - 1;
        for (int c = c0; c <= c1; c++) {
            double mid = (c + 0.5) * slice;
            if (lo <= mid && mid < hi) row[c] = letter_of(i);
        }
    }
    return live;
}

ab_status abr_text_plan(ab_buf *b, const ab_problem *p, const int64_t *off, ab_error *err) {
    int64_t arena = 0;
    for (size_t i = 0; i < p->n; i++)
        if (off[i] >= 0 && off[i] + p->t[i].size > arena) arena = off[i] + p->t[i].size;
    if (p->n == 0 || arena == 0) {
        ab_buf_printf(b, "picture    (no tensor in the arena)\n");
        return b->oom ? ab_fail(err, AB_ENOMEM, "out of memory drawing the plan") : AB_OK;
    }
    int64_t t0, t1, step;
    row_span(p, &t0, &t1, &step);
    ab_buf_printf(b, "picture    %d columns of %.1f bytes each (arena %" PRId64
                  " bytes); a row per instruction",
                  ABR_PICTURE_COLUMNS, (double)arena / ABR_PICTURE_COLUMNS, arena);
    if (step > 1)
        ab_buf_printf(b, ", every %" PRId64 "th of %" PRId64 " shown", step, t1 - t0 + 1);
    ab_buf_printf(b, "; '.' free\n");
    int w = 1;
    for (int64_t v = t1; v >= 10; v /= 10) w++;
    char row[ABR_PICTURE_COLUMNS + 1];
    row[ABR_PICTURE_COLUMNS] = '\0';
    for (int64_t t = t0; t <= t1; t += step) {
        int64_t live = fill_row(p, off, arena, t, row);
        ab_buf_printf(b, "  %*" PRId64 " |%s| %" PRId64 "\n", w, t, row, live);
        if (t > t1 - step) break; /* the next would pass t1 (and could overflow) */
    }
    ab_buf_printf(b, "legend    ");
    size_t shown = p->n < NLETTERS ? p->n : NLETTERS;
    for (size_t i = 0; i < shown; i++)
        ab_buf_printf(b, " %c=%s%s", letter_of(i), ab_term(p->t[i].name ? p->t[i].name : "?"),
                      i + 1 < shown ? "," : "");
    if (p->n > NLETTERS) ab_buf_printf(b, "; '*' the other %zu tensors", p->n - NLETTERS);
    ab_buf_printf(b, "\n");
    return b->oom ? ab_fail(err, AB_ENOMEM, "out of memory drawing the plan") : AB_OK;
}
