-- Privacy (docs/privacy.md, docs/decisions.md "Privacy (issue 23)").

-- The suppression list: keyed hashes of the subjects (HMAC-SHA256 with
-- the deployment's suppression_key setting), never the raw values.
CREATE TABLE suppressions (
    hash       TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    reason     TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMPTZ NOT NULL
);

-- The erasure feed: companies and people deleted by a subject request,
-- in order, so every node's search index drops them as it takes in the
-- rows' other changes by seq. Writers lock the table and take
-- max(seq)+1, so seqs ascend in commit order (as the upserts' seqs do).
CREATE TABLE erasures (
    seq    BIGINT PRIMARY KEY,
    kind   TEXT NOT NULL,
    row_id BIGINT NOT NULL
);

-- The audit trail; workspace_id '' is the deployment's own. Append-only:
-- no statement updates or deletes a row (the workspace's deletion aside),
-- and the trigger refuses an update.
CREATE TABLE audit_events (
    id           BIGSERIAL PRIMARY KEY,
    workspace_id TEXT NOT NULL DEFAULT '',
    action       TEXT NOT NULL,
    actor        TEXT NOT NULL DEFAULT '',
    target       TEXT NOT NULL DEFAULT '',
    detail       TEXT NOT NULL DEFAULT '{}',
    created_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX audit_events_workspace ON audit_events(workspace_id, created_at);
CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_events is append-only';
END $$;
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
    FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();

-- Retention passes delete by age.
CREATE INDEX email_lookups_created ON email_lookups(created_at);
CREATE INDEX feedback_events_created ON feedback_events(created_at);
CREATE INDEX deliveries_finished ON deliveries(updated_at) WHERE status <> 'pending';
CREATE INDEX job_openings_closed ON job_openings(closed_at) WHERE closed_at IS NOT NULL;
CREATE INDEX leads_person ON leads(person_id);
CREATE INDEX leads_company ON leads(company_id);
CREATE INDEX deliveries_lead ON deliveries(lead_id);
