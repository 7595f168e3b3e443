/*
 * planners.c — `arenabench planners`: every registered planner (the tests'
 * own left out), whether it is exact, and its parameters. The summaries
 * start in one column, past the longest name.
 */
#include <stdio.h>
#include <string.h>

#include "harness/cli/commands.h"
#include "planners/planner.h"

/* The length of the longest visible planner's name. */
static int name_width(void) {
    size_t w = 0;
    for (size_t i = 0; ab_planner_at(i) != NULL; i++) {
        const ab_planner *pl = ab_planner_at(i);
        if (!(pl->flags & AB_PLANNER_TEST) && strlen(pl->name) > w) w = strlen(pl->name);
    }
    return (int)w;
}

int abc_planners(const abc_args *a) {
    int width = name_width();
    for (size_t i = 0; ab_planner_at(i) != NULL; i++) {
        const ab_planner *pl = ab_planner_at(i);
        if (pl->flags & AB_PLANNER_TEST) continue;
        printf("%-*s  %s%s\n", width, pl->name, pl->flags & AB_PLANNER_EXACT ? "[exact] " : "",
               pl->summary);
        if (pl->flags & AB_PLANNER_DEFAULT)
            printf("    in run's default set%s%s\n", pl->also_default ? ", also with " : "",
                   pl->also_default ? pl->also_default : "");
        for (const ab_param_desc *d = pl->params; d && d->key; d++) {
            bool required = d->def == NULL || strstr(d->def, "required") != NULL;
            printf("    %s=%s (%s%s)\n        %s\n", d->key, d->values,
                   required ? "required" : "default ", required ? "" : d->def, d->help);
        }
    }
    return 0;
}
