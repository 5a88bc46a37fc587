package protocol

import (
	"bytes"
	"cardroom/game"
	"encoding/json"
	"errors"
	"fmt"
)

// request is every client message's fields at once: the decoder reads a
// message into it in one pass, checks it, then returns the message's own
// type. A field that one type does not use is still type-checked, so that
// {"type":"ping","table":7} is refused as a bad field, not half-read.
type request struct {
	Type      string            `json:"type"`
	ID        json.RawMessage   `json:"id,omitempty"`
	Table     string            `json:"table"`
	Seat      *game.Seat        `json:"seat"`
	Move      string            `json:"move"`
	Invite    string            `json:"invite"`
	Level     string            `json:"level"`
	Subscribe *bool             `json:"subscribe"`
	Game      string            `json:"game"`
	Options   map[string]string `json:"options"`
	Private   bool              `json:"private"`
	ClockMS   int               `json:"clock_ms"`
	BotLevel  string            `json:"bot_level"`
	Bots      map[string]string `json:"bots"`
	Rated     bool              `json:"rated"`
	WhenEmpty string            `json:"when_empty"`
	// Chat and rematch (chat.go).
	Channel        string `json:"channel"`
	Text           string `json:"text"`
	Phrase         string `json:"phrase"`
	Line           int64  `json:"line"`
	Reason         string `json:"reason"`
	ShowSpectators *bool  `json:"show_spectators"`
	SpectatorChat  *bool  `json:"spectator_chat"`
	Accept         *bool  `json:"accept"`
}

// ClientTypes lists the types of the client messages.
func ClientTypes() []string {
	return []string{TypeLobby, TypeCreate, TypeJoin, TypeLeave, TypeAddBot, TypeRemoveBot, TypeWatch, TypeUnwatch, TypeMove, TypeHint, TypePing,
		TypeChat, TypeChatSettings, TypeChatReport, TypeRematch}
}

// ServerTypes lists the types of the server messages.
func ServerTypes() []string {
	return []string{TypeWelcome, TypeState, TypeAck, TypeError, TypeLobby, TypeCreated, TypeJoined, TypeHint, TypePong,
		TypeChat, TypeChatSettings, TypeChatReport, TypeRematch}
}

// needTable lists the types that require the table field.
var needTable = map[string]bool{
	TypeJoin: true, TypeLeave: true, TypeAddBot: true, TypeRemoveBot: true, TypeWatch: true, TypeUnwatch: true, TypeMove: true, TypeHint: true,
	TypeChat: true, TypeChatSettings: true, TypeChatReport: true, TypeRematch: true,
}

// DecoderCodes are the codes DecodeClient refuses with.
var DecoderCodes = []Code{BadJSON, BadRequest, UnknownType, TooLarge, BadSeat}

func refuse(id json.RawMessage, table string, code Code, format string, args ...any) *ErrorMsg {
	return &ErrorMsg{Type: TypeError, ID: id, Code: code, Message: fmt.Sprintf(format, args...), Table: table}
}

// DecodeClient parses one client message and checks its shape: its size,
// its type, the fields its type requires, the range of a seat number and
// the length of the strings. It never panics. A refusal is the error
// message to answer with; it carries the request's id and table when they
// could be read (an id that is not a string or a number of at most MaxID
// bytes is never echoed).
func DecodeClient(b []byte) (ClientMsg, *ErrorMsg) {
	if len(b) > MaxMessage {
		return nil, refuse(nil, "", TooLarge, "message of %d bytes: the limit is %d", len(b), MaxMessage)
	}
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, refuse(nil, "", BadJSON, "a message must be a JSON object")
	}
	var m request
	if !scanFlat(trimmed, &m) { // fastdecode.go: most moves are read there
		m = request{}
		if e := unmarshalRequest(trimmed, &m); e != nil {
			return nil, e
		}
	}
	return m.check()
}

// unmarshalRequest reads a message with encoding/json, or says why not.
func unmarshalRequest(trimmed []byte, m *request) *ErrorMsg {
	// Unmarshal checks the whole input is valid JSON before decoding, so
	// json.Valid is needed only to tell bad JSON from a bad field.
	if err := json.Unmarshal(trimmed, m); err != nil {
		if !json.Valid(trimmed) {
			return refuse(nil, "", BadJSON, "the message is not valid JSON")
		}
		// Keep the id if it can be read, to answer with it.
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal(trimmed, &probe)
		id := probe.ID
		if !ValidID(id) {
			id = nil
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return refuse(id, "", BadRequest, "field %s: want %s, got JSON %s", te.Field, te.Type, te.Value)
		}
		return refuse(id, "", BadRequest, "%s", err.Error())
	}
	return nil
}

// check checks a decoded message's fields and returns its typed message.
func (m *request) check() (ClientMsg, *ErrorMsg) {
	if !ValidID(m.ID) {
		return nil, refuse(nil, m.Table, BadRequest, "field id: want a string or a number of at most %d bytes", MaxID)
	}
	if m.Type == "" {
		return nil, refuse(m.ID, m.Table, UnknownType, "the message has no type")
	}
	msg := m.typed()
	if msg == nil {
		t := m.Type
		if len(t) > 32 {
			t = t[:32] + "…"
		}
		return nil, refuse(m.ID, m.Table, UnknownType, "unknown message type %q", t)
	}
	if needTable[m.Type] && m.Table == "" {
		return nil, refuse(m.ID, m.Table, BadRequest, "%s: field table is required", m.Type)
	}
	if m.Type == TypeMove && m.Move == "" {
		return nil, refuse(m.ID, m.Table, BadRequest, "move: field move is required")
	}
	if m.Seat != nil && (*m.Seat < -1 || *m.Seat >= MaxSeats) {
		return nil, refuse(m.ID, m.Table, BadSeat, "seat %d: want -1 or a seat number", *m.Seat)
	}
	if len(m.Table) > 64 || len(m.Invite) > 64 || len(m.Level) > 32 || len(m.Game) > 32 || len(m.BotLevel) > 32 {
		return nil, refuse(m.ID, m.Table, BadRequest, "a field is too long (table, invite: 64 bytes; game, level, bot_level: 32)")
	}
	if e := m.checkChat(); e != nil {
		return nil, e
	}
	return m.typed(), nil // again: checkChat normalizes the text
}

// typed returns the message as its own type (nil for an unknown type).
func (m *request) typed() ClientMsg {
	switch m.Type {
	case TypeLobby:
		return &LobbyReq{Type: m.Type, ID: m.ID, Subscribe: m.Subscribe}
	case TypeCreate:
		return &CreateReq{Type: m.Type, ID: m.ID, Game: m.Game, Options: m.Options, Private: m.Private, ClockMS: m.ClockMS,
			BotLevel: m.BotLevel, Seat: m.Seat, Bots: m.Bots, Rated: m.Rated, WhenEmpty: m.WhenEmpty}
	case TypeJoin:
		return &JoinReq{Type: m.Type, ID: m.ID, Table: m.Table, Seat: m.Seat, Invite: m.Invite}
	case TypeLeave:
		return &LeaveReq{Type: m.Type, ID: m.ID, Table: m.Table}
	case TypeAddBot:
		return &AddBotReq{Type: m.Type, ID: m.ID, Table: m.Table, Seat: m.Seat, Level: m.Level}
	case TypeRemoveBot:
		return &RemoveBotReq{Type: m.Type, ID: m.ID, Table: m.Table, Seat: m.Seat}
	case TypeWatch:
		return &WatchReq{Type: m.Type, ID: m.ID, Table: m.Table, Invite: m.Invite}
	case TypeUnwatch:
		return &UnwatchReq{Type: m.Type, ID: m.ID, Table: m.Table}
	case TypeMove:
		return &MoveReq{Type: m.Type, ID: m.ID, Table: m.Table, Seat: m.Seat, Move: m.Move}
	case TypeHint:
		return &HintReq{Type: m.Type, ID: m.ID, Table: m.Table, Seat: m.Seat}
	case TypePing:
		return &PingReq{Type: m.Type, ID: m.ID}
	case TypeChat:
		return &ChatReq{Type: m.Type, ID: m.ID, Table: m.Table, Channel: m.Channel, Text: m.Text, Phrase: m.Phrase}
	case TypeChatSettings:
		return &ChatSettingsReq{Type: m.Type, ID: m.ID, Table: m.Table, ShowSpectators: m.ShowSpectators, SpectatorChat: m.SpectatorChat}
	case TypeChatReport:
		return &ChatReportReq{Type: m.Type, ID: m.ID, Table: m.Table, Line: m.Line, Reason: m.Reason}
	case TypeRematch:
		return &RematchReq{Type: m.Type, ID: m.ID, Table: m.Table, Accept: m.Accept}
	}
	return nil
}

// ValidID reports whether a request's raw id may be echoed: absent, null,
// a string or a number, of at most MaxID bytes.
func ValidID(id json.RawMessage) bool {
	if len(id) == 0 {
		return true
	}
	if len(id) > MaxID {
		return false
	}
	switch id[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return true
	case 'n':
		return string(id) == "null"
	}
	return false
}

// DecodeServer decodes a server message into its own type: *WelcomeMsg,
// *StateMsg and so on (a pointer to the type of its "type"). A message of
// a type this package does not know is returned as *UnknownMsg, not as an
// error: clients must ignore unknown types (docs/protocol.md, Versioning).
func DecodeServer(b []byte) (ServerMsg, error) {
	typ, err := PeekType(b)
	if err != nil {
		return nil, err
	}
	var m ServerMsg
	switch typ {
	case TypeWelcome:
		m = new(WelcomeMsg)
	case TypeState:
		m = new(StateMsg)
	case TypeAck:
		m = new(AckMsg)
	case TypeError:
		m = new(ErrorMsg)
	case TypeLobby:
		m = new(LobbyMsg)
	case TypeCreated:
		m = new(CreatedMsg)
	case TypeJoined:
		m = new(JoinedMsg)
	case TypeHint:
		m = new(HintMsg)
	case TypePong:
		m = new(PongMsg)
	case TypeChat:
		m = new(ChatMsg)
	case TypeChatSettings:
		m = new(ChatSettingsMsg)
	case TypeChatReport:
		m = new(ChatReportMsg)
	case TypeRematch:
		m = new(RematchMsg)
	default:
		return &UnknownMsg{Type: typ}, nil
	}
	if err := json.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("protocol: %s message: %w", typ, err)
	}
	return m, nil
}

// UnknownMsg is a server message of a type this package does not know.
type UnknownMsg struct {
	Type string
}

// MessageType is the message's type.
func (m *UnknownMsg) MessageType() string { return m.Type }

// DecodeStateHead decodes only the per-observer fields of a state message,
// for clients that need no more (the load tool). It reads the message's
// keys in turn and stops once it has every field of StateHead: the server
// writes them first, so the shared part and the view (the bulk of the
// message) are not even scanned. Another order is read correctly, further.
func DecodeStateHead(b []byte) (StateHead, error) { return decodeStateHead(b, false) }

// DecodeStateHeadRaw is DecodeStateHead leaving the legal moves undecoded
// in LegalRaw (Legal stays nil): a Papayoo pass lists 2,000 moves, and a
// client that plays one of them reads it with LegalAt instead of decoding
// them all.
func DecodeStateHeadRaw(b []byte) (StateHead, error) {
	if h, ok := fastStateHead(b); ok {
		return h, nil
	}
	return decodeStateHead(b, true)
}

func decodeStateHead(b []byte, rawLegal bool) (StateHead, error) {
	var h StateHead
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return h, fmt.Errorf("protocol: a state must be a JSON object")
	}
	const all = 1<<8 - 1
	seen := 0
	for seen != all && dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return h, fmt.Errorf("protocol: state: %w", err)
		}
		key, _ := tok.(string)
		var v any
		bit := 0
		switch key {
		case "type":
			v, bit = &h.Type, 1
		case "table":
			v, bit = &h.Table, 2
		case "seq":
			v, bit = &h.Seq, 4
		case "status":
			v, bit = &h.Status, 8
		case "seat":
			v, bit = &h.Seat, 16
		case "to_act":
			v, bit = &h.ToAct, 32
		case "legal":
			v, bit = &h.Legal, 64
			if rawLegal {
				v = &h.LegalRaw
			}
		case "legal_count":
			v, bit = &h.LegalCount, 128
		default:
			v = new(json.RawMessage)
		}
		if err := dec.Decode(v); err != nil {
			return h, fmt.Errorf("protocol: state field %s: %w", key, err)
		}
		seen |= bit
	}
	if seen != all {
		if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
			return h, errors.New("protocol: a state message cut short")
		}
	}
	if h.Type != TypeState {
		return h, fmt.Errorf("protocol: a %q message, not a state", h.Type)
	}
	return h, nil
}

var typePrefix = []byte(`{"type":"`)

// PeekType returns a message's type. The server writes "type" first and
// without escapes, which is read without decoding the message; anything
// else is decoded.
func PeekType(b []byte) (string, error) {
	if rest, ok := bytes.CutPrefix(b, typePrefix); ok {
		if i := bytes.IndexByte(rest, '"'); i > 0 && bytes.IndexByte(rest[:i], '\\') < 0 {
			return intern(rest[:i]), nil
		}
	}
	var probe struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return "", fmt.Errorf("protocol: not a message: %w", err)
	}
	if probe.Type == "" {
		return "", errors.New("protocol: a message without a type")
	}
	return probe.Type, nil
}

// intern returns a known type without allocating.
func intern(b []byte) string {
	switch string(b) {
	case TypeState:
		return TypeState
	case TypeAck:
		return TypeAck
	case TypeError:
		return TypeError
	case TypeLobby:
		return TypeLobby
	}
	for _, t := range ServerTypes() {
		if t == string(b) {
			return t
		}
	}
	return string(b)
}

// LegalLen counts the elements of a JSON array of strings (a state's
// legal moves, as DecodeStateHeadRaw leaves them) without decoding them;
// -1 if raw is not such an array.
func LegalLen(raw json.RawMessage) int {
	n := 0
	ok := eachString(raw, func(int, []byte) bool { n++; return true })
	if !ok {
		return -1
	}
	return n
}

// LegalAt decodes element i of a JSON array of strings, and only that one.
func LegalAt(raw json.RawMessage, i int) (string, error) {
	var found []byte
	ok := eachString(raw, func(k int, s []byte) bool {
		if k == i {
			found = s
			return false
		}
		return true
	})
	if !ok && found == nil {
		return "", errors.New("protocol: not a JSON array of strings")
	}
	if found == nil {
		return "", fmt.Errorf("protocol: no legal move %d", i)
	}
	var s string
	if err := json.Unmarshal(found, &s); err != nil {
		return "", err
	}
	return s, nil
}

// eachString calls f with the index and the quoted bytes of each string of
// the JSON array raw, until f returns false. It reports whether raw is a
// well-formed array of strings (up to where f stopped).
func eachString(raw []byte, f func(i int, quoted []byte) bool) bool {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return false
	}
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == ']' {
		return skipSpace(raw, i+1) == len(raw)
	}
	for k := 0; ; k++ {
		if i >= len(raw) || raw[i] != '"' {
			return false
		}
		j := i + 1
		for j < len(raw) && raw[j] != '"' {
			if raw[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(raw) {
			return false
		}
		if !f(k, raw[i:j+1]) {
			return true
		}
		i = skipSpace(raw, j+1)
		if i >= len(raw) {
			return false
		}
		switch raw[i] {
		case ',':
			i = skipSpace(raw, i+1)
		case ']':
			return skipSpace(raw, i+1) == len(raw)
		default:
			return false
		}
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
