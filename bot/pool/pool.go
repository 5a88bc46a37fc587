// Package pool runs bot decisions and hints on a fixed number of workers.
//
// A card room's CPU is shared by every table: a search bot thinks for tens
// of milliseconds per move, and a hundred tables of them, or a crowd asking
// for hints, would otherwise take every core from the tables that only
// relay human moves. The pool bounds how many decisions run at once (its
// workers) and how many may wait (its queue); work beyond the queue is
// refused at once with ErrFull, so the caller can answer "busy" or retry
// later instead of queueing without limit. Jobs run in the order they were
// submitted.
//
// With a Budget (NewWithBudget), the pool also shares the CPU: each job is
// given a Grant in its context when a worker takes it, and the hard bot
// searches that many iterations, fewer when jobs are waiting (budget.go).
// A busy room makes every search shorter rather than making tables wait.
package pool

import (
	"cardroom/metrics"
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// ErrFull is returned by Submit when the queue is full.
var ErrFull = errors.New("pool: queue full")

// ErrClosed is returned by Submit after Close.
var ErrClosed = errors.New("pool: closed")

type job struct {
	ctx context.Context
	f   func(ctx context.Context)
	at  time.Time // when it was submitted (for the latency histogram only)
}

// Pool is a bounded worker pool. The zero value is not usable: call New.
type Pool struct {
	mu     sync.Mutex
	cond   *sync.Cond
	queue  []job // FIFO ring
	head   int
	n      int
	closed bool
	wg     sync.WaitGroup

	workers  int
	running  atomic.Int64
	done     atomic.Int64
	refused  atomic.Int64
	skipped  atomic.Int64
	panics   atomic.Int64
	maxQueue int

	budget     Budget
	nice       int
	niced      atomic.Int64 // workers whose thread's priority was lowered
	reduced    atomic.Int64
	latency    *metrics.Histogram
	iterations *metrics.Histogram
}

// Stats is a snapshot for metrics.
type Stats struct {
	Workers  int   // fixed number of workers
	Running  int64 // jobs running now
	Queued   int64 // jobs waiting now
	MaxQueue int   // the queue's bound
	Done     int64 // jobs finished
	Refused  int64 // Submit calls refused because the queue was full
	Skipped  int64 // jobs dropped unrun because their context had ended
	Niced    int64 // workers running at a lowered priority (Options.Nice)
	// Panics counts jobs that panicked: the worker recovers and goes on
	// (a job that must answer someone recovers itself, to answer).
	Panics int64
}

// New starts a pool of workers (at least 1) with a queue of maxQueue jobs
// (at least 1) and no budget: jobs get no grant.
func New(workers, maxQueue int) *Pool { return NewWithBudget(workers, maxQueue, Budget{}) }

// NewWithBudget is New with a budget shared by the jobs' searches. A budget
// that fails Check is replaced by none (callers check it first to report
// the error).
func NewWithBudget(workers, maxQueue int, b Budget) *Pool {
	return NewWith(Options{Workers: workers, MaxQueue: maxQueue, Budget: b})
}

// Options are a pool's settings (NewWith).
type Options struct {
	Workers, MaxQueue int
	Budget            Budget
	// Nice lowers the scheduling priority of the workers' threads by this
	// much (1 to 19; Linux: each worker locks its goroutine to a thread of
	// its own and calls setpriority on that thread). When the cores are
	// short, the kernel then runs the tables' goroutines (human moves, the
	// sockets) before the bots' searches, which only get slower (and, with
	// a Budget, shorter as they queue). 0 leaves them at the process's
	// priority. Elsewhere than Linux it has no effect.
	Nice int
}

// NewWith is NewWithBudget with every setting.
func NewWith(o Options) *Pool {
	workers, maxQueue, b := o.Workers, o.MaxQueue, o.Budget
	workers = max(1, workers)
	maxQueue = max(1, maxQueue)
	if b.Check() != nil {
		b = Budget{}
	}
	p := &Pool{queue: make([]job, maxQueue), workers: workers, maxQueue: maxQueue, budget: b, nice: min(max(o.Nice, 0), 19),
		latency: metrics.NewHistogram(latencyBounds...), iterations: metrics.NewHistogram(iterationBounds...)}
	p.cond = sync.NewCond(&p.mu)
	p.wg.Add(workers)
	for range workers {
		go p.work()
	}
	return p
}

// Submit queues f to run on a worker with ctx. It does not wait for f. A
// job whose ctx has ended before a worker takes it is dropped unrun (its
// caller has gone: a stopped table). It returns ErrFull when the queue is
// full and ErrClosed after Close.
func (p *Pool) Submit(ctx context.Context, f func(ctx context.Context)) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return ErrClosed
	}
	if p.n == len(p.queue) {
		p.refused.Add(1)
		return ErrFull
	}
	p.queue[(p.head+p.n)%len(p.queue)] = job{ctx, f, time.Now()}
	p.n++
	p.cond.Signal()
	return nil
}

func (p *Pool) work() {
	defer p.wg.Done()
	if p.nice > 0 {
		// The thread ends with the worker (a locked goroutine's thread is
		// not reused), so its lowered priority never reaches other work.
		runtime.LockOSThread()
		if lowerPriority(p.nice) == nil {
			p.niced.Add(1)
		}
	}
	for {
		p.mu.Lock()
		for p.n == 0 && !p.closed {
			p.cond.Wait()
		}
		if p.n == 0 && p.closed {
			p.mu.Unlock()
			return
		}
		j := p.queue[p.head]
		p.queue[p.head] = job{}
		p.head = (p.head + 1) % len(p.queue)
		p.n--
		waiting := p.n
		p.mu.Unlock()
		if j.ctx.Err() != nil {
			p.skipped.Add(1)
			continue
		}
		var g Grant // none without a budget: the job still reports what it spent
		if p.budget != (Budget{}) {
			g = p.budget.Grant(waiting, p.workers)
		}
		ctx := WithGrant(j.ctx, g)
		p.running.Add(1)
		p.run(ctx, j.f)
		p.running.Add(-1)
		p.done.Add(1)
		p.latency.ObserveDuration(time.Since(j.at))
		if n, ok := SpentFrom(ctx); ok && n > 0 {
			p.iterations.Observe(float64(n))
			if g.Level > 0 {
				p.reduced.Add(1) // a search, not a rule-based move, got less
			}
		}
	}
}

// run runs one job; a panic in it ends the job, not the process.
func (p *Pool) run(ctx context.Context, f func(context.Context)) {
	defer func() {
		if recover() != nil {
			p.panics.Add(1)
		}
	}()
	f(ctx)
}

// Close refuses new jobs, lets the workers finish what is queued (jobs
// whose context has ended are skipped) and waits for them.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	p.cond.Broadcast()
	p.mu.Unlock()
	p.wg.Wait()
}

// Stats returns the pool's counters.
func (p *Pool) Stats() Stats {
	p.mu.Lock()
	q := p.n
	p.mu.Unlock()
	return Stats{Workers: p.workers, Running: p.running.Load(), Queued: int64(q), MaxQueue: p.maxQueue,
		Done: p.done.Load(), Refused: p.refused.Load(), Skipped: p.skipped.Load(), Niced: p.niced.Load(), Panics: p.panics.Load()}
}
