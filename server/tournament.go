package server

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cardroom/bot"
	"cardroom/game"
	"cardroom/games"
	"cardroom/protocol"
	"cardroom/store"
	"cardroom/table"
	"cardroom/tournament"
)

// Duplicate tournaments (docs/tournaments.md). A tournament is a row in the
// store (store.Tournaments) with its entrants and, per entrant and deal,
// the table the entrant plays that deal at: a private table of its own,
// seeded with the deal's seed, the entrant at the deal's seat and bots of
// the tournament's level in the others. Nothing about a tournament lives
// only in memory: its status moves (open, running, finished) when a request
// finds it due, and a deal's result is read from its table's stored row
// the first time the standings need it after the game ended (settle), so a
// restarted room carries on where it was.

// TournamentConfig bounds what players can make the room hold for
// tournaments (docs/server.md, "Limits"). Zero means the default.
type TournamentConfig struct {
	// MaxOpen bounds the unfinished (open or running) tournaments of the
	// room (-max-tournaments; default 100).
	MaxOpen int
	// PerPlayer bounds the unfinished tournaments one player created
	// (-tournaments-per-player; default 3).
	PerPlayer int
	// PerCreatorAddress bounds the unfinished tournaments created from one
	// network address (the per-address limits' key) (-tournaments-per-ip;
	// default 3, negative: no bound). Guest sessions are cheap, so without
	// it the room's MaxOpen falls to a few addresses: a tournament one
	// entrant leaves alone holds its slot to its last deadline (up to 12
	// deals of 7 days).
	PerCreatorAddress int
	// MaxEntrants bounds a tournament's entrants (-tournament-entrants;
	// default 32, at most tournament.MaxEntrants).
	MaxEntrants int
	// FillTTL is how long a tournament that starts when full waits for its
	// entrants before it is cancelled (-tournament-fill-ttl; default 24 h).
	FillTTL time.Duration
	// PerAddress bounds a tournament's entrants from one network address
	// (the per-address limits' key: an IPv4 address, an IPv6 /64)
	// (-tournament-entries-per-ip; default 1, negative: no bound). Every
	// entrant plays the same cards, so one person with a second entry
	// (another guest session is cheap) would play each deal a second time
	// knowing every hand and how the bots answer. A room whose players
	// share an address (a club, a school behind one NAT) raises it.
	PerAddress int
}

// tournamentListed bounds the finished tournaments GET /api/tournaments
// lists besides the unfinished ones; tournamentListTTL is how long its
// answer is reused.
const (
	tournamentListed  = 20
	tournamentListTTL = time.Second
)

// tournaments is the server's tournament state: its bounds, counters, and
// a lock that makes the start of a deal (reserve, then open the table)
// one step per node.
type tournaments struct {
	cfg     TournamentConfig
	mu      sync.Mutex
	created atomic.Int64
	entries atomic.Int64
	deals   atomic.Int64
	refused atomic.Int64
	// sameAddress counts entries refused by PerAddress, addressLimited
	// tournaments refused by PerCreatorAddress.
	sameAddress    atomic.Int64
	addressLimited atomic.Int64
	unfinished     atomic.Int64 // as of the last listing

	listMu   sync.Mutex // the cached answer of GET /api/tournaments
	listAt   time.Time
	listBody []byte
}

func newTournaments(cfg TournamentConfig) *tournaments {
	if cfg.MaxOpen <= 0 {
		cfg.MaxOpen = 100
	}
	if cfg.PerPlayer <= 0 {
		cfg.PerPlayer = 3
	}
	if cfg.MaxEntrants <= 0 {
		cfg.MaxEntrants = 32
	}
	cfg.MaxEntrants = min(cfg.MaxEntrants, tournament.MaxEntrants)
	if cfg.FillTTL <= 0 {
		cfg.FillTTL = 24 * time.Hour
	}
	if cfg.PerAddress == 0 {
		cfg.PerAddress = 1
	}
	if cfg.PerCreatorAddress == 0 {
		cfg.PerCreatorAddress = 3
	}
	return &tournaments{cfg: cfg}
}

func (s *Server) tournamentRoutes(m *http.ServeMux) {
	s.tour = newTournaments(s.cfg.Tournaments)
	m.HandleFunc("GET /api/tournaments", s.handleTournaments)
	m.HandleFunc("POST /api/tournaments", s.auth(s.handleCreateTournament))
	m.HandleFunc("GET /api/tournaments/{id}", s.handleTournament)
	m.HandleFunc("POST /api/tournaments/{id}/join", s.auth(s.handleJoinTournament))
	m.HandleFunc("POST /api/tournaments/{id}/deals/{deal}/play", s.auth(s.handlePlayDeal))
}

func (s *Server) tournamentMetrics(metric func(name, typ, help string, v any)) {
	tr := s.tour
	metric("cardroom_tournaments_unfinished", "gauge", "Open or running tournaments, as of the last listing (-max-tournaments).", tr.unfinished.Load())
	metric("cardroom_tournaments_created_total", "counter", "Tournaments created.", tr.created.Load())
	metric("cardroom_tournament_entries_total", "counter", "Players who joined a tournament.", tr.entries.Load())
	metric("cardroom_tournament_deals_total", "counter", "Tournament deals started (one table each).", tr.deals.Load())
	metric("cardroom_tournament_refusals_total", "counter", "Tournaments, entries and deals refused by a bound.", tr.refused.Load())
	metric("cardroom_tournament_same_address_total", "counter", "Tournament entries refused because the tournament had its entries from that address (-tournament-entries-per-ip).", tr.sameAddress.Load())
	metric("cardroom_tournament_address_limited_total", "counter", "Tournaments refused because their creator's address had its unfinished tournaments (-tournaments-per-ip).", tr.addressLimited.Load())
}

// tournamentStore is the store's Tournaments; without one the endpoints
// answer unavailable.
func (s *Server) tournamentStore(w http.ResponseWriter) store.Tournaments {
	ts, _ := s.store.(store.Tournaments)
	if ts == nil {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "this room's store keeps no tournaments")
	}
	return ts
}

// tErr is a tournament refusal.
func tErr(code protocol.Code, format string, args ...any) error {
	return &table.Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// tournamentGame is what a tournament needs of its game: the canonical
// options of every deal, the seats of a table and which way scores count.
type tournamentGame struct {
	options    game.Options
	seats      int
	higherWins bool
}

// gameOf checks a game and its options as a table's create request is
// checked, makes them one deal of cards where the game has such options
// (games.Game.Deal: Papayoo's rounds=1, Pis Yedili's hands=1; 500 Rum has
// none and plays to its target) and returns them canonical.
func gameOf(name string, opts map[string]string) (tournamentGame, error) {
	if err := checkCreateReq(protocol.CreateReq{Game: name, Options: opts}); err != nil {
		return tournamentGame{}, err
	}
	eng, _ := games.Lookup(name) // checked above
	o := game.Options{}
	for k, v := range opts {
		o[k] = v
	}
	if reg, err := games.Get(name); err == nil {
		for k, v := range reg.Deal { // one deal of cards where the game has one
			o[k] = v
		}
	}
	st, err := eng.New(o)
	if err != nil {
		return tournamentGame{}, tErr(protocol.BadOptions, "%v", err)
	}
	return tournamentGame{options: st.Options(), seats: st.Seats(), higherWins: st.Result().HigherWins}, nil
}

func (s *Server) handleCreateTournament(w http.ResponseWriter, r *http.Request, sess store.Session) {
	ts := s.tournamentStore(w)
	if ts == nil {
		return
	}
	var req protocol.TournamentCreate
	if err := readBody(r, &req); err != nil {
		writeBodyErr(w, err)
		return
	}
	if !s.guard.allowCreation(w, r, "accounts and tournaments") {
		return
	}
	t, err := s.createTournament(r.Context(), ts, sess, req, addrKey(s.guard.clientAddr(r)))
	if err != nil {
		s.guard.refundCreation(r)
		writeTableErr(w, err)
		return
	}
	s.writeTournament(w, r, ts, t, sess.Player)
}

// createTournament range-checks a request, applies the bounds, stores the
// tournament and enters its creator, from address addr (addrKey).
func (s *Server) createTournament(ctx context.Context, ts store.Tournaments, sess store.Session, req protocol.TournamentCreate, addr string) (store.Tournament, error) {
	now := time.Now().UTC()
	if req.DealMinutes == 0 {
		req.DealMinutes = tournament.DefaultDealMin
	}
	if req.DealMinutes < 0 || req.DealMinutes > int(tournament.MaxDealTime/time.Minute) {
		return store.Tournament{}, tErr(protocol.BadRequest, "deal_minutes must be %d to %d", int(tournament.MinDealTime/time.Minute), int(tournament.MaxDealTime/time.Minute))
	}
	dealTime := time.Duration(req.DealMinutes) * time.Minute
	if err := tournament.Check(req.Deals, req.MaxEntrants, s.tour.cfg.MaxEntrants, dealTime); err != nil {
		return store.Tournament{}, tErr(protocol.BadRequest, "%v", err)
	}
	level := req.BotLevel
	if level == "" {
		level = tournament.DefaultLevel
	}
	if !slices.Contains(bot.Levels(), level) {
		return store.Tournament{}, tErr(protocol.BadLevel, "bot_level %.20q: want one of %s", level, strings.Join(bot.Levels(), ", "))
	}
	var startAt time.Time
	if req.StartAt != nil {
		startAt = req.StartAt.UTC().Truncate(time.Millisecond)
		if startAt.Before(now.Add(-time.Minute)) || startAt.After(now.Add(tournament.MaxStartDelay)) {
			return store.Tournament{}, tErr(protocol.BadRequest, "start_at must be from now to %d days ahead", int(tournament.MaxStartDelay/(24*time.Hour)))
		}
	}
	g, err := gameOf(req.Game, req.Options)
	if err != nil {
		return store.Tournament{}, err
	}
	if s.storeIsFull() {
		return store.Tournament{}, tErr(protocol.Busy, "the room's storage is full: no new tournaments for now; retry later")
	}
	// The bounds, with a precise answer; the store checks them again in
	// the transaction that inserts (two nodes, two requests at once).
	open, err := s.unfinishedTournaments(ctx, ts)
	if err != nil {
		return store.Tournament{}, err
	}
	mine, fromAddr := 0, 0
	for _, o := range open {
		if o.Owner == sess.Player {
			mine++
		}
		if o.OwnerOrigin != "" && o.OwnerOrigin == ownerOrigin(o.ID, addr) {
			fromAddr++
		}
	}
	if len(open) >= s.tour.cfg.MaxOpen {
		s.tour.refused.Add(1)
		return store.Tournament{}, tErr(protocol.Busy, "the room has %d tournaments under way, its limit: retry later", len(open))
	}
	if mine >= s.tour.cfg.PerPlayer {
		s.tour.refused.Add(1)
		return store.Tournament{}, s.quotaErr(protocol.Limit{Name: protocol.LimitTournaments, Max: float64(s.tour.cfg.PerPlayer)},
			"you have created %d tournaments still under way (the limit): wait for one to end", mine)
	}
	// Counted here, not in the store's transaction (the digests are salted
	// per tournament): two creations at the same moment on two nodes of a
	// cluster may pass it by one, which the daily quota bounds.
	if limit := s.tour.cfg.PerCreatorAddress; limit > 0 && fromAddr >= limit {
		s.tour.refused.Add(1)
		s.tour.addressLimited.Add(1)
		return store.Tournament{}, s.quotaErr(protocol.Limit{Name: protocol.LimitAddressTournaments, Max: float64(limit)},
			"%d tournaments created from your network address are still under way (the limit): wait for one to end", fromAddr)
	}
	t := store.Tournament{
		ID: randomID("tn_", 6), Game: req.Game, Options: g.options.String(), Deals: req.Deals, BotLevel: level, Seed: s.seed(),
		Owner: sess.Player, OwnerName: sess.Name, StartAt: startAt, MaxEntrants: req.MaxEntrants, DealTime: dealTime,
		Created: now.Truncate(time.Millisecond), Status: tournament.Open,
	}
	t.OwnerOrigin = ownerOrigin(t.ID, addr)
	if err := ts.CreateTournament(ctx, t, s.tour.cfg.MaxOpen, s.tour.cfg.PerPlayer); err != nil {
		return store.Tournament{}, s.storeRefusal(err, store.ErrTournamentLimit, tErr(protocol.Busy, "the tournament limit was reached meanwhile: retry later"), "the tournament")
	}
	s.tour.created.Add(1)
	s.tour.forgetList()
	s.tour.unfinished.Store(int64(len(open) + 1))
	s.log.Info("tournament created", "tournament", t.ID, "game", t.Game, "deals", t.Deals, "owner", sess.Player)
	return s.joinTournament(ctx, ts, t, sess, addr)
}

// storeRefusal answers a failed write: the store's refusal for a bound
// (bound) as refused, counted; any other error as unavailable.
func (s *Server) storeRefusal(err, bound, refused error, what string) error {
	if errors.Is(err, bound) {
		s.tour.refused.Add(1)
		return refused
	}
	return tErr(protocol.Unavailable, "%s could not be stored; retry later", what)
}

// unfinishedTournaments lists the open and running tournaments, each
// moved on first if it is due (a start time passed, the last deadline).
func (s *Server) unfinishedTournaments(ctx context.Context, ts store.Tournaments) ([]store.Tournament, error) {
	list, err := ts.TournamentList(ctx, true, s.tour.cfg.MaxOpen+1)
	if err != nil {
		return nil, tErr(protocol.Unavailable, "the tournaments cannot be read now; retry")
	}
	out := list[:0]
	for _, t := range list {
		s.advance(ctx, ts, &t, nil)
		if tournament.IsUnfinished(t.Status) {
			out = append(out, t)
		}
	}
	s.tour.unfinished.Store(int64(len(out)))
	return out, nil
}

// advance moves a tournament on when it is due: an open one starts at its
// start time (or is cancelled if nobody joined), or when full; one that
// waited FillTTL for its entrants is cancelled; a running one finishes at
// its last deadline, or once every entrant has played every deal (games,
// when the caller has read them). A store error leaves it as it was, to be
// moved by the next request.
func (s *Server) advance(ctx context.Context, ts store.Tournaments, t *store.Tournament, games []store.TournamentGame) {
	now := time.Now()
	move := func(to string, started time.Time) {
		if ok, err := ts.SetTournamentStatus(ctx, t.ID, t.Status, to, started); err == nil && ok {
			t.Status, t.Started = to, started
		} else if err == nil {
			if fresh, err := ts.Tournament(ctx, t.ID); err == nil {
				*t = fresh // another request moved it first
			}
		}
	}
	if t.Status == tournament.Open {
		switch {
		case len(t.Entrants) >= t.MaxEntrants && t.StartAt.IsZero():
			move(tournament.Running, t.Entrants[len(t.Entrants)-1].Joined)
		case !t.StartAt.IsZero() && !now.Before(t.StartAt) && len(t.Entrants) > 0:
			move(tournament.Running, t.StartAt)
		case !t.StartAt.IsZero() && !now.Before(t.StartAt):
			move(tournament.Cancelled, time.Time{})
		case t.StartAt.IsZero() && now.After(t.Created.Add(s.tour.cfg.FillTTL)):
			move(tournament.Cancelled, time.Time{})
		}
	}
	if t.Status != tournament.Running {
		return
	}
	if !now.Before(tournament.Deadline(t.Started, t.DealTime, t.Deals-1)) {
		move(tournament.Finished, t.Started)
		return
	}
	if games != nil {
		settled := 0
		for _, g := range games {
			if g.Settled {
				settled++
			}
		}
		if settled == len(t.Entrants)*t.Deals {
			move(tournament.Finished, t.Started)
		}
	}
}

// handleTournaments answers the list, encoded at most once per
// tournamentListTTL: the list reads every unfinished tournament, and
// anyone may ask for it.
func (s *Server) handleTournaments(w http.ResponseWriter, r *http.Request) {
	ts := s.tournamentStore(w)
	if ts == nil {
		return
	}
	tr := s.tour
	tr.listMu.Lock()
	defer tr.listMu.Unlock()
	if tr.listBody == nil || time.Since(tr.listAt) >= tournamentListTTL {
		out, err := s.tournamentList(r.Context(), ts)
		if err != nil {
			writeTableErr(w, err)
			return
		}
		tr.listBody, _ = json.Marshal(out)
		tr.listAt = time.Now()
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(tr.listBody)
}

// forgetList drops the cached list (a tournament was created or joined).
func (tr *tournaments) forgetList() {
	tr.listMu.Lock()
	tr.listBody = nil
	tr.listMu.Unlock()
}

// tournamentList is every unfinished tournament, then the newest finished
// or cancelled ones.
func (s *Server) tournamentList(ctx context.Context, ts store.Tournaments) (protocol.TournamentList, error) {
	out := protocol.TournamentList{Tournaments: []protocol.TournamentSummary{}}
	open, err := s.unfinishedTournaments(ctx, ts)
	if err != nil {
		return out, err
	}
	done, err := ts.TournamentList(ctx, false, tournamentListed+len(open))
	if err != nil {
		return out, tErr(protocol.Unavailable, "the tournaments cannot be read now; retry")
	}
	for _, t := range open {
		out.Tournaments = append(out.Tournaments, tournamentSummary(t))
	}
	n := 0
	for _, t := range done {
		if !tournament.IsUnfinished(t.Status) && n < tournamentListed {
			out.Tournaments = append(out.Tournaments, tournamentSummary(t))
			n++
		}
	}
	return out, nil
}

func tournamentSummary(t store.Tournament) protocol.TournamentSummary {
	out := protocol.TournamentSummary{
		ID: t.ID, Game: t.Game, Deals: t.Deals, BotLevel: t.BotLevel, Owner: t.Owner, OwnerName: t.OwnerName,
		MaxEntrants: t.MaxEntrants, DealMinutes: int(t.DealTime / time.Minute), Created: t.Created, Status: t.Status, Entrants: len(t.Entrants),
	}
	out.Options, _ = game.ParseOptions(t.Options) // written by the engine: it parses
	if g, err := gameOf(t.Game, out.Options); err == nil {
		out.Seats, out.HigherWins = g.seats, g.higherWins
	}
	if !t.StartAt.IsZero() {
		at := t.StartAt
		out.StartAt = &at
	}
	if !t.Started.IsZero() {
		st, ends := t.Started, tournament.Deadline(t.Started, t.DealTime, t.Deals-1)
		out.Started, out.Ends = &st, &ends
	}
	return out
}

// tournamentOf reads the tournament a handler's path names (and the store
// of tournaments), writing the refusal when it cannot.
func (s *Server) tournamentOf(w http.ResponseWriter, r *http.Request) (store.Tournaments, store.Tournament, bool) {
	ts := s.tournamentStore(w)
	if ts == nil {
		return nil, store.Tournament{}, false
	}
	id := r.PathValue("id")
	if len(id) > 64 {
		writeErr(w, http.StatusNotFound, protocol.NoTournament, "no such tournament")
		return nil, store.Tournament{}, false
	}
	t, err := ts.Tournament(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		writeErr(w, http.StatusNotFound, protocol.NoTournament, "no tournament "+id)
		return nil, store.Tournament{}, false
	}
	if err != nil {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "the tournament cannot be read now; retry")
		return nil, store.Tournament{}, false
	}
	return ts, t, true
}

func (s *Server) handleTournament(w http.ResponseWriter, r *http.Request) {
	ts, t, ok := s.tournamentOf(w, r)
	if !ok {
		return
	}
	player := ""
	if sess, err := s.session(r); err == nil {
		player = sess.Player
	}
	s.writeTournament(w, r, ts, t, player)
}

func (s *Server) handleJoinTournament(w http.ResponseWriter, r *http.Request, sess store.Session) {
	ts, t, ok := s.tournamentOf(w, r)
	if !ok {
		return
	}
	t, err := s.joinTournament(r.Context(), ts, t, sess, addrKey(s.guard.clientAddr(r)))
	if err != nil {
		writeTableErr(w, err)
		return
	}
	s.writeTournament(w, r, ts, t, sess.Player)
}

// joinTournament enters a player from address addr (addrKey) (once: a
// second time changes nothing), starting a tournament that is then full
// and starts when full.
func (s *Server) joinTournament(ctx context.Context, ts store.Tournaments, t store.Tournament, sess store.Session, addr string) (store.Tournament, error) {
	if slices.ContainsFunc(t.Entrants, func(e store.Entrant) bool { return e.Player == sess.Player }) {
		return t, nil
	}
	s.advance(ctx, ts, &t, nil) // a start time may have passed
	e := store.Entrant{Player: sess.Player, Name: sess.Name, Joined: time.Now().UTC().Truncate(time.Millisecond), Origin: entryOrigin(t.ID, addr)}
	if _, err := ts.JoinTournament(ctx, t.ID, e, max(s.tour.cfg.PerAddress, 0)); errors.Is(err, store.ErrSameOrigin) {
		s.tour.sameAddress.Add(1)
		return store.Tournament{}, tErr(protocol.SameAddress,
			"this tournament takes at most %d entrant(s) from one network address, and yours has them: every entrant plays the same cards, so another entry would play each deal knowing it", s.tour.cfg.PerAddress)
	} else if err != nil {
		return store.Tournament{}, s.storeRefusal(err, store.ErrTournamentFull, tErr(protocol.TournamentClosed, "the tournament is full or has started"), "the entry")
	}
	s.tour.entries.Add(1)
	s.tour.forgetList()
	t, err := ts.Tournament(ctx, t.ID)
	if err != nil {
		return store.Tournament{}, tErr(protocol.Unavailable, "the tournament cannot be read now; retry")
	}
	s.advance(ctx, ts, &t, nil) // full now?
	return t, nil
}

// entryOrigin is the Entrant.Origin of an entry from address addr: a
// digest salted with the tournament's id, so the store holds no address
// and one tournament's origins cannot be matched with another's. "" (no
// address known) is none.
func entryOrigin(tournamentID, addr string) string {
	return addrDigest("entry", tournamentID, addr)
}

// ownerOrigin is the Tournament.OwnerOrigin of a tournament created from
// address addr, salted as entryOrigin (and apart from it).
func ownerOrigin(tournamentID, addr string) string {
	return addrDigest("owner", tournamentID, addr)
}

// addrDigest is an origin digest of kind kind: "" for no address.
func addrDigest(kind, tournamentID, addr string) string {
	if addr == "" {
		return ""
	}
	h := sha256.Sum256([]byte("cardroom tournament " + kind + "\x00" + tournamentID + "\x00" + addr))
	return fmt.Sprintf("%x", h[:16])
}

// handlePlayDeal gives an entrant their table for a deal, made on the
// first call: private, seeded with the deal's seed, the entrant at the
// deal's seat and bots elsewhere. An entrant plays one deal at a time, and
// a deal only until its deadline.
func (s *Server) handlePlayDeal(w http.ResponseWriter, r *http.Request, sess store.Session) {
	ts, t, ok := s.tournamentOf(w, r)
	if !ok {
		return
	}
	d, err := strconv.Atoi(r.PathValue("deal"))
	if err != nil || d < 0 || d >= t.Deals || strconv.Itoa(d) != r.PathValue("deal") {
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, fmt.Sprintf("deal must be 0 to %d", t.Deals-1))
		return
	}
	play, err := s.playDeal(r.Context(), ts, t, d, sess, originOf(s.guard.clientAddr(r)))
	if err != nil {
		writeTableErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, play)
}

func (s *Server) playDeal(ctx context.Context, ts store.Tournaments, t store.Tournament, d int, sess store.Session, from origin) (protocol.TournamentPlay, error) {
	// A new deal's table holds its place in the table bounds
	// (checkCreate) from the check until it is opened, or not.
	var res *reservation
	opened := ""
	defer func() {
		if res != nil {
			s.done(res, opened)
		}
	}()
	if !slices.ContainsFunc(t.Entrants, func(e store.Entrant) bool { return e.Player == sess.Player }) {
		return protocol.TournamentPlay{}, tErr(protocol.Forbidden, "you are not an entrant of this tournament")
	}
	g, err := gameOf(t.Game, mustOptions(t.Options))
	if err != nil {
		return protocol.TournamentPlay{}, err
	}
	s.tour.mu.Lock()
	defer s.tour.mu.Unlock()
	gs, err := ts.TournamentGames(ctx, t.ID)
	if err != nil {
		return protocol.TournamentPlay{}, tErr(protocol.Unavailable, "the tournament cannot be read now; retry")
	}
	s.settle(ctx, ts, t, gs)
	s.advance(ctx, ts, &t, gs)
	seat := tournament.Seat(d, g.seats)
	// One deal at a time: a table of another deal still in play holds a
	// new one back, unless that deal is past its deadline (it no longer
	// counts).
	var mine *store.TournamentGame
	for i := range gs {
		if gs[i].Player != sess.Player {
			continue
		}
		if gs[i].Deal == d {
			mine = &gs[i]
		} else if !gs[i].Settled && time.Now().Before(tournament.Deadline(t.Started, t.DealTime, gs[i].Deal)) && s.tableLive(ctx, gs[i].Table) {
			return protocol.TournamentPlay{}, s.quotaErr(protocol.Limit{Name: protocol.LimitOneDeal},
				"finish deal %d first: an entrant plays one deal at a time", gs[i].Deal+1)
		}
	}
	if mine == nil {
		switch {
		case t.Status != tournament.Running:
			return protocol.TournamentPlay{}, tErr(protocol.TournamentClosed, "the tournament is %s", t.Status)
		case !time.Now().Before(tournament.Deadline(t.Started, t.DealTime, d)):
			return protocol.TournamentPlay{}, tErr(protocol.TournamentClosed, "deal %d is past its deadline", d+1)
		}
		var err error
		if res, err = s.checkCreate(sess.Player, from, false); err != nil {
			return protocol.TournamentPlay{}, err
		}
		ng := store.TournamentGame{Tournament: t.ID, Player: sess.Player, Deal: d, Table: tournamentTableID(t.ID, d)}
		switch err := ts.AddTournamentGame(ctx, ng); {
		case errors.Is(err, store.ErrConflict):
			// Another request (another node) reserved it at the same
			// moment: a retry finds that reservation.
			return protocol.TournamentPlay{}, tErr(protocol.Busy, "deal %d is being set up; retry", d+1)
		case err != nil:
			return protocol.TournamentPlay{}, tErr(protocol.Unavailable, "the deal could not be stored; retry")
		}
		mine = &ng
		s.tour.deals.Add(1)
	}
	// The reserved table is opened here the first time, and again by a
	// later call if opening it failed.
	if _, err := s.store.Table(ctx, mine.Table); errors.Is(err, store.ErrNotFound) {
		seats := make([]store.Seat, g.seats)
		for i := range seats {
			seats[i] = store.Seat{Bot: t.BotLevel}
		}
		seats[seat] = s.seatFor(ctx, sess)
		meta := store.Table{ID: mine.Table, Game: t.Game, Options: t.Options, Private: true, Invite: dealInvite(t, mine.Table),
			BotLevel: t.BotLevel, Owner: sess.Player, Seed: s.dealSeed(ctx, t, gs, d, mine.Table), Status: store.StatusOpen, Seats: seats}
		if _, err := s.openTable(ctx, meta); err != nil {
			return protocol.TournamentPlay{}, err
		}
		opened = meta.ID
		s.log.Info("tournament deal started", "tournament", t.ID, "deal", d, "table", mine.Table, "player", sess.Player)
	} else if err != nil {
		return protocol.TournamentPlay{}, tErr(protocol.Unavailable, "the table cannot be read now; retry")
	}
	return protocol.TournamentPlay{Table: mine.Table, Deal: d, Seat: seat}, nil
}

// dealSeed is the seed of deal d's tables: the seed of a table of the deal
// already opened for another entrant, else tournament.DealSeed. Every
// entrant must hold the same cards, and a tournament under way when the
// room was upgraded keeps the seeds its first tables were given (the way
// deal seeds are derived changed on 7 Dec 2026).
func (s *Server) dealSeed(ctx context.Context, t store.Tournament, gs []store.TournamentGame, d int, mine string) uint64 {
	for _, g := range gs {
		if g.Deal != d || g.Table == mine {
			continue
		}
		if meta, err := s.store.Table(ctx, g.Table); err == nil {
			return meta.Seed
		}
	}
	return tournament.DealSeed(t.Seed, d)
}

// tournamentTablePrefix begins the id of every tournament table, so that
// a table knows it is one without asking the store.
const tournamentTablePrefix = "tt_"

// isTournamentTable reports whether a table plays a tournament's deal.
func isTournamentTable(id string) bool { return strings.HasPrefix(id, tournamentTablePrefix) }

// tournamentTableID is a new id for an entrant's table of deal d of
// tournament tid: tt_<tid>-<d>-<random>, so that the record endpoints
// know, from the id alone, which deal's closing to wait for
// (dealRecordHeld). A tournament's id has no '-' (randomID's alphabet),
// and an id stays one NATS subject token (cluster.TableOK): no dot.
func tournamentTableID(tid string, d int) string {
	return randomID(tournamentTablePrefix+tid+"-"+strconv.Itoa(d)+"-", 6)
}

// parseTournamentTable reads the tournament and deal of a table id made by
// tournamentTableID; ok is false for any other id (among them the tables
// of tournaments created before the deal was in the id: bare tt_<random>).
func parseTournamentTable(id string) (tid string, deal int, ok bool) {
	rest, found := strings.CutPrefix(id, tournamentTablePrefix)
	if !found {
		return "", 0, false
	}
	parts := strings.Split(rest, "-")
	if len(parts) != 3 || parts[0] == "" || len(parts[1]) > 3 {
		return "", 0, false
	}
	d, err := strconv.Atoi(parts[1])
	if err != nil || d < 0 || d >= tournament.MaxDeals {
		return "", 0, false
	}
	return parts[0], d, true
}

// dealRecordHeld reports whether the record of finished table id must
// still be withheld, from its own player too: it plays a deal of a
// tournament that is not closed yet (its deadline not passed, not every
// entrant done with it, the tournament not over). Every entrant holds the
// same cards, and the record shows every hand and the stock order: one
// person with two entries (guest sessions are cheap) could read the deal
// with the first before playing it with the second. ok is false when the
// tournament cannot be read (the caller answers unavailable).
func (s *Server) dealRecordHeld(ctx context.Context, id string) (held, ok bool) {
	tid, d, parsed := parseTournamentTable(id)
	ts, _ := s.store.(store.Tournaments)
	if !parsed || ts == nil {
		return false, true
	}
	t, err := ts.Tournament(ctx, tid)
	if errors.Is(err, store.ErrNotFound) {
		return false, true
	}
	if err != nil {
		return false, false
	}
	gs, err := ts.TournamentGames(ctx, t.ID)
	if err != nil {
		return false, false
	}
	s.settle(ctx, ts, t, gs)
	s.advance(ctx, ts, &t, gs)
	v := tournamentView(t, gs, "", time.Now())
	if t.Status == tournament.Cancelled || d >= len(v.Schedule) {
		return false, true
	}
	return !v.Schedule[d].Closed, true
}

// tournamentHintErr refuses a hint at a tournament's table: the field is
// compared on its own play, as at a rated table.
var tournamentHintErr = &table.Error{Code: protocol.Forbidden, Msg: "no hints in a tournament"}

// mustOptions parses options the engine wrote (they parse).
func mustOptions(s string) map[string]string {
	o, _ := game.ParseOptions(s)
	return o
}

// dealInvite is the invite of an entrant's table: derived from the
// tournament's secret seed and the table's id, so the standings can give it
// without reading the table, and nobody can work it out.
func dealInvite(t store.Tournament, tableID string) string {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], t.Seed)
	h := sha256.Sum256(append(b[:], "invite "+tableID...))
	return b32.EncodeToString(h[:10])
}

// tableLive reports whether a table's game is still going on (in memory
// and unfinished, or stored unfinished).
func (s *Server) tableLive(ctx context.Context, id string) bool {
	if t := s.table(id); t != nil {
		st := t.Summary().Status
		return st != store.StatusFinished && st != store.StatusClosed
	}
	meta, err := s.store.Table(ctx, id)
	return err == nil && store.IsUnfinished(meta.Status)
}

// settle records the result of every game of gs whose table has ended
// since the last look: done, with the entrant's points, when it was played
// to its end by the deal's deadline; not done when it was abandoned or
// finished late. gs is updated in place. A table still in memory and
// playing is not read from the store.
func (s *Server) settle(ctx context.Context, ts store.Tournaments, t store.Tournament, gs []store.TournamentGame) {
	for i := range gs {
		g := &gs[i]
		if g.Settled {
			continue
		}
		if tb := s.table(g.Table); tb != nil && tb.Summary().Status != store.StatusFinished {
			continue
		}
		meta, err := s.store.Table(ctx, g.Table)
		if err != nil || store.IsUnfinished(meta.Status) {
			continue
		}
		seat := tournament.Seat(g.Deal, len(meta.Seats))
		totals, ok := resultTotals(meta.Result)
		deadline := time.Time{}
		if !t.Started.IsZero() {
			deadline = tournament.Deadline(t.Started, t.DealTime, g.Deal)
		}
		done := meta.Status == store.StatusFinished && ok && seat < len(totals) && (deadline.IsZero() || !meta.Finished.After(deadline))
		settled := store.TournamentGame{Tournament: t.ID, Player: g.Player, Deal: g.Deal, Done: done}
		if done {
			settled.Points = totals[seat]
		}
		if err := ts.SettleTournamentGame(ctx, settled); err != nil {
			continue
		}
		g.Settled, g.Done, g.Points = true, settled.Done, settled.Points
	}
}

// resultTotals reads the totals of a stored result (record.ResultText:
// "totals 3 0 12; winners 1"); false for an unfinished game ("*").
func resultTotals(text string) ([]int, bool) {
	rest, ok := strings.CutPrefix(text, "totals")
	if !ok {
		return nil, false
	}
	rest, _, _ = strings.Cut(rest, ";")
	var out []int
	for _, f := range strings.Fields(rest) {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, false
		}
		out = append(out, n)
	}
	return out, len(out) > 0
}

// writeTournament answers a tournament as player sees it: its schedule and
// standings, each deal's results settled first. Hidden information: the
// standings carry points only, never cards; an entrant's table (and with
// it their record) is named to them, and to the others only once the deal
// is closed and that game over, so nobody can read a deal's cards before
// playing it.
func (s *Server) writeTournament(w http.ResponseWriter, r *http.Request, ts store.Tournaments, t store.Tournament, player string) {
	ctx := r.Context()
	gs, err := ts.TournamentGames(ctx, t.ID)
	if err != nil {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "the tournament cannot be read now; retry")
		return
	}
	s.settle(ctx, ts, t, gs)
	s.advance(ctx, ts, &t, gs)
	writeJSON(w, http.StatusOK, tournamentView(t, gs, player, time.Now()))
}

// tournamentView builds the answer of writeTournament (pure, for tests).
func tournamentView(t store.Tournament, gs []store.TournamentGame, player string, now time.Time) protocol.Tournament {
	out := protocol.Tournament{TournamentSummary: tournamentSummary(t), Me: -1, Schedule: []protocol.TournamentDeal{}, Standings: []protocol.TournamentRow{}}
	idx := map[string]int{}
	for i, e := range t.Entrants {
		idx[e.Player] = i
		if e.Player == player {
			out.Me = i
		}
	}
	byKey := map[[2]int]store.TournamentGame{}
	settled := make([]int, t.Deals)
	for _, g := range gs {
		i, ok := idx[g.Player]
		if !ok || g.Deal < 0 || g.Deal >= t.Deals {
			continue
		}
		byKey[[2]int{i, g.Deal}] = g
		if g.Settled {
			settled[g.Deal]++
		}
	}
	deals := make([]tournament.Deal, t.Deals)
	for d := range deals {
		sd := protocol.TournamentDeal{Deal: d, Seat: tournament.Seat(d, out.Seats)}
		if !t.Started.IsZero() {
			dl := tournament.Deadline(t.Started, t.DealTime, d)
			sd.Deadline = &dl
			sd.Closed = !now.Before(dl) || settled[d] == len(t.Entrants) || t.Status == tournament.Finished
		}
		out.Schedule = append(out.Schedule, sd)
		deals[d] = tournament.Deal{Outcomes: make([]tournament.Outcome, len(t.Entrants)), Closed: sd.Closed}
		// An open deal's results are shown only to those who have played
		// it: the field's points say how good the shared cards are
		// (as in duplicate bridge, results wait for the round's end).
		mine, played := byKey[[2]int{out.Me, d}]
		if !sd.Closed && !(played && mine.Settled) {
			continue
		}
		for i := range t.Entrants {
			if g, ok := byKey[[2]int{i, d}]; ok && g.Settled && g.Done {
				deals[d].Outcomes[i] = tournament.Outcome{Done: true, Points: g.Points}
			}
		}
	}
	if t.Status == tournament.Cancelled {
		return out
	}
	for i, row := range tournament.Standings(len(t.Entrants), deals, out.HigherWins) {
		tr := protocol.TournamentRow{Player: t.Entrants[i].Player, Name: t.Entrants[i].Name, Rank: row.Rank, Total: row.Total}
		for d, c := range row.Deals {
			cell := protocol.TournamentCell{State: c.State, Points: c.Points, Score: c.Score}
			if g, ok := byKey[[2]int{i, d}]; ok {
				switch {
				case t.Entrants[i].Player == player:
					cell.Table, cell.Over = g.Table, g.Settled
				case out.Schedule[d].Closed && g.Settled:
					cell.Table, cell.Invite, cell.Over = g.Table, dealInvite(t, g.Table), true
				}
			}
			tr.Deals = append(tr.Deals, cell)
		}
		out.Standings = append(out.Standings, tr)
	}
	return out
}
