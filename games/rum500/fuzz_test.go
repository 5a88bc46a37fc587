package rum500

import (
	"strings"
	"testing"

	"cardroom/game"
)

// FuzzParseMove: parsing never panics, errors are *game.MoveError, and a
// parsed move prints to a text that parses back to the same move.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{
		"draw", "decline", "take 8H meld 8S 8H 8D", "take 7D layoff 2", "take 4C", "meld 5C 6C 7C",
		"layoff 9D 3", "layoff AS 1 high", "discard KS", "discard JK", "meld 5C JK=6C 7C", "take JK meld 8S 8H JK=8D",
		"take JK=9D layoff 3 low", "meld AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "meld 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
		"meld 2S AS 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "meld 7H 7H 7C", "MELD td jd qd", "layoff 9♦ 03", "take", "meld",
		"layoff JK 2", "take JK layoff 1", "layoff 9D 3 middle", "take 8H fly",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseMove(text)
		if err != nil {
			if game.Code(err) == "" {
				t.Fatalf("%q: error %v is not a *game.MoveError", text, err)
			}
			return
		}
		out := FormatMove(m)
		back, err := ParseMove(out)
		if err != nil {
			t.Fatalf("%q prints as %q, which does not parse: %v", text, out, err)
		}
		if back != m {
			t.Fatalf("%q → %+v prints %q → %+v", text, m, out, back)
		}
	})
}

// FuzzApplyChance: any text is either a valid deal (cards conserved) or
// refused with bad_chance and no change.
func FuzzApplyChance(f *testing.F) {
	st, _ := Engine{}.New(game.Options{"players": "2"})
	r := game.NewRand(3)
	st.RollChance(&r)
	f.Add(st.SampleChance(&r))
	f.Add("deal\n0: AS\n1: 2S\nup 3S\nstock 4S")
	f.Add("dealer 1")
	f.Add("deal")
	f.Fuzz(func(t *testing.T, text string) {
		s := st.Clone().(*State)
		err := s.ApplyChance(text)
		if err != nil {
			if game.Code(err) != game.ErrBadChance {
				t.Fatalf("%q: want bad_chance, got %v", text, err)
			}
			if s.phase != phDeal || s.handNo != 0 {
				t.Fatalf("%q: a refused deal changed the state", text)
			}
			return
		}
		checkInvariants(t, s, "fuzzed deal")
		if s.hands[0].Count() != 13 || s.stockN != 25 {
			t.Fatalf("%q: accepted a wrong deal", text)
		}
	})
}

// FuzzGame plays a game from fuzzed choices: each byte picks a legal move
// (or, when high, tries a move of another phase that must be refused);
// invariants hold at every step.
func FuzzGame(f *testing.F) {
	f.Add(uint8(3), uint8(0), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add(uint8(5), uint8(1), []byte("deep takes and melds"))
	f.Add(uint8(2), uint8(2), []byte{255, 0, 255, 1, 128})
	f.Fuzz(func(t *testing.T, players, variant uint8, choices []byte) {
		opts := game.Options{"players": itoa(2 + int(players)%7)}
		switch variant % 4 {
		case 1:
			opts["jokers"] = "2"
		case 2:
			opts["stock_exhausted"] = "turn_over_discards"
			opts["top_discard_free"] = "true"
		case 3:
			opts["must_discard_to_go_out"] = "true"
		}
		st, err := Engine{}.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		r := game.NewRand(uint64(len(choices)))
		var buf []game.Move
		for i, b := range choices {
			if s.Over() {
				return
			}
			for s.ChancePending() {
				s.RollChance(&r)
			}
			buf = s.Legal(game.Seat(s.toMove), buf[:0])
			if len(buf) == 0 {
				t.Fatalf("step %d: no legal move", i)
			}
			if b >= 240 {
				before := s.Clone()
				bad := game.Move{Op: b - 240, Card: card(int(b) % 53), A: b % 4, Set: game.Bit(int(b) % 52)}
				listed := false
				for _, m := range buf {
					listed = listed || m == bad
				}
				if err := s.Apply(game.Seat(s.toMove), bad); err == nil {
					if !listed {
						t.Fatalf("step %d: unlisted %s accepted", i, FormatMove(bad))
					}
				} else if !strings.Contains(err.Error(), "") || Snapshot(s) != Snapshot(before.(*State)) {
					t.Fatalf("step %d: refused move changed the state", i)
				}
				continue
			}
			if err := s.Apply(game.Seat(s.toMove), buf[int(b)%len(buf)]); err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, s, "fuzz")
		}
	})
}

// Snapshot is the whole state as comparable text.
func Snapshot(s *State) string {
	var b strings.Builder
	for seat := game.Spectator; int(seat) < s.cfg.n; seat++ {
		b.WriteString(s.View(seat).String())
	}
	return b.String()
}

// FuzzFormatMove: any Move value prints without panicking, and the state
// refuses it or lists it.
func FuzzFormatMove(f *testing.F) {
	f.Add(uint8(3), uint8(0xa0), uint8(0), uint8(0), uint64(0), uint64(0))
	f.Add(uint8(5), uint8(0), uint8(0), uint8(1), uint64(0x1FFF), uint64(1))
	f.Add(uint8(6), uint8(0x21), uint8(1), uint8(2), uint64(1), uint64(0))
	s := build(f, pos{hands: []string{"AS 2S 3S 4H", "5C", "6C"}, pile: "7D", stock: "rest", play: true,
		melds: []mspec{{"4D 5D 6D", 1}}})
	f.Fuzz(func(t *testing.T, op, c, a, b uint8, set, set2 uint64) {
		m := game.Move{Op: op, Card: game.Card(c), A: a, B: b, Set: game.Mask(set), Set2: game.Mask(set2)}
		_ = FormatMove(m)
		listed := false
		for _, l := range s.Legal(0, nil) {
			listed = listed || l == m
		}
		x := s.Clone().(*State)
		if err := x.Apply(0, m); (err == nil) != listed {
			t.Fatalf("%+v (%s): listed %v, apply error %v", m, FormatMove(m), listed, err)
		}
	})
}
