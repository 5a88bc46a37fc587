package store

import (
	"context"
	"fmt"
	"math"
	"time"
)

// Quotas keeps token buckets in the store, for the quotas a cluster's
// nodes must share. A node's own buckets (in memory) bound what one
// address gets from that node; behind a load balancer that spreads an
// address over N nodes it would get N times the quota of things that
// outlive a request (a session row, an account, a tournament). The
// PostgreSQL store implements it; one node needs none.
type Quotas interface {
	// TakeQuota takes one token from the bucket (kind, key), which holds
	// at most burst tokens and gains rate a second (a new bucket is
	// full). ok is false when it holds less than one; retry is then how
	// long until it has one.
	TakeQuota(ctx context.Context, kind, key string, rate, burst float64) (ok bool, retry time.Duration, err error)
	// RefundQuota gives back a token TakeQuota took (a request that then
	// made nothing), up to the bucket's burst.
	RefundQuota(ctx context.Context, kind, key string) error
	// PurgeQuotas deletes the buckets that have refilled: a full bucket
	// is the same as none, so the rows kept are those of addresses seen
	// within a refill time.
	PurgeQuotas(ctx context.Context) (int, error)
}

// checkQuota refuses a bucket that cannot work: an empty kind or key, a
// rate that never refills, a burst below one token, or numbers that are
// not finite.
func checkQuota(kind, key string, rate, burst float64) error {
	switch {
	case kind == "" || key == "" || len(kind) > 64 || len(key) > 128:
		return fmt.Errorf("quota: kind %q and key %q: want 1 to 64 and 1 to 128 bytes", kind, key)
	case !(rate > 0) || math.IsInf(rate, 0):
		return fmt.Errorf("quota: rate %v: want a positive number", rate)
	case !(burst >= 1) || math.IsInf(burst, 0):
		return fmt.Errorf("quota: burst %v: want at least 1", burst)
	}
	return nil
}
