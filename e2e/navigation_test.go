package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The table experience's last items (issue 12): rules that say the table's
// options, the browser's Back and Forward, the replay's history and
// pacing, plural forms.

// evalAsync runs a script that returns a promise and waits for its value.
func evalAsync[T any](b *tab, js string) (T, error) {
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
}

// hash is the page's address after the #.
func (b *tab) hash() string {
	h, err := eval[string](b, `location.hash`)
	if err != nil {
		b.e.t.Fatalf("%s: location.hash: %v", b.name, err)
	}
	return h
}

// TestNavRulesMatchTable: the rules panel of a 150-point 500 Rum table
// without jokers says 150, not the default 500, and has no jokers section;
// the module's rules for a table with jokers, and the general rules (no
// table), have it, the general ones under "when the table plays with them".
// The panel says the table's go-out bonus and end of the stock too, and in
// every language the rules say each house rule the table plays and not the
// default (rulesCases), the general rules the defaults with what a table
// may agree instead.
func TestNavRulesMatchTable(t *testing.T) {
	e := newEnv(t)
	b := e.tab("alice")
	b.login("alice")
	b.createTable("rum500", 3, map[string]string{"target": "150", "jokers": "0", "go_out_bonus": "25", "stock_exhausted": "end_immediately"}, nil)
	b.must(10*time.Second, "the rules panel", clickOn(tid("tab-rules")), waitVisible(tid("help-rules")))
	txt, err := eval[string](b, `document.querySelector('[data-testid=help-rules]').textContent`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt, "the target (150)") || strings.Contains(txt, "500") {
		t.Errorf("the rules of a 150-point table say: %.300q", txt)
	}
	if strings.Contains(strings.ToLower(txt), "joker") {
		t.Errorf("the rules of a table without jokers mention them: %.300q", txt)
	}
	// The table's options as the server completed them: its bonus and its
	// end of the stock, not the defaults nor a note of what may be agreed.
	for _, want := range []string{"Whoever goes out scores 25 extra points", "The hand ends as soon as the stock runs out"} {
		if !strings.Contains(txt, want) {
			t.Errorf("the rules of a table with a 25-point bonus that ends when the stock runs out lack %q: %q", want, txt)
		}
	}
	for _, not := range []string{"There is no bonus", "If the stock is empty at the start of your turn", "A table may agree"} {
		if strings.Contains(txt, not) {
			t.Errorf("the rules of a table with a 25-point bonus that ends when the stock runs out say %q: %q", not, txt)
		}
	}
	// The same hook for a table with jokers and for no table at all.
	got, err := evalAsync[[]string](b, `import('./js/games.js').then((g) => [g.helpText('rum500', 'rules', {target: '300', jokers: '2'}), g.helpText('rum500', 'rules')])`)
	if err != nil || len(got) != 2 {
		t.Fatalf("helpText: %v %v", got, err)
	}
	if !strings.Contains(got[0], "(300)") || !strings.Contains(got[0], "## Jokers\n") {
		t.Errorf("the rules of a 300-point table with jokers: %.200q … %q", got[0], tail(got[0], 200))
	}
	if !strings.Contains(got[1], "(500)") || !strings.Contains(got[1], "## Jokers (when the table plays with them)") {
		t.Errorf("the general rules: %.200q … %q", got[1], tail(got[1], 200))
	}
	// In every language and for every game, with and without a table, the
	// rules leave no placeholder unfilled and no empty list item.
	texts, err := evalAsync[map[string]string](b, `(async () => {
	  const i = await import('./js/i18n.js');
	  const g = await import('./js/games.js');
	  const tables = {rum500: {target: '150', jokers: '0', two_player_hand: '10'}, papayoo: {rounds: '2'}, pisyedili: {hands: '1', jokers: 'false', seven_stack: 'doubling', ten_mode: 'reverse'}};
	  const out = {};
	  for (const lang of ['en', 'pl', 'cs', 'tr']) {
	    await i.setLang(lang, false);
	    for (const name of g.gameNames()) {
	      out[lang + ' ' + name + ' table'] = g.helpText(name, 'rules', tables[name] || {});
	      out[lang + ' ' + name + ' general'] = g.helpText(name, 'rules');
	    }
	  }
	  await i.setLang('en', false);
	  return out;
	})()`)
	if err != nil || len(texts) < 8 {
		t.Fatalf("the rules in every language: %v %v", len(texts), err)
	}
	for k, txt := range texts {
		if strings.Contains(txt, "{") || strings.Contains(txt, "\n-\n") || strings.HasSuffix(txt, "\n-") || len(txt) < 200 {
			t.Errorf("%s: the rules are %q", k, txt)
		}
		if strings.Contains(k, "rum500 table") && (!strings.Contains(txt, "150") || strings.Contains(txt, "500")) {
			t.Errorf("%s: a 150-point table's rules say %.200q", k, txt)
		}
		if strings.Contains(k, "pisyedili table") && (strings.Contains(txt, "20)") || !strings.Contains(txt, "3, 6, 12")) {
			t.Errorf("%s: the rules of a table without jokers, with doubling sevens, say %q", k, txt)
		}
		if strings.Contains(k, "pisyedili general") && (!strings.Contains(txt, "20)") || strings.Contains(txt, "3, 6, 12")) {
			t.Errorf("%s: the general rules say %q", k, txt)
		}
	}
	checkRulesCases(t, b)
	e.checkJS()
}

// ruleCase is a table's options (nil: no table, the general rules) and the
// texts its rules must say and must not say, as keys of the game's
// translation files ("key|n": the key's text for the count n).
type ruleCase struct {
	Name    string            `json:"-"`
	Game    string            `json:"game"`
	Options map[string]string `json:"options"`
	Say     []string          `json:"say"`
	Not     []string          `json:"not"`
}

// rulesCases are the house rules of 500 Rum and Pis Yedili that the rules
// say in their own words: every value of each option is said by one case
// and not said by another. A case's Not is every other text of the same
// rules (and the notes of what a table may agree, which only the general
// rules say).
func rulesCases() []ruleCase {
	type game struct {
		name         string
		rules, notes []string
	}
	rum := game{"rum500",
		[]string{"tie", "tie_play_on", "take", "take_top_free", "stock", "stock_end", "stock_turn_over", "out", "out_discard", "bonus"},
		[]string{"tie_note", "take_note", "stock_note", "out_note", "bonus_note"}}
	pis := game{"pisyedili",
		[]string{"jack", "jack_not_on_jack", "jack_match", "jack_match_not_on_jack", "draw", "draw_play_any", "draw_until", "draw_until_play_any",
			"penalty", "penalty_play_on", "after_joker", "after_joker_free", "finish", "finish_effects", "seven", "seven_doubling", "ten", "ten_reverse"},
		[]string{"jack_note", "draw_note", "penalty_note", "after_joker_note", "finish_note", "seven_note", "ten_note"}}
	mk := func(g game, name string, options map[string]string, say ...string) ruleCase {
		c := ruleCase{Name: g.name + " " + name, Game: g.name, Options: options}
		said := map[string]bool{}
		for _, k := range say {
			said[strings.SplitN(k, "|", 2)[0]] = true
			c.Say = append(c.Say, g.name+".rules_"+k)
		}
		for _, k := range append(append([]string(nil), g.rules...), g.notes...) {
			if !said[k] {
				c.Not = append(c.Not, g.name+".rules_"+k)
			}
		}
		return c
	}
	// The options as the server sends them: complete, the defaults filled in.
	rumDefaults := map[string]string{"decks": "1", "go_out_bonus": "0", "jokers": "0", "must_discard_to_go_out": "false", "players": "3",
		"stock_exhausted": "end_when_declined", "target": "500", "tie_resolution": "shared", "top_discard_free": "false", "two_player_hand": "13"}
	pisDefaults := map[string]string{"draw_until_playable": "false", "finishing_card_effects": "false", "hands": "4", "jack_on_jack": "true",
		"jack_wild": "true", "joker_follow": "transparent", "jokers": "true", "penalty_ends_turn": "true", "play_any_after_draw": "false",
		"players": "4", "seven_stack": "linear", "ten_mode": "bounce"}
	with := func(base map[string]string, kv ...string) map[string]string {
		m := maps.Clone(base)
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	return []ruleCase{
		mk(rum, "general", nil, "tie", "tie_note", "take", "take_note", "stock", "stock_note", "out", "out_note", "bonus", "bonus_note"),
		mk(rum, "defaults", rumDefaults, "tie", "take", "stock", "out", "bonus"),
		mk(rum, "house rules", with(rumDefaults, "target", "150", "two_player_hand", "10", "go_out_bonus", "25", "top_discard_free", "true",
			"must_discard_to_go_out", "true", "stock_exhausted", "turn_over_discards", "tie_resolution", "play_on"),
			"tie_play_on", "take_top_free", "stock_turn_over", "out_discard", "bonus_n|25"),
		mk(rum, "stock_exhausted=end_immediately go_out_bonus=1", with(rumDefaults, "stock_exhausted", "end_immediately", "go_out_bonus", "1"), "tie", "take", "stock_end", "out", "bonus_n|1"),
		mk(pis, "general", nil, "jack", "jack_note", "draw", "draw_note", "penalty", "penalty_note", "after_joker", "after_joker_note", "finish", "finish_note",
			"seven", "seven_note", "ten", "ten_note"),
		mk(pis, "defaults", pisDefaults, "jack", "draw", "penalty", "after_joker", "finish", "seven", "ten"),
		// Without jokers, nothing follows a joker: its rule goes.
		mk(pis, "house rules, no jokers", with(pisDefaults, "jokers", "false", "jack_wild", "false", "jack_on_jack", "false", "draw_until_playable", "true",
			"play_any_after_draw", "true", "penalty_ends_turn", "false", "finishing_card_effects", "true", "joker_follow", "any"),
			"jack_match_not_on_jack", "draw_until_play_any", "penalty_play_on", "finish_effects", "seven", "ten"),
		mk(pis, "jack_on_jack=false joker_follow=any play_any_after_draw=true seven_stack=doubling", with(pisDefaults, "jack_on_jack", "false", "joker_follow", "any",
			"play_any_after_draw", "true", "seven_stack", "doubling"),
			"jack_not_on_jack", "draw_play_any", "penalty", "after_joker_free", "finish", "seven_doubling", "ten"),
		mk(pis, "jack_wild=false draw_until_playable=true ten_mode=reverse", with(pisDefaults, "jack_wild", "false", "draw_until_playable", "true", "ten_mode", "reverse"),
			"jack_match", "draw_until", "penalty", "after_joker", "finish", "seven", "ten_reverse"),
	}
}

// checkRulesCases renders every rulesCases case in every language and
// checks that its rules say each of its Say texts and none of its Not. A
// text that is a key (untranslated), empty, or a Not inside a Say (so that
// the two checks could not both pass) fails the test itself.
func checkRulesCases(t *testing.T, b *tab) {
	t.Helper()
	cases := rulesCases()
	js, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	type rendered struct {
		Lang string   `json:"lang"`
		Text string   `json:"text"`
		Say  []string `json:"say"`
		Not  []string `json:"not"`
	}
	got, err := evalAsync[[]rendered](b, `(async () => {
	  const i = await import('./js/i18n.js');
	  const g = await import('./js/games.js');
	  const cases = `+string(js)+`;
	  const text = (k) => { const [key, n] = k.split('|'); return n === undefined ? i.t(key) : i.t(key, {n: Number(n)}); };
	  const out = [];
	  for (const lang of ['en', 'pl', 'cs', 'tr']) {
	    await i.setLang(lang, false);
	    for (const c of cases) out.push({lang, text: g.helpText(c.game, 'rules', c.options), say: c.say.map(text), not: c.not.map(text)});
	  }
	  await i.setLang('en', false);
	  return out;
	})()`)
	if err != nil || len(got) != 4*len(cases) {
		t.Fatalf("the house rules in every language: %d texts for %d cases: %v", len(got), len(cases), err)
	}
	for j, r := range got {
		c := cases[j%len(cases)]
		name := r.Lang + " " + c.Name
		if strings.Contains(r.Text, "{") || strings.Contains(r.Text, "\n-\n") || strings.HasSuffix(r.Text, "\n-") {
			t.Errorf("%s: the rules leave a placeholder or an empty item: %q", name, r.Text)
		}
		for k, s := range r.Say {
			key := strings.SplitN(c.Say[k], "|", 2)[0]
			if strings.TrimSpace(s) == "" || s == key {
				t.Fatalf("%s: %q is not translated: %q", name, c.Say[k], s)
			}
			if !strings.Contains(r.Text, s) {
				t.Errorf("%s: the rules do not say %s %q: %q", name, c.Say[k], s, r.Text)
			}
		}
		for k, s := range r.Not {
			if strings.TrimSpace(s) == "" || s == c.Not[k] {
				t.Fatalf("%s: %q is not translated: %q", name, c.Not[k], s)
			}
			for l, say := range r.Say {
				if strings.Contains(say, s) {
					t.Fatalf("%s: %s %q is part of %s %q: the test cannot tell them apart", name, c.Not[k], s, c.Say[l], say)
				}
			}
			if strings.Contains(r.Text, s) {
				t.Errorf("%s: the rules say %s %q: %q", name, c.Not[k], s, r.Text)
			}
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// TestNavBackAtTable: the browser's Back at a table where the player holds
// a seat in a game in progress asks what Leave asks; Cancel keeps the
// player at the table, seated, with the table's address; confirming goes
// to the lobby and hands the seat to a bot. Forward and Back again move
// through the history without a second entry of one page.
func TestNavBackAtTable(t *testing.T) {
	e := newEnv(t)
	b := e.tab("alice")
	b.login("alice")
	id := b.createTable("papayoo", 3, nil, nil)
	b.must(10*time.Second, "the game in progress", pollFor[chromedp.Void](`document.querySelector('[data-testid=felt]').dataset.status === 'playing'`))
	length, _ := eval[int](b, `history.length`)
	back := func() {
		if _, err := eval[bool](b, `(history.back(), true)`); err != nil {
			t.Fatal(err)
		}
	}
	back()
	b.must(10*time.Second, "Back asks first", waitVisible(tid("leave-confirm")))
	b.screenshot("back-confirm")
	if txt, _ := eval[string](b, `document.querySelector('[data-testid=leave-confirm]').textContent`); !strings.Contains(txt, "A bot will play your seat") {
		t.Errorf("the confirmation says %q", txt)
	}
	if h := b.hash(); h != "#/table/"+id {
		t.Errorf("while asking, the address is %q", h)
	}
	// The question is on screen, its Stay button focused.
	if ok, _ := eval[bool](b, `(() => { const r = document.querySelector('[data-testid=leave-confirm]').getBoundingClientRect();
	  return r.top >= 0 && r.bottom <= innerHeight && document.activeElement.dataset.testid === 'leave-no'; })()`); !ok {
		t.Error("the confirmation Back asks is not on screen with its Stay button focused")
	}
	b.must(10*time.Second, "stay", clickOn(tid("leave-no")), waitGone(tid("leave-confirm")))
	if h := b.hash(); h != "#/table/"+id {
		t.Errorf("after Cancel the address is %q, want the table's", h)
	}
	if seat, _ := eval[string](b, `document.querySelector('[data-testid=felt]').dataset.seat`); seat != "0" {
		t.Errorf("after Cancel the player is at seat %q, want 0", seat)
	}
	if n, _ := eval[int](b, `history.length`); n != length {
		t.Errorf("the history has %d entries after Back and Cancel, %d before", n, length)
	}
	// Back again, and leave this time.
	back()
	b.must(10*time.Second, "Back asks again", waitVisible(tid("leave-confirm")))
	b.must(10*time.Second, "leave", clickOn(tid("leave-yes")), waitVisible(tid("create-form")))
	if h := b.hash(); h != "#/" {
		t.Errorf("after leaving by Back the address is %q, want the lobby's", h)
	}
	away, err := evalAsync[bool](b, fmt.Sprintf(`fetch('/api/tables/%s').then((r) => r.json()).then((s) => !!s.seats[0].away)`, id))
	if err != nil || !away {
		t.Errorf("the seat left by Back is not away (a bot plays it): %v %v", away, err)
	}
	// Forward returns to the table, now as a page the player may leave.
	if _, err := eval[bool](b, `(history.forward(), true)`); err != nil {
		t.Fatal(err)
	}
	b.must(10*time.Second, "forward to the table", pollFor[chromedp.Void](fmt.Sprintf(`location.hash === '#/table/%s' && !!document.querySelector('[data-testid=felt]')`, id)))
	e.checkJS()
}

// TestNavBackFromReplay: the replay's Back returns to the page the player
// came from (the finished table, a profile), as the browser's Back does;
// the lobby's own link at the lobby adds no second lobby to the history.
func TestNavBackFromReplay(t *testing.T) {
	e := newEnv(t)
	b := e.tab("alice")
	b.login("alice")
	before, _ := eval[int](b, `history.length`)
	b.must(10*time.Second, "the lobby link at the lobby", clickOn(tid("home")), waitVisible(tid("create-form")))
	if n, _ := eval[int](b, `history.length`); n != before {
		t.Errorf("the lobby link at the lobby made the history %d entries long, %d before", n, before)
	}
	id := b.botsTable("papayoo", 3, map[string]string{"rounds": "1"})
	b.must(15*time.Second, "the finished table", chromedp.Navigate(e.base+"/#/table/"+id), waitVisible(tid("final-replay")))
	openReplay := func() {
		b.must(15*time.Second, "open the replay", clickOn(tid("final-replay")), waitVisible(tid("replay-step")))
	}
	openReplay()
	b.must(15*time.Second, "the replay's Back", clickOn(tid("nav-back")), waitVisible(tid("final-replay")))
	if h := b.hash(); h != "#/table/"+id {
		t.Errorf("the replay's Back went to %q, want the table", h)
	}
	openReplay()
	if _, err := eval[bool](b, `(history.back(), true)`); err != nil {
		t.Fatal(err)
	}
	b.must(15*time.Second, "the browser's Back", waitVisible(tid("final-replay")))
	if h := b.hash(); h != "#/table/"+id {
		t.Errorf("the browser's Back from the replay went to %q, want the table", h)
	}
	// The replay's answers that arrive after Back (each held 600 ms here)
	// leave the table on screen: a replay left is not drawn again.
	if _, err := eval[bool](b, `(() => { const f = window.fetch; const slow = window.__slow = { pending: 0, done: 0 };
	  window.fetch = (u, o) => {
	    if (!String(u).includes('/api/records/')) return f(u, o);
	    slow.pending++;
	    return new Promise((ok) => setTimeout(ok, 600)).then(() => f(u, o)).finally(() => setTimeout(() => { slow.pending--; slow.done++; }, 50));
	  };
	  return true; })()`); err != nil {
		t.Fatal(err)
	}
	b.must(15*time.Second, "open the slowed replay", clickOn(tid("final-replay")), pollFor[chromedp.Void](`window.cardroom.route.name === 'replay' && window.__slow.pending > 0`))
	if _, err := eval[bool](b, `(history.back(), true)`); err != nil {
		t.Fatal(err)
	}
	b.must(15*time.Second, "the replay's late answers", waitVisible(tid("final-replay")),
		pollFor[chromedp.Void](`window.__slow.done > 0 && window.__slow.pending === 0`))
	if n, _ := eval[int](b, `document.querySelectorAll('[data-testid=replay-step]').length`); n != 0 || b.hash() != "#/table/"+id {
		t.Errorf("after Back, the replay's late answers drew over the table (%d replay controls, address %q)", n, b.hash())
	}
	// The profile's Back returns to the lobby it was opened from.
	b.must(10*time.Second, "the lobby", clickOn(tid("final-lobby")), waitVisible(tid("create-form")))
	b.must(10*time.Second, "the profile", clickOn(tid("me-name")), waitVisible(tid("profile-view")))
	b.must(10*time.Second, "the profile's Back", clickOn(tid("nav-back")), waitVisible(tid("create-form")))
	if h := b.hash(); h != "#/" {
		t.Errorf("the profile's Back went to %q, want the lobby", h)
	}
	e.checkJS()
}

// TestNavReplayHistory: the replay shows the table's move history up to
// the step on screen, and played at a speed it keeps a finished trick on
// screen as long as the table does (TRICK_MS) before the next lead.
func TestNavReplayHistory(t *testing.T) {
	e := newEnv(t)
	b := e.pacedTab("alice")
	b.login("alice")
	id := b.botsTable("papayoo", 3, map[string]string{"rounds": "1"})
	b.openReplay(id)
	kinds := func() []string {
		k, err := eval[[]string](b, `[...document.querySelectorAll('[data-testid=history-entry]')].map((e) => e.dataset.kind)`)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	count := func(ks []string, kind string) int {
		n := 0
		for _, k := range ks {
			if k == kind {
				n++
			}
		}
		return n
	}
	b.must(10*time.Second, "to the start", clickOn(tid("replay-first")), pollFor[chromedp.Void](`window.cardroom.replay.data.step === 0`))
	if k := kinds(); len(k) != 0 {
		t.Errorf("at step 0 the history shows %v", k)
	}
	b.must(10*time.Second, "the first trick", clickOn(tid("replay-next-trick")),
		pollFor[chromedp.Void](`(() => { const d = window.cardroom.replay.data; return d.step > 0 && d.view.tricks.length === 1 && !window.cardroom.replay.busy; })()`))
	k := kinds()
	if count(k, "trick") != 1 || count(k, "play") != 3 || k[len(k)-1] != "trick" {
		t.Errorf("after the first trick the history shows %v, want its 3 cards and the trick last", k)
	}
	if txt, _ := eval[string](b, `[...document.querySelectorAll('[data-testid=history-entry]')].pop().textContent`); !strings.Contains(txt, "took the trick") {
		t.Errorf("the trick's entry says %q", txt)
	}
	b.screenshot("replay-history")
	// The finished trick is drawn at its step, though the view's trick is
	// already empty.
	if n, _ := eval[int](b, `document.querySelectorAll('[data-testid=replay] [data-testid=last-trick]').length`); n != 1 {
		t.Errorf("the finished trick is not drawn at its step (%d)", n)
	}
	b.must(10*time.Second, "one step on", clickOn(tid("replay-next")),
		pollFor[chromedp.Void](`document.querySelectorAll('[data-testid=history-entry][data-kind=play]').length === 4`))
	b.must(10*time.Second, "one step back", clickOn(tid("replay-prev")),
		pollFor[chromedp.Void](`document.querySelectorAll('[data-testid=history-entry][data-kind=play]').length === 3`))

	// Play at 4 steps a second: the step after a trick closes stays about
	// TRICK_MS (1.5 s), the others a quarter of a second.
	if _, err := eval[bool](b, `(() => {
	  window.__steps = [];
	  let last = -1;
	  window.__timer = setInterval(() => {
	    const d = window.cardroom.replay.data;
	    if (d.step !== last) { last = d.step; window.__steps.push([d.step, performance.now(), d.view.tricks.length]); }
	  }, 20);
	  return true;
	})()`); err != nil {
		t.Fatal(err)
	}
	b.setField("replay-speed", "4")
	b.must(10*time.Second, "play", clickOn(tid("replay-play")),
		pollFor[chromedp.Void](`window.__steps.some((s) => s[2] >= 3)`, chromedp.WithPollingTimeout(20*time.Second)))
	b.must(5*time.Second, "pause", clickOn(tid("replay-play")))
	steps, err := eval[[][]float64](b, `(clearInterval(window.__timer), window.__steps)`)
	if err != nil {
		t.Fatal(err)
	}
	var trickHold, moveHold []float64
	for i := 1; i+1 < len(steps); i++ {
		d := steps[i+1][1] - steps[i][1]
		if steps[i][2] > steps[i-1][2] {
			trickHold = append(trickHold, d)
		} else {
			moveHold = append(moveHold, d)
		}
	}
	if len(trickHold) == 0 || len(moveHold) == 0 {
		t.Fatalf("no trick while playing: %v", steps)
	}
	for _, d := range trickHold {
		if d < 1300 {
			t.Errorf("a finished trick stayed %.0f ms while playing, want about 1500 (steps %v)", d, steps)
		}
	}
	for _, d := range moveHold {
		if d > 1000 {
			t.Errorf("a move stayed %.0f ms at 4 steps a second", d)
		}
	}
	e.checkJS()
}

// TestNavPolishPlurals: counted texts take the language's plural form
// (Intl.PluralRules through the page's i18n module): Polish "2 karty",
// "5 kart", "22 karty", "12 kart"; Czech "3 karty", "5 karet"; English and
// Turkish unchanged.
func TestNavPolishPlurals(t *testing.T) {
	e := newEnv(t)
	b := e.tab("alice")
	b.login("alice")
	got, err := evalAsync[map[string]string](b, `(async () => {
	  const i = await import('./js/i18n.js');
	  const out = {};
	  for (const [lang, ns] of [['pl', [1, 2, 5, 12, 22, 25]], ['cs', [2, 5]], ['tr', [2, 5]], ['en', [1, 2]]]) {
	    await i.setLang(lang, false);
	    for (const n of ns) out[lang + n] = i.t('pisyedili.h.draw_seven', {name: 'Ala', n}) + ' | ' + i.t('pisyedili.h.draw_end', {name: 'Ala', n});
	  }
	  await i.setLang('en', false);
	  return out;
	})()`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ key, want string }{
		{"pl1", "Ala: karta na koniec rozdania."},
		{"pl2", "Ala: 2 karty za łańcuch siódemek."},
		{"pl2", "Ala: 2 karty na koniec rozdania."},
		{"pl5", "Ala: 5 kart za łańcuch siódemek."},
		{"pl12", "Ala: 12 kart za"},
		{"pl22", "Ala: 22 karty za"},
		{"pl25", "Ala: 25 kart za"},
		{"cs2", "Ala: líznuty 2 karty za"},
		{"cs5", "Ala: líznuto 5 karet za"},
		{"tr2", "2 kart çekti"},
		{"tr5", "5 kart çekti"},
		{"en1", "Ala drew a card at the end of the hand."},
		{"en2", "Ala drew 2 cards for the seven chain."},
	} {
		if !strings.Contains(got[tc.key], tc.want) {
			t.Errorf("%s: %q, want it to say %q", tc.key, got[tc.key], tc.want)
		}
	}
	e.checkJS()
}

// TestNavRum500TakeMoves: a take from the 500 Rum pile moves the cards:
// the taken card slides from the pile onto its meld and the card that came
// along into the hand, with the elements they had in the pile's place; a
// bot's take sends the cards it took unseen to its seat; nothing moves
// under prefers-reduced-motion.
func TestNavRum500TakeMoves(t *testing.T) {
	for _, reduce := range []bool{false, true} {
		t.Run(fmt.Sprintf("reduce=%v", reduce), func(t *testing.T) {
			e := newEnv(t)
			b := e.movingTab("alice", 0.05)
			b.login("alice")
			if reduce {
				if err := reduceMotion(b.ctx); err != nil {
					t.Fatal(err)
				}
			}
			b.must(15*time.Second, "open a fake table", chromedp.Navigate(e.base+"/#/table/t_faketake"),
				waitVisible(chromedp.CSS(`[data-testid=table-missing], [data-testid=table-loading]`)))
			var res struct {
				Meld, Along, Ghosts, Running int
			}
			runAsync(t, b, 15*time.Second, `
			  const send = (m) => window.cardroom.conn.onMessage(Object.assign({
			    type: 'state', table: 't_faketake', seat: 0, status: 'playing', game: 'rum500', options: {players: '3', target: '150', jokers: '0'},
			    clock: null, result: null, to_act: [0], legal: [],
			    seats: [{seat: 0, name: 'alice', kind: 'human', connected: true}, {seat: 1, name: 'bot:random', kind: 'bot', connected: true}, {seat: 2, name: 'bot:random', kind: 'bot', connected: true}],
			  }, m));
			  const view = (o) => Object.assign({observer: 0, players: 3, round: 1, round_count: 0, phase: 'play', to_act: [0], dealer: 2,
			    hand: ['8S', '8D', 'KC'], hand_sizes: [3, 7, 7], pile: ['5S', '8H', '9C'], stock: 20, melds: [], table_points: [0, 0, 0], totals: [0, 0, 0], round_scores: []}, o);
			  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
			  send({seq: 5, legal: ['draw', 'take 8H meld 8S 8H 8D'], view: view({phase: 'draw'})});
			  await sleep(300);
			  // alice takes 8H with 9C above it and melds 8S 8H 8D.
			  send({seq: 6, legal: ['discard 9C', 'discard KC'], view: view({hand: ['9C', 'KC'], pile: ['5S'],
			    melds: [{number: 1, cards: ['8S', '8H', '8D'], owners: [0, 0, 0]}], table_points: [24, 0, 0]})});
			  await sleep(30);
			  const moving = (sel) => [...document.querySelectorAll(sel)].filter((e) => e.getAnimations().some((a) => a.playState === 'running')).length;
			  const meld = moving('[data-testid=meld-1] [data-card="8H"]');
			  const along = moving('[data-testid=hand-card][data-card="9C"]');
			  await sleep(400);
			  // Bot 1 takes the 5S into its hand: it flies to seat 1.
			  send({seq: 7, to_act: [1], legal: [], view: view({to_act: [1], hand: ['9C', 'KC'], pile: ['5S', 'KC'],
			    melds: [{number: 1, cards: ['8S', '8H', '8D'], owners: [0, 0, 0]}], hand_sizes: [1, 7, 7]})});
			  await sleep(300);
			  send({seq: 8, to_act: [1], legal: [], view: view({to_act: [1], hand: ['9C'], pile: [],
			    melds: [{number: 1, cards: ['8S', '8H', '8D'], owners: [0, 0, 0]}], hand_sizes: [1, 9, 7]})});
			  await sleep(30);
			  const ghosts = document.querySelectorAll('.ghost').length;
			  return JSON.stringify({meld, along, ghosts, running: document.getAnimations().filter((a) => a.playState === 'running').length});`, &res)
			if reduce {
				if res.Running != 0 || res.Meld != 0 || res.Along != 0 || res.Ghosts != 0 {
					t.Errorf("under reduced motion: %+v, want nothing moving", res)
				}
				return
			}
			if res.Meld != 1 || res.Along != 1 {
				t.Errorf("the take moved %d meld card and %d hand card, want the taken 8H onto its meld and the 9C into the hand (%+v)", res.Meld, res.Along, res)
			}
			if res.Ghosts == 0 {
				t.Errorf("the cards a bot took unseen do not fly to its seat (%+v)", res)
			}
			e.checkJS()
		})
	}
}
