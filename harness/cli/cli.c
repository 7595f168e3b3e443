/*
 * cli.c — the arenabench command: the one table of commands (name, usage,
 * summary, help, options, the function that runs it), `arenabench --help`,
 * `help CMD` and the dispatch. A command's options are data here; options.c
 * parses them and prints the help; each command's body lives in the file of
 * its name (plan.c, show_plan.c, ...). This is the only layer that prints.
 * Exit codes (DESIGN.md §5): 0 ok, 1 a check failed, 2 bad usage or input,
 * 3 internal error.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "core/suggest.h"
#include "harness/cli/commands.h"
#include "harness/cli/common.h"
#include "harness/cli/fail.h"
#include "harness/cli/import.h"
#include "planners/planner.h"

static int abc_help(const abc_args *a);

/* ---- the options of each command ----------------------------------------------- */

#define DB_OPTION {"db", 0, "FILE", 0, "the results database (default out/arenabench.db)"}
#define RUN_OPTION {"run", 0, "ID", 0, "a run id or latest (default latest)"}
/* Runtime profiles (harness/formats/profile.h), for import, plan, bound, run. */
#define PROFILE_OPTION                                                                  \
    {"profile", 0, "P", 0, "plain (default: the suite as written); tflm (TensorFlow Lite\n"  \
                           "Micro: I/O in the arena, sizes and offsets rounded to 16, its\n" \
                           "planner tflm-greedy); tvm-usmp (TVM USMP: I/O outside, offsets\n" \
                           "aligned to 16, usmp-greedy-by-size). See README.md"}
#define IO_OPTION                                                                       \
    {"io", 0, "MODE", 0, "separate or workspace: I/O tensors outside or inside the arena,\n" \
                         "whatever the profile and the suite say"}
#define ALIGN_OPTION                                                                    \
    {"align", 0, "N", 0, "align every tensor to at least N bytes (a power of two), instead\n" \
                         "of the profile's; tflm also rounds sizes up to it"}
/* How each job's processes are held (harness/cli/common.h: abc_containment_arg). */
#define CONTAINMENT_OPTION                                                                  \
    {"containment", 0, "MODE", 0, "how a job's processes are held: auto (the default: a\n"    \
                                  "cgroup of its own where the machine allows, else the\n"    \
                                  "subreaper), cgroup (or fail: exit 3), subreaper (never a\n" \
                                  "cgroup); see README, Planner processes"}
#define BYTES_OPTION {"bytes", 0, NULL, 0, "byte counts in bytes, not B/KiB/MiB"}
/* A model's options (harness/cli/common.h: abc_model_args), wherever a model is read. */
#define MODEL_OPTIONS                                                                      \
    {"fold-constants", 0, NULL, 0, "a model: leave out tensors computed from constants alone\n" \
                                   "(a runtime that folds them keeps them with the weights)"},   \
    {"dim", 0, "NAME=VALUE", ABC_MAX_DIMS,                                                 \
     "a model: every dynamic dimension (-1 in shape_signature) of\n"                        \
     "tensor NAME is VALUE; repeat for several tensors (TFLite: no\n"                       \
     "shape inference, each dynamic tensor needs its own value, or\n"                       \
     "--assume-dynamic). ONNX: NAME is a symbolic dimension\n"                              \
     "(dim_param) or a tensor; shapes are inferred from the inputs"},                      \
    {"assume-dynamic", 0, "=N", 0, "a model: every other dynamic dimension is N (without it, a\n" \
                                  "dynamic dimension is an error naming the tensor)"}
#define CAPACITY_OPTION                                                                   \
    {"capacity", 0, "BYTES", 0, "the arena budget, e.g. 256K, instead of the suite's own\n"    \
                                "capacity: (a suite's pools keep their sizes); a plan over it,\n" \
                                "or a budget proven infeasible, exits 1 (a fit-in-N gate)"}

static const abc_option plan_options[] = {
    {"planner", 'p', "SPEC", 0, "the planner spec (default first-fit, or the --profile's own\n"
                                "planner; see 'arenabench planners')"},
    {"input", 0, "SUITE", 0, "the suite, instead of the operand (MiniMalloc's --input; its\n"
                             "--output and --capacity are spelled the same here too)"},
    {"output", 'o', "PLAN", 0, "write the plan file (in --format's format); '-' for stdout\n"
                               "(the summary then goes to stderr)"},
    {"format", 0, "F", 0, "the plan file's format: see Plan file formats below"},
    {"svg", 0, "FILE", 0, "draw the plan: instructions across, offsets up, a rectangle per\n"
                          "tensor, the live-bytes profile and the lower bound as lines,\n"
                          "overlaps in red"},
    {"picture", 0, NULL, 0, "also print the plan as text: a row per instruction, a letter\n"
                            "per tensor across 64 slices of the arena (for a terminal)"},
    {"time-limit", 0, "S", 0, "kill the planner after S seconds (default: no limit)"},
    {"mem-limit", 0, "B", 0, "the planner's memory, e.g. 2G (default: no limit)"},
    CONTAINMENT_OPTION,
    {"tflm-pointer", 0, "BITS", 0, "with --profile tflm and a .tflite: the pointer width of the\n"
                                   "target for the estimate of TFLM's tail, 32 (an MCU, the\n"
                                   "default) or 64 (a host)"},
    MODEL_OPTIONS,
    PROFILE_OPTION,
    IO_OPTION,
    ALIGN_OPTION,
    CAPACITY_OPTION,
    BYTES_OPTION,
    {0}};

static const abc_option bound_options[] = {MODEL_OPTIONS,   PROFILE_OPTION, IO_OPTION, ALIGN_OPTION,
                                           CAPACITY_OPTION, BYTES_OPTION,   {0}};

static const abc_option validate_options[] = {
    {"format", 0, "F", 0, NULL}, MODEL_OPTIONS, PROFILE_OPTION, IO_OPTION, ALIGN_OPTION,
    CAPACITY_OPTION, {0}};

static const abc_option run_options[] = {
    {"planner", 'p', "SPEC", ABC_MAX_SPECS,
     "a planner spec; repeat for several (default: --planners default)"},
    {"planners", 0, "SET", 0, "default (the fast planners users pick between: those\n"
                              "'arenabench planners' says are in it) or all (every planner\n"
                              "with its defaults and each order, but external and minizinc,\n"
                              "which need a command or a program: ask for them with -p)"},
    {"db", 0, "FILE", 0, "the results database (default out/arenabench.db)"},
    {"jobs", 'j', "N", 0, "jobs at once (default: the number of CPUs); the rows do not\n"
                          "depend on N"},
    {"time-limit", 0, "S", 0, "wall-clock seconds per job, then SIGKILL (default 60); with\n"
                             "--cpu-limit, a safety cap only"},
    {"cpu-limit", 0, "S", 0, "CPU seconds (user + system) per job, then SIGXCPU (RLIMIT_CPU):\n"
                            "a limit the machine's load does not move (default: none)"},
    {"mem-limit", 0, "B", 0, "memory per job, e.g. 512M, 4G (default 4G): each process's\n"
                            "address space, and the job's processes together: in its cgroup\n"
                            "(see --containment), else their private bytes, sampled every\n"
                            "0.1 s (a shorter spike can pass unseen)"},
    CONTAINMENT_OPTION,
    {"shard", 0, "I/N", 0, "run only jobs I, I+N, I+2N, ... (1-based) of the sorted job list;\n"
                           "give every shard the same --run-key, then 'arenabench merge'"},
    {"run-key", 0, "K", 0, "the run's identity across shards (default: a random key)"},
    {"resume", 0, "ID|latest", 0, "add the missing (suite, spec) rows to an earlier run"},
    {"tag", 0, "T", 0, "a tag for the run (compare looks for the previous run with it)"},
    {"revision", 0, "R", 0, "the revision stored with the run (default: git rev-parse HEAD)"},
    {"ilp", 0, NULL, 0, "also solve each suite's ILP with GLPK (the spec ilp:time=S),\n"
                        "storing its objective, bound, gap and status; proofs of\n"
                        "optimality that disagree (ILP, exact search, lower bound)\n"
                        "fail the run"},
    {"ilp-time", 0, "S", 0, "seconds for each ILP (default 10); with --ilp-nodes, a safety cap"},
    {"ilp-nodes", 0, "N", 0, "each ILP stops after N branch-and-bound nodes (ilp:nodes=N), so\n"
                             "its row does not depend on the machine's load (default: none)"},
    {"repeat-min", 0, "N", 0, "run a job that ends ok up to N times (default 3), a new\n"
                              "process each time; the row keeps the median, min and max times"},
    {"repeat-time", 0, "S", 0, "... while its runs took less than S seconds together (default\n"
                               "0.5): a planner slower than S runs once"},
    {"repeat-below", 0, "S", 0, "... and only when its first run took less than S seconds\n"
                                "(default 0.05; 0: always): an interpreter's start-up is\n"
                                "not paid three times"},
    {"rerun-wall-capped", 0, NULL, 0, "run a job that --time-limit stopped after less than 90%\n"
                                      "of it in CPU time (the machine's load took the time)\n"
                                      "again, alone, once the others are done; its row is the\n"
                                      "second run's, and its note says so (the nightly's way)"},
    {"ilp-max-tensors", 0, "N", 0, "only on suites of at most N arena tensors (default 300)"},
    {"subset-bound", 0, "OPTS", 0, "also prove each suite's subset bound (windows around its\n"
                                   "peaks solved by GLPK; a bound, not a planner): OPTS as\n"
                                   "time=S,nodes=N,... (below), or 'default'"},
    {"io", 0, "MODE", 0, "separate or workspace: plan every suite's inputs and outputs\n"
                         "outside or inside the arena, whatever the suite says; both: run\n"
                         "each suite both ways (named X@io=separate, X@io=workspace) and\n"
                         "the report shows the footprints side by side with the saving"},
    {"quiet", 'q', NULL, 0, "no progress (by default a live line on a terminal, else one\n"
                            "line per finished job, on stderr)"},
    MODEL_OPTIONS,
    PROFILE_OPTION,
    ALIGN_OPTION,
    CAPACITY_OPTION,
    {0}};

static const abc_option report_options[] = {
    DB_OPTION,
    RUN_OPTION,
    {"tag", 0, "T", 0, "the latest run tagged T (instead of --run)"},
    {"format", 0, "F", 0, "the report's format: see Formats below"},
    {"output", 'o', "F", 0, "write there (default stdout)"},
    {0}};

static const abc_option compare_options[] = {
    DB_OPTION,
    {"head", 0, "ID", 0,
     "the run to judge (default: the latest, with --tag the latest so tagged)"},
    {"base", 0, "ID", 0, "the run to judge it against (default: the previous run with the\n"
                         "head's tag; when there is none, nothing to compare: exit 0)"},
    {"run", 0, "ID", 0, "one run as both base and head: A/B pairs within it (with --pair)"},
    {"tag", 0, "T", 0, "pick the head among runs tagged T"},
    {"pair", 0, "A=B", ABC_MAX_SPECS,
     "match base rows of spec A with head rows of spec B (repeatable);\n"
     "one '*' a side stands for any text: '*=*:round=64'"},
    {"base-spec", 0, "A", 0, "with --head-spec: one pair, for specs that --pair cannot split"},
    {"head-spec", 0, "B", 0, "the head side of --base-spec"},
    {"slow-ratio", 0, "R", 0, "slower when head's least CPU time >= R x base's greatest\n"
                              "(default 1.5)"},
    {"slow-min", 0, "S", 0, "and at least S seconds more (default 0.05)"},
    {"fast-ratio", 0, "R", 0, "faster, the same the other way (default 1.5)"},
    {"fast-min", 0, "S", 0, "(default 0.05)"},
    {"fail-on-time", 0, NULL, 0, "a slowdown is a regression (exit 1), not a warning"},
    {"format", 0, "F", 0, "text (default) or json (one object: pairs, rows, changes, verdict)"},
    {0}};

static const abc_option check_db_options[] = {DB_OPTION, {0}};

static const abc_option show_plan_options[] = {
    DB_OPTION,
    RUN_OPTION,
    {"output", 'o', "F", 0, "write the CSV there (default stdout)"},
    {"svg", 0, "FILE", 0, "also draw the plan"},
    {0}};

static const abc_option ilp_options[] = {
    {"time", 0, "S", 0, "time limit in seconds (default 60)"},
    {"gap", 0, "G", 0, "stop at this relative gap (arena - bound) / arena, a fraction\n"
                       "(0.01) or a percentage (1%); default 0: prove optimality"},
    {"write-lp", 0, "FILE", 0, "write the model in CPLEX LP format first (offsets are\n"
                               "x_i = unit * align_i * y_i bytes; the unit is printed)"},
    {"output", 'o', "PLAN", 0, "write the plan as CSV"},
    {"no-ps", 0, NULL, 0, "without GLPK's proximity search heuristic (on by default:\n"
                          "it finds better plans, and spends up to 3/4 of the time)"},
    {"cuts", 0, NULL, 0, "GLPK's cut generators (off by default: they can fail GLPK's\n"
                         "assertions on these models)"},
    {0}};

static const abc_option import_options[] = {
    {"output", 'o', "FILE", 0, "write the suite there (default stdout)"},
    {"name", 0, "NAME", 0, "the suite's name (default: the file's base name)"},
    MODEL_OPTIONS,
    PROFILE_OPTION,
    IO_OPTION,
    ALIGN_OPTION,
    CAPACITY_OPTION,
    BYTES_OPTION,
    {0}};

static const abc_option export_options[] = {
    {"format", 0, "F", 0, NULL},
    {"output", 'o', "FILE", 0, NULL},
    {"plan", 0, "PLAN", 0, "a plan file of SUITE (as `plan -o` writes): export it"},
    {"model", 0, "M.tflite", 0, "tflm-offline: the model to copy (default: SUITE, when a .tflite)"},
    {"force", 0, NULL, 0, "tflm-offline: write even when TFLite Micro's 16-byte rounding breaks it"},
    MODEL_OPTIONS,
    PROFILE_OPTION,
    IO_OPTION,
    ALIGN_OPTION,
    CAPACITY_OPTION,
    {0}};

static const abc_option gen_options[] = {
    {"kind", 0, "K", 0, NULL},
    {"n", 0, "N", 0, NULL},
    {"seed", 0, "S", 0, NULL},
    {"param", 'P', "key=value", 64, NULL},
    {"name", 0, "NAME", 0, NULL},
    {"output", 'o', "FILE", 0, NULL},
    {0}};

/* ---- the table -------------------------------------------------------------------- */

static const abc_command commands[] = {
    {.name = "planners",
     .usage = "planners",
     .summary = "List the planners, whether each is exact, and their parameters.",
     .help = "\nA planner spec is name[:key=value[,key=value...]], e.g. first-fit:order=size.\n"
             "A value may be quoted with '...' to hold commas. [exact] marks planners that return\n"
             "an optimum when they finish.\n"
             "\nExit status: 0 ok; 2 bad usage.\n",
     .max_operands = 0,
     .run = abc_planners},
    {.name = "plan",
     .usage = "plan [-p SPEC] SUITE [-o PLAN] [--svg FILE] [--time-limit S] [--mem-limit B]\n"
              "                  [--containment auto|cgroup|subreaper]\n"
              "                  [--profile plain|tflm|tvm-usmp] [--io MODE] [--align N]\n"
              "                  [--capacity BYTES] [--picture] [--bytes]",
     .summary = "Plan one suite, check the plan, print the arena, the lower bound and the gap.",
     .help = "",
     .options = plan_options,
     .column = 23,
     .more = "\nThe plan covers the tensors that live in the arena: intermediates, and inputs and\n"
             "outputs too when the suite says io: workspace. Every plan is checked by the oracle,\n"
             "independently of the planner. The planner runs in a child process: if it crashes,\n"
             "hangs past the time limit or runs out of memory, that is reported (exit 1).\n"
             "\nA valid plan whose arena exceeds the capacity (the suite's, or --capacity) is not\n"
             "an invalid plan: plan says by how much, and whether anything proved that no plan\n"
             "fits (infeasible: the max-load bound, or the planner's exact method, above the\n"
             "capacity) or not (over-capacity), and exits 1: the capacity is a gate. With pools,\n"
             "one line per pool: the bytes used of its size and the tensors at its top.\n"
             "\nThen what makes up the peak: the tensors live at the max-load instruction (size,\n"
             "share of the peak, offset), the tensors that set the arena's top, and the bytes the\n"
             "plan leaves unused there (arena minus peak live). With --profile the suite is first\n"
             "taken as that runtime plans it, and its planner is the default for -p.\n"
             "\nExit status: 0 valid plan within the capacity; 1 the plan is invalid, over the\n"
             "capacity or a pool, below the suite's known optimum, or the planner failed; 2 bad\n"
             "usage or input; 3 internal error.\n"
             "\nExample:\n"
             "  arenabench plan -p best-fit:order=size suites/examples/first_fit_hole.yaml -o plan.csv\n",
     .extra = abc_print_plan_file_formats,
     .max_operands = 1,
     .run = abc_plan},
    {.name = "validate",
     .usage = "validate SUITE PLAN [--format F]",
     .summary = "Check a plan file against a suite with the independent overlap checker.",
     .help = "\nChecks, in order: every entry names a tensor, none is placed twice, none is missing,\n"
             "offsets are aligned, fixed offsets honoured, no 64-bit overflow, no two tensors live\n"
             "at the same instruction share a byte (live ranges are inclusive), the arena fits the\n"
             "suite's capacity. An overlap names both tensors, the instruction and the byte ranges.\n"
             "\nExit status: 0 valid; 1 invalid; 2 bad usage or input (malformed files, a plan column\n"
             "that disagrees with the suite); 3 internal error.\n",
     .options = validate_options,
     .extra = abc_print_plan_file_formats,
     .max_operands = 2,
     .run = abc_validate},
    {.name = "bound",
     .usage = "bound SUITE [--profile plain|tflm|tvm-usmp] [--io MODE] [--align N]\n"
              "                  [--capacity BYTES] [--bytes]",
     .summary = "Print the max-load lower bound, where it occurs, and the suite's memory figures.",
     .help = "\nFigures: max-load (peak live bytes at one instruction, a lower bound for every plan),\n"
             "largest tensor, logical bytes (shape x element bits, sub-byte types packed), physical\n"
             "bytes (sizes rounded up to their alignment) and, with io: separate, the I/O bytes kept\n"
             "outside the arena. Then the tensors live at the max-load instruction, largest first,\n"
             "with their share of the peak.\n",
     .options = bound_options,
     .column = 20,
     .more = "\nWith a profile, the suite is taken as that runtime would plan it (I/O, alignment,\n"
             "sizes) first; a suite's expect: then no longer applies and is dropped.\n"
             "\nExit status: 0 ok; 1 the suite's expect.lower_bound disagrees, or max-load proves the\n"
             "capacity (the suite's or --capacity) cannot be met; 2 bad input.\n",
     .max_operands = 1,
     .run = abc_bound},
    {.name = "run",
     .usage = "run [-p SPEC]... [--planners default|all] [--db F] [-j N] [--time-limit S]\n"
              "                  [--mem-limit B] [--shard I/N] [--resume ID|latest] [--tag T]\n"
              "                  [--io separate|workspace|both] [--profile P] [--align N]\n"
              "                  [--capacity BYTES] [--containment MODE] SUITE|DIR...",
     .summary = "Run every planner spec over every suite, isolated, in parallel, into SQLite.",
     .help = "\nEach (suite, spec) job runs in its own child process under a wall-clock and a memory\n"
             "limit; the parent checks every plan with the oracle and commits its row as the job\n"
             "ends. A planner that crashes, hangs, runs out of memory or returns an invalid plan is\n"
             "recorded (crash with its signal, timeout, oom, invalid with the checker's message)\n"
             "and the run goes on. Folders are searched recursively for suite files (*.yaml, *.yml,\n"
             "*.csv, *.tflite, *.onnx). A file found in a folder that does not load (malformed, a negative\n"
             "size, an overflow...) is recorded as an error row (planner (load), the message naming\n"
             "file, line and column) and the run goes on with the other files; a file named on the\n"
             "command line that does not load stops the run before anything is written (exit 2).\n"
             "\nTiming: each row keeps the CPU time (user + system, from wait4) of the planner's\n"
             "process and what it started, its wall time, its own peak resident memory (beyond\n"
             "the harness pages it inherits at fork) and the planner's own CPU time inside it.\n"
             "A fast job is repeated (--repeat-min, --repeat-time) and must give the same plan\n"
             "each time; the row keeps the median, min and max. A row stopped by a time limit or\n"
             "a planner's time cap, rather than its deterministic budget, is marked capped.\n",
     .options = run_options,
     .column = 26,
     .more = "\nExit status: 0 every job ran and no plan was invalid; 1 an invalid plan, a crash or\n"
             "error of a planner, a suite with a capacity (its own or --capacity) or bounded\n"
             "pools that no planner's plan fits (the gate; not judged per shard), a file in a\n"
             "folder that did not load (each is listed at the end:\n"
             "file:line:column: message), an arena below a suite's known optimum, proofs that\n"
             "disagree (a suite proved infeasible that another planner packs within its capacity),\n"
             "or an interrupted run (timeouts, oom, over-capacity and infeasible are recorded\n"
             "outcomes: over-capacity a valid plan over the capacity, infeasible proven that no plan\n"
             "fits); 2 bad usage or input, a suite file named on the command line included (nothing\n"
             "is written); 3 internal error.\n"
             "\nExample:\n"
             "  arenabench run --tag nightly suites/ && arenabench report -o out/report.md\n",
     .extra = abc_run_print_bounds,
     .max_operands = -1,
     .run = abc_run},
    {.name = "report",
     .usage = "report [--db F] [--run ID|latest | --tag T] [--format F] [-o F]",
     .summary = "Render a run's results: per-planner summary, per-suite table, certificates, "
                "failures.",
     .help = "\nContents: a per-planner summary (suites, valid, invalid, timeouts, crashes, geometric\n"
             "mean of arena / best lower bound, proven optima, wins), a per-suite table (planners as\n"
             "columns, arena and gap to the best known bound), the optimality certificates (which\n"
             "planner proved what: lower bound, ILP or exhaustive search) and every failure with its\n"
             "message, and per real model or trace (an imported model file, a network's layers,\n"
             "a MiniMalloc CSV trace) its best greedy plan against its best plan. html is one\n"
             "self-contained file with inline SVG charts (gap per planner per suite, arena versus\n"
             "coarsening k), those two plans of each real suite side by side with the tensors that\n"
             "set each arena named, and pictures of the plans with the worst gaps.\n",
     .options = report_options,
     .column = 20,
     .more = "\nExit status: 0 ok; 2 bad usage, no such run or database; 3 internal error.\n",
     .extra = abc_print_report_formats,
     .max_operands = 0,
     .run = abc_report},
    {.name = "compare",
     .usage = "compare [--db F] [--base ID] [--head ID | --run ID] [--tag T] [--pair A=B]...\n"
              "        [--slow-ratio R] [--slow-min S] [--fail-on-time] [--format text|json]",
     .summary = "Compare two runs (or specs); exit 1 when the head regressed.",
     .help = "\nRows are matched by suite content and planner spec, or with --pair by spec A in\n"
             "base and spec B in head (the same run with --run). A regression is an arena that\n"
             "grew, a result that went from ok to invalid/timeout/crash/oom/error, a lost\n"
             "optimality proof, or an infeasibility proof contradicted by a plan. Time is judged\n"
             "on CPU time against the spread of both sides (head's least beyond base's greatest\n"
             "by the ratio and the minimum): a warning unless --fail-on-time. A row stopped on\n"
             "its safety cap (capped: time) is not judged on arena or proof: listed apart.\n"
             "Improvements, new and gone pairs are listed too; when specs changed between the\n"
             "runs, a notice says so and suggests --pair. Then, per spec pair, the geometric\n"
             "mean of head/base arena and CPU time (with --pair, per suite too).\n",
     .options = compare_options,
     .column = 23,
     .more = "\nExamples:\n"
             "  arenabench compare --tag nightly\n"
             "  arenabench compare --pair 'tflm-greedy=tflm-greedy:round=64'\n"
             "  arenabench compare --run latest --pair 'first-fit=best-fit' --format json\n"
             "\nExit status: 0 no regression (timing warnings included); 1 a regression; 2 bad\n"
             "usage or no such run; 3 internal error.\n",
     .max_operands = 0,
     .run = abc_compare},
    {.name = "ilp",
     .usage = "ilp SUITE [--time S] [--gap G] [--write-lp FILE] [-o PLAN] [--no-ps] [--cuts]",
     .summary = "Solve a suite's integer program with GLPK: the optimum, or an incumbent, a bound "
                "and the gap.",
     .help = "\nSolves the suite's arena-minimisation integer program with GLPK: the optimum,\n"
             "or, when the time runs out, the best plan found with a proven lower bound and\n"
             "the gap. The plan is checked by the oracle like any other. Tensors with a\n"
             "fixed offset stay there; a suite capacity bounds the arena (status infeasible\n"
             "when nothing fits).\n",
     .options = ilp_options,
     .column = 23,
     .more = "\nStatus: optimal | feasible (a limit ended the search; gap > 0) |\n"
             "        timeout-no-solution (GLPK found no plan in time: heuristic plan and\n"
             "        bound) | infeasible (no plan fits the capacity, or fixed offsets clash)\n"
             "\nExit status: 0 optimal or feasible; 1 timeout-no-solution, infeasible, or an\n"
             "optimum that disagrees with the suite's expect.optimum; 2 bad usage or input;\n"
             "3 internal error (GLPK failed, or its plan failed the check).\n",
     .max_operands = 1,
     .run = abc_ilp},
    {.name = "import",
     .usage = "import FILE [-o SUITE.yaml] [--name NAME] [--fold-constants] [--dim NAME=VALUE]...\n"
              "                         [--assume-dynamic=N] [--profile plain|tflm|tvm-usmp]\n"
              "                         [--io MODE] [--align N] [--bytes]",
     .summary = "Turn a model or a problem file into a suite (YAML, on stdout without -o).",
     .help = "\nFormats, recognised by content, then by file name extension (the one formats table,\n"
             "which every command reads):\n"
             "  TFLite model (.tflite)  subgraph 0 of a TensorFlow Lite flatbuffer. Planned: every\n"
             "      tensor that is not constant (no data in its buffer) and that an operator reads or\n"
             "      writes, or that is a graph input or output. Live range [start, end] in operator\n"
             "      indices, inclusive: from the operator that writes the tensor to the last one that\n"
             "      reads it; graph inputs live from operator 0 (kind input), graph outputs to the last\n"
             "      operator (kind output). A tensor written but never read keeps end = start. Sizes\n"
             "      from shape x element bits (int4 packed), each tensor keeping its shape and dtype.\n"
             "      Tensors computed from constants alone (e.g. DEQUANTIZE of float16 weights) are\n"
             "      kept unless --fold-constants. Names that repeat get '#<index>' appended.\n"
             "  ONNX model (.onnx)      the main graph of an ONNX ModelProto, read by arenabench's own\n"
             "      bounds-checked protobuf reader (weights and external data are never read).\n"
             "      Execution order is node order (refused when not topological); If, Loop and Scan\n"
             "      (subgraphs) are refused. Initializers and Constant nodes are constants, never\n"
             "      planned; live ranges, kinds and sizes as for TFLite, in node indices. Shapes: graph\n"
             "      inputs as declared; node outputs inferred from ONNX's operator specification for\n"
             "      the common operators (elementwise with broadcasting, Conv, ConvTranspose, pools,\n"
             "      Gemm, MatMul, normalizations, Reshape, Flatten, Transpose, Concat, Squeeze,\n"
             "      Unsqueeze, Gather, Slice, Pad, Resize, Split, Shape, reductions, LSTM, ...: the\n"
             "      README lists them) and checked against value_info; another operator takes its\n"
             "      declared shape, or is refused with a hint to run ONNX's shape inference\n"
             "      (python3-onnx) first. Symbolic dimensions (dim_param) take --dim PARAM=N or\n"
             "      --assume-dynamic=N.\n"
             "  MiniMalloc CSV (.csv)   id,lower,upper,size[,alignment][,offset]. MiniMalloc's live\n"
             "      intervals are half-open [lower, upper), so end = upper - 1. A file named like\n"
             "      A.1048576.csv gives suite A with capacity 1048576. An offset column is a\n"
             "      solution, not a constraint: it is not imported (check it with 'arenabench\n"
             "      validate SUITE FILE --format minimalloc').\n"
             "  suite YAML (.yaml, .yml) read and written again, normalised.\n"
             "A profile writes the suite as that runtime plans it: --profile tflm gives io:\n"
             "workspace, alignment: 16 and sizes rounded up to 16 (shapes kept).\n",
     .options = import_options,
     .column = 26,
     .more = "\nA truncated or corrupt file is an error giving the byte offset where it went wrong.\n"
             "\nExit status: 0 ok; 2 bad usage or input (unknown format, malformed file, dynamic\n"
             "dimension without a value); 3 internal error.\n"
             "\nExample:\n"
             "  arenabench import model.tflite --fold-constants -o suites/models/model.yaml\n"
             "  arenabench import model.onnx --dim batch_size=1 -o suites/models/model.yaml\n",
     .max_operands = 1,
     .run = abc_import},
    {.name = "export",
     .usage = "export SUITE [--format F] [-o FILE]\n"
              "       export SUITE --plan PLAN --format F [--model M.tflite] [-o FILE]",
     .summary = "Write a suite, or a plan of it, in another format (MiniMalloc CSV by default).",
     .help = "\nA suite: in a suite format that writes (listed below). MiniMalloc's intervals are\n"
             "half-open, so upper = end + 1 (arenabench's ranges are inclusive); alignment is\n"
             "written when a tensor has align > 1, offset for fixed offsets. yaml is the suite in\n"
             "canonical form (what its content hash is taken over).\n"
             "\nA plan (--plan PLAN, a plan file recognised by its header), checked by the oracle\n"
             "first (an invalid plan: exit 1, nothing written), in a plan format (listed below).\n"
             "The C header holds one arena (a suite with pools: use json); its offsets are\n"
             "PREFIX_OFFSET_<TENSOR>, each with its size and live range in a comment and a static\n"
             "assertion that offset + size lies inside the arena. The TFLite Micro copy (-o\n"
             "required; the original is never modified) carries int32 version 1, subgraph 0, the\n"
             "number of tensors and one arena offset per tensor (-1: planned online), tensors\n"
             "matched by name; it is refused (exit 1) when the plan overlaps once TFLite Micro\n"
             "rounds each tensor to 16 bytes, unless --force.\n"
             "\nExit status: 0 ok; 1 the plan is invalid; 2 bad usage or input.\n"
             "\nExample:\n"
             "  arenabench plan -p best-fit fd.yaml -o fd.csv\n"
             "  arenabench export fd.yaml --plan fd.csv --format c-header -o fd_plan.h\n"
             "  arenabench export fd.yaml --plan fd.csv --format tflm-offline --model fd.tflite "
             "-o fd_planned.tflite\n",
     .options = export_options,
     .column = 26,
     .extra = abc_print_export_formats,
     .max_operands = 1,
     .run = abc_export},
    {.name = "gen",
     .usage = "gen --kind K [--n N] [--seed S] [-P key=value]... [--name NAME] [-o FILE]",
     .summary = "Generate a synthetic or architecture-derived suite (YAML), deterministically.",
     .help = "\nThe same kind and parameters always give the same suite. Live ranges are in operator\n"
             "indices, inclusive: from the operator that writes a tensor to the last that reads it.\n"
             "A suite file may hold a generator instead of tensors: generate: {kind: resnet, blocks: 8}.\n"
             "\nExit status: 0 ok; 2 bad usage, unknown kind or parameter.\n"
             "\nExample:\n"
             "  arenabench gen --kind random --n 100000 --seed 7 -o big.yaml\n",
     .options = gen_options,
     .extra = abc_gen_print_kinds,
     .max_operands = 0,
     .run = abc_gen},
    {.name = "merge",
     .usage = "merge OUT.db IN.db...",
     .summary = "Merge shard databases into one (rows of shards with the same run key join one "
                "run).",
     .help = "\nExample: three machines each ran\n"
             "  arenabench run --shard I/3 --run-key nightly-2026-11-29 --db shard-I.db suites/\n"
             "then: arenabench merge out/arenabench.db shard-1.db shard-2.db shard-3.db\n"
             "\nExit status: 0 ok; 2 bad usage or a database that cannot be read or joined.\n",
     .max_operands = -1,
     .run = abc_merge},
    {.name = "show-plan",
     .usage = "show-plan [--db F] [--run ID|latest] SUITE SPEC [-o PLAN] [--svg FILE]",
     .summary = "Export a plan stored by 'run' again, as CSV (and as a picture).",
     .help = "\nSUITE is the suite's name (its 'suite:' field), SPEC the planner spec as run.\n",
     .options = show_plan_options,
     .column = 20,
     .more = "\nExit status: 0 ok; 1 the row has no plan (its planner failed); 2 no such run or row.\n",
     .max_operands = 2,
     .run = abc_show_plan},
    {.name = "check-db",
     .usage = "check-db [--db F]",
     .summary = "Check a results database: SQLite's integrity, the store's invariants, and "
                "every stored plan again.",
     .help = "\nWhat it checks, each problem one line on stdout:\n"
             "  - SQLite's PRAGMA integrity_check (a damaged page, a broken index) and\n"
             "    foreign_key_check (a row naming a run, suite or plan that is not there);\n"
             "  - the file is arenabench's, at a schema version this arenabench knows;\n"
             "  - one results row per (run, suite, spec), as --resume and merge rely on;\n"
             "  - each suite's hash is the SHA-256 of its stored text, each plan's key the\n"
             "    SHA-256 of its offsets, and every row's plan is stored;\n"
             "  - every stored plan is checked again by the oracle against the suite its\n"
             "    row names (the stored text loaded again, its arena view as 'run' planned\n"
             "    it): the verdict ('ok', 'overlap', ...) and the arena must be the row's.\n"
             "It only reads: nothing is repaired or migrated. Run it after copying a database\n"
             "from elsewhere, after a crash or a full disk, or before trusting old results.\n"
             "\nExit status: 0 no problem; 1 problems found (listed); 2 the file is missing or\n"
             "is not an arenabench database.\n"
             "\nExample:\n"
             "  arenabench check-db --db out/arenabench.db\n",
     .options = check_db_options,
     .max_operands = 0,
     .run = abc_check_db},
    {.name = "help",
     .usage = "help [COMMAND]",
     .summary = "Show help for arenabench or one command.",
     .help = "\nWithout COMMAND, the list of commands; with it, the same as\n"
             "'arenabench COMMAND --help'.\n"
             "\nExit status: 0 ok; 2 unknown command.\n",
     .max_operands = 1,
     .run = abc_help},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void print_main_help(FILE *to) {
    fprintf(to,
            "arenabench — verify and benchmark static memory planners for ML inference\n\n"
            "usage: arenabench COMMAND [OPTIONS] [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(to, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(to,
            "\nA suite is a YAML file of tensors with inclusive live ranges [start, end]\n"
            "(see suites/examples/). 'arenabench COMMAND --help' tells more.\n"
            "Exit status: 0 ok, 1 a check failed, 2 bad usage or input, 3 internal error.\n");
}

static const abc_command *find_command(const char *name) {
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

/* "unknown command 'X'", with the closest command's name when one is near
 * (core/suggest.h's rule). */
static int unknown_command(const char *name) {
    ab_suggest s;
    ab_suggest_init(&s, name);
    for (size_t i = 0; i < NCOMMANDS; i++) ab_suggest_offer(&s, commands[i].name);
    if (s.best != NULL)
        return abc_failf(ABC_EXIT_USAGE, "unknown command '%s': did you mean '%s'? (see "
                         "'arenabench --help')", name, s.best);
    return abc_failf(ABC_EXIT_USAGE, "unknown command '%s' (see 'arenabench --help')", name);
}

/* `arenabench help [COMMAND]`. */
static int abc_help(const abc_args *a) {
    if (a->noperands == 0) {
        print_main_help(stdout);
        return 0;
    }
    const abc_command *c = find_command(a->operands[0]);
    if (c == NULL) return unknown_command(a->operands[0]);
    abc_print_help(c, stdout);
    return 0;
}

int abc_command_main(int argc, char **argv) {
    const abc_command *c = argc > 0 ? find_command(argv[0]) : NULL;
    if (c == NULL) return unknown_command(argc > 0 ? argv[0] : "");
    abc_args a;
    int rc = abc_parse(c, argc, argv, &a);
    if (rc == 0) rc = c->run(&a);
    else if (rc == 1) rc = 0; /* the help was asked for, and printed */
    abc_args_free(&a);
    return rc;
}

int abc_main(int argc, char **argv) {
    /* Past a file-size limit (ulimit -f) a write fails with EFBIG and is
     * reported with its path (exit 2), instead of SIGXFSZ killing us silently. */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2) {
        print_main_help(stderr);
        return ABC_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_main_help(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("arenabench 0.1.0\n");
        return 0;
    }
    return abc_command_main(argc - 1, argv + 1);
}
