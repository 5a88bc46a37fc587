package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/games"
	"cardroom/record"
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

// TestReplayMarks: a cached game's state at any step, played from its
// nearest replay mark, is the state the whole log replayed gives (the
// same view for every seat and the spectator), asked in any order; a game
// keeps at most maxMarks marks, so a step of the longest game plays fewer
// than markEvery entries of it.
func TestReplayMarks(t *testing.T) {
	needGame(t, "papayoo")
	eng, _ := games.Lookup("papayoo")
	st, err := eng.New(game.Options{"players": "4", "rounds": "30"})
	if err != nil {
		t.Fatal(err)
	}
	rng := game.NewRand(7)
	rc := record.NewRecorder(eng, st.Options(), nil, "")
	if err := record.Play(st, &rng, record.RandomPolicy(&rng), rc, 0); err != nil {
		t.Fatal(err)
	}
	f := &finished{meta: store.Table{ID: "t_marks", Game: "papayoo", Options: st.Options().String()}, events: rc.Rec.Entries}
	n := len(f.events)
	every := markEvery(n)
	if n < 3*every {
		t.Fatalf("the game has %d entries: too short for marks every %d", n, every)
	}
	steps := []int{n, 0, every, every - 1, every + 1, 2*every + 7, n - 1, 1}
	for range 20 {
		steps = append(steps, rng.IntN(n+1))
	}
	for _, step := range steps {
		got, err := f.stateAt(eng, step)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		r := *rc.Rec
		r.Entries = f.events[:step]
		want, err := record.Replay(eng, &r, nil)
		if err != nil {
			t.Fatal(err)
		}
		for o := game.Spectator; int(o) < want.Seats(); o++ {
			a, _ := json.Marshal(got.View(o))
			b, _ := json.Marshal(want.View(o))
			if string(a) != string(b) {
				t.Fatalf("step %d, seat %d: from the mark\n%s\nfrom the start\n%s", step, o, a, b)
			}
		}
	}
	if len(f.marks) > maxMarks+1 || len(f.marks) != n/every+1 {
		t.Errorf("%d marks for %d entries every %d", len(f.marks), n, every)
	}
	for _, c := range []struct{ entries, want int }{{0, minMarkEvery}, {100, minMarkEvery}, {100_000, 6250}} {
		if got := markEvery(c.entries); got != c.want {
			t.Errorf("markEvery(%d) = %d, want %d", c.entries, got, c.want)
		}
	}
}

// TestRecordCacheEntries: the record cache also bounds the log entries it
// holds: games are forgotten to make room, and a game alone over the bound
// is read but not kept.
func TestRecordCacheEntries(t *testing.T) {
	st := store.NewMemory()
	ctx := context.Background()
	for i := range 6 {
		id := fmt.Sprint("t", i)
		if err := st.CreateTable(ctx, store.Table{ID: id, Game: "papayoo", Created: time.Now(), Status: store.StatusFinished}); err != nil {
			t.Fatal(err)
		}
		size := 40
		if i == 5 {
			size = 200 // over the bound alone
		}
		for seq := range size {
			if err := st.Append(ctx, id, seq, record.Entry{Chance: true, Text: "x"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	c := newRecordCache(100)
	c.maxEntries = 100
	for i := range 5 {
		if _, err := c.get(ctx, st, fmt.Sprint("t", i)); err != nil {
			t.Fatal(err)
		}
		if c.entries > 100 || c.entries != 40*len(c.m) {
			t.Fatalf("after %d games: %d games, %d entries held; bound 100", i+1, len(c.m), c.entries)
		}
	}
	f, err := c.get(ctx, st, "t5")
	if err != nil || len(f.events) != 200 {
		t.Fatalf("the long game: %v, %d entries", err, len(f.events))
	}
	if c.m["t5"] != nil || c.entries > 100 {
		t.Errorf("a game over the bound alone was kept: %d entries held", c.entries)
	}
}
