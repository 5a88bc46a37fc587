package table

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"cardroom/game"
	"cardroom/record"
	"cardroom/store"
)

// TestStandInMarks: the table remembers the step of every move a bot made
// for a player, and by whom (a clock that ran out: timeout), for the
// post-game analysis; the player's own moves and the bot seats' are not
// marked, and the copy it returns is the caller's.
func TestStandInMarks(t *testing.T) {
	needPapayoo(t)
	synctest.Test(t, func(t *testing.T) {
		meta := newMeta("t_marks", botSeats("alice", 4), 5000)
		meta.BotLevel = "random"
		tb, err := Create(context.Background(), Config{Store: store.NewMemory(), Grace: time.Hour}, meta)
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Stop()
		tb.Subscribe(context.Background(), &fakeSub{player: "alice"})
		synctest.Wait()
		if m, since := tb.StandIns(); len(m) != 0 || since != 0 {
			t.Fatalf("marks %v since %d before any move of a new game", m, since)
		}
		time.Sleep(5*time.Second + 100*time.Millisecond) // seat 0's clock runs out
		synctest.Wait()
		var seat0 []int // the 1-based steps of seat 0's moves
		var steps int
		tb.do(context.Background(), func() {
			steps = tb.log.len()
			for i, e := range tb.log.entries() {
				if !e.Chance && !e.Comment && e.Seat == 0 {
					seat0 = append(seat0, i+1)
				}
			}
		})
		if len(seat0) == 0 || steps <= len(seat0) {
			t.Fatalf("seat 0 made %d moves of %d steps: want its pass and the bots' moves", len(seat0), steps)
		}
		m, _ := tb.StandIns()
		if len(m) != 1 || m[seat0[0]] != game.ByTimeout {
			t.Errorf("marks %v, want only step %d (seat 0's pass) as %q", m, seat0[0], game.ByTimeout)
		}
		m[seat0[0]] = game.ByAway
		if again, _ := tb.StandIns(); again[seat0[0]] != game.ByTimeout {
			t.Error("changing the returned marks changed the table's")
		}

		// A restored table (a restart) knows nothing of the steps made
		// before it ran.
		var events []record.Entry
		var restored store.Table
		tb.do(context.Background(), func() { events, restored = tb.log.entries(), tb.snapshot() })
		tb2, err := Restore(Config{Store: store.NewMemory(), Grace: time.Hour}, restored, events)
		if err != nil {
			t.Fatal(err)
		}
		defer tb2.Stop()
		if m, since := tb2.StandIns(); len(m) != 0 || since != len(events) {
			t.Errorf("a restored table: marks %v since %d, want none since %d", m, since, len(events))
		}
	})
}
