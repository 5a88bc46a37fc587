package loadtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// maxNodes bounds -url's list: a cluster on one machine has a handful of
// nodes, and each costs a /metrics scrape at the start and end of a run.
const maxNodes = 64

// ParseURLs reads -url: one base URL, or several separated by commas (the
// nodes of a cluster). Each must be http or https with a host and no
// query or fragment; a trailing slash is dropped; a URL named twice is
// refused, since it would put two "nodes" on one server and halve what a
// run says about crossing between nodes.
func ParseURLs(s string) ([]string, error) {
	var out []string
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, fmt.Errorf("empty URL in %q", s)
		}
		u, err := url.Parse(part)
		if err != nil {
			return nil, fmt.Errorf("URL %q: %v", part, err)
		}
		if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			return nil, fmt.Errorf("URL %q: want http://host:port or https://host:port (no user, query or fragment)", part)
		}
		part = strings.TrimSuffix(part, "/")
		for _, o := range out {
			if o == part {
				return nil, fmt.Errorf("URL %q named twice", part)
			}
		}
		if len(out) == maxNodes {
			return nil, fmt.Errorf("more than %d URLs", maxNodes)
		}
		out = append(out, part)
	}
	return out, nil
}

// nodeFor is the node that client k of table t talks to, of n: the
// table's creator (client 0) round-robins the tables over the nodes, and
// the table's other clients go to the nodes after it, so with as many
// clients as nodes or more every move of a cluster crosses the bus to
// reach some seat. With one node it is always 0.
func nodeFor(t, k, n int) int { return (t + k) % n }

// NodeStats is what one node's /metrics said: memory after the run, and
// the counters' growth over the measured window (after the warm-up).
type NodeStats struct {
	URL string
	// Down is set when the node did not answer /metrics after the run (it
	// died or was killed during it): its memory is left out of the sums,
	// and its counters are unknown.
	Down              bool
	RSS, RSSBefore    int64 // bytes, after the run and before the setup
	Heap, Connections int64 // after the run
	// Owned is the tables the node owned after the run
	// (cardroom_cluster_tables_owned); -1 for a node not in a cluster.
	Owned int64
	// CPU is the node's CPU time over the window in seconds, from its
	// process_cpu_seconds_total, or else from /proc/PID/stat of the local
	// process listening on the URL's port; -1 when neither is readable
	// (a remote node without the metric, or another user's process).
	CPU float64
	// Counters over the window; -1 for one the node does not report.
	MessagesIn, MessagesOut, Writes, Moves, Commits, Appends float64
	// BotMoves is the moves bots made over the window (Config.BotTables,
	// and stand-ins); -1 when not reported.
	BotMoves float64
	// Bus holds the growth of every cardroom_cluster_…_total counter (the
	// cluster mode's: relayed commands and messages, claims, takeovers…;
	// labels summed), whichever the server has: what relaying costs shows
	// there. Keys are the names without the prefix and the _total.
	Bus map[string]float64
}

// counterNames are the per-window counters a node's line shows, in its
// field order.
var counterNames = []string{"cardroom_messages_in_total", "cardroom_messages_out_total", "cardroom_ws_writes_total",
	"cardroom_moves_total", "cardroom_store_commits_total", "cardroom_store_appends_total"}

// busPrefix selects the cluster mode's own counters (docs/cluster.md).
const busPrefix = "cardroom_cluster_"

// scrape is one reading of a node's /metrics: every unlabelled sample by
// name, and the bus counters with their labels summed away.
type scrape struct {
	vals map[string]float64
	cpu  float64 // seconds; -1 unknown
}

// parseMetrics reads the Prometheus text format as the server writes it:
// "name value" or "name{labels} value" lines and # comments. Lines it
// cannot read are skipped, not fatal: a scrape that is half understood
// still gives the counters it holds.
func parseMetrics(text string) map[string]float64 {
	vals := map[string]float64{}
	for _, l := range strings.Split(text, "\n") {
		if l == "" || l[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(l, ' ')
		if i <= 0 {
			continue
		}
		v, err := strconv.ParseFloat(l[i+1:], 64)
		if err != nil {
			continue
		}
		name := l[:i]
		if j := strings.IndexByte(name, '{'); j >= 0 {
			if !strings.HasPrefix(name, busPrefix) {
				vals[name] = v // a labelled sample kept whole (histogram buckets)
				continue
			}
			name = name[:j]
			vals[name] += v
			continue
		}
		vals[name] = v
	}
	return vals
}

// get is a sample's value, or -1 when the node does not report it.
func (s scrape) get(name string) float64 {
	if v, ok := s.vals[name]; ok {
		return v
	}
	return -1
}

// diff is a counter's growth from s to e; -1 when either lacks it.
func diff(s, e scrape, name string) float64 {
	a, b := s.get(name), e.get(name)
	if a < 0 || b < 0 {
		return -1
	}
	return b - a
}

// scrapeNode reads one node's /metrics (and its CPU). A node that does
// not answer gives an empty scrape: the run's figures are still the load
// tool's own, and the report shows the node's counters as unknown.
func (r *runner) scrapeNode(ctx context.Context, base string) scrape {
	s := scrape{vals: map[string]float64{}, cpu: -1}
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/metrics", nil)
	if err != nil {
		return s
	}
	if resp, err := r.client.Do(req); err == nil {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			s.vals = parseMetrics(string(b))
		}
	}
	if v, ok := s.vals["process_cpu_seconds_total"]; ok {
		s.cpu = v
	} else if pid := localPID(base); pid > 0 {
		s.cpu = processCPU(pid)
	}
	return s
}

// scrapeAll reads every node at once, so the window's edges are the same
// moment on every node.
func (r *runner) scrapeAll(ctx context.Context) []scrape {
	out := make([]scrape, len(r.nodes))
	var wg sync.WaitGroup
	for i, u := range r.nodes {
		wg.Go(func() { out[i] = r.scrapeNode(ctx, u) })
	}
	wg.Wait()
	return out
}

// nodeStats puts the three scrapes of each node together: before the
// setup (memory), at the start of the window and at its end.
func nodeStats(urls []string, before, start, end []scrape) []NodeStats {
	out := make([]NodeStats, len(urls))
	for i, u := range urls {
		s, e := start[i], end[i]
		n := NodeStats{URL: u, Down: len(e.vals) == 0, RSS: int64(max(0, e.get("process_resident_memory_bytes"))), RSSBefore: int64(max(0, before[i].get("process_resident_memory_bytes"))),
			Heap: int64(max(0, e.get("go_memstats_heap_alloc_bytes"))), Connections: int64(max(0, e.get("cardroom_connections"))),
			Owned: int64(e.get("cardroom_cluster_tables_owned")), CPU: -1}
		if s.cpu >= 0 && e.cpu >= 0 {
			n.CPU = e.cpu - s.cpu
		}
		c := make([]float64, len(counterNames))
		for k, name := range counterNames {
			c[k] = diff(s, e, name)
		}
		n.MessagesIn, n.MessagesOut, n.Writes, n.Moves, n.Commits, n.Appends = c[0], c[1], c[2], c[3], c[4], c[5]
		n.BotMoves = diff(s, e, "cardroom_bot_moves_total")
		for name := range e.vals {
			if short, ok := strings.CutPrefix(name, busPrefix); ok && strings.HasSuffix(short, "_total") {
				if d := diff(s, e, name); d >= 0 {
					if n.Bus == nil {
						n.Bus = map[string]float64{}
					}
					n.Bus[strings.TrimSuffix(short, "_total")] = d
				}
			}
		}
		out[i] = n
	}
	return out
}

// sumNodes adds the nodes' figures; an unknown (-1) on any node makes the
// sum unknown, so a total never silently leaves a node out.
func sumNodes(ns []NodeStats) NodeStats {
	t := NodeStats{URL: "all"}
	add := func(a *float64, b float64, first bool) {
		switch {
		case first:
			*a = b
		case *a < 0 || b < 0:
			*a = -1
		default:
			*a += b
		}
	}
	for i, n := range ns {
		first := i == 0
		if n.Down {
			t.Down = true
		} else {
			t.RSS += n.RSS
			t.RSSBefore += n.RSSBefore
			t.Heap += n.Heap
			t.Connections += n.Connections
		}
		o := float64(t.Owned)
		add(&o, float64(n.Owned), first)
		t.Owned = int64(o)
		add(&t.CPU, n.CPU, first)
		add(&t.MessagesIn, n.MessagesIn, first)
		add(&t.MessagesOut, n.MessagesOut, first)
		add(&t.Writes, n.Writes, first)
		add(&t.Moves, n.Moves, first)
		add(&t.Commits, n.Commits, first)
		add(&t.Appends, n.Appends, first)
		add(&t.BotMoves, n.BotMoves, first)
		for k, v := range n.Bus {
			if t.Bus == nil {
				t.Bus = map[string]float64{}
			}
			t.Bus[k] += v
		}
	}
	return t
}

// line is one node's (or the sum's) counters, per move of the run where a
// count means something per move.
func (n NodeStats) line(moves int64) string {
	var b strings.Builder
	per := func(v float64) string {
		if v < 0 {
			return "?"
		}
		if moves <= 0 {
			return strconv.FormatFloat(v, 'f', 0, 64)
		}
		return fmt.Sprintf("%.0f (%.2f a move)", v, v/float64(moves))
	}
	if n.CPU < 0 {
		b.WriteString("CPU ?")
	} else {
		fmt.Fprintf(&b, "CPU %.2f s", n.CPU)
		if moves > 0 {
			fmt.Fprintf(&b, " (%.0f µs a move)", n.CPU/float64(moves)*1e6)
		}
	}
	fmt.Fprintf(&b, ", messages in %s, out %s, socket writes %s, moves %s, commits %s",
		per(n.MessagesIn), per(n.MessagesOut), per(n.Writes), per(n.Moves), per(n.Commits))
	if n.BotMoves > 0 {
		fmt.Fprintf(&b, ", bot moves %.0f", n.BotMoves)
	}
	// The cluster's counters that moved (most are failures that a quiet
	// run never sees: a line of zeros would hide the ones that count).
	names := make([]string, 0, len(n.Bus))
	for k, v := range n.Bus {
		if v != 0 {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for i, k := range names {
		sep := ", "
		if i == 0 {
			sep = "; cluster: "
		}
		fmt.Fprintf(&b, "%s%s %s", sep, strings.ReplaceAll(k, "_", " "), per(n.Bus[k]))
	}
	return b.String()
}

// localPID finds the process listening on a loopback URL's port, for its
// CPU time when the node's /metrics does not report it (Linux: the
// listening socket's inode in /proc/net/tcp{,6}, then the process whose
// descriptors hold it). 0 when the host is not this machine's loopback or
// nothing is found.
func localPID(base string) int {
	u, err := url.Parse(base)
	if err != nil {
		return 0
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return 0
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return 0
	}
	inodes := map[string]bool{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, ino := range listeningInodes(string(b), p) {
			inodes[ino] = true
		}
	}
	if len(inodes) == 0 {
		return 0
	}
	fds, _ := filepath.Glob("/proc/[0-9]*/fd/*")
	for _, fd := range fds {
		l, err := os.Readlink(fd)
		if err != nil || !strings.HasPrefix(l, "socket:[") {
			continue
		}
		if inodes[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] {
			pid, _ := strconv.Atoi(strings.Split(fd, "/")[2])
			return pid
		}
	}
	return 0
}

// listeningInodes reads a /proc/net/tcp table: the inodes of the sockets
// in state LISTEN (0A) on the port.
func listeningInodes(table string, port int) []string {
	var out []string
	want := fmt.Sprintf(":%04X", port)
	for _, l := range strings.Split(table, "\n")[1:] {
		f := strings.Fields(l)
		if len(f) < 10 || f[3] != "0A" || !strings.HasSuffix(f[1], want) {
			continue
		}
		out = append(out, f[9])
	}
	return out
}

// processCPU is a process's user and system time in seconds from
// /proc/PID/stat (in USER_HZ ticks, 100 a second on Linux), or -1.
func processCPU(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1
	}
	v, err := statCPU(string(b))
	if err != nil {
		return -1
	}
	return v
}

// statCPU reads utime and stime (fields 14 and 15) of a /proc/PID/stat
// line; the command name in parentheses may hold spaces, so fields are
// counted after its closing parenthesis.
func statCPU(stat string) (float64, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, errors.New("no command name")
	}
	f := strings.Fields(stat[i+1:])
	// f[0] is field 3 (state): utime is field 14, stime 15.
	if len(f) < 13 {
		return 0, errors.New("short stat line")
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, errors.New("bad utime or stime")
	}
	return float64(ut+st) / 100, nil
}
