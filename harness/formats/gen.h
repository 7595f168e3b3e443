/*
 * gen.h — synthetic and architecture-derived suites, expanded
 * deterministically from a kind and parameters (`arenabench gen`, and
 * `generate:` inside a suite file).
 *
 * Kinds (parameters in `arenabench gen --help`):
 *   chain        a straight line of layers, each output read by the next
 *   fanout       inception-like blocks: parallel branches joined by a concat
 *   resnet       residual blocks: the block input lives across the block (skip)
 *   unet         an encoder-decoder with long skips from each level down to up
 *   transformer  attention blocks: q, k, v, scores, softmax, projection, MLP
 *   random       live ranges and sizes drawn from distributions
 *   squeezenet, mobilenet_v1, mobilenet_v2, resnet18
 *                the published architectures at 224x224 (SqueezeNet 1.1), built
 *                from their layer lists, activations of `dtype` (default int8)
 *
 * Every graph is built operator by operator: a tensor is live from the
 * operator that writes it to the last operator that reads it (inclusive);
 * the network input has kind input, the final output kind output. The same
 * kind and parameters always give the same suite (splitmix64 from `seed`).
 */
#ifndef AB_GEN_H
#define AB_GEN_H

#include "core/problem.h"

/* One parameter a generator takes, for validation and --help. */
typedef struct abh_gen_param {
    const char *key, *def, *help;
} abh_gen_param;

typedef struct abh_generator {
    const char *kind;
    const char *summary;
    const abh_gen_param *params; /* ends with {NULL} */
} abh_generator;

/* The generator table, ending with a row of NULLs. */
extern const abh_generator abh_generators[];

/* Expands kind with params (unknown keys rejected, naming the ones it takes)
 * into *p, initialised by the call. The suite is named name when not NULL,
 * else "<kind>-<params>". AB_EINPUT for a bad kind or value. */
ab_status abh_generate(const char *kind, const ab_params *params, const char *name,
                       ab_problem *p, ab_error *err);

#endif
