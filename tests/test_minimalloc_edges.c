/*
 * test_minimalloc_edges.c — the MiniMalloc CSV reader (harness/formats/minimalloc.c)
 * on the edges of its input: every prefix of the UTF-8 byte order mark (issue 15,
 * finding 1: the mark's check once looked at one byte and skipped three, reading
 * past a one-byte file), files ending mid-field or without a final line end, and
 * the largest live range (a fuzz_minimalloc finding: an inclusive `end` of 2^62
 * was read, then written back as `upper` 2^62 + 1, which no reader takes).
 * Under ASan (scripts/test.sh) any read past the file's buffer aborts.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/problem.h"
#include "harness/formats/minimalloc.h"
#include "tests/support.h"

/* Writes len bytes to a fresh temporary file; returns its path (owned). */
static char *write_bytes(const char *bytes, size_t len) {
    char *dir = abt_tmpdir();
    char *path = malloc(strlen(dir) + 16);
    sprintf(path, "%s/b.csv", dir);
    free(dir);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(bytes, 1, len, f), len);
    cr_assert_eq(fclose(f), 0);
    return path;
}

typedef struct edge {
    const char *bytes;
    size_t len;
    bool ok;         /* loads as a problem */
    const char *msg; /* a failure's message holds this (after the path), or NULL */
} edge;

#define E(s, ok) {s, sizeof s - 1, ok, NULL}
/* A partial mark is not skipped (skipping three bytes of a one-byte file was
 * the bug): it is bytes that are not UTF-8, refused at line 1, column 1,
 * before any tokenizing. (col: the bytes, kept to show what each case is.) */
#define P(s, col) {s, sizeof s - 1, false, ":1:1: byte 0xEF is not UTF-8"}

static const edge edges[] = {
    E("", false),
    P("\xef", "\xef"),
    P("\xef\xbb", "\xef\xbb"),
    P("\xef\xbb\n", "\xef\xbb"),
    E("\xef\xbb\xbf", false),
    E("\xef\xbb\xbf\n", false),
    E("\xef\xbb\xbfi", false),
    P("\xef\xbbid,lower,upper,size\nb,0,3,4\n", "\xef\xbbid"),
    P("\xefid,lower,upper,size\nb,0,3,4\n", "\xefid"),
    E("\xef\xbb\xbfid,lower,upper,size\nb,0,3,4\n", true),
    E("\xef\xbb\xbfid,lower,upper,size\nb,0,3,4", true),
    E("\xef\xbb\xbfid,lower,upper,size", false),
    E("id", false),
    E("id,lo", false),
    E("id,lower,upper,size\n", false),
    E("id,lower,upper,size\nb", false),
    E("id,lower,upper,size\nb,0,3", false),
    E("id,lower,upper,size\nb,0,3,", false),
    E("id,lower,upper,size\nb,0,3,4", true),
    E("id,lower,upper,size\rb,0,3,4\r", true),
    E("id,lower,upper,size\r\nb,0,3,4\r", true),
    E("id,lower,upper,size\nb,0,3,4\n,", false),
    E("id,lower,upper,size\nb,0,3,4\n \t", true),
    E("id,lower,upper,size\nb,0,3,4\n\"", false),
    E("\n\n\n", false),
    E(",", false),
};

Test(minimalloc_edges, bom_prefixes_and_truncations_load_or_fail_cleanly) {
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        char *path = write_bytes(edges[i].bytes, edges[i].len);
        ab_problem p;
        ab_error err = {0};
        ab_status st = abf_minimalloc_load(path, &p, NULL, &err);
        cr_assert_eq(st, edges[i].ok ? AB_OK : AB_EINPUT, "case %zu: status %d: %s", i, (int)st,
                     err.msg);
        if (st == AB_OK) {
            cr_assert_eq(p.n, 1, "case %zu", i);
            cr_assert_str_eq(p.t[0].name, "b");
            cr_assert(p.t[0].start == 0 && p.t[0].end == 2 && p.t[0].size == 4, "case %zu", i);
            ab_problem_free(&p);
        } else {
            cr_assert(strstr(err.msg, path) != NULL, "case %zu: the message names no file: %s", i,
                      err.msg);
            if (edges[i].msg != NULL)
                cr_assert(strstr(err.msg, edges[i].msg) != NULL, "case %zu: '%s' lacks '%s'", i,
                          err.msg, edges[i].msg);
        }
        /* the same bytes as a MiniMalloc plan (it needs an offset column: never OK) */
        ab_problem fixed;
        static const char fx[] = "id,lower,upper,size\nb,0,3,4\n";
        cr_assert_eq(abf_minimalloc_load_buffer("fixed.csv", fx, sizeof fx - 1, &fixed, NULL,
                                                &err), AB_OK, "%s", err.msg);
        ab_plan pl;
        st = abf_minimalloc_plan_read(path, &fixed, &pl, &err);
        cr_assert_eq(st, AB_EINPUT, "case %zu: plan status %d", i, (int)st);
        ab_problem_free(&fixed);
        free(path);
    }
}

/* The reproducer of finding 1, through the command: exit 2 naming the file,
 * never a read past the buffer. */
Test(minimalloc_edges, bound_on_one_bom_byte_exits_2) {
    static const char *const prefixes[] = {"\xef", "\xef\xbb", "\xef\xbb\xbf"};
    for (size_t i = 0; i < 3; i++) {
        char *path = write_bytes(prefixes[i], i + 1);
        char *err = NULL;
        int rc = abt_run_expect(2, &err, "bound '%s'", path);
        cr_assert_eq(rc, 2, "%s", err ? err : "");
        free(err);
        free(path);
    }
    static const char good[] = "\xef\xbb\xbfid,lower,upper,size\nb,0,3,4";
    char *path = write_bytes(good, sizeof good - 1);
    abt_run_ok(0, "bound '%s'", path);
    free(path);
}

/* An inclusive `end` is at most 2^62 - 1, so that upper = end + 1 fits the
 * half-open form the writer uses; the largest range round-trips. */
Test(minimalloc_edges, largest_inclusive_end_round_trips) {
    static const char too_big[] = "buffer,start,end,size\nx,0,2,8\ny,142,4611686018427387904,6\n";
    ab_problem p;
    ab_error err = {0};
    ab_status st = abf_minimalloc_load_buffer("big.csv", too_big, sizeof too_big - 1, &p, NULL,
                                              &err);
    cr_assert_eq(st, AB_EINPUT, "an end of 2^62 was accepted");
    cr_assert(strstr(err.msg, "big.csv:3:7: end: expected an integer in [0, 4611686018427387903]") !=
                  NULL, "%s", err.msg);
    static const char largest[] = "buffer,start,end,size\ny,142,4611686018427387903,6\n";
    cr_assert_eq(abf_minimalloc_load_buffer("big.csv", largest, sizeof largest - 1, &p, NULL, &err),
                 AB_OK, "%s", err.msg);
    ab_buf b = {0};
    cr_assert_eq(abf_minimalloc_render(&p, &b, &err), AB_OK, "%s", err.msg);
    ab_problem q;
    cr_assert_eq(abf_minimalloc_load_buffer("big.csv", b.s, b.n, &q, NULL, &err), AB_OK,
                 "the render does not load again: %s\n%.*s", err.msg, (int)b.n, b.s);
    cr_assert(q.n == 1 && q.t[0].end == p.t[0].end && q.t[0].start == 142);
    ab_problem_free(&q);
    ab_problem_free(&p);
    ab_buf_free(&b);
    /* and through the command */
    char *path = write_bytes(too_big, sizeof too_big - 1);
    abt_run_ok(2, "bound '%s'", path);
    free(path);
}

/* The sizes, each rounded up to its alignment, add up to at most 2^62, as in
 * YAML: three of 2^61 were accepted (an arena of 6442450944 GiB that exports
 * as a suite that does not load); the message names file, line and column. */
Test(minimalloc_edges, sizes_adding_up_past_2_62_are_refused_at_the_line) {
    static const char three[] = "id,lower,upper,size\na,0,1,2305843009213693952\n"
                                "b,0,1,2305843009213693952\n  c,0,1, 2305843009213693952\n";
    ab_problem p;
    ab_error err = {0};
    cr_assert_eq(abf_minimalloc_load_buffer("s.csv", three, sizeof three - 1, &p, NULL, &err),
                 AB_EINPUT, "three sizes of 2^61 were accepted");
    cr_assert(strstr(err.msg, "s.csv:4:10: size: the buffers' sizes, each rounded up to its "
                              "alignment, add up to more than 2^62 bytes here") != NULL,
              "%s", err.msg);
    /* three of 2^62 (each alone within the limit) stop at the second */
    static const char huge[] = "id,lower,upper,size\na,0,1,4611686018427387904\n"
                               "b,0,1,4611686018427387904\nc,0,1,4611686018427387904\n";
    cr_assert_eq(abf_minimalloc_load_buffer("h.csv", huge, sizeof huge - 1, &p, NULL, &err),
                 AB_EINPUT);
    cr_assert(strstr(err.msg, "h.csv:3:7: size: ") != NULL, "%s", err.msg);
    /* rounding up to the alignment counts: 2^62 - 1 and 1, aligned to 2 */
    static const char aligned[] = "id,lower,upper,size,alignment\n"
                                  "a,0,1,4611686018427387903,2\nb,0,1,1,1\n";
    cr_assert_eq(abf_minimalloc_load_buffer("a.csv", aligned, sizeof aligned - 1, &p, NULL, &err),
                 AB_EINPUT);
    cr_assert(strstr(err.msg, "a.csv:3:7: size: ") != NULL, "%s", err.msg);
    /* exactly 2^62 loads, and exports as a suite that loads */
    static const char exact[] = "id,lower,upper,size\na,0,1,2305843009213693952\n"
                                "b,0,1,2305843009213693952\n";
    cr_assert_eq(abf_minimalloc_load_buffer("e.csv", exact, sizeof exact - 1, &p, NULL, &err),
                 AB_OK, "%s", err.msg);
    ab_problem_free(&p);
    char *path = write_bytes(three, sizeof three - 1);
    char cmd[4200], *out = NULL, *errs = NULL;
    snprintf(cmd, sizeof cmd, "bound '%s'", path);
    cr_assert_eq(abt_run(cmd, &out, &errs), 2, "%s%s", out, errs); /* bad input */
    cr_assert(strstr(errs, ":4:10: size: the buffers' sizes") != NULL, "%s", errs);
    free(out);
    free(errs);
    free(path);
}
