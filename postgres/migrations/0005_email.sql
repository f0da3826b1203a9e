-- enrich/email answers as charged to their workspace: a lookup and its
-- credits are written in one transaction, and the lookup row is the
-- record of the charge (credits). A key is released (set to NULL) once
-- older than the idempotency window, so the unique index holds only live
-- keys.
CREATE TABLE email_lookups (
    id              TEXT PRIMARY KEY,
    workspace_id    TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    idempotency_key TEXT,
    request_hash    TEXT NOT NULL,
    email           TEXT NOT NULL DEFAULT '',
    verified        BOOLEAN NOT NULL DEFAULT FALSE,
    confidence      DOUBLE PRECISION NOT NULL DEFAULT 0,
    credits         BIGINT NOT NULL DEFAULT 0 CHECK (credits >= 0),
    created_at      TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX email_lookups_key ON email_lookups(workspace_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;

-- Company lookup by name ignoring case; an expression index keeps the
-- upserts unchanged.
CREATE INDEX companies_name_lower ON companies(lower(name));
