/*
 * planners.c — `arenabench planners`: every registered planner (the tests'
 * own left out), whether it is exact, and its parameters.
 */
#include <stdio.h>
#include <string.h>

#include "harness/cli/commands.h"
#include "planners/planner.h"

int abc_planners(const abc_args *a) {
    for (size_t i = 0; ab_planner_at(i) != NULL; i++) {
        const ab_planner *pl = ab_planner_at(i);
        if (pl->flags & AB_PLANNER_TEST) continue;
        printf("%-14s %s%s\n", pl->name, pl->flags & AB_PLANNER_EXACT ? "[exact] " : "",
               pl->summary);
        for (const ab_param_desc *d = pl->params; d && d->key; d++) {
            bool required = d->def == NULL || strstr(d->def, "required") != NULL;
            printf("    %s=%s (%s%s)\n        %s\n", d->key, d->values,
                   required ? "required" : "default ", required ? "" : d->def, d->help);
        }
    }
    return 0;
}
