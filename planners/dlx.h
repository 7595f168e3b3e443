/*
 * dlx.h — Knuth's Algorithm X with dancing links (TAOCP 7.2.2.1; "Dancing
 * Links", 2000), the engine of planner `exact-cover` (exact_cover.c).
 *
 * The matrix has primary columns, each to be covered exactly once, and
 * secondary columns, each covered at most once. A row covers one primary
 * column and a set of secondary columns, and carries a key (exact_cover.c:
 * primary = tensor, secondary = (instruction, memory breakpoint),
 * key = offset). A secondary column belongs to a group and has a width (the
 * bytes of its interval; 1 for a unit cell).
 *
 * Layout (Knuth's DLX1): one array of nodes {up, down, col}. Node 0 is the
 * root of the list of uncovered primary columns; nodes 1..P are the primary
 * headers, P+1..P+S the secondary headers; then the rows, each a run of
 * consecutive nodes, its primary node first, with a spacer node before every
 * row and after the last. A spacer has col <= 0 (minus the number of the row
 * after it), up = the first node of the row before it and down = the last
 * node of the row after it, so a row is walked cyclically without a link to
 * its left and right neighbours: 12 bytes per node.
 *
 * Besides the links, the search keeps two counters that cut dead branches
 * early; both only ever refute a branch that has no cover below it:
 *   - zero: uncovered primary columns with no row left (X's usual dead end,
 *     caught when it happens rather than when the column is chosen);
 *   - short: groups g (exact_cover.c: instructions) where the width still
 *     coverable, live[g] = the sum of the widths of the uncovered secondary
 *     columns of group g with a row left, is below demand[g] = the sum of
 *     the weights of the uncovered primary columns whose group range holds g
 *     (the heights of the unplaced tensors live at g). It is sound when every
 *     row of a primary column covers, in each group of the column's range,
 *     secondary columns whose widths sum to at least its weight (exact_cover.c:
 *     a row's breakpoints at that instruction, each as wide as the distance
 *     to the next). Then in any cover below the current node, the remaining
 *     primary columns take pairwise disjoint sets of columns of group g, each
 *     uncovered now and each with a row left (the chosen one), of total
 *     width at least demand[g]: so live[g] >= demand[g] is necessary.
 *
 * Twins (primary columns whose rows are interchangeable, see exact_cover.c)
 * form chains; the keys chosen along a chain must increase, so only one of
 * the k! equivalent orders of k twins is searched.
 *
 * Ownership: abp_dlx_new_cols returns a matrix owned by the caller, freed with
 * abp_dlx_free (NULL accepted). Nothing here prints or allocates during the
 * search.
 */
#ifndef AB_DLX_H
#define AB_DLX_H

#include <stdint.h>

#include "core/ab.h"

/* The most nodes a matrix may hold: node indices are int32_t. */
#define ABP_DLX_MAX_NODES ((int64_t)INT32_MAX - 2)

typedef struct abp_dlx abp_dlx;

/* What the search is allowed to spend, shared by successive searches. */
typedef struct abp_dlx_budget {
    int64_t nodes;       /* search nodes spent so far (rows tried), updated */
    int64_t max_nodes;   /* stop when nodes reaches it; <= 0: no limit */
    double deadline;     /* process CPU seconds (abp_dlx_now); <= 0: no limit */
    bool out;            /* set when a limit stopped a search */
    /* internal, zero to start: the clock is read every `every` nodes, fewer
     * as nodes get cheaper (at most 64), each node when they are slow */
    int64_t every, next_check;
    double last_check;
} abp_dlx_budget;

typedef enum abp_dlx_result {
    ABP_DLX_FOUND,   /* a cover: abp_dlx_search filled keys */
    ABP_DLX_NONE,    /* refuted: the matrix has no cover */
    ABP_DLX_BUDGET   /* the budget ran out first */
} abp_dlx_result;

/* Column choice at each level: the first uncovered primary column in the
 * order they were numbered (a static order), or the one with the fewest rows
 * left per unit of weight (weights below 1 count as 1; ties: the first in
 * that order). */
typedef enum abp_dlx_order { ABP_DLX_STATIC, ABP_DLX_MRV, ABP_DLX_LOW, ABP_DLX_CANON } abp_dlx_order;

/* Bytes a matrix for nsecondary secondary columns in ngroups groups takes
 * (what abp_dlx_new_cols allocates), for a memory estimate made before
 * building it; INT64_MAX when a count is too large for the matrix (more than
 * ABP_DLX_MAX_NODES nodes). */
int64_t abp_dlx_bytes_cols(int64_t nprimary, int64_t nsecondary, int64_t ngroups, int64_t nrows,
                           int64_t nnodes);

/* A matrix for nprimary primary columns and nsecondary secondary columns in
 * ngroups groups, with room for exactly nrows rows of nnodes nodes in all
 * (primary nodes included, spacers not). Every secondary column starts in
 * group 0 with width 1: set each with abp_dlx_secondary before adding rows.
 * Returns NULL on OOM or when abp_dlx_bytes_cols says the counts are too
 * large. */
abp_dlx *abp_dlx_new_cols(int32_t nprimary, int32_t nsecondary, int32_t ngroups, int64_t nrows,
                          int64_t nnodes);

/* Puts secondary column s (0-based) in group `group` with width `width` >= 1. */
void abp_dlx_secondary(abp_dlx *m, int32_t s, int32_t group, int64_t width);

void abp_dlx_free(abp_dlx *m);

/* Declares primary column i: it covers `weight` cells of each group in
 * [g0, g1] (for the demand counter), and twin_prev / twin_next are the
 * primary columns before and after it in its twin chain, or -1. */
void abp_dlx_primary(abp_dlx *m, int32_t i, int32_t g0, int32_t g1, int64_t weight,
                     int32_t twin_prev, int32_t twin_next);

/* Appends a row covering primary column prim and the nsec secondary columns
 * secs[] (distinct), with key >= 0. Rows of a column are tried in the order
 * they were added. A row beyond the counts given to abp_dlx_new_cols is not added
 * and marks the matrix (abp_dlx_overflowed): a bug of the caller's count. */
void abp_dlx_add_row(abp_dlx *m, int32_t prim, int64_t key, const int32_t *secs, int32_t nsec);

/* true when a row was refused for lack of room. */
bool abp_dlx_overflowed(const abp_dlx *m);

/* Searches for a cover, spending budget b. On ABP_DLX_FOUND, keys[i] is the
 * key of the row chosen for primary column i. The matrix is restored after
 * the search, so it may be searched again. */
abp_dlx_result abp_dlx_search(abp_dlx *m, abp_dlx_order order, abp_dlx_budget *b, int64_t *keys);

/* The process's CPU time in seconds (clock()), for budgets. */
double abp_dlx_now(void);

/* ---- the implicit engine: Algorithm X on interval rows (exact_cover.c, E) ----
 *
 * The same search as abp_dlx_search on the matrix exact_cover.c builds, with
 * its secondary columns left implicit. Primary column i (a tensor) spans the
 * groups [g0[i], g1[i]] and has weight h[i]; its rows are the keys
 * key[row_at[i] .. row_at[i + 1]), increasing, row (i, o) standing for the
 * interval [o, o + h[i]) at every group of i's range. Two rows of different
 * columns exclude each other iff their group ranges meet and their intervals
 * overlap (in the matrix: they share the secondary column (g, max of the two
 * keys) at a common group g). Group g's secondary columns are its breakpoints
 * bp[bp_at[g] .. bp_at[g] + nb[g]) (sorted, distinct; every key of a row
 * spanning g among them), column b having width (the next breakpoint, or H)
 * - b. Placing a row removes the rows it excludes as index ranges of the
 * sorted keys; live[g] (the width of the uncovered columns of g with a row
 * left) is recomputed from the live rows' intervals, so a node costs about
 * the rows of the groups it touches, not the matrix entries. Choices, row
 * order, twins, both dead-end counters and the node count are those of
 * abp_dlx_search, so it visits the same nodes and finds the same cover. */
typedef struct abp_ivx_in {
    int32_t P, G;
    const int32_t *g0, *g1;        /* per primary column: its groups */
    const int64_t *h;              /* per primary column: its weight (interval length) */
    const int32_t *tprev, *tnext;  /* twin chains, or -1 */
    const int64_t *row_at;         /* P + 1 entries */
    const int64_t *key;            /* row_at[P] keys, increasing within a column */
    const int64_t *bp_at;          /* per group: where its breakpoints start in bp */
    const int32_t *nb;             /* per group: how many */
    const int64_t *bp;
    int64_t H;                     /* the canvas height: the last column's end */
    struct abp_ng *memo;           /* order=canon: refuted states kept across its searches of
                                    * these rows (nogood.h), or NULL */
} abp_ivx_in;

/* Bytes abp_ivx_search allocates for these inputs (its scratch), or
 * INT64_MAX when a count is too large (more than ABP_DLX_MAX_NODES rows). */
int64_t abp_ivx_bytes(const abp_ivx_in *in);

/* Searches for a cover, spending budget b; ABP_DLX_FOUND fills keys[i] for
 * every primary column. Returns ABP_DLX_BUDGET with *oom set when its scratch
 * could not be allocated, and with b->out set when b's deadline passed while
 * the scratch was prepared (the clock is read after each group's rows are
 * sorted) or during the search. */
abp_dlx_result abp_ivx_search(const abp_ivx_in *in, abp_dlx_order order, abp_dlx_budget *b,
                              int64_t *keys, bool *oom);

#endif
