/*
 * plan.c — `arenabench plan -p SPEC SUITE`: plans one suite in an isolated
 * child (a planner that crashes, hangs or runs out of memory is reported, not
 * fatal), checks the plan with the oracle, prints the arena, the lower bound
 * and the gap, and writes the plan (a plan file format: plan_formats.h) and
 * its picture.
 */
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "harness/cli/commands.h"
#include "harness/cli/common.h"
#include "harness/cli/fail.h"
#include "harness/cli/human.h"
#include "harness/engine/evaluate.h"
#include "harness/engine/runner.h"
#include "harness/formats/formats.h"
#include "harness/formats/plan_formats.h"
#include "harness/formats/tflm_tail.h"
#include "oracle/bounds.h"
#include "planners/planner.h"
#include "results/report/picture.h"
#include "results/report/svg.h"

typedef struct plan_job {
    const char *path, *spec, *out, *svg;
    const abf_plan_format *format; /* -o's (--format) */
    double time_limit; /* seconds, 0 = none */
    int64_t mem_limit; /* bytes, 0 = none */
    ab_problem full, view;
    ab_plan plan;
    ab_plan_stats stats;
    abo_bounds bounds;
    abo_report report;
    int64_t bound;   /* the best bound the evaluation proved (max-load at least) */
    abo_proof proof; /* the plan's certificate */
    abo_status status;      /* the outcome's status (ok, invalid, over-capacity, infeasible) */
    int64_t capacity;       /* the capacity the plan had to fit, or AB_NONE */
    abo_proof refuted_by;   /* infeasible: what proved that no plan fits */
    int64_t refuted_bound;  /* and the bound above the capacity */
    double seconds;
    abf_profile_choice profile; /* --profile, --io, --align */
    bool raw;                   /* --bytes: raw byte counts */
    bool picture;               /* --picture: the plan as text after the summary */
    abc_model_opts *model;      /* a model's options */
    int tflm_pointer;           /* --tflm-pointer: 4 or 8 bytes (the tail estimate's target) */
} plan_job;

static void plan_job_free(plan_job *j) {
    ab_problem_free(&j->full);
    ab_problem_free(&j->view);
    ab_plan_free(&j->plan);
}

/* Evaluates the planner as `run` does (harness/engine/evaluate.h: an
 * isolated child, so a planner that crashes, hangs or runs out of memory is
 * reported, not fatal; then the checker and the certificate). Returns 0 with
 * j->plan, j->report, j->bound and j->proof filled, or an exit code: 1 when
 * the planner failed, 2 for a planner error about its input (a bad parameter
 * value, an arena that overflows). */
static int plan_isolated(plan_job *j, const ab_planner *pl, const ab_params *params) {
    abe_job job = {.view = &j->view, .planner = pl, .params = params};
    abe_options opt = {.jobs = 1, .time_limit = j->time_limit, .mem_limit = j->mem_limit};
    abe_job_result r;
    abe_outcome o;
    ab_error err;
    ab_error_clear(&err);
    if (abe_evaluate(&job, j->bounds.max_load, &opt, &r, &o, &err) != AB_OK) {
        abe_result_free(&r);
        return abc_fail(&err);
    }
    int rc = 0;
    j->seconds = r.wall_seconds;
    j->stats = r.stats;
    if (r.status == ABE_OK) {
        j->report = o.check;
        j->bound = o.lower_bound;
        j->proof = o.proof;
        j->status = o.status;
        j->capacity = o.capacity;
        j->refuted_by = o.refuted_by;
        j->refuted_bound = o.refuted_bound;
        if (ab_plan_from_offsets(&j->plan, r.offsets, r.n, &err) != AB_OK) rc = abc_fail(&err);
    } else {
        rc = r.status == ABE_ERROR && r.planner_status == AB_EINPUT ? ABC_EXIT_USAGE
                                                                    : ABC_EXIT_CHECK;
        abc_failf(rc, "%s: planner %s failed: %s%s%s", j->path, j->spec,
                  abe_status_name(r.status), r.message[0] ? ": " : "", r.message);
    }
    abe_result_free(&r);
    return rc;
}

/* Resolves the spec, plans, checks and bounds; returns 0 or an exit code. */
static int plan_job_run(plan_job *j) {
    const ab_planner *pl;
    ab_params params;
    ab_error err;
    ab_error_clear(&err);
    if (ab_planner_resolve(j->spec, &pl, &params, &err) != AB_OK) return abc_fail(&err);
    int rc = abc_load_suite_with(j->path, j->model, &j->full);
    if (rc == 0) rc = abc_profile_apply(&j->profile, &j->full);
    ab_status st = AB_OK;
    if (rc == 0) st = ab_problem_arena_view(&j->full, &j->view, NULL, &err);
    if (rc == 0 && st == AB_OK) st = abo_bounds_compute(&j->full, &j->bounds, &err);
    if (rc == 0 && st == AB_OK) rc = plan_isolated(j, pl, &params);
    ab_params_free(&params);
    if (rc == 0 && st != AB_OK) rc = abc_fail(&err);
    return rc;
}

/* Gap of arena over bound in percent (0 when bound is 0). */
static double gap_percent(int64_t arena, int64_t bound) {
    return bound > 0 ? 100.0 * (double)(arena - bound) / (double)bound : 0.0;
}

/* With pools, one line per pool: the bytes the plan uses of its size, and the
 * tensors that set that use (their end is the pool's top). */
static void print_pools(const plan_job *j, const int64_t *off, FILE *to) {
    const ab_problem *v = &j->view;
    for (size_t k = 0; k < v->npools && k < AB_MAX_POOLS; k++) {
        char b1[ABC_BYTES_LEN], b2[ABC_BYTES_LEN];
        int64_t used = j->report.pool_used[k], size = v->pools[k].size, base = ab_pool_base(v, k);
        fprintf(to, "%-10s %s: %s", k == 0 ? "pools" : "", ab_term(v->pools[k].name),
                abc_bytes(b1, used, j->raw));
        if (size != AB_NONE)
            fprintf(to, " of %s (%.1f%%)%s", abc_bytes(b2, size, j->raw),
                    100.0 * (double)used / (double)size, used > size ? ", OVER" : "");
        else
            fprintf(to, " (unbounded)");
        size_t shown = 0, more = 0;
        for (size_t i = 0; used > 0 && i < v->n; i++) {
            size_t at = ab_pool_find(v, off[i]);
            if (at == AB_NO_POOL) at = v->npools - 1; /* past the last: counted in it */
            if (at != k || off[i] - base + v->t[i].size != used) continue;
            if (shown == 3) {
                more++;
                continue;
            }
            fprintf(to, "%s%s", shown++ ? ", " : "; top set by ", ab_term(v->t[i].name));
        }
        if (more) fprintf(to, " and %zu more", more);
        fprintf(to, "\n");
    }
}

/* What makes up the peak and, for a valid one-arena plan, what sets its
 * top. Returns 0 or an exit code. */
static int plan_job_peak(const plan_job *j, FILE *to) {
    if (j->bounds.max_load_count == 0 || j->plan.n != j->view.n) return 0;
    int64_t *off = ab_alloc_array(j->view.n, sizeof *off);
    if (off == NULL) return abc_failf(ABC_EXIT_INTERNAL, "out of memory");
    for (size_t i = 0; i < j->view.n; i++) off[i] = j->plan.v[i].offset;
    int rc = abc_print_peak(to, &j->view, j->bounds.max_load_instr, j->bounds.max_load, off,
                            j->raw);
    if (rc == 0 && j->report.verdict == ABO_OK && j->view.npools == 0)
        abc_print_top(to, &j->view, off, j->report.arena, j->bounds.max_load, j->raw);
    if (rc == 0 && abo_verdict_packs(j->report.verdict)) print_pools(j, off, to);
    ab_free(off);
    return rc;
}

/* The operators of t whose kind has no row, as "PAD x3, code 99 x1" (at most
 * a few kinds) into buf. */
static void unmodelled_kinds(const abf_tflm_tail *t, char *buf, size_t len) {
    size_t used = 0, shown = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < t->nkinds && used < len; i++) {
        const abf_tflm_kind *k = &t->kinds[i];
        if (k->modelled) continue;
        if (shown++ == 4) {
            snprintf(buf + used, len - used, ", ...");
            break;
        }
        used += (size_t)snprintf(buf + used, len - used, "%sBuiltinOperator %d x%zu",
                                 shown > 1 ? ", " : "", (int)k->code, k->count);
    }
}

/* The kinds of t with op data, largest first, as "CONV_2D x40 7680" (at most
 * five) into buf. */
static void op_data_kinds(const abf_tflm_tail *t, char *buf, size_t len) {
    bool done[ABF_TFLM_MAX_KINDS] = {false};
    size_t used = 0;
    buf[0] = '\0';
    for (int n = 0; n < 5 && used < len; n++) {
        size_t best = t->nkinds;
        for (size_t i = 0; i < t->nkinds; i++) {
            const abf_tflm_kind *k = &t->kinds[i];
            if (done[i] || !k->modelled || k->op_data + k->builtin == 0) continue;
            if (best == t->nkinds || k->op_data + k->builtin >
                                         t->kinds[best].op_data + t->kinds[best].builtin)
                best = i;
        }
        if (best == t->nkinds) break;
        done[best] = true;
        const abf_tflm_kind *k = &t->kinds[best];
        used += (size_t)snprintf(buf + used, len - used, "%s%s x%zu %lld", n ? ", " : "",
                                 abf_tflm_op_name(k->code), k->count,
                                 (long long)(k->op_data + k->builtin));
    }
}

/* For the tflm profile: the arena is TFLM's head; with a .tflite, an
 * estimate of the tail (harness/formats/tflm_tail.h) and their sum as the
 * suggested kTensorArenaSize, with what the estimate leaves out. */
static void print_tflm_arena(const plan_job *j, int64_t head, FILE *to) {
    ab_error err;
    ab_error_clear(&err);
    const abf_format *f = abf_format_of(j->path, false, &err);
    abf_tflm_tail t;
    if (f == NULL || strcmp(f->name, "tflite") != 0 ||
        abf_tflm_tail_of_file(j->path, j->tflm_pointer, &t, &err) != AB_OK) {
        fprintf(to, "%-10s TFLM's non-persistent (head) section only: kTensorArenaSize also "
                "needs its persistent tail; plan the .tflite itself for an estimate of it\n", "");
        return;
    }
    char kinds[256], other[256];
    op_data_kinds(&t, kinds, sizeof kinds);
    unmodelled_kinds(&t, other, sizeof other);
    int64_t total = (head + t.total + 15) / 16 * 16;
    fprintf(to, "tflm       an ESTIMATE of TFLM's whole arena (%d-bit target%s):\n",
            8 * t.pointer_bytes, t.pointer_bytes == 4 ? ", --tflm-pointer 64 for a host" : "");
    fprintf(to, "  head     %10lld  the arena above: the tensors TFLM's planner places\n",
            (long long)head);
    fprintf(to, "  tail     %10lld  estimated persistent section, rounded up to 16:\n",
            (long long)t.total);
    fprintf(to, "    eval tensors %7lld  %zu x TfLiteEvalTensor (%lld), constants included\n",
            (long long)t.eval_tensors, t.ntensors, (long long)t.eval_tensor_size);
    fprintf(to, "    nodes        %7lld  %zu x NodeAndRegistration (%lld)\n",
            (long long)t.nodes, t.nops, (long long)t.node_size);
    fprintf(to, "    op data      %7lld  kernels' OpData, %lld of it per-channel arrays\n",
            (long long)t.op_data, (long long)t.per_channel);
    fprintf(to, "    builtin data %7lld  operators' params structs\n", (long long)t.builtin_data);
    if (kinds[0]) fprintf(to, "    by kind (op + builtin data): %s\n", kinds);
    fprintf(to, "    I/O tensors  %7lld  %zu persistent TfLiteTensor (%zu quantized), pointer "
            "arrays\n", (long long)t.io_tensors, t.nio, t.nio_quantized);
    fprintf(to, "    allocator    %7lld  MicroAllocator, GreedyMemoryPlanner, ... (approximate)\n",
            (long long)t.allocator);
    if (t.nvariables > 0)
        fprintf(to, "    (variables   %7lld  %zu variable tensors: TFLM's tail, already in the "
                "head as planned here, not added)\n", (long long)t.variables, t.nvariables);
    fprintf(to, "  total    %10lld  kTensorArenaSize at least (head + tail; declare the arena "
            "alignas(16))\n", (long long)total);
    fprintf(to, "  not counted: kernel scratch buffers (RequestScratchBufferInArena: TFLM plans "
            "them in its head, e.g. for CMSIS-NN kernels); op data of optimized or custom "
            "kernels%s%s; the transient planning section\n",
            t.nunmodelled ? " and of " : "", other);
    fprintf(to, "  sizes: TFLM's reference kernels and structs (README, \"TFLite Micro's "
            "whole arena\")\n");
}

/* Prints the summary to to; returns 0 or 1 (invalid, below the optimum, or
 * the capacity gate: a valid plan over the capacity or a pool says by how
 * much and whether anything proved that no plan fits, and exits 1). */
static int plan_job_print(const plan_job *j, FILE *to) {
    const ab_problem *p = &j->full;
    int64_t arena = j->report.arena, lb = j->bound;
    char b1[ABC_BYTES_LEN], b2[ABC_BYTES_LEN];
    fprintf(to, "suite      %s (%zu tensors in the arena", ab_term(p->name), j->view.n);
    if (p->n > j->view.n) fprintf(to, ", %zu I/O outside", p->n - j->view.n);
    fprintf(to, ")\n");
    if (abf_profile_changes(&j->profile))
        fprintf(to, "profile    %s (io %s, align %lld%s)\n", j->profile.profile->name,
                p->io == AB_IO_WORKSPACE ? "workspace" : "separate", (long long)p->alignment,
                j->profile.round_sizes && j->profile.align > 1 ? ", sizes rounded" : "");
    fprintf(to, "planner    %s\n", ab_term(j->spec));
    abc_print_size(to, "arena", arena, j->raw);
    if (!j->raw && arena >= 1024) /* the figure to copy into a build */
        fprintf(to, "%-10s %lld bytes exactly\n", "", (long long)arena);
    if (strcmp(j->profile.profile->name, "tflm") == 0) print_tflm_arena(j, arena, to);
    if (lb == j->bounds.max_load)
        fprintf(to, "bound      %s (max-load at instruction %lld)\n", abc_bytes(b1, lb, j->raw),
                (long long)j->bounds.max_load_instr);
    else
        fprintf(to, "bound      %s (proved by %s: %s; max-load %s at instruction "
                "%lld)\n", abc_bytes(b1, lb, j->raw), j->spec, abo_proof_word(j->stats.method),
                abc_bytes(b2, j->bounds.max_load, j->raw), (long long)j->bounds.max_load_instr);
    fprintf(to, "gap        %+.2f%%", gap_percent(arena, lb));
    if (j->proof == ABO_PROOF_LOWER_BOUND) fprintf(to, " (optimal: equals the lower bound)");
    else if (j->proof != ABO_PROOF_NONE) fprintf(to, " (optimal: %s)", abo_proof_word(j->proof));
    fprintf(to, "\n");
    if (p->io == AB_IO_SEPARATE && j->bounds.io_outside > 0)
        fprintf(to, "footprint  %s (arena + %s of I/O outside)\n",
                abc_bytes(b1, arena + j->bounds.io_outside, j->raw),
                abc_bytes(b2, j->bounds.io_outside, j->raw));
    fprintf(to, "time       %.3f ms\n", j->seconds * 1e3);
    int prc = plan_job_peak(j, to);
    if (prc != 0) return prc;
    int rc = 0;
    if (j->status == ABO_STATUS_OVER_CAPACITY || j->status == ABO_STATUS_INFEASIBLE) {
        abc_print_over_capacity(&j->report, j->capacity, j->refuted_by, j->refuted_bound, to);
        bool over = j->capacity != AB_NONE && arena > j->capacity;
        rc = abc_failf(ABC_EXIT_CHECK, "%s: the plan does not fit: %s%s", j->path,
                       over ? "its arena exceeds the capacity" : "it runs past a pool's size",
                       j->status == ABO_STATUS_INFEASIBLE ? ", and no plan can fit (proven)"
                                                          : "; another planner may fit it");
    } else {
        rc = abc_print_verdict(&j->report, to);
    }
    abo_expect ex = {.optimum = p->expect_optimum, .lower_bound = p->expect_lower_bound};
    char why[256];
    if (!abo_expect_agrees(&ex, j->bounds.max_load, AB_NONE, false, ABO_PROOF_NONE, AB_NONE, why,
                           sizeof why) ||
        !abo_expect_agrees(&ex, j->bounds.max_load, arena, abo_verdict_packs(j->report.verdict),
                           j->proof, j->bound, why, sizeof why))
        rc = abc_failf(ABC_EXIT_CHECK, "%s: %s: the expectation, a prover or the checker is wrong",
                       j->path, why);
    return rc;
}

/* Writes a plan file in format (a plan formats row that reads). */
static ab_status write_plan(const char *path, const abf_plan_format *format,
                            const ab_problem *view, const ab_plan *pl,
                            const abf_profile_choice *prof, ab_error *err) {
    ab_buf b = {0};
    char rec[128];
    abf_plan_out o = {.view = view, .plan = pl};
    if (abf_profile_record(prof, rec, sizeof rec)) o.profile = rec; /* DESIGN.md §4 */
    ab_status st = format->write(&o, &b, err);
    if (st == AB_OK) st = ab_buf_write_file(&b, path, err);
    ab_buf_free(&b);
    return st;
}

/* Prints the plan as text (results/report/picture.h) to to; 0 or an exit code. */
static int plan_job_picture(const plan_job *j, FILE *to) {
    if (j->plan.n != j->view.n) return 0;
    int64_t *off = ab_alloc_array(j->view.n ? j->view.n : 1, sizeof *off);
    if (off == NULL) return abc_failf(ABC_EXIT_INTERNAL, "out of memory");
    for (size_t i = 0; i < j->view.n; i++) off[i] = j->plan.v[i].offset;
    ab_buf b = {0};
    ab_error err;
    ab_error_clear(&err);
    ab_status st = abr_text_plan(&b, &j->view, off, &err);
    if (st == AB_OK && b.s != NULL) fputs(b.s, to);
    ab_buf_free(&b);
    ab_free(off);
    return st == AB_OK ? 0 : abc_fail(&err);
}

/* Draws the plan to j->svg; returns 0 or an exit code. */
static int plan_job_svg(const plan_job *j) {
    ab_buf b = {0};
    ab_error err;
    ab_error_clear(&err);
    char title[512];
    snprintf(title, sizeof title, "%s — %s", j->full.name, j->spec);
    ab_status st = abr_svg_plan(&b, &j->view, &j->plan, j->bounds.max_load, title,
                                j->report.overlap_a, j->report.overlap_b, &err);
    if (st == AB_OK) st = ab_buf_write_file(&b, j->svg, &err);
    ab_buf_free(&b);
    return st == AB_OK ? 0 : abc_fail(&err);
}

int abc_plan(const abc_args *a) {
    plan_job j = {.spec = abc_opt(a, "planner", NULL),
                  .raw = abc_flag(a, "bytes"),
                  .out = abc_opt(a, "output", NULL),
                  .svg = abc_opt(a, "svg", NULL),
                  .picture = abc_flag(a, "picture")};
    const char *tl = abc_opt(a, "time-limit", NULL), *ml = abc_opt(a, "mem-limit", NULL);
    const char *tp = abc_opt(a, "tflm-pointer", "32");
    if (strcmp(tp, "32") != 0 && strcmp(tp, "64") != 0)
        return abc_usage_error(a->cmd, "--tflm-pointer takes 32 or 64 (bits), not '%s'", tp);
    j.tflm_pointer = tp[0] == '6' ? 8 : 4;
    if (tl && !abc_parse_number(tl, &j.time_limit, false))
        return abc_usage_error(a->cmd, "--time-limit takes seconds > 0, not '%s'", tl);
    if (ml && !ab_parse_bytes(ml, &j.mem_limit))
        return abc_usage_error(a->cmd, "--mem-limit takes bytes (e.g. 2G, 512M), not '%s'", ml);
    const char *input = abc_opt(a, "input", NULL); /* MiniMalloc's spelling of the operand */
    if (input != NULL && a->noperands > 0)
        return abc_usage_error(a->cmd, "give the suite once: as the operand or as --input");
    if (input == NULL && a->noperands != 1)
        return abc_usage_error(a->cmd, "expected one suite file");
    static abc_model_opts model;
    j.model = &model;
    int crc = abc_containment_arg(a);
    if (crc != 0) return crc;
    int prc = abc_profile_args(a, true, &j.profile);
    if (prc == 0) prc = abc_model_args(a, j.model);
    if (prc != 0) return prc;
    if (j.spec == NULL)
        j.spec = j.profile.profile->reference ? j.profile.profile->reference : "first-fit";
    prc = abc_plan_file_format(a, &j.format);
    if (prc != 0) return prc;
    j.path = input != NULL ? input : a->operands[0];
    ab_problem_init(&j.full);
    ab_problem_init(&j.view);
    ab_plan_init(&j.plan);
    int rc = plan_job_run(&j);
    if (rc == 0 && j.out != NULL) {
        ab_error err;
        ab_error_clear(&err);
        if (write_plan(j.out, j.format, &j.view, &j.plan, &j.profile, &err) != AB_OK) rc = abc_fail(&err);
    }
    if (rc == 0 && j.svg != NULL) rc = plan_job_svg(&j);
    if (rc == 0) {
        bool plan_on_stdout = j.out != NULL && strcmp(j.out, "-") == 0;
        FILE *to = plan_on_stdout ? stderr : stdout;
        rc = plan_job_print(&j, to);
        if (j.picture && rc <= ABC_EXIT_CHECK) { /* also for an invalid plan, or over the gate */
            int pic = plan_job_picture(&j, to);
            if (pic != 0) rc = pic;
        }
    }
    plan_job_free(&j);
    return rc;
}
