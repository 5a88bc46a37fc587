package store

import (
	"fmt"
	"testing"
	"time"
)

// feed runs h on synthetic arrivals, one entry every `every` from t,
// through the writer's loop: take the first entry waiting, hold as h
// says, take every entry that arrived meanwhile (at most 512), commit
// (50 µs), again. With spread the entries are of tables in turn from a
// thousand; without, all of one table. It returns the time after the
// last batch and how many batches were held.
func feed(h *commitHold, t time.Time, batches int, every time.Duration, spread bool) (time.Time, int) {
	const commit = 50 * time.Microsecond
	next, now := t, t // the first arrival not taken yet; the writer's clock
	held, k := 0, 0
	for range batches {
		if now.Before(next) {
			now = next // the writer waits for an arrival
		}
		d := h.hold(now, int(now.Sub(next)/every))
		if d > 0 {
			held++
		}
		n := min(int(now.Add(d).Sub(next)/every)+1, 512)
		batch := make([]*appendReq, n)
		for i := range batch {
			batch[i] = &appendReq{table: "alone"}
			if spread {
				batch[i].table = fmt.Sprint("t", k%1000)
			}
			k++
		}
		h.taken(now, batch)
		next = next.Add(time.Duration(n) * every)
		now = now.Add(d + commit)
	}
	return now, held
}

// The adaptive hold: none on a quiet room, AdaptiveHold once moves of
// different tables come faster than one per hold, shorter on a flood,
// never for a table appending alone however fast, and none again once the
// room is quiet.
func TestCommitHoldAdapts(t *testing.T) {
	t0 := time.Unix(1000, 0)
	h := newCommitHold(0)
	// A quiet room: a move every 10 ms, each committed at once.
	t1, held := feed(&h, t0, 200, 10*time.Millisecond, true)
	if held != 0 {
		t.Errorf("quiet room (100 moves a second): %d of 200 batches held", held)
	}
	// A busy one: 2,000 moves a second.
	t2, held := feed(&h, t1, 200, 500*time.Microsecond, true)
	if held < 140 { // all but those of the 25 ms or so the moving rate takes to climb
		t.Errorf("busy room: %d of 200 batches held, want nearly all", held)
	}
	if d := h.hold(t2, 0); d != AdaptiveHold {
		t.Errorf("busy room: hold %v, want %v", d, AdaptiveHold)
	}
	// A flood (200,000 a second): the hold is only as long as it takes
	// holdBatch entries to come (by the moving rate, still climbing), and
	// none when that many are queued.
	t3, _ := feed(&h, t2, 200, 5*time.Microsecond, true)
	if d := h.hold(t3, 0); d <= 0 || d > AdaptiveHold/4 {
		t.Errorf("flood: hold %v, want the time %d entries take to come", d, holdBatch-1)
	}
	if d := h.hold(t3, holdBatch-1); d != 0 {
		t.Errorf("flood with %d queued: hold %v, want 0", holdBatch-1, d)
	}
	// A lone table appending every 50 µs, a second after the flood:
	// nothing could join its commits.
	t4, held := feed(&h, t3.Add(time.Second), 1000, 50*time.Microsecond, false)
	if held != 0 {
		t.Errorf("lone fast table: %d of 1000 batches held", held)
	}
	// After a long pause the rate has decayed: the next move is not held.
	if d := h.hold(t4.Add(10*time.Second), 0); d != 0 {
		t.Errorf("first move after a pause: hold %v, want 0", d)
	}
}

// A positive window is a fixed hold whatever the load; a negative one
// never holds.
func TestCommitHoldFixedAndOff(t *testing.T) {
	t0 := time.Unix(1000, 0)
	fixed := newCommitHold(3 * time.Millisecond)
	if _, held := feed(&fixed, t0, 50, time.Second, true); held != 50 {
		t.Errorf("fixed window: %d of 50 quiet batches held", held)
	}
	off := newCommitHold(-1)
	if _, held := feed(&off, t0, 500, 100*time.Microsecond, true); held != 0 {
		t.Errorf("window off: %d of 500 busy batches held", held)
	}
}
