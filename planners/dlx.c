/*
 * dlx.c — Algorithm X with dancing links (see dlx.h for the layout and the
 * two pruning counters, the second weighted by column widths), and the same
 * search on interval rows without a matrix (abp_ivx_search, dlx.h). Both are
 * iterative (Knuth's steps X1-X8), so their depth is not limited by the C
 * stack.
 */
#include "planners/dlx.h"
#include "planners/nogood.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/sort.h"

typedef struct dnode {
    int32_t up, down, col; /* col: header index (> 0), or <= 0 for a spacer */
} dnode;

struct abp_dlx {
    int32_t P, S, G;        /* primary, secondary columns; groups */
    dnode *node;
    int64_t nnodes;         /* allocated nodes: headers, spacers, rows */
    int64_t used;           /* nodes written so far */
    int32_t spacer;         /* the spacer the next row follows */
    int32_t last_first;     /* first node of the last row added, 0 before any */
    int32_t *len;           /* per header 0..P+S: rows in the column */
    int32_t *left, *right;  /* the list of uncovered primary columns, 0..P */
    int32_t *group;         /* per secondary column (0-based) */
    int64_t *width;         /* per secondary column: the cells (bytes) it stands for */
    int64_t *live, *demand; /* per group: widths of live columns; weights of primaries */
    int64_t nshort;         /* groups with live < demand */
    int64_t nzero;          /* uncovered primary columns with no row */
    int32_t *g0, *g1, *tprev, *tnext; /* per primary column (0-based) */
    int64_t *weight, *placed;          /* placed: the chosen key, or -1 */
    int64_t *row_key;
    int64_t nrows_cap, nrows;
    int32_t *stack;         /* the chosen row (its primary node) per level */
    bool overflow;          /* a row did not fit the counts given to abp_dlx_new_cols */
};

double abp_dlx_now(void) { return (double)clock() / (double)CLOCKS_PER_SEC; }

/* Saturating arithmetic for the estimate. */
static int64_t sat_add(int64_t a, int64_t b) {
    int64_t r;
    return ab_add_ovf(a, b, &r) ? INT64_MAX : r;
}
static int64_t sat_mul(int64_t a, int64_t b) {
    int64_t r;
    return ab_mul_ovf(a, b, &r) ? INT64_MAX : r;
}

/* Every node of a matrix: root, headers, spacers and rows. */
static int64_t total_nodes(int64_t nprimary, int64_t nsecondary, int64_t nrows, int64_t nnodes) {
    return sat_add(sat_add(2 + nprimary, nsecondary), sat_add(nrows, nnodes));
}

int64_t abp_dlx_bytes_cols(int64_t nprimary, int64_t nsecondary, int64_t ngroups, int64_t nrows,
                           int64_t nnodes) {
    int64_t total = total_nodes(nprimary, nsecondary, nrows, nnodes);
    if (total > ABP_DLX_MAX_NODES || nprimary < 0 || nsecondary < 0 || ngroups < 0 ||
        ngroups > ABP_DLX_MAX_NODES || nrows < 0 || nnodes < 0)
        return INT64_MAX;
    int64_t bytes = sat_mul(total, (int64_t)sizeof(dnode));
    bytes = sat_add(bytes, sat_mul(1 + nprimary + nsecondary, 4));      /* len */
    bytes = sat_add(bytes, sat_mul(nprimary + 1, 8));                   /* left, right */
    bytes = sat_add(bytes, sat_mul(nsecondary, 4 + 8));                 /* group, width */
    bytes = sat_add(bytes, sat_mul(ngroups, 16));                       /* live, demand */
    bytes = sat_add(bytes, sat_mul(nprimary, 4 * 5 + 8 * 2));           /* per primary */
    bytes = sat_add(bytes, sat_mul(nrows, 8));                          /* row_key */
    return sat_add(bytes, (int64_t)sizeof(abp_dlx));
}

void abp_dlx_free(abp_dlx *m) {
    if (m == NULL) return;
    ab_free(m->node);
    ab_free(m->len);
    ab_free(m->left);
    ab_free(m->right);
    ab_free(m->group);
    ab_free(m->width);
    ab_free(m->live);
    ab_free(m->demand);
    ab_free(m->g0);
    ab_free(m->g1);
    ab_free(m->tprev);
    ab_free(m->tnext);
    ab_free(m->weight);
    ab_free(m->placed);
    ab_free(m->row_key);
    ab_free(m->stack);
    ab_free(m);
}

abp_dlx *abp_dlx_new_cols(int32_t nprimary, int32_t nsecondary, int32_t ngroups, int64_t nrows,
                          int64_t nnodes) {
    if (abp_dlx_bytes_cols(nprimary, nsecondary, ngroups, nrows, nnodes) == INT64_MAX) return NULL;
    int64_t total = total_nodes(nprimary, nsecondary, nrows, nnodes);
    abp_dlx *m = ab_calloc(1, sizeof *m);
    if (m == NULL) return NULL;
    size_t P = (size_t)nprimary, S = (size_t)nsecondary, G = (size_t)ngroups;
    m->P = nprimary;
    m->S = nsecondary;
    m->G = ngroups;
    m->nnodes = total;
    m->nrows_cap = nrows;
    m->node = ab_alloc_array((size_t)total, sizeof *m->node);
    m->len = ab_calloc(1 + P + S, sizeof *m->len);
    m->left = ab_alloc_array(P + 1, sizeof *m->left);
    m->right = ab_alloc_array(P + 1, sizeof *m->right);
    m->group = ab_calloc(S + 1, sizeof *m->group);
    m->width = ab_alloc_array(S + 1, sizeof *m->width);
    m->live = ab_calloc(G + 1, sizeof *m->live);
    m->demand = ab_calloc(G + 1, sizeof *m->demand);
    m->g0 = ab_alloc_array(P + 1, sizeof *m->g0);
    m->g1 = ab_alloc_array(P + 1, sizeof *m->g1);
    m->tprev = ab_alloc_array(P + 1, sizeof *m->tprev);
    m->tnext = ab_alloc_array(P + 1, sizeof *m->tnext);
    m->weight = ab_calloc(P + 1, sizeof *m->weight);
    m->placed = ab_alloc_array(P + 1, sizeof *m->placed);
    m->row_key = ab_alloc_array((size_t)nrows + 1, sizeof *m->row_key);
    m->stack = ab_alloc_array(P + 1, sizeof *m->stack);
    if (!m->node || !m->len || !m->left || !m->right || !m->group || !m->width || !m->live || !m->demand ||
        !m->g0 || !m->g1 || !m->tprev || !m->tnext || !m->weight || !m->placed || !m->row_key ||
        !m->stack) {
        abp_dlx_free(m);
        return NULL;
    }
    for (int32_t s = 0; s < nsecondary; s++) m->width[s] = 1;
    for (int32_t c = 0; c <= nprimary + nsecondary; c++) m->node[c] = (dnode){c, c, 0};
    for (int32_t i = 0; i <= nprimary; i++) {
        m->left[i] = i == 0 ? nprimary : i - 1;
        m->right[i] = i == nprimary ? 0 : i + 1;
    }
    for (int32_t i = 0; i < nprimary; i++) {
        m->g0[i] = 0;
        m->g1[i] = -1;
        m->tprev[i] = m->tnext[i] = -1;
        m->placed[i] = -1;
    }
    m->spacer = 1 + nprimary + nsecondary;
    m->node[m->spacer] = (dnode){0, 0, 0};
    m->used = (int64_t)m->spacer + 1;
    return m;
}

void abp_dlx_secondary(abp_dlx *m, int32_t s, int32_t group, int64_t width) {
    m->group[s] = group;
    m->width[s] = width;
}

void abp_dlx_primary(abp_dlx *m, int32_t i, int32_t g0, int32_t g1, int64_t weight,
                     int32_t twin_prev, int32_t twin_next) {
    m->g0[i] = g0;
    m->g1[i] = g1;
    m->weight[i] = weight;
    m->tprev[i] = twin_prev;
    m->tnext[i] = twin_next;
}

/* Links node q at the bottom of column c. */
static void link_bottom(abp_dlx *m, int32_t q, int32_t c) {
    dnode *nd = m->node;
    int32_t u = nd[c].up;
    nd[q] = (dnode){u, c, c};
    nd[u].down = q;
    nd[c].up = q;
    m->len[c]++;
}

void abp_dlx_add_row(abp_dlx *m, int32_t prim, int64_t key, const int32_t *secs, int32_t nsec) {
    if (m->overflow || m->nrows >= m->nrows_cap || nsec < 0 || m->used + nsec + 2 > m->nnodes) {
        m->overflow = true;
        return;
    }
    int32_t s = m->spacer, first = s + 1;
    m->row_key[m->nrows] = key;
    m->node[s].col = -(int32_t)m->nrows;
    m->node[s].up = m->last_first;
    link_bottom(m, first, 1 + prim);
    for (int32_t j = 0; j < nsec; j++) link_bottom(m, first + 1 + j, 1 + m->P + secs[j]);
    int32_t last = first + nsec;
    m->node[s].down = last;
    m->nrows++;
    m->last_first = first;
    m->spacer = last + 1; /* the spacer after this row, before the next */
    m->node[m->spacer] = (dnode){first, 0, -(int32_t)m->nrows};
    m->used = (int64_t)m->spacer + 1;
}

/* ---- the counters ------------------------------------------------------------ */

/* Secondary column s (0-based) stops / starts being live: its width leaves
 * or joins its group's live total. */
static inline void live_dec(abp_dlx *m, int32_t s) {
    int32_t g = m->group[s];
    bool was = m->live[g] < m->demand[g];
    m->live[g] -= m->width[s];
    m->nshort += (int64_t)(m->live[g] < m->demand[g]) - (int64_t)was;
}
static inline void live_inc(abp_dlx *m, int32_t s) {
    int32_t g = m->group[s];
    bool was = m->live[g] < m->demand[g];
    m->live[g] += m->width[s];
    m->nshort += (int64_t)(m->live[g] < m->demand[g]) - (int64_t)was;
}

/* Adds delta to the demand of every group of primary column i. */
static void demand_add(abp_dlx *m, int32_t i, int64_t delta) {
    for (int32_t g = m->g0[i]; g <= m->g1[i]; g++) {
        bool was = m->live[g] < m->demand[g];
        m->demand[g] += delta;
        bool now = m->live[g] < m->demand[g];
        m->nshort += (int64_t)now - (int64_t)was;
    }
}

/* Sets live, demand and the two counters from the current links. */
static void counters_init(abp_dlx *m) {
    memset(m->live, 0, (size_t)m->G * sizeof *m->live);
    memset(m->demand, 0, (size_t)m->G * sizeof *m->demand);
    for (int32_t s = 0; s < m->S; s++)
        if (m->len[1 + m->P + s] > 0) m->live[m->group[s]] += m->width[s];
    m->nzero = 0;
    for (int32_t i = 0; i < m->P; i++) {
        if (m->len[1 + i] == 0) m->nzero++;
        for (int32_t g = m->g0[i]; g <= m->g1[i]; g++) m->demand[g] += m->weight[i];
        m->placed[i] = -1;
    }
    m->nshort = 0;
    for (int32_t g = 0; g < m->G; g++) m->nshort += m->live[g] < m->demand[g];
}

/* ---- dancing ------------------------------------------------------------------ */

/* Rows are runs of consecutive nodes, so the neighbours a node will be
 * unlinked from are known a few nodes ahead: fetching them early hides the
 * cache misses that dominate on large matrices. Reading past a row's end is
 * harmless (the nodes after a row are its spacer and the next row; the last
 * spacer's links are valid indices too), and a prefetch never faults. */
#define AHEAD 8
static inline void prefetch_links(const abp_dlx *m, int64_t q) {
    if (q >= 0 && q < m->used) {
        const dnode *x = &m->node[q];
        __builtin_prefetch(&m->node[x->up], 1);
        __builtin_prefetch(&m->node[x->down], 1);
    }
}

/* Unlinks the row of node p from every column but p's. */
static void hide(abp_dlx *m, int32_t p) {
    dnode *nd = m->node;
    int32_t q = p + 1;
    while (q != p) {
        int32_t c = nd[q].col;
        if (c <= 0) { /* the spacer after the row: back to its first node */
            q = nd[q].up;
            continue;
        }
        prefetch_links(m, (int64_t)q + AHEAD);
        int32_t u = nd[q].up, d = nd[q].down;
        nd[u].down = d;
        nd[d].up = u;
        if (--m->len[c] == 0) {
            if (c <= m->P) m->nzero++;
            else live_dec(m, c - m->P - 1);
        }
        q++;
    }
}

/* Undoes hide(p), walking the row the other way. */
static void unhide(abp_dlx *m, int32_t p) {
    dnode *nd = m->node;
    int32_t q = p - 1;
    while (q != p) {
        int32_t c = nd[q].col;
        if (c <= 0) { /* the spacer before the row: on to its last node */
            q = nd[q].down;
            continue;
        }
        prefetch_links(m, (int64_t)q - AHEAD);
        int32_t u = nd[q].up, d = nd[q].down;
        nd[u].down = q;
        nd[d].up = q;
        if (m->len[c]++ == 0) {
            if (c <= m->P) m->nzero--;
            else live_inc(m, c - m->P - 1);
        }
        q--;
    }
}

static void cover_primary(abp_dlx *m, int32_t c) {
    demand_add(m, c - 1, -m->weight[c - 1]);
    int32_t l = m->left[c], r = m->right[c];
    m->right[l] = r;
    m->left[r] = l;
    for (int32_t p = m->node[c].down; p != c; p = m->node[p].down) hide(m, p);
}

static void uncover_primary(abp_dlx *m, int32_t c) {
    for (int32_t p = m->node[c].up; p != c; p = m->node[p].up) unhide(m, p);
    int32_t l = m->left[c], r = m->right[c];
    m->right[l] = c;
    m->left[r] = c;
    demand_add(m, c - 1, m->weight[c - 1]);
}

/* A secondary column c becomes occupied: it stops being a live cell (if it
 * was one) and every other row through it goes. Its own list is left as it
 * is, so len[c] does not change while it is covered. */
static void cover_secondary(abp_dlx *m, int32_t c) {
    if (m->len[c] > 0) live_dec(m, c - m->P - 1);
    for (int32_t p = m->node[c].down; p != c; p = m->node[p].down) hide(m, p);
}

static void uncover_secondary(abp_dlx *m, int32_t c) {
    for (int32_t p = m->node[c].up; p != c; p = m->node[p].up) unhide(m, p);
    if (m->len[c] > 0) live_inc(m, c - m->P - 1);
}

/* Covers the secondary columns of the row whose primary node is x (its
 * first node), left to right. */
static void cover_row(abp_dlx *m, int32_t x) {
    for (int32_t p = x + 1; m->node[p].col > 0; p++) cover_secondary(m, m->node[p].col);
}

static void uncover_row(abp_dlx *m, int32_t x) {
    for (int32_t p = m->node[x - 1].down; p > x; p--) uncover_secondary(m, m->node[p].col);
}

static inline int64_t key_of(const abp_dlx *m, int32_t x) {
    return m->row_key[-m->node[x - 1].col];
}

/* true when the row of x keeps its twin chain's keys increasing. */
static bool twin_ok(const abp_dlx *m, int32_t i, int32_t x) {
    int32_t a = m->tprev[i], b = m->tnext[i];
    if (a < 0 && b < 0) return true;
    int64_t k = key_of(m, x);
    if (a >= 0 && m->placed[a] >= 0 && k <= m->placed[a]) return false;
    if (b >= 0 && m->placed[b] >= 0 && k >= m->placed[b]) return false;
    return true;
}

/* true when a column with rows n1 and weight w1 has fewer rows per unit of
 * weight than one with n2, w2 (weights below 1 count as 1). */
static bool fewer_per_weight(int64_t n1, int64_t w1, int64_t n2, int64_t w2) {
    __extension__ typedef __int128 i128;
    return (i128)n1 * (w2 < 1 ? 1 : w2) < (i128)n2 * (w1 < 1 ? 1 : w1);
}

/* The column to branch on: the first uncovered one (static order), or the
 * one with the fewest rows left per unit of weight (ties: the first). */
static int32_t choose(const abp_dlx *m, abp_dlx_order order) {
    int32_t best = m->right[0];
    if (order == ABP_DLX_STATIC) return best;
    if (order == ABP_DLX_LOW) {
        int64_t lk = m->node[best].down == best ? INT64_MAX : key_of(m, m->node[best].down);
        for (int32_t c = m->right[best]; c != 0; c = m->right[c]) {
            int64_t k = m->node[c].down == c ? INT64_MAX : key_of(m, m->node[c].down);
            if (k < lk) best = c, lk = k;
        }
        return best;
    }
    for (int32_t c = m->right[best]; c != 0; c = m->right[c])
        if (fewer_per_weight(m->len[c], m->weight[c - 1], m->len[best], m->weight[best - 1])) best = c;
    return best;
}

/* Reads the clock for the deadline; adapts how often (about every 1-4 ms). */
static bool past_deadline(abp_dlx_budget *b) {
    double t = abp_dlx_now();
    if (b->every > 0) {
        double spent = t - b->last_check;
        if (spent < 0.001 && b->every < 64) b->every *= 2;
        else if (spent > 0.004 && b->every > 1) b->every /= 2;
    } else {
        b->every = 1;
    }
    b->last_check = t;
    b->next_check = b->nodes + b->every;
    return t >= b->deadline;
}

/* true when the budget allows one more node (and counts it). */
static bool spend(abp_dlx_budget *b) {
    if (b->out) return false;
    if (b->max_nodes > 0 && b->nodes >= b->max_nodes) return b->out = true, false;
    if (b->deadline > 0 && b->nodes >= b->next_check && past_deadline(b))
        return b->out = true, false;
    b->nodes++;
    return true;
}

/* Pops every level (uncovering its row and column) and restores the matrix. */
static void unwind(abp_dlx *m, int32_t level) {
    while (level > 0) {
        int32_t x = m->stack[--level], c = m->node[x].col;
        uncover_row(m, x);
        m->placed[c - 1] = -1;
        uncover_primary(m, c);
    }
}

bool abp_dlx_overflowed(const abp_dlx *m) { return m->overflow; }

abp_dlx_result abp_dlx_search(abp_dlx *m, abp_dlx_order order, abp_dlx_budget *b, int64_t *keys) {
    counters_init(m);
    if (m->P == 0) return ABP_DLX_FOUND;
    if (m->nzero > 0 || m->nshort > 0) return ABP_DLX_NONE;
    if (b->out) return ABP_DLX_BUDGET;
    int32_t level = 0, c, x;
choose_column: /* X2, X3, X4 */
    if (m->right[0] == 0) {
        for (int32_t l = 0; l < level; l++) keys[m->node[m->stack[l]].col - 1] = key_of(m, m->stack[l]);
        unwind(m, level);
        return ABP_DLX_FOUND;
    }
    c = choose(m, order);
    cover_primary(m, c);
    x = m->node[c].down;
try_row: /* X5 */
    while (x != c && !twin_ok(m, c - 1, x)) x = m->node[x].down;
    if (x == c) goto backtrack;
    if (!spend(b)) {
        uncover_primary(m, c);
        unwind(m, level);
        return ABP_DLX_BUDGET;
    }
    cover_row(m, x);
    m->placed[c - 1] = key_of(m, x);
    if (m->nzero > 0 || m->nshort > 0) { /* a dead end below: next row */
        uncover_row(m, x);
        m->placed[c - 1] = -1;
        x = m->node[x].down;
        goto try_row;
    }
    m->stack[level++] = x;
    goto choose_column;
backtrack: /* X7, X8, X6 */
    uncover_primary(m, c);
    if (level == 0) return ABP_DLX_NONE;
    x = m->stack[--level];
    c = m->node[x].col;
    uncover_row(m, x);
    m->placed[c - 1] = -1;
    x = m->node[x].down;
    goto try_row;
}

/* ---- the implicit engine (dlx.h: abp_ivx_search) ------------------------------- */

typedef struct ivx {
    const abp_ivx_in *in;
    int32_t *owner;     /* per row: its primary column */
    int32_t *mn, *cnt, *add; /* the kill tree over the rows (ivx_kadd) */
    int64_t *alive;     /* per primary: its live rows */
    int64_t *placed;    /* per primary: the chosen key, or -1 */
    bool *done;         /* per primary: placed */
    int64_t *demand;    /* per group: the weights of the unplaced columns spanning it */
    int64_t *brk_at;    /* per primary: brk[brk_at[i] .. brk_at[i + 1]) */
    int64_t *brk;       /* rows r of i (not its first) with key[r] - key[r - 1] > h[i] */
    int64_t *run_at;    /* per primary: its runs' slot in run, pairs [lo, hi) */
    int64_t *run;
    int64_t *nrun;      /* per primary: its runs, valid when stamp[i] == now (canon: runs_lb[i] == lb[i]) */
    int64_t *stamp, now;
    int64_t *kr;        /* scratch: one column's kill ranges, pairs */
    int64_t *mr, *mr2;  /* scratch: a group's runs, pairs (mr2: for merging them) */
    size_t *blk;        /* scratch: where each column's runs start in mr */
    int32_t *sc;        /* per level: the column */
    int64_t *sx;        /* per level: the row */
    /* order=canon only (lb NULL otherwise): per primary, its floor row (its
     * live rows are lb[i] ..), the top of the placed rows it meets, and F
     * (its floor after the last placement that raised raw, D5); the level;
     * and the trail of raw and F changed along the path */
    int64_t *lb, *raw, *fl0;
    int64_t x;
    int64_t *ngs, *ngid, serial; /* with a memo: per primary its stamp; scratch ids */
    int64_t *runs_lb;   /* canon: per primary, the floor its runs were taken at (-1: none) */
    int64_t *gmark;     /* canon: per group, the placement (now) that must test it */
    struct canon_undo *trail;
    size_t ntrail, trail_cap;
    bool oom;
} ivx;

typedef struct canon_undo {
    int32_t j;
    int64_t raw, fl0, lb;
} canon_undo;

/* order=canon: a level of the search: its column and key, what to restore,
 * D1's thresholds and the candidate tried last. */
typedef struct canon_frame {
    int64_t y, ox, m1, m2, py;
    size_t mark;
    int32_t i, a1, pj;
} canon_frame;

static int64_t ivx_breaks(const abp_ivx_in *in) {
    int64_t n = 0;
    for (int32_t i = 0; i < in->P; i++)
        for (int64_t r = in->row_at[i] + 1; r < in->row_at[i + 1]; r++)
            n += in->key[r] - in->key[r - 1] > in->h[i];
    return n;
}

int64_t abp_ivx_bytes(const abp_ivx_in *in) {
    int64_t R = in->row_at[in->P], P = in->P, B = ivx_breaks(in);
    if (R > ABP_DLX_MAX_NODES) return INT64_MAX;
    int64_t bytes = sat_mul(R, 4 + 4 * 12);                          /* owner, kill tree */
    bytes = sat_add(bytes, sat_mul(P + 1, 8 + 8 + 1 + 4 + 8 + 8 + 8 + 8 + 8 + 16 + 8)); /* per primary */
    bytes = sat_add(bytes, sat_mul(in->G + 2, 8));                   /* demand */
    bytes = sat_add(bytes, sat_mul(B + 1, 8));                       /* brk */
    int64_t slots = sat_add(sat_mul(P, P + 1), B);                   /* runs: P + 1 + breaks each */
    return sat_add(bytes, sat_mul(slots + 1, 3 * 16));               /* run, mr, mr2 */
}

static void ivx_free(ivx *v) {
    ab_free(v->owner);
    ab_free(v->mn);
    ab_free(v->cnt);
    ab_free(v->add);
    ab_free(v->alive);
    ab_free(v->placed);
    ab_free(v->done);
    ab_free(v->demand);
    ab_free(v->brk_at);
    ab_free(v->brk);
    ab_free(v->run_at);
    ab_free(v->run);
    ab_free(v->nrun);
    ab_free(v->stamp);
    ab_free(v->kr);
    ab_free(v->mr);
    ab_free(v->mr2);
    ab_free(v->blk);
    ab_free(v->sc);
    ab_free(v->sx);
    ab_free(v->lb);
    ab_free(v->raw);
    ab_free(v->fl0);
    ab_free(v->trail);
    ab_free(v->ngs);
    ab_free(v->ngid);
    ab_free(v->runs_lb);
    ab_free(v->gmark);
}

/* THE KILL TREE. Each row r has a count kill(r): the placed rows that
 * exclude it (0: live). A placement adds 1 over an index range of each
 * column it excludes, so the counts live in a segment tree over the rows
 * with range addition: node v over rows [l, r) holds add[v], added to every
 * row below it, mn[v], the least count below it counting add[v] but not the
 * ancestors' adds, and cnt[v], how many rows below it reach mn[v]. A range
 * addition, the number of live rows in a range and the first live row at or
 * after a row each take O(log R), whatever the range's length. */
static void ivx_kbuild(ivx *v, size_t node, int64_t l, int64_t r) {
    v->mn[node] = 0;
    v->add[node] = 0;
    v->cnt[node] = (int32_t)(r - l);
    if (r - l == 1) return;
    int64_t m = l + (r - l) / 2;
    ivx_kbuild(v, 2 * node, l, m);
    ivx_kbuild(v, 2 * node + 1, m, r);
}

static void ivx_kadd(ivx *v, size_t node, int64_t l, int64_t r, int64_t ql, int64_t qr, int32_t d) {
    if (qr <= l || r <= ql) return;
    if (ql <= l && r <= qr) {
        v->add[node] += d;
        v->mn[node] += d;
        return;
    }
    int64_t m = l + (r - l) / 2;
    ivx_kadd(v, 2 * node, l, m, ql, qr, d);
    ivx_kadd(v, 2 * node + 1, m, r, ql, qr, d);
    int32_t a = v->mn[2 * node], b = v->mn[2 * node + 1], lo = a < b ? a : b;
    v->mn[node] = lo + v->add[node];
    v->cnt[node] = (a == lo ? v->cnt[2 * node] : 0) + (b == lo ? v->cnt[2 * node + 1] : 0);
}

/* The live rows in [ql, qr); acc is the ancestors' adds (counts are >= 0). */
static int64_t ivx_klive(const ivx *v, size_t node, int64_t l, int64_t r, int64_t ql, int64_t qr,
                         int32_t acc) {
    if (qr <= l || r <= ql || v->mn[node] + acc > 0) return 0;
    if (ql <= l && r <= qr) return v->cnt[node];
    int64_t m = l + (r - l) / 2;
    acc += v->add[node];
    return ivx_klive(v, 2 * node, l, m, ql, qr, acc) + ivx_klive(v, 2 * node + 1, m, r, ql, qr, acc);
}

/* The first live row in [ql, qr), or -1. */
static int64_t ivx_knext(const ivx *v, size_t node, int64_t l, int64_t r, int64_t ql, int64_t qr,
                         int32_t acc) {
    if (qr <= l || r <= ql || v->mn[node] + acc > 0) return -1;
    if (r - l == 1) return l;
    int64_t m = l + (r - l) / 2;
    acc += v->add[node];
    int64_t x = ivx_knext(v, 2 * node, l, m, ql, qr, acc);
    return x >= 0 ? x : ivx_knext(v, 2 * node + 1, m, r, ql, qr, acc);
}

/* The first live row of column c at or after row x (its end when none). */
static int64_t ivx_live_from(const ivx *v, int32_t c, int64_t x) {
    int64_t end = v->in->row_at[c + 1];
    if (x >= end) return end;
    int64_t y = ivx_knext(v, 1, 0, v->in->row_at[v->in->P], x, end, 0);
    return y < 0 ? end : y;
}

/* Allocates and fills the scratch; false on OOM. *late is set when the CPU
 * deadline of b has passed once it is filled. */
static bool ivx_init(ivx *v, const abp_ivx_in *in, const abp_dlx_budget *b, bool kill, bool *late) {
    size_t P = (size_t)in->P, G = (size_t)in->G, R = (size_t)in->row_at[in->P];
    size_t B = (size_t)ivx_breaks(in), slots = P * (P + 1) + B;
    memset(v, 0, sizeof *v);
    v->in = in;
    v->owner = ab_alloc_array(R + 1, sizeof *v->owner);
    if (kill) { /* canon reads its live rows from lb, not from the kill tree */
        v->mn = ab_calloc(4 * R + 4, sizeof *v->mn);
        v->cnt = ab_calloc(4 * R + 4, sizeof *v->cnt);
        v->add = ab_calloc(4 * R + 4, sizeof *v->add);
        if (!v->mn || !v->cnt || !v->add) return false;
    }
    v->alive = ab_alloc_array(P + 1, sizeof *v->alive);
    v->placed = ab_alloc_array(P + 1, sizeof *v->placed);
    v->done = ab_calloc(P + 1, sizeof *v->done);
    v->demand = ab_calloc(G + 1, sizeof *v->demand);
    v->brk_at = ab_alloc_array(P + 1, sizeof *v->brk_at);
    v->brk = ab_alloc_array(B + 1, sizeof *v->brk);
    v->run_at = ab_alloc_array(P + 1, sizeof *v->run_at);
    v->run = ab_alloc_array(slots + 1, 2 * sizeof *v->run);
    v->nrun = ab_calloc(P + 1, sizeof *v->nrun);
    v->stamp = ab_calloc(P + 1, sizeof *v->stamp);
    v->kr = ab_alloc_array(P + 2, 2 * sizeof *v->kr);
    v->mr = ab_alloc_array(slots + 1, 2 * sizeof *v->mr);
    v->mr2 = ab_alloc_array(slots + 1, 2 * sizeof *v->mr2);
    v->blk = ab_alloc_array(P + 1, sizeof *v->blk);
    v->sc = ab_alloc_array(P + 1, sizeof *v->sc);
    v->sx = ab_alloc_array(P + 1, sizeof *v->sx);
    if (!v->owner || !v->alive || !v->placed || !v->done || !v->demand || !v->brk_at ||
        !v->brk || !v->run_at || !v->run || !v->nrun || !v->stamp || !v->kr || !v->mr || !v->mr2 || !v->blk || !v->sc ||
        !v->sx)
        return false;
    int64_t nb = 0, slot = 0;
    for (int32_t i = 0; i < in->P; i++) {
        for (int64_t r = in->row_at[i]; r < in->row_at[i + 1]; r++) v->owner[r] = i;
        v->alive[i] = in->row_at[i + 1] - in->row_at[i];
        v->placed[i] = -1;
        for (int32_t g = in->g0[i]; g <= in->g1[i]; g++) v->demand[g] += in->h[i];
        v->brk_at[i] = nb;
        for (int64_t r = in->row_at[i] + 1; r < in->row_at[i + 1]; r++)
            if (in->key[r] - in->key[r - 1] > in->h[i]) v->brk[nb++] = r;
        v->run_at[i] = slot;
        slot += (int64_t)P + 1 + (nb - v->brk_at[i]);
    }
    v->brk_at[P] = nb;
    if (R > 0 && kill) ivx_kbuild(v, 1, 0, (int64_t)R);
    *late = b->deadline > 0 && abp_dlx_now() >= b->deadline;
    return true;
}

static bool ivx_meets(const abp_ivx_in *in, int32_t a, int32_t b);

static int cmp_run(const void *x, const void *y) {
    const int64_t *a = x, *b = y;
    if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
    return (a[1] > b[1]) - (a[1] < b[1]);
}

/* Unplaced column j's live rows as maximal runs of touching or overlapping
 * intervals [key, key + h_j), into run[run_at[j] ..], once per stamp. A row
 * is live when no placed row excludes it: the rows a placed row (c, o)
 * excludes are the index range ivx_apply takes, so the live rows are the
 * complement of at most P such ranges, and within a range of live rows two
 * consecutive intervals meet unless their keys differ by more than h_j (a
 * break). */
static void ivx_runs(ivx *v, int32_t j) {
    const abp_ivx_in *in = v->in;
    if (v->lb != NULL) { /* canon: the runs follow from lb alone */
        if (v->runs_lb[j] == v->lb[j]) return;
        v->runs_lb[j] = v->lb[j];
    } else {
        if (v->stamp[j] == v->now) return;
        v->stamp[j] = v->now;
    }
    const int64_t *k = in->key + in->row_at[j];
    size_t n = (size_t)(in->row_at[j + 1] - in->row_at[j]);
    size_t nk = 0;
    for (int32_t c = 0; v->lb == NULL && c < in->P; c++) {
        if (c == j || v->placed[c] < 0 || !ivx_meets(in, c, j)) continue;
        int64_t o = v->placed[c];
        int64_t lo = in->row_at[j] + (int64_t)ab_count_le(k, n, o - in->h[j]);
        int64_t hi = in->row_at[j] + (int64_t)ab_count_lt(k, n, o + in->h[c]);
        if (lo < hi) v->kr[2 * nk] = lo, v->kr[2 * nk + 1] = hi, nk++;
    }
    if (v->lb != NULL && v->lb[j] > in->row_at[j])
        v->kr[2 * nk] = in->row_at[j], v->kr[2 * nk + 1] = v->lb[j], nk++;
    if (nk > 1) qsort(v->kr, nk, 2 * sizeof *v->kr, cmp_run);
    int64_t *out = v->run + 2 * v->run_at[j], m = 0;
    const int64_t *bk = v->brk + v->brk_at[j];
    size_t nbk = (size_t)(v->brk_at[j + 1] - v->brk_at[j]);
    int64_t at = in->row_at[j], end = in->row_at[j + 1];
    size_t q = 0;
    while (at < end) {
        while (q < nk && v->kr[2 * q + 1] <= at) q++;
        int64_t stop = end;
        if (q < nk && v->kr[2 * q] <= at) { /* inside a killed range: skip it */
            at = v->kr[2 * q + 1];
            continue;
        }
        if (q < nk && v->kr[2 * q] < stop) stop = v->kr[2 * q];
        /* live rows [at, stop): runs split at the breaks inside */
        size_t b0 = ab_count_le(bk, nbk, at);
        int64_t first = at;
        for (size_t bi = b0; bi < nbk && bk[bi] < stop; bi++) {
            out[2 * m] = in->key[first];
            out[2 * m + 1] = in->key[bk[bi] - 1] + in->h[j];
            m++;
            first = bk[bi];
        }
        out[2 * m] = in->key[first];
        out[2 * m + 1] = in->key[stop - 1] + in->h[j];
        m++;
        at = stop;
    }
    v->nrun[j] = m;
}

/* true when group g is short: the width of its breakpoint columns under the
 * live rows of unplaced columns is below its demand. The columns under a
 * run [x, y) of overlapping or touching live intervals are the breakpoints
 * in [x, y) (x is one), whose widths sum to (the first breakpoint >= y, or
 * H) - x. The runs come from each column's own (ivx_runs), merged. */
static bool ivx_short(ivx *v, int32_t g) {
    const abp_ivx_in *in = v->in;
    int64_t need = v->demand[g];
    if (need <= 0) return false;
    const int64_t *bp = in->bp + in->bp_at[g];
    size_t nb = (size_t)in->nb[g];
    size_t m = 0, nblk = 0;
    for (int32_t j = 0; j < in->P; j++) {
        if (v->done[j] || in->g0[j] > g || g > in->g1[j]) continue;
        ivx_runs(v, j);
        if (v->nrun[j] == 0) continue;
        v->blk[nblk++] = m;
        memcpy(v->mr + 2 * m, v->run + 2 * v->run_at[j], (size_t)v->nrun[j] * 2 * sizeof *v->mr);
        m += (size_t)v->nrun[j];
    }
    /* each column's runs are in order: merge them, pairs of blocks at a time */
    int64_t *a = v->mr, *t = v->mr2;
    while (nblk > 1) {
        size_t nb2 = 0;
        for (size_t i = 0; i < nblk; i += 2) {
            size_t lo = v->blk[i], mid = i + 1 < nblk ? v->blk[i + 1] : m;
            size_t hi = i + 2 < nblk ? v->blk[i + 2] : m, p = lo, q = mid, o = lo;
            while (p < mid && q < hi) {
                bool left = cmp_run(a + 2 * p, a + 2 * q) <= 0;
                size_t w = left ? p++ : q++;
                t[2 * o] = a[2 * w], t[2 * o + 1] = a[2 * w + 1], o++;
            }
            for (; p < mid; p++, o++) t[2 * o] = a[2 * p], t[2 * o + 1] = a[2 * p + 1];
            for (; q < hi; q++, o++) t[2 * o] = a[2 * q], t[2 * o + 1] = a[2 * q + 1];
            v->blk[nb2++] = lo;
        }
        nblk = nb2;
        int64_t *swap = a;
        a = t, t = swap;
    }
    int64_t sum = 0, x = 0, y = 0;
    bool open = false;
    for (size_t q = 0; q < m; q++) {
        int64_t o = a[2 * q], e = a[2 * q + 1];
        if (open && o <= y) {
            if (e > y) y = e;
        } else {
            if (open) {
                size_t j = ab_count_lt(bp, nb, y);
                sum += (j < nb ? bp[j] : in->H) - x;
            }
            x = o, y = e, open = true;
        }
        if (sum + (y - x) >= need) return false; /* the run's columns reach y at least */
    }
    if (open) {
        size_t j = ab_count_lt(bp, nb, y);
        sum += (j < nb ? bp[j] : in->H) - x;
    }
    return sum < need;
}

static bool ivx_meets(const abp_ivx_in *in, int32_t a, int32_t b) {
    return in->g0[a] <= in->g1[b] && in->g0[b] <= in->g1[a];
}

/* Places (delta = 1) or removes (delta = -1) row x of column c: the live rows
 * of the unplaced columns it excludes. */
static void ivx_apply(ivx *v, int32_t c, int64_t x, int32_t delta) {
    const abp_ivx_in *in = v->in;
    int64_t o = in->key[x];
    for (int32_t j = 0; j < in->P; j++) {
        if (j == c || v->done[j] || !ivx_meets(in, c, j)) continue;
        const int64_t *k = in->key + in->row_at[j];
        size_t n = (size_t)(in->row_at[j + 1] - in->row_at[j]);
        int64_t lo = in->row_at[j] + (int64_t)ab_count_le(k, n, o - in->h[j]);
        int64_t hi = in->row_at[j] + (int64_t)ab_count_lt(k, n, o + in->h[c]);
        if (lo >= hi) continue;
        int64_t R = in->row_at[in->P];
        if (delta > 0) {
            v->alive[j] -= ivx_klive(v, 1, 0, R, lo, hi, 0);
            ivx_kadd(v, 1, 0, R, lo, hi, 1);
        } else {
            ivx_kadd(v, 1, 0, R, lo, hi, -1);
            v->alive[j] += ivx_klive(v, 1, 0, R, lo, hi, 0);
        }
    }
}

/* After row x of column c was placed: a dead end when an unplaced column it
 * meets has no live row, or a group it or they span is short. The groups
 * beyond were not short before (the search only goes on from states that
 * passed) and did not change. */
static bool ivx_dead(ivx *v, int32_t c) {
    const abp_ivx_in *in = v->in;
    v->now++;
    int32_t lo = in->g0[c], hi = in->g1[c];
    for (int32_t j = 0; j < in->P; j++) {
        if (j == c || v->done[j] || !ivx_meets(in, c, j)) continue;
        if (v->alive[j] == 0) return true;
        if (in->g0[j] < lo) lo = in->g0[j];
        if (in->g1[j] > hi) hi = in->g1[j];
    }
    for (int32_t g = lo; g <= hi; g++)
        if (ivx_short(v, g)) return true;
    return false;
}

static void ivx_demand(ivx *v, int32_t c, int64_t delta) {
    for (int32_t g = v->in->g0[c]; g <= v->in->g1[c]; g++) v->demand[g] += delta;
}

static bool ivx_twin_ok(const ivx *v, int32_t i, int64_t k) {
    int32_t a = v->in->tprev[i], b = v->in->tnext[i];
    if (a >= 0 && v->placed[a] >= 0 && k <= v->placed[a]) return false;
    if (b >= 0 && v->placed[b] >= 0 && k >= v->placed[b]) return false;
    return true;
}

/* The column to branch on, as choose() does: the first unplaced, or the one
 * with the fewest live rows per unit of weight (ties: the first). */
static int32_t ivx_choose(const ivx *v, abp_dlx_order order) {
    int32_t best = -1;
    if (order == ABP_DLX_LOW) {
        int64_t lk = INT64_MAX;
        for (int32_t i = 0; i < v->in->P; i++) {
            if (v->done[i]) continue;
            int64_t r = v->in->row_at[i], e = v->in->row_at[i + 1];
            r = ivx_live_from(v, i, r);
            int64_t k = r < e ? v->in->key[r] : INT64_MAX;
            if (best < 0 || k < lk) best = i, lk = k;
        }
        return best;
    }
    for (int32_t i = 0; i < v->in->P; i++) {
        if (v->done[i]) continue;
        if (best < 0) {
            best = i;
            if (order == ABP_DLX_STATIC) break;
        } else if (fewer_per_weight(v->alive[i], v->in->h[i], v->alive[best], v->in->h[best])) {
            best = i;
        }
    }
    return best;
}

/* ---- order=canon (exact_cover.c, C) ---------------------------------------------
 *
 * The unplaced columns are placed one at a time in nondecreasing key order,
 * each at its FLOOR: its first row at or above both the level x (the key
 * placed last) and raw[j], the top of the placed rows it meets (or the key
 * of the placed twin before it plus one, if higher). Every row of j at or
 * above raw[j] is live (a placed row it meets starts at or below x and ends
 * at or below raw[j]; the twin chain stays increasing) and the rows below x
 * are out of the search: so the live rows of j are a suffix of its keys,
 * from lb[j], and the short group test reads them from there (ivx_runs).
 * No kill tree is kept. */

/* Column j's floor row (its end when none). */
static int64_t canon_floor(const ivx *v, int32_t j) {
    const abp_ivx_in *in = v->in;
    int64_t lo = v->x > v->raw[j] ? v->x : v->raw[j];
    const int64_t *k = in->key + in->row_at[j];
    return in->row_at[j] + (int64_t)ab_count_lt(k, (size_t)(in->row_at[j + 1] - in->row_at[j]), lo);
}

/* Whether column j may be branched on: its twin before it is placed (D3)
 * and its floor has not been passed over since it was last raised (D5). */
static bool canon_candidate(const ivx *v, int32_t j) {
    int32_t a = v->in->tprev[j];
    return !v->done[j] && (a < 0 || v->done[a]) && v->fl0[j] >= v->x;
}

/* Places column i at key y (the level rises to y): raw, F and the floors of
 * the unplaced columns follow. False on a dead end (a column without a row,
 * or a short group); v->oom set when the trail could not grow. */
static bool canon_place(ivx *v, int32_t i, int64_t y) {
    const abp_ivx_in *in = v->in;
    v->done[i] = true;
    ivx_demand(v, i, -in->h[i]);
    v->placed[i] = y;
    v->x = y;
    bool dead = false;
    v->now++;
    for (int32_t g = in->g0[i]; g <= in->g1[i]; g++) v->gmark[g] = v->now; /* its demand left */
    for (int32_t j = 0; j < in->P; j++) {
        if (v->done[j]) continue;
        /* raw[j] also keeps j's twin chain increasing: above its
         * predecessor's key, once that is placed */
        int64_t top = ivx_meets(in, i, j) ? y + in->h[i] : -1;
        if (in->tprev[j] == i && y + 1 > top) top = y + 1;
        bool raised = top > v->raw[j];
        int64_t old = v->raw[j];
        if (raised) v->raw[j] = top;
        int64_t lb = canon_floor(v, j);
        if (raised || lb != v->lb[j]) {
            if (!ab_grow((void **)&v->trail, &v->trail_cap, v->ntrail + 1, sizeof *v->trail)) {
                v->raw[j] = old;
                v->oom = true;
                return false;
            }
            v->trail[v->ntrail++] = (canon_undo){j, old, v->fl0[j], v->lb[j]};
        }
        if (lb != v->lb[j]) /* fewer live rows: the groups it spans are tested again */
            for (int32_t g = in->g0[j]; g <= in->g1[j]; g++) v->gmark[g] = v->now;
        v->lb[j] = lb;
        if (lb == in->row_at[j + 1]) {
            dead = true; /* j has no row left */
            continue;
        }
        if (raised) v->fl0[j] = in->key[lb]; /* F: its floor after this raise */
    }
    /* every group passed at the node before; only those whose demand or
     * rows changed can fail now */
    for (int32_t g = 0; g < in->G && !dead; g++)
        if (v->gmark[g] == v->now) dead = ivx_short(v, g);
    return !dead;
}

/* Undoes canon_place of the frame's column, back to level ox and trail mark. */
static void canon_unplace(ivx *v, const canon_frame *f) {
    while (v->ntrail > f->mark) {
        canon_undo u = v->trail[--v->ntrail];
        v->raw[u.j] = u.raw;
        v->fl0[u.j] = u.fl0;
        v->lb[u.j] = u.lb;
    }
    v->x = f->ox;
    v->placed[f->i] = -1;
    ivx_demand(v, f->i, v->in->h[f->i]);
    v->done[f->i] = false;
}

/* Whether no unplaced column meets column i (D4). */
static bool canon_lone(const ivx *v, int32_t i) {
    for (int32_t j = 0; j < v->in->P; j++)
        if (j != i && !v->done[j] && ivx_meets(v->in, i, j)) return false;
    return true;
}

/* The state of the node for the memo: its unplaced columns (stamped) with
 * their floor rows in lb (kept for the node: canon_unplace restores it), ids
 * in ngid. */
static abp_ng_view canon_view(ivx *v) {
    uint64_t h = 0;
    size_t n = 0;
    v->serial++;
    for (int32_t j = 0; j < v->in->P; j++) {
        if (v->done[j]) continue;
        v->ngs[j] = v->serial;
        v->ngid[n] = j;
        h += abp_ng_item((uint64_t)j);
        n++;
    }
    return (abp_ng_view){.val = v->lb, .stamp = v->ngs, .serial = v->serial, .n = n,
                         .h = abp_ng_hash_end(h, n)};
}

/* The search, a frame per placed column (fr: P of them). */
static abp_dlx_result ivx_canon(ivx *v, abp_dlx_budget *b, canon_frame *fr, int64_t *keys) {
    const abp_ivx_in *in = v->in;
    int32_t P = in->P, level = 0;
    canon_frame *f;
enter:
    if (level == P) {
        for (int32_t i = 0; i < P; i++) keys[i] = v->placed[i];
        return ABP_DLX_FOUND;
    }
    f = &fr[level];
    if (in->memo != NULL && v->ngs != NULL && P - level >= 2) { /* (C) N1: refuted before */
        abp_ng_view nv = canon_view(v);
        if (abp_ng_refuted(in->memo, &nv, 0)) goto cut;
    }
    /* D1's thresholds: the two least tops of candidates at their floors (a
     * floor exists: canon_place saw to it, the root has every column's) */
    f->m1 = f->m2 = INT64_MAX;
    f->a1 = -1;
    for (int32_t j = 0; j < P; j++) {
        if (!canon_candidate(v, j)) continue;
        int64_t t = in->key[canon_floor(v, j)] + in->h[j];
        if (t < f->m1) f->m2 = f->m1, f->m1 = t, f->a1 = j;
        else if (t < f->m2) f->m2 = t;
    }
    f->py = -1, f->pj = -1;
next: /* the next candidate after (py, pj) in (floor key, column) order */
    f->i = -1;
    for (int32_t j = 0; j < P; j++) {
        if (!canon_candidate(v, j)) continue;
        int64_t k = in->key[canon_floor(v, j)];
        if (k < f->py || (k == f->py && j <= f->pj)) continue;
        if (f->i < 0 || k < f->y) f->i = j, f->y = k;
    }
    if (f->i < 0) goto back;
    if ((f->i == f->a1 ? f->m2 : f->m1) <= f->y) goto back; /* D1: this one and every later one */
    if (!spend(b)) return ABP_DLX_BUDGET;
    f->mark = v->ntrail;
    f->ox = v->x;
    if (canon_place(v, f->i, f->y)) {
        level++;
        goto enter;
    }
    if (v->oom) return ABP_DLX_BUDGET;
    canon_unplace(v, f);
    goto failed;
back: /* no candidate of this level is left: back to the one below */
    if (in->memo != NULL && v->ngs != NULL && P - level >= 2) { /* (C) N1: remember it */
        abp_ng_view nv = canon_view(v);
        abp_ng_insert(in->memo, &nv, v->ngid, 0);
    }
cut:
    if (level == 0) return ABP_DLX_NONE;
    f = &fr[--level];
    canon_unplace(v, f);
failed: /* f's candidate failed */
    if (canon_lone(v, f->i)) goto back; /* D4: the later ones are cut */
    f->py = f->y, f->pj = f->i;
    goto next;
}

abp_dlx_result abp_ivx_search(const abp_ivx_in *in, abp_dlx_order order, abp_dlx_budget *b,
                              int64_t *keys, bool *oom) {
    *oom = false;
    if (in->P == 0) return ABP_DLX_FOUND;
    ivx v;
    bool late;
    if (!ivx_init(&v, in, b, order != ABP_DLX_CANON, &late)) {
        ivx_free(&v);
        *oom = true;
        return ABP_DLX_BUDGET;
    }
    if (late) {
        ivx_free(&v);
        b->out = true;
        return ABP_DLX_BUDGET;
    }
    abp_dlx_result res = ABP_DLX_NONE;
    bool dead = false;
    for (int32_t i = 0; i < in->P && !dead; i++) dead = v.alive[i] == 0;
    v.now++;
    for (int32_t g = 0; g < in->G && !dead; g++) dead = ivx_short(&v, g);
    if (dead) goto done;
    if (b->out) {
        res = ABP_DLX_BUDGET;
        goto done;
    }
    if (order == ABP_DLX_CANON) {
        size_t P = (size_t)in->P;
        v.lb = ab_alloc_array(P + 1, sizeof *v.lb);
        v.raw = ab_calloc(P + 1, sizeof *v.raw);
        v.fl0 = ab_alloc_array(P + 1, sizeof *v.fl0);
        v.runs_lb = ab_alloc_array(P + 1, sizeof *v.runs_lb);
        v.gmark = ab_calloc((size_t)in->G + 1, sizeof *v.gmark);
        if (!v.lb || !v.raw || !v.fl0 || !v.runs_lb || !v.gmark) {
            ivx_free(&v);
            *oom = true;
            return ABP_DLX_BUDGET;
        }
        if (in->memo != NULL) { /* without them (out of memory) it searches without the memo */
            v.ngs = ab_calloc(P + 1, sizeof *v.ngs);
            v.ngid = ab_alloc_array(P + 1, sizeof *v.ngid);
            if (!v.ngs || !v.ngid) ab_free(v.ngs), ab_free(v.ngid), v.ngs = v.ngid = NULL;
        }
        for (int32_t i = 0; i < in->P; i++) {
            v.runs_lb[i] = -1;
            v.lb[i] = in->row_at[i];
            v.fl0[i] = in->key[in->row_at[i]]; /* F at the root: its first row (it has one) */
        }
        canon_frame *fr = ab_alloc_array(P + 1, sizeof *fr);
        if (fr == NULL) {
            ivx_free(&v);
            *oom = true;
            return ABP_DLX_BUDGET;
        }
        res = ivx_canon(&v, b, fr, keys);
        ab_free(fr);
        *oom = v.oom;
        goto done;
    }
    int32_t level = 0, c;
    int64_t x;
choose_column:
    c = ivx_choose(&v, order);
    if (c < 0) {
        for (int32_t l = 0; l < level; l++) keys[v.sc[l]] = in->key[v.sx[l]];
        res = ABP_DLX_FOUND;
        goto done; /* the scratch is dropped: nothing to restore */
    }
    v.done[c] = true;
    ivx_demand(&v, c, -in->h[c]);
    x = in->row_at[c];
try_row:
    for (x = ivx_live_from(&v, c, x); x < in->row_at[c + 1] && !ivx_twin_ok(&v, c, in->key[x]);)
        x = ivx_live_from(&v, c, x + 1);
    if (x == in->row_at[c + 1]) goto backtrack;
    if (!spend(b)) {
        res = ABP_DLX_BUDGET;
        goto done;
    }
    ivx_apply(&v, c, x, 1);
    v.placed[c] = in->key[x];
    if (ivx_dead(&v, c)) {
        ivx_apply(&v, c, x, -1);
        v.placed[c] = -1;
        x++;
        goto try_row;
    }
    v.sc[level] = c;
    v.sx[level++] = x;
    goto choose_column;
backtrack:
    v.done[c] = false;
    ivx_demand(&v, c, in->h[c]);
    if (level == 0) goto done;
    c = v.sc[--level];
    x = v.sx[level];
    ivx_apply(&v, c, x, -1);
    v.placed[c] = -1;
    x++;
    goto try_row;
done:
    ivx_free(&v);
    return res;
}
