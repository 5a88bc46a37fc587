package server

import (
	"fmt"
	"math"
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

// quotaErr is the refusal of a request over a quota, l naming it.
func (s *Server) quotaErr(l protocol.Limit, format string, args ...any) *table.Error {
	s.quotaHits.Add(1)
	return &table.Error{Code: protocol.RateLimited, Msg: fmt.Sprintf(format, args...), Limit: &l}
}

// retrySeconds is a wait in whole seconds, rounded up (a Limit's Retry).
func retrySeconds(wait time.Duration) int {
	return int(min(math.Ceil(wait.Seconds()), math.MaxInt32))
}

// origin is where a table was created from: the per-address limits' key
// (addrKey: an IPv4 address, an IPv6 /64) and, for IPv6, its /48; zero
// when not known (a table restored at start or taken over in a cluster),
// and then it counts against no address.
type origin struct{ addr, net string }

// originOf is the origin of a client at address remote.
func originOf(remote string) origin {
	a, n := addrKeys(remote)
	return origin{a, n}
}

// reservation is a table being created: counted as an open table of its
// player and origin, and in the room, from checkCreate until done, so
// that requests at the same moment cannot all pass one bound.
type reservation struct {
	player   string
	from     origin
	botsOnly bool
}

// tableCounts are the unfinished tables, and of them the open (not
// started) ones and those playing with no human seat (bots only).
type tableCounts struct{ unfinished, open, bots int }

func (c *tableCounts) add(status protocol.TableStatus, humans int) {
	c.unfinished++
	if status == store.StatusOpen {
		c.open++
	} else if humans == 0 {
		c.bots++
	}
}

// owned counts, under s.mu, the room's tables and the unfinished tables of
// player, of origin from's address and of its /48, the reservations
// included. On a node of a cluster, peers are the other nodes' tables of
// that player or origin (clusterNode.peerTables): the player's and the
// address's bounds are the cluster's, not each node's (the room's bound,
// room, stays this node's: it bounds what this process holds).
func (s *Server) owned(player string, from origin, peers []remoteSum) (room int, mine, addr, net tableCounts) {
	room = len(s.tables) + len(s.pending)
	count := func(sum *table.Summary, o origin, known bool) {
		if sum.Status != store.StatusOpen && sum.Status != store.StatusPlaying && sum.Status != protocol.StatusPaused {
			return
		}
		if sum.Owner == player {
			mine.add(sum.Status, sum.Humans)
		}
		if !known || from.addr == "" {
			return
		}
		if o.addr == from.addr {
			addr.add(sum.Status, sum.Humans)
		}
		if from.net != "" && o.net == from.net {
			net.add(sum.Status, sum.Humans)
		}
	}
	for id, t := range s.tables {
		o, known := s.origins[id]
		count(t.Summary(), o, known)
	}
	for _, r := range peers {
		if _, here := s.tables[r.sum.ID]; !here { // a table moving here: counted once
			count(r.sum, r.from, r.from.addr != "")
		}
	}
	// A table being made is open, or, with bots only, plays without a
	// human from its start.
	for r := range s.pending {
		status := store.StatusOpen
		if r.botsOnly {
			status = store.StatusPlaying
		}
		if r.player == player {
			mine.add(status, 0)
		}
		if from.addr != "" && r.from.addr == from.addr {
			addr.add(status, 0)
		}
		if from.net != "" && r.from.net == from.net {
			net.add(status, 0)
		}
	}
	return
}

// checkCreate applies the table bounds to a new table of player created
// from origin from: the room's table bound, and the open (not started),
// unfinished and bots-only tables owned by the player, and the open and
// unfinished tables created from its address (and its /48, at netShare
// times). It reserves the table's place in them: the caller calls done
// with the reservation once the table is made (or not).
func (s *Server) checkCreate(player string, from origin, botsOnly bool) (*reservation, error) {
	if s.storeIsFull() { // two stat calls: not under the room's lock
		return nil, &table.Error{Code: protocol.Busy, Msg: "the room's storage is full: no new tables for now; retry later"}
	}
	peers := s.cl.peerTables(player, from) // under the cluster's lock, not the room's
	s.mu.Lock()
	defer s.mu.Unlock()
	room, mine, addr, net := s.owned(player, from, peers)
	netCap := func(n int) int {
		if n > math.MaxInt/netShare {
			return math.MaxInt
		}
		return n * netShare
	}
	// reached is the bound that refused: the address's, else its /48's.
	reached := func(n, bound int) int {
		if n >= bound {
			return bound
		}
		return netCap(bound)
	}
	switch {
	case room >= s.cfg.MaxTables:
		return nil, &table.Error{Code: protocol.Busy, Msg: fmt.Sprintf("the room holds %d tables, its limit: retry later", room)}
	case mine.open >= s.cfg.OpenTablesPerPlayer:
		return nil, s.quotaErr(protocol.Limit{Name: protocol.LimitOpenTables, Max: float64(s.cfg.OpenTablesPerPlayer)},
			"you have %d open tables (the limit): start or leave one first", mine.open)
	case mine.unfinished >= s.cfg.TablesPerPlayer:
		return nil, s.quotaErr(protocol.Limit{Name: protocol.LimitTables, Max: float64(s.cfg.TablesPerPlayer)},
			"you have %d unfinished tables (the limit): finish or leave one first", mine.unfinished)
	case botsOnly && mine.bots >= s.cfg.BotTablesPerPlayer:
		return nil, s.botsOnlyErr(mine.bots)
	case addr.open >= s.cfg.OpenTablesPerIP || net.open >= netCap(s.cfg.OpenTablesPerIP):
		s.addrTableHits.Add(1)
		return nil, s.quotaErr(protocol.Limit{Name: protocol.LimitAddressOpenTables, Max: float64(reached(addr.open, s.cfg.OpenTablesPerIP))},
			"%d open tables were created from your network address (the limit): start or leave one first", max(addr.open, net.open))
	case addr.unfinished >= s.cfg.TablesPerIP || net.unfinished >= netCap(s.cfg.TablesPerIP):
		s.addrTableHits.Add(1)
		return nil, s.quotaErr(protocol.Limit{Name: protocol.LimitAddressTables, Max: float64(reached(addr.unfinished, s.cfg.TablesPerIP))},
			"%d unfinished tables were created from your network address (the limit): finish or leave one first", max(addr.unfinished, net.unfinished))
	}
	r := &reservation{player: player, from: from, botsOnly: botsOnly}
	s.pending[r] = struct{}{}
	return r, nil
}

// storeIsFull reports whether the store holds MaxStoreBytes or more on
// disk (and counts the refusal that follows).
func (s *Server) storeIsFull() bool {
	if s.cfg.MaxStoreBytes <= 0 {
		return false
	}
	b, ok := s.store.(interface{ Bytes() int64 })
	if !ok || b.Bytes() < s.cfg.MaxStoreBytes {
		return false
	}
	s.storeFull.Add(1)
	return true
}

// done ends a reservation: the table id was made ("" if it was not), and
// it keeps the reservation's origin (and, on a node of a cluster, tells
// the peers, whose address bounds count it).
func (s *Server) done(r *reservation, id string) {
	s.mu.Lock()
	delete(s.pending, r)
	var t *table.Table
	if id != "" && r.from.addr != "" {
		if t = s.tables[id]; t != nil {
			s.origins[id] = r.from
		}
	}
	s.mu.Unlock()
	if t != nil && s.cl != nil {
		s.cl.changed(t.Summary())
	}
}

// tableOrigin is where a table of this node was created from (zero if
// not known).
func (s *Server) tableOrigin(id string) origin {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.origins[id]
}

// checkBotsOnly applies the bots-only quota to a table about to be filled
// with bots.
func (s *Server) checkBotsOnly(player string) error {
	peers := s.cl.peerTables(player, origin{})
	s.mu.Lock()
	_, mine, _, _ := s.owned(player, origin{}, peers)
	s.mu.Unlock()
	if mine.bots >= s.cfg.BotTablesPerPlayer {
		return s.botsOnlyErr(mine.bots)
	}
	return nil
}

// botsOnlyErr refuses a player's games of bots only past its quota.
func (s *Server) botsOnlyErr(n int) *table.Error {
	return s.quotaErr(protocol.Limit{Name: protocol.LimitBotTables, Max: float64(s.cfg.BotTablesPerPlayer)},
		"you have %d games of bots only (the limit): wait for one to finish", n)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
