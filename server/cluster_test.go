//go:build unix

package server

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"cardroom/bot"
	"cardroom/cluster"
	"cardroom/cluster/clustertest"
	"cardroom/games"
	"cardroom/protocol"
	"cardroom/record"
	"cardroom/store"
	"cardroom/store/pgtest"
	"cardroom/table"
)

// clusterNode starts one node of a test cluster on the shared PostgreSQL
// database u and the bus at natsURL.
func startClusterNode(t testing.TB, name, u, natsURL string, seeds func() uint64) *testServer {
	return startClusterNodeWith(t, name, u, natsURL, seeds, nil)
}

// startClusterNodeWith is startClusterNode with the node's Config changed
// by set first (if not nil).
func startClusterNodeWith(t testing.TB, name, u, natsURL string, seeds func() uint64, set func(*Config)) *testServer {
	t.Helper()
	st, err := store.OpenPostgres(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	// Loopback is a trusted proxy, so a test can stand for players at other
	// addresses (httpJSONFrom).
	loopback, _ := ParseTrustedProxies("127.0.0.1/32,::1/128")
	cfg := Config{Store: st, Rate: 10000, Burst: 10000, Seeds: seeds, TrustedProxies: loopback,
		Cluster: &ClusterConfig{NATS: natsURL, Node: name, LeaseTTL: 2 * time.Second, Heartbeat: 200 * time.Millisecond}}
	if set != nil {
		set(&cfg)
	}
	return startServerCfg(t, t.TempDir(), cfg)
}

// TestClusterGamesAcrossNodes plays a whole game of every game on a
// cluster of three nodes (issue 15): alice creates the table on node 1,
// which owns it; bob plays from node 2 and carol watches from node 3, so
// their moves and their views cross the bus. The record is read from node
// 2, the lobby of node 3 lists the table while it is open, and every
// message each client received passes the leak sweep: a seat's cards
// reach only its own player's connection, through whichever node.
func TestClusterGamesAcrossNodes(t *testing.T) {
	u := pgtest.Require(t)
	natsURL := clustertest.StartNATS(t)
	seed := uint64(fixedSeed)
	seeds := func() uint64 { return seed }
	n1 := startClusterNode(t, "n1", u, natsURL, seeds)
	n2 := startClusterNode(t, "n2", u, natsURL, seeds)
	n3 := startClusterNode(t, "n3", u, natsURL, seeds)
	for _, name := range games.Names() {
		t.Run(name, func(t *testing.T) {
			needGame(t, name)
			alice := dial(t, n1.url, newSession(t, n1.url, "alice"))
			bob := dial(t, n2.url, newSession(t, n2.url, "bob"))
			carol := dial(t, n3.url, newSession(t, n3.url, "carol"))
			level := "random"
			if slices.Contains(bot.Levels(), "easy") {
				level = "easy"
			}
			id := alice.createTable(map[string]any{"game": name, "options": quickOptions(name), "seat": 0,
				"bots": map[string]string{"2": level, "3": level}})
			alice.expect("state", nil)
			// Node 3's lobby hears of the table from its owner.
			deadline := time.Now().Add(5 * time.Second)
			for {
				var lobby struct{ Tables []table.Summary }
				httpJSON(t, "GET", n3.url+"/api/tables", "", nil, &lobby)
				if slices.ContainsFunc(lobby.Tables, func(s table.Summary) bool { return s.ID == id }) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("node 3's lobby never listed table %s: %+v", id, lobby.Tables)
				}
				time.Sleep(50 * time.Millisecond)
			}
			carol.send(map[string]any{"type": "watch", "table": id})
			carol.expect("state", nil)
			bob.send(map[string]any{"type": "join", "table": id, "seat": 1})
			bob.expect("joined", nil)

			var wg sync.WaitGroup
			finals := make([]map[int]state, 2)
			for i, c := range []*client{alice, bob} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					finals[i] = c.play(id, uint64(i+1), nil)
				}()
			}
			waitOrFail(t, &wg, 120*time.Second)
			if t.Failed() {
				return
			}
			if fin := finals[1][1]; fin.Status != "finished" {
				t.Fatalf("bob's last state (through node 2): status %s", fin.Status)
			}
			var body string
			if code := httpJSON(t, "GET", n2.url+"/api/records/"+id, "", nil, &body); code != 200 {
				t.Fatalf("record from node 2: HTTP %d %s", code, body)
			}
			rec, err := record.ParseString(body)
			if err != nil {
				t.Fatal(err)
			}
			eng, _ := games.Lookup(name)
			views, _ := replayViews(t, eng, rec)
			if checked, _ := sweepClients(t, eng, rec, views, alice, bob, carol); checked < 20 {
				t.Errorf("leak sweep checked only %d state messages", checked)
			}
		})
	}
	// Presence is cluster-wide: dave, connected to node 1 only, is online
	// on node 3; and a logout on node 2 closes his socket on node 1.
	daveSess := newSession(t, n1.url, "dave")
	dave := dial(t, n1.url, daveSess)
	deadline := time.Now().Add(10 * time.Second)
	for {
		var online protocol.Online
		httpJSON(t, "GET", n3.url+"/api/online", "", nil, &online)
		if slices.ContainsFunc(online.Players, func(p protocol.OnlinePlayer) bool { return p.Player == daveSess.Player }) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("node 3's /api/online never listed dave (on node 1): %+v", online)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if code := httpJSON(t, "POST", n2.url+"/api/logout", daveSess.Token, nil, nil); code != 200 && code != 204 {
		t.Fatalf("logout on node 2: HTTP %d", code)
	}
	select {
	case <-dave.done:
	case <-time.After(5 * time.Second):
		t.Error("a logout on node 2 left dave's socket on node 1 open")
	}
	if n := metricInt(t, n2.url, "cardroom_cluster_relayed_commands_total"); n < 10 {
		t.Errorf("node 2 relayed %d commands; bob's moves should have gone through the bus", n)
	}
	if n := metricInt(t, n1.url, "cardroom_cluster_peers"); n != 2 {
		t.Errorf("node 1 hears %d peers, want 2", n)
	}
}

// TestClusterPartitionedNodeStops: the owner of a table is cut from the
// bus (issue 15). It stops serving at once: its sockets are closed, new
// ones refused, and it gives the table up; another node takes the table
// over from the log with the same cards, alice continues there, and the
// log holds every acknowledged move and nothing the cut node wrote after
// it lost the lease (each entry carries its writer's epoch).
func TestClusterPartitionedNodeStops(t *testing.T) {
	needGame(t, "papayoo")
	u := pgtest.Require(t)
	natsURL := clustertest.StartNATS(t)
	px := clustertest.NewProxy(t, natsURL)
	seed := uint64(fixedSeed)
	seeds := func() uint64 { return seed }
	n1 := startClusterNode(t, "n1", u, px.URL(), seeds)
	n2 := startClusterNode(t, "n2", u, natsURL, seeds)
	sess := newSession(t, n1.url, "alice")
	c := dial(t, n1.url, sess)
	id := seatAll(t, c)
	last := c.play(id, 7, atLeast(15))
	ackSeq, mv := oneMore(t, c, id, last)
	before := statesAt(c, ackSeq)

	cutAt := time.Now()
	px.Partition()
	// n1 closes alice's socket and gives the table up.
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the cut node kept alice's socket open")
	}
	deadline := time.Now().Add(10 * time.Second)
	for metricInt(t, n1.url, "cardroom_cluster_tables_owned") != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the cut node still holds the table")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if metricInt(t, n1.url, "cardroom_cluster_connected") != 0 {
		t.Error("the cut node says it is on the bus")
	}
	if code := httpJSON(t, "GET", n1.url+"/ws", "", nil, nil); code != 503 {
		t.Errorf("GET /ws on the cut node: HTTP %d, want 503", code)
	}
	// Alice reconnects to node 2, which takes the table over.
	c2, after := resume(t, n2.url, sess, id)
	t.Logf("the table moved in %v", time.Since(cutAt).Round(time.Millisecond))
	if time.Since(cutAt) > 10*time.Second {
		t.Errorf("the table took %v to move, want < 10 s", time.Since(cutAt))
	}
	for seat := range before {
		if string(before[seat].View) != string(after[seat].View) {
			t.Errorf("seat %d: view on node 2 differs from node 1's:\n%s\n%s", seat, before[seat].View, after[seat].View)
		}
	}
	finishAndCheck(t, c2, n2.url, id, ackSeq, mv)

	// Fencing: every entry after the takeover was written under node 2's
	// epoch, and node 1's entries are all before it.
	db, err := sql.Open("pgx", u) // the driver the store registers
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.QueryContext(context.Background(), `SELECT seq, epoch FROM events WHERE table_id = $1 ORDER BY seq`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var epochs []int64
	for rows.Next() {
		var seq int
		var e int64
		rows.Scan(&seq, &e)
		epochs = append(epochs, e)
	}
	if len(epochs) <= ackSeq || epochs[0] < 1 || epochs[ackSeq-1] != epochs[0] || epochs[len(epochs)-1] <= epochs[0] {
		t.Errorf("epochs of the log: %v; want node 1's (%d) up to the acknowledged move %d, then a larger one", epochs, epochs[0], ackSeq)
	}
	if !slices.IsSorted(epochs) {
		t.Errorf("an older epoch wrote after a newer one: %v", epochs)
	}
}

// TestClusterKill9 kills the owner of two tables with SIGKILL mid-game
// (issue 15): a game alice plays through node 2, and a bots-only game
// that keeps node 1 busy. Node 2's heartbeat watch closes alice's socket;
// she reconnects to node 3, which takes her table over from the log
// within 10 s with the same cards and the acknowledged move; the bots'
// table is taken over by a surviving node and plays on.
func TestClusterKill9(t *testing.T) {
	needGame(t, "papayoo")
	if testing.Short() {
		t.Skip("builds the binary")
	}
	u := pgtest.Require(t)
	natsURL := clustertest.StartNATS(t)
	// The bots move every 30 ms: their game outlasts the test's first
	// part, and node 1 serves two games at once when it dies.
	start := nodeProcs(t, u, natsURL, "-bot-delay", "30ms")
	cmd1, url1 := start("n1")
	_, url2 := start("n2")
	_, url3 := start("n3")

	// The load: a game of bots only on node 1.
	bob := dial(t, url1, newSession(t, url1, "bob"))
	bots := bob.createTable(map[string]any{"game": "papayoo",
		"bots": map[string]string{"0": "easy", "1": "easy", "2": "easy", "3": "easy"}})
	bob.close()

	sess := newSession(t, url1, "alice")
	owner := dial(t, url1, sess)
	id := seatAll(t, owner) // created on node 1: node 1 owns it
	owner.close()
	c, _ := resume(t, url2, sess, id) // alice plays through node 2
	last := c.play(id, 11, atLeast(12))
	ackSeq, mv := oneMore(t, c, id, last)
	before := statesAt(c, ackSeq)
	ctx := context.Background()
	db, err := sql.Open("pgx", u)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	botSeq := func() int {
		var n int
		db.QueryRowContext(ctx, `SELECT count(*) FROM events WHERE table_id = $1`, bots).Scan(&n)
		return n
	}
	if botSeq() == 0 {
		t.Fatal("the bots' table has not started")
	}

	killed := time.Now()
	cmd1.Process.Kill() // SIGKILL, right after the ack
	cmd1.Wait()
	botsAtKill := botSeq()
	var status string
	db.QueryRowContext(ctx, `SELECT status FROM tables WHERE id = $1`, bots).Scan(&status)
	if status != "playing" {
		t.Fatalf("the bots' table is %s when node 1 dies, want playing", status)
	}
	select {
	case <-c.done: // node 2 closed it: node 1 is down
	case <-time.After(10 * time.Second):
		t.Fatal("node 2 kept alice's socket to the dead node's table open")
	}
	c2, after := resume(t, url3, sess, id)
	moved := time.Since(killed)
	t.Logf("alice's table moved in %v", moved.Round(time.Millisecond))
	if moved > 10*time.Second {
		t.Errorf("the table took %v to move after kill -9, want < 10 s", moved)
	}
	for seat := range before {
		if string(before[seat].View) != string(after[seat].View) {
			t.Errorf("seat %d: view after the takeover differs:\n%s\n%s", seat, before[seat].View, after[seat].View)
		}
	}
	finishAndCheck(t, c2, url3, id, ackSeq, mv)

	deadline := time.Now().Add(15 * time.Second)
	for botSeq() <= botsAtKill {
		if time.Now().After(deadline) {
			t.Fatalf("the bots' table did not resume after node 1 died (%d entries)", botsAtKill)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// nodeProcs builds cardroom and returns a function that starts a node of
// a cluster as a process of its own (so that it can be killed with
// SIGKILL or stopped with SIGSTOP), with extra serve flags.
func nodeProcs(t *testing.T, u, natsURL string, extra ...string) func(name string) (*exec.Cmd, string) {
	t.Helper()
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "cardroom")
	if out, err := exec.Command("go", "build", "-o", bin, "cardroom/cmd/cardroom").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return func(name string) (*exec.Cmd, string) {
		args := append([]string{"serve", "-addr", "127.0.0.1:0", "-store", u,
			"-nats", natsURL, "-node", name, "-lease-ttl", "2s", "-grace", "1h", "-trick-pause", "0",
			"-rate", "10000", "-burst", "10000", "-log-level", "error", "-analysis=false"}, extra...)
		cmd := exec.Command(bin, args...)
		stdout, _ := cmd.StdoutPipe()
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Signal(syscall.SIGCONT); cmd.Process.Kill(); cmd.Wait() })
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if _, url, ok := strings.Cut(sc.Text(), "open "); ok {
				go func() {
					for sc.Scan() {
					}
				}()
				return cmd, strings.TrimSuffix(url, "/")
			}
		}
		t.Fatalf("node %s printed no URL", name)
		return nil, ""
	}
}

// epochsOf returns the epoch that wrote each entry of a table's log.
func epochsOf(t *testing.T, db *sql.DB, id string) []int64 {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), `SELECT epoch FROM events WHERE table_id = $1 ORDER BY seq`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var epochs []int64
	for rows.Next() {
		var e int64
		rows.Scan(&e)
		epochs = append(epochs, e)
	}
	return epochs
}

// TestClusterStaleOwnerFenced stops the owner of a bots' game with
// SIGSTOP, as a long pause or a partition would (issue 15): its lease
// expires, another node takes the table over and plays on. When the old
// owner wakes, its timers fire and its renewals run, but it cannot write
// any more: its writes are fenced, it gives the table up, and the log
// holds no entry of its epoch after the new owner's first.
func TestClusterStaleOwnerFenced(t *testing.T) {
	needGame(t, "papayoo")
	if testing.Short() {
		t.Skip("builds the binary")
	}
	u := pgtest.Require(t)
	natsURL := clustertest.StartNATS(t)
	start := nodeProcs(t, u, natsURL, "-bot-delay", "150ms")
	cmd1, url1 := start("n1")
	_, url2 := start("n2")
	bob := dial(t, url1, newSession(t, url1, "bob"))
	id := bob.createTable(map[string]any{"game": "papayoo",
		"bots": map[string]string{"0": "easy", "1": "easy", "2": "easy", "3": "easy"}})
	bob.close()
	db, err := sql.Open("pgx", u)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	waitFor := func(what string, d time.Duration, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(d)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within %v", what, d)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	waitFor("the bots' first moves on node 1", 10*time.Second, func() bool { return len(epochsOf(t, db, id)) >= 3 })
	cmd1.Process.Signal(syscall.SIGSTOP)
	stopped := len(epochsOf(t, db, id))
	old := epochsOf(t, db, id)[0]
	waitFor("node 2 playing the table", 15*time.Second, func() bool {
		e := epochsOf(t, db, id)
		return len(e) > stopped+3 && e[len(e)-1] > old
	})
	cmd1.Process.Signal(syscall.SIGCONT)
	waitFor("node 1 giving the table up", 10*time.Second, func() bool {
		return metricInt(t, url1, "cardroom_cluster_tables_owned") == 0
	})
	if n := metricInt(t, url1, "cardroom_cluster_leases_lost_total"); n < 1 {
		t.Errorf("node 1 lost %d leases, want ≥ 1", n)
	}
	time.Sleep(500 * time.Millisecond) // node 1's overdue bot move, if any, has been refused by now
	e := epochsOf(t, db, id)
	first := slices.IndexFunc(e, func(x int64) bool { return x > old })
	if first < 0 || slices.Contains(e[first:], old) || !slices.IsSorted(e) {
		t.Errorf("epochs of the log %v: node 1's epoch %d wrote after node 2's first entry", e, old)
	}
	if metricInt(t, url2, "cardroom_cluster_tables_owned") != 1 {
		t.Error("node 2 does not hold the table")
	}
	t.Logf("node 1 after waking: fenced writes %d, leases lost %d", metricInt(t, url1, "cardroom_cluster_fenced_total"),
		metricInt(t, url1, "cardroom_cluster_leases_lost_total"))
}

// TestClusterTournamentDeal: a tournament's deal played across two nodes
// of a cluster. Each entrant's table is opened by the node the request
// came to and played over a socket to the other, so its moves cross the
// bus (a table id must be one subject token: a tournament table's id names
// its tournament and deal). The deal's record is held from its own player
// until the other entrant has played it too, on either node, and then
// read from both.
func TestClusterTournamentDeal(t *testing.T) {
	needGame(t, "papayoo")
	u := pgtest.Require(t)
	natsURL := clustertest.StartNATS(t)
	n1 := startClusterNode(t, "n1", u, natsURL, nil)
	n2 := startClusterNode(t, "n2", u, natsURL, nil)
	alice, bob := newSession(t, n1.url, "alice"), newSession(t, n2.url, "bob")
	var created protocol.Tournament
	req := protocol.TournamentCreate{Game: "papayoo", Options: map[string]string{"players": "3"}, Deals: 1, BotLevel: "random", MaxEntrants: 2, DealMinutes: 30}
	if code := httpJSON(t, "POST", n1.url+"/api/tournaments", alice.Token, req, &created); code != 200 {
		t.Fatalf("create on node 1: %d", code)
	}
	// One entry per address holds across the nodes (the store counts the
	// origins in the transaction that inserts): bob, at alice's address,
	// is refused on node 2; from another address he is entered.
	var refused protocol.ErrorBody
	if code := httpJSON(t, "POST", n2.url+"/api/tournaments/"+created.ID+"/join", bob.Token, nil, &refused); code != 409 || refused.Error.Code != protocol.SameAddress {
		t.Fatalf("bob joins on node 2 from alice's address: %d %q, want 409 same_address", code, refused.Error.Code)
	}
	if code := httpJSONFrom(t, "192.0.2.7", "POST", n2.url+"/api/tournaments/"+created.ID+"/join", bob.Token, nil, nil); code != 200 {
		t.Fatalf("bob joins on node 2: %d", code)
	}
	play, first := playTournamentDealVia(t, n1.url, n2.url, alice, created.ID, 0, 1)
	if first == "" {
		t.Fatalf("alice's deal through node 2 never asked her to play")
	}
	for _, n := range []*testServer{n1, n2} {
		var e protocol.ErrorBody
		if code := httpJSON(t, "GET", n.url+"/api/records/"+play.Table, alice.Token, nil, &e); code != 409 || e.Error.Code != protocol.NotFinished {
			t.Errorf("alice's record of the open deal from %s: %d %q, want 409 not_finished", n.url, code, e.Error.Code)
		}
	}
	bobPlay, _ := playTournamentDealVia(t, n2.url, n1.url, bob, created.ID, 0, 2)
	for _, n := range []*testServer{n1, n2} {
		for _, p := range []struct {
			s  session
			id string
		}{{alice, play.Table}, {bob, bobPlay.Table}} {
			var rec string
			if code := httpJSON(t, "GET", n.url+"/api/records/"+p.id, p.s.Token, nil, &rec); code != 200 || !strings.Contains(rec, "[Game \"papayoo\"]") {
				t.Errorf("%s's record from %s once the deal closed: %d", p.s.Name, n.url, code)
			}
		}
	}
}

// TestClusterRelayRestart: a relaying node crashes and is back before its
// peers miss three heartbeats, so it is never reported down. The owner
// still holds the stand-in connection it made for alice's socket there.
// Before, connection numbers started again at 1 in the new process, and
// the new node's first client (here an anonymous spectator) was served as
// that stand-in: alice's seat, her hand and her moves. Now numbers carry
// the process's boot, the new boot in the heartbeats retires the last
// life's stand-ins at once, and the newcomer sees a spectator's view.
func TestClusterRelayRestart(t *testing.T) {
	needGame(t, "papayoo")
	u := pgtest.Require(t)
	natsURL := clustertest.StartNATS(t)
	start := nodeProcs(t, u, natsURL)
	_, url1 := start("n1")
	n2, url2 := start("n2")

	alice := newSession(t, url1, "alice")
	a1 := dial(t, url1, alice)
	id := a1.createTable(map[string]any{"game": "papayoo", "options": map[string]string{"rounds": "1"}, "seat": 0,
		"bots": map[string]string{"1": "random", "2": "random", "3": "random"}})
	a1.close()
	// alice watches through node 2: its first socket.
	a2 := dial(t, url2, alice)
	a2.send(map[string]any{"type": "watch", "table": id})
	a2.expect("state", func(m msg) bool { return m.str("table") == id && m.num("seat") == 0 })
	if n := metricInt(t, url1, "cardroom_cluster_remote_conns"); n != 1 {
		t.Fatalf("node 1 serves %d connections of node 2, want alice's", n)
	}

	n2.Process.Kill() // a crash: no goodbye
	n2.Wait()
	_, url2 = start("n2")
	m := dial(t, url2, session{Name: "mallory"})
	m.send(map[string]any{"type": "watch", "table": id})
	st := m.expect("state", func(mm msg) bool { return mm.str("table") == id })
	if st.num("seat") != -1 {
		t.Fatalf("the restarted node's first client got seat %d's view: %v", st.num("seat"), st)
	}
	// Node 1 hears node 2's new boot within a heartbeat or two and retires
	// alice's stand-in: only mallory's is left.
	deadline := time.Now().Add(5 * time.Second)
	for metricInt(t, url1, "cardroom_cluster_remote_conns") != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("node 1 still serves %d connections of node 2 (alice's old one and mallory's), want 1",
				metricInt(t, url1, "cardroom_cluster_remote_conns"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestClusterStandInReplaced: a command under a relayed connection's name
// (node and number) with another session than the one its stand-in was
// made with is not that connection's: the owner replaces the stand-in, and
// nothing of the old one (alice's seat) reaches the connection's subject
// after that; the newcomer is served as who the command says (here a
// spectator).
func TestClusterStandInReplaced(t *testing.T) {
	needGame(t, "papayoo")
	u := pgtest.Require(t)
	natsURL := clustertest.StartNATS(t)
	n1 := startClusterNode(t, "n1", u, natsURL, nil)
	alice := newSession(t, n1.url, "alice")
	a := dial(t, n1.url, alice)
	id := a.createTable(map[string]any{"game": "papayoo", "options": map[string]string{"rounds": "1"}, "seat": 0,
		"bots": map[string]string{"1": "random", "2": "random", "3": "random"}})

	nc, err := nats.Connect(natsURL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	sub := n1.s.cl.bus.Sub
	frames := make(chan []byte, 1024)
	s, err := nc.Subscribe(sub.Conn("nx", 5), func(m *nats.Msg) {
		fs, _ := cluster.Frames(m.Data)
		for _, f := range fs {
			frames <- f
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Unsubscribe()
	// nx's heartbeats: a node n1 does not hear from is down, and its
	// stand-ins with it.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			nc.Publish(sub.Heartbeat(), cluster.AppendHeartbeat(nil, "nx", 1))
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	send := func(player, token string) {
		cmd := cluster.AppendCommand(nil, cluster.Command{Op: cluster.OpMsg, Node: "nx", Conn: 5, Player: player, Token: token, Name: "x"},
			[]byte(`{"type":"watch","table":"`+id+`"}`))
		if _, err := nc.Request(sub.Table(id), cmd, 5*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	// seat reads the seat of the next state message for the table.
	seat := func() int {
		deadline := time.After(5 * time.Second)
		for {
			select {
			case f := <-frames:
				var m struct {
					Type  string `json:"type"`
					Table string `json:"table"`
					Seat  *int   `json:"seat"`
				}
				if json.Unmarshal(f, &m) == nil && m.Type == "state" && m.Table == id && m.Seat != nil {
					return *m.Seat
				}
			case <-deadline:
				t.Fatal("no state for the relayed connection")
			}
		}
	}
	send(alice.Player, hashToken(alice.Token))
	if got := seat(); got != 0 {
		t.Fatalf("alice's stand-in got seat %d, want 0", got)
	}
	send("", "") // the same name, no session: a spectator
	// Alice's stand-in may have published states of seat 0 (the bots
	// passing) before it was replaced: n1 publishes both stand-ins' frames
	// on one subject from one connection, so those come first, in order.
	// The first state of another seat is the newcomer's; from there on
	// nothing of seat 0 may come (checked below).
	got := seat()
	for got == 0 {
		got = seat()
	}
	if got != -1 {
		t.Fatalf("the newcomer got seat %d, want a spectator's view (-1)", got)
	}
	// Alice's seat moves on (the bots pass, she is asked again) and the
	// old stand-in would be told: nothing of seat 0 may come now.
	st := a.expect("state", func(m msg) bool {
		l, _ := m["legal"].([]any)
		return m.str("table") == id && m.num("seat") == 0 && len(l) > 0
	})
	a.send(map[string]any{"type": "move", "table": id, "move": st["legal"].([]any)[0], "id": "m1"})
	a.expect("ack", func(m msg) bool { return m.str("id") == "m1" })
	quiet := time.After(time.Second)
	for {
		select {
		case f := <-frames:
			var m struct {
				Seat *int `json:"seat"`
			}
			if json.Unmarshal(f, &m) == nil && m.Seat != nil && *m.Seat == 0 {
				t.Fatalf("the replaced stand-in still wrote alice's seat: %.200s", f)
			}
		case <-quiet:
			if n := metricInt(t, n1.url, "cardroom_cluster_remote_conns"); n != 1 {
				t.Errorf("node 1 serves %d stand-ins for nx's connection 5, want 1", n)
			}
			return
		}
	}
}

// TestClusterRelayTimeoutNoRefusal: an owner slow for a little over the
// relay's 2 s request timeout (a GC pause, a starved CPU; here its command
// dispatcher is held) still plays a move it had queued when it wakes. The
// relaying node must not tell the client the move was refused (it was
// told unavailable, then acknowledged: both): it closes the connection
// (1013) as when an owner dies, and the view after the reconnection says
// whether the move was played (here the connection's goodbye reaches the
// owner right behind the command, which may drop it).
func TestClusterRelayTimeoutNoRefusal(t *testing.T) {
	needGame(t, "papayoo")
	u := pgtest.Require(t)
	natsURL := clustertest.StartNATS(t)
	n1 := startClusterNode(t, "n1", u, natsURL, nil)
	n2 := startClusterNode(t, "n2", u, natsURL, nil)
	sess := newSession(t, n1.url, "alice")
	owner := dial(t, n1.url, sess)
	id := seatAll(t, owner) // node 1 owns it; nothing moves unless alice moves
	owner.close()
	c, views := resume(t, n2.url, sess, id) // alice through node 2
	seat, mv, seq := -1, "", 0
	for s, v := range views {
		if len(v.Legal) > 0 && mv == "" {
			seat, mv = s, v.Legal[0]
		}
		seq = max(seq, v.Seq)
	}
	if mv == "" {
		t.Fatal("no legal move")
	}
	cl := n1.s.cl
	cl.mu.Lock() // the owner's dispatcher stalls on its next command
	go func() { time.Sleep(2500 * time.Millisecond); cl.mu.Unlock() }()
	c.send(map[string]any{"type": "move", "table": id, "seat": seat, "move": mv, "id": "m1"})
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the connection was neither answered nor closed")
	}
	for len(c.in) > 0 {
		var m msg
		json.Unmarshal(<-c.in, &m)
		if m.str("id") == "m1" && m.str("type") == "error" {
			t.Errorf("move m1 was refused (%v) though the owner may still play it", m)
		}
	}
	if n := metricInt(t, n2.url, "cardroom_cluster_relay_timeouts_total"); n != 1 {
		t.Errorf("cardroom_cluster_relay_timeouts_total = %d, want 1", n)
	}
	time.Sleep(time.Second) // the owner is awake
	c2, views := resume(t, n2.url, sess, id)
	if got := views[seat].Seq; got != seq && got != seq+1 {
		t.Errorf("after the reconnection seq %d, want %d (the move dropped) or %d (played)", got, seq, seq+1)
	}
	c2.close()
}

// TestClusterStandInForgotten: bob watches alice's table on node 1
// through node 2; the game ends and the table leaves node 1's memory
// while bob stays connected (in the lobby); when bob's socket closes,
// node 1 drops his stand-in (the goodbye went to the table's subject
// only, where nobody listened any more, and the stand-in was kept for
// ever: one a game, up to the bound of relayed connections).
func TestClusterStandInForgotten(t *testing.T) {
	needGame(t, "papayoo")
	u := pgtest.Require(t)
	natsURL := clustertest.StartNATS(t)
	node := func(name string) *testServer {
		st, err := store.OpenPostgres(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		return startServerCfg(t, t.TempDir(), Config{Store: st, Rate: 10000, Burst: 10000, Table: table.Config{Linger: 200 * time.Millisecond},
			Cluster: &ClusterConfig{NATS: natsURL, Node: name, LeaseTTL: 2 * time.Second, Heartbeat: 200 * time.Millisecond}})
	}
	n1, n2 := node("n1"), node("n2")
	alice := dial(t, n1.url, newSession(t, n1.url, "alice"))
	id := alice.createTable(map[string]any{"game": "papayoo", "options": map[string]string{"rounds": "1"}, "seat": 0,
		"bots": map[string]string{"1": "random", "2": "random", "3": "random"}})
	alice.expect("state", nil)
	bob := dial(t, n2.url, newSession(t, n2.url, "bob"))
	bob.send(map[string]any{"type": "watch", "table": id})
	bob.expect("state", nil)
	if n := metricInt(t, n1.url, "cardroom_cluster_remote_conns"); n != 1 {
		t.Fatalf("node 1 serves %d stand-ins, want bob's", n)
	}
	alice.play(id, 1, nil) // to the end
	alice.close()
	for deadline := time.Now().Add(20 * time.Second); n1.s.table(id) != nil; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the finished table never left node 1")
		}
	}
	bob.close()
	n := -1
	for deadline := time.Now().Add(5 * time.Second); n != 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		n = metricInt(t, n1.url, "cardroom_cluster_remote_conns")
	}
	if n != 0 {
		t.Errorf("node 1 still serves %d stand-in(s) for bob's closed connection", n)
	}
}

// TestClusterStaleOwnerWakes: node 1 owns alice's table and is stopped
// (SIGSTOP); node 2 takes the table over and alice plays three moves
// through node 3. When node 1 wakes, before its renewals notice the lost
// lease, it neither answers the commands that waited in its buffer (it
// served alice an old state of her seat) nor closes alice's healthy
// connection on node 3 as "table moved" (node 3 takes a close only from a
// node it relays to now).
func TestClusterStaleOwnerWakes(t *testing.T) {
	needGame(t, "papayoo")
	u := pgtest.Require(t)
	natsURL := clustertest.StartNATS(t)
	start := nodeProcs(t, u, natsURL)
	cmd1, url1 := start("n1")
	start("n2")
	_, url3 := start("n3")
	sess := newSession(t, url1, "alice")
	owner := dial(t, url1, sess)
	id := seatAll(t, owner)
	owner.close()
	cmd1.Process.Signal(syscall.SIGSTOP)
	stopped := time.Now()
	t.Cleanup(func() { cmd1.Process.Signal(syscall.SIGCONT) })
	// Alice through node 3, once node 2 serves the table (node 1's
	// commands wait in its buffer meanwhile).
	var c *client
	var views map[int]state
	for views == nil {
		time.Sleep(500 * time.Millisecond)
		if time.Since(stopped) > 30*time.Second {
			t.Fatal("no node took the table over")
		}
		c = dial(t, url3, sess)
		c.send(map[string]any{"type": "watch", "table": id})
		// While node 1 is stopped and still holds the lease, the message
		// goes unanswered and node 3 closes the connection (1013), or the
		// table is said to be moving: try again.
		got := map[int]state{}
	read:
		for len(got) < 4 {
			var m msg
			select {
			case raw := <-c.in:
				json.Unmarshal(raw, &m)
			case <-c.done:
				break read
			case <-time.After(10 * time.Second):
				break read
			}
			if m.str("type") == "error" {
				break
			}
			if m.str("type") == "state" {
				b, _ := json.Marshal(m)
				var s state
				json.Unmarshal(b, &s)
				got[s.Seat] = s
			}
		}
		if len(got) == 4 {
			views = got
		} else {
			c.close()
		}
	}
	seq := 0
	for i := range 3 {
		seat, mv := -1, ""
		for s, v := range views {
			if len(v.Legal) > 0 && mv == "" {
				seat, mv = s, v.Legal[0]
			}
		}
		mid := fmt.Sprint("m", i)
		c.send(map[string]any{"type": "move", "table": id, "seat": seat, "move": mv, "id": mid})
		seq = c.expect("ack", func(m msg) bool { return m.str("id") == mid }).num("seq")
		views = statesAt(c, seq)
	}
	cmd1.Process.Signal(syscall.SIGCONT)
	deadline := time.After(5 * time.Second)
	for {
		select {
		case b := <-c.in:
			var m msg
			json.Unmarshal(b, &m)
			switch m.str("type") {
			case "error":
				t.Errorf("after node 1 woke: %v", m)
			case "state":
				if m.num("seq") < seq {
					t.Errorf("after node 1 woke: an old state, seq %d < %d (seat %d)", m.num("seq"), seq, m.num("seat"))
				}
			}
		case <-c.done:
			t.Fatalf("after node 1 woke, alice's connection on node 3 was closed (%v)", c.readErr)
		case <-deadline:
			return
		}
	}
}

// oneNodeTable starts a cluster of one node, with alice connected to it
// and her Papayoo table there (waiting for players).
func oneNodeTable(t *testing.T) (*testServer, *client, string) {
	t.Helper()
	needGame(t, "papayoo")
	u := pgtest.Require(t)
	natsURL := clustertest.StartNATS(t)
	n := startClusterNode(t, "n1", u, natsURL, nil)
	alice := dial(t, n.url, newSession(t, n.url, "alice"))
	t.Cleanup(alice.close)
	return n, alice, alice.createTable(map[string]any{"game": "papayoo", "seat": 0})
}

// TestClusterOldRunEndsAlone: a table this node gave up (its lease lost)
// and then took back runs under a new lease; what the old run says late —
// its end (OnStop), the loss of its lease (a fenced write) — is about the
// old lease and leaves the new run alone: it keeps its place, its lease
// and this node's record of owning it. Before, the old run's end deleted
// the new claim's record and released its lease, so the table ran here
// unowned while another node could claim it.
func TestClusterOldRunEndsAlone(t *testing.T) {
	n, _, id := oneNodeTable(t)
	cl := n.s.cl
	epochOf := func() (int64, bool) {
		e := cl.heldEpoch(id)
		return e, e != 0
	}
	e1, ok := epochOf()
	if !ok {
		t.Fatal("node 1 does not own the table it created")
	}
	cl.lose(id, e1, "a test gives it up")
	// The lost lease is not released: node 1's sweep takes the table
	// back once it expires (LeaseTTL 2 s).
	var e2 int64
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if e, ok := epochOf(); ok && e > e1 && n.s.table(id) != nil {
			e2 = e
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("node 1 never took the table back")
		}
	}
	run := n.s.table(id)
	cl.lose(id, e1, "the old run's fenced write")
	cl.stopped(id, e1)
	if e, ok := epochOf(); !ok || e != e2 {
		t.Errorf("after the old run's words node 1 owns the table at epoch %d (%v), want %d", e, ok, e2)
	}
	if got := n.s.table(id); got != run {
		t.Error("the new run left the node's tables")
	}
	select {
	case <-run.Done():
		t.Error("the new run was stopped")
	default:
	}
	if err := cl.leases.Renew(context.Background(), id, "n1", e2, 2*time.Second); err != nil {
		t.Errorf("the new run's lease: %v", err)
	}
	// The new run's own end still gives its lease up.
	run.Stop()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		// (The sweep may take it back at once, under a newer lease.)
		if e, _ := epochOf(); e != e2 && n.s.table(id) != run {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the stopped run is still owned or listed")
		}
	}
	if err := cl.leases.Renew(context.Background(), id, "n1", e2, 2*time.Second); err == nil {
		t.Error("the stopped run's lease is still held: it was not released")
	}
}

// TestClusterChatFenced: a chat line is written only while the node holds
// the table's lease (fenced in the store, as a move is): a node that lost
// the lease without noticing refuses the line as unavailable, stores
// nothing, and gives the table up.
func TestClusterChatFenced(t *testing.T) {
	n, alice, id := oneNodeTable(t)
	cl := n.s.cl
	alice.expect("chat_settings", nil)
	alice.send(map[string]any{"type": "chat", "table": id, "channel": "players", "text": "one"})
	alice.expect("chat", isChat("one"))
	epoch := cl.heldEpoch(id)
	// The lease ends behind the node's back (as if it expired while the
	// node was stopped).
	if err := cl.leases.Release(context.Background(), id, "n1", epoch); err != nil {
		t.Fatal(err)
	}
	alice.send(map[string]any{"type": "chat", "table": id, "channel": "players", "text": "two"})
	if m := nextChat(alice); m.str("type") != "error" || m.str("code") != string(protocol.Unavailable) {
		t.Fatalf("a chat line after the lease was lost: %v, want unavailable", m)
	}
	lines, err := n.s.store.(store.Chat).ChatLines(context.Background(), id, 10)
	if err != nil || len(lines) != 1 {
		t.Errorf("stored lines %+v, %v; want only the first", lines, err)
	}
	for deadline := time.Now().Add(5 * time.Second); metricInt(t, n.url, "cardroom_cluster_leases_lost_total") < 1; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the node did not give the table up")
		}
	}
}

// TestClusterTableBounds: a player's and an address's table bounds are the
// cluster's, not each node's: tables owned by another node count (from
// their summaries on the bus, which carry the table's origin), so a
// player at her bound on node 1 is refused on node 2, and so is another
// player at an address that is at its bound, while another address still
// creates.
func TestClusterTableBounds(t *testing.T) {
	needGame(t, "papayoo")
	u := pgtest.Require(t)
	natsURL := clustertest.StartNATS(t)
	set := func(c *Config) {
		c.OpenTablesPerPlayer, c.OpenTablesPerIP = 2, 3
		c.Table = table.Config{BotDelay: time.Hour}
	}
	n1 := startClusterNodeWith(t, "n1", u, natsURL, nil, set)
	n2 := startClusterNodeWith(t, "n2", u, natsURL, nil, set)
	sess := map[string]session{}
	for _, n := range []string{"alice", "bob", "carol"} {
		sess[n] = newSession(t, n1.url, n)
	}
	create := func(n *testServer, who, from string) (string, *protocol.ErrorDetail) {
		var out struct {
			ID    string               `json:"id"`
			Error protocol.ErrorDetail `json:"error"`
		}
		code := httpJSONFrom(t, from, "POST", n.url+"/api/tables", sess[who].Token, map[string]any{"game": "papayoo", "seat": 0}, &out)
		if code == 200 {
			return out.ID, nil
		}
		return "", &out.Error
	}
	const addr = "198.51.100.1"
	var ids []string
	for _, who := range []string{"alice", "alice", "bob"} {
		id, e := create(n1, who, addr)
		if e != nil {
			t.Fatalf("%s's table on n1: %+v", who, e)
		}
		ids = append(ids, id)
	}
	// Node 2 hears of the three tables, with their origin.
	for deadline := time.Now().Add(5 * time.Second); len(n2.s.cl.peerTables("", originOf(addr+":1"))) < 3; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("n2 knows %d of n1's tables %v from %s", len(n2.s.cl.peerTables("", originOf(addr+":1"))), ids, addr)
		}
	}
	if _, e := create(n2, "alice", "198.51.100.7"); e == nil || e.Code != protocol.RateLimited ||
		e.Limit == nil || *e.Limit != (protocol.Limit{Name: protocol.LimitOpenTables, Max: 2}) {
		t.Errorf("alice's third open table, on n2: %+v; want rate_limited open_tables max 2", e)
	}
	if _, e := create(n2, "carol", addr); e == nil || e.Code != protocol.RateLimited ||
		e.Limit == nil || *e.Limit != (protocol.Limit{Name: protocol.LimitAddressOpenTables, Max: 3}) {
		t.Errorf("carol's table on n2 from the address of three open tables: %+v; want rate_limited address_open_tables max 3", e)
	}
	if _, e := create(n2, "carol", "198.51.100.2"); e != nil {
		t.Errorf("carol's table on n2 from another address: %+v", e)
	}
}

// FuzzClusterClientSession is FuzzClientSession on a cluster of two
// nodes: the other player's table is owned by node 1 and the fuzzer is
// connected to node 2, so its messages to that table are relayed over
// the bus (the owner checks them as it checks its own clients'), and its
// own tables are node 2's.
func FuzzClusterClientSession(f *testing.F) {
	needGame(f, "papayoo")
	u := pgtest.Require(f)
	natsURL := clustertest.StartNATS(f)
	addHostileSeeds(f)
	n1 := startClusterNodeWith(f, "n1", u, natsURL, nil, func(c *Config) { *c = hostileConfig(*c) })
	n2 := startClusterNodeWith(f, "n2", u, natsURL, nil, func(c *Config) { *c = hostileConfig(*c) })
	f.Fuzz(func(t *testing.T, data []byte) { hostileSession(t, data, n2, n1, false) })
}

// TestClusterSessionQuota: the quota of guest sessions an address may
// create is the cluster's, not each node's (store.Quotas): with three an
// hour, an address that asks n1 and n2 in turn gets three in all, and the
// fourth is refused on either node with that limit; another address still
// gets its own. Without the shared buckets each node would grant three.
func TestClusterSessionQuota(t *testing.T) {
	u := pgtest.Require(t)
	natsURL := clustertest.StartNATS(t)
	set := func(c *Config) { c.SessionsPerIPPerHour = 3 }
	nodes := []*testServer{startClusterNodeWith(t, "n1", u, natsURL, nil, set), startClusterNodeWith(t, "n2", u, natsURL, nil, set)}
	create := func(n *testServer, from, name string) (int, protocol.ErrorDetail) {
		var out struct {
			Error protocol.ErrorDetail `json:"error"`
		}
		code := httpJSONFrom(t, from, "POST", n.url+"/api/session", "", protocol.SessionReq{Name: name}, &out)
		return code, out.Error
	}
	const addr = "198.51.100.20"
	for i := range 3 {
		if code, e := create(nodes[i%2], addr, fmt.Sprintf("guest%d", i)); code != 200 {
			t.Fatalf("session %d on n%d: %d %+v", i+1, i%2+1, code, e)
		}
	}
	for i, n := range nodes {
		code, e := create(n, addr, "guest9")
		if code != 429 || e.Code != protocol.RateLimited || e.Limit == nil || e.Limit.Name != protocol.LimitSessions || e.Limit.Max != 3 {
			t.Errorf("a fourth session on n%d: %d %+v; want 429 rate_limited, sessions max 3", i+1, code, e)
		}
	}
	if code, e := create(nodes[1], "198.51.100.21", "other"); code != 200 {
		t.Errorf("another address's session: %d %+v", code, e)
	}
	for i, n := range nodes {
		if m := metricValue(t, n.url, "cardroom_shared_quota_errors_total"); m != "0" {
			t.Errorf("n%d: %s shared quota errors", i+1, m)
		}
	}
}
