package pool

import (
	"context"
	"strings"
	"sync"
	"testing"
)

// TestBudgetGrant: the grant halves once per doubling of the waiting jobs
// per worker, never below Min, and is the full budget while no job waits
// for a worker.
func TestBudgetGrant(t *testing.T) {
	b := Budget{Full: 4000, Min: 1000}
	for _, c := range []struct {
		waiting, workers int
		want             Grant
	}{
		{0, 1, Grant{4000, 0}},
		{1, 1, Grant{2000, 1}},
		{2, 1, Grant{1000, 2}},
		{3, 1, Grant{1000, 2}},
		{1000, 1, Grant{1000, 2}}, // the floor
		{2, 3, Grant{4000, 0}},    // every waiting job has a free worker next
		{3, 3, Grant{2000, 1}},
		{5, 3, Grant{2000, 1}},
		{6, 3, Grant{1000, 2}},
		{0, 0, Grant{4000, 0}}, // workers < 1 counts as 1
		{1, 0, Grant{2000, 1}},
	} {
		if got := b.Grant(c.waiting, c.workers); got != c.want {
			t.Errorf("Grant(%d waiting, %d workers) = %+v, want %+v", c.waiting, c.workers, got, c.want)
		}
	}
	// A floor that is not a halving of Full is reached exactly.
	if got := (Budget{Full: 4000, Min: 1500}).Grant(10, 1); got != (Grant{1500, 2}) {
		t.Errorf("Grant with Min 1500 = %+v, want {1500 2}", got)
	}
	if got := (Budget{Full: 1000, Min: 1000}).Grant(10, 1); got != (Grant{1000, 0}) {
		t.Errorf("Grant with Min = Full = %+v, want the full budget at level 0", got)
	}
}

func TestBudgetCheck(t *testing.T) {
	for _, c := range []struct {
		b  Budget
		ok bool
	}{
		{Budget{}, true},
		{Budget{4000, 1000}, true},
		{Budget{100, 100}, true},
		{Budget{MaxIterations, MinIterations}, true},
		{Budget{4000, 99}, false},
		{Budget{4000, 0}, false},
		{Budget{0, 1000}, false},
		{Budget{1000, 2000}, false},
		{Budget{MaxIterations + 1, 1000}, false},
		{Budget{-1, -1}, false},
	} {
		if err := c.b.Check(); (err == nil) != c.ok {
			t.Errorf("%+v: Check() = %v, want ok=%v", c.b, err, c.ok)
		}
	}
	// A bad budget given to the pool anyway means none: no grant.
	p := NewWithBudget(1, 1, Budget{Full: 10, Min: 5})
	defer p.Close()
	got := make(chan bool, 1)
	p.Submit(context.Background(), func(ctx context.Context) { _, ok := GrantFrom(ctx); got <- ok })
	if <-got {
		t.Error("a pool with an invalid budget granted one")
	}
}

// metricValue returns the value of the metric line named name in text.
func metricValue(t *testing.T, text, name string) string {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(l, name+" "); ok {
			return v
		}
	}
	t.Fatalf("metric %s missing from:\n%s", name, text)
	return ""
}

// TestBudgetShrinksAndRecovers: with the one worker held and five jobs
// queued behind it, the jobs taken while others still wait are granted
// less, the last one (nothing waiting) the full budget again; the gauge in
// /metrics follows the queue, and the counters and histograms count the
// jobs.
func TestBudgetShrinksAndRecovers(t *testing.T) {
	p := NewWithBudget(1, 16, Budget{Full: 4000, Min: 1000})
	var mu sync.Mutex
	var grants []Grant
	record := func(ctx context.Context) {
		g, ok := GrantFrom(ctx)
		if !ok {
			t.Error("a job of a pool with a budget has no grant")
		}
		mu.Lock()
		grants = append(grants, g)
		mu.Unlock()
		Spent(ctx, g.Iterations)
	}
	block, started := make(chan struct{}), make(chan struct{})
	p.Submit(context.Background(), func(ctx context.Context) { close(started); <-block; record(ctx) })
	<-started
	for range 5 {
		if err := p.Submit(context.Background(), record); err != nil {
			t.Fatal(err)
		}
	}
	var busy strings.Builder
	p.WriteMetrics(&busy)
	if v := metricValue(t, busy.String(), "cardroom_bot_budget_iterations"); v != "1000" {
		t.Errorf("budget gauge with 5 jobs waiting on 1 worker = %s, want 1000", v)
	}
	if v := metricValue(t, busy.String(), "cardroom_bot_budget_level"); v != "2" {
		t.Errorf("budget level with 5 jobs waiting = %s, want 2", v)
	}
	close(block)
	p.Close()
	want := []Grant{{4000, 0}, {1000, 2}, {1000, 2}, {1000, 2}, {2000, 1}, {4000, 0}}
	if len(grants) != len(want) {
		t.Fatalf("grants %+v, want %+v", grants, want)
	}
	for i := range want {
		if grants[i] != want[i] {
			t.Errorf("job %d: grant %+v, want %+v (all: %+v)", i, grants[i], want[i], grants)
		}
	}
	var idle strings.Builder
	p.WriteMetrics(&idle)
	out := idle.String()
	for name, v := range map[string]string{
		"cardroom_bot_budget_iterations":            "4000",
		"cardroom_bot_budget_level":                 "0",
		"cardroom_bot_reduced_total":                "4",
		"cardroom_bot_latency_seconds_count":        "6",
		"cardroom_bot_iterations_count":             "6",
		"cardroom_bot_iterations_sum":               "13000",
		`cardroom_bot_iterations_bucket{le="1000"}`: "3",
		`cardroom_bot_iterations_bucket{le="2000"}`: "4",
	} {
		if got := metricValue(t, out, name); got != v {
			t.Errorf("%s = %s, want %s", name, got, v)
		}
	}
}

// TestNoBudgetNoGrant: a pool without a budget gives its jobs no grant (the
// bots keep their own budget) but still counts what they report, and its
// jobs are still Shared (a search in them gives way to the room).
func TestNoBudgetNoGrant(t *testing.T) {
	p := New(1, 4)
	got := make(chan bool, 2)
	p.Submit(context.Background(), func(ctx context.Context) {
		_, ok := GrantFrom(ctx)
		got <- ok
		got <- Shared(ctx)
		Spent(ctx, 300)
	})
	p.Close()
	if <-got {
		t.Error("a pool without a budget granted one")
	}
	if !<-got {
		t.Error("a pool's job is not Shared")
	}
	if Shared(context.Background()) {
		t.Error("a context of no pool is Shared")
	}
	var b strings.Builder
	p.WriteMetrics(&b)
	if v := metricValue(t, b.String(), "cardroom_bot_iterations_sum"); v != "300" {
		t.Errorf("iterations sum = %s, want 300", v)
	}
	if v := metricValue(t, b.String(), "cardroom_bot_budget_iterations"); v != "0" {
		t.Errorf("budget gauge without a budget = %s, want 0", v)
	}
}

// TestReducedCountsSearchesOnly: a job that searches nothing (a rule-based
// move) taken while others wait is not counted as a reduced search, nor in
// the iterations histogram.
func TestReducedCountsSearchesOnly(t *testing.T) {
	p := NewWithBudget(1, 4, Budget{Full: 4000, Min: 1000})
	block, started := make(chan struct{}), make(chan struct{})
	p.Submit(context.Background(), func(context.Context) { close(started); <-block })
	<-started
	for range 3 {
		p.Submit(context.Background(), func(context.Context) {})
	}
	close(block)
	p.Close()
	var b strings.Builder
	p.WriteMetrics(&b)
	if v := metricValue(t, b.String(), "cardroom_bot_reduced_total"); v != "0" {
		t.Errorf("reduced = %s, want 0: no job searched", v)
	}
	if v := metricValue(t, b.String(), "cardroom_bot_iterations_count"); v != "0" {
		t.Errorf("iterations count = %s, want 0", v)
	}
	if v := metricValue(t, b.String(), "cardroom_bot_latency_seconds_count"); v != "4" {
		t.Errorf("latency count = %s, want 4 (every job)", v)
	}
}
