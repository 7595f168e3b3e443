/*
 * compare.c — a base run against a head run (see compare.h for the rules):
 * pairing the rows, judging each pair, counting.
 *
 * Each side's rows become entries, one per (spec pair, row) whose spec the
 * pair's pattern on that side matches, keyed by (pair, what '*' stood for);
 * the entries are sorted by (key, suite name, suite hash) and walked together
 * like a merge, one key at a time: a key with rows on one side only is one
 * "spec new/gone" line, otherwise equal suite hashes are a matched pair and
 * the others new or gone. The lines are then sorted for the output (pair,
 * suite, key, change) and written by compare_text.c or compare_json.c.
 */
#include "results/report/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/report/compare_int.h"

/* ---- changes -------------------------------------------------------------- */

#define ABR_CHANGE_WORD_(id, word, cls) word,
#define ABR_CHANGE_CLASS_(id, word, cls) cls,
static const char *const change_words[] = {ABR_CHANGES(ABR_CHANGE_WORD_)};
static const int change_class[] = {ABR_CHANGES(ABR_CHANGE_CLASS_)};
#undef ABR_CHANGE_WORD_
#undef ABR_CHANGE_CLASS_

const char *abr_change_word(abr_change c) {
    return (unsigned)c < ABR_NCHANGES ? change_words[c] : "?";
}

bool abr_change_is_regression(abr_change c) {
    return (unsigned)c < ABR_NCHANGES && change_class[c] == 1;
}

int abr_change_class(abr_change c) { return (unsigned)c < ABR_NCHANGES ? change_class[c] : 2; }

bool abr_cclass_fails(const abr_cctx *c, int cls) {
    return cls == 1 || (cls == 4 && c->opt.fail_on_time);
}

void abr_compare_opts_init(abr_compare_opts *o) {
    memset(o, 0, sizeof *o);
    o->slow_ratio = o->fast_ratio = ABR_SLOW_RATIO;
    o->slow_min_s = o->fast_min_s = ABR_SLOW_MIN_S;
}

bool abr_crow_ok(const abr_crow *w) { return w->w->r.status == ABO_STATUS_OK; }
bool abr_crow_proven(const abr_crow *w) {
    return abr_crow_ok(w) && w->w->r.proven_by != ABO_PROOF_NONE;
}

double abr_cpu_ratio(const abr_crow *b, const abr_crow *h) {
    return b->cpu_med > 0 && h->cpu_med >= 0 ? h->cpu_med / b->cpu_med : -1;
}

double abr_geomean(double log_sum, size_t n) { return n ? exp(log_sum / (double)n) : -1; }

/* ---- spec pairs ------------------------------------------------------------ */

static size_t stars(const char *s) {
    size_t n = 0;
    for (; *s; s++) n += *s == '*';
    return n;
}

static ab_status check_pair(const abr_spec_pair *p, ab_error *err) {
    if (p->base == NULL || p->head == NULL || !p->base[0] || !p->head[0])
        return ab_fail(err, AB_EINPUT, "a spec pair needs a base spec and a head spec (A=B)");
    size_t sb = stars(p->base), sh = stars(p->head);
    if (sb > 1 || sh > 1)
        return ab_fail(err, AB_EINPUT, "spec pair '%s=%s': at most one '*' a side", p->base,
                       p->head);
    if (sb != sh)
        return ab_fail(err, AB_EINPUT, "spec pair '%s=%s': a '*' on both sides or on neither",
                       p->base, p->head);
    return AB_OK;
}

/* Skips a run of characters up to one of stop (or the end); returns it. */
static const char *skip_to(const char *s, const char *stop) { return s + strcspn(s, stop); }

bool abr_spec_pair_parse(const char *text, char *buf, abr_spec_pair *p, ab_error *err) {
    /* A: name [(':' | '@') key '=' value ((',' | '@') key '=' value)*], then '=' */
    const char *s = skip_to(text, ":@=");
    while (*s == ':' || *s == '@' || *s == ',') {
        s = skip_to(s + 1, "=,@");
        if (*s != '=') break; /* a key without a value: no separator after it */
        s = skip_to(s + 1, ",@=");
        if (*s == '=') break;
    }
    if (*s != '=') {
        ab_fail(err, AB_EINPUT, "spec pair '%s': expected BASE=HEAD, e.g. "
                "'tflm-greedy=tflm-greedy:round=64'", text);
        return false;
    }
    size_t n = (size_t)(s - text);
    memcpy(buf, text, n);
    buf[n] = '\0';
    strcpy(buf + n + 1, s + 1);
    *p = (abr_spec_pair){buf, buf + n + 1};
    return check_pair(p, err) == AB_OK;
}

/* Whether spec matches pattern; *cap, *ncap: what its '*' stood for ("" when
 * it has none). */
static bool pattern_match(const char *pat, const char *spec, const char **cap, size_t *ncap) {
    const char *star = strchr(pat, '*');
    if (star == NULL) {
        *cap = spec, *ncap = 0;
        return strcmp(pat, spec) == 0;
    }
    size_t lp = (size_t)(star - pat), ls = strlen(star + 1), n = strlen(spec);
    if (n < lp + ls || strncmp(spec, pat, lp) != 0 || strcmp(spec + n - ls, star + 1) != 0)
        return false;
    *cap = spec + lp, *ncap = n - lp - ls;
    return true;
}

/* pattern with its '*' replaced by cap; owned by the caller, NULL when out of memory. */
static char *substitute(const char *pat, const char *cap, size_t ncap) {
    const char *star = strchr(pat, '*');
    if (star == NULL) return ab_strdup(pat);
    size_t lp = (size_t)(star - pat), ls = strlen(star + 1);
    char *s = ab_malloc(lp + ncap + ls + 1);
    if (s == NULL) return NULL;
    memcpy(s, pat, lp);
    memcpy(s + lp, cap, ncap);
    memcpy(s + lp + ncap, star + 1, ls + 1);
    return s;
}

/* ---- entries ----------------------------------------------------------------- */

typedef struct entry {
    size_t p;
    const char *cap;
    size_t ncap;
    const abr_crow *x;
} entry;

static int cmp_cap(const char *a, size_t na, const char *b, size_t nb) {
    int c = na && nb ? memcmp(a, b, na < nb ? na : nb) : 0;
    return c != 0 ? c : (na > nb) - (na < nb);
}

static int cmp_entry_key(const entry *a, const entry *b) {
    if (a->p != b->p) return a->p < b->p ? -1 : 1;
    return cmp_cap(a->cap, a->ncap, b->cap, b->ncap);
}

static int cmp_suite(const abs_row *a, const abs_row *b) {
    int c = strcmp(a->suite.name, b->suite.name);
    return c != 0 ? c : strcmp(a->suite.hash, b->suite.hash);
}

static int cmp_entries(const void *a, const void *b) {
    const entry *x = a, *y = b;
    int c = cmp_entry_key(x, y);
    return c != 0 ? c : cmp_suite(x->x->w, y->x->w);
}

/* The entries of side d under the pairs (the base or head pattern); *out
 * owned by the caller. false when out of memory. */
static bool entries(const abr_cctx *c, const abr_cside *d, bool head, entry **out, size_t *n) {
    size_t cap = 0;
    *out = NULL, *n = 0;
    for (size_t p = 0; p < c->opt.npairs; p++) {
        const char *pat = head ? c->opt.pairs[p].head : c->opt.pairs[p].base;
        for (size_t i = 0; i < d->rows.n; i++) {
            entry e = {.p = p, .x = &d->x[i]};
            if (!pattern_match(pat, d->x[i].w->r.spec, &e.cap, &e.ncap)) continue;
            if (!ab_grow((void **)out, &cap, *n + 1, sizeof **out)) return false;
            (*out)[(*n)++] = e;
        }
    }
    if (*n) qsort(*out, *n, sizeof **out, cmp_entries);
    return true;
}

/* ---- judging ------------------------------------------------------------------ */

static void add(abr_cctx *c, abr_change k, size_t key, const abr_crow *b, const abr_crow *h,
                size_t count) {
    if (c->oom) return;
    if (!ab_grow((void **)&c->v, &c->cap, c->n + 1, sizeof *c->v)) {
        c->oom = true;
        return;
    }
    abr_cline *l = &c->v[c->n];
    *l = (abr_cline){.c = k, .k = key, .b = b, .h = h, .count = count, .p = SIZE_MAX,
                     .seq = c->n};
    if (key != SIZE_MAX) l->p = c->keys[key].p, l->cap = c->keys[key].cap, l->ncap = c->keys[key].ncap;
    c->n++;
}

/* true when CPU spread y lies beyond spread x by ratio and by min seconds:
 * y's least >= ratio x x's greatest, and y's least - x's greatest >= min. */
static bool beyond(double x_max, double y_min, double ratio, double min) {
    if (x_max < 0 || y_min < 0 || !(y_min > x_max)) return false;
    const double eps = 1e-9;
    return y_min + eps >= ratio * x_max && y_min - x_max + eps >= min;
}

/* The runner's message for its wall-clock limit (harness/engine/runner.c,
 * classify): "exceeded the time limit of %g s". */
static const char wall_limit_prefix[] = "exceeded the time limit of ";

/* Whether head row h, not ok where base row b was ok, was stopped by the
 * machine's load rather than by the planner: "capped under load".
 *
 * How a timeout row comes about (harness/engine/runner.c, one_run and
 * classify; planners/planner.h, ab_plan_stats.capped) and what it says:
 *   1. the planner's deterministic budget (nodes, iterations) ran out:
 *      capped NULL. The same on any machine: a real failure.
 *   2. the runner's CPU limit (`run --cpu-limit`, RLIMIT_CPU): capped 'time',
 *      "exceeded the CPU limit of L s (...)". CPU time itself over the
 *      limit: the planner's own work, whatever the load: a real failure.
 *   3. the planner's own time cap (a `time=` parameter) ended it without a
 *      plan: capped 'time', the planner's message. Those caps count CPU
 *      time (canonical, exact-cover, the subset bound: clock()), and the row
 *      does not say which clock a cap read, so it stays a failure.
 *   4. the runner's wall-clock limit (`run --time-limit`): capped 'time',
 *      "exceeded the time limit of L s". Wall time is what a busy machine
 *      takes away: when the row's CPU time stayed below L (it was not the
 *      work that ran out of time) and is not beyond base's CPU spread by
 *      the "slower" thresholds (it had not done more work than the base
 *      needed to finish), the load stopped it: listed apart, not a
 *      regression. A row that used L seconds of CPU or more, or clearly
 *      more CPU than base, is slower in itself: a failure.
 * Only case 4 is under load; memory caps ('memory', oom) stay failures. */
static bool under_load(const abr_cctx *c, const abr_crow *b, const abr_crow *h) {
    const abo_row *r = &h->w->r;
    if (r->status != ABO_STATUS_TIMEOUT || strcmp(h->capped, "time") != 0 || r->error == NULL)
        return false;
    size_t np = sizeof wall_limit_prefix - 1;
    if (strncmp(r->error, wall_limit_prefix, np) != 0) return false;
    char *end = NULL;
    double limit = strtod(r->error + np, &end);
    if (end == r->error + np || !(limit > 0) || h->cpu_max < 0) return false;
    if (h->cpu_max >= limit) return false;
    return !beyond(b->cpu_max, h->cpu_min, c->opt.slow_ratio, c->opt.slow_min_s);
}

/* The changes of a matched pair under key k. */
static void compare_pair(abr_cctx *c, size_t k, const abr_crow *b, const abr_crow *h) {
    bool bok = abr_crow_ok(b), hok = abr_crow_ok(h);
    int64_t ab = b->w->r.arena, ah = h->w->r.arena;
    bool pb = abr_crow_proven(b), ph = abr_crow_proven(h);
    bool capped = b->capped[0] != '\0' || h->capped[0] != '\0';
    bool judged = !(capped && (ab != ah || pb != ph)); /* arena and proof */
    if (bok && !hok)
        add(c, under_load(c, b, h) ? ABR_CHANGE_CAPPED_LOAD : ABR_CHANGE_FAILED, k, b, h, 0);
    if (bok && hok) {
        if (judged && ah > ab) add(c, ABR_CHANGE_ARENA_GREW, k, b, h, 0);
        if (judged && pb && !ph) add(c, ABR_CHANGE_PROOF_LOST, k, b, h, 0);
        if (beyond(b->cpu_max, h->cpu_min, c->opt.slow_ratio, c->opt.slow_min_s))
            add(c, ABR_CHANGE_SLOWER, k, b, h, 0);
    }
    if (!bok && hok) add(c, ABR_CHANGE_FIXED, k, b, h, 0);
    if (bok && hok) {
        if (judged && ah < ab) add(c, ABR_CHANGE_ARENA_SHRANK, k, b, h, 0);
        if (judged && !pb && ph) add(c, ABR_CHANGE_PROVEN, k, b, h, 0);
        if (beyond(h->cpu_max, b->cpu_min, c->opt.fast_ratio, c->opt.fast_min_s))
            add(c, ABR_CHANGE_FASTER, k, b, h, 0);
        if (!judged) add(c, ABR_CHANGE_CAPPED, k, b, h, 0);
    }
    if (!bok && !hok && b->w->r.status != h->w->r.status) add(c, ABR_CHANGE_STATUS, k, b, h, 0);
}

/* The ratios of a matched pair into its key's geometric means. */
static void tally(abr_ckey *key, const abr_crow *b, const abr_crow *h) {
    key->matched++;
    if (!abr_crow_ok(b) || !abr_crow_ok(h)) return;
    if (b->w->r.arena > 0 && h->w->r.arena > 0) {
        key->arena_log += log((double)h->w->r.arena / (double)b->w->r.arena);
        key->arena_n++;
    }
    double r = abr_cpu_ratio(b, h);
    if (r > 0) {
        key->cpu_log += log(r);
        key->cpu_n++;
    }
}

/* A new key for the entries from e (of either side); its index, or SIZE_MAX. */
static size_t new_key(abr_cctx *c, const entry *e) {
    if (!ab_grow((void **)&c->keys, &c->capkeys, c->nkeys + 1, sizeof *c->keys)) return SIZE_MAX;
    const abr_spec_pair *p = &c->opt.pairs[e->p];
    abr_ckey *k = &c->keys[c->nkeys];
    *k = (abr_ckey){.p = e->p, .cap = e->cap, .ncap = e->ncap};
    k->base_spec = substitute(p->base, e->cap, e->ncap);
    k->head_spec = substitute(p->head, e->cap, e->ncap);
    c->nkeys++; /* counted even when a spec failed, so it is freed */
    return k->base_spec && k->head_spec ? c->nkeys - 1 : SIZE_MAX;
}

static bool add_match(abr_cctx *c, size_t k, const abr_crow *b, const abr_crow *h) {
    if (!ab_grow((void **)&c->m, &c->capm, c->nm + 1, sizeof *c->m)) return false;
    c->m[c->nm++] = (abr_cmatch){k, b, h};
    return true;
}

/* true for the statuses that fail a run: invalid, crash, error (a file that
 * did not load is an error row); not the outcomes timeout, oom, ... */
static bool fails_run(const abr_crow *w) {
    return w->w->r.status == ABO_STATUS_INVALID || w->w->r.status == ABO_STATUS_CRASH ||
           w->w->r.status == ABO_STATUS_ERROR;
}

/* The rows of one key: eb[0 .. nb) of base, eh[0 .. nh) of head. A row only
 * in head that fails the run (a new suite file that did not load, spec
 * "(load)"; a new suite a planner crashes on) is "failed", a regression,
 * also when its whole spec is new. */
static void walk_key(abr_cctx *c, size_t k, const entry *eb, size_t nb, const entry *eh,
                     size_t nh, abr_compare_summary *sum) {
    abr_ckey *key = &c->keys[k];
    key->base_rows = nb, key->head_rows = nh;
    if (nh == 0 || nb == 0) {
        add(c, nh == 0 ? ABR_CHANGE_SPEC_GONE : ABR_CHANGE_SPEC_NEW, k, NULL, NULL, nb + nh);
        for (size_t j = 0; j < nh; j++)
            if (fails_run(eh[j].x)) add(c, ABR_CHANGE_FAILED, k, NULL, eh[j].x, 0);
        return;
    }
    size_t i = 0, j = 0;
    while (i < nb || j < nh) {
        int d = i == nb ? 1 : j == nh ? -1 : cmp_suite(eb[i].x->w, eh[j].x->w);
        if (d < 0) {
            add(c, ABR_CHANGE_GONE, k, eb[i++].x, NULL, 0);
        } else if (d > 0) {
            add(c, fails_run(eh[j].x) ? ABR_CHANGE_FAILED : ABR_CHANGE_NEW, k, NULL, eh[j].x, 0);
            j++;
        } else {
            size_t before = c->n;
            compare_pair(c, k, eb[i].x, eh[j].x);
            if (!add_match(c, k, eb[i].x, eh[j].x)) c->oom = true;
            tally(key, eb[i].x, eh[j].x);
            sum->matched++;
            sum->unchanged += c->n == before;
            i++, j++;
        }
    }
}

/* The end of the run of entries with e[i]'s key. */
static size_t key_end(const entry *e, size_t i, size_t n) {
    size_t j = i + 1;
    while (j < n && cmp_entry_key(&e[i], &e[j]) == 0) j++;
    return j;
}

/* Walks both sides' entries, one key at a time. */
static void walk(abr_cctx *c, abr_compare_summary *sum) {
    entry *eb = NULL, *eh = NULL;
    size_t nb = 0, nh = 0;
    if (!entries(c, &c->base, false, &eb, &nb) || !entries(c, &c->head, true, &eh, &nh)) {
        c->oom = true;
    }
    size_t i = 0, j = 0;
    while (!c->oom && (i < nb || j < nh)) {
        int d = i == nb ? 1 : j == nh ? -1 : cmp_entry_key(&eb[i], &eh[j]);
        size_t ie = d <= 0 ? key_end(eb, i, nb) : i, je = d >= 0 ? key_end(eh, j, nh) : j;
        size_t k = new_key(c, d <= 0 ? &eb[i] : &eh[j]);
        if (k == SIZE_MAX) c->oom = true;
        else walk_key(c, k, eb + i, ie - i, eh + j, je - j, sum);
        i = ie, j = je;
    }
    ab_free(eb);
    ab_free(eh);
}

/* The first ok row of suite hash in d, or NULL (rows in the store's order). */
static const abr_crow *packed_in(const abr_cside *d, const char *hash) {
    for (size_t i = 0; i < d->rows.n; i++)
        if (abr_crow_ok(&d->x[i]) && strcmp(d->x[i].w->suite.hash, hash) == 0) return &d->x[i];
    return NULL;
}

/* A contradiction line for every row of d that proved its suite infeasible
 * while a row of either run packed it: b = the refuting row, h = the packing
 * one (base's rows first, then head's). */
static void contradictions(abr_cctx *c, const abr_cside *d) {
    for (size_t i = 0; i < d->rows.n; i++) {
        const abr_crow *w = &d->x[i];
        if (w->w->r.status != ABO_STATUS_INFEASIBLE) continue;
        const abr_crow *fit = packed_in(&c->base, w->w->suite.hash);
        if (fit == NULL) fit = packed_in(&c->head, w->w->suite.hash);
        if (fit != NULL) add(c, ABR_CHANGE_CONTRADICTION, SIZE_MAX, w, fit, 0);
    }
}

static void count(const abr_cctx *c, abr_compare_summary *sum) {
    for (size_t i = 0; i < c->n; i++) {
        abr_change k = c->v[i].c;
        int cls = change_class[k];
        sum->by_change[k]++;
        if (k == ABR_CHANGE_NEW) sum->added++;
        else if (k == ABR_CHANGE_GONE) sum->removed++;
        else if (k == ABR_CHANGE_SPEC_NEW) sum->specs_new++;
        else if (k == ABR_CHANGE_SPEC_GONE) sum->specs_gone++;
        else if (abr_cclass_fails(c, cls)) sum->regressions++;
        else if (cls == 4) sum->warnings++;
        else if (cls == 0) sum->improvements++;
        else if (cls == 5) sum->not_judged++;
        else sum->other++;
    }
}

/* ---- output order ----------------------------------------------------------------- */

/* The suite row of a line (NULL for spec lines). */
static const abs_row *line_suite(const abr_cline *l) {
    return l->b ? l->b->w : l->h ? l->h->w : NULL;
}

/* Lines by pair (contradictions last, in the order found), suite lines before
 * spec lines, suite name, suite hash, key, change, then the order found. */
static int cmp_lines(const void *a, const void *b) {
    const abr_cline *x = a, *y = b;
    if (x->p != y->p) return x->p < y->p ? -1 : 1;
    if (x->p == SIZE_MAX) return (x->seq > y->seq) - (x->seq < y->seq);
    const abs_row *sx = line_suite(x), *sy = line_suite(y);
    if ((sx == NULL) != (sy == NULL)) return sx == NULL ? 1 : -1;
    int d = sx ? cmp_suite(sx, sy) : 0;
    if (d == 0) d = cmp_cap(x->cap, x->ncap, y->cap, y->ncap);
    if (d == 0 && x->c != y->c) d = x->c < y->c ? -1 : 1;
    return d != 0 ? d : (x->seq > y->seq) - (x->seq < y->seq);
}

/* ---- notice hints --------------------------------------------------------------- */

/* The planner name of a spec: up to ':' or '@'. */
static size_t planner_len(const char *spec) { return strcspn(spec, ":@"); }

void abr_pair_hints(const abr_cctx *c, void (*fn)(void *arg, const char *gone, const char *nu),
                    void *arg) {
    size_t ngone = 0, nnew = 0, gone1 = 0, new1 = 0, given = 0;
    for (size_t i = 0; i < c->nkeys; i++) {
        const abr_ckey *g = &c->keys[i];
        if (g->head_rows != 0) {
            if (g->base_rows == 0) nnew++, new1 = i;
            continue;
        }
        ngone++, gone1 = i;
        size_t lg = planner_len(g->base_spec);
        for (size_t j = 0; j < c->nkeys; j++) {
            const abr_ckey *h = &c->keys[j];
            if (h->base_rows != 0 || planner_len(h->head_spec) != lg ||
                strncmp(g->base_spec, h->head_spec, lg) != 0)
                continue;
            fn(arg, g->base_spec, h->head_spec);
            given++;
        }
    }
    if (given == 0 && ngone == 1 && nnew == 1)
        fn(arg, c->keys[gone1].base_spec, c->keys[new1].head_spec);
}

/* ---- entry points --------------------------------------------------------------- */

static ab_status check_threshold(double ratio, double min, const char *what, ab_error *err) {
    if (!(ratio >= 1.0) || !isfinite(ratio))
        return ab_fail(err, AB_EINPUT, "the %s ratio must be a number >= 1, got %g", what, ratio);
    if (!(min >= 0.0) || !isfinite(min))
        return ab_fail(err, AB_EINPUT, "the %s minimum must be >= 0 seconds, got %g", what, min);
    return AB_OK;
}

static ab_status check_opts(const abr_compare_opts *o, ab_error *err) {
    ab_status st = check_threshold(o->slow_ratio, o->slow_min_s, "slowdown", err);
    if (st == AB_OK) st = check_threshold(o->fast_ratio, o->fast_min_s, "speedup", err);
    for (size_t i = 0; st == AB_OK && i < o->npairs; i++) st = check_pair(&o->pairs[i], err);
    if (st == AB_OK && o->format != ABR_COMPARE_TEXT && o->format != ABR_COMPARE_JSON)
        st = ab_fail(err, AB_EINPUT, "unknown compare format %d", (int)o->format);
    return st;
}

static void ctx_free(abr_cctx *c) {
    abr_cside_free(&c->base);
    abr_cside_free(&c->head);
    for (size_t i = 0; i < c->nkeys; i++) {
        ab_free(c->keys[i].base_spec);
        ab_free(c->keys[i].head_spec);
    }
    ab_free(c->keys);
    ab_free(c->m);
    ab_free(c->v);
}

static const abr_spec_pair identity_pair = {"*", "*"};

ab_status abr_compare(abs_store *s, int64_t base, int64_t head, const abr_compare_opts *opt,
                      ab_buf *out, abr_compare_summary *sum, ab_error *err) {
    abr_compare_summary local;
    if (sum == NULL) sum = &local;
    memset(sum, 0, sizeof *sum);
    abr_cctx c;
    memset(&c, 0, sizeof c);
    if (opt) c.opt = *opt;
    else abr_compare_opts_init(&c.opt);
    c.explicit_pairs = c.opt.npairs > 0;
    if (!c.explicit_pairs) c.opt.pairs = &identity_pair, c.opt.npairs = 1;
    bool sb = false, sh = false;
    ab_status st = check_opts(&c.opt, err);
    if (st == AB_OK) st = abr_cside_read(s, base, &c.base, &sb, err);
    if (st == AB_OK) st = abr_cside_read(s, head, &c.head, &sh, err);
    sum->spread = sb && sh;
    if (st == AB_OK) {
        walk(&c, sum);
        contradictions(&c, &c.base);
        contradictions(&c, &c.head);
        if (c.oom) st = ab_fail(err, AB_ENOMEM, "out of memory comparing runs");
    }
    if (st == AB_OK) {
        count(&c, sum);
        if (c.n) qsort(c.v, c.n, sizeof *c.v, cmp_lines);
        if (c.opt.format == ABR_COMPARE_JSON) abr_compare_json(out, &c, sum);
        else abr_compare_text(out, &c, sum);
        if (out->oom) st = ab_fail(err, AB_ENOMEM, "out of memory comparing runs");
    }
    ctx_free(&c);
    return st;
}
