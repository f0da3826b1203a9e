-- enrich/email answers as charged to their workspace: a lookup and its
-- credits are written in one transaction, and the lookup row is the
-- record of the charge (credits). Rows are appended by rowid and nothing
-- else is indexed but live idempotency keys: a lookup costs the writer
-- two pages. A key is released (set to NULL) once older than the
-- idempotency window.
CREATE TABLE email_lookups (
    seq             INTEGER PRIMARY KEY,
    id              TEXT NOT NULL,
    workspace_id    TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    idempotency_key TEXT,
    request_hash    TEXT NOT NULL,
    email           TEXT NOT NULL DEFAULT '',
    verified        INTEGER NOT NULL DEFAULT 0,
    confidence      REAL NOT NULL DEFAULT 0,
    credits         INTEGER NOT NULL DEFAULT 0 CHECK (credits >= 0),
    created_at      TEXT NOT NULL
);
CREATE UNIQUE INDEX email_lookups_key ON email_lookups(workspace_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;

-- Company lookup by name ignoring case. SQLite's lower() folds ASCII
-- only; an expression index keeps the upserts unchanged.
CREATE INDEX companies_name_lower ON companies(lower(name));
