package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

const blunderRec = "../../bot/analysis/testdata/papayoo-blunder.rec"

// TestAnalyseOutput: the table has a line per decision and names the
// blunder (seat 0's 10S under the Papayoo, step 14) among the mistakes;
// --json has the documented shape with the same numbers.
func TestAnalyseOutput(t *testing.T) {
	out, errOut, code := runCLI(t, "analyse", blunderRec, "--seat", "0", "--budget", "100", "--seed", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"papayoo, seat 0", "step round", "play 10S", "play 4S", "biggest mistakes", "step 14: play 10S, better play 4S"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	js, errOut, code := runCLI(t, "analyse", "--json", "--seat", "0", "--budget", "100", "--seed", "2", blunderRec)
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errOut)
	}
	var a struct {
		Version   int    `json:"version"`
		Game      string `json:"game"`
		Seat      int    `json:"seat"`
		Mistakes  []int  `json:"mistakes"`
		Decisions []struct {
			Step  int     `json:"step"`
			Move  string  `json:"move"`
			Best  string  `json:"best"`
			Loss  float64 `json:"loss"`
			Moves []struct {
				Move  string  `json:"move"`
				Value float64 `json:"value"`
			} `json:"moves"`
		} `json:"decisions"`
	}
	if err := json.Unmarshal([]byte(js), &a); err != nil {
		t.Fatalf("%v in %s", err, js)
	}
	if a.Version != 1 || a.Game != "papayoo" || a.Seat != 0 || len(a.Decisions) != 3 || len(a.Mistakes) == 0 || a.Mistakes[0] != 14 {
		t.Fatalf("json: %+v", a)
	}
	last := a.Decisions[2]
	if last.Move != "play 10S" || last.Best != "play 4S" || len(last.Moves) != 2 || !strings.Contains(out, fmt.Sprintf("%.1f!", last.Loss)) {
		t.Errorf("last decision %+v does not match the table:\n%s", last, out)
	}
}

// TestAnalyseBadInput: usage errors exit 2, an unanalysable record 1,
// with a message.
func TestAnalyseBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no seat", []string{"analyse", blunderRec}, 2, "usage"},
		{"no file", []string{"analyse", "--seat", "0"}, 2, "usage"},
		{"budget 0", []string{"analyse", blunderRec, "--seat", "0", "--budget", "0"}, 2, "--budget"},
		{"budget too big", []string{"analyse", blunderRec, "--seat", "0", "--budget", "100000"}, 2, "--budget"},
		{"missing file", []string{"analyse", "testdata/nope.rec", "--seat", "0"}, 2, "nope.rec"},
		{"seat out of range", []string{"analyse", blunderRec, "--seat", "5"}, 1, "seat 5"},
	} {
		_, errOut, code := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%s: exit %d, %q; want %d and %q", tc.name, code, errOut, tc.code, tc.msg)
		}
	}
}
