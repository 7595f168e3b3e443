/*
 * plan_csv.c — reading and writing plan files (see plan_csv.h, DESIGN.md §4).
 *
 * The reader takes RFC 4180 CSV through core/csv.h with quoting on: fields
 * separated by ',', a field may be quoted with '"' (a quote inside doubled,
 * commas and line ends allowed inside), records end in LF, CRLF or a lone CR,
 * the last one may or may not end in one. Beyond RFC 4180 it accepts what a
 * user's tools produce:
 *   - a UTF-8 byte order mark before the header;
 *   - blank lines (empty or spaces and tabs only), ignored anywhere;
 *   - spaces and tabs around a field, dropped (quote a name to keep them);
 *   - header names in any case and any column order;
 *   - an empty size/start/end field, meaning "not given" for that row (the
 *     writer leaves them empty for entries that name no tensor).
 * path "-" reads standard input.
 *
 * The whole file is read into one buffer (core/file.h) and tokenized in place,
 * so a row costs no allocation beyond its entry.
 *
 * Errors are AB_EINPUT with "FILE:LINE: COLUMN: message", LINE being the line
 * a record starts on, e.g.
 *   p.csv:7: offset: expected a non-negative integer, got '12x'
 */
#include "harness/formats/plan_csv.h"
#include "harness/formats/formats.h"

#include "core/buf.h"
#include "core/csv.h"
#include "core/file.h"
#include "harness/formats/plan_formats.h"
#include "harness/formats/profile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ---- columns ------------------------------------------------------------- */

enum { COL_TENSOR, COL_OFFSET, COL_SIZE, COL_START, COL_END, COL_POOL, NCOLS };

static const char *const col_names[NCOLS] = {"tensor", "offset", "size", "start", "end", "pool"};

/* ---- messages ------------------------------------------------------------ */

/* A printable, shortened copy of s for a message: control bytes become '?',
 * more than 60 bytes are cut at a UTF-8 boundary and end in "...". */
static const char *show(const char *s, size_t len, char out[static 72]) {
    size_t n = len;
    bool cut = n > 60;
    if (cut) {
        n = 60;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        out[i] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
    }
    strcpy(out + n, cut ? "..." : "");
    return out;
}

/* ---- the header ---------------------------------------------------------- */

/* Maps the header's fields to columns: col[k] is the field index of column k,
 * or -1 when absent. names[i] receives the canonical name of field i. */
static ab_status read_header(ab_csv *c, long col[NCOLS], const char **names, int line,
                             ab_error *err) {
    for (int k = 0; k < NCOLS; k++) col[k] = -1;
    for (size_t i = 0; i < c->nf; i++) {
        const ab_csv_field *f = &c->f[i];
        char sbuf[72];
        if (f->len == 0)
            return ab_fail(err, AB_EINPUT, "%s:%d:%zu: header: column %zu has no name", c->path,
                           line, f->col, i + 1);
        int k = 0;
        while (k < NCOLS && strcasecmp(f->s, col_names[k]) != 0) k++;
        if (k == NCOLS)
            return ab_fail(err, AB_EINPUT,
                           "%s:%d:%zu: header: unknown column '%s' (a plan file starts with a "
                           "header of tensor, offset and optionally size, start, end)",
                           c->path, line, f->col, show(f->s, f->len, sbuf));
        if (col[k] >= 0)
            return ab_fail(err, AB_EINPUT, "%s:%d:%zu: header: column '%s' appears twice",
                           c->path, line, f->col, col_names[k]);
        col[k] = (long)i;
        names[i] = col_names[k];
    }
    for (int k = COL_TENSOR; k <= COL_OFFSET; k++)
        if (col[k] < 0)
            return ab_fail(err, AB_EINPUT, "%s:%d: header: missing column '%s'", c->path, line,
                           col_names[k]);
    return AB_OK;
}

/* ---- rows ---------------------------------------------------------------- */

/* Parses field f of column k as an integer in [lo, AB_MAX_SIZE]. */
static ab_status int_field(const ab_csv *c, int line, int k, const ab_csv_field *f, int64_t lo,
                           int64_t *v, ab_error *err) {
    char sbuf[72];
    const char *what = lo > 0 ? "a positive integer" : "a non-negative integer";
    if (!ab_parse_int64(f->s, f->len, v) || *v < lo)
        return ab_fail(err, AB_EINPUT, "%s:%d:%zu: %s: expected %s, got '%s'", c->path, line,
                       f->col, col_names[k], what, show(f->s, f->len, sbuf));
    if (*v > AB_MAX_SIZE)
        return ab_fail(err, AB_EINPUT,
                       "%s:%d:%zu: %s: %" PRId64 " is above the largest accepted, %" PRId64,
                       c->path, line, f->col, col_names[k], *v, AB_MAX_SIZE);
    return AB_OK;
}

/* Checks an optional column (size, start, end) of a row against tensor t
 * (NULL when the name is unknown: the value is only parsed). */
static ab_status check_extra(const ab_csv *c, int line, int k, long idx, const ab_tensor *t,
                             ab_error *err) {
    if (idx < 0) return AB_OK;
    const ab_csv_field *f = &c->f[idx];
    if (f->len == 0) return AB_OK; /* left empty: not given */
    int64_t v;
    ab_status st = int_field(c, line, k, f, k == COL_SIZE ? 1 : 0, &v, err);
    if (st != AB_OK || t == NULL) return st;
    int64_t want = k == COL_SIZE ? t->size : k == COL_START ? t->start : t->end;
    if (v != want) {
        char sbuf[72], hint[160] = "";
        for (size_t i = 0; k == COL_SIZE && abf_profile_at(i) != NULL; i++) {
            const abf_profile *pr = abf_profile_at(i); /* a size its rounding would give */
            if (pr->round_sizes && pr->align > 1 && v > want && v % pr->align == 0 &&
                v - want < pr->align) {
                snprintf(hint, sizeof hint, " (the plan's sizes look rounded to %lld, as --profile "
                         "%s does: give --profile %s)", (long long)pr->align, pr->name, pr->name);
                break;
            }
        }
        return ab_fail(err, AB_EINPUT,
                       "%s:%d:%zu: %s: %" PRId64 " disagrees with the suite's %s %" PRId64
                       " for '%s'%s",
                       c->path, line, f->col, col_names[k], v, col_names[k], want,
                       show(t->name, strlen(t->name), sbuf), hint);
    }
    return AB_OK;
}

/* With a `pool` column: turns *offset, an offset in the named pool, into an
 * offset in the pools' joint address space (core/problem.h). An empty pool
 * field leaves *offset as a joint offset. An offset at or past the end of a
 * bounded pool cannot be told apart from one in the next pool, so it is
 * refused here; running past the end is the checker's to report. */
static ab_status pool_offset(const ab_csv *c, int line, const ab_csv_field *f, const ab_problem *p,
                             int64_t *offset, ab_error *err) {
    char sbuf[72];
    if (f->len == 0) return AB_OK;
    size_t k = 0;
    while (k < p->npools && strcmp(p->pools[k].name, f->s) != 0) k++;
    if (p->npools == 0)
        return ab_fail(err, AB_EINPUT, "%s:%d:%zu: pool: '%s', but the suite declares no pools",
                       c->path, line, f->col, show(f->s, f->len, sbuf));
    if (k == p->npools)
        return ab_fail(err, AB_EINPUT, "%s:%d:%zu: pool: '%s' is not a pool of the suite",
                       c->path, line, f->col, show(f->s, f->len, sbuf));
    if (p->pools[k].size != AB_NONE && *offset >= p->pools[k].size)
        return ab_fail(err, AB_EINPUT,
                       "%s:%d: offset: %" PRId64 " is outside pool '%s' (its size is %" PRId64 ")",
                       c->path, line, *offset, p->pools[k].name, p->pools[k].size);
    *offset += ab_pool_base(p, k);
    return AB_OK;
}

/* Turns the current record (a data row) into a plan entry. */
static ab_status read_row(const ab_csv *c, const long col[NCOLS], size_t nhead, int line,
                          const ab_problem *p, const ab_names *names, ab_plan *pl,
                          ab_error *err) {
    if (c->nf < nhead) {
        size_t missing = c->nf; /* the first column with no field */
        const char *name = "?";
        for (int k = 0; k < NCOLS; k++)
            if (col[k] == (long)missing) name = col_names[k];
        return ab_fail(err, AB_EINPUT,
                       "%s:%d: %s: missing: the row has %zu field%s, the header %zu columns",
                       c->path, line, name, c->nf, c->nf == 1 ? "" : "s", nhead);
    }
    if (c->nf > nhead)
        return ab_fail(err, AB_EINPUT,
                       "%s:%d: field %zu: one too many: the row has %zu fields, the header %zu "
                       "columns",
                       c->path, line, nhead + 1, c->nf, nhead);
    const ab_csv_field *name = &c->f[col[COL_TENSOR]];
    if (name->len == 0)
        return ab_fail(err, AB_EINPUT, "%s:%d:%zu: tensor: empty name", c->path, line, name->col);
    int64_t offset;
    ab_status st = int_field(c, line, COL_OFFSET, &c->f[col[COL_OFFSET]], 0, &offset, err);
    if (st != AB_OK) return st;
    size_t ti = ab_names_find(names, name->s, name->len);
    const ab_tensor *t = ti == AB_NO_TENSOR ? NULL : &p->t[ti];
    for (int k = COL_SIZE; k <= COL_END; k++) {
        st = check_extra(c, line, k, col[k], t, err);
        if (st != AB_OK) return st;
    }
    if (col[COL_POOL] >= 0) {
        st = pool_offset(c, line, &c->f[col[COL_POOL]], p, &offset, err);
        if (st != AB_OK) return st;
    }
    st = ab_plan_add(pl, ti, offset, t == NULL ? name->s : NULL, line, err);
    if (st != AB_OK)
        return ab_fail(err, st, "%s:%d: out of memory reading the plan", c->path, line);
    return AB_OK;
}

/* Rejects a file with a NUL byte (not text), naming its line, and one that
 * is not UTF-8, naming its line and column. */
static ab_status check_text(const char *path, const char *buf, size_t len, ab_error *err) {
    const char *nul = memchr(buf, '\0', len);
    size_t bad = 0;
    if (nul == NULL && !ab_utf8_valid(buf, len, &bad)) {
        int line = 1;
        size_t bol = 0;
        for (size_t i = 0; i < bad; i++)
            if (buf[i] == '\n') line++, bol = i + 1;
        return ab_fail(err, AB_EINPUT, "%s:%d:%zu: byte 0x%02X is not UTF-8 (a plan file is "
                       "UTF-8 text)", path, line, bad - bol + 1, (unsigned)(unsigned char)buf[bad]);
    }
    if (nul == NULL) return AB_OK;
    int line = 1;
    for (const char *q = buf; q < nul; q++)
        if (*q == '\n' || (*q == '\r' && q[1] != '\n')) line++;
    return ab_fail(err, AB_EINPUT, "%s:%d: a NUL byte: a plan file is text", path, line);
}

/* Reads the header and every record after it. */
static ab_status parse(ab_csv *c, const ab_problem *p, const ab_names *names, ab_plan *pl,
                       ab_error *err) {
    bool eof;
    ab_status st = ab_csv_next(c, &eof, err);
    if (st != AB_OK) return st;
    if (eof)
        return ab_fail(err, AB_EINPUT,
                       "%s:%d: header: the file is empty; expected a header such as "
                       "'tensor,offset'",
                       c->path, c->line);
    size_t nhead = c->nf;
    const char **colnames = ab_alloc_array(nhead, sizeof *colnames);
    if (colnames == NULL)
        return ab_fail(err, AB_ENOMEM, "%s: out of memory reading the plan", c->path);
    long col[NCOLS];
    st = read_header(c, col, colnames, c->line, err);
    c->names = colnames;
    c->nnames = nhead;
    while (st == AB_OK) {
        st = ab_csv_next(c, &eof, err);
        if (st != AB_OK || eof) break;
        st = read_row(c, col, nhead, c->line, p, names, pl, err);
    }
    c->names = NULL;
    ab_free(colnames);
    return st;
}

/* Reads the plan in buf[0 .. len) (owned, a NUL at buf[len]), named name. */
static ab_status read_text(const char *name, char *buf, size_t len, const ab_problem *p,
                           ab_plan *pl, ab_error *err) {
    ab_status st;
    ab_csv c;
    ab_csv_init(&c, name, buf, len, true);
    while (c.pos < len && buf[c.pos] == '#') { /* comment lines before the header */
        while (c.pos < len && buf[c.pos] != '\n') c.pos++;
        if (c.pos < len) c.pos++;
        c.at++;
        c.line = c.at;
    }
    ab_names *names = NULL;
    st = check_text(c.path, buf, len, err);
    if (st == AB_OK) st = ab_names_build(p, &names, NULL, NULL, err);
    if (st == AB_OK) st = parse(&c, p, names, pl, err);
    ab_names_free(names);
    ab_csv_free(&c);
    ab_free(buf);
    if (st != AB_OK) ab_plan_free(pl);
    return st;
}

ab_status abf_plan_read(const char *path, const ab_problem *p, ab_plan *pl, ab_error *err) {
    ab_plan_init(pl);
    char *buf;
    size_t len;
    ab_status st = abf_read_input(path, &buf, &len, err);
    if (st != AB_OK) return st;
    return read_text(strcmp(path, "-") == 0 ? "<stdin>" : path, buf, len, p, pl, err);
}

ab_status abf_plan_read_buffer(const char *name, const char *data, size_t len,
                               const ab_problem *p, ab_plan *pl, ab_error *err) {
    ab_plan_init(pl);
    char *buf = len < SIZE_MAX ? ab_malloc(len + 1) : NULL;
    if (buf == NULL) return ab_fail(err, AB_ENOMEM, "%s: out of memory reading the plan", name);
    if (len > 0) memcpy(buf, data, len);
    buf[len] = '\0';
    return read_text(name, buf, len, p, pl, err);
}

/* ---- writing ------------------------------------------------------------- */

/* true when a name must be quoted to read back as it is. */
static bool is_blank(char c) { return c == ' ' || c == '\t'; }

static bool needs_quotes(const char *s) {
    size_t n = strlen(s);
    if (n == 0 || is_blank(s[0]) || is_blank(s[n - 1])) return true;
    return strpbrk(s, ",\"\r\n") != NULL;
}

static void write_name(ab_buf *b, const char *s) {
    if (!needs_quotes(s)) {
        ab_buf_append(b, s, strlen(s));
        return;
    }
    ab_buf_append(b, "\"", 1);
    for (; *s; s++) {
        if (*s == '"') ab_buf_append(b, "\"", 1);
        ab_buf_append(b, s, 1);
    }
    ab_buf_append(b, "\"", 1);
}

/* Checks that every entry can be written, before any file is touched. */
static ab_status check_plan(const ab_problem *p, const ab_plan *pl, ab_error *err) {
    for (size_t i = 0; i < pl->n; i++) {
        const ab_placement *e = &pl->v[i];
        if (e->tensor == AB_NO_TENSOR ? e->name == NULL || e->name[0] == '\0' : e->tensor >= p->n)
            return ab_fail(err, AB_EINTERNAL,
                           "plan entry %zu names no tensor of suite '%s' and has no name", i,
                           p->name ? p->name : "");
    }
    return AB_OK;
}

ab_status abf_plan_render(const ab_problem *p, const ab_plan *pl, ab_buf *out, ab_error *err) {
    ab_status st = check_plan(p, pl, err);
    if (st != AB_OK) return st;
    ab_buf b = {0};
    bool pools = p->npools > 0;
    const char *head = pools ? "tensor,pool,offset,size,start,end\n" : "tensor,offset,size,start,end\n";
    ab_buf_append(&b, head, strlen(head));
    for (size_t i = 0; i < pl->n; i++) {
        const ab_placement *e = &pl->v[i];
        write_name(&b, e->tensor == AB_NO_TENSOR ? e->name : p->t[e->tensor].name);
        int64_t off = e->offset;
        if (pools) { /* the pool's name and the offset in it; none: the joint offset */
            size_t k = ab_pool_find(p, off);
            ab_buf_append(&b, ",", 1);
            if (k != AB_NO_POOL) {
                write_name(&b, p->pools[k].name);
                off -= ab_pool_base(p, k);
            }
        }
        if (e->tensor == AB_NO_TENSOR) {
            ab_buf_printf(&b, ",%" PRId64 ",,,\n", off);
            continue;
        }
        const ab_tensor *t = &p->t[e->tensor];
        ab_buf_printf(&b, ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n", off, t->size,
                      t->start, t->end);
    }
    if (!b.oom) ab_buf_append(out, b.s, b.n);
    bool oom = b.oom || out->oom;
    ab_buf_free(&b);
    return oom ? ab_fail(err, AB_ENOMEM, "out of memory writing a plan") : AB_OK;
}

ab_status abf_plan_write(const char *path, const ab_problem *p, const ab_plan *pl, ab_error *err) {
    ab_buf b = {0};
    ab_status st = abf_plan_render(p, pl, &b, err);
    if (st == AB_OK) st = ab_buf_write_file(&b, path, err);
    ab_buf_free(&b);
    return st;
}

/* ---- the plan formats table's row (plan_formats.c) ---------------------------------- */

/* A header naming the tensor column (in any case, as the reader takes it). */
static bool sniff_plan(const unsigned char *head, size_t n) {
    return abf_plan_head_has_column(head, n, col_names[COL_TENSOR], true);
}

static ab_status write_plan(const abf_plan_out *o, ab_buf *b, ab_error *err) {
    if (o->profile != NULL) ab_buf_printf(b, "%s%s\n", ABF_PLAN_RECORD, o->profile);
    return abf_plan_render(o->view, o->plan, b, err);
}

const abf_plan_format abf_plan_format_csv = {
    .name = "csv",
    .summary = "tensor,offset[,size,start,end] (pool with pools); inclusive ranges",
    .sniff = sniff_plan,
    .read = abf_plan_read,
    .write = write_plan,
};
