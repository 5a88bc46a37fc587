package server

import (
	"context"
	"runtime"
	"testing"
	"time"

	"cardroom/table"
)

// TestIdleSocketCost: an idle connection holds one goroutine (its reader):
// no writer and no pinger of its own, and no HTTP handler either (the
// socket lives on a fresh goroutine, so the upgrade's deep stack is not
// kept under every idle reader). Pings still reach every socket, from the
// server's one pinger.
func TestIdleSocketCost(t *testing.T) {
	ts := startServerCfg(t, t.TempDir(), Config{PingInterval: 400 * time.Millisecond, Table: table.Config{}})
	sess := newSession(t, ts.url, "idle")
	settle := func() int {
		var n int
		for range 20 {
			time.Sleep(50 * time.Millisecond)
			n = runtime.NumGoroutine()
		}
		return n
	}
	base := settle()
	const n = 40
	pongs := make(chan struct{}, n)
	for range n {
		ws, _, err := rawDial(t, ts.url, sess.Token, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		// The client reads (so that pongs are answered, and the welcome
		// is read) on a goroutine of this test process: one goroutine a
		// socket on this side, counted below.
		go func() {
			for {
				if _, _, err := ws.Read(context.Background()); err != nil {
					return
				}
			}
		}()
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if ws.Ping(ctx) == nil { // the server answers pings too
				pongs <- struct{}{}
			}
		}()
	}
	for range n {
		select {
		case <-pongs:
		case <-time.After(5 * time.Second):
			t.Fatal("a socket got no pong")
		}
	}
	got := settle() - base
	// Per socket: the client's CloseRead reader here, and the server's
	// reader. Anything more per socket is a goroutine the server keeps.
	// (A ping in flight holds a goroutine for a moment, and the race
	// detector slows pongs, hence the margin; the old design held four:
	// the server's reader, writer and pinger and the client's reader.)
	if per := float64(got) / n; per >= 3 {
		t.Errorf("%d idle sockets hold %d goroutines (%.1f each, want 2: one client reader, one server reader)", n, got, per)
	}
	if c := ts.s.connections.Load(); c != n {
		t.Errorf("%d connections, want %d", c, n)
	}
	// The server's pinger keeps them alive: after several ping intervals
	// every socket is still open.
	time.Sleep(2 * time.Second)
	if c := ts.s.connections.Load(); c != n {
		t.Errorf("after 5 ping intervals %d connections, want %d", c, n)
	}
}
