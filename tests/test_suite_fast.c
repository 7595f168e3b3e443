/*
 * test_suite_fast.c — the suite loader's fast path (harness/formats/suite.c):
 * it is taken on the writer's kind of text, and every load, good or bad, ends
 * exactly as the libyaml load does (the same problem, tensor lines included,
 * or the same status and message), on hand-written documents in and out of
 * its subset and on random mutations of them. Also core's ab_find_duplicate,
 * which the suite and MiniMalloc loaders check names with.
 */
#include <criterion/criterion.h>

#include <dirent.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"
#include "harness/formats/gen.h"
#include "harness/formats/suite.h"
#include "tests/support.h"

/* Documents in the fast path's subset (each must load). */
static const char *const fast_docs[] = {
    "suite: s\ntensors:\n- {name: a, size: 64, start: 0, end: 1}\n- {name: b, size: 8, start: 1, end: 2}\n",
    "suite: s\ndescription: 'it''s a test: quoted'\nalignment: 16\ntensors:\n"
    "  - {name: \"x y\", shape: [1, 224, 224, 3], dtype: int8, start: 0, end: 3, align: 64}\n"
    "  - {name: 'q', size: 100, start: 2, end: 5, kind: input, offset: 128}\n"
    "\n# a comment line\n  # an indented one\n"
    "  - { name: z ,  size: 8, start: 0, end: 0, stride_align: 4, shape: [2, 3], dtype: int8 }   \n"
    "expect:\n  lower_bound: 64\n  optimum: 200\n",
    "# leading comment\n\nsuite: random-n=3\ncapacity: 4096\nio: workspace\ntensors: []\n",
    "suite: p\npools: [{name: fast, size: 256}, {name: slow}]\ntensors:\n"
    "- {name: a, size: 64, start: 0, end: 1}\n- {name: b, size: 300, start: 0, end: 1}\n"
    "expect:\n  peer_arena: {tflm-greedy: {fast: 64, slow: 300}}\n",
    "suite: g\ngenerate: {kind: chain, n: 5}\n",
    "suite: s\ntensors:\n- {name: a, size: 64, start: 0, end: 1, kind: output}\nexpect: {optimum: 64}",
};

/* Documents outside the subset (loaded through libyaml only). */
static const char *const slow_docs[] = {
    "suite: s\ntensors:\n  - name: a\n    size: 64\n    start: 0\n    end: 1\n",
    "suite: s # trailing comment\ntensors:\n- {name: a, size: 64, start: 0, end: 1}\n",
    "---\nsuite: s\ntensors:\n- {name: a, size: 64, start: 0, end: 1}\n...\n",
    "suite: s\ntensors:\n- {name: \"\\u00e9\", size: 64, start: 0, end: 1}\n",
    "suite: s\ntensors:\n- {name: a, size: !!int 64, start: 0, end: 1}\n",
    "suite: s\ntensors:\n- {name: my tensor, size: 64, start: 0, end: 1}\n",
    "suite: s\r\ntensors:\r\n- {name: a, size: 64, start: 0, end: 1}\r\n",
    "suite: s\ntensors:\n- {name: a,\n   size: 64, start: 0, end: 1}\n",
};

/* A document touching most of the schema, for the mutations. */
static const char *const base_doc =
    "suite: m\ndescription: 'x: y'\nalignment: 16\ncapacity: 100000\n"
    "pools: [{name: fast, size: 4096}, {name: slow}]\n"
    "tensors:\n"
    "- {name: a, size: 64, start: 0, end: 1}\n"
    "- {name: b, shape: [1, 8, 8, 3], dtype: int8, start: 1, end: 2, align: 32}\n"
    "- {name: 'c', size: 100, start: 2, end: 5, kind: input, offset: 128}\n"
    "# comment\n"
    "- {name: d, size: 8, start: 0, end: 0, stride_align: 4, shape: [2, 3], dtype: int8}\n"
    "expect:\n  lower_bound: 64\n  optimum: 300\n";

/* Loads text through the fast path (when enabled) or libyaml only. */
static unsigned long fast_loads; /* loads the fast path made whole */

static ab_status load(const char *text, size_t len, bool fast, ab_problem *p, ab_error *err) {
    abf_suite_load_opts o = {.libyaml_only = !fast, .fast_loads = &fast_loads};
    ab_error_clear(err);
    return abf_suite_load_buffer_with("m.yaml", text, len, &o, p, err);
}

/* Both loads of text end alike: the status, the message, or the problem
 * (its canonical text and every tensor's line). */
static int assert_same(const char *text, size_t len) {
    ab_problem a, b;
    ab_error ea, eb;
    ab_status sa = load(text, len, true, &a, &ea);
    ab_status sb = load(text, len, false, &b, &eb);
    cr_assert_eq(sa, sb, "status %d (fast) vs %d (libyaml) on:\n%.*s", sa, sb, (int)len, text);
    if (sa != AB_OK) {
        cr_assert_str_eq(ea.msg, eb.msg, "messages differ on:\n%.*s", (int)len, text);
        return 0;
    }
    ab_buf ra = {0}, rb = {0};
    ab_error e;
    cr_assert_eq(abf_suite_render(&a, &ra, &e), AB_OK);
    cr_assert_eq(abf_suite_render(&b, &rb, &e), AB_OK);
    cr_assert_eq(ra.n, rb.n, "problems differ on:\n%.*s", (int)len, text);
    cr_assert(memcmp(ra.s, rb.s, ra.n) == 0, "problems differ on:\n%.*s", (int)len, text);
    cr_assert_eq(a.n, b.n);
    for (size_t i = 0; i < a.n; i++)
        cr_assert_eq(a.t[i].line, b.t[i].line, "tensor %zu: line %d vs %d", i, a.t[i].line,
                     b.t[i].line);
    cr_assert_str_eq(a.source, b.source);
    ab_buf_free(&ra);
    ab_buf_free(&rb);
    ab_problem_free(&a);
    ab_problem_free(&b);
    return 1;
}

Test(suite_fast, taken_on_the_subset_and_same_as_libyaml) {
    for (size_t i = 0; i < sizeof fast_docs / sizeof *fast_docs; i++) {
        ab_problem p;
        ab_error err;
        unsigned long before = fast_loads;
        cr_assert_eq(load(fast_docs[i], strlen(fast_docs[i]), true, &p, &err), AB_OK,
                     "doc %zu: %s", i, err.msg);
        cr_assert_eq(fast_loads, before + 1, "doc %zu did not take the fast path", i);
        ab_problem_free(&p);
        assert_same(fast_docs[i], strlen(fast_docs[i]));
    }
}

Test(suite_fast, outside_the_subset_libyaml_loads) {
    for (size_t i = 0; i < sizeof slow_docs / sizeof *slow_docs; i++) {
        ab_problem p;
        ab_error err;
        unsigned long before = fast_loads;
        ab_status st = load(slow_docs[i], strlen(slow_docs[i]), true, &p, &err);
        cr_assert_eq(fast_loads, before, "doc %zu took the fast path", i);
        if (st == AB_OK) ab_problem_free(&p);
        assert_same(slow_docs[i], strlen(slow_docs[i]));
    }
}

Test(suite_fast, errors_are_libyamls) {
    static const char *const bad[] = {
        "suite: s\ntensors:\n- {name: a, size: 64, start: 2, end: 1}\n",
        "suite: s\ntensors:\n- {name: a, size: 64, start: 0, end: 1}\n- {name: a, size: 8, start: 0, end: 1}\n",
        "suite: s\ntensors:\n- {name: a, sise: 64, start: 0, end: 1}\n",
        "suite: s\nalignment: 64\ntensors:\n- {name: a, size: 64, start: 0, end: 1, offset: 32}\n",
        "suite: s\ntensors:\n- {name: a, size: 064, start: 0, end: 1}\n",
        "suite: s\ntensors:\n- {name: a, size: '64', start: 0, end: 1}\n",
        "suite: s\n",
        "",
        "tensors:\n- {name: a, size: 1, start: 0, end: 1}\nsuite: s\nsuite: t\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ab_problem p;
        ab_error err;
        cr_assert_eq(load(bad[i], strlen(bad[i]), true, &p, &err), AB_EINPUT, "doc %zu", i);
        cr_assert(strncmp(err.msg, "m.yaml:", 7) == 0, "doc %zu: %s", i, err.msg);
        assert_same(bad[i], strlen(bad[i]));
    }
}

/* Random edits of the base document: a character deleted, replaced or
 * inserted (from the characters YAML gives meaning to), a line doubled. */
Test(suite_fast, mutations_end_alike) {
    static const char alphabet[] = " -:,{}[]'\"#\n\t&!|>.0123456789azAZ_=~";
    size_t blen = strlen(base_doc);
    char *text = malloc(blen * 2 + 8);
    cr_assert_not_null(text);
    uint64_t rng = 0x9e3779b97f4a7c15u;
    int cases = abt_cases(1500, 20000), loaded = 0;
    unsigned long before = fast_loads;
    for (int c = 0; c < cases; c++) {
        memcpy(text, base_doc, blen + 1);
        size_t len = blen;
        int edits = 1 + c % 3;
        for (int k = 0; k < edits; k++) {
            rng = rng * 6364136223846793005u + 1442695040888963407u;
            size_t at = (size_t)(rng >> 33) % (len ? len : 1);
            char ch = alphabet[(rng >> 20) % (sizeof alphabet - 1)];
            switch ((rng >> 12) % 4) {
            case 0: memmove(text + at, text + at + 1, len - at), len--; break;
            case 1: text[at] = ch; break;
            case 2: memmove(text + at + 1, text + at, len - at + 1), text[at] = ch, len++; break;
            default: {
                size_t s = at, e = at;
                while (s > 0 && text[s - 1] != '\n') s--;
                while (e < len && text[e] != '\n') e++;
                size_t n = e - s + 1; /* with its '\n' */
                if (e < len && len + n < blen * 2) {
                    memmove(text + e + 1 + n, text + e + 1, len - e);
                    memcpy(text + e + 1, text + s, n);
                    len += n;
                }
            }
            }
        }
        loaded += assert_same(text, len);
    }
    free(text);
    /* both ends were exercised: mutants that load (most through the fast
     * path) and mutants that fail */
    unsigned long fast = fast_loads - before;
    cr_assert(loaded >= cases / 50 && loaded <= cases - cases / 50, "%d of %d loaded", loaded,
              cases);
    cr_assert(fast >= (unsigned long)loaded / 4, "%lu of %d loads were fast", fast, loaded);
}

/* The writer's output at some size: the fast path reads it, as libyaml does. */
Test(suite_fast, generated_suites_round_trip) {
    const char *kinds[][2] = {{"random", "2000"}, {"resnet", NULL}, {"fanout", NULL}};
    for (size_t i = 0; i < 3; i++) {
        ab_kv kv[1] = {{.key = "n", .value = (char *)kinds[i][1]}};
        ab_params prm = {.v = kv, .n = kinds[i][1] ? 1 : 0};
        ab_problem g;
        ab_error err;
        cr_assert_eq(abf_generate(kinds[i][0], &prm, NULL, &g, &err), AB_OK, "%s", err.msg);
        ab_buf b = {0};
        cr_assert_eq(abf_suite_render(&g, &b, &err), AB_OK);
        unsigned long before = fast_loads;
        ab_problem p;
        cr_assert_eq(load(b.s, b.n, true, &p, &err), AB_OK, "%s", err.msg);
        cr_assert_eq(fast_loads, before + 1, "%s: not the fast path", kinds[i][0]);
        cr_assert_eq(p.n, g.n);
        ab_problem_free(&p);
        assert_same(b.s, b.n);
        ab_buf_free(&b);
        ab_problem_free(&g);
    }
}

/* Every suite shipped in suites/ and tests/data/suite loads alike both ways
 * (and how many took the fast path is at least one: the examples are of the
 * writer's kind). */
Test(suite_fast, shipped_suites_load_alike) {
    const char *dirs[] = {"suites/examples", "suites/generated", "suites/models", "suites/peers",
                          "tests/data/suite"};
    unsigned long before = fast_loads;
    int files = 0;
    for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", abt_src(dirs[d]));
        DIR *h = opendir(dir);
        if (h == NULL) continue;
        for (struct dirent *e; (e = readdir(h)) != NULL;) {
            size_t n = strlen(e->d_name);
            if (n < 5 || strcmp(e->d_name + n - 5, ".yaml") != 0) continue;
            char path[8192];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            size_t len = 0;
            char *text = abt_slurp(path, &len);
            cr_assert_not_null(text, "%s", path);
            assert_same(text, len);
            free(text);
            files++;
        }
        closedir(h);
    }
    cr_assert_gt(files, 5);
    cr_assert_gt(fast_loads, before);
}

/* A line of more events than the fast path holds goes to libyaml, and loads. */
Test(suite_fast, a_very_long_line_goes_to_libyaml) {
    ab_buf b = {0};
    ab_buf_printf(&b, "suite: long\ntensors: [");
    for (int i = 0; i < 10000; i++)
        ab_buf_printf(&b, "%s{name: t%d, size: 16, start: %d, end: %d}", i ? ", " : "", i, i, i + 1);
    ab_buf_printf(&b, "]\n");
    cr_assert_not(b.oom);
    ab_problem p;
    ab_error err;
    unsigned long before = fast_loads;
    cr_assert_eq(load(b.s, b.n, true, &p, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(p.n, 10000);
    cr_assert_eq(fast_loads, before, "a 110,000-event line took the fast path");
    ab_problem_free(&p);
    ab_buf_free(&b);
}

/* ---- ab_find_duplicate (core/ab.c) ------------------------------------------ */

static const char *nth(const void *ctx, size_t i) { return ((const char *const *)ctx)[i]; }

Test(find_duplicate, first_repeat_as_brute_force_finds_it) {
    enum { N = 3000 };
    char **names = calloc(N, sizeof *names);
    cr_assert_not_null(names);
    uint64_t rng = 12345;
    int cases = abt_cases(40, 400);
    for (int c = 0; c < cases; c++) {
        size_t n = 1 + (size_t)c * 73 % N;
        for (size_t i = 0; i < n; i++) {
            rng = rng * 6364136223846793005u + 1442695040888963407u;
            names[i] = malloc(24);
            cr_assert_not_null(names[i]);
            /* mostly distinct; a small alphabet on some cases makes repeats */
            unsigned long v = c % 3 == 0 ? (unsigned long)(rng >> 40) % (n * 4 + 1) : (unsigned long)i;
            snprintf(names[i], 24, "t%lu", v);
        }
        size_t a = 99, b = 99, ea = 0, eb = 0;
        bool want = false;
        for (size_t i = 0; i < n && !want; i++)
            for (size_t j = 0; j < i && !want; j++)
                if (strcmp(names[i], names[j]) == 0) ea = j, eb = i, want = true;
        int got = ab_find_duplicate(n, nth, names, &a, &b);
        cr_assert_eq(got, want ? 1 : 0, "case %d (n %zu)", c, n);
        if (want) cr_assert(a == ea && b == eb, "case %d: %zu, %zu vs %zu, %zu", c, a, b, ea, eb);
        for (size_t i = 0; i < n; i++) free(names[i]);
    }
    free(names);
}

/* `expect: peer_arena:` with many entries loads in linear time: each spec
 * was looked up by a scan of the peers so far (80k entries took over 10 s,
 * 4-5x per doubling). CPU time by clock(), with a bound far above the linear
 * cost (well under a second) and far below the quadratic one. */
Test(suite_fast, many_peer_expectations_load_in_linear_time, .timeout = 120) {
    enum { N = 80000 };
    ab_buf b = {0};
    ab_buf_printf(&b, "suite: peers\ntensors:\n- {name: a, size: 64, start: 0, end: 1}\n"
                      "expect:\n  peer_arena:\n");
    for (int i = 0; i < N; i++) ab_buf_printf(&b, "    \"canonical:nodes=%d\": %d\n", i + 1, 64 + i);
    ab_buf_printf(&b, "  peer_offsets:\n    \"canonical:nodes=%d\": [0]\n", N / 2);
    cr_assert(!b.oom);
    ab_problem p;
    ab_error err;
    clock_t t0 = clock();
    ab_status st = abf_suite_load_buffer("peers.yaml", b.s, b.n, &p, &err);
    double cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
    ab_buf_free(&b);
    cr_assert_eq(st, AB_OK, "%s", err.msg);
    cr_assert_eq(p.npeers, (size_t)N);
    cr_assert_str_eq(p.peers[N - 1].spec, "canonical:nodes=80000");
    cr_assert_eq(p.peers[N - 1].arena, 64 + N - 1);
    cr_assert_eq(p.peers[N / 2 - 1].noffsets, 1, "peer_offsets joins the peer_arena entry");
    cr_assert_lt(cpu, 5.0, "%d peer expectations took %.1f s of CPU", N, cpu);
    ab_problem_free(&p);
}

/* The same spec twice is still refused, however many come between. */
Test(suite_fast, a_repeated_peer_spec_among_many_is_refused) {
    ab_buf b = {0};
    ab_buf_printf(&b, "suite: peers\ntensors:\n- {name: a, size: 64, start: 0, end: 1}\n"
                      "expect:\n  peer_arena:\n");
    for (int i = 0; i < 1000; i++) ab_buf_printf(&b, "    \"canonical:nodes=%d\": 64\n", i + 1);
    ab_buf_printf(&b, "    \"canonical:nodes=17\": 64\n");
    ab_problem p;
    ab_error err;
    cr_assert_eq(abf_suite_load_buffer("peers.yaml", b.s, b.n, &p, &err), AB_EINPUT);
    ab_buf_free(&b);
    cr_assert(strstr(err.msg, "duplicate key 'canonical:nodes=17'") != NULL, "%s", err.msg);
}
