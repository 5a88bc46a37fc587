package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"cardroom/games"
	"cardroom/protocol"
	"cardroom/store"
	"cardroom/table"
)

// quickOptions are the options of a short game of name (games.Game.Quick).
func quickOptions(name string) map[string]string {
	g, err := games.Get(name)
	if err != nil {
		return nil
	}
	return g.Quick
}

func needGame(t testing.TB, name string) {
	t.Helper()
	if _, err := games.Lookup(name); err != nil {
		t.Skipf("engine %s is not registered yet (games.Lookup: %v)", name, err)
	}
}

type testServer struct {
	s    *Server
	url  string // http://127.0.0.1:port
	dir  string
	done chan struct{}
}

func quietLog() *slog.Logger {
	if os.Getenv("CR_DEBUG") != "" {
		return slog.Default()
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// startServer runs a real server over loopback on a real SQLite file in dir.
func startServer(t *testing.T, dir string, tc table.Config) *testServer {
	t.Helper()
	return startServerCfg(t, dir, Config{Table: tc, Rate: 10000, Burst: 10000})
}

func startServerCfg(t testing.TB, dir string, cfg Config) *testServer {
	t.Helper()
	tc := cfg.Table
	if cfg.Store == nil {
		st, err := store.OpenSQLite(filepath.Join(dir, "cardroom.db"))
		if err != nil {
			t.Fatal(err)
		}
		cfg.Store = st
	}
	if tc.Grace == 0 {
		tc.Grace = time.Hour
	}
	cfg.Log, cfg.Table = quietLog(), tc
	if cfg.Analysis == (AnalysisConfig{}) {
		// Analysing every finished game in the background would spend the
		// test run's CPU on work few tests look at; those that do set a
		// budget.
		cfg.Analysis.Off = true
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{s: s, url: "http://" + l.Addr().String(), dir: dir, done: make(chan struct{})}
	go func() { s.Serve(l); close(ts.done) }()
	t.Cleanup(func() { ts.stop() })
	return ts
}

func (ts *testServer) stop() {
	if ts.s == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ts.s.Shutdown(ctx)
	<-ts.done
	ts.s = nil
}

func httpJSON(t *testing.T, method, url, token string, body any, out any) int {
	t.Helper()
	return httpJSONFrom(t, "", method, url, token, body, out)
}

// httpJSONFrom is httpJSON from client address from (sent as
// X-Forwarded-For, believed by a server that trusts loopback proxies; ""
// sends none).
func httpJSONFrom(t *testing.T, from, method, url, token string, body any, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if from != "" {
		req.Header.Set("X-Forwarded-For", from)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil {
		if sp, ok := out.(*string); ok {
			*sp = string(b)
		} else if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, url, err, b)
		}
	}
	return resp.StatusCode
}

type session struct {
	Token, Player, Name string
}

func newSession(t *testing.T, base, name string) session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	r, err := protocol.NewSession(ctx, nil, base, name)
	if err != nil {
		t.Fatalf("session: %v", err)
	}
	return session{r.Token, r.Player, r.Name}
}

// client is a real WebSocket client: protocol's, read by a goroutine that
// keeps every message for the leak sweep.
type client struct {
	t       *testing.T
	sess    session
	pc      *protocol.Client
	ws      *websocket.Conn // pc's socket, for raw frames
	in      chan []byte
	mu      sync.Mutex
	all     [][]byte // every message received, for the leak sweep
	done    chan struct{}
	readErr error
	// welcome is the first message.
	welcome msg
}

func dial(t *testing.T, base string, sess session) *client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	pc, err := protocol.Dial(ctx, base, &protocol.Options{Token: sess.Token})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	return wrapClient(t, sess, pc)
}

// wrapClient is dial's client around a connection made elsewhere.
func wrapClient(t *testing.T, sess session, pc *protocol.Client) *client {
	c := &client{t: t, sess: sess, pc: pc, ws: pc.Conn(), in: make(chan []byte, 100000), done: make(chan struct{})}
	w, _ := json.Marshal(pc.Welcome())
	json.Unmarshal(w, &c.welcome)
	go func() {
		defer close(c.done)
		for {
			in, err := pc.Recv(context.Background())
			if in.Raw == nil && err != nil {
				c.readErr = err
				return
			}
			c.mu.Lock()
			c.all = append(c.all, in.Raw)
			c.mu.Unlock()
			c.in <- in.Raw
		}
	}()
	t.Cleanup(func() { pc.CloseNow() })
	return c
}

func (c *client) close() {
	c.pc.CloseNow()
	<-c.done
}

func (c *client) send(v any) {
	c.t.Helper()
	b, _ := json.Marshal(v)
	c.sendRaw(b)
}

func (c *client) sendRaw(b []byte) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.pc.SendRaw(ctx, b); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

type msg map[string]any

func (m msg) str(k string) string { s, _ := m[k].(string); return s }
func (m msg) num(k string) int    { f, _ := m[k].(float64); return int(f) }

// next returns the next message, failing after the timeout.
func (c *client) next(d time.Duration) msg {
	c.t.Helper()
	select {
	case b := <-c.in:
		var m msg
		if err := json.Unmarshal(b, &m); err != nil {
			c.t.Fatalf("bad server JSON %s: %v", b, err)
		}
		return m
	case <-time.After(d):
		c.t.Fatalf("%s: no message in %v", c.sess.Name, d)
	case <-c.done:
		// Drain what is left.
		select {
		case b := <-c.in:
			var m msg
			json.Unmarshal(b, &m)
			return m
		default:
		}
		c.t.Fatalf("%s: connection closed", c.sess.Name)
	}
	return nil
}

// expect skips messages until one of type typ matching ok (nil: any).
func (c *client) expect(typ string, ok func(msg) bool) msg {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		m := c.next(time.Until(deadline))
		if m.str("type") == typ && (ok == nil || ok(m)) {
			return m
		}
	}
}

// state is a decoded state message.
type state struct {
	Type    string            `json:"type"`
	Table   string            `json:"table"`
	Seq     int               `json:"seq"`
	Status  string            `json:"status"`
	Seat    int               `json:"seat"`
	View    json.RawMessage   `json:"view"`
	Legal   []string          `json:"legal"`
	ToAct   []int             `json:"to_act"`
	Seats   []table.SeatInfo  `json:"seats"`
	Result  json.RawMessage   `json:"result"`
	Options map[string]string `json:"options"`
}

// play drives the seats this client holds at a table with random legal
// moves until the game ends, or until stop returns true. It returns the
// last state of each held seat.
func (c *client) play(tableID string, seed uint64, stop func(map[int]state) bool) map[int]state {
	c.t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	latest := map[int]state{}
	awaiting := false
	ackSeq := 0
	deadline := time.Now().Add(60 * time.Second)
	for {
		caughtUp := true // every held seat has seen our last acknowledged move
		for _, l := range latest {
			caughtUp = caughtUp && l.Seq >= ackSeq
		}
		if stop != nil && !awaiting && caughtUp && len(latest) > 0 && stop(latest) {
			return latest
		}
		if !awaiting {
			maxSeq := -1
			for _, s := range latest {
				maxSeq = max(maxSeq, s.Seq)
			}
			for seat, s := range latest {
				if s.Seq == maxSeq && len(s.Legal) > 0 && s.Status == "playing" {
					mv := pickMove(rng, s.Legal)
					c.send(map[string]any{"type": "move", "table": tableID, "seat": seat, "move": mv, "id": fmt.Sprint(s.Seq)})
					awaiting = true
					break
				}
			}
		}
		b := c.nextRaw(time.Until(deadline))
		var m struct {
			Type    string `json:"type"`
			Seq     int    `json:"seq"`
			Table   string `json:"table"`
			Code    string `json:"code"`
			Message string `json:"message"`
		}
		json.Unmarshal(b, &m)
		if m.Table != tableID && m.Type != "error" {
			continue
		}
		switch m.Type {
		case "state":
			var s state
			json.Unmarshal(b, &s)
			if old, ok := latest[s.Seat]; !ok || s.Seq >= old.Seq {
				latest[s.Seat] = s
			}
			if s.Status == "finished" {
				done := true
				for _, l := range latest {
					if l.Status != "finished" {
						done = false
					}
				}
				if done && !awaiting {
					return latest
				}
			}
		case "ack":
			awaiting = false
			ackSeq = m.Seq
		case "error":
			if m.Code != "not_your_turn" && m.Code != "illegal" && m.Code != "game_over" {
				c.t.Fatalf("move refused: %s: %s", m.Code, m.Message)
			}
			awaiting = false
			all := true
			for _, l := range latest {
				all = all && l.Status == "finished"
			}
			if all && len(latest) > 0 {
				return latest
			}
		}
	}
}

func (c *client) nextRaw(d time.Duration) []byte {
	c.t.Helper()
	select {
	case b := <-c.in:
		return b
	case <-time.After(d):
		c.t.Fatalf("%s: no message in %v", c.sess.Name, d)
	case <-c.done:
		c.t.Fatalf("%s: connection closed", c.sess.Name)
	}
	return nil
}

// createTable creates a table over the socket and returns its id.
func (c *client) createTable(req map[string]any) string {
	c.t.Helper()
	req["type"] = "create"
	req["id"] = "c1"
	c.send(req)
	for {
		m := c.next(10 * time.Second)
		switch m.str("type") {
		case "created":
			return m.str("table")
		case "error":
			c.t.Fatalf("create: %v", m)
		}
	}
}

// pickMove plays a random legal move, preferring to play a card when one
// can be played (random drawing makes Pis Yedili hands very long).
func pickMove(rng *rand.Rand, legal []string) string {
	var plays []string
	for _, m := range legal {
		if strings.HasPrefix(m, "play ") {
			plays = append(plays, m)
		}
	}
	if len(plays) > 0 {
		return plays[rng.IntN(len(plays))]
	}
	return legal[rng.IntN(len(legal))]
}
