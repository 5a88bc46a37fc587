package server

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"cardroom/game"
	"cardroom/protocol"
	"cardroom/store"
	"cardroom/table"
)

// Rematch (docs/protocol.md, "Rematch"): at a finished table, a seated
// player offers the same game again, with the same seats and options; the
// bots accept at once, and the new table is created, every seat kept, when
// the last human accepts. One decline withdraws the offer.
//
// Offers and series live in memory only: an offer is worth something for
// the minutes the players stay at the finished table (table.Config.Linger),
// and a series restarts from its table after a restart of the room.

// DefaultRematchTTL is how long an offer waits for the humans' answers
// (Config.RematchTTL, -rematch-ttl).
const DefaultRematchTTL = 10 * time.Minute

// DefaultMaxSeries bounds the tables remembered as part of a series, and
// the series results kept (Config.MaxSeries, -max-series): each table of a
// series holds the ids of up to maxChain earlier ones, a few KiB. Past the
// bound the memory is cleared (series restart, results are read again).
const DefaultMaxSeries = 20000

// maxChain bounds the games one series counts (the latest ones).
const maxChain = 100

type rematches struct {
	ttl       time.Duration // Config.RematchTTL
	maxSeries int           // Config.MaxSeries
	// forgotten counts the clearings at maxSeries (a metric: a room that
	// clears often wants a larger bound).
	forgotten atomic.Int64

	mu     sync.Mutex
	offers map[string]*rematchOffer // by the finished table's id
	chains map[string][]string      // table id → the series' tables, oldest first, up to it
	// results: table id → its game's part in a series score, for the
	// tables of series whose game is over (a result never changes then),
	// so that a series' score is read from the store once per game, not
	// on every watch (up to maxChain reads each).
	results map[string]seriesGame
}

// seriesGame is one game's part in a series score: whether it counts (it
// was played to its end) and its winners.
type seriesGame struct {
	counts  bool
	winners []protocol.SeriesScore // Wins unset
}

type rematchOffer struct {
	by       string
	created  time.Time
	accepted map[game.Seat]bool
	state    string
	newTable string
}

func newRematches(ttl time.Duration, maxSeries int) *rematches {
	return &rematches{ttl: ttl, maxSeries: maxSeries, offers: map[string]*rematchOffer{}, chains: map[string][]string{}, results: map[string]seriesGame{}}
}

// expire drops the offers older than the TTL; rm.mu is held.
func (rm *rematches) expire(now time.Time) {
	for id, o := range rm.offers {
		if now.Sub(o.created) > rm.ttl {
			delete(rm.offers, id)
		}
	}
}

// sizes are the offers waiting and the tables and results remembered, for
// /metrics.
func (rm *rematches) sizes() (offers, chains, results int) {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	rm.expire(time.Now())
	return len(rm.offers), len(rm.chains), len(rm.results)
}

// rematch handles a rematch request at the finished table t.
func (s *Server) rematch(ctx context.Context, t *table.Table, c *conn, m *protocol.RematchReq) error {
	sum := t.Summary()
	if sum.Status != store.StatusFinished {
		return &table.Error{Code: protocol.NotFinished, Msg: "a rematch is offered once the game has ended"}
	}
	var mine []game.Seat
	var humans []game.Seat
	for _, si := range sum.Seats {
		if si.Player != "" {
			humans = append(humans, si.Seat)
			if si.Player == c.sess.Player {
				mine = append(mine, si.Seat)
			}
		}
	}
	if len(mine) == 0 {
		return &table.Error{Code: protocol.NotSeated, Msg: "only the table's players answer a rematch"}
	}
	accept := m.Accept == nil || *m.Accept
	rm := s.rematches
	rm.mu.Lock()
	now := time.Now()
	rm.expire(now)
	o := rm.offers[t.ID()]
	if o != nil && o.state == protocol.RematchStarted {
		rm.mu.Unlock()
		s.sendRematch(ctx, t, o, m.ID, c)
		return nil
	}
	if !accept {
		d := &rematchOffer{by: c.sess.Player, state: protocol.RematchDeclined, accepted: map[game.Seat]bool{}}
		delete(rm.offers, t.ID())
		rm.mu.Unlock()
		s.sendRematch(ctx, t, d, nil, nil)
		return nil
	}
	if o == nil {
		o = &rematchOffer{by: c.sess.Player, created: now, state: protocol.RematchOffered, accepted: map[game.Seat]bool{}}
		for _, si := range sum.Seats {
			if si.Kind == protocol.SeatBot {
				o.accepted[si.Seat] = true // bots accept at once
			}
		}
		rm.offers[t.ID()] = o
	}
	for _, seat := range mine {
		o.accepted[seat] = true
	}
	all := true
	for _, seat := range humans {
		all = all && o.accepted[seat]
	}
	if !all {
		rm.mu.Unlock()
		s.sendRematch(ctx, t, o, nil, nil)
		return nil
	}
	// Everyone accepted: create the table while holding the lock, so that
	// two last accepts cannot create two tables.
	defer rm.mu.Unlock()
	nt, err := s.createRematch(ctx, t.ID(), c.from)
	if err != nil {
		for _, seat := range mine {
			delete(o.accepted, seat) // nothing changed: the caller may try again
		}
		return err
	}
	o.state, o.newTable = protocol.RematchStarted, nt.ID()
	chain := append(slices.Clone(rm.chains[t.ID()]), t.ID())
	if len(chain) > maxChain {
		chain = chain[len(chain)-maxChain:]
	}
	if len(rm.chains) >= rm.maxSeries {
		clear(rm.chains) // a bound, not a policy: series restart
		rm.forgotten.Add(1)
	}
	rm.chains[nt.ID()] = chain
	go s.sendRematch(context.Background(), t, o, nil, nil)
	return nil
}

// createRematch creates the rematch of the finished table id: the same
// game, options, clock, privacy, rating and seats (players and bots),
// counted against the bounds of its owner and of the address it was
// agreed from (the last player to accept).
func (s *Server) createRematch(ctx context.Context, id string, from origin) (*table.Table, error) {
	old, err := s.store.Table(ctx, id)
	if err != nil {
		return nil, &table.Error{Code: protocol.Unavailable, Msg: "the table could not be read: retry later"}
	}
	res, err := s.checkCreate(old.Owner, from, false)
	if err != nil {
		return nil, err
	}
	meta := store.Table{
		ID: randomID("t_", 6), Game: old.Game, Options: old.Options, Private: old.Private, ClockMS: old.ClockMS,
		BotLevel: old.BotLevel, Owner: old.Owner, Seed: s.seed(), Status: store.StatusOpen, Rated: old.Rated,
		WhenEmpty: old.WhenEmpty, Seats: make([]store.Seat, len(old.Seats)),
	}
	if meta.Private {
		meta.Invite = randomID("", 10)
	}
	for i, st := range old.Seats {
		if st.Bot != "" {
			meta.Seats[i] = store.Seat{Bot: st.Bot}
		} else {
			meta.Seats[i] = store.Seat{Player: st.Player, Name: st.Name, Account: st.Account}
		}
	}
	t, err := s.openTable(ctx, meta)
	if err != nil {
		s.done(res, "")
		return nil, err
	}
	s.done(res, t.ID())
	s.log.Info("rematch created", "table", t.ID(), "of", id, "game", meta.Game)
	return t, nil
}

// rematchMsg builds the message of an offer (nil: no offer, the series
// only) at table t.
func (s *Server) rematchMsg(ctx context.Context, t *table.Table, o *rematchOffer, id []byte) protocol.RematchMsg {
	m := protocol.RematchMsg{ID: id, Table: t.ID(), State: protocol.RematchNone}
	sum := t.Summary()
	if o != nil {
		m.State, m.By, m.NewTable = o.state, o.by, o.newTable
		for _, si := range sum.Seats {
			if si.Player == "" && si.Kind != protocol.SeatBot {
				continue
			}
			if o.accepted[si.Seat] {
				m.Accepted = append(m.Accepted, si.Seat)
			} else if o.state == protocol.RematchOffered {
				m.Waiting = append(m.Waiting, si.Seat)
			}
		}
	}
	m.Series = s.series(ctx, t.ID())
	return m
}

// series counts the wins of the series that ends at table id (its
// rematch chain, then id itself), from the stored results.
func (s *Server) series(ctx context.Context, id string) protocol.Series {
	rm := s.rematches
	rm.mu.Lock()
	chain := append(slices.Clone(rm.chains[id]), id)
	rm.mu.Unlock()
	var out protocol.Series
	index := map[string]int{}
	for _, tid := range chain {
		g := s.seriesGame(ctx, tid)
		if !g.counts {
			continue
		}
		out.Games++
		for _, w := range g.winners {
			i, ok := index[w.Player]
			if !ok {
				i = len(out.Wins)
				index[w.Player] = i
				out.Wins = append(out.Wins, protocol.SeriesScore{Player: w.Player, Name: w.Name})
			}
			out.Wins[i].Wins++
		}
	}
	return out
}

// seriesGame is table id's part in a series score, read from the store
// unless a game that is over had it read already.
func (s *Server) seriesGame(ctx context.Context, id string) seriesGame {
	rm := s.rematches
	rm.mu.Lock()
	g, ok := rm.results[id]
	rm.mu.Unlock()
	if ok {
		return g
	}
	st, err := s.store.Table(ctx, id)
	if err != nil {
		return seriesGame{} // not kept: the next call reads again
	}
	g.counts = st.Status == store.StatusFinished
	if g.counts {
		for _, w := range st.Winners {
			if int(w) < 0 || int(w) >= len(st.Seats) {
				continue
			}
			seat := st.Seats[w]
			player, name := seat.Player, seat.Name
			if seat.Bot != "" {
				player, name = "bot:"+seat.Bot, "bot:"+seat.Bot
			}
			g.winners = append(g.winners, protocol.SeriesScore{Player: player, Name: name})
		}
	}
	if st.Status == store.StatusFinished || st.Status == store.StatusClosed {
		rm.mu.Lock()
		if len(rm.results) >= rm.maxSeries {
			clear(rm.results) // a bound: read again when needed
			rm.forgotten.Add(1)
		}
		rm.results[id] = g
		rm.mu.Unlock()
	}
	return g
}

// sendRematch sends an offer's state to everyone watching t (only to c,
// when c is set).
func (s *Server) sendRematch(ctx context.Context, t *table.Table, o *rematchOffer, id []byte, c *conn) {
	m := s.rematchMsg(ctx, t, o, id)
	if c != nil {
		c.send(m)
		return
	}
	s.chat.broadcast(t.ID(), marshalMsg(m))
}

// rematchOnWatch tells a connection that starts watching t the state of
// its rematch offer, or the series score when t is part of a series.
func (s *Server) rematchOnWatch(ctx context.Context, t *table.Table, c *conn) {
	s.rematches.mu.Lock()
	o := s.rematches.offers[t.ID()]
	_, inSeries := s.rematches.chains[t.ID()]
	s.rematches.mu.Unlock()
	if o == nil && !inSeries {
		return
	}
	s.sendRematch(ctx, t, o, nil, c)
}
