package pisyedili

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"cardroom/game"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// goldenGame plays a fixed game (random moves, voluntary draws only when
// nothing else is left after the first 150 moves) and calls at with every
// position, chance steps included. It stops when at returns false.
func goldenGame(t testing.TB, o game.Options, seed uint64, at func(s *State, step int) bool) {
	st, err := Engine{}.New(o)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	r := game.NewRand(seed)
	var buf []game.Move
	for step := 0; step < 20000; step++ {
		if !at(s, step) || s.Over() {
			return
		}
		if s.ChancePending() {
			s.RollChance(&r)
			continue
		}
		buf = s.Legal(game.Seat(s.turn), buf[:0])
		m := buf[r.IntN(len(buf))]
		if step > 150 {
			m = playFirst(buf, &r)
		}
		if err := s.Apply(game.Seat(s.turn), m); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("the golden game did not end")
}

// TestViewGolden pins the JSON of the view (field names, order, card texts,
// nulls and empty lists) at the first position of a fixed game showing
// each part of the view, for the spectator and seat 0: a shown void, a
// chain, a suspended drawing, a stock pool, the end-of-hand draws, a hand
// between hands and the end of the game. go test -update rewrites it.
func TestViewGolden(t *testing.T) {
	o := game.Options{"players": "3", "hands": "2", "seven_stack": "doubling", "finishing_card_effects": "true"}
	features := []struct {
		name string
		has  func(v *View) bool
	}{
		{"before the first deal", func(v *View) bool { return v.Round == 0 }},
		{"opening round", func(v *View) bool { return v.Stage == PhaseOpening }},
		{"shown void", func(v *View) bool { return len(v.Shown) > 0 }},
		{"chain", func(v *View) bool { return v.Chain != nil }},
		{"after a draw", func(v *View) bool { return v.Stage == PhaseAfterDraw && v.Turn == 0 }},
		{"stock pool", func(v *View) bool { return v.StockPool != nil && v.StockPool.Len() > 0 }},
		{"drawing", func(v *View) bool { return v.Drawing != nil }},
		{"hand over", func(v *View) bool { return v.Stage == PhaseHandOver }},
		{"between hands", func(v *View) bool { return v.Stage == PhaseDeal && v.Round == 1 }},
		{"game over", func(v *View) bool { return v.Stage == PhaseOver }},
	}
	var out bytes.Buffer
	found := map[string]bool{}
	goldenGame(t, o, 2, func(s *State, step int) bool {
		v := s.View(0).(*View)
		for _, f := range features {
			if found[f.name] || !f.has(v) {
				continue
			}
			found[f.name] = true
			for _, obs := range []game.Seat{game.Spectator, 0} {
				b, err := json.Marshal(s.View(obs))
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&out, "# %s (step %d), observer %d\n%s\n", f.name, step, obs, b)
			}
		}
		return true
	})
	for _, f := range features {
		if !found[f.name] {
			t.Errorf("the golden game has no position with %s", f.name)
		}
	}
	path := filepath.Join("testdata", "views.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run TestViewGolden -update writes it)", err)
	}
	if got := out.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("line %d of %s differs:\n got %s\nwant %s", i+1, path, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d lines, want %d", path, len(gl), len(wl))
	}
}

// TestViewJSONHeader: AppendViewJSON writes the view's JSON, which has the
// shared header's names and meanings at its top level (and none of the
// names it replaced): the phase is "over" exactly at the end, to_act is a
// list (empty while chance is pending), round counts the hands dealt,
// round_count is the hands option, round_scores are Result().Rounds and
// the points of the finished hands.
func TestViewJSONHeader(t *testing.T) {
	o := game.Options{"players": "4", "hands": "2"}
	overSeen, chanceSeen := 0, 0
	goldenGame(t, o, 9, func(s *State, step int) bool {
		for obs := game.Spectator; int(obs) < s.n; obs++ {
			b, err := json.Marshal(s.View(obs))
			if err != nil {
				t.Fatal(err)
			}
			// The server's path (reused memory, the options written once)
			// writes the same bytes.
			if d := s.AppendViewJSON([]byte("x"), obs); string(d[1:]) != string(b) {
				t.Fatalf("step %d: AppendViewJSON of %d:\n%s\nwant the view's JSON:\n%s", step, obs, d[1:], b)
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			for _, gone := range []string{"hand_no", "hands", "rounds"} {
				if _, ok := m[gone]; ok {
					t.Fatalf("step %d: the view still has %q", step, gone)
				}
			}
			var h struct {
				Observer    game.Seat   `json:"observer"`
				Players     int         `json:"players"`
				Phase       string      `json:"phase"`
				ToAct       []game.Seat `json:"to_act"`
				HandSizes   []int       `json:"hand_sizes"`
				Totals      []int       `json:"totals"`
				Round       int         `json:"round"`
				RoundCount  int         `json:"round_count"`
				RoundScores [][]int     `json:"round_scores"`
				Finished    []struct {
					Points []int `json:"points"`
				} `json:"finished"`
			}
			if err := json.Unmarshal(b, &h); err != nil {
				t.Fatal(err)
			}
			res := s.Result()
			switch {
			case string(m["to_act"]) == "null" || string(m["round_scores"]) == "null":
				t.Fatalf("step %d: to_act %s, round_scores %s: want lists", step, m["to_act"], m["round_scores"])
			case h.Observer != obs || h.Players != 4 || h.RoundCount != 2 || h.Round != s.hand:
				t.Fatalf("step %d: header %+v", step, h)
			case (h.Phase == "over") != s.Over() || h.Phase == "game_over":
				t.Fatalf("step %d: phase %q, over %v", step, h.Phase, s.Over())
			case !slices.Equal(h.ToAct, s.ToAct(nil)):
				t.Fatalf("step %d: to_act %v, state %v", step, h.ToAct, s.ToAct(nil))
			case s.ChancePending() && len(h.ToAct) != 0:
				t.Fatalf("step %d: to_act %v while chance is pending", step, h.ToAct)
			case !reflect.DeepEqual(h.RoundScores, res.Rounds) || len(h.Finished) != len(res.Rounds):
				t.Fatalf("step %d: round_scores %v, result %v", step, h.RoundScores, res.Rounds)
			case !slices.Equal(h.Totals, res.Totals) || len(h.HandSizes) != 4:
				t.Fatalf("step %d: totals %v hand sizes %v", step, h.Totals, h.HandSizes)
			}
			for i, f := range h.Finished {
				if !slices.Equal(f.Points, h.RoundScores[i]) {
					t.Fatalf("step %d: finished hand %d scored %v, round_scores %v", step, i+1, f.Points, h.RoundScores[i])
				}
			}
			if s.Over() {
				overSeen++
			}
			if s.ChancePending() {
				chanceSeen++
			}
		}
		return true
	})
	if overSeen != 5 || chanceSeen == 0 {
		t.Fatalf("the game's end seen by %d observers (want 5), %d chance positions", overSeen, chanceSeen)
	}
}

// TestCards: the multiset of two decks counts copies, lists faces in the
// notation's order with both copies together, and prints them.
func TestCards(t *testing.T) {
	var c Cards
	for _, x := range cards(t, "7H KS 7H JK 2C") {
		c.Add(x)
	}
	if c.Len() != 5 || c.Count(card(t, "7H")) != 2 || c.Count(card(t, "KS")) != 1 || c.Count(card(t, "8D")) != 0 {
		t.Fatalf("Len %d, counts %d %d", c.Len(), c.Count(card(t, "7H")), c.Count(card(t, "KS")))
	}
	want := cardsOf(s1(t, "7H KS 7H JK 2C")).String()
	if got := c.String(); got != want || !strings.Contains(got, "7H 7H") {
		t.Fatalf("String %q, want %q with both 7H together", got, want)
	}
	list := c.List(nil)
	if len(list) != 5 || game.Standard.FormatList(list) != c.String() || !slices.Equal(c.Strings(), strings.Fields(c.String())) {
		t.Fatalf("List %v, String %q", list, c)
	}
	if (Cards{}).Strings() == nil || len((Cards{}).Strings()) != 0 {
		t.Fatal("an empty set must list as [], not null")
	}
}

// s1 is the multiset masks of a list of cards, built with msAdd.
func s1(t *testing.T, text string) (game.Mask, game.Mask) {
	var m1, m2 game.Mask
	for _, c := range cards(t, text) {
		msAdd(&m1, &m2, idx(c))
	}
	return m1, m2
}

// TestSampleRejectsBadViews: a view whose typed fields make no state is
// refused, and the view itself samples.
func TestSampleRejectsBadViews(t *testing.T) {
	var s *State
	goldenGame(t, game.Options{"players": "3"}, 5, func(st *State, step int) bool {
		if st.ph == PhaseNormal && st.pileN > 1 && !st.ChancePending() {
			s = st.Clone().(*State)
			return false
		}
		return true
	})
	v := s.View(0).(*View)
	r := game.NewRand(1)
	if _, err := (Engine{}).Sample(v, &r); err != nil {
		t.Fatalf("the view itself: %v", err)
	}
	for name, spoil := range map[string]func(v *View){
		"phase name":   func(v *View) { v.Phase = "play" },
		"phase":        func(v *View) { v.Stage = 42 },
		"chance":       func(v *View) { v.Chance = 9 },
		"turn":         func(v *View) { v.Turn = 7 },
		"second copy":  func(v *View) { v.Hand.Twice |= game.Bit(5) &^ v.Hand.Once },
		"no such card": func(v *View) { v.Hand.Once |= game.Bit(60) },
		"pile card":    func(v *View) { v.Pile = append(v.Pile, game.NoCard) },
		"too many":     func(v *View) { v.Pile = append(v.Pile, v.Pile[0], v.Pile[0]) },
		"stock":        func(v *View) { v.StockSize = 500 },
		"void":         func(v *View) { v.Shown = append(v.Shown, Void{Seat: 9, Lacks: 1}) },
		"chain":        func(v *View) { v.Chain = &Chain{Kind: 7, Count: 1} },
		"sizes":        func(v *View) { v.HandSizes = v.HandSizes[:2] },
		"plays":        func(v *View) { v.Plays = v.Plays[:1] },
		"play seat":    func(v *View) { v.Plays[1].Seat = 3 },
		"play kind":    func(v *View) { v.Plays[1].Kind = 9 },
		"play since":   func(v *View) { v.Plays[1].Since = -1 },
		"play sizes":   func(v *View) { v.Plays[1].Sizes = v.Plays[1].Sizes[:2] },
		"play size":    func(v *View) { v.Plays[1].Sizes[0] = 200 },
		"play suit":    func(v *View) { v.Plays[1].Suit, v.Plays[1].HasSuit = 7, true },
	} {
		w := s.View(0).(*View)
		spoil(w)
		if _, err := (Engine{}).Sample(w, &r); err == nil {
			t.Errorf("%s: a spoilt view was sampled", name)
		}
		if _, err := NewSampler(w); err == nil {
			t.Errorf("%s: a spoilt view made a Sampler", name)
		}
	}
}

// TestAppendViewJSON: at every step of whole games of several options and
// sizes, for every observer, AppendViewJSON writes exactly the JSON of
// View (the server's path, from memory the previous views of other games,
// sizes and phases used), and once its memory has grown it allocates
// nothing in a hand with a long pile.
func TestAppendViewJSON(t *testing.T) {
	for gi, o := range []game.Options{
		{"players": "3", "hands": "2", "seven_stack": "doubling", "finishing_card_effects": "true"},
		{"players": "4", "hands": "3"},
		{"players": "2", "hands": "2"},
		{"players": "6", "hands": "1", "jokers": "true"},
	} {
		steps := 0
		goldenGame(t, o, uint64(gi+3), func(s *State, step int) bool {
			steps++
			for obs := game.Spectator; int(obs) < s.n; obs++ {
				want, err := json.Marshal(s.View(obs))
				if err != nil {
					t.Fatal(err)
				}
				if got := s.AppendViewJSON([]byte("x"), obs); string(got[1:]) != string(want) {
					t.Fatalf("%v step %d: AppendViewJSON of %d:\n%s\nwant the view's JSON:\n%s", o, step, obs, got[1:], want)
				}
			}
			return true
		})
		if steps < 50 {
			t.Fatalf("%v: %d steps", o, steps)
		}
	}
	var pos *State
	goldenGame(t, game.Options{"players": "4", "hands": "2"}, 5, func(s *State, step int) bool {
		if s.pileN >= 20 && !s.ChancePending() {
			pos = s
			return false
		}
		return true
	})
	if pos == nil {
		t.Fatal("no position with a pile of 20 cards")
	}
	out := make([]byte, 0, 32768)
	obs := game.Seat(0)
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops items: no allocation count")
	}
	allocs := testing.AllocsPerRun(100, func() {
		out = pos.AppendViewJSON(out[:0], obs)
		if obs++; int(obs) >= pos.n { // every seat, then the spectator
			obs = game.Spectator
		}
	})
	if allocs != 0 {
		t.Fatalf("AppendViewJSON: %.1f allocations a view, want 0", allocs)
	}
}
