/*
 * plan_out.c — a checked plan as a C header or a JSON object (plan_out.h
 * documents both), and their rows of the plan formats table (plan_formats.h).
 */
#include "harness/formats/plan_out.h"

#include "harness/formats/plan_formats.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define IDENT_MAX 63 /* significant initial characters C guarantees for macro names */

/* ---- identifiers ------------------------------------------------------------------ */

/* Appends name made an identifier fragment (upper case, [A-Z0-9_], runs of
 * other bytes one _) to out (cap bytes, NUL-terminated, cut to fit). */
static void ident_part(char *out, size_t cap, const char *name) {
    size_t n = strlen(out);
    bool gap = n > 0 && out[n - 1] == '_';
    for (const unsigned char *c = (const unsigned char *)name; *c && n + 1 < cap; c++) {
        if (isalnum(*c) && *c < 0x80) {
            out[n++] = (char)toupper(*c);
            gap = false;
        } else if (!gap) {
            out[n++] = '_';
            gap = true;
        }
    }
    out[n] = '\0';
}

/* The macro prefix of the suite: its name as an identifier, "PLAN" when that
 * leaves nothing, a leading _ before a digit. */
static void prefix_of(const char *suite, char out[IDENT_MAX + 1]) {
    char part[40] = ""; /* at most 39 characters: with a leading _, well inside IDENT_MAX */
    ident_part(part, sizeof part, suite ? suite : "");
    size_t n = strlen(part);
    while (n > 0 && part[n - 1] == '_') part[--n] = '\0';
    const char *p = part[0] == '_' ? part + 1 : part;
    if (*p == '\0') p = "PLAN";
    snprintf(out, IDENT_MAX + 1, "%s%s", isdigit((unsigned char)*p) ? "_" : "", p);
}

/* The identifiers of the tensors, unique (see plan_out.h); names[i] has room
 * for IDENT_MAX + 1 bytes. */
static void tensor_idents(const ab_problem *v, const char *prefix, char (*names)[IDENT_MAX + 1]) {
    for (size_t i = 0; i < v->n; i++) {
        char base[2 * IDENT_MAX];
        snprintf(base, sizeof base, "%.40s_OFFSET_", prefix);
        ident_part(base, sizeof base, v->t[i].name);
        for (unsigned k = 1;; k++) {
            char suffix[16] = "";
            if (k > 1) snprintf(suffix, sizeof suffix, "_%u", k);
            size_t keep = strlen(base), room = IDENT_MAX - strlen(suffix);
            if (keep > room) keep = room;
            snprintf(names[i], IDENT_MAX + 1, "%.*s%s", (int)keep, base, suffix);
            size_t j = 0;
            while (j < i && strcmp(names[j], names[i]) != 0) j++;
            if (j == i) break;
        }
    }
}

/* ---- text in comments and strings ------------------------------------------------ */

/* name in a C comment: printable ASCII; '?' (trigraphs), '\' (line splices),
 * control bytes (line ends), a star-slash's '/' (the comment's end) and a
 * slash-star's '*' (-Wcomment: a slash-star within a comment) as _. */
static void comment_text(ab_buf *b, const char *name) {
    char prev = '\0';
    for (const char *c = name; *c; c++) {
        char ch = *c;
        bool bad = (unsigned char)ch < 0x20 || (unsigned char)ch > 0x7e || ch == '?' ||
                   ch == '\\' || (ch == '/' && prev == '*') || (ch == '*' && prev == '/');
        ab_buf_printf(b, "%c", bad ? '_' : ch);
        prev = ch;
    }
}

/* name in a C string literal: \" \\ \? and octal escapes for the rest. */
static void c_string_text(ab_buf *b, const char *name) {
    for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
        if (*c == '"' || *c == '\\' || *c == '?') ab_buf_printf(b, "\\%c", *c);
        else if (*c < 0x20 || *c > 0x7e) ab_buf_printf(b, "\\%03o", *c);
        else ab_buf_printf(b, "%c", *c);
    }
}

/* An unsigned literal: u, or ull when it passes 32 bits. */
static void literal(ab_buf *b, int64_t v) {
    ab_buf_printf(b, "%" PRId64 "%s", v, v > (int64_t)UINT32_MAX ? "ull" : "u");
}

static int64_t arena_of(const abf_plan_out *o) {
    int64_t arena = 0;
    for (size_t i = 0; i < o->view->n; i++)
        if (o->offsets[i] + o->view->t[i].size > arena) arena = o->offsets[i] + o->view->t[i].size;
    return arena;
}

/* ---- c-header ---------------------------------------------------------------------- */

static void header_top(ab_buf *b, const abf_plan_out *o, const char *pfx) {
    const ab_problem *v = o->view;
    ab_buf_printf(b, "/*\n * Memory plan of suite ");
    comment_text(b, v->name ? v->name : "");
    ab_buf_printf(b, ", written by arenabench export --format c-header.\n");
    if (o->plan_path) {
        ab_buf_printf(b, " * Plan: ");
        comment_text(b, o->plan_path);
        ab_buf_printf(b, "\n");
    }
    if (o->suite_hash) ab_buf_printf(b, " * Suite SHA-256 (canonical YAML): %s\n", o->suite_hash);
    ab_buf_printf(b, " * Offsets are bytes from the start of one arena of %s_ARENA_SIZE bytes;\n"
                  " * live ranges are operator indices, inclusive.\n */\n", pfx);
    ab_buf_printf(b, "#ifndef %s_PLAN_H\n#define %s_PLAN_H\n\n", pfx, pfx);
    ab_buf_printf(b, "#if defined(__cplusplus)\n#define %s_STATIC_ASSERT(c, m) static_assert(c, m)\n"
                  "#else\n#define %s_STATIC_ASSERT(c, m) _Static_assert(c, m)\n#endif\n\n",
                  pfx, pfx);
    ab_buf_printf(b, "#define %s_ARENA_SIZE ", pfx);
    literal(b, arena_of(o));
    ab_buf_printf(b, "\n#define %s_TENSOR_COUNT %zuu\n", pfx, v->n);
}

ab_status abf_plan_render_c_header(const abf_plan_out *o, ab_buf *b, ab_error *err) {
    const ab_problem *v = o->view;
    if (v->npools > 0)
        return ab_fail(err, AB_EINPUT, "suite %s has pools: a C header holds one arena (export "
                       "it as json, which names each tensor's pool)", v->name);
    char pfx[IDENT_MAX + 1];
    prefix_of(v->name, pfx);
    char (*names)[IDENT_MAX + 1] = ab_alloc_array(v->n ? v->n : 1, sizeof *names);
    if (names == NULL) return ab_fail(err, AB_ENOMEM, "out of memory naming %zu tensors", v->n);
    tensor_idents(v, pfx, names);
    header_top(b, o, pfx);
    for (size_t i = 0; i < v->n; i++) {
        const ab_tensor *t = &v->t[i];
        ab_buf_printf(b, "\n/* ");
        comment_text(b, t->name);
        ab_buf_printf(b, ": %" PRId64 " bytes, live [%" PRId64 ", %" PRId64 "]", t->size, t->start,
                      t->end);
        if (t->align > 1) ab_buf_printf(b, ", align %" PRId64, t->align);
        if (t->kind != AB_KIND_INTERMEDIATE)
            ab_buf_printf(b, ", %s", t->kind == AB_KIND_INPUT ? "input" : "output");
        ab_buf_printf(b, " */\n#define %s ", names[i]);
        literal(b, o->offsets[i]);
        ab_buf_printf(b, "\n%s_STATIC_ASSERT(%s + ", pfx, names[i]);
        literal(b, t->size);
        ab_buf_printf(b, " <= %s_ARENA_SIZE, \"", pfx);
        c_string_text(b, t->name);
        ab_buf_printf(b, " lies inside the arena\");\n");
    }
    ab_buf_printf(b, "\n#endif /* %s_PLAN_H */\n", pfx);
    ab_free(names);
    return b->oom ? ab_fail(err, AB_ENOMEM, "out of memory writing the header") : AB_OK;
}

/* ---- json --------------------------------------------------------------------------- */

/* Writes s to b as a JSON string (quotes, escapes). */
static void abf_json_string(ab_buf *b, const char *s) {
    ab_buf_printf(b, "\"");
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\') ab_buf_printf(b, "\\%c", *c);
        else if (*c == '\n') ab_buf_printf(b, "\\n");
        else if (*c == '\t') ab_buf_printf(b, "\\t");
        else if (*c < 0x20 || *c == 0x7f) ab_buf_printf(b, "\\u%04x", *c);
        else ab_buf_printf(b, "%c", *c);
    }
    ab_buf_printf(b, "\"");
}

static void json_or_null(ab_buf *b, const char *s) {
    if (s) abf_json_string(b, s);
    else ab_buf_printf(b, "null");
}

static const char *kind_name(ab_kind k) {
    return k == AB_KIND_INPUT ? "input" : k == AB_KIND_OUTPUT ? "output" : "intermediate";
}

static void json_pools(ab_buf *b, const abf_plan_out *o) {
    const ab_problem *v = o->view;
    ab_buf_printf(b, "  \"pools\": [");
    for (size_t k = 0; k < v->npools; k++) {
        int64_t base = ab_pool_base(v, k), used = 0;
        for (size_t i = 0; i < v->n; i++)
            if (ab_pool_find(v, o->offsets[i]) == k && o->offsets[i] - base + v->t[i].size > used)
                used = o->offsets[i] - base + v->t[i].size;
        ab_buf_printf(b, "%s\n    {\"name\": ", k ? "," : "");
        abf_json_string(b, v->pools[k].name);
        if (v->pools[k].size == AB_NONE) ab_buf_printf(b, ", \"size\": null");
        else ab_buf_printf(b, ", \"size\": %" PRId64, v->pools[k].size);
        ab_buf_printf(b, ", \"used\": %" PRId64 "}", used);
    }
    ab_buf_printf(b, "\n  ],\n");
}

ab_status abf_plan_render_json(const abf_plan_out *o, ab_buf *b, ab_error *err) {
    const ab_problem *v = o->view;
    ab_buf_printf(b, "{\n  \"format\": \"arenabench-plan\",\n  \"version\": 1,\n  \"suite\": {"
                  "\"name\": ");
    json_or_null(b, v->name);
    ab_buf_printf(b, ", \"hash\": ");
    json_or_null(b, o->suite_hash);
    ab_buf_printf(b, ", \"source\": ");
    json_or_null(b, v->source);
    ab_buf_printf(b, ", \"io\": \"%s\", \"alignment\": %" PRId64 "},\n",
                  v->io == AB_IO_WORKSPACE ? "workspace" : "separate", v->alignment);
    ab_buf_printf(b, "  \"arena\": %" PRId64 ",\n  \"tensors_in_arena\": %zu,\n", arena_of(o), v->n);
    if (v->npools > 0) json_pools(b, o);
    ab_buf_printf(b, "  \"tensors\": [");
    for (size_t i = 0; i < v->n; i++) {
        const ab_tensor *t = &v->t[i];
        ab_buf_printf(b, "%s\n    {\"name\": ", i ? "," : "");
        abf_json_string(b, t->name);
        ab_buf_printf(b, ", \"size\": %" PRId64 ", \"start\": %" PRId64 ", \"end\": %" PRId64
                      ", \"align\": %" PRId64 ", \"kind\": \"%s\", \"offset\": %" PRId64,
                      t->size, t->start, t->end, t->align, kind_name(t->kind), o->offsets[i]);
        if (v->npools > 0) {
            size_t k = ab_pool_find(v, o->offsets[i]);
            ab_buf_printf(b, ", \"pool\": ");
            abf_json_string(b, ab_pool_name(v, k));
            ab_buf_printf(b, ", \"pool_offset\": %" PRId64, o->offsets[i] - ab_pool_base(v, k));
        }
        ab_buf_printf(b, "}");
    }
    ab_buf_printf(b, "%s]\n}\n", v->n ? "\n  " : "");
    return b->oom ? ab_fail(err, AB_ENOMEM, "out of memory writing the JSON plan") : AB_OK;
}

/* ---- the plan formats' rows (plan_formats.h) ------------------------------------- */

/* The exports write a plan the checker found valid: its offsets, one per tensor. */
static ab_status need_offsets(const abf_plan_out *o, const char *format, ab_error *err) {
    if (o->offsets == NULL && o->view->n > 0)
        return ab_fail(err, AB_EINTERNAL, "%s writes a checked plan: its offsets were not given",
                       format);
    return AB_OK;
}

static ab_status write_c_header(const abf_plan_out *o, ab_buf *b, ab_error *err) {
    ab_status st = need_offsets(o, "c-header", err);
    return st == AB_OK ? abf_plan_render_c_header(o, b, err) : st;
}

static ab_status write_json(const abf_plan_out *o, ab_buf *b, ab_error *err) {
    ab_status st = need_offsets(o, "json", err);
    return st == AB_OK ? abf_plan_render_json(o, b, err) : st;
}

const abf_plan_format abf_plan_format_c_header = {
    .name = "c-header",
    .summary = "a C11/C++ header: PREFIX_ARENA_SIZE, PREFIX_OFFSET_<TENSOR>, ...",
    .write = write_c_header,
};

const abf_plan_format abf_plan_format_json = {
    .name = "json",
    .summary = "{suite: {name, hash, ...}, arena, tensors: [{name, ..., offset}]}",
    .write = write_json,
};
