-- Live sources (docs/decisions.md, "Sources"): the watch list, the poll
-- schedule, and what the polls found. Times are fixed-width UTC text.

-- Domains watched with watch add. Deployment-wide, like companies.
CREATE TABLE watches (
    domain   TEXT PRIMARY KEY,
    added_by TEXT NOT NULL DEFAULT '',
    added_at TEXT NOT NULL
) WITHOUT ROWID;

-- Domains a radar's configuration names, kept by SyncWatches; deleting
-- the radar deletes them, so a radar watches only while it exists.
CREATE TABLE radar_watches (
    radar_id TEXT NOT NULL REFERENCES radars(id) ON DELETE CASCADE,
    domain   TEXT NOT NULL,
    PRIMARY KEY (radar_id, domain)
) WITHOUT ROWID;
CREATE INDEX radar_watches_domain ON radar_watches(domain);

-- One row per thing polled. ref is the board token of a board (board
-- names its vendor), else the URL. content_hash is the hash of what the
-- last successful poll read, so an unchanged board reads like a 304.
CREATE TABLE source_targets (
    id                 INTEGER PRIMARY KEY,
    company_id         INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    kind               TEXT NOT NULL,
    board              TEXT NOT NULL DEFAULT '',
    ref                TEXT NOT NULL,
    origin             TEXT NOT NULL,
    discovered_on      TEXT NOT NULL DEFAULT '',
    etag               TEXT NOT NULL DEFAULT '',
    last_modified      TEXT NOT NULL DEFAULT '',
    content_hash       INTEGER,
    last_poll_at       TEXT,
    last_success_at    TEXT,
    next_poll_at       TEXT NOT NULL,
    failures           INTEGER NOT NULL DEFAULT 0,
    last_error         TEXT NOT NULL DEFAULT '',
    paused_until       TEXT,
    board_company_name TEXT NOT NULL DEFAULT '',
    name_check         TEXT NOT NULL DEFAULT '',
    created_at         TEXT NOT NULL,
    UNIQUE (company_id, kind, board, ref)
);
-- The poll cycle reads the due targets soonest first.
CREATE INDEX source_targets_due ON source_targets(next_poll_at);

-- Job openings with their provenance. misses counts the successful polls
-- in a row that did not list an open opening; the second closes it.
CREATE TABLE job_openings (
    id            INTEGER PRIMARY KEY,
    company_id    INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    source        TEXT NOT NULL,
    board_token   TEXT NOT NULL,
    external_id   TEXT NOT NULL,
    title         TEXT NOT NULL DEFAULT '',
    job_level     TEXT NOT NULL DEFAULT '',
    job_function  TEXT NOT NULL DEFAULT '',
    department    TEXT NOT NULL DEFAULT '',
    location      TEXT NOT NULL DEFAULT '',
    country_code  TEXT NOT NULL DEFAULT '',
    remote        INTEGER NOT NULL DEFAULT 0,
    url           TEXT NOT NULL DEFAULT '',
    posted_at     TEXT,
    first_seen_at TEXT NOT NULL,
    last_seen_at  TEXT NOT NULL,
    closed_at     TEXT,
    misses        INTEGER NOT NULL DEFAULT 0,
    content_hash  INTEGER NOT NULL,
    UNIQUE (company_id, source, board_token, external_id)
);
-- A poll reads its board's open openings; closed ones pile up over the
-- years and stay out of this index. misses lets a poll that lists what
-- the last one did find the openings that one missed without reading the
-- others (sameListing in each engine).
CREATE INDEX job_openings_open ON job_openings(company_id, source, board_token, misses) WHERE closed_at IS NULL;
-- The API pages a company's openings newest first.
CREATE INDEX job_openings_company ON job_openings(company_id, first_seen_at);

-- Technologies per company. evidence is a bounded JSON list
-- (prospector.BoundEvidence); categories a JSON list of strings.
CREATE TABLE company_technologies (
    id            INTEGER PRIMARY KEY,
    company_id    INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    categories    TEXT NOT NULL DEFAULT '[]',
    version       TEXT NOT NULL DEFAULT '',
    confidence    INTEGER NOT NULL DEFAULT 0,
    evidence      TEXT NOT NULL DEFAULT '[]',
    state         TEXT NOT NULL,
    misses        INTEGER NOT NULL DEFAULT 0,
    first_seen_at TEXT NOT NULL,
    last_seen_at  TEXT NOT NULL,
    added_at      TEXT,
    removed_at    TEXT,
    UNIQUE (company_id, name)
);
