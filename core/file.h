/*
 * file.h — reading a whole file into memory, the one way every loader does it
 * (suites, plans, MiniMalloc CSV, TFLite models), never more than a limit.
 */
#ifndef AB_FILE_H
#define AB_FILE_H

#include "core/ab.h"

/* Reads the whole file at path ("-" = standard input) into *buf and its
 * length (without the NUL) into *len, reading at most max + 1 bytes whatever
 * the file is: a regular file, a pipe, a FIFO or a device (/dev/zero never
 * ends). The bytes are followed by a NUL, so text can be used as a string;
 * *buf is never NULL on success, even for an empty file. The caller frees
 * *buf with ab_free. A FIFO is opened as `cat` would: the call waits for its
 * writer (callers that walk folders skip what is not a regular file first).
 * On failure *buf is NULL, *len 0, and err names the file ("<stdin>" for "-"):
 *   AB_EINPUT  "PATH: cannot open: REASON" or "PATH: cannot read: REASON"
 *              (REASON is strerror's, e.g. "No such file or directory");
 *              "PATH: the file has N bytes, above the limit of MAX (NAME)"
 *              when a regular file's size is over max (nothing is read), or
 *              "PATH: the file has at least MAX+1 bytes, above the limit of
 *              MAX (NAME)" when reading found more than max bytes; NAME is
 *              max_name (what sets the limit), the parenthesis left out when
 *              max_name is NULL
 *   AB_ENOMEM  "PATH: out of memory reading" */
ab_status ab_read_file(const char *path, uint64_t max, const char *max_name, char **buf,
                       size_t *len, ab_error *err);

#endif
