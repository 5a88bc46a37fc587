package e2e

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"cardroom/game"
	"cardroom/protocol"
	"cardroom/server"
)

// TestBotAccountBadge: a person opens a seat at their table, a bot account
// (a program with its API token, no browser) joins it over the protocol,
// and the person's page shows the BOT badge on that seat, and on no other,
// while they play the game to its end together.
func TestBotAccountBadge(t *testing.T) {
	e := newEnv(t, func(c *server.Config) { c.Accounts = server.AccountsConfig{HashTime: 1, HashMemoryKiB: 256} })
	alice := e.tab("alice")
	alice.login("alice")
	id := alice.createTable("papayoo", 3, map[string]string{"rounds": "1"}, []int{1})

	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	sess, err := protocol.NewSession(ctx, nil, e.base, "RoboBob")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := protocol.Claim(ctx, nil, e.base, sess.Token, "", "beep boop beep"); err != nil {
		t.Fatal(err)
	}
	tok, err := protocol.MakeBot(ctx, nil, e.base, sess.Token, "e2e")
	if err != nil {
		t.Fatal(err)
	}
	c, err := protocol.Dial(ctx, e.base, &protocol.Options{Token: tok.Token})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if err := c.Send(ctx, protocol.JoinReq{Table: id, Seat: new(game.Seat(1))}); err != nil {
		t.Fatal(err)
	}
	botDone := make(chan error, 1)
	go func() { botDone <- playRandom(ctx, c, id) }()

	alice.must(20*time.Second, "the BOT badge on seat 1", waitVisible(tid("bot-badge-1")))
	if n, _ := eval[int](alice, `document.querySelectorAll('.badge.bot-account').length`); n != 1 {
		t.Errorf("%d BOT badges on the page, want 1 (seat 1 only)", n)
	}
	// A bot account is an account, but its seat says BOT, not the
	// account's mark (and alice is a guest).
	if n, _ := eval[int](alice, `document.querySelectorAll('.account-mark').length`); n != 0 {
		t.Errorf("%d account marks on the page, want none", n)
	}
	if txt, _ := eval[string](alice, `document.querySelector('[data-testid="bot-badge-1"]').textContent`); txt != "BOT" {
		t.Errorf("badge text %q, want BOT", txt)
	}
	alice.screenshot("bot-account-badge")
	alice.playToEnd(120*time.Second, nil)
	if err := <-botDone; err != nil {
		t.Errorf("the bot account: %v", err)
	}
	// The replay shows the badge on the same seat, from the record.
	alice.must(20*time.Second, "the replay with the BOT badge",
		clickOn(tid("final-replay")),
		waitVisible(`[data-testid=replay] `+string(tid("bot-badge-1"))))
	if n, _ := eval[int](alice, `document.querySelectorAll('[data-testid=replay] .badge.bot-account').length + document.querySelectorAll('.account-mark').length`); n != 1 {
		t.Errorf("%d BOT badges and account marks in the replay, want 1 (seat 1's badge)", n)
	}
	alice.must(10*time.Second, "back to the final scores", chromedp.NavigateBack(), waitVisible(tid("final-scores")))
	// Who is online in the lobby shows the bot account with its badge
	// (its socket is still open), not with an account's ✓.
	alice.must(30*time.Second, "the bot account online, with its badge (who is online is drawn again every 10 s)",
		clickOn(tid("final-lobby")), waitVisible(`[data-testid=online-list] [data-testid=online-bot]`))
	if n, _ := eval[int](alice, `document.querySelectorAll('[data-testid=online-list] [data-testid=online-account]').length`); n != 0 {
		t.Errorf("%d account marks in who is online, want none (alice is a guest, RoboBob a bot)", n)
	}
	alice.checkErrors()
	e.checkJS()
}

// playRandom plays random legal moves at one table until its game ends.
func playRandom(ctx context.Context, c *protocol.Client, tableID string) error {
	rng := rand.New(rand.NewPCG(1, 2))
	last := -1
	for {
		m, _, err := c.Next(ctx)
		if err != nil {
			return err
		}
		st, ok := m.(*protocol.StateMsg)
		if !ok || st.Table != tableID {
			continue
		}
		if st.Status == protocol.StatusFinished {
			return nil
		}
		if len(st.Legal) > 0 && st.Seq > last {
			last = st.Seq
			id, _ := json.Marshal(st.Seq)
			if err := c.Send(ctx, protocol.MoveReq{ID: id, Table: tableID, Move: st.Legal[rng.IntN(len(st.Legal))]}); err != nil {
				return err
			}
		}
	}
}
