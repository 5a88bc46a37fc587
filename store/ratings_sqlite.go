package store

import (
	"context"
	"database/sql"
	"time"

	"cardroom/rating"
)

// The tables of migration 005_ratings are Cardroom's (checkIdentity).
func init() {
	for _, n := range []string{"ratings", "rated_games", "rating_history"} {
		ourTables[n] = true
	}
}

// ApplyRatedGame implements Ratings: one immediate transaction on the
// writer (so no other write interleaves between reading the ratings and
// storing the new ones), claimed first by the rated_games row.
func (s *SQLite) ApplyRatedGame(ctx context.Context, p rating.Params, g RatedGame) ([]RatingChange, error) {
	if err := s.writable(); err != nil {
		return nil, err
	}
	return s.sq().applyRatedGame(ctx, p, g)
}

// IsRated implements Ratings.
func (s *SQLite) IsRated(ctx context.Context, table string) (bool, error) {
	return s.sq().isRated(ctx, table)
}

// Unrated implements Ratings (by the tables_rated index).
func (s *SQLite) Unrated(ctx context.Context, limit int) ([]string, error) {
	return s.sq().unrated(ctx, limit)
}

func scanPlayerRatings(rows *sql.Rows) ([]PlayerRating, error) {
	defer rows.Close()
	out := []PlayerRating{}
	for rows.Next() {
		var r PlayerRating
		var updated int64
		if err := rows.Scan(&r.Player, &r.Game, &r.Name, &r.Rating.Mu, &r.Rating.Sigma, &r.Games, &updated); err != nil {
			return nil, err
		}
		r.Updated = time.UnixMilli(updated).UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}

// Leaderboard implements Ratings (by the ratings_board index).
func (s *SQLite) Leaderboard(ctx context.Context, game string, offset, limit int) ([]PlayerRating, int, error) {
	return s.sq().leaderboard(ctx, game, offset, limit)
}

// RatingsOf implements Ratings: one query by the primary key.
func (s *SQLite) RatingsOf(ctx context.Context, game string, players []string) ([]PlayerRating, error) {
	return s.sq().ratingsOf(ctx, game, players)
}

// PlayerRatings implements Ratings.
func (s *SQLite) PlayerRatings(ctx context.Context, player string) ([]PlayerRating, error) {
	return s.sq().playerRatings(ctx, player)
}

// RatingHistory implements Ratings (by the rating_history_player index).
func (s *SQLite) RatingHistory(ctx context.Context, player, game string, limit int) ([]RatingChange, error) {
	return s.sq().ratingHistory(ctx, player, game, limit)
}
