/*
 * report_csv.c — the report as CSV: one line per result, a header line first,
 * RFC 4180 quoting, LF line ends; an absent value is an empty field.
 */
#include "results/report/render.h"

/* A CSV field: core's CSV escape (quoting, formulas neutralised). */
static void csv_str(ab_buf *b, const char *s) {
    if (s != NULL) ab_buf_csv(b, s);
}

static void csv_value(ab_buf *b, const abr_field *f) {
    if (f->null) return;
    switch (f->t) {
    case ABR_F_INT: ab_buf_printf(b, "%lld", (long long)f->i); break;
    case ABR_F_REAL: ab_buf_printf(b, "%.6f", f->d); break;
    case ABR_F_STR: csv_str(b, f->s); break;
    case ABR_F_BOOL: put(b, f->i ? "1" : "0"); break;
    }
}


/* One line per result, a header line first; fields as in abr_row_fields.
 * When some suite of the run has a capacity, two more columns follow: the
 * row's suite's capacity and its decision (model.h: abr_cap_key), empty for a
 * suite without one. */
ab_status abr_render_csv(ab_buf *b, abs_store *s, const abr_model *m,
                         const abr_report_opts *opt, ab_error *err) {
    abr_field f[ABR_NFIELDS];
    bool cap = abr_cap_any(m);
    abr_field_names(f);
    for (size_t k = 0; k < ABR_NFIELDS; k++) ab_buf_printf(b, "%s%s", k ? "," : "", f[k].name);
    if (cap) put(b, ",capacity,capacity_verdict");
    put(b, "\n");
    for (size_t i = 0; i < m->rows.n; i++) {
        abr_row_fields(m, i, f);
        for (size_t k = 0; k < ABR_NFIELDS; k++) {
            if (k) put(b, ",");
            csv_value(b, &f[k]);
        }
        if (cap) {
            const abr_rsuite *su = &m->su[m->rr[i].suite];
            abr_field c[] = {fi("capacity", su->capacity),
                             fs("capacity_verdict", abr_cap_key(su->cap))};
            for (size_t k = 0; k < 2; k++) {
                put(b, ",");
                csv_value(b, &c[k]);
            }
        }
        put(b, "\n");
    }
    return AB_OK;
}
