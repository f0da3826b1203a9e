-- seq orders the writes to companies and people; every node's search
-- index reads the rows with a seq above the last one it has seen.
ALTER TABLE companies ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
CREATE INDEX companies_seq ON companies(seq);
ALTER TABLE people ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
CREATE INDEX people_seq ON people(seq);
-- Rows written before this migration get a seq too, in id order, so the
-- index sees them.
UPDATE companies SET seq = id;
UPDATE people SET seq = id;
