/*
 * arenabench_test_main.c — the program `arenabench-test`: arenabench itself
 * (harness/cli/main.c's twin) with the tests' planners (planners_testing.c:
 * crash, hang, alloc-bomb, ...) registered, so the tests can drive the real
 * command line with planners that misbehave. Never installed.
 */
#include <stdio.h>

#include "harness/cli/commands.h"
#include "tests/planners_testing.h"

int main(int argc, char **argv) {
    if (abt_register_test_planners() != AB_OK) {
        fprintf(stderr, "arenabench: internal error: the planner registry refused a planner\n");
        return 3;
    }
    return abc_main(argc, argv);
}
