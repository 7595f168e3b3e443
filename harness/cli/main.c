/*
 * main.c — the arenabench program: registers the engine's planners and runs
 * the command table (cli.c). The tests build the same program with their own
 * planners registered too (tests/arenabench_test_main.c).
 */
#include <stdio.h>

#include "harness/cli/commands.h"
#include "harness/engine/external.h"

int main(int argc, char **argv) {
    if (abe_register_planners() != AB_OK) {
        fprintf(stderr, "arenabench: internal error: the planner registry refused a planner\n");
        return 3;
    }
    return abc_main(argc, argv);
}
