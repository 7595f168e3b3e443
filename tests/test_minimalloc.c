/*
 * test_minimalloc.c — MiniMalloc CSV in and out: half-open intervals read as
 * inclusive ranges, the capacity from the file name, round trips, errors, the
 * plan format, and the benchmark files in ../shared/data/minimalloc (skipped
 * when absent) whose max-load bound must equal MiniMalloc's own convention.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "harness/formats/minimalloc.h"
#include "harness/formats/suite.h"
#include "oracle/bounds.h"
#include "tests/support.h"

#define HAS(s, sub) cr_assert(strstr((s), (sub)) != NULL, "expected '%s' in:\n%s", (sub), (s))

/* Writes text to DIR/name and returns the path (static buffer). */
static const char *write_named(const char *name, const char *text) {
    static char path[4096];
    char *dir = abt_tmpdir();
    snprintf(path, sizeof path, "%s/%s", dir, name);
    free(dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

Test(minimalloc, reads_half_open_intervals_as_inclusive_ranges) {
    const char *path = write_named("input.12.csv", "id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\n"
                                                   "b3,0,9,4\n");
    ab_problem p;
    ab_error err;
    cr_assert_eq(abf_minimalloc_load(path, &p, NULL, &err), AB_OK, "%s", err.msg);
    cr_assert_str_eq(p.name, "input");
    cr_assert_eq(p.capacity, 12);
    cr_assert_eq(p.n, 3);
    cr_assert_eq(p.t[0].start, 0);
    cr_assert_eq(p.t[0].end, 2, "[0, 3) is [0, 2] inclusive");
    cr_assert_eq(p.t[1].start, 3);
    cr_assert_eq(p.t[1].end, 8);
    cr_assert(!ab_conflict(&p.t[0], &p.t[1]), "b1 ends where b2 starts: no conflict");
    abo_bounds b;
    cr_assert_eq(abo_bounds_compute(&p, &b, NULL), AB_OK);
    cr_assert_eq(b.max_load, 8);
    ab_problem_free(&p);
}

Test(minimalloc, round_trips_with_alignment_and_any_column_order) {
    const char *path = write_named("x.csv", "size,id,upper,lower,alignment\n"
                                            "16,a,4,0,8\n4,b,2,1,1\n");
    ab_problem p, q;
    cr_assert_eq(abf_minimalloc_load(path, &p, NULL, NULL), AB_OK);
    cr_assert_eq(p.capacity, AB_NONE);
    cr_assert_eq(p.t[0].align, 8);
    ab_buf b = {0};
    cr_assert_eq(abf_minimalloc_render(&p, &b, NULL), AB_OK);
    cr_assert_str_eq(b.s, "id,lower,upper,size,alignment\na,0,4,16,8\nb,1,2,4,1\n");
    const char *again = write_named("x.csv", b.s);
    cr_assert_eq(abf_minimalloc_load(again, &q, NULL, NULL), AB_OK);
    cr_assert_eq(q.n, p.n);
    for (size_t i = 0; i < p.n; i++) {
        cr_assert_str_eq(q.t[i].name, p.t[i].name);
        cr_assert_eq(q.t[i].size, p.t[i].size);
        cr_assert_eq(q.t[i].start, p.t[i].start);
        cr_assert_eq(q.t[i].end, p.t[i].end);
        cr_assert_eq(q.t[i].align, p.t[i].align);
    }
    ab_buf_free(&b);
    ab_problem_free(&p);
    ab_problem_free(&q);
}

static void rejects(const char *text, const char *want) {
    const char *path = write_named("bad.csv", text);
    ab_problem p;
    ab_error err;
    cr_assert_eq(abf_minimalloc_load(path, &p, NULL, &err), AB_EINPUT, "%s", text);
    HAS(err.msg, want);
    cr_assert_eq(p.n, 0);
}

Test(minimalloc, rejects_bad_files_naming_line_and_column) {
    rejects("", "empty file");
    rejects("id,lower,upper\na,0,1\n", "missing column 'size'");
    rejects("id,lower,upper,size,color\n", "bad.csv:1:21: header: unknown column 'color'");
    rejects("id,lower,upper,size\na,3,3,4\n", "bad.csv:2:5: upper: 3 must be above lower 3");
    rejects("id,lower,upper,size\na,0,3,0\n", "bad.csv:2:7: size: expected an integer");
    rejects("id,lower,upper,size\na,0,3,x\n", "got 'x'");
    rejects("id,lower,upper,size\na,0,3\n", "bad.csv:2: expected 4 fields");
    rejects("id,lower,upper,size\na,0,3,4\na,1,2,4\n", "bad.csv:3: id: 'a' again (first on line 2)");
    rejects("id,lower,upper,size,alignment\na,0,3,4,3\n", "bad.csv:2:9: alignment: 3 is not a power of two");
    rejects("id,lower,upper,size\n", "no buffers");
}

/* A byte order mark is skipped only when all three of its bytes are there: a
 * file of just its first one or two bytes is an unknown column, not a read
 * past the end of the file (the reader used to check one byte and skip three). */
Test(minimalloc, rejects_a_one_or_two_byte_start_of_a_byte_order_mark) {
    /* not UTF-8: refused before the header is read, at line 1, column 1 */
    rejects("\xEF", "bad.csv:1:1: byte 0xEF is not UTF-8");
    rejects("\xEF\xBB", "bad.csv:1:1: byte 0xEF is not UTF-8");
    rejects("\xEF\xBB\n", "bad.csv:1:1: byte 0xEF is not UTF-8");
}

Test(minimalloc, skips_a_whole_byte_order_mark) {
    const char *path = write_named("bom.csv", "\xEF\xBB\xBFid,lower,upper,size\nb1,0,3,4\n");
    ab_problem p;
    ab_error err;
    cr_assert_eq(abf_minimalloc_load(path, &p, NULL, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(p.n, 1);
    cr_assert_str_eq(p.t[0].name, "b1");
    cr_assert_eq(p.t[0].line, 2);
    ab_problem_free(&p);
}

Test(minimalloc, reads_and_writes_plans_with_offsets) {
    const char *suite = write_named("s.csv", "id,lower,upper,size\na,0,3,4\nb,2,5,4\n");
    ab_problem p;
    cr_assert_eq(abf_minimalloc_load(suite, &p, NULL, NULL), AB_OK);
    char plan_path[4096];
    snprintf(plan_path, sizeof plan_path, "%s",
             write_named("p.csv", "id,lower,upper,size,offset\na,0,3,4,0\nb,2,5,4,4\nzz,0,1,1,0\n"));
    ab_plan pl;
    ab_error err;
    cr_assert_eq(abf_minimalloc_plan_read(plan_path, &p, &pl, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(pl.n, 3);
    cr_assert_eq(pl.v[1].tensor, 1);
    cr_assert_eq(pl.v[1].offset, 4);
    cr_assert_eq(pl.v[2].tensor, AB_NO_TENSOR, "unknown ids are kept for the checker");
    ab_plan_free(&pl);
    snprintf(plan_path, sizeof plan_path, "%s",
             write_named("p.csv", "id,lower,upper,size,offset\na,0,4,4,0\n"));
    cr_assert_eq(abf_minimalloc_plan_read(plan_path, &p, &pl, &err), AB_EINPUT);
    HAS(err.msg, "upper: 4 disagrees with the suite's 3 for 'a'");
    ab_problem_free(&p);
}

/* MiniMalloc's own convention: the peak of the sum of sizes over half-open
 * [lower, upper) intervals, computed here from the raw rows. */
static int64_t halfopen_peak(const char *path) {
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    char line[256];
    int64_t lo[4096], hi[4096], sz[4096];
    size_t n = 0;
    cr_assert_not_null(fgets(line, sizeof line, f));
    while (fgets(line, sizeof line, f) && n < 4096) {
        char id[64];
        long long a, b, s;
        if (sscanf(line, "%63[^,],%lld,%lld,%lld", id, &a, &b, &s) == 4)
            lo[n] = a, hi[n] = b, sz[n] = s, n++;
    }
    fclose(f);
    int64_t best = 0;
    for (size_t i = 0; i < n; i++) { /* the peak is at some interval's lower */
        int64_t sum = 0;
        for (size_t j = 0; j < n; j++)
            if (lo[j] <= lo[i] && lo[i] < hi[j]) sum += sz[j];
        if (sum > best) best = sum;
    }
    return best;
}

Test(minimalloc, benchmark_files_import_with_their_bounds) {
    const char *data = abt_shared_data();
    if (data == NULL) cr_skip("../shared/data is absent: the MiniMalloc benchmark files are not here");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/minimalloc", data);
    DIR *d = opendir(dir);
    if (d == NULL) cr_skip("%s is absent", dir);
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".csv") != 0) continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ab_problem p;
        ab_error err;
        cr_assert_eq(abf_minimalloc_load(path, &p, NULL, &err), AB_OK, "%s", err.msg);
        abo_bounds b;
        cr_assert_eq(abo_bounds_compute(&p, &b, NULL), AB_OK);
        cr_assert_eq(b.max_load, halfopen_peak(path), "%s", e->d_name);
        if (strstr(e->d_name, ".1048576.") != NULL) cr_assert_eq(p.capacity, 1048576);
        if (strstr(e->d_name, ".1048576.") != NULL) /* the challenging suite, per its README */
            cr_assert_eq(ab_problem_unit(&p) % 1024, 0, "%s: sizes are multiples of 1024", e->d_name);
        ab_problem_free(&p);
        files++;
    }
    closedir(d);
    cr_assert_geq(files, 7);
}

Test(minimalloc, cli_exports_and_validates_in_minimalloc_format) {
    char *dir = abt_tmpdir();
    char args[8192], *out, *err;
    snprintf(args, sizeof args, "export %s -o %s/s.csv",
             abt_src("suites/examples/touching_ranges.yaml"), dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    free(out), free(err);
    snprintf(args, sizeof args, "plan -p best-fit %s/s.csv -o %s/p.csv --format minimalloc", dir, dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "arena      512 B");
    free(out), free(err);
    snprintf(args, sizeof args, "validate %s %s/p.csv --format minimalloc",
             abt_src("suites/examples/touching_ranges.yaml"), dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "check      ok");
    free(out), free(err);
    free(dir);
}

Test(minimalloc, benchmark_files_round_trip_byte_for_byte) {
    const char *data = abt_shared_data();
    if (data == NULL) cr_skip("../shared/data is absent: the MiniMalloc benchmark files are not here");
    const char *names[] = {"A.1048576.csv", "F.1048576.csv", "input.12.csv"};
    char *dir = abt_tmpdir();
    for (int i = 0; i < 3; i++) {
        char src[8192], args[16384], *out, *err;
        snprintf(src, sizeof src, "%s/minimalloc/%s", data, names[i]);
        snprintf(args, sizeof args, "import %s -o %s/s.yaml", src, dir);
        cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
        free(out), free(err);
        snprintf(args, sizeof args, "export %s/s.yaml -o %s/back.csv", dir, dir);
        cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
        free(out), free(err);
        char *a = abt_slurp(src, NULL);
        snprintf(args, sizeof args, "%s/back.csv", dir);
        char *b = abt_slurp(args, NULL);
        cr_assert_not_null(a);
        cr_assert_not_null(b);
        /* the originals may end lines with CRLF: compare without CRs */
        char *w = a;
        for (char *r = a; *r; r++) if (*r != '\r') *w++ = *r;
        *w = '\0';
        cr_assert_str_eq(b, a, "%s", names[i]);
        free(a), free(b);
    }
    free(dir);
}

/* Fixed offsets and alignments survive YAML -> MiniMalloc CSV -> YAML: the
 * writer's `offset` column fixes the buffers it fills (it was ignored on
 * reading, so fixed tensors came back free). */
Test(minimalloc, fixed_offsets_and_alignments_round_trip_through_yaml) {
    static const char yaml[] = "suite: fx\n"
                               "tensors:\n"
                               "  - {name: a, size: 100, start: 0, end: 2, align: 64, offset: 128}\n"
                               "  - {name: b, size: 40, start: 1, end: 3}\n"
                               "  - {name: c, size: 60, start: 3, end: 4, align: 4, offset: 0}\n"
                               "  - {name: d, size: 8, start: 0, end: 0, align: 16}\n";
    ab_problem p, q, r;
    ab_error err = {0};
    cr_assert_eq(abf_suite_load_buffer("fx.yaml", yaml, sizeof yaml - 1, &p, &err), AB_OK, "%s",
                 err.msg);
    ab_buf csv = {0};
    cr_assert_eq(abf_minimalloc_render(&p, &csv, &err), AB_OK, "%s", err.msg);
    cr_assert_str_eq(csv.s, "id,lower,upper,size,alignment,offset\na,0,3,100,64,128\n"
                            "b,1,4,40,1,\nc,3,5,60,4,0\nd,0,1,8,16,\n");
    bool had = false;
    cr_assert_eq(abf_minimalloc_load_buffer("fx.csv", csv.s, csv.n, &q, &had, &err), AB_OK, "%s",
                 err.msg);
    cr_assert(had);
    cr_assert_eq(q.n, p.n);
    for (size_t i = 0; i < p.n; i++) {
        cr_assert_str_eq(q.t[i].name, p.t[i].name);
        cr_assert_eq(q.t[i].size, p.t[i].size, "%s", p.t[i].name);
        cr_assert_eq(q.t[i].start, p.t[i].start, "%s", p.t[i].name);
        cr_assert_eq(q.t[i].end, p.t[i].end, "%s", p.t[i].name);
        cr_assert_eq(q.t[i].align, p.t[i].align, "%s", p.t[i].name);
        cr_assert_eq(q.t[i].offset, p.t[i].offset, "%s: offset", p.t[i].name);
    }
    /* and the suite written from the CSV is the original's, tensor for tensor */
    ab_buf y1 = {0}, y2 = {0};
    cr_assert_eq(abf_suite_render(&p, &y1, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(abf_suite_render(&q, &y2, &err), AB_OK, "%s", err.msg);
    const char *t1 = strstr(y1.s, "tensors:"), *t2 = strstr(y2.s, "tensors:");
    cr_assert(t1 != NULL && t2 != NULL);
    cr_assert_str_eq(t2, t1);
    cr_assert_eq(abf_suite_load_buffer("again.yaml", y2.s, y2.n, &r, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(r.t[0].offset, 128);
    cr_assert_eq(r.t[1].offset, AB_NONE);
    ab_problem_free(&r);
    ab_buf_free(&y1);
    ab_buf_free(&y2);
    ab_buf_free(&csv);
    ab_problem_free(&q);
    ab_problem_free(&p);
}

/* An offset is checked as YAML checks it, naming file, line and column. */
Test(minimalloc, fixed_offsets_are_validated_like_yaml) {
    static const struct {
        const char *csv, *want;
    } bad[] = {
        {"id,lower,upper,size,alignment,offset\na,0,3,8,16,8\n",
         "m.csv:2:12: offset: must be a multiple of alignment (16), got '8'"},
        {"id,lower,upper,size,offset\na,0,3,8,-1\n",
         "m.csv:2:9: offset: expected an integer in [0, 4611686018427387904], got '-1'"},
        {"id,lower,upper,size,offset\na,0,3,8,x\n", "m.csv:2:9: offset: expected an integer"},
        {"id,lower,upper,size,offset\na,0,3,8,4611686018427387900\n",
         "m.csv:2:9: offset: offset + size must be at most 2^62, got 4611686018427387900 + 8"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ab_problem p;
        ab_error err = {0};
        cr_assert_eq(abf_minimalloc_load_buffer("m.csv", bad[i].csv, strlen(bad[i].csv), &p, NULL,
                                                &err),
                     AB_EINPUT, "accepted: %s", bad[i].csv);
        cr_assert(strstr(err.msg, bad[i].want) != NULL, "%s\nwant %s", err.msg, bad[i].want);
    }
    /* the YAML loader refuses the misaligned one the same way */
    static const char yaml[] =
        "suite: m\ntensors:\n  - {name: a, size: 8, start: 0, end: 2, align: 16, offset: 8}\n";
    ab_problem p;
    ab_error err = {0};
    cr_assert_eq(abf_suite_load_buffer("m.yaml", yaml, sizeof yaml - 1, &p, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "must be a multiple of align (16), got '8'") != NULL, "%s", err.msg);
}
