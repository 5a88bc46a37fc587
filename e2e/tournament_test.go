package e2e

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"cardroom/server"
)

// fillTournamentForm opens the lobby's tournament form and fills it in:
// Papayoo, three at a table, two deals, random bots, at most max entrants.
func (b *tab) fillTournamentForm(max int) {
	b.e.t.Helper()
	b.must(10*time.Second, "open the tournament form", clickOn(tid("tournament-new")), waitVisible(tid("tournament-form")))
	b.setField("tournament-game", "papayoo")
	b.must(5*time.Second, "the game's options", waitVisible(tid("tournament-opt-players")))
	b.setField("tournament-opt-players", "3")
	b.setField("tournament-deals", "2")
	b.setField("tournament-max", strconv.Itoa(max))
	b.setField("tournament-level", "random")
}

// TestTournamentFromLobby: a player creates a duplicate tournament from
// the lobby's form (Papayoo, three at a table, two deals, one entrant, so
// it starts at once), plays its first deal at the table it opens, and back
// on the tournament's page sees the deal played with a link to its record,
// the second deal still to play, and the standings, on a phone too.
func TestTournamentFromLobby(t *testing.T) {
	e := newEnv(t)
	b := e.tab("tina")
	b.login("tina")
	b.fillTournamentForm(1)
	b.screenshot("tournament-form")
	b.must(15*time.Second, "create the tournament", clickOn(tid("tournament-create")), waitVisible(tid("tournament-play-0")))
	status, _ := eval[string](b, `document.querySelector('[data-testid=tournament-status]').dataset.status`)
	if status != "running" {
		t.Errorf("a tournament of one entrant that starts when full is %q, want running", status)
	}
	page, _ := eval[string](b, `location.hash`)
	if !strings.HasPrefix(page, "#/tournament/tn_") {
		t.Fatalf("after creating, the page is %q", page)
	}
	b.must(15*time.Second, "play deal 1", clickOn(tid("tournament-play-0")), waitVisible(tid("felt")))
	b.playToEnd(120*time.Second, nil)
	b.checkErrors()
	// The final scores lead back to the tournament, after a reload too
	// (the page remembers which tournament the deal's table is of).
	b.must(20*time.Second, "reload the finished deal", chromedp.Reload(), waitVisible(tid("final-tournament")))
	b.must(15*time.Second, "back to the tournament", clickOn(tid("final-tournament")),
		waitVisible(tid("tournament-replay-0")), waitVisible(tid("tournament-play-1")), waitVisible(tid("tournament-standings")),
		pollFor[chromedp.Void](`!document.querySelector('.ghost')`)) // the last trick's cards have flown
	if back, _ := eval[string](b, `location.hash`); back != page {
		t.Errorf("the final scores' tournament button led to %q, want %q", back, page)
	}
	result, _ := eval[string](b, `document.querySelector('[data-testid=tournament-my-result-0]').textContent`)
	total, _ := eval[string](b, `document.querySelector('[data-testid=tournament-total]').textContent`)
	if !strings.Contains(result, "(0)") || total != "0" {
		t.Errorf("deal 1 shows %q and the total %q; alone in the field, the score is 0", result, total)
	}
	b.screenshot("tournament-standings")
	b.must(10*time.Second, "phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	if w, _ := eval[int](b, `document.documentElement.scrollWidth`); w > 400 {
		t.Errorf("on a 390px wide screen the tournament's page is %dpx wide", w)
	}
	b.screenshot("tournament-phone")
	b.must(10*time.Second, "desktop viewport", chromedp.EmulateViewport(1280, 900))
	b.must(10*time.Second, "the deal's record", clickOn(tid("tournament-replay-0")), waitVisible(tid("replay-step")))
	e.checkJS()
}

// TestTournamentReplayWaitsForTheDeal: with a second entrant who has not
// played deal 1 yet, the first, back from playing it, is told the replay
// comes when the deal closes, and no record link is shown: the server
// holds a deal's records, one's own too, until every entrant has had the
// cards (docs/tournaments.md, "Hidden information").
func TestTournamentReplayWaitsForTheDeal(t *testing.T) {
	e := newEnv(t, func(c *server.Config) {
		// Loopback is a trusted proxy, so ute's request can say it comes
		// from another address than tina's.
		c.TrustedProxies, _ = server.ParseTrustedProxies("127.0.0.1/32,::1/128")
	})
	b := e.tab("tina")
	b.login("tina")
	b.fillTournamentForm(2)
	b.must(15*time.Second, "create the tournament", clickOn(tid("tournament-create")), waitVisible(tid("tournament-status")))
	// Ute joins from another session (the tournament starts, full): at
	// tina's address she is refused (one entry per address), from her own
	// she is entered.
	joined, err := evalAsync[string](b, `(async () => {
	  const id = location.hash.split('/')[2];
	  const s = await (await fetch('/api/session', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: 'ute'})})).json();
	  const join = (h) => fetch('/api/tournaments/' + id + '/join', {method: 'POST', headers: Object.assign({'Authorization': 'Bearer ' + s.token}, h)});
	  const here = await join({});
	  const body = await here.json();
	  const away = await join({'X-Forwarded-For': '203.0.113.9'});
	  return here.status + ' ' + body.error.code + ' ' + away.status;
	})()`)
	if err != nil || joined != "409 same_address 200" {
		t.Fatalf("ute joins at tina's address, then at her own: %q %v; want 409 same_address, then 200", joined, err)
	}
	b.must(15*time.Second, "the tournament runs", chromedp.Reload(), waitVisible(tid("tournament-play-0")))
	b.must(15*time.Second, "play deal 1", clickOn(tid("tournament-play-0")), waitVisible(tid("felt")))
	b.playToEnd(120*time.Second, nil)
	b.checkErrors()
	b.must(15*time.Second, "the final scores", waitVisible(tid("final-tournament")))
	// The table offers no replay either: the tournament's page does, once
	// the deal is closed.
	if n, _ := eval[int](b, `document.querySelectorAll('[data-testid=final-replay], [data-testid=open-replay]').length`); n != 0 {
		t.Errorf("the finished tournament table offers %d replay links", n)
	}
	b.must(15*time.Second, "back to the tournament", clickOn(tid("final-tournament")),
		waitVisible(tid("tournament-replay-later-0")), waitVisible(tid("tournament-standings")))
	links, _ := eval[int](b, `document.querySelectorAll('[data-testid=tournament-replay-0], [data-testid^=tournament-record-0-], [data-testid^=tournament-deal-record-0-]').length`)
	if links != 0 {
		t.Errorf("%d links to deal 1's records while ute has still to play it", links)
	}
	e.checkJS()
}
