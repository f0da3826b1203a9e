-- Radars and the leads they collect (docs/decisions.md, "Radars").
-- cursor is the last signal id the incremental scan processed for the
-- radar; backfill_through the highest signal id when it was created (the
-- backfill covers the signals up to it). Times are fixed-width UTC text.
CREATE TABLE radars (
    id               TEXT PRIMARY KEY,
    workspace_id     TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    name             TEXT NOT NULL,
    config           TEXT NOT NULL,
    cursor           INTEGER NOT NULL DEFAULT 0,
    backfill_through INTEGER NOT NULL DEFAULT 0,
    backfilled_at    TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);
CREATE INDEX radars_workspace ON radars(workspace_id, created_at);

-- A lead is a person a radar surfaced: one row per (radar, person), so a
-- person matched again is updated, not duplicated. The person's card is
-- copied; email, phone and the outreach columns stay NULL until the
-- export, push and feedback work fills them.
CREATE TABLE leads (
    id                TEXT PRIMARY KEY,
    workspace_id      TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    radar_id          TEXT REFERENCES radars(id) ON DELETE CASCADE,
    source            TEXT NOT NULL DEFAULT 'radar',
    person_id         INTEGER,
    company_id        INTEGER,
    full_name         TEXT NOT NULL,
    first_name        TEXT NOT NULL DEFAULT '',
    last_name         TEXT NOT NULL DEFAULT '',
    title             TEXT NOT NULL DEFAULT '',
    company           TEXT NOT NULL DEFAULT '',
    network_url       TEXT NOT NULL DEFAULT '',
    city              TEXT NOT NULL DEFAULT '',
    region            TEXT NOT NULL DEFAULT '',
    country_code      TEXT NOT NULL DEFAULT '',
    email             TEXT,
    phone             TEXT,
    score             REAL,
    score_breakdown   TEXT,
    status            TEXT NOT NULL DEFAULT 'detected',
    campaign_id       TEXT,
    replied_at        TEXT,
    meeting_booked_at TEXT,
    reply_content     TEXT,
    feedback          TEXT,
    feedback_reason   TEXT,
    last_signal_at    TEXT NOT NULL,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL,
    UNIQUE (radar_id, person_id)
);
-- radar/{id}/leads reads a radar's leads best first.
CREATE INDEX leads_radar_score ON leads(radar_id, score DESC, last_signal_at DESC);
CREATE INDEX leads_workspace ON leads(workspace_id, created_at);

-- The signals that surfaced each lead (its signal_context), with the
-- signal's match score for the lead. radar_id and detected_at are copied
-- so radar/{id}/signals walks one index of this table. Rows are kept
-- narrow: a busy deployment adds hundreds of thousands an hour.
CREATE TABLE lead_signals (
    lead_id      TEXT NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
    signal_id    INTEGER NOT NULL,
    radar_id     TEXT NOT NULL,
    detected_at  TEXT NOT NULL,
    score        REAL NOT NULL,
    PRIMARY KEY (lead_id, signal_id)
) WITHOUT ROWID;
CREATE INDEX lead_signals_radar ON lead_signals(radar_id, detected_at);

-- Radar signals used per workspace and billing period: one counter row,
-- updated in the transaction that attaches the signals.
CREATE TABLE radar_signal_usage (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    period_start TEXT NOT NULL,
    used         INTEGER NOT NULL DEFAULT 0 CHECK (used >= 0),
    PRIMARY KEY (workspace_id, period_start)
) WITHOUT ROWID;
