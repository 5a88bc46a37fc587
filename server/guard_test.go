package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/store"
	"cardroom/table"

	"cardroom/protocol"
)

// memServer is a server on the memory store reached through Handler (no
// listener): for what does not need real connections.
func memServer(t testing.TB, cfg Config) *Server {
	t.Helper()
	cfg.Store, cfg.Log = store.NewMemory(), quietLog()
	if cfg.Table.Grace == 0 {
		cfg.Table.Grace = time.Hour
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Shutdown(context.Background()) })
	return s
}

// do sends one request through the handler from the address from.
// operator is an address of the room's operator: /metrics answers it
// (DefaultMetricsFrom).
const operator = "127.0.0.1:9"

func do(s *Server, method, path, from, token, body string) *httptest.ResponseRecorder {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, rd)
	req.RemoteAddr = from
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, req)
	return w
}

// errCode is the code of a writeErr body, or "" if the body is not one.
func errCode(b []byte) string {
	var e protocol.ErrorBody
	if json.Unmarshal(b, &e) != nil {
		return ""
	}
	return string(e.Error.Code)
}

// closedWithin reads c until the server closes it, failing if that takes
// longer than d.
func closedWithin(t *testing.T, c net.Conn, d time.Duration, what string) {
	t.Helper()
	start := time.Now()
	c.SetReadDeadline(start.Add(d))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Errorf("%s: connection still open after %v", what, time.Since(start).Round(time.Millisecond))
	}
}

// TestSlowClients: a client that sends its headers a byte at a time, one
// that never finishes its body, and an idle keep-alive connection are each
// closed by the server within the configured timeouts (well within the
// generous bound of the test).
func TestSlowClients(t *testing.T) {
	ts := startServerCfg(t, t.TempDir(), Config{HTTPReadHeaderTimeout: 200 * time.Millisecond,
		HTTPReadTimeout: 400 * time.Millisecond, HTTPWriteTimeout: 2 * time.Second, HTTPIdleTimeout: 300 * time.Millisecond})
	addr := strings.TrimPrefix(ts.url, "http://")
	dial := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}

	// Slowloris: headers a byte every 50 ms, never finished.
	c := dial()
	go func(c net.Conn) {
		io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n")
		for i := 0; i < 200; i++ {
			if _, err := io.WriteString(c, "X"); err != nil {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}(c)
	closedWithin(t, c, 5*time.Second, "slow headers")

	// A body announced and never sent: the handler's read fails at the
	// read timeout and the connection ends.
	c = dial()
	io.WriteString(c, "POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"name\":")
	closedWithin(t, c, 5*time.Second, "unfinished body")

	// An idle keep-alive connection after one answer.
	c = dial()
	io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != 200 || resp.Close {
		t.Fatalf("keep-alive request: %v %v", resp, err)
	}
	resp.Body.Close()
	closedWithin(t, c, 5*time.Second, "idle keep-alive")

	// Large headers are refused (431), within MaxHeaderBytes' default.
	req, _ := http.NewRequest("GET", ts.url+"/healthz", nil)
	req.Header.Set("X-Big", strings.Repeat("a", 2*DefaultMaxHeaderBytes))
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("%d KiB of headers: %v %v, want 431", 2*DefaultMaxHeaderBytes>>10, resp, err)
	}
}

// TestWebSocketOutlivesHTTPTimeouts: a socket stays usable long after the
// HTTP read and write timeouts (handleWS clears them).
func TestWebSocketOutlivesHTTPTimeouts(t *testing.T) {
	ts := startServerCfg(t, t.TempDir(), Config{HTTPReadHeaderTimeout: 100 * time.Millisecond,
		HTTPReadTimeout: 150 * time.Millisecond, HTTPWriteTimeout: 150 * time.Millisecond, HTTPIdleTimeout: 150 * time.Millisecond})
	c := dial(t, ts.url, newSession(t, ts.url, "patient"))
	time.Sleep(600 * time.Millisecond)
	c.send(map[string]any{"type": "ping", "id": "late"})
	if m := c.expect("pong", nil); m.str("id") != "late" {
		t.Errorf("pong %v", m)
	}
}

// TestConnsPerIP: the connection over MaxConnsPerIP from one address is
// closed at once; once some are closed, new ones are accepted again.
func TestConnsPerIP(t *testing.T) {
	const max = 3
	ts := startServerCfg(t, t.TempDir(), Config{MaxConnsPerIP: max})
	addr := strings.TrimPrefix(ts.url, "http://")
	// open dials and checks the server answers on the connection.
	open := func() (net.Conn, error) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return nil, err
		}
		c.SetDeadline(time.Now().Add(2 * time.Second))
		io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			c.Close()
			return nil, err
		}
		resp.Body.Close()
		c.SetDeadline(time.Time{})
		return c, nil
	}
	var conns []net.Conn
	for i := 0; i < max; i++ {
		c, err := open()
		if err != nil {
			t.Fatalf("connection %d of %d: %v", i+1, max, err)
		}
		conns = append(conns, c)
	}
	extra, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(extra, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	extra.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, err := extra.Read(make([]byte, 1))
	var ne net.Error
	if n > 0 || err == nil || errors.As(err, &ne) && ne.Timeout() {
		t.Errorf("connection %d: read %d bytes, %v; want it closed without an answer", max+1, n, err)
	}
	extra.Close()
	if refused, _ := ts.s.guardStats(); refused < 1 {
		t.Errorf("guardStats: %d connections refused, want ≥ 1", refused)
	}
	// Close two: the server notices (EOF) and gives their slots back.
	conns[0].Close()
	conns[1].Close()
	var again []net.Conn
	deadline := time.Now().Add(5 * time.Second)
	for len(again) < 2 && time.Now().Before(deadline) {
		if c, err := open(); err == nil {
			again = append(again, c)
		} else {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if len(again) < 2 {
		t.Fatalf("after closing 2 of %d connections, %d new ones accepted, want 2", max, len(again))
	}
	for _, c := range append(conns[2:], again...) {
		c.Close()
	}
}

// TestCapConnReleasedOnce: closing a connection several times gives back
// one slot, and the count of an address drops to zero (its key deleted).
func TestCapConnReleasedOnce(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer inner.Close()
	g := &guard{maxConns: 2}
	l := g.listener(inner).(*capListener)
	for i := 0; i < 2; i++ {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	a, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	key := addrKey(a.RemoteAddr().String())
	if n := l.count(key); n != 2 {
		t.Fatalf("open from %s: %d, want 2", key, n)
	}
	for i := 0; i < 3; i++ {
		a.Close()
	}
	if n := l.count(key); n != 1 {
		t.Errorf("after closing one connection three times: %d open, want 1", n)
	}
	b.Close()
	l.mu.Lock()
	left := len(l.open)
	l.mu.Unlock()
	if left != 0 {
		t.Errorf("after closing both: %d keys left, want 0", left)
	}
}

// TestTCPConnectionsGauge: the listener counts the connections open
// (cardroom_tcp_connections), capped or not, and a connection closed
// several times is counted down once.
func TestTCPConnectionsGauge(t *testing.T) {
	for _, max := range []int{0, 4} {
		g := &guard{maxConns: max}
		l := g.listener(&addrListener{addrs: []string{"192.0.2.1:1", "192.0.2.1:2", "192.0.2.9:1"}})
		var conns []net.Conn
		for range 3 {
			c, err := l.Accept()
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
		}
		if n := g.tcpOpen.Load(); n != 3 {
			t.Errorf("cap %d: %d open, want 3", max, n)
		}
		conns[0].Close()
		conns[0].Close()
		if n := g.tcpOpen.Load(); n != 2 {
			t.Errorf("cap %d: %d open after one closed twice, want 2", max, n)
		}
		conns[1].Close()
		conns[2].Close()
		if n := g.tcpOpen.Load(); n != 0 {
			t.Errorf("cap %d: %d open after all closed, want 0", max, n)
		}
	}
}

// addrListener hands out one end of a pipe for each remote address of
// its list, as if that address had connected.
type addrListener struct {
	net.Listener // nil: only Accept is used
	addrs        []string
}

type addrConn struct {
	net.Conn
	remote net.Addr
}

func (c addrConn) RemoteAddr() net.Addr { return c.remote }

func (l *addrListener) Accept() (net.Conn, error) {
	if len(l.addrs) == 0 {
		return nil, net.ErrClosed
	}
	a := l.addrs[0]
	l.addrs = l.addrs[1:]
	c, _ := net.Pipe()
	return addrConn{Conn: c, remote: net.TCPAddrFromAddrPort(netip.MustParseAddrPort(a))}, nil
}

// TestConnCapPerNet: an IPv6 /48 holds at most netShare times the
// per-address cap of connections, however many of its /64s they come
// from, and another /48 is not affected (its holder has 65,536 /64s: one
// /48 filled -max-connections before).
func TestConnCapPerNet(t *testing.T) {
	const perAddr = 2
	var addrs []string
	for i := range netShare * perAddr {
		addrs = append(addrs, fmt.Sprintf("[2001:db8:7:%x::1]:4000", i)) // a /64 each
	}
	addrs = append(addrs, "[2001:db8:7:ffff::1]:4000", "[2001:db8:8::1]:4000")
	g := &guard{maxConns: perAddr}
	l := g.listener(&addrListener{addrs: addrs}).(*capListener)
	var got []string
	for {
		c, err := l.Accept()
		if err != nil {
			break
		}
		got = append(got, c.RemoteAddr().String())
	}
	if len(got) != netShare*perAddr+1 || got[len(got)-1] != "[2001:db8:8::1]:4000" {
		t.Errorf("accepted %d (the last %s), want the /48's %d and the other /48's one", len(got), got[len(got)-1], netShare*perAddr)
	}
	if n := g.connsRefused.Load(); n != 1 {
		t.Errorf("refused %d, want 1", n)
	}
	if n := l.count("2001:db8:7::/48"); n != netShare*perAddr {
		t.Errorf("the /48 holds %d, want %d", n, netShare*perAddr)
	}
}

// TestAddrKey: IPv6 addresses are limited by /64, IPv4-mapped ones as
// IPv4.
func TestAddrKey(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.1:443":          "192.0.2.1",
		"[::ffff:192.0.2.1]:80":  "192.0.2.1",
		"[2001:db8::1]:80":       "2001:db8::/64",
		"[2001:db8::ffff:1]:81":  "2001:db8::/64",
		"[2001:db8:0:1::1]:80":   "2001:db8:0:1::/64",
		"[fe80::1%eth0]:80":      "fe80::/64",
		"192.0.2.9":              "192.0.2.9",
		"pipe":                   "pipe",
		"[2001:db8:1:2:3::]:123": "2001:db8:1:2::/64",
	} {
		if got := addrKey(in); got != want {
			t.Errorf("addrKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAPIRateLimit: requests to /api/ over the per-address bucket get 429
// rate_limited with Retry-After; other addresses, static files, /healthz
// and /metrics are not limited.
func TestAPIRateLimit(t *testing.T) {
	s := memServer(t, Config{HTTPRate: 0.5, HTTPBurst: 3})
	const a, b = "198.51.100.7:1111", "198.51.100.8:2222"
	for i := 0; i < 3; i++ {
		if w := do(s, "GET", "/api/games", a, "", ""); w.Code != 200 {
			t.Fatalf("request %d within the burst: %d %s", i+1, w.Code, w.Body)
		}
	}
	w := do(s, "GET", "/api/tables", a, "", "")
	if w.Code != http.StatusTooManyRequests || errCode(w.Body.Bytes()) != "rate_limited" || w.Header().Get("Content-Type") != "application/json" {
		t.Errorf("over the burst: %d %q %s", w.Code, w.Header().Get("Content-Type"), w.Body)
	}
	ra, err := strconv.Atoi(w.Header().Get("Retry-After"))
	if err != nil || ra < 1 || ra > 3 {
		t.Errorf("Retry-After %q, want 1 to 3 s at 0.5 a second", w.Header().Get("Retry-After"))
	}
	var body protocol.ErrorBody
	json.Unmarshal(w.Body.Bytes(), &body)
	if l := body.Error.Limit; l == nil || *l != (protocol.Limit{Name: protocol.LimitRequests, Max: 0.5, Burst: 3, Retry: ra}) {
		t.Errorf("limit %+v, want requests, 0.5 a second, burst 3, retry as Retry-After (%d)", l, ra)
	}
	if w := do(s, "POST", "/api/session", a, "", `{"name":"x"}`); w.Code != http.StatusTooManyRequests {
		t.Errorf("POST /api/session over the rate: %d", w.Code)
	}
	if w := do(s, "GET", "/api/games", b, "", ""); w.Code != 200 {
		t.Errorf("another address: %d", w.Code)
	}
	for _, p := range []string{"/", "/js/main.js", "/healthz"} {
		for i := 0; i < 5; i++ {
			if w := do(s, "GET", p, a, "", ""); w.Code != 200 {
				t.Errorf("GET %s from a limited address: %d", p, w.Code)
			}
		}
	}
	if _, limited := s.guardStats(); limited != 2 {
		t.Errorf("guardStats: %d rate limited, want 2", limited)
	}
	// The defaults are on (20 a second, burst 60), and -1 switches it off.
	s = memServer(t, Config{})
	codes := map[int]int{}
	for i := 0; i < 200; i++ {
		codes[do(s, "GET", "/api/games", a, "", "").Code]++
	}
	if codes[200] < DefaultHTTPBurst || codes[200] > DefaultHTTPBurst+20 || codes[429] == 0 {
		t.Errorf("200 requests at the default rate: %v", codes)
	}
	s = memServer(t, Config{HTTPRate: -1})
	for i := 0; i < 200; i++ {
		if w := do(s, "GET", "/api/games", a, "", ""); w.Code != 200 {
			t.Fatalf("rate off: request %d: %d", i, w.Code)
		}
	}
}

// TestRateLimiterBounded: an attacker rotating addresses does not grow
// the map of buckets beyond its bound.
func TestRateLimiterBounded(t *testing.T) {
	s := memServer(t, Config{HTTPRate: 1, HTTPBurst: 5})
	api := s.guard.api.addr
	if api.maxKeys > 100_000 {
		t.Errorf("bound %d", api.maxKeys)
	}
	api.maxKeys = 500
	for i := 0; i < 5000; i++ {
		do(s, "GET", "/api/games", fmt.Sprintf("10.%d.%d.%d:1", i>>16&255, i>>8&255, i&255), "", "")
	}
	if n := api.size(); n > 500 {
		t.Errorf("%d buckets after 5000 addresses, bound 500", n)
	}
	// IPv6 rotation inside one /64 is one address.
	s = memServer(t, Config{HTTPRate: 1, HTTPBurst: 5})
	codes := map[int]int{}
	for i := 0; i < 20; i++ {
		codes[do(s, "GET", "/api/games", fmt.Sprintf("[2001:db8::%x]:1", i+1), "", "").Code]++
	}
	if codes[200] != 5 || s.guard.api.addr.size() != 1 || s.guard.api.net.size() != 1 {
		t.Errorf("20 addresses of one /64: %v, %d buckets, %d of /48s", codes, s.guard.api.addr.size(), s.guard.api.net.size())
	}
	// Rotation through the /64s of one /48 is held by the /48's bucket,
	// netShare times the address's: 16 × 5 requests at once, not 5 a /64.
	s = memServer(t, Config{HTTPRate: 1, HTTPBurst: 5})
	codes = map[int]int{}
	var last *httptest.ResponseRecorder
	for i := 0; i < 200; i++ {
		last = do(s, "GET", "/api/games", fmt.Sprintf("[2001:db8:0:%x::1]:1", i+1), "", "")
		codes[last.Code]++
	}
	if codes[200] < 5*netShare || codes[200] > 5*netShare+2 {
		t.Errorf("200 /64s of one /48, 5 requests a burst each: %v; want about %d accepted (the /48's burst)", codes, 5*netShare)
	}
	var out protocol.ErrorBody
	json.Unmarshal(last.Body.Bytes(), &out)
	if l := out.Error.Limit; l == nil || l.Name != protocol.LimitRequests || l.Max != netShare || l.Burst != 5*netShare {
		t.Errorf("the /48's refusal: limit %+v; want requests, max %d, burst %d", l, netShare, 5*netShare)
	}
}

// TestSessionQuota: one address cannot create 20,000 sessions in a few
// seconds: past SessionsPerIPPerHour (default 60) it gets 429
// rate_limited, even with the API rate off; another address still can.
func TestSessionQuota(t *testing.T) {
	s := memServer(t, Config{HTTPRate: -1})
	const a = "203.0.113.5:4000"
	codes := map[int]int{}
	start := time.Now()
	var last *httptest.ResponseRecorder
	for i := 0; i < 20000 && time.Since(start) < 3*time.Second; i++ {
		last = do(s, "POST", "/api/session", a, "", `{"name":"guest"}`)
		codes[last.Code]++
	}
	if codes[200] < DefaultSessionsPerIPPerHour || codes[200] > DefaultSessionsPerIPPerHour+1 || codes[429] == 0 {
		t.Errorf("sessions from one address in 3 s: %v, want %d accepted", codes, DefaultSessionsPerIPPerHour)
	}
	if errCode(last.Body.Bytes()) != "rate_limited" || last.Header().Get("Retry-After") == "" {
		t.Errorf("refusal: %s, Retry-After %q", last.Body, last.Header().Get("Retry-After"))
	}
	if ra, _ := strconv.Atoi(last.Header().Get("Retry-After")); ra < 30 || ra > 60 {
		t.Errorf("Retry-After %d s, want about a minute (60 an hour)", ra)
	}
	if w := do(s, "POST", "/api/session", "203.0.113.6:4000", "", `{"name":"guest"}`); w.Code != 200 {
		t.Errorf("another address: %d %s", w.Code, w.Body)
	}
	// A smaller quota, and the quota off.
	s = memServer(t, Config{SessionsPerIPPerHour: 3})
	for i := 0; i < 4; i++ {
		w := do(s, "POST", "/api/session", a, "", `{"name":"guest"}`)
		if want := map[bool]int{true: 200, false: 429}[i < 3]; w.Code != want {
			t.Errorf("quota 3, session %d: %d, want %d", i+1, w.Code, want)
		}
	}
	s = memServer(t, Config{SessionsPerIPPerHour: -1, HTTPRate: -1})
	for i := 0; i < 100; i++ {
		if w := do(s, "POST", "/api/session", a, "", `{"name":"guest"}`); w.Code != 200 {
			t.Fatalf("quota off, session %d: %d", i+1, w.Code)
		}
	}
}

// TestIPv6NetQuota: the per-address quotas of lasting things (here guest
// sessions) key IPv6 by /64, and a whole /48 gets netShare (16) times the
// quota, so rotating through the /64s of a /48 buys 16 quotas, not 65,536;
// a request its /64 refuses costs the /48 nothing; IPv4 has no wider
// bucket (a /24 is many unrelated people).
func TestIPv6NetQuota(t *testing.T) {
	s := memServer(t, Config{SessionsPerIPPerHour: 2, HTTPRate: -1})
	session := func(from string) int { return do(s, "POST", "/api/session", from, "", `{"name":"guest"}`).Code }
	accepted := func(from []string) (n int) {
		for _, a := range from {
			if session(a) == 200 {
				n++
			}
		}
		return n
	}
	var first, rest, v4 []string
	for range 5 {
		first = append(first, "[2001:db8:aa:1::1]:4000")
	}
	for i := 2; i <= 40; i++ {
		rest = append(rest, fmt.Sprintf("[2001:db8:aa:%x::%x]:4000", i, i), fmt.Sprintf("[2001:db8:aa:%x::%x]:4000", i, i+1))
		v4 = append(v4, fmt.Sprintf("203.0.113.%d:4000", i), fmt.Sprintf("203.0.113.%d:4001", i))
	}
	// A refusal names the bound that was reached: the /64's, or the
	// /48's (netShare times it).
	limitOf := func(from string) *protocol.Limit {
		var out protocol.ErrorBody
		json.Unmarshal(do(s, "POST", "/api/session", from, "", `{"name":"guest"}`).Body.Bytes(), &out)
		return out.Error.Limit
	}
	if n := accepted(first); n != 2 {
		t.Errorf("one /64: %d sessions of 5, want its quota, 2", n)
	}
	if l := limitOf("[2001:db8:aa:1::1]:4000"); l == nil || l.Name != protocol.LimitSessions || l.Max != 2 {
		t.Errorf("the /64's refusal: limit %+v, want sessions, max 2", l)
	}
	if n := accepted(rest); n != 2*netShare-2 {
		t.Errorf("39 more /64s of the /48: %d sessions, want %d (the /48's %d less the first /64's 2)", n, 2*netShare-2, 2*netShare)
	}
	if l := limitOf("[2001:db8:aa:ff::1]:4000"); l == nil || l.Name != protocol.LimitSessions || l.Max != 2*netShare {
		t.Errorf("the /48's refusal of a fresh /64: limit %+v, want sessions, max %d", l, 2*netShare)
	}
	if c := session("[2001:db8:bb::1]:4000"); c != 200 {
		t.Errorf("another /48: %d, want 200", c)
	}
	if n := accepted(v4); n != len(v4) {
		t.Errorf("39 IPv4 addresses of one /24, 2 each: %d of %d accepted", n, len(v4))
	}
}

// TestHardeningHeaders: every answer carries the browser hardening
// headers, directories other than / are not listed, files are served.
func TestHardeningHeaders(t *testing.T) {
	s := memServer(t, Config{})
	want := map[string]string{
		"Content-Security-Policy":    contentSecurityPolicy,
		"X-Content-Type-Options":     "nosniff",
		"X-Frame-Options":            "DENY",
		"Referrer-Policy":            "same-origin",
		"Cross-Origin-Opener-Policy": "same-origin",
	}
	for _, c := range []struct {
		method, path string
		code         int
	}{
		{"GET", "/", 200}, {"GET", "/js/main.js", 200}, {"GET", "/css/app.css", 200}, {"GET", "/api/games", 200},
		{"GET", "/api/tables", 200}, {"GET", "/healthz", 200}, {"GET", "/metrics", 403}, {"GET", "/nope.txt", 404},
		{"GET", "/api/tables/t_nope", 404}, {"GET", "/api/session", 401}, {"DELETE", "/api/tables", 405},
		{"GET", "/js/", 404}, {"GET", "/js", 404}, {"GET", "/css/", 404}, {"GET", "/i18n/", 404}, {"GET", "/i18n", 404},
	} {
		w := do(s, c.method, c.path, "192.0.2.10:1", "", "")
		if w.Code != c.code {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, w.Code, c.code)
		}
		for k, v := range want {
			if got := w.Header().Get(k); got != v {
				t.Errorf("%s %s: %s %q, want %q", c.method, c.path, k, got, v)
			}
		}
		if c.code == 404 && bytes.Contains(w.Body.Bytes(), []byte(".js")) {
			t.Errorf("%s %s lists files: %s", c.method, c.path, w.Body)
		}
	}
	if w := do(s, "GET", "/", "192.0.2.10:1", "", ""); !bytes.Contains(w.Body.Bytes(), []byte(`<script type="module" src="js/main.js">`)) {
		t.Errorf("GET / is not the client: %.200s", w.Body)
	}
	if w := do(s, "GET", "/js/main.js", "192.0.2.10:1", "", ""); !strings.Contains(w.Header().Get("Content-Type"), "javascript") {
		t.Errorf("main.js served as %q", w.Header().Get("Content-Type"))
	}
	if strings.Contains(contentSecurityPolicy, "unsafe") {
		t.Errorf("the CSP allows unsafe sources: %s", contentSecurityPolicy)
	}
}

// TestClientFitsCSP: the client has nothing the CSP would refuse: no
// inline script or style in index.html, no markup with style attributes
// or event handlers built from strings in the scripts (the e2e tests
// also fail on any violation the browser reports).
func TestClientFitsCSP(t *testing.T) {
	s := memServer(t, Config{})
	err := fs.WalkDir(s.cfg.Assets, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(s.cfg.Assets, p)
		if err != nil {
			return err
		}
		src := string(b)
		switch {
		case strings.HasSuffix(p, ".html"):
			for _, bad := range []string{"<style", " style=", " onclick=", " onload=", "javascript:"} {
				if strings.Contains(src, bad) {
					t.Errorf("%s: %q (refused by the CSP)", p, bad)
				}
			}
			if strings.Count(src, "<script") != strings.Count(src, "<script type=\"module\" src=") {
				t.Errorf("%s: an inline script (refused by the CSP)", p)
			}
		case strings.HasSuffix(p, ".js"):
			for _, bad := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "setAttribute('style'", "style=", "eval(", "new Function"} {
				if strings.Contains(src, bad) {
					t.Errorf("%s: %q (refused by the CSP)", p, bad)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// dom.js sets styles through the CSSOM: the client passes style:
	// attributes to h(), which must not turn them into markup.
	dom, _ := fs.ReadFile(s.cfg.Assets, "js/dom.js")
	if !strings.Contains(string(dom), "e.style.cssText = v") {
		t.Error("dom.js: h() no longer sets style through the CSSOM")
	}
}

// ---- the lobby's cached encoding ----

// fillLobby publishes n fake public tables.
func fillLobby(s *Server, n int) {
	o, _ := game.ParseOptions("players=4 rounds=1 first_dealer=random tie_break=shared")
	t0 := time.Date(2026, 11, 29, 15, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		status := store.StatusOpen
		if i%3 == 0 {
			status = store.StatusPlaying
		}
		s.lobby.update(&table.Summary{ID: fmt.Sprintf("t_%06d", i), Game: "papayoo", Options: o, ClockMS: 30000, BotLevel: "random",
			Status: status, Owner: "p_owner", Created: t0.Add(time.Duration(i) * time.Second), Humans: 1, Bots: 2, Free: 1,
			Seats: []table.SeatInfo{{Seat: 0, Name: "alice", Kind: "human", Player: "p_owner", Connected: true},
				{Seat: 1, Name: "bot:random", Kind: "bot", Level: "random", Connected: true},
				{Seat: 2, Name: "bot:random", Kind: "bot", Level: "random", Connected: true}, {Seat: 3, Kind: "empty"}}})
	}
}

// TestLobbyCache: GET /api/tables answers what the old handler wrote,
// encodes the list once while nothing changes, and shows a change within
// lobbyEvery (or so).
func TestLobbyCache(t *testing.T) {
	s := memServer(t, Config{HTTPRate: -1})
	fillLobby(s, 30)
	w := do(s, "GET", "/api/tables", "192.0.2.1:1", "", "")
	old := httptest.NewRecorder()
	writeJSON(old, 200, map[string]any{"tables": s.lobby.list()})
	if w.Code != 200 || w.Body.String() != old.Body.String() || w.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("cached lobby differs from the encoded list: %d %q\n%.300s\n%.300s", w.Code, w.Header().Get("Content-Type"), w.Body, old.Body)
	}
	c := s.lobby.cache
	for i := 0; i < 10; i++ {
		do(s, "GET", "/api/tables", "192.0.2.1:1", "", "")
	}
	if s.lobby.cache != c {
		t.Error("the lobby was encoded again without a change")
	}
	var ws struct {
		Type   string          `json:"type"`
		Tables []table.Summary `json:"tables"`
	}
	if err := json.Unmarshal(s.lobby.message(), &ws); err != nil || ws.Type != "lobby" || len(ws.Tables) != 30 {
		t.Errorf("lobby message: %v %s %d", err, ws.Type, len(ws.Tables))
	}
	fillLobby(s, 31) // one more table
	deadline := time.Now().Add(3 * time.Second)
	for {
		var got struct {
			Tables []table.Summary `json:"tables"`
		}
		json.Unmarshal(do(s, "GET", "/api/tables", "192.0.2.1:1", "", "").Body.Bytes(), &got)
		if len(got.Tables) == 31 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the new table is not in the lobby after 3 s (%d tables)", len(got.Tables))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// BenchmarkLobbyHTTP: GET /api/tables with 500 public tables, through the
// whole handler. "uncached" is the handler as it was (sort and marshal per
// request).
func BenchmarkLobbyHTTP(b *testing.B) {
	s := memServer(b, Config{HTTPRate: -1})
	fillLobby(s, 500)
	b.Run("cached", func(b *testing.B) {
		for b.Loop() {
			req := httptest.NewRequest("GET", "/api/tables", nil)
			s.Handler().ServeHTTP(discardWriter{}, req)
		}
	})
	b.Run("uncached", func(b *testing.B) {
		h := s.protect(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, http.StatusOK, map[string]any{"tables": s.lobby.list()})
		}))
		for b.Loop() {
			req := httptest.NewRequest("GET", "/api/tables", nil)
			h.ServeHTTP(discardWriter{}, req)
		}
	})
}

// discardWriter is a ResponseWriter that keeps nothing (a recorder would
// measure its buffer's growth).
type discardWriter struct{}

func (discardWriter) Header() http.Header         { return http.Header{} }
func (discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (discardWriter) WriteHeader(int)             {}

// TestCreationsPerIP: accounts claimed and tournaments created share one
// daily bucket per address (-creations-per-ip): guest sessions are cheap,
// and each of these outlives its session (a name reserved for good, one of
// the room's tournament slots for months). A refusal for another reason
// (a name taken) gives its charge back; another address has its own.
func TestCreationsPerIP(t *testing.T) {
	needGame(t, "papayoo")
	s := memServer(t, Config{CreationsPerIPPerDay: 2, SessionsPerIPPerHour: -1, HTTPRate: -1, Accounts: fastHashes})
	const a, b = "203.0.113.7:5000", "198.51.100.9:5000"
	guest := func(from, name string) string {
		w := do(s, "POST", "/api/session", from, "", `{"name":"`+name+`"}`)
		var sess protocol.Session
		if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &sess) != nil {
			t.Fatalf("session %s: %d %s", name, w.Code, w.Body)
		}
		return sess.Token
	}
	post := func(path, from, token, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.RemoteAddr = from
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, req)
		return w
	}
	claim := func(from, token string) *httptest.ResponseRecorder {
		return post("/api/account", from, token, `{"password":"correct horse battery"}`)
	}
	if w := claim(a, guest(a, "Anna")); w.Code != 200 {
		t.Fatalf("first claim: %d %s", w.Code, w.Body)
	}
	// A name already claimed: refused with name_taken, the charge given back.
	if w := post("/api/account", a, guest(a, "Zed"), `{"password":"correct horse battery","name":"anna"}`); w.Code != 409 {
		t.Fatalf("claim of a taken name: %d %s, want 409", w.Code, w.Body)
	}
	tour := `{"game":"papayoo","options":{"players":"3"},"deals":2,"bot_level":"medium","max_entrants":3,"deal_minutes":30}`
	if w := post("/api/tournaments", a, guest(a, "Bea"), tour); w.Code != 200 {
		t.Fatalf("tournament (the second creation): %d %s", w.Code, w.Body)
	}
	w := claim(a, guest(a, "Cleo"))
	if w.Code != 429 || errCode(w.Body.Bytes()) != "rate_limited" || w.Header().Get("Retry-After") == "" {
		t.Fatalf("third creation from one address: %d %s, want 429 rate_limited with Retry-After", w.Code, w.Body)
	}
	if w := post("/api/tournaments", a, guest(a, "Dora"), tour); w.Code != 429 {
		t.Errorf("a tournament past the quota: %d %s, want 429", w.Code, w.Body)
	}
	if w := claim(b, guest(b, "Ewa")); w.Code != 200 {
		t.Errorf("another address: %d %s", w.Code, w.Body)
	}
	var metrics string
	if w := do(s, "GET", "/metrics", operator, "", ""); w.Code == 200 {
		metrics = w.Body.String()
	}
	if !strings.Contains(metrics, "cardroom_creations_limited_total 2") {
		t.Errorf("metrics do not count the 2 refused creations")
	}
}

// TestLimiterKeepsTheLimited: when its map is full, the limiter forgets
// the fullest buckets first, so a flood of fresh keys (addresses rotated
// to fill it) does not free a key that is being limited (before, a map
// of only fresh buckets was cleared whole), and the map stays bounded.
func TestLimiterKeepsTheLimited(t *testing.T) {
	l := newLimiter(1.0/3600, 5) // five, then one an hour
	now := time.Unix(1_700_000_000, 0)
	l.now = func() time.Time { return now }
	l.maxKeys = 100
	for i := 0; i < 5; i++ {
		if ok, _ := l.allow("victim"); !ok {
			t.Fatalf("request %d of the burst refused", i+1)
		}
	}
	for i := 0; i < 5000; i++ {
		now = now.Add(time.Millisecond)
		l.allow(fmt.Sprintf("fresh %d", i))
		if n := l.size(); n > l.maxKeys {
			t.Fatalf("%d buckets, bound %d", n, l.maxKeys)
		}
		if i%250 == 0 {
			if ok, _ := l.allow("victim"); ok {
				t.Fatalf("after %d fresh keys the limited key is allowed again", i+1)
			}
		}
	}
}

// TestSortLobby: open tables come first, those a seated player waits at
// (connected) before those nobody waits at, each newest first; then the
// games in play, newest first.
func TestSortLobby(t *testing.T) {
	at := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	waiting := []protocol.SeatInfo{{Kind: protocol.SeatHuman, Connected: true}, {Kind: protocol.SeatEmpty}}
	gone := []protocol.SeatInfo{{Kind: protocol.SeatHuman}, {Kind: protocol.SeatEmpty}}
	botOnly := []protocol.SeatInfo{{Kind: protocol.SeatBot}, {Kind: protocol.SeatEmpty}}
	tables := []*table.Summary{
		{ID: "stale-new", Status: store.StatusOpen, Created: at.Add(3 * time.Minute), Seats: gone},
		{ID: "playing-old", Status: store.StatusPlaying, Created: at, Seats: gone},
		{ID: "waiting-old", Status: store.StatusOpen, Created: at, Seats: waiting},
		{ID: "stale-old", Status: store.StatusOpen, Created: at.Add(time.Minute), Seats: botOnly},
		{ID: "playing-new", Status: store.StatusPlaying, Created: at.Add(5 * time.Minute), Seats: waiting},
		{ID: "waiting-new", Status: store.StatusOpen, Created: at.Add(2 * time.Minute), Seats: waiting},
	}
	sortLobby(tables)
	var got []string
	for _, s := range tables {
		got = append(got, s.ID)
	}
	want := []string{"waiting-new", "waiting-old", "stale-new", "stale-old", "playing-new", "playing-old"}
	if !slices.Equal(got, want) {
		t.Errorf("lobby order %v, want %v", got, want)
	}
}

// TestCrossSiteRefused: an API request that changes state with the
// session cookie is refused (403, counted) when another site's page sent
// it (its Origin, or Sec-Fetch-Site without one): a forged form could
// otherwise start a guest session in the visitor's place, log them out or
// create tables as them, and SameSite=Lax does not stop a top-level form
// POST, nor a page on another port or subdomain of the room's site. The
// room's own pages, programs (no Origin, or a bearer token) and reads pass.
func TestCrossSiteRefused(t *testing.T) {
	needGame(t, "papayoo")
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, AllowedOrigins: []string{"cards.example.org"}})
	alice := newSession(t, ts.url, "alice")
	own := "http://" + strings.TrimPrefix(ts.url, "http://")
	for i, c := range []struct {
		method, path string
		headers      map[string]string
		bearer       bool
		want         int
	}{
		{"POST", "/api/session", map[string]string{"Origin": "https://evil.example"}, false, 403},
		{"POST", "/api/quickplay", map[string]string{"Origin": "https://evil.example"}, false, 403},
		{"POST", "/api/logout", map[string]string{"Origin": "http://127.0.0.1:1"}, false, 403}, // another port
		{"POST", "/api/quickplay", map[string]string{"Sec-Fetch-Site": "same-site"}, false, 403},
		{"POST", "/api/quickplay", map[string]string{"Sec-Fetch-Site": "cross-site"}, false, 403},
		{"POST", "/api/quickplay", map[string]string{"Origin": own}, false, 200},
		{"POST", "/api/quickplay", map[string]string{"Origin": "https://cards.example.org"}, false, 200}, // Config.AllowedOrigins
		{"POST", "/api/quickplay", map[string]string{"Sec-Fetch-Site": "same-origin"}, false, 200},
		{"POST", "/api/quickplay", nil, false, 200},                                                // a program
		{"POST", "/api/quickplay", map[string]string{"Origin": "https://evil.example"}, true, 200}, // a bearer token
		{"GET", "/api/session", map[string]string{"Origin": "https://evil.example"}, false, 200},
	} {
		var body io.Reader
		if c.method == "POST" {
			body = strings.NewReader(`{"game": "papayoo", "name": "mallory"}`)
		}
		req, _ := http.NewRequest(c.method, ts.url+c.path, body)
		req.Header.Set("Content-Type", "text/plain")
		if c.bearer {
			req.Header.Set("Authorization", "Bearer "+alice.Token)
		} else {
			req.AddCookie(&http.Cookie{Name: CookieName, Value: alice.Token})
		}
		for k, v := range c.headers {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("%d: %s %s %v: %d, want %d", i, c.method, c.path, c.headers, resp.StatusCode, c.want)
		}
		if c.want == 403 && len(resp.Cookies()) != 0 {
			t.Errorf("%d: a refused request set a cookie", i)
		}
	}
	if n := metricInt(t, ts.url, "cardroom_cross_site_refused_total"); n != 5 {
		t.Errorf("cardroom_cross_site_refused_total = %d, want 5", n)
	}
	// alice's session still works (the forged logout was refused).
	if code := httpJSON(t, "GET", ts.url+"/api/session", alice.Token, nil, nil); code != 200 {
		t.Errorf("alice's session after the refused logout: %d", code)
	}
}

// TestSecureCookie: a room reached over TLS (an https public URL) marks
// its session cookie Secure and asks browsers to keep to https (HSTS); a
// room on plain http does neither.
func TestSecureCookie(t *testing.T) {
	for _, c := range []struct {
		public string
		secure bool
	}{{"", false}, {"https://cards.example.com", true}} {
		ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, PublicURL: c.public})
		resp, err := http.Post(ts.url+"/api/session", "application/json", strings.NewReader(`{"name": "anna"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		cs := resp.Cookies()
		if len(cs) != 1 || cs[0].Secure != c.secure || !cs[0].HttpOnly {
			t.Errorf("public URL %q: cookies %+v, want one HttpOnly, Secure %v", c.public, cs, c.secure)
		}
		if hsts := resp.Header.Get("Strict-Transport-Security"); (hsts != "") != c.secure {
			t.Errorf("public URL %q: Strict-Transport-Security %q", c.public, hsts)
		}
	}
}

// TestAPIErrorsJSON: a path under /api/ that no endpoint has, or a method
// its endpoint does not take, is answered with the API's JSON error (the
// mux wrote plain text: "404 page not found" from the static files'
// catch-all, "Method Not Allowed"), with Allow on a 405; an endpoint still
// gets its path values; other paths keep the static files' answers.
func TestAPIErrorsJSON(t *testing.T) {
	s := memServer(t, Config{HTTPRate: -1})
	for _, c := range []struct {
		method, path string
		status       int
		code         protocol.Code
		allow        string
	}{
		{"GET", "/api/ratings/", 404, protocol.NoEndpoint, ""},
		{"GET", "/api/nothing", 404, protocol.NoEndpoint, ""},
		{"POST", "/api/nothing/at/all", 404, protocol.NoEndpoint, ""},
		{"DELETE", "/api/games", 405, protocol.BadMethod, "GET, HEAD"},
		{"PUT", "/api/tables", 405, protocol.BadMethod, "GET, HEAD, POST"},
		{"GET", "/api/games", 200, "", ""},
		{"GET", "/api/tables/t_missing", 404, protocol.NoTable, ""},
	} {
		w := do(s, c.method, c.path, "192.0.2.7:1000", "", "")
		var e protocol.ErrorBody
		json.Unmarshal(w.Body.Bytes(), &e)
		if w.Code != c.status || e.Error.Code != c.code || w.Header().Get("Allow") != c.allow {
			t.Errorf("%s %s: %d %q Allow %q (%s); want %d %q Allow %q", c.method, c.path, w.Code, e.Error.Code,
				w.Header().Get("Allow"), strings.TrimSpace(w.Body.String()), c.status, c.code, c.allow)
		}
		if c.code != "" && (w.Header().Get("Content-Type") != "application/json" || e.Error.Message == "") {
			t.Errorf("%s %s: %s %q, want a JSON error with a message", c.method, c.path, w.Header().Get("Content-Type"), w.Body)
		}
		// An endpoint's path values reach it (the wrapper lets the mux
		// serve: it sets them).
		if c.code == protocol.NoTable && !strings.Contains(e.Error.Message, "t_missing") {
			t.Errorf("%s %s: %q, want the table's id in the message", c.method, c.path, e.Error.Message)
		}
	}
	if w := do(s, "GET", "/no-such-file.js", "192.0.2.7:1000", "", ""); w.Code != 404 || strings.Contains(w.Header().Get("Content-Type"), "json") {
		t.Errorf("a missing static file: %d %s; want the file server's 404", w.Code, w.Header().Get("Content-Type"))
	}
}

// sharedQuotas is a store.Quotas for tests: it grants, refuses or fails
// as told, and counts refunds.
type sharedQuotas struct {
	mu      sync.Mutex
	mode    string // "grant", "refuse" or "fail"
	refunds int
}

func (q *sharedQuotas) TakeQuota(ctx context.Context, kind, key string, rate, burst float64) (bool, time.Duration, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	switch q.mode {
	case "refuse":
		return false, 90 * time.Second, nil
	case "fail":
		return false, 0, errors.New("the database is away")
	}
	return true, 0, nil
}

func (q *sharedQuotas) RefundQuota(ctx context.Context, kind, key string) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.refunds++
	return nil
}

func (q *sharedQuotas) PurgeQuotas(ctx context.Context) (int, error) { return 0, nil }

func (q *sharedQuotas) set(mode string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.mode = mode
}

// TestSharedQuota: a cluster node grants a session from its own bucket and
// then from the cluster's (guard.shared): a shared refusal is the answer
// (with the shared bucket's wait) and gives the node's token back, so the
// node's quota is intact when the cluster's refills; a shared store that
// fails leaves the decision to the node's bucket, counted in
// cardroom_shared_quota_errors_total.
func TestSharedQuota(t *testing.T) {
	q := &sharedQuotas{mode: "refuse"}
	s := memServer(t, Config{SessionsPerIPPerHour: 2, HTTPRate: -1, quotas: q})
	const a = "203.0.113.7:4000"
	for i := range 3 {
		w := do(s, "POST", "/api/session", a, "", `{"name":"guest"}`)
		if w.Code != 429 || errCode(w.Body.Bytes()) != "rate_limited" || w.Header().Get("Retry-After") != "90" {
			t.Fatalf("shared bucket empty, session %d: %d %s, Retry-After %q; want 429 after 90 s", i+1, w.Code, w.Body, w.Header().Get("Retry-After"))
		}
	}
	q.set("grant")
	for i := range 3 {
		w := do(s, "POST", "/api/session", a, "", `{"name":"guest"}`)
		if want := map[bool]int{true: 200, false: 429}[i < 2]; w.Code != want {
			t.Errorf("shared bucket full, session %d: %d, want %d (the node's quota of 2 intact)", i+1, w.Code, want)
		}
	}
	q.set("fail")
	const b = "203.0.113.8:4000"
	for i := range 3 {
		w := do(s, "POST", "/api/session", b, "", `{"name":"guest"}`)
		if want := map[bool]int{true: 200, false: 429}[i < 2]; w.Code != want {
			t.Errorf("shared store failing, session %d: %d, want %d (the node's bucket decides)", i+1, w.Code, want)
		}
	}
	if n := s.guard.sharedErrors.Load(); n != 2 {
		t.Errorf("%d shared quota errors counted, want 2", n)
	}
	if w := do(s, "GET", "/metrics", operator, "", ""); !strings.Contains(w.Body.String(), "cardroom_shared_quota_errors_total 2") {
		t.Error("cardroom_shared_quota_errors_total is not 2 in /metrics")
	}
}

// TestMetricsFrom: /metrics answers loopback and the private networks by
// default (DefaultMetricsFrom), and refuses anyone else with a JSON 403,
// counted (cardroom_metrics_refused_total): the room's counters are its
// operator's, and a scrape costs a stop of every goroutine
// (runtime.ReadMemStats) and 20 KiB of text, unthrottled. Behind a
// trusted proxy the forwarded client is judged, not the proxy; -metrics-from
// any serves everyone, and a list replaces the default.
func TestMetricsFrom(t *testing.T) {
	s := memServer(t, Config{})
	for from, want := range map[string]int{
		"127.0.0.1:1": 200, "[::1]:1": 200, "10.1.2.3:1": 200, "172.16.0.9:1": 200, "192.168.1.20:1": 200, "[fd00::1]:1": 200,
		"192.0.2.1:1": 403, "198.51.100.7:1": 403, "[2001:db8::1]:1": 403, "172.32.0.1:1": 403,
	} {
		w := do(s, "GET", "/metrics", from, "", "")
		if w.Code != want || want == 403 && errCode(w.Body.Bytes()) != "forbidden" {
			t.Errorf("/metrics from %s: %d %s, want %d", from, w.Code, w.Body.String()[:min(w.Body.Len(), 80)], want)
		}
	}
	if w := do(s, "GET", "/metrics", operator, "", ""); !strings.Contains(w.Body.String(), "cardroom_metrics_refused_total 4") {
		t.Error("cardroom_metrics_refused_total is not 4")
	}
	proxy, _ := ParseTrustedProxies("127.0.0.1")
	s = memServer(t, Config{TrustedProxies: proxy})
	req := httptest.NewRequest("GET", "/metrics", nil)
	req.RemoteAddr = "127.0.0.1:5"
	req.Header.Set("X-Forwarded-For", "203.0.113.9")
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, req)
	if w.Code != 403 {
		t.Errorf("/metrics for a public client through a trusted proxy: %d, want 403", w.Code)
	}
	any, err := ParseMetricsFrom("any")
	if err != nil {
		t.Fatal(err)
	}
	s = memServer(t, Config{MetricsFrom: any})
	if w := do(s, "GET", "/metrics", "192.0.2.1:1", "", ""); w.Code != 200 {
		t.Errorf("-metrics-from any, a public client: %d", w.Code)
	}
	only, _ := ParseMetricsFrom("192.0.2.0/24")
	s = memServer(t, Config{MetricsFrom: only})
	if w := do(s, "GET", "/metrics", "192.0.2.1:1", "", ""); w.Code != 200 {
		t.Errorf("-metrics-from 192.0.2.0/24, a client there: %d", w.Code)
	}
	if w := do(s, "GET", "/metrics", operator, "", ""); w.Code != 403 {
		t.Errorf("-metrics-from 192.0.2.0/24, loopback: %d, want 403 (a list replaces the default)", w.Code)
	}
	for _, bad := range []string{",", "10.0.0.0/33", "nowhere"} {
		if _, err := ParseMetricsFrom(bad); err == nil || !strings.HasPrefix(err.Error(), "metrics-from") {
			t.Errorf("ParseMetricsFrom(%q): %v", bad, err)
		}
	}
}

// TestMaxConnectionsRace: -max-connections holds for handshakes that
// arrive together: a connection's slot is taken before the upgrade (and
// given back if it fails). Checked before the upgrade and counted after
// it, 40 simultaneous handshakes opened 10 to 28 sockets against a bound
// of 3.
func TestMaxConnectionsRace(t *testing.T) {
	const bound, tries = 3, 40
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, MaxConnections: bound})
	sess := newSession(t, ts.url, "crowd")
	var mu sync.Mutex
	var opened []*protocol.Client
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range tries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			// Generous: 40 connections at once may overflow the listener's
			// backlog, and a dropped SYN is sent again after a second or so.
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if pc, err := protocol.Dial(ctx, ts.url, &protocol.Options{Token: sess.Token}); err == nil {
				mu.Lock()
				opened = append(opened, pc)
				mu.Unlock()
			}
		}()
	}
	close(start)
	wg.Wait()
	defer func() {
		for _, pc := range opened {
			pc.CloseNow()
		}
	}()
	if n, open := len(opened), ts.s.connections.Load(); n != bound || open != bound {
		t.Errorf("-max-connections %d: %d of %d simultaneous handshakes accepted, %d counted open; want %d", bound, n, tries, open, bound)
	}
}

// TestBodyTooLarge: a JSON body over MaxMessage bytes is answered 413
// too_large by every endpoint that reads one, as the account endpoints
// answer it (the others answered 400 bad_json), and changes nothing.
func TestBodyTooLarge(t *testing.T) {
	s := memServer(t, Config{HTTPRate: -1})
	var sess protocol.Session
	json.Unmarshal(do(s, "POST", "/api/session", "203.0.113.40:1", "", `{"name":"guest"}`).Body.Bytes(), &sess)
	tok := sess.Token
	big := `{"name":"` + strings.Repeat("x", MaxMessage) + `"}`
	for _, c := range []struct{ path, token string }{
		{"/api/session", ""}, {"/api/tables", tok}, {"/api/quickplay", tok}, {"/api/tournaments", tok},
	} {
		w := do(s, "POST", c.path, "203.0.113.40:1", c.token, big)
		if w.Code != http.StatusRequestEntityTooLarge || errCode(w.Body.Bytes()) != "too_large" {
			t.Errorf("POST %s with %d bytes: %d %s, want 413 too_large", c.path, len(big), w.Code, w.Body.String()[:min(w.Body.Len(), 80)])
		}
	}
	if w := do(s, "GET", "/api/tables", "203.0.113.40:1", "", ""); strings.Contains(w.Body.String(), `"id"`) {
		t.Errorf("a refused body made a table: %s", w.Body)
	}
}
