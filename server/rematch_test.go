package server

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/protocol"
	"cardroom/store"
)

// finishedGame plays a Papayoo game of alice (seat 0, an account), bob
// (seat 1, a guest) and two bots to its end and returns the room, the
// clients and the table.
func finishedGame(t *testing.T) (*testServer, *client, *client, string) {
	t.Helper()
	needGame(t, "papayoo")
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, Accounts: fastHashes})
	// alice holds an account (her seat is marked), bob is a guest.
	alice := dial(t, ts.url, newMember(t, ts.url, "alice")) // ratings_test.go
	bob := dial(t, ts.url, newSession(t, ts.url, "bob"))
	id := alice.createTable(map[string]any{"game": "papayoo", "options": quickOptions("papayoo"), "seat": 0,
		"bots": map[string]string{"2": "random", "3": "random"}})
	bob.send(map[string]any{"type": "join", "table": id, "seat": 1})
	bob.expect("joined", nil)
	var wg sync.WaitGroup
	for i, c := range []*client{alice, bob} {
		wg.Add(1)
		go func() { defer wg.Done(); c.play(id, uint64(i+1), nil) }()
	}
	waitOrFail(t, &wg, 90*time.Second)
	if t.Failed() {
		t.FailNow()
	}
	return ts, alice, bob, id
}

func isRematch(state string) func(msg) bool {
	return func(m msg) bool { return m.str("state") == state }
}

// TestRematch: alice offers (the bots accept at once), bob accepts, and
// the rematch table has the same seats and options and starts; a decline
// instead creates nothing.
func TestRematch(t *testing.T) {
	t.Run("accepted", func(t *testing.T) {
		ts, alice, bob, id := finishedGame(t)
		alice.send(map[string]any{"type": "rematch", "table": id})
		m := bob.expect("rematch", isRematch("offered"))
		if w, _ := m["waiting"].([]any); len(w) != 1 || w[0] != float64(1) {
			t.Errorf("offer: waiting %v, want [1]", m["waiting"])
		}
		if a, _ := m["accepted"].([]any); len(a) != 3 {
			t.Errorf("offer: accepted %v, want alice and the two bots", m["accepted"])
		}
		bob.send(map[string]any{"type": "rematch", "table": id, "accept": true})
		started := alice.expect("rematch", isRematch("started"))
		nid := started.str("new_table")
		if nid == "" || nid == id {
			t.Fatalf("started: %v", started)
		}
		series, _ := started["series"].(map[string]any)
		if series["games"] != float64(1) {
			t.Errorf("series %v, want one game", series)
		}
		old, nt := ts.s.table(id).Summary(), ts.s.table(nid)
		if nt == nil {
			t.Fatal("the rematch table is not in the room")
		}
		ns := nt.Summary()
		if ns.Status != "playing" || ns.Game != old.Game || ns.Options.String() != old.Options.String() || len(ns.Seats) != len(old.Seats) {
			t.Errorf("rematch %+v, old %+v", ns, old)
		}
		if !old.Seats[0].Account || old.Seats[1].Account {
			t.Errorf("account marks of the first game's seats: %+v, want alice's alone", old.Seats)
		}
		for i := range old.Seats {
			o, n := old.Seats[i], ns.Seats[i]
			if o.Player != n.Player || o.Kind != n.Kind || o.Level != n.Level || o.Account != n.Account {
				t.Errorf("seat %d: %+v, was %+v", i, n, o)
			}
		}
		// A late accept is answered with the started offer, not a second table.
		bob.send(map[string]any{"type": "rematch", "table": id})
		if m := bob.expect("rematch", nil); m.str("new_table") != nid {
			t.Errorf("late accept: %v", m)
		}
		// Watching the rematch shows the series.
		alice.send(map[string]any{"type": "watch", "table": nid})
		if m := alice.expect("rematch", func(m msg) bool { return m.str("table") == nid }); m.str("state") != "none" {
			t.Errorf("on watch of the rematch: %v", m)
		}
	})
	t.Run("declined", func(t *testing.T) {
		ts, alice, bob, id := finishedGame(t)
		ts.s.mu.Lock()
		before := len(ts.s.tables)
		ts.s.mu.Unlock()
		alice.send(map[string]any{"type": "rematch", "table": id})
		bob.expect("rematch", isRematch("offered"))
		bob.send(map[string]any{"type": "rematch", "table": id, "accept": false})
		if m := alice.expect("rematch", isRematch("declined")); m.str("new_table") != "" || m.str("by") != bob.sess.Player {
			t.Errorf("declined: %v", m)
		}
		ts.s.mu.Lock()
		after := len(ts.s.tables)
		ts.s.mu.Unlock()
		if after != before {
			t.Errorf("tables %d → %d after a decline", before, after)
		}
	})
	t.Run("refusals", func(t *testing.T) {
		needGame(t, "papayoo")
		ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000})
		alice := dial(t, ts.url, newSession(t, ts.url, "alice"))
		id := alice.createTable(map[string]any{"game": "papayoo", "options": quickOptions("papayoo"), "seat": 0})
		alice.send(map[string]any{"type": "rematch", "table": id})
		if m := alice.expect("error", nil); m.str("code") != "not_finished" {
			t.Errorf("rematch of an open table: %v", m)
		}
	})
}

// countingTables is a store that counts its Table reads.
type countingTables struct {
	store.Store
	reads atomic.Int64
}

func (c *countingTables) Table(ctx context.Context, id string) (store.Table, error) {
	c.reads.Add(1)
	return c.Store.Table(ctx, id)
}

// TestSeriesReadOnce: a series' score (sent on every watch of its tables,
// anonymous watchers included) reads each game that is over from the store
// once, not on every call (a watch of a table at the end of a 100-game
// series cost 100 reads), and a game still in play is read again until it
// is over; the score is the same either way.
func TestSeriesReadOnce(t *testing.T) {
	st := &countingTables{Store: store.NewMemory()}
	ts := startServerCfg(t, t.TempDir(), Config{Store: st})
	ctx := context.Background()
	seats := []store.Seat{{Player: "p_a", Name: "alice"}, {Bot: "random"}}
	var chain []string
	for i := range 5 {
		id := fmt.Sprintf("t_s%d", i)
		tb := store.Table{ID: id, Game: "papayoo", Owner: "p_a", Seats: seats, Status: store.StatusFinished, Winners: []game.Seat{game.Seat(i % 2)}}
		if i == 4 {
			tb.Status, tb.Winners = store.StatusPlaying, nil
		}
		if err := st.CreateTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
		chain = append(chain, id)
	}
	ts.s.rematches.mu.Lock()
	ts.s.rematches.chains["t_s4"] = chain[:4]
	ts.s.rematches.mu.Unlock()
	want := protocol.Series{Games: 4, Wins: []protocol.SeriesScore{{Player: "p_a", Name: "alice", Wins: 2}, {Player: "bot:random", Name: "bot:random", Wins: 2}}}
	for i, reads := range []int64{5, 1, 1} { // then only the game in play
		before := st.reads.Load()
		if got := ts.s.series(ctx, "t_s4"); !reflect.DeepEqual(got, want) {
			t.Fatalf("call %d: series %+v, want %+v", i, got, want)
		}
		if n := st.reads.Load() - before; n != reads {
			t.Errorf("call %d read %d tables, want %d", i, n, reads)
		}
	}
	// The last game ends: it counts, and is read once more, then never.
	tb, _ := st.Store.Table(ctx, "t_s4")
	tb.Status, tb.Winners = store.StatusFinished, []game.Seat{0}
	st.UpdateTable(ctx, tb)
	want.Games, want.Wins[0].Wins = 5, 3
	for i, reads := range []int64{1, 0} {
		before := st.reads.Load()
		if got := ts.s.series(ctx, "t_s4"); !reflect.DeepEqual(got, want) {
			t.Fatalf("after the end, call %d: series %+v, want %+v", i, got, want)
		}
		if n := st.reads.Load() - before; n != reads {
			t.Errorf("after the end, call %d read %d tables, want %d", i, n, reads)
		}
	}
}

// TestSeriesBounds: the series memory holds at most Config.MaxSeries
// results (then it is cleared and counted in
// cardroom_series_forgotten_total, and a result is read again), and an
// offer older than Config.RematchTTL is dropped (cardroom_rematch_offers
// counts only those waiting).
func TestSeriesBounds(t *testing.T) {
	st := &countingTables{Store: store.NewMemory()}
	ts := startServerCfg(t, t.TempDir(), Config{Store: st, MaxSeries: 3, RematchTTL: time.Minute})
	ctx := context.Background()
	seats := []store.Seat{{Player: "p_a", Name: "alice"}, {Bot: "random"}}
	for i := range 4 {
		tb := store.Table{ID: fmt.Sprintf("t_b%d", i), Game: "papayoo", Owner: "p_a", Seats: seats, Status: store.StatusFinished, Winners: []game.Seat{0}}
		if err := st.CreateTable(ctx, tb); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 {
		ts.s.seriesGame(ctx, fmt.Sprintf("t_b%d", i))
	}
	if n := metricInt(t, ts.url, "cardroom_series_results"); n != 3 {
		t.Fatalf("cardroom_series_results %d, want 3", n)
	}
	if n := metricInt(t, ts.url, "cardroom_series_forgotten_total"); n != 0 {
		t.Fatalf("cardroom_series_forgotten_total %d before the bound", n)
	}
	ts.s.seriesGame(ctx, "t_b3") // the fourth: the memory is cleared first
	if n := metricInt(t, ts.url, "cardroom_series_results"); n != 1 {
		t.Errorf("cardroom_series_results %d past the bound, want 1", n)
	}
	if n := metricInt(t, ts.url, "cardroom_series_forgotten_total"); n != 1 {
		t.Errorf("cardroom_series_forgotten_total %d, want 1", n)
	}
	before := st.reads.Load()
	if g := ts.s.seriesGame(ctx, "t_b0"); !g.counts || st.reads.Load() != before+1 {
		t.Errorf("a forgotten result: %+v with %d reads, want it read again", g, st.reads.Load()-before)
	}

	rm := ts.s.rematches
	rm.mu.Lock()
	rm.offers["t_old"] = &rematchOffer{created: time.Now().Add(-2 * time.Minute)}
	rm.offers["t_new"] = &rematchOffer{created: time.Now().Add(-30 * time.Second)}
	rm.mu.Unlock()
	if n := metricInt(t, ts.url, "cardroom_rematch_offers"); n != 1 {
		t.Errorf("cardroom_rematch_offers %d, want 1 (one is past -rematch-ttl)", n)
	}
	rm.mu.Lock()
	_, old := rm.offers["t_old"]
	rm.mu.Unlock()
	if old {
		t.Error("the offer past the TTL is still held")
	}
}
