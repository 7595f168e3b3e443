/*
 * model_import.h — what the model importers (tflite.c, onnx.c) share once a
 * model is parsed: printable names, the suite's name and the common tail of
 * its description, and the step that gives an imported tensor its live range
 * and kind.
 */
#ifndef ARENABENCH_HARNESS_FORMATS_MODEL_IMPORT_H
#define ARENABENCH_HARNESS_FORMATS_MODEL_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/problem.h"

/* A printable copy of the n bytes at s: control characters and bytes that are
 * not UTF-8 become \xNN. NULL on OOM or when 4n + 1 overflows. */
char *abf_clean_name(const uint8_t *s, size_t n);

/* The suite name for a model file: its base name without its extension,
 * cleaned; fallback when that is empty. NULL on OOM. */
char *abf_model_suite_name(const char *file, const char *fallback);

/* The model file's base name, cleaned, for a description. NULL on OOM. */
char *abf_model_file_label(const char *file);

/* What an importer counted while choosing the tensors it plans. */
typedef struct abf_model_counts {
    size_t nderived; /* computed from constants alone */
    size_t ndead;    /* never read, kept with end = start */
    size_t nunused;  /* left out: neither produced nor read */
    size_t nempty;   /* left out: zero bytes */
} abf_model_counts;

/* Appends the description's common tail to t: the counts above (the derived
 * ones as left out or kept by fold_constants), and which options gave the
 * `dims_word` dimensions ("dynamic", "symbolic") when any did. */
void abf_model_describe_tail(ab_buf *t, const abf_model_counts *c, bool fold_constants,
                             size_t ndims, int64_t assume_dynamic, const char *dims_word);

/* Sets a's live range and kind: inputs (and `whole` tensors) from step 0,
 * outputs (and `whole` ones) to last_op; others from their first use (last_op
 * when never produced) to their last (at least their start). Counts the input
 * or output in *nin or *nout. */
void abf_model_live_range(ab_tensor *a, bool input, bool output, bool whole, int64_t first,
                          int64_t last, int64_t last_op, size_t *nin, size_t *nout);

#endif
