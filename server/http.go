package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"cardroom/bot"
	"cardroom/cputime"
	"cardroom/game"
	"cardroom/games"
	"cardroom/protocol"
	"cardroom/store"
	"cardroom/table"
)

// CookieName is the session cookie.
const CookieName = "cardroom_session"

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("POST /api/session", s.handleNewSession)
	m.HandleFunc("GET /api/session", s.auth(s.handleGetSession))
	m.HandleFunc("POST /api/logout", s.auth(s.handleLogout))
	m.HandleFunc("GET /api/games", s.handleGames)
	m.HandleFunc("GET /api/tables", s.handleLobby)
	m.HandleFunc("GET /api/online", s.handleOnline) // lobby.go
	m.HandleFunc("POST /api/tables", s.auth(s.handleCreate))
	m.HandleFunc("GET /api/tables/{id}", s.handleTable)
	m.HandleFunc("POST /api/quickplay", s.auth(s.handleQuick))
	m.HandleFunc("GET /api/records/{id}", s.handleRecord)
	m.HandleFunc("GET /api/records/{id}/replay", s.handleReplay)
	s.analysisRoutes(m)
	s.tournamentRoutes(m)
	m.HandleFunc("GET /api/history", s.auth(s.handleMyHistory))
	m.HandleFunc("GET /api/players/{player}/history", s.handleHistory)
	m.HandleFunc("GET /healthz", s.handleHealth)
	m.HandleFunc("GET /metrics", s.handleMetrics)
	m.HandleFunc("GET /ws", s.handleWS)
	s.accountRoutes(m) // accounts.go
	s.ratingRoutes(m)  // ratings.go
	s.botRoutes(m)     // botaccount.go
	s.profileRoutes(m) // profile.go
	m.Handle("GET /", noDirListing(s.cfg.Assets))
	// Every answer, the mux's own 404 and 405 included, goes through
	// protect (guard.go): hardening headers and the per-address API rate.
	s.cfg.guardDefaults()
	s.guard = newGuard(s.cfg)
	outer := http.NewServeMux()
	outer.Handle("/", s.protect(apiErrors(m)))
	s.mux = outer
}

// apiErrors answers the mux's own refusals under /api/ as the API's JSON
// errors, where the mux writes plain text: a path no endpoint has (which
// the static files' catch-all would answer "404 page not found") is
// no_endpoint, 404; a method the path does not take is bad_method, 405,
// with the mux's Allow header.
func apiErrors(m *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/api/") {
			m.ServeHTTP(w, r)
			return
		}
		h, pattern := m.Handler(r)
		switch pattern {
		case "GET /": // the static files: no endpoint
			writeErr(w, http.StatusNotFound, protocol.NoEndpoint, "no such endpoint: "+r.Method+" "+r.URL.Path)
		case "": // the mux's own 404 or 405
			probe := &statusProbe{header: http.Header{}}
			h.ServeHTTP(probe, r)
			allow := probe.header.Get("Allow")
			if allow == "GET, HEAD" {
				// Only the static files take this path (a GET of it
				// reaches them): no endpoint has it.
				g := r.Clone(r.Context())
				g.Method = http.MethodGet
				if _, p := m.Handler(g); p == "GET /" {
					allow = ""
				}
			}
			if probe.status == http.StatusMethodNotAllowed && allow != "" {
				w.Header().Set("Allow", allow)
				writeErr(w, http.StatusMethodNotAllowed, protocol.BadMethod, r.URL.Path+" does not take "+r.Method+": it takes "+allow)
				return
			}
			writeErr(w, http.StatusNotFound, protocol.NoEndpoint, "no such endpoint: "+r.Method+" "+r.URL.Path)
		default:
			m.ServeHTTP(w, r) // (not h: the mux sets the path's values as it serves)
		}
	})
}

// statusProbe keeps a handler's status and headers and drops its body.
type statusProbe struct {
	header http.Header
	status int
}

func (p *statusProbe) Header() http.Header         { return p.header }
func (p *statusProbe) Write(b []byte) (int, error) { return len(b), nil }
func (p *statusProbe) WriteHeader(status int)      { p.status = status }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// writeErr answers an HTTP error. The status is given, not taken from
// code.HTTPStatus(), where one endpoint answers a code with its own status
// (the replay of a game whose engine is gone is a 404).
func writeErr(w http.ResponseWriter, status int, code protocol.Code, msg string) {
	writeJSON(w, status, protocol.ErrorBody{Error: protocol.ErrorDetail{Code: code, Message: msg}})
}

func writeTableErr(w http.ResponseWriter, err error) {
	var te *table.Error
	if errors.As(err, &te) {
		writeJSON(w, te.Code.HTTPStatus(), protocol.ErrorBody{Error: protocol.ErrorDetail{Code: te.Code, Message: te.Msg, Limit: te.Limit}})
		return
	}
	writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "storage is unavailable; retry later")
}

// errSession is a missing, unknown, forged or expired token: the client's
// fault (401). Any other error from session is the server's (503).
type errSession string

func (e errSession) Error() string { return string(e) }

// writeSessionErr answers a failed session lookup: 401 for a bad token,
// 503 when storage could not tell.
func writeSessionErr(w http.ResponseWriter, err error) {
	var es errSession
	if errors.As(err, &es) {
		writeErr(w, http.StatusUnauthorized, protocol.Unauthorized, err.Error())
		return
	}
	var eb errBotToken // botaccount.go
	if errors.As(err, &eb) {
		writeErr(w, http.StatusForbidden, protocol.Forbidden, err.Error())
		return
	}
	writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "sessions cannot be read now; retry later")
}

// ---- identity ----

func hashToken(tok string) string {
	h := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(h[:])
}

// validName is in names.go.

// errBadName is a name refused by validName: the client's fault.
type errBadName struct{ error }

func (e errBadName) Unwrap() error { return e.error }

// NewSession creates a guest session and returns its token. A refused
// name is an errBadName; any other error is storage's.
func (s *Server) NewSession(ctx context.Context, name string) (string, store.Session, error) {
	n, err := validName(name)
	if err != nil {
		return "", store.Session{}, errBadName{err}
	}
	if err := s.checkGuestName(ctx, n); err != nil {
		return "", store.Session{}, err
	}
	b := make([]byte, 32)
	rand.Read(b)
	tok := hex.EncodeToString(b)
	now := time.Now().UTC()
	sess := store.Session{TokenHash: hashToken(tok), Player: randomID("p_", 6), Name: n, Created: now, Expires: now.Add(SessionTTL)}
	if err := s.store.CreateSession(ctx, sess); err != nil {
		return "", store.Session{}, err
	}
	return tok, sess, nil
}

func tokenOf(r *http.Request) string {
	if h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Bearer ") {
		return strings.TrimSpace(h[len("Bearer "):])
	}
	if c, err := r.Cookie(CookieName); err == nil {
		return c.Value
	}
	if r.URL.Path == "/ws" {
		return r.URL.Query().Get("token")
	}
	return ""
}

// session returns the caller's valid session, or an error for a missing,
// unknown (forged) or expired token.
func (s *Server) session(r *http.Request) (store.Session, error) {
	tok := tokenOf(r)
	if tok == "" {
		return store.Session{}, errSession("no session token: POST /api/session first")
	}
	if strings.HasPrefix(tok, protocol.BotTokenPrefix) {
		return s.botSession(r, tok) // botaccount.go
	}
	if len(tok) != 64 {
		return store.Session{}, errSession("invalid session token")
	}
	sess, err := s.store.Session(r.Context(), hashToken(tok))
	if errors.Is(err, store.ErrNotFound) {
		return store.Session{}, errSession("invalid session token")
	}
	if err != nil {
		s.log.Warn("session lookup", "err", err)
		return store.Session{}, err
	}
	if time.Now().After(sess.Expires) {
		return store.Session{}, errSession("session expired")
	}
	return sess, nil
}

func (s *Server) auth(h func(http.ResponseWriter, *http.Request, store.Session)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sess, err := s.session(r)
		if err != nil {
			writeSessionErr(w, err)
			return
		}
		h(w, r, sess)
	}
}

func readBody(r *http.Request, v any) error {
	b, err := io.ReadAll(io.LimitReader(r.Body, MaxMessage+1))
	if err != nil {
		return err
	}
	if len(b) > MaxMessage {
		return errBodyTooLarge
	}
	if len(strings.TrimSpace(string(b))) == 0 {
		return nil
	}
	return json.Unmarshal(b, v)
}

// errBodyTooLarge is readBody's error for a body over MaxMessage bytes.
var errBodyTooLarge = fmt.Errorf("body over %d bytes", MaxMessage)

// writeBodyErr answers a body readBody refused: 413 too_large for one over
// the bound (as the account endpoints answer it), 400 bad_json otherwise.
func writeBodyErr(w http.ResponseWriter, err error) {
	if errors.Is(err, errBodyTooLarge) {
		writeErr(w, http.StatusRequestEntityTooLarge, protocol.TooLarge, err.Error())
		return
	}
	writeErr(w, http.StatusBadRequest, protocol.BadJSON, err.Error())
}

func (s *Server) handleNewSession(w http.ResponseWriter, r *http.Request) {
	if !s.guard.allowSession(w, r) {
		return
	}
	var req protocol.SessionReq
	if err := readBody(r, &req); err != nil {
		writeBodyErr(w, err)
		return
	}
	tok, sess, err := s.NewSession(r.Context(), req.Name)
	var bad errBadName
	if errors.As(err, &bad) {
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, err.Error())
		return
	}
	if errors.Is(err, errNameTaken) {
		writeErr(w, http.StatusConflict, protocol.NameTaken, err.Error())
		return
	}
	if err != nil {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "the session could not be stored; retry later")
		return
	}
	s.setSessionCookie(w, r, tok, sess.Expires)
	writeJSON(w, http.StatusOK, protocol.Session{Token: tok, Player: sess.Player, Name: sess.Name, Expires: sess.Expires})
}

func (s *Server) handleGetSession(w http.ResponseWriter, r *http.Request, sess store.Session) {
	writeJSON(w, http.StatusOK, protocol.Session{Player: sess.Player, Name: sess.Name, Expires: sess.Expires})
}

// handleLogout revokes the session: the token stops working and every
// WebSocket opened with it is closed.
func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request, sess store.Session) {
	if err := s.store.DeleteSession(r.Context(), sess.TokenHash); err != nil {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "the session could not be revoked now; retry")
		return
	}
	s.closeSessionConns(sess.TokenHash)
	s.clearSessionCookie(w, r)
	writeJSON(w, http.StatusOK, protocol.OK{OK: true})
}

// ---- lobby and tables ----

func (s *Server) handleGames(w http.ResponseWriter, r *http.Request) {
	gs := []protocol.GameInfo{}
	for _, e := range games.All() {
		gs = append(gs, protocol.GameInfo{Name: e.Name(), Options: e.OptionSpecs()})
	}
	writeJSON(w, http.StatusOK, protocol.GamesList{Games: gs, Levels: bot.Levels(), Version: protocol.Version})
}

// handleLobby answers the cached encoding (lobby.go): the list is encoded
// once per change, not once per request.
func (s *Server) handleLobby(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(s.lobby.httpBody())
}

func (s *Server) handleCreate(w http.ResponseWriter, r *http.Request, sess store.Session) {
	var req protocol.CreateReq
	if err := readBody(r, &req); err != nil {
		writeBodyErr(w, err)
		return
	}
	t, err := s.createTable(r.Context(), sess, originOf(s.guard.clientAddr(r)), req, false)
	if err != nil {
		writeTableErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, t.Summary())
}

func (s *Server) handleQuick(w http.ResponseWriter, r *http.Request, sess store.Session) {
	var req protocol.CreateReq
	if err := readBody(r, &req); err != nil {
		writeBodyErr(w, err)
		return
	}
	t, err := s.createTable(r.Context(), sess, originOf(s.guard.clientAddr(r)), req, true)
	if err != nil {
		writeTableErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, t.Summary())
}

// canSee reports whether a caller may see a table: public, or the owner, a
// seated player, or the right invite.
func canSee(sum *table.Summary, player, invite string) bool {
	if !sum.Private {
		return true
	}
	if player != "" && sum.Owner == player {
		return true
	}
	for _, si := range sum.Seats {
		if player != "" && si.Player == player {
			return true
		}
	}
	return invite != "" && invite == sum.Invite
}

func (s *Server) handleTable(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	player := ""
	if sess, err := s.session(r); err == nil {
		player = sess.Player
	}
	var sum *table.Summary
	if t := s.table(id); t != nil {
		sum = t.Summary()
	} else if rs := s.remoteSummary(id); rs != nil {
		sum = rs // another node of the cluster plays it
	} else {
		meta, err := s.store.Table(r.Context(), id)
		if err != nil {
			writeErr(w, http.StatusNotFound, protocol.NoTable, "no table "+id)
			return
		}
		sum = table.SummaryOf(meta)
		s.markBotSeats(sum) // botaccount.go
	}
	if !canSee(sum, player, r.URL.Query().Get("invite")) {
		writeErr(w, http.StatusNotFound, protocol.NoTable, "no table "+id)
		return
	}
	if sum.Owner != player || player == "" {
		sum = sum.Public()
	}
	writeJSON(w, http.StatusOK, sum)
}

// ---- records, replay, history ----

// finishedRecord returns a finished game (its row and log, cached) for the
// record, replay and analysis endpoints. A private table's record needs what its table needed:
// a seat, ownership or the invite (?invite=CODE); without one it does not
// exist (404, as for a private table's summary).
func (s *Server) finishedRecord(w http.ResponseWriter, r *http.Request) (*finished, bool) {
	id := r.PathValue("id")
	if len(id) > 64 {
		writeErr(w, http.StatusNotFound, protocol.NoTable, "no such table")
		return nil, false
	}
	f, err := s.records.get(r.Context(), s.store, id)
	if errors.Is(err, store.ErrNotFound) {
		writeErr(w, http.StatusNotFound, protocol.NoTable, "no table "+id)
		return nil, false
	}
	if err != nil {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "the record cannot be read now; retry")
		return nil, false
	}
	if f.meta.Private {
		player := ""
		if sess, err := s.session(r); err == nil {
			player = sess.Player
		}
		if !canSee(table.SummaryOf(f.meta), player, r.URL.Query().Get("invite")) {
			writeErr(w, http.StatusNotFound, protocol.NoTable, "no table "+id)
			return nil, false
		}
	}
	if f.meta.Status != store.StatusFinished {
		writeErr(w, http.StatusConflict, protocol.NotFinished, "the game at table "+id+" is not finished: its record would show hidden cards")
		return nil, false
	}
	if isTournamentTable(id) {
		switch held, ok := s.dealRecordHeld(r.Context(), id); {
		case !ok:
			writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "the tournament cannot be read now; retry")
			return nil, false
		case held:
			writeErr(w, http.StatusConflict, protocol.NotFinished, "the tournament's deal at table "+id+" is not closed: its record would show the cards other entrants are still to play")
			return nil, false
		}
	}
	return f, true
}

func (s *Server) handleRecord(w http.ResponseWriter, r *http.Request) {
	f, ok := s.finishedRecord(w, r)
	if !ok {
		return
	}
	meta, events := f.meta, f.events
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	rec := table.Record(meta, events)
	// The seats of bot accounts, so a replay shows their BOT badge as the
	// table does: marked now, like the table's seats (docs/records.md).
	table.SetSeatsTag(rec, "BotAccounts", meta.Seats, func(st store.Seat) bool { return s.isBotAccount(st.Player) })
	rec.WriteTo(w)
}

func (s *Server) handleReplay(w http.ResponseWriter, r *http.Request) {
	f, ok := s.finishedRecord(w, r)
	if !ok {
		return
	}
	meta, events := f.meta, f.events
	eng, err := games.Lookup(meta.Game)
	if err != nil {
		writeErr(w, http.StatusNotFound, protocol.UnknownGame, err.Error())
		return
	}
	step, seat := len(events), -1
	if v := r.URL.Query().Get("step"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > len(events) {
			writeErr(w, http.StatusBadRequest, protocol.BadRequest, fmt.Sprintf("step must be 0 to %d", len(events)))
			return
		}
		step = n
	}
	if v := r.URL.Query().Get("seat"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < -1 || n >= len(meta.Seats) {
			writeErr(w, http.StatusBadRequest, protocol.BadRequest, fmt.Sprintf("seat must be -1 to %d", len(meta.Seats)-1))
			return
		}
		seat = n
	}
	hist, histFrom := historyFor(w, r, f, eng)
	if hist == nil {
		return
	}
	st, err := f.stateAt(eng, step) // from the nearest replay mark (records.go)
	if err != nil {
		writeErr(w, http.StatusInternalServerError, protocol.Internal, err.Error())
		return
	}
	out := protocol.Replay{Table: meta.ID, Game: meta.Game, Step: step, Steps: len(events), Seat: game.Seat(seat),
		View: st.View(game.Seat(seat))}
	out.History, out.HistoryNew = hist.upTo(step, histFrom)
	if step > 0 {
		e := events[step-1]
		if e.Chance {
			out.Entry = &protocol.ReplayEntry{Chance: e.Text}
		} else {
			s := e.Seat
			out.Entry = &protocol.ReplayEntry{Seat: &s, Move: e.Text}
		}
	}
	if st.Over() {
		r := st.Result()
		out.Result = &r
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) history(ctx context.Context, player string, finishedOnly bool) ([]protocol.HistoryItem, error) {
	ts, err := s.store.History(ctx, player, 200)
	if err != nil {
		return nil, err
	}
	out := []protocol.HistoryItem{}
	for _, t := range ts {
		if finishedOnly && t.Status != store.StatusFinished {
			continue
		}
		if t.Private && finishedOnly {
			continue
		}
		it := protocol.HistoryItem{ID: t.ID, Game: t.Game, Seat: -1, Status: t.Status, Created: t.Created, Finished: t.Finished, Result: t.Result}
		// Stored as the engine wrote them (game.Options.String), so they
		// parse; a row that does not keeps its other fields.
		if o, err := game.ParseOptions(t.Options); err == nil && len(o) > 0 {
			it.Options = o
		}
		for i, st := range t.Seats {
			it.Seats = append(it.Seats, st.Name)
			if st.Player == player && it.Seat < 0 {
				it.Seat = game.Seat(i)
			}
		}
		it.Won = it.Seat >= 0 && slices.Contains(t.Winners, it.Seat)
		for i, st := range t.Seats {
			it.StandIn = it.StandIn || st.Player == player && slices.Contains(t.StandIn, game.Seat(i))
		}
		out = append(out, it)
	}
	return out, nil
}

func (s *Server) handleMyHistory(w http.ResponseWriter, r *http.Request, sess store.Session) {
	h, err := s.history(r.Context(), sess.Player, false)
	if err != nil {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "the history cannot be read now; retry")
		return
	}
	writeJSON(w, http.StatusOK, protocol.History{Games: h})
}

func (s *Server) handleHistory(w http.ResponseWriter, r *http.Request) {
	h, err := s.history(r.Context(), r.PathValue("player"), true)
	if err != nil {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "the history cannot be read now; retry")
		return
	}
	writeJSON(w, http.StatusOK, protocol.History{Games: h})
}

// ---- operations ----

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain")
	if s.closing.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, "shutting down\n")
		return
	}
	io.WriteString(w, "ok\n")
	// Details an operator acts on; the room serves meanwhile. Anyone can
	// read this page, so the reason itself (which may quote the cards of a
	// game in play) is in the server's log, not here.
	for _, d := range s.quarantine {
		fmt.Fprintf(w, "quarantined table %s (%s): its %s could not be read; the reason is in the server's log\n", d.ID, d.Game, d.Stage)
	}
	if ss, ok := s.store.(interface{ Stats() store.Stats }); ok && ss.Stats().WALOverLimit {
		io.WriteString(w, "warning: the database's write-ahead log is over its limit\n")
	}
}

func rssBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.ParseInt(f[1], 10, 64)
	return n * int64(os.Getpagesize())
}

func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	if !s.guard.metricsAllowed(r) {
		s.guard.metricsRefused.Add(1)
		writeErr(w, http.StatusForbidden, protocol.Forbidden, "/metrics is for the room's operator: not served to your address (-metrics-from)")
		return
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	m := s.metrics
	var b strings.Builder
	metric := func(name, typ, help string, v any) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s %s\n%s %v\n", name, help, name, typ, name, v)
	}
	metric("cardroom_tables", "gauge", "Tables in memory.", m.Tables.Load())
	metric("cardroom_tables_playing", "gauge", "Tables whose game is in progress.", m.Playing.Load())
	metric("cardroom_connections", "gauge", "Open WebSocket connections.", s.connections.Load())
	metric("cardroom_tcp_connections", "gauge", "Open TCP connections of the room's listener: WebSockets, HTTP requests and idle keep-alives (capped per address by -max-conns-per-ip).", s.guard.tcpOpen.Load())
	if s.cl != nil {
		s.cl.metrics(metric) // cluster.go
	}
	metric("cardroom_moves_total", "counter", "Accepted seat moves.", m.Moves.Load())
	metric("cardroom_bot_moves_total", "counter", "Accepted moves made by bots.", m.BotMoves.Load())
	metric("cardroom_clock_moves_total", "counter", "Moves made by a bot because a turn clock ran out.", m.ClockMoves.Load())
	metric("cardroom_chance_total", "counter", "Chance outcomes drawn.", m.Chance.Load())
	metric("cardroom_moves_refused_total", "counter", "Refused moves.", m.Refused.Load())
	metric("cardroom_busy_total", "counter", "Commands refused because a table queue was full.", m.Busy.Load())
	metric("cardroom_games_finished_total", "counter", "Games finished.", m.Finished.Load())
	metric("cardroom_store_errors_total", "counter", "Storage errors.", m.StoreErrors.Load())
	if ss, ok := s.cfg.Store.(interface{ Stats() store.Stats }); ok {
		st := ss.Stats()
		metric("cardroom_store_commits_total", "counter", "Event-log transactions committed (one per group commit).", st.Commits)
		metric("cardroom_store_appends_total", "counter", "Event-log entries committed.", st.Entries)
		metric("cardroom_store_wal_bytes", "gauge", "Size of the SQLite write-ahead log.", st.WALBytes)
		metric("cardroom_store_db_bytes", "gauge", "Size of the SQLite database file (with the WAL: what -max-db-mib bounds).", st.DBBytes)
		metric("cardroom_store_wal_limit_bytes", "gauge", "The WAL size over which the WAL is copied back and started over.", st.WALLimit)
		metric("cardroom_store_wal_over_limit", "gauge", "1 when the WAL stayed over its limit after a restart or truncation (alarm).", b2i(st.WALOverLimit))
		metric("cardroom_store_checkpoints_total", "counter", "WAL checkpoints run.", st.Checkpoints)
		metric("cardroom_store_wal_restarts_total", "counter", "Checkpoints that started the WAL over because it was over its limit.", st.Restarts)
		metric("cardroom_store_wal_restart_backlog_frames_total", "counter", "Frames left to the writer's restarts to copy back (the rest is copied beside the commits).", st.RestartBacklog)
		metric("cardroom_store_wal_forced_restarts_total", "counter", "Restarts the writer ran at three times the WAL's limit without waiting for the checkpointer's catch-up (it fell behind).", st.ForcedRestarts)
		metric("cardroom_store_checkpoint_errors_total", "counter", "WAL checkpoints that failed or could not finish.", st.CheckpointErrors)
		metric("cardroom_store_tail_entries", "gauge", "Entries in the event log's tail, not yet folded into the log's table.", st.TailEntries)
		metric("cardroom_store_tail_limit", "gauge", "Entries the tail holds before the writer folds the oldest (-log-tail).", st.TailLimit)
		metric("cardroom_store_folds_total", "counter", "Folds of the tail's oldest entries into the log's table.", st.Folds)
		metric("cardroom_store_folded_entries_total", "counter", "Entries the folds moved.", st.Folded)
		metric("cardroom_store_fold_errors_total", "counter", "Folds that failed (appends are refused once the tail holds twice its limit).", st.FoldErrors)
	} else if ps, ok := s.cfg.Store.(interface{ CommitStats() (int64, int64, int64) }); ok {
		// The PostgreSQL store: its group commit, and the commits whose
		// answer was lost and had to be looked up (docs/cluster.md).
		commits, entries, resolved := ps.CommitStats()
		metric("cardroom_store_commits_total", "counter", "Event-log transactions committed (one per group commit).", commits)
		metric("cardroom_store_appends_total", "counter", "Event-log entries committed.", entries)
		metric("cardroom_store_commits_resolved_total", "counter", "Commits whose answer was lost, settled by asking the database.", resolved)
	}
	held, hits := s.records.stats()
	metric("cardroom_record_cache_games", "gauge", "Finished games whose logs are kept in memory for replays (-record-cache).", held)
	metric("cardroom_record_cache_hits_total", "counter", "Record and replay reads answered from memory.", hits)
	metric("cardroom_tables_quarantined", "gauge", "Unfinished tables that could not be restored at start (see /healthz, cardroom doctor).", len(s.quarantine))
	metric("cardroom_tables_expired_total", "counter", "Open tables closed because nobody joined in time.", m.Expired.Load())
	metric("cardroom_tables_paused", "gauge", "Tables in progress whose bots wait because every human has left.", m.Paused.Load())
	metric("cardroom_tables_abandoned_total", "counter", "Games ended unfinished because every human had left (when_empty end).", m.Abandoned.Load())
	metric("cardroom_tables_too_long_total", "counter", "Games ended unfinished at -max-steps steps.", m.TooLong.Load())
	metric("cardroom_queued_bytes", "gauge", "Bytes waiting in the connections' outgoing queues.", s.queuedBytes.Load())
	metric("cardroom_slow_disconnects_total", "counter", "Connections dropped for not reading (queue full or write timeout).", s.slowKicks.Load())
	metric("cardroom_watch_refused_total", "counter", "Tables a connection was refused to watch, join or create: it watched -max-watches already.", s.watchRefused.Load())
	metric("cardroom_quota_refusals_total", "counter", "Requests refused by a per-player quota (tables, hints).", s.quotaHits.Load())
	metric("cardroom_store_full_refusals_total", "counter", "Tables and tournaments refused because the store held -max-db-mib.", s.storeFull.Load())
	metric("cardroom_tables_address_limited_total", "counter", "Tables refused because their creator's address had its open or unfinished tables (-tables-per-ip, -open-tables-per-ip).", s.addrTableHits.Load())
	connsRefused, rateLimited := s.guardStats()
	metric("cardroom_conns_refused_total", "counter", "Connections closed at once because their address had too many open.", connsRefused)
	metric("cardroom_cross_site_refused_total", "counter", "API requests that change state with the session cookie refused because another site's page sent them (Origin, Sec-Fetch-Site).", s.guard.crossSite.Load())
	metric("cardroom_http_rate_limited_total", "counter", "HTTP API requests, new sessions and lasting creations refused by the per-address rate.", rateLimited)
	metric("cardroom_creations_limited_total", "counter", "Account claims and tournament creations refused by the per-address daily quota (-creations-per-ip).", s.guard.creationsLimited.Load())
	metric("cardroom_metrics_refused_total", "counter", "/metrics requests refused: their client is outside -metrics-from.", s.guard.metricsRefused.Load())
	metric("cardroom_shared_quota_errors_total", "counter", "Cluster: shared quota buckets (sessions, creations) the store could not read or refund; the node's own bucket decided.", s.guard.sharedErrors.Load())
	metric("cardroom_sessions_purged_total", "counter", "Expired sessions deleted.", s.sessionsPurged.Load())
	offers, chains, results := s.rematches.sizes()
	metric("cardroom_rematch_offers", "gauge", "Rematch offers waiting for answers (each for at most -rematch-ttl).", offers)
	metric("cardroom_series_tables", "gauge", "Tables remembered as part of a rematch series (at most -max-series).", chains)
	metric("cardroom_series_results", "gauge", "Series games whose result is kept in memory (at most -max-series).", results)
	metric("cardroom_series_forgotten_total", "counter", "Times the series memory was cleared at -max-series (series restart their count).", s.rematches.forgotten.Load())
	s.accountMetrics(metric)
	s.ratingMetrics(metric)
	s.botMetrics(metric) // botaccount.go
	s.chatMetrics(metric)
	s.tournamentMetrics(metric)
	s.analysisMetrics(metric) // analysis.go
	ps := s.pool.Stats()
	metric("cardroom_bot_workers", "gauge", "Workers computing bot moves and hints.", ps.Workers)
	metric("cardroom_bot_running", "gauge", "Bot decisions and hints being computed.", ps.Running)
	metric("cardroom_bot_workers_niced", "gauge", "Bot workers running at a lowered priority (-bot-nice).", ps.Niced)
	metric("cardroom_bot_queued", "gauge", "Bot decisions and hints waiting for a worker.", ps.Queued)
	metric("cardroom_panics_total", "counter", "Panics recovered (bugs): a message's, command's or analysis' handling ended, a table stopped (table events, bot decisions) or a pool job ended; each is logged with its stack.", s.panics.Load()+m.Panics.Load()+ps.Panics)
	metric("cardroom_bot_refused_total", "counter", "Bot decisions and hints refused because the bot queue was full.", ps.Refused)
	metric("cardroom_bot_retries_total", "counter", "Bot decisions postponed because the bot queue was full.", m.BotRetries.Load())
	s.pool.WriteMetrics(&b) // the bot budget, latency and iterations (bot/pool/metrics.go)
	metric("cardroom_messages_in_total", "counter", "WebSocket messages received.", s.msgsIn.Load())
	metric("cardroom_messages_out_total", "counter", "WebSocket messages queued to clients.", s.msgsOut.Load())
	metric("cardroom_messages_reused_total", "counter", "State messages whose memory a table reused once every connection had written them.", m.MsgsReused.Load())
	metric("cardroom_ws_writes_total", "counter", "Writes to sockets; the messages queued while a socket's writer was busy share one.", s.wsWrites.Load())
	metric("cardroom_bad_input_total", "counter", "Client messages refused as bad input.", s.badInput.Load())
	metric("cardroom_rate_disconnects_total", "counter", "Clients disconnected for flooding.", s.rateKicks.Load())
	fmt.Fprintf(&b, "# HELP cardroom_move_latency_seconds From a move's arrival at its table to its broadcast being queued (includes the commit).\n# TYPE cardroom_move_latency_seconds histogram\n")
	m.MoveLatency.Write(&b, "cardroom_move_latency_seconds")
	fmt.Fprintf(&b, "# HELP cardroom_commit_latency_seconds One event-log append.\n# TYPE cardroom_commit_latency_seconds histogram\n")
	m.CommitLatency.Write(&b, "cardroom_commit_latency_seconds")
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	metric("process_resident_memory_bytes", "gauge", "Resident set size.", rssBytes())
	metric("process_cpu_seconds_total", "counter", "User and system CPU time spent, in seconds.", strconv.FormatFloat(cputime.Process().Seconds(), 'f', 3, 64))
	metric("go_memstats_heap_alloc_bytes", "gauge", "Go heap in use.", ms.HeapAlloc)
	metric("go_memstats_sys_bytes", "gauge", "Memory obtained from the OS by Go.", ms.Sys)
	metric("go_goroutines", "gauge", "Goroutines.", runtime.NumGoroutine())
	metric("process_uptime_seconds", "gauge", "Seconds since start.", int64(time.Since(s.started).Seconds()))
	writeRuntimeMetrics(&b) // runtime_metrics.go
	io.WriteString(w, b.String())
}
