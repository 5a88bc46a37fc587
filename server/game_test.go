package server

import (
	"slices"

	"cardroom/bot"
	"cardroom/protocol"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/games"
	"cardroom/record"
)

// TestFullGames plays a whole game of every game with two WebSocket
// clients (seats 0 and 1), two bots and a spectator, then checks the
// record, the replay view, the history, and sweeps every message for leaks.
func TestFullGames(t *testing.T) {
	for _, name := range games.Names() {
		t.Run(name, func(t *testing.T) {
			needGame(t, name)
			t.Parallel()
			seed := uint64(fixedSeed)
			ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, Seeds: func() uint64 { return seed }})
			alice := dial(t, ts.url, newSession(t, ts.url, "alice"))
			bob := dial(t, ts.url, newSession(t, ts.url, "bob"))
			carol := dial(t, ts.url, newSession(t, ts.url, "carol"))
			level := "random"
			if slices.Contains(bot.Levels(), "easy") {
				level = "easy" // rule-based bots keep Pis Yedili hands short
			}
			id := alice.createTable(map[string]any{"game": name, "options": quickOptions(name), "seat": 0,
				"bots": map[string]string{"2": level, "3": level}})
			alice.expect("state", nil)
			carol.send(map[string]any{"type": "watch", "table": id})
			carol.expect("state", nil)
			bob.send(map[string]any{"type": "join", "table": id, "seat": 1})
			bob.expect("joined", nil)

			var code int
			var body string
			code = httpJSON(t, "GET", ts.url+"/api/records/"+id, "", nil, &body)
			if code != 409 {
				t.Errorf("record of an unfinished game: HTTP %d %s, want 409", code, body)
			}

			var wg sync.WaitGroup
			finals := make([]map[int]state, 2)
			for i, c := range []*client{alice, bob} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					finals[i] = c.play(id, uint64(i+1), nil)
				}()
			}
			waitOrFail(t, &wg, 90*time.Second)
			if t.Failed() {
				return
			}
			fin := finals[0][0]
			if fin.Status != "finished" || len(fin.Result) == 0 || string(fin.Result) == "null" {
				t.Fatalf("final state: status %s result %s", fin.Status, fin.Result)
			}

			code = httpJSON(t, "GET", ts.url+"/api/records/"+id, "", nil, &body)
			if code != 200 {
				t.Fatalf("record: HTTP %d %s", code, body)
			}
			rec, err := record.ParseString(body)
			if err != nil {
				t.Fatal(err)
			}
			eng, _ := games.Lookup(name)
			views, st := replayViews(t, eng, rec)
			t.Logf("%s: %d record entries", name, len(rec.Entries))
			res, _ := json.Marshal(st.Result())
			if string(res) != string(fin.Result) {
				t.Errorf("result in the last state %s, replayed record %s", fin.Result, res)
			}
			if r, _ := rec.Get("Result"); r != record.ResultText(st) {
				t.Errorf("Result tag %q, want %q", r, record.ResultText(st))
			}

			// The leak sweep: every state message carries exactly the engine's
			// view for its observer at its step, and no card outside it; its
			// history entries are the engine's entries of their steps and
			// name no card outside the reader's view at that step.
			checked, hist := sweepClients(t, eng, rec, views, alice, bob, carol)
			if checked < 20 || hist.checked < len(hist.entries) {
				t.Errorf("leak sweep checked only %d state messages and %d of %d history entries", checked, hist.checked, len(hist.entries))
			}

			// Replay view endpoint.
			var rv struct {
				Step, Steps, Seat int
				View              json.RawMessage
			}
			if code := httpJSON(t, "GET", fmt.Sprintf("%s/api/records/%s/replay?step=5&seat=0", ts.url, id), "", nil, &rv); code != 200 {
				t.Fatalf("replay: HTTP %d", code)
			}
			if string(rv.View) != views[5][0] || rv.Steps != len(rec.Entries) {
				t.Errorf("replay step 5 seat 0: view %s, want %s; steps %d want %d", rv.View, views[5][0], rv.Steps, len(rec.Entries))
			}

			// History.
			var h struct {
				Games []protocol.HistoryItem `json:"games"`
			}
			httpJSON(t, "GET", ts.url+"/api/history", bob.sess.Token, nil, &h)
			if len(h.Games) != 1 || h.Games[0].ID != id || h.Games[0].Seat != 1 || h.Games[0].Status != "finished" {
				t.Errorf("bob's history = %+v", h.Games)
			}
			httpJSON(t, "GET", ts.url+"/api/players/"+alice.sess.Player+"/history", "", nil, &h)
			if len(h.Games) != 1 || h.Games[0].Seat != 0 {
				t.Errorf("alice's public history = %+v", h.Games)
			}
		})
	}
}

// fixedSeed makes the test tables' deals fixed (a random Pis Yedili hand
// can run to thousands of moves; this seed gives short games).
var fixedSeed = 1

func waitOrFail(t *testing.T, wg *sync.WaitGroup, d time.Duration) {
	t.Helper()
	ch := make(chan struct{})
	go func() { wg.Wait(); close(ch) }()
	select {
	case <-ch:
	case <-time.After(d):
		t.Fatalf("clients did not finish in %v", d)
	}
}

// gameHistory is a game's history as the engine describes it from its
// record: each entry's JSON without its stand-in mark, and the step
// (record entries applied) that produced it.
type gameHistory struct {
	entries []string
	seqs    []int
	checked int // entries the sweep has found in messages
}

// replayViews replays a finished game's record and returns every
// observer's view JSON at every step (seq → seat, -1 the spectator, →
// view), as the engine writes it, and the final state.
func replayViews(t *testing.T, eng game.Engine, rec *record.Record) (map[int]map[int]string, game.State) {
	t.Helper()
	views := map[int]map[int]string{}
	st, err := record.Replay(eng, rec, func(i int, st game.State) {
		views[i+1] = map[int]string{}
		for s := -1; s < st.Seats(); s++ {
			b, _ := json.Marshal(st.View(game.Seat(s)))
			views[i+1][s] = string(b)
		}
	})
	if err != nil {
		t.Fatalf("record does not replay: %v", err)
	}
	return views, st
}

// sweepClients runs the leak sweep (sweep) over every message the clients
// received and returns how many state messages it checked, and the
// history it checked them against. A client that received no state
// message at all is an error.
func sweepClients(t *testing.T, eng game.Engine, rec *record.Record, views map[int]map[int]string, clients ...*client) (int, *gameHistory) {
	t.Helper()
	hist := historyOf(t, eng, rec)
	checked := 0
	for _, c := range clients {
		c.mu.Lock()
		all := append([][]byte(nil), c.all...)
		c.mu.Unlock()
		seen := 0
		for _, b := range all {
			seen += sweep(t.Errorf, eng.Deck(), c.sess.Name, b, views, hist)
		}
		if seen == 0 {
			t.Errorf("%s saw no state message", c.sess.Name)
		}
		checked += seen
	}
	return checked, hist
}

// historyOf describes every step of a record with the engine's Historian.
func historyOf(t *testing.T, eng game.Engine, rec *record.Record) *gameHistory {
	t.Helper()
	h := &gameHistory{}
	hi, ok := eng.(game.Historian)
	if !ok {
		return h
	}
	st, err := rec.Start(eng)
	if err != nil {
		t.Fatal(err)
	}
	var buf []game.Entry
	for i, e := range rec.Entries {
		before := st.Clone()
		if err := record.Step(st, e); err != nil {
			t.Fatalf("record entry %d: %v", i, err)
		}
		if e.Chance {
			buf = hi.AppendChance(buf[:0], before, st)
		} else {
			m, _ := st.ParseMove(e.Text)
			buf = hi.AppendMove(buf[:0], before, st, e.Seat, m, "")
		}
		for j := range buf {
			h.entries = append(h.entries, string(buf[j].AppendJSON(nil, eng.Deck())))
			h.seqs = append(h.seqs, i+1)
		}
	}
	return h
}

// sweep checks one message received by a client; it returns 1 if it was a
// state message with a view.
func sweep(errorf func(string, ...any), deck game.Deck, who string, b []byte, views map[int]map[int]string, hist *gameHistory) int {
	var m struct {
		Type    string          `json:"type"`
		Seq     int             `json:"seq"`
		Seat    int             `json:"seat"`
		View    json.RawMessage `json:"view"`
		History *struct {
			From    int               `json:"from"`
			Entries []json.RawMessage `json:"entries"`
		} `json:"history"`
	}
	json.Unmarshal(b, &m)
	if m.History != nil {
		// Each entry against the reader's view at the entry's own step;
		// the rest of the message against the current view.
		for i, raw := range m.History.Entries {
			idx := m.History.From + i
			if idx < 0 || idx >= len(hist.entries) || hist.seqs[idx] > m.Seq {
				errorf("%s: history entry %d at seq %d: no such entry in the game so far: %s", who, idx, m.Seq, raw)
				continue
			}
			var e map[string]any
			json.Unmarshal(raw, &e)
			delete(e, "by") // the running table's mark, not in the record
			unmarked, _ := json.Marshal(e)
			var want map[string]any
			json.Unmarshal([]byte(hist.entries[idx]), &want)
			if w, _ := json.Marshal(want); string(unmarked) != string(w) {
				errorf("%s: history entry %d is not the engine's entry of its step:\n got %s\nwant %s", who, idx, raw, hist.entries[idx])
			}
			seen := cardSet(deck, views[hist.seqs[idx]][m.Seat])
			for c := range cardSet(deck, string(raw)) {
				if !seen[c] {
					errorf("LEAK: %s got card %s in history entry %d, outside its view at that step: %s", who, c, idx, raw)
				}
			}
			hist.checked = max(hist.checked, idx+1)
		}
		var rest map[string]json.RawMessage
		json.Unmarshal(b, &rest)
		delete(rest, "history")
		b, _ = json.Marshal(rest)
	}
	allowed := ""
	switch m.Type {
	case "state":
		if len(m.View) == 0 || string(m.View) == "null" {
			allowed = ""
			break
		}
		want, ok := views[m.Seq][m.Seat]
		if !ok {
			errorf("%s: state at seq %d seat %d: no such step in the record", who, m.Seq, m.Seat)
			return 0
		}
		if string(m.View) != want {
			errorf("%s: state at seq %d seat %d: view is not the engine's view\n got %s\nwant %s", who, m.Seq, m.Seat, m.View, want)
		}
		allowed = want
	case "ack", "error":
		// Errors quote the mover's own move; nothing hidden from it.
		return 0
	}
	known := cardSet(deck, allowed)
	for c := range cardSet(deck, string(b)) {
		if !known[c] {
			errorf("LEAK: %s got card %s outside its view in %s", who, c, truncate(string(b), 300))
		}
	}
	if m.Type == "state" && allowed != "" {
		return 1
	}
	return 0
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// cardSet finds every card written in canonical notation in a JSON text.
func cardSet(deck game.Deck, s string) map[string]bool {
	out := map[string]bool{}
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z')
	}) {
		if c, err := deck.Parse(tok); err == nil && deck.Format(c) == tok {
			out[tok] = true
		}
	}
	return out
}

// TestSweepDetectsLeak: the leak sweep flags a card outside the observer's
// view, and a view that is not the engine's.
func TestSweepDetectsLeak(t *testing.T) {
	needGame(t, "papayoo")
	eng, _ := games.Lookup("papayoo")
	views := map[int]map[int]string{3: {0: `{"hand":["1S","7H"]}`}}
	var got []string
	report := func(f string, a ...any) { got = append(got, fmt.Sprintf(f, a...)) }
	hist := &gameHistory{}
	ok := `{"type":"state","seq":3,"seat":0,"legal":["play 1S"],"view":{"hand":["1S","7H"]}}`
	if n := sweep(report, eng.Deck(), "x", []byte(ok), views, hist); n != 1 || len(got) != 0 {
		t.Fatalf("clean message: n=%d problems %v", n, got)
	}
	leak := `{"type":"state","seq":3,"seat":0,"legal":["play 20P"],"view":{"hand":["1S","7H"]}}`
	sweep(report, eng.Deck(), "x", []byte(leak), views, hist)
	if len(got) != 1 || !strings.Contains(got[0], "20P") {
		t.Errorf("leaked 20P not flagged: %v", got)
	}
	got = nil
	wrong := `{"type":"state","seq":3,"seat":0,"view":{"hand":["1S"]}}`
	sweep(report, eng.Deck(), "x", []byte(wrong), views, hist)
	if len(got) == 0 {
		t.Error("a view that differs from the engine's was not flagged")
	}

	// History entries: each is checked against the view of its own step
	// (a card seen then may be gone from the view now), must be the
	// engine's entry, and may not name a card the reader did not see.
	views[2] = map[int]string{0: `{"hand":["1S","7H"],"trick":["9C"]}`}
	hist = &gameHistory{entries: []string{`{"seat":1,"kind":"play","cards":["9C"]}`, `{"seat":1,"kind":"pass","count":5,"to":2}`}, seqs: []int{2, 3}}
	for _, tc := range []struct {
		name, history, flag string
	}{
		{"clean, with a stand-in mark", `{"from":0,"entries":[{"seat":1,"kind":"play","cards":["9C"],"by":"timeout"},{"seat":1,"kind":"pass","count":5,"to":2}]}`, ""},
		{"a passed card named", `{"from":1,"entries":[{"seat":1,"kind":"pass","cards":["20P"],"count":5,"to":2}]}`, "20P"},
		{"a card of another step", `{"from":0,"entries":[{"seat":1,"kind":"play","cards":["7H"]}]}`, "not the engine's"},
		{"an entry of a later step", `{"from":2,"entries":[{"seat":1,"kind":"play","cards":["9C"]}]}`, "no such entry"},
	} {
		got = nil
		msg := `{"type":"state","seq":3,"seat":0,"history":` + tc.history + `,"view":{"hand":["1S","7H"]}}`
		sweep(report, eng.Deck(), "x", []byte(msg), views, hist)
		if tc.flag == "" && len(got) != 0 || tc.flag != "" && !strings.Contains(strings.Join(got, "\n"), tc.flag) {
			t.Errorf("%s: problems %v, want one with %q", tc.name, got, tc.flag)
		}
	}
}
