package protocol

// Online is the answer of GET /api/online: who is connected to the room
// now, for the lobby's "who is online". Count is every distinct player with
// an open WebSocket; Players lists at most MaxOnlineListed of them (sorted
// by name), so the answer stays small however full the room is.
type Online struct {
	Count   int            `json:"count"`
	Players []OnlinePlayer `json:"players"`
}

// OnlinePlayer is one connected player: the id (for the profile link,
// #/players/<id>) and the display name.
type OnlinePlayer struct {
	Player string `json:"player"`
	Name   string `json:"name"`
	// Account: the player holds an account (clients mark the name as
	// tables mark an account's seat).
	Account bool `json:"account,omitempty"`
	// BotAccount: the account is a bot account (a program): clients show
	// its BOT badge instead, as at a table.
	BotAccount bool `json:"bot_account,omitempty"`
}

// MaxOnlineListed bounds the players GET /api/online names.
const MaxOnlineListed = 50
