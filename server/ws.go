package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"cardroom/server/wsconn"

	"cardroom/bot"
	"cardroom/game"
	"cardroom/protocol"
	"cardroom/store"
	"cardroom/table"
)

func parseOpts(s string) (game.Options, error) {
	o, err := game.ParseOptions(s)
	if err != nil {
		return nil, &table.Error{Code: protocol.BadOptions, Msg: err.Error()}
	}
	return o, nil
}

// conn is one WebSocket client. It is a table.Subscriber.
//
// Outgoing messages wait in a queue bounded both in count (Config.OutQueue)
// and in bytes (Config.OutQueueBytes). A client that does not read fills
// it and is dropped at once (Send never blocks a table); a write that
// stalls longer than Config.WriteTimeout drops the client too; and a ping
// that gets no pong within PongTimeout does, from a goroutine of its own
// that lives for the ping only (the server's pinger starts them), so a
// blocked write cannot hide a dead peer. Dropping frees the queue at once.
//
// An idle connection costs one goroutine, its reader: the writer is
// started by Send when the queue gets its first message and ends when the
// queue is empty, so thousands of quiet spectators hold no writer stacks.
type conn struct {
	s    *Server
	ws   socket // a *wsconn.Conn, or a vsock for a virtual conn
	sess store.Session
	// account: the session's player held an account when the socket
	// opened (who is online marks it; a claim reconnects the client).
	account bool
	// from is the client's address as the per-address limits key it
	// (addrKey) and its /48 (originOf); zero for a virtual conn.
	from origin
	id   uint64 // the node's number for the connection (relaying names it)
	// virtual: another node's connection, served here as a table's owner
	// (vconn.go); it has no reader: enqueue feeds it.
	virtual bool
	done    chan struct{}
	once    sync.Once
	why     string
	code    wsconn.StatusCode

	writing atomic.Int64 // start of the write in progress (unix ns), 0 if none

	mu       sync.Mutex
	queue    [][]byte // waiting for the writer
	bytes    int      // their total size
	closed   bool     // dropped: Send refuses
	flushing bool     // a writer goroutine is running
	ending   bool     // killed: the writer finishes (flushes, closes) when the queue is empty
	finished chan struct{}
	nextPing int64 // unix ns; the server's pinger's field
	// partial is the rest of a write Flush made in part: it holds the
	// socket, and the writer finishes it first.
	partial *wsconn.Pending

	// A virtual conn's relayed commands (vconn.go).
	inMu      sync.Mutex
	inbox     [][]byte
	inRunning bool

	// Owned by the connection's reader (read: one goroutine at a time,
	// each started by the last):
	watching watchSet
	relayed  map[string]string // table → the owner its messages were last relayed to (cluster.go)
	tokens   float64
	last     time.Time
	strikes  int
}

func (c *conn) Player() string { return c.sess.Player }

// Send queues a message and starts the writer; a client whose queue is
// full is disconnected.
func (c *conn) Send(b []byte) bool { return c.queueOut(b, true) }

// Queue queues a message for a table's event (table.Queuer): the writer
// is not started, and the table calls Flush once the event is handled,
// so that the messages of one move (its ack and the state) leave in one
// write.
func (c *conn) Queue(b []byte) bool { return c.queueOut(b, false) }

func (c *conn) queueOut(b []byte, start bool) bool {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return false
	}
	if len(c.queue) >= c.s.cfg.OutQueue || c.bytes+len(b) > c.s.cfg.OutQueueBytes {
		c.mu.Unlock()
		c.s.slowKicks.Add(1)
		c.drop(wsconn.StatusPolicyViolation, "too slow: outgoing queue full")
		return false
	}
	if c.queue == nil {
		c.queue = make([][]byte, 0, 4) // a move's state and its ack, with room
	}
	c.queue = append(c.queue, b)
	c.bytes += len(b)
	start = start && !c.flushing
	if start {
		c.flushing = true
	}
	c.mu.Unlock()
	c.s.queuedBytes.Add(int64(len(b)))
	c.s.msgsOut.Add(1)
	if start {
		go c.writer()
	}
	return true
}

// Flush writes what Queue has queued, on the caller's goroutine when the
// socket takes it at once (the usual case: no writer goroutine is woken
// for it), else by starting the writer, which may wait. A writer already
// running writes it anyway. It reports true only when the connection
// holds none of the messages it was given: the queue is empty and no
// writer runs (TryWriteText copies the frames it writes, and a partial
// write's rest is in its own buffer), so the table may reuse their memory.
func (c *conn) Flush() bool {
	c.mu.Lock()
	if c.flushing || c.closed || len(c.queue) == 0 {
		clean := !c.flushing && !c.closed // then the queue is empty
		c.mu.Unlock()
		return clean
	}
	c.flushing = true // this goroutine is the writer until it hands over
	if c.ending {
		c.mu.Unlock()
		go c.writer() // it flushes and closes
		return false
	}
	q := c.queue
	c.queue = nil
	n := c.bytes
	c.bytes = 0
	c.mu.Unlock()
	done, p, err := c.ws.TryWriteText(q...)
	if err != nil {
		c.s.queuedBytes.Add(-int64(n))
		c.drop(wsconn.StatusGoingAway, "write failed")
		c.finish()
		return false
	}
	if done || p != nil {
		c.s.wsWrites.Add(1)
		c.s.queuedBytes.Add(-int64(n))
	}
	c.mu.Lock()
	if !done && p == nil {
		// Nothing was sent: the messages go back in front of any that
		// came meanwhile, for the writer.
		c.queue = append(q, c.queue...)
		c.bytes += n
	}
	c.partial = p
	if done && len(c.queue) == 0 && !c.ending {
		c.flushing = false
		c.mu.Unlock()
		clear(q) // q was the queue's array: it keeps no message alive
		return true
	}
	c.mu.Unlock()
	go c.writer() // the rest, what came meanwhile, or the close
	return false
}

// take removes and returns what is queued.
func (c *conn) take() [][]byte {
	c.mu.Lock()
	q := c.queue
	c.queue = nil
	n := c.bytes
	c.bytes = 0
	c.mu.Unlock()
	c.s.queuedBytes.Add(-int64(n))
	return q
}

// next is take for the writer: it returns the queued batch, reusing the
// previous batch's array for the new queue, or nil and the writer's end
// (flushing false) when there is nothing to write. finish reports that
// the connection was killed meanwhile and the writer must close it.
//
// An ending writer keeps no array: the next Send makes one. Arrays are
// reused within a burst, where they pay; an idle socket holds none.
func (c *conn) next(done [][]byte) (q [][]byte, finish bool) {
	clear(done)
	c.mu.Lock()
	q = c.queue
	if len(q) == 0 {
		c.flushing = c.ending // an ending connection keeps its writer to close it
		finish = c.ending
		c.queue = nil
		c.mu.Unlock()
		return nil, finish
	}
	c.queue = done[:0] // nil for the first batch: Send makes an array
	n := c.bytes
	c.bytes = 0
	c.mu.Unlock()
	c.s.queuedBytes.Add(-int64(n))
	return q, false
}

// kill ends the connection after the writer has flushed what is queued
// (briefly: errors explaining the disconnection reach the client).
func (c *conn) kill(code wsconn.StatusCode, why string) {
	c.once.Do(func() {
		c.why = why
		c.code = code
		close(c.done)
		c.mu.Lock()
		c.ending = true
		start := !c.flushing
		c.flushing = true
		c.mu.Unlock()
		if start {
			go c.writer()
		}
	})
}

// drop ends the connection at once: the queue is freed and the socket
// closed, which also ends a write blocked on a peer that does not read.
func (c *conn) drop(code wsconn.StatusCode, why string) {
	c.kill(code, why)
	c.mu.Lock()
	already := c.closed
	c.closed = true
	c.mu.Unlock()
	if already {
		return
	}
	c.take()
	go c.ws.CloseNow()
}

func (c *conn) shutdown() { c.kill(wsconn.StatusGoingAway, "server shutting down") }

func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	if s.closing.Load() {
		writeErr(w, http.StatusServiceUnavailable, protocol.ShuttingDown, "the server is shutting down")
		return
	}
	var sess store.Session
	if tokenOf(r) == "" {
		// No token at all: an anonymous spectator (public tables, lobby).
		sess = store.Session{Name: "spectator"}
	} else {
		var err error
		sess, err = s.session(r)
		if err != nil {
			writeSessionErr(w, err)
			return
		}
	}
	if s.cl != nil && s.cl.cut.Load() {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "this node is cut from the cluster: connect to another")
		return
	}
	// The connection's slot is taken before the upgrade and given back if
	// it fails: checked before and counted after, simultaneous handshakes
	// all passed the check together and went over the bound.
	if n := s.connections.Add(1); s.cfg.MaxConnections > 0 && n > int64(s.cfg.MaxConnections) {
		s.connections.Add(-1)
		writeErr(w, http.StatusServiceUnavailable, protocol.Busy, "too many connections; retry later")
		return
	}
	clearDeadlines(w) // the HTTP timeouts must not cut the socket (guard.go)
	ws, err := wsconn.Accept(w, r, &wsconn.AcceptOptions{OriginPatterns: s.originPatterns(), ReadLimit: HardMaxFrame})
	if err != nil {
		s.connections.Add(-1)
		return
	}
	c := &conn{s: s, ws: ws, sess: sess, account: s.hasAccount(r.Context(), sess.Player), from: originOf(s.guard.clientAddr(r)), id: s.connID(), done: make(chan struct{}), finished: make(chan struct{}),
		nextPing: time.Now().UnixNano() + firstPing(s.cfg.PingInterval, rand.Int64N),
		tokens:   s.cfg.Burst, last: time.Now()}
	s.mu.Lock()
	s.conns[c] = struct{}{}
	s.mu.Unlock()
	s.log.Debug("ws connect", "player", sess.Player, "addr", s.guard.clientAddr(r))
	// The welcome is built here, on the handler's goroutine, which ends:
	// a waiting reader has never run deep code (see read).
	c.welcome()
	// The connection lives on goroutines of its own and the handler
	// returns (the socket is hijacked): the handler's stack grew deep in
	// the upgrade (the session's lookup in SQLite, the middleware) and would
	// stay that size under every idle reader.
	go c.read(ws)
}

// ended is the end of the connection's last reader (read): it leaves its
// tables, the lobby and the server.
func (c *conn) ended() {
	s := c.s
	c.cleanup()
	s.lobby.subscribe(c, false)
	if s.cl != nil {
		s.cl.unrelay(c) // cluster.go
	}
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
	s.connections.Add(-1)
	s.log.Debug("ws disconnect", "player", c.sess.Player, "why", c.why)
}

// cleanup ends a connection's table subscriptions, once it has ended.
func (c *conn) cleanup() {
	c.kill(wsconn.StatusNormalClosure, "")
	for _, t := range c.watching {
		t.Unsubscribe(c)
		c.s.chat.leave(t.ID(), c) // chat.go
		c.s.dropWatcher(t.ID(), c)
	}
}

// pinger keeps every connection's keep-alive: each PingInterval, a ping
// from a goroutine that lives until its pong (or PongTimeout), apart from
// the writer so that a write blocked on a peer that stopped reading cannot
// delay it. One server goroutine checks the connections a few times per
// interval, so an idle connection holds no ticker and no goroutine of its
// own.
//
// The pings are spread out twice over. A connection's first ping comes
// at a random point of its first interval and a half (firstPing), so
// connections opened together (a room full of reconnections after a
// restart, a load test's set-up) do not ping together ever after; and
// the connections due at one check are pinged in chunks of pingChunk
// spread over the check's period (spreadPings). Started all at once, the
// pings of one check and their goroutines queued ahead of the moves'
// goroutines: at 4,000 tables of four clients (16,000 sockets, about
// 1,450 pings a check), the moves' p99 was 30-58 ms with the pings and
// 14 ms with none (docs/server.md, "Pings in bursts").
func (s *Server) pinger() {
	every := min(time.Second, max(10*time.Millisecond, s.cfg.PingInterval/8))
	tk := time.NewTicker(every)
	defer tk.Stop()
	pause := time.NewTimer(time.Hour)
	pause.Stop()
	var cs []*conn
	for {
		select {
		case <-s.quit:
			return
		case <-tk.C:
		}
		now := time.Now().UnixNano()
		s.mu.Lock()
		cs = cs[:0]
		for c := range s.conns {
			if c.nextPing <= now {
				c.nextPing = now + int64(s.cfg.PingInterval)
				cs = append(cs, c)
			}
		}
		s.mu.Unlock()
		_, gap := spreadPings(len(cs), every)
		for i := 0; i < len(cs); i += pingChunk {
			if i > 0 {
				pause.Reset(gap)
				select {
				case <-s.quit:
					return
				case <-pause.C:
				}
			}
			for _, c := range cs[i:min(i+pingChunk, len(cs))] {
				select {
				case <-c.done: // ended since the check: nothing to keep alive
				default:
					go c.ping()
				}
			}
		}
		clear(cs)
	}
}

// pingChunk is how many pings the pinger starts at once.
const pingChunk = 32

// spreadPings says how the pinger sends n pings due at one check of
// period every: in chunks of pingChunk, gap apart, so the last chunk
// starts before the next check.
func spreadPings(n int, every time.Duration) (chunks int, gap time.Duration) {
	chunks = (n + pingChunk - 1) / pingChunk
	if chunks <= 1 {
		return chunks, 0
	}
	return chunks, every / time.Duration(chunks)
}

// firstPing is how long after it opens a connection gets its first ping:
// a random point from half an interval to an interval and a half (rand
// gives a number from 0 to n-1), so on average one interval, as later.
func firstPing(interval time.Duration, rand func(n int64) int64) int64 {
	half := int64(interval / 2)
	if half <= 0 {
		return int64(interval)
	}
	return half + rand(2*half)
}

// ping sends one ping and drops the connection if its pong is late.
func (c *conn) ping() {
	ctx, cancel := context.WithTimeout(context.Background(), min(c.s.cfg.PingInterval, PongTimeout))
	err := c.ws.Ping(ctx)
	cancel()
	if err != nil {
		select {
		case <-c.done: // it was ending anyway
		default:
			c.s.slowKicks.Add(1) // it does not read: its pong is unread
		}
		c.drop(wsconn.StatusGoingAway, "ping timeout")
	}
}

// write sends the queued messages, all in one system call. It has no
// deadline of its own (a timer per write costs the room's tail latency at
// thousands of writes a second): writing records when it started, and the
// server's watchdog drops a connection whose write has waited longer than
// Config.WriteTimeout.
//
// A long queue goes in chunks of at most writeChunk bytes, each timed on
// its own: the watchdog judges a peer by how fast it reads, not by how
// much it was sent at once.
func (c *conn) write(q [][]byte) error {
	for len(q) > 0 {
		k, size := 0, 0
		for k < len(q) && (k == 0 || size+len(q[k]) <= writeChunk) {
			size += len(q[k])
			k++
		}
		c.writing.Store(time.Now().UnixNano())
		err := c.ws.WriteText(q[:k]...)
		c.writing.Store(0)
		c.s.wsWrites.Add(1)
		if err != nil {
			return err
		}
		q = q[k:]
	}
	return nil
}

// writeChunk bounds the bytes of one write system call (see write).
const writeChunk = 16 << 10

// watchdog drops the connections whose current write has waited longer
// than the write timeout (a peer that stopped reading), checking a few
// times per timeout.
func (s *Server) watchdog() {
	every := min(time.Second, max(10*time.Millisecond, s.cfg.WriteTimeout/4))
	tk := time.NewTicker(every)
	defer tk.Stop()
	var cs []*conn
	for {
		select {
		case <-s.quit:
			return
		case <-tk.C:
		}
		limit := time.Now().Add(-s.cfg.WriteTimeout).UnixNano()
		s.mu.Lock()
		cs = cs[:0]
		for c := range s.conns {
			cs = append(cs, c)
		}
		s.mu.Unlock()
		for _, c := range cs {
			if w := c.writing.Load(); w != 0 && w < limit {
				s.slowKicks.Add(1)
				c.drop(wsconn.StatusGoingAway, "too slow: a write timed out")
			}
		}
		clear(cs)
	}
}

// writer writes what is queued, batch by batch, and ends when the queue is
// empty (Send starts it again). A killed connection's writer flushes what
// is left (errors explaining the disconnection), briefly, and closes the
// socket.
func (c *conn) writer() {
	c.mu.Lock()
	p := c.partial
	c.partial = nil
	c.mu.Unlock()
	if p != nil {
		c.writing.Store(time.Now().UnixNano())
		err := p.Finish()
		c.writing.Store(0)
		if err != nil {
			c.drop(wsconn.StatusGoingAway, "write failed")
			c.finish()
			return
		}
	}
	var batch [][]byte
	for {
		q, finish := c.next(batch)
		if q == nil {
			if finish {
				c.finish()
			}
			return
		}
		if err := c.write(q); err != nil {
			// The peer has gone, or the watchdog closed a stalled write
			// (and counted it).
			c.drop(wsconn.StatusGoingAway, "write failed")
			c.finish()
			return
		}
		batch = q
	}
}

// finish ends a killed connection: a last flush of the queue with a short
// deadline, then the close handshake. Only the ending writer calls it.
func (c *conn) finish() {
	if q := c.take(); len(q) > 0 {
		c.ws.SetWriteDeadline(time.Now().Add(time.Second))
		c.ws.WriteText(q...)
	}
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.take()
	close(c.finished)
	go func() {
		c.ws.Close(c.code, c.why)
		c.ws.CloseNow()
	}()
}

// send queues a server message.
func (c *conn) send(m protocol.ServerMsg) {
	b, err := protocol.Marshal(m)
	if err == nil {
		c.Send(b)
	}
}

func (c *conn) sendErr(id json.RawMessage, tableID string, e *table.Error) {
	c.send(protocol.ErrorMsg{ID: id, Code: e.Code, Message: e.Msg, Table: tableID, Limit: e.Limit})
}

func (c *conn) welcome() {
	seats := []protocol.SeatRef{}
	if c.s.cl != nil && c.sess.Player != "" {
		// A cluster: the player's tables may be played by any node, or by
		// none this moment (one is moving); the store knows them all.
		seats = c.s.storedSeats(c.sess.Player)
	} else {
		c.s.mu.Lock()
		for _, id := range c.s.seatIndex[c.sess.Player] {
			t := c.s.tables[id]
			if t == nil {
				continue
			}
			sum := t.Summary()
			if sum.Status == store.StatusFinished {
				continue
			}
			for _, si := range sum.Seats {
				if si.Player == c.sess.Player {
					seats = append(seats, protocol.SeatRef{Table: id, Seat: si.Seat})
				}
			}
		}
		c.s.mu.Unlock()
	}
	c.send(protocol.WelcomeMsg{Version: protocol.Version, Player: c.sess.Player, Name: c.sess.Name,
		Limits: protocol.Limits{MaxMessage: MaxMessage, Rate: c.s.cfg.Rate, Burst: c.s.cfg.Burst}, Seats: seats,
		PublicURL: c.s.cfg.PublicURL})
}

// storedSeats lists the player's seats at unfinished tables from the
// store (a cluster node's welcome).
func (s *Server) storedSeats(player string) []protocol.SeatRef {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	seats := []protocol.SeatRef{}
	tables, err := s.store.History(ctx, player, 100)
	if err != nil {
		s.log.Warn("welcome: the player's tables", "err", err)
		return seats
	}
	for _, tb := range tables {
		if !store.IsUnfinished(tb.Status) {
			continue
		}
		for i, st := range tb.Seats {
			if st.Player == player {
				seats = append(seats, protocol.SeatRef{Table: tb.ID, Seat: game.Seat(i)})
			}
		}
	}
	return seats
}

// allow applies the rate limit; it reports false for a message over the
// rate, and disconnects a client that keeps flooding.
func (c *conn) allow() bool {
	now := time.Now()
	c.tokens += now.Sub(c.last).Seconds() * c.s.cfg.Rate
	c.last = now
	if c.tokens > c.s.cfg.Burst {
		c.tokens = c.s.cfg.Burst
	}
	if c.tokens >= 1 {
		c.tokens--
		c.strikes = 0
		return true
	}
	c.strikes++
	if c.strikes >= MaxStrikes {
		c.s.rateKicks.Add(1)
		c.kill(wsconn.StatusPolicyViolation, "rate limit")
	}
	return false
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, MaxMessage+1); return &b }}

// read waits for the socket's next message, reads and handles it, and
// goes on reading on a new goroutine, until the peer goes or the
// connection is killed; the last one cleans up (ended).
//
// A goroutine's stack grows to its deepest call and keeps that size while
// it is parked: the runtime halves a stack only when less than a quarter
// of it is in use, which a parked reader's never is once it has 4 KiB.
// Handling a message (JSON, a table's command, a session's lookup) is
// several times deeper than waiting for one, so a reader that looped kept
// 4–8 KiB under every idle socket. Each message's handling ends its
// goroutine instead, and the next wait is on a fresh goroutine that has
// only waited: 2 KiB, the least the runtime gives, when that is its
// starting size (docs/server.md, "Figures after the memory work"), for
// the cost of starting a goroutine a message, a fraction of a
// microsecond.
func (c *conn) read(ws *wsconn.Conn) {
	// Waiting goes through Wait, not Next, and this frame holds nothing:
	// the waiting stack is as shallow as it can be. The runtime starts
	// goroutines with the average stack its collections find in use,
	// rounded up to a power of two, so with thousands of readers waiting
	// their depth also decides whether that is 2 or 4 KiB.
	err := ws.Wait()
	if err == nil && c.readNext(ws) {
		go c.read(ws)
		return
	}
	if wsconn.IsFlood(err) {
		c.s.rateKicks.Add(1)
	}
	c.end()
}

// readNext reads and handles the message that has come; false ends the
// connection.
func (c *conn) readNext(ws *wsconn.Conn) (ok bool) {
	// A panic in handling the message ends this connection only.
	defer func() {
		if c.s.recovered(recover(), "a client's message", "player", c.sess.Player) {
			ok = false
		}
	}()
	typ, err := ws.Next()
	if err != nil {
		if wsconn.IsFlood(err) {
			c.s.rateKicks.Add(1)
		}
		return false
	}
	growStack()
	// The buffer is taken only once a message has come: an idle socket
	// holds none.
	bp := bufPool.Get().(*[]byte)
	ok = c.readOne(context.Background(), ws, typ, *bp)
	bufPool.Put(bp)
	return ok
}

// handlingStack is about the stack that handling a message takes: a move
// runs its table's step, views and writes on the reader's goroutine.
const handlingStack = 6 << 10

// growStack grows the calling goroutine's stack, in one step and while it
// is shallow, to what handling a message needs. A reader starts with the
// least stack (see read) and handling a move grew it twice, in
// DecodeClient and again in the engine's ParseMove, each time copying
// every frame then on it: 4.5% of the server's CPU at 2,000 tables × 4
// (perf). One copy of two frames costs far less, and the stack goes
// back to the runtime's pool when the goroutine ends after the message,
// so an idle socket keeps no more than before.
//
//go:noinline
func growStack() {
	var pad [handlingStack]byte
	keepFrame(&pad)
}

// keepFrame makes pad's frame real: the compiler drops an unused array.
//
//go:noinline
func keepFrame(pad *[handlingStack]byte) { pad[0] = 1 }

// end ends the connection once its reading has: the writer flushes and
// closes, then the connection is cleaned up (ended).
func (c *conn) end() {
	c.kill(wsconn.StatusNormalClosure, "")
	<-c.finished
	c.ended()
}

// readOne reads and handles one message; false ends the connection.
func (c *conn) readOne(ctx context.Context, ws *wsconn.Conn, typ wsconn.MessageType, buf []byte) bool {
	// What does not fit in buf (over MaxMessage) is read and dropped.
	n, _, err := ws.ReadMessage(buf)
	if err != nil {
		if wsconn.IsFlood(err) {
			c.s.rateKicks.Add(1)
		}
		return false
	}
	select {
	case <-c.done:
		return false
	default:
	}
	c.s.msgsIn.Add(1)
	if !c.allow() {
		c.s.badInput.Add(1)
		c.sendErr(nil, "", &table.Error{Code: protocol.RateLimited, Msg: fmt.Sprintf("over %g messages a second: message dropped", c.s.cfg.Rate),
			Limit: &protocol.Limit{Name: protocol.LimitMessages, Max: c.s.cfg.Rate}})
		return true
	}
	if typ != wsconn.Text {
		c.s.badInput.Add(1)
		c.sendErr(nil, "", &table.Error{Code: protocol.BadJSON, Msg: "binary frames are not part of the protocol: send JSON text"})
		return true
	}
	if n > MaxMessage {
		c.s.badInput.Add(1)
		c.sendErr(nil, "", &table.Error{Code: protocol.TooLarge, Msg: fmt.Sprintf("message over %d bytes", MaxMessage)})
		return true
	}
	m, e := protocol.DecodeClient(buf[:n])
	if e != nil {
		c.s.badInput.Add(1)
		c.Send(marshalMsg(e))
		return true
	}
	c.handle(ctx, m, buf[:n])
	return true
}

func marshalMsg(m protocol.ServerMsg) []byte {
	b, err := protocol.Marshal(m)
	if err != nil {
		panic(err) // the protocol's types always marshal
	}
	return b
}

var seatOr = protocol.SeatOr

// handle handles one client message; raw is its text, which a table
// owned by another node of a cluster is sent (cluster.go).
func (c *conn) handle(ctx context.Context, m protocol.ClientMsg, raw []byte) {
	id, tableID := m.RequestID(), protocol.TableOf(m)
	fail := func(err error) {
		var te *table.Error
		if !errors.As(err, &te) {
			te = &table.Error{Code: protocol.Internal, Msg: err.Error()}
		}
		c.s.badInput.Add(1)
		c.sendErr(id, tableID, te)
	}
	needSession := func() bool {
		if c.sess.Player != "" {
			return true
		}
		fail(&table.Error{Code: protocol.Unauthorized, Msg: m.MessageType() + " needs a session: POST /api/session first (anonymous connections may only watch)"})
		return false
	}
	if mv, ok := m.(*protocol.MoveReq); ok {
		// The hot path: a move does not wait for the table.
		if !needSession() {
			return
		}
		t := c.s.table(mv.Table)
		if t == nil {
			if t = c.remoteTable(ctx, mv.Table, raw, fail); t == nil {
				return
			}
		}
		if err := t.Move(c, mv.ID, seatOr(mv.Seat), mv.Move); err != nil {
			fail(err)
		}
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	switch m := m.(type) {
	case *protocol.PingReq:
		c.send(protocol.PongMsg{ID: m.ID})
		return
	case *protocol.LobbyReq:
		c.s.lobby.subscribe(c, m.Subscribe == nil || *m.Subscribe)
		return
	case *protocol.WatchReq, *protocol.UnwatchReq:
	default:
		if !needSession() {
			return
		}
	}
	if m, ok := m.(*protocol.CreateReq); ok {
		if err := c.mayWatch(""); err != nil {
			fail(err)
			return
		}
		t, err := c.s.createTable(ctx, c.sess, c.from, *m, false)
		if err != nil {
			fail(err)
			return
		}
		c.send(protocol.CreatedMsg{ID: m.ID, Table: t.ID(), Summary: t.Summary()})
		c.watch(ctx, t)
		return
	}
	t := c.s.table(tableID)
	if t == nil {
		if t = c.remoteTable(ctx, tableID, raw, fail); t == nil {
			return
		}
	}
	switch m := m.(type) {
	case *protocol.JoinReq:
		if !canSee(t.Summary(), c.sess.Player, m.Invite) {
			fail(&table.Error{Code: protocol.Forbidden, Msg: "a private table: join with its invite"})
			return
		}
		if t.Summary().Rated {
			if err := c.s.mayPlayRated(ctx, c.sess.Player); err != nil { // ratings.go
				fail(err)
				return
			}
		}
		if err := c.mayWatch(t.ID()); err != nil {
			fail(err)
			return
		}
		seat, err := t.Join(ctx, c.s.seatFor(ctx, c.sess), seatOr(m.Seat)) // accounts.go
		if err != nil {
			fail(err)
			return
		}
		c.send(protocol.JoinedMsg{ID: m.ID, Table: t.ID(), Seat: seat})
		c.watch(ctx, t)
	case *protocol.WatchReq:
		if !canSee(t.Summary(), c.sess.Player, m.Invite) {
			fail(&table.Error{Code: protocol.Forbidden, Msg: "a private table: watch with its invite"})
			return
		}
		c.watch(ctx, t)
	case *protocol.UnwatchReq:
		if c.watching.remove(t.ID()) {
			t.Unsubscribe(c)
			c.s.chat.leave(t.ID(), c) // chat.go
			c.s.dropWatcher(t.ID(), c)
		}
	case *protocol.ChatReq, *protocol.ChatSettingsReq, *protocol.ChatReportReq, *protocol.RematchReq:
		if err := c.s.tableSocial(ctx, t, c, m); err != nil { // chat.go, rematch.go
			fail(err)
		}
	case *protocol.LeaveReq:
		// Where hints are refused, the stand-in waits the grace period
		// (table.Leave).
		if err := t.Leave(ctx, c.sess.Player, t.Summary().Rated || isTournamentTable(t.ID())); err != nil {
			fail(err)
		}
	case *protocol.AddBotReq:
		level := m.Level
		if level == "" {
			level = "random"
		}
		c.setBot(ctx, t, m.Seat, level, fail)
	case *protocol.RemoveBotReq:
		if m.Seat == nil {
			fail(&table.Error{Code: protocol.BadRequest, Msg: "remove_bot: field seat is required"})
			return
		}
		c.setBot(ctx, t, m.Seat, "", fail)
	case *protocol.HintReq:
		if t.Summary().Rated {
			fail(ratedHintErr) // ratings.go
			return
		}
		if isTournamentTable(t.ID()) {
			fail(tournamentHintErr) // tournament.go
			return
		}
		eng, v, seat, err := t.SeatView(ctx, c.sess.Player, seatOr(m.Seat))
		if err != nil {
			fail(err)
			return
		}
		h := hinter()
		if h == nil {
			fail(&table.Error{Code: protocol.NoHint, Msg: "no hint available"})
			return
		}
		if ok, wait := c.s.hints.allow(c.sess.Player); !ok {
			fail(c.s.quotaErr(protocol.Limit{Name: protocol.LimitHints, Max: float64(c.s.cfg.HintsPerMinute), Retry: retrySeconds(wait)},
				"at most %d hints a minute: next in %.0f s", c.s.cfg.HintsPerMinute, math.Ceil(wait.Seconds())))
			return
		}
		if c.from.addr != "" {
			if ok, wait, wide := c.s.addrHints.allowKeys(c.from.addr, c.from.net); !ok {
				c.s.hints.refund(c.sess.Player)
				l := widen(protocol.Limit{Name: protocol.LimitAddressHints, Max: float64(c.s.cfg.HintsPerIPPerMinute), Retry: retrySeconds(wait)}, wide)
				fail(c.s.quotaErr(l, "at most %.0f hints a minute from one network address: next in %.0f s", l.Max, math.Ceil(wait.Seconds())))
				return
			}
		}
		id, tid := m.ID, t.ID()
		// Hints run on the bot pool beside the bots' decisions, so a crowd
		// asking for hints cannot take more cores than the bots may.
		err = c.s.pool.Submit(context.Background(), func(ctx context.Context) {
			defer func() {
				if c.s.recovered(recover(), "hint", "table", tid) {
					c.sendErr(id, tid, &table.Error{Code: protocol.NoHint, Msg: "no hint available"})
				}
			}()
			hctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			rs, err := h.Hint(hctx, eng, v)
			if err != nil {
				c.sendErr(id, tid, &table.Error{Code: protocol.NoHint, Msg: "no hint available: " + err.Error()})
				return
			}
			ratings := make([]protocol.Rating, len(rs))
			for i, r := range rs {
				ratings[i] = protocol.Rating{Move: r.Move, Value: r.Value, Visits: r.Visits}
			}
			c.send(protocol.HintMsg{ID: id, Table: tid, Seat: seat, Ratings: ratings})
		})
		if err != nil {
			fail(&table.Error{Code: protocol.Busy, Msg: "the bots are busy: retry the hint in a moment"})
		}
	}
}

// remoteTable is the cluster's answer for a table not in memory here: the
// message is relayed to the node that owns the table (nil: handled, or
// refused with fail), or the table is taken over by this node (returned),
// or there is no such table (refused). Without a cluster, no table.
func (c *conn) remoteTable(ctx context.Context, id string, raw []byte, fail func(error)) *table.Table {
	cl := c.s.cl
	if cl != nil && c.virtual {
		// It left this node between the command's dispatch and now.
		fail(&table.Error{Code: protocol.Unavailable, Msg: "the table moved to another node: reconnect"})
		c.kill(wsconn.StatusTryAgainLater, "table moved")
		return nil
	}
	if cl != nil && cl.relay(ctx, c, id, raw, fail) {
		return nil
	}
	if t := c.s.table(id); t != nil {
		return t
	}
	fail(&table.Error{Code: protocol.NoTable, Msg: fmt.Sprintf("no table %q (finished tables: GET /api/records/%s)", id, id)})
	return nil
}

// setBot seats a bot of level (or, level "", removes one).
func (c *conn) setBot(ctx context.Context, t *table.Table, seat *game.Seat, level string, fail func(error)) {
	if sum := t.Summary(); level != "" && sum.Humans == 0 && (seatOr(seat) < 0 || sum.Free <= 1) {
		// This fills a table that has no human with bots: a bots-only game.
		if err := c.s.checkBotsOnly(c.sess.Player); err != nil {
			fail(err)
			return
		}
	}
	if err := t.SetBot(ctx, c.sess.Player, seatOr(seat), level); err != nil {
		fail(err)
	}
}

func (c *conn) watch(ctx context.Context, t *table.Table) {
	if err := c.mayWatch(t.ID()); err != nil {
		c.sendErr(nil, t.ID(), err)
		return
	}
	if _, err := t.Subscribe(ctx, c); err != nil {
		var te *table.Error
		if !errors.As(err, &te) {
			te = &table.Error{Code: protocol.Internal, Msg: err.Error()}
		}
		c.sendErr(nil, t.ID(), te)
		return
	}
	c.watching.add(t)
	c.s.addWatcher(t.ID(), c)
	c.s.chat.join(ctx, t, c)      // chat.go
	c.s.rematchOnWatch(ctx, t, c) // rematch.go
}

// mayWatch refuses a new table to watch (id; "" for one about to be
// created) when the connection watches Config.MaxWatches already. A table
// it watches already is always allowed.
func (c *conn) mayWatch(id string) *table.Error {
	max := c.s.cfg.MaxWatches
	if max < 0 || len(c.watching) < max || (id != "" && c.watching.has(id)) {
		return nil
	}
	c.s.watchRefused.Add(1)
	return &table.Error{Code: protocol.RateLimited, Msg: fmt.Sprintf("this connection watches %d tables, the most it may: unwatch one first", max),
		Limit: &protocol.Limit{Name: protocol.LimitWatches, Max: float64(max)}}
}

// watchSet is the tables a connection watches: nearly always one or two,
// so a slice searched in order, where a map took some 200 bytes under
// every connection.
type watchSet []*table.Table

// add adds t (a table of the same id is replaced).
func (w *watchSet) add(t *table.Table) {
	for i, u := range *w {
		if u.ID() == t.ID() {
			(*w)[i] = t
			return
		}
	}
	*w = append(*w, t)
}

// has reports whether the table of that id is in the set.
func (w watchSet) has(id string) bool {
	for _, u := range w {
		if u.ID() == id {
			return true
		}
	}
	return false
}

// remove removes the table of that id and reports whether it was there.
func (w *watchSet) remove(id string) bool {
	for i, u := range *w {
		if u.ID() == id {
			*w = slices.Delete(*w, i, i+1)
			return true
		}
	}
	return false
}

// hinter returns a bot that rates moves, if a registered level has one. A
// hard bot searches with one tree: it runs on one worker of the pool.
func hinter() bot.Hinter {
	for _, l := range []string{"hard", "medium", "easy", "random"} {
		b, err := bot.New(l, 1)
		if err != nil {
			continue
		}
		if h, ok := b.(*bot.Hard); ok {
			return h.WithWorkers(1)
		}
		if h, ok := b.(bot.Hinter); ok {
			return h
		}
	}
	return nil
}
