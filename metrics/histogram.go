// Package metrics writes the room's histograms in the Prometheus text
// format: one fixed-bucket Histogram, safe for concurrent use, for the
// tables' latencies and the bot pool's (which cannot share the table
// package: table imports the pool), and WriteBuckets for histograms the
// room reads from elsewhere (the Go runtime's).
package metrics

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"sync/atomic"
	"time"
)

// Histogram counts observations in fixed buckets.
type Histogram struct {
	bounds []float64 // upper bounds, increasing
	counts []atomic.Int64
	sum    atomic.Uint64 // float64 bits, updated by compare-and-swap
	count  atomic.Int64
}

// NewHistogram returns a histogram with the given upper bounds.
func NewHistogram(bounds ...float64) *Histogram {
	return &Histogram{bounds: bounds, counts: make([]atomic.Int64, len(bounds)+1)}
}

// LatencyBounds span 100 µs to 10 s (seconds).
var LatencyBounds = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// Observe records one value.
func (h *Histogram) Observe(v float64) {
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

// ObserveDuration records a duration in seconds.
func (h *Histogram) ObserveDuration(d time.Duration) { h.Observe(d.Seconds()) }

// Write prints the histogram's buckets, sum and count (without the HELP and
// TYPE lines).
func (h *Histogram) Write(w io.Writer, name string) {
	cum := make([]uint64, len(h.bounds))
	var n uint64
	for i := range h.bounds {
		n += uint64(h.counts[i].Load())
		cum[i] = n
	}
	n += uint64(h.counts[len(h.bounds)].Load())
	WriteBuckets(w, name, h.bounds, cum, n, math.Float64frombits(h.sum.Load()))
}

// Quantile estimates quantile q (0 to 1): the upper bound of the bucket it
// falls in (+Inf past the last bound, 0 without observations).
func (h *Histogram) Quantile(q float64) float64 {
	n := h.count.Load()
	if n == 0 {
		return 0
	}
	target := int64(math.Ceil(q * float64(n)))
	var cum int64
	for i := range h.counts {
		cum += h.counts[i].Load()
		if cum >= target {
			if i < len(h.bounds) {
				return h.bounds[i]
			}
			return math.Inf(1)
		}
	}
	return math.Inf(1)
}

// WriteBuckets prints a histogram given its cumulative counts at bounds,
// its total count (the +Inf bucket) and its sum.
func WriteBuckets(w io.Writer, name string, bounds []float64, cum []uint64, total uint64, sum float64) {
	for i, le := range bounds {
		fmt.Fprintf(w, "%s_bucket{le=\"%s\"} %d\n", name, strconv.FormatFloat(le, 'g', -1, 64), cum[i])
	}
	fmt.Fprintf(w, "%s_bucket{le=\"+Inf\"} %d\n%s_sum %g\n%s_count %d\n", name, total, name, sum, name, total)
}
