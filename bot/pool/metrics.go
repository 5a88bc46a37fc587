package pool

import (
	"cardroom/metrics"
	"fmt"
	"io"
)

// latencyBounds span 1 ms to 10 s: a search is tens of milliseconds, a
// queue in trouble seconds.
var latencyBounds = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// iterationBounds cover the halvings of the default budget (4,000) and
// their neighbours.
var iterationBounds = []float64{100, 250, 500, 1000, 2000, 4000, 8000, 16000, 64000}

// WriteMetrics writes the pool's latency, iterations and budget metrics in
// the Prometheus text format (its counters are in Stats).
func (p *Pool) WriteMetrics(w io.Writer) {
	s := p.Stats()
	g := p.budget.Grant(int(s.Queued), s.Workers)
	gauge := func(name, typ, help string, v any) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n%s %v\n", name, help, name, typ, name, v)
	}
	gauge("cardroom_bot_budget_iterations", "gauge", "Iterations a bot search started now would be granted (0: no budget, bots keep their own).", g.Iterations)
	gauge("cardroom_bot_budget_level", "gauge", "How many times the full bot budget is halved for a search started now (0: full).", g.Level)
	gauge("cardroom_bot_reduced_total", "counter", "Bot searches (moves and hints) granted less than the full budget because jobs were waiting.", p.reduced.Load())
	writeHistogram(w, p.latency, "cardroom_bot_latency_seconds", "From a bot move or hint entering the pool's queue to its end (wait and search).")
	writeHistogram(w, p.iterations, "cardroom_bot_iterations", "Search iterations per bot move or hint (searches only; a rule-based move or a single legal move has none).")
}

func writeHistogram(w io.Writer, h *metrics.Histogram, name, help string) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name)
	h.Write(w, name)
}
