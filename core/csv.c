/*
 * csv.c — the CSV tokenizer (see csv.h).
 */
#include "core/csv.h"

#include <stdio.h>
#include <string.h>

static bool is_blank(char ch) { return ch == ' ' || ch == '\t'; }

void ab_csv_init(ab_csv *c, const char *path, char *buf, size_t len, bool quotes) {
    memset(c, 0, sizeof *c);
    c->path = path;
    c->quotes = quotes;
    c->buf = buf;
    c->len = len;
    c->at = c->line = 1;
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) c->pos = c->bol = 3;
}

void ab_csv_free(ab_csv *c) {
    if (c == NULL) return;
    ab_free(c->f);
    c->f = NULL;
    c->nf = c->cap = 0;
}

/* Consumes a line end at c->pos (LF, CRLF or CR) when there is one. */
static bool eat_eol(ab_csv *c) {
    if (c->pos < c->len && c->buf[c->pos] == '\r') {
        c->pos++;
        if (c->pos < c->len && c->buf[c->pos] == '\n') c->pos++;
        c->at++;
        c->bol = c->pos;
        return true;
    }
    if (c->pos < c->len && c->buf[c->pos] == '\n') {
        c->pos++;
        c->at++;
        c->bol = c->pos;
        return true;
    }
    return false;
}

/* Skips lines that are empty or hold only spaces and tabs. */
static void skip_blank_lines(ab_csv *c) {
    for (;;) {
        size_t p = c->pos;
        while (p < c->len && is_blank(c->buf[p])) p++;
        if (p == c->len) {
            c->pos = p;
            return;
        }
        if (c->buf[p] != '\r' && c->buf[p] != '\n') return;
        c->pos = p;
        eat_eol(c);
    }
}

/* The column field i belongs to, for messages. */
static const char *where_name(const ab_csv *c, size_t i, char buf[32]) {
    if (c->names == NULL) return "header";
    if (i < c->nnames) return c->names[i];
    snprintf(buf, 32, "field %zu", i + 1);
    return buf;
}

static bool ends_field(const ab_csv *c) {
    char ch = c->buf[c->pos];
    return ch == ',' || ch == '\r' || ch == '\n';
}

/* Parses a quoted field whose opening quote is at c->pos, unescaping it in
 * place from *out. On return *out is one past its last byte and c->pos is
 * past the closing quote. */
static ab_status quoted_field(ab_csv *c, size_t *out, const char *where, ab_error *err) {
    int open_line = c->at;
    c->pos++;
    for (;;) {
        if (c->pos == c->len)
            return ab_fail(err, AB_EINPUT,
                           "%s:%d: %s: a quoted field is not closed (missing '\"')", c->path,
                           open_line, where);
        char ch = c->buf[c->pos];
        if (ch == '"') {
            if (c->pos + 1 < c->len && c->buf[c->pos + 1] == '"') {
                c->buf[(*out)++] = '"';
                c->pos += 2;
                continue;
            }
            c->pos++;
            return AB_OK;
        }
        if (ch == '\r' || ch == '\n') { /* a line end inside quotes is data, copied as it is */
            size_t from = c->pos;
            eat_eol(c);
            while (from < c->pos) c->buf[(*out)++] = c->buf[from++];
            continue;
        }
        c->buf[(*out)++] = ch;
        c->pos++;
    }
}

/* Reads one field at c->pos into [*begin, *end) of the buffer; *col is the
 * byte column (from 1) of its first byte, or of its opening quote. */
static ab_status read_field(ab_csv *c, size_t *begin, size_t *end, size_t *col, ab_error *err) {
    char wbuf[32];
    const char *where = where_name(c, c->nf, wbuf);
    while (c->pos < c->len && is_blank(c->buf[c->pos])) c->pos++;
    *begin = c->pos;
    *col = c->pos - c->bol + 1;
    if (c->quotes && c->pos < c->len && c->buf[c->pos] == '"') {
        *end = c->pos; /* unescape over the opening quote */
        ab_status st = quoted_field(c, end, where, err);
        if (st != AB_OK) return st;
        while (c->pos < c->len && is_blank(c->buf[c->pos])) c->pos++;
        if (c->pos < c->len && !ends_field(c)) {
            unsigned char ch = (unsigned char)c->buf[c->pos];
            char shown = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
            return ab_fail(err, AB_EINPUT,
                           "%s:%d: %s: unexpected '%c' after a closing quote (a quote inside "
                           "a quoted field is written twice: \"\")",
                           c->path, c->at, where, shown);
        }
        return AB_OK;
    }
    for (; c->pos < c->len && !ends_field(c); c->pos++)
        if (c->quotes && c->buf[c->pos] == '"')
            return ab_fail(err, AB_EINPUT,
                           "%s:%d: %s: a '\"' inside an unquoted field (quote the whole field "
                           "and write the quote twice: \"\")",
                           c->path, c->at, where);
    *end = c->pos;
    while (*end > *begin && is_blank(c->buf[*end - 1])) (*end)--;
    return AB_OK;
}

ab_status ab_csv_next(ab_csv *c, bool *eof, ab_error *err) {
    skip_blank_lines(c);
    c->nf = 0;
    c->line = c->at;
    *eof = c->pos == c->len;
    if (*eof) return AB_OK;
    for (;;) {
        size_t begin = 0, end = 0, col = 1;
        ab_status st = read_field(c, &begin, &end, &col, err);
        if (st != AB_OK) return st;
        if (!ab_grow((void **)&c->f, &c->cap, c->nf + 1, sizeof *c->f))
            return ab_fail(err, AB_ENOMEM, "%s: out of memory reading", c->path);
        /* look at the delimiter before the NUL may overwrite it */
        char delim = c->pos < c->len ? c->buf[c->pos] : '\0';
        c->f[c->nf++] = (ab_csv_field){.s = c->buf + begin, .len = end - begin, .col = col};
        c->buf[end] = '\0';
        if (delim == ',') {
            c->pos++;
            continue;
        }
        if (delim == '\r' || delim == '\n') { /* the NUL may sit on it: step by hand */
            c->pos++;
            if (delim == '\r' && c->pos < c->len && c->buf[c->pos] == '\n') c->pos++;
            c->at++;
            c->bol = c->pos;
        }
        return AB_OK;
    }
}
