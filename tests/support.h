/*
 * support.h — helpers shared by the Criterion tests: temporary files, running
 * the arenabench command, finding the shared data folder, results databases
 * for the report and compare tests.
 */
#ifndef AB_TEST_SUPPORT_H
#define AB_TEST_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct abs_store abs_store; /* results/store/store.h */

/* Writes content to a new file in a fresh temporary folder and returns its path
 * (static storage, valid until the next call from the same slot: use the
 * returned path before calling again, or copy it). suffix is e.g. ".yaml". */
const char *abt_write_tmp(const char *content, const char *suffix);

/* A fresh temporary folder (mkdtemp under $TMPDIR or /tmp); owned by the caller. */
char *abt_tmpdir(void);

/* Runs the built arenabench-test (arenabench with the tests' planners
 * registered: tests/arenabench_test_main.c) with the given argument string (passed through
 * /bin/sh, so quote as in a shell). Captures stdout and stderr into *out and
 * *err (owned by the caller, NUL-terminated; either pointer may be NULL).
 * Returns the exit code, or 128 + signal when it was killed. */
int abt_run(const char *args, char **out, char **err);

/* Runs arenabench-test with a printf-style argument string (through abt_run)
 * and returns the exit code; when it is not want, *why (if not NULL) gets a
 * message with the arguments, the code and both outputs (owned by the caller)
 * for the test's assertion. */
int abt_run_expect(int want, char **why, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* abt_run_expect, asserted in the calling test: the Criterion assertion
 * names the arguments, the exit code and the outputs. */
#define abt_run_ok(want, ...)                                                        \
    do {                                                                             \
        char *abt_why_ = NULL;                                                       \
        int abt_rc_ = abt_run_expect((want), &abt_why_, __VA_ARGS__);                \
        cr_assert_eq(abt_rc_, (want), "%s", abt_why_ ? abt_why_ : "");               \
        free(abt_why_);                                                              \
    } while (0)

/* Makes a FIFO at path and starts a child that opens it for writing (so it
 * waits for a reader) and writes head, then lines "# ...\n" of filler, until
 * total bytes are written or the reader closes its end. The handle is for
 * abt_fifo_writer_end. */
typedef struct abt_writer {
    int pid; /* the child */
    int fd;  /* where it sends its count */
} abt_writer;
abt_writer abt_fifo_writer(const char *path, const char *head, size_t total);

/* Waits for the writer of abt_fifo_writer and returns how many bytes it
 * wrote before the reader closed its end (total when the reader took all),
 * or -1 when it failed otherwise. No clock: it only waits for the child. */
long abt_fifo_writer_end(abt_writer w);

/* The path to a file of the source tree (static buffer, one at a time). */
const char *abt_src(const char *rel);

/* The shared data folder (../shared/data beside the source tree) or NULL when
 * it is absent: tests that need it call cr_skip with a message then. */
const char *abt_shared_data(void);

/* Reads a whole file; owned by the caller; NULL when it cannot be read. */
char *abt_slurp(const char *path, size_t *len);

/* true when the environment has AB_TEST_LONG=1 (`scripts/test.sh --long`):
 * property sweeps then run many more cases than in the default (CI) mode. */
bool abt_long(void);

/* The number of cases of a property sweep: normal by default, more with
 * AB_TEST_LONG=1. */
int abt_cases(int normal, int more);

/* ---- results databases (they assert with Criterion: tests only) ---------- */

/* The path of a results database not made yet, r.db in a fresh temporary
 * folder; owned by the caller (free). */
char *abt_db_path(void);

/* Opens the store at path with abs_open's flags (ABS_OPEN_CREATE,
 * ABS_OPEN_READONLY), asserting that it opens; the caller closes it. */
abs_store *abt_open_db(const char *path, unsigned flags);

/* Begins a run in s tagged tag at revision rev (either may be NULL), host
 * "box", command "arenabench run suites/", asserting that it begins; returns
 * its id. */
int64_t abt_begin(abs_store *s, const char *tag, const char *rev);

/* Stores a one-tensor suite called name with this text (a stand-in: the
 * report reads the stored figures), its max-load and lower bound both bound;
 * returns its id, asserted in the calling test. */
int64_t abt_put_suite(abs_store *s, const char *name, const char *text, int64_t bound);

#endif
