/*
 * tflite.h — the TFLite importer: a hand-written, bounds-checked reader of the
 * TFLite flatbuffer format, and the conversion of subgraph 0 into a problem
 * (DESIGN.md §1). No flatbuffers library: Debian has none for C.
 *
 * ---- The file format, as far as it is read -----------------------------------
 * A flatbuffer (little-endian). Byte 0: a uoffset (u32) to the root table;
 * bytes 4..7: the file identifier "TFL3". A table starts with an soffset
 * (i32): its vtable is at table - soffset; the vtable is u16 vtable size, u16
 * table size, then one u16 per field id: the field's offset in the table, 0
 * when absent. A reference field (table, vector, string) holds a u32 counted
 * from the field itself, forward. A vector is a u32 count then the elements
 * (tables by u32 references, counted from each element); a string is a u32
 * length, the bytes and a NUL. Fields read (schema.fbs, field ids from 0; a
 * union takes two ids, its type then its value):
 *
 *   Model          0 version:uint (must be 3)  1 operator_codes:[OperatorCode]
 *                  2 subgraphs:[SubGraph]      4 buffers:[Buffer]
 *                  6 metadata:[Metadata]
 *   Metadata       0 name:string  1 buffer:uint (an index into buffers)
 *   OperatorCode   0 deprecated_builtin_code:byte  3 builtin_code:int
 *                  (the operator is the larger of the two, as TFLite reads it)
 *   SubGraph       0 tensors:[Tensor]  1 inputs:[int]  2 outputs:[int]
 *                  3 operators:[Operator]  (in execution order)
 *   Tensor         0 shape:[int]  1 type:byte  2 buffer:uint  3 name:string
 *                  4 quantization:QuantizationParameters  5 is_variable:bool
 *                  7 shape_signature:[int]  (-1 = unknown)
 *   QuantizationParameters  2 scale:[float]  3 zero_point:[long]  (only their
 *                  lengths, for the TFLM tail estimate: tflm_tail.h)
 *   Operator       0 opcode_index:uint  1 inputs:[int] (-1 = an absent optional
 *                  input)  2 outputs:[int]  8 intermediates:[int]
 *   Buffer         0 data:[ubyte]  1 offset:ulong  2 size:ulong (data outside
 *                  the flatbuffer, in models over 2 GB; valid when offset > 1)
 *
 * The metadata entry named "OfflineMemoryAllocation" is TFLite Micro's offline
 * memory plan (micro_allocator.cc; tflite_offline.h writes it): its buffer
 * holds little-endian int32 words
 *
 *   version | subgraph index | n | offset of tensor 0 | ... | offset of tensor n-1
 *
 * where an offset is a byte offset in the arena, or -1 for a tensor left to
 * the online planner, and n is the number of tensors of that subgraph. The
 * words are read into abf_tflite_model.offline (the last such entry, as
 * TFLite Micro takes it); a buffer that is not 12 bytes plus n words is an
 * error. The version is kept as written (TFLite Micro's helper that checks
 * the metadata wants 1, its format comment says 0; it reads neither).
 *
 * Every offset, count and length is checked against the file size before it
 * is used: a truncated, corrupt or hostile file gives AB_EINPUT with
 * "FILE: byte N: what was wrong", never a crash. Nothing recurses (the nesting
 * of the schema is fixed). Allocations are bounded by the file size: counts
 * come from vectors that must fit in the file, a shape has at most
 * ABF_TFLITE_MAX_RANK dimensions, and the integers and name bytes copied out
 * (which a hostile file could multiply by pointing many tables at one vector)
 * are capped by a budget proportional to the file size.
 *
 * ---- From subgraph 0 to a problem ----------------------------------------------
 *   - constant: a tensor whose buffer is not empty (weights): never planned;
 *   - activation: any other tensor that an operator reads or writes, or that
 *     is a graph input or output. Absent optional inputs (-1) are no tensors;
 *   - live range [start, end] in operator indices, inclusive: start = the
 *     first operator that touches it (normally its writer), end = the last
 *     operator that reads it. Graph inputs start at 0 (kind input), graph
 *     outputs end at the last operator (kind output); a tensor that is both
 *     is kind input and lives over the whole graph. An operator's
 *     intermediates are live at that operator. Variable tensors (is_variable,
 *     state kept across invocations) live over the whole graph;
 *   - dead: written but never read and no output: kept, with end = start (it
 *     still needs its bytes while its writer runs);
 *   - unused: no operator touches it and it is no graph input or output: left
 *     out; so is an empty tensor (a dimension of 0: no bytes);
 *   - constant-derived: written only by operators whose present inputs are all
 *     constant or constant-derived (decided in execution order), e.g. the
 *     DEQUANTIZE of float16 weights. Kept by default; fold_constants leaves
 *     them out (a runtime that folds them keeps them with the weights), except
 *     graph outputs, which stay;
 *   - size: shape x element bits, packed for sub-byte types (int4: 4 bits),
 *     rounded up to bytes; the tensor keeps shape and dtype. A scalar (shape
 *     []) is one element. FLOAT8 types have no dtype name: size only. STRING,
 *     RESOURCE, VARIANT and unknown types have no size: an error naming the
 *     tensor (only when it is an activation);
 *   - dynamic dimension: a -1 in shape_signature (or a negative dimension in
 *     shape) is an error naming the tensor, unless a dims[] entry names the
 *     tensor (its value replaces each of its dynamic dimensions) or
 *     assume_dynamic > 0 (the value for every other). No shape inference: each
 *     dynamic tensor needs its own value;
 *   - names: each tensor's name, with control characters and bytes that are
 *     not UTF-8 written as \xNN; an absent or empty name becomes "t<index>"; a
 *     repeated name gets "#<index>" appended (every one after the first, by
 *     index). Errors and the suite use these names.
 *   - tensors appear in the problem in file order; start and end are operator
 *     indices; alignment 1, io separate (the suite's defaults).
 */
#ifndef AB_TFLITE_H
#define AB_TFLITE_H

#include "core/problem.h"

#define ABF_TFLITE_MAX_RANK 32
#define ABF_TFLITE_OFFLINE_NAME "OfflineMemoryAllocation" /* TFLite Micro's metadata name */   /* dimensions of a shape (the suite format's limit) */

/* Flags of a tensor of subgraph 0 (abf_tflite_tensor.flags). */
enum {
    ABF_TFLITE_CONSTANT = 1u << 0, /* a non-empty buffer: weights, never planned */
    ABF_TFLITE_DERIVED = 1u << 1,  /* computed from constants alone */
    ABF_TFLITE_INPUT = 1u << 2,    /* a graph input of subgraph 0 */
    ABF_TFLITE_OUTPUT = 1u << 3,   /* a graph output of subgraph 0 */
    ABF_TFLITE_VARIABLE = 1u << 4, /* is_variable */
    ABF_TFLITE_DEAD = 1u << 5,     /* written, never read, no output */
    ABF_TFLITE_UNUSED = 1u << 6,   /* not constant, but nothing touches it */
    ABF_TFLITE_DYNAMIC = 1u << 7,  /* some dimension is -1 */
    ABF_TFLITE_EMPTY = 1u << 8     /* some dimension is 0: no bytes */
};

/* TensorType values with a meaning here (schema.fbs). */
enum {
    ABF_TFLITE_FLOAT32 = 0, ABF_TFLITE_FLOAT16 = 1, ABF_TFLITE_INT32 = 2,
    ABF_TFLITE_UINT8 = 3, ABF_TFLITE_INT64 = 4, ABF_TFLITE_STRING = 5,
    ABF_TFLITE_BOOL = 6, ABF_TFLITE_INT16 = 7, ABF_TFLITE_COMPLEX64 = 8,
    ABF_TFLITE_INT8 = 9, ABF_TFLITE_FLOAT64 = 10, ABF_TFLITE_COMPLEX128 = 11,
    ABF_TFLITE_UINT64 = 12, ABF_TFLITE_RESOURCE = 13, ABF_TFLITE_VARIANT = 14,
    ABF_TFLITE_UINT32 = 15, ABF_TFLITE_UINT16 = 16, ABF_TFLITE_INT4 = 17,
    ABF_TFLITE_BFLOAT16 = 18, ABF_TFLITE_INT2 = 19, ABF_TFLITE_UINT4 = 20,
    ABF_TFLITE_FLOAT8_E4M3FN = 21, ABF_TFLITE_FLOAT8_E5M2 = 22
};

/* A few BuiltinOperator codes (schema.fbs). */
enum { ABF_TFLITE_OP_CONV_2D = 3, ABF_TFLITE_OP_DEQUANTIZE = 6, ABF_TFLITE_OP_CUSTOM = 32 };

/* A tensor of subgraph 0, as read, with what the conversion found. */
typedef struct abf_tflite_tensor {
    char *name;          /* unique and printable (see "names" above); owned */
    int type;            /* TensorType */
    int ndim;            /* rank (0 for a scalar) */
    int64_t *shape;      /* owned, ndim entries (NULL when ndim is 0); -1 where
                            shape or shape_signature says the dimension is unknown */
    uint32_t buffer;     /* index into the model's buffers */
    unsigned flags;      /* ABF_TFLITE_* */
    int64_t writer;      /* first operator that writes it, or -1 */
    int64_t first, last; /* first and last operator that touches it, or -1 */
    int64_t last_read;   /* last operator that reads it, or -1 */
    size_t at;           /* byte offset of its table in the file */
    uint32_t quant_channels; /* scales of its quantization when it has both scales
                                and zero points (TFLite Micro copies them), else 0 */
} abf_tflite_tensor;

/* An operator of subgraph 0. The arrays point into abf_tflite_model.io. */
typedef struct abf_tflite_op {
    int32_t code;        /* BuiltinOperator (ABF_TFLITE_OP_CUSTOM for custom operators) */
    size_t nin, nout, nmid;
    const int32_t *in;   /* tensor indices; -1 = an absent optional input */
    const int32_t *out;  /* tensor indices (-1 entries are ignored) */
    const int32_t *mid;  /* intermediates (-1 entries are ignored) */
} abf_tflite_op;

/* Subgraph 0 of a model. */
typedef struct abf_tflite_model {
    char *file;          /* the name used in messages; owned */
    uint32_t version;    /* schema version (3) */
    size_t nsubgraphs, nbuffers, nopcodes;
    size_t ntensors;
    abf_tflite_tensor *t; /* owned */
    size_t nops;
    abf_tflite_op *ops;  /* owned, in execution order */
    size_t ninputs, noutputs;
    int32_t *inputs, *outputs; /* owned tensor indices */
    int32_t *io;         /* owned: every operator's inputs, outputs and intermediates */
    size_t nmetadata;    /* entries of the model's metadata */
    /* TFLite Micro's offline plan (metadata "OfflineMemoryAllocation"), when
     * has_offline: the words as written, offline[i] for tensor i of subgraph
     * offline_subgraph (-1: planned online). */
    bool has_offline;
    int32_t offline_version, offline_subgraph;
    uint32_t offline_buffer; /* its buffer index */
    size_t noffline;
    int32_t *offline;    /* owned, noffline offsets */
    /* Counts made by abf_tflite_problem (0 before it runs). */
    size_t nconstant, nderived, ndead, nunused, nempty, nactivations;
} abf_tflite_model;

/* A --dim NAME=VALUE override: every dynamic dimension of tensor NAME is VALUE. */
typedef struct abf_tflite_dim {
    const char *tensor;  /* the tensor's name as abf_tflite_model gives it */
    int64_t value;       /* >= 1 */
} abf_tflite_dim;

typedef struct abf_tflite_options {
    bool fold_constants;        /* leave constant-derived tensors out */
    const abf_tflite_dim *dims; /* ndims overrides (the caller's array) */
    size_t ndims;
    int64_t assume_dynamic;     /* > 0: every other dynamic dimension; 0: an error */
} abf_tflite_options;

/* Parses the len bytes at buf (a whole .tflite file) into *m (initialised by
 * the call; free it with abf_tflite_model_free, even on failure). file names
 * the input in messages ("<buffer>" when NULL). AB_EINPUT naming the byte
 * offset on any malformed input; AB_ENOMEM. buf is not kept. */
ab_status abf_tflite_parse(const char *file, const unsigned char *buf, size_t len,
                           abf_tflite_model *m, ab_error *err);

/* Turns subgraph 0 of m into a problem (see the rules above): *p is
 * initialised by the call and owned by the caller (ab_problem_free); on
 * failure it is empty. p->name is the file's base name without its extension,
 * p->description says where the suite came from and what was left out.
 * Updates the flags, operator indices and counts of m. opt may be NULL (the
 * defaults). AB_EINPUT naming the tensor for a dynamic dimension without a
 * value, a type without a size, a size out of range, or a dims[] entry that
 * names no tensor with a dynamic dimension. */
ab_status abf_tflite_problem(abf_tflite_model *m, const abf_tflite_options *opt, ab_problem *p,
                             ab_error *err);

/* Reads the file at path, parses it and converts it: abf_tflite_parse then
 * abf_tflite_problem. When m is not NULL it receives the model (the caller
 * frees it with abf_tflite_model_free, even on failure); *p as above (empty on
 * failure), with p->source a copy of path. AB_EINPUT naming the path when it
 * cannot be read. The whole file is read into memory, then released. The
 * format table (formats.h) calls it with m NULL; it is exported for
 * tests/test_export.c, which reads the model beside the problem. */
ab_status abf_tflite_load(const char *path, const abf_tflite_options *opt, ab_problem *p,
                          abf_tflite_model *m, ab_error *err);

/* Frees everything m owns; m is empty afterwards. NULL is accepted. */
void abf_tflite_model_free(abf_tflite_model *m);

#endif
