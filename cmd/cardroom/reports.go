package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"cardroom/store"
)

func init() {
	register("reports", "list the chat lines players reported (read-only), newest first", runReports)
}

// reportJSON is one report as -json prints it.
type reportJSON struct {
	ID           int64     `json:"id"`
	At           time.Time `json:"at"`
	Table        string    `json:"table"`
	Line         int64     `json:"line"`
	Channel      string    `json:"channel"`
	Player       string    `json:"player"`
	Name         string    `json:"name"`
	Text         string    `json:"text,omitempty"`
	Phrase       string    `json:"phrase,omitempty"`
	LineAt       time.Time `json:"line_at"`
	Reporter     string    `json:"reporter"`
	ReporterName string    `json:"reporter_name"`
	Reason       string    `json:"reason,omitempty"`
}

// runReports is `cardroom reports`: the reported chat lines (docs/protocol.md,
// "Chat"), with a copy of each line, for the operator to act on. It opens
// the database read-only, so it is safe on a running room. Exit 0: listed;
// 1: the database cannot be read; 2: usage.
func runReports(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("reports", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", defaultDataDir(), "data directory holding cardroom.db (env CARDROOM_DATA)")
	limit := fs.Int("limit", 100, fmt.Sprintf("list at most this many reports (1–%d)", store.MaxReports))
	asJSON := fs.Bool("json", false, "print the reports as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "reports: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *limit < 1 || *limit > store.MaxReports {
		fmt.Fprintf(stderr, "reports: -limit %d: want 1 to %d\n", *limit, store.MaxReports)
		return 2
	}
	path := filepath.Join(*data, "cardroom.db")
	if _, err := os.Stat(path); err != nil {
		fmt.Fprintf(stderr, "reports: no database at %s: %v\n", path, err)
		return 1
	}
	st, err := store.OpenSQLiteReadOnly(path)
	if err != nil {
		fmt.Fprintf(stderr, "reports: %v\n", err)
		return 1
	}
	defer st.Close()
	reps, err := st.ChatReports(context.Background(), *limit)
	if err != nil {
		fmt.Fprintf(stderr, "reports: %v (a database from before chat: run `cardroom serve` once to migrate it)\n", err)
		return 1
	}
	if *asJSON {
		out := make([]reportJSON, 0, len(reps))
		for _, r := range reps {
			l := r.Line
			out = append(out, reportJSON{ID: r.ID, At: r.At, Table: l.Table, Line: l.ID, Channel: l.Channel, Player: l.Player,
				Name: l.Name, Text: l.Text, Phrase: l.Phrase, LineAt: l.At, Reporter: r.Reporter, ReporterName: r.ReporterName, Reason: r.Reason})
		}
		writeJSONTo(stdout, out)
		return 0
	}
	if len(reps) == 0 {
		fmt.Fprintln(stdout, "no reports")
		return 0
	}
	for _, r := range reps {
		l := r.Line
		what := l.Text
		if l.Phrase != "" {
			what = "[" + l.Phrase + "]"
		}
		fmt.Fprintf(stdout, "#%d %s table %s line %d (%s)\n", r.ID, r.At.Format(time.RFC3339), l.Table, l.ID, l.Channel)
		fmt.Fprintf(stdout, "  %s (%s) at %s: %s\n", l.Name, l.Player, l.At.Format(time.RFC3339), quoteLine(what))
		fmt.Fprintf(stdout, "  reported by %s (%s)", r.ReporterName, r.Reporter)
		if r.Reason != "" {
			fmt.Fprintf(stdout, ": %s", quoteLine(r.Reason))
		}
		fmt.Fprintln(stdout)
	}
	return 0
}

// quoteLine quotes a player's text for a terminal: the server refuses
// control characters, but a report is read by an operator, and an escape
// sequence must never reach their terminal whatever the database holds.
func quoteLine(s string) string {
	q := fmt.Sprintf("%q", s)
	return strings.TrimSuffix(strings.TrimPrefix(q, `"`), `"`)
}
