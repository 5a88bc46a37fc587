package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestServeBotBudgetFlags: a bot budget out of range is refused before
// anything starts (exit 2, the flag named), so a typo cannot leave the hard
// bot without a real search; so are the HTTP front's timeouts and header
// bound (0 would let a slow client hold a connection for ever) and the
// rematches' bounds.
func TestServeBotBudgetFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-bot-iterations", "50"}, "-bot-iterations 50"},
		{[]string{"-bot-iterations", "2000000"}, "-bot-iterations 2000000"},
		{[]string{"-bot-min-iterations", "99"}, "-bot-min-iterations 99"},
		{[]string{"-bot-iterations", "1000", "-bot-min-iterations", "2000"}, "-bot-min-iterations 2000"},
		{[]string{"-bot-min-iterations", "-5"}, "-bot-min-iterations -5"},
		// The HTTP front's and the rematches' bounds.
		{[]string{"-http-header-timeout", "0s"}, "-http-header-timeout 0s"},
		{[]string{"-http-read-timeout", "2h"}, "-http-read-timeout 2h0m0s"},
		{[]string{"-http-write-timeout", "500ms"}, "-http-write-timeout 500ms"},
		{[]string{"-http-idle-timeout", "-1s"}, "-http-idle-timeout -1s"},
		{[]string{"-max-header-bytes", "100"}, "-max-header-bytes 100"},
		{[]string{"-rematch-ttl", "0s"}, "-rematch-ttl 0s"},
		{[]string{"-max-series", "0"}, "-max-series 0"},
	} {
		var out, errb bytes.Buffer
		args := append([]string{"-data", t.TempDir(), "-addr", "127.0.0.1:0"}, c.args...)
		if code := runServe(args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", c.args, code, errb.String())
		}
		if !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: stderr %q does not name %q", c.args, errb.String(), c.want)
		}
	}
}
