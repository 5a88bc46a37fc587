// Package pybot tests the Python example bot (bot.py) against a real room.
// The test needs python3 with the websockets library (PYTHON names another
// interpreter) and skips without them: CI need not have Python.
package pybot

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	_ "cardroom/games/all" // the games of this build, with their bots
	"cardroom/server"
	"cardroom/server/servertest"

	"cardroom/games"
)

// python returns an interpreter that has websockets, or skips.
func python(t *testing.T) string {
	t.Helper()
	py := os.Getenv("PYTHON")
	if py == "" {
		py = "python3"
	}
	if _, err := exec.LookPath(py); err != nil {
		t.Skipf("no %s: the Python example is not tested", py)
	}
	if out, err := exec.Command(py, "-c", "import websockets").CombinedOutput(); err != nil {
		t.Skipf("%s has no websockets library (pip install websockets, or PYTHON=…): %s", py, strings.TrimSpace(string(out)))
	}
	return py
}

// TestPythonBotPlaysAGame: bot.py makes a bot account, plays a one-round
// Papayoo game to its end, then plays a second one with the printed token.
func TestPythonBotPlaysAGame(t *testing.T) {
	py := python(t)
	if _, err := games.Lookup("papayoo"); err != nil {
		t.Skip("papayoo engine not registered")
	}
	s, base := servertest.Start(t)
	run := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, py, append([]string{"bot.py", "--url", base, "--quick", "papayoo", "--options", "rounds=1", "--seed", "1"}, args...)...)
		cmd.Env = append(os.Environ(), "CARDROOM_BOT_TOKEN=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bot.py %v: %v\n%s", args, err, out)
		}
		if !strings.Contains(string(out), "game over: ") {
			t.Fatalf("bot.py %v printed no result:\n%s", args, out)
		}
		return string(out)
	}
	first := run("--name", "PyBot", "--password", "a long password")
	m := regexp.MustCompile(`bot token \(keep it; use it with --token\): (bot_[0-9a-f]{64})`).FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("no token printed:\n%s", first)
	}
	run("--token", m[1])
	if n := s.Metrics().Finished.Load(); n != 2 {
		t.Errorf("games finished = %d, want 2", n)
	}
	// A forged token is refused at the handshake, and the bot stops
	// instead of reconnecting.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "bot.py", "--url", base, "--table", "t_nothere", "--token", "bot_"+strings.Repeat("ab", 32))
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "the token was refused") || strings.Contains(string(out), "reconnecting") {
		t.Errorf("bot.py with a forged token: %v\n%s", err, out)
	}
}

// TestPythonBotRespectsRate: in a room whose bots move at once and whose
// message rate is low, some of bot.py's moves are dropped with
// rate_limited; it waits and sends them again, so its game still ends.
func TestPythonBotRespectsRate(t *testing.T) {
	py := python(t)
	if _, err := games.Lookup("papayoo"); err != nil {
		t.Skip("papayoo engine not registered")
	}
	s, base := servertest.StartWith(t, func(c *server.Config) {
		c.Rate, c.Burst = 4, 2
		c.Table.BotDelay = time.Millisecond
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "bot.py", "--url", base, "--quick", "papayoo", "--options", "rounds=1", "--seed", "1",
		"--name", "PyRate", "--password", "a long password")
	cmd.Env = append(os.Environ(), "CARDROOM_BOT_TOKEN=")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "game over: ") || s.Metrics().Finished.Load() != 1 {
		t.Fatalf("bot.py under a low message rate: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "error rate_limited") {
		t.Errorf("no move was rate limited: the test does not test the resend\n%s", out)
	}
}
