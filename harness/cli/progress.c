/*
 * progress.c — the run's progress display (see progress.h).
 */
#include "core/buf.h"
#include "harness/cli/progress.h"

#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void abc_progress_start(abc_progress *pr, size_t total, bool quiet, FILE *out) {
    pr->out = out;
    pr->quiet = quiet;
    pr->tty = isatty(fileno(out)) == 1;
    pr->total = total;
    pr->done = pr->failed = 0;
    pr->t0 = now();
    pr->last_draw = 0;
}

static void draw_line(abc_progress *pr, double t) {
    double elapsed = t - pr->t0;
    fprintf(pr->out, "\r\033[K[%zu/%zu] %zu failed, %.1f s elapsed", pr->done, pr->total,
            pr->failed, elapsed);
    if (pr->done > 0 && pr->done < pr->total)
        fprintf(pr->out, ", ETA %.0f s",
                elapsed / (double)pr->done * (double)(pr->total - pr->done));
    fflush(pr->out);
    pr->last_draw = t;
}

void abc_progress_job(abc_progress *pr, const char *suite, const char *spec, const char *status,
                      int64_t arena, double seconds, bool failed) {
    pr->done++;
    pr->failed += failed;
    if (pr->quiet) return;
    double t = now();
    if (pr->tty) {
        if (t - pr->last_draw > 0.1 || pr->done == pr->total) draw_line(pr, t);
        return;
    }
    fprintf(pr->out, "[%zu/%zu] %s %s: %s", pr->done, pr->total, ab_term(suite), ab_term(spec), status);
    if (arena >= 0) fprintf(pr->out, ", arena %lld", (long long)arena);
    fprintf(pr->out, " (%.3f s)\n", seconds);
}

void abc_progress_end(abc_progress *pr) {
    if (pr->quiet || !pr->tty) return;
    draw_line(pr, now());
    fputc('\n', pr->out);
}
