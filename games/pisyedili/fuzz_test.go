package pisyedili

import (
	"reflect"
	"testing"

	"cardroom/game"
)

// FuzzParseMove: any text either parses to a move that prints canonically
// and parses back to the same move, or is refused as malformed.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"play 5D", "play JS H", "play JC", "play JK", "draw", "penalty", "pass", "end",
		"play td", "play j♠ ♥", "play 10S S", "play 5D H", "play", "play JS H X", "pass pass", "", "PLAY 5D", "play 1S", "play JK S"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseMove(text)
		if err != nil {
			if game.Code(err) != game.ErrMalformed {
				t.Fatalf("%q: error %v is not malformed", text, err)
			}
			return
		}
		out := FormatMove(m)
		back, err := ParseMove(out)
		if err != nil || back != m {
			t.Fatalf("%q → %q → %v, %v", text, out, back, err)
		}
	})
}

// FuzzApplyChance: any chance text is either applied (leaving a consistent
// game) or refused with bad_chance and no change, for a pending dealer, deal
// or reshuffle.
func FuzzApplyChance(f *testing.F) {
	f.Add(uint8(0), "dealer 2")
	f.Add(uint8(1), "deal\n0: AS AS 2S 2S 3S 3S 4S\nstock 2H")
	f.Add(uint8(2), "shuffle 2S 3S 4S 5S 6S 8S 9S 10S QS KS 2H")
	f.Add(uint8(2), "shuffle KS QS 10S 9S 8S 6S 5S 4S 3S 2S 2H")
	f.Add(uint8(1), "")
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		var s *State
		switch which % 3 {
		case 0:
			s = must(t, nil).(*State)
		case 1:
			s = must(t, nil).(*State)
			s.ApplyChance("dealer 1")
		default:
			s = build(t, pos{hands: []string{"9D", "2D 3D", "4D", "5D"}, pile: "2S 3S 4S 5S 6S 8S 9S 10S QS KS 2H 7H", turn: 1, chain: ChainSeven, k: 1})
			do(t, s, 1, "penalty")
		}
		before := *s
		if err := s.ApplyChance(text); err != nil {
			if game.Code(err) != game.ErrBadChance {
				t.Fatalf("%q: error %v is not bad_chance", text, err)
			}
			if !reflect.DeepEqual(before, *s) {
				t.Fatalf("%q: refused chance changed the state", text)
			}
			return
		}
		if which%3 == 1 {
			if err := conserved(s); err != nil {
				t.Fatalf("%q accepted: %v", text, err)
			}
		}
	})
}

// FuzzEngine: a game driven by fuzzed choices keeps every invariant: cards
// are conserved, illegal moves are refused without a change, and the seat
// to move always has a legal move.
func FuzzEngine(f *testing.F) {
	f.Add(uint64(1), []byte{0, 1, 2, 3, 200, 7, 9})
	f.Add(uint64(7), []byte{255, 255, 0, 0, 13})
	f.Fuzz(func(t *testing.T, seed uint64, choices []byte) {
		o := propertyConfigs[seed%uint64(len(propertyConfigs))]
		s := must(t, o).(*State)
		rng := game.NewRand(seed)
		var buf []game.Move
		for i := 0; i < 400 && !s.Over(); i++ {
			if s.ChancePending() {
				s.RollChance(&rng)
				continue
			}
			buf = s.Legal(game.Seat(s.turn), buf[:0])
			if len(buf) == 0 {
				t.Fatalf("seat %d to move has no legal move", s.turn)
			}
			var b byte
			if len(choices) > 0 {
				b = choices[i%len(choices)]
			}
			// Try a possibly illegal move made from the byte.
			bad := game.Move{Op: b % 7, Card: faceCard[int(b)%53], A: b % 6}
			before := *s
			if err := s.Apply(game.Seat(s.turn), bad); err != nil {
				if !reflect.DeepEqual(before, *s) {
					t.Fatalf("refused %q changed the state", FormatMove(bad))
				}
			}
			if s.ChancePending() || s.Over() {
				continue
			}
			buf = s.Legal(game.Seat(s.turn), buf[:0])
			m := buf[(int(b)+i)%len(buf)]
			if i > 200 {
				m = playFirst(buf, &rng)
			}
			if err := s.Apply(game.Seat(s.turn), m); err != nil {
				t.Fatalf("legal %q refused: %v", FormatMove(m), err)
			}
			if err := conserved(s); err != nil {
				t.Fatal(err)
			}
		}
	})
}
