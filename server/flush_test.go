package server

import (
	"encoding/json"
	"testing"
	"time"

	"cardroom/table"
)

// TestMoveOneWrite: the messages of one move to one connection (the
// mover's ack and the state of each seat it holds) leave in one write
// (table.Queuer: the table queues them and flushes the connection when
// the move is handled), in the order the table sent them: the ack, then
// the states of the new step.
func TestMoveOneWrite(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServer(t, t.TempDir(), table.Config{})
	c := dial(t, ts.url, newSession(t, ts.url, "hot"))
	id := seatAll(t, c)
	last := c.play(id, 1, atLeast(8)) // past the pass: one seat acts at a time
	for move := range 12 {
		// Settle: nothing else is on its way to the socket.
		time.Sleep(20 * time.Millisecond)
		before := ts.s.wsWrites.Load()
		seq, _ := oneMore(t, c, id, last) // reads up to the ack
		for range 4 {
			var s state
			if err := json.Unmarshal(c.nextRaw(5*time.Second), &s); err != nil || s.Type != "state" {
				t.Fatalf("move %d: %+v (%v) after the ack, want the states", move, s, err)
			}
			if s.Seq != seq {
				t.Fatalf("move %d: a state of step %d after the ack of %d", move, s.Seq, seq)
			}
			last[s.Seat] = s
		}
		// The count follows the write, which the client may have read
		// before: wait for it, then for any late second write.
		for deadline := time.Now().Add(time.Second); ts.s.wsWrites.Load() == before && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(20 * time.Millisecond)
		if got := ts.s.wsWrites.Load() - before; got != 1 {
			t.Fatalf("move %d: its ack and 4 states took %d writes, want 1", move, got)
		}
	}
	// Each write took every frame at once, so the connection held none of
	// the table's state messages and the table reused their memory
	// (table.Queuer's Flush).
	if ts.s.metrics.MsgsReused.Load() == 0 {
		t.Error("no state message's memory was reused")
	}
}
