package server

import (
	"context"
	"net"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"cardroom/protocol"
	"cardroom/store"
	"cardroom/table"
)

// The seat index lists a player's unfinished tables, each once, in the
// order they were joined; a finished or stopped table leaves it, and a
// player with no table left has no entry.
func TestSeatIndex(t *testing.T) {
	ts := startServer(t, t.TempDir(), table.Config{})
	s := ts.s
	sum := func(id string, status protocol.TableStatus, players ...string) *table.Summary {
		x := &table.Summary{ID: id, Status: status}
		for _, p := range players {
			x.Seats = append(x.Seats, protocol.SeatInfo{Player: p})
		}
		return x
	}
	s.indexSeats(sum("t1", store.StatusPlaying, "ann", "bob", ""))
	s.indexSeats(sum("t2", store.StatusPlaying, "ann", "cid"))
	s.indexSeats(sum("t1", store.StatusPlaying, "ann", "bob")) // a change: nothing new
	idx := func(p string) []string {
		s.mu.Lock()
		defer s.mu.Unlock()
		return slices.Clone(s.seatIndex[p])
	}
	if got := idx("ann"); !slices.Equal(got, []string{"t1", "t2"}) {
		t.Errorf("ann's tables %v, want [t1 t2]", got)
	}
	s.indexSeats(sum("t1", store.StatusFinished, "ann", "bob"))
	if got := idx("ann"); !slices.Equal(got, []string{"t2"}) {
		t.Errorf("after t1 finished, ann's tables %v, want [t2]", got)
	}
	if got := idx("bob"); got != nil {
		t.Errorf("after t1 finished, bob's tables %v, want none", got)
	}
	s.tableStopped("t2", 0)
	s.mu.Lock()
	left, owned := len(s.seatIndex), len(s.seatsOf)
	s.mu.Unlock()
	if left != 0 || owned != 0 {
		t.Errorf("after every table stopped the index holds %d players and %d tables", left, owned)
	}
}

// A Shutdown that runs before Serve (a program stopped as it starts)
// leaves Serve nothing to do: it returns at once instead of serving
// forever with no way left to stop it.
func TestShutdownBeforeServe(t *testing.T) {
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := New(Config{Store: st, Log: quietLog()})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve(l) }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve after Shutdown: %v", err)
		}
	case <-time.After(10 * time.Second):
		l.Close()
		t.Fatal("Serve after Shutdown is still serving")
	}
	if c, err := net.Dial("tcp", l.Addr().String()); err == nil {
		c.Close()
		t.Error("the listener still accepts connections")
	}
}
