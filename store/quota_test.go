package store

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestPostgresQuotas: a shared bucket grants its burst and then refuses
// with the wait for its next token; a refund gives one back; buckets of
// other keys and kinds are apart; it refills by the database's clock, and
// a refilled bucket is purged while a spent one is kept; bad arguments are
// refused.
func TestPostgresQuotas(t *testing.T) {
	p := needPG(t)
	ctx := context.Background()
	take := func(kind, key string, rate, burst float64) (bool, time.Duration) {
		t.Helper()
		ok, retry, err := p.TakeQuota(ctx, kind, key, rate, burst)
		if err != nil {
			t.Fatal(err)
		}
		return ok, retry
	}
	const hourly = 3.0 / 3600 // three an hour
	for i := range 3 {
		if ok, _ := take("sessions", "a", hourly, 3); !ok {
			t.Fatalf("take %d of a burst of 3 refused", i+1)
		}
	}
	ok, retry := take("sessions", "a", hourly, 3)
	if ok || retry < 19*time.Minute || retry > 20*time.Minute {
		t.Fatalf("the fourth take: ok %v, retry %v; want refused, about 20 minutes", ok, retry)
	}
	if ok, _ := take("sessions", "b", hourly, 3); !ok {
		t.Fatal("another key's bucket is spent too")
	}
	if ok, _ := take("creations", "a", hourly, 3); !ok {
		t.Fatal("another kind's bucket is spent too")
	}
	if err := p.RefundQuota(ctx, "sessions", "a"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := take("sessions", "a", hourly, 3); !ok {
		t.Fatal("the token refunded is not there")
	}
	if ok, _ := take("sessions", "a", hourly, 3); ok {
		t.Fatal("a refund gave more than one token")
	}
	if err := p.RefundQuota(ctx, "sessions", "none"); err != nil {
		t.Fatalf("refund to no bucket: %v", err)
	}

	// Refill: two a second, one at most.
	if ok, _ := take("fast", "a", 2, 1); !ok {
		t.Fatal("a fresh bucket refused")
	}
	if ok, retry := take("fast", "a", 2, 1); ok || retry > 500*time.Millisecond {
		t.Fatalf("at once again: ok %v retry %v; want refused within half a second", ok, retry)
	}
	if n, err := p.PurgeQuotas(ctx); err != nil || n != 0 {
		t.Fatalf("purge with every bucket spent: %d, %v", n, err)
	}
	time.Sleep(600 * time.Millisecond)
	if n, err := p.PurgeQuotas(ctx); err != nil || n != 1 {
		t.Fatalf("purge after the fast bucket refilled: %d, %v; want 1 (it alone)", n, err)
	}
	if ok, _ := take("fast", "a", 2, 1); !ok {
		t.Fatal("a purged bucket refused")
	}
	if ok, _ := take("sessions", "a", hourly, 3); ok {
		t.Fatal("the purge forgot a spent bucket")
	}

	for _, bad := range []struct {
		kind, key   string
		rate, burst float64
	}{{"", "a", 1, 1}, {"k", "", 1, 1}, {"k", "a", 0, 1}, {"k", "a", -1, 1}, {"k", "a", 1, 0.5}} {
		if _, _, err := p.TakeQuota(ctx, bad.kind, bad.key, bad.rate, bad.burst); err == nil {
			t.Errorf("TakeQuota%+v accepted", bad)
		}
	}
}

// TestPostgresQuotaRace: takes from one bucket at once, on the pool's
// several connections (as several nodes would), never take more than its
// burst together.
func TestPostgresQuotaRace(t *testing.T) {
	p := needPG(t)
	var granted atomic.Int32
	var wg sync.WaitGroup
	for range 24 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, _, err := p.TakeQuota(context.Background(), "race", "a", 1.0/3600, 5)
			if err != nil {
				t.Error(err)
			}
			if ok {
				granted.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := granted.Load(); n != 5 {
		t.Fatalf("24 takes at once from a bucket of 5 granted %d", n)
	}
}
