package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"cardroom/game"
)

// profileStores are both implementations, fresh.
func profileStores(t *testing.T) map[string]interface {
	Store
	Profiles
} {
	sq, err := OpenSQLite(filepath.Join(t.TempDir(), "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sq.Close() })
	m := map[string]interface {
		Store
		Profiles
	}{"sqlite": sq, "memory": NewMemory()}
	if p := pgStore(t); p != nil {
		m["postgres"] = p
	}
	return m
}

// profileFixture stores the tables the profile tests read: ann (p1) plays
// public, private and unfinished tables; bob (p2) sits at the private one.
func profileFixture(t *testing.T, st Store) {
	t.Helper()
	at := time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)
	seats := func(names ...string) []Seat {
		var out []Seat
		for _, n := range names {
			switch n {
			case "":
				out = append(out, Seat{Bot: "medium", Name: "bot"})
			default:
				out = append(out, Seat{Player: n, Name: "name-" + n})
			}
		}
		return out
	}
	rows := []Table{
		// papayoo: three finished (two won, one a shared win), one playing.
		{ID: "a1", Game: "papayoo", Status: StatusFinished, Seats: seats("p1", "", "", ""), Winners: []game.Seat{0}},
		{ID: "a2", Game: "papayoo", Status: StatusFinished, Seats: seats("", "p1", "", ""), Winners: []game.Seat{0}},
		{ID: "a3", Game: "papayoo", Status: StatusFinished, Seats: seats("", "p1", "", ""), Winners: []game.Seat{1, 3}, Rated: true},
		{ID: "a4", Game: "papayoo", Status: StatusPlaying, Seats: seats("p1", "", "", "")},
		// rum500: one public lost, one private won with bob, one closed.
		{ID: "b1", Game: "rum500", Status: StatusFinished, Seats: seats("p2", "p1"), Winners: []game.Seat{0}},
		{ID: "b2", Game: "rum500", Status: StatusFinished, Seats: seats("p1", "p2"), Winners: []game.Seat{0}, Private: true, Owner: "p2"},
		{ID: "b3", Game: "rum500", Status: StatusClosed, Seats: seats("p1", "")},
		// A private table owned by p3 where p1 sits: p3 sees it as owner.
		{ID: "c1", Game: "pisyedili", Status: StatusFinished, Seats: seats("p1", ""), Winners: []game.Seat{1}, Private: true, Owner: "p3"},
	}
	for i, r := range rows {
		r.Options, r.BotLevel, r.Created = "", "medium", at.Add(time.Duration(i)*time.Minute)
		if r.Status == StatusFinished {
			r.Finished = at.Add(time.Hour + time.Duration(i)*time.Minute)
		}
		if err := st.CreateTable(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
}

// TestProfileTally: the counts per game and the wins, as each viewer may
// see them; unfinished and closed tables never count.
func TestProfileTally(t *testing.T) {
	for name, st := range profileStores(t) {
		t.Run(name, func(t *testing.T) {
			profileFixture(t, st)
			cases := []struct {
				player, viewer string
				want           []GameTally
			}{
				{"p1", "", []GameTally{{"papayoo", 3, 2}, {"rum500", 1, 0}}},
				{"p1", "p9", []GameTally{{"papayoo", 3, 2}, {"rum500", 1, 0}}},
				{"p1", "p1", []GameTally{{"papayoo", 3, 2}, {"pisyedili", 1, 0}, {"rum500", 2, 1}}},
				{"p1", "p2", []GameTally{{"papayoo", 3, 2}, {"rum500", 2, 1}}},
				{"p1", "p3", []GameTally{{"papayoo", 3, 2}, {"pisyedili", 1, 0}, {"rum500", 1, 0}}},
				{"p2", "", []GameTally{{"rum500", 1, 1}}},
				{"p2", "p2", []GameTally{{"rum500", 2, 1}}},
				{"nobody", "p1", []GameTally{}},
			}
			for _, c := range cases {
				got, err := st.PlayerTally(context.Background(), c.player, c.viewer)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, c.want) {
					t.Errorf("tally of %s seen by %q = %v, want %v", c.player, c.viewer, got, c.want)
				}
			}
			if _, err := st.PlayerTally(context.Background(), "", ""); !errors.Is(err, ErrNoPlayer) {
				t.Errorf("tally of the empty player: %v, want ErrNoPlayer", err)
			}
		})
	}
}

// TestRecentGames: newest finished first, paged, bounded, private tables
// for their own players only.
func TestRecentGames(t *testing.T) {
	ids := func(ts []Table) []string {
		out := []string{}
		for _, t := range ts {
			out = append(out, t.ID)
		}
		return out
	}
	for name, st := range profileStores(t) {
		t.Run(name, func(t *testing.T) {
			profileFixture(t, st)
			cases := []struct {
				player, viewer string
				offset, limit  int
				want           []string
			}{
				{"p1", "", 0, 10, []string{"b1", "a3", "a2", "a1"}},
				{"p1", "p1", 0, 10, []string{"c1", "b2", "b1", "a3", "a2", "a1"}},
				{"p1", "p2", 0, 10, []string{"b2", "b1", "a3", "a2", "a1"}},
				{"p1", "p1", 1, 2, []string{"b2", "b1"}},
				{"p1", "p1", 5, 2, []string{"a1"}},
				{"p1", "p1", 6, 2, []string{}},
				{"p1", "p1", MaxRecentOffset + 5, 2, []string{}},
				{"p1", "p1", -3, 1, []string{"c1"}},                              // a negative offset is 0
				{"p1", "p1", 0, 0, []string{"c1", "b2", "b1", "a3", "a2", "a1"}}, // a limit out of range is the bound
			}
			for _, c := range cases {
				t.Run(fmt.Sprintf("%s/%s/%d/%d", c.player, c.viewer, c.offset, c.limit), func(t *testing.T) {
					got, err := st.RecentGames(context.Background(), c.player, c.viewer, c.offset, c.limit)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(ids(got), c.want) {
						t.Errorf("recent = %v, want %v", ids(got), c.want)
					}
				})
			}
			got, _ := st.RecentGames(context.Background(), "p1", "p1", 0, 1)
			if len(got) != 1 || len(got[0].Seats) != 2 || got[0].Seats[0].Player != "p1" || got[0].Private != true {
				t.Errorf("a recent game's row: %+v", got)
			}
			if _, err := st.RecentGames(context.Background(), "", "", 0, 1); !errors.Is(err, ErrNoPlayer) {
				t.Errorf("recent games of the empty player: %v, want ErrNoPlayer", err)
			}
		})
	}
}

// TestRecentGamesBound: a page never holds more than MaxRecentGames.
func TestRecentGamesBound(t *testing.T) {
	for name, st := range profileStores(t) {
		t.Run(name, func(t *testing.T) {
			at := time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)
			for i := range MaxRecentGames + 3 {
				if err := st.CreateTable(context.Background(), Table{ID: fmt.Sprintf("t%03d", i), Game: "papayoo", Status: StatusFinished,
					Created: at, Finished: at.Add(time.Duration(i) * time.Second), Seats: []Seat{{Player: "p1", Name: "ann"}, {Bot: "random"}}}); err != nil {
					t.Fatal(err)
				}
			}
			got, err := st.RecentGames(context.Background(), "p1", "", 0, 1000)
			if err != nil || len(got) != MaxRecentGames {
				t.Errorf("recent games asked 1000: %d (%v), want %d", len(got), err, MaxRecentGames)
			}
			tally, _ := st.PlayerTally(context.Background(), "p1", "")
			if len(tally) != 1 || tally[0].Games != MaxRecentGames+3 {
				t.Errorf("tally = %v", tally)
			}
		})
	}
}
