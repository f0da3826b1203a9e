-- Deployment-wide values every node shares (the search cursor key).
CREATE TABLE settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
