package server

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"cardroom/game"
	"cardroom/protocol"
	"cardroom/record"
	"cardroom/store"
	"cardroom/table"
)

// finished is a finished game's row and event log, and its move history
// once a replay asked for it (hist).
type finished struct {
	meta     store.Table
	events   []record.Entry
	histOnce sync.Once
	hist     *replayHistory
	// marks are states of the game along its log, for its replay
	// (stateAt): marks[i] is the state after i·markEvery(len(events))
	// entries, made as far as a replay has asked.
	marksMu sync.Mutex
	marks   []game.State
}

// markEvery is the distance between a cached game's replay marks: at
// least minMarkEvery entries, and at most maxMarks marks a game. A replay
// of step k plays the log from the mark before it (fewer than markEvery
// entries), where it played the whole log up to k: the room ends a game at
// -max-steps (100,000) steps, and 500 Rum's log of that length took a
// tenth of a second to replay, a request, at the API's 20 a second.
func markEvery(entries int) int { return max(minMarkEvery, (entries+maxMarks-1)/maxMarks) }

const (
	minMarkEvery = 512
	maxMarks     = 16
)

// stateAt returns a state of its own of the game after its first step
// entries (0 to len(events)), played from the nearest mark, making the
// marks up to it on the way.
func (f *finished) stateAt(eng game.Engine, step int) (game.State, error) {
	every := markEvery(len(f.events))
	f.marksMu.Lock()
	if len(f.marks) == 0 {
		st, err := table.Record(f.meta, nil).Start(eng)
		if err != nil {
			f.marksMu.Unlock()
			return nil, err
		}
		f.marks = append(f.marks, st)
	}
	want := step / every
	for len(f.marks) <= want {
		i := len(f.marks) - 1
		st := f.marks[i].Clone()
		if err := replayEntries(st, f.events, i*every, (i+1)*every); err != nil {
			f.marksMu.Unlock()
			return nil, err
		}
		f.marks = append(f.marks, st)
	}
	st := f.marks[want].Clone()
	f.marksMu.Unlock()
	if err := replayEntries(st, f.events, want*every, step); err != nil {
		return nil, err
	}
	return st, nil
}

// replayEntries applies events[from:to] to st; an entry refused is a
// *record.ReplayError naming it.
func replayEntries(st game.State, events []record.Entry, from, to int) error {
	for i := from; i < to; i++ {
		if err := record.Step(st, events[i]); err != nil {
			return &record.ReplayError{Index: i, Line: events[i].Line, Entry: events[i], Err: err}
		}
	}
	return nil
}

// replayHistory is a finished game's public move history (docs/protocol.md,
// "The move history"), described once per cached game from its log by the
// engine, as the running table described it: the same entries, but without
// the stand-in marks (by), which only the running table knew.
type replayHistory struct {
	entries []protocol.HistoryEntry
	at      []int // at[i]: the entries the first i steps of the log made
}

// history is the game's move history, described on first use. A log that
// stops replaying (it replayed when the game was played, so this does not
// happen) keeps the history it had up to there.
func (f *finished) history(eng game.Engine) *replayHistory {
	f.histOnce.Do(func() { f.hist = describeLog(eng, f.meta, f.events) })
	return f.hist
}

func describeLog(eng game.Engine, meta store.Table, events []record.Entry) *replayHistory {
	h := &replayHistory{at: make([]int, 1, len(events)+1)}
	hi, ok := eng.(game.Historian)
	st, err := table.Record(meta, nil).Start(eng)
	var buf []game.Entry
	for _, e := range events {
		if ok && err == nil && !e.Comment {
			before := st.Clone()
			if err = record.Step(st, e); err == nil {
				if e.Chance {
					buf = hi.AppendChance(buf[:0], before, st)
				} else {
					m, _ := st.ParseMove(e.Text) // it parsed in record.Step
					buf = hi.AppendMove(buf[:0], before, st, e.Seat, m, "")
				}
				for i := range buf {
					h.entries = append(h.entries, protocol.EntryOf(&buf[i], eng.Deck()))
				}
			}
		}
		h.at = append(h.at, len(h.entries))
	}
	return h
}

// upTo is the history after step of the log, from entry from on (a client
// that holds the first entries asks only for the rest), at most the last
// protocol.MaxHistory of it; and where the entries of that step begin.
func (h *replayHistory) upTo(step, from int) (*protocol.MoveHistory, int) {
	end := h.at[step]
	from = min(max(from, end-protocol.MaxHistory), end)
	first := 0
	if step > 0 {
		first = h.at[step-1]
	}
	return &protocol.MoveHistory{From: from, Entries: h.entries[from:end:end]}, first
}

// recordCache keeps the logs of recently read finished games: a finished
// game never changes, and a replay is read step by step (one request per
// step), so each step would otherwise read the whole log again. It holds at
// most max games and maxEntries log entries in all (a game of the room's
// longest, 100,000 steps, is about 20 MB with its history and replay
// marks: 500 Rum's 16 marks alone are 7 MB); when full it forgets half of them (any half: the cache is a cost
// bound, not an index).
type recordCache struct {
	mu         sync.Mutex
	m          map[string]*finished
	max        int
	maxEntries int
	entries    int // of the games held
	hits       int64
}

// recordCacheEntries bounds the log entries the record cache holds: 256
// games of 2,000 steps, or 5 of the longest.
const recordCacheEntries = 1 << 19

// MaxRecordCache bounds Config.RecordCache.
const MaxRecordCache = 1 << 16

func newRecordCache(max int) *recordCache {
	return &recordCache{m: map[string]*finished{}, max: max, maxEntries: recordCacheEntries}
}

// stats returns the games held and the reads the cache answered.
func (c *recordCache) stats() (held int, hits int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m), c.hits
}

// get returns table id's row and, when the game is finished, its log.
func (c *recordCache) get(ctx context.Context, st store.Store, id string) (*finished, error) {
	c.mu.Lock()
	f := c.m[id]
	if f != nil {
		c.hits++
	}
	c.mu.Unlock()
	if f != nil {
		return f, nil
	}
	meta, err := st.Table(ctx, id)
	if err != nil {
		return nil, err
	}
	f = &finished{meta: meta}
	if meta.Status != store.StatusFinished {
		return f, nil
	}
	if f.events, err = st.Events(ctx, id); err != nil {
		return nil, err
	}
	if len(f.events) > c.maxEntries {
		return f, nil // alone over the bound: read, not kept
	}
	c.mu.Lock()
	if len(c.m) >= c.max || c.entries+len(f.events) > c.maxEntries {
		n, half := 0, len(c.m)/2
		for k, g := range c.m {
			if n >= half && c.entries+len(f.events) <= c.maxEntries {
				break
			}
			delete(c.m, k)
			c.entries -= len(g.events)
			n++
		}
	}
	if _, ok := c.m[id]; !ok {
		c.m[id] = f
		c.entries += len(f.events)
	}
	c.mu.Unlock()
	return f, nil
}

// historyFor is the history of finished game f for its replay, and
// the replay's history_from: the entries the client already holds (0 to
// the game's count; default 0). On a bad number it writes the answer and
// returns nil.
func historyFor(w http.ResponseWriter, r *http.Request, f *finished, eng game.Engine) (*replayHistory, int) {
	h := f.history(eng)
	from := 0
	if v := r.URL.Query().Get("history_from"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > len(h.entries) {
			writeErr(w, http.StatusBadRequest, protocol.BadRequest, fmt.Sprintf("history_from must be 0 to %d", len(h.entries)))
			return nil, 0
		}
		from = n
	}
	return h, from
}
