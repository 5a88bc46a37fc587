package table

import (
	"context"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/store"
)

// BenchmarkBroadcast measures one broadcast to four seats and a spectator
// in the middle of a Papayoo round (the server's main per-move cost).
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
			tb.apply(int(to[0]), tb.st.FormatMove(buf[0]), false)
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

func mustLookup() (game.Engine, error) {
	return gamesLookup("papayoo")
}
