package store

import (
	"math"
	"time"
)

// The commit hold (group commit on a busy room).
//
// A transaction costs far more than the entries it carries: BEGIN and
// COMMIT take and release SQLite's locks (six fcntl calls), the commit
// writes its frames to the WAL, and every transaction is a wake-up of the
// writer goroutine. At a thousand moves a second the moves arrive about a
// millisecond apart, so a writer that commits whatever is queued commits
// them one by one. Holding a batch open a moment lets the next moves join
// it: the writer, having taken a batch's first entry, sleeps for the hold
// (it does not wake for each arrival: the entries wait in the queue) and
// then takes everything queued.
//
// The hold costs each move up to its length in latency, so it is short
// (AdaptiveHold) and used only when it pays:
//
//   - while appends arrive fast enough that at least one more is expected
//     within the hold (the arrival rate, a moving rate over about
//     rateTau, times the hold is at least 1): a quiet room commits each
//     move at once;
//   - and while holding gathers others: a table appending alone in quick
//     succession waits for its own commit before its next append, so
//     nothing can join it. When the held batches have carried less than
//     half an entry besides the first on average (an average over the last
//     eight or so), the writer stops holding and tries again only every
//     holdProbe batches.
//
// SQLiteOptions.CommitWindow replaces this with a fixed hold (positive)
// or no hold at all (negative).
type commitHold struct {
	fixed time.Duration // a fixed hold (CommitWindow > 0); 0: adaptive
	max   time.Duration // the adaptive hold; 0: never hold

	rate   float64   // appends a second, a moving rate (rateTau)
	last   time.Time // when rate was last brought up to date
	joined float64   // average entries that joined a held batch besides its first
	since  int       // batches not held because holding did not gather
}

const (
	// AdaptiveHold is the hold of the default (adaptive) commit window.
	AdaptiveHold = 2 * time.Millisecond
	rateTau      = 100 * time.Millisecond
	holdProbe    = 32
)

func newCommitHold(window time.Duration) commitHold {
	switch {
	case window > 0:
		return commitHold{fixed: window}
	case window < 0:
		return commitHold{}
	}
	return commitHold{max: AdaptiveHold, joined: 1}
}

// hold is how long to hold open a batch whose first entry the writer
// took at now.
func (h *commitHold) hold(now time.Time) time.Duration {
	if h.fixed > 0 {
		return h.fixed
	}
	if h.max <= 0 || h.rateAt(now)*h.max.Seconds() < 1 {
		return 0
	}
	if h.joined < 0.5 && h.since < holdProbe {
		h.since++
		return 0
	}
	return h.max
}

// taken records a batch: its first entry taken at now, n entries in all,
// held or not.
func (h *commitHold) taken(now time.Time, n int, held bool) {
	h.rate = h.rateAt(now) + float64(n)/rateTau.Seconds()
	h.last = now
	if held && h.fixed == 0 {
		h.joined += (float64(n-1) - h.joined) / 8
		h.since = 0
	}
}

// rateAt is the moving rate brought up to now (decayed over the time
// since the last batch).
func (h *commitHold) rateAt(now time.Time) float64 {
	if h.last.IsZero() {
		return 0
	}
	return h.rate * math.Exp(-now.Sub(h.last).Seconds()/rateTau.Seconds())
}
