package table

import (
	"cardroom/game"
	"cardroom/protocol"
	"cardroom/record"
	"cardroom/store"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Moves: a seat's move, its log append and the chance steps after it.

// Move submits a move for player (seat -1: the one seat the player holds).
// The table sends the ack or the error to sub, then broadcasts the new
// state. When the table is idle the move is made on the caller's
// goroutine (a connection's reader: no other goroutine is woken for it),
// else it waits its turn and Move returns at once. id is echoed in the
// answer.
func (t *Table) Move(sub Subscriber, id json.RawMessage, seat game.Seat, text string) error {
	arrived := time.Now()
	return t.runOrPost(func() { t.move(sub, id, seat, text, arrived) })
}

func (t *Table) resolveSeat(player string, seat game.Seat) (game.Seat, *Error) {
	if seat < -1 || int(seat) >= len(t.meta.Seats) {
		return 0, errorf(protocol.BadSeat, "seat %d: the table has seats 0 to %d", seat, len(t.meta.Seats)-1)
	}
	held := t.seatsOf(player)
	if len(held) == 0 {
		return 0, errorf(protocol.NotSeated, "you hold no seat at table %s", t.id)
	}
	if seat < 0 {
		if len(held) > 1 {
			return 0, errorf(protocol.SeatRequired, "you hold seats %v at table %s: name the seat", held, t.id)
		}
		return held[0], nil
	}
	if !slices.Contains(held, seat) {
		return 0, errorf(protocol.NotYourSeat, "seat %d at table %s is not yours", seat, t.id)
	}
	return seat, nil
}

func (t *Table) sendError(sub Subscriber, id json.RawMessage, e *Error) {
	if sub == nil {
		return
	}
	b, _ := json.Marshal(protocol.ErrorMsg{ID: id, Code: e.Code, Message: e.Msg, Table: t.id})
	t.send(sub, b)
}

func (t *Table) move(sub Subscriber, id json.RawMessage, seat game.Seat, text string, arrived time.Time) {
	s, e := t.resolveSeat(sub.Player(), seat)
	if e != nil {
		t.cfg.Metrics.Refused.Add(1)
		t.sendError(sub, id, e)
		return
	}
	if t.meta.Status != store.StatusPlaying {
		t.cfg.Metrics.Refused.Add(1)
		code := protocol.NotYourTurn
		if t.meta.Status == store.StatusFinished {
			code = protocol.GameOver
		}
		t.sendError(sub, id, errorf(code, "the game is %s", t.meta.Status))
		return
	}
	if err := t.apply(s, text, false); err != nil {
		t.cfg.Metrics.Refused.Add(1)
		var te *Error
		if !errors.As(err, &te) {
			te = &Error{Code: protocol.Internal, Msg: err.Error()}
		}
		t.sendError(sub, id, te)
		return
	}
	// The player acted: they are present at this seat.
	t.seats[s].away = false
	t.send(sub, protocol.AppendAck(make([]byte, 0, 48+len(id)+len(t.id)), id, t.id, t.log.len()))
	t.broadcast()
	t.cfg.Metrics.MoveLatency.ObserveDuration(time.Since(arrived))
	t.advance()
}

// apply parses, applies and logs one seat move. On any error the state is
// unchanged.
func (t *Table) apply(s game.Seat, text string, byBot bool) error {
	m, err := t.st.ParseMove(text)
	if err != nil {
		return moveErr(err)
	}
	canon := t.st.FormatMove(m)
	before := t.histBefore()
	if err := t.st.Apply(game.Seat(s), m); err != nil {
		return moveErr(err)
	}
	e := record.Entry{Seat: game.Seat(s), Text: canon}
	if err := t.append(e); err != nil {
		t.rebuild()
		return unavailable("the move", err)
	}
	var by game.By
	if byBot {
		by = t.standIn(s)
		if by != "" && !slices.Contains(t.meta.StandIn, s) {
			t.meta.StandIn = append(slices.Clone(t.meta.StandIn), s) // stored with the table (UpdateTable)
			slices.Sort(t.meta.StandIn)
		}
	}
	t.histStep(before, s, m, false, by)
	t.noteStandIn(by) // standin.go
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
		return &Error{Code: protocol.Code(me.Code), Msg: me.Error()}
	}
	return &Error{Code: protocol.Malformed, Msg: err.Error()}
}

// append logs e as the next step. The store's Append returns nil only for
// a committed entry and an error only for one that was not committed (it
// waits for an entry it has started to write, whatever the deadline), so
// memory and the log cannot disagree after an error. A conflict means the
// log holds more than memory (another writer, or a fault that the store
// could not report exactly): the table re-reads its log (resync).
func (t *Table) append(e record.Entry) error {
	start := time.Now()
	err := t.cfg.Store.Append(t.storeCtx(start), t.id, t.log.len(), e)
	t.cfg.Metrics.CommitLatency.ObserveDuration(time.Since(start))
	if err != nil {
		t.cfg.Metrics.StoreErrors.Add(1)
		if errors.Is(err, store.ErrFenced) {
			// A cluster's table whose lease has passed to another node
			// (docs/cluster.md): expected, and the server stops it.
			t.cfg.Log.Warn("event log append fenced: the table's lease is lost", "table", t.id, "seq", t.log.len())
		} else {
			t.cfg.Log.Error("event log append", "table", t.id, "seq", t.log.len(), "err", err)
		}
		if errors.Is(err, store.ErrConflict) {
			t.resync()
		}
		return err
	}
	t.log.add(e)
	return nil
}

// storeCtx is the deadline of a step's append: it ends between
// StoreTimeout/2 and StoreTimeout after now. A context made for each step
// (context.WithTimeout: a timer started and stopped, and five objects)
// was a sixth of the objects a move allocated; giving up on a store that
// does not answer needs no more precision than this. Only the goroutine
// running the table's events uses it. The last one's timer fires (and is
// released) at most StoreTimeout after the table's last step.
func (t *Table) storeCtx(now time.Time) context.Context {
	if t.sctx == nil || now.After(t.sctxRenew) {
		if t.sctxCancel != nil {
			t.sctxCancel()
		}
		t.sctx, t.sctxCancel = context.WithTimeout(context.Background(), t.cfg.StoreTimeout)
		t.sctxRenew = now.Add(t.cfg.StoreTimeout / 2)
	}
	return t.sctx
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
	if len(events) <= t.log.len() || !t.extendsLog(events) {
		t.cfg.Log.Error("resync: the stored log does not extend the table's", "table", t.id, "stored", len(events), "memory", t.log.len())
		return
	}
	st, err := replay(t.eng, t.meta.Options, events)
	if err != nil {
		t.cfg.Log.Error("resync: the stored log does not replay", "table", t.id, "err", err)
		return
	}
	t.cfg.Log.Warn("resync: adopted steps found in the stored log", "table", t.id, "steps", len(events)-t.log.len())
	t.log, t.st = newEventLog(events), st
	t.publish()
	t.broadcast()
}

// extendsLog reports whether events begin with every entry of the
// table's log.
func (t *Table) extendsLog(events []record.Entry) bool {
	for i := range t.log.len() {
		if !t.log.same(i, events[i]) {
			return false
		}
	}
	return true
}

// rebuild restores the state from the in-memory log after a failed append
// (the engine applied the move before the append was tried).
func (t *Table) rebuild() {
	st, err := replay(t.eng, t.meta.Options, t.log.entries())
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
		rng := game.NewRand(t.meta.Seed ^ (uint64(t.log.len()+1) * 0x9e3779b97f4a7c15))
		text := t.st.SampleChance(&rng)
		before := t.histBefore()
		if err := t.append(record.Entry{Chance: true, Seat: game.Spectator, Text: text}); err != nil {
			t.retryAt = time.Now().Add(time.Second)
			break
		}
		if err := t.st.ApplyChance(text); err != nil {
			t.cfg.Log.Error("engine refused its own chance outcome", "table", t.id, "err", err)
			t.log.truncate(t.log.len() - 1)
			t.retryAt = time.Now().Add(time.Second)
			break
		}
		t.histStep(before, game.Spectator, game.Move{}, true, "")
		t.cfg.Metrics.Chance.Add(1)
		drew = true
	}
	if t.st.Over() {
		t.meta.Status = store.StatusFinished
		t.meta.Result = record.ResultText(t.st)
		t.meta.Winners = t.meta.Winners[:0]
		t.meta.Winners = append(t.meta.Winners, t.st.Result().Winners...)
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
	if t.cfg.MaxSteps > 0 && t.log.len() >= t.cfg.MaxSteps {
		t.endUnfinished(fmt.Sprintf("the game reached %d steps (the bound)", t.cfg.MaxSteps), false)
		return true
	}
	if drew {
		t.publish()
		t.broadcast()
	}
	return drew
}
