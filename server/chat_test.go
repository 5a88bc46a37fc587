package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"cardroom/store"
)

// chatTable starts a room and an open Papayoo table of alice (seat 0, the
// owner) and bob (seat 1), with dave watching it as a spectator, and a
// second table of carol.
type chatFixture struct {
	ts                      *testServer
	alice, bob, dave, carol *client
	table, other            string
}

func newChatFixture(t *testing.T, cfg Config) *chatFixture {
	t.Helper()
	needGame(t, "papayoo")
	cfg.Rate, cfg.Burst = 10000, 10000
	ts := startServerCfg(t, t.TempDir(), cfg)
	f := &chatFixture{ts: ts}
	f.alice = dial(t, ts.url, newSession(t, ts.url, "alice"))
	f.bob = dial(t, ts.url, newSession(t, ts.url, "bob"))
	f.dave = dial(t, ts.url, newSession(t, ts.url, "dave"))
	f.carol = dial(t, ts.url, newSession(t, ts.url, "carol"))
	f.table = f.alice.createTable(map[string]any{"game": "papayoo", "options": quickOptions("papayoo"), "seat": 0})
	f.alice.expect("chat_settings", nil)
	f.bob.send(map[string]any{"type": "join", "table": f.table, "seat": 1})
	f.bob.expect("chat_settings", nil)
	f.dave.send(map[string]any{"type": "watch", "table": f.table})
	f.dave.expect("chat_settings", nil)
	f.other = f.carol.createTable(map[string]any{"game": "papayoo", "options": quickOptions("papayoo"), "seat": 0})
	f.carol.expect("chat_settings", nil)
	return f
}

func isChat(text string) func(msg) bool {
	return func(m msg) bool { return m.str("text") == text }
}

// nextChat returns c's next chat line or error, skipping everything else.
func nextChat(c *client) msg {
	c.t.Helper()
	for {
		m := c.next(5 * time.Second)
		if t := m.str("type"); t == "chat" || t == "error" {
			return m
		}
	}
}

// TestChatChannels: a players' line reaches everyone at the table and no
// one at another table; a spectators' line reaches the spectators and the
// players who show the channel, not one who hides it; the owner's switch
// turns the spectators off; each side is refused the other's channel.
func TestChatChannels(t *testing.T) {
	f := newChatFixture(t, Config{})
	f.alice.send(map[string]any{"type": "chat", "table": f.table, "channel": "players", "text": "hello table"})
	for _, c := range []*client{f.alice, f.bob, f.dave} {
		m := nextChat(c)
		if m.str("text") != "hello table" || m.str("name") != "alice" || m.num("seat") != 0 || m.num("line") != 1 || m.str("channel") != "players" {
			t.Errorf("%s got %v", c.sess.Name, m)
		}
	}
	f.dave.send(map[string]any{"type": "chat", "table": f.table, "channel": "spectators", "phrase": "gg"})
	for _, c := range []*client{f.alice, f.bob, f.dave} {
		if m := nextChat(c); m.str("phrase") != "gg" || m["spectator"] != true || m["seat"] != nil {
			t.Errorf("%s got %v", c.sess.Name, m)
		}
	}

	// bob hides the spectators: dave's next line skips him.
	f.bob.send(map[string]any{"type": "chat_settings", "table": f.table, "show_spectators": false})
	if m := f.bob.expect("chat_settings", nil); m["show_spectators"] != false || m["spectator_chat"] != true {
		t.Errorf("settings answer %v", m)
	}
	f.dave.send(map[string]any{"type": "chat", "table": f.table, "channel": "spectators", "text": "psst"})
	f.dave.expect("chat", isChat("psst"))
	f.alice.expect("chat", isChat("psst"))
	f.alice.send(map[string]any{"type": "chat", "table": f.table, "channel": "players", "text": "marker"})
	if m := nextChat(f.bob); m.str("text") != "marker" {
		t.Errorf("bob, who hides the spectators, got %v before the marker", m)
	}

	cases := []struct {
		name string
		c    *client
		req  map[string]any
		code string
	}{
		{"spectator on players", f.dave, map[string]any{"channel": "players", "text": "x"}, "not_seated"},
		{"player on spectators", f.alice, map[string]any{"channel": "spectators", "text": "x"}, "forbidden"},
		{"not watching", f.carol, map[string]any{"channel": "spectators", "text": "x"}, "forbidden"},
		{"switch by non-owner", f.bob, map[string]any{"type": "chat_settings", "spectator_chat": false}, "forbidden"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := map[string]any{"type": "chat", "table": f.table}
			for k, v := range tc.req {
				req[k] = v
			}
			tc.c.send(req)
			if m := tc.c.expect("error", nil); m.str("code") != tc.code {
				t.Errorf("got %v, want %s", m, tc.code)
			}
		})
	}

	// The owner turns spectator chat off: everyone is told, dave refused.
	f.alice.send(map[string]any{"type": "chat_settings", "table": f.table, "spectator_chat": false})
	f.alice.expect("chat_settings", func(m msg) bool { return m["spectator_chat"] == false })
	f.dave.expect("chat_settings", func(m msg) bool { return m["spectator_chat"] == false })
	f.dave.send(map[string]any{"type": "chat", "table": f.table, "channel": "spectators", "text": "still there?"})
	if m := nextChat(f.dave); m.str("code") != "forbidden" || !strings.Contains(m.str("message"), "off") {
		t.Errorf("spectator chat off: got %v", m)
	}

	// An anonymous watcher reads the players' channel but cannot write.
	anon := dial(t, f.ts.url, session{Name: "anonymous"})
	anon.send(map[string]any{"type": "watch", "table": f.table})
	anon.expect("chat", isChat("marker")) // the last lines come with the watch
	anon.send(map[string]any{"type": "chat", "table": f.table, "channel": "spectators", "text": "x"})
	if m := anon.expect("error", nil); m.str("code") != "unauthorized" {
		t.Errorf("anonymous line: %v", m)
	}

	// carol, at the other table, never saw a line of this one.
	f.carol.send(map[string]any{"type": "ping", "id": "p"})
	for {
		m := f.carol.next(5 * time.Second)
		if m.str("type") == "pong" {
			break
		}
		if m.str("type") == "chat" {
			t.Errorf("carol got a line of another table: %v", m)
		}
	}
}

// TestChatText: the decoder's checks of a line (length after NFC,
// control and format characters, phrases), and that a refused line is
// neither sent nor numbered.
func TestChatText(t *testing.T) {
	f := newChatFixture(t, Config{})
	long := strings.Repeat("é", 300)
	cases := []struct {
		name, text, phrase string
		ok                 bool
		want               string
	}{
		{"plain", "hi", "", true, "hi"},
		{"nfc joins", "cafe\u0301", "", true, "café"},
		{"300 decomposed", strings.Repeat("e\u0301", 300), "", true, long},
		{"trimmed", "  hi  ", "", true, "hi"},
		{"301", long + "x", "", false, ""},
		{"bell", "a\x07b", "", false, ""},
		{"newline", "a\nb", "", false, ""},
		{"bidi override", "a\u202eb", "", false, ""},
		{"only spaces", "   ", "", false, ""},
		{"phrase", "", "thanks", true, ""},
		{"unknown phrase", "", "boo", false, ""},
		{"both", "hi", "gg", false, ""},
	}
	id := 0
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f.alice.send(map[string]any{"type": "chat", "table": f.table, "channel": "players", "text": tc.text, "phrase": tc.phrase})
			m := nextChat(f.alice)
			if !tc.ok {
				if m.str("type") != "error" || m.str("code") != "bad_request" {
					t.Errorf("got %v, want bad_request", m)
				}
				return
			}
			id++
			if m.str("type") != "chat" || m.str("text") != tc.want || m.str("phrase") != tc.phrase || m.num("line") != id {
				t.Errorf("got %v, want text %q id %d", m, tc.want, id)
			}
		})
	}
}

// TestChatRateLimit: the burst passes, the next line is refused, and the
// refusal names the burst as well as the rate (it said "20 a minute" to
// a player refused at their sixth line).
func TestChatRateLimit(t *testing.T) {
	f := newChatFixture(t, Config{Chat: ChatConfig{PerMinute: 1, Burst: 3}})
	for i := range 4 {
		f.alice.send(map[string]any{"type": "chat", "table": f.table, "channel": "players", "text": "spam"})
		m := nextChat(f.alice)
		if got := m.str("type") == "chat"; got != (i < 3) {
			t.Errorf("line %d: %v", i+1, m)
		}
		if i == 3 && (m.str("code") != "rate_limited" || !strings.Contains(m.str("message"), "at most 3 chat lines at once and 1 a minute")) {
			t.Errorf("line 4: %v, want rate_limited, saying both bounds (the burst refused it, not the minute's)", m)
		}
		// The limit by name, for the client to say in its language.
		if l, _ := m["limit"].(map[string]any); i == 3 && (l["name"] != "chat" || l["max"] != float64(1) || l["burst"] != float64(3) || l["retry"].(float64) < 1 || l["retry"].(float64) > 60) {
			t.Errorf("line 4: limit %v, want chat, max 1, burst 3, retry 1 to 60 s", m["limit"])
		}
	}
	var body string
	httpJSON(t, "GET", f.ts.url+"/metrics", "", nil, &body)
	if !strings.Contains(body, "cardroom_chat_rate_limited_total 1\n") || !strings.Contains(body, "cardroom_chat_lines_total 3\n") {
		t.Errorf("metrics:\n%s", body)
	}
}

// TestChatHistoryAndReport: a new watcher receives the last lines (only
// History of them), the store keeps them across a restart of the room,
// and a reported line is listed for the operator.
func TestChatHistoryAndReport(t *testing.T) {
	f := newChatFixture(t, Config{Chat: ChatConfig{History: 2}})
	for _, s := range []string{"one", "two", "three"} {
		f.alice.send(map[string]any{"type": "chat", "table": f.table, "channel": "players", "text": s})
		f.alice.expect("chat", isChat(s))
	}
	check := func(c *client) {
		t.Helper()
		c.send(map[string]any{"type": "watch", "table": f.table})
		c.expect("chat_settings", nil)
		for _, want := range []string{"two", "three"} {
			if m := nextChat(c); m.str("text") != want {
				t.Errorf("%s: history line %v, want %q", c.sess.Name, m, want)
			}
		}
	}
	check(f.carol)

	f.carol.send(map[string]any{"type": "chat_report", "id": "r", "table": f.table, "line": 3, "reason": "rude"})
	if m := f.carol.expect("chat_report", nil); m.num("line") != 3 || m.str("id") != "r" {
		t.Errorf("report answer %v", m)
	}
	f.carol.send(map[string]any{"type": "chat_report", "table": f.table, "line": 1})
	if m := f.carol.expect("error", nil); m.str("code") != "bad_request" {
		t.Errorf("report of a line no longer kept: %v", m)
	}
	reps, err := f.ts.s.store.(store.Chat).ChatReports(context.Background(), 10)
	if err != nil || len(reps) != 1 || reps[0].Line.Text != "three" || reps[0].Reason != "rude" || reps[0].ReporterName != "carol" {
		t.Fatalf("reports %+v, %v", reps, err)
	}

	// Restart: the lines come back from the store.
	sess := f.carol.sess
	dir := f.ts.dir
	f.ts.stop()
	ts := startServerCfg(t, dir, Config{Rate: 10000, Burst: 10000, Chat: ChatConfig{History: 2}})
	check(dial(t, ts.url, sess))
}

// TestChatReportsPerIP: reports are kept for the operator and never
// deleted by the room, so one address is taken at most ReportsPerIPPerDay
// a day, whatever the players behind it: past it a report is refused
// (rate_limited) and not stored, and the refusal is counted.
func TestChatReportsPerIP(t *testing.T) {
	f := newChatFixture(t, Config{Chat: ChatConfig{ReportsPerIPPerDay: 2}})
	for _, s := range []string{"one", "two", "three"} {
		f.alice.send(map[string]any{"type": "chat", "table": f.table, "channel": "players", "text": s})
		f.alice.expect("chat", isChat(s))
	}
	// Bob and dave (two players, one address: the test's) report a line each.
	for i, c := range []*client{f.bob, f.dave, f.bob} {
		c.send(map[string]any{"type": "chat_report", "table": f.table, "line": i + 1})
		m := c.next(5 * time.Second)
		for m.str("type") != "chat_report" && m.str("type") != "error" {
			m = c.next(5 * time.Second)
		}
		if want := map[bool]string{true: "chat_report", false: "error"}[i < 2]; m.str("type") != want || (want == "error" && m.str("code") != "rate_limited") {
			t.Errorf("report %d: %v, want %s", i+1, m, want)
		}
	}
	reps, err := f.ts.s.store.(store.Chat).ChatReports(context.Background(), 10)
	if err != nil || len(reps) != 2 {
		t.Fatalf("stored %d reports (%v), want 2", len(reps), err)
	}
	if n := f.ts.s.chat.reportsRefused.Load(); n != 1 {
		t.Errorf("%d refusals counted, want 1", n)
	}
}

// TestChatLineNumberTaken: a room whose count of lines is stale (another
// writer stored a line under the next number: in a cluster, the table
// served by another node for a while) reloads the stored lines, sends its
// members the ones they missed and stores the new line after them,
// instead of refusing every line with "unavailable" until everyone left
// the room.
func TestChatLineNumberTaken(t *testing.T) {
	f := newChatFixture(t, Config{})
	f.alice.send(map[string]any{"type": "chat", "table": f.table, "channel": "players", "text": "one"})
	f.alice.expect("chat", isChat("one"))
	f.bob.expect("chat", isChat("one"))
	st := f.ts.s.store.(store.Chat)
	ctx := context.Background()
	// Line 2, written elsewhere.
	if err := st.AppendChat(ctx, store.ChatLine{Table: f.table, ID: 2, Channel: "players", Player: "p_elsewhere", Name: "bob",
		Seat: 1, Text: "two", At: time.Now().UTC().Truncate(time.Millisecond)}, DefaultChatHistory); err != nil {
		t.Fatal(err)
	}
	f.alice.send(map[string]any{"type": "chat", "table": f.table, "channel": "players", "text": "three"})
	// The room's members get the line they missed, then the new one.
	for _, c := range []*client{f.alice, f.bob} {
		if m := nextChat(c); m.str("type") != "chat" || m.str("text") != "two" || m.num("line") != 2 {
			t.Fatalf("%s: after line 2 was stored elsewhere, the next line: %v, want the missed line 2", c.sess.Name, m)
		}
		if m := nextChat(c); m.str("type") != "chat" || m.str("text") != "three" || m.num("line") != 3 {
			t.Fatalf("%s: then %v, want alice's line as line 3", c.sess.Name, m)
		}
	}
	lines, err := st.ChatLines(ctx, f.table, 10)
	if err != nil || len(lines) != 3 || lines[1].Text != "two" || lines[2].Text != "three" {
		t.Errorf("stored lines %+v, %v; want one, two, three", lines, err)
	}
	if n := metricInt(t, f.ts.url, "cardroom_chat_resyncs_total"); n != 1 {
		t.Errorf("cardroom_chat_resyncs_total = %d, want 1", n)
	}
	// Whoever watches now reads the three lines.
	f.carol.send(map[string]any{"type": "watch", "table": f.table})
	f.carol.expect("chat_settings", nil)
	for _, want := range []string{"one", "two", "three"} {
		if m := nextChat(f.carol); m.str("text") != want {
			t.Errorf("carol's history line %v, want %q", m, want)
		}
	}
}
