-- The data every read endpoint serves. Ids are dense integers: the search
-- index keys its bitmaps by them. The upserts take new ids from each
-- table's sequence in one nextval round trip per batch, under a per-table
-- advisory lock, so ids ascend in commit order (see upsert.go).
-- content_hash lets a re-import skip rows that did not change without
-- comparing every column.
CREATE TABLE companies (
    id             BIGSERIAL PRIMARY KEY,
    domain         TEXT NOT NULL UNIQUE,
    name           TEXT NOT NULL,
    website        TEXT NOT NULL DEFAULT '',
    industry       TEXT NOT NULL DEFAULT '',
    description    TEXT NOT NULL DEFAULT '',
    keywords       TEXT[] NOT NULL DEFAULT '{}',
    city           TEXT NOT NULL DEFAULT '',
    region         TEXT NOT NULL DEFAULT '',
    country_code   TEXT NOT NULL DEFAULT '',
    employee_count BIGINT,
    employee_range TEXT NOT NULL DEFAULT '',
    founded        BIGINT,
    revenue_usd    BIGINT,
    network_url    TEXT NOT NULL DEFAULT '',
    ticker         TEXT NOT NULL DEFAULT '',
    content_hash   BIGINT NOT NULL,
    created_at     TIMESTAMPTZ NOT NULL,
    updated_at     TIMESTAMPTZ NOT NULL
);
-- Queries on network_url repeat the predicate (network_url <> '') so the
-- planner can use this index with a generic plan too.
CREATE INDEX companies_network_url ON companies(network_url) WHERE network_url <> '';

CREATE TABLE people (
    id             BIGSERIAL PRIMARY KEY,
    natural_key    TEXT NOT NULL UNIQUE,
    external_id    TEXT NOT NULL DEFAULT '',
    full_name      TEXT NOT NULL,
    first_name     TEXT NOT NULL DEFAULT '',
    last_name      TEXT NOT NULL DEFAULT '',
    title          TEXT NOT NULL DEFAULT '',
    job_level      TEXT NOT NULL DEFAULT '',
    job_function   TEXT NOT NULL DEFAULT '',
    company_id     BIGINT REFERENCES companies(id) ON DELETE SET NULL,
    company_name   TEXT NOT NULL DEFAULT '',
    company_domain TEXT NOT NULL DEFAULT '',
    network_url    TEXT NOT NULL DEFAULT '',
    email          TEXT NOT NULL DEFAULT '',
    phone          TEXT NOT NULL DEFAULT '',
    city           TEXT NOT NULL DEFAULT '',
    region         TEXT NOT NULL DEFAULT '',
    country_code   TEXT NOT NULL DEFAULT '',
    score          DOUBLE PRECISION,
    content_hash   BIGINT NOT NULL,
    created_at     TIMESTAMPTZ NOT NULL,
    updated_at     TIMESTAMPTZ NOT NULL
);
CREATE INDEX people_company ON people(company_id);

CREATE TABLE signals (
    id             BIGSERIAL PRIMARY KEY,
    external_id    TEXT NOT NULL UNIQUE,
    type           TEXT NOT NULL,
    company_id     BIGINT REFERENCES companies(id) ON DELETE CASCADE,
    company_domain TEXT NOT NULL DEFAULT '',
    person_id      BIGINT REFERENCES people(id) ON DELETE CASCADE,
    title          TEXT NOT NULL DEFAULT '',
    detail         TEXT NOT NULL DEFAULT '',
    source_url     TEXT NOT NULL DEFAULT '',
    detected_at    TIMESTAMPTZ NOT NULL,
    score          DOUBLE PRECISION,
    content_hash   BIGINT NOT NULL,
    created_at     TIMESTAMPTZ NOT NULL
);
CREATE INDEX signals_company ON signals(company_id, detected_at);
CREATE INDEX signals_person ON signals(person_id);

CREATE TABLE news_events (
    id             BIGSERIAL PRIMARY KEY,
    external_id    TEXT NOT NULL UNIQUE,
    company_id     BIGINT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    event_type     TEXT NOT NULL,
    categories     TEXT[] NOT NULL DEFAULT '{}',
    effective_date TEXT NOT NULL DEFAULT '',
    found_at       TIMESTAMPTZ NOT NULL,
    attributes     JSONB NOT NULL DEFAULT '{}',
    content_hash   BIGINT NOT NULL
);
CREATE INDEX news_events_company ON news_events(company_id, found_at);

CREATE TABLE financing_events (
    id                        BIGSERIAL PRIMARY KEY,
    external_id               TEXT NOT NULL UNIQUE,
    company_id                BIGINT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    event_type                TEXT NOT NULL,
    categories                TEXT[] NOT NULL DEFAULT '{}',
    financing_type            TEXT NOT NULL DEFAULT '',
    financing_type_normalized TEXT NOT NULL DEFAULT '',
    amount                    TEXT NOT NULL DEFAULT '',
    amount_normalized         DOUBLE PRECISION,
    effective_date            TEXT NOT NULL DEFAULT '',
    found_at                  TIMESTAMPTZ NOT NULL,
    source_urls               TEXT[] NOT NULL DEFAULT '{}',
    investors                 JSONB NOT NULL DEFAULT '[]',
    content_hash              BIGINT NOT NULL
);
CREATE INDEX financing_events_company ON financing_events(company_id, found_at);
