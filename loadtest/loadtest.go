// Package loadtest drives a running Cardroom server with many tables of
// WebSocket clients playing random legal moves, and measures what a player
// feels: the time from a move's scheduled send to the moment every seat of
// the table has received the resulting state.
//
// Moves follow a fixed timetable per table (move k at start + k/pace), and
// latency is measured from the scheduled time, so a stalled server shows up
// as latency rather than as fewer samples (no coordinated omission).
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
	Tables   int               // tables to open
	Clients  int               // WebSocket clients per table: one per seat (4) or 1 holding every seat
	Seats    int               // seats per table (players option); default 4
	Pace     float64           // moves a second per table; 0 = as fast as possible
	Duration time.Duration     // measuring time after setup (and warm-up)
	Warmup   time.Duration     // moves scheduled in this first period are played but not measured
	Game     string            // default papayoo
	Options  map[string]string // game options; default: the longest game (games.Game.Long)
	Setup    int               // concurrent table setups; default 64
	Progress io.Writer         // progress lines, every 5 s (nil: none)
}

// Report is the outcome of a run.
type Report struct {
	Tables, Connections       int
	Warmup                    time.Duration
	SetupTime, Elapsed        time.Duration
	Moves                     int64
	MovesPerSec               float64
	Errors, Refused, Finished int64
	FirstError                string        // what the first error was (a lost socket, an error message, a failed send)
	P50, P99, P999, Max       time.Duration // from the scheduled time to the last seat's update
	SendP50, SendP99          time.Duration // from the actual send
	ServerRSS, ServerHeap     int64         // bytes, from /metrics after the run
	ServerRSSBefore           int64
	ServerConnections         int64
	ServerMoveP99             float64 // from the server's histogram (bucket bound, seconds)
}

func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "tables %d, connections %d (setup %v)", r.Tables, r.Connections, r.SetupTime.Round(time.Millisecond))
	if r.Warmup > 0 {
		fmt.Fprintf(&b, ", first %v not measured", r.Warmup)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "moves %d in %v: %.0f moves/s (refused %d, errors %d, games finished %d)\n", r.Moves, r.Elapsed.Round(time.Millisecond), r.MovesPerSec, r.Refused, r.Errors, r.Finished)
	if r.Errors > 0 && r.FirstError != "" {
		fmt.Fprintf(&b, "first error: %s\n", r.FirstError)
	}
	fmt.Fprintf(&b, "latency move→every seat updated, from the scheduled time: p50 %v  p99 %v  p99.9 %v  max %v\n", r.P50, r.P99, r.P999, r.Max)
	fmt.Fprintf(&b, "latency from the actual send: p50 %v  p99 %v\n", r.SendP50, r.SendP99)
	if r.ServerRSS > 0 {
		per := int64(0)
		if r.ServerConnections > 0 {
			per = (r.ServerRSS - r.ServerRSSBefore) / r.ServerConnections
		}
		fmt.Fprintf(&b, "server: RSS %.1f MiB (%.1f MiB before), Go heap %.1f MiB, %d connections: %.1f KiB RSS per connection, %.1f KiB per table\n",
			mib(r.ServerRSS), mib(r.ServerRSSBefore), mib(r.ServerHeap), r.ServerConnections, float64(per)/1024,
			float64(r.ServerRSS-r.ServerRSSBefore)/1024/float64(max(1, r.Tables)))
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
	conns []*protocol.Client // per seat: the connection holding it

	mu      sync.Mutex
	latest  []seatState
	pending *pendingMove
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

// fail counts an error and keeps the first one's text for the report.
func (r *runner) fail(what string) {
	r.errs.Add(1)
	r.firstErr.CompareAndSwap(nil, &what)
}

type runner struct {
	cfg      Config
	client   *http.Client
	moves    atomic.Int64
	errs     atomic.Int64
	firstErr atomic.Pointer[string] // fail's first message
	refused  atomic.Int64
	finished atomic.Int64
	measure  atomic.Bool
	from     atomic.Int64 // unix ns: moves scheduled before are not measured
}

// Run performs a load run.
func Run(ctx context.Context, cfg Config) (Report, error) {
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
	r := &runner{cfg: cfg, client: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 256}}}
	var rep Report
	rep.ServerRSSBefore, _, _ = r.serverMem(ctx)

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
					n := r.moves.Load()
					fmt.Fprintf(cfg.Progress, "%5.0fs  moves %d  (%.0f/s)  refused %d  errors %d\n", time.Since(t0).Seconds(), n, float64(n-last)/5, r.refused.Load(), r.errs.Load())
					last = n
				}
			}
		}()
	}
	dwg.Wait()
	rep.Elapsed = time.Since(t0) - cfg.Warmup
	r.measure.Store(false)
	rep.Moves = r.moves.Load()
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
	rep.ServerRSS, rep.ServerHeap, rep.ServerConnections = r.serverMem(ctx)
	for _, t := range tables {
		for _, c := range uniqueConns(t.conns) {
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

func (r *runner) serverMem(ctx context.Context) (rss, heap, conns int64) {
	req, _ := http.NewRequestWithContext(ctx, "GET", r.cfg.URL+"/metrics", nil)
	resp, err := r.client.Do(req)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) != 2 {
			continue
		}
		v, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case "process_resident_memory_bytes":
			rss = int64(v)
		case "go_memstats_heap_alloc_bytes":
			heap = int64(v)
		case "cardroom_connections":
			conns = int64(v)
		}
	}
	return
}

func (r *runner) dial(ctx context.Context, name string) (*protocol.Client, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	sess, err := protocol.NewSession(ctx, r.client, r.cfg.URL, name)
	if err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	return protocol.Dial(ctx, r.cfg.URL, &protocol.Options{Token: sess.Token, HTTPClient: r.client, ReadLimit: 1 << 22})
}

// setupTable creates the sessions and connections of one table, creates
// the table and seats everyone; the game starts when the last seat fills.
func (r *runner) setupTable(ctx context.Context, i int) (*tableRun, error) {
	n := r.cfg.Seats
	t := &tableRun{seats: n, conns: make([]*protocol.Client, n), latest: make([]seatState, n), cond: make(chan struct{}, 1)}
	for s := range t.latest {
		t.latest[s].seq = -1
	}
	nc := r.cfg.Clients
	clients := make([]*protocol.Client, nc)
	for k := range clients {
		c, err := r.dial(ctx, fmt.Sprintf("load%d-%d", i, k))
		if err != nil {
			return nil, err
		}
		clients[k] = c
	}
	for s := range t.conns {
		t.conns[s] = clients[s%nc]
	}
	// Replies during setup arrive on the readers.
	created := make(chan string, 1)
	joined := make(chan error, n)
	for k, c := range clients {
		go r.read(t, c, k == 0, created, joined)
	}
	seat0 := game.Seat(0)
	if err := send(ctx, clients[0], protocol.CreateReq{Game: r.cfg.Game, Options: r.cfg.Options, Seat: &seat0}); err != nil {
		return nil, err
	}
	select {
	case id := <-created:
		if id == "" {
			return nil, errors.New("create refused")
		}
		t.mu.Lock()
		t.id = id
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

// read consumes one connection's messages and updates the table's view.
// It decodes a state's head only (protocol.DecodeStateHead): the view is
// scanned, not built.
func (r *runner) read(t *tableRun, c *protocol.Client, owner bool, created chan string, joined chan error) {
	ctx := context.Background()
	for {
		in, err := c.Recv(ctx)
		if err != nil {
			if in.Raw != nil {
				continue // not a message
			}
			if r.measure.Load() {
				r.fail("socket lost: " + err.Error())
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
				case created <- m.Table:
				default:
				}
			}
		case protocol.TypeJoined:
			select {
			case joined <- nil:
			default:
			}
		case protocol.TypeError:
			var m protocol.ErrorMsg
			json.Unmarshal(in.Raw, &m)
			switch m.Code {
			case protocol.Busy, protocol.Illegal, protocol.NotYourTurn, protocol.GameOver:
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
			}
			if p := t.pending; p != nil && h.Seq > p.afterSeq && !p.seen[h.Seat] {
				p.seen[h.Seat] = true
				p.left--
				if p.left == 0 {
					if r.measure.Load() && p.sched.UnixNano() >= r.from.Load() {
						t.samples = append(t.samples, now.Sub(p.sched))
						t.sendSamples = append(t.sendSamples, now.Sub(p.sent))
						r.moves.Add(1)
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
				case <-time.After(d):
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
					t.pending = &pendingMove{afterSeq: seq, sched: sched, sent: time.Now(), seen: make([]bool, t.seats), left: t.seats}
				}
				t.mu.Unlock()
				break
			}
			t.mu.Unlock()
			select {
			case <-ctx.Done():
				return
			case <-t.cond:
			case <-time.After(time.Second):
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
		if err := send(ctx, t.conns[seat], protocol.MoveReq{Table: t.id, Seat: &gs, Move: mv}); err != nil {
			if ctx.Err() == nil {
				r.fail("send: " + err.Error())
			}
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
				case <-time.After(time.Second):
				}
			}
		}
	}
}
