package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"cardroom/record"
	"cardroom/store"
	"cardroom/table"
)

func init() {
	register("doctor", "check the room's database (read-only): integrity, and whether each unfinished table's log replays", runDoctor)
}

// doctorTable is what the doctor found about one table.
type doctorTable struct {
	ID      string       `json:"id"`
	Game    string       `json:"game,omitempty"`
	Status  store.Status `json:"status,omitempty"`
	Events  int          `json:"events"`          // entries read (0 when the log is unreadable)
	Replays bool         `json:"replays"`         // the log reads whole and the engine accepts every entry
	Error   string       `json:"error,omitempty"` // why not
}

// doctorReport is the whole check (-json prints it).
type doctorReport struct {
	Database  string        `json:"database"`
	Integrity []string      `json:"integrity"` // PRAGMA integrity_check's findings; empty when ok
	Tables    []doctorTable `json:"tables"`    // the unfinished tables
	Damaged   []string      `json:"damaged"`   // ids of the tables that would not resume
	Healthy   bool          `json:"healthy"`
}

// doctorDetail is -table ID's answer.
type doctorDetail struct {
	doctorTable
	Row    *doctorRow    `json:"row,omitempty"`
	Seats  []store.Seat  `json:"seats,omitempty"`
	Record string        `json:"record,omitempty"` // the row and log as a game record
	Log    []doctorEvent `json:"log,omitempty"`
}

type doctorRow struct {
	Options  string `json:"options"`
	Private  bool   `json:"private"`
	Invite   string `json:"invite,omitempty"`
	ClockMS  int    `json:"clock_ms"`
	BotLevel string `json:"bot_level"`
	Owner    string `json:"owner"`
	Seed     uint64 `json:"seed"`
	Created  string `json:"created"`
	Result   string `json:"result"`
	Finished string `json:"finished,omitempty"`
}

type doctorEvent struct {
	Seq    int    `json:"seq"`
	Chance bool   `json:"chance,omitempty"`
	Seat   int    `json:"seat"`
	Text   string `json:"text"`
}

// runDoctor is `cardroom doctor`: it opens the database read-only (so it
// is safe on a running room, and changes nothing on a damaged one), runs
// SQLite's integrity check, and loads every unfinished table the way the
// server does on start, saying which ones would be quarantined and why.
// Exit 0: healthy; 1: something is damaged (or the database cannot be
// opened); 2: usage.
func runDoctor(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", defaultDataDir(), "data directory holding cardroom.db (env CARDROOM_DATA)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	tableID := fs.String("table", "", "show this table's row, seats and log (as a record) instead")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "doctor: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if sqliteOnly(fs, "doctor", stderr) {
		return 1
	}
	path := filepath.Join(*data, "cardroom.db")
	if _, err := os.Stat(path); err != nil {
		fmt.Fprintf(stderr, "doctor: no database at %s: %v\n", path, err)
		return 1
	}
	st, err := store.OpenSQLiteReadOnly(path)
	if err != nil {
		fmt.Fprintf(stderr, "doctor: %v\n", err)
		return 1
	}
	defer st.Close()
	ctx := context.Background()
	if *tableID != "" {
		return doctorShow(ctx, st, *tableID, *asJSON, stdout, stderr)
	}

	rep := doctorReport{Database: path, Integrity: []string{}, Tables: []doctorTable{}, Damaged: []string{}}
	found, err := st.IntegrityCheck(ctx)
	if err != nil {
		found = append(found, "integrity_check failed: "+err.Error())
	}
	rep.Integrity = append(rep.Integrity, found...)
	ids, err := st.UnfinishedIDs(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "doctor: listing the unfinished tables: %v\n", err)
		return 1
	}
	for _, id := range ids {
		dt, _, _, _ := checkTable(ctx, st, id)
		rep.Tables = append(rep.Tables, dt)
		if !dt.Replays {
			rep.Damaged = append(rep.Damaged, id)
		}
	}
	rep.Healthy = len(rep.Integrity) == 0 && len(rep.Damaged) == 0
	if *asJSON {
		writeJSONTo(stdout, rep)
	} else {
		fmt.Fprintf(stdout, "database %s\n", path)
		if len(rep.Integrity) == 0 {
			fmt.Fprintln(stdout, "integrity: ok")
		} else {
			fmt.Fprintf(stdout, "integrity: %d problem(s)\n", len(rep.Integrity))
			for _, l := range rep.Integrity {
				fmt.Fprintf(stdout, "  %s\n", l)
			}
		}
		fmt.Fprintf(stdout, "unfinished tables: %d\n", len(rep.Tables))
		for _, t := range rep.Tables {
			state := "replays"
			if !t.Replays {
				state = "DAMAGED: " + t.Error
			}
			fmt.Fprintf(stdout, "  %-14s %-10s %-8s %5d events  %s\n", t.ID, t.Game, t.Status, t.Events, state)
		}
		if rep.Healthy {
			fmt.Fprintln(stdout, "healthy")
		} else if len(rep.Damaged) > 0 {
			fmt.Fprintf(stdout, "damaged: %d table(s) would be quarantined: %s\n", len(rep.Damaged), strings.Join(rep.Damaged, ", "))
		} else {
			fmt.Fprintln(stdout, "damaged: the database file (see integrity)")
		}
	}
	if !rep.Healthy {
		return 1
	}
	return 0
}

// checkTable loads one table as the server would (row, then log, then a
// replay through its engine) and reports the first thing that fails; it
// also returns what it could read, and the row's error.
func checkTable(ctx context.Context, st store.Store, id string) (doctorTable, *store.Table, []record.Entry, error) {
	dt := doctorTable{ID: id}
	meta, err := st.Table(ctx, id)
	if err != nil {
		dt.Error = "row: " + err.Error()
		return dt, nil, nil, err
	}
	dt.Game, dt.Status = meta.Game, meta.Status
	events, err := st.Events(ctx, id)
	if err != nil {
		dt.Error = "log: " + err.Error()
		return dt, &meta, nil, nil
	}
	dt.Events = len(events)
	if err := replayLog(meta, events); err != nil {
		dt.Error = "replay: " + err.Error()
		return dt, &meta, events, nil
	}
	dt.Replays = true
	return dt, &meta, events, nil
}

// replayLog judges a table's log and seat rows the way a restart would
// (table.Verify), without starting the table.
func replayLog(meta store.Table, events []record.Entry) error {
	return table.Verify(meta, events)
}

// doctorShow prints one table: row, seats, then its log as a record.
func doctorShow(ctx context.Context, st store.Store, id string, asJSON bool, stdout, stderr io.Writer) int {
	dt, meta, events, rowErr := checkTable(ctx, st, id)
	if errors.Is(rowErr, store.ErrNotFound) {
		fmt.Fprintf(stderr, "doctor: no table %q\n", id)
		return 1
	}
	d := doctorDetail{doctorTable: dt}
	if meta != nil {
		d.Row = &doctorRow{Options: meta.Options, Private: meta.Private, Invite: meta.Invite, ClockMS: meta.ClockMS, BotLevel: meta.BotLevel,
			Owner: meta.Owner, Seed: meta.Seed, Created: meta.Created.Format("2006-01-02 15:04:05Z"), Result: meta.Result}
		if !meta.Finished.IsZero() {
			d.Row.Finished = meta.Finished.Format("2006-01-02 15:04:05Z")
		}
		d.Seats = meta.Seats
		if events != nil {
			d.Record = table.Record(*meta, events).String()
			for i, e := range events {
				d.Log = append(d.Log, doctorEvent{Seq: i, Chance: e.Chance, Seat: int(e.Seat), Text: e.Text})
			}
		}
	}
	if asJSON {
		writeJSONTo(stdout, d)
	} else {
		fmt.Fprintf(stdout, "table %s\n", id)
		if r := d.Row; r != nil {
			fmt.Fprintf(stdout, "  game %s, status %s, options %q\n", dt.Game, dt.Status, r.Options)
			fmt.Fprintf(stdout, "  owner %q, seed %d, created %s, clock %d ms, bot level %q, private %v\n", r.Owner, r.Seed, r.Created, r.ClockMS, r.BotLevel, r.Private)
			fmt.Fprintf(stdout, "  result %s", r.Result)
			if r.Finished != "" {
				fmt.Fprintf(stdout, ", finished %s", r.Finished)
			}
			fmt.Fprintln(stdout)
			fmt.Fprintln(stdout, "seats")
			for i, s := range d.Seats {
				switch {
				case s.Bot != "":
					fmt.Fprintf(stdout, "  %d  %s (bot %s)\n", i, s.Name, s.Bot)
				case s.Player != "":
					fmt.Fprintf(stdout, "  %d  %s (player %s)\n", i, s.Name, s.Player)
				default:
					fmt.Fprintf(stdout, "  %d  (empty)\n", i)
				}
			}
		}
		if dt.Replays {
			fmt.Fprintf(stdout, "log: %d events, replays\n\n", dt.Events)
		} else {
			fmt.Fprintf(stdout, "log: DAMAGED: %s\n\n", dt.Error)
		}
		fmt.Fprint(stdout, d.Record)
	}
	if !dt.Replays {
		return 1
	}
	return 0
}

func writeJSONTo(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}
