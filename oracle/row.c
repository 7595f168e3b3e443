/*
 * row.c — a results row (row.h).
 */
#include "oracle/row.h"

#include <string.h>

void abo_row_init(abo_row *r) {
    memset(r, 0, sizeof *r);
    r->status = ABO_STATUS_OK;
    r->proven_by = ABO_PROOF_NONE;
    r->arena = r->lower_bound = r->k = r->ilp_objective = r->ilp_bound = AB_NONE;
    r->peak_rss = r->nodes = r->repeats = AB_NONE;
    r->wall_s = r->cpu_s = r->cpu_min_s = r->cpu_max_s = r->wall_min_s = r->wall_max_s = -1.0;
    r->plan_cpu_s = -1.0;
}
