package pool

import (
	"fmt"
	"io"
	"math"
	"sync/atomic"
)

// histogram is a fixed-bucket histogram safe for concurrent use, written in
// the Prometheus text format. (table.Histogram is the same for durations;
// the pool cannot import table, which imports the pool.)
type histogram struct {
	bounds []float64
	counts []atomic.Int64
	sum    atomic.Uint64 // float64 bits, updated by compare-and-swap
	count  atomic.Int64
}

func newHistogram(bounds ...float64) *histogram {
	return &histogram{bounds: bounds, counts: make([]atomic.Int64, len(bounds)+1)}
}

func (h *histogram) observe(v float64) {
	i := 0
	for i < len(h.bounds) && v > h.bounds[i] {
		i++
	}
	h.counts[i].Add(1)
	h.count.Add(1)
	for {
		old := h.sum.Load()
		if h.sum.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+v)) {
			return
		}
	}
}

func (h *histogram) write(w io.Writer, name, help string) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name)
	var cum int64
	for i, b := range h.bounds {
		cum += h.counts[i].Load()
		fmt.Fprintf(w, "%s_bucket{le=\"%g\"} %d\n", name, b, cum)
	}
	cum += h.counts[len(h.bounds)].Load()
	fmt.Fprintf(w, "%s_bucket{le=\"+Inf\"} %d\n", name, cum)
	fmt.Fprintf(w, "%s_sum %g\n", name, math.Float64frombits(h.sum.Load()))
	fmt.Fprintf(w, "%s_count %d\n", name, h.count.Load())
}

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
	p.latency.write(w, "cardroom_bot_latency_seconds", "From a bot move or hint entering the pool's queue to its end (wait and search).")
	p.iterations.write(w, "cardroom_bot_iterations", "Search iterations per bot move or hint (searches only; a rule-based move or a single legal move has none).")
}
