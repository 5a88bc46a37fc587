package e2e

// Accessibility for players who use a keyboard or a screen reader: every
// control of every view has a name in every language (read from
// Chromium's accessibility tree, as a screen reader gets it), nothing
// answers the mouse only, a whole game of each game can be played with the
// keyboard alone (Tab, Shift+Tab, the arrows in the hand, Enter) with a
// visible focus that a redraw of the table never drops onto the page's
// body, and what happens at the table reaches a polite live region.

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"cardroom/server"
)

// a11yLangs are the page's languages; the audits run in each.
var a11yLangs = []string{"en", "pl", "cs", "tr"}

// namedRoles are the roles a screen reader offers as controls: each needs
// a name.
var namedRoles = map[string]bool{
	"button": true, "link": true, "textbox": true, "searchbox": true, "combobox": true, "listbox": true,
	"checkbox": true, "radio": true, "switch": true, "tab": true, "spinbutton": true, "slider": true,
	"menuitem": true, "image": true, "dialog": true, "alertdialog": true, "toolbar": true,
}

// bareRoles are roles that say nothing: a focusable element with one of
// them is announced as nothing at all.
var bareRoles = map[string]bool{"generic": true, "none": true, "presentation": true, "": true}

// rawKey is a translation key left in the page (a missing text).
var rawKey = regexp.MustCompile(`^[a-z0-9_]+(\.[a-z0-9_]+)+$`)

// mouseOnlyJS lists the visible elements that answer a click (dom.js keeps
// its handlers under a symbol named "on") but take no keyboard focus and
// are no control: a keyboard or a screen reader cannot reach them.
const mouseOnlyJS = `(() => {
  const out = [];
  const native = 'button, a[href], input:not([type=hidden]), select, textarea, summary';
  for (const e of document.querySelectorAll('body *')) {
    const s = Object.getOwnPropertySymbols(e).find((x) => x.description === 'on');
    if (!s || !e[s] || !e[s].click) continue;
    if (!e.getClientRects().length || e.matches(native) || e.hasAttribute('tabindex')) continue;
    out.push('mouse only: <' + e.tagName.toLowerCase() + ' ' + (e.dataset.testid || e.className) + '> ' + (e.textContent || '').trim().slice(0, 40));
  }
  // A label on a plain div or span is ignored by screen readers: it needs
  // a role (group, img, region…).
  for (const e of document.querySelectorAll('div[aria-label]:not([role]), span[aria-label]:not([role])')) {
    if (!e.getClientRects().length) continue;
    out.push('label without a role: <' + e.tagName.toLowerCase() + ' ' + (e.dataset.testid || e.className) + '> ' + e.getAttribute('aria-label').slice(0, 40));
  }
  return out;
})()`

// axString reads a value of the accessibility tree as text.
func axString(v *accessibility.Value) string {
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	var s any
	if err := json.Unmarshal(v.Value, &s); err != nil {
		return string(v.Value)
	}
	return fmt.Sprint(s)
}

// axProblems reads the page's accessibility tree: a control without a
// name, a name that is a translation key, a focusable element that a
// screen reader announces as nothing (no role).
func (b *tab) axProblems() []string {
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	tree, err := chromedp.Call(ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		b.e.t.Fatalf("%s: accessibility tree: %v", b.name, err)
	}
	var out []string
	for _, n := range tree.Nodes {
		if n.Ignored {
			continue
		}
		role, name := axString(n.Role), strings.TrimSpace(axString(n.Name))
		focusable := false
		for _, p := range n.Properties {
			if p.Name == accessibility.PropertyNameFocusable && axString(p.Value) == "true" {
				focusable = true
			}
		}
		var what string
		switch {
		case namedRoles[role] && name == "":
			what = role + " without a name"
		case namedRoles[role] && rawKey.MatchString(name):
			what = role + " named by a missing text " + name
		case focusable && bareRoles[role]:
			what = "focusable element without a role (" + role + ")"
		default:
			continue
		}
		out = append(out, what+": "+b.describeNode(ctx, n.BackendDOMNodeID))
	}
	return out
}

// describeNode says which element a node of the tree is: its tag and
// attributes.
func (b *tab) describeNode(ctx context.Context, id cdp.BackendNodeID) string {
	d, err := chromedp.Call(ctx, dom.DescribeNode, dom.DescribeNodeParams{BackendNodeID: id})
	if err != nil || d.Node == nil {
		return fmt.Sprintf("node %d", id)
	}
	var attrs []string
	for i := 0; i+1 < len(d.Node.Attributes); i += 2 {
		if k := d.Node.Attributes[i]; k == "data-testid" || k == "class" || k == "id" || k == "role" || k == "tabindex" {
			attrs = append(attrs, k+"="+d.Node.Attributes[i+1])
		}
	}
	return "<" + strings.ToLower(d.Node.NodeName) + " " + strings.Join(attrs, " ") + ">"
}

// problems lists what is wrong with the page on screen.
func (b *tab) problems() []string {
	b.e.t.Helper()
	probs := b.axProblems()
	mouse, err := eval[[]string](b, mouseOnlyJS)
	if err != nil {
		b.e.t.Fatalf("%s: %v", b.name, err)
	}
	probs = append(probs, mouse...)
	slices.Sort(probs)
	return slices.Compact(probs)
}

// audit fails the test on every problem of the page on screen (where
// says which view and language).
func (b *tab) audit(where string) {
	b.e.t.Helper()
	for _, p := range b.problems() {
		b.e.t.Errorf("%s: %s", where, p)
	}
}

// auditCatches shows that the audit can fail: a button without a name, a
// focusable element without a role and a clickable box that takes no
// focus, added to the page for a moment, are each reported.
func (b *tab) auditCatches() {
	b.e.t.Helper()
	var ok bool
	runAsync(b.e.t, b, 10*time.Second, `const { h } = await import('/js/dom.js');
	  const box = h('div', { id: 'a11y-planted' }, h('button', { type: 'button', 'data-testid': 'planted-button' }),
	    h('span', { tabindex: '0', 'data-testid': 'planted-focus' }, 'x'), h('div', { 'data-testid': 'planted-click', onclick: () => {} }, 'y'),
	    h('div', { 'data-testid': 'planted-label', 'aria-label': 'unheard' }, 'z'));
	  document.getElementById('app').append(box);
	  return 'true';`, &ok)
	got := strings.Join(b.problems(), "\n")
	for _, want := range []string{"button without a name: <button data-testid=planted-button>", "focusable element without a role (generic): <span tabindex=0 data-testid=planted-focus>",
		"mouse only: <div planted-click> y", "label without a role: <div planted-label> unheard"} {
		if !strings.Contains(got, want) {
			b.e.t.Errorf("the audit missed a planted fault %q; it reported:\n%s", want, got)
		}
	}
	eval[bool](b, `(document.getElementById('a11y-planted').remove(), true)`)
}

// auditLangs audits the view in every language, and returns to English.
func (b *tab) auditLangs(where string) {
	b.e.t.Helper()
	for _, l := range a11yLangs {
		b.setLang(l)
		b.audit(where + " [" + l + "]")
	}
	b.setLang("en")
}

// TestA11yLobbyAndPages audits the welcome page, the lobby (with the
// create form of each game and the tournament form), the account page,
// the leaderboard and a tournament's page, in every language.
func TestA11yLobbyAndPages(t *testing.T) {
	e := newEnv(t)
	b := e.tab("alice")
	b.must(20*time.Second, "open", chromedp.EmulateViewport(1280, 900), chromedp.Navigate(e.base+"/"), waitVisible(tid("name-input")))
	b.auditCatches()
	b.auditLangs("welcome page")
	b.must(10*time.Second, "log in", sendKeys(tid("name-input"), "alice"), clickOn(tid("name-submit")), waitVisible(tid("create-form")))
	b.auditLangs("lobby")
	for _, g := range sortedGames() {
		b.must(10*time.Second, "pick "+g, clickOn(tid("create-game-"+g)), waitVisible(tid("opt-players")))
		b.audit("lobby, " + g + "'s create form")
	}
	b.must(10*time.Second, "the tournament form", focusOn(tid("tournament-new")), chromedp.KeyEvent(kb.Enter), chromedp.Sleep(300*time.Millisecond))
	b.must(10*time.Second, "the tournament form", waitVisible(tid("tournament-form")))
	b.auditLangs("lobby, tournament form")
	b.must(10*time.Second, "close the tournament form", focusOn(tid("tournament-new")), chromedp.KeyEvent(kb.Enter), waitGone(tid("tournament-form")))
	b.must(10*time.Second, "account page", chromedp.Navigate(e.base+"/#/account"), waitVisible(tid("account-view")), chromedp.Sleep(300*time.Millisecond))
	b.auditLangs("account page")
	b.must(10*time.Second, "ratings page", chromedp.Navigate(e.base+"/#/ratings/papayoo"), chromedp.Sleep(500*time.Millisecond))
	b.audit("leaderboard")
	b.must(10*time.Second, "lobby again", chromedp.Navigate(e.base+"/#/"), waitVisible(tid("create-form")))
	b.fillTournamentForm(2)
	b.must(15*time.Second, "create the tournament", clickOn(tid("tournament-create")), pollFor[chromedp.Void](`location.hash.startsWith('#/tournament/tn_')`), waitVisible(tid("tournament-status")), chromedp.Sleep(300*time.Millisecond))
	b.auditLangs("tournament page")
	e.checkJS()
}

// feed hands a made-up state to the page (fakeTable's __send) and waits
// until the table shows it.
func (b *tab) feed(seq int, state string) {
	b.e.t.Helper()
	b.must(10*time.Second, fmt.Sprintf("state %d", seq), chromedp.Evaluate[chromedp.Void](`__send(Object.assign({seq: `+fmt.Sprint(seq)+`}, `+state+`))`),
		pollFor[chromedp.Void](fmt.Sprintf(`(document.querySelector('[data-testid=felt]') || {dataset: {}}).dataset.seq === '%d'`, seq)), framesDrawn)
}

// press focuses sel and presses key there (Enter: the control's action).
func (b *tab) press(what, sel, key string) {
	b.e.t.Helper()
	b.must(10*time.Second, what, waitVisible(chromedp.CSS(sel)), focusOn(chromedp.CSS(sel)), chromedp.KeyEvent(key), framesDrawn)
}

// focusKept fails when the focus fell to the page's body (a keyboard
// player starts again from the top of the page, a screen reader says
// nothing) after what.
func (b *tab) focusKept(what string) {
	b.e.t.Helper()
	if on, _ := eval[string](b, `document.activeElement === document.body || !document.activeElement ? 'body' : document.activeElement.tagName`); on == "body" {
		b.e.t.Errorf("%s: the focus fell to the page's body", what)
	}
}

// TestA11yTables audits each game's table with made-up states showing its
// special controls (Papayoo's pass and final scores, Pis Yedili's jack suit
// choice and penalty, 500 Rum's take from the pile, lay-off and meld
// choice) in every language, worked with the keyboard; the focus stays on
// the page when a control it was on goes away; the status line stays one
// live region when a notice opens above it.
func TestA11yTables(t *testing.T) {
	e := newEnv(t)
	b := e.tab("alice")
	b.login("alice")
	fakeTable(t, b, "t_fakea11y")

	// Papayoo: the pass, then a trick in play, a notice, the final scores.
	b.feed(1, `{to_act: [0, 1, 2], view: __pv({phase: 'pass', passed: [false, false, false], hand: ['1S', '3S', '8D', '2H', '5C', '9P', '10P']})}`)
	b.press("select a card to pass", `[data-testid=hand-card][data-card="1S"]`, kb.Enter)
	b.auditLangs("Papayoo, the pass")
	b.press("clear the pass", `[data-testid=pass-clear]`, kb.Enter)
	b.focusKept("Papayoo: the pass's Clear button disabled")
	b.feed(2, `{to_act: [0], legal: ['play 1S', 'play 3S'], view: __pv({trick: {leader: 1, cards: ['4S'], winner: -1}})}`)
	b.press("last trick", `[data-testid=last-trick-button]`, kb.Enter)
	b.auditLangs("Papayoo, a trick")
	eval[bool](b, `(document.querySelector('[data-testid=status]').__a11y = 1, true)`)
	b.feed(3, `{to_act: [2], history: {from: 0, entries: [{kind: 'play', seat: 0, cards: ['3S'], by: 'timeout'}]}, view: __pv({hand: ['1S', '8D'], trick: {leader: 1, cards: ['4S', '3S'], winner: -1}})}`)
	if live, _ := eval[string](b, `(() => { const s = document.querySelector('[data-testid=status]'); return (s.__a11y ? 'same ' : 'new ') + s.getAttribute('aria-live') + (document.querySelector('[data-testid=timeout-notice]') ? ' notice' : ''); })()`); live != "same polite notice" {
		t.Errorf("the status line after a notice opened above it: %q, want the same polite live region (a new one is not read out)", live)
	}
	b.feed(4, `{status: 'finished', result: {totals: [10, 30, 40], winners: [0], higher_wins: false}, view: __pv({phase: 'over', hand: [], hand_sizes: [0, 0, 0], totals: [10, 30, 40], round_scores: [[10, 30, 40]]})}`)
	b.must(10*time.Second, "final scores", waitVisible(tid("final-scores")))
	b.auditLangs("Papayoo, final scores")

	// Pis Yedili: a jack's suit choice, then a chain to answer or take.
	py := `(o) => ({game: 'pisyedili', options: {players: '3', hands: '1'}, to_act: [0], view: Object.assign({observer: 0, players: 3, round: 1, round_count: 1, phase: 'play', dealer: 2,
	    hand: ['JS', '4H', '9C'], hand_sizes: [3, 5, 5], stock_size: 20, pile: ['2H', '5H'], top: '5H', active_suit: 'H', active_rank: '5', direction: 'clockwise',
	    turn_reason: 'next', totals: [0, 0, 0], round_scores: []}, o)})`
	b.feed(10, `Object.assign((`+py+`)({}), {legal: ['play JS S', 'play JS H', 'play JS D', 'play JS C', 'play 4H', 'draw']})`)
	b.press("the jack", `[data-testid=hand-card][data-card="JS"]`, kb.Enter)
	b.must(10*time.Second, "the suit picker", waitVisible(tid("suit-picker")), pollFor[chromedp.Void](`!!document.activeElement.closest('[data-testid=suit-picker]')`))
	b.auditLangs("Pis Yedili, the jack's suit")
	b.press("cancel the suit", `[data-testid=suit-cancel]`, kb.Enter)
	b.focusKept("Pis Yedili: the suit picker cancelled")
	b.feed(11, `Object.assign((`+py+`)({hand: ['7H', '9C'], chain: {kind: 'seven', count: 1, draw: 3}, top: '7S', active_suit: 'S', active_rank: '7'}), {legal: ['play 7H', 'penalty']})`)
	b.auditLangs("Pis Yedili, a chain")

	// 500 Rum: a card taken from the pile, a lay-off, a meld to choose.
	rum := `(o) => ({game: 'rum500', options: {players: '3', target: '500'}, to_act: [0], view: Object.assign({observer: 0, players: 3, round: 1, phase: 'draw', dealer: 2,
	    hand: ['3S', '3H', '8S', '4D', '5D', 'JK', 'KC'], hand_sizes: [7, 7, 7], pile: ['QS', '9H', '3C'], stock: 20,
	    melds: [{number: 1, cards: ['5S', '6S', '7S'], owners: [1, 1, 1]}, {number: 2, cards: ['8H', '8D', '8C'], owners: [2, 2, 2]}],
	    totals: [0, 0, 0], round_scores: [], table_points: [0, 0, 0]}, o)})`
	b.feed(20, `Object.assign((`+rum+`)({}), {legal: ['draw', 'take 3C meld 3C 3S 3H', 'take 9H']})`)
	b.press("a pile card", `[data-testid=pile-card][data-card="3C"]`, kb.Enter)
	b.must(10*time.Second, "the take offer", waitVisible(tid("take-offer")))
	b.auditLangs("500 Rum, a take from the pile")
	b.press("cancel the take", `[data-testid=take-cancel]`, kb.Enter)
	b.focusKept("500 Rum: the take cancelled")
	b.feed(21, `Object.assign((`+rum+`)({phase: 'meld'}), {legal: ['meld 4D 5D JK=6D', 'meld JK=3D 4D 5D', 'layoff 8S 1', 'layoff 8S 2', 'discard 8S', 'discard KC']})`)
	b.press("select the 8 of spades", `[data-testid=hand-card][data-card="8S"]`, kb.Enter)
	b.must(10*time.Second, "the lay-offs", waitVisible(tid("layoff-1")), waitVisible(tid("layoff-2")))
	b.auditLangs("500 Rum, lay-off")
	for _, l := range a11yLangs {
		b.setLang(l)
		names, _ := eval[[]string](b, `[...document.querySelectorAll('button[data-testid^=layoff-]')].map((e) => e.getAttribute('aria-label') || e.textContent)`)
		if len(names) != 2 || names[0] == names[1] {
			t.Errorf("[%s] the lay-off buttons are named %q: a screen reader cannot tell which meld each lays off on", l, names)
		}
	}
	b.setLang("en")
	b.press("unselect the 8", `[data-testid=hand-card][data-card="8S"]`, kb.Enter)
	for _, c := range []string{"JK", "4D", "5D"} {
		b.press("select "+c, `[data-testid=hand-card][data-card="`+c+`"]`, kb.Enter)
	}
	b.press("meld the selection", `[data-testid=meld-selected]`, kb.Enter)
	b.must(10*time.Second, "the meld choice", waitVisible(tid("meld-choices")))
	b.auditLangs("500 Rum, which meld")
	b.press("cancel the choice", `[data-testid=meld-choices] button:last-child`, kb.Enter)
	b.must(10*time.Second, "the choice closed", waitGone(tid("meld-choices")))
	b.focusKept("500 Rum: the meld choice cancelled")
	e.checkJS()
}

// keyStepJS says which key brings the focus nearer the control the test's
// player marked (data-e2e="go"): Enter when it is there, the arrows within
// the hand (one Tab stop), else Tab or Shift+Tab towards it in the page's
// order. It also says whether the focus is visible (an outline of 2 px or
// more, or a box shadow).
const keyStepJS = `(() => {
  const el = document.querySelector('[data-e2e="go"]');
  if (!el) return {Key: 'lost'};
  const a = document.activeElement;
  const cs = a ? getComputedStyle(a) : null;
  const ring = !!cs && ((cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2) || cs.boxShadow !== 'none');
  const what = a ? (a.dataset.testid || a.tagName) + ' ' + (a.getAttribute('aria-label') || a.textContent || '').trim().slice(0, 40) : '';
  if (a === el) return {Key: 'enter', Ring: ring, What: what};
  const hand = el.closest('[data-testid=hand]');
  if (hand && a && a.dataset.testid === 'hand-card' && a.closest('[data-testid=hand]') === hand) {
    const cards = [...hand.querySelectorAll('[data-testid=hand-card]')];
    return {Key: cards.indexOf(el) > cards.indexOf(a) ? 'right' : 'left', Ring: ring, What: what};
  }
  if (!a || a === document.body) return {Key: 'tab', Body: true};
  return {Key: (a.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING) ? 'shifttab' : 'tab', Ring: ring, What: what};
})()`

type keyStep struct {
	Key, What  string
	Ring, Body bool
}

// keyPlay plays the game to its end with the keyboard alone: the test's
// player (pickJS) chooses what to press, and the focus is brought there
// with Tab, Shift+Tab and the arrows, and Enter presses it. It fails when
// a control cannot be reached so, when the focus on it is not visible, and
// when the focus falls to the page's body after a move.
func (b *tab) keyPlay(limit time.Duration) int {
	t := b.e.t
	deadline := time.Now().Add(limit)
	moves, lost, unseen := 0, 0, 0
	for time.Now().Before(deadline) {
		b.e.expired(fmt.Sprintf("%s: playing by keyboard (%d moves made)", b.name, moves))
		p, ok := b.nextPick(pickWait, 5*time.Second)
		if !ok {
			continue
		}
		if p.Kind == "done" {
			return moves
		}
		reached := false
		var target string
		for presses := 0; presses < 120; presses++ {
			s, err := eval[keyStep](b, keyStepJS)
			if err != nil || s.Key == "lost" {
				break // the page changed: look again
			}
			if s.Body && presses == 0 && moves > 0 && lost < 3 {
				lost++
				t.Errorf("%s: after move %d the focus is on the page's body", b.name, moves)
			}
			var key string
			var opts []chromedp.KeyOption
			switch s.Key {
			case "enter":
				if !s.Ring && unseen < 3 {
					unseen++
					t.Errorf("%s: the focus on %q is not visible", b.name, s.What)
				}
				target, reached = s.What, true
				key = kb.Enter
			case "right":
				key = kb.ArrowRight
			case "left":
				key = kb.ArrowLeft
			case "shifttab":
				key, opts = kb.Tab, []chromedp.KeyOption{chromedp.KeyModifiers(chromedp.ModifierShift)}
			default:
				key = kb.Tab
			}
			if err := b.do(3*time.Second, chromedp.KeyEvent(key, opts...)); err != nil {
				t.Fatalf("%s: key: %v", b.name, err)
			}
			if reached {
				break
			}
		}
		if !reached {
			if still, _ := eval[bool](b, `!!document.querySelector('[data-e2e="go"]')`); still {
				what, _ := eval[string](b, `(() => { const e = document.querySelector('[data-e2e="go"]'); return (e.dataset.testid || e.tagName) + ' ' + e.textContent.trim().slice(0, 40); })()`)
				t.Fatalf("%s: %s cannot be reached with Tab, Shift+Tab and the arrows", b.name, what)
			}
			continue
		}
		if p.Kind == "move" {
			moves++
			b.do(3*time.Second, pollFor[chromedp.Void](fmt.Sprintf(
				`(() => { const f = document.querySelector('[data-testid=felt]'); return !f || f.dataset.seq !== %q || !!document.querySelector('[data-testid=suit-picker], [data-testid=final-scores]'); })()`, p.Seq)))
			b.do(2*time.Second, framesDrawn)
			if on, _ := eval[bool](b, `document.activeElement === document.body`); on && lost < 3 {
				lost++
				t.Errorf("%s: after %s (move %d) the focus fell to the page's body", b.name, target, moves)
			}
		}
	}
	t.Fatalf("%s: the game did not end within %v (%d moves by keyboard)", b.name, limit, moves)
	return moves
}

// listenLive records what the polite live regions say: the page's
// announcements ('announce') and the table's status line.
const listenLiveJS = `(() => {
  window.__heard = [];
  new MutationObserver((ms) => {
    for (const m of ms) {
      const n = m.target.nodeType === 1 ? m.target : m.target.parentElement;
      const r = n && n.closest('[aria-live=polite]');
      if (!r) continue;
      const x = r.textContent.trim();
      if (x && window.__heard[window.__heard.length - 1] !== x) window.__heard.push(x);
    }
  }).observe(document.body, {childList: true, characterData: true, subtree: true});
  return true;
})()`

// keyboardGame plays game's short whole game (gameTests) with the keyboard
// alone, then checks the final scores took the focus and what the live
// regions said: every text of want (a regular expression) was heard.
func keyboardGame(t *testing.T, name string, want ...string) {
	g := gameTests[name]
	e := newEnv(t, g.seeded)
	b := e.tab("alice")
	b.login("alice")
	b.createTable(name, g.players, g.opts, nil)
	if _, err := eval[bool](b, listenLiveJS); err != nil {
		t.Fatal(err)
	}
	moves := b.keyPlay(g.limit)
	b.must(10*time.Second, "final scores", waitVisible(tid("final-scores")), framesDrawn)
	if in, _ := eval[bool](b, `!!document.activeElement.closest('[data-testid=final-scores]')`); !in {
		t.Error("the final scores did not take the focus")
	}
	heard, _ := eval[[]string](b, `window.__heard`)
	all := strings.Join(heard, "\n")
	for _, w := range want {
		if !regexp.MustCompile(w).MatchString(all) {
			t.Errorf("the live regions never said %q; they said:\n%s", w, head(all, 3000))
		}
	}
	b.checkErrors()
	t.Logf("%s: %d moves by keyboard, %d things heard", name, moves, len(heard))
	if testing.Verbose() {
		t.Logf("heard:\n%s", all)
	}
	e.checkJS()
}

func TestA11yKeyboardPapayoo(t *testing.T) {
	keyboardGame(t, "papayoo", `(?m)^Your turn`, `took the trick: \d+ points`, `Game over`)
}

func TestA11yKeyboardPisYedili(t *testing.T) {
	keyboardGame(t, "pisyedili", `(?m)^Your turn`, `took \d+ penalty cards`, `Game over`)
}

func TestA11yKeyboardRum500(t *testing.T) {
	keyboardGame(t, "rum500", `(?m)^Your turn`, `The hand was scored`, `Game over`)
}

// TestA11yReplayAnalysis audits a finished game's replay with its analysis
// in every language, steps it from the keyboard (the focus stays on the
// button pressed, also when it is disabled at the last step) and moves
// along the analysis strip with the arrows, its focus visible.
func TestA11yReplayAnalysis(t *testing.T) {
	e := newEnv(t, func(c *server.Config) { c.Analysis.Budget = 100 })
	b := e.tab("alice")
	b.login("alice")
	id := b.finishedWithHuman(4)
	e.waitAnalysis(id, 0)
	b.openReplay(id)
	b.must(20*time.Second, "the analysis", waitVisible(tid("analysis-strip")))
	b.auditLangs("replay with its analysis")
	b.press("next step", `[data-testid=replay-next]`, kb.Enter)
	if on, _ := eval[string](b, `document.activeElement.dataset.testid || document.activeElement.tagName`); on != "replay-next" {
		t.Errorf("after the next step the focus is on %q, want the button pressed", on)
	}
	b.press("last step", `[data-testid=replay-last]`, kb.Enter)
	b.must(10*time.Second, "the end", pollFor[chromedp.Void](`document.querySelector('[data-testid=replay-last]').disabled`), framesDrawn)
	b.focusKept("the replay's End button, disabled at the last step")
	b.press("the strip", `[data-testid=analysis-mark][tabindex="0"]`, kb.ArrowRight)
	ring, _ := eval[string](b, `(() => { const a = document.activeElement, cs = getComputedStyle(a); return a.dataset.testid + ' ' + cs.outlineStyle + ' ' + cs.outlineWidth; })()`)
	if !strings.HasPrefix(ring, "analysis-mark solid") {
		t.Errorf("moving along the analysis strip, the focus is %q, want a mark with a visible ring", ring)
	}
	b.must(10*time.Second, "jump to the mark", chromedp.KeyEvent(kb.Enter), framesDrawn, chromedp.Sleep(300*time.Millisecond))
	if on, _ := eval[string](b, `document.activeElement.dataset.testid || document.activeElement.tagName`); on != "analysis-mark" {
		t.Errorf("after Enter on a mark of the strip the focus is on %q, want the mark", on)
	}
	b.auditLangs("replay at a decision")
	e.checkJS()
}
