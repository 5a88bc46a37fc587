package server

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"cardroom/store"
	"cardroom/table"
)

// driver plays every seat of a hot-seat table one move at a time and
// remembers which moves were acknowledged.
type driver struct {
	t      *testing.T
	c      *client
	id     string
	latest map[int]state
	acked  []string // "seat move" of every acknowledged move, in order
	n      int
	seq    int // the last acknowledged seq
}

// caughtUp reports whether every seat's state shows the last acknowledged move.
func (d *driver) caughtUp() bool {
	if len(d.latest) < 4 {
		return false
	}
	for _, s := range d.latest {
		if s.Seq < d.seq {
			return false
		}
	}
	return true
}

// step sends one legal move and waits for its answer: the error code, or
// "" for an ack.
func (d *driver) step() string {
	d.t.Helper()
	for {
		maxSeq := -1
		for _, s := range d.latest {
			maxSeq = max(maxSeq, s.Seq)
		}
		for seat, s := range d.latest {
			if !d.caughtUp() {
				break
			}
			if s.Seq == maxSeq && len(s.Legal) > 0 {
				d.n++
				id := fmt.Sprint(d.n)
				d.c.send(map[string]any{"type": "move", "table": d.id, "seat": seat, "move": s.Legal[0], "id": id})
				for {
					b := d.c.nextRaw(30 * time.Second)
					var m struct {
						Type string          `json:"type"`
						ID   json.RawMessage `json:"id"`
						Code string          `json:"code"`
					}
					json.Unmarshal(b, &m)
					var ack struct {
						Seq int `json:"seq"`
					}
					json.Unmarshal(b, &ack)
					switch {
					case m.Type == "state":
						var st state
						json.Unmarshal(b, &st)
						if st.Table == d.id && st.Seq >= d.latest[st.Seat].Seq {
							d.latest[st.Seat] = st
						}
					case string(m.ID) == `"`+id+`"` && m.Type == "ack":
						d.acked = append(d.acked, fmt.Sprintf("%d %s", seat, s.Legal[0]))
						d.seq = ack.Seq
						return ""
					case string(m.ID) == `"`+id+`"` && m.Type == "error":
						return m.Code
					}
				}
			}
		}
		// Nobody can move yet: wait for a state.
		b := d.c.nextRaw(30 * time.Second)
		var st state
		if json.Unmarshal(b, &st) == nil && st.Type == "state" && st.Table == d.id {
			d.latest[st.Seat] = st
		}
	}
}

// TestStorageStallRecovers: the database is locked by another process for
// a while (as a backup tool or an operator's shell would), longer than the
// store's busy timeout. Moves made meanwhile are refused with unavailable
// and are not in the log; once the lock is released the table moves again;
// and the log holds exactly the acknowledged moves — none both refused
// and committed, none acknowledged and lost — after a restart too.
func TestStorageStallRecovers(t *testing.T) {
	needGame(t, "papayoo")
	dir := t.TempDir()
	path := filepath.Join(dir, "cardroom.db")
	sq, err := store.OpenSQLiteWith(path, store.SQLiteOptions{BusyTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ts := startServerCfg(t, dir, Config{Store: sq, Rate: 10000, Burst: 10000,
		Table: table.Config{BotDelay: time.Hour, StoreTimeout: 2 * time.Second}})
	alice := newSession(t, ts.url, "alice")
	c := dial(t, ts.url, alice)
	id := seatAll(t, c)
	c.send(map[string]any{"type": "watch", "table": id})
	d := &driver{t: t, c: c, id: id, latest: map[int]state{}}
	for len(d.acked) < 6 {
		if code := d.step(); code != "" {
			t.Fatalf("move before the stall refused: %s", code)
		}
	}
	// Another process takes the write lock and holds it.
	lock, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	conn, err := lock.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	refused := 0
	for range 4 {
		code := d.step()
		switch code {
		case "":
			t.Error("a move was acknowledged while the database was locked")
		case "unavailable":
			refused++
		default:
			t.Errorf("a move during the stall was refused with %q, want unavailable", code)
		}
	}
	if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	for range 6 {
		if code := d.step(); code != "" {
			t.Fatalf("move after the stall refused: %s (the table is wedged)", code)
		}
	}
	check := func(st store.Store) {
		t.Helper()
		ev, err := st.Events(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		var moves []string
		for _, e := range ev {
			if !e.Chance {
				moves = append(moves, fmt.Sprintf("%d %s", e.Seat, e.Text))
			}
		}
		if fmt.Sprint(moves) != fmt.Sprint(d.acked) {
			t.Fatalf("the log's moves differ from the acknowledged ones:\nlog   %v\nacked %v", moves, d.acked)
		}
	}
	check(sq)
	ts.stop()
	sq2, err := store.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer sq2.Close()
	check(sq2)
	if refused == 0 {
		t.Error("no move was refused: the lock did not stall the store")
	}
}
