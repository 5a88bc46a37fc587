package server

import (
	"context"
	"slices"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/protocol"
	"cardroom/table"
)

// TestHistoryOptionsAndStatus: GET /api/history lists the caller's games in
// play as well as finished ones, each with its status and the table's
// options, so the lobby can offer "Resume" and say "rounds 2" without a
// request per table.
func TestHistoryOptionsAndStatus(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServer(t, t.TempDir(), table.Config{BotDelay: time.Millisecond})
	alice := newSession(t, ts.url, "alice")
	c := dial(t, ts.url, alice)
	// A game that waits for alice, and one she plays to the end.
	playing := c.createTable(map[string]any{"game": "papayoo", "options": map[string]string{"players": "3", "rounds": "2"}, "seat": 0,
		"bots": map[string]string{"1": "random", "2": "random"}})
	done := c.createTable(map[string]any{"game": "papayoo", "options": map[string]string{"players": "3", "rounds": "1"}, "seat": 0,
		"bots": map[string]string{"1": "random", "2": "random"}})
	c.play(done, 1, nil)
	waitFinished(t, ts, done)
	var h protocol.History
	if code := httpJSON(t, "GET", ts.url+"/api/history", alice.Token, nil, &h); code != 200 {
		t.Fatalf("history: HTTP %d", code)
	}
	byID := map[string]protocol.HistoryItem{}
	for _, g := range h.Games {
		byID[g.ID] = g
	}
	tests := []struct {
		id, status, rounds, players string
	}{
		{playing, "playing", "2", "3"},
		{done, "finished", "1", "3"},
	}
	for _, tc := range tests {
		g, ok := byID[tc.id]
		if !ok {
			t.Errorf("%s is missing from the history %+v", tc.id, h.Games)
			continue
		}
		if string(g.Status) != tc.status || g.Seat != 0 {
			t.Errorf("%s: status %q seat %d, want %q seat 0", tc.id, g.Status, g.Seat, tc.status)
		}
		if g.Options["rounds"] != tc.rounds || g.Options["players"] != tc.players {
			t.Errorf("%s: options %v, want rounds=%s players=%s", tc.id, g.Options, tc.rounds, tc.players)
		}
	}
}

// TestHistoryStandIn: a player who left a game that a bot then finished
// for them finds it marked stand_in in their history; the player who
// played every move of their own does not.
func TestHistoryStandIn(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServer(t, t.TempDir(), table.Config{BotDelay: time.Millisecond, Grace: 100 * time.Millisecond})
	bob, alice := newSession(t, ts.url, "bob"), newSession(t, ts.url, "alice")
	bc := dial(t, ts.url, bob)
	id := bc.createTable(map[string]any{"game": "papayoo", "options": map[string]string{"players": "3", "rounds": "1"}, "seat": 0,
		"bots": map[string]string{"2": "random"}})
	ac := dial(t, ts.url, alice)
	ac.send(map[string]any{"type": "join", "id": "j", "table": id, "seat": 1})
	ac.expect("joined", nil)
	ac.close() // gone: after the grace period a bot plays alice's seat
	bc.play(id, 1, nil)
	waitFinished(t, ts, id)
	for _, c := range []struct {
		sess session
		want bool
	}{{alice, true}, {bob, false}} {
		var h protocol.History
		if code := httpJSON(t, "GET", ts.url+"/api/history", c.sess.Token, nil, &h); code != 200 {
			t.Fatalf("history: HTTP %d", code)
		}
		if len(h.Games) != 1 || h.Games[0].ID != id || h.Games[0].StandIn != c.want {
			t.Errorf("%s's history %+v: want %s with stand_in %v", c.sess.Name, h.Games, id, c.want)
		}
	}
	if row, err := ts.s.store.Table(context.Background(), id); err != nil || !slices.Equal(row.StandIn, []game.Seat{1}) {
		t.Errorf("stored stand-in seats %v (%v), want [1]", row.StandIn, err)
	}
}
