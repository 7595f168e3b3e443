/*
 * lsan_runner.c — in the sanitized test programs: no leak check at the exit
 * of Criterion's runner, the process that starts the tests' processes and
 * counts their verdicts.
 *
 * Every test runs in a worker process of its own, re-executed from the
 * program, where LeakSanitizer checks as everywhere; Criterion marks a worker
 * with BXFI_MAP in its environment. The runner runs Criterion's code and
 * the constructors every worker runs too (so their leaks are still seen).
 * Criterion 2.4's runner leaked a 48-byte block of its own (a calloc in
 * libcriterion, no frame of ours; which of its paths, not established) in
 * every full run of tests_engine once Slurm and GNU parallel were installed,
 * so that test_slurm.c's two long tests ran instead of skipping; never when
 * those two ran alone. A leak there is not ours to fix, and would fail the
 * program after every test passed. LeakSanitizer asks __lsan_is_turned_off
 * at exit.
 */
#include <stdlib.h>

int __lsan_is_turned_off(void);

int __lsan_is_turned_off(void) { return getenv("BXFI_MAP") == NULL; }
