package main

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
)

// helpText is what `cardroom CMD -h` prints above the command's flags: its
// synopsis and one example a person can paste. It lives here, beside the
// command list, rather than in each command's file so that one table says
// how every command is called and TestEveryCommandHasHelp can check that
// none is missing.
type helpText struct {
	synopsis string // after "usage: cardroom "
	example  string // a whole command line
}

var helpTexts = map[string]helpText{
	"serve":    {"serve [flags]", "cardroom serve --addr 0.0.0.0:8080 --public-url https://cards.example.com"},
	"replay":   {"replay FILE [--json]", "cardroom replay game.rec"},
	"legal":    {"legal FILE [--json]", "cardroom legal partial.rec --json"},
	"view":     {"view FILE (--seat N | --spectator) [--json]", "cardroom view game.rec --seat 1"},
	"selfplay": {"selfplay --game NAME [--players N] [--seed S] [--rounds R] [--options \"k=v …\"]", "cardroom selfplay --game papayoo --players 4 --seed 7 > game.rec"},
	"arena":    {"arena --game NAME --players N --seats BOT,BOT,… [--deals D] [flags]", "cardroom arena --game papayoo --players 4 --seats hard,medium,medium,medium --deals 200"},
	"hint":     {"hint [flags] FILE", "cardroom hint game.rec --seat 2 --time 500ms"},
	"analyse":  {"analyse FILE --seat N [--json] [--seed S] [--budget B]", "cardroom analyse game.rec --seat 0"},
	"load":     {"load [--url URL] [--tables N] [--pace P] [flags]", "cardroom load --url http://localhost:8080 --tables 50 --pace 1 --duration 1m"},
	"doctor":   {"doctor [--data DIR] [--table ID] [--json]", "cardroom doctor --data /var/lib/cardroom"},
	"backup":   {"backup [--data DIR] DEST", "cardroom backup --data /var/lib/cardroom /var/backups/cardroom-$(date +%F).db"},
	"reports":  {"reports [--data DIR] [--limit N] [--json]", "cardroom reports --data /var/lib/cardroom --limit 20"},
}

// isHelpFlag reports whether arg asks for help the way the flag package
// understands it (-h, --h, -help, --help).
func isHelpFlag(arg string) bool {
	switch arg {
	case "-h", "--h", "-help", "--help":
		return true
	}
	return false
}

// wantsHelp reports whether a command's arguments ask for help: a help
// flag before any "--" (commands accept flags after their file argument
// too, see parseInterleaved).
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if isHelpFlag(a) {
			return true
		}
	}
	return false
}

// usage lists every command with its one-line summary, like `go help`.
func usage(w io.Writer) {
	fmt.Fprint(w, "Cardroom: an online card room (Papayoo, 500 Rum, Pis Yedili) and the tools around it.\n\n")
	fmt.Fprint(w, "usage: cardroom [command] [flags]\n\nThe commands are:\n\n")
	names := make([]string, 0, len(commands))
	width := 0
	for n := range commands {
		names = append(names, n)
		width = max(width, len(n))
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s  %s\n", width, n, commands[n].summary)
	}
	fmt.Fprintf(w, "\nWith no command, cardroom runs %q.\n", defaultCommand)
	fmt.Fprint(w, "Use \"cardroom COMMAND -h\" for a command's flags and an example.\n")
}

// commandHelp prints name's synopsis, summary and example, then its flags.
// The flags come from the command itself: it is run with -h and its flag
// set's listing is kept, so a flag added to a command shows up here
// without a second list to maintain.
func commandHelp(w io.Writer, name string) {
	c := commands[name]
	ht, ok := helpTexts[name]
	if !ok {
		ht = helpText{synopsis: name + " [flags]"}
	}
	fmt.Fprintf(w, "usage: cardroom %s\n\n%s.\n", ht.synopsis, upperFirst(c.summary))
	if ht.example != "" {
		fmt.Fprintf(w, "\nexample:\n  %s\n", ht.example)
	}
	var buf bytes.Buffer
	c.run([]string{"-h"}, io.Discard, &buf)
	if flags := flagLines(buf.String()); flags != "" {
		fmt.Fprintf(w, "\nflags:\n%s", flags)
	}
}

// flagLines keeps the flag package's listing (from the first line that
// starts with "  -") out of a command's -h output, dropping the heading
// ("Usage of serve:") or the command's own usage line above it.
func flagLines(out string) string {
	i := strings.Index(out, "\n  -")
	switch {
	case strings.HasPrefix(out, "  -"):
		return out
	case i < 0:
		return ""
	}
	return out[i+1:]
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
