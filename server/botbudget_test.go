package server

import (
	"strings"
	"testing"

	"cardroom/store"
)

// TestBotBudgetConfig: the bot budget's defaults are in force and in
// /metrics, with the pool's latency and iterations histograms; a budget out
// of range is refused by New with an error that says why.
func TestBotBudgetConfig(t *testing.T) {
	for _, c := range []struct {
		name          string
		iters, least  int
		wantGauge     string
		wantErrSubstr string
	}{
		{"defaults", 0, 0, "cardroom_bot_budget_iterations 4000\n", ""},
		{"set", 2000, 500, "cardroom_bot_budget_iterations 2000\n", ""},
		{"small full budget takes its floor", 100, 0, "cardroom_bot_budget_iterations 100\n", ""},
		{"least too small", 4000, 50, "", "least bot budget is 50"},
		{"least above full", 1000, 2000, "", "full bot budget is 1000"},
		{"full too large", 2_000_000, 0, "", "full bot budget"},
		{"negative", -1, 0, "", "bot budget"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := Config{BotIterations: c.iters, BotMinIterations: c.least}
			if c.wantErrSubstr != "" {
				cfg.Store, cfg.Log = store.NewMemory(), quietLog()
				s, err := New(cfg)
				if err == nil {
					s.pool.Close()
					t.Fatalf("New accepted BotIterations %d, BotMinIterations %d", c.iters, c.least)
				}
				if !strings.Contains(err.Error(), c.wantErrSubstr) {
					t.Fatalf("error %q does not say %q", err, c.wantErrSubstr)
				}
				return
			}
			s := memServer(t, cfg)
			w := do(s, "GET", "/metrics", operator, "", "")
			body := w.Body.String()
			for _, want := range []string{c.wantGauge, "cardroom_bot_budget_level 0\n", "cardroom_bot_reduced_total 0\n",
				"# TYPE cardroom_bot_latency_seconds histogram\n", "cardroom_bot_latency_seconds_count 0\n",
				"# TYPE cardroom_bot_iterations histogram\n", "cardroom_bot_iterations_count 0\n", "cardroom_bot_queued 0\n", "cardroom_bot_refused_total 0\n"} {
				if !strings.Contains(body, want) {
					t.Errorf("/metrics lacks %q", want)
				}
			}
		})
	}
}
