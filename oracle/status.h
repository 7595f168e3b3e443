/*
 * status.h — how a job ended, as a results row says it: the words the store
 * keeps (results/store/schema.sql's CHECK list), the report prints and
 * `compare` reads back. They are the oracle's: a status is a judgement on a
 * plan (valid, refused by the checker, proven not to fit) or on why there is
 * none, and the engine, the store and the report all take them from here.
 */
#ifndef ABO_STATUS_H
#define ABO_STATUS_H

#include <stdbool.h>

#define ABO_STATUSES(X)                                                        \
    X(ABO_STATUS_OK, "ok")                 /* a valid plan */                  \
    X(ABO_STATUS_INVALID, "invalid")       /* the checker refused it */        \
    X(ABO_STATUS_TIMEOUT, "timeout")       /* killed at the time limit */      \
    X(ABO_STATUS_CRASH, "crash")           /* died on a signal */              \
    X(ABO_STATUS_OOM, "oom")               /* ran out of memory */             \
    X(ABO_STATUS_OVER_CAPACITY, "over-capacity") /* a valid plan, but its      \
                                            arena exceeds the capacity (nothing \
                                            proved that no plan fits) */       \
    X(ABO_STATUS_INFEASIBLE, "infeasible") /* proven: no plan fits the         \
                                            capacity (certify.h: abo_refute) */ \
    X(ABO_STATUS_ERROR, "error")           /* any other failure */

#define ABO_STATUS_ENUM(id, word) id,
typedef enum abo_status { ABO_STATUSES(ABO_STATUS_ENUM) ABO_NSTATUSES } abo_status;
#undef ABO_STATUS_ENUM

/* The word of s ("timeout"), or "?" when out of range. Static strings. */
const char *abo_status_word(abo_status s);

/* The status called word, into *s; false when there is none. */
bool abo_status_parse(const char *word, abo_status *s);

#endif
