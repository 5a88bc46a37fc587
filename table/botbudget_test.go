package table

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"cardroom/bot/pool"
	"cardroom/store"
)

// TestBotDelayHoldsNoWorker: the pause before a bot move (BotDelay) is for
// people: while it runs no pool worker is taken and nothing is queued; after
// it the hard bot's decision runs on the pool, at the pool's budget (its
// iterations are counted there, never more than the full budget).
func TestBotDelayHoldsNoWorker(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		p := pool.NewWithBudget(1, 8, pool.Budget{Full: 400, Min: 100})
		defer p.Close()
		seats := botSeats("", 4)
		for i := range seats {
			seats[i].Bot = "hard"
		}
		cfg := Config{Store: store.NewMemory(), Metrics: NewMetrics(), Pool: p, BotDelay: time.Second}
		tb, err := Create(context.Background(), cfg, newMeta("t_bd", seats, 0))
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Stop()
		for range 3 {
			synctest.Wait() // every goroutine idle: the table waits on the delay
			if s := p.Stats(); s.Running != 0 || s.Queued != 0 {
				t.Fatalf("during the bot delay the pool has %d running and %d queued, want none", s.Running, s.Queued)
			}
			time.Sleep(time.Second)
		}
		synctest.Wait()
		if n := p.Stats().Done; n < 3 {
			t.Fatalf("%d bot decisions done after three delays, want at least 3", n)
		}
		var out strings.Builder
		p.WriteMetrics(&out)
		var count, sum string
		for _, l := range strings.Split(out.String(), "\n") {
			if v, ok := strings.CutPrefix(l, "cardroom_bot_iterations_count "); ok {
				count = v
			}
			if v, ok := strings.CutPrefix(l, `cardroom_bot_iterations_bucket{le="500"} `); ok {
				sum = v
			}
		}
		if count == "0" || count == "" || sum != count {
			t.Errorf("iterations histogram: count %q, at most 500: %q; want the hard bots' searches counted, none over the 400 budget", count, sum)
		}
	})
}
