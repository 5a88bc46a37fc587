package loadtest

import (
	"context"
	"io"
	"log/slog"
	"math"
	"net"
	"path/filepath"
	"runtime/metrics"
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
	url := startServer(t, nil)
	for _, clients := range []int{4, 1} {
		rep, err := Run(context.Background(), Config{URL: url, Tables: 3, Clients: clients, Pace: 20, Duration: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Connections != 3*clients || rep.Moves < 20 || rep.P50 <= 0 || rep.Max < rep.P99 || rep.Errors != 0 {
			t.Errorf("clients=%d: report %+v", clients, rep)
		}
		// One URL: one node, no per-node lines, and the window's counters
		// (the server's CPU from this process, which it runs in).
		if text := rep.String(); !strings.Contains(text, "moves/s") || !strings.Contains(text, "server, measured window: CPU ") || strings.Contains(text, "\nnode ") ||
			!strings.Contains(text, "load tool, measured window: CPU ") {
			t.Errorf("report text: %s", text)
		}
		if len(rep.Nodes) != 1 || rep.Total.MessagesIn < float64(rep.Moves) || rep.Total.Moves < float64(rep.Moves) {
			t.Errorf("clients=%d: nodes %+v", clients, rep.Nodes)
		}
	}
}

// TestRunWithBotTables: tables of bots only play beside the measured ones
// (the human tables' latency under bot load, issue 14); the report counts
// them and their moves, and the measured tables still play without error.
func TestRunWithBotTables(t *testing.T) {
	url := startServer(t, nil)
	rep, err := Run(context.Background(), Config{URL: url, Tables: 2, Pace: 20, Duration: time.Second, BotTables: 3, BotLevel: "random"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.BotTables != 3 || rep.Total.BotMoves <= 0 || rep.Errors != 0 || rep.Moves < 20 {
		t.Errorf("report %+v (bot moves %v)", rep, rep.Total.BotMoves)
	}
	if text := rep.String(); !strings.Contains(text, "and 3 tables of bots only") || !strings.Contains(text, ", bot moves ") {
		t.Errorf("report text: %s", text)
	}
	if _, err := Run(context.Background(), Config{URL: url, Tables: 1, Duration: time.Second, BotTables: 1, BotLevel: "nosuchlevel"}); err == nil ||
		!strings.Contains(err.Error(), "bot tables") {
		t.Errorf("a bad bot level: %v; want the server's refusal, named", err)
	}
}

// startServer starts a server for a test on st (nil: a fresh SQLite
// file) and returns its URL; it skips the test when the build has no
// Papayoo, the game a load run plays by default.
func startServer(t *testing.T, st store.Store, cluster ...*server.ClusterConfig) string {
	t.Helper()
	if _, err := games.Lookup("papayoo"); err != nil {
		t.Skip("papayoo engine not registered yet")
	}
	if st == nil {
		sq, err := store.OpenSQLite(filepath.Join(t.TempDir(), "db"))
		if err != nil {
			t.Fatal(err)
		}
		st = sq
	}
	cfg := server.Config{Store: st, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Table: table.Config{Grace: time.Hour}, Rate: 1000, Burst: 1000, Analysis: server.AnalysisConfig{Off: true}}
	if len(cluster) > 0 {
		cfg.Cluster = cluster[0]
	}
	s, err := server.New(cfg)
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.Shutdown(context.Background())
		t.Fatal(err)
	}
	go s.Serve(l)
	t.Cleanup(func() { s.Shutdown(context.Background()) }) // closes st
	return "http://" + l.Addr().String()
}

// TestReportNamesFirstError: a run with errors says what the first one
// was, and one without says nothing of errors beyond the count.
func TestReportNamesFirstError(t *testing.T) {
	for _, c := range []struct {
		rep  Report
		want bool
	}{
		{Report{Errors: 2, FirstError: "send: broken pipe"}, true},
		{Report{}, false},
	} {
		got := strings.Contains(c.rep.String(), "first error: send: broken pipe")
		if got != c.want {
			t.Errorf("%+v: report names the first error %v, want %v:\n%s", c.rep, got, c.want, c.rep.String())
		}
	}
}

// TestHistQuantile: the load tool's own scheduling delay is read from the
// runtime's histogram as the upper bound of the bucket holding the
// quantile; the last bucket, unbounded, reports its lower bound.
func TestHistQuantile(t *testing.T) {
	inf := math.Inf(1)
	buckets := []float64{0, 0.001, 0.01, 0.1, inf}
	for _, tc := range []struct {
		counts []uint64
		q      float64
		want   time.Duration
	}{
		{[]uint64{0, 0, 0, 0}, 0.99, 0},
		{[]uint64{99, 1, 0, 0}, 0.99, time.Millisecond},
		{[]uint64{98, 1, 1, 0}, 0.99, 10 * time.Millisecond},
		{[]uint64{98, 1, 1, 0}, 1, 100 * time.Millisecond},
		{[]uint64{90, 0, 0, 10}, 0.99, 100 * time.Millisecond},
		{[]uint64{0, 0, 5, 0}, 0.5, 100 * time.Millisecond},
	} {
		if got := histQuantile(tc.counts, buckets, tc.q); got != tc.want {
			t.Errorf("counts %v q %v: %v, want %v", tc.counts, tc.q, got, tc.want)
		}
	}
}

// TestSelfStats: the window's figures are the change between two samples,
// not the totals since the process started.
func TestSelfStats(t *testing.T) {
	buckets := []float64{0, 0.001, 0.01, 0.1}
	a := selfSample{cpu: time.Second, sched: &metrics.Float64Histogram{Counts: []uint64{1000, 0, 500}, Buckets: buckets}}
	b := selfSample{cpu: 3 * time.Second, sched: &metrics.Float64Histogram{Counts: []uint64{1100, 0, 500}, Buckets: buckets}}
	st := selfStats(a, b)
	if st.CPU != 2*time.Second || st.SchedP99 != time.Millisecond || st.SchedMax != time.Millisecond {
		t.Errorf("self stats %+v; want CPU 2s, the 100 new waits all under 1ms", st)
	}
}

// TestRunBounds: counts out of range are refused by name before anything
// is opened (no server is needed: nothing is dialled).
func TestRunBounds(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Tables: 0}, "tables"},
		{Config{Tables: -3}, "tables"},
		{Config{Tables: MaxTables + 1}, "tables"},
		{Config{Tables: 1, BotTables: -1}, "bot tables"},
		{Config{Tables: 1, Pace: -1}, "pace"},
		{Config{Tables: 1, Pace: math.NaN()}, "pace"},
		{Config{Tables: 1, Pace: MaxPace + 1}, "pace"},
		{Config{Tables: 1, Setup: MaxSetup + 1}, "setup"},
	} {
		tc.cfg.URL = "http://127.0.0.1:1" // nothing listens: a dial would fail otherwise
		if _, err := Run(context.Background(), tc.cfg); err == nil || !strings.HasPrefix(err.Error(), tc.want+" must be") {
			t.Errorf("%+v: %v; want a refusal naming %s", tc.cfg, err, tc.want)
		}
	}
}

// TestRunCreateRefused: a server that refuses a table (here its bound of
// open tables per address, 15 by default, which a load run from one
// address passes unless the server is started without it) fails the run
// at once with the server's words; the tool waited 30 s and said "no
// answer to create".
func TestRunCreateRefused(t *testing.T) {
	url := startServer(t, nil)
	start := time.Now()
	_, err := Run(context.Background(), Config{URL: url, Tables: 20, Clients: 1, Pace: 20, Duration: time.Second})
	if err == nil || !strings.Contains(err.Error(), "create refused: rate_limited") || !strings.Contains(err.Error(), "open tables") {
		t.Fatalf("20 tables from one address: %v; want the refusal of the 16th", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the refusal took %v", d)
	}
}
