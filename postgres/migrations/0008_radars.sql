-- Radars and the leads they collect (docs/decisions.md, "Radars").
-- cursor is the last signal id the incremental scan processed for the
-- radar; backfill_through the highest signal id when it was created (the
-- backfill covers the signals up to it). Signal ids ascend in commit
-- order (see upsert.go), so a cursor never skips a signal.
CREATE TABLE radars (
    id               TEXT PRIMARY KEY,
    workspace_id     TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    name             TEXT NOT NULL,
    config           JSONB NOT NULL,
    cursor           BIGINT NOT NULL DEFAULT 0,
    backfill_through BIGINT NOT NULL DEFAULT 0,
    backfilled_at    TIMESTAMPTZ,
    created_at       TIMESTAMPTZ NOT NULL,
    updated_at       TIMESTAMPTZ NOT NULL
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
    person_id         BIGINT,
    company_id        BIGINT,
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
    score             DOUBLE PRECISION,
    score_breakdown   JSONB,
    status            TEXT NOT NULL DEFAULT 'detected',
    campaign_id       TEXT,
    replied_at        TIMESTAMPTZ,
    meeting_booked_at TIMESTAMPTZ,
    reply_content     TEXT,
    feedback          TEXT,
    feedback_reason   TEXT,
    last_signal_at    TIMESTAMPTZ NOT NULL,
    created_at        TIMESTAMPTZ NOT NULL,
    updated_at        TIMESTAMPTZ NOT NULL,
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
    signal_id    BIGINT NOT NULL,
    radar_id     TEXT NOT NULL,
    detected_at  TIMESTAMPTZ NOT NULL,
    score        DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (lead_id, signal_id)
);
CREATE INDEX lead_signals_radar ON lead_signals(radar_id, detected_at);

-- Radar signals used per workspace and billing period: one counter row,
-- locked (FOR UPDATE) by the transaction that attaches signals, so
-- concurrent batches of one workspace never overrun its quota.
CREATE TABLE radar_signal_usage (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    period_start TIMESTAMPTZ NOT NULL,
    used         BIGINT NOT NULL DEFAULT 0 CHECK (used >= 0),
    PRIMARY KEY (workspace_id, period_start)
);
