package pisyedili

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"cardroom/game"
)

// pos describes a position for a unit test. Seats A, B, C, D are 0, 1, 2, 3.
type pos struct {
	opts  game.Options
	hands []string // per seat
	stock string   // top first
	pile  string   // bottom first; the top card is last
	turn  int
	suit  string // the active suit, if not the top card's (after a jack)
	ph    Phase  // PhaseNormal unless set
	chain ChainKind
	k     int
	open  int // opening turns left (PhaseOpening)
}

func card(t testing.TB, s string) game.Card {
	t.Helper()
	c, err := game.Standard.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func cards(t testing.TB, s string) []game.Card {
	t.Helper()
	cs, err := game.Standard.ParseList(s)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// build sets up a position directly (the cards need not form a whole deck).
func build(t testing.TB, p pos) *State {
	t.Helper()
	st, err := Engine{}.New(p.opts)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	if len(p.hands) != s.n {
		t.Fatalf("want %d hands, got %d", s.n, len(p.hands))
	}
	s.chance = ChanceNone
	s.hand = 1
	s.turn = p.turn
	s.dealer = (p.turn + s.n - 1) % s.n
	s.why = ReasonNext
	s.ph = p.ph
	if s.ph == PhaseDeal {
		s.ph = PhaseNormal
	}
	s.openLeft = p.open
	for i, h := range p.hands {
		for _, c := range cards(t, h) {
			s.add(i, c)
		}
	}
	st2 := cards(t, p.stock)
	s.stockN = len(st2)
	for i, c := range st2 {
		s.stock[len(st2)-1-i] = c
	}
	for _, c := range cards(t, p.pile) {
		s.pile[s.pileN] = c
		s.pileN++
		if c != game.Joker {
			s.suit, s.rank = c.Suit(), c.Rank()
		}
	}
	if p.suit != "" {
		su, err := game.ParseSuit(p.suit)
		if err != nil {
			t.Fatal(err)
		}
		s.suit = su
	}
	s.pool1, s.pool2 = s.full1, s.full2
	s.chain, s.chainK = p.chain, p.k
	return s
}

// legalTexts lists the legal moves of the seat to move, sorted.
func legalTexts(s *State) []string {
	var out []string
	for _, m := range s.Legal(game.Seat(s.turn), nil) {
		out = append(out, s.FormatMove(m))
	}
	sort.Strings(out)
	return out
}

func sorted(xs ...string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}

// jack lists the four moves of a jack.
func jack(c string) []string {
	return []string{"play " + c + " S", "play " + c + " H", "play " + c + " D", "play " + c + " C"}
}

func join(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	sort.Strings(out)
	return out
}

func wantLegal(t *testing.T, s *State, want []string, what string) {
	t.Helper()
	if got := legalTexts(s); !reflect.DeepEqual(got, sorted(want...)) {
		t.Fatalf("%s: legal moves of seat %d\n got %v\nwant %v", what, s.turn, got, sorted(want...))
	}
}

func do(t *testing.T, s *State, seat int, text string) {
	t.Helper()
	m, err := s.ParseMove(text)
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	if err := s.Apply(game.Seat(seat), m); err != nil {
		t.Fatalf("seat %d %q: %v", seat, text, err)
	}
}

func refuse(t *testing.T, s *State, seat int, text string, code game.ErrorCode) {
	t.Helper()
	before := *s
	m, err := s.ParseMove(text)
	if err == nil {
		err = s.Apply(game.Seat(seat), m)
	}
	if game.Code(err) != code {
		t.Fatalf("seat %d %q: want %s, got %v", seat, text, code, err)
	}
	if !reflect.DeepEqual(before, *s) {
		t.Fatalf("seat %d %q: a refused move changed the state", seat, text)
	}
}

func handOf(s *State, p int) string {
	return cardsOf(s.h1[p], s.h2[p]).String()
}

// fullDeal writes a deal whose hands start with the given cards (the rest
// filled from the unused cards in deck order) and whose stock starts with
// stockTop (top first).
func fullDeal(t *testing.T, s *State, hands []string, stockTop string) string {
	t.Helper()
	var left [53]int
	for i := 0; i < 53; i++ {
		if s.full1.Has(i) {
			left[i]++
		}
		if s.full2.Has(i) {
			left[i]++
		}
	}
	use := func(cs []game.Card) {
		for _, c := range cs {
			left[idx(c)]--
			if left[idx(c)] < 0 {
				t.Fatalf("fullDeal: %s used too often", game.Standard.Format(c))
			}
		}
	}
	hs := make([][]game.Card, s.n)
	for p := range hs {
		if p < len(hands) {
			hs[p] = cards(t, hands[p])
		}
		use(hs[p])
	}
	top := cards(t, stockTop)
	use(top)
	var rest []game.Card
	for i := 0; i < 53; i++ {
		for ; left[i] > 0; left[i]-- {
			rest = append(rest, faceCard[i])
		}
	}
	// Fill hands with non-clubs first where possible so tests control clubs.
	k := 0
	for p := range hs {
		for len(hs[p]) < handSize {
			hs[p] = append(hs[p], rest[k])
			k++
		}
	}
	var b strings.Builder
	b.WriteString("deal")
	for p := range hs {
		b.WriteString("\n" + itoa(p) + ": " + game.Standard.FormatList(hs[p]))
	}
	b.WriteString("\nstock " + game.Standard.FormatList(append(top, rest[k:]...)))
	return b.String()
}
