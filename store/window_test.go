package store

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/record"
)

// TestCommitWindow: with a commit window, appends from tables that come
// one after another within the window share a transaction, every one is
// committed and acknowledged, and a window out of range is refused.
func TestCommitWindow(t *testing.T) {
	for _, bad := range []time.Duration{MaxCommitWindow + 1} {
		if _, err := OpenSQLiteWith(filepath.Join(t.TempDir(), "bad.db"), SQLiteOptions{CommitWindow: bad}); err == nil {
			t.Errorf("commit window %v accepted", bad)
		}
	}
	st, err := OpenSQLiteWith(filepath.Join(t.TempDir(), "t.db"), SQLiteOptions{CommitWindow: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	const tables = 8
	for i := range tables {
		if err := st.CreateTable(ctx, Table{ID: fmt.Sprint("t", i), Game: "papayoo", Created: time.Now(), Status: StatusPlaying}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, tables)
	for i := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Staggered well inside the window.
			time.Sleep(time.Duration(i) * time.Millisecond)
			errs <- st.Append(ctx, fmt.Sprint("t", i), 0, record.Entry{Seat: game.Seat(0), Text: "play 1S"})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	commits, entries := st.CommitStats()
	if entries != tables {
		t.Fatalf("%d entries committed, want %d", entries, tables)
	}
	// Without the window each staggered append would commit alone.
	if commits > 2 {
		t.Errorf("%d commits for %d appends within one window, want 1 or 2", commits, tables)
	}
	for i := range tables {
		ev, err := st.Events(ctx, fmt.Sprint("t", i))
		if err != nil || len(ev) != 1 {
			t.Errorf("table %d: %v, %v", i, ev, err)
		}
	}
}
