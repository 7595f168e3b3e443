/*
 * file.c — reading a whole file (see file.h).
 */
#include "core/file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

enum { READ_CHUNK = 65536 };

/* Reads all of f into *buf (NUL-terminated) and *len; name is for messages. */
static ab_status read_stream(FILE *f, const char *name, char **buf, size_t *len, ab_error *err) {
    char *b = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (!ab_grow((void **)&b, &cap, n + READ_CHUNK + 1, 1)) {
            ab_free(b);
            return ab_fail(err, AB_ENOMEM, "%s: out of memory reading", name);
        }
        size_t got = fread(b + n, 1, cap - n - 1, f);
        n += got;
        if (got > 0) continue;
        if (!ferror(f)) break;
        int e = errno;
        ab_free(b);
        return ab_fail(err, AB_EINPUT, "%s: cannot read: %s", name,
                       e ? strerror(e) : "read error");
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    return AB_OK;
}

ab_status ab_read_file(const char *path, char **buf, size_t *len, ab_error *err) {
    *buf = NULL;
    *len = 0;
    if (strcmp(path, "-") == 0) return read_stream(stdin, "<stdin>", buf, len, err);
    errno = 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL) return ab_fail(err, AB_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    errno = 0;
    ab_status st = read_stream(f, path, buf, len, err);
    fclose(f);
    return st;
}
