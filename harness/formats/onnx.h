/*
 * onnx.h — the ONNX importer: a hand-written, bounds-checked reader of the
 * subset of onnx.proto it needs (through protowire.h), shape inference for
 * the common operator set, and the conversion of the main graph into a
 * problem (DESIGN.md §1). No protobuf library and no generated code: byte
 * limits are counted while reading, nothing is allocated for weights
 * (raw_data is skipped, sizes come from shapes), and the reader is fuzzed as
 * our own code (fuzz/fuzz_onnx.c).
 *
 * ---- The file format, as far as it is read (onnx.proto, field numbers) ---------
 *   ModelProto         7 graph:GraphProto  8 opset_import:[OperatorSetIdProto]
 *   OperatorSetIdProto 1 domain:string  2 version:int64
 *   GraphProto         1 node:[NodeProto]  5 initializer:[TensorProto]
 *                      11 input:[ValueInfoProto]  12 output:[ValueInfoProto]
 *                      13 value_info:[ValueInfoProto]
 *                      15 sparse_initializer:[SparseTensorProto] (3 dims; 1 values)
 *   NodeProto          1 input:[string]  2 output:[string]  3 name  4 op_type
 *                      5 attribute:[AttributeProto]  7 domain
 *   AttributeProto     1 name  20 type  2 f:float  3 i:int64  4 s:bytes
 *                      5 t:TensorProto  6 g:GraphProto  7 floats  8 ints
 *                      10 tensors  11 graphs  (type 5 GRAPH, 10 GRAPHS: refused)
 *   TensorProto        1 dims:[int64]  2 data_type:int32  8 name  9 raw_data
 *                      4 float_data  5 int32_data  7 int64_data  10 double_data
 *                      11 uint64_data  14 data_location (1 EXTERNAL)
 *   ValueInfoProto     1 name  2 type:TypeProto
 *   TypeProto          1 tensor_type:Tensor (1 elem_type:int32  2 shape)
 *   TensorShapeProto   1 dim:[Dimension] (1 dim_value:int64  2 dim_param:string)
 *
 * Any other field is skipped by its wire type; a field of the wrong wire
 * type, a group, a varint over 10 bytes or a length past the end of its
 * message is AB_EINPUT, "FILE: byte N: PATH: what" with PATH the field path
 * (e.g. "graph.node[3].attribute[1].t"). Nothing recurses: a subgraph
 * (If, Loop, Scan: an attribute of type GRAPH or GRAPHS) is refused naming
 * the node, and nested types (sequences, maps) are not entered. Values
 * needed for shapes (Reshape's shape, Slice's starts, Resize's scales ...)
 * are read from initializers and Constant nodes of at most
 * ABF_ONNX_MAX_VALUES elements (raw_data or the typed lists), and carried
 * through Shape, Gather, Concat, Slice, Unsqueeze, Squeeze, Cast, Identity,
 * ConstantOfShape, Equal, Where and integer arithmetic (under a budget
 * proportional to the file); weights are never read, and external data never
 * opened. Memory is bounded by the file: nodes, values and attributes may take
 * at most 32 bytes a file byte (plus 1 MiB), else the file is refused.
 *
 * ---- From the main graph to a problem ------------------------------------------
 *   - execution order = node order; a node input must be a graph input, an
 *     initializer, the output of an earlier node or empty (an absent optional
 *     input): anything else is refused naming the node (the graph is not
 *     topologically sorted). A value written twice is refused too;
 *   - constant: an initializer (also when listed as a graph input, IR < 4) or
 *     the output of a Constant node: never planned;
 *   - live ranges, dead, unused, empty and constant-derived tensors, names and
 *     sizes: as for TFLite (tflite.h), in node indices. Graph inputs are kind
 *     input from node 0, graph outputs kind output to the last node;
 *   - shapes: a graph input's from its declaration; every node output's by
 *     inference from ONNX's operator specification (onnx.c lists the operators),
 *     checked against its declaration (graph output or value_info) when there
 *     is one: a known dimension or a rank or type that disagrees is an error.
 *     An operator outside the set takes its declared shape; without one it is
 *     refused naming the node and operator, suggesting ONNX's shape inference;
 *   - symbolic dimensions (dim_param, or a dimension without value) take
 *     --dim NAME=N (NAME the dim_param, or the tensor's name) or
 *     --assume-dynamic=N, else an error naming the tensor and the dimension;
 *   - element types: every TensorProto data type with a size (sub-byte INT4,
 *     UINT4, FLOAT4E2M1, INT2, UINT2 packed: ceil(n x bits / 8) bytes); STRING
 *     and UNDEFINED have no size: an error naming the tensor when it is planned.
 */
#ifndef ABF_ONNX_H
#define ABF_ONNX_H

#include "core/problem.h"
#include "harness/formats/tflite.h"

#define ABF_ONNX_MAX_RANK 32     /* dimensions of a shape (the suite format's limit) */
#define ABF_ONNX_MAX_VALUES 4096 /* elements of a constant read for a shape */

/* Flags of a value (abf_onnx_value.flags). */
enum {
    ABF_ONNX_CONSTANT = 1u << 0, /* an initializer or a Constant's output: never planned */
    ABF_ONNX_DERIVED = 1u << 1,  /* computed from constants alone */
    ABF_ONNX_INPUT = 1u << 2,    /* a graph input */
    ABF_ONNX_OUTPUT = 1u << 3,   /* a graph output */
    ABF_ONNX_DEAD = 1u << 5,     /* written, never read, no output */
    ABF_ONNX_UNUSED = 1u << 6,   /* nothing touches it */
    ABF_ONNX_EMPTY = 1u << 8,    /* some dimension is 0: no bytes */
    ABF_ONNX_INFERRED = 1u << 9  /* its shape came from inference (else a declaration) */
};

/* TensorProto.DataType values. */
enum {
    ABF_ONNX_UNDEFINED = 0, ABF_ONNX_FLOAT = 1, ABF_ONNX_UINT8 = 2, ABF_ONNX_INT8 = 3,
    ABF_ONNX_UINT16 = 4, ABF_ONNX_INT16 = 5, ABF_ONNX_INT32 = 6, ABF_ONNX_INT64 = 7,
    ABF_ONNX_STRING = 8, ABF_ONNX_BOOL = 9, ABF_ONNX_FLOAT16 = 10, ABF_ONNX_DOUBLE = 11,
    ABF_ONNX_UINT32 = 12, ABF_ONNX_UINT64 = 13, ABF_ONNX_COMPLEX64 = 14,
    ABF_ONNX_COMPLEX128 = 15, ABF_ONNX_BFLOAT16 = 16, ABF_ONNX_FLOAT8E4M3FN = 17,
    ABF_ONNX_FLOAT8E4M3FNUZ = 18, ABF_ONNX_FLOAT8E5M2 = 19, ABF_ONNX_FLOAT8E5M2FNUZ = 20,
    ABF_ONNX_UINT4 = 21, ABF_ONNX_INT4 = 22, ABF_ONNX_FLOAT4E2M1 = 23,
    ABF_ONNX_FLOAT8E8M0 = 24, ABF_ONNX_UINT2 = 25, ABF_ONNX_INT2 = 26
};

/* A value of the main graph (a tensor: graph input, initializer, node output). */
typedef struct abf_onnx_value {
    char *name;          /* unique and printable (as tflite.h's names); owned */
    int elem;            /* DataType; 0 while unknown */
    int rank;            /* -1 while unknown */
    int64_t *dims;       /* owned, rank entries: the final shape */
    unsigned flags;      /* ABF_ONNX_* */
    int64_t writer, first, last, last_read; /* node indices, or -1 */
    size_t at;           /* byte offset where it was first named */
} abf_onnx_value;

/* A node of the main graph. */
typedef struct abf_onnx_node {
    char *name, *op, *domain; /* owned, printable */
    size_t nin, nout;
    int32_t *in, *out;   /* owned value indices; -1 = an empty name (absent) */
    size_t at;
} abf_onnx_node;

/* The main graph, after reading and inference. */
typedef struct abf_onnx_model {
    char *file;          /* owned */
    int64_t opset;       /* of the default domain; 0 when not imported */
    size_t nvalues, nnodes;
    abf_onnx_value *v;   /* owned */
    abf_onnx_node *nodes;/* owned, in execution order */
    size_t ninputs, noutputs;
    int32_t *inputs, *outputs; /* owned value indices */
    size_t ninferred, ndeclared; /* node outputs whose shape came from each source */
    /* Counts made by the conversion. */
    size_t nconstant, nderived, ndead, nunused, nempty, nactivations;
} abf_onnx_model;

typedef struct abf_onnx_options {
    bool fold_constants;        /* leave constant-derived tensors out */
    const abf_tflite_dim *dims; /* --dim NAME=N: NAME a dim_param or a tensor */
    size_t ndims;
    int64_t assume_dynamic;     /* > 0: every other unknown dimension */
    bool ignore_declared;       /* infer every node output, ignoring value_info and the
                                   graph outputs' shapes (tests compare the two) */
} abf_onnx_options;

/* Reads the len bytes at buf (a whole .onnx file), infers shapes and converts
 * the main graph into *p (initialised by the call, owned by the caller; empty
 * on failure). When m is not NULL it receives the model (free it with
 * abf_onnx_model_free, even on failure). file names the input in messages.
 * opt may be NULL. AB_EINPUT naming the file (and byte offset, field path,
 * node or tensor) on malformed input or anything that cannot be planned;
 * AB_ENOMEM. buf is not kept. */
ab_status abf_onnx_import(const char *file, const unsigned char *buf, size_t len,
                          const abf_onnx_options *opt, ab_problem *p, abf_onnx_model *m,
                          ab_error *err);

/* Reads the file at path (under the input limits) and imports it; p->source
 * is a copy of path. m as above, may be NULL. */
ab_status abf_onnx_load(const char *path, const abf_onnx_options *opt, ab_problem *p,
                        abf_onnx_model *m, ab_error *err);

/* Frees everything m owns; m is empty afterwards. NULL is accepted. */
void abf_onnx_model_free(abf_onnx_model *m);

/* The DataType's name in onnx.proto ("FLOAT", "INT4"), or "unknown". */
const char *abf_onnx_type_name(int elem);

#endif
