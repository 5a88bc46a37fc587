package protocol

import "net/http"

// Code is a protocol error code: the "code" of an error message and of an
// HTTP error body. Clients switch on it (and translate it), so a code is
// never renamed; a new refusal gets a new code.
type Code string

// The error codes (docs/protocol.md lists them with when they are sent).
const (
	BadJSON      Code = "bad_json"      // not a JSON object
	UnknownType  Code = "unknown_type"  // type missing or not a client message
	TooLarge     Code = "too_large"     // over MaxMessage bytes
	BadRequest   Code = "bad_request"   // a field missing or of the wrong type
	Unauthorized Code = "unauthorized"  // no (valid) session for what was asked
	RateLimited  Code = "rate_limited"  // over the message rate or a quota
	NoTable      Code = "no_table"      // no such table (or not visible)
	Forbidden    Code = "forbidden"     // private table without invite, owner-only action
	BadOptions   Code = "bad_options"   // game options the engine refuses
	UnknownGame  Code = "unknown_game"  // no such engine
	BadLevel     Code = "bad_level"     // no such bot level
	SeatTaken    Code = "seat_taken"    // the seat is not empty
	TableFull    Code = "table_full"    // no free seat
	NotOpen      Code = "not_open"      // seat changes after the start
	NotSeated    Code = "not_seated"    // the player holds no seat there
	SeatRequired Code = "seat_required" // several seats held: name one
	NotYourSeat  Code = "not_your_seat" // a seat the player does not hold
	Malformed    Code = "malformed"     // the engine: not a move of this game
	NotYourTurn  Code = "not_your_turn" // the engine: the seat has nothing to do
	Illegal      Code = "illegal"       // the engine: not legal now
	GameOver     Code = "game_over"     // the engine: the game has ended
	BadSeat      Code = "bad_seat"      // a seat number out of range
	Busy         Code = "busy"          // a queue is full or the room at a limit: retry
	NoHint       Code = "no_hint"       // no hint available
	Unavailable  Code = "unavailable"   // storage failed: nothing was stored or changed
	Internal     Code = "internal"      // a server fault; nothing was applied
	NotFinished  Code = "not_finished"  // HTTP: a record or replay of a game still going on
	ShuttingDown Code = "shutting_down" // HTTP: GET /ws refused while the server stops
	RatedTable   Code = "rated_table"   // not allowed at a rated table (hints; docs/ratings.md)
	NoAnalysis   Code = "no_analysis"   // HTTP: no post-game analysis of that seat (a bot's, failed, or off)
	NoEndpoint   Code = "no_endpoint"   // HTTP: no such path under /api/
	BadMethod    Code = "bad_method"    // HTTP: a method the path under /api/ does not take (Allow says which)

	// Accounts (docs/accounts.md; HTTP only).
	NameTaken           Code = "name_taken"            // an account holds this name or one that looks like it
	BadPassword         Code = "bad_password"          // a new password outside the length bounds
	BadCredentials      Code = "bad_credentials"       // login: wrong name or password
	WrongPassword       Code = "wrong_password"        // password change: the current password is wrong
	LoginLimitedAccount Code = "login_limited_account" // too many failed logins for this account: wait
	LoginLimitedAddress Code = "login_limited_address" // too many failed logins from this address: wait
	HasAccount          Code = "has_account"           // claim by a player who already has an account
	NoAccount           Code = "no_account"            // an account action by a guest
	NoSession           Code = "no_session"            // revoke: no such session of the caller
	AccountNeeded       Code = "account_needed"        // a rated table, created or joined by a guest
	NoPlayer            Code = "no_player"             // a profile of a player nobody can see (profile.go)

	// Tournaments (docs/tournaments.md; HTTP only).
	NoTournament     Code = "no_tournament"     // no such tournament
	TournamentClosed Code = "tournament_closed" // full, not open, or the deal not playable now
	SameAddress      Code = "same_address"      // a tournament's entries from the caller's network address are taken
)

// codes holds every code with its HTTP status. The status of a code that a
// handler answers with another status (GET /api/records/{id}/replay answers
// unknown_game with 404) is the one used for refusals from the tables.
var codes = []struct {
	code   Code
	status int
}{
	{BadJSON, http.StatusBadRequest},
	{UnknownType, http.StatusBadRequest},
	{TooLarge, http.StatusRequestEntityTooLarge},
	{BadRequest, http.StatusBadRequest},
	{Unauthorized, http.StatusUnauthorized},
	{RateLimited, http.StatusTooManyRequests},
	{NoTable, http.StatusNotFound},
	{Forbidden, http.StatusForbidden},
	{BadOptions, http.StatusBadRequest},
	{UnknownGame, http.StatusBadRequest},
	{BadLevel, http.StatusBadRequest},
	{SeatTaken, http.StatusBadRequest},
	{TableFull, http.StatusBadRequest},
	{NotOpen, http.StatusBadRequest},
	{NotSeated, http.StatusBadRequest},
	{SeatRequired, http.StatusBadRequest},
	{NotYourSeat, http.StatusBadRequest},
	{Malformed, http.StatusBadRequest},
	{NotYourTurn, http.StatusBadRequest},
	{Illegal, http.StatusBadRequest},
	{GameOver, http.StatusBadRequest},
	{BadSeat, http.StatusBadRequest},
	{Busy, http.StatusServiceUnavailable},
	{NoHint, http.StatusBadRequest},
	{Unavailable, http.StatusServiceUnavailable},
	{Internal, http.StatusInternalServerError},
	{NotFinished, http.StatusConflict},
	{ShuttingDown, http.StatusServiceUnavailable},
	{RatedTable, http.StatusBadRequest},
	{NoAnalysis, http.StatusNotFound},
	{NoEndpoint, http.StatusNotFound},
	{BadMethod, http.StatusMethodNotAllowed},
	{NameTaken, http.StatusConflict},
	{BadPassword, http.StatusBadRequest},
	{BadCredentials, http.StatusUnauthorized},
	{WrongPassword, http.StatusForbidden},
	{LoginLimitedAccount, http.StatusTooManyRequests},
	{LoginLimitedAddress, http.StatusTooManyRequests},
	{HasAccount, http.StatusConflict},
	{NoAccount, http.StatusNotFound},
	{NoSession, http.StatusNotFound},
	{AccountNeeded, http.StatusForbidden},
	{NoPlayer, http.StatusNotFound},
	{NoTournament, http.StatusNotFound},
	{TournamentClosed, http.StatusConflict},
	{SameAddress, http.StatusConflict},
}

// Codes returns every error code (docs/protocol.md lists them all).
func Codes() []Code {
	out := make([]Code, len(codes))
	for i, c := range codes {
		out[i] = c.code
	}
	return out
}

// HTTPStatus is the status of an HTTP answer refused with this code: 400
// for a client's mistake unless a more precise status exists, 5xx for the
// server's own trouble (busy and unavailable are worth a retry). An unknown
// code is a 500: a code must be declared here before it is used.
func (c Code) HTTPStatus() int {
	for _, k := range codes {
		if k.code == c {
			return k.status
		}
	}
	return http.StatusInternalServerError
}

// Known reports whether c is one of the declared codes.
func (c Code) Known() bool {
	for _, k := range codes {
		if k.code == c {
			return true
		}
	}
	return false
}

// Limit names the limit a rate_limited refusal reached (the "limit" of an
// error message and of an HTTP error body), so that a client can say it in
// its player's language; the refusal's English message says the same.
// Max is the limit's value (lines, tables, hints… in the unit Name says),
// Burst a burst's where it has one, and Retry the whole seconds until the
// next one is allowed, when that is known (0: not known, or when something
// ends). A new limit gets a new name; clients show the generic text of
// rate_limited for a name they do not know.
type Limit struct {
	Name  LimitName `json:"name"`
	Max   float64   `json:"max,omitempty"`
	Burst int       `json:"burst,omitempty"`
	Retry int       `json:"retry,omitempty"`
}

// LimitName is a Limit's name.
type LimitName string

// The limits of rate_limited (docs/protocol.md, "Limits"; docs/server.md
// has their flags).
const (
	LimitMessages           LimitName = "messages"            // WebSocket messages a second per connection (Max)
	LimitWatches            LimitName = "watches"             // tables one connection watches at once (Max)
	LimitRequests           LimitName = "requests"            // HTTP API requests per address (Max a second, Burst)
	LimitSessions           LimitName = "sessions"            // new guest sessions per address (Max an hour)
	LimitCreations          LimitName = "creations"           // accounts and tournaments made per address (Max a day)
	LimitChat               LimitName = "chat"                // chat lines per player (Max a minute, Burst)
	LimitReports            LimitName = "reports"             // chat reports per address (Max a day)
	LimitOpenTables         LimitName = "open_tables"         // open tables one player owns (Max)
	LimitTables             LimitName = "tables"              // unfinished tables one player owns (Max)
	LimitBotTables          LimitName = "bot_tables"          // games of bots only one player owns (Max)
	LimitAddressOpenTables  LimitName = "address_open_tables" // open tables created from one address (Max)
	LimitAddressTables      LimitName = "address_tables"      // unfinished tables created from one address (Max)
	LimitTournaments        LimitName = "tournaments"         // tournaments under way one player created (Max)
	LimitAddressTournaments LimitName = "address_tournaments" // tournaments under way created from one address (Max)
	LimitOneDeal            LimitName = "one_deal"            // a tournament entrant plays one deal at a time
	LimitHints              LimitName = "hints"               // hints per player (Max a minute)
	LimitAddressHints       LimitName = "address_hints"       // hints per address (Max a minute)
	LimitAnalyses           LimitName = "analyses"            // post-game analyses asked for per address (Max an hour)
)
