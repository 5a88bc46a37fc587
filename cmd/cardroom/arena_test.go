package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The arena command plays a tiny duplicate run, prints per-bot figures and
// the paired difference, is reproducible for a seed, and writes records
// that the hint command can read.
func TestArenaCommand(t *testing.T) {
	dir := t.TempDir()
	args := []string{"arena", "--game", "papayoo", "--players", "4", "--seats", "hard:40,medium,medium,random",
		"--deals", "2", "--seed", "5", "--quiet", "--records", dir}
	out, errOut, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"hard:40", "medium", "random", "paired differences", "hard:40 − medium", "2 deals × 4 rotations = 8 games"} {
		if !strings.Contains(out, want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
	out2, _, _ := runCLI(t, args...)
	strip := func(s string) string { // the elapsed time differs
		first, rest, _ := strings.Cut(s, "\n")
		return first[:strings.LastIndex(first, ",")] + rest
	}
	if strip(out) != strip(out2) {
		t.Fatalf("two runs with the same seed differ:\n%s\n%s", out, out2)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	if len(files) != 8 {
		t.Fatalf("%d records written, want 8", len(files))
	}
	// Cut a record after the deal and the first pass: seat 1 still has to pass.
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var cut []string
	for _, l := range lines {
		cut = append(cut, l)
		if strings.HasPrefix(l, "0 pass") {
			break
		}
	}
	rec := writeTemp(t, "cut.rec", strings.Join(cut, "\n")+"\n")
	out, errOut, code = runCLI(t, "hint", "--iterations", "200", "--seat", "1", rec)
	if code != 0 {
		t.Fatalf("hint exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "pass ") || !strings.Contains(out, "visits") {
		t.Fatalf("hint output:\n%s", out)
	}
	// A seat the game has not, and one that has passed already, are told
	// in words.
	for _, c := range []struct {
		seat, want string
		code       int
	}{{"9", "the game has seats 0 to 3", 2}, {"0", "seat 0 does not have to act", 1}} {
		if _, errOut, code := runCLI(t, "hint", "--iterations", "200", "--seat", c.seat, rec); code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("hint --seat %s: exit %d, %s; want %d and %q", c.seat, code, errOut, c.code, c.want)
		}
	}
	// Search bounds out of range are refused (a mistyped count searched
	// for hours; a negative one meant the default).
	for _, args := range [][]string{{"--iterations", "99999999999"}, {"--iterations", "-1"}, {"--time", "-1s"}, {"--time", "2h"}} {
		if _, errOut, code := runCLI(t, append([]string{"hint", "--seat", "1", rec}, args...)...); code != 2 || !strings.Contains(errOut, "want ") {
			t.Errorf("hint %v: exit %d, %s; want 2 and the range", args, code, errOut)
		}
	}
	if _, errOut, code := runCLI(t, "arena", "--game", "papayoo", "--seats", "medium,medium"); code != 2 || !strings.Contains(errOut, "2 seats given for 4 players") {
		t.Fatalf("bad seat count: exit %d, %s", code, errOut)
	}
}
