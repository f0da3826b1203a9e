-- Live sources (docs/decisions.md, "Sources"): the watch list, the poll
-- schedule, and what the polls found.

-- Domains watched with watch add. Deployment-wide, like companies.
CREATE TABLE watches (
    domain   TEXT PRIMARY KEY,
    added_by TEXT NOT NULL DEFAULT '',
    added_at TIMESTAMPTZ NOT NULL
);

-- Domains a radar's configuration names, kept by SyncWatches; deleting
-- the radar deletes them, so a radar watches only while it exists.
CREATE TABLE radar_watches (
    radar_id TEXT NOT NULL REFERENCES radars(id) ON DELETE CASCADE,
    domain   TEXT NOT NULL,
    PRIMARY KEY (radar_id, domain)
);
CREATE INDEX radar_watches_domain ON radar_watches(domain);

-- One row per thing polled. ref is the board token of a board (board
-- names its vendor), else the URL. content_hash is the hash of what the
-- last successful poll read, so an unchanged board reads like a 304.
CREATE TABLE source_targets (
    id                 BIGSERIAL PRIMARY KEY,
    company_id         BIGINT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    kind               TEXT NOT NULL,
    board              TEXT NOT NULL DEFAULT '',
    ref                TEXT NOT NULL,
    origin             TEXT NOT NULL,
    discovered_on      TEXT NOT NULL DEFAULT '',
    etag               TEXT NOT NULL DEFAULT '',
    last_modified      TEXT NOT NULL DEFAULT '',
    content_hash       BIGINT,
    last_poll_at       TIMESTAMPTZ,
    last_success_at    TIMESTAMPTZ,
    next_poll_at       TIMESTAMPTZ NOT NULL,
    failures           INTEGER NOT NULL DEFAULT 0,
    last_error         TEXT NOT NULL DEFAULT '',
    paused_until       TIMESTAMPTZ,
    board_company_name TEXT NOT NULL DEFAULT '',
    name_check         TEXT NOT NULL DEFAULT '',
    created_at         TIMESTAMPTZ NOT NULL,
    UNIQUE (company_id, kind, board, ref)
);
-- The poll cycle reads the due targets soonest first.
CREATE INDEX source_targets_due ON source_targets(next_poll_at);

-- Job openings with their provenance. misses counts the successful polls
-- in a row that did not list an open opening; the second closes it.
-- Every poll moves last_seen_at of its board's openings; no index holds
-- it, so with room left on each page those updates stay HOT (in place,
-- no index writes).
CREATE TABLE job_openings (
    id            BIGSERIAL PRIMARY KEY,
    company_id    BIGINT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    source        TEXT NOT NULL,
    board_token   TEXT NOT NULL,
    external_id   TEXT NOT NULL,
    title         TEXT NOT NULL DEFAULT '',
    job_level     TEXT NOT NULL DEFAULT '',
    job_function  TEXT NOT NULL DEFAULT '',
    department    TEXT NOT NULL DEFAULT '',
    location      TEXT NOT NULL DEFAULT '',
    country_code  TEXT NOT NULL DEFAULT '',
    remote        BOOLEAN NOT NULL DEFAULT FALSE,
    url           TEXT NOT NULL DEFAULT '',
    posted_at     TIMESTAMPTZ,
    first_seen_at TIMESTAMPTZ NOT NULL,
    last_seen_at  TIMESTAMPTZ NOT NULL,
    closed_at     TIMESTAMPTZ,
    misses        INTEGER NOT NULL DEFAULT 0,
    content_hash  BIGINT NOT NULL,
    UNIQUE (company_id, source, board_token, external_id)
) WITH (fillfactor = 80);
-- A poll reads its board's open openings; closed ones pile up over the
-- years and stay out of this index. misses lets a poll that lists what
-- the last one did find the openings that one missed without reading the
-- others (sameListing in each engine).
CREATE INDEX job_openings_open ON job_openings(company_id, source, board_token, misses) WHERE closed_at IS NULL;
-- The API pages a company's openings newest first.
CREATE INDEX job_openings_company ON job_openings(company_id, first_seen_at);

-- Technologies per company. evidence is a bounded JSON list
-- (prospector.BoundEvidence).
CREATE TABLE company_technologies (
    id            BIGSERIAL PRIMARY KEY,
    company_id    BIGINT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    categories    TEXT[] NOT NULL DEFAULT '{}',
    version       TEXT NOT NULL DEFAULT '',
    confidence    INTEGER NOT NULL DEFAULT 0,
    evidence      JSONB NOT NULL DEFAULT '[]',
    state         TEXT NOT NULL,
    misses        INTEGER NOT NULL DEFAULT 0,
    first_seen_at TIMESTAMPTZ NOT NULL,
    last_seen_at  TIMESTAMPTZ NOT NULL,
    added_at      TIMESTAMPTZ,
    removed_at    TIMESTAMPTZ,
    UNIQUE (company_id, name)
) WITH (fillfactor = 80);
