package e2e

// Table chat between two browsers (issue 13): a typed line and a canned
// phrase reach the other player in their own language, markup in a line
// stays text, a muted player's lines disappear from the muting browser
// only (until unmuted), and a spectator's line is hidden from a player who
// hides the spectators' channel.

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chatTexts is the text of the chat lines a tab shows, in order.
func chatTexts(b *tab) []string {
	s, err := eval[string](b, `JSON.stringify([...document.querySelectorAll('[data-testid=chat-line] [data-testid=chat-text]')].map((e) => e.textContent))`)
	if err != nil {
		b.e.t.Fatalf("%s: chat lines: %v", b.name, err)
	}
	var out []string
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		b.e.t.Fatalf("%s: chat lines %q: %v", b.name, s, err)
	}
	return out
}

// waitChat waits until a tab shows a chat line whose text is text.
func waitChat(b *tab, text string) {
	b.must(15*time.Second, "see the chat line "+text, pollFor[chromedp.Void](fmt.Sprintf(
		`[...document.querySelectorAll('[data-testid=chat-text]')].some((e) => e.textContent === %q)`, text)))
}

func say(b *tab, text string) {
	b.must(10*time.Second, "type a chat line", waitVisible(tid("chat-input")),
		sendKeys(tid("chat-input"), text), clickOn(tid("chat-send")))
}

func TestChatTwoBrowsers(t *testing.T) {
	e := newEnv(t)
	alice, bob, carol := e.tab("alice"), e.tab("bob"), e.tab("carol")
	alice.login("alice")
	bob.login("bob")
	carol.login("carol")
	// alice holds an account: her lines carry her seat's ✓, bob's (a
	// guest) and carol's (a spectator) none.
	alice.claimName("open sesame", tid("account-info"))
	alice.must(10*time.Second, "back to the lobby", clickOn(tid("home")), waitVisible(tid("create-form")))
	id := alice.createTable("papayoo", 3, map[string]string{"rounds": "1"}, []int{1})
	alice.must(10*time.Second, "the chat panel", waitVisible(tid("chat-panel")))
	bob.joinFromLobby(15*time.Second, "bob joins from the lobby", id, tid("chat-show-spectators"))
	// bob reads in Polish: the phrase alice sends comes as a code.
	var switched bool
	runAsync(t, bob, 10*time.Second, `const m = await import('/js/i18n.js'); await m.setLang('pl', false); return JSON.stringify(true);`, &switched)

	say(alice, "hello <b>bob</b>")
	waitChat(bob, "hello <b>bob</b>")
	if n, _ := eval[int](bob, `document.querySelectorAll('[data-testid=chat-log] b b, [data-testid=chat-text] b').length`); n != 0 {
		t.Errorf("markup in a chat line became elements (%d)", n)
	}
	say(bob, "hi alice")
	waitChat(alice, "hi alice")

	alice.must(10*time.Second, "a canned phrase", clickOn(tid("phrase-gg")))
	waitChat(alice, "Good game")
	waitChat(bob, "Dobra gra")

	// carol watches and writes on the spectators' channel; bob hides it.
	carol.must(15*time.Second, "carol watches", chromedp.Navigate(e.base+"/#/table/"+id), waitVisible(tid("chat-panel")))
	waitChat(carol, "hi alice") // the last lines come with the watch
	// A spectator's chat field fits its placeholder on every screen (it
	// had no room to grow: "Message to the spectators" was cut on phones).
	carol.checkFitsEverywhere("carol watching")
	say(carol, "go alice")
	waitChat(alice, "go alice")
	waitChat(bob, "go alice")
	bob.must(10*time.Second, "hide the spectators", clickOn(tid("chat-show-spectators")))
	bob.must(10*time.Second, "spectators hidden", pollFor[chromedp.Void](
		`![...document.querySelectorAll('[data-testid=chat-text]')].some((e) => e.textContent === 'go alice')`))
	say(carol, "psst")
	waitChat(alice, "psst")
	// Who carries the account's mark, on carol's page (every line shows
	// there): alice's lines only.
	marked, _ := eval[[]string](carol, `[...document.querySelectorAll('[data-testid=chat-line]')].filter((l) => l.querySelector('[data-testid=chat-account]')).map((l) => l.querySelector('[data-testid=chat-text]').textContent)`)
	if want := []string{"hello <b>bob</b>", "Good game"}; !slices.Equal(marked, want) {
		t.Errorf("chat lines with the account's mark on carol's page: %q, want alice's %q", marked, want)
	}

	// alice mutes bob: his lines go from her page, not from carol's.
	alice.must(10*time.Second, "mute bob", clickOn(chromedp.CSS(`[data-testid=chat-line][data-line="2"] [data-testid=chat-mute]`)))
	alice.must(10*time.Second, "bob muted", pollFor[chromedp.Void](
		`![...document.querySelectorAll('[data-testid=chat-text]')].some((e) => e.textContent === 'hi alice')`))
	if got := chatTexts(carol); !slices.Contains(got, "psst") || !slices.Contains(got, "hi alice") {
		t.Errorf("carol shows %v: she muted nobody", got)
	}
	alice.must(10*time.Second, "unmute bob", clickOn(tid("chat-unmute")))
	waitChat(alice, "hi alice")
	say(alice, "marker")
	waitChat(bob, "marker")
	if got := chatTexts(bob); slices.Contains(got, "psst") {
		t.Errorf("bob, who hides the spectators, shows %v", got)
	}
	// bob chats past the burst (5 lines at once, 20 a minute): the refusal
	// names the limit in his language (Polish), with the wait, from the
	// limit the server names (the server's own words are English).
	for i := range 8 {
		say(bob, fmt.Sprintf("spam %d", i))
		if n, _ := eval[int](bob, `document.querySelectorAll('[data-testid=error-toast]').length`); n > 0 {
			break
		}
	}
	bob.must(10*time.Second, "the chat's refusal", waitVisible(tid("error-toast")))
	toast, _ := eval[string](bob, `document.querySelector('[data-testid=error-toast]').textContent`)
	if !regexp.MustCompile(`^Zwolnij: limit czatu to 5 naraz i 20 na minutę\. Następna za [0-9]+ s\.( \(×[0-9]+\))?$`).MatchString(toast) {
		t.Errorf("bob's refusal reads %q, want the chat's limit in Polish", toast)
	}
	alice.checkErrors()
	bob.checkErrors()
	e.checkJS()
}

// TestRematchBrowser: at the end of a game against bots, one click in the
// final scores offers the rematch; the bots accept at once, so the page
// goes to the new table, which shows the series score. alice holds an
// account: her ✓ stays beside her name in the final scores and in the
// first game's replay, which reads it from the record's Accounts tag
// (docs/records.md); the bots' names have none. (One game for both: a
// whole game is the browser tests' dearest step.)
func TestRematchBrowser(t *testing.T) {
	e := newEnv(t)
	alice := e.tab("alice")
	alice.login("alice")
	alice.claimName("open sesame", tid("account-info"))
	alice.must(10*time.Second, "back to the lobby", clickOn(tid("home")), waitVisible(tid("create-form")))
	id := alice.createTable("papayoo", 3, map[string]string{"rounds": "1"}, nil)
	alice.playToEnd(150*time.Second, nil)
	alice.must(20*time.Second, "the final scores", waitVisible(tid("final-scores")))
	seats, _ := eval[[]string](alice, `[...document.querySelectorAll('[data-testid=final-scores] .account-mark')].map((m) => m.closest('tr').dataset.seat)`)
	if len(seats) != 1 || seats[0] != "0" {
		t.Errorf("account marks in the final scores on seats %q, want alice's 0 alone", seats)
	}
	alice.must(20*time.Second, "offer a rematch from the final scores", waitVisible(tid("final-rematch-offer")),
		clickOn(tid("final-rematch-offer")))
	alice.must(20*time.Second, "the rematch table", pollFor[chromedp.Void](fmt.Sprintf(
		`(() => { const f = document.querySelector('[data-testid=felt]'); return !!f && f.dataset.table !== %q && f.dataset.status === 'playing'; })()`, id)))
	alice.must(15*time.Second, "the series score", waitVisible(tid("series")))
	if s, _ := eval[string](alice, `document.querySelector('[data-testid=series]').textContent`); !strings.Contains(s, "1") {
		t.Errorf("series: %q", s)
	}
	alice.must(20*time.Second, "the first game's replay with alice's mark",
		chromedp.Navigate(e.base+"/#/replay/"+id),
		waitVisible(`[data-testid=replay] `+string(tid("account-badge-0"))))
	if n, _ := eval[int](alice, `document.querySelectorAll('[data-testid=replay] .seat .account-mark').length`); n != 1 {
		t.Errorf("%d account marks on the replay's seats, want 1 (alice's)", n)
	}
	alice.checkErrors()
	e.checkJS()
}
