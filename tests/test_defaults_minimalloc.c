/*
 * test_defaults_minimalloc.c — the MiniMalloc CSV reader takes MiniMalloc's
 * own header spellings (buffer/buffer_id/id, begin/start/lower, end
 * (inclusive)/upper (half-open), size, alignment, gaps), alone and mixed, in
 * suites and in plans; a column spelled twice, a missing one and a non-empty
 * gaps field are errors naming the file, the line and the column.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/formats/minimalloc.h"
#include "tests/support.h"

#define HAS(s, sub) cr_assert(strstr((s), (sub)) != NULL, "expected '%s' in:\n%s", (sub), (s))

/* Writes text to a fresh folder as name; the path is static (one at a time). */
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

/* Loads text and checks it is the two tensors a [0, 2] 8 bytes and b [2, 4]
 * 4 bytes, whatever the header calls the columns. */
static void loads_the_same(const char *text) {
    ab_problem p;
    ab_error err;
    cr_assert_eq(abf_minimalloc_load(write_named("m.csv", text), &p, NULL, &err), AB_OK,
                 "%s\n%s", text, err.msg);
    cr_assert_eq(p.n, 2, "%s", text);
    cr_assert_str_eq(p.t[0].name, "a");
    cr_assert_str_eq(p.t[1].name, "b");
    cr_assert_eq(p.t[0].start, 0, "%s", text);
    cr_assert_eq(p.t[0].end, 2, "%s", text);
    cr_assert_eq(p.t[0].size, 8, "%s", text);
    cr_assert_eq(p.t[1].start, 2, "%s", text);
    cr_assert_eq(p.t[1].end, 4, "%s", text);
    cr_assert_eq(p.t[1].size, 4, "%s", text);
    ab_problem_free(&p);
}

Test(defaults_minimalloc, takes_each_spelling_of_the_id_column) {
    loads_the_same("id,lower,upper,size\na,0,3,8\nb,2,5,4\n");
    loads_the_same("buffer,lower,upper,size\na,0,3,8\nb,2,5,4\n");
    loads_the_same("buffer_id,lower,upper,size\na,0,3,8\nb,2,5,4\n");
}

Test(defaults_minimalloc, takes_each_spelling_of_the_start_column) {
    loads_the_same("id,begin,upper,size\na,0,3,8\nb,2,5,4\n");
    loads_the_same("id,start,upper,size\na,0,3,8\nb,2,5,4\n");
}

Test(defaults_minimalloc, reads_end_as_inclusive_and_upper_as_half_open) {
    loads_the_same("id,lower,end,size\na,0,2,8\nb,2,4,4\n");
    loads_the_same("id,lower,upper,size\na,0,3,8\nb,2,5,4\n");
    /* a one-instruction buffer: end = start is fine, upper = lower is not */
    ab_problem p;
    ab_error err;
    cr_assert_eq(abf_minimalloc_load(write_named("one.csv", "id,start,end,size\nx,4,4,1\n"), &p,
                                     NULL, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(p.t[0].start, 4);
    cr_assert_eq(p.t[0].end, 4);
    HAS(p.description, "inclusive");
    ab_problem_free(&p);
}

Test(defaults_minimalloc, takes_mixtures_in_any_order) {
    loads_the_same("buffer,start,end,size\na,0,2,8\nb,2,4,4\n");
    loads_the_same("size,end,buffer_id,begin\n8,2,a,0\n4,4,b,2\n");
    loads_the_same("start,buffer,size,upper,alignment\n0,a,8,3,1\n2,b,4,5,1\n");
    loads_the_same("buffer,begin,end,size,gaps\na,0,2,8,\nb,2,4,4,\n");
}

static void rejects(const char *text, const char *want) {
    ab_problem p;
    ab_error err;
    cr_assert_eq(abf_minimalloc_load(write_named("bad.csv", text), &p, NULL, &err), AB_EINPUT,
                 "%s", text);
    HAS(err.msg, want);
    cr_assert_eq(p.n, 0);
}

Test(defaults_minimalloc, names_file_line_and_column_in_header_errors) {
    rejects("id,buffer,lower,upper,size\n", "bad.csv:1:4: header: column 'buffer' twice (also as 'id')");
    rejects("id,start,begin,upper,size\n", "bad.csv:1:10: header: column 'begin' twice (also as 'start')");
    rejects("id,lower,end,upper,size\n", "bad.csv:1:14: header: column 'upper' twice (also as 'end')");
    rejects("\n\nbuffer,start,size\n", "bad.csv:3: header: missing column 'upper' (spelled upper "
                                       "(half-open) or end (inclusive))");
    rejects("start,end,size\n", "bad.csv:1: header: missing column 'id' (spelled id, buffer or "
                                "buffer_id)");
    rejects("buffer,finish,end,size\n", "bad.csv:1:8: header: unknown column 'finish'");
    rejects("Buffer,start,end,size\n", "bad.csv:1:1: header: unknown column 'Buffer'");
}

Test(defaults_minimalloc, names_the_header_spelling_in_row_errors) {
    rejects("buffer,start,end,size\na,3,2,4\n", "bad.csv:2:5: end: 2 is below start 3 (the live "
                                                "range [start, end] is inclusive)");
    rejects("buffer_id,begin,upper,size\na,3,3,4\n", "bad.csv:2:5: upper: 3 must be above begin 3");
    rejects("buffer,start,end,size\n,0,1,4\n", "bad.csv:2:1: buffer: empty");
    rejects("buffer,start,end,size\na,x,1,4\n", "bad.csv:2:3: start: expected an integer");
    rejects("buffer,start,end,size\na,0,-1,4\n", "bad.csv:2:5: end: expected an integer in [0,");
}

Test(defaults_minimalloc, refuses_a_non_empty_gaps_field_naming_the_line) {
    rejects("id,lower,upper,size,gaps\na,0,9,4,\nb,0,9,4,2-5\n",
            "bad.csv:3:9: gaps: '2-5': buffers with gaps are not supported");
    rejects("id,lower,upper,size,gaps\na,0,9,4,2-5@0:2 7-8\n", "bad.csv:2:9: gaps: '2-5@0:2 7-8'");
}

Test(defaults_minimalloc, reads_plans_under_the_aliases_too) {
    ab_problem p;
    ab_error err;
    cr_assert_eq(abf_minimalloc_load(write_named("s.csv", "id,lower,upper,size\na,0,3,8\n"
                                                          "b,2,5,4\n"), &p, NULL, &err), AB_OK);
    char plan[4096];
    snprintf(plan, sizeof plan, "%s",
             write_named("p.csv", "buffer,start,end,size,offset\na,0,2,8,0\nb,2,4,4,8\n"));
    ab_plan pl;
    cr_assert_eq(abf_minimalloc_plan_read(plan, &p, &pl, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(pl.n, 2);
    cr_assert_eq(pl.v[1].tensor, 1);
    cr_assert_eq(pl.v[1].offset, 8);
    ab_plan_free(&pl);
    snprintf(plan, sizeof plan, "%s",
             write_named("p.csv", "buffer,start,end,size,offset\na,0,3,8,0\nb,2,4,4,8\n"));
    cr_assert_eq(abf_minimalloc_plan_read(plan, &p, &pl, &err), AB_EINPUT);
    HAS(err.msg, "p.csv:2:5: end: 3 disagrees with the suite's 2 for 'a'");
    snprintf(plan, sizeof plan, "%s", write_named("p.csv", "buffer,lower,size\na,0,8\n"));
    cr_assert_eq(abf_minimalloc_plan_read(plan, &p, &pl, &err), AB_EINPUT);
    HAS(err.msg, "p.csv:1: header: missing column 'offset'");
    ab_problem_free(&p);
}

Test(defaults_minimalloc, imports_a_buffer_start_end_size_file_from_the_command_line) {
    const char *path = write_named("aliases.csv", "buffer,start,end,size\nx,0,1,16\ny,1,2,16\n");
    char *out = NULL, *err = NULL;
    char args[4200];
    snprintf(args, sizeof args, "import %s", path);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    HAS(out, "name: x");
    HAS(out, "end: 1");
    free(out);
    free(err);
}
