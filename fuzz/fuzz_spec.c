/*
 * fuzz_spec.c — a libFuzzer harness for the planner spec parser
 * (ab_planner_spec_parse in planners/params.c, name[:key=value[,key=value...]], e.g.
 * "first-fit:order=size" or "exact-cover:k=16,time=3") and the registry's
 * check of a spec against its planner (ab_planner_resolve,
 * planners/registry.c). The input up to its first NUL is the spec.
 *
 * A parse failure must be AB_EINPUT with a message quoting the spec (AB_ENOMEM
 * is allowed, for libFuzzer's malloc limit). A success must survive a round
 * trip: the spec written canonically (values quoted with '...' when they hold
 * a comma or start with a quote) parses to the same name and parameters, in
 * order, and a parameter's key is never empty nor given twice. Resolving the
 * spec must end in AB_OK or AB_EINPUT (or AB_ENOMEM), and never resolve a spec
 * that does not parse. Anything else aborts; ASan and UBSan abort on any
 * memory error. Build and run: fuzz/README.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/problem.h"
#include "planners/planner.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* name[:key=value,...], a value quoted when it must be. */
static void render(ab_buf *b, const char *name, const ab_params *prm) {
    ab_buf_printf(b, "%s", name);
    for (size_t i = 0; i < prm->n; i++) {
        const char *v = prm->v[i].value;
        bool quote = strchr(v, ',') != NULL || v[0] == '\'';
        ab_buf_printf(b, "%c%s=%s%s%s", i == 0 ? ':' : ',', prm->v[i].key, quote ? "'" : "", v,
                      quote ? "'" : "");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *spec = malloc(size + 1);
    if (spec == NULL) return 0;
    memcpy(spec, data, size);
    spec[size] = '\0';
    char *name;
    ab_params prm;
    ab_error err;
    ab_status st = ab_planner_spec_parse(spec, &name, &prm, &err);
    if (st != AB_OK) {
        if (st != AB_ENOMEM && (st != AB_EINPUT || strstr(err.msg, "planner spec") == NULL)) {
            fprintf(stderr, "unexpected failure %d: %s\n", (int)st, err.msg);
            abort();
        }
    } else {
        if (name == NULL || name[0] == '\0' || strchr(name, ':') != NULL) abort();
        for (size_t i = 0; i < prm.n; i++) {
            if (prm.v[i].key[0] == '\0') abort();
            for (size_t j = 0; j < i; j++)
                if (strcmp(prm.v[i].key, prm.v[j].key) == 0) abort();
            if (strchr(prm.v[i].value, ',') != NULL && strchr(prm.v[i].value, '\'') != NULL)
                abort(); /* no spelling holds both: the parser cannot have read it */
        }
        ab_buf text = {0};
        render(&text, name, &prm);
        if (!text.oom) {
            char *name2;
            ab_params prm2;
            ab_status st2 = ab_planner_spec_parse(text.s, &name2, &prm2, &err);
            if (st2 != AB_ENOMEM) {
                bool same = st2 == AB_OK && strcmp(name, name2) == 0 && prm.n == prm2.n;
                for (size_t i = 0; same && i < prm.n; i++)
                    same = strcmp(prm.v[i].key, prm2.v[i].key) == 0 &&
                           strcmp(prm.v[i].value, prm2.v[i].value) == 0;
                if (!same) {
                    fprintf(stderr, "round trip of '%s' via '%s': %s\n", spec, text.s,
                            st2 == AB_OK ? "differs" : err.msg);
                    abort();
                }
            }
            if (st2 == AB_OK) {
                ab_free(name2);
                ab_params_free(&prm2);
            }
        }
        ab_buf_free(&text);
        ab_free(name);
        ab_params_free(&prm);
    }
    const ab_planner *pl = NULL;
    ab_params rp;
    ab_status rs = ab_planner_resolve(spec, &pl, &rp, &err);
    if (rs == AB_OK) {
        if (st != AB_OK || pl == NULL) abort();
        ab_params_free(&rp);
    } else if (rs != AB_EINPUT && rs != AB_ENOMEM) {
        fprintf(stderr, "resolve: unexpected failure %d: %s\n", (int)rs, err.msg);
        abort();
    }
    free(spec);
    return 0;
}
