/*
 * brute.c — the brute-force optimum of a tiny problem (see brute.h).
 *
 * Method. Fixed tensors are placed first, at their offsets. Then every order
 * of the free tensors is tried; in each order, every tensor goes to the lowest
 * multiple of its align where it overlaps none of the already placed tensors
 * it conflicts with. That lowest offset is found among the candidates
 *     0  and  align_up(o_j + s_j, a_i)  for each placed j conflicting with i,
 * keeping the lowest candidate that overlaps nothing. The answer is the
 * smallest arena over all orders. Orders are explored depth first, sharing
 * prefixes, and a prefix whose arena already reaches the best found is cut
 * (adding tensors never lowers an arena), so no strictly better plan is lost.
 *
 * Why this reaches an optimum (a_i is any integer >= 1; no relation between
 * the aligns of different tensors is assumed):
 *
 * Let P be any valid plan: fixed tensors at their offsets, each free tensor i
 * at p_i, a multiple of a_i. Run the greedy step over the free tensors in
 * increasing p_i (ties in any order), and call its offsets g_i.
 *
 * (1) g_i <= p_i for every free i. By induction over that order: a placed
 * tensor j conflicting with i is either fixed (g_j = p_j, and P is valid, so
 * it does not overlap [p_i, p_i + s_i)), or free with p_j <= p_i. In the
 * latter case i and j conflict and do not overlap in P, and p_j = p_i is
 * impossible (sizes are >= 1), so p_j + s_j <= p_i, and by induction
 * g_j + s_j <= p_j + s_j <= p_i: j lies wholly below p_i. So p_i, a multiple
 * of a_i, is free of every placed conflicting tensor, and the lowest such
 * multiple, g_i, is at most p_i.
 *
 * (2) That lowest free multiple x of a_i is one of the candidates (g_j is
 * the offset of any placed j, fixed or not). Let y be the largest candidate
 * <= x (0 is one). Were y to overlap a placed conflicting j (g_j < y + s_i
 * and y < g_j + s_j), then, x being free, j would lie wholly above x or
 * wholly below it. Above is impossible: g_j >= x + s_i >= y + s_i. Below
 * means g_j + s_j <= x, hence align_up(g_j + s_j, a_i) <= x, as x is a
 * multiple of a_i: a candidate <= x, so <= y, so g_j + s_j <= y, which
 * contradicts y < g_j + s_j. So y is free, and y = x since x is the lowest.
 *
 * Hence the greedy plan for the order of an optimal plan's offsets is valid
 * (each tensor avoids every conflicting tensor placed before it, which covers
 * every conflicting pair) and its arena max(g_i + s_i) is at most the optimal
 * max(p_i + s_i). That order is one of those enumerated, and every enumerated
 * plan is valid, so the minimum over the orders is the optimum. The argument
 * never uses that aligns are powers of two, nor that fixed offsets are aligned.
 */
#include "tests/brute.h"

#include <string.h>

typedef struct brute {
    const ab_problem *p;
    size_t nfree;
    size_t free_idx[ABT_BRUTE_MAX_FREE]; /* the free tensors, in index order */
    bool used[ABT_BRUTE_MAX_FREE];       /* free_idx[k] is placed */
    size_t placed[ABT_BRUTE_MAX];        /* placed tensors, fixed ones first */
    size_t nplaced;
    int64_t off[ABT_BRUTE_MAX];          /* offsets of placed tensors, by tensor index */
    int64_t best;                        /* smallest arena found, -1 before any */
    int64_t best_off[ABT_BRUTE_MAX];
} brute;

static int64_t align_of(const ab_tensor *t) { return t->align < 1 ? 1 : t->align; }

/* true when tensor i at offset x overlaps no placed tensor it conflicts with
 * and x + size fits in int64. */
static bool fits(const brute *b, size_t i, int64_t x) {
    const ab_tensor *ti = &b->p->t[i];
    int64_t xend;
    if (ab_add_ovf(x, ti->size, &xend)) return false;
    for (size_t k = 0; k < b->nplaced; k++) {
        size_t j = b->placed[k];
        const ab_tensor *tj = &b->p->t[j];
        if (!ab_conflict(ti, tj)) continue;
        if (x < b->off[j] + tj->size && b->off[j] < xend) return false;
    }
    return true;
}

/* The lowest aligned offset of tensor i free of the placed tensors it
 * conflicts with, found among the candidates; false when none fits in int64. */
static bool lowest(const brute *b, size_t i, int64_t *out) {
    const ab_tensor *ti = &b->p->t[i];
    int64_t a = align_of(ti);
    bool found = fits(b, i, 0);
    *out = 0;
    if (found) return true;
    for (size_t k = 0; k < b->nplaced; k++) {
        size_t j = b->placed[k];
        const ab_tensor *tj = &b->p->t[j];
        if (!ab_conflict(ti, tj)) continue;
        int64_t top, c;
        if (ab_add_ovf(b->off[j], tj->size, &top) || ab_align_up_ovf(top, a, &c)) continue;
        if (found && c >= *out) continue;
        if (fits(b, i, c)) {
            *out = c;
            found = true;
        }
    }
    return found;
}

/* Places the remaining free tensors in every order; arena is that of the
 * tensors placed so far. */
static void search(brute *b, size_t depth, int64_t arena) {
    if (b->best >= 0 && arena >= b->best) return;
    if (depth == b->nfree) {
        b->best = arena;
        memcpy(b->best_off, b->off, b->p->n * sizeof b->off[0]);
        return;
    }
    for (size_t k = 0; k < b->nfree; k++) {
        if (b->used[k]) continue;
        size_t i = b->free_idx[k];
        int64_t x;
        if (!lowest(b, i, &x)) continue;
        int64_t top = x + b->p->t[i].size; /* fits() checked it */
        b->used[k] = true;
        b->off[i] = x;
        b->placed[b->nplaced++] = i;
        search(b, depth + 1, top > arena ? top : arena);
        b->nplaced--;
        b->used[k] = false;
    }
}

/* Places the fixed tensors; false when two conflicting ones overlap or one
 * overflows. *arena receives their arena. */
static bool place_fixed(brute *b, int64_t *arena) {
    const ab_problem *p = b->p;
    *arena = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->t[i].offset == AB_NONE) continue;
        int64_t x = p->t[i].offset, top;
        if (x < 0 || !fits(b, i, x)) return false;
        top = x + p->t[i].size;
        b->off[i] = x;
        b->placed[b->nplaced++] = i;
        if (top > *arena) *arena = top;
    }
    return true;
}

int64_t abt_brute_optimum(const ab_problem *p, int64_t *offsets_out) {
    if (p->n > ABT_BRUTE_MAX) return -1;
    brute b = {.p = p, .best = -1};
    for (size_t i = 0; i < p->n; i++) {
        if (p->t[i].offset != AB_NONE) continue;
        if (b.nfree == ABT_BRUTE_MAX_FREE) return -1;
        b.free_idx[b.nfree++] = i;
    }
    int64_t arena;
    if (!place_fixed(&b, &arena)) return -1;
    search(&b, 0, arena);
    if (b.best >= 0 && offsets_out != NULL)
        memcpy(offsets_out, b.best_off, p->n * sizeof offsets_out[0]);
    return b.best;
}
