/*
 * test_gen.c — the generators: published layer sizes checked by hand,
 * determinism, inclusive live ranges of skips, every kind planned and
 * checked, and bad kinds or parameters refused.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "harness/formats/gen.h"
#include "oracle/check.h"
#include "planners/planner.h"

static size_t find(const ab_problem *p, const char *name) {
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->t[i].name, name) == 0) return i;
    cr_assert_fail("no tensor '%s' in %s", name, p->name);
    return 0;
}

static void gen(const char *kind, const char *kv, ab_problem *p) {
    ab_params prm = {0};
    char *name = NULL;
    char spec[256];
    snprintf(spec, sizeof spec, "%s%s%s", kind, kv ? ":" : "", kv ? kv : "");
    cr_assert_eq(ab_spec_parse(spec, &name, &prm, NULL), AB_OK);
    ab_error err;
    cr_assert_eq(abh_generate(kind, &prm, NULL, p, &err), AB_OK, "%s", err.msg);
    ab_free(name);
    ab_params_free(&prm);
}

Test(gen, architecture_layer_sizes_match_the_published_shapes) {
    ab_problem p;
    gen("mobilenet_v1", NULL, &p);
    cr_assert_eq(p.t[find(&p, "conv0")].size, 112 * 112 * 32, "MobileNet v1 first conv");
    cr_assert_eq(p.t[find(&p, "pw1")].size, 112 * 112 * 64);
    cr_assert_eq(p.t[find(&p, "pw13")].size, 7 * 7 * 1024);
    cr_assert_eq(p.t[find(&p, "input")].size, 224 * 224 * 3);
    cr_assert_eq(p.t[find(&p, "input")].kind, AB_KIND_INPUT);
    cr_assert_eq(p.t[find(&p, "fc")].kind, AB_KIND_OUTPUT);
    ab_problem_free(&p);
    gen("squeezenet", NULL, &p);
    cr_assert_eq(p.t[find(&p, "conv1")].size, 111 * 111 * 64, "SqueezeNet 1.1 conv1, 3x3/2 valid");
    cr_assert_eq(p.t[find(&p, "fire2_concat")].size, 55 * 55 * 128);
    cr_assert_eq(p.t[find(&p, "fire9_concat")].size, 13 * 13 * 512);
    cr_assert_eq(p.t[find(&p, "conv10")].size, 13 * 13 * 1000);
    ab_problem_free(&p);
    gen("resnet18", NULL, &p);
    cr_assert_eq(p.t[find(&p, "conv1")].size, 112 * 112 * 64);
    cr_assert_eq(p.t[find(&p, "layer2_0_downsample")].size, 28 * 28 * 128);
    cr_assert_eq(p.t[find(&p, "layer4_1_add")].size, 7 * 7 * 512);
    ab_problem_free(&p);
    gen("mobilenet_v2", NULL, &p);
    cr_assert_eq(p.t[find(&p, "b1_expand")].size, 112 * 112 * 16 * 6, "expansion 6 of 16 channels");
    cr_assert_eq(p.t[find(&p, "b1_dw")].size, 56 * 56 * 96);
    cr_assert_eq(p.t[find(&p, "conv_last")].size, 7 * 7 * 1280);
    ab_problem_free(&p);
    gen("mobilenet_v1", "dtype=float32", &p);
    cr_assert_eq(p.t[find(&p, "conv0")].size, 112 * 112 * 32 * 4);
    ab_problem_free(&p);
}

Test(gen, skips_live_until_the_add_that_reads_them) {
    ab_problem p;
    gen("resnet18", NULL, &p);
    size_t pool = find(&p, "maxpool"), add = find(&p, "layer1_0_add");
    cr_assert_eq(p.t[pool].end, p.t[add].start, "the block input is read by the add (inclusive)");
    cr_assert_gt(p.t[pool].end, p.t[pool].start + 1, "and lives across the block");
    ab_problem_free(&p);
    gen("unet", "levels=3", &p);
    size_t enc0 = find(&p, "enc0_conv"), cat0 = find(&p, "dec0_concat");
    cr_assert_eq(p.t[enc0].end, p.t[cat0].start, "the long skip reaches the decoder");
    ab_problem_free(&p);
}

Test(gen, same_parameters_same_suite_and_seeds_matter) {
    ab_problem a, b, c;
    gen("random", "n=500,seed=7", &a);
    gen("random", "n=500,seed=7", &b);
    gen("random", "n=500,seed=8", &c);
    cr_assert_eq(a.n, 500);
    bool differs = false;
    for (size_t i = 0; i < a.n; i++) {
        cr_assert_eq(a.t[i].size, b.t[i].size);
        cr_assert_eq(a.t[i].start, b.t[i].start);
        cr_assert_eq(a.t[i].end, b.t[i].end);
        differs |= a.t[i].size != c.t[i].size || a.t[i].start != c.t[i].start;
    }
    cr_assert(differs, "another seed gives another suite");
    ab_problem_free(&a);
    ab_problem_free(&b);
    ab_problem_free(&c);
}

Test(gen, every_kind_plans_validly) {
    for (size_t k = 0; abh_generators[k].kind; k++) {
        ab_problem p, view;
        gen(abh_generators[k].kind, NULL, &p);
        cr_assert_gt(p.n, 2, "%s", abh_generators[k].kind);
        const ab_planner *pl = ab_planner_find("best-fit");
        ab_plan plan;
        ab_plan_stats st;
        cr_assert_eq(ab_planner_run(pl, NULL, &p, &view, &plan, &st, NULL), AB_OK);
        abo_report r;
        cr_assert_eq(abo_check(&view, &plan, &r, NULL), AB_OK);
        cr_assert_eq(r.verdict, ABO_OK, "%s: %s", abh_generators[k].kind, r.msg);
        for (size_t i = 0; i < p.n; i++) cr_assert_leq(p.t[i].start, p.t[i].end);
        ab_plan_free(&plan);
        ab_problem_free(&view);
        ab_problem_free(&p);
    }
}

Test(gen, refuses_unknown_kinds_and_parameters) {
    ab_problem p;
    ab_error err;
    cr_assert_eq(abh_generate("lstm", NULL, NULL, &p, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "unknown generator kind 'lstm' (kinds: chain, fanout") != NULL, "%s", err.msg);
    ab_params prm = {0};
    char *name;
    cr_assert_eq(ab_spec_parse("resnet:blockz=3", &name, &prm, NULL), AB_OK);
    cr_assert_eq(abh_generate("resnet", &prm, NULL, &p, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "takes no parameter 'blockz'") != NULL, "%s", err.msg);
    ab_params_free(&prm);
    ab_free(name);
    cr_assert_eq(ab_spec_parse("random:n=-3", &name, &prm, NULL), AB_OK);
    cr_assert_eq(abh_generate("random", &prm, NULL, &p, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "parameter n") != NULL, "%s", err.msg);
    cr_assert_eq(p.n, 0);
    ab_params_free(&prm);
    ab_free(name);
}

/* The paper's point (MinUn, SqueezeNet): first-fit in program order leaves
 * holes that exact cover does not. With SqueezeNet 1.0 and each max pool
 * fused into the layer before it (so the peak is in the fire modules, not at
 * conv1 + pool1), program-order first-fit is 10% above the proven optimum. */
Test(gen, squeezenet_fused_first_fit_is_clearly_above_exact_cover) {
    ab_problem p, view;
    gen("squeezenet", "version=1.0,fuse_pool=1", &p);
    cr_assert_eq(p.t[find(&p, "conv1_pool")].size, 54 * 54 * 96);
    cr_assert_eq(p.t[find(&p, "fire4_concat_pool")].size, 27 * 27 * 256);
    const char *specs[] = {"first-fit", "exact-cover"};
    int64_t arena[2];
    for (int k = 0; k < 2; k++) {
        const ab_planner *pl;
        ab_params prm;
        cr_assert_eq(ab_planner_resolve(specs[k], &pl, &prm, NULL), AB_OK);
        ab_plan plan;
        ab_plan_stats st;
        cr_assert_eq(ab_planner_run(pl, &prm, &p, &view, &plan, &st, NULL), AB_OK);
        abo_report r;
        cr_assert_eq(abo_check(&view, &plan, &r, NULL), AB_OK);
        cr_assert_eq(r.verdict, ABO_OK);
        arena[k] = r.arena;
        if (k == 1) cr_assert(st.proven_optimal, "exact cover proves its arena optimal at k = 1");
        ab_plan_free(&plan);
        ab_problem_free(&view);
        ab_params_free(&prm);
    }
    cr_assert_eq(arena[1], 933120);
    cr_assert_eq(arena[0], 1026432);
    cr_assert_gt(arena[0] * 100, arena[1] * 105, "first-fit is clearly (> 5%) above the optimum");
    ab_problem_free(&p);
}
