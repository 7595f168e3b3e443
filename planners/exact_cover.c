/*
 * exact_cover.c — planner `exact-cover`: Knuth's Algorithm X with dancing
 * links on the canvas of MinUn (arXiv 2210.16556 §4.3-§5), at coarsening k.
 *
 * THE METHOD. Sizes are rounded up to a multiple of k bytes and counted in
 * units of k (ab_problem_coarsen); offsets are multiples of k. Each tensor is
 * a rectangle: its live range across, its height h (units) up. On a canvas of
 * height H the exact-cover matrix (dlx.h) has a primary column per free
 * tensor, to be covered once, and a row per (tensor i, candidate offset o)
 * with o + h_i <= H. MinUn's paper has a secondary column per cell (t, r) of
 * the canvas, so its size grows with H, i.e. with bytes / gcd. Here the
 * memory axis is cut at breakpoints instead (COMPRESSED COORDINATES):
 *
 *   At each matrix instruction t, the breakpoints B_t are the offsets o of
 *   the rows (i, o) of the tensors live at t. A secondary column is (t, b)
 *   for b in B_t, to be covered at most once, with width w(t, b) = the next
 *   breakpoint above b, or H for the last, minus b. Row (i, o) covers, at
 *   every instruction t of i's range, the columns (t, b) with o <= b <
 *   o + h_i (its own offset among them).
 *
 * LOSSLESS. Fix t and two rows (i, o), (j, p) of tensors live at t. Two
 * ranges [o, o + h_i) and [p, p + h_j) meet iff the later start lies in the
 * other: max(o, p) is in both. It is a breakpoint (o and p both are), so if
 * the ranges meet, both rows cover (t, max(o, p)). Conversely a shared
 * column is a point b in both ranges. So two rows share a secondary column
 * iff their tensors are both live at some matrix instruction and their
 * byte ranges overlap, which is exactly the old cell matrix's condition; a
 * set of rows, one per tensor, is a cover of the breakpoint matrix iff it is
 * a cover of the cell matrix iff (with the fixed tensors, whose overlapping
 * offsets take no row) it is a valid plan of arena <= H with those offsets.
 * The matrix size grows with the rows and breakpoints, never with H: a row
 * has at most |B_t| columns per instruction, whatever the bytes. (Until this
 * version the ends o + h were breakpoints too and a column was an
 * elementary interval between two of them: the same covers with about twice
 * the columns and matrix entries.)
 *
 * THE WEIGHTED BOUND. dlx.c refutes a branch when, at some instruction, the
 * summed width of the uncovered columns that still have a row is below the
 * summed heights of the unplaced tensors live there. Sound: the columns a
 * row (i, o) covers at t are the breakpoints b_1 = o < ... < b_m in
 * [o, o + h_i); their widths sum to (the breakpoint after b_m, or H) - o,
 * which is at least h_i, since no breakpoint lies in (b_m, o + h_i) and
 * o + h_i <= H. In any cover below the node, the unplaced tensors take
 * pairwise disjoint sets of such columns (each uncovered now, each with a
 * row left: the chosen one), of total width at least their summed heights.
 *
 * HEIGHTS. A cover at H stays a cover at every H' > H (rows only grow with
 * H, also under (R7)), and a plan's arena, for candidate offsets, is one of
 * the component's TOPS: o + h_i over its candidates, and the fixed tops. So
 * a height H with no cover refutes every height below the next top above
 * it, and heights between tops are never tried. search=up (default) starts
 * at the max-load bound L (in units) for each component, then bisects over
 * the tops between the highest refuted height and the component's best
 * plan: a refutation raises the bound to the next top, a cover lowers the
 * plan. It ends with the plan at the bound: the optimum for that k.
 * Best-fit (the lowest arena of best-fit in orders start, size and area, run
 * on the same units problem) gives a valid plan of arena U first, and
 * candidates are computed only up to hmax = U - 1 (or the capacity): a
 * component refuted up to hmax leaves best-fit's plan optimal. search=down
 * starts at U - 1 and lowers H below each cover found (anytime) until a
 * height is refuted: the last cover is then optimal. target=capacity asks
 * only whether the tensors fit in the suite's capacity (one height), as
 * MiniMalloc does. With a capacity, heights above it are never tried: when
 * every height up to it is refuted the suite is infeasible, the best plan
 * found (over capacity) is returned, and the checker's over-capacity
 * verdict records "infeasible".
 *
 * PROOFS. At k = 1 every reduction below keeps "a cover exists at height H"
 * for every H, so a refuted height, raised to the next top, is a lower bound
 * of the real problem, reported as stats.lower_bound (in bytes). At k > 1 a
 * refutation only speaks of the coarsened problem: no bound is given.
 *
 * REDUCTIONS (compress=on, the default; compress=off builds the paper's plain
 * form: every instruction from the first start to the last end is a column of
 * cells, no gcd, one matrix). Each keeps, at every height H, the existence of
 * a cover (so the optimum and every refutation), though not every optimal
 * plan:
 *
 * (R1) gcd scaling. The units problem is divided by its unit g: the gcd of
 *      the sizes and fixed offsets, lowered to gcd(g, a) for each align a
 *      that neither divides g nor is a multiple of it, until every align
 *      does one or the other. It is a multiple of ab_problem_unit (which
 *      takes every align above 1 and the capacity into the gcd; also
 *      lossless, but sizes of 1024 B aligned to 16 B give it 16, not 1024).
 *      Proof: in a gravity plan (R4) every offset is 0, a fixed offset, or
 *      align_up(y, a) with y = o_j + s_j a multiple of g (by induction); if
 *      a divides g, y is a multiple of a and align_up(y, a) = y; if g divides
 *      a, the result is a multiple of a, hence of g. So some optimal plan
 *      lies on the g grid, its arena A a multiple of g, and A <= capacity
 *      iff A / g <= floor(capacity / g) (ab_problem_coarsen rounds the
 *      capacity down). In units an align a becomes a / gcd(a, g).
 *
 * (R2) Only instructions where some tensor starts. Two live ranges intersect
 *      iff both contain the later of the two starts (if a.start <= b.start,
 *      they intersect iff b.start <= a.end, i.e. a is live at b.start). So a
 *      plan is valid iff at every start instruction the live tensors are
 *      pairwise disjoint.
 *
 * (R3) Only the starts whose live set is maximal. Let s_1 < ... < s_m be the
 *      distinct starts. If no tensor live at s_i ends before s_{i+1}, every
 *      tensor live at s_i is live at s_{i+1}: live(s_i) is a subset of
 *      live(s_{i+1}), so disjointness at s_{i+1} implies it at s_i, and s_i's
 *      cells can go. A tensor then spans the kept starts inside its range,
 *      which is never empty: its own start s leads, through subsets, to the
 *      first kept start after it, where it is still live.
 *
 * (R4) Gravity offsets (normal patterns). Take any valid plan P of arena <= H
 *      and move the free tensors down one at a time in increasing order of
 *      their offsets in P, each to the lowest multiple of its align that
 *      overlaps no fixed or already moved tensor it conflicts with. The proof
 *      in tests/brute.c shows every tensor lands at or below its place in P
 *      (so the arena stays <= H) and at 0 or at align_up(top of a conflicting
 *      tensor, align). Hence a tensor's offset may be restricted to the set
 *      reachable from 0 and the tops of fixed tensors by steps
 *      o_j -> align_up(o_j + h_j, a_i) along conflicting pairs (j, i): a
 *      least fixed point computed once for the largest height tried, in one
 *      merge of increasing streams, one per directed conflict edge (a step
 *      always goes up, since h_j >= 1), kept as sorted lists: the work is
 *      (offsets found) x (degree) x log, whatever the sizes in bytes. The
 *      set for a lower H is the same set cut at H - h_i, because every
 *      tensor of a chain below i ends at or below i's offset. An offset that
 *      overlaps a fixed tensor i meets, or fails (R7) at hmax, is no landing
 *      place of a gravity plan of arena <= hmax, so it is neither kept nor
 *      followed.
 *
 * (R5) Components. Tensors whose (R3) ranges are linked by overlaps form a
 *      component; no tensor of one conflicts with a tensor of another, so
 *      plans of components combine into a plan whose arena is the largest of
 *      theirs. Each component is its own, smaller matrix, and a height
 *      refuted by one component is refuted for the whole problem.
 *
 * (R6) Twins. Two free tensors of a component with the same height, align
 *      and (R3) range are interchangeable: swapping their offsets maps valid
 *      plans to valid plans of the same arena (their reachable offset sets of
 *      (R4) are equal by symmetry, and they meet the same fixed tensors). Two
 *      twins never share an offset (they conflict), so chains of twins take
 *      increasing offsets in rank order, cutting k! equivalent orders to one.
 *
 * (R7) The split filter. In any valid plan of arena <= H, at a kept start t
 *      where i is live, every other tensor live at t conflicts with i, so it
 *      lies wholly below o or wholly above o + h_i: those below sum to s <= o
 *      and those above to load_t - h_i - s <= H - o - h_i. So some subset
 *      sum s of the others' heights at t lies in [o - (H - load_t), o]. A
 *      row failing this at some t is in no cover, and is dropped (at every
 *      H; also at hmax inside (R4)). Subset sums are kept per (tensor, kept
 *      start) up to 4096 of them (above that the filter is off there, which
 *      is always sound). With H close to the max-load bound it leaves few
 *      offsets per tensor. It is symmetric in twins (R6).
 *
 * (R8) Cliques by dynamic programming. A component whose (R3) ranges pairwise
 *      meet (a clique; by the Helly property of intervals, iff its latest
 *      start is at or before its earliest end), with no fixed tensor and at
 *      most 20 tensors, is solved without a matrix. In a valid plan its
 *      tensors pairwise conflict, so they are disjoint intervals of memory;
 *      order them by offset, i_1, ..., i_n. Lowering each in turn to
 *      align_up(top of the one below, a) (0 for the first) keeps the order
 *      and the plan valid, and by induction puts every tensor at or below
 *      its place (the top below is at or below its old one, align_up is
 *      monotone and the old offset was aligned and above it), so the top of
 *      this stack is at most the plan's arena. So the optimum is the least
 *      top of a stack over the orders of the tensors. With DP({}) = 0 and
 *      DP(S) = min over i in S of align_up(DP(S \ {i}), a_i) + h_i, DP(S) is
 *      the least top of a stack of S: a stack of S ending in i tops at
 *      align_up(top of its stack of S \ {i}, a_i) + h_i, which is monotone in
 *      that top, so the least top for S ending in i comes from the least top
 *      of S \ {i} (keeping one minimum per subset loses nothing). DP(all) is
 *      the component's optimum, a stack reaching it is rebuilt from the
 *      minimizing i per subset, and a cover exists at height H iff H >=
 *      DP(all): its tops are {DP(all)}, its floor DP(all), and a refutation
 *      of a lower H is the DP's minimum (at k = 1, a proof). It enters the
 *      searches as a component that has a cover exactly from DP(all) up (so
 *      target=capacity fits iff DP(all) <= capacity, and the others combine
 *      with it as (R5) says); its n 2^n steps are charged as building, and
 *      a table above mem= (9 B per subset) leaves it to the matrix.
 *
 * (R9) Aligned stacks of kept starts. The free tensors of a component live
 *      at a kept start pairwise conflict; in any plan, taken in offset order
 *      and lowered each to align_up(top of the one below, a) (0 for the
 *      first), they form a stack no higher than the plan's arena (the
 *      argument of R8). So the least top of such a stack, DP(all) of (R8)
 *      over those tensors, is a height below which the component has no
 *      cover: it raises the component's floor. Computed where at most 18
 *      free tensors are live and the aligns can lift the stack above the
 *      floor (load + sum of (a - 1) above it); fixed tensors are left out,
 *      which only weakens it. Its 2^n x n steps are charged as building. It
 *      keeps every cover (it removes no row), so it is lossless, and at
 *      k = 1 the floor is a lower bound of the real problem.
 *
 * (R10) Aligned splits of kept starts. R7 with the aligns: in a valid plan of
 *      arena <= H, at a kept start t where free tensor i is live at offset
 *      o, the other free tensors live at t split into B, wholly below o, and
 *      A, wholly at or above o + h_i. Lowered in offset order as in R8, B
 *      from 0 and A from the base o + h_i, each lands at or below its place,
 *      so DL(B), the least top of a stack of B from 0, is <= o, and the least
 *      top of a stack of A from o + h_i is <= H. From a base b, aligning to
 *      a divisor of the lcm l of their aligns commutes with moving the base
 *      by a multiple of l, so that top is b + U_r(A), r = b mod l, where
 *      U_r(A) = D_r(A) - r and D_r is R8's table started at r. So a row
 *      (i, o) is kept at H only when some split of the others has DL(B) <= o
 *      and o + h_i + U_r(A) <= H. Computed at the kept starts where at most
 *      EC_ASTACK_MAX free tensors are live, the lcm of their aligns is at
 *      most EC_ASTACK_LCM and the aligns can lift a stack above the floor,
 *      as a Pareto front of (DL(B), U_r(A)) per tensor and residue; fixed
 *      tensors are left out, which only weakens it. It implies R7's test
 *      for the free tensors (DL(B) >= the sum of B, U_r(A) >= the sum of A).
 *      It removes rows that are in no cover, so at each H a cover exists iff
 *      one did. Where R9 makes H the least aligned stack of a kept start,
 *      R10 leaves its tensors only the offsets of its least stacks.
 *
 * (X) Column orders. Algorithm X is exact whatever primary column it
 *      branches on, so a height may be decided by any order: order=mrv (the
 *      fewest rows per unit of height), low (the tensor whose lowest row is
 *      lowest: the bottom-up order of gravity plans) or area (the static
 *      order); canon (C, below) is a complete search of its own on the same
 *      rows. order=mix, the default, runs mrv and canon in turn at each
 *      height (on engine=links, which has no canon: mrv, low and area), each
 *      from scratch under a node limit that doubles every round, until one
 *      finishes (a cover, or a refutation); a run cut by its limit decides
 *      nothing. Every node of every run counts against the budget. The
 *      orders fail on different suites, so the mix is robust where each one
 *      alone is not. canon's rounds get four times the nodes (its nodes are
 *      cheaper).
 *
 * (C) order=canon: the canonical search (MiniMalloc's; planner canonical's
 *      C0-D5) on the rows of the matrix, in the intervals engine (dlx.c).
 *      At a node, S is the placed tensors with their rows and x the key
 *      placed last (0 at the root); for an unplaced j, raw(j) is the highest
 *      top (key + height) of the placed rows of tensors j meets, or the key
 *      of its placed twin predecessor + 1 if higher (twin keys increase
 *      along a chain; 0 if none), and its FLOOR f(j) is its first row with
 *      key >= max(x, raw(j)). A COMPLETION of a node is a cover holding S's
 *      rows in which every unplaced tensor's row has key >= x. A placed row
 *      that j meets starts
 *      at or below x and ends at or below raw(j), so every row of j from
 *      f(j) on is compatible with S, and in a completion j takes one of
 *      them: the short-group test over those rows (and no tensor without
 *      one) cuts only nodes with no completion.
 *      (C0) The plain search (branch on which unplaced tensor goes next, at
 *      its floor) is complete. Let a node have a completion P and i be the
 *      unplaced tensor whose row in P has the least key o_i (ties: lowest
 *      index). Each placed row c that i meets starts at or below x <= o_i
 *      and misses i's row, so o_i >= key_c + h_c: o_i >= raw(i) and f(i)
 *      <= o_i. Moving i to the row f(i) keeps P a cover: it is compatible
 *      with S, and an unplaced j that i meets has o_j >= o_i + h_i >= f(i) +
 *      h_i. That cover is a completion of the child "i at f(i)" (the others
 *      lie at >= o_i >= f(i)). By induction the search reaches a cover from
 *      every node with a completion, and the root has one iff H is feasible.
 *      Twins: a twin is branched on only when the twin before it in its
 *      chain is placed (D3); in a cover with keys increasing along chains
 *      the least unplaced tensor's predecessor has a smaller key, so it is
 *      placed, o_i >= raw(i) still holds, and f(i) > the predecessor's key
 *      keeps the chain increasing (its successor lies above o_i). Placing
 *      the predecessor counts as a raise of raw(i) below (D5).
 *      Among the paths of the plain search that reach a cover take sigma,
 *      the least in the lexicographic order of their (key, index)
 *      sequences. Each rule below, where sigma passes, would exhibit a
 *      smaller such path, so none cuts sigma: a height is found feasible iff
 *      it is, and a refutation is a proof.
 *      (D1) Branch i at y = f(i) is cut (and every later candidate, whose
 *      floors are >= y) when another candidate c has f(c) + h_c <= y. If
 *      sigma placed i there, every tensor placed after it lies at >= y in
 *      its cover, c included; moving c to f(c) is compatible with S and
 *      with all of them, and gives a completion of the node in which c is
 *      the unique least unplaced tensor, at f(c) < y: by C0 a path through
 *      "c at f(c)", smaller.
 *      (D4) Candidates are tried in (floor, index) order. Once the branch of
 *      a candidate b that no unplaced tensor meets has failed, the later
 *      ones are cut: a path of sigma through a later candidate c puts every
 *      unplaced tensor at >= f(c) >= f(b), and moving b to f(b) (it meets
 *      none of them) gives a completion of "b at f(b)", a smaller path.
 *      (D5) F(j) is j's floor at the node just after the last placement
 *      that raised raw(j) (the root's for none): f(j) = F(j) while x <=
 *      F(j). Branch c is cut when F(c) < x. If sigma placed c next, let N
 *      be the last node of its path with x_N <= F(c); the tensor it placed
 *      after N lies at x' > F(c). The tensors placed since N that meet c
 *      would have raised raw(c) (they lie above F(c) >= raw(c)), so there
 *      are none; those sigma places after c that meet it lie at >= f(c) +
 *      h_c. So c moves to F(c), its floor at N, giving a completion of N
 *      in which c is the unique least unplaced tensor: by C0 a path through
 *      "c at F(c)" at N, smaller than sigma's x' there.
 *      (N1) canon remembers the nodes it refuted (planner canonical's N1,
 *      in planners/nogood.h). A completion of a node gives each unplaced j
 *      one of its rows from f(j) on (see above), pairwise compatible, keys
 *      increasing along the twin chains among them: the placed rows enter
 *      only through f. So the unplaced tensors with their floor rows
 *      decide whether a node has one, and a node with the same tensors and
 *      floor rows at least as high has none when that one has none. A node
 *      whose candidates were all tried (no cover, no budget stop) has no
 *      completion: otherwise sigma, which no rule cuts, would not pass
 *      through it (there the search ends with a cover), and at the deepest
 *      node both paths share, candidates go in (floor, index) order, the
 *      lexicographic order of the paths: if sigma's came first the search
 *      ended before this node, and if this node's came first a path through
 *      it is smaller than sigma. So a node whose tensors the memo holds
 *      with floor rows <= its own is cut at once. The memo lives as long as
 *      the rows (one component at one height), across the mix's rounds, in
 *      at most half of what mem= leaves (144M at most); learn=off turns it
 *      off. canon keeps no kill tree: the live rows of j are its rows from
 *      f(j) on, a suffix, found by a binary search.
 *
 * (E) THE INTERVALS ENGINE (engine=intervals; auto takes it for order=mix
 *      and canon, which only it runs, and otherwise when the matrix would
 *      hold more than EC_IVX_RATIO = 4 entries per (row, instruction) pair;
 *      engine=links forces the matrix). A node of dancing links costs
 *      the entries of the rows it hides, and a row holds every breakpoint
 *      under it, so large rows make every node dear. dlx.c's
 *      abp_ivx_search runs the same search with the secondary columns left
 *      implicit: a row (i, o) is the interval [o, o + h_i) over i's groups.
 *      It is the same search, node for node:
 *      - Exclusion. By LOSSLESS above, two rows of different tensors share a
 *        column iff their tensors are both live at some matrix instruction
 *        and their intervals overlap. Covering row (c, o) hides exactly the
 *        rows sharing a column with it, i.e. for each unplaced j meeting c
 *        the rows with p in (o - h_j, o + h_c): a contiguous index range of
 *        j's increasing keys. The engine counts, per row, the placed rows
 *        excluding it, so a row is live iff dancing links has it linked.
 *      - The zero counter: a tensor's live rows are its column's length.
 *      - The weighted bound. At group g, an uncovered column with a row left
 *        is a breakpoint under some live row of an unplaced tensor spanning
 *        g (a live row lies clear of every placed row there, so all its
 *        columns are uncovered), and conversely. Under a maximal run [x, y)
 *        of overlapping live intervals lie the breakpoints of [x, y), x
 *        first (a key); their widths telescope to (the first breakpoint >=
 *        y, or H) - x, and runs do not share columns (the next run starts at
 *        a breakpoint >= y). So the engine's live[g], the sum over the runs,
 *        is dancing links' live[g]; demand[g] is the same sum of heights.
 *        After a row is placed only the groups of c and of the unplaced
 *        tensors meeting c can change, the others having passed the test at
 *        the parent; those are the groups it tests (a scan stops as soon as
 *        the runs reach the demand).
 *      - Choices. Columns are taken in the same order (the first, or the
 *        fewest live rows per unit of height, ties to the lower rank), rows
 *        lowest key first (dancing links relinks a row where it was, so a
 *        column keeps the order rows were added: increasing offsets), twins
 *        by the same test, and each row tried is one node of the same budget.
 *      So both find the same cover or refutation after the same nodes (tests:
 *      4,000 random interval problems compared node for node, both orders,
 *      with and without budgets). A node costs the tensors it meets, the rows
 *      it excludes and the scans of the groups it touches, not the matrix; no
 *      matrix is built (building is charged a step per row and per (row,
 *      instruction) pair, never more than the links engine's step per row and
 *      per entry).
 *
 * Search order: order=mrv takes the tensor with the fewest
 * rows left per unit of height (rows / h, compared exactly; ties in the area
 * order); order=area (the paper's) takes tensors by decreasing rectangle area
 * h x (end - start + 1), ties by larger h, earlier start, lower index. MRV is
 * the default since it proved more suites than area, whose static order
 * missed covers at the bound. Per unit of height since a tiny tensor in a
 * slack section has few rows left yet rarely decides anything: taken first,
 * it has every refutation below retried under each of its offsets. Any
 * choice of column keeps Algorithm X exact. Rows are tried lowest offset
 * first. Besides X's own dead
 * ends, dlx.c refutes a branch by THE WEIGHTED BOUND above.
 *
 * BUDGETS hold while anything is built, not only during the search.
 * nodes=N counts search nodes (rows tried) plus one node per 1024 steps of
 * building (an offset reached, a subset sum, a breakpoint, a matrix entry
 * counted or written): deterministic. time=S is process CPU time (clock()),
 * read before every charged node and every search node batch. mem=B
 * (default 2 GiB, or the process's RLIMIT_AS if lower) bounds what is held
 * at once: candidate lists, subset sums, tops, and each matrix, counted
 * exactly before it is allocated. Whatever stops it (nodes, time, or mem,
 * at any height, in any phase) the planner returns AB_OK with the best valid
 * plan found (components solved so far combined with best-fit's plan for the
 * rest; best-fit's plan at least), not marked proven, with the bound proven
 * so far at k = 1 (the max-load bound at least); the note says which budget,
 * at which height, and whether it was building or searching.
 *
 * FIXED OFFSETS at k > 1 must be multiples of k (the coarsened problem has no
 * other offsets): otherwise the planner fails with AB_EINPUT, naming the
 * tensor and the k that would do.
 *
 * Offsets returned are bytes: units x (k x g). Determinism: every order is
 * total, nothing is random; only time= makes the stopping point vary.
 * compress=off keeps the paper's plain form on the same interval matrix:
 * every aligned offset is a candidate and every instruction a group, so its
 * size still grows with bytes / k (mem= stops it from counts alone).
 *
 * Measured figures (nodes, seconds, suites proven) for the choices above are
 * in bench/README.md, "Figures formerly in the solvers' opening comments".
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/sort.h"
#include "planners/dlx.h"
#include "planners/nogood.h"
#include "planners/planner.h"

__extension__ typedef __int128 i128;

enum { EC_ENGINE_AUTO, EC_ENGINE_LINKS, EC_ENGINE_INTERVALS }; /* the words of engine= */

typedef struct ec_opts {
    int64_t k;
    abp_dlx_order order;
    bool mix;        /* order=mix: a portfolio of orders (X) */
    bool down;       /* search=down */
    bool compress;
    bool target;     /* target=capacity */
    bool learn;      /* learn=on: canon remembers refuted nodes (C, N1) */
    int engine;      /* EC_ENGINE_*: engine=auto, links or intervals */
    double time_s;   /* <= 0: none */
    int64_t nodes;   /* <= 0: none */
    int64_t mem;     /* bytes for a matrix */
} ec_opts;

typedef struct ec_tensor {
    int64_t h, a;          /* height and align, in units */
    int64_t fixed;         /* fixed offset in units, or AB_NONE */
    int32_t cts, cte;      /* range over the kept starts (R2, R3) */
    int32_t mts, mte;      /* range over the matrix's time columns */
    int32_t comp;
    int32_t rank;          /* position among its component's free tensors */
    int32_t tprev, tnext;  /* twins, as ranks in the component, or -1 */
    int64_t *cand;         /* candidate offsets (R4; compress=off: every aligned one), */
    int64_t ncand;         /* increasing, <= hmax - h, clear of the fixed tensors met */
    size_t cand_cap;
    int64_t *ss;           /* (R7) per kept start j of its range: subset sums of the */
    int64_t *ss_at;        /* others live there, ss[ss_at[2j] .. ss_at[2j+1]); -1: none */
} ec_tensor;

typedef struct ec_comp {
    int32_t t0, t1;        /* matrix time columns */
    int32_t c0, c1;        /* kept starts */
    size_t first;          /* members[first ..]: free tensors by rank, then fixed */
    size_t nfree, nfixed;
    int64_t lb;            /* max-load and fixed tops in it, units */
    int64_t arena;         /* of its tensors in the current best plan */
    int64_t *tops;         /* where its arena may land: candidate + h, fixed tops */
    size_t ntops;
    int64_t floor;         /* no cover below: the largest lowest top of a tensor */
    int64_t *dp_off;       /* (R8) solved: its optimal plan per rank, units; else NULL */
    int64_t dp;            /* (R8) its optimal height */
} ec_comp;

typedef enum ec_end {
    EC_RUNNING,
    EC_OPTIMAL,     /* refuted every lower height (or met the bound) */
    EC_INFEASIBLE,  /* refuted every height up to the capacity */
    EC_FITS,        /* target=capacity: a plan within it */
    EC_BUDGET,      /* time or nodes ran out */
    EC_MEMORY       /* building would pass mem= */
} ec_end;

/* (R10) per kept start: the aligned splits of its free tensors */
#define EC_ASTACK_MAX 14
#define EC_ASTACK_LCM 64
typedef struct ec_astack {
    int32_t n;                    /* members; 0: no filter at this kept start */
    int64_t lcm;                  /* of their aligns */
    size_t who[EC_ASTACK_MAX];    /* indices in e->t */
    int64_t *fr;                  /* pairs (below, above), see astack_make */
    int64_t *fr_at;               /* per (member, residue): its pairs fr[2 fr_at[q] .. 2 fr_at[q + 1]) */
} ec_astack;

typedef struct ec {
    ec_opts o;
    ab_problem q;          /* the units problem */
    int64_t unit;          /* bytes per unit: k x g */
    int64_t mem_limit;
    size_t n;
    ec_tensor *t;
    size_t *members;
    ec_comp *comp;
    size_t ncomp;
    size_t *comp_order;    /* components by decreasing lb, then index */
    int32_t T;             /* kept starts */
    int64_t lb, ub, cap, hmax;
    int64_t *load;         /* per kept start: the heights live there (saturated) */
    ec_astack *ast;        /* (R10) per kept start, or NULL */
    int64_t *best;         /* current best plan, units */
    abp_dlx_budget budget;
    int64_t lbr;           /* bound proven by refutations: every lower height refuted */
    int64_t heights;       /* matrices built */
    int64_t stop_h;        /* the height being worked on when it stopped */
    int64_t mem_need;      /* the need that stopped it (EC_MEMORY) */
    int64_t held;          /* bytes held by candidates, heights and the matrix */
    int64_t work;          /* building steps not yet charged */
    const char *why_building; /* what was being built when it stopped, or NULL */
    char why[112];         /* why mem= stopped it */
    int64_t *keys;         /* scratch, for the largest component */
} ec;

/* ---- parameters ---------------------------------------------------------------- */

/* The options of opt (resolved against exact_cover_params); AB_EINPUT for
 * order=canon with engine=links. */
static ab_status parse_opts(const ab_params *opt, ec_opts *o, ab_error *err) {
    /* order's words, mix|mrv|low|area|canon, as a column order (mix: its first) */
    static const abp_dlx_order orders[] = {ABP_DLX_MRV, ABP_DLX_MRV, ABP_DLX_LOW, ABP_DLX_STATIC,
                                           ABP_DLX_CANON};
    int ord = ab_param_choice(opt, "order");
    o->k = ab_param_i64(opt, "k");
    o->mix = ord == 0;
    o->order = orders[ord];
    o->down = ab_param_choice(opt, "search") == 1;     /* up|down */
    o->compress = ab_param_choice(opt, "compress") == 0; /* on|off */
    o->target = ab_param_choice(opt, "target") == 1;   /* min|capacity */
    o->learn = ab_param_choice(opt, "learn") == 0;     /* on|off */
    o->engine = ab_param_choice(opt, "engine");        /* auto|links|intervals: EC_ENGINE_* */
    if (o->engine == EC_ENGINE_LINKS && !o->mix && o->order == ABP_DLX_CANON)
        return ab_fail(err, AB_EINPUT,
                       "parameter order: canon runs on the intervals engine only, not engine=links");
    o->time_s = ab_param_has(opt, "time") ? ab_param_seconds(opt, "time") : 0;
    o->nodes = ab_param_has(opt, "nodes") ? ab_param_i64(opt, "nodes") : 0;
    o->mem = ab_param_i64(opt, "mem");
    return AB_OK;
}

/* ---- small helpers --------------------------------------------------------------- */

/* Saturating arithmetic: sums and products of sizes that may reach int64. */
static int64_t sat_add(int64_t a, int64_t b) {
    int64_t r;
    return ab_add_ovf(a, b, &r) ? INT64_MAX : r;
}
static int64_t sat_mul(int64_t a, int64_t b) {
    int64_t r;
    return ab_mul_ovf(a, b, &r) ? INT64_MAX : r;
}

/* v rounded up to a multiple of a; v is a height or offset within a canvas
 * (far below int64). */
static int64_t align_up(int64_t v, int64_t a) { return (v + a - 1) / a * a; }


static bool in_comp_conflict(const ec_tensor *x, const ec_tensor *y) {
    return x->cts <= y->cte && y->cts <= x->cte;
}

/* "1234", "12.3k", "4.5M" into buf. */
static const char *human(char *buf, size_t len, int64_t v) {
    if (v < 10000) snprintf(buf, len, "%lld", (long long)v);
    else if (v < 10000000) snprintf(buf, len, "%.1fk", (double)v / 1e3);
    else if (v < (int64_t)10000000000) snprintf(buf, len, "%.1fM", (double)v / 1e6);
    else snprintf(buf, len, "%.1fG", (double)v / 1e9);
    return buf;
}

/* "512 B", "64.0 KiB", "2.0 GiB" into buf. */
static const char *human_bytes(char *buf, size_t len, int64_t v) {
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double x = (double)v;
    size_t u = 0;
    while (x >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
        x /= 1024;
        u++;
    }
    if (u == 0) snprintf(buf, len, "%lld B", (long long)v);
    else snprintf(buf, len, "%.1f %s", x, units[u]);
    return buf;
}

static void ec_free(ec *e) {
    ab_problem_free(&e->q);
    for (size_t i = 0; e->t && i < e->n; i++) {
        ab_free(e->t[i].cand);
        ab_free(e->t[i].ss);
        ab_free(e->t[i].ss_at);
    }
    ab_free(e->load);
    for (int32_t g = 0; e->ast && g < e->T; g++) {
        ab_free(e->ast[g].fr);
        ab_free(e->ast[g].fr_at);
    }
    ab_free(e->ast);
    for (size_t c = 0; e->comp && c < e->ncomp; c++) {
        ab_free(e->comp[c].tops);
        ab_free(e->comp[c].dp_off);
    }
    ab_free(e->t);
    ab_free(e->members);
    ab_free(e->comp);
    ab_free(e->comp_order);
    ab_free(e->best);
    ab_free(e->keys);
}

/* ---- the units problem ------------------------------------------------------------- */

/* Rejects malformed tensors and fixed offsets the coarsening cannot keep. */
static ab_status check_input(const ab_problem *p, int64_t k, ab_error *err) {
    int64_t g = 0;
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *t = &p->t[i];
        if (t->size < 1 || t->align < 1 || t->start < 0 || t->start > t->end ||
            (t->offset != AB_NONE && t->offset < 0))
            return ab_fail(err, AB_EINPUT, "exact-cover: tensor '%s' is malformed", t->name);
        if (t->offset > 0) g = ab_gcd(g, t->offset);
    }
    for (size_t i = 0; k > 1 && i < p->n; i++) {
        const ab_tensor *t = &p->t[i];
        if (t->offset == AB_NONE || t->offset % k == 0) continue;
        return ab_fail(err, AB_EINPUT,
                       "exact-cover: tensor '%s' has fixed offset %lld, not a multiple of k = %lld; "
                       "at k > 1 every fixed offset must be a multiple of k (k must divide %lld)",
                       t->name, (long long)t->offset, (long long)k, (long long)g);
    }
    return AB_OK;
}



/* e->q = p's tensors and capacity (no pools), coarsened by k, then
 * (compress=on) divided by its unit. */
static ab_status make_units(ec *e, const ab_problem *p, ab_error *err) {
    ab_problem base, q1;
    ab_problem_init(&base);
    ab_status st = AB_OK;
    for (size_t i = 0; st == AB_OK && i < p->n; i++) st = ab_problem_add(&base, &p->t[i], err);
    base.capacity = ab_problem_capacity(p);
    base.alignment = p->alignment;
    if (st == AB_OK) st = ab_problem_coarsen(&base, e->o.k, &q1, err);
    ab_problem_free(&base);
    if (st != AB_OK) return st;
    int64_t g = e->o.compress ? ab_problem_gravity_unit(&q1) : 1;
    if (g > 1) {
        st = ab_problem_coarsen(&q1, g, &e->q, err);
        ab_problem_free(&q1);
        if (st != AB_OK) return st;
    } else {
        e->q = q1;
    }
    e->unit = e->o.k * g; /* <= the largest size rounded up: no overflow */
    e->n = e->q.n;
    e->cap = e->q.capacity == AB_NONE ? INT64_MAX : e->q.capacity;
    e->t = ab_calloc(e->n, sizeof *e->t);
    e->best = ab_alloc_array(e->n, sizeof *e->best);
    if (e->t == NULL || e->best == NULL) return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
    for (size_t i = 0; i < e->n; i++) {
        const ab_tensor *t = &e->q.t[i];
        e->t[i] = (ec_tensor){.h = t->size, .a = t->align, .fixed = t->offset, .tprev = -1,
                              .tnext = -1};
    }
    return AB_OK;
}

/* Two conflicting fixed tensors that overlap leave no valid plan. */
static ab_status check_fixed(const ec *e, ab_error *err) {
    size_t i, j;
    ab_status st = ab_problem_fixed_overlap(&e->q, &i, &j, err);
    if (st != AB_OK || i == AB_NO_TENSOR) return st;
    return ab_fail(err, AB_EINPUT,
                   "exact-cover: tensors '%s' and '%s' have fixed offsets that overlap "
                   "while both are live: no valid plan exists",
                   e->q.t[i].name, e->q.t[j].name);
}

/* ---- time: kept starts (R2, R3), matrix columns, components (R5) ------------------- */

static ab_status make_times(ec *e, ab_error *err) {
    size_t n = e->n;
    int64_t *starts = ab_alloc_array(n, sizeof *starts);
    bool *mark = ab_calloc(n, sizeof *mark);
    if (starts == NULL || mark == NULL) {
        ab_free(starts);
        ab_free(mark);
        return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
    }
    for (size_t i = 0; i < n; i++) starts[i] = e->q.t[i].start;
    qsort(starts, n, sizeof *starts, ab_cmp_i64);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || starts[m - 1] != starts[i]) starts[m++] = starts[i];
    /* (R3): keep the last start at or before each tensor's end */
    for (size_t i = 0; i < n; i++) mark[ab_count_le(starts, m, e->q.t[i].end) - 1] = true;
    size_t T = 0;
    for (size_t i = 0; i < m; i++)
        if (!e->o.compress || mark[i]) starts[T++] = starts[i];
    ab_free(mark);
    int64_t first = starts[0];
    for (size_t i = 0; i < n; i++) {
        ec_tensor *t = &e->t[i];
        t->cts = (int32_t)ab_count_lt(starts, T, e->q.t[i].start);
        t->cte = (int32_t)ab_count_le(starts, T, e->q.t[i].end) - 1;
        if (e->o.compress) {
            t->mts = t->cts;
            t->mte = t->cte;
        } else { /* every instruction; huge spans are refused by the estimate */
            int64_t s = e->q.t[i].start - first, f = e->q.t[i].end - first;
            t->mts = s > INT32_MAX ? INT32_MAX : (int32_t)s;
            t->mte = f > INT32_MAX ? INT32_MAX : (int32_t)f;
        }
    }
    ab_free(starts);
    e->T = (int32_t)T;
    return AB_OK;
}

/* The rank order: decreasing area, larger h, earlier start, lower index. The
 * comparators take the planner's state as ab_sort's context. */

static int by_rank(const void *pa, const void *pb, const void *ctx) {
    const ec *e = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const ab_tensor *x = &e->q.t[a], *y = &e->q.t[b];
    bool fa = x->offset != AB_NONE, fb = y->offset != AB_NONE;
    if (fa != fb) return fa ? 1 : -1; /* free tensors first */
    i128 ax = (i128)x->size * (x->end - x->start + 1), ay = (i128)y->size * (y->end - y->start + 1);
    if (ax != ay) return ax > ay ? -1 : 1;
    if (x->size != y->size) return x->size > y->size ? -1 : 1;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return (a > b) - (a < b);
}

static int by_cts(const void *pa, const void *pb, const void *ctx) {
    const ec *e = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    int32_t x = e->t[a].cts, y = e->t[b].cts;
    if (x != y) return x < y ? -1 : 1;
    return (a > b) - (a < b);
}

/* Twins (R6) in the same component: same h, a and range; then rank. */
static int by_twin(const void *pa, const void *pb, const void *ctx) {
    const ec *e = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const ec_tensor *x = &e->t[a], *y = &e->t[b];
    if (x->h != y->h) return x->h < y->h ? -1 : 1;
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    if (x->cts != y->cts) return x->cts < y->cts ? -1 : 1;
    if (x->cte != y->cte) return x->cte < y->cte ? -1 : 1;
    return by_rank(pa, pb, ctx);
}

static bool is_twin(const ec_tensor *x, const ec_tensor *y) {
    return x->h == y->h && x->a == y->a && x->cts == y->cts && x->cte == y->cte;
}

/* Sorts each component's members by rank and links twins (R6) into chains
 * in rank order. */
static ab_status order_members(ec *e, ab_error *err) {
    size_t *tmp = ab_alloc_array(e->n, sizeof *tmp);
    if (tmp == NULL) return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
    for (size_t c = 0; c < e->ncomp; c++) {
        ec_comp *k = &e->comp[c];
        size_t *mem = e->members + k->first;
        ab_sort(mem, k->nfree + k->nfixed, sizeof *mem, by_rank, e);
        for (size_t r = 0; r < k->nfree; r++) e->t[mem[r]].rank = (int32_t)r;
        if (!e->o.compress) continue;
        memcpy(tmp, mem, k->nfree * sizeof *tmp);
        ab_sort(tmp, k->nfree, sizeof *tmp, by_twin, e);
        for (size_t j = 1; j < k->nfree; j++) {
            ec_tensor *x = &e->t[tmp[j - 1]], *y = &e->t[tmp[j]];
            if (!is_twin(x, y)) continue;
            x->tnext = y->rank;
            y->tprev = x->rank;
        }
    }
    ab_free(tmp);
    return AB_OK;
}

static ab_status make_components(ec *e, ab_error *err) {
    size_t n = e->n;
    e->members = ab_alloc_array(n, sizeof *e->members);
    e->comp = ab_alloc_array(n, sizeof *e->comp);
    e->comp_order = ab_alloc_array(n, sizeof *e->comp_order);
    if (!e->members || !e->comp || !e->comp_order)
        return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
    for (size_t i = 0; i < n; i++) e->members[i] = i;
    ab_sort(e->members, n, sizeof *e->members, by_cts, e);
    e->ncomp = 0;
    int32_t reach = -1;
    for (size_t r = 0; r < n; r++) {
        ec_tensor *t = &e->t[e->members[r]];
        if (!e->o.compress && e->ncomp == 1) { /* the plain form: one matrix */
        } else if (e->ncomp == 0 || t->cts > reach) {
            e->comp[e->ncomp++] = (ec_comp){.first = r, .t0 = t->mts, .t1 = t->mte,
                                            .c0 = t->cts, .c1 = t->cte};
        }
        ec_comp *k = &e->comp[e->ncomp - 1];
        if (t->cte > reach) reach = t->cte;
        if (t->cts < k->c0) k->c0 = t->cts;
        if (t->cte > k->c1) k->c1 = t->cte;
        if (t->mts < k->t0) k->t0 = t->mts;
        if (t->mte > k->t1) k->t1 = t->mte;
        t->comp = (int32_t)(e->ncomp - 1);
        if (t->fixed == AB_NONE) k->nfree++;
        else k->nfixed++;
    }
    return order_members(e, err);
}

/* Max-load per component over the kept starts, and the fixed tops. */
static ab_status make_bounds(ec *e, ab_error *err) {
    i128 *load = ab_calloc((size_t)e->T + 1, sizeof *load);
    if (load == NULL) return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
    for (size_t i = 0; i < e->n; i++) { /* sizes <= 2^62 each, n of them: use i128 */
        const ec_tensor *t = &e->t[i];
        load[t->cts] += t->h;
        load[t->cte + 1] -= t->h;
    }
    for (int32_t s = 1; s <= e->T; s++) load[s] += load[s - 1];
    e->lb = 0;
    for (size_t c = 0; c < e->ncomp; c++) {
        ec_comp *k = &e->comp[c];
        k->lb = 0;
        for (int32_t s = k->c0; s <= k->c1; s++)
            if (load[s] > k->lb) k->lb = load[s] > INT64_MAX ? INT64_MAX : (int64_t)load[s];
    }
    for (size_t i = 0; i < e->n; i++) {
        const ec_tensor *t = &e->t[i];
        ec_comp *k = &e->comp[t->comp];
        if (t->fixed != AB_NONE && sat_add(t->fixed, t->h) > k->lb) k->lb = sat_add(t->fixed, t->h);
    }
    e->load = ab_alloc_array((size_t)e->T + 1, sizeof *e->load);
    if (e->load == NULL) {
        ab_free(load);
        return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
    }
    for (int32_t s = 0; s < e->T; s++) e->load[s] = load[s] > INT64_MAX ? INT64_MAX : (int64_t)load[s];
    ab_free(load);
    for (size_t c = 0; c < e->ncomp; c++)
        if (e->comp[c].lb > e->lb) e->lb = e->comp[c].lb;
    return AB_OK;
}

static int by_comp_lb(const void *pa, const void *pb, const void *ctx) {
    const ec *e = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    int64_t x = e->comp[a].lb, y = e->comp[b].lb;
    if (x != y) return x > y ? -1 : 1;
    return (a > b) - (a < b);
}

/* The arena of component c's tensors in e->best. */
static int64_t comp_arena(const ec *e, size_t c) {
    const ec_comp *k = &e->comp[c];
    int64_t a = 0;
    for (size_t r = 0; r < k->nfree + k->nfixed; r++) {
        size_t i = e->members[k->first + r];
        if (e->best[i] + e->t[i].h > a) a = e->best[i] + e->t[i].h;
    }
    return a;
}

static int64_t max_arena(const ec *e) {
    int64_t a = 0;
    for (size_t c = 0; c < e->ncomp; c++)
        if (e->comp[c].arena > a) a = e->comp[c].arena;
    return a;
}

/* ---- best-fit: the first plan and the start height ---------------------------------- */

static ab_status run_best_fit(ec *e, ab_error *err) {
    const ab_planner *bf = ab_planner_find("best-fit");
    if (bf == NULL) return ab_fail(err, AB_EINTERNAL, "exact-cover: planner best-fit not found");
    int64_t *tmp = ab_alloc_array(e->n, sizeof *tmp);
    if (tmp == NULL) return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
    static const char *const orders[] = {"start", "size", "area"};
    char key[] = "order", val[8];
    int64_t best = -1;
    for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++) {
        snprintf(val, sizeof val, "%s", orders[o]);
        ab_kv kv = {.key = key, .value = val};
        ab_params prm = {.n = 1, .v = &kv};
        ab_plan_stats bst;
        memset(&bst, 0, sizeof bst);
        for (size_t i = 0; i < e->n; i++) tmp[i] = AB_NONE;
        ab_status st = ab_params_bind(bf->name, bf->params, &prm, NULL, err);
        if (st == AB_OK) st = bf->plan(&e->q, &prm, tmp, &bst, err);
        if (st != AB_OK) {
            ab_free(tmp);
            return st;
        }
        int64_t a = 0;
        for (size_t i = 0; i < e->n; i++)
            if (tmp[i] + e->t[i].h > a) a = tmp[i] + e->t[i].h; /* best-fit checked overflow */
        if (best < 0 || a < best) {
            best = a;
            memcpy(e->best, tmp, e->n * sizeof *tmp);
        }
    }
    ab_free(tmp);
    e->ub = best;
    for (size_t c = 0; c < e->ncomp; c++) e->comp[c].arena = comp_arena(e, c);
    return AB_OK;
}

/* ---- budgets while building ------------------------------------------------------------- */

/* Building is charged to the same budget as the search: EC_WORK_PER_NODE
 * elementary steps (an offset reached, a breakpoint collected, a matrix entry
 * counted or written) cost one node, and the CPU clock is read before each
 * such node. */
#define EC_WORK_PER_NODE ((int64_t)1 << 10)

/* Records why building stopped, for the note. */
__attribute__((format(printf, 2, 3))) static void stop_why(ec *e, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->why, sizeof e->why, fmt, ap);
    va_end(ap);
}

/* true when nodes or time are already spent (and marks the budget out). */
static bool budget_spent(ec *e) {
    abp_dlx_budget *b = &e->budget;
    if (!b->out && ((b->max_nodes > 0 && b->nodes >= b->max_nodes) ||
                    (b->deadline > 0 && abp_dlx_now() >= b->deadline)))
        b->out = true;
    return b->out;
}

/* Charges `steps` steps of building; false when the budget ran out. The
 * clock is read before each node is charged. */
static bool charge(ec *e, int64_t steps) {
    abp_dlx_budget *b = &e->budget;
    if (b->out) return false;
    e->work += steps;
    while (e->work >= EC_WORK_PER_NODE) {
        e->work -= EC_WORK_PER_NODE;
        if (budget_spent(e)) return false;
        b->nodes++;
    }
    return true;
}

/* true when `more` bytes fit beside what is held; else records the need. */
static bool mem_fits(ec *e, int64_t more, const char *what) {
    int64_t need = sat_add(e->held, more);
    if (need <= e->mem_limit) return true;
    char h[32], l[32];
    e->mem_need = need;
    stop_why(e, "mem: %s needs %s, above %s%s", what, human_bytes(h, sizeof h, need),
             human_bytes(l, sizeof l, e->mem_limit),
             e->mem_limit < e->o.mem ? " (--mem-limit: RLIMIT_AS caps mem=)" : "");
    return false;
}

typedef enum ec_result { EC_FOUND, EC_NONE, EC_OUT, EC_TOO_BIG } ec_result;

/* ---- (R7) the split filter ------------------------------------------------------------------ */

/* Subset sums kept per (tensor, kept start), at most this many; above it the
 * filter is left off there (which is always sound). */
#define EC_SUMS_MAX 4096

/* sums[0 .. *n) := the distinct sums of subsets of items[0 .. ni) up to lim,
 * sorted (sums has room for 2 * max + 1); false when there are more than max. */
static bool subset_sums(const int64_t *items, size_t ni, int64_t lim, size_t max, int64_t *sums,
                        int64_t *tmp, size_t *n) {
    size_t m = 1;
    sums[0] = 0;
    for (size_t q = 0; q < ni; q++) {
        size_t a = 0, b = 0, u = 0;
        while (a < m || b < m) { /* merge sums and sums + item */
            int64_t x = a < m ? sums[a] : INT64_MAX;
            int64_t y = b < m && sums[b] <= lim - items[q] ? sums[b] + items[q] : INT64_MAX;
            if (y == INT64_MAX && b < m) b = m;
            if (x == INT64_MAX && y == INT64_MAX) break;
            int64_t v = x <= y ? x : y;
            if (x == v) a++;
            if (y == v) b++;
            if (u == 0 || tmp[u - 1] != v) tmp[u++] = v;
            if (u > max) return false;
        }
        memcpy(sums, tmp, u * sizeof *sums);
        m = u;
    }
    *n = m;
    return true;
}

/* (R7) for component c: per free tensor and kept start of its range, the
 * subset sums of the heights of the other tensors live there (free and
 * fixed) up to hmax - h, when there are at most EC_SUMS_MAX of them. */
static ab_status make_sums(ec *e, size_t c, ec_result *res, ab_error *err) {
    const ec_comp *k = &e->comp[c];
    size_t N = k->nfree + k->nfixed;
    *res = EC_FOUND;
    int64_t scratch = (int64_t)((N + 4 * EC_SUMS_MAX + 4) * sizeof(int64_t));
    if (!mem_fits(e, scratch, "the split sums")) return *res = EC_TOO_BIG, AB_OK;
    int64_t *items = ab_alloc_array(N + 1, sizeof *items);
    int64_t *sums = ab_alloc_array(2 * EC_SUMS_MAX + 2, sizeof *sums);
    int64_t *tmp = ab_alloc_array(2 * EC_SUMS_MAX + 2, sizeof *tmp);
    ab_status st = AB_OK;
    if (!items || !sums || !tmp) st = ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
    for (int32_t g = k->c0; st == AB_OK && *res == EC_FOUND && g <= k->c1; g++) {
        /* every tensor live at g: when the whole set has more than 2 x max
         * sums, each set without one tensor has more than max (at most half) */
        size_t ni = 0;
        for (size_t r = 0; r < N; r++) {
            const ec_tensor *t = &e->t[e->members[k->first + r]];
            if (t->cts <= g && g <= t->cte) items[ni++] = t->h;
        }
        size_t ns;
        if (!charge(e, (int64_t)ni * 64)) *res = EC_OUT;
        if (*res != EC_FOUND || !subset_sums(items, ni, e->hmax, 2 * EC_SUMS_MAX, sums, tmp, &ns))
            continue;
        for (size_t r = 0; r < k->nfree && *res == EC_FOUND && st == AB_OK; r++) {
            ec_tensor *t = &e->t[e->members[k->first + r]];
            if (g < t->cts || g > t->cte || t->h > e->hmax) continue;
            int32_t G = t->cte - t->cts + 1, j = g - t->cts;
            if (t->ss_at == NULL) {
                t->ss_at = ab_alloc_array(2 * (size_t)G, sizeof *t->ss_at);
                if (t->ss_at == NULL) {
                    st = ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
                    break;
                }
                for (int32_t q = 0; q < 2 * G; q++) t->ss_at[q] = -1;
                e->held += 16 * G;
            }
            ni = 0;
            for (size_t q = 0; q < N; q++) {
                const ec_tensor *u = &e->t[e->members[k->first + q]];
                if (q != r && u->cts <= g && g <= u->cte) items[ni++] = u->h;
            }
            if (!charge(e, (int64_t)ni * 64)) {
                *res = EC_OUT;
                break;
            }
            if (!subset_sums(items, ni, e->hmax - t->h, EC_SUMS_MAX, sums, tmp, &ns)) continue;
            int64_t have = 0;
            for (int32_t q = 0; q < G; q++)
                if (t->ss_at[2 * q + 1] > have) have = t->ss_at[2 * q + 1];
            if (!mem_fits(e, (int64_t)ns * 8, "the split sums")) {
                *res = EC_TOO_BIG;
                break;
            }
            int64_t *grown = ab_realloc_array(t->ss, (size_t)have + ns, sizeof *t->ss);
            if (grown == NULL) {
                st = ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
                break;
            }
            t->ss = grown;
            memcpy(t->ss + have, sums, ns * sizeof *sums);
            t->ss_at[2 * j] = have;
            t->ss_at[2 * j + 1] = have + (int64_t)ns;
            e->held += (int64_t)ns * 8;
        }
    }
    ab_free(items);
    ab_free(sums);
    ab_free(tmp);
    if (*res != EC_FOUND) e->why_building = "the offsets";
    return st;
}

/* (R7) true when free tensor t may sit at o under height H: at each kept
 * start of its range with sums known, some subset of the others live there
 * fits below o within the slack H - load: a sum s with o - slack <= s <= o. */
static bool split_ok(const ec *e, const ec_tensor *t, int64_t o, int64_t H) {
    if (t->ss_at == NULL) return true;
    for (int32_t j = 0; j <= t->cte - t->cts; j++) {
        int64_t a = t->ss_at[2 * j], b = t->ss_at[2 * j + 1];
        if (a < 0) continue;
        size_t i = ab_count_le(t->ss + a, (size_t)(b - a), o);
        if (i == 0 || t->ss[a + (int64_t)i - 1] < o - (H - e->load[t->cts + j])) return false;
    }
    return true;
}

/* ---- candidate offsets: (R4) gravity offsets, as sorted lists ----------------------------- */

/* Appends v to tensor t's candidate list (growing it). */
static bool cand_push(ec *e, ec_tensor *t, int64_t v) {
    if ((size_t)t->ncand == t->cand_cap) {
        size_t old = t->cand_cap;
        if (!ab_grow((void **)&t->cand, &t->cand_cap, (size_t)t->ncand + 1, sizeof *t->cand))
            return false;
        e->held += (int64_t)((t->cand_cap - old) * sizeof *t->cand);
    }
    t->cand[t->ncand++] = v;
    return true;
}

/* true when free tensor t at offset o overlaps a fixed tensor of component k
 * that it conflicts with. */
static bool hits_fixed(const ec *e, const ec_comp *k, const ec_tensor *t, int64_t o) {
    for (size_t f = 0; f < k->nfixed; f++) {
        const ec_tensor *u = &e->t[e->members[k->first + k->nfree + f]];
        if (in_comp_conflict(t, u) && o < sat_add(u->fixed, u->h) && u->fixed < o + t->h)
            return true;
    }
    return false;
}

/* A pending offset of the merge: value v for free tensor `to` (a rank),
 * offered by edge `ed` (-1: a seed). Ordered by v, then to, then ed. */
typedef struct pend {
    int64_t v;
    int32_t to, ed;
} pend;

/* An edge from -> to of conflicting free tensors (ranks): it offers to
 * `to` the offsets align_up(cand[from][pos] + h_from, a_to), increasing in pos. */
typedef struct edge {
    int32_t from, to;
    int64_t pos;
    bool waiting; /* pos == ncand of from: wakes when from gains an offset */
} edge;

static bool pend_lt(const pend *x, const pend *y) {
    if (x->v != y->v) return x->v < y->v;
    if (x->to != y->to) return x->to < y->to;
    return x->ed < y->ed;
}

static void heap_push(pend *h, size_t *n, pend x) {
    size_t i = (*n)++;
    while (i > 0 && pend_lt(&x, &h[(i - 1) / 2])) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = x;
}

static pend heap_pop(pend *h, size_t *n) {
    pend top = h[0], x = h[--*n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        const pend *pm = &x;
        if (l < *n && pend_lt(&h[l], pm)) m = l, pm = &h[l];
        if (r < *n && pend_lt(&h[r], pm)) m = r;
        if (m == i) break;
        h[i] = h[m];
        i = m;
    }
    if (*n > 0) h[i] = x;
    return top;
}

/* Offers edge ed's next offset, or leaves it waiting. */
static void edge_offer(ec *e, const size_t *mem, edge *E, int32_t ed, pend *heap, size_t *nheap) {
    edge *d = &E[ed];
    const ec_tensor *f = &e->t[mem[d->from]], *t = &e->t[mem[d->to]];
    if (d->pos >= f->ncand) {
        d->waiting = true;
        return;
    }
    d->waiting = false;
    int64_t v = align_up(f->cand[d->pos] + f->h, t->a);
    if (v <= e->hmax - t->h) heap_push(heap, nheap, (pend){v, d->to, ed});
    else d->pos = INT64_MAX; /* offers only increase: done */
}

/* (R4) for component c, up to e->hmax: the least set of offsets per free
 * tensor holding 0 and align_up(fixed top, a) for the fixed tensors it
 * meets, and closed under o_j -> align_up(o_j + h_j, a_i) for conflicting
 * free j, i; an offset that overlaps a fixed tensor it meets is no landing
 * place (gravity never puts a tensor there), so it is dropped and not
 * followed. Computed as a merge of increasing streams, one per directed
 * conflict edge, so the work is (offsets found) x (degree) x log, whatever
 * the sizes in bytes. */
static ab_status gravity_sets(ec *e, size_t c, ec_result *res, ab_error *err) {
    const ec_comp *k = &e->comp[c];
    const size_t *mem = e->members + k->first;
    size_t F = k->nfree, nE = 0;
    *res = EC_FOUND;
    for (size_t x = 0; x < F; x++) {
        for (size_t y = 0; y < F; y++)
            if (x != y && in_comp_conflict(&e->t[mem[x]], &e->t[mem[y]])) nE++;
        if (!charge(e, (int64_t)F)) return *res = EC_OUT, AB_OK;
    }
    size_t nseed = F * (1 + k->nfixed), cap = nE + nseed + 1;
    int64_t bytes = (int64_t)(nE * sizeof(edge) + (F + 1) * sizeof(size_t) + cap * sizeof(pend));
    if (!mem_fits(e, bytes, "the offsets")) return *res = EC_TOO_BIG, AB_OK;
    edge *E = ab_alloc_array(nE + 1, sizeof *E);
    size_t *out_at = ab_alloc_array(F + 1, sizeof *out_at);
    pend *heap = ab_alloc_array(cap, sizeof *heap);
    if (E == NULL || out_at == NULL || heap == NULL) {
        ab_free(E);
        ab_free(out_at);
        ab_free(heap);
        return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
    }
    e->held += bytes;
    size_t used = 0, nheap = 0;
    for (size_t x = 0; x < F; x++) {
        out_at[x] = used;
        for (size_t y = 0; y < F; y++)
            if (x != y && in_comp_conflict(&e->t[mem[x]], &e->t[mem[y]]))
                E[used++] = (edge){.from = (int32_t)x, .to = (int32_t)y, .waiting = true};
    }
    out_at[F] = used;
    for (size_t x = 0; x < F; x++) { /* seeds: 0 and the fixed tops */
        const ec_tensor *t = &e->t[mem[x]];
        if (t->h > e->hmax) continue;
        heap_push(heap, &nheap, (pend){0, (int32_t)x, -1});
        for (size_t f = 0; f < k->nfixed; f++) {
            const ec_tensor *u = &e->t[mem[F + f]];
            if (!in_comp_conflict(t, u) || u->fixed > e->hmax - u->h) continue;
            int64_t o = align_up(u->fixed + u->h, t->a);
            if (o <= e->hmax - t->h) heap_push(heap, &nheap, (pend){o, (int32_t)x, -1});
        }
    }
    ab_status st = AB_OK;
    while (nheap > 0 && *res == EC_FOUND) {
        pend p = heap_pop(heap, &nheap);
        if (p.ed >= 0) {
            E[p.ed].pos++;
            edge_offer(e, mem, E, p.ed, heap, &nheap);
        }
        ec_tensor *t = &e->t[mem[p.to]];
        if ((t->ncand > 0 && t->cand[t->ncand - 1] == p.v) || hits_fixed(e, k, t, p.v) ||
            !split_ok(e, t, p.v, e->hmax))
            continue;
        if (!charge(e, 1 + (int64_t)(out_at[p.to + 1] - out_at[p.to]))) {
            *res = EC_OUT;
        } else if (!mem_fits(e, (int64_t)sizeof *t->cand, "the offsets")) {
            *res = EC_TOO_BIG;
        } else if (!cand_push(e, t, p.v)) {
            st = ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
            break;
        } else {
            for (size_t q = out_at[p.to]; q < out_at[p.to + 1]; q++)
                if (E[q].waiting) edge_offer(e, mem, E, (int32_t)q, heap, &nheap);
        }
    }
    ab_free(E);
    ab_free(out_at);
    ab_free(heap);
    e->held -= bytes;
    if (*res != EC_FOUND) e->why_building = "the offsets";
    return st;
}

/* compress=off: every multiple of the align below hmax - h, clear of the
 * fixed tensors. */
static ab_status plain_sets(ec *e, size_t c, ec_result *res, ab_error *err) {
    const ec_comp *k = &e->comp[c];
    *res = EC_FOUND;
    for (size_t r = 0; r < k->nfree; r++) {
        ec_tensor *t = &e->t[e->members[k->first + r]];
        if (t->h > e->hmax) continue;
        int64_t n = (e->hmax - t->h) / t->a + 1;
        if (!mem_fits(e, sat_mul(n, (int64_t)sizeof *t->cand), "the offsets")) {
            e->why_building = "the offsets";
            return *res = EC_TOO_BIG, AB_OK;
        }
        for (int64_t o = 0; o <= e->hmax - t->h; o += t->a) {
            if ((o & 1023) == 0 && !charge(e, 1024)) {
                e->why_building = "the offsets";
                return *res = EC_OUT, AB_OK;
            }
            if (hits_fixed(e, k, t, o)) continue;
            if (!cand_push(e, t, o)) return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
        }
    }
    return AB_OK;
}

/* The heights where component c's arena may land: o + h over every
 * candidate, and the fixed tops; sorted, distinct. */
static ab_status make_tops(ec *e, size_t c, ec_result *res, ab_error *err) {
    ec_comp *k = &e->comp[c];
    int64_t n = (int64_t)k->nfixed;
    for (size_t r = 0; r < k->nfree; r++) n += e->t[e->members[k->first + r]].ncand;
    *res = EC_FOUND;
    if (!mem_fits(e, sat_mul(n + 1, 8), "the heights")) {
        e->why_building = "the offsets";
        return *res = EC_TOO_BIG, AB_OK;
    }
    if (!charge(e, n)) {
        e->why_building = "the offsets";
        return *res = EC_OUT, AB_OK;
    }
    k->tops = ab_alloc_array((size_t)n + 1, sizeof *k->tops);
    if (k->tops == NULL) return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
    e->held += (n + 1) * 8;
    size_t m = 0;
    for (size_t r = 0; r < k->nfree + k->nfixed; r++) {
        const ec_tensor *t = &e->t[e->members[k->first + r]];
        if (t->fixed != AB_NONE) k->tops[m++] = sat_add(t->fixed, t->h);
        for (int64_t q = 0; q < t->ncand; q++) k->tops[m++] = t->cand[q] + t->h;
    }
    k->floor = 0;
    for (size_t r = 0; r < k->nfree + k->nfixed; r++) {
        const ec_tensor *t = &e->t[e->members[k->first + r]];
        int64_t low = t->fixed != AB_NONE ? sat_add(t->fixed, t->h)
                      : t->ncand > 0      ? t->cand[0] + t->h
                                          : e->hmax + 1;
        if (low > k->floor) k->floor = low;
    }
    qsort(k->tops, m, sizeof *k->tops, ab_cmp_i64);
    size_t u = 0;
    for (size_t q = 0; q < m; q++)
        if (u == 0 || k->tops[u - 1] != k->tops[q]) k->tops[u++] = k->tops[q];
    k->ntops = u;
    return AB_OK;
}

/* The lowest height above H where component c's arena may land (the next
 * top, not below the floor), or hmax + 1 past the last: every height in
 * (H, that) has a cover iff H has one. */
static int64_t next_top(const ec *e, size_t c, int64_t H) {
    const ec_comp *k = &e->comp[c];
    size_t i = ab_count_le(k->tops, k->ntops, H);
    int64_t nt = i < k->ntops ? k->tops[i] : e->hmax + 1;
    if (nt < k->floor) nt = k->floor;
    return nt > H ? nt : H + 1;
}

/* (E) auto takes the intervals engine when the matrix would hold more than
 * this many entries per (row, group) pair. */
#define EC_IVX_RATIO 4

/* ---- the interval matrix ------------------------------------------------------------------ */

/* Candidates of t at height H: cand[0 .. rows) (offset + h <= H). */
static int64_t rows_at(const ec_tensor *t, int64_t H) {
    if (t->ncand == 0 || H < t->h) return 0;
    return (int64_t)ab_count_le(t->cand, (size_t)t->ncand, H - t->h);
}

/* Index of v in the sorted breakpoints b[0 .. n) (v is one of them). */
static int32_t bp_index(const int64_t *b, int32_t n, int64_t v) {
    return (int32_t)ab_count_lt(b, (size_t)n, v);
}

/* A component's matrix at one height, while it is built: per group g, its
 * breakpoints bp[at[g] .. at[g] + nb[g]) and first column col[g]. */
typedef struct build {
    int32_t G;
    int64_t *ro, *ro_at;   /* rows of free tensor r: ro[ro_at[r] .. ro_at[r + 1]) */
    int64_t *at, *bp;
    int32_t *nb, *col;
    int32_t *secs;
    int64_t bytes; /* held for the scratch */
} build;

static void build_free(ec *e, build *b) {
    ab_free(b->ro);
    ab_free(b->ro_at);
    ab_free(b->at);
    ab_free(b->bp);
    ab_free(b->nb);
    ab_free(b->col);
    ab_free(b->secs);
    e->held -= b->bytes;
}

static bool astack_ok(const ec *e, const ec_tensor *t, int64_t o, int64_t H);

/* The rows of each free tensor at height H: its candidates up to H - h that
 * pass the split filters (R7, R10). */
static ab_status collect_rows(ec *e, const ec_comp *k, int64_t H, build *b, ec_result *res,
                              ab_error *err) {
    int64_t total = 0;
    for (size_t r = 0; r < k->nfree; r++) total += rows_at(&e->t[e->members[k->first + r]], H);
    int64_t bytes = sat_mul(total + (int64_t)k->nfree + 2, 8);
    if (!mem_fits(e, bytes, "the matrix")) return *res = EC_TOO_BIG, AB_OK;
    if (!charge(e, total)) return *res = EC_OUT, AB_OK;
    b->ro = ab_alloc_array((size_t)total + 1, sizeof *b->ro);
    b->ro_at = ab_alloc_array(k->nfree + 1, sizeof *b->ro_at);
    if (!b->ro || !b->ro_at) return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
    b->bytes += bytes;
    e->held += bytes;
    int64_t n = 0;
    for (size_t r = 0; r < k->nfree; r++) {
        const ec_tensor *t = &e->t[e->members[k->first + r]];
        b->ro_at[r] = n;
        for (int64_t q = 0, m = rows_at(t, H); q < m; q++)
            if (split_ok(e, t, t->cand[q], H) && astack_ok(e, t, t->cand[q], H))
                b->ro[n++] = t->cand[q];
    }
    b->ro_at[k->nfree] = n;
    *res = EC_FOUND;
    return AB_OK;
}

/* Collects, per group, the breakpoints: the offset o of every row live
 * there, sorted and distinct. */
static ab_status collect_breakpoints(ec *e, const ec_comp *k, build *b, ec_result *res,
                                     ab_error *err) {
    int32_t G = b->G;
    int64_t total = 0;
    int64_t gb = sat_mul((int64_t)G + 1, 8 + 8 + 4 + 4);
    if (!mem_fits(e, gb, "the matrix")) return *res = EC_TOO_BIG, AB_OK;
    b->at = ab_calloc((size_t)G + 1, sizeof *b->at);
    b->nb = ab_calloc((size_t)G + 1, sizeof *b->nb);
    b->col = ab_calloc((size_t)G + 1, sizeof *b->col);
    if (!b->at || !b->nb || !b->col) return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
    b->bytes = gb;
    e->held += gb;
    for (size_t r = 0; r < k->nfree; r++) { /* rows over the range: a difference array */
        const ec_tensor *t = &e->t[e->members[k->first + r]];
        int64_t n = b->ro_at[r + 1] - b->ro_at[r];
        b->at[t->mts - k->t0] += n;
        b->at[t->mte - k->t0 + 1] -= n;
    }
    int64_t run = 0;
    for (int32_t g = 0; g < G; g++) { /* at[g] becomes the start of g's slice */
        run += b->at[g];
        if (run > INT32_MAX) return *res = EC_TOO_BIG, (void)mem_fits(e, INT64_MAX, "the matrix"), AB_OK;
        b->at[g] = total;
        total = sat_add(total, run);
    }
    b->at[G] = total;
    if (!mem_fits(e, sat_mul(total + 1, 8), "the matrix")) return *res = EC_TOO_BIG, AB_OK;
    if (!charge(e, total)) return *res = EC_OUT, AB_OK;
    b->bp = ab_alloc_array((size_t)total + 1, sizeof *b->bp);
    if (b->bp == NULL) return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
    b->bytes += (total + 1) * 8;
    e->held += (total + 1) * 8;
    int64_t *fill = (int64_t *)b->bp; /* filled slice by slice through nb as a counter */
    for (size_t r = 0; r < k->nfree; r++) {
        const ec_tensor *t = &e->t[e->members[k->first + r]];
        const int64_t *ro = b->ro + b->ro_at[r];
        int64_t n = b->ro_at[r + 1] - b->ro_at[r];
        for (int32_t g = t->mts - k->t0; g <= t->mte - k->t0; g++) {
            int64_t *s = fill + b->at[g] + b->nb[g];
            memcpy(s, ro, (size_t)n * sizeof *s);
            b->nb[g] += (int32_t)n;
        }
    }
    for (int32_t g = 0; g < G; g++) {
        int64_t *s = b->bp + b->at[g];
        size_t n = (size_t)b->nb[g], u = 0;
        qsort(s, n, sizeof *s, ab_cmp_i64);
        for (size_t q = 0; q < n; q++)
            if (u == 0 || s[u - 1] != s[q]) s[u++] = s[q];
        b->nb[g] = (int32_t)u;
        if (!charge(e, (int64_t)n)) return *res = EC_OUT, AB_OK;
    }
    *res = EC_FOUND;
    return AB_OK;
}

/* (E) The engine for component k's matrix of `entries` nodes: dancing links
 * (the matrix), or intervals (abp_ivx_search, no matrix). */
static int64_t row_spans(const ec *e, const ec_comp *k, const build *b) {
    int64_t spans = 0; /* the (row, group) pairs: what an intervals node scans at most */
    for (size_t r = 0; r < k->nfree; r++) {
        const ec_tensor *t = &e->t[e->members[k->first + r]];
        spans = sat_add(spans, sat_mul(b->ro_at[r + 1] - b->ro_at[r], t->mte - t->mts + 1));
    }
    return spans;
}

/* Whether use_intervals takes the intervals engine whatever the matrix:
 * asked for, or canon alone (only the intervals engine has it), or the mix
 * with canon. */
static bool intervals_anyway(const ec *e) {
    if (e->o.engine != EC_ENGINE_AUTO) return e->o.engine == EC_ENGINE_INTERVALS;
    return (e->o.order == ABP_DLX_CANON && !e->o.mix) || (e->o.compress && e->o.mix);
}

static bool use_intervals(const ec *e, const ec_comp *k, const build *b, int64_t entries) {
    if (intervals_anyway(e)) return true;
    if (e->o.engine != EC_ENGINE_AUTO || !e->o.compress) return false;
    return entries > sat_mul(row_spans(e, k, b), EC_IVX_RATIO);
}

/* One search of a component's matrix in a column order: abp_dlx_search on a
 * matrix or abp_ivx_search on intervals. */
typedef abp_dlx_result (*ec_search_fn)(const void *what, abp_dlx_order order, abp_dlx_budget *b,
                                       int64_t *keys, bool *oom);

static abp_dlx_result search_links(const void *what, abp_dlx_order order, abp_dlx_budget *b,
                                   int64_t *keys, bool *oom) {
    *oom = false;
    return abp_dlx_search((abp_dlx *)what, order, b, keys);
}

static abp_dlx_result search_ivx(const void *what, abp_dlx_order order, abp_dlx_budget *b,
                                 int64_t *keys, bool *oom) {
    return abp_ivx_search(what, order, b, keys, oom);
}

/* The column orders of order=mix, taking turns: on the intervals engine mrv
 * and canon (C); the links engine has no canon and takes mrv, low and area.
 * A canon node costs about a quarter of an mrv node (no kill tree: on
 * bench_exact's coprime-20 suites about 0.8M nodes/s against 0.2M), so its
 * rounds get EC_CANON_WEIGHT times the node limit: -r 100:20:1000:coprime
 * -t 10 proved 98 with it, 97 with equal limits (before canon's memo, N1). */
#define EC_CANON_WEIGHT 4
static const abp_dlx_order ec_mix_ivx[] = {ABP_DLX_MRV, ABP_DLX_CANON};
static const abp_dlx_order ec_mix_links[] = {ABP_DLX_MRV, ABP_DLX_LOW, ABP_DLX_STATIC};

/* (X) Searches a matrix of P primary columns in the order asked, or with
 * order=mix in each order of its engine's mix in turn, each stopped after a
 * node limit that doubles every round (64 + 2 P at first) until one
 * finishes. Any column choice keeps Algorithm X exact, and canon's search
 * is complete (C), so a search that finishes decides the height: a cover is
 * a cover, and "none" is a refutation. A search cut by its limit decides
 * nothing and is run again, from the start, with a larger limit. Every node
 * counts against the budget. */
static abp_dlx_result portfolio(ec *e, int32_t P, ec_search_fn fn, const void *what, bool *oom) {
    abp_dlx_budget *b = &e->budget;
    if (!e->o.mix) return fn(what, e->o.order, b, e->keys, oom);
    const abp_dlx_order *mix = fn == search_links ? ec_mix_links : ec_mix_ivx;
    size_t nmix = fn == search_links ? sizeof ec_mix_links / sizeof ec_mix_links[0]
                                     : sizeof ec_mix_ivx / sizeof ec_mix_ivx[0];
    int64_t gmax = b->max_nodes, limit = 64 + 2 * (int64_t)P;
    for (;;) {
        for (size_t q = 0; q < nmix; q++) {
            int64_t w = mix[q] == ABP_DLX_CANON ? EC_CANON_WEIGHT : 1;
            int64_t stop = sat_add(b->nodes, sat_mul(limit, w));
            b->max_nodes = gmax > 0 && gmax < stop ? gmax : stop;
            abp_dlx_result r = fn(what, mix[q], b, e->keys, oom);
            b->max_nodes = gmax;
            if (r != ABP_DLX_BUDGET || *oom) return r;
            bool spent = (gmax > 0 && b->nodes >= gmax) ||
                         (b->deadline > 0 && abp_dlx_now() >= b->deadline);
            if (spent) return r;
            b->out = false; /* only the round's limit stopped it */
        }
        limit = sat_mul(limit, 2);
    }
}

/* Searches component c at height H with the intervals engine on the rows
 * and breakpoints of b (then freed). */
static ab_status solve_intervals(ec *e, size_t c, int64_t H, build *b, ec_result *res,
                                 ab_error *err) {
    ec_comp *k = &e->comp[c];
    size_t P = k->nfree;
    int32_t *g0 = ab_alloc_array(P + 1, sizeof *g0), *g1 = ab_alloc_array(P + 1, sizeof *g1);
    int32_t *tp = ab_alloc_array(P + 1, sizeof *tp), *tn = ab_alloc_array(P + 1, sizeof *tn);
    int64_t *h = ab_alloc_array(P + 1, sizeof *h);
    ab_status st = AB_OK;
    *res = EC_FOUND;
    if (!g0 || !g1 || !tp || !tn || !h) st = ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
    for (size_t r = 0; st == AB_OK && r < P; r++) {
        const ec_tensor *t = &e->t[e->members[k->first + r]];
        g0[r] = t->mts - k->t0;
        g1[r] = t->mte - k->t0;
        h[r] = t->h;
        tp[r] = t->tprev;
        tn[r] = t->tnext;
    }
    abp_ivx_in in = {.P = (int32_t)P, .G = b->G, .g0 = g0, .g1 = g1, .h = h, .tprev = tp,
                     .tnext = tn, .row_at = b->ro_at, .key = b->ro, .bp_at = b->at, .nb = b->nb,
                     .bp = b->bp, .H = H};
    int64_t bytes = st == AB_OK ? abp_ivx_bytes(&in) : 0;
    if (st == AB_OK && !mem_fits(e, bytes, "the matrix")) *res = EC_TOO_BIG;
    /* the per-group row lists, charged as the links engine charges its rows
     * (a step per row and per entry; a row has an entry per group at least) */
    if (st == AB_OK && *res == EC_FOUND && !charge(e, sat_add(b->ro_at[P], row_spans(e, k, b))))
        *res = EC_OUT;
    if (st == AB_OK && *res == EC_FOUND) {
        e->why_building = NULL;
        e->held += bytes;
        /* (C, N1) canon's refuted nodes, kept across the mix's rounds on
         * these rows, in at most half of what mem= leaves */
        abp_ng memo = {0};
        int64_t spare = (e->mem_limit - e->held) / 2;
        memo.limit = spare < (int64_t)ABP_NG_DEFAULT_LIMIT ? (size_t)(spare > 0 ? spare : 0)
                                                           : ABP_NG_DEFAULT_LIMIT;
        if (e->o.learn && (e->o.mix || e->o.order == ABP_DLX_CANON) && memo.limit >= ((size_t)1 << 20)) {
            in.memo = &memo;
            e->held += (int64_t)memo.limit;
        }
        bool oom;
        abp_dlx_result r = portfolio(e, (int32_t)P, search_ivx, &in, &oom);
        if (in.memo != NULL) e->held -= (int64_t)memo.limit;
        abp_ng_free(&memo);
        e->held -= bytes;
        if (oom) {
            st = ab_fail(err, AB_ENOMEM, "exact-cover: out of memory building the intervals");
        } else if (r == ABP_DLX_FOUND) {
            for (size_t q = 0; q < P; q++) e->best[e->members[k->first + q]] = e->keys[q];
            k->arena = comp_arena(e, c);
        } else {
            *res = r == ABP_DLX_NONE ? EC_NONE : EC_OUT;
        }
    }
    ab_free(g0);
    ab_free(g1);
    ab_free(tp);
    ab_free(tn);
    ab_free(h);
    build_free(e, b);
    return st;
}

/* Builds component c's matrix at height H and searches it. On EC_FOUND the
 * plan of its free tensors goes into e->best and its arena is updated. */
static ab_status comp_solve(ec *e, size_t c, int64_t H, ec_result *res, ab_error *err) {
    ec_comp *k = &e->comp[c];
    e->heights++;
    if (budget_spent(e)) {
        e->why_building = NULL;
        return *res = EC_OUT, AB_OK;
    }
    if (H < k->floor) { /* some tensor has no offset at all */
        e->heights--;
        return *res = EC_NONE, AB_OK;
    }
    if (k->dp_off != NULL) { /* (R8): floor = the optimum, every height from it has a cover */
        e->heights--;
        for (size_t q = 0; q < k->nfree; q++) e->best[e->members[k->first + q]] = k->dp_off[q];
        k->arena = comp_arena(e, c);
        return *res = EC_FOUND, AB_OK;
    }
    e->why_building = "the matrix";
    int64_t G = (int64_t)k->t1 - k->t0 + 1; /* the plain form may span 2^31 instructions */
    if (G > ABP_DLX_MAX_NODES || !mem_fits(e, sat_mul(G, 24), "the matrix"))
        return (void)mem_fits(e, sat_mul(G, 24), "the matrix"), *res = EC_TOO_BIG, AB_OK;
    build b = {.G = (int32_t)G};
    ab_status st = collect_rows(e, k, H, &b, res, err);
    for (size_t r = 0; st == AB_OK && *res == EC_FOUND && r < k->nfree; r++)
        if (b.ro_at[r + 1] == b.ro_at[r]) *res = EC_NONE; /* a tensor without a row */
    if (st == AB_OK && *res == EC_FOUND) st = collect_breakpoints(e, k, &b, res, err);
    if (st != AB_OK || *res != EC_FOUND) {
        build_free(e, &b);
        return st;
    }
    /* columns: one per breakpoint (a row's offset) of each group */
    int64_t S = 0;
    for (int32_t g = 0; g < b.G; g++) {
        b.col[g] = (int32_t)(S < INT32_MAX ? S : INT32_MAX);
        S += b.nb[g];
    }
    /* rows and nodes, counted before anything is allocated (the entries
     * only where they choose the engine: the charges are the same) */
    int64_t rows = 0, nodes = 0, maxrow = 0;
    bool count = !intervals_anyway(e);
    for (size_t r = 0; r < k->nfree; r++) {
        const ec_tensor *t = &e->t[e->members[k->first + r]];
        const int64_t *ro = b.ro + b.ro_at[r];
        int64_t n = b.ro_at[r + 1] - b.ro_at[r];
        rows += n;
        for (int64_t q = 0; q < n; q++) {
            int64_t cells = 0;
            for (int32_t g = t->mts - k->t0; count && g <= t->mte - k->t0; g++) {
                const int64_t *s = b.bp + b.at[g];
                cells += bp_index(s, b.nb[g], ro[q] + t->h) - bp_index(s, b.nb[g], ro[q]);
            }
            nodes = sat_add(nodes, cells + 1);
            if (cells > maxrow) maxrow = cells;
            if (!charge(e, (int64_t)(t->mte - t->mts + 1))) {
                build_free(e, &b);
                return *res = EC_OUT, AB_OK;
            }
        }
    }
    if (use_intervals(e, k, &b, nodes)) return solve_intervals(e, c, H, &b, res, err);
    int64_t mbytes = abp_dlx_bytes_cols((int64_t)k->nfree, S, b.G, rows, nodes);
    if (!mem_fits(e, sat_add(mbytes, sat_mul(maxrow + 1, 4)), "the matrix")) {
        build_free(e, &b);
        return *res = EC_TOO_BIG, AB_OK;
    }
    b.secs = ab_alloc_array((size_t)maxrow + 1, sizeof *b.secs);
    abp_dlx *m = b.secs ? abp_dlx_new_cols((int32_t)k->nfree, (int32_t)S, b.G, rows, nodes) : NULL;
    if (m == NULL) {
        build_free(e, &b);
        return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory building the matrix");
    }
    for (int32_t g = 0; g < b.G; g++) {
        const int64_t *s = b.bp + b.at[g];
        for (int32_t q = 0; q < b.nb[g]; q++) /* to the next start, or to H */
            abp_dlx_secondary(m, b.col[g] + q, g, (q + 1 < b.nb[g] ? s[q + 1] : H) - s[q]);
    }
    bool out = false;
    for (size_t r = 0; r < k->nfree && !out; r++) {
        const ec_tensor *t = &e->t[e->members[k->first + r]];
        abp_dlx_primary(m, (int32_t)r, t->mts - k->t0, t->mte - k->t0, t->h, t->tprev, t->tnext);
        const int64_t *ro = b.ro + b.ro_at[r];
        int64_t n = b.ro_at[r + 1] - b.ro_at[r];
        for (int64_t q = 0; q < n && !out; q++) {
            int32_t ns = 0;
            int64_t o = ro[q];
            for (int32_t g = t->mts - k->t0; g <= t->mte - k->t0; g++) {
                const int64_t *s = b.bp + b.at[g];
                int32_t lo = bp_index(s, b.nb[g], o), hi = bp_index(s, b.nb[g], o + t->h);
                for (int32_t j = lo; j < hi; j++) b.secs[ns++] = b.col[g] + j;
            }
            abp_dlx_add_row(m, (int32_t)r, o, b.secs, ns);
            out = !charge(e, (int64_t)ns + 1);
        }
    }
    build_free(e, &b);
    if (out) {
        abp_dlx_free(m);
        return *res = EC_OUT, AB_OK;
    }
    if (abp_dlx_overflowed(m)) {
        abp_dlx_free(m);
        return ab_fail(err, AB_EINTERNAL, "exact-cover: the matrix outgrew its count (a bug)");
    }
    e->why_building = NULL;
    e->held += mbytes;
    bool oom = false;
    abp_dlx_result r = portfolio(e, (int32_t)k->nfree, search_links, m, &oom);
    e->held -= mbytes;
    abp_dlx_free(m);
    if (r == ABP_DLX_FOUND) {
        for (size_t q = 0; q < k->nfree; q++) e->best[e->members[k->first + q]] = e->keys[q];
        k->arena = comp_arena(e, c);
        *res = EC_FOUND;
    } else {
        *res = r == ABP_DLX_NONE ? EC_NONE : EC_OUT;
    }
    return AB_OK;
}

/* ---- (R8) cliques by dynamic programming over subsets ------------------------------------- */

/* The most free tensors of a clique solved by (R8): 2^20 subsets. */
#define EC_DP_MAX 20

/* align_up, saturated at INT64_MAX. */
static int64_t sat_align_up(int64_t v, int64_t a) {
    if (v > INT64_MAX - (a - 1)) return INT64_MAX;
    return align_up(v, a);
}

/* (R8): when component c is a clique of free tensors (at most EC_DP_MAX),
 * computes its optimum and an optimal plan into k->dp_off, k->dp, and sets
 * its tops and floor to {dp}. Otherwise (a fixed tensor, a non-clique, too
 * many tensors, mem= too low for the tables, an overflow) leaves dp_off NULL
 * for the matrix path. *res = EC_OUT when the budget ran out. */
static ab_status clique_dp(ec *e, size_t c, ec_result *res, ab_error *err) {
    ec_comp *k = &e->comp[c];
    *res = EC_FOUND;
    size_t n = k->nfree;
    if (k->nfixed > 0 || n == 0 || n > EC_DP_MAX) return AB_OK;
    const size_t *mem = e->members + k->first;
    int32_t lo = INT32_MIN, hi = INT32_MAX; /* Helly: a clique iff max start <= min end */
    for (size_t r = 0; r < n; r++) {
        const ec_tensor *t = &e->t[mem[r]];
        if (t->cts > lo) lo = t->cts;
        if (t->cte < hi) hi = t->cte;
    }
    if (lo > hi) return AB_OK;
    size_t N = (size_t)1 << n;
    int64_t bytes = (int64_t)N * (int64_t)(sizeof(int64_t) + 1) + (int64_t)n * 8;
    if (!mem_fits(e, bytes, "the subset table")) return AB_OK; /* the matrix may still fit */
    int64_t *dp = ab_alloc_array(N, sizeof *dp);
    uint8_t *last = ab_alloc_array(N, sizeof *last);
    int64_t *off = ab_alloc_array(n, sizeof *off);
    if (!dp || !last || !off) {
        ab_free(dp);
        ab_free(last);
        ab_free(off);
        return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
    }
    e->held += bytes;
    e->why_building = "the subset table";
    int64_t h[EC_DP_MAX], a[EC_DP_MAX];
    for (size_t r = 0; r < n; r++) h[r] = e->t[mem[r]].h, a[r] = e->t[mem[r]].a;
    dp[0] = 0;
    last[0] = 0;
    bool out = false;
    for (size_t S = 1; S < N && !out; S++) {
        int64_t m = INT64_MAX;
        uint8_t li = 0;
        for (size_t r = 0; r < n; r++) {
            if (!(S >> r & 1)) continue;
            int64_t v = sat_add(sat_align_up(dp[S ^ ((size_t)1 << r)], a[r]), h[r]);
            if (v < m) m = v, li = (uint8_t)r;
        }
        dp[S] = m;
        last[S] = li;
        out = !charge(e, (int64_t)n);
    }
    bool ok = !out && dp[N - 1] < INT64_MAX;
    if (ok) { /* the order: the last tensor of S sits on the best stack of S minus it */
        for (size_t S = N - 1; S != 0;) {
            size_t r = last[S];
            S ^= (size_t)1 << r;
            off[r] = sat_align_up(dp[S], a[r]);
        }
        k->dp = dp[N - 1];
    }
    ab_free(dp);
    ab_free(last);
    e->held -= bytes;
    if (!ok || !mem_fits(e, 8, "the heights")) {
        ab_free(off);
        if (out) *res = EC_OUT;
        else e->why_building = NULL;
        return AB_OK;
    }
    k->tops = ab_alloc_array(1, sizeof *k->tops);
    if (k->tops == NULL) {
        ab_free(off);
        return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
    }
    e->held += 8 + (int64_t)n * 8;
    k->tops[0] = k->dp;
    k->ntops = 1;
    k->floor = k->dp;
    k->dp_off = off;
    e->why_building = NULL;
    return AB_OK;
}

/* d[S], for every subset S of the n tensors (h, a), := the least top of a
 * stack of S from base (R8's table started at base): d[{}] = base, d[S] =
 * min over i in S of align_up(d[S \ {i}], a_i) + h_i, saturated. */
static void least_stacks(int64_t *d, size_t n, const int64_t *h, const int64_t *a, int64_t base) {
    size_t N = (size_t)1 << n;
    d[0] = base;
    for (size_t S = 1; S < N; S++) {
        int64_t m = INT64_MAX;
        for (size_t r = 0; r < n; r++)
            if (S >> r & 1) {
                int64_t y = sat_add(sat_align_up(d[S ^ ((size_t)1 << r)], a[r]), h[r]);
                if (y < m) m = y;
            }
        d[S] = m;
    }
}

/* (R9) Aligned stacks of kept starts: raises component c's floor to the
 * least top of a stack of the free tensors live at one of its kept starts,
 * with their aligns, where those can lift it above the floor (at most
 * EC_STACK_MAX tensors there). *res = EC_OUT when the budget ran out. */
#define EC_STACK_MAX 18
static ab_status stack_floor(ec *e, size_t c, ec_result *res, ab_error *err) {
    ec_comp *k = &e->comp[c];
    const size_t *mem = e->members + k->first;
    *res = EC_FOUND;
    for (int32_t t = k->c0; t <= k->c1; t++) {
        int64_t h[EC_STACK_MAX], a[EC_STACK_MAX], load = 0, slack = 0;
        size_t n = 0;
        bool many = false;
        for (size_t r = 0; r < k->nfree && !many; r++) {
            const ec_tensor *x = &e->t[mem[r]];
            if (x->cts > t || t > x->cte) continue;
            if (n == EC_STACK_MAX) many = true;
            else h[n] = x->h, a[n] = x->a, load = sat_add(load, x->h), slack = sat_add(slack, x->a - 1), n++;
        }
        if (many || slack == 0 || sat_add(load, slack) <= k->floor) continue;
        size_t N = (size_t)1 << n;
        if (!mem_fits(e, (int64_t)N * 8, "the subset table")) continue; /* only a bound is lost */
        int64_t *dp = ab_alloc_array(N, sizeof *dp);
        if (dp == NULL) return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
        least_stacks(dp, n, h, a, 0);
        int64_t top = dp[N - 1];
        ab_free(dp);
        if (!charge(e, (int64_t)(N * n))) {
            e->why_building = "the subset table";
            return *res = EC_OUT, AB_OK;
        }
        if (top > k->floor) k->floor = top;
    }
    if (k->floor > e->lbr && k->floor <= e->hmax) e->lbr = k->floor; /* no cover below, for the whole */
    return AB_OK;
}

/* (R10) Aligned splits: the tables of component c's kept starts where at
 * most EC_ASTACK_MAX free tensors are live, their aligns have an lcm of at
 * most EC_ASTACK_LCM and can lift a stack of them above the floor. For
 * member i and residue r they hold the pairs (DL(B), U_r(A)) over the splits
 * of the others into B (below i) and A (above), DL(B) the least top of a
 * stack of B from 0 (R8's table), U_r(A) the least height of a stack of A
 * from a base = r mod lcm (D_r(A) - r, D_r being R8's table started at r),
 * kept on their Pareto front: DL increasing, U decreasing. */
static int cmp_pair(const void *x, const void *y) {
    const int64_t *a = x, *b = y;
    if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
    return (a[1] > b[1]) - (a[1] < b[1]);
}

static ab_status astack_make(ec *e, size_t c, ec_result *res, ab_error *err) {
    ec_comp *k = &e->comp[c];
    const size_t *mem = e->members + k->first;
    *res = EC_FOUND;
    if (e->ast == NULL) {
        e->ast = ab_calloc((size_t)e->T + 1, sizeof *e->ast);
        if (e->ast == NULL) return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
    }
    for (int32_t g = k->c0; g <= k->c1; g++) {
        ec_astack *s = &e->ast[g];
        int64_t h[EC_ASTACK_MAX], a[EC_ASTACK_MAX], load = 0, slack = 0, lcm = 1;
        size_t n = 0;
        bool skip = false;
        for (size_t r = 0; r < k->nfree && !skip; r++) {
            const ec_tensor *x = &e->t[mem[r]];
            if (x->cts > g || g > x->cte) continue;
            if (n == EC_ASTACK_MAX) {
                skip = true;
                break;
            }
            lcm = lcm / ab_gcd(lcm, x->a) * x->a;
            if (lcm > EC_ASTACK_LCM) skip = true;
            s->who[n] = mem[r];
            h[n] = x->h, a[n] = x->a, load = sat_add(load, x->h), slack = sat_add(slack, x->a - 1);
            n++;
        }
        if (skip || n < 2 || slack == 0 || sat_add(load, slack) <= k->floor) continue;
        size_t N = (size_t)1 << n, L = (size_t)lcm;
        int64_t bytes = (int64_t)(N * (L + 1) * 8 + N * 16);
        if (!mem_fits(e, bytes, "the split tables")) continue; /* only a filter is lost */
        int64_t *dp = ab_alloc_array(N * (L + 1), sizeof *dp);   /* [0]: DL; [1 + r]: D_r */
        int64_t *pairs = ab_alloc_array(N, 2 * sizeof *pairs);
        s->fr_at = ab_alloc_array(n * L + 1, sizeof *s->fr_at);
        if (!dp || !pairs || !s->fr_at) {
            ab_free(dp);
            ab_free(pairs);
            return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
        }
        for (size_t v = 0; v <= L; v++) least_stacks(dp + v * N, n, h, a, v == 0 ? 0 : (int64_t)(v - 1));
        size_t nfr = 0, cap = 0;
        s->fr = NULL;
        bool oom = false;
        for (size_t m = 0; m < n && !oom; m++) {
            size_t others = (N - 1) ^ ((size_t)1 << m);
            for (size_t r = 0; r < L && !oom; r++) {
                const int64_t *du = dp + (r + 1) * N;
                size_t np = 0;
                for (size_t B = others;; B = (B - 1) & others) { /* every B within others */
                    pairs[2 * np] = dp[B];
                    pairs[2 * np + 1] = sat_add(du[others ^ B], -(int64_t)r);
                    np++;
                    if (B == 0) break;
                }
                qsort(pairs, np, 2 * sizeof *pairs, cmp_pair);
                s->fr_at[m * L + r] = (int64_t)nfr;
                int64_t best = INT64_MAX;
                for (size_t q = 0; q < np; q++) {
                    if (pairs[2 * q + 1] >= best) continue;
                    best = pairs[2 * q + 1];
                    if (nfr == cap) {
                        size_t nc = cap ? 2 * cap : 64;
                        int64_t *grown = ab_realloc_array(s->fr, nc, 2 * sizeof *s->fr);
                        if (grown == NULL) {
                            oom = true;
                            break;
                        }
                        s->fr = grown, cap = nc;
                    }
                    s->fr[2 * nfr] = pairs[2 * q];
                    s->fr[2 * nfr + 1] = best;
                    nfr++;
                }
            }
        }
        ab_free(dp);
        ab_free(pairs);
        if (oom) return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
        s->fr_at[n * L] = (int64_t)nfr;
        s->n = (int32_t)n;
        s->lcm = lcm;
        e->held += (int64_t)(nfr * 16 + (n * L + 1) * 8);
        if (!charge(e, (int64_t)(N * (L + 1) * n + n * L * N * 4))) {
            e->why_building = "the split tables";
            return *res = EC_OUT, AB_OK;
        }
    }
    return AB_OK;
}

/* (R10) true when free tensor t may sit at o under height H: at each kept
 * start of its range with a table, some split has DL(B) <= o and
 * o + h + U_r(A) <= H, r = (o + h) mod lcm. */
static bool astack_ok(const ec *e, const ec_tensor *t, int64_t o, int64_t H) {
    if (e->ast == NULL) return true;
    size_t me = (size_t)(t - e->t);
    for (int32_t g = t->cts; g <= t->cte; g++) {
        const ec_astack *s = &e->ast[g];
        if (s->n == 0) continue;
        int32_t m = 0;
        while (m < s->n && s->who[m] != me) m++;
        if (m == s->n) continue;
        int64_t base = sat_add(o, t->h);
        size_t q = (size_t)m * (size_t)s->lcm + (size_t)(base % s->lcm);
        int64_t lo = s->fr_at[q], hi = s->fr_at[q + 1];
        /* the last pair with DL <= o: its U is the least over those */
        int64_t best = INT64_MAX;
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (s->fr[2 * mid] <= o) best = s->fr[2 * mid + 1], lo = mid + 1;
            else hi = mid;
        }
        if (best == INT64_MAX || sat_add(base, best) > H) return false;
    }
    return true;
}

/* ---- the searches over heights ----------------------------------------------------------- */

static ab_status make_scratch(ec *e, ab_error *err) {
    size_t nfree = 0;
    for (size_t c = 0; c < e->ncomp; c++)
        if (e->comp[c].nfree > nfree) nfree = e->comp[c].nfree;
    e->keys = ab_alloc_array(nfree + 1, sizeof *e->keys);
    if (!e->keys) return ab_fail(err, AB_ENOMEM, "exact-cover: out of memory");
    return AB_OK;
}

/* The candidate offsets and heights of every component, up to e->hmax. */
static ab_status make_candidates(ec *e, ec_end *end, ab_error *err) {
    if (budget_spent(e)) {
        e->why_building = "the offsets";
        *end = EC_BUDGET;
        return AB_OK;
    }
    for (size_t q = 0; q < e->ncomp; q++) {
        size_t c = e->comp_order[q];
        ec_result r = EC_FOUND;
        ab_status st = e->o.compress ? clique_dp(e, c, &r, err) : AB_OK;
        if (st != AB_OK) return st;
        if (r == EC_OUT) {
            *end = EC_BUDGET;
            return AB_OK;
        }
        if (e->comp[c].dp_off != NULL) continue;
        st = e->o.compress ? make_sums(e, c, &r, err) : AB_OK;
        if (st == AB_OK && r == EC_FOUND)
            st = e->o.compress ? gravity_sets(e, c, &r, err) : plain_sets(e, c, &r, err);
        if (st == AB_OK && r == EC_FOUND) st = make_tops(e, c, &r, err);
        if (st == AB_OK && r == EC_FOUND && e->o.compress) st = stack_floor(e, c, &r, err);
        if (st == AB_OK && r == EC_FOUND && e->o.compress) st = astack_make(e, c, &r, err);
        if (st != AB_OK) return st;
        if (r != EC_FOUND) {
            *end = r == EC_OUT ? EC_BUDGET : EC_MEMORY;
            return AB_OK;
        }
    }
    return AB_OK;
}

/* A refutation of H by component c: no height below next_top is possible. */
static void refuted_at(ec *e, size_t c, int64_t H) {
    int64_t nt = next_top(e, c, H);
    if (nt > e->lbr) e->lbr = nt;
}

/* The height to try for component c when every height below lo is refuted
 * and its best plan is above hi: the middle of its tops in [lo, hi] (lo when
 * there is none: no cover there, and lo is the cheapest to refute). */
static int64_t mid_top(const ec *e, size_t c, int64_t lo, int64_t hi) {
    const ec_comp *k = &e->comp[c];
    size_t i0 = ab_count_lt(k->tops, k->ntops, lo), i1 = ab_count_le(k->tops, k->ntops, hi);
    return i1 > i0 ? k->tops[i0 + (i1 - i0 - 1) / 2] : lo;
}

/* search=up: every height below L is refuted (L starts at the bound). Each
 * component in order is tried at L first, or at its floor when (R9) raised
 * it above L. Until a cover is found it then gallops: the highest top in
 * [L, L + step], step doubling from 1, since optima lie mostly near the
 * bound, a matrix grows with its height, and a refutation near the bound
 * (where R7 leaves few rows) costs far less than a search for a cover
 * higher up. Once a cover lowered its arena, it bisects: the middle top
 * between L and its arena. A refutation raises L to the next top, a cover
 * lowers the arena. Having a cover is monotone in H (rows only grow with
 * H), so this ends with the component's best plan at L, which is then
 * optimal. (Measured in nodes, which count the building too: on 240 random
 * 8-tensor coprime suites galloping from 1/64 of the gap proved 240 within
 * 20M nodes, 690k nodes in all, where bisecting from the start proved 237,
 * 867k. With R9's floors, a step from 1 proved 140 of 140 (seeds 1100-1199
 * and 1-40) at nodes=3M, time=30, against 139: coprime-8-1163 in 6.5 s of
 * CPU, unproven in 30 s from 1/64; the others took the same nodes.) */
static ab_status search_up(ec *e, ec_end *end, ab_error *err) {
    int64_t L = e->lb;
    for (size_t q = 0; q < e->ncomp; q++) {
        size_t c = e->comp_order[q];
        bool first = true, covered = false;
        int64_t step = -1;
        while (e->comp[c].arena > L) {
            if (L > e->cap) {
                *end = EC_INFEASIBLE;
                return AB_OK;
            }
            int64_t hi = e->comp[c].arena - 1 < e->cap ? e->comp[c].arena - 1 : e->cap;
            if (step < 0) step = 1;
            int64_t H;
            if (first) { /* the lowest height not refuted: the bound, or the floor (R9) */
                H = L > e->comp[c].floor ? L : e->comp[c].floor;
                if (H > hi) H = L;
            } else if (!covered) {
                int64_t lim = sat_add(L, step);
                H = mid_top(e, c, L, lim < hi ? lim : hi);
                step = sat_mul(step, 2);
            } else {
                H = mid_top(e, c, L, hi);
            }
            first = false;
            ec_result r;
            e->stop_h = H;
            ab_status st = comp_solve(e, c, H, &r, err);
            if (st != AB_OK) return st;
            if (r == EC_OUT || r == EC_TOO_BIG) {
                *end = r == EC_OUT ? EC_BUDGET : EC_MEMORY;
                return AB_OK;
            }
            if (r == EC_NONE) {
                refuted_at(e, c, H);
                L = next_top(e, c, H);
            } else {
                covered = true;
            }
        }
    }
    *end = max_arena(e) <= e->cap ? EC_OPTIMAL : EC_INFEASIBLE;
    return AB_OK;
}

/* Tries every component whose arena is above H at height H. *refuted is set
 * when one has no cover there. */
static ab_status all_at(ec *e, int64_t H, ec_end *end, bool *refuted, ab_error *err) {
    *refuted = false;
    e->stop_h = H;
    for (size_t q = 0; q < e->ncomp; q++) {
        size_t c = e->comp_order[q];
        if (e->comp[c].arena <= H) continue;
        ec_result r;
        ab_status st = comp_solve(e, c, H, &r, err);
        if (st != AB_OK) return st;
        if (r == EC_NONE) {
            refuted_at(e, c, H);
            *refuted = true;
            return AB_OK;
        }
        if (r == EC_OUT || r == EC_TOO_BIG) {
            *end = r == EC_OUT ? EC_BUDGET : EC_MEMORY;
            return AB_OK;
        }
    }
    return AB_OK;
}

/* search=down: below the best plan until a height is refuted. */
static ab_status search_down(ec *e, ec_end *end, ab_error *err) {
    for (;;) {
        int64_t A = max_arena(e);
        if (A <= e->lb) {
            *end = A <= e->cap ? EC_OPTIMAL : EC_INFEASIBLE;
            return AB_OK;
        }
        int64_t H = A - 1 < e->cap ? A - 1 : e->cap;
        if (H < e->lb) {
            *end = EC_INFEASIBLE;
            return AB_OK;
        }
        bool refuted;
        ab_status st = all_at(e, H, end, &refuted, err);
        if (st != AB_OK || *end != EC_RUNNING) return st;
        if (refuted) { /* the best plan is optimal; over the capacity, it does not fit */
            *end = H == A - 1 && A <= e->cap ? EC_OPTIMAL : EC_INFEASIBLE;
            return AB_OK;
        }
    }
}

/* target=capacity: one height. */
static ab_status search_target(ec *e, ec_end *end, ab_error *err) {
    if (e->lb > e->cap) {
        *end = EC_INFEASIBLE;
        return AB_OK;
    }
    bool refuted;
    ab_status st = all_at(e, e->cap, end, &refuted, err);
    if (st != AB_OK || *end != EC_RUNNING) return st;
    *end = refuted ? EC_INFEASIBLE : max_arena(e) <= e->lb ? EC_OPTIMAL : EC_FITS;
    return AB_OK;
}

/* ---- the planner ------------------------------------------------------------------------- */

/* The memory limit: mem=, or the address-space limit when lower. */
static int64_t memory_limit(int64_t mem) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (uint64_t)rl.rlim_cur < (uint64_t)mem)
        return (int64_t)rl.rlim_cur;
    return mem;
}

/* The proven lower bound in units: the max-load bound, above every refuted
 * height, the arena itself when optimal. */
static int64_t proven_lb(const ec *e, ec_end end) {
    int64_t lb = e->lb;
    if (e->lbr > lb) lb = e->lbr;
    if (end == EC_OPTIMAL) lb = max_arena(e);
    if (end == EC_INFEASIBLE && e->cap != INT64_MAX && e->cap + 1 > lb) lb = e->cap + 1;
    return lb;
}

/* The one-line note, cut to fit. */
__attribute__((format(printf, 2, 3))) static void note(ab_plan_stats *st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->note, sizeof st->note, fmt, ap);
    va_end(ap);
}

static void write_note(const ec *e, ec_end end, ab_plan_stats *st) {
    char nodes[32], kp[32] = "";
    int64_t A = max_arena(e);
    long long u = (long long)e->unit, a = (long long)A;
    human(nodes, sizeof nodes, e->budget.nodes);
    if (e->o.k > 1) snprintf(kp, sizeof kp, "k=%lld: ", (long long)e->o.k);
    const char *for_k = e->o.k > 1 ? " for this k" : "";
    switch (end) {
    case EC_OPTIMAL:
        if (A <= e->lb)
            note(st, "%soptimal%s at H=%lld units of %lld B (max-load bound); %s nodes",
                     kp, for_k, a, u, nodes);
        else
            note(st, "%soptimal%s at H=%lld units of %lld B; every lower height refuted "
                     "(%lld matrices); %s nodes",
                     kp, for_k, a, u, (long long)e->heights, nodes);
        break;
    case EC_FITS:
        note(st, "%sfits the capacity: %lld of %lld units of %lld B; %s nodes",
                 kp, a, (long long)e->cap, u, nodes);
        break;
    case EC_INFEASIBLE:
        note(st, "%sdoes not fit the capacity of %lld units of %lld B (%s); best %lld; %s nodes", kp,
                 (long long)e->cap, u, e->lb > e->cap ? "max-load bound above it" : "refuted",
                 a, nodes);
        break;
    case EC_BUDGET:
    case EC_MEMORY:
    case EC_RUNNING: {
        char why[112];
        if (end == EC_MEMORY)
            snprintf(why, sizeof why, "%s", e->why);
        else if (e->o.nodes > 0 && e->budget.nodes >= e->o.nodes)
            snprintf(why, sizeof why, "nodes=%lld", (long long)e->o.nodes);
        else { snprintf(why, sizeof why, "time=%g s", e->o.time_s); st->capped = true; }
        note(st, "%sbudget ran out at H=%lld (%s, %s%s); best %lld units of %lld B, proven >= %lld; "
                 "%s nodes",
                 kp, (long long)e->stop_h, why, e->why_building ? "building " : "searching",
                 e->why_building ? e->why_building : "", a, u, (long long)proven_lb(e, end), nodes);
        break;
    }
    }
}

static ab_status exact_cover_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                                  ab_plan_stats *st, ab_error *err) {
    ec e;
    memset(&e, 0, sizeof e);
    ab_problem_init(&e.q);
    st->lower_bound = AB_NONE;
    st->proven_optimal = false;
    st->nodes = 0;
    ab_status s = parse_opts(opt, &e.o, err);
    if (s == AB_OK) s = check_input(p, e.o.k, err);
    if (s == AB_OK && p->npools > 1)
        s = ab_fail(err, AB_EINPUT, "exact-cover: plans one arena, not %zu pools", p->npools);
    if (s == AB_OK && e.o.target && ab_problem_capacity(p) == AB_NONE)
        s = ab_fail(err, AB_EINPUT,
                    "exact-cover: target=capacity needs a suite capacity (or a bounded pool)");
    if (s != AB_OK) return s;
    if (p->n == 0) {
        st->proven_optimal = true;
        st->lower_bound = 0;
        st->method = ABO_PROOF_EXHAUSTIVE;
        note(st, "no tensors: arena 0");
        return AB_OK;
    }
    e.stop_h = 0;
    e.mem_limit = memory_limit(e.o.mem);
    if (e.o.time_s > 0) e.budget.deadline = abp_dlx_now() + e.o.time_s;
    e.budget.max_nodes = e.o.nodes;
    s = make_units(&e, p, err);
    if (s == AB_OK) s = check_fixed(&e, err);
    if (s == AB_OK) s = make_times(&e, err);
    if (s == AB_OK) s = make_components(&e, err);
    if (s == AB_OK) s = make_bounds(&e, err);
    if (s == AB_OK) s = run_best_fit(&e, err);
    ec_end end = EC_RUNNING;
    if (s == AB_OK) {
        for (size_t c = 0; c < e.ncomp; c++) e.comp_order[c] = c;
        ab_sort(e.comp_order, e.ncomp, sizeof *e.comp_order, by_comp_lb, &e);
        e.hmax = e.o.target ? e.cap : (e.ub - 1 < e.cap ? e.ub - 1 : e.cap);
        e.stop_h = e.o.target ? e.cap : e.lb;
        s = make_scratch(&e, err);
    }
    if (s == AB_OK && e.hmax >= e.lb) s = make_candidates(&e, &end, err);
    if (s == AB_OK && end == EC_RUNNING) {
        if (e.o.target) s = search_target(&e, &end, err);
        else if (e.o.down) s = search_down(&e, &end, err);
        else s = search_up(&e, &end, err);
    }
    for (size_t i = 0; s == AB_OK && i < e.n; i++)
        if (ab_mul_ovf(e.best[i], e.unit, &offsets[i]))
            s = ab_fail(err, AB_EINPUT, "exact-cover: an offset overflows 64 bits");
    if (s == AB_OK) {
        st->nodes = e.budget.nodes;
        int64_t lb = proven_lb(&e, end);
        if (e.o.k == 1) {
            st->method = ABO_PROOF_EXHAUSTIVE;
            st->proven_optimal = end == EC_OPTIMAL;
            if (ab_mul_ovf(lb, e.unit, &st->lower_bound)) st->lower_bound = AB_NONE;
        }
        write_note(&e, end, st);
    }
    ec_free(&e);
    return s;
}

static const ab_param_desc exact_cover_params[] = {
    {"k", "integer >= 1", "1",
     "coarsening: sizes rounded up to a multiple of k bytes, offsets multiples of k (k = 1 is "
     "exact and proves optimality)", AB_PARAM_INT, 1, AB_MAX_SIZE, false},
    {"order", "mix|mrv|low|area|canon", "mix",
     "the column order of Algorithm X: mrv takes the tensor with the fewest remaining rows per "
     "unit of size first; low the tensor with the lowest offset left; area tensors by decreasing "
     "rectangle area (the paper's static order); canon places tensors bottom-up, each at its "
     "lowest row, pruned by dominance (intervals engine only); mix runs mrv and canon in turn "
     "with doubling node limits until one finishes (on engine=links: mrv, low and area)",
     AB_PARAM_CHOICE, 0, 0, false},
    {"search", "up|down", "up",
     "up: from the max-load bound, then bisection over the possible arenas between refuted "
     "heights and covers; down: anytime, from the best-fit arena down until a height is refuted",
     AB_PARAM_CHOICE, 0, 0, false},
    {"compress", "on|off", "on",
     "lossless reductions (gcd, kept instructions, gravity offsets, components, twins, split "
     "filter, cliques by subset DP, aligned stacks and splits); off: the paper's plain form",
     AB_PARAM_CHOICE, 0, 0, false},
    {"target", "min|capacity", "min",
     "min: the smallest arena; capacity: only whether the tensors fit the suite's capacity",
     AB_PARAM_CHOICE, 0, 0, false},
    {"learn", "on|off", "on",
     "on: canon remembers the nodes it refuted and cuts a node met again with floors as high "
     "(within the mem budget, at most 144M per matrix)", AB_PARAM_CHOICE, 0, 0, false},
    {"time", "seconds > 0", "no limit",
     "stop after this much CPU time, building included: the best plan so far", AB_PARAM_SECONDS,
     0, 0, true},
    {"nodes", "integer >= 1", "no limit",
     "stop after this many nodes (rows tried; 1024 building steps count as one): the best plan "
     "so far", AB_PARAM_INT, 1, INT64_MAX, true},
    {"mem", "bytes, K/M/G suffixes", "2G",
     "stop (with the best plan so far) before holding more than this (checked before allocating)",
     AB_PARAM_BYTES, 0, 0, false},
    {"engine", "auto|links|intervals", "auto",
     "the search engine for a matrix (the same nodes and cover either way): links (dancing "
     "links on the built matrix) or intervals (rows as intervals, no matrix); auto takes "
     "intervals for order=mix and canon (which only it runs), otherwise when the matrix would "
     "hold more than 4 entries per row and instruction",
     AB_PARAM_CHOICE, 0, 0, false},
    {0},
};

const ab_planner abp_exact_cover = {
    .name = "exact-cover",
    .summary = "Algorithm X with dancing links on the time x memory canvas (MinUn) in compressed "
               "coordinates, optimal at k = 1",
    .flags = AB_PLANNER_EXACT | AB_PLANNER_ANYTIME,
    .params = exact_cover_params,
    .plan = exact_cover_plan,
};
