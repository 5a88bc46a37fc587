package rum500

import (
	"encoding/json"
	"testing"

	"cardroom/game"
)

// midHand is a 4-player game (two jokers per deck) in the middle of its
// second hand: melds on the table, a discard pile, known cards, a history
// and a finished hand's scores.
func midHand(tb testing.TB) *State {
	st, err := Engine{}.New(game.Options{"players": "4", "jokers": "2"})
	if err != nil {
		tb.Fatal(err)
	}
	s := st.(*State)
	r := game.NewRand(11)
	var buf []game.Move
	for !s.Over() && !(s.handNo == 2 && len(s.hist) >= 40) {
		if s.ChancePending() {
			s.RollChance(&r)
			continue
		}
		p := game.Seat(s.toMove)
		buf = s.Legal(p, buf[:0])
		// Prefer melds and lay-offs so the table fills up.
		m := buf[r.IntN(len(buf))]
		for _, x := range buf {
			if x.Op == OpMeld || x.Op == OpLayoff || x.Op == OpTakeMeld {
				m = x
				break
			}
		}
		if err := s.Apply(p, m); err != nil {
			tb.Fatal(err)
		}
	}
	if s.handNo != 2 || s.meldsN == 0 || len(s.rounds) == 0 {
		tb.Fatalf("position: hand %d, %d melds, %d scores", s.handNo, s.meldsN, len(s.rounds))
	}
	return s
}

// BenchmarkView builds the view of a seat in the middle of a hand (the
// server does it for every seat after every move).
func BenchmarkView(b *testing.B) {
	s := midHand(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = s.View(game.Seat(i % 4))
	}
}

// BenchmarkSample deals one determinization from a seat's view in the
// middle of a hand (the hard bot does it for every search iteration).
func BenchmarkSample(b *testing.B) {
	s := midHand(b)
	v := s.View(1)
	r := game.NewRand(1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := (Engine{}).Sample(v, &r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkViewJSON builds a seat's view and marshals it, as the server
// does for every seat after every move.
func BenchmarkViewJSON(b *testing.B) {
	s := midHand(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := json.Marshal(s.View(game.Seat(i % 4))); err != nil {
			b.Fatal(err)
		}
	}
}
