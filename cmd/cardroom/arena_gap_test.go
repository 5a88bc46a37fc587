package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestArenaGapCommand: --gap runs each subject against the field on the
// same deals and reports the share of the gap; its stdout is the same for
// the same flags (time per move goes to stderr); bad seat lists are
// refused with exit 2 and a message.
func TestArenaGapCommand(t *testing.T) {
	args := []string{"arena", "--game", "papayoo", "--players", "4", "--gap", "random,hard:30,ceiling:30", "--field", "random",
		"--deals", "2", "--seed", "5", "--quiet"}
	out, errOut, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"gap: game papayoo", "random, hard:30, ceiling:30", "gap closed", "ceiling:30"} {
		if !strings.Contains(out, want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "time per move") || !strings.Contains(errOut, "ceiling:30") {
		t.Errorf("stderr lacks the time per move: %s", errOut)
	}
	if out2, _, _ := runCLI(t, args...); out2 != out {
		t.Fatalf("two gap runs with the same seed differ:\n%s\n%s", out, out2)
	}
	js, _, code := runCLI(t, append(args, "--json")...)
	var gr struct {
		Subjects []string
		Rows     []struct {
			Metric string
			Closed []struct{ Mean float64 }
		}
	}
	if err := json.Unmarshal([]byte(js), &gr); code != 0 || err != nil || len(gr.Rows) != 3 || len(gr.Rows[0].Closed) != 3 || gr.Rows[0].Closed[2].Mean != 1 {
		t.Errorf("--json: exit %d, %v, %+v", code, err, gr)
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"both", []string{"--seats", "medium,medium,medium,medium", "--gap", "medium,ceiling"}, "either --seats or --gap"},
		{"neither", nil, "either --seats or --gap"},
		{"time budget", []string{"--gap", "medium,ceiling:200ms"}, "never a time"},
		{"one subject", []string{"--gap", "ceiling"}, "at least a base and a top"},
		{"bad field", []string{"--gap", "medium,ceiling", "--field", "oracle"}, "--field"},
		{"ceiling seat", []string{"--seats", "ceiling:0,medium,medium,medium"}, "iterations from 1"},
		{"runs without gap", []string{"--seats", "medium,medium,medium,medium", "--runs", "x.json"}, "--runs needs --gap"},
	}
	for _, tc := range cases {
		_, errOut, code := runCLI(t, append([]string{"arena", "--game", "papayoo", "--deals", "1", "--quiet"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d, %q; want 2 and %q", tc.name, code, errOut, tc.want)
		}
	}
}

// TestArenaGapRuns: --runs saves every subject's run and a later gap on
// the same deals reuses the runs it holds (it says so, and prints the
// figures a full run prints); a file of other deals is refused.
func TestArenaGapRuns(t *testing.T) {
	file := filepath.Join(t.TempDir(), "runs.json")
	base := []string{"arena", "--game", "papayoo", "--players", "4", "--field", "random", "--deals", "2", "--quiet"}
	full, errOut, code := runCLI(t, append(base, "--gap", "random,hard:30,ceiling:30", "--seed", "5")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, errOut, code := runCLI(t, append(base, "--gap", "random,ceiling:30", "--seed", "5", "--runs", file)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	out, errOut, code := runCLI(t, append(base[:len(base)-1], "--gap", "random,hard:30,ceiling:30", "--seed", "5", "--runs", file)...)
	if code != 0 || out != full {
		t.Fatalf("exit %d, %s; the gap with reused runs prints\n%s\nwhere a full run prints\n%s", code, errOut, out, full)
	}
	for _, want := range []string{"gap run random reused", "gap run ceiling:30 reused", "gap run hard:30 against"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q: %s", want, errOut)
		}
	}
	if _, errOut, code := runCLI(t, append(base, "--gap", "random,hard:30,ceiling:30", "--seed", "6", "--runs", file)...); code != 2 || !strings.Contains(errOut, "holds runs of") {
		t.Errorf("another seed: exit %d, %q; want 2 and a refusal", code, errOut)
	}
}
