package table

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"sync"

	"cardroom/game"
)

// This file writes the hot messages by hand, byte for byte as
// encoding/json writes them (TestHandWrittenJSON checks it), and keeps the
// per-seat legal-move lists between broadcasts.

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
}

const smallLegal = 128

// movePool holds scratch buffers for Legal: a pass phase enumerates
// thousands of moves, and a thousand tables must not each keep such a buffer.
var movePool = sync.Pool{New: func() any { b := make([]game.Move, 0, 64); return &b }}

// legalJSON returns seat's legal moves as a JSON array of texts (at most
// MaxLegal) and their total count, reusing the array built for the previous
// message while the moves are the same.
func (t *Table) legalJSON(seat int) ([]byte, int) {
	bp := movePool.Get().(*[]game.Move)
	moves := t.st.Legal(game.Seat(seat), (*bp)[:0])
	n := len(moves)
	listed := moves[:min(n, t.cfg.MaxLegal)]
	lc := &t.legal[seat]
	same := lc.ok && lc.count == n
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
			frag = appendString(frag, t.st.FormatMove(mv))
		}
		frag = append(frag, ']')
		*lc = legalCache{ok: true, count: n, sum: sum, frag: frag}
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

// appendHead writes the per-observer fields of a state message (stateHead),
// from the opening brace, without the closing one.
func appendHead(b []byte, table string, seq int, status string, seat int, toAct []game.Seat, legal []byte, legalCount int) []byte {
	b = append(b, `{"type":"state","table":`...)
	b = appendString(b, table)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, int64(seq), 10)
	b = append(b, `,"status":`...)
	b = appendString(b, status)
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(seat), 10)
	b = append(b, `,"to_act":[`...)
	for i, s := range toAct {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(s), 10)
	}
	b = append(b, `],"legal":`...)
	b = append(b, legal...)
	b = append(b, `,"legal_count":`...)
	b = strconv.AppendInt(b, int64(legalCount), 10)
	return b
}

// ackMsg is the acknowledgement of a move.
func ackMsg(id json.RawMessage, table string, seq int) []byte {
	if !plainJSON(id) {
		b, _ := json.Marshal(struct {
			Type  string          `json:"type"`
			ID    json.RawMessage `json:"id,omitempty"`
			Table string          `json:"table"`
			Seq   int             `json:"seq"`
		}{"ack", id, table, seq})
		return b
	}
	b := make([]byte, 0, 48+len(id)+len(table))
	b = append(b, `{"type":"ack",`...)
	if len(id) > 0 {
		b = append(b, `"id":`...)
		b = append(b, id...)
		b = append(b, ',')
	}
	b = append(b, `"table":`...)
	b = appendString(b, table)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, int64(seq), 10)
	return append(b, '}')
}

// plainJSON reports whether raw JSON (a request's id: a string or a number,
// as the server accepts it) is written unchanged by encoding/json: printable
// ASCII without spaces and without the characters it escapes for HTML.
func plainJSON(raw []byte) bool {
	for _, c := range raw {
		if c <= ' ' || c >= 0x7f || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// appendString appends s as a JSON string, as encoding/json writes it:
// printable ASCII other than the quote, the backslash and the characters
// escaped for HTML is written as it is; anything else goes to encoding/json.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendJSON appends v marshalled by encoding/json ("null" for a nil pointer).
func appendJSON[T any](b []byte, v *T) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	j, err := json.Marshal(v)
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, j...)
}

// viewEncoder marshals views into a reused buffer.
type viewEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

// marshalView returns the view's JSON (json.Marshal's bytes), valid until
// the next call.
func (t *Table) marshalView(v game.View) ([]byte, error) {
	e := &t.viewBuf
	if e.enc == nil {
		e.enc = json.NewEncoder(&e.buf)
	}
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		return nil, err
	}
	b := e.buf.Bytes()
	b = b[:len(b)-1] // Encode ends with a newline
	if e.buf.Cap() > 1<<20 {
		// Do not keep an unusually large buffer.
		b = bytes.Clone(b)
		*e = viewEncoder{}
	}
	return b, nil
}
