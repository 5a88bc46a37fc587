package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// The SQL side of Tournaments (migration 012_tournaments), written once on
// sqlStore for SQLite and PostgreSQL. The count-then-insert steps (a new
// tournament under the bounds, an entrant under the tournament's bound)
// run serialized (sqlStore.begin), so two nodes cannot both pass a bound.

func init() {
	// The tables of 012_tournaments are Cardroom's (identity.go).
	ourTables["tournaments"], ourTables["tournament_entrants"], ourTables["tournament_games"] = true, true, true
}

// The wrappers of both stores.

// CreateTournament implements Tournaments.
func (s *SQLite) CreateTournament(ctx context.Context, t Tournament, maxOpen, maxPerOwner int) error {
	if err := s.writable(); err != nil {
		return err
	}
	return s.sq().createTournament(ctx, t, maxOpen, maxPerOwner)
}

// Tournament implements Tournaments.
func (s *SQLite) Tournament(ctx context.Context, id string) (Tournament, error) {
	return s.sq().tournament(ctx, id)
}

// TournamentList implements Tournaments.
func (s *SQLite) TournamentList(ctx context.Context, unfinished bool, limit int) ([]Tournament, error) {
	return s.sq().tournamentList(ctx, unfinished, limit)
}

// JoinTournament implements Tournaments.
func (s *SQLite) JoinTournament(ctx context.Context, id string, e Entrant, maxPerOrigin int) (int, error) {
	if err := s.writable(); err != nil {
		return 0, err
	}
	return s.sq().joinTournament(ctx, id, e, maxPerOrigin)
}

// SetTournamentStatus implements Tournaments.
func (s *SQLite) SetTournamentStatus(ctx context.Context, id, from, to string, started time.Time) (bool, error) {
	if err := s.writable(); err != nil {
		return false, err
	}
	return s.sq().setTournamentStatus(ctx, id, from, to, started)
}

// AddTournamentGame implements Tournaments.
func (s *SQLite) AddTournamentGame(ctx context.Context, g TournamentGame) error {
	if err := s.writable(); err != nil {
		return err
	}
	return s.sq().addTournamentGame(ctx, g)
}

// TournamentGames implements Tournaments.
func (s *SQLite) TournamentGames(ctx context.Context, id string) ([]TournamentGame, error) {
	return s.sq().tournamentGames(ctx, id)
}

// SettleTournamentGame implements Tournaments.
func (s *SQLite) SettleTournamentGame(ctx context.Context, g TournamentGame) error {
	if err := s.writable(); err != nil {
		return err
	}
	return s.sq().settleTournamentGame(ctx, g)
}

func (p *Postgres) CreateTournament(ctx context.Context, t Tournament, maxOpen, maxPerOwner int) error {
	return p.sql.createTournament(ctx, t, maxOpen, maxPerOwner)
}
func (p *Postgres) Tournament(ctx context.Context, id string) (Tournament, error) {
	return p.sql.tournament(ctx, id)
}
func (p *Postgres) TournamentList(ctx context.Context, unfinished bool, limit int) ([]Tournament, error) {
	return p.sql.tournamentList(ctx, unfinished, limit)
}
func (p *Postgres) JoinTournament(ctx context.Context, id string, e Entrant, maxPerOrigin int) (int, error) {
	return p.sql.joinTournament(ctx, id, e, maxPerOrigin)
}
func (p *Postgres) SetTournamentStatus(ctx context.Context, id, from, to string, started time.Time) (bool, error) {
	return p.sql.setTournamentStatus(ctx, id, from, to, started)
}
func (p *Postgres) AddTournamentGame(ctx context.Context, g TournamentGame) error {
	return p.sql.addTournamentGame(ctx, g)
}
func (p *Postgres) TournamentGames(ctx context.Context, id string) ([]TournamentGame, error) {
	return p.sql.tournamentGames(ctx, id)
}
func (p *Postgres) SettleTournamentGame(ctx context.Context, g TournamentGame) error {
	return p.sql.settleTournamentGame(ctx, g)
}

// ---- the SQL ----

const tournamentCols = `id, game, options, deals, bot_level, seed, owner, owner_name, start_at, max_entrants, deal_ms, created, started, status, owner_origin`

func (s sqlStore) createTournament(ctx context.Context, t Tournament, maxOpen, maxPerOwner int) error {
	if err := checkTournament(t); err != nil {
		return err
	}
	tx, err := s.begin(ctx, true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var open, mine int
	if err := tx.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(CASE WHEN owner = $1 THEN 1 ELSE 0 END), 0)
		FROM tournaments WHERE status IN ('open', 'running')`, t.Owner).Scan(&open, &mine); err != nil {
		return err
	}
	if open >= maxOpen || mine >= maxPerOwner {
		return ErrTournamentLimit
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO tournaments(`+tournamentCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
		t.ID, t.Game, t.Options, t.Deals, t.BotLevel, int64(t.Seed), t.Owner, t.OwnerName, ms(t.StartAt), t.MaxEntrants,
		t.DealTime.Milliseconds(), t.Created.UnixMilli(), ms(t.Started), t.Status, t.OwnerOrigin)
	if isUnique(err) {
		return ErrConflict
	}
	if err != nil {
		return err
	}
	return tx.Commit()
}

// scanTournament reads one row of tournamentCols.
func scanTournament(sc interface{ Scan(...any) error }) (Tournament, error) {
	var t Tournament
	var seed, startAt, dealMS, created, started int64
	err := sc.Scan(&t.ID, &t.Game, &t.Options, &t.Deals, &t.BotLevel, &seed, &t.Owner, &t.OwnerName, &startAt, &t.MaxEntrants,
		&dealMS, &created, &started, &t.Status, &t.OwnerOrigin)
	t.Seed, t.DealTime, t.Created = uint64(seed), time.Duration(dealMS)*time.Millisecond, time.UnixMilli(created).UTC()
	t.StartAt, t.Started = unms(startAt), unms(started)
	return t, err
}

// unms is ms's inverse: 0 is the zero time.
func unms(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v).UTC()
}

func (s sqlStore) tournament(ctx context.Context, id string) (Tournament, error) {
	t, err := scanTournament(s.r.QueryRowContext(ctx, `SELECT `+tournamentCols+` FROM tournaments WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Tournament{}, ErrNotFound
	}
	if err != nil {
		return Tournament{}, err
	}
	ts := []Tournament{t}
	if err := s.entrantsOf(ctx, ts); err != nil {
		return Tournament{}, err
	}
	return ts[0], nil
}

func (s sqlStore) tournamentList(ctx context.Context, unfinished bool, limit int) ([]Tournament, error) {
	q := `SELECT ` + tournamentCols + ` FROM tournaments`
	if unfinished {
		q += ` WHERE status IN ('open', 'running')`
	}
	out, err := queryAll(ctx, s.r, func(r *sql.Rows) (Tournament, error) { return scanTournament(r) },
		q+` ORDER BY created DESC, id LIMIT $1`, max(limit, 0))
	if err != nil {
		return nil, err
	}
	return out, s.entrantsOf(ctx, out)
}

// queryAll runs a query and reads every row with scan.
func queryAll[T any](ctx context.Context, db *sql.DB, scan func(*sql.Rows) (T, error), query string, args ...any) ([]T, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// entrantsOf fills in each tournament's entrants, one query each (a list
// is at most a page of tournaments).
func (s sqlStore) entrantsOf(ctx context.Context, ts []Tournament) error {
	for i := range ts {
		es, err := queryAll(ctx, s.r, func(r *sql.Rows) (Entrant, error) {
			var e Entrant
			var j int64
			err := r.Scan(&e.Player, &e.Name, &j, &e.Origin)
			e.Joined = time.UnixMilli(j).UTC()
			return e, err
		}, `SELECT player, name, joined, origin FROM tournament_entrants WHERE tournament = $1 ORDER BY n`, ts[i].ID)
		if err != nil {
			return err
		}
		ts[i].Entrants = es
	}
	return nil
}

func (s sqlStore) joinTournament(ctx context.Context, id string, e Entrant, maxPerOrigin int) (int, error) {
	tx, err := s.begin(ctx, true)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var status string
	var maxN int
	err = tx.QueryRowContext(ctx, `SELECT status, max_entrants FROM tournaments WHERE id = $1`, id).Scan(&status, &maxN)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrNotFound
	}
	if err != nil {
		return 0, err
	}
	var n, in, same int
	if err := tx.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(CASE WHEN player = $1 THEN 1 ELSE 0 END), 0),
		coalesce(sum(CASE WHEN origin = $2 AND origin <> '' THEN 1 ELSE 0 END), 0)
		FROM tournament_entrants WHERE tournament = $3`, e.Player, e.Origin, id).Scan(&n, &in, &same); err != nil {
		return 0, err
	}
	if in > 0 {
		return n, nil
	}
	if status != "open" || n >= maxN {
		return 0, ErrTournamentFull
	}
	if maxPerOrigin > 0 && e.Origin != "" && same >= maxPerOrigin {
		return 0, ErrSameOrigin
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO tournament_entrants(tournament, player, name, n, joined, origin) VALUES ($1, $2, $3, $4, $5, $6)`,
		id, e.Player, e.Name, n, e.Joined.UnixMilli(), e.Origin); err != nil {
		return 0, err
	}
	return n + 1, tx.Commit()
}

func (s sqlStore) setTournamentStatus(ctx context.Context, id, from, to string, started time.Time) (bool, error) {
	tx, err := s.begin(ctx, true)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	// Finishing (or cancelling) forgets the owner's origin in the same
	// statement.
	res, err := tx.ExecContext(ctx, `UPDATE tournaments SET status = $1, started = $2,
		owner_origin = CASE WHEN $1 IN ('open', 'running') THEN owner_origin ELSE '' END WHERE id = $3 AND status = $4`, to, ms(started), id, from)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	if err == nil && n > 0 && to != "open" {
		_, err = tx.ExecContext(ctx, `UPDATE tournament_entrants SET origin = '' WHERE tournament = $1`, id)
	}
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		return false, err
	}
	if n == 0 {
		var one int
		if e := s.r.QueryRowContext(ctx, `SELECT 1 FROM tournaments WHERE id = $1`, id).Scan(&one); errors.Is(e, sql.ErrNoRows) {
			return false, ErrNotFound
		}
	}
	return n > 0, nil
}

func (s sqlStore) addTournamentGame(ctx context.Context, g TournamentGame) error {
	var one int
	err := s.r.QueryRowContext(ctx, `SELECT 1 FROM tournaments WHERE id = $1`, g.Tournament).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	_, err = s.w.ExecContext(ctx, `INSERT INTO tournament_games(tournament, player, deal, table_id) VALUES ($1, $2, $3, $4)`,
		g.Tournament, g.Player, g.Deal, g.Table)
	if isUnique(err) {
		return ErrConflict
	}
	return err
}

func (s sqlStore) tournamentGames(ctx context.Context, id string) ([]TournamentGame, error) {
	return queryAll(ctx, s.r, func(r *sql.Rows) (TournamentGame, error) {
		g := TournamentGame{Tournament: id}
		var settled, done int
		err := r.Scan(&g.Player, &g.Deal, &g.Table, &settled, &done, &g.Points)
		g.Settled, g.Done = settled != 0, done != 0
		return g, err
	}, `SELECT player, deal, table_id, settled, done, points FROM tournament_games WHERE tournament = $1 ORDER BY deal, player`, id)
}

func (s sqlStore) settleTournamentGame(ctx context.Context, g TournamentGame) error {
	res, err := s.w.ExecContext(ctx, `UPDATE tournament_games SET settled = 1, done = $1, points = $2 WHERE tournament = $3 AND player = $4 AND deal = $5`,
		b2i(g.Done), g.Points, g.Tournament, g.Player, g.Deal)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		if err == nil {
			err = ErrNotFound
		}
		return err
	}
	return nil
}
