package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"cardroom/protocol"
	"cardroom/store"
	"cardroom/table"
)

// tableStatus is GET /api/tables/{id}'s status.
func tableStatus(t *testing.T, base, id string) string {
	t.Helper()
	var sum protocol.Summary
	if code := httpJSON(t, "GET", base+"/api/tables/"+id, "", nil, &sum); code != 200 {
		t.Fatalf("GET /api/tables/%s: %d", id, code)
	}
	return string(sum.Status)
}

// waitStatus polls a table's status until it is want or 5 s have passed.
func waitStatus(t *testing.T, base, id, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := tableStatus(t, base, id)
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("table %s: status %s, want %s", id, got, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func metricValue(t *testing.T, base, name string) string {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for l := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, name+" "); ok {
			return v
		}
	}
	t.Fatalf("/metrics has no %s", name)
	return ""
}

// metricInt is metricValue as a number.
func metricInt(t *testing.T, base, name string) int {
	t.Helper()
	n, err := strconv.Atoi(metricValue(t, base, name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return n
}

// A quick game whose only human is gone pauses after the grace period:
// the table endpoint, the lobby and /metrics say so, it still counts
// against its owner's tables, and the human's return resumes it.
func TestEmptyTablePausesOverHTTP(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, TablesPerPlayer: 1,
		Table: table.Config{Grace: 300 * time.Millisecond}})
	alice := newSession(t, ts.url, "alice")
	var sum protocol.Summary
	if code := httpJSON(t, "POST", ts.url+"/api/quickplay", alice.Token,
		map[string]any{"game": "papayoo", "options": map[string]string{"rounds": "1"}, "level": "random"}, &sum); code != 200 {
		t.Fatalf("quickplay: %d", code)
	}
	id := sum.ID
	waitStatus(t, ts.url, id, "paused")
	var lobby protocol.LobbyMsg
	if code := httpJSON(t, "GET", ts.url+"/api/tables", "", nil, &lobby); code != 200 {
		t.Fatalf("lobby: %d", code)
	}
	found := false
	for _, s := range lobby.Tables {
		if s.ID == id {
			found = true
			if s.Status != protocol.StatusPaused {
				t.Errorf("the lobby lists the table as %s, want paused", s.Status)
			}
		}
	}
	if !found {
		t.Errorf("the paused table is not in the lobby: %+v", lobby.Tables)
	}
	if v := metricValue(t, ts.url, "cardroom_tables_paused"); v != "1" {
		t.Errorf("cardroom_tables_paused %s, want 1", v)
	}
	// Paused is unfinished: alice's one table is still hers.
	var body map[string]any
	if code := httpJSON(t, "POST", ts.url+"/api/quickplay", alice.Token, map[string]any{"game": "papayoo"}, &body); code != http.StatusTooManyRequests {
		t.Errorf("a second table past the quota while the first is paused: %d %v, want 429", code, body)
	}

	c := dial(t, ts.url, alice)
	if seats, _ := c.welcome["seats"].([]any); len(seats) != 1 {
		t.Errorf("welcome lists %v: the paused table's seat should be there to come back to", c.welcome["seats"])
	}
	c.send(map[string]any{"type": "watch", "table": id})
	waitStatus(t, ts.url, id, "playing")
	if v := metricValue(t, ts.url, "cardroom_tables_paused"); v != "0" {
		t.Errorf("cardroom_tables_paused %s after the return, want 0", v)
	}
}

// when_empty is checked at creation: a bad value is refused and creates
// nothing; "end" ends the game unfinished, and then its record is public.
func TestWhenEmptyOverHTTP(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, Table: table.Config{Grace: 300 * time.Millisecond},
		Analysis: AnalysisConfig{Budget: 8}})
	alice := newSession(t, ts.url, "alice")
	for _, v := range []string{"never", "End", strings.Repeat("x", 300)} {
		var body protocol.ErrorBody
		code := httpJSON(t, "POST", ts.url+"/api/tables", alice.Token, map[string]any{"game": "papayoo", "when_empty": v}, &body)
		if code != 400 || body.Error.Code != protocol.BadRequest || !strings.Contains(body.Error.Message, "when_empty") {
			t.Errorf("when_empty %.20q: %d %+v, want 400 bad_request", v, code, body)
		}
	}
	var lobby protocol.LobbyMsg
	httpJSON(t, "GET", ts.url+"/api/tables", "", nil, &lobby)
	if len(lobby.Tables) != 0 {
		t.Errorf("refused creations left tables: %+v", lobby.Tables)
	}

	var sum protocol.Summary
	if code := httpJSON(t, "POST", ts.url+"/api/quickplay", alice.Token,
		map[string]any{"game": "papayoo", "options": map[string]string{"rounds": "1"}, "when_empty": "end"}, &sum); code != 200 {
		t.Fatalf("quickplay: %d", code)
	}
	waitStatus(t, ts.url, sum.ID, "finished")
	var rec string
	if code := httpJSON(t, "GET", ts.url+"/api/records/"+sum.ID, "", nil, &rec); code != 200 {
		t.Errorf("the record of the ended game: %d", code)
	}
	if v := metricValue(t, ts.url, "cardroom_tables_abandoned_total"); v != "1" {
		t.Errorf("cardroom_tables_abandoned_total %s, want 1", v)
	}
	// A game ended unfinished is not queued for analysis on its own
	// (anyone can make such games by the dozen); asked for, it is.
	if v := metricValue(t, ts.url, "cardroom_analysis_skipped_total"); v != "1" {
		t.Errorf("cardroom_analysis_skipped_total %s, want 1", v)
	}
	if _, err := ts.s.analysesStore().Analysis(context.Background(), sum.ID, 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the ended game's analysis: %v, want none", err)
	}
	if code, body := analysisGet(t, ts, sum.ID, "?seat=0", alice.Token); code != http.StatusAccepted && code != 200 {
		t.Errorf("the ended game's analysis, asked for: %d %s, want 202 (or 200)", code, body)
	}
}

// Over the socket too: create carries when_empty (the created summary
// says "end"), and a bad value is refused.
func TestWhenEmptyOverWS(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServer(t, t.TempDir(), table.Config{})
	c := dial(t, ts.url, newSession(t, ts.url, "alice"))
	c.send(map[string]any{"type": "create", "id": "bad", "game": "papayoo", "when_empty": "later"})
	if e := c.expect("error", nil); e.str("code") != string(protocol.BadRequest) || !strings.Contains(e.str("message"), "when_empty") {
		t.Errorf("bad when_empty over the socket: %v", e)
	}
	id := c.createTable(map[string]any{"game": "papayoo", "when_empty": "end"})
	if got := tableWhenEmpty(t, ts.url, id); got != protocol.WhenEmptyEnd {
		t.Errorf("when_empty %q after create over the socket, want end", got)
	}
}

func tableWhenEmpty(t *testing.T, base, id string) string {
	t.Helper()
	var sum protocol.Summary
	if code := httpJSON(t, "GET", base+"/api/tables/"+id, "", nil, &sum); code != 200 {
		t.Fatalf("GET /api/tables/%s: %d", id, code)
	}
	return sum.WhenEmpty
}
