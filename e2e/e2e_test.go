// Package e2e drives the browser client in headless Chromium against a real
// server started in-process: whole games played only through clicks and key
// presses in the page.
package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"cardroom/server"
	"cardroom/store"
	"cardroom/store/pgtest"
	"cardroom/table"
)

const chromiumPath = "/usr/bin/chromium"

// testLimit bounds one test's browser work: when it passes, every tab of the
// test is closed, so a stuck test fails in its own name, saying so, instead
// of eating the package's timeout (10 minutes by default) for all the
// others. The slowest test needs about a minute on a busy 2-core machine.
const testLimit = 3 * time.Minute

// env is one server, and the test's share of the browser, for a test.
type env struct {
	t       *testing.T
	base    string
	root    context.Context // the shared browser, ending at the test's deadline
	mu      sync.Mutex
	jsErrs  []string
	artDir  string // "" when no screenshot is kept (CARDROOM_ARTIFACTS unset)
	started time.Time
	limit   time.Duration
}

// The package's tests share one Chromium, started by the first test that
// needs it and stopped by TestMain: starting one costs seconds on a busy
// machine, a browser context per tab (tabAt) milliseconds, and the contexts
// keep tests as far apart as separate browsers would (cookies, storage,
// cache; each test has its own server, so its own origin too). A browser
// that crashed or hangs is replaced for the next test.
var browser struct {
	mu   sync.Mutex
	ctx  context.Context // done when the browser stopped or crashed
	stop func()
}

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Stop() // the cluster test's PostgreSQL (cluster_test.go)
	browser.mu.Lock()
	if browser.stop != nil {
		browser.stop()
	}
	browser.mu.Unlock()
	os.Exit(code)
}

// sharedBrowser returns the running browser, starting one if there is none
// or the last one no longer answers.
func sharedBrowser() (context.Context, error) {
	browser.mu.Lock()
	defer browser.mu.Unlock()
	if browser.ctx != nil {
		if browser.ctx.Err() == nil {
			// Generous: the tests run in parallel, and replacing the
			// browser closes every other test's tabs too.
			ctx, cancel := context.WithTimeout(browser.ctx, 30*time.Second)
			_, err := chromedp.Targets(ctx)
			cancel()
			if err == nil {
				return browser.ctx, nil
			}
		}
		browser.stop()
		browser.ctx, browser.stop = nil, nil
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.Flag("mute-audio", true),
		// Chromium keeps a spare renderer started for the next page; each
		// tab here opens in a browser context of its own, which cannot use
		// it (a third fewer renderers started).
		chromedp.Flag("disable-features", "SpareRendererForSitePerProcess"),
		chromedp.Flag("lang", "en-US"), // the tests expect English until they switch
		chromedp.Env("LANGUAGE=en_US"),
		// No UserDataDir: chromedp makes a temporary profile and removes it.
		chromedp.WindowSize(1280, 900),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	root, cancelRoot := chromedp.NewContext(alloc)
	if err := chromedp.Do(root); err != nil {
		cancelRoot()
		cancelAlloc()
		return nil, err
	}
	browser.ctx, browser.stop = root, func() { cancelRoot(); cancelAlloc() }
	return root, nil
}

// serve runs a server with cfg on a loopback port until the test ends
// (then it is shut down and its store closed) and returns its base URL.
func serve(t *testing.T, cfg server.Config) string {
	t.Helper()
	srv, err := server.New(cfg)
	if err != nil {
		cfg.Store.Close()
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		cfg.Store.Close()
	})
	return "http://" + l.Addr().String()
}

// newEnv starts a server and gives the test the shared browser; tweaks
// adjust the server's config (e.g. fixed table seeds, to reach a known
// deal).
//
// The test runs in parallel with the package's others (go test's
// -parallel, the number of cores by default): each has its own server and
// its own browser contexts, so nothing is shared but the browser process,
// and the tests mostly wait on the page. On 2 cores the package took 198 s
// this way against 309 s one test at a time; more at once gained nothing.
func newEnv(t *testing.T, tweaks ...func(*server.Config)) *env {
	t.Helper()
	t.Parallel()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") != "" {
			// CI installs Chromium (.ci/run): a missing browser there is a
			// broken install step, not a reason to skip.
			t.Fatalf("CI is set but Chromium is missing at %s: %v", chromiumPath, err)
		}
		t.Skipf("browser tests need Chromium at %s (Debian package chromium): %v", chromiumPath, err)
	}
	dir := t.TempDir()
	st, err := store.OpenSQLite(filepath.Join(dir, "cardroom.db"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := server.Config{Store: st, Table: table.Config{Grace: 30 * time.Second}}
	for _, f := range tweaks {
		f(&cfg)
	}
	if cfg.Analysis == (server.AnalysisConfig{}) {
		// Analysing every finished game would spend the browser's CPU in
		// the background; the analysis tests set a budget.
		cfg.Analysis.Off = true
	}
	base := serve(t, cfg)
	art := os.Getenv("CARDROOM_ARTIFACTS")
	if art != "" {
		if err := os.MkdirAll(art, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e := &env{t: t, base: base, artDir: art, started: time.Now(), limit: testLimit}
	// The package's own deadline (go test -timeout) comes first: a test
	// that would reach it ends a little before, in its own name.
	if d, ok := t.Deadline(); ok && time.Until(d)-10*time.Second < e.limit {
		e.limit = max(time.Until(d)-10*time.Second, time.Second)
	}
	b, err := sharedBrowser()
	if err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	root, cancel := context.WithTimeout(b, e.limit)
	e.root = root
	t.Cleanup(cancel)
	return e
}

// expired fails the test when its deadline (testLimit) has passed, saying
// where it was stuck; the loops that wait for the page call it.
func (e *env) expired(where string) {
	e.t.Helper()
	if e.root.Err() != nil {
		e.t.Fatalf("%s: the test did not end within its %v (testLimit, e2e/e2e_test.go): stuck here", where, e.limit.Round(time.Second))
	}
}

// tab opens a page in a fresh browser context (its own cookies and storage).
type tab struct {
	e     *env
	name  string
	ctx   context.Context
	pace  float64           // window.CARDROOM_PACE: the table's pauses are pace × people's
	shots map[string]string // data-testid → screenshot name, taken when it first shows
	// pickerEscaped: Pis Yedili's suit picker was closed with Escape once
	// (playToEnd checks it the first time the picker shows).
	pickerEscaped bool
}

func (e *env) tab(name string) *tab { return e.tabAt(name, 0.05) }

// pacedTab is a tab with the table's pauses at the speed people get (the
// tests of the pacing itself); tab's pauses are a twentieth of that.
func (e *env) pacedTab(name string) *tab { return e.tabAt(name, 1) }

func (e *env) tabAt(name string, pace float64) *tab { return e.open(name, pace, false) }

// movingTab is a tab whose page moves its cards: the tests of the motion
// itself. The others' tabs ask for reduced motion (prefers-reduced-motion,
// which players can set too: the cards are just there, docs/client.md),
// because on a 2-core machine the browser's CPU bounds the package's time
// and the animations took a tenth of it in a set of whole-game tests.
func (e *env) movingTab(name string, pace float64) *tab { return e.open(name, pace, true) }

func (e *env) open(name string, pace float64, motion bool) *tab {
	ctx, cancel := chromedp.NewContext(e.root, chromedp.WithNewBrowserContext())
	e.t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		e.t.Fatalf("%s: new tab: %v", name, err)
	}
	if !motion {
		if err := reduceMotion(ctx); err != nil {
			e.t.Fatalf("%s: reduce motion: %v", name, err)
		}
	}
	if pace != 1 {
		script := fmt.Sprintf("window.CARDROOM_PACE = %g;", pace)
		if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script}); err != nil {
			e.t.Fatalf("%s: pace script: %v", name, err)
		}
	}
	tb := &tab{e: e, name: name, ctx: ctx, pace: pace}
	chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			e.mu.Lock()
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			e.jsErrs = append(e.jsErrs, fmt.Sprintf("%s: %s (line %d)", name, msg, d.LineNumber))
			e.mu.Unlock()
		case *log.EventEntryAdded:
			// The browser reports what the Content-Security-Policy refused
			// (an inline style, a foreign script) in its own log.
			if ev.Entry != nil && strings.Contains(ev.Entry.Text, "Content Security Policy") {
				e.mu.Lock()
				e.jsErrs = append(e.jsErrs, name+": CSP violation: "+ev.Entry.Text)
				e.mu.Unlock()
			}
		case *runtime.EventConsoleAPICalled:
			if ev.Type == "error" {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				e.mu.Lock()
				e.jsErrs = append(e.jsErrs, name+": console.error "+strings.Join(parts, " "))
				e.mu.Unlock()
			}
		}
	})
	return tb
}

// checkJS fails the test on any uncaught JavaScript exception, console
// error or CSP violation.
func (e *env) checkJS() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, s := range e.jsErrs {
		e.t.Errorf("JavaScript error: %s", s)
	}
	e.jsErrs = nil
}

// do runs actions with a timeout.
func (b *tab) do(timeout time.Duration, actions ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	return chromedp.Do(ctx, actions...)
}

func (b *tab) must(timeout time.Duration, what string, actions ...chromedp.Action[chromedp.Void]) {
	b.e.t.Helper()
	if err := b.do(timeout, actions...); err != nil {
		b.e.expired(b.name + ": " + what)
		b.screenshot("failure-" + b.name)
		b.e.t.Fatalf("%s: %s: %v", b.name, what, err)
	}
}

func eval[T any](b *tab, js string) (T, error) {
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](js))
}

// screenshot saves the page as name.png in $CARDROOM_ARTIFACTS and returns
// its path; without that directory it takes none ("") — a picture in a
// temporary directory that the test removes is only time lost.
func (b *tab) screenshot(name string) string {
	if b.e.artDir == "" {
		return ""
	}
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.e.t.Logf("screenshot %s: %v", name, err)
		return ""
	}
	p := filepath.Join(b.e.artDir, name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		b.e.t.Logf("screenshot %s: %v", name, err)
		return ""
	}
	b.e.t.Logf("screenshot: %s", p)
	return p
}

func tid(id string) chromedp.CSS { return chromedp.CSS(`[data-testid="` + id + `"]`) }

// joinFromLobby clicks table id's join button in the lobby and waits for
// then (the table's page). The lobby's list is drawn again whenever the
// lobby changes (a peer node coming up, a seat taken elsewhere), and a
// redraw between chromedp's finding the button and clicking it leaves it
// a node that is gone ("Could not find node with given id"): the click
// did not happen, and is tried again on the new button.
func (b *tab) joinFromLobby(timeout time.Duration, what, id string, then chromedp.CSS) {
	b.e.t.Helper()
	end := time.Now().Add(timeout)
	for {
		err := b.do(time.Until(end), waitVisible(tid("join-"+id)), clickOn(tid("join-"+id)))
		if err == nil || !strings.Contains(err.Error(), "Could not find node") || time.Now().After(end) {
			if err != nil {
				b.e.expired(b.name + ": " + what)
				b.screenshot("failure-" + b.name)
				b.e.t.Fatalf("%s: %s: %v", b.name, what, err)
			}
			break
		}
	}
	b.must(time.Until(end), what, waitVisible(then))
}

// login opens the client and enters a name (typed with key presses).
func (b *tab) login(name string) {
	b.must(20*time.Second, "open and log in",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(b.e.base+"/"),
		waitVisible(tid("name-input")),
		sendKeys(tid("name-input"), name),
		clickOn(tid("name-submit")),
		waitVisible(tid("create-form")),
	)
}

// setField sets a form control's value and fires its events, for the
// table-creation form (the game itself is played by clicks only).
func (b *tab) setField(id, value string) {
	js := fmt.Sprintf(`(() => { const e = document.querySelector('[data-testid=%q]'); if (!e) return false;
		e.value = %q; e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`, id, value)
	ok, err := eval[bool](b, js)
	if err != nil || !ok {
		b.e.t.Fatalf("%s: set %s=%s: %v", b.name, id, value, err)
	}
}

// createTable fills the lobby form and creates a table with random bots.
func (b *tab) createTable(game string, players int, opts map[string]string, open []int) string {
	b.must(10*time.Second, "pick the game", clickOn(tid("create-game-"+game)), waitVisible(tid("opt-players")))
	b.setField("quick-level", "random")
	b.setField("opt-players", strconv.Itoa(players))
	for k, v := range opts {
		b.setField("opt-"+k, v)
	}
	for _, s := range open {
		b.setField("seat-kind-"+strconv.Itoa(s), "open")
	}
	b.must(15*time.Second, "create the table", clickOn(tid("create-submit")), waitVisible(tid("felt")))
	id, err := eval[string](b, `document.querySelector('[data-testid=felt]').dataset.table`)
	if err != nil || id == "" {
		b.e.t.Fatalf("%s: table id: %v", b.name, err)
	}
	return id
}

// pickJS chooses the next click of a simple player that only uses what the
// page shows. It marks the element with data-e2e="go" and says what it is:
// "move" (a move is sent), "local" (only the page changes), "wait", "done".
// What to press at each game's table is the game's player (games_test.go).
var pickJS = buildPickJS()

func buildPickJS() string {
	var b strings.Builder
	b.WriteString(`(() => {
  for (const e of document.querySelectorAll('[data-e2e]')) e.removeAttribute('data-e2e');
  const q = (s) => document.querySelector(s);
  const en = (s) => [...document.querySelectorAll(s)].filter((e) => !e.disabled && e.getAttribute('aria-disabled') !== 'true');
  const mark = (e, kind) => { e.setAttribute('data-e2e', 'go'); return kind; };
  if (q('[data-testid=final-scores]')) return 'done';
  const felt = q('[data-testid=felt]');
  if (!felt) return 'wait';
  if (felt.dataset.seat === '-1') return felt.dataset.status === 'finished' ? 'done' : 'wait';
  const game = felt.dataset.game;
  const dismiss = q('[data-testid=dismiss-hand]');
  if (dismiss) return mark(dismiss, 'local');
`)
	for _, name := range sortedGames() {
		fmt.Fprintf(&b, "  if (game === %q) {%s\n  }\n", name, gameTests[name].player)
	}
	b.WriteString("  return 'wait';\n})()")
	return b.String()
}

// pick is what the test's player does next (nextPick): Kind is pickJS's
// answer; for a click ("move", "local"), X, Y are the centre of the marked
// element in the viewport, and Seq and Picker what the table showed.
type pick struct {
	Kind   string
	X, Y   float64
	Seq    string
	Picker bool
}

// pickWaitJS wraps a player (pickJS, or an expression built on it): false
// while there is nothing to do, else the pick. A click is offered only on
// an element that is not moving and that a click at its centre reaches (no
// toast or card in flight over it), so that the click lands where it
// aims.
func pickWaitJS(player string) string {
	return `(() => {
  const kind = ` + player + `;
  if (kind === 'wait') return false;
  if (kind !== 'move' && kind !== 'local') return {Kind: kind};
  const el = document.querySelector('[data-e2e="go"]');
  if (!el || el.getAnimations({subtree: true}).some((a) => a.playState === 'running')) return false;
  el.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  if (!r.width || !hit || !(hit === el || el.contains(hit))) return false;
  const f = document.querySelector('[data-testid=felt]');
  return {Kind: kind, X: x, Y: y, Seq: (f && f.dataset.seq) || '', Picker: !!document.querySelector('[data-testid=suit-picker]')};
})()`
}

var pickWait = pickWaitJS(pickJS)

// nextPick waits, polling in the page (no round trip per look), up to d
// for the player's next step; ok is false when there was none in time.
func (b *tab) nextPick(js string, d time.Duration) (p pick, ok bool) {
	// The page stops polling at d, the call a little later: no poll
	// outlives its call.
	ctx, cancel := context.WithTimeout(b.ctx, d+2*time.Second)
	defer cancel()
	p, err := chromedp.Run(ctx, pollFor[pick](js, chromedp.WithPollingInterval(15*time.Millisecond), chromedp.WithPollingTimeout(d)))
	return p, err == nil && p.Kind != ""
}

// clickPick clicks where the pick says, with real mouse events; for a move
// it then waits (up to 3 s) for the state that follows it: a new state on
// screen, a suit picker that was not there, or the final scores. It
// reports whether the click was made.
func (b *tab) clickPick(p pick) bool {
	if err := b.do(3*time.Second, chromedp.MouseClickXY(p.X, p.Y)); err != nil {
		return false
	}
	if p.Kind == "move" {
		b.do(3*time.Second, pollFor[chromedp.Void](fmt.Sprintf(
			`(() => { const f = document.querySelector('[data-testid=felt]'); return !f || f.dataset.seq !== %q || (%v && !!document.querySelector('[data-testid=suit-picker]')) || !!document.querySelector('[data-testid=final-scores]'); })()`, p.Seq, !p.Picker),
			chromedp.WithPollingInterval(15*time.Millisecond)))
	}
	return true
}

// playToEnd clicks through the game until the final scores show. onMove is
// called after every move click with the number of moves made so far.
// escapeSuitPicker checks that Escape closes Pis Yedili's suit picker,
// the focus back on the jack (the player picks it again after).
func (b *tab) escapeSuitPicker() {
	b.e.t.Helper()
	jack, _ := eval[string](b, `[...document.querySelectorAll('[data-testid=hand-card]')].find((c) => c.getAttribute('aria-pressed') === 'true' || /^J/.test(c.dataset.card))?.dataset.card || ''`)
	b.must(5*time.Second, "escape the suit picker", chromedp.KeyEvent(kb.Escape), waitGone(tid("suit-picker")))
	if got, _ := eval[string](b, `document.activeElement.dataset.card || document.activeElement.outerHTML.slice(0, 60)`); !strings.HasPrefix(got, "J") {
		b.e.t.Errorf("%s: after Escape the focus is on %q, want the jack (%s)", b.name, got, jack)
	}
}

func (b *tab) playToEnd(limit time.Duration, onMove func(n int)) int {
	t := b.e.t
	deadline := time.Now().Add(limit)
	moves := 0
	for time.Now().Before(deadline) {
		b.e.expired(fmt.Sprintf("%s: playing the game (%d moves made)", b.name, moves))
		for id, name := range b.shots {
			if ok, _ := eval[bool](b, `!!document.querySelector('[data-testid=`+id+`]')`); ok {
				time.Sleep(100 * time.Millisecond)
				b.screenshot(name)
				delete(b.shots, id)
			}
		}
		// Short looks while screenshots are awaited, long ones otherwise.
		look := 5 * time.Second
		if len(b.shots) > 0 {
			look = 100 * time.Millisecond
		}
		p, ok := b.nextPick(pickWait, look)
		if !ok {
			continue
		}
		if p.Kind == "done" {
			return moves
		}
		if p.Picker && !b.pickerEscaped {
			// The pick saw the suit picker (it reports it): Escape it once,
			// then look again.
			b.pickerEscaped = true
			b.escapeSuitPicker()
			continue
		}
		if !b.clickPick(p) {
			continue // the page changed under the click; look again
		}
		if p.Kind == "move" {
			moves++
			if onMove != nil {
				onMove(moves)
			}
		}
	}
	b.screenshot("timeout-" + b.name)
	t.Fatalf("%s: the game did not end within %v (%d moves)", b.name, limit, moves)
	return moves
}

// checkErrors fails on errors the server sent for moves the page offered.
func (b *tab) checkErrors() {
	errs, _ := eval[[]map[string]any](b, `window.cardroom.errors`)
	for _, e := range errs {
		if c := e["code"]; c == "illegal" || c == "not_your_turn" || c == "malformed" {
			b.e.t.Errorf("%s: the server refused a move the page offered: %v %v", b.name, c, e["message"])
		}
	}
}

// finalTotals reads the totals shown in the final scores dialog.
func (b *tab) finalTotals() []int {
	b.must(20*time.Second, "final scores", waitVisible(tid("final-scores")))
	s, err := eval[[]int](b, `(() => { const out = []; for (const e of document.querySelectorAll('[data-testid^=final-total-]')) out[+e.dataset.testid.slice(12)] = +e.textContent; return out; })()`)
	if err != nil {
		b.e.t.Fatalf("%s: read final totals: %v", b.name, err)
	}
	return s
}

var resultTag = regexp.MustCompile(`(?m)^\[Result "totals ([-0-9 ]+)`)

// serverTotals reads the finished game's totals from the server's record.
func (e *env) serverTotals(id string) []int {
	var body string
	for i := 0; i < 50; i++ {
		resp, err := http.Get(e.base + "/api/records/" + id)
		if err != nil {
			e.t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 200 {
			body = string(b)
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	m := resultTag.FindStringSubmatch(body)
	if m == nil {
		e.t.Fatalf("record of %s has no Result tag:\n%s", id, head(body, 600))
	}
	var out []int
	for _, f := range strings.Fields(m[1]) {
		n, _ := strconv.Atoi(f)
		out = append(out, n)
	}
	return out
}

func head(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// playGame creates a table with bots, plays it to the end by clicks, saves a
// screenshot in the middle and checks the final scores against the server.
func playGame(e *env, game string, players int, opts map[string]string, shotAt int, limit time.Duration, shots map[string]string) (*env, *tab, string) {
	t := e.t
	b := e.tab("alice")
	b.login("alice")
	id := b.createTable(game, players, opts, nil)
	if e.artDir != "" {
		b.shots = maps.Clone(shots) // playToEnd deletes each one it takes
	}
	// The hint button answers with the hard bot's move or a clear message.
	b.must(30*time.Second, "hint", waitVisible(tid("hand")), clickOn(tid("hint")),
		waitVisible(chromedp.CSS(`[data-testid=hint-text], [data-testid=error-toast]`)))
	if msg, _ := eval[string](b, `(document.querySelector('[data-testid=hint-text]') || document.querySelector('[data-testid=error-toast]')).textContent`); msg != "" {
		t.Logf("hint: %s", msg)
	}
	shot := false
	moves := b.playToEnd(limit, func(n int) {
		if n == shotAt && !shot {
			shot = true
			time.Sleep(150 * time.Millisecond)
			b.screenshot(game + "-table")
			// The same table on a phone-sized screen.
			b.must(10*time.Second, "phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
			time.Sleep(150 * time.Millisecond)
			b.screenshot(game + "-phone")
			if w, _ := eval[int](b, `document.documentElement.scrollWidth`); w > 400 {
				t.Errorf("on a 390px wide screen the page is %dpx wide (horizontal scrolling)", w)
			}
			b.must(10*time.Second, "desktop viewport", chromedp.EmulateViewport(1280, 900))
		}
	})
	if !shot {
		t.Errorf("the game ended after %d moves, before the screenshot at move %d", moves, shotAt)
	}
	got := b.finalTotals()
	want := e.serverTotals(id)
	if !sameInts(got, want) {
		t.Errorf("final scores on screen %v, server's result %v", got, want)
	}
	b.screenshot(game + "-final")
	b.checkErrors()
	t.Logf("%s: %d moves by clicks; totals %v", game, moves, got)
	e.checkJS()
	return e, b, id
}

func TestPapayooWholeGame(t *testing.T) {
	e, b, _ := playWholeGame(t, "papayoo")
	// The replay of the finished game, moved by a click and a key press.
	b.must(10*time.Second, "open the replay", clickOn(tid("final-replay")), waitVisible(tid("replay-step")))
	step := func() string {
		s, _ := eval[string](b, `document.querySelector('[data-testid=replay-step]').textContent`)
		return s
	}
	s0 := step()
	b.must(10*time.Second, "replay next", clickOn(tid("replay-next")), pollFor[chromedp.Void](fmt.Sprintf(`document.querySelector('[data-testid=replay-step]').textContent !== %q`, s0)))
	s1 := step()
	b.must(10*time.Second, "replay by key", chromedp.KeyEvent(kb.ArrowRight), pollFor[chromedp.Void](fmt.Sprintf(`document.querySelector('[data-testid=replay-step]').textContent !== %q`, s1)))
	b.must(10*time.Second, "replay end", clickOn(tid("replay-last")), pollFor[chromedp.Void](`/Step (\d+) of \1$/.test(document.querySelector('[data-testid=replay-step]').textContent)`))
	b.screenshot("papayoo-replay")
	// Seen by seat 0, at the start of the first trick: a hand is shown.
	b.setField("replay-seat", "0")
	// The seat change reloads and redraws the replay: wait for it, or the
	// next click may land on a button being replaced.
	b.must(10*time.Second, "replay from seat 0", pollFor[chromedp.Void](`(() => { const r = window.cardroom.replay; return !!r && !!r.data && r.data.seat === 0; })()`))
	b.must(10*time.Second, "replay start", clickOn(tid("replay-first")), pollFor[chromedp.Void](`/^Step 0 /.test(document.querySelector('[data-testid=replay-step]').textContent)`))
	for i := 0; i < 6; i++ {
		b.must(10*time.Second, "replay step", clickOn(tid("replay-next")), chromedp.Sleep(60*time.Millisecond))
	}
	b.must(10*time.Second, "seat 0's hand in the replay", waitVisible(tid("hand")))
	e.checkJS()
}

func TestRum500WholeGame(t *testing.T) { playWholeGame(t, "rum500") }

func TestPisYediliWholeGame(t *testing.T) { playWholeGame(t, "pisyedili") }

// TestTwoPlayersAndSpectator: two browser contexts play each other at one
// Papayoo table (with one bot) while a third watches.
func TestTwoPlayersAndSpectator(t *testing.T) {
	e := newEnv(t)
	alice, bob, carol := e.tab("alice"), e.tab("bob"), e.tab("carol")
	alice.login("alice")
	bob.login("bob")
	carol.login("carol")
	id := alice.createTable("papayoo", 3, map[string]string{"rounds": "1"}, []int{1})
	alice.must(10*time.Second, "waiting room", waitVisible(tid("waiting")), waitVisible(tid("add-bot-1")))
	alice.screenshot("waiting-room")
	// Bob finds the table in the lobby (live list) and joins it.
	bob.must(15*time.Second, "bob sees the table in the lobby", waitVisible(tid("join-"+id)))
	bob.screenshot("lobby")
	bob.joinFromLobby(15*time.Second, "bob joins from the lobby", id, tid("hand"))
	// Carol watches it.
	carol.must(15*time.Second, "carol watches", chromedp.Navigate(e.base+"/#/table/"+id), waitVisible(tid("spectator-badge")))
	var wg sync.WaitGroup
	for _, p := range []*tab{alice, bob} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.playToEnd(120*time.Second, nil)
		}()
	}
	wg.Wait()
	want := e.serverTotals(id)
	for _, p := range []*tab{alice, bob} {
		if got := p.finalTotals(); !sameInts(got, want) {
			t.Errorf("%s sees totals %v, server %v", p.name, got, want)
		}
	}
	alice.checkErrors()
	bob.checkErrors()
	carol.must(20*time.Second, "spectator sees the end", waitVisible(tid("final-scores")))
	if got := carol.finalTotals(); !sameInts(got, want) {
		t.Errorf("spectator sees totals %v, server %v", got, want)
	}
	hand, _ := eval[int](carol, `document.querySelectorAll('[data-testid=hand]').length`)
	if hand != 0 {
		t.Errorf("the spectator was shown a hand")
	}
	e.checkJS()
}

// TestReloadResumes reloads the page in the middle of a Papayoo round: the same
// table, seat and hand come back and play goes on.
func TestReloadResumes(t *testing.T) {
	e := newEnv(t)
	b := e.tab("alice")
	b.login("alice")
	id := b.createTable("papayoo", 3, map[string]string{"rounds": "1"}, nil)
	n := 0
	for n < 4 {
		e.expired("the first moves")
		p, ok := b.nextPick(pickWait, 5*time.Second)
		if !ok {
			continue
		}
		if p.Kind == "done" {
			break
		}
		if b.clickPick(p) && p.Kind == "move" {
			n++
		}
	}
	handBefore, _ := eval[[]string](b, `[...document.querySelectorAll('[data-testid=hand-card]')].map((e) => e.dataset.card)`)
	b.must(20*time.Second, "reload", chromedp.Reload(), waitVisible(tid("felt")), waitVisible(tid("hand")))
	got, _ := eval[string](b, `document.querySelector('[data-testid=felt]').dataset.table + '/' + document.querySelector('[data-testid=felt]').dataset.seat`)
	if got != id+"/0" {
		t.Errorf("after the reload the page shows %q, want table %s seat 0", got, id)
	}
	handAfter, _ := eval[[]string](b, `[...document.querySelectorAll('[data-testid=hand-card]')].map((e) => e.dataset.card)`)
	if len(handAfter) == 0 {
		t.Errorf("no hand after the reload (before: %v)", handBefore)
	}
	// A dropped connection comes back by itself and the game goes on.
	if _, err := eval[bool](b, `(window.cardroom.conn.ws.close(), true)`); err != nil {
		t.Fatal(err)
	}
	b.must(10*time.Second, "reconnect", waitVisible(tid("conn-online")))
	b.playToEnd(120*time.Second, nil)
	if got, want := b.finalTotals(), e.serverTotals(id); !sameInts(got, want) {
		t.Errorf("after the reload: totals %v, server %v", got, want)
	}
	b.checkErrors()
	e.checkJS()
}

// TestLanguageSwitch switches the language with the keyboard, checks the
// texts change and that the choice survives a reload.
func TestLanguageSwitch(t *testing.T) {
	e := newEnv(t)
	b := e.tab("alice")
	b.login("alice")
	text := func(sel string) string {
		s, _ := eval[string](b, `document.querySelector('`+sel+`').textContent`)
		return s
	}
	if got := text("#quick-h"); got != "Quick play" {
		t.Errorf("default language: quick play heading %q", got)
	}
	want := map[string]string{"pl": "Szybka gra", "cs": "Rychlá hra", "tr": "Hızlı oyun", "en": "Quick play"}
	for _, lang := range []string{"pl", "cs", "tr"} {
		b.setField("lang-select", lang)
		b.must(5*time.Second, "switch to "+lang, pollFor[chromedp.Void](fmt.Sprintf(`document.documentElement.lang === %q && document.querySelector('#quick-h').textContent === %q`, lang, want[lang])))
	}
	// Keyboard: focus the switcher and press Home (English is first).
	b.must(5*time.Second, "keyboard switch", focusOn(tid("lang-select")), chromedp.KeyEvent(kb.Home),
		pollFor[chromedp.Void](`document.documentElement.lang === 'en'`))
	b.setField("lang-select", "pl")
	b.must(5*time.Second, "Polish again", pollFor[chromedp.Void](`document.documentElement.lang === 'pl'`))
	b.must(10*time.Second, "reload keeps Polish", chromedp.Reload(), waitVisible(chromedp.CSS("#quick-h")),
		pollFor[chromedp.Void](`document.querySelector('#quick-h').textContent === 'Szybka gra'`))
	// The rules panel at a table is in Polish too.
	b.createTable("papayoo", 3, map[string]string{"rounds": "1"}, nil)
	b.must(10*time.Second, "Polish rules", waitVisible(tid("help-rules")),
		pollFor[chromedp.Void](`document.querySelector('[data-testid=help-rules]').textContent.includes('Zbierz jak najmniej punktów')`))
	b.must(5*time.Second, "tips tab", clickOn(tid("tab-tips")), waitVisible(tid("help-tips")),
		pollFor[chromedp.Void](`document.querySelector('[data-testid=help-tips]').textContent.includes('Przekazanie')`))
	b.must(10*time.Second, "hand", waitVisible(tid("hand")))
	b.screenshot("papayoo-polish")
	// A server error is shown in words, in the chosen language.
	b.must(10*time.Second, "unknown table", chromedp.Navigate(e.base+"/#/table/t_doesnotexist"),
		waitVisible(tid("error-toast")), waitVisible(tid("table-missing")))
	if msg, _ := eval[string](b, `document.querySelector('[data-testid=error-toast]').textContent`); msg != "Ten stół nie istnieje." {
		t.Errorf("error message %q, want the Polish text for no_table", msg)
	}
	e.checkJS()
}

// unused guard for json import in helpers kept for debugging output.
var _ = json.Marshal

// TestInviteQuickPlayKeyboard: a private table joined through its invite
// link; then quick play against bots, with the pass made from the keyboard
// only (Enter and the arrows), with a visible focus ring; the hand is one
// Tab stop (a roving tabindex: Tab leaves it).
func TestInviteQuickPlayKeyboard(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.tab("alice"), e.tab("bob")
	alice.login("alice")
	bob.login("bob")
	alice.must(5*time.Second, "private", clickOn(tid("create-private")))
	id := alice.createTable("pisyedili", 3, map[string]string{"hands": "1"}, []int{1})
	link, err := eval[string](alice, `document.querySelector('[data-testid=invite-link]').value`)
	if err != nil || !strings.Contains(link, "invite=") {
		t.Fatalf("invite link %q: %v", link, err)
	}
	// The private table is not in Bob's lobby.
	if n, _ := eval[int](bob, `document.querySelectorAll('[data-table="`+id+`"]').length`); n != 0 {
		t.Errorf("a private table is listed in the lobby")
	}
	bob.must(15*time.Second, "bob opens the invite link", chromedp.Navigate(link), waitVisible(tid("sit-1")), clickOn(tid("sit-1")), waitVisible(tid("hand")))
	if got, _ := eval[string](bob, `document.querySelector('[data-testid=felt]').dataset.seat`); got != "1" {
		t.Errorf("bob sits at seat %q, want 1", got)
	}
	alice.must(15*time.Second, "the game starts for alice", waitVisible(tid("hand")))

	// Quick play, keyboard only.
	alice.must(10*time.Second, "lobby", clickOn(tid("back-lobby")), waitVisible(tid("quick-papayoo")))
	alice.setField("quick-level", "random")
	alice.must(15*time.Second, "quick play", focusOn(tid("quick-papayoo")), chromedp.KeyEvent(kb.Enter), waitVisible(tid("pass-confirm")))
	alice.must(5*time.Second, "focus a card", focusOn(chromedp.CSS(`[data-testid=hand-card]`)))
	for i := 0; i < 5; i++ {
		alice.must(5*time.Second, "select by keyboard", chromedp.KeyEvent(kb.Enter), chromedp.KeyEvent(kb.ArrowRight))
	}
	if n, _ := eval[int](alice, `document.querySelectorAll('[data-testid=hand-card][tabindex="0"]').length`); n != 1 {
		t.Errorf("%d hand cards take Tab, want one (the hand is one stop)", n)
	}
	if cur, _ := eval[bool](alice, `document.activeElement.getAttribute('tabindex') === '0'`); !cur {
		t.Error("the focused card is not the hand's Tab stop")
	}
	alice.must(5*time.Second, "tab out of the hand", chromedp.KeyEvent(kb.Tab))
	if in, _ := eval[bool](alice, `!!document.activeElement.closest('[data-testid=hand]')`); in {
		t.Error("Tab moved to another card of the hand, want out of it")
	}
	outline, _ := eval[string](alice, `getComputedStyle(document.activeElement).outlineStyle + ' ' + document.activeElement.dataset.testid`)
	if !strings.HasPrefix(outline, "solid") {
		t.Errorf("keyboard focus is not visible: outline %q", outline)
	}
	n, _ := eval[int](alice, `document.querySelectorAll('[data-testid=hand-card][aria-pressed=true]').length`)
	if n != 5 {
		t.Fatalf("%d cards selected by keyboard, want 5", n)
	}
	alice.must(10*time.Second, "confirm the pass by keyboard", focusOn(tid("pass-confirm")), chromedp.KeyEvent(kb.Enter),
		waitVisible(chromedp.CSS(`[data-testid=pass-done], [data-testid=received], [data-testid=trick]`)))
	alice.screenshot("papayoo-keyboard")
	e.checkJS()
}

// TestCardGallery draws every card of the three games (Papayoo 1–20, the
// standard deck, the joker, the back) with the client's SVG code, checks the
// pips of the number cards and saves the gallery as cards.png.
func TestCardGallery(t *testing.T) {
	e := newEnv(t)
	b := e.tab("gallery")
	b.must(20*time.Second, "open", chromedp.EmulateViewport(1280, 900), chromedp.Navigate(e.base+"/"), waitVisible(tid("name-input")))
	js := `(async () => {
	  const { cardSVG } = await import('/js/cards.js');
	  const cards = [];
	  for (const s of ['S', 'H', 'D', 'C']) for (let r = 1; r <= 10; r++) cards.push(r + s);
	  for (let r = 1; r <= 20; r++) cards.push(r + 'P');
	  for (const s of ['S', 'H', 'D', 'C']) for (const r of ['A', 'J', 'Q', 'K']) cards.push(r + s);
	  cards.push('JK', 'back');
	  const box = document.createElement('div');
	  box.style.cssText = 'position:fixed;inset:0;background:#1f6b4a;display:flex;flex-wrap:wrap;gap:4px;padding:8px;z-index:99;align-content:flex-start';
	  const bad = [];
	  for (const c of cards) {
	    const svg = cardSVG(c, { mark: c === '7H' ? 'PAPAYOO 40' : '' });
	    if (c === '7H' && !svg.textContent.includes('PAPAYOO 40')) bad.push('7H: no mark');
	    svg.style.cssText = 'width:58px;height:81px';
	    box.appendChild(svg);
	    const r = parseInt(c, 10);
	    if (/^([2-9]|10)[SHDC]$/.test(c) && svg.querySelectorAll('path').length !== r + 2) bad.push(c + ':' + svg.querySelectorAll('path').length);
	    if (!svg.querySelector('rect')) bad.push(c + ': no frame');
	  }
	  document.body.appendChild(box);
	  return bad.join(' ');
	})()`
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	bad, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if bad != "" {
		t.Errorf("cards drawn wrong (card:paths): %s", bad)
	}
	b.screenshot("cards")
	e.checkJS()
}
