/*
 * minimalloc.c — MiniMalloc CSV in and out (see minimalloc.h). The format has
 * no quoting: a field is the text between commas, blanks around it trimmed
 * (core/csv.h with quotes off).
 */
#include "core/buf.h"
#include "harness/formats/minimalloc.h"
#include "harness/formats/formats.h"
#include "harness/formats/plan_formats.h"

#include "core/csv.h"
#include "core/file.h"

#include <string.h>

enum { COL_ID, COL_LOWER, COL_UPPER, COL_SIZE, COL_ALIGN, COL_OFFSET, COL_GAPS, NCOLS };

/* The header names MiniMalloc's own reader (converter.cc, FromCsv) accepts,
 * and the column each stands for. `end` is the one inclusive spelling: an
 * `end` column holds upper - 1 (MiniMalloc adds 1 to it, and so do we). */
typedef struct alias {
    const char *name;
    int col;
    bool inclusive;
} alias;

static const alias aliases[] = {
    {"id", COL_ID, false},        {"buffer", COL_ID, false},   {"buffer_id", COL_ID, false},
    {"lower", COL_LOWER, false},  {"begin", COL_LOWER, false}, {"start", COL_LOWER, false},
    {"upper", COL_UPPER, false},  {"end", COL_UPPER, true},    {"size", COL_SIZE, false},
    {"alignment", COL_ALIGN, false}, {"offset", COL_OFFSET, false}, {"gaps", COL_GAPS, false},
};
#define NALIASES (sizeof aliases / sizeof aliases[0])

/* The canonical name of each column, for messages about a column the header lacks. */
static const char *const col_names[NCOLS] = {"id", "lower", "upper", "size", "alignment",
                                             "offset", "gaps"};

typedef struct csv {
    const char *path;
    char *text;       /* the whole file, owned */
    size_t len;
    ab_csv rd;        /* the tokenizer over text, quotes off */
    int line;         /* the current record's line */
    int col[NCOLS];   /* field index of each column, -1 when absent */
    const char *name[NCOLS]; /* the header's spelling of each column (static strings) */
    bool end_inclusive; /* the upper column is spelled `end`: inclusive */
    int nfields;
} csv;

/* The text must be UTF-8 (ids reach YAML, reports and the store): AB_EINPUT
 * at the line and column (bytes, from 1) of the first byte that is not. */
static ab_status utf8_only(const csv *c, ab_error *err) {
    size_t bad = 0;
    if (ab_utf8_valid(c->text, c->len, &bad)) return AB_OK;
    int line = 1;
    size_t bol = 0;
    for (size_t i = 0; i < bad; i++)
        if (c->text[i] == '\n') line++, bol = i + 1;
    return ab_fail(err, AB_EINPUT, "%s:%d:%zu: byte 0x%02X is not UTF-8 (ids and columns must "
                   "be UTF-8 text)", c->path, line, bad - bol + 1,
                   (unsigned)(unsigned char)c->text[bad]);
}

/* Starts tokenizing c->text (c->len bytes and a NUL after them, owned). */
static ab_status start_text(csv *c, ab_error *err) {
    if (memchr(c->text, '\0', c->len) != NULL)
        return ab_fail(err, AB_EINPUT, "%s: a NUL byte: not a CSV text file", c->path);
    ab_status st = utf8_only(c, err);
    if (st != AB_OK) return st;
    ab_csv_init(&c->rd, c->path, c->text, c->len, false);
    return AB_OK;
}

/* Reads the file c->path (data == NULL) or copies data[0 .. len) into c->text. */
static ab_status slurp(csv *c, const char *data, size_t len, ab_error *err) {
    if (data == NULL) {
        ab_status st = abf_read_input(c->path, &c->text, &c->len, err);
        if (st != AB_OK) return st;
    } else {
        c->text = len < SIZE_MAX ? ab_malloc(len + 1) : NULL;
        if (c->text == NULL) return ab_fail(err, AB_ENOMEM, "%s: out of memory", c->path);
        if (len > 0) memcpy(c->text, data, len);
        c->text[len] = '\0';
        c->len = len;
    }
    return start_text(c, err);
}

/* The next non-blank line, split into fields (at most max, *n counts them
 * all); false at the end of the file (or *st set when memory runs out). */
static bool next_line(csv *c, char **fields, int max, int *n, ab_status *st, ab_error *err) {
    bool eof;
    *st = ab_csv_next(&c->rd, &eof, err);
    if (*st != AB_OK || eof) return false;
    c->line = c->rd.line;
    *n = (int)c->rd.nf;
    for (int i = 0; i < *n && i < max; i++) fields[i] = c->rd.f[i].s;
    return true;
}

static const alias *find_alias(const char *name) {
    for (size_t k = 0; k < NALIASES; k++)
        if (strcmp(aliases[k].name, name) == 0) return &aliases[k];
    return NULL;
}

/* Checks that the header names column k (in any of its spellings). */
static ab_status need_col(const csv *c, int k, ab_error *err) {
    if (c->col[k] >= 0) return AB_OK;
    static const char *const spellings[NCOLS] = {"id, buffer or buffer_id",
                                                 "lower, begin or start",
                                                 "upper (half-open) or end (inclusive)", "size",
                                                 "alignment", "offset", "gaps"};
    return ab_fail(err, AB_EINPUT, "%s:%d: header: missing column '%s' (spelled %s)", c->path,
                   c->line, col_names[k], spellings[k]);
}

static ab_status read_header(csv *c, bool need_offset, ab_error *err) {
    char *f[64];
    int n;
    ab_status st;
    if (!next_line(c, f, 64, &n, &st, err))
        return st != AB_OK ? st : ab_fail(err, AB_EINPUT, "%s: empty file", c->path);
    for (int k = 0; k < NCOLS; k++) {
        c->col[k] = -1;
        c->name[k] = col_names[k];
    }
    c->end_inclusive = false;
    if (n > 64)
        return ab_fail(err, AB_EINPUT, "%s:%d: header: %d columns, at most 64", c->path,
                       c->line, n);
    for (int i = 0; i < n; i++) {
        const alias *a = find_alias(f[i]);
        if (a == NULL)
            return ab_fail(err, AB_EINPUT, "%s:%d:%zu: header: unknown column '%s' (MiniMalloc "
                           "columns: id|buffer|buffer_id, lower|begin|start, upper|end, size, "
                           "alignment, gaps, offset)", c->path, c->line, c->rd.f[i].col, f[i]);
        if (c->col[a->col] >= 0)
            return ab_fail(err, AB_EINPUT, "%s:%d:%zu: header: column '%s' twice (also as '%s')",
                           c->path, c->line, c->rd.f[i].col, a->name, c->name[a->col]);
        c->col[a->col] = i;
        c->name[a->col] = a->name;
        if (a->col == COL_UPPER) c->end_inclusive = a->inclusive;
    }
    c->nfields = n;
    st = need_col(c, COL_ID, err);
    if (st == AB_OK && need_offset) return need_col(c, COL_OFFSET, err);
    for (int k = COL_LOWER; st == AB_OK && k <= COL_SIZE; k++) st = need_col(c, k, err);
    return st;
}

/* The byte column (from 1) of field s of the current row, as the tokenizer
 * found it (f[i] is the row's field i, c->rd.f[i].s). */
static size_t column_of(const csv *c, char **f, const char *s) {
    (void)f;
    for (size_t i = 0; i < c->rd.nf; i++)
        if (c->rd.f[i].s == s) return c->rd.f[i].col;
    return 1;
}

/* Reads column k of the current row as an integer in [lo, hi] into *v
 * (AB_NONE when the column is absent). */
static ab_status field_int(const csv *c, char **f, int k, int64_t lo, int64_t hi, int64_t *v,
                           ab_error *err) {
    *v = AB_NONE;
    if (c->col[k] < 0) return AB_OK;
    const char *s = f[c->col[k]];
    if (!ab_parse_int64(s, strlen(s), v) || *v < lo || *v > hi)
        return ab_fail(err, AB_EINPUT, "%s:%d:%zu: %s: expected an integer in [%lld, %lld], got '%s'",
                       c->path, c->line, column_of(c, f, s), c->name[k], (long long)lo,
                       (long long)hi, s);
    return AB_OK;
}

/* "A.1048576.csv" -> name "A", capacity 1048576 (AB_NONE when absent). */
static char *name_from_path(const char *path, int64_t *capacity) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".csv") == 0) len -= 4;
    *capacity = AB_NONE;
    const char *dot = NULL;
    for (size_t i = len; i-- > 0;)
        if (base[i] == '.') {
            dot = base + i;
            break;
        }
    int64_t cap;
    if (dot != NULL && ab_parse_int64(dot + 1, len - (size_t)(dot + 1 - base), &cap) && cap > 0) {
        *capacity = cap;
        len = (size_t)(dot - base);
    }
    return ab_strndup(base, len);
}

/* MiniMalloc's `gaps` column lists times within a buffer's lifespan when it
 * is not live (or holds only part of its bytes): "lo-hi" or "lo-hi@a:b",
 * blank-separated. arenabench's tensor has one contiguous live range and one
 * size, so a buffer with gaps has no faithful translation: an empty field is
 * fine, anything else is refused, naming the line (never ignored: that would
 * plan a different problem than the file describes). */
static ab_status no_gaps(const csv *c, char **f, ab_error *err) {
    if (c->col[COL_GAPS] < 0 || f[c->col[COL_GAPS]][0] == '\0') return AB_OK;
    return ab_fail(err, AB_EINPUT, "%s:%d:%zu: gaps: '%.80s': buffers with gaps are not supported "
                   "(a tensor has one contiguous live range); leave the field empty or split "
                   "the buffer", c->path, c->line, column_of(c, f, f[c->col[COL_GAPS]]),
                   f[c->col[COL_GAPS]]);
}

static ab_status read_rows(csv *c, ab_problem *p, ab_error *err) {
    char *f[64];
    int n;
    ab_status st = AB_OK;
    int64_t total = 0; /* the sizes so far, each rounded up to its alignment */
    while (next_line(c, f, 64, &n, &st, err)) {
        if (n != c->nfields)
            return ab_fail(err, AB_EINPUT, "%s:%d: expected %d fields like the header, got %d",
                           c->path, c->line, c->nfields, n);
        int64_t lower, upper, size, align;
        bool incl = c->end_inclusive;
        st = field_int(c, f, COL_LOWER, 0, AB_MAX_SIZE, &lower, err);
        /* upper (end + 1 when inclusive) is at most 2^62, so the range writes back */
        if (st == AB_OK)
            st = field_int(c, f, COL_UPPER, incl ? 0 : 1, incl ? AB_MAX_SIZE - 1 : AB_MAX_SIZE,
                           &upper, err);
        if (st == AB_OK) st = field_int(c, f, COL_SIZE, 1, AB_MAX_SIZE, &size, err);
        if (st == AB_OK) st = field_int(c, f, COL_ALIGN, 1, AB_MAX_SIZE, &align, err);
        if (st == AB_OK) st = no_gaps(c, f, err);
        /* an `offset` field fixes the buffer there (MiniMalloc's meaning, and
         * what the writer writes for a fixed tensor); an empty one leaves it free */
        int64_t offset = AB_NONE;
        if (st == AB_OK && c->col[COL_OFFSET] >= 0 && f[c->col[COL_OFFSET]][0] != '\0')
            st = field_int(c, f, COL_OFFSET, 0, AB_MAX_SIZE, &offset, err);
        if (st != AB_OK) return st;
        if (incl) upper++; /* `end` is inclusive: MiniMalloc's upper is end + 1 */
        if (upper <= lower && incl)
            return ab_fail(err, AB_EINPUT, "%s:%d:%zu: %s: %lld is below %s %lld (the live range "
                           "[%s, %s] is inclusive)", c->path, c->line,
                           column_of(c, f, f[c->col[COL_UPPER]]), c->name[COL_UPPER],
                           (long long)upper - 1, c->name[COL_LOWER], (long long)lower,
                           c->name[COL_LOWER], c->name[COL_UPPER]);
        if (upper <= lower)
            return ab_fail(err, AB_EINPUT, "%s:%d:%zu: %s: %lld must be above %s %lld (the "
                           "interval [%s, %s) is half-open)", c->path, c->line,
                           column_of(c, f, f[c->col[COL_UPPER]]), c->name[COL_UPPER], (long long)upper, c->name[COL_LOWER],
                           (long long)lower, c->name[COL_LOWER], c->name[COL_UPPER]);
        if (align != AB_NONE && !ab_is_pow2(align))
            return ab_fail(err, AB_EINPUT, "%s:%d:%zu: %s: %lld is not a power of two",
                           c->path, c->line, column_of(c, f, f[c->col[COL_ALIGN]]),
                           c->name[COL_ALIGN], (long long)align);
        if (f[c->col[COL_ID]][0] == '\0')
            return ab_fail(err, AB_EINPUT, "%s:%d:%zu: %s: empty", c->path, c->line,
                           column_of(c, f, f[c->col[COL_ID]]), c->name[COL_ID]);
        /* README's input limit, as the YAML loader enforces it: the sizes, each
         * rounded up to its alignment, add up to at most 2^62 */
        int64_t phys;
        if (ab_align_up_ovf(size, align == AB_NONE ? 1 : align, &phys) ||
            ab_add_ovf(total, phys, &total) || total > AB_MAX_SIZE)
            return ab_fail(err, AB_EINPUT, "%s:%d:%zu: %s: the buffers' sizes, each rounded up "
                           "to its alignment, add up to more than 2^62 bytes here", c->path,
                           c->line, column_of(c, f, f[c->col[COL_SIZE]]), c->name[COL_SIZE]);
        /* fixed offsets as the YAML loader checks them */
        int64_t oend;
        if (offset != AB_NONE && (ab_add_ovf(offset, size, &oend) || oend > AB_MAX_SIZE))
            return ab_fail(err, AB_EINPUT, "%s:%d:%zu: %s: offset + size must be at most 2^62, "
                           "got %lld + %lld", c->path, c->line,
                           column_of(c, f, f[c->col[COL_OFFSET]]), c->name[COL_OFFSET],
                           (long long)offset, (long long)size);
        if (offset != AB_NONE && align != AB_NONE && offset % align != 0)
            return ab_fail(err, AB_EINPUT, "%s:%d:%zu: %s: must be a multiple of %s (%lld), got "
                           "'%lld'", c->path, c->line, column_of(c, f, f[c->col[COL_OFFSET]]),
                           c->name[COL_OFFSET], c->name[COL_ALIGN], (long long)align,
                           (long long)offset);
        ab_tensor t = {.name = f[c->col[COL_ID]], .size = size, .start = lower, .end = upper - 1,
                       .align = align == AB_NONE ? 1 : align, .offset = offset,
                       .logical_bits = size <= INT64_MAX / 8 ? size * 8 : INT64_MAX,
                       .line = c->line};
        if ((st = ab_problem_add(p, &t, err)) != AB_OK) return st;
    }
    return st;
}

static const char *tensor_name(const void *ctx, size_t i) {
    return ((const ab_problem *)ctx)->t[i].name;
}

static ab_status load(const char *path, const char *data, size_t len, ab_problem *p,
                      bool *had_offsets, ab_error *err) {
    ab_problem_init(p);
    csv c = {.path = path};
    for (int k = 0; k < NCOLS; k++) c.col[k] = -1;
    ab_status st = slurp(&c, data, len, err);
    if (st == AB_OK) st = read_header(&c, false, err);
    if (st == AB_OK) st = read_rows(&c, p, err);
    if (st == AB_OK && p->n == 0) st = ab_fail(err, AB_EINPUT, "%s: no buffers", path);
    size_t a = 0, b = 0;
    int dup = st == AB_OK ? ab_find_duplicate(p->n, tensor_name, p, &a, &b) : 0;
    if (dup < 0) st = ab_fail(err, AB_ENOMEM, "%s: out of memory", path);
    if (dup > 0)
        st = ab_fail(err, AB_EINPUT, "%s:%d: id: '%s' again (first on line %d)", path,
                     p->t[b].line, p->t[b].name, p->t[a].line);
    if (st == AB_OK) {
        p->name = name_from_path(path, &p->capacity);
        p->source = ab_strdup(path);
        p->description = ab_strdup(c.end_inclusive
                                       ? "imported from MiniMalloc CSV (inclusive [start, end])"
                                       : "imported from MiniMalloc CSV (half-open [lower, upper) "
                                         "read as inclusive [lower, upper - 1])");
        if (!p->name || !p->source || !p->description)
            st = ab_fail(err, AB_ENOMEM, "%s: out of memory", path);
    }
    if (had_offsets) *had_offsets = c.col[COL_OFFSET] >= 0;
    ab_csv_free(&c.rd);
    ab_free(c.text);
    if (st != AB_OK) ab_problem_free(p);
    return st;
}

ab_status abf_minimalloc_load(const char *path, ab_problem *p, bool *had_offsets, ab_error *err) {
    return load(path, NULL, 0, p, had_offsets, err);
}

ab_status abf_minimalloc_load_buffer(const char *path, const char *data, size_t len,
                                     ab_problem *p, bool *had_offsets, ab_error *err) {
    return load(path, data != NULL ? data : "", len, p, had_offsets, err);
}

ab_status abf_minimalloc_render(const ab_problem *p, ab_buf *b, ab_error *err) {
    bool aligned = false, fixed = false;
    for (size_t i = 0; i < p->n; i++) {
        if (!ab_in_arena(p, i)) continue;
        aligned |= p->t[i].align > 1;
        fixed |= p->t[i].offset != AB_NONE;
    }
    ab_buf_printf(b, "id,lower,upper,size%s%s\n", aligned ? ",alignment" : "", fixed ? ",offset" : "");
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *t = &p->t[i];
        if (!ab_in_arena(p, i)) continue;
        if (strpbrk(t->name, ",\r\n\"") != NULL)
            return ab_fail(err, AB_EINPUT, "tensor '%s': MiniMalloc CSV cannot hold a name with "
                           "a comma, quote or line break", t->name);
        ab_buf_printf(b, "%s,%lld,%lld,%lld", t->name, (long long)t->start,
                      (long long)t->end + 1, (long long)t->size);
        if (aligned) ab_buf_printf(b, ",%lld", (long long)t->align);
        if (fixed && t->offset != AB_NONE) ab_buf_printf(b, ",%lld", (long long)t->offset);
        else if (fixed) ab_buf_printf(b, ",");
        ab_buf_printf(b, "\n");
    }
    return b->oom ? ab_fail(err, AB_ENOMEM, "out of memory writing MiniMalloc CSV") : AB_OK;
}

/* Checks that column k, when present, equals want for the current row. */
static ab_status agree(const csv *c, char **f, int k, int64_t want, const char *name,
                       ab_error *err) {
    int64_t v;
    ab_status st = field_int(c, f, k, INT64_MIN, INT64_MAX, &v, err);
    if (st != AB_OK || c->col[k] < 0 || v == want) return st;
    return ab_fail(err, AB_EINPUT, "%s:%d:%zu: %s: %lld disagrees with the suite's %lld for '%s'",
                   c->path, c->line, column_of(c, f, f[c->col[k]]), c->name[k], (long long)v,
                   (long long)want, name);
}

static ab_status plan_read(const char *path, const char *data, size_t len, const ab_problem *p,
                           ab_plan *pl, ab_error *err) {
    ab_plan_init(pl);
    csv c = {.path = path};
    for (int k = 0; k < NCOLS; k++) c.col[k] = -1;
    ab_names *names = NULL;
    ab_status st = slurp(&c, data, len, err);
    if (st == AB_OK) st = read_header(&c, true, err);
    if (st == AB_OK) st = ab_names_build(p, &names, NULL, NULL, err);
    char *f[64];
    int n;
    while (st == AB_OK && next_line(&c, f, 64, &n, &st, err)) {
        if (n != c.nfields) {
            st = ab_fail(err, AB_EINPUT, "%s:%d: expected %d fields like the header, got %d",
                         path, c.line, c.nfields, n);
            break;
        }
        const char *id = f[c.col[COL_ID]];
        int64_t off;
        st = field_int(&c, f, COL_OFFSET, INT64_MIN, INT64_MAX, &off, err);
        size_t i = st == AB_OK ? ab_names_find(names, id, strlen(id)) : AB_NO_TENSOR;
        if (st == AB_OK && i != AB_NO_TENSOR) {
            const ab_tensor *t = &p->t[i];
            st = agree(&c, f, COL_LOWER, t->start, t->name, err);
            if (st == AB_OK)
                st = agree(&c, f, COL_UPPER, c.end_inclusive ? t->end : t->end + 1, t->name, err);
            if (st == AB_OK) st = no_gaps(&c, f, err);
            if (st == AB_OK) st = agree(&c, f, COL_SIZE, t->size, t->name, err);
        }
        if (st == AB_OK) st = ab_plan_add(pl, i, off, i == AB_NO_TENSOR ? id : NULL, c.line, err);
    }
    ab_names_free(names);
    ab_csv_free(&c.rd);
    ab_free(c.text);
    if (st != AB_OK) ab_plan_free(pl);
    return st;
}

ab_status abf_minimalloc_plan_read(const char *path, const ab_problem *p, ab_plan *pl,
                                   ab_error *err) {
    return plan_read(path, NULL, 0, p, pl, err);
}

ab_status abf_minimalloc_plan_read_buffer(const char *path, const char *data, size_t len,
                                          const ab_problem *p, ab_plan *pl, ab_error *err) {
    return plan_read(path, data != NULL ? data : "", len, p, pl, err);
}

ab_status abf_minimalloc_plan_render(const ab_problem *p, const ab_plan *pl, ab_buf *b,
                                     ab_error *err) {
    ab_buf_printf(b, "id,lower,upper,size,offset\n");
    for (size_t k = 0; k < pl->n; k++) {
        size_t i = pl->v[k].tensor;
        if (i >= p->n) return ab_fail(err, AB_EINTERNAL, "plan entry %zu names no tensor", k);
        const ab_tensor *t = &p->t[i];
        if (strpbrk(t->name, ",\r\n") != NULL) /* it would not read back */
            return ab_fail(err, AB_EINPUT, "tensor '%s': a MiniMalloc plan cannot hold a name "
                           "with a comma or line break", t->name);
        ab_buf_printf(b, "%s,%lld,%lld,%lld,%lld\n", t->name, (long long)t->start,
                      (long long)t->end + 1, (long long)t->size, (long long)pl->v[k].offset);
    }
    return b->oom ? ab_fail(err, AB_ENOMEM, "out of memory writing MiniMalloc CSV") : AB_OK;
}

static ab_status load_minimalloc(const char *path, const abf_load_options *o, ab_problem *p,
                                 ab_error *err) {
    (void)o;
    return abf_minimalloc_load(path, p, NULL, err);
}

static const char *const csv_suffixes[] = {".csv", NULL};

/* The formats table's row (formats.c). */
const abf_format abf_format_minimalloc = {"minimalloc", "MiniMalloc CSV", csv_suffixes, NULL, 0,
                                          load_minimalloc, abf_minimalloc_render};

/* ---- the plan formats table's row (plan_formats.c) ---------------------------------- */

/* A header naming the id column in one of MiniMalloc's spellings. */
static bool sniff_plan(const unsigned char *head, size_t n) {
    return abf_plan_head_has_column(head, n, "id", false) ||
           abf_plan_head_has_column(head, n, "buffer", false) ||
           abf_plan_head_has_column(head, n, "buffer_id", false);
}

static ab_status write_plan(const abf_plan_out *o, ab_buf *b, ab_error *err) {
    return abf_minimalloc_plan_render(o->view, o->plan, b, err);
}

const abf_plan_format abf_plan_format_minimalloc = {
    .name = "minimalloc",
    .summary = "MiniMalloc's id,lower,upper,size[,alignment],offset; [lower, upper)",
    .sniff = sniff_plan,
    .read = abf_minimalloc_plan_read,
    .write = write_plan,
};
