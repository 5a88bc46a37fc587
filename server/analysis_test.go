package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"cardroom/protocol"
	"cardroom/store"
	"cardroom/table"
)

// analysisGet asks for a seat's analysis and returns the status and body.
func analysisGet(t *testing.T, ts *testServer, id, query, token string) (int, string) {
	t.Helper()
	var body string
	code := httpJSON(t, "GET", ts.url+"/api/records/"+id+"/analysis"+query, token, nil, &body)
	return code, body
}

// playPrivate plays a private Papayoo game of alice (seat 0) against three
// random bots to its end and returns the table id and its invite.
func playPrivate(t *testing.T, ts *testServer, alice session) (string, string) {
	t.Helper()
	c := dial(t, ts.url, alice)
	id := c.createTable(map[string]any{"game": "papayoo", "options": quickOptions("papayoo"), "private": true, "seat": 0,
		"bots": map[string]string{"1": "random", "2": "random", "3": "random"}})
	if code, body := analysisGet(t, ts, id, "?seat=0", alice.Token); code != http.StatusConflict {
		t.Errorf("analysis of an unfinished game: %d %s, want 409", code, body)
	}
	c.play(id, 1, nil)
	var sum struct {
		Invite string `json:"invite"`
	}
	httpJSON(t, "GET", ts.url+"/api/tables/"+id, alice.Token, nil, &sum)
	waitFinished(t, ts, id)
	c.close()
	return id, sum.Invite
}

// TestAnalysisStoredAtFinish: when a game finishes, the server analyses
// its human seat on its own (nobody asks), stores it, and serves it with
// the record's access rules; a bot's seat has none (404), a bad seat is
// refused (400), the metrics count it.
func TestAnalysisStoredAtFinish(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, Table: table.Config{BotDelay: time.Millisecond},
		Analysis: AnalysisConfig{Budget: 8}})
	alice := newSession(t, ts.url, "alice")
	eve := newSession(t, ts.url, "eve")
	id, invite := playPrivate(t, ts, alice)

	as := ts.s.analysesStore()
	deadline := time.Now().Add(60 * time.Second)
	var row store.Analysis
	for {
		var err error
		if row, err = as.Analysis(context.Background(), id, 0); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no analysis stored for seat 0: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	var a struct {
		Version   int    `json:"version"`
		Game      string `json:"game"`
		Seat      int    `json:"seat"`
		Budget    int    `json:"budget"`
		Seed      uint64 `json:"seed"`
		Decisions []struct {
			Step int    `json:"step"`
			Move string `json:"move"`
		} `json:"decisions"`
	}
	if row.Status != store.AnalysisDone || json.Unmarshal(row.Data, &a) != nil || a.Version != 1 || a.Game != "papayoo" || a.Seat != 0 || a.Budget != 8 || len(a.Decisions) == 0 {
		t.Fatalf("stored analysis %s %s", row.Status, row.Data)
	}
	if meta, _ := ts.s.store.Table(context.Background(), id); a.Seed == meta.Seed {
		t.Error("the analysis shows the table's seed, which deals its games")
	}
	for _, seat := range []int{1, 2, 3} {
		if _, err := as.Analysis(context.Background(), id, seat); err == nil {
			t.Errorf("a bot's seat %d was analysed", seat)
		}
	}

	for _, tc := range []struct {
		name, query, token string
		code               int
	}{
		{"the player", "?seat=0", alice.Token, 200},
		{"anyone with the invite", "?seat=0&invite=" + invite, eve.Token, 200},
		{"a stranger", "?seat=0", eve.Token, 404},
		{"anonymous", "?seat=0", "", 404},
		{"a wrong invite", "?seat=0&invite=nope", eve.Token, 404},
		{"a bot's seat", "?seat=1", alice.Token, 404},
		{"no seat", "", alice.Token, 400},
		{"seat too high", "?seat=4", alice.Token, 400},
		{"negative seat", "?seat=-1", alice.Token, 400},
		{"not a number", "?seat=x", alice.Token, 400},
	} {
		code, body := analysisGet(t, ts, id, tc.query, tc.token)
		if code != tc.code {
			t.Errorf("%s: %d %s, want %d", tc.name, code, body, tc.code)
		}
		if code == 200 && body != string(row.Data) {
			t.Errorf("%s: served %s, stored %s", tc.name, body, row.Data)
		}
	}
	if code, _ := analysisGet(t, ts, "t_nosuchtable", "?seat=0", alice.Token); code != 404 {
		t.Errorf("no such table: %d, want 404", code)
	}
	// The 404s say which: no analysis of that seat, or no such table (a
	// private game without its invite); the client tells them apart.
	for _, tc := range []struct{ query, token, code string }{
		{"?seat=1", alice.Token, `"no_analysis"`},
		{"?seat=0", eve.Token, `"no_table"`},
	} {
		if _, body := analysisGet(t, ts, id, tc.query, tc.token); !strings.Contains(body, tc.code) {
			t.Errorf("%s: %s, want the code %s", tc.query, body, tc.code)
		}
	}
	resp, err := http.Get(ts.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"cardroom_analysis_done_total 1\n", "cardroom_analysis_failed_total 0\n", "cardroom_analysis_queued 0\n", "cardroom_analysis_seconds_total "} {
		if !strings.Contains(string(m), want) {
			t.Errorf("metrics: no %q", want)
		}
	}
}

// TestAnalysisPendingThenDone: a finished game without an analysis (played
// on a room that had it switched off) gets one when someone asks: 202
// while it waits — here behind a bot pool kept busy, to which the analysis
// yields — then 200. With the analysis off, the answer is 404.
func TestAnalysisPendingThenDone(t *testing.T) {
	needGame(t, "papayoo")
	dir := t.TempDir()
	cfg := Config{Rate: 10000, Burst: 10000, Table: table.Config{BotDelay: time.Millisecond}, Analysis: AnalysisConfig{Off: true}}
	ts := startServerCfg(t, dir, cfg)
	alice := newSession(t, ts.url, "alice")
	id, _ := playPrivate(t, ts, alice)
	if code, body := analysisGet(t, ts, id, "?seat=0", alice.Token); code != 404 || !strings.Contains(body, `"no_analysis"`) {
		t.Errorf("analysis switched off: %d %s, want 404 no_analysis", code, body)
	}
	ts.stop()

	cfg.Analysis = AnalysisConfig{Budget: 8}
	cfg.BotWorkers = 1
	ts = startServerCfg(t, dir, cfg)
	release := make(chan struct{})
	started := make(chan struct{})
	if err := ts.s.pool.Submit(context.Background(), func(context.Context) { close(started); <-release }); err != nil {
		t.Fatal(err)
	}
	<-started
	for i := range 3 {
		if code, body := analysisGet(t, ts, id, "?seat=0", alice.Token); code != http.StatusAccepted || !strings.Contains(body, `"pending"`) {
			t.Fatalf("request %d while the pool is busy: %d %s, want 202 pending", i, code, body)
		}
		time.Sleep(3 * analysisPoll)
	}
	if _, err := ts.s.analysesStore().Analysis(context.Background(), id, 0); err == nil {
		t.Fatal("the analysis ran while the bot pool was busy")
	}
	close(release)
	deadline := time.Now().Add(60 * time.Second)
	for {
		code, body := analysisGet(t, ts, id, "?seat=0", alice.Token)
		if code == 200 {
			if !strings.Contains(body, `"version":1`) {
				t.Errorf("analysis %s", body)
			}
			break
		}
		if code != http.StatusAccepted || time.Now().After(deadline) {
			t.Fatalf("after the pool is free: %d %s", code, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestAnalysisConfig: a budget out of range is refused by New; the queue
// bound is clamped to 1 to 65,536.
func TestAnalysisConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg       AnalysisConfig
		ok        bool
		queue     int
		budgetSet int
	}{
		{AnalysisConfig{}, true, DefaultAnalysisQueue, 500},
		{AnalysisConfig{Budget: 1, Queue: -5}, true, 1, 1},
		{AnalysisConfig{Budget: 10000, Queue: 1 << 20}, true, 1 << 16, 10000},
		{AnalysisConfig{Budget: -1}, false, 0, 0},
		{AnalysisConfig{Budget: 10001}, false, 0, 0},
		{AnalysisConfig{Off: true, Budget: 10001}, false, 0, 0},
	} {
		s, err := New(Config{Store: store.NewMemory(), Log: quietLog(), Analysis: tc.cfg})
		if (err == nil) != tc.ok {
			t.Errorf("%+v: error %v, want ok=%v", tc.cfg, err, tc.ok)
		}
		if err != nil {
			continue
		}
		if s.an.cfg.Queue != tc.queue || s.an.cfg.Budget != tc.budgetSet {
			t.Errorf("%+v: queue %d budget %d, want %d and %d", tc.cfg, s.an.cfg.Queue, s.an.cfg.Budget, tc.queue, tc.budgetSet)
		}
		s.Shutdown(context.Background())
	}
}

// TestAnalysisQueueBound: the queue holds at most its bound, counts what it
// refuses, and never queues a seat twice.
func TestAnalysisQueueBound(t *testing.T) {
	a := &analyser{cfg: AnalysisConfig{Queue: 4}, pending: map[seatKey]bool{}, wake: make(chan struct{}, 1)}
	for _, tc := range []struct {
		k     seatKey
		asked bool
		want  bool
	}{
		{seatKey{"t_x", 0}, true, true}, // asked for: half the queue (2) at most
		{seatKey{"t_x", 1}, true, true},
		{seatKey{"t_x", 2}, true, false}, // the asked half is full
		{seatKey{"t_a", 0}, false, true},
		{seatKey{"t_a", 0}, false, true}, // already pending: not queued again
		{seatKey{"t_a", 1}, false, true},
		{seatKey{"t_b", 0}, false, false}, // full
	} {
		if got := a.enqueue(tc.k, standInMarks{}, tc.asked); got != tc.want {
			t.Errorf("enqueue %v (asked %v): %v, want %v", tc.k, tc.asked, got, tc.want)
		}
	}
	if len(a.queue) != 4 || a.asked != 2 || a.refused.Load() != 2 || !a.isPending(seatKey{"t_a", 1}) || a.isPending(seatKey{"t_b", 0}) {
		t.Errorf("queue %v, asked %d, refused %d", a.queue, a.asked, a.refused.Load())
	}
}

// standInAnalysis is what TestAnalysisStandIn reads of an analysis.
type standInAnalysis struct {
	Decisions []struct {
		Step    int     `json:"step"`
		By      string  `json:"by"`
		Loss    float64 `json:"loss"`
		Mistake bool    `json:"mistake"`
	} `json:"decisions"`
	Mistakes       []int `json:"mistakes"`
	StandInUnknown bool  `json:"stand_in_unknown"`
}

// playThenLeave plays alice's seat 0 of a Papayoo game against three
// random bots for a few steps, then leaves: a bot plays the seat for her
// to the end (marked away). It returns the table and the last step she
// made herself at the latest.
func playThenLeave(t *testing.T, ts *testServer, alice session) (string, int) {
	t.Helper()
	c := dial(t, ts.url, alice)
	defer c.close()
	id := c.createTable(map[string]any{"game": "papayoo", "options": quickOptions("papayoo"), "seat": 0,
		"bots": map[string]string{"1": "random", "2": "random", "3": "random"}})
	last := c.play(id, 3, func(m map[int]state) bool { return m[0].Seq >= 12 })
	c.send(map[string]any{"type": "leave", "table": id})
	waitFinished(t, ts, id)
	return id, last[0].Seq
}

// waitStored polls a seat's analysis until it is served (200).
func waitStored(t *testing.T, ts *testServer, id string, token string) standInAnalysis {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		code, body := analysisGet(t, ts, id, "?seat=0", token)
		if code == 200 {
			var a standInAnalysis
			if err := json.Unmarshal([]byte(body), &a); err != nil {
				t.Fatal(err)
			}
			return a
		}
		if code != http.StatusAccepted || time.Now().After(deadline) {
			t.Fatalf("analysis: %d %s", code, body)
		}
	}
}

// TestAnalysisStandIn: the moves a bot made for a player who left are
// marked by "away" in the analysis the room makes at the game's end, and
// are never the player's mistakes; the player's own moves are not marked.
// After a restart the marks are gone (only the running table knew them):
// the analysis then says it cannot tell (stand_in_unknown).
func TestAnalysisStandIn(t *testing.T) {
	needGame(t, "papayoo")
	dir := t.TempDir()
	cfg := Config{Rate: 10000, Burst: 10000, Table: table.Config{BotDelay: time.Millisecond}, Analysis: AnalysisConfig{Budget: 8}}
	ts := startServerCfg(t, dir, cfg)
	alice := newSession(t, ts.url, "alice")
	id, own := playThenLeave(t, ts, alice)
	a := waitStored(t, ts, id, alice.Token)
	mine, bots := 0, 0
	for _, d := range a.Decisions {
		switch {
		case d.Step <= own && d.By != "":
			t.Errorf("alice's own move at step %d is marked %q", d.Step, d.By)
		case d.Step > own && d.By != "away":
			t.Errorf("the stand-in's move at step %d is marked %q, want away", d.Step, d.By)
		case d.By != "" && (d.Mistake || d.Loss != 0):
			t.Errorf("the stand-in's move at step %d is rated: %+v", d.Step, d)
		}
		if d.By == "" {
			mine++
		} else {
			bots++
		}
	}
	for _, s := range a.Mistakes {
		if s > own {
			t.Errorf("mistake at step %d, a stand-in's move", s)
		}
	}
	if mine == 0 || bots == 0 || a.StandInUnknown {
		t.Errorf("%d own decisions, %d stand-in's, unknown %v: want both kinds, known", mine, bots, a.StandInUnknown)
	}
	ts.stop()

	// A room without analysis, then a restart: the marks are lost.
	cfg.Analysis = AnalysisConfig{Off: true}
	ts = startServerCfg(t, dir, cfg)
	id2, _ := playThenLeave(t, ts, alice)
	ts.stop()
	cfg.Analysis = AnalysisConfig{Budget: 8}
	ts = startServerCfg(t, dir, cfg)
	a = waitStored(t, ts, id2, alice.Token)
	for _, d := range a.Decisions {
		if d.By != "" {
			t.Errorf("step %d marked %q after a restart", d.Step, d.By)
		}
	}
	if !a.StandInUnknown {
		t.Error("after a restart the analysis does not say the stand-in's moves are unknown")
	}
}

// busyPool gives ts's bot pool (one worker) a job that holds it until the
// test ends: the analyser only runs when the pool is idle, so the queue
// holds what is asked for.
func busyPool(t *testing.T, ts *testServer) {
	t.Helper()
	release, started := make(chan struct{}), make(chan struct{})
	if err := ts.s.pool.Submit(context.Background(), func(context.Context) { close(started); <-release }); err != nil {
		t.Fatal(err)
	}
	<-started
	t.Cleanup(func() { close(release) })
}

// selfPlayed creates a three-seat Papayoo table of one round whose seats c
// all holds and plays it until stop (nil: to its end); a game its player
// leaves after a few moves ends unfinished ("when_empty": "end").
func selfPlayed(c *client, stop func(map[int]state) bool) string {
	id := c.createTable(map[string]any{"game": "papayoo", "options": map[string]string{"players": "3", "rounds": "1"}, "seat": 0, "when_empty": "end"})
	for _, seat := range []int{1, 2} {
		c.send(map[string]any{"type": "join", "table": id, "seat": seat})
	}
	c.play(id, 3, stop)
	return id
}

// unfinishedGames makes n games that end unfinished (a few moves, then
// their player goes), as anyone can by the dozen, and returns their ids.
func unfinishedGames(t *testing.T, ts *testServer, n int) []string {
	t.Helper()
	c := dial(t, ts.url, newSession(t, ts.url, "mallory"))
	var ids []string
	for range n {
		first := -1
		ids = append(ids, selfPlayed(c, func(m map[int]state) bool {
			for _, st := range m {
				if first < 0 {
					first = st.Seq
				}
				if st.Seq > first+6 {
					return true
				}
			}
			return false
		}))
	}
	c.close()
	for _, id := range ids {
		waitFinished(t, ts, id)
	}
	return ids
}

// TestAnalysisAskedBounded: anyone may ask for any public finished game's
// analysis, and each is a bot's search of every decision, so what one
// client can queue is bounded twice. Seats asked for hold at most half of
// -analysis-queue: one client asking for the seats of games it made by
// the dozen (ended unfinished, which the room does not queue itself) fills
// that half and is answered busy, and a game that then finishes normally
// still has its seats queued. And an address may ask for -analyses-per-ip
// an hour (429 rate_limited, limit analyses; another address is not
// held), a refusal of the queue giving the token back.
func TestAnalysisAskedBounded(t *testing.T) {
	needGame(t, "papayoo")
	t.Run("half the queue", func(t *testing.T) {
		ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, BotWorkers: 1,
			Table: table.Config{Grace: 20 * time.Millisecond}, Analysis: AnalysisConfig{Queue: 8, Budget: 8, PerIPPerHour: -1}})
		busyPool(t, ts)
		codes := map[int]int{}
		for _, id := range unfinishedGames(t, ts, 4) {
			for _, seat := range []string{"0", "1", "2"} {
				code, _ := analysisGet(t, ts, id, "?seat="+seat, "")
				codes[code]++
			}
		}
		// Half the queue, and the one the analyser may have taken out of
		// it to wait for the pool.
		if n := codes[http.StatusAccepted]; n < 4 || n > 5 || codes[http.StatusServiceUnavailable] != 12-n {
			t.Errorf("12 seats asked for with a queue of 8: %v; want 4 queued (half the queue; 5 with the one taken out), the rest busy", codes)
		}
		refused := ts.s.an.refused.Load()
		alice := newSession(t, ts.url, "alice")
		id := selfPlayed(dial(t, ts.url, alice), nil)
		waitFinished(t, ts, id)
		if n := ts.s.an.refused.Load() - refused; n != 0 {
			t.Errorf("a game that finished after them: %d of its seats refused the queue", n)
		}
		if code, body := analysisGet(t, ts, id, "?seat=0", alice.Token); code != http.StatusAccepted {
			t.Errorf("its player's analysis: %d %s, want 202 (queued)", code, body)
		}
	})
	t.Run("per address", func(t *testing.T) {
		loopback, _ := ParseTrustedProxies("127.0.0.1/32,::1/128")
		ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, BotWorkers: 1, TrustedProxies: loopback,
			Table: table.Config{Grace: 20 * time.Millisecond}, Analysis: AnalysisConfig{Budget: 8, PerIPPerHour: 3}})
		busyPool(t, ts)
		ids := unfinishedGames(t, ts, 2)
		ask := func(from, id, seat string) (int, protocol.ErrorDetail) {
			var out struct {
				Error protocol.ErrorDetail `json:"error"`
			}
			code := httpJSONFrom(t, from, "GET", ts.url+"/api/records/"+id+"/analysis?seat="+seat, "", nil, &out)
			return code, out.Error
		}
		for _, seat := range []string{"0", "1", "2"} {
			if code, e := ask("198.51.100.30", ids[0], seat); code != http.StatusAccepted {
				t.Fatalf("seat %s: %d %+v, want 202", seat, code, e)
			}
		}
		if code, e := ask("198.51.100.30", ids[1], "0"); code != http.StatusTooManyRequests || e.Code != protocol.RateLimited ||
			e.Limit == nil || e.Limit.Name != protocol.LimitAnalyses || e.Limit.Max != 3 {
			t.Errorf("a fourth analysis from one address: %d %+v; want 429 rate_limited, analyses max 3", code, e)
		}
		if code, _ := ask("198.51.100.30", ids[0], "1"); code != http.StatusAccepted {
			t.Errorf("a seat already queued, asked again: %d, want 202 (no charge)", code)
		}
		if code, e := ask("198.51.100.31", ids[1], "0"); code != http.StatusAccepted {
			t.Errorf("another address: %d %+v", code, e)
		}
		if v := metricValue(t, ts.url, "cardroom_analysis_limited_total"); v != "1" {
			t.Errorf("cardroom_analysis_limited_total %s, want 1", v)
		}
	})
}
