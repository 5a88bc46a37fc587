package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"cardroom/protocol"
)

// TestAccountSignUpAndLogIn: a guest claims their name with a password,
// logs out, and logs in again in a fresh browser context (no cookies):
// the same name and player id, and the account view lists the session.
func TestAccountSignUpAndLogIn(t *testing.T) {
	e := newEnv(t)
	a := e.tab("anna")
	a.login("Anna")
	player, err := eval[string](a, `window.cardroom.me.player`)
	if err != nil || !strings.HasPrefix(player, "p_") {
		t.Fatalf("guest player id: %q, %v", player, err)
	}
	a.claimName("open sesame", tid("account-info"))
	a.must(5*time.Second, "the current session", waitVisible(tid("session-current")))
	a.screenshot("account-claimed")
	a.must(15*time.Second, "log out",
		clickOn(tid("logout")),
		waitVisible(tid("login-form")),
	)
	if me, _ := eval[bool](a, `window.cardroom.me === null`); !me {
		t.Error("still logged in after log out")
	}

	b := e.tab("anna-elsewhere")
	b.must(20*time.Second, "log in on another device",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(e.base+"/"),
		waitVisible(tid("login-form")),
	)
	b.screenshot("account-login-page")
	b.must(20*time.Second, "log in",
		sendKeys(tid("login-name"), "anna"),
		sendKeys(tid("login-password"), "open sesame"),
		clickOn(tid("login-submit")),
		waitVisible(tid("create-form")),
	)
	name, err := eval[string](b, `document.querySelector('[data-testid=me-name]').textContent`)
	if err != nil || !strings.Contains(name, "Anna") {
		t.Errorf("header on the second device: %q, %v; want Anna", name, err)
	}
	if p, _ := eval[string](b, `window.cardroom.me.player`); p != player {
		t.Errorf("player id on the second device %q, want the guest's %q", p, player)
	}
	b.must(15*time.Second, "the account view",
		clickOn(tid("account-link")),
		waitVisible(tid("account-info")),
		waitVisible(tid("session-current")),
	)
	if n, _ := eval[int](b, `document.querySelectorAll('[data-testid^=revoke-]').length`); n != 1 {
		t.Errorf("%d sessions listed, want 1 (the first device logged out)", n)
	}
	b.screenshot("account-second-device")

	// A wrong password is refused with its own message.
	c := e.tab("impostor")
	c.must(20*time.Second, "a wrong password",
		chromedp.Navigate(e.base+"/"),
		waitVisible(tid("login-form")),
		sendKeys(tid("login-name"), "Anna"),
		sendKeys(tid("login-password"), "not the one"),
		clickOn(tid("login-submit")),
		waitVisible(tid("error-toast")),
	)
	if code, _ := eval[string](c, `(window.cardroom.errors.at(-1) || {}).code`); code != "bad_credentials" {
		t.Errorf("wrong password: error %q, want bad_credentials", code)
	}

	// Anna's seat is marked as an account's, in the lobby and at the
	// table; a guest's is not (docs/accounts.md, "Guests and account
	// names").
	b.must(10*time.Second, "back to the lobby", clickOn(tid("home")), waitVisible(tid("create-form")))
	id := b.createTable("papayoo", 3, map[string]string{"rounds": "1"}, []int{1})
	d := e.tab("guest")
	d.login("Bob")
	d.must(15*time.Second, "Anna's table in the lobby with her mark",
		waitVisible(`[data-testid=lobby-row][data-table="`+id+`"] [data-testid=seat-account]`))
	if n, _ := eval[int](d, `document.querySelectorAll('[data-testid=lobby-row][data-table="`+id+`"] .account-mark').length`); n != 1 {
		t.Errorf("%d account marks on the lobby's line of the table, want 1 (Anna's)", n)
	}
	// Anna's name there opens her profile.
	if href, _ := eval[string](d, `document.querySelector('[data-testid=lobby-row][data-table="`+id+`"] [data-testid=seat-profile]').getAttribute('href')`); href != "#/players/"+player {
		t.Errorf("the lobby's link on Anna's name: %q, want #/players/%s", href, player)
	}
	d.joinFromLobby(20*time.Second, "join Anna's table", id, tid("seat-1"))
	d.must(15*time.Second, "the marks at the table", waitVisible(tid("account-badge-0")))
	for _, tb := range []*tab{b, d} {
		tb.must(15*time.Second, "Bob at the table", waitVisible(`[data-testid=seat-1] .name`))
		marks, _ := eval[[]string](tb, `[...document.querySelectorAll('.seat .account-mark')].map((m) => m.dataset.testid + ' ' + m.title)`)
		if len(marks) != 1 || marks[0] != "account-badge-0 An account: this name is registered to this player" {
			t.Errorf("%s: account marks on the seats %q, want Anna's seat 0 alone", tb.name, marks)
		}
		// The score sheet names the players too: Anna's row alone.
		rows, _ := eval[[]string](tb, `[...document.querySelectorAll('.panel.scores .account-mark')].map((m) => m.closest('tr').dataset.testid)`)
		if len(rows) != 1 || rows[0] != "score-row-0" {
			t.Errorf("%s: account marks on the score sheet in rows %q, want score-row-0 alone", tb.name, rows)
		}
	}
	d.screenshot("account-mark")
	e.checkJS()
}

// claimName claims the guest's name with password from the account page
// (the form asks for it twice), then waits for what the claimed account
// shows, until shows is visible.
func (b *tab) claimName(password string, shows chromedp.CSS) {
	b.must(15*time.Second, "claim the name",
		clickOn(tid("account-link")),
		waitVisible(tid("claim-form")),
		sendKeys(tid("claim-password"), password),
		sendKeys(tid("claim-password2"), password),
		clickOn(tid("claim-submit")),
		waitVisible(shows),
	)
}

// loginAccount logs in to an account with the login form.
func (b *tab) loginAccount(name, password string) {
	b.must(20*time.Second, "log in to "+name,
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(b.e.base+"/"),
		waitVisible(tid("login-form")),
		sendKeys(tid("login-name"), name),
		sendKeys(tid("login-password"), password),
		clickOn(tid("login-submit")),
		waitVisible(tid("create-form")),
	)
}

// TestAccountRevokeElsewhere: one browser revokes the other's session from
// the account view; the other's socket is closed and its page goes back
// to the login view, saying why.
func TestAccountRevokeElsewhere(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	g, err := protocol.NewSession(ctx, nil, e.base, "Bora")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := protocol.Claim(ctx, nil, e.base, g.Token, "", "open sesame"); err != nil {
		t.Fatal(err)
	}
	a, b := e.tab("phone"), e.tab("laptop")
	a.loginAccount("Bora", "open sesame")
	a.must(10*time.Second, "connected", waitVisible(tid("conn-online")))
	b.loginAccount("bora", "open sesame")
	b.must(15*time.Second, "the account view",
		clickOn(tid("account-link")),
		waitVisible(tid("session-current")),
	)
	// Three sessions: the guest's (from the Go client), a's and b's. Revoke
	// every one that is not b's.
	n, err := eval[int](b, `document.querySelectorAll('[data-testid^=revoke-]').length`)
	if err != nil || n != 3 {
		t.Fatalf("%d sessions listed, want 3: %v", n, err)
	}
	for i := 0; i < 2; i++ {
		b.must(10*time.Second, "revoke another session",
			clickOn(chromedp.CSS(`tr:not(:has([data-testid=session-current])) [data-testid^=revoke-]`)),
			pollFor[chromedp.Void](`document.querySelectorAll('[data-testid^=revoke-]').length === `+[]string{"2", "1"}[i]),
		)
	}
	a.must(15*time.Second, "the revoked page is back at the login view", waitVisible(tid("session-ended")), waitVisible(tid("login-form")))
	if me, _ := eval[bool](a, `window.cardroom.me === null`); !me {
		t.Error("the revoked page still has an identity")
	}
	if online, _ := eval[bool](b, `!!document.querySelector('[data-testid=conn-online]')`); !online {
		t.Error("the revoking page lost its own connection")
	}
	e.checkJS()
}

// TestBotAccountPage: an account's owner makes it a bot from the account
// page (after a confirmation), gets a token shown once, with which a
// program is that player on the API; the token is listed by its label and
// revoked from the page, after which the API refuses it, and a reload no
// longer shows it.
func TestBotAccountPage(t *testing.T) {
	e := newEnv(t)
	a := e.tab("robo")
	a.login("Robo")
	player, _ := eval[string](a, `window.cardroom.me.player`)
	a.claimName("beep boop beep", `[data-testid=bot-panel][data-bot="0"]`)
	// The confirmation is answered yes (the page asks before a change for good).
	if _, err := eval[bool](a, `(window.confirm = () => true, true)`); err != nil {
		t.Fatal(err)
	}
	// (Through the keyboard: the claim's toast may lie over the button.)
	a.must(15*time.Second, "make the account a bot",
		sendKeys(tid("bot-label"), "laptop"),
		focusOn(tid("bot-make")), chromedp.KeyEvent(kb.Enter),
		waitVisible(tid("bot-fresh-token")),
		waitVisible(`[data-testid=bot-panel][data-bot="1"]`),
		waitVisible(tid("bot-since")),
	)
	a.screenshot("account-bot")
	// The page fits every screen: the tokens and the sessions one block
	// each on a phone (their columns made it 368 px wide at 360 in Polish).
	a.checkFitsEverywhere("bot account")
	tok, _ := eval[string](a, `document.querySelector('[data-testid=bot-fresh-token]').value`)
	if !strings.HasPrefix(tok, protocol.BotTokenPrefix) || len(tok) != len(protocol.BotTokenPrefix)+64 {
		t.Fatalf("the token shown is %q", tok)
	}
	rows, _ := eval[[]string](a, `[...document.querySelectorAll('[data-testid^=bot-token-]')].map((r) => r.textContent)`)
	if len(rows) != 1 || !strings.Contains(rows[0], "laptop") {
		t.Fatalf("the tokens listed: %q, want one labelled laptop", rows)
	}
	// A program with the token is Robo on the API (no cookie sent).
	asBot := func() (int, string) {
		type answer struct {
			Status int    `json:"status"`
			Player string `json:"player"`
		}
		r, err := evalAsync[answer](a, fmt.Sprintf(`fetch('/api/session', {credentials: 'omit', headers: {Authorization: 'Bearer %s'}})
		  .then(async (r) => ({status: r.status, player: r.ok ? (await r.json()).player : ''}))`, tok))
		if err != nil {
			t.Fatal(err)
		}
		return r.Status, r.Player
	}
	if code, p := asBot(); code != 200 || p != player {
		t.Fatalf("with the token, GET /api/session answers %d for %q, want 200 for %q", code, p, player)
	}
	a.must(15*time.Second, "revoke the token",
		focusOn(`[data-testid^=bot-revoke-]`), chromedp.KeyEvent(kb.Enter),
		waitGone(`[data-testid^=bot-token-]`),
	)
	if code, _ := asBot(); code != 401 {
		t.Errorf("a revoked token: GET /api/session answers %d, want 401", code)
	}
	a.must(20*time.Second, "reload the account page", chromedp.Reload(), waitVisible(`[data-testid=bot-panel][data-bot="1"]`))
	if n, _ := eval[int](a, `document.querySelectorAll('[data-testid=bot-fresh-token]').length`); n != 0 {
		t.Error("after a reload the account page still shows a token")
	}
	e.checkJS()
}

// TestForgedFormRefused: a page of another site (the room is at
// 127.0.0.1; the page at localhost, another site) that posts a form to the
// room's API in the visitor's browser changes nothing: the visitor keeps
// their session and name (before, the form's new guest session replaced
// the visitor's cookie), and a page on another port of the room's own
// host (the same site: the cookie goes with it) creates no table as them.
func TestForgedFormRefused(t *testing.T) {
	e := newEnv(t)
	v := e.tab("victim")
	v.login("Alice")
	player, _ := eval[string](v, `window.cardroom.me.player`)
	page := func(action, name, value string) string {
		html := `<!doctype html><form id=f method=POST enctype="text/plain" action="` + action + `"><input type=hidden name='` + name +
			`' value='` + value + `'></form><script>document.getElementById('f').submit()</script>`
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, html)
		})}
		go srv.Serve(l)
		t.Cleanup(func() { srv.Close() })
		return l.Addr().String()
	}
	// Another site: a new guest session in the visitor's place.
	addr := page(e.base+"/api/session", `{"name":"Mallory","x":"`, `"}`)
	port := addr[strings.LastIndex(addr, ":")+1:]
	v.must(20*time.Second, "visit the other site's page", chromedp.Navigate("http://localhost:"+port+"/"), chromedp.Sleep(time.Second))
	// The same site, another port: a table as the visitor.
	addr = page(e.base+"/api/quickplay", `{"game":"papayoo","x":"`, `"}`)
	v.must(20*time.Second, "visit a page on another port", chromedp.Navigate("http://"+addr+"/"), chromedp.Sleep(time.Second))
	v.must(20*time.Second, "back to the room", chromedp.Navigate(e.base+"/"), waitVisible(tid("me-name")))
	if p, _ := eval[string](v, `window.cardroom.me.player`); p != player {
		t.Errorf("after the forged forms the visitor is %q, want %q", p, player)
	}
	if name, _ := eval[string](v, `document.querySelector('[data-testid=me-name]').textContent`); strings.Contains(name, "Mallory") {
		t.Errorf("the visitor is named %q", name)
	}
	var tables struct {
		Tables []protocol.Summary `json:"tables"`
	}
	resp, err := http.Get(e.base + "/api/tables")
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&tables)
	resp.Body.Close()
	if len(tables.Tables) != 0 {
		t.Errorf("the forged quick play made %d table(s)", len(tables.Tables))
	}
	e.checkJS()
}
