-- Feedback events and what they add up to (docs/decisions.md, "Feedback").
-- Events are appended and never changed, so insights can always be
-- recomputed from them. A key is released (set to NULL) once older than
-- the idempotency window, so the unique index holds only live keys;
-- result is the first answer, kept for replays of events with a key.
CREATE TABLE feedback_events (
    id              TEXT PRIMARY KEY,
    workspace_id    TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    lead_id         TEXT NOT NULL,
    event_type      TEXT NOT NULL,
    source          TEXT NOT NULL,
    content         TEXT NOT NULL DEFAULT '',
    meeting_url     TEXT NOT NULL DEFAULT '',
    occurred_at     TIMESTAMPTZ NOT NULL,
    metadata        JSONB NOT NULL DEFAULT '{}',
    email           TEXT NOT NULL DEFAULT '',
    mutated_lead    BOOLEAN NOT NULL DEFAULT FALSE,
    idempotency_key TEXT,
    request_hash    TEXT NOT NULL DEFAULT '',
    result          JSONB,
    seq             BIGINT GENERATED ALWAYS AS IDENTITY,
    created_at      TIMESTAMPTZ NOT NULL
);
-- A workspace's events by time (to recompute a window) and a lead's history.
CREATE INDEX feedback_events_window ON feedback_events(workspace_id, occurred_at);
CREATE INDEX feedback_events_lead ON feedback_events(lead_id, seq);
CREATE UNIQUE INDEX feedback_events_key ON feedback_events(workspace_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;

-- One row per lead with feedback, updated in each event's transaction
-- (under the lead's row lock): the ordering rule reads applied_at, and
-- insights read these rows (one per lead) instead of the events. title,
-- company and signal_mask are the lead's at its latest event; status
-- mirrors leads.status as the latest event left it.
CREATE TABLE lead_feedback (
    lead_id          TEXT PRIMARY KEY REFERENCES leads(id) ON DELETE CASCADE,
    workspace_id     TEXT NOT NULL,
    title            TEXT NOT NULL DEFAULT '',
    company          TEXT NOT NULL DEFAULT '',
    signal_mask      BIGINT NOT NULL DEFAULT 0,
    status           TEXT NOT NULL DEFAULT '',
    email            TEXT NOT NULL DEFAULT '',
    email_domain     TEXT NOT NULL DEFAULT '',
    email_status     TEXT NOT NULL DEFAULT '',
    email_at         TIMESTAMPTZ,
    events           BIGINT NOT NULL DEFAULT 0,
    first_event_at   TIMESTAMPTZ NOT NULL,
    last_event_at    TIMESTAMPTZ NOT NULL,
    applied_at       TIMESTAMPTZ,
    last_reply_at    TIMESTAMPTZ,
    last_positive_at TIMESTAMPTZ,
    last_meeting_at  TIMESTAMPTZ,
    last_bounce_at   TIMESTAMPTZ,
    updated_at       TIMESTAMPTZ NOT NULL
) WITH (fillfactor = 80);
-- Every event updates its lead's row. Indexing only columns that rarely
-- change (workspace_id; last_bounce_at changes on bounces only) keeps
-- those updates HOT, in place with no index writes, and the table free
-- of dead index entries; the insights read a workspace's rows whatever
-- the window, as on SQLite.
CREATE INDEX lead_feedback_workspace ON lead_feedback(workspace_id);
CREATE INDEX lead_feedback_bounces ON lead_feedback(workspace_id, last_bounce_at, email_domain)
    WHERE last_bounce_at IS NOT NULL;

-- What outreach taught about addresses, across workspaces: a bounce or a
-- reply is a fact about the mailbox. The email finder skips addresses
-- whose newest outcome is a bounce and weighs a domain's patterns by the
-- distinct addresses following them that bounced or replied (pattern ''
-- counts every address of the domain).
CREATE TABLE email_address_outcomes (
    address      TEXT PRIMARY KEY,
    domain       TEXT NOT NULL,
    bounces      BIGINT NOT NULL DEFAULT 0,
    replies      BIGINT NOT NULL DEFAULT 0,
    last_outcome TEXT NOT NULL,
    last_at      TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX email_address_outcomes_bounced ON email_address_outcomes(domain)
    WHERE last_outcome = 'bounce';

CREATE TABLE email_pattern_outcomes (
    domain     TEXT NOT NULL,
    pattern    TEXT NOT NULL,
    bounces    BIGINT NOT NULL DEFAULT 0,
    replies    BIGINT NOT NULL DEFAULT 0,
    updated_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (domain, pattern)
);
