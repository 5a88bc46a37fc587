// Package loadtest drives a running Cardroom server with many tables of
// WebSocket clients playing random legal moves, and measures what a player
// feels: the time from a move's scheduled send to the moment every seat of
// the table has received the resulting state.
//
// Moves follow a fixed timetable per table (move k at start + k/pace), and
// latency is measured from the scheduled time, so a stalled server shows up
// as latency rather than as fewer samples (no coordinated omission).
//
// Against a cluster (Config.URLs: several nodes) each table is created on
// one node, round robin, and its clients connect to the nodes after it, so
// a move crosses between nodes on its way to some seats; the report gives
// every node's counters over the measured window and their sums.
package loadtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cardroom/game"
	"cardroom/games"
	"cardroom/protocol"
)

// Config is one load run.
type Config struct {
	URL      string            // server base URL, http://host:port
	URLs     []string          // the nodes of a cluster (ParseURLs); when set, URL is ignored
	Tables   int               // tables to open
	Clients  int               // WebSocket clients per table: one per seat (4) or 1 holding every seat
	Seats    int               // seats per table (players option); default 4
	Pace     float64           // moves a second per table; 0 = as fast as possible
	Duration time.Duration     // measuring time after setup (and warm-up)
	Warmup   time.Duration     // moves scheduled in this first period are played but not measured
	Game     string            // default papayoo
	Options  map[string]string // game options; default: the longest game (games.Game.Long)
	Setup    int               // concurrent table setups; default 64
	// Reconnect makes a client whose socket is lost during the run (its
	// node killed, or a relayed table's owner gone) dial the next node
	// with its session and join its seats again, as a browser behind a
	// load balancer would, instead of counting an error and leaving its
	// table stalled. A move that gets no answer for StallAfter is given
	// up (counted in Report.Stalled) and the table's timetable goes on,
	// so the pause shows as latency of the moves after it.
	Reconnect  bool
	StallAfter time.Duration // default 10 s; with Reconnect only
	// BotTables opens this many more tables of bots only (BotLevel, default
	// hard, in every seat) before the window: the load of bots playing
	// beside the measured tables (issue 14: the human tables' latency
	// must not suffer). They play as the server lets them (its
	// -bot-delay, its bot pool); the report counts their moves.
	BotTables int
	BotLevel  string
	Progress  io.Writer // progress lines, every 5 s (nil: none)
	// OnWindow, if set, is called when the measured window starts (the
	// end of the warm-up), for a profile or trace of the window only.
	OnWindow func()
}

// Report is the outcome of a run.
type Report struct {
	Tables, Connections       int
	BotTables                 int // tables of bots only playing beside them (Config.BotTables)
	Warmup                    time.Duration
	SetupTime, Elapsed        time.Duration
	Moves                     int64
	MovesPerSec               float64
	Errors, Refused, Finished int64
	// With Config.Reconnect: sockets lost and dialled again, moves given
	// up after StallAfter, and steps gone: a seat shown an earlier step
	// than one it had already been shown, which only a lost acknowledged
	// move can cause (must be 0).
	Reconnects, Stalled, Regressed int64
	FirstError                     string        // what the first error was (a lost socket, an error message, a failed send)
	P50, P99, P999, Max            time.Duration // from the scheduled time to the last seat's update
	SendP50, SendP99               time.Duration // from the actual send
	ServerRSS, ServerHeap          int64         // bytes, from /metrics after the run
	ServerRSSBefore                int64
	ServerConnections              int64
	ServerMoveP99                  float64 // from the server's histogram (bucket bound, seconds)
	// Nodes holds each node's /metrics (one entry per URL; memory after
	// the run, counters over the measured window); Total their sums. The
	// Server* fields above are Total's memory figures.
	Nodes []NodeStats
	Total NodeStats
	// Self is the load tool's own CPU and scheduling delay over the
	// window (self.go).
	Self SelfStats
}

func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "tables %d, connections %d (setup %v)", r.Tables, r.Connections, r.SetupTime.Round(time.Millisecond))
	if r.BotTables > 0 {
		fmt.Fprintf(&b, ", and %d tables of bots only", r.BotTables)
	}
	if r.Warmup > 0 {
		fmt.Fprintf(&b, ", first %v not measured", r.Warmup)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "moves %d in %v: %.0f moves/s (refused %d, errors %d, games finished %d)\n", r.Moves, r.Elapsed.Round(time.Millisecond), r.MovesPerSec, r.Refused, r.Errors, r.Finished)
	if r.Reconnects > 0 || r.Stalled > 0 || r.Regressed > 0 {
		fmt.Fprintf(&b, "reconnected sockets %d, moves given up without an answer %d, steps gone after a reconnect %d\n", r.Reconnects, r.Stalled, r.Regressed)
	}
	if r.Errors > 0 && r.FirstError != "" {
		fmt.Fprintf(&b, "first error: %s\n", r.FirstError)
	}
	fmt.Fprintf(&b, "latency move→every seat updated, from the scheduled time: p50 %v  p99 %v  p99.9 %v  max %v\n", r.P50, r.P99, r.P999, r.Max)
	fmt.Fprintf(&b, "latency from the actual send: p50 %v  p99 %v\n", r.SendP50, r.SendP99)
	if r.Self.CPU > 0 && r.Elapsed > 0 {
		fmt.Fprintf(&b, "load tool, measured window: CPU %.2f s (%.0f%% of a core), its goroutines' wait for a processor p99 %v, max %v\n",
			r.Self.CPU.Seconds(), 100*r.Self.CPU.Seconds()/r.Elapsed.Seconds(), r.Self.SchedP99, r.Self.SchedMax)
	}
	if r.ServerRSS > 0 {
		per := int64(0)
		if r.ServerConnections > 0 {
			per = (r.ServerRSS - r.ServerRSSBefore) / r.ServerConnections
		}
		fmt.Fprintf(&b, "server: RSS %.1f MiB (%.1f MiB before), Go heap %.1f MiB, %d connections: %.1f KiB RSS per connection, %.1f KiB per table\n",
			mib(r.ServerRSS), mib(r.ServerRSSBefore), mib(r.ServerHeap), r.ServerConnections, float64(per)/1024,
			float64(r.ServerRSS-r.ServerRSSBefore)/1024/float64(max(1, r.Tables)))
	}
	if len(r.Nodes) > 0 {
		fmt.Fprintf(&b, "server, measured window: %s\n", r.Total.line(r.Moves))
	}
	if len(r.Nodes) > 1 {
		for _, n := range r.Nodes {
			if n.Down {
				fmt.Fprintf(&b, "node %s: no answer to /metrics after the run (memory left out of the sums above)\n", n.URL)
				continue
			}
			owned := ""
			if n.Owned >= 0 {
				owned = fmt.Sprintf(", %d tables owned", n.Owned)
			}
			fmt.Fprintf(&b, "node %s: RSS %.1f MiB (%.1f MiB before), %d connections%s; %s\n", n.URL, mib(n.RSS), mib(n.RSSBefore), n.Connections, owned, n.line(r.Moves))
		}
	}
	return b.String()
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

// seatState is what a client last saw for one seat.
type seatState struct {
	seq    int
	move   string // a legal move picked at random when the state arrived ("": none)
	status protocol.TableStatus
}

type tableRun struct {
	id    string
	seats int
	conns []*protocol.Client // per seat: the connection holding it (t.mu once the run has started: a reconnect replaces it)

	mu      sync.Mutex
	latest  []seatState
	pending *pendingMove
	pm      pendingMove   // what pending points to while a move is out (one at a time)
	cond    chan struct{} // signalled when state changes

	samples     []time.Duration
	sendSamples []time.Duration
}

type pendingMove struct {
	afterSeq int
	sched    time.Time
	sent     time.Time
	seen     []bool
	left     int
	refused  bool
}

// send writes one message, giving up after 30 s.
func send(ctx context.Context, c *protocol.Client, m protocol.ClientMsg) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return c.Send(ctx, m)
}

// SlowMove is the latency above which the progress lines count a move as
// slow: whether a run's tail is spread over the run or comes in bursts.
const SlowMove = 20 * time.Millisecond

// fail counts an error and keeps the first one's text for the report.
func (r *runner) fail(what string) {
	r.errs.Add(1)
	r.firstErr.CompareAndSwap(nil, &what)
}

type runner struct {
	cfg      Config
	nodes    []string // base URLs: Config.URLs, or Config.URL alone
	client   *http.Client
	moves    atomic.Int64
	slow     atomic.Int64 // measured moves slower than SlowMove (the progress lines)
	errs     atomic.Int64
	firstErr atomic.Pointer[string] // fail's first message
	refused  atomic.Int64
	finished atomic.Int64
	measure  atomic.Bool
	from     atomic.Int64 // unix ns: moves scheduled before are not measured

	reconnects, stalled, regressed atomic.Int64
	redialMu                       sync.Mutex     // orders redials.Add with the end of the run
	redials                        sync.WaitGroup // reconnects under way
}

// startRedial counts a reconnect in, unless the run is over.
func (r *runner) startRedial() bool {
	r.redialMu.Lock()
	defer r.redialMu.Unlock()
	if !r.measure.Load() {
		return false
	}
	r.redials.Add(1)
	return true
}

// clientRun is one WebSocket client of a table: what a reconnect needs.
type clientRun struct {
	k     int    // the client's number in its table
	node  int    // the node it is connected to now
	token string // its session
	seats []int  // the seats it holds
	// cur is the socket whose loss starts a reconnect: nil while one is
	// under way, so that the attempts' own sockets closing start none.
	cur atomic.Pointer[protocol.Client]
	// rejoin receives the answers to its joins while it reconnects (nil
	// for joined, the error otherwise); rejoining routes them there.
	rejoin    chan error
	rejoining atomic.Bool
}

// Bounds of a run's counts: a mistyped count is refused before any
// table is opened (-tables 99999999999 made the tool allocate its tables
// and die of memory; a negative one panicked).
const (
	MaxTables = 100_000
	MaxPace   = 1000 // moves a second per table
	MaxSetup  = 4096
)

// Run performs a load run.
func Run(ctx context.Context, cfg Config) (Report, error) {
	switch {
	case cfg.Tables < 1 || cfg.Tables > MaxTables:
		return Report{}, fmt.Errorf("tables must be 1 to %d, not %d", MaxTables, cfg.Tables)
	case cfg.BotTables < 0 || cfg.BotTables > MaxTables:
		return Report{}, fmt.Errorf("bot tables must be 0 to %d, not %d", MaxTables, cfg.BotTables)
	case !(cfg.Pace >= 0 && cfg.Pace <= MaxPace):
		return Report{}, fmt.Errorf("pace must be 0 (as fast as possible) to %d moves a second, not %v", MaxPace, cfg.Pace)
	case cfg.Setup < 0 || cfg.Setup > MaxSetup:
		return Report{}, fmt.Errorf("setup must be 0 (the default) to %d tables at once, not %d", MaxSetup, cfg.Setup)
	}
	if cfg.Seats <= 0 {
		cfg.Seats = 4
	}
	if cfg.Clients != 1 {
		cfg.Clients = cfg.Seats
	}
	if cfg.Game == "" {
		cfg.Game = games.Names()[0]
	}
	if cfg.Options == nil {
		cfg.Options = map[string]string{}
		// The longest game the engine allows, so games do not end during a run.
		if g, err := games.Get(cfg.Game); err == nil {
			maps.Copy(cfg.Options, g.Long())
		}
	}
	if _, ok := cfg.Options["players"]; !ok {
		cfg.Options["players"] = strconv.Itoa(cfg.Seats)
	}
	if cfg.Setup <= 0 {
		cfg.Setup = 64
	}
	if cfg.Duration <= 0 {
		cfg.Duration = 30 * time.Second
	}
	if cfg.StallAfter <= 0 {
		cfg.StallAfter = 10 * time.Second
	}
	r := &runner{cfg: cfg, nodes: cfg.URLs, client: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 256}}}
	if len(r.nodes) == 0 {
		r.nodes = []string{strings.TrimSuffix(cfg.URL, "/")}
	}
	var rep Report
	before := r.scrapeAll(ctx)

	start := time.Now()
	tables := make([]*tableRun, cfg.Tables)
	sem := make(chan struct{}, cfg.Setup)
	var wg sync.WaitGroup
	var setupErr atomic.Value
	var ready atomic.Int64
	for i := range tables {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			t, err := r.setupTable(ctx, i)
			if err != nil {
				setupErr.Store(err)
				return
			}
			tables[i] = t
			if n := ready.Add(1); cfg.Progress != nil && n%500 == 0 {
				fmt.Fprintf(cfg.Progress, "setup: %d/%d tables ready (%v)\n", n, cfg.Tables, time.Since(start).Round(time.Millisecond))
			}
		}()
		if setupErr.Load() != nil {
			break
		}
	}
	wg.Wait()
	if e := setupErr.Load(); e != nil {
		return rep, fmt.Errorf("setup: %w", e.(error))
	}
	rep.SetupTime = time.Since(start)
	if cfg.BotTables > 0 {
		if err := r.setupBots(ctx); err != nil {
			return rep, fmt.Errorf("bot tables: %w", err)
		}
		rep.BotTables = cfg.BotTables
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, "bot tables: %d of %s bots playing\n", cfg.BotTables, cfg.BotLevel)
		}
	}
	rep.Warmup = cfg.Warmup
	rep.Tables = len(tables)
	for _, t := range tables {
		rep.Connections += len(uniqueConns(t.conns))
	}
	if cfg.Progress != nil {
		fmt.Fprintf(cfg.Progress, "setup done: %d tables, %d connections in %v\n", rep.Tables, rep.Connections, rep.SetupTime.Round(time.Millisecond))
	}

	// Measure.
	runCtx, cancel := context.WithTimeout(ctx, cfg.Warmup+cfg.Duration)
	defer cancel()
	t0 := time.Now()
	r.from.Store(t0.Add(cfg.Warmup).UnixNano())
	r.measure.Store(true)
	// The nodes' counters at the start of the window: now, or at the end
	// of the warm-up (read while the tables play, as the end's are).
	windowStart := make(chan []scrape, 1)
	selfStart := make(chan selfSample, 1)
	startWindow := func() {
		if cfg.OnWindow != nil {
			cfg.OnWindow()
		}
		selfStart <- sampleSelf()
		windowStart <- r.scrapeAll(ctx)
	}
	if cfg.Warmup <= 0 {
		startWindow()
	} else {
		go func() {
			select {
			case <-time.After(cfg.Warmup):
			case <-runCtx.Done():
			}
			startWindow()
		}()
	}
	var dwg sync.WaitGroup
	for i, t := range tables {
		dwg.Add(1)
		go func() {
			defer dwg.Done()
			r.drive(runCtx, t, t0, i)
		}()
	}
	if cfg.Progress != nil {
		go func() {
			tk := time.NewTicker(5 * time.Second)
			defer tk.Stop()
			var last int64
			for {
				select {
				case <-runCtx.Done():
					return
				case <-tk.C:
					n, slow := r.moves.Load(), r.slow.Swap(0)
					re := ""
					if cfg.Reconnect {
						re = fmt.Sprintf("  reconnects %d  given up %d", r.reconnects.Load(), r.stalled.Load())
					}
					fmt.Fprintf(cfg.Progress, "%5.0fs  moves %d  (%.0f/s)  over %v %d  refused %d  errors %d%s\n", time.Since(t0).Seconds(), n, float64(n-last)/5, SlowMove, slow, r.refused.Load(), r.errs.Load(), re)
					last = n
				}
			}
		}()
	}
	dwg.Wait()
	selfEnd := sampleSelf()
	rep.Elapsed = time.Since(t0) - cfg.Warmup
	r.redialMu.Lock()
	r.measure.Store(false)
	r.redialMu.Unlock()
	r.redials.Wait() // they give up once the run is over
	rep.Moves = r.moves.Load()
	rep.Reconnects, rep.Stalled, rep.Regressed = r.reconnects.Load(), r.stalled.Load(), r.regressed.Load()
	// The nodes' counters after the tool has stopped counting: every move
	// it counted is in them (and perhaps a few still on their way).
	end := r.scrapeAll(ctx)
	rep.MovesPerSec = float64(rep.Moves) / rep.Elapsed.Seconds()
	rep.Errors, rep.Refused, rep.Finished = r.errs.Load(), r.refused.Load(), r.finished.Load()
	if p := r.firstErr.Load(); p != nil {
		rep.FirstError = *p
	}
	var all, sendAll []time.Duration
	for _, t := range tables {
		t.mu.Lock()
		all = append(all, t.samples...)
		sendAll = append(sendAll, t.sendSamples...)
		t.mu.Unlock()
	}
	slices.Sort(all)
	slices.Sort(sendAll)
	rep.P50, rep.P99, rep.P999 = quantile(all, 0.5), quantile(all, 0.99), quantile(all, 0.999)
	if len(all) > 0 {
		rep.Max = all[len(all)-1]
	}
	rep.SendP50, rep.SendP99 = quantile(sendAll, 0.5), quantile(sendAll, 0.99)
	rep.Nodes = nodeStats(r.nodes, before, <-windowStart, end)
	rep.Self = selfStats(<-selfStart, selfEnd)
	rep.Total = sumNodes(rep.Nodes)
	rep.ServerRSS, rep.ServerRSSBefore, rep.ServerHeap, rep.ServerConnections = rep.Total.RSS, rep.Total.RSSBefore, rep.Total.Heap, rep.Total.Connections
	for _, t := range tables {
		t.mu.Lock()
		cs := uniqueConns(t.conns)
		t.mu.Unlock()
		for _, c := range cs {
			c.Close()
		}
	}
	return rep, nil
}

func uniqueConns(cs []*protocol.Client) []*protocol.Client {
	var out []*protocol.Client
	for _, c := range cs {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

func quantile(xs []time.Duration, q float64) time.Duration {
	if len(xs) == 0 {
		return 0
	}
	i := int(q * float64(len(xs)))
	if i >= len(xs) {
		i = len(xs) - 1
	}
	return xs[i]
}

// dial opens a session and a WebSocket on one node: the session is made
// where the socket goes, so a single node needs nothing of a cluster (and
// in a cluster the shared store makes it valid everywhere anyway).
func (r *runner) dial(ctx context.Context, base, name string) (*protocol.Client, string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	sess, err := protocol.NewSession(ctx, r.client, base, name)
	if err != nil {
		return nil, "", fmt.Errorf("session on %s: %w", base, err)
	}
	c, err := r.dialToken(ctx, base, sess.Token)
	return c, sess.Token, err
}

func (r *runner) dialToken(ctx context.Context, base, token string) (*protocol.Client, error) {
	return protocol.Dial(ctx, base, &protocol.Options{Token: token, HTTPClient: r.client, ReadLimit: 1 << 22})
}

// setupTable creates the sessions and connections of one table, creates
// the table and seats everyone; the game starts when the last seat fills.
// Client k of table i is on node nodeFor(i, k): client 0 creates the table.
// setupBots opens Config.BotTables tables of bots only, each created by
// a session of its own (a player may own only a couple of bots-only
// games), round robin over the nodes; the creators' sockets close once
// the tables run: nobody watches them.
func (r *runner) setupBots(ctx context.Context) error {
	level := r.cfg.BotLevel
	if level == "" {
		level = "hard"
	}
	bots := map[string]string{}
	for s := range r.cfg.Seats {
		bots[strconv.Itoa(s)] = level
	}
	sem := make(chan struct{}, r.cfg.Setup)
	var wg sync.WaitGroup
	var first atomic.Value
	for i := range r.cfg.BotTables {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			if err := r.botTable(ctx, i, bots); err != nil {
				first.CompareAndSwap(nil, err)
			}
		})
	}
	wg.Wait()
	if err, _ := first.Load().(error); err != nil {
		return err
	}
	return nil
}

func (r *runner) botTable(ctx context.Context, i int, bots map[string]string) error {
	c, _, err := r.dial(ctx, r.nodes[i%len(r.nodes)], fmt.Sprintf("bots%d", i))
	if err != nil {
		return err
	}
	defer c.Close()
	if err := send(ctx, c, protocol.CreateReq{Game: r.cfg.Game, Options: r.cfg.Options, Bots: bots}); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		m, _, err := c.Next(ctx)
		if err != nil {
			return err
		}
		switch m := m.(type) {
		case *protocol.CreatedMsg:
			return nil
		case *protocol.ErrorMsg:
			return m
		}
	}
}

func (r *runner) setupTable(ctx context.Context, i int) (*tableRun, error) {
	n := r.cfg.Seats
	t := &tableRun{seats: n, conns: make([]*protocol.Client, n), latest: make([]seatState, n), cond: make(chan struct{}, 1)}
	for s := range t.latest {
		t.latest[s].seq = -1
	}
	nc := r.cfg.Clients
	clients := make([]*protocol.Client, nc)
	runs := make([]*clientRun, nc)
	for k := range clients {
		node := nodeFor(i, k, len(r.nodes))
		c, token, err := r.dial(ctx, r.nodes[node], fmt.Sprintf("load%d-%d", i, k))
		if err != nil {
			return nil, err
		}
		clients[k] = c
		runs[k] = &clientRun{k: k, node: node, token: token, rejoin: make(chan error, n)}
		runs[k].cur.Store(c)
	}
	for s := range t.conns {
		t.conns[s] = clients[s%nc]
		runs[s%nc].seats = append(runs[s%nc].seats, s)
	}
	// Replies during setup arrive on the readers.
	created := make(chan createAnswer, 1)
	joined := make(chan error, n)
	for k, c := range clients {
		go r.read(t, c, runs[k], created, joined)
	}
	seat0 := game.Seat(0)
	if err := send(ctx, clients[0], protocol.CreateReq{Game: r.cfg.Game, Options: r.cfg.Options, Seat: &seat0}); err != nil {
		return nil, err
	}
	select {
	case a := <-created:
		if a.err != nil {
			// (The server's per-address bounds refuse a load run's
			// tables unless it is started without them: docs/server.md.)
			return nil, fmt.Errorf("create refused: %s: %s", a.err.Code, a.err.Message)
		}
		if a.id == "" {
			return nil, errors.New("create refused")
		}
		t.mu.Lock()
		t.id = a.id
		t.mu.Unlock()
	case <-time.After(30 * time.Second):
		return nil, errors.New("no answer to create")
	}
	for s := 1; s < n; s++ {
		seat := game.Seat(s)
		if err := send(ctx, t.conns[s], protocol.JoinReq{Table: t.id, Seat: &seat}); err != nil {
			return nil, err
		}
		select {
		case err := <-joined:
			if err != nil {
				return nil, err
			}
		case <-time.After(30 * time.Second):
			return nil, errors.New("no answer to join")
		}
	}
	return t, nil
}

// createAnswer is the answer to a table's create: its id, or the refusal.
type createAnswer struct {
	id  string
	err *protocol.ErrorMsg
}

// read consumes one connection's messages and updates the table's view.
// It decodes a state's head only (protocol.DecodeStateHead): the view is
// scanned, not built.
// With Config.Reconnect, a socket lost during the run starts a reconnect.
func (r *runner) read(t *tableRun, c *protocol.Client, cr *clientRun, created chan createAnswer, joined chan error) {
	ctx := context.Background()
	owner := cr.k == 0
	var buf []byte // reused: each message is done with before the next
	for {
		in, err := c.RecvInto(ctx, buf)
		buf = in.Raw
		if err != nil {
			if in.Raw != nil {
				continue // not a message
			}
			if r.measure.Load() {
				if r.cfg.Reconnect {
					if cr.cur.CompareAndSwap(c, nil) && r.startRedial() {
						go r.reconnect(t, cr, err)
					}
				} else {
					r.fail("socket lost: " + err.Error())
				}
			}
			return
		}
		now := time.Now()
		switch in.Type {
		case protocol.TypeCreated:
			var m protocol.CreatedMsg
			json.Unmarshal(in.Raw, &m)
			if owner {
				select {
				case created <- createAnswer{id: m.Table}:
				default:
				}
			}
		case protocol.TypeJoined:
			if cr.rejoining.Load() {
				select {
				case cr.rejoin <- nil:
				default:
				}
				continue
			}
			select {
			case joined <- nil:
			default:
			}
		case protocol.TypeError:
			var m protocol.ErrorMsg
			json.Unmarshal(in.Raw, &m)
			if cr.rejoining.Load() {
				select {
				case cr.rejoin <- &m:
				default:
				}
				continue
			}
			if owner {
				// A refused create: setupTable says why (it waited 30 s
				// and said "no answer").
				t.mu.Lock()
				creating := t.id == ""
				t.mu.Unlock()
				if creating {
					select {
					case created <- createAnswer{err: &m}:
					default:
					}
					continue
				}
			}
			switch {
			case m.Code == protocol.Busy || m.Code == protocol.Illegal || m.Code == protocol.NotYourTurn || m.Code == protocol.GameOver:
				r.refused.Add(1)
			case m.Code == protocol.Unavailable && r.cfg.Reconnect:
				// A table between owners refuses with unavailable: expected
				// while a failover is tried (and then also a failing store's
				// refusal: -reconnect runs count both as refused).
				r.refused.Add(1)
			default:
				r.fail(fmt.Sprintf("error %s: %s", m.Code, m.Message))
			}
			t.mu.Lock()
			if t.pending != nil {
				t.pending.refused = true
			}
			t.mu.Unlock()
			select {
			case joined <- &m:
			default:
			}
			t.signal()
		case protocol.TypeState:
			h, err := protocol.DecodeStateHeadRaw(in.Raw)
			if err != nil || h.Seat < 0 || int(h.Seat) >= t.seats {
				continue
			}
			move := ""
			if n := protocol.LegalLen(h.LegalRaw); n > 0 {
				move, _ = protocol.LegalAt(h.LegalRaw, rand.IntN(n))
			}
			t.mu.Lock()
			ls := &t.latest[h.Seat]
			if h.Seq >= ls.seq {
				ls.seq, ls.move, ls.status = h.Seq, move, h.Status
			} else {
				// A seat's states arrive in order on a socket, and a new
				// socket's first view is the table's current one: an
				// earlier step than one already shown means a shown (so
				// committed and acknowledged) step is gone.
				r.regressed.Add(1)
				r.fail(fmt.Sprintf("table %s seat %d: step %d shown after step %d", t.id, h.Seat, h.Seq, ls.seq))
				ls.seq, ls.move, ls.status = h.Seq, move, h.Status
			}
			if p := t.pending; p != nil && h.Seq > p.afterSeq && !p.seen[h.Seat] {
				p.seen[h.Seat] = true
				p.left--
				if p.left == 0 {
					if r.measure.Load() && p.sched.UnixNano() >= r.from.Load() {
						d := now.Sub(p.sched)
						t.samples = append(t.samples, d)
						t.sendSamples = append(t.sendSamples, now.Sub(p.sent))
						r.moves.Add(1)
						if d > SlowMove {
							r.slow.Add(1)
						}
					}
					t.pending = nil
				}
			}
			t.mu.Unlock()
			t.signal()
		}
	}
}

func (t *tableRun) signal() {
	select {
	case t.cond <- struct{}{}:
	default:
	}
}

// drive plays the table's moves on its timetable.
func (r *runner) drive(ctx context.Context, t *tableRun, t0 time.Time, i int) {
	rng := rand.New(rand.NewPCG(uint64(i), 7))
	// One timer for all the driver's waits: a new one a move (time.After)
	// was the tool's own garbage at 10,000 moves a second. (Since Go 1.23
	// a Reset timer delivers nothing stale.)
	tm := time.NewTimer(time.Hour)
	defer tm.Stop()
	after := func(d time.Duration) <-chan time.Time {
		tm.Reset(d)
		return tm.C
	}
	var interval time.Duration
	var next time.Time
	if r.cfg.Pace > 0 {
		interval = time.Duration(float64(time.Second) / r.cfg.Pace)
		// Spread the tables over the first interval.
		next = t0.Add(time.Duration(rng.Int64N(int64(interval))))
	}
	for ctx.Err() == nil {
		if r.cfg.Pace > 0 {
			if d := time.Until(next); d > 0 {
				select {
				case <-ctx.Done():
					return
				case <-after(d):
				}
			}
		}
		sched := next
		if r.cfg.Pace <= 0 {
			sched = time.Now()
		}
		// Wait until the previous move is seen by every seat and some seat
		// can move at the latest step.
		seat, mv, seq, over := -1, "", 0, false
		for ctx.Err() == nil {
			t.mu.Lock()
			if p := t.pending; r.cfg.Reconnect && p != nil && !p.refused && time.Since(p.sent) > r.cfg.StallAfter {
				// No answer for StallAfter: the move was lost with its socket
				// or its owner. Give it up and go on from what the seats see.
				r.stalled.Add(1)
				t.pending = nil
			}
			if t.pending == nil || t.pending.refused {
				t.pending = nil
				maxSeq := -1
				for _, s := range t.latest {
					maxSeq = max(maxSeq, s.seq)
				}
				for s, ls := range t.latest {
					if ls.status == "finished" {
						over = true
					}
					if ls.seq == maxSeq && ls.move != "" && ls.status == "playing" {
						seat, mv, seq = s, ls.move, maxSeq
						break
					}
				}
			}
			if seat >= 0 || over {
				if seat >= 0 {
					seen := t.pm.seen
					if len(seen) != t.seats {
						seen = make([]bool, t.seats)
					}
					clear(seen)
					t.pm = pendingMove{afterSeq: seq, sched: sched, sent: time.Now(), seen: seen, left: t.seats}
					t.pending = &t.pm
				}
				t.mu.Unlock()
				break
			}
			t.mu.Unlock()
			select {
			case <-ctx.Done():
				return
			case <-t.cond:
			case <-after(time.Second):
			}
		}
		if over {
			r.finished.Add(1)
			return // a finished game: this table stops (use many rounds)
		}
		if seat < 0 {
			return
		}
		gs := game.Seat(seat)
		t.mu.Lock()
		c := t.conns[seat]
		t.mu.Unlock()
		// The run's end must not cut a write in half: the WebSocket
		// library closes a socket whose write's context ends, and its
		// reader would then count a lost socket.
		if err := send(context.WithoutCancel(ctx), c, protocol.MoveReq{Table: t.id, Seat: &gs, Move: mv}); err != nil {
			if ctx.Err() != nil {
				return
			}
			if r.cfg.Reconnect {
				// The socket is lost and being replaced: the move did not
				// leave. Try again (on the same slot of the timetable, so
				// the wait shows as latency) once a socket changes.
				t.mu.Lock()
				if t.pending != nil && !t.pending.refused {
					t.pending = nil
				}
				t.mu.Unlock()
				select {
				case <-ctx.Done():
					return
				case <-t.cond:
				case <-after(100 * time.Millisecond):
				}
				continue
			}
			r.fail("send: " + err.Error())
			return
		}
		if r.cfg.Pace > 0 {
			next = next.Add(interval)
		} else {
			// As fast as possible: wait for this move to reach every seat.
			for ctx.Err() == nil {
				t.mu.Lock()
				done := t.pending == nil || t.pending.refused
				t.mu.Unlock()
				if done {
					break
				}
				select {
				case <-ctx.Done():
				case <-t.cond:
				case <-after(time.Second):
				}
			}
		}
	}
}

// reconnect replaces a client's lost socket: it dials the nodes after
// the one it was on, in turn, with the client's session, and joins its
// seats again (a join of one's own seat is a reconnection: it answers with
// the seat's current view), retrying while the table has no owner yet.
// It gives up, counting an error, when the run ends or after a minute.
func (r *runner) reconnect(t *tableRun, cr *clientRun, lost error) {
	defer r.redials.Done()
	r.reconnects.Add(1)
	deadline := time.Now().Add(time.Minute)
	for attempt := 1; ; attempt++ {
		if !r.measure.Load() {
			return
		}
		if time.Now().After(deadline) {
			r.fail(fmt.Sprintf("reconnect after %v: gave up after a minute", lost))
			return
		}
		time.Sleep(min(time.Duration(attempt)*100*time.Millisecond, time.Second))
		node := (cr.node + attempt) % len(r.nodes)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		c, err := r.dialToken(ctx, r.nodes[node], cr.token)
		cancel()
		if err != nil {
			continue
		}
		// Drain answers to an earlier attempt's joins, then join again.
		for len(cr.rejoin) > 0 {
			<-cr.rejoin
		}
		cr.rejoining.Store(true)
		cr.cur.Store(c)
		go r.read(t, c, cr, nil, nil)
		ok := true
		for _, s := range cr.seats {
			seat := game.Seat(s)
			if err := send(context.Background(), c, protocol.JoinReq{Table: t.id, Seat: &seat}); err != nil {
				ok = false
				break
			}
			select {
			case err := <-cr.rejoin:
				ok = ok && err == nil
			case <-time.After(10 * time.Second):
				ok = false
			}
			if !ok {
				break
			}
		}
		cr.rejoining.Store(false)
		if !ok {
			// Take the socket back from its reader before closing it, so
			// that the close starts no second reconnect; if the reader took
			// it first (the socket died by itself), its reconnect goes on.
			mine := cr.cur.CompareAndSwap(c, nil)
			c.Close()
			if !mine {
				return
			}
			continue
		}
		cr.node = node
		t.mu.Lock()
		for _, s := range cr.seats {
			t.conns[s] = c
		}
		t.mu.Unlock()
		t.signal()
		return
	}
}
