/*
 * test_profiles.c — runtime profiles (harness/formats/profile.c), byte counts
 * for a person and what makes up the peak (harness/cli/human.c,
 * oracle/bounds.c abo_live_at), and the commands that take them: import,
 * plan, bound and run with --profile, --io, --align and --bytes. The shared
 * face-detection model, when present, under --profile tflm.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cli/human.h"
#include "harness/formats/formats.h"
#include "harness/formats/profile.h"
#include "oracle/bounds.h"
#include "tests/support.h"

#define HAS(s, sub) cr_assert(strstr((s), (sub)) != NULL, "expected '%s' in:\n%s", (sub), (s))
#define HASNT(s, sub) cr_assert(strstr((s), (sub)) == NULL, "unexpected '%s' in:\n%s", (sub), (s))

/* Two intermediates between an input and an output: live bytes 100+1000 at
 * instruction 1, 1000+2000 at 2, 2000+10 at 3. */
static const char *const TINY =
    "suite: tiny\n"
    "expect: {lower_bound: 3000}\n"
    "tensors:\n"
    "  - {name: in, size: 100, start: 0, end: 1, kind: input}\n"
    "  - {name: a, size: 1000, start: 1, end: 2}\n"
    "  - {name: b, size: 2000, start: 2, end: 3}\n"
    "  - {name: out, size: 10, start: 3, end: 3, kind: output}\n";

static void load(const char *yaml, ab_problem *p) {
    ab_error err;
    ab_error_clear(&err);
    cr_assert_eq(abf_load_problem(abt_write_tmp(yaml, ".yaml"), NULL, p, &err), AB_OK, "%s",
                 err.msg);
}

static abf_profile_choice choose(const char *profile, const char *io, const char *align) {
    abf_profile_choice c;
    ab_error err;
    ab_error_clear(&err);
    cr_assert_eq(abf_profile_choose(profile, io, align, &c, &err), AB_OK, "%s", err.msg);
    return c;
}

/* ---- the table ------------------------------------------------------------------ */

Test(profiles, table_holds_plain_tflm_and_tvm_usmp_with_their_rules) {
    const abf_profile *pl = abf_profile_named("plain"), *tf = abf_profile_named("tflm"),
                      *tv = abf_profile_named("tvm-usmp");
    cr_assert(pl && tf && tv);
    cr_assert_null(abf_profile_named("tflite"));
    cr_assert_eq(pl->io, ABF_PROFILE_KEEP_IO);
    cr_assert_eq(pl->align, 1);
    cr_assert_null(pl->reference);
    cr_assert_eq(tf->io, AB_IO_WORKSPACE);
    cr_assert_eq(tf->align, 16);
    cr_assert(tf->round_sizes);
    cr_assert_str_eq(tf->reference, "tflm-greedy");
    cr_assert_eq(tv->io, AB_IO_SEPARATE);
    cr_assert_eq(tv->align, 16);
    cr_assert(!tv->round_sizes);
    cr_assert_str_eq(tv->reference, "usmp-greedy-by-size");
    cr_assert_eq(abf_profile_at(0), pl);
    cr_assert_null(abf_profile_at(3));
}

Test(profiles, rejects_unknown_profile_io_and_align_naming_the_option) {
    abf_profile_choice c;
    ab_error err;
    cr_assert_eq(abf_profile_choose("tflite", NULL, NULL, &c, &err), AB_EINPUT);
    HAS(err.msg, "--profile takes plain, tflm, tvm-usmp, not 'tflite'");
    cr_assert_eq(abf_profile_choose("tflm", "both", NULL, &c, &err), AB_EINPUT);
    HAS(err.msg, "--io takes separate or workspace, not 'both'");
    const char *bad[] = {"0", "3", "-16", "16K", "", "2147483648"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_eq(abf_profile_choose(NULL, NULL, bad[i], &c, &err), AB_EINPUT, "%s", bad[i]);
        HAS(err.msg, "--align takes a power of two");
    }
}

Test(profiles, overrides_replace_the_profile_choice) {
    abf_profile_choice c = choose("tflm", "separate", "64");
    cr_assert_eq(c.io, AB_IO_SEPARATE);
    cr_assert_eq(c.align, 64);
    cr_assert(c.round_sizes);
    c = choose(NULL, NULL, NULL);
    cr_assert_str_eq(c.profile->name, "plain");
    cr_assert(!abf_profile_changes(&c));
    c = choose("plain", NULL, "8");
    cr_assert(abf_profile_changes(&c));
    cr_assert(!c.round_sizes);
}

/* ---- applying one --------------------------------------------------------------- */

Test(profiles, tflm_puts_io_in_the_arena_and_rounds_sizes_and_offsets_to_16) {
    ab_problem p;
    load(TINY, &p);
    abf_profile_choice c = choose("tflm", NULL, NULL);
    bool changed = false;
    cr_assert_eq(abf_profile_apply(&c, &p, &changed, NULL), AB_OK);
    cr_assert(changed);
    cr_assert_eq(p.io, AB_IO_WORKSPACE);
    cr_assert_eq(p.alignment, 16);
    const int64_t want[] = {112, 1008, 2000, 16}, bits[] = {800, 8000, 16000, 80};
    for (size_t i = 0; i < 4; i++) {
        cr_assert_eq(p.t[i].size, want[i], "%s: %lld", p.t[i].name, (long long)p.t[i].size);
        cr_assert_eq(p.t[i].align, 16);
        cr_assert_eq(p.t[i].logical_bits, bits[i], "logical bits are kept");
    }
    cr_assert_eq(p.expect_lower_bound, AB_NONE, "expect: speaks of the suite as written");
    abo_bounds b;
    cr_assert_eq(abo_bounds_compute(&p, &b, NULL), AB_OK);
    cr_assert_eq(b.max_load, 3008);
    cr_assert_eq(b.max_load_instr, 2);
    cr_assert_eq(b.io_outside, 0);
    ab_problem_free(&p);
}

Test(profiles, tvm_usmp_aligns_offsets_but_keeps_sizes_and_io_outside) {
    ab_problem p;
    load(TINY, &p);
    abf_profile_choice c = choose("tvm-usmp", NULL, NULL);
    cr_assert_eq(abf_profile_apply(&c, &p, NULL, NULL), AB_OK);
    cr_assert_eq(p.io, AB_IO_SEPARATE);
    for (size_t i = 0; i < p.n; i++) cr_assert_eq(p.t[i].align, 16);
    cr_assert_eq(p.t[0].size, 100);
    cr_assert_eq(p.t[1].size, 1000);
    ab_problem_free(&p);
}

Test(profiles, plain_changes_nothing_and_keeps_expectations) {
    ab_problem p;
    load(TINY, &p);
    abf_profile_choice c = choose("plain", NULL, NULL);
    bool changed = true;
    cr_assert_eq(abf_profile_apply(&c, &p, &changed, NULL), AB_OK);
    cr_assert(!changed);
    cr_assert_eq(p.expect_lower_bound, 3000);
    cr_assert_eq(p.io, AB_IO_SEPARATE);
    cr_assert_eq(p.t[0].size, 100);
    ab_problem_free(&p);
}

Test(profiles, rejects_a_fixed_offset_off_the_new_alignment_naming_file_and_line) {
    ab_problem p;
    load("suite: fixed\n"
         "tensors:\n"
         "  - {name: a, size: 8, start: 0, end: 1}\n"
         "  - {name: pinned, size: 8, start: 0, end: 1, offset: 8}\n",
         &p);
    abf_profile_choice c = choose("tflm", NULL, NULL);
    ab_error err;
    ab_error_clear(&err);
    cr_assert_eq(abf_profile_apply(&c, &p, NULL, &err), AB_EINPUT);
    HAS(err.msg, ".yaml:4: tensor 'pinned': fixed offset 8 is not a multiple of the profile's "
                 "alignment 16");
    ab_problem_free(&p);
}

/* ---- byte counts and the peak ----------------------------------------------------- */

Test(profiles, bytes_print_in_b_kib_mib_or_raw) {
    char b[ABC_BYTES_LEN];
    cr_assert_str_eq(abc_bytes(b, 0, false), "0 B");
    cr_assert_str_eq(abc_bytes(b, 1023, false), "1023 B");
    cr_assert_str_eq(abc_bytes(b, 1024, false), "1.00 KiB");
    cr_assert_str_eq(abc_bytes(b, 3008, false), "2.94 KiB");
    cr_assert_str_eq(abc_bytes(b, 1376256, false), "1.31 MiB");
    cr_assert_str_eq(abc_bytes(b, (int64_t)3 << 30, false), "3.00 GiB");
    cr_assert_str_eq(abc_bytes(b, (int64_t)5 << 40, false), "5120.00 GiB");
    cr_assert_str_eq(abc_bytes(b, 1376256, true), "1376256 bytes");
}

Test(profiles, live_at_lists_arena_tensors_largest_first_ties_by_index) {
    ab_problem p;
    load("suite: live\n"
         "tensors:\n"
         "  - {name: in, size: 500, start: 0, end: 2, kind: input}\n"
         "  - {name: x, size: 10, start: 0, end: 2}\n"
         "  - {name: y, size: 30, start: 1, end: 2}\n"
         "  - {name: z, size: 10, start: 2, end: 3}\n"
         "  - {name: later, size: 99, start: 3, end: 3}\n",
         &p);
    size_t *idx, n;
    cr_assert_eq(abo_live_at(&p, 2, &idx, &n, NULL), AB_OK);
    cr_assert_eq(n, 3, "the input lives outside the arena (io: separate)");
    cr_assert_eq(idx[0], 2);
    cr_assert_eq(idx[1], 1);
    cr_assert_eq(idx[2], 3);
    ab_free(idx);
    p.io = AB_IO_WORKSPACE;
    cr_assert_eq(abo_live_at(&p, 2, &idx, &n, NULL), AB_OK);
    cr_assert_eq(n, 4);
    cr_assert_eq(idx[0], 0);
    ab_free(idx);
    cr_assert_eq(abo_live_at(&p, 7, &idx, &n, NULL), AB_OK);
    cr_assert_eq(n, 0);
    cr_assert_null(idx);
    ab_problem_free(&p);
}

/* ---- the commands ------------------------------------------------------------------ */

Test(profiles, plan_under_tflm_defaults_to_tflm_greedy_and_prints_kib) {
    char *out, *err, args[512];
    const char *suite = abt_write_tmp(TINY, ".yaml");
    snprintf(args, sizeof args, "plan --profile tflm %s", suite);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "profile    tflm (io workspace, align 16, sizes rounded)");
    HAS(out, "planner    tflm-greedy");
    HAS(out, "arena      2.94 KiB\n           3008 bytes exactly");
    HAS(out, "bound      2.94 KiB (max-load at instruction 2)");
    HAS(out, "peak live  2.94 KiB at instruction 2, 2 tensors:");
    HAS(out, "\n  b                   1.95 KiB   66.5%  0 B\n");
    HAS(out, "\n  a                     1008 B   33.5%  1.95 KiB\n");
    HAS(out, "top        a: offset 1.95 KiB + size 1008 B, live [1, 2]");
    HAS(out, "fragmented 0 B (arena minus peak live, 0.0% of the arena)");
    HASNT(out, "footprint");
    free(out), free(err);
    snprintf(args, sizeof args, "plan --profile tflm --bytes %s", suite);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "arena      3008 bytes\n");
    HASNT(out, "KiB");
    free(out), free(err);
}

Test(profiles, plan_io_and_align_override_the_profile) {
    char *out, *err, args[512];
    const char *suite = abt_write_tmp(TINY, ".yaml");
    snprintf(args, sizeof args, "plan --profile tflm --io separate --align 1 -p first-fit --bytes %s",
             suite);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "planner    first-fit");
    HAS(out, "arena      3000 bytes");
    HAS(out, "footprint  3110 bytes (arena + 110 bytes of I/O outside)");
    free(out), free(err);
    snprintf(args, sizeof args, "plan --align 1024 --bytes %s", suite);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "planner    first-fit");
    HAS(out, "arena      3024 bytes"); /* b at 1024: 1000 bytes of a, 24 of padding */
    free(out), free(err);
}

Test(profiles, plan_names_the_tensors_at_the_top_and_the_fragmentation) {
    /* first-fit by start puts a at 0, b above it (1000 + 2000); c, live with b
     * only, goes at 0 under b: its 500 bytes leave a hole of 500 at instruction 3. */
    char *out, *err, args[512];
    const char *suite = abt_write_tmp("suite: holes\n"
                                      "tensors:\n"
                                      "  - {name: a, size: 1000, start: 0, end: 2}\n"
                                      "  - {name: b, size: 2000, start: 2, end: 3}\n"
                                      "  - {name: c, size: 500, start: 3, end: 3}\n",
                                      ".yaml");
    snprintf(args, sizeof args, "plan -p first-fit:order=start --bytes %s", suite);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "arena      3000 bytes");
    HAS(out, "peak live  3000 bytes at instruction 2, 2 tensors:");
    HAS(out, "top        b: offset 1000 bytes + size 2000 bytes, live [2, 3]");
    HAS(out, "fragmented 0 bytes");
    free(out), free(err);
}

Test(profiles, bound_lists_the_peak_tensors_under_a_profile) {
    char *out, *err, args[512];
    const char *suite = abt_write_tmp(TINY, ".yaml");
    snprintf(args, sizeof args, "bound %s", suite);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "max-load   2.93 KiB at instruction 2 (2 tensors live)");
    HAS(out, "io-outside 110 B");
    HAS(out, "\n  b                   1.95 KiB   66.7%\n");
    free(out), free(err);
    snprintf(args, sizeof args, "bound --profile tflm --bytes %s", suite);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "max-load   3008 bytes at instruction 2");
    HAS(out, "logical    3110 bytes");
    HAS(out, "physical   3136 bytes");
    HASNT(out, "io-outside");
    free(out), free(err);
    snprintf(args, sizeof args, "bound --profile nope %s", suite);
    cr_assert_eq(abt_run(args, &out, &err), 2);
    HAS(err, "--profile takes plain, tflm, tvm-usmp, not 'nope'");
    HAS(err, "usage: arenabench bound");
    free(out), free(err);
}

Test(profiles, import_writes_the_suite_as_the_runtime_plans_it) {
    char *out, *err, args[1024];
    char *dir = abt_tmpdir();
    const char *src = abt_write_tmp(TINY, ".yaml");
    snprintf(args, sizeof args, "import %s --profile tflm -o %s/t.yaml", src, dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "profile    tflm (io workspace, align 16, sizes rounded)");
    HAS(out, "peak-live  2.94 KiB");
    free(out), free(err);
    snprintf(args, sizeof args, "%s/t.yaml", dir);
    ab_problem p;
    ab_error e;
    ab_error_clear(&e);
    cr_assert_eq(abf_load_problem(args, NULL, &p, &e), AB_OK, "%s", e.msg);
    cr_assert_eq(p.io, AB_IO_WORKSPACE);
    cr_assert_eq(p.alignment, 16);
    cr_assert_eq(p.t[0].size, 112);
    cr_assert_eq(p.t[3].size, 16);
    cr_assert_eq(p.expect_lower_bound, AB_NONE);
    ab_problem_free(&p);
    snprintf(args, sizeof args, "import %s --align 5", src);
    cr_assert_eq(abt_run(args, &out, &err), 2);
    HAS(err, "--align takes a power of two from 1 to 1073741824, not '5'");
    free(out), free(err);
    free(dir);
}

Test(profiles, run_applies_the_profile_before_io) {
    char *out, *err, args[1024];
    char *dir = abt_tmpdir();
    const char *src = abt_write_tmp(TINY, ".yaml");
    snprintf(args, sizeof args, "run -q --repeat-min 1 --db %s/r.db -p first-fit --profile tflm %s",
             dir, src);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    free(out), free(err);
    snprintf(args, sizeof args, "report --db %s/r.db --format csv", dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "3008"); /* the arena of the profiled suite, in bytes (a machine format) */
    HASNT(out, "KiB");
    free(out), free(err);
    snprintf(args, sizeof args, "report --db %s/r.db", dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "## What makes up the peak");
    HAS(out, "| tiny | 3008 at 2 | b | 2000 | 66.5% |\n|  |  | a | 1008 | 33.5% |\n");
    free(out), free(err);
    snprintf(args, sizeof args, "report --db %s/r.db --format html", dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "<h2>What makes up the peak</h2>");
    free(out), free(err);
    snprintf(args, sizeof args, "run -q --db %s/r2.db --profile tflm --align 3 %s", dir, src);
    cr_assert_eq(abt_run(args, &out, &err), 2);
    HAS(err, "--align takes a power of two");
    free(out), free(err);
    free(dir);
}

/* ---- the shared model ---------------------------------------------------------------- */

Test(profiles, face_detection_under_tflm_fits_its_peak_with_tflm_greedy) {
    const char *data = abt_shared_data();
    if (data == NULL) cr_skip_test("the shared data folder is absent");
    char path[1024], args[1400], *out, *err;
    snprintf(path, sizeof path, "%s/models/face_detection_short_range.tflite", data);
    FILE *f = fopen(path, "rb");
    if (f == NULL) cr_skip_test("%s is absent", path);
    fclose(f);
    snprintf(args, sizeof args, "bound --profile tflm --bytes %s", path);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    long long peak = 0;
    const char *at = strstr(out, "max-load   ");
    cr_assert_not_null(at, "%s", out);
    cr_assert_eq(sscanf(at, "max-load   %lld bytes", &peak), 1, "%s", out);
    cr_assert_eq(peak % 16, 0, "tflm rounds every size to 16: %lld", peak);
    free(out), free(err);
    snprintf(args, sizeof args, "plan --profile tflm --bytes %s", path);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "planner    tflm-greedy");
    char want[64];
    snprintf(want, sizeof want, "arena      %lld bytes", peak);
    HAS(out, want); /* TFLM's greedy planner reaches the max-load bound on this model */
    HAS(out, "peak live  ");
    HAS(out, "top        ");
    free(out), free(err);
}
