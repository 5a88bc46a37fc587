package gametest_test

import (
	"strings"
	"testing"

	"cardroom/game"
	"cardroom/game/gametest"
	"cardroom/games/rum500"
)

// skewed is a state whose views have one header field wrong.
type skewed struct {
	game.State
	spoil func(h *game.Header)
}

func (s skewed) View(o game.Seat) game.View {
	v := s.State.View(o)
	s.spoil(v.Head())
	return v
}

// TestCheckHeaderCatches: each kind of wrong header is reported, and a
// right one is not.
func TestCheckHeaderCatches(t *testing.T) {
	st, err := rum500.Engine{}.New(game.Options{"players": "3"})
	if err != nil {
		t.Fatal(err)
	}
	rng := game.NewRand(1)
	for st.ChancePending() {
		st.ApplyChance(st.SampleChance(&rng))
	}
	if msg := gametest.CheckHeader(st); msg != "" {
		t.Fatalf("a correct header reported: %s", msg)
	}
	cases := []struct {
		name  string
		spoil func(h *game.Header)
		want  string
	}{
		{"observer", func(h *game.Header) { h.Seat++ }, "observer"},
		{"players", func(h *game.Header) { h.Players = 9 }, "players"},
		{"to_act", func(h *game.Header) { h.ToAct = []game.Seat{0, 1, 2} }, "to_act"},
		{"hand sizes", func(h *game.Header) { h.HandSizes = h.HandSizes[:1] }, "hand sizes"},
		{"totals", func(h *game.Header) { h.Totals = []int{1, 2, 3} }, "totals"},
		{"round scores", func(h *game.Header) { h.RoundScores = [][]int{{1, 2, 3}} }, "round_scores"},
		{"phase", func(h *game.Header) { h.Phase = "" }, "phase"},
		{"over", func(h *game.Header) { h.Phase = game.PhaseOver }, "over"},
		{"round", func(h *game.Header) { h.Round = 5 }, "round"},
	}
	for _, c := range cases {
		msg := gametest.CheckHeader(skewed{st, c.spoil})
		if !strings.Contains(msg, c.want) {
			t.Errorf("%s: CheckHeader said %q, want a message naming %q", c.name, msg, c.want)
		}
	}
}
