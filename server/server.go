// Package server is the card room's front: identity (guest sessions), the
// lobby, the HTTP endpoints, the WebSocket protocol of docs/protocol.md,
// metrics and graceful shutdown. Tables run in package table and are
// reached by id through messages only; everything they hold is rebuilt from
// the store on start, so a restarted server resumes every unfinished game.
package server

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cardroom/bot"
	"cardroom/games"
	"cardroom/store"
	"cardroom/table"
	"cardroom/web"
)

// Version is the protocol version sent in welcome.
const Version = 1

// Protocol limits (documented in docs/protocol.md).
const (
	MaxMessage   = 8192    // bytes; larger messages are refused with too_large
	HardMaxFrame = 1 << 20 // bytes; larger messages close the connection
	RatePerSec   = 20
	RateBurst    = 40
	MaxStrikes   = 40 // refused-for-rate messages in a row before disconnection
	OutQueue     = 256
	SessionTTL   = 30 * 24 * time.Hour
)

// Config configures a server.
type Config struct {
	Store store.Store
	Log   *slog.Logger
	// Table settings (grace period, bot delay…); Store, Log, Metrics,
	// OnChange and OnStop are filled by the server.
	Table table.Config
	// PingInterval is the WebSocket keep-alive period. Default 30 s.
	PingInterval time.Duration
	// Assets is the browser client; default web.Assets().
	Assets fs.FS
	// Rate and Burst limit each connection's messages (default RatePerSec
	// and RateBurst).
	Rate  float64
	Burst float64
	// Seeds, if set, gives each new table's seed (tests); default random.
	Seeds func() uint64
}

// Server is one card room node.
type Server struct {
	cfg     Config
	store   store.Store
	log     *slog.Logger
	metrics *table.Metrics
	mux     *http.ServeMux
	lobby   *lobby

	mu     sync.Mutex
	tables map[string]*table.Table
	conns  map[*conn]struct{}
	// seatIndex: player -> tables where the player holds a seat (unfinished).
	seatIndex map[string]map[string]bool

	connections atomic.Int64
	msgsIn      atomic.Int64
	msgsOut     atomic.Int64
	badInput    atomic.Int64
	rateKicks   atomic.Int64
	closing     atomic.Bool
	started     time.Time
	httpSrv     *http.Server
}

// New builds a server and restores every unfinished table from the store.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: no store")
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.PingInterval <= 0 {
		cfg.PingInterval = 30 * time.Second
	}
	if cfg.Assets == nil {
		cfg.Assets = web.Assets()
	}
	if cfg.Rate <= 0 {
		cfg.Rate = RatePerSec
	}
	if cfg.Burst < 1 {
		cfg.Burst = RateBurst
	}
	s := &Server{
		cfg: cfg, store: cfg.Store, log: cfg.Log, metrics: table.NewMetrics(),
		tables: map[string]*table.Table{}, conns: map[*conn]struct{}{}, started: time.Now(),
		seatIndex: map[string]map[string]bool{},
	}
	s.lobby = newLobby(s)
	tc := cfg.Table
	tc.Store, tc.Log, tc.Metrics = cfg.Store, cfg.Log, s.metrics
	tc.OnChange = s.onChange
	tc.OnStop = s.tableStopped
	s.cfg.Table = tc
	s.routes()
	if err := s.restore(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Server) restore() error {
	ctx := context.Background()
	ts, err := s.store.Unfinished(ctx)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	n := 0
	for _, meta := range ts {
		if _, err := games.Lookup(meta.Game); err != nil {
			s.log.Warn("restore: game not available, table left as is", "table", meta.ID, "game", meta.Game)
			continue
		}
		events, err := s.store.Events(ctx, meta.ID)
		if err != nil {
			return fmt.Errorf("restore %s: %w", meta.ID, err)
		}
		t, err := table.Restore(s.cfg.Table, meta, events)
		if err != nil {
			s.log.Error("restore table", "table", meta.ID, "err", err)
			continue
		}
		s.mu.Lock()
		s.tables[meta.ID] = t
		s.mu.Unlock()
		n++
	}
	if n > 0 {
		s.log.Info("restored tables", "count", n)
	}
	return nil
}

// Handler is the server's HTTP handler.
func (s *Server) Handler() http.Handler { return s.mux }

// Metrics exposes the table metrics (tests read them).
func (s *Server) Metrics() *table.Metrics { return s.metrics }

// Serve serves on l until Shutdown.
func (s *Server) Serve(l net.Listener) error {
	s.mu.Lock()
	s.httpSrv = &http.Server{Handler: s.mux, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelWarn)}
	srv := s.httpSrv
	s.mu.Unlock()
	err := srv.Serve(l)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops accepting, closes every connection, stops the tables
// (their logs are already durable) and closes the store.
func (s *Server) Shutdown(ctx context.Context) error {
	s.closing.Store(true)
	s.mu.Lock()
	srv := s.httpSrv
	s.mu.Unlock()
	var err error
	if srv != nil {
		err = srv.Shutdown(ctx)
	}
	s.mu.Lock()
	conns := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	tables := make([]*table.Table, 0, len(s.tables))
	for _, t := range s.tables {
		tables = append(tables, t)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.shutdown()
	}
	for _, t := range tables {
		t.Stop()
	}
	s.lobby.stop()
	if e := s.store.Close(); err == nil {
		err = e
	}
	return err
}

func (s *Server) onChange(sum *table.Summary) {
	s.lobby.update(sum)
	if sum.Status == store.StatusFinished {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, si := range sum.Seats {
		if si.Player == "" {
			continue
		}
		m := s.seatIndex[si.Player]
		if m == nil {
			m = map[string]bool{}
			s.seatIndex[si.Player] = m
		}
		m[sum.ID] = true
	}
}

func (s *Server) tableStopped(id string) {
	s.mu.Lock()
	if t := s.tables[id]; t != nil {
		for _, si := range t.Summary().Seats {
			if m := s.seatIndex[si.Player]; m != nil {
				delete(m, id)
				if len(m) == 0 {
					delete(s.seatIndex, si.Player)
				}
			}
		}
	}
	delete(s.tables, id)
	s.mu.Unlock()
	s.lobby.remove(id)
}

func (s *Server) table(id string) *table.Table {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tables[id]
}

var b32 = base32.NewEncoding("abcdefghijkmnpqrstuvwxyz23456789").WithPadding(base32.NoPadding)

func randomID(prefix string, n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return prefix + b32.EncodeToString(b)
}

func (s *Server) seed() uint64 {
	if s.cfg.Seeds != nil {
		return s.cfg.Seeds()
	}
	return randomSeed()
}

func randomSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	var x uint64
	for _, c := range b {
		x = x<<8 | uint64(c)
	}
	return x
}

// createReq is the body of POST /api/tables and the create message.
type createReq struct {
	Game     string            `json:"game"`
	Options  map[string]string `json:"options"`
	Private  bool              `json:"private"`
	ClockMS  int               `json:"clock_ms"`
	BotLevel string            `json:"bot_level"`
	Seat     *int              `json:"seat"`
	Bots     map[string]string `json:"bots"`
	Level    string            `json:"level"` // quick play
}

func (s *Server) createTable(ctx context.Context, sess store.Session, req createReq, quick bool) (*table.Table, error) {
	if req.Game == "" {
		return nil, &table.Error{Code: "bad_request", Msg: "field game is required"}
	}
	if _, err := games.Lookup(req.Game); err != nil {
		return nil, &table.Error{Code: "unknown_game", Msg: err.Error()}
	}
	if req.ClockMS != 0 && (req.ClockMS < 1000 || req.ClockMS > 3600000) {
		return nil, &table.Error{Code: "bad_request", Msg: "clock_ms must be 0 or 1000 to 3600000"}
	}
	opts := make([]string, 0, len(req.Options))
	for k, v := range req.Options {
		if strings.ContainsAny(k+v, " ,\t=\n") {
			return nil, &table.Error{Code: "bad_options", Msg: fmt.Sprintf("option %q=%q: names and values cannot contain spaces, commas or '='", k, v)}
		}
		opts = append(opts, k+"="+v)
	}
	meta := store.Table{
		ID: randomID("t_", 6), Game: req.Game, Options: strings.Join(opts, " "), Private: req.Private,
		ClockMS: req.ClockMS, BotLevel: req.BotLevel, Owner: sess.Player, Seed: s.seed(),
		Status: store.StatusOpen,
	}
	if req.Private {
		meta.Invite = randomID("", 10)
	}
	seats := map[int]store.Seat{}
	if quick {
		level := req.Level
		if level == "" {
			level = "random"
		}
		if _, err := bot.New(level, 0); err != nil {
			return nil, &table.Error{Code: "bad_level", Msg: err.Error()}
		}
		if meta.BotLevel == "" {
			meta.BotLevel = level
		}
		seats[0] = store.Seat{Player: sess.Player, Name: sess.Name}
		for i := 1; i < 16; i++ {
			seats[i] = store.Seat{Bot: level}
		}
	} else {
		for k, level := range req.Bots {
			n, err := strconv.Atoi(k)
			if err != nil || n < 0 || n > 15 {
				return nil, &table.Error{Code: "bad_request", Msg: fmt.Sprintf("bots: %q is not a seat number", k)}
			}
			if _, err := bot.New(level, 0); err != nil {
				return nil, &table.Error{Code: "bad_level", Msg: err.Error()}
			}
			seats[n] = store.Seat{Bot: level}
		}
		if req.Seat != nil && *req.Seat >= 0 {
			if _, dup := seats[*req.Seat]; dup {
				return nil, &table.Error{Code: "seat_taken", Msg: fmt.Sprintf("seat %d has a bot", *req.Seat)}
			}
			seats[*req.Seat] = store.Seat{Player: sess.Player, Name: sess.Name}
		}
	}
	// Size the seats from the engine: build a probe state via table.Create's
	// validation (it copies at most the engine's number of seats).
	max := 0
	for n := range seats {
		if n+1 > max {
			max = n + 1
		}
	}
	meta.Seats = make([]store.Seat, max)
	for n, st := range seats {
		meta.Seats[n] = st
	}
	n, err := seatCount(req.Game, meta.Options)
	if err != nil {
		return nil, err
	}
	if !quick {
		for k := range seats {
			if k >= n {
				return nil, &table.Error{Code: "bad_seat", Msg: fmt.Sprintf("seat %d: the table has %d seats", k, n)}
			}
		}
	}
	if len(meta.Seats) > n {
		meta.Seats = meta.Seats[:n]
	}
	t, err := table.Create(ctx, s.cfg.Table, meta)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.tables[t.ID()] = t
	s.mu.Unlock()
	s.lobby.update(t.Summary())
	s.log.Info("table created", "table", t.ID(), "game", req.Game, "options", meta.Options, "owner", sess.Player, "private", req.Private)
	return t, nil
}

func seatCount(gameName, options string) (int, error) {
	eng, err := games.Lookup(gameName)
	if err != nil {
		return 0, &table.Error{Code: "unknown_game", Msg: err.Error()}
	}
	o, err := parseOpts(options)
	if err != nil {
		return 0, err
	}
	st, err := eng.New(o)
	if err != nil {
		return 0, &table.Error{Code: "bad_options", Msg: err.Error()}
	}
	return st.Seats(), nil
}
