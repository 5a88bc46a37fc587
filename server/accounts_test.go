package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/cookiejar"
	"slices"
	"strings"
	"testing"
	"time"

	"cardroom/protocol"
	"cardroom/store"
)

// fastHashes are argon2id parameters cheap enough for many logins in a
// test; the parameters themselves are tested in TestPasswordHash.
var fastHashes = AccountsConfig{HashTime: 1, HashMemoryKiB: 256, LoginFailuresPerAccount: 100, LoginFailuresPerIP: 1000}

func startAccounts(t *testing.T, ac AccountsConfig) *testServer {
	t.Helper()
	return startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, HTTPRate: -1, SessionsPerIPPerHour: -1, Accounts: ac})
}

// device is one browser: its own cookie jar, so a "second device" shares
// nothing with the first.
type device struct {
	t    *testing.T
	base string
	c    *http.Client
}

func newDevice(t *testing.T, base string) *device {
	jar, _ := cookiejar.New(nil)
	return &device{t: t, base: base, c: &http.Client{Jar: jar, Timeout: 10 * time.Second}}
}

// call sends body (a string is sent as is, anything else as JSON) and
// decodes the answer into out; it returns the status and the error code
// of an error answer.
func (d *device) call(method, path string, body, out any) (int, protocol.Code, http.Header) {
	d.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		j, _ := json.Marshal(b)
		rd = bytes.NewReader(j)
	}
	req, _ := http.NewRequest(method, d.base+path, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := d.c.Do(req)
	if err != nil {
		d.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		var e protocol.ErrorBody
		if err := json.Unmarshal(raw, &e); err != nil {
			d.t.Fatalf("%s %s: %d with a body that is not an error: %s", method, path, resp.StatusCode, raw)
		}
		if e.Error.Code.HTTPStatus() != resp.StatusCode {
			d.t.Errorf("%s %s: code %s answered %d, its status is %d", method, path, e.Error.Code, resp.StatusCode, e.Error.Code.HTTPStatus())
		}
		return resp.StatusCode, e.Error.Code, resp.Header
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			d.t.Fatalf("%s %s: %v in %s", method, path, err, raw)
		}
	}
	return resp.StatusCode, "", resp.Header
}

// must is call expecting 200.
func (d *device) must(method, path string, body, out any) {
	d.t.Helper()
	if st, code, _ := d.call(method, path, body, out); st != http.StatusOK {
		d.t.Fatalf("%s %s: %d %s", method, path, st, code)
	}
}

// guest starts a guest session on the device.
func (d *device) guest(name string) protocol.Session {
	d.t.Helper()
	var s protocol.Session
	d.must("POST", "/api/session", protocol.SessionReq{Name: name}, &s)
	return s
}

func (d *device) login(name, password string) protocol.Session {
	d.t.Helper()
	var s protocol.Session
	d.must("POST", "/api/login", protocol.LoginReq{Name: name, Password: password}, &s)
	return s
}

func TestSkeleton(t *testing.T) {
	same := [][]string{
		{"Anna", "anna", "ANNA", "Ann a", "an_na", "an-na", "a.nna"},
		{"COKE", "СОКЕ" /* Cyrillic */, "coke"},
		{"KOKA", "ΚΟΚΑ" /* Greek */},
		{"Anna1", "Annal", "AnnaI", "Annai", "Anna ı"},
		{"B0B", "BOB", "bob"},
		{"morn", "mom", "m0rn"},
		{"will", "vvill", "wiII"},
		{"Straße", "STRASSE", "strasse"},
		{"ёлка", "ëлка"}, // Cyrillic ё = е + diaeresis, Latin ë = e + diaeresis
		{"НОРА", "нора", "HOPA", "hopa"},
		{"ΗΛΙΟΣ", "ηλιος", "Ηλιος"},
		{"İpek", "ipek", "IPEK", "ıpek"},
	}
	for _, g := range same {
		for _, n := range g[1:] {
			if skeleton(n) != skeleton(g[0]) {
				t.Errorf("skeleton(%q) = %q, skeleton(%q) = %q: want equal", n, skeleton(n), g[0], skeleton(g[0]))
			}
		}
	}
	differ := [][2]string{{"Anna", "Anne"}, {"René", "Rene"}, {"bob", "rob"}, {"Алиса", "Alice"}, {"Çağla", "Cagla"}}
	for _, p := range differ {
		if skeleton(p[0]) == skeleton(p[1]) {
			t.Errorf("skeleton(%q) = skeleton(%q) = %q: want different", p[0], p[1], skeleton(p[0]))
		}
	}
}

// FuzzSkeletonCase: two spellings of a valid name that differ only in
// case have one skeleton, whatever the letters.
func FuzzSkeletonCase(f *testing.F) {
	for _, s := range []string{"Anna", "İpek Çağla", "ΗΛΙΟΣ", "Алиса", "Straße", "ǅemal", "ſtar", "Ωmega"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := validName(s)
		if err != nil {
			return
		}
		up, err1 := validName(strings.ToUpper(n))
		lo, err2 := validName(strings.ToLower(n))
		if err1 != nil || err2 != nil {
			return
		}
		if skeleton(up) != skeleton(lo) {
			t.Errorf("skeleton(%q) = %q, skeleton(%q) = %q", up, skeleton(up), lo, skeleton(lo))
		}
	})
}

func TestPasswordHash(t *testing.T) {
	a := newAccounts(AccountsConfig{}, store.NewMemory())
	ctx := context.Background()
	h1, err := a.hash(ctx, "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := a.hash(ctx, "correct horse")
	if !strings.HasPrefix(h1, "$argon2id$v=19$m=19456,t=2,p=1$") || h1 == h2 {
		t.Errorf("hashes %q and %q: want the default parameters and a fresh salt each", h1, h2)
	}
	if ok, stale, err := a.verify(ctx, "correct horse", h1); !ok || stale || err != nil {
		t.Errorf("verify right password: %v %v %v", ok, stale, err)
	}
	if ok, _, err := a.verify(ctx, "correct horsE", h1); ok || err != nil {
		t.Errorf("verify wrong password: %v %v", ok, err)
	}
	// A hash made with other parameters still verifies, and is stale.
	weak := newAccounts(AccountsConfig{HashTime: 1, HashMemoryKiB: 64}, store.NewMemory())
	hw, _ := weak.hash(ctx, "correct horse")
	if ok, stale, err := a.verify(ctx, "correct horse", hw); !ok || !stale || err != nil {
		t.Errorf("verify a weaker hash: ok %v stale %v %v; want ok and stale", ok, stale, err)
	}
	for _, bad := range []string{
		"", "plain", "$argon2i$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5aw",
		"$argon2id$v=19$m=4194304,t=1,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5aw", // 4 GiB
		"$argon2id$v=19$m=64,t=99,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5aw",
		"$argon2id$v=19$m=64,t=1,p=1$!!$a2V5a2V5a2V5a2V5a2V5aw",
		"$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$",
	} {
		if _, err := decodeHash(bad); err == nil {
			t.Errorf("decodeHash(%q) accepted", bad)
		}
	}
}

func TestCheckPassword(t *testing.T) {
	for _, c := range []struct {
		pw, name string
		ok       bool
	}{
		{"12345678", "anna", true},
		{"1234567", "anna", false},
		{strings.Repeat("x", protocol.MaxPassword), "anna", true},
		{strings.Repeat("x", protocol.MaxPassword+1), "anna", false},
		{"\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8", "anna", false},
		{"AnnaBanana", "annabanana", false},
		{"ｐａｓｓｗｏｒｄ", "anna", true}, // fullwidth: NFKC makes it "password"
	} {
		got, err := checkPassword(c.pw, c.name)
		if (err == nil) != c.ok {
			t.Errorf("checkPassword(%.20q): %v, want ok=%v", c.pw, err, c.ok)
		}
		if err == nil && c.pw == "ｐａｓｓｗｏｒｄ" && got != "password" {
			t.Errorf("NFKC: %q", got)
		}
	}
}

// TestClaimAndLoginElsewhere: a guest plays, claims the name, and logs in
// on a second device (a fresh cookie jar) with another case of the name:
// same player id, same history; the guest's first session still works.
func TestClaimAndLoginElsewhere(t *testing.T) {
	ts := startAccounts(t, fastHashes)
	phone := newDevice(t, ts.url)
	g := phone.guest("Anna")
	var sum protocol.Summary
	phone.must("POST", "/api/quickplay", map[string]any{"game": "papayoo", "level": "random"}, &sum)
	if st, code, _ := phone.call("GET", "/api/account", nil, nil); st != 404 || code != protocol.NoAccount {
		t.Errorf("guest's account: %d %s, want 404 no_account", st, code)
	}
	var acc protocol.Account
	phone.must("POST", "/api/account", protocol.ClaimReq{Password: "open sesame"}, &acc)
	if acc.Player != g.Player || acc.Name != "Anna" {
		t.Fatalf("claimed %+v, want player %s named Anna", acc, g.Player)
	}

	laptop := newDevice(t, ts.url)
	s := laptop.login("anna", "open sesame")
	if s.Player != g.Player || s.Name != "Anna" || len(s.Token) != 64 || s.Token == g.Token {
		t.Errorf("login = %+v; want player %s, name Anna, a new token", s, g.Player)
	}
	var me protocol.Session
	laptop.must("GET", "/api/session", nil, &me) // by the cookie the login set
	if me.Player != g.Player {
		t.Errorf("the laptop's cookie is player %s", me.Player)
	}
	var h protocol.History
	laptop.must("GET", "/api/history", nil, &h)
	if len(h.Games) != 1 || h.Games[0].ID != sum.ID || h.Games[0].Seat != 0 {
		t.Errorf("history on the second device = %+v, want the guest's table %s", h.Games, sum.ID)
	}
	phone.must("GET", "/api/session", nil, &me)
	if me.Player != g.Player {
		t.Errorf("the guest's own session after the claim: %+v", me)
	}
	var ss protocol.Sessions
	laptop.must("GET", "/api/sessions", nil, &ss)
	cur := 0
	for _, x := range ss.Sessions {
		if x.Current {
			cur++
		}
	}
	if len(ss.Sessions) != 2 || cur != 1 || !ss.Sessions[0].Current {
		t.Errorf("sessions = %+v, want two, the newest (this one) marked", ss.Sessions)
	}
	// The account's rows as the ratings will see them.
	a, err := ts.s.store.(store.Accounts).AccountByPlayer(context.Background(), g.Player)
	if err != nil || !strings.HasPrefix(a.Hash, "$argon2id$v=19$m=256,t=1,p=1$") || a.Skeleton != skeleton("Anna") {
		t.Errorf("stored account %+v, %v", a, err)
	}
}

// TestAccountRefusals: bad input and taken names are refused with their
// code and change nothing.
func TestAccountRefusals(t *testing.T) {
	ts := startAccounts(t, fastHashes)
	anna := newDevice(t, ts.url)
	anna.guest("Anna")
	anna.must("POST", "/api/account", protocol.ClaimReq{Password: "open sesame"}, nil)
	hope := newDevice(t, ts.url)
	hope.guest("Hope")
	hope.must("POST", "/api/account", protocol.ClaimReq{Password: "hope hope"}, nil)
	for _, c := range []struct {
		what   string
		guest  string // the guest name of a fresh device ("" none)
		method string
		path   string
		body   any
		status int
		code   protocol.Code
	}{
		{"claim twice", "", "POST", "/api/account", protocol.ClaimReq{Password: "another one"}, 409, protocol.HasAccount},
		{"case variant", "Bob", "POST", "/api/account", protocol.ClaimReq{Name: "ANNA", Password: "open sesame"}, 409, protocol.NameTaken},
		{"look-alike in another script", "Bob", "POST", "/api/account", protocol.ClaimReq{Name: "Аnnа", Password: "open sesame"}, 400, protocol.BadRequest},
		{"space inside", "Bob", "POST", "/api/account", protocol.ClaimReq{Name: "Ann a", Password: "open sesame"}, 409, protocol.NameTaken},
		{"all Cyrillic look-alike", "Bob", "POST", "/api/account", protocol.ClaimReq{Name: "НОРЕ", Password: "open sesame"}, 409, protocol.NameTaken},
		{"digit for letter", "Bob", "POST", "/api/account", protocol.ClaimReq{Name: "H0PE", Password: "open sesame"}, 409, protocol.NameTaken},
		{"guest name of an account", "", "POST", "/api/session", protocol.SessionReq{Name: "anna"}, 409, protocol.NameTaken},
		{"guest look-alike", "", "POST", "/api/session", protocol.SessionReq{Name: "AnnA."}, 409, protocol.NameTaken},
		{"short password", "Bob", "POST", "/api/account", protocol.ClaimReq{Password: "short"}, 400, protocol.BadPassword},
		{"huge password", "Bob", "POST", "/api/account", protocol.ClaimReq{Password: strings.Repeat("x", 129)}, 400, protocol.BadPassword},
		{"password is the name", "Bobby Tables", "POST", "/api/account", protocol.ClaimReq{Password: "bobby tables"}, 400, protocol.BadPassword},
		{"missing password", "Bob", "POST", "/api/account", `{}`, 400, protocol.BadRequest},
		{"password of the wrong type", "Bob", "POST", "/api/account", `{"password": 12345678}`, 400, protocol.BadRequest},
		{"unknown field", "Bob", "POST", "/api/account", `{"password": "12345678", "admin": true}`, 400, protocol.BadRequest},
		{"not JSON", "Bob", "POST", "/api/account", `{"password": `, 400, protocol.BadJSON},
		{"two objects", "Bob", "POST", "/api/account", `{"password": "12345678"} {}`, 400, protocol.BadJSON},
		{"body over the limit", "Bob", "POST", "/api/account", `{"password": "` + strings.Repeat("x", MaxMessage) + `"}`, 413, protocol.TooLarge},
		{"bad name to claim", "Bob", "POST", "/api/account", protocol.ClaimReq{Name: "bot:hard", Password: "12345678"}, 400, protocol.BadRequest},
		{"claim without a session", "", "POST", "/api/account", protocol.ClaimReq{Password: "12345678"}, 401, protocol.Unauthorized},
		{"login without a name", "", "POST", "/api/login", protocol.LoginReq{Password: "open sesame"}, 400, protocol.BadRequest},
		{"login without a password", "", "POST", "/api/login", protocol.LoginReq{Name: "Anna"}, 400, protocol.BadRequest},
		{"login with a huge password", "", "POST", "/api/login", protocol.LoginReq{Name: "Anna", Password: strings.Repeat("x", 200)}, 400, protocol.BadPassword},
		{"login name of the wrong type", "", "POST", "/api/login", `{"name": ["Anna"], "password": "open sesame"}`, 400, protocol.BadRequest},
		{"login with a wrong password", "", "POST", "/api/login", protocol.LoginReq{Name: "Anna", Password: "open sesamE"}, 401, protocol.BadCredentials},
		{"login to no account", "", "POST", "/api/login", protocol.LoginReq{Name: "Nobody", Password: "open sesame"}, 401, protocol.BadCredentials},
		{"password change by a guest", "Bob", "POST", "/api/account/password", protocol.PasswordReq{Current: "12345678", Password: "87654321"}, 404, protocol.NoAccount},
		{"revoke a malformed id", "Bob", "DELETE", "/api/sessions/xyz", nil, 400, protocol.BadRequest},
		{"revoke someone else's session", "Bob", "DELETE", "/api/sessions/0123456789abcdef", nil, 404, protocol.NoSession},
	} {
		t.Run(c.what, func(t *testing.T) {
			d := anna
			if c.guest != "" {
				d = newDevice(t, ts.url)
				d.guest(c.guest)
			} else if c.path != "/api/account" {
				d = newDevice(t, ts.url)
			}
			if c.what == "claim without a session" {
				d = newDevice(t, ts.url)
			}
			st, code, _ := d.call(c.method, c.path, c.body, nil)
			if st != c.status || code != c.code {
				t.Errorf("%d %s, want %d %s", st, code, c.status, c.code)
			}
		})
	}
	// Nothing of that changed Anna's account or made another.
	acc := ts.s.store.(store.Accounts)
	a, err := acc.AccountBySkeleton(context.Background(), skeleton("Anna"))
	if err != nil || a.Name != "Anna" {
		t.Errorf("Anna's account after the refusals: %+v, %v", a, err)
	}
	newDevice(t, ts.url).login("Anna", "open sesame")
	var n int
	for _, name := range []string{"Bob", "Bobby Tables"} {
		if _, err := acc.AccountBySkeleton(context.Background(), skeleton(name)); err == nil {
			n++
		}
	}
	if n != 0 {
		t.Errorf("%d refused claims made an account", n)
	}
}

// TestLoginRateLimit: wrong passwords are limited per account (whatever
// the address) and per address (whatever the account); right ones are not
// charged there, but make sessions, under the address's session quota.
func TestLoginRateLimit(t *testing.T) {
	t.Run("per account", func(t *testing.T) {
		cfg := fastHashes
		cfg.LoginFailuresPerAccount, cfg.SessionsPerAccount = 3, 2
		ts := startAccounts(t, cfg)
		d := newDevice(t, ts.url)
		d.guest("Anna")
		d.must("POST", "/api/account", protocol.ClaimReq{Password: "open sesame"}, nil)
		for i := 0; i < 6; i++ { // successes are refunded
			newDevice(t, ts.url).login("Anna", "open sesame")
		}
		var ss protocol.Sessions
		d2 := newDevice(t, ts.url)
		d2.login("Anna", "open sesame")
		d2.must("GET", "/api/sessions", nil, &ss)
		if len(ss.Sessions) != 2 {
			t.Errorf("%d sessions, want the bound of 2", len(ss.Sessions))
		}
		for i := 0; i < 3; i++ {
			if st, code, _ := d2.call("POST", "/api/login", protocol.LoginReq{Name: "anna", Password: "guess guess"}, nil); code != protocol.BadCredentials {
				t.Fatalf("wrong password %d: %d %s", i, st, code)
			}
		}
		st, code, hdr := d2.call("POST", "/api/login", protocol.LoginReq{Name: "ANNA", Password: "open sesame"}, nil)
		if st != 429 || code != protocol.LoginLimitedAccount || hdr.Get("Retry-After") == "" {
			t.Errorf("fourth attempt, right password: %d %s (Retry-After %q), want 429 login_limited_account", st, code, hdr.Get("Retry-After"))
		}
		// Another account from the same address is not limited.
		e := newDevice(t, ts.url)
		e.guest("Erin")
		e.must("POST", "/api/account", protocol.ClaimReq{Password: "erin erin"}, nil)
		newDevice(t, ts.url).login("Erin", "erin erin")
		if !strings.Contains(metricsText(t, ts.url), "cardroom_login_limited_account_total 1\n") {
			t.Error("the per-account refusal is not counted in /metrics")
		}
	})
	t.Run("per address", func(t *testing.T) {
		cfg := fastHashes
		cfg.LoginFailuresPerIP = 4
		ts := startAccounts(t, cfg)
		d := newDevice(t, ts.url)
		d.guest("Anna")
		d.must("POST", "/api/account", protocol.ClaimReq{Password: "open sesame"}, nil)
		for i, name := range []string{"a1", "a2", "a3", "a4"} {
			if _, code, _ := d.call("POST", "/api/login", protocol.LoginReq{Name: name, Password: "guess guess"}, nil); code != protocol.BadCredentials {
				t.Fatalf("guess %d: %s", i, code)
			}
		}
		st, code, _ := d.call("POST", "/api/login", protocol.LoginReq{Name: "Anna", Password: "open sesame"}, nil)
		if st != 429 || code != protocol.LoginLimitedAddress {
			t.Errorf("after 4 failures from one address: %d %s, want 429 login_limited_address", st, code)
		}
	})
	// Logins make sessions: past the address's session quota a login is
	// refused before its password is hashed (a successful one is refunded
	// from the failure buckets, so nothing else held it back), and a
	// refused login gives its session token back.
	t.Run("past the session quota", func(t *testing.T) {
		ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, HTTPRate: -1, SessionsPerIPPerHour: 4, Accounts: fastHashes})
		d := newDevice(t, ts.url)
		d.guest("Anna") // the first session
		d.must("POST", "/api/account", protocol.ClaimReq{Password: "open sesame"}, nil)
		for i := range 3 {
			if _, code, _ := d.call("POST", "/api/login", protocol.LoginReq{Name: "Anna", Password: "guess guess"}, nil); code != protocol.BadCredentials {
				t.Fatalf("wrong password %d: %s", i, code)
			}
		}
		d.login("Anna", "open sesame")
		d.login("Anna", "open sesame")
		d.login("Anna", "open sesame") // four sessions: the quota
		hashes := ts.s.acct.hashes.Load()
		if st, code, _ := d.call("POST", "/api/login", protocol.LoginReq{Name: "Anna", Password: "open sesame"}, nil); st != 429 || code != protocol.RateLimited {
			t.Errorf("a login past the session quota: %d %s, want 429 rate_limited", st, code)
		}
		if n := ts.s.acct.hashes.Load() - hashes; n != 0 {
			t.Errorf("a login past the session quota computed %d hashes, want 0", n)
		}
	})
}

func metricsText(t *testing.T, base string) string {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// waitClosed waits for a client's socket to be closed by the server, and
// checks it was told why.
func waitClosed(t *testing.T, c *client, what string) {
	t.Helper()
	select {
	case <-c.done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: the socket is still open", what)
	}
	saw := false
	for len(c.in) > 0 {
		var m msg
		json.Unmarshal(<-c.in, &m)
		saw = saw || m.str("type") == "error" && m.str("code") == "unauthorized"
	}
	if !saw {
		t.Errorf("%s: no unauthorized error before the close", what)
	}
}

// TestRevokeSessions: revoking one session, and logging out everywhere,
// end those tokens and close their live sockets.
func TestRevokeSessions(t *testing.T) {
	ts := startAccounts(t, fastHashes)
	d1 := newDevice(t, ts.url)
	g := d1.guest("Anna")
	d1.must("POST", "/api/account", protocol.ClaimReq{Password: "open sesame"}, nil)
	d2, d3 := newDevice(t, ts.url), newDevice(t, ts.url)
	s2, s3 := d2.login("Anna", "open sesame"), d3.login("Anna", "open sesame")
	ws2 := dial(t, ts.url, session{s2.Token, s2.Player, "ws2"})
	ws3 := dial(t, ts.url, session{s3.Token, s3.Player, "ws3"})
	ws1 := dial(t, ts.url, session{g.Token, g.Player, "ws1"})

	var ss protocol.Sessions
	d1.must("GET", "/api/sessions", nil, &ss)
	id2 := sessionID(hashToken(s2.Token))
	found := false
	for _, x := range ss.Sessions {
		found = found || x.ID == id2 && !x.Current
		if strings.Contains(x.ID, s2.Token) || len(x.ID) != sessionIDLen {
			t.Errorf("session id %q: want %d hex digits that are not the token", x.ID, sessionIDLen)
		}
	}
	if !found {
		t.Fatalf("sessions %+v lack %s", ss.Sessions, id2)
	}
	var rv protocol.Revoked
	d1.must("DELETE", "/api/sessions/"+id2, nil, &rv)
	waitClosed(t, ws2, "revoked session's socket")
	if st, _, _ := d2.call("GET", "/api/session", nil, nil); st != 401 {
		t.Errorf("revoked token: %d, want 401", st)
	}
	if st, code, _ := d1.call("DELETE", "/api/sessions/"+id2, nil, nil); code != protocol.NoSession {
		t.Errorf("revoke it again: %d %s", st, code)
	}
	select {
	case <-ws3.done:
		t.Fatal("revoking one session closed another's socket")
	case <-time.After(100 * time.Millisecond):
	}

	d3.must("DELETE", "/api/sessions", nil, &rv)
	if rv.Revoked != 2 {
		t.Errorf("log out everywhere revoked %d, want 2", rv.Revoked)
	}
	waitClosed(t, ws3, "log out everywhere: this device's socket")
	waitClosed(t, ws1, "log out everywhere: the other device's socket")
	for i, d := range []*device{d1, d3} {
		if st, _, _ := d.call("GET", "/api/session", nil, nil); st != 401 {
			t.Errorf("device %d after log out everywhere: %d, want 401", i, st)
		}
	}
	// The account itself stays: logging in again works.
	if s := newDevice(t, ts.url).login("Anna", "open sesame"); s.Player != g.Player {
		t.Errorf("login after log out everywhere: %+v", s)
	}
}

// TestPasswordChange: the current password is needed; the change ends the
// other sessions (and their sockets) and keeps this one; only the new
// password logs in.
func TestPasswordChange(t *testing.T) {
	ts := startAccounts(t, fastHashes)
	d1 := newDevice(t, ts.url)
	d1.guest("Anna")
	d1.must("POST", "/api/account", protocol.ClaimReq{Password: "open sesame"}, nil)
	d2 := newDevice(t, ts.url)
	s2 := d2.login("Anna", "open sesame")
	ws2 := dial(t, ts.url, session{s2.Token, s2.Player, "ws2"})

	for _, c := range []struct {
		req  protocol.PasswordReq
		code protocol.Code
	}{
		{protocol.PasswordReq{Current: "not it at all", Password: "new sesame"}, protocol.WrongPassword},
		{protocol.PasswordReq{Current: "open sesame", Password: "short"}, protocol.BadPassword},
		{protocol.PasswordReq{Password: "new sesame"}, protocol.BadRequest},
	} {
		if _, code, _ := d1.call("POST", "/api/account/password", c.req, nil); code != c.code {
			t.Errorf("%+v: %s, want %s", c.req, code, c.code)
		}
	}
	if st, _, _ := d2.call("GET", "/api/session", nil, nil); st != 200 {
		t.Fatal("a refused change ended a session")
	}
	var rv protocol.Revoked
	d1.must("POST", "/api/account/password", protocol.PasswordReq{Current: "open sesame", Password: "new sesame"}, &rv)
	if rv.Revoked != 1 {
		t.Errorf("revoked %d sessions, want 1", rv.Revoked)
	}
	waitClosed(t, ws2, "the other device's socket")
	if st, _, _ := d2.call("GET", "/api/session", nil, nil); st != 401 {
		t.Errorf("the other session after the change: %d", st)
	}
	if st, _, _ := d1.call("GET", "/api/session", nil, nil); st != 200 {
		t.Errorf("this session after the change: %d", st)
	}
	if _, code, _ := newDevice(t, ts.url).call("POST", "/api/login", protocol.LoginReq{Name: "Anna", Password: "open sesame"}, nil); code != protocol.BadCredentials {
		t.Errorf("old password: %s", code)
	}
	newDevice(t, ts.url).login("Anna", "new sesame")
}

// TestHashBusy: with every hashing slot taken, a login is refused busy (and
// not charged to the limiters), and the refusal is counted.
func TestHashBusy(t *testing.T) {
	cfg := fastHashes
	cfg.HashConcurrency, cfg.HashWait, cfg.LoginFailuresPerAccount = 1, 20*time.Millisecond, 1
	ts := startAccounts(t, cfg)
	d := newDevice(t, ts.url)
	d.guest("Anna")
	d.must("POST", "/api/account", protocol.ClaimReq{Password: "open sesame"}, nil)
	ts.s.acct.sem <- struct{}{} // the one slot
	for i := 0; i < 3; i++ {
		if st, code, _ := d.call("POST", "/api/login", protocol.LoginReq{Name: "Anna", Password: "open sesame"}, nil); st != 503 || code != protocol.Busy {
			t.Errorf("login with no slot: %d %s, want 503 busy", st, code)
		}
	}
	<-ts.s.acct.sem
	newDevice(t, ts.url).login("Anna", "open sesame") // the busy refusals were refunded
	m := metricsText(t, ts.url)
	for _, want := range []string{"cardroom_password_hash_busy_total 3\n", "cardroom_logins_total 1\n", "cardroom_accounts_claimed_total 1\n", "cardroom_password_hashing 0\n"} {
		if !strings.Contains(m, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

// TestGoClientAccounts: the protocol package's Claim and Login, as a bot
// written in Go uses them: the login's token dials as the same player.
func TestGoClientAccounts(t *testing.T) {
	ts := startAccounts(t, fastHashes)
	ctx := context.Background()
	g := newSession(t, ts.url, "Robo")
	if _, err := protocol.Claim(ctx, nil, ts.url, g.Token, "", "beep boop"); err != nil {
		t.Fatal(err)
	}
	s, err := protocol.Login(ctx, nil, ts.url, "robo", "beep boop")
	if err != nil || s.Player != g.Player {
		t.Fatalf("login = %+v, %v; want player %s", s, err, g.Player)
	}
	c := dial(t, ts.url, session{s.Token, s.Player, s.Name})
	if c.welcome.str("player") != g.Player || c.welcome.str("name") != "Robo" {
		t.Errorf("welcome after login = %v", c.welcome)
	}
	_, err = protocol.Login(ctx, nil, ts.url, "robo", "beep beep")
	var he *protocol.HTTPError
	if !errors.As(err, &he) || he.Body.Error.Code != protocol.BadCredentials {
		t.Errorf("wrong password: %v", err)
	}
}

// TestAccountFormPost: a cross-site form (text/plain or form-encoded) is
// refused before anything is read, so it cannot log a visitor in.
func TestAccountFormPost(t *testing.T) {
	ts := startAccounts(t, fastHashes)
	d := newDevice(t, ts.url)
	d.guest("Anna")
	d.must("POST", "/api/account", protocol.ClaimReq{Password: "open sesame"}, nil)
	for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"} {
		req, _ := http.NewRequest("POST", ts.url+"/api/login", strings.NewReader(`{"name": "Anna", "password": "open sesame"}`))
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 400 || len(resp.Cookies()) != 0 {
			t.Errorf("login posted as %q: %d with %d cookies, want 400 and none", ct, resp.StatusCode, len(resp.Cookies()))
		}
	}
}

// TestAccountsWithoutStore: a store without accounts keeps guests working
// and answers the account endpoints unavailable.
func TestAccountsWithoutStore(t *testing.T) {
	ts := startServerCfg(t, t.TempDir(), Config{Store: guestOnly{store.NewMemory()}, HTTPRate: -1})
	d := newDevice(t, ts.url)
	d.guest("Anna")
	if st, code, _ := d.call("POST", "/api/account", protocol.ClaimReq{Password: "open sesame"}, nil); st != 503 || code != protocol.Unavailable {
		t.Errorf("claim: %d %s", st, code)
	}
}

// guestOnly hides a store's Accounts.
type guestOnly struct{ store.Store }

// TestAccountSeatsMarked: a seat taken by an account's player carries the
// account mark (SeatInfo.Account) in the state messages and the summary,
// and from the store after a restart; a guest's seat, a bot's and an empty
// one do not (docs/accounts.md, "Guests and account names": a guest who
// took a name before it was claimed must not pass for its owner).
func TestAccountSeatsMarked(t *testing.T) {
	needGame(t, "papayoo")
	dir := t.TempDir()
	cfg := Config{Rate: 10000, Burst: 10000, HTTPRate: -1, SessionsPerIPPerHour: -1, Accounts: fastHashes}
	ts := startServerCfg(t, dir, cfg)
	anna := dial(t, ts.url, newMember(t, ts.url, "Anna")) // ratings_test.go
	id := anna.createTable(map[string]any{"game": "papayoo", "options": map[string]string{"rounds": "1"},
		"seat": 0, "bots": map[string]string{"3": "random"}})
	bob := dial(t, ts.url, newSession(t, ts.url, "Bob"))
	bob.send(map[string]any{"type": "join", "table": id, "id": "j", "seat": 1})
	m := bob.expect("state", func(m msg) bool {
		seats, _ := m["seats"].([]any)
		return len(seats) == 4 && seats[1].(map[string]any)["name"] == "Bob"
	})
	want := []bool{true, false, false, false} // Anna, Bob (a guest), empty, a bot
	check := func(where string, seats []protocol.SeatInfo) {
		t.Helper()
		if len(seats) != len(want) {
			t.Fatalf("%s: %d seats, want %d", where, len(seats), len(want))
		}
		for i, si := range seats {
			if si.Account != want[i] {
				t.Errorf("%s: seat %d %+v: account mark %v, want %v", where, i, si, si.Account, want[i])
			}
		}
	}
	raw, _ := json.Marshal(m["seats"])
	var inState []protocol.SeatInfo
	if err := json.Unmarshal(raw, &inState); err != nil {
		t.Fatal(err)
	}
	check("state message", inState)
	var sum protocol.Summary
	if st := httpJSON(t, "GET", ts.url+"/api/tables/"+id, "", nil, &sum); st != 200 {
		t.Fatalf("summary: %d", st)
	}
	check("summary", sum.Seats)

	// The mark is kept with the seat: after a restart the open table is
	// loaded from the store with it.
	anna.close()
	bob.close()
	ts.stop()
	ts = startServerCfg(t, dir, cfg)
	sum = protocol.Summary{}
	if st := httpJSON(t, "GET", ts.url+"/api/tables/"+id, "", nil, &sum); st != 200 {
		t.Fatalf("summary after a restart: %d", st)
	}
	check("summary after a restart", sum.Seats)
}

// TestAccountsInRecord: a finished game's record names the seats whose
// players held an account when they sat down (the Accounts tag,
// docs/records.md), so its replay marks them as the table did; a guest's
// seat and a bot's are not in it, and a game without accounts has no tag.
func TestAccountsInRecord(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, HTTPRate: -1, SessionsPerIPPerHour: -1, Accounts: fastHashes})
	for _, tc := range []struct {
		name, tag string
		sess      func() session
	}{
		{"account", `[Accounts "1"]`, func() session { return newMember(t, ts.url, "Anna") }},
		{"guest", "", func() session { return newSession(t, ts.url, "Bob") }},
	} {
		c := dial(t, ts.url, tc.sess())
		id := c.createTable(map[string]any{"game": "papayoo", "options": quickOptions("papayoo"), "seat": 1,
			"bots": map[string]string{"0": "random", "2": "random", "3": "random"}})
		c.play(id, 1, nil)
		waitFinished(t, ts, id)
		c.close()
		var body string
		if code := httpJSON(t, "GET", ts.url+"/api/records/"+id, "", nil, &body); code != 200 {
			t.Fatalf("%s: record: HTTP %d %s", tc.name, code, body)
		}
		var got []string
		for _, line := range strings.Split(body, "\n") {
			if strings.HasPrefix(line, "[Accounts ") {
				got = append(got, line)
			}
		}
		want := []string{}
		if tc.tag != "" {
			want = append(want, tc.tag)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s at seat 1: Accounts tags %q, want %q", tc.name, got, want)
		}
	}
}

// TestPasswordChangeCharged: a password change costs two hashes (the
// current password checked, the new one made), a slot of the room's few
// hashing workers each, so it takes a token of the address's session quota
// as a login does, kept when the change is made: one account flipping its
// password back and forth is refused once the quota is spent, and no hash
// is computed for the refused change.
func TestPasswordChangeCharged(t *testing.T) {
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, SessionsPerIPPerHour: 4, Accounts: fastHashes})
	d := newDevice(t, ts.url)
	d.guest("Anna") // a session: one of the four
	d.must("POST", "/api/account", protocol.ClaimReq{Password: "open sesame"}, nil)
	pw := []string{"open sesame", "new sesame"}
	changed := 0
	for i := range 6 {
		before := ts.s.acct.hashes.Load()
		st, code, _ := d.call("POST", "/api/account/password", protocol.PasswordReq{Current: pw[i%2], Password: pw[(i+1)%2]}, nil)
		if st != 200 {
			if st != http.StatusTooManyRequests || code != protocol.RateLimited {
				t.Fatalf("change %d: %d %s, want 200 or 429 rate_limited", i+1, st, code)
			}
			if n := ts.s.acct.hashes.Load() - before; n != 0 {
				t.Errorf("a refused change computed %d hashes", n)
			}
			break
		}
		changed++
	}
	if changed != 3 {
		t.Errorf("%d password changes before the refusal; want 3 (a quota of 4, one taken by the session)", changed)
	}
}
