package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParseURLs(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		err  string // a part of the error; "" for none
	}{
		{"http://localhost:8080", []string{"http://localhost:8080"}, ""},
		{"http://a:1/", []string{"http://a:1"}, ""},
		{"http://a:1, http://b:2 ,https://c", []string{"http://a:1", "http://b:2", "https://c"}, ""},
		{"", nil, "empty URL"},
		{"http://a:1,", nil, "empty URL"},
		{"http://a:1,,http://b:2", nil, "empty URL"},
		{"a:1", nil, "want http://"},
		{"ws://a:1", nil, "want http://"},
		{"http://", nil, "want http://"},
		{"http://u:p@a:1", nil, "no user"},
		{"http://a:1?x=1", nil, "want http://"},
		{"http://a:1,http://a:1/", nil, "named twice"},
		{"http://a:1/%zz", nil, "URL"},
		{manyURLs(maxNodes + 1), nil, "more than"},
	} {
		got, err := ParseURLs(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseURLs(%q) = %v, %v; want an error with %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParseURLs(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	if got, err := ParseURLs(manyURLs(maxNodes)); err != nil || len(got) != maxNodes {
		t.Errorf("%d URLs: %d, %v", maxNodes, len(got), err)
	}
}

func manyURLs(n int) string {
	var p []string
	for i := range n {
		p = append(p, fmt.Sprintf("http://127.0.0.1:%d", 1000+i))
	}
	return strings.Join(p, ",")
}

// TestNodeFor: the creator of table t is on node t mod n, client k on
// (t+k) mod n; one node takes everything.
func TestNodeFor(t *testing.T) {
	for _, c := range []struct{ t, k, n, want int }{
		{0, 0, 1, 0}, {5, 3, 1, 0},
		{0, 0, 3, 0}, {1, 0, 3, 1}, {2, 0, 3, 2}, {3, 0, 3, 0},
		{0, 1, 3, 1}, {0, 3, 3, 0}, {2, 1, 3, 0}, {4, 2, 3, 0}, {4, 3, 3, 1},
		{7, 1, 2, 0}, {7, 2, 2, 1},
	} {
		if got := nodeFor(c.t, c.k, c.n); got != c.want {
			t.Errorf("nodeFor(%d, %d, %d) = %d, want %d", c.t, c.k, c.n, got, c.want)
		}
	}
	// With 4 clients on 3 nodes, every table touches every node, and the
	// tables' creators are spread evenly.
	creators := make([]int, 3)
	for tb := range 30 {
		seen := map[int]bool{}
		for k := range 4 {
			seen[nodeFor(tb, k, 3)] = true
		}
		if len(seen) != 3 {
			t.Errorf("table %d reaches nodes %v, want all 3", tb, seen)
		}
		creators[nodeFor(tb, 0, 3)]++
	}
	if !slices.Equal(creators, []int{10, 10, 10}) {
		t.Errorf("creators per node %v, want 10 each", creators)
	}
}

// TestNodeStats: the window's counters are end minus start, memory is
// the end's, a counter a node lacks is unknown (-1) and makes the sum
// unknown, and bus counters are summed over their labels.
func TestNodeStats(t *testing.T) {
	const a0 = "# HELP x\nprocess_cpu_seconds_total 10\ncardroom_messages_in_total 100\ncardroom_messages_out_total 500\ncardroom_ws_writes_total 400\ncardroom_moves_total 100\ncardroom_store_commits_total 50\ncardroom_store_appends_total 100\ncardroom_cluster_fenced_total 0\ncardroom_cluster_relayed_total{kind=\"move\"} 3\ncardroom_cluster_relayed_total{kind=\"join\"} 1\nprocess_resident_memory_bytes 1000\n"
	const a1 = "process_cpu_seconds_total 12.5\ncardroom_messages_in_total 300\ncardroom_messages_out_total 1500\ncardroom_ws_writes_total 1200\ncardroom_moves_total 300\ncardroom_store_commits_total 150\ncardroom_store_appends_total 300\ncardroom_cluster_relayed_total{kind=\"move\"} 103\ncardroom_cluster_relayed_total{kind=\"join\"} 1\ncardroom_cluster_fenced_total 0\nprocess_resident_memory_bytes 3000\ngo_memstats_heap_alloc_bytes 2000\ncardroom_connections 8\ncardroom_cluster_tables_owned 3\ncardroom_move_latency_seconds_bucket{le=\"0.001\"} 7\ngarbage line\n"
	// Node b reports no CPU and no bus, and lacks the commit counter.
	const b0 = "cardroom_messages_in_total 0\ncardroom_messages_out_total 0\ncardroom_ws_writes_total 0\ncardroom_moves_total 0\ncardroom_store_appends_total 0\nprocess_resident_memory_bytes 500\n"
	const b1 = "cardroom_messages_in_total 200\ncardroom_messages_out_total 1000\ncardroom_ws_writes_total 800\ncardroom_moves_total 0\ncardroom_store_appends_total 0\nprocess_resident_memory_bytes 700\ncardroom_connections 4\n"
	sc := func(text string, cpu float64) scrape { return scrape{vals: parseMetrics(text), cpu: cpu} }
	before := []scrape{sc(a0, 10), sc(b0, -1)}
	start := []scrape{sc(a0, 10), sc(b0, -1)}
	end := []scrape{sc(a1, 12.5), sc(b1, -1)}
	ns := nodeStats([]string{"http://a", "http://b"}, before, start, end)
	a, b := ns[0], ns[1]
	if a.CPU != 2.5 || a.MessagesIn != 200 || a.MessagesOut != 1000 || a.Writes != 800 || a.Moves != 200 || a.Commits != 100 || a.Appends != 200 ||
		a.RSS != 3000 || a.RSSBefore != 1000 || a.Heap != 2000 || a.Connections != 8 || a.Owned != 3 || a.Bus["relayed"] != 100 || a.Bus["fenced"] != 0 || len(a.Bus) != 2 {
		t.Errorf("node a: %+v", a)
	}
	if b.CPU != -1 || b.Commits != -1 || b.MessagesIn != 200 || b.Bus != nil || b.Connections != 4 || b.Owned != -1 {
		t.Errorf("node b: %+v", b)
	}
	tot := sumNodes(ns)
	if tot.CPU != -1 || tot.Commits != -1 || tot.MessagesIn != 400 || tot.MessagesOut != 2000 || tot.RSS != 3700 || tot.Connections != 12 || tot.Owned != -1 ||
		tot.Bus["relayed"] != 100 {
		t.Errorf("sum: %+v", tot)
	}
	line := tot.line(200)
	for _, want := range []string{"CPU ?", "messages in 400 (2.00 a move)", "commits ?", "; cluster: relayed 100 (0.50 a move)"} {
		if !strings.Contains(line, want) {
			t.Errorf("line %q lacks %q", line, want)
		}
	}
	if line := a.line(200); !strings.Contains(line, "CPU 2.50 s (12500 µs a move)") || strings.Contains(line, "fenced") {
		t.Errorf("node a's line: %q", line)
	}
	// A node that did not answer at the end: down, out of the memory sums,
	// and the counters unknown.
	gone := nodeStats([]string{"http://a", "http://c"}, []scrape{sc(a0, 10), sc(b0, -1)}, []scrape{sc(a0, 10), sc(b0, -1)}, []scrape{sc(a1, 12.5), {cpu: -1}})
	if g := sumNodes(gone); !gone[1].Down || gone[0].Down || !g.Down || g.RSS != 3000 || g.RSSBefore != 1000 || g.MessagesIn != -1 {
		t.Errorf("a node down: %+v, sum %+v", gone, g)
	}
	if text := (Report{Nodes: gone, Total: sumNodes(gone)}).String(); !strings.Contains(text, "node http://c: no answer to /metrics after the run") {
		t.Errorf("report with a node down:\n%s", text)
	}
	if v := parseMetrics(a1)["cardroom_move_latency_seconds_bucket{le=\"0.001\"}"]; v != 7 {
		t.Errorf("a labelled sample outside the bus: %v, want 7 kept under its full name", v)
	}
}

func TestStatCPU(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"1234 (cardroom) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 12 0 100 0 0", 3, true},
		{"1234 (a b) c)) R 1 1 1 0 -1 0 0 0 0 0 7 3 0 0", 0.1, true},
		{"1234 (cardroom) S 1 2", 0, false},
		{"garbage", 0, false},
		{"1 (x) S 1 1 1 0 -1 0 0 0 0 0 x 3 0", 0, false},
	} {
		got, err := statCPU(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("statCPU(%q) = %v, %v; want %v (ok %v)", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestListeningInodes(t *testing.T) {
	const tbl = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 111 1 0000000000000000 100 0 0 10 0
   1: 0100007F:1F91 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 222 1 0000000000000000 20 4 30 10 -1
   2: 00000000:1F92 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 333 1 0000000000000000 100 0 0 10 0
`
	if got := listeningInodes(tbl, 8081); !slices.Equal(got, []string{"111"}) {
		t.Errorf("port 8081: %v, want the listener 111 only (not the connection 222)", got)
	}
	if got := listeningInodes(tbl, 8082); !slices.Equal(got, []string{"333"}) {
		t.Errorf("port 8082: %v", got)
	}
	if got := listeningInodes(tbl, 80); got != nil {
		t.Errorf("port 80: %v", got)
	}
}

// TestLocalPID finds this very process behind a port it listens on, and
// nothing behind a remote host.
func TestLocalPID(t *testing.T) {
	if _, err := os.Stat("/proc/net/tcp"); err != nil {
		t.Skip("no /proc/net/tcp: not Linux")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	u := "http://" + l.Addr().String()
	if got := localPID(u); got != os.Getpid() {
		t.Errorf("localPID(%s) = %d, want this process %d", u, got, os.Getpid())
	}
	if cpu := processCPU(os.Getpid()); cpu < 0 {
		t.Errorf("processCPU of this process = %v", cpu)
	}
	if got := localPID("http://192.0.2.1:80"); got != 0 {
		t.Errorf("a remote host: %d, want 0", got)
	}
}

// proxyNode is a reverse proxy in front of the one test server, standing
// for a node: it records the session names made through it and counts
// the WebSockets it carries.
type proxyNode struct {
	srv     *httptest.Server
	mu      sync.Mutex
	names   []string
	sockets int
	conns   []net.Conn // every connection accepted, for kill
}

// trackingListener records the connections it accepts: the proxied
// WebSockets are hijacked, and httptest.Server.Close leaves those open.
type trackingListener struct {
	net.Listener
	p *proxyNode
}

func (l trackingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.p.mu.Lock()
		l.p.conns = append(l.p.conns, c)
		l.p.mu.Unlock()
	}
	return c, err
}

// kill stops the node at once, as kill -9 would: no new connections, and
// every open one (sockets included) cut without a close frame.
func (p *proxyNode) kill() {
	p.srv.Listener.Close()
	p.mu.Lock()
	for _, c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
}

func newProxyNode(t *testing.T, target string) *proxyNode {
	u, _ := url.Parse(target)
	rp := httputil.NewSingleHostReverseProxy(u)
	p := &proxyNode{}
	p.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/session":
			b, _ := io.ReadAll(r.Body)
			var req struct{ Name string }
			json.Unmarshal(b, &req)
			p.mu.Lock()
			p.names = append(p.names, req.Name)
			p.mu.Unlock()
			r.Body = io.NopCloser(bytes.NewReader(b))
		case "/ws":
			p.mu.Lock()
			p.sockets++
			p.mu.Unlock()
		}
		rp.ServeHTTP(w, r)
	}))
	p.srv.Listener = trackingListener{p.srv.Listener, p}
	p.srv.Start()
	t.Cleanup(func() { p.kill(); p.srv.Close() })
	return p
}

// TestRunAcrossNodes runs the load tool against three "nodes" (proxies
// in front of one server, since a table lives on one server until the
// cluster mode relays it) and checks that client k of table i opened its
// session and socket on node (i+k) mod 3, that the run played, and that
// the report has one entry per node and their sum.
func TestRunAcrossNodes(t *testing.T) {
	nodes, urls := proxiedServer(t, 3)
	const tables = 4
	rep, err := Run(context.Background(), Config{URLs: urls, Tables: tables, Pace: 20, Duration: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Connections != 4*tables || rep.Moves < 20 || rep.Errors != 0 {
		t.Errorf("report %+v", rep)
	}
	for n, p := range nodes {
		var want []string
		for i := range tables {
			for k := range 4 {
				if nodeFor(i, k, 3) == n {
					want = append(want, fmt.Sprintf("load%d-%d", i, k))
				}
			}
		}
		p.mu.Lock()
		got := slices.Sorted(slices.Values(p.names))
		sockets := p.sockets
		p.mu.Unlock()
		slices.Sort(want)
		if !slices.Equal(got, want) || sockets != len(want) {
			t.Errorf("node %d: sessions %v and %d sockets, want %v and as many sockets", n, got, sockets, want)
		}
	}
	if len(rep.Nodes) != 3 {
		t.Fatalf("%d nodes in the report, want 3", len(rep.Nodes))
	}
	for i, n := range rep.Nodes {
		// Every proxy shows the one server's metrics: each node sees all
		// 16 sockets and the window's messages.
		if n.URL != urls[i] || n.Connections != 4*tables || n.MessagesIn < float64(rep.Moves) || n.RSS <= 0 || n.Down {
			t.Errorf("node %d: %+v", i, n)
		}
	}
	if rep.Total.Connections != 3*4*tables || rep.ServerConnections != rep.Total.Connections || rep.Total.MessagesIn != rep.Nodes[0].MessagesIn+rep.Nodes[1].MessagesIn+rep.Nodes[2].MessagesIn {
		t.Errorf("sum %+v, report's server connections %d", rep.Total, rep.ServerConnections)
	}
	text := rep.String()
	t.Log(text)
	for _, u := range urls {
		if !strings.Contains(text, "node "+u+": ") {
			t.Errorf("report text lacks node %s:\n%s", u, text)
		}
	}
}

// TestReconnectAcrossNodes kills one of three "nodes" mid-run: with
// Reconnect, its clients dial the next node with their sessions, join
// their seats again and play on; no step is lost (one server holds the
// tables), nothing counts as an error, and the report names the dead node.
func TestReconnectAcrossNodes(t *testing.T) {
	nodes, urls := proxiedServer(t, 3)
	const tables = 3
	type result struct {
		rep Report
		err error
	}
	done := make(chan result, 1)
	go func() {
		rep, err := Run(context.Background(), Config{URLs: urls, Tables: tables, Pace: 20, Duration: 3 * time.Second, Reconnect: true, StallAfter: time.Second})
		done <- result{rep, err}
	}()
	// Kill node 1 once the run has started (its sockets are all open).
	deadline := time.Now().Add(30 * time.Second)
	for {
		nodes[1].mu.Lock()
		n := nodes[1].sockets
		nodes[1].mu.Unlock()
		if n == 4 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(time.Second)
	nodes[1].kill()
	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	rep := res.rep
	t.Log(rep.String())
	// 3 tables at 20 moves a second for 3 s, node 1 killed after 1 s:
	// the tables play on after the kill.
	if rep.Reconnects != 4 || rep.Regressed != 0 || rep.Errors != 0 || rep.Moves < 120 {
		t.Errorf("reconnects %d (want the 4 clients of node 1), steps gone %d, errors %d (%s), moves %d",
			rep.Reconnects, rep.Regressed, rep.Errors, rep.FirstError, rep.Moves)
	}
	// The four clients came back on the surviving nodes: 4 sockets each
	// at the start, 4 more between them.
	nodes[0].mu.Lock()
	nodes[2].mu.Lock()
	if got := nodes[0].sockets + nodes[2].sockets; got != 12 {
		t.Errorf("sockets on nodes 0 and 2: %d, want 8 at the start and 4 reconnected", got)
	}
	nodes[2].mu.Unlock()
	nodes[0].mu.Unlock()
	if !rep.Nodes[1].Down || rep.Nodes[0].Down || !strings.Contains(rep.String(), "no answer to /metrics after the run") {
		t.Errorf("nodes %+v: want node 1 down", rep.Nodes)
	}
}

// proxiedServer starts one server and n reverse proxies in front of it,
// standing for the nodes of a cluster.
func proxiedServer(t *testing.T, n int) ([]*proxyNode, []string) {
	target := startServer(t, nil)
	var nodes []*proxyNode
	var urls []string
	for range n {
		p := newProxyNode(t, target)
		nodes = append(nodes, p)
		urls = append(urls, p.srv.URL)
	}
	return nodes, urls
}
