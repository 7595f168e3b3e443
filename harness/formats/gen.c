/*
 * gen.c — the generators (see gen.h). A small graph builder places one
 * operator after another; each generator is a function that calls it.
 */
#include "harness/formats/gen.h"

#include "core/sort.h"
#include "harness/formats/formats.h"

#include <inttypes.h>

#include <stdio.h>
#include <string.h>

/* ---- the graph builder ---------------------------------------------------------- */

typedef struct gb {
    ab_problem *p;
    int64_t op;          /* the operator being built */
    const ab_dtype *dt;  /* element type of activations */
    uint64_t rng;
    ab_status st;
    ab_error *err;
    int64_t max_tensors;   /* the smaller input budget of the two below */
    const char *max_name;  /* its variable: ARENABENCH_MAX_GENERATED or _TENSORS */
} gb;

static uint64_t next_rand(gb *b) { /* splitmix64 */
    uint64_t z = (b->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A number in [lo, hi]. */
static int64_t rand_in(gb *b, int64_t lo, int64_t hi) {
    return lo + (int64_t)(next_rand(b) % (uint64_t)(hi - lo + 1));
}

/* Adds a tensor written by the current operator, of shape [1, h, w, c] (or a
 * plain size in bytes when h is 0); returns its index. */
static size_t gb_out(gb *b, const char *name, int64_t h, int64_t w, int64_t c, ab_kind kind) {
    if (b->st != AB_OK) return 0;
    if ((uint64_t)b->p->n >= (uint64_t)b->max_tensors) {
        b->st = ab_fail(b->err, AB_EINPUT,
                        "the suite would have more than %" PRId64
                        " tensors (the limit %s)",
                        b->max_tensors, b->max_name);
        return 0;
    }
    int64_t shape[4] = {1, h, w, c}, bits = b->dt->bits;
    ab_tensor t = {.name = (char *)name, .start = b->op, .end = b->op, .align = 1,
                   .offset = AB_NONE, .kind = kind};
    if (h > 0) {
        for (int k = 0; k < 4; k++)
            if (ab_mul_ovf(bits, shape[k], &bits)) b->st = ab_fail(b->err, AB_EINPUT, "'%s' is too large", name);
        t.ndim = 4;
        t.shape = shape;
        t.dtype = b->dt;
        t.logical_bits = bits;
        t.size = bits / 8 + (bits % 8 != 0);
    } else {
        t.size = c;
        t.logical_bits = c > INT64_MAX / 8 ? INT64_MAX : c * 8;
    }
    if (b->st == AB_OK) b->st = ab_problem_add(b->p, &t, b->err);
    return b->p->n - 1;
}

/* The current operator reads tensor i. */
static void gb_read(gb *b, size_t i) {
    if (b->st == AB_OK && b->p->t[i].end < b->op) b->p->t[i].end = b->op;
}

/* One operator: reads ins[0..n), writes a new tensor [1, h, w, c]. */
static size_t gb_op(gb *b, const char *name, const size_t *ins, int n, int64_t h, int64_t w,
                    int64_t c) {
    for (int k = 0; k < n; k++) gb_read(b, ins[k]);
    size_t out = gb_out(b, name, h, w, c, AB_KIND_INTERMEDIATE);
    b->op++;
    return out;
}

static size_t gb_op1(gb *b, const char *name, size_t in, int64_t h, int64_t w, int64_t c) {
    return gb_op(b, name, &in, 1, h, w, c);
}

/* Marks tensor i as the network output (live to the end). */
static void gb_output(gb *b, size_t i) {
    if (b->st == AB_OK) b->p->t[i].kind = AB_KIND_OUTPUT;
}

/* A tensor name from a format and numbers, in the caller's `name` buffer. */
#define NAME(fmt, a) (snprintf(name, sizeof name, fmt, (int)(a)), name)
#define NAME2(fmt, a, c) (snprintf(name, sizeof name, fmt, (int)(a), (int)(c)), name)

/* ---- parameters ----------------------------------------------------------------- */

typedef struct gctx {
    gb *b;
    const ab_params *params;
    char desc[1024]; /* a description of the suite when the generator wrote one */
} gctx;

static int64_t param(gctx *g, const char *key, int64_t def, int64_t lo, int64_t hi) {
    int64_t v = def;
    if (g->b->st == AB_OK) g->b->st = ab_params_int(g->params, key, def, lo, hi, &v, g->b->err);
    /* n counts tensors: checked against the budget before any is made. */
    if (g->b->st == AB_OK && strcmp(key, "n") == 0 && v > g->b->max_tensors)
        g->b->st = ab_fail(g->b->err, AB_EINPUT,
                           "parameter n: %" PRId64 " tensors is above the limit of %" PRId64
                           " (%s)",
                           v, g->b->max_tensors, g->b->max_name);
    return v;
}

/* The tensors a generator's parameters ask for (its count, or a lower bound
 * of it), checked against the budget before any is made, as n is. */
static void expect_tensors(gctx *g, int64_t count, const char *from) {
    if (g->b->st == AB_OK && count > g->b->max_tensors)
        g->b->st = ab_fail(g->b->err, AB_EINPUT,
                           "parameters %s: %" PRId64 " tensors or more, above the limit of %" PRId64
                           " (%s)",
                           from, count, g->b->max_tensors, g->b->max_name);
}

/* A feature-map width drawn for the synthetic kinds: powers of two mixed
 * with odd sizes, as real models have (7, 14, 28, 55, 56, 112, ...). */
static int64_t rand_hw(gb *b, int64_t base) {
    static const int64_t odd[] = {7, 13, 14, 27, 28, 55, 56, 111, 112};
    if (next_rand(b) % 2 == 0) return base;
    int64_t v = odd[next_rand(b) % (sizeof odd / sizeof odd[0])];
    return v < base ? v : base;
}

/* ---- synthetic kinds ------------------------------------------------------------- */

static size_t net_input(gb *b, int64_t hw, int64_t c) {
    size_t in = gb_out(b, "input", hw, hw, c, AB_KIND_INPUT);
    return in;
}

static void gen_chain(gctx *g) {
    gb *b = g->b;
    int64_t n = param(g, "n", 16, 1, 10000000), hw = param(g, "hw", 56, 1, 4096);
    char name[64];
    size_t x = net_input(b, hw, 3);
    for (int i = 0; i < n && b->st == AB_OK; i++) {
        int64_t c = (int64_t)16 << (next_rand(b) % 5);
        x = gb_op1(b, NAME("layer%d", i), x, rand_hw(b, hw), rand_hw(b, hw), c);
    }
    gb_output(b, x);
}

static void gen_fanout(gctx *g) {
    gb *b = g->b;
    int64_t blocks = param(g, "blocks", 4, 1, 1000000), br = param(g, "branches", 3, 1, 64);
    int64_t depth = param(g, "depth", 2, 1, 64), hw = param(g, "hw", 28, 1, 4096);
    expect_tensors(g, blocks * (br * depth + 1), "blocks x (branches x depth + 1)");
    char name[64];
    size_t x = net_input(b, hw, 64);
    for (int k = 0; k < blocks && b->st == AB_OK; k++) {
        size_t ends[64];
        int64_t total = 0;
        for (int j = 0; j < br; j++) {
            size_t y = x;
            int64_t c = (int64_t)16 << (next_rand(b) % 4);
            for (int d = 0; d < depth; d++)
                y = gb_op1(b, NAME2("b%d_branch%d", k, j * 100 + d), y, hw, hw, c);
            ends[j] = y;
            total += c;
        }
        x = gb_op(b, NAME("b%d_concat", k), ends, (int)br, hw, hw, total);
    }
    gb_output(b, x);
}

static void gen_resnet(gctx *g) {
    gb *b = g->b;
    int64_t blocks = param(g, "blocks", 8, 1, 1000000), hw = param(g, "hw", 56, 1, 4096);
    int64_t c = param(g, "channels", 64, 1, 1 << 20);
    expect_tensors(g, 3 * blocks, "3 x blocks");
    char name[64];
    size_t x = gb_op1(b, "stem", net_input(b, hw * 2, 3), hw, hw, c);
    for (int k = 0; k < blocks && b->st == AB_OK; k++) {
        if (k > 0 && k % 4 == 0 && hw > 7) { /* a downsampling stage */
            hw = (hw + 1) / 2;
            c *= 2;
            x = gb_op1(b, NAME("down%d", k), x, hw, hw, c);
        }
        size_t a = gb_op1(b, NAME("b%d_conv1", k), x, hw, hw, c);
        size_t y = gb_op1(b, NAME("b%d_conv2", k), a, hw, hw, c);
        size_t ins[2] = {x, y};
        x = gb_op(b, NAME("b%d_add", k), ins, 2, hw, hw, c);
    }
    gb_output(b, gb_op1(b, "logits", x, 0, 0, 1000));
}

static void gen_unet(gctx *g) {
    gb *b = g->b;
    int64_t levels = param(g, "levels", 4, 1, 20), hw = param(g, "hw", 128, 2, 65536);
    int64_t c = param(g, "channels", 32, 1, 1 << 20);
    char name[64];
    size_t skips[20], x = net_input(b, hw, 3);
    for (int l = 0; l < levels && b->st == AB_OK; l++) {
        x = gb_op1(b, NAME("enc%d_conv", l), x, hw, hw, c << l);
        skips[l] = x;
        hw = hw > 1 ? hw / 2 : 1;
        x = gb_op1(b, NAME("enc%d_pool", l), x, hw, hw, c << l);
    }
    x = gb_op1(b, "bottleneck", x, hw, hw, c << levels);
    for (int l = (int)levels - 1; l >= 0 && b->st == AB_OK; l--) {
        hw *= 2;
        size_t up = gb_op1(b, NAME("dec%d_up", l), x, hw, hw, c << l);
        size_t ins[2] = {up, skips[l]};
        size_t cat = gb_op(b, NAME("dec%d_concat", l), ins, 2, hw, hw, 2 * (c << l));
        x = gb_op1(b, NAME("dec%d_conv", l), cat, hw, hw, c << l);
    }
    gb_output(b, gb_op1(b, "mask", x, hw, hw, 1));
}

static void gen_transformer(gctx *g) {
    gb *b = g->b;
    int64_t blocks = param(g, "blocks", 4, 1, 100000), seq = param(g, "seq", 128, 1, 1 << 20);
    int64_t d = param(g, "dim", 256, 1, 1 << 20), heads = param(g, "heads", 4, 1, 1024);
    expect_tensors(g, 11 * blocks, "11 x blocks");
    char name[64];
    size_t x = gb_out(b, "tokens", 1, seq, d, AB_KIND_INPUT);
    for (int k = 0; k < blocks && b->st == AB_OK; k++) {
        size_t q = gb_op1(b, NAME("b%d_q", k), x, 1, seq, d);
        size_t kk = gb_op1(b, NAME("b%d_k", k), x, 1, seq, d);
        size_t v = gb_op1(b, NAME("b%d_v", k), x, 1, seq, d);
        size_t qk[2] = {q, kk};
        size_t s = gb_op(b, NAME("b%d_scores", k), qk, 2, heads, seq, seq);
        size_t p = gb_op1(b, NAME("b%d_softmax", k), s, heads, seq, seq);
        size_t pv[2] = {p, v};
        size_t a = gb_op(b, NAME("b%d_attn", k), pv, 2, 1, seq, d);
        size_t o = gb_op1(b, NAME("b%d_proj", k), a, 1, seq, d);
        size_t r1[2] = {x, o};
        size_t h = gb_op(b, NAME("b%d_add1", k), r1, 2, 1, seq, d);
        size_t f = gb_op1(b, NAME("b%d_mlp_up", k), h, 1, seq, 4 * d);
        size_t f2 = gb_op1(b, NAME("b%d_mlp_down", k), f, 1, seq, d);
        size_t r2[2] = {h, f2};
        x = gb_op(b, NAME("b%d_add2", k), r2, 2, 1, seq, d);
    }
    gb_output(b, x);
}

/* Random intervals: starts uniform over the horizon; lengths mostly short
 * (1-4), some medium (up to 64: skips), a few long (up to horizon/4); sizes
 * powers of two from 16 B to 64 KiB (pow2 percent) or uniform in [1, max]. */
static void gen_random(gctx *g) {
    gb *b = g->b;
    int64_t n = param(g, "n", 1000, 1, 100000000);
    int64_t horizon = param(g, "horizon", n / 2 > 0 ? n / 2 : 1, 1, AB_MAX_SIZE / 2);
    int64_t medium = param(g, "medium", 12, 0, 100), longp = param(g, "long", 3, 0, 100);
    int64_t pow2 = param(g, "pow2", 60, 0, 100), max = param(g, "max_size", 100000, 1, AB_MAX_SIZE);
    if (b->st == AB_OK && medium + longp > 100)
        b->st = ab_fail(b->err, AB_EINPUT, "parameters medium + long must be at most 100 (percent)");
    char name[64];
    for (int64_t i = 0; i < n && b->st == AB_OK; i++) {
        int64_t r = rand_in(b, 0, 99), len;
        if (r < longp) len = rand_in(b, 1, horizon / 4 + 1);
        else if (r < longp + medium) len = rand_in(b, 1, 64);
        else len = rand_in(b, 1, 4);
        int64_t size = rand_in(b, 0, 99) < pow2 ? (int64_t)16 << rand_in(b, 0, 12) : rand_in(b, 1, max);
        b->op = rand_in(b, 0, horizon - 1);
        snprintf(name, sizeof name, "t%lld", (long long)i);
        size_t t = gb_out(b, name, 0, 0, size, AB_KIND_INTERMEDIATE);
        if (b->st == AB_OK) b->p->t[t].end = b->op + len - 1;
    }
}

/* ---- planted: an optimum above max-load, known by construction ---------------------
 *
 * The gadgets were found once by a throwaway search (not committed): draw 4-5
 * "long" tensors (live 2+ instructions, sizes 1-8) over 5-6 instructions, let
 * L be their max-load, and at every instruction where their load is below L
 * add a one-instruction tensor of the difference. Every instruction then has
 * load exactly L and the one-instruction tensors each need ONE hole of their
 * size, so the long tensors must leave their free bytes contiguous at every
 * instruction; most draws can, a few cannot. An exact search over compacted
 * plans (each tensor at 0 or on top of a conflicting one, in offset order)
 * gave the optimum; seeds of 3-5 long tensors over 4-5 instructions found no
 * gadget of fewer than 8 tensors. tests/test_gen.c re-derives every figure.
 *
 * A planted suite (gen_planted), for n tensors and G gadgets (default 1):
 *   - draws G gadgets, each scaled by an integer factor F in [scale_min,
 *     scale_max] (sizes x F) and, at random, mirrored in time (start' = H-1-end);
 *     optimum(gadget x F) = F x optimum(gadget): a plan scales by F, and a
 *     problem whose sizes have gcd F has an optimal plan on the F grid
 *     (ab_problem_unit), i.e. a scaled plan of the gadget;
 *   - lays out G+1 segments of filler and G windows in time: segment 0,
 *     window 0, segment 1, ..., segment G; each window holds one gadget alone
 *     (no filler tensor is live at any of its instructions);
 *   - draws the n - (gadget tensors) filler tensors with their load kept at
 *     most `fill` percent of OPT = max over gadgets of F x optimum, and checks
 *     that a first-fit of the filler alone (start order, lowest offset: fill_ff)
 *     has arena <= OPT; when it does not, the filler is drawn again with a
 *     tenth less load;
 *   - with decoy=1, one more filler tensor, alone at an instruction of its own
 *     in a random segment, of a size drawn strictly between the gadgets'
 *     largest scaled max-load and OPT: the suite's max-load is then there,
 *     away from every gadget (a bound that looks only at the hottest
 *     instruction is led astray), and it stays below OPT. It is filler like
 *     the rest (first-fit puts it at 0, under OPT).
 * Then the optimum of the whole is OPT exactly: no plan is smaller, as each
 * gadget is a subset of the tensors; and the gadgets' optimal plans together
 * with the filler's first-fit plan form a valid plan of arena OPT, as no two
 * of those parts share an instruction. The suite carries
 * expect: {lower_bound: its max-load, optimum: OPT}. */

/* The gadgets (see above): {size, start, end} in bytes before scaling. */
const abf_gadget abf_gadgets[] = {
    {"g10-12", 8, {{4, 0, 1}, {3, 1, 3}, {2, 2, 3}, {3, 1, 2}, {5, 3, 4}, {6, 0, 0}, {2, 2, 2}, {5, 4, 4}},
     10, 12},
    {"g12-14", 8, {{5, 0, 1}, {5, 3, 4}, {2, 2, 3}, {2, 1, 2}, {5, 1, 3}, {7, 0, 0}, {3, 2, 2}, {7, 4, 4}},
     12, 14},
    {"g14-17", 8, {{3, 2, 3}, {4, 1, 4}, {3, 2, 5}, {4, 0, 3}, {10, 0, 0}, {6, 1, 1}, {7, 4, 4}, {11, 5, 5}},
     14, 17},
    {"g5-6", 8, {{1, 3, 5}, {4, 0, 1}, {2, 2, 4}, {1, 0, 3}, {2, 2, 2}, {1, 3, 3}, {2, 4, 4}, {4, 5, 5}},
     5, 6},
    {"g26-31", 8, {{6, 2, 5}, {7, 0, 3}, {8, 1, 4}, {5, 2, 3}, {19, 0, 0}, {11, 1, 1}, {12, 4, 4}, {20, 5, 5}},
     26, 31},
    {"g9-10", 8, {{4, 3, 4}, {4, 1, 3}, {3, 0, 1}, {1, 2, 3}, {2, 1, 2}, {6, 0, 0}, {2, 2, 2}, {5, 4, 4}},
     9, 10},
    {"g14-16", 8, {{3, 2, 5}, {6, 0, 2}, {8, 3, 4}, {3, 1, 4}, {8, 0, 0}, {5, 1, 1}, {2, 2, 2}, {11, 5, 5}},
     14, 16},
    {NULL, 0, {{0, 0, 0}}, 0, 0},
};

#define PL_MAX_GADGETS 64 /* gadgets one suite may plant */
#define PL_RING 32        /* the filler's load is kept for the next PL_RING instructions */
#define PL_MAX_LEN 24     /* the longest filler live range */

/* A tensor of a planted suite before it becomes an ab_tensor. */
typedef struct pl_tensor {
    int64_t size, start, end;
    int gadget;  /* the gadget it belongs to, or -1 for filler */
    int member;  /* its index in the gadget */
} pl_tensor;

/* One planted gadget. */
typedef struct pl_gadget {
    const abf_gadget *g;
    int64_t scale, horizon, window; /* window: its first instruction */
    bool mirrored;
    size_t filler_before;           /* filler tensors in the segment before it */
} pl_gadget;

typedef struct planted {
    pl_tensor *t;
    size_t n, nfill;
    pl_gadget gad[PL_MAX_GADGETS];
    size_t ngad;
    size_t fill_last;               /* filler tensors after the last window */
    int64_t opt, gadget_load, fill_load, cap;
    int64_t decoy;                  /* the decoy's size, 0 for none */
    size_t decoy_seg;               /* the segment it ends */
} planted;

static int64_t gadget_horizon(const abf_gadget *g) {
    int64_t h = 0;
    for (size_t i = 0; i < g->n; i++)
        if (g->t[i].end + 1 > h) h = g->t[i].end + 1;
    return h;
}

/* Draws m filler tensors into pl->t from instruction *cur on, their load at
 * most pl->cap at every instruction; *cur ends past the last one's end. The
 * load of the next PL_RING instructions is kept in a ring (a range starts at
 * most one after *cur and spans at most PL_MAX_LEN). */
static void fill_segment(gb *b, planted *pl, size_t m, int64_t *cur) {
    int64_t ring[PL_RING] = {0}, c = *cur, last = *cur - 1;
    int64_t lo = pl->cap / 40 > 1 ? pl->cap / 40 : 1, hi = pl->cap / 3 > lo ? pl->cap / 3 : lo;
    for (size_t k = 0; k < m; k++) {
        pl_tensor t = {.gadget = -1};
        for (;;) {
            int64_t r = rand_in(b, 0, 99);
            int64_t len = rand_in(b, 1, r < 70 ? 3 : r < 93 ? 8 : PL_MAX_LEN);
            t.start = c + rand_in(b, 0, 1);
            t.end = t.start + len - 1;
            int64_t peak = 0;
            for (int64_t x = t.start; x <= t.end; x++)
                if (ring[x % PL_RING] > peak) peak = ring[x % PL_RING];
            int64_t room = pl->cap - peak;
            if (room >= lo) {
                t.size = rand_in(b, lo, hi);
                if (t.size > room) t.size = room;
                if (t.size >= 64) t.size -= t.size % 16;
                break;
            }
            ring[c++ % PL_RING] = 0; /* nothing fits here: move on */
        }
        for (int64_t x = t.start; x <= t.end; x++) {
            ring[x % PL_RING] += t.size;
            if (ring[x % PL_RING] > pl->fill_load) pl->fill_load = ring[x % PL_RING];
        }
        if (t.end > last) last = t.end;
        pl->t[pl->n++] = t;
        if (rand_in(b, 0, 2) == 0) ring[c++ % PL_RING] = 0;
    }
    *cur = last + 1;
}

/* Orders tensor indices by start, then index. */
static int by_start(const void *a, const void *b, const void *ctx) {
    const pl_tensor *t = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (t[i].start != t[j].start) return t[i].start < t[j].start ? -1 : 1;
    return (i > j) - (i < j);
}

/* The arena of a first-fit plan of the filler alone: tensors in start order,
 * each at the lowest offset (0 or the top of a tensor live with it) clear of
 * every tensor already placed and still live. -1 when out of memory. */
static int64_t fill_ff(const planted *pl) {
    size_t nf = 0, na = 0, *ord = ab_alloc_array(pl->n + 1, sizeof *ord);
    size_t *act = ab_alloc_array(pl->n + 1, sizeof *act);
    int64_t *off = ab_alloc_array(pl->n + 1, sizeof *off), arena = 0;
    if (ord == NULL || act == NULL || off == NULL) arena = -1;
    for (size_t i = 0; arena == 0 && i < pl->n; i++)
        if (pl->t[i].gadget < 0) ord[nf++] = i;
    if (arena == 0) ab_sort(ord, nf, sizeof *ord, by_start, pl->t);
    for (size_t k = 0; arena >= 0 && k < nf; k++) {
        const pl_tensor *t = &pl->t[ord[k]];
        size_t keep = 0;
        for (size_t a = 0; a < na; a++) /* the placed tensors still live conflict with t */
            if (pl->t[act[a]].end >= t->start) act[keep++] = act[a];
        na = keep;
        int64_t best = -1;
        for (size_t c = 0; c <= na; c++) {
            int64_t o = c == na ? 0 : off[act[c]] + pl->t[act[c]].size;
            bool clear = best < 0 || o < best;
            for (size_t a = 0; clear && a < na; a++)
                clear = off[act[a]] >= o + t->size || off[act[a]] + pl->t[act[a]].size <= o;
            if (clear) best = o;
        }
        off[ord[k]] = best;
        if (best + t->size > arena) arena = best + t->size;
        act[na++] = ord[k];
    }
    ab_free(ord);
    ab_free(act);
    ab_free(off);
    return arena;
}

/* Draws the filler and lays out segments and windows (see above). */
static void planted_layout(gb *b, planted *pl) {
    pl->n = 0;
    pl->fill_load = 0;
    int64_t cur = 0;
    for (size_t k = 0; k <= pl->ngad; k++) {
        fill_segment(b, pl, k < pl->ngad ? pl->gad[k].filler_before : pl->fill_last, &cur);
        if (pl->decoy > 0 && k == pl->decoy_seg) { /* alone at instruction cur */
            pl->t[pl->n++] = (pl_tensor){.size = pl->decoy, .start = cur, .end = cur, .gadget = -1};
            if (pl->decoy > pl->fill_load) pl->fill_load = pl->decoy;
            cur++;
        }
        if (k == pl->ngad) break;
        pl_gadget *g = &pl->gad[k];
        g->window = cur;
        for (size_t i = 0; i < g->g->n; i++) {
            const abf_gadget_tensor *s = &g->g->t[i];
            pl_tensor t = {.size = s->size * g->scale, .gadget = (int)k, .member = (int)i,
                           .start = g->mirrored ? g->horizon - 1 - s->end : s->start,
                           .end = g->mirrored ? g->horizon - 1 - s->start : s->end};
            t.start += cur;
            t.end += cur;
            pl->t[pl->n++] = t;
        }
        cur += g->horizon;
    }
}

/* Picks the gadgets, their scales and mirrors, and how many filler tensors go
 * before each window. */
static void planted_draw(gctx *g, planted *pl, int64_t n, int64_t smin, int64_t smax,
                         bool decoy) {
    gb *b = g->b;
    size_t ngadgets = 0;
    while (abf_gadgets[ngadgets].name) ngadgets++;
    size_t used = 0;
    for (size_t k = 0; k < pl->ngad; k++) {
        pl_gadget *q = &pl->gad[k];
        q->g = &abf_gadgets[next_rand(b) % ngadgets];
        q->scale = rand_in(b, smin, smax);
        q->mirrored = next_rand(b) % 2 == 1;
        q->horizon = gadget_horizon(q->g);
        used += q->g->n;
        if (q->scale * q->g->optimum > pl->opt) pl->opt = q->scale * q->g->optimum;
        if (q->scale * q->g->max_load > pl->gadget_load) pl->gadget_load = q->scale * q->g->max_load;
    }
    if (decoy && pl->gadget_load + 1 < pl->opt) {
        pl->decoy = rand_in(b, pl->gadget_load + 1, pl->opt - 1);
        pl->decoy_seg = next_rand(b) % (pl->ngad + 1);
        used++;
    }
    if ((int64_t)used > n) {
        b->st = ab_fail(b->err, AB_EINPUT, "generator planted: n (%lld) must be at least the "
                        "gadgets' %zu tensors%s", (long long)n, used - (pl->decoy > 0),
                        pl->decoy > 0 ? " and the decoy" : "");
        return;
    }
    pl->nfill = (size_t)n - used + (pl->decoy > 0);
    for (size_t i = 0; i < pl->nfill - (pl->decoy > 0); i++) {
        size_t seg = next_rand(b) % (pl->ngad + 1);
        if (seg < pl->ngad) pl->gad[seg].filler_before++;
        else pl->fill_last++;
    }
}

/* The planted suite's tensors, in start order, into the problem. */
static void planted_emit(gb *b, planted *pl) {
    size_t *ord = ab_alloc_array(pl->n + 1, sizeof *ord);
    if (ord == NULL) {
        b->st = ab_fail(b->err, AB_ENOMEM, "out of memory generating planted");
        return;
    }
    for (size_t i = 0; i < pl->n; i++) ord[i] = i;
    ab_sort(ord, pl->n, sizeof *ord, by_start, pl->t);
    char name[64];
    size_t nf = 0;
    for (size_t k = 0; k < pl->n && b->st == AB_OK; k++) {
        const pl_tensor *t = &pl->t[ord[k]];
        if (t->gadget < 0) snprintf(name, sizeof name, "fill%zu", nf++);
        else snprintf(name, sizeof name, "gadget%d_%d", t->gadget, t->member);
        b->op = t->start;
        size_t i = gb_out(b, name, 0, 0, t->size, AB_KIND_INTERMEDIATE);
        if (b->st == AB_OK) b->p->t[i].end = t->end;
    }
    ab_free(ord);
}

/* The description: what was planted where. */
static void planted_describe(gctx *g, const planted *pl) {
    size_t used = (size_t)snprintf(g->desc, sizeof g->desc,
                                   "planted: optimum %lld by construction, max-load %lld;",
                                   (long long)pl->opt, (long long)g->b->p->expect_lower_bound);
    for (size_t k = 0; k < pl->ngad && used < sizeof g->desc; k++) {
        const pl_gadget *q = &pl->gad[k];
        used += (size_t)snprintf(g->desc + used, sizeof g->desc - used,
                                 " gadget%zu = %s%s x %lld at instructions %lld-%lld;", k,
                                 q->g->name, q->mirrored ? " mirrored" : "", (long long)q->scale,
                                 (long long)q->window, (long long)(q->window + q->horizon - 1));
    }
    if (used < sizeof g->desc)
        used += (size_t)snprintf(g->desc + used, sizeof g->desc - used,
                                 " %zu filler tensors never live with a gadget, their first-fit "
                                 "arena at most the optimum", pl->nfill);
    if (pl->decoy > 0 && used < sizeof g->desc)
        snprintf(g->desc + used, sizeof g->desc - used, " (one a decoy of %lld bytes alone)",
                 (long long)pl->decoy);
}

static void gen_planted(gctx *g) {
    gb *b = g->b;
    int64_t n = param(g, "n", 40, 1, 10000000), ngad = param(g, "gadgets", 1, 1, PL_MAX_GADGETS);
    int64_t fill = param(g, "fill", 90, 1, 100);
    bool decoy = param(g, "decoy", 0, 0, 1) == 1;
    int64_t smin = param(g, "scale_min", 1024, 1, 1 << 24), smax = param(g, "scale_max", 4096, 1, 1 << 24);
    if (b->st == AB_OK && smin > smax)
        b->st = ab_fail(b->err, AB_EINPUT, "generator planted: scale_min (%lld) must be at most "
                        "scale_max (%lld)", (long long)smin, (long long)smax);
    if (b->st != AB_OK) return;
    planted pl = {.ngad = (size_t)ngad};
    planted_draw(g, &pl, n, smin, smax, decoy);
    if (b->st != AB_OK) return;
    pl.t = ab_alloc_array((size_t)n, sizeof *pl.t);
    if (pl.t == NULL) {
        b->st = ab_fail(b->err, AB_ENOMEM, "out of memory generating planted");
        return;
    }
    int64_t ff = 0;
    pl.cap = pl.opt * fill / 100 > 0 ? pl.opt * fill / 100 : 1;
    for (int tries = 0;; tries++) {
        planted_layout(b, &pl);
        if ((ff = fill_ff(&pl)) < 0 || ff <= pl.opt || tries == 60) break;
        pl.cap = pl.cap * 9 / 10 > 0 ? pl.cap * 9 / 10 : 1;
    }
    if (ff < 0) b->st = ab_fail(b->err, AB_ENOMEM, "out of memory generating planted");
    else if (ff > pl.opt) /* not seen: a tenth less load 60 times leaves tiny filler */
        b->st = ab_fail(b->err, AB_EINTERNAL, "generator planted: no filler under the optimum");
    if (b->st == AB_OK) planted_emit(b, &pl);
    if (b->st == AB_OK) {
        b->p->expect_optimum = pl.opt;
        b->p->expect_lower_bound = pl.gadget_load > pl.fill_load ? pl.gadget_load : pl.fill_load;
        planted_describe(g, &pl);
    }
    ab_free(pl.t);
}

/* ---- published architectures (224x224 input) ------------------------------------- */

/* A SqueezeNet fire module: squeeze 1x1, expand 1x1 and 3x3, concatenated. */
static size_t fire(gb *b, int k, size_t x, int64_t hw, int64_t s, int64_t e) {
    char name[64];
    size_t sq = gb_op1(b, NAME("fire%d_squeeze", k), x, hw, hw, s);
    size_t e1 = gb_op1(b, NAME("fire%d_expand1x1", k), sq, hw, hw, e);
    size_t e3 = gb_op1(b, NAME("fire%d_expand3x3", k), sq, hw, hw, e);
    size_t ins[2] = {e1, e3};
    return gb_op(b, NAME("fire%d_concat", k), ins, 2, hw, hw, 2 * e);
}

/* The width after SqueezeNet's 3x3 stride-2 max pool, rounding up as Caffe
 * does: ceil((hw - 3) / 2) + 1 (111 -> 55, 55 -> 27, 27 -> 13, 109 -> 54, 54 -> 27). */
static int64_t pooled(int64_t hw) { return (hw - 2) / 2 + 1; }

/* A pooling layer after tensor x, or (fuse) none: x itself was written at the
 * pooled size by the layer before (a compiler that fuses conv/concat with the
 * max pool never materialises the full-size tensor). */
static size_t pool_or_fused(gb *b, const char *name, size_t x, int64_t hw, int64_t c, bool fuse) {
    return fuse ? x : gb_op1(b, name, x, hw, hw, c);
}

/* A fire module whose concat may write the pooled size directly (fused). */
static size_t fire_pooled(gb *b, int k, size_t x, int64_t hw, int64_t s, int64_t e, bool pool,
                          bool fuse) {
    char name[64];
    if (!(pool && fuse)) {
        size_t y = fire(b, k, x, hw, s, e);
        return pool ? gb_op1(b, NAME("maxpool%d", k), y, pooled(hw), pooled(hw), 2 * e) : y;
    }
    size_t sq = gb_op1(b, NAME("fire%d_squeeze", k), x, hw, hw, s);
    size_t e1 = gb_op1(b, NAME("fire%d_expand1x1", k), sq, hw, hw, e);
    size_t e3 = gb_op1(b, NAME("fire%d_expand3x3", k), sq, hw, hw, e);
    size_t ins[2] = {e1, e3};
    return gb_op(b, NAME("fire%d_concat_pool", k), ins, 2, pooled(hw), pooled(hw), 2 * e);
}

/* SqueezeNet 1.1 (default): conv1 3x3/2 valid gives 111x111x64, pools after
 * conv1, fire3 and fire5. SqueezeNet 1.0 (version=1.0): conv1 7x7/2 with 96
 * channels gives 109x109x96, pools after conv1, fire4 and fire8. fuse_pool=1
 * fuses each max pool into the layer before it. */
static void gen_squeezenet(gctx *g) {
    gb *b = g->b;
    const char *version = ab_params_get(g->params, "version");
    bool v10 = version != NULL && strcmp(version, "1.0") == 0;
    if (version != NULL && !v10 && strcmp(version, "1.1") != 0 && b->st == AB_OK)
        b->st = ab_fail(b->err, AB_EINPUT, "generator squeezenet: version is 1.0 or 1.1, not '%s'",
                        version);
    bool fuse = param(g, "fuse_pool", 0, 0, 1) == 1;
    int64_t c1 = v10 ? 96 : 64, hw1 = v10 ? 109 : 111, hw = pooled(hw1);
    size_t in = net_input(b, 224, 3);
    size_t x = fuse ? gb_op1(b, "conv1_pool", in, hw, hw, c1) : gb_op1(b, "conv1", in, hw1, hw1, c1);
    x = pool_or_fused(b, "maxpool1", x, hw, c1, fuse);
    static const struct { int64_t s, e; } f[8] = {{16, 64}, {16, 64}, {32, 128}, {32, 128},
                                                  {48, 192}, {48, 192}, {64, 256}, {64, 256}};
    for (int k = 2; k <= 9 && b->st == AB_OK; k++) {
        bool pool = v10 ? (k == 4 || k == 8) : (k == 3 || k == 5);
        x = fire_pooled(b, k, x, hw, f[k - 2].s, f[k - 2].e, pool, fuse);
        if (pool) hw = pooled(hw);
    }
    x = gb_op1(b, "conv10", x, hw, hw, 1000);
    gb_output(b, gb_op1(b, "avgpool10", x, 1, 1, 1000));
}

/* MobileNet v1 (alpha 1): conv 3x3/2 to 112x112x32, then 13 depthwise-
 * separable pairs, average pool, fully connected. */
static void gen_mobilenet_v1(gctx *g) {
    gb *b = g->b;
    static const struct { int64_t stride, c; } pw[13] = {
        {1, 64}, {2, 128}, {1, 128}, {2, 256}, {1, 256}, {2, 512}, {1, 512},
        {1, 512}, {1, 512}, {1, 512}, {1, 512}, {2, 1024}, {1, 1024}};
    char name[64];
    int64_t hw = 112, c = 32;
    size_t x = gb_op1(b, "conv0", net_input(b, 224, 3), hw, hw, c);
    for (int k = 0; k < 13 && b->st == AB_OK; k++) {
        hw = pw[k].stride == 2 ? hw / 2 : hw;
        x = gb_op1(b, NAME("dw%d", k + 1), x, hw, hw, c);
        c = pw[k].c;
        x = gb_op1(b, NAME("pw%d", k + 1), x, hw, hw, c);
    }
    x = gb_op1(b, "avgpool", x, 1, 1, 1024);
    gb_output(b, gb_op1(b, "fc", x, 1, 1, 1000));
}

/* MobileNet v2: inverted residual bottlenecks (t, c, n, s) as published. */
static void gen_mobilenet_v2(gctx *g) {
    gb *b = g->b;
    static const struct { int64_t t, c, n, s; } cfg[7] = {
        {1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2},
        {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
    char name[64];
    int64_t hw = 112, c = 32;
    size_t x = gb_op1(b, "conv0", net_input(b, 224, 3), hw, hw, c);
    int block = 0;
    for (int k = 0; k < 7 && b->st == AB_OK; k++)
        for (int64_t i = 0; i < cfg[k].n; i++, block++) {
            int64_t stride = i == 0 ? cfg[k].s : 1, out_hw = stride == 2 ? hw / 2 : hw;
            size_t y = x;
            if (cfg[k].t != 1) y = gb_op1(b, NAME("b%d_expand", block), y, hw, hw, c * cfg[k].t);
            y = gb_op1(b, NAME("b%d_dw", block), y, out_hw, out_hw, c * cfg[k].t);
            y = gb_op1(b, NAME("b%d_project", block), y, out_hw, out_hw, cfg[k].c);
            if (stride == 1 && c == cfg[k].c) {
                size_t ins[2] = {x, y};
                y = gb_op(b, NAME("b%d_add", block), ins, 2, out_hw, out_hw, c);
            }
            x = y;
            hw = out_hw;
            c = cfg[k].c;
        }
    x = gb_op1(b, "conv_last", x, hw, hw, 1280);
    x = gb_op1(b, "avgpool", x, 1, 1, 1280);
    gb_output(b, gb_op1(b, "fc", x, 1, 1, 1000));
}

/* ResNet-18: conv 7x7/2, max pool, four stages of two basic blocks (a 1x1
 * downsample on the skip where the stage halves the size), pool, fc. */
static void gen_resnet18(gctx *g) {
    gb *b = g->b;
    char name[64];
    size_t x = gb_op1(b, "conv1", net_input(b, 224, 3), 112, 112, 64);
    x = gb_op1(b, "maxpool", x, 56, 56, 64);
    int64_t hw = 56, c = 64;
    for (int stage = 0; stage < 4 && b->st == AB_OK; stage++)
        for (int blk = 0; blk < 2; blk++) {
            size_t skip = x;
            if (stage > 0 && blk == 0) {
                hw /= 2;
                c *= 2;
                skip = gb_op1(b, NAME2("layer%d_%d_downsample", stage + 1, blk), x, hw, hw, c);
            }
            size_t a = gb_op1(b, NAME2("layer%d_%d_conv1", stage + 1, blk), x, hw, hw, c);
            size_t y = gb_op1(b, NAME2("layer%d_%d_conv2", stage + 1, blk), a, hw, hw, c);
            size_t ins[2] = {skip, y};
            x = gb_op(b, NAME2("layer%d_%d_add", stage + 1, blk), ins, 2, hw, hw, c);
        }
    x = gb_op1(b, "avgpool", x, 1, 1, 512);
    gb_output(b, gb_op1(b, "fc", x, 1, 1, 1000));
}

/* ---- the table ------------------------------------------------------------------- */

static const abf_gen_param p_chain[] = {
    {"n", "16", "layers"}, {"hw", "56", "largest feature-map width"}, {"seed", "1", "random seed"},
    {"dtype", "int8", "activation element type"}, {NULL, NULL, NULL}};
static const abf_gen_param p_fanout[] = {
    {"blocks", "4", "inception-like blocks"}, {"branches", "3", "parallel branches per block"},
    {"depth", "2", "layers per branch"}, {"hw", "28", "feature-map width"},
    {"seed", "1", "random seed"}, {"dtype", "int8", "activation element type"}, {NULL, NULL, NULL}};
static const abf_gen_param p_resnet[] = {
    {"blocks", "8", "residual blocks (a downsampling stage every 4)"},
    {"hw", "56", "feature-map width of the first stage"}, {"channels", "64", "first stage channels"},
    {"seed", "1", "random seed"}, {"dtype", "int8", "activation element type"}, {NULL, NULL, NULL}};
static const abf_gen_param p_unet[] = {
    {"levels", "4", "encoder (and decoder) levels"}, {"hw", "128", "input width"},
    {"channels", "32", "first level channels (doubling per level)"}, {"seed", "1", "random seed"},
    {"dtype", "int8", "activation element type"}, {NULL, NULL, NULL}};
static const abf_gen_param p_transformer[] = {
    {"blocks", "4", "attention blocks"}, {"seq", "128", "sequence length"},
    {"dim", "256", "model width"}, {"heads", "4", "attention heads (scores are heads x seq x seq)"},
    {"seed", "1", "random seed"}, {"dtype", "int8", "activation element type"}, {NULL, NULL, NULL}};
static const abf_gen_param p_random[] = {
    {"n", "1000", "tensors"}, {"horizon", "n/2", "instructions"},
    {"medium", "12", "percent of live ranges up to 64 instructions"},
    {"long", "3", "percent up to horizon/4 (the rest span 1-4)"},
    {"pow2", "60", "percent of sizes that are powers of two (16 B - 64 KiB)"},
    {"max_size", "100000", "the largest of the other sizes"}, {"seed", "1", "random seed"},
    {NULL, NULL, NULL}};
static const abf_gen_param p_planted[] = {
    {"n", "40", "tensors (the gadgets' 8 each, the rest filler)"},
    {"gadgets", "1", "gadgets planted, each in its own window of instructions"},
    {"fill", "90", "the filler's load cap, percent of the planted optimum"},
    {"scale_min", "1024", "smallest factor a gadget's sizes are scaled by"},
    {"scale_max", "4096", "largest factor"},
    {"decoy", "0", "1: one filler tensor alone, its size between the gadgets' max-load and the "
     "optimum (the max-load moves away from the gadgets)"},
    {"seed", "1", "random seed"}, {NULL, NULL, NULL}};
static const abf_gen_param p_squeezenet[] = {
    {"version", "1.1", "1.1 (conv1 3x3, 64 channels) or 1.0 (conv1 7x7, 96 channels)"},
    {"fuse_pool", "0", "1: each max pool fused into the layer before it (no full-size tensor)"},
    {"dtype", "int8", "activation element type"}, {"seed", "1", "unused (no randomness)"},
    {NULL, NULL, NULL}};
static const abf_gen_param p_arch[] = {
    {"dtype", "int8", "activation element type"}, {"seed", "1", "unused (no randomness)"},
    {NULL, NULL, NULL}};

const abf_generator abf_generators[] = {
    {"chain", "a straight line of layers", p_chain},
    {"fanout", "inception-like branches joined by concatenation", p_fanout},
    {"resnet", "residual blocks with skip connections", p_resnet},
    {"unet", "encoder-decoder with long skips", p_unet},
    {"transformer", "attention blocks (q, k, v, scores, softmax, MLP)", p_transformer},
    {"random", "random live ranges and sizes", p_random},
    {"planted", "an optimum above max-load, known by construction (expect: optimum)", p_planted},
    {"squeezenet", "SqueezeNet 1.1 (or 1.0) at 224x224", p_squeezenet},
    {"mobilenet_v1", "MobileNet v1 (alpha 1) at 224x224", p_arch},
    {"mobilenet_v2", "MobileNet v2 at 224x224", p_arch},
    {"resnet18", "ResNet-18 at 224x224", p_arch},
    {NULL, NULL, NULL},
};

typedef void (*gen_fn)(gctx *);
static const gen_fn gen_fns[] = {gen_chain,  gen_fanout,   gen_resnet,       gen_unet,
                                 gen_transformer, gen_random, gen_planted, gen_squeezenet,
                                 gen_mobilenet_v1, gen_mobilenet_v2, gen_resnet18};

/* Rejects keys the generator does not take, naming those it does. */
static ab_status check_keys(const abf_generator *gen, const ab_params *params, ab_error *err) {
    for (size_t i = 0; params && i < params->n; i++) {
        const abf_gen_param *q = gen->params;
        while (q->key && strcmp(q->key, params->v[i].key) != 0) q++;
        if (q->key) continue;
        char keys[256] = "";
        size_t used = 0;
        for (q = gen->params; q->key && used < sizeof keys; q++)
            used += (size_t)snprintf(keys + used, sizeof keys - used, "%s%s", used ? ", " : "", q->key);
        return ab_fail(err, AB_EINPUT, "generator %s takes no parameter '%s' (it takes: %s)",
                       gen->kind, params->v[i].key, keys);
    }
    return AB_OK;
}

/* "resnet-blocks=8-seed=3" from the kind and parameters. */
static char *default_name(const char *kind, const ab_params *params) {
    char buf[256];
    size_t used = (size_t)snprintf(buf, sizeof buf, "%s", kind);
    for (size_t i = 0; params && i < params->n && used < sizeof buf; i++)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "-%s=%s", params->v[i].key,
                                 params->v[i].value);
    return ab_strdup(buf);
}

ab_status abf_generate(const char *kind, const ab_params *params, const char *name,
                       ab_problem *p, ab_error *err) {
    ab_problem_init(p);
    size_t k = 0;
    while (abf_generators[k].kind && strcmp(abf_generators[k].kind, kind) != 0) k++;
    if (abf_generators[k].kind == NULL) {
        char kinds[512] = "";
        size_t used = 0;
        for (size_t i = 0; abf_generators[i].kind && used < sizeof kinds; i++)
            used += (size_t)snprintf(kinds + used, sizeof kinds - used, "%s%s", i ? ", " : "",
                                     abf_generators[i].kind);
        return ab_fail(err, AB_EINPUT, "unknown generator kind '%s' (kinds: %s)", kind, kinds);
    }
    ab_status st = check_keys(&abf_generators[k], params, err);
    if (st != AB_OK) return st;
    const char *dtype = ab_params_get(params, "dtype");
    gb b = {.p = p, .dt = ab_dtype_find(dtype ? dtype : "int8"), .err = err};
    if (b.dt == NULL) return ab_fail(err, AB_EINPUT, "generator %s: unknown dtype '%s'", kind, dtype);
    abf_limits lim;
    if ((st = abf_limits_get(&lim, err)) != AB_OK) return st;
    /* A generator's tensors cost memory and no file bytes: their own, smaller
     * budget (formats.h), unless ARENABENCH_MAX_TENSORS is smaller still. */
    b.max_tensors = lim.generated;
    b.max_name = "ARENABENCH_MAX_GENERATED";
    if (lim.tensors < lim.generated) {
        b.max_tensors = lim.tensors;
        b.max_name = "ARENABENCH_MAX_TENSORS";
    }
    int64_t seed = 1;
    if ((st = ab_params_int(params, "seed", 1, 0, INT64_MAX, &seed, err)) != AB_OK) return st;
    b.rng = (uint64_t)seed;
    gctx g = {.b = &b, .params = params};
    gen_fns[k](&g);
    st = b.st;
    if (st == AB_OK) {
        p->name = name ? ab_strdup(name) : default_name(kind, params);
        char desc[512];
        snprintf(desc, sizeof desc, "generated: %s (%s); live ranges in operator indices",
                 kind, abf_generators[k].summary);
        p->description = ab_strdup(g.desc[0] ? g.desc : desc);
        if (p->name == NULL || p->description == NULL)
            st = ab_fail(err, AB_ENOMEM, "out of memory generating %s", kind);
    }
    if (st != AB_OK) ab_problem_free(p);
    return st;
}
