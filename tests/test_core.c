/*
 * test_core.c — core types: spec parsing, integers, units and coarsening,
 * name lookup, arena views, and allocation failures; the shared helpers:
 * whole-file reading, the CSV tokenizer, sorting with a context, FNV-1a and
 * byte sizes.
 */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/csv.h"
#include "core/file.h"
#include "core/problem.h"
#include "core/sort.h"
#include "planners/planner.h"
#include "tests/support.h"

#define T(nm, sz, s, e, ...) \
    ((ab_tensor){.name = (char *)(nm), .size = (sz), .start = (s), .end = (e), .align = 1, \
                 .offset = AB_NONE, .logical_bits = (sz) * 8, __VA_ARGS__})

static void add_all(ab_problem *p, const ab_tensor *t, size_t n) {
    for (size_t i = 0; i < n; i++) cr_assert_eq(ab_problem_add(p, &t[i], NULL), AB_OK);
}

Test(spec, parses_name_without_params) {
    char *name;
    ab_params prm;
    cr_assert_eq(ab_planner_spec_parse("first-fit", &name, &prm, NULL), AB_OK);
    cr_assert_str_eq(name, "first-fit");
    cr_assert_eq(prm.n, 0);
    ab_free(name);
    ab_params_free(&prm);
}

Test(spec, parses_params_and_quoted_values) {
    char *name;
    ab_params prm;
    cr_assert_eq(ab_planner_spec_parse("external:cmd='a,b c',k=64", &name, &prm, NULL), AB_OK);
    cr_assert_str_eq(name, "external");
    cr_assert_eq(prm.n, 2);
    cr_assert_str_eq(ab_params_get(&prm, "cmd"), "a,b c");
    int64_t k;
    cr_assert_eq(ab_params_int(&prm, "k", 1, 1, 1 << 20, &k, NULL), AB_OK);
    cr_assert_eq(k, 64);
    ab_free(name);
    ab_params_free(&prm);
}

Test(spec, rejects_malformed_specs) {
    const char *bad[] = {":k=1", "ff:k", "ff:k=1,k=2", "ff:cmd='open", "ff:=3", "ff:a='x'y"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *name;
        ab_params prm;
        ab_error err;
        cr_assert_eq(ab_planner_spec_parse(bad[i], &name, &prm, &err), AB_EINPUT, "%s", bad[i]);
        cr_assert(strstr(err.msg, "planner spec") != NULL, "%s: %s", bad[i], err.msg);
        cr_assert_null(name);
    }
}

Test(spec, rejects_integer_param_out_of_range) {
    ab_params prm = {0};
    char *name;
    ab_error err;
    cr_assert_eq(ab_planner_spec_parse("x:k=0", &name, &prm, NULL), AB_OK);
    int64_t k;
    cr_assert_eq(ab_params_int(&prm, "k", 1, 1, 100, &k, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "parameter k") != NULL, "%s", err.msg);
    ab_free(name);
    ab_params_free(&prm);
}

Test(ints, parses_and_rejects) {
    int64_t v;
    cr_assert(ab_parse_int64("9223372036854775807", 19, &v) && v == INT64_MAX);
    cr_assert(ab_parse_int64("-9223372036854775808", 20, &v) && v == INT64_MIN);
    cr_assert(!ab_parse_int64("9223372036854775808", 19, &v));
    cr_assert(!ab_parse_int64("", 0, &v));
    cr_assert(!ab_parse_int64("-", 1, &v));
    cr_assert(!ab_parse_int64("12x", 3, &v));
    cr_assert(!ab_parse_int64("1.5", 3, &v));
    int64_t r;
    cr_assert(ab_align_up_ovf(INT64_MAX - 2, 8, &r));
    cr_assert(!ab_align_up_ovf(17, 16, &r) && r == 32);
}

/* ab_align_up_ovf (masks for powers of two, division otherwise) against
 * 128-bit arithmetic: small and huge values, every kind of modulus, the
 * overflow boundary. */
Test(ints, align_up_matches_wide_arithmetic) {
    static const int64_t mods[] = {1, 2, 3, 7, 16, 48, 64, 4096, (int64_t)1 << 40,
                                   ((int64_t)1 << 40) + 1, (int64_t)1 << 62};
    uint64_t s = 42;
    for (int k = 0; k < 20000; k++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        int64_t m = mods[(s >> 33) % (sizeof mods / sizeof mods[0])];
        int64_t v = k % 3 == 0 ? (int64_t)(s >> 50) : k % 3 == 1 ? INT64_MAX - (int64_t)(s >> 44)
                                                                   : (int64_t)(s >> 1);
        __int128 want = ((__int128)v + m - 1) / m * m;
        int64_t r = -1;
        bool ovf = ab_align_up_ovf(v, m, &r);
        cr_assert_eq(ovf, want > INT64_MAX, "align_up(%lld, %lld)", (long long)v, (long long)m);
        if (!ovf) cr_assert_eq(r, (int64_t)want, "align_up(%lld, %lld)", (long long)v, (long long)m);
    }
}

Test(unit, is_gcd_of_sizes_aligns_above_one_and_offsets) {
    ab_problem p;
    ab_problem_init(&p);
    ab_tensor t[] = {T("a", 1024, 0, 1), T("b", 3072, 1, 2)};
    add_all(&p, t, 2);
    cr_assert_eq(ab_problem_unit(&p), 1024);
    ab_tensor c = T("c", 2048, 0, 0, .align = 16);
    add_all(&p, &c, 1);
    cr_assert_eq(ab_problem_unit(&p), 16);
    ab_problem_free(&p);
}

Test(coarsen, rounds_sizes_up_and_scales_alignment) {
    ab_problem p, q;
    ab_problem_init(&p);
    ab_tensor t[] = {T("a", 100, 0, 1), T("b", 64, 1, 2, .align = 128), T("c", 1, 0, 0, .align = 16),
                     T("d", 10, 3, 3, .offset = 192)};
    add_all(&p, t, 4);
    p.capacity = 1000;
    cr_assert_eq(ab_problem_coarsen(&p, 64, &q, NULL), AB_OK);
    cr_assert_eq(q.t[0].size, 2);
    cr_assert_eq(q.t[1].size, 1);
    cr_assert_eq(q.t[1].align, 2);
    cr_assert_eq(q.t[2].align, 1);
    cr_assert_eq(q.t[3].offset, 3);
    cr_assert_eq(q.capacity, 15);
    ab_problem_free(&q);
    p.t[3].offset = 100;
    ab_error err;
    cr_assert_eq(ab_problem_coarsen(&p, 64, &q, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "'d'") != NULL, "%s", err.msg);
    ab_problem_free(&p);
}

Test(names, finds_and_reports_duplicates) {
    ab_problem p;
    ab_problem_init(&p);
    ab_tensor t[] = {T("a", 1, 0, 1), T("bb", 1, 0, 1), T("c", 1, 0, 1)};
    add_all(&p, t, 3);
    ab_names *nt;
    cr_assert_eq(ab_names_build(&p, &nt, NULL, NULL, NULL), AB_OK);
    cr_assert_eq(ab_names_find(nt, "bb", 2), 1);
    cr_assert_eq(ab_names_find(nt, "bbx", 1), AB_NO_TENSOR); /* "b" */
    cr_assert_eq(ab_names_find(nt, "zz", 2), AB_NO_TENSOR);
    ab_names_free(nt);
    ab_tensor d = T("bb", 2, 0, 0);
    add_all(&p, &d, 1);
    size_t a, b;
    cr_assert_eq(ab_names_build(&p, &nt, &a, &b, NULL), AB_EINPUT);
    cr_assert_eq(a, 1);
    cr_assert_eq(b, 3);
    ab_problem_free(&p);
}

/* Sequential names (t0, t1, ...) and as many unknown ones (the misspelt
 * plan of a large trace) stay a probe or two each: FNV-1a's raw low bits
 * cluster them, which made every unknown name walk a long run (minutes for
 * 200k names in `validate`). */
Test(names, sequential_and_unknown_names_take_few_probes) {
    enum { N = 50000 };
    ab_problem p;
    ab_problem_init(&p);
    char name[32];
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof name, "t%d", i);
        ab_tensor t = T(name, 1, i, i);
        add_all(&p, &t, 1);
    }
    ab_names *nt;
    cr_assert_eq(ab_names_build(&p, &nt, NULL, NULL, NULL), AB_OK);
    size_t known = 0, unknown = 0, worst = 0;
    for (int i = 0; i < N; i++) {
        int len = snprintf(name, sizeof name, "t%d", i);
        cr_assert_eq(ab_names_find(nt, name, (size_t)len), (size_t)i);
        known += ab_names_probes(nt, name, (size_t)len);
        switch (i % 4) { /* misspellings */
        case 0: len = snprintf(name, sizeof name, "t%dx", i); break;
        case 1: len = snprintf(name, sizeof name, "T%d", i); break;
        case 2: len = snprintf(name, sizeof name, "tensor_%d", i); break;
        default: len = snprintf(name, sizeof name, "t_%d", i); break;
        }
        cr_assert_eq(ab_names_find(nt, name, (size_t)len), AB_NO_TENSOR, "%s", name);
        size_t k = ab_names_probes(nt, name, (size_t)len);
        unknown += k;
        if (k > worst) worst = k;
    }
    /* load 50000 / 131072: about 1.3 probes to find, 2 to miss, on average */
    cr_assert_lt(known, 3 * (size_t)N, "%zu probes for %d known names", known, N);
    cr_assert_lt(unknown, 4 * (size_t)N, "%zu probes for %d unknown names", unknown, N);
    cr_assert_lt(worst, 200, "an unknown name took %zu probes", worst);
    ab_names_free(nt);
    ab_problem_free(&p);
}

Test(view, keeps_io_outside_the_arena_unless_workspace) {
    ab_problem p, v;
    ab_problem_init(&p);
    ab_tensor t[] = {T("in", 8, 0, 0, .kind = AB_KIND_INPUT), T("x", 4, 0, 1),
                     T("out", 2, 1, 1, .kind = AB_KIND_OUTPUT)};
    add_all(&p, t, 3);
    size_t *map;
    cr_assert_eq(ab_problem_arena_view(&p, &v, &map, NULL), AB_OK);
    cr_assert_eq(v.n, 1);
    cr_assert_str_eq(v.t[0].name, "x");
    cr_assert_eq(map[0], 1);
    cr_assert_eq(ab_problem_io_outside(&p), 10);
    ab_free(map);
    ab_problem_free(&v);
    p.io = AB_IO_WORKSPACE;
    cr_assert_eq(ab_problem_arena_view(&p, &v, NULL, NULL), AB_OK);
    cr_assert_eq(v.n, 3);
    cr_assert_eq(ab_problem_io_outside(&p), 0);
    ab_problem_free(&v);
    ab_problem_free(&p);
}

Test(alloc, clone_fails_cleanly_at_every_allocation) {
    ab_problem p, q;
    ab_problem_init(&p);
    int64_t shape[] = {2, 3};
    ab_tensor t[] = {T("a", 6, 0, 1, .ndim = 2, .shape = shape), T("b", 1, 0, 1)};
    add_all(&p, t, 2);
    p.name = ab_strdup("s");
    p.description = ab_strdup("d");
    ab_alloc_fail_at(0);
    cr_assert_eq(ab_problem_clone(&p, &q, NULL), AB_OK);
    long calls = ab_alloc_fail_at(0);
    ab_problem_free(&q);
    cr_assert_gt(calls, 3);
    for (long n = 1; n <= calls; n++) {
        ab_alloc_fail_at(n);
        cr_assert_eq(ab_problem_clone(&p, &q, NULL), AB_ENOMEM, "allocation %ld", n);
        ab_alloc_fail_at(0);
        cr_assert_eq(q.n, 0);
    }
    ab_problem_free(&p);
}

/* ---- ab_read_file ---------------------------------------------------------- */

#define BIG ((uint64_t)1 << 30) /* a limit no test file reaches */

/* Writes len bytes to a new file in a fresh temporary folder; returns its
 * path (static buffer). */
static const char *write_bytes(const char *bytes, size_t len) {
    static char path[4096];
    char *dir = abt_tmpdir();
    snprintf(path, sizeof path, "%s/f.bin", dir);
    free(dir);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(bytes, 1, len, f), len);
    fclose(f);
    return path;
}

Test(read_file, reads_every_byte_and_ends_in_a_nul) {
    const char *path = write_bytes("a\0b\n", 4);
    char *buf;
    size_t len;
    cr_assert_eq(ab_read_file(path, BIG, NULL, &buf, &len, NULL), AB_OK);
    cr_assert_eq(len, 4);
    cr_assert_eq(memcmp(buf, "a\0b\n", 5), 0);
    ab_free(buf);
}

Test(read_file, gives_an_empty_string_for_an_empty_file) {
    const char *path = write_bytes("", 0);
    char *buf;
    size_t len = 7;
    cr_assert_eq(ab_read_file(path, BIG, NULL, &buf, &len, NULL), AB_OK);
    cr_assert_not_null(buf);
    cr_assert_eq(len, 0);
    cr_assert_str_eq(buf, "");
    ab_free(buf);
}

Test(read_file, reads_files_larger_than_one_chunk) {
    size_t n = 300000;
    char *big = malloc(n);
    cr_assert_not_null(big);
    for (size_t i = 0; i < n; i++) big[i] = (char)('a' + i % 26);
    const char *path = write_bytes(big, n);
    char *buf;
    size_t len;
    cr_assert_eq(ab_read_file(path, BIG, NULL, &buf, &len, NULL), AB_OK);
    cr_assert_eq(len, n);
    cr_assert_eq(memcmp(buf, big, n), 0);
    cr_assert_eq(buf[n], '\0');
    ab_free(buf);
    free(big);
}

Test(read_file, names_the_file_when_it_cannot_open_or_read) {
    ab_error err = {0};
    char *buf = (char *)"x";
    size_t len = 3;
    cr_assert_eq(ab_read_file("/nonexistent/dir/f.csv", BIG, NULL, &buf, &len, &err), AB_EINPUT);
    cr_assert_str_eq(err.msg, "/nonexistent/dir/f.csv: cannot open: No such file or directory");
    cr_assert_null(buf);
    cr_assert_eq(len, 0);
    char *dir = abt_tmpdir();
    char want[4200];
    snprintf(want, sizeof want, "%s: cannot read: Is a directory", dir);
    cr_assert_eq(ab_read_file(dir, BIG, NULL, &buf, &len, &err), AB_EINPUT);
    cr_assert_str_eq(err.msg, want);
    cr_assert_null(buf);
    free(dir);
}

/* The limit holds whatever the file is. A regular file over it is refused
 * from its size, before a byte is read; one of exactly the limit loads. */
Test(read_file, refuses_a_regular_file_over_the_limit_and_takes_one_at_it) {
    const char *path = write_bytes("0123456789", 10);
    char *buf = (char *)"x";
    size_t len = 3;
    ab_error err = {0};
    cr_assert_eq(ab_read_file(path, 9, "TEST_MAX", &buf, &len, &err), AB_EINPUT);
    char want[4200];
    snprintf(want, sizeof want, "%s: the file has 10 bytes, above the limit of 9 (TEST_MAX)", path);
    cr_assert_str_eq(err.msg, want);
    cr_assert_null(buf);
    cr_assert_eq(len, 0);
    cr_assert_eq(ab_read_file(path, 10, "TEST_MAX", &buf, &len, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(len, 10);
    ab_free(buf);
}

/* The tester's case: /dev/zero never ends; the reading stops one byte past
 * the limit (no name: no parenthesis). */
Test(read_file, stops_reading_dev_zero_one_byte_past_the_limit) {
    char *buf = (char *)"x";
    size_t len = 3;
    ab_error err = {0};
    cr_assert_eq(ab_read_file("/dev/zero", 100000, NULL, &buf, &len, &err), AB_EINPUT);
    cr_assert_str_eq(err.msg, "/dev/zero: the file has at least 100001 bytes, above the limit of "
                              "100000");
    cr_assert_null(buf);
    cr_assert_eq(len, 0);
}

/* A FIFO whose writer offers 16 MiB: the reader refuses it after 4097 bytes
 * and closes, so the writer is stopped (EPIPE) long before its end: what it
 * wrote is at most what the reader took plus the pipe's buffer. */
Test(read_file, stops_reading_a_fifo_one_byte_past_the_limit) {
    char *dir = abt_tmpdir();
    char path[4200];
    snprintf(path, sizeof path, "%s/fifo.yaml", dir);
    size_t total = (size_t)16 << 20;
    abt_writer w = abt_fifo_writer(path, "", total);
    char *buf = (char *)"x";
    size_t len = 3;
    ab_error err = {0};
    cr_assert_eq(ab_read_file(path, 4096, "TEST_MAX", &buf, &len, &err), AB_EINPUT);
    long written = abt_fifo_writer_end(w);
    char want[4300];
    snprintf(want, sizeof want,
             "%s: the file has at least 4097 bytes, above the limit of 4096 (TEST_MAX)", path);
    cr_assert_str_eq(err.msg, want);
    cr_assert_null(buf);
    cr_assert(written >= 4097 && written < (long)total, "the writer wrote %ld bytes", written);
    free(dir);
}

Test(read_file, fails_cleanly_at_every_allocation) {
    size_t n = 200000;
    char *big = calloc(n, 1);
    cr_assert_not_null(big);
    const char *path = write_bytes(big, n);
    char *buf;
    size_t len;
    ab_alloc_fail_at(0);
    cr_assert_eq(ab_read_file(path, BIG, NULL, &buf, &len, NULL), AB_OK);
    long calls = ab_alloc_fail_at(0);
    ab_free(buf);
    cr_assert_gt(calls, 1);
    for (long k = 1; k <= calls; k++) {
        ab_error err = {0};
        ab_alloc_fail_at(k);
        cr_assert_eq(ab_read_file(path, BIG, NULL, &buf, &len, &err), AB_ENOMEM, "allocation %ld", k);
        ab_alloc_fail_at(0);
        cr_assert_null(buf);
        cr_assert(strstr(err.msg, "f.bin: out of memory reading") != NULL, "%s", err.msg);
    }
    free(big);
}

/* ---- the CSV tokenizer ------------------------------------------------------- */

/* Tokenizes text (quotes on or off) into "line:field|field;line:..." */
static ab_status tokens(const char *text, bool quotes, char *out, size_t cap, ab_error *err) {
    size_t len = strlen(text);
    char *buf = malloc(len + 1);
    cr_assert_not_null(buf);
    memcpy(buf, text, len + 1);
    ab_csv c;
    ab_csv_init(&c, "t.csv", buf, len, quotes);
    out[0] = '\0';
    ab_status st;
    for (;;) {
        bool eof;
        st = ab_csv_next(&c, &eof, err);
        if (st != AB_OK || eof) break;
        size_t n = strlen(out);
        snprintf(out + n, cap - n, "%d:", c.line);
        for (size_t i = 0; i < c.nf; i++) {
            cr_assert_eq(strlen(c.f[i].s), c.f[i].len);
            n = strlen(out);
            snprintf(out + n, cap - n, "%s%s", i ? "|" : "", c.f[i].s);
        }
        n = strlen(out);
        snprintf(out + n, cap - n, ";");
    }
    ab_csv_free(&c);
    free(buf);
    return st;
}

static void tokenizes(const char *text, bool quotes, const char *want) {
    char out[512];
    ab_error err = {0};
    cr_assert_eq(tokens(text, quotes, out, sizeof out, &err), AB_OK, "%s", err.msg);
    cr_assert_str_eq(out, want, "tokenizing '%s'", text);
}

static void refuses(const char *text, const char *want) {
    char out[512];
    ab_error err = {0};
    cr_assert_eq(tokens(text, true, out, sizeof out, &err), AB_EINPUT, "%s", text);
    cr_assert_str_eq(err.msg, want);
}

Test(csv, splits_fields_trims_blanks_and_counts_lines) {
    tokenizes("a, b ,c\n1,2,3", false, "1:a|b|c;2:1|2|3;");
    tokenizes("\n  \t\nx,y\r\n\r\n z \rw,\n", false, "3:x|y;5:z;6:w|;");
    tokenizes("", false, "");
    tokenizes(" \n\t\n", false, "");
    tokenizes(",", false, "1:|;");
}

Test(csv, reads_quotes_as_data_with_quotes_off) {
    tokenizes("\"a,b\",c\"d\n", false, "1:\"a|b\"|c\"d;");
}

Test(csv, unquotes_rfc_4180_fields_with_quotes_on) {
    tokenizes("\"a,b\", \" c \" ,\"say \"\"hi\"\"\"\n", true, "1:a,b| c |say \"hi\";");
    tokenizes("\"two\nlines\",x\ny\n", true, "1:two\nlines|x;3:y;");
    tokenizes("\"\",\n", true, "1:|;");
}

Test(csv, skips_a_whole_byte_order_mark_only) {
    tokenizes("\xEF\xBB\xBFid,x\n", false, "1:id|x;");
    tokenizes("\xEF\xBB\xBF\nid\n", false, "2:id;");
    tokenizes("\xEF", false, "1:\xEF;");
    tokenizes("\xEF\xBB", false, "1:\xEF\xBB;");
    tokenizes("\xEF\xBB\n", true, "1:\xEF\xBB;");
}

Test(csv, names_line_and_column_of_malformed_quotes) {
    refuses("a,\"open\nstill\n", "t.csv:1: header: a quoted field is not closed (missing '\"')");
    refuses("a,b\"c\n", "t.csv:1: header: a '\"' inside an unquoted field (quote the whole field "
                        "and write the quote twice: \"\")");
    refuses("\n\"a\"x\n", "t.csv:2: header: unexpected 'x' after a closing quote (a quote inside "
                          "a quoted field is written twice: \"\")");
    /* with the header's names set, a field is named by its column */
    const char *text = "h1,h2\nx,\"y\n";
    char *buf = ab_strdup(text);
    ab_csv c;
    ab_csv_init(&c, "t.csv", buf, strlen(buf), true);
    bool eof;
    cr_assert_eq(ab_csv_next(&c, &eof, NULL), AB_OK);
    const char *names[] = {"tensor", "offset"};
    c.names = names;
    c.nnames = 2;
    ab_error err = {0};
    cr_assert_eq(ab_csv_next(&c, &eof, &err), AB_EINPUT);
    cr_assert_str_eq(err.msg, "t.csv:2: offset: a quoted field is not closed (missing '\"')");
    ab_csv_free(&c);
    ab_free(buf);
}

/* ---- ab_sort ------------------------------------------------------------------ */

typedef struct item {
    int64_t key;
    size_t idx;
    char pad[72]; /* larger than the sort's swap chunk */
} item;

/* By key (descending when *ctx), ties by index: a total order. */
static int item_cmp(const void *pa, const void *pb, const void *ctx) {
    const item *a = pa, *b = pb;
    bool desc = *(const bool *)ctx;
    if (a->key != b->key) return (a->key < b->key) == desc ? 1 : -1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

static bool qsort_desc;
static int item_qcmp(const void *a, const void *b) { return item_cmp(a, b, &qsort_desc); }

/* Fills v with n items in one of several patterns. */
static void fill(item *v, size_t n, int pattern, unsigned *seed) {
    for (size_t i = 0; i < n; i++) {
        int64_t k = pattern == 0 ? rand_r(seed) % 1000
                  : pattern == 1 ? (int64_t)i
                  : pattern == 2 ? (int64_t)(n - i)
                  : pattern == 3 ? 7
                  : pattern == 4 ? rand_r(seed) % 3
                  : (int64_t)(i < n / 2 ? i : n - i); /* organ pipe */
        v[i] = (item){.key = k, .idx = i};
        memset(v[i].pad, (int)(i & 0x7f), sizeof v[i].pad);
    }
}

Test(sort, agrees_with_qsort_under_a_total_order) {
    unsigned seed = 42;
    size_t sizes[] = {0, 1, 2, 3, 15, 16, 17, 100, 1000, 5000};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (int pattern = 0; pattern < 6; pattern++)
            for (int desc = 0; desc < 2; desc++) {
                size_t n = sizes[si];
                item *a = calloc(n ? n : 1, sizeof *a), *b = calloc(n ? n : 1, sizeof *b);
                cr_assert(a && b);
                fill(a, n, pattern, &seed);
                memcpy(b, a, n * sizeof *a);
                bool d = desc;
                ab_sort(a, n, sizeof *a, item_cmp, &d);
                qsort_desc = d;
                qsort(b, n, sizeof *b, item_qcmp);
                cr_assert_eq(memcmp(a, b, n * sizeof *a), 0, "n %zu, pattern %d, desc %d", n,
                             pattern, desc);
                free(a);
                free(b);
            }
}

/* ab_radix_sort against ab_sort by (key, at): keys narrow and wide (up to
 * 2^64 - 1, every pass), few distinct (ties keep their order: stable),
 * one constant digit, and n of 0 and 1. */
static int keyed_cmp(const void *pa, const void *pb, const void *ctx) {
    const ab_keyed *a = pa, *b = pb;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return (a->at > b->at) - (a->at < b->at);
}

Test(sort, radix_agrees_with_a_stable_comparison_sort) {
    unsigned seed = 7;
    size_t sizes[] = {0, 1, 2, 3, 100, 5000};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (int pattern = 0; pattern < 5; pattern++) {
            size_t n = sizes[si];
            ab_keyed *a = calloc(n + 1, sizeof *a), *b = calloc(n + 1, sizeof *b),
                     *tmp = calloc(n + 1, sizeof *tmp);
            cr_assert(a && b && tmp);
            for (size_t i = 0; i < n; i++) {
                uint64_t r = (uint64_t)rand_r(&seed) << 42 ^ (uint64_t)rand_r(&seed) << 21 ^
                             (uint64_t)rand_r(&seed);
                uint64_t k = pattern == 0 ? r % 1000
                           : pattern == 1 ? r
                           : pattern == 2 ? UINT64_MAX - r % 3
                           : pattern == 3 ? (r % 5) << 11 /* the lowest digit constant */
                           : n - i;
                a[i] = (ab_keyed){k, i};
            }
            memcpy(b, a, n * sizeof *a);
            ab_radix_sort(a, tmp, n);
            ab_sort(b, n, sizeof *b, keyed_cmp, NULL);
            for (size_t i = 0; i < n; i++)
                cr_assert(a[i].key == b[i].key && a[i].at == b[i].at, "n %zu pattern %d at %zu", n,
                          pattern, i);
            free(a);
            free(b);
            free(tmp);
        }
}

static int byte_cmp(const void *a, const void *b, const void *ctx) {
    return *(const unsigned char *)a - *(const unsigned char *)b;
}

Test(sort, sorts_elements_of_one_byte_and_accepts_null_when_empty) {
    char s[] = "the quick brown fox jumps over the lazy dog";
    ab_sort(s, strlen(s), 1, byte_cmp, NULL);
    cr_assert_str_eq(s, "        abcdeeefghhijklmnoooopqrrsttuuvwxyz");
    ab_sort(NULL, 0, 8, byte_cmp, NULL);
}

/* McIlroy's adversary ("A killer adversary for quicksort", 1999): values are
 * decided lazily so that a quicksort's pivots are as bad as possible. */
typedef struct adversary {
    size_t *val;
    size_t gas, nsolid, candidate;
    long ncmp;
} adversary;

static int adversary_cmp(const void *pa, const void *pb, const void *ctx) {
    adversary *v = (adversary *)ctx;
    size_t x = *(const size_t *)pa, y = *(const size_t *)pb;
    v->ncmp++;
    if (v->val[x] == v->gas && v->val[y] == v->gas) v->val[x == v->candidate ? x : y] = v->nsolid++;
    if (v->val[x] == v->gas) v->candidate = x;
    else if (v->val[y] == v->gas) v->candidate = y;
    return (v->val[x] > v->val[y]) - (v->val[x] < v->val[y]);
}

Test(sort, stays_n_log_n_against_a_quicksort_adversary) {
    size_t n = 5000;
    size_t *idx = malloc(n * sizeof *idx), *val = malloc(n * sizeof *val);
    cr_assert(idx && val);
    for (size_t i = 0; i < n; i++) idx[i] = i, val[i] = n;
    adversary v = {.val = val, .gas = n};
    ab_sort(idx, n, sizeof *idx, adversary_cmp, &v);
    for (size_t i = 1; i < n; i++) cr_assert_leq(val[idx[i - 1]], val[idx[i]]);
    cr_assert_lt(v.ncmp, 10L * 5000 * 13, "%ld comparisons", v.ncmp); /* 10 n log2 n */
    free(idx);
    free(val);
}

/* ---- FNV-1a and byte sizes ------------------------------------------------------ */

Test(fnv1a, matches_the_published_vectors_and_hashes_piecewise) {
    cr_assert_eq(ab_fnv1a(AB_FNV_OFFSET, "", 0), UINT64_C(0xcbf29ce484222325));
    cr_assert_eq(ab_fnv1a(AB_FNV_OFFSET, "a", 1), UINT64_C(0xaf63dc4c8601ec8c));
    cr_assert_eq(ab_fnv1a(AB_FNV_OFFSET, "foobar", 6), UINT64_C(0x85944171f73967e8));
    cr_assert_eq(ab_fnv1a(ab_fnv1a(AB_FNV_OFFSET, "foo", 3), "bar", 3),
                 UINT64_C(0x85944171f73967e8));
}

Test(parse_bytes, reads_binary_multiples) {
    struct { const char *s; int64_t want; } ok[] = {
        {"100", 100}, {"1", 1}, {"64K", 65536}, {"64k", 65536}, {"512M", (int64_t)512 << 20},
        {"4G", (int64_t)4 << 30}, {"2g", (int64_t)2 << 30}, {"1T", (int64_t)1 << 40},
        {"8388607T", (int64_t)8388607 << 40},
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        int64_t v = 0;
        cr_assert(ab_parse_bytes(ok[i].s, &v), "%s", ok[i].s);
        cr_assert_eq(v, ok[i].want, "%s", ok[i].s);
    }
}

Test(parse_bytes, refuses_anything_else_leaving_the_output_alone) {
    const char *bad[] = {"", "K", "0", "0M", "-5", "+5", "-1G", "1.5G", "12X", "G4", "4 G",
                         " 4G", "8388608T", "9223372036854775807K", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int64_t v = 123;
        cr_assert(!ab_parse_bytes(bad[i], &v), "'%s'", bad[i]);
        cr_assert_eq(v, 123, "'%s'", bad[i]);
    }
}

Test(core, gravity_unit_and_capacity) {
    ab_problem p;
    ab_problem_init(&p);
    cr_assert_eq(ab_problem_gravity_unit(&p), 1);
    ab_tensor a = {.name = "a", .size = 1024, .start = 0, .end = 1, .align = 16, .offset = AB_NONE};
    ab_tensor b = {.name = "b", .size = 3072, .start = 1, .end = 2, .align = 1, .offset = AB_NONE};
    cr_assert_eq(ab_problem_add(&p, &a, NULL), AB_OK);
    cr_assert_eq(ab_problem_add(&p, &b, NULL), AB_OK);
    cr_assert_eq(ab_problem_gravity_unit(&p), 1024, "an align that divides the gcd keeps it");
    ab_tensor c = {.name = "c", .size = 2048, .start = 0, .end = 0, .align = 1, .offset = 512};
    cr_assert_eq(ab_problem_add(&p, &c, NULL), AB_OK);
    cr_assert_eq(ab_problem_gravity_unit(&p), 512, "a fixed offset enters the gcd");
    ab_tensor d = {.name = "d", .size = 512, .start = 3, .end = 3, .align = 96, .offset = AB_NONE};
    cr_assert_eq(ab_problem_add(&p, &d, NULL), AB_OK);
    cr_assert_eq(ab_problem_gravity_unit(&p), 32, "96 neither divides 512 nor is a multiple: gcd 32");
    cr_assert_eq(ab_problem_capacity(&p), AB_NONE);
    p.capacity = 4096;
    cr_assert_eq(ab_problem_capacity(&p), 4096);
    ab_problem_free(&p);
}

#include <dirent.h>

/* The one file writer writes a temporary beside the file and renames it into
 * place: the file is whole, it replaces the old one, and no temporary is left. */
Test(core, writes_a_file_whole_through_a_temporary) {
    char *dir = abt_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    ab_buf b = {0};
    ab_buf_printf(&b, "first version, longer than the second\n");
    cr_assert_eq(ab_buf_write_file(&b, path, NULL), AB_OK);
    ab_buf_free(&b);
    ab_buf_printf(&b, "second\n");
    cr_assert_eq(ab_buf_write_file(&b, path, NULL), AB_OK);
    ab_buf_free(&b);
    char *text = abt_slurp(path, NULL);
    cr_assert_str_eq(text, "second\n");
    free(text);
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    int entries = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.') {
            entries++;
            cr_assert_str_eq(e->d_name, "out.txt");
        }
    closedir(d);
    cr_assert_eq(entries, 1, "a temporary was left beside the file");
    ab_error err;
    snprintf(path, sizeof path, "%s/no/such/out.txt", dir);
    ab_buf_printf(&b, "x");
    cr_assert_eq(ab_buf_write_file(&b, path, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "cannot open for writing") != NULL, "%s", err.msg);
    ab_buf_free(&b);
    free(dir);
}

static void vline_into(char *line, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ab_vline(line, cap, fmt, ap);
    va_end(ap);
}

Test(vline, formats_one_line_and_cuts_at_the_capacity) {
    char line[16];
    vline_into(line, sizeof line, "%s: %d", "a\nb\r\nc", 7);
    cr_assert_str_eq(line, "a b  c: 7");
    vline_into(line, sizeof line, "%s", "0123456789\n0123456789");
    cr_assert_str_eq(line, "0123456789 0123");
}

/* ---- fixed tensors that overlap (ab_problem_fixed_overlap) --------------------------- */

static uint64_t fx_rng;
static uint64_t fx_next(void) { /* splitmix64 */
    uint64_t z = (fx_rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static int64_t fx_pick(int64_t lo, int64_t hi) {
    return lo + (int64_t)(fx_next() % (uint64_t)(hi - lo + 1));
}

/* Whether fixed tensors i and j of p conflict and share a byte. */
static bool fx_pair_overlaps(const ab_problem *p, size_t i, size_t j) {
    const ab_tensor *x = &p->t[i], *y = &p->t[j];
    return x->offset != AB_NONE && y->offset != AB_NONE && ab_conflict(x, y) &&
           x->offset < y->offset + y->size && y->offset < x->offset + x->size;
}

/* The brute force: whether any pair overlaps. */
static bool fx_any_pair(const ab_problem *p) {
    for (size_t i = 0; i < p->n; i++)
        for (size_t j = i + 1; j < p->n; j++)
            if (fx_pair_overlaps(p, i, j)) return true;
    return false;
}

Test(fixed_overlap, finds_a_pair_exactly_when_the_pair_loop_does) {
    int cases = abt_cases(600, 6000), found = 0;
    for (int c = 0; c < cases; c++) {
        fx_rng = (uint64_t)c * 7919 + 1;
        ab_problem p;
        ab_problem_init(&p);
        size_t n = (size_t)fx_pick(0, 40);
        int64_t horizon = fx_pick(0, 30), space = fx_pick(1, 4000);
        uint64_t fixed_one_in = (uint64_t)fx_pick(1, 4);
        for (size_t i = 0; i < n; i++) {
            char name[16];
            snprintf(name, sizeof name, "t%zu", i);
            int64_t s = fx_pick(0, horizon), size = fx_pick(1, 300);
            ab_tensor t = T(name, size, s, s + fx_pick(0, 6));
            if (fx_next() % fixed_one_in == 0) t.offset = fx_pick(0, space);
            cr_assert_eq(ab_problem_add(&p, &t, NULL), AB_OK);
        }
        size_t a = 0, b = 0;
        cr_assert_eq(ab_problem_fixed_overlap(&p, &a, &b, NULL), AB_OK);
        bool want = fx_any_pair(&p);
        if (!want) {
            cr_assert_eq(a, AB_NO_TENSOR, "case %d: reports %zu and %zu", c, a, b);
            cr_assert_eq(b, AB_NO_TENSOR, "case %d", c);
        } else {
            found++;
            cr_assert(a < b && b < p.n, "case %d: a pair exists, got %zu and %zu", c, a, b);
            cr_assert(fx_pair_overlaps(&p, a, b), "case %d: %zu and %zu do not overlap", c, a, b);
        }
        ab_problem_free(&p);
    }
    cr_assert(found > cases / 5 && found < cases - cases / 5, "%d of %d with a pair", found, cases);
}

Test(fixed_overlap, ignores_free_tensors_touching_bytes_and_disjoint_times) {
    ab_tensor t[] = {T("a", 8, 0, 2, .offset = 0), T("free", 64, 0, 9), T("b", 8, 1, 4, .offset = 8),
                     T("c", 8, 3, 5, .offset = 4)};
    ab_problem p;
    ab_problem_init(&p);
    add_all(&p, t, 3); /* a and b touch in bytes; free has no offset */
    size_t a, b;
    cr_assert_eq(ab_problem_fixed_overlap(&p, &a, &b, NULL), AB_OK);
    cr_assert_eq(a, AB_NO_TENSOR);
    add_all(&p, &t[3], 1); /* c meets b in time and bytes, not a (a ends at 2) */
    cr_assert_eq(ab_problem_fixed_overlap(&p, &a, &b, NULL), AB_OK);
    cr_assert_eq(a, 2);
    cr_assert_eq(b, 3);
    ab_problem_free(&p);
}

/* Many fixed tensors all live at once, stacked: none overlap, then the last
 * one moved onto the middle of the stack meets one; offsets near
 * AB_MAX_SIZE do not overflow. */
Test(fixed_overlap, handles_a_long_stack_and_huge_offsets) {
    ab_problem p;
    ab_problem_init(&p);
    size_t n = 50000;
    for (size_t i = 0; i < n; i++) {
        ab_tensor t = T("s", 16, (int64_t)(i % 7), 100, .offset = (int64_t)(n - 1 - i) * 16);
        cr_assert_eq(ab_problem_add(&p, &t, NULL), AB_OK);
    }
    size_t a, b;
    cr_assert_eq(ab_problem_fixed_overlap(&p, &a, &b, NULL), AB_OK);
    cr_assert_eq(a, AB_NO_TENSOR);
    p.t[n - 1].offset = 16 * 1000 + 8; /* halfway into the tensors at 16000 and 16016 */
    cr_assert_eq(ab_problem_fixed_overlap(&p, &a, &b, NULL), AB_OK);
    cr_assert(fx_pair_overlaps(&p, a, b), "%zu and %zu", a, b);
    cr_assert_eq(b, n - 1);
    ab_problem_free(&p);
    ab_tensor big[] = {{.name = (char *)"x", .size = AB_MAX_SIZE, .start = 0, .end = 1, .align = 1,
                        .offset = AB_MAX_SIZE},
                       T("y", 1, 1, 2, .offset = AB_MAX_SIZE - 1)};
    ab_problem_init(&p);
    add_all(&p, big, 2);
    cr_assert_eq(ab_problem_fixed_overlap(&p, &a, &b, NULL), AB_OK);
    cr_assert_eq(a, AB_NO_TENSOR);
    p.t[1].size = 2;
    cr_assert_eq(ab_problem_fixed_overlap(&p, &a, &b, NULL), AB_OK);
    cr_assert_eq(a, 0);
    cr_assert_eq(b, 1);
    ab_problem_free(&p);
}

Test(fixed_overlap, reports_running_out_of_memory) {
    ab_tensor t[] = {T("a", 8, 0, 2, .offset = 0), T("b", 8, 1, 4, .offset = 4)};
    ab_problem p;
    ab_problem_init(&p);
    add_all(&p, t, 2);
    size_t a, b;
    ab_error err;
    ab_alloc_fail_at(1);
    cr_assert_eq(ab_problem_fixed_overlap(&p, &a, &b, &err), AB_ENOMEM);
    ab_alloc_fail_at(0);
    cr_assert(strstr(err.msg, "out of memory") != NULL, "%s", err.msg);
    cr_assert_eq(ab_problem_fixed_overlap(&p, &a, &b, &err), AB_OK);
    cr_assert_eq(a, 0);
    cr_assert_eq(b, 1);
    ab_problem_free(&p);
}
