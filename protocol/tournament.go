package protocol

import (
	"time"

	"cardroom/game"
)

// Duplicate tournaments over HTTP (docs/tournaments.md).

// TournamentCreate is the body of POST /api/tournaments.
type TournamentCreate struct {
	Game    string            `json:"game"`
	Options map[string]string `json:"options,omitempty"`
	// Deals is the number of deals, 1 to 12.
	Deals int `json:"deals"`
	// BotLevel is the level of the bots in the other seats (default medium).
	BotLevel string `json:"bot_level,omitempty"`
	// StartAt is when the tournament starts; absent, it starts when
	// MaxEntrants have joined.
	StartAt *time.Time `json:"start_at,omitempty"`
	// MaxEntrants bounds the entrants (1 to the room's bound, at most 64).
	MaxEntrants int `json:"max_entrants"`
	// DealMinutes is the time per deal (5 to 10080; default 60): deal d is
	// due DealMinutes×(d+1) after the start.
	DealMinutes int `json:"deal_minutes,omitempty"`
}

// TournamentSummary is a tournament as the list shows it.
type TournamentSummary struct {
	ID          string       `json:"id"`
	Game        string       `json:"game"`
	Options     game.Options `json:"options"`
	Seats       int          `json:"seats"` // players at each deal's table, the entrant and bots
	Deals       int          `json:"deals"`
	BotLevel    string       `json:"bot_level"`
	Owner       string       `json:"owner"`
	OwnerName   string       `json:"owner_name"`
	StartAt     *time.Time   `json:"start_at,omitempty"` // absent: when full
	MaxEntrants int          `json:"max_entrants"`
	DealMinutes int          `json:"deal_minutes"`
	Created     time.Time    `json:"created"`
	Started     *time.Time   `json:"started,omitempty"`
	Ends        *time.Time   `json:"ends,omitempty"` // the last deal's deadline, once started
	Status      string       `json:"status"`         // open, running, finished, cancelled
	Entrants    int          `json:"entrants"`
	HigherWins  bool         `json:"higher_wins"` // 500 Rum: more points are better
}

// TournamentList is the answer of GET /api/tournaments.
type TournamentList struct {
	Tournaments []TournamentSummary `json:"tournaments"`
}

// TournamentDeal is one deal of the schedule: the seat every entrant plays
// it from, its deadline once the tournament has started, and whether it
// is closed (every entrant has played it, or its deadline has passed):
// only then are the others' records of it linked.
type TournamentDeal struct {
	Deal     int        `json:"deal"`
	Seat     int        `json:"seat"`
	Deadline *time.Time `json:"deadline,omitempty"`
	Closed   bool       `json:"closed"`
}

// TournamentCell is one entrant's result on one deal: played, missed
// (scored as the field's worst) or pending. Table names the entrant's
// table: for the entrant themselves always, for anyone else once the deal
// is closed and the game over, with the invite that opens its record.
type TournamentCell struct {
	State  string  `json:"state"`
	Points int     `json:"points"`
	Score  float64 `json:"score"`
	Table  string  `json:"table,omitempty"`
	Invite string  `json:"invite,omitempty"`
	Over   bool    `json:"over,omitempty"` // the table's game has ended
}

// TournamentRow is one entrant's standing, in join order.
type TournamentRow struct {
	Player string           `json:"player"`
	Name   string           `json:"name"`
	Rank   int              `json:"rank"`
	Total  float64          `json:"total"`
	Deals  []TournamentCell `json:"deals"`
}

// Tournament is the answer of GET /api/tournaments/{id} (and of create
// and join): the tournament, its schedule, the live standings, and which
// entrant the caller is (-1: none).
type Tournament struct {
	TournamentSummary
	Schedule  []TournamentDeal `json:"schedule"`
	Standings []TournamentRow  `json:"standings"`
	Me        int              `json:"me"`
}

// TournamentPlay is the answer of POST /api/tournaments/{id}/deals/{n}/play:
// the caller's table for that deal (made on the first call).
type TournamentPlay struct {
	Table string `json:"table"`
	Deal  int    `json:"deal"`
	Seat  int    `json:"seat"`
}
