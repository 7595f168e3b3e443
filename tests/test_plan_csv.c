/*
 * test_plan_csv.c — plan files (harness/formats/plan_csv.c): reading, quoting, every
 * error the reader gives, writing and the round trip, and failing each
 * allocation of a read in turn.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/problem.h"
#include "harness/formats/plan_csv.h"
#include "tests/support.h"

/* The suite every test reads against (an arena view: all intermediates). */
static void make_problem(ab_problem *p) {
    ab_problem_init(p);
    const ab_tensor ts[] = {
        {.name = "conv1", .size = 128, .start = 0, .end = 2, .align = 1, .offset = AB_NONE},
        {.name = "fire2,sq", .size = 64, .start = 2, .end = 4, .align = 1, .offset = AB_NONE},
        {.name = "say \"hi\"", .size = 32, .start = 1, .end = 3, .align = 1, .offset = AB_NONE},
        {.name = " padded ", .size = 16, .start = 4, .end = 5, .align = 1, .offset = AB_NONE},
        {.name = "pool", .size = 8, .start = 5, .end = 6, .align = 1, .offset = AB_NONE},
    };
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++)
        cr_assert_eq(ab_problem_add(p, &ts[i], NULL), AB_OK);
}

/* Writes content (len bytes, NULs allowed) to a fresh temporary file; the path
 * is copied into path. */
static void tmp_bytes(const char *content, size_t len, char path[4096]) {
    char *dir = abt_tmpdir();
    snprintf(path, 4096, "%s/p.csv", dir);
    free(dir);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(content, 1, len, f), len);
    fclose(f);
}

static void tmp_text(const char *content, char path[4096]) {
    tmp_bytes(content, strlen(content), path);
}

/* Reads content as a plan; asserts success. */
static void read_ok(const char *content, const ab_problem *p, ab_plan *pl) {
    char path[4096];
    tmp_text(content, path);
    ab_error err = {0};
    ab_status st = abf_plan_read(path, p, pl, &err);
    cr_assert_eq(st, AB_OK, "read failed: %s", err.msg);
}

/* Reads content as a plan; asserts AB_EINPUT and that the message, after the
 * "PATH:" prefix, is exactly want. */
static void read_fails(const char *content, const char *want) {
    ab_problem p;
    make_problem(&p);
    char path[4096];
    tmp_text(content, path);
    ab_plan pl;
    ab_error err = {0};
    ab_status st = abf_plan_read(path, &p, &pl, &err);
    cr_assert_eq(st, AB_EINPUT, "status %d for %s", (int)st, content);
    cr_assert_eq(pl.n, 0);
    size_t n = strlen(path);
    cr_assert(strncmp(err.msg, path, n) == 0 && err.msg[n] == ':', "no path prefix: %s", err.msg);
    cr_assert_str_eq(err.msg + n + 1, want);
    ab_problem_free(&p);
}

static void assert_entry(const ab_plan *pl, size_t i, size_t tensor, int64_t offset, int line) {
    cr_assert_lt(i, pl->n);
    cr_assert_eq(pl->v[i].tensor, tensor, "entry %zu: tensor %zu", i, pl->v[i].tensor);
    cr_assert_eq(pl->v[i].offset, offset, "entry %zu: offset %lld", i, (long long)pl->v[i].offset);
    cr_assert_eq(pl->v[i].line, line, "entry %zu: line %d", i, pl->v[i].line);
}

/* ---- reading --------------------------------------------------------------- */

Test(plan_csv, reads_tensor_and_offset) {
    ab_problem p;
    make_problem(&p);
    ab_plan pl;
    read_ok("tensor,offset\nconv1,0\npool,128\n", &p, &pl);
    cr_assert_eq(pl.n, 2);
    assert_entry(&pl, 0, 0, 0, 2);
    assert_entry(&pl, 1, 4, 128, 3);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(plan_csv, reads_columns_in_any_order) {
    ab_problem p;
    make_problem(&p);
    ab_plan pl;
    read_ok("end,offset,size,tensor,start\n2,256,128,conv1,0\n6,0,8,pool,5\n", &p, &pl);
    cr_assert_eq(pl.n, 2);
    assert_entry(&pl, 0, 0, 256, 2);
    assert_entry(&pl, 1, 4, 0, 3);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(plan_csv, reads_crlf_without_a_trailing_line_end) {
    ab_problem p;
    make_problem(&p);
    ab_plan pl;
    read_ok("tensor,offset\r\nconv1,0\r\npool,128", &p, &pl);
    cr_assert_eq(pl.n, 2);
    assert_entry(&pl, 0, 0, 0, 2);
    assert_entry(&pl, 1, 4, 128, 3);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(plan_csv, reads_lone_cr_line_ends) {
    ab_problem p;
    make_problem(&p);
    ab_plan pl;
    read_ok("tensor,offset\rconv1,0\rpool,128\r", &p, &pl);
    cr_assert_eq(pl.n, 2);
    assert_entry(&pl, 1, 4, 128, 3);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(plan_csv, ignores_blank_lines_and_counts_them) {
    ab_problem p;
    make_problem(&p);
    ab_plan pl;
    read_ok("\n  \ntensor,offset\n\nconv1,0\n \t \r\n\npool,128\n\n\n", &p, &pl);
    cr_assert_eq(pl.n, 2);
    assert_entry(&pl, 0, 0, 0, 5);
    assert_entry(&pl, 1, 4, 128, 8);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(plan_csv, skips_a_utf8_bom) {
    ab_problem p;
    make_problem(&p);
    ab_plan pl;
    read_ok("\xEF\xBB\xBFtensor,offset\nconv1,64\n", &p, &pl);
    cr_assert_eq(pl.n, 1);
    assert_entry(&pl, 0, 0, 64, 2);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(plan_csv, accepts_header_in_any_case_and_spaces_around_fields) {
    ab_problem p;
    make_problem(&p);
    ab_plan pl;
    read_ok("Tensor , OFFSET\n  conv1 ,\t32 \n", &p, &pl);
    cr_assert_eq(pl.n, 1);
    assert_entry(&pl, 0, 0, 32, 2);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(plan_csv, reads_quoted_names_with_commas_and_quotes) {
    ab_problem p;
    make_problem(&p);
    ab_plan pl;
    read_ok("\"tensor\",\"offset\"\n"
            "\"fire2,sq\",128\n"
            "\"say \"\"hi\"\"\", 192 \n"
            " \" padded \" ,0\n"
            "\"conv1\",\"0\"\n",
            &p, &pl);
    cr_assert_eq(pl.n, 4);
    assert_entry(&pl, 0, 1, 128, 2);
    assert_entry(&pl, 1, 2, 192, 3);
    assert_entry(&pl, 2, 3, 0, 4);
    assert_entry(&pl, 3, 0, 0, 5);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(plan_csv, reads_a_quoted_line_end_and_keeps_counting_lines) {
    ab_problem p;
    make_problem(&p);
    ab_plan pl;
    read_ok("tensor,offset\n\"two\r\nlines\",0\npool,8\n", &p, &pl);
    cr_assert_eq(pl.n, 2);
    assert_entry(&pl, 0, AB_NO_TENSOR, 0, 2);
    cr_assert_str_eq(pl.v[0].name, "two\r\nlines");
    assert_entry(&pl, 1, 4, 8, 4);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(plan_csv, keeps_unknown_names_for_the_checker) {
    ab_problem p;
    make_problem(&p);
    ab_plan pl;
    read_ok("tensor,offset,size,start,end\nghost,64,999,7,9\nconv1,0,128,0,2\n", &p, &pl);
    cr_assert_eq(pl.n, 2);
    assert_entry(&pl, 0, AB_NO_TENSOR, 64, 2);
    cr_assert_str_eq(pl.v[0].name, "ghost");
    assert_entry(&pl, 1, 0, 0, 3);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(plan_csv, keeps_duplicates_for_the_checker) {
    ab_problem p;
    make_problem(&p);
    ab_plan pl;
    read_ok("tensor,offset\nconv1,0\nconv1,128\n", &p, &pl);
    cr_assert_eq(pl.n, 2);
    assert_entry(&pl, 0, 0, 0, 2);
    assert_entry(&pl, 1, 0, 128, 3);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(plan_csv, accepts_a_header_with_no_rows) {
    ab_problem p;
    make_problem(&p);
    ab_plan pl;
    read_ok("tensor,offset\n", &p, &pl);
    cr_assert_eq(pl.n, 0);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(plan_csv, accepts_empty_optional_fields) {
    ab_problem p;
    make_problem(&p);
    ab_plan pl;
    read_ok("tensor,offset,size,start,end\nconv1,0,,,\npool,128,8,,6\n", &p, &pl);
    cr_assert_eq(pl.n, 2);
    assert_entry(&pl, 1, 4, 128, 3);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(plan_csv, reads_standard_input_for_dash) {
    ab_problem p;
    make_problem(&p);
    char path[4096];
    tmp_text("tensor,offset\npool,16\n", path);
    cr_assert_not_null(freopen(path, "rb", stdin));
    ab_plan pl;
    ab_error err = {0};
    cr_assert_eq(abf_plan_read("-", &p, &pl, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(pl.n, 1);
    assert_entry(&pl, 0, 4, 16, 2);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

/* ---- errors ---------------------------------------------------------------- */

Test(plan_csv, rejects_an_offset_that_is_not_an_integer) {
    read_fails("tensor,offset\nconv1,0\n\npool,0\n\nconv1,1\nfire2,12x\n",
               "7:7: offset: expected a non-negative integer, got '12x'");
}

Test(plan_csv, rejects_a_negative_offset) {
    read_fails("tensor,offset\nconv1,-4\n", "2:7: offset: expected a non-negative integer, got '-4'");
}

Test(plan_csv, rejects_an_empty_offset) {
    read_fails("tensor,offset\nconv1,\n", "2:7: offset: expected a non-negative integer, got ''");
}

Test(plan_csv, rejects_an_offset_too_large) {
    read_fails("tensor,offset\nconv1,4611686018427387905\n",
               "2:7: offset: 4611686018427387905 is above the largest accepted, "
               "4611686018427387904");
    read_fails("tensor,offset\nconv1,99999999999999999999\n",
               "2:7: offset: expected a non-negative integer, got '99999999999999999999'");
}

Test(plan_csv, rejects_a_header_without_offset) {
    read_fails("tensor,size\nconv1,128\n", "1: header: missing column 'offset'");
}

Test(plan_csv, rejects_a_header_without_tensor) {
    read_fails("\n\noffset\n0\n", "3: header: missing column 'tensor'");
}

Test(plan_csv, rejects_an_unknown_column) {
    read_fails("tensor,offset,color\nconv1,0,red\n",
               "1:15: header: unknown column 'color' (a plan file starts with a header of tensor, "
               "offset and optionally size, start, end)");
}

Test(plan_csv, rejects_a_file_without_a_header) {
    read_fails("conv1,0\n",
               "1:1: header: unknown column 'conv1' (a plan file starts with a header of tensor, "
               "offset and optionally size, start, end)");
}

Test(plan_csv, rejects_a_column_given_twice) {
    read_fails("tensor,offset,Offset\nconv1,0,0\n", "1:15: header: column 'offset' appears twice");
}

Test(plan_csv, rejects_a_column_without_a_name) {
    read_fails("tensor,,offset\nconv1,0,0\n", "1:8: header: column 2 has no name");
}

Test(plan_csv, rejects_a_size_that_disagrees_with_the_suite) {
    read_fails("tensor,offset,size\npool,0,8\n\nconv1,0,64\n",
               "4:9: size: 64 disagrees with the suite's size 128 for 'conv1'");
}

Test(plan_csv, rejects_a_start_that_disagrees_with_the_suite) {
    read_fails("tensor,offset,start,end\nconv1,0,1,2\n",
               "2:9: start: 1 disagrees with the suite's start 0 for 'conv1'");
}

Test(plan_csv, rejects_an_end_that_disagrees_with_the_suite) {
    read_fails("tensor,offset,start,end\n\"fire2,sq\",0,2,3\n",
               "2:16: end: 3 disagrees with the suite's end 4 for 'fire2,sq'");
}

Test(plan_csv, rejects_a_size_that_is_not_positive) {
    read_fails("tensor,offset,size\nconv1,0,0\n", "2:9: size: expected a positive integer, got '0'");
    read_fails("tensor,offset,size\nghost,0,x\n", "2:9: size: expected a positive integer, got 'x'");
}

Test(plan_csv, rejects_a_bad_start) {
    read_fails("tensor,offset,start\nconv1,0,-1\n",
               "2:9: start: expected a non-negative integer, got '-1'");
}

Test(plan_csv, rejects_a_row_with_too_few_fields) {
    read_fails("tensor,offset,size\nconv1,0,128\npool,0\n",
               "3: size: missing: the row has 2 fields, the header 3 columns");
    read_fails("offset,tensor\n0\n",
               "2: tensor: missing: the row has 1 field, the header 2 columns");
}

Test(plan_csv, rejects_a_row_with_too_many_fields) {
    read_fails("tensor,offset\nconv1,0,\n",
               "2: field 3: one too many: the row has 3 fields, the header 2 columns");
}

Test(plan_csv, rejects_an_empty_name) {
    read_fails("tensor,offset\n\"\",0\n", "2:1: tensor: empty name");
}

Test(plan_csv, rejects_an_empty_file) {
    read_fails("", "1: header: the file is empty; expected a header such as 'tensor,offset'");
    read_fails("\xEF\xBB\xBF", "1: header: the file is empty; expected a header such as "
                               "'tensor,offset'");
    read_fails("\n \r\n\n", "4: header: the file is empty; expected a header such as "
                            "'tensor,offset'");
}

Test(plan_csv, rejects_an_unclosed_quote) {
    read_fails("tensor,offset\nconv1,0\n\"pool,8\npool,16\n",
               "3: tensor: a quoted field is not closed (missing '\"')");
}

Test(plan_csv, rejects_a_quote_inside_an_unquoted_field) {
    read_fails("tensor,offset\nsay \"hi\",0\n",
               "2: tensor: a '\"' inside an unquoted field (quote the whole field and write the "
               "quote twice: \"\")");
}

Test(plan_csv, rejects_text_after_a_closing_quote) {
    read_fails("tensor,offset\n\"say \"hi\"\",0\n",
               "2: tensor: unexpected 'h' after a closing quote (a quote inside a quoted field "
               "is written twice: \"\")");
}

Test(plan_csv, rejects_a_nul_byte) {
    ab_problem p;
    make_problem(&p);
    char path[4096];
    tmp_bytes("tensor,offset\nconv1,0\npo\0l,8\n", 30, path);
    ab_plan pl;
    ab_error err = {0};
    cr_assert_eq(abf_plan_read(path, &p, &pl, &err), AB_EINPUT);
    char want[4200];
    snprintf(want, sizeof want, "%s:3: a NUL byte: a plan file is text", path);
    cr_assert_str_eq(err.msg, want);
    ab_problem_free(&p);
}

Test(plan_csv, rejects_a_missing_file) {
    ab_problem p;
    make_problem(&p);
    char *dir = abt_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/absent.csv", dir);
    ab_plan pl;
    ab_error err = {0};
    cr_assert_eq(abf_plan_read(path, &p, &pl, &err), AB_EINPUT);
    char want[4200];
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
    cr_assert_str_eq(err.msg, want);
    cr_assert_eq(pl.n, 0);
    /* a folder opens but does not read */
    cr_assert_eq(abf_plan_read(dir, &p, &pl, &err), AB_EINPUT);
    snprintf(want, sizeof want, "%s: cannot read: Is a directory", dir);
    cr_assert_str_eq(err.msg, want);
    free(dir);
    ab_problem_free(&p);
}

Test(plan_csv, shortens_long_values_in_messages) {
    char content[400];
    snprintf(content, sizeof content, "tensor,offset\nconv1,%0100d\x01\n", 7);
    char want[200];
    snprintf(want, sizeof want, "2:7: offset: expected a non-negative integer, got '%060d...'", 0);
    read_fails(content, want);
}

/* ---- writing --------------------------------------------------------------- */

/* Every tensor of make_problem() in order, then an unknown name. */
static void make_plan(ab_plan *pl) {
    ab_plan_init(pl);
    const int64_t offsets[] = {0, 128, 192, 0, 16};
    for (size_t i = 0; i < 5; i++)
        cr_assert_eq(ab_plan_add(pl, i, offsets[i], NULL, 0, NULL), AB_OK);
    cr_assert_eq(ab_plan_add(pl, AB_NO_TENSOR, 8, "ghost, \"the\" one", 0, NULL), AB_OK);
}

static const char *const written =
    "tensor,offset,size,start,end\n"
    "conv1,0,128,0,2\n"
    "\"fire2,sq\",128,64,2,4\n"
    "\"say \"\"hi\"\"\",192,32,1,3\n"
    "\" padded \",0,16,4,5\n"
    "pool,16,8,5,6\n"
    "\"ghost, \"\"the\"\" one\",8,,,\n";

Test(plan_csv, writes_every_column_and_quotes_names_when_needed) {
    ab_problem p;
    make_problem(&p);
    ab_plan pl;
    make_plan(&pl);
    char *dir = abt_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    ab_error err = {0};
    cr_assert_eq(abf_plan_write(path, &p, &pl, &err), AB_OK, "%s", err.msg);
    char *got = abt_slurp(path, NULL);
    cr_assert_str_eq(got, written);
    free(got);
    free(dir);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(plan_csv, round_trips_a_plan) {
    ab_problem p;
    make_problem(&p);
    ab_plan pl, back;
    make_plan(&pl);
    char *dir = abt_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    ab_error err = {0};
    cr_assert_eq(abf_plan_write(path, &p, &pl, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(abf_plan_read(path, &p, &back, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(back.n, pl.n);
    for (size_t i = 0; i < pl.n; i++) {
        assert_entry(&back, i, pl.v[i].tensor, pl.v[i].offset, (int)i + 2);
        if (pl.v[i].tensor == AB_NO_TENSOR) cr_assert_str_eq(back.v[i].name, pl.v[i].name);
    }
    free(dir);
    ab_plan_free(&back);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(plan_csv, writes_standard_output_for_dash, .init = cr_redirect_stdout) {
    ab_problem p;
    make_problem(&p);
    ab_plan pl;
    make_plan(&pl);
    ab_error err = {0};
    cr_assert_eq(abf_plan_write("-", &p, &pl, &err), AB_OK, "%s", err.msg);
    fflush(stdout);
    cr_assert_stdout_eq_str(written);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(plan_csv, refuses_to_write_an_entry_naming_nothing) {
    ab_problem p;
    make_problem(&p);
    ab_plan pl;
    ab_plan_init(&pl);
    cr_assert_eq(ab_plan_add(&pl, 9, 0, NULL, 0, NULL), AB_OK);
    char *dir = abt_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    ab_error err = {0};
    cr_assert_eq(abf_plan_write(path, &p, &pl, &err), AB_EINTERNAL);
    cr_assert_null(abt_slurp(path, NULL), "a file was written");
    free(dir);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(plan_csv, reports_a_path_it_cannot_write) {
    ab_problem p;
    make_problem(&p);
    ab_plan pl;
    make_plan(&pl);
    char *dir = abt_tmpdir();
    char path[4096], want[4200];
    snprintf(path, sizeof path, "%s/no/such/dir/out.csv", dir);
    ab_error err = {0};
    cr_assert_eq(abf_plan_write(path, &p, &pl, &err), AB_EINPUT);
    snprintf(want, sizeof want, "%s: cannot open for writing: No such file or directory", path);
    cr_assert_str_eq(err.msg, want);
    free(dir);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

/* ---- allocation failures -------------------------------------------------- */

Test(plan_csv, fails_cleanly_at_every_allocation) {
    ab_problem p;
    make_problem(&p);
    char path[4096];
    tmp_text("tensor,offset,size\nconv1,0,128\nghost,8,\n\"fire2,sq\",128,64\npool,0,8\n", path);
    long n;
    for (n = 1;; n++) {
        ab_plan pl;
        ab_error err = {0};
        ab_alloc_fail_at(n);
        ab_status st = abf_plan_read(path, &p, &pl, &err);
        long calls = ab_alloc_fail_at(0);
        if (calls < n) {
            cr_assert_eq(st, AB_OK, "%s", err.msg);
            cr_assert_eq(pl.n, 4);
            cr_assert_str_eq(pl.v[1].name, "ghost");
            ab_plan_free(&pl);
            break;
        }
        cr_assert_eq(st, AB_ENOMEM, "allocation %ld failed but the read returned %d (%s)", n,
                     (int)st, err.msg);
        cr_assert_eq(pl.n, 0);
        cr_assert_null(pl.v);
    }
    cr_assert_gt(n, 4, "only %ld allocations: the test does not exercise the reader", n);
    ab_problem_free(&p);
}
