package server

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"cardroom/game"
	"cardroom/games"
	"cardroom/protocol"
	"cardroom/rating"
	"cardroom/record"
	"cardroom/store"
	"cardroom/table"
)

// Rated tables and the rating endpoints (docs/ratings.md).

// RatingParams are the model's parameters for every game of the room.
var RatingParams = rating.Default()

// Bounds of the rating endpoints (range-checked; docs/protocol.md).
const (
	DefaultLeaderboard   = 50
	DefaultRatingHistory = 50
	maxPlayerID          = 64
)

// ratingState is the server's part of the ratings: which finished rated
// tables in memory have had their update started, and the metrics.
type ratingState struct {
	mu       sync.Mutex
	seen     map[string]bool // table ids; an entry leaves with its table
	rated    atomic.Int64    // games rated
	failed   atomic.Int64    // rating updates that failed
	inflight atomic.Int64    // rating updates running
}

// ratingsStore is the store's Ratings, or nil when it keeps none.
func (s *Server) ratingsStore() store.Ratings {
	r, _ := s.store.(store.Ratings)
	return r
}

// mayPlayRated reports whether player may create or join a rated table:
// rated games need an account, so that a rating belongs to someone who
// can log in again on any device (a guest's cookie is one browser), and so
// that nobody makes fresh guests to shed a bad rating.
func (s *Server) mayPlayRated(ctx context.Context, player string) error {
	if s.isBotAccount(player) {
		return errBotRated // botaccount.go
	}
	if s.acct == nil || s.acct.st == nil {
		return &table.Error{Code: protocol.Unavailable, Msg: "this room keeps no accounts, so it cannot rate games"}
	}
	if _, err := s.acct.st.AccountByPlayer(ctx, player); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return &table.Error{Code: protocol.AccountNeeded, Msg: "rated games need an account: claim your name with a password first"}
		}
		return &table.Error{Code: protocol.Unavailable, Msg: "accounts cannot be read now; retry"}
	}
	return nil
}

// checkRated refuses a rated create request that the room cannot rate: a
// store without ratings, a player who may not, options other than the
// game's defaults (a rating compares games played under one set of rules),
// or when_empty "pause": a rated game whose humans are all gone ends, and
// they are ranked last, rather than waiting for ever (createTable sets
// when_empty "end").
func (s *Server) checkRated(ctx context.Context, sess store.Session, req protocol.CreateReq) error {
	if s.ratingsStore() == nil {
		return &table.Error{Code: protocol.BadRequest, Msg: "this room keeps no ratings: create a casual table"}
	}
	if err := s.mayPlayRated(ctx, sess.Player); err != nil {
		return err
	}
	if req.WhenEmpty == protocol.WhenEmptyPause {
		return &table.Error{Code: protocol.BadRequest, Msg: "a rated table cannot pause when every human has left: it ends, and they finish last (leave when_empty out)"}
	}
	eng, err := games.Lookup(req.Game)
	if err != nil {
		return &table.Error{Code: protocol.UnknownGame, Msg: err.Error()}
	}
	def, err := eng.New(game.Options{})
	if err != nil {
		return &table.Error{Code: protocol.Internal, Msg: err.Error()}
	}
	given := game.Options{}
	for k, v := range req.Options {
		given[k] = v
	}
	st, err := eng.New(given)
	if err != nil {
		return &table.Error{Code: protocol.BadOptions, Msg: err.Error()}
	}
	if got, want := st.Options().String(), def.Options().String(); got != want {
		return &table.Error{Code: protocol.BadOptions, Msg: fmt.Sprintf("a rated %s table plays the game's default options (%s), not %s: leave the options out or create a casual table", req.Game, want, got)}
	}
	return nil
}

// ratedHintErr refuses a hint at a rated table.
var ratedHintErr = &table.Error{Code: protocol.RatedTable, Msg: "no hints at a rated table"}

// rateFinished is called with every summary of a finished rated table
// (onChange: from the table's goroutine, so it must not block). The first
// one starts the rating update; later ones (a watcher arriving) do
// nothing. The update runs once per table: the store refuses a second.
func (s *Server) rateFinished(sum *table.Summary) {
	rt := &s.rt
	rt.mu.Lock()
	if rt.seen == nil {
		rt.seen = map[string]bool{}
	}
	seen := rt.seen[sum.ID]
	rt.seen[sum.ID] = true
	rt.mu.Unlock()
	if seen {
		return
	}
	// One goroutine per finished rated table in memory: bounded by
	// MaxTables, and a table finishes once.
	s.rt.inflight.Add(1)
	go func() {
		defer s.rt.inflight.Add(-1)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := s.rateGame(ctx, sum)
		switch {
		case err == nil:
			s.rt.rated.Add(1)
		case errors.Is(err, store.ErrAlreadyRated):
			// Rated before (the start-up sweep got there first).
		default:
			s.rt.failed.Add(1)
			s.log.Error("rate game", "table", sum.ID, "err", err)
		}
	}()
}

// sweepUnrated rates the finished rated tables whose update never ran: the
// room stopped between a game's end and its rating update, or the update
// failed. It runs once at start (New). What the summary of a table in
// memory knew about abandonment is gone by then: a seat counts as
// abandoned only in a game that did not reach its end.
func (s *Server) sweepUnrated() {
	rs := s.ratingsStore()
	if rs == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	ids, err := rs.Unrated(ctx, store.MaxUnrated)
	if err != nil {
		s.log.Warn("ratings: list the unrated tables", "err", err)
		return
	}
	for _, id := range ids {
		select {
		case <-s.quit:
			return
		default:
		}
		if s.table(id) != nil {
			continue // in memory: its own summary rates it
		}
		meta, err := s.store.Table(ctx, id)
		if err == nil {
			_, err = s.rateGame(ctx, table.SummaryOf(meta))
		}
		switch {
		case err == nil:
			s.rt.rated.Add(1)
			s.log.Info("rated a game left unrated", "table", id)
		case errors.Is(err, store.ErrAlreadyRated):
		default:
			s.rt.failed.Add(1)
			s.log.Error("rate game (start-up sweep)", "table", id, "err", err)
		}
	}
}

// forgetRated drops a table from ratedSeen when it leaves memory.
func (s *Server) forgetRated(id string) {
	s.rt.mu.Lock()
	delete(s.rt.seen, id)
	s.rt.mu.Unlock()
}

// ratedGame turns a finished table into the ranking the ratings use: the
// totals ranked (ties share a rank), and every human seat the player
// abandoned ranked last, below everyone (tied with the other abandoned
// seats). A seat is abandoned when a bot was playing it for its player at
// the end (they left, or were absent past the grace period); in a game
// that did not reach its end (over is false: the table ended it because
// every human was gone, when_empty "end") every human seat is. A bot
// seat is the level's own rated player, "bot:LEVEL".
func ratedGame(sum *table.Summary, res game.Result, over bool, at time.Time) (store.RatedGame, error) {
	if len(res.Totals) != len(sum.Seats) {
		return store.RatedGame{}, fmt.Errorf("%d totals for %d seats", len(res.Totals), len(sum.Seats))
	}
	// keys: lower is better; an abandoned seat is below every score.
	keys := make([]int, len(sum.Seats))
	g := store.RatedGame{Table: sum.ID, Game: sum.Game, At: at}
	for i, si := range sum.Seats {
		keys[i] = res.Totals[i]
		if res.HigherWins {
			keys[i] = -keys[i]
		}
		rs := store.RatedSeat{Player: si.Player, Name: si.Name}
		switch si.Kind {
		case protocol.SeatBot:
			rs.Player, rs.Name = "bot:"+si.Level, "bot:"+si.Level
		case protocol.SeatHuman:
			if si.Away || !over {
				rs.Left, keys[i] = true, math.MaxInt
			}
		default:
			return store.RatedGame{}, fmt.Errorf("seat %d is empty", i)
		}
		g.Seats = append(g.Seats, rs)
	}
	for i, r := range rating.Ranks(keys, false) {
		g.Seats[i].Rank = r
	}
	return g, nil
}

// rateGame rates a finished table from its stored log (the result is the
// replayed game's, not anything a client said).
func (s *Server) rateGame(ctx context.Context, sum *table.Summary) ([]store.RatingChange, error) {
	rs := s.ratingsStore()
	if rs == nil {
		return nil, errors.New("the store keeps no ratings")
	}
	eng, err := games.Lookup(sum.Game)
	if err != nil {
		return nil, err
	}
	events, err := s.store.Events(ctx, sum.ID)
	if err != nil {
		return nil, err
	}
	st, err := eng.New(sum.Options.Clone())
	if err != nil {
		return nil, err
	}
	for i, e := range events {
		if err := record.Step(st, e); err != nil {
			return nil, fmt.Errorf("event %d: %w", i, err)
		}
	}
	g, err := ratedGame(sum, st.Result(), st.Over(), time.Now().UTC())
	if err != nil {
		return nil, err
	}
	return rs.ApplyRatedGame(ctx, RatingParams, g)
}

func (s *Server) ratingRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /api/ratings/{game}", s.handleLeaderboard)
	m.HandleFunc("GET /api/players/{player}/ratings", s.handlePlayerRatings)
	m.HandleFunc("GET /api/ratings/{game}/players", s.handleRatingsOf)
}

// queryInt reads an optional integer query parameter in [lo, hi].
func queryInt(r *http.Request, name string, def, lo, hi int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s must be an integer from %d to %d", name, lo, hi)
	}
	return n, nil
}

func wirePlayerRating(r store.PlayerRating) protocol.PlayerRating {
	return protocol.PlayerRating{Player: r.Player, Name: r.Name, Game: r.Game, Rating: r.Rating.Display(),
		Mu: r.Rating.Mu, Sigma: r.Rating.Sigma, Provisional: RatingParams.Provisional(r.Rating), Games: r.Games,
		Bot: store.IsBotPlayer(r.Player), Updated: r.Updated}
}

func (s *Server) handleLeaderboard(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("game")
	if _, err := games.Lookup(name); err != nil {
		writeErr(w, http.StatusNotFound, protocol.UnknownGame, fmt.Sprintf("no game %.32q", name))
		return
	}
	offset, err := queryInt(r, "offset", 0, 0, store.MaxLeaderOffset)
	if err != nil {
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, err.Error())
		return
	}
	limit, err := queryInt(r, "limit", DefaultLeaderboard, 1, store.MaxLeaderboard)
	if err != nil {
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, err.Error())
		return
	}
	rs := s.ratingsStore()
	if rs == nil {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "this room keeps no ratings")
		return
	}
	list, total, err := rs.Leaderboard(r.Context(), name, offset, limit)
	if err != nil {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "the ratings cannot be read now; retry")
		return
	}
	out := protocol.Leaderboard{Game: name, Offset: offset, Total: total, Players: []protocol.PlayerRating{}}
	for _, p := range list {
		out.Players = append(out.Players, wirePlayerRating(p))
	}
	writeJSON(w, http.StatusOK, out)
}

// handleRatingsOf answers the ratings of up to store.MaxRatingsOf players
// (repeated id parameters, each at most maxPlayerID bytes).
func (s *Server) handleRatingsOf(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("game")
	if _, err := games.Lookup(name); err != nil {
		writeErr(w, http.StatusNotFound, protocol.UnknownGame, fmt.Sprintf("no game %.32q", name))
		return
	}
	ids := r.URL.Query()["id"]
	if len(ids) == 0 || len(ids) > store.MaxRatingsOf {
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, fmt.Sprintf("give 1 to %d players as id=…", store.MaxRatingsOf))
		return
	}
	for _, id := range ids {
		if id == "" || len(id) > maxPlayerID {
			writeErr(w, http.StatusBadRequest, protocol.BadRequest, fmt.Sprintf("a player id has 1 to %d bytes", maxPlayerID))
			return
		}
	}
	rs := s.ratingsStore()
	if rs == nil {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "this room keeps no ratings")
		return
	}
	list, err := rs.RatingsOf(r.Context(), name, ids)
	if err != nil {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "the ratings cannot be read now; retry")
		return
	}
	out := protocol.RatingsOf{Game: name, Players: []protocol.PlayerRating{}}
	for _, p := range list {
		out.Players = append(out.Players, wirePlayerRating(p))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handlePlayerRatings(w http.ResponseWriter, r *http.Request) {
	player := r.PathValue("player")
	if player == "" || len(player) > maxPlayerID {
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, fmt.Sprintf("a player id has 1 to %d bytes", maxPlayerID))
		return
	}
	limit, err := queryInt(r, "limit", DefaultRatingHistory, 1, store.MaxRatingHistory)
	if err != nil {
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, err.Error())
		return
	}
	gameName := r.URL.Query().Get("game")
	if gameName != "" {
		if _, err := games.Lookup(gameName); err != nil {
			writeErr(w, http.StatusBadRequest, protocol.UnknownGame, fmt.Sprintf("no game %.32q", gameName))
			return
		}
	}
	rs := s.ratingsStore()
	if rs == nil {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "this room keeps no ratings")
		return
	}
	cur, err := rs.PlayerRatings(r.Context(), player)
	if err != nil {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "the ratings cannot be read now; retry")
		return
	}
	hist, err := rs.RatingHistory(r.Context(), player, gameName, limit)
	if err != nil {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "the ratings cannot be read now; retry")
		return
	}
	out := protocol.PlayerRatings{Player: player, Ratings: []protocol.PlayerRating{}, History: []protocol.RatingChange{}}
	for _, p := range cur {
		out.Ratings = append(out.Ratings, wirePlayerRating(p))
	}
	viewer := ""
	if sess, err := s.session(r); err == nil {
		viewer = sess.Player
	}
	hidden := map[string]bool{}
	for _, c := range hist {
		id := c.Table
		if c.Private && s.hiddenFrom(r.Context(), id, viewer, hidden) {
			id = "" // the rating change is public, the private game is not
		}
		out.History = append(out.History, protocol.RatingChange{Table: id, Game: c.Game, At: c.At, Rank: c.Rank, Left: c.Left,
			Before: c.Before.Display(), After: c.After.Display(), Mu: c.After.Mu, Sigma: c.After.Sigma})
	}
	writeJSON(w, http.StatusOK, out)
}

// hiddenFrom reports whether private table id is one viewer ("" for
// nobody) may not see, remembering the answers in seen. A table that
// cannot be read is hidden: better an entry without its link than a
// private game named. Only private tables are read (the store marks them).
func (s *Server) hiddenFrom(ctx context.Context, id, viewer string, seen map[string]bool) bool {
	if v, ok := seen[id]; ok {
		return v
	}
	meta, err := s.store.Table(ctx, id)
	hide := err != nil || !canSee(table.SummaryOf(meta), viewer, "")
	seen[id] = hide
	return hide
}

// ratingMetrics writes the rating metrics (handleMetrics).
func (s *Server) ratingMetrics(metric func(name, typ, help string, v any)) {
	metric("cardroom_rated_games_total", "counter", "Rated games whose ratings were updated.", s.rt.rated.Load())
	metric("cardroom_rating_errors_total", "counter", "Rating updates that failed (logged; the table is not rated).", s.rt.failed.Load())
	metric("cardroom_rating_updates_running", "gauge", "Rating updates in progress.", s.rt.inflight.Load())
}
