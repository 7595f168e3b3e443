/*
 * tflm_tail.c — the estimate of TensorFlow Lite Micro's persistent (tail)
 * arena section (tflm_tail.h says what it counts and what it does not).
 *
 *   1. the sizes of TFLM's runtime structs, for a 32-bit and a 64-bit target;
 *   2. the table of operator kinds: each kernel's persistent op data and
 *      builtin data;
 *   3. the estimate: a sum of allocations, each rounded to its alignment.
 *
 * Every size names the struct and the tflite-micro file it comes from. Rows
 * marked "read" were checked against the struct in tflite-micro's sources
 * (2023-2025); rows marked "approx." follow the kernel's struct by its fields
 * without that check and may be off by a few words. A kernel allocation is
 * AllocatePersistentBuffer(bytes), which TFLM aligns to
 * MicroArenaBufferAlignment() = 16 (micro_arena_constants.h), so each costs
 * its size rounded up to 16; builtin data comes from MicroBuiltinDataAllocator
 * with the struct's own alignment (4).
 */
#include "harness/formats/tflm_tail.h"
#include "harness/formats/formats.h"

#include "core/ab.h"

#include <string.h>

/* ==== 1. runtime structs ======================================================== */

/* Sizes in bytes for a target: [0] 32-bit pointers, [1] 64-bit pointers.
 * All from tensorflow/lite/core/c/common.h (TF_LITE_STATIC_MEMORY variants)
 * and tensorflow/lite/micro/micro_allocator.h. */
typedef struct target_sizes {
    /* TfLiteEvalTensor { TfLitePtrUnion data; TfLiteIntArray *dims; TfLiteType
     * type; }: 3 words on 32-bit; 8 + 8 + 4 padded to 24 on 64-bit (TFLM's
     * memory_management.md shows 360 bytes for 15 on x86-64). */
    int64_t eval_tensor;
    /* NodeAndRegistration { TfLiteNode node; const TFLMRegistration *reg; };
     * TfLiteNode: inputs, outputs, intermediates, user_data, builtin_data,
     * custom_initial_data (6 pointers) and int custom_initial_data_size:
     * 28 + 4 on 32-bit, 52 padded to 56 + 8 on 64-bit. */
    int64_t node;
    /* TfLiteTensor (static memory): TfLiteQuantization {type, params*},
     * TfLiteQuantizationParams {scale, zero_point}, data*, dims*, size_t
     * bytes, type, allocation_type, bool is_variable: 37 -> 40 on 32-bit,
     * 57 -> 64 on 64-bit (threshold test: 128 bytes for 2 tensors on x86-64). */
    int64_t tflite_tensor;
    /* TfLiteAffineQuantization { TfLiteFloatArray *scale; TfLiteIntArray
     * *zero_point; int32_t quantized_dimension; } */
    int64_t affine_quantization;
    int64_t pointer, align; /* a pointer; the alignment of the structs above */
    /* MicroAllocator::GetDefaultTailUsage(false): SingleArenaBufferAllocator
     * (two vtables, five pointers, a count, a flag), MicroAllocator (a vtable,
     * four pointers, a flag, two sizes, a pointer), MicroBuiltinDataAllocator
     * (a vtable, a pointer), SubgraphAllocations (two pointers) and
     * GreedyMemoryPlanner (a vtable, six pointers, three ints, a flag).
     * APPROXIMATE: counted from the classes' fields, not measured. */
    int64_t allocator;
} target_sizes;

static const target_sizes targets[2] = {
    {.eval_tensor = 12, .node = 32, .tflite_tensor = 40, .affine_quantization = 12,
     .pointer = 4, .align = 4, .allocator = 136},
    {.eval_tensor = 24, .node = 64, .tflite_tensor = 64, .affine_quantization = 24,
     .pointer = 8, .align = 8, .allocator = 256},
};

#define KERNEL_ALIGN 16 /* MicroArenaBufferAlignment(), micro_arena_constants.h */
#define BUILTIN_ALIGN 4 /* alignof the builtin params structs (ints, floats, bools) */

/* ==== 2. operator kinds ========================================================= */

/* BuiltinOperator codes (tensorflow/lite/schema/schema.fbs). */
enum {
    OP_ADD = 0, OP_AVERAGE_POOL_2D = 1, OP_CONCATENATION = 2, OP_CONV_2D = 3,
    OP_DEPTHWISE_CONV_2D = 4, OP_DEQUANTIZE = 6, OP_FULLY_CONNECTED = 9, OP_LOGISTIC = 14,
    OP_MAX_POOL_2D = 17, OP_MUL = 18, OP_RELU = 19, OP_RELU6 = 21, OP_RESHAPE = 22,
    OP_SOFTMAX = 25, OP_SVDF = 27, OP_TANH = 28, OP_PAD = 34, OP_MEAN = 40, OP_SUB = 41,
    OP_STRIDED_SLICE = 45, OP_PRELU = 54, OP_LEAKY_RELU = 98, OP_QUANTIZE = 114,
    OP_HARD_SWISH = 117
};

/* A kernel's persistent allocations: op data (the struct its Init allocates,
 * for 32- and 64-bit targets; 0: none), per-channel arrays (the filter
 * dimension that counts output channels, -1: none) and builtin data (the
 * params struct the flatbuffer parser allocates; 0: none). */
typedef struct kind_row {
    int32_t code;
    const char *name;
    int64_t op_data[2];
    int channel_dim;
    int64_t builtin;
} kind_row;

static const kind_row kinds[] = {
    /* read: OpDataConv (micro/kernels/conv.h): TfLitePaddingValues (4 ints), 3
     * zero points, multiplier, shift, 2 per-channel pointers, activation min
     * and max, filter_buffer_index. Prepare (conv_common.cc) allocates
     * per_channel_output_multiplier and _shift, num_channels int32 each,
     * num_channels = filter dims[0]. TfLiteConvParams (c/builtin_op_data.h):
     * padding, 2 strides, activation, 2 dilations, quantized_bias_type. */
    {OP_CONV_2D, "CONV_2D", {56, 72}, 0, 28},
    /* read: the same OpDataConv (micro/kernels/depthwise_conv.h) and arrays,
     * channels = filter dims[3]; TfLiteDepthwiseConvParams: padding, 2
     * strides, depth_multiplier, activation, 2 dilations. */
    {OP_DEPTHWISE_CONV_2D, "DEPTHWISE_CONV_2D", {56, 72}, 3, 28},
    /* read: OpDataFullyConnected (micro/kernels/fully_connected.h): 8 int32;
     * TfLiteFullyConnectedParams: activation, weights_format, 2 bools,
     * quantized_bias_type. */
    {OP_FULLY_CONNECTED, "FULLY_CONNECTED", {32, 32}, -1, 16},
    /* read: OpDataPooling (micro/kernels/pooling.h): TfLitePaddingValues, 2
     * int32, 2 float; TfLitePoolParams: padding, 2 strides, 2 filter sizes,
     * activation, computed TfLitePaddingValues. */
    {OP_AVERAGE_POOL_2D, "AVERAGE_POOL_2D", {32, 32}, -1, 40},
    {OP_MAX_POOL_2D, "MAX_POOL_2D", {32, 32}, -1, 40},
    /* read: OpDataAdd (micro/kernels/add.h): a bool and 14 int32/float;
     * TfLiteAddParams: activation, pot_scale_int16. */
    {OP_ADD, "ADD", {60, 60}, -1, 8},
    /* approx.: OpDataSub (micro/kernels/sub.h), laid out as OpDataAdd;
     * TfLiteSubParams: activation, pot_scale_int16. */
    {OP_SUB, "SUB", {60, 60}, -1, 8},
    /* approx.: OpDataMul (micro/kernels/mul.h): 9 int32/float;
     * TfLiteMulParams: activation. */
    {OP_MUL, "MUL", {36, 36}, -1, 4},
    /* approx.: SoftmaxParams (kernels/internal/types.h): double beta, 3 int32,
     * zero_point, scale and 5 table pointers; TfLiteSoftmaxParams: beta. */
    {OP_SOFTMAX, "SOFTMAX", {48, 72}, -1, 4},
    /* read: RESHAPE allocates no op data; TfLiteReshapeParams: int shape[8],
     * num_dimensions. */
    {OP_RESHAPE, "RESHAPE", {0, 0}, -1, 36},
    /* approx.: OpData { ConcatenationParams } (micro/kernels/concatenation.cc):
     * axis, 2 pointers, count, zero point, scale; TfLiteConcatenationParams:
     * axis, activation. */
    {OP_CONCATENATION, "CONCATENATION", {24, 40}, -1, 8},
    /* approx.: OpDataQuantizeReference (micro/kernels/quantize.h) and
     * DequantizeOpData (micro/kernels/dequantize.h): QuantizationParams
     * (int32 + double) and 3 int32; no builtin data. */
    {OP_QUANTIZE, "QUANTIZE", {32, 32}, -1, 0},
    {OP_DEQUANTIZE, "DEQUANTIZE", {32, 32}, -1, 0},
    /* approx.: OpDataLogistic, the tanh OpData, ReluOpData and Relu6OpData
     * (micro/kernels/activations.h, logistic.h, tanh.cc): 4 int32 each. */
    {OP_LOGISTIC, "LOGISTIC", {16, 16}, -1, 0},
    {OP_TANH, "TANH", {16, 16}, -1, 0},
    {OP_RELU, "RELU", {16, 16}, -1, 0},
    {OP_RELU6, "RELU6", {16, 16}, -1, 0},
    /* approx.: LeakyReluOpData (micro/kernels/leaky_relu.h): 5 int32;
     * TfLiteLeakyReluParams: alpha. */
    {OP_LEAKY_RELU, "LEAKY_RELU", {20, 20}, -1, 4},
    /* approx.: PreluParams (kernels/internal/types.h): 7 int32. */
    {OP_PRELU, "PRELU", {28, 28}, -1, 0},
    /* approx.: HardSwishParams (kernels/internal/types.h): 4 int16, 2 int. */
    {OP_HARD_SWISH, "HARD_SWISH", {16, 16}, -1, 0},
    /* approx.: OpData { PadParams; output_zero_point } (micro/kernels/pad.cc):
     * 2 counts, 2 x 5 int32, a category, a zero point. */
    {OP_PAD, "PAD", {56, 56}, -1, 0},
    /* approx.: OpDataReduce (micro/kernels/reduce.h): 2 scratch indices and 6
     * int32/float; TfLiteReducerParams: keep_dims. */
    {OP_MEAN, "MEAN", {32, 32}, -1, 4},
    /* approx.: StridedSliceParams (kernels/internal/types.h): 3 counts, 3 x 5
     * int32, 5 int16 masks; TfLiteStridedSliceParams: 5 masks, offset. */
    {OP_STRIDED_SLICE, "STRIDED_SLICE", {84, 84}, -1, 24},
    /* approx.: OpDataSvdf (micro/kernels/svdf.h): 4 int32 scales, 2 scratch
     * indices, 3 zero points; TfLiteSVDFParams: rank, activation, a bool. */
    {OP_SVDF, "SVDF", {36, 36}, -1, 12},
};

#define NKINDS (sizeof kinds / sizeof kinds[0])

static const kind_row *kind_of(int32_t code) {
    for (size_t i = 0; i < NKINDS; i++)
        if (kinds[i].code == code) return &kinds[i];
    return NULL;
}

const char *abf_tflm_op_name(int32_t code) {
    const kind_row *k = kind_of(code);
    return k ? k->name : NULL;
}

/* ==== 3. the estimate =========================================================== */

static int64_t round_up(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

/* A kernel allocation of bytes (AllocatePersistentBuffer): rounded to 16. */
static int64_t kernel_buffer(int64_t bytes) { return bytes > 0 ? round_up(bytes, KERNEL_ALIGN) : 0; }

/* Output channels of operator op for its kind's per-channel arrays: dimension
 * dim of its filter (input 1), or 0 when the filter is absent or too short. */
static int64_t out_channels(const abf_tflite_model *m, const abf_tflite_op *op, int dim) {
    if (dim < 0 || op->nin < 2 || op->in[1] < 0) return 0;
    const abf_tflite_tensor *f = &m->t[op->in[1]];
    return dim < f->ndim && f->shape[dim] > 0 ? f->shape[dim] : 0;
}

/* The breakdown entry of code in t (added at the end when new; the last
 * entry takes every kind past the table's size). */
static abf_tflm_kind *kind_entry(abf_tflm_tail *t, int32_t code, bool modelled) {
    for (size_t i = 0; i < t->nkinds; i++)
        if (t->kinds[i].code == code) return &t->kinds[i];
    if (t->nkinds == ABF_TFLM_MAX_KINDS) return &t->kinds[ABF_TFLM_MAX_KINDS - 1];
    t->kinds[t->nkinds] = (abf_tflm_kind){.code = code, .modelled = modelled};
    return &t->kinds[t->nkinds++];
}

/* Op data and builtin data of every operator. */
static void count_ops(const abf_tflite_model *m, int w, abf_tflm_tail *t) {
    for (size_t i = 0; i < m->nops; i++) {
        const abf_tflite_op *op = &m->ops[i];
        const kind_row *k = kind_of(op->code);
        abf_tflm_kind *e = kind_entry(t, op->code, k != NULL);
        e->count++;
        if (k == NULL) {
            t->nunmodelled++;
            continue;
        }
        int64_t channels = out_channels(m, op, k->channel_dim);
        int64_t arrays = 2 * kernel_buffer(4 * channels);
        int64_t data = kernel_buffer(k->op_data[w]) + arrays;
        int64_t builtin = k->builtin > 0 ? round_up(k->builtin, BUILTIN_ALIGN) : 0;
        e->op_data += data;
        e->builtin += builtin;
        t->op_data += data;
        t->per_channel += arrays;
        t->builtin_data += builtin;
    }
}

/* The persistent TfLiteTensor of each graph input and output, with its
 * quantization, and the two arrays of pointers to them. */
static void count_io(const abf_tflite_model *m, const target_sizes *ts, abf_tflm_tail *t) {
    int64_t bytes = kernel_buffer(ts->pointer * (int64_t)m->ninputs) +
                    kernel_buffer(ts->pointer * (int64_t)m->noutputs);
    for (size_t k = 0; k < m->ninputs + m->noutputs; k++) {
        int32_t x = k < m->ninputs ? m->inputs[k] : m->outputs[k - m->ninputs];
        bytes += round_up(ts->tflite_tensor, ts->align);
        uint32_t c = m->t[x].quant_channels;
        if (c > 0) { /* TfLiteAffineQuantization and a TfLiteIntArray of zero points */
            bytes += round_up(ts->affine_quantization, ts->align) + round_up(4 + 4 * (int64_t)c, 4);
            t->nio_quantized++;
        }
    }
    t->nio = m->ninputs + m->noutputs;
    t->io_tensors = bytes;
}

/* Bytes of an element of a variable tensor (state is int8, int16 or float in
 * practice; 4 for any other type). */
static int64_t elem_bytes(int type) {
    switch (type) {
    case ABF_TFLITE_INT8: case ABF_TFLITE_UINT8: case ABF_TFLITE_BOOL: return 1;
    case ABF_TFLITE_INT16: case ABF_TFLITE_UINT16: case ABF_TFLITE_FLOAT16: return 2;
    case ABF_TFLITE_INT64: case ABF_TFLITE_FLOAT64: return 8;
    default: return 4;
    }
}

void abf_tflm_tail_estimate(const abf_tflite_model *m, int pointer_bytes, abf_tflm_tail *out) {
    int w = pointer_bytes == 8 ? 1 : 0;
    const target_sizes *ts = &targets[w];
    abf_tflm_tail *t = out;
    memset(t, 0, sizeof *t);
    t->pointer_bytes = (int)ts->pointer;
    t->ntensors = m->ntensors;
    t->nops = m->nops;
    t->eval_tensor_size = ts->eval_tensor;
    t->node_size = ts->node;
    t->eval_tensors = round_up(ts->eval_tensor * (int64_t)m->ntensors, ts->align);
    t->nodes = round_up(ts->node * (int64_t)m->nops, ts->align);
    count_ops(m, w, t);
    count_io(m, ts, t);
    t->allocator = ts->allocator;
    for (size_t i = 0; i < m->ntensors; i++) {
        const abf_tflite_tensor *x = &m->t[i];
        if (!(x->flags & ABF_TFLITE_VARIABLE) || (x->flags & ABF_TFLITE_CONSTANT)) continue;
        int64_t bytes = elem_bytes(x->type);
        for (int d = 0; d < x->ndim; d++) bytes *= x->shape[d] > 0 ? x->shape[d] : 1;
        t->nvariables++;
        t->variables += kernel_buffer(bytes); /* AllocateVariables: aligned to 16 */
    }
    t->total = round_up(t->eval_tensors + t->nodes + t->op_data + t->builtin_data +
                        t->io_tensors + t->allocator, KERNEL_ALIGN);
}

ab_status abf_tflm_tail_of_file(const char *path, int pointer_bytes, abf_tflm_tail *out,
                                ab_error *err) {
    char *buf;
    size_t len;
    abf_tflite_model m;
    memset(&m, 0, sizeof m);
    ab_status st = abf_read_input(path, &buf, &len, err);
    if (st != AB_OK) return st;
    st = abf_tflite_parse(path, (const unsigned char *)buf, len, &m, err);
    ab_free(buf);
    if (st == AB_OK) abf_tflm_tail_estimate(&m, pointer_bytes, out);
    abf_tflite_model_free(&m);
    return st;
}
