package pool

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestBoundedConcurrency: never more jobs run at once than there are
// workers, and every accepted job runs exactly once.
func TestBoundedConcurrency(t *testing.T) {
	p := New(3, 1000)
	var running, peak, ran atomic.Int64
	var wg sync.WaitGroup
	for range 500 {
		wg.Add(1)
		if err := p.Submit(context.Background(), func(context.Context) {
			defer wg.Done()
			n := running.Add(1)
			for {
				old := peak.Load()
				if n <= old || peak.CompareAndSwap(old, n) {
					break
				}
			}
			for i := 0; i < 1000; i++ {
				_ = i * i
			}
			ran.Add(1)
			running.Add(-1)
		}); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	p.Close()
	if peak.Load() > 3 {
		t.Errorf("peak concurrency %d, want at most 3 workers", peak.Load())
	}
	if ran.Load() != 500 {
		t.Errorf("ran %d jobs, want 500", ran.Load())
	}
	if s := p.Stats(); s.Done != 500 || s.Queued != 0 || s.Running != 0 {
		t.Errorf("stats %+v, want 500 done and nothing queued or running", s)
	}
}

// TestQueueFullRefuses: beyond the queue's bound Submit fails at once with
// ErrFull, and the refusal is counted.
func TestQueueFullRefuses(t *testing.T) {
	p := New(1, 2)
	block := make(chan struct{})
	started := make(chan struct{})
	if err := p.Submit(context.Background(), func(context.Context) { close(started); <-block }); err != nil {
		t.Fatal(err)
	}
	<-started // the worker holds the first job; the queue is empty again
	for i := range 2 {
		if err := p.Submit(context.Background(), func(context.Context) {}); err != nil {
			t.Fatalf("job %d: %v, want queued", i, err)
		}
	}
	if err := p.Submit(context.Background(), func(context.Context) {}); err != ErrFull {
		t.Fatalf("third queued job: %v, want ErrFull", err)
	}
	close(block)
	p.Close()
	if s := p.Stats(); s.Refused != 1 || s.Done != 3 {
		t.Errorf("stats %+v, want 1 refused and 3 done", s)
	}
	if err := p.Submit(context.Background(), func(context.Context) {}); err != ErrClosed {
		t.Errorf("after Close: %v, want ErrClosed", err)
	}
}

// TestCancelledJobSkipped: a job whose context ended while it waited is
// not run.
func TestCancelledJobSkipped(t *testing.T) {
	p := New(1, 4)
	block := make(chan struct{})
	started := make(chan struct{})
	p.Submit(context.Background(), func(context.Context) { close(started); <-block })
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	var ran atomic.Bool
	p.Submit(ctx, func(context.Context) { ran.Store(true) })
	cancel()
	close(block)
	p.Close()
	if ran.Load() {
		t.Error("a job whose context was cancelled before it started ran")
	}
	if s := p.Stats(); s.Skipped != 1 {
		t.Errorf("skipped = %d, want 1", s.Skipped)
	}
}

func BenchmarkSubmit(b *testing.B) {
	p := New(2, 1<<16)
	var wg sync.WaitGroup
	b.ReportAllocs()
	for b.Loop() {
		wg.Add(1)
		for p.Submit(context.Background(), func(context.Context) { wg.Done() }) == ErrFull {
		}
	}
	wg.Wait()
	p.Close()
}

// TestNiceWorkers: with Options.Nice the jobs run on threads of a lowered
// priority (Linux), and without it at the process's own.
func TestNiceWorkers(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("thread priorities are set on Linux only")
	}
	base, err := threadNice()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ nice, want int }{{0, base}, {10, 10}} { // setpriority sets the value, it does not add
		want := c.want
		p := NewWith(Options{Workers: 2, MaxQueue: 4, Nice: c.nice})
		got := make(chan int, 2)
		for range 2 {
			p.Submit(context.Background(), func(context.Context) {
				n, _ := threadNice()
				got <- n
			})
		}
		for range 2 {
			if n := <-got; n != want {
				t.Errorf("Nice %d: a job ran at nice %d, want %d", c.nice, n, want)
			}
		}
		wantNiced := int64(0)
		if c.nice > 0 {
			wantNiced = 2
		}
		for i := 0; i < 100 && p.Stats().Niced != wantNiced; i++ {
			time.Sleep(10 * time.Millisecond) // a worker sets its thread's priority as it starts
		}
		if st := p.Stats(); st.Niced != wantNiced {
			t.Errorf("Nice %d: Stats.Niced %d", c.nice, st.Niced)
		}
		p.Close()
	}
}

// TestPanickingJob: a job that panics ends, counted; its worker goes on
// with the next jobs (the one worker here runs both), and the process
// lives.
func TestPanickingJob(t *testing.T) {
	p := New(1, 10)
	ran := make(chan struct{})
	if err := p.Submit(context.Background(), func(context.Context) { panic("a bug") }); err != nil {
		t.Fatal(err)
	}
	if err := p.Submit(context.Background(), func(context.Context) { close(ran) }); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("the job after a panicking one did not run")
	}
	p.Close()
	if s := p.Stats(); s.Panics != 1 || s.Done != 2 || s.Running != 0 {
		t.Errorf("stats %+v, want 1 panic, 2 done, none running", s)
	}
}
