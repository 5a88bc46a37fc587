package table

import (
	"bytes"
	"encoding/json"
	"slices"
	"sync"

	"cardroom/game"
	"cardroom/protocol"
)

// This file keeps the per-seat legal-move lists between broadcasts, as
// JSON written by protocol (TestHandWrittenJSON checks the whole message
// is what encoding/json writes), and reuses a buffer for the views.

// legalCache is the legal-move list last sent to one seat: the JSON array
// of the first MaxLegal moves' texts, and what it was built from (the total
// count, and the moves themselves when few, or a 64-bit digest of them when
// many — a Papayoo pass lists 2,000 of its thousands of moves). It relies on
// State.FormatMove depending on the move only, which is true of every
// engine (each formats the Move value alone).
type legalCache struct {
	ok    bool
	count int
	moves []game.Move // when at most smallLegal moves are listed
	sum   uint64      // otherwise
	frag  []byte
	pick  game.Pick // the seat's Pick when the moves were one (Verb "" if not)
}

const smallLegal = 128

// movePool holds scratch buffers for Legal: a pass phase enumerates
// thousands of moves, and a thousand tables must not each keep such a buffer.
var movePool = sync.Pool{New: func() any { b := make([]game.Move, 0, 64); return &b }}

// legalJSON returns seat's legal moves as a JSON array of texts (at most
// MaxLegal) and their total count, reusing the array built for the previous
// message while the moves are the same.
func (t *Table) legalJSON(seat game.Seat) ([]byte, int) {
	lc := &t.legal[seat]
	pick, picked := t.pickOf(seat)
	if picked && lc.ok && lc.pick == pick {
		// The same Pick is the same moves in the same order (game.Picker):
		// no need to enumerate thousands of them again for each message
		// of a pass phase.
		return lc.frag, lc.count
	}
	bp := movePool.Get().(*[]game.Move)
	moves := t.st.Legal(game.Seat(seat), (*bp)[:0])
	n := len(moves)
	listed := moves[:min(n, t.listedMax(seat))]
	same := lc.ok && lc.count == n && lc.pick == pick
	var sum uint64
	if len(listed) <= smallLegal {
		same = same && lc.moves != nil && slices.Equal(lc.moves, listed)
	} else {
		sum = hashMoves(listed)
		same = same && lc.moves == nil && lc.sum == sum
	}
	if !same {
		frag := append(lc.frag[:0], '[')
		for i, mv := range listed {
			if i > 0 {
				frag = append(frag, ',')
			}
			frag = protocol.AppendString(frag, t.st.FormatMove(mv))
		}
		frag = append(frag, ']')
		*lc = legalCache{ok: true, count: n, sum: sum, frag: frag, pick: pick}
		if len(listed) <= smallLegal {
			lc.moves = append(make([]game.Move, 0, len(listed)), listed...)
		}
	}
	*bp = moves[:0]
	movePool.Put(bp)
	return lc.frag, n
}

// hashMoves is a 64-bit digest of a move list (splitmix64 steps).
func hashMoves(ms []game.Move) uint64 {
	h := uint64(len(ms)) * 0x9e3779b97f4a7c15
	mix := func(x uint64) {
		h ^= x
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 31
		h *= 0x94d049bb133111eb
		h ^= h >> 29
	}
	for i := range ms {
		m := &ms[i]
		mix(uint64(m.Op) | uint64(m.Card)<<8 | uint64(m.A)<<16 | uint64(m.B)<<24 | uint64(i)<<32)
		mix(uint64(m.Set))
		mix(uint64(m.Set2))
	}
	return h
}

// viewEncoder marshals views into a reused buffer. The encoders are
// pooled, shared by every table, and held only while one message is
// built (stateMsg copies the view's bytes into the message): a table
// kept its own, about 1 KiB of JSON between moves.
type viewEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
	raw []byte // for views that are game.JSONAppenders
}

var viewPool = sync.Pool{New: func() any { return new(viewEncoder) }}

func getViewEncoder() *viewEncoder { return viewPool.Get().(*viewEncoder) }

// putViewEncoder gives e back once the bytes it returned are no longer
// used; an unusually large buffer (over 1 MiB) is not kept.
func putViewEncoder(e *viewEncoder) {
	if cap(e.raw) > 1<<20 || e.buf.Cap() > 1<<20 {
		*e = viewEncoder{}
	}
	viewPool.Put(e)
}

// marshal returns the view's JSON (json.Marshal's bytes), valid until
// the next call or until e goes back to the pool.
func (e *viewEncoder) marshal(v game.View) ([]byte, error) {
	if a, ok := v.(game.JSONAppender); ok {
		// The engine writes its JSON by hand: encoding/json would only
		// re-validate it, which costs more than writing it.
		e.raw = a.AppendJSON(e.raw[:0])
		return e.raw, nil
	}
	if e.enc == nil {
		e.enc = json.NewEncoder(&e.buf)
	}
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		return nil, err
	}
	b := e.buf.Bytes()
	return b[:len(b)-1], nil // Encode ends with a newline
}
