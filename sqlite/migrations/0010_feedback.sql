-- Feedback events and what they add up to (docs/decisions.md, "Feedback").
-- Events are appended by rowid and never changed, so insights can always
-- be recomputed from them. A key is released (set to NULL) once older
-- than the idempotency window, so the unique index holds only live keys;
-- result is the first answer, kept for replays of events with a key.
CREATE TABLE feedback_events (
    seq             INTEGER PRIMARY KEY,
    id              TEXT NOT NULL,
    workspace_id    TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    lead_id         TEXT NOT NULL,
    event_type      TEXT NOT NULL,
    source          TEXT NOT NULL,
    content         TEXT NOT NULL DEFAULT '',
    meeting_url     TEXT NOT NULL DEFAULT '',
    occurred_at     TEXT NOT NULL,
    metadata        TEXT NOT NULL DEFAULT '{}',
    email           TEXT NOT NULL DEFAULT '',
    mutated_lead    INTEGER NOT NULL DEFAULT 0,
    idempotency_key TEXT,
    request_hash    TEXT NOT NULL DEFAULT '',
    result          TEXT,
    created_at      TEXT NOT NULL
);
-- A workspace's events by time (to recompute a window) and a lead's history.
CREATE INDEX feedback_events_window ON feedback_events(workspace_id, occurred_at);
CREATE INDEX feedback_events_lead ON feedback_events(lead_id, seq);
CREATE UNIQUE INDEX feedback_events_key ON feedback_events(workspace_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;

-- One row per lead with feedback, updated in each event's transaction:
-- the ordering rule reads applied_at, and insights read these rows (one
-- per lead) instead of the events. title, company and signal_mask are
-- the lead's at its latest event; status mirrors leads.status as the
-- latest event left it. Unlike elsewhere, times here are integers (Unix
-- microseconds): the insight queries compare four of them per row over
-- every lead of a workspace, and integers halve the size of the indexes
-- they walk and compare faster than text.
CREATE TABLE lead_feedback (
    lead_id          TEXT NOT NULL UNIQUE REFERENCES leads(id) ON DELETE CASCADE,
    workspace_id     TEXT NOT NULL,
    title            TEXT NOT NULL DEFAULT '',
    company          TEXT NOT NULL DEFAULT '',
    signal_mask      INTEGER NOT NULL DEFAULT 0,
    status           TEXT NOT NULL DEFAULT '',
    email            TEXT NOT NULL DEFAULT '',
    email_domain     TEXT NOT NULL DEFAULT '',
    email_status     TEXT NOT NULL DEFAULT '',
    email_at         INTEGER,
    events           INTEGER NOT NULL DEFAULT 0,
    first_event_at   INTEGER NOT NULL,
    last_event_at    INTEGER NOT NULL,
    applied_at       INTEGER,
    last_reply_at    INTEGER,
    last_positive_at INTEGER,
    last_meeting_at  INTEGER,
    last_bounce_at   INTEGER,
    updated_at       TEXT NOT NULL
);
-- Insights group by title, company, signal mask and (bounces) domain.
-- Each index starts with the group key and covers the columns the
-- aggregates read, so a group-by walks one index in order with no sort
-- and no table lookups. The table keeps its rowid: index entries then end
-- with it rather than with the 39-character lead id.
CREATE INDEX lead_feedback_titles ON lead_feedback(workspace_id, title, last_event_at, last_reply_at,
    last_positive_at, last_meeting_at);
CREATE INDEX lead_feedback_companies ON lead_feedback(workspace_id, company, last_event_at, last_reply_at,
    last_positive_at, last_meeting_at);
CREATE INDEX lead_feedback_signals ON lead_feedback(workspace_id, signal_mask, last_event_at, last_reply_at,
    last_positive_at, last_meeting_at, last_bounce_at, status);
CREATE INDEX lead_feedback_bounces ON lead_feedback(workspace_id, email_domain, last_bounce_at)
    WHERE last_bounce_at IS NOT NULL;

-- What outreach taught about addresses, across workspaces: a bounce or a
-- reply is a fact about the mailbox. The email finder skips addresses
-- whose newest outcome is a bounce and weighs a domain's patterns by the
-- distinct addresses following them that bounced or replied (pattern ''
-- counts every address of the domain).
CREATE TABLE email_address_outcomes (
    address      TEXT PRIMARY KEY,
    domain       TEXT NOT NULL,
    bounces      INTEGER NOT NULL DEFAULT 0,
    replies      INTEGER NOT NULL DEFAULT 0,
    last_outcome TEXT NOT NULL,
    last_at      TEXT NOT NULL,
    updated_at   TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX email_address_outcomes_bounced ON email_address_outcomes(domain)
    WHERE last_outcome = 'bounce';

CREATE TABLE email_pattern_outcomes (
    domain     TEXT NOT NULL,
    pattern    TEXT NOT NULL,
    bounces    INTEGER NOT NULL DEFAULT 0,
    replies    INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (domain, pattern)
) WITHOUT ROWID;
