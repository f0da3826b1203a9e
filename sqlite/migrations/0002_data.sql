-- The data every read endpoint serves. Ids are dense integers: the search
-- index keys its bitmaps by them. content_hash lets a re-import skip rows
-- that did not change without comparing every column.
CREATE TABLE companies (
    id             INTEGER PRIMARY KEY,
    domain         TEXT NOT NULL UNIQUE,
    name           TEXT NOT NULL,
    website        TEXT NOT NULL DEFAULT '',
    industry       TEXT NOT NULL DEFAULT '',
    description    TEXT NOT NULL DEFAULT '',
    keywords       TEXT NOT NULL DEFAULT '[]',
    city           TEXT NOT NULL DEFAULT '',
    region         TEXT NOT NULL DEFAULT '',
    country_code   TEXT NOT NULL DEFAULT '',
    employee_count INTEGER,
    employee_range TEXT NOT NULL DEFAULT '',
    founded        INTEGER,
    revenue_usd    INTEGER,
    network_url    TEXT NOT NULL DEFAULT '',
    ticker         TEXT NOT NULL DEFAULT '',
    content_hash   INTEGER NOT NULL,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);
CREATE INDEX companies_network_url ON companies(network_url) WHERE network_url <> '';

-- People are looked up by a 64-bit hash of their natural key rather than
-- the key itself: at millions of rows an index of long URL keys no longer
-- fits the page cache and random inserts into it dominate bulk loads. The
-- writer compares the full key, so hash collisions are harmless.
CREATE TABLE people (
    id             INTEGER PRIMARY KEY,
    key_hash       INTEGER NOT NULL,
    natural_key    TEXT NOT NULL,
    external_id    TEXT NOT NULL DEFAULT '',
    full_name      TEXT NOT NULL,
    first_name     TEXT NOT NULL DEFAULT '',
    last_name      TEXT NOT NULL DEFAULT '',
    title          TEXT NOT NULL DEFAULT '',
    job_level      TEXT NOT NULL DEFAULT '',
    job_function   TEXT NOT NULL DEFAULT '',
    company_id     INTEGER REFERENCES companies(id) ON DELETE SET NULL,
    company_name   TEXT NOT NULL DEFAULT '',
    company_domain TEXT NOT NULL DEFAULT '',
    network_url    TEXT NOT NULL DEFAULT '',
    email          TEXT NOT NULL DEFAULT '',
    phone          TEXT NOT NULL DEFAULT '',
    city           TEXT NOT NULL DEFAULT '',
    region         TEXT NOT NULL DEFAULT '',
    country_code   TEXT NOT NULL DEFAULT '',
    score          REAL,
    content_hash   INTEGER NOT NULL,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);
CREATE INDEX people_key_hash ON people(key_hash);
CREATE INDEX people_company ON people(company_id);

CREATE TABLE signals (
    id             INTEGER PRIMARY KEY,
    external_id    TEXT NOT NULL UNIQUE,
    type           TEXT NOT NULL,
    company_id     INTEGER REFERENCES companies(id) ON DELETE CASCADE,
    company_domain TEXT NOT NULL DEFAULT '',
    person_id      INTEGER REFERENCES people(id) ON DELETE CASCADE,
    title          TEXT NOT NULL DEFAULT '',
    detail         TEXT NOT NULL DEFAULT '',
    source_url     TEXT NOT NULL DEFAULT '',
    detected_at    TEXT NOT NULL,
    score          REAL,
    content_hash   INTEGER NOT NULL,
    created_at     TEXT NOT NULL
);
CREATE INDEX signals_company ON signals(company_id, detected_at);
CREATE INDEX signals_person ON signals(person_id);

CREATE TABLE news_events (
    id             INTEGER PRIMARY KEY,
    external_id    TEXT NOT NULL UNIQUE,
    company_id     INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    event_type     TEXT NOT NULL,
    categories     TEXT NOT NULL DEFAULT '[]',
    effective_date TEXT NOT NULL DEFAULT '',
    found_at       TEXT NOT NULL,
    attributes     TEXT NOT NULL DEFAULT '{}',
    content_hash   INTEGER NOT NULL
);
CREATE INDEX news_events_company ON news_events(company_id, found_at);

CREATE TABLE financing_events (
    id                        INTEGER PRIMARY KEY,
    external_id               TEXT NOT NULL UNIQUE,
    company_id                INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    event_type                TEXT NOT NULL,
    categories                TEXT NOT NULL DEFAULT '[]',
    financing_type            TEXT NOT NULL DEFAULT '',
    financing_type_normalized TEXT NOT NULL DEFAULT '',
    amount                    TEXT NOT NULL DEFAULT '',
    amount_normalized         REAL,
    effective_date            TEXT NOT NULL DEFAULT '',
    found_at                  TEXT NOT NULL,
    source_urls               TEXT NOT NULL DEFAULT '[]',
    investors                 TEXT NOT NULL DEFAULT '[]',
    content_hash              INTEGER NOT NULL
);
CREATE INDEX financing_events_company ON financing_events(company_id, found_at);
