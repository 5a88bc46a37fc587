package server

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/games"
	"cardroom/record"
	"cardroom/table"
)

// TestReplayHistory: the replay of a finished game carries its move
// history up to the step shown: the engine's entries of those steps, each
// naming only cards the replay's reader saw at its own step (the leak
// sweep of the live tables), from the entry the client asks for on, with
// where the step's own entries begin; a history_from out of range is
// refused.
func TestReplayHistory(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServer(t, t.TempDir(), table.Config{BotDelay: time.Millisecond})
	alice := newSession(t, ts.url, "alice")
	c := dial(t, ts.url, alice)
	id := c.createTable(map[string]any{"game": "papayoo", "options": quickOptions("papayoo"), "seat": 0,
		"bots": map[string]string{"1": "random", "2": "random", "3": "random"}})
	c.play(id, 1, nil)
	waitFinished(t, ts, id)

	var body string
	if code := httpJSON(t, "GET", ts.url+"/api/records/"+id, "", nil, &body); code != 200 {
		t.Fatalf("record: HTTP %d", code)
	}
	rec, err := record.ParseString(body)
	if err != nil {
		t.Fatal(err)
	}
	eng, _ := games.Lookup("papayoo")
	hist := historyOf(t, eng, rec)
	views := map[int]map[int]string{}
	addViews := func(step int, st game.State) {
		views[step] = map[int]string{}
		for s := -1; s < st.Seats(); s++ {
			b, _ := json.Marshal(st.View(game.Seat(s)))
			views[step][s] = string(b)
		}
	}
	start, err := rec.Start(eng)
	if err != nil {
		t.Fatal(err)
	}
	addViews(0, start)
	if _, err := record.Replay(eng, rec, func(i int, st game.State) { addViews(i+1, st) }); err != nil {
		t.Fatal(err)
	}
	// made is the number of history entries the first step entries made.
	made := func(step int) int {
		n := 0
		for _, s := range hist.seqs {
			if s <= step {
				n++
			}
		}
		return n
	}
	steps := len(rec.Entries)
	if len(hist.entries) < 20 {
		t.Fatalf("the game has only %d history entries", len(hist.entries))
	}
	mid := steps / 2
	for _, tc := range []struct {
		name              string
		step, seat, from  int
		wantFrom, wantLen int
	}{
		{"start", 0, -1, 0, 0, made(0)},
		{"first step", 1, -1, 0, 0, made(1)},
		{"middle, a seat", mid, 0, 0, 0, made(mid)},
		{"middle, the rest only", mid, -1, made(mid) - 3, made(mid) - 3, 3},
		{"end, a seat", steps, 1, 0, 0, made(steps)},
		{"end, nothing new", steps, -1, made(steps), made(steps), 0},
		{"earlier step than held", 1, 2, made(steps), made(1), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rv struct {
				Step, Seat int
				View       json.RawMessage
				History    *struct {
					From    int               `json:"from"`
					Entries []json.RawMessage `json:"entries"`
				} `json:"history"`
				HistoryNew int `json:"history_new"`
			}
			u := fmt.Sprintf("%s/api/records/%s/replay?step=%d&seat=%d&history_from=%d", ts.url, id, tc.step, tc.seat, tc.from)
			if code := httpJSON(t, "GET", u, "", nil, &rv); code != 200 {
				t.Fatalf("replay: HTTP %d", code)
			}
			if rv.History == nil || rv.History.From != tc.wantFrom || len(rv.History.Entries) != tc.wantLen {
				t.Fatalf("history %+v, want from %d with %d entries", rv.History, tc.wantFrom, tc.wantLen)
			}
			if want := made(max(tc.step-1, 0)); rv.HistoryNew != want {
				t.Errorf("history_new %d, want %d (the entries before step %d)", rv.HistoryNew, want, tc.step)
			}
			// The leak sweep, as for a state message of the live table at
			// this step: the view is the engine's, every entry the
			// engine's entry of its step, naming only cards seen then.
			msg, _ := json.Marshal(map[string]any{"type": "state", "seq": tc.step, "seat": tc.seat, "view": rv.View, "history": rv.History})
			if n := sweep(t.Errorf, eng.Deck(), "replay", msg, views, hist); n != 1 {
				t.Errorf("the sweep checked no view")
			}
		})
	}
	if hist.checked < len(hist.entries) {
		t.Errorf("the replays showed only %d of %d history entries", hist.checked, len(hist.entries))
	}
	for _, from := range []string{"-1", "x", fmt.Sprint(len(hist.entries) + 1)} {
		u := fmt.Sprintf("%s/api/records/%s/replay?step=3&history_from=%s", ts.url, id, from)
		if code := httpJSON(t, "GET", u, "", nil, new(string)); code != 400 {
			t.Errorf("history_from=%s: HTTP %d, want 400", from, code)
		}
	}
}
