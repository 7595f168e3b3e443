/*
 * external.h — the engine's planner `external` (external.c): any planner as a
 * program, through MiniMalloc's CSV protocol. It lives in the engine, not in
 * planners/, because it writes files and runs processes (through the engine's
 * one spawner), which planners never do.
 */
#ifndef ABE_EXTERNAL_H
#define ABE_EXTERNAL_H

#include "planners/planner.h"

extern const ab_planner abe_external;
extern const ab_planner abe_minizinc; /* minizinc.c: a MiniZinc model, solved by minizinc */

/* Registers the engine's planners (external, minizinc) with the planner registry, after
 * the planners' own table. Programs that run planners by name call it once at
 * start-up. Returns AB_OK, or AB_EINTERNAL when the registry refuses. */
ab_status abe_register_planners(void);

#endif
