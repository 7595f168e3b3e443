/*
 * canonical.c — planner `canonical`: depth-first search over canonical
 * solutions, in the class of MiniMalloc (Moffitt, ASPLOS'23), written from the
 * paper's description.
 *
 * THE METHOD. A capacity H is decided by a search that places the free
 * tensors one at a time in nondecreasing order of offset, each at the lowest
 * offset it can take: its FLOOR f(j) at a node, the lowest multiple of its
 * align that is >= x (the offset of the tensor placed last), >= the top of
 * every placed tensor it conflicts with, and overlaps no fixed tensor it
 * conflicts with. A branch chooses which tensor goes next; it goes at its
 * floor. The arena is minimised by deciding capacities: the best of the
 * greedy planners (first-fit in orders start, size and area, best-fit in the
 * same orders) gives a valid plan of arena B; the max-load bound L is tried
 * first (with a third of the budget), then capacities are bisected
 * between the highest refuted one + 1 (lo) and the best plan's arena - 1: a
 * capacity undecided within its share (a quarter of the budget left) only
 * raises a soft floor for the next guess, so plans are found fast; once the
 * soft floor passes best - 1, that capacity gets all that is left. A plan
 * found lowers best, a refutation raises lo; when best <= lo the best plan
 * is optimal. Between the max-load try and the bisection, half of what is
 * left goes to a restriction of the suite, the merged successions (U1),
 * which only finds plans. target=capacity decides
 * the suite's capacity only, as MiniMalloc does.
 *
 * Notation: a node is the set S of placed free tensors with their offsets and
 * x; a COMPLETION of a node is a valid plan of arena <= H that gives S its
 * offsets and every unplaced free tensor j an offset >= x and >= the top of
 * every tensor of S it conflicts with. The root (S empty, x = 0) has a
 * completion iff H is feasible.
 *
 * (C0) The plain search is complete: a node with a completion P has a child,
 *      one per unplaced tensor, with a completion. Let i be the unplaced
 *      tensor lowest in P (ties: lowest index). Its offset o_i in P is an
 *      aligned offset >= x, above its placed conflicts and clear of fixed
 *      ones, so f(i) <= o_i. Moving i down to f(i) keeps P valid: the placed
 *      tensors it conflicts with end at or below f(i), the fixed ones are
 *      avoided by definition, and an unplaced j it conflicts with has
 *      o_j >= o_i (i is lowest), hence o_j >= o_i + s_i >= f(i) + s_i. The
 *      moved plan is a completion of the child that places i at x' = f(i):
 *      every other unplaced j has o_j >= o_i >= x', and those conflicting
 *      with i lie above its new top. The arena did not grow. By induction the
 *      plain search reaches a plan of arena <= H from the root whenever one
 *      exists; every plan it reaches is valid. Floors only rise along a path
 *      (x and the tops grow; the fixed tensors stay), so a completion gives
 *      every unplaced j an offset >= its floor at the node.
 *
 * Among the root-to-leaf paths of the plain search that reach a plan of
 * arena <= H, take the least in the lexicographic order of their sequences
 * of (offset, index) pairs (indices are the static order below); call it
 * sigma. Each pruning rule below, applied where sigma passes, would exhibit
 * another such path that is lexicographically smaller: so no rule ever cuts
 * sigma, and with every rule on, a capacity that is feasible is found and a
 * refutation is a proof. The bounds (B1, B2) cut only nodes with no
 * completion, never a node of sigma.
 *
 * (B1) A tensor that no longer fits. If an unplaced j has f(j) + s_j > H
 *      the node has no completion: j's offset in any completion is >= f(j).
 *
 * (B2) Section inference. A section is an instruction where the live set
 *      changes (a start, or the instruction after an end); two tensors
 *      conflict iff their ranges of sections intersect (both are live at
 *      the later start, a section). Per section t the search keeps top(t),
 *      the highest top of a placed free tensor live at t, and rem(t), the
 *      total size of the unplaced free tensors live at t, both updated when
 *      a tensor is placed and undone on the way back; at each node it takes
 *      minf(t), the lowest floor of the unplaced tensors live at t. Those
 *      tensors all conflict with one another and, in any completion, lie
 *      within [minf(t), H) (each at or above its floor, C0), and minf(t) >=
 *      max(x, top(t)): so minf(t) + rem(t) > H, or top(t) + rem(t) > H,
 *      means no completion. The space of t below minf(t) is lost for good:
 *      this is what refutes a capacity equal to the max-load bound as soon
 *      as a peak section wastes a byte. Fixed tensors live at t take bytes
 *      of [minf(t), H) that those free tensors cannot use either (each of
 *      them conflicts with each fixed one live at t): with fixed(t, y) the
 *      length of [y, H) covered by the fixed tensors live at t (their union,
 *      in units: exact, as g divides fixed offsets and sizes, R1), the
 *      tests are minf(t) + rem(t) + fixed(t, minf(t)) > H and top(t) +
 *      rem(t) + fixed(t, top(t)) > H (fixed(t, y) + y does not decrease as y
 *      grows, so the first is the stronger), and at the root rem(t) +
 *      fixed(t, 0) > H.
 *
 * (D1) Dominance: a tensor that fits wholly below. At a node S, branch i
 *      (at y = f(i)) is cut when another unplaced c has f(c) + s_c <= y.
 *      Proof: let sigma place i at y at S and P be its final plan. Every
 *      tensor placed after i has offset >= y in P, so moving c down to f(c)
 *      (where it overlaps no placed conflict, no fixed conflict and, ending
 *      at or below y, nothing placed after S) gives a valid plan P'' of
 *      arena <= H, a completion of S (every unplaced tensor sits at or above
 *      its floor at S, see C0) in which c is the unique lowest unplaced
 *      tensor, at f(c). By (C0) the plain search from S has a path through
 *      the child "c at f(c)", and f(c) < y makes that path smaller than
 *      sigma. So the candidates are the tensors whose floor is below
 *      min over the others of f(c) + s_c, i.e. close to the lowest floor.
 *      (Branching only on the tensors AT the lowest floor is not safe with
 *      fixed tensors: p fixed at 0 (5 B, [0,0]), k (5, [0,1]), q (6, [0,0],
 *      align 2), c (6, [1,2]) have optimum 16 only with c above k, though
 *      c alone has floor 0; tests/test_canonical.c pins it.)
 *
 * (D2) Commuting placements. Let l be the tensor placed last, at x, from a
 *      node with last offset x0. Branch c (index below l's) is cut when c
 *      does not conflict with l, f(c) = x, and c's floor at l's parent was
 *      x as well. Proof: c's floor does not depend on l (no conflict), so at
 *      l's parent c goes at x; then l's floor is x again (x is a multiple of
 *      its align, its placed conflicts are unchanged and end at or below x,
 *      the fixed ones were clear of it), and both orders reach the same node
 *      with the same x. The swapped path is smaller at l's position.
 *
 * (D3) Twins. Free tensors with equal size, align and range of sections
 *      conflict with the same tensors and are interchangeable: renaming one
 *      into the other maps paths of the plain search to paths with the same
 *      offsets. A twin is branched on only when its lower-indexed twin is
 *      placed; otherwise renaming the pair gives a smaller path.
 *
 * (D4) Lone tensors. Candidates are tried in (floor, index) order. Once
 *      the branch of a candidate b that no unplaced tensor conflicts with
 *      has failed, the later candidates are cut. Proof: let sigma pass
 *      through the node and place a later candidate c next; its plan P is a
 *      completion of the node in which every unplaced tensor lies at >= f(c)
 *      >= f(b). Moving b down to f(b) keeps P valid (b conflicts with no
 *      unplaced tensor, its placed conflicts end at or below f(b), its fixed
 *      ones are clear of f(b), f(b) is aligned) and the arena does not grow;
 *      every other unplaced j keeps o_j >= f(b) and stays above its placed
 *      conflicts: a completion of the child "b at f(b)", so by C0 a path
 *      through that child, smaller than sigma at this position ((f(b), b)
 *      precedes (f(c), c)). (MiniMalloc's "hatless" pruning is of this
 *      kind.)
 *
 * (D5) Dead tensors (MiniMalloc's monotone order). For an unplaced j let
 *      F(j) be its floor at the node just after the last placement that
 *      raised raw(j), or at the root. F(j) <= f(j), and f(j) = F(j) while
 *      x <= F(j). (In a component's search, P1, F(j) may keep a value taken
 *      before the split: it is >= the value defined within the component's
 *      search, and each use below, F(c) < x in D5, F(c) + s_c <= f(i) in D1',
 *      the set of k in B3, stays sound with a larger F.) Branch c is cut
 *      when F(c) < x. Proof: let sigma pass through the node and place c
 *      next, at f(c); let N be the last node on its path with x_N <= F(c)
 *      (there c's floor is F(c): raw(c) did not change since, and
 *      floor_of(c, y) = F(c) for every y between the x where F was taken
 *      and F(c)); the tensor sigma places after N lies at x' > F(c). Move c
 *      down to F(c): its placed conflicts end at or below raw(c) <= F(c),
 *      fixed ones are clear, the tensors placed after c that conflict with
 *      it lie at or above f(c) + s_c. The plan is valid, a completion of N
 *      in which c is the unique lowest unplaced tensor (all others sigma
 *      places after N lie at >= x' > F(c)), at its floor: by C0 a path
 *      through "c at F(c)" at N, smaller than sigma there. The same move
 *      gives (D1'): a branch i is also cut when another unplaced c has
 *      F(c) + s_c <= f(i) (if sigma placed i there, every tensor placed
 *      after it lies at >= f(i) >= F(c) + s_c, and c moves down to F(c) as
 *      above, now with N the last node with x_N <= F(c) or the node itself);
 *      for c with F(c) = f(c) this is D1, so D1 is applied with F.
 *
 * (B3) Dead space. On sigma, a tensor c with F(c) < x is placed later (D5
 *      does not cut sigma) only after raw(c) rises above F(c): after some
 *      unplaced k conflicting with it is placed, at its floor or above, and
 *      below F(c) + s_c (D1' does not cut sigma). So in sigma's plan c lies
 *      at >= min f(k) + s_k over the unplaced conflicts k of c with f(k) <
 *      F(c) + s_c, and when there is no such k, sigma does not pass through
 *      the node. B1 and B2 take that raised floor for c: they cut no node of
 *      sigma (sigma's plan is a completion that respects the raised floors).
 *
 * (B4) Aligned stacks of sections. The free tensors live at a section t
 *      pairwise conflict, so in any valid plan they are disjoint in memory.
 *      Take them in offset order and lower each in turn to the lowest
 *      multiple of its align at or above the top of the one below (0 for the
 *      first): by induction each lands at or below its place (the top below
 *      is at or below its old value, rounding up is monotone, the old offset
 *      was aligned and above it), so the top of this stack is at most the
 *      plan's arena. Hence the least top of a stack over the orders of those
 *      tensors bounds every plan on the g grid (R1), so the optimum, from
 *      below. It is computed by dynamic programming over subsets (with
 *      D({}) = 0 and D(S) = min over i in S of align_up(D(S \ {i}), a_i) +
 *      s_i, the least top of a stack of S: a stack of S ending in i tops at
 *      align_up(its top of S \ {i}, a_i) + s_i, monotone in that top) for
 *      the sections of at most 18 free tensors where the aligns can lift it
 *      above the bound (load + sum of (a - 1) above it). The highest is
 *      where the bisection starts: an exhaustive refutation of every lower
 *      capacity. Fixed tensors are left out, which only weakens it. With
 *      sizes that share no factor and aligns up to 64 the max-load bound is
 *      rarely met, and this is what proves most of them (bench_exact
 *      coprime: see bench/README.md).
 *
 * (B5) Aligned stacks at a node. At a node the unplaced free tensors live
 *      at t pairwise conflict and lie within [minf(t), H) in every
 *      completion that respects B3's raised floors, sigma's plan among them
 *      (as for B2). Lowered in offset order as in B4, starting from
 *      the base b = minf(t), they form a stack whose top is at most H; so
 *      b + (the least top of a stack of them from b) - b > H means no
 *      completion. From base b, align_up(b - r + y, a) = b - r +
 *      align_up(y, a) whenever a divides b - r, so with r = b mod the lcm of
 *      their aligns the least top above b is D_r(S) - r, where D_r is B4's
 *      table started at D_r({}) = r. It is computed for at most 12 unplaced
 *      tensors and an lcm of at most 4096, only where it can cut (minf(t) +
 *      rem(t) + the section's sum of (a - 1) > H: below that no stack
 *      passes H), and kept in a direct-mapped cache per (section, set,
 *      residue), which a search revisits constantly. Like B2 it cuts no node
 *      of sigma.
 *
 * (P1) Decomposition. Let the boundary between sections t and t + 1 be CUT
 *      at a node when no unplaced free tensor spans both. The unplaced
 *      tensors then split into COMPONENTS: maximal runs of sections joined
 *      by uncut boundaries, each tensor in the run of its sections. Tensors
 *      of different components share no section, so they do not conflict,
 *      and the state each sees (its floors through raw, and top/rem of its
 *      sections) changes only when a tensor of its own component is placed.
 *      When a placement makes a new cut, the search (a) relaxes the node: it
 *      drops the requirement o_j >= x, keeping o_j >= the tops of placed
 *      conflicts (raw) and clear of fixed tensors, which every completion of
 *      the node meets; (b) searches each component on its own, from a root
 *      with x = 0, in turn, keeping the plan of each one found while the
 *      next is searched. The relaxed node has a completion iff every
 *      component has one (the union is valid: no conflicts across
 *      components, each tensor above its placed conflicts); so the union of
 *      the plans found is a valid plan of arena <= H, and a component
 *      refuted refutes the relaxed node, hence the node, whatever was chosen
 *      in the components searched before it: the search returns at once to
 *      the node that split. The search of a component is the search above
 *      from the state (S, x = 0) with the other components' tensors left
 *      out: every argument above (C0, B1-B3, D1-D5, sigma taken within the
 *      component's search) is about the search below one state (S, x) and
 *      holds for any S and x (placed tensors enter only through raw and
 *      top; the order of placement restarts at x = 0). MiniMalloc
 *      decomposes the same way.
 *
 * (R1) Units. As in exact_cover.c: sizes and fixed offsets are divided by
 *      their gcd g, lowered to gcd(g, a) for each align a that neither
 *      divides g nor is a multiple of it. The plans the search builds (C0)
 *      have every offset 0-based on tops of conflicting tensors, x (itself
 *      such an offset) or fixed tops, each aligned up: multiples of g by the
 *      argument there. So some optimal plan lies on the g grid and a
 *      capacity C is decided at floor(C / g) units; a refuted H units proves
 *      every arena >= (H + 1) x g bytes.
 *
 * (N1) Refuted nodes are remembered. Within one search (the search of a
 *      component, P1, or the whole), take the unplaced free tensors U of a
 *      node and their floors f(j): a completion of the node is exactly an
 *      assignment of offsets to U, each aligned, clear of its fixed
 *      conflicts and >= f(j) (that is what >= x and >= the placed conflicts'
 *      tops amount to, f(j) being the lowest such offset), valid among U
 *      and within H. So the KEY (U, f on U) decides whether a node has a
 *      completion, whatever the path to it, the order or the component.
 *      Claim: a node N whose children were all tried and which returns
 *      "refuted" (no plan found, no budget stop, no abandonment DEAD) has no
 *      completion. Suppose it has one. Then the plain search from the
 *      search's root has successful paths through N; let sigma be the least
 *      one of all, so sigma <= each of those. No rule or bound cuts a node of
 *      sigma (above; and a cut by this rule only meets nodes without a
 *      completion, by induction on the time of recording), so N is not on
 *      sigma: N's result would then be a plan (or an abandonment), not a
 *      refutation. Let A be the deepest node on both sigma and N's path; A
 *      tries its children in (floor, index) order, which is the
 *      lexicographic order of the paths through them. If sigma's child came
 *      first, its subtree ends the search of A with a plan or an abandonment
 *      before N's is entered; if N's came first, every path through N is
 *      smaller than sigma, contradicting sigma's choice. So the key of N, at
 *      capacity H, has no completion at H, nor at any lower capacity (a
 *      completion at H' <= H is one at H), nor does a key with the same
 *      tensors and floors >= these (its completions are completions of the
 *      recorded key). So a node is refuted on sight when the table
 *      (planners/nogood.h) holds its tensors with floors <= its own at a
 *      capacity >= H: it has no completion, so it is on no sigma, and every
 *      argument above stands. The table is shared by the four orders (keys
 *      name the problem's tensors, not the indices) and kept across
 *      capacities and rounds; learn=off turns it off.
 *
 * (U1) Merged successions (minimising only). Call b a SUCCESSOR of a when
 *      both are free, of the same size, and b starts at the instruction
 *      after a ends (b.start = a.end + 1). The restriction Q of the suite
 *      replaces each chain a1, a2, ..., ak of successors (a(i+1) a successor
 *      of a(i); each a taking, in index order, its lowest-indexed successor
 *      not yet taken) by ONE tensor m of that size, live on [a1.start,
 *      ak.end], with the largest align of the chain (aligns are powers of
 *      two: the lcm); fixed tensors stay. Claim: a plan of Q, each member
 *      given its chain's offset, is a plan of the suite with the same
 *      arena. The offset is a multiple of every member's align. A tensor x
 *      that conflicts with a member conflicts with m, whose range contains
 *      the member's, so in Q's plan x (or x's chain) and m share no byte;
 *      two members of one chain never conflict (each starts after the one
 *      before it ends). So Q's optimum is >= the suite's and every plan of
 *      Q is a plan of the suite; a refutation of Q proves nothing about the
 *      suite and is never used: every bound reported (max-load, B4, a
 *      refuted capacity) is the suite's own. m's range is exactly the union
 *      of its members' (no instruction between them), so every section's
 *      load is unchanged and Q has the suite's max-load bound. Q is searched
 *      by everything above (its own units R1, orders and table N1), from
 *      the suite's bound and best arena; a plan below the best replaces it.
 *      Since Q's refutations bound nothing of the suite, its share goes to
 *      finding plans, in PASSES with a node limit b per capacity (2^14 at
 *      first, doubled after a pass that found nothing): a pass walks down
 *      from best - 1 one capacity at a time, passing over undecided ones
 *      (a plan restarts the walk below it; a refutation of Q ends the
 *      pass, every lower capacity being refuted for Q too). Which capacity
 *      a search decides fast is luck (on D's Q, 977 units fit in 0.5M
 *      nodes and 974 in 0.9M, while 975 and 976 are undecided after 11M:
 *      bench/README.md); many small tries just below the best find the
 *      lucky ones. (The suite's bisection reached 977 units on D in 600 s,
 *      a bisection before the walk in each pass 985, this walk 974; on the
 *      family's sample they trade places: bench/README.md.) With no budget
 *      at all the passes end at Q's optimum: b grows until a pass decides
 *      every capacity it tries. Why the restriction pays: a tensor handing
 *      its slot to one of the same size is a choice the search otherwise
 *      makes again and again. merge=off leaves it out; merge=only
 *      searches Q alone (from Q's own greedy plan, with the whole budget:
 *      the best plan of Q and the suite's bound, which is what the tests
 *      compare with the brute force on a restriction built independently).
 *      Figures: bench/README.md.
 *
 * Static orders (the indices of the free tensors, which break every tie):
 * seven by default (orders= sets them, up to 8), each a list of keys, larger first, then the suite's order: W the
 * instructions a tensor spans (its width in time, MiniMalloc's W), C the
 * sections it spans (MiniMalloc's C), A its area (size x instructions), T
 * its total (the largest free load over its sections), Z its size; the
 * orders are MiniMalloc's WAT, TAW and TWA, the same three with C in place
 * of W, and CZ. (W and C rank tensors differently when sections are of
 * unequal lengths; each of the two triples decides instances that the
 * other leaves undecided: the family in bench/README.md, and the figures
 * there under "Figures formerly in the solvers' opening comments".) A
 * capacity is decided by
 * one search per order taking turns, with a node limit that doubles each
 * round (64 + 2 n at first), until one finishes: each is the search above
 * in its own indices, so a plan found is valid and a search that finishes
 * without one is a refutation; a search cut by its limit proves nothing and
 * goes on later from where it stopped (S1) with a larger limit (MiniMalloc's
 * round robin starts it again from the root). Any
 * total order of the free tensors is a static order for every rule above,
 * so adding orders changes which search finishes first, never what a
 * finished one proves.
 *
 * (S1) Suspended searches. Each order's search runs on a stack of its own
 * (a coroutine: makecontext, swapcontext) and, at its node limit, yields
 * instead of unwinding; the next round resumes it with a higher limit. Its
 * state (placed, off, raw, top, rem, F, the candidate and undo stacks) is
 * its own and untouched while it waits; only the shared table of N1 may
 * gain entries, each a state without a completion, which cuts no node of
 * sigma whenever it is consulted. So a resumed search is the same
 * depth-first search as one that never stopped, run with the cuts of a
 * table that grew meanwhile: a plan it returns is valid, a refutation it
 * returns is complete (every child of every node was tried or cut by a
 * rule above), and N1 records only nodes whose children all returned. A
 * search suspended on one capacity is dropped when another is decided
 * (its unfinished nodes were never recorded), and started afresh. Without
 * memory for a stack the search runs as a plain call and starts again from
 * the root each round, as before.
 * Candidates are tried lowest floor first, then in index order.
 *
 * (O1) The order of a component. The search of a component (P1) is a search
 * of its own, so it may take its own static order: with an order that has
 * the key T, the component's tensors are ranked by the keys with T taken
 * from the loads still unplaced (the largest over the tensor's sections),
 * then by index, as MiniMalloc does when it solves a partition; every rule
 * that names an index (D2, D3, D4, the candidates' order, sigma) uses this
 * rank within the component's search, and the ranks are restored when it
 * returns. Twins tie on every key, so the lower-indexed twin stays the
 * lower-ranked one (D3).
 *
 * BUDGETS. nodes=N (deterministic) and time=S (CPU seconds, clock()) stop the
 * search; the best valid plan found is returned (never an empty one), with
 * the bound proven so far: max(max-load, highest refuted capacity + 1).
 * Determinism: every order is total, nothing is random; only time= makes the
 * stopping point vary.
 */
#include <math.h>
#include <stdarg.h>
#include <ucontext.h> /* makecontext, swapcontext (glibc declares them with POSIX 2008 too) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/sort.h"
#include "planners/greedy.h"
#include "planners/nogood.h"
#include "planners/planner.h"

__extension__ typedef __int128 i128;

/* Above these the search is skipped (the greedy plan is returned). */
#define CN_MAX_EDGES ((int64_t)50 * 1000 * 1000)
#define CN_SUM_LIMIT ((int64_t)1 << 61)

/* The static orders (orders=): CZ and MiniMalloc's three with sections (C)
 * in place of its width (W) first, then its own three. */
#define CN_ORDERS_DEFAULT "CZ/CAT/TAC/TCA/WAT/TAW/TWA"
#define CN_MAX_ORDERS 8

typedef enum cn_result { CN_REFUTED, CN_FOUND, CN_STOPPED, CN_DEAD } cn_result;

typedef struct cn_opts {
    bool target;     /* target=capacity */
    char orders[CN_MAX_ORDERS][8]; /* the static orders (orders=), each its keys */
    size_t norders;
    bool learn;      /* learn=on: (N1) */
    int merge;       /* merge=on|off|only (0, 1, 2): (U1) */
    double time_s;   /* <= 0: none */
    int64_t nodes;   /* <= 0: none */
} cn_opts;

typedef enum cn_run { CN_IDLE, CN_RUNNING, CN_SUSPENDED, CN_DONE } cn_run;

typedef struct cn {
    cn_opts o;
    /* the units problem: free tensors 0 .. nf in static order */
    int64_t g;                  /* bytes per unit */
    size_t nf, nx;              /* free and fixed tensors */
    size_t *orig;               /* free tensor -> index in the problem */
    int64_t *s, *a;             /* size, align (units) */
    int32_t *t0, *t1;           /* range of sections */
    int32_t *twin;              /* lower-indexed twin, or -1 */
    size_t *adj_at, *adj;       /* conflicting free tensors (CSR) */
    size_t *fx_at;              /* conflicting fixed tensors: fx_lo/fx_hi[fx_at[j] ..] */
    int64_t *fx_lo, *fx_hi;     /* sorted by lo */
    size_t *fs_at;              /* (B2) per section t (T + 1 entries): the union of the fixed tensors live at t, */
    int64_t *fs_lo, *fs_hi;     /* fs_lo/fs_hi[fs_at[t] ..], sorted, disjoint (units), */
    int64_t *fs_suf;            /* fs_suf[k]: the length of the section's intervals from k on */
    bool fixed_secs;            /* some section has a fixed tensor: B2 reads the above */
    int32_t T;                  /* sections */
    int64_t *rem0;              /* free bytes live per section, at the root */
    int64_t L;                  /* max-load and fixed tops, units */
    /* search state */
    int64_t H;
    bool *placed;
    int64_t *off, *raw, *top, *rem;
    int64_t *minf;              /* scratch: the lowest floor of the unplaced tensors per section */
    int64_t *F;                 /* (D5) the floor after the last rise of raw */
    int64_t *fl;                /* scratch: the floor per tensor at a node */
    const char *keys;           /* the static order's keys */
    int32_t *rank;              /* the order within the current component's search (O1) */
    i128 *area;                 /* size x instructions */
    int64_t *wid;               /* instructions - 1 (the key W) */
    int64_t *tot;               /* scratch: the largest remaining load over a tensor's sections */
    int32_t *rsave;             /* saved ranks, a stack */
    size_t nrsave, rsave_cap;
    int64_t *undo;              /* pairs (where, old value): raw (where >= 0) or top (-1 - t) */
    size_t nundo, undo_cap;
    int32_t *cand;              /* candidate stack: pairs (tensor) with floors in candf */
    int64_t *candf;
    size_t ncand, cand_cap;
    int64_t *sol;               /* the plan found, units */
    int64_t nodes, node_stop;   /* node_stop: stop when nodes reach it (<= 0: none) */
    clock_t deadline;           /* (clock_t)-1: none */
    bool stopped;
    /* (S1) the search as a coroutine: it runs on its own stack and yields to
     * back when it reaches node_stop, to be resumed with a higher one */
    ucontext_t ctx, *back;      /* back NULL: no stack, the search runs and stops as a call */
    char *stack;
    size_t stack_size;
    cn_run run;
    int64_t run_H;              /* the capacity being decided */
    cn_result res;              /* with CN_DONE */
    /* decomposition (P1) */
    int32_t *cut;               /* per boundary t | t + 1: unplaced free tensors spanning it */
    int32_t *pool;              /* the components' tensor lists */
    size_t npool, pool_cap;
    struct cn_part {
        size_t at, n;           /* pool[at .. at + n) */
        int32_t lo, hi;         /* sections */
        size_t origin;          /* depth of the node that split */
    } *pend;                    /* components still to search */
    size_t npend, pend_cap;
    size_t dead_to;             /* with CN_DEAD: the depth of the node refuted */
    /* (B5) stacks of the unplaced tensors of a section */
    size_t *sec_at;             /* free tensors live at section t: sec_list[sec_at[t] ..] */
    int64_t *slack0;            /* per section: the sum of (align - 1) of its free tensors */
    int64_t *sec_instr;         /* per section: its first instruction */
    int32_t *sec_list;
    struct cn_memo {            /* a direct-mapped cache of least stacks */
        uint64_t mask;          /* section-local positions of the unplaced tensors */
        int32_t t1, r;          /* section + 1 (0: an empty entry, so a zeroed table is
                                   empty and calloc's fresh pages are not touched until
                                   used), base modulo the aligns' lcm */
        int64_t top;            /* the least top above the base */
    } *memo;
    int memo_bits;              /* the table has 2^memo_bits entries */
    /* (N1) refuted nodes */
    abp_ng *ng;                 /* NULL: none */
    int64_t *ngv, *ngs;         /* per tensor of the problem: its floor, and the node (serial) that saw it unplaced */
    int64_t *ngid;              /* scratch: the unplaced tensors of a node (problem indices) */
    int64_t serial;
} cn;

/* ---- parameters ------------------------------------------------------------------- */

/* The options of opt (resolved against canonical_params); AB_EINPUT when
 * `orders`, a text, is not a list of orders. */
static ab_status parse_opts(const ab_params *opt, cn_opts *o, ab_error *err) {
    o->target = ab_param_choice(opt, "target") == 1; /* min|capacity */
    o->learn = ab_param_choice(opt, "learn") == 0;   /* on|off */
    o->merge = ab_param_choice(opt, "merge");        /* on|off|only */
    const char *v = ab_param_text(opt, "orders");
    o->norders = 0;
    for (const char *q = v;;) { /* separated by '/' (or ',', quoted); each 1-5 distinct keys of WCATZ */
        size_t len = strcspn(q, ",/");
        bool ok = len >= 1 && len <= 5 && o->norders < CN_MAX_ORDERS;
        for (size_t i = 0; i < len && ok; i++)
            ok = strchr("WCATZ", q[i]) != NULL && memchr(q, q[i], i) == NULL;
        if (!ok)
            return ab_fail(err, AB_EINPUT,
                           "parameter orders: expected up to %d orders separated by '/', each 1-5 distinct "
                           "keys of W (width in instructions), C (sections), A (area), T (total), Z (size), "
                           "got '%s'", CN_MAX_ORDERS, v);
        memcpy(o->orders[o->norders], q, len);
        o->orders[o->norders++][len] = '\0';
        if (q[len] == '\0') break;
        q += len + 1;
    }
    o->time_s = ab_param_has(opt, "time") ? ab_param_seconds(opt, "time") : 0;
    o->nodes = ab_param_has(opt, "nodes") ? ab_param_i64(opt, "nodes") : 0;
    return AB_OK;
}


/* ---- setup ------------------------------------------------------------------------ */

static void cn_free(cn *c) {
    ab_free(c->orig), ab_free(c->s), ab_free(c->a), ab_free(c->t0), ab_free(c->t1);
    ab_free(c->twin), ab_free(c->adj_at), ab_free(c->adj), ab_free(c->fx_at);
    ab_free(c->fx_lo), ab_free(c->fx_hi), ab_free(c->rem0), ab_free(c->placed);
    ab_free(c->fs_at), ab_free(c->fs_lo), ab_free(c->fs_hi), ab_free(c->fs_suf);
    ab_free(c->off), ab_free(c->raw), ab_free(c->top), ab_free(c->rem), ab_free(c->minf), ab_free(c->undo);
    ab_free(c->cand), ab_free(c->candf), ab_free(c->sol);
    ab_free(c->cut), ab_free(c->pool), ab_free(c->pend), ab_free(c->F), ab_free(c->fl);
    ab_free(c->rank), ab_free(c->area), ab_free(c->wid), ab_free(c->tot), ab_free(c->rsave);
    ab_free(c->sec_at), ab_free(c->sec_list), ab_free(c->memo), ab_free(c->slack0), ab_free(c->sec_instr);
    ab_free(c->ngv), ab_free(c->ngs), ab_free(c->ngid), ab_free(c->stack);
    memset(c, 0, sizeof *c);
}


/* The static order's context: the problem, each tensor's sections, its
 * total (the largest free load over its sections) and the heuristic. */
typedef struct static_ctx {
    const ab_problem *p;
    const int32_t *s0, *s1;
    const int64_t *total;
    const char *keys; /* W sections, A area, T total, Z size; then the index */
} static_ctx;

static int by_static(const void *pa, const void *pb, const void *ctx) {
    const static_ctx *k = ctx;
    size_t x = *(const size_t *)pa, y = *(const size_t *)pb;
    const ab_tensor *tx = &k->p->t[x], *ty = &k->p->t[y];
    for (const char *q = k->keys; *q; q++) {
        i128 vx = 0, vy = 0;
        if (*q == 'C') vx = k->s1[x] - k->s0[x], vy = k->s1[y] - k->s0[y];
        else if (*q == 'W') vx = tx->end - tx->start, vy = ty->end - ty->start;
        else if (*q == 'A') vx = (i128)tx->size * (tx->end - tx->start + 1), vy = (i128)ty->size * (ty->end - ty->start + 1);
        else if (*q == 'T') vx = k->total[x], vy = k->total[y];
        else if (*q == 'Z') vx = tx->size, vy = ty->size;
        if (vx != vy) return vx > vy ? -1 : 1;
    }
    return (x > y) - (x < y);
}

/* The static orders the search takes turns with: CZ and MiniMalloc's three
 * with sections (C) in place of its width (W) first, then its own three. */


/* Twins (D3): same size, align and sections; sorted by those then index. */
typedef struct twin_ctx {
    const int64_t *s, *a;
    const int32_t *t0, *t1;
} twin_ctx;

static int by_twin(const void *pa, const void *pb, const void *ctx) {
    const twin_ctx *k = ctx;
    size_t x = *(const size_t *)pa, y = *(const size_t *)pb;
    if (k->s[x] != k->s[y]) return k->s[x] < k->s[y] ? -1 : 1;
    if (k->a[x] != k->a[y]) return k->a[x] < k->a[y] ? -1 : 1;
    if (k->t0[x] != k->t0[y]) return k->t0[x] < k->t0[y] ? -1 : 1;
    if (k->t1[x] != k->t1[y]) return k->t1[x] < k->t1[y] ? -1 : 1;
    return (x > y) - (x < y);
}

/* Tensor indices by (start, size, index) of the problem in ctx (U1). */
static int by_start_size(const void *pa, const void *pb, const void *ctx) {
    const ab_problem *p = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const ab_tensor *x = &p->t[a], *y = &p->t[b];
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    if (x->size != y->size) return x->size < y->size ? -1 : 1;
    return (a > b) - (a < b);
}

static int by_pair_lo(const void *pa, const void *pb) {
    const int64_t *a = pa, *b = pb;
    if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
    return (a[1] > b[1]) - (a[1] < b[1]);
}

/* (B2) The union of the fixed tensors live at each section, in units, with
 * fs_suf[k] the length of the section's intervals from k on (at most the
 * highest fixed top, within CN_SUM_LIMIT). AB_ENOMEM when memory runs out,
 * AB_ELIMIT when the fixed tensors span more than CN_MAX_EDGES sections in
 * all (as for the conflicts, the search is then skipped). */
static ab_status fixed_sections(cn *c, const ab_problem *p, const int32_t *s0, const int32_t *s1) {
    size_t T = (size_t)c->T, total = 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->t[i].offset != AB_NONE && (total += (size_t)(s1[i] - s0[i] + 1)) > (size_t)CN_MAX_EDGES)
            return AB_ELIMIT;
    c->fs_at = ab_calloc(T + 1, sizeof *c->fs_at);
    if (c->fs_at == NULL) return AB_ENOMEM;
    for (size_t i = 0; i < p->n; i++)
        if (p->t[i].offset != AB_NONE)
            for (int32_t k = s0[i]; k <= s1[i]; k++) c->fs_at[k + 1]++;
    for (size_t t = 0; t < T; t++) c->fs_at[t + 1] += c->fs_at[t];
    c->fs_lo = ab_alloc_array(total ? total : 1, sizeof *c->fs_lo);
    c->fs_hi = ab_alloc_array(total ? total : 1, sizeof *c->fs_hi);
    c->fs_suf = ab_alloc_array(total ? total : 1, sizeof *c->fs_suf);
    int64_t *pairs = ab_alloc_array(2 * (total ? total : 1), sizeof *pairs);
    size_t *at = ab_alloc_array(T + 1, sizeof *at);
    if (!c->fs_lo || !c->fs_hi || !c->fs_suf || !pairs || !at) return ab_free(pairs), ab_free(at), AB_ENOMEM;
    memcpy(at, c->fs_at, (T + 1) * sizeof *at);
    int64_t g = c->g;
    for (size_t i = 0; i < p->n; i++)
        if (p->t[i].offset != AB_NONE)
            for (int32_t k = s0[i]; k <= s1[i]; k++) {
                size_t q = at[k]++;
                pairs[2 * q] = p->t[i].offset / g;
                pairs[2 * q + 1] = (p->t[i].offset + p->t[i].size + g - 1) / g;
            }
    size_t out = 0;
    for (size_t t = 0; t < T; t++) { /* sort each section's, merge, compact */
        size_t b = c->fs_at[t], e = c->fs_at[t + 1];
        qsort(pairs + 2 * b, e - b, 2 * sizeof *pairs, by_pair_lo);
        c->fs_at[t] = out;
        for (size_t q = b; q < e; q++) {
            int64_t lo = pairs[2 * q], hi = pairs[2 * q + 1];
            if (out > c->fs_at[t] && lo <= c->fs_hi[out - 1]) {
                if (hi > c->fs_hi[out - 1]) c->fs_hi[out - 1] = hi;
                continue;
            }
            c->fs_lo[out] = lo, c->fs_hi[out] = hi, out++;
        }
    }
    c->fs_at[T] = out;
    c->fixed_secs = out > 0;
    for (size_t t = 0; t < T; t++)
        for (size_t k = c->fs_at[t + 1], b = c->fs_at[t]; k > b; k--)
            c->fs_suf[k - 1] = (c->fs_hi[k - 1] - c->fs_lo[k - 1]) + (k < c->fs_at[t + 1] ? c->fs_suf[k] : 0);
    ab_free(pairs), ab_free(at);
    return AB_OK;
}

/* Builds the units problem of p into c. Returns AB_EINPUT when two
 * conflicting fixed tensors overlap, AB_ELIMIT (no error text) when the
 * problem is too large to search. */
static ab_status cn_setup(cn *c, const ab_problem *p, const char *keys, ab_error *err) {
    size_t n = p->n;
    c->g = ab_problem_gravity_unit(p);
    int32_t *s0 = ab_alloc_array(n ? n : 1, sizeof *s0), *s1 = ab_alloc_array(n ? n : 1, sizeof *s1);
    size_t *idx = ab_alloc_array(n ? n : 1, sizeof *idx);
    ab_status st = AB_ENOMEM;
    if (!s0 || !s1 || !idx || !ab_problem_sections(p, s0, s1, &c->T, &c->sec_instr)) goto out;
    /* fixed tensors must not overlap one another */
    size_t fx, fy;
    if ((st = ab_problem_fixed_overlap(p, &fx, &fy, err)) != AB_OK) goto out;
    if (fx != AB_NO_TENSOR) {
        st = ab_fail(err, AB_EINPUT, "canonical: '%s' and '%s' have fixed offsets that overlap",
                     p->t[fx].name, p->t[fy].name);
        goto out;
    }
    st = AB_ENOMEM;
    i128 total = 0;
    for (size_t i = 0; i < n; i++) {
        total += p->t[i].size + (p->t[i].align > 1 ? p->t[i].align : 0);
        if (p->t[i].offset != AB_NONE) total += p->t[i].offset;
        if (p->t[i].offset != AB_NONE) c->nx++;
        else idx[c->nf++] = i;
    }
    if (total > CN_SUM_LIMIT) {
        st = AB_ELIMIT;
        goto out;
    }
    {
        int64_t *ld = ab_calloc((size_t)c->T + 1, sizeof *ld), *tot = ab_calloc(n ? n : 1, sizeof *tot);
        if (!ld || !tot) {
            ab_free(ld), ab_free(tot);
            goto out;
        }
        for (size_t i = 0; i < n; i++)
            if (p->t[i].offset == AB_NONE)
                for (int32_t k = s0[i]; k <= s1[i]; k++) ld[k] += p->t[i].size;
        for (size_t i = 0; i < n; i++)
            for (int32_t k = s0[i]; k <= s1[i]; k++)
                if (ld[k] > tot[i]) tot[i] = ld[k];
        static_ctx order = {.p = p, .s0 = s0, .s1 = s1, .total = tot, .keys = keys};
        ab_sort(idx, c->nf, sizeof *idx, by_static, &order);
        ab_free(ld), ab_free(tot);
    }
    size_t nf = c->nf, N = nf ? nf : 1;
    int64_t g = c->g;
    c->orig = idx, idx = NULL;
    c->s = ab_alloc_array(N, sizeof *c->s), c->a = ab_alloc_array(N, sizeof *c->a);
    c->t0 = ab_alloc_array(N, sizeof *c->t0), c->t1 = ab_alloc_array(N, sizeof *c->t1);
    c->twin = ab_alloc_array(N, sizeof *c->twin), c->adj_at = ab_calloc(N + 1, sizeof *c->adj_at);
    c->fx_at = ab_calloc(N + 1, sizeof *c->fx_at);
    c->rem0 = ab_calloc((size_t)c->T + 1, sizeof *c->rem0);
    int64_t *load = ab_calloc((size_t)c->T + 1, sizeof *load);
    if (!c->s || !c->a || !c->t0 || !c->t1 || !c->twin || !c->adj_at || !c->fx_at || !c->rem0 ||
        !load) {
        ab_free(load);
        goto out;
    }
    for (size_t j = 0; j < nf; j++) {
        const ab_tensor *t = &p->t[c->orig[j]];
        int64_t al = t->align < 1 ? 1 : t->align;
        c->s[j] = t->size / g;
        c->a[j] = al / ab_gcd(al, g);
        c->t0[j] = s0[c->orig[j]], c->t1[j] = s1[c->orig[j]];
        for (int32_t k = c->t0[j]; k <= c->t1[j]; k++) c->rem0[k] += c->s[j];
    }
    c->L = 0;
    for (size_t i = 0; i < n; i++) {
        if (p->t[i].offset == AB_NONE) continue;
        int64_t top = (p->t[i].offset + p->t[i].size + g - 1) / g;
        if (top > c->L) c->L = top;
        for (int32_t k = s0[i]; k <= s1[i]; k++) load[k] += p->t[i].size / g;
    }
    for (int32_t k = 0; k < c->T; k++)
        if (load[k] + c->rem0[k] > c->L) c->L = load[k] + c->rem0[k];
    ab_free(load);
    /* twins (D3) */
    size_t *tw = ab_alloc_array(N, sizeof *tw);
    if (tw == NULL) goto out;
    for (size_t j = 0; j < nf; j++) tw[j] = j, c->twin[j] = -1;
    twin_ctx tk = {.s = c->s, .a = c->a, .t0 = c->t0, .t1 = c->t1};
    ab_sort(tw, nf, sizeof *tw, by_twin, &tk);
    for (size_t k = 1; k < nf; k++) {
        size_t x = tw[k - 1], y = tw[k];
        if (tk.s[x] == tk.s[y] && tk.a[x] == tk.a[y] && tk.t0[x] == tk.t0[y] && tk.t1[x] == tk.t1[y])
            c->twin[y] = (int32_t)x;
    }
    ab_free(tw);
    /* conflicts among free tensors: a pairwise scan over tensors sorted by t0 */
    int64_t edges = 0;
    for (size_t pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < nf; i++)
            for (size_t j = 0; j < nf; j++) {
                if (i == j || c->t0[i] > c->t1[j] || c->t0[j] > c->t1[i]) continue;
                if (pass == 0) {
                    c->adj_at[i + 1]++;
                    if (++edges > CN_MAX_EDGES) {
                        st = AB_ELIMIT;
                        goto out;
                    }
                } else {
                    c->adj[c->adj_at[i]++] = j;
                }
            }
        if (pass == 0) {
            for (size_t i = 0; i < nf; i++) c->adj_at[i + 1] += c->adj_at[i];
            c->adj = ab_alloc_array(edges ? (size_t)edges : 1, sizeof *c->adj);
            if (c->adj == NULL) goto out;
        } else {
            for (size_t i = nf; i > 0; i--) c->adj_at[i] = c->adj_at[i - 1];
            c->adj_at[0] = 0;
        }
    }
    /* fixed conflicts of each free tensor, sorted by offset */
    size_t nfx = 0;
    for (size_t j = 0; j < nf; j++)
        for (size_t i = 0; i < n; i++)
            if (p->t[i].offset != AB_NONE && s0[i] <= c->t1[j] && c->t0[j] <= s1[i]) nfx++;
    c->fx_lo = ab_alloc_array(nfx ? nfx : 1, sizeof *c->fx_lo);
    c->fx_hi = ab_alloc_array(nfx ? nfx : 1, sizeof *c->fx_hi);
    int64_t *pairs = ab_alloc_array(2 * (c->nx ? c->nx : 1), sizeof *pairs);
    if (!c->fx_lo || !c->fx_hi || !pairs) {
        ab_free(pairs);
        goto out;
    }
    for (size_t j = 0, at = 0; j < nf; j++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (p->t[i].offset == AB_NONE || s0[i] > c->t1[j] || c->t0[j] > s1[i]) continue;
            pairs[2 * k] = p->t[i].offset / g; /* lo rounded down, hi rounded up: */
            pairs[2 * k + 1] = (p->t[i].offset + p->t[i].size + g - 1) / g; /* exact on the grid */
            k++;
        }
        qsort(pairs, k, 2 * sizeof *pairs, by_pair_lo);
        for (size_t q = 0; q < k; q++) c->fx_lo[at + q] = pairs[2 * q], c->fx_hi[at + q] = pairs[2 * q + 1];
        at += k;
        c->fx_at[j + 1] = at;
    }
    ab_free(pairs);
    if ((st = fixed_sections(c, p, s0, s1)) != AB_OK) goto out;
    st = AB_ENOMEM;
    c->placed = ab_calloc(N, sizeof *c->placed);
    c->off = ab_alloc_array(N, sizeof *c->off), c->raw = ab_alloc_array(N, sizeof *c->raw);
    c->top = ab_alloc_array((size_t)c->T + 1, sizeof *c->top);
    c->rem = ab_alloc_array((size_t)c->T + 1, sizeof *c->rem);
    c->minf = ab_alloc_array((size_t)c->T + 1, sizeof *c->minf);
    c->sol = ab_alloc_array(N, sizeof *c->sol);
    c->undo_cap = 1024, c->undo = ab_alloc_array(c->undo_cap, sizeof *c->undo);
    c->cand_cap = 1024, c->cand = ab_alloc_array(c->cand_cap, sizeof *c->cand);
    c->candf = ab_alloc_array(c->cand_cap, sizeof *c->candf);
    c->cut = ab_calloc((size_t)c->T + 1, sizeof *c->cut);
    c->sec_at = ab_calloc((size_t)c->T + 2, sizeof *c->sec_at);
    c->slack0 = ab_calloc((size_t)c->T + 1, sizeof *c->slack0);
    if (c->slack0 != NULL)
        for (size_t j = 0; j < nf; j++)
            for (int32_t k = c->t0[j]; k <= c->t1[j]; k++) c->slack0[k] += c->a[j] - 1;
    if (c->sec_at != NULL) {
        size_t total_in = 0;
        for (size_t j = 0; j < nf; j++) {
            total_in += (size_t)(c->t1[j] - c->t0[j] + 1);
            for (int32_t k = c->t0[j]; k <= c->t1[j]; k++) c->sec_at[k + 1]++;
        }
        for (int32_t k = 0; k < c->T; k++) c->sec_at[k + 1] += c->sec_at[k];
        c->sec_list = ab_alloc_array(total_in ? total_in : 1, sizeof *c->sec_list);
        if (c->sec_list != NULL) {
            for (size_t j = 0; j < nf; j++)
                for (int32_t k = c->t0[j]; k <= c->t1[j]; k++) c->sec_list[c->sec_at[k]++] = (int32_t)j;
            for (int32_t k = c->T; k > 0; k--) c->sec_at[k] = c->sec_at[k - 1];
            c->sec_at[0] = 0;
        }
    }
    c->F = ab_alloc_array(N, sizeof *c->F), c->fl = ab_alloc_array(N, sizeof *c->fl);
    c->rank = ab_alloc_array(N, sizeof *c->rank), c->area = ab_alloc_array(N, sizeof *c->area);
    c->wid = ab_alloc_array(N, sizeof *c->wid);
    c->tot = ab_alloc_array(N, sizeof *c->tot);
    c->rsave_cap = 2 * N + 64, c->rsave = ab_alloc_array(c->rsave_cap, sizeof *c->rsave);
    c->keys = keys;
    if (c->rank && c->area && c->wid)
        for (size_t j = 0; j < nf; j++) {
            const ab_tensor *t = &p->t[c->orig[j]];
            c->rank[j] = (int32_t)j;
            c->area[j] = (i128)t->size * (t->end - t->start + 1);
            c->wid[j] = t->end - t->start;
        }
    c->pool_cap = 4 * N + 64, c->pool = ab_alloc_array(c->pool_cap, sizeof *c->pool);
    c->pend_cap = 64, c->pend = ab_alloc_array(c->pend_cap, sizeof *c->pend);
    if (!c->placed || !c->off || !c->raw || !c->top || !c->rem || !c->minf || !c->sol || !c->undo || !c->cand ||
        !c->candf || !c->cut || !c->pool || !c->pend || !c->F || !c->fl || !c->rank || !c->area || !c->wid ||
        !c->tot || !c->rsave || !c->sec_at || !c->sec_list || !c->slack0)
        goto out;
    st = AB_OK;
out:
    if (st == AB_ENOMEM) ab_fail(err, AB_ENOMEM, "canonical: out of memory");
    ab_free(s0), ab_free(s1), ab_free(idx);
    return st;
}

/* ---- the search ------------------------------------------------------------------- */

/* The length of the union of the fixed tensors live at section t within
 * [y, infinity), units (B2). */
static int64_t fixed_from(const cn *c, int32_t t, int64_t y) {
    size_t lo = c->fs_at[t], hi = c->fs_at[t + 1], end = hi;
    while (lo < hi) { /* the first interval ending above y */
        size_t mid = lo + (hi - lo) / 2;
        if (c->fs_hi[mid] <= y) lo = mid + 1;
        else hi = mid;
    }
    if (lo == end) return 0;
    int64_t v = c->fs_suf[lo];
    if (c->fs_lo[lo] < y) v -= y - c->fs_lo[lo];
    return v;
}

/* The bytes of [y, H) (units) that fixed tensors live at section t take: no
 * free tensor live at t can use them (B2). */
static int64_t fixed_in(const cn *c, int32_t t, int64_t y) {
    if (c->fs_at[t] == c->fs_at[t + 1] || y >= c->H) return 0;
    return fixed_from(c, t, y) - fixed_from(c, t, c->H);
}

/* The floor of free tensor j when the last offset is lo: the lowest multiple
 * of its align >= lo and >= its placed conflicts' tops, clear of its fixed
 * conflicts. */
static int64_t floor_of(const cn *c, size_t j, int64_t lo) {
    int64_t f = c->raw[j] > lo ? c->raw[j] : lo, a = c->a[j];
    f = (f + a - 1) / a * a;
    size_t b = c->fx_at[j], e = c->fx_at[j + 1];
    for (bool moved = b < e; moved;) {
        moved = false;
        for (size_t k = b; k < e && c->fx_lo[k] < f + c->s[j]; k++)
            if (f < c->fx_hi[k]) {
                f = (c->fx_hi[k] + a - 1) / a * a;
                moved = true;
            }
    }
    return f;
}

static bool push_undo(cn *c, int64_t where, int64_t old) {
    if (c->nundo + 2 > c->undo_cap) {
        size_t cap = c->undo_cap * 2;
        int64_t *u = ab_alloc_array(cap, sizeof *u);
        if (u == NULL) return false;
        memcpy(u, c->undo, c->nundo * sizeof *u);
        ab_free(c->undo);
        c->undo = u, c->undo_cap = cap;
    }
    c->undo[c->nundo++] = where;
    c->undo[c->nundo++] = old;
    return true;
}

static bool push_cand(cn *c, int32_t j, int64_t f) {
    if (c->ncand + 1 > c->cand_cap) {
        size_t cap = c->cand_cap * 2;
        int32_t *a = ab_alloc_array(cap, sizeof *a);
        int64_t *b = ab_alloc_array(cap, sizeof *b);
        if (a == NULL || b == NULL) {
            ab_free(a), ab_free(b);
            return false;
        }
        memcpy(a, c->cand, c->ncand * sizeof *a);
        memcpy(b, c->candf, c->ncand * sizeof *b);
        ab_free(c->cand), ab_free(c->candf);
        c->cand = a, c->candf = b, c->cand_cap = cap;
    }
    c->cand[c->ncand] = j;
    c->candf[c->ncand++] = f;
    return true;
}

/* Places j at f; false (after placing) when (B2) refutes the node or memory
 * runs out (c->stopped is then set). */
static bool place(cn *c, size_t j, int64_t f) {
    int64_t top = f + c->s[j];
    c->placed[j] = true;
    c->off[j] = f;
    bool ok = true;
    for (size_t k = c->adj_at[j]; k < c->adj_at[j + 1]; k++) {
        size_t q = c->adj[k];
        if (c->placed[q] || c->raw[q] >= top) continue;
        if (!push_undo(c, (int64_t)q, c->raw[q])) return c->stopped = true, false;
        c->raw[q] = top;
        if (!push_undo(c, -1 - (int64_t)c->T - (int64_t)q, c->F[q])) return c->stopped = true, false;
        c->F[q] = floor_of(c, q, f);
    }
    for (int32_t t = c->t0[j]; t <= c->t1[j]; t++) {
        c->rem[t] -= c->s[j];
        if (c->top[t] < top) {
            if (!push_undo(c, -1 - (int64_t)t, c->top[t])) return c->stopped = true, false;
            c->top[t] = top;
        }
        if (c->top[t] + c->rem[t] + (c->fixed_secs ? fixed_in(c, t, c->top[t]) : 0) > c->H) ok = false;
    }
    return ok;
}

static void unplace(cn *c, size_t j, size_t mark) {
    while (c->nundo > mark) {
        int64_t old = c->undo[--c->nundo], where = c->undo[--c->nundo];
        if (where >= 0) c->raw[where] = old;
        else if (-1 - where < c->T) c->top[-1 - where] = old;
        else c->F[-1 - where - c->T] = old;
    }
    for (int32_t t = c->t0[j]; t <= c->t1[j]; t++) c->rem[t] += c->s[j];
    c->placed[j] = false;
}

static bool out_of_budget(cn *c) {
    if (c->stopped) return true;
    if (c->node_stop > 0 && c->nodes >= c->node_stop) {
        if (c->back == NULL) return c->stopped = true;
        c->run = CN_SUSPENDED; /* (S1) yield; resumed with a higher node_stop, or never */
        if (swapcontext(&c->ctx, c->back) != 0) return c->stopped = true;
        if (c->stopped) return true;
    }
    if (c->deadline != (clock_t)-1 && (c->nodes & 1023) == 0 && clock() >= c->deadline)
        return c->stopped = true;
    return false;
}

static bool conflict(const cn *c, size_t i, size_t j) {
    return c->t0[i] <= c->t1[j] && c->t0[j] <= c->t1[i];
}

static bool grow_pool(cn *c, size_t need) {
    if (c->npool + need <= c->pool_cap) return true;
    size_t cap = c->pool_cap * 2 > c->npool + need ? c->pool_cap * 2 : c->npool + need;
    int32_t *q = ab_alloc_array(cap, sizeof *q);
    if (q == NULL) return false;
    memcpy(q, c->pool, c->npool * sizeof *q);
    ab_free(c->pool);
    c->pool = q, c->pool_cap = cap;
    return true;
}

static bool push_pend(cn *c, struct cn_part part) {
    if (c->npend + 1 > c->pend_cap) {
        size_t cap = c->pend_cap * 2;
        struct cn_part *q = ab_alloc_array(cap, sizeof *q);
        if (q == NULL) return false;
        memcpy(q, c->pend, c->npend * sizeof *q);
        ab_free(c->pend);
        c->pend = q, c->pend_cap = cap;
    }
    c->pend[c->npend++] = part;
    return true;
}

/* (O1) The order of a component's search: its keys with T taken from the
 * remaining loads, then the static index. */
static int by_rank(const void *pa, const void *pb, const void *ctx) {
    const cn *c = ctx;
    int32_t x = *(const int32_t *)pa, y = *(const int32_t *)pb;
    for (const char *q = c->keys; *q; q++) {
        i128 vx = 0, vy = 0;
        if (*q == 'C') vx = c->t1[x] - c->t0[x], vy = c->t1[y] - c->t0[y];
        else if (*q == 'W') vx = c->wid[x], vy = c->wid[y];
        else if (*q == 'A') vx = c->area[x], vy = c->area[y];
        else if (*q == 'T') vx = c->tot[x], vy = c->tot[y];
        else if (*q == 'Z') vx = c->s[x], vy = c->s[y];
        if (vx != vy) return vx > vy ? -1 : 1;
    }
    return (x > y) - (x < y);
}

/* Ranks the unplaced tensors of part for its search, saving the old ranks
 * (restored by unrank). False when out of memory. */
static bool rerank(cn *c, struct cn_part part) {
    if (strchr(c->keys, 'T') == NULL) return true;
    size_t need = 2 * part.n + 1;
    if (c->nrsave + need > c->rsave_cap) {
        size_t cap = (c->rsave_cap + need) * 2;
        int32_t *q = ab_alloc_array(cap, sizeof *q);
        if (q == NULL) return false;
        memcpy(q, c->rsave, c->nrsave * sizeof *q);
        ab_free(c->rsave);
        c->rsave = q, c->rsave_cap = cap;
    }
    int32_t *ids = c->rsave + c->nrsave;
    size_t m = 0;
    for (size_t k = 0; k < part.n; k++) {
        int32_t j = c->pool[part.at + k];
        if (c->placed[j]) continue;
        int64_t best = 0;
        for (int32_t t = c->t0[j]; t <= c->t1[j]; t++)
            if (c->rem[t] > best) best = c->rem[t];
        c->tot[j] = best;
        ids[m++] = j;
    }
    int32_t *old = ids + m;
    ab_sort(ids, m, sizeof *ids, by_rank, c);
    for (size_t k = 0; k < m; k++) old[k] = c->rank[ids[k]], c->rank[ids[k]] = (int32_t)k;
    ids[2 * m] = (int32_t)m;
    c->nrsave += 2 * m + 1;
    return true;
}

static void unrank(cn *c) {
    if (strchr(c->keys, 'T') == NULL) return;
    size_t m = (size_t)c->rsave[c->nrsave - 1];
    c->nrsave -= 2 * m + 1;
    const int32_t *ids = c->rsave + c->nrsave, *old = ids + m;
    for (size_t k = 0; k < m; k++) c->rank[ids[k]] = old[k];
}

static cn_result split(cn *c, struct cn_part part, size_t depth, int64_t x, int64_t x0, size_t l, bool check);
/* The least top of a stack of the n tensors h, a from base b (B4, B5): dp
 * (2^n entries) receives, per subset, its least top; returns the whole's. */
static int64_t least_stack(const int64_t *h, const int64_t *a, size_t n, int64_t b, int64_t *dp) {
    size_t N = (size_t)1 << n;
    bool pow2 = true; /* aligns are powers of two in practice: round up with a mask */
    for (size_t r = 0; r < n; r++) pow2 &= (a[r] & (a[r] - 1)) == 0;
    dp[0] = b;
    for (size_t S = 1; S < N; S++) {
        int64_t m = INT64_MAX;
        for (size_t R = S; R != 0; R &= R - 1) { /* the members of S */
            size_t r = (size_t)__builtin_ctzll((unsigned long long)R);
            int64_t x = dp[S ^ ((size_t)1 << r)] + a[r] - 1;
            int64_t v = (pow2 ? x & -a[r] : x / a[r] * a[r]) + h[r];
            if (v < m) m = v;
        }
        dp[S] = m;
    }
    return dp[N - 1];
}

#define CN_MEMO_BITS 16
#define CN_STACK_LIVE 12   /* (B5): at most this many unplaced tensors in the table */
#define CN_STACK_LCM 4096  /* (B5): and aligns whose lcm is at most this */

/* (B5) The least top above base b of a stack of the unplaced free tensors
 * live at section t, or -1 when it is not worth a table (more than
 * CN_STACK_LIVE of them, a section of more than 64 tensors, aligns of a
 * large lcm). It depends on b only modulo the lcm of their aligns, so it is
 * kept per (t, tensors, b mod lcm) in a direct-mapped cache. */
static int64_t stack_above(cn *c, int32_t t, int64_t b) {
    size_t at = c->sec_at[t], n = c->sec_at[t + 1] - at;
    if (n > 64) return -1;
    int64_t h[CN_STACK_LIVE], a[CN_STACK_LIVE], lcm = 1;
    uint64_t mask = 0;
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        int32_t j = c->sec_list[at + k];
        if (c->placed[j]) continue;
        if (m == CN_STACK_LIVE) return -1;
        mask |= (uint64_t)1 << k;
        h[m] = c->s[j], a[m] = c->a[j];
        lcm = lcm / ab_gcd(lcm, a[m]) * a[m];
        if (lcm > CN_STACK_LCM) return -1;
        m++;
    }
    if (m == 0) return 0;
    int64_t r = b % lcm;
    if (c->memo == NULL) { /* 2^8 entries a free tensor, from 2^10 up to 2^CN_MEMO_BITS */
        int bits = 10;
        while (bits < CN_MEMO_BITS && ((size_t)1 << (bits - 8)) < c->nf) bits++;
        c->memo = ab_calloc((size_t)1 << bits, sizeof *c->memo);
        if (c->memo == NULL) return -1;
        c->memo_bits = bits;
    }
    uint64_t key = mask * 0x9e3779b97f4a7c15ull ^ ((uint64_t)t << 20 | (uint64_t)r) * 0xc2b2ae3d27d4eb4full;
    struct cn_memo *e = &c->memo[key >> (64 - c->memo_bits)];
    if (e->t1 == t + 1 && e->r == r && e->mask == mask) return e->top;
    int64_t dp[1 << CN_STACK_LIVE];
    int64_t top = least_stack(h, a, m, r, dp);
    *e = (struct cn_memo){.mask = mask, .t1 = t + 1, .r = (int32_t)r, .top = top - r};
    return e->top;
}



/* (N1) The node's view for the table, with its tensors in c->ngid: its
 * unplaced tensors of part and their floors at level x (recomputed after
 * the children, which overwrite them). */
static abp_ng_view ng_view(cn *c, struct cn_part part, int64_t x) {
    uint64_t h = 0;
    size_t n = 0;
    c->serial++;
    for (size_t k = 0; k < part.n; k++) {
        size_t j = (size_t)c->pool[part.at + k];
        if (c->placed[j]) continue;
        size_t o = c->orig[j];
        c->ngv[o] = floor_of(c, j, x);
        c->ngs[o] = c->serial;
        c->ngid[n] = (int64_t)o;
        h += abp_ng_item(o);
        n++;
    }
    return (abp_ng_view){.val = c->ngv, .stamp = c->ngs, .serial = c->serial, .n = n,
                         .h = abp_ng_hash_end(h, n)};
}

/* One node of the search of component part (its tensors pool[part.at ..],
 * some placed): the last one placed (l, or SIZE_MAX at the component's
 * root) at x from a node whose last offset was x0; depth counts the nodes
 * above. */
static cn_result dfs(cn *c, struct cn_part part, size_t depth, int64_t x, int64_t x0, size_t l) {
    if (out_of_budget(c)) return CN_STOPPED;
    /* floors, (B1), and the two lowest tops f + s for (D1) */
    int64_t m1 = INT64_MAX, m2 = INT64_MAX;
    size_t c1 = SIZE_MAX;
    size_t base = c->ncand;
    for (int32_t t = part.lo; t <= part.hi; t++) c->minf[t] = INT64_MAX;
    uint64_t h = 0;
    if (c->ng != NULL) c->serial++;
    for (size_t k = 0; k < part.n; k++) {
        size_t j = (size_t)c->pool[part.at + k];
        if (c->placed[j]) continue;
        int64_t f = floor_of(c, j, x), e = f + c->s[j];
        if (e > c->H) {
            c->ncand = base;
            c->nodes++;
            return CN_REFUTED;
        }
        c->fl[j] = f;
        if (c->ng != NULL) { /* (N1) the node's view */
            size_t o = c->orig[j];
            c->ngv[o] = f, c->ngs[o] = c->serial;
            h += abp_ng_item(o);
        }
        e = c->F[j] + c->s[j]; /* (D1) with the floor F of D5: F <= f */
        if (e < m1) m2 = m1, m1 = e, c1 = j;
        else if (e < m2) m2 = e;
        if (!push_cand(c, (int32_t)j, f)) {
            c->stopped = true;
            c->ncand = base;
            return CN_STOPPED;
        }
    }
    if (c->ncand == base) { /* the component is placed: the next one, or a plan */
        if (c->npend == 0) {
            memcpy(c->sol, c->off, c->nf * sizeof *c->sol);
            return CN_FOUND;
        }
        struct cn_part next = c->pend[--c->npend];
        cn_result r = CN_STOPPED;
        if (!rerank(c, next)) c->stopped = true;
        else r = split(c, next, depth, 0, 0, SIZE_MAX, false), unrank(c);
        c->pend[c->npend++] = next;
        if (r == CN_REFUTED) c->dead_to = next.origin, r = CN_DEAD;
        return r;
    }
    c->nodes++;
    size_t nu = c->ncand - base;
    if (c->ng != NULL && nu >= 2) { /* (N1) */
        abp_ng_view v = {.val = c->ngv, .stamp = c->ngs, .serial = c->serial, .n = nu,
                         .h = abp_ng_hash_end(h, nu)};
        if (abp_ng_refuted(c->ng, &v, c->H)) {
            c->ncand = base;
            return CN_REFUTED;
        }
    }
    /* (B3) a tensor cut by D5 goes above an unplaced conflict: its floor for B1, B2 */
    for (size_t k = base; k < c->ncand; k++) {
        size_t j = (size_t)c->cand[k];
        int64_t f = c->candf[k];
        if (c->F[j] < x) {
            int64_t e = INT64_MAX;
            for (size_t q = c->adj_at[j]; q < c->adj_at[j + 1]; q++) {
                size_t i = c->adj[q];
                if (!c->placed[i] && c->fl[i] < c->F[j] + c->s[j] && c->fl[i] + c->s[i] < e)
                    e = c->fl[i] + c->s[i];
            }
            if (e > f) f = e;
            if (f > c->H - c->s[j]) {
                c->ncand = base;
                return CN_REFUTED;
            }
        }
        for (int32_t t = c->t0[j]; t <= c->t1[j]; t++)
            if (f < c->minf[t]) c->minf[t] = f;
    }
    if (!c->fixed_secs) { /* (B2); two loops, as a test of fixed_secs inside one cost 40% on random-10k */
        for (int32_t t = part.lo; t <= part.hi; t++)
            if (c->rem[t] > 0 && c->minf[t] + c->rem[t] > c->H) {
                c->ncand = base;
                return CN_REFUTED;
            }
    } else {
        for (int32_t t = part.lo; t <= part.hi; t++)
            if (c->rem[t] > 0 && c->minf[t] + c->rem[t] + fixed_in(c, t, c->minf[t]) > c->H) {
                c->ncand = base;
                return CN_REFUTED;
            }
    }
    for (int32_t t = part.lo; t <= part.hi; t++) { /* (B5) where the aligns may matter */
        if (c->rem[t] == 0 || c->minf[t] + c->rem[t] + c->slack0[t] <= c->H) continue;
        int64_t v = stack_above(c, t, c->minf[t]);
        if (v >= 0 && c->minf[t] + v > c->H) {
            c->ncand = base;
            return CN_REFUTED;
        }
    }
    /* keep the candidates (D1, D2, D3), in order: floor, then index */
    size_t end = base;
    for (size_t k = base; k < c->ncand; k++) {
        size_t j = (size_t)c->cand[k];
        int64_t f = c->candf[k];
        if (f >= (j == c1 ? m2 : m1)) continue;                          /* D1 */
        if (c->F[j] < x) continue;                                        /* D5 */
        if (c->twin[j] >= 0 && !c->placed[c->twin[j]]) continue;          /* D3 */
        if (l != SIZE_MAX && f == x && c->rank[j] < c->rank[l] && !conflict(c, j, l) && floor_of(c, j, x0) == x)
            continue;                                                     /* D2 */
        size_t q = end++;
        for (; q > base && (c->candf[q - 1] > f || (c->candf[q - 1] == f && c->rank[c->cand[q - 1]] > c->rank[j])); q--)
            c->cand[q] = c->cand[q - 1], c->candf[q] = c->candf[q - 1];
        c->cand[q] = (int32_t)j, c->candf[q] = f;
    }
    c->ncand = end;
    cn_result r = CN_REFUTED;
    for (size_t k = base; k < end && r == CN_REFUTED; k++) {
        size_t j = (size_t)c->cand[k];
        int64_t f = c->candf[k];
        size_t mark = c->nundo;
        bool ok = place(c, j, f), newcut = false;
        for (int32_t t = c->t0[j]; t < c->t1[j]; t++)
            if (--c->cut[t] == 0) newcut = true;
        if (ok) r = split(c, part, depth + 1, f, x, j, newcut);
        else if (c->stopped) r = CN_STOPPED;
        for (int32_t t = c->t0[j]; t < c->t1[j]; t++) c->cut[t]++;
        unplace(c, j, mark);
        if (r == CN_DEAD && c->dead_to == depth) r = CN_REFUTED;
        if (r == CN_REFUTED) { /* (D4) j had no unplaced conflict: the rest are cut */
            bool alone = true;
            for (size_t q = c->adj_at[j]; q < c->adj_at[j + 1] && alone; q++)
                if (!c->placed[c->adj[q]]) alone = false;
            if (alone) break;
        }
    }
    c->ncand = base;
    if (r == CN_REFUTED && c->ng != NULL && nu >= 2 && !c->stopped) {
        abp_ng_view v = ng_view(c, part, x);
        abp_ng_insert(c->ng, &v, c->ngid, c->H);
    }
    return r;
}

/* (P1) Splits part's unplaced tensors into components at the boundaries no
 * unplaced tensor spans (when check), searches the first from its root with
 * the others pending, or goes on with dfs. */
static cn_result split(cn *c, struct cn_part part, size_t depth, int64_t x, int64_t x0, size_t l, bool check) {
    if (!check) return dfs(c, part, depth, x, x0, l);
    /* the runs of sections joined by spanned boundaries, each tensor by its t0 */
    size_t mark = c->npool, pmark = c->npend, nrun = 0;
    if (!grow_pool(c, part.n)) return c->stopped = true, CN_STOPPED;
    /* count the unplaced tensors per run: a run starts at lo or after a boundary of cut 0 */
    struct cn_part first = {0};
    int32_t t = part.lo;
    cn_result r = CN_FOUND;
    bool ok = true;
    while (t <= part.hi) {
        int32_t e = t;
        while (e < part.hi && c->cut[e] > 0) e++;
        struct cn_part q = {.at = c->npool, .n = 0, .lo = t, .hi = e, .origin = depth - 1};
        for (size_t k = 0; k < part.n; k++) {
            int32_t j = c->pool[part.at + k];
            if (!c->placed[j] && c->t0[j] >= t && c->t0[j] <= e) c->pool[c->npool++] = j;
        }
        q.n = c->npool - q.at;
        if (q.n > 0) {
            if (nrun++ == 0) first = q;
            else if (!push_pend(c, q)) ok = false;
        }
        t = e + 1;
    }
    if (!ok) r = CN_STOPPED, c->stopped = true;
    else if (nrun <= 1) {
        c->npool = mark;
        c->npend = pmark;
        return dfs(c, part, depth, x, x0, l);
    } else {
        /* the pending ones in reverse, so the leftmost goes next */
        for (size_t i = pmark, k = c->npend - 1; i < k; i++, k--) {
            struct cn_part tmp = c->pend[i];
            c->pend[i] = c->pend[k], c->pend[k] = tmp;
        }
        if (!rerank(c, first)) r = CN_STOPPED, c->stopped = true;
        else r = dfs(c, first, depth, 0, 0, SIZE_MAX), unrank(c);
    }
    c->npool = mark;
    c->npend = pmark;
    return r;
}

/* Decides capacity H (units): CN_FOUND with the plan in c->sol. */
static cn_result decide(cn *c, int64_t H) {
    c->H = H;
    for (size_t j = 0; j < c->nf; j++) c->placed[j] = false, c->raw[j] = 0;
    for (int32_t t = 0; t < c->T; t++) {
        c->top[t] = 0;
        c->rem[t] = c->rem0[t];
        c->cut[t] = 0;
        if (c->rem[t] + fixed_in(c, t, 0) > H) return CN_REFUTED;
    }
    for (size_t j = 0; j < c->nf; j++)
        for (int32_t t = c->t0[j]; t < c->t1[j]; t++) c->cut[t]++;
    c->nundo = 0, c->ncand = 0, c->npend = 0, c->npool = 0, c->nrsave = 0;
    for (size_t j = 0; j < c->nf; j++) c->rank[j] = (int32_t)j;
    if (c->nf == 0) return CN_FOUND;
    if (!grow_pool(c, c->nf)) return c->stopped = true, CN_STOPPED;
    for (size_t j = 0; j < c->nf; j++) c->pool[j] = (int32_t)j, c->F[j] = floor_of(c, j, 0);
    c->npool = c->nf;
    struct cn_part all = {.at = 0, .n = c->nf, .lo = 0, .hi = c->T - 1, .origin = 0};
    cn_result r = split(c, all, 1, 0, 0, SIZE_MAX, true);
    if (r == CN_DEAD) r = CN_REFUTED;
    return r;
}

/* ---- (B4) stacks of sections ----------------------------------------------------------- */

#define CN_STACK_MAX 18 /* free tensors live at a section, for its subset table (B4) */

/* (B4) The least top of a stack of the free tensors live at section t
 * (units), with their aligns, by dynamic programming over subsets; -1 when
 * more than CN_STACK_MAX free tensors are live there or memory runs out. */
static int64_t section_stack(const cn *c, int32_t t) {
    size_t at = c->sec_at[t], n = c->sec_at[t + 1] - at;
    if (n > CN_STACK_MAX) return -1;
    int64_t h[CN_STACK_MAX], a[CN_STACK_MAX];
    for (size_t k = 0; k < n; k++) h[k] = c->s[c->sec_list[at + k]], a[k] = c->a[c->sec_list[at + k]];
    int64_t *dp = ab_alloc_array((size_t)1 << n, sizeof *dp);
    if (dp == NULL) return -1;
    int64_t best = least_stack(h, a, n, 0, dp);
    ab_free(dp);
    return best;
}

/* (B4) The highest least stack over the sections whose aligns could lift it
 * above lo (units), or lo; *at receives the section (-1: none above lo). */
static int cmp_stack_hope(const void *x, const void *y, const void *ctx) {
    const cn *c = ctx;
    int32_t s = *(const int32_t *)x, t = *(const int32_t *)y;
    int64_t hs = c->rem0[s] + c->slack0[s], ht = c->rem0[t] + c->slack0[t];
    if (hs != ht) return hs > ht ? -1 : 1;
    return (s > t) - (s < t);
}

/* The sections are tried by decreasing load + slack (an upper bound of their
 * stack), so the tables stop as soon as no section left can reach the best;
 * *at is the first section in time order with the highest stack, as a walk
 * in time order would find it. */
static int64_t stack_bound(const cn *c, int64_t lo, int32_t *at) {
    *at = -1;
    int32_t *order = ab_alloc_array((size_t)c->T + 1, sizeof *order);
    if (order == NULL) return lo; /* no memory for the tables either: a weaker bound, sound */
    size_t m = 0;
    for (int32_t t = 0; t < c->T; t++)
        if (c->slack0[t] != 0 && c->rem0[t] + c->slack0[t] > lo) order[m++] = t;
    ab_sort(order, m, sizeof *order, cmp_stack_hope, c);
    for (size_t k = 0; k < m; k++) {
        int32_t t = order[k];
        if (c->rem0[t] + c->slack0[t] < lo || (*at < 0 && c->rem0[t] + c->slack0[t] == lo)) break;
        int64_t v = section_stack(c, t);
        if (v > lo || (v == lo && *at >= 0 && t < *at)) lo = v, *at = t;
    }
    ab_free(order);
    return lo;
}

/* ---- the planner -------------------------------------------------------------------- */

static int64_t arena_of(const ab_problem *p, const int64_t *off) {
    int64_t a = 0;
    for (size_t i = 0; i < p->n; i++)
        if (off[i] + p->t[i].size > a) a = off[i] + p->t[i].size;
    return a;
}

/* The best greedy plan into offsets; returns its arena. */
static ab_status greedy_best(const ab_problem *p, int64_t *offsets, int64_t *arena, ab_error *err) {
    static const abp_order orders[] = {ABP_ORDER_START, ABP_ORDER_SIZE, ABP_ORDER_AREA};
    int64_t *tmp = ab_alloc_array(p->n ? p->n : 1, sizeof *tmp);
    if (tmp == NULL) return ab_fail(err, AB_ENOMEM, "canonical: out of memory");
    *arena = -1;
    for (int r = 0; r < 2; r++)
        for (size_t k = 0; k < 3; k++) {
            ab_status st = abp_greedy(p, orders[k], r ? ABP_FIT_BEST : ABP_FIT_FIRST, tmp, err);
            if (st != AB_OK) {
                ab_free(tmp);
                return st;
            }
            int64_t a = arena_of(p, tmp);
            if (*arena < 0 || a < *arena) {
                *arena = a;
                memcpy(offsets, tmp, p->n * sizeof *tmp);
            }
        }
    ab_free(tmp);
    return AB_OK;
}

__attribute__((format(printf, 2, 3))) static void note(ab_plan_stats *st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->note, sizeof st->note, fmt, ap);
    va_end(ap);
}

/* Writes the search's plan (units) as bytes into offsets; returns its arena. */
static int64_t take_solution(const cn *c, const ab_problem *p, int64_t *offsets) {
    for (size_t i = 0; i < p->n; i++)
        if (p->t[i].offset != AB_NONE) offsets[i] = p->t[i].offset;
    for (size_t j = 0; j < c->nf; j++) offsets[c->orig[j]] = c->sol[j] * c->g;
    return arena_of(p, offsets);
}

/* The searches, one per static order, decide capacities taking turns. */
typedef struct cn_set {
    cn c[CN_MAX_ORDERS];
    size_t k;          /* how many were set up */
    size_t won;        /* the one whose plan is in its sol */
    int64_t nodes;     /* all of them */
    int64_t node_stop; /* <= 0: none */
    clock_t deadline;  /* (clock_t)-1: none */
    bool by_nodes;     /* the last stop was the node budget */
    abp_ng ng;         /* (N1), shared */
    ucontext_t main;   /* (S1) where the searches yield to */
    const ab_problem *p;
    cn_opts o;
    size_t norders;    /* the orders to take turns with; c[0 .. k) are set up */
} cn_set;

/* (S1) The entry of a search's own stack: makecontext passes ints, so the
 * pointer comes in two halves. */
static void cn_entry(unsigned hi, unsigned lo) {
    cn *c = (cn *)(uintptr_t)((uint64_t)hi << 32 | lo);
    c->res = decide(c, c->run_H);
    c->run = CN_DONE; /* returns to c->back through uc_link */
}

#if defined(__SANITIZE_ADDRESS__)
#define CN_FRAME_BYTES 8192 /* the sanitizer's frames are larger */
#else
#define CN_FRAME_BYTES 2048
#endif

/* (S1) Runs search c on capacity H until it finishes or reaches its node_stop:
 * resumes it when it is suspended on H, else starts it on its own stack
 * (allocated once, for its depth: at most two frames per free tensor, plus
 * B5's table). Without a stack (out of memory) it runs as a call that stops
 * at node_stop, and is started again the next time, as MiniMalloc does.
 * Returns its result, CN_STOPPED while it is suspended. */
static cn_result run_search(cn *c, ucontext_t *main, int64_t H) {
    if (c->stack == NULL) {
        c->stack_size = ((size_t)1 << 20) + c->nf * CN_FRAME_BYTES;
        c->stack = ab_alloc_array(c->stack_size, 1);
    }
    if (c->stack == NULL) {
        c->back = NULL;
        c->stopped = false;
        return decide(c, H);
    }
    c->back = main;
    if (c->run != CN_SUSPENDED || c->run_H != H) { /* a new search (a suspended one on another H is dropped) */
        c->stopped = false;
        c->run_H = H;
        if (getcontext(&c->ctx) != 0) return c->stopped = true, CN_STOPPED;
        c->ctx.uc_stack.ss_sp = c->stack;
        c->ctx.uc_stack.ss_size = c->stack_size;
        c->ctx.uc_link = main;
        uint64_t v = (uint64_t)(uintptr_t)c;
        makecontext(&c->ctx, (void (*)(void))cn_entry, 2, (unsigned)(v >> 32), (unsigned)(v & 0xffffffffu));
    }
    c->run = CN_RUNNING;
    if (swapcontext(main, &c->ctx) != 0) return c->stopped = true, CN_STOPPED;
    if (c->run == CN_SUSPENDED) return CN_STOPPED;
    c->run = CN_IDLE;
    return c->res;
}

static bool set_order(cn_set *S, size_t i);

/* Decides H: each order in turn with a node limit that doubles each round,
 * until one finishes (a plan, or a refutation: a complete search) or the
 * budget runs out. Each search is resumed where it stopped (S1). */
static cn_result decide_all(cn_set *S, int64_t H) {
    int64_t limit = 64 + 2 * (int64_t)S->c[0].nf;
    S->by_nodes = false;
    for (;;) {
        for (size_t i = 0; i < S->norders; i++) {
            if (i == S->k && !set_order(S, i)) break;
            cn *c = &S->c[i];
            int64_t lim = limit;
            if (S->node_stop > 0) {
                if (S->nodes >= S->node_stop) return S->by_nodes = true, CN_STOPPED;
                if (S->node_stop - S->nodes < lim) lim = S->node_stop - S->nodes;
            }
            if (S->deadline != (clock_t)-1 && clock() >= S->deadline) return CN_STOPPED;
            int64_t before = c->nodes;
            c->node_stop = c->nodes + lim;
            c->deadline = S->deadline;
            cn_result r = run_search(c, &S->main, H);
            S->nodes += c->nodes - before;
            if (r == CN_FOUND) S->won = i;
            if (r != CN_STOPPED) return r;
            if (c->run != CN_SUSPENDED && c->nodes < c->node_stop) return CN_STOPPED; /* time, or memory */
        }
        if (limit < INT64_MAX / 4) limit *= 2;
    }
}

static void set_budget(cn_set *S, int64_t nodes, double seconds) {
    S->node_stop = nodes > 0 ? S->nodes + nodes : 0;
    S->deadline = seconds > 0 ? clock() + (clock_t)(seconds * CLOCKS_PER_SEC) : (clock_t)-1;
}

static void set_free(cn_set *S) {
    for (size_t i = 0; i < S->k; i++) cn_free(&S->c[i]);
    S->k = 0;
    abp_ng_free(&S->ng);
}

/* (N1) Gives the searches the shared table (without it when memory runs out:
 * it only saves work). */
static void set_learn(cn_set *S, cn *c, const ab_problem *p) {
    size_t n = p->n ? p->n : 1;
    c->ngv = ab_alloc_array(n, sizeof *c->ngv);
    c->ngs = ab_calloc(n, sizeof *c->ngs);
    c->ngid = ab_alloc_array(n, sizeof *c->ngid);
    if (c->ngv == NULL || c->ngs == NULL || c->ngid == NULL) {
        ab_free(c->ngv), ab_free(c->ngs), ab_free(c->ngid);
        c->ngv = c->ngs = c->ngid = NULL;
        return;
    }
    c->ng = &S->ng;
}

/* Sets up the search of order i (the first when it is first run, so that a
 * problem decided without search pays for one order only). False when
 * memory runs out: the searches already set up go on alone (any set of
 * orders decides, S1). */
static bool set_order(cn_set *S, size_t i) {
    ab_error e;
    cn *c = &S->c[i];
    if (cn_setup(c, S->p, S->o.orders[i], &e) != AB_OK) {
        cn_free(c);
        S->norders = S->k;
        return false;
    }
    c->o = S->o;
    if (S->o.learn) set_learn(S, c, S->p);
    S->k++;
    return true;
}

/* The bisection of the arena between lo (units: every arena of p is >= lo x
 * g) and best (bytes; its plan in offsets), with at most `nodes` nodes and
 * `seconds` of CPU of S (<= 0: no limit): a capacity undecided within its
 * share (a quarter of what is left) raises a soft floor; when that passes
 * best - 1, the step below best gets all that is left. A plan found lowers
 * best (offsets take it), a refutation raises lo and sets *refuted (bytes).
 * True when the budget stopped it with best > lo x g. */
static bool bisect(cn_set *S, const ab_problem *p, int64_t *offsets, int64_t g, int64_t *lo,
                   int64_t *best, int64_t *refuted, int64_t nodes, double seconds) {
    clock_t t0 = clock();
    int64_t n0 = S->nodes, soft = *lo;
    while (*best > *lo * g) {
        int64_t Hb = (*best - 1) / g;
        if (Hb < *lo) break;
        bool last = soft > Hb;
        int64_t H = last ? Hb : soft + (Hb - soft) / 2;
        double left = seconds > 0 ? seconds - (double)(clock() - t0) / CLOCKS_PER_SEC : 0;
        if (seconds > 0 && left <= 0) return true;
        if (nodes > 0 && S->nodes - n0 >= nodes) return S->by_nodes = true, true;
        int64_t nleft = nodes > 0 ? nodes - (S->nodes - n0) : 0;
        if (last || (seconds <= 0 && nodes <= 0)) set_budget(S, nleft, left);
        else set_budget(S, nleft > 0 ? (nleft + 3) / 4 : 0, left / 4);
        cn_result r = decide_all(S, H);
        if (r == CN_FOUND) *best = take_solution(&S->c[S->won], p, offsets);
        else if (r == CN_REFUTED) *refuted = H * g, *lo = H + 1, soft = soft > *lo ? soft : *lo;
        else if (last) return true;
        else soft = H + 1;
    }
    return false;
}

/* (U1) One try of the restriction's search for plans: decides H with at
 * most b nodes (and what is left of the budget). 1 a plan (best lowered),
 * -1 refuted (*lo raised), 0 undecided within b, 2 the phase's budget is
 * spent (*why says which). */
typedef struct cn_try {
    cn_set *S;
    const ab_problem *p;
    int64_t *offsets, *best, g, lo, nodes, n0, b;
    double seconds;
    clock_t t0;
    int why;
} cn_try;

static int try_capacity(cn_try *t, int64_t H) {
    cn_set *S = t->S;
    double left = t->seconds > 0 ? t->seconds - (double)(clock() - t->t0) / CLOCKS_PER_SEC : 0;
    int64_t nleft = t->nodes > 0 ? t->nodes - (S->nodes - t->n0) : 0;
    if (t->seconds > 0 && left <= 0) return t->why = 2, 2;
    if (t->nodes > 0 && nleft <= 0) return t->why = 1, 2;
    set_budget(S, t->nodes > 0 && nleft < t->b ? nleft : t->b, left);
    cn_result r = decide_all(S, H);
    if (r == CN_FOUND) return *t->best = take_solution(&S->c[S->won], t->p, t->offsets), 1;
    if (r == CN_REFUTED) return t->lo = H + 1, -1;
    if (S->by_nodes) return 0;
    return t->why = 2, 2; /* time */
}

/* (U1) The search for plans of the restriction, in passes with a node limit
 * b per capacity (2^14 at first, doubling after a pass that found nothing):
 * a pass walks down from best - 1 one capacity at a time, passing over
 * undecided ones; a plan restarts the walk below it, a refutation ends the
 * pass (no lower capacity fits the restriction either). Which capacity a
 * search decides fast is luck, and many small tries just below the best
 * find the lucky ones. At most `nodes` nodes and `seconds` of CPU (<= 0:
 * no limit); *why is 1 or 2 when the node budget or the time stopped it.
 * With no budget it ends at the restriction's optimum (b grows until a pass
 * decides every capacity it tries). */
static void descend(cn_set *S, const ab_problem *p, int64_t *offsets, int64_t g, int64_t lo,
                    int64_t *best, int64_t nodes, double seconds, int *why) {
    cn_try t = {.S = S, .p = p, .offsets = offsets, .best = best, .g = g, .lo = lo, .nodes = nodes,
                .n0 = S->nodes, .b = (int64_t)1 << 14, .seconds = seconds, .t0 = clock()};
    while (*best > t.lo * g) {
        bool found = false;
        for (int64_t H = (*best - 1) / g; H >= t.lo;) {
            int r = try_capacity(&t, H);
            if (r == 2) {
                *why = t.why;
                return;
            }
            if (r == -1) break;
            if (r == 1) found = true, H = (*best - 1) / g;
            else H--;
        }
        if (!found && t.b < INT64_MAX / 4) t.b *= 2;
    }
}

/* (U1) The merged successions of p into q (initialised here): a free tensor
 * b that starts the instruction after a free tensor a of the same size ends
 * is merged into a, one tensor live over both ranges with the larger align;
 * chains merge end to end. For each a, in index order, the candidate b taken
 * is the lowest-indexed one not yet merged into another. Fixed tensors stay
 * as they are. grp[i] is the tensor of q that tensor i of p went into. */
static ab_status merge_successions(const ab_problem *p, ab_problem *q, size_t *grp, ab_error *err) {
    size_t n = p->n, m = 0, N = n ? n : 1;
    size_t *by = ab_alloc_array(N, sizeof *by), *next = ab_alloc_array(N, sizeof *next);
    size_t *cur = ab_alloc_array(N, sizeof *cur);
    bool *has_pred = ab_calloc(N, sizeof *has_pred);
    ab_problem_init(q);
    ab_status st = AB_OK;
    if (!by || !next || !cur || !has_pred) {
        st = ab_fail(err, AB_ENOMEM, "canonical: out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        next[i] = SIZE_MAX;
        if (p->t[i].offset == AB_NONE) by[m++] = i;
    }
    ab_sort(by, m, sizeof *by, by_start_size, p); /* (start, size, index) */
    for (size_t k = 0; k < m; k++) cur[k] = k; /* cur[first of a run]: its first candidate not taken */
    for (size_t a = 0; a < n; a++) {
        const ab_tensor *ta = &p->t[a];
        if (ta->offset != AB_NONE || ta->end >= AB_MAX_SIZE) continue;
        size_t l = 0, h = m; /* the first of the run with start = end + 1 and the same size */
        while (l < h) {
            size_t mid = l + (h - l) / 2;
            const ab_tensor *t = &p->t[by[mid]];
            if (t->start < ta->end + 1 || (t->start == ta->end + 1 && t->size < ta->size)) l = mid + 1;
            else h = mid;
        }
        if (l == m || p->t[by[l]].start != ta->end + 1 || p->t[by[l]].size != ta->size) continue;
        size_t k = cur[l];
        if (k < m && p->t[by[k]].start == ta->end + 1 && p->t[by[k]].size == ta->size) {
            next[a] = by[k], has_pred[by[k]] = true;
            cur[l] = k + 1;
        }
    }
    q->alignment = p->alignment, q->io = p->io, q->capacity = p->capacity;
    for (size_t i = 0; i < n && st == AB_OK; i++) {
        if (has_pred[i]) continue;
        ab_tensor t = p->t[i];
        t.shape = NULL, t.ndim = 0, t.dtype = NULL, t.logical_bits = 0, t.stride_align = 0;
        for (size_t j = i;; j = next[j]) {
            grp[j] = q->n;
            if (p->t[j].align > t.align) t.align = p->t[j].align; /* powers of two: the lcm */
            t.end = p->t[j].end;
            if (next[j] == SIZE_MAX) break;
        }
        st = ab_problem_add(q, &t, err);
    }
out:
    ab_free(by), ab_free(next), ab_free(cur), ab_free(has_pred);
    if (st != AB_OK) ab_problem_free(q);
    return st;
}

/* (U1) Minimises the merged successions of p with at most `nodes` nodes and
 * `seconds` of CPU (<= 0: no limit), from lo_bytes (a bound of p, so of its
 * restriction) and *best: a plan found below *best is mapped back (each
 * tensor at its merged tensor's offset) into offsets, and *improved set.
 * *used receives the nodes spent, *why 1 or 2 when the node budget or the
 * time stopped it. Nothing is searched when no tensor merges, unless
 * `always` (merge=only), which also starts from the restriction's own
 * greedy plan. Out of memory it does nothing: the restriction
 * only finds plans. */
static void merged_phase(const ab_problem *p, const cn_opts *o, int64_t *offsets, int64_t lo_bytes,
                         int64_t *best, int64_t nodes, double seconds, int64_t *used, bool *improved,
                         bool always, int *why) {
    ab_error e;
    ab_problem q;
    size_t N = p->n ? p->n : 1;
    size_t *grp = ab_alloc_array(N, sizeof *grp);
    int64_t *qoff = ab_alloc_array(N, sizeof *qoff);
    cn_set *R = ab_calloc(1, sizeof *R);
    if (!grp || !qoff || !R || merge_successions(p, &q, grp, &e) != AB_OK) {
        ab_free(grp), ab_free(qoff), ab_free(R);
        return;
    }
    if (q.n < p->n || always) {
        R->p = &q, R->o = *o, R->norders = o->norders;
        if (cn_setup(&R->c[0], &q, o->orders[0], &e) == AB_OK) {
            R->c[0].o = *o;
            R->k = 1;
            if (o->learn) set_learn(R, &R->c[0], &q);
            int64_t g2 = R->c[0].g, lo = (lo_bytes + g2 - 1) / g2, rbest = *best;
            if (R->c[0].L > lo) lo = R->c[0].L;
            if (always && greedy_best(&q, qoff, &rbest, &e) != AB_OK) rbest = *best; /* its own greedy plan */
            descend(R, &q, qoff, g2, lo, &rbest, nodes, seconds, why);
            if (rbest < *best) {
                for (size_t i = 0; i < p->n; i++) offsets[i] = qoff[grp[i]];
                *best = arena_of(p, offsets);
                *improved = true;
            }
            *used = R->nodes;
        } else {
            cn_free(&R->c[0]);
        }
        set_free(R);
    }
    ab_problem_free(&q);
    ab_free(grp), ab_free(qoff), ab_free(R);
}

static ab_status canonical_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                                ab_plan_stats *st, ab_error *err) {
    cn_set *S = ab_calloc(1, sizeof *S);
    if (S == NULL) return ab_fail(err, AB_ENOMEM, "canonical: out of memory");
    cn_opts o;
    st->lower_bound = AB_NONE;
    st->proven_optimal = false;
    st->method = ABO_PROOF_EXHAUSTIVE; /* every refutation is of the real problem */
    st->nodes = 0;
    ab_status s = parse_opts(opt, &o, err);
    if (s != AB_OK) return ab_free(S), s;
    int64_t cap = ab_problem_capacity(p);
    if (o.target && cap == AB_NONE)
        return ab_free(S), ab_fail(err, AB_EINPUT, "canonical: target=capacity needs a suite capacity (or a bounded pool)");
    if (p->n == 0) {
        st->proven_optimal = true;
        st->lower_bound = 0;
        note(st, "optimal: 0 (no tensors)");
        return ab_free(S), AB_OK;
    }
    S->p = p, S->o = o, S->norders = o.norders;
    s = cn_setup(&S->c[0], p, o.orders[0], err); /* the others when first run (set_order) */
    S->c[0].o = o;
    if (s != AB_OK) cn_free(&S->c[0]);
    else S->k = 1;
    if (s != AB_OK && s != AB_ELIMIT) {
        set_free(S);
        return ab_free(S), s;
    }
    bool searchable = S->k == 1;
    if (searchable && o.learn) set_learn(S, &S->c[0], p);
    int64_t best = -1;
    s = greedy_best(p, offsets, &best, err);
    if (s != AB_OK) {
        set_free(S);
        return ab_free(S), s;
    }
    int64_t g = searchable ? S->c[0].g : 1, lo = searchable ? S->c[0].L : 0; /* lo: every arena is >= lo x g */
    int32_t stack_at = -1; /* (B4) the section whose stack raised lo */
    if (searchable) lo = stack_bound(&S->c[0], lo, &stack_at);
    int64_t stack_lo = lo;
    clock_t t0 = clock();
    double total = o.time_s;
    if (!searchable) {
        note(st, "too large to search: best greedy %lld", (long long)best);
    } else if (o.target) {
        int64_t Hc = cap / g;
        bool fits = best <= cap;
        const char *why = "greedy";
        cn_result r = CN_REFUTED;
        if (!fits && lo <= Hc) {
            set_budget(S, o.nodes, total);
            r = decide_all(S, Hc);
            if (r == CN_FOUND) best = take_solution(&S->c[S->won], p, offsets), fits = true, why = "search";
            if (r == CN_REFUTED) lo = Hc + 1;
        }
        st->capped = r == CN_STOPPED && !S->by_nodes; /* time, not the node budget */
        if (fits)
            note(st, "fits the capacity %lld: arena %lld (%s) after %lld nodes", (long long)cap,
                 (long long)best, why, (long long)S->nodes);
        else if (r == CN_STOPPED)
            note(st, "budget: %s; capacity %lld undecided; best %lld, bound %lld",
                 S->by_nodes ? "nodes" : "time", (long long)cap,
                 (long long)best, (long long)(lo * g));
        else
            note(st, "does not fit the capacity %lld: refuted after %lld nodes; best %lld",
                 (long long)cap, (long long)S->nodes, (long long)best);
    } else {
        int64_t refuted = -1; /* bytes */
        bool stopped = false, from_merge = false, only = o.merge == 2;
        int64_t merged_best = -1, used = 0;
        if (only) { /* merge=only: the restriction alone, with the whole budget */
            int why = 0;
            int64_t mine = INT64_MAX;
            merged_phase(p, &o, offsets, lo * g, &mine, o.nodes, total, &used, &from_merge, true, &why);
            if (from_merge) best = mine; /* else out of memory: the suite's greedy plan */
            S->nodes += used, merged_best = best;
            stopped = why != 0, S->by_nodes = why == 1;
        } else if (best > lo * g) { /* first the max-load bound, with a third of the budget */
            int64_t share = o.nodes > 0 ? (o.nodes + 2) / 3 : (total > 0 ? 0 : (int64_t)1 << 22);
            set_budget(S, share, total > 0 ? total / 3 : 0);
            cn_result r = decide_all(S, lo);
            if (r == CN_FOUND) best = take_solution(&S->c[S->won], p, offsets);
            else if (r == CN_REFUTED) refuted = lo * g, lo++;
        }
        /* (U1) then the merged successions, with half of what is left */
        double left = total > 0 ? total - (double)(clock() - t0) / CLOCKS_PER_SEC : 0;
        int64_t nleft = o.nodes > 0 ? o.nodes - S->nodes : 0;
        bool spent = (total > 0 && left <= 0) || (o.nodes > 0 && nleft <= 0);
        if (o.merge == 0 && best > lo * g && !spent) {
            int64_t share = o.nodes > 0 ? (nleft + 1) / 2 : (total > 0 ? 0 : (int64_t)1 << 22);
            int why = 0;
            merged_phase(p, &o, offsets, lo * g, &best, share, total > 0 ? left / 2 : 0, &used, &from_merge,
                         false, &why);
            S->nodes += used, merged_best = best;
            left = total > 0 ? total - (double)(clock() - t0) / CLOCKS_PER_SEC : 0;
            nleft = o.nodes > 0 ? o.nodes - S->nodes : 0;
            spent = (total > 0 && left <= 0) || (o.nodes > 0 && nleft <= 0);
        }
        /* then the bisection between the bound and the best plan */
        if (!only && spent) stopped = best > lo * g, S->by_nodes = stopped && o.nodes > 0 && nleft <= 0;
        else if (!only) stopped = bisect(S, p, offsets, g, &lo, &best, &refuted, nleft, left);
        from_merge = from_merge && best == merged_best; /* the plan returned is the merged one */
        if (only && best > lo * g) {
            st->capped = stopped && !S->by_nodes;
            note(st, "merged successions only%s: best %lld, bound %lld%s after %lld nodes",
                 stopped ? (S->by_nodes ? " (budget: nodes)" : " (budget: time)") : "", (long long)best,
                 (long long)(lo * g), stack_at >= 0 && lo == stack_lo ? " (the aligned stack of a section)" : "",
                 (long long)S->nodes);
        } else if (!stopped) {
            const char *via = from_merge ? " (plan on the merged successions)" : "";
            st->proven_optimal = true;
            if (refuted >= 0)
                note(st, "optimal: %lld refuted at %lld after %lld nodes%s", (long long)best,
                     (long long)refuted, (long long)S->nodes, via);
            else if (stack_at >= 0 && best <= stack_lo * g)
                note(st, "optimal: %lld meets the bound of the aligned stack of the tensors live at "
                     "instruction %lld after %lld nodes%s", (long long)best,
                     (long long)S->c[0].sec_instr[stack_at], (long long)S->nodes, via);
            else
                note(st, "optimal: %lld meets the max-load bound after %lld nodes%s", (long long)best,
                     (long long)S->nodes, via);
        } else {
            st->capped = !S->by_nodes; /* time, not the node budget, stopped it */
            note(st, "budget: %s; best %lld%s, bound %lld%s", S->by_nodes ? "nodes" : "time",
                 (long long)best, from_merge ? " (on the merged successions)" : "", (long long)(lo * g),
                 stack_at >= 0 && lo == stack_lo ? " (the aligned stack of a section)" : "");
        }
    }
    int64_t lb = lo * g;
    if (best <= lb) st->proven_optimal = true;
    st->lower_bound = st->proven_optimal ? best : lb;
    st->nodes = S->nodes;
    set_free(S);
    ab_free(S);
    return AB_OK;
}

static const ab_param_desc canonical_params[] = {
    {"target", "min|capacity", "min",
     "min: the smallest arena; capacity: only whether the tensors fit the suite's capacity",
     AB_PARAM_CHOICE, 0, 0, false},
    {"orders", "orders separated by /, each keys of WCATZ", CN_ORDERS_DEFAULT,
     "the static orders the search takes turns with, each its keys (larger first; ties by the suite's "
     "order): W width in instructions, C sections spanned, A area, T total (the largest load over its "
     "sections), Z size; WAT/TAW/TWA are MiniMalloc's",
     AB_PARAM_TEXT, 0, 0, false},
    {"learn", "on|off", "on",
     "on: remember the refuted nodes (144M at most, then forgotten) and cut a node met again with the "
     "same tensors and floors as high, in any order, at any lower capacity",
     AB_PARAM_CHOICE, 0, 0, false},
    {"merge", "on|off|only", "on",
     "on: when minimising, also search the suite with each tensor that starts the instruction after "
     "one of the same size ends held at that one's offset (a restriction: its plans are plans of the "
     "suite, often found much faster; it proves nothing), with half of what the max-load try leaves; only: search "
     "that restriction alone (a plan and the max-load or aligned-stack bound, no proof above them)",
     AB_PARAM_CHOICE, 0, 0, false},
    {"time", "seconds > 0", "no limit",
     "stop the search after this much CPU time: the best plan so far", AB_PARAM_SECONDS, 0, 0,
     true},
    {"nodes", "integer >= 1", "no limit", "stop the search after this many nodes", AB_PARAM_INT, 1,
     INT64_MAX, true},
    {0},
};

const ab_planner abp_canonical = {
    .name = "canonical",
    .summary = "depth-first search over canonical solutions (MiniMalloc's method), optimal with a proof",
    .flags = AB_PLANNER_EXACT | AB_PLANNER_ANYTIME,
    .params = canonical_params,
    .plan = canonical_plan,
};
