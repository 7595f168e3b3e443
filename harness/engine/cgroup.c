/*
 * cgroup.c — a control group per job (see cgroup.h): where the groups go
 * (probed once from /proc/self/mountinfo and /proc/self/cgroup), making
 * them with their limit, the child's join, the kill, the figures, removal,
 * and the sweep of groups that dead spawners left.
 */
#define _GNU_SOURCE

#include "harness/engine/cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define GROUP_PREFIX "arenabench."

/* Where this process makes job groups (probed once). */
static struct {
    bool probed;
    int version;          /* 1, 2, or 0: none */
    char mem[4096];       /* the parent folder of the memory groups */
    char kill[4096];      /* the parent folder of the v1 layout's v2 kill groups, or "" */
    char why[10240];      /* why none, when version is 0 */
    unsigned long made;   /* groups made so far: the next one's number */
} where;

/* Set in a job's member (abe_cgroup_join): it makes no groups of its own. */
static bool member;

/* Where the probe reads this process's mounts and groups (abe_cgroup_probe_from). */
static const char *mountinfo_path = "/proc/self/mountinfo";
static const char *cgroup_path = "/proc/self/cgroup";

/* ---- small file helpers --------------------------------------------------------- */

/* Writes text to dir/name; false (errno set) on failure. */
static bool put(const char *dir, const char *name, const char *text) {
    char path[4200];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return false;
    }
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    size_t len = strlen(text);
    ssize_t w;
    do w = write(fd, text, len);
    while (w < 0 && errno == EINTR);
    int e = errno;
    close(fd);
    errno = e;
    return w == (ssize_t)len;
}

/* Reads dir/name (at most cap - 1 bytes) into text, NUL-terminated; false when
 * it cannot be read. */
static bool get(const char *dir, const char *name, char *text, size_t cap) {
    char path[4200];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) return false;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    size_t len = 0;
    while (len < cap - 1) {
        ssize_t got = read(fd, text + len, cap - 1 - len);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        len += (size_t)got;
    }
    close(fd);
    text[len] = '\0';
    return true;
}

/* The number after "key " on a line of text; -1 when absent. */
static int64_t keyed(const char *text, const char *key) {
    size_t klen = strlen(key);
    for (const char *line = text; *line != '\0';) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ' ')
            return (int64_t)strtoll(line + klen + 1, NULL, 10);
        const char *nl = strchr(line, '\n');
        if (nl == NULL) break;
        line = nl + 1;
    }
    return -1;
}

/* true when word is one of the comma-separated words of list. */
static bool has_word(const char *list, const char *word, char sep) {
    size_t wlen = strlen(word);
    for (const char *s = list; s != NULL && *s != '\0';) {
        const char *end = strchr(s, sep);
        size_t len = end != NULL ? (size_t)(end - s) : strlen(s);
        if (len == wlen && strncmp(s, word, len) == 0) return true;
        s = end != NULL ? end + 1 : NULL;
    }
    return false;
}

/* Cuts text at its first newline; returns it. */
static char *first_line(char *text) {
    text[strcspn(text, "\n")] = '\0';
    return text;
}

/* ---- where: /proc/self/mountinfo and /proc/self/cgroup ----------------------------- */

/* A mount of a cgroup hierarchy: its mount point and the path of its root
 * within the hierarchy. */
typedef struct mount_row {
    char point[4096], root[4096];
    bool found;
} mount_row;

/* Finds the cgroup2 mount (v1 false) or the v1 mount carrying the memory
 * controller (v1 true). */
static void find_mount(bool v1, mount_row *m) {
    memset(m, 0, sizeof *m);
    FILE *f = fopen(mountinfo_path, "re");
    if (f == NULL) return;
    char line[8192];
    while (!m->found && fgets(line, sizeof line, f) != NULL) {
        /* id parent major:minor root point options [optional...] - type source super */
        char root[4096], point[4096];
        if (sscanf(line, "%*s %*s %*s %4095s %4095s", root, point) != 2) continue;
        const char *dash = strstr(line, " - ");
        if (dash == NULL) continue;
        char type[64], source[256], super[1024];
        super[0] = '\0';
        if (sscanf(dash + 3, "%63s %255s %1023s", type, source, super) < 2) continue;
        bool hit = v1 ? strcmp(type, "cgroup") == 0 && has_word(super, "memory", ',')
                      : strcmp(type, "cgroup2") == 0;
        if (!hit) continue;
        snprintf(m->point, sizeof m->point, "%s", point);
        snprintf(m->root, sizeof m->root, "%s", root);
        m->found = true;
    }
    fclose(f);
}

/* This process's path in the v2 hierarchy (v1 false: the "0::" line) or in
 * the v1 memory hierarchy; false when /proc/self/cgroup has none. */
static bool own_path(bool v1, char *path, size_t cap) {
    FILE *f = fopen(cgroup_path, "re");
    if (f == NULL) return false;
    char line[8192];
    bool found = false;
    while (!found && fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':');
        char *c2 = c1 != NULL ? strchr(c1 + 1, ':') : NULL;
        if (c2 == NULL) continue;
        *c1 = *c2 = '\0'; /* "id:controllers:path" */
        const char *ctrl = c1 + 1;
        bool hit = v1 ? has_word(ctrl, "memory", ',') : strcmp(line, "0") == 0 && *ctrl == '\0';
        if (hit) found = snprintf(path, cap, "%s", c2 + 1) < (int)cap;
    }
    fclose(f);
    return found;
}

/* The folder of this process's group: the mount point joined with its path,
 * less the mount's root. false when it is not under the mount. */
static bool own_folder(const mount_row *m, const char *path, char *out, size_t cap) {
    const char *rel = path;
    size_t rlen = strlen(m->root);
    if (strcmp(m->root, "/") != 0) {
        if (strncmp(path, m->root, rlen) != 0 || (path[rlen] != '/' && path[rlen] != '\0'))
            return false;
        rel = path + rlen;
    }
    if (strcmp(rel, "/") == 0) rel = "";
    return snprintf(out, cap, "%s%s", m->point, rel) < (int)cap;
}

static void sweep_dead(const char *parent);

/* true when dir's children have the memory controller already and dir can be
 * written: a group above this process's own that a delegation left ready. */
static bool v2_lists_memory(const char *dir) {
    char text[1024];
    return get(dir, "cgroup.subtree_control", text, sizeof text) &&
           has_word(first_line(text), "memory", ' ') && access(dir, W_OK) == 0;
}

/* true when groups with the memory controller can be made under dir (a v2
 * group): memory is enabled for its children already, or can be now (the
 * kernel allows it at the hierarchy's root, and elsewhere only in a group
 * with no process of its own). */
static bool v2_delegates(const char *dir) {
    char text[1024];
    if (!get(dir, "cgroup.controllers", text, sizeof text) ||
        !has_word(first_line(text), "memory", ' ')) {
        errno = EOPNOTSUPP;
        return false;
    }
    return v2_lists_memory(dir) || put(dir, "cgroup.subtree_control", "+memory");
}

/* Uses the v2 group dir for the jobs' groups. */
static void take_v2(const char *dir) {
    where.version = 2;
    snprintf(where.mem, sizeof where.mem, "%s", dir);
    sweep_dead(where.mem);
}

/* Decides where (see cgroup.h, Where the groups go). */
static void probe(void) {
    where.probed = true;
    mount_row v2, v1;
    find_mount(false, &v2);
    find_mount(true, &v1);
    char path[4096], dir[4096];
    bool v2_dir = v2.found && own_path(false, path, sizeof path) &&
                  own_folder(&v2, path, dir, sizeof dir);
    if (v2_dir) {
        /* This process's own group first (it can give its children memory
         * only at the root: elsewhere it holds this process); then each group
         * above it, up to the mount, whose children have memory already (a
         * delegated subtree: the jobs go beside arenabench's leaf, inside the
         * subtree's limits); nothing above the own group is changed. */
        if (v2_delegates(dir)) {
            take_v2(dir);
            return;
        }
        char up[4096];
        snprintf(up, sizeof up, "%s", dir);
        size_t top = strlen(v2.point);
        for (char *slash; (slash = strrchr(up, '/')) != NULL && (size_t)(slash - up) > top;) {
            *slash = '\0';
            if (v2_lists_memory(up)) {
                take_v2(up);
                return;
            }
        }
    }
    /* Else the hierarchy's root (as root, on a machine whose groups above
     * arenabench's cannot delegate: a login session's scope in a slice
     * without memory for its children). */
    if (v2.found && !(v2_dir && strcmp(dir, v2.point) == 0) && v2_delegates(v2.point)) {
        take_v2(v2.point);
        return;
    }
    if (v2.found)
        snprintf(where.why, sizeof where.why,
                 "the cgroup v2 hierarchy at %s gives no memory controller to arenabench's "
                 "groups (neither its own group, nor a group above it, nor the root can: the "
                 "controller is absent, or bound to v1, or the group has processes of its "
                 "own, or not root)",
                 v2.point);
    else
        snprintf(where.why, sizeof where.why, "no cgroup v2 hierarchy is mounted");
    char mdir[4096];
    if (!v1.found || !own_path(true, path, sizeof path) ||
        !own_folder(&v1, path, mdir, sizeof mdir)) {
        size_t len = strlen(where.why);
        snprintf(where.why + len, sizeof where.why - len,
                 ", and no cgroup v1 memory hierarchy is mounted");
        return;
    }
    if (access(mdir, W_OK) != 0) {
        size_t len = strlen(where.why);
        snprintf(where.why + len, sizeof where.why - len,
                 ", and the cgroup v1 memory group %s cannot be written (%s; root can)", mdir,
                 strerror(errno));
        return;
    }
    where.version = 1;
    where.why[0] = '\0';
    snprintf(where.mem, sizeof where.mem, "%s", mdir);
    if (v2_dir && access(dir, W_OK) == 0) snprintf(where.kill, sizeof where.kill, "%s", dir);
    sweep_dead(where.mem);
    if (where.kill[0] != '\0') sweep_dead(where.kill);
}

bool abe_cgroup_usable(const char **why) {
    if (member) {
        if (why != NULL) *why = "this process is inside a job's cgroup already";
        return false;
    }
    if (!where.probed) probe();
    if (why != NULL) *why = where.version != 0 ? NULL : where.why;
    return where.version != 0;
}

bool abe_cgroup_inside(void) { return member; }

void abe_cgroup_probe_from(const char *mountinfo, const char *cgroup) {
    mountinfo_path = mountinfo;
    cgroup_path = cgroup;
    memset(&where, 0, sizeof where);
    probe();
}

const char *abe_cgroup_parent(void) { return abe_cgroup_usable(NULL) ? where.mem : NULL; }

void abe_cgroup_sweep(void) {
    if (!abe_cgroup_usable(NULL)) return;
    sweep_dead(where.mem);
    if (where.kill[0] != '\0') sweep_dead(where.kill);
}

const char *abe_cgroup_layout(void) {
    if (!abe_cgroup_usable(NULL)) return NULL;
    return where.version == 2 ? "v2" : where.kill[0] != '\0' ? "v1+v2" : "v1";
}

/* ---- killing and removing ------------------------------------------------------------ */

/* fn over every group directly under dir (its subfolders); the sum of what
 * fn returns. */
static size_t over_subgroups(const char *dir, size_t (*fn)(const char *group)) {
    size_t sum = 0;
    char path[4200];
    DIR *d = opendir(dir);
    for (struct dirent *de; d != NULL && (de = readdir(d)) != NULL;) {
        if (de->d_type != DT_DIR || de->d_name[0] == '.') continue;
        if (snprintf(path, sizeof path, "%s/%s", dir, de->d_name) < (int)sizeof path)
            sum += fn(path);
    }
    if (d != NULL) closedir(d);
    return sum;
}

/* SIGKILL to every process dir/cgroup.procs lists, in dir and every group
 * under it; the count of processes signalled. */
static size_t kill_listed(const char *dir) {
    size_t n = 0;
    char path[4200];
    snprintf(path, sizeof path, "%s/cgroup.procs", dir);
    FILE *f = fopen(path, "re");
    if (f != NULL) {
        long pid;
        while (fscanf(f, "%ld", &pid) == 1)
            if (pid > 0 && kill((pid_t)pid, SIGKILL) == 0) n++;
        fclose(f);
    }
    return n + over_subgroups(dir, kill_listed);
}

/* Removes dir and the groups under it, deepest first; 1 when one stays. */
static size_t remove_tree(const char *dir) {
    over_subgroups(dir, remove_tree);
    return rmdir(dir) == 0 || errno == ENOENT ? 0 : 1;
}

/* 1 when dir or a group under it lists a process, else 0. */
static size_t tree_busy(const char *dir) {
    char text[64];
    if (get(dir, "cgroup.events", text, sizeof text)) return keyed(text, "populated") != 0;
    if (!get(dir, "cgroup.procs", text, sizeof text)) return 0; /* gone */
    return text[0] != '\0' || over_subgroups(dir, tree_busy) > 0;
}

/* Kills everything in dir's tree (cgroup.kill when v2 has it), then waits for
 * it to empty and removes it. At the reap the job's processes are reaped
 * already, so neither wait loops; the bounds (about 5 s and 1 s, 1 ms a
 * round) are for a process that cannot die at once, whose group is then left
 * for the next sweep. */
static void end_tree(const char *dir, bool v2) {
    for (int round = 0; round < 5000; round++) {
        if (!(v2 && put(dir, "cgroup.kill", "1"))) kill_listed(dir);
        if (!tree_busy(dir)) break;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    for (int round = 0; round < 1000 && remove_tree(dir) != 0; round++) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

/* Ends and removes every group in parent named arenabench.<pid>.<n> whose
 * spawner <pid> is gone. */
static void sweep_dead(const char *parent) {
    DIR *d = opendir(parent);
    char path[4200];
    for (struct dirent *de; d != NULL && (de = readdir(d)) != NULL;) {
        if (strncmp(de->d_name, GROUP_PREFIX, sizeof GROUP_PREFIX - 1) != 0) continue;
        long pid = strtol(de->d_name + sizeof GROUP_PREFIX - 1, NULL, 10);
        if (pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        if (snprintf(path, sizeof path, "%s/%s", parent, de->d_name) < (int)sizeof path)
            end_tree(path, where.version == 2 || parent == where.kill);
    }
    if (d != NULL) closedir(d);
}

/* ---- a job's groups ---------------------------------------------------------------------- */

/* Makes parent/arenabench.<pid>.<n> into *out (owned) and opens its
 * cgroup.procs for writing into *fd. */
static bool make_one(const char *parent, unsigned long n, char **out, int *fd) {
    char path[4200];
    if (snprintf(path, sizeof path, "%s/" GROUP_PREFIX "%ld.%lu", parent, (long)getpid(), n) >=
        (int)sizeof path) {
        errno = ENAMETOOLONG;
        return false;
    }
    if (mkdir(path, 0755) != 0 && errno != EEXIST) return false;
    char procs[4300];
    snprintf(procs, sizeof procs, "%s/cgroup.procs", path);
    *fd = open(procs, O_WRONLY | O_CLOEXEC);
    if (*fd < 0) {
        int e = errno;
        rmdir(path);
        errno = e;
        return false;
    }
    *out = ab_strdup(path);
    if (*out == NULL) {
        close(*fd);
        *fd = -1;
        rmdir(path);
        errno = ENOMEM;
        return false;
    }
    return true;
}

static void empty_cg(abe_cgroup *cg) {
    memset(cg, 0, sizeof *cg);
    cg->mem_fd = cg->kill_fd = -1;
}

ab_status abe_cgroup_make(abe_cgroup *cg, int64_t mem_limit, ab_error *err) {
    empty_cg(cg);
    const char *why;
    if (!abe_cgroup_usable(&why)) return ab_fail(err, AB_EINTERNAL, "no job cgroup: %s", why);
    unsigned long n = where.made++;
    if (!make_one(where.mem, n, &cg->mem, &cg->mem_fd))
        return ab_fail(err, AB_EINTERNAL, "cannot make a cgroup in %s: %s", where.mem,
                       strerror(errno));
    cg->version = where.version;
    char limit[32];
    snprintf(limit, sizeof limit, "%lld", (long long)mem_limit);
    bool ok = true;
    const char *what = "";
    if (cg->version == 2) {
        cg->kill = cg->mem;
        put(cg->mem, "memory.swap.max", "0"); /* absent without swap accounting */
        if (mem_limit > 0 && !(ok = put(cg->mem, "memory.max", limit))) what = "memory.max";
        if (ok && !(ok = put(cg->mem, "memory.oom.group", "1"))) what = "memory.oom.group";
    } else if (mem_limit > 0) {
        if (!(ok = put(cg->mem, "memory.limit_in_bytes", limit))) what = "memory.limit_in_bytes";
        put(cg->mem, "memory.memsw.limit_in_bytes", limit); /* absent without swap accounting */
    }
    if (ok && cg->version == 1 && where.kill[0] != '\0' &&
        !(ok = make_one(where.kill, n, &cg->kill, &cg->kill_fd)))
        what = "a cgroup v2 group for cgroup.kill";
    if (!ok) {
        int e = errno;
        ab_fail(err, AB_EINTERNAL, "cannot set %s of the cgroup %s: %s", what, cg->mem,
                strerror(e));
        abe_cgroup_remove(cg);
        return AB_EINTERNAL;
    }
    return AB_OK;
}

bool abe_cgroup_join(abe_cgroup *cg) {
    bool ok = true;
    int fds[2] = {cg->mem_fd, cg->kill_fd};
    for (int i = 0; i < 2; i++) {
        if (fds[i] < 0) continue;
        ssize_t w;
        do w = write(fds[i], "0", 1);
        while (w < 0 && errno == EINTR);
        ok = ok && w == 1;
        close(fds[i]);
    }
    cg->mem_fd = cg->kill_fd = -1;
    member = true;
    return ok;
}

void abe_cgroup_kill(const abe_cgroup *cg) {
    if (cg->version == 0) return;
    if (!(cg->kill != NULL && put(cg->kill, "cgroup.kill", "1"))) kill_listed(cg->mem);
}

int64_t abe_cgroup_peak(const abe_cgroup *cg) {
    char text[64];
    if (cg->version == 0 ||
        !get(cg->mem, cg->version == 2 ? "memory.peak" : "memory.max_usage_in_bytes", text,
             sizeof text) ||
        text[0] < '0' || text[0] > '9')
        return -1;
    return (int64_t)strtoll(text, NULL, 10);
}

int64_t abe_cgroup_oom_kills(const abe_cgroup *cg) {
    char text[1024];
    if (cg->version == 0 ||
        !get(cg->mem, cg->version == 2 ? "memory.events" : "memory.oom_control", text,
             sizeof text))
        return -1;
    return keyed(text, "oom_kill");
}

void abe_cgroup_remove(abe_cgroup *cg) {
    if (cg->mem_fd >= 0) close(cg->mem_fd);
    if (cg->kill_fd >= 0) close(cg->kill_fd);
    if (cg->kill != NULL && cg->kill != cg->mem) {
        end_tree(cg->kill, true);
        ab_free(cg->kill);
    }
    if (cg->mem != NULL) end_tree(cg->mem, cg->version == 2);
    ab_free(cg->mem);
    empty_cg(cg);
}
