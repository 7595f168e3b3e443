/*
 * progress.h — progress of a run for the person watching: on a terminal one
 * live line (jobs done / total, failures, elapsed, ETA) redrawn in place;
 * elsewhere one line per finished job; nothing with quiet. Part of the
 * command layer: it prints, to the FILE it is given.
 */
#ifndef AB_PROGRESS_H
#define AB_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct abc_progress {
    FILE *out;
    bool tty, quiet;
    size_t total, done, failed;
    double t0, last_draw;
} abc_progress;

/* Starts a display of total jobs on out (a terminal gets the live line). */
void abc_progress_start(abc_progress *pr, size_t total, bool quiet, FILE *out);
/* Records a finished job; failed when its status is not ok. arena < 0 = none. */
void abc_progress_job(abc_progress *pr, const char *suite, const char *spec, const char *status,
                      int64_t arena, double seconds, bool failed);
/* Ends the display (the live line gets its final state and a newline). */
void abc_progress_end(abc_progress *pr);

#endif
