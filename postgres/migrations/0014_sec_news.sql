-- Live sources II (docs/decisions.md, "Sources" and "News"): SEC issuers
-- and filings, the articles of news events, a name index of companies
-- for issuer resolution, and shared token buckets.

-- Companies by prospector.NormalizeLegalName of their name, computed in
-- Go: the store catches up from the companies' seq before each issuer
-- lookup (cursor below), so the company upsert does not change.
CREATE TABLE company_name_keys (
    company_id BIGINT PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
    name_key   TEXT NOT NULL,
    seq        BIGINT NOT NULL
);
-- With company_id, so the lookup of a name's first companies by id reads
-- only them (with name_key alone the planner walks the primary key).
CREATE INDEX company_name_keys_key ON company_name_keys(name_key, company_id);
CREATE TABLE company_name_key_cursor (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    seq BIGINT NOT NULL
);
INSERT INTO company_name_key_cursor (id, seq) VALUES (1, 0);

-- Issuers by CIK; company_id once resolved (match says how), else the
-- best candidate for the queue of `sources unresolved`.
CREATE TABLE sec_issuers (
    cik          TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    former_names TEXT[] NOT NULL DEFAULT '{}',
    state        TEXT NOT NULL DEFAULT '',
    city         TEXT NOT NULL DEFAULT '',
    website      TEXT NOT NULL DEFAULT '',
    facts_filed  TEXT NOT NULL DEFAULT '',
    company_id   BIGINT REFERENCES companies(id) ON DELETE SET NULL,
    candidate_id BIGINT REFERENCES companies(id) ON DELETE SET NULL,
    confidence   DOUBLE PRECISION NOT NULL DEFAULT 0,
    match        TEXT NOT NULL DEFAULT '',
    resolved_at  TIMESTAMPTZ,
    created_at   TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX sec_issuers_company ON sec_issuers(company_id) WHERE company_id IS NOT NULL;

-- One row per processed filing. financing and signals are what it writes
-- once its issuer is resolved (JSON of the root types), kept so that
-- `sources map` applies it without fetching it again; event_key is the
-- financing event's id, shared by an offering's amendments.
CREATE TABLE sec_filings (
    accession    TEXT PRIMARY KEY,
    cik          TEXT NOT NULL REFERENCES sec_issuers(cik) ON DELETE CASCADE,
    form         TEXT NOT NULL,
    filed        TEXT NOT NULL,
    url          TEXT NOT NULL,
    kind         TEXT NOT NULL,
    skip_reason  TEXT NOT NULL DEFAULT '',
    event_key    TEXT NOT NULL DEFAULT '',
    status       TEXT NOT NULL,
    company_id   BIGINT REFERENCES companies(id) ON DELETE SET NULL,
    details      JSONB NOT NULL DEFAULT '{}',
    financing    JSONB,
    signals      JSONB NOT NULL DEFAULT '[]',
    content_hash BIGINT NOT NULL,
    processed_at TIMESTAMPTZ NOT NULL,
    applied_at   TIMESTAMPTZ
);
CREATE INDEX sec_filings_issuer ON sec_filings(cik, filed);
CREATE INDEX sec_filings_event ON sec_filings(event_key, filed) WHERE event_key <> '';
CREATE INDEX sec_filings_pending ON sec_filings(cik) WHERE status = 'pending';

-- The people a filing names, in a table of their own so a subject
-- request can find and delete them (issue 23); deleted with the filing.
CREATE TABLE sec_filing_people (
    accession      TEXT NOT NULL REFERENCES sec_filings(accession) ON DELETE CASCADE,
    position       INTEGER NOT NULL,
    role           TEXT NOT NULL,
    name           TEXT NOT NULL,
    title          TEXT NOT NULL DEFAULT '',
    action         TEXT NOT NULL DEFAULT '',
    effective_date TEXT NOT NULL DEFAULT '',
    city           TEXT NOT NULL DEFAULT '',
    state          TEXT NOT NULL DEFAULT '',
    note           TEXT NOT NULL DEFAULT '',
    signal_id      TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (accession, position)
);
CREATE INDEX sec_filing_people_name ON sec_filing_people(name);

-- The articles of each news event (the contract's item has no link).
-- One article is one event of its company: reading it again, in any
-- week, finds it here and writes nothing.
CREATE TABLE news_event_sources (
    news_event_id BIGINT NOT NULL REFERENCES news_events(id) ON DELETE CASCADE,
    company_id    BIGINT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    url           TEXT NOT NULL,
    source        TEXT NOT NULL DEFAULT '',
    headline      TEXT NOT NULL DEFAULT '',
    published_at  TIMESTAMPTZ,
    found_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (news_event_id, url)
);
CREATE UNIQUE INDEX news_event_sources_article ON news_event_sources(company_id, url);

-- Token buckets (prospector.TokenBucket) every node shares: the
-- theoretical arrival time of each key's next request, on the database's
-- clock, so nodes whose clocks differ still agree.
CREATE TABLE token_buckets (
    key TEXT PRIMARY KEY,
    tat TIMESTAMPTZ NOT NULL
);
