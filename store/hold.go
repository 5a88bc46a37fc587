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
// The hold costs each move held up to its length in latency, so it is
// short (AdaptiveHold) and used only while it pays: while entries of
// different tables arrive fast enough that at least one more is expected
// within the hold. The rate counted is that of entries whose table is not
// the previous entry's (a moving rate over about rateTau): a table
// appending alone in quick succession waits for each commit before its
// next append, so nothing could join it, and its entries do not count. A
// quiet room, or a lone busy table, commits every move at once. And the
// hold is no longer than it takes for about holdBatch entries to arrive
// (beyond that a commit's own cost is spread thin already), and none when
// that many are queued already: a room at full speed is not slowed down.
//
// SQLiteOptions.CommitWindow replaces this with a fixed hold (positive)
// or no hold at all (negative).
type commitHold struct {
	fixed time.Duration // a fixed hold (CommitWindow > 0); 0: adaptive
	max   time.Duration // the adaptive hold; 0: never hold

	rate float64   // entries a second that changed table, a moving rate (rateTau)
	last time.Time // when rate was last brought up to date
	prev string    // the table of the last entry taken
}

const (
	// AdaptiveHold is the hold of the default (adaptive) commit window.
	AdaptiveHold = 2 * time.Millisecond
	rateTau      = 100 * time.Millisecond
	holdBatch    = 16 // entries a hold aims to gather
)

func newCommitHold(window time.Duration) commitHold {
	switch {
	case window > 0:
		return commitHold{fixed: window}
	case window < 0:
		return commitHold{}
	}
	return commitHold{max: AdaptiveHold}
}

// hold is how long to hold open a batch whose first entry the writer
// took at now, with queued more entries waiting.
func (h *commitHold) hold(now time.Time, queued int) time.Duration {
	if h.fixed > 0 {
		return h.fixed
	}
	rate := h.rateAt(now)
	if h.max <= 0 || rate*h.max.Seconds() < 1 || queued+1 >= holdBatch {
		return 0
	}
	return min(h.max, time.Duration(float64(holdBatch-1-queued)/rate*float64(time.Second)))
}

// taken records a batch whose first entry was taken at now.
func (h *commitHold) taken(now time.Time, batch []*appendReq) {
	n := 0
	for _, r := range batch {
		if r.table != h.prev {
			n++
			h.prev = r.table
		}
	}
	h.rate = h.rateAt(now) + float64(n)/rateTau.Seconds()
	h.last = now
}

// rateAt is the moving rate brought up to now (decayed over the time
// since the last batch).
func (h *commitHold) rateAt(now time.Time) float64 {
	if h.last.IsZero() {
		return 0
	}
	return h.rate * math.Exp(-now.Sub(h.last).Seconds()/rateTau.Seconds())
}
