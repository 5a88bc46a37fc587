package protocol

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"cardroom/game"
)

// Table chat and rematch (docs/protocol.md, "Chat" and "Rematch"). Chat
// exists only at a table: there is no lobby chat, so that every line has a
// table owner who can moderate it and a record it is kept with.

// The message types of chat and rematch.
const (
	// TypeChat: client → server, a line to send; server → client, a line.
	TypeChat = "chat"
	// TypeChatSettings: client → server, change a chat setting; server →
	// client, the table's chat settings as the receiver sees them.
	TypeChatSettings = "chat_settings"
	// TypeChatReport: client → server, report a line to the operator;
	// server → client, the report's receipt.
	TypeChatReport = "chat_report"
	// TypeRematch: client → server, offer or accept (or decline) a
	// rematch; server → client, the offer's state.
	TypeRematch = "rematch"
)

// The chat channels of a table.
const (
	// ChannelPlayers is written by the seated players and read by
	// everyone watching the table.
	ChannelPlayers = "players"
	// ChannelSpectators is written by the spectators (watchers without a
	// seat) and read by the spectators and by the players who show it;
	// the table's owner can turn it off.
	ChannelSpectators = "spectators"
)

// Chat limits (docs/protocol.md, "Chat").
const (
	// MaxChatText is the most characters (runes, after NFC) of a line.
	MaxChatText = 300
	// MaxReportReason is the most bytes of a report's reason.
	MaxReportReason = 200
)

// Phrases are the canned phrases and emoji reactions a client may send
// instead of a text: codes, which each client shows in its reader's
// language (web/static/i18n), so players who share no language can still
// say "good game".
var Phrases = []string{"gg", "wp", "thanks", "oops", "hello", "sorry",
	"emoji_thumbs_up", "emoji_laugh", "emoji_wow", "emoji_sad", "emoji_heart", "emoji_clap"}

// IsPhrase reports whether code is one of Phrases.
func IsPhrase(code string) bool {
	for _, p := range Phrases {
		if p == code {
			return true
		}
	}
	return false
}

// CleanChatText checks and normalizes a line's text: NFC, trimmed of
// surrounding spaces, 1 to MaxChatText characters, valid UTF-8 without
// control, format (bidirectional overrides, zero-width joiners used to
// hide text) or private-use characters. The text is the line as stored
// and sent; the error says what is wrong with it.
func CleanChatText(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", fmt.Errorf("the text is not valid UTF-8")
	}
	s = strings.TrimSpace(norm.NFC.String(s))
	if s == "" {
		return "", fmt.Errorf("the text is empty")
	}
	if n := utf8.RuneCountInString(s); n > MaxChatText {
		return "", fmt.Errorf("the text has %d characters: the limit is %d", n, MaxChatText)
	}
	for _, r := range s {
		switch {
		case r == '\u200d' || r == '\ufe0f':
			// The zero-width joiner and the emoji variation selector
			// build emoji sequences (👍🏽, ❤️): allowed.
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Co, r), unicode.Is(unicode.Cs, r):
			return "", fmt.Errorf("the text has the control character %U", r)
		}
	}
	return s, nil
}

// ChatReq sends a line to a table's channel: either Text or Phrase (one of
// Phrases), not both.
type ChatReq struct {
	Type    string          `json:"type"`
	ID      json.RawMessage `json:"id,omitempty"`
	Table   string          `json:"table"`
	Channel string          `json:"channel"`
	Text    string          `json:"text,omitempty"`
	Phrase  string          `json:"phrase,omitempty"`
}

// ChatSettingsReq changes a chat setting of a table. ShowSpectators is the
// sender's own choice (a player who hides the spectators' channel gets none
// of its lines); SpectatorChat turns the spectators' channel on or off for
// everyone, and only the table's owner may set it. Absent fields are left
// as they are; with neither, the answer just reports the settings.
type ChatSettingsReq struct {
	Type           string          `json:"type"`
	ID             json.RawMessage `json:"id,omitempty"`
	Table          string          `json:"table"`
	ShowSpectators *bool           `json:"show_spectators,omitempty"`
	SpectatorChat  *bool           `json:"spectator_chat,omitempty"`
}

// ChatReportReq reports line Line of a table to the room's operator
// (`cardroom reports`), with an optional reason.
type ChatReportReq struct {
	Type   string          `json:"type"`
	ID     json.RawMessage `json:"id,omitempty"`
	Table  string          `json:"table"`
	Line   int64           `json:"line"`
	Reason string          `json:"reason,omitempty"`
}

// RematchReq, at a finished table, offers a rematch (the first one) or
// accepts it (Accept absent or true); Accept false declines it, which
// withdraws the offer for everyone.
type RematchReq struct {
	Type   string          `json:"type"`
	ID     json.RawMessage `json:"id,omitempty"`
	Table  string          `json:"table"`
	Accept *bool           `json:"accept,omitempty"`
}

// ChatMsg is one chat line. Seat is the writer's seat on the players'
// channel; Spectator marks a line of the spectators' channel. Player is
// the writer's public id, which clients mute by. Line numbers the table's
// lines, in order; a client that watches a table again receives its last
// lines again and drops the numbers it has. (The line's number is not
// called "id": in every server message "id" is the id of the request
// answered, which clients match their pending requests by.)
type ChatMsg struct {
	Type      string     `json:"type"`
	Table     string     `json:"table"`
	Channel   string     `json:"channel"`
	Seat      *game.Seat `json:"seat,omitempty"`
	Spectator bool       `json:"spectator,omitempty"`
	Player    string     `json:"player"`
	Name      string     `json:"name"`
	Text      string     `json:"text,omitempty"`
	Phrase    string     `json:"phrase,omitempty"`
	Time      time.Time  `json:"time"`
	Line      int64      `json:"line"`
}

// ChatSettingsMsg is a table's chat settings as the receiver sees them: it
// comes when the receiver starts watching, answers chat_settings, and is
// broadcast when the owner changes SpectatorChat.
type ChatSettingsMsg struct {
	Type           string          `json:"type"`
	ID             json.RawMessage `json:"id,omitempty"`
	Table          string          `json:"table"`
	SpectatorChat  bool            `json:"spectator_chat"`
	ShowSpectators bool            `json:"show_spectators"`
}

// ChatReportMsg acknowledges a report: the line is kept for the operator.
type ChatReportMsg struct {
	Type  string          `json:"type"`
	ID    json.RawMessage `json:"id,omitempty"`
	Table string          `json:"table"`
	Line  int64           `json:"line"`
}

// The states of a rematch offer.
const (
	RematchNone     = "none"     // no offer: the message tells the series score
	RematchOffered  = "offered"  // waiting for the humans in Waiting
	RematchStarted  = "started"  // everyone accepted: NewTable is the rematch
	RematchDeclined = "declined" // someone declined: no rematch
)

// RematchMsg is a rematch offer's state, sent to everyone watching the
// finished table (and to the sender of a rematch request). Accepted and
// Waiting are seats; bots accept at once. Series is the score of the
// chain of rematches this table belongs to: wins per player, Games games.
type RematchMsg struct {
	Type     string          `json:"type"`
	ID       json.RawMessage `json:"id,omitempty"`
	Table    string          `json:"table"`
	State    string          `json:"state"`
	By       string          `json:"by,omitempty"` // the player who offered (or declined)
	Accepted []game.Seat     `json:"accepted"`
	Waiting  []game.Seat     `json:"waiting"`
	NewTable string          `json:"new_table,omitempty"`
	Series   Series          `json:"series"`
}

// Series is the score of a chain of rematches.
type Series struct {
	Games int           `json:"games"`
	Wins  []SeriesScore `json:"wins"`
}

// SeriesScore is one player's wins in a series (a bot's Player is
// "bot:LEVEL"; a shared win counts for each winner).
type SeriesScore struct {
	Player string `json:"player"`
	Name   string `json:"name"`
	Wins   int    `json:"wins"`
}

// MessageType is TypeChat.
func (ChatReq) MessageType() string { return TypeChat }

// MarshalJSON writes the message with its type.
func (m ChatReq) MarshalJSON() ([]byte, error) {
	type plain ChatReq
	m.Type = TypeChat
	return json.Marshal(plain(m))
}

func (m ChatReq) RequestID() json.RawMessage { return m.ID }

func (m ChatReq) TableID() string { return m.Table }

// MessageType is TypeChatSettings.
func (ChatSettingsReq) MessageType() string { return TypeChatSettings }

// MarshalJSON writes the message with its type.
func (m ChatSettingsReq) MarshalJSON() ([]byte, error) {
	type plain ChatSettingsReq
	m.Type = TypeChatSettings
	return json.Marshal(plain(m))
}

func (m ChatSettingsReq) RequestID() json.RawMessage { return m.ID }

func (m ChatSettingsReq) TableID() string { return m.Table }

// MessageType is TypeChatReport.
func (ChatReportReq) MessageType() string { return TypeChatReport }

// MarshalJSON writes the message with its type.
func (m ChatReportReq) MarshalJSON() ([]byte, error) {
	type plain ChatReportReq
	m.Type = TypeChatReport
	return json.Marshal(plain(m))
}

func (m ChatReportReq) RequestID() json.RawMessage { return m.ID }

func (m ChatReportReq) TableID() string { return m.Table }

// MessageType is TypeRematch.
func (RematchReq) MessageType() string { return TypeRematch }

// MarshalJSON writes the message with its type.
func (m RematchReq) MarshalJSON() ([]byte, error) {
	type plain RematchReq
	m.Type = TypeRematch
	return json.Marshal(plain(m))
}

func (m RematchReq) RequestID() json.RawMessage { return m.ID }

func (m RematchReq) TableID() string { return m.Table }

// MessageType is TypeChat.
func (ChatMsg) MessageType() string { return TypeChat }

// MarshalJSON writes the message with its type.
func (m ChatMsg) MarshalJSON() ([]byte, error) {
	type plain ChatMsg
	m.Type = TypeChat
	return json.Marshal(plain(m))
}

// MessageType is TypeChatSettings.
func (ChatSettingsMsg) MessageType() string { return TypeChatSettings }

// MarshalJSON writes the message with its type.
func (m ChatSettingsMsg) MarshalJSON() ([]byte, error) {
	type plain ChatSettingsMsg
	m.Type = TypeChatSettings
	return json.Marshal(plain(m))
}

// MessageType is TypeChatReport.
func (ChatReportMsg) MessageType() string { return TypeChatReport }

// MarshalJSON writes the message with its type.
func (m ChatReportMsg) MarshalJSON() ([]byte, error) {
	type plain ChatReportMsg
	m.Type = TypeChatReport
	return json.Marshal(plain(m))
}

// MessageType is TypeRematch.
func (RematchMsg) MessageType() string { return TypeRematch }

// MarshalJSON writes the message with its type.
func (m RematchMsg) MarshalJSON() ([]byte, error) {
	type plain RematchMsg
	m.Type = TypeRematch
	if m.Accepted == nil {
		m.Accepted = []game.Seat{}
	}
	if m.Waiting == nil {
		m.Waiting = []game.Seat{}
	}
	if m.Series.Wins == nil {
		m.Series.Wins = []SeriesScore{}
	}
	return json.Marshal(plain(m))
}

// checkChat checks the chat and rematch fields of a decoded request (the
// decoder's part: shapes and lengths; the server judges the rest).
func (m *request) checkChat() *ErrorMsg {
	switch m.Type {
	case TypeChat:
		if m.Channel != ChannelPlayers && m.Channel != ChannelSpectators {
			return refuse(m.ID, m.Table, BadRequest, "chat: field channel must be %q or %q", ChannelPlayers, ChannelSpectators)
		}
		if (m.Text == "") == (m.Phrase == "") {
			return refuse(m.ID, m.Table, BadRequest, "chat: send either text or phrase")
		}
		if m.Phrase != "" && !IsPhrase(m.Phrase) {
			return refuse(m.ID, m.Table, BadRequest, "chat: %.32q is not a phrase (docs/protocol.md, Chat)", m.Phrase)
		}
		if m.Text != "" {
			t, err := CleanChatText(m.Text)
			if err != nil {
				return refuse(m.ID, m.Table, BadRequest, "chat: %v", err)
			}
			m.Text = t
		}
	case TypeChatReport:
		if m.Line <= 0 {
			return refuse(m.ID, m.Table, BadRequest, "chat_report: field line must be a line id (1 or more)")
		}
		if len(m.Reason) > MaxReportReason {
			return refuse(m.ID, m.Table, BadRequest, "chat_report: the reason is over %d bytes", MaxReportReason)
		}
		r, err := CleanChatText(m.Reason)
		if m.Reason != "" && err != nil {
			return refuse(m.ID, m.Table, BadRequest, "chat_report: reason: %v", err)
		}
		m.Reason = r
	default:
		if m.Channel != "" || m.Text != "" || m.Phrase != "" || m.Line != 0 || m.Reason != "" {
			return refuse(m.ID, m.Table, BadRequest, "%s: the chat fields are not part of this message", m.Type)
		}
	}
	return nil
}
