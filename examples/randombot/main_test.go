package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"testing"
	"time"

	"cardroom/games"
	"cardroom/server"
	"cardroom/store"
	"cardroom/table"
)

// TestRandomBotPlaysAGame runs the example bot against a real server: it
// quick-plays a one-round Papayoo game to the end over the protocol.
func TestRandomBotPlaysAGame(t *testing.T) {
	if _, err := games.Lookup("papayoo"); err != nil {
		t.Skip("papayoo engine not registered yet")
	}
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := server.New(server.Config{Store: st, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Table: table.Config{Grace: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(l)
	defer s.Shutdown(context.Background())
	done := make(chan error, 1)
	go func() { done <- run("http://"+l.Addr().String(), "example", "", "", "papayoo", "rounds=1", 1) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the example bot did not finish its game")
	}
	if n := s.Metrics().Finished.Load(); n != 1 {
		t.Errorf("games finished = %d, want 1", n)
	}
}
