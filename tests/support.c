/*
 * support.c — test helpers (see support.h).
 */
#include "tests/support.h"
#include "tests/planners_testing.h"

#include "core/file.h"
#include "results/store/store.h"

#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Every test program knows the engine's and the tests' planners, as the
 * arenabench-test program does, before any test runs. */
__attribute__((constructor)) static void register_planners(void) {
    if (abt_register_test_planners() != AB_OK) abort();
}

char *abt_tmpdir(void) {
    const char *base = getenv("TMPDIR");
    if (base == NULL || *base == '\0') base = "/tmp";
    size_t n = strlen(base) + 32;
    char *dir = malloc(n);
    if (dir == NULL) abort();
    snprintf(dir, n, "%s/abtest.XXXXXX", base);
    if (mkdtemp(dir) == NULL) abort();
    return dir;
}

const char *abt_write_tmp(const char *content, const char *suffix) {
    static char path[4096];
    char *dir = abt_tmpdir();
    snprintf(path, sizeof path, "%s/file%s", dir, suffix ? suffix : "");
    free(dir);
    FILE *f = fopen(path, "wb");
    if (f == NULL) abort();
    fwrite(content, 1, strlen(content), f);
    fclose(f);
    return path;
}

char *abt_slurp(const char *path, size_t *len) {
    char *buf;
    size_t n;
    /* The tests' outputs are small: 1 GiB bounds a runaway one. */
    if (ab_read_file(path, (uint64_t)1 << 30, NULL, &buf, &n, NULL) != AB_OK) return NULL;
    if (len) *len = n;
    return buf;
}

int abt_run(const char *args, char **out, char **err) {
    char *dir = abt_tmpdir();
    size_t n = strlen(args) + strlen(dir) * 2 + strlen(AB_BINARY_DIR) + 64;
    char *cmd = malloc(n);
    if (cmd == NULL) abort();
    snprintf(cmd, n, "%s/arenabench-test %s >%s/out 2>%s/err </dev/null", AB_BINARY_DIR, args, dir,
             dir);
    int status = system(cmd);
    free(cmd);
    char path[4096];
    snprintf(path, sizeof path, "%s/out", dir);
    char *o = abt_slurp(path, NULL);
    snprintf(path, sizeof path, "%s/err", dir);
    char *e = abt_slurp(path, NULL);
    if (out) *out = o; else free(o);
    if (err) *err = e; else free(e);
    free(dir);
    if (status == -1) return -1;
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    int code = WEXITSTATUS(status);
    return code;
}

int abt_run_expect(int want, char **why, const char *fmt, ...) {
    char args[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    char *out = NULL, *err = NULL;
    int rc = abt_run(args, &out, &err);
    if (why != NULL) *why = NULL;
    if (rc != want && why != NULL) {
        size_t n = strlen(args) + (out ? strlen(out) : 0) + (err ? strlen(err) : 0) + 64;
        *why = malloc(n);
        if (*why != NULL)
            snprintf(*why, n, "arenabench %s: exit %d\n%s%s", args, rc, out ? out : "",
                     err ? err : "");
    }
    free(out);
    free(err);
    return rc;
}

abt_writer abt_fifo_writer(const char *path, const char *head, size_t total) {
    if (mkfifo(path, 0600) != 0) abort();
    int fds[2]; /* the child's count of bytes written, back to the parent */
    if (pipe(fds) != 0) abort();
    pid_t pid = fork();
    if (pid < 0) abort();
    if (pid > 0) {
        close(fds[1]);
        return (abt_writer){(int)pid, fds[0]};
    }
    close(fds[0]);
    signal(SIGPIPE, SIG_IGN); /* EPIPE from write when the reader closes */
    long written = -1;
    int fd = open(path, O_WRONLY);
    if (fd >= 0) {
        char chunk[4096];
        memset(chunk, '#', sizeof chunk);
        for (size_t i = 63; i < sizeof chunk; i += 64) chunk[i] = '\n';
        size_t hn = strlen(head);
        written = 0;
        while ((size_t)written < total) {
            const char *src = (size_t)written < hn ? head + written : chunk;
            size_t n = (size_t)written < hn ? hn - (size_t)written : sizeof chunk;
            if (n > total - (size_t)written) n = total - (size_t)written;
            ssize_t w = write(fd, src, n);
            if (w < 0 && errno == EINTR) continue;
            if (w < 0) {
                if (errno != EPIPE) written = -1;
                break;
            }
            written += w;
        }
        close(fd);
    }
    if (write(fds[1], &written, sizeof written) != (ssize_t)sizeof written) _exit(1);
    _exit(0);
}

long abt_fifo_writer_end(abt_writer w) {
    pid_t pid = (pid_t)w.pid;
    int fd = w.fd;
    long written = -1;
    if (read(fd, &written, sizeof written) != (ssize_t)sizeof written) written = -1;
    close(fd);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return written;
}

const char *abt_src(const char *rel) {
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", AB_SOURCE_DIR, rel);
    return path;
}

const char *abt_shared_data(void) {
    static char path[4096];
    snprintf(path, sizeof path, "%s/../shared/data", AB_SOURCE_DIR);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) return NULL;
    return path;
}

bool abt_long(void) {
    const char *v = getenv("AB_TEST_LONG");
    return v != NULL && strcmp(v, "1") == 0;
}

int abt_cases(int normal, int more) { return abt_long() ? more : normal; }

char *abt_db_path(void) {
    char *dir = abt_tmpdir();
    size_t n = strlen(dir) + 16;
    char *p = malloc(n);
    cr_assert_not_null(p);
    snprintf(p, n, "%s/r.db", dir);
    free(dir);
    return p;
}

abs_store *abt_open_db(const char *path, unsigned flags) {
    abs_store *s;
    ab_error err;
    cr_assert_eq(abs_open(path, flags, &s, &err), AB_OK, "%s", err.msg);
    return s;
}

int64_t abt_put_suite(abs_store *s, const char *name, const char *text, int64_t bound) {
    abs_suite su;
    abs_suite_init(&su);
    su.name = name;
    su.text = text;
    su.text_len = strlen(text);
    su.tensors = 1;
    su.peak_live_bytes = su.lower_bound = bound;
    int64_t id;
    ab_error err;
    cr_assert_eq(abs_suite_put(s, &su, &id, &err), AB_OK, "%s", err.msg);
    return id;
}

int64_t abt_begin(abs_store *s, const char *tag, const char *rev) {
    abs_run info = {.tag = tag, .revision = rev, .host = "box",
                    .command = "arenabench run suites/"};
    int64_t id;
    ab_error err;
    cr_assert_eq(abs_run_begin(s, &info, &id, &err), AB_OK, "%s", err.msg);
    return id;
}
