-- seq orders the writes to companies and people; every node's search
-- index reads the rows with a seq above the last one it has seen.
ALTER TABLE companies ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;
CREATE INDEX companies_seq ON companies(seq);
ALTER TABLE people ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;
CREATE INDEX people_seq ON people(seq);
