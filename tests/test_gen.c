/*
 * test_gen.c — the generators: published layer sizes checked by hand,
 * determinism, inclusive live ranges of skips, every kind planned and
 * checked, and bad kinds or parameters refused. The planted generator: its
 * gadgets' figures re-derived by brute force and oracle/bounds.h, and its
 * known optimum checked both ways (brute force on small suites, the ILP on
 * larger ones), also in the committed suites/generated/planted-*.yaml.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "harness/formats/gen.h"
#include "harness/formats/suite.h"
#include "oracle/bounds.h"
#include "oracle/check.h"
#include "planners/ilp.h"
#include "planners/planner.h"
#include "tests/brute.h"
#include "tests/support.h"

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
    cr_assert_eq(ab_planner_spec_parse(spec, &name, &prm, NULL), AB_OK);
    ab_error err;
    cr_assert_eq(abf_generate(kind, &prm, NULL, p, &err), AB_OK, "%s", err.msg);
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
    for (size_t k = 0; abf_generators[k].kind; k++) {
        ab_problem p, view;
        gen(abf_generators[k].kind, NULL, &p);
        cr_assert_gt(p.n, 2, "%s", abf_generators[k].kind);
        const ab_planner *pl = ab_planner_find("best-fit");
        ab_plan plan;
        ab_plan_stats st;
        cr_assert_eq(ab_planner_run(pl, NULL, &p, &view, &plan, &st, NULL), AB_OK);
        abo_report r;
        cr_assert_eq(abo_check(&view, &plan, &r, NULL), AB_OK);
        cr_assert_eq(r.verdict, ABO_OK, "%s: %s", abf_generators[k].kind, r.msg);
        for (size_t i = 0; i < p.n; i++) cr_assert_leq(p.t[i].start, p.t[i].end);
        ab_plan_free(&plan);
        ab_problem_free(&view);
        ab_problem_free(&p);
    }
}

Test(gen, refuses_unknown_kinds_and_parameters) {
    ab_problem p;
    ab_error err;
    cr_assert_eq(abf_generate("lstm", NULL, NULL, &p, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "unknown generator kind 'lstm' (kinds: chain, fanout") != NULL, "%s", err.msg);
    ab_params prm = {0};
    char *name;
    cr_assert_eq(ab_planner_spec_parse("resnet:blockz=3", &name, &prm, NULL), AB_OK);
    cr_assert_eq(abf_generate("resnet", &prm, NULL, &p, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "takes no parameter 'blockz'") != NULL, "%s", err.msg);
    ab_params_free(&prm);
    ab_free(name);
    cr_assert_eq(ab_planner_spec_parse("random:n=-3", &name, &prm, NULL), AB_OK);
    cr_assert_eq(abf_generate("random", &prm, NULL, &p, &err), AB_EINPUT);
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

/* ---- planted ------------------------------------------------------------------------ */

/* Gadget g as a problem: sizes x scale, mirrored in time when asked. */
static void gadget_problem(const abf_gadget *g, int64_t scale, bool mirror, ab_problem *p) {
    ab_problem_init(p);
    int64_t h = 0;
    for (size_t i = 0; i < g->n; i++)
        if (g->t[i].end + 1 > h) h = g->t[i].end + 1;
    for (size_t i = 0; i < g->n; i++) {
        char name[16];
        snprintf(name, sizeof name, "t%zu", i);
        ab_tensor t = {.name = name, .size = g->t[i].size * scale, .align = 1, .offset = AB_NONE,
                       .start = mirror ? h - 1 - g->t[i].end : g->t[i].start,
                       .end = mirror ? h - 1 - g->t[i].start : g->t[i].end};
        t.logical_bits = t.size * 8;
        cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK);
    }
}

static int64_t max_load(const ab_problem *p) {
    abo_bounds bd;
    ab_error err;
    cr_assert_eq(abo_bounds_compute(p, &bd, &err), AB_OK, "%s", err.msg);
    return bd.max_load;
}

Test(gen, every_gadget_has_its_embedded_optimum_above_its_max_load) {
    size_t k = 0;
    for (; abf_gadgets[k].name; k++) {
        const abf_gadget *g = &abf_gadgets[k];
        cr_assert(g->n >= 3 && g->n <= ABF_GADGET_MAX, "%s", g->name);
        for (int mirror = 0; mirror < 2; mirror++) {
            ab_problem p;
            gadget_problem(g, 1, mirror, &p);
            cr_assert_eq(max_load(&p), g->max_load, "%s: max-load", g->name);
            cr_assert_eq(abt_brute_optimum(&p, NULL), g->optimum, "%s: optimum (mirrored %d)",
                         g->name, mirror);
            cr_assert_gt(g->optimum, g->max_load, "%s: a gadget cannot stack perfectly", g->name);
            ab_problem_free(&p);
        }
        ab_problem p; /* scaled: the optimum scales with the sizes */
        gadget_problem(g, 1000 + (int64_t)k, false, &p);
        cr_assert_eq(abt_brute_optimum(&p, NULL), (1000 + (int64_t)k) * g->optimum, "%s x", g->name);
        ab_problem_free(&p);
    }
    cr_assert_geq(k, 5, "a library of gadgets");
}

/* The planted suite for n, seed and more key=value pairs (kv may be NULL). */
static void planted(int n, int seed, const char *kv, ab_problem *p) {
    char spec[256];
    snprintf(spec, sizeof spec, "n=%d,seed=%d%s%s", n, seed, kv ? "," : "", kv ? kv : "");
    gen("planted", spec, p);
    cr_assert_eq(p->n, (size_t)n);
    cr_assert_neq(p->expect_optimum, AB_NONE);
    cr_assert_eq(max_load(p), p->expect_lower_bound, "n=%d seed=%d: expect.lower_bound", n, seed);
    cr_assert_gt(p->expect_optimum, p->expect_lower_bound, "n=%d seed=%d: above max-load", n, seed);
}

Test(gen, small_planted_suites_have_the_brute_force_optimum) {
    int checked = 0, seeds = abt_cases(8, 40); /* AB_TEST_LONG=1: 40 */
    for (int n = 8; n <= ABT_BRUTE_MAX_FREE; n++)
        for (int seed = 1; seed <= seeds; seed++) {
            ab_problem p;
            planted(n, seed, n > 8 && seed % 2 == 0 ? "decoy=1" : NULL, &p);
            cr_assert_eq(abt_brute_optimum(&p, NULL), p.expect_optimum, "n=%d seed=%d", n, seed);
            ab_problem_free(&p);
            checked++;
        }
    cr_assert_eq(checked, 3 * seeds);
}

/* A first-fit plan of p: valid and not below the known optimum; returns its arena. */
static int64_t first_fit_arena(const ab_problem *p) {
    ab_problem view;
    ab_plan plan;
    ab_plan_stats st;
    cr_assert_eq(ab_planner_run(ab_planner_find("first-fit"), NULL, p, &view, &plan, &st, NULL), AB_OK);
    abo_report r;
    cr_assert_eq(abo_check(&view, &plan, &r, NULL), AB_OK);
    cr_assert_eq(r.verdict, ABO_OK, "%s: %s", p->name, r.msg);
    cr_assert_geq(r.arena, p->expect_optimum, "%s: first-fit below the known optimum", p->name);
    ab_plan_free(&plan);
    ab_problem_free(&view);
    return r.arena;
}

/* The ILP on p: when it proves an optimum, that is expect.optimum (both ways:
 * its plan is not below, its bound not above); when it runs out of time its
 * bound is not above and its plan not below. Returns true when it finished. */
static bool ilp_agrees(const ab_problem *p, double seconds) {
    abo_ilp_options o;
    abo_ilp_options_init(&o);
    o.time_limit = seconds;
    abo_ilp_result r;
    ab_error err;
    ab_error_clear(&err);
    cr_assert_eq(abp_ilp_solve(p, &o, &r, &err), AB_OK, "%s: %s", p->name, err.msg);
    bool done = r.status == ABO_ILP_OPTIMAL;
    cr_assert_leq(r.bound, p->expect_optimum, "%s: ILP bound above the optimum", p->name);
    cr_assert_geq(r.arena, p->expect_optimum, "%s: ILP plan below the optimum", p->name);
    if (done) cr_assert_eq(r.arena, p->expect_optimum, "%s: ILP optimum", p->name);
    abo_ilp_result_free(&r);
    return done;
}

Test(gen, larger_planted_suites_have_the_ilp_optimum, .timeout = 900) {
    static const int sizes[] = {20, 40, 160};
    int tried = 0, finished = 0, seeds = abt_cases(6, 20);
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (int seed = 1; seed <= seeds; seed++) {
            ab_problem p;
            planted(sizes[s], seed, seed % 3 == 0 ? "gadgets=2" : seed % 3 == 1 ? "decoy=1" : NULL, &p);
            first_fit_arena(&p);
            finished += ilp_agrees(&p, 30.0);
            tried++;
            ab_problem_free(&p);
        }
    cr_log_info("planted: the ILP proved the optimum of %d of %d suites", finished, tried);
    cr_assert_geq(finished * 10, tried * 8, "the ILP finished %d of %d", finished, tried);
}

Test(gen, planted_suites_are_deterministic_and_seeds_matter) {
    ab_buf r[3] = {{0}};
    const int seeds[3] = {4, 4, 5};
    for (int k = 0; k < 3; k++) {
        ab_problem p;
        planted(160, seeds[k], NULL, &p);
        cr_assert_eq(abf_suite_render(&p, &r[k], NULL), AB_OK);
        ab_problem_free(&p);
    }
    cr_assert_str_eq(r[0].s, r[1].s, "the same n and seed give the same suite");
    cr_assert_str_neq(r[0].s, r[2].s, "another seed gives another suite");
    cr_assert(strstr(r[0].s, "optimum: ") != NULL, "the rendered suite carries expect");
    for (int k = 0; k < 3; k++) ab_buf_free(&r[k]);
}

Test(gen, planted_keeps_filler_out_of_the_gadget_windows) {
    for (int seed = 1; seed <= 20; seed++) {
        ab_problem p;
        planted(200, seed, "gadgets=3,fill=100", &p);
        int64_t lo[3] = {INT64_MAX, INT64_MAX, INT64_MAX}, hi[3] = {-1, -1, -1};
        for (size_t i = 0; i < p.n; i++) {
            int g;
            if (sscanf(p.t[i].name, "gadget%d_", &g) != 1) continue;
            if (p.t[i].start < lo[g]) lo[g] = p.t[i].start;
            if (p.t[i].end > hi[g]) hi[g] = p.t[i].end;
        }
        for (size_t i = 0; i < p.n; i++)
            if (strncmp(p.t[i].name, "fill", 4) == 0)
                for (int g = 0; g < 3; g++)
                    cr_assert(p.t[i].end < lo[g] || p.t[i].start > hi[g], "seed %d: %s in window %d",
                              seed, p.t[i].name, g);
        first_fit_arena(&p);
        ab_problem_free(&p);
    }
}

Test(gen, a_planted_decoy_moves_the_max_load_away_from_the_gadgets) {
    for (int seed = 1; seed <= 10; seed++) {
        ab_problem p;
        planted(60, seed, "decoy=1,gadgets=2", &p);
        abo_bounds bd;
        cr_assert_eq(abo_bounds_compute(&p, &bd, NULL), AB_OK);
        for (size_t i = 0; i < p.n; i++) /* the peak is filler's: the decoy or above it */
            if (p.t[i].start <= bd.max_load_instr && bd.max_load_instr <= p.t[i].end)
                cr_assert(strncmp(p.t[i].name, "fill", 4) == 0, "seed %d: %s", seed, p.t[i].name);
        cr_assert_lt(bd.max_load, p.expect_optimum);
        first_fit_arena(&p);
        ab_problem_free(&p);
    }
}

Test(gen, planted_refuses_too_few_tensors_and_bad_scales) {
    const char *bad[] = {"planted:n=7", "planted:n=15,gadgets=2", "planted:scale_min=9,scale_max=8",
                         "planted:fill=0", "planted:gadgets=0", "planted:n=8,decoy=1"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        ab_params prm = {0};
        char *name;
        cr_assert_eq(ab_planner_spec_parse(bad[k], &name, &prm, NULL), AB_OK);
        ab_problem p;
        ab_error err;
        cr_assert_eq(abf_generate("planted", &prm, NULL, &p, &err), AB_EINPUT, "%s", bad[k]);
        cr_assert_eq(p.n, 0);
        ab_params_free(&prm);
        ab_free(name);
    }
}

/* The committed planted suites (generate: with a hand-written expect:) agree
 * with the construction: the optimum the generator's description states and
 * the max-load oracle/bounds.h finds. */
Test(gen, committed_planted_suites_expect_the_planted_optimum) {
    const char *dir = abt_src("suites/generated");
    char path[4096];
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "%s", dir);
    int seen = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, "planted-", 8) != 0 || len < 5 || strcmp(e->d_name + len - 5, ".yaml") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", abt_src("suites/generated"), e->d_name);
        ab_problem p;
        ab_error err;
        cr_assert_eq(abf_suite_load(path, &p, &err), AB_OK, "%s", err.msg);
        cr_assert_leq(p.n, 200, "%s: small enough for the nightly", e->d_name);
        long long opt = -1;
        const char *at = p.description ? strstr(p.description, "planted: optimum ") : NULL;
        cr_assert_not_null(at, "%s: the generator's description", e->d_name);
        cr_assert_eq(sscanf(at, "planted: optimum %lld", &opt), 1);
        cr_assert_eq(p.expect_optimum, (int64_t)opt, "%s: expect.optimum", e->d_name);
        cr_assert_eq(p.expect_lower_bound, max_load(&p), "%s: expect.lower_bound", e->d_name);
        cr_assert_lt(p.expect_lower_bound, p.expect_optimum, "%s", e->d_name);
        first_fit_arena(&p);
        ab_problem_free(&p);
        seen++;
    }
    closedir(d);
    cr_assert_geq(seen, 3, "planted-20-s1, planted-40-s2, planted-160-s3 at least");
}
