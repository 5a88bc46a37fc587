package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"cardroom/cputime"
	"cardroom/game"
	"cardroom/record"
)

func stores(t testing.TB) map[string]Store {
	sq, err := OpenSQLite(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sq.Close() })
	m := map[string]Store{"sqlite": sq, "memory": NewMemory()}
	if p := pgStore(t); p != nil {
		m["postgres"] = p
	}
	return m
}

// TestStoreContract runs the same checks on every implementation.
func TestStoreContract(t *testing.T) {
	for name, st := range stores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			now := time.Now().UTC().Truncate(time.Millisecond)
			s := Session{TokenHash: "h1", Player: "p1", Name: "alice", Created: now, Expires: now.Add(time.Hour)}
			if err := st.CreateSession(ctx, s); err != nil {
				t.Fatal(err)
			}
			got, err := st.Session(ctx, "h1")
			if err != nil || got != s {
				t.Fatalf("session = %+v, %v; want %+v", got, err, s)
			}
			if _, err := st.Session(ctx, "nope"); !errors.Is(err, ErrNotFound) {
				t.Errorf("unknown session: %v", err)
			}
			tb := Table{ID: "t1", Game: "papayoo", Options: "rounds=1", Seed: 1<<63 + 5, Created: now, Status: StatusOpen,
				Seats: []Seat{{Player: "p1", Name: "alice", Account: true}, {Bot: "random", Name: "bot:random"}, {}}}
			if err := st.CreateTable(ctx, tb); err != nil {
				t.Fatal(err)
			}
			for i, e := range []record.Entry{{Chance: true, Seat: game.Spectator, Text: "deal\n0: 1S"}, {Seat: 1, Text: "play 1S"}} {
				if err := st.Append(ctx, "t1", i, e); err != nil {
					t.Fatal(err)
				}
			}
			if err := st.Append(ctx, "t1", 1, record.Entry{Seat: 0, Text: "dup"}); !errors.Is(err, ErrConflict) {
				t.Errorf("duplicate seq: %v, want ErrConflict", err)
			}
			if err := st.Append(ctx, "t1", 3, record.Entry{Seat: 0, Text: "gap"}); !errors.Is(err, ErrConflict) {
				t.Errorf("seq past the end (a gap): %v, want ErrConflict", err)
			}
			ev, err := st.Events(ctx, "t1")
			if err != nil || len(ev) != 2 || ev[0].Text != "deal\n0: 1S" || !ev[0].Chance || ev[1].Seat != 1 {
				t.Errorf("events = %+v, %v", ev, err)
			}
			tb.Status, tb.Result, tb.Finished = StatusFinished, "totals 1 2 3; winners 0", now
			// A guest at the third seat: the seats keep who held an
			// account when they sat down (an account, a bot, a guest).
			tb.Seats = []Seat{tb.Seats[0], tb.Seats[1], {Player: "p2", Name: "bob"}}
			if err := st.UpdateTable(ctx, tb); err != nil {
				t.Fatal(err)
			}
			got2, err := st.Table(ctx, "t1")
			if err != nil || got2.Seed != tb.Seed || got2.Status != StatusFinished || !slices.Equal(got2.Seats, tb.Seats) {
				t.Errorf("table = %+v, %v; want seats %+v", got2, err, tb.Seats)
			}
			if u, _ := st.Unfinished(ctx); len(u) != 0 {
				t.Errorf("unfinished = %v", u)
			}
			if h, _ := st.History(ctx, "p1", 10); len(h) != 1 || h[0].ID != "t1" {
				t.Errorf("history = %v", h)
			}
		})
	}
}

// BenchmarkAppendParallel measures group-committed appends from many tables.
func BenchmarkAppendParallel(b *testing.B) {
	st, err := OpenSQLite(filepath.Join(b.TempDir(), "b.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	appendParallel(b, st)
}

// appendParallel appends from 64 goroutines per core, one table each
// (also the PostgreSQL store's benchmark).
func appendParallel(b *testing.B, st Store) {
	var mu sync.Mutex
	n := 0
	b.SetParallelism(64)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		mu.Lock()
		n++
		id := fmt.Sprintf("t%d", n)
		mu.Unlock()
		seq := 0
		for pb.Next() {
			if err := st.Append(context.Background(), id, seq, record.Entry{Seat: 1, Text: "play 10S"}); err != nil {
				b.Fatal(err)
			}
			seq++
		}
	})
}

// BenchmarkAppendScattered is a busy room's pattern at one move a second a
// table: 1,000 tables appending in turn, each entry its own commit. The
// events are clustered by table ((table_id, seq) is the primary key of a
// WITHOUT ROWID table), so every entry dirties a page of its own table and
// the WAL receives at least one page an entry however many share a commit;
// the "batch" cases give the same entries committed four and sixteen at a
// time (the commit hold is off, so each group is one commit).
// cpu-µs/append is the process's CPU (the writer and the checkpointer),
// the figure docs/server.md's floor uses. BenchmarkAppendRoom
// (room_bench_test.go) is the room's paced load instead.
func BenchmarkAppendScattered(b *testing.B) {
	for _, batch := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("batch%d", batch), func(b *testing.B) {
			st, err := OpenSQLiteWith(filepath.Join(b.TempDir(), "b.db"), SQLiteOptions{CommitWindow: -1})
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			const tables = 1000
			ids := make([]string, tables)
			for i := range ids {
				ids[i] = fmt.Sprintf("t_%010d", i*7919%100000) // not in key order
			}
			seq := make([]int, tables)
			next := 0
			add := func(n int) {
				var wg sync.WaitGroup
				for range n {
					t := next % tables
					next++
					wg.Add(1)
					go func(id string, s int) {
						defer wg.Done()
						if err := st.Append(context.Background(), id, s, record.Entry{Seat: 1, Text: "play 10S"}); err != nil {
							b.Error(err)
						}
					}(ids[t], seq[t])
					seq[t]++
				}
				wg.Wait()
			}
			for range 20 * tables / batch { // every table has a page of its own
				add(batch)
			}
			c0 := cputime.Process()
			b.ResetTimer()
			for i := 0; i < b.N; i += batch {
				add(batch)
			}
			b.StopTimer()
			b.ReportMetric(float64((cputime.Process()-c0).Microseconds())/float64(b.N), "cpu-µs/append")
		})
	}
}

// BenchmarkAppendSerial is one table appending alone: one commit per entry
// (the cost of a commit, where BenchmarkAppendParallel gives the cost of an
// entry in a group commit).
func BenchmarkAppendSerial(b *testing.B) {
	st, err := OpenSQLite(filepath.Join(b.TempDir(), "b.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := st.Append(context.Background(), "t1", i, record.Entry{Seat: 1, Text: "play 10S"}); err != nil {
			b.Fatal(err)
		}
	}
}
