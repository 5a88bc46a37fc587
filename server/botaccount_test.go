package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"cardroom/protocol"
	"cardroom/store"
	"cardroom/table"
)

// makeBotAccount claims name with a password on a fresh device and marks
// the account as a bot; it returns the device (its login session) and the
// first token.
func makeBotAccount(t *testing.T, base, name string) (*device, protocol.BotToken) {
	t.Helper()
	d := newDevice(t, base)
	d.guest(name)
	d.must("POST", "/api/account", protocol.ClaimReq{Password: "beep boop beep"}, nil)
	var tok protocol.BotToken
	d.must("POST", "/api/account/bot", protocol.BotReq{Label: "ci"}, &tok)
	return d, tok
}

// botCall is an HTTP request authenticated by a bot token only (no
// cookie); it returns the status and an error answer's code.
func botCall(t *testing.T, method, url, token string, body, out any) (int, protocol.Code) {
	t.Helper()
	var raw string
	st := httpJSON(t, method, url, token, body, &raw)
	if st != http.StatusOK {
		var e protocol.ErrorBody
		if err := json.Unmarshal([]byte(raw), &e); err != nil {
			t.Fatalf("%s %s: %d with a body that is not an error: %s", method, url, st, raw)
		}
		return st, e.Error.Code
	}
	if out != nil {
		if err := json.Unmarshal([]byte(raw), out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, url, err, raw)
		}
	}
	return st, ""
}

// TestBotAccountPlaysAGame: a bot account, with its token only, joins an
// open seat of a person's table over the protocol and plays the game to
// its end; its seat carries the BOT badge in the summary, the lobby and
// the state messages, and the badge survives a restart.
func TestBotAccountPlaysAGame(t *testing.T) {
	needGame(t, "papayoo")
	dir := t.TempDir()
	ts := startServerCfg(t, dir, Config{Rate: 10000, Burst: 10000, HTTPRate: -1, SessionsPerIPPerHour: -1, Accounts: fastHashes})
	owner, tok := makeBotAccount(t, ts.url, "Robo")
	if !strings.HasPrefix(tok.Token, protocol.BotTokenPrefix) || len(tok.Token) != len(protocol.BotTokenPrefix)+64 || len(tok.ID) != 16 || tok.Name != "Robo" || tok.Label != "ci" {
		t.Fatalf("token = %+v", tok)
	}
	var me protocol.Session
	if st, code := botCall(t, "GET", ts.url+"/api/session", tok.Token, nil, &me); st != 200 || me.Player != tok.Player || me.Name != "Robo" {
		t.Fatalf("GET /api/session with the token: %d %s %+v", st, code, me)
	}
	var info protocol.BotAccount
	owner.must("GET", "/api/account/bot", nil, &info)
	if !info.Bot || len(info.Tokens) != 1 || info.Tokens[0].ID != tok.ID || info.Since.IsZero() {
		t.Fatalf("bot account = %+v", info)
	}

	anna := newSession(t, ts.url, "Anna")
	ca := dial(t, ts.url, anna)
	id := ca.createTable(map[string]any{"game": "papayoo", "options": map[string]string{"rounds": "1"},
		"bots": map[string]string{"0": "random", "2": "random", "3": "random"}})

	cb := dial(t, ts.url, session{Token: tok.Token, Player: tok.Player, Name: "Robo"})
	if cb.welcome.str("player") != tok.Player {
		t.Errorf("welcome of the bot's socket: %v, want player %s", cb.welcome, tok.Player)
	}
	cb.send(map[string]any{"type": "join", "table": id, "id": "j"})
	last := cb.play(id, 7, nil)
	if last[1].Status != "finished" {
		t.Fatalf("the bot account's game did not finish: %+v", last[1])
	}
	if si := last[1].Seats[1]; !si.BotAccount || si.Kind != protocol.SeatHuman || si.Player != tok.Player {
		t.Errorf("the bot account's seat in its state = %+v, want a human seat with the BOT badge", si)
	}
	for _, si := range last[1].Seats {
		if si.Seat != 1 && si.BotAccount {
			t.Errorf("seat %d carries the BOT badge: %+v", si.Seat, si)
		}
	}
	var sum protocol.Summary
	if st := httpJSON(t, "GET", ts.url+"/api/tables/"+id, "", nil, &sum); st != 200 || !sum.Seats[1].BotAccount || sum.Seats[0].BotAccount {
		t.Errorf("summary %d: seats %+v, want seat 1 alone marked", st, sum.Seats)
	}
	if n := ts.s.Metrics().Finished.Load(); n != 1 {
		t.Errorf("games finished = %d, want 1", n)
	}
	// Its record names seat 1 as a bot account's (and as an account's,
	// which a bot account is), so a replay shows the badge too
	// (docs/records.md).
	var rec string
	if st := httpJSON(t, "GET", ts.url+"/api/records/"+id, "", nil, &rec); st != 200 ||
		!strings.Contains(rec, "[BotAccounts \"1\"]\n") || !strings.Contains(rec, "[Accounts \"1\"]\n") {
		t.Errorf("record %d lacks seat 1's marks:\n%s", st, rec)
	}
	if m := metricsText(t, ts.url); !strings.Contains(m, "cardroom_bot_accounts 1\n") || !strings.Contains(m, "cardroom_bot_tokens_issued_total 1\n") {
		t.Errorf("metrics lack the bot account and its token")
	}

	// After a restart the badge comes from the store (the table is no
	// longer in memory) and the token still works.
	ts.stop()
	ts = startServerCfg(t, dir, Config{Rate: 10000, Burst: 10000, HTTPRate: -1, SessionsPerIPPerHour: -1, Accounts: fastHashes})
	if !ts.s.isBotAccount(tok.Player) || ts.s.isBotAccount(anna.Player) {
		t.Errorf("after a restart: isBotAccount(bot) = %v, isBotAccount(Anna) = %v", ts.s.isBotAccount(tok.Player), ts.s.isBotAccount(anna.Player))
	}
	sum = protocol.Summary{}
	if st := httpJSON(t, "GET", ts.url+"/api/tables/"+id, "", nil, &sum); st != 200 || !sum.Seats[1].BotAccount {
		t.Errorf("stored summary after a restart %d: seats %+v, want seat 1 marked", st, sum.Seats)
	}
	if st, code := botCall(t, "GET", ts.url+"/api/session", tok.Token, nil, nil); st != 200 {
		t.Errorf("the token after a restart: %d %s", st, code)
	}
}

// TestBotTokenRevocation: revoking a token closes its sockets at once
// (unauthorized first) and refuses it afterwards; another token of the
// same bot keeps working; a token cannot manage tokens.
func TestBotTokenRevocation(t *testing.T) {
	ts := startAccounts(t, fastHashes)
	owner, t1 := makeBotAccount(t, ts.url, "Robo")
	var t2 protocol.BotToken
	owner.must("POST", "/api/account/bot", protocol.BotReq{Label: "spare"}, &t2)
	if t2.Token == t1.Token || t2.ID == t1.ID || t2.Player != t1.Player {
		t.Fatalf("second token %+v beside %+v", t2, t1)
	}
	c1 := dial(t, ts.url, session{Token: t1.Token, Player: t1.Player})
	c2 := dial(t, ts.url, session{Token: t2.Token, Player: t2.Player})
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/api/account/bot", protocol.BotReq{}},
		{"GET", "/api/account/bot", nil},
		{"DELETE", "/api/account/bot/tokens/" + t2.ID, nil},
		{"POST", "/api/logout", nil},
		{"GET", "/api/sessions", nil},
		{"DELETE", "/api/sessions", nil},
		{"DELETE", "/api/sessions/0123456789abcdef", nil},
		{"POST", "/api/account/password", protocol.PasswordReq{Current: "beep boop beep", Password: "another password"}},
		{"POST", "/api/account", protocol.ClaimReq{Password: "another password"}},
	} {
		if st, code := botCall(t, c.method, ts.url+c.path, t1.Token, c.body, nil); st != 403 || code != protocol.Forbidden {
			t.Errorf("%s %s with a bot token: %d %s, want 403 forbidden", c.method, c.path, st, code)
		}
	}
	var ss protocol.Sessions
	owner.must("GET", "/api/sessions", nil, &ss)
	if len(ss.Sessions) != 1 {
		t.Errorf("the owner's sessions after the refused requests = %+v, want the one", ss.Sessions)
	}
	var acc protocol.Account
	if st, code := botCall(t, "GET", ts.url+"/api/account", t1.Token, nil, &acc); st != 200 || acc.Player != t1.Player {
		t.Errorf("GET /api/account with a bot token: %d %s %+v", st, code, acc)
	}
	owner.must("DELETE", "/api/account/bot/tokens/"+t1.ID, nil, nil)
	waitClosed(t, c1, "the revoked token's socket")
	if st, code := botCall(t, "GET", ts.url+"/api/session", t1.Token, nil, nil); st != 401 || code != protocol.Unauthorized {
		t.Errorf("the revoked token: %d %s, want 401 unauthorized", st, code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var he *protocol.HandshakeError
	if _, err := protocol.Dial(ctx, ts.url, &protocol.Options{Token: t1.Token}); !errors.As(err, &he) || he.StatusCode != 401 {
		t.Errorf("WebSocket with the revoked token: %v, want a 401 handshake refusal", err)
	}
	c2.send(map[string]any{"type": "ping", "id": "p"})
	if m := c2.expect("pong", nil); m.str("type") != "pong" {
		t.Errorf("the other token's socket: %v", m)
	}
	if st, code, _ := owner.call("DELETE", "/api/account/bot/tokens/"+t1.ID, nil, nil); st != 404 || code != protocol.NoSession {
		t.Errorf("revoking twice: %d %s, want 404 no_session", st, code)
	}
	var info protocol.BotAccount
	owner.must("GET", "/api/account/bot", nil, &info)
	if len(info.Tokens) != 1 || info.Tokens[0].ID != t2.ID {
		t.Errorf("tokens after the revocation = %+v, want only %s", info.Tokens, t2.ID)
	}
}

// TestBotAccountRefusals: forged, malformed and misplaced tokens, marking
// a guest, bad labels, the bound on tokens and rated tables are refused
// with their code, and change nothing.
func TestBotAccountRefusals(t *testing.T) {
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, HTTPRate: -1, SessionsPerIPPerHour: -1, Accounts: fastHashes, Bots: BotConfig{TokensPerAccount: 2}})
	owner, tok := makeBotAccount(t, ts.url, "Robo")
	forged := protocol.BotTokenPrefix + strings.Repeat("ab", 32)
	for _, c := range []struct {
		what  string
		token string
	}{
		{"forged", forged},
		{"too short", protocol.BotTokenPrefix + "abc"},
		{"upper-case hex", strings.ToUpper(tok.Token[:4]) + strings.ToUpper(tok.Token[4:])},
		{"not hex", protocol.BotTokenPrefix + strings.Repeat("zz", 32)},
	} {
		if st, code := botCall(t, "GET", ts.url+"/api/session", c.token, nil, nil); st != 401 || code != protocol.Unauthorized {
			t.Errorf("%s token: %d %s, want 401 unauthorized", c.what, st, code)
		}
	}
	// A real token outside the Authorization header.
	req, _ := http.NewRequest("GET", ts.url+"/api/session", nil)
	req.AddCookie(&http.Cookie{Name: CookieName, Value: tok.Token})
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 401 {
		t.Errorf("bot token as a cookie: %v %v, want 401", resp.StatusCode, err)
	} else {
		resp.Body.Close()
	}
	if resp, err := http.Get(ts.url + "/ws?token=" + tok.Token); err != nil || resp.StatusCode != 401 {
		t.Errorf("bot token in the WebSocket URL: %v %v, want 401", resp.StatusCode, err)
	} else {
		resp.Body.Close()
	}

	guest := newDevice(t, ts.url)
	guest.guest("Guesty")
	for _, c := range []struct {
		what   string
		d      *device
		body   any
		status int
		code   protocol.Code
	}{
		{"a guest", guest, protocol.BotReq{}, 404, protocol.NoAccount},
		{"a long label", owner, protocol.BotReq{Label: strings.Repeat("x", protocol.MaxBotLabel+1)}, 400, protocol.BadRequest},
		{"a control character", owner, protocol.BotReq{Label: "a\x07b"}, 400, protocol.BadRequest},
		{"an unknown field", owner, map[string]any{"lable": "x"}, 400, protocol.BadRequest},
		{"not JSON", owner, "label=x", 400, protocol.BadJSON},
	} {
		if st, code, _ := c.d.call("POST", "/api/account/bot", c.body, nil); st != c.status || code != c.code {
			t.Errorf("%s: %d %s, want %d %s", c.what, st, code, c.status, c.code)
		}
	}
	// A seated player cannot become a bot.
	seated := newDevice(t, ts.url)
	seated.guest("Sitter")
	seated.must("POST", "/api/account", protocol.ClaimReq{Password: "sit sit sit"}, nil)
	seated.must("POST", "/api/quickplay", protocol.CreateReq{Game: "papayoo"}, nil)
	if st, code, _ := seated.call("POST", "/api/account/bot", protocol.BotReq{}, nil); st != 403 || code != protocol.Forbidden {
		t.Errorf("a seated player: %d %s, want 403 forbidden", st, code)
	}
	var info protocol.BotAccount
	if seated.must("GET", "/api/account/bot", nil, &info); info.Bot || len(info.Tokens) != 0 {
		t.Errorf("the refused seated player became a bot: %+v", info)
	}
	owner.must("GET", "/api/account/bot", nil, &info)
	if len(info.Tokens) != 1 {
		t.Fatalf("refusals issued tokens: %+v", info.Tokens)
	}
	owner.must("POST", "/api/account/bot", protocol.BotReq{}, nil) // the second of 2
	if st, code, _ := owner.call("POST", "/api/account/bot", protocol.BotReq{}, nil); st != 429 || code != protocol.RateLimited {
		t.Errorf("a third token with a bound of 2: %d %s, want 429 rate_limited", st, code)
	}
	if st, code, _ := owner.call("DELETE", "/api/account/bot/tokens/XYZ", nil, nil); st != 400 || code != protocol.BadRequest {
		t.Errorf("a malformed token id: %d %s, want 400 bad_request", st, code)
	}
	if st, code, _ := guest.call("GET", "/api/account/bot", nil, nil); st != 404 || code != protocol.NoAccount {
		t.Errorf("a guest's bot account: %d %s, want 404 no_account", st, code)
	}
	// Rated tables are for people.
	if st, code := botCall(t, "POST", ts.url+"/api/tables", tok.Token, protocol.CreateReq{Game: "papayoo", Rated: true, WhenEmpty: protocol.WhenEmptyEnd}, nil); st != 403 || code != protocol.Forbidden {
		t.Errorf("a rated table created by a bot account: %d %s, want 403 forbidden", st, code)
	}
	if m := metricsText(t, ts.url); !strings.Contains(m, "cardroom_bot_tokens_refused_total 5\n") {
		t.Errorf("refused tokens not counted 5 times (the upper-case one is no bot token) in:\n%s", grepLines(m, "cardroom_bot_"))
	}
	if err := ts.s.errIfBotStoreMissing(); err != nil {
		t.Error(err)
	}
}

// grepLines returns the lines of s that contain sub.
func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// errIfBotStoreMissing checks the test server's store keeps bot accounts
// (else every test above would pass on unavailable answers).
func (s *Server) errIfBotStoreMissing() error {
	if _, ok := s.store.(store.BotAccounts); !ok {
		return errors.New("the store keeps no bot accounts")
	}
	return nil
}

// TestBotSeatBadgeHook: the table marks exactly the bot accounts' human
// seats through Config.BotAccount.
func TestBotSeatBadgeHook(t *testing.T) {
	s := &Server{bots: &botAccounts{}}
	s.bots.set.Store("p_bot", time.Now())
	sum := &table.Summary{Seats: []table.SeatInfo{
		{Seat: 0, Kind: protocol.SeatHuman, Player: "p_bot"},
		{Seat: 1, Kind: protocol.SeatHuman, Player: "p_anna"},
		{Seat: 2, Kind: protocol.SeatBot, Level: "random"},
		{Seat: 3, Kind: protocol.SeatEmpty},
	}}
	s.markBotSeats(sum)
	for i, want := range []bool{true, false, false, false} {
		if sum.Seats[i].BotAccount != want {
			t.Errorf("seat %d marked %v, want %v", i, sum.Seats[i].BotAccount, want)
		}
	}
	if s.isBotAccount("") {
		t.Error("the empty player is a bot account")
	}
}

// TestBotAccountInvited: a bot account is invited to a private table like
// anyone: without the invite it is refused, with it it takes the seat.
func TestBotAccountInvited(t *testing.T) {
	needGame(t, "papayoo")
	ts := startAccounts(t, fastHashes)
	_, tok := makeBotAccount(t, ts.url, "Robo")
	anna := newSession(t, ts.url, "Anna")
	ca := dial(t, ts.url, anna)
	id := ca.createTable(map[string]any{"game": "papayoo", "options": map[string]string{"rounds": "1"}, "private": true,
		"bots": map[string]string{"0": "random", "2": "random"}})
	var sum protocol.Summary
	if st := httpJSON(t, "GET", ts.url+"/api/tables/"+id, anna.Token, nil, &sum); st != 200 || sum.Invite == "" {
		t.Fatalf("the owner's summary: %d %+v", st, sum)
	}
	cb := dial(t, ts.url, session{Token: tok.Token, Player: tok.Player})
	cb.send(map[string]any{"type": "join", "table": id, "id": "no-invite"})
	if m := cb.expect("error", nil); m.str("code") != string(protocol.Forbidden) {
		t.Errorf("join without the invite: %v, want forbidden", m)
	}
	cb.send(map[string]any{"type": "join", "table": id, "invite": sum.Invite, "id": "invited"})
	if m := cb.expect("joined", nil); m.num("seat") != 1 {
		t.Errorf("joined %v, want seat 1", m)
	}
}
