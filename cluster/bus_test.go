package cluster

import (
	"context"
	"sync"
	"testing"
	"time"

	"cardroom/cluster/clustertest"
)

// TestPeerDown: two nodes hear each other's heartbeats; when one stops
// (its connection is gone without a goodbye, as after kill -9), the
// other reports it down within a few heartbeats.
func TestPeerDown(t *testing.T) {
	url := clustertest.StartNATS(t)
	var mu sync.Mutex
	var down []string
	ctx := context.Background()
	a, err := Dial(ctx, Config{URL: url, Node: "a", Heartbeat: 50 * time.Millisecond,
		OnPeerDown: func(n string) { mu.Lock(); down = append(down, n); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Dial(ctx, Config{URL: url, Node: "b", Heartbeat: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !a.Alive("b") {
		if time.Now().After(deadline) {
			t.Fatal("a never heard b")
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(b.quit) // b's heartbeats stop, as a dead process's would
	b.NC.Close()
	deadline = time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		got := append([]string(nil), down...)
		mu.Unlock()
		if len(got) == 1 && got[0] == "b" && !a.Alive("b") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("peers down: %v; want [b]", got)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
