/*
 * file.h — reading a whole file into memory, the one way every loader does it
 * (suites, plans, MiniMalloc CSV, TFLite models).
 */
#ifndef AB_FILE_H
#define AB_FILE_H

#include "core/ab.h"

/* Reads the whole file at path ("-" = standard input) into *buf and its
 * length (without the NUL) into *len. The bytes are followed by a NUL, so
 * text can be used as a string; *buf is never NULL on success, even for an
 * empty file. The caller frees *buf with ab_free. On failure *buf is NULL,
 * *len 0, and err names the file ("<stdin>" for "-"):
 *   AB_EINPUT  "PATH: cannot open: REASON" or "PATH: cannot read: REASON"
 *              (REASON is strerror's, e.g. "No such file or directory")
 *   AB_ENOMEM  "PATH: out of memory reading" */
ab_status ab_read_file(const char *path, char **buf, size_t *len, ab_error *err);

#endif
