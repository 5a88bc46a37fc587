package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"cardroom/game"
	"cardroom/games"
	"cardroom/server"
)

// The 500 Rum table in the browser: jokers melded and laid off by
// selecting cards, a deep take built by selection, and the end-of-hand
// summary. The first two are played by two people (two browser tabs) from
// a deal known in advance: the server's tables get a fixed seed, and the
// test finds a seed whose deal has what it needs.

// rumDeal is a 500 Rum deal: the dealer, each seat's hand, the upcard and
// the stock (top first).
type rumDeal struct {
	dealer int
	hands  [][]string
	up     string
	stock  []string
}

// predictDeal draws the first dealer and deal as the table does from its
// seed: each chance step uses game.NewRand(seed ^ (step+1)·0x9e3779b97f4a7c15)
// (table.advance, table/moves.go). The test compares the result with the
// page, so a change there fails with a clear message rather than a puzzle.
func predictDeal(t *testing.T, seed uint64, opts game.Options) rumDeal {
	t.Helper()
	eng, err := games.Lookup("rum500")
	if err != nil {
		t.Fatal(err)
	}
	st, err := eng.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	var d rumDeal
	for i := 0; st.ChancePending(); i++ {
		rng := game.NewRand(seed ^ (uint64(i+1) * 0x9e3779b97f4a7c15))
		text := st.SampleChance(&rng)
		if err := st.ApplyChance(text); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(text, "\n") {
			f := strings.Fields(line)
			switch {
			case len(f) == 2 && f[0] == "dealer":
				d.dealer, _ = strconv.Atoi(f[1])
			case len(f) > 1 && strings.HasSuffix(f[0], ":"):
				d.hands = append(d.hands, f[1:])
			case len(f) == 2 && f[0] == "up":
				d.up = f[1]
			case len(f) > 0 && f[0] == "stock":
				d.stock = f[1:]
			}
		}
	}
	return d
}

func rankOf(c string) string { return c[:len(c)-1] }

// sameRank lists the cards of hand with the rank r.
func sameRank(hand []string, r string) []string {
	var out []string
	for _, c := range hand {
		if c != "JK" && rankOf(c) == r {
			out = append(out, c)
		}
	}
	return out
}

// jokerPlan is what the two-player test does with a deal.
type jokerPlan struct {
	first, second int      // the seat that plays first, and the other
	pair          []string // two cards of one rank in first's hand, melded with a joker
	jokerLayer    int      // the seat that lays the second joker off
	x1            string   // first's discard, which second takes back deep with...
	x1Pair        []string // ...two cards of its rank from second's hand
	y1            string   // second's first discard
}

// planFor says whether the deal allows the whole scenario: the first
// player holds a joker and exactly two cards of a rank (so the joker can
// stand for either missing suit: a choice); the other joker is in a hand;
// the first player holds a card the second can meld with two of theirs.
func planFor(d rumDeal) (jokerPlan, bool) {
	p := jokerPlan{first: (d.dealer + 1) % 2, second: d.dealer}
	f, s := d.hands[p.first], d.hands[p.second]
	if !slices.Contains(f, "JK") {
		return p, false
	}
	switch {
	case strings.Count(strings.Join(f, " "), "JK") == 2:
		p.jokerLayer = p.first
	case slices.Contains(s, "JK"):
		p.jokerLayer = p.second
	default:
		return p, false
	}
	for _, c := range f {
		if c == "JK" || p.pair != nil {
			continue
		}
		if rs := sameRank(f, rankOf(c)); len(rs) == 2 {
			p.pair = rs
		}
	}
	if p.pair == nil {
		return p, false
	}
	// The stock cards drawn on the way must not spoil the plan: first
	// draws stock[0] and stock[2], second stock[1].
	for _, c := range f {
		if c == "JK" || rankOf(c) == rankOf(p.pair[0]) {
			continue
		}
		rs := sameRank(s, rankOf(c))
		if len(rs) == 2 && rankOf(d.stock[0]) != rankOf(c) && rankOf(d.stock[1]) != rankOf(c) && rankOf(d.stock[2]) != rankOf(c) {
			p.x1, p.x1Pair = c, rs
			break
		}
	}
	if p.x1 == "" {
		return p, false
	}
	for _, c := range s {
		if c != "JK" && rankOf(c) != rankOf(p.x1) {
			p.y1 = c
			break
		}
	}
	return p, p.y1 != ""
}

// click clicks the element a selector finds with a real mouse click, once
// no card moves (a card on its way, or a pile spreading out, is not where
// the click would aim).
func (b *tab) click(what, sel string) {
	b.e.t.Helper()
	b.must(10*time.Second, what, waitVisible(chromedp.CSS(sel)), settled, clickOn(chromedp.CSS(sel)))
}

// waitJS waits until a JavaScript condition holds on the page.
func (b *tab) waitJS(what, cond string) {
	b.e.t.Helper()
	b.must(15*time.Second, what, pollFor[chromedp.Void](cond, chromedp.WithPollingInterval(20*time.Millisecond)))
}

func (b *tab) handCards() []string {
	cards, _ := eval[[]string](b, `[...document.querySelectorAll('[data-testid=hand-card]')].map((e) => e.dataset.card)`)
	return cards
}

const myTurnToDraw = `!!document.querySelector('[data-testid=draw-stock]:not([disabled])')`

func handCard(c string) string { return fmt.Sprintf(`[data-testid=hand-card][data-card=%q]`, c) }

// TestRum500JokersAndDeepTake: two people at a 500 Rum table with jokers.
// The first melds a joker with two cards of a rank by selecting them and
// chooses, in words, which card the joker stands for; the other joker is
// laid off by selecting it and pressing the highlighted meld's button; a
// card deep in the pile is then taken by the second player, its meld built
// from the selection.
func TestRum500JokersAndDeepTake(t *testing.T) {
	opts := game.Options{"players": "2", "jokers": "2"}
	var seed uint64
	var plan jokerPlan
	var deal rumDeal
	for s := uint64(1); s < 20000; s++ {
		d := predictDeal(t, s, opts)
		if p, ok := planFor(d); ok {
			seed, plan, deal = s, p, d
			break
		}
	}
	if seed == 0 {
		t.Fatal("no seed below 20000 gives the deal this test needs")
	}
	t.Logf("seed %d: dealer %d, plan %+v", seed, deal.dealer, plan)
	e := newEnv(t, func(c *server.Config) { c.Seeds = func() uint64 { return seed } })
	alice, bob := e.tab("alice"), e.tab("bob")
	alice.login("alice")
	bob.login("bob")
	id := alice.createTable("rum500", 2, map[string]string{"jokers": "2"}, []int{1})
	alice.must(10*time.Second, "waiting room", waitVisible(tid("waiting")))
	bob.must(15*time.Second, "bob sits down", chromedp.Navigate(e.base+"/#/table/"+id), waitVisible(tid("sit-1")), clickOn(tid("sit-1")), waitVisible(tid("hand")))
	alice.must(15*time.Second, "the game starts", waitVisible(tid("hand")))
	tabs := []*tab{alice, bob}
	for s, b := range tabs {
		b.waitJS("the hand is dealt", `document.querySelectorAll('[data-testid=hand-card]').length === 13`)
		got := b.handCards()
		want := slices.Clone(deal.hands[s])
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("seat %d holds %v, but the deal predicted from seed %d is %v: has the table changed how it draws chance (table/moves.go)?", s, got, seed, want)
		}
	}
	// The rules panel of a table with jokers explains them.
	if txt, _ := eval[string](alice, `document.querySelector('[data-testid=help-rules]').textContent`); !strings.Contains(txt, "joker") {
		t.Errorf("the rules panel does not mention jokers: %.200q", txt)
	}

	f, s := tabs[plan.first], tabs[plan.second]
	layJoker := func(b *tab) {
		// The second joker goes onto the set: the one suit still missing.
		b.click("select the joker", handCard("JK"))
		b.waitJS("meld 1 highlighted", `document.querySelector('[data-testid=meld-1]').dataset.target === 'true' && !!document.querySelector('[data-testid^=layoff-1]')`)
		b.screenshot("rum500-joker-layoff")
		label, _ := eval[string](b, `document.querySelector('[data-testid^=layoff-1]').textContent`)
		if !strings.Contains(label, "joker as") || strings.Contains(label, "JK") {
			t.Errorf("the lay-off button says %q: want the joker in words", label)
		}
		b.click("lay the joker off", `[data-testid^=layoff-1]`)
		b.waitJS("the joker laid off", `document.querySelectorAll('[data-testid=meld-1] [data-card=JK][data-stands]').length === 2`)
	}

	// The first player's turn: draw, then meld joker + pair.
	f.waitJS("first player's turn", myTurnToDraw)
	f.click("draw", `[data-testid=draw-stock]`)
	f.waitJS("drawn", `document.querySelectorAll('[data-testid=hand-card]').length === 14 && !!document.querySelector('[data-testid=discard]')`)
	f.click("select a joker", handCard("JK"))
	if n, _ := eval[int](f, `document.querySelectorAll('[data-testid=hand-card][aria-pressed=true]').length`); n != 1 {
		t.Errorf("selecting one joker selected %d cards", n)
	}
	for _, c := range plan.pair {
		f.click("select "+c, handCard(c))
	}
	f.waitJS("meld selected enabled", `!document.querySelector('[data-testid=meld-selected]').disabled`)
	f.click("meld selected", `[data-testid=meld-selected]`)
	// The joker can stand for either missing suit: the choice in words.
	f.waitJS("the choice", `document.querySelectorAll('[data-testid=meld-choice]').length === 2`)
	f.screenshot("rum500-joker-choice")
	choices, _ := eval[[]string](f, `[...document.querySelectorAll('[data-testid=meld-choice]')].map((e) => e.textContent)`)
	for _, c := range choices {
		if !strings.Contains(c, "joker as") || strings.Contains(c, "JK") {
			t.Errorf("meld choice %q: want the joker in words, no notation", c)
		}
	}
	moveOf, _ := eval[string](f, `document.querySelector('[data-testid=meld-choice]').dataset.move`)
	stands := moveOf[strings.Index(moveOf, "JK=")+3:]
	stands = strings.Fields(stands)[0]
	f.click("choose", `[data-testid=meld-choice]`)
	f.waitJS("meld 1 on the table", `!!document.querySelector('[data-testid=meld-1]')`)
	for _, b := range tabs {
		b.waitJS("meld 1 seen", `!!document.querySelector('[data-testid=meld-1]')`)
		got, _ := eval[string](b, `(document.querySelector('[data-testid=meld-1] [data-card=JK]') || {dataset: {}}).dataset.stands || ''`)
		badge, _ := eval[string](b, `(document.querySelector('[data-testid=meld-1] [data-testid=joker-stands]') || {}).textContent || ''`)
		if got != stands || badge != rankOf(stands) {
			t.Errorf("%s: the melded joker stands for %q (badge %q), want %s", b.name, got, badge, stands)
		}
	}
	if plan.jokerLayer == plan.first {
		layJoker(f)
	}
	f.click("select the discard", handCard(plan.x1))
	f.click("discard", `[data-testid=discard]`)

	// The second player: draw, (lay the joker off), discard.
	s.waitJS("second player's turn", myTurnToDraw)
	s.click("draw", `[data-testid=draw-stock]`)
	s.waitJS("drawn", `document.querySelectorAll('[data-testid=hand-card]').length === 14 && !!document.querySelector('[data-testid=discard]')`)
	if plan.jokerLayer == plan.second {
		layJoker(s)
	}
	s.click("select the discard", handCard(plan.y1))
	s.click("discard", `[data-testid=discard]`)

	// The first player again: draw and discard something.
	f.waitJS("first player's turn", myTurnToDraw)
	f.click("draw", `[data-testid=draw-stock]`)
	f.waitJS("drawn", `!!document.querySelector('[data-testid=discard]') && [...document.querySelectorAll('[data-testid=hand-card]')].some((e) => e.getAttribute('aria-disabled') !== 'true')`)
	var x2 string
	for _, c := range f.handCards() {
		if c != "JK" {
			x2 = c
			break
		}
	}
	f.click("select the discard", handCard(x2))
	f.click("discard", `[data-testid=discard]`)

	// The deep take: x1 lies under y1 and x2.
	s.waitJS("second player's turn", myTurnToDraw)
	s.click("pick x1 in the pile", fmt.Sprintf(`[data-testid=pile-card][data-card=%q]`, plan.x1))
	s.waitJS("the offer", `!!document.querySelector('[data-testid=take-offer]') && document.querySelectorAll('[data-testid=taken-card]').length === 2`)
	for _, c := range plan.x1Pair {
		s.click("select "+c, handCard(c))
	}
	s.waitJS("meld selected enabled", `!document.querySelector('[data-testid=meld-selected]').disabled`)
	s.screenshot("rum500-deep-take")
	s.click("meld the take", `[data-testid=meld-selected]`)
	s.waitJS("the take's meld on the table", `!!document.querySelector('[data-testid=meld-2]')`)
	meld2, _ := eval[[]string](s, `[...document.querySelectorAll('[data-testid=meld-2] [data-card]')].map((e) => e.dataset.card)`)
	want := append([]string{plan.x1}, plan.x1Pair...)
	slices.Sort(meld2)
	slices.Sort(want)
	if !slices.Equal(meld2, want) {
		t.Errorf("meld 2 holds %v, want %v", meld2, want)
	}
	hand := s.handCards()
	if !slices.Contains(hand, plan.y1) || !slices.Contains(hand, x2) {
		t.Errorf("after the deep take the hand %v lacks the cards that came along (%s, %s)", hand, plan.y1, x2)
	}
	// Nothing on either page prints joker notation.
	for _, b := range tabs {
		if txt, _ := eval[string](b, `document.body.innerText`); strings.Contains(txt, "JK") {
			i := strings.Index(txt, "JK")
			t.Errorf("%s: the page shows joker notation: …%s…", b.name, txt[max(0, i-60):min(len(txt), i+20)])
		}
		b.checkErrors()
	}
	e.checkJS()
}

// TestRum500TwoJokersInAMeld: with both jokers in hand, a player selects
// them and one card and melds the three (spec §12: "a joker may stand for
// any card in a meld"; option meld_jokers=any, the default): the page
// offers every meld the three can make, each said in words, and the one
// chosen lies on the table with both jokers showing what they stand for.
func TestRum500TwoJokersInAMeld(t *testing.T) {
	opts := game.Options{"players": "2", "jokers": "2"}
	var seed uint64
	var deal rumDeal
	for s := uint64(1); s < 20000 && seed == 0; s++ {
		// Seat 0 plays first (seat 1 deals) and holds both jokers.
		if d := predictDeal(t, s, opts); d.dealer == 1 && strings.Count(strings.Join(d.hands[0], " "), "JK") == 2 {
			seed, deal = s, d
		}
	}
	if seed == 0 {
		t.Fatal("no seed below 20000 gives the deal this test needs")
	}
	var c string // the natural card melded with the jokers
	for _, x := range deal.hands[0] {
		if x != "JK" {
			c = x
			break
		}
	}
	e := newEnv(t, func(c *server.Config) { c.Seeds = func() uint64 { return seed } })
	b := e.tab("alice")
	b.login("alice")
	b.createTable("rum500", 2, map[string]string{"jokers": "2"}, nil)
	b.waitJS("my turn", myTurnToDraw)
	b.click("draw", `[data-testid=draw-stock]`)
	b.waitJS("drawn", `document.querySelectorAll('[data-testid=hand-card]').length === 14 && !!document.querySelector('[data-testid=discard]')`)
	b.click("select a joker", `[data-testid=hand-card][data-key="hJK#1"]`)
	b.click("select the other joker", `[data-testid=hand-card][data-key="hJK#2"]`)
	b.click("select "+c, handCard(c))
	b.waitJS("meld selected enabled", `!document.querySelector('[data-testid=meld-selected]').disabled`)
	b.click("meld selected", `[data-testid=meld-selected]`)
	b.waitJS("the choice", `document.querySelectorAll('[data-testid=meld-choice]').length >= 2`)
	choices, _ := eval[[]string](b, `[...document.querySelectorAll('[data-testid=meld-choice]')].map((e) => e.textContent)`)
	moves, _ := eval[[]string](b, `[...document.querySelectorAll('[data-testid=meld-choice]')].map((e) => e.dataset.move)`)
	for i, m := range moves {
		if strings.Count(m, "JK=") != 2 || !strings.Contains(" "+m+" ", " "+c+" ") {
			t.Errorf("choice %q: want a meld of %s and two jokers", m, c)
		}
		if strings.Count(choices[i], "joker as") != 2 || strings.Contains(choices[i], "JK") {
			t.Errorf("choice %q: want both jokers in words, no notation", choices[i])
		}
	}
	b.screenshot("rum500-two-jokers-choice")
	var stands []string
	for _, w := range strings.Fields(moves[0]) {
		if f, ok := strings.CutPrefix(w, "JK="); ok {
			stands = append(stands, f)
		}
	}
	b.click("choose", `[data-testid=meld-choice]`)
	b.waitJS("meld 1 on the table", `document.querySelectorAll('[data-testid=meld-1] [data-card=JK][data-stands]').length === 2`)
	got, _ := eval[[]string](b, `[...document.querySelectorAll('[data-testid=meld-1] [data-card=JK]')].map((e) => e.dataset.stands)`)
	slices.Sort(got)
	slices.Sort(stands)
	if !slices.Equal(got, stands) {
		t.Errorf("the jokers on the table stand for %v, want %v (%s)", got, stands, moves[0])
	}
	b.checkErrors()
	e.checkJS()
}

// TestRum500ThreeJokersByKind: three jokers selected alone make about a
// hundred melds (every set of three of a rank, every run of three in a
// suit); the page first asks which kind (a set of a rank, a run in a
// suit), then lists the melds of that kind in words, and the one chosen
// lies on the table.
func TestRum500ThreeJokersByKind(t *testing.T) {
	opts := game.Options{"players": "2", "decks": "2", "jokers": "2"}
	var seed uint64
	for s := uint64(1); s < 50000 && seed == 0; s++ {
		// Seat 0 plays first (seat 1 deals) and holds three jokers or more.
		if d := predictDeal(t, s, opts); d.dealer == 1 && strings.Count(strings.Join(d.hands[0], " "), "JK") >= 3 {
			seed = s
		}
	}
	if seed == 0 {
		t.Fatal("no seed below 50000 gives the deal this test needs")
	}
	e := newEnv(t, func(c *server.Config) { c.Seeds = func() uint64 { return seed } })
	b := e.tab("alice")
	b.login("alice")
	b.createTable("rum500", 2, map[string]string{"decks": "2", "jokers": "2"}, nil)
	b.waitJS("my turn", myTurnToDraw)
	b.click("draw", `[data-testid=draw-stock]`)
	// The drawn card in the hand, not only the click sent: before the
	// draw's state arrives the hand's cards are disabled (nothing to meld
	// yet), a click on one is lost and the meld button stayed disabled
	// (2 full runs of the browser tests in 4 on a busy machine).
	b.waitJS("drawn", `document.querySelectorAll('[data-testid=hand-card]').length === 14 && !!document.querySelector('[data-testid=discard]')`)
	for i := 1; i <= 3; i++ {
		b.click(fmt.Sprintf("select joker %d", i), fmt.Sprintf(`[data-testid=hand-card][data-key="hJK#%d"]`, i))
	}
	b.waitJS("meld selected enabled", `!document.querySelector('[data-testid=meld-selected]').disabled`)
	b.click("meld selected", `[data-testid=meld-selected]`)
	b.waitJS("the kinds", `document.querySelectorAll('[data-testid=meld-kind]').length > 0`)
	kinds, _ := eval[[]string](b, `[...document.querySelectorAll('[data-testid=meld-kind]')].map((e) => e.textContent)`)
	if n, _ := eval[int](b, `document.querySelectorAll('[data-testid=meld-choice]').length`); n != 0 {
		t.Errorf("%d melds listed before a kind was chosen", n)
	}
	// Thirteen ranks' sets and four suits' runs.
	if len(kinds) != 17 || !slices.Contains(kinds, "Set: queen (4)") || !slices.Contains(kinds, "Run: hearts (12)") {
		t.Errorf("kinds %q: want 13 sets (4 each) and 4 runs (12 each)", kinds)
	}
	b.screenshot("rum500-three-jokers-kinds")
	b.click("runs in hearts", `[data-testid=meld-kind][data-key="mkrun-H"]`)
	b.waitJS("the runs", `document.querySelectorAll('[data-testid=meld-choice]').length === 12`)
	moves, _ := eval[[]string](b, `[...document.querySelectorAll('[data-testid=meld-choice]')].map((e) => e.dataset.move)`)
	for _, m := range moves {
		if strings.Count(m, "JK=") != 3 || strings.Count(m, "H") != 3 {
			t.Errorf("choice %q: want three jokers standing for hearts", m)
		}
	}
	b.click("back to the kinds", `[data-testid=meld-kind-back]`)
	b.waitJS("the kinds again", `document.querySelectorAll('[data-testid=meld-kind]').length === 17`)
	b.click("runs in hearts", `[data-testid=meld-kind][data-key="mkrun-H"]`)
	b.waitJS("the runs", `document.querySelectorAll('[data-testid=meld-choice]').length === 12`)
	b.click("choose", `[data-testid=meld-choice]`)
	b.waitJS("meld 1 on the table", `document.querySelectorAll('[data-testid=meld-1] [data-card=JK][data-stands$=H]').length === 3`)
	b.checkErrors()
	e.checkJS()
}

// TestRum500HandSummary plays a 500 Rum game against bots until the first
// hand ends: the summary shows who went out (or that the stock ran out),
// every player's table points and the cards left in their hands, and stays
// until it is closed; it can be opened again.
func TestRum500HandSummary(t *testing.T) {
	// Seed 5: the first hand ends after a few turns (a random deal takes
	// two or three times as long).
	e := newEnv(t, func(c *server.Config) { c.Seeds = func() uint64 { return 5 } })
	b := e.tab("alice")
	b.login("alice")
	b.createTable("rum500", 3, map[string]string{"target": "1000"}, nil)
	player := pickWaitJS(`(() => { if (document.querySelector('[data-testid=hand-summary]')) return 'summary'; return ` + pickJS + `; })()`)
	deadline := time.Now().Add(120 * time.Second)
	for {
		if time.Now().After(deadline) {
			b.screenshot("rum500-no-summary")
			t.Fatal("no hand summary within 120 s")
		}
		e.expired("playing to the first hand's end")
		p, ok := b.nextPick(player, 5*time.Second)
		if !ok {
			continue
		}
		if p.Kind == "summary" {
			break
		}
		if p.Kind == "done" {
			t.Fatal("the game ended without a hand summary")
		}
		b.clickPick(p)
	}
	b.screenshot("rum500-hand-summary")
	// On a phone the summary fits the screen's width.
	b.must(10*time.Second, "phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	time.Sleep(150 * time.Millisecond)
	b.screenshot("rum500-hand-summary-phone")
	fits, _ := eval[string](b, `(() => { const s = document.querySelector('[data-testid=hand-summary]'); const r = s.getBoundingClientRect();
	  return r.right <= innerWidth + 1 && s.scrollWidth <= s.clientWidth + 1 ? '' : 'right ' + r.right + ', scroll width ' + s.scrollWidth + ' in ' + s.clientWidth; })()`)
	if fits != "" {
		t.Errorf("on a 390px wide screen the hand summary overflows: %s", fits)
	}
	b.must(10*time.Second, "desktop viewport", chromedp.EmulateViewport(1280, 900))
	type row struct {
		Table, Score, Left, Cards int
		Out                       bool
	}
	rows, err := eval[[]row](b, `[...document.querySelectorAll('[data-testid=summary-row]')].map((r) => {
	  const s = r.dataset.seat;
	  const v = (c) => c === 'JK' ? 15 : c.startsWith('A') ? 15 : /^[JQK]/.test(c) ? 10 : parseInt(c, 10);
	  const cards = [...r.querySelectorAll('[data-testid=left-card]')].map((e) => e.dataset.card);
	  return { Table: +r.querySelector('[data-testid=summary-table-' + s + ']').textContent,
	    Score: +r.querySelector('[data-testid=summary-score-' + s + ']').textContent,
	    Left: cards.reduce((a, c) => a + v(c), 0), Cards: cards.length, Out: !!r.querySelector('.badge') };
	})`)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("the summary has %d rows, want 3", len(rows))
	}
	sheet, _ := eval[[]string](b, `[...document.querySelectorAll('[data-testid=score-sheet] tbody tr:first-child td')].slice(1).map((e) => e.textContent)`)
	outs, withCards := 0, 0
	for s, r := range rows {
		if r.Table-r.Left != r.Score {
			t.Errorf("seat %d: table %d − cards left %d ≠ hand score %d", s, r.Table, r.Left, r.Score)
		}
		if s < len(sheet) && !strings.HasPrefix(sheet[s], fmt.Sprintf("%+d", r.Score)) && !(r.Score == 0 && strings.HasPrefix(sheet[s], "0")) {
			t.Errorf("seat %d: summary score %d, score sheet %q", s, r.Score, sheet[s])
		}
		if r.Out {
			outs++
			if r.Cards != 0 {
				t.Errorf("seat %d went out but shows %d cards left", s, r.Cards)
			}
		}
		if r.Cards > 0 {
			withCards++
		}
	}
	if outs > 1 || withCards == 0 {
		t.Errorf("summary rows %+v: want at most one player out and cards left in the other hands", rows)
	}
	line, _ := eval[string](b, `document.querySelector('[data-testid=hand-summary] [data-testid=went-out]').textContent`)
	if want := "the stock ran out"; outs == 1 {
		if !strings.HasSuffix(line, " went out.") || strings.Contains(line, want) {
			t.Errorf("summary line %q, but a player went out", line)
		}
	} else if !strings.Contains(line, want) {
		t.Errorf("summary line %q, but nobody went out", line)
	}
	// Closed by the player, opened again from the badge.
	b.click("close the summary", `[data-testid=dismiss-hand]`)
	b.waitJS("summary closed", `!document.querySelector('[data-testid=hand-summary]')`)
	b.click("reopen", `[data-testid=show-last-hand]`)
	b.waitJS("summary again", `!!document.querySelector('[data-testid=hand-summary]')`)
	b.checkErrors()
	e.checkJS()
}

// TestRum500HistoryTexts says every 500 Rum history entry kind in each
// language with the module's describeEntry: a sentence of its own (not the
// shell's generic text), every placeholder filled, jokers in words, and in
// Czech and Polish no gendered past tense after a player's name.
func TestRum500HistoryTexts(t *testing.T) {
	e := newEnv(t)
	b := e.tab("texts")
	b.must(20*time.Second, "open", chromedp.Navigate(e.base+"/"), waitVisible(tid("name-input")))
	js := `(async () => {
	  const { game } = await import('/js/games.js');
	  const { setLang, t } = await import('/js/i18n.js');
	  const mod = game('rum500');
	  if (!mod || !mod.describeEntry) return { error: 'no describeEntry' };
	  const ctx = { seats: [{ seat: 0, name: 'Marta' }, { seat: 1, name: 'Ola' }], seat: -1 };
	  const entries = [
	    { seat: 1, kind: 'deal' }, { seat: 0, kind: 'draw', count: 1 },
	    { seat: 0, kind: 'take', cards: ['7D', '9S', 'JK'], count: 3 }, { seat: 0, kind: 'take', cards: ['QH'], count: 1 },
	    { seat: 0, kind: 'meld', cards: ['8H', '8D', 'JK'], as: ['8S'], points: 39 },
	    { seat: 1, kind: 'layoff', cards: ['JK'], meld: 1, as: ['8C'], points: 15 },
	    { seat: 1, kind: 'discard', cards: ['KS'] }, { seat: 0, kind: 'decline' }, { seat: 0, kind: 'out' },
	    { seat: -1, kind: 'turn_over', count: 12 }, { seat: -1, kind: 'hand', scores: [39, -12], hands: [[], ['KS', 'JK']] },
	  ];
	  const out = {};
	  for (const lang of ['en', 'pl', 'cs', 'tr']) {
	    await setLang(lang);
	    out[lang] = entries.map((e) => [mod.describeEntry(e, ctx) || '', t('history.generic', { name: e.seat === 0 ? 'Marta' : 'Ola', kind: e.kind })]);
	  }
	  // An unknown kind is left to the shell.
	  out.unknown = String(mod.describeEntry({ seat: 0, kind: 'juggle' }, ctx));
	  await setLang('en');
	  return out;
	})()`
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]any](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if msg, ok := got["error"]; ok {
		t.Fatalf("%v", msg)
	}
	if got["unknown"] != "undefined" {
		t.Errorf("an unknown kind gave %q, want undefined (the shell's generic text)", got["unknown"])
	}
	gendered := map[string]*regexp.Regexp{
		"cs": regexp.MustCompile(`\b(vyložil|lízl|vzal|odhodil|přiložil|odmítl|rozdal|dohrál|zbavil)\b`),
		"pl": regexp.MustCompile(`\b(wyłożył|dobrał|wziął|odrzucił|dołożył|odmówił|rozdał|pozbył)\b`),
	}
	texts := map[string][]string{}
	for _, lang := range []string{"en", "pl", "cs", "tr"} {
		list, _ := got[lang].([]any)
		if len(list) != 11 {
			t.Fatalf("%s: %d texts, want 11", lang, len(list))
		}
		for i, x := range list {
			pair, _ := x.([]any)
			text, _ := pair[0].(string)
			generic, _ := pair[1].(string)
			texts[lang] = append(texts[lang], text)
			switch {
			case text == "" || text == generic:
				t.Errorf("%s: entry %d has no text of its own (%q)", lang, i, text)
			case strings.ContainsAny(text, "{}") || strings.Contains(text, "JK") || strings.Contains(text, "rum500."):
				t.Errorf("%s: entry %d: %q has notation, a placeholder or a key left", lang, i, text)
			}
			if re := gendered[lang]; re != nil && re.MatchString(text) {
				t.Errorf("%s: entry %d: %q uses a gendered past tense", lang, i, text)
			}
		}
		// The meld and the lay-off say what the joker stands for.
		joker := map[string]string{"en": "joker as", "pl": "dżoker jako", "cs": "žolík jako", "tr": "yerine joker"}[lang]
		for _, i := range []int{4, 5} {
			if !strings.Contains(texts[lang][i], joker) {
				t.Errorf("%s: %q does not say the joker in words (%q)", lang, texts[lang][i], joker)
			}
		}
	}
	for _, lang := range []string{"pl", "cs", "tr"} {
		for i := range texts[lang] {
			if texts[lang][i] == texts["en"][i] {
				t.Errorf("%s: entry %d is the English text %q", lang, i, texts[lang][i])
			}
		}
	}
	t.Logf("en: %q", texts["en"])
	t.Logf("cs: %q", texts["cs"])
	e.checkJS()
}

// TestRum500LongMeldFits: a long meld (a run of fourteen cards, with the
// owners' marks under them, as two decks and jokers allow) wraps its
// cards inside its box on the narrowest phone, in the table's felt: the
// layout sweep met one on a random deal that stuck out of a 360 px
// screen by 150 px on each side. The meld is built from the client's own
// card elements and classes (pieces.js, app.css).
func TestRum500LongMeldFits(t *testing.T) {
	e := newEnv(t)
	b := e.tab("alice")
	b.must(20*time.Second, "open", chromedp.Navigate(e.base+"/"), waitVisible(tid("name-input")))
	b.resize(smallPhone)
	js := `(async () => {
	  const { cardEl, h } = await import('/js/pieces.js').then(async (p) => ({ ...p, h: (await import('/js/dom.js')).h }));
	  const cards = ['AH', '2H', '3H', '4H', '5H', '6H', 'JK', '8H', '9H', '10H', 'JH', 'QH', 'KH', 'AH'];
	  const meld = h('div', { class: 'meld meld-owner-0', 'data-testid': 'long-meld' },
	    h('div', { class: 'meld-title' }, 'Meld 1'),
	    h('div', { class: 'meld-cards' }, cards.map((c, i) => cardEl(c, { size: 'small',
	      who: h('span', { class: 'own oc-' + (i % 2), 'aria-hidden': 'true' }, String(i % 2 + 1)) }))));
	  const melds = h('div', { class: 'melds', 'data-testid': 'long-melds' }, meld);
	  const felt = h('div', { class: 'felt' }, melds);
	  document.querySelector('main').prepend(felt);
	  await new Promise((r) => requestAnimationFrame(r));
	  const m = meld.getBoundingClientRect(), p = melds.getBoundingClientRect();
	  const rows = new Set([...meld.querySelectorAll('.card')].map((c) => Math.round(c.getBoundingClientRect().top))).size;
	  return JSON.stringify({ ml: m.left, mr: m.right, pl: p.left, pr: p.right, rows, page: document.documentElement.scrollWidth });
	})()`
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	out, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		ML, MR, PL, PR float64
		Rows, Page     int
	}
	if err := json.Unmarshal([]byte(out), &g); err != nil {
		t.Fatal(err)
	}
	if g.ML < g.PL-0.5 || g.MR > g.PR+0.5 || g.Page > int(smallPhone.width) || g.Rows < 2 {
		t.Errorf("a 14-card meld at 360 px: %s; want it inside its box (in rows) and the page %d px wide at most", out, smallPhone.width)
	}
}
