package server

import (
	"slices"
	"testing"
	"time"
)

// TestSpreadPings: the pings due at one check go out in chunks of at most
// pingChunk, and the last chunk starts before the next check.
func TestSpreadPings(t *testing.T) {
	for _, tc := range []struct {
		n          int
		every      time.Duration
		wantChunks int
	}{
		{0, time.Second, 0},
		{1, time.Second, 1},
		{pingChunk, time.Second, 1},
		{pingChunk + 1, time.Second, 2},
		{1450, time.Second, 46},
		{100000, 10 * time.Millisecond, 3125},
	} {
		chunks, gap := spreadPings(tc.n, tc.every)
		if chunks != tc.wantChunks {
			t.Errorf("%d pings: %d chunks, want %d", tc.n, chunks, tc.wantChunks)
		}
		if chunks*pingChunk < tc.n {
			t.Errorf("%d pings: %d chunks of %d leave some out", tc.n, chunks, pingChunk)
		}
		if chunks <= 1 {
			if gap != 0 {
				t.Errorf("%d pings in one chunk: gap %v, want none", tc.n, gap)
			}
			continue
		}
		if gap <= 0 || time.Duration(chunks-1)*gap >= tc.every {
			t.Errorf("%d pings every %v: gap %v, the last chunk starts at %v", tc.n, tc.every, gap, time.Duration(chunks-1)*gap)
		}
	}
}

// TestFirstPing: a connection's first ping comes from half an interval to
// an interval and a half after it opens.
func TestFirstPing(t *testing.T) {
	const iv = 30 * time.Second
	lo := firstPing(iv, func(n int64) int64 { return 0 })
	hi := firstPing(iv, func(n int64) int64 { return n - 1 })
	if lo != int64(iv/2) {
		t.Errorf("earliest first ping %v, want %v", time.Duration(lo), iv/2)
	}
	if hi != int64(iv*3/2)-1 {
		t.Errorf("latest first ping %v, want just under %v", time.Duration(hi), iv*3/2)
	}
	if got := firstPing(1, func(n int64) int64 { t.Fatal("rand called for a 1 ns interval"); return 0 }); got != 1 {
		t.Errorf("1 ns interval: first ping after %d ns, want 1", got)
	}
}

// TestPingsSpreadOverConnections: connections opened together are not
// pinged together: their first pings spread over the window firstPing
// allows, not all on one check.
func TestPingsSpreadOverConnections(t *testing.T) {
	const iv = 40 * time.Second // no ping comes during the test
	ts := startServerCfg(t, t.TempDir(), Config{PingInterval: iv, MaxConnsPerIP: -1})
	sess := newSession(t, ts.url, "many")
	opened := time.Now().UnixNano()
	const n = 40
	for range n {
		dial(t, ts.url, sess)
	}
	deadline := time.Now().Add(5 * time.Second)
	var next []int64
	for {
		ts.s.mu.Lock()
		next = next[:0]
		for c := range ts.s.conns {
			next = append(next, c.nextPing)
		}
		ts.s.mu.Unlock()
		if len(next) == n || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(next) != n {
		t.Fatalf("%d connections registered, want %d", len(next), n)
	}
	slices.Sort(next)
	if first, last := next[0]-opened, next[n-1]-opened; first < int64(iv/2)-int64(time.Second) || last > int64(iv*3/2)+int64(5*time.Second) {
		t.Errorf("first pings from %v to %v after opening, want within [%v, %v]", time.Duration(first), time.Duration(last), iv/2, iv*3/2)
	}
	// 40 uniform draws over 40 s: the chance that they all fall within 10 s
	// of one another is about 4e-23.
	if span := time.Duration(next[n-1] - next[0]); span < 10*time.Second {
		t.Errorf("the first pings of %d connections opened together span %v: they come together", n, span)
	}
}
