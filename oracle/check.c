/*
 * check.c — the overlap checker (see check.h for the numbered checks).
 *
 * A checker context walks the plan once per check, in the numbered order, so
 * the messages come out grouped by check and, within a check, in entry or
 * tensor order. Check 7 is a sweep over instructions: the tensors live at the
 * current instruction are kept in a Fenwick tree over their (compressed)
 * offsets; the live set is pairwise disjoint in bytes, so a newcomer overlaps
 * some live tensor iff it overlaps its predecessor or its successor by offset.
 * A newcomer that overlaps is reported and left out, so the set stays disjoint.
 */
#include "check.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest text of one message line, so ABO_MAX_MESSAGES lines, their '\n'
 * separators and the final NUL fit in ABO_MESSAGE_MAX. */
#define LINE_CAP (ABO_MESSAGE_MAX / ABO_MAX_MESSAGES)
/* Longest tensor name shown in a message, in bytes (longer ones end in "..."). */
#define NAME_SHOW 100

_Static_assert(LINE_CAP > 4 * NAME_SHOW, "a message line holds two names and numbers");

static const char *const verdict_words[] = {
#define ABO_WORD_(id, word, text) word,
    ABO_VERDICTS(ABO_WORD_)
#undef ABO_WORD_
};

static const char *const verdict_texts[] = {
#define ABO_TEXT_(id, word, text) text,
    ABO_VERDICTS(ABO_TEXT_)
#undef ABO_TEXT_
};

/* The short word of verdict v ("overlap"); "?" outside the enum. */
const char *abo_verdict_word(abo_verdict v) {
    return (unsigned)v < ABO_NVERDICTS ? verdict_words[v] : "?";
}

/* The one-sentence description of verdict v; "unknown verdict" outside the enum. */
const char *abo_verdict_text(abo_verdict v) {
    return (unsigned)v < ABO_NVERDICTS ? verdict_texts[v] : "unknown verdict";
}

/* ---- the checker context ---------------------------------------------------- */

typedef struct checker {
    const ab_problem *p;
    const ab_plan *plan;
    abo_report *r;
    size_t *entry_of;  /* per tensor: the first entry placing it, or AB_NO_TENSOR */
    int64_t *byte_end; /* per placed tensor: offset + size (valid when has_range) */
    bool *has_range;   /* per tensor: placed and offset + size fits in int64 */
    bool failed[ABO_NVERDICTS];
    size_t nlines;     /* message lines written */
    size_t len;        /* bytes used in r->msg */
} checker;

/* Copies name into buf (NAME_SHOW + 4 bytes) for a message: control bytes
 * become '?', and a name longer than NAME_SHOW is cut (at a UTF-8 boundary)
 * and ends in "...". Returns buf. */
static const char *shown(char *buf, const char *name) {
    if (name == NULL) name = "";
    size_t n = strnlen(name, NAME_SHOW + 1);
    bool cut = n > NAME_SHOW;
    if (cut) {
        n = NAME_SHOW;
        while (n > 0 && ((unsigned char)name[n] & 0xC0) == 0x80) n--;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)name[i];
        buf[i] = (ch < 0x20 || ch == 0x7f) ? '?' : (char)ch;
    }
    if (cut) {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n] = '\0';
    return buf;
}

/* The shown name of tensor i (see shown). */
static const char *tname(const checker *c, size_t i, char *buf) {
    return shown(buf, c->p->t[i].name);
}

/* Records one problem of check v: counts it, marks the check failed, and
 * appends the message as a new line while fewer than ABO_MAX_MESSAGES are kept.
 * The message is "<verdict word>: <fmt ...>". */
static void note(checker *c, abo_verdict v, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void note(checker *c, abo_verdict v, const char *fmt, ...) {
    c->failed[v] = true;
    c->r->nproblems++;
    if (c->nlines >= ABO_MAX_MESSAGES) return;
    char line[LINE_CAP];
    int head = snprintf(line, sizeof line, "%s: ", abo_verdict_word(v));
    va_list ap;
    va_start(ap, fmt);
    int body = vsnprintf(line + head, sizeof line - (size_t)head, fmt, ap);
    va_end(ap);
    if (body < 0) body = 0;
    if ((size_t)head + (size_t)body >= sizeof line) memcpy(line + sizeof line - 4, "...", 4);
    char *dst = c->r->msg + c->len;
    size_t room = sizeof c->r->msg - c->len;
    int w = snprintf(dst, room, "%s%s", c->nlines ? "\n" : "", line);
    c->len += (size_t)w < room ? (size_t)w : room - 1;
    c->nlines++;
}

/* Where plan entry k came from: "plan line L" or, without a line, "plan entry K". */
static void entry_where(const ab_placement *e, size_t k, char *buf, size_t len) {
    if (e->line > 0) snprintf(buf, len, "plan line %d", e->line);
    else snprintf(buf, len, "plan entry %zu", k + 1);
}

/* ---- checks 1 to 3: the entries ------------------------------------------- */

/* Check 1: every entry names a tensor of the problem. */
static void check_unknown(checker *c) {
    for (size_t k = 0; k < c->plan->n; k++) {
        const ab_placement *e = &c->plan->v[k];
        if (e->tensor < c->p->n) continue;
        char where[64], buf[NAME_SHOW + 4];
        entry_where(e, k, where, sizeof where);
        if (e->name != NULL)
            note(c, ABO_UNKNOWN, "%s names '%s', not a tensor of the suite", where,
                 shown(buf, e->name));
        else if (e->tensor == AB_NO_TENSOR)
            note(c, ABO_UNKNOWN, "%s names no tensor", where);
        else
            note(c, ABO_UNKNOWN, "%s names tensor index %zu, but the suite has %zu tensors", where,
                 e->tensor, c->p->n);
    }
}

/* Check 2: no tensor is placed twice. The first entry of each tensor is the
 * one every later check uses; entry_of records it. */
static void check_duplicates(checker *c) {
    for (size_t k = 0; k < c->plan->n; k++) {
        const ab_placement *e = &c->plan->v[k];
        if (e->tensor >= c->p->n) continue;
        size_t first = c->entry_of[e->tensor];
        if (first == AB_NO_TENSOR) {
            c->entry_of[e->tensor] = k;
            continue;
        }
        const ab_placement *f = &c->plan->v[first];
        char buf[NAME_SHOW + 4];
        if (f->line > 0 && e->line > 0)
            note(c, ABO_DUPLICATE, "'%s' placed twice (lines %d and %d)",
                 tname(c, e->tensor, buf), f->line, e->line);
        else
            note(c, ABO_DUPLICATE, "'%s' placed twice (plan entries %zu and %zu)",
                 tname(c, e->tensor, buf), first + 1, k + 1);
    }
}

/* Check 3: every tensor is placed. */
static void check_missing(checker *c) {
    char buf[NAME_SHOW + 4];
    for (size_t i = 0; i < c->p->n; i++)
        if (c->entry_of[i] == AB_NO_TENSOR)
            note(c, ABO_MISSING, "'%s' has no offset", tname(c, i, buf));
}

/* The offset the plan gives tensor i (which must be placed). */
static int64_t offset_of(const checker *c, size_t i) { return c->plan->v[c->entry_of[i]].offset; }

/* ---- checks 4 to 6: each placed tensor ------------------------------------ */

/* Check 4: offsets are >= 0 and multiples of the tensor's align. */
static void check_aligned(checker *c) {
    char buf[NAME_SHOW + 4];
    for (size_t i = 0; i < c->p->n; i++) {
        if (c->entry_of[i] == AB_NO_TENSOR) continue;
        int64_t off = offset_of(c, i), align = c->p->t[i].align;
        if (off < 0)
            note(c, ABO_MISALIGNED, "'%s' offset %" PRId64 " is negative", tname(c, i, buf), off);
        else if (off % align != 0)
            note(c, ABO_MISALIGNED, "'%s' offset %" PRId64 " is not a multiple of its align %" PRId64,
                 tname(c, i, buf), off, align);
    }
}

/* Check 5: fixed offsets are honoured. */
static void check_fixed(checker *c) {
    char buf[NAME_SHOW + 4];
    for (size_t i = 0; i < c->p->n; i++) {
        int64_t fixed = c->p->t[i].offset;
        if (c->entry_of[i] == AB_NO_TENSOR || fixed == AB_NONE) continue;
        int64_t off = offset_of(c, i);
        if (off != fixed)
            note(c, ABO_FIXED_MOVED,
                 "'%s' must be at %" PRId64 " (fixed), plan puts it at %" PRId64,
                 tname(c, i, buf), fixed, off);
    }
}

/* Check 6: offset + size fits in int64. Fills byte_end and has_range, and the
 * arena (over the placed tensors whose end is defined, never below 0). */
static void check_overflow(checker *c) {
    char buf[NAME_SHOW + 4];
    for (size_t i = 0; i < c->p->n; i++) {
        if (c->entry_of[i] == AB_NO_TENSOR) continue;
        int64_t off = offset_of(c, i), size = c->p->t[i].size;
        if (ab_add_ovf(off, size, &c->byte_end[i])) {
            note(c, ABO_OVERFLOW, "'%s' offset %" PRId64 " + size %" PRId64 " overflows 64 bits",
                 tname(c, i, buf), off, size);
            continue;
        }
        c->has_range[i] = true;
        if (c->byte_end[i] > c->r->arena) c->r->arena = c->byte_end[i];
    }
}

/* ---- check 7: the sweep --------------------------------------------------- */

/* A sort record: a key, ties broken by the tensor index (a total order). */
typedef struct keyed {
    int64_t key;
    size_t idx;
} keyed;

static int keyed_cmp(const void *a, const void *b) {
    const keyed *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* A Fenwick tree of 0/1 counts over slots 1..n: which offsets are live. */
typedef struct fenwick {
    size_t *t; /* 1-based, n + 1 entries */
    size_t n;
    size_t top; /* the largest power of two <= n */
    size_t total;
} fenwick;

static void fen_add(fenwick *f, size_t pos, bool up) {
    f->total += up ? 1 : (size_t)-1;
    for (; pos <= f->n; pos += pos & (~pos + 1)) f->t[pos] += up ? 1 : (size_t)-1;
}

/* The number of live slots in 1..pos. */
static size_t fen_prefix(const fenwick *f, size_t pos) {
    size_t s = 0;
    for (; pos > 0; pos -= pos & (~pos + 1)) s += f->t[pos];
    return s;
}

/* The slot of the kth live offset (1 <= k <= total). */
static size_t fen_kth(const fenwick *f, size_t k) {
    size_t pos = 0;
    for (size_t step = f->top; step > 0; step >>= 1) {
        if (pos + step <= f->n && f->t[pos + step] < k) {
            pos += step;
            k -= f->t[pos];
        }
    }
    return pos + 1;
}

/* The working arrays of the sweep over the m tensors that have a byte range. */
typedef struct sweep {
    size_t m;
    keyed *by_start, *by_end, *by_off;
    size_t *slot;     /* per tensor: its offset's slot (1-based) */
    size_t *occupant; /* per slot: the live tensor there, or AB_NO_TENSOR */
    fenwick fen;
} sweep;

static void sweep_free(sweep *s) {
    ab_free(s->by_start);
    ab_free(s->by_end);
    ab_free(s->by_off);
    ab_free(s->slot);
    ab_free(s->occupant);
    ab_free(s->fen.t);
}

/* Allocates and sorts the sweep's arrays; false on OOM (s then owns what it got). */
static bool sweep_init(const checker *c, sweep *s) {
    const ab_problem *p = c->p;
    size_t m = 0;
    for (size_t i = 0; i < p->n; i++) m += c->has_range[i];
    s->m = m;
    if (m == 0) return true;
    s->by_start = ab_alloc_array(m, sizeof *s->by_start);
    s->by_end = ab_alloc_array(m, sizeof *s->by_end);
    s->by_off = ab_alloc_array(m, sizeof *s->by_off);
    s->slot = ab_alloc_array(p->n, sizeof *s->slot);
    if (!s->by_start || !s->by_end || !s->by_off || !s->slot) return false;
    size_t j = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (!c->has_range[i]) continue;
        s->by_start[j] = (keyed){p->t[i].start, i};
        s->by_end[j] = (keyed){p->t[i].end, i};
        s->by_off[j] = (keyed){offset_of(c, i), i};
        j++;
    }
    qsort(s->by_start, m, sizeof *s->by_start, keyed_cmp);
    qsort(s->by_end, m, sizeof *s->by_end, keyed_cmp);
    qsort(s->by_off, m, sizeof *s->by_off, keyed_cmp);
    size_t nslots = 0;
    for (size_t k = 0; k < m; k++) {
        if (k == 0 || s->by_off[k].key != s->by_off[k - 1].key) nslots++;
        s->slot[s->by_off[k].idx] = nslots;
    }
    s->occupant = ab_alloc_array(nslots + 1, sizeof *s->occupant);
    s->fen.t = ab_calloc(nslots + 1, sizeof *s->fen.t);
    if (!s->occupant || !s->fen.t) return false;
    for (size_t k = 0; k <= nslots; k++) s->occupant[k] = AB_NO_TENSOR;
    s->fen.n = nslots;
    s->fen.top = 1;
    while (s->fen.top <= nslots / 2) s->fen.top <<= 1;
    return true;
}

/* Reports that tensors x and y (both live at instruction t) share bytes. */
static void report_overlap(checker *c, size_t x, size_t y, int64_t t) {
    int64_t ox = offset_of(c, x), oy = offset_of(c, y);
    size_t a = x, b = y;
    if (oy < ox || (oy == ox && y < x)) a = y, b = x;
    int64_t oa = offset_of(c, a), ob = offset_of(c, b);
    int64_t ea = c->byte_end[a], eb = c->byte_end[b];
    if (c->r->overlap_a == AB_NO_TENSOR) {
        c->r->overlap_a = a;
        c->r->overlap_b = b;
        c->r->overlap_instr = t;
    }
    char na[NAME_SHOW + 4], nb[NAME_SHOW + 4];
    note(c, ABO_OVERLAP,
         "'%s' [%" PRId64 ", %" PRId64 ") and '%s' [%" PRId64 ", %" PRId64
         ") are both live at instruction %" PRId64 " and share bytes [%" PRId64 ", %" PRId64 ")",
         tname(c, a, na), oa, ea, tname(c, b, nb), ob, eb, t, ob, ea < eb ? ea : eb);
}

/* The live tensor whose bytes tensor i would share, or AB_NO_TENSOR: the
 * lowest by offset, which is i's predecessor or else its successor. */
static size_t first_clash(const checker *c, const sweep *s, size_t i) {
    int64_t off = offset_of(c, i);
    size_t below = fen_prefix(&s->fen, s->slot[i]); /* live offsets <= off */
    if (below > 0) {
        size_t pred = s->occupant[fen_kth(&s->fen, below)];
        if (c->byte_end[pred] > off) return pred;
    }
    if (below < s->fen.total) {
        size_t succ = s->occupant[fen_kth(&s->fen, below + 1)];
        if (offset_of(c, succ) < c->byte_end[i]) return succ;
    }
    return AB_NO_TENSOR;
}

/* Check 7: no two conflicting tensors share a byte. Tensors enter the live set
 * by start (ties by index) after every tensor ending before that start left. */
static ab_status check_overlaps(checker *c) {
    sweep s = {0};
    if (!sweep_init(c, &s)) {
        sweep_free(&s);
        return AB_ENOMEM;
    }
    size_t j = 0;
    for (size_t k = 0; k < s.m; k++) {
        size_t i = s.by_start[k].idx;
        int64_t t = s.by_start[k].key;
        for (; j < s.m && s.by_end[j].key < t; j++) {
            size_t gone = s.by_end[j].idx;
            if (s.occupant[s.slot[gone]] != gone) continue; /* was never inserted */
            s.occupant[s.slot[gone]] = AB_NO_TENSOR;
            fen_add(&s.fen, s.slot[gone], false);
        }
        size_t clash = first_clash(c, &s, i);
        if (clash != AB_NO_TENSOR) {
            report_overlap(c, clash, i, t);
            continue;
        }
        s.occupant[s.slot[i]] = i;
        fen_add(&s.fen, s.slot[i], true);
    }
    sweep_free(&s);
    return AB_OK;
}

/* ---- check 8 and the entry point ------------------------------------------ */

/* Check 8: the arena fits the capacity, when one is set. */
static void check_capacity(checker *c) {
    if (c->p->capacity != AB_NONE && c->r->arena > c->p->capacity)
        note(c, ABO_OVER_CAPACITY, "arena %" PRId64 " exceeds capacity %" PRId64, c->r->arena,
             c->p->capacity);
}

/* AB_OK when every tensor of p is well formed for the checks, else AB_EINPUT. */
static ab_status problem_sane(const ab_problem *p, ab_error *err) {
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *t = &p->t[i];
        char buf[NAME_SHOW + 4];
        if (t->size < 1 || t->align < 1 || t->start > t->end)
            return ab_fail(err, AB_EINPUT,
                           "tensor '%s' is malformed (size %" PRId64 ", align %" PRId64
                           ", live [%" PRId64 ", %" PRId64 "])",
                           shown(buf, t->name), t->size, t->align, t->start, t->end);
    }
    return AB_OK;
}

/* Empties *r; its verdict is ABO_NVERDICTS (no verdict) until the checks ran. */
static void report_reset(abo_report *r) {
    memset(r, 0, sizeof *r);
    r->verdict = ABO_NVERDICTS;
    r->overlap_a = r->overlap_b = AB_NO_TENSOR;
    r->overlap_instr = AB_NONE;
}

ab_status abo_check(const ab_problem *p, const ab_plan *plan, abo_report *r, ab_error *err) {
    report_reset(r);
    ab_status st = problem_sane(p, err);
    if (st != AB_OK) return st;
    checker c = {.p = p, .plan = plan, .r = r};
    size_t n = p->n ? p->n : 1;
    c.entry_of = ab_alloc_array(n, sizeof *c.entry_of);
    c.byte_end = ab_alloc_array(n, sizeof *c.byte_end);
    c.has_range = ab_calloc(n, sizeof *c.has_range);
    st = AB_ENOMEM;
    if (c.entry_of && c.byte_end && c.has_range) {
        for (size_t i = 0; i < p->n; i++) c.entry_of[i] = AB_NO_TENSOR;
        check_unknown(&c);
        check_duplicates(&c);
        check_missing(&c);
        check_aligned(&c);
        check_fixed(&c);
        check_overflow(&c);
        st = check_overlaps(&c);
        check_capacity(&c);
    }
    ab_free(c.entry_of);
    ab_free(c.byte_end);
    ab_free(c.has_range);
    if (st != AB_OK) {
        report_reset(r);
        return ab_fail(err, st, "out of memory checking a plan of %zu tensors", p->n);
    }
    r->verdict = ABO_OK;
    for (int v = ABO_NVERDICTS - 1; v > ABO_OK; v--)
        if (c.failed[v]) r->verdict = (abo_verdict)v;
    return AB_OK;
}
