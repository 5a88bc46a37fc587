package arena

import (
	"context"
	"math"
	"strings"
	"testing"

	"cardroom/bot"
	"cardroom/bot/ceiling"
	"cardroom/game"
	"cardroom/games"
)

func seats(t *testing.T, ss ...string) []bot.Spec {
	t.Helper()
	var out []bot.Spec
	for _, s := range ss {
		sp, err := ParseSeat(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sp)
	}
	return out
}

// TestParseSeat: the arena knows the ceiling; everything else is
// bot.ParseSpec's.
func TestParseSeat(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"ceiling", "ceiling", true},
		{"ceiling:300", "ceiling:300", true},
		{"ceiling-hands", "ceiling-hands", true},
		{"ceiling-hands:300", "ceiling-hands:300", true},
		{"ceiling-hands:200ms", "", false},
		{"hard:300", "hard:300", true},
		{"medium", "medium", true},
		{"ceiling:200ms", "", false},
		{"ceiling:0", "", false},
		{"nonsense", "", false},
	}
	for _, tc := range cases {
		sp, err := ParseSeat(tc.in)
		if (err == nil) != tc.ok || (tc.ok && sp.String() != tc.want) {
			t.Errorf("ParseSeat(%q) = %v, %v; want %q, ok %v", tc.in, sp, err, tc.want, tc.ok)
		}
	}
	if sp, _ := ParseSeat("ceiling:300"); sp.Level != ceiling.Level || sp.Iterations != 300 {
		t.Errorf("ParseSeat(ceiling:300) = %+v", sp)
	}
	if sp, _ := ParseSeat("ceiling-hands:300"); sp.Level != ceiling.HandsLevel || sp.Iterations != 300 {
		t.Errorf("ParseSeat(ceiling-hands:300) = %+v", sp)
	}
}

// TestCeilingBeatsRandom: a small arena on duplicate deals; the all-seeing
// bot (a small budget) takes far fewer Papayoo points than the random
// players holding the same cards.
func TestCeilingBeatsRandom(t *testing.T) {
	e, err := games.Lookup("papayoo")
	if err != nil {
		t.Skip("papayoo not registered")
	}
	rep, err := Run(context.Background(), Config{Engine: e, Options: game.Options{"players": "4", "rounds": "1"},
		Seats: seats(t, "ceiling:100", "random", "random", "random"), Deals: 3, Seed: 11, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Pairs) != 1 || rep.Pairs[0].A != "ceiling:100" || rep.Pairs[0].B != "random" {
		t.Fatalf("pairs %+v", rep.Pairs)
	}
	// Random takes about 80 points a round against random, medium about 9
	// (docs/bots.md): the ceiling must do at least as well as half-way.
	if d := rep.Pairs[0].Points.Mean; d > -35 {
		t.Errorf("ceiling − random = %.1f points a round on the same deals, want < −35", d)
	}
	if len(rep.Speed) != 2 {
		t.Errorf("speed of %d bots, want 2", len(rep.Speed))
	}
}

// TestRatioCI: worked examples of the share of a gap.
func TestRatioCI(t *testing.T) {
	cases := []struct {
		name      string
		xs, ys    []float64
		mean      float64
		zeroWidth bool
		undefined bool
	}{
		{"exact half", []float64{1, 2, 3}, []float64{2, 4, 6}, 0.5, true, false},
		{"noisy", []float64{1, 3, 2, 2}, []float64{4, 4, 4, 4}, 0.5, false, false},
		{"no gap", []float64{1, 2}, []float64{1, -1}, 0, false, true},
	}
	for _, tc := range cases {
		s := RatioCI(tc.xs, tc.ys)
		if tc.undefined {
			if s.N != 0 {
				t.Errorf("%s: %+v, want undefined", tc.name, s)
			}
			continue
		}
		if math.Abs(s.Mean-tc.mean) > 1e-12 || s.Lo > s.Mean || s.Hi < s.Mean {
			t.Errorf("%s: %+v, want mean %v inside its interval", tc.name, s, tc.mean)
		}
		if w := s.Hi - s.Lo; tc.zeroWidth != (w < 1e-12) {
			t.Errorf("%s: interval width %v", tc.name, w)
		}
	}
	// noisy: x − 0.5·y = −1, 1, 0, 0: sd √(2/3), half-width t(3)·sd/2 / 4.
	s := RatioCI([]float64{1, 3, 2, 2}, []float64{4, 4, 4, 4})
	if want := 3.182 * math.Sqrt(2.0/3) / 2 / 4; math.Abs((s.Hi-s.Mean)-want) > 1e-9 {
		t.Errorf("noisy: half-width %v, want %v", s.Hi-s.Mean, want)
	}
}

// TestRunGap: the base is at 0, the top at 1, and a bot in between is
// placed by its paired differences; the base against a field of itself
// takes exactly the table's average (250 / 4 Papayoo points).
func TestRunGap(t *testing.T) {
	e, err := games.Lookup("papayoo")
	if err != nil {
		t.Skip("papayoo not registered")
	}
	gr, err := RunGap(context.Background(), GapConfig{
		Config:   Config{Engine: e, Options: game.Options{"players": "4", "rounds": "1"}, Deals: 2, Seed: 3, Workers: 2},
		Field:    seats(t, "random")[0],
		Subjects: seats(t, "random", "medium", "ceiling:60"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(gr.Rows) != 3 || gr.Rows[0].Metric != "points" || len(gr.Runs) != 3 {
		t.Fatalf("rows %+v", gr.Rows)
	}
	pts := gr.Rows[0]
	if pts.Value[0].Mean != 62.5 || pts.Diff[0].Mean != 0 {
		t.Errorf("base: %+v, diff %+v; want 62.5 and 0", pts.Value[0], pts.Diff[0])
	}
	if pts.Closed[0].Mean != 0 || math.Abs(pts.Closed[2].Mean-1) > 1e-12 {
		t.Errorf("closed: base %v, top %v; want 0 and 1", pts.Closed[0].Mean, pts.Closed[2].Mean)
	}
	if pts.Diff[1].Mean >= 0 || pts.Diff[2].Mean >= 0 {
		t.Errorf("medium %v and ceiling %v points against random, want both negative", pts.Diff[1].Mean, pts.Diff[2].Mean)
	}
	if want := pts.Diff[1].Mean / pts.Diff[2].Mean; math.Abs(pts.Closed[1].Mean-want) > 1e-12 {
		t.Errorf("medium closes %v, want %v", pts.Closed[1].Mean, want)
	}
	if _, err := RunGap(context.Background(), GapConfig{Config: Config{Engine: e, Options: game.Options{"players": "4"}, Deals: 1},
		Field: seats(t, "random")[0], Subjects: seats(t, "random")}); err == nil {
		t.Error("a gap with one subject ran")
	}
}

// TestCeilingHandsPlays: the hands-but-not-stock yardstick takes its seat
// in a Pis Yedili arena (every rotation), plays whole hands and is named in
// the report; in a game whose stock it cannot hide it is an error, not a
// silent plain ceiling.
func TestCeilingHandsPlays(t *testing.T) {
	cases := []struct {
		game string
		opts game.Options
		ok   bool
	}{
		{"pisyedili", game.Options{"players": "4", "hands": "1"}, true},
		{"papayoo", game.Options{"players": "4", "rounds": "1"}, false},
	}
	for _, tc := range cases {
		e, err := games.Lookup(tc.game)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Run(context.Background(), Config{Engine: e, Options: tc.opts,
			Seats: seats(t, "ceiling-hands:20", "medium", "medium", "medium"), Deals: 1, Seed: 5, Workers: 2})
		if !tc.ok {
			if err == nil {
				t.Errorf("%s: ceiling-hands played", tc.game)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.game, err)
		}
		if len(rep.Games) != 4 || len(rep.Pairs) != 1 || rep.Pairs[0].A != "ceiling-hands:20" {
			t.Fatalf("%s: %d games, pairs %+v", tc.game, len(rep.Games), rep.Pairs)
		}
		for _, g := range rep.Games {
			if len(g.Rounds) != 1 {
				t.Errorf("%s: rotation %d scored %d hands", tc.game, g.Rotation, len(g.Rounds))
			}
		}
	}
}

// TestGapPrintAligned: a seat name longer than the first column
// ("ceiling-hands:4000") widens the column for every row, so the values
// stay under their heading.
func TestGapPrintAligned(t *testing.T) {
	st := Stat{Mean: 1, Lo: 0.5, Hi: 1.5, N: 3}
	gr := &GapReport{Game: "pisyedili", Subjects: []string{"medium", "hard:4000", "ceiling-hands:4000"}, Deals: 3,
		Rows: []GapRow{{Metric: "rounds", Value: []Stat{st, st, st}, Diff: []Stat{st, st, st}, Closed: []Stat{{}, st, {}}}}}
	var b strings.Builder
	gr.Print(&b)
	var cols []int
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(line, "  ") {
			f := strings.Fields(line)
			cols = append(cols, strings.Index(line[2+len(f[0]):], f[1])+2+len(f[0]))
		}
	}
	if len(cols) != 4 {
		t.Fatalf("%d table lines, want 4:\n%s", len(cols), b.String())
	}
	for _, c := range cols[1:] {
		if c != cols[0] {
			t.Fatalf("the second column starts at %v, not at one place:\n%s", cols, b.String())
		}
	}
}
