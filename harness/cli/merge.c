/*
 * merge.c — `arenabench merge OUT.db IN.db...`: merges shard databases
 * (abh_cmd_merge, beside the run pipeline in cmd_run.c).
 */
#include "harness/cli/commands.h"
#include "harness/cli/fail.h"

int abc_merge(const abc_args *a) {
    if (a->noperands < 2)
        return abc_usage_error(a->cmd, "expected OUT.db and at least one IN.db");
    return abh_cmd_merge(a->operands[0], a->operands + 1, a->noperands - 1);
}
