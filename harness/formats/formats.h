/*
 * load.h — loads a problem from any file the commands accept as a suite:
 * suite YAML, or a MiniMalloc CSV (a name ending in .csv).
 */
#ifndef AB_LOAD_H
#define AB_LOAD_H

#include "core/problem.h"

/* Loads path into *p (initialised by the call; empty on failure): MiniMalloc
 * CSV when the name ends in ".csv", suite YAML otherwise. */
ab_status abh_load_problem(const char *path, ab_problem *p, ab_error *err);

#endif
