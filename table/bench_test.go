package table

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/store"
)

// BenchmarkBroadcast measures one broadcast to four seats and a spectator
// in the middle of a Papayoo round.
func BenchmarkBroadcast(b *testing.B) {
	if _, err := mustLookup(); err != nil {
		b.Skip(err)
	}
	seats := []store.Seat{{Player: "a", Name: "a"}, {Player: "b", Name: "b"}, {Player: "c", Name: "c"}, {Player: "d", Name: "d"}}
	tb, err := Create(context.Background(), Config{Store: store.NewMemory(), Grace: time.Hour}, newMeta("t_b", seats, 0))
	if err != nil {
		b.Fatal(err)
	}
	defer tb.Stop()
	subs := []*fakeSub{{player: "a"}, {player: "b"}, {player: "c"}, {player: "d"}, {player: "x"}}
	for _, s := range subs {
		tb.Subscribe(context.Background(), s)
	}
	// Play the pass and a few tricks with the first legal move.
	tb.do(context.Background(), func() {
		var buf []game.Move
		for i := 0; i < 30 && !tb.st.Over(); i++ {
			if tb.st.ChancePending() {
				tb.advance()
				continue
			}
			to := tb.st.ToAct(nil)
			buf = tb.st.Legal(to[0], buf[:0])
			tb.apply(to[0], tb.st.FormatMove(buf[0]), false)
		}
	})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tb.do(context.Background(), func() {
			tb.broadcast()
			for _, s := range subs {
				s.msgs = s.msgs[:0]
			}
		})
	}
}

// BenchmarkMove measures the table's whole work for one move of a 4-player
// game with four connected players and a spectator: parse, apply, log
// (in-memory store), ack, one state message per seat and the spectator's,
// and the chance steps that follow. This is the server's CPU per move
// without the WebSocket reads and writes and the SQLite commit. Moves are
// random legal moves (the driver's own Legal call is included). The
// hand-written encoding is compared with plain encoding/json in protocol's
// BenchmarkState.
func BenchmarkMove(b *testing.B) {
	for _, g := range []struct{ name, opts string }{
		{"papayoo", "players=4 rounds=100"},
		{"rum500", "players=4"},
		{"pisyedili", "players=4"},
	} {
		b.Run(g.name, func(b *testing.B) {
			if _, err := gamesLookup(g.name); err != nil {
				b.Skip(err)
			}
			benchMoves(b, g.name, g.opts)
		})
	}
}

// benchMoves plays random moves.
func benchMoves(b *testing.B, name, opts string) {
	players := []string{"a", "b", "c", "d"}
	subs := map[string]*fakeSub{}
	var tb *Table
	n := 0
	start := func() {
		if tb != nil {
			tb.Stop()
		}
		n++
		seats := make([]store.Seat, 4)
		for i, p := range players {
			seats[i] = store.Seat{Player: p, Name: p}
		}
		meta := store.Table{ID: "t_bench", Game: name, Options: opts, Seed: uint64(n), Owner: "a", Seats: seats}
		var err error
		tb, err = Create(context.Background(), Config{Store: store.NewMemory(), Grace: time.Hour}, meta)
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range append(players, "x") {
			subs[p] = &fakeSub{player: p}
			if _, err := tb.Subscribe(context.Background(), subs[p]); err != nil {
				b.Fatal(err)
			}
		}
	}
	start()
	defer func() { tb.Stop() }()
	rng := rand.New(rand.NewPCG(1, 2))
	var buf []game.Move
	b.ReportAllocs()
	b.ResetTimer()
	msgs := 0
	for i := 0; i < b.N; i++ {
		var over bool
		tb.do(context.Background(), func() {
			over = tb.st.Over()
			if over {
				return
			}
			to := tb.st.ToAct(nil)
			s := to[rng.IntN(len(to))]
			buf = tb.st.Legal(s, buf[:0])
			m := buf[rng.IntN(len(buf))]
			tb.move(subs[players[s]], nil, s, tb.st.FormatMove(m), time.Now())
			for _, f := range subs {
				msgs += len(f.msgs)
				f.msgs = f.msgs[:0]
			}
		})
		if over {
			b.StopTimer()
			start()
			b.StartTimer()
		}
	}
	b.ReportMetric(float64(msgs)/float64(b.N), "msgs/op")
}

func mustLookup() (game.Engine, error) {
	return gamesLookup("papayoo")
}
