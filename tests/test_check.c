/*
 * test_check.c — the overlap checker (oracle/check.c): a hand case for every
 * verdict with its message, the cap and the counting, allocation failures, and
 * thousands of seeded random plans (valid and mutated) judged against a plain
 * O(n^2) reference checker written here.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/check.h"
#include "tests/support.h"

/* ---- helpers ------------------------------------------------------------- */

static ab_problem P;
static ab_plan PL;

static void setup(void) {
    ab_problem_init(&P);
    ab_plan_init(&PL);
}

static void teardown(void) {
    ab_problem_free(&P);
    ab_plan_free(&PL);
}

TestSuite(check, .init = setup, .fini = teardown);

/* Adds tensor name (align 1, not fixed) to p; returns its index. */
static size_t add(ab_problem *p, const char *name, int64_t size, int64_t start, int64_t end) {
    ab_tensor t = {.name = (char *)name, .size = size, .logical_bits = size * 8,
                   .start = start, .end = end, .align = 1, .offset = AB_NONE};
    cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK);
    return p->n - 1;
}

/* Places tensor i at off (no name, no line). */
static void place(ab_plan *pl, size_t i, int64_t off) {
    cr_assert_eq(ab_plan_add(pl, i, off, NULL, 0, NULL), AB_OK);
}

/* Places tensor i at off, as read from plan line `line`. */
static void place_at_line(ab_plan *pl, size_t i, int64_t off, int line) {
    cr_assert_eq(ab_plan_add(pl, i, off, NULL, line, NULL), AB_OK);
}

/* Runs the checker, which must return AB_OK. */
static abo_report check(const ab_problem *p, const ab_plan *pl) {
    abo_report r;
    ab_error err;
    ab_error_clear(&err);
    ab_status st = abo_check(p, pl, &r, &err);
    cr_assert_eq(st, AB_OK, "abo_check: status %d: %s", st, err.msg);
    return r;
}

/* The number of lines in a report's messages (0 when empty). */
static size_t count_lines(const char *msg) {
    if (*msg == '\0') return 0;
    size_t n = 1;
    for (; *msg; msg++) n += *msg == '\n';
    return n;
}

/* Line k (0-based) of msg, copied into buf. */
static const char *line_of(const char *msg, size_t k, char *buf, size_t len) {
    for (; k > 0; k--) {
        msg = strchr(msg, '\n');
        cr_assert_not_null(msg, "fewer lines than expected");
        msg++;
    }
    size_t n = strcspn(msg, "\n");
    cr_assert_lt(n, len);
    memcpy(buf, msg, n);
    buf[n] = '\0';
    return buf;
}

#define ASSERT_MSG(r, k, text)                                                          \
    do {                                                                                \
        char line_[ABO_MESSAGE_MAX];                                                    \
        cr_assert_str_eq(line_of((r).msg, (k), line_, sizeof line_), (text),            \
                         "full messages:\n%s", (r).msg);                                \
    } while (0)

/* ---- valid plans ----------------------------------------------------------- */

Test(check, validates_empty_plan_of_empty_problem) {
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_OK);
    cr_assert_eq(r.nproblems, 0);
    cr_assert_eq(r.arena, 0);
    cr_assert_str_eq(r.msg, "");
    cr_assert_eq(r.overlap_a, AB_NO_TENSOR);
    cr_assert_eq(r.overlap_b, AB_NO_TENSOR);
    cr_assert_eq(r.overlap_instr, AB_NONE);
}

Test(check, validates_adjacent_byte_ranges) {
    place(&PL, add(&P, "a", 4, 0, 3), 0);
    place(&PL, add(&P, "b", 4, 0, 3), 4);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_OK, "%s", r.msg);
    cr_assert_eq(r.arena, 8);
}

Test(check, validates_disjoint_live_ranges_sharing_bytes) {
    place(&PL, add(&P, "a", 16, 0, 1), 0);
    place(&PL, add(&P, "b", 16, 2, 3), 0);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_OK, "%s", r.msg);
    cr_assert_eq(r.arena, 16);
}

Test(check, validates_tensors_listed_out_of_start_order) {
    place(&PL, add(&P, "late", 8, 5, 9), 0);
    place(&PL, add(&P, "early", 8, 0, 4), 0);
    place(&PL, add(&P, "long", 8, 0, 9), 8);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_OK, "%s", r.msg);
    cr_assert_eq(r.arena, 16);
}

Test(check, validates_fixed_offset_honoured) {
    size_t w = add(&P, "w", 64, 0, 3);
    P.t[w].offset = 1024;
    place(&PL, w, 1024);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_OK, "%s", r.msg);
    cr_assert_eq(r.arena, 1088);
}

Test(check, validates_arena_equal_to_capacity) {
    P.capacity = 32;
    place(&PL, add(&P, "a", 16, 0, 1), 0);
    place(&PL, add(&P, "b", 16, 0, 1), 16);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_OK, "%s", r.msg);
}

Test(check, validates_aligned_offsets) {
    size_t a = add(&P, "a", 3, 0, 0), b = add(&P, "b", 8, 0, 0);
    P.t[b].align = 8;
    place(&PL, a, 0);
    place(&PL, b, 8);
    cr_assert_eq(check(&P, &PL).verdict, ABO_OK);
}

/* ---- overlaps -------------------------------------------------------------- */

Test(check, invalidates_touching_live_ranges_sharing_bytes) {
    place(&PL, add(&P, "a", 16, 0, 2), 0);
    place(&PL, add(&P, "b", 16, 2, 5), 8);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_OVERLAP);
    cr_assert_eq(r.nproblems, 1);
    cr_assert_eq(r.overlap_a, 0);
    cr_assert_eq(r.overlap_b, 1);
    cr_assert_eq(r.overlap_instr, 2);
    ASSERT_MSG(r, 0, "overlap: 'a' [0, 16) and 'b' [8, 24) are both live at instruction 2 "
                     "and share bytes [8, 16)");
}

Test(check, reports_overlap_naming_tensors_instruction_and_bytes) {
    add(&P, "input", 150528, 0, 0);
    size_t conv1 = add(&P, "conv1", 802816, 1, 3);
    size_t pool1 = add(&P, "pool1", 200704, 3, 4);
    place(&PL, 0, 802816);
    place(&PL, pool1, 786432);
    place(&PL, conv1, 0);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_OVERLAP);
    cr_assert_eq(r.overlap_a, conv1);
    cr_assert_eq(r.overlap_b, pool1);
    cr_assert_eq(r.overlap_instr, 3);
    cr_assert_eq(r.arena, 987136);
    cr_assert_str_eq(r.msg, "overlap: 'conv1' [0, 802816) and 'pool1' [786432, 987136) are "
                            "both live at instruction 3 and share bytes [786432, 802816)");
}

Test(check, invalidates_nested_live_ranges_sharing_one_byte) {
    place(&PL, add(&P, "outer", 8, 0, 10), 0);
    place(&PL, add(&P, "inner", 8, 4, 5), 7);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_OVERLAP);
    cr_assert_eq(r.overlap_instr, 4);
    ASSERT_MSG(r, 0, "overlap: 'outer' [0, 8) and 'inner' [7, 15) are both live at "
                     "instruction 4 and share bytes [7, 8)");
}

Test(check, invalidates_later_tensor_placed_below_a_live_one) {
    place(&PL, add(&P, "high", 8, 0, 3), 16);
    place(&PL, add(&P, "low", 20, 1, 1), 0);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_OVERLAP);
    cr_assert_eq(r.overlap_a, 1, "a is the one placed lower");
    cr_assert_eq(r.overlap_b, 0);
    ASSERT_MSG(r, 0, "overlap: 'low' [0, 20) and 'high' [16, 24) are both live at "
                     "instruction 1 and share bytes [16, 20)");
}

Test(check, orders_an_equal_offset_pair_by_index) {
    place(&PL, add(&P, "second", 4, 3, 4), 0);
    place(&PL, add(&P, "first", 4, 0, 3), 0);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_OVERLAP);
    cr_assert_eq(r.overlap_a, 0);
    cr_assert_eq(r.overlap_b, 1);
    cr_assert_eq(r.overlap_instr, 3);
}

Test(check, invalidates_same_start_same_offset_pair) {
    place(&PL, add(&P, "x", 4, 2, 2), 0);
    place(&PL, add(&P, "y", 4, 2, 2), 0);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_OVERLAP);
    cr_assert_eq(r.overlap_a, 0);
    cr_assert_eq(r.overlap_b, 1);
    cr_assert_eq(r.overlap_instr, 2);
}

Test(check, keeps_a_live_tensor_when_an_offender_at_its_offset_ends) {
    place(&PL, add(&P, "a", 8, 0, 10), 0);
    place(&PL, add(&P, "b", 8, 1, 2), 0);  /* overlaps a, stays out */
    place(&PL, add(&P, "c", 8, 5, 6), 0);  /* b has ended: a must still be live */
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_OVERLAP);
    cr_assert_eq(r.nproblems, 2, "%s", r.msg);
    cr_assert_eq(r.overlap_b, 1);
    ASSERT_MSG(r, 1, "overlap: 'a' [0, 8) and 'c' [0, 8) are both live at instruction 5 "
                     "and share bytes [0, 8)");
}

Test(check, counts_one_overlap_per_tensor_that_cannot_enter) {
    place(&PL, add(&P, "p", 4, 0, 9), 0);
    place(&PL, add(&P, "q", 4, 0, 9), 4);
    place(&PL, add(&P, "r", 4, 0, 9), 8);
    place(&PL, add(&P, "big", 12, 5, 6), 2);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_OVERLAP);
    cr_assert_eq(r.nproblems, 1);
    cr_assert_eq(r.overlap_a, 0, "named against the lowest tensor it overlaps");
    cr_assert_eq(r.overlap_b, 3);
    ASSERT_MSG(r, 0, "overlap: 'p' [0, 4) and 'big' [2, 14) are both live at instruction 5 "
                     "and share bytes [2, 4)");
}

Test(check, reports_the_first_overlap_in_sweep_order) {
    place(&PL, add(&P, "late1", 8, 7, 8), 0);
    place(&PL, add(&P, "late2", 8, 8, 9), 0);
    place(&PL, add(&P, "early1", 8, 1, 2), 100);
    place(&PL, add(&P, "early2", 8, 2, 3), 104);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.nproblems, 2);
    cr_assert_eq(r.overlap_a, 2);
    cr_assert_eq(r.overlap_b, 3);
    cr_assert_eq(r.overlap_instr, 2);
    ASSERT_MSG(r, 1, "overlap: 'late1' [0, 8) and 'late2' [0, 8) are both live at "
                     "instruction 8 and share bytes [0, 8)");
}

/* ---- the other verdicts ------------------------------------------------------ */

Test(check, reports_unknown_tensor_with_plan_line) {
    place_at_line(&PL, add(&P, "a", 4, 0, 0), 0, 2);
    cr_assert_eq(ab_plan_add(&PL, AB_NO_TENSOR, 0, "zz", 7, NULL), AB_OK);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_UNKNOWN);
    cr_assert_eq(r.nproblems, 1);
    cr_assert_str_eq(r.msg, "unknown-tensor: plan line 7 names 'zz', not a tensor of the suite");
}

Test(check, reports_unknown_index_without_name_or_line) {
    place(&PL, add(&P, "a", 4, 0, 0), 0);
    place(&PL, 5, 0);
    cr_assert_eq(ab_plan_add(&PL, AB_NO_TENSOR, 0, NULL, 0, NULL), AB_OK);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_UNKNOWN);
    cr_assert_eq(r.nproblems, 2);
    ASSERT_MSG(r, 0, "unknown-tensor: plan entry 2 names tensor index 5, but the suite has "
                     "1 tensors");
    ASSERT_MSG(r, 1, "unknown-tensor: plan entry 3 names no tensor");
}

Test(check, reports_duplicate_with_both_lines) {
    size_t a = add(&P, "a", 4, 0, 0);
    size_t b = add(&P, "b", 4, 0, 0);
    place_at_line(&PL, a, 0, 3);
    place_at_line(&PL, b, 4, 5);
    place_at_line(&PL, a, 0, 9);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_DUPLICATE);
    cr_assert_eq(r.nproblems, 1);
    cr_assert_str_eq(r.msg, "duplicate: 'a' placed twice (lines 3 and 9)");
}

Test(check, reports_duplicate_without_lines_by_entry) {
    size_t a = add(&P, "a", 4, 0, 0);
    place(&PL, a, 0);
    place(&PL, a, 8);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_DUPLICATE);
    cr_assert_str_eq(r.msg, "duplicate: 'a' placed twice (plan entries 1 and 2)");
    cr_assert_eq(r.arena, 4, "the first entry is the one checked");
}

Test(check, checks_overlap_against_the_first_entry_of_a_duplicate) {
    size_t a = add(&P, "a", 4, 0, 0), b = add(&P, "b", 4, 0, 0);
    place(&PL, a, 0);
    place(&PL, a, 100);
    place(&PL, b, 0);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_DUPLICATE);
    cr_assert_eq(r.nproblems, 2);
    cr_assert_eq(r.overlap_a, a);
    cr_assert_eq(r.overlap_b, b);
}

Test(check, reports_missing_tensor) {
    place(&PL, add(&P, "b", 4, 0, 0), 0);
    add(&P, "a", 4, 0, 0);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_MISSING);
    cr_assert_eq(r.nproblems, 1);
    cr_assert_str_eq(r.msg, "missing-tensor: 'a' has no offset");
}

Test(check, computes_the_arena_over_placed_tensors_only) {
    place(&PL, add(&P, "small", 4, 0, 0), 0);
    add(&P, "huge", 1 << 20, 0, 0);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_MISSING);
    cr_assert_eq(r.arena, 4);
}

Test(check, reports_misaligned_offset) {
    size_t x = add(&P, "x", 8, 0, 0);
    P.t[x].align = 8;
    place(&PL, x, 12);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_MISALIGNED);
    cr_assert_str_eq(r.msg, "misaligned: 'x' offset 12 is not a multiple of its align 8");
    cr_assert_eq(r.arena, 20);
}

Test(check, reports_negative_offset) {
    place(&PL, add(&P, "x", 8, 0, 0), -4);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_MISALIGNED);
    cr_assert_str_eq(r.msg, "misaligned: 'x' offset -4 is negative");
    cr_assert_eq(r.arena, 4);
}

Test(check, reports_fixed_offset_moved) {
    size_t w = add(&P, "w", 64, 0, 3);
    P.t[w].offset = 1024;
    place(&PL, w, 0);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_FIXED_MOVED);
    cr_assert_str_eq(r.msg, "fixed-moved: 'w' must be at 1024 (fixed), plan puts it at 0");
}

Test(check, reports_offset_plus_size_overflow) {
    size_t x = add(&P, "x", 16, 0, 5);
    size_t y = add(&P, "y", 16, 0, 5);
    place(&PL, x, INT64_MAX - 8);
    place(&PL, y, 0);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_OVERFLOW);
    cr_assert_eq(r.nproblems, 1);
    cr_assert_str_eq(r.msg, "overflow: 'x' offset 9223372036854775799 + size 16 overflows 64 bits");
    cr_assert_eq(r.arena, 16, "an overflowing tensor has no end to count");
}

Test(check, reports_arena_over_capacity) {
    P.capacity = 1024;
    place(&PL, add(&P, "a", 1024, 0, 1), 0);
    place(&PL, add(&P, "b", 1024, 1, 2), 1024);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_OVER_CAPACITY);
    cr_assert_eq(r.arena, 2048);
    cr_assert_str_eq(r.msg, "over-capacity: arena 2048 exceeds capacity 1024");
}

/* ---- order, counting, the cap, names ----------------------------------------- */

Test(check, gives_the_first_failing_check_in_numbered_order) {
    size_t a = add(&P, "a", 8, 0, 3);
    size_t b = add(&P, "b", 8, 0, 3);
    size_t c = add(&P, "c", 8, 0, 3);
    add(&P, "gone", 8, 0, 3);
    P.t[c].align = 4;
    P.capacity = 8;
    place(&PL, b, 4);  /* overlaps a */
    place(&PL, a, 0);
    place(&PL, c, 18); /* misaligned */
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_MISSING);
    cr_assert_eq(r.nproblems, 4, "%s", r.msg);
    cr_assert_eq(count_lines(r.msg), 4);
    ASSERT_MSG(r, 0, "missing-tensor: 'gone' has no offset");
    ASSERT_MSG(r, 1, "misaligned: 'c' offset 18 is not a multiple of its align 4");
    ASSERT_MSG(r, 2, "overlap: 'a' [0, 8) and 'b' [4, 12) are both live at instruction 0 "
                     "and share bytes [4, 8)");
    ASSERT_MSG(r, 3, "over-capacity: arena 26 exceeds capacity 8");
    cr_assert_eq(r.overlap_a, a);
    cr_assert_eq(r.overlap_b, b);
}

Test(check, keeps_checking_well_formed_entries_after_an_unknown_one) {
    size_t a = add(&P, "a", 8, 0, 0), b = add(&P, "b", 8, 0, 0);
    cr_assert_eq(ab_plan_add(&PL, AB_NO_TENSOR, 0, "zz", 1, NULL), AB_OK);
    place(&PL, a, 0);
    place(&PL, b, 0);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_UNKNOWN);
    cr_assert_eq(r.nproblems, 2);
    cr_assert_eq(r.overlap_b, b);
}

Test(check, counts_a_tensor_once_per_failing_check) {
    size_t x = add(&P, "x", 8, 0, 0);
    P.t[x].align = 8;
    P.t[x].offset = 0;
    place(&PL, x, 3);
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_MISALIGNED);
    cr_assert_eq(r.nproblems, 2);
    ASSERT_MSG(r, 1, "fixed-moved: 'x' must be at 0 (fixed), plan puts it at 3");
}

Test(check, caps_messages_but_counts_every_problem) {
    for (int i = 0; i < 20; i++) {
        char name[16];
        snprintf(name, sizeof name, "m%d", i);
        size_t k = add(&P, name, 4, 0, 0);
        P.t[k].align = 4;
        place(&PL, k, 4 * i + 1);
    }
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_MISALIGNED);
    cr_assert_eq(r.nproblems, 20);
    cr_assert_eq(count_lines(r.msg), ABO_MAX_MESSAGES);
    cr_assert_neq(r.msg[strlen(r.msg) - 1], '\n', "no final newline");
    ASSERT_MSG(r, ABO_MAX_MESSAGES - 1,
               "misaligned: 'm7' offset 29 is not a multiple of its align 4");
}

Test(check, cuts_long_names_so_capped_messages_fit) {
    char name[5000];
    for (int i = 0; i < 40; i++) {
        memset(name, 'a' + i % 26, sizeof name - 1);
        name[sizeof name - 1] = '\0';
        snprintf(name + 4900, 100, "%d", i); /* unique */
        place(&PL, add(&P, name, 4, 0, 0), 0);
    }
    abo_report r = check(&P, &PL);
    cr_assert_eq(r.verdict, ABO_OVERLAP);
    cr_assert_eq(r.nproblems, 39);
    cr_assert_lt(strlen(r.msg), sizeof r.msg);
    cr_assert_eq(count_lines(r.msg), ABO_MAX_MESSAGES);
    char line[ABO_MESSAGE_MAX];
    line_of(r.msg, ABO_MAX_MESSAGES - 1, line, sizeof line);
    cr_assert(strstr(line, "...' [0, 4) and '") != NULL, "%s", line);
    cr_assert(strstr(line, "share bytes [0, 4)") != NULL, "each line stays whole: %s", line);
}

Test(check, shows_control_bytes_in_names_as_question_marks) {
    place(&PL, add(&P, "bad\nname", 4, 0, 0), 0);
    place(&PL, add(&P, "b", 4, 0, 0), 0);
    abo_report r = check(&P, &PL);
    cr_assert_eq(count_lines(r.msg), 1);
    cr_assert(strstr(r.msg, "'bad?name'") != NULL, "%s", r.msg);
}

Test(check, names_verdicts_from_the_table) {
    cr_assert_str_eq(abo_verdict_word(ABO_OK), "ok");
    cr_assert_str_eq(abo_verdict_word(ABO_OVERLAP), "overlap");
    cr_assert_str_eq(abo_verdict_word(ABO_MISSING), "missing-tensor");
    cr_assert_str_eq(abo_verdict_word(ABO_OVER_CAPACITY), "over-capacity");
    cr_assert_str_eq(abo_verdict_text(ABO_OVERLAP), "two conflicting tensors share bytes");
    cr_assert_str_eq(abo_verdict_word(ABO_NVERDICTS), "?");
    for (int v = 0; v < ABO_NVERDICTS; v++) {
        cr_assert_gt(strlen(abo_verdict_word((abo_verdict)v)), 0);
        cr_assert_gt(strlen(abo_verdict_text((abo_verdict)v)), 0);
        for (int u = 0; u < v; u++)
            cr_assert_str_neq(abo_verdict_word((abo_verdict)u), abo_verdict_word((abo_verdict)v));
    }
}

Test(check, rejects_a_malformed_problem) {
    size_t a = add(&P, "a", 4, 3, 1); /* start > end */
    place(&PL, a, 0);
    abo_report r;
    ab_error err;
    cr_assert_eq(abo_check(&P, &PL, &r, &err), AB_EINPUT);
    cr_assert_neq(r.verdict, ABO_OK);
    cr_assert(strstr(err.msg, "'a'") != NULL, "%s", err.msg);
}

/* ---- allocation failures ---------------------------------------------------- */

Test(check, returns_enomem_on_each_failed_allocation) {
    for (int i = 0; i < 50; i++) {
        char name[16];
        snprintf(name, sizeof name, "t%d", i);
        size_t k = add(&P, name, 4 + i % 5, i / 3, i / 3 + i % 4);
        place(&PL, k, (i * 7) % 40);
    }
    cr_assert_eq(ab_plan_add(&PL, AB_NO_TENSOR, 0, "zz", 1, NULL), AB_OK);
    ab_alloc_fail_at(0);
    abo_report r = check(&P, &PL);
    long calls = ab_alloc_fail_at(0);
    cr_assert_gt(calls, 0);
    cr_assert_eq(r.verdict, ABO_UNKNOWN);
    size_t nproblems = r.nproblems;
    for (long k = 1; k <= calls; k++) {
        ab_error err;
        ab_alloc_fail_at(k);
        ab_status st = abo_check(&P, &PL, &r, &err);
        ab_alloc_fail_at(0);
        cr_assert_eq(st, AB_ENOMEM, "allocation %ld of %ld failed, status %d", k, calls, st);
        cr_assert_eq(err.status, AB_ENOMEM);
        cr_assert_eq(r.verdict, ABO_NVERDICTS, "no verdict without a check");
    }
    ab_alloc_fail_at(calls + 1);
    r = check(&P, &PL);
    ab_alloc_fail_at(0);
    cr_assert_eq(r.nproblems, nproblems);
}

/* ---- random plans against an O(n^2) reference -------------------------------- */

/* splitmix64: a small seeded generator. */
static uint64_t rnd(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A number in [0, n), n >= 1. */
static int64_t below(uint64_t *s, int64_t n) { return (int64_t)(rnd(s) % (uint64_t)n); }

static bool shares_bytes(int64_t oa, int64_t sa, int64_t ob, int64_t sb) {
    return oa < ob + sb && ob < oa + sa;
}

/* What the reference checker finds. */
typedef struct ref_result {
    abo_verdict verdict;
    size_t others;      /* problems other than overlaps */
    size_t pairs;       /* overlapping conflicting pairs */
    int64_t arena;
} ref_result;

/* Records a failed check v in the reference; overlaps are counted apart. */
static void ref_fail(bool *fail, ref_result *rr, abo_verdict v) {
    fail[v] = true;
    if (v != ABO_OVERLAP) rr->others++;
}

/* The reference: each check written out directly, overlaps over all pairs. */
static ref_result ref_check(const ab_problem *p, const ab_plan *pl) {
    bool fail[ABO_NVERDICTS] = {false};
    ref_result rr = {0};
    size_t n = p->n;
    bool *placed = calloc(n + 1, sizeof *placed), *ranged = calloc(n + 1, sizeof *ranged);
    int64_t *off = calloc(n + 1, sizeof *off);
    cr_assert(placed && ranged && off);
    for (size_t k = 0; k < pl->n; k++) {
        size_t i = pl->v[k].tensor;
        if (i >= n) {
            ref_fail(fail, &rr, ABO_UNKNOWN);
        } else if (placed[i]) {
            ref_fail(fail, &rr, ABO_DUPLICATE);
        } else {
            placed[i] = true;
            off[i] = pl->v[k].offset;
        }
    }
    for (size_t i = 0; i < n; i++) {
        const ab_tensor *t = &p->t[i];
        if (!placed[i]) {
            ref_fail(fail, &rr, ABO_MISSING);
            continue;
        }
        if (off[i] < 0 || off[i] % t->align != 0) ref_fail(fail, &rr, ABO_MISALIGNED);
        if (t->offset != AB_NONE && off[i] != t->offset) ref_fail(fail, &rr, ABO_FIXED_MOVED);
        int64_t end;
        if (__builtin_add_overflow(off[i], t->size, &end)) {
            ref_fail(fail, &rr, ABO_OVERFLOW);
            continue;
        }
        ranged[i] = true;
        if (end > rr.arena) rr.arena = end;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (ranged[i] && ranged[j] && ab_conflict(&p->t[i], &p->t[j]) &&
                shares_bytes(off[i], p->t[i].size, off[j], p->t[j].size))
                rr.pairs++;
    if (rr.pairs) ref_fail(fail, &rr, ABO_OVERLAP);
    if (p->capacity != AB_NONE && rr.arena > p->capacity) ref_fail(fail, &rr, ABO_OVER_CAPACITY);
    rr.verdict = ABO_OK;
    for (int v = ABO_NVERDICTS - 1; v > 0; v--)
        if (fail[v]) rr.verdict = (abo_verdict)v;
    free(placed);
    free(ranged);
    free(off);
    return rr;
}

/* The offset the plan gives tensor i first (it must be placed). */
static int64_t first_offset(const ab_plan *pl, size_t i) {
    for (size_t k = 0; k < pl->n; k++)
        if (pl->v[k].tensor == i) return pl->v[k].offset;
    cr_assert_fail("tensor %zu is not placed", i);
    return 0;
}

/* Asserts that a and b really overlap at instruction t with the given byte ranges. */
static void assert_real_overlap(const ab_problem *p, const ab_plan *pl, size_t a, size_t b,
                                int64_t t, uint64_t seed) {
    cr_assert(a < p->n && b < p->n && a != b, "seed %" PRIu64 ": pair %zu, %zu", seed, a, b);
    const ab_tensor *ta = &p->t[a], *tb = &p->t[b];
    int64_t oa = first_offset(pl, a), ob = first_offset(pl, b);
    cr_assert(ab_conflict(ta, tb), "seed %" PRIu64 ": %s and %s do not conflict", seed,
              ta->name, tb->name);
    cr_assert(ta->start <= t && t <= ta->end && tb->start <= t && t <= tb->end,
              "seed %" PRIu64 ": instruction %" PRId64 " is not in both ranges", seed, t);
    cr_assert(shares_bytes(oa, ta->size, ob, tb->size), "seed %" PRIu64 ": no shared byte", seed);
    cr_assert(oa < ob || (oa == ob && a < b), "seed %" PRIu64 ": a is not placed lower", seed);
}

/* Parses every overlap line of r and checks each pair it names. */
static void assert_overlap_lines(const ab_problem *p, const ab_plan *pl, const abo_report *r,
                                 uint64_t seed) {
    size_t lines = count_lines(r->msg);
    for (size_t k = 0; k < lines; k++) {
        char line[ABO_MESSAGE_MAX];
        line_of(r->msg, k, line, sizeof line);
        if (strncmp(line, "overlap: ", 9) != 0) continue;
        size_t a, b;
        int64_t oa, ea, ob, eb, t, s0, s1;
        int got = sscanf(line,
                         "overlap: 't%zu' [%" SCNd64 ", %" SCNd64 ") and 't%zu' [%" SCNd64
                         ", %" SCNd64 ") are both live at instruction %" SCNd64
                         " and share bytes [%" SCNd64 ", %" SCNd64 ")",
                         &a, &oa, &ea, &b, &ob, &eb, &t, &s0, &s1);
        cr_assert_eq(got, 9, "seed %" PRIu64 ": unparsed line: %s", seed, line);
        assert_real_overlap(p, pl, a, b, t, seed);
        cr_assert_eq(oa, first_offset(pl, a));
        cr_assert_eq(ob, first_offset(pl, b));
        cr_assert_eq(ea, oa + p->t[a].size);
        cr_assert_eq(eb, ob + p->t[b].size);
        cr_assert_eq(s0, oa > ob ? oa : ob);
        cr_assert_eq(s1, ea < eb ? ea : eb);
        cr_assert_lt(s0, s1);
    }
}

/* Places every tensor of p at the lowest aligned offset above the tensors it
 * conflicts with that are already placed, in a random order. */
static void greedy_offsets(const ab_problem *p, int64_t *off, uint64_t *s) {
    size_t n = p->n;
    size_t *order = malloc((n + 1) * sizeof *order);
    bool *done = calloc(n + 1, sizeof *done);
    cr_assert(order && done);
    for (size_t i = 0; i < n; i++) order[i] = i;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)below(s, (int64_t)i), tmp = order[i - 1];
        order[i - 1] = order[j];
        order[j] = tmp;
    }
    for (size_t k = 0; k < n; k++) {
        size_t i = order[k];
        const ab_tensor *t = &p->t[i];
        int64_t o = 0;
        for (bool moved = true; moved;) {
            moved = false;
            for (size_t j = 0; j < n; j++) {
                if (!done[j] || !ab_conflict(t, &p->t[j]) ||
                    !shares_bytes(o, t->size, off[j], p->t[j].size))
                    continue;
                o = off[j] + p->t[j].size;
                o = (o + t->align - 1) / t->align * t->align;
                moved = true;
            }
        }
        off[i] = o;
        done[i] = true;
    }
    free(order);
    free(done);
}

/* Builds random case `seed` into P and PL: a valid plan, mutated when `mutate`. */
static void random_case(uint64_t seed, bool mutate) {
    uint64_t s = seed;
    size_t n = 1 + (size_t)below(&s, 60);
    int64_t ninstr = 1 + below(&s, (int64_t)n / 2 + 2);
    bool tiny = below(&s, 4) == 0;
    for (size_t i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "t%zu", i);
        int64_t start = below(&s, ninstr), kind = below(&s, 10), len;
        if (kind < 6) len = below(&s, 3);
        else if (kind < 9) len = below(&s, ninstr / 2 + 1);
        else len = ninstr - start;
        int64_t size = 1 + below(&s, tiny ? 4 : 32);
        size_t k = add(&P, name, size, start, start + len);
        P.t[k].align = (int64_t)1 << below(&s, 7);
    }
    int64_t *off = calloc(n, sizeof *off);
    cr_assert_not_null(off);
    greedy_offsets(&P, off, &s);
    int64_t arena = 0;
    for (size_t i = 0; i < n; i++) {
        if (off[i] + P.t[i].size > arena) arena = off[i] + P.t[i].size;
        if (below(&s, 20) == 0) P.t[i].offset = off[i];
    }
    if (below(&s, 10) == 0) P.capacity = arena - below(&s, 2);
    size_t *order = malloc(n * sizeof *order);
    cr_assert_not_null(order);
    for (size_t i = 0; i < n; i++) order[i] = i;
    if (below(&s, 2))
        for (size_t i = n; i > 1; i--) {
            size_t j = (size_t)below(&s, (int64_t)i), tmp = order[i - 1];
            order[i - 1] = order[j];
            order[j] = tmp;
        }
    int64_t what = mutate ? below(&s, 100) : -1;
    size_t victim = (size_t)below(&s, (int64_t)n);
    if (what >= 0 && what < 80) {
        int64_t a = P.t[victim].align, o = below(&s, arena + 16) / a * a;
        if (below(&s, 3) == 0 && a > 1) o += 1 + below(&s, a - 1);
        off[victim] = o;
    } else if (what >= 80 && what < 84) {
        off[victim] = -1 - below(&s, 8);
    } else if (what >= 84 && what < 87) {
        P.t[victim].align = 1; /* so the offset is aligned and the end overflows */
        off[victim] = INT64_MAX - below(&s, P.t[victim].size);
    }
    for (size_t k = 0; k < n; k++) {
        size_t i = order[k];
        if (what >= 87 && what < 91 && i == victim) continue; /* missing */
        place(&PL, i, off[i]);
        if (what >= 91 && what < 95 && i == victim) place(&PL, i, below(&s, arena + 1));
    }
    if (what >= 95) cr_assert_eq(ab_plan_add(&PL, AB_NO_TENSOR, 0, "zz", 0, NULL), AB_OK);
    free(order);
    free(off);
}

Test(check, agrees_with_the_reference_on_random_and_mutated_plans) {
    size_t valid = 0, invalid = 0, by_verdict[ABO_NVERDICTS] = {0};
    const uint64_t cases = (uint64_t)abt_cases(3000, 30000);
    for (uint64_t seed = 1; seed <= cases; seed++) {
        ab_problem_free(&P);
        ab_plan_free(&PL);
        random_case(seed, seed % 2 == 0);
        ref_result want = ref_check(&P, &PL);
        abo_report r = check(&P, &PL);
        cr_assert_eq(r.verdict, want.verdict, "seed %" PRIu64 ": verdict %s, reference %s\n%s",
                     seed, abo_verdict_word(r.verdict), abo_verdict_word(want.verdict), r.msg);
        cr_assert_eq(r.arena, want.arena, "seed %" PRIu64, seed);
        size_t overlaps = r.nproblems - want.others;
        cr_assert_geq(r.nproblems, want.others, "seed %" PRIu64, seed);
        cr_assert_leq(overlaps, want.pairs, "seed %" PRIu64, seed);
        cr_assert_eq(overlaps > 0, want.pairs > 0, "seed %" PRIu64, seed);
        if (want.pairs > 0) {
            assert_real_overlap(&P, &PL, r.overlap_a, r.overlap_b, r.overlap_instr, seed);
        } else {
            cr_assert_eq(r.overlap_a, AB_NO_TENSOR, "seed %" PRIu64, seed);
        }
        size_t shown_lines = r.nproblems < ABO_MAX_MESSAGES ? r.nproblems : ABO_MAX_MESSAGES;
        cr_assert_eq(count_lines(r.msg), shown_lines, "seed %" PRIu64 ":\n%s", seed, r.msg);
        assert_overlap_lines(&P, &PL, &r, seed);
        by_verdict[r.verdict]++;
        if (r.verdict == ABO_OK) valid++;
        else invalid++;
    }
    cr_log_info("random plans: %zu valid, %zu invalid (overlap %zu, misaligned %zu)", valid,
                invalid, by_verdict[ABO_OVERLAP], by_verdict[ABO_MISALIGNED]);
    cr_assert_gt(valid, 500, "valid %zu", valid);
    cr_assert_gt(invalid, 500, "invalid %zu", invalid);
    cr_assert_gt(by_verdict[ABO_OVERLAP], 300, "overlap %zu", by_verdict[ABO_OVERLAP]);
    cr_assert_gt(by_verdict[ABO_MISALIGNED], 100, "misaligned %zu", by_verdict[ABO_MISALIGNED]);
    for (int v = 1; v < ABO_NVERDICTS; v++)
        cr_assert_gt(by_verdict[v], 10, "verdict %s occurred %zu times", abo_verdict_word(v),
                     by_verdict[v]);
}

/* Places every tensor of p in a slot of its size class (a power of two >= 64)
 * that its last occupant has left, or a new slot on top: valid, O(n^2) here,
 * fine at test sizes. Tensors must have align <= 64. */
static void slot_offsets(const ab_problem *p, int64_t *off) {
    size_t n = p->n;
    size_t *last = malloc((n + 1) * sizeof *last); /* per slot: its last occupant */
    int64_t *slot_at = malloc((n + 1) * sizeof *slot_at);
    int *slot_class = malloc((n + 1) * sizeof *slot_class);
    size_t *order = malloc((n + 1) * sizeof *order);
    cr_assert(last && slot_at && slot_class && order);
    for (size_t i = 0; i < n; i++) order[i] = i;
    for (size_t i = 1; i < n; i++) /* insertion sort by start, ties by index */
        for (size_t k = i; k > 0 && p->t[order[k - 1]].start > p->t[order[k]].start; k--) {
            size_t tmp = order[k];
            order[k] = order[k - 1];
            order[k - 1] = tmp;
        }
    size_t nslots = 0;
    int64_t top = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = order[k];
        int c = 6;
        while (((int64_t)1 << c) < p->t[i].size) c++;
        size_t s = 0;
        while (s < nslots && (slot_class[s] != c || p->t[last[s]].end >= p->t[i].start)) s++;
        if (s == nslots) {
            slot_class[s] = c;
            slot_at[s] = top;
            top += (int64_t)1 << c;
            nslots++;
        }
        last[s] = i;
        off[i] = slot_at[s];
    }
    free(last);
    free(slot_at);
    free(slot_class);
    free(order);
}

Test(check, agrees_with_the_reference_on_large_random_plans) {
    size_t valid = 0, invalid = 0;
    const uint64_t cases = (uint64_t)abt_cases(30, 150);
    for (uint64_t seed = 1; seed <= cases; seed++) {
        ab_problem_free(&P);
        ab_plan_free(&PL);
        uint64_t s = seed * 7919;
        size_t n = seed <= 3 ? 5000 : 100 + (size_t)below(&s, 3000);
        int64_t ninstr = (int64_t)n / 4 + 1;
        for (size_t i = 0; i < n; i++) {
            char name[16];
            snprintf(name, sizeof name, "t%zu", i);
            int64_t start = below(&s, ninstr);
            int64_t len = below(&s, 10) == 0 ? below(&s, ninstr) : below(&s, 3);
            size_t k = add(&P, name, 1 + below(&s, 200), start, start + len);
            P.t[k].align = (int64_t)1 << below(&s, 7);
        }
        int64_t *off = calloc(n, sizeof *off);
        cr_assert_not_null(off);
        slot_offsets(&P, off);
        /* Most tensors move to their own place above the slots, so the
         * offsets are many and distinct (n = 5000: over 4096, three levels of
         * the checker's bitset) and the live ones lie far apart. */
        int64_t arena = 0;
        for (size_t i = 0; i < n; i++)
            if (off[i] + P.t[i].size > arena) arena = off[i] + P.t[i].size;
        arena = (arena + 63) / 64 * 64;
        for (size_t i = 0; i < n; i++) {
            if (below(&s, 10) >= (seed <= 3 ? 9 : 5)) continue;
            off[i] = arena;
            arena += (P.t[i].size + 63) / 64 * 64;
        }
        if (seed % 2 == 0) {
            for (int k = 0; k < 1 + (int)(seed % 5); k++) {
                size_t v = (size_t)below(&s, (int64_t)n), w = (size_t)below(&s, (int64_t)n);
                int64_t a = P.t[v].align;
                if (k % 2 == 0) { /* onto a tensor it conflicts with, if any */
                    while (w < n && (w == v || !ab_conflict(&P.t[v], &P.t[w]))) w++;
                    if (w < n) off[v] = (off[w] + a - 1) / a * a;
                } else {
                    off[v] = below(&s, arena) / a * a;
                }
            }
        }
        for (size_t i = 0; i < n; i++) place(&PL, i, off[i]);
        free(off);
        ref_result want = ref_check(&P, &PL);
        abo_report r = check(&P, &PL);
        cr_assert_eq(r.verdict, want.verdict, "seed %" PRIu64 ": verdict %s, reference %s\n%s",
                     seed, abo_verdict_word(r.verdict), abo_verdict_word(want.verdict), r.msg);
        cr_assert_eq(r.arena, want.arena, "seed %" PRIu64, seed);
        cr_assert_leq(r.nproblems, want.pairs, "seed %" PRIu64, seed);
        if (want.pairs > 0)
            assert_real_overlap(&P, &PL, r.overlap_a, r.overlap_b, r.overlap_instr, seed);
        assert_overlap_lines(&P, &PL, &r, seed);
        if (r.verdict == ABO_OK) valid++;
        else invalid++;
    }
    cr_log_info("large random plans: %zu valid, %zu invalid", valid, invalid);
    cr_assert_geq(valid, 12, "valid %zu", valid);
    cr_assert_geq(invalid, 12, "invalid %zu", invalid);
}

/* Small tensors at many distinct offsets early on, then big tensors covering
 * all of them, one at a time; mutated cases stretch or move small tensors'
 * live ranges into a big one's, so the clash is many slots away (the walks
 * across words and levels of the checker's bitset). */
Test(check, agrees_with_the_reference_when_big_tensors_cover_many_slots) {
    size_t valid = 0, invalid = 0;
    const uint64_t cases = (uint64_t)abt_cases(24, 120);
    for (uint64_t seed = 1; seed <= cases; seed++) {
        ab_problem_free(&P);
        ab_plan_free(&PL);
        uint64_t s = seed * 104729;
        size_t nsmall = seed <= 4 ? 6000 : 50 + (size_t)below(&s, 3000), nbig = 5;
        int64_t half = (int64_t)nsmall / 8 + 1, top = 0;
        int64_t *off = calloc(nsmall + nbig, sizeof *off);
        cr_assert_not_null(off);
        for (size_t i = 0; i < nsmall; i++) {
            char name[16];
            snprintf(name, sizeof name, "t%zu", i);
            int64_t start = below(&s, half);
            size_t k = add(&P, name, 1 + below(&s, 16), start, start + below(&s, 3));
            off[k] = top;
            top += P.t[k].size + below(&s, 3);
        }
        for (size_t b = 0; b < nbig; b++) {
            char name[16];
            snprintf(name, sizeof name, "t%zu", nsmall + b);
            int64_t start = half + 4 + 3 * (int64_t)b;
            size_t k = add(&P, name, top + 8, start, start + 1);
            off[k] = (int64_t)below(&s, 8);
        }
        if (seed % 2 == 0) {
            for (int k = 0; k < 1 + (int)(seed % 4); k++) {
                size_t v = (size_t)below(&s, (int64_t)nsmall);
                int64_t bstart = P.t[nsmall + (size_t)below(&s, (int64_t)nbig)].start;
                if (below(&s, 2) == 0) { /* from before the big one: found as successor */
                    P.t[v].end = bstart + below(&s, 2);
                } else { /* starts while it is live: found as predecessor */
                    P.t[v].start = bstart + below(&s, 2);
                    P.t[v].end = P.t[v].start + below(&s, 2);
                }
            }
        }
        for (size_t i = 0; i < nsmall + nbig; i++) place(&PL, i, off[i]);
        free(off);
        ref_result want = ref_check(&P, &PL);
        abo_report r = check(&P, &PL);
        cr_assert_eq(r.verdict, want.verdict, "seed %" PRIu64 ": verdict %s, reference %s\n%s",
                     seed, abo_verdict_word(r.verdict), abo_verdict_word(want.verdict), r.msg);
        cr_assert_leq(r.nproblems, want.pairs, "seed %" PRIu64, seed);
        if (want.pairs > 0)
            assert_real_overlap(&P, &PL, r.overlap_a, r.overlap_b, r.overlap_instr, seed);
        assert_overlap_lines(&P, &PL, &r, seed);
        if (r.verdict == ABO_OK) valid++;
        else invalid++;
    }
    cr_assert_geq(valid, 10, "valid %zu", valid);
    cr_assert_geq(invalid, 10, "invalid %zu", invalid);
}
