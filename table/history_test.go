package table

import (
	"context"
	"encoding/json"
	"testing"
	"testing/synctest"
	"time"

	"cardroom/bot/pool"
	"cardroom/game"
	"cardroom/protocol"
	"cardroom/store"
)

// stateHistory decodes the history part of every state message a
// subscriber got, in order (nil for a message without one).
func stateHistory(t *testing.T, f *fakeSub) []*protocol.MoveHistory {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*protocol.MoveHistory
	for _, b := range f.msgs {
		var m protocol.StateMsg
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("a message does not decode: %v: %s", err, b)
		}
		if m.Type == protocol.TypeState {
			out = append(out, m.History)
		}
	}
	return out
}

// TestHistoryInStates: a subscriber's first state carries the whole
// history and each later one the entries added since the broadcast
// before, so a client that writes entries at their index ends with the
// whole history of the game, which a restarted table rebuilds from the
// log the same (without the stand-in marks, which only the running table
// knows). The silent player's moves are marked timeout; the bots' are not.
func TestHistoryInStates(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		st := store.NewMemory()
		cfg := Config{Store: st, Grace: time.Hour}
		tb, err := Create(context.Background(), cfg, newMeta("t_hist", botSeats("alice", 4), 5000))
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Stop()
		early := &fakeSub{player: "alice"}
		tb.Subscribe(context.Background(), early)
		for i := 0; i < 3; i++ { // the pass, by clock
			time.Sleep(5 * time.Second)
			synctest.Wait()
		}
		late := &fakeSub{player: "bob"} // a spectator who arrives mid-game
		tb.Subscribe(context.Background(), late)
		for i := 0; i < 200 && tb.Summary().Status != store.StatusFinished; i++ {
			time.Sleep(5 * time.Second)
			synctest.Wait()
		}
		if tb.Summary().Status != store.StatusFinished {
			t.Fatal("the game did not finish")
		}
		var whole []byte
		tb.do(context.Background(), func() { whole = append([]byte(nil), tb.histAll()...) })
		var want protocol.MoveHistory
		if err := json.Unmarshal(whole, &want); err != nil || want.From != 0 {
			t.Fatalf("the whole history: %v from %d: %s", err, want.From, whole)
		}
		for _, sub := range []*fakeSub{early, late} {
			hs := stateHistory(t, sub)
			if len(hs) < 2 {
				t.Fatalf("%s: %d states", sub.player, len(hs))
			}
			var list []protocol.HistoryEntry
			for i, h := range hs {
				if h == nil {
					continue
				}
				if h.From > len(list) || len(h.Entries) == 0 {
					t.Fatalf("%s: state %d: history from %d with %d entries, the client has %d", sub.player, i, h.From, len(h.Entries), len(list))
				}
				if i == 0 && h.From != 0 {
					t.Errorf("%s: the first state's history starts at %d", sub.player, h.From)
				}
				list = append(list[:h.From], h.Entries...)
			}
			got, _ := json.Marshal(list)
			if w, _ := json.Marshal(want.Entries); string(got) != string(w) {
				t.Errorf("%s: the history put together from the states:\n%s\nwant\n%s", sub.player, got, w)
			}
		}
		kinds := map[string]int{}
		for _, e := range want.Entries {
			kinds[e.Kind]++
			if (e.Kind == "pass" || e.Kind == "play") && (e.Seat == 0) != (e.By == "timeout") {
				t.Errorf("entry %+v: only seat 0's moves are by timeout", e)
			}
		}
		if kinds["pass"] != 4 || kinds["play"] != 60 || kinds["trick"] != 15 || kinds["round"] != 1 || kinds["deal"] != 1 || kinds["die"] != 1 {
			t.Errorf("kinds %v: want a whole 4-player round", kinds)
		}

		// A restart rebuilds the same history from the log, unmarked.
		ev, _ := st.Events(context.Background(), "t_hist")
		meta := mustTable(t, st, "t_hist")
		tb2, err := Restore(cfg, meta, ev)
		if err != nil {
			t.Fatal(err)
		}
		defer tb2.Stop()
		var again []byte
		tb2.do(context.Background(), func() { again = append([]byte(nil), tb2.histAll()...) })
		var rebuilt protocol.MoveHistory
		json.Unmarshal(again, &rebuilt)
		for i := range want.Entries {
			want.Entries[i].By = ""
		}
		if g, w := mustJSON(rebuilt.Entries), mustJSON(want.Entries); string(g) != string(w) {
			t.Errorf("the restored table's history:\n%s\nwant\n%s", g, w)
		}
	})
}

// TestTrickPause: while someone watches, the bot after a closed trick
// waits the trick pause; with nobody watching, bots do not wait.
func TestTrickPause(t *testing.T) {
	needPapayoo(t)
	for _, watched := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			cfg := Config{Store: store.NewMemory(), TrickPause: 2 * time.Second}
			seats := botSeats("", 4)
			seats[3] = store.Seat{} // the game starts when the owner fills it
			tb, err := Create(context.Background(), cfg, newMeta("t_pace", seats, 0))
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Stop()
			if watched {
				tb.Subscribe(context.Background(), &fakeSub{player: "x"})
			}
			if err := tb.SetBot(context.Background(), "p_owner", 3, "random"); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			for tb.Summary().Status != store.StatusFinished && time.Since(start) < time.Hour {
				time.Sleep(100 * time.Millisecond)
				synctest.Wait()
			}
			took := time.Since(start)
			// 15 tricks: a pause after each of the first 14 (the last
			// ends the game).
			if watched && (took < 28*time.Second || took > 31*time.Second) {
				t.Errorf("watched: the game took %v, want 14 pauses of 2 s", took)
			}
			if !watched && took > time.Second {
				t.Errorf("unwatched: the game took %v, want no pauses", took)
			}
		})
	}
}

// TestTimeoutStandIn: when the clock runs out the stand-in is the medium
// bot, whatever the table's level for absent players; when the pool
// refuses it, the first legal move is played at once (the player has
// waited long enough); either way the move is marked timeout.
func TestTimeoutStandIn(t *testing.T) {
	needPapayoo(t)
	for _, refuse := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			cfg := Config{Store: store.NewMemory(), Grace: time.Hour}
			if refuse {
				p := pool.New(1, 1)
				p.Close() // refuses every decision
				cfg.Pool = p
			}
			meta := newMeta("t_to", botSeats("alice", 4), 5000)
			meta.BotLevel = "random"
			tb, err := Create(context.Background(), cfg, meta)
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Stop()
			sub := &fakeSub{player: "alice"}
			tb.Subscribe(context.Background(), sub)
			synctest.Wait()
			var first string
			tb.do(context.Background(), func() { first = tb.st.FormatMove(tb.st.Legal(0, nil)[0]) })
			time.Sleep(5*time.Second + 100*time.Millisecond)
			synctest.Wait()
			var logged, level string
			var hist []byte
			tb.do(context.Background(), func() {
				for _, e := range tb.log.entries() {
					if !e.Chance && e.Seat == 0 {
						logged = e.Text
					}
				}
				level = tb.seats[0].botLevel
				hist = append([]byte(nil), tb.histAll()...)
			})
			if logged == "" {
				t.Fatal("the clock ran out and seat 0 did not move")
			}
			if refuse && logged != first {
				t.Errorf("pool refused: seat 0 played %q, want the first legal move %q", logged, first)
			}
			if !refuse && level != timeoutLevel {
				t.Errorf("the stand-in's level is %q, want %q", level, timeoutLevel)
			}
			var h protocol.MoveHistory
			json.Unmarshal(hist, &h)
			marked := false
			for _, e := range h.Entries {
				if e.Seat == 0 && e.Kind == "pass" {
					marked = e.By == "timeout" && e.Count == 5 && e.To != nil && *e.To == 1
				}
			}
			if !marked {
				t.Errorf("seat 0's pass is not in the history as a timeout: %s", hist)
			}
		})
	}
}

// TestHistoryBounded: a table holds at most histKeep entries however long
// its game; the first message still carries the last MaxHistory, and the
// indices go on counting from the game's start.
func TestHistoryBounded(t *testing.T) {
	needPapayoo(t)
	tb, err := Create(context.Background(), Config{Store: store.NewMemory()}, newMeta("t_long", botSeats("alice", 4), 0))
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Stop()
	const n = 3 * protocol.MaxHistory
	tb.do(context.Background(), func() {
		tb.hist = tableHistory{steps: tb.log.len()} // current: histSync keeps it
		for i := range n {
			tb.histAdd(&game.Entry{Seat: game.Seat(i % 4), Kind: game.KindDraw, Count: i + 1})
			if len(tb.hist.offs) > histKeep {
				t.Fatalf("after %d entries %d are held, more than %d", i+1, len(tb.hist.offs), histKeep)
			}
		}
		var h protocol.MoveHistory
		if err := json.Unmarshal(tb.histAll(), &h); err != nil {
			t.Fatal(err)
		}
		if h.From != n-protocol.MaxHistory || len(h.Entries) != protocol.MaxHistory || h.Entries[0].Count != h.From+1 || h.Entries[len(h.Entries)-1].Count != n {
			t.Errorf("the whole history of a long game: from %d, %d entries, first count %d, last %d", h.From, len(h.Entries), h.Entries[0].Count, h.Entries[len(h.Entries)-1].Count)
		}
		tb.hist.sent = 10 // a broadcast long ago: only what is still held is sent
		json.Unmarshal(tb.histNew(), &h)
		if h.From != n-protocol.MaxHistory || tb.hist.sent != n {
			t.Errorf("new entries since an old broadcast: from %d, sent %d", h.From, tb.hist.sent)
		}
	})
}

// BenchmarkHistoryStep measures what the history adds to one step of a
// table: the clone of the state before it, the engine's description and
// the entries' encoding, over the steps of random games of every engine.
func BenchmarkHistoryStep(b *testing.B) {
	for _, g := range []struct{ name, opts string }{
		{"papayoo", "players=4 rounds=1"}, {"rum500", "players=4 target=100"}, {"pisyedili", "players=4 hands=1"},
	} {
		b.Run(g.name, func(b *testing.B) {
			eng, err := gamesLookup(g.name)
			if err != nil {
				b.Skip(err)
			}
			h := eng.(game.Historian)
			o, _ := game.ParseOptions(g.opts)
			rng := game.NewRand(1)
			var moves []game.Move
			var entries []game.Entry
			var out []byte
			st, _ := eng.New(o)
			b.ReportAllocs()
			for b.Loop() {
				if st.Over() {
					st, _ = eng.New(o)
				}
				before := st.Clone()
				if st.ChancePending() {
					st.RollChance(&rng)
					entries = h.AppendChance(entries[:0], before, st)
				} else {
					s := st.ToAct(nil)[0]
					moves = st.Legal(s, moves[:0])
					m := moves[rng.IntN(len(moves))]
					st.Apply(s, m)
					entries = h.AppendMove(entries[:0], before, st, s, m, "")
				}
				out = out[:0]
				for i := range entries {
					out = entries[i].AppendJSON(out, eng.Deck())
				}
			}
		})
	}
}
