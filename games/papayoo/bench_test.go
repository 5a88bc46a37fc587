package papayoo

import (
	"encoding/json"
	"testing"

	"cardroom/game"
)

// playRoundFast plays one whole round from a fresh state through the native
// fast API: deal, K random cards passed by every seat, the die, then random
// legal cards until the round ends.
func playRoundFast(s *State, r *game.Rand) {
	s.RollChance(r) // deal
	for seat := 0; seat < int(s.n); seat++ {
		s.SubmitPass(seat, r.RandomBits(s.hands[seat], int(s.ks)))
	}
	s.RollChance(r) // die
	for s.phase == phPlay {
		m := s.LegalPlays()
		s.Play(m.Nth(r.IntN(m.Count())))
	}
}

// BenchmarkRandomRound: one 4-player round (deal, pass, die, 15 tricks)
// with random legal moves through the engine's fast API.
func BenchmarkRandomRound(b *testing.B) {
	tmpl := mustNew(b, "players=4 rounds=1 first_dealer=0")
	var s State
	r := game.NewRand(1)
	b.ReportAllocs()
	for b.Loop() {
		s.CopyFrom(tmpl)
		playRoundFast(&s, &r)
	}
	if !s.Over() {
		b.Fatal("round did not end")
	}
}

// BenchmarkRandomRoundGeneric: the same round through the generic
// game.State API (Legal into a reused buffer, Apply, RollChance).
func BenchmarkRandomRoundGeneric(b *testing.B) {
	tmpl := mustNew(b, "players=4 rounds=1 first_dealer=0")
	var s State
	r := game.NewRand(1)
	buf := make([]game.Move, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		s.CopyFrom(tmpl)
		s.RollChance(&r)
		for seat := 0; seat < 4; seat++ {
			if err := s.Apply(game.Seat(seat), game.Move{Op: OpPass, Set: r.RandomBits(s.hands[seat], 5)}); err != nil {
				b.Fatal(err)
			}
		}
		s.RollChance(&r)
		for !s.Over() {
			seat := game.Seat(s.turn)
			buf = s.Legal(seat, buf[:0])
			if err := s.Apply(seat, buf[r.IntN(len(buf))]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// benchPositions are mid-round trick-play positions of a 4-player game.
func benchPositions(b *testing.B) []*State {
	var out []*State
	r := game.NewRand(7)
	for len(out) < 64 {
		s := mustNew(b, "players=4 rounds=1 first_dealer=0")
		s.RollChance(&r)
		for seat := 0; seat < 4; seat++ {
			s.SubmitPass(seat, r.RandomBits(s.hands[seat], 5))
		}
		s.RollChance(&r)
		stop := r.IntN(55)
		for k := 0; k < stop; k++ {
			m := s.LegalPlays()
			s.Play(m.Nth(r.IntN(m.Count())))
		}
		out = append(out, s)
	}
	return out
}

// BenchmarkLegalMoves: generic Legal of the seat to play, into a reused
// buffer, over 64 mid-round positions (one position per op).
func BenchmarkLegalMoves(b *testing.B) {
	ps := benchPositions(b)
	buf := make([]game.Move, 0, 64)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		s := ps[i&63]
		buf = s.Legal(game.Seat(s.turn), buf[:0])
		i++
	}
}

// BenchmarkLegalPasses: generic Legal in the 4-player pass phase: all
// C(15,5) = 3003 passes.
func BenchmarkLegalPasses(b *testing.B) {
	s := mustNew(b, "players=4 rounds=1 first_dealer=0")
	r := game.NewRand(3)
	s.RollChance(&r)
	buf := make([]game.Move, 0, 4096)
	b.ReportAllocs()
	for b.Loop() {
		buf = s.Legal(0, buf[:0])
	}
	if len(buf) != 3003 {
		b.Fatalf("%d passes", len(buf))
	}
}

// BenchmarkClone: Clone through the interface (one allocation: the new
// state) and CopyFrom into an existing state (none).
func BenchmarkClone(b *testing.B) {
	ps := benchPositions(b)
	b.Run("Clone", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			cloneSink = ps[i&63].Clone()
			i++
		}
	})
	b.Run("CopyFrom", func(b *testing.B) {
		var s State
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			s.CopyFrom(ps[i&63])
			i++
		}
	})
}

// BenchmarkSample: a determinization from a seat's view mid-round.
func BenchmarkSample(b *testing.B) {
	ps := benchPositions(b)
	var vs []*View
	for _, s := range ps {
		vs = append(vs, s.view(game.Seat(s.turn)))
	}
	r := game.NewRand(5)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := (Engine{}).Sample(vs[i&63], &r); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

var cloneSink game.State

// BenchmarkView: the view of the seat to play mid-round (built on every
// broadcast of the server), the same view marshalled to JSON, and the
// server's way of writing it.
func BenchmarkView(b *testing.B) {
	ps := benchPositions(b)
	b.Run("Build", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			s := ps[i&63]
			viewSink = s.View(game.Seat(s.turn))
			i++
		}
	})
	b.Run("JSON", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			s := ps[i&63]
			out, err := json.Marshal(s.View(game.Seat(s.turn)))
			if err != nil {
				b.Fatal(err)
			}
			jsonSink = out
			i++
		}
	})
	b.Run("AppendJSON", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			s := ps[i&63]
			jsonSink = s.view(game.Seat(s.turn)).AppendJSON(jsonSink[:0])
			i++
		}
	})
	// The server's path: the view built in reused memory and written at
	// once, the options' JSON written once for the state.
	b.Run("AppendViewJSON", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			s := ps[i&63]
			jsonSink = s.AppendViewJSON(jsonSink[:0], game.Seat(s.turn))
			i++
		}
	})
}

var (
	viewSink game.View
	jsonSink []byte
)
