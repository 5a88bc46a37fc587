// Package table runs one card table: a goroutine that owns the game state,
// the seats, the turn clock and the bots, and that is reached only through
// commands on a bounded queue. Every step of the game (a seat's move or a
// chance outcome) is appended to the table's event log in the store and
// committed before it is acknowledged and broadcast; the log is exactly the
// entries of the game's record, so a table is rebuilt after a restart by
// replaying it (Restore).
//
// What leaves a table goes through one function per observer (stateMsg):
// a seat gets its engine View and legal moves, a spectator the spectator
// View. Move texts and chance outcomes are never broadcast.
package table

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"cardroom/bot"
	"cardroom/bot/pool"
	"cardroom/game"
	"cardroom/games"
	"cardroom/record"
	"cardroom/store"
)

// Error is a refusal with a protocol error code.
type Error struct {
	Code string
	Msg  string
}

func (e *Error) Error() string { return e.Code + ": " + e.Msg }

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// ErrBusy is returned when a table's command queue is full.
var ErrBusy = &Error{Code: "busy", Msg: "the table is busy; retry"}

// ErrTimeout is returned when a command waited too long for the table and
// was withdrawn before it ran: nothing was changed.
var ErrTimeout = &Error{Code: "busy", Msg: "the table did not answer in time; nothing was changed: retry"}

// CodeUnavailable is the error code of a step refused because storage
// failed: nothing was committed and nothing changed.
const CodeUnavailable = "unavailable"

func unavailable(what string, err error) *Error {
	return errorf(CodeUnavailable, "%s could not be stored (%v); nothing was changed: retry later", what, err)
}

// ErrStopped is returned when the table no longer runs.
var ErrStopped = &Error{Code: "no_table", Msg: "the table is closed"}

// Subscriber is one connection watching a table. Send must not block: it
// queues msg and reports false when the connection cannot keep up (the
// table then forgets the subscriber).
type Subscriber interface {
	Player() string
	Send(msg []byte) bool
}

// Config is what every table of a server shares.
type Config struct {
	Store   store.Store
	Log     *slog.Logger
	Metrics *Metrics
	// Grace is how long a seated player may be absent (no connection)
	// before a bot plays for them. Default 60 s.
	Grace time.Duration
	// BotDelay is a pause before each bot move, so people can follow.
	BotDelay time.Duration
	// BotTimeout bounds one bot decision. Default 10 s.
	BotTimeout time.Duration
	// Linger is how long a finished table stays in memory. Default 2 min.
	Linger time.Duration
	// QueueSize bounds each table's command queue. Default 64.
	QueueSize int
	// MaxLegal bounds the legal moves listed in a state message. Default
	// 2000: every 500 Rum and Pis Yedili position fits (a deep take with a
	// long hand lists a few hundred); only Papayoo's pass with 3 or 4
	// players has more (3,003 or 15,504), and clients build a pass from the hand.
	MaxLegal int
	// OpenTTL closes an open table when no seat has changed and no seated
	// player has been connected for this long. Default 30 min; negative:
	// never.
	OpenTTL time.Duration
	// StoreTimeout bounds one write to the store (a step, or the seats);
	// an append that has reached the store is always waited for, so a step
	// is either committed and acknowledged or refused and not committed.
	// Default 30 s.
	StoreTimeout time.Duration
	// Pool runs bot decisions (the server shares one among its tables and
	// its hints). Nil: each decision runs in a goroutine of its own, with no
	// bound (tests and tools).
	Pool *pool.Pool
	// OnChange is called (from the table's goroutine; it must not block)
	// when the table's summary changes.
	OnChange func(s *Summary)
	// OnStop is called when the table's goroutine ends.
	OnStop func(id string)
}

func (c *Config) defaults() {
	if c.Log == nil {
		c.Log = slog.Default()
	}
	if c.Metrics == nil {
		c.Metrics = NewMetrics()
	}
	if c.Grace <= 0 {
		c.Grace = 60 * time.Second
	}
	if c.BotTimeout <= 0 {
		c.BotTimeout = 10 * time.Second
	}
	if c.Linger <= 0 {
		c.Linger = 2 * time.Minute
	}
	if c.QueueSize <= 0 {
		c.QueueSize = 64
	}
	if c.MaxLegal <= 0 {
		c.MaxLegal = 2000
	}
	if c.OpenTTL == 0 {
		c.OpenTTL = 30 * time.Minute
	}
	if c.StoreTimeout <= 0 {
		c.StoreTimeout = 30 * time.Second
	}
}

// SeatInfo describes one seat in summaries and state messages.
type SeatInfo struct {
	Seat      int    `json:"seat"`
	Name      string `json:"name,omitempty"`
	Kind      string `json:"kind"` // human, bot, empty
	Player    string `json:"player,omitempty"`
	Level     string `json:"level,omitempty"`
	Connected bool   `json:"connected"`
	Away      bool   `json:"away,omitempty"`
}

// Summary is a table as the lobby shows it.
type Summary struct {
	ID       string       `json:"id"`
	Game     string       `json:"game"`
	Options  game.Options `json:"options"`
	Private  bool         `json:"private"`
	ClockMS  int          `json:"clock_ms"`
	BotLevel string       `json:"bot_level"`
	Status   string       `json:"status"`
	Owner    string       `json:"owner"`
	Created  time.Time    `json:"created"`
	Seats    []SeatInfo   `json:"seats"`
	Humans   int          `json:"humans"`
	Bots     int          `json:"bots"`
	Free     int          `json:"free"`
	Seq      int          `json:"seq"`
	Invite   string       `json:"invite,omitempty"`
}

// Public returns the summary without the invite code.
func (s *Summary) Public() *Summary {
	c := *s
	c.Invite = ""
	return &c
}

// Clock is the turn clock in a state message.
type Clock struct {
	MS        int            `json:"ms"`
	Remaining map[string]int `json:"remaining"`
}

// StateMsg is the shape of the per-observer state message of the protocol
// (docs/protocol.md). stateMsg writes it in two parts — the observer's
// fields and the fields every observer shares, marshalled once per
// broadcast — with the same names and order.
type StateMsg struct {
	Type         string       `json:"type"`
	Table        string       `json:"table"`
	Seq          int          `json:"seq"`
	Status       string       `json:"status"`
	Seat         int          `json:"seat"`
	ToAct        []game.Seat  `json:"to_act"`
	Legal        []string     `json:"legal"`
	LegalCount   int          `json:"legal_count"`
	Game         string       `json:"game"`
	Options      game.Options `json:"options"`
	Clock        *Clock       `json:"clock"`
	Seats        []SeatInfo   `json:"seats"`
	Result       *game.Result `json:"result"`
	ServerTimeMS int64        `json:"server_time_ms"`
	// View comes last, so clients that need only the fields above can stop
	// reading early (the load tool does).
	View game.View `json:"view"`
}

// Table is one running table.
type Table struct {
	id      string
	cfg     Config
	cmds    chan func()
	botRes  chan botResult
	ctx     context.Context
	cancel  context.CancelFunc
	stopped chan struct{}
	summary atomicSummary

	// Owned by the goroutine:
	meta      store.Table
	eng       game.Engine
	st        game.State
	log       []record.Entry
	subs      map[Subscriber]struct{}
	presence  map[string]int // player -> connected subscribers
	seats     []seatState
	timer     *time.Timer
	retryAt   time.Time
	finished  time.Time
	toAct     []game.Seat
	moveBuf   []game.Move
	opts      game.Options // parsed meta.Options
	common    []byte       // the shared part of state messages, cached for one broadcast
	legal     []legalCache // per seat: the legal moves last sent (see legalJSON)
	msgToAct  []game.Seat  // scratch for stateMsg
	msgCache  [][]byte     // scratch for broadcast: each observer's message
	viewBuf   viewEncoder  // reused buffer for marshalling views
	optsJSON  []byte       // opts marshalled (commonJSON)
	seatsJSON []byte       // seatsSent marshalled (commonJSON)
	seatsSent []SeatInfo
	metaDirty bool      // t.meta's last change is not stored yet (retried by tick)
	openIdle  time.Time // an open table: since when nothing has kept it alive (OpenTTL)
	quit      bool      // leave the run loop (a closed table)
	// testBroadcast replaces broadcast in benchmarks (nil otherwise).
	testBroadcast func()

	// Departures (Unsubscribe) have their own queue so that a flood of
	// commands can never delay or lose one.
	leaveMu  sync.Mutex
	leaving  []Subscriber
	leaveSig chan struct{}
}

type seatState struct {
	away         bool      // a bot plays for the absent player
	absentSince  time.Time // zero while present
	deadline     time.Time // turn clock deadline, zero if none
	expired      bool      // the clock ran out: a bot makes this move
	pending      bool      // a bot decision is running
	pendingView  game.View
	pendingGen   int
	bot          bot.Bot
	botLevel     string
	wasToAct     bool
	lastMoveSeen int
	botRetry     time.Time // the bot pool was full: try again then
}

type botResult struct {
	seat int
	gen  int
	move game.Move
	err  error
}

// errPoolFull marks a bot decision that never ran because the pool was full.
var errPoolFull = errors.New("bot pool full")

// Create validates the options, stores a new table and starts it.
// meta.Options is the options text; meta.Seats must have the game's number
// of seats (or be empty: it is sized from the engine).
func Create(ctx context.Context, cfg Config, meta store.Table) (*Table, error) {
	eng, err := games.Lookup(meta.Game)
	if err != nil {
		return nil, errorf("unknown_game", "%v", err)
	}
	opts, err := game.ParseOptions(meta.Options)
	if err != nil {
		return nil, errorf("bad_options", "%v", err)
	}
	st, err := eng.New(opts)
	if err != nil {
		return nil, errorf("bad_options", "%v", err)
	}
	meta.Options = st.Options().String()
	seats := make([]store.Seat, st.Seats())
	copy(seats, meta.Seats)
	meta.Seats = seats
	for i, s := range meta.Seats {
		if s.Bot != "" {
			if _, err := bot.New(s.Bot, 0); err != nil {
				return nil, errorf("bad_level", "seat %d: %v", i, err)
			}
			meta.Seats[i].Name = "bot:" + s.Bot
			meta.Seats[i].Player = ""
		}
	}
	if meta.BotLevel == "" {
		meta.BotLevel = "random"
	}
	if _, err := bot.New(meta.BotLevel, 0); err != nil {
		return nil, errorf("bad_level", "%v", err)
	}
	if meta.Status == "" {
		meta.Status = store.StatusOpen
	}
	if meta.Created.IsZero() {
		meta.Created = time.Now().UTC()
	}
	if err := cfg.Store.CreateTable(ctx, meta); err != nil {
		return nil, fmt.Errorf("store table: %w", err)
	}
	t := newTable(cfg, meta, eng, st, nil)
	t.start()
	// Wait for the goroutine's start (a full table starts its game there),
	// so the returned summary is current.
	t.do(ctx, func() {})
	return t, nil
}

// Restore rebuilds a table from its stored row and event log and starts it.
func Restore(cfg Config, meta store.Table, events []record.Entry) (*Table, error) {
	eng, err := games.Lookup(meta.Game)
	if err != nil {
		return nil, err
	}
	st, err := replay(eng, meta.Options, events)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", meta.ID, err)
	}
	for len(meta.Seats) < st.Seats() {
		meta.Seats = append(meta.Seats, store.Seat{})
	}
	t := newTable(cfg, meta, eng, st, events)
	t.start()
	return t, nil
}

func replay(eng game.Engine, options string, events []record.Entry) (game.State, error) {
	opts, err := game.ParseOptions(options)
	if err != nil {
		return nil, err
	}
	st, err := eng.New(opts)
	if err != nil {
		return nil, err
	}
	for i, e := range events {
		if err := record.Step(st, e); err != nil {
			return nil, fmt.Errorf("event %d (%q): %w", i, e.Text, err)
		}
	}
	return st, nil
}

func newTable(cfg Config, meta store.Table, eng game.Engine, st game.State, events []record.Entry) *Table {
	cfg.defaults()
	ctx, cancel := context.WithCancel(context.Background())
	t := &Table{
		id: meta.ID, cfg: cfg,
		cmds:    make(chan func(), cfg.QueueSize),
		botRes:  make(chan botResult, 2*st.Seats()+2),
		ctx:     ctx,
		cancel:  cancel,
		stopped: make(chan struct{}),
		meta:    meta, eng: eng, st: st,
		log:      append([]record.Entry(nil), events...),
		subs:     map[Subscriber]struct{}{},
		presence: map[string]int{},
		seats:    make([]seatState, st.Seats()),
		legal:    make([]legalCache, st.Seats()),
		leaveSig: make(chan struct{}, 1),
	}
	t.opts, _ = game.ParseOptions(meta.Options)
	now := time.Now()
	t.openIdle = now
	for i := range t.seats {
		t.seats[i].lastMoveSeen = -1
		if meta.Seats[i].Player != "" && meta.Status == store.StatusPlaying {
			// Restored: nobody is connected yet.
			t.seats[i].absentSince = now
		}
	}
	t.publish()
	return t
}

// ID is the table's id.
func (t *Table) ID() string { return t.id }

// Summary is the table's latest summary (safe from any goroutine).
func (t *Table) Summary() *Summary { return t.summary.Load() }

// Done is closed when the table's goroutine has ended.
func (t *Table) Done() <-chan struct{} { return t.stopped }

// Stop ends the table's goroutine (the log is already durable).
func (t *Table) Stop() {
	t.cancel()
	<-t.stopped
}

func (t *Table) start() {
	t.cfg.Metrics.Tables.Add(1)
	if t.meta.Status == store.StatusPlaying {
		t.cfg.Metrics.Playing.Add(1)
	}
	go t.run()
}

// do runs f on the table's goroutine and waits for it. A full queue is
// ErrBusy. If ctx ends while f is still queued, f is withdrawn (it will
// never run) and do returns ErrTimeout; once f has started, do waits for it
// to finish whatever ctx says, so a caller is never told "failed" about a
// command that was carried out.
func (t *Table) do(ctx context.Context, f func()) error {
	const queued, running, withdrawn = 0, 1, 2
	var state atomic.Int32
	done := make(chan struct{})
	cmd := func() {
		if !state.CompareAndSwap(queued, running) {
			return // the caller gave up before it ran
		}
		defer close(done)
		f()
	}
	select {
	case t.cmds <- cmd:
	case <-t.stopped:
		return ErrStopped
	default:
		t.cfg.Metrics.Busy.Add(1)
		return ErrBusy
	}
	select {
	case <-done:
		return nil
	case <-t.stopped:
		// The loop has ended: f either ran to its end (done is closed) or
		// never started.
		select {
		case <-done:
			return nil
		default:
			return ErrStopped
		}
	case <-ctx.Done():
		if state.CompareAndSwap(queued, withdrawn) {
			return ErrTimeout
		}
		select {
		case <-done:
			return nil
		case <-t.stopped:
			select {
			case <-done:
				return nil
			default:
				return ErrStopped
			}
		}
	}
}

// post queues f without waiting. A full queue is ErrBusy.
func (t *Table) post(f func()) error {
	select {
	case <-t.stopped:
		return ErrStopped
	default:
	}
	select {
	case t.cmds <- f:
		return nil
	default:
		t.cfg.Metrics.Busy.Add(1)
		return ErrBusy
	}
}

func (t *Table) run() {
	defer func() {
		t.cfg.Metrics.Tables.Add(-1)
		if t.meta.Status == store.StatusPlaying {
			t.cfg.Metrics.Playing.Add(-1)
		}
		close(t.stopped)
		if t.cfg.OnStop != nil {
			t.cfg.OnStop(t.id)
		}
	}()
	t.timer = time.NewTimer(time.Hour)
	defer t.timer.Stop()
	if t.meta.Status == store.StatusPlaying {
		t.advance()
	} else if t.meta.Status == store.StatusOpen && t.full() {
		t.startFull()
	}
	t.schedule()
	for {
		select {
		case <-t.ctx.Done():
			return
		case <-t.leaveSig:
			t.departures()
		case f := <-t.cmds:
			f()
		case r := <-t.botRes:
			t.onBot(r)
		case <-t.timer.C:
			t.tick()
		}
		if t.quit || t.lingered() {
			return
		}
		t.schedule()
	}
}

// lingered reports whether a finished table should leave memory: Linger
// after the end once nobody watches, and 5 × Linger after it even if
// someone still does (a watcher cannot keep a table in memory for ever).
func (t *Table) lingered() bool {
	if t.finished.IsZero() || t.metaDirty {
		return false
	}
	since := time.Since(t.finished)
	return since > t.cfg.Linger && (len(t.subs) == 0 || since > 5*t.cfg.Linger)
}

// ---- seats and players ----

func (t *Table) seatsOf(player string) []int {
	return t.appendSeatsOf(nil, player)
}

// appendSeatsOf appends the seats player holds to out.
func (t *Table) appendSeatsOf(out []int, player string) []int {
	if player == "" {
		return out
	}
	for i, s := range t.meta.Seats {
		if s.Player == player {
			out = append(out, i)
		}
	}
	return out
}

func (t *Table) seatInfos() []SeatInfo {
	out := make([]SeatInfo, len(t.meta.Seats))
	for i, s := range t.meta.Seats {
		si := SeatInfo{Seat: i, Name: s.Name, Player: s.Player}
		switch {
		case s.Bot != "":
			si.Kind, si.Level, si.Connected = "bot", s.Bot, true
		case s.Player != "":
			si.Kind = "human"
			si.Connected = t.presence[s.Player] > 0
			si.Away = t.seats[i].away
		default:
			si.Kind = "empty"
		}
		out[i] = si
	}
	return out
}

func (t *Table) publish() {
	opts, _ := game.ParseOptions(t.meta.Options)
	s := &Summary{
		ID: t.id, Game: t.meta.Game, Options: opts, Private: t.meta.Private, ClockMS: t.meta.ClockMS,
		BotLevel: t.meta.BotLevel, Status: t.meta.Status, Owner: t.meta.Owner, Created: t.meta.Created,
		Seats: t.seatInfos(), Seq: len(t.log), Invite: t.meta.Invite,
	}
	for _, si := range s.Seats {
		switch si.Kind {
		case "human":
			s.Humans++
		case "bot":
			s.Bots++
		default:
			s.Free++
		}
	}
	t.summary.Store(s)
	if t.cfg.OnChange != nil {
		t.cfg.OnChange(s)
	}
}

// saveMeta stores t.meta (status, result, seats). Callers that change
// seats for a player revert their change when it fails, so an acknowledged
// seat change is always durable.
func (t *Table) saveMeta() error {
	ctx, cancel := context.WithTimeout(context.Background(), t.cfg.StoreTimeout)
	defer cancel()
	if err := t.cfg.Store.UpdateTable(ctx, t.meta); err != nil {
		t.cfg.Metrics.StoreErrors.Add(1)
		t.cfg.Log.Error("store table", "table", t.id, "err", err)
		return err
	}
	t.metaDirty = false
	return nil
}

// snapshot copies t.meta, seats included, so a refused change can be undone.
func (t *Table) snapshot() store.Table {
	m := t.meta
	m.Seats = slices.Clone(t.meta.Seats)
	return m
}

// Subscribe adds a watcher: a seated player's connection gets its seats'
// views (and takes its seats back from stand-in bots), anyone else the
// spectator view. It returns the seats the player holds.
func (t *Table) Subscribe(ctx context.Context, sub Subscriber) ([]int, error) {
	var seats []int
	err := t.do(ctx, func() {
		seats = t.seatsOf(sub.Player())
		if _, ok := t.subs[sub]; !ok {
			t.subs[sub] = struct{}{}
			t.arrive(sub.Player())
		}
		t.sendState(sub)
	})
	return seats, err
}

// Unsubscribe removes a watcher (a closed connection, or unwatch). It never
// blocks and is never refused: departures have their own queue, which the
// table drains before its next command.
func (t *Table) Unsubscribe(sub Subscriber) {
	t.leaveMu.Lock()
	t.leaving = append(t.leaving, sub)
	t.leaveMu.Unlock()
	select {
	case t.leaveSig <- struct{}{}:
	default: // a signal is pending already; it covers this one
	}
}

// departures handles the queued Unsubscribes.
func (t *Table) departures() {
	t.leaveMu.Lock()
	subs := t.leaving
	t.leaving = nil
	t.leaveMu.Unlock()
	for _, sub := range subs {
		if _, ok := t.subs[sub]; ok {
			delete(t.subs, sub)
			t.depart(sub.Player())
		}
	}
}

func (t *Table) arrive(player string) {
	t.presence[player]++
	changed := false
	for _, i := range t.seatsOf(player) {
		ss := &t.seats[i]
		if ss.away || !ss.absentSince.IsZero() {
			ss.away = false
			ss.absentSince = time.Time{}
			changed = true
		}
	}
	if changed || t.presence[player] == 1 && len(t.seatsOf(player)) > 0 {
		t.publish()
		t.broadcast()
	}
}

func (t *Table) depart(player string) {
	t.presence[player]--
	if t.presence[player] > 0 {
		return
	}
	delete(t.presence, player)
	seats := t.seatsOf(player)
	if len(seats) == 0 {
		return
	}
	t.openIdle = time.Now()
	if t.meta.Status == store.StatusPlaying {
		now := time.Now()
		for _, i := range seats {
			t.seats[i].absentSince = now
		}
	}
	t.publish()
	t.broadcast()
}

// Join seats player at seat (-1: the first empty seat) and returns the
// seat. A player who already holds a seat here gets it back.
func (t *Table) Join(ctx context.Context, player, name string, seat int) (int, error) {
	var got int
	var e error
	err := t.do(ctx, func() { got, e = t.join(player, name, seat) })
	if err != nil {
		return 0, err
	}
	return got, e
}

func (t *Table) join(player, name string, seat int) (int, error) {
	if seat < -1 || seat >= len(t.meta.Seats) {
		return 0, errorf("bad_seat", "seat %d: the table has seats 0 to %d (or -1: the first free seat)", seat, len(t.meta.Seats)-1)
	}
	if held := t.seatsOf(player); len(held) > 0 && (seat < 0 || containsInt(held, seat)) {
		s := held[0]
		if seat >= 0 {
			s = seat
		}
		if t.seats[s].away || !t.seats[s].absentSince.IsZero() {
			t.seats[s].away = false
			t.seats[s].absentSince = time.Time{}
			t.publish()
			t.broadcast()
		}
		return s, nil
	}
	if t.meta.Status != store.StatusOpen {
		return 0, errorf("not_open", "the game has started")
	}
	if seat >= len(t.meta.Seats) {
		return 0, errorf("bad_seat", "seat %d: the table has %d seats", seat, len(t.meta.Seats))
	}
	if seat < 0 {
		seat = -1
		for i, s := range t.meta.Seats {
			if s.Player == "" && s.Bot == "" {
				seat = i
				break
			}
		}
		if seat < 0 {
			return 0, errorf("table_full", "no empty seat")
		}
	} else if s := t.meta.Seats[seat]; s.Player != "" || s.Bot != "" {
		return 0, errorf("seat_taken", "seat %d is taken", seat)
	}
	prev := t.snapshot()
	t.meta.Seats[seat] = store.Seat{Player: player, Name: name}
	if err := t.seatsChanged(prev); err != nil {
		return 0, err
	}
	return seat, nil
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// seatsChanged stores the seats, starts the game when every seat is
// filled, and tells everyone.
func (t *Table) full() bool {
	for _, s := range t.meta.Seats {
		if s.Player == "" && s.Bot == "" {
			return false
		}
	}
	return true
}

// startFull starts the game of a table created full (quick play, all
// bots); if the start cannot be stored, tick tries again.
func (t *Table) startFull() {
	if err := t.seatsChanged(t.snapshot()); err != nil {
		t.retryAt = time.Now().Add(time.Second)
	}
}

// seatsChanged is called after a change of t.meta.Seats; prev is t.meta
// before it. The change (and the start of the game when it fills the
// table) is stored first: if that fails, t.meta goes back to prev, nothing
// is announced, and the error is the caller's answer.
func (t *Table) seatsChanged(prev store.Table) error {
	start := t.full() && t.meta.Status == store.StatusOpen
	if start {
		t.meta.Status = store.StatusPlaying
	}
	if err := t.saveMeta(); err != nil {
		t.meta = prev
		return unavailable("the seat change", err)
	}
	t.openIdle = time.Now()
	if start {
		t.cfg.Metrics.Playing.Add(1)
		now := time.Now()
		for i, s := range t.meta.Seats {
			if s.Player != "" && t.presence[s.Player] == 0 {
				t.seats[i].absentSince = now
			}
		}
		t.publish()
		if !t.advance() {
			t.broadcast()
		}
		return nil
	}
	t.publish()
	t.broadcast()
	return nil
}

// Leave gives up player's seats: before the start they become empty;
// after it a bot plays them until the player joins or watches again.
func (t *Table) Leave(ctx context.Context, player string) error {
	var e error
	err := t.do(ctx, func() {
		seats := t.seatsOf(player)
		if len(seats) == 0 {
			e = errorf("not_seated", "you hold no seat at table %s", t.id)
			return
		}
		if t.meta.Status == store.StatusOpen {
			prev := t.snapshot()
			for _, i := range seats {
				t.meta.Seats[i] = store.Seat{}
			}
			e = t.seatsChanged(prev)
			return
		}
		for _, i := range seats {
			t.seats[i].away = true
		}
		t.publish()
		t.broadcast()
	})
	if err != nil {
		return err
	}
	return e
}

// SetBot puts a bot of level at seat (-1: every empty seat), or removes the
// bot when level is "". Only the owner may, and only before the start.
func (t *Table) SetBot(ctx context.Context, player string, seat int, level string) error {
	if level != "" {
		if _, err := bot.New(level, 0); err != nil {
			return errorf("bad_level", "%v", err)
		}
	}
	var e error
	err := t.do(ctx, func() { e = t.setBot(player, seat, level) })
	if err != nil {
		return err
	}
	return e
}

func (t *Table) setBot(player string, seat int, level string) error {
	if player != t.meta.Owner {
		return errorf("forbidden", "only the table's owner may seat or remove bots")
	}
	if t.meta.Status != store.StatusOpen {
		return errorf("not_open", "the game has started")
	}
	if seat < -1 || seat >= len(t.meta.Seats) || (seat < 0 && level == "") {
		return errorf("bad_seat", "seat %d: the table has %d seats", seat, len(t.meta.Seats))
	}
	prev := t.snapshot()
	if level == "" {
		if t.meta.Seats[seat].Bot == "" {
			return errorf("bad_seat", "seat %d has no bot", seat)
		}
		t.meta.Seats[seat] = store.Seat{}
		return t.seatsChanged(prev)
	}
	if seat >= 0 {
		if s := t.meta.Seats[seat]; s.Player != "" || s.Bot != "" {
			return errorf("seat_taken", "seat %d is taken", seat)
		}
		t.meta.Seats[seat] = store.Seat{Bot: level, Name: "bot:" + level}
	} else {
		for i, s := range t.meta.Seats {
			if s.Player == "" && s.Bot == "" {
				t.meta.Seats[i] = store.Seat{Bot: level, Name: "bot:" + level}
			}
		}
	}
	return t.seatsChanged(prev)
}

// ---- moves ----

// Move submits a move for player (seat -1: the one seat the player holds).
// It does not wait: the table sends the ack or the error to sub, then
// broadcasts the new state. id is echoed in the answer.
func (t *Table) Move(sub Subscriber, id json.RawMessage, seat int, text string) error {
	arrived := time.Now()
	return t.post(func() { t.move(sub, id, seat, text, arrived) })
}

func (t *Table) resolveSeat(player string, seat int) (int, *Error) {
	if seat < -1 || seat >= len(t.meta.Seats) {
		return 0, errorf("bad_seat", "seat %d: the table has seats 0 to %d", seat, len(t.meta.Seats)-1)
	}
	held := t.seatsOf(player)
	if len(held) == 0 {
		return 0, errorf("not_seated", "you hold no seat at table %s", t.id)
	}
	if seat < 0 {
		if len(held) > 1 {
			return 0, errorf("seat_required", "you hold seats %v at table %s: name the seat", held, t.id)
		}
		return held[0], nil
	}
	if !containsInt(held, seat) {
		return 0, errorf("not_your_seat", "seat %d at table %s is not yours", seat, t.id)
	}
	return seat, nil
}

func (t *Table) sendError(sub Subscriber, id json.RawMessage, e *Error) {
	if sub == nil {
		return
	}
	b, _ := json.Marshal(struct {
		Type    string          `json:"type"`
		ID      json.RawMessage `json:"id,omitempty"`
		Code    string          `json:"code"`
		Message string          `json:"message"`
		Table   string          `json:"table"`
	}{"error", id, e.Code, e.Msg, t.id})
	sub.Send(b)
}

func (t *Table) move(sub Subscriber, id json.RawMessage, seat int, text string, arrived time.Time) {
	s, e := t.resolveSeat(sub.Player(), seat)
	if e != nil {
		t.cfg.Metrics.Refused.Add(1)
		t.sendError(sub, id, e)
		return
	}
	if t.meta.Status != store.StatusPlaying {
		t.cfg.Metrics.Refused.Add(1)
		code := "not_your_turn"
		if t.meta.Status == store.StatusFinished {
			code = string(game.ErrGameOver)
		}
		t.sendError(sub, id, errorf(code, "the game is %s", t.meta.Status))
		return
	}
	if err := t.apply(s, text, false); err != nil {
		t.cfg.Metrics.Refused.Add(1)
		var te *Error
		if !errors.As(err, &te) {
			te = &Error{Code: "internal", Msg: err.Error()}
		}
		t.sendError(sub, id, te)
		return
	}
	// The player acted: they are present at this seat.
	t.seats[s].away = false
	sub.Send(ackMsg(id, t.id, len(t.log)))
	t.broadcast()
	t.cfg.Metrics.MoveLatency.Observe(time.Since(arrived))
	t.advance()
}

// apply parses, applies and logs one seat move. On any error the state is
// unchanged.
func (t *Table) apply(s int, text string, byBot bool) error {
	m, err := t.st.ParseMove(text)
	if err != nil {
		return moveErr(err)
	}
	canon := t.st.FormatMove(m)
	if err := t.st.Apply(game.Seat(s), m); err != nil {
		return moveErr(err)
	}
	e := record.Entry{Seat: game.Seat(s), Text: canon}
	if err := t.append(e); err != nil {
		t.rebuild()
		return unavailable("the move", err)
	}
	t.cfg.Metrics.Moves.Add(1)
	if byBot {
		t.cfg.Metrics.BotMoves.Add(1)
	}
	ss := &t.seats[s]
	ss.expired = false
	ss.deadline = time.Time{}
	ss.wasToAct = false
	return nil
}

func moveErr(err error) error {
	var me *game.MoveError
	if errors.As(err, &me) {
		return &Error{Code: string(me.Code), Msg: me.Error()}
	}
	return &Error{Code: string(game.ErrMalformed), Msg: err.Error()}
}

// append logs e as the next step. The store's Append returns nil only for
// a committed entry and an error only for one that was not committed (it
// waits for an entry it has started to write, whatever the deadline), so
// memory and the log cannot disagree after an error. A conflict means the
// log holds more than memory (another writer, or a fault that the store
// could not report exactly): the table re-reads its log (resync).
func (t *Table) append(e record.Entry) error {
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), t.cfg.StoreTimeout)
	defer cancel()
	err := t.cfg.Store.Append(ctx, t.id, len(t.log), e)
	t.cfg.Metrics.CommitLatency.Observe(time.Since(start))
	if err != nil {
		t.cfg.Metrics.StoreErrors.Add(1)
		t.cfg.Log.Error("event log append", "table", t.id, "seq", len(t.log), "err", err)
		if errors.Is(err, store.ErrConflict) {
			t.resync()
		}
		return err
	}
	t.log = append(t.log, e)
	return nil
}

// resync replaces the in-memory log and state by the store's log when the
// store holds more steps than memory and agrees on the steps both have. The
// caller (apply, advance) rebuilds or re-reads its state afterwards.
func (t *Table) resync() {
	ctx, cancel := context.WithTimeout(context.Background(), t.cfg.StoreTimeout)
	defer cancel()
	events, err := t.cfg.Store.Events(ctx, t.id)
	if err != nil {
		t.cfg.Log.Error("resync: read log", "table", t.id, "err", err)
		return
	}
	if len(events) <= len(t.log) || !slices.EqualFunc(events[:len(t.log)], t.log, sameEntry) {
		t.cfg.Log.Error("resync: the stored log does not extend the table's", "table", t.id, "stored", len(events), "memory", len(t.log))
		return
	}
	st, err := replay(t.eng, t.meta.Options, events)
	if err != nil {
		t.cfg.Log.Error("resync: the stored log does not replay", "table", t.id, "err", err)
		return
	}
	t.cfg.Log.Warn("resync: adopted steps found in the stored log", "table", t.id, "steps", len(events)-len(t.log))
	t.log, t.st = events, st
	t.publish()
	t.broadcast()
}

func sameEntry(a, b record.Entry) bool {
	return a.Chance == b.Chance && a.Seat == b.Seat && a.Text == b.Text
}

// rebuild restores the state from the in-memory log after a failed append
// (the engine applied the move before the append was tried).
func (t *Table) rebuild() {
	st, err := replay(t.eng, t.meta.Options, t.log)
	if err != nil {
		t.cfg.Log.Error("rebuild from log", "table", t.id, "err", err)
		return
	}
	t.st = st
}

// advance draws pending chance outcomes (logging each before applying it),
// finishes the game when it is over, and broadcasts. It reports whether it
// broadcast.
func (t *Table) advance() bool {
	if t.meta.Status != store.StatusPlaying {
		return false
	}
	drew := false
	for !t.st.Over() && t.st.ChancePending() {
		// A generator per step, from the table's seed and the step number:
		// the same outcome after a restart even if it was drawn but not logged.
		rng := game.NewRand(t.meta.Seed ^ (uint64(len(t.log)+1) * 0x9e3779b97f4a7c15))
		text := t.st.SampleChance(&rng)
		if err := t.append(record.Entry{Chance: true, Seat: game.Spectator, Text: text}); err != nil {
			t.retryAt = time.Now().Add(time.Second)
			break
		}
		if err := t.st.ApplyChance(text); err != nil {
			t.cfg.Log.Error("engine refused its own chance outcome", "table", t.id, "err", err)
			t.log = t.log[:len(t.log)-1]
			t.retryAt = time.Now().Add(time.Second)
			break
		}
		t.cfg.Metrics.Chance.Add(1)
		drew = true
	}
	if t.st.Over() {
		t.meta.Status = store.StatusFinished
		t.meta.Result = record.ResultText(t.st)
		t.meta.Finished = time.Now().UTC()
		t.finished = time.Now()
		t.cfg.Metrics.Playing.Add(-1)
		t.cfg.Metrics.Finished.Add(1)
		// The game's end is in the log already; if its row cannot be
		// stored now, tick stores it later (and a restart would find the
		// finished game by replaying the log).
		t.metaDirty = true
		if t.saveMeta() != nil {
			t.retryAt = time.Now().Add(time.Second)
		}
		t.publish()
		t.broadcast()
		return true
	}
	if drew {
		t.publish()
		t.broadcast()
	}
	return drew
}

// ---- bots, clock, absence ----

// controlledByBot reports whether a bot makes seat i's next move.
func (t *Table) controlledByBot(i int) (string, bool) {
	s := t.meta.Seats[i]
	if s.Bot != "" {
		return s.Bot, true
	}
	ss := &t.seats[i]
	if ss.away || ss.expired {
		return t.meta.BotLevel, true
	}
	return "", false
}

// schedule starts bot decisions, sets turn clocks and arms the timer.
func (t *Table) schedule() {
	now := time.Now()
	var next time.Time
	consider := func(at time.Time) {
		if !at.IsZero() && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	if t.meta.Status == store.StatusPlaying && !t.st.Over() {
		if !t.retryAt.IsZero() {
			consider(t.retryAt)
		}
		t.toAct = t.st.ToAct(t.toAct[:0])
		for i := range t.seats {
			ss := &t.seats[i]
			acting := false
			for _, s := range t.toAct {
				if int(s) == i {
					acting = true
				}
			}
			if !acting {
				ss.deadline, ss.expired, ss.wasToAct = time.Time{}, false, false
				continue
			}
			if t.meta.ClockMS > 0 && t.meta.Seats[i].Bot == "" && ss.deadline.IsZero() && !ss.expired {
				ss.deadline = now.Add(time.Duration(t.meta.ClockMS) * time.Millisecond)
			}
			ss.wasToAct = true
			if level, ok := t.controlledByBot(i); ok {
				if !ss.pending && !now.Before(ss.botRetry) {
					t.startBot(i, level)
				} else if !ss.pending {
					consider(ss.botRetry)
				}
			} else {
				consider(ss.deadline)
			}
		}
		for i := range t.seats {
			ss := &t.seats[i]
			if !ss.away && !ss.absentSince.IsZero() {
				consider(ss.absentSince.Add(t.cfg.Grace))
			}
		}
	}
	if t.meta.Status == store.StatusOpen {
		if !t.retryAt.IsZero() {
			consider(t.retryAt)
		}
		if t.cfg.OpenTTL > 0 && !t.seatedPresent() {
			consider(t.openIdle.Add(t.cfg.OpenTTL))
		}
	}
	if t.metaDirty && !t.retryAt.IsZero() {
		consider(t.retryAt)
	}
	if !t.finished.IsZero() {
		// The deadlines still ahead (one that has passed with a watcher
		// present must not wake the loop again and again).
		for _, at := range []time.Time{t.finished.Add(t.cfg.Linger + time.Millisecond), t.finished.Add(5*t.cfg.Linger + time.Millisecond)} {
			if at.After(now) {
				consider(at)
			}
		}
	}
	if next.IsZero() {
		next = now.Add(time.Hour)
	}
	d := next.Sub(now)
	if d < 0 {
		d = 0
	}
	t.timer.Reset(d)
}

func (t *Table) startBot(i int, level string) {
	ss := &t.seats[i]
	if ss.bot == nil || ss.botLevel != level {
		b, err := bot.New(level, t.meta.Seed^uint64(i+1)*0x2545f4914f6cdd1d)
		if err != nil {
			b = bot.NewRandom(t.meta.Seed ^ uint64(i+1))
		}
		if h, ok := b.(*bot.Hard); ok {
			b = h.WithWorkers(1) // one pool worker, one core
		}
		ss.bot, ss.botLevel = b, level
	}
	v := t.st.View(game.Seat(i))
	ss.pending, ss.pendingView, ss.pendingGen = true, v, len(t.log)
	b, eng, gen := ss.bot, t.eng, len(t.log)
	ctx, timeout, p := t.ctx, t.cfg.BotTimeout, t.cfg.Pool
	deliver := func(r botResult) {
		select {
		case t.botRes <- r:
		case <-ctx.Done():
		}
	}
	// The decision runs on the shared pool; the pause before it (BotDelay)
	// holds no worker and no goroutine.
	decide := func(ctx context.Context) {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		m, err := b.Choose(cctx, eng, v)
		cancel()
		deliver(botResult{seat: i, gen: gen, move: m, err: err})
	}
	submit := func() {
		if p == nil {
			go decide(ctx)
			return
		}
		if err := p.Submit(ctx, decide); err != nil {
			go deliver(botResult{seat: i, gen: gen, err: errPoolFull})
		}
	}
	if t.cfg.BotDelay > 0 {
		time.AfterFunc(t.cfg.BotDelay, submit)
	} else {
		submit()
	}
}

func (t *Table) onBot(r botResult) {
	ss := &t.seats[r.seat]
	ss.pending = false
	view := ss.pendingView
	ss.pendingView = nil
	if t.meta.Status != store.StatusPlaying {
		return
	}
	if _, ok := t.controlledByBot(r.seat); !ok {
		return // the player came back
	}
	if errors.Is(r.err, errPoolFull) {
		t.cfg.Metrics.BotRetries.Add(1)
		ss.botRetry = time.Now().Add(100 * time.Millisecond)
		return
	}
	if r.err != nil {
		t.cfg.Log.Warn("bot failed", "table", t.id, "seat", r.seat, "err", r.err)
		// Fall back to a random legal move so the table never stalls.
		t.moveBuf = t.st.Legal(game.Seat(r.seat), t.moveBuf[:0])
		if len(t.moveBuf) == 0 {
			return
		}
		rng := game.NewRand(t.meta.Seed ^ uint64(len(t.log)))
		r.move = t.moveBuf[rng.IntN(len(t.moveBuf))]
	} else if r.gen != len(t.log) && !reflect.DeepEqual(view, t.st.View(game.Seat(r.seat))) {
		return // the position changed under the bot: schedule decides again
	}
	clock := t.seats[r.seat].expired
	if err := t.apply(r.seat, t.st.FormatMove(r.move), true); err != nil {
		t.cfg.Log.Warn("bot move refused", "table", t.id, "seat", r.seat, "err", err)
		return
	}
	if clock {
		t.cfg.Metrics.ClockMoves.Add(1)
	}
	t.broadcast()
	t.advance()
}

func (t *Table) tick() {
	now := time.Now()
	changed := false
	if !t.retryAt.IsZero() && !now.Before(t.retryAt) {
		t.retryAt = time.Time{}
		switch {
		case t.metaDirty:
			if t.saveMeta() != nil {
				t.retryAt = now.Add(time.Second)
			}
		case t.meta.Status == store.StatusOpen && t.full():
			t.startFull()
		default:
			t.advance()
		}
	}
	if t.meta.Status == store.StatusOpen && t.cfg.OpenTTL > 0 && !t.seatedPresent() && !now.Before(t.openIdle.Add(t.cfg.OpenTTL)) {
		t.expire()
		return
	}
	for i := range t.seats {
		ss := &t.seats[i]
		if !ss.deadline.IsZero() && !now.Before(ss.deadline) && !ss.expired {
			ss.expired = true
			ss.deadline = time.Time{}
			changed = true
		}
		if !ss.away && !ss.absentSince.IsZero() && !now.Before(ss.absentSince.Add(t.cfg.Grace)) {
			ss.away = true
			changed = true
		}
	}
	if changed {
		t.publish()
		t.broadcast()
	}
}

// seatedPresent reports whether a player holding a seat is connected.
func (t *Table) seatedPresent() bool {
	for _, s := range t.meta.Seats {
		if s.Player != "" && t.presence[s.Player] > 0 {
			return true
		}
	}
	return false
}

// expire closes an open table that nobody has joined or watched from a
// seat for OpenTTL: it leaves the lobby and memory and is not restored.
func (t *Table) expire() {
	prev := t.snapshot()
	t.meta.Status = store.StatusClosed
	t.meta.Finished = time.Now().UTC()
	if err := t.saveMeta(); err != nil {
		t.meta = prev
		t.openIdle = time.Now().Add(time.Minute - t.cfg.OpenTTL) // try again in a minute
		return
	}
	t.cfg.Metrics.Expired.Add(1)
	t.cfg.Log.Info("open table expired", "table", t.id, "idle", t.cfg.OpenTTL)
	t.publish()
	t.broadcast()
	t.quit = true
}

// ---- what leaves the table ----

// stateMsg builds the message for one observer: seat ≥ 0 or game.Spectator.
// It is the only way game state leaves a table. The message has the fields
// of StateMsg, in that order: the per-observer head is written by hand
// (appendHead), the shared part (t.common) is marshalled once per
// broadcast, and the seat's legal-move list is reused while it is unchanged
// (legalJSON).
func (t *Table) stateMsg(seat int) []byte {
	common := t.common
	if common == nil {
		common = t.commonJSON()
	}
	var view game.View
	toAct := t.msgToAct[:0]
	legal, legalCount := []byte("[]"), 0
	if t.meta.Status != store.StatusOpen {
		view = t.st.View(game.Seat(seat))
		toAct = t.st.ToAct(toAct)
		t.msgToAct = toAct
		if seat >= 0 {
			if slices.Contains(toAct, game.Seat(seat)) {
				legal, legalCount = t.legalJSON(seat)
			} else if seat < len(t.legal) {
				t.legal[seat] = legalCache{} // not to act: keep nothing
			}
		}
	}
	vb, err := t.marshalView(view)
	if err != nil {
		t.cfg.Log.Error("marshal view", "table", t.id, "err", err)
		return nil
	}
	// {head…, common…, "view": …}: the same fields, in the same order, as StateMsg.
	out := make([]byte, 0, 128+len(t.id)+len(legal)+len(common)+len(vb))
	out = appendHead(out, t.id, len(t.log), t.meta.Status, seat, toAct, legal, legalCount)
	out = append(out, ',')
	out = append(out, common[1:len(common)-1]...)
	out = append(out, `,"view":`...)
	out = append(out, vb...)
	out = append(out, '}')
	return out
}

// stateHead is the per-observer part of StateMsg.
type stateHead struct {
	Type       string      `json:"type"`
	Table      string      `json:"table"`
	Seq        int         `json:"seq"`
	Status     string      `json:"status"`
	Seat       int         `json:"seat"`
	ToAct      []game.Seat `json:"to_act"`
	Legal      []string    `json:"legal"`
	LegalCount int         `json:"legal_count"`
}

// stateCommon is the part of StateMsg that every observer shares.
type stateCommon struct {
	Game         string       `json:"game"`
	Options      game.Options `json:"options"`
	Clock        *Clock       `json:"clock"`
	Seats        []SeatInfo   `json:"seats"`
	Result       *game.Result `json:"result"`
	ServerTimeMS int64        `json:"server_time_ms"`
}

// commonJSON marshals the shared part of the state messages (once per broadcast).
func (t *Table) commonJSON() []byte { return t.commonJSONAt(time.Now()) }

// commonJSONAt writes stateCommon as encoding/json would, by hand: the
// options' JSON is built once, the seats' again only when they change.
func (t *Table) commonJSONAt(now time.Time) []byte {
	seats := t.seatInfos()
	if t.seatsJSON == nil || !slices.Equal(seats, t.seatsSent) {
		b, err := json.Marshal(seats)
		if err != nil {
			t.cfg.Log.Error("marshal state", "table", t.id, "err", err)
			return []byte("{}")
		}
		t.seatsJSON, t.seatsSent = b, seats
	}
	if t.optsJSON == nil {
		t.optsJSON, _ = json.Marshal(t.opts)
	}
	var clock *Clock
	var result *game.Result
	if t.meta.Status != store.StatusOpen {
		if t.meta.ClockMS > 0 && t.meta.Status == store.StatusPlaying {
			clock = &Clock{MS: t.meta.ClockMS, Remaining: map[string]int{}}
			for _, s := range t.st.ToAct(nil) {
				if d := t.seats[s].deadline; !d.IsZero() {
					clock.Remaining[strconv.Itoa(int(s))] = int(max(0, d.Sub(now).Milliseconds()))
				}
			}
		}
		if t.st.Over() {
			r := t.st.Result()
			result = &r
		}
	}
	b := make([]byte, 0, 64+len(t.optsJSON)+len(t.seatsJSON))
	b = append(b, `{"game":`...)
	b = appendString(b, t.meta.Game)
	b = append(b, `,"options":`...)
	b = append(b, t.optsJSON...)
	b = append(b, `,"clock":`...)
	b = appendJSON(b, clock)
	b = append(b, `,"seats":`...)
	b = append(b, t.seatsJSON...)
	b = append(b, `,"result":`...)
	b = appendJSON(b, result)
	b = append(b, `,"server_time_ms":`...)
	b = strconv.AppendInt(b, now.UnixMilli(), 10)
	return append(b, '}')
}

func (t *Table) sendState(sub Subscriber) {
	seats := t.seatsOf(sub.Player())
	if len(seats) == 0 {
		seats = []int{int(game.Spectator)}
	}
	for _, s := range seats {
		if b := t.stateMsg(s); b != nil && !sub.Send(b) {
			t.drop(sub)
			return
		}
	}
}

func (t *Table) drop(sub Subscriber) {
	if _, ok := t.subs[sub]; ok {
		delete(t.subs, sub)
		t.depart(sub.Player())
	}
}

// broadcast sends every watcher its own state, building each observer's
// message once.
func (t *Table) broadcast() {
	if len(t.subs) == 0 {
		return
	}
	if t.testBroadcast != nil {
		t.testBroadcast() // benchmarks: the plain encoding/json way, for comparison
		return
	}
	// Clock deadlines for seats about to act are set by schedule; set them
	// here too so the message carries them.
	if t.meta.ClockMS > 0 && t.meta.Status == store.StatusPlaying {
		now := time.Now()
		t.toAct = t.st.ToAct(t.toAct[:0])
		for _, s := range t.toAct {
			ss := &t.seats[s]
			if t.meta.Seats[s].Bot == "" && ss.deadline.IsZero() && !ss.expired {
				ss.deadline = now.Add(time.Duration(t.meta.ClockMS) * time.Millisecond)
			}
		}
	}
	t.common = t.commonJSON()
	defer func() { t.common = nil }()
	// cache[s+1] is observer s's message (index 0: the spectator's).
	cache := t.msgCache[:0]
	for range len(t.seats) + 1 {
		cache = append(cache, nil)
	}
	t.msgCache = cache
	defer clear(cache) // do not keep the messages alive
	var dead []Subscriber
	var held [8]int
	for sub := range t.subs {
		seats := t.appendSeatsOf(held[:0], sub.Player())
		if len(seats) == 0 {
			seats = append(seats, int(game.Spectator))
		}
		for _, s := range seats {
			b := cache[s+1]
			if b == nil {
				b = t.stateMsg(s)
				cache[s+1] = b
			}
			if b != nil && !sub.Send(b) {
				dead = append(dead, sub)
				break
			}
		}
	}
	for _, sub := range dead {
		t.drop(sub)
	}
}

// ---- views for hints and records ----

// SeatView returns the engine and the current view of player's seat (for
// hints), or an error if the player does not hold it.
func (t *Table) SeatView(ctx context.Context, player string, seat int) (game.Engine, game.View, int, error) {
	var v game.View
	var e *Error
	var s int
	err := t.do(ctx, func() {
		s, e = t.resolveSeat(player, seat)
		if e != nil {
			return
		}
		if t.meta.Status != store.StatusPlaying {
			e = errorf("not_your_turn", "the game is %s", t.meta.Status)
			return
		}
		v = t.st.View(game.Seat(s))
	})
	if err != nil {
		return nil, nil, 0, err
	}
	if e != nil {
		return nil, nil, 0, e
	}
	return t.eng, v, s, nil
}

// Record builds the record of a table from its row and event log.
func Record(meta store.Table, events []record.Entry) *record.Record {
	r := &record.Record{}
	r.Set("Game", meta.Game)
	r.Set("Options", meta.Options)
	for i, s := range meta.Seats {
		r.Set(fmt.Sprintf("Seat%d", i), s.Name)
	}
	r.Set("Date", meta.Created.UTC().Format("2006-01-02"))
	r.Set("Table", meta.ID)
	res := meta.Result
	if res == "" {
		res = "*"
	}
	r.Set("Result", res)
	r.Entries = append([]record.Entry(nil), events...)
	return r
}
