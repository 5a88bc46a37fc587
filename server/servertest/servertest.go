// Package servertest starts a real room for the tests of programs that
// talk to one over the network (the example bots): a server on a loopback
// port, on SQLite in the test's temporary directory, with a quiet log, a
// long grace for absent players and cheap password hashing (an account is
// made in every test). The test links the games it needs (games/all).
package servertest

import (
	"context"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"testing"
	"time"

	"cardroom/server"
	"cardroom/store"
	"cardroom/table"
)

// Start runs the room until the test ends and returns it (for its
// metrics) with its base URL ("http://127.0.0.1:PORT").
func Start(t testing.TB) (*server.Server, string) { return StartWith(t, nil) }

// StartWith is Start with the configuration changed by set first (say, a
// message rate a test's client must respect).
func StartWith(t testing.TB, set func(*server.Config)) (*server.Server, string) {
	t.Helper()
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := server.Config{Store: st, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Table: table.Config{Grace: time.Hour},
		Accounts: server.AccountsConfig{HashTime: 1, HashMemoryKiB: 256}}
	if set != nil {
		set(&cfg)
	}
	s, err := server.New(cfg)
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(l)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.Shutdown(ctx)
		st.Close()
	})
	return s, "http://" + l.Addr().String()
}
