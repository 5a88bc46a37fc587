package table

import (
	"cardroom/metrics"
	"sync/atomic"
)

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
	TooLong     atomic.Int64 // games ended unfinished at Config.MaxSteps
	Panics      atomic.Int64 // tables ended because handling an event panicked (and bot decisions that panicked)
	Finished    atomic.Int64 // games finished
	Expired     atomic.Int64 // open tables closed unjoined (Config.OpenTTL)
	Paused      atomic.Int64 // playing tables whose bots wait for a human to come back (empty.go)
	Abandoned   atomic.Int64 // games ended unfinished because every human had left (when_empty "end")
	BotRetries  atomic.Int64 // bot decisions postponed because the bot pool was full
	StoreErrors atomic.Int64
	MsgsReused  atomic.Int64 // broadcast messages whose memory went back to the pool (flush)
	// MoveLatency is from a move's arrival at the table to its broadcast
	// being queued to every watcher (includes the commit).
	MoveLatency *metrics.Histogram
	// CommitLatency is the time of one event-log append.
	CommitLatency *metrics.Histogram
}

// NewMetrics returns zeroed metrics.
func NewMetrics() *Metrics {
	return &Metrics{MoveLatency: metrics.NewHistogram(metrics.LatencyBounds...), CommitLatency: metrics.NewHistogram(metrics.LatencyBounds...)}
}

type atomicSummary = atomic.Pointer[Summary]
