package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"cardroom/server"
	"cardroom/web"
)

// analysisJSON is the part of GET /api/records/{id}/analysis the test
// compares with the page (docs/protocol.md, "Analysis of a finished game").
type analysisJSON struct {
	Decisions []struct {
		Step    int     `json:"step"`
		Move    string  `json:"move"`
		Best    string  `json:"best"`
		Loss    float64 `json:"loss"`
		Forced  bool    `json:"forced"`
		Mistake bool    `json:"mistake"`
		By      string  `json:"by"`
	} `json:"decisions"`
	Mistakes []int `json:"mistakes"`
}

// rawCard finds a card in notation ("10S", "7P", "QH") in a text that
// should say moves in words.
var rawCard = regexp.MustCompile(`\b(?:[1-9]|1[0-9]|20|[AJQK])[SHDCP]\b`)

// finishedWithHuman creates a one-round Papayoo table with the tab's
// player at seat 0 and two random bots, plays own moves there by clicking
// (the pass and the first tricks' cards), then leaves: a bot plays the
// seat for the absent player (its moves marked away), so the game ends in
// seconds and seat 0 is still a player's seat, which the room analyses. It
// returns the table's id once the record is finished.
func (b *tab) finishedWithHuman(own int) string {
	id, _ := b.finishedGame(own, false)
	return id
}

// finishedGame is finishedWithHuman for a public or a private table
// (leaving at once when own is 0); it returns the id and the invite.
func (b *tab) finishedGame(own int, private bool) (string, string) {
	b.e.t.Helper()
	msg := fmt.Sprintf(`{"type": "create", "game": "papayoo", "options": {"players": "3", "rounds": "1"}, "seat": 0, "bots": {"1": "random", "2": "random"}, "bot_level": "random", "clock_ms": 0, "private": %v}`, private)
	ctx, cancel := context.WithTimeout(b.ctx, 15*time.Second)
	defer cancel()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`new Promise((done) => window.cardroom.conn.send(`+msg+`, (ans) => {
	  if (ans.type !== 'created') { done('error: ' + JSON.stringify(ans)); return; }
	  done(ans.summary.id + ' ' + (ans.summary.invite || ''));
	}))`, chromedp.EvalAwaitPromise))
	id, invite, _ := strings.Cut(got, " ")
	if err != nil || !strings.HasPrefix(id, "t_") {
		b.e.t.Fatalf("create a table: %q %v", got, err)
	}
	if own > 0 {
		b.must(15*time.Second, "the table", chromedp.Navigate(b.e.base+"/#/table/"+id), waitVisible(tid("felt")))
		b.playUntil(own, 60*time.Second)
	}
	if _, err := eval[bool](b, `window.cardroom.conn.send({type: 'leave', table: `+fmt.Sprintf("%q", id)+`}), true`); err != nil {
		b.e.t.Fatalf("leave: %v", err)
	}
	for deadline := time.Now().Add(60 * time.Second); ; {
		b.e.expired("waiting for the game to finish")
		if code, body := httpGet(b.e.t, b.e.base+"/api/records/"+id+"?invite="+invite); code == http.StatusOK && strings.Contains(body, "[Result \"totals") {
			return id, invite
		}
		if time.Now().After(deadline) {
			b.e.t.Fatalf("the game %s did not finish within a minute", id)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// waitAnalysis polls the server's analysis of a seat while it is pending.
func (e *env) waitAnalysis(id string, seat int) analysisJSON {
	e.t.Helper()
	for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		e.expired("waiting for the analysis")
		code, body := httpGet(e.t, fmt.Sprintf("%s/api/records/%s/analysis?seat=%d", e.base, id, seat))
		if code == http.StatusAccepted {
			continue
		}
		if code != http.StatusOK {
			e.t.Fatalf("analysis of seat %d: %d %s", seat, code, head(body, 300))
		}
		var a analysisJSON
		if err := json.Unmarshal([]byte(body), &a); err != nil {
			e.t.Fatalf("analysis of seat %d: %v", seat, err)
		}
		return a
	}
	e.t.Fatalf("the analysis of seat %d was not ready within 90 s", seat)
	return analysisJSON{}
}

// TestAnalysisPanel: a finished game's replay opens from the seat its
// player held, their cards face up, with the analysis beside it: one mark
// per decision of the server's analysis, in order; the moves a bot made
// for the player once they left are marked as such (a hollow square, a
// note, never a mistake); a mark (a mistake's, else the largest loss's) and
// a mistake's link move the replay to the position the seat decided in;
// the panel says the best move in words, never in notation; the marks are
// reached and moved between by keyboard without stepping the replay; a
// bot's seat has a short note instead; in Polish the panel's texts are
// Polish; it fits a phone and a desktop with readable contrast. Another
// reader starts from the public view, which offers the players' seats.
func TestAnalysisPanel(t *testing.T) {
	e := newEnv(t, func(c *server.Config) { c.Analysis.Budget = 100 }) // fewer samples: the test is about the page
	b := e.tab("alice")
	b.login("alice")
	id := b.finishedWithHuman(6)
	want := e.waitAnalysis(id, 0)
	if len(want.Decisions) < 10 {
		t.Fatalf("the analysis has %d decisions, want a whole round's", len(want.Decisions))
	}
	standIns := 0
	for _, d := range want.Decisions {
		if d.By != "" {
			standIns++
		}
	}
	if standIns == 0 || standIns == len(want.Decisions) {
		t.Fatalf("%d of %d decisions are a stand-in's: want alice's own and the bot's", standIns, len(want.Decisions))
	}

	// Someone who did not play it sees the public view, with a button per
	// player's seat.
	c := e.tab("carol")
	c.login("carol")
	c.openReplay(id)
	if s, _ := eval[int](c, `window.cardroom.replay.seat`); s != -1 {
		t.Errorf("a reader who did not play opens the replay at seat %d, want the public view", s)
	}
	c.must(10*time.Second, "the seat button", waitVisible(tid("analysis-seat-0")))
	// From alice's seat carol sees alice's hand, not "your hand", and no
	// seat is marked as hers (there are seats).
	c.setField("replay-seat", "0")
	c.must(10*time.Second, "seat 0", pollFor[chromedp.Void](`window.cardroom.replay.data.seat === 0 && !window.cardroom.replay.busy`))
	if title, _ := eval[string](c, `document.querySelector('.hand-area h3').textContent`); !strings.HasPrefix(title, "Hand of alice") {
		t.Errorf("carol, replaying from alice's seat, reads the hand's title %q, want \"Hand of alice\"", title)
	}
	if n, _ := eval[int](c, `document.querySelectorAll('.seat[data-testid^=seat-]').length`); n != 3 {
		t.Errorf("carol's replay shows %d seats, want 3", n)
	}
	if you, _ := eval[int](c, `[...document.querySelectorAll('.seat[data-testid^=seat-]')].filter((e) => e.textContent.includes('(you)')).length`); you != 0 {
		t.Errorf("carol, replaying from alice's seat, sees %d seat(s) marked (you)", you)
	}

	// alice's replay opens at her seat: her hand face up, her analysis.
	b.openReplay(id)
	if s, _ := eval[int](b, `window.cardroom.replay.seat`); s != 0 {
		t.Errorf("alice opens her own game's replay at seat %d, want 0", s)
	}
	b.must(30*time.Second, "the analysis drawn", pollFor[chromedp.Void](`(() => { const p = document.querySelector('[data-testid=analysis]'); return !!p && p.dataset.status === 'ready' && window.cardroom.replay.seat === 0; })()`))
	if sel, _ := eval[string](b, `document.querySelector('[data-testid=replay-seat]').value`); sel != "0" {
		t.Errorf("the seat switcher says %q, want seat 0", sel)
	}
	if title, _ := eval[string](b, `document.querySelector('.hand-area h3').textContent`); !strings.HasPrefix(title, "Your hand") {
		t.Errorf("alice, replaying her own game, reads the hand's title %q, want \"Your hand\"", title)
	}
	steps, err := eval[[]int](b, `[...document.querySelectorAll('[data-testid=analysis-mark]')].map((m) => +m.dataset.step)`)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != len(want.Decisions) {
		t.Fatalf("the strip has %d marks, the analysis %d decisions", len(steps), len(want.Decisions))
	}
	target := -1  // a mistake, else the largest loss of alice's own decisions that were not forced
	standIn := -1 // a stand-in's decision
	for i, d := range want.Decisions {
		if steps[i] != d.Step {
			t.Errorf("mark %d is step %d, the analysis's decision %d is step %d", i, steps[i], i, d.Step)
		}
		if d.By != "" {
			standIn = i
			if d.Mistake || d.Loss != 0 {
				t.Errorf("the stand-in's decision %+v is rated", d)
			}
			continue
		}
		if !d.Forced && (target < 0 || d.Loss > want.Decisions[target].Loss) {
			target = i
		}
	}
	if n, _ := eval[int](b, `document.querySelectorAll('[data-testid=analysis-mark][data-by=away].standin').length`); n != standIns {
		t.Errorf("%d marks are drawn as a stand-in's, the analysis has %d", n, standIns)
	}
	// A stand-in's decision says so, and offers no best move.
	sd := want.Decisions[standIn]
	b.must(10*time.Second, "a stand-in's mark", clickOn(fmt.Sprintf(`[data-testid=analysis-mark][data-step="%d"]`, sd.Step)),
		pollFor[chromedp.Void](fmt.Sprintf(`window.cardroom.replay.data.step === %d && !window.cardroom.replay.busy`, sd.Step-1)))
	if ok, _ := eval[bool](b, `!!document.querySelector('[data-testid=analysis-standin]') && !document.querySelector('[data-testid=analysis-best]')`); !ok {
		t.Errorf("the stand-in's decision at step %d does not say a bot made it", sd.Step)
	}
	if ok, _ := eval[bool](b, `[...document.querySelectorAll('[data-testid=analysis-mistake]')].every((m) => !document.querySelector('[data-testid=analysis-mark][data-by][data-step="' + m.dataset.step + '"]'))`); !ok {
		t.Error("a stand-in's move is listed among the mistakes")
	}
	if target < 0 {
		t.Fatalf("every decision of the analysis was forced: %+v", want.Decisions)
	}
	if len(want.Mistakes) > 0 {
		for i, d := range want.Decisions {
			if d.Step == want.Mistakes[0] {
				target = i
			}
		}
	}
	dec := want.Decisions[target]
	t.Logf("%d decisions, %d forced, mistakes at steps %v; the test's decision: %+v", len(want.Decisions), countForced(want), want.Mistakes, dec)
	if n, _ := eval[int](b, `document.querySelectorAll('[data-testid=analysis-mark][data-forced]').length`); n != countForced(want) {
		t.Errorf("%d marks are marked forced, the analysis has %d forced decisions", n, countForced(want))
	}
	if n, _ := eval[int](b, `document.querySelectorAll('[data-testid=analysis-mark]:not([aria-label])').length`); n != 0 {
		t.Errorf("%d marks have no accessible name", n)
	}

	// A click on the mark shows the position the seat decided in, and the
	// panel describes that decision.
	b.must(10*time.Second, "click the mark", clickOn(fmt.Sprintf(`[data-testid=analysis-mark][data-step="%d"]`, dec.Step)),
		pollFor[chromedp.Void](fmt.Sprintf(`window.cardroom.replay.data.step === %d && !window.cardroom.replay.busy`, dec.Step-1)))
	// From her seat: her own cards, face up, as she saw them then.
	if n, _ := eval[int](b, `document.querySelectorAll('[data-testid=hand] [data-card]').length`); n == 0 {
		t.Errorf("at the position of step %d the replay shows no card of alice's hand", dec.Step)
	}
	if s, _ := eval[int](b, `+(document.querySelector('[data-testid=analysis-detail]') || {dataset: {}}).dataset.step`); s != dec.Step {
		t.Errorf("at step %d the panel describes decision %d, want %d", dec.Step-1, s, dec.Step)
	}
	if cur, _ := eval[int](b, `+(document.querySelector('[data-testid=analysis-mark][aria-current]') || {dataset: {}}).dataset.step`); cur != dec.Step {
		t.Errorf("the current mark is step %d, want %d", cur, dec.Step)
	}
	// The best move in words: as the game module says it, not in notation.
	best, _ := eval[string](b, `document.querySelector('[data-testid=analysis-best]').textContent`)
	words, err := evalAsync[string](b, fmt.Sprintf(`import(new URL('js/games.js', location.href).href).then((m) => m.describeMove('papayoo', %q))`, dec.Best))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(best, words) || rawCard.MatchString(best) || words == dec.Best {
		t.Errorf("the best move is shown as %q, want it in words (%q for %q)", best, words, dec.Best)
	}
	panelText := func() string {
		s, _ := eval[string](b, `document.querySelector('[data-testid=analysis]').innerText`)
		return s
	}
	if m := rawCard.FindString(panelText()); m != "" {
		t.Errorf("the panel shows a card in notation (%q):\n%s", m, panelText())
	}
	if n, _ := eval[int](b, `document.querySelectorAll('[data-testid=analysis-alt]').length`); n < 1 || n > 3 {
		t.Errorf("the panel lists %d alternatives, want 1 to 3", n)
	}
	// "Show the move played" steps to the move.
	b.must(10*time.Second, "show the move", clickOn(tid("analysis-show-move")),
		pollFor[chromedp.Void](fmt.Sprintf(`window.cardroom.replay.data.step === %d && !window.cardroom.replay.busy`, dec.Step)))

	// The mistakes' links.
	if len(want.Mistakes) > 0 {
		b.must(10*time.Second, "to the start", clickOn(tid("replay-first")), pollFor[chromedp.Void](`window.cardroom.replay.data.step === 0`))
		b.must(10*time.Second, "click the mistake", clickOn(fmt.Sprintf(`[data-testid=analysis-mistake][data-step="%d"]`, want.Mistakes[0])),
			pollFor[chromedp.Void](fmt.Sprintf(`window.cardroom.replay.data.step === %d`, want.Mistakes[0]-1)))
		if n, _ := eval[int](b, `document.querySelectorAll('[data-testid=analysis-mistake]').length`); n != len(want.Mistakes) {
			t.Errorf("the panel lists %d mistakes, the analysis %d", n, len(want.Mistakes))
		}
	} else if ok, _ := eval[bool](b, `!!document.querySelector('[data-testid=analysis-no-mistakes]')`); !ok {
		t.Errorf("no mistake in the analysis, and the panel does not say so")
	}

	// Keyboard: the current mark takes the focus, an arrow moves it to the
	// next mark without stepping the replay, Enter jumps there.
	at, _ := eval[int](b, `window.cardroom.replay.data.step`)
	b.must(5*time.Second, "focus the current mark", focusOn(`[data-testid=analysis-mark][tabindex="0"]`))
	from, _ := eval[int](b, `+document.activeElement.dataset.step`)
	key, dir := kb.ArrowRight, 1
	if from == want.Decisions[len(want.Decisions)-1].Step {
		key, dir = kb.ArrowLeft, -1 // the last mark: go back one
	}
	b.must(5*time.Second, "arrow in the strip", chromedp.KeyEvent(key), framesDrawn)
	next, _ := eval[int](b, `+document.activeElement.dataset.step`)
	if now, _ := eval[int](b, `window.cardroom.replay.data.step`); now != at || (next-from)*dir <= 0 {
		t.Errorf("an arrow in the strip: focus from step %d to %d, replay from %d to %d (want the focus to move to the neighbouring mark, the replay to stay)", from, next, at, now)
	}
	b.must(10*time.Second, "enter on a mark", chromedp.KeyEvent(kb.Enter),
		pollFor[chromedp.Void](fmt.Sprintf(`window.cardroom.replay.data.step === %d`, next-1)))

	// Desktop and phone, in Polish, at the decision that cost most: the
	// panel's texts are Polish.
	b.must(10*time.Second, "back to the decision", clickOn(fmt.Sprintf(`[data-testid=analysis-mark][data-step="%d"]`, dec.Step)),
		pollFor[chromedp.Void](fmt.Sprintf(`window.cardroom.replay.data.step === %d && !window.cardroom.replay.busy`, dec.Step-1)))
	en, pl := langFile(t, "en"), langFile(t, "pl")
	b.setLang("pl")
	b.must(10*time.Second, "the panel in Polish", pollFor[chromedp.Void](fmt.Sprintf(`document.querySelector('#analysis-h').textContent === %q`, pl["analysis.title"])))
	text := panelText()
	for _, k := range []string{"analysis.played", "analysis.best", "analysis.loss", "analysis.mistakes", "analysis.key_mistake", "analysis.key_standin"} {
		if !strings.Contains(text, pl[k]) {
			t.Errorf("the Polish panel lacks %q (%s):\n%s", pl[k], k, text)
		}
		if strings.Contains(text, en[k]) {
			t.Errorf("the Polish panel still says %q (%s)", en[k], k)
		}
	}
	if !strings.Contains(text, "punkt") {
		t.Errorf("the Polish panel does not count in punkty:\n%s", text)
	}
	// Every language on a phone and a desktop: no sideways scrolling,
	// nothing out of its box, readable contrast.
	for _, lang := range []string{"pl", "cs", "tr", "en"} {
		if lang != "pl" {
			b.setLang(lang)
		}
		for _, v := range sizes {
			where := "analysis panel, " + lang + ", " + v.name
			b.resize(v)
			b.checkFits(where)
			b.checkContrast(where)
			b.panelShot("analysis-" + lang + "-" + v.name)
			if w, _ := eval[int](b, `document.documentElement.scrollWidth`); w > int(v.width) {
				t.Errorf("%s: the page is %d px wide", where, w)
			}
		}
	}
	b.setLang("pl")

	// A bot's seat: one short note, no strip.
	b.setField("replay-seat", "1")
	b.must(10*time.Second, "a bot's seat", pollFor[chromedp.Void](`window.cardroom.replay.data && window.cardroom.replay.data.seat === 1`))
	if s, _ := eval[string](b, `(document.querySelector('[data-testid=analysis-status]') || {}).textContent || ''`); s != pl["analysis.none"] {
		t.Errorf("a bot's seat says %q, want %q", s, pl["analysis.none"])
	}
	if n, _ := eval[int](b, `document.querySelectorAll('[data-testid=analysis-mark]').length`); n != 0 {
		t.Errorf("a bot's seat shows %d marks", n)
	}
	e.checkJS()
}

// panelShot saves the analysis panel as name.png in $CARDROOM_ARTIFACTS,
// when it names a directory.
func (b *tab) panelShot(name string) {
	if b.e.artDir == "" {
		return
	}
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, screenshotOf(tid("analysis")))
	if err == nil {
		err = os.WriteFile(filepath.Join(b.e.artDir, name+".png"), png, 0o644)
	}
	if err != nil {
		b.e.t.Logf("screenshot %s: %v", name, err)
	}
}

func countForced(a analysisJSON) int {
	n := 0
	for _, d := range a.Decisions {
		if d.Forced {
			n++
		}
	}
	return n
}

// langFile reads the room's translations of a language from the client's
// files.
func langFile(t *testing.T, lang string) map[string]string {
	t.Helper()
	raw, err := fs.ReadFile(web.Assets(), "i18n/"+lang+".json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestPrivateReplayWithInvite: a reader who came with a private game's
// invite (its link, ?table=…&invite=…) opens its replay and its analysis:
// the replay passes the invite to the record, the steps and the analysis.
// A reader without it is told the replay is unavailable.
func TestPrivateReplayWithInvite(t *testing.T) {
	e := newEnv(t, func(c *server.Config) { c.Analysis.Budget = 20 })
	a := e.tab("alice")
	a.login("alice")
	id, invite := a.finishedGame(0, true)
	if invite == "" {
		t.Fatal("the private table has no invite")
	}
	e.waitAnalysisInvite(id, 0, invite)

	carol := e.tab("carol")
	carol.login("carol")
	carol.must(15*time.Second, "a replay without the invite", chromedp.Navigate(e.base+"/#/replay/"+id),
		pollFor[chromedp.Void](`(() => { const r = window.cardroom.replay; return !!r && !!r.error; })()`))

	eve := e.tab("eve")
	eve.login("eve")
	eve.must(15*time.Second, "the invite link", chromedp.Navigate(e.base+"/?table="+id+"&invite="+invite), waitVisible(tid("felt")))
	eve.must(5*time.Second, "to the replay", chromedp.Evaluate[chromedp.Void](`location.hash = '#/replay/`+id+`'`))
	eve.must(15*time.Second, "the replay", waitVisible(tid("replay-step")),
		pollFor[chromedp.Void](`(() => { const r = window.cardroom.replay; return !!r && !!r.data && !!r.info && r.info.names.length === 3; })()`))
	if s, _ := eval[int](eve, `window.cardroom.replay.seat`); s != -1 {
		t.Errorf("eve, who did not play, opens the replay at seat %d, want the public view", s)
	}
	eve.must(10*time.Second, "seat 0's analysis", waitVisible(tid("analysis-seat-0")), clickOn(tid("analysis-seat-0")),
		pollFor[chromedp.Void](`(() => { const p = document.querySelector('[data-testid=analysis]'); return !!p && p.dataset.status === 'ready'; })()`))
	e.checkJS()
}

// waitAnalysisInvite waits until a private game's analysis of a seat is
// ready.
func (e *env) waitAnalysisInvite(id string, seat int, invite string) {
	e.t.Helper()
	for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
		e.expired("waiting for the analysis")
		code, body := httpGet(e.t, fmt.Sprintf("%s/api/records/%s/analysis?seat=%d&invite=%s", e.base, id, seat, invite))
		if code == http.StatusOK {
			return
		}
		if code != http.StatusAccepted {
			e.t.Fatalf("analysis of seat %d: %d %s", seat, code, head(body, 300))
		}
	}
	e.t.Fatalf("the analysis of seat %d was not ready within 90 s", seat)
}
