package papayoo

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"cardroom/game"
)

// mustMask reads a space-separated card list.
func mustMask(t testing.TB, s string) game.Mask {
	t.Helper()
	m, err := parseCardSet(strings.Fields(s))
	if err != nil {
		t.Fatalf("bad card list %q: %v", s, err)
	}
	return m
}

func mustNew(t testing.TB, opts string) *State {
	t.Helper()
	o, err := game.ParseOptions(opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewState(o)
	if err != nil {
		t.Fatalf("New(%s): %v", opts, err)
	}
	return s
}

func mustApply(t testing.TB, s *State, seat int, text string) {
	t.Helper()
	m, err := s.ParseMove(text)
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	if err := s.Apply(game.Seat(seat), m); err != nil {
		t.Fatalf("seat %d %q: %v", seat, text, err)
	}
}

func mustChance(t testing.TB, s *State, text string) {
	t.Helper()
	if err := s.ApplyChance(text); err != nil {
		t.Fatalf("chance %q: %v", text, err)
	}
}

// position builds a trick-play position directly: n players, the given
// dealer and die suit (0..3), and the given hands (all the same size, which
// becomes the number of tricks left in the round), with leader to lead.
// It is a constructed mid-round position, used by the conformance tests of
// trick rules (§4.5, §4.6).
func position(t testing.TB, n, dealer, die, leader int, hands ...string) *State {
	t.Helper()
	s := mustNew(t, "players="+strconv.Itoa(n)+" first_dealer="+strconv.Itoa(dealer))
	var h [8]game.Mask
	for i, x := range hands {
		h[i] = mustMask(t, x)
	}
	s.setDeal(&h)
	s.hs = int8(h[0].Count())
	s.passed = 1<<uint(n) - 1
	s.phase = phDie
	s.setDie(die)
	s.leader, s.turn = int8(leader), int8(leader)
	s.leaders[0] = int8(leader)
	return s
}

func legalTexts(s *State, seat int) []string {
	var out []string
	for _, m := range s.Legal(game.Seat(seat), nil) {
		out = append(out, s.FormatMove(m))
	}
	return out
}

// sameState compares two states deeply.
func sameState(a, b *State) bool { return reflect.DeepEqual(a, b) }

// checkInvariants verifies that every card in play is in exactly one place
// (a hand or the round's plays), hand sizes, and the points of the round.
func checkInvariants(t testing.TB, s *State) {
	t.Helper()
	if s.phase != phPass && s.phase != phDie && s.phase != phPlay {
		return
	}
	n := int(s.n)
	var seen game.Mask
	place := func(m game.Mask, where string) {
		if x := seen & m; x != 0 {
			t.Fatalf("cards %s in two places (%s)", x.Format(deck), where)
		}
		seen |= m
	}
	for i := 0; i < n; i++ {
		place(s.hands[i], "hand "+strconv.Itoa(i))
	}
	np := int(s.tricks)*n + int(s.inTrick)
	for k := 0; k < np; k++ {
		place(game.Bit(int(s.plays[k])), "plays")
	}
	if seen != s.deck {
		t.Fatalf("cards in play %s, want the deck (missing %s, extra %s)", seen.Format(deck), (s.deck &^ seen).Format(deck), (seen &^ s.deck).Format(deck))
	}
	for i := 0; i < n; i++ {
		want := int(s.hs) - int(s.tricks)
		if s.phase == phPlay && int(s.inTrick) > (i-int(s.leader)+n)%n {
			want--
		}
		if got := s.hands[i].Count(); got != want {
			t.Fatalf("seat %d holds %d cards, want %d", i, got, want)
		}
	}
}

// randomStep rolls the pending chance outcome, or plays a uniformly random
// legal move of the first seat to act.
func randomStep(t testing.TB, s *State, r *game.Rand) {
	t.Helper()
	if s.ChancePending() {
		s.RollChance(r)
		return
	}
	seat := s.ToAct(nil)[0]
	ms := s.Legal(seat, nil)
	if err := s.Apply(seat, ms[r.IntN(len(ms))]); err != nil {
		t.Fatal(err)
	}
}
