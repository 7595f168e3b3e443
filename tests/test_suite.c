/*
 * test_suite.c — the suite YAML loader and writer (harness/formats/suite.c).
 *
 * Every rejection is checked for its status, its place (line:column) and its
 * field, and for leaving the problem empty. Positions in the YAML below are
 * 1-based; the one-line tensors all start "  - {" so their first key is at
 * column 6.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "harness/formats/suite.h"
#include "tests/support.h"

/* A suite with one tensor whose mapping body is BODY, on line 3. */
#define ONE(body) "suite: s\ntensors:\n  - {" body "}\n"

static bool problem_is_empty(const ab_problem *p) {
    return p->n == 0 && p->t == NULL && p->name == NULL && p->description == NULL &&
           p->source == NULL && p->alignment == 1 && p->capacity == AB_NONE &&
           p->expect_lower_bound == AB_NONE && p->expect_optimum == AB_NONE;
}

/* Loads yaml from a temporary file; the path goes to *path (static storage). */
static ab_status load_yaml(const char *yaml, ab_problem *p, ab_error *err, const char **path) {
    static char saved[4096];
    snprintf(saved, sizeof saved, "%s", abt_write_tmp(yaml, ".yaml"));
    if (path) *path = saved;
    return abf_suite_load(saved, p, err);
}

/* Loads yaml, which must fail with AB_EINPUT and a message starting with the
 * file's path, then `where` (":LINE:COL: FIELD: "), and containing `what`. */
static void assert_rejects(const char *yaml, const char *where, const char *what) {
    ab_problem p;
    ab_error err;
    const char *path;
    ab_status st = load_yaml(yaml, &p, &err, &path);
    cr_assert_eq(st, AB_EINPUT, "status %d, message: %s", st, st ? err.msg : "(none)");
    size_t n = strlen(path);
    cr_assert(strncmp(err.msg, path, n) == 0, "message does not start with the path: %s", err.msg);
    cr_assert(strncmp(err.msg + n, where, strlen(where)) == 0, "expected '%s' after the path: %s",
              where, err.msg);
    cr_assert(strstr(err.msg, what) != NULL, "expected '%s' in: %s", what, err.msg);
    cr_assert(problem_is_empty(&p), "a failed load left something in the problem");
    ab_problem_free(&p);
}

static void load_ok(const char *yaml, ab_problem *p) {
    ab_error err;
    ab_status st = load_yaml(yaml, p, &err, NULL);
    cr_assert_eq(st, AB_OK, "load failed: %s", err.msg);
}

/* ---- loading ------------------------------------------------------------- */

Test(suite, loads_minimal_suite_with_defaults) {
    ab_problem p;
    const char *path;
    ab_error err;
    cr_assert_eq(load_yaml(ONE("name: t1, size: 64, start: 3, end: 9"), &p, &err, &path), AB_OK,
                 "%s", err.msg);
    cr_assert_str_eq(p.name, "s");
    cr_assert_null(p.description);
    cr_assert_str_eq(p.source, path);
    cr_assert_eq(p.alignment, 1);
    cr_assert_eq(p.io, AB_IO_SEPARATE);
    cr_assert_eq(p.capacity, AB_NONE);
    cr_assert_eq(p.expect_lower_bound, AB_NONE);
    cr_assert_eq(p.expect_optimum, AB_NONE);
    cr_assert_eq(p.n, 1);
    const ab_tensor *t = &p.t[0];
    cr_assert_str_eq(t->name, "t1");
    cr_assert_eq(t->size, 64);
    cr_assert_eq(t->logical_bits, 512);
    cr_assert_eq(t->start, 3);
    cr_assert_eq(t->end, 9);
    cr_assert_eq(t->align, 1);
    cr_assert_eq(t->offset, AB_NONE);
    cr_assert_eq(t->kind, AB_KIND_INTERMEDIATE);
    cr_assert_null(t->dtype);
    cr_assert_null(t->shape);
    cr_assert_eq(t->ndim, 0);
    cr_assert_eq(t->line, 3);
    ab_problem_free(&p);
}

Test(suite, loads_design_example) {
    ab_problem p;
    ab_error err;
    cr_assert_eq(abf_suite_load(abt_src("tests/data/suite/example.yaml"), &p, &err), AB_OK, "%s",
                 err.msg);
    cr_assert_str_eq(p.name, "squeezenet-int8");
    cr_assert_str_eq(p.description, "SqueezeNet 1.1, 8-bit activations");
    cr_assert_eq(p.alignment, 16);
    cr_assert_eq(p.io, AB_IO_SEPARATE);
    cr_assert_eq(p.capacity, 1048576);
    cr_assert_eq(p.expect_lower_bound, 1234567);
    cr_assert_eq(p.expect_optimum, 1234567);
    cr_assert_eq(p.n, 4);
    cr_assert_eq(p.t[0].kind, AB_KIND_INPUT);
    cr_assert_eq(p.t[0].align, 16);
    cr_assert_eq(p.t[1].size, 1 * 111 * 111 * 64);
    cr_assert_eq(p.t[1].logical_bits, 1 * 111 * 111 * 64 * 8);
    cr_assert_str_eq(p.t[1].dtype->name, "int8");
    cr_assert_eq(p.t[1].ndim, 4);
    cr_assert_eq(p.t[1].shape[1], 111);
    cr_assert_eq(p.t[2].align, 64);
    cr_assert_eq(p.t[3].kind, AB_KIND_OUTPUT);
    cr_assert_eq(p.t[3].line, 11);
    ab_problem_free(&p);
}

Test(suite, loads_int4_shape_packed) {
    ab_problem p;
    load_ok(ONE("name: q, shape: [3, 5], dtype: int4, start: 0, end: 0"), &p);
    cr_assert_eq(p.t[0].logical_bits, 60);
    cr_assert_eq(p.t[0].size, 8);
    ab_problem_free(&p);
}

Test(suite, loads_physical_size_above_shape) {
    ab_problem p;
    load_ok(ONE("name: q, shape: [3, 5], dtype: int4, size: 16, start: 0, end: 0"), &p);
    cr_assert_eq(p.t[0].logical_bits, 60);
    cr_assert_eq(p.t[0].size, 16);
    ab_problem_free(&p);
}

Test(suite, loads_scalar_shape) {
    ab_problem p;
    load_ok(ONE("name: s, shape: [], dtype: float32, start: 0, end: 0"), &p);
    cr_assert_eq(p.t[0].size, 4);
    cr_assert_eq(p.t[0].ndim, 0);
    ab_problem_free(&p);
}

Test(suite, loads_block_style_and_workspace_io) {
    ab_problem p;
    load_ok("suite: b\n"
            "io: workspace\n"
            "tensors:\n"
            "  - name: x\n"
            "    size: 10\n"
            "    start: 0\n"
            "    end: 4\n"
            "    offset: 32\n"
            "    align: 32\n"
            "    kind: output\n",
            &p);
    cr_assert_eq(p.io, AB_IO_WORKSPACE);
    cr_assert_eq(p.t[0].offset, 32);
    cr_assert_eq(p.t[0].align, 32);
    cr_assert_eq(p.t[0].kind, AB_KIND_OUTPUT);
    cr_assert_eq(p.t[0].line, 4);
    ab_problem_free(&p);
}

Test(suite, applies_alignment_declared_after_tensors) {
    ab_problem p;
    load_ok("suite: s\n"
            "tensors:\n"
            "  - {name: a, size: 1, start: 0, end: 0, offset: 64}\n"
            "  - {name: b, size: 1, start: 0, end: 0, align: 4}\n"
            "alignment: 32\n",
            &p);
    cr_assert_eq(p.t[0].align, 32);
    cr_assert_eq(p.t[1].align, 4);
    ab_problem_free(&p);
}

Test(suite, accepts_size_of_exactly_2_62) {
    ab_problem p;
    load_ok(ONE("name: big, size: 4611686018427387904, start: 0, end: 0"), &p);
    cr_assert_eq(p.t[0].size, AB_MAX_SIZE);
    ab_problem_free(&p);
}

Test(suite, loads_empty_tensor_list) {
    ab_problem p;
    load_ok("suite: e\ntensors: []\n", &p);
    cr_assert_eq(p.n, 0);
    ab_problem_free(&p);
}

Test(suite, loads_aliases_for_shape_and_dtype) {
    ab_problem p;
    load_ok("suite: s\n"
            "tensors:\n"
            "  - {name: a, shape: &s [2, 3], dtype: &d float16, start: 0, end: 1}\n"
            "  - {name: b, shape: *s, dtype: *d, start: 1, end: 2}\n",
            &p);
    cr_assert_eq(p.n, 2);
    cr_assert_eq(p.t[1].size, 12);
    cr_assert_eq(p.t[1].ndim, 2);
    cr_assert_eq(p.t[1].shape[1], 3);
    cr_assert_str_eq(p.t[1].dtype->name, "float16");
    ab_problem_free(&p);
}

Test(suite, loads_nested_anchors) {
    ab_problem p;
    load_ok("suite: s\n"
            "tensors:\n"
            "  - &t {name: a, shape: &s [4], dtype: int8, start: 0, end: 1}\n"
            "  - {name: b, shape: *s, dtype: int8, start: 1, end: 2}\n",
            &p);
    cr_assert_eq(p.n, 2);
    cr_assert_eq(p.t[1].size, 4);
    ab_problem_free(&p);
}

Test(suite, replays_anchors_nested_in_aliases) {
    ab_problem p;
    load_ok("suite: s\n"
            "tensors:\n"
            "  - {name: a, shape: &outer [&inner 2, 3], dtype: &d int8, start: 0, end: 1}\n"
            "  - {name: b, shape: &again [*inner, 7], dtype: *d, start: 0, end: 1}\n"
            "  - {name: c, shape: *outer, dtype: &d int4, start: 0, end: 1}\n"
            "  - {name: d, shape: *again, dtype: *d, start: 0, end: 1}\n",
            &p);
    cr_assert_eq(p.n, 4);
    cr_assert_eq(p.t[1].size, 14);
    cr_assert_eq(p.t[2].ndim, 2);
    cr_assert_eq(p.t[2].shape[0], 2);
    cr_assert_eq(p.t[2].shape[1], 3);
    cr_assert_eq(p.t[3].shape[0], 2);
    cr_assert_eq(p.t[3].shape[1], 7);
    cr_assert_eq(p.t[3].logical_bits, 56, "a later anchor of the same name replaces the first");
    ab_problem_free(&p);
    /* an alias that expands to a sequence where a dimension is expected: the
     * place named is the anchored original */
    assert_rejects(
        "suite: s\n"
        "tensors:\n"
        "  - {name: a, shape: &outer [&inner 2, 3], dtype: int8, start: 0, end: 1}\n"
        "  - {name: b, shape: [*inner, *outer], dtype: int8, start: 0, end: 1}\n",
        ":3:22: tensors[1] (name 'b').shape[1]: ", "must be a positive integer, got a sequence");
}

Test(suite, loads_crlf_line_endings) {
    ab_problem p;
    load_ok("suite: s\r\ntensors:\r\n  - {name: a, size: 1, start: 0, end: 1}\r\n", &p);
    cr_assert_eq(p.n, 1);
    cr_assert_eq(p.t[0].line, 3);
    ab_problem_free(&p);
}

Test(suite, loads_buffer_naming_it_in_messages) {
    ab_problem p;
    ab_error err;
    const char *yaml = ONE("name: a, size: -4, start: 0, end: 1");
    cr_assert_eq(abf_suite_load_buffer("s.yaml", yaml, strlen(yaml), &p, &err), AB_EINPUT);
    cr_assert_str_eq(err.msg, "s.yaml:3:21: tensors[0] (name 'a').size: must be a positive "
                              "integer, got '-4'");
    cr_assert(problem_is_empty(&p));
    const char *good = ONE("name: a, size: 4, start: 0, end: 1");
    cr_assert_eq(abf_suite_load_buffer("s.yaml", good, strlen(good), &p, &err), AB_OK, "%s",
                 err.msg);
    cr_assert_str_eq(p.source, "s.yaml");
    ab_problem_free(&p);
}

Test(suite, loads_from_stdin, .init = cr_redirect_stdin) {
    FILE *in = cr_get_redirected_stdin();
    fputs(ONE("name: a, size: 4, start: 0, end: 1"), in);
    fclose(in);
    ab_problem p;
    ab_error err;
    cr_assert_eq(abf_suite_load("-", &p, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(p.n, 1);
    cr_assert_str_eq(p.source, "-");
    ab_problem_free(&p);
}

/* ---- required keys ------------------------------------------------------- */

Test(suite, rejects_missing_name) {
    assert_rejects(ONE("size: 1, start: 0, end: 1"),
                   ":3:5: tensors[0]: ", "missing required key 'name'");
}

Test(suite, rejects_missing_size) {
    assert_rejects(ONE("name: a, start: 0, end: 1"), ":3:5: tensors[0] (name 'a'): ",
                   "missing required key 'size' (or 'shape' and 'dtype')");
}

Test(suite, rejects_missing_start) {
    assert_rejects(ONE("name: a, size: 1, end: 1"),
                   ":3:5: tensors[0] (name 'a'): ", "missing required key 'start'");
}

Test(suite, rejects_missing_end) {
    assert_rejects(ONE("name: a, size: 1, start: 1"),
                   ":3:5: tensors[0] (name 'a'): ", "missing required key 'end'");
}

Test(suite, rejects_missing_suite) {
    assert_rejects("tensors: []\n", ":1:1: top level: ", "missing required key 'suite'");
}

Test(suite, rejects_missing_tensors) {
    assert_rejects("suite: s\n", ":1:1: top level: ", "missing required key 'tensors'");
}

/* ---- integers ------------------------------------------------------------ */

Test(suite, rejects_zero_size) {
    assert_rejects(ONE("name: a, size: 0, start: 0, end: 1"),
                   ":3:21: tensors[0] (name 'a').size: ", "must be a positive integer, got '0'");
}

Test(suite, rejects_negative_size) {
    assert_rejects(
        ONE("name: conv1, size: -4, start: 0, end: 1"),
        ":3:25: tensors[0] (name 'conv1').size: ", "must be a positive integer, got '-4'");
}

Test(suite, rejects_fractional_size) {
    assert_rejects(ONE("name: a, size: 1.5, start: 0, end: 1"),
                   ":3:21: tensors[0] (name 'a').size: ", "must be a positive integer, got '1.5'");
}

Test(suite, rejects_non_numeric_size) {
    assert_rejects(ONE("size: abc, name: a, start: 0, end: 1"),
                   ":3:12: tensors[0].size: ", "must be a positive integer, got 'abc'");
}

Test(suite, rejects_exponent_size) {
    assert_rejects(ONE("name: a, size: 1e6, start: 0, end: 1"),
                   ":3:21: tensors[0] (name 'a').size: ", "must be a positive integer, got '1e6'");
}

Test(suite, rejects_size_above_2_62) {
    assert_rejects(
        ONE("name: a, size: 4611686018427387905, start: 0, end: 1"),
        ":3:21: tensors[0] (name 'a').size: ", "no larger than 2^62, got '4611686018427387905'");
}

Test(suite, rejects_int64_overflow) {
    assert_rejects(
        ONE("name: a, size: 1, start: 0, end: 99999999999999999999"),
        ":3:39: tensors[0] (name 'a').end: ",
        "must be a non-negative integer no larger than 2^62, got '99999999999999999999'");
}

Test(suite, rejects_int64_overflow_in_expect) {
    assert_rejects("suite: s\ntensors: []\nexpect: {optimum: 9223372036854775808}\n",
                   ":3:19: expect.optimum: ", "no larger than 2^63-1, got '9223372036854775808'");
}

Test(suite, rejects_quoted_integer) {
    assert_rejects(
        ONE("name: a, size: \"64\", start: 0, end: 1"),
        ":3:21: tensors[0] (name 'a').size: ", "expected an integer, got the quoted string '64'");
}

Test(suite, rejects_leading_zeros) {
    assert_rejects(ONE("name: a, size: 010, start: 0, end: 1"),
                   ":3:21: tensors[0] (name 'a').size: ", "without leading zeros, got '010'");
}

Test(suite, rejects_sequence_for_integer) {
    assert_rejects(
        ONE("name: a, size: [1], start: 0, end: 1"),
        ":3:21: tensors[0] (name 'a').size: ", "must be a positive integer, got a sequence");
}

/* ---- live ranges, names, alignment, offsets ------------------------------ */

Test(suite, rejects_start_after_end) {
    assert_rejects(ONE("name: a, size: 1, start: 5, end: 3"),
                   ":3:39: tensors[0] (name 'a').end: ", "must be >= start (5), got '3'");
}

Test(suite, rejects_negative_start) {
    assert_rejects(
        ONE("name: a, size: 1, start: -1, end: 3"),
        ":3:31: tensors[0] (name 'a').start: ", "must be a non-negative integer, got '-1'");
}

Test(suite, rejects_duplicate_tensor_names) {
    assert_rejects("suite: s\n"
                   "tensors:\n"
                   "  - {name: x, size: 1, start: 0, end: 0}\n"
                   "  - {name: y, size: 1, start: 0, end: 0}\n"
                   "  - {name: x, size: 1, start: 0, end: 0}\n",
                   ":5:12: tensors[2] (name 'x').name: ",
                   "duplicate tensor name, also at line 3 (tensors[0])");
}

Test(suite, rejects_null_name) {
    assert_rejects(ONE("name: ~, size: 1, start: 0, end: 1"),
                   ":3:12: tensors[0].name: ", "must be a non-empty string, got null");
}

Test(suite, rejects_empty_name) {
    assert_rejects(ONE("name: '', size: 1, start: 0, end: 1"),
                   ":3:12: tensors[0].name: ", "must be a non-empty string, got ''");
}

Test(suite, rejects_align_not_power_of_two) {
    assert_rejects(ONE("name: a, size: 1, start: 0, end: 1, align: 24"),
                   ":3:49: tensors[0] (name 'a').align: ",
                   "must be a power of two (1, 2, 4, 8, ...), got '24'");
}

Test(suite, rejects_alignment_not_power_of_two) {
    assert_rejects("suite: s\nalignment: 12\ntensors: []\n",
                   ":2:12: alignment: ", "must be a power of two (1, 2, 4, 8, ...), got '12'");
}

Test(suite, rejects_offset_not_multiple_of_align) {
    assert_rejects(
        ONE("name: a, size: 1, start: 0, end: 1, align: 16, offset: 40"),
        ":3:61: tensors[0] (name 'a').offset: ", "must be a multiple of align (16), got '40'");
}

Test(suite, rejects_offset_not_multiple_of_suite_alignment) {
    assert_rejects("suite: s\n"
                   "tensors:\n"
                   "  - {name: a, size: 1, start: 0, end: 0, offset: 40}\n"
                   "alignment: 32\n",
                   ":3:50: tensors[0] (name 'a').offset: ",
                   "must be a multiple of the suite's alignment (32), got '40'");
}

Test(suite, rejects_negative_offset) {
    assert_rejects(
        ONE("name: a, size: 1, start: 0, end: 1, offset: -8"),
        ":3:50: tensors[0] (name 'a').offset: ", "must be a non-negative integer, got '-8'");
}

/* ---- keys ------------------------------------------------------------------ */

Test(suite, rejects_unknown_tensor_key_suggesting_size) {
    assert_rejects(ONE("name: a, sise: 1, start: 0, end: 1"),
                   ":3:15: tensors[0] (name 'a'): ", "unknown key 'sise'; did you mean 'size'?");
}

Test(suite, rejects_unknown_top_key_with_suggestion) {
    assert_rejects("suite: s\nalignmnet: 4\ntensors: []\n",
                   ":2:1: top level: ", "unknown key 'alignmnet'; did you mean 'alignment'?");
}

Test(suite, rejects_unknown_expect_key_with_suggestion) {
    assert_rejects("suite: s\ntensors: []\nexpect:\n  optimun: 5\n",
                   ":4:3: expect: ", "unknown key 'optimun'; did you mean 'optimum'?");
}

Test(suite, rejects_unknown_key_listing_known_keys) {
    assert_rejects("suite: s\nwibble: 4\ntensors: []\n", ":2:1: top level: ",
                   "unknown key 'wibble'; expected one of: suite, description, alignment, io, "
                   "capacity, pools, tensors, expect");
}

Test(suite, rejects_duplicate_key) {
    assert_rejects(ONE("name: a, size: 1, size: 2, start: 0, end: 1"),
                   ":3:24: tensors[0] (name 'a'): ", "duplicate key 'size' (first at line 3)");
}

Test(suite, expands_a_generator_in_place_of_tensors) {
    ab_problem p, q;
    ab_error err;
    const char *text = "suite: g\nalignment: 16\ngenerate: {kind: resnet, blocks: 2, seed: 3}\n";
    cr_assert_eq(abf_suite_load_buffer("g.yaml", text, strlen(text), &p, &err), AB_OK, "%s", err.msg);
    cr_assert_str_eq(p.name, "g");
    cr_assert_gt(p.n, 5);
    for (size_t i = 0; i < p.n; i++) cr_assert_eq(p.t[i].align, 16, "the suite's alignment applies");
    cr_assert_eq(abf_suite_load_buffer("g.yaml", text, strlen(text), &q, &err), AB_OK);
    cr_assert_eq(q.n, p.n, "deterministic");
    for (size_t i = 0; i < p.n; i++) cr_assert_eq(q.t[i].end, p.t[i].end);
    ab_problem_free(&p);
    ab_problem_free(&q);
}

Test(suite, rejects_bad_generators) {
    assert_rejects("suite: g\ngenerate: {kind: lstm}\n", ":2:11: generate: ",
                   "unknown generator kind 'lstm'");
    assert_rejects("suite: g\ngenerate: {blocks: 3}\n", ":2:11: generate: ",
                   "missing required key 'kind'");
    assert_rejects("suite: g\ngenerate: {kind: resnet, blockz: 3}\n", ":2:11: generate: ",
                   "takes no parameter 'blockz'");
    assert_rejects("suite: g\ngenerate: {kind: chain}\ntensors: []\n", ":2:11: generate: ",
                   "either 'tensors' or 'generate', not both");
    assert_rejects("suite: g\ngenerate: [resnet]\n", ":2:11: generate: ", "expected a mapping");
}

Test(suite, rejects_merge_key) {
    assert_rejects("suite: s\n"
                   "tensors:\n"
                   "  - &base {name: a, size: 1, start: 0, end: 1}\n"
                   "  - {<<: *base, name: b}\n",
                   ":4:6: tensors[1]: ", "merge keys ('<<') are not supported");
}

/* ---- dtypes and shapes ------------------------------------------------------ */

Test(suite, rejects_unknown_dtype_listing_known) {
    assert_rejects(ONE("name: a, shape: [2], dtype: flaot32, start: 0, end: 1"),
                   ":3:34: tensors[0] (name 'a').dtype: ",
                   "unknown dtype 'flaot32'; did you mean 'float32'? known: ");
    assert_rejects(ONE("name: a, shape: [2], dtype: fp8e4m3, start: 0, end: 1"),
                   ":3:34: tensors[0] (name 'a').dtype: ", "int4, uint4, int8");
}

Test(suite, rejects_shape_with_zero_dimension) {
    assert_rejects(
        ONE("name: a, shape: [2, 0], dtype: int8, start: 0, end: 1"),
        ":3:26: tensors[0] (name 'a').shape[1]: ", "must be a positive integer, got '0'");
}

Test(suite, rejects_shape_with_negative_dimension) {
    assert_rejects(
        ONE("name: a, shape: [-2], dtype: int8, start: 0, end: 1"),
        ":3:23: tensors[0] (name 'a').shape[0]: ", "must be a positive integer, got '-2'");
}

Test(suite, rejects_shape_not_sequence) {
    assert_rejects(ONE("name: a, shape: 12, dtype: int8, start: 0, end: 1"),
                   ":3:22: tensors[0] (name 'a').shape: ", "must be a sequence of dimensions");
}

Test(suite, rejects_shape_overflow) {
    assert_rejects(ONE("name: a, shape: [4611686018427387904, 4], dtype: int8, start: 0, end: 1"),
                   ":3:22: tensors[0] (name 'a').shape: ", "shape x dtype is too large");
}

Test(suite, rejects_shape_without_dtype) {
    assert_rejects(ONE("name: a, shape: [2, 2], start: 0, end: 1"),
                   ":3:22: tensors[0] (name 'a').shape: ", "needs a dtype");
}

Test(suite, rejects_dtype_without_shape) {
    assert_rejects(ONE("name: a, dtype: int8, start: 0, end: 1"),
                   ":3:22: tensors[0] (name 'a').dtype: ", "needs a shape");
}

Test(suite, rejects_size_below_shape_bytes) {
    assert_rejects(ONE("name: a, shape: [3, 5], dtype: int4, size: 7, start: 0, end: 1"),
                   ":3:49: tensors[0] (name 'a').size: ",
                   "must be at least the 8 bytes of shape x dtype, got '7'");
}

/* ---- document structure ----------------------------------------------------- */

Test(suite, rejects_yaml_syntax_error) {
    assert_rejects("suite: s\ntensors:\n  - {name: a, size: 1]\n", ":3:22: YAML syntax error: ",
                   "did not find expected ',' or '}' (while parsing a flow mapping at line 3, "
                   "column 5)");
}

Test(suite, rejects_bad_indentation) {
    assert_rejects("suite: s\n tensors: []\n",
                   ":2:9: YAML syntax error: ", "mapping values are not allowed in this context");
}

Test(suite, rejects_invalid_utf8) {
    assert_rejects("suite: s\ndescription: caf\xff\ntensors: []\n",
                   ":2:17: YAML syntax error: ", "invalid leading UTF-8 octet (byte 0xff)");
}

Test(suite, rejects_scalar_file) {
    assert_rejects("just words\n", ":1:1: top level: ",
                   "expected a mapping with 'suite' and 'tensors', got 'just words'");
}

Test(suite, rejects_sequence_file) {
    assert_rejects("- a\n- b\n", ":1:1: top level: ",
                   "expected a mapping with 'suite' and 'tensors', got a sequence");
}

Test(suite, rejects_empty_file) {
    assert_rejects("", ":1:1: top level: ", "got an empty file");
    assert_rejects("# only a comment\n", ":1:1: top level: ", "got an empty file");
}

Test(suite, rejects_second_document) {
    assert_rejects("suite: s\ntensors: []\n---\nsuite: t\n",
                   ":3:1: top level: ", "expected one YAML document, got a second one");
}

Test(suite, rejects_tensors_not_sequence) {
    assert_rejects("suite: s\ntensors: {a: 1}\n",
                   ":2:10: tensors: ", "must be a sequence of tensors, got a mapping");
}

Test(suite, rejects_tensor_not_mapping) {
    assert_rejects("suite: s\ntensors:\n  - {name: a, size: 1, start: 0, end: 1}\n  - conv1\n",
                   ":4:5: tensors[1]: ",
                   "must be a mapping like {name: t, size: 64, start: 0, "
                   "end: 1}, got 'conv1'");
}

Test(suite, rejects_bad_io) {
    assert_rejects("suite: s\nio: shared\ntensors: []\n",
                   ":2:5: io: ", "must be one of separate, workspace, got 'shared'");
}

Test(suite, rejects_bad_kind) {
    assert_rejects(ONE("name: a, size: 1, start: 0, end: 1, kind: weight"),
                   ":3:48: tensors[0] (name 'a').kind: ",
                   "must be one of intermediate, input, output, got 'weight'");
}

Test(suite, rejects_zero_capacity) {
    assert_rejects("suite: s\ncapacity: 0\ntensors: []\n",
                   ":2:11: capacity: ", "must be a positive integer, got '0'");
}

Test(suite, rejects_negative_capacity) {
    assert_rejects("suite: s\ncapacity: -100\ntensors: []\n",
                   ":2:11: capacity: ", "must be a positive integer, got '-100'");
}

Test(suite, rejects_expect_lower_bound_above_optimum) {
    assert_rejects("suite: s\ntensors: []\nexpect: {lower_bound: 10, optimum: 9}\n",
                   ":3:36: expect: ", "lower_bound (10) must be <= optimum (9)");
}

Test(suite, rejects_long_value_cut_in_message) {
    assert_rejects(
        ONE("name: a, size: 1, start: 0, end: 1, kind: "
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
        ":3:48: tensors[0] (name 'a').kind: ", "got 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'");
}

/* ---- aliases ------------------------------------------------------------------ */

/* User + system seconds of a rusage. */
static double cpu_seconds(const struct rusage *u) {
    return (double)u->ru_utime.tv_sec + (double)u->ru_utime.tv_usec * 1e-6 +
           (double)u->ru_stime.tv_sec + (double)u->ru_stime.tv_usec * 1e-6;
}

Test(suite, rejects_billion_laughs_fast) {
    /* "fast" in CPU time (this process's, from rusage), which a busy
     * machine does not stretch: about 0.01 s, against 0.5 s */
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    ab_problem p;
    ab_error err;
    const char *path = abt_src("tests/data/suite/billion_laughs.yaml");
    ab_status st = abf_suite_load(path, &p, &err);
    getrusage(RUSAGE_SELF, &after);
    double secs = cpu_seconds(&after) - cpu_seconds(&before);
    cr_assert_eq(st, AB_EINPUT);
    cr_assert(strstr(err.msg, "billion_laughs.yaml:9:8: alias: '*f': alias expansion exceeds a "
                              "limit of 1000000 nodes") != NULL,
              "%s", err.msg);
    cr_assert_lt(secs, 0.5, "took %.3f s of CPU", secs);
    cr_assert_lt(after.ru_maxrss - before.ru_maxrss, 64 * 1024, "peak RSS grew by %ld KiB",
                 after.ru_maxrss - before.ru_maxrss);
    cr_assert(problem_is_empty(&p));
}

Test(suite, rejects_alias_bomb_inside_tensors) {
    /* the budget holds where the schema reads the aliases, too */
    assert_rejects(
        "suite: s\n"
        "tensors:\n"
        "  - {name: a, shape: &a [1,1,1,1,1,1,1,1,1,1], dtype: int8, start: 0, end: 0}\n"
        "  - {name: b, shape: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a], dtype: int8, start: 0, end: 0}\n"
        "  - {name: c, shape: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b], dtype: int8, start: 0, end: 0}\n"
        "  - {name: d, shape: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c], dtype: int8, start: 0, end: 0}\n"
        "  - {name: e, shape: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d], dtype: int8, start: 0, end: 0}\n"
        "  - {name: f, shape: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e], dtype: int8, start: 0, end: 0}\n"
        "  - {name: g, shape: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f], dtype: int8, start: 0, end: 0}\n",
        ":8:47: alias: ", "'*e': alias expansion exceeds a limit of 1000000 nodes");
}

Test(suite, rejects_undefined_alias) {
    assert_rejects(ONE("name: a, size: *sz, start: 0, end: 1"),
                   ":3:21: alias: ", "'*sz' names no anchor defined before it");
}

/* ---- files --------------------------------------------------------------------- */

Test(suite, rejects_missing_file) {
    ab_problem p;
    ab_error err;
    cr_assert_eq(abf_suite_load("/nonexistent/dir/s.yaml", &p, &err), AB_EINPUT);
    cr_assert_str_eq(err.msg, "/nonexistent/dir/s.yaml: cannot open: No such file or directory");
    cr_assert(problem_is_empty(&p));
}

Test(suite, rejects_directory) {
    ab_problem p;
    ab_error err;
    char *dir = abt_tmpdir();
    cr_assert_eq(abf_suite_load(dir, &p, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, dir) == err.msg, "%s", err.msg);
    cr_assert(strstr(err.msg, "Is a directory") != NULL, "%s", err.msg);
    cr_assert(problem_is_empty(&p));
    free(dir);
}

/* ---- the writer ----------------------------------------------------------------- */

static void assert_tensor_eq(const ab_tensor *a, const ab_tensor *b) {
    cr_assert_str_eq(a->name, b->name);
    cr_assert_eq(a->size, b->size, "%s", a->name);
    cr_assert_eq(a->logical_bits, b->logical_bits, "%s", a->name);
    cr_assert_eq(a->start, b->start, "%s", a->name);
    cr_assert_eq(a->end, b->end, "%s", a->name);
    cr_assert_eq(a->align, b->align, "%s", a->name);
    cr_assert_eq(a->offset, b->offset, "%s", a->name);
    cr_assert_eq(a->kind, b->kind, "%s", a->name);
    cr_assert_eq(a->dtype, b->dtype, "%s", a->name);
    cr_assert_eq(a->ndim, b->ndim, "%s", a->name);
    for (int d = 0; d < a->ndim; d++) cr_assert_eq(a->shape[d], b->shape[d], "%s", a->name);
}

static void assert_problem_eq(const ab_problem *a, const ab_problem *b) {
    cr_assert_str_eq(a->name, b->name);
    if (a->description == NULL)
        cr_assert_null(b->description);
    else
        cr_assert_str_eq(a->description, b->description);
    cr_assert_eq(a->alignment, b->alignment);
    cr_assert_eq(a->io, b->io);
    cr_assert_eq(a->capacity, b->capacity);
    cr_assert_eq(a->expect_lower_bound, b->expect_lower_bound);
    cr_assert_eq(a->expect_optimum, b->expect_optimum);
    cr_assert_eq(a->n, b->n);
    for (size_t i = 0; i < a->n; i++) assert_tensor_eq(&a->t[i], &b->t[i]);
}

static void add(ab_problem *p, ab_tensor t) { cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK); }

/* A problem using every field, with names a careless writer would break. */
static void odd_problem(ab_problem *p) {
    ab_problem_init(p);
    p->name = strdup("odd: suite # not a comment");
    p->description = strdup("line one\nline 'two' \"quoted\", {braces} [brackets]");
    p->alignment = 8;
    p->io = AB_IO_WORKSPACE;
    p->capacity = 1 << 20;
    p->expect_lower_bound = 96;
    p->expect_optimum = 128;
    static int64_t shape[] = {3, 5}, shape2[] = {2, 7, 1};
    const ab_dtype *i4 = ab_dtype_find("int4"), *f16 = ab_dtype_find("float16");
    add(p, (ab_tensor){.name = "in: put",
                       .size = 16,
                       .logical_bits = 128,
                       .start = 0,
                       .end = 0,
                       .align = 8,
                       .offset = AB_NONE,
                       .kind = AB_KIND_INPUT});
    add(p, (ab_tensor){.name = "#hash",
                       .size = 8,
                       .logical_bits = 60,
                       .start = 0,
                       .end = 2,
                       .align = 8,
                       .offset = 64,
                       .dtype = i4,
                       .ndim = 2,
                       .shape = shape});
    add(p, (ab_tensor){.name = "it's \"quoted\"",
                       .size = 64,
                       .logical_bits = 224,
                       .start = 1,
                       .end = 3,
                       .align = 32,
                       .offset = AB_NONE,
                       .dtype = f16,
                       .ndim = 3,
                       .shape = shape2});
    add(p, (ab_tensor){.name = "  spaced  ",
                       .size = 1,
                       .logical_bits = 8,
                       .start = 2,
                       .end = 4,
                       .align = 1,
                       .offset = AB_NONE,
                       .kind = AB_KIND_OUTPUT});
    add(p, (ab_tensor){.name = "null",
                       .size = 2,
                       .logical_bits = 16,
                       .start = 0,
                       .end = 9,
                       .align = 8,
                       .offset = 0});
    add(p, (ab_tensor){.name = "123",
                       .size = 3,
                       .logical_bits = 24,
                       .start = 5,
                       .end = 5,
                       .align = 8,
                       .offset = AB_NONE});
    add(p, (ab_tensor){.name = "- [x], {y}: *z &w !t",
                       .size = 4,
                       .logical_bits = 32,
                       .start = 5,
                       .end = 6,
                       .align = 8,
                       .offset = AB_NONE});
    add(p, (ab_tensor){.name = "ünïcode→名前",
                       .size = 5,
                       .logical_bits = 40,
                       .start = 6,
                       .end = 7,
                       .align = 8,
                       .offset = AB_NONE});
}

Test(suite, round_trips_every_field_and_odd_names) {
    ab_problem p, q;
    ab_error err;
    odd_problem(&p);
    char *dir = abt_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/out.yaml", dir);
    cr_assert_eq(abf_suite_write(&p, path, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(abf_suite_load(path, &q, &err), AB_OK, "%s\n%s", err.msg, abt_slurp(path, NULL));
    assert_problem_eq(&p, &q);
    /* one flow mapping per tensor */
    char *text = abt_slurp(path, NULL);
    const char *line = "\n- {name: '#hash', shape: [3, 5], dtype: int4, start: 0, end: 2, "
                       "offset: 64}\n";
    cr_assert(strstr(text, line) != NULL, "%s", text);
    free(text);
    ab_problem_free(&p);
    ab_problem_free(&q);
    free(dir);
}

Test(suite, round_trips_design_example) {
    ab_problem p, q;
    ab_error err;
    cr_assert_eq(abf_suite_load(abt_src("tests/data/suite/example.yaml"), &p, &err), AB_OK);
    char *dir = abt_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/out.yaml", dir);
    cr_assert_eq(abf_suite_write(&p, path, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(abf_suite_load(path, &q, &err), AB_OK, "%s", err.msg);
    assert_problem_eq(&p, &q);
    ab_problem_free(&p);
    ab_problem_free(&q);
    free(dir);
}

Test(suite, writes_to_stdout, .init = cr_redirect_stdout) {
    ab_problem p, q;
    ab_error err;
    odd_problem(&p);
    cr_assert_eq(abf_suite_write(&p, "-", &err), AB_OK, "%s", err.msg);
    fflush(stdout);
    FILE *f = cr_get_redirected_stdout();
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    cr_assert_eq(abf_suite_load_buffer("stdout", buf, n, &q, &err), AB_OK, "%s\n%s", err.msg, buf);
    assert_problem_eq(&p, &q);
    ab_problem_free(&p);
    ab_problem_free(&q);
}

Test(suite, write_fails_on_unwritable_path) {
    ab_problem p;
    ab_error err;
    odd_problem(&p);
    cr_assert_eq(abf_suite_write(&p, "/nonexistent/dir/out.yaml", &err), AB_EINPUT);
    cr_assert_str_eq(err.msg, "/nonexistent/dir/out.yaml: cannot open for writing: No such file "
                              "or directory");
    ab_problem_free(&p);
}

/* ---- allocation failures -------------------------------------------------------- */

static void fail_each_allocation(const char *yaml) {
    const char *path = abt_write_tmp(yaml, ".yaml");
    char saved[4096];
    snprintf(saved, sizeof saved, "%s", path);
    ab_problem good, p;
    ab_error err;
    ab_alloc_fail_at(0);
    cr_assert_eq(abf_suite_load(saved, &good, &err), AB_OK, "%s", err.msg);
    long count = ab_alloc_fail_at(0);
    cr_assert_gt(count, 5);
    for (long n = 1; n <= count; n++) {
        ab_alloc_fail_at(n);
        ab_status st = abf_suite_load(saved, &p, &err);
        ab_alloc_fail_at(0);
        cr_assert(st == AB_OK || st == AB_ENOMEM, "allocation %ld: status %d: %s", n, st, err.msg);
        if (st == AB_OK)
            assert_problem_eq(&good, &p);
        else
            cr_assert(problem_is_empty(&p), "allocation %ld left a half-loaded problem", n);
        ab_problem_free(&p);
    }
    ab_problem_free(&good);
}

Test(suite, survives_every_allocation_failure) {
    fail_each_allocation("suite: s\n"
                         "description: every field\n"
                         "io: workspace\n"
                         "capacity: 4096\n"
                         "tensors:\n"
                         "  - {name: a, size: 64, start: 0, end: 1, kind: input}\n"
                         "  - {name: bb, shape: [3, 5], dtype: int4, start: 1, end: 2}\n"
                         "  - {name: ccc, size: 8, start: 2, end: 3, offset: 16, align: 8}\n"
                         "  - {name: dddd, size: 9, start: 0, end: 3}\n"
                         "alignment: 4\n"
                         "expect: {lower_bound: 80, optimum: 90}\n");
}

Test(suite, survives_every_allocation_failure_with_aliases) {
    fail_each_allocation("suite: s\n"
                         "tensors:\n"
                         "  - &t {name: a, shape: &s [2, 3], dtype: &d int8, start: 0, end: 1}\n"
                         "  - {name: b, shape: *s, dtype: *d, start: 1, end: 2}\n"
                         "  - {name: c, shape: *s, dtype: *d, start: 1, end: 2}\n");
}
