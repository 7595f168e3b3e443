/*
 * onnx_internal.h — what onnx.c (reading, conversion) and onnx_infer.c (shape
 * inference) share while a model is imported; not for other files. Every
 * pointer to bytes points into the file being read, which lives as long as
 * the import.
 */
#ifndef ABF_ONNX_INTERNAL_H
#define ABF_ONNX_INTERNAL_H

#include "harness/formats/onnx.h"
#include "harness/formats/protowire.h"
#include "harness/formats/model_import.h"

#define ABF_OX_MEM_PER_BYTE 32    /* memory for nodes, values and attributes a file byte */
#define ABF_OX_MAX_ATTR_LIST 1024
#define ABF_OX_MAX_NODE_LIST 65536 /* inputs or outputs of one node */ /* ints or floats of an attribute kept (more: unusable) */

/* A TensorProto as read: type, shape and, when small, integer or float values. */
typedef struct abf_ox_tensor {
    int elem, rank;
    int64_t dims[ABF_ONNX_MAX_RANK];
    const uint8_t *name;
    size_t nname, at, elem_at;
    bool has_name, external, known;
    size_t n;            /* values, when known */
    int64_t *iv;         /* owned: integer types */
    double *fv;          /* owned: float types */
} abf_ox_tensor;

enum { ABF_OX_HAS_F = 1, ABF_OX_HAS_I = 2, ABF_OX_HAS_S = 4, ABF_OX_HAS_T = 8, ABF_OX_HAS_INTS = 16,
       ABF_OX_HAS_FLOATS = 32, ABF_OX_HAS_GRAPH = 64 };

/* An AttributeProto as read. */
typedef struct abf_ox_attr {
    const uint8_t *name, *s;
    size_t nname, ns, at;
    int type;
    unsigned has;        /* ABF_OX_HAS_* */
    int64_t i;
    double f;
    size_t nints, nfloats;
    int64_t *ints;       /* owned */
    double *floats;      /* owned */
    bool long_list;      /* a list above ABF_OX_MAX_ATTR_LIST: not kept */
    abf_ox_tensor *t;    /* owned, when has & ABF_OX_HAS_T */
} abf_ox_attr;

/* A node's attributes. */
typedef struct abf_ox_nx {
    abf_ox_attr *a;
    size_t na;
} abf_ox_nx;

/* A small constant value, known for shapes. */
typedef struct abf_ox_val {
    bool known;
    size_t n;
    int64_t *iv;         /* owned; integer types */
    double *fv;          /* owned; float types */
} abf_ox_val;

/* What reading knows of a value beside abf_onnx_value. */
typedef struct abf_ox_vx {
    const uint8_t *raw;  /* its name in the file */
    size_t nraw;
    int decl_rank;       /* -1: not declared */
    int decl_elem;       /* 0: not declared */
    bool non_tensor;     /* declared as a sequence, map or optional */
    int64_t *decl;       /* owned: -1 where unknown */
    const uint8_t **param; /* owned array: dim_param bytes or NULL */
    size_t *nparam;      /* owned */
    abf_ox_val val;
} abf_ox_vx;

typedef struct abf_ox_ctx {
    abf_pw r;
    abf_onnx_model *m;
    const abf_onnx_options *o;
    abf_ox_vx *vx;          /* nvalues */
    abf_ox_nx *nx;          /* nnodes */
    size_t capv, capx;
    int32_t *slots;      /* the name table: 2^bits slots of value indices, -1 empty */
    int bits;
    uint64_t mem_left;   /* bytes the model's structures may still take (a budget of
                            ABF_OX_MEM_PER_BYTE a byte of the file, plus 1 MiB) */
    uint64_t values_left; /* integers that may still be carried for shapes (a budget
                             proportional to the file: copies are not free) */
} abf_ox_ctx;

bool abf_ox_elem_is_int(int e);
bool abf_ox_elem_is_float(int e);
int64_t abf_ox_f2i(double x); /* truncated, NaN 0, saturated at the int64 range */
void abf_ox_ctx_free(abf_ox_ctx *c);
int32_t abf_ox_find(const abf_ox_ctx *c, const uint8_t *s, size_t n);
ab_status abf_ox_read_tensor(abf_ox_ctx *c, size_t pos, size_t end, const char *path, abf_ox_tensor *t);
void abf_ox_node_what(const abf_onnx_model *m, size_t k, char *out, size_t cap);

/* Takes n bytes from the memory budget, or fails at byte at (path). */
ab_status abf_ox_spend(abf_ox_ctx *c, size_t at, const char *path, uint64_t n);

/* Infers the shapes of every node output in order, checks them against the
 * declarations and resolves symbolic dimensions (onnx_infer.c). */
ab_status abf_ox_infer(abf_ox_ctx *c);

#endif
