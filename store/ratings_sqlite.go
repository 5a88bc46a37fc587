package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
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
	if err := checkRatedGame(g); err != nil {
		return nil, err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO rated_games(table_id, game, at) VALUES (?, ?, ?)`, g.Table, g.Game, g.At.UnixMilli()); err != nil {
		if isConflict(err) {
			return nil, ErrAlreadyRated
		}
		return nil, err
	}
	cur := map[string]PlayerRating{}
	for _, st := range g.Seats {
		if _, ok := cur[st.Player]; ok {
			continue
		}
		var r PlayerRating
		err := tx.QueryRowContext(ctx, `SELECT mu, sigma, games FROM ratings WHERE player = ? AND game = ?`, st.Player, g.Game).
			Scan(&r.Rating.Mu, &r.Rating.Sigma, &r.Games)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("rating of %s: %w", st.Player, err)
		}
		cur[st.Player] = r
	}
	out, err := rateGame(p, g, cur)
	if err != nil {
		return nil, err
	}
	at := g.At.UnixMilli()
	for _, c := range out {
		if _, err := tx.ExecContext(ctx, `INSERT INTO ratings(player, game, name, mu, sigma, ordinal, games, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT(player, game) DO UPDATE SET name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,
			ordinal = excluded.ordinal, games = excluded.games, updated = excluded.updated`,
			c.Player, g.Game, c.Name, c.After.Mu, c.After.Sigma, c.After.Ordinal(), c.Games, at); err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO rating_history(table_id, player, game, at, rank, abandoned, mu_before, sigma_before, mu_after, sigma_after)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			g.Table, c.Player, g.Game, at, c.Rank, b2i(c.Left), c.Before.Mu, c.Before.Sigma, c.After.Mu, c.After.Sigma); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	return out, nil
}

// IsRated implements Ratings.
func (s *SQLite) IsRated(ctx context.Context, table string) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM rated_games WHERE table_id = ?`, table).Scan(&n)
	return n > 0, err
}

// Unrated implements Ratings (by the tables_rated index).
func (s *SQLite) Unrated(ctx context.Context, limit int) ([]string, error) {
	_, limit = clampPage(0, limit, MaxUnrated)
	rows, err := s.r.QueryContext(ctx, `SELECT id FROM tables WHERE rated = 1 AND status = ?
		AND id NOT IN (SELECT table_id FROM rated_games) ORDER BY finished, id LIMIT ?`, StatusFinished, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
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
	offset, limit = clampPage(offset, limit, MaxLeaderboard)
	var total int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM ratings WHERE game = ?`, game).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT player, game, name, mu, sigma, games, updated FROM ratings
		WHERE game = ? ORDER BY ordinal DESC, player LIMIT ? OFFSET ?`, game, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	out, err := scanPlayerRatings(rows)
	return out, total, err
}

// RatingsOf implements Ratings: one query by the primary key.
func (s *SQLite) RatingsOf(ctx context.Context, game string, players []string) ([]PlayerRating, error) {
	players = players[:min(len(players), MaxRatingsOf)]
	if len(players) == 0 {
		return []PlayerRating{}, nil
	}
	args := []any{game}
	for _, p := range players {
		args = append(args, p)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT player, game, name, mu, sigma, games, updated FROM ratings
		WHERE game = ? AND player IN (?`+strings.Repeat(", ?", len(players)-1)+`)`, args...)
	if err != nil {
		return nil, err
	}
	got, err := scanPlayerRatings(rows)
	if err != nil {
		return nil, err
	}
	by := map[string]PlayerRating{}
	for _, r := range got {
		by[r.Player] = r
	}
	out := []PlayerRating{}
	for _, p := range players {
		if r, ok := by[p]; ok {
			out = append(out, r)
			delete(by, p)
		}
	}
	return out, nil
}

// PlayerRatings implements Ratings.
func (s *SQLite) PlayerRatings(ctx context.Context, player string) ([]PlayerRating, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT player, game, name, mu, sigma, games, updated FROM ratings WHERE player = ? ORDER BY game`, player)
	if err != nil {
		return nil, err
	}
	return scanPlayerRatings(rows)
}

// RatingHistory implements Ratings (by the rating_history_player index).
func (s *SQLite) RatingHistory(ctx context.Context, player, game string, limit int) ([]RatingChange, error) {
	_, limit = clampPage(0, limit, MaxRatingHistory)
	q := `SELECT table_id, player, game, at, rank, abandoned, mu_before, sigma_before, mu_after, sigma_after
		FROM rating_history WHERE player = ?`
	args := []any{player}
	if game != "" {
		q += ` AND game = ?`
		args = append(args, game)
	}
	q += ` ORDER BY at DESC, table_id LIMIT ?`
	args = append(args, limit)
	rows, err := s.r.QueryContext(ctx, strings.TrimSpace(q), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []RatingChange{}
	for rows.Next() {
		var c RatingChange
		var at int64
		var left int
		if err := rows.Scan(&c.Table, &c.Player, &c.Game, &at, &c.Rank, &left, &c.Before.Mu, &c.Before.Sigma, &c.After.Mu, &c.After.Sigma); err != nil {
			return nil, err
		}
		c.At, c.Left = time.UnixMilli(at).UTC(), left != 0
		out = append(out, c)
	}
	return out, rows.Err()
}
