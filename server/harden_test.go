package server

// Regression tests for the attacks of the hardening issue: each one was
// reproduced against the server before its fix.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"cardroom/record"
	"cardroom/store"
	"cardroom/table"

	"cardroom/protocol"
)

// TestCrashInputs: numbers out of range are refused with an error before
// anything is allocated from them, over the socket and over HTTP; the
// server keeps serving and creates nothing.
func TestCrashInputs(t *testing.T) {
	needGame(t, "papayoo")
	needGame(t, "rum500")
	ts := startServer(t, t.TempDir(), table.Config{})
	alice := newSession(t, ts.url, "alice")
	c := dial(t, ts.url, alice)
	cases := []struct {
		name string
		req  string
		code string
	}{
		{"seat 1e9", `{"game":"papayoo","seat":1000000000}`, "bad_seat"},
		{"seat max int64", `{"game":"papayoo","seat":9223372036854775807}`, "bad_seat"},
		{"seat -5", `{"game":"papayoo","seat":-5}`, "bad_seat"},
		{"seat past int64", `{"game":"papayoo","seat":99999999999999999999}`, "bad_request"},
		{"bot seat huge", `{"game":"papayoo","bots":{"99999999999":"random"}}`, "bad_seat"},
		{"bot seat padded", `{"game":"papayoo","bots":{"01":"random"}}`, "bad_seat"},
		{"go_out_bonus overflow", `{"game":"rum500","options":{"go_out_bonus":"9223372036854775807"}}`, "bad_options"},
		{"rounds 1e6", `{"game":"papayoo","options":{"rounds":"1000000"}}`, "bad_options"},
		{"clock huge", `{"game":"papayoo","clock_ms":9223372036854775807}`, "bad_request"},
		{"many options", `{"game":"papayoo","options":{` + manyOptions(40) + `}}`, "bad_options"},
	}
	for _, cs := range cases {
		c.sendRaw([]byte(`{"type":"create","id":"x",` + cs.req[1:]))
		m := c.expect("error", nil)
		if m.str("code") != cs.code {
			t.Errorf("ws %s: code %q (%s), want %q", cs.name, m.str("code"), m.str("message"), cs.code)
		}
		var out struct {
			Error protocol.ErrorDetail `json:"error"`
		}
		req, _ := http.NewRequest("POST", ts.url+"/api/tables", strings.NewReader(cs.req))
		req.Header.Set("Authorization", "Bearer "+alice.Token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("http %s: %v (the server died?)", cs.name, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 400 {
			t.Errorf("http %s: status %d (%s), want 400", cs.name, resp.StatusCode, b)
		}
		_ = out
	}
	c.sendRaw([]byte(`{"type":"join","table":"t_x","seat":1000000000}`))
	if m := c.expect("error", nil); m.str("code") != "bad_seat" {
		t.Errorf("join seat 1e9: %v", m)
	}
	if n := len(ts.s.lobby.list()); n != 0 {
		t.Errorf("%d tables created by refused requests", n)
	}
	if code := httpJSON(t, "GET", ts.url+"/healthz", "", nil, new(string)); code != 200 {
		t.Fatalf("healthz %d after the attack inputs", code)
	}
}

func manyOptions(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"o%d":"1"`, i)
	}
	return b.String()
}

// rawDial opens a socket that the test reads only if it wants to.
func rawDial(t *testing.T, base, token string, h http.Header) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if h == nil {
		h = http.Header{}
	}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	return websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws", &websocket.DialOptions{HTTPHeader: h})
}

// TestNeverReadingSocketDropped: sockets that ask for a busy table's states
// and never read are closed within seconds, their queues freed; a client
// that reads, watching the same table, stays.
func TestNeverReadingSocketDropped(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000,
		WriteTimeout: time.Second, PingInterval: time.Second, OutQueueBytes: 256 << 10,
		// Bots a little slower than the CPU allows (at most 500 moves a
		// second): the never-reading sockets still fill their 256 KiB in
		// well under a second, and the reading client, on a loaded machine
		// too, keeps up (with no pause it could fall behind and be dropped
		// as well).
		Table: table.Config{BotDelay: 2 * time.Millisecond}})
	owner := newSession(t, ts.url, "owner")
	var sum struct {
		ID string `json:"id"`
	}
	body := map[string]any{"game": "papayoo", "options": map[string]string{"rounds": "100"},
		"bots": map[string]string{"0": "random", "1": "random", "2": "random", "3": "random"}}
	if code := httpJSON(t, "POST", ts.url+"/api/tables", owner.Token, body, &sum); code != 200 {
		t.Fatalf("create: %d", code)
	}
	reader := dial(t, ts.url, owner)
	reader.send(map[string]any{"type": "watch", "table": sum.ID})
	go func() { // keep reading
		for {
			select {
			case <-reader.in:
			case <-reader.done:
				return
			}
		}
	}()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	const n = 20
	socks := make([]*websocket.Conn, n)
	for i := range socks {
		ws, _, err := rawDial(t, ts.url, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		socks[i] = ws
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		ws.Write(ctx, websocket.MessageText, []byte(`{"type":"watch","table":"`+sum.ID+`"}`))
		ws.Write(ctx, websocket.MessageText, []byte(`{"type":"lobby"}`))
		cancel()
		defer ws.CloseNow()
	}
	waitConnections(t, ts, 2) // the reader and at least one slow socket
	start := time.Now()
	for ts.s.connections.Load() > 1 {
		if time.Since(start) > 15*time.Second {
			t.Fatalf("%d never-reading sockets still open after %v", ts.s.connections.Load()-1, time.Since(start))
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("%d never-reading sockets closed %v after they stopped reading", n, time.Since(start).Round(time.Millisecond))
	// What is still queued is the reading client's backlog (the bots play
	// at full speed), not the closed sockets' queues.
	var live int64
	ts.s.mu.Lock()
	for c := range ts.s.conns {
		c.mu.Lock()
		live += int64(c.bytes)
		c.mu.Unlock()
	}
	ts.s.mu.Unlock()
	if q := ts.s.queuedBytes.Load() - live; q > 64<<10 {
		t.Errorf("%d bytes still queued after the slow sockets closed (besides the reader's %d)", q, live)
	}
	if ts.s.slowKicks.Load() == 0 {
		t.Error("no slow-client disconnection counted")
	}
	select {
	case <-reader.done:
		t.Fatal("the reading client was disconnected too")
	default:
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grow := int64(after.HeapInuse) - int64(before.HeapInuse); grow > 32<<20 {
		t.Errorf("heap grew by %d MiB after %d slow sockets closed", grow>>20, n)
	}
}

// TestLogoutClosesSockets: a socket opened before logout is closed by it,
// and its token no longer works.
func TestLogoutClosesSockets(t *testing.T) {
	ts := startServer(t, t.TempDir(), table.Config{})
	alice := newSession(t, ts.url, "alice")
	c := dial(t, ts.url, alice)
	if code := httpJSON(t, "POST", ts.url+"/api/logout", alice.Token, nil, nil); code != 200 {
		t.Fatalf("logout: %d", code)
	}
	select {
	case <-c.done:
	case <-time.After(5 * time.Second):
		t.Fatal("the socket is still open after logout")
	}
	if _, resp, err := rawDial(t, ts.url, alice.Token, nil); err == nil || resp == nil || resp.StatusCode != 401 {
		t.Fatalf("dial with a revoked token: %v, want 401", err)
	}
}

// TestOriginChecked: a page of another origin cannot open a socket; the
// room's own origin and programs (no Origin) can.
func TestOriginChecked(t *testing.T) {
	ts := startServer(t, t.TempDir(), table.Config{})
	h := http.Header{}
	h.Set("Origin", "http://localhost:9999")
	if _, resp, err := rawDial(t, ts.url, "", h); err == nil || resp == nil || resp.StatusCode != 403 {
		t.Fatalf("foreign origin: %v, want 403", err)
	}
	h.Set("Origin", ts.url)
	ws, _, err := rawDial(t, ts.url, "", h)
	if err != nil {
		t.Fatalf("own origin refused: %v", err)
	}
	ws.CloseNow()
}

// TestPrivateRecords: a finished private game's record and replay need a
// seat, ownership or the invite.
func TestPrivateRecords(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServer(t, t.TempDir(), table.Config{BotDelay: time.Millisecond})
	alice := newSession(t, ts.url, "alice")
	eve := newSession(t, ts.url, "eve")
	c := dial(t, ts.url, alice)
	id := c.createTable(map[string]any{"game": "papayoo", "options": quickOptions("papayoo"), "private": true, "seat": 0,
		"bots": map[string]string{"1": "random", "2": "random", "3": "random"}})
	c.play(id, 1, nil)
	var sum struct {
		Invite string `json:"invite"`
	}
	httpJSON(t, "GET", ts.url+"/api/tables/"+id, alice.Token, nil, &sum)
	if sum.Invite == "" {
		t.Fatal("the owner sees no invite")
	}
	waitFinished(t, ts, id)
	// The history says whether alice won, from the stored winners.
	meta, _ := ts.s.store.Table(context.Background(), id)
	var hist struct {
		Games []struct {
			ID  string `json:"id"`
			Won bool   `json:"won"`
		} `json:"games"`
	}
	httpJSON(t, "GET", ts.url+"/api/history", alice.Token, nil, &hist)
	if len(meta.Winners) == 0 || len(hist.Games) != 1 || hist.Games[0].Won != slices.Contains(meta.Winners, 0) {
		t.Errorf("history %+v for winners %v (alice at seat 0)", hist.Games, meta.Winners)
	}
	for _, p := range []string{"", "/replay?step=3"} {
		u := ts.url + "/api/records/" + id + p
		if code := httpJSON(t, "GET", u, "", nil, new(string)); code != 404 {
			t.Errorf("anonymous GET %s: %d, want 404", p, code)
		}
		if code := httpJSON(t, "GET", u, eve.Token, nil, new(string)); code != 404 {
			t.Errorf("stranger GET %s: %d, want 404", p, code)
		}
		if code := httpJSON(t, "GET", u, alice.Token, nil, new(string)); code != 200 {
			t.Errorf("player GET %s: %d, want 200", p, code)
		}
		sep := "?"
		if strings.Contains(u, "?") {
			sep = "&"
		}
		if code := httpJSON(t, "GET", u+sep+"invite="+sum.Invite, eve.Token, nil, new(string)); code != 200 {
			t.Errorf("GET %s with the invite: %d, want 200", p, code)
		}
	}
}

func waitFinished(t *testing.T, ts *testServer, id string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		m, err := ts.s.store.Table(context.Background(), id)
		if err == nil && m.Status == store.StatusFinished {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("table %s not finished in the store", id)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestQuotas: one player cannot make the room hold without bound: open
// tables, games of bots only and hints are limited per player.
func TestQuotas(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, OpenTablesPerPlayer: 2, BotTablesPerPlayer: 1,
		HintsPerMinute: 2, Table: table.Config{BotDelay: time.Hour}})
	alice := newSession(t, ts.url, "alice")
	var last protocol.ErrorDetail
	create := func(body map[string]any) (int, string) {
		var out struct {
			Error protocol.ErrorDetail `json:"error"`
		}
		code := httpJSON(t, "POST", ts.url+"/api/tables", alice.Token, body, &out)
		last = out.Error
		return code, string(out.Error.Code)
	}
	open := map[string]any{"game": "papayoo", "seat": 0}
	for i := range 2 {
		if code, _ := create(open); code != 200 {
			t.Fatalf("open table %d: %d", i, code)
		}
	}
	if code, ec := create(open); code != 429 || ec != "rate_limited" {
		t.Fatalf("third open table: %d %s, want 429 rate_limited", code, ec)
	}
	if l := last.Limit; l == nil || *l != (protocol.Limit{Name: protocol.LimitOpenTables, Max: 2}) {
		t.Errorf("third open table: limit %+v, want open_tables, max 2", l)
	}
	bots := map[string]any{"game": "papayoo", "bots": map[string]string{"0": "random", "1": "random", "2": "random", "3": "random"}}
	ts.s.cfg.OpenTablesPerPlayer = 100
	if code, _ := create(bots); code != 200 {
		t.Fatalf("first bots-only table: %d", code)
	}
	if code, ec := create(bots); code != 429 || ec != "rate_limited" {
		t.Fatalf("second bots-only table: %d %s, want 429 rate_limited", code, ec)
	}
	if l := last.Limit; l == nil || *l != (protocol.Limit{Name: protocol.LimitBotTables, Max: 1}) {
		t.Errorf("second bots-only table: limit %+v, want bot_tables, max 1", l)
	}
	// Hints: quick play puts alice at seat 0 of a started game.
	var q struct {
		ID string `json:"id"`
	}
	if code := httpJSON(t, "POST", ts.url+"/api/quickplay", alice.Token, map[string]any{"game": "papayoo"}, &q); code != 200 {
		t.Fatalf("quick play: %d", code)
	}
	c := dial(t, ts.url, alice)
	c.send(map[string]any{"type": "watch", "table": q.ID})
	c.expect("state", nil)
	codes := []string{}
	for i := range 3 {
		c.send(map[string]any{"type": "hint", "table": q.ID, "id": i})
		for {
			m := c.next(20 * time.Second)
			if m.str("type") == "hint" || m.str("type") == "error" {
				codes = append(codes, m.str("type")+":"+m.str("code"))
				break
			}
		}
	}
	if codes[2] != "error:rate_limited" || codes[0] == "error:rate_limited" {
		t.Fatalf("hint answers %v, want the third refused rate_limited", codes)
	}
}

// TestHintsPerAddress: hints are bounded per address as well as per
// player (they run on the bot pool beside every table's bots, and guest
// sessions are cheap): two players of one address share its bound.
func TestHintsPerAddress(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, HintsPerMinute: 2, HintsPerIPPerMinute: 3,
		Table: table.Config{BotDelay: time.Hour}})
	hint := func(c *client, table string, id int) string {
		c.send(map[string]any{"type": "hint", "table": table, "id": id})
		for {
			m := c.next(20 * time.Second)
			if m.str("type") == "hint" {
				return "hint"
			}
			if m.str("type") == "error" {
				l, _ := m["limit"].(map[string]any)
				return fmt.Sprintf("%s: %s (%v %v)", m.str("code"), m.str("message"), l["name"], l["max"])
			}
		}
	}
	var got []string
	for _, name := range []string{"alice", "bob"} {
		sess := newSession(t, ts.url, name)
		var q struct {
			ID string `json:"id"`
		}
		if code := httpJSON(t, "POST", ts.url+"/api/quickplay", sess.Token, map[string]any{"game": "papayoo"}, &q); code != 200 {
			t.Fatalf("quick play: %d", code)
		}
		c := dial(t, ts.url, sess)
		c.send(map[string]any{"type": "watch", "table": q.ID})
		c.expect("state", nil)
		got = append(got, hint(c, q.ID, 1), hint(c, q.ID, 2))
	}
	if got[0] != "hint" || got[1] != "hint" || got[2] != "hint" || !strings.Contains(got[3], "rate_limited: ") || !strings.Contains(got[3], "network address") || !strings.HasSuffix(got[3], "(address_hints 3)") {
		t.Errorf("alice's two hints, then bob's: %q; want bob's second refused for the address", got)
	}
}

// TestTablesPerAddress: the tables created from one address are bounded
// whoever created them (guest sessions are cheap): open ones at
// -open-tables-per-ip, unfinished ones at -tables-per-ip, an IPv6 /48 at
// 16 times each; a refusal is 429 rate_limited, counted. And requests at
// the same moment cannot pass the room's table bound together (each
// creation holds its place from the check on).
func TestTablesPerAddress(t *testing.T) {
	needGame(t, "papayoo")
	loopback, _ := ParseTrustedProxies("127.0.0.1/32,::1/128")
	cfg := Config{Rate: 10000, Burst: 10000, OpenTablesPerIP: 3, TablesPerIP: 4, TrustedProxies: loopback,
		Table: table.Config{BotDelay: time.Hour}}
	ts := startServerCfg(t, t.TempDir(), cfg)
	sess := map[string]session{}
	for _, n := range []string{"alice", "bob", "carol"} {
		sess[n] = newSession(t, ts.url, n)
	}
	var limit *protocol.Limit // the last refusal's
	create := func(who, from, path string) protocol.Code {
		var out struct {
			Error protocol.ErrorDetail `json:"error"`
		}
		code := httpJSONFrom(t, from, "POST", ts.url+path, sess[who].Token, map[string]any{"game": "papayoo", "seat": 0}, &out)
		if code != 200 && code != out.Error.Code.HTTPStatus() {
			t.Fatalf("%s from %s: %d %s", who, from, code, out.Error.Code)
		}
		limit = out.Error.Limit
		return out.Error.Code
	}
	const open, quick = "/api/tables", "/api/quickplay"
	for i, c := range []struct {
		who, from, path string
		want            protocol.Code // "": made
	}{
		{"alice", "198.51.100.1", open, ""},
		{"alice", "198.51.100.1", open, ""},
		{"bob", "198.51.100.1", open, ""},
		{"carol", "198.51.100.1", open, protocol.RateLimited}, // three open from .1
		{"carol", "198.51.100.1", quick, protocol.RateLimited},
		{"carol", "198.51.100.2", open, ""},
		{"alice", "198.51.100.3", quick, ""}, // a started game: unfinished, not open
		{"bob", "198.51.100.3", quick, ""},
		{"carol", "198.51.100.3", open, ""},
		{"carol", "198.51.100.3", quick, ""}, // four unfinished from .3
		{"carol", "198.51.100.3", open, protocol.RateLimited},
		{"alice", "198.51.100.3", quick, protocol.RateLimited},
		{"alice", "198.51.100.4", quick, ""},
	} {
		if got := create(c.who, c.from, c.path); got != c.want {
			t.Errorf("%d: %s from %s %s: %q, want %q", i, c.who, c.from, c.path, got, c.want)
		}
		if i == 3 && (limit == nil || *limit != protocol.Limit{Name: protocol.LimitAddressOpenTables, Max: 3}) {
			t.Errorf("%d: limit %+v, want address_open_tables, max 3", i, limit)
		}
		if i == 10 && (limit == nil || *limit != protocol.Limit{Name: protocol.LimitAddressTables, Max: 4}) {
			t.Errorf("%d: limit %+v, want address_tables, max 4", i, limit)
		}
	}
	if n := metricInt(t, ts.url, "cardroom_tables_address_limited_total"); n != 4 {
		t.Errorf("cardroom_tables_address_limited_total = %d, want 4", n)
	}
	// An IPv6 /48 takes 16 × 3 open tables, from any of its /64s.
	ts.s.cfg.OpenTablesPerPlayer, ts.s.cfg.TablesPerPlayer = 100, 100
	for i := range 16 * 3 {
		if got := create("alice", fmt.Sprintf("2001:db8:7:%x::1", i), open); got != "" {
			t.Fatalf("open table %d of the /48: %q", i, got)
		}
	}
	if got := create("bob", "2001:db8:7:ffff::1", open); got != protocol.RateLimited {
		t.Errorf("an open table past the /48's bound: %q, want rate_limited", got)
	}
	if limit == nil || *limit != (protocol.Limit{Name: protocol.LimitAddressOpenTables, Max: 16 * 3}) {
		t.Errorf("past the /48's bound: limit %+v, want address_open_tables, max 48 (the /48's)", limit)
	}
	if got := create("bob", "2001:db8:8::1", open); got != "" {
		t.Errorf("an open table from another /48: %q", got)
	}

	// The room's bound under requests at the same moment: each table takes
	// its store a while to make, as a loaded disk would.
	cfg.MaxTables, cfg.OpenTablesPerPlayer = 10, 100
	cfg.Store = slowCreates{store.NewMemory()}
	ts = startServerCfg(t, t.TempDir(), cfg)
	racer := newSession(t, ts.url, "racer")
	var wg sync.WaitGroup
	codes := make(chan int, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes <- httpJSONFrom(t, fmt.Sprintf("203.0.113.%d", i), "POST", ts.url+open, racer.Token, map[string]any{"game": "papayoo", "seat": 0}, nil)
		}()
	}
	wg.Wait()
	close(codes)
	made := 0
	for c := range codes {
		if c == 200 {
			made++
		}
	}
	ts.s.mu.Lock()
	held := len(ts.s.tables)
	ts.s.mu.Unlock()
	if made != 10 || held != 10 {
		t.Errorf("40 creations at once under a bound of 10: %d made, %d held", made, held)
	}
}

// slowCreates is a store whose new tables take 50 ms to store.
type slowCreates struct{ store.Store }

func (s slowCreates) CreateTable(ctx context.Context, t store.Table) error {
	time.Sleep(50 * time.Millisecond)
	return s.Store.CreateTable(ctx, t)
}

// failingStore fails every write while fail is set (a full disk).
type failingStore struct {
	store.Store
	mu   sync.Mutex
	fail bool
}

var errDiskFull = errors.New("database or disk is full")

func (f *failingStore) failing() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.fail
}
func (f *failingStore) set(v bool) { f.mu.Lock(); f.fail = v; f.mu.Unlock() }

func (f *failingStore) CreateSession(ctx context.Context, s store.Session) error {
	if f.failing() {
		return errDiskFull
	}
	return f.Store.CreateSession(ctx, s)
}
func (f *failingStore) CreateTable(ctx context.Context, t store.Table) error {
	if f.failing() {
		return errDiskFull
	}
	return f.Store.CreateTable(ctx, t)
}
func (f *failingStore) UpdateTable(ctx context.Context, t store.Table) error {
	if f.failing() {
		return errDiskFull
	}
	return f.Store.UpdateTable(ctx, t)
}
func (f *failingStore) Append(ctx context.Context, id string, seq int, e record.Entry) error {
	if f.failing() {
		return errDiskFull
	}
	return f.Store.Append(ctx, id, seq, e)
}

// TestFullDisk: while storage refuses writes, every request that needs
// one fails with a 5xx or unavailable, never a client error, and nothing
// acknowledged is lost: after recovery the log holds exactly the
// acknowledged moves.
func TestFullDisk(t *testing.T) {
	needGame(t, "papayoo")
	dir := t.TempDir()
	sq, err := store.OpenSQLite(filepath.Join(dir, "cardroom.db"))
	if err != nil {
		t.Fatal(err)
	}
	fs := &failingStore{Store: sq}
	ts := startServerCfg(t, dir, Config{Store: fs, Rate: 10000, Burst: 10000, Table: table.Config{BotDelay: time.Hour}})
	alice := newSession(t, ts.url, "alice")
	bob := newSession(t, ts.url, "bob")
	c := dial(t, ts.url, alice)
	id := c.createTable(map[string]any{"game": "papayoo", "options": quickOptions("papayoo"), "seat": 0})
	fs.set(true)
	var out struct {
		Error protocol.ErrorDetail `json:"error"`
	}
	if code := httpJSON(t, "POST", ts.url+"/api/session", "", map[string]string{"name": "carol"}, &out); code != 503 || out.Error.Code != "unavailable" {
		t.Errorf("new session on a full disk: %d %v, want 503 unavailable", code, out.Error)
	}
	if code := httpJSON(t, "POST", ts.url+"/api/tables", alice.Token, map[string]any{"game": "papayoo"}, &out); code != 503 {
		t.Errorf("create on a full disk: %d %v, want 503", code, out.Error)
	}
	cb := dial(t, ts.url, bob)
	cb.send(map[string]any{"type": "join", "table": id, "id": "j"})
	if m := cb.expect("error", nil); m.str("code") != "unavailable" {
		t.Errorf("join on a full disk: %v", m)
	}
	fs.set(false)
	for _, s := range []session{bob} {
		cs := dial(t, ts.url, s)
		cs.send(map[string]any{"type": "join", "table": id, "seat": 1})
		cs.expect("joined", nil)
	}
	c.send(map[string]any{"type": "add_bot", "table": id, "level": "random"})
	st := c.expect("state", func(m msg) bool { return m.str("status") == "playing" && len(m["legal"].([]any)) > 0 })
	// Moves while the disk is full are refused; acknowledged ones are kept.
	fs.set(true)
	mv := st["legal"].([]any)[0].(string)
	c.send(map[string]any{"type": "move", "table": id, "move": mv, "id": "m1"})
	if m := c.expect("error", nil); m.str("code") != "unavailable" {
		t.Fatalf("move on a full disk: %v", m)
	}
	fs.set(false)
	c.send(map[string]any{"type": "move", "table": id, "move": mv, "id": "m2"})
	ack := c.expect("ack", nil)
	ev, err := sq.Events(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(ev) != ack.num("seq") || ev[len(ev)-1].Text != mv {
		t.Fatalf("log has %d steps ending %q; ack seq %d for %q", len(ev), ev[len(ev)-1].Text, ack.num("seq"), mv)
	}
	meta, _ := sq.Table(context.Background(), id)
	if meta.Seats[1].Player != bob.Player || meta.Status != store.StatusPlaying {
		t.Fatalf("stored table %+v: the acknowledged join or start is lost", meta)
	}
}

// storedQuickTables makes n quick-play Papayoo tables of alice in a room
// that is then stopped, and returns its data directory, the tables and
// alice: a stored room for a test to damage.
func storedQuickTables(t *testing.T, n int) (string, []string, session) {
	t.Helper()
	needGame(t, "papayoo")
	dir := t.TempDir()
	ts := startServer(t, dir, table.Config{BotDelay: time.Hour})
	alice := newSession(t, ts.url, "alice")
	var ids []string
	for range n {
		var q struct {
			ID string `json:"id"`
		}
		if code := httpJSON(t, "POST", ts.url+"/api/quickplay", alice.Token, map[string]any{"game": "papayoo"}, &q); code != 200 {
			t.Fatalf("quick play: %d", code)
		}
		ids = append(ids, q.ID)
	}
	ts.stop()
	return dir, ids, alice
}

// TestCorruptTableQuarantined: one table whose log no longer replays (an
// altered event) is quarantined and reported; the rest of the room starts
// and resumes.
func TestCorruptTableQuarantined(t *testing.T) {
	dir, ids, _ := storedQuickTables(t, 2)
	db, err := sql.Open("sqlite", filepath.Join(dir, "cardroom.db"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Exec(`UPDATE events SET text = 'deal nonsense' WHERE table_id = ? AND seq = 0`, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("altered %d events", n)
	}
	db.Close()
	ts2 := startServer(t, dir, table.Config{BotDelay: time.Hour})
	if ts2.s.table(ids[1]) == nil {
		t.Fatal("the healthy table was not restored")
	}
	if ts2.s.table(ids[0]) != nil {
		t.Fatal("the damaged table was restored")
	}
	q := ts2.s.Quarantined()
	if len(q) != 1 || q[0].ID != ids[0] {
		t.Fatalf("quarantined %+v, want %s", q, ids[0])
	}
	var health, metrics string
	if code := httpJSON(t, "GET", ts2.url+"/healthz", "", nil, &health); code != 200 || !strings.Contains(health, ids[0]) {
		t.Errorf("healthz %d %q: want 200 naming %s", code, health, ids[0])
	}
	// Anyone may read /healthz: it names the table and what failed, never
	// the stored event (a deal's text is every hand of a game in play).
	if strings.Contains(health, "nonsense") || !strings.Contains(health, "replay") {
		t.Errorf("healthz %q: want the failed stage (replay) without the event's text", health)
	}
	httpJSON(t, "GET", ts2.url+"/metrics", "", nil, &metrics)
	if !strings.Contains(metrics, "cardroom_tables_quarantined 1") {
		t.Error("metrics do not count the quarantined table")
	}
	// The damaged table is kept for the operator, not deleted.
	if _, err := ts2.s.store.Table(context.Background(), ids[0]); err != nil {
		t.Errorf("the damaged table's row is gone: %v", err)
	}
}

// TestExtraSeatQuarantined: a stored table with a taken seat row past its
// game's seats (no server writes one) is quarantined at the start, and the
// room starts; an empty such row is dropped and the table runs.
func TestExtraSeatQuarantined(t *testing.T) {
	dir, ids, alice := storedQuickTables(t, 2)
	db, err := sql.Open("sqlite", filepath.Join(dir, "cardroom.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range []struct {
		id, player string
	}{{ids[0], alice.Player}, {ids[1], ""}} {
		if _, err := db.Exec(`INSERT INTO seats(table_id, seat, player, name, bot, account) VALUES (?, 9, ?, 'x', '', 0)`, row.id, row.player); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	ts2 := startServer(t, dir, table.Config{BotDelay: time.Hour})
	if q := ts2.s.Quarantined(); len(q) != 1 || q[0].ID != ids[0] {
		t.Fatalf("quarantined %+v, want %s", q, ids[0])
	}
	tb := ts2.s.table(ids[1])
	if tb == nil {
		t.Fatal("the table with an empty extra seat row was not restored")
	}
	if n := len(tb.Summary().Seats); n != 4 {
		t.Errorf("the restored table has %d seats, want 4", n)
	}
}

// TestExpiredSessionsPurged: the server deletes expired sessions
// periodically; a valid one stays.
func TestExpiredSessionsPurged(t *testing.T) {
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, SessionPurgeEvery: 20 * time.Millisecond})
	alice := newSession(t, ts.url, "alice")
	old := time.Now().Add(-time.Hour)
	if err := ts.s.store.CreateSession(context.Background(), store.Session{TokenHash: "h_old", Player: "p_old", Name: "old",
		Created: old.Add(-SessionTTL), Expires: old}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := ts.s.store.Session(context.Background(), "h_old")
		if errors.Is(err, store.ErrNotFound) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the expired session is still stored: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if code := httpJSON(t, "GET", ts.url+"/api/session", alice.Token, nil, nil); code != 200 {
		t.Errorf("a valid session was purged too: %d", code)
	}
	if ts.s.sessionsPurged.Load() < 1 {
		t.Error("the purge was not counted")
	}
}

// TestStalledWriteDropped: with the queue bounds and pings out of the way,
// a socket whose write stalls (the peer stopped reading and its buffers are
// full) is dropped by the write watchdog soon after the write timeout.
func TestStalledWriteDropped(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000,
		WriteTimeout: 300 * time.Millisecond, PingInterval: time.Hour, OutQueue: -1, OutQueueBytes: -1,
		Table: table.Config{BotDelay: 0}})
	owner := newSession(t, ts.url, "owner")
	var sum struct {
		ID string `json:"id"`
	}
	body := map[string]any{"game": "papayoo", "options": map[string]string{"rounds": "100"},
		"bots": map[string]string{"0": "random", "1": "random", "2": "random", "3": "random"}}
	if code := httpJSON(t, "POST", ts.url+"/api/tables", owner.Token, body, &sum); code != 200 {
		t.Fatalf("create: %d", code)
	}
	ws, _, err := rawDial(t, ts.url, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	ws.Write(ctx, websocket.MessageText, []byte(`{"type":"watch","table":"`+sum.ID+`"}`))
	cancel()
	waitConnections(t, ts, 1) // the server counts the socket just after the upgrade
	start := time.Now()
	for ts.s.connections.Load() > 0 {
		if time.Since(start) > 20*time.Second {
			t.Fatal("a socket whose writes stall is still open after 20 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if ts.s.slowKicks.Load() == 0 {
		t.Error("the stalled write was not counted as a slow client")
	}
	t.Logf("dropped %v after it stopped reading", time.Since(start).Round(time.Millisecond))
}

// waitConnections waits until the server counts at least n sockets: it
// counts one just after the upgrade's answer, which the client may read
// first.
func waitConnections(t *testing.T, ts *testServer, n int64) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ts.s.connections.Load() < n; {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections counted, want %d", ts.s.connections.Load(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestWatchBound: one connection watches at most MaxWatches tables at
// once; a further watch, join or creation is refused rate_limited (and
// counted) and changes nothing, a table it watches already may be watched
// again, and an unwatch makes room.
func TestWatchBound(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, MaxWatches: 2, Table: table.Config{BotDelay: time.Hour}})
	bob := newSession(t, ts.url, "bob")
	var ids []string
	for range 3 {
		var out struct {
			ID string `json:"id"`
		}
		if code := httpJSON(t, "POST", ts.url+"/api/tables", bob.Token, map[string]any{"game": "papayoo", "seat": 0}, &out); code != 200 {
			t.Fatalf("create: %d", code)
		}
		ids = append(ids, out.ID)
	}
	c := dial(t, ts.url, newSession(t, ts.url, "alice"))
	answer := func(req map[string]any) msg {
		t.Helper()
		c.send(req)
		for {
			m := c.next(10 * time.Second)
			switch m.str("type") {
			case "state", "error", "created", "joined":
				if m.str("type") == "joined" {
					continue // its state follows
				}
				return m
			}
		}
	}
	for _, id := range ids[:2] {
		if m := answer(map[string]any{"type": "watch", "table": id}); m.str("type") != "state" {
			t.Fatalf("watch %s: %v", id, m)
		}
	}
	refused := func(what string, req map[string]any) {
		t.Helper()
		m := answer(req)
		if m.str("type") != "error" || m.str("code") != "rate_limited" {
			t.Fatalf("%s at the bound: %v, want error rate_limited", what, m)
		}
	}
	refused("a third watch", map[string]any{"type": "watch", "table": ids[2]})
	refused("a join", map[string]any{"type": "join", "table": ids[2], "id": "j"})
	refused("a creation", map[string]any{"type": "create", "id": "c", "game": "papayoo", "seat": 0})
	if sum := ts.s.table(ids[2]).Summary(); sum.Humans != 1 {
		t.Errorf("the refused join took a seat: %d people at the table", sum.Humans)
	}
	if m := answer(map[string]any{"type": "watch", "table": ids[0]}); m.str("type") != "state" {
		t.Errorf("watching a watched table again: %v", m)
	}
	if !strings.Contains(metricsText(t, ts.url), "cardroom_watch_refused_total 3\n") {
		t.Errorf("metrics lack cardroom_watch_refused_total 3")
	}
	c.send(map[string]any{"type": "unwatch", "table": ids[0]})
	if m := answer(map[string]any{"type": "watch", "table": ids[2]}); m.str("type") != "state" {
		t.Errorf("a watch after an unwatch: %v", m)
	}
}

// TestStoreFull: past -max-db-mib (MaxStoreBytes) the room refuses new
// tables and tournaments (busy, counted) while a game under way plays on,
// and /metrics says how big the database is.
func TestStoreFull(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, Table: table.Config{BotDelay: time.Hour}})
	alice := newSession(t, ts.url, "alice")
	var q struct {
		ID string `json:"id"`
	}
	if code := httpJSON(t, "POST", ts.url+"/api/quickplay", alice.Token, map[string]any{"game": "papayoo"}, &q); code != 200 {
		t.Fatalf("quick play: %d", code)
	}
	size := metricInt(t, ts.url, "cardroom_store_db_bytes") + metricInt(t, ts.url, "cardroom_store_wal_bytes")
	if size <= 0 {
		t.Fatalf("cardroom_store_db_bytes + wal: %d", size)
	}
	ts.s.cfg.MaxStoreBytes = int64(size) // full now
	var e protocol.ErrorBody
	if code := httpJSON(t, "POST", ts.url+"/api/tables", alice.Token, map[string]any{"game": "papayoo", "seat": 0}, &e); code != 503 || e.Error.Code != protocol.Busy {
		t.Errorf("a table past the bound: %d %s, want 503 busy", code, e.Error.Code)
	}
	tour := protocol.TournamentCreate{Game: "papayoo", Deals: 1, MaxEntrants: 1, DealMinutes: 30}
	if code := httpJSON(t, "POST", ts.url+"/api/tournaments", alice.Token, tour, &e); code != 503 || e.Error.Code != protocol.Busy {
		t.Errorf("a tournament past the bound: %d %s, want 503 busy", code, e.Error.Code)
	}
	if n := metricInt(t, ts.url, "cardroom_store_full_refusals_total"); n != 2 {
		t.Errorf("cardroom_store_full_refusals_total = %d, want 2", n)
	}
	// The game under way plays on: alice's move is taken.
	c := dial(t, ts.url, alice)
	c.send(map[string]any{"type": "watch", "table": q.ID})
	st := c.expect("state", nil)
	legal, _ := st["legal"].([]any)
	if len(legal) == 0 {
		t.Fatalf("no legal move for alice: %v", st)
	}
	c.send(map[string]any{"type": "move", "table": q.ID, "id": 1, "move": legal[0]})
	c.expect("ack", nil)
}

// TestRecovered: a panic in the handling of one input, recovered by the
// deferred recovered (as a message's reader, a relayed command, a hint and
// an analysis do), is reported, counted in /metrics, and the room serves
// on; no panic reports nothing.
func TestRecovered(t *testing.T) {
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000})
	handle := func(bug bool) (had bool) {
		defer func() { had = ts.s.recovered(recover(), "a test's input") }()
		if bug {
			panic("a bug")
		}
		return false
	}
	if handle(false) {
		t.Error("recovered reported a panic where there was none")
	}
	if !handle(true) {
		t.Error("recovered did not report the panic")
	}
	if n := metricInt(t, ts.url, "cardroom_panics_total"); n != 1 {
		t.Errorf("cardroom_panics_total = %d, want 1", n)
	}
	c := dial(t, ts.url, newSession(t, ts.url, "alice"))
	c.send(map[string]any{"type": "ping"})
	c.expect("pong", nil)
}
