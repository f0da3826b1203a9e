-- Privacy (docs/privacy.md, docs/decisions.md "Privacy (issue 23)").

-- The suppression list: keyed hashes of the subjects (HMAC-SHA256 with
-- the deployment's suppression_key setting), never the raw values.
CREATE TABLE suppressions (
    hash       TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    reason     TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
) WITHOUT ROWID;

-- The erasure feed: companies and people deleted by a subject request,
-- in order, so every node's search index drops them as it takes in the
-- rows' other changes by seq. AUTOINCREMENT: a seq is never reused.
CREATE TABLE erasures (
    seq    INTEGER PRIMARY KEY AUTOINCREMENT,
    kind   TEXT NOT NULL,
    row_id INTEGER NOT NULL
);

-- The audit trail; workspace_id '' is the deployment's own. Append-only:
-- no statement updates or deletes a row (the workspace's deletion aside),
-- and the triggers refuse any that tries.
CREATE TABLE audit_events (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    workspace_id TEXT NOT NULL DEFAULT '',
    action       TEXT NOT NULL,
    actor        TEXT NOT NULL DEFAULT '',
    target       TEXT NOT NULL DEFAULT '',
    detail       TEXT NOT NULL DEFAULT '{}',
    created_at   TEXT NOT NULL
);
CREATE INDEX audit_events_workspace ON audit_events(workspace_id, created_at);
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
BEGIN SELECT RAISE(ABORT, 'audit_events is append-only'); END;

-- Retention passes delete by age.
CREATE INDEX email_lookups_created ON email_lookups(created_at);
CREATE INDEX feedback_events_created ON feedback_events(created_at);
CREATE INDEX deliveries_finished ON deliveries(updated_at) WHERE status <> 'pending';
CREATE INDEX job_openings_closed ON job_openings(closed_at) WHERE closed_at IS NOT NULL;
CREATE INDEX leads_person ON leads(person_id);
CREATE INDEX leads_company ON leads(company_id);
CREATE INDEX deliveries_lead ON deliveries(lead_id);
