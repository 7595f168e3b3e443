/*
 * test_real_suites.c — suites/real (issue 14 part 4): idealloc's three real
 * traces, committed as suites. Each loads, has the tensor count and max-load
 * its README states, and is what `arenabench import` makes of the original
 * CSV in the shared data folder (skipped, saying so, when that is absent); the
 * MIT LICENSE travels beside them.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/formats/formats.h"
#include "oracle/bounds.h"
#include "tests/support.h"

typedef struct real {
    const char *name;
    size_t tensors;
    int64_t max_load; /* idealloc's README (half-open ranges) */
} real;

static const real reals[] = {
    {"iopddl_G_1", 816, 3030937746LL},
    {"iopddl_S_1", 28526, 1498635932LL},
    {"somas_resnet50", 1042, 1515472556LL},
};
#define NREAL (sizeof reals / sizeof reals[0])

Test(real_suites, load_with_the_stated_counts_and_max_load) {
    char rel[256];
    for (size_t k = 0; k < NREAL; k++) {
        snprintf(rel, sizeof rel, "suites/real/%s.yaml", reals[k].name);
        ab_problem p;
        ab_error e = {AB_OK, ""};
        cr_assert_eq(abf_load_problem(abt_src(rel), NULL, &p, &e), AB_OK, "%s: %s", rel, e.msg);
        cr_assert_eq(p.n, reals[k].tensors, "%s: %zu tensors", rel, p.n);
        cr_assert_str_eq(p.name, reals[k].name);
        abo_bounds b;
        cr_assert_eq(abo_bounds_compute(&p, &b, &e), AB_OK, "%s: %s", rel, e.msg);
        cr_assert_eq(b.max_load, reals[k].max_load, "%s: max-load %lld", rel,
                     (long long)b.max_load);
        ab_problem_free(&p);
    }
}

Test(real_suites, license_and_readme_travel_with_them) {
    char *lic = abt_slurp(abt_src("suites/real/LICENSE"), NULL);
    cr_assert_not_null(lic, "suites/real/LICENSE is missing");
    cr_assert(strstr(lic, "MIT License") != NULL);
    cr_assert(strstr(lic, "Christos Lamprakos") != NULL);
    char *readme = abt_slurp(abt_src("suites/real/README.md"), NULL);
    cr_assert_not_null(readme, "suites/real/README.md is missing");
    cr_assert(strstr(readme, "https://github.com/cappadokes/idealloc") != NULL);
    for (size_t k = 0; k < NREAL; k++)
        cr_assert(strstr(readme, reals[k].name) != NULL, "the README omits %s", reals[k].name);
    const char *data = abt_shared_data();
    if (data != NULL) {
        char path[4096];
        snprintf(path, sizeof path, "%s/idealloc/LICENSE", data);
        char *orig = abt_slurp(path, NULL);
        if (orig != NULL) cr_assert_str_eq(lic, orig, "suites/real/LICENSE differs from idealloc's");
        free(orig);
    }
    free(lic);
    free(readme);
}

Test(real_suites, are_the_import_of_the_original_csv) {
    const char *data = abt_shared_data();
    if (data == NULL) cr_skip_test("the shared data folder is absent: the originals cannot be compared");
    char path[4096], args[8192];
    snprintf(path, sizeof path, "%s/idealloc/%s.csv", data, reals[0].name);
    FILE *f = fopen(path, "rb");
    if (f == NULL) cr_skip_test("%s is absent: the originals cannot be compared", path);
    fclose(f);
    for (size_t k = 0; k < NREAL; k++) {
        char *out, *err;
        snprintf(args, sizeof args, "import '%s/idealloc/%s.csv'", data, reals[k].name);
        int rc = abt_run(args, &out, &err);
        cr_assert_eq(rc, 0, "%s: exit %d: %s", args, rc, err);
        char rel[256];
        snprintf(rel, sizeof rel, "suites/real/%s.yaml", reals[k].name);
        char *mine = abt_slurp(abt_src(rel), NULL);
        cr_assert_not_null(mine);
        cr_assert(strcmp(out, mine) == 0, "%s is not what import makes of %s.csv", rel,
                  reals[k].name);
        free(mine), free(out), free(err);
    }
}
