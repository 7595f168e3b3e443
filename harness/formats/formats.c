/*
 * load.c — one entry point for every suite format (see load.h).
 */
#include "harness/formats/formats.h"

#include <string.h>

#include "harness/formats/minimalloc.h"
#include "harness/formats/suite.h"

ab_status abh_load_problem(const char *path, ab_problem *p, ab_error *err) {
    size_t len = strlen(path);
    if (len > 4 && strcmp(path + len - 4, ".csv") == 0)
        return abh_minimalloc_load(path, p, NULL, err);
    return abh_suite_load(path, p, err);
}
