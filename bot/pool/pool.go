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
package pool

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
)

// ErrFull is returned by Submit when the queue is full.
var ErrFull = errors.New("pool: queue full")

// ErrClosed is returned by Submit after Close.
var ErrClosed = errors.New("pool: closed")

type job struct {
	ctx context.Context
	f   func(ctx context.Context)
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
	maxQueue int
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
}

// New starts a pool of workers (at least 1) with a queue of maxQueue jobs
// (at least 1).
func New(workers, maxQueue int) *Pool {
	workers = max(1, workers)
	maxQueue = max(1, maxQueue)
	p := &Pool{queue: make([]job, maxQueue), workers: workers, maxQueue: maxQueue}
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
	p.queue[(p.head+p.n)%len(p.queue)] = job{ctx, f}
	p.n++
	p.cond.Signal()
	return nil
}

func (p *Pool) work() {
	defer p.wg.Done()
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
		p.mu.Unlock()
		if j.ctx.Err() != nil {
			p.skipped.Add(1)
			continue
		}
		p.running.Add(1)
		j.f(j.ctx)
		p.running.Add(-1)
		p.done.Add(1)
	}
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
		Done: p.done.Load(), Refused: p.refused.Load(), Skipped: p.skipped.Load()}
}
