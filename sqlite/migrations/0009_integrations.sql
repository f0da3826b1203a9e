-- Outbound lead deliveries: a workspace's webhook settings, its outreach
-- tool integrations, and the durable outbox of auto-sync deliveries.
-- auth_value, signing_secret and api_key are secrets the service must
-- send, so they are kept as given (see docs/webhooks.md).
CREATE TABLE webhook_settings (
    workspace_id    TEXT PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
    url             TEXT NOT NULL DEFAULT '',
    auth_header     TEXT NOT NULL DEFAULT '',
    auth_value      TEXT NOT NULL DEFAULT '',
    disabled_fields TEXT NOT NULL DEFAULT '[]',
    custom_fields   TEXT NOT NULL DEFAULT '{}',
    template        TEXT NOT NULL DEFAULT '',
    auto_sync       INTEGER NOT NULL DEFAULT 0,
    signing_secret  TEXT NOT NULL,
    disabled_reason TEXT NOT NULL DEFAULT '',
    disabled_at     TEXT,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL
);

CREATE TABLE outreach_integrations (
    workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    tool         TEXT NOT NULL CHECK (tool IN ('outreach_tool_a', 'outreach_tool_b')),
    base_url     TEXT NOT NULL,
    api_key      TEXT NOT NULL,
    campaign_id  TEXT NOT NULL DEFAULT '',
    list_id      TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    PRIMARY KEY (workspace_id, tool)
);

-- One row per lead and destination: the id is the webhook-id every
-- attempt carries. lead_id is text with no foreign key, so the outbox
-- does not depend on how leads are kept.
CREATE TABLE deliveries (
    id               TEXT PRIMARY KEY,
    workspace_id     TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    destination_kind TEXT NOT NULL,
    destination_url  TEXT NOT NULL,
    lead_id          TEXT NOT NULL,
    payload          TEXT NOT NULL DEFAULT '{}',
    status           TEXT NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'delivered', 'dead', 'disabled')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  TEXT NOT NULL,
    last_status_code INTEGER NOT NULL DEFAULT 0,
    last_error       TEXT NOT NULL DEFAULT '',
    delivered_at     TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    -- Each lead is delivered once per destination.
    UNIQUE (workspace_id, destination_kind, destination_url, lead_id)
);
CREATE INDEX deliveries_workspace ON deliveries(workspace_id, created_at);
CREATE INDEX deliveries_due ON deliveries(status, next_attempt_at);
