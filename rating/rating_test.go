package rating

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// model is the bare update the reference implementations test: their
// defaults without Tau (they add it in rate, around the model) and
// without the sigma limit.
func model() Params {
	p := Default()
	p.Tau, p.LimitSigma = 0, false
	return p
}

// TestReference checks updates against numbers published by the reference
// implementations, each cited where it is written.
func TestReference(t *testing.T) {
	d := Default().New()
	team := func(n int) []Rating {
		out := make([]Rating, n)
		for i := range out {
			out[i] = d
		}
		return out
	}
	cases := []struct {
		name   string
		source string
		teams  [][]Rating
		ranks  []int
		want   [][]Rating
	}{
		{
			name:   "2p FFA",
			source: "philihp/openskill.js src/models/__tests__/plackett-luce.test.ts, '2p FFA'",
			teams:  [][]Rating{team(1), team(1)}, ranks: []int{1, 2},
			want: [][]Rating{{{27.63523138347365, 8.065506316323548}}, {{22.36476861652635, 8.065506316323548}}},
		},
		{
			name:   "3p FFA",
			source: "philihp/openskill.js src/models/__tests__/plackett-luce.test.ts, '3p FFA'",
			teams:  [][]Rating{team(1), team(1), team(1)}, ranks: []int{1, 2, 3},
			want: [][]Rating{{{27.868876552746237, 8.204837030780652}}, {{25.717219138186557, 8.057829747583874}}, {{21.413904309067206, 8.057829747583874}}},
		},
		{
			name:   "4p FFA",
			source: "philihp/openskill.js src/models/__tests__/plackett-luce.test.ts, '4p FFA'",
			teams:  [][]Rating{team(1), team(1), team(1), team(1)}, ranks: []int{1, 2, 3, 4},
			want: [][]Rating{{{27.795084971874736, 8.263160757613477}}, {{26.552824984374855, 8.179213704945203}},
				{{24.68943500312503, 8.083731307186588}}, {{20.96265504062538, 8.083731307186588}}},
		},
		{
			name:   "5p FFA",
			source: "philihp/openskill.js src/models/__tests__/plackett-luce.test.ts, '5p FFA'",
			teams:  [][]Rating{team(1), team(1), team(1), team(1), team(1)}, ranks: []int{1, 2, 3, 4, 5},
			want: [][]Rating{{{27.666666666666668, 8.290556877154474}}, {{26.833333333333332, 8.240145629781066}},
				{{25.72222222222222, 8.179996679645559}}, {{24.055555555555557, 8.111796013701358}}, {{20.72222222222222, 8.111796013701358}}},
		},
		{
			name:   "3 teams of different sizes",
			source: "philihp/openskill.js src/models/__tests__/plackett-luce.test.ts, '3 teams different sized players'",
			teams:  [][]Rating{team(3), team(1), team(2)}, ranks: []int{1, 2, 3},
			want: [][]Rating{
				{{25.939870821784513, 8.247641552260456}, {25.939870821784513, 8.247641552260456}, {25.939870821784513, 8.247641552260456}},
				{{27.21366020491262, 8.274321317985242}},
				{{21.84646897330287, 8.213058173195341}, {21.84646897330287, 8.213058173195341}},
			},
		},
		{
			name:   "2 teams of 2, unequal ratings",
			source: "vivekjoshy/openskill.py README.md, Usage: rate([[a1, a2], [b1, b2]])",
			teams:  [][]Rating{{d, {32.444, 5.123}}, {{43.381, 2.421}, {25.188, 6.211}}}, ranks: []int{1, 2},
			want: [][]Rating{
				{{28.669648436582808, 8.071520788025197}, {33.83086971107981, 5.062772998705765}},
				{{43.071274808241974, 2.4166900452721256}, {23.149503312339064, 6.1378606973362135}},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := model().RateTeams(c.teams, c.ranks)
			if err != nil {
				t.Fatal(err)
			}
			for i := range c.want {
				for j, w := range c.want[i] {
					g := got[i][j]
					if math.Abs(g.Mu-w.Mu) > 1e-9 || math.Abs(g.Sigma-w.Sigma) > 1e-9 {
						t.Errorf("side %d player %d = %v, want %v (%s)", i, j, g, w, c.source)
					}
				}
			}
		})
	}
}

// randomGame draws 2 to 8 players with assorted ratings and a ranking with
// ties now and then.
func randomGame(r *rand.Rand) ([]Rating, []int) {
	n := 2 + r.IntN(7)
	ps := make([]Rating, n)
	ranks := make([]int, n)
	for i := range ps {
		ps[i] = Rating{Mu: 10 + 30*r.Float64(), Sigma: 0.5 + 8*r.Float64()}
		ranks[i] = r.IntN(n)
	}
	return ps, ranks
}

// uniqueBest and uniqueWorst return the seat ranked first (last) alone, or -1.
func uniqueBest(ranks []int) int  { return uniqueAt(ranks, slices.Min(ranks)) }
func uniqueWorst(ranks []int) int { return uniqueAt(ranks, slices.Max(ranks)) }
func uniqueAt(ranks []int, v int) int {
	at := -1
	for i, x := range ranks {
		if x == v {
			if at >= 0 {
				return -1
			}
			at = i
		}
	}
	return at
}

// TestProperties checks what a rating must do whatever the inputs.
func TestProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	params := []struct {
		name string
		p    Params
	}{{"default", Default()}, {"no tau", model()}}
	for _, pc := range params {
		t.Run(pc.name, func(t *testing.T) {
			p := pc.p
			for g := 0; g < 3000; g++ {
				ps, ranks := randomGame(r)
				out, err := p.Rate(ps, ranks)
				if err != nil {
					t.Fatal(err)
				}
				if w := uniqueBest(ranks); w >= 0 {
					if out[w].Mu <= ps[w].Mu {
						t.Fatalf("game %v %v: the winner's mu went from %v to %v", ps, ranks, ps[w].Mu, out[w].Mu)
					}
					if p.LimitSigma && out[w].Ordinal() < ps[w].Ordinal() {
						t.Fatalf("game %v %v: a win lowered the rating from %v to %v", ps, ranks, ps[w].Ordinal(), out[w].Ordinal())
					}
				}
				if l := uniqueWorst(ranks); l >= 0 && out[l].Mu >= ps[l].Mu {
					t.Fatalf("game %v %v: the last's mu went from %v to %v", ps, ranks, ps[l].Mu, out[l].Mu)
				}
				for i := range ps {
					if out[i].Sigma > ps[i].Sigma+1e-12 || out[i].Sigma <= 0 {
						t.Fatalf("game %v %v: sigma of %d went from %v to %v", ps, ranks, i, ps[i].Sigma, out[i].Sigma)
					}
				}
				// Symmetry: rating a shuffled table gives the shuffled answer.
				perm := r.Perm(len(ps))
				ps2, ranks2 := make([]Rating, len(ps)), make([]int, len(ps))
				for i, j := range perm {
					ps2[i], ranks2[i] = ps[j], ranks[j]
				}
				out2, err := p.Rate(ps2, ranks2)
				if err != nil {
					t.Fatal(err)
				}
				for i, j := range perm {
					if !close(out2[i], out[j]) {
						t.Fatalf("game %v %v: seat %d rated %v, shuffled to %d it is %v", ps, ranks, j, out[j], i, out2[i])
					}
				}
			}
		})
	}
}

func close(a, b Rating) bool {
	return math.Abs(a.Mu-b.Mu) < 1e-9 && math.Abs(a.Sigma-b.Sigma) < 1e-9
}

// TestTies: equal players who tie stay equal, and a table that all ties
// among equals moves nobody's mu.
func TestTies(t *testing.T) {
	p := Default()
	d := p.New()
	other := Rating{Mu: 30, Sigma: 4}
	cases := []struct {
		name    string
		players []Rating
		ranks   []int
		equal   [][2]int // pairs of seats whose new ratings must be equal
		same    []int    // seats whose mu must not move
	}{
		{"two equals tie", []Rating{d, d}, []int{0, 0}, [][2]int{{0, 1}}, []int{0, 1}},
		{"four equals all tie", []Rating{d, d, d, d}, []int{1, 1, 1, 1}, [][2]int{{0, 1}, {1, 2}, {2, 3}}, []int{0, 1, 2, 3}},
		{"shared first of four", []Rating{d, d, d, d}, []int{0, 0, 2, 3}, [][2]int{{0, 1}}, nil},
		{"shared last, another player ahead", []Rating{other, d, d}, []int{0, 1, 1}, [][2]int{{1, 2}}, nil},
		{"shared middle", []Rating{d, d, d, d}, []int{0, 1, 1, 3}, [][2]int{{1, 2}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := p.Rate(c.players, c.ranks)
			if err != nil {
				t.Fatal(err)
			}
			for _, pr := range c.equal {
				if !close(out[pr[0]], out[pr[1]]) {
					t.Errorf("seats %d and %d tied as equals but rate %v and %v", pr[0], pr[1], out[pr[0]], out[pr[1]])
				}
			}
			for _, i := range c.same {
				if math.Abs(out[i].Mu-c.players[i].Mu) > 1e-9 {
					t.Errorf("seat %d: mu moved from %v to %v in a tie of equals", i, c.players[i].Mu, out[i].Mu)
				}
			}
		})
	}
	// A shared first is worth less than a first alone, more than a second.
	alone, _ := p.Rate([]Rating{d, d, d}, []int{0, 1, 2})
	shared, _ := p.Rate([]Rating{d, d, d}, []int{0, 0, 2})
	// (Plackett–Luce values a shared first of three as a second alone.)
	if !(shared[0].Mu < alone[0].Mu && shared[0].Mu >= alone[1].Mu-1e-9) {
		t.Errorf("shared first %v, first alone %v, second %v", shared[0].Mu, alone[0].Mu, alone[1].Mu)
	}
}

// TestOrderOnly: ranks count by their order, not their values.
func TestOrderOnly(t *testing.T) {
	p := Default()
	ps := []Rating{{25, 8}, {28, 3}, {20, 6}, {25, 2}}
	a, _ := p.Rate(ps, []int{0, 1, 1, 3})
	b, _ := p.Rate(ps, []int{1, 5, 5, 9})
	for i := range a {
		if !close(a[i], b[i]) {
			t.Errorf("seat %d: %v with ranks 0 1 1 3, %v with 1 5 5 9", i, a[i], b[i])
		}
	}
}

// TestBadInput: every refusal wraps ErrInput (or is a parameter error) and
// returns nothing.
func TestBadInput(t *testing.T) {
	d := Default().New()
	bad := Default()
	bad.Beta = 0
	cases := []struct {
		name    string
		p       Params
		players []Rating
		ranks   []int
	}{
		{"one player", Default(), []Rating{d}, []int{0}},
		{"no players", Default(), nil, nil},
		{"ranks short", Default(), []Rating{d, d}, []int{0}},
		{"zero sigma", Default(), []Rating{d, {25, 0}}, []int{0, 1}},
		{"negative sigma", Default(), []Rating{d, {25, -1}}, []int{0, 1}},
		{"NaN mu", Default(), []Rating{d, {math.NaN(), 1}}, []int{0, 1}},
		{"infinite sigma", Default(), []Rating{d, {25, math.Inf(1)}}, []int{0, 1}},
		{"huge mu", Default(), []Rating{d, {1e300, 1}}, []int{0, 1}},
		{"too many", Default(), make([]Rating, MaxSides+1), make([]int, MaxSides+1)},
		{"bad params", bad, []Rating{d, d}, []int{0, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := c.p.Rate(c.players, c.ranks)
			if err == nil || out != nil {
				t.Fatalf("Rate = %v, %v; want an error", out, err)
			}
			if c.name != "bad params" && !errors.Is(err, ErrInput) {
				t.Errorf("error %v does not wrap ErrInput", err)
			}
		})
	}
	if _, err := model().RateTeams([][]Rating{{d}, {}}, []int{0, 1}); !errors.Is(err, ErrInput) {
		t.Errorf("an empty team: %v", err)
	}
}

func TestRanks(t *testing.T) {
	cases := []struct {
		totals     []int
		higherWins bool
		want       []int
	}{
		{[]int{10, 30, 20, 5}, false, []int{1, 3, 2, 0}},
		{[]int{10, 30, 20, 5}, true, []int{2, 0, 1, 3}},
		{[]int{10, 10, 20, 5}, false, []int{1, 1, 3, 0}},
		{[]int{505, 505, 120}, true, []int{0, 0, 2}},
		{[]int{0, 0, 0}, false, []int{0, 0, 0}},
	}
	for _, c := range cases {
		if got := Ranks(c.totals, c.higherWins); !slices.Equal(got, c.want) {
			t.Errorf("Ranks(%v, %v) = %v, want %v", c.totals, c.higherWins, got, c.want)
		}
	}
}

func TestDisplay(t *testing.T) {
	p := Default()
	cases := []struct {
		r           Rating
		display     int
		provisional bool
	}{
		{p.New(), 1000, true},
		{Rating{25, 2}, 1760, false},
		{Rating{30, 6}, 1480, false},
		{Rating{30, 6.01}, 1479, true},
		{Rating{10, 7}, 560, true},
	}
	for _, c := range cases {
		if d := c.r.Display(); d != c.display {
			t.Errorf("%v: display %d, want %d", c.r, d, c.display)
		}
		if pr := p.Provisional(c.r); pr != c.provisional {
			t.Errorf("%v: provisional %v, want %v", c.r, pr, c.provisional)
		}
	}
}

// TestProvisionalGames pins how many four-seat games a new player stays
// provisional (docs/ratings.md quotes it), finishing first to last in turn:
// about 20 against other new players, about 5 against established ones.
func TestProvisionalGames(t *testing.T) {
	p := Default()
	cases := []struct {
		name     string
		opponent Rating
		min, max int
	}{
		{"against new players", p.New(), 15, 25},
		{"against established players", Rating{Mu: 25, Sigma: 2}, 3, 8},
	}
	for _, c := range cases {
		me := p.New()
		games := 0
		for p.Provisional(me) && games < 1000 {
			ps := []Rating{me, c.opponent, c.opponent, c.opponent}
			ranks := []int{0, 1, 2, 3}
			ranks[0], ranks[games%4] = ranks[games%4], ranks[0]
			out, err := p.Rate(ps, ranks)
			if err != nil {
				t.Fatal(err)
			}
			me = out[0]
			games++
		}
		t.Logf("%s: provisional for %d games; then %v", c.name, games, me)
		if games < c.min || games > c.max {
			t.Errorf("%s: a new player is provisional for %d four-seat games; the docs say %d to %d", c.name, games, c.min, c.max)
		}
	}
}

// TestReferenceRate checks whole updates, Tau and ties included, against
// openskill.js's rate() (philihp/openskill.js src/__tests__/rate.test.ts,
// each case named by its test): OpenSkill's defaults are ours but for
// LimitSigma, which it leaves off unless asked.
func TestReferenceRate(t *testing.T) {
	const source = "philihp/openskill.js src/__tests__/rate.test.ts"
	osk := Default()
	osk.LimitSigma = false
	withTau := func(tau float64, limit bool) Params {
		p := osk
		p.Tau, p.LimitSigma = tau, limit
		return p
	}
	d := Default().New()
	w1, x1, y1, z1 := Rating{15, 25.0 / 3}, Rating{20, 25.0 / 3}, Rating{25, 25.0 / 3}, Rating{30, 25.0 / 3}
	cases := []struct {
		name    string
		p       Params
		players []Rating
		ranks   []int
		want    []Rating
	}{
		{"accepts a misordered rank ordering", osk, []Rating{d, d, d, d}, []int{2, 1, 4, 3},
			[]Rating{{26.55291815138952, 8.17961798837266}, {27.795252672501135, 8.263571791259416}, {20.962412806387245, 8.084127880168786}, {24.689416369722096, 8.084127880168786}}},
		{"accepts a rate ordering", osk, []Rating{w1, x1, y1, z1}, []int{1, 3, 4, 2},
			[]Rating{{18.131120980297805, 8.283536573151807}, {20.405169039419135, 8.107860440531121}, {20.65583040714804, 8.082574596348321}, {30.80787957313502, 8.155100416275928}}},
		{"allows ties", osk, []Rating{{10, 8}, {5, 10}, {0, 12}}, []int{1, 2, 2},
			[]Rating{{11.942996666741225, 7.926888197620324}, {2.9381178546315034, 9.653804487570165}, {-1.4024317012198733, 11.323641575516767}}},
		{"four-way-tie with newbies", osk, []Rating{d, d, d, d}, []int{1, 1, 1, 1},
			[]Rating{{25, 8.263571791259416}, {25, 8.263571791259416}, {25, 8.263571791259416}, {25, 8.263571791259416}}},
		{"fixes orders of ties", osk, []Rating{w1, x1, y1, z1}, []int{2, 4, 2, 1},
			[]Rating{{15.340043358359136, 8.213141619804967}, {18.007678675484204, 8.189033933813437}, {24.25801928251219, 8.166918055585525}, {32.39425868364447, 8.247687230833794}}},
		{"accepts a score instead of rank (all equal)", osk, []Rating{d, d, d}, []int{0, 0, 0},
			[]Rating{{25, 8.205243377397993}, {25, 8.205243377397993}, {25, 8.205243377397993}}},
		{"accepts a tau term", withTau(0.3, false), []Rating{{25, 3}, {25, 3}}, []int{1, 2},
			[]Rating{{25.624880438870754, 2.9879993738476953}, {24.375119561129246, 2.9879993738476953}}},
		{"prevents sigma from rising", withTau(0.3, true), []Rating{{40, 3}, {-20, 3}}, []int{1, 2},
			[]Rating{{40.00032667136128, 3}, {-20.000326671361275, 3}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.p.Rate(c.players, c.ranks)
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range c.want {
				if math.Abs(got[i].Mu-w.Mu) > 1e-9 || math.Abs(got[i].Sigma-w.Sigma) > 1e-9 {
					t.Errorf("player %d = %v, want %v (%s, %q)", i, got[i], w, source, c.name)
				}
			}
		})
	}
}
