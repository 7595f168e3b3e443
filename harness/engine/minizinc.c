/*
 * minizinc.c — planner `minizinc`: the problem as a MiniZinc model, solved by
 * the `minizinc` program with a CP backend (Gecode by default): a third exact
 * method, independent of exact-cover and the ILP, as a cross-check.
 *
 * It lives in the engine, beside `external`, because it writes files and runs
 * a program (through the engine's one spawner, spawn.h), which planners never
 * do. The Debian package is `minizinc` (it brings Gecode); without it on PATH
 * the planner fails with AB_EINPUT and says so.
 *
 * THE MODEL (the CSP formulation of the planner literature). The problem is
 * first divided by its unit g, as exact-cover's (R1) argues (the gcd of the
 * sizes and fixed offsets, lowered by every align that neither divides it nor
 * is a multiple of it; ab_problem_coarsen by g is then lossless): sizes,
 * fixed offsets and the capacity count in units of g, aligns become
 * a / gcd(a, g). Then, for tensors i = 1..n:
 *
 *   o_i in 0..H, y_i in 0..H           offsets and their align multiples
 *   o_i = fixed_i                      a fixed tensor, else o_i = a_i * y_i
 *   o_i + s_i <= arena                 arena in LB..H
 *   o_i + s_i <= o_j \/ o_j + s_j <= o_i    for every conflicting pair i < j
 *   disjunctive_strict(o_C, s_C)       redundant: for each maximal live set C
 *                                      (the tensors live at a start instruction
 *                                      whose live set is not contained in the
 *                                      next one's; exact-cover's R2, R3), one
 *                                      unary resource, Gecode's edge-finding
 *   sup_i in {0} + N(i)                gravity (exact-cover's R4): a free
 *   sup_i = 0 -> o_i = 0               tensor sits at 0 or just above (the
 *   sup_i = j -> o_j + s_j <= o_i      next multiple of its align) a tensor j
 *                < o_j + s_j + a_i     it conflicts with; N(i) = those j
 *   solve :: seq_search([int_search(sup of the free tensors by decreasing
 *                                   size, input_order, indomain_min),
 *                        int_search(their o, smallest, indomain_min),
 *                        int_search([arena], input_order, indomain_min)])
 *         minimize arena                (target=capacity: satisfy)
 *
 * Gravity keeps, for every H, whether a plan of arena <= H exists: lowering
 * any free tensor by its align while it stays valid never raises the arena,
 * and when no tensor can move each is at 0 or within one align above the top
 * of a conflicting tensor below it. Branching on sup, not on raw offsets,
 * makes the search one choice of support per tensor instead of one offset
 * value at a time (o = v, else o > v): with sizes in bytes the latter does
 * not finish proofs on 8 tensors in 30 s, the former takes a few nodes. Once
 * every sup is chosen the offsets follow by propagation.
 *
 * LB is the larger of the max-load bound and the end of the highest fixed
 * tensor. H is one below the arena U of a heuristic plan
 * (upper=best-fit: the best of best-fit in orders start, size and area, run
 * on the units problem; upper=stacked: every free tensor stacked above the
 * fixed ones), and no more than the capacity when the suite has one (or its
 * one pool is bounded). So the solver looks only for plans better than the
 * one in hand, which is kept and returned when it finds none; when U meets
 * LB minizinc is not run at all. A problem of more than MZN_MAX_TENSORS
 * tensors or MZN_MAX_PAIRS conflicting pairs is not modelled (the data
 * would grow as n^2): the heuristic plan is returned, unproven, and the note
 * says so.
 *
 * READING THE ANSWER. minizinc runs with --solver S --time-limit ms -s, and
 * -i (intermediate solutions) when minimising. Its standard output (and
 * standard error, on the same pipe) is read line by line as it comes: the
 * model prints "offsets: o_1 ... o_n" per solution, which counts once the
 * line "----------" confirms it (a solution cut off by a kill never counts);
 * "==========" says the search completed (the last solution is optimal);
 * "=====UNSATISFIABLE=====" says the search completed and found nothing
 * within H (flattening may say it too, when LB > H); "=====UNKNOWN=====" or
 * neither marker: the time limit stopped it. "%%%mzn-stat: nodes=N" gives
 * the search nodes. Outcomes:
 *
 *   complete with a solution   optimal: its plan, proven, bound = its arena
 *   unsatisfiable              H = U - 1 (no capacity below it): the heuristic
 *                              plan is optimal, proven, bound = U; else no
 *                              plan fits the capacity: the heuristic plan
 *                              (over capacity: infeasible, the bound refutes it),
 *                              bound = capacity + 1
 *   stopped                    the best plan so far (the solver's last, or the
 *                              heuristic's), bound = LB, not proven
 *   target=capacity            satisfy instead of minimise; no run at all when
 *                              the heuristic plan fits already
 *
 * A proof is a finished exhaustive search of the real problem (g is
 * lossless), so st->method = ABO_PROOF_EXHAUSTIVE (oracle/certify.h: "a
 * constraint solver whose complete search finished"). When the heuristic
 * plan already meets LB no run is needed: the plan is optimal by its bound.
 *
 * THE PROCESS. /usr/bin/env TMPDIR=<folder> minizinc ... is exec'd by the
 * spawner as the leader of a process group of its own, with a guard (the
 * group dies with the planner: a planner killed by the runner takes minizinc
 * and its solver down) and as a child subreaper; the hard deadline is the
 * time limit plus a margin (minizinc's own limit normally ends it first).
 * The model, the data and minizinc's own temporary files (TMPDIR) live in a
 * temporary folder, removed before the planner returns.
 *
 * Gecode's integers are 32 bits: a problem whose arena in units does not fit
 * in 2^30 is refused (AB_EINPUT).
 */
#include "harness/engine/external.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/sort.h"
#include "harness/engine/spawn.h"
#include "oracle/bounds.h"
#include "planners/greedy.h"

#define MZN_MAX_UNITS ((int64_t)1 << 30) /* Gecode's int range, with room to spare */
#define MZN_MARGIN 10.0                  /* seconds past time= before the hard kill */
#define MZN_MSG 300                      /* bytes of minizinc's words kept for messages */
#define MZN_MAX_LINE ((size_t)1 << 28)   /* a longer output line is dropped */
#define MZN_MAX_TENSORS 5000             /* larger problems are not modelled ... */
#define MZN_MAX_PAIRS 200000             /* ... nor those with more conflicting pairs */

/* The model, in two parts around the solve goal ("minimize arena" or "satisfy"). */
static const char model_head[] =
    "% arenabench planner minizinc: offsets of tensors in one arena (units of g)\n"
    "include \"disjunctive_strict.mzn\";\n"
    "int: n; int: lb; int: hi; int: npairs; int: ncliques; int: nfree;\n"
    "array[1..n] of int: size;\n"
    "array[1..n] of int: align;\n"
    "array[1..n] of int: fixed;                 % -1: free\n"
    "array[1..npairs] of 1..n: pa;              % conflicting pairs, not both fixed\n"
    "array[1..npairs] of 1..n: pb;\n"
    "array[1..n] of set of 1..n: nb;            % a free tensor's conflicting tensors\n"
    "array[1..ncliques] of set of 1..n: clique; % maximal live sets\n"
    "array[1..nfree] of 1..n: order;            % free tensors, largest first\n"
    "array[1..n] of var 0..hi: o;\n"
    "array[1..n] of var 0..hi: y;\n"
    "array[1..n] of var 0..n: sup;              % gravity: at 0, or just above sup\n"
    "var lb..hi: arena;\n"
    "constraint forall(i in 1..n)(if fixed[i] >= 0 then o[i] = fixed[i] /\\ y[i] = 0 /\\ sup[i] = 0\n"
    "                             else o[i] = align[i] * y[i] endif);\n"
    "constraint forall(i in 1..n)(o[i] + size[i] <= arena);\n"
    "constraint forall(k in 1..npairs)(o[pa[k]] + size[pa[k]] <= o[pb[k]] \\/\n"
    "                                  o[pb[k]] + size[pb[k]] <= o[pa[k]]);\n"
    "constraint forall(c in 1..ncliques)(\n"
    "    disjunctive_strict([o[i] | i in clique[c]], [size[i] | i in clique[c]]));\n"
    "constraint forall(i in 1..n where fixed[i] < 0)(sup[i] in {0} union nb[i] /\\\n"
    "    (sup[i] = 0 -> o[i] = 0) /\\\n"
    "    forall(j in nb[i])(sup[i] = j -> (o[j] + size[j] <= o[i] /\\\n"
    "                                      o[i] < o[j] + size[j] + align[i])));\n"
    "solve :: seq_search([int_search([sup[order[j]] | j in 1..nfree], input_order, indomain_min),\n"
    "                     int_search([o[order[j]] | j in 1..nfree], smallest, indomain_min),\n"
    "                     int_search([arena], input_order, indomain_min)])\n"
    "    ";
static const char model_tail[] =
    ";\n"
    "output [\"offsets:\"] ++ [\" \\(o[i])\" | i in 1..n] ++ [\"\\n\"];\n";

/* ---- the state of one plan ---------------------------------------------------- */

typedef struct mzn {
    const ab_problem *p; /* the arena view, in bytes */
    ab_problem q;        /* p divided by its unit g */
    int64_t g;
    int64_t lb, hi, cap; /* in units; cap INT64_MAX when none */
    bool target;         /* target=capacity */
    bool stacked;        /* upper=stacked */
    double time_s;
    const char *solver;
    char exe[4096];      /* minizinc's path */
    char dir[4096], model[4200], data[4200], tmp[4200];
    int64_t *heur;       /* the heuristic plan, units */
    int64_t heur_arena;
    int64_t *cand, *sol; /* the solution being read; the last confirmed one */
    bool have_cand;
    int nsol;
    bool complete, unsat, unknown, error, malformed;
    int64_t nodes;
    char *line;          /* the output line being read */
    size_t nline, capline;
    bool overlong;
    char msg[MZN_MSG];   /* the first error line, else the last line of words */
    bool msg_is_error;
} mzn;

/* ---- finding minizinc -------------------------------------------------------- */

/* The path of the program `name` on PATH into out; false when none. */
static bool on_path(const char *name, char *out, size_t cap) {
    const char *path = getenv("PATH");
    if (path == NULL || path[0] == '\0') path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *s = path; *s;) {
        const char *e = strchr(s, ':');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        int w = len == 0 ? snprintf(out, cap, "./%s", name)
                         : snprintf(out, cap, "%.*s/%s", (int)len, s, name);
        struct stat sb;
        if (w > 0 && (size_t)w < cap && stat(out, &sb) == 0 && S_ISREG(sb.st_mode) &&
            access(out, X_OK) == 0)
            return true;
        s += len;
        if (*s == ':') s++;
    }
    return false;
}

/* ---- the units problem, bounds and the heuristic plan -------------------------- */



/* z->q = the tensors of z->p and the capacity, divided by the unit. */
static ab_status make_units(mzn *z, ab_error *err) {
    ab_problem base;
    ab_problem_init(&base);
    ab_status st = AB_OK;
    for (size_t i = 0; st == AB_OK && i < z->p->n; i++)
        st = ab_problem_add(&base, &z->p->t[i], err);
    base.capacity = ab_problem_capacity(z->p);
    z->g = ab_problem_gravity_unit(&base);
    if (st == AB_OK) st = ab_problem_coarsen(&base, z->g, &z->q, err);
    ab_problem_free(&base);
    z->cap = z->q.capacity == AB_NONE ? INT64_MAX : z->q.capacity;
    return st;
}

/* AB_EINPUT when two conflicting fixed tensors overlap: no plan exists. */
static ab_status check_fixed(const ab_problem *q, ab_error *err) {
    size_t i, j;
    ab_status st = ab_problem_fixed_overlap(q, &i, &j, err);
    if (st != AB_OK || i == AB_NO_TENSOR) return st;
    return ab_fail(err, AB_EINPUT,
                   "minizinc: tensors '%s' and '%s' have fixed offsets that overlap "
                   "while both are live: no valid plan exists",
                   q->t[i].name, q->t[j].name);
}

/* max(offset + size) of off on the units problem. */
static int64_t arena_of(const ab_problem *q, const int64_t *off) {
    int64_t a = 0;
    for (size_t i = 0; i < q->n; i++)
        if (off[i] + q->t[i].size > a) a = off[i] + q->t[i].size;
    return a;
}

/* The stacked plan: every free tensor above the fixed ones, one on another. */
static void stacked_plan(const ab_problem *q, int64_t *off) {
    int64_t top = 0;
    for (size_t i = 0; i < q->n; i++)
        if (q->t[i].offset != AB_NONE && q->t[i].offset + q->t[i].size > top)
            top = q->t[i].offset + q->t[i].size;
    for (size_t i = 0; i < q->n; i++) {
        if (q->t[i].offset != AB_NONE) {
            off[i] = q->t[i].offset;
            continue;
        }
        int64_t a = q->t[i].align;
        off[i] = (top + a - 1) / a * a;
        top = off[i] + q->t[i].size;
    }
}

/* The heuristic plan in z->heur and its arena (units); checked for overflow
 * against MZN_MAX_UNITS by the caller. */
static ab_status heuristic(mzn *z, ab_error *err) {
    const ab_problem *q = &z->q;
    int64_t *tmp = ab_alloc_array(q->n, sizeof *tmp);
    if (tmp == NULL) return ab_fail(err, AB_ENOMEM, "minizinc: out of memory");
    /* stacked first: it bounds every value the model sees, so sums stay small */
    int64_t total = 0;
    for (size_t i = 0; i < q->n; i++) {
        int64_t end = q->t[i].offset != AB_NONE ? q->t[i].offset : 0;
        if (ab_add_ovf(total, q->t[i].size, &total) || ab_add_ovf(total, q->t[i].align, &total) ||
            ab_add_ovf(total, end, &total) || total > MZN_MAX_UNITS) {
            ab_free(tmp);
            return ab_fail(err, AB_EINPUT,
                           "minizinc: the tensors stacked take over 2^30 units of %lld B, more "
                           "than the model's 32-bit integers (Gecode) hold",
                           (long long)z->g);
        }
    }
    stacked_plan(q, z->heur);
    z->heur_arena = arena_of(q, z->heur);
    static const abp_order orders[] = {ABP_ORDER_START, ABP_ORDER_SIZE, ABP_ORDER_AREA};
    ab_status st = AB_OK;
    for (size_t k = 0; !z->stacked && st == AB_OK && k < sizeof orders / sizeof orders[0]; k++) {
        st = abp_greedy(q, orders[k], ABP_FIT_BEST, tmp, err);
        int64_t a = st == AB_OK ? arena_of(q, tmp) : INT64_MAX;
        if (st == AB_OK && a < z->heur_arena) {
            z->heur_arena = a;
            memcpy(z->heur, tmp, q->n * sizeof *tmp);
        }
    }
    ab_free(tmp);
    return st;
}

/* The lower bound in units: the max-load bound, and the end of every fixed
 * tensor. */
static ab_status lower_bound(mzn *z, ab_error *err) {
    abo_bounds b;
    ab_status st = abo_bounds_compute(&z->q, &b, err);
    if (st != AB_OK) return st;
    z->lb = b.max_load;
    for (size_t i = 0; i < z->q.n; i++)
        if (z->q.t[i].offset != AB_NONE && z->q.t[i].offset + z->q.t[i].size > z->lb)
            z->lb = z->q.t[i].offset + z->q.t[i].size;
    return AB_OK;
}

/* An upper bound on the conflicting pairs (pairs with equal starts count
 * twice): for each tensor, the other tensors that start within its range.
 * O(n log n); SIZE_MAX when memory runs out. */
static size_t count_pairs(const ab_problem *q) {
    int64_t *starts = ab_alloc_array(q->n ? q->n : 1, sizeof *starts);
    if (starts == NULL) return SIZE_MAX;
    for (size_t i = 0; i < q->n; i++) starts[i] = q->t[i].start;
    qsort(starts, q->n, sizeof *starts, ab_cmp_i64);
    size_t pairs = 0;
    for (size_t i = 0; i < q->n; i++)
        pairs += ab_count_le(starts, q->n, q->t[i].end) -
                 ab_count_le(starts, q->n, q->t[i].start - 1) - 1;
    ab_free(starts);
    return pairs;
}

/* ---- the files ------------------------------------------------------------------ */

/* By decreasing size, then longer life, then index. */
static int by_size(const void *pa, const void *pb, const void *ctx) {
    const ab_problem *q = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const ab_tensor *x = &q->t[a], *y = &q->t[b];
    if (x->size != y->size) return x->size > y->size ? -1 : 1;
    int64_t lx = x->end - x->start, ly = y->end - y->start;
    if (lx != ly) return lx > ly ? -1 : 1;
    return (a > b) - (a < b);
}

/* Writes an int array "name = [v0, v1, ...];". */
static void write_array(FILE *f, const char *name, const int64_t *v, size_t n) {
    fprintf(f, "%s = [", name);
    for (size_t i = 0; i < n; i++) fprintf(f, "%s%lld", i ? ", " : "", (long long)v[i]);
    fputs("];\n", f);
}

/* The conflicting pairs (i < j, not both fixed), as 1-based indices. */
static void write_pairs(FILE *f, const ab_problem *q) {
    size_t m = 0;
    for (int pass = 0; pass < 3; pass++) { /* count, then pa, then pb */
        if (pass == 1) fprintf(f, "npairs = %zu;\npa = [", m);
        if (pass == 2) fputs("pb = [", f);
        size_t k = 0;
        for (size_t i = 0; i < q->n; i++)
            for (size_t j = i + 1; j < q->n; j++) {
                if (!ab_conflict(&q->t[i], &q->t[j])) continue;
                if (q->t[i].offset != AB_NONE && q->t[j].offset != AB_NONE) continue;
                if (pass == 0) m++;
                else fprintf(f, "%s%zu", k++ ? ", " : "", (pass == 1 ? i : j) + 1);
            }
        if (pass > 0) fputs("];\n", f);
    }
}

/* For each free tensor, the tensors it conflicts with (1-based); {} for a
 * fixed one. */
static void write_neighbours(FILE *f, const ab_problem *q) {
    fputs("nb = [", f);
    for (size_t i = 0; i < q->n; i++) {
        fputs(i ? ", {" : "{", f);
        size_t w = 0;
        for (size_t j = 0; q->t[i].offset == AB_NONE && j < q->n; j++)
            if (j != i && ab_conflict(&q->t[i], &q->t[j]))
                fprintf(f, "%s%zu", w++ ? ", " : "", j + 1);
        fputc('}', f);
    }
    fputs("];\n", f);
}

/* The maximal live sets of two or more tensors (R2, R3 of exact-cover): at
 * each distinct start s_k, the tensors live there, kept when s_k is the last
 * start or one of them ends before the next start. */
static ab_status write_cliques(FILE *f, const ab_problem *q, ab_error *err) {
    int64_t *starts = ab_alloc_array(q->n ? q->n : 1, sizeof *starts);
    if (starts == NULL) return ab_fail(err, AB_ENOMEM, "minizinc: out of memory");
    for (size_t i = 0; i < q->n; i++) starts[i] = q->t[i].start;
    qsort(starts, q->n, sizeof *starts, ab_cmp_i64);
    size_t m = 0;
    for (size_t i = 0; i < q->n; i++)
        if (m == 0 || starts[m - 1] != starts[i]) starts[m++] = starts[i];
    for (int pass = 0; pass < 2; pass++) {
        size_t count = 0;
        if (pass == 1) fputs("clique = [", f);
        for (size_t k = 0; k < m; k++) {
            int64_t s = starts[k], first_end = INT64_MAX;
            size_t live = 0;
            for (size_t i = 0; i < q->n; i++)
                if (q->t[i].start <= s && s <= q->t[i].end) {
                    live++;
                    if (q->t[i].end < first_end) first_end = q->t[i].end;
                }
            if (live < 2 || (k + 1 < m && first_end >= starts[k + 1])) continue;
            if (pass == 1) {
                fputs(count ? ", {" : "{", f);
                size_t w = 0;
                for (size_t i = 0; i < q->n; i++)
                    if (q->t[i].start <= s && s <= q->t[i].end)
                        fprintf(f, "%s%zu", w++ ? ", " : "", i + 1);
                fputc('}', f);
            }
            count++;
        }
        if (pass == 0) fprintf(f, "ncliques = %zu;\n", count);
        else fputs("];\n", f);
    }
    ab_free(starts);
    return AB_OK;
}

static ab_status write_data(const mzn *z, ab_error *err) {
    const ab_problem *q = &z->q;
    size_t n = q->n;
    int64_t *v = ab_alloc_array(n, sizeof *v);
    size_t *order = ab_alloc_array(n, sizeof *order);
    FILE *f = v && order ? fopen(z->data, "w") : NULL;
    if (f == NULL) {
        ab_free(v);
        ab_free(order);
        if (v == NULL || order == NULL) return ab_fail(err, AB_ENOMEM, "minizinc: out of memory");
        return ab_fail(err, AB_EINTERNAL, "minizinc: cannot write %s: %s", z->data,
                       strerror(errno));
    }
    fprintf(f, "n = %zu;\nlb = %lld;\nhi = %lld;\n", n, (long long)z->lb, (long long)z->hi);
    for (size_t i = 0; i < n; i++) v[i] = q->t[i].size;
    write_array(f, "size", v, n);
    for (size_t i = 0; i < n; i++) v[i] = q->t[i].align;
    write_array(f, "align", v, n);
    for (size_t i = 0; i < n; i++) v[i] = q->t[i].offset == AB_NONE ? -1 : q->t[i].offset;
    write_array(f, "fixed", v, n);
    write_pairs(f, q);
    write_neighbours(f, q);
    ab_status st = write_cliques(f, q, err);
    size_t nfree = 0;
    for (size_t i = 0; i < n; i++)
        if (q->t[i].offset == AB_NONE) order[nfree++] = i;
    ab_sort(order, nfree, sizeof *order, by_size, q);
    for (size_t i = 0; i < nfree; i++) v[i] = (int64_t)order[i] + 1;
    fprintf(f, "nfree = %zu;\n", nfree);
    write_array(f, "order", v, nfree);
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad)
        st = ab_fail(err, AB_EINTERNAL, "minizinc: cannot write %s: %s", z->data, strerror(errno));
    ab_free(v);
    ab_free(order);
    return st;
}

static ab_status write_model(const mzn *z, ab_error *err) {
    FILE *f = fopen(z->model, "w");
    if (f == NULL)
        return ab_fail(err, AB_EINTERNAL, "minizinc: cannot write %s: %s", z->model,
                       strerror(errno));
    fputs(model_head, f);
    fputs(z->target ? "satisfy" : "minimize arena", f);
    fputs(model_tail, f);
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad)
        return ab_fail(err, AB_EINTERNAL, "minizinc: cannot write %s: %s", z->model,
                       strerror(errno));
    return AB_OK;
}

/* Makes the temporary folder (and minizinc's TMPDIR inside it). */
static ab_status make_dir(mzn *z, ab_error *err) {
    const char *base = getenv("TMPDIR");
    if (base == NULL || base[0] == '\0') base = "/tmp";
    snprintf(z->dir, sizeof z->dir, "%s/arenabench-minizinc.XXXXXX", base);
    if (mkdtemp(z->dir) == NULL) {
        z->dir[0] = '\0';
        return ab_fail(err, AB_EINTERNAL, "minizinc: cannot make a folder in %s: %s", base,
                       strerror(errno));
    }
    snprintf(z->model, sizeof z->model, "%s/model.mzn", z->dir);
    snprintf(z->data, sizeof z->data, "%s/data.dzn", z->dir);
    snprintf(z->tmp, sizeof z->tmp, "%s/tmp", z->dir);
    if (mkdir(z->tmp, 0700) != 0)
        return ab_fail(err, AB_EINTERNAL, "minizinc: cannot make %s: %s", z->tmp, strerror(errno));
    return AB_OK;
}

/* Removes path and, for a folder, everything in it (no symbolic link is
 * followed); depth is a guard against runaway nesting. */
static void remove_tree(const char *path, int depth) {
    struct stat sb;
    if (lstat(path, &sb) != 0) return;
    if (S_ISDIR(sb.st_mode) && depth < 16) {
        DIR *d = opendir(path);
        struct dirent *e;
        while (d != NULL && (e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            char sub[4608];
            if (snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) < (int)sizeof sub)
                remove_tree(sub, depth + 1);
        }
        if (d != NULL) closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* ---- reading minizinc's output ---------------------------------------------------- */

/* Keeps a line of words for messages: the first that speaks of an error, else
 * the last. Deprecation warnings of the packaged library are left out. */
static void keep_words(mzn *z, const char *s, size_t len) {
    if (len == 0 || s[0] == '%' || strncmp(s, "Warning: included file", 22) == 0 ||
        strncmp(s, "Warning:", 8) == 0)
        return;
    bool is_error = false;
    for (size_t i = 0; i + 5 <= len && !is_error; i++)
        is_error = strncmp(s + i, "rror", 4) == 0 || strncmp(s + i, "xception", 8) == 0;
    if (z->msg_is_error) return;
    z->msg_is_error = is_error;
    size_t k = len < sizeof z->msg - 1 ? len : sizeof z->msg - 1;
    for (size_t i = 0; i < k; i++)
        z->msg[i] = (s[i] < 0x20 && s[i] >= 0) ? '?' : s[i];
    z->msg[k] = '\0';
}

/* "offsets: v1 ... vn" into z->cand. */
static void read_offsets(mzn *z, const char *s) {
    z->have_cand = false;
    char *end;
    for (size_t i = 0; i < z->q.n; i++) {
        while (*s == ' ') s++;
        if (*s < '0' || *s > '9') {
            z->malformed = true;
            return;
        }
        errno = 0;
        long long v = strtoll(s, &end, 10);
        if (errno != 0 || v < 0 || v > MZN_MAX_UNITS) {
            z->malformed = true;
            return;
        }
        z->cand[i] = v;
        s = end;
    }
    while (*s == ' ') s++;
    if (*s != '\0') {
        z->malformed = true;
        return;
    }
    z->have_cand = true;
}

/* One line of output (NUL-terminated, no line end). */
static void read_line(mzn *z, char *s, size_t len) {
    if (len > 0 && s[len - 1] == '\r') s[--len] = '\0';
    static const char nodes[] = "%%%mzn-stat: nodes=";
    if (strncmp(s, "offsets:", 8) == 0) {
        read_offsets(z, s + 8);
    } else if (strcmp(s, "----------") == 0) {
        if (z->have_cand) {
            memcpy(z->sol, z->cand, z->q.n * sizeof *z->sol);
            z->nsol++;
        }
        z->have_cand = false;
    } else if (strcmp(s, "==========") == 0) {
        z->complete = true;
    } else if (strcmp(s, "=====UNSATISFIABLE=====") == 0) {
        z->unsat = true;
    } else if (strcmp(s, "=====UNKNOWN=====") == 0) {
        z->unknown = true;
    } else if (strncmp(s, "=====", 5) == 0) { /* =====ERROR=====, =====UNBOUNDED=====, ... */
        z->error = true;
        keep_words(z, s, len);
    } else if (strncmp(s, nodes, sizeof nodes - 1) == 0) {
        long long v = strtoll(s + sizeof nodes - 1, NULL, 10);
        if (v > 0) z->nodes = v;
    } else {
        keep_words(z, s, len);
    }
}

/* Feeds len bytes of output, line by line. */
static void feed(mzn *z, const char *b, size_t len) {
    for (size_t i = 0; i < len; i++) {
        if (b[i] == '\n') {
            if (!z->overlong && z->line != NULL) {
                z->line[z->nline] = '\0';
                read_line(z, z->line, z->nline);
            }
            z->nline = 0;
            z->overlong = false;
            continue;
        }
        if (z->overlong) continue;
        if (z->nline + 2 > MZN_MAX_LINE ||
            !ab_grow((void **)&z->line, &z->capline, z->nline + 2, 1)) {
            z->overlong = true; /* dropped: an offsets line cut short never counts */
            z->malformed = true;
            continue;
        }
        z->line[z->nline++] = b[i];
    }
}

static void drain(mzn *z, abe_proc *proc) {
    char b[16384];
    long k;
    while ((k = abe_read(proc, b, sizeof b)) > 0) feed(z, b, (size_t)k);
}

/* Runs minizinc and reads its output as it comes; *end says how it ended. */
static ab_status run(mzn *z, abe_exit *end, ab_error *err) {
    char tenv[4300], tl[32];
    snprintf(tenv, sizeof tenv, "TMPDIR=%s", z->tmp);
    long long ms = (long long)ceil(z->time_s * 1000.0);
    snprintf(tl, sizeof tl, "%lld", ms > 0 ? ms : 1);
    char *argv[16];
    int a = 0;
    argv[a++] = "env";
    argv[a++] = tenv;
    argv[a++] = z->exe;
    argv[a++] = "--solver";
    argv[a++] = (char *)z->solver;
    argv[a++] = "--time-limit";
    argv[a++] = tl;
    argv[a++] = "-s";
    if (!z->target) argv[a++] = "-i";
    argv[a++] = z->model;
    argv[a++] = z->data;
    argv[a] = NULL;
    abe_spawn_opts o = {.path = "/usr/bin/env", .argv = argv, .capture = true,
                        .time_limit = z->time_s + MZN_MARGIN, .guard = true,
                        .reap_descendants = true};
    if (access(o.path, X_OK) != 0) o.path = "/bin/env";
    abe_proc *proc;
    ab_error e;
    ab_status st = abe_spawn(&o, &proc, &e);
    if (st != AB_OK) return ab_fail(err, st, "minizinc: %s", e.msg);
    for (;;) {
        drain(z, proc);
        if (abe_reap(proc, false, end)) break;
        if (abe_enforce_deadline(proc)) {
            abe_reap(proc, true, end);
            break;
        }
        double left = abe_deadline(proc) - abe_now();
        int wait_ms = left > 0.05 ? 50 : left > 0 ? (int)ceil(left * 1000.0) : 0;
        if (abe_fd(proc) >= 0) {
            struct pollfd pfd = {.fd = abe_fd(proc), .events = POLLIN};
            poll(&pfd, 1, wait_ms);
        } else { /* the pipe ended before the child: check it every ms */
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
    }
    drain(z, proc);
    feed(z, "\n", 1); /* a last line without its end */
    abe_free(proc);
    return AB_OK;
}

/* How minizinc failed, as an error: AB_EINPUT for an unknown solver. */
static ab_status run_failed(const mzn *z, const abe_exit *end, ab_error *err) {
    const char *msg = z->msg[0] ? z->msg : "no message";
    ab_status st = strstr(z->msg, "no solver with tag") ? AB_EINPUT : AB_EINTERNAL;
    if (end->lost)
        return ab_fail(err, st, "minizinc: its exit status was lost (another waiter reaped it): %s",
                       msg);
    if (end->signal != 0 && !end->timed_out) {
        const char *name = ab_signal_name(end->signal);
        return ab_fail(err, st, "minizinc: killed by signal %d (%s): %s", end->signal,
                       name ? name : "unknown", msg);
    }
    return ab_fail(err, st, "minizinc --solver %s: exited with status %d: %s", z->solver,
                   end->code, msg);
}

/* ---- the planner -------------------------------------------------------------------- */

/* Reads the parameters (resolved against minizinc_params); AB_EINPUT for a
 * solver that is no tag. */
static ab_status read_params(const ab_params *opt, mzn *z, ab_error *err) {
    z->time_s = ab_param_seconds(opt, "time");
    z->solver = ab_param_text(opt, "solver");
    if (z->solver[0] == '\0' || z->solver[0] == '-')
        return ab_fail(err, AB_EINPUT, "parameter solver: expected a solver tag such as gecode, "
                       "got '%s'", z->solver);
    z->target = ab_param_choice(opt, "target") == 1;  /* min|capacity */
    z->stacked = ab_param_choice(opt, "upper") == 1; /* best-fit|stacked */
    return AB_OK;
}

__attribute__((format(printf, 2, 3))) static void note(ab_plan_stats *st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->note, sizeof st->note, fmt, ap);
    va_end(ap);
}

/* Bytes of a units value (the caller has kept values below 2^30 units, and
 * the units problem came from bytes that fit). */
static int64_t bytes(const mzn *z, int64_t units) {
    int64_t b;
    return ab_mul_ovf(units, z->g, &b) ? INT64_MAX : b;
}

/* Sets the plan (units, to bytes), the claim and the note from the run. */
static void conclude(mzn *z, int64_t *offsets, ab_plan_stats *st, bool ran, const abe_exit *end) {
    const int64_t *plan = z->nsol > 0 ? z->sol : z->heur;
    int64_t arena = arena_of(&z->q, plan);
    if (z->nsol > 0 && arena >= z->heur_arena) { /* cannot be: the model asks for less */
        plan = z->heur;
        arena = z->heur_arena;
    }
    for (size_t i = 0; i < z->q.n; i++) offsets[i] = bytes(z, plan[i]);
    const char *hname = z->stacked ? "stacked" : "best-fit";
    long long u = (long long)z->g, A = (long long)arena, L = (long long)z->lb;
    st->method = ABO_PROOF_EXHAUSTIVE;
    st->nodes = z->nodes;
    st->lower_bound = bytes(z, z->lb);
    bool fits = arena <= z->cap;
    if (!ran) {
        st->proven_optimal = arena <= z->lb;
        if (z->target && fits)
            note(st, "%s fits the capacity (%lld of %lld units of %lld B); minizinc not run", hname,
                 A, (long long)z->cap, u);
        else if (arena <= z->lb)
            note(st, "optimal: %s meets the bound (%lld units of %lld B); minizinc not run", hname,
                 A, u);
        else { /* the bound is above the capacity */
            st->lower_bound = bytes(z, z->lb);
            note(st, "does not fit the capacity of %lld units of %lld B (bound %lld); minizinc "
                 "not run", (long long)z->cap, u, L);
        }
        return;
    }
    bool stopped = !z->complete && !z->unsat;
    if (stopped) {
        st->proven_optimal = arena <= z->lb;
        note(st, "%s: best %lld units of %lld B (%s), proven >= %lld; %lld nodes",
             end->timed_out ? "killed at the hard deadline" : "time limit", A, u,
             z->nsol > 0 ? "minizinc's" : hname, L, (long long)z->nodes);
        return;
    }
    if (z->nsol > 0) { /* complete: the last solution is optimal (or fits) */
        st->proven_optimal = !z->target || arena <= z->lb;
        st->lower_bound = bytes(z, st->proven_optimal ? arena : z->lb);
        note(st, "%s at %lld units of %lld B; %d solutions; %lld nodes",
             z->target ? "fits the capacity" : "optimal (search complete)", A, u, z->nsol,
             (long long)z->nodes);
        return;
    }
    /* nothing within hi */
    if (z->hi == z->heur_arena - 1 && fits && !z->target) {
        st->proven_optimal = true;
        st->lower_bound = bytes(z, arena);
        note(st, "optimal: %s's %lld units of %lld B (nothing below, search complete); %lld "
             "nodes", hname, A, u, (long long)z->nodes);
    } else { /* nothing within the capacity: some optimum is on the grid, so above it */
        st->proven_optimal = false;
        st->lower_bound = ab_problem_capacity(z->p) + 1;
        note(st, "does not fit the capacity of %lld units of %lld B (search complete); best "
             "%lld; %lld nodes", (long long)z->cap, u, A, (long long)z->nodes);
    }
}

static void mzn_free(mzn *z) {
    if (z->dir[0]) remove_tree(z->dir, 0);
    ab_problem_free(&z->q);
    ab_free(z->heur);
    ab_free(z->cand);
    ab_free(z->sol);
    ab_free(z->line);
}

static ab_status minizinc_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                               ab_plan_stats *st, ab_error *err) {
    mzn z;
    memset(&z, 0, sizeof z);
    z.p = p;
    ab_problem_init(&z.q);
    st->lower_bound = AB_NONE;
    st->proven_optimal = false;
    ab_status s = read_params(opt, &z, err);
    if (s != AB_OK) return s;
    if (!on_path("minizinc", z.exe, sizeof z.exe))
        return ab_fail(err, AB_EINPUT, "minizinc not found on PATH: apt-get install minizinc");
    if (p->npools > 1)
        return ab_fail(err, AB_EINPUT, "minizinc: plans one arena, not %zu pools", p->npools);
    if (z.target && ab_problem_capacity(p) == AB_NONE)
        return ab_fail(err, AB_EINPUT,
                       "minizinc: target=capacity needs a suite capacity (or a bounded pool)");
    if (p->n == 0) {
        st->proven_optimal = true;
        st->lower_bound = 0;
        st->method = ABO_PROOF_EXHAUSTIVE;
        note(st, "no tensors: arena 0");
        return AB_OK;
    }
    size_t n = p->n;
    z.heur = ab_alloc_array(n, sizeof *z.heur);
    z.cand = ab_alloc_array(n, sizeof *z.cand);
    z.sol = ab_alloc_array(n, sizeof *z.sol);
    if (z.heur == NULL || z.cand == NULL || z.sol == NULL)
        s = ab_fail(err, AB_ENOMEM, "minizinc: out of memory");
    if (s == AB_OK) s = make_units(&z, err);
    if (s == AB_OK) s = check_fixed(&z.q, err);
    if (s == AB_OK) s = heuristic(&z, err);
    if (s == AB_OK) s = lower_bound(&z, err);
    bool ran = false, too_big = false;
    abe_exit end;
    memset(&end, 0, sizeof end);
    if (s == AB_OK) {
        z.hi = z.target ? z.cap : z.heur_arena - 1;
        if (z.hi > z.cap) z.hi = z.cap;
        bool needed = z.target ? z.heur_arena > z.cap && z.lb <= z.cap
                               : z.heur_arena > z.lb && z.lb <= z.hi;
        size_t pairs = needed ? count_pairs(&z.q) : 0;
        if (needed && (n > MZN_MAX_TENSORS || pairs > MZN_MAX_PAIRS)) {
            needed = false;
            too_big = true;
            snprintf(z.msg, sizeof z.msg, "%zu tensors, %zu conflicting pairs", n, pairs);
        }
        if (needed) {
            s = make_dir(&z, err);
            if (s == AB_OK) s = write_model(&z, err);
            if (s == AB_OK) s = write_data(&z, err);
            if (s == AB_OK) s = run(&z, &end, err);
            ran = s == AB_OK;
            bool ok = ran && !end.lost && !z.error &&
                      (end.timed_out || (end.exited && end.code == 0));
            if (ran && !ok) s = run_failed(&z, &end, err);
            if (s == AB_OK && z.malformed && z.nsol == 0 && !z.unsat)
                s = ab_fail(err, AB_EINTERNAL, "minizinc: its output could not be read: %s",
                            z.msg[0] ? z.msg : "no message");
        }
    }
    if (s == AB_OK) conclude(&z, offsets, st, ran, &end);
    if (s == AB_OK && too_big)
        note(st, "too large for the model (%s; limits %d and %d): %s's plan, minizinc not run",
             z.msg, MZN_MAX_TENSORS, MZN_MAX_PAIRS, z.stacked ? "stacked" : "best-fit");
    mzn_free(&z);
    return s;
}

static const ab_param_desc minizinc_params[] = {
    {"time", "seconds > 0", "60",
     "minizinc's --time-limit: the best plan so far when it runs out (hard kill 10 s later)",
     AB_PARAM_SECONDS, 0, 0, false},
    {"solver", "a minizinc solver tag", "gecode", "the backend: minizinc --solver TAG",
     AB_PARAM_TEXT, 0, 0, false},
    {"target", "min|capacity", "min",
     "min: the smallest arena; capacity: only whether the tensors fit the suite's capacity",
     AB_PARAM_CHOICE, 0, 0, false},
    {"upper", "best-fit|stacked", "best-fit",
     "the plan in hand: the solver looks only below its arena, and it is returned when "
     "nothing better is found", AB_PARAM_CHOICE, 0, 0, false},
    {0},
};

/* The registry row of `minizinc` (registered by abe_register_planners). */
const ab_planner abe_minizinc = {
    .name = "minizinc",
    .summary = "a MiniZinc CP model solved by minizinc (Gecode): optimal when its search "
               "completes",
    .flags = AB_PLANNER_EXACT | AB_PLANNER_ANYTIME | AB_PLANNER_NEEDS_PROGRAM,
    .params = minizinc_params,
    .plan = minizinc_plan,
};
