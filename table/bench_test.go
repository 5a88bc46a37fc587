package table

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/record"
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
			benchMoves(b, g.name, g.opts, false)
		})
		// As connections are: Queuers that write at once, so the table
		// reuses its messages' memory.
		b.Run(g.name+"/queued", func(b *testing.B) {
			if _, err := gamesLookup(g.name); err != nil {
				b.Skip(err)
			}
			benchMoves(b, g.name, g.opts, true)
		})
	}
}

// dropQueuer is a connection whose socket takes everything at once: it
// counts what it is given and holds nothing.
type dropQueuer struct {
	player string
	msgs   int
}

func (d *dropQueuer) Player() string      { return d.player }
func (d *dropQueuer) Send(b []byte) bool  { d.msgs++; return true }
func (d *dropQueuer) Queue(b []byte) bool { d.msgs++; return true }
func (d *dropQueuer) Flush() bool         { return true }
func (d *dropQueuer) take() (n int)       { n, d.msgs = d.msgs, 0; return n }
func (f *fakeSub) take() (n int)          { n = len(f.msgs); f.msgs = f.msgs[:0]; return n }

// benchMoves plays random moves; queued: the subscribers are dropQueuers.
func benchMoves(b *testing.B, name, opts string, queued bool) {
	players := []string{"a", "b", "c", "d"}
	subs := map[string]interface {
		Subscriber
		take() int
	}{}
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
			if queued {
				subs[p] = &dropQueuer{player: p}
			} else {
				subs[p] = &fakeSub{player: p}
			}
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
				msgs += f.take()
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

// BenchmarkTableHeld reports what a running table holds between moves:
// the live heap (after a collection) and the goroutine stack bytes a
// table, over 200 Papayoo tables of four people, four subscribers each
// (that drop what they are sent), 60 moves into their game. The store
// keeps nothing (its events are not the table's memory), so the figure
// is the table package's own: its state, log, history, caches and
// goroutine (docs/server.md, "Figures after the memory work").
//
//	go test ./table -run '^$' -bench TableHeld -benchtime 1x
func BenchmarkTableHeld(b *testing.B) {
	if _, err := mustLookup(); err != nil {
		b.Skip(err)
	}
	const n, moves = 200, 60
	players := []string{"a", "b", "c", "d"}
	var heap, stack float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		st := discardStore{store.NewMemory()}
		m := NewMetrics() // the server shares one
		tables := make([]*Table, n)
		rng := rand.New(rand.NewPCG(1, 2))
		var buf []game.Move
		for i := range tables {
			seats := make([]store.Seat, 4)
			for k, p := range players {
				seats[k] = store.Seat{Player: p, Name: p}
			}
			meta := store.Table{ID: fmt.Sprintf("t_held%d", i), Game: "papayoo", Options: "players=4 rounds=100", Seed: uint64(i + 1), Owner: "a", Seats: seats}
			tb, err := Create(context.Background(), Config{Store: st, Grace: time.Hour, Metrics: m}, meta)
			if err != nil {
				b.Fatal(err)
			}
			tables[i] = tb
			subs := make([]dropSub, len(players))
			for k, p := range players {
				subs[k] = dropSub(p)
				if _, err := tb.Subscribe(context.Background(), subs[k]); err != nil {
					b.Fatal(err)
				}
			}
			for range moves {
				tb.do(context.Background(), func() {
					to := tb.st.ToAct(nil)
					s := to[rng.IntN(len(to))]
					buf = tb.st.Legal(s, buf[:0])
					tb.move(subs[s], nil, s, tb.st.FormatMove(buf[rng.IntN(len(buf))]), time.Now())
				})
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / n
		stack = float64(int64(after.StackInuse)-int64(before.StackInuse)) / n
		for _, tb := range tables {
			tb.Stop()
		}
	}
	b.ReportMetric(heap, "heap-B/table")
	b.ReportMetric(stack, "stack-B/table")
}

// discardStore is a store that keeps nothing of the tables.
type discardStore struct{ store.Store }

func (discardStore) Append(context.Context, string, int, record.Entry) error { return nil }
func (discardStore) CreateTable(context.Context, store.Table) error          { return nil }
func (discardStore) UpdateTable(context.Context, store.Table) error          { return nil }

// dropSub is a subscriber that drops what it is sent.
type dropSub string

func (d dropSub) Player() string   { return string(d) }
func (dropSub) Send(b []byte) bool { return true }
