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

// TestPeerRestart: a node that dies and is back, under the same name,
// before its peers miss three heartbeats is never reported down; its new
// Boot in the heartbeats is reported as a restart, with that Boot, and a
// heartbeat from the same life or with no Boot (a node from before Boot)
// is not.
func TestPeerRestart(t *testing.T) {
	url := clustertest.StartNATS(t)
	var mu sync.Mutex
	var restarts []uint32
	var downs int
	ctx := context.Background()
	a, err := Dial(ctx, Config{URL: url, Node: "a", Heartbeat: time.Second,
		OnPeerDown:    func(string) { mu.Lock(); downs++; mu.Unlock() },
		OnPeerRestart: func(n string, boot uint32) { mu.Lock(); restarts = append(restarts, boot); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	beat := func(boot uint32) {
		a.NC.Publish(a.Sub.Heartbeat(), AppendHeartbeat(nil, "b", boot))
		a.NC.Flush()
	}
	for _, boot := range []uint32{7, 7, 0, 9, 9} {
		beat(boot)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		got := append([]uint32(nil), restarts...)
		mu.Unlock()
		if len(got) == 1 && got[0] == 9 {
			break
		}
		if time.Now().After(deadline) || len(got) > 1 {
			t.Fatalf("restarts reported: %v; want [9]", got)
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if downs != 0 || !a.Alive("b") {
		t.Errorf("b reported down %d times (alive %v); a restart is not a death", downs, a.Alive("b"))
	}
	for _, c := range []struct {
		in   string
		node string
		boot uint32
	}{{"b 9", "b", 9}, {"b", "b", 0}, {"b x", "b", 0}, {"b 99999999999", "b", 0}} {
		if n, b := ParseHeartbeat([]byte(c.in)); n != c.node || b != c.boot {
			t.Errorf("ParseHeartbeat(%q) = %q %d, want %q %d", c.in, n, b, c.node, c.boot)
		}
	}
}
