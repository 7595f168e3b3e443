/*
 * test_cgroup.c — where the spawner puts a job's cgroup (harness/engine/cgroup.h,
 * Where the groups go) on layouts this machine may not have: a pure cgroup
 * v2 machine whose login scope cannot delegate (the groups go under the
 * hierarchy's root, or under the scope's slice when its children have
 * memory), a subtree delegated to arenabench (beside its leaf), the
 * hybrid layout (a v1 memory group, a v2 group for cgroup.kill), a container
 * whose mount's root is not the hierarchy's, and a machine with neither.
 *
 * The mounts and the process's groups are read from files written here
 * (abe_cgroup_probe_from), and the hierarchies are folders holding the
 * control files the probe reads. A control file the kernel would refuse to
 * write (cgroup.subtree_control in a group that holds processes: EBUSY) is a
 * folder here, which no write opens. What happens inside real groups (the
 * join, the limit, the kill) is tested on this machine's own layout in
 * test_spawn.c.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/engine/cgroup.h"
#include "tests/support.h"

/* Writes text to base/rel, making the folders on the way. */
static void put(const char *base, const char *rel, const char *text) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", base, rel);
    for (char *s = path + strlen(base) + 1; (s = strchr(s, '/')) != NULL; s++) {
        *s = '\0';
        mkdir(path, 0755);
        *s = '/';
    }
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
}

/* Makes base/rel a folder (with its parents). */
static void folder(const char *base, const char *rel) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/", base, rel);
    for (char *s = path + strlen(base) + 1; (s = strchr(s, '/')) != NULL; s++) {
        *s = '\0';
        mkdir(path, 0755);
        *s = '/';
    }
    struct stat st;
    cr_assert(stat(path, &st) == 0 && S_ISDIR(st.st_mode), "%s", path);
}

/* Makes the v2 group base/rel: its cgroup.controllers when ctrl is not NULL;
 * its cgroup.subtree_control holding sub, or, when sub is NULL, a folder:
 * a group that holds processes, where the kernel refuses "+memory". */
static void group(const char *base, const char *rel, const char *ctrl, const char *sub) {
    char path[4096];
    if (ctrl != NULL) {
        snprintf(path, sizeof path, "%s/cgroup.controllers", rel);
        put(base, path, ctrl);
    }
    snprintf(path, sizeof path, "%s/cgroup.subtree_control", rel);
    if (sub != NULL) put(base, path, sub);
    else folder(base, path);
}

/* Probes with the mountinfo and cgroup texts given (each "@" in mountinfo:
 * base). */
static void probe_with(const char *base, const char *mountinfo, const char *cgroup) {
    char text[8192];
    size_t n = 0, blen = strlen(base);
    for (const char *c = mountinfo; *c != '\0'; c++) {
        cr_assert_lt(n + blen + 2, sizeof text);
        if (*c == '@') memcpy(text + n, base, blen), n += blen;
        else text[n++] = *c;
    }
    text[n] = '\0';
    put(base, "mountinfo", text);
    put(base, "cgroup", cgroup);
    char m[4096], c[4096];
    snprintf(m, sizeof m, "%s/mountinfo", base);
    snprintf(c, sizeof c, "%s/cgroup", base);
    abe_cgroup_probe_from(m, c);
}

static void expect_parent(const char *base, const char *rel) {
    char want[4096];
    snprintf(want, sizeof want, "%s%s", base, rel);
    const char *why;
    cr_assert(abe_cgroup_usable(&why), "not usable: %s", why ? why : "");
    cr_assert_str_eq(abe_cgroup_parent(), want);
}

#define V2_MOUNT "30 24 0:26 / @/v2 rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw\n"

/* A systemd machine, pure v2, arenabench in a login scope: the scope holds
 * processes, so it cannot give its children the memory controller, and its
 * slice gives its own children none (it is not changed: only the root is);
 * the root has it for its children: the jobs' groups go under the root. */
Test(cgroup, pure_v2_from_a_scope_that_cannot_delegate_goes_under_the_root) {
    char *base = abt_tmpdir();
    group(base, "v2", "cpuset cpu io memory hugetlb pids rdma misc\n", "cpu io memory pids\n");
    group(base, "v2/user.slice/user-0.slice", "cpu io memory pids\n", "cpu pids\n");
    group(base, "v2/user.slice/user-0.slice/session-3.scope", "cpu io memory pids\n", NULL);
    probe_with(base, V2_MOUNT, "0::/user.slice/user-0.slice/session-3.scope\n");
    expect_parent(base, "/v2");
    cr_assert_str_eq(abe_cgroup_layout(), "v2");
    char sp[4096];
    snprintf(sp, sizeof sp, "%s/v2/user.slice/user-0.slice/cgroup.subtree_control", base);
    char *slice = abt_slurp(sp, NULL);
    cr_assert_not_null(slice);
    cr_assert_str_eq(slice, "cpu pids\n", "a group above the own one is never changed");
    free(slice);
    free(base);
}

/* The same scope in a slice whose children have memory (systemd's default
 * memory accounting): the jobs go beside the scope, inside the slice. */
Test(cgroup, pure_v2_from_a_scope_in_a_slice_with_memory_goes_in_the_slice) {
    char *base = abt_tmpdir();
    group(base, "v2", "cpu io memory pids\n", "cpu io memory pids\n");
    group(base, "v2/user.slice", NULL, "cpu io memory pids\n");
    group(base, "v2/user.slice/user-0.slice", "cpu io memory pids\n", "memory pids\n");
    group(base, "v2/user.slice/user-0.slice/session-3.scope", "cpu io memory pids\n", NULL);
    probe_with(base, V2_MOUNT, "0::/user.slice/user-0.slice/session-3.scope\n");
    expect_parent(base, "/v2/user.slice/user-0.slice");
    cr_assert_str_eq(abe_cgroup_layout(), "v2");
    free(base);
}

/* A subtree delegated to arenabench (systemd's Delegate=yes): its processes
 * run in a leaf, since the kernel lets no group hold processes and give its
 * children memory at once; the delegated group has memory for its children:
 * the jobs go there, beside the leaf, not under the root. */
Test(cgroup, pure_v2_delegated_subtree_takes_the_jobs_beside_the_leaf) {
    char *base = abt_tmpdir();
    group(base, "v2", "cpu io memory pids\n", "cpu io memory pids\n");
    group(base, "v2/system.slice", NULL, "cpu io memory pids\n");
    group(base, "v2/system.slice/bench.service", "cpu memory pids\n", "memory pids\n");
    group(base, "v2/system.slice/bench.service/main", "memory pids\n", NULL);
    probe_with(base, V2_MOUNT, "0::/system.slice/bench.service/main\n");
    expect_parent(base, "/v2/system.slice/bench.service");
    cr_assert_str_eq(abe_cgroup_layout(), "v2");
    free(base);
}

/* A container: the cgroup2 mount's root is the container's group, and
 * /proc/self/cgroup names paths below it; the search upwards stops at the
 * mount. */
Test(cgroup, a_mount_whose_root_is_not_the_hierarchy_s_is_followed) {
    char *base = abt_tmpdir();
    group(base, "v2", "memory pids\n", "memory\n");
    group(base, "v2/job", "memory\n", "memory\n");
    group(base, "v2/job/init", "memory\n", NULL);
    probe_with(base,
               "41 40 0:30 /docker/c0ffee @/v2 rw,relatime - cgroup2 cgroup rw\n",
               "0::/docker/c0ffee/job/init\n");
    expect_parent(base, "/v2/job");
    /* nothing in the container delegates but its root: the mount point */
    put(base, "v2/job/cgroup.subtree_control", "pids\n");
    probe_with(base,
               "41 40 0:30 /docker/c0ffee @/v2 rw,relatime - cgroup2 cgroup rw\n",
               "0::/docker/c0ffee/job/init\n");
    expect_parent(base, "/v2");
    free(base);
}

/* The hybrid layout this project's machines have: v1's memory controller,
 * and a v2 hierarchy without it, used for cgroup.kill. */
Test(cgroup, hybrid_takes_the_v1_memory_group_and_a_v2_group_to_kill) {
    char *base = abt_tmpdir();
    put(base, "unified/cgroup.controllers", "hugetlb\n");
    put(base, "unified/cgroup.subtree_control", "");
    folder(base, "memory/process_api/ac9c");
    probe_with(base,
               "25 24 0:23 / @/memory rw,relatime - cgroup cgroup rw,memory\n"
               "26 24 0:24 / @/cpu rw,relatime - cgroup cgroup rw,cpu\n"
               "33 24 0:29 / @/unified rw,relatime - cgroup2 cgroup2 rw\n",
               "9:name=systemd:/\n4:memory:/process_api/ac9c\n1:cpu:/\n0::/\n");
    expect_parent(base, "/memory/process_api/ac9c");
    cr_assert_str_eq(abe_cgroup_layout(), "v1+v2");
    free(base);
}

/* v1 without a v2 hierarchy: the memory group alone (killed by listing). */
Test(cgroup, v1_alone_takes_the_memory_group) {
    char *base = abt_tmpdir();
    folder(base, "memory/user/42");
    probe_with(base, "25 24 0:23 / @/memory rw,relatime - cgroup cgroup rw,memory\n",
               "4:memory:/user/42\n");
    expect_parent(base, "/memory/user/42");
    cr_assert_str_eq(abe_cgroup_layout(), "v1");
    free(base);
}

/* Neither a v2 group with memory nor a v1 memory hierarchy: not usable, and
 * the reason says both. */
Test(cgroup, no_memory_controller_anywhere_says_why) {
    char *base = abt_tmpdir();
    group(base, "v2", "cpu pids\n", "cpu pids\n");
    probe_with(base, V2_MOUNT, "0::/\n");
    const char *why = NULL;
    cr_assert_not(abe_cgroup_usable(&why));
    cr_assert_null(abe_cgroup_parent());
    cr_assert_null(abe_cgroup_layout());
    cr_assert(why != NULL && strstr(why, "gives no memory controller") != NULL, "%s", why);
    cr_assert(strstr(why, "no cgroup v1 memory hierarchy") != NULL, "%s", why);
    free(base);
}
