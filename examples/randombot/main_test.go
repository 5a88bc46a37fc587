package main

import (
	"bytes"
	"context"
	"io"
	"log"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"cardroom/games"
	"cardroom/protocol"
	"cardroom/server"
	"cardroom/server/servertest"
)

// TestRandomBotPlaysAGame runs the example bot against a real server as a
// bot account: a first run makes the account from -name and -password and
// prints its token; a second run connects with -token alone. Each
// quick-plays a one-round Papayoo game to the end over the protocol.
func TestRandomBotPlaysAGame(t *testing.T) {
	if _, err := games.Lookup("papayoo"); err != nil {
		t.Skip("papayoo engine not registered yet")
	}
	s, base := servertest.Start(t)

	play := func(c config) string {
		t.Helper()
		var out bytes.Buffer
		c.base, c.quick, c.options, c.seed, c.out = base, "papayoo", "rounds=1", 1, &out
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		if err := run(ctx, c); err != nil {
			t.Fatalf("run: %v\n%s", err, out.String())
		}
		if !strings.Contains(out.String(), "game over: ") {
			t.Fatalf("no result in the output:\n%s", out.String())
		}
		return out.String()
	}
	first := play(config{name: "ExampleBot", password: "a long password"})
	m := regexp.MustCompile(`bot token \(keep it; use it with -token\): (bot_[0-9a-f]{64})\n`).FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("no token printed:\n%s", first)
	}
	if second := play(config{token: m[1]}); strings.Contains(second, "bot token") {
		t.Errorf("a run with -token issued another token:\n%s", second)
	}
	if n := s.Metrics().Finished.Load(); n != 2 {
		t.Errorf("games finished = %d, want 2", n)
	}
	// Its seat was a bot account's: the history's tables carry the badge.
	var h protocol.History
	if err := getJSON(base+"/api/history", m[1], &h); err != nil || len(h.Games) != 2 {
		t.Fatalf("history with the token: %+v, %v", h, err)
	}
	var sum protocol.Summary
	if err := getJSON(base+"/api/tables/"+h.Games[0].ID, "", &sum); err != nil || !sum.Seats[0].BotAccount {
		t.Errorf("the table's summary: %+v, %v; want seat 0 marked as a bot account", sum.Seats, err)
	}
	// Without a token or a password there is no identity to play with.
	if err := run(context.Background(), config{base: base, quick: "papayoo", out: io.Discard}); err == nil || !strings.Contains(err.Error(), "-token") {
		t.Errorf("run without credentials: %v, want a hint at -token", err)
	}
}

// TestRandomBotRespectsRate: in a room whose bots move at once and whose
// message rate is low, the bot's moves come faster than the rate and some
// are dropped with rate_limited; it waits and sends them again, so its
// game still ends (before, a dropped move left the game waiting for ever).
func TestRandomBotRespectsRate(t *testing.T) {
	if _, err := games.Lookup("papayoo"); err != nil {
		t.Skip("papayoo engine not registered yet")
	}
	s, base := servertest.StartWith(t, func(c *server.Config) {
		c.Rate, c.Burst = 4, 2
		c.Table.BotDelay = time.Millisecond
	})
	var out, logs bytes.Buffer
	log.SetOutput(&logs)
	defer log.SetOutput(os.Stderr)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := config{base: base, quick: "papayoo", options: "rounds=1", seed: 1, out: &out, name: "RateBot", password: "a long password"}
	if err := run(ctx, c); err != nil {
		t.Fatalf("run: %v\n%s\n%s", err, out.String(), logs.String())
	}
	if !strings.Contains(out.String(), "game over: ") || s.Metrics().Finished.Load() != 1 {
		t.Fatalf("the game did not end:\n%s\n%s", out.String(), logs.String())
	}
	if !strings.Contains(logs.String(), "error rate_limited") {
		t.Errorf("no move was rate limited: the test does not test the resend\n%s", logs.String())
	}
}
