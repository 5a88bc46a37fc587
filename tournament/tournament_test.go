package tournament

import (
	"testing"
	"time"
)

func played(p int) Outcome { return Outcome{Done: true, Points: p} }

// TestStandings runs the worked examples of docs/tournaments.md.
func TestStandings(t *testing.T) {
	for _, tc := range []struct {
		name       string
		deals      []Deal
		higherWins bool
		totals     []float64
		ranks      []int
		states     [][]string // per entrant, per deal
		scores     [][]float64
	}{
		{
			// The documented example: Papayoo, three entrants, two
			// deals; C missed the second deal and it closed.
			name: "papayoo worked example",
			deals: []Deal{
				{Outcomes: []Outcome{played(10), played(40), played(16)}, Closed: true},
				{Outcomes: []Outcome{played(30), played(0), {}}, Closed: true},
			},
			totals: []float64{2, 2, -4},
			ranks:  []int{1, 1, 3},
			states: [][]string{{Played, Played}, {Played, Played}, {Played, Missed}},
			scores: [][]float64{{12, -10}, {-18, 20}, {6, -10}},
		},
		{
			// The same while deal 2 is still open: C is left out of it.
			name: "open deal leaves the unplayed out",
			deals: []Deal{
				{Outcomes: []Outcome{played(10), played(40), played(16)}, Closed: true},
				{Outcomes: []Outcome{played(30), played(0), {}}},
			},
			totals: []float64{-3, -3, 6},
			ranks:  []int{2, 2, 1},
			states: [][]string{{Played, Played}, {Played, Played}, {Played, Pending}},
			scores: [][]float64{{12, -15}, {-18, 15}, {6, 0}},
		},
		{
			name:       "500 rum: higher is better",
			deals:      []Deal{{Outcomes: []Outcome{played(120), played(40), played(80)}, Closed: true}},
			higherWins: true,
			totals:     []float64{40, -40, 0},
			ranks:      []int{1, 3, 2},
			states:     [][]string{{Played}, {Played}, {Played}},
			scores:     [][]float64{{40}, {-40}, {0}},
		},
		{
			name:       "500 rum: a missed deal takes the lowest score",
			deals:      []Deal{{Outcomes: []Outcome{played(-20), played(60), {}}, Closed: true}},
			higherWins: true,
			totals:     []float64{-26.67, 53.33, -26.67},
			ranks:      []int{2, 1, 2},
			states:     [][]string{{Played}, {Played}, {Missed}},
			scores:     [][]float64{{-26.67}, {53.33}, {-26.67}},
		},
		{
			name:   "nobody played a closed deal",
			deals:  []Deal{{Outcomes: []Outcome{{}, {}}, Closed: true}},
			totals: []float64{0, 0},
			ranks:  []int{1, 1},
			states: [][]string{{Missed}, {Missed}},
			scores: [][]float64{{0}, {0}},
		},
		{
			name:   "thirds are rounded to hundredths",
			deals:  []Deal{{Outcomes: []Outcome{played(1), played(2), played(2)}}},
			totals: []float64{0.67, -0.33, -0.33},
			ranks:  []int{1, 2, 2},
			states: [][]string{{Played}, {Played}, {Played}},
			scores: [][]float64{{0.67}, {-0.33}, {-0.33}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows := Standings(len(tc.totals), tc.deals, tc.higherWins)
			if len(rows) != len(tc.totals) {
				t.Fatalf("%d rows, want %d", len(rows), len(tc.totals))
			}
			for i, r := range rows {
				if r.Entrant != i || r.Total != tc.totals[i] || r.Rank != tc.ranks[i] {
					t.Errorf("entrant %d: entrant %d total %v rank %d; want total %v rank %d", i, r.Entrant, r.Total, r.Rank, tc.totals[i], tc.ranks[i])
				}
				for d, c := range r.Deals {
					if c.State != tc.states[i][d] || c.Score != tc.scores[i][d] {
						t.Errorf("entrant %d deal %d: %s %v, want %s %v", i, d, c.State, c.Score, tc.states[i][d], tc.scores[i][d])
					}
				}
			}
		})
	}
}

// TestSchedule: the seats rotate round the table, deal seeds differ from
// deal to deal and from tournament to tournament but are fixed for one,
// and deadlines follow one another by the time per deal.
func TestSchedule(t *testing.T) {
	for _, tc := range []struct{ deal, seats, want int }{
		{0, 4, 0}, {1, 4, 1}, {3, 4, 3}, {4, 4, 0}, {5, 3, 2}, {11, 2, 1}, {2, 0, 0},
	} {
		if got := Seat(tc.deal, tc.seats); got != tc.want {
			t.Errorf("Seat(%d, %d) = %d, want %d", tc.deal, tc.seats, got, tc.want)
		}
	}
	seen := map[uint64]bool{}
	for _, seed := range []uint64{0, 1, 2, 1 << 63} {
		for d := range MaxDeals {
			s := DealSeed(seed, d)
			if seen[s] {
				t.Errorf("DealSeed(%d, %d) = %d repeats another deal's seed", seed, d, s)
			}
			seen[s] = true
			if DealSeed(seed, d) != s {
				t.Errorf("DealSeed(%d, %d) is not fixed", seed, d)
			}
		}
	}
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)
	if got := Deadline(start, time.Hour, 2); !got.Equal(start.Add(3 * time.Hour)) {
		t.Errorf("deadline of deal 2 = %v, want 3 h after the start", got)
	}
}

// TestCheck: every number a creator sends is range-checked.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		deals, entrants, max int
		per                  time.Duration
		ok                   bool
	}{
		{1, 1, 32, MinDealTime, true},
		{MaxDeals, 32, 32, MaxDealTime, true},
		{0, 4, 32, time.Hour, false},
		{MaxDeals + 1, 4, 32, time.Hour, false},
		{4, 0, 32, time.Hour, false},
		{4, 33, 32, time.Hour, false},
		{4, MaxEntrants + 1, 1000, time.Hour, false},
		{4, 4, 32, MinDealTime - time.Second, false},
		{4, 4, 32, MaxDealTime + time.Second, false},
	} {
		err := Check(tc.deals, tc.entrants, tc.max, tc.per)
		if (err == nil) != tc.ok {
			t.Errorf("Check(%d, %d, %d, %v) = %v, want ok %v", tc.deals, tc.entrants, tc.max, tc.per, err, tc.ok)
		}
	}
}

// TestDealSeedOneWay: a deal's seed does not give the tournament's seed
// back. The splitmix64 step it was could be undone: from deal d's seed,
// the inverse finalizer less (d+1)·golden gave the tournament's seed, and
// with it every deal still to be played. This checks that undoing that
// step on today's seeds gives neither the tournament's seed nor another
// deal's seed.
func TestDealSeedOneWay(t *testing.T) {
	unmix := func(z uint64) uint64 { // splitmix64's finalizer, inverted
		z ^= z>>31 ^ z>>62
		z *= 0x319642b2d24d8ec3 // inverse of 0x94d049bb133111eb
		z ^= z>>27 ^ z>>54
		z *= 0x96de1b173f119089 // inverse of 0xbf58476d1ce4e5b9
		z ^= z>>30 ^ z>>60
		return z
	}
	// The inversion itself is right: it undoes the old mix.
	old := func(seed uint64, d int) uint64 {
		z := seed + uint64(d+1)*0x9e3779b97f4a7c15
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	const secret = 0x1234_5678_9abc_def0
	golden := uint64(0x9e3779b97f4a7c15)
	if got := unmix(old(secret, 3)) - 4*golden; got != secret {
		t.Fatalf("the inverse does not undo splitmix64: %x", got)
	}
	for d := range MaxDeals {
		if got := unmix(DealSeed(secret, d)) - uint64(d+1)*golden; got == secret {
			t.Errorf("deal %d's seed gives the tournament's seed back", d)
		}
	}
}
