package pool

import (
	"context"
	"fmt"
	"sync/atomic"
)

// Budget shares the CPU among searches when the room is busy. A search that
// takes its full budget while others wait delays every table behind it, so
// when jobs are waiting for a worker each search is granted less: half the
// full budget once there is one waiting job per worker, a quarter at two per
// worker, an eighth at four, and so on down to Min, which keeps it a real
// search (a hard bot at Min still beats the rules, see docs/bots.md).
//
// The grant is decided when a worker takes the job, from the number of jobs
// still waiting at that moment: an input to the search, not a clock read
// inside it, so a search with a grant is as reproducible as one with a fixed
// iteration budget, and tests set the load explicitly.
type Budget struct {
	Full int // iterations a search may spend while the pool keeps up
	Min  int // the least it is granted however long the queue
}

// MinIterations is the least Budget.Min the pool accepts: below it the
// hard bot's search is too noisy to be better than the rule-based player.
const MinIterations = 100

// MaxIterations bounds Budget.Full (about a second of search on one core
// for the slowest game).
const MaxIterations = 1_000_000

// Check reports a budget out of range. The zero Budget (no budget: jobs get
// no grant and bots keep their own) is valid.
func (b Budget) Check() error {
	if b == (Budget{}) {
		return nil
	}
	if b.Min < MinIterations || b.Min > MaxIterations {
		return fmt.Errorf("pool: the least bot budget is %d iterations, want %d to %d", b.Min, MinIterations, MaxIterations)
	}
	if b.Full < b.Min || b.Full > MaxIterations {
		return fmt.Errorf("pool: the full bot budget is %d iterations, want %d (the least) to %d", b.Full, b.Min, MaxIterations)
	}
	return nil
}

// Grant is what one job may spend.
type Grant struct {
	Iterations int // the search's iteration budget
	// Level is how many times the full budget was halved: 0 = full.
	Level int
}

// Grant returns the grant for a job taken while waiting jobs are queued
// behind it on a pool of workers. It is a pure function of its inputs.
func (b Budget) Grant(waiting, workers int) Grant {
	workers = max(1, workers)
	g := Grant{Iterations: b.Full}
	for w := workers; waiting >= w && g.Iterations > b.Min; w *= 2 {
		g.Iterations /= 2
		g.Level++
	}
	g.Iterations = max(g.Iterations, b.Min)
	return g
}

type ticketKey struct{}

// ticket travels in a job's context: the grant in, the iterations spent out.
type ticket struct {
	grant Grant
	spent atomic.Int64
	told  atomic.Bool
}

// WithGrant returns a context that carries g, as a pool worker gives its
// job; tests and tools use it to run a bot at a chosen budget.
func WithGrant(ctx context.Context, g Grant) context.Context {
	return context.WithValue(ctx, ticketKey{}, &ticket{grant: g})
}

// Shared reports whether ctx is a pool job's (or carries WithGrant's
// ticket): the job shares the cores with the room, so a search in it gives
// way to the tables' goroutines (ismcts.Config.Yield), budget or none.
func Shared(ctx context.Context) bool {
	_, ok := ctx.Value(ticketKey{}).(*ticket)
	return ok
}

// GrantFrom returns the grant of the job running with ctx, if it has one
// (a pool without a budget gives none).
func GrantFrom(ctx context.Context) (Grant, bool) {
	t, ok := ctx.Value(ticketKey{}).(*ticket)
	if !ok || t.grant.Iterations <= 0 {
		return Grant{}, false
	}
	return t.grant, true
}

// Spent records the iterations the job's search did, for the pool's
// iterations histogram. It does nothing outside a pool's job or WithGrant.
func Spent(ctx context.Context, iterations int) {
	if t, ok := ctx.Value(ticketKey{}).(*ticket); ok {
		t.spent.Add(int64(iterations))
		t.told.Store(true)
	}
}

// SpentFrom returns what Spent recorded in ctx (tests, tools).
func SpentFrom(ctx context.Context) (int, bool) {
	t, ok := ctx.Value(ticketKey{}).(*ticket)
	if !ok || !t.told.Load() {
		return 0, false
	}
	return int(t.spent.Load()), true
}
