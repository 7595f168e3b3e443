/*
 * commands.h — subcommands that live in their own files (the command layer:
 * they print and return exit codes). main.c parses the options into these
 * argument structs and dispatches.
 */
#ifndef AB_COMMANDS_H
#define AB_COMMANDS_H

#include <stdbool.h>
#include <stdint.h>

#define ABH_MAX_SPECS 64

/* Generated output lives in out/ (gitignored), never beside the code: the
 * default database, created with its folder on first use by `run`. */
#define ABH_OUT_DIR "out"
#define ABH_DEFAULT_DB ABH_OUT_DIR "/arenabench.db"

/* The arenabench command (cli.c): dispatches argv[1] through the command
 * table. The planners the program runs must be registered before (the
 * engine's: abe_register_planners). Returns the exit code. */
int abc_main(int argc, char **argv);

typedef struct abh_run_args {
    const char *specs[ABH_MAX_SPECS]; /* -p SPEC, in order */
    int nspecs;
    const char *planner_set;  /* --planners default|all, or NULL */
    const char *db;           /* --db, default out/arenabench.db */
    int jobs;                 /* -j, default: CPUs online */
    double time_limit;        /* --time-limit seconds per job */
    int64_t mem_limit;        /* --mem-limit bytes per job */
    int shard_i, shard_n;     /* --shard I/N, 1-based; 1/1 = everything */
    const char *resume;       /* --resume ID|latest, or NULL */
    const char *tag;          /* --tag */
    const char *run_key;      /* --run-key (shards of one run share it) */
    const char *revision;     /* --revision, default: git rev-parse in the cwd */
    const char *command;      /* the command line, for the runs table */
    const char *io;           /* --io separate|workspace|both, or NULL: as each suite says */
    bool ilp;                 /* --ilp: add the spec ilp:time=<ilp_time> */
    double ilp_time;          /* --ilp-time seconds (default 10) */
    int64_t ilp_max_tensors;  /* --ilp-max-tensors: the ILP only on suites this small */
    bool quiet;
    const char **paths;       /* suite files and folders */
    int npaths;
} abh_run_args;

/* `arenabench run`: plan every suite with every spec in isolated children,
 * check each plan, store every row. Returns the exit code. */
int abh_cmd_run(const abh_run_args *a);

/* `arenabench merge OUT IN...`. Returns the exit code. */
int abh_cmd_merge(const char *out, const char *const *in, int nin);

/* `arenabench show-plan`: writes the stored plan of (suite name, spec) in a
 * run (an id or "latest"; NULL = latest) as CSV to out (NULL = stdout) and,
 * when svg is not NULL, its picture. Returns the exit code. */
int abh_cmd_show_plan(const char *db, const char *which, const char *suite, const char *spec,
                      const char *out, const char *svg);

/* `arenabench report`: renders run which (id, "latest" or NULL) of db in
 * format (md, html, csv, json; NULL = md) to out (NULL = stdout). */
int abh_cmd_report(const char *db, const char *which, const char *format, const char *out);

/* `arenabench compare`: head (NULL = latest, among runs tagged tag when tag
 * is set) against base (NULL = the previous run with head's tag). Thresholds
 * <= 0 (ratio) or < 0 (seconds) take the defaults. Exit 1 on a regression. */
int abh_cmd_compare(const char *db, const char *base, const char *head, const char *tag,
                    double slow_ratio, double slow_min);

/* `arenabench export`: suite path in format ("minimalloc" (default) or
 * "yaml") to out (NULL = stdout). Returns the exit code. */
int abh_cmd_export(const char *path, const char *format, const char *out);

/* `arenabench gen`: the suite of generator kind with parameters (n, seed and
 * key=value pairs; NULL / 0 for none), named name (NULL: from the kind), to
 * out (NULL = stdout). Returns the exit code. */
int abh_cmd_gen(const char *kind, const char *n, const char *seed, const char *const *kv, int nkv,
                const char *name, const char *out);

/* `arenabench ilp SUITE [...]` (harness/cli/cmd_ilp.c), argv[0] being "ilp": the
 * GLPK optimum or incumbent, bound and gap. Returns the exit code. */
int abh_cmd_ilp(int argc, char **argv);

/* Resolves which ("latest", NULL or an id) to a run of db (tag: only runs
 * with that tag for latest; NULL for any). Prints and returns 2 when there is
 * none; 0 otherwise. */
struct abr_store;
int abh_resolve_run(struct abr_store *db, const char *path, const char *which, const char *tag,
                    int64_t *run);

/* Parses "512M", "4G", "1048576" (K, M, G, T are powers of 1024) into bytes.
 * false when it is not a positive size. */
bool abh_parse_bytes(const char *s, int64_t *out);

#endif
