package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"cardroom/game"
	"cardroom/protocol"
	"cardroom/server"
)

// TestLobbyRated: the lobby of a room people return to. A guest sees the
// "Rated" choice disabled with the way to an account, who is online, the
// seated players' ratings (provisional marked) and a "Rated" badge, and
// the filter by game and rated/casual; an account creates a rated table
// from the form (no options offered), the guest's lobby lists it with the
// badge, and the game played to its end shows each seat's rating change.
func TestLobbyRated(t *testing.T) {
	// A short grace period: carl's rated game below is played by the bots
	// only after it once he leaves (table.Leave's graced), and his socket,
	// which nobody reads, would miss the room's ping at 30 s.
	e := newEnv(t, func(c *server.Config) { c.Table.Grace = 3 * time.Second })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	// carl, an account, has a rating: a rated game he left at once (the
	// bots finish it, he finishes last). Then he opens a rated and a
	// casual table, each with a free seat, and stays connected.
	carl, err := protocol.NewSession(ctx, nil, e.base, "carl")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := protocol.Claim(ctx, nil, e.base, carl.Token, "", "carl's password"); err != nil {
		t.Fatal(err)
	}
	pc, err := protocol.Dial(ctx, e.base, &protocol.Options{Token: carl.Token})
	if err != nil {
		t.Fatal(err)
	}
	defer pc.CloseNow()
	var first protocol.Summary
	if err := protocol.PostJSON(ctx, nil, e.base+"/api/quickplay", carl.Token, map[string]any{"game": "papayoo", "rated": true, "level": "random"}, &first); err != nil {
		t.Fatal(err)
	}
	if err := pc.Send(ctx, &protocol.LeaveReq{Type: "leave", Table: first.ID}); err != nil {
		t.Fatal(err)
	}
	for {
		var r protocol.RatingsOf
		err := getJSON(ctx, e.base+"/api/ratings/papayoo/players?id="+carl.Player, &r)
		if err == nil && len(r.Players) == 1 {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("carl's first game was not rated")
		}
		time.Sleep(100 * time.Millisecond)
	}
	seat0 := game.Seat(0)
	open := func(rated bool) string {
		var sum protocol.Summary
		req := protocol.CreateReq{Game: "papayoo", Seat: &seat0, Bots: map[string]string{"1": "random", "2": "random"}, Rated: rated}
		if err := protocol.PostJSON(ctx, nil, e.base+"/api/tables", carl.Token, req, &sum); err != nil {
			t.Fatal(err)
		}
		if sum.Rated != rated || sum.Free != 1 {
			t.Fatalf("carl's table: rated %v, %d free; want rated %v, 1 free", sum.Rated, sum.Free, rated)
		}
		return sum.ID
	}
	ratedID, casualID := open(true), open(false)

	bob := e.tab("bob")
	bob.login("bob")
	row := func(id string) string { return fmt.Sprintf(`[data-testid=lobby-row][data-table=%q]`, id) }
	bob.must(15*time.Second, "the lobby lists carl's tables, with ratings and who is online",
		waitVisible(row(ratedID)+` [data-testid=rated-badge]`),
		waitVisible(row(casualID)),
		waitVisible(row(ratedID)+` [data-testid=seat-rating]`),
		waitVisible(`[data-testid=online-list] a`),
	)
	for _, where := range []string{"quick", "create"} {
		js := fmt.Sprintf(`document.querySelector('[data-testid=rated-%s]').disabled && !!document.querySelector('[data-testid=rated-claim-%s][href="#/account"]')`, where, where)
		if dis, _ := eval[bool](bob, js); !dis {
			t.Errorf("a guest's Rated choice (%s) is not disabled with a link to the account view", where)
		}
	}
	if n, _ := eval[int](bob, `document.querySelectorAll('`+row(casualID)+` [data-testid=rated-badge]').length`); n != 0 {
		t.Error("the casual table has the Rated badge")
	}
	seatText, _ := eval[string](bob, `document.querySelector('`+row(ratedID)+`').cells[1].textContent`)
	// carl holds an account (rated games need one): his name has its mark.
	if !strings.Contains(seatText, "carl✓ (") || !strings.Contains(seatText, "?)") {
		t.Errorf("seats of the rated table %q: want carl's account mark and provisional rating, e.g. carl✓ (1000?)", seatText)
	}
	if names, _ := eval[string](bob, `document.querySelector('[data-testid=online-list]').textContent`); !strings.Contains(names, "carl") {
		t.Errorf("who is online %q: carl is connected", names)
	}
	// carl holds an account, bob (a guest) not: only carl is marked.
	if marked, _ := eval[[]string](bob, `[...document.querySelectorAll('[data-testid=online-list] li')].filter((li) => li.querySelector('[data-testid=online-account]')).map((li) => li.querySelector('a').textContent)`); !slices.Equal(marked, []string{"carl"}) {
		t.Errorf("who is online, marked as accounts: %q, want carl alone", marked)
	}
	bob.screenshot("lobby-ratings")

	rows := func() []string {
		ids, _ := eval[[]string](bob, `[...document.querySelectorAll('[data-testid=lobby-row]')].map((r) => r.dataset.table)`)
		return ids
	}
	filters := []struct {
		kind, game string
		want       []string
	}{
		{"rated", "", []string{ratedID}},
		{"casual", "", []string{casualID}},
		{"", "rum500", nil},
		{"", "papayoo", []string{casualID, ratedID}},
	}
	for _, f := range filters {
		bob.setField("filter-kind", f.kind)
		bob.setField("filter-game", f.game)
		got := rows()
		if strings.Join(sortedCopy(got), ",") != strings.Join(sortedCopy(f.want), ",") {
			t.Errorf("filter kind=%q game=%q: rows %q, want %q", f.kind, f.game, got, f.want)
		}
	}
	bob.setField("filter-game", "")
	bob.setField("filter-kind", "rated")

	// Anna claims her name, then creates a rated table from the form.
	a := e.tab("anna")
	a.login("Anna")
	a.claimName("open sesame", tid("account-info"))
	a.must(15*time.Second, "open the rated form",
		chromedp.Navigate(e.base+"/#/"),
		waitVisible(tid("create-form")),
		clickOn(tid("create-game-papayoo")),
		waitVisible(`[data-testid=rated-create]:not([disabled])`),
	)
	a.setField("quick-level", "random")
	a.must(10*time.Second, "choose rated", clickOn(tid("rated-create")), waitVisible(tid("rated-note")))
	if n, _ := eval[int](a, `document.querySelectorAll('[data-testid^=opt-]').length`); n != 0 {
		t.Errorf("%d options offered for a rated table; want none (the game's defaults)", n)
	}
	a.screenshot("lobby-create-rated")
	a.must(15*time.Second, "create the rated table", clickOn(tid("create-submit")), waitVisible(tid("felt")))
	id, err := eval[string](a, `document.querySelector('[data-testid=felt]').dataset.table`)
	if err != nil || id == "" {
		t.Fatalf("table id: %v", err)
	}
	bob.must(10*time.Second, "bob's lobby shows Anna's rated table", waitVisible(row(id)+` [data-testid=rated-badge]`))
	a.must(10*time.Second, "the game starts", waitVisible(`[data-testid=felt][data-status=playing]`))
	if hint, _ := eval[bool](a, `!!document.querySelector('[data-testid=hint]')`); hint {
		t.Error("a hint button at a rated table (the server refuses hints there)")
	}

	a.playToEnd(240*time.Second, nil)
	a.must(20*time.Second, "the rating change", waitVisible(`[data-testid=rating-change][data-done=true]`))
	// One line per rated player: Anna and the random level (three seats,
	// one rating).
	changes, _ := eval[[]string](a, `[...document.querySelectorAll('[data-testid=rating-change-row]')].map((e) => e.dataset.player + '|' + e.textContent)`)
	if len(changes) != 2 || !strings.HasPrefix(changes[0], "p_") || !strings.HasPrefix(changes[1], "bot:random|") {
		t.Fatalf("rating changes %q: want Anna's, then bot:random's", changes)
	}
	for _, c := range changes {
		if !strings.Contains(c, "→") {
			t.Errorf("rating change %q: want before → after", c)
		}
	}
	a.screenshot("rating-change")
	e.checkJS()
}

func getJSON(ctx context.Context, url string, out any) error {
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}
