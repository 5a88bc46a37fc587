package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cardroom/cputime"
	"cardroom/record"
)

// BenchmarkAppendRoom is the room's load on the store, as issue 14 states
// it: tables (1,000 and 4,000), each a goroutine of its own that appends
// one entry about once a second (intervals drawn uniformly from 0.5 to
// 1.5 s, the first at a random phase), so appends arrive one by one from
// many goroutines and no two of a batch come from the same table. Each
// table already holds roomHistory entries (a game some way in) among the
// other tables' logs, as in a room whose events table is far larger than
// SQLite's page cache. b.N is the number of appends: run it with
// -benchtime Nx, N a few times the number of tables (each table appends
// about once a second, so N = 5 × tables runs about 5 s).
//
// cpu-µs/append is the process's CPU (user and system, from getrusage)
// over the paced run, divided by the acknowledged appends: the writer,
// the checkpointer and the tables' goroutines. The "memory" cases run the
// same tables against the in-memory store: their figure is the pacing's
// own cost (goroutines waking from their timers), to subtract; it depends
// on the machine's load (an idle processor costs more to wake), so compare
// runs made close together. "sqlite" is the default room (the adaptive
// commit hold, see hold.go), "sqlite-at-once" commits every batch at once
// (CommitWindow < 0). entries/commit is the group commit's batching,
// p50-µs and p99-µs the latency of Append as a table sees it.
func BenchmarkAppendRoom(b *testing.B) {
	for _, tables := range []int{1000, 4000} {
		for _, kind := range []string{"sqlite", "sqlite-at-once", "memory"} {
			b.Run(fmt.Sprintf("tables%d/%s", tables, kind), func(b *testing.B) {
				ids := roomIDs(tables)
				if kind == "memory" {
					m := NewMemory()
					for _, id := range ids {
						m.events[id] = make([]record.Entry, roomHistory, roomHistory+b.N/tables+16)
					}
					runRoom(b, m, nil, ids)
					return
				}
				o := SQLiteOptions{} // the default room: the adaptive commit hold
				if kind == "sqlite-at-once" {
					o.CommitWindow = -1 // every batch committed at once
				}
				sq, err := OpenSQLiteWith(filepath.Join(b.TempDir(), "room.db"), o)
				if err != nil {
					b.Fatal(err)
				}
				defer sq.Close()
				if err := fillRoom(sq, ids); err != nil {
					b.Fatal(err)
				}
				runRoom(b, sq, sq, ids)
			})
		}
	}
}

// roomHistory is how many entries each table of BenchmarkAppendRoom holds
// before the paced run.
const roomHistory = 100

// roomIDs are table ids as the server makes them (random), so the tables'
// logs are interleaved in key order.
func roomIDs(n int) []string {
	r := rand.New(rand.NewPCG(1, 2))
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("t_%012x", r.Uint64()&(1<<48-1))
	}
	return ids
}

// fillRoom gives every table its history in one transaction and
// checkpoints it into the database file.
func fillRoom(s *SQLite, ids []string) error {
	tx, err := s.w.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	ins, err := tx.Prepare(insertEvent)
	if err != nil {
		return err
	}
	defer ins.Close()
	for _, id := range ids {
		for seq := range roomHistory {
			if _, err := ins.Exec(id, seq, seq%4, 0, "play 10S"); err != nil {
				return err
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	_, _, _, err = s.checkpoint("TRUNCATE")
	return err
}

// runRoom runs the paced tables until b.N appends are acknowledged and
// reports the CPU, the batching and the latency.
func runRoom(b *testing.B, st Store, sq *SQLite, ids []string) {
	var tickets atomic.Int64
	lat := make([][]time.Duration, len(ids))
	var c0, e0 int64
	if sq != nil {
		c0, e0 = sq.CommitStats()
	}
	var wg sync.WaitGroup
	cpu0 := cputime.Process()
	b.ResetTimer()
	for t, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(t), 3))
			time.Sleep(time.Duration(r.Int64N(int64(time.Second))))
			for seq := roomHistory; tickets.Add(1) <= int64(b.N); seq++ {
				start := time.Now()
				if err := st.Append(context.Background(), id, seq, record.Entry{Seat: 1, Text: "play 10S"}); err != nil {
					b.Error(err)
					return
				}
				lat[t] = append(lat[t], time.Since(start))
				time.Sleep(time.Second/2 + time.Duration(r.Int64N(int64(time.Second))))
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64((cputime.Process()-cpu0).Microseconds())/float64(b.N), "cpu-µs/append")
	if sq != nil {
		c1, e1 := sq.CommitStats()
		b.ReportMetric(float64(e1-e0)/float64(max(c1-c0, 1)), "entries/commit")
	}
	all := slices.Concat(lat...)
	slices.Sort(all)
	if len(all) > 0 {
		b.ReportMetric(float64(all[len(all)/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(all[len(all)*99/100].Microseconds()), "p99-µs")
	}
}
