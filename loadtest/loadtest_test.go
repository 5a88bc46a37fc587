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
