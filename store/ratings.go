package store

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"cardroom/rating"
)

// ErrAlreadyRated is returned by ApplyRatedGame for a table whose game was
// rated before: the update happens once per table.
var ErrAlreadyRated = errors.New("the table's game is rated already")

// PlayerRating is one player's current rating in one game.
type PlayerRating struct {
	Player  string
	Name    string
	Game    string
	Rating  rating.Rating
	Games   int // rated games played
	Updated time.Time
}

// RatedSeat is one seat of a finished rated game, as the server ranked it.
type RatedSeat struct {
	Player string // the seat's player id; a bot's is "bot:LEVEL"
	Name   string
	Rank   int  // 0 best; equal ranks are a tie
	Left   bool // abandoned: ranked last whatever the score (docs/ratings.md)
}

// RatedGame is a finished rated game to apply.
type RatedGame struct {
	Table string
	Game  string
	At    time.Time
	Seats []RatedSeat
}

// RatingChange is one player's rating before and after one rated game (a
// row of the rating history).
type RatingChange struct {
	Table         string
	Player        string
	Name          string // set by ApplyRatedGame's answer, not stored per row
	Game          string
	At            time.Time
	Rank          int
	Left          bool
	Before, After rating.Rating
	Games         int // after this game (ApplyRatedGame's answer only)
	// Private is set by RatingHistory for a change whose table is private
	// (or gone): a reader may not be told its table.
	Private bool
}

// Bounds of the rating queries: a caller asking for more gets at most this.
const (
	MaxLeaderboard   = 100    // entries in one leaderboard page
	MaxLeaderOffset  = 100000 // how deep a leaderboard may be paged
	MaxRatingHistory = 500    // history rows in one answer
	MaxRatedSeats    = 64     // seats of one rated game
	MaxUnrated       = 1000   // tables in one Unrated answer
	MaxRatingsOf     = 200    // players in one RatingsOf lookup
)

// Ratings is the persistence of ratings, beside Store (docs/ratings.md):
// a store that implements it (both of this package's do) enables rated
// tables.
type Ratings interface {
	// ApplyRatedGame rates a finished game in one transaction: it reads
	// the players' current ratings (p.New() for a player never rated in
	// the game), rates the seats' ranking with p, and stores the new
	// ratings, one history row per player and the table as rated. A
	// player (a bot level) who holds several seats gets the mean of their
	// seats' changes, counted as one game. It returns the changes, one per
	// player in the order of first seats; ErrAlreadyRated if the table was
	// rated before (nothing changes), a rating.ErrInput error for a game
	// the model refuses.
	ApplyRatedGame(ctx context.Context, p rating.Params, g RatedGame) ([]RatingChange, error)
	// IsRated reports whether the table's game has been rated.
	IsRated(ctx context.Context, table string) (bool, error)
	// Unrated lists finished rated tables whose game has not been rated
	// (the room stopped between the end and the update), oldest first, at
	// most limit (MaxUnrated).
	Unrated(ctx context.Context, limit int) ([]string, error)
	// Leaderboard lists game's ratings by ordinal (Mu − 3·Sigma), best
	// first, from offset (at most limit, MaxLeaderboard), and how many
	// players the game has in all.
	Leaderboard(ctx context.Context, game string, offset, limit int) ([]PlayerRating, int, error)
	// RatingsOf returns the current ratings in game of those of players
	// who have one (at most MaxRatingsOf players are looked up), in the
	// order of players; a player never rated in the game is left out.
	RatingsOf(ctx context.Context, game string, players []string) ([]PlayerRating, error)
	// PlayerRatings lists the player's current ratings, one per game
	// played rated, in game order.
	PlayerRatings(ctx context.Context, player string) ([]PlayerRating, error)
	// RatingHistory lists the player's rating changes, newest first (at
	// most limit, MaxRatingHistory); game "" lists every game.
	RatingHistory(ctx context.Context, player, game string, limit int) ([]RatingChange, error)
}

var (
	_ Ratings = (*Memory)(nil)
	_ Ratings = (*SQLite)(nil)
)

// checkRatedGame refuses a game that cannot be rated before anything is
// read.
func checkRatedGame(g RatedGame) error {
	if g.Table == "" || g.Game == "" {
		return fmt.Errorf("%w: a rated game needs its table and game", rating.ErrInput)
	}
	if len(g.Seats) < 2 || len(g.Seats) > MaxRatedSeats {
		return fmt.Errorf("%w: a rated game has 2 to %d seats, not %d", rating.ErrInput, MaxRatedSeats, len(g.Seats))
	}
	for i, s := range g.Seats {
		if s.Player == "" {
			return fmt.Errorf("%w: seat %d has no player", rating.ErrInput, i)
		}
	}
	return nil
}

// rateGame computes a rated game's changes from the players' current
// ratings (cur; missing players are new). Both stores call it inside their
// transaction, so two games sharing a player (a bot level plays many
// tables at once) never lose each other's update.
func rateGame(p rating.Params, g RatedGame, cur map[string]PlayerRating) ([]RatingChange, error) {
	before := make([]rating.Rating, len(g.Seats))
	ranks := make([]int, len(g.Seats))
	for i, s := range g.Seats {
		before[i] = p.New()
		if r, ok := cur[s.Player]; ok {
			before[i] = r.Rating
		}
		ranks[i] = s.Rank
	}
	after, err := p.Rate(before, ranks)
	if err != nil {
		return nil, err
	}
	var out []RatingChange
	idx := map[string]int{}
	n := map[string]int{}
	for i, s := range g.Seats {
		k, ok := idx[s.Player]
		if !ok {
			k = len(out)
			idx[s.Player] = k
			games := 1
			if r, ok := cur[s.Player]; ok {
				games = r.Games + 1
			}
			out = append(out, RatingChange{Table: g.Table, Player: s.Player, Name: s.Name, Game: g.Game, At: g.At,
				Rank: s.Rank, Left: s.Left, Before: before[i], Games: games})
		}
		c := &out[k]
		c.Rank = min(c.Rank, s.Rank)
		c.Left = c.Left || s.Left
		c.After.Mu += after[i].Mu - before[i].Mu
		c.After.Sigma += after[i].Sigma - before[i].Sigma
		n[s.Player]++
	}
	for i := range out {
		c := &out[i]
		k := float64(n[c.Player])
		c.After = rating.Rating{Mu: c.Before.Mu + c.After.Mu/k, Sigma: c.Before.Sigma + c.After.Sigma/k}
	}
	return out, nil
}

// clampPage bounds a page request.
func clampPage(offset, limit, maxLimit int) (int, int) {
	if limit <= 0 || limit > maxLimit {
		limit = maxLimit
	}
	offset = max(0, min(offset, MaxLeaderOffset))
	return offset, limit
}

// memRatings is Memory's rating state.
type memRatings struct {
	cur     map[string]map[string]PlayerRating // game → player → rating
	rated   map[string]bool                    // tables
	history []RatingChange
}

func (m *Memory) rt() *memRatings {
	if m.ratings == nil {
		m.ratings = &memRatings{cur: map[string]map[string]PlayerRating{}, rated: map[string]bool{}}
	}
	return m.ratings
}

// ApplyRatedGame implements Ratings.
func (m *Memory) ApplyRatedGame(_ context.Context, p rating.Params, g RatedGame) ([]RatingChange, error) {
	if err := checkRatedGame(g); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	rt := m.rt()
	if rt.rated[g.Table] {
		return nil, ErrAlreadyRated
	}
	out, err := rateGame(p, g, rt.cur[g.Game])
	if err != nil {
		return nil, err
	}
	rt.rated[g.Table] = true
	if rt.cur[g.Game] == nil {
		rt.cur[g.Game] = map[string]PlayerRating{}
	}
	for _, c := range out {
		rt.cur[g.Game][c.Player] = PlayerRating{Player: c.Player, Name: c.Name, Game: g.Game, Rating: c.After, Games: c.Games, Updated: g.At}
		h := c
		h.Name, h.Games = "", 0
		rt.history = append(rt.history, h)
	}
	return out, nil
}

// IsRated implements Ratings.
func (m *Memory) IsRated(_ context.Context, table string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.rt().rated[table], nil
}

// Unrated implements Ratings.
func (m *Memory) Unrated(_ context.Context, limit int) ([]string, error) {
	_, limit = clampPage(0, limit, MaxUnrated)
	m.mu.Lock()
	defer m.mu.Unlock()
	var ts []Table
	for _, t := range m.tables {
		if t.Rated && t.Status == StatusFinished && !m.rt().rated[t.ID] {
			ts = append(ts, t)
		}
	}
	sort.Slice(ts, func(i, j int) bool {
		if !ts[i].Finished.Equal(ts[j].Finished) {
			return ts[i].Finished.Before(ts[j].Finished)
		}
		return ts[i].ID < ts[j].ID
	})
	out := []string{}
	for _, t := range ts[:min(len(ts), limit)] {
		out = append(out, t.ID)
	}
	return out, nil
}

// Leaderboard implements Ratings.
func (m *Memory) Leaderboard(_ context.Context, game string, offset, limit int) ([]PlayerRating, int, error) {
	offset, limit = clampPage(offset, limit, MaxLeaderboard)
	m.mu.Lock()
	defer m.mu.Unlock()
	var all []PlayerRating
	for _, r := range m.rt().cur[game] {
		all = append(all, r)
	}
	sort.Slice(all, func(i, j int) bool {
		oi, oj := all[i].Rating.Ordinal(), all[j].Rating.Ordinal()
		if oi != oj {
			return oi > oj
		}
		return all[i].Player < all[j].Player
	})
	total := len(all)
	if offset >= total {
		return []PlayerRating{}, total, nil
	}
	return append([]PlayerRating{}, all[offset:min(total, offset+limit)]...), total, nil
}

// RatingsOf implements Ratings.
func (m *Memory) RatingsOf(_ context.Context, game string, players []string) ([]PlayerRating, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := []PlayerRating{}
	seen := map[string]bool{}
	for _, p := range players[:min(len(players), MaxRatingsOf)] {
		if r, ok := m.rt().cur[game][p]; ok && !seen[p] {
			seen[p] = true
			out = append(out, r)
		}
	}
	return out, nil
}

// PlayerRatings implements Ratings.
func (m *Memory) PlayerRatings(_ context.Context, player string) ([]PlayerRating, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := []PlayerRating{}
	for _, byPlayer := range m.rt().cur {
		if r, ok := byPlayer[player]; ok {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Game < out[j].Game })
	return out, nil
}

// RatingHistory implements Ratings.
func (m *Memory) RatingHistory(_ context.Context, player, game string, limit int) ([]RatingChange, error) {
	_, limit = clampPage(0, limit, MaxRatingHistory)
	m.mu.Lock()
	defer m.mu.Unlock()
	out := []RatingChange{}
	h := m.rt().history
	for i := len(h) - 1; i >= 0 && len(out) < limit; i-- {
		if h[i].Player == player && (game == "" || h[i].Game == game) {
			c := h[i]
			t, ok := m.tables[c.Table]
			c.Private = !ok || t.Private
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.After(out[j].At) })
	return out, nil
}

// IsBotPlayer reports whether a rated player id is a bot level's
// ("bot:medium"): each level is a rated player of its own.
func IsBotPlayer(player string) bool { return strings.HasPrefix(player, "bot:") }
