package loadtest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"cardroom/cluster/clustertest"
	"cardroom/server"
	"cardroom/store"
	"cardroom/store/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestRunCluster runs the load tool against a real cluster of three nodes
// in this process (one PostgreSQL database, an embedded NATS server): the
// run plays without errors, each node owns the tables created on it, and
// every node relays commands to the others' tables, since a table's
// clients are on all three nodes. It needs PostgreSQL (store/pgtest:
// skipped outside CI without one).
func TestRunCluster(t *testing.T) {
	u := pgtest.Require(t)
	natsURL := clustertest.StartNATS(t)
	var urls []string
	for i := range 3 {
		st, err := store.OpenPostgres(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		urls = append(urls, startServer(t, st, &server.ClusterConfig{NATS: natsURL, Node: fmt.Sprintf("n%d", i+1),
			LeaseTTL: 2 * time.Second, Heartbeat: 200 * time.Millisecond}))
	}
	const tables = 6
	rep, err := Run(context.Background(), Config{URLs: urls, Tables: tables, Pace: 10, Duration: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(rep.String())
	if rep.Connections != 4*tables || rep.Moves < 2*tables || rep.Errors != 0 || rep.Regressed != 0 {
		t.Errorf("report %+v", rep)
	}
	if rep.Total.Moves < float64(rep.Moves) || rep.Total.Owned != tables {
		t.Errorf("the nodes together: %d tables owned and %v moves, want %d and at least the %d measured", rep.Total.Owned, rep.Total.Moves, tables, rep.Moves)
	}
	for i, n := range rep.Nodes {
		if n.Owned != tables/3 || n.Connections != 4*tables/3 || n.Bus["relayed_commands"] <= 0 {
			t.Errorf("node %d: %d tables owned, %d connections, %v commands relayed; want %d, %d and some", i+1, n.Owned, n.Connections, n.Bus["relayed_commands"], tables/3, 4*tables/3)
		}
	}
}
