package rum500bot_test

import (
	"context"
	"testing"

	"cardroom/bot/ismcts"
	"cardroom/bot/rum500bot"
	"cardroom/game"
	"cardroom/games/rum500"
)

// mediumViews plays games of two medium players (one hand each) and keeps
// the view of the seat to act at every fourth decision with a choice.
func mediumViews(tb testing.TB, games int) []*rum500.View {
	tb.Helper()
	var out []*rum500.View
	playMedium(tb, games, 300, func(step int, _ *rum500.State, v *rum500.View, legal []game.Move) {
		if len(legal) > 1 && step%4 == 0 {
			out = append(out, v)
		}
	})
	return out
}

// BenchmarkHardMove is the hard bot's search (4,000 iterations, one
// worker) at positions of medium games: the time a move takes on one
// core, with uniform determinizations (before) and with the evidence
// (now).
func BenchmarkHardMove(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := "before"
		if on {
			name = "now"
		}
		b.Run(name, func(b *testing.B) {
			defer func(old bool) { rum500bot.UseEvidence = old }(rum500bot.UseEvidence)
			rum500bot.UseEvidence = on
			views := mediumViews(b, 6)
			cfg := ismcts.Config{Iterations: 4000, Workers: 1}
			rum500bot.Configure(&cfg)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for k, v := range views {
					cfg.Seed = uint64(k)
					if _, err := ismcts.Search(context.Background(), rum500.Engine{}, v, func() ismcts.Domain { return rum500bot.NewDomain(v) }, cfg); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(views)), "ms/move")
			b.ReportMetric(float64(len(views)), "positions")
		})
	}
}

// BenchmarkDealShare measures what the evidence tells of an opponent's
// hand, at every other play decision of 60 medium games (40 deals each):
// the share of its true cards a determinization deals it, and, for every
// card the seat could discard, how often the opponent truly holds two
// cards that make a meld with it (and would take it) against how often
// the determinizations say so ("can-meld" metrics, with their Brier score).
// One op is the whole measure; the metrics are the same for any b.N.
func BenchmarkDealShare(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := "uniform"
		if on {
			name = "evidence"
		}
		b.Run(name, func(b *testing.B) {
			defer func(old bool) { rum500bot.UseEvidence = old }(rum500bot.UseEvidence)
			rum500bot.UseEvidence = on
			for i := 0; i < b.N; i++ {
				var share, cards, n, truth, pred, brier float64
				r := game.NewRand(1)
				playMedium(b, 60, 1000, func(step int, st *rum500.State, v *rum500.View, legal []game.Move) {
					if v.Phase != "play" || step%2 != 0 {
						return
					}
					opp := 1 - int(v.Seat)
					own := st.HandOf(opp)
					d := rum500bot.NewDomain(v).(ismcts.Sampler)
					const K = 40
					var hands [K]rum500.Hand
					for k := range hands {
						x, err := d.Sample(&r)
						if err != nil {
							b.Fatal(err)
						}
						hands[k] = x.(*rum500.State).HandOf(opp)
						share += float64((hands[k].One & own.One).Count())
						cards += float64(own.Count())
					}
					for _, m := range legal {
						if m.Op != rum500.OpDiscard {
							continue
						}
						c := game.Standard.Index(m.Card)
						tr := 0.0
						if meldsWithCard(own, c) {
							tr = 1
						}
						p := 0.0
						for _, h := range hands {
							if meldsWithCard(h, c) {
								p += 1.0 / K
							}
						}
						n++
						truth += tr
						pred += p
						brier += (p - tr) * (p - tr)
					}
				})
				b.ReportMetric(100*share/cards, "%true-cards")
				b.ReportMetric(100*truth/n, "%can-meld-true")
				b.ReportMetric(100*pred/n, "%can-meld-dealt")
				b.ReportMetric(brier/n, "brier")
				b.ReportMetric(n, "discards")
			}
		})
	}
}

// meldsWithCard reports whether h holds two cards that make a meld with c
// and no meld without it.
func meldsWithCard(h rum500.Hand, c int) bool {
	with := h
	with.One |= game.Bit(c)
	return rum500bot.HasMeld(with) && !rum500bot.HasMeld(h)
}
