/*
 * test_export.c — `arenabench export SUITE --plan PLAN` (harness/cli/export.c,
 * harness/formats/plan_out.c, tflite_offline.c), each format read back:
 * the C header compiled by the system compiler and run, the JSON and the
 * MiniMalloc CSV parsed, the rewritten .tflite parsed by our own reader and
 * its offline plan checked by the oracle. Models are a tiny one built here
 * byte by byte and the shared face-detection model (skipped when absent).
 */
#include <criterion/criterion.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/problem.h"
#include "harness/formats/minimalloc.h"
#include "harness/formats/plan_csv.h"
#include "harness/formats/suite.h"
#include "harness/formats/tflite.h"
#include "oracle/check.h"
#include "results/store/sha256.h"
#include "tests/support.h"

/* ---- helpers ------------------------------------------------------------------------ */

static char *dir_;

static const char *tmp(const char *name) {
    static char path[8][4096];
    static int slot;
    if (dir_ == NULL) dir_ = abt_tmpdir();
    char *p = path[slot++ % 8];
    snprintf(p, 4096, "%s/%s", dir_, name);
    return p;
}

static void put(const char *path, const void *bytes, size_t n) {
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s", path);
    cr_assert_eq(fwrite(bytes, 1, n, f), n);
    fclose(f);
}

static int run(char **out, char **err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int run(char **out, char **err, const char *fmt, ...) {
    char args[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    return abt_run(args, out, err);
}

/* A suite whose names collide once made identifiers, and need escaping. */
static const char *const suite_yaml =
    "suite: 3d-tricky.suite\n"
    "tensors:\n"
    "  - {name: a-b, size: 100, start: 0, end: 2}\n"
    "  - {name: a_b, size: 40, start: 1, end: 3}\n"
    "  - {name: A.b, size: 60, start: 3, end: 4, align: 4}\n"
    "  - {name: 'x*/y?\"q', size: 8, start: 4, end: 5}\n"
    "  - {name: '9 lives', size: 30, start: 0, end: 0}\n";

/* A valid plan of it (arena 140: a-b [0,100), a_b [100,140), A.b [0,60),
 * x [60,68), 9 lives [100,130)). */
static const char *const plan_csv =
    "tensor,offset\n"
    "a-b,0\n"
    "a_b,100\n"
    "A.b,0\n"
    "\"x*/y?\"\"q\",60\n"
    "9 lives,100\n";

static const char *const names[] = {"a-b", "a_b", "A.b", "x*/y?\"q", "9 lives"};
static const int64_t offsets[] = {0, 100, 0, 60, 100};
/* The identifiers plan_out.h's rules give. */
static const char *const idents[] = {"_3D_TRICKY_SUITE_OFFSET_A_B", "_3D_TRICKY_SUITE_OFFSET_A_B_2",
                                     "_3D_TRICKY_SUITE_OFFSET_A_B_3",
                                     "_3D_TRICKY_SUITE_OFFSET_X_Y_Q",
                                     "_3D_TRICKY_SUITE_OFFSET_9_LIVES"};

static void write_suite_and_plan(void) {
    put(tmp("s.yaml"), suite_yaml, strlen(suite_yaml));
    put(tmp("p.csv"), plan_csv, strlen(plan_csv));
}

/* ---- c-header ---------------------------------------------------------------------- */

Test(export, c_header_compiles_and_a_program_reading_it_prints_the_plans_offsets) {
    write_suite_and_plan();
    char *out = NULL, *err = NULL;
    cr_assert_eq(run(&out, &err, "export '%s' --plan '%s' --format c-header -o '%s'",
                     tmp("s.yaml"), tmp("p.csv"), tmp("plan.h")), 0, "%s", err);
    free(out), free(err);
    char *h = abt_slurp(tmp("plan.h"), NULL);
    cr_assert_not_null(h);
    cr_assert(strstr(h, "#ifndef _3D_TRICKY_SUITE_PLAN_H") != NULL, "%s", h);
    cr_assert(strstr(h, "#define _3D_TRICKY_SUITE_ARENA_SIZE 140u") != NULL, "%s", h);
    cr_assert(strstr(h, "/* a-b: 100 bytes, live [0, 2] */") != NULL, "%s", h);
    cr_assert(strstr(h, "/* x*_y_\"q: 8 bytes, live [4, 5] */") != NULL, "%s", h);
    cr_assert(strstr(h, "_Static_assert") != NULL);

    /* the system compiler takes it (and twice: the guard), in C11 and as C++ syntax */
    char prog[4096];
    int n = snprintf(prog, sizeof prog, "#include <stdio.h>\n#include \"%s\"\n#include \"%s\"\n"
                     "int main(void) {\n", tmp("plan.h"), tmp("plan.h"));
    for (size_t i = 0; i < 5; i++)
        n += snprintf(prog + n, sizeof prog - (size_t)n,
                      "  printf(\"%zu %%llu\\n\", (unsigned long long)%s);\n", i, idents[i]);
    snprintf(prog + n, sizeof prog - (size_t)n,
             "  printf(\"arena %%llu\\n\", (unsigned long long)_3D_TRICKY_SUITE_ARENA_SIZE);\n"
             "  return 0;\n}\n");
    put(tmp("main.c"), prog, strlen(prog));
    char cmd[16384];
    snprintf(cmd, sizeof cmd, "'%s' -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only '%s'",
             AB_C_COMPILER, tmp("plan.h"));
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    snprintf(cmd, sizeof cmd, "'%s' -std=c11 -Wall -Werror -o '%s' '%s' && '%s' > '%s'",
             AB_C_COMPILER, tmp("main"), tmp("main.c"), tmp("main"), tmp("main.out"));
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    char *got = abt_slurp(tmp("main.out"), NULL);
    cr_assert_not_null(got);
    const char *p = got;
    for (size_t i = 0; i < 5; i++) {
        size_t k;
        unsigned long long v;
        int used;
        cr_assert_eq(sscanf(p, "%zu %llu\n%n", &k, &v, &used), 2, "%s", got);
        cr_assert_eq(k, i);
        cr_assert_eq((int64_t)v, offsets[i], "%s: %llu, want %" PRId64, names[i], v, offsets[i]);
        p += used;
    }
    unsigned long long arena;
    cr_assert_eq(sscanf(p, "arena %llu", &arena), 1, "%s", got);
    cr_assert_eq(arena, 140);
    free(got);

    /* the static assertions are real: a smaller arena does not compile */
    char *small = strstr(h, "ARENA_SIZE 140u");
    cr_assert_not_null(small);
    memcpy(small, "ARENA_SIZE 139u", 15);
    put(tmp("bad.h"), h, strlen(h));
    snprintf(cmd, sizeof cmd, "'%s' -std=c11 -fsyntax-only '%s' 2>/dev/null", AB_C_COMPILER,
             tmp("bad.h"));
    cr_assert_neq(system(cmd), 0, "a header with an arena too small compiled");
    free(h);
}

/* Names that C comments cannot hold as they are: an opening and a closing
 * comment, a backslash (a line splice at the end), a trigraph, a line end.
 * The header compiles under -Wall -Werror (a slash-star in a comment was an
 * error), and each string literal still holds the exact name. */
Test(export, c_header_escapes_hostile_names_in_comments) {
    static const char hostile_yaml[] =
        "suite: 's /* x */ y ?\?/'\n"
        "tensors:\n"
        "  - {name: 'a /* b', size: 8, start: 0, end: 0}\n"
        "  - {name: 'c */ d', size: 8, start: 0, end: 0}\n"
        "  - {name: 'e\\', size: 8, start: 0, end: 0}\n"
        "  - {name: 'g?\?/', size: 8, start: 0, end: 0}\n"
        "  - {name: \"h\\ni /*/ j\", size: 8, start: 0, end: 0}\n"
        "  - {name: '/*', size: 8, start: 0, end: 0}\n";
    static const char hostile_plan[] = "tensor,offset\n\"a /* b\",0\n\"c */ d\",8\ne\\,16\n"
                                       "g?\?/,24\n\"h\ni /*/ j\",32\n/*,40\n";
    put(tmp("hostile.yaml"), hostile_yaml, strlen(hostile_yaml));
    put(tmp("hostile.csv"), hostile_plan, strlen(hostile_plan));
    char *out = NULL, *err = NULL;
    cr_assert_eq(run(&out, &err, "export '%s' --plan '%s' --format c-header -o '%s'",
                     tmp("hostile.yaml"), tmp("hostile.csv"), tmp("hostile.h")), 0, "%s", err);
    free(out), free(err);
    char *h = abt_slurp(tmp("hostile.h"), NULL);
    cr_assert_not_null(h);
    cr_assert(strstr(h, "\"a /* b lies inside the arena\"") != NULL, "%s", h);
    cr_assert(strstr(h, "\"h\\012i /*/ j lies inside the arena\"") != NULL, "%s", h);
    cr_assert(strstr(h, "\"e\\\\ lies inside the arena\"") != NULL, "%s", h);
    free(h);
    char cmd[16384];
    snprintf(cmd, sizeof cmd, "command -v '%s' >/dev/null 2>&1", AB_C_COMPILER);
    if (system(cmd) != 0) cr_skip("no C compiler (%s) to compile the header with", AB_C_COMPILER);
    snprintf(cmd, sizeof cmd, "'%s' -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only '%s'",
             AB_C_COMPILER, tmp("hostile.h"));
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    snprintf(cmd, sizeof cmd, "'%s' -std=c11 -trigraphs -Wall -Werror -fsyntax-only '%s'",
             AB_C_COMPILER, tmp("hostile.h"));
    cr_assert_eq(system(cmd), 0, "%s (with trigraphs)", cmd);
}

/* ---- json and minimalloc -------------------------------------------------------------- */

Test(export, json_names_the_suite_its_hash_and_every_offset) {
    write_suite_and_plan();
    char *out = NULL, *err = NULL;
    cr_assert_eq(run(&out, &err, "export '%s' --plan '%s' --format json", tmp("s.yaml"),
                     tmp("p.csv")), 0, "%s", err);
    ab_problem p;
    ab_error e = {0};
    ab_buf canon = {0};
    char hash[ABS_SHA256_HEX], want[256];
    cr_assert_eq(abf_suite_load(tmp("s.yaml"), &p, &e), AB_OK, "%s", e.msg);
    cr_assert_eq(abf_suite_render(&p, &canon, &e), AB_OK);
    abs_sha256_hex(canon.s, canon.n, hash);
    snprintf(want, sizeof want, "\"suite\": {\"name\": \"3d-tricky.suite\", \"hash\": \"%s\"", hash);
    cr_assert(strstr(out, want) != NULL, "%s\nwant %s", out, want);
    cr_assert(strstr(out, "\"arena\": 140,") != NULL, "%s", out);
    cr_assert(strstr(out, "{\"name\": \"x*/y?\\\"q\", \"size\": 8, \"start\": 4, \"end\": 5, "
                          "\"align\": 1, \"kind\": \"intermediate\", \"offset\": 60}") != NULL,
              "%s", out);
    cr_assert(strstr(out, "{\"name\": \"A.b\", \"size\": 60, \"start\": 3, \"end\": 4, "
                          "\"align\": 4, \"kind\": \"intermediate\", \"offset\": 0}") != NULL,
              "%s", out);
    /* same input, same bytes */
    char *again = NULL;
    cr_assert_eq(run(&again, NULL, "export '%s' --plan '%s' --format json", tmp("s.yaml"),
                     tmp("p.csv")), 0);
    cr_assert_str_eq(out, again);
    free(again), free(out), free(err);
    ab_buf_free(&canon);
    ab_problem_free(&p);
}

Test(export, minimalloc_with_offsets_reads_back_as_the_same_plan) {
    write_suite_and_plan();
    char *err = NULL;
    cr_assert_eq(run(NULL, &err, "export '%s' --plan '%s' --format minimalloc -o '%s'",
                     tmp("s.yaml"), tmp("p.csv"), tmp("mm.csv")), 0, "%s", err);
    free(err);
    ab_problem p;
    ab_plan pl;
    ab_error e = {0};
    cr_assert_eq(abf_suite_load(tmp("s.yaml"), &p, &e), AB_OK, "%s", e.msg);
    cr_assert_eq(abf_minimalloc_plan_read(tmp("mm.csv"), &p, &pl, &e), AB_OK, "%s", e.msg);
    cr_assert_eq(pl.n, 5);
    for (size_t i = 0; i < pl.n; i++)
        cr_assert_eq(pl.v[i].offset, offsets[pl.v[i].tensor], "%s", names[pl.v[i].tensor]);
    /* and a MiniMalloc plan is taken as --plan too */
    char *out = NULL;
    cr_assert_eq(run(&out, &err, "export '%s' --plan '%s' --format json", tmp("s.yaml"),
                     tmp("mm.csv")), 0, "%s", err);
    cr_assert(strstr(out, "\"arena\": 140,") != NULL, "%s", out);
    free(out), free(err);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(export, an_invalid_plan_exits_1_and_writes_nothing) {
    write_suite_and_plan();
    const char *bad = "tensor,offset\na-b,0\na_b,50\nA.b,0\n\"x*/y?\"\"q\",60\n9 lives,100\n";
    put(tmp("bad.csv"), bad, strlen(bad));
    char *err = NULL;
    cr_assert_eq(run(NULL, &err, "export '%s' --plan '%s' --format c-header -o '%s'",
                     tmp("s.yaml"), tmp("bad.csv"), tmp("never.h")), 1);
    cr_assert(strstr(err, "not valid") != NULL && strstr(err, "a-b") != NULL, "%s", err);
    free(err);
    cr_assert_null(fopen(tmp("never.h"), "r"));
}

Test(export, usage_errors_exit_2) {
    write_suite_and_plan();
    static const struct {
        bool plan;
        const char *args, *want;
    } cases[] = {
        {false, "--format c-header", "--plan PLAN"},
        {true, "--format yaml", "writes a suite"},
        {true, "--format svg", "not 'svg'"},
        {true, "--format tflm-offline -o x.tflite", "needs the model"},
        {false, "--model m.tflite", "--model and --force"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char line[8192];
        snprintf(line, sizeof line, "export '%s' %s%s%s %s", tmp("s.yaml"),
                 cases[i].plan ? "--plan '" : "", cases[i].plan ? tmp("p.csv") : "",
                 cases[i].plan ? "'" : "", cases[i].args);
        char *err = NULL;
        cr_assert_eq(abt_run(line, NULL, &err), 2, "%s", line);
        cr_assert(strstr(err, cases[i].want) != NULL, "%s: %s", line, err);
        free(err);
    }
}

/* ---- tflm-offline ------------------------------------------------------------------
 * A tiny model, written byte by byte (objects in order, references forward):
 *
 *   tensors  0 in [1,4] f32 (graph input)   1 w [4,8] f32 (constant, buffer 1)
 *            2 mid [1,8] f32                3 out [1,4] f32 (graph output)
 *   op 0     FULLY_CONNECTED in, w -> mid    op 1  RELU mid -> out ... (code 19)
 *   metadata "min_runtime_version" -> buffer 2 (kept by the rewrite)           */

typedef struct wr {
    uint8_t b[4096];
    size_t n;
} wr;

static void w8(wr *w, uint8_t v) { w->b[w->n++] = v; }
static void w16(wr *w, uint16_t v) { w8(w, (uint8_t)v), w8(w, (uint8_t)(v >> 8)); }
static void w32(wr *w, uint32_t v) { for (int k = 0; k < 4; k++) w8(w, (uint8_t)(v >> 8 * k)); }
static void walign(wr *w, size_t a) { while (w->n % a) w8(w, 0); }
static void patch(wr *w, size_t at, size_t to) {
    cr_assert_gt(to, at);
    uint32_t d = (uint32_t)(to - at);
    for (int k = 0; k < 4; k++) w->b[at + (size_t)k] = (uint8_t)(d >> 8 * k);
}

/* A table of nf 4-byte fields (ids 0..nf-1; present[i] false: absent), values
 * v[i]; returns the table's position; *slots gets each field's position. */
static size_t wtable(wr *w, int nf, const bool *present, const uint32_t *v, size_t *slots) {
    walign(w, 4);
    size_t vt = w->n;
    w16(w, (uint16_t)(4 + 2 * nf));
    w16(w, (uint16_t)(4 + 4 * nf));
    for (int i = 0; i < nf; i++) w16(w, present[i] ? (uint16_t)(4 + 4 * i) : 0);
    walign(w, 4);
    size_t t = w->n;
    w32(w, (uint32_t)(t - vt));
    for (int i = 0; i < nf; i++) {
        slots[i] = w->n;
        w32(w, v[i]);
    }
    return t;
}

static size_t wvec_i32(wr *w, const int32_t *v, int n) {
    walign(w, 4);
    size_t at = w->n;
    w32(w, (uint32_t)n);
    for (int i = 0; i < n; i++) w32(w, (uint32_t)v[i]);
    return at;
}

static size_t wstr(wr *w, const char *s) {
    walign(w, 4);
    size_t at = w->n;
    w32(w, (uint32_t)strlen(s));
    for (const char *c = s; *c; c++) w8(w, (uint8_t)*c);
    w8(w, 0);
    return at;
}

/* A vector of n references, returned with its element positions in el. */
static size_t wvec_refs(wr *w, int n, size_t *el) {
    walign(w, 4);
    size_t at = w->n;
    w32(w, (uint32_t)n);
    for (int i = 0; i < n; i++) el[i] = w->n, w32(w, 0);
    return at;
}

/* A table whose fields are all references (present ones patched by the caller). */
static size_t wtable_refs(wr *w, int nf, const bool *present, size_t *slots) {
    uint32_t zero[8] = {0};
    return wtable(w, nf, present, zero, slots);
}

static size_t tiny_model(wr *w, const char *meta_name) {
    memset(w, 0, sizeof *w);
    size_t root = w->n, s[8], e[8], t;
    w32(w, 0);
    w8(w, 'T'), w8(w, 'F'), w8(w, 'L'), w8(w, '3');
    bool mp[7] = {true, true, true, false, true, false, true};
    uint32_t mv[7] = {3};
    size_t model = wtable(w, 7, mp, mv, s), msl[7];
    memcpy(msl, s, sizeof msl);
    patch(w, root, model);
    /* operator codes: FULLY_CONNECTED (9), RELU (19), by the int field 3 */
    patch(w, msl[1], wvec_refs(w, 2, e));
    size_t code_el[2] = {e[0], e[1]};
    for (int k = 0; k < 2; k++) {
        bool cp[4] = {false, false, false, true};
        uint32_t cv[4] = {0, 0, 0, k == 0 ? 9u : 19u};
        patch(w, code_el[k], wtable(w, 4, cp, cv, s));
    }
    /* subgraph 0 */
    patch(w, msl[2], wvec_refs(w, 1, e));
    size_t sg_el = e[0], sgs[4];
    bool sp[4] = {true, true, true, true};
    patch(w, sg_el, wtable_refs(w, 4, sp, sgs));
    size_t tel[4];
    patch(w, sgs[0], wvec_refs(w, 4, tel));
    static const struct {
        const char *name;
        int32_t shape[2];
        uint32_t buffer;
    } ts[4] = {{"in", {1, 4}, 0}, {"w", {4, 8}, 1}, {"mid", {1, 8}, 0}, {"out", {1, 4}, 0}};
    for (int k = 0; k < 4; k++) {
        bool tp[4] = {true, true, true, true};
        uint32_t tv[4] = {0, 0 /* FLOAT32 */, ts[k].buffer, 0};
        size_t tsl[4];
        patch(w, tel[k], wtable(w, 4, tp, tv, tsl));
        w->b[tsl[1]] = 0;
        patch(w, tsl[0], wvec_i32(w, ts[k].shape, 2));
        patch(w, tsl[3], wstr(w, ts[k].name));
    }
    patch(w, sgs[1], wvec_i32(w, (int32_t[]){0}, 1));
    patch(w, sgs[2], wvec_i32(w, (int32_t[]){3}, 1));
    size_t oel[2];
    patch(w, sgs[3], wvec_refs(w, 2, oel));
    static const int32_t ins[2][2] = {{0, 1}, {2, 0}}, outs[2] = {2, 3};
    for (int k = 0; k < 2; k++) {
        bool op[3] = {true, true, true};
        uint32_t ov[3] = {(uint32_t)k, 0, 0};
        size_t osl[3];
        patch(w, oel[k], wtable(w, 3, op, ov, osl));
        patch(w, osl[1], wvec_i32(w, ins[k], k == 0 ? 2 : 1));
        patch(w, osl[2], wvec_i32(w, &outs[k], 1));
    }
    /* buffers: 0 empty, 1 the weights (128 bytes), 2 the runtime version text */
    size_t bel[3];
    patch(w, msl[4], wvec_refs(w, 3, bel));
    for (int k = 0; k < 3; k++) {
        bool bp[1] = {k > 0};
        size_t bsl[1];
        t = wtable_refs(w, 1, bp, bsl);
        patch(w, bel[k], t);
        if (k == 0) continue;
        walign(w, 16);
        w->n += 12; /* data 16-aligned after its count */
        size_t at = w->n;
        int len = k == 1 ? 128 : 6;
        w32(w, (uint32_t)len);
        for (int i = 0; i < len; i++) w8(w, (uint8_t)(k == 1 ? i : "1.14.0"[i]));
        patch(w, bsl[0], at);
    }
    /* metadata */
    size_t mel[1], mdsl[2];
    patch(w, msl[6], wvec_refs(w, 1, mel));
    bool dp[2] = {true, true};
    uint32_t dv[2] = {0, 2};
    patch(w, mel[0], wtable(w, 2, dp, dv, mdsl));
    patch(w, mdsl[0], wstr(w, meta_name));
    return w->n;
}

static wr W; /* one model at a time */

/* Reads the file at path back with our reader; m and p filled (caller frees). */
static void read_model(const char *path, abf_tflite_model *m, ab_problem *p) {
    ab_error e = {0};
    cr_assert_eq(abf_tflite_load(path, NULL, p, m, &e), AB_OK, "%s", e.msg);
}

/* Checks the offline plan of the model at path against suite view (names as in
 * the model) with the oracle, and that it gives exactly want[i] to view
 * tensor i and -1 to every tensor not in view. */
static void offline_plan_is(const char *path, const ab_problem *view, const int64_t *want) {
    abf_tflite_model m;
    ab_problem p;
    read_model(path, &m, &p);
    cr_assert(m.has_offline, "%s has no offline plan", path);
    cr_assert_eq(m.offline_version, 1);
    cr_assert_eq(m.offline_subgraph, 0);
    cr_assert_eq(m.noffline, m.ntensors);
    ab_plan pl;
    ab_plan_init(&pl);
    ab_error e = {0};
    size_t placed = 0;
    for (size_t k = 0; k < m.ntensors; k++) {
        if (m.offline[k] < 0) continue;
        placed++;
        size_t i = 0;
        while (i < view->n && strcmp(view->t[i].name, m.t[k].name) != 0) i++;
        cr_assert_lt(i, view->n, "tensor %s has offset %d but is not planned", m.t[k].name,
                     m.offline[k]);
        cr_assert_eq(m.offline[k], want[i], "%s", m.t[k].name);
        cr_assert_eq(ab_plan_add(&pl, i, m.offline[k], NULL, 0, &e), AB_OK);
    }
    cr_assert_eq(placed, view->n);
    abo_report r;
    cr_assert_eq(abo_check(view, &pl, &r, &e), AB_OK, "%s", e.msg);
    cr_assert_eq(r.verdict, ABO_OK, "the offline plan read back is not valid (%zu problems)",
                 r.nproblems);
    ab_plan_free(&pl);
    ab_problem_free(&p);
    abf_tflite_model_free(&m);
}

Test(export, tflm_offline_writes_a_copy_our_reader_reads_back_with_the_plan) {
    size_t len = tiny_model(&W, "min_runtime_version");
    put(tmp("tiny.tflite"), W.b, len);
    abf_tflite_model m0;
    ab_problem p0, view;
    read_model(tmp("tiny.tflite"), &m0, &p0);
    cr_assert(!m0.has_offline);
    cr_assert_eq(m0.nmetadata, 1);
    cr_assert_eq(p0.n, 3); /* the weights are no activation */
    ab_error e = {0};
    cr_assert_eq(ab_problem_arena_view(&p0, &view, NULL, &e), AB_OK);
    cr_assert_eq(view.n, 1); /* io: separate: only mid */
    /* plan the model itself (io: workspace), 16-aligned offsets */
    const char *suite = "suite: tiny\nio: workspace\nalignment: 16\ntensors:\n"
                        "  - {name: in, size: 16, start: 0, end: 0, kind: input}\n"
                        "  - {name: mid, size: 32, start: 0, end: 1}\n"
                        "  - {name: out, size: 16, start: 1, end: 1, kind: output}\n";
    const char *plan = "tensor,offset\nin,32\nmid,0\nout,48\n";
    put(tmp("tiny.yaml"), suite, strlen(suite));
    put(tmp("tiny.csv"), plan, strlen(plan));
    char *err = NULL;
    cr_assert_eq(run(NULL, &err, "export '%s' --plan '%s' --format tflm-offline --model '%s' "
                     "-o '%s'", tmp("tiny.yaml"), tmp("tiny.csv"), tmp("tiny.tflite"),
                     tmp("planned.tflite")), 0, "%s", err);
    free(err);
    /* the original is untouched */
    size_t n0;
    char *again = abt_slurp(tmp("tiny.tflite"), &n0);
    cr_assert(n0 == len && memcmp(again, W.b, len) == 0, "the original model changed");
    free(again);
    /* the copy: the same model, plus the plan */
    abf_tflite_model m1;
    ab_problem p1, v1;
    read_model(tmp("planned.tflite"), &m1, &p1);
    cr_assert_eq(m1.nmetadata, 2, "min_runtime_version kept, the plan added");
    cr_assert_eq(m1.nbuffers, m0.nbuffers + 1);
    cr_assert_eq(m1.offline_buffer, m0.nbuffers);
    cr_assert_eq(m1.ntensors, m0.ntensors);
    cr_assert_eq(m1.nops, m0.nops);
    for (size_t i = 0; i < p0.n; i++) {
        cr_assert_str_eq(p1.t[i].name, p0.t[i].name);
        cr_assert(p1.t[i].size == p0.t[i].size && p1.t[i].start == p0.t[i].start &&
                  p1.t[i].end == p0.t[i].end && p1.t[i].kind == p0.t[i].kind);
    }
    cr_assert_eq(m1.offline[1], -1, "the constant weights are left to the runtime");
    ab_problem suite_p;
    cr_assert_eq(abf_suite_load(tmp("tiny.yaml"), &suite_p, &e), AB_OK, "%s", e.msg);
    cr_assert_eq(ab_problem_arena_view(&suite_p, &v1, NULL, &e), AB_OK);
    offline_plan_is(tmp("planned.tflite"), &v1, (int64_t[]){32, 0, 48});

    /* exporting again into the copy replaces its plan: still one */
    const char *plan2 = "tensor,offset\nin,0\nmid,16\nout,0\n";
    put(tmp("tiny2.csv"), plan2, strlen(plan2));
    cr_assert_eq(run(NULL, &err, "export '%s' --plan '%s' --format tflm-offline --model '%s' "
                     "-o '%s'", tmp("tiny.yaml"), tmp("tiny2.csv"), tmp("planned.tflite"),
                     tmp("replanned.tflite")), 0, "%s", err);
    free(err);
    abf_tflite_model m2;
    ab_problem p2;
    read_model(tmp("replanned.tflite"), &m2, &p2);
    cr_assert_eq(m2.nmetadata, 2);
    offline_plan_is(tmp("replanned.tflite"), &v1, (int64_t[]){0, 16, 0});

    abf_tflite_model_free(&m0), abf_tflite_model_free(&m1), abf_tflite_model_free(&m2);
    ab_problem_free(&p0), ab_problem_free(&p1), ab_problem_free(&p2);
    ab_problem_free(&view), ab_problem_free(&v1), ab_problem_free(&suite_p);
}

Test(export, tflm_offline_refuses_what_16_byte_rounding_breaks_unless_forced) {
    size_t len = tiny_model(&W, "min_runtime_version");
    put(tmp("tiny.tflite"), W.b, len);
    const char *suite = "suite: tiny\nio: workspace\ntensors:\n"
                        "  - {name: in, size: 16, start: 0, end: 0, kind: input}\n"
                        "  - {name: mid, size: 30, start: 0, end: 1}\n"
                        "  - {name: out, size: 16, start: 1, end: 1, kind: output}\n";
    const char *plan = "tensor,offset\nin,30\nmid,0\nout,46\n"; /* valid, not once rounded */
    put(tmp("odd.yaml"), suite, strlen(suite));
    put(tmp("odd.csv"), plan, strlen(plan));
    char *err = NULL;
    cr_assert_eq(run(NULL, &err, "export '%s' --plan '%s' --format tflm-offline --model '%s' "
                     "-o '%s'", tmp("odd.yaml"), tmp("odd.csv"), tmp("tiny.tflite"),
                     tmp("odd.tflite")), 1);
    cr_assert(strstr(err, "rounds every tensor up to 16") != NULL, "%s", err);
    free(err);
    cr_assert_null(fopen(tmp("odd.tflite"), "rb"));
    cr_assert_eq(run(NULL, &err, "export '%s' --plan '%s' --format tflm-offline --model '%s' "
                     "-o '%s' --force", tmp("odd.yaml"), tmp("odd.csv"), tmp("tiny.tflite"),
                     tmp("odd.tflite")), 0, "%s", err);
    free(err);
    /* a suite tensor the model does not have */
    const char *other = "suite: other\ntensors:\n  - {name: nope, size: 16, start: 0, end: 0}\n";
    put(tmp("other.yaml"), other, strlen(other));
    put(tmp("other.csv"), "tensor,offset\nnope,0\n", 21);
    cr_assert_eq(run(NULL, &err, "export '%s' --plan '%s' --format tflm-offline --model '%s' "
                     "-o '%s'", tmp("other.yaml"), tmp("other.csv"), tmp("tiny.tflite"),
                     tmp("other.tflite")), 2);
    cr_assert(strstr(err, "'nope' is not a tensor") != NULL, "%s", err);
    free(err);
    /* -o onto the model itself (the model as the suite: only mid is in its arena) */
    put(tmp("mid.csv"), "tensor,offset\nmid,0\n", 20);
    cr_assert_eq(run(NULL, &err, "export '%s' --plan '%s' --format tflm-offline -o '%s'",
                     tmp("tiny.tflite"), tmp("mid.csv"), tmp("tiny.tflite")), 2);
    cr_assert(strstr(err, "never modified") != NULL, "%s", err);
    free(err);
    cr_assert_eq(run(NULL, &err, "export '%s' --plan '%s' --format tflm-offline -o '%s'",
                     tmp("tiny.tflite"), tmp("mid.csv"), tmp("mid.tflite")), 0, "%s", err);
    free(err);
}

Test(export, tflm_offline_reader_rejects_a_plan_buffer_of_the_wrong_length) {
    /* the metadata names buffer 2, six bytes: no version, subgraph and count */
    size_t len = tiny_model(&W, "OfflineMemoryAllocation");
    abf_tflite_model m;
    ab_error e = {0};
    cr_assert_eq(abf_tflite_parse("t.tflite", W.b, len, &m, &e), AB_EINPUT);
    cr_assert(strstr(e.msg, "holds 6 bytes: at least 12") != NULL, "%s", e.msg);
    abf_tflite_model_free(&m);
}

/* ---- the real model ------------------------------------------------------------------ */

Test(export, real_model_plan_goes_into_a_copy_and_reads_back_valid) {
    const char *data = abt_shared_data();
    char model[4096];
    snprintf(model, sizeof model, "%s/models/face_detection_short_range.tflite", data ? data : "");
    FILE *f = data ? fopen(model, "rb") : NULL;
    if (f == NULL) cr_skip("../shared/data/models/face_detection_short_range.tflite is absent");
    fclose(f);
    /* the suite with TFLite Micro's rules: in the arena, 16-byte alignment */
    char *err = NULL, *yaml = NULL;
    cr_assert_eq(run(&yaml, &err, "export '%s' --format yaml", model), 0, "%s", err);
    free(err);
    char *nl = strchr(yaml, '\n');
    cr_assert_not_null(nl);
    ab_buf s = {0};
    ab_buf_append(&s, yaml, (size_t)(nl - yaml + 1));
    ab_buf_printf(&s, "alignment: 16\nio: workspace\n%s", nl + 1);
    put(tmp("fd.yaml"), s.s, s.n);
    ab_buf_free(&s);
    free(yaml);
    cr_assert_eq(run(NULL, &err, "plan -p best-fit '%s' -o '%s'", tmp("fd.yaml"), tmp("fd.csv")),
                 0, "%s", err);
    free(err);
    cr_assert_eq(run(NULL, &err, "export '%s' --plan '%s' --format tflm-offline --model '%s' "
                     "-o '%s'", tmp("fd.yaml"), tmp("fd.csv"), model, tmp("fd.tflite")),
                 0, "%s", err);
    free(err);
    ab_problem full, view;
    ab_plan pl;
    ab_error e = {0};
    cr_assert_eq(abf_suite_load(tmp("fd.yaml"), &full, &e), AB_OK, "%s", e.msg);
    cr_assert_eq(ab_problem_arena_view(&full, &view, NULL, &e), AB_OK);
    cr_assert_eq(view.n, 165);
    cr_assert_eq(abf_plan_read(tmp("fd.csv"), &view, &pl, &e), AB_OK, "%s", e.msg);
    int64_t *want = calloc(view.n, sizeof *want);
    for (size_t i = 0; i < pl.n; i++) want[pl.v[i].tensor] = pl.v[i].offset;
    offline_plan_is(tmp("fd.tflite"), &view, want);
    free(want);
    ab_plan_free(&pl);
    ab_problem_free(&view);
    ab_problem_free(&full);
}
