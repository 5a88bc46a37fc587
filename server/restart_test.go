package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardroom/record"
	"cardroom/store"
	"cardroom/table"
)

// seatAll makes one client hold every seat of a new papayoo table, so that
// nothing moves unless the test moves.
func seatAll(t *testing.T, c *client) string {
	t.Helper()
	id := c.createTable(map[string]any{"game": "papayoo", "options": map[string]string{"rounds": "1"}, "seat": 0})
	for s := 1; s < 4; s++ {
		c.send(map[string]any{"type": "join", "table": id, "seat": s})
		c.expect("joined", nil)
	}
	return id
}

func atLeast(n int) func(map[int]state) bool {
	return func(l map[int]state) bool {
		if len(l) < 4 {
			return false
		}
		seq := -1
		for _, s := range l {
			if seq >= 0 && s.Seq != seq {
				return false
			}
			seq = s.Seq
		}
		return seq >= n
	}
}

// oneMore sends one legal move and returns the acknowledged seq and the move.
func oneMore(t *testing.T, c *client, id string, last map[int]state) (int, string) {
	t.Helper()
	for seat, s := range last {
		if len(s.Legal) > 0 {
			c.send(map[string]any{"type": "move", "table": id, "seat": seat, "move": s.Legal[0], "id": "last"})
			a := c.expect("ack", nil)
			return a.num("seq"), fmt.Sprintf("%d %s", seat, s.Legal[0])
		}
	}
	t.Fatal("no seat can move")
	return 0, ""
}

// statesAt waits for the four seats' states at seq or later (the
// broadcast of an acknowledged move) and returns them by seat.
func statesAt(c *client, seq int) map[int]state {
	c.t.Helper()
	out := map[int]state{}
	for len(out) < 4 {
		var s state
		json.Unmarshal(c.nextRaw(5*time.Second), &s)
		if s.Type == "state" && s.Seq >= seq {
			out[s.Seat] = s
		}
	}
	return out
}

// resume reconnects with the token, checks the welcome lists the seats,
// watches the table and returns the four views.
func resume(t *testing.T, base string, sess session, id string) (*client, map[int]state) {
	t.Helper()
	var c *client
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		// The restarted server may still be starting.
		var resp struct{}
		if ctx.Err() != nil {
			t.Fatal("server did not come back")
		}
		if code := httpJSON(t, "GET", base+"/api/session", sess.Token, nil, &resp); code == 200 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	c = dial(t, base, sess)
	seats, _ := c.welcome["seats"].([]any)
	if len(seats) != 4 {
		t.Errorf("welcome after restart lists %d seats, want 4: %v", len(seats), c.welcome)
	}
	c.send(map[string]any{"type": "watch", "table": id})
	got := map[int]state{}
	for len(got) < 4 {
		b := c.nextRaw(10 * time.Second)
		var s state
		json.Unmarshal(b, &s)
		if s.Type == "state" && s.Table == id {
			got[s.Seat] = s
		}
	}
	return c, got
}

// TestRestartResumes stops the server gracefully mid-game, starts a new one
// on the same database, and finishes the game with the same cards.
func TestRestartResumes(t *testing.T) {
	needGame(t, "papayoo")
	dir := t.TempDir()
	ts := startServer(t, dir, table.Config{})
	sess := newSession(t, ts.url, "alice")
	c := dial(t, ts.url, sess)
	id := seatAll(t, c)
	last := c.play(id, 7, atLeast(20))
	ackSeq, mv := oneMore(t, c, id, last)
	// Wait for the broadcast of that move: the views we compare with.
	before := statesAt(c, ackSeq)
	ts.stop()
	c.close()

	ts2 := startServer(t, dir, table.Config{})
	c2, after := resume(t, ts2.url, sess, id)
	for seat := range before {
		if string(before[seat].View) != string(after[seat].View) {
			t.Errorf("seat %d: view after restart differs:\n%s\n%s", seat, before[seat].View, after[seat].View)
		}
	}
	finishAndCheck(t, c2, ts2.url, id, ackSeq, mv)
}

func finishAndCheck(t *testing.T, c *client, base, id string, ackSeq int, mv string) {
	t.Helper()
	fin := c.play(id, 8, nil)
	if fin[0].Status != "finished" {
		t.Fatalf("not finished: %s", fin[0].Status)
	}
	var body string
	if code := httpJSON(t, "GET", base+"/api/records/"+id, "", nil, &body); code != 200 {
		t.Fatalf("record: %d %s", code, body)
	}
	rec, err := record.ParseString(body)
	if err != nil {
		t.Fatal(err)
	}
	e := rec.Entries[ackSeq-1]
	if got := fmt.Sprintf("%d %s", e.Seat, e.Text); got != mv {
		t.Errorf("entry %d = %q, want the acknowledged move %q", ackSeq, got, mv)
	}
}

// TestKill9Resumes runs the real binary as a child process, kills it with
// SIGKILL right after a move is acknowledged, restarts it on the same data
// directory and finishes the game: no acknowledged move is lost and the
// hidden cards are the same.
func TestKill9Resumes(t *testing.T) {
	needGame(t, "papayoo")
	if testing.Short() {
		t.Skip("builds the binary")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "cardroom")
	out, err := exec.Command("go", "build", "-o", bin, "cardroom/cmd/cardroom").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data := filepath.Join(tmp, "data")
	start := func() (*exec.Cmd, string) {
		cmd := exec.Command(bin, "serve", "-addr", "127.0.0.1:0", "-data", data, "-grace", "1h", "-bot-delay", "0",
			"-rate", "10000", "-burst", "10000", "-log-level", "error")
		stdout, _ := cmd.StdoutPipe()
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
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
		t.Fatal("the server printed no URL")
		return nil, ""
	}
	cmd, url := start()
	sess := newSession(t, url, "alice")
	c := dial(t, url, sess)
	id := seatAll(t, c)
	last := c.play(id, 9, atLeast(25))
	ackSeq, mv := oneMore(t, c, id, last)
	cmd.Process.Kill() // SIGKILL, right after the ack
	cmd.Wait()
	c.close()

	// The log on disk has the acknowledged move.
	st, err := store.OpenSQLite(filepath.Join(data, "cardroom.db"))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := st.Events(context.Background(), id)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(ev) < ackSeq || fmt.Sprintf("%d %s", ev[ackSeq-1].Seat, ev[ackSeq-1].Text) != mv {
		t.Fatalf("after kill -9 the log has %d entries; want entry %d = %q", len(ev), ackSeq, mv)
	}
	// Hands before the restart, from the last views seen (before the last move).
	_, url2 := start()
	c2, after := resume(t, url2, sess, id)
	for seat, s := range after {
		if s.Seq < ackSeq {
			t.Errorf("seat %d: seq %d after restart, want ≥ %d", seat, s.Seq, ackSeq)
		}
		if s.Seq == last[seat].Seq+1 {
			// Hands only shrink by the move just played: every card in the
			// new hand was in the old one.
			var hb, ha struct {
				Hand []string `json:"hand"`
			}
			json.Unmarshal(last[seat].View, &hb)
			json.Unmarshal(s.View, &ha)
			old := map[string]bool{}
			for _, x := range hb.Hand {
				old[x] = true
			}
			if len(ha.Hand) < len(hb.Hand)-1 {
				t.Errorf("seat %d: %d cards after restart, %d before", seat, len(ha.Hand), len(hb.Hand))
			}
			for _, x := range ha.Hand {
				if !old[x] {
					t.Errorf("seat %d: card %s after restart was not in the hand before", seat, x)
				}
			}
		}
	}
	finishAndCheck(t, c2, url2, id, ackSeq, mv)
}
