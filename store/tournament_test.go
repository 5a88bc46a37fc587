package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"cardroom/tournament"
)

// TestTournaments is the Tournaments contract, on every store: a
// tournament round-trips; the room's and an owner's bounds refuse a new
// one and store nothing; entrants join in order up to the bound, a second
// join changes nothing, a full or started tournament refuses; a status
// moves only from the status named; a deal's game is recorded once and
// settled; and a SQLite store reopened keeps it all.
func TestTournaments(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	sq, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]Tournaments{"memory": NewMemory(), "sqlite": sq}
	if p := pgStore(t); p != nil {
		all["postgres"] = p
	}
	for name, st := range all {
		t.Run(name, func(t *testing.T) { testTournaments(t, st) })
	}
	sq.Close()
	again, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	got, err := again.Tournament(context.Background(), "tn_a")
	if err != nil || got.Status != tournament.Finished || len(got.Entrants) != 2 {
		t.Errorf("after a restart: %+v %v; want the finished tournament with its 2 entrants", got, err)
	}
	if g, err := again.TournamentGames(context.Background(), "tn_a"); err != nil || len(g) != 2 || !g[0].Settled || g[0].Points != 7 {
		t.Errorf("after a restart the games are %+v %v", g, err)
	}
}

func testTournaments(t *testing.T, st Tournaments) {
	ctx := context.Background()
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	a := Tournament{ID: "tn_a", Game: "papayoo", Options: "players=4 rounds=1", Deals: 3, BotLevel: "medium", Seed: 1<<63 + 9,
		Owner: "p1", OwnerName: "alice", OwnerOrigin: "oa", MaxEntrants: 2, DealTime: time.Hour, Created: at, Status: tournament.Open}
	if err := st.CreateTournament(ctx, a, 10, 2); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateTournament(ctx, a, 10, 2); !errors.Is(err, ErrConflict) {
		t.Errorf("the same id twice: %v, want ErrConflict", err)
	}
	b := a
	b.ID, b.Created, b.StartAt = "tn_b", at.Add(time.Minute), at.Add(time.Hour)
	if err := st.CreateTournament(ctx, b, 10, 2); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name            string
		id, owner       string
		maxOpen, perOwn int
	}{
		{"the owner's bound", "tn_c", "p1", 10, 2},
		{"the room's bound", "tn_d", "p2", 2, 5},
	} {
		c := a
		c.ID, c.Owner = tc.id, tc.owner
		if err := st.CreateTournament(ctx, c, tc.maxOpen, tc.perOwn); !errors.Is(err, ErrTournamentLimit) {
			t.Errorf("%s: %v, want ErrTournamentLimit", tc.name, err)
		}
		if _, err := st.Tournament(ctx, tc.id); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: the refused tournament was stored (%v)", tc.name, err)
		}
	}
	list, err := st.TournamentList(ctx, true, 10)
	if err != nil || len(list) != 2 || list[0].ID != "tn_b" || list[1].ID != "tn_a" {
		t.Fatalf("list = %+v %v; want tn_b then tn_a", list, err)
	}
	if got := list[0]; got.Seed != a.Seed || !got.StartAt.Equal(b.StartAt) || got.DealTime != time.Hour || got.Options != a.Options ||
		got.MaxEntrants != 2 || got.OwnerName != "alice" || got.OwnerOrigin != "oa" || !got.Started.IsZero() || !got.Created.Equal(b.Created) {
		t.Errorf("tn_b read back as %+v", got)
	}
	for i, tc := range []struct {
		player string
		n      int
		err    error
	}{
		{"p1", 1, nil}, {"p1", 1, nil}, {"p2", 2, nil}, {"p3", 0, ErrTournamentFull},
	} {
		// No origin ("") counts against no bound, even a bound of 1.
		n, err := st.JoinTournament(ctx, "tn_a", Entrant{Player: tc.player, Name: tc.player + "-name", Joined: at.Add(time.Duration(i) * time.Second)}, 1)
		if n != tc.n || !errors.Is(err, tc.err) {
			t.Errorf("join %s: %d %v, want %d %v", tc.player, n, err, tc.n, tc.err)
		}
	}
	if _, err := st.JoinTournament(ctx, "tn_none", Entrant{Player: "p1"}, 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("join of no tournament: %v", err)
	}
	started := at.Add(time.Hour)
	if ok, err := st.SetTournamentStatus(ctx, "tn_a", tournament.Open, tournament.Running, started); !ok || err != nil {
		t.Fatalf("start: %v %v", ok, err)
	}
	if ok, err := st.SetTournamentStatus(ctx, "tn_a", tournament.Open, tournament.Cancelled, time.Time{}); ok || err != nil {
		t.Errorf("a second move from open: %v %v; want nothing changed", ok, err)
	}
	if _, err := st.SetTournamentStatus(ctx, "tn_none", tournament.Open, tournament.Running, started); !errors.Is(err, ErrNotFound) {
		t.Errorf("status of no tournament: %v", err)
	}
	// Entries from one origin, up to the bound given (the server's
	// -tournament-entries-per-ip): a second one is refused at 1, taken at 2.
	for _, tc := range []struct {
		player       string
		maxPerOrigin int
		n            int
		err          error
	}{
		{"p9", 1, 1, nil}, {"p10", 1, 0, ErrSameOrigin}, {"p9", 1, 1, nil}, {"p10", 2, 2, nil},
	} {
		n, err := st.JoinTournament(ctx, "tn_b", Entrant{Player: tc.player, Joined: at, Origin: "o1"}, tc.maxPerOrigin)
		if n != tc.n || !errors.Is(err, tc.err) {
			t.Errorf("join %s from o1 (at most %d): %d %v, want %d %v", tc.player, tc.maxPerOrigin, n, err, tc.n, tc.err)
		}
	}
	if got, err := st.Tournament(ctx, "tn_b"); err != nil || len(got.Entrants) != 2 || got.Entrants[0].Origin != "o1" || got.Entrants[1].Origin != "o1" {
		t.Errorf("tn_b's entrants %+v %v; want p9 and p10 from o1", got.Entrants, err)
	}
	st.SetTournamentStatus(ctx, "tn_b", tournament.Open, tournament.Running, started)
	if got, err := st.Tournament(ctx, "tn_b"); err != nil || len(got.Entrants) != 2 || got.Entrants[0].Origin != "" || got.Entrants[1].Origin != "" {
		t.Errorf("tn_b's entrants once running: %+v %v; want their origins forgotten", got.Entrants, err)
	}
	if _, err := st.JoinTournament(ctx, "tn_b", Entrant{Player: "p8", Joined: at}, 0); !errors.Is(err, ErrTournamentFull) {
		t.Errorf("join of a running tournament: %v, want ErrTournamentFull", err)
	}
	got, err := st.Tournament(ctx, "tn_a")
	if err != nil || got.Status != tournament.Running || !got.Started.Equal(started) || len(got.Entrants) != 2 || got.OwnerOrigin != "oa" ||
		got.Entrants[0].Player != "p1" || got.Entrants[1].Name != "p2-name" || !got.Entrants[1].Joined.Equal(at.Add(2*time.Second)) {
		t.Errorf("tn_a = %+v %v", got, err)
	}
	for _, g := range []TournamentGame{{Tournament: "tn_a", Player: "p2", Deal: 0, Table: "t_2"}, {Tournament: "tn_a", Player: "p1", Deal: 0, Table: "t_1"}} {
		if err := st.AddTournamentGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.AddTournamentGame(ctx, TournamentGame{Tournament: "tn_a", Player: "p1", Deal: 0, Table: "t_x"}); !errors.Is(err, ErrConflict) {
		t.Errorf("a second table for one deal: %v, want ErrConflict", err)
	}
	if err := st.AddTournamentGame(ctx, TournamentGame{Tournament: "tn_none", Player: "p1", Deal: 0, Table: "t_x"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("a game of no tournament: %v, want ErrNotFound", err)
	}
	if err := st.SettleTournamentGame(ctx, TournamentGame{Tournament: "tn_a", Player: "p1", Deal: 0, Done: true, Points: 7}); err != nil {
		t.Fatal(err)
	}
	if err := st.SettleTournamentGame(ctx, TournamentGame{Tournament: "tn_a", Player: "p1", Deal: 5}); !errors.Is(err, ErrNotFound) {
		t.Errorf("settling no game: %v, want ErrNotFound", err)
	}
	gs, err := st.TournamentGames(ctx, "tn_a")
	if err != nil || len(gs) != 2 {
		t.Fatalf("games = %+v %v", gs, err)
	}
	if g := gs[0]; g.Player != "p1" || g.Table != "t_1" || !g.Settled || !g.Done || g.Points != 7 {
		t.Errorf("p1's game = %+v", g)
	}
	if g := gs[1]; g.Player != "p2" || g.Table != "t_2" || g.Settled || g.Done {
		t.Errorf("p2's game = %+v, want unsettled", g)
	}
	// The owner's origin is kept while the tournament is unfinished (above:
	// open, then running), forgotten when it ends.
	if ok, err := st.SetTournamentStatus(ctx, "tn_a", tournament.Running, tournament.Finished, started); !ok || err != nil {
		t.Fatalf("finish: %v %v", ok, err)
	}
	if got, err := st.Tournament(ctx, "tn_a"); err != nil || got.Status != tournament.Finished || got.OwnerOrigin != "" {
		t.Errorf("tn_a once finished: status %q, owner's origin %q (%v); want it forgotten", got.Status, got.OwnerOrigin, err)
	}
	if err := st.CreateTournament(ctx, Tournament{ID: "tn_bad"}, 10, 10); err == nil {
		t.Errorf("a tournament without its fields was stored")
	}
}
