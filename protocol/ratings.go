package protocol

import "time"

// The rating endpoints' answers (docs/protocol.md, "Ratings"; the model is
// docs/ratings.md).

// PlayerRating is one player's rating in one game. Rating is the number to
// show (1000 + 40·(Mu − 3·Sigma), rounded); Mu and Sigma are the model's
// belief, for clients that draw it. Provisional marks a rating that says
// little yet (Sigma still high).
type PlayerRating struct {
	Player      string    `json:"player"`
	Name        string    `json:"name"`
	Game        string    `json:"game"`
	Rating      int       `json:"rating"`
	Mu          float64   `json:"mu"`
	Sigma       float64   `json:"sigma"`
	Provisional bool      `json:"provisional"`
	Games       int       `json:"games"`
	Bot         bool      `json:"bot"` // a bot level ("bot:medium"), rated as a player of its own
	Updated     time.Time `json:"updated"`
}

// Leaderboard answers GET /api/ratings/{game}?offset=&limit=: the game's
// players from Offset, best conservative rating first (the first entry's
// place is Offset + 1); Total counts them all.
type Leaderboard struct {
	Game    string         `json:"game"`
	Offset  int            `json:"offset"`
	Total   int            `json:"total"`
	Players []PlayerRating `json:"players"`
}

// RatingsOf answers GET /api/ratings/{game}/players?id=…&id=…: the current
// ratings of the players asked for who have one in the game (a lobby shows
// the ratings at its tables with one request), in the order asked.
type RatingsOf struct {
	Game    string         `json:"game"`
	Players []PlayerRating `json:"players"`
}

// RatingChange is one rated game in a player's rating history.
type RatingChange struct {
	Table  string    `json:"table"`
	Game   string    `json:"game"`
	At     time.Time `json:"at"`
	Rank   int       `json:"rank"` // 0 first; tied seats share one
	Left   bool      `json:"left"` // abandoned: ranked last
	Before int       `json:"before"`
	After  int       `json:"after"`
	// The model's belief after the game (Mu, Sigma), for charts.
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// PlayerRatings answers GET /api/players/{id}/ratings: the player's current
// rating in each game played rated, and the latest changes, newest first.
type PlayerRatings struct {
	Player  string         `json:"player"`
	Ratings []PlayerRating `json:"ratings"`
	History []RatingChange `json:"history"`
}
