package pisyedilibot

import (
	"context"
	"testing"

	"cardroom/bot/ismcts"
	"cardroom/game"
	"cardroom/games/pisyedili"
)

// mediumPositions plays games of four medium players (hands=1, seeds
// 1..games) and calls at with every every-th decision's state and the view
// of the seat to move.
func mediumPositions(tb testing.TB, games, every int, at func(s *pisyedili.State, v *pisyedili.View)) {
	medium := func(v *pisyedili.View, legal []game.Move, r *game.Rand) game.Move { return Rule(v, legal, r, false) }
	playPositions(tb, games, 3000, every, medium, func(_ uint64, _ int, s *pisyedili.State, v *pisyedili.View, _ *game.Rand) { at(s, v) })
}

// playPositions plays games of four players (hands=1, seeds 1..games, at
// most maxSteps steps each) whose moves move chooses, and calls at with
// every every-th decision's seed, step, state, the view of the seat to
// move and the game's generator (which both draw from), before the move.
func playPositions(tb testing.TB, games, maxSteps, every int, move func(v *pisyedili.View, legal []game.Move, r *game.Rand) game.Move,
	at func(seed uint64, step int, s *pisyedili.State, v *pisyedili.View, r *game.Rand)) {
	for seed := uint64(1); seed <= uint64(games); seed++ {
		st, _ := pisyedili.Engine{}.New(game.Options{"players": "4", "hands": "1"})
		s := st.(*pisyedili.State)
		r := game.NewRand(seed)
		var buf []game.Move
		for step := 0; step < maxSteps && !s.Over(); step++ {
			if s.ChancePending() {
				s.RollChance(&r)
				continue
			}
			if !s.Playing() {
				break
			}
			p := s.Turn()
			v := s.View(p).(*pisyedili.View)
			if step%every == 0 {
				at(seed, step, s, v, &r)
			}
			buf = s.Legal(p, buf[:0])
			if err := s.Apply(p, move(v, buf, &r)); err != nil {
				tb.Fatal(err)
			}
		}
	}
}

// common is the number of cards two multisets share.
func common(a1, a2, b1, b2 game.Mask) int { return (a1 & b1).Count() + (a2 & b2).Count() }

// BenchmarkDealShare is a report, not a speed test: at positions of medium
// games, the share of an opponent's true cards that a determinization
// deals it (multiset intersection over the opponent's hand size), for the
// rules' uniform deal, the soft voids (Evidence) and the soft voids with
// the plays' voids (PlayEvidence). Run it with -benchtime=1x; the metrics
// are the shares in percent.
func BenchmarkDealShare(b *testing.B) {
	const deals = 20
	type variant struct {
		name   string
		soft   bool
		plays  bool
		domain int // > 0: the hard bot's Domain.Sample with PlayTries = domain
		since  int // MaxSince for the domain
	}
	vs := []variant{{"uniform", false, false, 0, 0}, {"soft", true, false, 0, 0}, {"soft+plays", true, true, 0, 0},
		{"domain-tries1", true, true, 1, 2}, {"domain-tries8", true, true, 8, 2}, {"domain-tries32", true, true, 32, 2},
		{"domain-tries8-since0", true, true, 8, 0}, {"domain-before", true, false, 1, 2}}
	defer func(old bool) { PlayEvidence = old }(PlayEvidence)
	defer func(old, since int) { PlayTries, MaxSince = old, since }(PlayTries, MaxSince)
	hit := make([]int, len(vs))
	total := 0
	positions := 0
	for i := 0; i < b.N; i++ {
		clear(hit)
		total, positions = 0, 0
		mediumPositions(b, 60, 5, func(s *pisyedili.State, v *pisyedili.View) {
			positions++
			for k, va := range vs {
				z, err := pisyedili.NewSampler(v)
				if err != nil {
					b.Fatal(err)
				}
				if va.plays {
					playVoids(v, z.Suppose)
				}
				if va.soft {
					z.UseEvidence(1)
				}
				var dom *Domain
				if va.domain > 0 {
					PlayTries, MaxSince = va.domain, va.since
					PlayEvidence = va.plays
					dom = NewDomain(v).(*Domain)
				}
				r := game.NewRand(uint64(positions))
				for d := 0; d < deals; d++ {
					var ds *pisyedili.State
					if dom != nil {
						g, err := dom.Sample(&r)
						if err != nil {
							b.Fatal(err)
						}
						ds, _ = stateOf(g)
					} else {
						ds = z.Sample(&r)
					}
					for q := game.Seat(0); int(q) < v.Players; q++ {
						if q == v.Seat {
							continue
						}
						t1, t2 := s.HandMasks(q)
						d1, d2 := ds.HandMasks(q)
						hit[k] += common(t1, t2, d1, d2)
						if k == 0 {
							total += s.HandSize(q)
						}
					}
				}
			}
		})
	}
	for k, va := range vs {
		b.ReportMetric(100*float64(hit[k])/float64(total), va.name+"%")
	}
	b.ReportMetric(float64(positions), "positions")
}

// BenchmarkHardMove times the hard bot's search (4,000 iterations, one
// worker: one core) at positions of medium games: without the plays as
// evidence, with them (the bot as it plays), and with them and the closed
// loop (ClosedLoop); ms/move is the mean over the positions. Run it with
// -benchtime=1x.
func BenchmarkHardMove(b *testing.B) {
	for _, vr := range []struct {
		name         string
		plays, close bool
	}{{"plays-off", false, false}, {"plays-on", true, false}, {"closed-loop", true, true}} {
		b.Run(vr.name, func(b *testing.B) {
			defer func(old, closed bool) { PlayEvidence, ClosedLoop = old, closed }(PlayEvidence, ClosedLoop)
			PlayEvidence, ClosedLoop = vr.plays, vr.close
			var views []*pisyedili.View
			mediumPositions(b, 12, 17, func(_ *pisyedili.State, v *pisyedili.View) { views = append(views, v) })
			cfg := ismcts.Config{Iterations: 4000, Workers: 1}
			Configure(&cfg)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for k, v := range views {
					cfg.Seed = uint64(k)
					if _, err := ismcts.Search(context.Background(), pisyedili.Engine{}, v, func() ismcts.Domain { return NewDomain(v) }, cfg); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(views)), "ms/move")
			b.ReportMetric(float64(len(views)), "positions")
		})
	}
}
