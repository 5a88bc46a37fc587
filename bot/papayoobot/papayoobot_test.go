package papayoobot

import (
	"testing"

	"cardroom/game"
)

func idx(t *testing.T, c string) int {
	t.Helper()
	card, err := deck.Parse(c)
	if err != nil {
		t.Fatal(err)
	}
	return deck.Index(card)
}

func mask(t *testing.T, cs ...string) game.Mask {
	var m game.Mask
	for _, c := range cs {
		m |= game.Bit(idx(t, c))
	}
	return m
}

// TestChooseCard checks the documented play heuristics on hand-made
// situations (4 players, die = hearts so 7H is the Papayoo).
func TestChooseCard(t *testing.T) {
	all := game.Mask(1<<60 - 1)
	cases := []struct {
		name  string
		hand  []string
		trick []string
		want  string
	}{
		{"drop the Papayoo under a higher card of its suit", []string{"2H", "7H", "9H", "3S"}, []string{"8H"}, "7H"},
		{"duck with the highest card under the winner", []string{"2D", "5D", "9D"}, []string{"6D", "3D"}, "5D"},
		{"keep the Papayoo when it would win", []string{"7H", "9H"}, []string{"3H"}, "9H"},
		{"void: shed the Papayoo first", []string{"7H", "20P", "10S"}, []string{"4D"}, "7H"},
		{"void: shed a high Payoo before a low card", []string{"2S", "19P", "3C"}, []string{"4D"}, "19P"},
		{"duck a Payoo trick", []string{"2P", "12P", "18P"}, []string{"15P", "1P"}, "12P"},
		{"lead low, not the Papayoo", []string{"7H", "1S", "10C"}, nil, "1S"},
	}
	for _, c := range cases {
		s := &Sit{N: 4, Me: 0, Pap: idx(t, "7H"), Hand: mask(t, c.hand...)}
		played := s.Hand
		for j, tc := range c.trick {
			s.Trick[j] = int8(idx(t, tc))
			played |= game.Bit(idx(t, tc))
		}
		s.TrickLen = len(c.trick)
		s.Out = all &^ played
		legal := s.Hand
		if s.TrickLen > 0 {
			if f := s.Hand & suitMask[suitOf(int(s.Trick[0]))]; f != 0 {
				legal = f
			}
		}
		for _, easy := range []bool{false, true} {
			got := deck.Format(deck.Card(s.ChooseCard(legal, easy)))
			if got != c.want {
				t.Errorf("%s (easy=%v): played %s, want %s", c.name, easy, got, c.want)
			}
		}
	}
}

// TestBestPass: the pass takes high Payoo cards and keeps low cards.
func TestBestPass(t *testing.T) {
	hand := mask(t, "1S", "2S", "3S", "1H", "2H", "1D", "2D", "3D", "1C", "2C", "20P", "19P", "18P", "17P", "16P")
	got := BestPass(hand, 5)
	if want := mask(t, "20P", "19P", "18P", "17P", "16P"); got != want {
		t.Fatalf("pass %s, want %s", got.Format(deck), want.Format(deck))
	}
	hand = mask(t, "1S", "2S", "3S", "10H", "2H", "1D", "2D", "3D", "4D", "2C", "3C", "4C", "1P", "2P", "3P")
	if got := BestPass(hand, 5); !got.Has(idx(t, "10H")) || got.Has(idx(t, "1P")) {
		t.Fatalf("pass %s should include 10H (unprotected high card) and not 1P", got.Format(deck))
	}
}
