package server

import (
	"net/http"
	"testing"
	"time"

	"cardroom/protocol"
	"cardroom/table"
)

// TestOnline: GET /api/online counts each connected player once (two
// sockets of one player are one), leaves out a player with a session but
// no socket, sorts by name, and forgets a player whose socket closed once
// the cached answer is older than onlineEvery.
func TestOnline(t *testing.T) {
	ts := startServer(t, t.TempDir(), table.Config{})
	zoe, anna, idle := newSession(t, ts.url, "zoe"), newSession(t, ts.url, "Anna"), newSession(t, ts.url, "idle")
	_ = idle // a session without a socket is not online
	z1 := dial(t, ts.url, zoe)
	dial(t, ts.url, zoe)
	a := dial(t, ts.url, anna)

	get := func() protocol.Online {
		t.Helper()
		var o protocol.Online
		if code := httpJSON(t, "GET", ts.url+"/api/online", "", nil, &o); code != http.StatusOK {
			t.Fatalf("GET /api/online: %d", code)
		}
		return o
	}
	o := get()
	if o.Count != 2 || len(o.Players) != 2 || o.Players[0].Name != "Anna" || o.Players[0].Player != anna.Player || o.Players[1].Player != zoe.Player {
		t.Fatalf("online = %+v; want Anna then zoe, 2 in all", o)
	}
	// zoe closes one of two sockets: still online. Then Anna goes.
	z1.close()
	time.Sleep(onlineEvery + 100*time.Millisecond)
	if o := get(); o.Count != 2 {
		t.Errorf("after one of zoe's two sockets closed: %+v; want both still online", o)
	}
	a.close()
	time.Sleep(onlineEvery + 100*time.Millisecond)
	if o := get(); o.Count != 1 || len(o.Players) != 1 || o.Players[0].Player != zoe.Player {
		t.Errorf("after Anna's socket closed: %+v; want only zoe", o)
	}
}

// TestOnlineBounded: the list names at most MaxOnlineListed players while
// the count says how many there are.
func TestOnlineBounded(t *testing.T) {
	ts := startServer(t, t.TempDir(), table.Config{})
	n := protocol.MaxOnlineListed + 3
	for i := 0; i < n; i++ {
		dial(t, ts.url, newSession(t, ts.url, "p"+string(rune('a'+i%26))+string(rune('a'+i/26))))
	}
	deadline := time.Now().Add(5 * time.Second)
	var o protocol.Online
	for time.Now().Before(deadline) {
		o = protocol.Online{}
		httpJSON(t, "GET", ts.url+"/api/online", "", nil, &o)
		if o.Count == n {
			break
		}
		time.Sleep(onlineEvery / 4)
	}
	if o.Count != n || len(o.Players) != protocol.MaxOnlineListed {
		t.Errorf("count %d, %d listed; want %d counted, %d listed", o.Count, len(o.Players), n, protocol.MaxOnlineListed)
	}
}
