package protocol

import (
	"encoding/json"
	"strconv"

	"cardroom/game"
)

// This file writes the hot server messages by hand, byte for byte as
// encoding/json writes their types (TestHandWrittenJSON checks it): a
// state message goes to every observer after every step, and building it
// through encoding/json cost a third more CPU per move (BenchmarkState).
// The parts that do not change between messages (the options, the seats,
// a seat's legal-move list) are passed in already written, so a caller can
// keep them between broadcasts.

// Marshal encodes any message with encoding/json (the plain way, for the
// messages that are not hot).
func Marshal(m ServerMsg) ([]byte, error) { return json.Marshal(m) }

// AppendStateHead writes StateHead's fields of a state message, from the
// opening brace, without the closing one. legal is the JSON array of the
// legal moves (AppendLegal).
func AppendStateHead(b []byte, table string, seq int, status TableStatus, seat game.Seat, toAct []game.Seat, legal []byte, legalCount int) []byte {
	b = append(b, `{"type":"state","table":`...)
	b = AppendString(b, table)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, int64(seq), 10)
	b = append(b, `,"status":`...)
	b = AppendString(b, string(status))
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

// AppendLegal writes a JSON array of move texts (StateHead.Legal).
func AppendLegal(b []byte, moves ...string) []byte {
	b = append(b, '[')
	for i, m := range moves {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, m)
	}
	return append(b, ']')
}

// AppendStateCommon writes StateCommon as a JSON object. options and seats
// are the JSON of StateCommon.Options and StateCommon.Seats (json.Marshal's
// bytes), which change rarely and are kept by the caller.
func AppendStateCommon(b []byte, gameName string, options []byte, clock *Clock, seats []byte, result *game.Result, serverTimeMS int64) []byte {
	b = append(b, `{"game":`...)
	b = AppendString(b, gameName)
	b = append(b, `,"options":`...)
	b = append(b, options...)
	b = append(b, `,"clock":`...)
	b = appendJSON(b, clock)
	b = append(b, `,"seats":`...)
	b = append(b, seats...)
	b = append(b, `,"result":`...)
	b = appendJSON(b, result)
	b = append(b, `,"server_time_ms":`...)
	b = strconv.AppendInt(b, serverTimeMS, 10)
	return append(b, '}')
}

// AppendStateEnd completes a state message whose head b holds
// (AppendStateHead): common from AppendStateCommon (shared by every
// observer of a broadcast), then history (AppendHistory; nil or empty: the
// message has none), then view, the engine's view as JSON ("null" before
// the start), last so that a client may stop reading before it.
func AppendStateEnd(b, common, history, view []byte) []byte {
	b = append(b, ',')
	b = append(b, common[1:len(common)-1]...)
	if len(history) > 0 {
		b = append(b, `,"history":`...)
		b = append(b, history...)
	}
	b = append(b, `,"view":`...)
	b = append(b, view...)
	return append(b, '}')
}

// AppendHistory writes a MoveHistory whose entries are already written:
// entries is their JSON objects (game.Entry.AppendJSON) separated by
// commas, so a table keeps its history encoded once and slices it for each
// message.
func AppendHistory(b []byte, from int, entries []byte) []byte {
	b = append(b, `{"from":`...)
	b = strconv.AppendInt(b, int64(from), 10)
	b = append(b, `,"entries":[`...)
	b = append(b, entries...)
	return append(b, "]}"...)
}

// AppendAck writes an AckMsg.
func AppendAck(b []byte, id json.RawMessage, table string, seq int) []byte {
	if !plainJSON(id) {
		j, _ := json.Marshal(AckMsg{ID: id, Table: table, Seq: seq})
		return append(b, j...)
	}
	b = append(b, `{"type":"ack",`...)
	if len(id) > 0 {
		b = append(b, `"id":`...)
		b = append(b, id...)
		b = append(b, ',')
	}
	b = append(b, `"table":`...)
	b = AppendString(b, table)
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

// AppendString appends s as a JSON string, as encoding/json writes it.
func AppendString(b []byte, s string) []byte { return game.AppendJSONString(b, s) }

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

// AppendLobby writes a LobbyMsg whose tables are already encoded (the JSON
// array of the summaries: the server encodes the list once per change and
// shares it with GET /api/tables).
func AppendLobby(b, tables []byte) []byte {
	b = append(b, `{"type":"lobby","tables":`...)
	b = append(b, tables...)
	return append(b, '}')
}
