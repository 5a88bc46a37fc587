package pisyedilibot

import (
	"context"
	"testing"

	"cardroom/bot/ismcts"
	"cardroom/game"
	"cardroom/games/pisyedili"
)

// seeing is the hard bot's domain dealing the true hands, the stock
// reshuffled in every iteration: the oracle of BenchmarkOracleRegret (a
// ceiling-hands with the hard bot's model of the field, open loop).
type seeing struct {
	*Domain
	truth *pisyedili.State
}

// Sample implements ismcts.Sampler.
func (o *seeing) Sample(r *game.Rand) (game.State, error) {
	st := o.truth.Clone().(*pisyedili.State)
	st.ShuffleStock(r)
	return o.Domain.field(st, r), nil
}

func searchView(b *testing.B, v *pisyedili.View, dom func() ismcts.Domain, iters int, seed uint64) *ismcts.Result {
	cfg := ismcts.Config{Iterations: iters, Workers: 1, Seed: seed}
	Configure(&cfg)
	res, err := ismcts.Search(context.Background(), pisyedili.Engine{}, v, dom, cfg)
	if err != nil {
		b.Fatal(err)
	}
	return res
}

// stages names the kinds of decision a view asks for, for the regret's
// breakdown, in the order it is logged: the opening round, a chain to
// answer, the drawn card, the card after an ace, a normal turn.
var stages = [...]string{"opening", "chain", "after draw", "after an ace", "normal turn"}

// stageName is the kind of decision v asks for (one of stages).
func stageName(v *pisyedili.View) string {
	switch {
	case v.Stage == pisyedili.PhaseOpening:
		return stages[0]
	case v.Chain != nil:
		return stages[1]
	case v.Stage == pisyedili.PhaseAfterDraw:
		return stages[2]
	case v.Stage == pisyedili.PhaseAceContinue:
		return stages[3]
	}
	return stages[4]
}

// BenchmarkOracleRegret is a report, not a speed test (about 20 minutes
// of one core; run it with -benchtime=1x): at every sixth decision of 70
// games of four medium players with more than one legal move, the mean
// regret of the hard bot's search (4,000 iterations) against an oracle,
// the same search given the true hands (two searches of 30,000
// iterations pooled): the oracle's value of its best move (among those
// with at least 2,000 visits) less its value of the move chosen. The
// metrics are the regret in thousandths and the share of decisions where
// the bot's move is the oracle's, open loop and closed loop (ClosedLoop;
// docs/bots.md, "The ceiling"); and, to split the open loop's regret
// into what the search does not know and what it does not find, the
// regret of the medium rules' move, of the oracle's own search at the
// bot's budget (4,000 iterations, another seed), and of the bot's search
// at four times its budget (16,000 iterations). The open loop's regret by
// stage is logged (-v).
func BenchmarkOracleRegret(b *testing.B) {
	defer func(old bool) { ClosedLoop = old }(ClosedLoop)
	type position struct {
		k     int
		s     *pisyedili.State
		v     *pisyedili.View
		value map[string]float64
		best  string
	}
	for i := 0; i < b.N; i++ {
		var ps []position
		k := 0
		mediumPositions(b, 70, 6, func(s *pisyedili.State, v *pisyedili.View) {
			k++
			if len(s.Legal(v.Seat, nil)) > 1 {
				ps = append(ps, position{k: k, s: s.Clone().(*pisyedili.State), v: v})
			}
		})
		ClosedLoop = false // the oracle, as measured first
		for j := range ps {
			p := &ps[j]
			dom := func() ismcts.Domain { return &seeing{Domain: NewDomain(p.v).(*Domain), truth: p.s} }
			sum, visits := map[string]float64{}, map[string]int{}
			for rep := 0; rep < 2; rep++ {
				res := searchView(b, p.v, dom, 30000, uint64(p.k)*7+uint64(rep)+5000)
				for _, m := range res.Moves {
					sum[m.Text] += m.Value * float64(m.Visits)
					visits[m.Text] += m.Visits
				}
			}
			p.value = map[string]float64{}
			bv := -1.0
			for m, n := range visits {
				if n > 0 {
					p.value[m] = sum[m] / float64(n)
				}
				if p.value[m] > bv && n >= 2000 {
					bv, p.best = p.value[m], m
				}
			}
		}
		for _, closed := range []bool{false, true} {
			ClosedLoop = closed
			regret, agree := 0.0, 0
			byStage := map[string]float64{}
			for _, p := range ps {
				res := searchView(b, p.v, func() ismcts.Domain { return NewDomain(p.v) }, 4000, uint64(p.k))
				loss := p.value[p.best] - p.value[res.Moves[0].Text]
				regret += loss
				byStage[stageName(p.v)] += loss
				if res.Moves[0].Text == p.best {
					agree++
				}
			}
			if !closed {
				for _, st := range stages {
					b.Logf("open loop, %s: %.1f%% of the regret", st, 100*byStage[st]/regret)
				}
			}
			name := "open"
			if closed {
				name = "closed"
			}
			b.ReportMetric(1000*regret/float64(len(ps)), name+"-regret-milli")
			b.ReportMetric(100*float64(agree)/float64(len(ps)), name+"-agree%")
		}
		ClosedLoop = false
		medium, seen, more := 0.0, 0.0, 0.0
		for _, p := range ps {
			r := game.NewRand(uint64(p.k))
			m := Rule(p.v, p.s.Legal(p.v.Seat, nil), &r, false)
			medium += p.value[p.best] - p.value[pisyedili.FormatMove(m)]
			dom := func() ismcts.Domain { return &seeing{Domain: NewDomain(p.v).(*Domain), truth: p.s} }
			res := searchView(b, p.v, dom, 4000, uint64(p.k)+99)
			seen += p.value[p.best] - p.value[res.Moves[0].Text]
			res = searchView(b, p.v, func() ismcts.Domain { return NewDomain(p.v) }, 16000, uint64(p.k))
			more += p.value[p.best] - p.value[res.Moves[0].Text]
		}
		b.ReportMetric(1000*medium/float64(len(ps)), "medium-regret-milli")
		b.ReportMetric(1000*seen/float64(len(ps)), "seeing4000-regret-milli")
		b.ReportMetric(1000*more/float64(len(ps)), "hard16000-regret-milli")
		b.ReportMetric(float64(len(ps)), "decisions")
	}
}
