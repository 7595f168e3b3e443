/*
 * bounds.c — the max-load lower bound and the three memory figures (see
 * bounds.h).
 *
 * Max-load is an event sweep: the live bytes can only rise at a start, so the
 * sweep visits each distinct start time t in order, drops the tensors that
 * ended before t, adds the ones starting at t (starts before ends at equal
 * time: ranges are inclusive) and keeps the first t reaching the maximum.
 */
#include "oracle/bounds.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"

/* An event of the sweep: an instruction and the bytes that start or end there. */
typedef struct event {
    int64_t time;
    int64_t size;
} event;

/* Total order on events: by time, then size (equal events are interchangeable). */
static int event_cmp(const void *a, const void *b) {
    const event *x = a, *y = b;
    if (x->time != y->time) return x->time < y->time ? -1 : 1;
    return (x->size > y->size) - (x->size < y->size);
}

/* AB_OK when every tensor of p is well formed for the figures, else AB_EINPUT. */
static ab_status tensors_sane(const ab_problem *p, ab_error *err) {
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *t = &p->t[i];
        if (t->size < 1 || t->align < 1 || t->start > t->end)
            return ab_fail(err, AB_EINPUT,
                           "tensor '%s' is malformed (size %" PRId64 ", align %" PRId64
                           ", live [%" PRId64 ", %" PRId64 "])",
                           t->name ? t->name : "", t->size, t->align, t->start, t->end);
    }
    return AB_OK;
}

/* The logical bytes of t: ceil(logical_bits / 8), or its size when
 * logical_bits is not set (<= 0). */
static int64_t logical_of(const ab_tensor *t) {
    if (t->logical_bits <= 0) return t->size;
    return t->logical_bits / 8 + (t->logical_bits % 8 != 0);
}

/* Fills the logical, physical and I/O figures and max_single. */
static ab_status figures(const ab_problem *p, abo_bounds *b, ab_error *err) {
    int64_t io = 0;
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *t = &p->t[i];
        int64_t phys;
        if (ab_add_ovf(b->logical_bytes, logical_of(t), &b->logical_bytes))
            return ab_fail(err, AB_EINPUT, "the logical bytes of the tensors overflow 64 bits");
        if (ab_align_up_ovf(t->size, t->align, &phys) ||
            ab_add_ovf(b->physical_bytes, phys, &b->physical_bytes))
            return ab_fail(err, AB_EINPUT, "the physical bytes of the tensors overflow 64 bits");
        if (!ab_in_arena(p, i)) {
            if (ab_add_ovf(io, t->size, &io))
                return ab_fail(err, AB_EINPUT, "the I/O bytes outside the arena overflow 64 bits");
        } else if (t->size > b->max_single) {
            b->max_single = t->size;
        }
    }
    b->io_outside = ab_problem_io_outside(p);
    return AB_OK;
}

/* The max-load sweep over the m arena tensors, events sorted in starts/ends. */
static ab_status sweep(const event *starts, const event *ends, size_t m, abo_bounds *b,
                       ab_error *err) {
    int64_t load = 0;
    size_t live = 0, j = 0, k = 0;
    while (k < m) {
        int64_t t = starts[k].time;
        for (; j < m && ends[j].time < t; j++) {
            load -= ends[j].size;
            live--;
        }
        for (; k < m && starts[k].time == t; k++) {
            if (ab_add_ovf(load, starts[k].size, &load))
                return ab_fail(err, AB_EINPUT,
                               "the bytes live at instruction %" PRId64 " overflow 64 bits", t);
            live++;
        }
        if (load > b->max_load) {
            b->max_load = load;
            b->max_load_instr = t;
            b->max_load_count = live;
        }
    }
    return AB_OK;
}

/* Fills max_load, max_load_instr and max_load_count. */
static ab_status max_load(const ab_problem *p, abo_bounds *b, ab_error *err) {
    size_t m = 0;
    for (size_t i = 0; i < p->n; i++) m += ab_in_arena(p, i);
    if (m == 0) return AB_OK;
    event *starts = ab_alloc_array(m, sizeof *starts);
    event *ends = ab_alloc_array(m, sizeof *ends);
    ab_status st = AB_OK;
    if (starts == NULL || ends == NULL) {
        st = ab_fail(err, AB_ENOMEM, "out of memory computing the bounds of %zu tensors", p->n);
    } else {
        size_t j = 0;
        for (size_t i = 0; i < p->n; i++) {
            if (!ab_in_arena(p, i)) continue;
            starts[j] = (event){p->t[i].start, p->t[i].size};
            ends[j] = (event){p->t[i].end, p->t[i].size};
            j++;
        }
        qsort(starts, m, sizeof *starts, event_cmp);
        qsort(ends, m, sizeof *ends, event_cmp);
        st = sweep(starts, ends, m, b, err);
    }
    ab_free(starts);
    ab_free(ends);
    return st;
}

ab_status abo_bounds_compute(const ab_problem *p, abo_bounds *b, ab_error *err) {
    memset(b, 0, sizeof *b);
    ab_status st = tensors_sane(p, err);
    if (st == AB_OK) st = figures(p, b, err);
    if (st == AB_OK) st = max_load(p, b, err);
    if (st != AB_OK) memset(b, 0, sizeof *b);
    return st;
}

/* Size decreasing, then index: a total order on the live tensors. */
static int live_cmp(const void *a, const void *b, const void *ctx) {
    const ab_problem *p = ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    if (p->t[x].size != p->t[y].size) return p->t[x].size > p->t[y].size ? -1 : 1;
    return (x > y) - (x < y);
}

ab_status abo_live_at(const ab_problem *p, int64_t instr, size_t **idx, size_t *n,
                      ab_error *err) {
    *idx = NULL;
    *n = 0;
    size_t m = 0;
    for (size_t i = 0; i < p->n; i++)
        m += ab_in_arena(p, i) && p->t[i].start <= instr && instr <= p->t[i].end;
    if (m == 0) return AB_OK;
    size_t *v = ab_alloc_array(m, sizeof *v);
    if (v == NULL) return ab_fail(err, AB_ENOMEM, "out of memory listing %zu live tensors", m);
    for (size_t i = 0; i < p->n; i++)
        if (ab_in_arena(p, i) && p->t[i].start <= instr && instr <= p->t[i].end) v[(*n)++] = i;
    ab_sort(v, m, sizeof *v, live_cmp, p);
    *idx = v;
    return AB_OK;
}
