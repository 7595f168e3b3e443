/*
 * criterion_git.c — the test programs' stand-ins for libgit2's start and end.
 *
 * Criterion 2.4 starts libgit2 in every test's process, and libgit2's start
 * parses the system's whole CA certificate bundle: about 17 ms of CPU in a
 * sanitized process, and each test runs in a process of its own (over 1,000
 * a run). Criterion uses libgit2 only to diff the two sides of a failed
 * criterion/new assertion (these tests use the cr_assert_* forms). So these
 * definitions take the place of libgit2's start and end for the test
 * programs, and libgit2 is started for real at the first diff, if any.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

int git_libgit2_init(void) { return 1; }
int git_libgit2_shutdown(void) { return 0; }
int git_diff_buffers(const void *old_buffer, size_t old_len, const char *old_path,
                     const void *new_buffer, size_t new_len, const char *new_path,
                     const void *options, void (*file_cb)(void), void (*binary_cb)(void),
                     void (*hunk_cb)(void), void (*line_cb)(void), void *payload) {
    int (*start)(void) = NULL;
    int (*diff)(const void *, size_t, const char *, const void *, size_t, const char *,
                const void *, void (*)(void), void (*)(void), void (*)(void), void (*)(void),
                void *) = NULL;
    void *a = dlsym(RTLD_NEXT, "git_libgit2_init"), *b = dlsym(RTLD_NEXT, "git_diff_buffers");
    if (a == NULL || b == NULL) return -1;
    memcpy(&start, &a, sizeof start);
    memcpy(&diff, &b, sizeof diff);
    static int started;
    if (!started) started = start() > 0;
    return diff(old_buffer, old_len, old_path, new_buffer, new_len, new_path, options, file_cb,
                binary_cb, hunk_cb, line_cb, payload);
}
