-- Workspaces carry their plan, the counters of their counted quotas and
-- the current billing period, so a charge is one conditional UPDATE.
CREATE TABLE workspaces (
    id                        TEXT PRIMARY KEY,
    name                      TEXT NOT NULL UNIQUE,
    plan                      TEXT NOT NULL,
    owner_user_id             TEXT NOT NULL,
    email                     TEXT NOT NULL DEFAULT '',
    public_api                BOOLEAN NOT NULL DEFAULT TRUE,
    credits_limit             BIGINT,
    credits_bypassed          BOOLEAN NOT NULL DEFAULT FALSE,
    credits_used              BIGINT NOT NULL DEFAULT 0 CHECK (credits_used >= 0),
    period_start              TIMESTAMPTZ NOT NULL,
    period_end                TIMESTAMPTZ NOT NULL,
    radars_limit              BIGINT,
    radars_bypassed           BOOLEAN NOT NULL DEFAULT FALSE,
    radars_used               BIGINT NOT NULL DEFAULT 0 CHECK (radars_used >= 0),
    network_accounts_limit    BIGINT,
    network_accounts_bypassed BOOLEAN NOT NULL DEFAULT FALSE,
    network_accounts_used     BIGINT NOT NULL DEFAULT 0 CHECK (network_accounts_used >= 0),
    radar_signals_limit       BIGINT,
    radar_signals_bypassed    BOOLEAN NOT NULL DEFAULT FALSE,
    pending_plan              TEXT,
    pending_plan_at           TIMESTAMPTZ,
    created_at                TIMESTAMPTZ NOT NULL
);

-- Only the SHA-256 of a key is kept; prefix is for telling keys apart.
CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    tier         TEXT NOT NULL,
    role         TEXT NOT NULL,
    key_hash     TEXT NOT NULL UNIQUE,
    prefix       TEXT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    expires_at   TIMESTAMPTZ,
    revoked_at   TIMESTAMPTZ
);
CREATE INDEX api_keys_workspace ON api_keys(workspace_id, created_at);

-- Append-only ledger; the unique idempotency key stops a retried charge
-- from being applied twice.
CREATE TABLE credit_ledger (
    id              TEXT PRIMARY KEY,
    workspace_id    TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    amount          BIGINT NOT NULL,
    reason          TEXT NOT NULL,
    idempotency_key TEXT,
    created_at      TIMESTAMPTZ NOT NULL,
    UNIQUE (workspace_id, idempotency_key)
);
CREATE INDEX credit_ledger_workspace ON credit_ledger(workspace_id, created_at);
