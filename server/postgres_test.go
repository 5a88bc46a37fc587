package server

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"cardroom/store"
	"cardroom/store/pgtest"
)

// TestMain stops the private PostgreSQL (store/pgtest) after the tests.
func TestMain(m *testing.M) { pgtest.Main(m) }

// TestPostgresRoom runs the room on the PostgreSQL store: a game over
// HTTP and WebSocket, a graceful stop mid-game, a new server (a new store)
// on the same database that resumes it with the same views, and the game
// finished with the acknowledged move in its record; the log in
// PostgreSQL is the whole game.
func TestPostgresRoom(t *testing.T) {
	needGame(t, "papayoo")
	u := pgtest.Require(t)
	open := func() store.Store {
		st, err := store.OpenPostgres(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	cfg := func() Config { return Config{Store: open(), Rate: 10000, Burst: 10000} }
	ts := startServerCfg(t, t.TempDir(), cfg())
	sess := newSession(t, ts.url, "alice")
	c := dial(t, ts.url, sess)
	id := seatAll(t, c)
	last := c.play(id, 7, atLeast(20))
	ackSeq, mv := oneMore(t, c, id, last)
	before := statesAt(c, ackSeq)
	ts.stop() // closes its store
	c.close()

	ts2 := startServerCfg(t, t.TempDir(), cfg())
	c2, after := resume(t, ts2.url, sess, id)
	for seat := range before {
		if string(before[seat].View) != string(after[seat].View) {
			t.Errorf("seat %d: view after restart differs:\n%s\n%s", seat, before[seat].View, after[seat].View)
		}
	}
	finishAndCheck(t, c2, ts2.url, id, ackSeq, mv)
	// The PostgreSQL store's commits are in /metrics; SQLite's WAL is not.
	var metrics string
	httpJSON(t, "GET", ts2.url+"/metrics", "", nil, &metrics)
	if !regexp.MustCompile(`(?m)^cardroom_store_appends_total [1-9]`).MatchString(metrics) ||
		!strings.Contains(metrics, "cardroom_store_commits_resolved_total") || strings.Contains(metrics, "cardroom_store_wal_bytes") {
		t.Errorf("/metrics on PostgreSQL lacks the store's commits, or has SQLite's WAL:\n%s", metrics)
	}
	ts2.stop()

	st := open()
	defer st.Close()
	ctx := context.Background()
	tb, err := st.Table(ctx, id)
	if err != nil || tb.Status != store.StatusFinished {
		t.Fatalf("table in PostgreSQL: %+v, %v; want finished", tb, err)
	}
	ev, err := st.Events(ctx, id)
	if err != nil || len(ev) <= ackSeq {
		t.Errorf("log in PostgreSQL: %d entries, %v; want more than %d", len(ev), err, ackSeq)
	}
}
