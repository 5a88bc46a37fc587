package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"cardroom/rating"

	"github.com/jackc/pgx/v5/pgconn"
)

// sqlStore is the SQL that does not depend on the engine: sessions, tables,
// accounts, ratings, bot accounts and chat, written once for SQLite and
// PostgreSQL. Both read numbered parameters ($1, $2, … in order of first
// use; SQLite takes $N as a named parameter whose index is its order of
// appearance, so a query must introduce them in ascending order), and the
// PostgreSQL schema keeps SQLite's column types (unix milliseconds, 0/1
// flags), so the rows scan the same. The PostgreSQL store runs on it
// whole, and so does the SQLite store but for its event log (sqlite.go:
// the single writer's group commit).
type sqlStore struct {
	w, r *sql.DB // writes and reads (the same pool for PostgreSQL)
	// serial, when set, runs first in each transaction that reads and
	// then writes on what it read (a count then an insert, ratings then
	// new ratings), so two of them on different connections cannot
	// interleave: PostgreSQL's transaction-scoped advisory lock. SQLite
	// needs none, since its one writer connection runs one transaction at
	// a time.
	serial string
}

// isUnique reports a primary-key or unique violation from either engine:
// SQLite's extended result code or PostgreSQL's SQLSTATE 23505, never the
// message.
func isUnique(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "23505"
	}
	return isConflict(err)
}

// begin opens a write transaction, serialized when it must be.
func (s sqlStore) begin(ctx context.Context, serialized bool) (*sql.Tx, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	if serialized && s.serial != "" {
		if _, err := tx.ExecContext(ctx, s.serial); err != nil {
			tx.Rollback()
			return nil, err
		}
	}
	return tx, nil
}

// ---- sessions ----

func (s sqlStore) createSession(ctx context.Context, se Session) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO sessions(token_hash, player, name, created, expires) VALUES ($1, $2, $3, $4, $5)`,
		se.TokenHash, se.Player, se.Name, se.Created.UnixMilli(), se.Expires.UnixMilli())
	return err
}

func (s sqlStore) session(ctx context.Context, h string) (Session, error) {
	var se Session
	var c, e int64
	err := s.r.QueryRowContext(ctx, `SELECT token_hash, player, name, created, expires FROM sessions WHERE token_hash = $1`, h).
		Scan(&se.TokenHash, &se.Player, &se.Name, &c, &e)
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, ErrNotFound
	}
	se.Created, se.Expires = time.UnixMilli(c).UTC(), time.UnixMilli(e).UTC()
	return se, err
}

func (s sqlStore) deleteSession(ctx context.Context, h string) error {
	_, err := s.w.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = $1`, h)
	return err
}

func (s sqlStore) purgeSessions(ctx context.Context, now time.Time) (int, error) {
	res, err := s.w.ExecContext(ctx, `DELETE FROM sessions WHERE expires <= $1`, now.UnixMilli())
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}

func (s sqlStore) countSessions(ctx context.Context) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM sessions`).Scan(&n)
	return n, err
}

// ---- tables ----

func (s sqlStore) createTable(ctx context.Context, t Table) error {
	tx, err := s.begin(ctx, false)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, `INSERT INTO tables(`+tableCols+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
		t.ID, t.Game, t.Options, b2i(t.Private), t.Invite, t.ClockMS, t.BotLevel, t.Owner, int64(t.Seed), t.Created.UnixMilli(), t.Status, orStar(t.Result), ms(t.Finished), seatsText(t.Winners), b2i(t.Rated), t.WhenEmpty, seatsText(t.StandIn))
	if err != nil {
		if isUnique(err) {
			return ErrConflict
		}
		return err
	}
	if err := putSeats(ctx, tx, t); err != nil {
		return err
	}
	return tx.Commit()
}

// putSeats replaces a table's seats in tx.
func putSeats(ctx context.Context, tx *sql.Tx, t Table) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM seats WHERE table_id = $1`, t.ID); err != nil {
		return err
	}
	for i, st := range t.Seats {
		if _, err := tx.ExecContext(ctx, `INSERT INTO seats(table_id, seat, player, name, bot, account) VALUES ($1, $2, $3, $4, $5, $6)`,
			t.ID, i, st.Player, st.Name, st.Bot, b2i(st.Account)); err != nil {
			return err
		}
	}
	return nil
}

func (s sqlStore) updateTable(ctx context.Context, t Table) error {
	return s.updateTableIf(ctx, t, nil)
}

// updateTableIf is updateTable after check (if not nil) has passed in the
// same transaction.
func (s sqlStore) updateTableIf(ctx context.Context, t Table, check func(*sql.Tx) error) error {
	tx, err := s.begin(ctx, false)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if check != nil {
		if err := check(tx); err != nil {
			return err
		}
	}
	res, err := tx.ExecContext(ctx, `UPDATE tables SET status = $1, result = $2, finished = $3, winners = $4, stand_in = $5 WHERE id = $6`,
		t.Status, orStar(t.Result), ms(t.Finished), seatsText(t.Winners), seatsText(t.StandIn), t.ID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	if err := putSeats(ctx, tx, t); err != nil {
		return err
	}
	return tx.Commit()
}

// seatsInto reads a table's seats; a damaged seat number is an error.
func (s sqlStore) seatsInto(ctx context.Context, t *Table) error {
	rows, err := s.r.QueryContext(ctx, `SELECT seat, player, name, bot, account FROM seats WHERE table_id = $1 ORDER BY seat`, t.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	t.Seats = nil
	for rows.Next() {
		var n, account int
		var st Seat
		if err := rows.Scan(&n, &st.Player, &st.Name, &st.Bot, &account); err != nil {
			return fmt.Errorf("table %s: seats unreadable: %w", t.ID, err)
		}
		st.Account = account != 0
		if n < 0 || n > maxSeat {
			return fmt.Errorf("table %s: seat %d is damaged", t.ID, n)
		}
		for len(t.Seats) <= n {
			t.Seats = append(t.Seats, Seat{})
		}
		t.Seats[n] = st
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("table %s: seats unreadable: %w", t.ID, err)
	}
	return nil
}

func (s sqlStore) table(ctx context.Context, id string) (Table, error) {
	t, err := scanTable(s.r.QueryRowContext(ctx, `SELECT `+tableCols+` FROM tables WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Table{}, ErrNotFound
	}
	if err != nil {
		return Table{}, fmt.Errorf("table %s: unreadable: %w", id, err)
	}
	return t, s.seatsInto(ctx, &t)
}

// tables runs a query of tableCols rows and reads each one's seats.
func (s sqlStore) tables(ctx context.Context, query string, args ...any) ([]Table, error) {
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	var out []Table
	for rows.Next() {
		t, err := scanTable(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if err := s.seatsInto(ctx, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s sqlStore) unfinished(ctx context.Context) ([]Table, error) {
	return s.tables(ctx, `SELECT `+tableCols+` FROM tables WHERE status IN ($1, $2) ORDER BY id`, StatusOpen, StatusPlaying)
}

// strings runs a query of one text column.
func (s sqlStore) strings(ctx context.Context, query string, args ...any) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

func (s sqlStore) unfinishedIDs(ctx context.Context) ([]string, error) {
	ids, err := s.strings(ctx, `SELECT id FROM tables WHERE status IN ($1, $2) ORDER BY id`, StatusOpen, StatusPlaying)
	if len(ids) == 0 {
		ids = nil // as the SQLite store answers
	}
	return ids, err
}

func (s sqlStore) history(ctx context.Context, player string, limit int) ([]Table, error) {
	if limit <= 0 {
		limit = 100
	}
	return s.tables(ctx, `SELECT `+tableCols+` FROM tables WHERE id IN (SELECT table_id FROM seats WHERE player = $1) AND status != $2 ORDER BY created DESC, id LIMIT $3`, player, StatusClosed, limit)
}

// ---- accounts ----

func (s sqlStore) createAccount(ctx context.Context, a Account) error {
	tx, err := s.begin(ctx, true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM accounts WHERE player = $1`, a.Player).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return ErrHasAccount
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO accounts(`+accountColumns+`) VALUES ($1, $2, $3, $4, $5, $6)`,
		a.Player, a.Name, a.Skeleton, a.Hash, a.Created.UnixMilli(), a.PasswordChanged.UnixMilli())
	if isUnique(err) {
		return ErrNameTaken
	}
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE sessions SET name = $1 WHERE player = $2`, a.Name, a.Player); err != nil {
		return err
	}
	return tx.Commit()
}

func (s sqlStore) accountBy(ctx context.Context, column, v string) (Account, error) {
	return scanAccount(s.r.QueryRowContext(ctx, `SELECT `+accountColumns+` FROM accounts WHERE `+column+` = $1`, v))
}

func (s sqlStore) changePassword(ctx context.Context, player, hash string, at time.Time, keep string) ([]string, error) {
	tx, err := s.begin(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE accounts SET hash = $1, password_changed = $2 WHERE player = $3`, hash, at.UnixMilli(), player)
	if err != nil {
		return nil, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		if err == nil {
			err = ErrNotFound
		}
		return nil, err
	}
	out, err := deleteSessionsOf(ctx, tx, player, keep)
	if err != nil {
		return nil, err
	}
	return out, tx.Commit()
}

func (s sqlStore) rehash(ctx context.Context, player, old, hash string) error {
	_, err := s.w.ExecContext(ctx, `UPDATE accounts SET hash = $1 WHERE player = $2 AND hash = $3`, hash, player, old)
	return err
}

func (s sqlStore) deleteSessionsOf(ctx context.Context, player, keep string) ([]string, error) {
	tx, err := s.begin(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	out, err := deleteSessionsOf(ctx, tx, player, keep)
	if err != nil {
		return nil, err
	}
	return out, tx.Commit()
}

func (s sqlStore) trimSessions(ctx context.Context, player string, limit int, keep string) ([]string, error) {
	tx, err := s.begin(ctx, true)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	ss, err := sessionsOf(ctx, tx, player)
	if err != nil {
		return nil, err
	}
	keepFirst(ss, keep)
	var out []string
	for i := max(0, limit); i < len(ss); i++ {
		if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = $1`, ss[i].TokenHash); err != nil {
			return nil, err
		}
		out = append(out, ss[i].TokenHash)
	}
	return out, tx.Commit()
}

// ---- ratings ----

func (s sqlStore) applyRatedGame(ctx context.Context, p rating.Params, g RatedGame) ([]RatingChange, error) {
	if err := checkRatedGame(g); err != nil {
		return nil, err
	}
	tx, err := s.begin(ctx, true)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO rated_games(table_id, game, at) VALUES ($1, $2, $3)`, g.Table, g.Game, g.At.UnixMilli()); err != nil {
		if isUnique(err) {
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
		err := tx.QueryRowContext(ctx, `SELECT mu, sigma, games FROM ratings WHERE player = $1 AND game = $2`, st.Player, g.Game).
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
		if _, err := tx.ExecContext(ctx, `INSERT INTO ratings(player, game, name, mu, sigma, ordinal, games, updated) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
			ON CONFLICT(player, game) DO UPDATE SET name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,
			ordinal = excluded.ordinal, games = excluded.games, updated = excluded.updated`,
			c.Player, g.Game, c.Name, c.After.Mu, c.After.Sigma, c.After.Ordinal(), c.Games, at); err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO rating_history(table_id, player, game, at, rank, abandoned, mu_before, sigma_before, mu_after, sigma_after)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			g.Table, c.Player, g.Game, at, c.Rank, b2i(c.Left), c.Before.Mu, c.Before.Sigma, c.After.Mu, c.After.Sigma); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	return out, nil
}

func (s sqlStore) isRated(ctx context.Context, table string) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM rated_games WHERE table_id = $1`, table).Scan(&n)
	return n > 0, err
}

func (s sqlStore) unrated(ctx context.Context, limit int) ([]string, error) {
	_, limit = clampPage(0, limit, MaxUnrated)
	return s.strings(ctx, `SELECT id FROM tables WHERE rated = 1 AND status = $1
		AND id NOT IN (SELECT table_id FROM rated_games) ORDER BY finished, id LIMIT $2`, StatusFinished, limit)
}

const ratingCols = `player, game, name, mu, sigma, games, updated`

func (s sqlStore) leaderboard(ctx context.Context, game string, offset, limit int) ([]PlayerRating, int, error) {
	offset, limit = clampPage(offset, limit, MaxLeaderboard)
	var total int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM ratings WHERE game = $1`, game).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT `+ratingCols+` FROM ratings
		WHERE game = $1 ORDER BY ordinal DESC, player LIMIT $2 OFFSET $3`, game, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	out, err := scanPlayerRatings(rows)
	return out, total, err
}

func (s sqlStore) ratingsOf(ctx context.Context, game string, players []string) ([]PlayerRating, error) {
	players = players[:min(len(players), MaxRatingsOf)]
	if len(players) == 0 {
		return []PlayerRating{}, nil
	}
	args := []any{game}
	marks := make([]string, len(players))
	for i, p := range players {
		args = append(args, p)
		marks[i] = fmt.Sprintf("$%d", i+2)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT `+ratingCols+` FROM ratings
		WHERE game = $1 AND player IN (`+strings.Join(marks, ", ")+`)`, args...)
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

func (s sqlStore) playerRatings(ctx context.Context, player string) ([]PlayerRating, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+ratingCols+` FROM ratings WHERE player = $1 ORDER BY game`, player)
	if err != nil {
		return nil, err
	}
	return scanPlayerRatings(rows)
}

func (s sqlStore) ratingHistory(ctx context.Context, player, game string, limit int) ([]RatingChange, error) {
	_, limit = clampPage(0, limit, MaxRatingHistory)
	// $2 = '' lists every game.
	// A table that is not there counts as private (its name is not shown).
	rows, err := s.r.QueryContext(ctx, `SELECT h.table_id, h.player, h.game, h.at, h.rank, h.abandoned, h.mu_before, h.sigma_before, h.mu_after, h.sigma_after,
		COALESCE(t.private, 1)
		FROM rating_history h LEFT JOIN tables t ON t.id = h.table_id
		WHERE h.player = $1 AND ($2 = '' OR h.game = $2) ORDER BY h.at DESC, h.table_id LIMIT $3`, player, game, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []RatingChange{}
	for rows.Next() {
		var c RatingChange
		var at int64
		var left, private int
		if err := rows.Scan(&c.Table, &c.Player, &c.Game, &at, &c.Rank, &left, &c.Before.Mu, &c.Before.Sigma, &c.After.Mu, &c.After.Sigma, &private); err != nil {
			return nil, err
		}
		c.At, c.Left, c.Private = time.UnixMilli(at).UTC(), left != 0, private != 0
		out = append(out, c)
	}
	return out, rows.Err()
}

// ---- bot accounts ----

func (s sqlStore) markBot(ctx context.Context, player string, at time.Time) (time.Time, error) {
	tx, err := s.begin(ctx, true)
	if err != nil {
		return time.Time{}, err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM accounts WHERE player = $1`, player).Scan(&n); err != nil {
		return time.Time{}, err
	}
	if n == 0 {
		return time.Time{}, ErrNotFound
	}
	// Marking is idempotent: the first marking's time stays.
	if _, err := tx.ExecContext(ctx, `INSERT INTO bot_accounts(player, since) VALUES ($1, $2) ON CONFLICT(player) DO NOTHING`, player, at.UnixMilli()); err != nil {
		return time.Time{}, err
	}
	var since int64
	if err := tx.QueryRowContext(ctx, `SELECT since FROM bot_accounts WHERE player = $1`, player).Scan(&since); err != nil {
		return time.Time{}, err
	}
	return time.UnixMilli(since).UTC(), tx.Commit()
}

func (s sqlStore) bots(ctx context.Context, limit int) ([]Bot, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT player, since FROM bot_accounts ORDER BY player LIMIT $1`, max(0, limit))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Bot
	for rows.Next() {
		var b Bot
		var since int64
		if err := rows.Scan(&b.Player, &since); err != nil {
			return nil, err
		}
		b.Since = time.UnixMilli(since).UTC()
		out = append(out, b)
	}
	return out, rows.Err()
}

func (s sqlStore) createBotToken(ctx context.Context, t BotToken, limit int) error {
	tx, err := s.begin(ctx, true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var bot, n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM bot_accounts WHERE player = $1`, t.Player).Scan(&bot); err != nil {
		return err
	}
	if bot == 0 {
		return ErrNotBot
	}
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM bot_tokens WHERE player = $1`, t.Player).Scan(&n); err != nil {
		return err
	}
	if n >= limit {
		return ErrTooManyTokens
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO bot_tokens(token_hash, player, label, created) VALUES ($1, $2, $3, $4)`,
		t.Hash, t.Player, t.Label, t.Created.UnixMilli()); err != nil {
		return err
	}
	return tx.Commit()
}

func (s sqlStore) botToken(ctx context.Context, hash string) (BotToken, error) {
	t := BotToken{Hash: hash}
	var c int64
	err := s.r.QueryRowContext(ctx, `SELECT player, label, created FROM bot_tokens WHERE token_hash = $1`, hash).Scan(&t.Player, &t.Label, &c)
	if errors.Is(err, sql.ErrNoRows) {
		return BotToken{}, ErrNotFound
	}
	if err != nil {
		return BotToken{}, err
	}
	t.Created = time.UnixMilli(c).UTC()
	return t, nil
}

func (s sqlStore) botTokensOf(ctx context.Context, player string) ([]BotToken, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT token_hash, label, created FROM bot_tokens WHERE player = $1`, player)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []BotToken
	for rows.Next() {
		t := BotToken{Player: player}
		var c int64
		if err := rows.Scan(&t.Hash, &t.Label, &c); err != nil {
			return nil, err
		}
		t.Created = time.UnixMilli(c).UTC()
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	sortBotTokens(out)
	return out, nil
}

func (s sqlStore) deleteBotToken(ctx context.Context, player, hash string) error {
	res, err := s.w.ExecContext(ctx, `DELETE FROM bot_tokens WHERE token_hash = $1 AND player = $2`, hash, player)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return ErrNotFound
	}
	return nil
}

// ---- chat ----

func (s sqlStore) appendChat(ctx context.Context, l ChatLine, keep int) error {
	return s.appendChatIf(ctx, l, keep, nil)
}

// appendChatIf is appendChat after check (if not nil) has passed in the
// same transaction.
func (s sqlStore) appendChatIf(ctx context.Context, l ChatLine, keep int, check func(*sql.Tx) error) error {
	tx, err := s.begin(ctx, false)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if check != nil {
		if err := check(tx); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO chat_lines(table_id, id, channel, player, name, seat, text, phrase, at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, l.Table, l.ID, l.Channel, l.Player, l.Name, l.Seat, l.Text, l.Phrase, l.At.UnixMilli()); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM chat_lines WHERE table_id = $1 AND id <= $2`, l.Table, l.ID-int64(max(1, keep))); err != nil {
		return err
	}
	return tx.Commit()
}

func (s sqlStore) chatLines(ctx context.Context, table string, limit int) ([]ChatLine, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, channel, player, name, seat, text, phrase, at FROM chat_lines
		WHERE table_id = $1 ORDER BY id DESC LIMIT $2`, table, max(0, limit))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ChatLine
	for rows.Next() {
		l := ChatLine{Table: table}
		var at int64
		if err := rows.Scan(&l.ID, &l.Channel, &l.Player, &l.Name, &l.Seat, &l.Text, &l.Phrase, &at); err != nil {
			return nil, err
		}
		l.At = time.UnixMilli(at).UTC()
		out = append(out, l)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, rows.Err()
}

func (s sqlStore) spectatorChatOff(ctx context.Context, table string) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM chat_settings WHERE table_id = $1 AND spectators_off = 1`, table).Scan(&n)
	return n > 0, err
}

func (s sqlStore) setSpectatorChatOff(ctx context.Context, table string, off bool) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO chat_settings(table_id, spectators_off) VALUES ($1, $2)
		ON CONFLICT(table_id) DO UPDATE SET spectators_off = excluded.spectators_off`, table, b2i(off))
	return err
}

func (s sqlStore) addChatReport(ctx context.Context, r ChatReport) error {
	l := r.Line
	_, err := s.w.ExecContext(ctx, `INSERT INTO chat_reports(table_id, line, reporter, reporter_name, reason, at,
		channel, player, name, text, phrase, line_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
		l.Table, l.ID, r.Reporter, r.ReporterName, r.Reason, r.At.UnixMilli(), l.Channel, l.Player, l.Name, l.Text, l.Phrase, l.At.UnixMilli())
	if err != nil && isUnique(err) {
		return ErrDuplicate
	}
	return err
}

func (s sqlStore) chatReports(ctx context.Context, limit int) ([]ChatReport, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, table_id, line, reporter, reporter_name, reason, at, channel, player, name, text, phrase, line_at
		FROM chat_reports ORDER BY id DESC LIMIT $1`, min(max(0, limit), MaxReports))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ChatReport
	for rows.Next() {
		var r ChatReport
		var at, lineAt int64
		if err := rows.Scan(&r.ID, &r.Line.Table, &r.Line.ID, &r.Reporter, &r.ReporterName, &r.Reason, &at,
			&r.Line.Channel, &r.Line.Player, &r.Line.Name, &r.Line.Text, &r.Line.Phrase, &lineAt); err != nil {
			return nil, err
		}
		r.At, r.Line.At = time.UnixMilli(at).UTC(), time.UnixMilli(lineAt).UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}

// ---- profiles ----

// visibleSQLN is visibleSQL with the viewer as parameter $3.
const visibleSQLN = `(t.private = 0 OR ($3 != '' AND (t.owner = $3 OR EXISTS (SELECT 1 FROM seats v WHERE v.table_id = t.id AND v.player = $3))))`

// playerTally counts with the engine's substring function (SQLite's
// instr, PostgreSQL's strpos: the same arguments and answer).
func (s sqlStore) playerTally(ctx context.Context, instr, player, viewer string) ([]GameTally, error) {
	if player == "" {
		return nil, ErrNoPlayer
	}
	rows, err := s.r.QueryContext(ctx, `SELECT t.game, COUNT(DISTINCT t.id),
		COUNT(DISTINCT CASE WHEN `+instr+`(' ' || t.winners || ' ', ' ' || p.seat || ' ') > 0 THEN t.id END)
		FROM seats p JOIN tables t ON t.id = p.table_id
		WHERE p.player = $1 AND t.status = $2 AND `+visibleSQLN+`
		GROUP BY t.game ORDER BY t.game`, player, StatusFinished, viewer)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []GameTally{}
	for rows.Next() {
		var g GameTally
		if err := rows.Scan(&g.Game, &g.Games, &g.Wins); err != nil {
			return nil, fmt.Errorf("profile tally of %s: %w", player, err)
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

func (s sqlStore) recentGames(ctx context.Context, player, viewer string, offset, limit int) ([]Table, error) {
	if player == "" {
		return nil, ErrNoPlayer
	}
	offset, limit = clampRecent(offset, limit)
	out, err := s.tables(ctx, `SELECT `+tableCols+` FROM tables t
		WHERE t.id IN (SELECT table_id FROM seats WHERE player = $1) AND t.status = $2 AND `+visibleSQLN+`
		ORDER BY t.finished DESC, t.id LIMIT $4 OFFSET $5`, player, StatusFinished, viewer, limit, offset)
	if out == nil && err == nil {
		out = []Table{}
	}
	return out, err
}
