package table

import (
	"cardroom/game"
	"cardroom/protocol"
	"cardroom/store"
	"encoding/json"
	"slices"
	"strconv"
	"sync"
	"time"
)

// What leaves the table: summaries and the per-observer state messages.

// The wire types are protocol's; the table builds them.
type (
	// SeatInfo describes one seat in summaries and state messages.
	SeatInfo = protocol.SeatInfo
	// Summary is a table as the lobby shows it.
	Summary = protocol.Summary
	// Clock is the turn clock in a state message.
	Clock = protocol.Clock
	// StateMsg is the state message as a client decodes it.
	StateMsg = protocol.StateMsg
)

// stateMsg builds the message for one observer: seat ≥ 0 or game.Spectator.
// It is the only way game state leaves a table. The message has the fields
// of protocol.StateMsg, in that order, written by protocol's hand-written
// encoder: the per-observer head (AppendStateHead), the shared part
// (t.common, written once per broadcast), and the view; the seat's
// legal-move list is reused while it is unchanged (legalJSON).
func (t *Table) stateMsg(seat game.Seat) []byte { return t.appendStateMsg(nil, seat) }

// appendStateMsg is stateMsg written into out's memory (from its start:
// out's length is ignored); nil on error.
func (t *Table) appendStateMsg(out []byte, seat game.Seat) []byte {
	common := t.common
	if common == nil {
		common = t.commonJSON()
	}
	var view game.View
	toAct := t.msgToAct[:0]
	legal, legalCount := []byte("[]"), 0
	appender, direct := t.st.(game.ViewJSONAppender)
	if t.meta.Status != store.StatusOpen {
		if !direct {
			view = t.st.View(game.Seat(seat))
		}
		if t.meta.Status == store.StatusPlaying {
			toAct = t.st.ToAct(toAct) // a game ended early (everyone left) has no one to act
		}
		t.msgToAct = toAct
		if seat >= 0 {
			if slices.Contains(toAct, game.Seat(seat)) {
				legal, legalCount = t.legalJSON(seat)
			} else if int(seat) < len(t.legal) {
				t.legal[seat] = legalCache{} // not to act: keep nothing
			}
		}
	}
	e := getViewEncoder()
	defer putViewEncoder(e)
	var vb []byte
	var err error
	if direct && t.meta.Status != store.StatusOpen {
		// The engine writes the view's JSON without handing it over.
		e.raw = appender.AppendViewJSON(e.raw[:0], seat)
		vb = e.raw
	} else {
		vb, err = e.marshal(view)
	}
	if err != nil {
		t.cfg.Log.Error("marshal view", "table", t.id, "err", err)
		return nil
	}
	out = slices.Grow(out[:0], 128+len(t.id)+len(legal)+len(common)+len(t.hist.frag)+len(vb))
	out = protocol.AppendStateHead(out, t.id, t.log.len(), t.wireStatus(), seat, toAct, legal, legalCount)
	if legalCount > 0 {
		out = t.appendPick(out, seat) // pick.go
	}
	return protocol.AppendStateEnd(out, common, t.hist.frag, vb)
}

// commonJSON marshals the shared part of the state messages (once per broadcast).
func (t *Table) commonJSON() []byte { return t.commonJSONAt(time.Now()) }

// commonJSONAt writes protocol.StateCommon: the options' JSON is built
// once, the seats' again only when they change.
func (t *Table) commonJSONAt(now time.Time) []byte { return t.appendCommonJSON(nil, now) }

// appendCommonJSON is commonJSONAt written into dst's memory (from its
// start).
func (t *Table) appendCommonJSON(dst []byte, now time.Time) []byte {
	if t.seatsJSON == nil || !t.seatsUnchanged() {
		seats := t.seatInfos()
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
	b := slices.Grow(dst[:0], 128+len(t.optsJSON)+len(t.seatsJSON))
	return protocol.AppendStateCommon(b, t.meta.Game, t.optsJSON, clock, t.seatsJSON, result, now.UnixMilli())
}

func (t *Table) sendState(sub Subscriber) {
	seats := t.seatsOf(sub.Player())
	if len(seats) == 0 {
		seats = []game.Seat{game.Spectator}
	}
	// A subscriber's first message carries the whole history.
	t.hist.frag = t.histAll()
	defer t.histDone()
	for _, s := range seats {
		if b := t.stateMsg(s); b != nil && !t.send(sub, b) {
			t.drop(sub)
			return
		}
	}
}

// send gives sub a message of the event being handled: queued, and
// written when the event ends (flush), if sub is a Queuer. A subscriber
// that is not a Queuer, or refuses the message, may keep it: the event's
// pooled messages then go to the collector (flush).
func (t *Table) send(sub Subscriber, b []byte) bool {
	q, ok := sub.(Queuer)
	if !ok {
		t.msgKept = true
		return sub.Send(b)
	}
	if !q.Queue(b) {
		t.msgKept = true
		return false
	}
	if !slices.Contains(t.unflushed, q) {
		t.unflushed = append(t.unflushed, q)
	}
	return true
}

// flush writes what the event has queued (send), once it is handled.
// When every Queuer reports that it holds none of the bytes it was given,
// the event's broadcast messages go back to msgPool for the next event
// (a move's four state messages were more than half the bytes the server
// allocated); otherwise they are left to the collector.
func (t *Table) flush() {
	for _, q := range t.unflushed {
		if !q.Flush() {
			t.msgKept = true
		}
	}
	clear(t.unflushed)
	t.unflushed = t.unflushed[:0]
	if !t.msgKept {
		for _, bp := range t.msgBufs {
			putMsgBuf(bp)
		}
		t.cfg.Metrics.MsgsReused.Add(int64(len(t.msgBufs)))
	}
	clear(t.msgBufs)
	t.msgBufs = t.msgBufs[:0]
	t.msgKept = false
}

// msgPool holds the memory of broadcast state messages (*[]byte) between
// events: a buffer is taken in broadcast and given back by flush only when
// no subscriber holds the message any more.
var msgPool sync.Pool

// msgBufMax is the largest buffer kept in msgPool (a move's messages are
// one to a few KiB; a long history's are left to the collector).
const msgBufMax = 64 << 10

func getMsgBuf() *[]byte {
	if bp, ok := msgPool.Get().(*[]byte); ok {
		return bp
	}
	return new([]byte)
}

func putMsgBuf(bp *[]byte) {
	if cap(*bp) > msgBufMax {
		return
	}
	*bp = (*bp)[:0]
	msgPool.Put(bp)
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
		// Nobody to tell: the entries count as sent (a new subscriber
		// gets the whole history).
		t.hist.sent = t.hist.count()
		return
	}
	// The entries added since the last broadcast.
	t.hist.frag = t.histNew()
	defer t.histDone()
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
	// The shared part is copied into every message: its memory goes back
	// to the pool when the broadcast is done.
	cbp := getMsgBuf()
	t.common = t.appendCommonJSON(*cbp, time.Now())
	defer func() {
		*cbp, t.common = t.common, nil
		putMsgBuf(cbp)
	}()
	// cache[s+1] is observer s's message (index 0: the spectator's), on
	// the stack for up to eight seats: the table keeps no messages.
	var cacheBuf [9][]byte
	cache := cacheBuf[:0]
	for range len(t.seats) + 1 {
		cache = append(cache, nil)
	}
	var dead []Subscriber
	var held [8]game.Seat
	for sub := range t.subs {
		seats := t.appendSeatsOf(held[:0], sub.Player())
		if len(seats) == 0 {
			seats = append(seats, game.Spectator)
		}
		for _, s := range seats {
			b := cache[s+1]
			if b == nil {
				bp := getMsgBuf()
				b = t.appendStateMsg(*bp, s)
				*bp = b
				t.msgBufs = append(t.msgBufs, bp)
				cache[s+1] = b
			}
			if b != nil && !t.send(sub, b) {
				dead = append(dead, sub)
				break
			}
		}
	}
	for _, sub := range dead {
		t.drop(sub)
	}
}
