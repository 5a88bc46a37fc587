// Package store keeps what the card room must not forget: sessions, tables
// (their settings and seats) and each table's event log, which is exactly the
// entries of the game's record. Everything a table holds in memory can be
// rebuilt from its row and its log, so a restarted server (or, later, another
// node) resumes every unfinished game.
//
// Store is the small interface the server uses; SQLite (embedded, the
// default) implements it, Postgres (postgres.go, for a cluster of nodes:
// docs/cluster.md) implements it with the same guarantees, and Memory is a
// map-backed version for tests. The SQL the two databases share is
// sqlStore's (sqlshared.go). Leases (lease.go) is table ownership with
// fenced appends, for a cluster.
//
// # Appends: committed or refused, never both
//
// Append returns nil only if the entry is committed, and an error only if
// it is not. The SQLite store queues appends for one writer goroutine that
// commits them in batches (group commit; on a busy room the writer holds a
// batch open up to 2 ms so that more moves share it, see hold.go, and runs
// its statements through the driver, see eventwriter.go); each queued
// request moves, by
// compare-and-swap, either from queued to taken (by the writer, which then
// commits it) or from queued to abandoned (by a caller whose context ended,
// and the writer skips it). A caller whose entry was taken waits for the
// commit's real outcome whatever its context says, which takes at most one
// transaction (bounded by the busy timeout). This matters because a table
// that is told "not committed" rebuilds its state without the step: if the
// step were committed anyway, a restart would replay a different game.
//
// The SQLite writer knows each table's next seq, so an entry whose seq is
// taken or skips ahead fails alone with ErrConflict before the
// transaction, and the rest of its batch commits; a batch that fails for
// any other reason (a locked, full or failing disk) fails whole at once,
// since retrying each entry would only cost the busy timeout once per
// entry. (PostgreSQL's store goes by its key's unique violation instead.)
//
// # The log's tail
//
// A commit is one row of event_tail, in commit order; the entries wait in
// memory too, a run per table, until a fold moves the oldest tables' runs
// into events, where a table's log is a few neighbouring pages. Events
// reads a table's run, then events. The open folds what a crash left, and
// Close folds everything (tail.go).
//
// # The WAL
//
// The database runs in WAL mode; the writer never checkpoints on its
// commit path. A checkpointer connection runs a passive checkpoint every
// SQLiteOptions.CheckpointEvery (1 s). After each commit the writer stats
// the -wal file; above SQLiteOptions.WALLimit (64 MiB) it asks the
// checkpointer to catch up (passive checkpoints beside the commits, until
// few frames are left), then runs, between two batches, a RESTART
// checkpoint that copies back the rest and makes the next commit write the
// WAL from its start; an idle room's WAL is truncated instead. Should the
// catch-up fall behind (a checkpointer short of CPU), the writer restarts
// the WAL itself once it reaches three times the limit
// (Stats.ForcedRestarts). Passes that
// make no progress for 50 ms show that a reader holds an older snapshot: the
// restart is skipped (it would hold the write lock waiting for it); the
// restart itself waits for readers at most 200 ms. journal_size_limit is
// set to the limit too. If the WAL stays over the limit, Stats.WALOverLimit
// is raised (an alarm: a reader is pinning the WAL) and the checkpointer
// tries again a period later (wal.go). Stats reports the commits, entries,
// WAL size and limit, checkpoints, restarts, the frames left to the
// writer's restarts and
// checkpoint errors. Without this the WAL grew to 5.8 GB in six minutes at
// 3,300 writes a second: passive checkpoints alone never let the file
// start over while commits keep coming, and each entry of a different table
// dirtied its own 4 KiB page (before the log's tail).
//
// # Refusing files that are not ours
//
// OpenSQLite creates the database when the path does not exist. When it
// exists, it must be a Cardroom database: a zero-length file, a file
// without the "SQLite format 3" header, and an SQLite database whose
// application_id is not ApplicationID ("CRM1"), or is 0 with tables that
// are not Cardroom's, are refused with a *NotCardroomError (errors.Is
// ErrNotCardroom) that names the path and says to move the file away to
// start a new room. The check opens the file read-only, so a refused file
// is left byte for byte as it was. New databases get the application_id;
// a database with id 0 and Cardroom's schema_migrations is one made before
// the id existed, and is stamped. A database that records a migration this
// binary does not know (made by a newer Cardroom) is refused too.
//
// # Damage is per table
//
// UnfinishedIDs lists the open and playing tables from their ids and
// statuses alone, so a server can load each table on its own (Table, then
// Events, then a replay) and quarantine the ones that fail while the rest
// of the room starts. Events never returns a silently shorter log: a gap in
// the sequence, an impossible seat or chance value, and a row SQLite cannot
// read (a damaged page: SQLITE_CORRUPT) are errors naming the table.
// Because the events table is keyed by (table_id, seq), one table's entries
// sit on their own pages, and a damaged page usually fails one table's log
// only. IntegrityCheck runs PRAGMA integrity_check.
//
// # Migrations
//
// migrations/NNN_name.up.sql and NNN_name.down.sql are embedded and applied
// in number order, each in its own transaction, recorded in
// schema_migrations by "NNN_name" (databases from before recorded
// "migrations/001_init.sql"; a migration is identified by its number, so
// those rows stay as they are). MigrateDown undoes migrations for tests.
//
// # Read-only
//
// OpenSQLiteReadOnly opens an existing database with SQLite's mode=ro: no
// migrations, no writer, no checkpoints, writes fail with ErrReadOnly.
// `cardroom doctor` uses it, so it is safe on a running room (where a long
// integrity check is one of the readers that can hold back truncation of
// the WAL for its duration).
package store
