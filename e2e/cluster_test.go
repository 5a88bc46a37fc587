package e2e

import (
	"context"
	"os"
	"testing"
	"time"

	"cardroom/cluster/clustertest"

	"github.com/chromedp/chromedp"

	"cardroom/server"
	"cardroom/store"
	"cardroom/store/pgtest"
	"cardroom/table"
)

// clusterEnvs starts two nodes of a cluster (a shared PostgreSQL, an
// embedded NATS server) and an env for each; node 1 reaches the bus
// through a proxy the test can cut.
func clusterEnvs(t *testing.T) (e1, e2 *env, px *clustertest.Proxy) {
	t.Helper()
	e := newEnv(t) // the browser, the deadline and the skip rules; its own server is unused
	u := pgtest.Require(t)
	natsURL := clustertest.StartNATS(t)
	px = clustertest.NewProxy(t, natsURL)
	node := func(name, natsURL string) *env {
		st, err := store.OpenPostgres(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		base := serve(t, server.Config{Store: st, Analysis: server.AnalysisConfig{Off: true},
			// A short grace: alice's seat gets its stand-in soon after she
			// has gone.
			Table:   table.Config{Grace: 2 * time.Second},
			Cluster: &server.ClusterConfig{NATS: natsURL, Node: name, LeaseTTL: 2 * time.Second, Heartbeat: 200 * time.Millisecond}})
		return &env{t: t, base: base, root: e.root, artDir: e.artDir, started: e.started, limit: e.limit}
	}
	return node("n1", px.URL()), node("n2", natsURL), px
}

// TestClusterBrowser plays Papayoo in the browser on a cluster of two
// nodes (issue 15): alice creates the table on node 1, which owns it,
// and leaves; bob, on node 2, finds it in node 2's lobby, joins and plays
// through the bus. Node 1 is then cut from the bus: node 2 closes bob's
// socket, the page reconnects to node 2 by itself, node 2 takes the table
// over from the log, and bob plays the game to its end, with the totals
// the record says.
func TestClusterBrowser(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil && os.Getenv("CI") == "" {
		t.Skip("needs Chromium")
	}
	e1, e2, px := clusterEnvs(t)
	alice := e1.tab("alice")
	alice.login("alice")
	id := alice.createTable("papayoo", 3, map[string]string{"rounds": "1"}, []int{1})
	alice.must(10*time.Second, "waiting room", waitVisible(tid("waiting")))
	e1.checkJS()
	chromedp.Cancel(alice.ctx) // alice goes: a stand-in plays her seat after the grace

	bob := e2.tab("bob")
	bob.login("bob")
	bob.must(15*time.Second, "bob sees node 1's table in node 2's lobby", waitVisible(tid("join-"+id)))
	bob.joinFromLobby(15*time.Second, "bob joins through node 2", id, tid("hand"))
	moves := 0
	for moves < 3 {
		e2.expired("bob's first moves")
		p, ok := bob.nextPick(pickWait, 5*time.Second)
		if !ok {
			continue
		}
		if p.Kind == "done" {
			t.Fatal("the game ended before node 1 was cut")
		}
		if bob.clickPick(p) && p.Kind == "move" {
			moves++
		}
	}
	px.Partition()
	// The page notices the closed socket, reconnects and comes back.
	bob.must(10*time.Second, "bob's page goes offline", waitGone(tid("conn-online")))
	bob.must(20*time.Second, "bob's page back online", waitVisible(tid("conn-online")), waitVisible(tid("hand")))
	bob.playToEnd(120*time.Second, nil)
	if got, want := bob.finalTotals(), e2.serverTotals(id); !sameInts(got, want) {
		t.Errorf("bob sees totals %v, the record on node 2 says %v", got, want)
	}
	bob.checkErrors()
	e2.checkJS()
}
