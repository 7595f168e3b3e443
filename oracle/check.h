/*
 * check.h — the overlap checker: the independent judge of every plan.
 *
 * It trusts nothing a planner says. Given a problem and a plan (entries naming
 * tensors by index), it runs these checks, in this order, and reports the
 * first verdict that fails, counting every problem it finds:
 *
 *   1. every entry names a tensor of the problem        (ABO_UNKNOWN)
 *   2. no tensor is placed twice                         (ABO_DUPLICATE)
 *   3. every tensor is placed                            (ABO_MISSING)
 *   4. offsets are >= 0 and multiples of the align        (ABO_MISALIGNED)
 *   5. fixed offsets are honoured                        (ABO_FIXED_MOVED)
 *   6. offset + size fits in int64                       (ABO_OVERFLOW)
 *   7. no two conflicting tensors share a byte           (ABO_OVERLAP)
 *   8. the arena fits the capacity, when one is set      (ABO_OVER_CAPACITY)
 *
 * Check 7 is a sweep over instructions with the live tensors kept ordered by
 * offset: O(n log n). Messages are collected, each on its own line, up to
 * ABO_MAX_MESSAGES; the count goes on past the cap.
 */
#ifndef AB_CHECK_H
#define AB_CHECK_H

#include "../core/problem.h"

#define ABO_VERDICTS(X)                                                 \
    X(ABO_OK, "ok", "the plan is valid")                                \
    X(ABO_UNKNOWN, "unknown-tensor", "a plan entry names no tensor")     \
    X(ABO_DUPLICATE, "duplicate", "a tensor is placed twice")            \
    X(ABO_MISSING, "missing-tensor", "a tensor has no offset")           \
    X(ABO_MISALIGNED, "misaligned", "an offset is negative or not a multiple of its align") \
    X(ABO_FIXED_MOVED, "fixed-moved", "a fixed offset was not honoured") \
    X(ABO_OVERFLOW, "overflow", "offset + size overflows 64 bits")       \
    X(ABO_OVERLAP, "overlap", "two conflicting tensors share bytes")     \
    X(ABO_OVER_CAPACITY, "over-capacity", "the arena exceeds the capacity")

typedef enum abo_verdict {
#define ABO_ENUM_(id, word, text) id,
    ABO_VERDICTS(ABO_ENUM_)
#undef ABO_ENUM_
    ABO_NVERDICTS
} abo_verdict;

/* A short word for the verdict ("overlap") and a sentence describing it. */
const char *abo_verdict_word(abo_verdict v);
const char *abo_verdict_text(abo_verdict v);

#define ABO_MAX_MESSAGES 8
#define ABO_MESSAGE_MAX 4096

typedef struct abo_report {
    abo_verdict verdict;     /* the first failing check, or ABO_OK */
    size_t nproblems;        /* every problem found (at least one overlap per pair found) */
    int64_t arena;           /* max(offset + size) over placed tensors; 0 when empty */
    /* For the first overlap found (verdict ABO_OVERLAP): */
    size_t overlap_a, overlap_b; /* tensor indices, a placed lower or equal */
    int64_t overlap_instr;   /* an instruction where both are live */
    char msg[ABO_MESSAGE_MAX]; /* the messages, one per line, capped */
} abo_report;

/* Checks plan against p and fills *r. Returns AB_OK when the check ran (the
 * verdict is in r, valid or not), AB_ENOMEM when it could not. */
ab_status abo_check(const ab_problem *p, const ab_plan *plan, abo_report *r, ab_error *err);

#endif
