package pisyedili

import (
	"encoding/json"
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
			if s.chance == ChanceDeal && s.hand == hand {
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

// midHand is a 4-player state 60 steps into its first hand, and the
// generator that played it.
func midHand() (*State, game.Rand) {
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
	return s, r
}

// BenchmarkView builds seat 0's view of a mid-hand state.
func BenchmarkView(b *testing.B) {
	s, _ := midHand()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = s.View(0)
	}
}

// BenchmarkViewJSON marshals seat 0's view of a mid-hand state (what the
// server sends).
func BenchmarkViewJSON(b *testing.B) {
	s, _ := midHand()
	v := s.View(0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := json.Marshal(v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewSampler reads a mid-hand view into a fast Sampler (once per
// search).
func BenchmarkNewSampler(b *testing.B) {
	s, _ := midHand()
	v := s.View(0).(*View)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := NewSampler(v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSampler draws determinizations with the fast Sampler (once per
// search iteration): no allocation.
func BenchmarkSampler(b *testing.B) {
	s, r := midHand()
	z, err := NewSampler(s.View(0).(*View))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = z.Sample(&r)
	}
}

// BenchmarkSample determinizes a mid-hand view (4 players).
func BenchmarkSample(b *testing.B) {
	s, r := midHand()
	v := s.View(0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := (Engine{}).Sample(v, &r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSamplerEvidence is BenchmarkSampler with the soft voids kept
// (UseEvidence(1)); soft/op is the number of soft voids of hidden seats.
func BenchmarkSamplerEvidence(b *testing.B) {
	s, r := midHand()
	v := s.View(0).(*View)
	z, err := NewSampler(v)
	if err != nil {
		b.Fatal(err)
	}
	z.UseEvidence(1)
	n := 0
	for _, vd := range v.Shown {
		if vd.Why.Soft() && vd.Seat != 0 {
			n++
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = z.Sample(&r)
	}
	b.ReportMetric(float64(n), "soft")
}
