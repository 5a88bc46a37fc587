package store

import (
	"fmt"
	"sync/atomic"
	"time"
)

// The WAL policy.
//
// SQLite appends every commit to the -wal file and copies pages back into
// the database at checkpoints; the file starts over from its beginning
// only after a checkpoint has copied all of it while no transaction was
// using it. A passive checkpoint never waits for anyone, so under a steady
// stream of commits it never gets there: at 3,300 writes a second the WAL
// grew to 5.8 GB in six minutes with a passive checkpoint every second.
// (Each entry of a different table dirties its own 4 KiB leaf page, so the
// WAL grows by about a page per entry, whatever the entry's size.) So:
//
//   - every CheckpointEvery the checkpointer runs a PASSIVE checkpoint on
//     its own connection: cheap, concurrent with commits, no fsync on the
//     commit path;
//   - after each commit the writer looks at the -wal file's size (one
//     stat) and, when it is over WALLimit, runs a TRUNCATE checkpoint
//     itself, between two batches: it copies everything back and cuts the
//     file to zero. Doing it on the writer goroutine is what makes it
//     succeed: a checkpointer competing for the write lock with a writer
//     that commits back to back never got it. Appends queue meanwhile and
//     go into the next, larger batch;
//   - journal_size_limit = WALLimit, so a WAL that SQLite resets on its own
//     is shrunk too;
//   - a truncation cannot finish while a reader (such as `cardroom doctor`
//     on a live room) holds an older snapshot. The writer runs a passive
//     checkpoint first and skips the truncation when it could not copy
//     every frame back (a truncation would hold the write lock waiting for
//     that reader); otherwise the truncation waits for readers at most the
//     checkpoint connection's busy timeout (a quarter of BusyTimeout, at
//     most 200 ms). A WAL still over the limit turns Stats.WALOverLimit on,
//     and the writer tries again only after CheckpointEvery. The checkpointer asks the writer for a
//     truncation when the WAL is over the limit and no commit came to do
//     it (an idle room after the reader left).

type walStats struct {
	checkpoints, errors, truncations atomic.Int64
	overLimit                        atomic.Bool
	lastErr                          atomic.Value // string
	nextTruncate                     time.Time    // writer goroutine only: back-off after a failed truncation
}

// Stats is a snapshot of the SQLite store's counters, for /metrics.
type Stats struct {
	Commits int64 // event-log transactions committed (as CommitStats)
	Entries int64 // entries they held (as CommitStats)

	WALBytes int64 // size of the -wal file now
	WALLimit int64 // SQLiteOptions.WALLimit
	// Checkpoints counts checkpoints run (passive and truncating),
	// Truncations those of them that truncated because the WAL was over its
	// limit, CheckpointErrors the checkpoints that failed or, for a
	// truncation, could not finish (busy).
	Checkpoints, Truncations, CheckpointErrors int64
	// WALOverLimit is the alarm: after the last truncation attempt the WAL
	// was still over WALLimit. It clears when a later checkpoint gets it
	// back under.
	WALOverLimit        bool
	LastCheckpointError string
}

// Stats returns the store's counters and the WAL's current size.
func (s *SQLite) Stats() Stats {
	st := Stats{
		Commits: s.commits.Load(), Entries: s.entries.Load(),
		WALBytes: fileSize(s.walPath()), WALLimit: s.opt.WALLimit,
		Checkpoints: s.wal.checkpoints.Load(), Truncations: s.wal.truncations.Load(),
		CheckpointErrors: s.wal.errors.Load(), WALOverLimit: s.wal.overLimit.Load(),
	}
	if e, ok := s.wal.lastErr.Load().(string); ok {
		st.LastCheckpointError = e
	}
	return st
}

// watchWAL runs on the writer goroutine, outside any transaction: after
// each commit, and when the checkpointer asks (asked). It truncates the
// WAL when it is over the limit, unless a truncation failed less than a
// period ago.
func (s *SQLite) watchWAL(asked bool) {
	if fileSize(s.walPath()) <= s.opt.WALLimit {
		s.wal.overLimit.Store(false)
		return
	}
	if !asked && time.Now().Before(s.wal.nextTruncate) {
		return
	}
	s.wal.truncations.Add(1)
	// First a passive checkpoint: it copies what it can without waiting.
	// If it could not copy every frame, a reader holds an older snapshot,
	// and a truncation would hold the write lock waiting for that reader:
	// skip it rather than stall the room.
	_, logged, done, err := s.checkpoint("PASSIVE")
	if err == nil && done >= logged {
		s.checkpoint("TRUNCATE")
	} else if err == nil {
		s.wal.errors.Add(1)
		s.wal.lastErr.Store(fmt.Sprintf("wal_checkpoint: a reader holds an old snapshot (%d of %d frames copied back)", done, logged))
	}
	over := fileSize(s.walPath()) > s.opt.WALLimit
	s.wal.overLimit.Store(over)
	if over {
		s.wal.nextTruncate = time.Now().Add(s.opt.CheckpointEvery)
	}
}

func (s *SQLite) checkpointer() {
	defer s.wg.Done()
	tk := time.NewTicker(s.opt.CheckpointEvery)
	defer tk.Stop()
	for {
		select {
		case <-s.done:
			// The writer has drained or is draining; once it is gone, nothing
			// else writes: leave an empty WAL behind.
			<-s.stopped
			s.checkpoint("TRUNCATE")
			return
		case <-tk.C:
		}
		if fileSize(s.walPath()) > s.opt.WALLimit {
			select {
			case s.kick <- struct{}{}:
			default:
			}
			continue
		}
		s.checkpoint("PASSIVE")
	}
}

// checkpoint runs one checkpoint on the checkpoint connection and counts
// it. PRAGMA wal_checkpoint answers (busy, frames in the log, frames
// checkpointed); busy means a truncation could not get every reader out of
// the WAL within the connection's busy timeout.
func (s *SQLite) checkpoint(mode string) (busy, logged, done int, err error) {
	s.wal.checkpoints.Add(1)
	err = s.c.QueryRow(`PRAGMA wal_checkpoint(`+mode+`)`).Scan(&busy, &logged, &done)
	switch {
	case err != nil:
		s.wal.errors.Add(1)
		s.wal.lastErr.Store(err.Error())
	case busy != 0 && mode != "PASSIVE":
		s.wal.errors.Add(1)
		s.wal.lastErr.Store("wal_checkpoint(" + mode + "): busy (a reader holds the WAL)")
	}
	return busy, logged, done, err
}
