/*
 * compare_read.c — a run's rows for compare: the store's rows (abs_rows_read)
 * and, beside each, its CPU spread and safety cap, taken from the row's
 * schema v3 columns (cpu_min_s, cpu_max_s, capped). The store migrates every
 * file it opens to the current schema, so the columns are always there; a
 * row without them (NULL, read as -1: one sample, e.g. migrated from v2) has
 * min = median = max = cpu_s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/report/compare_int.h"

ab_status abr_cside_read(abs_store *s, int64_t run, abr_cside *d, bool *spread, ab_error *err) {
    memset(d, 0, sizeof *d);
    *spread = true;
    ab_status st = abs_run_get(s, run, &d->run, err);
    if (st == AB_OK) st = abs_rows_read(s, run, &d->rows, err);
    if (st != AB_OK) return st;
    d->x = ab_alloc_array(d->rows.n ? d->rows.n : 1, sizeof *d->x);
    if (d->x == NULL) return ab_fail(err, AB_ENOMEM, "out of memory comparing runs");
    for (size_t i = 0; i < d->rows.n; i++) {
        const abo_row *r = &d->rows.v[i].r;
        abr_crow *x = &d->x[i];
        *x = (abr_crow){.w = &d->rows.v[i], .cpu_med = r->cpu_s, .cpu_min = r->cpu_min_s,
                        .cpu_max = r->cpu_max_s};
        if (r->capped != NULL) snprintf(x->capped, sizeof x->capped, "%s", r->capped);
        if (x->cpu_min < 0 || x->cpu_max < 0 || x->cpu_med < 0) /* one sample */
            x->cpu_min = x->cpu_max = x->cpu_med;
    }
    return AB_OK;
}

void abr_cside_free(abr_cside *d) {
    abs_run_free(&d->run);
    abs_rows_free(&d->rows);
    ab_free(d->x);
}
