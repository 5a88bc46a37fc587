package game

import (
	"errors"
	"strings"
	"testing"
	"unicode"
)

// notation.md "Cards": every face of both decks prints canonically and parses back.
func TestCardRoundTripAllFaces(t *testing.T) {
	for _, d := range []Deck{Standard} {
		seen := map[string]bool{}
		for i := 0; i < d.Size(); i++ {
			c := d.Card(i)
			if got := d.Index(c); got != i {
				t.Fatalf("deck %v: Index(Card(%d)) = %d", d, i, got)
			}
			s := d.Format(c)
			if seen[s] {
				t.Fatalf("deck %v: %q printed twice", d, s)
			}
			seen[s] = true
			back, err := d.Parse(s)
			if err != nil || back != c {
				t.Fatalf("deck %v: Parse(%q) = %v, %v; want %v", d, s, back, err, c)
			}
		}
	}
}

// notation.md "Cards": canonical forms and every listed alias.
func TestParseCard(t *testing.T) {
	tests := []struct {
		deck Deck
		in   string
		want string
	}{
		{Standard, "AS", "AS"},
		{Standard, "10D", "10D"},
		{Standard, "QH", "QH"},
		{Standard, "qh", "QH"}, // lower case
		{Standard, "jk", "JK"},
		{Standard, "JK", "JK"},
		{Standard, "TD", "10D"},
		{Standard, "Q♥", "QH"},
		{Standard, "k♠", "KS"},
		{Standard, "7♣", "7C"},
		{Standard, "2♦", "2D"},
	}
	for _, tc := range tests {
		c, err := tc.deck.Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got := tc.deck.Format(c); got != tc.want {
			t.Errorf("Parse(%q) prints %q, want %q", tc.in, got, tc.want)
		}
	}
}

// notation.md: anything outside the canonical forms and aliases is refused with
// an error that quotes the bad token.
func TestParseCardRejects(t *testing.T) {
	tests := []struct {
		deck Deck
		in   string
	}{
		{Standard, "1S"}, {Standard, "14H"}, {Standard, "13P"}, {Standard, "11H"}, {Standard, "AX"},
		{Standard, "10"}, {Standard, "ASS"}, {Standard, "J"}, {Standard, "JKK"}, {Standard, "♥Q"},
		// Letters outside ASCII whose upper case is a card letter: the
		// long s is S under strings.ToUpper, the dotless i is I.
		{Standard, "7\u017f"}, {Standard, "A\u017f"}, {Standard, "J\u0131"}, {Standard, "\u212aS"},
	}
	for _, tc := range tests {
		_, err := tc.deck.Parse(tc.in)
		if err == nil {
			t.Errorf("Parse(%q) accepted", tc.in)
			continue
		}
		if !errors.Is(err, ErrBadCard) || !strings.Contains(err.Error(), `"`+tc.in+`"`) {
			t.Errorf("Parse(%q) error %q does not quote the token", tc.in, err)
		}
	}
}

// notation.md "Sort order": suit S H D C (P), rank ascending, jokers last.
func TestSortOrder(t *testing.T) {
	cs, err := Standard.ParseList("JK KC 2S AS 10H JH QD")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Standard.FormatSorted(cs), "AS 2S 10H JH QD KC JK"; got != want {
		t.Fatalf("sorted %q, want %q", got, want)
	}
	m := MaskOf(Standard, cs...)
	if got := m.Format(Standard); got != "AS 2S 10H JH QD KC JK" {
		t.Fatalf("mask prints %q", got)
	}
}

func TestMask(t *testing.T) {
	m := Mask(0b101101)
	if m.Count() != 4 || m.Lowest() != 0 || m.Highest() != 5 || m.Nth(2) != 3 || m.Nth(4) != -1 {
		t.Fatalf("mask ops wrong for %b", m)
	}
	if Mask(0).Lowest() != -1 || Mask(0).Highest() != -1 {
		t.Fatal("empty mask")
	}
}

func TestRandDeterministicAndUniform(t *testing.T) {
	a, b := NewRand(7), NewRand(7)
	for i := 0; i < 100; i++ {
		if a.Uint64() != b.Uint64() {
			t.Fatal("same seed, different sequence")
		}
	}
	c := a // a copy continues identically: Rand is a value
	if a.IntN(1000) != c.IntN(1000) {
		t.Fatal("copied Rand diverged")
	}
	r := NewRand(1)
	var counts [4]int
	for i := 0; i < 40000; i++ {
		counts[r.IntN(4)]++
	}
	for s, n := range counts {
		if n < 9500 || n > 10500 {
			t.Fatalf("IntN(4) bucket %d has %d of 40000", s, n)
		}
	}
	got := r.RandomBits(Mask(0xFF00), 3)
	if got.Count() != 3 || got&^0xFF00 != 0 {
		t.Fatalf("RandomBits picked %b", got)
	}
}

func TestOptions(t *testing.T) {
	specs := []OptionSpec{
		{Name: "players", Kind: "int", Min: 3, Max: 8, Default: "4"},
		{Name: "fast", Kind: "bool", Default: "false"},
		{Name: "mode", Kind: "enum", Values: []string{"a", "b"}, Default: "a"},
		{Name: "rounds", Kind: "int", Min: 1, Max: 100},
	}
	o, err := ParseOptions("players=5, fast=true")
	if err != nil {
		t.Fatal(err)
	}
	n, err := Normalize(o, specs)
	if err != nil {
		t.Fatal(err)
	}
	if n.String() != "fast=true mode=a players=5" {
		t.Fatalf("normalized %q", n.String())
	}
	bad := []string{"players=9", "players=x", "fast=yes", "mode=c", "colour=red", "rounds=0"}
	for _, b := range bad {
		o, err := ParseOptions(b)
		if err != nil {
			t.Fatal(err)
		}
		var oe *OptionError
		if _, err := Normalize(o, specs); !errors.As(err, &oe) {
			t.Errorf("%s: want *OptionError, got %v", b, err)
		}
	}
	for _, b := range []string{"players", "=3", "a=1 a=2"} {
		if _, err := ParseOptions(b); err == nil {
			t.Errorf("ParseOptions(%q) accepted", b)
		}
	}
}

func TestMoveErrorIs(t *testing.T) {
	err := error(Errorf(ErrIllegal, 2, "play 7H", "must follow %s", "hearts"))
	if !errors.Is(err, ErrIllegal) || errors.Is(err, ErrMalformed) || Code(err) != ErrIllegal {
		t.Fatalf("errors.Is on MoveError broken: %v", err)
	}
	if !strings.Contains(err.Error(), "play 7H") || !strings.Contains(err.Error(), "must follow hearts") {
		t.Fatalf("error text %q", err)
	}
}

// Decoders never panic, and whatever parses prints back canonically and
// parses to the same card.
func FuzzParseCard(f *testing.F) {
	for _, s := range []string{"7H", "10S", "P13", "13P", "JK", "qh", "T♠", "", "1", "AS", "20P", "♥"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, d := range []Deck{Standard} {
			c, err := d.Parse(s)
			if err != nil {
				continue
			}
			// Only the canonical form and notation.md's aliases: ASCII
			// letters and digits, and the suit symbols.
			if rest := strings.NewReplacer("♠", "", "♥", "", "♦", "", "♣", "").Replace(s); strings.TrimFunc(rest, func(r rune) bool {
				return r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r))
			}) != "" {
				t.Fatalf("deck %v: %q accepted as %v: not the notation's characters", d, s, c)
			}
			back, err := d.Parse(d.Format(c))
			if err != nil || back != c {
				t.Fatalf("deck %v: %q → %v → %q does not round-trip", d, s, c, d.Format(c))
			}
		}
	})
}

func FuzzParseOptions(f *testing.F) {
	f.Add("players=4 rounds=2")
	f.Add("a=,b==c")
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseOptions(s)
		if err != nil {
			return
		}
		again, err := ParseOptions(o.String())
		if err != nil || again.String() != o.String() {
			t.Fatalf("%q → %q does not round-trip", s, o.String())
		}
	})
}
