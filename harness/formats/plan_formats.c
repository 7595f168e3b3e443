/*
 * plan_formats.c — the table of plan file formats (plan_formats.h), finding
 * a row by name or by a file's first line, and the lists of names messages
 * and help print.
 */
#include "harness/formats/plan_formats.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* The table: one row a format, each defined in its own file; the order is
 * the order of recognition and of the lists in messages and help. The first
 * row is the default. */
#define ABF_PLAN_FORMAT_ROWS(X)                          \
    X(abf_plan_format_csv)          /* plan_csv.c */       \
    X(abf_plan_format_minimalloc)   /* minimalloc.c */     \
    X(abf_plan_format_c_header)     /* plan_out.c */       \
    X(abf_plan_format_json)         /* plan_out.c */       \
    X(abf_plan_format_tflm_offline) /* tflite_offline.c */

#define ABF_DECLARE_(sym) extern const abf_plan_format sym;
#define ABF_ENTRY_(sym) &sym,
ABF_PLAN_FORMAT_ROWS(ABF_DECLARE_)
const abf_plan_format *const abf_plan_formats[] = {ABF_PLAN_FORMAT_ROWS(ABF_ENTRY_) NULL};
#undef ABF_DECLARE_
#undef ABF_ENTRY_

const abf_plan_format *abf_plan_format_named(const char *name) {
    for (size_t i = 0; name != NULL && abf_plan_formats[i] != NULL; i++)
        if (strcmp(abf_plan_formats[i]->name, name) == 0) return abf_plan_formats[i];
    return NULL;
}

const abf_plan_format *abf_plan_format_of(const char *path) {
    unsigned char head[ABF_PLAN_SNIFF_BYTES];
    size_t n = 0;
    /* Only a regular file is sniffed: a pipe, a FIFO or a device is read
     * once, by its reader (reading its head here would take those bytes from
     * it, wait for a FIFO's writer, or never end). A file that cannot be read:
     * the default's reader says so. */
    struct stat sb;
    bool regular = strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
    FILE *f = regular ? fopen(path, "rb") : NULL;
    if (f != NULL) {
        n = fread(head, 1, sizeof head, f);
        if (ferror(f)) n = 0;
        fclose(f);
    }
    for (size_t i = 0; n > 0 && abf_plan_formats[i] != NULL; i++)
        if (abf_plan_formats[i]->sniff != NULL && abf_plan_formats[i]->sniff(head, n))
            return abf_plan_formats[i];
    return abf_plan_formats[0];
}

void abf_plan_format_list(ab_buf *b, bool readers_only) {
    size_t count = 0, at = 0;
    for (size_t i = 0; abf_plan_formats[i] != NULL; i++)
        if (readers_only ? abf_plan_formats[i]->read != NULL : abf_plan_formats[i]->write != NULL)
            count++;
    for (size_t i = 0; abf_plan_formats[i] != NULL; i++) {
        const abf_plan_format *f = abf_plan_formats[i];
        if (readers_only ? f->read == NULL : f->write == NULL) continue;
        at++;
        const char *sep = at == 1 ? "" : at == count ? " or " : ", ";
        ab_buf_printf(b, "%s%s", sep, f->name);
    }
}

static bool is_blank(unsigned char c) { return c == ' ' || c == '\t'; }

/* Whether field [s, e) is name once blanks and enclosing quotes are dropped. */
static bool field_is(const unsigned char *s, const unsigned char *e, const char *name,
                     bool nocase) {
    while (s < e && is_blank(*s)) s++;
    while (e > s && is_blank(e[-1])) e--;
    if (e - s >= 2 && *s == '"' && e[-1] == '"') s++, e--;
    size_t len = (size_t)(e - s);
    if (len != strlen(name)) return false;
    return nocase ? strncasecmp((const char *)s, name, len) == 0
                  : memcmp(s, name, len) == 0;
}

bool abf_plan_profile_of(const char *path, char *out, size_t len) {
    struct stat sb; /* a regular file only: reading a pipe here would take the plan's bytes */
    if (strcmp(path, "-") == 0 || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) return false;
    FILE *f = fopen(path, "rb");
    if (f == NULL) return false;
    char line[256];
    bool ok = fgets(line, sizeof line, f) != NULL &&
              strncmp(line, ABF_PLAN_RECORD, strlen(ABF_PLAN_RECORD)) == 0;
    fclose(f);
    if (!ok) return false;
    const char *rec = line + strlen(ABF_PLAN_RECORD);
    size_t n = strcspn(rec, "\r\n");
    if (strncmp(rec, "profile=", 8) != 0 || n + 1 > len) return false;
    memcpy(out, rec, n);
    out[n] = '\0';
    return true;
}

bool abf_plan_head_has_column(const unsigned char *head, size_t n, const char *name, bool nocase) {
    const unsigned char *p = head, *end = head + n;
    if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) p += 3;
    for (;;) { /* skip blank lines and comment lines */
        const unsigned char *q = p;
        while (q < end && is_blank(*q)) q++;
        if (q < end && (*q == '\n' || *q == '\r')) {
            p = q + 1;
        } else if (q < end && *q == '#') {
            while (q < end && *q != '\n') q++;
            p = q < end ? q + 1 : q;
        } else {
            break;
        }
    }
    const unsigned char *line_end = p;
    while (line_end < end && *line_end != '\n' && *line_end != '\r' && *line_end != '\0')
        line_end++;
    for (const unsigned char *s = p;;) {
        const unsigned char *comma = s;
        while (comma < line_end && *comma != ',') comma++;
        if (field_is(s, comma, name, nocase)) return true;
        if (comma == line_end) return false;
        s = comma + 1;
    }
}
