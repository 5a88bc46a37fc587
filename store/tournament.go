package store

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"cardroom/tournament"
)

// ErrTournamentLimit refuses a new tournament over a bound: the room's
// unfinished tournaments, or the ones its creator has unfinished.
var ErrTournamentLimit = errors.New("tournament limit reached")

// ErrTournamentFull refuses an entrant of a tournament that has all its
// entrants or is no longer open.
var ErrTournamentFull = errors.New("the tournament is full or no longer open")

// ErrSameOrigin refuses an entrant of a tournament that has as many
// entrants from the same origin (Entrant.Origin) as its bound.
var ErrSameOrigin = errors.New("the tournament has its entries from this origin")

// Tournament is a duplicate tournament's settings and state
// (docs/tournaments.md); its entrants are in join order.
type Tournament struct {
	ID        string
	Game      string
	Options   string // game.Options.String(), every deal's
	Deals     int
	BotLevel  string
	Seed      uint64 // the deals' seeds derive from it; never sent to a client
	Owner     string
	OwnerName string
	// OwnerOrigin is an opaque digest of where the tournament was created
	// from (the server salts its creator's address with the tournament's
	// id, as Entrant.Origin), kept only while the tournament is unfinished
	// and never sent to a client, so a room can bound the unfinished
	// tournaments one address created; "" is none.
	OwnerOrigin string
	StartAt     time.Time // zero: starts when MaxEntrants have joined
	MaxEntrants int
	DealTime    time.Duration // the deadline per deal
	Created     time.Time
	Started     time.Time // zero until it starts
	Status      string    // tournament.Open, Running, Finished or Cancelled
	Entrants    []Entrant
}

// Entrant is one player of a tournament.
type Entrant struct {
	Player string
	Name   string
	Joined time.Time
	// Origin is an opaque digest of where the entry came from (the server
	// salts the entrant's address with the tournament's id), kept only
	// while the tournament is open and never sent to a client; "" is none,
	// and counts against no bound.
	Origin string
}

// TournamentGame is one entrant's table for one deal, and once the table's
// game has ended (Settled), whether it was played to its end (Done) and the
// entrant's points in it.
type TournamentGame struct {
	Tournament string
	Player     string
	Deal       int
	Table      string
	Settled    bool
	Done       bool
	Points     int
}

// Tournaments is the persistence of duplicate tournaments, beside Store: a
// store without it runs a room without tournaments.
type Tournaments interface {
	// CreateTournament stores a new tournament (without entrants) unless
	// the room already has maxOpen unfinished (open or running)
	// tournaments or its owner maxPerOwner: then ErrTournamentLimit, and
	// nothing is stored. An id already taken is ErrConflict.
	CreateTournament(ctx context.Context, t Tournament, maxOpen, maxPerOwner int) error
	// Tournament returns one tournament with its entrants; ErrNotFound if
	// none.
	Tournament(ctx context.Context, id string) (Tournament, error)
	// TournamentList lists tournaments newest first, at most limit, with
	// their entrants: the unfinished ones only when unfinished is set.
	TournamentList(ctx context.Context, unfinished bool, limit int) ([]Tournament, error)
	// JoinTournament adds an entrant to an open tournament that has fewer
	// than its MaxEntrants and returns their number of entrants after it;
	// a player already in it changes nothing (and gets the count). Full or
	// not open: ErrTournamentFull. With maxPerOrigin > 0, an entrant whose
	// Origin is set and already held by maxPerOrigin entrants is refused
	// with ErrSameOrigin (every entrant plays the same cards, so one person
	// with two entries would play each deal knowing it).
	JoinTournament(ctx context.Context, id string, e Entrant, maxPerOrigin int) (int, error)
	// SetTournamentStatus changes a tournament's status and start time,
	// only from status from (a status moves one way: open, running,
	// finished); it reports whether it changed anything. Leaving "open"
	// forgets the entrants' origins (Entrant.Origin): no entry can follow;
	// finishing (or cancelling) forgets the owner's (OwnerOrigin).
	SetTournamentStatus(ctx context.Context, id, from, to string, started time.Time) (bool, error)
	// AddTournamentGame records an entrant's table for a deal;
	// ErrConflict if the entrant has one for that deal already.
	AddTournamentGame(ctx context.Context, g TournamentGame) error
	// TournamentGames lists a tournament's games by deal, then entrant.
	TournamentGames(ctx context.Context, id string) ([]TournamentGame, error)
	// SettleTournamentGame records the end of a game (Settled is implied);
	// ErrNotFound if no such game.
	SettleTournamentGame(ctx context.Context, g TournamentGame) error
}

// checkTournament refuses a tournament row no server would write.
func checkTournament(t Tournament) error {
	if t.ID == "" || t.Game == "" || t.Owner == "" || t.Deals < 1 || t.MaxEntrants < 1 || t.DealTime <= 0 || t.Status == "" {
		return fmt.Errorf("store: a tournament needs an id, game, owner, deals, entrants, time per deal and status")
	}
	return nil
}

var (
	_ Tournaments = (*Memory)(nil)
	_ Tournaments = (*SQLite)(nil)
	_ Tournaments = (*Postgres)(nil)
)

// memTournaments holds the Memory stores' tournaments beside the Memory
// struct (as memAnalyses does; the struct is shared with other work).
var memTournaments sync.Map // *Memory -> *memTournamentSet

type memTournamentSet struct {
	mu    sync.Mutex
	t     map[string]*Tournament
	games map[string][]TournamentGame
}

func (m *Memory) tournaments() *memTournamentSet {
	v, _ := memTournaments.LoadOrStore(m, &memTournamentSet{t: map[string]*Tournament{}, games: map[string][]TournamentGame{}})
	return v.(*memTournamentSet)
}

func copyTournament(t *Tournament) Tournament {
	c := *t
	c.Entrants = append([]Entrant(nil), t.Entrants...)
	return c
}

// CreateTournament implements Tournaments.
func (m *Memory) CreateTournament(_ context.Context, t Tournament, maxOpen, maxPerOwner int) error {
	if err := checkTournament(t); err != nil {
		return err
	}
	s := m.tournaments()
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.t[t.ID]; ok {
		return ErrConflict
	}
	open, mine := 0, 0
	for _, o := range s.t {
		if tournament.IsUnfinished(o.Status) {
			open++
			if o.Owner == t.Owner {
				mine++
			}
		}
	}
	if open >= maxOpen || mine >= maxPerOwner {
		return ErrTournamentLimit
	}
	t.Entrants = nil
	s.t[t.ID] = &t
	return nil
}

// Tournament implements Tournaments.
func (m *Memory) Tournament(_ context.Context, id string) (Tournament, error) {
	s := m.tournaments()
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.t[id]
	if !ok {
		return Tournament{}, ErrNotFound
	}
	return copyTournament(t), nil
}

// TournamentList implements Tournaments.
func (m *Memory) TournamentList(_ context.Context, unfinished bool, limit int) ([]Tournament, error) {
	s := m.tournaments()
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Tournament
	for _, t := range s.t {
		if !unfinished || tournament.IsUnfinished(t.Status) {
			out = append(out, copyTournament(t))
		}
	}
	sortTournaments(out)
	if limit >= 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// sortTournaments orders newest first, then by id (the SQL stores' order).
func sortTournaments(ts []Tournament) {
	sort.Slice(ts, func(i, j int) bool {
		if !ts[i].Created.Equal(ts[j].Created) {
			return ts[i].Created.After(ts[j].Created)
		}
		return ts[i].ID < ts[j].ID
	})
}

// JoinTournament implements Tournaments.
func (m *Memory) JoinTournament(_ context.Context, id string, e Entrant, maxPerOrigin int) (int, error) {
	s := m.tournaments()
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.t[id]
	if !ok {
		return 0, ErrNotFound
	}
	for _, o := range t.Entrants {
		if o.Player == e.Player {
			return len(t.Entrants), nil
		}
	}
	if t.Status != tournament.Open || len(t.Entrants) >= t.MaxEntrants {
		return 0, ErrTournamentFull
	}
	if maxPerOrigin > 0 && e.Origin != "" {
		same := 0
		for _, o := range t.Entrants {
			if o.Origin == e.Origin {
				same++
			}
		}
		if same >= maxPerOrigin {
			return 0, ErrSameOrigin
		}
	}
	t.Entrants = append(t.Entrants, e)
	return len(t.Entrants), nil
}

// SetTournamentStatus implements Tournaments.
func (m *Memory) SetTournamentStatus(_ context.Context, id, from, to string, started time.Time) (bool, error) {
	s := m.tournaments()
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.t[id]
	if !ok {
		return false, ErrNotFound
	}
	if t.Status != from {
		return false, nil
	}
	t.Status, t.Started = to, started
	if to != tournament.Open {
		for i := range t.Entrants {
			t.Entrants[i].Origin = ""
		}
	}
	if !tournament.IsUnfinished(to) {
		t.OwnerOrigin = ""
	}
	return true, nil
}

// AddTournamentGame implements Tournaments.
func (m *Memory) AddTournamentGame(_ context.Context, g TournamentGame) error {
	s := m.tournaments()
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.t[g.Tournament]; !ok {
		return ErrNotFound
	}
	for _, o := range s.games[g.Tournament] {
		if o.Player == g.Player && o.Deal == g.Deal {
			return ErrConflict
		}
	}
	g.Settled, g.Done, g.Points = false, false, 0
	s.games[g.Tournament] = append(s.games[g.Tournament], g)
	return nil
}

// TournamentGames implements Tournaments.
func (m *Memory) TournamentGames(_ context.Context, id string) ([]TournamentGame, error) {
	s := m.tournaments()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := append([]TournamentGame(nil), s.games[id]...)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Deal != out[j].Deal {
			return out[i].Deal < out[j].Deal
		}
		return out[i].Player < out[j].Player
	})
	return out, nil
}

// SettleTournamentGame implements Tournaments.
func (m *Memory) SettleTournamentGame(_ context.Context, g TournamentGame) error {
	s := m.tournaments()
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, o := range s.games[g.Tournament] {
		if o.Player == g.Player && o.Deal == g.Deal {
			o.Settled, o.Done, o.Points = true, g.Done, g.Points
			s.games[g.Tournament][i] = o
			return nil
		}
	}
	return ErrNotFound
}
