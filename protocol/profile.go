package protocol

import (
	"time"

	"cardroom/game"
)

// The profile endpoint's answer (docs/protocol.md, "Profiles").

// Profile answers GET /api/players/{id}?offset=&limit=: the public facts
// about one player, as the caller may see them. Games, wins and the recent
// games count only the finished tables the caller may see: public ones,
// and private ones where the caller held a seat or was the owner (the rule
// of GET /api/records/{id}), so a profile never reveals a private game to a
// stranger.
type Profile struct {
	Player string `json:"player"`
	Name   string `json:"name"`
	// Account is true for a player who claimed their name with a password;
	// a guest's profile has no MemberSince.
	Account     bool       `json:"account"`
	MemberSince *time.Time `json:"member_since,omitempty"`
	Bot         bool       `json:"bot"` // a bot level ("bot:medium") or a bot account
	// Played has one entry per game the player finished a table of (as
	// the caller may see them), in game order.
	Played []ProfileGames `json:"played"`
	// Ratings is the current rating per game played rated, in game order.
	Ratings []PlayerRating `json:"ratings"`
	// History is the rating history per game, oldest first, at most
	// ProfileHistory points per game: what the client's chart draws.
	History []RatingSeries `json:"history"`
	// Recent is one page of the player's finished games, newest first,
	// from Offset; Total counts them all.
	Offset int           `json:"offset"`
	Total  int           `json:"total"`
	Recent []ProfileGame `json:"recent"`
}

// ProfileGames is one game's tally in a profile.
type ProfileGames struct {
	Game  string `json:"game"`
	Games int    `json:"games"` // finished tables where the player held a seat
	Wins  int    `json:"wins"`  // of those, where a seat of theirs won (shared wins count)
}

// RatingSeries is one game's rating history for a chart.
type RatingSeries struct {
	Game   string        `json:"game"`
	Points []RatingPoint `json:"points"`
}

// RatingPoint is the rating after one rated game. It carries no table id:
// a rated game may be private, and the chart needs none (the recent games
// link the replays the caller may open).
type RatingPoint struct {
	At          time.Time `json:"at"`
	Rating      int       `json:"rating"`
	Provisional bool      `json:"provisional"`
}

// ProfileGame is one finished game in a profile's recent games; ID opens
// its replay (GET /api/records/{id}/replay, #/replay/ID in the client).
type ProfileGame struct {
	ID       string    `json:"id"`
	Game     string    `json:"game"`
	Rated    bool      `json:"rated"`
	Finished time.Time `json:"finished"`
	Seats    []string  `json:"seats"` // names, in seat order
	Seat     game.Seat `json:"seat"`  // the player's (first) seat
	Won      bool      `json:"won"`
}
