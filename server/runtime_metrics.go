package server

import (
	"fmt"
	"io"
	"math"
	rtmetrics "runtime/metrics"

	"cardroom/metrics"
)

// The Go runtime's own latencies, for /metrics: how long runnable
// goroutines waited for a thread (a table's goroutine behind a bot
// search, or behind a core the machine does not have), and how long the
// garbage collector stopped the world. A move's latency that the room's
// own histograms cannot explain is in one of these. The runtime keeps
// fine exponential buckets; they are summed into a few Prometheus ones.

// runtimeLatencyBounds are the buckets' upper bounds, in seconds.
var runtimeLatencyBounds = []float64{10e-6, 100e-6, 1e-3, 5e-3, 10e-3, 20e-3, 50e-3, 100e-3, 1}

var runtimeLatencies = []struct{ sample, name, help string }{
	{"/sched/latencies:seconds", "go_sched_latencies_seconds", "Time goroutines spent runnable before running (runtime/metrics)."},
	{"/sched/pauses/total/gc:seconds", "go_gc_pauses_seconds", "Stop-the-world pauses of the garbage collector (runtime/metrics)."},
}

// writeRuntimeMetrics writes runtimeLatencies as Prometheus histograms.
func writeRuntimeMetrics(w io.Writer) {
	samples := make([]rtmetrics.Sample, len(runtimeLatencies))
	for i, m := range runtimeLatencies {
		samples[i].Name = m.sample
	}
	rtmetrics.Read(samples)
	for i, m := range runtimeLatencies {
		if samples[i].Value.Kind() != rtmetrics.KindFloat64Histogram {
			continue // not in this Go version
		}
		h := samples[i].Value.Float64Histogram()
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s histogram\n", m.name, m.help, m.name)
		counts, total, sum := foldHistogram(h, runtimeLatencyBounds)
		metrics.WriteBuckets(w, m.name, runtimeLatencyBounds, counts, total, sum)
	}
}

// foldHistogram sums a runtime histogram into cumulative counts at bounds
// (a runtime bucket counts under the first bound at or above its upper
// edge), with the total and an estimate of the sum (each bucket at its
// midpoint; an unbounded edge taken as the finite one).
func foldHistogram(h *rtmetrics.Float64Histogram, bounds []float64) (cum []uint64, total uint64, sum float64) {
	cum = make([]uint64, len(bounds))
	for i, n := range h.Counts {
		if n == 0 {
			continue
		}
		lo, hi := h.Buckets[i], h.Buckets[i+1]
		total += n
		switch {
		case math.IsInf(lo, -1):
			sum += float64(n) * hi
		case math.IsInf(hi, 1):
			sum += float64(n) * lo
		default:
			sum += float64(n) * (lo + hi) / 2
		}
		for j, le := range bounds {
			if hi <= le {
				cum[j] += n
			}
		}
	}
	return cum, total, sum
}
