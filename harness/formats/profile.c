/*
 * profile.c — the table of runtime profiles and how one is applied to a
 * problem (profile.h). The rules, and where each runtime states them:
 *
 *   tflm: TensorFlow Lite Micro plans every non-constant tensor of the
 *     graph, inputs and outputs included, in its one tensor arena (io:
 *     workspace). Its allocator rounds each buffer's size up to
 *     kBufferAlignment = 16 bytes (micro_allocator.cc; MicroArenaBufferAlignment()
 *     in micro_arena_constants.h in current releases) before it hands the
 *     buffers to GreedyMemoryPlanner (memory_planner/greedy_memory_planner.h),
 *     whose offsets therefore stay multiples of 16.
 *   tvm-usmp: TVM's Unified Static Memory Planner (RFC 0009) plans the
 *     intermediate buffers into workspace pools; the I/O tensors are the
 *     caller's own buffers unless tir.usmp.use_workspace_io is set (io:
 *     separate; --io workspace for that option). Each BufferInfo carries the
 *     executor's workspace-byte-alignment, default 16 (extract_buffer_info.cc),
 *     to which the algorithms round offsets up, not sizes. Its default
 *     algorithm (tir.usmp.algorithm) is greedy_by_size. Pools are the suite's.
 *   plain: the suite as written.
 */
#include "harness/formats/profile.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const abf_profile profiles[] = {
    {.name = "plain", .runtime = "the suite as written", .io = ABF_PROFILE_KEEP_IO, .align = 1},
    {.name = "tflm",
     .runtime = "TensorFlow Lite Micro",
     .io = AB_IO_WORKSPACE,
     .align = 16,
     .round_sizes = true,
     .reference = "tflm-greedy"},
    {.name = "tvm-usmp",
     .runtime = "TVM USMP",
     .io = AB_IO_SEPARATE,
     .align = 16,
     .reference = "usmp-greedy-by-size"},
};

#define NPROFILES (sizeof profiles / sizeof profiles[0])

const abf_profile *abf_profile_at(size_t i) { return i < NPROFILES ? &profiles[i] : NULL; }

const abf_profile *abf_profile_named(const char *name) {
    for (size_t i = 0; i < NPROFILES; i++)
        if (strcmp(profiles[i].name, name) == 0) return &profiles[i];
    return NULL;
}

/* Appends "plain, tflm, tvm-usmp" to buf (len bytes, NUL-terminated). */
static void profile_names(char *buf, size_t len) {
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < NPROFILES && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", profiles[i].name);
}

ab_status abf_profile_choose(const char *profile, const char *io, const char *align,
                             abf_profile_choice *c, ab_error *err) {
    const abf_profile *pr = abf_profile_named(profile ? profile : "plain");
    if (pr == NULL) {
        char names[128];
        profile_names(names, sizeof names);
        return ab_fail(err, AB_EINPUT, "--profile takes %s, not '%s'", names, profile);
    }
    *c = (abf_profile_choice){.profile = pr,
                              .io = pr->io,
                              .align = pr->align,
                              .round_sizes = pr->round_sizes,
                              .capacity = AB_NONE};
    if (io != NULL) {
        if (strcmp(io, "separate") == 0) c->io = AB_IO_SEPARATE;
        else if (strcmp(io, "workspace") == 0) c->io = AB_IO_WORKSPACE;
        else return ab_fail(err, AB_EINPUT, "--io takes separate or workspace, not '%s'", io);
    }
    if (align != NULL) {
        int64_t a;
        if (!ab_parse_int64(align, strlen(align), &a) || !ab_is_pow2(a) || a > ((int64_t)1 << 30))
            return ab_fail(err, AB_EINPUT,
                           "--align takes a power of two from 1 to 1073741824, not '%s'", align);
        c->align = a;
    }
    return AB_OK;
}

bool abf_profile_record(const abf_profile_choice *c, char *out, size_t len) {
    if (c->io == ABF_PROFILE_KEEP_IO && c->align <= 1) return false;
    snprintf(out, len, "profile=%s io=%s align=%lld", c->profile->name,
             c->io == ABF_PROFILE_KEEP_IO ? "keep"
             : c->io == AB_IO_WORKSPACE   ? "workspace"
                                          : "separate",
             (long long)c->align);
    return true;
}

ab_status abf_profile_from_record(const char *rec, abf_profile_choice *c, ab_error *err) {
    char name[64], io[16];
    long long align;
    if (sscanf(rec, "profile=%63s io=%15s align=%lld", name, io, &align) != 3)
        return ab_fail(err, AB_EINPUT, "a profile record reads 'profile=P io=IO align=N', not "
                       "'%.100s'", rec);
    char a[32];
    snprintf(a, sizeof a, "%lld", align);
    ab_status st = abf_profile_choose(name, strcmp(io, "keep") == 0 ? NULL : io, a, c, err);
    if (st == AB_OK && strcmp(io, "keep") == 0) c->io = ABF_PROFILE_KEEP_IO;
    return st;
}

bool abf_profile_same(const abf_profile_choice *a, const abf_profile_choice *b) {
    int64_t aa = a->align > 1 ? a->align : 1, ba = b->align > 1 ? b->align : 1;
    return a->io == b->io && aa == ba && (a->round_sizes && aa > 1) == (b->round_sizes && ba > 1);
}

bool abf_profile_changes(const abf_profile_choice *c) {
    return c->io != ABF_PROFILE_KEEP_IO || c->align > 1 || c->capacity != AB_NONE;
}

/* Drops what speaks of the suite as written: expect.optimum, lower_bound and
 * the peers' numbers. */
static void drop_expectations(ab_problem *p) {
    p->expect_optimum = p->expect_lower_bound = AB_NONE;
    for (size_t k = 0; k < p->npeers; k++) {
        ab_free(p->peers[k].spec);
        ab_free(p->peers[k].pool_bytes);
        ab_free(p->peers[k].offsets);
    }
    ab_free(p->peers);
    p->peers = NULL;
    p->npeers = 0;
}

/* Raises tensor t's align to at least a and, with round, rounds its size up
 * to the align; sets *changed when it did either. */
static ab_status align_tensor(const char *src, ab_tensor *t, int64_t a, bool round,
                              bool *changed, ab_error *err) {
    if (t->align < a) {
        if (t->offset != AB_NONE && t->offset % a != 0)
            return ab_fail(err, AB_EINPUT,
                           "%s:%d: tensor '%s': fixed offset %" PRId64
                           " is not a multiple of the profile's alignment %" PRId64,
                           src, t->line, t->name, t->offset, a);
        t->align = a;
        *changed = true;
    }
    int64_t size;
    if (round && ab_align_up_ovf(t->size, t->align, &size))
        return ab_fail(err, AB_EINPUT, "%s:%d: tensor '%s': size %" PRId64
                       " rounded up to %" PRId64 " overflows", src, t->line, t->name, t->size, t->align);
    if (round && size != t->size) {
        if (size > AB_MAX_SIZE)
            return ab_fail(err, AB_EINPUT, "%s:%d: tensor '%s': rounded size is too large",
                           src, t->line, t->name);
        t->size = size;
        *changed = true;
    }
    return AB_OK;
}

ab_status abf_profile_apply(const abf_profile_choice *c, ab_problem *p, bool *changed,
                            ab_error *err) {
    bool ch = false;
    if (c->io != ABF_PROFILE_KEEP_IO && (int)p->io != c->io) {
        p->io = (ab_io)c->io;
        ch = true;
    }
    if (c->align > 1 && p->alignment < c->align) {
        p->alignment = c->align;
        ch = true;
    }
    for (size_t i = 0; i < p->n && c->align > 1; i++) {
        ab_status st = align_tensor(p->source ? p->source : p->name, &p->t[i], c->align,
                                    c->round_sizes, &ch, err);
        if (st != AB_OK) return st;
    }
    if (ch) drop_expectations(p);
    /* a capacity is a budget, not the problem: the optimum and the peers'
     * arenas stay what they were */
    if (c->capacity != AB_NONE && p->capacity != c->capacity) {
        p->capacity = c->capacity;
        ch = true;
    }
    if (changed != NULL) *changed = ch;
    return AB_OK;
}
