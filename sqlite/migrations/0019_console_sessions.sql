-- Console sessions (docs/console.md, docs/decisions.md "Console (issue 21)").
-- The cookie carries a random session id; the table keeps its SHA-256
-- only. Sign-out sets signed_out_at, so a copy of the cookie is refused on
-- every node; retention passes delete rows past expires_at.
CREATE TABLE console_sessions (
    id_hash       TEXT PRIMARY KEY,
    key_id        TEXT NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
    key_hash      TEXT NOT NULL,
    workspace_id  TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    created_at    TEXT NOT NULL,
    expires_at    TEXT NOT NULL,
    signed_out_at TEXT
) WITHOUT ROWID;
CREATE INDEX console_sessions_expires ON console_sessions(expires_at);
CREATE INDEX console_sessions_key ON console_sessions(key_id);
