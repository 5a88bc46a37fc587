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
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"cardroom/bot"
	"cardroom/bot/pool"
	"cardroom/game"
	"cardroom/games"
	"cardroom/protocol"
	"cardroom/record"
	"cardroom/store"
)

// Error is a refusal with a protocol error code.
type Error struct {
	Code protocol.Code
	Msg  string
	// Limit names the limit of a rate_limited refusal (the server's
	// quotas), for clients to say in their player's language.
	Limit *protocol.Limit
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Msg }

func errorf(code protocol.Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// ErrBusy is returned when a table's command queue is full.
var ErrBusy = &Error{Code: protocol.Busy, Msg: "the table is busy; retry"}

// ErrTimeout is returned when a command waited too long for the table and
// was withdrawn before it ran: nothing was changed.
var ErrTimeout = &Error{Code: protocol.Busy, Msg: "the table did not answer in time; nothing was changed: retry"}

func unavailable(what string, err error) *Error {
	return errorf(protocol.Unavailable, "%s could not be stored (%v); nothing was changed: retry later", what, err)
}

// ErrStopped is returned when the table no longer runs.
var ErrStopped = &Error{Code: protocol.NoTable, Msg: "the table is closed"}

// Subscriber is one connection watching a table. Send must not block: it
// queues msg and reports false when the connection cannot keep up (the
// table then forgets the subscriber).
type Subscriber interface {
	Player() string
	Send(msg []byte) bool
}

// A Queuer is a Subscriber that can hold a table's messages until the
// table has handled its event: Queue queues msg without starting a write
// (false as Send's), and Flush writes what is queued. The table flushes
// each subscriber it queued to when the event is handled, so a move's
// messages (the mover's ack and each seat's state) leave in one write per
// connection, made by the goroutine running the table's event when the
// socket takes them at once (server's conn: no writer goroutine is woken).
type Queuer interface {
	Subscriber
	Queue(msg []byte) bool
	// Flush reports whether the subscriber now holds none of the messages
	// it was given (all written, none waiting): the table may then reuse
	// their memory. false is always safe.
	Flush() bool
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
	// TrickPause is the least pause before the next bot move after a
	// trick closes, a round or hand ends or a chain is drawn, while
	// someone watches (table/history.go). 0: none.
	TrickPause time.Duration
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
	// PausedTTL ends a game that has been paused for this long because
	// every human left (empty.go): it bounds how long games nobody comes
	// back to hold memory and places. Default 2 h; negative: never.
	PausedTTL time.Duration
	// MaxSteps bounds a game's log: a game that reaches it unfinished is
	// ended unfinished (result "*", as an abandoned one). The rules bound
	// no game's length (500 Rum's totals may fall for ever: five players
	// with one deck, played at random, never reach the target; a Pis
	// Yedili hand of random play took 68,000 steps), and a table of bots
	// would otherwise spend CPU and disk for ever. Default 100,000, far
	// past any game people play (a 100-hand Pis Yedili game, a 100-round
	// Papayoo game: under 30,000); negative: none.
	MaxSteps int
	// StoreTimeout bounds one write to the store (a step, or the seats);
	// an append that has reached the store is always waited for, so a step
	// is either committed and acknowledged or refused and not committed.
	// Default 30 s.
	StoreTimeout time.Duration
	// Pool runs bot decisions (the server shares one among its tables and
	// its hints). Nil: each decision runs in a goroutine of its own, with no
	// bound (tests and tools).
	Pool *pool.Pool
	// OnChange is called (by the goroutine running the table's event; it must not block)
	// when the table's summary changes.
	OnChange func(s *Summary)
	// OnStop is called when the table stops (Done).
	OnStop func(id string)
	// BotAccount reports whether a player is a bot account, to mark its
	// seats (SeatInfo.BotAccount). Called while the table's event runs: it
	// must not block. Nil: no seat is marked.
	BotAccount func(player string) bool
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
	if c.MaxSteps == 0 {
		c.MaxSteps = 100_000
	}
	if c.MaxLegal <= 0 {
		c.MaxLegal = 2000
	}
	if c.OpenTTL == 0 {
		c.OpenTTL = 30 * time.Minute
	}
	if c.PausedTTL == 0 {
		c.PausedTTL = 2 * time.Hour
	}
	if c.StoreTimeout <= 0 {
		c.StoreTimeout = 30 * time.Second
	}
}

// Table is one running table.
type Table struct {
	id      string
	cfg     Config
	mb      mailbox // the events waiting to run (mailbox.go)
	ctx     context.Context
	cancel  context.CancelFunc
	stopped chan struct{}
	summary atomicSummary
	// unfinished is set, before the finished summary is published, when
	// the game was ended unfinished (endEmpty): nobody played it out.
	unfinished atomic.Bool

	// Safe from any goroutine: the steps a bot chose for a player.
	standInMarks standIns // standin.go

	// Owned by the goroutine running the table's events (mailbox.go):
	meta      store.Table
	eng       game.Engine
	st        game.State
	log       eventLog // the event log (log.go)
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
	unflushed []Queuer     // queued to during the event being handled (send)
	msgBufs   []*[]byte    // the event's broadcast messages, from msgPool (flush)
	msgKept   bool         // a subscriber may hold one of the event's messages (send, flush)
	optsJSON  []byte       // opts marshalled (commonJSON)
	seatsJSON []byte       // seatsSent marshalled (commonJSON)
	seatsSent []SeatInfo
	metaDirty bool      // t.meta's last change is not stored yet (retried by tick)
	openIdle  time.Time // an open table: since when nothing has kept it alive (OpenTTL)
	quit      bool      // leave the run loop (a closed table)

	// The appends' deadline, renewed after sctxRenew (storeCtx).
	sctx       context.Context
	sctxCancel context.CancelFunc
	sctxRenew  time.Time

	// Empty tables (empty.go): since when no seated human has been
	// connected to a game in progress, whether the bots are paused for it,
	// and the timer of the grace period.
	emptySince  time.Time
	emptyPaused bool
	pausedAt    time.Time
	emptyTimer  *time.Timer

	// The move history and the pacing of bots (history.go).
	hist       tableHistory // the public move history
	pauseUntil time.Time    // no bot move before then (Config.TrickPause)

	// Departures (Unsubscribe) have their own queue so that a flood of
	// commands can never delay or lose one.
	leaveMu sync.Mutex
	leaving []Subscriber
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
		return nil, errorf(protocol.UnknownGame, "%v", err)
	}
	opts, err := game.ParseOptions(meta.Options)
	if err != nil {
		return nil, errorf(protocol.BadOptions, "%v", err)
	}
	st, err := eng.New(opts)
	if err != nil {
		return nil, errorf(protocol.BadOptions, "%v", err)
	}
	meta.Options = st.Options().String()
	seats := make([]store.Seat, st.Seats())
	copy(seats, meta.Seats)
	meta.Seats = seats
	for i, s := range meta.Seats {
		if s.Bot != "" {
			if _, err := bot.New(s.Bot, 0); err != nil {
				return nil, errorf(protocol.BadLevel, "seat %d: %v", i, err)
			}
			meta.Seats[i].Name = "bot:" + s.Bot
			meta.Seats[i].Player, meta.Seats[i].Account = "", false
		}
	}
	if meta.BotLevel == "" {
		meta.BotLevel = "random"
	}
	if _, err := bot.New(meta.BotLevel, 0); err != nil {
		return nil, errorf(protocol.BadLevel, "%v", err)
	}
	if meta.Status == "" {
		meta.Status = store.StatusOpen
	}
	if err := CheckWhenEmpty(meta.WhenEmpty); err != nil {
		return nil, err
	}
	if meta.Created.IsZero() {
		meta.Created = time.Now().UTC()
	}
	if err := cfg.Store.CreateTable(ctx, meta); err != nil {
		return nil, fmt.Errorf("store table: %w", err)
	}
	t := newTable(cfg, meta, eng, st, nil)
	t.start()
	// Wait for the table's start (a full table starts its game there),
	// so the returned summary is current.
	t.do(ctx, func() {})
	return t, nil
}

// Restore rebuilds a table from its stored row and event log and starts it.
func Restore(cfg Config, meta store.Table, events []record.Entry) (*Table, error) {
	eng, st, seats, err := prepare(meta, events)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", meta.ID, err)
	}
	meta.Seats = seats
	t := newTable(cfg, meta, eng, st, events)
	t.start()
	return t, nil
}

// Verify is what Restore checks of a stored table, without starting it
// (cardroom doctor judges a table by it): its log replays, and its seat
// rows fit its game.
func Verify(meta store.Table, events []record.Entry) error {
	_, _, _, err := prepare(meta, events)
	return err
}

// prepare is Restore before the table starts: the engine, the state the
// log replays to, and the seat rows fitted to the game's seats. Rows past
// them no server writes, so the row is damaged: empty ones are dropped, a
// taken one refuses the table (the caller quarantines it) rather than
// being served.
func prepare(meta store.Table, events []record.Entry) (game.Engine, game.State, []store.Seat, error) {
	eng, err := games.Lookup(meta.Game)
	if err != nil {
		return nil, nil, nil, err
	}
	st, err := replay(eng, meta.Options, events)
	if err != nil {
		return nil, nil, nil, err
	}
	seats := slices.Clone(meta.Seats)
	for len(seats) < st.Seats() {
		seats = append(seats, store.Seat{})
	}
	for len(seats) > st.Seats() {
		last := seats[len(seats)-1]
		if last.Player != "" || last.Bot != "" {
			return nil, nil, nil, fmt.Errorf("seat %d is taken but the game has %d seats", len(seats)-1, st.Seats())
		}
		seats = seats[:len(seats)-1]
	}
	return eng, st, seats, nil
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
		ctx:     ctx,
		cancel:  cancel,
		stopped: make(chan struct{}),
		meta:    meta, eng: eng, st: st,
		log:      newEventLog(events),
		subs:     map[Subscriber]struct{}{},
		presence: map[string]int{},
		seats:    make([]seatState, st.Seats()),
		legal:    make([]legalCache, st.Seats()),
	}
	t.opts, _ = game.ParseOptions(meta.Options)
	t.standInMarks.since = len(events) // standin.go: steps made before this table ran
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

// EndedUnfinished reports whether the game was ended before its end:
// its humans had gone (when_empty "end", or -paused-ttl), or it reached
// Config.MaxSteps. Its summary says finished, and nobody played it out.
// Safe from any goroutine.
func (t *Table) EndedUnfinished() bool { return t.unfinished.Load() }

// Done is closed when the table has stopped: no event runs any more.
func (t *Table) Done() <-chan struct{} { return t.stopped }

// Stop stops the table (the log is already durable) and waits until it
// has: an event running ends first.
func (t *Table) Stop() {
	t.cancel() // a bot's decision need not go on
	t.deliver(event{kind: stepEnd}, false)
	<-t.stopped
}

// start runs the table's first event, on a goroutine of its own.
func (t *Table) start() {
	t.cfg.Metrics.Tables.Add(1)
	if t.meta.Status == store.StatusPlaying {
		t.cfg.Metrics.Playing.Add(1)
	}
	t.newTimers()
	t.deliver(event{kind: stepStart}, false)
}

// do runs f as the table's event and waits for it: on the caller's
// goroutine if the table is idle (mailbox.go). A full queue is ErrBusy.
// If ctx ends while f is still queued, f is withdrawn (it will never run)
// and do returns ErrTimeout; once f has started, do waits for it to
// finish whatever ctx says, so a caller is never told "failed" about a
// command that was carried out.
func (t *Table) do(ctx context.Context, f func()) error {
	const queued, running, withdrawn = 0, 1, 2
	var state atomic.Int32
	done := make(chan struct{})
	cmd := func() {
		if !state.CompareAndSwap(queued, running) {
			return // the caller gave up before it ran
		}
		// Not deferred: an f that panicked (or ended its goroutine) did
		// not finish, and its caller must not take it for done: the
		// table stops (drain), and the caller gets ErrStopped.
		f()
		close(done)
	}
	if err := t.deliver(event{kind: stepCmd, f: cmd}, true); err != nil {
		return err
	}
	// stopped: the table has ended, so f either ran to its end (done is
	// closed) or never started.
	stopped := func() error {
		select {
		case <-done:
			return nil
		default:
			return ErrStopped
		}
	}
	select {
	case <-done:
		return nil
	case <-t.stopped:
		return stopped()
	case <-ctx.Done():
		if state.CompareAndSwap(queued, withdrawn) {
			return ErrTimeout
		}
		select {
		case <-done:
			return nil
		case <-t.stopped:
			return stopped()
		}
	}
}

// post queues f without waiting for it (a goroutine is started to run it
// when the table is idle). A full queue is ErrBusy.
func (t *Table) post(f func()) error {
	return t.deliver(event{kind: stepCmd, f: f}, false)
}

// runOrPost runs f on the caller's goroutine when the table is idle (and
// whatever else comes meanwhile), else queues it without waiting. A full
// queue is ErrBusy.
func (t *Table) runOrPost(f func()) error {
	return t.deliver(event{kind: stepCmd, f: f}, true)
}

// handle handles one event (mailbox.go) and reports whether the table
// must stop.
func (t *Table) handle(kind stepKind, f func(), r botResult) (stop bool) {
	switch kind {
	case stepEnd:
		return true
	case stepStart:
		if t.meta.Status == store.StatusPlaying {
			t.advance()
		} else if t.meta.Status == store.StatusOpen && t.full() {
			t.startFull()
		}
		t.checkEmpty()
		t.scheduleOrWait()
		return false
	case stepLeave:
		t.departures()
	case stepCmd:
		f()
	case stepBot:
		if t.emptyPaused {
			t.dropBot(r) // decided before the pause: the position waits
		} else {
			t.onBot(r)
		}
	case stepTick:
		t.tick()
	case stepEmpty:
		t.checkEmpty()
	}
	if t.quit || t.lingered() {
		return true
	}
	t.scheduleOrWait()
	return false
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
