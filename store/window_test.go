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

// The default (adaptive) hold in the store: a table appending alone, one
// entry after another, is never held; many tables appending at once are,
// and every entry of both is committed.
func TestCommitHoldInStore(t *testing.T) {
	st, err := OpenSQLite(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	for seq := range 300 {
		if err := st.Append(ctx, "alone", seq, record.Entry{Seat: 1, Text: "play 1S"}); err != nil {
			t.Fatal(err)
		}
	}
	if n := st.held.Load(); n != 0 {
		t.Errorf("a lone table's 300 appends: %d batches held", n)
	}
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seq := range 20 {
				if err := st.Append(ctx, fmt.Sprint("t", i), seq, record.Entry{Seat: 1, Text: "play 1S"}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if st.held.Load() == 0 {
		t.Error("64 tables appending at once: no batch held")
	}
	for _, id := range []string{"alone", "t0", "t63"} {
		want := 20
		if id == "alone" {
			want = 300
		}
		if ev, err := st.Events(ctx, id); err != nil || len(ev) != want {
			t.Errorf("%s: %d entries, %v; want %d", id, len(ev), err, want)
		}
	}
}
