package store

import (
	"testing"
	"time"
)

// feed records batches of n entries every gap on h, each held or not as
// h decides, starting at t, and returns the time after the last and how
// many were held.
func feed(h *commitHold, t time.Time, batches, n int, gap time.Duration) (time.Time, int) {
	held := 0
	for range batches {
		d := h.hold(t)
		if d > 0 {
			held++
		}
		h.taken(t, n, d > 0)
		t = t.Add(gap + d)
	}
	return t, held
}

// The adaptive hold: none on a quiet room, AdaptiveHold once appends come
// faster than one per hold, and none again for a table appending alone in
// quick succession (holding gathers nothing), apart from a probe every
// holdProbe batches.
func TestCommitHoldAdapts(t *testing.T) {
	t0 := time.Unix(1000, 0)
	h := newCommitHold(0)
	// A quiet room: a move every 10 ms, each committed at once.
	t1, held := feed(&h, t0, 200, 1, 10*time.Millisecond)
	if held != 0 {
		t.Errorf("quiet room (100 moves a second): %d of 200 batches held", held)
	}
	// A busy one: 3 entries a batch every 1 ms (about 2,000 a second, and
	// 2 joining each held batch).
	t2, held := feed(&h, t1, 200, 3, time.Millisecond)
	if held < 175 { // all but the first few, while the moving rate climbs
		t.Errorf("busy room: %d of 200 batches held, want nearly all", held)
	}
	if d := h.hold(t2); d != AdaptiveHold {
		t.Errorf("busy room: hold %v, want %v", d, AdaptiveHold)
	}
	// A lone table appending every 50 µs: held batches carry one entry
	// each, so holding stops after a few and is only tried again now and
	// then.
	t3, held := feed(&h, t2, 32*holdProbe, 1, 50*time.Microsecond)
	if held > 12+32 {
		t.Errorf("lone fast table: %d of %d batches held, want at most %d", held, 32*holdProbe, 12+32)
	}
	if held < 32 {
		t.Errorf("lone fast table: %d batches held, want a probe every %d", held, holdProbe)
	}
	// Busy again: the probes find company and holding resumes.
	if _, held := feed(&h, t3, 200, 4, time.Millisecond); held < 150 {
		t.Errorf("busy again: %d of 200 batches held", held)
	}
	// After a long pause the rate has decayed: the next move is not held.
	if d := h.hold(t3.Add(10 * time.Second)); d != 0 {
		t.Errorf("first move after a pause: hold %v, want 0", d)
	}
}

// A positive window is a fixed hold whatever the load; a negative one
// never holds.
func TestCommitHoldFixedAndOff(t *testing.T) {
	t0 := time.Unix(1000, 0)
	fixed := newCommitHold(3 * time.Millisecond)
	if _, held := feed(&fixed, t0, 50, 1, time.Second); held != 50 {
		t.Errorf("fixed window: %d of 50 quiet batches held", held)
	}
	off := newCommitHold(-1)
	if _, held := feed(&off, t0, 500, 16, 100*time.Microsecond); held != 0 {
		t.Errorf("window off: %d of 500 busy batches held", held)
	}
}
