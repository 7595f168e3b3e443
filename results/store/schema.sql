-- schema.sql — the arenabench results database (DESIGN.md §6).
--
-- This file is the single source of the schema. CMake embeds it, byte for
-- byte, into the library (a generated schema_sql.c) and results/store.c runs
-- it, in one transaction, on a new or empty (version 0) file.
--
-- Versioning: PRAGMA user_version below is the schema version. store.h knows
-- the same number (ABR_SCHEMA_VERSION) and checks that this file sets it.
-- Opening an older file runs the migration steps of store.c, one version at a
-- time, all in one transaction; a newer file is refused. To change the schema:
-- edit the tables here, bump user_version and ABR_SCHEMA_VERSION, and add the
-- step from the previous version to the `migrations` table in store.c.
--
-- Conventions:
--   * times are UTC text 'YYYY-MM-DDTHH:MM:SS.SSSZ' (they sort as text);
--   * sizes, offsets and bounds are bytes (INTEGER); NULL is "unknown" or
--     "does not apply", never zero in disguise;
--   * hashes are SHA-256 in lower-case hex (64 characters);
--   * enumerations are stored as words and checked by CHECK constraints, except
--     the open-ended ones (the kinds of proof and of bound), which reference a
--     table the store fills from the oracle's list each time it opens a file
--     for writing: a new kind is a row in code, not a migration;
--   * ids are local to one file: `merge` maps them, by run_key for runs, by
--     hash for suites and plans.
--
-- The connection runs with foreign_keys=ON, journal_mode=WAL and
-- synchronous=NORMAL (a kill -9 loses no committed result; power loss may
-- lose the last ones, never the file's consistency).

PRAGMA application_id = 1094865491;  -- 'ABRS': marks an arenabench results file
PRAGMA user_version = 7;

-- One invocation of `arenabench run` (or one shard of it).
CREATE TABLE runs (
    id        INTEGER PRIMARY KEY,
    run_key   TEXT NOT NULL UNIQUE,  -- identity of the run across files: every shard
                                     -- of one run carries the same key, and `merge`
                                     -- joins runs with equal keys into one; a random
                                     -- 128-bit hex key when the caller gives none
    tag       TEXT,                  -- e.g. 'nightly'; compare pairs runs of one tag
    revision  TEXT,                  -- git revision of the code that ran
    host      TEXT,                  -- machine name; a merged run lists the distinct
                                     -- hosts of its shards, joined by ','
    command   TEXT,                  -- the command line
    started   TEXT NOT NULL,         -- merged: the earliest shard start
    finished  TEXT,                  -- NULL while running; merged: the latest shard
                                     -- end, NULL while any shard is unfinished
    status    TEXT NOT NULL DEFAULT 'running'
              CHECK (status IN ('running', 'done', 'interrupted', 'failed'))
);
CREATE INDEX runs_by_tag ON runs (tag, started);

-- A suite, identified by the SHA-256 of its canonical text: an edited suite
-- is a new suite (a new row with the same name), the same text is one row.
-- Version 4 added, at the end: capacity, the arena budget a one-arena plan
-- must fit (the suite's capacity:, or its one pool's size when lower), NULL
-- for none; pools, how many pools it declares (0 for none); stored_version,
-- the schema version of the writer that stated them, NULL before 4 or when
-- the writer did not state them (the report then has no capacity for it).
-- Version 5 added view_tensors and view_capacity (the suite's own capacity:
-- key, NULL for none): see suite_tensors at the end. (No comment
-- sits among the last columns: SQLite's DROP
-- COLUMN, which the tests use to forge older files, trips over them.)
CREATE TABLE suites (
    id              INTEGER PRIMARY KEY,
    name            TEXT NOT NULL,
    hash            TEXT NOT NULL UNIQUE CHECK (length(hash) = 64),
    tensors         INTEGER NOT NULL CHECK (tensors >= 0),  -- all tensors, I/O included
    lower_bound     INTEGER,   -- best known lower bound on the arena
    optimum         INTEGER,   -- known optimum (the suite's expect: optimum)
    logical_bytes   INTEGER,   -- from shape and element bits, packed
    physical_bytes  INTEGER,   -- after alignment and padding
    peak_live_bytes INTEGER,   -- the max-load bound over arena tensors
    io_bytes        INTEGER,   -- I/O bytes kept outside the arena (io: separate)
    source          TEXT,      -- the path it was first loaded from
    -- the canonical suite text that was hashed, so reports can redraw plans after
    -- the file moved
    text            TEXT NOT NULL,
    capacity        INTEGER CHECK (capacity IS NULL OR capacity >= 1),
    pools           INTEGER CHECK (pools IS NULL OR pools >= 0),
    stored_version  INTEGER,
    view_tensors    INTEGER CHECK (view_tensors IS NULL OR view_tensors >= 0),
    view_capacity   INTEGER CHECK (view_capacity IS NULL OR view_capacity >= 1)
);
CREATE INDEX suites_by_name ON suites (name, hash);

-- A plan, stored once however many results share it.
-- offsets: for tensor i = 0 .. tensors-1 of the arena view of the suite (the
-- in-arena tensors in file order, ab_problem_arena_view), the offset encoded
-- as zigzag(offset) = (offset << 1) ^ (offset >> 63) in unsigned LEB128:
-- 7 bits a byte, low bits first, high bit set on every byte but the last.
-- hash is the SHA-256 of that blob (so the blob's bytes decide identity).
CREATE TABLE plans (
    hash     TEXT PRIMARY KEY CHECK (length(hash) = 64),
    tensors  INTEGER NOT NULL CHECK (tensors >= 0),
    offsets  BLOB NOT NULL
) WITHOUT ROWID;

-- Version 5: the kinds of proof a row's arena may carry (oracle/certify.h's
-- ABO_PROOFS: 'none', 'lower-bound', 'ilp', 'exhaustive', ...), filled by the
-- store from the oracle's list like bound_kinds below.
CREATE TABLE proof_kinds (
    word  TEXT PRIMARY KEY
) WITHOUT ROWID;

-- One row per (run, suite, planner spec): `run --resume` fills only the
-- missing pairs, and the store refuses a second row for a pair.
CREATE TABLE results (
    id            INTEGER PRIMARY KEY,
    run           INTEGER NOT NULL REFERENCES runs (id),
    suite         INTEGER NOT NULL REFERENCES suites (id),
    spec          TEXT NOT NULL,     -- planner spec as given, e.g. 'first-fit:order=size'
    status        TEXT NOT NULL
                  CHECK (status IN ('ok', 'invalid', 'timeout', 'crash', 'oom',
                                    'over-capacity', 'infeasible', 'error')),
                                 -- over-capacity: a valid plan whose arena exceeds the
                                 -- capacity; infeasible: proven that no plan fits (the
                                 -- certificate, method and bound, in check_message and
                                 -- lower_bound). Version 1 had no over-capacity.
    arena         INTEGER,           -- arena of the plan, when there is one
    lower_bound   INTEGER,           -- the bound the gap is measured against
    k             INTEGER CHECK (k IS NULL OR k >= 1),  -- coarsening, when used
    ilp_status    TEXT,              -- GLPK's outcome ('optimal', 'feasible', ...)
    ilp_objective INTEGER,           -- the ILP's best arena
    ilp_bound     INTEGER,           -- the ILP's proven lower bound (rounded up)
    proven_by     TEXT NOT NULL DEFAULT 'none' REFERENCES proof_kinds (word),
                                 -- version 5: a reference, before it a CHECK list
    proven        INTEGER GENERATED ALWAYS AS (proven_by <> 'none') VIRTUAL,
    wall_s        REAL,              -- wall-clock seconds of the planner's process, fork
                                     -- to reap: the median of its runs (see repeats)
    cpu_s         REAL,              -- CPU seconds (user + system, wait4) of the planner's
                                     -- process and what it started: the median of its runs
    peak_rss      INTEGER,           -- the planner process's own peak resident bytes
                                     -- beyond the harness pages it inherited at fork; the
                                     -- largest of its runs (rows before version 3: the
                                     -- child's ru_maxrss, which counts those pages)
    nodes         INTEGER,           -- search nodes (exact planners)
    signal        INTEGER,           -- the signal that ended a crashed planner
    verdict       TEXT,              -- the checker's verdict word ('ok', 'overlap', ...)
    check_message TEXT,              -- the checker's messages, when not valid
    error         TEXT,              -- what went wrong, for status 'error' and others
    note          TEXT,              -- the planner's one line on how it ended
    plan          TEXT REFERENCES plans (hash),  -- NULL when there is no plan
    recorded      TEXT NOT NULL,     -- when the row was committed
    -- Version 3: timing as a benchmark tool keeps it. A job that ends ok is run
    -- again (a new process each time) up to `run --repeat-min` times while its runs
    -- take less than `--repeat-time` seconds together; wall_s and cpu_s are the
    -- medians. Rows migrated from version 2 have repeats 1 and min = max = median.
    repeats       INTEGER CHECK (repeats IS NULL OR repeats >= 1),
    cpu_min_s     REAL,              -- the fastest and slowest run's CPU seconds
    cpu_max_s     REAL,
    wall_min_s    REAL,              -- the fastest and slowest run's wall seconds
    wall_max_s    REAL,
    plan_cpu_s    REAL,              -- the planner's own CPU seconds inside its process,
                                     -- from before it saw the suite to after it planned
                                     -- (median), apart from the process's start-up
    capped        TEXT CHECK (capped IS NULL OR capped IN ('time', 'memory')),
                                     -- why the row may differ on another machine or
                                     -- under load: 'time' when a time limit (the runner's,
                                     -- or the planner's own safety cap) rather than a
                                     -- deterministic budget stopped it; 'memory' when it
                                     -- ran out of memory; NULL otherwise
    containment   TEXT CHECK (containment IS NULL OR
                              containment IN ('subreaper', 'process-group', 'cgroup')),
                                     -- how the job's processes were held (README,
                                     -- Planner processes): 'cgroup' when the job had a
                                     -- cgroup of its own (its memory counted whole by the
                                     -- kernel, all its processes killed with it; version
                                     -- 7), 'subreaper' when every descendant was killed
                                     -- and reaped wherever it went (Linux), 'process-group'
                                     -- when only its groups were; NULL for rows from
                                     -- before version 6
    UNIQUE (run, suite, spec)
);

-- Version 4: lower bounds as certificates (oracle/bound.h, DESIGN.md §7.3).
-- The kinds of bound: the store fills this table from the oracle's list
-- (ABO_BOUND_KINDS) each time it opens a file for writing, so a new kind is a
-- row there, not a schema migration.
CREATE TABLE bound_kinds (
    word  TEXT PRIMARY KEY        -- 'max-load', 'subset', 'refutation', 'ilp', ...
) WITHOUT ROWID;

-- A bound a run proved on a suite's arena, with the certificate that lets
-- anyone prove it again (check-db does, for the kinds the oracle can redo).
CREATE TABLE bounds (
    id           INTEGER PRIMARY KEY,
    run          INTEGER NOT NULL REFERENCES runs (id),
    suite        INTEGER NOT NULL REFERENCES suites (id),
    kind         TEXT NOT NULL REFERENCES bound_kinds (word),
    source       TEXT NOT NULL DEFAULT '',  -- how it was asked for: '' for the suite's own
                                            -- bounds, the spec of a results row, or the
                                            -- options of an opt-in bound ('nodes=200,...')
    value        INTEGER CHECK (value IS NULL OR value >= 0),  -- bytes; NULL: no arena tensor
    certificate  TEXT NOT NULL,              -- the kind's data, e.g. 'window 12..19 (...)'
    nodes        INTEGER,                    -- work done: windows, search nodes
    capped       INTEGER NOT NULL DEFAULT 0 CHECK (capped IN (0, 1)),
                                             -- a time cap, not a deterministic budget, ended it
    cpu_s        REAL,                       -- CPU seconds spent proving it, when measured
    recorded     TEXT NOT NULL,
    UNIQUE (run, suite, kind, source)
);

-- Version 5: a suite's arena view (ab_problem_arena_view: the tensors a plan
-- places, in order, and the pools), so readers (the report's pictures, pool
-- and peak tables) rebuild it from rows instead of parsing the text again.
-- suites.view_tensors counts the rows of suite_tensors of that suite, NULL when
-- the view was not stored (a suite stored before version 5 and not filled
-- since: `run` fills those of the files it opens for writing).
CREATE TABLE suite_tensors (
    suite   INTEGER NOT NULL REFERENCES suites (id),
    idx     INTEGER NOT NULL CHECK (idx >= 0),  -- the tensor's index in the arena view
    name    TEXT NOT NULL,
    size    INTEGER NOT NULL CHECK (size >= 1),
    first   INTEGER NOT NULL,                   -- live from instruction first
    last    INTEGER NOT NULL,                   -- to last, inclusive
    align   INTEGER NOT NULL CHECK (align >= 1),
    offset  INTEGER,                            -- a fixed offset, NULL when free
    PRIMARY KEY (suite, idx)
) WITHOUT ROWID;

CREATE TABLE suite_pools (
    suite   INTEGER NOT NULL REFERENCES suites (id),
    idx     INTEGER NOT NULL CHECK (idx >= 0),  -- the pool's place in the suite's order
    name    TEXT NOT NULL,
    size    INTEGER CHECK (size IS NULL OR size >= 1),  -- NULL: unbounded (last pool only)
    PRIMARY KEY (suite, idx)
) WITHOUT ROWID;
