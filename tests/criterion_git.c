/*
 * criterion_git.c — a stand-in for libgit2 in the test programs, built as a
 * shared library under libgit2's own soname (CMakeLists.txt, ab_git_shim).
 *
 * Criterion 2.4 needs libgit2 only to diff the two sides of a failed
 * criterion/new assertion (these tests use the cr_assert_* forms), and it
 * calls three of its functions: git_libgit2_init, git_libgit2_shutdown and
 * git_diff_buffers. Yet each test runs in a process of its own (over 1,000
 * a run), and in each:
 *   - loading libgit2 and the 19 libraries it needs (TLS, SSH, Kerberos,
 *     HTTP, regex) took about 10 ms of CPU in a sanitized program (an empty
 *     program linked with and without them, perf stat -r 30);
 *   - git_libgit2_init parsed the system's whole CA certificate bundle, about
 *     17 ms more.
 * The test programs link this library, so the dynamic loader finds a library
 * of that soname already loaded when libcriterion asks for it, and loads
 * neither. Start and end do nothing; the first diff opens the real libgit2
 * (its path is fixed when the build is configured: AB_GIT2_REAL), starts it,
 * and hands it the diff.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#ifndef AB_GIT2_REAL
#error "AB_GIT2_REAL: the real libgit2's path, set by CMakeLists.txt"
#endif

int git_libgit2_init(void);
int git_libgit2_shutdown(void);
int git_diff_buffers(const void *old_buffer, size_t old_len, const char *old_path,
                     const void *new_buffer, size_t new_len, const char *new_path,
                     const void *options, void (*file_cb)(void), void (*binary_cb)(void),
                     void (*hunk_cb)(void), void (*line_cb)(void), void *payload);

int git_libgit2_init(void) { return 1; }
int git_libgit2_shutdown(void) { return 0; }

typedef int (*git_start_fn)(void);
typedef int (*git_diff_fn)(const void *, size_t, const char *, const void *, size_t,
                           const char *, const void *, void (*)(void), void (*)(void),
                           void (*)(void), void (*)(void), void *);

int git_diff_buffers(const void *old_buffer, size_t old_len, const char *old_path,
                     const void *new_buffer, size_t new_len, const char *new_path,
                     const void *options, void (*file_cb)(void), void (*binary_cb)(void),
                     void (*hunk_cb)(void), void (*line_cb)(void), void *payload) {
    static git_diff_fn diff;
    if (diff == NULL) {
        void *lib = dlopen(AB_GIT2_REAL, RTLD_NOW | RTLD_LOCAL);
        void *a = lib ? dlsym(lib, "git_libgit2_init") : NULL;
        void *b = lib ? dlsym(lib, "git_diff_buffers") : NULL;
        if (a == NULL || b == NULL) {
            fprintf(stderr, "criterion_git.c: cannot load %s for a diff: %s\n", AB_GIT2_REAL,
                    dlerror());
            return -1;
        }
        git_start_fn start;
        memcpy(&start, &a, sizeof start);
        if (start() < 0) return -1;
        memcpy(&diff, &b, sizeof diff);
    }
    return diff(old_buffer, old_len, old_path, new_buffer, new_len, new_path, options, file_cb,
                binary_cb, hunk_cb, line_cb, payload);
}
