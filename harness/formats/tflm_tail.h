/*
 * tflm_tail.h — an ESTIMATE of TensorFlow Lite Micro's persistent ("tail")
 * arena section for a .tflite model, so that `plan --profile tflm` can print
 * head (the planned tensors) + tail = a suggested kTensorArenaSize.
 *
 * TFLM's MicroAllocator splits its one tensor arena in a head (the tensors
 * its memory planner places; what arenabench plans) and a tail of
 * persistent allocations (docs/memory_management.md in tflite-micro). This
 * file counts, from the model alone, what MicroAllocator and the reference
 * kernels put in the tail:
 *
 *   eval tensors   one TfLiteEvalTensor per tensor of subgraph 0, constants
 *                  included (MicroAllocator::AllocateTfLiteEvalTensors);
 *   nodes          one NodeAndRegistration per operator
 *                  (MicroAllocator::AllocateNodeAndRegistrations);
 *   op data        what each kernel's Init/Prepare asks with
 *                  AllocatePersistentBuffer, each rounded up to 16 bytes
 *                  (MicroArenaBufferAlignment()): its OpData struct and, for
 *                  CONV_2D and DEPTHWISE_CONV_2D, two int32 arrays (multiplier
 *                  and shift) per output channel (conv_common.cc);
 *   builtin data   the operator's parameters struct (TfLiteConvParams, ...)
 *                  from MicroBuiltinDataAllocator, aligned to 4;
 *   I/O tensors    the interpreter's persistent TfLiteTensor per graph input
 *                  and output, their pointer arrays and, when quantized, their
 *                  TfLiteAffineQuantization and zero-point array
 *                  (MicroInterpreter::AllocateTensors);
 *   allocator      MicroAllocator::GetDefaultTailUsage(): the allocator, the
 *                  arena allocator, GreedyMemoryPlanner, the builtin-data
 *                  allocator, SubgraphAllocations. APPROXIMATE (field counts
 *                  of those classes, not measured).
 *
 * The sum is rounded up to 16. Not counted, and said so by the command:
 *   - kernel scratch buffers (RequestScratchBufferInArena, e.g. CMSIS-NN's
 *     conv buffers): TFLM plans them in the HEAD with the tensors, so they
 *     raise the head, which arenabench does not model; their handles (a
 *     pointer each) would be in the tail;
 *   - op data of operator kinds without a row in tflm_tail.c (counted and
 *     named in abf_tflm_tail.unmodelled), custom operators, optimized
 *     kernels whose OpData differ from the reference ones;
 *   - the transient temp section used while AllocateTensors plans (about 40
 *     bytes a tensor), resource variables, compression metadata.
 * Variable tensors (is_variable) are in TFLM's tail; arenabench's tflm
 * profile plans them in the head over the whole graph, so their bytes are
 * reported (variables) but not added again.
 *
 * Sizes depend on the target: pointer_bytes 4 (a 32-bit MCU, Cortex-M, the
 * default) or 8 (a 64-bit host, where TFLM's own tests measure). Structs are
 * those of TFLM built with TF_LITE_STATIC_MEMORY (its default for MCUs), as
 * read in tflite-micro's sources of 2023-2025.
 */
#ifndef ABF_TFLM_TAIL_H
#define ABF_TFLM_TAIL_H

#include "harness/formats/tflite.h"

#define ABF_TFLM_MAX_KINDS 48 /* operator kinds listed in a breakdown (more: lumped) */

/* One operator kind of a model in the breakdown. */
typedef struct abf_tflm_kind {
    int32_t code;       /* BuiltinOperator */
    size_t count;       /* operators of this kind */
    int64_t op_data;    /* their kernel persistent buffers (0 when unmodelled) */
    int64_t builtin;    /* their builtin data */
    bool modelled;      /* the kind has a row in the table */
} abf_tflm_kind;

/* The estimate and its parts, in bytes. */
typedef struct abf_tflm_tail {
    int pointer_bytes;      /* 4 or 8 */
    size_t ntensors, nops;
    int64_t eval_tensor_size, node_size; /* sizeof(TfLiteEvalTensor), sizeof(NodeAndRegistration) */
    int64_t eval_tensors;   /* ntensors * eval_tensor_size */
    int64_t nodes;          /* nops * node_size */
    int64_t op_data;        /* kernels' persistent buffers, per-channel arrays included */
    int64_t per_channel;    /* of which the per-output-channel arrays */
    int64_t builtin_data;
    size_t nio, nio_quantized;
    int64_t io_tensors;     /* persistent TfLiteTensor, quantization, pointer arrays */
    int64_t allocator;      /* GetDefaultTailUsage (approximate) */
    int64_t total;          /* the sum above rounded up to 16 */
    size_t nvariables;
    int64_t variables;      /* variable tensors' buffers: in TFLM's tail, in the planned head here */
    size_t nunmodelled;     /* operators whose kind has no row: op data not counted */
    size_t nkinds;
    abf_tflm_kind kinds[ABF_TFLM_MAX_KINDS]; /* by first appearance */
} abf_tflm_tail;

/* Estimates the tail of subgraph 0 of m (parsed by abf_tflite_parse; the
 * conversion is not needed) for a target of pointer_bytes (4 or 8; anything
 * else is taken as 4) into *out. Pure arithmetic: no allocation, no failure. */
void abf_tflm_tail_estimate(const abf_tflite_model *m, int pointer_bytes, abf_tflm_tail *out);

/* Reads and parses the .tflite at path, then abf_tflm_tail_estimate. AB_EINPUT
 * (naming the path or the byte) when it cannot be read or parsed; AB_ENOMEM. */
ab_status abf_tflm_tail_of_file(const char *path, int pointer_bytes, abf_tflm_tail *out,
                                ab_error *err);

/* The schema's name of a BuiltinOperator code ("CONV_2D"), or NULL when the
 * table has no row for it. */
const char *abf_tflm_op_name(int32_t code);

#endif
