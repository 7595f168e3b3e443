/*
 * file.c — reading a whole file (see file.h), bounded by a limit whatever
 * the file type: the size on disk is checked first when there is one (a
 * regular file), and the reading itself stops after max + 1 bytes, so a pipe,
 * a FIFO or /dev/zero cannot make the buffer grow past the limit.
 */
#include "core/file.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { READ_CHUNK = 65536 };

/* " (NAME)" or "" for the limit's messages. */
static void limit_suffix(char *out, size_t n, const char *max_name) {
    if (max_name != NULL) snprintf(out, n, " (%s)", max_name);
    else out[0] = '\0';
}

/* The capacity after cap for a buffer that must hold need bytes: doubled
 * (at least READ_CHUNK), never more than ceiling (max + 2: max + 1 bytes and
 * the NUL). 0 on overflow. */
static size_t next_cap(size_t cap, size_t need, size_t ceiling) {
    size_t c = cap < READ_CHUNK ? READ_CHUNK : cap;
    while (c < need && c <= SIZE_MAX / 2) c *= 2;
    if (c < need) return 0;
    return c > ceiling ? ceiling : c;
}

/* Reads at most max + 1 bytes of fd into *buf (NUL-terminated) and *len;
 * name is for messages. */
static ab_status read_fd(int fd, const char *name, uint64_t max, const char *max_name,
                         char **buf, size_t *len, ab_error *err) {
    /* max + 2 bytes hold max + 1 of the file and the NUL; max is clamped so
     * the sum fits a size_t. */
    size_t smax = max > SIZE_MAX - 2 ? SIZE_MAX - 2 : (size_t)max;
    size_t ceiling = smax + 2;
    char *b = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 1 >= cap) { /* room for one more byte and the NUL */
            size_t ncap = next_cap(cap, n + 2, ceiling);
            char *nb = ncap > cap ? ab_realloc(b, ncap) : NULL;
            if (nb == NULL) {
                ab_free(b);
                return ab_fail(err, AB_ENOMEM, "%s: out of memory reading", name);
            }
            b = nb;
            cap = ncap;
        }
        ssize_t got = read(fd, b + n, cap - n - 1);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            int e = errno;
            ab_free(b);
            return ab_fail(err, AB_EINPUT, "%s: cannot read: %s", name, strerror(e));
        }
        if (got == 0) break;
        n += (size_t)got;
        if (n > smax) {
            char what[128];
            limit_suffix(what, sizeof what, max_name);
            ab_free(b);
            return ab_fail(err, AB_EINPUT,
                           "%s: the file has at least %zu bytes, above the limit of %zu%s", name,
                           smax + 1, smax, what);
        }
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    return AB_OK;
}

ab_status ab_read_file(const char *path, uint64_t max, const char *max_name, char **buf,
                       size_t *len, ab_error *err) {
    *buf = NULL;
    *len = 0;
    if (strcmp(path, "-") == 0)
        return read_fd(STDIN_FILENO, "<stdin>", max, max_name, buf, len, err);
    int fd;
    do fd = open(path, O_RDONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) return ab_fail(err, AB_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    /* A regular file's size says it all before reading (fstat of the file
     * opened, so a symlink is followed); any other file is bounded by the
     * reading. */
    struct stat st;
    ab_status rc;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 &&
        (uint64_t)st.st_size > max) {
        char what[128];
        limit_suffix(what, sizeof what, max_name);
        rc = ab_fail(err, AB_EINPUT, "%s: the file has %jd bytes, above the limit of %" PRIu64 "%s",
                     path, (intmax_t)st.st_size, max, what);
    } else {
        rc = read_fd(fd, path, max, max_name, buf, len, err);
    }
    close(fd);
    return rc;
}
