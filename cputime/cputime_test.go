package cputime

import (
	"runtime"
	"testing"
	"time"
)

// spin keeps the calling thread busy for d of wall clock.
func spin(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
	}
}

func TestCountsWhatItUses(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the counts read 0 where they are not kept")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p0, t0 := Process(), Thread()
	spin(60 * time.Millisecond)
	p1, t1 := Process(), Thread()
	// 60 ms of wall clock spinning is at least a few ms of CPU even on a
	// machine shared with other work, and the thread's count is part of
	// the process's (both are sampled at the kernel's ticks and scaled,
	// so they may differ by a tick or two: the bound is loose).
	if d := t1 - t0; d < 5*time.Millisecond {
		t.Errorf("the thread's CPU grew by %v over 60 ms of spinning", d)
	}
	if p1-p0 < (t1-t0)/2 {
		t.Errorf("the process's CPU grew by %v, far less than its thread's %v", p1-p0, t1-t0)
	}
}
