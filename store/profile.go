package store

import (
	"context"
	"errors"
	"slices"
	"sort"
)

// Player profiles (docs/protocol.md, "Profiles"): the counts and the
// recent games of one player, as one viewer may see them.

// Bounds of the profile queries: a caller asking for more gets at most this.
const (
	MaxRecentGames  = 50    // recent games in one page
	MaxRecentOffset = 10000 // how deep the recent games may be paged
)

// ErrNoPlayer is returned for a profile query without a player: the empty
// id is every empty seat's, not anyone's.
var ErrNoPlayer = errors.New("a profile query needs a player id")

// GameTally is one game's count of a player's finished tables.
type GameTally struct {
	Game  string
	Games int // finished tables where the player holds a seat
	Wins  int // of those, where one of the player's seats is among the winners
}

// Profiles is the persistence of profiles, beside Store: a store that
// implements it (both of this package's do) enables GET /api/players/{id}.
//
// Both methods count only the tables viewer may see, by the rule of a
// private table's record (server.canSee without an invite): a public
// table, or a private one where viewer holds a seat or is the owner
// (viewer "" sees the public ones only). So a profile never reveals to a
// stranger that a private game took place.
type Profiles interface {
	// PlayerTally counts, per game (in game order), the finished tables
	// where player holds a seat and that viewer may see, and how many of
	// them the player won. It reads the player's seats through an index:
	// one answer row per game.
	PlayerTally(ctx context.Context, player, viewer string) ([]GameTally, error)
	// RecentGames lists those tables, latest finished first (ties by id),
	// from offset (at most MaxRecentOffset), at most limit
	// (MaxRecentGames).
	RecentGames(ctx context.Context, player, viewer string, offset, limit int) ([]Table, error)
}

var (
	_ Profiles = (*Memory)(nil)
	_ Profiles = (*SQLite)(nil)
)

// clampRecent bounds a page of recent games.
func clampRecent(offset, limit int) (int, int) {
	if limit <= 0 || limit > MaxRecentGames {
		limit = MaxRecentGames
	}
	return max(0, min(offset, MaxRecentOffset)), limit
}

// VisibleTo reports whether viewer may see table t in someone's profile:
// public, or private with viewer seated or the owner.
func VisibleTo(t Table, viewer string) bool {
	if !t.Private {
		return true
	}
	if viewer == "" {
		return false
	}
	if t.Owner == viewer {
		return true
	}
	return slices.ContainsFunc(t.Seats, func(s Seat) bool { return s.Player == viewer })
}

// seatsOf returns the player's seat numbers at t.
func seatsOf(t Table, player string) []int {
	var out []int
	for i, s := range t.Seats {
		if s.Player == player {
			out = append(out, i)
		}
	}
	return out
}

// wonBy reports whether one of the player's seats is among t's winners.
func wonBy(t Table, player string) bool {
	for _, i := range seatsOf(t, player) {
		for _, w := range t.Winners {
			if int(w) == i {
				return true
			}
		}
	}
	return false
}

// profileTables is Memory's view of the tables a profile counts.
func (m *Memory) profileTables(player, viewer string) []Table {
	var out []Table
	for _, t := range m.tables {
		if t.Status == StatusFinished && len(seatsOf(t, player)) > 0 && VisibleTo(t, viewer) {
			t.Seats = append([]Seat(nil), t.Seats...)
			out = append(out, t)
		}
	}
	return out
}

// PlayerTally implements Profiles.
func (m *Memory) PlayerTally(_ context.Context, player, viewer string) ([]GameTally, error) {
	if player == "" {
		return nil, ErrNoPlayer
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	by := map[string]*GameTally{}
	for _, t := range m.profileTables(player, viewer) {
		g := by[t.Game]
		if g == nil {
			g = &GameTally{Game: t.Game}
			by[t.Game] = g
		}
		g.Games++
		if wonBy(t, player) {
			g.Wins++
		}
	}
	out := []GameTally{}
	for _, g := range by {
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Game < out[j].Game })
	return out, nil
}

// RecentGames implements Profiles.
func (m *Memory) RecentGames(_ context.Context, player, viewer string, offset, limit int) ([]Table, error) {
	if player == "" {
		return nil, ErrNoPlayer
	}
	offset, limit = clampRecent(offset, limit)
	m.mu.Lock()
	defer m.mu.Unlock()
	ts := m.profileTables(player, viewer)
	sort.Slice(ts, func(i, j int) bool {
		if !ts[i].Finished.Equal(ts[j].Finished) {
			return ts[i].Finished.After(ts[j].Finished)
		}
		return ts[i].ID < ts[j].ID
	})
	if offset >= len(ts) {
		return []Table{}, nil
	}
	return ts[offset:min(len(ts), offset+limit)], nil
}

// PlayerTally implements Profiles. A seat wins when its number is a word
// of the winners column ("0 2").
func (s *SQLite) PlayerTally(ctx context.Context, player, viewer string) ([]GameTally, error) {
	return s.sq().playerTally(ctx, "instr", player, viewer)
}

// RecentGames implements Profiles.
func (s *SQLite) RecentGames(ctx context.Context, player, viewer string, offset, limit int) ([]Table, error) {
	return s.sq().recentGames(ctx, player, viewer, offset, limit)
}
