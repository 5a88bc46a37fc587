package server

import (
	"cardroom/server/wsconn"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"cardroom/protocol"
	"cardroom/store"
	"cardroom/table"
)

// TestReconnectMidTrick drops a player's connection in the middle of a
// trick, reconnects with the token, and checks the full view comes back
// and the game continues to its end.
func TestReconnectMidTrick(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServer(t, t.TempDir(), table.Config{})
	sess := newSession(t, ts.url, "alice")
	c := dial(t, ts.url, sess)
	id := c.createTable(map[string]any{"game": "papayoo", "options": map[string]string{"rounds": "1"}, "seat": 0,
		"bots": map[string]string{"1": "random", "2": "random", "3": "random"}})
	midTrick := func(l map[int]state) bool {
		s, ok := l[0]
		if !ok || len(s.Legal) == 0 {
			return false
		}
		var v struct {
			Trick struct {
				Cards []string `json:"cards"`
			} `json:"trick"`
			Phase string `json:"phase"`
		}
		json.Unmarshal(s.View, &v)
		return len(v.Trick.Cards) > 0
	}
	last := c.play(id, 3, midTrick)
	c.close()

	c2 := dial(t, ts.url, sess)
	seats, _ := c2.welcome["seats"].([]any)
	if len(seats) != 1 {
		t.Fatalf("welcome seats = %v, want the one seat", c2.welcome["seats"])
	}
	c2.send(map[string]any{"type": "watch", "table": id})
	var s state
	for s.Type != "state" {
		json.Unmarshal(c2.nextRaw(5*time.Second), &s)
	}
	if s.Seq != last[0].Seq || string(s.View) != string(last[0].View) || strings.Join(s.Legal, ",") != strings.Join(last[0].Legal, ",") {
		t.Fatalf("view after reconnect differs:\n%+v\n%+v", s, last[0])
	}
	// A hint for the seat to act: from the hard bot if a level is a Hinter.
	c2.send(map[string]any{"type": "hint", "table": id, "id": "h"})
	for {
		m := c2.next(15 * time.Second)
		if m.str("type") == "hint" {
			rs, _ := m["ratings"].([]any)
			if hinter() == nil || len(rs) == 0 {
				t.Errorf("hint: %v", m)
			}
			break
		}
		if m.str("type") == "error" {
			if hinter() != nil || m.str("code") != "no_hint" || m.str("message") != "no hint available" {
				t.Errorf("hint refused: %v", m)
			}
			break
		}
	}
	c2.send(map[string]any{"type": "watch", "table": id}) // the state again, to play on
	fin := c2.play(id, 4, nil)
	if fin[0].Status != "finished" {
		t.Fatal("game not finished")
	}
}

// TestBadInput sends every kind of bad input (protocol §Errors) and checks
// each gets an error naming the problem, changes nothing and leaves the
// connection working.
func TestBadInput(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServer(t, t.TempDir(), table.Config{})
	alice := dial(t, ts.url, newSession(t, ts.url, "alice"))
	bob := dial(t, ts.url, newSession(t, ts.url, "bob"))
	id := alice.createTable(map[string]any{"game": "papayoo", "options": map[string]string{"rounds": "1", "first_dealer": "0"}, "seat": 0,
		"bots": map[string]string{"2": "random", "3": "random"}})
	bob.send(map[string]any{"type": "join", "table": id, "seat": 1})
	bob.expect("joined", nil)
	var st state
	for st.Type != "state" || st.Status != "playing" {
		json.Unmarshal(alice.nextRaw(5*time.Second), &st)
	}
	// Bots pass at once; wait until only the humans must act.
	seq := st.Seq
	big := `{"type":"ping","pad":"` + strings.Repeat("x", MaxMessage) + `"}`
	cases := []struct {
		name, raw, code, inMsg string
	}{
		{"malformed JSON", `{"type":"move",`, "bad_json", "JSON"},
		{"not an object", `[1,2]`, "bad_json", "object"},
		{"unknown type", `{"type":"dance","id":5}`, "unknown_type", "dance"},
		{"no type", `{"id":5}`, "unknown_type", "no type"},
		{"wrong field type", `{"type":"move","table":7,"move":"x"}`, "bad_request", "table"},
		{"missing table", `{"type":"move","move":"play 1S"}`, "bad_request", "table"},
		{"oversize", big, "too_large", "8192"},
		{"unknown table", `{"type":"move","table":"t_nope","move":"play 1S"}`, "no_table", "t_nope"},
		{"malformed move", `{"type":"move","table":"` + id + `","move":"fly away"}`, "malformed", ""},
		{"illegal move", `{"type":"move","table":"` + id + `","move":"play 1S"}`, "", ""}, // pass phase: a play is refused
		{"foreign seat", `{"type":"move","table":"` + id + `","seat":1,"move":"play 1S"}`, "not_your_seat", "seat 1"},
		{"no such seat", `{"type":"move","table":"` + id + `","seat":9,"move":"play 1S"}`, "bad_seat", "seat 9"},
		{"bad id", `{"type":"ping","id":{"a":1}}`, "bad_request", "id"},
	}
	for _, c := range cases {
		alice.sendRaw([]byte(c.raw))
		m := alice.expect("error", nil)
		if c.code != "" && m.str("code") != c.code {
			t.Errorf("%s: code %q (%s), want %q", c.name, m.str("code"), m.str("message"), c.code)
		}
		if c.code == "" && m.str("code") != "illegal" && m.str("code") != "not_your_turn" && m.str("code") != "malformed" {
			t.Errorf("%s: code %q (%s), want a move refusal", c.name, m.str("code"), m.str("message"))
		}
		if !strings.Contains(m.str("message"), c.inMsg) {
			t.Errorf("%s: message %q does not name %q", c.name, m.str("message"), c.inMsg)
		}
		alice.send(map[string]any{"type": "ping", "id": c.name})
		if p := alice.expect("pong", nil); p.str("id") != c.name {
			t.Errorf("%s: pong id %v", c.name, p["id"])
		}
	}
	// A move by bob, who holds seat 1 but not seat 0.
	bob.send(map[string]any{"type": "move", "table": id, "seat": 0, "move": "play 1S"})
	if m := bob.expect("error", nil); m.str("code") != "not_your_seat" {
		t.Errorf("bob moving for seat 0: %v", m)
	}
	// Nothing changed: alice still has her pass to make at the same step
	// (bots may have passed meanwhile, which only adds chance-free moves).
	ev, _ := ts.s.store.Events(context.Background(), id)
	for _, e := range ev[:] {
		if !e.Chance && (e.Seat == 0 || e.Seat == 1) {
			t.Errorf("a refused input was logged: %d %s", e.Seat, e.Text)
		}
	}
	_ = seq
}

// TestFlood: a client over the rate gets rate_limited errors, then is
// disconnected; others are unaffected.
func TestFlood(t *testing.T) {
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 20, Burst: 40})
	c := dial(t, ts.url, newSession(t, ts.url, "flood"))
	for i := 0; i < 200; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := c.ws.Write(ctx, websocket.MessageText, []byte(`{"type":"ping"}`))
		cancel()
		if err != nil {
			break
		}
	}
	limited, pongs := 0, 0
	deadline := time.After(5 * time.Second)
loop:
	for {
		select {
		case b := <-c.in:
			var m msg
			json.Unmarshal(b, &m)
			if m.str("code") == "rate_limited" {
				limited++
			}
			if m.str("type") == "pong" {
				pongs++
			}
		case <-c.done:
			if len(c.in) > 0 {
				continue
			}
			break loop
		case <-deadline:
			t.Fatal("flooding client not disconnected")
		}
	}
	if pongs < 40 || limited == 0 {
		t.Errorf("pongs %d (want ≥ burst 40), rate_limited %d (want > 0); close: %v", pongs, limited, c.readErr)
	}
	other := dial(t, ts.url, newSession(t, ts.url, "calm"))
	other.send(map[string]any{"type": "ping"})
	other.expect("pong", nil)
}

// TestControlFrameFlood: a socket that sends WebSocket pings faster than
// wsconn.MaxControlPerSecond (each costs the server a pong's write, and the
// message rate does not see them) is closed with 1008 and counted in
// cardroom_rate_disconnects_total; others are unaffected.
func TestControlFrameFlood(t *testing.T) {
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 20, Burst: 40})
	c := dial(t, ts.url, newSession(t, ts.url, "pinger"))
	var err error
	for i := 0; i < 2*wsconn.MaxControlPerSecond+1 && err == nil; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		err = c.ws.Ping(ctx)
		cancel()
	}
	if err == nil {
		t.Fatalf("%d pings answered", 2*wsconn.MaxControlPerSecond+1)
	}
	<-c.done
	if got := websocket.CloseStatus(c.readErr); got != websocket.StatusPolicyViolation {
		t.Errorf("closed with %v (%v), want 1008", got, c.readErr)
	}
	// Counted once the server's reader has returned, just after the close.
	n := 0
	for end := time.Now().Add(5 * time.Second); n == 0 && time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		n = metricInt(t, ts.url, "cardroom_rate_disconnects_total")
	}
	if n != 1 {
		t.Errorf("cardroom_rate_disconnects_total = %d, want 1", n)
	}
	other := dial(t, ts.url, newSession(t, ts.url, "calm"))
	other.send(map[string]any{"type": "ping"})
	other.expect("pong", nil)
}

// TestAuth: forged, expired and missing tokens are refused over HTTP and
// WebSocket.
func TestAuth(t *testing.T) {
	ts := startServer(t, t.TempDir(), table.Config{})
	good := newSession(t, ts.url, "alice")
	expired := strings.Repeat("ab", 32)
	ts.s.store.CreateSession(context.Background(), store.Session{TokenHash: hashToken(expired), Player: "p_old", Name: "old",
		Created: time.Now().Add(-60 * 24 * time.Hour), Expires: time.Now().Add(-time.Hour)})
	if code := httpJSON(t, "GET", ts.url+"/api/session", "", nil, nil); code != 401 {
		t.Errorf("no token: GET /api/session %d, want 401", code)
	}
	for name, tok := range map[string]string{"forged": strings.Repeat("0", 64), "expired": expired, "short": "abc"} {
		if code := httpJSON(t, "GET", ts.url+"/api/session", tok, nil, nil); code != 401 {
			t.Errorf("%s token: GET /api/session %d, want 401", name, code)
		}
		h := http.Header{}
		h.Set("Authorization", "Bearer "+tok)
		_, resp, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(ts.url, "http")+"/ws", &websocket.DialOptions{HTTPHeader: h})
		if err == nil || resp == nil || resp.StatusCode != 401 {
			t.Errorf("%s token: websocket %v, want 401", name, err)
		}
	}
	var who struct{ Name string }
	if code := httpJSON(t, "GET", ts.url+"/api/session", good.Token, nil, &who); code != 200 || who.Name != "alice" {
		t.Errorf("good token: %d %+v", code, who)
	}
	// The cookie works too (browsers).
	req, _ := http.NewRequest("GET", ts.url+"/api/session", nil)
	req.AddCookie(&http.Cookie{Name: CookieName, Value: good.Token})
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("cookie: %v %v", err, resp)
	}
	// The session cookie is HttpOnly and SameSite.
	resp, _ = http.Post(ts.url+"/api/session", "application/json", strings.NewReader(`{"name":"bob"}`))
	ck := resp.Header.Get("Set-Cookie")
	if !strings.Contains(ck, "HttpOnly") || !strings.Contains(ck, "SameSite=Lax") {
		t.Errorf("Set-Cookie %q lacks HttpOnly or SameSite", ck)
	}
	// Without a token: an anonymous spectator that may watch but not act.
	anon := dial(t, ts.url, session{Name: "anon"})
	anon.send(map[string]any{"type": "create", "game": "papayoo"})
	if e := anon.expect("error", nil); e.str("code") != "unauthorized" {
		t.Errorf("anonymous create: %v", e)
	}
	if code := httpJSON(t, "POST", ts.url+"/api/session", "", map[string]string{"name": "<script>"}, nil); code != 400 {
		t.Errorf("bad name: %d, want 400", code)
	}
}

// TestLobbyPrivateSpectate: live lobby updates, private tables hidden and
// invite-only, spectators get the spectator view only.
func TestLobbyPrivateSpectate(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServer(t, t.TempDir(), table.Config{})
	alice := dial(t, ts.url, newSession(t, ts.url, "alice"))
	bob := dial(t, ts.url, newSession(t, ts.url, "bob"))
	bob.send(map[string]any{"type": "lobby", "subscribe": true})
	bob.expect("lobby", nil)
	pub := alice.createTable(map[string]any{"game": "papayoo", "options": map[string]string{"rounds": "1"}, "seat": 0})
	bob.expect("lobby", func(m msg) bool { return strings.Contains(mustMarshal(m), pub) })

	// Bad options are refused by the engine, naming the option.
	alice.send(map[string]any{"type": "create", "game": "papayoo", "options": map[string]string{"players": "99"}})
	if e := alice.expect("error", nil); e.str("code") != "bad_options" || !strings.Contains(e.str("message"), "players") {
		t.Errorf("bad options: %v", e)
	}
	alice.send(map[string]any{"type": "create", "game": "chess"})
	if e := alice.expect("error", nil); e.str("code") != "unknown_game" {
		t.Errorf("unknown game: %v", e)
	}

	alice.send(map[string]any{"type": "create", "id": 2, "game": "papayoo", "options": map[string]string{"rounds": "1"}, "private": true, "seat": 0,
		"bots": map[string]string{"1": "random", "2": "random"}})
	cr := alice.expect("created", nil)
	priv := cr["summary"].(map[string]any)
	if cr.str("table") != priv["id"] {
		t.Errorf("created: table %v, summary of %v", cr["table"], priv["id"])
	}
	privID, invite := priv["id"].(string), priv["invite"].(string)
	if invite == "" {
		t.Fatal("no invite for the owner")
	}
	var lobby struct {
		Tables []table.Summary `json:"tables"`
	}
	httpJSON(t, "GET", ts.url+"/api/tables", "", nil, &lobby)
	for _, s := range lobby.Tables {
		if s.ID == privID {
			t.Error("private table listed in the lobby")
		}
		if s.Invite != "" {
			t.Error("invite shown in the lobby")
		}
	}
	bob.send(map[string]any{"type": "join", "table": privID})
	if e := bob.expect("error", nil); e.str("code") != "forbidden" {
		t.Errorf("join private without invite: %v", e)
	}
	bob.send(map[string]any{"type": "watch", "table": privID, "invite": "wrong"})
	if e := bob.expect("error", nil); e.str("code") != "forbidden" {
		t.Errorf("watch private with a wrong invite: %v", e)
	}
	bob.send(map[string]any{"type": "join", "table": privID, "invite": invite})
	bob.expect("joined", nil)
	// The game started (4 seats filled). A spectator sees no hand.
	carol := dial(t, ts.url, newSession(t, ts.url, "carol"))
	carol.send(map[string]any{"type": "watch", "table": privID, "invite": invite})
	var s state
	for s.Type != "state" || s.Status != "playing" {
		json.Unmarshal(carol.nextRaw(5*time.Second), &s)
	}
	var v struct {
		Hand []string `json:"hand"`
	}
	json.Unmarshal(s.View, &v)
	if s.Seat != -1 || len(v.Hand) != 0 || len(s.Legal) != 0 {
		t.Errorf("spectator state: seat %d hand %v legal %v", s.Seat, v.Hand, s.Legal)
	}
	// Seat changes after the start are refused.
	alice.send(map[string]any{"type": "add_bot", "table": pub, "seat": 1, "level": "nonsense"})
	if e := alice.expect("error", nil); e.str("code") != "bad_level" {
		t.Errorf("bad level: %v", e)
	}
	bob.send(map[string]any{"type": "add_bot", "table": pub, "seat": 1})
	if e := bob.expect("error", nil); e.str("code") != "forbidden" {
		t.Errorf("add_bot by a non-owner: %v", e)
	}
}

func mustMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestQuickPlayAndOps: quick play starts at once; healthz and metrics answer.
func TestQuickPlayAndOps(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServer(t, t.TempDir(), table.Config{})
	sess := newSession(t, ts.url, "alice")
	var sum table.Summary
	if code := httpJSON(t, "POST", ts.url+"/api/quickplay", sess.Token, map[string]any{"game": "papayoo", "options": map[string]string{"rounds": "1"}}, &sum); code != 200 {
		t.Fatalf("quickplay: %d", code)
	}
	if sum.Status != "playing" || sum.Bots != 3 || sum.Humans != 1 {
		t.Errorf("quick play table: %+v", sum)
	}
	var body string
	if code := httpJSON(t, "GET", ts.url+"/healthz", "", nil, &body); code != 200 || !strings.Contains(body, "ok") {
		t.Errorf("healthz: %d %q", code, body)
	}
	c := dial(t, ts.url, sess)
	c.send(map[string]any{"type": "watch", "table": sum.ID})
	c.play(sum.ID, 1, nil)
	httpJSON(t, "GET", ts.url+"/metrics", "", nil, &body)
	for _, want := range []string{"cardroom_tables ", "cardroom_connections 1", "cardroom_moves_total", "cardroom_move_latency_seconds_bucket{le=\"+Inf\"}",
		"cardroom_games_finished_total 1", "process_resident_memory_bytes", "go_memstats_heap_alloc_bytes"} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	var games struct {
		Games  []protocol.GameInfo `json:"games"`
		Levels []string            `json:"levels"`
	}
	httpJSON(t, "GET", ts.url+"/api/games", "", nil, &games)
	if len(games.Games) == 0 || len(games.Levels) == 0 {
		t.Errorf("games: %+v", games)
	}
	// Hints: answered by a Hinter bot, or no_hint.
	c.send(map[string]any{"type": "hint", "table": sum.ID})
	m := c.expect("error", nil)
	if m.str("code") != "not_your_turn" && m.str("code") != "no_hint" {
		t.Errorf("hint on a finished game: %v", m)
	}
}
