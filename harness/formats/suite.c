/*
 * suite.c — suite YAML files (DESIGN.md §3, schema in suite.h): the loader and
 * the writer.
 *
 * The loader streams. libyaml's event API feeds a small recursive-descent
 * reader that checks every value where it stands and appends each tensor to
 * the problem as soon as its mapping closes, so a load holds the file text and
 * the problem, never a document tree. libyaml allocates per token and per
 * event, which made most of the time of a large load (a million one-line
 * tensors: 1.6 s); text of the writer's kind is read by a fast path instead
 * ("the fast path" below: the same events, 0.5 s), and anything else, or any
 * error, goes through libyaml, which makes every message.
 *
 * Anchors and aliases are supported. An anchored node's events are recorded
 * (an anchor nested in another is recorded once and referenced from the outer
 * one), an alias replays them, and every node an alias stands for is counted
 * against the alias budget (formats.h's input budgets), checked when the
 * alias is met, before anything is copied. When the text holds a '*' and a '&'
 * a first pass does only that counting, so an alias bomb is reported as one
 * even where the schema would have stopped the reader first. The other budgets:
 * the file's size (before reading it), the nesting depth (as each collection
 * opens, so libyaml, whose cost grows with the square of the depth, never
 * goes deep) and the tensor count (as each tensor is added). A replayed node keeps the place of the anchored original, so
 * an error inside it names that place. Merge keys ('<<') are not supported.
 *
 * Checks, in the order the reader meets them:
 *   1. YAML syntax (libyaml's problem, at its mark), aliases and their budget;
 *   2. shape of the document: one document, a mapping at the top, `tensors` a
 *      sequence of mappings, `expect` a mapping, `shape` a sequence;
 *   3. keys: known ones only (with a near known key suggested: core/suggest.h), no key
 *      twice in one mapping;
 *   4. each value: integers are unquoted decimal in range, alignments powers
 *      of two, strings non-empty, enums one of their words, dtypes known;
 *   5. each tensor when it closes: required keys, shape and dtype together,
 *      shape x dtype within range and within `size`, start <= end, a fixed
 *      offset a multiple of an explicit align;
 *   6. the suite when it closes: `suite` and `tensors` present, default align
 *      applied and fixed offsets checked against it, names unique, expected
 *      lower bound <= expected optimum.
 * The first failure stops the load; its message reads
 * "FILE:LINE:COLUMN: FIELD: what was expected, got 'what was there'".
 */
#include "harness/formats/suite.h"
#include "harness/formats/formats.h"

#include "core/file.h"
#include "core/suggest.h"
#include "harness/formats/gen.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "planners/planner.h"

#define MAX_DIMS 32           /* dimensions in a shape */
#define SHOW_MAX 40           /* characters of a value quoted in a message */

#define TRY(expr)                                                                                  \
    do {                                                                                           \
        ab_status try_st_ = (expr);                                                                \
        if (try_st_ != AB_OK) return try_st_;                                                      \
    } while (0)

/* ==== events ================================================================
 * What the reader sees: libyaml's events, reduced to what the schema needs,
 * coming either from the parser or from a recording replayed by an alias. */

typedef struct mk {
    int line, col; /* 1-based */
} mk;

typedef enum evk {
    EV_STREAM_END,
    EV_DOC_START,
    EV_DOC_END,
    EV_SCALAR,
    EV_SEQ,
    EV_SEQ_END,
    EV_MAP,
    EV_MAP_END,
    EV_REF /* in recordings only: "here comes recording `ref`" */
} evk;

typedef struct ev {
    evk kind;
    bool plain;       /* scalar: unquoted and untagged (or tagged !!int) */
    mk at;            /* where the node starts */
    const char *text; /* scalar: NUL-terminated, valid until the next event */
    size_t len;
    size_t ref; /* EV_REF: index of the recording */
} ev;

/* The events of one anchored node. */
typedef struct rec {
    ev *v; /* owned, and so are the texts of its scalars */
    size_t n, cap;
    long size; /* nodes it expands to, saturating */
} rec;

/* A recording in progress: its anchor and the depth it started at. */
typedef struct act {
    size_t rec;
    int depth;
    char *anchor; /* owned */
} act;

/* A replay in progress. */
typedef struct frame {
    size_t rec, pos;
} frame;

/* A slot of the anchor table (open addressing; name NULL when empty). */
typedef struct anchor {
    char *name; /* owned */
    size_t rec;
} anchor;

typedef struct src {
    yaml_parser_t yp;
    yaml_event_t ye;
    bool have_ye;
    bool store; /* false in the counting pass: sizes only, no events, no replay */
    bool bomb;  /* a budget ran out (alias expansion, nesting depth) */
    abf_limits lim;
    const char *file;
    const char *buf;
    size_t len;
    ab_error *err;
    rec *recs;
    size_t nrecs, caprecs;
    act *acts;
    size_t nacts, capacts;
    frame *frames;
    size_t nframes, capframes;
    anchor *anchors;
    size_t nanchors, capanchors; /* capanchors: 0 or a power of two */
    int depth;                   /* open collections from the parser */
    long expanded;               /* nodes replayed by aliases so far */
    struct fast *fast;           /* events from the fast path, not libyaml (owned) */
} src;

/* ---- messages ------------------------------------------------------------ */

static ab_status vfail_at(ab_error *err, const char *file, mk at, const char *field,
                          const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

static ab_status vfail_at(ab_error *err, const char *file, mk at, const char *field,
                          const char *fmt, va_list ap) {
    char what[AB_ERROR_MAX];
    vsnprintf(what, sizeof what, fmt, ap);
    return ab_fail(err, AB_EINPUT, "%s:%d:%d: %s: %s", file, at.line, at.col, field, what);
}

static ab_status src_fail(src *s, mk at, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static ab_status src_fail(src *s, mk at, const char *field, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ab_status st = vfail_at(s->err, s->file, at, field, fmt, ap);
    va_end(ap);
    return st;
}

static ab_status nomem(ab_error *err, const char *file) {
    return ab_fail(err, AB_ENOMEM, "%s: out of memory while loading the suite", file);
}

static mk mark_of(yaml_mark_t m) { return (mk){(int)m.line + 1, (int)m.column + 1}; }

/* Line and column of byte offset off in the text (for reader errors, which
 * libyaml reports by offset). */
static mk mark_at_offset(const char *buf, size_t len, size_t off) {
    mk at = {1, 1};
    for (size_t i = 0; i < off && i < len; i++) {
        if (buf[i] == '\n') {
            at.line++;
            at.col = 1;
        } else {
            at.col++;
        }
    }
    return at;
}

static ab_status syntax_error(src *s) {
    yaml_parser_t *y = &s->yp;
    if (y->error == YAML_MEMORY_ERROR) return nomem(s->err, s->file);
    const char *problem = y->problem ? y->problem : "malformed YAML";
    if (y->error == YAML_READER_ERROR)
        return src_fail(s, mark_at_offset(s->buf, s->len, y->problem_offset), "YAML syntax error",
                        "%s (byte 0x%02x)", problem, (unsigned)y->problem_value & 0xffu);
    if (y->context == NULL)
        return src_fail(s, mark_of(y->problem_mark), "YAML syntax error", "%s", problem);
    mk c = mark_of(y->context_mark);
    return src_fail(s, mark_of(y->problem_mark), "YAML syntax error",
                    "%s (%s at line %d, column %d)", problem, y->context, c.line, c.col);
}

/* ---- recordings ----------------------------------------------------------- */

static long sat_add(long a, long b) { return a > LONG_MAX - b ? LONG_MAX : a + b; }

static bool new_rec(src *s, size_t *r) {
    if (!ab_grow((void **)&s->recs, &s->caprecs, s->nrecs + 1, sizeof *s->recs)) return false;
    s->recs[s->nrecs] = (rec){0};
    *r = s->nrecs++;
    return true;
}

/* Appends e to recording r (a copy, with its text, when storing). */
static bool rec_append(src *s, size_t r, const ev *e) {
    rec *R = &s->recs[r];
    bool node = e->kind == EV_SCALAR || e->kind == EV_SEQ || e->kind == EV_MAP;
    if (node) R->size = sat_add(R->size, 1);
    if (!s->store) return true;
    if (!ab_grow((void **)&R->v, &R->cap, R->n + 1, sizeof *R->v)) return false;
    ev c = *e;
    if (c.kind == EV_SCALAR) {
        char *t = ab_strndup(e->text, e->len);
        if (t == NULL) return false;
        c.text = t;
    }
    R->v[R->n++] = c;
    return true;
}

static void rec_free(rec *R) {
    for (size_t i = 0; i < R->n; i++)
        if (R->v[i].kind == EV_SCALAR) ab_free((char *)R->v[i].text);
    ab_free(R->v);
}

/* ---- the anchor table ------------------------------------------------------ */

static anchor *anchor_slot(anchor *tab, size_t cap, const char *name) {
    int bits = 1;
    while (((size_t)1 << bits) < cap) bits++; /* cap is a power of two, at least 64 */
    size_t i = ab_hash_slot(ab_fnv1a(AB_FNV_OFFSET, name, strlen(name)), bits);
    while (tab[i].name != NULL && strcmp(tab[i].name, name) != 0) i = (i + 1) & (cap - 1);
    return &tab[i];
}

static bool anchors_grow(src *s) {
    size_t cap = s->capanchors ? s->capanchors * 2 : 64;
    anchor *tab = ab_calloc(cap, sizeof *tab);
    if (tab == NULL) return false;
    for (size_t i = 0; i < s->capanchors; i++)
        if (s->anchors[i].name != NULL) *anchor_slot(tab, cap, s->anchors[i].name) = s->anchors[i];
    ab_free(s->anchors);
    s->anchors = tab;
    s->capanchors = cap;
    return true;
}

/* Binds name (owned by the table from now on, even on failure) to recording r;
 * a later anchor of the same name replaces an earlier one, as in YAML. */
static bool anchor_set(src *s, char *name, size_t r) {
    if (2 * (s->nanchors + 1) > s->capanchors && !anchors_grow(s)) {
        ab_free(name);
        return false;
    }
    anchor *a = anchor_slot(s->anchors, s->capanchors, name);
    if (a->name != NULL) {
        ab_free(name);
    } else {
        a->name = name;
        s->nanchors++;
    }
    a->rec = r;
    return true;
}

static const anchor *anchor_find(const src *s, const char *name) {
    if (s->capanchors == 0) return NULL;
    const anchor *a = anchor_slot(s->anchors, s->capanchors, name);
    return a->name != NULL ? a : NULL;
}

/* ---- anchors, aliases, replay ---------------------------------------------- */

/* Starts recording a node anchored as name; the enclosing recording, if any,
 * gets a reference to it. */
static ab_status rec_start(src *s, const char *name) {
    size_t r;
    if (!new_rec(s, &r)) return nomem(s->err, s->file);
    if (s->nacts > 0) {
        ev ref = {.kind = EV_REF, .ref = r};
        if (!rec_append(s, s->acts[s->nacts - 1].rec, &ref)) return nomem(s->err, s->file);
    }
    if (!ab_grow((void **)&s->acts, &s->capacts, s->nacts + 1, sizeof *s->acts))
        return nomem(s->err, s->file);
    char *copy = ab_strdup(name);
    if (copy == NULL) return nomem(s->err, s->file);
    s->acts[s->nacts++] = (act){r, s->depth, copy};
    return AB_OK;
}

/* Closes the innermost recording: its anchor becomes usable and its size
 * counts in the enclosing one. */
static ab_status rec_finish(src *s) {
    act a = s->acts[--s->nacts];
    if (s->nacts > 0) {
        rec *outer = &s->recs[s->acts[s->nacts - 1].rec];
        outer->size = sat_add(outer->size, s->recs[a.rec].size);
    }
    if (!anchor_set(s, a.anchor, a.rec)) return nomem(s->err, s->file);
    return AB_OK;
}

/* Handles a node event from the parser: recording, anchors, depth. */
static ab_status on_node(src *s, const ev *e, const yaml_char_t *anchor_name) {
    if (anchor_name != NULL) TRY(rec_start(s, (const char *)anchor_name));
    if (s->nacts > 0 && !rec_append(s, s->acts[s->nacts - 1].rec, e)) return nomem(s->err, s->file);
    if ((e->kind == EV_SEQ || e->kind == EV_MAP) && ++s->depth > s->lim.depth) {
        s->bomb = true;
        return src_fail(s, e->at, "nesting",
                        "collections nested more than %" PRId64
                        " deep (the limit ARENABENCH_MAX_DEPTH)",
                        s->lim.depth);
    }
    if (e->kind == EV_SEQ_END || e->kind == EV_MAP_END) s->depth--;
    bool closes = e->kind == EV_SCALAR || e->kind == EV_SEQ_END || e->kind == EV_MAP_END;
    if (closes && s->nacts > 0 && s->acts[s->nacts - 1].depth == s->depth) TRY(rec_finish(s));
    return AB_OK;
}

/* An alias: charge its size to the budget, reference it from the recording in
 * progress, and (when storing) start replaying it. */
static ab_status on_alias(src *s, mk at, const char *name) {
    const anchor *a = anchor_find(s, name);
    if (a == NULL)
        return src_fail(s, at, "alias", "'*%s' names no anchor defined before it (expected '&%s')",
                        name, name);
    long size = s->recs[a->rec].size;
    s->expanded = sat_add(s->expanded, size);
    if (s->expanded > s->lim.alias_nodes) {
        s->bomb = true;
        return src_fail(s, at, "alias",
                        "'*%s': alias expansion exceeds a limit of %" PRId64
                        " nodes (ARENABENCH_MAX_ALIAS_NODES)",
                        name, s->lim.alias_nodes);
    }
    if (s->nacts > 0) {
        rec *outer = &s->recs[s->acts[s->nacts - 1].rec];
        ev ref = {.kind = EV_REF, .ref = a->rec};
        if (!rec_append(s, s->acts[s->nacts - 1].rec, &ref)) return nomem(s->err, s->file);
        outer->size = sat_add(outer->size, size);
    }
    if (!s->store) return AB_OK;
    if (!ab_grow((void **)&s->frames, &s->capframes, s->nframes + 1, sizeof *s->frames))
        return nomem(s->err, s->file);
    s->frames[s->nframes++] = (frame){a->rec, 0};
    return AB_OK;
}

/* The next replayed event into *e: 1 when there is one, 0 to look again,
 * -1 when out of memory. */
static int replay_next(src *s, ev *e) {
    frame *f = &s->frames[s->nframes - 1];
    const rec *R = &s->recs[f->rec];
    if (f->pos == R->n) {
        s->nframes--;
        return 0;
    }
    const ev *x = &R->v[f->pos++];
    if (x->kind != EV_REF) {
        *e = *x;
        return 1;
    }
    if (!ab_grow((void **)&s->frames, &s->capframes, s->nframes + 1, sizeof *s->frames)) return -1;
    s->frames[s->nframes++] = (frame){x->ref, 0};
    return 0;
}

/* ---- the fast path ------------------------------------------------------------
 * Most large suites are what the writer makes: a top-level block mapping of
 * one-line values, `tensors:` a block sequence of one-line flow mappings
 * (`- {name: t0, size: 64, start: 0, end: 1}`), plain or simply quoted
 * scalars, ASCII only. libyaml's scanner allocates a token and an event per
 * scalar, which is most of the time of a large load; this scanner reads that
 * subset line by line into the same events (same texts, same styles, same
 * places) with no allocation per scalar. It accepts only text whose events
 * are unambiguous; on anything else (anchors, tags, block scalars, multi-line
 * or nested block nodes, escapes, tabs, non-ASCII, a comment after a value,
 * ...) it gives up, and so does the whole fast load on any error at all: the
 * load is then made again through libyaml from the start, so every message
 * (and every rejection) is libyaml's path's, word for word. */

enum { FS_START, FS_TOP, FS_SEQ, FS_MAP, FS_DONE };

#define FAST_MAX_DEPTH 8       /* nested flow collections on one line */
#define FAST_MAX_EVENTS 65536  /* events of one line (a longer line goes to libyaml, which
                                  streams it instead of holding its events) */

/* The events of one line, their texts in txt (offsets in ev.ref until the
 * line is complete, then pointers). */
typedef struct fast {
    const char *p, *end; /* p: the start of the next line to read */
    int line;            /* 1-based line of p */
    int state, indent;   /* FS_*; the indentation of the open block node */
    ev *v;
    size_t n, pos, cap;
    char *txt;
    size_t tn, tcap;
    bool oom; /* an allocation failed (not a reason to give up) */
} fast;

/* The characters of the fast path's plain scalars: letters, digits, _./+=-~ */
static const bool fs_plain_table[256] = {
    ['_'] = true, ['.'] = true, ['/'] = true, ['+'] = true, ['='] = true, ['-'] = true,
    ['~'] = true,
    ['0'] = true, ['1'] = true, ['2'] = true, ['3'] = true, ['4'] = true, ['5'] = true,
    ['6'] = true, ['7'] = true, ['8'] = true, ['9'] = true,
    ['a'] = true, ['b'] = true, ['c'] = true, ['d'] = true, ['e'] = true, ['f'] = true,
    ['g'] = true, ['h'] = true, ['i'] = true, ['j'] = true, ['k'] = true, ['l'] = true,
    ['m'] = true, ['n'] = true, ['o'] = true, ['p'] = true, ['q'] = true, ['r'] = true,
    ['s'] = true, ['t'] = true, ['u'] = true, ['v'] = true, ['w'] = true, ['x'] = true,
    ['y'] = true, ['z'] = true,
    ['A'] = true, ['B'] = true, ['C'] = true, ['D'] = true, ['E'] = true, ['F'] = true,
    ['G'] = true, ['H'] = true, ['I'] = true, ['J'] = true, ['K'] = true, ['L'] = true,
    ['M'] = true, ['N'] = true, ['O'] = true, ['P'] = true, ['Q'] = true, ['R'] = true,
    ['S'] = true, ['T'] = true, ['U'] = true, ['V'] = true, ['W'] = true, ['X'] = true,
    ['Y'] = true, ['Z'] = true,
};

static bool fs_plain_char(unsigned char c) { return fs_plain_table[c]; }

static bool fs_alnum(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static bool fs_oom(fast *f) {
    f->oom = true;
    return false;
}

static bool fs_push(fast *f, evk kind, bool plain, int col, const char *text, size_t len) {
    if (f->n >= FAST_MAX_EVENTS) return false;
    if (!ab_grow((void **)&f->v, &f->cap, f->n + 1, sizeof *f->v)) return fs_oom(f);
    ev e = {.kind = kind, .plain = plain, .at = {f->line, col}};
    if (kind == EV_SCALAR) {
        if (!ab_grow((void **)&f->txt, &f->tcap, f->tn + len + 1, 1)) return fs_oom(f);
        e.ref = f->tn;
        e.len = len;
        if (text != NULL) memcpy(f->txt + f->tn, text, len);
        f->txt[f->tn + len] = '\0';
        f->tn += len + 1;
    }
    f->v[f->n++] = e;
    return true;
}

/* A line: where it starts and ends (at its '\n' or the end of the text). */
typedef struct fline {
    const char *s, *e, *c; /* start, end, cursor */
} fline;

static int fs_col(const fline *l) { return (int)(l->c - l->s) + 1; }

static void fs_spaces(fline *l) {
    while (l->c < l->e && *l->c == ' ') l->c++;
}

/* A scalar at l->c: plain (a conservative set of characters), '...' without
 * a line break, or "..." without escapes. */
static bool fs_scalar(fast *f, fline *l) {
    int col = fs_col(l);
    const char *c = l->c;
    if (c < l->e && (*c == '\'' || *c == '"')) {
        char q = *c++;
        size_t start = f->tn;
        if (!fs_push(f, EV_SCALAR, false, col, NULL, 0)) return false;
        f->tn = start; /* build the text in place */
        for (;;) {
            if (c >= l->e) return false;
            unsigned char ch = (unsigned char)*c;
            if (ch < 0x20 || ch >= 0x7f || (q == '"' && ch == '\\')) return false;
            if (ch == (unsigned char)q) {
                if (q == '\'' && c + 1 < l->e && c[1] == '\'') {
                    c++;
                } else {
                    c++;
                    break;
                }
            }
            if (!ab_grow((void **)&f->txt, &f->tcap, f->tn + 2, 1)) return fs_oom(f);
            f->txt[f->tn++] = (char)ch;
            c++;
        }
        f->v[f->n - 1].len = f->tn - start;
        f->txt[f->tn++] = '\0';
        l->c = c;
        return true;
    }
    if (c >= l->e || !fs_plain_char((unsigned char)*c)) return false;
    if (*c == '-' && (c + 1 >= l->e || !fs_alnum((unsigned char)c[1]))) return false;
    while (c < l->e && fs_plain_char((unsigned char)*c)) c++;
    if (!fs_push(f, EV_SCALAR, true, col, l->c, (size_t)(c - l->c))) return false;
    l->c = c;
    return true;
}

static bool fs_node(fast *f, fline *l, int depth);

/* A flow collection at l->c ('{' or '['), on this line. */
static bool fs_flow(fast *f, fline *l, int depth) {
    bool map = *l->c == '{';
    char close = map ? '}' : ']';
    if (depth >= FAST_MAX_DEPTH) return false;
    if (!fs_push(f, map ? EV_MAP : EV_SEQ, false, fs_col(l), NULL, 0)) return false;
    l->c++;
    fs_spaces(l);
    if (l->c < l->e && *l->c == close) {
        l->c++;
        return fs_push(f, map ? EV_MAP_END : EV_SEQ_END, false, fs_col(l) - 1, NULL, 0);
    }
    for (;;) {
        if (map) {
            if (!fs_scalar(f, l)) return false;
            if (l->c + 1 >= l->e || l->c[0] != ':' || l->c[1] != ' ') return false;
            l->c += 2;
            fs_spaces(l);
        }
        if (!fs_node(f, l, depth + 1)) return false;
        fs_spaces(l);
        if (l->c >= l->e) return false;
        if (*l->c == close) {
            l->c++;
            return fs_push(f, map ? EV_MAP_END : EV_SEQ_END, false, fs_col(l) - 1, NULL, 0);
        }
        if (*l->c != ',') return false;
        l->c++;
        fs_spaces(l);
        if (l->c < l->e && (*l->c == '}' || *l->c == ']')) return false;
    }
}

static bool fs_node(fast *f, fline *l, int depth) {
    if (l->c < l->e && (*l->c == '{' || *l->c == '[')) return fs_flow(f, l, depth);
    return fs_scalar(f, l);
}

/* A one-line value from l->c to the end of the line (spaces after it only). */
static bool fs_value(fast *f, fline *l) {
    fs_spaces(l);
    if (!fs_node(f, l, 0)) return false;
    fs_spaces(l);
    return l->c == l->e;
}

/* A block key at l->c: plain, starting with a letter, digit or '_', then
 * ':' and a space or the end of the line. */
static bool fs_key(fast *f, fline *l) {
    unsigned char c0 = l->c < l->e ? (unsigned char)*l->c : 0;
    if (!(fs_alnum(c0) || c0 == '_')) return false;
    if (!fs_scalar(f, l)) return false;
    if (l->c >= l->e || *l->c != ':') return false;
    l->c++;
    return l->c == l->e || *l->c == ' ';
}

/* Skips blank and comment lines (checking their characters). The next line
 * with content into *l (its indentation in *indent); false at the end. */
static bool fs_next_line(fast *f, fline *l, int *indent, bool *bad) {
    while (f->p < f->end) {
        const char *s = f->p, *e = memchr(s, '\n', (size_t)(f->end - s));
        if (e == NULL) e = f->end;
        const char *c = s;
        while (c < e && *c == ' ') c++;
        if (c < e && *c != '#') {
            *l = (fline){s, e, c};
            *indent = (int)(c - s);
            return true;
        }
        for (; c < e; c++)
            if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f) {
                *bad = true;
                return false;
            }
        f->p = e < f->end ? e + 1 : e;
        f->line++;
    }
    return false;
}

static void fs_consume(fast *f, const fline *l) {
    f->p = l->e < f->end ? l->e + 1 : l->e;
    f->line++;
}

/* Reads lines until there are events for the reader; false to give up. */
static bool fast_fill(fast *f) {
    f->n = f->pos = f->tn = 0;
    while (f->n == 0) {
        fline l;
        int ind = 0;
        bool bad = false, more = f->state != FS_DONE && fs_next_line(f, &l, &ind, &bad);
        if (bad) return false;
        switch (f->state) {
        case FS_START:
            if (!more || ind != 0) return false;
            if (!fs_push(f, EV_DOC_START, false, 1, NULL, 0)) return false;
            if (!fs_push(f, EV_MAP, false, 1, NULL, 0)) return false;
            f->state = FS_TOP;
            break;
        case FS_TOP:
            if (!more) {
                if (!fs_push(f, EV_MAP_END, false, 1, NULL, 0) ||
                    !fs_push(f, EV_DOC_END, false, 1, NULL, 0) ||
                    !fs_push(f, EV_STREAM_END, false, 1, NULL, 0))
                    return false;
                f->state = FS_DONE;
                break;
            }
            if (ind != 0 || !fs_key(f, &l)) return false;
            fs_spaces(&l);
            if (l.c < l.e) {
                if (!fs_value(f, &l)) return false;
                fs_consume(f, &l);
                break;
            }
            fs_consume(f, &l);
            if (!fs_next_line(f, &l, &ind, &bad)) return false;
            f->indent = ind;
            if (l.c + 1 < l.e && l.c[0] == '-' && l.c[1] == ' ') {
                if (!fs_push(f, EV_SEQ, false, ind + 1, NULL, 0)) return false;
                f->state = FS_SEQ;
            } else if (ind > 0) {
                if (!fs_push(f, EV_MAP, false, ind + 1, NULL, 0)) return false;
                f->state = FS_MAP;
            } else {
                return false;
            }
            break;
        case FS_SEQ:
        case FS_MAP: {
            bool seq = f->state == FS_SEQ;
            if (!more || (ind == 0 && !(seq && f->indent == 0 && *l.c == '-'))) {
                if (!fs_push(f, seq ? EV_SEQ_END : EV_MAP_END, false, ind + 1, NULL, 0))
                    return false;
                f->state = FS_TOP;
                break;
            }
            if (ind != f->indent) return false;
            if (seq) {
                if (l.c + 1 >= l.e || l.c[0] != '-' || l.c[1] != ' ') return false;
                l.c += 2;
            } else if (!fs_key(f, &l)) {
                return false;
            }
            if (!fs_value(f, &l)) return false;
            fs_consume(f, &l);
            break;
        }
        default: return false;
        }
    }
    for (size_t i = 0; i < f->n; i++)
        if (f->v[i].kind == EV_SCALAR) f->v[i].text = f->txt + f->v[i].ref;
    return true;
}

/* ---- the source -------------------------------------------------------------- */

static ab_status src_init(src *s, const char *file, const char *buf, size_t len, bool store,
                          bool use_fast, const abf_limits *lim, ab_error *err) {
    *s = (src){.store = store, .file = file, .buf = buf, .len = len, .err = err, .lim = *lim};
    if (!yaml_parser_initialize(&s->yp)) return nomem(err, file);
    yaml_parser_set_input_string(&s->yp, (const unsigned char *)buf, len);
    if (use_fast) {
        if ((s->fast = ab_calloc(1, sizeof *s->fast)) == NULL) return nomem(err, file);
        *s->fast = (fast){.p = buf, .end = buf + len, .line = 1, .state = FS_START};
    }
    return AB_OK;
}

static void src_free(src *s) {
    if (s->have_ye) yaml_event_delete(&s->ye);
    yaml_parser_delete(&s->yp);
    for (size_t i = 0; i < s->nrecs; i++) rec_free(&s->recs[i]);
    ab_free(s->recs);
    for (size_t i = 0; i < s->nacts; i++) ab_free(s->acts[i].anchor);
    ab_free(s->acts);
    ab_free(s->frames);
    for (size_t i = 0; i < s->capanchors; i++) ab_free(s->anchors[i].name);
    ab_free(s->anchors);
    if (s->fast != NULL) {
        ab_free(s->fast->v);
        ab_free(s->fast->txt);
        ab_free(s->fast);
    }
}

static bool scalar_plain(const yaml_event_t *y) {
    const char *tag = (const char *)y->data.scalar.tag;
    bool untagged = tag == NULL || strcmp(tag, YAML_INT_TAG) == 0;
    return y->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && untagged;
}

/* Converts the parser's current event into *e; its anchor into *anchor_name. */
static void convert(const yaml_event_t *y, ev *e, const yaml_char_t **anchor_name) {
    *e = (ev){.at = mark_of(y->start_mark)};
    *anchor_name = NULL;
    switch (y->type) {
    case YAML_DOCUMENT_START_EVENT: e->kind = EV_DOC_START; break;
    case YAML_DOCUMENT_END_EVENT: e->kind = EV_DOC_END; break;
    case YAML_SEQUENCE_END_EVENT: e->kind = EV_SEQ_END; break;
    case YAML_MAPPING_END_EVENT: e->kind = EV_MAP_END; break;
    case YAML_SEQUENCE_START_EVENT:
        e->kind = EV_SEQ;
        *anchor_name = y->data.sequence_start.anchor;
        break;
    case YAML_MAPPING_START_EVENT:
        e->kind = EV_MAP;
        *anchor_name = y->data.mapping_start.anchor;
        break;
    case YAML_SCALAR_EVENT:
        e->kind = EV_SCALAR;
        e->text = (const char *)y->data.scalar.value;
        e->len = y->data.scalar.length;
        e->plain = scalar_plain(y);
        *anchor_name = y->data.scalar.anchor;
        break;
    default: e->kind = EV_STREAM_END; break;
    }
}

/* The fast path stops: the load is made again through libyaml. */
static ab_status give_up(src *s) {
    return ab_fail(s->err, AB_EINPUT, "%s: outside the fast path's subset", s->file);
}

/* The next event for the reader into *e (stream start and aliases are taken
 * care of here). *e stays valid until the next call. */
static ab_status src_next(src *s, ev *e) {
    fast *f = s->fast;
    if (f != NULL) {
        if (f->pos == f->n && !fast_fill(f)) return f->oom ? nomem(s->err, s->file) : give_up(s);
        *e = f->v[f->pos++];
        if (e->kind == EV_SEQ_END || e->kind == EV_MAP_END) s->depth--;
        if ((e->kind == EV_SEQ || e->kind == EV_MAP) && ++s->depth > s->lim.depth)
            return give_up(s); /* libyaml's load says where */
        return AB_OK;
    }
    for (;;) {
        if (s->nframes > 0) {
            int got = replay_next(s, e);
            if (got < 0) return nomem(s->err, s->file);
            if (got > 0) return AB_OK;
            continue;
        }
        if (s->have_ye) yaml_event_delete(&s->ye);
        s->have_ye = false;
        if (!yaml_parser_parse(&s->yp, &s->ye)) return syntax_error(s);
        s->have_ye = true;
        if (s->ye.type == YAML_STREAM_START_EVENT) continue;
        if (s->ye.type == YAML_ALIAS_EVENT) {
            TRY(on_alias(s, mark_of(s->ye.start_mark), (const char *)s->ye.data.alias.anchor));
            continue;
        }
        const yaml_char_t *anchor_name;
        convert(&s->ye, e, &anchor_name);
        if (e->kind == EV_STREAM_END || e->kind == EV_DOC_START || e->kind == EV_DOC_END)
            return AB_OK;
        return on_node(s, e, anchor_name);
    }
}

/* The counting pass: reads every event, replaying nothing, so an alias bomb
 * fails here whatever else is wrong. Only the bomb (or memory) is an error;
 * any other problem is left for the reading pass to report in its place. */
static ab_status count_aliases(const char *file, const char *buf, size_t len,
                               const abf_limits *lim, ab_error *err) {
    src s;
    ab_status st = src_init(&s, file, buf, len, false, false, lim, err);
    ev e = {.kind = EV_DOC_START};
    while (st == AB_OK && e.kind != EV_STREAM_END) st = src_next(&s, &e);
    if (st != AB_OK && !s.bomb && st != AB_ENOMEM) {
        ab_error_clear(err);
        st = AB_OK;
    }
    src_free(&s);
    return st;
}

/* ==== the reader ==============================================================
 * Recursive descent over the events, one function per mapping of the schema. */

enum {
    TOP_SUITE,
    TOP_DESCRIPTION,
    TOP_ALIGNMENT,
    TOP_IO,
    TOP_CAPACITY,
    TOP_POOLS,
    TOP_TENSORS,
    TOP_EXPECT,
    TOP_COUNT
};
static const char *const top_keys[TOP_COUNT] = {"suite",    "description", "alignment",
                                                "io",       "capacity",    "pools",
                                                "tensors",  "expect"};

enum {
    TK_NAME,
    TK_SIZE,
    TK_SHAPE,
    TK_DTYPE,
    TK_START,
    TK_END,
    TK_ALIGN,
    TK_KIND,
    TK_OFFSET,
    TK_STRIDE_ALIGN,
    TK_COUNT
};
static const char *const tensor_keys[TK_COUNT] = {"name", "size",  "shape", "dtype", "start",
                                                  "end",  "align", "kind",  "offset",
                                                  "stride_align"};

enum { EX_LOWER_BOUND, EX_OPTIMUM, EX_PEER_ARENA, EX_PEER_OFFSETS, EX_COUNT };
static const char *const expect_keys[EX_COUNT] = {"lower_bound", "optimum", "peer_arena",
                                                  "peer_offsets"};

enum { PK_NAME, PK_SIZE, PK_COUNT };
static const char *const pool_keys[PK_COUNT] = {"name", "size"};

static const char *const io_words[] = {"separate", "workspace"};
static const char *const kind_words[] = {"intermediate", "input", "output"};

/* Where a key's first occurrence and its value start in one mapping (of any
 * of the three key lists: the tensor's is the longest). */
_Static_assert((int)TOP_COUNT <= (int)TK_COUNT && (int)EX_COUNT <= (int)TK_COUNT &&
                   (int)PK_COUNT <= (int)TK_COUNT,
               "keyset");
typedef struct keyset {
    unsigned seen;
    mk key[TK_COUNT];
    mk val[TK_COUNT];
} keyset;

/* A tensor being read. */
typedef struct tin {
    size_t idx;
    mk at; /* its mapping */
    keyset ks;
    ab_tensor t; /* align 0 until the suite's default is known */
    int64_t shape[MAX_DIMS];
} tin;

/* Where a tensor's name and fixed offset were, for the checks made at the end. */
typedef struct tpos {
    mk name, offset;
} tpos;

typedef struct ld {
    src s;
    const char *file;
    ab_problem *p;
    ab_error *err;
    keyset top;
    mk top_at;
    tpos *pos; /* one per tensor (NULL on the fast path) */
    size_t pos_cap;
    char *name; /* the current tensor's name */
    size_t name_cap;
    size_t pools_cap;           /* allocated slots in p->pools */
    size_t peers_cap;           /* allocated slots in p->peers and peer_at */
    struct peer_pos *peer_at;   /* one per peer expectation */
    size_t peer_at_cap;
    size_t *peer_slot;          /* specs to peers: index + 1, 0 empty (open addressing) */
    int peer_bits;              /* 2^peer_bits slots, 0 before the first peer */
    struct pool_value *pend;    /* per-pool peer arenas, resolved when the suite closes */
    size_t npend, pend_cap;
    bool has_gen;               /* a `generate:` mapping was given */
    mk gen_at;
    ab_params gen;              /* its keys and values (kind among them) */
} ld;

/* Where a peer expectation was given, for the checks made at the end. */
typedef struct peer_pos {
    mk key;       /* its spec in peer_arena (or in peer_offsets when only there) */
    mk offsets;   /* its offsets sequence */
    bool arena;   /* given in peer_arena */
    bool by_pool; /* given there pool by pool */
} peer_pos;

/* A peer's arena in one pool, by name, as read (`{fast: 200704, slow: ...}`). */
typedef struct pool_value {
    size_t peer;
    char *pool; /* owned */
    int64_t bytes;
    mk at;
} pool_value;

/* A field named in messages, built only when a message needs it. */
typedef struct fld {
    const char *parent; /* "expect", or NULL */
    const tin *ti;      /* the tensor, or NULL */
    const char *key;    /* NULL for the mapping itself */
    int elem;           /* index in a sequence value, or -1 */
} fld;

#define TOP_FIELD(k) (&(fld){.key = (k), .elem = -1})
#define TENSOR_FIELD(tensor, k) (&(fld){.ti = (tensor), .key = (k), .elem = -1})

/* Copies text into out as a message shows it: quoted, cut at SHOW_MAX
 * characters, control characters as '?'. */
static void show_text(const char *text, size_t len, char *out, size_t cap) {
    size_t n = len < SHOW_MAX ? len : SHOW_MAX, o = 0;
    while (n < len && n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80) n--; /* whole UTF-8 */
    out[o++] = '\'';
    for (size_t i = 0; i < n && o + 5 < cap; i++) {
        unsigned char c = (unsigned char)text[i];
        out[o++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    if (n < len) o += (size_t)snprintf(out + o, cap - o, "...");
    snprintf(out + o, cap - o, "'");
}

static bool is_null(const ev *e) {
    if (e->kind != EV_SCALAR || !e->plain) return false;
    const char *t = e->text;
    if (e->len > 0 && t[0] != '~' && t[0] != 'n' && t[0] != 'N') return false; /* most scalars */
    return e->len == 0 || strcmp(t, "~") == 0 || strcmp(t, "null") == 0 || strcmp(t, "Null") == 0 ||
           strcmp(t, "NULL") == 0;
}

/* What a message says was found: 'text', a sequence, a mapping, nothing.
 * Returns out. */
static const char *show(const ev *e, char *out, size_t cap) {
    if (e->kind == EV_SEQ)
        snprintf(out, cap, "a sequence");
    else if (e->kind == EV_MAP)
        snprintf(out, cap, "a mapping");
    else if (e->kind != EV_SCALAR)
        snprintf(out, cap, "the end of the document");
    else if (e->plain && e->len == 0)
        snprintf(out, cap, "nothing");
    else if (is_null(e))
        snprintf(out, cap, "null");
    else
        show_text(e->text, e->len, out, cap);
    return out;
}

/* show(e) into a buffer that lives to the end of the enclosing block: use it
 * only in the arguments of a failing call, so good input never formats. */
#define GOT(e) show((e), (char[SHOW_MAX + 8]){0}, SHOW_MAX + 8)

static void field_name(const fld *f, char *out, size_t cap) {
    size_t o = 0;
    if (f->ti != NULL) {
        o = (size_t)snprintf(out, cap, "tensors[%zu]", f->ti->idx);
        if (f->ti->t.name != NULL && o < cap) {
            char shown[SHOW_MAX + 8];
            show_text(f->ti->t.name, strlen(f->ti->t.name), shown, sizeof shown);
            o += (size_t)snprintf(out + o, cap - o, " (name %s)", shown);
        }
    } else if (f->parent != NULL) {
        o = (size_t)snprintf(out, cap, "%s", f->parent);
    }
    if (f->key != NULL && o < cap)
        o += (size_t)snprintf(out + o, cap - o, "%s%s", o ? "." : "", f->key);
    if (f->key == NULL && o == 0) o = (size_t)snprintf(out, cap, "top level");
    if (f->elem >= 0 && o < cap) snprintf(out + o, cap - o, "[%d]", f->elem);
}

static ab_status fail(ld *L, mk at, const fld *f, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static ab_status fail(ld *L, mk at, const fld *f, const char *fmt, ...) {
    char field[256];
    field_name(f, field, sizeof field);
    va_list ap;
    va_start(ap, fmt);
    ab_status st = vfail_at(L->err, L->file, at, field, fmt, ap);
    va_end(ap);
    return st;
}

/* ---- keys ------------------------------------------------------------------------ */

static void join_words(const char *const *words, size_t n, char *out, size_t cap) {
    size_t o = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && o < cap; i++)
        o += (size_t)snprintf(out + o, cap - o, "%s%s", i ? ", " : "", words[i]);
}

static ab_status unknown_key(ld *L, const ev *k, const fld *where, const char *const *keys,
                             size_t n) {
    char got[SHOW_MAX + 8], list[256];
    show_text(k->text, k->len, got, sizeof got);
    const char *near = ab_suggest_among(k->text, keys, n);
    if (near != NULL) return fail(L, k->at, where, "unknown key %s; did you mean '%s'?", got, near);
    join_words(keys, n, list, sizeof list);
    return fail(L, k->at, where, "unknown key %s; expected one of: %s", got, list);
}

/* Reads a key of a mapping (the event k) into *idx: a scalar, one of keys[],
 * not seen before in this mapping. */
static ab_status map_key(ld *L, const ev *k, const fld *where, const char *const *keys, size_t n,
                         keyset *ks, int *idx) {
    if (k->kind != EV_SCALAR) return fail(L, k->at, where, "expected a key, got %s", GOT(k));
    for (size_t i = 0; i < n; i++) {
        if (keys[i][0] != k->text[0]) continue; /* both NUL-terminated: cheap first */
        if (strlen(keys[i]) != k->len || memcmp(keys[i], k->text, k->len) != 0) continue;
        if (ks->seen & (1u << i))
            return fail(L, k->at, where, "duplicate key '%s' (first at line %d)", keys[i],
                        ks->key[i].line);
        ks->seen |= 1u << i;
        ks->key[i] = k->at;
        *idx = (int)i;
        return AB_OK;
    }
    if (strcmp(k->text, "<<") == 0)
        return fail(L, k->at, where, "merge keys ('<<') are not supported; write the keys out");
    return unknown_key(L, k, where, keys, n);
}

/* ---- values --------------------------------------------------------------------- */

/* 1 when text is decimal digits with an optional '-', 2 when it is that but
 * with a leading zero, 0 otherwise. */
static int decimal_form(const char *t, size_t len) {
    size_t i = (len > 0 && t[0] == '-') ? 1 : 0;
    if (i == len) return 0;
    for (size_t j = i; j < len; j++)
        if (t[j] < '0' || t[j] > '9') return 0;
    return (t[i] == '0' && len - i > 1) ? 2 : 1;
}

static const char *limit_text(int64_t hi) { return hi == AB_MAX_SIZE ? "2^62" : "2^63-1"; }

/* Checks the scalar e is an integer in [lo, hi] (lo is 0 or 1) into *out. */
static ab_status scalar_int(ld *L, const ev *e, const fld *f, int64_t lo, int64_t hi,
                            int64_t *out) {
    const char *want = lo > 0 ? "a positive integer" : "a non-negative integer";
    if (e->kind != EV_SCALAR || is_null(e))
        return fail(L, e->at, f, "must be %s, got %s", want, GOT(e));
    if (!e->plain)
        return fail(L, e->at, f,
                    "expected an integer, got the quoted string %s (write numbers "
                    "without quotes)",
                    GOT(e));
    int form = decimal_form(e->text, e->len);
    if (form == 0) return fail(L, e->at, f, "must be %s, got %s", want, GOT(e));
    if (form == 2)
        return fail(L, e->at, f, "must be %s in decimal without leading zeros, got %s", want,
                    GOT(e));
    bool ok = ab_parse_int64(e->text, e->len, out);
    if ((ok && *out < lo) || (!ok && e->text[0] == '-'))
        return fail(L, e->at, f, "must be %s, got %s", want, GOT(e));
    if (!ok || *out > hi)
        return fail(L, e->at, f, "must be %s no larger than %s, got %s", want, limit_text(hi),
                    GOT(e));
    return AB_OK;
}

static ab_status read_int(ld *L, const fld *f, int64_t lo, int64_t hi, int64_t *out, mk *at) {
    ev e;
    TRY(src_next(&L->s, &e));
    *at = e.at;
    return scalar_int(L, &e, f, lo, hi, out);
}

static ab_status read_pow2(ld *L, const fld *f, int64_t *out, mk *at) {
    TRY(read_int(L, f, 1, AB_MAX_SIZE, out, at));
    if (!ab_is_pow2(*out))
        return fail(L, *at, f, "must be a power of two (1, 2, 4, 8, ...), got '%" PRId64 "'", *out);
    return AB_OK;
}

/* Reads a non-empty string scalar into *e (its text valid until the next event). */
static ab_status read_str(ld *L, const fld *f, ev *e) {
    TRY(src_next(&L->s, e));
    if (e->kind != EV_SCALAR || is_null(e) || e->len == 0)
        return fail(L, e->at, f, "must be a non-empty string, got %s", GOT(e));
    if (memchr(e->text, '\0', e->len) != NULL)
        return fail(L, e->at, f, "must not contain a NUL character, got %s", GOT(e));
    return AB_OK;
}

static ab_status read_word(ld *L, const fld *f, const char *const *words, size_t n, int *out,
                           mk *at) {
    ev e;
    TRY(read_str(L, f, &e));
    *at = e.at;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(e.text, words[i]) == 0) {
            *out = (int)i;
            return AB_OK;
        }
    }
    char list[128];
    join_words(words, n, list, sizeof list);
    return fail(L, e.at, f, "must be one of %s, got %s", list, GOT(&e));
}

static ab_status read_dtype(ld *L, const fld *f, const ab_dtype **out, mk *at) {
    ev e;
    TRY(read_str(L, f, &e));
    *at = e.at;
    *out = ab_dtype_find(e.text);
    if (*out != NULL) return AB_OK;
    const char *names[64];
    size_t n = 0;
    for (const ab_dtype *d; n < 64 && (d = ab_dtype_at(n)) != NULL; n++) names[n] = d->name;
    char list[512], hint[64] = "";
    join_words(names, n, list, sizeof list);
    const char *near = ab_suggest_among(e.text, names, n);
    if (near != NULL) snprintf(hint, sizeof hint, "did you mean '%s'? ", near);
    return fail(L, e.at, f, "unknown dtype %s; %sknown: %s", GOT(&e), hint, list);
}

/* ---- a tensor ---------------------------------------------------------------------- */

static ab_status read_shape(ld *L, tin *ti) {
    ev e;
    TRY(src_next(&L->s, &e));
    ti->ks.val[TK_SHAPE] = e.at;
    if (e.kind != EV_SEQ) {
        return fail(L, e.at, TENSOR_FIELD(ti, "shape"),
                    "must be a sequence of dimensions like [1, 224, 224, 3], got %s", GOT(&e));
    }
    ti->t.shape = ti->shape;
    for (;;) {
        TRY(src_next(&L->s, &e));
        if (e.kind == EV_SEQ_END) return AB_OK;
        fld f = {.ti = ti, .key = "shape", .elem = ti->t.ndim};
        if (ti->t.ndim == MAX_DIMS)
            return fail(L, e.at, &f, "a shape has at most %d dimensions", MAX_DIMS);
        TRY(scalar_int(L, &e, &f, 1, AB_MAX_SIZE, &ti->shape[ti->t.ndim]));
        ti->t.ndim++;
    }
}

static ab_status read_name(ld *L, tin *ti) {
    ev e;
    TRY(read_str(L, TENSOR_FIELD(ti, "name"), &e));
    ti->ks.val[TK_NAME] = e.at;
    if (!ab_grow((void **)&L->name, &L->name_cap, e.len + 1, 1)) return nomem(L->err, L->file);
    memcpy(L->name, e.text, e.len + 1);
    ti->t.name = L->name;
    return AB_OK;
}

static ab_status tensor_value(ld *L, tin *ti, int key) {
    const fld *f = TENSOR_FIELD(ti, tensor_keys[key]);
    mk *at = &ti->ks.val[key];
    ab_tensor *t = &ti->t;
    int word = 0;
    switch (key) {
    case TK_NAME: return read_name(L, ti);
    case TK_SIZE: return read_int(L, f, 1, AB_MAX_SIZE, &t->size, at);
    case TK_SHAPE: return read_shape(L, ti);
    case TK_DTYPE: return read_dtype(L, f, &t->dtype, at);
    case TK_START: return read_int(L, f, 0, AB_MAX_SIZE, &t->start, at);
    case TK_END: return read_int(L, f, 0, AB_MAX_SIZE, &t->end, at);
    case TK_ALIGN: return read_pow2(L, f, &t->align, at);
    case TK_OFFSET: return read_int(L, f, 0, AB_MAX_SIZE, &t->offset, at);
    case TK_STRIDE_ALIGN: return read_int(L, f, 1, AB_MAX_SIZE, &t->stride_align, at);
    case TK_KIND:
        TRY(read_word(L, f, kind_words, 3, &word, at));
        t->kind = (ab_kind)word;
        return AB_OK;
    }
    return AB_EINTERNAL;
}

static bool has(const tin *ti, int key) { return (ti->ks.seen >> key) & 1u; }

/* size and logical_bits from shape x dtype (and an explicit size, when given). */
static ab_status tensor_sizes(ld *L, tin *ti) {
    ab_tensor *t = &ti->t;
    if (!has(ti, TK_SHAPE) && !has(ti, TK_DTYPE)) {
        if (has(ti, TK_STRIDE_ALIGN))
            return fail(L, ti->ks.val[TK_STRIDE_ALIGN], TENSOR_FIELD(ti, "stride_align"),
                        "pads the rows of a shape: it needs 'shape' and 'dtype'");
        t->logical_bits = t->size > INT64_MAX / 8 ? INT64_MAX : t->size * 8;
        return AB_OK;
    }
    if (!has(ti, TK_DTYPE))
        return fail(L, ti->ks.val[TK_SHAPE], TENSOR_FIELD(ti, "shape"),
                    "needs a dtype: 'shape' and 'dtype' go together");
    if (!has(ti, TK_SHAPE))
        return fail(L, ti->ks.val[TK_DTYPE], TENSOR_FIELD(ti, "dtype"),
                    "needs a shape: 'shape' and 'dtype' go together");
    int64_t bits = t->dtype->bits;
    for (int i = 0; i < t->ndim; i++)
        if (ab_mul_ovf(bits, t->shape[i], &bits))
            return fail(L, ti->ks.val[TK_SHAPE], TENSOR_FIELD(ti, "shape"),
                        "shape x dtype is too large (more than 2^63 bits)");
    int64_t bytes = bits / 8 + (bits % 8 != 0);
    t->logical_bits = bits;
    if (has(ti, TK_STRIDE_ALIGN) && (!ab_tensor_padded_bytes(t, &bytes) || bytes > AB_MAX_SIZE))
        return fail(L, ti->ks.val[TK_STRIDE_ALIGN], TENSOR_FIELD(ti, "stride_align"),
                    "the padded size is too large (above 2^62 bytes)");
    if (!has(ti, TK_SIZE)) {
        t->size = bytes;
    } else if (t->size < bytes) {
        return fail(L, ti->ks.val[TK_SIZE], TENSOR_FIELD(ti, "size"),
                    "must be at least the %" PRId64 " bytes of shape x dtype%s, got '%" PRId64 "'",
                    bytes, has(ti, TK_STRIDE_ALIGN) ? " with its stride_align padding" : "",
                    t->size);
    }
    return AB_OK;
}

/* The checks made when a tensor's mapping closes. */
static ab_status tensor_finish(ld *L, tin *ti) {
    const fld *whole = TENSOR_FIELD(ti, NULL);
    ab_tensor *t = &ti->t;
    if (!has(ti, TK_NAME)) return fail(L, ti->at, whole, "missing required key 'name'");
    if (!has(ti, TK_SIZE) && !has(ti, TK_SHAPE) && !has(ti, TK_DTYPE))
        return fail(L, ti->at, whole, "missing required key 'size' (or 'shape' and 'dtype')");
    TRY(tensor_sizes(L, ti));
    if (!has(ti, TK_START)) return fail(L, ti->at, whole, "missing required key 'start'");
    if (!has(ti, TK_END)) return fail(L, ti->at, whole, "missing required key 'end'");
    if (t->start > t->end)
        return fail(L, ti->ks.val[TK_END], TENSOR_FIELD(ti, "end"),
                    "must be >= start (%" PRId64 "), got '%" PRId64 "'", t->start, t->end);
    int64_t end = 0;
    if (has(ti, TK_OFFSET) && (ab_add_ovf(t->offset, t->size, &end) || end > AB_MAX_SIZE))
        return fail(L, ti->ks.val[TK_OFFSET], TENSOR_FIELD(ti, "offset"),
                    "offset + size must be at most 2^62, got %" PRId64 " + %" PRId64, t->offset,
                    t->size);
    if (has(ti, TK_ALIGN) && has(ti, TK_OFFSET) && t->offset % t->align != 0)
        return fail(L, ti->ks.val[TK_OFFSET], TENSOR_FIELD(ti, "offset"),
                    "must be a multiple of align (%" PRId64 "), got '%" PRId64 "'", t->align,
                    t->offset);
    return AB_OK;
}

/* The fast path keeps no places: its errors are made again through libyaml. */
static ab_status tensor_append(ld *L, tin *ti) {
    size_t i = L->p->n;
    if ((uint64_t)i >= (uint64_t)L->s.lim.tensors) {
        if (L->s.fast != NULL) return give_up(&L->s);
        return fail(L, ti->at, TENSOR_FIELD(ti, NULL),
                    "more than %" PRId64 " tensors (the limit ARENABENCH_MAX_TENSORS)",
                    L->s.lim.tensors);
    }
    if (L->s.fast == NULL) {
        if (!ab_grow((void **)&L->pos, &L->pos_cap, i + 1, sizeof *L->pos))
            return nomem(L->err, L->file);
        L->pos[i] = (tpos){ti->ks.val[TK_NAME], ti->ks.val[TK_OFFSET]};
    }
    ab_status st = ab_problem_add(L->p, &ti->t, L->err);
    return st == AB_ENOMEM ? nomem(L->err, L->file) : st;
}

static ab_status read_tensor(ld *L, size_t idx, mk at) {
    tin ti = {.idx = idx, .at = at};
    ti.t = (ab_tensor){.offset = AB_NONE, .kind = AB_KIND_INTERMEDIATE, .line = at.line};
    for (;;) {
        ev k;
        int key = 0;
        TRY(src_next(&L->s, &k));
        if (k.kind == EV_MAP_END) break;
        TRY(map_key(L, &k, TENSOR_FIELD(&ti, NULL), tensor_keys, TK_COUNT, &ti.ks, &key));
        TRY(tensor_value(L, &ti, key));
    }
    TRY(tensor_finish(L, &ti));
    return tensor_append(L, &ti);
}

static ab_status read_tensors(ld *L) {
    ev e;
    TRY(src_next(&L->s, &e));
    if (e.kind != EV_SEQ)
        return fail(L, e.at, TOP_FIELD("tensors"), "must be a sequence of tensors, got %s",
                    GOT(&e));
    for (size_t i = 0;; i++) {
        TRY(src_next(&L->s, &e));
        if (e.kind == EV_SEQ_END) return AB_OK;
        if (e.kind != EV_MAP) {
            fld f = {.key = "tensors", .elem = (int)(i > INT32_MAX ? INT32_MAX : i)};
            return fail(L, e.at, &f,
                        "must be a mapping like {name: t, size: 64, start: 0, end: 1}, got %s",
                        GOT(&e));
        }
        TRY(read_tensor(L, i, e.at));
    }
}

/* ---- pools ---------------------------------------------------------------------- */

/* Reads the mapping of pool idx (its place in p->pools already taken, so the
 * problem owns its name whatever happens). where names it in messages. */
static ab_status read_pool(ld *L, size_t idx, char *where, size_t where_cap, mk *name_at) {
    ab_pool *pool = &L->p->pools[idx];
    keyset ks = {0};
    for (;;) {
        ev k;
        int key = 0;
        mk at;
        TRY(src_next(&L->s, &k));
        if (k.kind == EV_MAP_END) return AB_OK;
        TRY(map_key(L, &k, TOP_FIELD(where), pool_keys, PK_COUNT, &ks, &key));
        fld f = {.parent = where, .key = pool_keys[key], .elem = -1};
        if (key == PK_SIZE) {
            TRY(read_int(L, &f, 1, AB_MAX_SIZE, &pool->size, &at));
            continue;
        }
        ev e;
        TRY(read_str(L, &f, &e));
        *name_at = e.at;
        if ((pool->name = ab_strndup(e.text, e.len)) == NULL) return nomem(L->err, L->file);
        char shown[SHOW_MAX + 8];
        show_text(pool->name, e.len, shown, sizeof shown);
        size_t o = strlen(where);
        snprintf(where + o, where_cap - o, " (name %s)", shown);
    }
}

/* The checks made when pool idx closes: a name, unique. */
static ab_status pool_finish(ld *L, size_t idx, mk at, const mk *name_at, const char *where) {
    const ab_pool *pools = L->p->pools;
    if (pools[idx].name == NULL)
        return fail(L, at, TOP_FIELD(where), "missing required key 'name'");
    for (size_t j = 0; j < idx; j++)
        if (strcmp(pools[j].name, pools[idx].name) == 0)
            return fail(L, name_at[idx], &(fld){.parent = where, .key = "name", .elem = -1},
                        "duplicate pool name, also pools[%zu]; names must be unique", j);
    return AB_OK;
}

/* `pools`: a sequence of one to AB_MAX_POOLS mappings {name, size}; only the
 * last may leave out size, and the sizes add up to at most 2^62. */
static ab_status read_pools(ld *L) {
    ev e;
    mk at[AB_MAX_POOLS], name_at[AB_MAX_POOLS];
    TRY(src_next(&L->s, &e));
    if (e.kind != EV_SEQ)
        return fail(L, e.at, TOP_FIELD("pools"),
                    "must be a sequence of pools like [{name: fast, size: 200704}, {name: slow}], "
                    "got %s",
                    GOT(&e));
    mk seq_at = e.at;
    int64_t sum = 0;
    for (size_t i = 0;; i++) {
        char where[SHOW_MAX + 48];
        snprintf(where, sizeof where, "pools[%zu]", i);
        TRY(src_next(&L->s, &e));
        if (e.kind == EV_SEQ_END) break;
        if (e.kind != EV_MAP)
            return fail(L, e.at, TOP_FIELD(where),
                        "must be a mapping like {name: fast, size: 200704}, got %s", GOT(&e));
        if (i == AB_MAX_POOLS)
            return fail(L, e.at, TOP_FIELD(where), "a suite has at most %d pools", AB_MAX_POOLS);
        ab_problem *p = L->p;
        if (!ab_grow((void **)&p->pools, &L->pools_cap, i + 1, sizeof *p->pools))
            return nomem(L->err, L->file);
        p->pools[p->npools++] = (ab_pool){.name = NULL, .size = AB_NONE};
        at[i] = name_at[i] = e.at;
        TRY(read_pool(L, i, where, sizeof where, &name_at[i]));
        TRY(pool_finish(L, i, at[i], name_at, where));
        if (p->pools[i].size != AB_NONE &&
            (ab_add_ovf(sum, p->pools[i].size, &sum) || sum > AB_MAX_SIZE))
            return fail(L, at[i], TOP_FIELD(where), "the pools' sizes add up to more than 2^62");
    }
    const ab_problem *p = L->p;
    if (p->npools == 0)
        return fail(L, seq_at, TOP_FIELD("pools"),
                    "must list at least one pool, like [{name: fast, size: 200704}, {name: slow}]");
    for (size_t i = 0; i + 1 < p->npools; i++)
        if (p->pools[i].size == AB_NONE) {
            char where[32];
            snprintf(where, sizeof where, "pools[%zu]", i);
            return fail(L, at[i], TOP_FIELD(where),
                        "missing key 'size': only the last pool may be unbounded (a pool after "
                        "an unbounded one would never be used)");
        }
    return AB_OK;
}

/* ---- peer expectations ---------------------------------------------------------- */

/* Checks that the key k is a planner spec that resolves (a planner and its
 * parameters). */
static ab_status check_spec(ld *L, const ev *k, const fld *where) {
    if (k->kind != EV_SCALAR || is_null(k) || k->len == 0 || memchr(k->text, '\0', k->len))
        return fail(L, k->at, where, "expected a planner spec as key, got %s", GOT(k));
    const ab_planner *pl;
    ab_params prm;
    ab_error e;
    ab_error_clear(&e);
    ab_status st = ab_planner_resolve(k->text, &pl, &prm, &e);
    if (st == AB_ENOMEM) return nomem(L->err, L->file);
    if (st != AB_OK) return fail(L, k->at, where, "%s", e.msg);
    ab_params_free(&prm);
    return AB_OK;
}

/* The slot of spec in the peer table: its own or the empty one it would take. */
static size_t peer_slot_of(const ld *L, const char *spec) {
    size_t mask = ((size_t)1 << L->peer_bits) - 1;
    size_t h = ab_hash_slot(ab_fnv1a(AB_FNV_OFFSET, spec, strlen(spec)), L->peer_bits);
    while (L->peer_slot[h] != 0 && strcmp(L->p->peers[L->peer_slot[h] - 1].spec, spec) != 0)
        h = (h + 1) & mask;
    return h;
}

/* Keeps the peer table at most half full for npeers + 1 peers. */
static bool peer_table_room(ld *L) {
    size_t want = 2 * (L->p->npeers + 1);
    if (L->peer_bits > 0 && ((size_t)1 << L->peer_bits) >= want) return true;
    int bits = L->peer_bits > 0 ? L->peer_bits : 4;
    while (((size_t)1 << bits) < want) bits++;
    size_t *old = L->peer_slot;
    L->peer_slot = ab_calloc((size_t)1 << bits, sizeof *L->peer_slot);
    if (L->peer_slot == NULL) {
        L->peer_slot = old;
        return false;
    }
    L->peer_bits = bits;
    for (size_t i = 0; i < L->p->npeers; i++)
        L->peer_slot[peer_slot_of(L, L->p->peers[i].spec)] = i + 1;
    ab_free(old);
    return true;
}

/* The index of the peer expectation for spec (added when new) into *idx: a
 * hash table over the specs, so N peers load in O(N). */
static ab_status peer_of(ld *L, const ev *k, size_t *idx) {
    ab_problem *p = L->p;
    if (!peer_table_room(L)) return nomem(L->err, L->file);
    size_t h = peer_slot_of(L, k->text);
    if (L->peer_slot[h] != 0) {
        *idx = L->peer_slot[h] - 1;
        return AB_OK;
    }
    if (!ab_grow((void **)&p->peers, &L->peers_cap, p->npeers + 1, sizeof *p->peers) ||
        !ab_grow((void **)&L->peer_at, &L->peer_at_cap, p->npeers + 1, sizeof *L->peer_at))
        return nomem(L->err, L->file);
    char *spec = ab_strndup(k->text, k->len);
    if (spec == NULL) return nomem(L->err, L->file);
    *idx = p->npeers++;
    p->peers[*idx] = (ab_peer_expect){.spec = spec, .arena = AB_NONE};
    L->peer_at[*idx] = (peer_pos){.key = k->at, .offsets = k->at};
    L->peer_slot[h] = *idx + 1;
    return AB_OK;
}

/* A peer's arena given pool by pool: {fast: 200704, slow: 1418528}. */
static ab_status read_pool_values(ld *L, size_t peer, const fld *where) {
    char parent[160];
    snprintf(parent, sizeof parent, "%s.%.100s", where->parent, where->key);
    for (;;) {
        ev k;
        TRY(src_next(&L->s, &k));
        if (k.kind == EV_MAP_END) return AB_OK;
        if (k.kind != EV_SCALAR || is_null(&k) || k.len == 0)
            return fail(L, k.at, where, "expected a pool name as key, got %s", GOT(&k));
        if (!ab_grow((void **)&L->pend, &L->pend_cap, L->npend + 1, sizeof *L->pend))
            return nomem(L->err, L->file);
        pool_value *v = &L->pend[L->npend];
        *v = (pool_value){.peer = peer, .at = k.at};
        if ((v->pool = ab_strndup(k.text, k.len)) == NULL) return nomem(L->err, L->file);
        L->npend++;
        fld f = {.parent = parent, .key = v->pool, .elem = -1};
        mk at;
        TRY(read_int(L, &f, 0, INT64_MAX, &v->bytes, &at));
    }
}

/* `expect: peer_arena:`, a mapping from planner specs to the arena each peer
 * reaches: bytes, or a mapping from pool names to bytes. */
static ab_status read_peer_arena(ld *L) {
    const fld *top = &(fld){.parent = "expect", .key = "peer_arena", .elem = -1};
    ev e;
    TRY(src_next(&L->s, &e));
    if (e.kind != EV_MAP)
        return fail(L, e.at, top,
                    "must be a mapping from planner specs to arenas, like {tflm-greedy: 90}, "
                    "got %s",
                    GOT(&e));
    for (;;) {
        ev k;
        size_t peer;
        TRY(src_next(&L->s, &k));
        if (k.kind == EV_MAP_END) return AB_OK;
        TRY(check_spec(L, &k, top));
        TRY(peer_of(L, &k, &peer));
        if (L->peer_at[peer].arena)
            return fail(L, k.at, top, "duplicate key '%s'", L->p->peers[peer].spec);
        L->peer_at[peer].arena = true;
        L->peer_at[peer].key = k.at;
        fld f = {.parent = "expect.peer_arena", .key = L->p->peers[peer].spec, .elem = -1};
        TRY(src_next(&L->s, &e));
        if (e.kind == EV_MAP) {
            L->peer_at[peer].by_pool = true;
            TRY(read_pool_values(L, peer, &f));
        } else if (e.kind == EV_SCALAR && !is_null(&e)) {
            TRY(scalar_int(L, &e, &f, 0, INT64_MAX, &L->p->peers[peer].arena));
        } else {
            return fail(L, e.at, &f,
                        "must be an arena in bytes, or bytes per pool like {fast: 200704, slow: "
                        "1418528}, got %s",
                        GOT(&e));
        }
    }
}

/* One peer's offsets: a sequence of integers >= 0. */
static ab_status read_offsets_seq(ld *L, size_t peer, const fld *f) {
    ab_peer_expect *x = &L->p->peers[peer];
    size_t cap = 0;
    for (;;) {
        ev e;
        TRY(src_next(&L->s, &e));
        if (e.kind == EV_SEQ_END) return AB_OK;
        if (!ab_grow((void **)&x->offsets, &cap, x->noffsets + 1, sizeof *x->offsets))
            return nomem(L->err, L->file);
        fld g = *f;
        g.elem = (int)(x->noffsets > INT32_MAX ? INT32_MAX : x->noffsets);
        TRY(scalar_int(L, &e, &g, 0, AB_MAX_SIZE, &x->offsets[x->noffsets]));
        x->noffsets++;
    }
}

/* `expect: peer_offsets:`, a mapping from planner specs to the offsets each
 * peer gives, one per arena tensor in order. */
static ab_status read_peer_offsets(ld *L) {
    const fld *top = &(fld){.parent = "expect", .key = "peer_offsets", .elem = -1};
    ev e;
    TRY(src_next(&L->s, &e));
    if (e.kind != EV_MAP)
        return fail(L, e.at, top,
                    "must be a mapping from planner specs to offsets, like {tflm-greedy: [0, "
                    "16]}, got %s",
                    GOT(&e));
    for (;;) {
        ev k;
        size_t peer;
        TRY(src_next(&L->s, &k));
        if (k.kind == EV_MAP_END) return AB_OK;
        TRY(check_spec(L, &k, top));
        TRY(peer_of(L, &k, &peer));
        if (L->p->peers[peer].offsets != NULL)
            return fail(L, k.at, top, "duplicate key '%s'", L->p->peers[peer].spec);
        fld f = {.parent = "expect.peer_offsets", .key = L->p->peers[peer].spec, .elem = -1};
        TRY(src_next(&L->s, &e));
        if (e.kind != EV_SEQ)
            return fail(L, e.at, &f, "must be a sequence of offsets like [0, 64, 0], got %s",
                        GOT(&e));
        L->peer_at[peer].offsets = e.at;
        ab_peer_expect *x = &L->p->peers[peer];
        if ((x->offsets = ab_alloc_array(1, sizeof *x->offsets)) == NULL)
            return nomem(L->err, L->file);
        TRY(read_offsets_seq(L, peer, &f));
    }
}

/* The per-pool arenas, matched to the pools by name: every pool once. */
static ab_status resolve_pool_values(ld *L) {
    ab_problem *p = L->p;
    for (size_t v = 0; v < L->npend; v++) {
        pool_value *pv = &L->pend[v];
        ab_peer_expect *x = &p->peers[pv->peer];
        fld f = {.parent = "expect.peer_arena", .key = x->spec, .elem = -1};
        size_t k = 0;
        while (k < p->npools && strcmp(p->pools[k].name, pv->pool) != 0) k++;
        if (k == p->npools) {
            char list[256] = "";
            for (size_t j = 0, o = 0; j < p->npools && o < sizeof list; j++)
                o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", j ? ", " : "",
                                      p->pools[j].name);
            if (p->npools == 0)
                return fail(L, pv->at, &f,
                            "bytes per pool need pools, and the suite declares none; give one "
                            "arena instead");
            return fail(L, pv->at, &f, "unknown pool '%s' (pools: %s)", pv->pool, list);
        }
        if (x->pool_bytes == NULL) {
            x->pool_bytes = ab_alloc_array(p->npools, sizeof *x->pool_bytes);
            if (x->pool_bytes == NULL) return nomem(L->err, L->file);
            for (size_t j = 0; j < p->npools; j++) x->pool_bytes[j] = AB_NONE;
        }
        if (x->pool_bytes[k] != AB_NONE)
            return fail(L, pv->at, &f, "pool '%s' given twice", pv->pool);
        x->pool_bytes[k] = pv->bytes;
    }
    return AB_OK;
}

/* The checks made on peer expectations when the suite closes: per-pool
 * arenas name every pool (their sum is the arena), and offsets are one per
 * arena tensor. */
static ab_status peers_finish(ld *L) {
    ab_problem *p = L->p;
    TRY(resolve_pool_values(L));
    size_t in_arena = 0;
    for (size_t i = 0; i < p->n; i++) in_arena += ab_in_arena(p, i);
    for (size_t i = 0; i < p->npeers; i++) {
        ab_peer_expect *x = &p->peers[i];
        fld f = {.parent = "expect.peer_arena", .key = x->spec, .elem = -1};
        if (L->peer_at[i].by_pool && x->pool_bytes == NULL)
            return fail(L, L->peer_at[i].key, &f,
                        "must give bytes for every pool (0 for an unused one), got none");
        for (size_t k = 0; x->pool_bytes && k < p->npools; k++) {
            if (x->pool_bytes[k] == AB_NONE)
                return fail(L, L->peer_at[i].key, &f,
                            "gives no bytes for pool '%s'; give every pool (0 for an unused one)",
                            p->pools[k].name);
            if (k == 0) x->arena = 0;
            if (ab_add_ovf(x->arena, x->pool_bytes[k], &x->arena))
                return fail(L, L->peer_at[i].key, &f, "the pools' bytes add up past 2^63");
        }
        if (x->offsets != NULL && x->noffsets != in_arena)
            return fail(L, L->peer_at[i].offsets,
                        &(fld){.parent = "expect.peer_offsets", .key = x->spec, .elem = -1},
                        "has %zu offsets; the suite has %zu tensors in the arena (one offset "
                        "each, in order)",
                        x->noffsets, in_arena);
    }
    return AB_OK;
}

/* ---- the top level ------------------------------------------------------------------- */

static ab_status read_expect(ld *L) {
    ev e;
    TRY(src_next(&L->s, &e));
    if (e.kind != EV_MAP) {
        return fail(L, e.at, TOP_FIELD("expect"),
                    "must be a mapping with lower_bound, optimum, peer_arena or peer_offsets, "
                    "got %s",
                    GOT(&e));
    }
    keyset ks = {0};
    for (;;) {
        int key = 0;
        mk at;
        TRY(src_next(&L->s, &e));
        if (e.kind == EV_MAP_END) return AB_OK;
        TRY(map_key(L, &e, TOP_FIELD("expect"), expect_keys, EX_COUNT, &ks, &key));
        if (key == EX_PEER_ARENA) {
            TRY(read_peer_arena(L));
            continue;
        }
        if (key == EX_PEER_OFFSETS) {
            TRY(read_peer_offsets(L));
            continue;
        }
        fld f = {.parent = "expect", .key = expect_keys[key], .elem = -1};
        int64_t *out = key == EX_OPTIMUM ? &L->p->expect_optimum : &L->p->expect_lower_bound;
        TRY(read_int(L, &f, 0, INT64_MAX, out, &at));
        L->top.val[TOP_EXPECT] = at; /* the last one, for the consistency check */
    }
}

static ab_status read_owned_str(ld *L, const char *key, char **out) {
    ev e;
    TRY(read_str(L, TOP_FIELD(key), &e));
    *out = ab_strndup(e.text, e.len);
    return *out == NULL ? nomem(L->err, L->file) : AB_OK;
}

static ab_status read_description(ld *L) {
    ev e;
    TRY(src_next(&L->s, &e));
    if (is_null(&e)) return AB_OK;
    if (e.kind != EV_SCALAR)
        return fail(L, e.at, TOP_FIELD("description"), "must be a string, got %s", GOT(&e));
    L->p->description = ab_strndup(e.text, e.len);
    return L->p->description == NULL ? nomem(L->err, L->file) : AB_OK;
}

static ab_status top_value(ld *L, int key) {
    ab_problem *p = L->p;
    const fld *f = TOP_FIELD(top_keys[key]);
    mk *at = &L->top.val[key];
    int word = 0;
    switch (key) {
    case TOP_SUITE: return read_owned_str(L, "suite", &p->name);
    case TOP_DESCRIPTION: return read_description(L);
    case TOP_ALIGNMENT: return read_pow2(L, f, &p->alignment, at);
    case TOP_CAPACITY: return read_int(L, f, 1, AB_MAX_SIZE, &p->capacity, at);
    case TOP_POOLS: return read_pools(L);
    case TOP_TENSORS: return read_tensors(L);
    case TOP_EXPECT: return read_expect(L);
    case TOP_IO:
        TRY(read_word(L, f, io_words, 2, &word, at));
        p->io = (ab_io)word;
        return AB_OK;
    }
    return AB_EINTERNAL;
}

/* Reads `generate: {kind: K, key: value, ...}` into L->gen (values are kept
 * as text and checked by the generator). */
static ab_status read_generate(ld *L, mk at) {
    ev e;
    TRY(src_next(&L->s, &e));
    if (L->has_gen) return fail(L, at, TOP_FIELD("generate"), "given twice");
    if (e.kind != EV_MAP)
        return fail(L, e.at, TOP_FIELD("generate"), "expected a mapping like {kind: resnet, "
                    "blocks: 8, seed: 3}, got %s", GOT(&e));
    L->has_gen = true;
    L->gen_at = e.at;
    for (;;) {
        ev k, v;
        TRY(src_next(&L->s, &k));
        if (k.kind == EV_MAP_END) break;
        if (k.kind != EV_SCALAR) return fail(L, k.at, TOP_FIELD("generate"), "expected a key, got %s", GOT(&k));
        char *key = ab_strdup(k.text);
        if (key == NULL) return nomem(L->err, L->file);
        ab_status st = src_next(&L->s, &v);
        if (st == AB_OK && v.kind != EV_SCALAR)
            st = fail(L, v.at, TOP_FIELD("generate"), "%s: expected a plain value, got %s", key,
                      GOT(&v));
        if (st == AB_OK && ab_params_get(&L->gen, key) != NULL)
            st = fail(L, k.at, TOP_FIELD("generate"), "key '%s' given twice", key);
        char *value = st == AB_OK ? ab_strdup(v.text) : NULL;
        ab_kv *kv = value ? ab_realloc_array(L->gen.v, L->gen.n + 1, sizeof *kv) : NULL;
        if (st == AB_OK && kv == NULL) st = nomem(L->err, L->file);
        if (st != AB_OK) {
            ab_free(key);
            ab_free(value);
            return st;
        }
        L->gen.v = kv;
        L->gen.v[L->gen.n++] = (ab_kv){.key = key, .value = value};
    }
    return AB_OK;
}

/* Expands the generator into the suite's tensors (the suite's own name,
 * description, alignment, io, capacity and expectations stay). */
static ab_status expand_generate(ld *L) {
    const char *kind = ab_params_get(&L->gen, "kind");
    if (kind == NULL) return fail(L, L->gen_at, TOP_FIELD("generate"), "missing required key 'kind'");
    ab_params rest = {0};
    rest.v = ab_alloc_array(L->gen.n + 1, sizeof *rest.v);
    if (rest.v == NULL) return nomem(L->err, L->file);
    for (size_t i = 0; i < L->gen.n; i++)
        if (strcmp(L->gen.v[i].key, "kind") != 0) rest.v[rest.n++] = L->gen.v[i];
    ab_problem g;
    ab_error gerr;
    ab_status st = abf_generate(kind, &rest, NULL, &g, &gerr);
    ab_free(rest.v);
    if (st == AB_ENOMEM) return nomem(L->err, L->file);
    if (st != AB_OK) return fail(L, L->gen_at, TOP_FIELD("generate"), "%s", gerr.msg);
    for (size_t i = 0; i < g.n && st == AB_OK; i++) {
        g.t[i].line = L->gen_at.line;
        st = ab_problem_add(L->p, &g.t[i], L->err);
    }
    if (st == AB_OK && L->p->description == NULL) {
        L->p->description = g.description;
        g.description = NULL;
    }
    ab_problem_free(&g);
    if (st != AB_OK) return nomem(L->err, L->file);
    L->pos = ab_calloc(L->p->n + 1, sizeof *L->pos);
    if (L->pos == NULL) return nomem(L->err, L->file);
    for (size_t i = 0; i < L->p->n; i++) L->pos[i].name = L->pos[i].offset = L->gen_at;
    for (size_t i = 0; i < L->p->n; i++) L->p->t[i].align = 0; /* the suite's alignment */
    return AB_OK;
}

static ab_status read_top(ld *L) {
    for (;;) {
        ev k;
        int key = 0;
        TRY(src_next(&L->s, &k));
        if (k.kind == EV_MAP_END) return AB_OK;
        if (k.kind == EV_SCALAR && strcmp(k.text, "generate") == 0) {
            TRY(read_generate(L, k.at));
            continue;
        }
        TRY(map_key(L, &k, TOP_FIELD(NULL), top_keys, TOP_COUNT, &L->top, &key));
        TRY(top_value(L, key));
    }
}

/* ---- the checks made when the suite closes --------------------------------------------- */

static ab_status apply_default_align(ld *L) {
    ab_problem *p = L->p;
    for (size_t i = 0; i < p->n; i++) {
        ab_tensor *t = &p->t[i];
        if (t->align != 0) continue;
        t->align = p->alignment;
        if (t->offset != AB_NONE && t->offset % t->align != 0) {
            if (L->pos == NULL) return give_up(&L->s);
            tin ti = {.idx = i, .t = {.name = t->name}};
            return fail(L, L->pos[i].offset, TENSOR_FIELD(&ti, "offset"),
                        "must be a multiple of the suite's alignment (%" PRId64 "), "
                        "got '%" PRId64 "'",
                        t->align, t->offset);
        }
    }
    return AB_OK;
}

/* The sum of the tensors' sizes, each rounded up to its align, is at most
 * 2^62 (README's input limits), so no bound or sum over them overflows. */
static ab_status check_total(ld *L) {
    int64_t total = 0, phys = 0;
    for (size_t i = 0; i < L->p->n; i++) {
        const ab_tensor *t = &L->p->t[i];
        if (!ab_align_up_ovf(t->size, t->align, &phys) && !ab_add_ovf(total, phys, &total) &&
            total <= AB_MAX_SIZE)
            continue;
        if (L->pos == NULL) return give_up(&L->s);
        tin ti = {.idx = i, .t = {.name = t->name}};
        return fail(L, L->pos[i].name, TENSOR_FIELD(&ti, NULL),
                    "the tensors' sizes, each rounded up to its align, add up to more than 2^62 "
                    "bytes here");
    }
    return AB_OK;
}

static const char *tensor_name(const void *ctx, size_t i) {
    return ((const ab_problem *)ctx)->t[i].name;
}

/* Names unique (the fast path, which keeps no places, gives up on a
 * duplicate: libyaml's load then says where both are). */
static ab_status check_unique_names(ld *L) {
    size_t a = 0, b = 0;
    int dup = ab_find_duplicate(L->p->n, tensor_name, L->p, &a, &b);
    if (dup < 0) return nomem(L->err, L->file);
    if (dup == 0) return AB_OK;
    if (L->pos == NULL) return give_up(&L->s);
    tin ti = {.idx = b, .t = {.name = L->p->t[b].name}};
    return fail(L, L->pos[b].name, TENSOR_FIELD(&ti, "name"),
                "duplicate tensor name, also at line %d (tensors[%zu]); names must be unique",
                L->pos[a].name.line, a);
}

static ab_status suite_finish(ld *L) {
    ab_problem *p = L->p;
    if (!(L->top.seen & (1u << TOP_SUITE)))
        return fail(L, L->top_at, TOP_FIELD(NULL), "missing required key 'suite'");
    bool tensors = L->top.seen & (1u << TOP_TENSORS);
    if (tensors && L->has_gen)
        return fail(L, L->gen_at, TOP_FIELD("generate"),
                    "a suite has either 'tensors' or 'generate', not both");
    if (L->has_gen) TRY(expand_generate(L));
    else if (!tensors)
        return fail(L, L->top_at, TOP_FIELD(NULL),
                    "missing required key 'tensors' (or 'generate' with a generator)");
    TRY(apply_default_align(L));
    TRY(check_total(L));
    TRY(check_unique_names(L));
    if (p->expect_lower_bound != AB_NONE && p->expect_optimum != AB_NONE &&
        p->expect_lower_bound > p->expect_optimum)
        return fail(L, L->top.val[TOP_EXPECT], TOP_FIELD("expect"),
                    "lower_bound (%" PRId64 ") must be <= optimum (%" PRId64 ")",
                    p->expect_lower_bound, p->expect_optimum);
    return peers_finish(L);
}

static ab_status read_document(ld *L) {
    ev e;
    TRY(src_next(&L->s, &e));
    if (e.kind == EV_STREAM_END)
        return fail(L, (mk){1, 1}, TOP_FIELD(NULL),
                    "expected a mapping with 'suite' and 'tensors', got an empty file");
    TRY(src_next(&L->s, &e));
    if (e.kind != EV_MAP) {
        return fail(L, e.at, TOP_FIELD(NULL),
                    "expected a mapping with 'suite' and 'tensors', got %s", GOT(&e));
    }
    L->top_at = e.at;
    TRY(read_top(L));
    TRY(src_next(&L->s, &e)); /* the document's end */
    TRY(src_next(&L->s, &e));
    if (e.kind != EV_STREAM_END)
        return fail(L, e.at, TOP_FIELD(NULL), "expected one YAML document, got a second one");
    return suite_finish(L);
}

/* One load of text into the initialised *p, through the fast path or libyaml. */
static ab_status load_once(const char *file, const char *buf, size_t len, bool use_fast,
                           const abf_limits *lim, ab_problem *p, ab_error *err) {
    ld L = {.file = file, .p = p, .err = err};
    ab_status st = src_init(&L.s, file, buf, len, true, use_fast, lim, err);
    if (st == AB_OK) st = read_document(&L);
    if (st == AB_OK) {
        p->source = ab_strdup(file);
        if (p->source == NULL) st = nomem(err, file);
    }
    src_free(&L.s);
    ab_free(L.pos);
    ab_free(L.name);
    ab_free(L.peer_at);
    ab_free(L.peer_slot);
    for (size_t v = 0; v < L.npend; v++) ab_free(L.pend[v].pool);
    ab_free(L.pend);
    ab_params_free(&L.gen);
    return st;
}

/* Suites are UTF-8 (DESIGN §4). libyaml would also read UTF-16 from its
 * byte-order mark; this refuses that, a UTF-32 mark, and a NUL among the
 * first four bytes (UTF-16 or UTF-32 text without a mark), naming the file. */
static ab_status refuse_utf16(const char *file, const char *buf, size_t len, ab_error *err) {
    const unsigned char *u = (const unsigned char *)buf;
    const char *what = NULL;
    if (len >= 4 && ((u[0] == 0 && u[1] == 0 && u[2] == 0xfe && u[3] == 0xff) ||
                     (u[0] == 0xff && u[1] == 0xfe && u[2] == 0 && u[3] == 0)))
        what = "UTF-32 (it starts with a UTF-32 byte-order mark)";
    else if (len >= 2 && ((u[0] == 0xff && u[1] == 0xfe) || (u[0] == 0xfe && u[1] == 0xff)))
        what = "UTF-16 (it starts with a UTF-16 byte-order mark)";
    else if (memchr(buf, '\0', len < 4 ? len : 4) != NULL)
        what = "not UTF-8 text (a NUL byte among its first four: UTF-16 or UTF-32 without a mark?)";
    if (what == NULL) return AB_OK;
    return ab_fail(err, AB_EINPUT,
                   "%s:1:1: the file is %s; suites must be UTF-8 (convert it, e.g. "
                   "iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8)",
                   file, what);
}

/* Loads text (not NUL-terminated; len bytes) into the initialised *p: first
 * through the fast path (see above) when the text has no alias, and when that
 * fails for any reason but memory, again from the start through libyaml,
 * whose load makes every message. */
static ab_status load_text(const char *file, const char *buf, size_t len,
                           const abf_suite_load_opts *o, ab_problem *p, ab_error *err) {
    abf_limits lim;
    TRY(abf_limits_get(&lim, err));
    if ((uint64_t)len > (uint64_t)lim.file_bytes)
        return ab_fail(err, AB_EINPUT,
                       "%s: the file has %zu bytes, above the limit of %" PRId64
                       " (ARENABENCH_MAX_FILE_BYTES)",
                       file, len, lim.file_bytes);
    TRY(refuse_utf16(file, buf, len, err));
    /* An alias needs an anchor: without a '&' no alias can expand. */
    if (memchr(buf, '*', len) != NULL && memchr(buf, '&', len) != NULL) {
        TRY(count_aliases(file, buf, len, &lim, err));
    } else if (o == NULL || !o->libyaml_only) {
        ab_status st = load_once(file, buf, len, true, &lim, p, err);
        if (st == AB_OK && o != NULL && o->fast_loads != NULL) (*o->fast_loads)++;
        if (st == AB_OK || st == AB_ENOMEM) return st;
        ab_problem_free(p);
        ab_error_clear(err);
    }
    return load_once(file, buf, len, false, &lim, p, err);
}

ab_status abf_suite_load_buffer(const char *name, const char *buf, size_t len, ab_problem *p,
                                ab_error *err) {
    return abf_suite_load_buffer_with(name, buf, len, NULL, p, err);
}

ab_status abf_suite_load_buffer_with(const char *name, const char *buf, size_t len,
                                     const abf_suite_load_opts *o, ab_problem *p, ab_error *err) {
    ab_problem_init(p);
    if (name == NULL) name = "<buffer>";
    ab_status st = load_text(name, buf, len, o, p, err);
    if (st != AB_OK) ab_problem_free(p);
    return st;
}

ab_status abf_suite_load(const char *path, ab_problem *p, ab_error *err) {
    ab_problem_init(p);
    char *buf = NULL;
    size_t len = 0;
    /* Bounded whatever the file is: a pipe or /dev/zero stops at the limit. */
    ab_status st = abf_read_input(path, &buf, &len, err);
    if (st == AB_OK) st = load_text(path, buf, len, NULL, p, err);
    ab_free(buf);
    if (st != AB_OK) ab_problem_free(p);
    return st;
}

/* ==== the writer ===============================================================
 * libyaml's emitter does the quoting; each tensor is one flow mapping. */

/* A string that a plain scalar would turn into null. */
static bool null_like(const char *s) {
    return *s == '\0' || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 || strcmp(s, "Null") == 0 ||
           strcmp(s, "NULL") == 0;
}

static bool emit_str(yaml_emitter_t *em, const char *s) {
    yaml_event_t e;
    yaml_scalar_style_t style =
        null_like(s) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE;
    yaml_char_t *value = (yaml_char_t *)s;
    if (!yaml_scalar_event_initialize(&e, NULL, NULL, value, (int)strlen(s), 1, 1, style))
        return false;
    return yaml_emitter_emit(em, &e);
}

static bool emit_int(yaml_emitter_t *em, int64_t v) {
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRId64, v);
    return emit_str(em, buf);
}

static bool emit_kv_str(yaml_emitter_t *em, const char *k, const char *v) {
    return emit_str(em, k) && emit_str(em, v);
}

static bool emit_kv_int(yaml_emitter_t *em, const char *k, int64_t v) {
    return emit_str(em, k) && emit_int(em, v);
}

static bool emit_map(yaml_emitter_t *em, yaml_mapping_style_t style) {
    yaml_event_t e;
    return yaml_mapping_start_event_initialize(&e, NULL, NULL, 1, style) &&
           yaml_emitter_emit(em, &e);
}

static bool emit_seq(yaml_emitter_t *em, yaml_sequence_style_t style) {
    yaml_event_t e;
    return yaml_sequence_start_event_initialize(&e, NULL, NULL, 1, style) &&
           yaml_emitter_emit(em, &e);
}

static bool emit_end(yaml_emitter_t *em, bool map) {
    yaml_event_t e;
    int ok = map ? yaml_mapping_end_event_initialize(&e) : yaml_sequence_end_event_initialize(&e);
    return ok && yaml_emitter_emit(em, &e);
}

static bool emit_shape(yaml_emitter_t *em, const ab_tensor *t) {
    bool ok = emit_str(em, "shape") && emit_seq(em, YAML_FLOW_SEQUENCE_STYLE);
    for (int i = 0; ok && i < t->ndim; i++) ok = emit_int(em, t->shape[i]);
    return ok && emit_end(em, false) && emit_kv_str(em, "dtype", t->dtype->name);
}

static bool emit_tensor(yaml_emitter_t *em, const ab_problem *p, const ab_tensor *t) {
    bool ok = emit_map(em, YAML_FLOW_MAPPING_STYLE) && emit_kv_str(em, "name", t->name);
    int64_t physical = 0;
    if (t->dtype != NULL && !ab_tensor_padded_bytes(t, &physical)) physical = -1;
    if (ok && t->dtype != NULL) ok = emit_shape(em, t);
    if (ok && t->dtype != NULL && t->stride_align > 0)
        ok = emit_kv_int(em, "stride_align", t->stride_align);
    if (ok && (t->dtype == NULL || t->size != physical)) ok = emit_kv_int(em, "size", t->size);
    ok = ok && emit_kv_int(em, "start", t->start) && emit_kv_int(em, "end", t->end);
    if (ok && t->align != p->alignment) ok = emit_kv_int(em, "align", t->align);
    if (ok && t->offset != AB_NONE) ok = emit_kv_int(em, "offset", t->offset);
    if (ok && t->kind != AB_KIND_INTERMEDIATE) ok = emit_kv_str(em, "kind", kind_words[t->kind]);
    return ok && emit_end(em, true);
}

/* expect.peer_arena and expect.peer_offsets, for the peers that have them. */
static bool emit_peers(yaml_emitter_t *em, const ab_problem *p) {
    bool any_arena = false, any_offsets = false, ok = true;
    for (size_t i = 0; i < p->npeers; i++) {
        any_arena |= p->peers[i].arena != AB_NONE;
        any_offsets |= p->peers[i].offsets != NULL;
    }
    if (any_arena) ok = emit_str(em, "peer_arena") && emit_map(em, YAML_BLOCK_MAPPING_STYLE);
    for (size_t i = 0; ok && any_arena && i < p->npeers; i++) {
        const ab_peer_expect *x = &p->peers[i];
        if (x->arena == AB_NONE) continue;
        ok = emit_str(em, x->spec);
        if (ok && x->pool_bytes == NULL) {
            ok = emit_int(em, x->arena);
            continue;
        }
        ok = ok && emit_map(em, YAML_FLOW_MAPPING_STYLE);
        for (size_t k = 0; ok && k < p->npools; k++)
            ok = emit_kv_int(em, p->pools[k].name, x->pool_bytes[k]);
        ok = ok && emit_end(em, true);
    }
    if (ok && any_arena) ok = emit_end(em, true);
    if (ok && any_offsets)
        ok = emit_str(em, "peer_offsets") && emit_map(em, YAML_BLOCK_MAPPING_STYLE);
    for (size_t i = 0; ok && any_offsets && i < p->npeers; i++) {
        const ab_peer_expect *x = &p->peers[i];
        if (x->offsets == NULL) continue;
        ok = emit_str(em, x->spec) && emit_seq(em, YAML_FLOW_SEQUENCE_STYLE);
        for (size_t k = 0; ok && k < x->noffsets; k++) ok = emit_int(em, x->offsets[k]);
        ok = ok && emit_end(em, false);
    }
    return ok && (!any_offsets || emit_end(em, true));
}

static bool emit_expect(yaml_emitter_t *em, const ab_problem *p) {
    if (p->expect_lower_bound == AB_NONE && p->expect_optimum == AB_NONE && p->npeers == 0)
        return true;
    bool ok = emit_str(em, "expect") && emit_map(em, YAML_BLOCK_MAPPING_STYLE);
    if (ok && p->expect_lower_bound != AB_NONE)
        ok = emit_kv_int(em, "lower_bound", p->expect_lower_bound);
    if (ok && p->expect_optimum != AB_NONE) ok = emit_kv_int(em, "optimum", p->expect_optimum);
    return ok && emit_peers(em, p) && emit_end(em, true);
}

/* The suite's pools, one flow mapping each. */
static bool emit_pools(yaml_emitter_t *em, const ab_problem *p) {
    if (p->npools == 0) return true;
    bool ok = emit_str(em, "pools") && emit_seq(em, YAML_BLOCK_SEQUENCE_STYLE);
    for (size_t k = 0; ok && k < p->npools; k++) {
        ok = emit_map(em, YAML_FLOW_MAPPING_STYLE) && emit_kv_str(em, "name", p->pools[k].name);
        if (ok && p->pools[k].size != AB_NONE) ok = emit_kv_int(em, "size", p->pools[k].size);
        ok = ok && emit_end(em, true);
    }
    return ok && emit_end(em, false);
}

static bool emit_header(yaml_emitter_t *em, const ab_problem *p) {
    bool ok = emit_kv_str(em, "suite", p->name ? p->name : "");
    if (ok && p->description != NULL) ok = emit_kv_str(em, "description", p->description);
    if (ok && p->alignment != 1) ok = emit_kv_int(em, "alignment", p->alignment);
    if (ok && p->io != AB_IO_SEPARATE) ok = emit_kv_str(em, "io", io_words[p->io]);
    if (ok && p->capacity != AB_NONE) ok = emit_kv_int(em, "capacity", p->capacity);
    return ok && emit_pools(em, p);
}

static bool emit_suite(yaml_emitter_t *em, const ab_problem *p) {
    yaml_event_t e;
    bool ok =
        yaml_stream_start_event_initialize(&e, YAML_UTF8_ENCODING) && yaml_emitter_emit(em, &e);
    ok = ok && yaml_document_start_event_initialize(&e, NULL, NULL, NULL, 1) &&
         yaml_emitter_emit(em, &e);
    ok = ok && emit_map(em, YAML_BLOCK_MAPPING_STYLE) && emit_header(em, p);
    ok = ok && emit_str(em, "tensors") && emit_seq(em, YAML_BLOCK_SEQUENCE_STYLE);
    for (size_t i = 0; ok && i < p->n; i++) ok = emit_tensor(em, p, &p->t[i]);
    ok = ok && emit_end(em, false) && emit_expect(em, p) && emit_end(em, true);
    ok = ok && yaml_document_end_event_initialize(&e, 1) && yaml_emitter_emit(em, &e);
    ok = ok && yaml_stream_end_event_initialize(&e) && yaml_emitter_emit(em, &e);
    return ok && yaml_emitter_flush(em);
}

/* libyaml's output handler appending to an ab_buf; 0 (failure) on OOM. */
static int buf_output(void *data, unsigned char *bytes, size_t size) {
    ab_buf *b = data;
    ab_buf_append(b, (const char *)bytes, size);
    return !b->oom;
}

/* Emits p to the buffer b; path names it in messages. */
static ab_status emit_to(ab_buf *b, const ab_problem *p, const char *path, ab_error *err) {
    yaml_emitter_t em;
    if (!yaml_emitter_initialize(&em))
        return ab_fail(err, AB_ENOMEM, "%s: out of memory while writing the suite", path);
    yaml_emitter_set_output(&em, buf_output, b);
    yaml_emitter_set_unicode(&em, 1);
    yaml_emitter_set_width(&em, -1);
    ab_status st = AB_OK;
    if (!emit_suite(&em, p)) {
        if (em.error == YAML_MEMORY_ERROR)
            st = ab_fail(err, AB_ENOMEM, "%s: out of memory while writing the suite", path);
        else if (em.error == YAML_WRITER_ERROR)
            st = ab_fail(err, AB_EINTERNAL, "%s: cannot write: %s", path, strerror(errno));
        else
            st = ab_fail(err, AB_EINPUT, "%s: cannot write the suite: %s", path,
                         em.problem ? em.problem : "a name or description is not valid UTF-8");
    }
    yaml_emitter_delete(&em);
    return st;
}

ab_status abf_suite_write(const ab_problem *p, const char *path, ab_error *err) {
    ab_buf b = {0};
    ab_status st = emit_to(&b, p, path, err);
    if (st == AB_OK) st = ab_buf_write_file(&b, path, err);
    ab_buf_free(&b);
    return st;
}

ab_status abf_suite_render(const ab_problem *p, ab_buf *b, ab_error *err) {
    ab_status st = emit_to(b, p, p->name ? p->name : "suite", err);
    if (st == AB_OK && b->oom) st = ab_fail(err, AB_ENOMEM, "out of memory rendering a suite");
    return st;
}

static ab_status load_yaml(const char *path, const abf_load_options *o, ab_problem *p,
                           ab_error *err) {
    (void)o;
    return abf_suite_load(path, p, err);
}

static const char *const yaml_suffixes[] = {".yaml", ".yml", NULL};

/* The formats table's row (formats.c). */
const abf_format abf_format_yaml = {"yaml", "suite YAML", yaml_suffixes, NULL, 0, load_yaml,
                                    abf_suite_render};
