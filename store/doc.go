// Package store keeps what the card room must not forget: sessions, tables
// (their settings and seats) and each table's event log, which is exactly the
// entries of the game's record. Everything a table holds in memory can be
// rebuilt from its row and its log, so a restarted server (or, later, another
// node) resumes every unfinished game.
//
// Store is the small interface the server uses; SQLite (embedded, the
// default) implements it, and Memory is a map-backed version for tests.
// A PostgreSQL implementation can be added behind the same interface.
//
// TODO(doc): the operating notes are filled in at the end.
package store
