package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"cardroom/protocol"
	"cardroom/server"
)

// TestLeaderboard: a rated game played (and abandoned) over the protocol
// shows on the leaderboard page: the player, below the bot level that
// finished ahead of them, with the bot badge and provisional marks.
func TestLeaderboard(t *testing.T) {
	// A short grace period: a seat left at a rated table is played by the
	// bot only after it (table.Leave's graced).
	e := newEnv(t, func(c *server.Config) { c.Table.Grace = 500 * time.Millisecond })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	bob, err := protocol.NewSession(ctx, nil, e.base, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := protocol.Claim(ctx, nil, e.base, bob.Token, "", "bob's password"); err != nil {
		t.Fatal(err) // rated games need an account
	}
	var sum protocol.Summary
	if err := protocol.PostJSON(ctx, nil, e.base+"/api/quickplay", bob.Token, map[string]any{"game": "papayoo", "rated": true, "level": "random"}, &sum); err != nil {
		t.Fatal(err)
	}
	pc, err := protocol.Dial(ctx, e.base, &protocol.Options{Token: bob.Token})
	if err != nil {
		t.Fatal(err)
	}
	defer pc.CloseNow()
	// Bob leaves at once: after the grace period the bots play his seat
	// to the end, and he finishes last.
	if err := pc.Send(ctx, &protocol.LeaveReq{Type: "leave", Table: sum.ID}); err != nil {
		t.Fatal(err)
	}
	var board protocol.Leaderboard
	for {
		if ctx.Err() != nil {
			t.Fatalf("the game was not rated: %+v", board)
		}
		board = protocol.Leaderboard{}
		req, _ := http.NewRequestWithContext(ctx, "GET", e.base+"/api/ratings/papayoo", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			json.NewDecoder(resp.Body).Decode(&board)
			resp.Body.Close()
		}
		if board.Total == 2 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}

	b := e.tab("alice")
	b.login("alice")
	b.must(10*time.Second, "open the leaderboard",
		clickOn(tid("ratings-link")),
		waitVisible(tid("ratings-table")),
	)
	rows, err := eval[[]string](b, `[...document.querySelectorAll('[data-testid="ratings-table"] tbody tr')].map((r) => r.dataset.player + '|' + r.textContent)`)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || !strings.HasPrefix(rows[0], "bot:random|") || !strings.Contains(rows[0], "BOT") || !strings.HasPrefix(rows[1], bob.Player+"|") ||
		!strings.Contains(rows[1], "bob") || !strings.Contains(rows[1], "?") {
		t.Errorf("leaderboard rows = %q; want bot:random (BOT) first, then bob (provisional)", rows)
	}
	b.screenshot("leaderboard")
	// The table fits every screen, in every language.
	b.checkFitsEverywhere("leaderboard")
	// Another game's tab: nobody yet.
	b.must(10*time.Second, "switch game", clickOn(tid("ratings-game-rum500")), waitVisible(tid("ratings-empty")))
	e.checkJS()
}
