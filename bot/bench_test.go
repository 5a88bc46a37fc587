package bot

import (
	"context"
	"testing"

	"cardroom/bot/ismcts"
	"cardroom/game"
)

// benchPositions are the positions BenchmarkISMCTS searches: the first
// decision of trick play (Papayoo: the first trick), or early in a hand.
var benchPositions = []struct {
	game  string
	opts  string
	moves int // random moves before the position
}{
	{"papayoo", "players=4 rounds=1", 4}, // after the 4 passes: the first trick
	{"rum500", "players=2", 5},           // after a draw: melds, lay-offs, discards
	{"pisyedili", "players=4 hands=1", 4},
}

// BenchmarkISMCTS measures single-core search speed per game: one op is one
// search of 1000 iterations with one worker; iters/s is reported.
func BenchmarkISMCTS(b *testing.B) {
	for _, p := range benchPositions {
		e, err := lookup(p.game)
		if err != nil {
			continue
		}
		b.Run(p.game, func(b *testing.B) {
			o, _ := game.ParseOptions(p.opts)
			st := position(b, e, o, 11, p.moves)
			v := st.View(st.ToAct(nil)[0])
			dom := ismcts.NewGeneric
			cfg := ismcts.Config{Iterations: 1000, Workers: 1}
			if k, ok := kitFor(e.Name()); ok && k.Domain != nil {
				dom = func() ismcts.Domain { return k.Domain(v) }
				if k.Search != nil {
					k.Search(&cfg)
				}
			}
			b.ResetTimer()
			iters := 0
			for i := 0; i < b.N; i++ {
				cfg.Seed = uint64(i)
				res, err := ismcts.Search(context.Background(), e, v, dom, cfg)
				if err != nil {
					b.Fatal(err)
				}
				iters += res.Iterations
			}
			b.ReportMetric(float64(iters)/b.Elapsed().Seconds(), "iters/s")
		})
	}
}
