-- Token buckets that the nodes of a cluster share (PostgreSQL only): the
-- per-address quotas of lasting things (guest sessions, accounts claimed,
-- tournaments created), which a node alone would grant once per node. A
-- row is one bucket: key is a digest of the address (never the address
-- itself), tokens what it held at `at` by the database's clock, refilled
-- at rate a second up to burst. A full bucket is the same as no row, and
-- the room deletes those.
CREATE TABLE quota_buckets (
    kind   TEXT NOT NULL,
    key    TEXT NOT NULL,
    tokens DOUBLE PRECISION NOT NULL,
    rate   DOUBLE PRECISION NOT NULL,
    burst  DOUBLE PRECISION NOT NULL,
    at     TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (kind, key)
);
