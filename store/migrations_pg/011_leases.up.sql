-- Table ownership for a cluster (docs/cluster.md, PostgreSQL only: the
-- SQLite store has one node and no leases, and its next migration takes
-- number 012 so that the numbers keep one meaning).
--
-- One row per table ever claimed. epoch only grows (a claim of a free or
-- expired lease adds one; a release only ends expires), so every owner of
-- a table has had a different, larger epoch than the ones before it.
-- expires is the database's clock (clock_timestamp()), never a node's.
CREATE TABLE leases (
    table_id TEXT PRIMARY KEY,
    node     TEXT NOT NULL,
    epoch    BIGINT NOT NULL CHECK (epoch > 0),
    expires  TIMESTAMPTZ NOT NULL
);

-- The epoch of the owner that wrote each entry (0: an unfenced Append),
-- so an operator can tell which node logged what across a failover.
ALTER TABLE events ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
