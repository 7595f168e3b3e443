/*
 * table.h — a table of the report, built once and rendered as Markdown or as
 * HTML (private to results/report/). A table is a section: a heading, the
 * paragraphs around it, its columns and its rows of cells. Text is stored
 * raw; each renderer escapes stored text itself (headings, column heads,
 * cells) and writes paragraphs as they are (they are the report's own words).
 *
 * A worked example: columns {"planner", left}, {"arena", right}, one row
 * {"ff"}, {"96", note "+50.00%", strong, cls "best"}, title "Planners":
 *
 *   Markdown                          HTML
 *
 *   ## Planners                       <h2>Planners</h2>
 *                                     <table>
 *   | planner | arena |               <tr><th class="l">planner</th><th>arena</th></tr>
 *   |---|--:|                         <tr><td class="l">ff</td><td class="best">96<br>
 *   | ff | **96** (+50.00%) |            <small>+50.00%</small></td></tr>
 *                                     </table>
 *
 * A table without columns is a heading and paragraphs only. Building never
 * fails midway: an allocation failure sets oom and later calls do nothing;
 * the builder checks oom once at the end.
 */
#ifndef AB_REPORT_TABLE_H
#define AB_REPORT_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/ab.h"
#include "core/buf.h"

/* Markdown lines of a table stay within this many characters (abr_table_md
 * cuts a wider table into parts that repeat its first column). */
#define ABR_MD_WIDTH 120

typedef enum abr_align {
    ABR_LEFT = 0, /* Markdown ---, HTML class "l" */
    ABR_RIGHT     /* Markdown --:, HTML the stylesheet's default */
} abr_align;

/* Where a paragraph appears. */
enum { ABR_IN_MD = 1, ABR_IN_HTML = 2, ABR_IN_BOTH = 3 };

/* A cell. abr_table_add copies text and note; cls, swatch and glyph are borrowed
 * (static strings). */
typedef struct abr_cell {
    const char *text;   /* NULL: empty */
    const char *note;   /* NULL or a second, smaller line: Markdown "text (note)",
                           HTML "text<br><small>note</small>" */
    bool strong;        /* Markdown: the text in bold */
    const char *cls;    /* HTML: a class of the cell ("best", "fail", "miss") */
    const char *swatch; /* HTML: the colour of a dot before the text */
    const char *glyph;  /* HTML: the character reference drawn in that colour
                           instead of the dot (a marker), or NULL */
} abr_cell;

typedef struct abr_column {
    char *head;         /* owned */
    abr_align align;
} abr_column;

typedef struct abr_para {
    char *text;         /* owned, written as it is */
    unsigned in;        /* ABR_IN_MD, ABR_IN_HTML or both */
    bool note;          /* HTML: a side note (class "note") */
    bool after;         /* after the table, else before it */
} abr_para;

typedef struct abr_table {
    char *title;        /* owned; NULL: no heading */
    int level;          /* the heading's level: 2 a section, 3 a subsection */
    abr_para *paras;
    size_t nparas;
    abr_column *cols;
    size_t ncols;
    abr_cell *cells;    /* row-major, ncols per row; text and note owned */
    size_t ncells;
    size_t cap_paras, cap_cols, cap_cells; /* allocated */
    bool md_whole;      /* Markdown: never cut into parts (a table whose last column is
                           free text, such as messages: cutting would part a row from
                           its words, and no width holds them anyway) */
    bool html_unaligned; /* HTML: no alignment classes and the first row on the
                            <table> line (how the I/O and pool tables look) */
    bool oom;
} abr_table;

/* An empty table (no heading, no columns). Free with abr_table_free. */
void abr_table_init(abr_table *t);

/* Frees what the table owns and empties it; t may be NULL. */
void abr_table_free(abr_table *t);

/* Sets the heading (copied) at level (2 or 3). */
void abr_table_title(abr_table *t, int level, const char *title);

/* Adds a paragraph (copied) before the table, or after it when after. */
void abr_table_para(abr_table *t, const char *text, unsigned in, bool note, bool after);

/* Adds a column (head copied). Every column comes before the first cell. */
void abr_table_column(abr_table *t, const char *head, abr_align align);

/* Adds a cell to the last row (a new row when it is full); copies text, note. */
void abr_table_add(abr_table *t, abr_cell c);

/* Adds a cell whose text is printf(fmt, ...). */
void abr_table_addf(abr_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The number of complete rows. */
size_t abr_table_rows(const abr_table *t);

/* Appends s escaped for a Markdown table cell: '|' and '\' escaped, line
 * breaks and tabs as spaces. */
void abr_esc_md(ab_buf *b, const char *s);

/* Appends the table as Markdown: "\n## title\n", "\npara\n" each, then the
 * table after a blank line; stored text escaped for a table cell. */
void abr_table_md(ab_buf *b, const abr_table *t);

/* Appends the table as HTML: "<h2>title</h2>\n", "<p>para</p>\n" each, then
 * "<table>...</table>\n"; stored text escaped for XML. */
void abr_table_html(ab_buf *b, const abr_table *t);

#endif
