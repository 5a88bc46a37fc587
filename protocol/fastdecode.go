package protocol

import (
	"cardroom/game"
	"encoding/json"
)

// The decoder's fast path. Nearly every message a room reads is a move,
// {"type":"move","id":7,"table":"t1","seat":2,"move":"play 10S"}: a flat
// object of a few known keys with plain values. encoding/json spends about
// as long setting up its reflection as reading such a message, so scanFlat
// reads exactly this shape by hand and gives up on anything else — another
// key, a key in another case, a duplicate, an escape, a byte outside
// printable ASCII in a string, a number that is not a plain integer — and
// DecodeClient then reads the message with encoding/json as before. So the
// fast path decides nothing on its own: what it accepts, encoding/json reads
// the same way (FuzzFastDecode checks it), and the checks after decoding
// are the same for both.

// scanFlat fills m from b (already trimmed, starting with '{') if b is a
// flat object whose keys are among type, id, table, seat and move, with
// string values of printable ASCII without escapes, id a string or a plain
// integer, and seat a plain integer or null. It reports whether it did; when
// it did not, m may be partly filled and must be reset.
func scanFlat(b []byte, m *request) bool {
	i := skipSpace(b, 1)
	if i < len(b) && b[i] == '}' {
		return skipSpace(b, i+1) == len(b)
	}
	var seen uint8
	for {
		// A key.
		key, j, ok := plainString(b, i)
		if !ok {
			return false
		}
		i = skipSpace(b, j)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		var bit uint8
		switch key {
		case "type":
			bit = 1
			m.Type, i, ok = plainString(b, i)
		case "id":
			bit = 2
			var end int
			if i < len(b) && b[i] == '"' {
				_, end, ok = plainString(b, i)
			} else {
				_, end, ok = plainInt(b, i)
			}
			if ok {
				// A copy: b is the reader's buffer, used again for the
				// next message, and the id lives on in the answer.
				m.ID, i = append(json.RawMessage(nil), b[i:end]...), end
			}
		case "table":
			bit = 4
			m.Table, i, ok = plainString(b, i)
		case "seat":
			bit = 8
			if i+4 <= len(b) && string(b[i:i+4]) == "null" {
				m.Seat, i = nil, i+4
			} else {
				var n int
				n, i, ok = plainInt(b, i)
				s := game.Seat(n)
				m.Seat = &s
			}
		case "move":
			bit = 16
			m.Move, i, ok = plainString(b, i)
		default:
			return false
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		i = skipSpace(b, i)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return skipSpace(b, i+1) == len(b)
		default:
			return false
		}
	}
}

// plainString reads a JSON string at b[i] made of printable ASCII with no
// escapes; it returns its contents and the index after its closing quote.
func plainString(b []byte, i int) (string, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return "", i, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return string(b[i+1 : j]), j + 1, true
		case c == '\\' || c < 0x20 || c > 0x7e:
			return "", i, false
		}
	}
	return "", i, false
}

// plainInt reads an integer at b[i] in JSON's form (no leading zeros, no
// fraction or exponent) of at most 18 digits, so that it fits an int.
func plainInt(b []byte, i int) (int, int, bool) {
	j, neg := i, false
	if j < len(b) && b[j] == '-' {
		neg = true
		j++
	}
	start, n := j, 0
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		n = n*10 + int(b[j]-'0')
		j++
	}
	digits := j - start
	switch {
	case digits == 0 || digits > 18:
		return 0, i, false
	case digits > 1 && b[start] == '0':
		return 0, i, false // a leading zero is not JSON
	case j < len(b) && (b[j] == '.' || b[j] == 'e' || b[j] == 'E'):
		return 0, i, false // a fraction or exponent: encoding/json decides
	}
	if neg {
		n = -n
	}
	return n, j, true
}
