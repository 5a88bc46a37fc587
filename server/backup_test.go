package server

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"cardroom/store"
	"cardroom/table"
)

// TestBackupMidGameRestores takes a backup from another store handle (as
// `cardroom backup` does from its own process) while a room runs with a
// game in play, plays on past the backup, then starts a second room on
// the backup alone: the game resumes at the backup's position with the
// same hands, and finishes. The backup refuses an existing destination.
func TestBackupMidGameRestores(t *testing.T) {
	needGame(t, "papayoo")
	dir := t.TempDir()
	ts := startServer(t, dir, table.Config{})
	sess := newSession(t, ts.url, "alice")
	c := dial(t, ts.url, sess)
	id := seatAll(t, c)
	last := c.play(id, 7, atLeast(20))
	ackSeq, mv := oneMore(t, c, id, last)
	before := statesAt(c, ackSeq)

	restored := t.TempDir()
	dest := filepath.Join(restored, "cardroom.db")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	info, err := store.BackupFile(ctx, filepath.Join(dir, "cardroom.db"), dest)
	if err != nil {
		t.Fatalf("backup of the running room: %v", err)
	}
	if info.Unfinished != 1 || info.Bytes == 0 {
		t.Errorf("backup info %+v: want 1 unfinished table", info)
	}
	if _, err := store.BackupFile(ctx, filepath.Join(dir, "cardroom.db"), dest); !errors.Is(err, store.ErrBackupExists) {
		t.Errorf("a second backup onto the first: %v, want ErrBackupExists", err)
	}
	if left, _ := filepath.Glob(filepath.Join(restored, ".*partial*")); len(left) > 0 {
		t.Errorf("temporary files left beside the backup: %v", left)
	}

	// The room plays on after the backup: those moves are not in it.
	c.send(map[string]any{"type": "watch", "table": id}) // the states again, for play
	if moved := c.play(id, 9, atLeast(ackSeq+6)); moved[0].Seq < ackSeq+6 {
		t.Fatalf("the room did not play on after the backup: seq %d", moved[0].Seq)
	}
	ts.stop()
	c.close()
	for _, f := range []string{"cardroom.db-wal", "cardroom.db-shm"} {
		if _, err := os.Stat(filepath.Join(restored, f)); err == nil {
			t.Errorf("the backup came with %s: it must be one self-contained file", f)
		}
	}

	ts2 := startServer(t, restored, table.Config{})
	if q := ts2.s.Quarantined(); len(q) != 0 {
		t.Fatalf("restored room quarantined %v", q)
	}
	c2, after := resume(t, ts2.url, sess, id)
	for seat := range before {
		if after[seat].Seq != before[seat].Seq {
			t.Errorf("seat %d: restored at seq %d, want the backup's %d", seat, after[seat].Seq, before[seat].Seq)
		}
		if string(before[seat].View) != string(after[seat].View) {
			t.Errorf("seat %d: view after restore differs:\n%s\n%s", seat, before[seat].View, after[seat].View)
		}
	}
	finishAndCheck(t, c2, ts2.url, id, ackSeq, mv)
}
