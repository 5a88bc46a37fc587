package rum500

import (
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"

	"cardroom/game"
)

// pos describes a position in the middle of a hand, for scenario tests.
type pos struct {
	opts   string   // options, "players=3" when empty
	hands  []string // per seat
	pile   string   // bottom → top
	melds  []mspec  // in creation order
	stock  string   // top first; "rest" deals every other card (deck order)
	toMove int
	play   bool // the seat to move has drawn already
}

type mspec struct {
	cards string // as in a meld move
	owner int
}

func mustIdx(t testing.TB, list string) []int {
	t.Helper()
	out, err := parseIdxList(list)
	if err != nil {
		t.Fatalf("bad card list %q: %v", list, err)
	}
	return out
}

// build makes the state of a position.
func build(t testing.TB, p pos) *State {
	t.Helper()
	opts := p.opts
	if opts == "" {
		opts = "players=3"
	}
	o, err := game.ParseOptions(opts)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Engine{}.New(o)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	n := s.cfg.n
	s.handNo = 1
	s.dealer = (p.toMove + n - 1) % n
	s.toMove = p.toMove
	s.phase = phDraw
	if p.play {
		s.phase = phPlay
	}
	var counts [53]int
	var full [maxCards]uint8
	total := s.fullDeck(&full)
	for _, c := range full[:total] {
		counts[c]++
	}
	use := func(c int) {
		counts[c]--
		if counts[c] < 0 {
			t.Fatalf("position uses too many %s", cardStr(c))
		}
	}
	for i, h := range p.hands {
		for _, c := range mustIdx(t, h) {
			use(c)
			s.hands[i].add(c)
		}
	}
	for _, c := range mustIdx(t, p.pile) {
		use(c)
		s.pile[s.pileN] = uint8(c)
		s.pileN++
	}
	for _, ms := range p.melds {
		m, err := ParseMove("meld " + ms.cards)
		if err != nil {
			t.Fatal(err)
		}
		nm, reason := shape(m.Set, m.Set2, m.B)
		if reason != "" {
			t.Fatalf("bad meld %q: %s", ms.cards, reason)
		}
		for x := nm.faces &^ nm.jokers; x != 0; x &= x - 1 {
			use(x.Lowest())
		}
		for j := nm.jokers.Count(); j > 0; j-- {
			use(jokerIx)
		}
		s.place(nm, ms.owner)
	}
	var stock []int
	if p.stock == "rest" {
		for c := 0; c < 53; c++ {
			for k := 0; k < counts[c]; k++ {
				stock = append(stock, c)
			}
		}
	} else {
		stock = mustIdx(t, p.stock)
		for _, c := range stock {
			use(c)
		}
	}
	s.stockN = len(stock)
	for j, c := range stock {
		s.stock[len(stock)-1-j] = uint8(c)
	}
	return s
}

func legalTexts(s *State) []string {
	var out []string
	for _, m := range s.Legal(game.Seat(s.toMove), nil) {
		out = append(out, FormatMove(m))
	}
	sort.Strings(out)
	return out
}

func hasLegal(s *State, text string) bool {
	for _, l := range legalTexts(s) {
		if l == text {
			return true
		}
	}
	return false
}

// play applies a move in text for the seat to move and fails the test if it
// is refused.
func play(t testing.TB, s *State, text string) {
	t.Helper()
	seat := game.Seat(s.toMove)
	m, err := s.ParseMove(text)
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	if !hasLegal(s, text) {
		t.Fatalf("%q is not among the legal moves %v", text, legalTexts(s))
	}
	if err := s.Apply(seat, m); err != nil {
		t.Fatalf("apply %q: %v", text, err)
	}
}

// refused checks that a move (text) of the seat to move is refused with the
// code, is not listed as legal, and changes nothing.
func refused(t testing.TB, s *State, text string, code game.ErrorCode) {
	t.Helper()
	before := s.Clone().(*State)
	m, err := s.ParseMove(text)
	if err == nil {
		if hasLegal(s, text) {
			t.Fatalf("%q is listed as legal", text)
		}
		err = s.Apply(game.Seat(s.toMove), m)
	}
	if err == nil {
		t.Fatalf("%q was accepted", text)
	}
	if !errors.Is(err, code) {
		t.Fatalf("%q: want %s, got %v", text, code, err)
	}
	if !reflect.DeepEqual(before, s) {
		t.Fatalf("refused %q changed the state", text)
	}
}

func handStr(s *State, seat int) string { return strings.Join(s.hands[seat].strs(), " ") }

// meldOwners lists a meld's cards with their owners: "4D:1 5D:1 6D:1 7D:0".
func meldOwners(s *State, k int) string {
	m := &s.melds[k]
	var parts []string
	for _, sl := range m.order(nil) {
		parts = append(parts, cardStr(m.slotFace(sl))+":"+itoa(int(m.owner[sl])))
	}
	return strings.Join(parts, " ")
}

// strs prints the hand sorted, one string per card.
func (h Hand) strs() []string {
	out := []string{}
	for _, i := range h.Indices(nil) {
		out = append(out, cardStr(i))
	}
	return out
}

// cardList prints cards separated by spaces.
func cardList(cs []game.Card) string { return string(appendCardList(nil, cs)) }

func mustMove(t testing.TB, text string) game.Move {
	t.Helper()
	m, err := ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checkLegal checks s's legal moves: exactly want (unless nil), each of
// has among them, and each of not refused as illegal.
func checkLegal(t *testing.T, s *State, want, has, not []string) {
	t.Helper()
	got := legalTexts(s)
	if want != nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("legal %v, want %v", got, want)
	}
	for _, l := range has {
		if !hasLegal(s, l) {
			t.Errorf("%s not legal: %v", l, got)
		}
	}
	for _, l := range not {
		refused(t, s, l, game.ErrIllegal)
	}
}
