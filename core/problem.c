/*
 * problem.c — problems, plans, name lookup, scaling and coarsening, parsing
 * integers and byte counts (see problem.h).
 */
#include "core/problem.h"

#include <stdlib.h>
#include <string.h>

/* ---- problems ------------------------------------------------------------ */

void ab_problem_init(ab_problem *p) {
    memset(p, 0, sizeof *p);
    p->alignment = 1;
    p->io = AB_IO_SEPARATE;
    p->capacity = AB_NONE;
    p->expect_lower_bound = AB_NONE;
    p->expect_optimum = AB_NONE;
}

static void tensor_free(ab_tensor *t) {
    ab_free(t->name);
    ab_free(t->shape);
}

/* Frees the pools and peer expectations of p (leaving the fields stale). */
static void pools_peers_free(ab_problem *p) {
    for (size_t k = 0; k < p->npools; k++) ab_free(p->pools[k].name);
    ab_free(p->pools);
    for (size_t k = 0; k < p->npeers; k++) {
        ab_free(p->peers[k].spec);
        ab_free(p->peers[k].pool_bytes);
        ab_free(p->peers[k].offsets);
    }
    ab_free(p->peers);
}

void ab_problem_free(ab_problem *p) {
    if (p == NULL) return;
    for (size_t i = 0; i < p->n; i++) tensor_free(&p->t[i]);
    ab_free(p->t);
    pools_peers_free(p);
    ab_free(p->name);
    ab_free(p->description);
    ab_free(p->source);
    ab_problem_init(p);
}

/* Copies src into dst with its own name and shape; false on OOM (dst then
 * owns nothing). */
static bool tensor_copy(ab_tensor *dst, const ab_tensor *src) {
    *dst = *src;
    dst->name = NULL;
    dst->shape = NULL;
    dst->name = ab_strdup(src->name ? src->name : "");
    if (dst->name == NULL) return false;
    if (src->shape != NULL && src->ndim > 0) {
        dst->shape = ab_alloc_array((size_t)src->ndim, sizeof *dst->shape);
        if (dst->shape == NULL) {
            ab_free(dst->name);
            dst->name = NULL;
            return false;
        }
        memcpy(dst->shape, src->shape, (size_t)src->ndim * sizeof *dst->shape);
    }
    return true;
}

ab_status ab_problem_add(ab_problem *p, const ab_tensor *t, ab_error *err) {
    if (!ab_grow((void **)&p->t, &p->cap, p->n + 1, sizeof *p->t))
        return ab_fail(err, AB_ENOMEM, "out of memory adding tensor %zu", p->n);
    if (!tensor_copy(&p->t[p->n], t))
        return ab_fail(err, AB_ENOMEM, "out of memory adding tensor %zu", p->n);
    p->n++;
    return AB_OK;
}

/* A copy of the n int64 values at v (NULL for NULL); *ok turns false on OOM. */
static int64_t *ints_copy(const int64_t *v, size_t n, bool *ok) {
    if (v == NULL) return NULL;
    int64_t *c = ab_alloc_array(n ? n : 1, sizeof *c);
    if (c == NULL) {
        *ok = false;
        return NULL;
    }
    if (n) memcpy(c, v, n * sizeof *c);
    return c;
}

/* Deep copies of src's pools and peer expectations into dst (which has
 * none); false on OOM, with dst owning what was copied so far. */
static bool pools_peers_copy(const ab_problem *src, ab_problem *dst) {
    if (src->npools > 0) {
        dst->pools = ab_calloc(src->npools, sizeof *dst->pools);
        if (dst->pools == NULL) return false;
        for (size_t k = 0; k < src->npools; k++) {
            dst->npools++; /* zeroed by calloc: freed whole, whatever fails below */
            dst->pools[k].size = src->pools[k].size;
            if ((dst->pools[k].name = ab_strdup(src->pools[k].name)) == NULL) return false;
        }
    }
    if (src->npeers > 0) {
        dst->peers = ab_calloc(src->npeers, sizeof *dst->peers);
        if (dst->peers == NULL) return false;
        for (size_t k = 0; k < src->npeers; k++) {
            dst->npeers++;
            const ab_peer_expect *a = &src->peers[k];
            ab_peer_expect *b = &dst->peers[k];
            bool ok = true;
            b->arena = a->arena;
            b->noffsets = a->noffsets;
            b->pool_bytes = ints_copy(a->pool_bytes, src->npools, &ok);
            b->offsets = ints_copy(a->offsets, a->noffsets, &ok);
            b->spec = ab_strdup(a->spec);
            if (!ok || b->spec == NULL) return false;
        }
    }
    return true;
}

/* Copies the suite-level fields (strings, pools and peer expectations
 * duplicated) but no tensors. */
static ab_status header_copy(const ab_problem *src, ab_problem *dst, ab_error *err) {
    ab_problem_init(dst);
    dst->alignment = src->alignment;
    dst->io = src->io;
    dst->capacity = src->capacity;
    dst->expect_lower_bound = src->expect_lower_bound;
    dst->expect_optimum = src->expect_optimum;
    if ((src->name && !(dst->name = ab_strdup(src->name))) ||
        (src->description && !(dst->description = ab_strdup(src->description))) ||
        (src->source && !(dst->source = ab_strdup(src->source))) ||
        !pools_peers_copy(src, dst)) {
        ab_problem_free(dst);
        return ab_fail(err, AB_ENOMEM, "out of memory copying a problem");
    }
    return AB_OK;
}

/* Copies the tensors of src for which keep(src, i) holds into dst, recording
 * their indices in map (when not NULL, sized src->n). */
static ab_status tensors_copy(const ab_problem *src, ab_problem *dst,
                              bool (*keep)(const ab_problem *, size_t), size_t *map,
                              ab_error *err) {
    size_t n = 0;
    for (size_t i = 0; i < src->n; i++) n += keep(src, i);
    if (n > 0) {
        dst->t = ab_alloc_array(n, sizeof *dst->t);
        if (dst->t == NULL) return ab_fail(err, AB_ENOMEM, "out of memory copying tensors");
        dst->cap = n;
    }
    for (size_t i = 0; i < src->n; i++) {
        if (!keep(src, i)) continue;
        if (!tensor_copy(&dst->t[dst->n], &src->t[i]))
            return ab_fail(err, AB_ENOMEM, "out of memory copying tensors");
        if (map) map[dst->n] = i;
        dst->n++;
    }
    return AB_OK;
}

static bool keep_all(const ab_problem *p, size_t i) {
    (void)p;
    (void)i;
    return true;
}

ab_status ab_problem_clone(const ab_problem *src, ab_problem *dst, ab_error *err) {
    ab_status st = header_copy(src, dst, err);
    if (st != AB_OK) return st;
    st = tensors_copy(src, dst, keep_all, NULL, err);
    if (st != AB_OK) ab_problem_free(dst);
    return st;
}

bool ab_in_arena(const ab_problem *p, size_t i) {
    return p->io == AB_IO_WORKSPACE || p->t[i].kind == AB_KIND_INTERMEDIATE;
}

ab_status ab_problem_arena_view(const ab_problem *src, ab_problem *dst, size_t **map,
                                ab_error *err) {
    size_t *m = NULL;
    if (map != NULL) {
        *map = NULL;
        m = ab_alloc_array(src->n ? src->n : 1, sizeof *m);
        if (m == NULL) return ab_fail(err, AB_ENOMEM, "out of memory building the arena view");
    }
    ab_status st = header_copy(src, dst, err);
    if (st == AB_OK) st = tensors_copy(src, dst, ab_in_arena, m, err);
    if (st != AB_OK) {
        ab_problem_free(dst);
        ab_free(m);
        return st;
    }
    if (map != NULL) *map = m;
    return AB_OK;
}

/* Pool k's start in the joint address space (see problem.h). */
int64_t ab_pool_base(const ab_problem *p, size_t k) {
    int64_t base = 0;
    for (size_t j = 0; j < k && j < p->npools; j++)
        if (p->pools[j].size != AB_NONE) base += p->pools[j].size;
    return base;
}

/* The pool whose window holds joint offset off, or AB_NO_POOL. */
size_t ab_pool_find(const ab_problem *p, int64_t off) {
    if (off < 0) return AB_NO_POOL;
    int64_t base = 0;
    for (size_t k = 0; k < p->npools; k++) {
        int64_t size = p->pools[k].size;
        if (size == AB_NONE || off - base < size) return k;
        base += size;
    }
    return p->npools == 0 ? 0 : AB_NO_POOL;
}

/* Pool k's name, "arena" for the implicit pool of a suite without pools. */
const char *ab_pool_name(const ab_problem *p, size_t k) {
    return k < p->npools ? p->pools[k].name : "arena";
}

int64_t ab_problem_io_outside(const ab_problem *p) {
    int64_t sum = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (ab_in_arena(p, i)) continue;
        if (ab_add_ovf(sum, p->t[i].size, &sum)) return INT64_MAX;
    }
    return sum;
}

/* ---- scaling and coarsening --------------------------------------------- */

int64_t ab_problem_unit(const ab_problem *p) {
    int64_t g = 0;
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *t = &p->t[i];
        g = ab_gcd(g, t->size);
        if (t->align > 1) g = ab_gcd(g, t->align);
        if (t->offset > 0) g = ab_gcd(g, t->offset);
    }
    if (p->capacity > 0) g = ab_gcd(g, p->capacity);
    for (size_t k = 0; k < p->npools; k++)
        if (p->pools[k].size > 0) g = ab_gcd(g, p->pools[k].size);
    return g > 0 ? g : 1;
}

ab_status ab_problem_coarsen(const ab_problem *src, int64_t k, ab_problem *dst, ab_error *err) {
    if (k < 1) return ab_fail(err, AB_EINPUT, "coarsening k must be >= 1, got %lld", (long long)k);
    ab_status st = ab_problem_clone(src, dst, err);
    if (st != AB_OK || k == 1) return st;
    for (size_t i = 0; i < dst->n; i++) {
        ab_tensor *t = &dst->t[i];
        int64_t up;
        if (ab_align_up_ovf(t->size, k, &up)) {
            ab_fail(err, AB_EINPUT, "tensor '%s': size overflows when rounded up to %lld", t->name,
                    (long long)k);
            ab_problem_free(dst);
            return AB_EINPUT;
        }
        t->size = up / k;
        /* offsets are k*u; k*u must be a multiple of align: u a multiple of
         * align / gcd(align, k) */
        t->align = t->align / ab_gcd(t->align, k);
        if (t->offset != AB_NONE) {
            if (t->offset % k != 0) {
                ab_fail(err, AB_EINPUT, "tensor '%s': fixed offset %lld is not a multiple of k = %lld",
                        t->name, (long long)t->offset, (long long)k);
                ab_problem_free(dst);
                return AB_EINPUT;
            }
            t->offset /= k;
        }
    }
    for (size_t j = 0; j < dst->npools; j++) {
        ab_pool *pool = &dst->pools[j];
        if (pool->size == AB_NONE) continue;
        if (pool->size % k != 0) {
            ab_fail(err, AB_EINPUT, "pool '%s': size %lld is not a multiple of k = %lld",
                    pool->name, (long long)pool->size, (long long)k);
            ab_problem_free(dst);
            return AB_EINPUT;
        }
        pool->size /= k;
    }
    for (size_t j = 0; j < dst->npeers; j++) {
        ab_free(dst->peers[j].spec);
        ab_free(dst->peers[j].pool_bytes);
        ab_free(dst->peers[j].offsets);
    }
    ab_free(dst->peers);
    dst->peers = NULL;
    dst->npeers = 0;
    if (dst->capacity != AB_NONE) dst->capacity /= k;
    if (dst->expect_lower_bound != AB_NONE) dst->expect_lower_bound = AB_NONE;
    if (dst->expect_optimum != AB_NONE) dst->expect_optimum = AB_NONE;
    dst->alignment = dst->alignment / ab_gcd(dst->alignment, k);
    return AB_OK;
}

/* ---- name lookup ---------------------------------------------------------- */

struct ab_names {
    const ab_problem *p;
    size_t mask;     /* capacity - 1, capacity a power of two */
    int bits;        /* capacity = 2^bits */
    size_t *slot;    /* index + 1, 0 = empty */
};

/* The first slot for name: its FNV-1a hash mixed (ab_hash_slot). */
static size_t names_home(const ab_names *t, const char *name, size_t len) {
    return ab_hash_slot(ab_fnv1a(AB_FNV_OFFSET, name, len), t->bits);
}

static bool name_is(const char *name, const char *s, size_t len) {
    return strncmp(name, s, len) == 0 && name[len] == '\0';
}

ab_status ab_names_build(const ab_problem *p, ab_names **out, size_t *dup_a, size_t *dup_b,
                         ab_error *err) {
    *out = NULL;
    size_t cap = 16;
    int bits = 4;
    while (cap < p->n * 2 + 1) cap *= 2, bits++;
    ab_names *t = ab_malloc(sizeof *t);
    if (t == NULL) return ab_fail(err, AB_ENOMEM, "out of memory building the name table");
    t->p = p;
    t->mask = cap - 1;
    t->bits = bits;
    t->slot = ab_calloc(cap, sizeof *t->slot);
    if (t->slot == NULL) {
        ab_free(t);
        return ab_fail(err, AB_ENOMEM, "out of memory building the name table");
    }
    for (size_t i = 0; i < p->n; i++) {
        const char *name = p->t[i].name;
        size_t len = strlen(name);
        size_t h = names_home(t, name, len);
        while (t->slot[h] != 0) {
            size_t j = t->slot[h] - 1;
            if (name_is(p->t[j].name, name, len)) {
                if (dup_a) *dup_a = j;
                if (dup_b) *dup_b = i;
                ab_names_free(t);
                return ab_fail(err, AB_EINPUT, "duplicate tensor name '%s'", name);
            }
            h = (h + 1) & t->mask;
        }
        t->slot[h] = i + 1;
    }
    *out = t;
    return AB_OK;
}

/* The lookup, counting into *probes the slots it looks at. */
static size_t names_lookup(const ab_names *t, const char *name, size_t len, size_t *probes) {
    size_t h = names_home(t, name, len);
    for (*probes = 1; t->slot[h] != 0; ++*probes) {
        size_t j = t->slot[h] - 1;
        if (name_is(t->p->t[j].name, name, len)) return j;
        h = (h + 1) & t->mask;
    }
    return AB_NO_TENSOR;
}

size_t ab_names_find(const ab_names *t, const char *name, size_t len) {
    size_t probes;
    return names_lookup(t, name, len, &probes);
}

size_t ab_names_probes(const ab_names *t, const char *name, size_t len) {
    size_t probes;
    names_lookup(t, name, len, &probes);
    return probes;
}

void ab_names_free(ab_names *t) {
    if (t == NULL) return;
    ab_free(t->slot);
    ab_free(t);
}

/* ---- plans ------------------------------------------------------------------ */

void ab_plan_init(ab_plan *pl) { memset(pl, 0, sizeof *pl); }

void ab_plan_free(ab_plan *pl) {
    if (pl == NULL) return;
    for (size_t i = 0; i < pl->n; i++) ab_free(pl->v[i].name);
    ab_free(pl->v);
    ab_plan_init(pl);
}

ab_status ab_plan_add(ab_plan *pl, size_t tensor, int64_t offset, const char *name, int line,
                      ab_error *err) {
    if (!ab_grow((void **)&pl->v, &pl->cap, pl->n + 1, sizeof *pl->v))
        return ab_fail(err, AB_ENOMEM, "out of memory growing a plan");
    char *copy = NULL;
    if (name != NULL && (copy = ab_strdup(name)) == NULL)
        return ab_fail(err, AB_ENOMEM, "out of memory growing a plan");
    pl->v[pl->n++] = (ab_placement){.tensor = tensor, .offset = offset, .name = copy, .line = line};
    return AB_OK;
}

ab_status ab_plan_from_offsets(ab_plan *pl, const int64_t *offsets, size_t n, ab_error *err) {
    ab_plan_init(pl);
    if (n == 0) return AB_OK;
    pl->v = ab_calloc(n, sizeof *pl->v);
    if (pl->v == NULL) return ab_fail(err, AB_ENOMEM, "out of memory making a plan");
    pl->cap = pl->n = n;
    for (size_t i = 0; i < n; i++) pl->v[i] = (ab_placement){.tensor = i, .offset = offsets[i]};
    return AB_OK;
}

/* ---- integers ------------------------------------------------------------ */

bool ab_parse_int64(const char *s, size_t len, int64_t *out) {
    size_t i = 0;
    bool neg = false;
    if (i < len && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    if (i == len) return false;
    int64_t v = 0;
    for (; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        int d = s[i] - '0';
        if (ab_mul_ovf(v, 10, &v) || ab_add_ovf(v, neg ? -d : d, &v)) return false;
    }
    *out = v;
    return true;
}

bool ab_parse_bytes(const char *s, int64_t *out) {
    size_t digits = strlen(s);
    int64_t mul = 1;
    switch (digits > 0 ? s[digits - 1] : '\0') {
    case 'k': case 'K': mul = (int64_t)1 << 10; break;
    case 'm': case 'M': mul = (int64_t)1 << 20; break;
    case 'g': case 'G': mul = (int64_t)1 << 30; break;
    case 't': case 'T': mul = (int64_t)1 << 40; break;
    default: break;
    }
    if (mul > 1) digits--;
    int64_t v;
    if (digits == 0 || s[0] == '-' || s[0] == '+' || !ab_parse_int64(s, digits, &v) || v < 1 ||
        ab_mul_ovf(v, mul, &v))
        return false;
    *out = v;
    return true;
}

/* Product of shape[from .. to) into *r; false on overflow. */
static bool shape_product(const ab_tensor *t, int from, int to, int64_t *r) {
    *r = 1;
    for (int i = from; i < to; i++)
        if (ab_mul_ovf(*r, t->shape[i], r)) return false;
    return true;
}

bool ab_tensor_padded_bytes(const ab_tensor *t, int64_t *bytes) {
    if (t->dtype == NULL || t->ndim < 1) return false;
    int64_t bits = t->dtype->bits, count, inner, row, padded;
    if (t->stride_align <= 0) {
        if (!shape_product(t, 0, t->ndim, &count) || ab_mul_ovf(count, bits, &bits)) return false;
        *bytes = bits / 8 + (bits % 8 != 0);
        return true;
    }
    int last = t->ndim - 1;
    bool rows = t->shape[last] == 1 && t->ndim >= 2; /* one channel: pad whole rows */
    int split = rows ? last - 1 : last;              /* dims [split, ndim) form a padded unit */
    if (!shape_product(t, split, t->ndim, &inner) || !shape_product(t, 0, split, &count) ||
        ab_mul_ovf(inner, bits, &row))
        return false;
    row = row / 8 + (row % 8 != 0);
    if (ab_align_up_ovf(row, t->stride_align, &padded) || ab_mul_ovf(padded, count, bytes))
        return false;
    return true;
}

int64_t ab_problem_gravity_unit(const ab_problem *p) {
    int64_t g = 0;
    for (size_t i = 0; i < p->n; i++) {
        g = ab_gcd(g, p->t[i].size);
        if (p->t[i].offset != AB_NONE && p->t[i].offset > 0) g = ab_gcd(g, p->t[i].offset);
    }
    if (g < 1) return 1;
    for (bool again = true; again;) {
        again = false;
        for (size_t i = 0; i < p->n; i++) {
            int64_t a = p->t[i].align < 1 ? 1 : p->t[i].align;
            if (g % a == 0 || a % g == 0) continue;
            g = ab_gcd(g, a);
            again = true;
        }
    }
    return g;
}

int64_t ab_problem_capacity(const ab_problem *p) {
    int64_t cap = p->capacity;
    if (p->npools == 1 && p->pools[0].size != AB_NONE && (cap == AB_NONE || p->pools[0].size < cap))
        cap = p->pools[0].size;
    return cap;
}

bool ab_problem_sections(const ab_problem *p, int32_t *sec0, int32_t *sec1, int32_t *nsec,
                         int64_t **first) {
    size_t n = p->n, m = 0;
    int64_t *pt = ab_alloc_array(2 * (n ? n : 1), sizeof *pt);
    if (pt == NULL) return false;
    int64_t last = 0;
    for (size_t i = 0; i < n; i++)
        if (p->t[i].end > last) last = p->t[i].end;
    for (size_t i = 0; i < n; i++) {
        pt[m++] = p->t[i].start;
        if (p->t[i].end < last) pt[m++] = p->t[i].end + 1;
    }
    qsort(pt, m, sizeof *pt, ab_cmp_i64);
    size_t k = 0;
    for (size_t i = 0; i < m; i++)
        if (k == 0 || pt[k - 1] != pt[i]) pt[k++] = pt[i];
    for (size_t i = 0; i < n; i++) { /* the last section starting at or before each end */
        sec0[i] = (int32_t)ab_count_le(pt, k, p->t[i].start) - 1;
        sec1[i] = (int32_t)ab_count_le(pt, k, p->t[i].end) - 1;
    }
    *nsec = (int32_t)k;
    if (first != NULL) *first = pt;
    else ab_free(pt);
    return true;
}

/* ---- fixed tensors that overlap ------------------------------------------------- */

/* A fixed tensor in the sweep of ab_problem_fixed_overlap. */
typedef struct fx_rec {
    int64_t start, end;
    int64_t off, top; /* [off, top): top = off + size, saturated */
    size_t idx;       /* its index in the problem */
    size_t rank;      /* its place in offset order */
} fx_rec;

static int fx_cmp_i64(int64_t x, int64_t y) { return (x > y) - (x < y); }
static int fx_cmp_size(size_t x, size_t y) { return (x > y) - (x < y); }

static int fx_by_offset(const void *x, const void *y) {
    const fx_rec *a = x, *b = y;
    int c = fx_cmp_i64(a->off, b->off);
    return c != 0 ? c : fx_cmp_size(a->idx, b->idx);
}

static int fx_by_start(const void *x, const void *y) {
    const fx_rec *a = x, *b = y;
    int c = fx_cmp_i64(a->start, b->start);
    return c != 0 ? c : fx_cmp_size(a->idx, b->idx);
}

static int fx_by_end(const void *x, const void *y) {
    const fx_rec *a = x, *b = y;
    int c = fx_cmp_i64(a->end, b->end);
    return c != 0 ? c : fx_cmp_size(a->rank, b->rank);
}

/* The tree over ranks (offset order): node k holds the rank of the live
 * tensor below it whose top is highest (ties to the lower rank), or
 * AB_NO_TENSOR. Leaves are w .. 2w - 1. */
typedef struct fx_tree {
    size_t *best;
    size_t w;
    const fx_rec *byoff; /* the tensors by rank */
} fx_tree;

static size_t fx_higher(const fx_tree *t, size_t r, size_t s) {
    if (r == AB_NO_TENSOR) return s;
    if (s == AB_NO_TENSOR) return r;
    if (t->byoff[r].top != t->byoff[s].top) return t->byoff[r].top > t->byoff[s].top ? r : s;
    return r < s ? r : s;
}

static void fx_set(fx_tree *t, size_t rank, bool live) {
    size_t k = t->w + rank;
    t->best[k] = live ? rank : AB_NO_TENSOR;
    for (k /= 2; k >= 1; k /= 2) t->best[k] = fx_higher(t, t->best[2 * k], t->best[2 * k + 1]);
}

/* The highest-reaching live tensor among ranks [0, len). */
static size_t fx_highest_below(const fx_tree *t, size_t len) {
    size_t r = AB_NO_TENSOR;
    for (size_t lo = t->w, hi = t->w + len; lo < hi; lo /= 2, hi /= 2) {
        if (lo & 1) r = fx_higher(t, r, t->best[lo++]);
        if (hi & 1) r = fx_higher(t, r, t->best[--hi]);
    }
    return r;
}

/* The number of tensors in byoff[0 .. m) whose offset is below x. */
static size_t fx_count_below(const fx_rec *byoff, size_t m, int64_t x) {
    size_t lo = 0, hi = m;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (byoff[mid].off < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

ab_status ab_problem_fixed_overlap(const ab_problem *p, size_t *a, size_t *b, ab_error *err) {
    *a = *b = AB_NO_TENSOR;
    size_t m = 0;
    for (size_t i = 0; i < p->n; i++) m += p->t[i].offset != AB_NONE;
    if (m < 2) return AB_OK;
    size_t w = 1;
    while (w < m) w *= 2;
    fx_rec *byoff = ab_alloc_array(m, sizeof *byoff), *bystart = ab_alloc_array(m, sizeof *bystart);
    fx_rec *byend = ab_alloc_array(m, sizeof *byend);
    fx_tree t = {.best = ab_alloc_array(2 * w, sizeof *t.best), .w = w, .byoff = byoff};
    if (byoff == NULL || bystart == NULL || byend == NULL || t.best == NULL) {
        ab_free(byoff), ab_free(bystart), ab_free(byend), ab_free(t.best);
        return ab_fail(err, AB_ENOMEM, "out of memory checking the fixed offsets");
    }
    m = 0;
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *x = &p->t[i];
        if (x->offset == AB_NONE) continue;
        int64_t top;
        if (ab_add_ovf(x->offset, x->size, &top)) top = x->size > 0 ? INT64_MAX : INT64_MIN;
        byoff[m++] = (fx_rec){.start = x->start, .end = x->end, .off = x->offset, .top = top,
                              .idx = i};
    }
    qsort(byoff, m, sizeof *byoff, fx_by_offset);
    for (size_t r = 0; r < m; r++) byoff[r].rank = r;
    memcpy(bystart, byoff, m * sizeof *byoff);
    memcpy(byend, byoff, m * sizeof *byoff);
    qsort(bystart, m, sizeof *bystart, fx_by_start);
    qsort(byend, m, sizeof *byend, fx_by_end);
    for (size_t k = 0; k < 2 * w; k++) t.best[k] = AB_NO_TENSOR;
    /* Each tensor in start order meets the live ones (started, not ended
     * before its start); one of them overlaps it iff the one reaching highest
     * among those with an offset below its top reaches above its offset. */
    size_t gone = 0;
    for (size_t s = 0; s < m && *a == AB_NO_TENSOR; s++) {
        const fx_rec *x = &bystart[s];
        while (gone < m && byend[gone].end < x->start) fx_set(&t, byend[gone++].rank, false);
        size_t r = fx_highest_below(&t, fx_count_below(byoff, m, x->top));
        if (r != AB_NO_TENSOR && byoff[r].top > x->off) {
            *a = byoff[r].idx < x->idx ? byoff[r].idx : x->idx;
            *b = byoff[r].idx < x->idx ? x->idx : byoff[r].idx;
        }
        fx_set(&t, x->rank, true);
    }
    ab_free(byoff), ab_free(bystart), ab_free(byend), ab_free(t.best);
    return AB_OK;
}
