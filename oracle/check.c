/*
 * check.c — the overlap checker (see check.h for the numbered checks).
 *
 * A checker context walks the plan once per check, in the numbered order, so
 * the messages come out grouped by check and, within a check, in entry or
 * tensor order. Check 7 is a sweep over instructions: the tensors live at the
 * current instruction are kept ordered by offset in a 64-ary bitset tree over
 * the compressed offsets; the live tensors of one pool are pairwise disjoint
 * in bytes, so a newcomer overlaps some live tensor of its pool iff it
 * overlaps its predecessor or its successor by offset (when in its pool). A
 * newcomer that overlaps is reported and left out, so each pool stays disjoint.
 * Sorts are stable radix sorts (ties by index), so the whole check is
 * O(n log n) at worst and deterministic.
 */
#include "oracle/check.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
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

bool abo_verdict_packs(abo_verdict v) {
    return v == ABO_OK || v == ABO_OVER_CAPACITY;
}

/* ---- the checker context ---------------------------------------------------- */

typedef struct checker {
    const ab_problem *p;
    const ab_plan *plan;
    abo_report *r;
    size_t *entry_of;  /* per tensor: the first entry placing it, or AB_NO_TENSOR */
    int64_t *off;      /* per placed tensor: the offset of that entry */
    bool *has_range;   /* per tensor: placed and offset + size fits in int64 */
    int64_t base[AB_MAX_POOLS]; /* where each pool starts in the joint address space */
    int64_t held[AB_MAX_POOLS], held_at[AB_MAX_POOLS]; /* check 7, per pool (sweep_pool):
                              the most bytes (at offsets >= 0) its disjoint live tensors
                              held at one instruction, and the first such instruction */
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
            c->off[e->tensor] = e->offset;
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

/* ---- checks 4 to 6: each placed tensor ------------------------------------ */

/* Where joint offset off lies: its pool in *k (AB_NO_POOL when in none) and
 * the offset within that pool; past the last pool, the offset from the last
 * pool's base (where its bytes count); off itself when negative. */
static int64_t in_pool(const checker *c, int64_t off, size_t *k) {
    *k = ab_pool_find(c->p, off);
    if (*k != AB_NO_POOL) return off - c->base[*k < AB_MAX_POOLS ? *k : 0];
    return off >= 0 && c->p->npools > 0 ? off - c->base[c->p->npools - 1] : off;
}

/* The pool whose tensors check 7 compares a tensor at joint offset off with:
 * its own; the last one past the last pool, the first at a negative offset.
 * It never falls as off rises, so the pools are runs of the offset order. */
static size_t sweep_pool(const checker *c, int64_t off) {
    size_t k = ab_pool_find(c->p, off);
    return k != AB_NO_POOL ? k : off < 0 || c->p->npools == 0 ? 0 : c->p->npools - 1;
}

/* Check 4: offsets are >= 0 and multiples of the tensor's align (with pools:
 * offsets within the tensor's pool). */
static void check_aligned(checker *c) {
    char buf[NAME_SHOW + 4];
    for (size_t i = 0; i < c->p->n; i++) {
        if (c->entry_of[i] == AB_NO_TENSOR) continue;
        int64_t off = c->off[i], align = c->p->t[i].align;
        size_t k;
        int64_t rel = in_pool(c, off, &k);
        if (off < 0)
            note(c, ABO_MISALIGNED, "'%s' offset %" PRId64 " is negative", tname(c, i, buf), off);
        else if (rel % align != 0 && k == AB_NO_POOL)
            note(c, ABO_MISALIGNED,
                 "'%s' offset %" PRId64 " from the last pool '%s' (past its end) is not a "
                 "multiple of its align %" PRId64,
                 tname(c, i, buf), rel, ab_pool_name(c->p, c->p->npools - 1), align);
        else if (rel % align != 0 && c->p->npools > 0)
            note(c, ABO_MISALIGNED,
                 "'%s' offset %" PRId64 " in pool '%s' is not a multiple of its align %" PRId64,
                 tname(c, i, buf), rel, ab_pool_name(c->p, k), align);
        else if (rel % align != 0)
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
        int64_t off = c->off[i];
        if (off != fixed)
            note(c, ABO_FIXED_MOVED,
                 "'%s' must be at %" PRId64 " (fixed), plan puts it at %" PRId64,
                 tname(c, i, buf), fixed, off);
    }
}

/* Check 6: offset + size fits in int64. Fills has_range, and the arena (over
 * the placed tensors whose end is defined, never below 0; with pools, each
 * pool's used bytes over the tensors in it, summed, where a tensor past the
 * last pool counts in the last pool from its base: every byte a tensor at a
 * non-negative offset holds is in the arena, so a plan found otherwise valid
 * never has an arena below the max-load bound). */
static void check_overflow(checker *c) {
    char buf[NAME_SHOW + 4];
    for (size_t i = 0; i < c->p->n; i++) {
        if (c->entry_of[i] == AB_NO_TENSOR) continue;
        int64_t off = c->off[i], size = c->p->t[i].size, end;
        if (ab_add_ovf(off, size, &end)) {
            note(c, ABO_OVERFLOW, "'%s' offset %" PRId64 " + size %" PRId64 " overflows 64 bits",
                 tname(c, i, buf), off, size);
            continue;
        }
        c->has_range[i] = true;
        size_t k;
        int64_t rel = in_pool(c, off, &k);
        if (c->p->npools == 0) {
            if (end > c->r->arena) c->r->arena = end;
        } else if (off >= 0) {
            if (k == AB_NO_POOL) k = c->p->npools - 1; /* past the last pool: counts in it */
            if (rel + size > c->r->pool_used[k]) c->r->pool_used[k] = rel + size;
        }
    }
    for (size_t k = 0; k < c->p->npools; k++) { /* past 64 bits (over its pools): the most */
        int64_t sum;
        c->r->arena = ab_add_ovf(c->r->arena, c->r->pool_used[k], &sum) ? INT64_MAX : sum;
    }
}

/* ---- check 7: the sweep --------------------------------------------------- */

/* A sort record: a key and the tensor index that breaks ties. */
typedef struct keyed {
    int64_t key;
    size_t idx;
} keyed;

#define RADIX_BITS 11
#define RADIX_SIZE ((size_t)1 << RADIX_BITS)

/* Sorts v[0 .. m) by key, ties by idx, given v in increasing idx order: an LSD
 * radix sort (stable, so ties keep idx order) over RADIX_BITS-bit digits of
 * the key with its sign bit flipped, skipping digits every key shares.
 * tmp holds m records; count holds RADIX_SIZE + 1 counters. */
static void radix_sort(keyed *v, keyed *tmp, size_t *count, size_t m) {
    const uint64_t flip = (uint64_t)1 << 63;
    uint64_t differ = 0;
    for (size_t i = 1; i < m; i++) differ |= (uint64_t)v[i].key ^ (uint64_t)v[0].key;
    keyed *src = v, *dst = tmp;
    for (unsigned shift = 0; shift < 64; shift += RADIX_BITS) {
        if (((differ >> shift) & (RADIX_SIZE - 1)) == 0) continue;
        memset(count, 0, (RADIX_SIZE + 1) * sizeof *count);
        for (size_t i = 0; i < m; i++)
            count[((((uint64_t)src[i].key ^ flip) >> shift) & (RADIX_SIZE - 1)) + 1]++;
        for (size_t d = 1; d <= RADIX_SIZE; d++) count[d] += count[d - 1];
        for (size_t i = 0; i < m; i++)
            dst[count[(((uint64_t)src[i].key ^ flip) >> shift) & (RADIX_SIZE - 1)]++] = src[i];
        keyed *t = src;
        src = dst;
        dst = t;
    }
    if (src != v) memcpy(v, src, m * sizeof *v);
}

/* ---- the live set: a 64-ary bitset tree over offset slots -----------------
 * The offsets of the swept tensors, sorted and deduplicated, are numbered
 * 0 .. nslots-1 (slots). The live set holds at most one tensor per slot (live
 * tensors of one pool are disjoint, and one offset lies in one pool). Level 0 has one bit per slot;
 * bit w of level k+1 says word w of level k is not zero. Predecessor and
 * successor take O(log64 nslots) word operations, and level 0 is nslots / 8
 * bytes, so the walks stay in the cache. */

#define NIL SIZE_MAX
#define MAX_LEVELS 12 /* 64^11 > 2^64 */

typedef struct bitset {
    uint64_t *words;            /* every level, one allocation */
    uint64_t *lv[MAX_LEVELS];   /* level k's words, inside words */
    size_t nwords[MAX_LEVELS];
    int depth;
} bitset;

/* Sizes and allocates b for nbits >= 1 bits, all clear; false on OOM. */
static bool bits_init(bitset *b, size_t nbits) {
    size_t total = 0, bits = nbits;
    b->depth = 0;
    do {
        size_t w = bits / 64 + (bits % 64 != 0);
        b->nwords[b->depth++] = w;
        total += w;
        bits = w;
    } while (bits > 1);
    b->words = ab_calloc(total, sizeof *b->words);
    if (b->words == NULL) return false;
    uint64_t *at = b->words;
    for (int k = 0; k < b->depth; k++) {
        b->lv[k] = at;
        at += b->nwords[k];
    }
    return true;
}

static void bits_set(bitset *b, size_t pos) {
    for (int k = 0; k < b->depth; k++, pos >>= 6) {
        uint64_t *w = &b->lv[k][pos >> 6];
        bool was_empty = *w == 0;
        *w |= (uint64_t)1 << (pos & 63);
        if (!was_empty) return;
    }
}

static void bits_clear(bitset *b, size_t pos) {
    for (int k = 0; k < b->depth; k++, pos >>= 6) {
        uint64_t *w = &b->lv[k][pos >> 6];
        *w &= ~((uint64_t)1 << (pos & 63));
        if (*w != 0) return;
    }
}

/* The largest set position <= pos, or NIL. */
static size_t bits_pred(const bitset *b, size_t pos) {
    int k = 0;
    for (;;) {
        size_t w = pos >> 6;
        unsigned bit = pos & 63;
        uint64_t word = b->lv[k][w] & (bit == 63 ? ~(uint64_t)0 : ((uint64_t)2 << bit) - 1);
        if (word != 0) {
            pos = (w << 6) + 63 - (size_t)__builtin_clzll(word);
            break;
        }
        if (w == 0 || k + 1 == b->depth) return NIL;
        pos = w - 1;
        k++;
    }
    for (; k > 0; k--) pos = (pos << 6) + 63 - (size_t)__builtin_clzll(b->lv[k - 1][pos]);
    return pos;
}

/* The smallest set position >= pos, or NIL. */
static size_t bits_succ(const bitset *b, size_t pos) {
    int k = 0;
    for (;;) {
        size_t w = pos >> 6;
        if (w >= b->nwords[k]) return NIL;
        uint64_t word = b->lv[k][w] & (~(uint64_t)0 << (pos & 63));
        if (word != 0) {
            pos = (w << 6) + (size_t)__builtin_ctzll(word);
            break;
        }
        if (++k == b->depth) return NIL;
        pos = w + 1;
    }
    for (; k > 0; k--) pos = (pos << 6) + (size_t)__builtin_ctzll(b->lv[k - 1][pos]);
    return pos;
}

/* ---- check 7: the sweep --------------------------------------------------- */

/* One tensor of the sweep, stored in sweep (start) order. */
typedef struct node {
    int64_t off, end; /* its bytes [off, end) */
    size_t tensor;    /* its index in the problem */
    size_t slot;      /* its offset's slot */
    size_t pool;      /* the pool it is compared in (sweep_pool) */
} node;

/* The working arrays of the sweep over the m tensors that have a byte range. */
typedef struct sweep {
    size_t m, nslots;
    keyed *by_start;   /* (start, tensor), sorted: the sweep order */
    keyed *by_end;     /* (end, position in the sweep order), sorted */
    node *nodes;       /* nodes[j]: the tensor at position j of the sweep order */
    int64_t *slot_off; /* per slot: its offset */
    size_t *slot_node; /* per slot: the live node there, or NIL */
    bitset live;       /* the slots holding a live node */
} sweep;

static void sweep_free(sweep *s) {
    ab_free(s->by_start);
    ab_free(s->by_end);
    ab_free(s->nodes);
    ab_free(s->slot_off);
    ab_free(s->slot_node);
    ab_free(s->live.words);
}

/* Numbers the distinct offsets of the nodes (by_off is scratch of m records)
 * and fills each node's slot, slot_off and slot_node; false on OOM. */
static bool sweep_slots(sweep *s, keyed *by_off, keyed *tmp, size_t *count) {
    size_t m = s->m;
    for (size_t j = 0; j < m; j++) by_off[j] = (keyed){s->nodes[j].off, j};
    radix_sort(by_off, tmp, count, m);
    s->slot_off = ab_alloc_array(m, sizeof *s->slot_off);
    s->slot_node = ab_alloc_array(m, sizeof *s->slot_node);
    if (s->slot_off == NULL || s->slot_node == NULL) return false;
    size_t nslots = 0;
    for (size_t k = 0; k < m; k++) {
        if (k == 0 || by_off[k].key != by_off[k - 1].key) {
            s->slot_off[nslots] = by_off[k].key;
            s->slot_node[nslots] = NIL;
            nslots++;
        }
        s->nodes[by_off[k].idx].slot = nslots - 1;
    }
    s->nslots = nslots;
    return bits_init(&s->live, nslots);
}

/* Allocates, fills and sorts the sweep's arrays; false on OOM (s then owns
 * what it got). */
static bool sweep_init(const checker *c, sweep *s) {
    const ab_problem *p = c->p;
    size_t m = 0;
    for (size_t i = 0; i < p->n; i++) m += c->has_range[i];
    s->m = m;
    if (m == 0) return true;
    s->by_start = ab_alloc_array(m, sizeof *s->by_start);
    s->by_end = ab_alloc_array(m, sizeof *s->by_end);
    s->nodes = ab_alloc_array(m, sizeof *s->nodes);
    keyed *tmp = ab_alloc_array(m, sizeof *tmp);
    keyed *by_off = ab_alloc_array(m, sizeof *by_off);
    size_t *count = ab_alloc_array(RADIX_SIZE + 1, sizeof *count);
    bool ok = s->by_start && s->by_end && s->nodes && tmp && by_off && count;
    if (ok) {
        size_t j = 0;
        for (size_t i = 0; i < p->n; i++)
            if (c->has_range[i]) s->by_start[j++] = (keyed){p->t[i].start, i};
        radix_sort(s->by_start, tmp, count, m);
        for (j = 0; j < m; j++) {
            size_t i = s->by_start[j].idx;
            s->nodes[j] = (node){.off = c->off[i], .end = c->off[i] + p->t[i].size, .tensor = i,
                                 .pool = sweep_pool(c, c->off[i])};
            s->by_end[j] = (keyed){p->t[i].end, j};
        }
        radix_sort(s->by_end, tmp, count, m);
        ok = sweep_slots(s, by_off, tmp, count);
    }
    ab_free(tmp);
    ab_free(by_off);
    ab_free(count);
    return ok;
}

/* Reports that tensors x and y (both live at instruction t) share bytes. */
static void report_overlap(checker *c, size_t x, size_t y, int64_t t) {
    size_t a = x, b = y;
    if (c->off[y] < c->off[x] || (c->off[y] == c->off[x] && y < x)) a = y, b = x;
    int64_t oa = c->off[a], ob = c->off[b];
    int64_t ea = oa + c->p->t[a].size, eb = ob + c->p->t[b].size;
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

/* The live node of x's pool whose bytes node x would share, or NIL: the
 * lowest by offset. Tensors of different pools never share a byte, though
 * one running past its pool's end reaches into the next one's window (check
 * 8 reports that). The live set is disjoint within each pool, and each pool
 * is a run of the offset order, so it is x's predecessor (the live node at
 * the last slot <= x's) or else its successor (at the first slot above),
 * when that node is in x's pool. */
static size_t first_clash(const sweep *s, size_t x) {
    const node *nx = &s->nodes[x];
    size_t pred = bits_pred(&s->live, nx->slot);
    if (pred != NIL) {
        const node *np = &s->nodes[s->slot_node[pred]];
        if (np->pool == nx->pool && np->end > nx->off) return s->slot_node[pred];
    }
    size_t succ = nx->slot + 1 < s->nslots ? bits_succ(&s->live, nx->slot + 1) : NIL;
    if (succ != NIL && s->nodes[s->slot_node[succ]].pool == nx->pool && s->slot_off[succ] < nx->end)
        return s->slot_node[succ];
    return NIL;
}

/* Check 7: no two conflicting tensors share a byte. Tensors enter the live set
 * by start (ties by index) after every tensor ending before that start left;
 * one that would share bytes is reported and stays out. */
static ab_status check_overlaps(checker *c) {
    sweep s = {0};
    if (!sweep_init(c, &s)) {
        sweep_free(&s);
        return AB_ENOMEM;
    }
    size_t e = 0;
    int64_t held[AB_MAX_POOLS] = {0}; /* per pool: bytes at offsets >= 0 of its live
                                         tensors (disjoint: no overflow) */
    for (size_t j = 0; j < s.m; j++) {
        int64_t t = s.by_start[j].key;
        for (; e < s.m && s.by_end[e].key < t; e++) {
            size_t gone = s.by_end[e].idx, slot = s.nodes[gone].slot;
            if (s.slot_node[slot] != gone) continue; /* it never entered */
            s.slot_node[slot] = NIL;
            bits_clear(&s.live, slot);
            if (s.nodes[gone].off >= 0)
                held[s.nodes[gone].pool] -= s.nodes[gone].end - s.nodes[gone].off;
        }
        size_t clash = first_clash(&s, j);
        if (clash != NIL) {
            report_overlap(c, s.nodes[clash].tensor, s.nodes[j].tensor, t);
            continue;
        }
        s.slot_node[s.nodes[j].slot] = j;
        bits_set(&s.live, s.nodes[j].slot);
        size_t k = s.nodes[j].pool;
        if (s.nodes[j].off >= 0) held[k] += s.nodes[j].end - s.nodes[j].off;
        if (held[k] > c->held[k]) {
            c->held[k] = held[k];
            c->held_at[k] = t;
        }
    }
    sweep_free(&s);
    return AB_OK;
}

/* ---- check 8 and the entry point ------------------------------------------ */

/* Check 8, pools: every tensor with a byte range lies within one pool. */
static void check_pools(checker *c) {
    const ab_problem *p = c->p;
    char buf[NAME_SHOW + 4];
    for (size_t i = 0; p->npools > 0 && i < p->n; i++) {
        if (!c->has_range[i] || c->off[i] < 0) continue;
        size_t k;
        int64_t rel = in_pool(c, c->off[i], &k), size = p->t[i].size;
        if (k == AB_NO_POOL) {
            const ab_pool *last = &p->pools[p->npools - 1];
            note(c, ABO_OVER_CAPACITY,
                 "'%s' offset %" PRId64 " lies past the last pool '%s' (the pools end at %" PRId64
                 ")",
                 tname(c, i, buf), c->off[i], last->name, c->base[p->npools - 1] + last->size);
        } else if (p->pools[k].size != AB_NONE && rel + size > p->pools[k].size) {
            note(c, ABO_OVER_CAPACITY,
                 "'%s' [%" PRId64 ", %" PRId64 ") in pool '%s' runs past its size %" PRId64,
                 tname(c, i, buf), rel, rel + size, p->pools[k].name, p->pools[k].size);
        }
    }
}

/* Check 8: the arena fits the capacity, when one is set (then the pools). */
static void check_capacity(checker *c) {
    check_pools(c);
    if (c->p->capacity != AB_NONE && c->r->arena > c->p->capacity)
        note(c, ABO_OVER_CAPACITY, "arena %" PRId64 " exceeds capacity %" PRId64, c->r->arena,
             c->p->capacity);
}

/* AB_OK when every tensor of p is well formed for the checks, else AB_EINPUT. */
static ab_status problem_sane(const ab_problem *p, ab_error *err) {
    if (p->npools > AB_MAX_POOLS)
        return ab_fail(err, AB_EINPUT, "the suite has %zu pools; at most %d are supported",
                       p->npools, AB_MAX_POOLS);
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
    r->npools = p->npools;
    for (size_t k = 0; k < p->npools; k++) c.base[k] = ab_pool_base(p, k);
    size_t n = p->n ? p->n : 1;
    c.entry_of = ab_alloc_array(n, sizeof *c.entry_of);
    c.off = ab_alloc_array(n, sizeof *c.off);
    c.has_range = ab_calloc(n, sizeof *c.has_range);
    st = AB_ENOMEM;
    if (c.entry_of && c.off && c.has_range) {
        for (size_t i = 0; i < p->n; i++) c.entry_of[i] = AB_NO_TENSOR;
        check_unknown(&c);
        check_duplicates(&c);
        check_missing(&c);
        check_aligned(&c);
        check_fixed(&c);
        check_overflow(&c);
        st = check_overlaps(&c);
        check_capacity(&c);
        /* A pool's used bytes (the arena without pools) count every byte of
         * its tensors at offsets >= 0, and the tensors check 7 let in are
         * disjoint within each pool, so the bytes they hold there at one
         * instruction never exceed them. Should they, the arena is miscounted
         * (a published arena would fall below the max-load bound): no verdict. */
        for (size_t k = 0; st == AB_OK && k < (p->npools ? p->npools : 1); k++) {
            int64_t used = p->npools ? r->pool_used[k] : r->arena;
            if (c.held[k] > used)
                st = ab_fail(err, AB_EINTERNAL,
                             "the checker's %" PRId64 " bytes used in '%s' are below the %" PRId64
                             " bytes its disjoint tensors hold there at instruction %" PRId64,
                             used, ab_pool_name(p, k), c.held[k], c.held_at[k]);
        }
    }
    ab_free(c.entry_of);
    ab_free(c.off);
    ab_free(c.has_range);
    if (st != AB_OK) {
        report_reset(r);
        return st == AB_ENOMEM ? ab_fail(err, st, "out of memory checking a plan of %zu tensors",
                                         p->n)
                               : st;
    }
    r->verdict = ABO_OK;
    for (int v = ABO_NVERDICTS - 1; v > ABO_OK; v--)
        if (c.failed[v]) r->verdict = (abo_verdict)v;
    return AB_OK;
}
