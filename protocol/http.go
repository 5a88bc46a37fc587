package protocol

import (
	"time"

	"cardroom/game"
)

// The answers of the HTTP endpoints that are not messages (docs/protocol.md,
// "HTTP"). Summary and Session are in messages.go.

// GamesList answers GET /api/games: the engines of the build, their options
// (every integer option with its range) and the bot levels.
type GamesList struct {
	Games   []GameInfo `json:"games"`
	Levels  []string   `json:"levels"`
	Version int        `json:"version"`
}

// GameInfo is one engine in GamesList.
type GameInfo struct {
	Name    string            `json:"name"`
	Options []game.OptionSpec `json:"options"`
}

// Lobby answers GET /api/tables: the public tables that are open or playing.
type Lobby struct {
	Tables []*Summary `json:"tables"`
}

// Replay answers GET /api/records/{id}/replay: one observer's view of a
// finished game after Step of its Steps entries.
type Replay struct {
	Table string    `json:"table"`
	Game  string    `json:"game"`
	Step  int       `json:"step"`
	Steps int       `json:"steps"`
	Seat  game.Seat `json:"seat"`
	// Entry is the entry that led to this step (nil at step 0).
	Entry  *ReplayEntry `json:"entry,omitempty"`
	View   game.View    `json:"view"`
	Result *game.Result `json:"result"`
	// History is the public move history up to this step, from the
	// request's history_from on (at most its last MaxHistory entries);
	// HistoryNew is the index of the first entry this step made.
	History    *MoveHistory `json:"history"`
	HistoryNew int          `json:"history_new"`
}

// ReplayEntry is one record entry: a seat's move, or a chance outcome.
type ReplayEntry struct {
	Seat   *game.Seat `json:"seat,omitempty"`
	Move   string     `json:"move,omitempty"`
	Chance string     `json:"chance,omitempty"`
}

// History answers GET /api/history and GET /api/players/{player}/history.
type History struct {
	Games []HistoryItem `json:"games"`
}

// HistoryItem is one game in a History, from the player's side.
type HistoryItem struct {
	ID       string      `json:"id"`
	Game     string      `json:"game"`
	Seat     game.Seat   `json:"seat"` // the player's first seat, -1 if none
	Status   TableStatus `json:"status"`
	Created  time.Time   `json:"created"`
	Finished time.Time   `json:"finished,omitzero"`
	Result   string      `json:"result"`
	Won      bool        `json:"won"`
	Seats    []string    `json:"seats"` // the names at each seat
	// Options are the table's options (as in its summary), so that a list
	// of games can say "target 150" without asking for each table.
	Options game.Options `json:"options,omitempty"`
	// StandIn tells that a bot played for the player at least once in
	// this game (absent past the grace period, or out of time).
	StandIn bool `json:"stand_in,omitempty"`
}

// OK answers requests that return nothing else (POST /api/logout).
type OK struct {
	OK bool `json:"ok"`
}
