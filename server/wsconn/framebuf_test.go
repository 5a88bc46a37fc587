package wsconn

import "testing"

// TestFrameBufReused: once a write has needed a longer frame buffer than
// the pool's, the next writes of that length reuse one instead of making
// a new buffer each time (a short buffer put back used to come out first
// again, so every long write allocated).
func TestFrameBufReused(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops items: no allocation count")
	}
	short := getFrameBuf(100)
	putFrameBuf(short, *short) // a buffer of frameBufMin in the pool
	const size = 3 * frameBufMin
	allocs := testing.AllocsPerRun(100, func() {
		bp := getFrameBuf(size)
		if cap(*bp) < size {
			t.Fatalf("a buffer of %d bytes for a write of %d", cap(*bp), size)
		}
		putFrameBuf(bp, *bp)
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations a write of %d bytes, want 0", allocs, size)
	}
}
