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
 *   8. the arena fits the capacity, when one is set, and  (ABO_OVER_CAPACITY)
 *      with pools every tensor lies within its pool
 *
 * Pools (core/problem.h): with a suite's pools, an offset is an offset in the
 * pools' joint address space; a tensor belongs to the pool whose window holds
 * its offset; a tensor past the last pool counts in the last one, from its
 * base. Check 4 then takes the offset within that pool (offset - its base),
 * check 8 reports every tensor that runs past the end of a bounded pool or
 * lies past the last one, and the arena is the sum over pools of each pool's
 * used bytes (max(offset in pool + size) over its tensors), also given pool
 * by pool in pool_used. Two tensors in different pools never share a byte,
 * so check 7 compares the tensors of one pool only (a tensor at a negative
 * offset: the first pool's): one that runs past its pool's end into the next
 * pool's window is over capacity (check 8), not an overlap. Without pools
 * nothing changes: one implicit unbounded pool at 0, and the arena is
 * max(0, offset + size).
 *
 * Every check runs, whatever failed before it; checks 4 to 8 look at the
 * well-formed entries: the first entry of each tensor of the problem (an
 * unknown entry, a second placement of a tensor and a missing tensor take no
 * further part). Check 7 also leaves out a tensor whose offset + size
 * overflows; the arena is max(0, offset + size) over the same tensors (with
 * pools: summed pool by pool, see above).
 *
 * Check 7 is a sweep over instructions with the live tensors kept ordered by
 * offset: O(n log n). Tensors enter by start (ties by index) once every tensor
 * ending before that start has left; a tensor that shares bytes with a live one
 * is reported against the lowest such tensor and stays out, so the live set
 * stays disjoint. So overlaps count one per tensor that could not enter: a
 * plan has an overlap iff the count is >= 1, never more than the overlapping
 * pairs. The first one reported fills overlap_a/b/instr.
 *
 * Counting: one problem per unknown entry, per extra placement, per missing
 * tensor, and per tensor failing each of checks 4, 5, 6; one per tensor for
 * check 7 (above); for check 8 one for the capacity and one per tensor
 * outside its pool. Messages, one per problem in check order
 * (then entry or tensor order, then sweep order), "<verdict word>: <sentence>"
 * naming the tensor and the values, e.g.
 *
 *   overlap: 'conv1' [0, 802816) and 'pool1' [786432, 987136) are both live at
 *   instruction 3 and share bytes [786432, 802816)
 *
 * are kept up to ABO_MAX_MESSAGES lines, separated by '\n' (no final newline);
 * nproblems goes on counting past the cap. A tensor name longer than 100 bytes
 * is cut and ends in "..."; control bytes in names show as '?'.
 */
#ifndef AB_CHECK_H
#define AB_CHECK_H

#include "core/problem.h"

#define ABO_VERDICTS(X)                                                 \
    X(ABO_OK, "ok", "the plan is valid")                                \
    X(ABO_UNKNOWN, "unknown-tensor", "a plan entry names no tensor")     \
    X(ABO_DUPLICATE, "duplicate", "a tensor is placed twice")            \
    X(ABO_MISSING, "missing-tensor", "a tensor has no offset")           \
    X(ABO_MISALIGNED, "misaligned", "an offset is negative or not a multiple of its align") \
    X(ABO_FIXED_MOVED, "fixed-moved", "a fixed offset was not honoured") \
    X(ABO_OVERFLOW, "overflow", "offset + size overflows 64 bits")       \
    X(ABO_OVERLAP, "overlap", "two conflicting tensors share bytes")     \
    X(ABO_OVER_CAPACITY, "over-capacity", "the arena exceeds the capacity, or a tensor its pool")

typedef enum abo_verdict {
#define ABO_ENUM_(id, word, text) id,
    ABO_VERDICTS(ABO_ENUM_)
#undef ABO_ENUM_
    ABO_NVERDICTS
} abo_verdict;

/* A short word for the verdict ("overlap") and a sentence describing it. */
const char *abo_verdict_word(abo_verdict v);
const char *abo_verdict_text(abo_verdict v);

/* Whether a plan with verdict v packs its tensors (checks 1 to 7 pass: valid,
 * or only over the capacity or a pool), so its arena is a real packing's and
 * may be held to bounds and to a known optimum. */
bool abo_verdict_packs(abo_verdict v);

#define ABO_MAX_MESSAGES 8
#define ABO_MESSAGE_MAX 4096

typedef struct abo_report {
    abo_verdict verdict;     /* the first failing check, or ABO_OK; ABO_NVERDICTS
                                when abo_check did not return AB_OK */
    size_t nproblems;        /* every problem found (see "Counting" above) */
    int64_t arena;           /* max(offset + size) over placed tensors; 0 when empty;
                                with pools the sum of pool_used (INT64_MAX when that
                                passes 64 bits: only a plan over its pools can) */
    size_t npools;           /* the problem's pools (0 without pools) */
    int64_t pool_used[AB_MAX_POOLS]; /* with pools: pool k's used bytes, the largest
                                offset in pool + size of its tensors (0 if none) */
    /* The first overlap found, in sweep order, whatever the verdict (an earlier
     * check may have failed too); AB_NO_TENSOR and AB_NONE when there is none: */
    size_t overlap_a, overlap_b; /* tensor indices, a placed lower (equal: lower index) */
    int64_t overlap_instr;   /* an instruction where both are live (the later start) */
    char msg[ABO_MESSAGE_MAX]; /* the messages, one per line, capped */
} abo_report;

/* Checks plan against p and fills *r. Returns AB_OK when the check ran (the
 * verdict is in r, valid or not), AB_ENOMEM when it could not, AB_EINPUT when
 * a tensor of p is malformed (size < 1, align < 1 or start > end: the loaders
 * never make one, or p has more than AB_MAX_POOLS pools), AB_EINTERNAL when
 * the arena it counted (with pools: a pool's used bytes) is below the bytes
 * that check 7's disjoint tensors (in that pool) hold at one instruction (its
 * own arithmetic is wrong, so it gives no
 * verdict rather than a false arena: the arena of a plan is never below the
 * max-load bound of the tensors it places disjointly). Plan entries index
 * p's tensors. Allocates only scratch,
 * freed before it returns. */
ab_status abo_check(const ab_problem *p, const ab_plan *plan, abo_report *r, ab_error *err);

#endif
