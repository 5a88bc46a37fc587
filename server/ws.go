package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"

	"cardroom/bot"
	"cardroom/game"
	"cardroom/store"
	"cardroom/table"
)

func parseOpts(s string) (game.Options, error) {
	o, err := game.ParseOptions(s)
	if err != nil {
		return nil, &table.Error{Code: "bad_options", Msg: err.Error()}
	}
	return o, nil
}

// inMsg is every client message; fields unused by a type are ignored.
type inMsg struct {
	Type      string            `json:"type"`
	ID        json.RawMessage   `json:"id,omitempty"`
	Table     string            `json:"table"`
	Seat      *int              `json:"seat"`
	Move      string            `json:"move"`
	Invite    string            `json:"invite"`
	Level     string            `json:"level"`
	Subscribe *bool             `json:"subscribe"`
	Game      string            `json:"game"`
	Options   map[string]string `json:"options"`
	Private   bool              `json:"private"`
	ClockMS   int               `json:"clock_ms"`
	BotLevel  string            `json:"bot_level"`
	Bots      map[string]string `json:"bots"`
}

var knownTypes = map[string]bool{
	"lobby": true, "create": true, "join": true, "leave": true, "add_bot": true, "remove_bot": true,
	"watch": true, "unwatch": true, "move": true, "hint": true, "ping": true,
}

// needTable lists the types that require the table field.
var needTable = map[string]bool{
	"join": true, "leave": true, "add_bot": true, "remove_bot": true, "watch": true, "unwatch": true, "move": true, "hint": true,
}

// decodeMessage parses one client message. It never panics; on failure it
// returns the protocol error and, when it could be read, the message's id.
func decodeMessage(b []byte) (inMsg, *table.Error) {
	var m inMsg
	if len(b) > MaxMessage {
		return m, &table.Error{Code: "too_large", Msg: fmt.Sprintf("message of %d bytes: the limit is %d", len(b), MaxMessage)}
	}
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return m, &table.Error{Code: "bad_json", Msg: "a message must be a JSON object"}
	}
	// Unmarshal checks the whole input is valid JSON before decoding, so
	// json.Valid is needed only to tell bad JSON from a bad field.
	if err := json.Unmarshal(trimmed, &m); err != nil {
		if !json.Valid(trimmed) {
			return inMsg{}, &table.Error{Code: "bad_json", Msg: "the message is not valid JSON"}
		}
		var te *json.UnmarshalTypeError
		// Keep the id if it can be read, to answer with it.
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal(trimmed, &probe)
		m = inMsg{ID: probe.ID}
		if !validID(m.ID) {
			m.ID = nil
		}
		if errors.As(err, &te) {
			return m, &table.Error{Code: "bad_request", Msg: fmt.Sprintf("field %s: want %s, got JSON %s", te.Field, te.Type, te.Value)}
		}
		return m, &table.Error{Code: "bad_request", Msg: err.Error()}
	}
	if !validID(m.ID) {
		m.ID = nil
		return m, &table.Error{Code: "bad_request", Msg: "field id: want a string or a number of at most 64 bytes"}
	}
	if m.Type == "" {
		return m, &table.Error{Code: "unknown_type", Msg: "the message has no type"}
	}
	if !knownTypes[m.Type] {
		t := m.Type
		if len(t) > 32 {
			t = t[:32] + "…"
		}
		return m, &table.Error{Code: "unknown_type", Msg: fmt.Sprintf("unknown message type %q", t)}
	}
	if needTable[m.Type] && m.Table == "" {
		return m, &table.Error{Code: "bad_request", Msg: fmt.Sprintf("%s: field table is required", m.Type)}
	}
	if m.Type == "move" && m.Move == "" {
		return m, &table.Error{Code: "bad_request", Msg: "move: field move is required"}
	}
	if m.Seat != nil && (*m.Seat < -1 || *m.Seat >= MaxSeats) {
		return m, &table.Error{Code: "bad_seat", Msg: fmt.Sprintf("seat %d: want -1 or a seat number", *m.Seat)}
	}
	if len(m.Table) > 64 || len(m.Invite) > 64 || len(m.Level) > 32 || len(m.Game) > 32 || len(m.BotLevel) > 32 {
		return m, &table.Error{Code: "bad_request", Msg: "a field is too long (table, invite: 64 bytes; game, level, bot_level: 32)"}
	}
	return m, nil
}

func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return true
	}
	if len(id) > 64 {
		return false
	}
	switch id[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return true
	case 'n':
		return string(id) == "null"
	}
	return false
}

// conn is one WebSocket client. It is a table.Subscriber.
//
// Outgoing messages wait in a queue bounded both in count (Config.OutQueue)
// and in bytes (Config.OutQueueBytes). A client that does not read fills
// it and is dropped at once (Send never blocks a table); a write that
// stalls longer than Config.WriteTimeout drops the client too; and a ping
// that gets no pong within Config.PingInterval does, from its own
// goroutine, so a blocked write cannot hide a dead peer. Dropping frees
// the queue at once.
type conn struct {
	s    *Server
	ws   *websocket.Conn
	sess store.Session
	done chan struct{}
	once sync.Once
	why  string
	code websocket.StatusCode

	mu     sync.Mutex
	queue  [][]byte // waiting for the writer
	bytes  int      // their total size
	closed bool     // dropped: Send refuses
	wake   chan struct{}

	// Owned by the reader goroutine:
	watching map[string]*table.Table
	tokens   float64
	last     time.Time
	strikes  int
}

func (c *conn) Player() string { return c.sess.Player }

// Send queues a message; a client whose queue is full is disconnected.
func (c *conn) Send(b []byte) bool {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return false
	}
	if len(c.queue) >= c.s.cfg.OutQueue || c.bytes+len(b) > c.s.cfg.OutQueueBytes {
		c.mu.Unlock()
		c.s.slowKicks.Add(1)
		c.drop(websocket.StatusPolicyViolation, "too slow: outgoing queue full")
		return false
	}
	c.queue = append(c.queue, b)
	c.bytes += len(b)
	c.mu.Unlock()
	c.s.queuedBytes.Add(int64(len(b)))
	c.s.msgsOut.Add(1)
	select {
	case c.wake <- struct{}{}:
	default:
	}
	return true
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

// kill ends the connection after the writer has flushed what is queued
// (briefly: errors explaining the disconnection reach the client).
func (c *conn) kill(code websocket.StatusCode, why string) {
	c.once.Do(func() {
		c.why = why
		c.code = code
		close(c.done)
	})
}

// drop ends the connection at once: the queue is freed and the socket
// closed, which also ends a write blocked on a peer that does not read.
func (c *conn) drop(code websocket.StatusCode, why string) {
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

func (c *conn) shutdown() { c.kill(websocket.StatusGoingAway, "server shutting down") }

func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	if s.closing.Load() {
		writeErr(w, http.StatusServiceUnavailable, "shutting_down", "the server is shutting down")
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
	if max := s.cfg.MaxConnections; max > 0 && s.connections.Load() >= int64(max) {
		writeErr(w, http.StatusServiceUnavailable, "busy", "too many connections; retry later")
		return
	}
	clearDeadlines(w) // the HTTP timeouts must not cut the socket (guard.go)
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.originPatterns()})
	if err != nil {
		return
	}
	ws.SetReadLimit(HardMaxFrame)
	c := &conn{s: s, ws: ws, sess: sess, done: make(chan struct{}), wake: make(chan struct{}, 1),
		watching: map[string]*table.Table{}, tokens: s.cfg.Burst, last: time.Now()}
	s.mu.Lock()
	s.conns[c] = struct{}{}
	s.mu.Unlock()
	s.connections.Add(1)
	s.log.Debug("ws connect", "player", sess.Player)
	defer func() {
		c.kill(websocket.StatusNormalClosure, "")
		for _, t := range c.watching {
			t.Unsubscribe(c)
		}
		s.lobby.subscribe(c, false)
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
		s.connections.Add(-1)
		s.log.Debug("ws disconnect", "player", sess.Player, "why", c.why)
	}()
	wdone := make(chan struct{})
	go func() { c.writer(); close(wdone) }()
	go c.pinger()
	c.welcome()
	c.reader()
	c.kill(websocket.StatusNormalClosure, "")
	<-wdone
}

// pinger checks the peer is alive; it runs apart from the writer so that a
// write blocked on a peer that stopped reading cannot delay it.
func (c *conn) pinger() {
	tk := time.NewTicker(c.s.cfg.PingInterval)
	defer tk.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-tk.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), min(c.s.cfg.PingInterval, PongTimeout))
		err := c.ws.Ping(ctx)
		cancel()
		if err != nil {
			c.s.slowKicks.Add(1) // it does not read: its pong is unread
			c.drop(websocket.StatusGoingAway, "ping timeout")
			return
		}
	}
}

func (c *conn) write(b []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), c.s.cfg.WriteTimeout)
	defer cancel()
	return c.ws.Write(ctx, websocket.MessageText, b)
}

func (c *conn) writer() {
	defer func() {
		// Flush what is queued (errors explaining a disconnection), briefly.
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		for _, b := range c.take() {
			if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
				break
			}
		}
		c.mu.Lock()
		c.closed = true
		c.mu.Unlock()
		c.take()
		go func() {
			c.ws.Close(c.code, c.why)
			c.ws.CloseNow()
		}()
	}()
	for {
		select {
		case <-c.done:
			return
		case <-c.wake:
		}
		for _, b := range c.take() {
			if err := c.write(b); err != nil {
				// A stalled or broken peer: the write's deadline has closed
				// the socket already.
				c.s.slowKicks.Add(1)
				c.drop(websocket.StatusGoingAway, "write failed or timed out")
				return
			}
		}
	}
}

func (c *conn) sendJSON(v any) {
	b, err := json.Marshal(v)
	if err == nil {
		c.Send(b)
	}
}

func (c *conn) sendErr(id json.RawMessage, tableID string, e *table.Error) {
	c.sendJSON(struct {
		Type    string          `json:"type"`
		ID      json.RawMessage `json:"id,omitempty"`
		Code    string          `json:"code"`
		Message string          `json:"message"`
		Table   string          `json:"table,omitempty"`
	}{"error", id, e.Code, e.Msg, tableID})
}

type seatRef struct {
	Table string `json:"table"`
	Seat  int    `json:"seat"`
}

func (c *conn) welcome() {
	seats := []seatRef{}
	c.s.mu.Lock()
	for id := range c.s.seatIndex[c.sess.Player] {
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
				seats = append(seats, seatRef{id, si.Seat})
			}
		}
	}
	c.s.mu.Unlock()
	c.sendJSON(map[string]any{"type": "welcome", "version": Version, "player": c.sess.Player, "name": c.sess.Name,
		"limits": map[string]any{"max_message": MaxMessage, "rate": c.s.cfg.Rate, "burst": c.s.cfg.Burst}, "seats": seats})
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
		c.kill(websocket.StatusPolicyViolation, "rate limit")
	}
	return false
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, MaxMessage+1); return &b }}

func (c *conn) reader() {
	ctx := context.Background()
	for {
		typ, rd, err := c.ws.Reader(ctx)
		if err != nil {
			return
		}
		bp := bufPool.Get().(*[]byte)
		ok := c.readOne(ctx, typ, rd, *bp)
		bufPool.Put(bp)
		if !ok {
			return
		}
	}
}

// readOne reads and handles one message; false ends the connection.
func (c *conn) readOne(ctx context.Context, typ websocket.MessageType, rd io.Reader, buf []byte) bool {
	n, err := io.ReadFull(rd, buf)
	if err == nil {
		// Over the limit: drain the rest without keeping it.
		if _, err := io.Copy(io.Discard, rd); err != nil {
			return false
		}
	} else if err != io.ErrUnexpectedEOF && err != io.EOF {
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
		c.sendErr(nil, "", &table.Error{Code: "rate_limited", Msg: fmt.Sprintf("over %g messages a second: message dropped", c.s.cfg.Rate)})
		return true
	}
	if typ != websocket.MessageText {
		c.s.badInput.Add(1)
		c.sendErr(nil, "", &table.Error{Code: "bad_json", Msg: "binary frames are not part of the protocol: send JSON text"})
		return true
	}
	if n > MaxMessage {
		c.s.badInput.Add(1)
		c.sendErr(nil, "", &table.Error{Code: "too_large", Msg: fmt.Sprintf("message over %d bytes", MaxMessage)})
		return true
	}
	m, e := decodeMessage(buf[:n])
	if e != nil {
		c.s.badInput.Add(1)
		c.sendErr(m.ID, m.Table, e)
		return true
	}
	c.handle(ctx, m)
	return true
}

func seatOr(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

func (c *conn) handle(ctx context.Context, m inMsg) {
	fail := func(err error) {
		var te *table.Error
		if !errors.As(err, &te) {
			te = &table.Error{Code: "internal", Msg: err.Error()}
		}
		c.s.badInput.Add(1)
		c.sendErr(m.ID, m.Table, te)
	}
	if m.Type == "move" {
		// The hot path: a move does not wait for the table.
		if c.sess.Player == "" {
			fail(&table.Error{Code: "unauthorized", Msg: m.Type + " needs a session: POST /api/session first (anonymous connections may only watch)"})
			return
		}
		t := c.s.table(m.Table)
		if t == nil {
			fail(&table.Error{Code: "no_table", Msg: fmt.Sprintf("no table %q (finished tables: GET /api/records/%s)", m.Table, m.Table)})
			return
		}
		if err := t.Move(c, m.ID, seatOr(m.Seat), m.Move); err != nil {
			fail(err)
		}
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if m.Type == "ping" {
		c.sendJSON(map[string]any{"type": "pong", "id": m.ID})
		return
	}
	if m.Type == "lobby" {
		c.s.lobby.subscribe(c, m.Subscribe == nil || *m.Subscribe)
		return
	}
	if c.sess.Player == "" && m.Type != "watch" && m.Type != "unwatch" {
		fail(&table.Error{Code: "unauthorized", Msg: m.Type + " needs a session: POST /api/session first (anonymous connections may only watch)"})
		return
	}
	if m.Type == "create" {
		req := createReq{Game: m.Game, Options: m.Options, Private: m.Private, ClockMS: m.ClockMS, BotLevel: m.BotLevel, Seat: m.Seat, Bots: m.Bots}
		t, err := c.s.createTable(ctx, c.sess, req, false)
		if err != nil {
			fail(err)
			return
		}
		c.sendJSON(map[string]any{"type": "created", "id": m.ID, "table": t.Summary()})
		c.watch(ctx, t)
		return
	}
	t := c.s.table(m.Table)
	if t == nil {
		fail(&table.Error{Code: "no_table", Msg: fmt.Sprintf("no table %q (finished tables: GET /api/records/%s)", m.Table, m.Table)})
		return
	}
	switch m.Type {
	case "join":
		if !canSee(t.Summary(), c.sess.Player, m.Invite) {
			fail(&table.Error{Code: "forbidden", Msg: "a private table: join with its invite"})
			return
		}
		seat, err := t.Join(ctx, c.sess.Player, c.sess.Name, seatOr(m.Seat))
		if err != nil {
			fail(err)
			return
		}
		c.sendJSON(map[string]any{"type": "joined", "id": m.ID, "table": t.ID(), "seat": seat})
		c.watch(ctx, t)
	case "watch":
		if !canSee(t.Summary(), c.sess.Player, m.Invite) {
			fail(&table.Error{Code: "forbidden", Msg: "a private table: watch with its invite"})
			return
		}
		c.watch(ctx, t)
	case "unwatch":
		if _, ok := c.watching[t.ID()]; ok {
			delete(c.watching, t.ID())
			t.Unsubscribe(c)
		}
	case "leave":
		if err := t.Leave(ctx, c.sess.Player); err != nil {
			fail(err)
		}
	case "add_bot", "remove_bot":
		level := m.Level
		if m.Type == "add_bot" && level == "" {
			level = "random"
		}
		if m.Type == "remove_bot" {
			level = ""
			if m.Seat == nil {
				fail(&table.Error{Code: "bad_request", Msg: "remove_bot: field seat is required"})
				return
			}
		}
		if sum := t.Summary(); level != "" && sum.Humans == 0 && (seatOr(m.Seat) < 0 || sum.Free <= 1) {
			// This fills a table that has no human with bots: a bots-only game.
			if err := c.s.checkBotsOnly(c.sess.Player); err != nil {
				fail(err)
				return
			}
		}
		if err := t.SetBot(ctx, c.sess.Player, seatOr(m.Seat), level); err != nil {
			fail(err)
		}
	case "move":
		if err := t.Move(c, m.ID, seatOr(m.Seat), m.Move); err != nil {
			fail(err)
		}
	case "hint":
		eng, v, seat, err := t.SeatView(ctx, c.sess.Player, seatOr(m.Seat))
		if err != nil {
			fail(err)
			return
		}
		h := hinter()
		if h == nil {
			fail(&table.Error{Code: "no_hint", Msg: "no hint available"})
			return
		}
		if ok, wait := c.s.hints.allow(c.sess.Player); !ok {
			fail(c.s.quotaErr("at most %d hints a minute: next in %.0f s", c.s.cfg.HintsPerMinute, math.Ceil(wait.Seconds())))
			return
		}
		id, tid := m.ID, t.ID()
		// Hints run on the bot pool beside the bots' decisions, so a crowd
		// asking for hints cannot take more cores than the bots may.
		err = c.s.pool.Submit(context.Background(), func(ctx context.Context) {
			hctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			rs, err := h.Hint(hctx, eng, v)
			if err != nil {
				c.sendErr(id, tid, &table.Error{Code: "no_hint", Msg: "no hint available: " + err.Error()})
				return
			}
			c.sendJSON(map[string]any{"type": "hint", "id": id, "table": tid, "seat": seat, "ratings": rs})
		})
		if err != nil {
			fail(&table.Error{Code: "busy", Msg: "the bots are busy: retry the hint in a moment"})
		}
	}
}

func (c *conn) watch(ctx context.Context, t *table.Table) {
	if _, err := t.Subscribe(ctx, c); err != nil {
		var te *table.Error
		if !errors.As(err, &te) {
			te = &table.Error{Code: "internal", Msg: err.Error()}
		}
		c.sendErr(nil, t.ID(), te)
		return
	}
	c.watching[t.ID()] = t
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
