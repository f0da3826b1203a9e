-- The durable job queue (prospector.JobStore). Times are fixed-width UTC
-- text, so they compare as strings. AUTOINCREMENT: a job id is never
-- reused, even after old jobs are deleted, so a stale worker's id can
-- only ever name its own job.
CREATE TABLE jobs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    kind         TEXT NOT NULL,
    dedupe_key   TEXT,
    payload      TEXT NOT NULL DEFAULT '{}',
    state        TEXT NOT NULL DEFAULT 'queued'
                 CHECK (state IN ('queued', 'running', 'done', 'failed')),
    run_at       TEXT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL CHECK (max_attempts >= 1),
    last_error   TEXT NOT NULL DEFAULT '',
    locked_by    TEXT,
    locked_until TEXT,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
-- Claiming reads queued jobs in run_at order and running ones whose
-- lease expired.
CREATE INDEX jobs_claim ON jobs(state, run_at);
-- At most one queued or running job per (kind, dedupe_key): enqueuing a
-- duplicate hits this index and inserts nothing.
CREATE UNIQUE INDEX jobs_active_key ON jobs(kind, dedupe_key)
    WHERE dedupe_key IS NOT NULL AND state IN ('queued', 'running');
