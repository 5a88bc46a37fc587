package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"cardroom/store"
	"cardroom/table"
)

// TestRecordCacheBound: the finished games kept for replays never exceed
// the bound (Config.RecordCache), a game read again is answered from
// memory, an unfinished one is never kept, and /metrics shows both.
func TestRecordCacheBound(t *testing.T) {
	st := store.NewMemory()
	ctx := context.Background()
	for i := range 10 {
		status := store.StatusFinished
		if i == 9 {
			status = store.StatusPlaying
		}
		if err := st.CreateTable(ctx, store.Table{ID: fmt.Sprint("t", i), Game: "papayoo", Created: time.Now(), Status: status}); err != nil {
			t.Fatal(err)
		}
	}
	c := newRecordCache(4)
	for i := range 10 {
		if _, err := c.get(ctx, st, fmt.Sprint("t", i)); err != nil {
			t.Fatal(err)
		}
		if held, _ := c.stats(); held > 4 {
			t.Fatalf("after %d games the cache holds %d, bound 4", i+1, held)
		}
	}
	if _, hits := c.stats(); hits != 0 {
		t.Errorf("%d hits before any game was read twice", hits)
	}
	c.get(ctx, st, "t8")
	if _, hits := c.stats(); hits != 1 {
		t.Errorf("reading t8 again: %d hits, want 1", hits)
	}
	c.get(ctx, st, "t9")
	c.get(ctx, st, "t9")
	if _, hits := c.stats(); hits != 1 {
		t.Errorf("the unfinished t9 was answered from memory (%d hits)", hits)
	}

	for _, tc := range []struct{ cfg, want int }{{0, 256}, {3, 3}, {-1, MaxRecordCache}, {1 << 20, MaxRecordCache}} {
		s, err := New(Config{Store: store.NewMemory(), Log: quietLog(), RecordCache: tc.cfg})
		if err != nil {
			t.Fatal(err)
		}
		if s.records.max != tc.want {
			t.Errorf("RecordCache %d: bound %d, want %d", tc.cfg, s.records.max, tc.want)
		}
		s.Shutdown(ctx)
	}
	ts := startServer(t, t.TempDir(), table.Config{})
	var body string
	httpJSON(t, "GET", ts.url+"/metrics", "", nil, &body)
	if !strings.Contains(body, "cardroom_record_cache_games 0") || !strings.Contains(body, "cardroom_record_cache_hits_total 0") {
		t.Error("/metrics lacks the record cache's figures")
	}
}
