/*
 * dtype.c — the element types a suite may give with `shape` + `dtype`.
 * Bits per element; sub-byte types are packed (bits summed per tensor).
 */
#include "core/problem.h"

#include <string.h>

static const ab_dtype dtypes[] = {
    {"bool", 8},     {"int2", 2},      {"uint2", 2},    {"int4", 4},     {"uint4", 4},
    {"int8", 8},     {"uint8", 8},     {"int16", 16},   {"uint16", 16},  {"float16", 16},
    {"bfloat16", 16}, {"int32", 32},   {"uint32", 32},  {"float32", 32}, {"int64", 64},
    {"uint64", 64},  {"float64", 64},  {"complex64", 64}, {"complex128", 128},
};

const ab_dtype *ab_dtype_find(const char *name) {
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
        if (strcmp(dtypes[i].name, name) == 0) return &dtypes[i];
    return NULL;
}

const ab_dtype *ab_dtype_at(size_t i) {
    return i < sizeof dtypes / sizeof dtypes[0] ? &dtypes[i] : NULL;
}
