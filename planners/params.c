/*
 * params.c — planner specs and parameters (planner.h): parsing a spec
 * ("name:key=value,..."), checking a value against its ab_param_desc row,
 * resolving a spec's parameters against a table into typed values with the
 * defaults applied, and the typed getters the planners read them with.
 */
#include "planners/planner.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- specs as given ---------------------------------------------------------------- */

void ab_params_free(ab_params *params) {
    if (params == NULL) return;
    for (size_t i = 0; i < params->n; i++) {
        ab_free(params->v[i].key);
        ab_free(params->v[i].value);
    }
    ab_free(params->v);
    *params = (ab_params){0};
}

const char *ab_params_get(const ab_params *params, const char *key) {
    for (size_t i = 0; params && i < params->n; i++)
        if (strcmp(params->v[i].key, key) == 0) return params->v[i].value;
    return NULL;
}

ab_status ab_params_int(const ab_params *params, const char *key, int64_t def, int64_t lo,
                        int64_t hi, int64_t *out, ab_error *err) {
    const char *v = ab_params_get(params, key);
    if (v == NULL) {
        *out = def;
        return AB_OK;
    }
    int64_t x;
    if (!ab_parse_int64(v, strlen(v), &x) || x < lo || x > hi)
        return ab_fail(err, AB_EINPUT, "parameter %s: expected an integer in [%lld, %lld], got '%s'",
                       key, (long long)lo, (long long)hi, v);
    *out = x;
    return AB_OK;
}

/* Reads one value starting at *s: a '...'-quoted string or text up to the next
 * ','. Advances *s past it. Returns an owned copy or NULL (err set). */
static char *spec_value(const char **s, const char *spec, ab_error *err) {
    const char *p = *s;
    if (*p == '\'') {
        const char *close = strchr(p + 1, '\'');
        if (close == NULL) {
            ab_fail(err, AB_EINPUT, "planner spec '%s': unterminated quote", spec);
            return NULL;
        }
        *s = close + 1;
        char *v = ab_strndup(p + 1, (size_t)(close - p - 1));
        if (v == NULL) ab_fail(err, AB_ENOMEM, "out of memory parsing a planner spec");
        return v;
    }
    size_t len = strcspn(p, ",");
    *s = p + len;
    char *v = ab_strndup(p, len);
    if (v == NULL) ab_fail(err, AB_ENOMEM, "out of memory parsing a planner spec");
    return v;
}

/* Parses "key=value[,key=value...]" into params. */
static ab_status spec_params(const char *s, const char *spec, ab_params *params, ab_error *err) {
    while (*s != '\0') {
        size_t klen = strcspn(s, "=,");
        if (klen == 0 || s[klen] != '=')
            return ab_fail(err, AB_EINPUT, "planner spec '%s': expected key=value after ':'", spec);
        char *key = ab_strndup(s, klen);
        if (key == NULL) return ab_fail(err, AB_ENOMEM, "out of memory parsing a planner spec");
        if (ab_params_get(params, key) != NULL) {
            ab_fail(err, AB_EINPUT, "planner spec '%s': parameter '%s' given twice", spec, key);
            ab_free(key);
            return AB_EINPUT;
        }
        s += klen + 1;
        char *value = spec_value(&s, spec, err);
        ab_kv *v = value ? ab_realloc_array(params->v, params->n + 1, sizeof *v) : NULL;
        if (v == NULL) {
            ab_free(key);
            ab_free(value);
            return value ? ab_fail(err, AB_ENOMEM, "out of memory parsing a planner spec")
                         : err->status;
        }
        params->v = v;
        params->v[params->n++] = (ab_kv){.key = key, .value = value};
        if (*s == ',') s++;
        else if (*s != '\0')
            return ab_fail(err, AB_EINPUT, "planner spec '%s': expected ',' after a quoted value",
                           spec);
    }
    return AB_OK;
}

ab_status ab_planner_spec_parse(const char *spec, char **name, ab_params *params,
                                ab_error *err) {
    ab_error local;
    if (err == NULL) err = &local;
    *name = NULL;
    *params = (ab_params){0};
    size_t nlen = strcspn(spec, ":");
    if (nlen == 0) return ab_fail(err, AB_EINPUT, "planner spec '%s': missing planner name", spec);
    *name = ab_strndup(spec, nlen);
    if (*name == NULL) return ab_fail(err, AB_ENOMEM, "out of memory parsing a planner spec");
    ab_status st = spec[nlen] == ':' ? spec_params(spec + nlen + 1, spec, params, err) : AB_OK;
    if (st != AB_OK) {
        ab_free(*name);
        *name = NULL;
        ab_params_free(params);
    }
    return st;
}


ab_status ab_params_k(const ab_params *params, int64_t *k, ab_error *err) {
    return ab_params_int(params, "k", 1, 1, AB_MAX_SIZE, k, err);
}

/* ---- checking a value against its row ------------------------------------------------ */

/* The index of v among the '|'-separated words of choices, or -1. */
static int choice_index(const char *choices, const char *v) {
    size_t n = strlen(v);
    int k = 0;
    for (const char *c = choices; c != NULL; c = strchr(c, '|') ? strchr(c, '|') + 1 : NULL, k++) {
        const char *end = strchr(c, '|');
        size_t len = end ? (size_t)(end - c) : strlen(c);
        if (len == n && strncmp(c, v, n) == 0) return k;
    }
    return -1;
}

/* A finite number written whole in v; a trailing '%' allowed when pct. */
static bool number(const char *v, bool pct, double *x, bool *was_pct) {
    char *end;
    errno = 0;
    *x = strtod(v, &end);
    *was_pct = pct && *end == '%' && end > v;
    if (*was_pct) end++;
    return end > v && *end == '\0' && errno == 0 && isfinite(*x);
}

/* Parses v as a value of d into *out (text, i, x; has and given are the
 * caller's); false when d does not take it. The one reading of each kind:
 * ab_param_check and ab_params_bind both use it. */
static bool parse_value(const ab_param_desc *d, const char *v, ab_param_value *out) {
    bool pct;
    out->text = v;
    out->i = 0;
    out->x = 0;
    switch (d->kind) {
    case AB_PARAM_TEXT: return true;
    case AB_PARAM_CHOICE: return (out->i = choice_index(d->values, v)) >= 0;
    case AB_PARAM_INT:
        return ab_parse_int64(v, strlen(v), &out->i) && out->i >= d->lo && out->i <= d->hi;
    case AB_PARAM_SECONDS: return number(v, false, &out->x, &pct) && out->x > 0;
    case AB_PARAM_FRACTION:
        if (!number(v, true, &out->x, &pct) || out->x < 0 || out->x > (pct ? 100 : 1))
            return false;
        if (pct) out->x /= 100;
        return true;
    case AB_PARAM_BYTES: return ab_parse_bytes(v, &out->i);
    }
    return false;
}

/* What d takes, for messages: a CHOICE "a|b|c" reads "a, b or c". */
static void choices_text(const ab_param_desc *d, char *out, size_t cap) {
    if (d->kind != AB_PARAM_CHOICE) {
        snprintf(out, cap, "%s", d->values);
        return;
    }
    const char *last = strrchr(d->values, '|');
    size_t used = 0;
    out[0] = '\0';
    for (const char *c = d->values; *c != '\0' && used + 5 < cap; c++) {
        if (*c != '|') out[used++] = *c;
        else used += (size_t)snprintf(out + used, cap - used, "%s", c == last ? " or " : ", ");
        out[used] = '\0';
    }
}

ab_status ab_param_check(const char *planner, const ab_param_desc *d, const char *v,
                         ab_error *err) {
    ab_param_value val;
    if (parse_value(d, v, &val)) return AB_OK;
    char what[256];
    choices_text(d, what, sizeof what);
    return ab_fail(err, AB_EINPUT, "planner %s: parameter %s: expected %s, got '%s'", planner,
                   d->key, what, v);
}

/* ---- resolving against a table ------------------------------------------------------- */

/* The keys of table, comma-separated, into buf ("none" for none). */
static void param_names(const ab_param_desc *table, char *buf, size_t len) {
    size_t used = 0;
    buf[0] = '\0';
    for (const ab_param_desc *d = table; d && d->key && used < len; d++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", d->key);
    if (used == 0) snprintf(buf, len, "none");
}

/* The row of table for key, or NULL. */
static const ab_param_desc *param_desc(const ab_param_desc *table, const char *key) {
    for (const ab_param_desc *d = table; d && d->key; d++)
        if (strcmp(d->key, key) == 0) return d;
    return NULL;
}

ab_status ab_params_bind(const char *who, const ab_param_desc *table, ab_params *params,
                         const char **unknown, ab_error *err) {
    ab_error local;
    if (err == NULL) err = &local;
    if (unknown != NULL) *unknown = NULL;
    params->resolved = false;
    for (size_t i = 0; i < params->n; i++) {
        const ab_param_desc *d = param_desc(table, params->v[i].key);
        if (d != NULL) {
            ab_status st = ab_param_check(who, d, params->v[i].value, err);
            if (st != AB_OK) return st;
            continue;
        }
        char names[512];
        param_names(table, names, sizeof names);
        if (unknown != NULL) *unknown = params->v[i].key;
        return ab_fail(err, AB_EINPUT, "planner %s takes no parameter '%s' (it takes: %s)", who,
                       params->v[i].key, names);
    }
    size_t n = 0;
    for (const ab_param_desc *d = table; d && d->key; d++, n++) {
        if (n == AB_PARAM_MAX)
            return ab_fail(err, AB_EINTERNAL, "planner %s: more than %d parameters", who,
                           AB_PARAM_MAX);
        ab_param_value *val = &params->val[n];
        const char *given = ab_params_get(params, d->key);
        *val = (ab_param_value){.given = given != NULL};
        if (given == NULL && d->no_default) continue;
        if (!parse_value(d, given ? given : d->def, val))
            return ab_fail(err, AB_EINTERNAL, "planner %s: parameter %s: the default '%s' is "
                           "not a value it takes", who, d->key, d->def);
        val->has = true;
    }
    params->desc = table;
    params->ndesc = n;
    params->resolved = true;
    return AB_OK;
}

/* ---- typed values ---------------------------------------------------------------------- */

/* The value of key in a resolved opt, of one of the kinds k1, k2 (-1: any)
 * and present unless may_lack; aborts otherwise (a programming error: the
 * planner asked for a key its table lacks, or as the wrong kind). */
static const ab_param_value *value_of(const ab_params *opt, const char *key, int k1, int k2,
                                      bool may_lack) {
    if (opt == NULL || !opt->resolved) abort();
    for (size_t j = 0; j < opt->ndesc; j++) {
        const ab_param_desc *d = &opt->desc[j];
        if (strcmp(d->key, key) != 0) continue;
        if (k1 >= 0 && (int)d->kind != k1 && (int)d->kind != k2) abort();
        if (!opt->val[j].has && !may_lack) abort();
        return &opt->val[j];
    }
    abort();
}

int64_t ab_param_i64(const ab_params *opt, const char *key) {
    return value_of(opt, key, AB_PARAM_INT, AB_PARAM_BYTES, false)->i;
}

double ab_param_seconds(const ab_params *opt, const char *key) {
    return value_of(opt, key, AB_PARAM_SECONDS, AB_PARAM_SECONDS, false)->x;
}

double ab_param_fraction(const ab_params *opt, const char *key) {
    return value_of(opt, key, AB_PARAM_FRACTION, AB_PARAM_FRACTION, false)->x;
}

int ab_param_choice(const ab_params *opt, const char *key) {
    return (int)value_of(opt, key, AB_PARAM_CHOICE, AB_PARAM_CHOICE, false)->i;
}

const char *ab_param_text(const ab_params *opt, const char *key) {
    return value_of(opt, key, -1, -1, false)->text;
}

bool ab_param_has(const ab_params *opt, const char *key) {
    return value_of(opt, key, -1, -1, true)->has;
}
