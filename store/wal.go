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
// (Each entry of a different table dirties its own leaf page, so the WAL
// grows by about a page per entry, whatever the entry's size.) So:
//
//   - every CheckpointEvery the checkpointer runs a PASSIVE checkpoint on
//     its own connection: cheap, concurrent with commits, no fsync on the
//     commit path;
//   - after each commit the writer looks at the -wal file's size (one
//     stat). Over WALLimit, it asks the checkpointer to catch up: passive
//     checkpoints, concurrent with the commits, until the frames left to
//     copy back are few (catchUp). Then the writer runs a
//     RESTART checkpoint itself, between two batches: it copies back the
//     few frames left and makes the next commit write the WAL from its
//     start. Doing that on the writer goroutine is what makes it succeed:
//     a checkpointer competing for the write lock with a writer that
//     commits back to back never got it. Appends queue meanwhile and go
//     into the next batch;
//   - a hard cap: should the catch-up fall behind anyway (a checkpointer
//     starved of CPU on a loaded machine: a CI run saw the WAL reach 4.03
//     times its limit), the writer restarts the WAL itself, without
//     waiting for the catch-up, once the file is over walHardCap times
//     the limit. That copy is the writer's stall the catch-up exists to
//     avoid, so it is the backstop, counted in Stats.ForcedRestarts;
//   - journal_size_limit = WALLimit: the first commit of a WAL started over
//     cuts the file back to the limit (the little it overshot);
//   - an idle room's WAL over the limit (nothing more to copy, so nothing
//     competes for the lock) is truncated to nothing by the writer, when
//     the checkpointer finds no commit since its last restart;
//   - a restart cannot finish while a reader (such as `cardroom doctor` on
//     a live room) holds an older snapshot. Passive checkpoints that make
//     no progress for catchUpStuck say so: the restart is skipped (it would
//     hold the write lock waiting for that reader), Stats.WALOverLimit
//     turns on, and the checkpointer tries again a period later; otherwise
//     the restart waits for readers at most the checkpoint connection's
//     busy timeout (a quarter of BusyTimeout, at most 200 ms).
//
// The writer used to copy everything itself, with a passive checkpoint
// and then a TRUNCATE: at 10,000 moves a second it stopped for 60-80 ms
// each time the 64 MiB limit came (every 3 s or so): copying about a
// second of frames, two fsyncs and an ftruncate of 64 MiB of page cache
// (22-26 ms alone), and 1-2% of the moves waited for it. Now the copying
// is done beside the commits, and the writer's share is the last few
// frames and the fsyncs of what they wrote (docs/server.md, "The WAL's
// restart").

type walStats struct {
	checkpoints, errors, restarts atomic.Int64
	left                          atomic.Int64 // frames the catch-ups left to the writer's restarts, summed
	forced                        atomic.Int64 // restarts the writer ran over walHardCap without a catch-up
	overLimit                     atomic.Bool
	lastErr                       atomic.Value // string
	// ready: the checkpointer has caught up with a WAL over the limit, and
	// the writer may restart it (cheaply) at its next chance.
	ready atomic.Bool
	// restartedAt is the count of write transactions (walStats.writes) at
	// the writer's last restart (-1 before the first): a WAL over the
	// limit with no write since is an idle room's.
	restartedAt atomic.Int64
	// writes counts the writer's transactions committed: the appends'
	// and the tail's folds (tail.go).
	writes      atomic.Int64
	restartTime atomic.Int64 // unix ns of the writer's last restart
	// retryAfter (unix ns): after a reader's old snapshot stopped a
	// catch-up or a restart, the writer's requests wait until then; the
	// checkpointer's own period tries again.
	retryAfter atomic.Int64
	// testStall (a func()), when set by a test, runs at the start of each
	// catch-up: a checkpointer that falls behind.
	testStall atomic.Value
}

// Stats is a snapshot of the SQLite store's counters, for /metrics.
type Stats struct {
	Commits int64 // event-log transactions committed (as CommitStats)
	Entries int64 // entries they held (as CommitStats)

	WALBytes int64 // size of the -wal file now
	DBBytes  int64 // size of the database file now (Bytes: both)
	WALLimit int64 // SQLiteOptions.WALLimit
	// Checkpoints counts checkpoints run (passive, restarting and
	// truncating), Restarts those of them that started the WAL over
	// because it was over its limit (a RESTART under load, a TRUNCATE when
	// idle), CheckpointErrors the checkpoints that failed or, for a restart,
	// could not finish (busy), and the catch-ups a reader's old snapshot
	// stopped.
	Checkpoints, Restarts, CheckpointErrors int64
	// RestartBacklog is the frames the checkpointer's catch-ups left for
	// the writer's restarts to copy back, summed: the writer's share of
	// the copying (it copied every frame itself before the catch-up).
	RestartBacklog int64
	// ForcedRestarts counts the restarts the writer ran without waiting
	// for the checkpointer's catch-up, because the WAL had reached
	// walHardCap times its limit (included in Restarts): the catch-up fell
	// behind the commits (most often a machine short of CPU).
	ForcedRestarts int64
	// WALOverLimit is the alarm: after the last restart attempt the WAL
	// was still over WALLimit. It clears when a later checkpoint gets it
	// back under.
	WALOverLimit        bool
	LastCheckpointError string

	// The event log's tail (tail.go): the entries it holds and its limit;
	// the folds into events, the entries they moved, and the folds that
	// failed (with the last one's error).
	TailEntries, TailLimit    int64
	Folds, Folded, FoldErrors int64
	LastFoldError             string
}

// Stats returns the store's counters and the WAL's current size.
func (s *SQLite) Stats() Stats {
	st := Stats{
		Commits: s.commits.Load(), Entries: s.entries.Load(),
		WALBytes: fileSize(s.walPath()), DBBytes: fileSize(s.path), WALLimit: s.opt.WALLimit,
		Checkpoints: s.wal.checkpoints.Load(), Restarts: s.wal.restarts.Load(),
		CheckpointErrors: s.wal.errors.Load(), WALOverLimit: s.wal.overLimit.Load(),
		RestartBacklog: s.wal.left.Load(), ForcedRestarts: s.wal.forced.Load(),
	}
	if e, ok := s.wal.lastErr.Load().(string); ok {
		st.LastCheckpointError = e
	}
	if t := s.tail; t != nil {
		st.TailEntries, st.TailLimit = t.entries.Load(), int64(t.limit)
		st.Folds, st.Folded, st.FoldErrors = t.folds.Load(), t.folded.Load(), t.errs.Load()
		st.LastFoldError, _ = t.lastErr.Load().(string)
	}
	return st
}

// watchWAL runs on the writer goroutine, outside any transaction: after
// each commit, and when the checkpointer says it has caught up. Once the
// checkpointer has caught up with a WAL over the limit, it restarts the
// WAL; before that, it asks the checkpointer to catch up.
func (s *SQLite) watchWAL() {
	if !s.wal.ready.Load() {
		n := fileSize(s.walPath())
		switch {
		case n > walHardCap*s.opt.WALLimit && time.Now().UnixNano() >= s.wal.retryAfter.Load():
			// The catch-up fell behind: restart now (below), copying what
			// is left on the writer goroutine. After a reader's old
			// snapshot stopped a restart, wait as the requests do.
			s.wal.forced.Add(1)
		case n > s.opt.WALLimit:
			select {
			case s.hurry <- struct{}{}:
			default:
			}
			return
		default:
			s.wal.overLimit.Store(false)
			return
		}
	}
	s.wal.ready.Store(false)
	s.wal.restarts.Add(1)
	// Nothing committed since the last restart: an idle room, whose WAL
	// is cut to nothing (nothing waits for the lock meanwhile).
	mode := "RESTART"
	if s.wal.writes.Load() == s.wal.restartedAt.Load() {
		mode = "TRUNCATE"
	}
	busy, _, _, err := s.checkpoint(mode)
	s.wal.restartedAt.Store(s.wal.writes.Load())
	s.wal.restartTime.Store(time.Now().UnixNano())
	if err != nil || busy != 0 {
		s.backOff()
		return
	}
	s.wal.overLimit.Store(mode == "TRUNCATE" && fileSize(s.walPath()) > s.opt.WALLimit)
}

// backOff raises the alarm after a catch-up or restart failed (most
// often a reader's old snapshot): the writer's requests wait a period,
// and the checkpointer's own period tries again.
func (s *SQLite) backOff() {
	s.wal.overLimit.Store(true)
	s.wal.retryAfter.Store(time.Now().Add(s.opt.CheckpointEvery).UnixNano())
}

// letWriterRestart tells the writer it may restart the WAL (watchWAL),
// waking it if it is idle.
func (s *SQLite) letWriterRestart() {
	s.wal.ready.Store(true)
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// catchUpFrames: the checkpointer's catch-up lets the writer restart the
// WAL once fewer frames than this are left to copy back (about 1 ms of
// commits at 4,000 moves a second); after catchUpPasses passive
// checkpoints it lets it restart anyway (the commits outpace the copying).
//
// walHardCap: over this many times WALLimit the writer restarts the WAL
// without waiting for the catch-up (watchWAL). In TestWALBounded (64
// writers, a 1 MiB limit) the catch-up alone kept the file at 1.3 to 3.2
// times the limit on 5 Dec, and let it reach 4 times in a loaded CI run.
const (
	walHardCap    = 3
	catchUpFrames = 256
	catchUpPasses = 4
	catchUpStuck  = 50 * time.Millisecond // passes without progress for this long: a reader's old snapshot
)

// catchUp runs on the checkpointer goroutine when the WAL is over its
// limit: passive checkpoints until the frames left are few, then it lets
// the writer restart the WAL (or, in an idle room, truncate it). A
// reader's old snapshot stops it (the alarm): passes that make no progress
// for catchUpStuck, short of what was logged before they began.
func (s *SQLite) catchUp() {
	if f, ok := s.wal.testStall.Load().(func()); ok {
		f()
	}
	if s.wal.writes.Load() == s.wal.restartedAt.Load() {
		// No commit since the writer's last restart. Soon after it, the
		// next commit will start the WAL over (and cut the file back):
		// wait for it, as passes now would compare frames of two logs.
		// Later, the room is idle: let the writer cut the file.
		if time.Since(time.Unix(0, s.wal.restartTime.Load())) >= s.opt.CheckpointEvery {
			s.letWriterRestart()
		}
		return
	}
	prev, prevDone, left := -1, -1, 0
	var stuck time.Time // since when the passes have made no progress
	for pass := 0; pass < catchUpPasses; {
		_, logged, done, err := s.checkpoint("PASSIVE")
		left = logged - done
		if err != nil {
			s.backOff()
			return
		}
		if logged < prev {
			// A pass copied everything back before a commit came, and that
			// commit started the WAL over on its own (and cut the file
			// back): nothing is left to the writer.
			return
		}
		// Commits come during a pass, so it may end with frames left; but
		// the next copies back what was logged before it began, unless a
		// transaction reads an older snapshot. The writer's own may, for
		// the length of a commit (when it could not mark its snapshot
		// while a checkpoint held the mark); a reader's (say `cardroom
		// doctor`) lasts: wait catchUpStuck before calling it that.
		if prev >= 0 && done < prev && done <= prevDone {
			if stuck.IsZero() {
				stuck = time.Now()
			}
			if time.Since(stuck) >= catchUpStuck {
				s.wal.errors.Add(1)
				s.wal.lastErr.Store(fmt.Sprintf("wal_checkpoint: a reader holds an old snapshot (%d of %d frames copied back)", done, logged))
				s.backOff()
				return
			}
			time.Sleep(catchUpStuck / 10)
			continue
		}
		stuck = time.Time{}
		if prev >= 0 && logged-done < catchUpFrames {
			break
		}
		prev, prevDone = logged, done
		pass++
	}
	// What the last pass left (commits may add more before the writer
	// gets to it, and it copies those too).
	s.wal.left.Add(int64(left))
	s.letWriterRestart()
}

func (s *SQLite) checkpointer() {
	defer s.wg.Done()
	tk := time.NewTicker(s.opt.CheckpointEvery)
	defer tk.Stop()
	for {
		hurried := false
		select {
		case <-s.done:
			// The writer has drained or is draining; once it is gone, nothing
			// else writes: leave an empty WAL behind.
			<-s.stopped
			s.checkpoint("TRUNCATE")
			return
		case <-tk.C:
		case <-s.hurry:
			hurried = true
		}
		switch {
		case s.wal.ready.Load():
			// The writer's restart is due: leave the connection to it.
		case fileSize(s.walPath()) > s.opt.WALLimit:
			if hurried && time.Now().UnixNano() < s.wal.retryAfter.Load() {
				continue
			}
			s.catchUp()
		case !hurried:
			s.checkpoint("PASSIVE")
		}
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
