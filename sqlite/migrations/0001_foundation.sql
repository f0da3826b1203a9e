-- Workspaces carry their plan, the counters of their counted quotas and
-- the current billing period, so a charge is one conditional UPDATE.
CREATE TABLE workspaces (
    id                        TEXT PRIMARY KEY,
    name                      TEXT NOT NULL UNIQUE,
    plan                      TEXT NOT NULL,
    owner_user_id             TEXT NOT NULL,
    email                     TEXT NOT NULL DEFAULT '',
    public_api                INTEGER NOT NULL DEFAULT 1,
    credits_limit             INTEGER,
    credits_bypassed          INTEGER NOT NULL DEFAULT 0,
    credits_used              INTEGER NOT NULL DEFAULT 0 CHECK (credits_used >= 0),
    period_start              TEXT NOT NULL,
    period_end                TEXT NOT NULL,
    radars_limit              INTEGER,
    radars_bypassed           INTEGER NOT NULL DEFAULT 0,
    radars_used               INTEGER NOT NULL DEFAULT 0 CHECK (radars_used >= 0),
    network_accounts_limit    INTEGER,
    network_accounts_bypassed INTEGER NOT NULL DEFAULT 0,
    network_accounts_used     INTEGER NOT NULL DEFAULT 0 CHECK (network_accounts_used >= 0),
    radar_signals_limit       INTEGER,
    radar_signals_bypassed    INTEGER NOT NULL DEFAULT 0,
    pending_plan              TEXT,
    pending_plan_at           TEXT,
    created_at                TEXT NOT NULL
);

-- Only the SHA-256 of a key is kept; prefix is for telling keys apart.
CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    tier         TEXT NOT NULL,
    role         TEXT NOT NULL,
    key_hash     TEXT NOT NULL UNIQUE,
    prefix       TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    expires_at   TEXT,
    revoked_at   TEXT
);
CREATE INDEX api_keys_workspace ON api_keys(workspace_id, created_at);

-- Append-only ledger; the unique idempotency key stops a retried charge
-- from being applied twice.
CREATE TABLE credit_ledger (
    id              TEXT PRIMARY KEY,
    workspace_id    TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    amount          INTEGER NOT NULL,
    reason          TEXT NOT NULL,
    idempotency_key TEXT,
    created_at      TEXT NOT NULL,
    UNIQUE (workspace_id, idempotency_key)
);
CREATE INDEX credit_ledger_workspace ON credit_ledger(workspace_id, created_at);
