package table

import (
	"sync"
	"time"

	"cardroom/game"
	"cardroom/protocol"
	"cardroom/record"
)

// The public move history of the table's game (docs/protocol.md,
// "The move history"). The entries are derived from the log by the engine's
// game.Historian, so nothing new is stored: each step is described as it
// is applied, and whenever the history does not cover the log (a table
// restored after a restart, a resync) it is rebuilt by replaying the log.
// Who chose a move (by: away, timeout) is known only to the running table:
// a rebuilt history has no such marks.
//
// The entries are kept encoded, once each: a message slices the bytes it
// needs, so no broadcast re-encodes the history. At most histKeep entries
// are held (past that the oldest are dropped down to MaxHistory, so the
// copy is rare); a first message carries the last protocol.MaxHistory.

// tableHistory is a table's history.
type tableHistory struct {
	json  []byte   // every kept entry's JSON followed by a comma
	offs  []uint32 // offs[i]: where kept entry i starts in json (at most histKeep entries of some 60 bytes)
	base  int      // the index of the first kept entry
	steps int      // the log steps described; the history is current when it equals t.log.len()
	sent  int      // the entry count at the last broadcast
	buf   []game.Entry
	// frag is the history part of the message being built (stateMsg):
	// set by sendState and broadcast, nil otherwise, in a buffer from
	// histPool (histDone gives it back).
	frag []byte
}

// count is the number of entries of the game so far.
func (h *tableHistory) count() int { return h.base + len(h.offs) }

// historian is the engine's describer, nil if it has none.
func (t *Table) historian() game.Historian {
	h, _ := t.eng.(game.Historian)
	return h
}

// histBefore is the state before a step, for the describer (nil when the
// engine describes nothing). A history that does not cover the log (a
// restored table) is rebuilt first, so that the steps from now on keep
// their stand-in marks.
func (t *Table) histBefore() game.State {
	if t.historian() == nil {
		return nil
	}
	t.histSync()
	if c, ok := t.st.(game.Copier); ok {
		dst, _ := beforePool.Get().(game.State)
		return c.CopyInto(dst)
	}
	return t.st.Clone()
}

// beforePool holds the snapshots histBefore took, once histStep has
// described the step (one State a move was a tenth of the bytes a move
// allocated): game.Copier copies into one of its own engine, or clones.
var beforePool sync.Pool

// histStep describes the step just applied and logged (a seat's move, or
// chance when chance is true), from before (histBefore) to t.st. If the
// step was a trick closing, a round ending or a chain drawn while people
// watch, the next bot move waits the trick pause.
func (t *Table) histStep(before game.State, s game.Seat, m game.Move, chance bool, by game.By) {
	h := t.historian()
	if before != nil {
		// The entries are encoded below (histAdd), nothing keeps before.
		defer beforePool.Put(before)
	}
	if h == nil || before == nil || t.hist.steps != t.log.len()-1 {
		return // histSync rebuilds it from the log
	}
	buf := t.hist.buf[:0]
	if chance {
		buf = h.AppendChance(buf, before, t.st)
	} else {
		buf = h.AppendMove(buf, before, t.st, s, m, by)
	}
	t.hist.steps++
	pause := false
	for i := range buf {
		pause = pause || buf[i].Pauses()
		t.histAdd(&buf[i])
	}
	clear(buf) // keep no cards alive
	t.hist.buf = buf[:0]
	if pause && t.cfg.TrickPause > 0 && len(t.subs) > 0 {
		t.pauseUntil = time.Now().Add(t.cfg.TrickPause)
	}
}

// histKeep bounds the entries a table holds: about 60 bytes each, so a
// long Pis Yedili game keeps some 75 KB.
const histKeep = protocol.MaxHistory * 5 / 4

// histAdd encodes one entry and appends it, dropping the oldest down to
// MaxHistory when histKeep are held.
func (t *Table) histAdd(e *game.Entry) {
	h := &t.hist
	if len(h.offs) >= histKeep {
		drop := len(h.offs) - protocol.MaxHistory
		cut := h.offs[drop]
		h.json = append(h.json[:0], h.json[cut:]...)
		h.offs = append(h.offs[:0], h.offs[drop:]...)
		for i := range h.offs {
			h.offs[i] -= cut
		}
		h.base += drop
	}
	h.offs = append(h.offs, uint32(len(h.json)))
	h.json = e.AppendJSON(h.json, t.eng.Deck())
	h.json = append(h.json, ',')
}

// histSync rebuilds the history from the log when it does not cover it.
func (t *Table) histSync() {
	h := t.historian()
	if h == nil || t.hist.steps == t.log.len() {
		return
	}
	sent := t.hist.sent
	t.hist = tableHistory{buf: t.hist.buf}
	defer func() {
		t.hist.sent = min(sent, t.hist.count())
		// Even a log that does not replay (the table replayed it, so this
		// cannot happen) is not replayed again at every step: the history
		// stays partial and goes on from here.
		t.hist.steps = t.log.len()
	}()
	st, err := replay(t.eng, t.meta.Options, nil)
	if err != nil {
		return
	}
	for i := range t.log.len() {
		e := t.log.at(i)
		before := st.Clone()
		if err := record.Step(st, e); err != nil {
			t.cfg.Log.Error("history: the log does not replay", "table", t.id, "step", i, "err", err)
			return
		}
		buf := t.hist.buf[:0]
		if e.Chance {
			buf = h.AppendChance(buf, before, st)
		} else {
			m, _ := st.ParseMove(e.Text) // it parsed in record.Step
			buf = h.AppendMove(buf, before, st, e.Seat, m, "")
		}
		for j := range buf {
			t.histAdd(&buf[j])
		}
		clear(buf)
		t.hist.buf = buf[:0]
		t.hist.steps++
	}
}

// histFrom writes the history entries from index from on (at least the
// first kept one, at most the last MaxHistory) as a MoveHistory, or nil
// when there are none.
func (t *Table) histFrom(b []byte, from int) []byte {
	h := &t.hist
	from = max(from, h.base, h.count()-protocol.MaxHistory)
	if from >= h.count() {
		return nil
	}
	start := h.offs[from-h.base]
	return protocol.AppendHistory(b, from, h.json[start:len(h.json)-1])
}

// histAll is the whole history, for a subscriber's first message (valid
// until histDone).
func (t *Table) histAll() []byte {
	t.histSync()
	return t.histFrom(getHistBuf(), 0)
}

// histNew is the history added since the last broadcast, for this one
// (valid until histDone).
func (t *Table) histNew() []byte {
	t.histSync()
	b := t.histFrom(getHistBuf(), t.hist.sent)
	t.hist.sent = t.hist.count()
	return b
}

// histDone ends the message building that histAll or histNew began: the
// fragment's buffer goes back to the pool.
func (t *Table) histDone() {
	if b := t.hist.frag; b != nil && cap(b) <= 64<<10 {
		b = b[:0]
		histPool.Put(&b)
	}
	t.hist.frag = nil
}

// histPool holds the buffers the history fragments are written in
// (*[]byte), shared by every table and held only while a broadcast is
// built: a table kept its own between moves.
var histPool sync.Pool

func getHistBuf() []byte {
	if bp, ok := histPool.Get().(*[]byte); ok {
		return (*bp)[:0]
	}
	return nil
}

// standIn says who chooses seat s's move when a bot makes it: "" for a
// bot seat, away for an absent player's stand-in, timeout for a clock's.
func (t *Table) standIn(s game.Seat) game.By {
	if t.meta.Seats[s].Bot != "" {
		return ""
	}
	ss := &t.seats[s]
	switch {
	case ss.away:
		return game.ByAway
	case ss.expired:
		return game.ByTimeout
	}
	return ""
}
