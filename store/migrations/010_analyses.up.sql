-- Post-game analyses (docs/bots.md, "Post-game analysis"): one row per
-- seat of a finished table, written once by the server's background
-- analysis and read by GET /api/records/{id}/analysis. The analysis is the
-- JSON of bot/analysis.Analysis, kept whole: it is served as it was
-- computed and never queried inside. A failed analysis keeps its error,
-- so the room does not retry it on every request.
CREATE TABLE analyses (
    table_id TEXT NOT NULL,
    seat     INTEGER NOT NULL,
    status   TEXT NOT NULL,           -- 'done' or 'failed'
    data     TEXT NOT NULL DEFAULT '', -- the analysis's JSON when done, the error when failed
    created  INTEGER NOT NULL,        -- unix ms
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
