package loadtest

import (
	"context"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardroom/games"
	"cardroom/server"
	"cardroom/store"
	"cardroom/table"
)

// TestRunSmall runs the load generator against a real server for a moment
// and checks it measured moves with sane latencies.
func TestRunSmall(t *testing.T) {
	if _, err := games.Lookup("papayoo"); err != nil {
		t.Skip("papayoo engine not registered yet")
	}
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := server.New(server.Config{Store: st, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Table: table.Config{Grace: time.Hour}, Rate: 1000, Burst: 1000})
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(l)
	defer s.Shutdown(context.Background())
	for _, clients := range []int{4, 1} {
		rep, err := Run(context.Background(), Config{URL: "http://" + l.Addr().String(), Tables: 3, Clients: clients, Pace: 20, Duration: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Connections != 3*clients || rep.Moves < 20 || rep.P50 <= 0 || rep.Max < rep.P99 || rep.Errors != 0 {
			t.Errorf("clients=%d: report %+v", clients, rep)
		}
		if !strings.Contains(rep.String(), "moves/s") {
			t.Errorf("report text: %s", rep)
		}
	}
}

func TestStatePrefix(t *testing.T) {
	b := []byte(`{"type":"state","table":"t","seq":3,"legal":["play 1S"],"view":{"hand":["1S"]}}`)
	if got := string(statePrefix(b)); got != `{"type":"state","table":"t","seq":3,"legal":["play 1S"]}` {
		t.Errorf("prefix = %s", got)
	}
	other := []byte(`{"type":"ack","seq":3}`)
	if string(statePrefix(other)) != string(other) {
		t.Error("non-state message changed")
	}
}

func TestParseStateHead(t *testing.T) {
	b := []byte(`{"type":"state","table":"t_1","seq":31,"status":"playing","seat":-1,"to_act":[2],"legal":["play 1S","x\"]"],"legal_count":2,"game":"papayoo","view":{}}`)
	h, ok := parseStateHead(b)
	if !ok || h.seq != 31 || h.seat != -1 || h.status != "playing" || string(h.legal) != `["play 1S","x\"]"]` {
		t.Errorf("parse: %v %+v %s", ok, h, h.legal)
	}
	for _, bad := range []string{`{"type":"ack","seq":3}`, `{"type":"state","seq":3}`, `{"type":"state","table":"t","seq":x`} {
		if _, ok := parseStateHead([]byte(bad)); ok {
			t.Errorf("%s: parsed", bad)
		}
	}
}

func TestPickLegal(t *testing.T) {
	var offs []int
	seen := map[string]bool{}
	for range 200 {
		seen[pickLegal([]byte(`["play 1S","pass 2S 3\"S","x"]`), &offs)] = true
	}
	if len(seen) != 3 || !seen[`pass 2S 3"S`] {
		t.Errorf("picked %v", seen)
	}
	seen = map[string]bool{}
	for range 200 {
		seen[pickLegal([]byte(`["play 1S","pass 2S 3S","x"]`), &offs)] = true
	}
	if len(seen) != 3 || !seen["pass 2S 3S"] || !seen["play 1S"] || !seen["x"] {
		t.Errorf("picked %v", seen)
	}
	if pickLegal([]byte(`["play 1S"]`), &offs) != "play 1S" {
		t.Error("one element")
	}
	if pickLegal([]byte(`[]`), &offs) != "" {
		t.Error("empty array")
	}
}
