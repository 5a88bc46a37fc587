package papayoo

import (
	"errors"
	"strings"
	"testing"

	"cardroom/game"
)

// notation.md "Cards": every Papayoo face prints and parses back, and its
// index is its place in the sort order.
func TestDeckRoundTripAllFaces(t *testing.T) {
	if Deck.Size() != 60 {
		t.Fatalf("size %d, want 60", Deck.Size())
	}
	for i := 0; i < Deck.Size(); i++ {
		c := Deck.Card(i)
		if Deck.Index(c) != i {
			t.Fatalf("index %d → %v → %d", i, c, Deck.Index(c))
		}
		back, err := Deck.Parse(Deck.Format(c))
		if err != nil || back != c {
			t.Fatalf("%q does not parse back (%v, %v)", Deck.Format(c), back, err)
		}
	}
	if Deck.Card(60) != game.NoCard || Deck.Index(game.Joker) != -1 {
		t.Fatal("a card outside the Papayoo deck")
	}
}

// notation.md "Cards": the canonical forms and the aliases of the Papayoo
// deck (P13 for 13P, lower case, T for 10, suit symbols).
func TestDeckParse(t *testing.T) {
	for in, want := range map[string]string{
		"7H": "7H", "10S": "10S", "1C": "1C", "13P": "13P", "20P": "20P", "P13": "13P", "p13": "13P",
		"13p": "13P", "TD": "10D", "7♥": "7H",
	} {
		c, err := Deck.Parse(in)
		if err != nil || Deck.Format(c) != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", in, Deck.Format(c), err, want)
		}
	}
	for _, in := range []string{"", "11H", "21P", "0P", "AS", "JK", "QH", "7X", "07H", "P", "P0", "H7"} {
		_, err := Deck.Parse(in)
		if err == nil {
			t.Errorf("Parse(%q) accepted", in)
			continue
		}
		if !errors.Is(err, game.ErrBadCard) || !strings.Contains(err.Error(), `"`+in+`"`) {
			t.Errorf("Parse(%q) error %q does not quote the token", in, err)
		}
	}
}

// notation.md: sort order S H D C then P, rank ascending; masks print sorted.
func TestDeckSortOrder(t *testing.T) {
	ps, err := Deck.ParseList("20P 1P 10S 2S 7C 1H")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Deck.FormatSorted(ps), "2S 10S 1H 7C 1P 20P"; got != want {
		t.Fatalf("sorted %q, want %q", got, want)
	}
	if got := game.MaskOf(Deck, ps...).Format(Deck); got != "2S 10S 1H 7C 1P 20P" {
		t.Fatalf("mask prints %q", got)
	}
}

func FuzzDeckParse(f *testing.F) {
	for _, s := range []string{"7H", "10S", "P13", "13P", "JK", "20P", "♥", "p7", "T♠"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Deck.Parse(s)
		if err != nil {
			return
		}
		back, err := Deck.Parse(Deck.Format(c))
		if err != nil || back != c {
			t.Fatalf("%q → %v → %q does not round-trip", s, c, Deck.Format(c))
		}
	})
}
