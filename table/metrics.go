package table

import (
	"fmt"
	"io"
	"math"
	"sync/atomic"
	"time"
)

// Histogram is a fixed-bucket latency histogram, safe for concurrent use,
// that writes itself in the Prometheus text format.
type Histogram struct {
	bounds []float64 // upper bounds in seconds
	counts []atomic.Int64
	sum    atomic.Int64 // nanoseconds
	count  atomic.Int64
}

// NewHistogram returns a histogram with the given upper bounds (seconds).
func NewHistogram(bounds ...float64) *Histogram {
	return &Histogram{bounds: bounds, counts: make([]atomic.Int64, len(bounds)+1)}
}

// DefaultLatencyBounds spans 100 µs to 10 s.
var DefaultLatencyBounds = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// Observe records one duration.
func (h *Histogram) Observe(d time.Duration) {
	s := d.Seconds()
	i := 0
	for i < len(h.bounds) && s > h.bounds[i] {
		i++
	}
	h.counts[i].Add(1)
	h.sum.Add(int64(d))
	h.count.Add(1)
}

// Write prints the histogram as Prometheus text (without HELP/TYPE lines).
func (h *Histogram) Write(w io.Writer, name string) {
	var cum int64
	for i, b := range h.bounds {
		cum += h.counts[i].Load()
		fmt.Fprintf(w, "%s_bucket{le=\"%g\"} %d\n", name, b, cum)
	}
	cum += h.counts[len(h.bounds)].Load()
	fmt.Fprintf(w, "%s_bucket{le=\"+Inf\"} %d\n", name, cum)
	fmt.Fprintf(w, "%s_sum %g\n", name, float64(h.sum.Load())/1e9)
	fmt.Fprintf(w, "%s_count %d\n", name, h.count.Load())
}

// Quantile estimates a quantile (0..1) from the buckets (upper bound of the bucket).
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

// Metrics are the tables' counters, shared by all tables of a server.
type Metrics struct {
	Tables      atomic.Int64 // tables in memory
	Playing     atomic.Int64 // tables whose game is in progress
	Moves       atomic.Int64 // accepted seat moves (humans and bots)
	BotMoves    atomic.Int64 // of which made by bots (bot seats, stand-ins, clocks)
	ClockMoves  atomic.Int64 // of which forced by a turn clock
	Chance      atomic.Int64 // chance outcomes drawn
	Refused     atomic.Int64 // moves refused
	Busy        atomic.Int64 // commands refused because a table's queue was full
	Finished    atomic.Int64 // games finished
	Expired     atomic.Int64 // open tables closed unjoined (Config.OpenTTL)
	Paused      atomic.Int64 // playing tables whose bots wait for a human to come back (empty.go)
	Abandoned   atomic.Int64 // games ended unfinished because every human had left (when_empty "end")
	BotRetries  atomic.Int64 // bot decisions postponed because the bot pool was full
	StoreErrors atomic.Int64
	// MoveLatency is from a move's arrival at the table to its broadcast
	// being queued to every watcher (includes the commit).
	MoveLatency *Histogram
	// CommitLatency is the time of one event-log append.
	CommitLatency *Histogram
}

// NewMetrics returns zeroed metrics.
func NewMetrics() *Metrics {
	return &Metrics{MoveLatency: NewHistogram(DefaultLatencyBounds...), CommitLatency: NewHistogram(DefaultLatencyBounds...)}
}

type atomicSummary = atomic.Pointer[Summary]
