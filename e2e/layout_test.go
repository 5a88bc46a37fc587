package e2e

// Layout, contrast, keyboard access, the lobby's games in progress and the
// replay's controls (issue 12, items 9, 11–15): every screen in every
// language at a phone's size and a desktop's, measured from the page's
// computed styles rather than judged by eye.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// viewport is a screen size the layout must fit.
type viewport struct {
	name          string
	width, height int64
}

var (
	phone   = viewport{"phone", 390, 844}
	desktop = viewport{"desktop", 1440, 900}
	// smallPhone is the narrowest screen the room is made for: many
	// Android phones are 360 px wide.
	smallPhone = viewport{"small-phone", 360, 740}
	// sizes are the screens every page is checked at.
	sizes = []viewport{smallPhone, phone, desktop}
	// langs are the client's languages (web/static/js/i18n.js).
	langs = []string{"en", "pl", "cs", "tr"}
)

// shotDir is where the layout tests save their screenshots:
// $CARDROOM_SCREENSHOTS, else "": none is taken (shot).
func shotDir(t *testing.T) string {
	dir := os.Getenv("CARDROOM_SCREENSHOTS")
	if dir == "" {
		return ""
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// shot saves a screenshot of the viewport as dir/name.png; with no dir it
// takes none.
func (b *tab) shot(dir, name string) {
	b.e.t.Helper()
	if dir == "" {
		return
	}
	png, err := b.captureViewport()
	if err != nil {
		b.e.t.Logf("screenshot %s: %v", name, err)
		return
	}
	p := filepath.Join(dir, name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		b.e.t.Errorf("screenshot %s: %v", name, err)
	}
}

func (b *tab) captureViewport() ([]byte, error) {
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	return chromedp.Run(ctx, chromedp.CaptureScreenshot())
}

// resize emulates a screen of size v (a phone at twice the pixel density).
func (b *tab) resize(v viewport) {
	b.e.t.Helper()
	scale := 1.0
	if v.width < 600 {
		scale = 2
	}
	b.must(10*time.Second, "viewport "+v.name, chromedp.EmulateViewport(v.width, v.height, chromedp.EmulateScale(scale)),
		pollFor[chromedp.Void](fmt.Sprintf(`window.innerWidth === %d`, v.width)), framesDrawn)
}

// framesDrawn waits until the page has drawn two more frames: what a
// change (a new size, a new language) laid out is on screen.
var framesDrawn = chromedp.Evaluate[chromedp.Void](`new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())))`, chromedp.EvalAwaitPromise)

// setLang switches the page's language with the header's selector.
func (b *tab) setLang(lang string) {
	b.e.t.Helper()
	b.setField("lang-select", lang)
	b.must(10*time.Second, "language "+lang, pollFor[chromedp.Void](fmt.Sprintf(`document.documentElement.lang === %q`, lang)), framesDrawn)
}

// overflowJS lists what does not fit: the page wider than the screen, an
// element sticking out of its parent, a line of text out of its box, an
// input's placeholder or a select's choice wider than the control. Scroll
// containers (overflow other than visible) may hold wider content; what is
// absolutely positioned (a card's owner label) is placed on purpose.
const overflowJS = `(() => {
  const out = [];
  const de = document.documentElement;
  const vw = de.clientWidth;
  if (de.scrollWidth > vw + 1) out.push('the page scrolls sideways: ' + de.scrollWidth + 'px on a ' + vw + 'px screen');
  const desc = (e) => {
    let s = e.tagName.toLowerCase();
    if (e.dataset && e.dataset.testid) s += '[' + e.dataset.testid + ']';
    if (typeof e.className === 'string' && e.className.trim()) s += '.' + e.className.trim().split(/\s+/).join('.');
    return s + ' "' + (e.textContent || e.value || '').trim().replace(/\s+/g, ' ').slice(0, 40) + '"';
  };
  const hidden = (e) => {
    if (e.closest('svg, .sr-only, [hidden]')) return true;
    const cs = getComputedStyle(e);
    if (cs.display === 'none' || cs.visibility === 'hidden') return true;
    const r = e.getBoundingClientRect();
    return r.width === 0 && r.height === 0;
  };
  const placed = (e) => { const p = getComputedStyle(e).position; return p === 'absolute' || p === 'fixed'; };
  const clips = (e) => getComputedStyle(e).overflowX !== 'visible';
  // inScroller: an ancestor (up to the page) scrolls or clips sideways, or
  // is placed on purpose.
  const inScroller = (e) => { for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) if (clips(p) || placed(p)) return true; return false; };
  const box = (e) => { for (let p = e; p; p = p.parentElement) { const d = getComputedStyle(p).display; if (d !== 'inline' && d !== 'contents') return p; } return document.body; };
  const canvas = document.createElement('canvas').getContext('2d');
  const textWidth = (text, e) => { const cs = getComputedStyle(e); canvas.font = cs.fontWeight + ' ' + cs.fontSize + ' ' + cs.fontFamily; return canvas.measureText(text).width; };
  const inner = (e) => { const cs = getComputedStyle(e); return e.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight); };
  for (const e of document.body.querySelectorAll('*')) {
    if (hidden(e) || placed(e) || e.tagName === 'OPTION' || e.tagName === 'SCRIPT') continue;
    const r = e.getBoundingClientRect();
    // The parent that has a box (one with display: contents has none).
    let p = e.parentElement;
    while (p && getComputedStyle(p).display === 'contents') p = p.parentElement;
    if (p && p !== document.body && !clips(p) && !inScroller(e) && !placed(p)) {
      const pr = p.getBoundingClientRect();
      if (r.right > pr.right + 1.5 || r.left < pr.left - 1.5) out.push(desc(e) + ' sticks out of ' + desc(p) + ' (' + Math.round(r.left) + '–' + Math.round(r.right) + ' in ' + Math.round(pr.left) + '–' + Math.round(pr.right) + ')');
    }
    const off = (x) => { const q = x.getBoundingClientRect(); return q.right > vw + 1 || q.left < -1; };
    // Only the outermost element off the screen is reported.
    if (!inScroller(e) && off(e) && !(p && p !== document.body && off(p))) out.push(desc(e) + ' is off the screen');
    // A panel may not scroll sideways to show its own content (a score
    // sheet wider than the side column).
    if (e.classList.contains('panel') && e.scrollWidth > e.clientWidth + 1) out.push(desc(e) + ' is wider inside (' + e.scrollWidth + 'px) than its ' + e.clientWidth + 'px');
    if (e.tagName === 'INPUT' && e.placeholder && !e.value && textWidth(e.placeholder, e) > inner(e) + 1) out.push('the placeholder of ' + desc(e) + ' is cut: "' + e.placeholder + '"');
    if (e.tagName === 'SELECT' && e.selectedOptions[0] && textWidth(e.selectedOptions[0].textContent, e) > inner(e) - 14) out.push('the choice in ' + desc(e) + ' is cut: "' + e.selectedOptions[0].textContent + '"');
    for (const n of e.childNodes) {
      if (n.nodeType !== 3 || !n.textContent.trim()) continue;
      const b = box(e);
      if (clips(b) || inScroller(b) && clips(b)) continue;
      const rg = document.createRange();
      rg.selectNodeContents(n);
      const tr = rg.getBoundingClientRect();
      const br = b.getBoundingClientRect();
      if (tr.width && (tr.right > br.right + 1.5 || tr.left < br.left - 1.5) && !inScroller(b)) out.push('text "' + n.textContent.trim().slice(0, 40) + '" overflows ' + desc(b));
    }
  }
  return [...new Set(out)].slice(0, 12);
})()`

// settle waits (up to 3 s) until no animation runs: a card on its way to
// the trick is measured where it lands, not in flight.
func (b *tab) settle() {
	b.do(3*time.Second, pollFor[chromedp.Void](`document.getAnimations().every((a) => a.playState !== 'running')`,
		chromedp.WithPollingInterval(30*time.Millisecond)))
}

// checkFits fails the test on everything overflowJS finds; where says which
// page, language and size.
func (b *tab) checkFits(where string) {
	b.e.t.Helper()
	b.settle()
	bad, err := eval[[]string](b, overflowJS)
	if err != nil {
		b.e.t.Errorf("%s: measure the layout: %v", where, err)
		return
	}
	for _, s := range bad {
		b.e.t.Errorf("%s: %s", where, s)
	}
}

// checkFitsEverywhere is checkFits at every size and in every language;
// the tab is left at the desktop's size, in English.
func (b *tab) checkFitsEverywhere(what string) {
	b.e.t.Helper()
	for _, v := range sizes {
		b.resize(v)
		for _, lang := range langs {
			b.setLang(lang)
			b.checkFits(fmt.Sprintf("%s (%s, %s)", what, lang, v.name))
		}
	}
	b.resize(desktop)
	b.setLang("en")
}

// contrastJS computes the contrast ratio of every piece of visible text in
// the page's main area against what is really behind it: the background
// colours and gradients of the element and its ancestors composited from
// the first opaque one up, text colour and opacity included. For a gradient
// every colour stop is tried and the worst counts. It returns the texts
// below the WCAG AA ratio (4.5:1, 3:1 for large text). Disabled controls
// are exempt (WCAG 1.4.3).
const contrastJS = `(() => {
  const parse = (s) => { const m = /rgba?\(([^)]*)\)/.exec(s); if (!m) return null; const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(parseFloat); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (top, under) => { const a = top[3]; return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]); };
  const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
  const lum = (c) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  // backgrounds: the possible colours behind e (one per gradient stop).
  const backgrounds = (e) => {
    const layers = [];
    for (let p = e; p; p = p.parentElement) {
      const cs = getComputedStyle(p);
      const c = parse(cs.backgroundColor);
      const stops = cs.backgroundImage && cs.backgroundImage !== 'none' ? [...cs.backgroundImage.matchAll(/rgba?\([^)]*\)/g)].map((m) => parse(m[0])) : [];
      if (stops.length) { layers.push(stops); if (stops.every((s) => s[3] >= 1)) break; }
      if (c && c[3] > 0) { layers.push([c]); if (c[3] >= 1) break; }
    }
    let out = [[255, 255, 255, 1]];
    for (const layer of layers.reverse()) { const next = []; for (const u of out) for (const s of layer) next.push(over(s, u)); out = next; }
    return out;
  };
  const opacity = (e) => { let o = 1; for (let p = e; p; p = p.parentElement) o *= parseFloat(getComputedStyle(p).opacity); return o; };
  const bad = [];
  let checked = 0;
  const root = document.getElementById('app');
  for (const e of root.querySelectorAll('*')) {
    if (e.closest('svg, .sr-only, [disabled], [aria-disabled=true]')) continue;
    if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const cs = getComputedStyle(e);
    if (cs.visibility === 'hidden' || cs.display === 'none') continue;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const fg = parse(cs.color);
    const size = parseFloat(cs.fontSize), weight = parseInt(cs.fontWeight, 10) || 400;
    const need = size >= 24 || (size >= 18.66 && weight >= 700) ? 3 : 4.5;
    const o = opacity(e);
    let worst = 99;
    for (const bg of backgrounds(e)) worst = Math.min(worst, ratio(over([fg[0], fg[1], fg[2], fg[3] * o], bg), bg));
    checked++;
    if (worst < need) bad.push(worst.toFixed(2) + ':1 "' + e.textContent.trim().replace(/\s+/g, ' ').slice(0, 30) + '" (' + e.tagName.toLowerCase() + (typeof e.className === 'string' && e.className ? '.' + e.className.split(' ').join('.') : '') + ', ' + cs.color + ')');
  }
  return { checked, bad: [...new Set(bad)].slice(0, 12) };
})()`

type contrastResult struct {
	Checked int      `json:"checked"`
	Bad     []string `json:"bad"`
}

// checkContrast fails the test on text below WCAG AA in the main area.
func (b *tab) checkContrast(where string) {
	b.e.t.Helper()
	b.settle()
	res, err := eval[contrastResult](b, contrastJS)
	if err != nil {
		b.e.t.Errorf("%s: measure the contrast: %v", where, err)
		return
	}
	if res.Checked < 3 {
		b.e.t.Errorf("%s: only %d texts measured: the page is not drawn", where, res.Checked)
	}
	for _, s := range res.Bad {
		b.e.t.Errorf("%s: contrast %s is below WCAG AA", where, s)
	}
}

// handOnScreenJS says what of the player's hand and its buttons is not on
// the first screen (the page scrolled to the top), or "".
const handOnScreenJS = `(() => {
  window.scrollTo(0, 0);
  const hand = document.querySelector('[data-testid=hand]');
  if (!hand) return 'no hand on the page';
  const area = hand.closest('.hand-area') || hand;
  const vh = window.innerHeight, vw = window.innerWidth;
  const parts = [area, ...area.querySelectorAll('[data-testid=hand-card], .controls button')];
  for (const e of parts) {
    const r = e.getBoundingClientRect();
    if (!r.width) continue;
    if (r.top < -1 || r.bottom > vh + 1 || r.left < -1 || r.right > vw + 1) return (e.dataset.testid || e.className) + ' is off the first screen at ' + Math.round(r.left) + ',' + Math.round(r.top) + '–' + Math.round(r.right) + ',' + Math.round(r.bottom);
  }
  return '';
})()`

// playUntil plays the table's moves with the test's simple player (pickJS)
// until n moves are made, then waits for the player's next turn, so that
// the table stays as it is while it is measured.
func (b *tab) playUntil(n int, limit time.Duration) {
	b.e.t.Helper()
	deadline := time.Now().Add(limit)
	moves := 0
	for time.Now().Before(deadline) {
		b.e.expired(fmt.Sprintf("%s: playing %d moves (%d made)", b.name, n, moves))
		p, ok := b.nextPick(pickWait, 5*time.Second)
		if !ok {
			continue
		}
		if p.Kind == "done" {
			b.e.t.Fatalf("%s: the game ended after %d moves, before %d", b.name, moves, n)
		}
		if moves >= n && p.Kind == "move" {
			time.Sleep(250 * time.Millisecond) // animations
			return
		}
		if b.clickPick(p) && p.Kind == "move" {
			moves++
		}
	}
	b.e.t.Fatalf("%s: %d moves not made within %v", b.name, n, limit)
}

// botsTable creates a table where bots hold every seat (sent on the
// page's own connection, as the create form does) and returns its id once
// the game is finished.
func (b *tab) botsTable(game string, players int, opts map[string]string) string {
	b.e.t.Helper()
	o := map[string]string{"players": strconv.Itoa(players)}
	for k, v := range opts {
		o[k] = v
	}
	bots := map[string]string{}
	for s := 0; s < players; s++ {
		bots[strconv.Itoa(s)] = "random"
	}
	msg, _ := json.Marshal(map[string]any{"type": "create", "game": game, "options": o, "seat": -1, "bots": bots, "bot_level": "random", "clock_ms": 0})
	ctx, cancel := context.WithTimeout(b.ctx, 15*time.Second)
	defer cancel()
	id, err := chromedp.Run(ctx, chromedp.Evaluate[string](`new Promise((done) => window.cardroom.conn.send(`+string(msg)+`,
	  (ans) => done(ans.type === 'created' ? ans.summary.id : 'error: ' + JSON.stringify(ans))))`, chromedp.EvalAwaitPromise))
	if err != nil || !strings.HasPrefix(id, "t_") {
		b.e.t.Fatalf("create a table of bots: %q %v", id, err)
	}
	b.e.serverTotals(id) // waits for the finished record
	return id
}

// openReplay opens a finished table's replay and waits for it to be drawn.
func (b *tab) openReplay(id string) {
	b.e.t.Helper()
	b.must(15*time.Second, "replay", chromedp.Navigate(b.e.base+"/#/replay/"+id), waitVisible(tid("replay-step")),
		pollFor[chromedp.Void](`(() => { const r = window.cardroom.replay; return !!r && !!r.data && !!r.info; })()`))
}

// checkCheckers shows that the measures can fail: a box wider than its
// parent and pale text on a translucent panel over the felt, added to the
// page for a moment, are both reported.
func (b *tab) checkCheckers() {
	b.e.t.Helper()
	if _, err := eval[bool](b, `(() => {
	  const app = document.getElementById('app');
	  const felt = document.createElement('div');
	  felt.id = 'e2e-probe';
	  felt.style.cssText = 'background: radial-gradient(#1f7350, #17553a); width: 200px; padding: 4px';
	  const panel = document.createElement('div');
	  panel.style.cssText = 'background: rgba(255,255,255,.12); color: rgba(244,247,242,.8); width: 260px';
	  panel.textContent = 'pale text on a light panel';
	  felt.appendChild(panel);
	  app.appendChild(felt);
	  return true;
	})()`); err != nil {
		b.e.t.Fatal(err)
	}
	bad, _ := eval[[]string](b, overflowJS)
	res, _ := eval[contrastResult](b, contrastJS)
	if _, err := eval[bool](b, `(document.getElementById('e2e-probe').remove(), true)`); err != nil {
		b.e.t.Fatal(err)
	}
	if !strings.Contains(strings.Join(bad, "\n"), "sticks out of div") {
		b.e.t.Errorf("the overflow check misses a 260px box in a 200px one: %q", bad)
	}
	if !strings.Contains(strings.Join(res.Bad, "\n"), "pale text") {
		b.e.t.Errorf("the contrast check misses pale text on a light panel: %q", res.Bad)
	}
}

// TestLayoutFitsEverywhere: the welcome page, the lobby, each game's table
// in the middle of play, a replay, a tournament's page, a table waiting
// for a player, the account page and the ratings, in every language at two phones' sizes (390 and 360 px) and
// a desktop's: no sideways scrolling (nor of the player's deals of a
// tournament), nothing sticking out of its box, no cut placeholder; the
// text on the panels at WCAG AA contrast; on a phone the player's hand and
// its buttons on the first screen. Screenshots of each table go to
// $CARDROOM_SCREENSHOTS.
func TestLayoutFitsEverywhere(t *testing.T) {
	e := newEnv(t)
	dir := shotDir(t)
	b := e.tab("alice")
	everywhere := func(page string, each func(lang string, v viewport)) {
		for _, v := range sizes {
			b.resize(v)
			for _, lang := range langs {
				b.setLang(lang)
				where := fmt.Sprintf("%s (%s, %s %dx%d)", page, lang, v.name, v.width, v.height)
				b.checkFits(where)
				if each != nil {
					each(lang, v)
				}
			}
			b.setLang("en")
			b.checkContrast(fmt.Sprintf("%s (%s)", page, v.name))
		}
	}
	b.must(20*time.Second, "welcome", chromedp.Navigate(e.base+"/"), waitVisible(tid("name-input")))
	b.resize(desktop)
	b.checkCheckers()
	everywhere("welcome", nil)
	b.resize(desktop)
	// A long name with letters beyond ASCII, as players choose them.
	b.setField("name-input", "Alicja Wąsowska")
	b.must(20*time.Second, "log in", clickOn(tid("name-submit")), waitVisible(tid("create-form")))
	everywhere("lobby", func(lang string, v viewport) {
		if lang == "pl" {
			b.shot(dir, "lobby-"+v.name+"-pl")
		}
	})
	// The lobby with the tournament form open: it fits, and it keeps its
	// box below its toggle (a phone's one-column lobby turned every
	// "stack" inside it into no box at all, the form's first field
	// stuck to the toggle).
	b.must(10*time.Second, "the tournament form", clickOn(tid("tournament-new")), waitVisible(tid("tournament-create")))
	everywhere("tournament form", func(lang string, v viewport) {
		gap, err := eval[float64](b, `(() => {
		  const f = document.querySelector('[data-testid=tournament-form]'), tg = document.querySelector('[data-testid=tournament-new]');
		  return f.getBoundingClientRect().height ? f.querySelector('label').getBoundingClientRect().top - tg.getBoundingClientRect().bottom : -1;
		})()`)
		if err != nil || gap < 8 {
			t.Errorf("tournament form (%s, %s): %.1f px between its toggle and its first field (-1: the form has no box), want 8 or more; %v", lang, v.name, gap, err)
		}
	})
	b.resize(desktop)
	b.must(10*time.Second, "close the tournament form", clickOn(tid("tournament-new")), waitGone(tid("tournament-create")))
	for _, game := range sortedGames() {
		g := gameTests[game]
		b.resize(desktop)
		b.must(10*time.Second, "lobby", chromedp.Navigate(e.base+"/#/"), waitVisible(tid("create-form")))
		// Four players: the widest score sheet.
		opts := map[string]string{}
		for k, v := range g.opts {
			opts[k] = v
		}
		if _, ok := opts["target"]; ok {
			// The whole-game tests' 60 points can end a four-player game
			// within the moves this test plays before measuring (a random
			// deal): a target no first hand reaches keeps it going.
			opts["target"] = "300"
		}
		b.createTable(game, 4, opts, nil)
		b.playUntil(g.shotAt, 60*time.Second)
		// The rules panel says what this table plays (a 300-point target,
		// one round), not only the rules' defaults.
		shown, _ := eval[string](b, `(document.querySelector('[data-testid=table-options]') || {}).textContent || ''`)
		for k, v := range opts {
			if !strings.Contains(shown, ": "+v) {
				t.Errorf("%s: the table's options read %q, without its %s=%s", game, shown, k, v)
			}
		}
		everywhere(game+" table", func(lang string, v viewport) {
			if lang == "en" || lang == "cs" {
				b.shot(dir, fmt.Sprintf("%s-%s-%s", game, v.name, lang))
			}
			// On every screen (the hand is sticky there: app.css).
			if msg, err := eval[string](b, handOnScreenJS); err != nil || msg != "" {
				t.Errorf("%s table (%s, %s): the hand is not on the first screen: %s %v", game, lang, v.name, msg, err)
			}
		})
	}
	// The lobby again, now with the three games in progress.
	b.resize(desktop)
	b.must(10*time.Second, "lobby with games", chromedp.Navigate(e.base+"/#/"), waitVisible(tid("in-progress")))
	everywhere("lobby with games in progress", func(lang string, v viewport) {
		if lang == "tr" {
			b.shot(dir, "lobby-games-"+v.name+"-tr")
		}
	})
	b.resize(desktop)
	id := b.botsTable("papayoo", 4, map[string]string{"rounds": "2"})
	b.openReplay(id)
	// In the middle of round 2, seen by seat 0: a hand, a trick, scores.
	b.setField("replay-seat", "0")
	b.must(10*time.Second, "seat 0", pollFor[chromedp.Void](`window.cardroom.replay.data.seat === 0 && !window.cardroom.replay.busy`))
	b.setField("replay-round", "2")
	b.must(10*time.Second, "round 2", pollFor[chromedp.Void](`window.cardroom.replay.data.view.round === 2 && !window.cardroom.replay.busy`))
	for i := 0; i < 3; i++ {
		b.must(10*time.Second, "next trick", clickOn(tid("replay-next-trick")), chromedp.Sleep(50*time.Millisecond),
			pollFor[chromedp.Void](`!window.cardroom.replay.busy`))
	}
	everywhere("replay", func(lang string, v viewport) {
		if lang == "en" {
			b.shot(dir, "replay-"+v.name)
		}
	})
	// A duplicate tournament's page, its first deal played: the player's
	// deals (one to replay, eleven to play), the standings of twelve deals
	// (the widest: they may scroll sideways in their own box) and the
	// deal's comparison. One entrant: it starts at once.
	b.resize(desktop)
	tn, err := evalAsync[string](b, `import('/js/net.js').then((m) => m.api('POST', '/api/tournaments',
	  {game: 'papayoo', options: {players: '3'}, deals: 12, max_entrants: 1, deal_minutes: 60, bot_level: 'random'})).then((tn) => tn.id, (err) => 'error: ' + err.message)`)
	if err != nil || !strings.HasPrefix(tn, "tn_") {
		t.Fatalf("create a tournament: %q %v", tn, err)
	}
	b.must(15*time.Second, "tournament", chromedp.Navigate(e.base+"/#/tournament/"+tn), waitVisible(tid("tournament-play-0")))
	b.must(15*time.Second, "play deal 1", clickOn(tid("tournament-play-0")), waitVisible(tid("felt")))
	b.playToEnd(60*time.Second, nil)
	b.must(15*time.Second, "the tournament after deal 1", chromedp.Navigate(e.base+"/#/tournament/"+tn),
		waitVisible(tid("tournament-replay-0")), waitVisible(tid("tournament-comparisons")))
	everywhere("tournament", func(lang string, v viewport) {
		if lang == "pl" {
			b.shot(dir, "tournament-"+v.name+"-pl")
		}
		if msg, err := eval[string](b, myDealsFitJS); err != nil || msg != "" {
			t.Errorf("tournament (%s, %s): %s %v", lang, v.name, msg, err)
		}
	})
	// A table waiting for a player: its invite link to copy.
	b.resize(desktop)
	b.must(10*time.Second, "lobby", chromedp.Navigate(e.base+"/#/"), waitVisible(tid("create-form")))
	b.createTable("papayoo", 3, map[string]string{"rounds": "1"}, []int{1})
	b.must(10*time.Second, "waiting", waitVisible(tid("invite-link")))
	everywhere("waiting table", func(lang string, v viewport) {
		if lang == "cs" {
			b.shot(dir, "waiting-"+v.name+"-cs")
		}
	})
	// The account page of a guest (its sessions, one block each on a
	// phone: four columns made the page 415 px wide at 360 in Polish) and
	// the ratings.
	b.resize(desktop)
	b.must(10*time.Second, "account", chromedp.Navigate(e.base+"/#/account"), waitVisible(tid("session-list")))
	everywhere("account", func(lang string, v viewport) {
		if lang == "pl" {
			b.shot(dir, "account-"+v.name+"-pl")
		}
	})
	b.resize(desktop)
	b.must(10*time.Second, "ratings", chromedp.Navigate(e.base+"/#/ratings"), waitVisible(chromedp.CSS(`[data-testid=ratings-empty], [data-testid=ratings-table]`)))
	everywhere("ratings", nil)
	e.checkJS()
}

// myDealsFitJS says what of the player's deals on a tournament's page
// needs sideways scrolling (a Play button out of sight), or "": unlike the
// standings, they have a fixed few columns.
const myDealsFitJS = `(() => {
  const t = document.querySelector('[data-testid=tournament-my-deals]');
  if (!t) return 'no table of the player\'s deals';
  const box = t.parentElement, vw = document.documentElement.clientWidth;
  if (box.scrollWidth > box.clientWidth + 1) return 'the player\'s deals scroll sideways: ' + box.scrollWidth + 'px in a ' + box.clientWidth + 'px box';
  for (const a of t.querySelectorAll('a, button')) {
    const r = a.getBoundingClientRect();
    if (r.left < -1 || r.right > vw + 1) return '"' + a.textContent + '" is off the screen at ' + Math.round(r.left) + '–' + Math.round(r.right);
  }
  return '';
})()`

// TestReplayControls: a replay jumps to a round, plays and pauses at a
// chosen speed, steps by trick, shows the table's options and no action
// buttons.
func TestReplayControls(t *testing.T) {
	e := newEnv(t)
	b := e.tab("alice")
	b.login("alice")
	id := b.botsTable("papayoo", 3, map[string]string{"rounds": "2"})
	b.openReplay(id)
	step := func() int {
		n, err := eval[int](b, `window.cardroom.replay.data.step`)
		if err != nil {
			t.Fatalf("replay step: %v", err)
		}
		return n
	}
	view := func(js string) int {
		n, err := eval[int](b, `(() => { const v = window.cardroom.replay.data.view; return `+js+`; })()`)
		if err != nil {
			t.Fatalf("replay view %s: %v", js, err)
		}
		return n
	}
	// The record's options.
	opts, _ := eval[string](b, `(document.querySelector('[data-testid=replay-options]') || {}).textContent || ''`)
	if !strings.Contains(opts, "Rounds") || !strings.Contains(opts, "2") {
		t.Errorf("the replay's options say %q, want the table's 2 rounds", opts)
	}
	// No action button of the game is shown, enabled or not.
	if n, _ := eval[int](b, `[...document.querySelectorAll('[data-testid=replay] button')].filter((e) => !e.closest('[data-testid=replay-bar]')).filter((e) => e.disabled || e.matches('.controls:not([data-testid=replay-bar]) *')).length`); n != 0 {
		t.Errorf("the replay shows %d action buttons of the game", n)
	}
	// Jump to round 2.
	b.setField("replay-round", "2")
	b.must(10*time.Second, "jump to round 2", pollFor[chromedp.Void](`(() => { const v = window.cardroom.replay.data.view; return v.round === 2; })()`))
	s2 := step()
	b.setField("replay-round", "1")
	b.must(10*time.Second, "jump to round 1", pollFor[chromedp.Void](`window.cardroom.replay.data.view.round <= 1`))
	if s1 := step(); s1 >= s2 {
		t.Errorf("round 1 starts at step %d, round 2 at %d", s1, s2)
	}
	// The step before round 2's first is still in round 1.
	b.setField("replay-round", "2")
	b.must(10*time.Second, "round 2 again", pollFor[chromedp.Void](`window.cardroom.replay.data.view.round === 2`))
	if got := step(); got != s2 {
		t.Errorf("round 2 starts at step %d, then at %d", s2, got)
	}
	b.must(10*time.Second, "back one", clickOn(tid("replay-prev")), pollFor[chromedp.Void](fmt.Sprintf(`window.cardroom.replay.data.step === %d`, s2-1)))
	if r := view(`v.round`); r != 1 {
		t.Errorf("the step before round 2's start is in round %d", r)
	}
	// Step by trick: from the start of play, each press completes one more
	// trick.
	b.must(10*time.Second, "round 1", clickOn(tid("replay-first")), pollFor[chromedp.Void](`window.cardroom.replay.data.step === 0`))
	for i := 1; i <= 3; i++ {
		before := step()
		b.must(15*time.Second, "next trick", clickOn(tid("replay-next-trick")),
			pollFor[chromedp.Void](fmt.Sprintf(`window.cardroom.replay.data.step > %d && !window.cardroom.replay.busy`, before)))
		if got := view(`(v.tricks || []).length`); got != i {
			t.Errorf("after %d presses of next trick the view has %d tricks (step %d)", i, got, step())
		}
	}
	b.must(15*time.Second, "previous trick", clickOn(tid("replay-prev-trick")), pollFor[chromedp.Void](`!window.cardroom.replay.busy && (window.cardroom.replay.data.view.tricks || []).length === 2`))
	// Play at the fastest speed, then pause: the steps advance by themselves
	// and stop.
	b.setField("replay-speed", "4")
	at := step()
	b.must(5*time.Second, "play", clickOn(tid("replay-play")), pollFor[chromedp.Void](fmt.Sprintf(`window.cardroom.replay.data.step >= %d`, at+3)))
	if p, _ := eval[string](b, `document.querySelector('[data-testid=replay-play]').getAttribute('aria-pressed')`); p != "true" {
		t.Errorf("the play button is not pressed while playing (aria-pressed=%q)", p)
	}
	b.must(5*time.Second, "pause", clickOn(tid("replay-play")), pollFor[chromedp.Void](`!window.cardroom.replay.playing && !window.cardroom.replay.busy`))
	paused := step()
	time.Sleep(700 * time.Millisecond)
	if got := step(); got != paused {
		t.Errorf("after pause the replay moved from step %d to %d", paused, got)
	}
	// The arrow keys still step.
	b.must(5*time.Second, "focus the bar", focusOn(tid("replay-next")))
	b.must(5*time.Second, "arrow", chromedp.KeyEvent(kb.ArrowRight), pollFor[chromedp.Void](fmt.Sprintf(`window.cardroom.replay.data.step === %d`, paused+1)))
	e.checkJS()
}

// TestLobbyResumeAndAccess: a game in progress is listed in the lobby with a
// Resume button that brings the player back to their seat; the create form
// starts with no clock each time; the welcome page focuses the name field
// and no page change draws a focus ring around the whole page; the arrow
// keys move within the hand.
func TestLobbyResumeAndAccess(t *testing.T) {
	e := newEnv(t)
	b := e.tab("alice")
	b.must(20*time.Second, "welcome", chromedp.EmulateViewport(1280, 900), chromedp.Navigate(e.base+"/"), waitVisible(tid("name-input")))
	b.must(5*time.Second, "the name field has focus", pollFor[chromedp.Void](`document.activeElement && document.activeElement.dataset.testid === 'name-input'`))
	// Typed at once, without a click.
	b.must(5*time.Second, "type", chromedp.KeyEvent("alice"), chromedp.KeyEvent(kb.Enter), waitVisible(tid("create-form")))
	ring := func(where string) {
		got, _ := eval[string](b, `(() => { const m = document.getElementById('app'); const cs = getComputedStyle(m); return document.activeElement === m ? cs.outlineStyle + ' ' + cs.outlineWidth : 'none'; })()`)
		if !strings.HasPrefix(got, "none") && !strings.HasSuffix(got, " 0px") {
			t.Errorf("%s: the whole page has a focus ring (%s)", where, got)
		}
	}
	ring("lobby")
	// A clock chosen once is not chosen again for the next table.
	b.setField("create-clock", "30000")
	id := b.createTable("papayoo", 3, map[string]string{"rounds": "1"}, nil)
	ring("table")
	b.must(10*time.Second, "pass", waitVisible(tid("pass-confirm")))
	// Arrow keys within the hand.
	b.must(5*time.Second, "focus a card", focusOn(chromedp.CSS(`[data-testid=hand-card]`)))
	cards, _ := eval[[]string](b, `[...document.querySelectorAll('[data-testid=hand-card]')].map((e) => e.dataset.card)`)
	if len(cards) < 3 {
		t.Fatalf("hand %v", cards)
	}
	focused := func() string {
		s, _ := eval[string](b, `document.activeElement.dataset.card || document.activeElement.tagName`)
		return s
	}
	b.must(5*time.Second, "right", chromedp.KeyEvent(kb.ArrowRight))
	if got := focused(); got != cards[1] {
		t.Errorf("ArrowRight from the first card focuses %q, want %q", got, cards[1])
	}
	b.must(5*time.Second, "end", chromedp.KeyEvent(kb.End))
	if got := focused(); got != cards[len(cards)-1] {
		t.Errorf("End focuses %q, want the last card %q", got, cards[len(cards)-1])
	}
	b.must(5*time.Second, "left", chromedp.KeyEvent(kb.ArrowLeft))
	if got := focused(); got != cards[len(cards)-2] {
		t.Errorf("ArrowLeft focuses %q, want %q", got, cards[len(cards)-2])
	}
	b.must(5*time.Second, "home", chromedp.KeyEvent(kb.Home))
	if got := focused(); got != cards[0] {
		t.Errorf("Home focuses %q, want %q", got, cards[0])
	}
	// The lobby lists the game in progress with a Resume button.
	// Back to the lobby by keyboard: the page change that drew the ring.
	b.must(10*time.Second, "lobby", focusOn(tid("back-lobby")), chromedp.KeyEvent(kb.Enter), waitVisible(tid("create-form")))
	ring("lobby again")
	if c, _ := eval[string](b, `document.querySelector('[data-testid=create-clock]').value`); c != "0" {
		t.Errorf("the create form's clock starts at %q, want no clock (0)", c)
	}
	// An empty number field says what it means for this table: the
	// default for this many players, not just "default".
	for _, tc := range []struct{ game, players, opt, want string }{
		{"papayoo", "5", "rounds", "(5)"},
		{"rum500", "6", "decks", ": 2"},
		{"rum500", "3", "decks", ": 1"},
	} {
		b.must(5*time.Second, "pick "+tc.game, clickOn(tid("create-game-"+tc.game)), waitVisible(tid("opt-"+tc.opt)))
		b.setField("opt-players", tc.players)
		ph, _ := eval[string](b, `document.querySelector('[data-testid=opt-`+tc.opt+`]').placeholder`)
		if !strings.Contains(ph, tc.want) {
			t.Errorf("%s with %s players: the empty %s field reads %q, want %q in it", tc.game, tc.players, tc.opt, ph, tc.want)
		}
	}
	b.must(10*time.Second, "in progress", waitVisible(tid("resume-"+id)))
	status, _ := eval[string](b, `document.querySelector('[data-testid=in-progress]').textContent`)
	if !strings.Contains(status, "Papayoo") || !strings.Contains(status, "Rounds: 1") {
		t.Errorf("the game in progress reads %q, want its game and its rounds", status)
	}
	b.must(10*time.Second, "resume", clickOn(tid("resume-"+id)), waitVisible(tid("hand")))
	if got, _ := eval[string](b, `document.querySelector('[data-testid=felt]').dataset.table + '/' + document.querySelector('[data-testid=felt]').dataset.seat`); got != id+"/0" {
		t.Errorf("resume shows %q, want table %s seat 0", got, id)
	}
	e.checkJS()
}

// TestPhoneHandSpread: on a phone a hand overlaps its cards so that eight
// fit one row, but five or fewer (the end of every Papayoo round and Pis
// Yedili hand) lie side by side, each wholly visible to tap; every card
// stays on the screen, and at 360 px wide too.
func TestPhoneHandSpread(t *testing.T) {
	e := newEnv(t)
	b := e.tab("alice")
	b.login("alice")
	fakeTable(t, b, "t_fakespread")
	hands := []struct {
		cards  []string
		spread bool  // no two cards overlap
		oneRow int64 // from this screen width on, the hand is one row
	}{
		{[]string{"1S", "3S"}, true, 0},
		{[]string{"1S", "3S", "8D", "9D", "7P"}, true, 0},
		// Eight of four suits fit one row at 360 px, eight of five suits
		// (Papayoo's) at 390.
		{[]string{"1S", "2S", "3H", "4H", "8D", "9D", "2C", "5C"}, false, 360},
		{[]string{"1S", "2S", "3H", "4H", "8D", "9D", "2C", "5P"}, false, phone.width},
	}
	for _, v := range []viewport{phone, smallPhone} {
		b.resize(v)
		for i, h := range hands {
			cards, _ := json.Marshal(h.cards)
			seq := 10*i + 1
			if v != phone {
				seq += 100
			}
			var got struct {
				Err     string `json:"err"`
				Overlap bool   `json:"overlap"`
				Rows    int    `json:"rows"`
				N       int    `json:"n"`
			}
			runAsync(t, b, 10*time.Second, fmt.Sprintf(`
			  const hand = %s;
			  __send({seq: %d, view: __pv({hand, hand_sizes: [hand.length, 3, 3]})});
			  const t0 = performance.now();
			  while (document.querySelector('[data-testid=felt]')?.dataset.seq !== '%d' && performance.now() - t0 < 8000) await __sleep(20);
			  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
			  const rs = [...document.querySelectorAll('[data-testid=hand-card]')].map((c) => c.getBoundingClientRect());
			  let err = '', overlap = false;
			  const tops = new Set();
			  rs.forEach((r, k) => {
			    tops.add(Math.round(r.top));
			    if (r.left < -1 || r.right > innerWidth + 1) err = 'card ' + k + ' off the screen at ' + Math.round(r.left) + '–' + Math.round(r.right);
			    if (k > 0 && r.top === rs[k - 1].top && r.left < rs[k - 1].right - 0.5) overlap = true;
			  });
			  return JSON.stringify({err, overlap, rows: tops.size, n: rs.length});`, string(cards), seq, seq), &got)
			where := fmt.Sprintf("%s, %d cards", v.name, len(h.cards))
			if got.N != len(h.cards) {
				t.Fatalf("%s: %d cards in the hand on screen", where, got.N)
			}
			if got.Err != "" {
				t.Errorf("%s: %s", where, got.Err)
			}
			if h.spread && got.Overlap {
				t.Errorf("%s: the cards overlap; a small hand should lie side by side", where)
			}
			if !h.spread && !got.Overlap {
				t.Errorf("%s: the cards do not overlap; eight need to, to fit one row", where)
			}
			if v.width >= h.oneRow && got.Rows != 1 {
				t.Errorf("%s: the hand takes %d rows, want 1", where, got.Rows)
			}
		}
	}
	e.checkJS()
}

// TestTrickNamesReadable: the players' names under the cards of a
// Papayoo trick (six of them, two rows on a 360 px screen) are at least
// 11 px and show at least their first ten characters, on the screen and
// clear of each other and of the cards, at every size and in every
// language.
func TestTrickNamesReadable(t *testing.T) {
	e := newEnv(t)
	b := e.tab("alice")
	b.login("alice")
	fakeTable(t, b, "t_fakenames")
	b.must(10*time.Second, "a trick of six", chromedp.Evaluate[chromedp.Void](`(() => {
	  const seats = ['Alicja Wąsowska', 'bot:random', 'bot:medium', 'Krzysztof Brzęczyszczykiewicz', 'bot:hard', 'Zeynep Yılmaz']
	    .map((name, seat) => ({seat, name, kind: name.startsWith('bot:') ? 'bot' : 'human', connected: true}));
	  const six = [0, 0, 0, 0, 0, 0];
	  __send({seq: 7, options: {players: '6', rounds: '1'}, seats, view: __pv({players: 6, round_count: 1, hand: ['3H', '8D'],
	    hand_sizes: [2, 2, 2, 2, 2, 2], passed: six.map(() => true), points: six, totals: six,
	    trick: {leader: 1, cards: ['2S', '5S', '9S', '10S', '4S', '1S'], winner: -1}})});
	})()`), waitVisible(chromedp.CSS(`[data-testid=trick] .who`)))
	for _, v := range sizes {
		b.resize(v)
		for _, lang := range langs {
			b.setLang(lang)
			b.settle()
			bad, err := eval[[]string](b, trickNamesJS)
			if err != nil {
				t.Fatalf("measure the names: %v", err)
			}
			for _, s := range bad {
				t.Errorf("%s, %s: %s", v.name, lang, s)
			}
			if lang == "pl" {
				b.shot(shotDir(t), "trick-names-"+v.name+"-pl")
			}
		}
	}
	e.checkJS()
}

// trickNamesJS lists what makes a name under a trick's card hard to read:
// smaller than 11 px, cut to fewer than its first ten characters (by an
// ellipsis or a clamp: the characters drawn inside the label's box count),
// off the screen, its letters over another name's or its box over another
// card.
const trickNamesJS = `(() => {
  const out = [];
  const labels = [...document.querySelectorAll('[data-testid=trick] .card .who')];
  if (labels.length < 6) return ['only ' + labels.length + ' names under the trick'];
  const cards = [...document.querySelectorAll('[data-testid=trick] .card')].map((c) => c.getBoundingClientRect());
  const vw = document.documentElement.clientWidth;
  const rs = labels.map((l) => l.getBoundingClientRect());
  const meet = (a, b) => a.left < b.right - .5 && b.left < a.right - .5 && a.top < b.bottom - .5 && b.top < a.bottom - .5;
  // The lines of a name's letters, as far as they are drawn in its box.
  const letters = labels.map((l, i) => {
    const rg = document.createRange();
    rg.selectNodeContents(l);
    const r = rs[i];
    return [...rg.getClientRects()].map((q) => ({left: Math.max(q.left, r.left), right: Math.min(q.right, r.right), top: Math.max(q.top, r.top), bottom: Math.min(q.bottom, r.bottom)}))
      .filter((q) => q.right > q.left && q.bottom > q.top);
  });
  labels.forEach((l, i) => {
    const name = l.textContent, r = rs[i];
    const size = parseFloat(getComputedStyle(l).fontSize);
    if (size < 11) out.push('"' + name + '" is ' + size + 'px');
    const rg = document.createRange();
    let shown = 0;
    for (let k = 0; k < name.length; k++) {
      rg.setStart(l.firstChild, k);
      rg.setEnd(l.firstChild, k + 1);
      const q = rg.getBoundingClientRect();
      if (q.width && q.left >= r.left - .5 && q.right <= r.right + .5 && q.bottom <= r.bottom + .5) shown++;
    }
    // An ellipsis covers the last character drawn.
    if (l.scrollWidth > l.clientWidth || l.scrollHeight > l.clientHeight) shown--;
    const want = Math.min(name.length, 10);
    if (shown < want) out.push('"' + name + '" shows ' + Math.max(shown, 0) + ' characters, fewer than ' + want);
    if (r.left < -1 || r.right > vw + 1) out.push('"' + name + '" is off the screen');
    for (let j = 0; j < i; j++) if (letters[i].some((a) => letters[j].some((b) => meet(a, b)))) out.push('"' + name + '" overlaps "' + labels[j].textContent + '"');
    cards.forEach((c, j) => { if (j !== i && meet(r, c)) out.push('"' + name + '" overlaps card ' + (j + 1) + ' of the trick'); });
  });
  return out;
})()`

// TestScreenReaderAnnouncements: what a screen reader hears at a table. A
// page-wide polite live region says what other players did (the status
// line says only whose turn it is, and the history list is not live); the
// turn clock's seconds are not in a live region (it was read out every
// second); the lobby's list is not live (every change re-read the whole
// list); and a burst of the same refusal is one message, counted, not a
// column of them.
func TestScreenReaderAnnouncements(t *testing.T) {
	e := newEnv(t)
	b := e.tab("alice")
	b.login("alice")
	if live, _ := eval[string](b, `document.getElementById('lobby-tables').getAttribute('aria-live') || ''`); live != "" {
		t.Errorf("the lobby's table list is a live region (%q)", live)
	}
	b.must(10*time.Second, "pick the game", clickOn(tid("create-game-pisyedili")), waitVisible(tid("opt-players")))
	b.setField("quick-level", "random")
	b.setField("opt-players", "2")
	b.setField("create-clock", "60000")
	b.must(15*time.Second, "create the table", clickOn(tid("create-submit")), waitVisible(tid("felt")))
	// Every text the region is given, as a screen reader would hear it.
	eval[bool](b, `(() => { window.__heard = []; new MutationObserver(() => { const x = document.getElementById('announce').textContent; if (x) window.__heard.push(x); })
	  .observe(document.getElementById('announce'), {childList: true, characterData: true, subtree: true}); return true; })()`)
	// Alice plays until the bot has moved (she may draw several times
	// first: in the opening round a player without a club draws until she
	// has one, and 20 draws without a club, about one deal in 300, failed
	// a CI run).
	botHeard := func(x string) bool { return strings.Contains(x, "Bot 2 (random) ") }
	var heard []string
	for range 80 {
		b.playUntil(1, 30*time.Second)
		if heard, _ = eval[[]string](b, `window.__heard`); slices.ContainsFunc(heard, botHeard) {
			break
		}
	}
	if !slices.ContainsFunc(heard, botHeard) {
		t.Errorf("no move of the bot was announced; heard %q", heard)
	}
	if role, _ := eval[string](b, `document.getElementById('announce').getAttribute('aria-live')`); role != "polite" {
		t.Errorf("the announcements' region is aria-live %q, want polite", role)
	}
	b.waitJS("my clock", `!!document.querySelector('[data-testid=my-clock]')`)
	if hidden, _ := eval[string](b, `document.querySelector('[data-testid=my-clock]').getAttribute('aria-hidden') || ''`); hidden != "true" {
		t.Errorf("the ticking clock is read out (aria-hidden %q)", hidden)
	}
	var got string
	runAsync(t, b, 10*time.Second, `
	  const m = await import('/js/app.js');
	  for (let i = 0; i < 5; i++) m.showError({code: 'rate_limited', message: 'at most 20 chat lines a minute'});
	  const ts = [...document.querySelectorAll('[data-testid=error-toast]')];
	  return JSON.stringify(ts.length + ' ' + ts.map((x) => x.textContent).join(' | '));`, &got)
	if !strings.HasPrefix(got, "1 ") || !strings.Contains(got, "(×5)") {
		t.Errorf("five identical refusals show as %q, want one message counted ×5", got)
	}
	b.checkErrors()
	e.checkJS()
}
