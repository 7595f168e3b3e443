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
 *   planted      an optimum ABOVE the max-load bound, known by construction: one
 *                or more fragmentation gadgets (abf_gadgets) among random filler
 *                that never shares an instruction with them (see gen.c)
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
#include "planners/planner.h" /* ab_params: a generator spec is a planner spec's shape */

/* One parameter a generator takes, for validation and --help. */
typedef struct abf_gen_param {
    const char *key, *def, *help;
} abf_gen_param;

typedef struct abf_generator {
    const char *kind;
    const char *summary;
    const abf_gen_param *params; /* ends with {NULL} */
} abf_generator;

/* The generator table, ending with a row of NULLs. */
extern const abf_generator abf_generators[];

/* ---- the planted generator's gadgets -----------------------------------------------
 * A gadget is a handful of tensors (alignment 1, live ranges from instruction 0)
 * that cannot stack to their max-load: every placement leaves a hole, so their
 * optimum is strictly above it. Both figures are embedded with the data and
 * re-derived in tests/test_gen.c by the independent brute force
 * (tests/brute.h) and by oracle/bounds.h. */
#define ABF_GADGET_MAX 8 /* the most tensors in a gadget */

typedef struct abf_gadget_tensor {
    int64_t size, start, end; /* bytes (before scaling), inclusive live range */
} abf_gadget_tensor;

typedef struct abf_gadget {
    const char *name;
    size_t n;                              /* tensors used in t */
    abf_gadget_tensor t[ABF_GADGET_MAX];
    int64_t max_load;                      /* the largest load at one instruction */
    int64_t optimum;                       /* the smallest arena, > max_load */
} abf_gadget;

/* The gadget library, ending with a row whose name is NULL. */
extern const abf_gadget abf_gadgets[];

/* Expands kind with params (unknown keys rejected, naming the ones it takes)
 * into *p, initialised by the call. The suite is named name when not NULL,
 * else "<kind>-<params>". AB_EINPUT for a bad kind or value. */
ab_status abf_generate(const char *kind, const ab_params *params, const char *name,
                       ab_problem *p, ab_error *err);

#endif
