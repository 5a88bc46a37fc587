package server

import (
	"slices"
	"testing"

	"cardroom/bot/ceiling" // linked in, so a ceiling that registered itself as a level would be caught here
	"cardroom/protocol"
	"cardroom/table"
)

// TestCeilingIsNotASeatLevel: the all-seeing arena bot (bot/ceiling) reads
// the true state, so the room must never seat it. Every way a client can
// name a bot level — the bots of a new table, its away-seat level, quick
// play, add_bot on an open table — refuses "ceiling" (with or without a
// budget) with bad_level and creates nothing, and the lobby does not offer it.
func TestCeilingIsNotASeatLevel(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServer(t, t.TempDir(), table.Config{})
	alice := newSession(t, ts.url, "alice")
	c := dial(t, ts.url, alice)
	names := []string{ceiling.Level, ceiling.Level + ":4000"}

	var games protocol.GamesList
	httpJSON(t, "GET", ts.url+"/api/games", "", nil, &games)
	if len(games.Levels) == 0 || slices.Contains(games.Levels, ceiling.Level) {
		t.Errorf("lobby levels %v: want the room's levels, without %q", games.Levels, ceiling.Level)
	}

	tables := func() int {
		var lobby struct {
			Tables []table.Summary `json:"tables"`
		}
		httpJSON(t, "GET", ts.url+"/api/tables", "", nil, &lobby)
		return len(lobby.Tables)
	}
	before := tables()
	for _, level := range names {
		cases := []struct {
			name string
			req  map[string]any
		}{
			{"bots", map[string]any{"type": "create", "game": "papayoo", "options": map[string]string{"rounds": "1"}, "seat": 0,
				"bots": map[string]string{"1": level, "2": "random", "3": "random"}}},
			{"bot_level", map[string]any{"type": "create", "game": "papayoo", "options": map[string]string{"rounds": "1"}, "seat": 0,
				"bot_level": level}},
		}
		for _, tc := range cases {
			c.send(tc.req)
			if e := c.expect("error", nil); e.str("code") != string(protocol.BadLevel) {
				t.Errorf("create with %s %q: %v, want %s", tc.name, level, e, protocol.BadLevel)
			}
		}
		var body protocol.ErrorBody
		if code := httpJSON(t, "POST", ts.url+"/api/quickplay", alice.Token, map[string]any{"game": "papayoo", "level": level}, &body); code != 400 || body.Error.Code != protocol.BadLevel {
			t.Errorf("quick play with %q: %d %q, want 400 %s", level, code, body.Error.Code, protocol.BadLevel)
		}
	}
	if n := tables(); n != before {
		t.Errorf("%d tables after the refusals, %d before", n, before)
	}

	// add_bot on an open table of alice's.
	id := c.createTable(map[string]any{"game": "papayoo", "options": map[string]string{"rounds": "1"}, "seat": 0})
	for _, level := range names {
		c.send(map[string]any{"type": "add_bot", "table": id, "seat": 1, "level": level})
		if e := c.expect("error", nil); e.str("code") != string(protocol.BadLevel) {
			t.Errorf("add_bot %q: %v, want %s", level, e, protocol.BadLevel)
		}
	}
	var sum table.Summary
	httpJSON(t, "GET", ts.url+"/api/tables/"+id, "", nil, &sum)
	for _, si := range sum.Seats {
		if si.Kind == protocol.SeatBot || si.Level != "" {
			t.Errorf("seat %+v has a bot after the refusals", si)
		}
	}
}
