package server

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"cardroom/game"
	"cardroom/protocol"
	"cardroom/store"
	"cardroom/table"
)

// Table chat (docs/protocol.md, "Chat"; docs/server.md, "Limits").
//
// A table's chat room is the set of connections watching the table, kept
// here rather than in the table's goroutine: chat never touches the game,
// so a flood of lines cannot delay a move, and a table's command queue
// stays the game's. A room lives while someone watches; its lines are
// stored (store.Chat) and read back when it is needed again, so a chat
// outlives restarts like the table does, but never enters the game record.

// Defaults of ChatConfig.
const (
	DefaultChatPerMinute = 20  // lines (and reports) per player per minute
	DefaultChatBurst     = 5   // lines a player may send at once
	DefaultChatHistory   = 100 // lines kept per table and sent on watch
	// Reports stored from one address a day: each is a row kept for the
	// operator (never deleted by the room), and the per-player rate alone
	// does not bound them (guest sessions are cheap).
	DefaultReportsPerIPPerDay = 50
)

// ChatConfig bounds chat. Zero means the default; PerMinute < 0 switches
// the rate limit off.
type ChatConfig struct {
	// PerMinute and Burst are a token bucket per player over chat lines
	// and reports, across tables.
	PerMinute int
	Burst     int
	// History is the lines kept per table (stored and in memory) and sent
	// to a connection that starts watching.
	History int
	// ReportsPerIPPerDay bounds the reports taken from one address in a
	// day (default DefaultReportsPerIPPerDay; < 0: no limit).
	ReportsPerIPPerDay int
}

// chatHub holds the chat rooms of the tables being watched.
type chatHub struct {
	s              *Server
	cfg            ChatConfig
	limit          *limiter     // nil: no limit
	reportLimit    *limiter     // per address; nil: no limit
	reportsRefused atomic.Int64 // reports refused by reportLimit
	mu             sync.Mutex
	rooms          map[string]*chatRoom
	lines          atomic.Int64 // lines sent
	refused        atomic.Int64 // lines and reports refused by the rate limit
	reports        atomic.Int64 // reports stored
	resyncs        atomic.Int64 // rooms reloaded after a line's number was taken
}

// chatRoom is one table's chat. Its lock orders the lines: every member
// receives them in id order.
type chatRoom struct {
	mu      sync.Mutex
	members map[*conn]*chatMember
	lines   []protocol.ChatMsg // the last cfg.History lines
	next    int64              // the last id given
	specOff bool               // the owner turned the spectators' channel off
}

type chatMember struct {
	hideSpectators bool // a player's choice: no spectators' lines
}

func newChatHub(s *Server, cfg ChatConfig) *chatHub {
	if cfg.PerMinute == 0 {
		cfg.PerMinute = DefaultChatPerMinute
	}
	if cfg.Burst <= 0 {
		cfg.Burst = DefaultChatBurst
	}
	if cfg.History <= 0 {
		cfg.History = DefaultChatHistory
	}
	cfg.History = min(cfg.History, 10000)
	if cfg.ReportsPerIPPerDay == 0 {
		cfg.ReportsPerIPPerDay = DefaultReportsPerIPPerDay
	}
	h := &chatHub{s: s, cfg: cfg, rooms: map[string]*chatRoom{}}
	if cfg.PerMinute > 0 {
		h.limit = newLimiter(float64(cfg.PerMinute)/60, float64(min(cfg.Burst, 1<<20)))
	}
	if cfg.ReportsPerIPPerDay > 0 {
		n := float64(min(cfg.ReportsPerIPPerDay, 1<<20))
		h.reportLimit = newLimiter(n/86400, n)
	}
	return h
}

// appendLine stores a line; on a node of a cluster only under the lease
// this node holds on the table (clusterNode.appendChat).
func (h *chatHub) appendLine(ctx context.Context, st store.Chat, l store.ChatLine) error {
	if h.s.cl != nil {
		return h.s.cl.appendChat(ctx, st, l, h.cfg.History)
	}
	return st.AppendChat(ctx, l, h.cfg.History)
}

func (h *chatHub) store() store.Chat {
	c, _ := h.s.store.(store.Chat)
	return c
}

// room returns a table's room, loading its lines and settings from the
// store the first time (outside the hub's lock: one slow read must not
// hold every table's chat).
func (h *chatHub) room(ctx context.Context, tableID string) *chatRoom {
	h.mu.Lock()
	r := h.rooms[tableID]
	h.mu.Unlock()
	if r != nil {
		return r
	}
	r = &chatRoom{members: map[*conn]*chatMember{}}
	if st := h.store(); st != nil {
		lines, err := st.ChatLines(ctx, tableID, h.cfg.History)
		if err != nil {
			h.s.log.Warn("chat: lines not loaded", "table", tableID, "err", err)
		}
		r.setLines(lines)
		if off, err := st.SpectatorChatOff(ctx, tableID); err == nil {
			r.specOff = off
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if old := h.rooms[tableID]; old != nil {
		return old
	}
	h.rooms[tableID] = r
	return r
}

func lineMsg(l store.ChatLine) protocol.ChatMsg {
	m := protocol.ChatMsg{Table: l.Table, Channel: l.Channel, Player: l.Player, Name: l.Name, Text: l.Text,
		Phrase: l.Phrase, Time: l.At, Line: l.ID}
	if l.Seat >= 0 {
		seat := game.Seat(l.Seat)
		m.Seat = &seat
	} else {
		m.Spectator = true
	}
	return m
}

// seated reports whether player holds a seat at the table.
func seated(sum *table.Summary, player string) (game.Seat, bool) {
	if player == "" {
		return -1, false
	}
	for _, si := range sum.Seats {
		if si.Player == player {
			return si.Seat, true
		}
	}
	return -1, false
}

// join adds c to the table's room (c has just started watching) and sends
// it the chat settings and the last lines it may read.
func (h *chatHub) join(ctx context.Context, t *table.Table, c *conn) {
	sum := t.Summary()
	_, isPlayer := seated(sum, c.sess.Player)
	var r *chatRoom
	for {
		// Become a member under the hub's lock, so that the room cannot
		// be freed (leave) between its lookup and this.
		r = h.room(ctx, t.ID())
		h.mu.Lock()
		if h.rooms[t.ID()] == r {
			r.mu.Lock()
			h.mu.Unlock()
			break
		}
		h.mu.Unlock()
	}
	defer r.mu.Unlock()
	m := r.members[c]
	if m == nil {
		m = &chatMember{}
		r.members[c] = m
	}
	c.send(protocol.ChatSettingsMsg{Table: t.ID(), SpectatorChat: !r.specOff, ShowSpectators: !m.hideSpectators})
	for _, l := range r.lines {
		if l.Channel == protocol.ChannelSpectators && isPlayer && m.hideSpectators {
			continue
		}
		c.send(l)
	}
}

// leave removes c from a table's room; the last member's leaving frees it.
func (h *chatHub) leave(tableID string, c *conn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.rooms[tableID]
	if r == nil {
		return
	}
	r.mu.Lock()
	delete(r.members, c)
	empty := len(r.members) == 0
	r.mu.Unlock()
	if empty {
		delete(h.rooms, tableID)
	}
}

// broadcast sends b to every member of a table's room.
func (h *chatHub) broadcast(tableID string, b []byte) {
	h.mu.Lock()
	r := h.rooms[tableID]
	h.mu.Unlock()
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for c := range r.members {
		c.Send(b)
	}
}

func (h *chatHub) member(tableID string, c *conn) (*chatRoom, *chatMember, error) {
	h.mu.Lock()
	r := h.rooms[tableID]
	h.mu.Unlock()
	if r != nil {
		r.mu.Lock()
		m := r.members[c]
		r.mu.Unlock()
		if m != nil {
			return r, m, nil
		}
	}
	return nil, nil, &table.Error{Code: protocol.Forbidden, Msg: "watch the table first: its chat is for those who watch it"}
}

func (h *chatHub) allow(player string) error {
	if h.limit == nil {
		return nil
	}
	if ok, wait := h.limit.allow(player); !ok {
		h.refused.Add(1)
		return &table.Error{Code: protocol.RateLimited, Msg: fmt.Sprintf("at most %d chat lines at once and %d a minute: next in %.0f s",
			h.cfg.Burst, h.cfg.PerMinute, math.Ceil(wait.Seconds())),
			Limit: &protocol.Limit{Name: protocol.LimitChat, Max: float64(h.cfg.PerMinute), Burst: h.cfg.Burst, Retry: retrySeconds(wait)}}
	}
	return nil
}

// say handles a chat request: who may write where, the rate, the store,
// then the delivery. A refused line changes nothing.
func (h *chatHub) say(ctx context.Context, t *table.Table, c *conn, m *protocol.ChatReq) error {
	r, _, err := h.member(t.ID(), c)
	if err != nil {
		return err
	}
	sum := t.Summary()
	seat, isPlayer := seated(sum, c.sess.Player)
	switch {
	case m.Channel == protocol.ChannelPlayers && !isPlayer:
		return &table.Error{Code: protocol.NotSeated, Msg: "the players' channel is for the seated players: write on the spectators' channel"}
	case m.Channel == protocol.ChannelSpectators && isPlayer:
		return &table.Error{Code: protocol.Forbidden, Msg: "the spectators' channel is for the spectators: players write on the players' channel"}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if m.Channel == protocol.ChannelSpectators && r.specOff {
		return &table.Error{Code: protocol.Forbidden, Msg: "the table's owner turned spectator chat off"}
	}
	// The rate is taken last: a line refused for another reason costs
	// nothing.
	if err := h.allow(c.sess.Player); err != nil {
		return err
	}
	l := store.ChatLine{Table: t.ID(), ID: r.next + 1, Channel: m.Channel, Player: c.sess.Player, Name: c.sess.Name,
		Seat: int(seat), Text: m.Text, Phrase: m.Phrase, At: time.Now().UTC().Truncate(time.Millisecond)}
	if !isPlayer {
		l.Seat = -1
	}
	if st := h.store(); st != nil {
		err := h.appendLine(ctx, st, l)
		if err != nil && !errors.Is(err, store.ErrFenced) {
			if missed := h.resync(ctx, st, r, t.ID()); len(missed) > 0 {
				// Another writer took the line's number (this room's
				// count was stale: a table that moved between the nodes
				// of a cluster and back): the members get the lines they
				// missed, and the line is stored once more after them.
				for _, ml := range missed {
					h.deliver(r, sum, ml)
				}
				l.ID = r.next + 1
				err = h.appendLine(ctx, st, l)
			}
		}
		if errors.Is(err, store.ErrFenced) {
			h.s.log.Warn("chat: line refused, the table's lease is lost", "table", t.ID())
			return &table.Error{Code: protocol.Unavailable, Msg: "the table is moving to another server: retry in a moment"}
		}
		if err != nil {
			h.s.log.Warn("chat: line not stored", "table", t.ID(), "err", err)
			return &table.Error{Code: protocol.Unavailable, Msg: "the line could not be stored: retry later"}
		}
	}
	r.next = l.ID
	msg := lineMsg(l)
	r.lines = append(r.lines, msg)
	if over := len(r.lines) - h.cfg.History; over > 0 {
		r.lines = append(r.lines[:0], r.lines[over:]...)
	}
	h.lines.Add(1)
	h.deliver(r, sum, msg)
	return nil
}

// deliver sends a line to the room's members who read its channel (a
// player who hides the spectators' channel does not get its lines). r.mu
// is held.
func (h *chatHub) deliver(r *chatRoom, sum *table.Summary, msg protocol.ChatMsg) {
	b := marshalMsg(msg)
	for mc, mm := range r.members {
		if msg.Channel == protocol.ChannelSpectators && mm.hideSpectators {
			if _, p := seated(sum, mc.sess.Player); p {
				continue
			}
		}
		mc.Send(b)
	}
}

// resync reloads a room's lines from the store after a line could not be
// stored, and returns the stored lines this room did not have (none: its
// next number was not taken, the failure was another). r.mu is held.
func (h *chatHub) resync(ctx context.Context, st store.Chat, r *chatRoom, tableID string) []protocol.ChatMsg {
	lines, err := st.ChatLines(ctx, tableID, h.cfg.History)
	if err != nil || len(lines) == 0 || lines[len(lines)-1].ID <= r.next {
		return nil
	}
	seen := r.next
	r.setLines(lines)
	h.resyncs.Add(1)
	for i, l := range lines {
		if l.ID > seen {
			return r.lines[i:]
		}
	}
	return nil
}

// setLines makes the room's lines the stored ones (oldest first) and its
// count the last one's number.
func (r *chatRoom) setLines(lines []store.ChatLine) {
	r.lines = r.lines[:0]
	for _, l := range lines {
		r.lines = append(r.lines, lineMsg(l))
		r.next = l.ID
	}
}

// settings handles chat_settings: the sender's own choice of showing the
// spectators' channel, and the owner's switch of that channel.
func (h *chatHub) settings(ctx context.Context, t *table.Table, c *conn, m *protocol.ChatSettingsReq) error {
	r, mem, err := h.member(t.ID(), c)
	if err != nil {
		return err
	}
	if m.SpectatorChat != nil && t.Summary().Owner != c.sess.Player {
		return &table.Error{Code: protocol.Forbidden, Msg: "only the table's owner turns spectator chat on or off"}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if m.SpectatorChat != nil && *m.SpectatorChat == r.specOff {
		off := !*m.SpectatorChat
		if st := h.store(); st != nil {
			if err := st.SetSpectatorChatOff(ctx, t.ID(), off); err != nil {
				return &table.Error{Code: protocol.Unavailable, Msg: "the setting could not be stored: retry later"}
			}
		}
		r.specOff = off
		for mc, mm := range r.members {
			if mc != c {
				mc.send(protocol.ChatSettingsMsg{Table: t.ID(), SpectatorChat: !off, ShowSpectators: !mm.hideSpectators})
			}
		}
	}
	if m.ShowSpectators != nil {
		mem.hideSpectators = !*m.ShowSpectators
	}
	c.send(protocol.ChatSettingsMsg{ID: m.ID, Table: t.ID(), SpectatorChat: !r.specOff, ShowSpectators: !mem.hideSpectators})
	return nil
}

// report keeps a line for the operator (`cardroom reports`).
func (h *chatHub) report(ctx context.Context, t *table.Table, c *conn, m *protocol.ChatReportReq) error {
	r, _, err := h.member(t.ID(), c)
	if err != nil {
		return err
	}
	st := h.store()
	if st == nil {
		return &table.Error{Code: protocol.Unavailable, Msg: "this room keeps no reports (its store has no chat)"}
	}
	r.mu.Lock()
	var line *protocol.ChatMsg
	for i := range r.lines {
		if r.lines[i].Line == m.Line {
			l := r.lines[i]
			line = &l
		}
	}
	r.mu.Unlock()
	if line == nil {
		return &table.Error{Code: protocol.BadRequest, Msg: fmt.Sprintf("chat_report: the table has no line %d (only its last %d are kept)", m.Line, h.cfg.History)}
	}
	if err := h.allow(c.sess.Player); err != nil {
		return err
	}
	if h.reportLimit != nil {
		// A connection relayed from another node has no address here: its
		// player stands for it.
		key := c.from.addr
		if key == "" {
			key = "player " + c.sess.Player
		}
		if ok, wait := h.reportLimit.allow(key); !ok {
			h.reportsRefused.Add(1)
			return &table.Error{Code: protocol.RateLimited, Msg: fmt.Sprintf("at most %d reports a day from your address: next in %.0f min",
				h.cfg.ReportsPerIPPerDay, math.Ceil(wait.Minutes())),
				Limit: &protocol.Limit{Name: protocol.LimitReports, Max: float64(h.cfg.ReportsPerIPPerDay), Retry: retrySeconds(wait)}}
		}
	}
	seat := -1
	if line.Seat != nil {
		seat = int(*line.Seat)
	}
	rep := store.ChatReport{Reporter: c.sess.Player, ReporterName: c.sess.Name, Reason: m.Reason, At: time.Now().UTC(),
		Line: store.ChatLine{Table: t.ID(), ID: line.Line, Channel: line.Channel, Player: line.Player, Name: line.Name,
			Seat: seat, Text: line.Text, Phrase: line.Phrase, At: line.Time}}
	if err := st.AddChatReport(ctx, rep); err != nil && !errors.Is(err, store.ErrDuplicate) {
		return &table.Error{Code: protocol.Unavailable, Msg: "the report could not be stored: retry later"}
	} else if err == nil {
		h.reports.Add(1)
		h.s.log.Info("chat line reported", "table", t.ID(), "line", line.Line, "reporter", c.sess.Player)
	}
	c.send(protocol.ChatReportMsg{ID: m.ID, Table: t.ID(), Line: line.Line})
	return nil
}

// chatMetrics writes the chat metrics (handleMetrics).
func (s *Server) chatMetrics(metric func(name, typ, help string, v any)) {
	h := s.chat
	h.mu.Lock()
	rooms := len(h.rooms)
	h.mu.Unlock()
	metric("cardroom_chat_rooms", "gauge", "Tables whose chat is in memory (someone watches them).", rooms)
	metric("cardroom_chat_lines_total", "counter", "Chat lines sent.", h.lines.Load())
	metric("cardroom_chat_rate_limited_total", "counter", "Chat lines and reports refused by the per-player chat rate.", h.refused.Load())
	metric("cardroom_chat_reports_total", "counter", "Chat lines reported to the operator.", h.reports.Load())
	metric("cardroom_chat_resyncs_total", "counter", "Chat rooms reloaded from the store because another writer had taken a line's number (a cluster's table that moved).", h.resyncs.Load())
	metric("cardroom_chat_reports_limited_total", "counter", "Chat reports refused by the per-address daily quota (-reports-per-ip).", h.reportsRefused.Load())
}

// tableSocial dispatches the chat and rematch requests (ws.go).
func (s *Server) tableSocial(ctx context.Context, t *table.Table, c *conn, m protocol.ClientMsg) error {
	switch m := m.(type) {
	case *protocol.ChatReq:
		return s.chat.say(ctx, t, c, m)
	case *protocol.ChatSettingsReq:
		return s.chat.settings(ctx, t, c, m)
	case *protocol.ChatReportReq:
		return s.chat.report(ctx, t, c, m)
	case *protocol.RematchReq:
		return s.rematch(ctx, t, c, m)
	}
	return nil
}
