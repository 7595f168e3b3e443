/*
 * test_slurm.c — runs across machines (scripts/slurm/, scripts/parallel/), for
 * real: an optional test. With Slurm (slurm-wlm, munge) installed and as root,
 * scripts/slurm/selftest.sh starts a one-node cluster on this machine, runs the
 * examples and peers suites once here and as an array job of 4 shards plus the
 * dependent merge job, and checks that the merged rows equal the single run's
 * (its exit code says so). With GNU parallel, scripts/parallel/nightly.sh runs 3
 * shards on this machine (--hosts :) and the merged rows are compared here with
 * a single run's. Without the tools, or not as root for Slurm, the tests skip
 * and say why. Deadlines are generous (10 min for the jobs); nothing asserts on
 * elapsed time.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support.h"

/* true when an executable named exe is on PATH or in /usr/sbin or /sbin (where
 * Debian puts slurmctld, slurmd and munged). */
static bool have(const char *exe) {
    const char *env = getenv("PATH");
    size_t n = strlen(env ? env : "") + 32;
    char *dirs = malloc(n);
    cr_assert_not_null(dirs);
    snprintf(dirs, n, "%s:/usr/sbin:/sbin", env ? env : "");
    bool found = false;
    char *save = NULL;
    for (char *d = strtok_r(dirs, ":", &save); d != NULL && !found; d = strtok_r(NULL, ":", &save)) {
        char path[4096];
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s", d, exe);
        found = stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && access(path, X_OK) == 0;
    }
    free(dirs);
    return found;
}

/* Runs a shell command, its stdout and stderr into *out (owned by the caller);
 * returns its exit code (-1 when it could not run). */
static int sh(const char *cmd, char **out) {
    char *dir = abt_tmpdir();
    cr_assert_not_null(dir);
    size_t n = strlen(cmd) + strlen(dir) + 64;
    char *full = malloc(n);
    cr_assert_not_null(full);
    snprintf(full, n, "( %s ) >'%s/log' 2>&1", cmd, dir);
    int status = system(full);
    char path[4096];
    snprintf(path, sizeof path, "%s/log", dir);
    *out = abt_slurp(path, NULL);
    if (*out == NULL) *out = strdup("");
    snprintf(full, n, "rm -rf '%s'", dir);
    (void)!system(full);
    free(full);
    free(dir);
    return status == -1 || !WIFEXITED(status) ? -1 : WEXITSTATUS(status);
}

Test(slurm, selftest_merged_rows_equal_a_single_run, .timeout = 1800) {
    const char *tools[] = {"sbatch", "scontrol", "sinfo", "slurmctld", "slurmd", "munged", "munge"};
    for (size_t i = 0; i < sizeof tools / sizeof *tools; i++)
        if (!have(tools[i]))
            cr_skip("Slurm is not installed (%s not found): apt-get install slurm-wlm munge to run "
                    "scripts/slurm/selftest.sh", tools[i]);
    if (!have("sqlite3")) cr_skip("sqlite3 is not installed: the selftest compares rows with it");
    if (geteuid() != 0) cr_skip("not root: scripts/slurm/selftest.sh starts munged, slurmctld and slurmd");
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "AB_SLURM_DEADLINE=600 '%s/scripts/slurm/selftest.sh' --shards 4 --bin '%s/arenabench' "
             "suites/examples suites/peers",
             AB_SOURCE_DIR, AB_BINARY_DIR);
    char *out = NULL;
    int rc = sh(cmd, &out);
    cr_assert_eq(rc, 0, "selftest.sh exited %d:\n%s", rc, out);
    cr_assert_not_null(strstr(out, "merged rows equal the single run's"), "%s", out);
    cr_assert_not_null(strstr(out, "array job"), "%s", out);
    free(out);
}

/* The rows that must not depend on where a job ran, one line each, sorted. */
static char *rows(const char *db) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "sqlite3 -separator '|' '%s' \"SELECT s.name, s.hash, r.spec, r.status, r.arena, "
             "r.lower_bound, r.k, r.ilp_status, r.ilp_objective, r.ilp_bound, r.proven_by, r.nodes, "
             "r.verdict, r.capped, r.plan FROM results r JOIN suites s ON s.id = r.suite "
             "ORDER BY s.name, s.hash, r.spec\"",
             db);
    char *out = NULL;
    int rc = sh(cmd, &out);
    cr_assert_eq(rc, 0, "%s: %s", cmd, out);
    return out;
}

Test(slurm, parallel_local_host_merged_rows_equal_a_single_run, .timeout = 1800) {
    if (!have("parallel")) cr_skip("GNU parallel is not installed (apt-get install parallel)");
    if (!have("sqlite3")) cr_skip("sqlite3 is not installed: the test compares rows with it");
    char *dir = abt_tmpdir();
    cr_assert_not_null(dir);
    char cmd[8192], *out = NULL;
    snprintf(cmd, sizeof cmd,
             "'%s/scripts/parallel/nightly.sh' --hosts : --shards 3 --bin '%s/arenabench' "
             "--out '%s/out' --db '%s/merged.db' --reports '%s/reports' suites/examples",
             AB_SOURCE_DIR, AB_BINARY_DIR, dir, dir, dir);
    int rc = sh(cmd, &out);
    cr_assert_eq(rc, 0, "parallel/nightly.sh exited %d:\n%s", rc, out);
    cr_assert_not_null(strstr(out, "3 shards merged"), "%s", out);
    free(out);
    /* The same run on one machine, with the nightly's planners and limits. */
    snprintf(cmd, sizeof cmd,
             "cd '%s' && full=0 && . scripts/nightly-args.sh && '%s/arenabench' run -q "
             "--db '%s/single.db' --tag \"$tag\" -j 2 \"${planners[@]}\" \"${limits[@]}\" suites/examples",
             AB_SOURCE_DIR, AB_BINARY_DIR, dir);
    char *bash = malloc(strlen(cmd) + 64);
    cr_assert_not_null(bash);
    sprintf(bash, "bash -c %s", "\"$AB_CMD\"");
    cr_assert_eq(setenv("AB_CMD", cmd, 1), 0);
    rc = sh(bash, &out);
    free(bash);
    cr_assert_eq(rc, 0, "the single run exited %d:\n%s", rc, out);
    free(out);
    char db[4096];
    snprintf(db, sizeof db, "%s/single.db", dir);
    char *single = rows(db);
    snprintf(db, sizeof db, "%s/merged.db", dir);
    char *merged = rows(db);
    cr_assert_gt(strlen(single), 0, "the single run has no rows");
    cr_assert_str_eq(merged, single, "merged rows:\n%s\nsingle run's rows:\n%s", merged, single);
    free(single);
    free(merged);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    (void)!system(cmd);
    free(dir);
}
