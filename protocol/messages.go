// Package protocol owns every byte of the card room's wire protocol
// (docs/protocol.md): one Go type per message in each direction, the error
// codes, the decoder of client messages with its size and shape checks,
// the hand-written encoding of the hot server messages (state, ack), and a
// Go client (Dial) that bots, the load tool and the tests share.
//
// The server, the tables, the load tool and the example bot import it, so
// a field renamed here is renamed everywhere at once, and docs/protocol.md
// is checked against these types (TestDocExamples).
package protocol

import (
	"encoding/json"
	"time"

	"cardroom/game"
)

// Version is the protocol version, sent in welcome and GET /api/games.
// docs/protocol.md ("Versioning") says when it changes: adding a field or a
// message type keeps it; removing or renaming one, or changing what one
// means, increases it. Version 2: the engines' views were reshaped and
// created names its table by id, as every other message does.
const Version = 2

// Limits of the protocol (docs/protocol.md, "Limits").
const (
	MaxMessage = 8192 // bytes; larger client messages are refused with too_large
	// MaxSeats bounds a seat number from a client before any engine sees
	// it (every engine has at most 8 seats).
	MaxSeats = 16
	MaxID    = 64 // bytes of a request's id
)

// The message types.
const (
	TypeLobby     = "lobby" // both directions: the subscription and the list
	TypeCreate    = "create"
	TypeJoin      = "join"
	TypeLeave     = "leave"
	TypeAddBot    = "add_bot"
	TypeRemoveBot = "remove_bot"
	TypeWatch     = "watch"
	TypeUnwatch   = "unwatch"
	TypeMove      = "move"
	TypeHint      = "hint" // both directions: the request and the ratings
	TypePing      = "ping"

	TypeWelcome = "welcome"
	TypeState   = "state"
	TypeAck     = "ack"
	TypeError   = "error"
	TypeCreated = "created"
	TypeJoined  = "joined"
	TypePong    = "pong"
)

// ClientMsg is a message from a client to the server.
type ClientMsg interface {
	MessageType() string
	// RequestID is the id the answer carries (nil: none).
	RequestID() json.RawMessage
}

// ServerMsg is a message from the server to a client.
type ServerMsg interface {
	MessageType() string
}

// TableOf returns the table a client message names ("" for none).
func TableOf(m ClientMsg) string {
	if t, ok := m.(interface{ TableID() string }); ok {
		return t.TableID()
	}
	return ""
}

// SeatOr returns a message's seat, or -1 when it names none.
func SeatOr(p *game.Seat) game.Seat {
	if p == nil {
		return -1
	}
	return *p
}

// ---- client → server ----
//
// Every type writes its own "type" (MarshalJSON), so a caller fills only
// the fields. ID is any JSON string or number of at most MaxID bytes.

// LobbyReq subscribes to the lobby list (Subscribe absent: true).
type LobbyReq struct {
	Type      string          `json:"type"`
	ID        json.RawMessage `json:"id,omitempty"`
	Subscribe *bool           `json:"subscribe,omitempty"`
}

// CreateReq creates a table; the answer is CreatedMsg. It is also the body
// of POST /api/tables (without type and id) and, with Level, of
// POST /api/quickplay.
type CreateReq struct {
	Type     string            `json:"type"`
	ID       json.RawMessage   `json:"id,omitempty"`
	Game     string            `json:"game"`
	Options  map[string]string `json:"options,omitempty"`
	Private  bool              `json:"private,omitempty"`
	ClockMS  int               `json:"clock_ms,omitempty"`
	BotLevel string            `json:"bot_level,omitempty"`
	Seat     *game.Seat        `json:"seat,omitempty"`
	Bots     map[string]string `json:"bots,omitempty"`
	Level    string            `json:"level,omitempty"` // quick play only
	// WhenEmpty is what the table does once every human has been gone
	// for the grace period and only bots are left: WhenEmptyPause (the
	// default) or WhenEmptyEnd.
	WhenEmpty string `json:"when_empty,omitempty"`
	// Rated asks for a rated table (docs/ratings.md): the game's default
	// options, no hints, the ratings updated at the end.
	Rated bool `json:"rated,omitempty"`
}

// The values of CreateReq.WhenEmpty.
const (
	// WhenEmptyPause: the bots stop and the table waits, listed as
	// paused, until a seated human comes back.
	WhenEmptyPause = "pause"
	// WhenEmptyEnd: the game ends unfinished (finished, result "*").
	WhenEmptyEnd = "end"
)

// JoinReq takes a seat (Seat absent or -1: the first free one).
type JoinReq struct {
	Type   string          `json:"type"`
	ID     json.RawMessage `json:"id,omitempty"`
	Table  string          `json:"table"`
	Seat   *game.Seat      `json:"seat,omitempty"`
	Invite string          `json:"invite,omitempty"`
}

// LeaveReq gives a seat up.
type LeaveReq struct {
	Type  string          `json:"type"`
	ID    json.RawMessage `json:"id,omitempty"`
	Table string          `json:"table"`
}

// AddBotReq seats a bot (Seat absent: every empty seat).
type AddBotReq struct {
	Type  string          `json:"type"`
	ID    json.RawMessage `json:"id,omitempty"`
	Table string          `json:"table"`
	Seat  *game.Seat      `json:"seat,omitempty"`
	Level string          `json:"level,omitempty"`
}

// RemoveBotReq empties a bot's seat.
type RemoveBotReq struct {
	Type  string          `json:"type"`
	ID    json.RawMessage `json:"id,omitempty"`
	Table string          `json:"table"`
	Seat  *game.Seat      `json:"seat"`
}

// WatchReq subscribes to a table's states.
type WatchReq struct {
	Type   string          `json:"type"`
	ID     json.RawMessage `json:"id,omitempty"`
	Table  string          `json:"table"`
	Invite string          `json:"invite,omitempty"`
}

// UnwatchReq ends a WatchReq.
type UnwatchReq struct {
	Type  string          `json:"type"`
	ID    json.RawMessage `json:"id,omitempty"`
	Table string          `json:"table"`
}

// MoveReq plays a move (text in the game's notation).
type MoveReq struct {
	Type  string          `json:"type"`
	ID    json.RawMessage `json:"id,omitempty"`
	Table string          `json:"table"`
	Seat  *game.Seat      `json:"seat,omitempty"`
	Move  string          `json:"move"`
}

// HintReq asks for the ratings of a seat's legal moves.
type HintReq struct {
	Type  string          `json:"type"`
	ID    json.RawMessage `json:"id,omitempty"`
	Table string          `json:"table"`
	Seat  *game.Seat      `json:"seat,omitempty"`
}

// PingReq is answered by PongMsg.
type PingReq struct {
	Type string          `json:"type"`
	ID   json.RawMessage `json:"id,omitempty"`
}

// ---- server → client ----

// WelcomeMsg is the first message of every connection.
type WelcomeMsg struct {
	Type    string    `json:"type"`
	Version int       `json:"version"`
	Player  string    `json:"player"`
	Name    string    `json:"name"`
	Limits  Limits    `json:"limits"`
	Seats   []SeatRef `json:"seats"`
	// PublicURL is the room's public address (-public-url), on which
	// clients build invite links; absent: the page's own address.
	PublicURL string `json:"public_url,omitempty"`
}

// Limits are the connection's limits in force.
type Limits struct {
	MaxMessage int     `json:"max_message"`
	Rate       float64 `json:"rate"`
	Burst      float64 `json:"burst"`
}

// SeatRef is a seat held at an unfinished table.
type SeatRef struct {
	Table string    `json:"table"`
	Seat  game.Seat `json:"seat"`
}

// StateMsg is a table's state as one observer sees it. The server writes
// it by hand (AppendState: StateHead's fields, then StateCommon's, then
// the view), byte for byte as encoding/json writes this struct
// (TestHandWrittenJSON). View is the engine's view, kept as raw JSON: its
// shape is each engine's (docs/games/).
type StateMsg struct {
	Type         string          `json:"type"`
	Table        string          `json:"table"`
	Seq          int             `json:"seq"`
	Status       TableStatus     `json:"status"`
	Seat         game.Seat       `json:"seat"`
	ToAct        []game.Seat     `json:"to_act"`
	Legal        []string        `json:"legal"`
	LegalCount   int             `json:"legal_count"`
	Pick         *Pick           `json:"pick,omitempty"` // the legal moves described, when too many to list
	Game         string          `json:"game"`
	Options      game.Options    `json:"options"`
	Clock        *Clock          `json:"clock"`
	Seats        []SeatInfo      `json:"seats"`
	Result       *game.Result    `json:"result"`
	ServerTimeMS int64           `json:"server_time_ms"`
	History      *MoveHistory    `json:"history,omitempty"`
	View         json.RawMessage `json:"view"`
}

// MoveHistory is the history part of a state message (docs/protocol.md,
// "The move history"): Entries are the table's history entries From, From+1, … of
// the current game. The first state a subscriber receives carries the
// whole history (its last MaxHistory entries); each later broadcast the
// entries added since the previous one, or no history when none were.
type MoveHistory struct {
	From    int            `json:"from"`
	Entries []HistoryEntry `json:"entries"`
}

// MaxHistory is the most history entries a state message carries: a
// longer history starts its first message at From > 0.
const MaxHistory = 1000

// HistoryEntry is one history entry on the wire: game.Entry with its cards
// in the game's notation (the server writes it by hand, game.Entry's
// AppendJSON, byte for byte as encoding/json writes this type). Every field
// but seat and kind is omitted when empty; To, Suit and Meld are pointers
// because seat 0, spades and 0 are values, not absences.
type HistoryEntry struct {
	Seat   game.Seat  `json:"seat"`
	Kind   string     `json:"kind"`
	Cards  []string   `json:"cards,omitempty"`
	Count  int        `json:"count,omitempty"`
	Points int        `json:"points,omitempty"`
	Scores []int      `json:"scores,omitempty"`
	Hands  [][]string `json:"hands,omitempty"`
	To     *game.Seat `json:"to,omitempty"`
	Suit   string     `json:"suit,omitempty"`
	Why    string     `json:"why,omitempty"`
	Meld   int        `json:"meld,omitempty"`
	As     []string   `json:"as,omitempty"`
	By     string     `json:"by,omitempty"`
}

// EntryOf is e as it goes on the wire, its cards written in d's notation.
func EntryOf(e *game.Entry, d game.Deck) HistoryEntry {
	texts := func(cs []game.Card) []string {
		if len(cs) == 0 {
			return nil
		}
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = d.Format(c)
		}
		return out
	}
	w := HistoryEntry{Seat: e.Seat, Kind: string(e.Kind), Cards: texts(e.Cards), Count: e.Count, Points: e.Points,
		Scores: e.Scores, Why: string(e.Why), Meld: e.Meld, As: texts(e.As), By: string(e.By)}
	if len(e.Scores) == 0 {
		w.Scores = nil
	}
	if len(e.Hands) > 0 {
		w.Hands = make([][]string, len(e.Hands))
		for i, h := range e.Hands {
			w.Hands[i] = texts(h)
			if h != nil && w.Hands[i] == nil {
				w.Hands[i] = []string{}
			}
		}
	}
	if e.HasTo {
		to := e.To
		w.To = &to
	}
	if e.HasSuit {
		w.Suit = e.Suit.String()
	}
	return w
}

// StateHead is the per-observer part of StateMsg, its first fields. A
// client that needs only these (the load tool) decodes a state into it
// (DecodeStateHead).
type StateHead struct {
	Type       string      `json:"type"`
	Table      string      `json:"table"`
	Seq        int         `json:"seq"`
	Status     TableStatus `json:"status"`
	Seat       game.Seat   `json:"seat"`
	ToAct      []game.Seat `json:"to_act"`
	Legal      []string    `json:"legal"`
	LegalCount int         `json:"legal_count"`
	// LegalRaw is the undecoded legal list (DecodeStateHeadRaw only).
	LegalRaw json.RawMessage `json:"-"`
}

// StateCommon is the part of StateMsg that every observer of one broadcast
// shares (written once per broadcast).
type StateCommon struct {
	Game         string       `json:"game"`
	Options      game.Options `json:"options"`
	Clock        *Clock       `json:"clock"`
	Seats        []SeatInfo   `json:"seats"`
	Result       *game.Result `json:"result"`
	ServerTimeMS int64        `json:"server_time_ms"`
}

// Clock is the turn clock in a state message.
type Clock struct {
	MS        int            `json:"ms"`
	Remaining map[string]int `json:"remaining"`
}

// TableStatus is where a table stands: open (seats are filled), playing,
// paused (playing, but every human has gone and the bots wait: in table
// summaries only; stored and in state messages it is playing), finished,
// or closed (it expired open).
type TableStatus string

// The table statuses.
const (
	StatusOpen     TableStatus = "open"
	StatusPlaying  TableStatus = "playing"
	StatusPaused   TableStatus = "paused"
	StatusFinished TableStatus = "finished"
	StatusClosed   TableStatus = "closed"
)

// SeatKind says who sits at a seat.
type SeatKind string

// The seat kinds.
const (
	SeatHuman SeatKind = "human"
	SeatBot   SeatKind = "bot"
	SeatEmpty SeatKind = "empty"
)

// SeatInfo describes one seat in summaries and state messages.
type SeatInfo struct {
	Seat      game.Seat `json:"seat"`
	Name      string    `json:"name,omitempty"`
	Kind      SeatKind  `json:"kind"`
	Player    string    `json:"player,omitempty"`
	Level     string    `json:"level,omitempty"`
	Connected bool      `json:"connected"`
	Away      bool      `json:"away,omitempty"`
	// BotAccount marks a human seat whose player is a bot account (a
	// program, docs/bots.md): clients show a BOT badge.
	BotAccount bool `json:"bot_account,omitempty"`
	// Account marks a human seat whose player held an account when they
	// sat down: the name is theirs. A guest's seat has none (a guest may
	// have taken a name before its owner claimed it: docs/accounts.md).
	Account bool `json:"account,omitempty"`
}

// Summary is a table as the lobby shows it (also the answer of the table
// endpoints of the HTTP API).
type Summary struct {
	ID       string       `json:"id"`
	Game     string       `json:"game"`
	Options  game.Options `json:"options"`
	Private  bool         `json:"private"`
	ClockMS  int          `json:"clock_ms"`
	BotLevel string       `json:"bot_level"`
	Status   TableStatus  `json:"status"`
	Owner    string       `json:"owner"`
	Created  time.Time    `json:"created"`
	Seats    []SeatInfo   `json:"seats"`
	Humans   int          `json:"humans"`
	Bots     int          `json:"bots"`
	Free     int          `json:"free"`
	Seq      int          `json:"seq"`
	Invite   string       `json:"invite,omitempty"`
	// WhenEmpty is the table's when_empty choice (absent: the default,
	// pause).
	WhenEmpty string `json:"when_empty,omitempty"`
	Rated     bool   `json:"rated"` // a rated table (docs/ratings.md)
}

// Public returns the summary without the invite code.
func (s *Summary) Public() *Summary {
	c := *s
	c.Invite = ""
	return &c
}

// AckMsg acknowledges a committed move.
type AckMsg struct {
	Type  string          `json:"type"`
	ID    json.RawMessage `json:"id,omitempty"`
	Table string          `json:"table"`
	Seq   int             `json:"seq"`
}

// ErrorMsg refuses a request. Table is the table the request named, when
// it named one. It is also the error DecodeClient returns.
type ErrorMsg struct {
	Type    string          `json:"type"`
	ID      json.RawMessage `json:"id,omitempty"`
	Code    Code            `json:"code"`
	Message string          `json:"message"`
	Table   string          `json:"table,omitempty"`
	// Limit names the limit of a rate_limited refusal (code.go).
	Limit *Limit `json:"limit,omitempty"`
}

func (e *ErrorMsg) Error() string { return string(e.Code) + ": " + e.Message }

// LobbyMsg is the lobby list: public tables that are open or playing.
type LobbyMsg struct {
	Type   string     `json:"type"`
	Tables []*Summary `json:"tables"`
}

// CreatedMsg answers create: Table is the new table's id (as in every
// message that names a table), Summary its summary with the invite.
type CreatedMsg struct {
	Type    string          `json:"type"`
	ID      json.RawMessage `json:"id,omitempty"`
	Table   string          `json:"table"`
	Summary *Summary        `json:"summary"`
}

// JoinedMsg answers join with the seat taken.
type JoinedMsg struct {
	Type  string          `json:"type"`
	ID    json.RawMessage `json:"id,omitempty"`
	Table string          `json:"table"`
	Seat  game.Seat       `json:"seat"`
}

// HintMsg answers hint: the seat's legal moves rated, best first.
type HintMsg struct {
	Type    string          `json:"type"`
	ID      json.RawMessage `json:"id,omitempty"`
	Table   string          `json:"table"`
	Seat    game.Seat       `json:"seat"`
	Ratings []Rating        `json:"ratings"`
}

// Rating is one move of a hint.
type Rating struct {
	Move   string  `json:"move"`
	Value  float64 `json:"value"`
	Visits int     `json:"visits"`
}

// PongMsg answers ping.
type PongMsg struct {
	Type string          `json:"type"`
	ID   json.RawMessage `json:"id,omitempty"`
}

// ---- HTTP ----

// ErrorBody is the body of every HTTP error: {"error":{"code","message"}}.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail is the error inside ErrorBody.
type ErrorDetail struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
	// Limit names the limit of a rate_limited refusal (code.go).
	Limit *Limit `json:"limit,omitempty"`
}

// SessionReq is the body of POST /api/session.
type SessionReq struct {
	Name string `json:"name"`
}

// Session answers POST /api/session (Token) and GET /api/session.
type Session struct {
	Token   string    `json:"token,omitempty"`
	Player  string    `json:"player"`
	Name    string    `json:"name"`
	Expires time.Time `json:"expires"`
}
