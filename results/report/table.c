/*
 * table.c — a table of the report, built once, rendered as Markdown or HTML
 * (see table.h).
 */
#include "results/report/table.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>


void abr_table_init(abr_table *t) { memset(t, 0, sizeof *t); }

void abr_table_free(abr_table *t) {
    if (t == NULL) return;
    ab_free(t->title);
    for (size_t i = 0; i < t->nparas; i++) ab_free(t->paras[i].text);
    for (size_t i = 0; i < t->ncols; i++) ab_free(t->cols[i].head);
    for (size_t i = 0; i < t->ncells; i++) {
        ab_free((char *)t->cells[i].text);
        ab_free((char *)t->cells[i].note);
    }
    ab_free(t->paras);
    ab_free(t->cols);
    ab_free(t->cells);
    abr_table_init(t);
}

/* A copy of s (NULL stays NULL); sets t->oom when out of memory. */
static char *copy(abr_table *t, const char *s) {
    if (s == NULL) return NULL;
    char *c = ab_strdup(s);
    if (c == NULL) t->oom = true;
    return c;
}

/* Room for n + 1 elements of size sz in *v (capacity *cap); false, with
 * t->oom set, when out of memory (or after an earlier failure). */
static bool grow(abr_table *t, void **v, size_t *cap, size_t n, size_t sz) {
    if (t->oom) return false;
    if (!ab_grow(v, cap, n + 1, sz)) t->oom = true;
    return !t->oom;
}

void abr_table_title(abr_table *t, int level, const char *title) {
    if (t->oom) return;
    ab_free(t->title);
    t->title = copy(t, title);
    t->level = level;
}

void abr_table_para(abr_table *t, const char *text, unsigned in, bool note, bool after) {
    if (!grow(t, (void **)&t->paras, &t->cap_paras, t->nparas, sizeof *t->paras)) return;
    char *c = copy(t, text);
    if (c == NULL) return;
    t->paras[t->nparas++] = (abr_para){.text = c, .in = in, .note = note, .after = after};
}

void abr_table_column(abr_table *t, const char *head, abr_align align) {
    if (!grow(t, (void **)&t->cols, &t->cap_cols, t->ncols, sizeof *t->cols)) return;
    char *c = copy(t, head);
    if (c == NULL) return;
    t->cols[t->ncols++] = (abr_column){.head = c, .align = align};
}

void abr_table_add(abr_table *t, abr_cell c) {
    if (!grow(t, (void **)&t->cells, &t->cap_cells, t->ncells, sizeof *t->cells)) return;
    char *text = copy(t, c.text ? c.text : "");
    char *note = copy(t, c.note);
    if (t->oom) {
        ab_free(text);
        ab_free(note);
        return;
    }
    c.text = text;
    c.note = note;
    t->cells[t->ncells++] = c;
}

void abr_table_addf(abr_table *t, const char *fmt, ...) {
    char small[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof small) { /* the cells printed are numbers */
        t->oom = true;
        return;
    }
    abr_table_add(t, (abr_cell){.text = small});
}

size_t abr_table_rows(const abr_table *t) { return t->ncols ? t->ncells / t->ncols : 0; }

static void put(ab_buf *b, const char *s) { ab_buf_append(b, s, strlen(s)); }

/* ---- Markdown ---------------------------------------------------------------------- */

void abr_esc_md(ab_buf *b, const char *s) { ab_buf_md(b, s); }

static void md_paras(ab_buf *b, const abr_table *t, bool after) {
    for (size_t i = 0; i < t->nparas; i++)
        if ((t->paras[i].in & ABR_IN_MD) && t->paras[i].after == after)
            ab_buf_printf(b, "\n%s\n", t->paras[i].text);
}

static void md_cell(ab_buf *b, const abr_cell *c) {
    if (c->strong) put(b, "**");
    abr_esc_md(b, c->text);
    if (c->strong) put(b, "**");
    if (c->note == NULL) return;
    put(b, " (");
    abr_esc_md(b, c->note);
    put(b, ")");
}

/* The width of column j in Markdown: its widest cell or head, in bytes. */
static size_t md_width(const abr_table *t, size_t j, ab_buf *tmp) {
    tmp->n = 0;
    abr_esc_md(tmp, t->cols[j].head);
    size_t w = tmp->n;
    for (size_t r = 0; r < abr_table_rows(t); r++) {
        tmp->n = 0;
        md_cell(tmp, &t->cells[r * t->ncols + j]);
        if (tmp->n > w) w = tmp->n;
    }
    return w;
}

/* Columns 0 and [from, to) of t as one Markdown table. */
static void md_part(ab_buf *b, const abr_table *t, size_t from, size_t to) {
    put(b, "\n|");
    for (size_t j = 0; j < to; j = j == 0 ? from : j + 1) {
        put(b, " ");
        abr_esc_md(b, t->cols[j].head);
        put(b, " |");
    }
    put(b, "\n|");
    for (size_t j = 0; j < to; j = j == 0 ? from : j + 1)
        put(b, t->cols[j].align == ABR_RIGHT ? "--:|" : "---|");
    put(b, "\n");
    for (size_t r = 0; r < abr_table_rows(t); r++) {
        put(b, "|");
        for (size_t j = 0; j < to; j = j == 0 ? from : j + 1) {
            put(b, " ");
            md_cell(b, &t->cells[r * t->ncols + j]);
            put(b, " |");
        }
        put(b, "\n");
    }
}

void abr_table_md(ab_buf *b, const abr_table *t) {
    if (t->title != NULL) {
        ab_buf_printf(b, "\n%.*s ", t->level, "######");
        abr_esc_md(b, t->title);
        put(b, "\n");
    }
    md_paras(b, t, false);
    if (t->ncols > 0) {
        /* A table wider than ABR_MD_WIDTH characters is cut into parts of
         * consecutive columns, each repeating the first (the row's key), so
         * every line fits a terminal or a review comment; no cell is lost. */
        ab_buf tmp = {0};
        size_t key = md_width(t, 0, &tmp) + 3, from = 1, part = 0;
        while (from < t->ncols || (part == 0 && t->ncols == 1)) {
            size_t to = from, width = 1 + key;
            while (to < t->ncols) {
                size_t w = t->md_whole ? 0 : md_width(t, to, &tmp) + 3;
                if (to > from && width + w > ABR_MD_WIDTH) break;
                width += w, to++;
            }
            if (part > 0)
                ab_buf_printf(b, "\n(continued: columns %zu to %zu of %zu)\n", from + 1, to,
                              t->ncols);
            md_part(b, t, from, to);
            from = to, part++;
            if (t->ncols == 1) break;
        }
        if (tmp.oom) b->oom = true;
        ab_buf_free(&tmp);
    }
    md_paras(b, t, true);
}

/* ---- HTML -------------------------------------------------------------------------- */

static void html_paras(ab_buf *b, const abr_table *t, bool after) {
    for (size_t i = 0; i < t->nparas; i++)
        if ((t->paras[i].in & ABR_IN_HTML) && t->paras[i].after == after)
            ab_buf_printf(b, "%s%s</p>\n", t->paras[i].note ? "<p class=\"note\">" : "<p>",
                          t->paras[i].text);
}

/* The opening tag of a th or td of column j, with the cell's class. */
static void html_open(ab_buf *b, const abr_table *t, const char *tag, size_t j,
                      const char *cls) {
    bool left = t->cols[j].align == ABR_LEFT && !t->html_unaligned;
    ab_buf_printf(b, "<%s", tag);
    if (left || cls != NULL)
        ab_buf_printf(b, " class=\"%s%s%s\"", left ? "l" : "", left && cls ? " " : "",
                      cls ? cls : "");
    put(b, ">");
}

static void html_cell(ab_buf *b, const abr_table *t, size_t j, const abr_cell *c) {
    html_open(b, t, "td", j, c->cls);
    if (c->swatch != NULL)
        ab_buf_printf(b, "<span style=\"color:%s\">%s</span> ", c->swatch,
                      c->glyph ? c->glyph : "&#9679;");
    ab_buf_xml(b, c->text);
    if (c->note != NULL) {
        put(b, "<br><small>");
        ab_buf_xml(b, c->note);
        put(b, "</small>");
    }
    put(b, "</td>");
}

void abr_table_html(ab_buf *b, const abr_table *t) {
    if (t->title != NULL) {
        ab_buf_printf(b, "<h%d>", t->level);
        ab_buf_xml(b, t->title);
        ab_buf_printf(b, "</h%d>\n", t->level);
    }
    html_paras(b, t, false);
    if (t->ncols > 0) {
        put(b, t->html_unaligned ? "<table><tr>" : "<table>\n<tr>");
        for (size_t j = 0; j < t->ncols; j++) {
            html_open(b, t, "th", j, NULL);
            ab_buf_xml(b, t->cols[j].head);
            put(b, "</th>");
        }
        put(b, "</tr>\n");
        for (size_t r = 0; r < abr_table_rows(t); r++) {
            put(b, "<tr>");
            for (size_t j = 0; j < t->ncols; j++) html_cell(b, t, j, &t->cells[r * t->ncols + j]);
            put(b, "</tr>\n");
        }
        put(b, "</table>\n");
    }
    html_paras(b, t, true);
}
