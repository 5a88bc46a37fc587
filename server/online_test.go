package server

import (
	"net/http"
	"slices"
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

// TestOnlineMarksAccounts: who is online says which players hold an
// account (as tables mark their seats): Anna, whose first socket opened
// while she was still a guest and whose second after her claim, is
// marked; zoe, a guest, is not; Robo, a bot account, is marked as one.
func TestOnlineMarksAccounts(t *testing.T) {
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, HTTPRate: -1, SessionsPerIPPerHour: -1, Accounts: fastHashes})
	d := newDevice(t, ts.url)
	g := d.guest("Anna")
	anna := session{Token: g.Token, Player: g.Player, Name: "Anna"}
	dial(t, ts.url, anna)
	d.must("POST", "/api/account", protocol.ClaimReq{Password: "correct horse battery"}, nil)
	dial(t, ts.url, anna)
	zoe := newSession(t, ts.url, "zoe")
	dial(t, ts.url, zoe)
	_, tok := makeBotAccount(t, ts.url, "Robo")
	dial(t, ts.url, session{Token: tok.Token, Player: tok.Player, Name: "Robo"})
	deadline := time.Now().Add(5 * time.Second)
	var o protocol.Online
	for time.Now().Before(deadline) {
		o = protocol.Online{}
		httpJSON(t, "GET", ts.url+"/api/online", "", nil, &o)
		if o.Count == 3 {
			break
		}
		time.Sleep(onlineEvery / 4)
	}
	want := []protocol.OnlinePlayer{ // sorted by name
		{Player: anna.Player, Name: "Anna", Account: true},
		{Player: tok.Player, Name: "Robo", Account: true, BotAccount: true},
		{Player: zoe.Player, Name: "zoe"},
	}
	if !slices.Equal(o.Players, want) {
		t.Errorf("online = %+v; want %+v", o.Players, want)
	}
}
