package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"cardroom/store"
)

func init() {
	register("backup", "copy the room's database to a new file while the room runs (consistent, integrity-checked)", runBackup)
}

// backupResult is what -json prints.
type backupResult struct {
	Database   string `json:"database"`
	Backup     string `json:"backup"`
	Bytes      int64  `json:"bytes"`
	Unfinished int    `json:"unfinished"`
}

// runBackup is `cardroom backup DEST`: it opens the database read-only
// from its own process (the server keeps running and writing), copies one
// consistent snapshot to DEST with VACUUM INTO and checks the copy
// (store.Backup). It refuses a DEST that exists. docs/operating.md says
// how to restore. Exit 0: the backup is at DEST; 1: it failed and nothing
// is at DEST; 2: usage.
func runBackup(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", defaultDataDir(), "data directory holding cardroom.db (env CARDROOM_DATA)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 || pos[0] == "" {
		fmt.Fprintln(stderr, "usage: cardroom backup [--data DIR] DEST")
		return 2
	}
	dest := pos[0]
	if sqliteOnly(fs, "backup", stderr) {
		return 1
	}
	src := filepath.Join(*data, "cardroom.db")
	if _, err := os.Stat(src); err != nil {
		fmt.Fprintf(stderr, "backup: no database at %s: %v\n", src, err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	info, err := store.BackupFile(ctx, src, dest)
	if err != nil {
		fmt.Fprintf(stderr, "backup: %v\n", err)
		return 1
	}
	if *asJSON {
		writeJSONTo(stdout, backupResult{Database: src, Backup: info.Path, Bytes: info.Bytes, Unfinished: info.Unfinished})
		return 0
	}
	fmt.Fprintf(stdout, "backed up %s to %s (%d bytes, %d unfinished tables); integrity: ok\n", src, info.Path, info.Bytes, info.Unfinished)
	return 0
}
