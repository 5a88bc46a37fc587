package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardroom/store"
)

// The top-level help lists every registered command with its summary, on
// stdout and exit 0 when asked for, on stderr and exit 2 for a mistake.
func TestTopLevelHelp(t *testing.T) {
	cases := []struct {
		args    []string
		code    int
		toOut   bool   // the listing on stdout (else stderr)
		mention string // also in the output
	}{
		{[]string{"--help"}, 0, true, ""},
		{[]string{"-h"}, 0, true, ""},
		{[]string{"-help"}, 0, true, ""},
		{[]string{"help"}, 0, true, ""},
		{[]string{"nosuchcommand"}, 2, false, `unknown command "nosuchcommand"`},
		{[]string{"help", "nosuchcommand"}, 2, false, `unknown command "nosuchcommand"`},
	}
	for _, c := range cases {
		out, errOut, code := runCLI(t, c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d", c.args, code, c.code)
		}
		listing := errOut
		if c.toOut {
			listing = out
		}
		if strings.Contains(listing, "Usage of serve") {
			t.Errorf("%v: shows serve's flags instead of the commands:\n%s", c.args, listing)
		}
		for name, cmd := range commands {
			line := ""
			for l := range strings.SplitSeq(listing, "\n") {
				if f := strings.Fields(l); len(f) > 0 && f[0] == name {
					line = l
				}
			}
			if !strings.Contains(line, cmd.summary) {
				t.Errorf("%v: no line for %s with its summary in:\n%s", c.args, name, listing)
			}
		}
		if c.mention != "" && !strings.Contains(errOut, c.mention) {
			t.Errorf("%v: stderr %q does not say %q", c.args, errOut, c.mention)
		}
	}
}

// Every command answers -h (and `cardroom help CMD`) with its usage line,
// an example that names the command, and its flags, and exits 0 without
// doing anything (serve does not start, backup writes nothing).
func TestEveryCommandHasHelp(t *testing.T) {
	for name := range commands {
		ht, ok := helpTexts[name]
		if !ok {
			t.Errorf("%s: no entry in helpTexts", name)
			continue
		}
		if !strings.HasPrefix(ht.example, "cardroom "+name) {
			t.Errorf("%s: example %q does not run the command", name, ht.example)
		}
		for _, args := range [][]string{{name, "-h"}, {name, "--help"}, {"help", name}} {
			out, errOut, code := runCLI(t, args...)
			if code != 0 {
				t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
			}
			for _, want := range []string{"usage: cardroom " + ht.synopsis, "example:\n  " + ht.example, "flags:\n  -"} {
				if !strings.Contains(out, want) {
					t.Errorf("%v: output lacks %q:\n%s", args, want, out)
				}
			}
			if strings.Contains(out, "Usage of") {
				t.Errorf("%v: the flag package's heading is left in:\n%s", args, out)
			}
		}
	}
	for name := range helpTexts {
		if _, ok := commands[name]; !ok {
			t.Errorf("helpTexts has %s, which is no command", name)
		}
	}
}

// A help flag after a command's file argument counts too (records
// commands take flags on either side), but not after "--".
func TestWantsHelp(t *testing.T) {
	cases := []struct {
		args []string
		want bool
	}{
		{[]string{"game.rec", "-h"}, true},
		{[]string{"--json", "--help"}, true},
		{[]string{"game.rec"}, false},
		{[]string{"--", "-h"}, false},
		{[]string{"-hh"}, false},
	}
	for _, c := range cases {
		if got := wantsHelp(c.args); got != c.want {
			t.Errorf("wantsHelp(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}

// cardroom backup copies a room's database to a new, openable file and
// refuses to overwrite one (or to run without its argument).
func TestBackupCommand(t *testing.T) {
	data := t.TempDir()
	st, err := store.OpenSQLite(filepath.Join(data, "cardroom.db"))
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	dest := filepath.Join(t.TempDir(), "copy.db")
	out, errOut, code := runCLI(t, "backup", "--data", data, dest)
	if code != 0 || !strings.Contains(out, "integrity: ok") {
		t.Fatalf("backup: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	before, err := os.ReadFile(dest)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"backup", "--data", data, dest}, 1, "exists"},
		{[]string{"backup", "--data", data}, 2, "usage: cardroom backup"},
		{[]string{"backup", "--data", t.TempDir(), filepath.Join(t.TempDir(), "x.db")}, 1, "no database"},
		{[]string{"backup", "--data", data, filepath.Join(data, "no", "such", "dir.db")}, 1, "does not exist"},
	}
	for _, c := range cases {
		_, errOut, code := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
	after, _ := os.ReadFile(dest)
	if string(after) != string(before) {
		t.Error("a refused backup changed the existing file")
	}
	ro, err := store.OpenSQLiteReadOnly(dest)
	if err != nil {
		t.Fatalf("the backup does not open: %v", err)
	}
	defer ro.Close()
	if found, err := ro.IntegrityCheck(t.Context()); err != nil || len(found) > 0 {
		t.Errorf("the backup's integrity: %v %v", found, err)
	}
}
