/*
 * planners_testing.h — planners that exist only for the tests (crash, abort,
 * hang, allocate without bound, overlap, fail, sleep, get worse on demand,
 * wait for a file).
 * They are compiled into the test programs, never into arenabench.
 */
#ifndef ABT_PLANNERS_TESTING_H
#define ABT_PLANNERS_TESTING_H

#include "planners/planner.h"

/* Registers the engine's planners and every test planner with the registry
 * (idempotent). Test binaries call it from a constructor (support.c), the
 * arenabench-test program from main. */
ab_status abt_register_test_planners(void);

#endif
