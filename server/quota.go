package server

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"cardroom/protocol"
	"cardroom/store"
	"cardroom/table"
)

// limiter is a token bucket per key (a player): rate tokens a second up to
// burst. Its map is bounded: when it reaches maxKeys, buckets that are full
// again (idle long enough to have refilled) are forgotten, and if that
// frees too little, the fuller half of the rest: a forgotten bucket starts
// full again, so the ones kept are those closest to their limit (a key
// being limited now), and a flood of fresh keys (addresses rotated to
// fill the map) pushes out its own buckets, not a limited key's.
type limiter struct {
	rate, burst float64
	mu          sync.Mutex
	buckets     map[string]*bucket
	maxKeys     int
	now         func() time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(rate, burst float64) *limiter {
	return &limiter{rate: rate, burst: max(1, burst), buckets: map[string]*bucket{}, maxKeys: 100000, now: time.Now}
}

// allow takes one token for key, reporting false (and how long until the
// next token) when there is none.
func (l *limiter) allow(key string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) >= l.maxKeys {
			l.evict(now)
		}
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.last).Seconds()*l.rate)
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	if l.rate <= 0 {
		return false, time.Hour
	}
	return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
}

func (l *limiter) evict(now time.Time) {
	level := func(b *bucket) float64 { return min(l.burst, b.tokens+now.Sub(b.last).Seconds()*l.rate) }
	for k, b := range l.buckets {
		if level(b) >= l.burst {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) < l.maxKeys*3/4 {
		return
	}
	levels := make([]float64, 0, len(l.buckets))
	for _, b := range l.buckets {
		levels = append(levels, level(b))
	}
	slices.Sort(levels)
	cut := levels[len(levels)/2] // the median: forget the buckets above it
	for k, b := range l.buckets {
		if level(b) > cut {
			delete(l.buckets, k)
		}
	}
	// Ties at the median (every bucket as full as the next): forget
	// buckets until half are left.
	for k, b := range l.buckets {
		if len(l.buckets) <= l.maxKeys/2 {
			break
		}
		if level(b) >= cut {
			delete(l.buckets, k)
		}
	}
}

func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}

// quotaErr is the refusal of a request over a per-player quota.
func (s *Server) quotaErr(format string, args ...any) *table.Error {
	s.quotaHits.Add(1)
	return &table.Error{Code: protocol.RateLimited, Msg: fmt.Sprintf(format, args...)}
}

// owned counts the room's tables and player's unfinished tables: all, open
// (not started), and playing with no human seat (bots only).
func (s *Server) owned(player string) (room, unfinished, open, bots int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	room = len(s.tables)
	for _, t := range s.tables {
		sum := t.Summary()
		if sum.Owner != player || sum.Status != store.StatusOpen && sum.Status != store.StatusPlaying && sum.Status != protocol.StatusPaused {
			continue
		}
		unfinished++
		if sum.Status == store.StatusOpen {
			open++
		} else if sum.Humans == 0 {
			bots++
		}
	}
	return
}

// checkCreate applies the table quotas to a new table of player: the
// room's table bound, open (not started) tables owned, unfinished tables
// owned, and, for a table of bots only, such tables owned.
func (s *Server) checkCreate(player string, botsOnly bool) error {
	room, unfinished, open, bots := s.owned(player)
	switch {
	case room >= s.cfg.MaxTables:
		return &table.Error{Code: protocol.Busy, Msg: fmt.Sprintf("the room holds %d tables, its limit: retry later", room)}
	case open >= s.cfg.OpenTablesPerPlayer:
		return s.quotaErr("you have %d open tables (the limit): start or leave one first", open)
	case unfinished >= s.cfg.TablesPerPlayer:
		return s.quotaErr("you have %d unfinished tables (the limit): finish or leave one first", unfinished)
	case botsOnly && bots >= s.cfg.BotTablesPerPlayer:
		return s.quotaErr("you have %d games of bots only (the limit): wait for one to finish", bots)
	}
	return nil
}

// checkBotsOnly applies the bots-only quota to a table about to be filled
// with bots.
func (s *Server) checkBotsOnly(player string) error {
	if _, _, _, bots := s.owned(player); bots >= s.cfg.BotTablesPerPlayer {
		return s.quotaErr("you have %d games of bots only (the limit): wait for one to finish", bots)
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
