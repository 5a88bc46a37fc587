package gametest_test

import (
	"strings"
	"testing"

	"cardroom/game"
	"cardroom/game/gametest"
	"cardroom/games/papayoo"
)

// lying is a Papayoo state whose Pick is spoiled.
type lying struct {
	*papayoo.State
	spoil func(p *game.Pick)
}

func (l lying) Pick(s game.Seat) (game.Pick, bool) {
	p, ok := l.State.Pick(s)
	if ok {
		l.spoil(&p)
	}
	return p, ok
}

// TestPickProblemCatches: a Pick that does not describe the Legal list is
// reported, and the engine's own is not.
func TestPickProblemCatches(t *testing.T) {
	st, err := papayoo.NewState(game.Options{"players": "4", "first_dealer": "0"})
	if err != nil {
		t.Fatal(err)
	}
	r := game.NewRand(3)
	for st.ChancePending() {
		st.RollChance(&r)
	}
	p, ok := st.Pick(1)
	if !ok || p.Verb != "pass" || p.N != 5 || p.From.Count() != 15 || p.Count() != 3003 {
		t.Fatalf("Pick(1) = %+v, %v; want pass 5 of 15 (3003 moves)", p, ok)
	}
	if got := gametest.PickProblem(st, 1); got != "" {
		t.Fatalf("the engine's Pick: %s", got)
	}
	for name, spoil := range map[string]func(p *game.Pick){
		"more cards":  func(p *game.Pick) { p.N++ },
		"other verb":  func(p *game.Pick) { p.Verb = "play" },
		"fewer cards": func(p *game.Pick) { p.From &= p.From - 1 },
		"other card": func(p *game.Pick) {
			out := papayoo.DeckFor(4) &^ st.Hand(1)
			p.From = p.From&^(p.From&-p.From) | out&-out
		},
	} {
		if got := gametest.PickProblem(lying{st, spoil}, 1); !strings.Contains(got, "seat 1") {
			t.Errorf("%s: PickProblem = %q, want a problem", name, got)
		}
	}
	// After the seat has passed it has no Pick.
	if err := st.Apply(1, st.Legal(1, nil)[7]); err != nil {
		t.Fatal(err)
	}
	if _, ok := st.Pick(1); ok {
		t.Error("Pick after the seat's pass: ok")
	}
}

func TestPickCount(t *testing.T) {
	for _, c := range []struct {
		from, n, want int
	}{{15, 5, 3003}, {10, 3, 120}, {20, 5, 15504}, {5, 5, 1}, {5, 0, 1}, {4, 5, 0}, {0, 0, 1}, {3, -1, 0}} {
		p := game.Pick{N: c.n, From: game.Mask(1)<<uint(c.from) - 1}
		if got := p.Count(); got != c.want {
			t.Errorf("C(%d,%d) = %d, want %d", c.from, c.n, got, c.want)
		}
	}
}
