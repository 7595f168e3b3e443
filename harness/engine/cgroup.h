/*
 * cgroup.h — a control group per job (Linux): the job's memory limited and
 * measured whole by the kernel, and every process of the job killed at
 * once, whatever session or process group it moved to. The spawner
 * (spawn.c) makes one for each spawn that holds a job (reap_descendants or
 * nested) when the containment mode allows it; see spawn.h, Containment.
 *
 * Where the groups go. The spawner's own cgroup, as /proc/self/cgroup and
 * /proc/self/mountinfo give it:
 *   - cgroup v2 with the memory controller available to the children of a
 *     group that can be written, tried nearest first: the spawner's own
 *     group (its cgroup.subtree_control lists memory, or "+memory" can be
 *     written there; the kernel allows that only at the hierarchy's root,
 *     since a group with the controller for its children may hold no process
 *     of its own); else the nearest group above it, within the mount, whose
 *     subtree_control lists memory already (a delegated subtree, or a login
 *     session's slice: the jobs go beside the spawner's leaf, inside the
 *     subtree's limits; nothing is enabled there); else the hierarchy's root
 *     (as root; "+memory" is written there when missing): one
 *     v2 group per job there, memory.max as the limit,
 *     memory.oom.group set (the kernel's out-of-memory killer takes the whole
 *     job), memory.peak as the peak, cgroup.kill to end it;
 *   - else the cgroup v1 memory controller, writable (root, usually): one
 *     v1 memory group per job (memory.limit_in_bytes, and memsw when the
 *     kernel has it, as the limit; memory.max_usage_in_bytes as the peak;
 *     memory.oom_control's oom_kill count), plus, where a cgroup v2
 *     hierarchy is mounted beside it (the "hybrid" layout), a v2 group per
 *     job that is only used for cgroup.kill; without one, the job is killed
 *     by sending SIGKILL to every process its memory group lists, until none
 *     is left;
 *   - else none: the spawner falls back to its subreaper (spawn.h).
 * A job's groups are named arenabench.<pid>.<n> (pid: the spawner's). The
 * first group a process makes sweeps the groups of spawners that are gone
 * (a `kill -9`ed run): their processes are killed and the groups removed.
 *
 * A job's memory in a group is what its processes charged there from the
 * moment they joined: pages a function child shares with its caller
 * (copy-on-write, not written) stay charged to the caller; page cache the
 * job fills and kernel memory it uses count, as the kernel counts them.
 *
 * One thread uses these; nothing is shared between threads. A process that
 * is itself a job's member (abe_cgroup_join called) makes no groups: its
 * spawns are inside the job's group already.
 */
#ifndef ABE_CGROUP_H
#define ABE_CGROUP_H

#include <stdbool.h>
#include <stdint.h>

#include "core/ab.h"

typedef struct abe_cgroup {
    int version;      /* the memory group's: 1 or 2; 0 when the job has no group */
    char *mem;        /* the job's memory group (a folder under the mount) */
    char *kill;       /* its v2 group for cgroup.kill: mem itself (v2), another (hybrid), or NULL */
    int mem_fd;       /* the groups' cgroup.procs, open for writing, for the child's join */
    int kill_fd;      /* -1 when kill is NULL or mem itself */
} abe_cgroup;

/* Whether this process can make job groups now; when not, why (a sentence,
 * static or in a static buffer). Probed once; a job's member never can. */
bool abe_cgroup_usable(const char **why);

/* true in a job's member (abe_cgroup_join was called in this process or a
 * parent of it since the fork): the job's group holds what it starts. */
bool abe_cgroup_inside(void);

/* Probes again, reading the mounts and this process's groups from these two
 * files (in the formats of /proc/self/mountinfo and /proc/self/cgroup)
 * instead: for tests of where the groups go on layouts this machine does
 * not have. Later probes read the given files too. */
void abe_cgroup_probe_from(const char *mountinfo, const char *cgroup);

/* The folder job memory groups are made in; NULL when not usable. */
const char *abe_cgroup_parent(void);

/* Ends and removes the groups of spawners that are gone (the probe does it
 * once; a long-lived caller may again). */
void abe_cgroup_sweep(void);

/* "v2" or "v1" (hybrid: "v1+v2") for the layout abe_cgroup_make uses;
 * NULL when not usable. */
const char *abe_cgroup_layout(void);

/* Makes a job's groups with a memory limit of mem_limit bytes (<= 0: none)
 * into *cg. AB_EINTERNAL with err set when it cannot (*cg is then empty). */
ab_status abe_cgroup_make(abe_cgroup *cg, int64_t mem_limit, ab_error *err);

/* In the job's first process, after fork and before anything else: moves it
 * into the groups (async-signal-safe: writes on the open descriptors) and
 * closes them. false when a write failed. */
bool abe_cgroup_join(abe_cgroup *cg);

/* Sends SIGKILL to every process of the job's groups (cgroup.kill where
 * there is one: at once, forks included; else one pass over the lists). */
void abe_cgroup_kill(const abe_cgroup *cg);

/* The largest memory the group was charged, in bytes; -1 when unknown. */
int64_t abe_cgroup_peak(const abe_cgroup *cg);

/* How many processes the kernel's out-of-memory killer took in the group
 * (the limit was reached and nothing could be reclaimed); -1 when unknown. */
int64_t abe_cgroup_oom_kills(const abe_cgroup *cg);

/* Kills what is left, waits (briefly) for the group to empty, removes the
 * groups and frees *cg. The caller reaps the killed processes it can (the
 * spawner's sweep); a group that stays busy is left for the next sweep. */
void abe_cgroup_remove(abe_cgroup *cg);

#endif
