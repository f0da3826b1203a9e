-- seq orders the writes to signals as 0003 does for companies and people:
-- every node's search index keeps each company's signals in memory and
-- reads the rows with a seq above the last one it has seen.
ALTER TABLE signals ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
UPDATE signals SET seq = id;
CREATE INDEX signals_seq ON signals(seq);
