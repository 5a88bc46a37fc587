package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
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
type conn struct {
	s    *Server
	ws   *websocket.Conn
	sess store.Session
	out  chan []byte
	done chan struct{}
	once sync.Once
	why  string
	code websocket.StatusCode

	// Owned by the reader goroutine:
	watching map[string]*table.Table
	tokens   float64
	last     time.Time
	strikes  int
}

func (c *conn) Player() string { return c.sess.Player }

// Send queues a message; a client whose queue is full is disconnected.
func (c *conn) Send(b []byte) bool {
	select {
	case <-c.done:
		return false
	default:
	}
	select {
	case c.out <- b:
		c.s.msgsOut.Add(1)
		return true
	default:
		c.kill(websocket.StatusPolicyViolation, "too slow: outgoing queue full")
		return false
	}
}

func (c *conn) kill(code websocket.StatusCode, why string) {
	c.once.Do(func() {
		c.why = why
		c.code = code
		close(c.done)
	})
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
			writeErr(w, http.StatusUnauthorized, "unauthorized", err.Error())
			return
		}
	}
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: false, OriginPatterns: []string{"localhost:*", "127.0.0.1:*"}})
	if err != nil {
		return
	}
	ws.SetReadLimit(HardMaxFrame)
	c := &conn{s: s, ws: ws, sess: sess, out: make(chan []byte, OutQueue), done: make(chan struct{}),
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
	c.welcome()
	c.reader()
	c.kill(websocket.StatusNormalClosure, "")
	<-wdone
}

func (c *conn) writer() {
	ping := time.NewTicker(c.s.cfg.PingInterval)
	defer ping.Stop()
	defer func() {
		// Flush what is queued (errors explaining a disconnection), briefly.
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
	flush:
		for {
			select {
			case b := <-c.out:
				if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
					c.s.log.Warn("flush", "err", err)
					break flush
				}
			default:
				break flush
			}
		}
		go func() {
			c.ws.Close(c.code, c.why)
			c.ws.CloseNow()
		}()
	}()
	for {
		select {
		case <-c.done:
			return
		case b := <-c.out:
			// No per-write timeout: a client that stops reading fills its
			// queue and is killed (Send), which unblocks this write.
			err := c.ws.Write(context.Background(), websocket.MessageText, b)
			if err != nil {
				c.kill(websocket.StatusGoingAway, "write failed")
				return
			}
		case <-ping.C:
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), c.s.cfg.PingInterval)
				defer cancel()
				if err := c.ws.Ping(ctx); err != nil {
					c.kill(websocket.StatusGoingAway, "ping timeout")
				}
			}()
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
		id, tid := m.ID, t.ID()
		select {
		case hintSlots <- struct{}{}:
		default:
			fail(&table.Error{Code: "busy", Msg: "too many hints being computed; retry"})
			return
		}
		go func() {
			defer func() { <-hintSlots }()
			hctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			rs, err := h.Hint(hctx, eng, v)
			if err != nil {
				c.sendErr(id, tid, &table.Error{Code: "no_hint", Msg: "no hint available: " + err.Error()})
				return
			}
			c.sendJSON(map[string]any{"type": "hint", "id": id, "table": tid, "seat": seat, "ratings": rs})
		}()
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

// hintSlots bounds the hint searches running at once (each is a hard-bot
// search): a crowd asking for hints cannot starve the tables.
var hintSlots = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))

// hinter returns a bot that rates moves, if a registered level has one.
func hinter() bot.Hinter {
	for _, l := range []string{"hard", "medium", "easy", "random"} {
		b, err := bot.New(l, 1)
		if err != nil {
			continue
		}
		if h, ok := b.(bot.Hinter); ok {
			return h
		}
	}
	return nil
}
