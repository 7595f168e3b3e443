/*
 * ilp.c — the GLPK integer program for the smallest arena (see ilp.h for the
 * model). The file runs in this order:
 *
 *   1. prep: the problem in units, its components, fixed-offset clashes, the
 *      best heuristic plan per component and the lower bound per component;
 *   2. model: columns, rows and symmetry fixes for a list of tensors (one
 *      component, or all of them for an LP file), in our own arrays;
 *   3. GLPK: every GLPK call runs inside glpk_call, which turns a GLPK error
 *      into a false return (longjmp out of the error hook, then
 *      glp_free_env); the model is loaded, scaled, its LP relaxation solved
 *      from an advanced basis, then the branch and bound runs with a callback
 *      that offers the incumbent and LP-guided plans, picks the branching
 *      column and records the best bound;
 *   4. the driver: components smallest first, each with a share of the time,
 *      the plan assembled, scaled back to bytes and checked by abo_check.
 *
 * Not thread-safe: GLPK's environment is per process (thread).
 */
#include "oracle/ilp.h"

#include "core/sort.h"

#include <float.h>
#include <glpk.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


#define UNITS_MAX ((int64_t)1 << 40)   /* largest arena in units GLPK's doubles hold well */
#define MAX_PAIRS ((size_t)2000000)    /* beyond: the model is too large to build */
#define MAX_NONZEROS ((size_t)40000000)
#define NONE_IDX SIZE_MAX

/* ---- words -------------------------------------------------------------------- */

static const char *const status_words[] = {
#define ABO_ILP_WORD_(id, word, text) word,
    ABO_ILP_STATUSES(ABO_ILP_WORD_)
#undef ABO_ILP_WORD_
};
static const char *const status_texts[] = {
#define ABO_ILP_TEXT_(id, word, text) text,
    ABO_ILP_STATUSES(ABO_ILP_TEXT_)
#undef ABO_ILP_TEXT_
};

const char *abo_ilp_status_word(abo_ilp_status s) {
    return (unsigned)s < ABO_ILP_NSTATUSES ? status_words[s] : "unknown";
}

const char *abo_ilp_status_text(abo_ilp_status s) {
    return (unsigned)s < ABO_ILP_NSTATUSES ? status_texts[s] : "unknown status";
}

void abo_ilp_options_init(abo_ilp_options *o) {
    *o = (abo_ilp_options){.time_limit = 60, .gap = 0, .proximity = true, .cuts = false,
                           .decompose = true, .symmetry = true, .heuristics = true};
}

void abo_ilp_result_free(abo_ilp_result *r) {
    if (r == NULL) return;
    ab_free(r->offsets);
    r->offsets = NULL;
    r->n = 0;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Milliseconds left before deadline, for GLPK's tm_lim (at least 1). */
static int ms_left(double deadline) {
    double left = (deadline - now_seconds()) * 1000.0;
    if (left < 1) return 1;
    if (left > (double)(INT32_MAX - 1)) return INT32_MAX - 1;
    return (int)left;
}

/* The integer bound a GLPK node bound proves: GLPK rounds a bound whose
 * fractional part is at least 0.001 up (P is integral), and so do we. */
static int64_t int_bound(double b) { return (int64_t)ceil(b - 1e-3); }

/* ---- sorting (ab_sort: the comparators take their context) ------------------ */

static int cmp_size_t(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

#define CMP_ASC(x, y) \
    do { if ((x) != (y)) return (x) < (y) ? -1 : 1; } while (0)
#define CMP_DESC(x, y) \
    do { if ((x) != (y)) return (x) > (y) ? -1 : 1; } while (0)

/* Tensor indices by start, ties by index. */
static int by_start(const void *a, const void *b, const void *ctx) {
    const ab_problem *q = ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    CMP_ASC(q->t[x].start, q->t[y].start);
    CMP_ASC(x, y);
    return 0;
}

/* Tensor indices by end, ties by index. */
static int by_end(const void *a, const void *b, const void *ctx) {
    const ab_problem *q = ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    CMP_ASC(q->t[x].end, q->t[y].end);
    CMP_ASC(x, y);
    return 0;
}

static bool identical(const ab_tensor *s, const ab_tensor *t) {
    return s->size == t->size && s->start == t->start && s->end == t->end &&
           s->align == t->align && s->offset == AB_NONE && t->offset == AB_NONE;
}

/* ==== 1. prep ==================================================================== */

typedef struct prep {
    ab_problem q;         /* the problem in units */
    int64_t unit;         /* bytes per unit */
    size_t n;
    size_t *by_start;     /* tensors sorted by (start, index) */
    size_t ncomp;
    size_t *comp_first;   /* component c is by_start[comp_first[c] .. comp_first[c + 1]) */
    size_t *comp_of;      /* per tensor: its component */
    int64_t *heur;        /* per tensor: the best heuristic plan of its component, units */
    int64_t *comp_heur;   /* per component: the arena of heur over it */
    int64_t *comp_lb;     /* per component: its max-load and its fixed tensors' ends */
    int64_t lb;           /* the largest comp_lb */
    int64_t heur_arena;   /* the largest comp_heur */
    int64_t cap;          /* the capacity in units, or AB_NONE */
    bool infeasible;      /* known before any model */
    int64_t infeasible_bound; /* then: a bound on the arena */
    char why[200];        /* then: why */
} prep;

static void prep_free(prep *pp) {
    ab_problem_free(&pp->q);
    ab_free(pp->by_start);
    ab_free(pp->comp_first);
    ab_free(pp->comp_of);
    ab_free(pp->heur);
    ab_free(pp->comp_heur);
    ab_free(pp->comp_lb);
    memset(pp, 0, sizeof *pp);
}

/* AB_OK when every tensor is well formed for the model. */
static ab_status check_tensors(const ab_problem *p, ab_error *err) {
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *t = &p->t[i];
        if (t->size < 1 || t->align < 1 || t->start > t->end)
            return ab_fail(err, AB_EINPUT,
                           "tensor '%s' is malformed (size %" PRId64 ", align %" PRId64
                           ", live [%" PRId64 ", %" PRId64 "])",
                           t->name, t->size, t->align, t->start, t->end);
        if (t->offset != AB_NONE && (t->offset < 0 || t->offset % t->align != 0))
            return ab_fail(err, AB_EINPUT,
                           "tensor '%s': fixed offset %" PRId64 " is not a multiple of its "
                           "align %" PRId64,
                           t->name, t->offset, t->align);
    }
    return AB_OK;
}

/* Splits by_start into connected components of the conflict graph: a new one
 * starts where a tensor starts after every earlier one has ended. */
static ab_status find_components(prep *pp, ab_error *err) {
    const ab_problem *q = &pp->q;
    pp->comp_first = ab_alloc_array(pp->n + 1, sizeof *pp->comp_first);
    pp->comp_of = ab_alloc_array(pp->n ? pp->n : 1, sizeof *pp->comp_of);
    if (pp->comp_first == NULL || pp->comp_of == NULL)
        return ab_fail(err, AB_ENOMEM, "out of memory splitting components");
    int64_t reach = 0;
    pp->ncomp = 0;
    for (size_t r = 0; r < pp->n; r++) {
        const ab_tensor *t = &q->t[pp->by_start[r]];
        if (r == 0 || t->start > reach) {
            pp->comp_first[pp->ncomp++] = r;
            reach = t->end;
        }
        if (t->end > reach) reach = t->end;
        pp->comp_of[pp->by_start[r]] = pp->ncomp - 1;
    }
    pp->comp_first[pp->ncomp] = pp->n;
    return AB_OK;
}

/* Marks pp infeasible when two conflicting fixed tensors share a byte. */
static ab_status check_fixed(prep *pp, ab_error *err) {
    size_t i, j;
    ab_status st = ab_problem_fixed_overlap(&pp->q, &i, &j, err);
    if (st != AB_OK || i == AB_NO_TENSOR) return st;
    pp->infeasible = true;
    snprintf(pp->why, sizeof pp->why, "fixed tensors '%.60s' and '%.60s' overlap",
             pp->q.t[i].name, pp->q.t[j].name);
    return AB_OK;
}

/* Max-load of the tensors list[0 .. m) (sorted by start): an event sweep. */
static ab_status list_max_load(const prep *pp, const size_t *list, size_t m, int64_t *out,
                               ab_error *err) {
    size_t *ends = ab_alloc_array(m ? m : 1, sizeof *ends);
    if (ends == NULL) return ab_fail(err, AB_ENOMEM, "out of memory computing a bound");
    memcpy(ends, list, m * sizeof *ends);
    ab_sort(ends, m, sizeof *ends, by_end, &pp->q);
    int64_t load = 0, best = 0;
    size_t k = 0;
    for (size_t r = 0; r < m; r++) {
        const ab_tensor *t = &pp->q.t[list[r]];
        while (k < m && pp->q.t[ends[k]].end < t->start) load -= pp->q.t[ends[k++]].size;
        load += t->size;
        if (load > best) best = load;
    }
    ab_free(ends);
    *out = best;
    return AB_OK;
}

/* Lower bounds per component: max-load and fixed ends. */
static ab_status component_bounds(prep *pp, ab_error *err) {
    pp->comp_lb = ab_alloc_array(pp->ncomp ? pp->ncomp : 1, sizeof *pp->comp_lb);
    if (pp->comp_lb == NULL) return ab_fail(err, AB_ENOMEM, "out of memory computing bounds");
    pp->lb = 0;
    for (size_t c = 0; c < pp->ncomp; c++) {
        const size_t *list = pp->by_start + pp->comp_first[c];
        size_t m = pp->comp_first[c + 1] - pp->comp_first[c];
        int64_t lb = 0;
        ab_status st = list_max_load(pp, list, m, &lb, err);
        if (st != AB_OK) return st;
        for (size_t r = 0; r < m; r++) {
            const ab_tensor *t = &pp->q.t[list[r]];
            if (t->offset != AB_NONE && t->offset + t->size > lb) lb = t->offset + t->size;
        }
        pp->comp_lb[c] = lb;
        if (lb > pp->lb) pp->lb = lb;
    }
    return AB_OK;
}

/* Takes the caller's incumbent k (bytes, over the tensors of p) into off
 * (units of pp->q); false when an offset is off the unit grid or the plan is
 * not valid (overlap, misplaced fixed tensor...), an arena over the capacity
 * excepted. *returned says whether off holds the plan (valid or not). */
static bool take_incumbent(const prep *pp, const abo_ilp_options *o, size_t k, int64_t *off,
                           bool *returned) {
    const int64_t *given = o->incumbents + k * pp->n;
    *returned = false;
    for (size_t i = 0; i < pp->n; i++) {
        if (given[i] < 0 || given[i] % pp->unit != 0) return false;
        off[i] = given[i] / pp->unit;
    }
    *returned = true;
    ab_plan plan;
    abo_report rep;
    if (ab_plan_from_offsets(&plan, off, pp->n, NULL) != AB_OK) return false;
    ab_status s = abo_check(&pp->q, &plan, &rep, NULL);
    ab_plan_free(&plan);
    return s == AB_OK && (rep.verdict == ABO_OK || rep.verdict == ABO_OVER_CAPACITY);
}

/* The arena of off over component c. */
static int64_t comp_arena(const prep *pp, size_t c, const int64_t *off) {
    int64_t a = 0;
    for (size_t r = pp->comp_first[c]; r < pp->comp_first[c + 1]; r++) {
        size_t i = pp->by_start[r];
        if (off[i] + pp->q.t[i].size > a) a = off[i] + pp->q.t[i].size;
    }
    return a;
}

/* The caller's incumbents (o->incumbents: heuristic plans, see ilp.h); per
 * component the best valid plan goes into pp->heur. When none is valid (fixed
 * tensors clash) heur holds the first plan on the unit grid, for the record. */
static ab_status heuristics(prep *pp, const abo_ilp_options *o, ab_error *err) {
    size_t n1 = pp->n ? pp->n : 1;
    int64_t *off = ab_alloc_array(n1, sizeof *off);
    pp->heur = ab_alloc_array(n1, sizeof *pp->heur);
    pp->comp_heur = ab_alloc_array(pp->ncomp ? pp->ncomp : 1, sizeof *pp->comp_heur);
    if (off == NULL || pp->heur == NULL || pp->comp_heur == NULL) {
        ab_free(off);
        return ab_fail(err, AB_ENOMEM, "out of memory running the heuristics");
    }
    for (size_t c = 0; c < pp->ncomp; c++) pp->comp_heur[c] = -1;
    bool any_valid = false, any_returned = false;
    for (size_t k = 0; k < o->nincumbents; k++) {
        {
            bool returned;
            bool valid = take_incumbent(pp, o, k, off, &returned);
            if (returned && !any_returned) memcpy(pp->heur, off, pp->n * sizeof *off);
            any_returned |= returned;
            if (!valid) continue;
            any_valid = true;
            for (size_t c = 0; c < pp->ncomp; c++) {
                int64_t a = comp_arena(pp, c, off);
                if (pp->comp_heur[c] >= 0 && a >= pp->comp_heur[c]) continue;
                pp->comp_heur[c] = a;
                for (size_t r = pp->comp_first[c]; r < pp->comp_first[c + 1]; r++)
                    pp->heur[pp->by_start[r]] = off[pp->by_start[r]];
            }
        }
    }
    ab_free(off);
    if (!any_returned)
        return ab_fail(err, AB_EINTERNAL, "no incumbent plan on the unit grid was given");
    if (!any_valid && !pp->infeasible)
        return ab_fail(err, AB_EINTERNAL, "no heuristic plan was valid");
    pp->heur_arena = 0;
    for (size_t c = 0; c < pp->ncomp && any_valid; c++)
        if (pp->comp_heur[c] > pp->heur_arena) pp->heur_arena = pp->comp_heur[c];
    return AB_OK;
}

/* With the heuristics off: per component, every free tensor stacked above the
 * fixed ones, in start order (valid: free tensors share no byte with any other). */
static ab_status stacked(prep *pp, ab_error *err) {
    pp->heur = ab_alloc_array(pp->n ? pp->n : 1, sizeof *pp->heur);
    pp->comp_heur = ab_alloc_array(pp->ncomp ? pp->ncomp : 1, sizeof *pp->comp_heur);
    if (pp->heur == NULL || pp->comp_heur == NULL)
        return ab_fail(err, AB_ENOMEM, "out of memory stacking tensors");
    pp->heur_arena = 0;
    for (size_t c = 0; c < pp->ncomp; c++) {
        int64_t top = 0;
        for (size_t r = pp->comp_first[c]; r < pp->comp_first[c + 1]; r++) {
            const ab_tensor *t = &pp->q.t[pp->by_start[r]];
            if (t->offset != AB_NONE) {
                pp->heur[pp->by_start[r]] = t->offset;
                int64_t end;
                if (ab_add_ovf(t->offset, t->size, &end))
                    return ab_fail(err, AB_EINPUT, "a fixed offset + size overflows 64 bits");
                if (end > top) top = end;
            }
        }
        for (size_t r = pp->comp_first[c]; r < pp->comp_first[c + 1]; r++) {
            const ab_tensor *t = &pp->q.t[pp->by_start[r]];
            if (t->offset != AB_NONE) continue;
            int64_t x;
            if (ab_align_up_ovf(top, t->align, &x) || ab_add_ovf(x, t->size, &top))
                return ab_fail(err, AB_EINPUT, "the stacked arena overflows 64 bits");
            pp->heur[pp->by_start[r]] = x;
        }
        pp->comp_heur[c] = top;
        if (top > pp->heur_arena) pp->heur_arena = top;
    }
    return AB_OK;
}

/* Everything the model needs that does not depend on the tensor list. */
static ab_status prep_build(const ab_problem *p, const abo_ilp_options *o, prep *pp,
                            ab_error *err) {
    bool heur = o->heuristics && o->nincumbents > 0;
    memset(pp, 0, sizeof *pp);
    ab_problem_init(&pp->q);
    ab_status st = check_tensors(p, err);
    if (st != AB_OK) return st;
    pp->unit = ab_problem_unit(p);
    ab_problem_free(&pp->q);
    st = ab_problem_coarsen(p, pp->unit, &pp->q, err);
    if (st != AB_OK) return st;
    pp->n = pp->q.n;
    pp->cap = pp->q.capacity;
    pp->by_start = ab_alloc_array(pp->n ? pp->n : 1, sizeof *pp->by_start);
    if (pp->by_start == NULL) return ab_fail(err, AB_ENOMEM, "out of memory sorting tensors");
    for (size_t i = 0; i < pp->n; i++) pp->by_start[i] = i;
    ab_sort(pp->by_start, pp->n, sizeof *pp->by_start, by_start, &pp->q);
    if ((st = find_components(pp, err)) != AB_OK) return st;
    if ((st = check_fixed(pp, err)) != AB_OK) return st;
    if ((st = heur ? heuristics(pp, o, err) : stacked(pp, err)) != AB_OK) return st;
    if ((st = component_bounds(pp, err)) != AB_OK) return st;
    if (pp->infeasible) {
        pp->infeasible_bound = pp->lb;
        return AB_OK;
    }
    if (pp->heur_arena > UNITS_MAX)
        return ab_fail(err, AB_EINPUT,
                       "the arena (%" PRId64 " units of %" PRId64 " bytes) is too large for the "
                       "ILP (at most 2^40 units)",
                       pp->heur_arena, pp->unit);
    if (pp->cap != AB_NONE && pp->lb > pp->cap) {
        pp->infeasible = true;
        pp->infeasible_bound = pp->lb;
        snprintf(pp->why, sizeof pp->why,
                 "the lower bound %" PRId64 " exceeds the capacity %" PRId64 " (bytes)",
                 pp->lb * pp->unit, pp->cap * pp->unit);
    }
    return AB_OK;
}

/* ==== 2. the model ================================================================ */

enum { ZFREE = -1, ZCONST0 = 2, ZCONST1 = 3 }; /* 0 / 1: a column fixed there */
enum { ROW_ORD = 'o', ROW_TOP = 't', ROW_LOW = 'l', ROW_HIGH = 'h' };

typedef struct model {
    const prep *pp;
    size_t m;             /* tensors in the model */
    size_t *idx;          /* local -> tensor index, sorted by (start, index) */
    int64_t *coef;        /* x_i = coef_i * y_i (1 for a fixed tensor) */
    int64_t *xlo, *xhi;   /* bounds on x_i, units */
    size_t *pbase;        /* pairs of local i: (i, j) for j in (i, plast[i]], at pbase[i] + j - i - 1 */
    size_t *plast;
    size_t npairs;
    signed char *zval;    /* per pair: ZFREE, 0 / 1 (fixed column), ZCONST0 / ZCONST1 (no column) */
    int *zcol;            /* per pair: its column, 0 when none */
    int64_t lb, ub;       /* P's bounds */
    int colP, ncols;
    /* rows as triplets, 1-based as GLPK wants them */
    int nrows;
    size_t nnz, cap_nnz, cap_rows;
    int *ia, *ja;
    double *ar;
    char *rkind;          /* per row: ROW_* */
    size_t *ra, *rb;      /* per row: what its name shows */
    int *rtype;           /* GLP_LO or GLP_UP */
    double *rbnd;
    /* cliques */
    size_t ncl;
    size_t *cl_first, *cl_mem;
    size_t cap_cl, cap_mem;
    /* symmetry */
    size_t *cls_mem, *cls_first, ncls; /* classes of identical tensors (size >= 2), local, ascending */
    size_t *cls_size;     /* per local: the size of its class (1 when alone or fixed) */
    size_t *mir_i, *mir_j; /* per local component: the ordered pair, or NONE_IDX */
    size_t *lcomp_first, nlcomp;
    /* branching order: z columns, most important first */
    int *prio;
    size_t nprio;
    /* the heuristic incumbent's column values (1-based), when has_inc */
    double *inc;
    bool has_inc;
    struct plan_scratch *ps; /* scratch for plans as column values */
    glp_prob *lp;         /* while GLPK holds the model */
} model;

static void scratch_free(struct plan_scratch *ps);

static void model_free(model *md) {
    ab_free(md->idx);
    ab_free(md->coef);
    ab_free(md->xlo);
    ab_free(md->xhi);
    ab_free(md->pbase);
    ab_free(md->plast);
    ab_free(md->zval);
    ab_free(md->zcol);
    ab_free(md->ia);
    ab_free(md->ja);
    ab_free(md->ar);
    ab_free(md->rkind);
    ab_free(md->ra);
    ab_free(md->rb);
    ab_free(md->rtype);
    ab_free(md->rbnd);
    ab_free(md->cl_first);
    ab_free(md->cl_mem);
    ab_free(md->cls_mem);
    ab_free(md->cls_first);
    ab_free(md->cls_size);
    ab_free(md->mir_i);
    ab_free(md->mir_j);
    ab_free(md->lcomp_first);
    ab_free(md->prio);
    ab_free(md->inc);
    if (md->ps != NULL) scratch_free(md->ps);
    ab_free(md->ps);
    memset(md, 0, sizeof *md);
}

static const ab_tensor *lt(const model *md, size_t i) { return &md->pp->q.t[md->idx[i]]; }
static bool lfixed(const model *md, size_t i) { return lt(md, i)->offset != AB_NONE; }

/* The pair (i, j) of local tensors i < j, which must conflict. */
static size_t pair_of(const model *md, size_t i, size_t j) { return md->pbase[i] + (j - i - 1); }

/* Local arrays: indices, coefficients, bounds on x. */
static ab_status model_columns(model *md, const size_t *list, size_t m, ab_error *err) {
    md->m = m;
    size_t m1 = m ? m : 1;
    md->idx = ab_alloc_array(m1, sizeof *md->idx);
    md->coef = ab_alloc_array(m1, sizeof *md->coef);
    md->xlo = ab_alloc_array(m1, sizeof *md->xlo);
    md->xhi = ab_alloc_array(m1, sizeof *md->xhi);
    md->pbase = ab_alloc_array(m1, sizeof *md->pbase);
    md->plast = ab_alloc_array(m1, sizeof *md->plast);
    if (!md->idx || !md->coef || !md->xlo || !md->xhi || !md->pbase || !md->plast)
        return ab_fail(err, AB_ENOMEM, "out of memory building the ILP model");
    memcpy(md->idx, list, m * sizeof *list);
    for (size_t i = 0; i < m; i++) {
        const ab_tensor *t = lt(md, i);
        if (t->offset != AB_NONE) {
            md->coef[i] = 1;
            md->xlo[i] = md->xhi[i] = t->offset;
        } else {
            md->coef[i] = t->align;
            md->xlo[i] = 0;
            md->xhi[i] = md->ub >= t->size ? (md->ub - t->size) / t->align * t->align : 0;
        }
    }
    return AB_OK;
}

/* Conflicting pairs: for local i (sorted by start), every j > i that starts
 * no later than i ends. */
static ab_status model_pairs(model *md, ab_error *err) {
    size_t m = md->m, total = 0;
    for (size_t i = 0; i < m; i++) {
        int64_t end = lt(md, i)->end;
        size_t lo = i, hi = m; /* the last j with start <= end: binary search in (i, m) */
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (lt(md, mid)->start <= end) lo = mid;
            else hi = mid;
        }
        md->plast[i] = lo;
        md->pbase[i] = total;
        total += lo - i;
        if (total > MAX_PAIRS)
            return ab_fail(err, AB_ELIMIT, "the model is too large (over %zu conflicting pairs)",
                           MAX_PAIRS);
    }
    md->npairs = total;
    md->zval = ab_alloc_array(total ? total : 1, sizeof *md->zval);
    md->zcol = ab_alloc_array(total ? total : 1, sizeof *md->zcol);
    if (md->zval == NULL || md->zcol == NULL)
        return ab_fail(err, AB_ENOMEM, "out of memory building the ILP model");
    for (size_t i = 0; i < m; i++)
        for (size_t j = i + 1; j <= md->plast[i]; j++) {
            size_t k = pair_of(md, i, j);
            if (lfixed(md, i) && lfixed(md, j))
                md->zval[k] = lt(md, i)->offset < lt(md, j)->offset ? ZCONST1 : ZCONST0;
            else
                md->zval[k] = ZFREE;
        }
    return AB_OK;
}

/* Components of the list: contiguous in local order. */
static ab_status model_local_components(model *md, ab_error *err) {
    md->lcomp_first = ab_alloc_array(md->m + 1, sizeof *md->lcomp_first);
    if (md->lcomp_first == NULL) return ab_fail(err, AB_ENOMEM, "out of memory");
    int64_t reach = 0;
    md->nlcomp = 0;
    for (size_t i = 0; i < md->m; i++) {
        if (i == 0 || lt(md, i)->start > reach) {
            md->lcomp_first[md->nlcomp++] = i;
            reach = lt(md, i)->end;
        }
        if (lt(md, i)->end > reach) reach = lt(md, i)->end;
    }
    md->lcomp_first[md->nlcomp] = md->m;
    return AB_OK;
}

/* Local indices by what makes two tensors interchangeable, then by end;
 * ties by local index. */
static int by_local_identity(const void *a, const void *b, const void *ctx) {
    const model *md = ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    const ab_tensor *s = lt(md, x), *t = lt(md, y);
    CMP_ASC(s->offset != AB_NONE, t->offset != AB_NONE);
    CMP_ASC(s->size, t->size);
    CMP_ASC(s->start, t->start);
    CMP_ASC(s->end, t->end);
    CMP_ASC(s->align, t->align);
    CMP_ASC(x, y);
    return 0;
}

static int by_local_end(const void *a, const void *b, const void *ctx) {
    const model *md = ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    CMP_ASC(lt(md, x)->end, lt(md, y)->end);
    CMP_ASC(x, y);
    return 0;
}

/* Classes of identical free tensors (two or more); with symmetry on, every
 * pair inside one is fixed in local order (= index order: they share their
 * start). Members are listed in ascending local order. */
static ab_status model_classes(model *md, bool fix, ab_error *err) {
    size_t m = md->m, m1 = m ? m : 1;
    size_t *ord = ab_alloc_array(m1, sizeof *ord);
    md->cls_size = ab_alloc_array(m1, sizeof *md->cls_size);
    md->cls_mem = ab_alloc_array(m1, sizeof *md->cls_mem);
    md->cls_first = ab_alloc_array(m1 + 1, sizeof *md->cls_first);
    if (!ord || !md->cls_size || !md->cls_mem || !md->cls_first) {
        ab_free(ord);
        return ab_fail(err, AB_ENOMEM, "out of memory building the ILP model");
    }
    for (size_t i = 0; i < m; i++) {
        ord[i] = i;
        md->cls_size[i] = 1;
    }
    ab_sort(ord, m, sizeof *ord, by_local_identity, md);
    size_t nmem = 0;
    md->ncls = 0;
    for (size_t r = 0; r < m && fix;) {
        size_t e = r + 1;
        while (e < m && identical(lt(md, ord[r]), lt(md, ord[e]))) e++;
        if (e - r >= 2) {
            md->cls_first[md->ncls++] = nmem;
            for (size_t k = r; k < e; k++) {
                md->cls_mem[nmem++] = ord[k];
                md->cls_size[ord[k]] = e - r;
            }
        }
        r = e;
    }
    md->cls_first[md->ncls] = nmem;
    ab_free(ord);
    for (size_t c = 0; c < md->ncls; c++)
        for (size_t a = md->cls_first[c]; a < md->cls_first[c + 1]; a++)
            for (size_t b = a + 1; b < md->cls_first[c + 1]; b++)
                md->zval[pair_of(md, md->cls_mem[a], md->cls_mem[b])] = 1;
    return AB_OK;
}

/* Per local component with no fixed tensor and every coefficient 1: the
 * conflicting pair of two tensors alone in their class with the largest
 * min(s_i, s_j) (then max) is fixed i below j. A plan and its mirror image
 * x -> A - x - s have the same arena and, with every coefficient 1, are both
 * valid; sorting identical tensors afterwards moves neither i nor j. */
static ab_status model_mirror(model *md, bool fix, ab_error *err) {
    size_t nc = md->nlcomp ? md->nlcomp : 1;
    md->mir_i = ab_alloc_array(nc, sizeof *md->mir_i);
    md->mir_j = ab_alloc_array(nc, sizeof *md->mir_j);
    if (md->mir_i == NULL || md->mir_j == NULL) return ab_fail(err, AB_ENOMEM, "out of memory");
    for (size_t c = 0; c < md->nlcomp; c++) {
        md->mir_i[c] = md->mir_j[c] = NONE_IDX;
        size_t f = md->lcomp_first[c], e = md->lcomp_first[c + 1];
        bool ok = fix;
        for (size_t i = f; i < e && ok; i++) ok = !lfixed(md, i) && md->coef[i] == 1;
        if (!ok) continue;
        int64_t bmin = 0, bmax = 0;
        for (size_t i = f; i < e; i++) {
            if (md->cls_size[i] != 1) continue;
            for (size_t j = i + 1; j <= md->plast[i]; j++) {
                if (md->cls_size[j] != 1) continue;
                int64_t si = lt(md, i)->size, sj = lt(md, j)->size;
                int64_t mn = si < sj ? si : sj, mx = si < sj ? sj : si;
                if (mn > bmin || (mn == bmin && mx > bmax)) {
                    bmin = mn;
                    bmax = mx;
                    md->mir_i[c] = i;
                    md->mir_j[c] = j;
                }
            }
        }
        if (md->mir_i[c] != NONE_IDX) md->zval[pair_of(md, md->mir_i[c], md->mir_j[c])] = 1;
    }
    return AB_OK;
}

/* Maximal cliques of the interval graph of the list: the live set just before
 * a tensor ends, when some tensor started since the last end (ranges are
 * inclusive: starts at t come before ends at t). Members ascending. */
static ab_status model_cliques(model *md, ab_error *err) {
    size_t m = md->m, m1 = m ? m : 1;
    size_t *ends = ab_alloc_array(m1, sizeof *ends), *live = ab_alloc_array(m1, sizeof *live);
    size_t *pos = ab_alloc_array(m1, sizeof *pos);
    ab_status st = AB_OK;
    if (!ends || !live || !pos) {
        st = ab_fail(err, AB_ENOMEM, "out of memory finding cliques");
        goto done;
    }
    for (size_t i = 0; i < m; i++) ends[i] = i;
    ab_sort(ends, m, sizeof *ends, by_local_end, md);
    size_t i = 0, k = 0, nlive = 0, nmem = 0;
    bool added = false;
    md->ncl = 0;
    while (k < m) {
        int64_t tend = lt(md, ends[k])->end;
        if (i < m && lt(md, i)->start <= tend) {
            pos[i] = nlive;
            live[nlive++] = i++;
            added = true;
            continue;
        }
        if (added && nlive >= 2) {
            if (nmem + nlive > MAX_NONZEROS / 4) {
                st = ab_fail(err, AB_ELIMIT, "the model is too large (cliques over %zu members)",
                             MAX_NONZEROS / 4);
                goto done;
            }
            if (!ab_grow((void **)&md->cl_first, &md->cap_cl, md->ncl + 2, sizeof *md->cl_first) ||
                !ab_grow((void **)&md->cl_mem, &md->cap_mem, nmem + nlive, sizeof *md->cl_mem)) {
                st = ab_fail(err, AB_ENOMEM, "out of memory finding cliques");
                goto done;
            }
            md->cl_first[md->ncl++] = nmem;
            memcpy(md->cl_mem + nmem, live, nlive * sizeof *live);
            qsort(md->cl_mem + nmem, nlive, sizeof *live, cmp_size_t);
            nmem += nlive;
            md->cl_first[md->ncl] = nmem;
        }
        added = false;
        size_t gone = ends[k++], at = pos[gone];
        live[at] = live[--nlive];
        pos[live[at]] = at;
    }
done:
    ab_free(ends);
    ab_free(live);
    ab_free(pos);
    return st;
}

/* ---- rows ---- */

/* Makes room for row r (1-based) in every per-row array. */
static bool grow_rows(model *md, size_t r) {
    if (r < md->cap_rows) return true;
    size_t cap = md->cap_rows < 64 ? 64 : md->cap_rows * 2;
    if (cap <= r) cap = r + 1;
    char *kind = ab_realloc_array(md->rkind, cap, sizeof *kind);
    if (kind == NULL) return false;
    md->rkind = kind;
    size_t *ra = ab_realloc_array(md->ra, cap, sizeof *ra);
    if (ra == NULL) return false;
    md->ra = ra;
    size_t *rb = ab_realloc_array(md->rb, cap, sizeof *rb);
    if (rb == NULL) return false;
    md->rb = rb;
    int *rtype = ab_realloc_array(md->rtype, cap, sizeof *rtype);
    if (rtype == NULL) return false;
    md->rtype = rtype;
    double *rbnd = ab_realloc_array(md->rbnd, cap, sizeof *rbnd);
    if (rbnd == NULL) return false;
    md->rbnd = rbnd;
    md->cap_rows = cap;
    return true;
}

/* Starts row nrows + 1: `kind a b` names it; type GLP_LO or GLP_UP, bound bnd. */
static bool row_begin(model *md, char kind, size_t a, size_t b, int type, double bnd) {
    size_t r = (size_t)md->nrows + 1;
    if (r >= (size_t)INT32_MAX || !grow_rows(md, r)) return false;
    md->nrows = (int)r;
    md->rkind[r] = kind;
    md->ra[r] = a;
    md->rb[r] = b;
    md->rtype[r] = type;
    md->rbnd[r] = bnd;
    return true;
}

/* Adds val * column col to the current row (zero is left out). */
static bool row_add(model *md, int col, double val) {
    if (val == 0) return true;
    size_t k = md->nnz + 1;
    if (k >= MAX_NONZEROS) return false;
    if (k >= md->cap_nnz) {
        size_t cap = md->cap_nnz < 256 ? 256 : md->cap_nnz * 2;
        int *ia = ab_realloc_array(md->ia, cap, sizeof *ia);
        if (ia == NULL) return false;
        md->ia = ia;
        int *ja = ab_realloc_array(md->ja, cap, sizeof *ja);
        if (ja == NULL) return false;
        md->ja = ja;
        double *ar = ab_realloc_array(md->ar, cap, sizeof *ar);
        if (ar == NULL) return false;
        md->ar = ar;
        md->cap_nnz = cap;
    }
    md->ia[k] = md->nrows;
    md->ja[k] = col;
    md->ar[k] = val;
    md->nnz = k;
    return true;
}

/* Adds the last row's bound change: rhs moves with constants. */
static void row_rhs(model *md, double delta) { md->rbnd[md->nrows] += delta; }

/* The two big-M rows of pair (i, j) with column z. */
static bool rows_pair(model *md, size_t i, size_t j, int z) {
    double si = (double)lt(md, i)->size, sj = (double)lt(md, j)->size;
    double m1 = (double)(md->xhi[i] + lt(md, i)->size - md->xlo[j]);
    double m2 = (double)(md->xhi[j] + lt(md, j)->size - md->xlo[i]);
    if (m1 < 0) m1 = 0;
    if (m2 < 0) m2 = 0;
    size_t ti = md->idx[i], tj = md->idx[j];
    /* x_i + s_i - x_j <= M1 (1 - z) */
    if (!row_begin(md, ROW_ORD, ti, tj, GLP_UP, m1 - si) || !row_add(md, (int)i + 1, (double)md->coef[i]) ||
        !row_add(md, (int)j + 1, -(double)md->coef[j]) || !row_add(md, z, m1))
        return false;
    /* x_j + s_j - x_i <= M2 z */
    return row_begin(md, ROW_ORD, tj, ti, GLP_UP, -sj) && row_add(md, (int)j + 1, (double)md->coef[j]) &&
           row_add(md, (int)i + 1, -(double)md->coef[i]) && row_add(md, z, -m2);
}

/* [a below b] for local a != b in a clique: adds s * [a below b] * sign to
 * the current row's left side (a column term or a constant moved right). */
static bool add_below(model *md, size_t a, size_t b, double s) {
    bool fwd = a < b;
    size_t k = fwd ? pair_of(md, a, b) : pair_of(md, b, a);
    /* z_k = [lower local index below the higher] */
    if (md->zcol[k] == 0) {
        double c = md->zval[k] == ZCONST1 ? 1 : 0;
        double below = fwd ? c : 1 - c;
        row_rhs(md, -s * below);
        return true;
    }
    if (fwd) return row_add(md, md->zcol[k], s);
    row_rhs(md, -s); /* s (1 - z) */
    return row_add(md, md->zcol[k], -s);
}

/* The stacking rows of clique c. */
static bool rows_clique(model *md, size_t c) {
    const size_t *mem = md->cl_mem + md->cl_first[c];
    size_t k = md->cl_first[c + 1] - md->cl_first[c];
    bool all_fixed = true;
    for (size_t a = 0; a < k; a++) all_fixed &= lfixed(md, mem[a]);
    if (all_fixed) return true;
    for (size_t a = 0; a < k; a++) {
        size_t i = mem[a], ti = md->idx[i];
        /* x_i - sum_j s_j [j below i] >= 0 */
        if (!row_begin(md, ROW_LOW, c, ti, GLP_LO, 0) || !row_add(md, (int)i + 1, (double)md->coef[i]))
            return false;
        for (size_t b = 0; b < k; b++)
            if (b != a && !add_below(md, mem[b], i, -(double)lt(md, mem[b])->size)) return false;
        /* P - x_i - sum_j s_j [i below j] >= s_i */
        if (!row_begin(md, ROW_HIGH, c, ti, GLP_LO, (double)lt(md, i)->size) ||
            !row_add(md, md->colP, 1) || !row_add(md, (int)i + 1, -(double)md->coef[i]))
            return false;
        for (size_t b = 0; b < k; b++)
            if (b != a && !add_below(md, i, mem[b], -(double)lt(md, mem[b])->size)) return false;
    }
    return true;
}

static ab_status model_rows(model *md, ab_error *err) {
    md->colP = (int)md->m + 1;
    int col = md->colP;
    for (size_t k = 0; k < md->npairs; k++) {
        if (md->zval[k] == ZCONST0 || md->zval[k] == ZCONST1) {
            md->zcol[k] = 0;
        } else {
            if (col >= INT32_MAX - 1) return ab_fail(err, AB_ELIMIT, "the model is too large");
            md->zcol[k] = ++col;
        }
    }
    md->ncols = col;
    bool ok = true;
    for (size_t i = 0; i < md->m && ok; i++)
        for (size_t j = i + 1; j <= md->plast[i] && ok; j++) {
            size_t k = pair_of(md, i, j);
            if (md->zcol[k] != 0) ok = rows_pair(md, i, j, md->zcol[k]);
        }
    for (size_t i = 0; i < md->m && ok; i++)
        ok = row_begin(md, ROW_TOP, md->idx[i], 0, GLP_LO, (double)lt(md, i)->size) &&
             row_add(md, md->colP, 1) && row_add(md, (int)i + 1, -(double)md->coef[i]);
    for (size_t c = 0; c < md->ncl && ok; c++) ok = rows_clique(md, c);
    if (!ok) {
        if (md->nnz + 1 >= MAX_NONZEROS || (size_t)md->nrows + 1 >= (size_t)INT32_MAX)
            return ab_fail(err, AB_ELIMIT, "the model is too large (over %zu nonzeros)",
                           MAX_NONZEROS);
        return ab_fail(err, AB_ENOMEM, "out of memory building the ILP model");
    }
    return AB_OK;
}

/* Free z columns in branching order: largest min(s_i, s_j), then max, then pair. */
static int64_t prio_min(const model *md, size_t i, size_t j) {
    int64_t a = lt(md, i)->size, b = lt(md, j)->size;
    return a < b ? a : b;
}
static int64_t prio_max(const model *md, size_t i, size_t j) {
    int64_t a = lt(md, i)->size, b = lt(md, j)->size;
    return a < b ? b : a;
}

typedef struct prio_item {
    int64_t mn, mx;
    int col;
} prio_item;

static int by_prio(const void *a, const void *b) {
    const prio_item *x = a, *y = b;
    CMP_DESC(x->mn, y->mn);
    CMP_DESC(x->mx, y->mx);
    CMP_ASC(x->col, y->col);
    return 0;
}

static ab_status model_priority(model *md, ab_error *err) {
    size_t nfree = 0;
    for (size_t k = 0; k < md->npairs; k++) nfree += md->zval[k] == ZFREE;
    prio_item *items = ab_alloc_array(nfree ? nfree : 1, sizeof *items);
    md->prio = ab_alloc_array(nfree ? nfree : 1, sizeof *md->prio);
    if (items == NULL || md->prio == NULL) {
        ab_free(items);
        return ab_fail(err, AB_ENOMEM, "out of memory building the ILP model");
    }
    size_t r = 0;
    for (size_t i = 0; i < md->m; i++)
        for (size_t j = i + 1; j <= md->plast[i]; j++) {
            size_t k = pair_of(md, i, j);
            if (md->zval[k] != ZFREE) continue;
            items[r++] = (prio_item){prio_min(md, i, j), prio_max(md, i, j), md->zcol[k]};
        }
    qsort(items, nfree, sizeof *items, by_prio);
    for (size_t k = 0; k < nfree; k++) md->prio[k] = items[k].col;
    md->nprio = nfree;
    ab_free(items);
    return AB_OK;
}

/* ---- the incumbent ---- */

/* Scratch for turning a plan into column values (allocated with the model,
 * so the callback allocates nothing). */
typedef struct plan_scratch {
    int64_t *x;    /* per local tensor: an offset, units */
    int64_t *v;    /* m values (class sorting) */
    double *vals;  /* ncols + 1 column values */
    double *act;   /* nrows + 1 row activities */
    size_t *ord;   /* m: a placement order */
    double *key;   /* m: what the order sorts by */
    struct busy { int64_t lo, hi; } *busy; /* m: busy ranges while placing */
} plan_scratch;

static void scratch_free(struct plan_scratch *ps) {
    ab_free(ps->x);
    ab_free(ps->v);
    ab_free(ps->vals);
    ab_free(ps->act);
    ab_free(ps->ord);
    ab_free(ps->key);
    ab_free(ps->busy);
    memset(ps, 0, sizeof *ps);
}

static bool scratch_alloc(plan_scratch *ps, const model *md) {
    size_t m1 = md->m ? md->m : 1;
    ps->x = ab_alloc_array(m1, sizeof *ps->x);
    ps->v = ab_alloc_array(m1, sizeof *ps->v);
    ps->vals = ab_calloc((size_t)md->ncols + 1, sizeof *ps->vals);
    ps->act = ab_calloc((size_t)md->nrows + 1, sizeof *ps->act);
    ps->ord = ab_alloc_array(m1, sizeof *ps->ord);
    ps->key = ab_alloc_array(m1, sizeof *ps->key);
    ps->busy = ab_alloc_array(m1, sizeof *ps->busy);
    return ps->x && ps->v && ps->vals && ps->act && ps->ord && ps->key && ps->busy;
}

/* Moves a valid plan x (local, units) onto the symmetry fixes: mirror a
 * component whose ordered pair is upside down, then sort each class of
 * identical tensors. The plan stays valid with the same arena. */
static void onto_fixes(const model *md, int64_t *x, int64_t *v) {
    for (size_t c = 0; c < md->nlcomp; c++) {
        size_t i = md->mir_i[c], j = md->mir_j[c];
        if (i == NONE_IDX || x[i] < x[j]) continue;
        int64_t a = 0;
        for (size_t k = md->lcomp_first[c]; k < md->lcomp_first[c + 1]; k++)
            if (x[k] + lt(md, k)->size > a) a = x[k] + lt(md, k)->size;
        for (size_t k = md->lcomp_first[c]; k < md->lcomp_first[c + 1]; k++)
            x[k] = a - x[k] - lt(md, k)->size;
    }
    for (size_t c = 0; c < md->ncls; c++) {
        size_t f = md->cls_first[c], e = md->cls_first[c + 1];
        for (size_t k = f; k < e; k++) v[k - f] = x[md->cls_mem[k]];
        qsort(v, e - f, sizeof *v, ab_cmp_i64);
        for (size_t k = f; k < e; k++) x[md->cls_mem[k]] = v[k - f];
    }
}

/* Column bounds as GLPK gets them (in y for offsets). */
static void col_bounds(const model *md, int col, double *lo, double *hi) {
    if (col <= (int)md->m) {
        size_t i = (size_t)col - 1;
        *lo = (double)(md->xlo[i] / md->coef[i]);
        *hi = (double)(md->xhi[i] / md->coef[i]);
    } else if (col == md->colP) {
        *lo = (double)md->lb;
        *hi = (double)md->ub;
    } else {
        *lo = 0;
        *hi = 1;
    }
}

/* The column values of plan x (local, units, on the fixes) in vals[1 ..
 * ncols], checked against every bound, fixed column and row (GLPK does not
 * check a heuristic solution: a wrong one would prune the optimum away).
 * Returns NULL when it passes, else what fails (a static string). */
static const char *plan_values(const model *md, const int64_t *x, double *vals, double *act) {
    int64_t arena = 0;
    for (size_t i = 0; i < md->m; i++) {
        if (x[i] % md->coef[i] != 0) return "an offset is not aligned";
        vals[i + 1] = (double)(x[i] / md->coef[i]);
        if (x[i] + lt(md, i)->size > arena) arena = x[i] + lt(md, i)->size;
    }
    vals[md->colP] = (double)(arena > md->lb ? arena : md->lb);
    for (size_t i = 0; i < md->m; i++)
        for (size_t j = i + 1; j <= md->plast[i]; j++) {
            size_t k = pair_of(md, i, j);
            if (md->zcol[k] == 0) continue;
            vals[md->zcol[k]] = x[i] < x[j] ? 1 : 0;
            if (md->zval[k] != ZFREE && vals[md->zcol[k]] != md->zval[k])
                return "it breaks a symmetry fix";
        }
    for (int c = 1; c <= md->ncols; c++) {
        double lo, hi;
        col_bounds(md, c, &lo, &hi);
        if (vals[c] < lo || vals[c] > hi) return "a column is out of its bounds";
    }
    for (int r = 0; r <= md->nrows; r++) act[r] = 0;
    for (size_t k = 1; k <= md->nnz; k++) act[md->ia[k]] += md->ar[k] * vals[md->ja[k]];
    for (int r = 1; r <= md->nrows; r++) {
        double tol = 1e-6 * (1 + fabs(md->rbnd[r]));
        if (md->rtype[r] == GLP_LO ? act[r] < md->rbnd[r] - tol : act[r] > md->rbnd[r] + tol)
            return "it violates a row";
    }
    return NULL;
}

/* Builds the model of list[0 .. m) (sorted by start, index) with P in
 * [lb, ub]; heur gives the heuristic offsets (units, by tensor index), used
 * as the incumbent when its arena is at most ub. */
static ab_status model_build(model *md, const prep *pp, const size_t *list, size_t m, int64_t lb,
                             int64_t ub, const abo_ilp_options *o, ab_error *err) {
    memset(md, 0, sizeof *md);
    md->pp = pp;
    md->lb = lb;
    md->ub = ub;
    ab_status st = model_columns(md, list, m, err);
    if (st == AB_OK) st = model_pairs(md, err);
    if (st == AB_OK) st = model_local_components(md, err);
    if (st == AB_OK) st = model_classes(md, o->symmetry, err);
    if (st == AB_OK) st = model_mirror(md, o->symmetry, err);
    if (st == AB_OK) st = model_cliques(md, err);
    if (st == AB_OK) st = model_rows(md, err);
    if (st == AB_OK) st = model_priority(md, err);
    if (st != AB_OK) return st;
    md->ps = ab_calloc(1, sizeof *md->ps);
    md->inc = ab_calloc((size_t)md->ncols + 1, sizeof *md->inc);
    if (md->ps == NULL || md->inc == NULL || !scratch_alloc(md->ps, md))
        return ab_fail(err, AB_ENOMEM, "out of memory");
    int64_t arena = 0, *x = md->ps->x;
    for (size_t i = 0; i < m; i++) {
        x[i] = pp->heur[list[i]];
        if (x[i] + lt(md, i)->size > arena) arena = x[i] + lt(md, i)->size;
    }
    if (arena > ub || !o->heuristics || o->nincumbents == 0)
        return AB_OK; /* over the capacity, or none wanted */
    onto_fixes(md, x, md->ps->v);
    const char *bad = plan_values(md, x, md->inc, md->ps->act);
    if (bad != NULL) return ab_fail(err, AB_EINTERNAL, "the ILP's first incumbent is wrong: %s", bad);
    md->has_inc = true;
    return AB_OK;
}

/* ==== 3. GLPK ===================================================================== */

typedef struct glpk_guard {
    jmp_buf jb;
    char text[400]; /* what GLPK printed last (its error message) */
    size_t len;
} glpk_guard;

static int term_hook(void *info, const char *s) {
    glpk_guard *g = info;
    size_t n = strlen(s);
    if (n >= sizeof g->text) n = sizeof g->text - 1;
    if (g->len + n >= sizeof g->text) g->len = 0; /* keep the latest lines */
    memcpy(g->text + g->len, s, n);
    g->len += n;
    g->text[g->len] = '\0';
    return 1; /* GLPK prints nothing */
}

static void error_hook(void *info) {
    glpk_guard *g = info;
    longjmp(g->jb, 1);
}

/* Runs fn(ctx) with the hooks installed; false when GLPK raised an error
 * (the hook jumped back here). Nothing here is live across the longjmp. */
static bool guarded(void (*fn)(void *ctx), void *ctx, glpk_guard *g) {
    glp_term_hook(term_hook, g);
    glp_error_hook(error_hook, g);
    if (setjmp(g->jb) != 0) return false;
    int old = glp_term_out(GLP_OFF);
    fn(ctx);
    glp_term_out(old);
    glp_error_hook(NULL, NULL);
    glp_term_hook(NULL, NULL);
    return true;
}

/* Runs fn(ctx) with GLPK's output captured and its errors caught. Returns
 * false after a GLPK error: every GLPK object of the process is then gone
 * (glp_free_env, which also removes the hooks) and g->text holds GLPK's
 * message on one line. fn must not allocate memory of its own that outlives
 * an error (allocate before, free after). */
static bool glpk_call(void (*fn)(void *ctx), void *ctx, glpk_guard *g) {
    g->len = 0;
    g->text[0] = '\0';
    if (guarded(fn, ctx, g)) return true;
    glp_free_env();
    for (char *c = g->text; *c; c++)
        if (*c == '\n') *c = ' ';
    return false;
}

/* The status of a GLPK error: AB_ENOMEM when GLPK ran out of memory (its
 * allocator's "no memory available", its "memory allocation limit exceeded"), as any
 * other allocation that fails is; else AB_EINTERNAL. */
static ab_status glpk_failure(const glpk_guard *g) {
    return strstr(g->text, "no memory available") != NULL ||
                   strstr(g->text, "memory allocation limit exceeded") != NULL
               ? AB_ENOMEM
               : AB_EINTERNAL;
}

/* Loads md into a new GLPK problem md->lp. */
static void model_load(model *md) {
    glp_prob *lp = md->lp = glp_create_prob();
    char name[64];
    glp_set_prob_name(lp, "arenabench");
    glp_set_obj_name(lp, "arena");
    glp_set_obj_dir(lp, GLP_MIN);
    glp_add_cols(lp, md->ncols);
    for (size_t i = 0; i < md->m; i++) {
        int c = (int)i + 1;
        double lo, hi;
        snprintf(name, sizeof name, "y%zu", md->idx[i]);
        glp_set_col_name(lp, c, name);
        glp_set_col_kind(lp, c, GLP_IV);
        col_bounds(md, c, &lo, &hi);
        glp_set_col_bnds(lp, c, lo == hi ? GLP_FX : GLP_DB, lo, hi);
    }
    glp_set_col_name(lp, md->colP, "P");
    glp_set_col_kind(lp, md->colP, GLP_IV);
    glp_set_col_bnds(lp, md->colP, md->lb == md->ub ? GLP_FX : GLP_DB, (double)md->lb,
                     (double)md->ub);
    glp_set_obj_coef(lp, md->colP, 1);
    for (size_t i = 0; i < md->m; i++)
        for (size_t j = i + 1; j <= md->plast[i]; j++) {
            size_t k = pair_of(md, i, j);
            int c = md->zcol[k];
            if (c == 0) continue;
            snprintf(name, sizeof name, "z%zu_%zu", md->idx[i], md->idx[j]);
            glp_set_col_name(lp, c, name);
            glp_set_col_kind(lp, c, GLP_BV);
            if (md->zval[k] != ZFREE) glp_set_col_bnds(lp, c, GLP_FX, md->zval[k], md->zval[k]);
        }
    if (md->nrows > 0) glp_add_rows(lp, md->nrows);
    for (int r = 1; r <= md->nrows; r++) {
        switch (md->rkind[r]) {
        case ROW_ORD: snprintf(name, sizeof name, "ord%zu_%zu", md->ra[r], md->rb[r]); break;
        case ROW_TOP: snprintf(name, sizeof name, "top%zu", md->ra[r]); break;
        case ROW_LOW: snprintf(name, sizeof name, "low%zu_%zu", md->ra[r], md->rb[r]); break;
        default: snprintf(name, sizeof name, "high%zu_%zu", md->ra[r], md->rb[r]); break;
        }
        glp_set_row_name(lp, r, name);
        glp_set_row_bnds(lp, r, md->rtype[r], md->rbnd[r], md->rbnd[r]);
    }
    glp_load_matrix(lp, (int)md->nnz, md->ia, md->ja, md->ar);
}

/* The branch-and-bound's view, shared with the callback. */
typedef struct search {
    const model *md;
    double deadline;
    bool offered, accepted;
    double best_bound;    /* the largest best-node bound seen */
    int64_t nodes;
    int64_t node_limit;   /* stop once the tree has this many nodes; 0: none */
    bool proved;          /* stopped because the bound met the incumbent */
    bool capped;          /* stopped because the time ran out */
} search;

/* Branches on the free z with the largest min(s_i, s_j) that GLPK can branch
 * on, towards its nearer value; GLPK picks when none is fractional. */
static void branch(glp_tree *T, const model *md) {
    glp_prob *mip = glp_ios_get_prob(T);
    for (size_t k = 0; k < md->nprio; k++) {
        int c = md->prio[k];
        if (!glp_ios_can_branch(T, c)) continue;
        double v = glp_get_col_prim(mip, c);
        glp_ios_branch_upon(T, c, v >= 0.5 ? GLP_UP_BRNCH : GLP_DN_BRNCH);
        return;
    }
}

/* First fit in the order ps->ord: fixed tensors where they are, then each
 * free one at the lowest aligned offset clear of the placed tensors it
 * conflicts with. Writes ps->x; returns the arena. */
static int64_t first_fit_order(const model *md, plan_scratch *ps) {
    int64_t *x = ps->x, arena = 0;
    for (size_t i = 0; i < md->m; i++) x[i] = lfixed(md, i) ? md->xlo[i] : -1;
    for (size_t r = 0; r < md->m; r++) {
        size_t i = ps->ord[r], nb = 0;
        const ab_tensor *t = lt(md, i);
        if (lfixed(md, i)) continue;
        for (size_t j = 0; j < md->m; j++) {
            const ab_tensor *u = lt(md, j);
            if (x[j] < 0 || !ab_conflict(t, u)) continue;
            ps->busy[nb].lo = x[j];
            ps->busy[nb++].hi = x[j] + u->size;
        }
        qsort(ps->busy, nb, sizeof *ps->busy, ab_cmp_i64); /* by lo: the first field */
        int64_t cand = 0;
        for (size_t k = 0; k < nb; k++) {
            if (cand + t->size <= ps->busy[k].lo) break;
            if (ps->busy[k].hi > cand) cand = (ps->busy[k].hi + md->coef[i] - 1) / md->coef[i] * md->coef[i];
        }
        x[i] = cand;
    }
    for (size_t i = 0; i < md->m; i++)
        if (x[i] + lt(md, i)->size > arena) arena = x[i] + lt(md, i)->size;
    return arena;
}

/* Local tensors by key (md->ps->key), then larger first, then index. */
static int by_key(const void *a, const void *b, const void *ctx) {
    const model *md = ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    CMP_ASC(md->ps->key[x], md->ps->key[y]);
    CMP_DESC(lt(md, x)->size, lt(md, y)->size);
    CMP_ASC(x, y);
    return 0;
}

/* An LP-guided plan: the tensors first-fit in the order of their offsets in
 * the node's LP solution; offered to GLPK when it beats the incumbent. */
static void lp_guided(glp_tree *T, const model *md) {
    plan_scratch *ps = md->ps;
    glp_prob *mip = glp_ios_get_prob(T);
    for (size_t i = 0; i < md->m; i++) {
        ps->ord[i] = i;
        ps->key[i] = glp_get_col_prim(mip, (int)i + 1) * (double)md->coef[i];
    }
    ab_sort(ps->ord, md->m, sizeof *ps->ord, by_key, md);
    int64_t arena = first_fit_order(md, ps);
    if (arena > md->ub) return;
    if (glp_mip_status(mip) == GLP_FEAS && (double)(arena > md->lb ? arena : md->lb) >= glp_mip_obj_val(mip))
        return;
    onto_fixes(md, ps->x, ps->v);
    if (plan_values(md, ps->x, ps->vals, ps->act) == NULL) glp_ios_heur_sol(T, ps->vals);
}

static void on_tree(glp_tree *T, void *info) {
    search *s = info;
    int a_cnt, n_cnt, t_cnt;
    glp_ios_tree_size(T, &a_cnt, &n_cnt, &t_cnt);
    s->nodes = t_cnt;
    int best = glp_ios_best_node(T);
    if (best != 0) {
        double b = glp_ios_node_bound(T, best);
        if (b > s->best_bound) s->best_bound = b;
    }
    switch (glp_ios_reason(T)) {
    case GLP_IHEUR:
        if (!s->offered && s->md->has_inc) {
            s->offered = true;
            s->accepted = glp_ios_heur_sol(T, s->md->inc) == 0;
        }
        lp_guided(T, s->md);
        break;
    case GLP_IBRANCH: branch(T, s->md); break;
    default: break;
    }
    glp_prob *mip = glp_ios_get_prob(T);
    if (glp_mip_status(mip) == GLP_FEAS && s->best_bound > -DBL_MAX &&
        int_bound(s->best_bound) >= llround(glp_mip_obj_val(mip))) {
        s->proved = true;
        glp_ios_terminate(T);
    } else if (s->node_limit > 0 && s->nodes >= s->node_limit) {
        glp_ios_terminate(T); /* the deterministic budget */
    } else if (now_seconds() >= s->deadline) {
        s->capped = true;
        glp_ios_terminate(T);
    }
}

/* One component's run: inputs, then what GLPK said. */
typedef struct run {
    model *md;
    const abo_ilp_options *o;
    double deadline;
    search s;
    int lp_rc, lp_status;   /* the root LP: glp_simplex's code and status */
    double root_bound;
    int mip_rc, mip_status; /* glp_intopt's code and glp_mip_status */
    double mip_obj;
    double *y;              /* per local tensor: the value of its column */
} run;

static void run_glpk(void *ctx) {
    run *ru = ctx;
    model *md = ru->md;
    model_load(md);
    glp_scale_prob(md->lp, GLP_SF_AUTO);
    glp_adv_basis(md->lp, 0);
    glp_smcp sm;
    glp_init_smcp(&sm);
    sm.msg_lev = GLP_MSG_OFF;
    sm.tm_lim = ms_left(ru->deadline);
    ru->lp_rc = glp_simplex(md->lp, &sm);
    if (ru->lp_rc == GLP_EFAIL) {
        glp_std_basis(md->lp);
        ru->lp_rc = glp_simplex(md->lp, &sm);
    }
    ru->lp_status = glp_get_status(md->lp);
    ru->mip_status = GLP_UNDEF;
    if (ru->lp_rc == 0 && ru->lp_status == GLP_OPT) {
        ru->root_bound = glp_get_obj_val(md->lp);
        glp_iocp io;
        glp_init_iocp(&io);
        io.msg_lev = GLP_MSG_OFF;
        io.presolve = GLP_OFF; /* glp_ios_heur_sol maps onto the problem as built */
        io.tm_lim = ms_left(ru->deadline);
        io.mip_gap = ru->o->gap;
        io.cb_func = on_tree;
        io.cb_info = &ru->s;
        /* z within tol_int of 0 or 1 counts as integral: keep M * tol_int
         * under a quarter unit so a rounded plan stays valid */
        double tol = 0.25 / (double)(md->ub > 1 ? md->ub : 1);
        io.tol_int = tol > 1e-5 ? 1e-5 : tol < 1e-10 ? 1e-10 : tol;
        if (ru->o->cuts) io.gmi_cuts = io.mir_cuts = io.cov_cuts = io.clq_cuts = GLP_ON;
        /* it ignores tm_lim: give it three quarters of the time; it runs on time
         * alone, so not under a node budget */
        if (ru->o->proximity && ru->o->nodes <= 0) {
            io.ps_heur = GLP_ON;
            io.ps_tm_lim = (int)((double)ms_left(ru->deadline) * 0.75) + 1;
        }
        ru->mip_rc = glp_intopt(md->lp, &io);
        ru->mip_status = glp_mip_status(md->lp);
        if (ru->mip_status == GLP_OPT || ru->mip_status == GLP_FEAS) {
            ru->mip_obj = glp_mip_obj_val(md->lp);
            for (size_t i = 0; i < md->m; i++) ru->y[i] = glp_mip_col_val(md->lp, (int)i + 1);
        }
    }
    glp_delete_prob(md->lp);
    md->lp = NULL;
}

typedef struct write_job {
    model *md;
    const char *path;
    int rc;
} write_job;

static void write_glpk(void *ctx) {
    write_job *w = ctx;
    model_load(w->md);
    w->rc = glp_write_lp(w->md->lp, NULL, w->path);
    glp_delete_prob(w->md->lp);
    w->md->lp = NULL;
}

/* ==== 4. the driver =============================================================== */

typedef enum comp_end { COMP_SKIPPED, COMP_OPTIMAL, COMP_FEASIBLE, COMP_NOSOL, COMP_INFEASIBLE } comp_end;

/* What solving one component gave. */
typedef struct comp_result {
    comp_end end;
    int64_t arena;  /* of the plan kept for it (units) */
    int64_t bound;  /* proven on max(its optimum, the lb it was given) (units) */
    int64_t nodes;
    bool capped;    /* the time ran out (ilp.h: abo_ilp_result.capped) */
    bool improved;  /* GLPK beat the heuristic */
    char why[120];  /* for NOSOL and INFEASIBLE: why */
} comp_result;

/* What solving every component gave. */
typedef struct summary {
    int64_t bound, arena; /* units */
    bool infeasible;
    bool nosol_at_top;    /* the arena is a heuristic's that GLPK could not better or prove */
    bool improved;
    char why[200];
} summary;

typedef struct solver {
    prep pp;
    const abo_ilp_options *o;
    double deadline;      /* of the whole solve */
    double comp_deadline; /* of the component being solved */
    int64_t comp_nodes;   /* the node budget of the component being solved; 0: none */
    int64_t *plan;        /* per tensor: the plan being assembled, units */
    abo_ilp_result *r;
} solver;

/* The bound GLPK proved, from what the run recorded (see the callback): the
 * root LP, the best node bound seen, capped by GLPK's incumbent (a node left
 * with a bound above the incumbent holds nothing better than it). */
static int64_t run_bound(const run *ru, int64_t lb) {
    int64_t b = lb;
    if (ru->lp_rc == 0 && ru->lp_status == GLP_OPT && int_bound(ru->root_bound) > b)
        b = int_bound(ru->root_bound);
    bool inc = ru->mip_status == GLP_OPT || ru->mip_status == GLP_FEAS;
    if (inc && ru->mip_status == GLP_OPT && ru->mip_rc == 0) return int_bound(ru->mip_obj);
    if (ru->s.best_bound > -DBL_MAX) {
        int64_t t = int_bound(ru->s.best_bound);
        if (inc && int_bound(ru->mip_obj) < t) t = int_bound(ru->mip_obj);
        if (t > b) b = t;
    }
    return b;
}

/* Reads GLPK's plan of the component into sv->plan; returns its arena. */
static int64_t take_plan(solver *sv, const model *md, const run *ru) {
    int64_t a = 0;
    for (size_t i = 0; i < md->m; i++) {
        int64_t x = md->xlo[i] == md->xhi[i] ? md->xlo[i] : md->coef[i] * llround(ru->y[i]);
        sv->plan[md->idx[i]] = x;
        if (x + lt(md, i)->size > a) a = x + lt(md, i)->size;
    }
    return a;
}

/* Runs GLPK on md; fills cr from what it found. */
static ab_status run_component(solver *sv, model *md, int64_t lb, int64_t ub, comp_result *cr,
                               ab_error *err) {
    run ru = {.md = md, .o = sv->o, .deadline = sv->comp_deadline,
              .s = {.md = md, .deadline = sv->comp_deadline, .best_bound = -DBL_MAX,
                    .node_limit = sv->comp_nodes}};
    ru.y = ab_alloc_array(md->m ? md->m : 1, sizeof *ru.y);
    if (ru.y == NULL) return ab_fail(err, AB_ENOMEM, "out of memory");
    glpk_guard g;
    bool ok = glpk_call(run_glpk, &ru, &g);
    md->lp = NULL;
    if (!ok) {
        ab_free(ru.y);
        return ab_fail(err, glpk_failure(&g), "GLPK failed: %s", g.text[0] ? g.text : "(no message)");
    }
    cr->nodes = ru.s.nodes;
    cr->capped = ru.s.capped || ru.lp_rc == GLP_ETMLIM || ru.mip_rc == GLP_ETMLIM;
    int64_t bound = run_bound(&ru, lb);
    if ((ru.lp_rc == 0 && ru.lp_status == GLP_NOFEAS) || ru.mip_status == GLP_NOFEAS) {
        cr->end = COMP_INFEASIBLE;
        snprintf(cr->why, sizeof cr->why, "no plan of arena <= %" PRId64 " units exists", ub);
        bound = ub + 1 > bound ? ub + 1 : bound;
    } else if (ru.mip_status == GLP_OPT || ru.mip_status == GLP_FEAS) {
        cr->arena = take_plan(sv, md, &ru);
        cr->improved = cr->arena < sv->pp.comp_heur[sv->pp.comp_of[md->idx[0]]];
        cr->end = COMP_FEASIBLE;
    } else {
        const char *why = ru.lp_rc == GLP_ETMLIM ? "the time ran out in the root LP"
                          : ru.lp_rc != 0       ? "the root LP failed"
                          : ru.mip_rc == GLP_ETMLIM || ru.mip_rc == GLP_ESTOP
                              ? "the time ran out before a solution"
                              : "GLPK stopped without a solution";
        snprintf(cr->why, sizeof cr->why, "%s", why);
    }
    ab_free(ru.y);
    /* A plan of arena <= ub is known (the incumbent, or the stacked or
     * heuristic plan of the component): GLPK's "no plan" is then a numerical
     * failure (seen with the mirror fix on big-M rows), never a proof. */
    if (cr->end == COMP_INFEASIBLE &&
        (md->has_inc || sv->pp.comp_heur[sv->pp.comp_of[md->idx[0]]] <= ub))
        return ab_fail(err, AB_EINTERNAL,
                       "GLPK found no plan of arena <= %" PRId64 " units, but the heuristic has one",
                       ub);
    cr->bound = cr->end != COMP_INFEASIBLE && bound > cr->arena ? cr->arena : bound;
    if (cr->end == COMP_FEASIBLE && cr->bound >= cr->arena) cr->end = COMP_OPTIMAL;
    return AB_OK;
}

/* Solves component c with P in [lb, min(heuristic, capacity)]; writes its
 * plan into sv->plan (the heuristic's until GLPK has a better one). */
static ab_status solve_component(solver *sv, size_t c, int64_t lb, comp_result *cr, ab_error *err) {
    prep *pp = &sv->pp;
    const size_t *list = pp->by_start + pp->comp_first[c];
    size_t m = pp->comp_first[c + 1] - pp->comp_first[c];
    int64_t ub = pp->comp_heur[c];
    if (pp->cap != AB_NONE && pp->cap < ub) ub = pp->cap;
    *cr = (comp_result){.end = COMP_NOSOL, .arena = pp->comp_heur[c], .bound = lb};
    for (size_t r = 0; r < m; r++) sv->plan[list[r]] = pp->heur[list[r]];
    if (lb > ub) { /* only under a capacity: the bound so far is over it */
        cr->end = COMP_INFEASIBLE;
        snprintf(cr->why, sizeof cr->why, "the lower bound %" PRId64 " units is over the capacity",
                 lb);
        return AB_OK;
    }
    model md;
    ab_status st = model_build(&md, pp, list, m, lb, ub, sv->o, err);
    if (st == AB_ELIMIT) {
        snprintf(cr->why, sizeof cr->why, "%.100s", err ? err->msg : "the model is too large");
        ab_error_clear(err);
        model_free(&md);
        return AB_OK;
    }
    if (st == AB_OK) {
        if ((size_t)md.nrows > sv->r->rows) sv->r->rows = (size_t)md.nrows;
        if ((size_t)md.ncols > sv->r->cols) sv->r->cols = (size_t)md.ncols;
        if (md.nnz > sv->r->nonzeros) sv->r->nonzeros = md.nnz;
        st = run_component(sv, &md, lb, ub, cr, err);
    }
    model_free(&md);
    if (st == AB_OK && cr->end == COMP_INFEASIBLE)
        for (size_t r = 0; r < m; r++) sv->plan[list[r]] = pp->heur[list[r]];
    return st;
}

/* Components smallest first (they finish soon and leave their time to the
 * rest), then by decreasing heuristic arena, then by first tensor. */
static int by_work(const void *a, const void *b, const void *ctx) {
    const prep *pp = ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    size_t nx = pp->comp_first[x + 1] - pp->comp_first[x];
    size_t ny = pp->comp_first[y + 1] - pp->comp_first[y];
    CMP_ASC(nx, ny);
    CMP_DESC(pp->comp_heur[x], pp->comp_heur[y]);
    CMP_ASC(x, y);
    return 0;
}

/* Sums up the components' results into *sum. */
static void summarise(const prep *pp, const comp_result *res, int64_t lb, summary *sum) {
    sum->bound = lb;
    sum->arena = 0;
    for (size_t c = 0; c < pp->ncomp; c++) {
        if (res[c].bound > sum->bound) sum->bound = res[c].bound;
        if (res[c].arena > sum->arena) sum->arena = res[c].arena;
        sum->improved |= res[c].improved;
        if (res[c].end == COMP_INFEASIBLE) {
            sum->infeasible = true;
            snprintf(sum->why, sizeof sum->why, "%s", res[c].why);
        }
    }
    if (sum->infeasible) return;
    for (size_t c = 0; c < pp->ncomp; c++)
        if (res[c].end == COMP_NOSOL && res[c].arena == sum->arena && sum->arena > sum->bound) {
            sum->nosol_at_top = true;
            snprintf(sum->why, sizeof sum->why, "%s", res[c].why);
        }
}

/* Every component, the smallest first, each with an equal share of the time
 * left: one whose heuristic arena is at most the bound so far keeps its
 * heuristic plan. */
static ab_status solve_all(solver *sv, summary *sum, ab_error *err) {
    prep *pp = &sv->pp;
    size_t nc = pp->ncomp;
    size_t *ord = ab_alloc_array(nc ? nc : 1, sizeof *ord);
    comp_result *res = ab_calloc(nc ? nc : 1, sizeof *res);
    if (ord == NULL || res == NULL) {
        ab_free(ord);
        ab_free(res);
        return ab_fail(err, AB_ENOMEM, "out of memory");
    }
    for (size_t c = 0; c < nc; c++) {
        ord[c] = c;
        res[c] = (comp_result){.end = COMP_SKIPPED, .arena = pp->comp_heur[c], .bound = pp->comp_lb[c]};
    }
    ab_sort(ord, nc, sizeof *ord, by_work, pp);
    int64_t lb = pp->lb;
    ab_status st = AB_OK;
    for (size_t k = 0; k < nc && st == AB_OK; k++) {
        size_t c = ord[k];
        comp_result *cr = &res[c];
        if (pp->comp_heur[c] <= lb) continue;
        double now = now_seconds();
        if (now >= sv->deadline) {
            cr->end = COMP_NOSOL;
            sv->r->capped = true;
            snprintf(cr->why, sizeof cr->why, "the time ran out before this component");
            continue;
        }
        size_t left = 1; /* this one and the later ones still above the bound share the time */
        for (size_t k2 = k + 1; k2 < nc; k2++) left += pp->comp_heur[ord[k2]] > lb;
        sv->comp_deadline = now + (sv->deadline - now) / (double)left;
        if (sv->o->nodes > 0) { /* an equal share of the nodes left, at least one */
            int64_t rest = sv->o->nodes - sv->r->nodes;
            sv->comp_nodes = rest > (int64_t)left ? rest / (int64_t)left : 1;
        }
        st = solve_component(sv, c, lb, cr, err);
        if (st != AB_OK) break;
        sv->r->solved++;
        sv->r->nodes += cr->nodes;
        sv->r->capped |= cr->capped;
        if (cr->bound > lb) lb = cr->bound;
        if (cr->end == COMP_INFEASIBLE) break;
    }
    if (st == AB_OK) summarise(pp, res, lb, sum);
    ab_free(ord);
    ab_free(res);
    return st;
}

/* With decomposition off: all tensors as one component. */
static ab_status solve_whole(solver *sv, summary *sum, ab_error *err) {
    prep *pp = &sv->pp;
    size_t nc = pp->ncomp;
    int64_t *saved_heur = pp->comp_heur, *saved_lb = pp->comp_lb;
    size_t *saved_first = pp->comp_first, *saved_of = pp->comp_of;
    int64_t one_heur[1] = {pp->heur_arena}, one_lb[1] = {pp->lb};
    size_t one_first[2] = {0, pp->n};
    size_t *one_of = ab_calloc(pp->n ? pp->n : 1, sizeof *one_of);
    if (one_of == NULL) return ab_fail(err, AB_ENOMEM, "out of memory");
    pp->comp_heur = one_heur;
    pp->comp_lb = one_lb;
    pp->comp_first = one_first;
    pp->comp_of = one_of;
    pp->ncomp = pp->n ? 1 : 0;
    ab_status st = solve_all(sv, sum, err);
    pp->comp_heur = saved_heur;
    pp->comp_lb = saved_lb;
    pp->comp_first = saved_first;
    pp->comp_of = saved_of;
    pp->ncomp = nc;
    ab_free(one_of);
    return st;
}

/* Copies plan (units) into r->offsets (bytes). */
static ab_status set_offsets(const prep *pp, const int64_t *plan, abo_ilp_result *r, ab_error *err) {
    r->n = pp->n;
    r->offsets = ab_alloc_array(pp->n ? pp->n : 1, sizeof *r->offsets);
    if (r->offsets == NULL) return ab_fail(err, AB_ENOMEM, "out of memory");
    for (size_t i = 0; i < pp->n; i++)
        if (ab_mul_ovf(plan[i], pp->unit, &r->offsets[i]))
            return ab_fail(err, AB_EINPUT, "an offset overflows 64 bits in bytes");
    return AB_OK;
}

/* Checks r->offsets against p; a plan that should be valid and is not is an error. */
static ab_status final_check(const ab_problem *p, abo_ilp_result *r, ab_error *err) {
    ab_plan pl;
    abo_report rep;
    ab_status st = ab_plan_from_offsets(&pl, r->offsets, r->n, err);
    if (st == AB_OK) st = abo_check(p, &pl, &rep, err);
    ab_plan_free(&pl);
    if (st != AB_OK) return st;
    r->verdict = rep.verdict;
    r->arena = rep.arena;
    /* Over the capacity is a valid plan's fault the judge states (over-capacity,
     * or infeasible with its proof) when no plan can fit (max-load above the
     * capacity) or the search found none; elsewhere the ILP promised a fit. */
    int64_t cap = ab_problem_capacity(p);
    bool cannot_fit = cap != AB_NONE && r->max_load > cap;
    bool may_fail = r->status == ABO_ILP_INFEASIBLE ||
                    (rep.verdict == ABO_OVER_CAPACITY &&
                     (r->status == ABO_ILP_NO_SOLUTION || cannot_fit));
    if (rep.verdict != ABO_OK && !may_fail)
        return ab_fail(err, AB_EINTERNAL, "the ILP plan failed the check: %.900s", rep.msg);
    return AB_OK;
}

static void make_note(abo_ilp_result *r, const summary *sum) {
    switch (r->status) {
    case ABO_ILP_OPTIMAL:
        snprintf(r->note, sizeof r->note, "optimal%s",
                 r->solved == 0 ? " (the heuristic meets the lower bound)" : "");
        break;
    case ABO_ILP_FEASIBLE:
        snprintf(r->note, sizeof r->note, "feasible gap %.2f%% (%s)", 100 * r->gap,
                 sum->improved ? "improved on the heuristic" : "the heuristic plan");
        break;
    case ABO_ILP_NO_SOLUTION:
        snprintf(r->note, sizeof r->note,
                 "timeout-no-solution: %.70s; heuristic plan, %s bound", sum->why,
                 r->bound > r->max_load ? "LP" : "max-load");
        break;
    default: snprintf(r->note, sizeof r->note, "infeasible: %.120s", sum->why); break;
    }
}

/* The status from the summary (sets sum->why when it says more). */
static abo_ilp_status decide(const prep *pp, summary *sum) {
    if (sum->infeasible) return ABO_ILP_INFEASIBLE;
    if (sum->arena <= sum->bound) {
        sum->bound = sum->arena;
        return ABO_ILP_OPTIMAL;
    }
    if (sum->nosol_at_top) return ABO_ILP_NO_SOLUTION;
    if (pp->cap != AB_NONE && sum->arena > pp->cap) {
        snprintf(sum->why, sizeof sum->why, "no plan within the capacity found");
        return ABO_ILP_NO_SOLUTION;
    }
    return ABO_ILP_FEASIBLE;
}

ab_status abo_ilp_solve(const ab_problem *p, const abo_ilp_options *o, abo_ilp_result *r,
                        ab_error *err) {
    double t0 = now_seconds();
    abo_ilp_options def;
    if (o == NULL) {
        abo_ilp_options_init(&def);
        o = &def;
    }
    memset(r, 0, sizeof *r);
    r->verdict = ABO_NVERDICTS;
    r->arena = r->bound = r->heuristic = r->max_load = AB_NONE;
    if (!(o->time_limit > 0) || !(o->gap >= 0 && o->gap <= 1) || o->nodes < 0)
        return ab_fail(err, AB_EINPUT, "ILP options: the time limit must be > 0, the gap in "
                       "[0, 1] and the node budget >= 0");
    solver sv = {.o = o, .deadline = t0 + o->time_limit, .r = r};
    ab_status st = prep_build(p, o, &sv.pp, err);
    prep *pp = &sv.pp;
    if (st == AB_OK) {
        sv.plan = ab_alloc_array(pp->n ? pp->n : 1, sizeof *sv.plan);
        if (sv.plan == NULL) st = ab_fail(err, AB_ENOMEM, "out of memory");
    }
    if (st != AB_OK) {
        prep_free(pp);
        return st;
    }
    r->unit = pp->unit;
    r->components = pp->ncomp;
    if (ab_mul_ovf(pp->lb, pp->unit, &r->max_load) ||
        ab_mul_ovf(pp->heur_arena, pp->unit, &r->heuristic)) {
        prep_free(pp);
        ab_free(sv.plan);
        return ab_fail(err, AB_EINPUT, "the heuristic arena (%" PRId64 " units of %" PRId64
                       " bytes) overflows 64 bits", pp->heur_arena, pp->unit);
    }
    memcpy(sv.plan, pp->heur, pp->n * sizeof *sv.plan);
    summary sum = {.bound = pp->lb, .arena = pp->heur_arena};
    if (pp->infeasible) {
        sum.infeasible = true;
        sum.bound = pp->infeasible_bound;
        snprintf(sum.why, sizeof sum.why, "%s", pp->why);
    } else {
        st = o->decompose ? solve_all(&sv, &sum, err) : solve_whole(&sv, &sum, err);
    }
    if (st == AB_OK) {
        r->status = decide(pp, &sum);
        st = set_offsets(pp, sv.plan, r, err);
    }
    if (st == AB_OK) st = final_check(p, r, err);
    if (st == AB_OK) {
        if (ab_mul_ovf(sum.bound, pp->unit, &r->bound)) r->bound = INT64_MAX; /* clamped below */
        if (r->status != ABO_ILP_INFEASIBLE && r->bound > r->arena) r->bound = r->arena;
        r->gap = r->status == ABO_ILP_INFEASIBLE || r->arena <= 0
                     ? 0
                     : (double)(r->arena - r->bound) / (double)r->arena;
    }
    r->seconds = now_seconds() - t0;
    if (st == AB_OK) make_note(r, &sum);
    ab_free(sv.plan);
    prep_free(pp);
    return st;
}

ab_status abo_ilp_write_lp(const ab_problem *p, const abo_ilp_options *o, const char *path,
                           int64_t *unit, ab_error *err) {
    abo_ilp_options def;
    if (o == NULL) {
        abo_ilp_options_init(&def);
        o = &def;
    }
    prep pp;
    ab_status st = prep_build(p, o, &pp, err);
    if (st == AB_OK && unit != NULL) *unit = pp.unit;
    if (st == AB_OK && pp.infeasible)
        st = ab_fail(err, AB_ECHECK, "the problem is infeasible (%s): no model written", pp.why);
    int64_t ub = pp.heur_arena;
    if (st == AB_OK && pp.cap != AB_NONE && pp.cap < ub) ub = pp.cap;
    model md;
    memset(&md, 0, sizeof md);
    if (st == AB_OK) st = model_build(&md, &pp, pp.by_start, pp.n, pp.lb, ub, o, err);
    if (st == AB_OK) {
        write_job w = {.md = &md, .path = path};
        glpk_guard g;
        if (!glpk_call(write_glpk, &w, &g))
            st = ab_fail(err, glpk_failure(&g), "GLPK failed: %s", g.text[0] ? g.text : "(no message)");
        else if (w.rc != 0)
            st = ab_fail(err, AB_EINPUT, "%s: cannot write the LP file", path);
        md.lp = NULL;
    }
    model_free(&md);
    prep_free(&pp);
    return st;
}
