package pisyedili

import (
	"testing"

	"cardroom/game"
)

// playFirst picks a uniformly random legal move, except that it draws
// voluntarily only when it has nothing else to do. Pure uniform play draws so
// often that a hand lasts thousands of moves (see BenchmarkRandomHandUniform).
func playFirst(buf []game.Move, r *game.Rand) game.Move {
	n := len(buf)
	if n > 1 && buf[n-1].Op == OpDraw {
		n--
	}
	return buf[r.IntN(n)]
}

// runHand deals and plays one hand of s (a state waiting for its deal) to its
// end through the game.State API, and returns the number of moves.
func runHand(s *State, r *game.Rand, buf []game.Move, uniform bool) int {
	moves := 0
	hand := s.hand + 1
	for !s.Over() {
		if s.ChancePending() {
			if s.chance == chDeal && s.hand == hand {
				break
			}
			s.RollChance(r)
			continue
		}
		seat := game.Seat(s.turn)
		buf = s.Legal(seat, buf[:0])
		var m game.Move
		if uniform {
			m = buf[r.IntN(len(buf))]
		} else {
			m = playFirst(buf, r)
		}
		if err := s.Apply(seat, m); err != nil {
			panic(err)
		}
		moves++
	}
	return moves
}

func benchHand(b *testing.B, o game.Options, uniform bool) {
	st, err := Engine{}.New(o)
	if err != nil {
		b.Fatal(err)
	}
	proto := st.(*State)
	if err := proto.ApplyChance("dealer 0"); err != nil {
		b.Fatal(err)
	}
	s := new(State)
	r := game.NewRand(1)
	buf := make([]game.Move, 0, 128)
	moves := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		*s = *proto
		moves += runHand(s, &r, buf, uniform)
	}
	b.ReportMetric(float64(moves)/float64(b.N), "moves/hand")
}

// BenchmarkRandomHand plays a full 4-player hand (deal, opening round, play,
// reshuffles, end-of-hand draws, scoring) with random legal moves that draw
// voluntarily only when nothing else is legal.
func BenchmarkRandomHand(b *testing.B) { benchHand(b, game.Options{}, false) }

// BenchmarkRandomHandUniform plays uniformly random legal moves, voluntary
// draws included: hands then last thousands of moves.
func BenchmarkRandomHandUniform(b *testing.B) { benchHand(b, game.Options{}, true) }

// BenchmarkSample determinizes a mid-hand view (4 players).
func BenchmarkSample(b *testing.B) {
	st, _ := Engine{}.New(nil)
	s := st.(*State)
	r := game.NewRand(9)
	var buf []game.Move
	for step := 0; step < 60; step++ {
		if s.ChancePending() {
			s.RollChance(&r)
			continue
		}
		buf = s.Legal(game.Seat(s.turn), buf[:0])
		s.Apply(game.Seat(s.turn), playFirst(buf, &r))
	}
	v := s.View(0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := (Engine{}).Sample(v, &r); err != nil {
			b.Fatal(err)
		}
	}
}
