package protocol

import (
	"bytes"
	"strconv"

	"cardroom/game"
)

// fastStateHead reads a state head written by AppendStateHead — the
// server's own order and spelling, with no whitespace — in one pass over
// the bytes, without encoding/json's scanner (which would walk the 2,000
// moves of a Papayoo pass byte by byte to find their end). Anything else
// (another order, escapes in a string, spaces) reports false, and the
// caller decodes the message the general way. The legal list is left raw.
func fastStateHead(b []byte) (StateHead, bool) {
	var h StateHead
	r := headReader{b: b}
	if !r.lit(`{"type":"state","table":`) {
		return h, false
	}
	var ok bool
	if h.Table, ok = r.str(); !ok || !r.lit(`,"seq":`) {
		return h, false
	}
	if h.Seq, ok = r.num(); !ok || !r.lit(`,"status":`) {
		return h, false
	}
	status, ok := r.str()
	if !ok || !r.lit(`,"seat":`) {
		return h, false
	}
	h.Status = TableStatus(status)
	seat, ok := r.num()
	if !ok || !r.lit(`,"to_act":[`) {
		return h, false
	}
	h.Seat = game.Seat(seat)
	h.ToAct = []game.Seat{}
	for !r.lit(`]`) {
		if len(h.ToAct) > 0 && !r.lit(`,`) {
			return h, false
		}
		n, ok := r.num()
		if !ok {
			return h, false
		}
		h.ToAct = append(h.ToAct, game.Seat(n))
	}
	if !r.lit(`,"legal":`) {
		return h, false
	}
	start := r.i
	end := arrayEnd(b, start)
	if end < 0 || !eachString(b[start:end], func(int, []byte) bool { return true }) {
		return h, false
	}
	h.LegalRaw = b[start:end:end]
	r.i = end
	if !r.lit(`,"legal_count":`) {
		return h, false
	}
	if h.LegalCount, ok = r.num(); !ok {
		return h, false
	}
	h.Type = TypeState
	return h, true
}

// arrayEnd returns the index just past the JSON array of strings starting
// at b[i], or -1.
func arrayEnd(b []byte, i int) int {
	if i >= len(b) || b[i] != '[' {
		return -1
	}
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '"':
			for j++; j < len(b) && b[j] != '"'; j++ {
				if b[j] == '\\' {
					j++
				}
			}
		case ']':
			return j + 1
		}
	}
	return -1
}

type headReader struct {
	b []byte
	i int
}

func (r *headReader) lit(s string) bool {
	if !bytes.HasPrefix(r.b[r.i:], []byte(s)) {
		return false
	}
	r.i += len(s)
	return true
}

// str reads a string with no escapes (ids and statuses have none).
func (r *headReader) str() (string, bool) {
	if r.i >= len(r.b) || r.b[r.i] != '"' {
		return "", false
	}
	j := bytes.IndexByte(r.b[r.i+1:], '"')
	if j < 0 || bytes.IndexByte(r.b[r.i+1:r.i+1+j], '\\') >= 0 {
		return "", false
	}
	s := intern(r.b[r.i+1 : r.i+1+j])
	r.i += j + 2
	return s, true
}

func (r *headReader) num() (int, bool) {
	j := r.i
	if j < len(r.b) && r.b[j] == '-' {
		j++
	}
	for j < len(r.b) && r.b[j] >= '0' && r.b[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(string(r.b[r.i:j]))
	if err != nil {
		return 0, false
	}
	r.i = j
	return n, true
}
