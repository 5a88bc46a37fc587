package ismcts_test

import (
	"context"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"

	"cardroom/bot/ismcts"
	"cardroom/bot/papayoobot"
	"cardroom/game"
)

// threadDomain records the threads its playouts ran on.
type threadDomain struct {
	ismcts.Domain
	tids map[int]int
}

func (d *threadDomain) Playout(st game.State, r *game.Rand, maxSteps int) error {
	d.tids[syscall.Gettid()]++
	return d.Domain.Playout(st, r, maxSteps)
}

// TestOneWorkerRunsOnTheCaller: a one-tree search runs on the goroutine,
// hence the thread, that called it. A server's bot pool lowers its
// workers' thread priority (pool.Options.Nice): a search started on a
// goroutine of its own ran at the process's priority instead.
func TestOneWorkerRunsOnTheCaller(t *testing.T) {
	st := papayooPosition(t, 3, 6)
	v := st.View(st.ToAct(nil)[0])
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	me := syscall.Gettid()
	d := &threadDomain{tids: map[int]int{}}
	cfg := ismcts.Config{Iterations: 300, Workers: 1, Seed: 1}
	papayoobot.Configure(&cfg)
	if _, err := ismcts.Search(context.Background(), st.Engine(), v, func() ismcts.Domain {
		d.Domain = papayoobot.NewDomain(v)
		return d
	}, cfg); err != nil {
		t.Fatal(err)
	}
	if len(d.tids) != 1 || d.tids[me] == 0 {
		t.Errorf("playouts ran on threads %v, want only the caller's %d", d.tids, me)
	}
}

// TestYieldLetsOthersRun: with one thread for goroutines, a Yield search
// gives it up every few dozen iterations, so a goroutine that wants it
// runs many times during the search; without Yield it runs only when the
// runtime preempts the search (every 10 ms at best).
func TestYieldLetsOthersRun(t *testing.T) {
	st := papayooPosition(t, 3, 6)
	v := st.View(st.ToAct(nil)[0])
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const iters = 3200
	var ran atomic.Int64
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			ran.Add(1)
			runtime.Gosched()
		}
	}()
	runtime.Gosched() // the other goroutine starts
	cfg := ismcts.Config{Iterations: iters, Workers: 1, Seed: 1, Yield: true}
	papayoobot.Configure(&cfg)
	before := ran.Load()
	if _, err := ismcts.Search(context.Background(), st.Engine(), v, func() ismcts.Domain { return papayoobot.NewDomain(v) }, cfg); err != nil {
		t.Fatal(err)
	}
	during := ran.Load() - before
	stop.Store(true)
	<-done
	// One turn of the other goroutine per yield (every 32 iterations);
	// half of them is far more than preemption alone could give.
	if want := int64(iters / 32 / 2); during < want {
		t.Errorf("the other goroutine ran %d times during a %d-iteration Yield search, want at least %d", during, iters, want)
	}
}
