/*
 * onnx_infer.c — shape inference for the ONNX importer (onnx.h), from ONNX's
 * published operator specification (docs/Operators.md), for the operators of
 * the table at the end of this file. Each rule gives the output shapes and
 * element types of one node from its input shapes, its attributes and, where
 * the operator needs them (Reshape's shape, Slice's starts, Resize's scales,
 * Tile's repeats ...), the values of small constant inputs. Every node output
 * is then checked against its declaration (graph output, value_info) and
 * takes the declared shape when no rule applies.
 */
#include "harness/formats/onnx_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define R ABF_ONNX_MAX_RANK

typedef struct shp {
    int rank;            /* -1: not inferred */
    int elem;            /* 0: unknown */
    int64_t d[R];
} shp;

enum { INF_OK = 0, INF_CANNOT = 1, INF_ERROR = 2 };

/* One node being inferred. */
typedef struct ictx {
    abf_ox_ctx *c;
    size_t k;
    const abf_onnx_node *n;
    const abf_ox_nx *x;
    shp *out;            /* n->nout */
    abf_ox_val *val;        /* n->nout: values computed for later shapes */
    char why[400];       /* when INF_CANNOT */
    char what[200];      /* "node 3 'conv1' (Conv)" */
} ictx;

/* ---- helpers ------------------------------------------------------------------------ */

static int fail(ictx *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(ictx *q, const char *fmt, ...) {
    char msg[AB_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ab_fail(q->c->r.err, AB_EINPUT, "%s: %s: %s", q->c->m->file, q->what, msg);
    return INF_ERROR;
}

static int cannot(ictx *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int cannot(ictx *q, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(q->why, sizeof q->why, fmt, ap);
    va_end(ap);
    return INF_CANNOT;
}

static bool has_in(const ictx *q, size_t k) { return k < q->n->nin && q->n->in[k] >= 0; }

/* Input k's shape into *s (false when it is absent). */
static bool in_shape(const ictx *q, size_t k, shp *s) {
    s->rank = -1; /* defined on every path: callers read it only on success */
    s->elem = 0;
    if (!has_in(q, k)) return false;
    const abf_onnx_value *v = &q->c->m->v[q->n->in[k]];
    s->rank = v->rank;
    s->elem = v->elem;
    for (int j = 0; j < v->rank; j++) s->d[j] = v->dims[j];
    return v->rank >= 0;
}

/* Input k's shape, which the operator requires. */
static int need(ictx *q, size_t k, shp *s) {
    if (in_shape(q, k, s)) return INF_OK;
    return fail(q, "input %zu is missing", k);
}

static const char *in_name(const ictx *q, size_t k) {
    return has_in(q, k) ? q->c->m->v[q->n->in[k]].name : "";
}

static const abf_ox_attr *attr(const ictx *q, const char *name) {
    size_t n = strlen(name);
    const abf_ox_attr *found = NULL;
    for (size_t j = 0; j < q->x->na; j++)
        if (q->x->a[j].nname == n && memcmp(q->x->a[j].name, name, n) == 0) found = &q->x->a[j];
    return found; /* the last one, as a protobuf map would */
}

static int64_t attr_i(const ictx *q, const char *name, int64_t dflt) {
    const abf_ox_attr *a = attr(q, name);
    return a && (a->has & ABF_OX_HAS_I) ? a->i : dflt;
}

/* The ints of attribute name: INF_OK with *n (0 and no error when absent:
 * *present says). */
static int attr_ints(ictx *q, const char *name, int64_t *v, size_t cap, size_t *n,
                     bool *present) {
    const abf_ox_attr *a = attr(q, name);
    *n = 0;
    *present = a != NULL;
    if (a == NULL) return INF_OK;
    if (a->long_list || a->nints > cap)
        return fail(q, "attribute '%s' holds more than %zu values", name, cap);
    for (size_t j = 0; j < a->nints; j++) v[j] = a->ints[j];
    *n = a->nints;
    return INF_OK;
}

static bool attr_s_is(const ictx *q, const char *name, const char *s, bool dflt) {
    const abf_ox_attr *a = attr(q, name);
    if (a == NULL || !(a->has & ABF_OX_HAS_S)) return dflt;
    return a->ns == strlen(s) && memcmp(a->s, s, a->ns) == 0;
}

/* The known values of input k as integers (floats truncated) into v. */
static int in_ints(ictx *q, size_t k, int64_t *v, size_t cap, size_t *n) {
    *n = 0;
    if (!has_in(q, k)) return fail(q, "input %zu is missing", k);
    const abf_ox_val *x = &q->c->vx[q->n->in[k]].val;
    if (!x->known)
        return cannot(q, "needs the value of input %zu '%s', which is not an initializer or "
                      "Constant of at most %d elements, nor computed from them", k,
                      in_name(q, k), ABF_ONNX_MAX_VALUES);
    if (x->n > cap) return fail(q, "input %zu '%s' has %zu values, more than %zu", k,
                                in_name(q, k), x->n, cap);
    for (size_t j = 0; j < x->n; j++) v[j] = x->iv ? x->iv[j] : abf_ox_f2i(x->fv[j]);
    *n = x->n;
    return INF_OK;
}

static int in_floats(ictx *q, size_t k, double *v, size_t cap, size_t *n) {
    *n = 0;
    if (!has_in(q, k)) return fail(q, "input %zu is missing", k);
    const abf_ox_val *x = &q->c->vx[q->n->in[k]].val;
    if (!x->known)
        return cannot(q, "needs the value of input %zu '%s', which is not an initializer or "
                      "Constant of at most %d elements", k, in_name(q, k), ABF_ONNX_MAX_VALUES);
    if (x->n > cap) return fail(q, "input %zu '%s' has %zu values, more than %zu", k,
                                in_name(q, k), x->n, cap);
    for (size_t j = 0; j < x->n; j++) v[j] = x->fv ? x->fv[j] : (double)x->iv[j];
    *n = x->n;
    return INF_OK;
}

/* Input k is present with a known value of n elements (an empty tensor counts
 * as absent, as Resize's optional inputs are given). */
static bool in_nonempty(const ictx *q, size_t k) {
    if (!has_in(q, k)) return false;
    const abf_onnx_value *v = &q->c->m->v[q->n->in[k]];
    if (v->rank < 0) return true;
    for (int j = 0; j < v->rank; j++)
        if (v->dims[j] == 0) return false;
    return true;
}

static bool norm_axis(int64_t a, int rank, int *out) {
    if (a < -(int64_t)rank || a >= rank) return false;
    *out = (int)(a < 0 ? a + rank : a);
    return true;
}

static int axis_err(ictx *q, const char *what, int64_t a, int rank) {
    return fail(q, "%s %" PRId64 " is out of range for rank %d", what, a, rank);
}

static void set_out(ictx *q, size_t j, const shp *s) {
    if (j < q->n->nout) q->out[j] = *s;
}

static int dim_ok(ictx *q, int64_t d) {
    if (d < 0 || d > AB_MAX_SIZE) return fail(q, "an output dimension of %" PRId64
                                              " is out of range", d);
    return INF_OK;
}

static int check_shape(ictx *q, const shp *s) {
    for (int j = 0; j < s->rank; j++)
        if (dim_ok(q, s->d[j]) != INF_OK) return INF_ERROR;
    return INF_OK;
}

static int64_t numel(const shp *s) {
    int64_t n = 1;
    for (int j = 0; j < s->rank; j++)
        if (ab_mul_ovf(n, s->d[j], &n)) return -1;
    return n;
}

static void shape_text(const shp *s, char *out, size_t cap) {
    size_t used = (size_t)snprintf(out, cap, "[");
    for (int k = 0; k < s->rank && used < cap; k++)
        used += (size_t)snprintf(out + used, cap - used, "%s%" PRId64, k ? ", " : "", s->d[k]);
    if (used < cap) snprintf(out + used, cap - used, "]");
}

/* Multidirectional (numpy) broadcasting of a and b into *o. */
static int broadcast(ictx *q, const shp *a, const shp *b, shp *o) {
    o->rank = a->rank > b->rank ? a->rank : b->rank;
    for (int j = 0; j < o->rank; j++) {
        int ja = j - (o->rank - a->rank), jb = j - (o->rank - b->rank);
        int64_t x = ja >= 0 ? a->d[ja] : 1, y = jb >= 0 ? b->d[jb] : 1;
        if (x == y || y == 1) o->d[j] = x;
        else if (x == 1) o->d[j] = y;
        else {
            char sa[200], sb[200];
            shape_text(a, sa, sizeof sa);
            shape_text(b, sb, sizeof sb);
            return fail(q, "shapes %s and %s do not broadcast", sa, sb);
        }
    }
    return INF_OK;
}

/* ---- values carried for later shapes -------------------------------------------------- */

static int set_val_ints(ictx *q, size_t j, const int64_t *v, size_t n) {
    if (j >= q->n->nout || n > ABF_ONNX_MAX_VALUES || n > q->c->values_left) return INF_OK;
    q->c->values_left -= n;
    abf_ox_val *x = &q->val[j];
    x->iv = ab_alloc_array(n ? n : 1, sizeof *x->iv);
    if (x->iv == NULL) {
        ab_fail(q->c->r.err, AB_ENOMEM, "out of memory inferring shapes");
        return INF_ERROR;
    }
    if (n) memcpy(x->iv, v, n * sizeof *v);
    x->n = n;
    x->known = true;
    return INF_OK;
}

static const abf_ox_val *in_val(const ictx *q, size_t k) {
    if (!has_in(q, k)) return NULL;
    const abf_ox_val *x = &q->c->vx[q->n->in[k]].val;
    return x->known && x->iv ? x : NULL;
}

/* Copies input 0's integer value to output 0 (ops that only change the shape). */
static int pass_val(ictx *q) {
    const abf_ox_val *x = in_val(q, 0);
    return x ? set_val_ints(q, 0, x->iv, x->n) : INF_OK;
}

/* ---- the rules ------------------------------------------------------------------------ */

/* Output 0 like input 0 (elementwise unary ops, normalizations, Softmax ...). */
static int op_same(ictx *q) {
    shp s;
    if (need(q, 0, &s) != INF_OK) return INF_ERROR;
    set_out(q, 0, &s);
    return INF_OK;
}

static int op_identity(ictx *q) {
    if (op_same(q) != INF_OK) return INF_ERROR;
    return pass_val(q);
}

static int op_bool_same(ictx *q) {
    shp s;
    if (need(q, 0, &s) != INF_OK) return INF_ERROR;
    s.elem = ABF_ONNX_BOOL;
    set_out(q, 0, &s);
    return INF_OK;
}

/* Integer arithmetic on known values (shape computations): Add Sub Mul Div. */
static int arith_val(ictx *q, const shp *o) {
    const abf_ox_val *a = in_val(q, 0), *b = in_val(q, 1);
    int64_t n = numel(o);
    if (a == NULL || b == NULL || n < 0 || n > ABF_ONNX_MAX_VALUES) return INF_OK;
    if (!(a->n == (size_t)n || a->n == 1) || !(b->n == (size_t)n || b->n == 1)) return INF_OK;
    if (o->rank > 1) return INF_OK;
    int64_t v[ABF_ONNX_MAX_VALUES];
    const char *op = q->n->op;
    for (int64_t j = 0; j < n; j++) {
        int64_t x = a->iv[a->n == 1 ? 0 : j], y = b->iv[b->n == 1 ? 0 : j], r;
        if (strcmp(op, "Add") == 0) {
            if (ab_add_ovf(x, y, &r)) return INF_OK;
        } else if (strcmp(op, "Sub") == 0) {
            if (y == INT64_MIN || ab_add_ovf(x, -y, &r)) return INF_OK;
        } else if (strcmp(op, "Mul") == 0) {
            if (ab_mul_ovf(x, y, &r)) return INF_OK;
        } else if (strcmp(op, "Div") == 0) {
            if (y == 0 || (x == INT64_MIN && y == -1)) return INF_OK;
            r = x / y;
        } else {
            return INF_OK;
        }
        v[j] = r;
    }
    return set_val_ints(q, 0, v, (size_t)n);
}

/* Multidirectional broadcasting over every input (Add, Where, Max, ...);
 * the type of input elem_from, or BOOL when boolean. */
static int bcast(ictx *q, size_t elem_from, bool boolean) {
    shp o, s;
    if (q->n->nin == 0) return fail(q, "no inputs");
    if (need(q, 0, &o) != INF_OK) return INF_ERROR;
    for (size_t k = 1; k < q->n->nin; k++) {
        if (!in_shape(q, k, &s)) continue;
        shp t;
        if (broadcast(q, &o, &s, &t) != INF_OK) return INF_ERROR;
        memcpy(o.d, t.d, sizeof o.d);
        o.rank = t.rank;
    }
    if (in_shape(q, elem_from, &s)) o.elem = s.elem;
    if (boolean) o.elem = ABF_ONNX_BOOL;
    set_out(q, 0, &o);
    if (q->n->nin == 2 && !boolean) return arith_val(q, &o);
    return INF_OK;
}

static int op_bcast(ictx *q) { return bcast(q, 0, false); }
/* The value of input k at element j of a 1-D (or scalar) broadcast of n. */
static bool val_at(const ictx *q, size_t k, size_t n, size_t j, int64_t *v) {
    const abf_ox_val *x = in_val(q, k);
    if (x == NULL || !(x->n == n || x->n == 1)) return false;
    *v = x->iv[x->n == 1 ? 0 : j];
    return true;
}

/* Equal on known integer values (PyTorch's expand: Where(Equal(shape, -1), ...)). */
static int op_compare(ictx *q) {
    if (bcast(q, 0, true) != INF_OK) return INF_ERROR;
    if (strcmp(q->n->op, "Equal") != 0 || q->n->nout == 0 || q->out[0].rank > 1) return INF_OK;
    int64_t n = numel(&q->out[0]), v[R];
    if (n < 0 || n > R) return INF_OK;
    for (int64_t j = 0; j < n; j++) {
        int64_t a, b;
        if (!val_at(q, 0, (size_t)n, (size_t)j, &a) || !val_at(q, 1, (size_t)n, (size_t)j, &b))
            return INF_OK;
        v[j] = a == b;
    }
    return set_val_ints(q, 0, v, (size_t)n);
}

static int op_where(ictx *q) {
    if (bcast(q, 1, false) != INF_OK) return INF_ERROR;
    if (q->n->nout == 0 || q->out[0].rank > 1) return INF_OK;
    int64_t n = numel(&q->out[0]), v[R];
    if (n < 0 || n > R) return INF_OK;
    for (int64_t j = 0; j < n; j++) {
        int64_t c, a, b;
        if (!val_at(q, 0, (size_t)n, (size_t)j, &c) || !val_at(q, 1, (size_t)n, (size_t)j, &a) ||
            !val_at(q, 2, (size_t)n, (size_t)j, &b))
            return INF_OK;
        v[j] = c ? a : b;
    }
    return set_val_ints(q, 0, v, (size_t)n);
}

static int op_cast(ictx *q) {
    shp s;
    if (need(q, 0, &s) != INF_OK) return INF_ERROR;
    s.elem = (int)attr_i(q, "to", 0);
    set_out(q, 0, &s);
    const abf_ox_val *x = in_val(q, 0);
    return x && abf_ox_elem_is_int(s.elem) ? set_val_ints(q, 0, x->iv, x->n) : INF_OK;
}

static int op_cast_like(ictx *q) {
    shp s, t;
    if (need(q, 0, &s) != INF_OK || need(q, 1, &t) != INF_OK) return INF_ERROR;
    s.elem = t.elem;
    set_out(q, 0, &s);
    return INF_OK;
}

static int op_constant(ictx *q) {
    shp s = {.rank = 0};
    const abf_ox_attr *a;
    if ((a = attr(q, "value")) != NULL && (a->has & ABF_OX_HAS_T)) {
        s.rank = a->t->rank;
        s.elem = a->t->elem;
        memcpy(s.d, a->t->dims, sizeof s.d);
        set_out(q, 0, &s);
        if (a->t->known && a->t->iv) return set_val_ints(q, 0, a->t->iv, a->t->n);
        if (a->t->known && a->t->fv && q->n->nout > 0) {
            abf_ox_val *x = &q->val[0];
            x->fv = ab_alloc_array(a->t->n ? a->t->n : 1, sizeof *x->fv);
            if (x->fv == NULL) return fail(q, "out of memory");
            if (a->t->n) memcpy(x->fv, a->t->fv, a->t->n * sizeof *x->fv);
            x->n = a->t->n;
            x->known = true;
        }
        return INF_OK;
    }
    if ((a = attr(q, "value_int")) != NULL) {
        s.elem = ABF_ONNX_INT64;
        set_out(q, 0, &s);
        return set_val_ints(q, 0, &a->i, 1);
    }
    if ((a = attr(q, "value_ints")) != NULL) {
        s.elem = ABF_ONNX_INT64;
        s.rank = 1;
        s.d[0] = (int64_t)a->nints;
        set_out(q, 0, &s);
        return a->long_list ? INF_OK : set_val_ints(q, 0, a->ints, a->nints);
    }
    if ((a = attr(q, "value_float")) != NULL) {
        s.elem = ABF_ONNX_FLOAT;
        set_out(q, 0, &s);
        return INF_OK;
    }
    if ((a = attr(q, "value_floats")) != NULL) {
        if (a->long_list) return cannot(q, "value_floats is too long to count");
        s.elem = ABF_ONNX_FLOAT;
        s.rank = 1;
        s.d[0] = (int64_t)a->nfloats;
        set_out(q, 0, &s);
        return INF_OK;
    }
    return cannot(q, "its value is not a tensor, int(s) or float(s) attribute");
}

static int op_constant_of_shape(ictx *q) {
    int64_t v[R];
    size_t n;
    int rc = in_ints(q, 0, v, R, &n);
    if (rc != INF_OK) return rc;
    shp s = {.rank = (int)n, .elem = ABF_ONNX_FLOAT};
    for (size_t j = 0; j < n; j++) s.d[j] = v[j];
    const abf_ox_attr *a = attr(q, "value");
    if (a && (a->has & ABF_OX_HAS_T)) s.elem = a->t->elem;
    if (check_shape(q, &s) != INF_OK) return INF_ERROR;
    set_out(q, 0, &s);
    int64_t count = numel(&s), fill = 0, vals[R];
    if (a && (a->has & ABF_OX_HAS_T) && a->t->known && a->t->iv && a->t->n == 1) fill = a->t->iv[0];
    else if (a && (a->has & ABF_OX_HAS_T)) return INF_OK; /* a float fill: not carried */
    if (s.rank > 1 || count < 0 || count > R) return INF_OK;
    for (int64_t j = 0; j < count; j++) vals[j] = fill;
    return set_val_ints(q, 0, vals, (size_t)count);
}

/* kernel, pads, strides, dilations of a convolution or pool over nsp
 * spatial dimensions of x into o (dims 2..), channels given. */
static int spatial(ictx *q, const shp *x, const int64_t *kernel, int nsp, bool pool,
                   bool transpose, shp *o) {
    int64_t pads[2 * R] = {0}, strides[R], dil[R], outpad[R] = {0}, outshape[R];
    size_t np, ns, nd, nop, nos;
    bool has_p, has_s, has_d, has_op, has_os;
    if (attr_ints(q, "pads", pads, 2 * R, &np, &has_p) != INF_OK ||
        attr_ints(q, "strides", strides, R, &ns, &has_s) != INF_OK ||
        attr_ints(q, "dilations", dil, R, &nd, &has_d) != INF_OK ||
        attr_ints(q, "output_padding", outpad, R, &nop, &has_op) != INF_OK ||
        attr_ints(q, "output_shape", outshape, R, &nos, &has_os) != INF_OK)
        return INF_ERROR;
    if ((has_p && np != 2 * (size_t)nsp) || (has_s && ns != (size_t)nsp) ||
        (has_d && nd != (size_t)nsp) || (has_op && nop != (size_t)nsp))
        return fail(q, "pads, strides, dilations or output_padding do not match %d spatial "
                    "dimensions", nsp);
    for (int j = 0; j < nsp; j++) {
        if (!has_s) strides[j] = 1;
        if (!has_d) dil[j] = 1;
        if (strides[j] < 1 || dil[j] < 1 || kernel[j] < 1 || pads[j] < 0 || pads[j + nsp] < 0)
            return fail(q, "a kernel size, stride or dilation below 1, or a negative pad");
        if (strides[j] > AB_MAX_SIZE || dil[j] > AB_MAX_SIZE || kernel[j] > AB_MAX_SIZE ||
            pads[j] > AB_MAX_SIZE || pads[j + nsp] > AB_MAX_SIZE || outpad[j] < 0 ||
            outpad[j] > AB_MAX_SIZE)
            return fail(q, "a kernel size, stride, dilation or pad above 2^62");
    }
    bool same = attr_s_is(q, "auto_pad", "SAME_UPPER", false) ||
                attr_s_is(q, "auto_pad", "SAME_LOWER", false);
    bool valid = attr_s_is(q, "auto_pad", "VALID", false);
    bool ceil_mode = pool && attr_i(q, "ceil_mode", 0) != 0;
    if (has_os && transpose && nos != (size_t)nsp && nos != (size_t)nsp + 2)
        return fail(q, "output_shape has %zu entries for %d spatial dimensions", nos, nsp);
    for (int j = 0; j < nsp; j++) {
        if (kernel[j] > AB_MAX_SIZE / dil[j]) return fail(q, "a kernel too large");
        int64_t in = x->d[j + 2], ek = (kernel[j] - 1) * dil[j] + 1, out;
        if (transpose) {
            if (has_os) {
                out = outshape[nos == (size_t)nsp ? j : j + 2];
            } else if (same) {
                if (ab_mul_ovf(in, strides[j], &out)) return fail(q, "an output too large");
            } else {
                if (in < 1 || in > AB_MAX_SIZE / strides[j] ||
                    ab_add_ovf(strides[j] * (in - 1), outpad[j], &out) || ab_add_ovf(out, ek, &out))
                    return fail(q, "an output out of range");
                if (!valid) out -= pads[j] + pads[j + nsp]; /* each pad at most 2^62 */
            }
        } else if (same) {
            out = (in + strides[j] - 1) / strides[j];
        } else {
            int64_t eff = in + (valid ? 0 : pads[j] + pads[j + nsp]);
            if (eff < ek) return fail(q, "spatial dimension %d: input %" PRId64 " with pads is "
                                      "smaller than the kernel (%" PRId64 ")", j, in, ek);
            int64_t span = eff - ek;
            out = (ceil_mode ? (span + strides[j] - 1) / strides[j] : span / strides[j]) + 1;
            /* a last window starting in the end padding is dropped (ceil_mode) */
            int64_t last;
            if (ceil_mode && !valid && !ab_mul_ovf(out - 1, strides[j], &last) &&
                last >= in + pads[j])
                out--;
        }
        o->d[j + 2] = out;
    }
    return check_shape(q, o);
}

/* Conv, ConvInteger, QLinearConv (x at 0, w at w_at), ConvTranspose. */
static int conv(ictx *q, size_t w_at, bool transpose, int elem) {
    shp x, w;
    if (need(q, 0, &x) != INF_OK || need(q, w_at, &w) != INF_OK) return INF_ERROR;
    if (x.rank < 3 || w.rank != x.rank)
        return fail(q, "input of rank %d and weights of rank %d (expected equal, at least 3)",
                     x.rank, w.rank);
    int nsp = x.rank - 2;
    int64_t kernel[R];
    size_t nk;
    bool has_k;
    if (attr_ints(q, "kernel_shape", kernel, R, &nk, &has_k) != INF_OK) return INF_ERROR;
    if (!has_k) {
        for (int j = 0; j < nsp; j++) kernel[j] = w.d[j + 2];
    } else if (nk != (size_t)nsp) {
        return fail(q, "kernel_shape has %zu entries for %d spatial dimensions", nk, nsp);
    }
    int64_t group = attr_i(q, "group", 1);
    if (group < 1) return fail(q, "group %" PRId64 " below 1", group);
    shp o = {.rank = x.rank, .elem = elem ? elem : x.elem};
    o.d[0] = x.d[0];
    if (transpose) {
        if (ab_mul_ovf(w.d[1], group, &o.d[1])) return fail(q, "too many channels");
    } else {
        o.d[1] = w.d[0];
    }
    if (spatial(q, &x, kernel, nsp, false, transpose, &o) != INF_OK) return INF_ERROR;
    set_out(q, 0, &o);
    return INF_OK;
}

static int op_conv(ictx *q) { return conv(q, 1, false, 0); }
static int op_conv_transpose(ictx *q) { return conv(q, 1, true, 0); }
static int op_conv_integer(ictx *q) { return conv(q, 1, false, ABF_ONNX_INT32); }

static int op_qlinear_conv(ictx *q) {
    shp z;
    int e = in_shape(q, 7, &z) ? z.elem : ABF_ONNX_UINT8;
    return conv(q, 3, false, e);
}

static int op_pool(ictx *q) {
    shp x;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    if (x.rank < 3) return fail(q, "input of rank %d (expected at least 3)", x.rank);
    int nsp = x.rank - 2;
    int64_t kernel[R];
    size_t nk;
    bool has_k;
    if (attr_ints(q, "kernel_shape", kernel, R, &nk, &has_k) != INF_OK) return INF_ERROR;
    if (!has_k || nk != (size_t)nsp)
        return fail(q, "kernel_shape must give %d spatial dimensions", nsp);
    shp o = x;
    if (spatial(q, &x, kernel, nsp, true, false, &o) != INF_OK) return INF_ERROR;
    set_out(q, 0, &o);
    o.elem = ABF_ONNX_INT64; /* MaxPool's Indices */
    set_out(q, 1, &o);
    return INF_OK;
}

static int op_global_pool(ictx *q) {
    shp x;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    if (x.rank < 2) return fail(q, "input of rank %d (expected at least 2)", x.rank);
    for (int j = 2; j < x.rank; j++) x.d[j] = 1;
    set_out(q, 0, &x);
    return INF_OK;
}

static int op_gemm(ictx *q) {
    shp a, b;
    if (need(q, 0, &a) != INF_OK || need(q, 1, &b) != INF_OK) return INF_ERROR;
    if (a.rank != 2 || b.rank != 2) return fail(q, "A and B must be matrices (ranks %d, %d)",
                                                a.rank, b.rank);
    bool ta = attr_i(q, "transA", 0) != 0, tb = attr_i(q, "transB", 0) != 0;
    int64_t m = ta ? a.d[1] : a.d[0], ka = ta ? a.d[0] : a.d[1];
    int64_t kb = tb ? b.d[1] : b.d[0], n = tb ? b.d[0] : b.d[1];
    if (ka != kb) return fail(q, "inner dimensions %" PRId64 " and %" PRId64 " differ", ka, kb);
    shp o = {.rank = 2, .elem = a.elem, .d = {m, n}};
    set_out(q, 0, &o);
    return INF_OK;
}

/* numpy matmul: 1-D operands promoted, batch dimensions broadcast. */
static int matmul(ictx *q, size_t ia, size_t ib, int elem) {
    shp a, b;
    if (need(q, ia, &a) != INF_OK || need(q, ib, &b) != INF_OK) return INF_ERROR;
    if (a.rank < 1 || b.rank < 1) return fail(q, "a scalar operand");
    bool a1 = a.rank == 1, b1 = b.rank == 1;
    if (a1) {
        a.d[1] = a.d[0];
        a.d[0] = 1;
        a.rank = 2;
    }
    if (b1) {
        b.d[1] = 1;
        b.rank = 2;
    }
    if (a.d[a.rank - 1] != b.d[b.rank - 2])
        return fail(q, "inner dimensions %" PRId64 " and %" PRId64 " differ", a.d[a.rank - 1],
                    b.d[b.rank - 2]);
    shp ba = {.rank = a.rank - 2}, bb = {.rank = b.rank - 2}, o;
    memcpy(ba.d, a.d, sizeof(int64_t) * (size_t)ba.rank);
    memcpy(bb.d, b.d, sizeof(int64_t) * (size_t)bb.rank);
    if (broadcast(q, &ba, &bb, &o) != INF_OK) return INF_ERROR;
    if (!a1) o.d[o.rank++] = a.d[a.rank - 2];
    if (!b1) o.d[o.rank++] = b.d[b.rank - 1];
    o.elem = elem ? elem : a.elem;
    set_out(q, 0, &o);
    return INF_OK;
}

static int op_matmul(ictx *q) { return matmul(q, 0, 1, 0); }
static int op_matmul_integer(ictx *q) { return matmul(q, 0, 1, ABF_ONNX_INT32); }

static int op_qlinear_matmul(ictx *q) {
    shp z;
    return matmul(q, 0, 3, in_shape(q, 7, &z) ? z.elem : ABF_ONNX_UINT8);
}

static int op_batchnorm(ictx *q) {
    shp x, c;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    set_out(q, 0, &x);
    if (!in_shape(q, 1, &c)) {
        c.rank = 1;
        c.d[0] = x.rank > 1 ? x.d[1] : 1;
    }
    c.elem = x.elem;
    for (size_t j = 1; j < q->n->nout; j++) set_out(q, j, &c);
    return INF_OK;
}

static int op_layernorm(ictx *q) {
    shp x;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    set_out(q, 0, &x);
    int axis;
    if (!norm_axis(attr_i(q, "axis", -1), x.rank, &axis))
        return axis_err(q, "axis", attr_i(q, "axis", -1), x.rank);
    shp s = x;
    for (int j = axis; j < s.rank; j++) s.d[j] = 1;
    s.elem = (int)attr_i(q, "stash_type", ABF_ONNX_FLOAT);
    set_out(q, 1, &s);
    set_out(q, 2, &s);
    return INF_OK;
}

static int op_dropout(ictx *q) {
    shp x;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    set_out(q, 0, &x);
    x.elem = ABF_ONNX_BOOL;
    set_out(q, 1, &x);
    return INF_OK;
}

static int op_reshape(ictx *q) {
    shp x;
    int64_t v[R];
    size_t n;
    bool present;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    if (attr_ints(q, "shape", v, R, &n, &present) != INF_OK) return INF_ERROR;
    if (!present) {
        int rc = in_ints(q, 1, v, R, &n);
        if (rc != INF_OK) return rc;
    }
    bool allowzero = attr_i(q, "allowzero", 0) != 0;
    shp o = {.rank = (int)n, .elem = x.elem};
    int minus = -1;
    int64_t known = 1;
    for (size_t j = 0; j < n; j++) {
        int64_t d = v[j];
        if (d == 0 && !allowzero) {
            if ((int)j >= x.rank) return fail(q, "shape entry %zu is 0 but the input has rank "
                                              "%d", j, x.rank);
            d = x.d[j];
        }
        if (d == -1) {
            if (minus >= 0) return fail(q, "more than one -1 in the shape");
            minus = (int)j;
            continue;
        }
        if (d < 0) return fail(q, "shape entry %" PRId64 " is negative", d);
        o.d[j] = d;
        if (ab_mul_ovf(known, d, &known)) return fail(q, "the shape overflows");
    }
    int64_t total = numel(&x);
    if (total < 0) return fail(q, "the input overflows");
    if (minus >= 0) {
        if (known == 0 || total % known != 0)
            return fail(q, "cannot infer the -1 of the shape: %" PRId64 " elements into parts "
                        "of %" PRId64, total, known);
        o.d[minus] = total / known;
    } else if (known != total) {
        return fail(q, "the shape has %" PRId64 " elements, the input %" PRId64, known, total);
    }
    set_out(q, 0, &o);
    return pass_val(q);
}

static int op_flatten(ictx *q) {
    shp x;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    int64_t a = attr_i(q, "axis", 1);
    if (a < -(int64_t)x.rank || a > x.rank) return axis_err(q, "axis", a, x.rank);
    int axis = (int)(a < 0 ? a + x.rank : a);
    shp o = {.rank = 2, .elem = x.elem, .d = {1, 1}};
    for (int j = 0; j < x.rank; j++)
        if (ab_mul_ovf(o.d[j < axis ? 0 : 1], x.d[j], &o.d[j < axis ? 0 : 1]))
            return fail(q, "overflow");
    set_out(q, 0, &o);
    return pass_val(q);
}

static int op_transpose(ictx *q) {
    shp x;
    int64_t perm[R];
    size_t n;
    bool present, seen[R] = {false};
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    if (attr_ints(q, "perm", perm, R, &n, &present) != INF_OK) return INF_ERROR;
    if (!present) {
        n = (size_t)x.rank;
        for (int j = 0; j < x.rank; j++) perm[j] = x.rank - 1 - j;
    }
    if (n != (size_t)x.rank) return fail(q, "perm has %zu entries for rank %d", n, x.rank);
    shp o = x;
    for (size_t j = 0; j < n; j++) {
        if (perm[j] < 0 || perm[j] >= x.rank || seen[perm[j]])
            return fail(q, "perm is not a permutation");
        seen[perm[j]] = true;
        o.d[j] = x.d[perm[j]];
    }
    set_out(q, 0, &o);
    return INF_OK;
}

static int op_concat(ictx *q) {
    shp o, s;
    if (need(q, 0, &o) != INF_OK) return INF_ERROR;
    int axis;
    int64_t a = attr_i(q, "axis", 0);
    if (!norm_axis(a, o.rank, &axis)) return axis_err(q, "axis", a, o.rank);
    for (size_t k = 1; k < q->n->nin; k++) {
        if (!in_shape(q, k, &s)) continue;
        if (s.rank != o.rank) return fail(q, "input %zu has rank %d, input 0 %d", k, s.rank,
                                          o.rank);
        for (int j = 0; j < o.rank; j++)
            if (j != axis && s.d[j] != o.d[j])
                return fail(q, "input %zu differs in dimension %d", k, j);
        if (ab_add_ovf(o.d[axis], s.d[axis], &o.d[axis])) return fail(q, "overflow");
    }
    set_out(q, 0, &o);
    /* the values of 1-D integer inputs, joined */
    if (o.rank != 1) return INF_OK;
    int64_t v[ABF_ONNX_MAX_VALUES];
    size_t n = 0;
    for (size_t k = 0; k < q->n->nin; k++) {
        const abf_ox_val *x = in_val(q, k);
        if (!has_in(q, k)) continue;
        if (x == NULL || n + x->n > ABF_ONNX_MAX_VALUES) return INF_OK;
        memcpy(v + n, x->iv, x->n * sizeof *v);
        n += x->n;
    }
    return set_val_ints(q, 0, v, n);
}

/* Axes of Squeeze/Unsqueeze/Reduce*: the attribute, else input 1. */
static int axes_of(ictx *q, const char *name, size_t input, int64_t *v, size_t *n, bool *given) {
    if (attr_ints(q, name, v, R, n, given) != INF_OK) return INF_ERROR;
    if (*given) return INF_OK;
    if (!has_in(q, input)) return INF_OK;
    *given = true;
    return in_ints(q, input, v, R, n);
}

static int op_squeeze(ictx *q) {
    shp x;
    int64_t ax[R];
    size_t n;
    bool given, drop[R] = {false};
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    int rc = axes_of(q, "axes", 1, ax, &n, &given);
    if (rc != INF_OK) return rc;
    if (!given)
        for (int j = 0; j < x.rank; j++) drop[j] = x.d[j] == 1;
    for (size_t j = 0; given && j < n; j++) {
        int a;
        if (!norm_axis(ax[j], x.rank, &a)) return axis_err(q, "axis", ax[j], x.rank);
        if (x.d[a] != 1) return fail(q, "axis %d has dimension %" PRId64 ", not 1", a, x.d[a]);
        drop[a] = true;
    }
    shp o = {.rank = 0, .elem = x.elem};
    for (int j = 0; j < x.rank; j++)
        if (!drop[j]) o.d[o.rank++] = x.d[j];
    set_out(q, 0, &o);
    return pass_val(q);
}

static int op_unsqueeze(ictx *q) {
    shp x;
    int64_t ax[R];
    size_t n;
    bool given, ins[R] = {false};
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    int rc = axes_of(q, "axes", 1, ax, &n, &given);
    if (rc != INF_OK) return rc;
    if (!given) return fail(q, "no axes");
    int rank = x.rank + (int)n;
    if (rank > R) return fail(q, "output rank above %d", R);
    for (size_t j = 0; j < n; j++) {
        int a;
        if (!norm_axis(ax[j], rank, &a)) return axis_err(q, "axis", ax[j], rank);
        if (ins[a]) return fail(q, "axis %d repeated", a);
        ins[a] = true;
    }
    shp o = {.rank = rank, .elem = x.elem};
    for (int j = 0, k = 0; j < rank; j++) o.d[j] = ins[j] ? 1 : x.d[k++];
    set_out(q, 0, &o);
    return pass_val(q);
}

static int op_gather(ictx *q) {
    shp x, i;
    if (need(q, 0, &x) != INF_OK || need(q, 1, &i) != INF_OK) return INF_ERROR;
    int axis;
    int64_t a = attr_i(q, "axis", 0);
    if (!norm_axis(a, x.rank, &axis)) return axis_err(q, "axis", a, x.rank);
    if (x.rank - 1 + i.rank > R) return fail(q, "output rank above %d", R);
    shp o = {.rank = 0, .elem = x.elem};
    for (int j = 0; j < axis; j++) o.d[o.rank++] = x.d[j];
    for (int j = 0; j < i.rank; j++) o.d[o.rank++] = i.d[j];
    for (int j = axis + 1; j < x.rank; j++) o.d[o.rank++] = x.d[j];
    set_out(q, 0, &o);
    const abf_ox_val *xv = in_val(q, 0), *iv = in_val(q, 1);
    if (xv == NULL || iv == NULL || x.rank != 1 || i.rank > 1) return INF_OK;
    int64_t v[R];
    if (iv->n > R) return INF_OK;
    for (size_t j = 0; j < iv->n; j++) {
        int64_t k = iv->iv[j] < 0 ? iv->iv[j] + (int64_t)xv->n : iv->iv[j];
        if (k < 0 || (size_t)k >= xv->n) return INF_OK;
        v[j] = xv->iv[k];
    }
    return set_val_ints(q, 0, v, iv->n);
}

static int op_gather_elements(ictx *q) {
    shp x, i;
    if (need(q, 0, &x) != INF_OK || need(q, 1, &i) != INF_OK) return INF_ERROR;
    i.elem = x.elem;
    set_out(q, 0, &i);
    return INF_OK;
}

static int op_gather_nd(ictx *q) {
    shp x, i;
    if (need(q, 0, &x) != INF_OK || need(q, 1, &i) != INF_OK) return INF_ERROR;
    int64_t b = attr_i(q, "batch_dims", 0);
    if (i.rank < 1 || b < 0 || b >= i.rank || b > x.rank) return fail(q, "bad batch_dims");
    int64_t last = i.d[i.rank - 1];
    if (last < 1 || b + last > x.rank) return fail(q, "indices' last dimension out of range");
    shp o = {.rank = 0, .elem = x.elem};
    for (int j = 0; j < i.rank - 1; j++) o.d[o.rank++] = i.d[j];
    for (int64_t j = b + last; j < x.rank; j++) {
        if (o.rank == R) return fail(q, "output rank above %d", R);
        o.d[o.rank++] = x.d[j];
    }
    set_out(q, 0, &o);
    return INF_OK;
}

static int64_t clamp(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

static int op_slice(ictx *q) {
    shp x;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    int64_t st[R], en[R], ax[R], sp[R];
    size_t ns, ne, na = 0, nsp = 0;
    bool attrs, p2, p3;
    if (attr_ints(q, "starts", st, R, &ns, &attrs) != INF_OK) return INF_ERROR;
    int rc;
    if (attrs) { /* opset < 10 */
        if (attr_ints(q, "ends", en, R, &ne, &p2) != INF_OK ||
            attr_ints(q, "axes", ax, R, &na, &p3) != INF_OK)
            return INF_ERROR;
    } else {
        if ((rc = in_ints(q, 1, st, R, &ns)) != INF_OK) return rc;
        if ((rc = in_ints(q, 2, en, R, &ne)) != INF_OK) return rc;
        if (has_in(q, 3) && (rc = in_ints(q, 3, ax, R, &na)) != INF_OK) return rc;
        if (has_in(q, 4) && (rc = in_ints(q, 4, sp, R, &nsp)) != INF_OK) return rc;
    }
    if (ne != ns || (na && na != ns) || (nsp && nsp != ns))
        return fail(q, "starts, ends, axes and steps differ in length");
    shp o = x;
    for (size_t j = 0; j < ns; j++) {
        int a;
        int64_t araw = na ? ax[j] : (int64_t)j;
        if (!norm_axis(araw, x.rank, &a)) return axis_err(q, "axis", araw, x.rank);
        int64_t step = nsp ? sp[j] : 1, d = x.d[a], s = st[j], e = en[j], len;
        if (step == 0) return fail(q, "a step of 0");
        if (s < 0) s = s < -d ? -1 : s + d;
        if (e < 0) e = e < -d ? -1 : e + d;
        if (step > 0) {
            s = clamp(s, 0, d);
            e = clamp(e, 0, d);
            len = e > s ? (e - s - 1) / step + 1 : 0;
        } else {
            s = clamp(s, -1, d - 1);
            e = clamp(e, -1, d - 1);
            len = s > e ? (s - e - 1) / (step == INT64_MIN ? INT64_MAX : -step) + 1 : 0;
        }
        o.d[a] = len;
    }
    set_out(q, 0, &o);
    /* a slice of a known 1-D integer value (shape arithmetic) */
    const abf_ox_val *xv = in_val(q, 0);
    if (xv == NULL || x.rank != 1 || ns != 1 || (nsp && sp[0] != 1)) return INF_OK;
    int64_t s = st[0], d = x.d[0];
    if (s < 0) s = s < -d ? 0 : s + d;
    s = clamp(s, 0, d);
    if ((size_t)(s + o.d[0]) > xv->n) return INF_OK;
    return set_val_ints(q, 0, xv->iv + s, (size_t)o.d[0]);
}

static int op_pad(ictx *q) {
    shp x;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    int64_t pads[2 * R], ax[R];
    size_t np, na = 0;
    bool present;
    if (attr_ints(q, "pads", pads, 2 * R, &np, &present) != INF_OK) return INF_ERROR;
    int rc;
    if (!present && (rc = in_ints(q, 1, pads, 2 * R, &np)) != INF_OK) return rc;
    if (has_in(q, 3) && (rc = in_ints(q, 3, ax, R, &na)) != INF_OK) return rc;
    if (na == 0) {
        na = (size_t)x.rank;
        for (int j = 0; j < x.rank; j++) ax[j] = j;
    }
    if (np != 2 * na) return fail(q, "%zu pads for %zu axes", np, na);
    shp o = x;
    for (size_t j = 0; j < na; j++) {
        int a;
        if (!norm_axis(ax[j], x.rank, &a)) return axis_err(q, "axis", ax[j], x.rank);
        if (pads[j] < -AB_MAX_SIZE || pads[j] > AB_MAX_SIZE || pads[j + na] < -AB_MAX_SIZE ||
            pads[j + na] > AB_MAX_SIZE)
            return fail(q, "pads out of range");
        o.d[a] = x.d[a] + pads[j] + pads[j + na];
        if (o.d[a] < 0) return fail(q, "pads out of range");
    }
    if (check_shape(q, &o) != INF_OK) return INF_ERROR;
    set_out(q, 0, &o);
    return INF_OK;
}

static int op_resize(ictx *q) {
    shp x;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    int64_t ax[R], sizes[R];
    double scales[R];
    size_t na, ns = 0;
    bool has_axes;
    if (attr_ints(q, "axes", ax, R, &na, &has_axes) != INF_OK) return INF_ERROR;
    bool upsample = strcmp(q->n->op, "Upsample") == 0;
    size_t si = upsample || q->n->nin == 2 ? 1 : 2; /* opset 10 and Upsample: X, scales */
    bool use_sizes = !upsample && in_nonempty(q, 3);
    int rc;
    const abf_ox_attr *sa = upsample ? attr(q, "scales") : NULL;
    if (sa != NULL) {
        if (sa->nfloats > R) return fail(q, "too many scales");
        ns = sa->nfloats;
        for (size_t j = 0; j < ns; j++) scales[j] = sa->floats[j];
    } else if (use_sizes) {
        if ((rc = in_ints(q, 3, sizes, R, &ns)) != INF_OK) return rc;
    } else if (in_nonempty(q, si)) {
        if ((rc = in_floats(q, si, scales, R, &ns)) != INF_OK) return rc;
    } else {
        return fail(q, "neither scales nor sizes");
    }
    if (!has_axes) {
        na = (size_t)x.rank;
        for (int j = 0; j < x.rank; j++) ax[j] = j;
    }
    if (ns != na) return fail(q, "%zu scales or sizes for %zu axes", ns, na);
    shp o = x;
    bool stretch = attr_s_is(q, "keep_aspect_ratio_policy", "stretch", true);
    double ratio = 0;
    if (use_sizes && !stretch) {
        bool larger = attr_s_is(q, "keep_aspect_ratio_policy", "not_larger", false);
        for (size_t j = 0; j < na; j++) {
            int a;
            if (!norm_axis(ax[j], x.rank, &a)) return axis_err(q, "axis", ax[j], x.rank);
            double r = x.d[a] ? (double)sizes[j] / (double)x.d[a] : 0;
            if (j == 0 || (larger ? r < ratio : r > ratio)) ratio = r;
        }
    }
    for (size_t j = 0; j < na; j++) {
        int a;
        if (!norm_axis(ax[j], x.rank, &a)) return axis_err(q, "axis", ax[j], x.rank);
        double v;
        if (use_sizes && stretch) v = (double)sizes[j];
        else if (use_sizes) v = floor(ratio * (double)x.d[a] + 0.5);
        else v = floor((double)x.d[a] * scales[j]);
        if (!(v >= 0 && v <= (double)AB_MAX_SIZE)) return fail(q, "an output size out of range");
        o.d[a] = (int64_t)v;
    }
    set_out(q, 0, &o);
    return INF_OK;
}

static int op_split(ictx *q) {
    shp x;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    int axis;
    int64_t a = attr_i(q, "axis", 0);
    if (!norm_axis(a, x.rank, &axis)) return axis_err(q, "axis", a, x.rank);
    size_t nout = q->n->nout, n;
    int64_t *parts = ab_alloc_array(nout ? nout : 1, sizeof *parts);
    if (parts == NULL) return fail(q, "out of memory");
    bool present;
    int rc = INF_OK;
    int64_t small[R];
    if (nout <= ABF_OX_MAX_ATTR_LIST) {
        int64_t *buf = ab_alloc_array(nout ? nout : 1, sizeof *buf);
        if (buf == NULL) rc = fail(q, "out of memory");
        else rc = attr_ints(q, "split", buf, nout, &n, &present);
        if (rc == INF_OK && !present && in_nonempty(q, 1)) {
            present = true;
            const abf_ox_val *v = has_in(q, 1) ? &q->c->vx[q->n->in[1]].val : NULL;
            if (v == NULL || !v->known) rc = in_ints(q, 1, small, R, &n);
            else if (v->n != nout) rc = fail(q, "split has %zu entries for %zu outputs", v->n, nout);
            else for (n = 0; n < nout; n++) buf[n] = v->iv ? v->iv[n] : abf_ox_f2i(v->fv[n]);
        }
        if (rc == INF_OK && present && n != nout)
            rc = fail(q, "split has %zu entries for %zu outputs", n, nout);
        if (rc == INF_OK && present) memcpy(parts, buf, nout * sizeof *parts);
        if (rc == INF_OK && !present) {
            int64_t d = x.d[axis], k = (int64_t)nout, num = attr_i(q, "num_outputs", 0);
            if (k == 0) rc = fail(q, "no outputs");
            else if (d % k != 0 && num == 0)
                rc = fail(q, "dimension %" PRId64 " does not split into %zu equal parts", d, nout);
            int64_t chunk = k ? (d + k - 1) / k : 0;
            for (size_t j = 0; rc == INF_OK && j < nout; j++) {
                int64_t used, left = ab_mul_ovf(chunk, (int64_t)j, &used) ? 0 : d - used;
                parts[j] = left < 0 ? 0 : left < chunk ? left : chunk;
            }
        }
        ab_free(buf);
    } else {
        rc = fail(q, "more than %d outputs", ABF_OX_MAX_ATTR_LIST);
    }
    for (size_t j = 0; rc == INF_OK && j < nout; j++) {
        shp o = x;
        o.d[axis] = parts[j];
        if (parts[j] < 0) rc = fail(q, "a negative split");
        else set_out(q, j, &o);
    }
    ab_free(parts);
    return rc;
}

static int op_shape(ictx *q) {
    shp x;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    int64_t s = attr_i(q, "start", 0), e = attr_i(q, "end", x.rank);
    if (s < 0) s += x.rank;
    if (e < 0) e += x.rank;
    s = clamp(s, 0, x.rank);
    e = clamp(e, 0, x.rank);
    if (e < s) e = s;
    shp o = {.rank = 1, .elem = ABF_ONNX_INT64, .d = {e - s}};
    set_out(q, 0, &o);
    return set_val_ints(q, 0, x.d + s, (size_t)(e - s));
}

static int op_size(ictx *q) {
    shp x;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    shp o = {.rank = 0, .elem = ABF_ONNX_INT64};
    set_out(q, 0, &o);
    int64_t n = numel(&x);
    return n >= 0 ? set_val_ints(q, 0, &n, 1) : INF_OK;
}

static int op_reduce(ictx *q) {
    shp x;
    int64_t ax[R];
    size_t n;
    bool given, red[R] = {false};
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    int rc = axes_of(q, "axes", 1, ax, &n, &given);
    if (rc != INF_OK) return rc;
    bool keep = attr_i(q, "keepdims", 1) != 0;
    if (n == 0) {
        if (attr_i(q, "noop_with_empty_axes", 0) != 0) return op_same(q);
        for (int j = 0; j < x.rank; j++) red[j] = true;
    }
    for (size_t j = 0; j < n; j++) {
        int a;
        if (!norm_axis(ax[j], x.rank, &a)) return axis_err(q, "axis", ax[j], x.rank);
        red[a] = true;
    }
    shp o = {.rank = 0, .elem = x.elem};
    for (int j = 0; j < x.rank; j++)
        if (!red[j]) o.d[o.rank++] = x.d[j];
        else if (keep) o.d[o.rank++] = 1;
    set_out(q, 0, &o);
    return INF_OK;
}

static int op_argmax(ictx *q) {
    shp x;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    int axis;
    int64_t a = attr_i(q, "axis", 0);
    if (!norm_axis(a, x.rank, &axis)) return axis_err(q, "axis", a, x.rank);
    bool keep = attr_i(q, "keepdims", 1) != 0;
    shp o = {.rank = 0, .elem = ABF_ONNX_INT64};
    for (int j = 0; j < x.rank; j++)
        if (j != axis) o.d[o.rank++] = x.d[j];
        else if (keep) o.d[o.rank++] = 1;
    set_out(q, 0, &o);
    return INF_OK;
}

static int op_tile(ictx *q) {
    shp x;
    int64_t r[R];
    size_t n;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    int rc = in_ints(q, 1, r, R, &n);
    if (rc != INF_OK) return rc;
    if (n != (size_t)x.rank) return fail(q, "%zu repeats for rank %d", n, x.rank);
    for (int j = 0; j < x.rank; j++)
        if (r[j] < 0 || ab_mul_ovf(x.d[j], r[j], &x.d[j])) return fail(q, "bad repeats");
    if (check_shape(q, &x) != INF_OK) return INF_ERROR;
    set_out(q, 0, &x);
    return INF_OK;
}

static int op_expand(ictx *q) {
    shp x, s = {0}, o;
    int64_t v[R];
    size_t n;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    int rc = in_ints(q, 1, v, R, &n);
    if (rc != INF_OK) return rc;
    s.rank = (int)n;
    for (size_t j = 0; j < n; j++) s.d[j] = v[j];
    if (check_shape(q, &s) != INF_OK || broadcast(q, &x, &s, &o) != INF_OK) return INF_ERROR;
    o.elem = x.elem;
    set_out(q, 0, &o);
    return INF_OK;
}

static int op_range(ictx *q) {
    double v[3];
    shp s;
    for (size_t k = 0; k < 3; k++) {
        size_t n;
        int rc = in_floats(q, k, &v[k], 1, &n);
        if (rc != INF_OK) return rc;
        if (n != 1) return fail(q, "input %zu is not a scalar", k);
    }
    if (v[2] == 0) return fail(q, "delta is 0");
    double len = ceil((v[1] - v[0]) / v[2]);
    if (!(len <= (double)AB_MAX_SIZE)) return fail(q, "too long");
    shp o = {.rank = 1, .elem = in_shape(q, 0, &s) ? s.elem : 0, .d = {len > 0 ? (int64_t)len : 0}};
    set_out(q, 0, &o);
    return INF_OK;
}

static int op_topk(ictx *q) {
    shp x;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    int64_t k;
    size_t n;
    if (has_in(q, 1)) {
        int rc = in_ints(q, 1, &k, 1, &n);
        if (rc != INF_OK) return rc;
        if (n != 1) return fail(q, "K is not one value");
    } else {
        k = attr_i(q, "k", -1);
    }
    int axis;
    int64_t a = attr_i(q, "axis", -1);
    if (!norm_axis(a, x.rank, &axis)) return axis_err(q, "axis", a, x.rank);
    if (k < 0 || k > x.d[axis]) return fail(q, "K = %" PRId64 " out of range", k);
    x.d[axis] = k;
    set_out(q, 0, &x);
    x.elem = ABF_ONNX_INT64;
    set_out(q, 1, &x);
    return INF_OK;
}

static int op_depth_space(ictx *q) {
    shp x;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    int64_t b = attr_i(q, "blocksize", 0), bb;
    if (x.rank != 4 || b < 1 || ab_mul_ovf(b, b, &bb)) return fail(q, "needs rank 4 and a "
                                                                     "blocksize >= 1");
    if (strcmp(q->n->op, "DepthToSpace") == 0) {
        if (x.d[1] % bb) return fail(q, "channels not divisible by blocksize^2");
        x.d[1] /= bb;
        if (ab_mul_ovf(x.d[2], b, &x.d[2]) || ab_mul_ovf(x.d[3], b, &x.d[3]))
            return fail(q, "overflow");
    } else {
        if (x.d[2] % b || x.d[3] % b) return fail(q, "height or width not divisible by "
                                                  "blocksize");
        x.d[2] /= b;
        x.d[3] /= b;
        if (ab_mul_ovf(x.d[1], bb, &x.d[1])) return fail(q, "overflow");
    }
    set_out(q, 0, &x);
    return INF_OK;
}

static int op_quantize(ictx *q) {
    shp x, z;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    int64_t od = attr_i(q, "output_dtype", 0);
    x.elem = in_shape(q, 2, &z) ? z.elem : od ? (int)od : ABF_ONNX_UINT8;
    set_out(q, 0, &x);
    return INF_OK;
}

static int op_dequantize(ictx *q) {
    shp x, s;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    x.elem = in_shape(q, 1, &s) ? s.elem : ABF_ONNX_FLOAT;
    set_out(q, 0, &x);
    return INF_OK;
}

static int op_dynamic_quantize(ictx *q) {
    shp x;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    x.elem = ABF_ONNX_UINT8;
    set_out(q, 0, &x);
    shp s = {.rank = 0, .elem = ABF_ONNX_FLOAT};
    set_out(q, 1, &s);
    s.elem = ABF_ONNX_UINT8;
    set_out(q, 2, &s);
    return INF_OK;
}

/* RNN, GRU, LSTM: Y, Y_h (and Y_c). */
static int op_rnn(ictx *q) {
    shp x;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    if (x.rank != 3) return fail(q, "X has rank %d, expected 3", x.rank);
    int64_t h = attr_i(q, "hidden_size", 0), layout = attr_i(q, "layout", 0);
    if (h < 1) {
        shp r;
        if (!in_shape(q, 2, &r) || r.rank != 3) return fail(q, "no hidden_size");
        h = r.d[2];
    }
    int64_t dirs = attr_s_is(q, "direction", "bidirectional", false) ? 2 : 1;
    int64_t seq = layout ? x.d[1] : x.d[0], batch = layout ? x.d[0] : x.d[1];
    shp y = {.rank = 4, .elem = x.elem}, yh = {.rank = 3, .elem = x.elem};
    if (layout) {
        int64_t a[4] = {batch, seq, dirs, h}, b[3] = {batch, dirs, h};
        memcpy(y.d, a, sizeof a);
        memcpy(yh.d, b, sizeof b);
    } else {
        int64_t a[4] = {seq, dirs, batch, h}, b[3] = {dirs, batch, h};
        memcpy(y.d, a, sizeof a);
        memcpy(yh.d, b, sizeof b);
    }
    set_out(q, 0, &y);
    set_out(q, 1, &yh);
    set_out(q, 2, &yh);
    return INF_OK;
}

static int op_onehot(ictx *q) {
    shp i, v;
    int64_t depth;
    size_t n;
    if (need(q, 0, &i) != INF_OK || need(q, 2, &v) != INF_OK) return INF_ERROR;
    int rc = in_ints(q, 1, &depth, 1, &n);
    if (rc != INF_OK) return rc;
    int axis;
    int64_t a = attr_i(q, "axis", -1);
    if (i.rank + 1 > R || !norm_axis(a, i.rank + 1, &axis)) return axis_err(q, "axis", a, i.rank + 1);
    shp o = {.rank = i.rank + 1, .elem = v.elem};
    for (int j = 0, k = 0; j < o.rank; j++) o.d[j] = j == axis ? depth : i.d[k++];
    if (check_shape(q, &o) != INF_OK) return INF_ERROR;
    set_out(q, 0, &o);
    return INF_OK;
}

/* EyeLike, Bernoulli: like input 0, in the type of attribute dtype when given. */
static int op_same_dtype(ictx *q) {
    shp x;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    x.elem = (int)attr_i(q, "dtype", x.elem);
    set_out(q, 0, &x);
    return INF_OK;
}

/* GridSample: [N, C] of X, then the grid's dimensions between N and the last. */
static int op_grid_sample(ictx *q) {
    shp x, g;
    if (need(q, 0, &x) != INF_OK || need(q, 1, &g) != INF_OK) return INF_ERROR;
    if (x.rank < 3 || g.rank != x.rank) return fail(q, "X of rank %d, grid of rank %d", x.rank,
                                                    g.rank);
    shp o = {.rank = x.rank, .elem = x.elem, .d = {x.d[0], x.d[1]}};
    for (int j = 1; j < g.rank - 1; j++) o.d[j + 1] = g.d[j];
    set_out(q, 0, &o);
    return INF_OK;
}

/* RoiAlign: [num_rois, C, output_height, output_width]. */
static int op_roi_align(ictx *q) {
    shp x, r;
    if (need(q, 0, &x) != INF_OK || need(q, 1, &r) != INF_OK) return INF_ERROR;
    if (x.rank != 4 || r.rank != 2) return fail(q, "X must have rank 4 and rois rank 2");
    shp o = {.rank = 4, .elem = x.elem,
             .d = {r.d[0], x.d[1], attr_i(q, "output_height", 1), attr_i(q, "output_width", 1)}};
    if (check_shape(q, &o) != INF_OK) return INF_ERROR;
    set_out(q, 0, &o);
    return INF_OK;
}

/* Det: the batch dimensions of [*, M, M]. */
static int op_det(ictx *q) {
    shp x;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    if (x.rank < 2) return fail(q, "input of rank %d", x.rank);
    x.rank -= 2;
    set_out(q, 0, &x);
    return INF_OK;
}

/* MaxUnpool: output_shape (input 2) when given, else (in - 1) * stride + kernel - pads. */
static int op_max_unpool(ictx *q) {
    shp x;
    if (need(q, 0, &x) != INF_OK) return INF_ERROR;
    if (x.rank < 3) return fail(q, "input of rank %d (expected at least 3)", x.rank);
    if (has_in(q, 2)) {
        int64_t v[R];
        size_t n;
        int rc = in_ints(q, 2, v, R, &n);
        if (rc != INF_OK) return rc;
        if (n != (size_t)x.rank) return fail(q, "output_shape has %zu entries for rank %d", n,
                                             x.rank);
        shp o = {.rank = x.rank, .elem = x.elem};
        memcpy(o.d, v, n * sizeof *v);
        if (check_shape(q, &o) != INF_OK) return INF_ERROR;
        set_out(q, 0, &o);
        return INF_OK;
    }
    int nsp = x.rank - 2;
    int64_t kernel[R], strides[R], pads[2 * R] = {0};
    size_t nk, ns, np;
    bool hk, hs, hp;
    if (attr_ints(q, "kernel_shape", kernel, R, &nk, &hk) != INF_OK ||
        attr_ints(q, "strides", strides, R, &ns, &hs) != INF_OK ||
        attr_ints(q, "pads", pads, 2 * R, &np, &hp) != INF_OK)
        return INF_ERROR;
    if (!hk || nk != (size_t)nsp || (hs && ns != (size_t)nsp) || (hp && np != 2 * (size_t)nsp))
        return fail(q, "kernel_shape, strides or pads do not match %d spatial dimensions", nsp);
    shp o = x;
    for (int j = 0; j < nsp; j++) {
        int64_t s = hs ? strides[j] : 1, in = x.d[j + 2], out;
        if (s < 1 || s > AB_MAX_SIZE || kernel[j] < 1 || kernel[j] > AB_MAX_SIZE || pads[j] < 0 ||
            pads[j] > AB_MAX_SIZE || pads[j + nsp] < 0 || pads[j + nsp] > AB_MAX_SIZE || in < 1 ||
            ab_mul_ovf(in - 1, s, &out) || ab_add_ovf(out, kernel[j], &out))
            return fail(q, "a kernel, stride or pad out of range");
        o.d[j + 2] = out - pads[j] - pads[j + nsp];
    }
    if (check_shape(q, &o) != INF_OK) return INF_ERROR;
    set_out(q, 0, &o);
    return INF_OK;
}

/* Einsum: the equation's letters name dimensions ("..." the broadcast rest);
 * the output is the right-hand side, or, without one, the broadcast dimensions
 * then the letters used once, in ASCII order (numpy's rule). */
static int op_einsum(ictx *q) {
    const abf_ox_attr *a = attr(q, "equation");
    if (a == NULL || !(a->has & ABF_OX_HAS_S)) return fail(q, "no equation");
    int64_t dim[128];
    int count[128] = {0};
    for (int k = 0; k < 128; k++) dim[k] = -1;
    shp ell = {.rank = 0};
    bool ell_seen = false;
    size_t i = 0, input = 0, n = a->ns;
    const uint8_t *e = a->s;
    int elem = 0;
    for (;; input++) { /* one term an input */
        shp x;
        if (need(q, input, &x) != INF_OK) return INF_ERROR;
        if (input == 0) elem = x.elem;
        char letters[R + 1];
        int nl = 0, ell_at = -1;
        for (; i < n && e[i] != ',' && e[i] != '-'; i++) {
            if (e[i] == ' ') continue;
            if (e[i] == '.') {
                if (i + 2 >= n || e[i + 1] != '.' || e[i + 2] != '.' || ell_at >= 0)
                    return fail(q, "a malformed ellipsis in the equation");
                ell_at = nl;
                i += 2;
                continue;
            }
            if (!((e[i] >= 'a' && e[i] <= 'z') || (e[i] >= 'A' && e[i] <= 'Z')) || nl == R)
                return fail(q, "equation: unexpected character or too many letters");
            letters[nl++] = (char)e[i];
        }
        int nell = x.rank - nl;
        if (nell < 0 || (ell_at < 0 && nell != 0))
            return fail(q, "input %zu has rank %d for %d letters", input, x.rank, nl);
        shp this_ell = {.rank = ell_at < 0 ? 0 : nell};
        for (int k = 0, d = 0; k < nl; k++, d++) {
            if (k == ell_at) {
                for (int j = 0; j < nell; j++) this_ell.d[j] = x.d[d + j];
                d += nell;
            }
            int c = letters[k];
            if (dim[c] < 0 || dim[c] == 1) dim[c] = x.d[d];
            else if (x.d[d] != 1 && x.d[d] != dim[c])
                return fail(q, "letter '%c' is %" PRId64 " and %" PRId64, c, dim[c], x.d[d]);
            count[c]++;
        }
        if (ell_at == nl)
            for (int j = 0; j < nell; j++) this_ell.d[j] = x.d[nl + j];
        if (ell_at >= 0) {
            shp t;
            if (broadcast(q, &ell, &this_ell, &t) != INF_OK) return INF_ERROR;
            ell = t;
            ell_seen = true;
        }
        if (i >= n || e[i] == '-') break;
        i++; /* the comma */
    }
    if (input + 1 != q->n->nin) return fail(q, "the equation has %zu terms for %zu inputs",
                                            input + 1, q->n->nin);
    shp o = {.rank = 0, .elem = elem};
    if (i < n) { /* "->" then the output */
        if (i + 1 >= n || e[i + 1] != '>') return fail(q, "a malformed '->'");
        for (i += 2; i < n; i++) {
            if (e[i] == ' ') continue;
            if (e[i] == '.') {
                if (i + 2 >= n || e[i + 1] != '.' || e[i + 2] != '.')
                    return fail(q, "a malformed ellipsis in the output");
                i += 2;
                for (int j = 0; j < ell.rank && o.rank < R; j++) o.d[o.rank++] = ell.d[j];
                continue;
            }
            int c = e[i];
            if (c >= 128 || dim[c] < 0 || o.rank == R)
                return fail(q, "output letter '%c' names no input dimension", c);
            o.d[o.rank++] = dim[c];
        }
    } else {
        for (int j = 0; ell_seen && j < ell.rank; j++) o.d[o.rank++] = ell.d[j];
        for (int c = 'A'; c <= 'z'; c++)
            if (count[c] == 1 && o.rank < R) o.d[o.rank++] = dim[c];
    }
    set_out(q, 0, &o);
    return INF_OK;
}

/* The operators with a rule; each name once. */
static const struct {
    const char *op;
    int (*infer)(ictx *q);
} rules[] = {
    /* elementwise, one input */
    {"Abs", op_same}, {"Acos", op_same}, {"Acosh", op_same}, {"Asin", op_same},
    {"Asinh", op_same}, {"Atan", op_same}, {"Atanh", op_same}, {"BitwiseNot", op_same},
    {"Ceil", op_same}, {"Celu", op_same}, {"Clip", op_same}, {"Cos", op_same},
    {"Cosh", op_same}, {"CumSum", op_same}, {"Elu", op_same}, {"Erf", op_same},
    {"Exp", op_same}, {"Floor", op_same}, {"Gelu", op_same}, {"HardSigmoid", op_same},
    {"HardSwish", op_same}, {"Hardmax", op_same}, {"LeakyRelu", op_same}, {"Log", op_same},
    {"LogSoftmax", op_same}, {"LpNormalization", op_same}, {"LRN", op_same},
    {"MeanVarianceNormalization", op_same}, {"Mish", op_same}, {"Neg", op_same},
    {"Reciprocal", op_same}, {"Relu", op_same}, {"Round", op_same}, {"Selu", op_same},
    {"Shrink", op_same}, {"Sigmoid", op_same}, {"Sign", op_same}, {"Sin", op_same},
    {"Sinh", op_same}, {"Softmax", op_same}, {"Softplus", op_same}, {"Softsign", op_same},
    {"Sqrt", op_same}, {"Tan", op_same}, {"Tanh", op_same}, {"ThresholdedRelu", op_same},
    {"Trilu", op_same}, {"InstanceNormalization", op_same}, {"GroupNormalization", op_same},
    {"ReverseSequence", op_same}, {"ScatterElements", op_same}, {"ScatterND", op_same},
    {"Scatter", op_same}, {"EyeLike", op_same_dtype}, {"Bernoulli", op_same_dtype},
    {"GridSample", op_grid_sample}, {"RoiAlign", op_roi_align}, {"Det", op_det},
    {"MaxUnpool", op_max_unpool}, {"Einsum", op_einsum}, {"Identity", op_identity}, {"Not", op_bool_same},
    {"IsNaN", op_bool_same}, {"IsInf", op_bool_same},
    /* elementwise with broadcasting */
    {"Add", op_bcast}, {"Sub", op_bcast}, {"Mul", op_bcast}, {"Div", op_bcast},
    {"Pow", op_bcast}, {"Mod", op_bcast}, {"BitShift", op_bcast}, {"BitwiseAnd", op_bcast},
    {"BitwiseOr", op_bcast}, {"BitwiseXor", op_bcast}, {"Max", op_bcast}, {"Min", op_bcast},
    {"Sum", op_bcast}, {"Mean", op_bcast}, {"PRelu", op_bcast}, {"And", op_compare},
    {"Or", op_compare}, {"Xor", op_compare}, {"Equal", op_compare}, {"Less", op_compare},
    {"Greater", op_compare}, {"LessOrEqual", op_compare}, {"GreaterOrEqual", op_compare},
    {"Where", op_where},
    /* types and constants */
    {"Cast", op_cast}, {"CastLike", op_cast_like}, {"Constant", op_constant},
    {"ConstantOfShape", op_constant_of_shape},
    /* convolutions, pools, matrices, normalizations */
    {"Conv", op_conv}, {"ConvTranspose", op_conv_transpose}, {"ConvInteger", op_conv_integer},
    {"QLinearConv", op_qlinear_conv}, {"MaxPool", op_pool}, {"AveragePool", op_pool},
    {"LpPool", op_pool}, {"GlobalAveragePool", op_global_pool},
    {"GlobalMaxPool", op_global_pool}, {"GlobalLpPool", op_global_pool}, {"Gemm", op_gemm},
    {"MatMul", op_matmul}, {"MatMulInteger", op_matmul_integer},
    {"QLinearMatMul", op_qlinear_matmul}, {"BatchNormalization", op_batchnorm},
    {"LayerNormalization", op_layernorm}, {"Dropout", op_dropout},
    /* shapes */
    {"Reshape", op_reshape}, {"Flatten", op_flatten}, {"Transpose", op_transpose},
    {"Concat", op_concat}, {"Squeeze", op_squeeze}, {"Unsqueeze", op_unsqueeze},
    {"Gather", op_gather}, {"GatherElements", op_gather_elements}, {"GatherND", op_gather_nd},
    {"Slice", op_slice}, {"Pad", op_pad}, {"Resize", op_resize}, {"Upsample", op_resize},
    {"Split", op_split}, {"Shape", op_shape}, {"Size", op_size}, {"Tile", op_tile},
    {"Expand", op_expand}, {"Range", op_range}, {"TopK", op_topk},
    {"DepthToSpace", op_depth_space}, {"SpaceToDepth", op_depth_space}, {"OneHot", op_onehot},
    /* reductions */
    {"ReduceMean", op_reduce}, {"ReduceSum", op_reduce}, {"ReduceMax", op_reduce},
    {"ReduceMin", op_reduce}, {"ReduceProd", op_reduce}, {"ReduceL1", op_reduce},
    {"ReduceL2", op_reduce}, {"ReduceLogSum", op_reduce}, {"ReduceLogSumExp", op_reduce},
    {"ReduceSumSquare", op_reduce}, {"ArgMax", op_argmax}, {"ArgMin", op_argmax},
    /* quantization, recurrent */
    {"QuantizeLinear", op_quantize}, {"DequantizeLinear", op_dequantize},
    {"DynamicQuantizeLinear", op_dynamic_quantize}, {"RNN", op_rnn}, {"GRU", op_rnn},
    {"LSTM", op_rnn},
};

/* ---- declared shapes and symbolic dimensions ------------------------------------------- */

/* The value --dim or --assume-dynamic gives for dimension d of value vi
 * (param its dim_param or NULL), or 0. */
static int64_t dim_value(const abf_ox_ctx *c, int32_t vi, const uint8_t *param, size_t nparam) {
    const abf_onnx_options *o = c->o;
    for (size_t j = o->ndims; j-- > 0;) {
        const char *name = o->dims[j].tensor;
        size_t n = strlen(name);
        if (param != NULL && n == nparam && memcmp(name, param, n) == 0) return o->dims[j].value;
    }
    for (size_t j = o->ndims; j-- > 0;)
        if (strcmp(o->dims[j].tensor, c->m->v[vi].name) == 0) return o->dims[j].value;
    return o->assume_dynamic > 0 ? o->assume_dynamic : 0;
}

/* The declared shape of vi with symbolic dimensions resolved into *s; dims
 * left unresolved are -1. false when nothing is declared. */
static bool declared(const abf_ox_ctx *c, int32_t vi, shp *s) {
    const abf_ox_vx *x = &c->vx[vi];
    if (x->decl_rank < 0 && x->decl_elem == 0) return false;
    s->rank = x->decl_rank;
    s->elem = x->decl_elem;
    for (int j = 0; j < x->decl_rank; j++) {
        s->d[j] = x->decl[j];
        if (s->d[j] < 0) {
            int64_t v = dim_value(c, vi, x->param[j], x->nparam[j]);
            s->d[j] = v > 0 ? v : -1;
        }
    }
    return true;
}

/* The message for an unresolved dimension j of vi. */
static ab_status unresolved(abf_ox_ctx *c, int32_t vi, int j) {
    const abf_ox_vx *x = &c->vx[vi];
    const char *name = c->m->v[vi].name;
    if (x->param[j] != NULL) {
        char *p = abf_clean_name(x->param[j], x->nparam[j]);
        ab_status st = ab_fail(c->r.err, AB_EINPUT, "%s: tensor '%s': dimension %d is symbolic "
                               "('%s'); give its value with --dim %s=N or --assume-dynamic=N",
                               c->m->file, name, j, p ? p : "?", p ? p : "?");
        ab_free(p);
        return st;
    }
    return ab_fail(c->r.err, AB_EINPUT, "%s: tensor '%s': dimension %d is unknown; give its "
                   "value with --dim %s=N or --assume-dynamic=N", c->m->file, name, j, name);
}

static ab_status set_value_shape(abf_ox_ctx *c, int32_t vi, const shp *s) {
    abf_onnx_value *v = &c->m->v[vi];
    ab_free(v->dims);
    v->dims = ab_alloc_array((size_t)(s->rank > 0 ? s->rank : 1), sizeof *v->dims);
    if (v->dims == NULL) return ab_fail(c->r.err, AB_ENOMEM, "out of memory inferring shapes");
    memcpy(v->dims, s->d, (size_t)s->rank * sizeof *s->d);
    v->rank = s->rank;
    if (s->elem) v->elem = s->elem;
    return AB_OK;
}

/* Graph inputs take their declared shapes. */
static ab_status input_shapes(abf_ox_ctx *c) {
    abf_onnx_model *m = c->m;
    for (size_t k = 0; k < m->ninputs; k++) {
        int32_t vi = m->inputs[k];
        if (m->v[vi].flags & ABF_ONNX_CONSTANT) continue; /* an initializer's shape holds */
        shp s;
        if (c->vx[vi].non_tensor)
            return ab_fail(c->r.err, AB_EINPUT, "%s: graph input '%s' is not a tensor (a "
                           "sequence, map or optional)", m->file, m->v[vi].name);
        if (!declared(c, vi, &s) || s.rank < 0)
            return ab_fail(c->r.err, AB_EINPUT, "%s: graph input '%s' has no declared shape",
                           m->file, m->v[vi].name);
        for (int j = 0; j < s.rank; j++)
            if (s.d[j] < 0) return unresolved(c, vi, j);
        ab_status st = set_value_shape(c, vi, &s);
        if (st != AB_OK) return st;
    }
    return AB_OK;
}

/* Combines node k's inferred shape of output j (rc INF_OK with inf, or why)
 * with its declaration into the value's final shape. */
static ab_status settle(abf_ox_ctx *c, ictx *q, int rc, size_t j) {
    abf_onnx_model *m = c->m;
    int32_t vi = q->n->out[j];
    abf_onnx_value *v = &m->v[vi];
    shp d, *inf = &q->out[j];
    bool decl = !c->o->ignore_declared && declared(c, vi, &d);
    bool ok = rc == INF_OK && inf->rank >= 0;
    if (ok && decl && d.rank >= 0) {
        bool agree = d.rank == inf->rank;
        for (int k = 0; agree && k < d.rank; k++)
            if (c->vx[vi].decl[k] >= 0 && c->vx[vi].decl[k] != inf->d[k]) agree = false;
        if (!agree) {
            char a[300], b[300];
            shape_text(inf, a, sizeof a);
            shp raw = d;
            for (int k = 0; k < d.rank; k++) raw.d[k] = c->vx[vi].decl[k];
            shape_text(&raw, b, sizeof b);
            return ab_fail(c->r.err, AB_EINPUT, "%s: %s: output '%s': the inferred shape %s "
                           "disagrees with the declared %s (-1: symbolic)", m->file, q->what,
                           v->name, a, b);
        }
    }
    if (ok && decl && d.elem && inf->elem && d.elem != inf->elem)
        return ab_fail(c->r.err, AB_EINPUT, "%s: %s: output '%s': the inferred type %s disagrees "
                       "with the declared %s", m->file, q->what, v->name,
                       abf_onnx_type_name(inf->elem), abf_onnx_type_name(d.elem));
    if (ok) {
        if (!inf->elem && decl) inf->elem = d.elem;
        m->ninferred++;
        v->flags |= ABF_ONNX_INFERRED;
        return set_value_shape(c, vi, inf);
    }
    if (decl && d.rank >= 0) {
        for (int k = 0; k < d.rank; k++)
            if (d.d[k] < 0) return unresolved(c, vi, k);
        m->ndeclared++;
        return set_value_shape(c, vi, &d);
    }
    const char *hint = "; declare its output shapes, e.g. with ONNX's shape inference: python3 -c "
                       "\"import onnx; from onnx import shape_inference; onnx.save(shape_inference"
                       ".infer_shapes(onnx.load('M.onnx')), 'M.inferred.onnx')\" (Debian: "
                       "python3-onnx)";
    if (rc == INF_CANNOT && q->why[0] != '\0')
        return ab_fail(c->r.err, AB_EINPUT, "%s: %s: output '%s' has no declared shape and "
                       "inference %s%s", m->file, q->what, v->name, q->why, hint);
    return ab_fail(c->r.err, AB_EINPUT, "%s: %s: output '%s' has no declared shape and the "
                   "operator %s%s%s is outside the set whose shapes arenabench infers%s", m->file,
                   q->what, v->name, q->n->domain[0] ? q->n->domain : "",
                   q->n->domain[0] ? "." : "", q->n->op, hint);
}

/* Each --dim NAME must name a dim_param of the model or a value. */
static ab_status check_dims(abf_ox_ctx *c) {
    const abf_onnx_options *o = c->o;
    for (size_t d = 0; d < o->ndims; d++) {
        const char *name = o->dims[d].tensor;
        size_t n = strlen(name);
        bool found = false;
        for (size_t i = 0; i < c->m->nvalues && !found; i++) {
            const abf_ox_vx *x = &c->vx[i];
            if (strcmp(c->m->v[i].name, name) == 0) found = true;
            for (int j = 0; j < x->decl_rank && !found; j++)
                found = x->param[j] != NULL && x->nparam[j] == n &&
                        memcmp(x->param[j], name, n) == 0;
        }
        if (!found)
            return ab_fail(c->r.err, AB_EINPUT, "%s: --dim %s=%" PRId64 ": no symbolic "
                           "dimension (dim_param) or tensor is called '%s'", c->m->file, name,
                           o->dims[d].value, name);
    }
    return AB_OK;
}

ab_status abf_ox_infer(abf_ox_ctx *c) {
    abf_onnx_model *m = c->m;
    ab_status st = check_dims(c);
    if (st == AB_OK) st = input_shapes(c);
    if (st != AB_OK) return st;
    for (size_t k = 0; k < m->nnodes && st == AB_OK; k++) {
        const abf_onnx_node *n = &m->nodes[k];
        ictx q = {.c = c, .k = k, .n = n, .x = &c->nx[k]};
        abf_ox_node_what(m, k, q.what, sizeof q.what);
        q.out = ab_alloc_array(n->nout ? n->nout : 1, sizeof *q.out);
        q.val = ab_calloc(n->nout ? n->nout : 1, sizeof *q.val);
        if (q.out == NULL || q.val == NULL) {
            ab_free(q.out);
            ab_free(q.val);
            return ab_fail(c->r.err, AB_ENOMEM, "out of memory inferring shapes");
        }
        for (size_t j = 0; j < n->nout; j++) q.out[j].rank = -1;
        int rc = INF_CANNOT;
        bool dflt = n->domain[0] == '\0' || strcmp(n->domain, "ai.onnx") == 0;
        for (size_t j = 0; dflt && j < sizeof rules / sizeof rules[0]; j++)
            if (strcmp(rules[j].op, n->op) == 0) {
                rc = rules[j].infer(&q);
                break;
            }
        if (rc == INF_ERROR) st = c->r.err ? c->r.err->status : AB_EINPUT;
        if (rc == INF_OK)
            for (size_t j = 0; j < n->nout && rc == INF_OK; j++)
                if (q.out[j].rank >= 0 && check_shape(&q, &q.out[j]) != INF_OK) rc = INF_ERROR;
        if (rc == INF_ERROR) st = c->r.err ? c->r.err->status : AB_EINPUT;
        for (size_t j = 0; j < n->nout && st == AB_OK; j++) {
            if (n->out[j] < 0) continue;
            st = settle(c, &q, rc, j);
            abf_ox_val *to = &c->vx[n->out[j]].val;
            if (st == AB_OK && q.val[j].known && !to->known) {
                *to = q.val[j];
                memset(&q.val[j], 0, sizeof q.val[j]);
            }
            if (st == AB_OK && strcmp(n->op, "Constant") == 0 && dflt)
                m->v[n->out[j]].flags |= ABF_ONNX_CONSTANT;
        }
        for (size_t j = 0; j < n->nout; j++) {
            ab_free(q.val[j].iv);
            ab_free(q.val[j].fv);
        }
        ab_free(q.out);
        ab_free(q.val);
    }
    return st;
}
