package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestServeBotBudgetFlags: a bot budget out of range is refused before
// anything starts (exit 2, the flag named), so a typo cannot leave the hard
// bot without a real search.
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
