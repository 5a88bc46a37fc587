package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/netip"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"cardroom/protocol"
	"cardroom/server/wsconn"
	"cardroom/store"
)

// The room is served straight to the Internet by one process, so nothing in
// front of it protects it from one client or one address using it up. These
// are the defaults of the limits of guard.go (Config fields of the same
// names; docs/server.md lists them).
const (
	// A client must send its request headers within
	// HTTPReadHeaderTimeout and its whole request within HTTPReadTimeout,
	// and read the answer within HTTPWriteTimeout: otherwise a slow
	// client (slowloris) holds a connection and its goroutine for as long
	// as it likes.
	DefaultHTTPReadHeaderTimeout = 5 * time.Second
	DefaultHTTPReadTimeout       = 15 * time.Second
	DefaultHTTPWriteTimeout      = 30 * time.Second
	// An idle keep-alive connection is closed after HTTPIdleTimeout.
	DefaultHTTPIdleTimeout = 60 * time.Second
	DefaultMaxHeaderBytes  = 16 << 10
	// Connections open at once from one address (IPv4 address or IPv6
	// /64): a browser needs a handful, a bot a few per table it plays.
	DefaultMaxConnsPerIP = 256
	// Requests a second to /api/ from one address, with bursts.
	DefaultHTTPRate  = 20
	DefaultHTTPBurst = 60
	// Guest sessions created per address per hour (a token bucket of that
	// size refilled over an hour): each one is a row in the store.
	DefaultSessionsPerIPPerHour = 60
	// Accounts claimed and tournaments created per address per day (one
	// bucket of that size refilled over a day): each outlives the session
	// that made it (an account reserves its name for good, a tournament
	// holds one of the room's slots for up to months), and guest sessions
	// are cheap, so the per-player bounds alone do not hold them.
	DefaultCreationsPerIPPerDay = 10
)

// contentSecurityPolicy allows only the room's own scripts, styles and
// connections (the client has no inline script or style attribute:
// dom.js sets styles through the CSSOM, which CSP does not restrict), data:
// images for the favicon, and no framing (clickjacking).
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"

// guard holds a server's per-address state: open connections, request and
// session buckets, and the counters behind guardStats.
type guard struct {
	maxConns  int          // 0: unlimited
	api       *addrLimiter // per address, and per IPv6 /48 (netShare times)
	sessions  *addrLimiter
	creations *addrLimiter
	// The limits the buckets above refuse with (rate_limited's "limit").
	apiLimit, sessionsLimit, creationLimit protocol.Limit
	// trusted are the reverse proxies whose X-Forwarded-For is believed
	// (Config.TrustedProxies); empty: none, the peer is the client.
	trusted []netip.Prefix
	log     *slog.Logger
	// shared holds the cluster's copies of the sessions and creations
	// buckets (a cluster node's store; nil on one node): a node grants
	// from its own bucket first, then from the shared one, so an address
	// spread over N nodes gets the quota once, not N times.
	shared       store.Quotas
	sharedErrors atomic.Int64 // shared buckets that could not be read (the node's own bucket decided)
	// metricsFrom are the clients /metrics answers (Config.MetricsFrom).
	metricsFrom    []netip.Prefix
	metricsRefused atomic.Int64

	connsRefused     atomic.Int64
	tcpOpen          atomic.Int64 // connections the listener accepted and that are not closed
	crossSite        atomic.Int64 // API requests refused as another site's (crossSite)
	limited          atomic.Int64
	creationsLimited atomic.Int64
}

// guardDefaults fills the zero limits of c with their defaults and turns
// negative ones into "off". Config's zero value means "the default" like
// its other fields; a negative value switches a limit off.
func (c *Config) guardDefaults() {
	dur := func(d *time.Duration, def time.Duration) {
		if *d == 0 {
			*d = def
		}
	}
	dur(&c.HTTPReadHeaderTimeout, DefaultHTTPReadHeaderTimeout)
	dur(&c.HTTPReadTimeout, DefaultHTTPReadTimeout)
	dur(&c.HTTPWriteTimeout, DefaultHTTPWriteTimeout)
	dur(&c.HTTPIdleTimeout, DefaultHTTPIdleTimeout)
	if c.MaxHeaderBytes <= 0 {
		c.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if c.MaxConnsPerIP == 0 {
		c.MaxConnsPerIP = DefaultMaxConnsPerIP
	}
	if c.HTTPRate == 0 {
		c.HTTPRate = DefaultHTTPRate
	}
	if c.HTTPBurst == 0 {
		c.HTTPBurst = DefaultHTTPBurst
	}
	if c.SessionsPerIPPerHour == 0 {
		c.SessionsPerIPPerHour = DefaultSessionsPerIPPerHour
	}
	if c.CreationsPerIPPerDay == 0 {
		c.CreationsPerIPPerDay = DefaultCreationsPerIPPerDay
	}
}

func newGuard(c Config) *guard {
	g := &guard{maxConns: max(c.MaxConnsPerIP, 0), trusted: c.TrustedProxies, log: c.Log, shared: c.quotas,
		apiLimit:      protocol.Limit{Name: protocol.LimitRequests, Max: c.HTTPRate, Burst: int(min(c.HTTPBurst, math.MaxInt32))},
		sessionsLimit: protocol.Limit{Name: protocol.LimitSessions, Max: float64(c.SessionsPerIPPerHour)},
		creationLimit: protocol.Limit{Name: protocol.LimitCreations, Max: float64(c.CreationsPerIPPerDay)}}
	if g.log == nil {
		g.log = slog.Default()
	}
	g.metricsFrom = c.MetricsFrom
	if g.metricsFrom == nil {
		g.metricsFrom, _ = ParseMetricsFrom("")
	}
	if c.HTTPRate > 0 && c.HTTPBurst > 0 {
		g.api = newAddrLimiter("requests", c.HTTPRate, max(c.HTTPBurst, 1))
	}
	if c.SessionsPerIPPerHour > 0 {
		n := float64(c.SessionsPerIPPerHour)
		g.sessions = newAddrLimiter("sessions", n/3600, n)
	}
	if c.CreationsPerIPPerDay > 0 {
		n := float64(c.CreationsPerIPPerDay)
		g.creations = newAddrLimiter("creations", n/86400, n)
	}
	return g
}

// guardStats returns the connections closed at once because their address
// had MaxConnsPerIP open, and the requests answered 429 rate_limited.
func (s *Server) guardStats() (connsRefused, rateLimited int64) {
	g := s.guard
	return g.connsRefused.Load(), g.limited.Load()
}

// clearDeadlines removes the read and write deadlines that HTTPReadTimeout
// and HTTPWriteTimeout put on the connection of a request. handleWS calls
// it before upgrading: a WebSocket lives for hours, and the deadlines must
// not cut it after 15 s (the socket has its own keep-alive, PingInterval,
// and per-message limits). net/http already clears them when a connection
// is hijacked, which is how the upgrade works over HTTP/1.1 today; this
// says so explicitly and also holds for an upgrade that is not a hijack.
func clearDeadlines(w http.ResponseWriter) {
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
}

// ---- client addresses ----

// addrKey is the key of a client address for the per-address limits: the
// IPv4 address, or the /64 of an IPv6 address (one host commonly has a
// whole /64 to pick addresses from). remote is the peer's address, or the
// client's as clientAddr found it behind a trusted proxy.
func addrKey(remote string) string {
	a, ok := parseHostAddr(remote)
	return addrKeyOf(remote, a, ok)
}

// addrKeyOf is addrKey of remote read as a (ok: it is an IP address).
func addrKeyOf(remote string, a netip.Addr, ok bool) string {
	if !ok {
		return remote // not an IP (a pipe, a test): one key per string
	}
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// addrKeys is addrKey of remote and its wider network's key: the /48 of an
// IPv6 address, "" for anything else.
func addrKeys(remote string) (addr, net string) {
	a, ok := parseHostAddr(remote)
	if ok && a.Is6() {
		p, _ := a.Prefix(48)
		net = p.String()
	}
	return addrKeyOf(remote, a, ok), net
}

// netShare is how many addresses' quota the wider network of an IPv6
// address (its /48) gets in the per-address quotas of lasting things
// (addrLimiter).
const netShare = 16

// addrLimiter is a quota per client address (addrKey: an IPv4 address or
// an IPv6 /64) with, for IPv6, a second bucket per /48 (the net key of
// addrKeys; none for IPv4: a /24 holds many unrelated people) of netShare
// times the quota. A /48 is 65,536 /64s and anyone can have one (tunnel brokers
// give them away), so without the wider bucket its holder would have
// 65,536 fresh quotas of sessions, accounts and tournaments; with it, 16.
type addrLimiter struct {
	addr, net   *limiter
	kind        string  // the shared buckets' kind (store.Quotas)
	rate, burst float64 // an address's; its /48 gets netShare times both
}

func newAddrLimiter(kind string, rate, burst float64) *addrLimiter {
	return &addrLimiter{addr: newLimiter(rate, burst), net: newLimiter(rate*netShare, burst*netShare), kind: kind, rate: rate, burst: burst}
}

// allow takes one token from remote's address and, for IPv6, from its
// /48, or none when either has none (then how long until the next, and
// whether it was the /48's bucket that refused: a refusal names the bound
// that was reached, widen).
func (l *addrLimiter) allow(remote string) (ok bool, retry time.Duration, wide bool) {
	ak, nk := addrKeys(remote)
	return l.allowKeys(ak, nk)
}

// allowKeys is allow of an address known by its keys (addrKeys).
func (l *addrLimiter) allowKeys(ak, nk string) (ok bool, retry time.Duration, wide bool) {
	if nk != "" {
		if ok, retry := l.net.allow(nk); !ok {
			return false, retry, true
		}
	}
	ok, retry = l.addr.allow(ak)
	if !ok && nk != "" {
		l.net.refund(nk)
	}
	return ok, retry, false
}

// widen is the limit an addrLimiter's /48 bucket enforces when wide: the
// address's limit netShare times.
func widen(l protocol.Limit, wide bool) protocol.Limit {
	if wide {
		l.Max *= netShare
		l.Burst *= netShare
	}
	return l
}

// refund gives back a token allow took.
func (l *addrLimiter) refund(remote string) {
	ak, nk := addrKeys(remote)
	l.addr.refund(ak)
	if nk != "" {
		l.net.refund(nk)
	}
}

// quotaKey is the shared bucket's key of an address key: a digest, so the
// store never holds a client's address.
func quotaKey(kind, key string) string {
	h := sha256.Sum256([]byte("cardroom quota " + kind + "\x00" + key))
	return hex.EncodeToString(h[:16])
}

// allowShared takes what allow took from the node's own buckets from the
// cluster's shared ones too (g.shared), as allowKeys does: the /48's
// bucket, then the address's. Refused, it gives back what it took there
// and in the node's buckets. A store that cannot answer leaves the
// decision to the node's buckets (logged, counted): a quota must not stop
// the room when its database hiccups.
func (g *guard) allowShared(ctx context.Context, l *addrLimiter, remote string) (ok bool, retry time.Duration, wide bool) {
	if g.shared == nil {
		return true, 0, false
	}
	ak, nk := addrKeys(remote)
	fail := func(err error) (bool, time.Duration, bool) {
		// Counted, and logged at debug: a database that is away logs
		// its own warnings, and a flood must not become one line each.
		g.sharedErrors.Add(1)
		g.log.Debug("shared quota", "kind", l.kind, "err", err)
		return true, 0, false
	}
	if nk != "" {
		ok, retry, err := g.shared.TakeQuota(ctx, l.kind+"/48", quotaKey(l.kind, nk), l.rate*netShare, l.burst*netShare)
		if err != nil {
			return fail(err)
		}
		if !ok {
			l.refund(remote)
			return false, retry, true
		}
	}
	ok, retry, err := g.shared.TakeQuota(ctx, l.kind, quotaKey(l.kind, ak), l.rate, l.burst)
	if err != nil {
		return fail(err)
	}
	if !ok {
		l.refund(remote)
		if nk != "" {
			g.shared.RefundQuota(ctx, l.kind+"/48", quotaKey(l.kind, nk))
		}
	}
	return ok, retry, false
}

// refundShared gives back to the shared buckets what allowShared took.
func (g *guard) refundShared(ctx context.Context, l *addrLimiter, remote string) {
	if g.shared == nil {
		return
	}
	ak, nk := addrKeys(remote)
	if err := g.shared.RefundQuota(ctx, l.kind, quotaKey(l.kind, ak)); err != nil {
		g.sharedErrors.Add(1)
	}
	if nk != "" {
		if err := g.shared.RefundQuota(ctx, l.kind+"/48", quotaKey(l.kind, nk)); err != nil {
			g.sharedErrors.Add(1)
		}
	}
}

// parseHostAddr reads an address with or without a port ("1.2.3.4",
// "1.2.3.4:80", "[::1]:80", "::1", "[::1]"), unmapped and without zone.
func parseHostAddr(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	var a netip.Addr
	if ap, err := netip.ParseAddrPort(s); err == nil {
		a = ap.Addr()
	} else if a, err = netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")); err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap().WithZone(""), true
}

// ---- client addresses behind a reverse proxy ----

// maxForwardedHops bounds the X-Forwarded-For entries read: a chain of
// proxies longer than this is not a deployment, and the header's length is
// the client's to choose (up to MaxHeaderBytes).
const maxForwardedHops = 32

// ParseTrustedProxies reads -trusted-proxies: a comma-separated list of
// CIDR prefixes or single addresses ("127.0.0.1, 10.0.0.0/8, ::1"). An
// empty list trusts nobody (the default).
func ParseTrustedProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for f := range strings.SplitSeq(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if len(out) == 1024 {
			return nil, fmt.Errorf("trusted-proxies: more than 1024 entries")
		}
		if strings.Contains(f, "/") {
			p, err := netip.ParsePrefix(f)
			if err != nil {
				return nil, fmt.Errorf("trusted-proxies: %q is not a CIDR prefix (like 10.0.0.0/8): %v", f, err)
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("trusted-proxies: %q is not an address or a CIDR prefix", f)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// DefaultMetricsFrom are the networks /metrics answers by default:
// loopback, the private IPv4 networks and IPv6's unique local and
// link-local addresses, where a room's own Prometheus scrapes from.
const DefaultMetricsFrom = "127.0.0.0/8,::1/128,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7,fe80::/10"

// ParseMetricsFrom reads -metrics-from: "" is DefaultMetricsFrom, "any"
// is every address, else a list as for -trusted-proxies.
func ParseMetricsFrom(list string) ([]netip.Prefix, error) {
	switch strings.TrimSpace(list) {
	case "":
		list = DefaultMetricsFrom
	case "any":
		list = "0.0.0.0/0,::/0"
	}
	p, err := ParseTrustedProxies(list)
	if err != nil {
		return nil, errors.New("metrics-from" + strings.TrimPrefix(err.Error(), "trusted-proxies"))
	}
	if len(p) == 0 {
		return nil, errors.New("metrics-from: no address: give \"any\" to serve /metrics to everyone")
	}
	return p, nil
}

// metricsAllowed reports whether r's client (clientAddr, so behind a
// trusted proxy the real client) is one /metrics answers. An address
// that is not an IP (a pipe) is local.
func (g *guard) metricsAllowed(r *http.Request) bool {
	a, ok := parseHostAddr(g.clientAddr(r))
	if !ok {
		return true
	}
	for _, p := range g.metricsFrom {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// isTrusted reports whether a is one of the trusted proxies.
func (g *guard) isTrusted(a netip.Addr) bool {
	for _, p := range g.trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// clientAddr is the address of the client of r, for the per-address limits
// and the logs. Without trusted proxies (the default) it is the peer's
// address: any X-Forwarded-For is the client's own claim and is ignored.
// When the peer is a trusted proxy, the header is read from the right:
// each proxy appends the address it was connected from, so the rightmost
// entry that is not itself a trusted proxy is the client, and everything
// left of it may be forged by that client. An entry that is not an
// address stops the walk at the last proxy read; a request from a trusted
// proxy without the header is the proxy's own.
func (g *guard) clientAddr(r *http.Request) string {
	if len(g.trusted) == 0 {
		return r.RemoteAddr
	}
	peer, ok := parseHostAddr(r.RemoteAddr)
	if !ok || !g.isTrusted(peer) {
		return r.RemoteAddr
	}
	var hops []string
	for _, h := range r.Header.Values("X-Forwarded-For") {
		for f := range strings.SplitSeq(h, ",") {
			if f = strings.TrimSpace(f); f == "" {
				continue // "a,,b": no hop there
			}
			hops = append(hops, f)
			if len(hops) > 4*maxForwardedHops {
				hops = hops[len(hops)-maxForwardedHops:]
			}
		}
	}
	client := peer
	for i, n := len(hops)-1, 0; i >= 0 && n < maxForwardedHops; i, n = i-1, n+1 {
		a, ok := parseHostAddr(hops[i])
		if !ok {
			break
		}
		client = a
		if !g.isTrusted(a) {
			break
		}
	}
	return client.String()
}

// ---- connections per address ----

// capListener closes at once a new connection whose address already has
// max connections open, before any byte of it is read: an address cannot
// hold more than max goroutines and sockets, whatever it sends.
type capListener struct {
	net.Listener
	g   *guard
	max int
	mu  sync.Mutex
	// open counts the connections open per addrKey; keys at zero are
	// deleted, so the map holds only addresses with open connections.
	open map[string]int
}

// listener wraps l to cap the connections per address (none with the cap
// off) and count those open.
func (g *guard) listener(l net.Listener) net.Listener {
	return &capListener{Listener: l, g: g, max: g.maxConns, open: map[string]int{}}
}

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.max <= 0 {
			return l.accepted(c, "", ""), nil
		}
		if len(l.g.trusted) > 0 {
			// A trusted proxy carries every client's connections: capping
			// it would cap the whole room (the proxy limits per client).
			if a, ok := parseHostAddr(c.RemoteAddr().String()); ok && l.g.isTrusted(a) {
				return l.accepted(c, "", ""), nil
			}
		}
		// An IPv6 address's /48 (netKey) has netShare times the cap, as
		// the lasting quotas do: its holder has 65,536 /64s.
		key, netKey := addrKeys(c.RemoteAddr().String())
		l.mu.Lock()
		ok := l.open[key] < l.max && (netKey == "" || l.open[netKey] < l.max*netShare)
		if ok {
			l.open[key]++
			if netKey != "" {
				l.open[netKey]++
			}
		}
		l.mu.Unlock()
		if ok {
			return l.accepted(c, key, netKey), nil
		}
		l.g.connsRefused.Add(1)
		c.Close()
	}
}

// accepted is c counted open (and under key and netKey, unless "").
func (l *capListener) accepted(c net.Conn, key, netKey string) *capConn {
	l.g.tcpOpen.Add(1)
	return &capConn{Conn: c, l: l, key: key, netKey: netKey}
}

func (l *capListener) release(keys ...string) {
	l.g.tcpOpen.Add(-1)
	l.mu.Lock()
	for _, key := range keys {
		if key == "" {
			continue
		}
		if l.open[key]--; l.open[key] <= 0 {
			delete(l.open, key)
		}
	}
	l.mu.Unlock()
}

// count is the number of connections open from key (tests).
func (l *capListener) count(key string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open[key]
}

// capConn gives its slot back on its first Close: the HTTP server, a
// WebSocket and the shutdown path may each close a connection.
type capConn struct {
	net.Conn
	l      *capListener
	key    string
	netKey string // "" for IPv4
	once   sync.Once
}

func (c *capConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.key, c.netKey) })
	return err
}

// CloseWrite lets the HTTP server half-close the connection after an error
// answer (so the client reads it before the reset), as on a bare TCP
// connection.
func (c *capConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// SyscallConn hands over the socket's descriptor, so that a WebSocket
// on a capped connection still writes without blocking on the goroutine
// that handled the move (wsconn's TryWriteText); without it every
// flush woke a writer goroutine.
func (c *capConn) SyscallConn() (syscall.RawConn, error) {
	if sc, ok := c.Conn.(syscall.Conn); ok {
		return sc.SyscallConn()
	}
	return nil, errors.ErrUnsupported
}

// ---- token buckets per address ----

// The buckets are quota.go's limiter: a token bucket per key whose map is
// bounded (maxKeys, 100,000), so an attacker rotating through addresses
// cannot grow it without bound; the key here is addrKey.

// rateLimited answers 429 with the error shape of writeErr, the limit l
// with the seconds to wait, and those seconds in Retry-After.
func (g *guard) rateLimited(w http.ResponseWriter, r *http.Request, retry time.Duration, l protocol.Limit, msg string) {
	g.limited.Add(1)
	g.log.Debug("rate limited", "addr", g.clientAddr(r), "path", r.URL.Path)
	l.Retry = max(retrySeconds(retry), 1)
	w.Header().Set("Retry-After", strconv.Itoa(l.Retry))
	writeJSON(w, http.StatusTooManyRequests, protocol.ErrorBody{Error: protocol.ErrorDetail{Code: protocol.RateLimited, Message: msg, Limit: &l}})
}

// allowSession charges one session creation to the caller's address and
// answers 429 when its hourly quota is spent. It is on top of the API
// rate: at 20 requests a second one address could otherwise fill the store
// with 72,000 sessions an hour.
func (g *guard) allowSession(w http.ResponseWriter, r *http.Request) bool {
	if g.sessions == nil {
		return true
	}
	ok, retry, wide := g.take(r, g.sessions)
	if !ok {
		g.rateLimited(w, r, retry, widen(g.sessionsLimit, wide), "too many new sessions from your address: keep your session token, or try again later")
	}
	return ok
}

// allowCreation charges one lasting creation (an account claimed, a
// tournament created) to the caller's address and answers 429 when its
// daily quota is spent; refundCreation gives it back when the creation
// is then refused for another reason.
func (g *guard) allowCreation(w http.ResponseWriter, r *http.Request, what string) bool {
	if g.creations == nil {
		return true
	}
	ok, retry, wide := g.take(r, g.creations)
	if !ok {
		g.creationsLimited.Add(1)
		g.rateLimited(w, r, retry, widen(g.creationLimit, wide), "too many "+what+" from your address today: try again later")
	}
	return ok
}

// refundSession gives back the token allowSession took, for a request
// that then made no session (a login refused).
func (g *guard) refundSession(r *http.Request) {
	if g.sessions != nil {
		g.giveBack(r, g.sessions)
	}
}

func (g *guard) refundCreation(r *http.Request) {
	if g.creations != nil {
		g.giveBack(r, g.creations)
	}
}

// take charges one token of quota l to r's client: the node's own
// buckets, then, in a cluster, the shared ones (allowShared).
func (g *guard) take(r *http.Request, l *addrLimiter) (ok bool, retry time.Duration, wide bool) {
	addr := g.clientAddr(r)
	if ok, retry, wide = l.allow(addr); !ok {
		return ok, retry, wide
	}
	return g.allowShared(r.Context(), l, addr)
}

// giveBack returns the token take took.
func (g *guard) giveBack(r *http.Request, l *addrLimiter) {
	addr := g.clientAddr(r)
	l.refund(addr)
	g.refundShared(r.Context(), l, addr)
}

// ---- the handler in front of every route ----

// protect sets the browser hardening headers on every answer and applies
// the API rate to /api/. Static files, /healthz, /metrics and the
// WebSocket handshake are not rate limited: they cost little, and a
// socket has its own per-message limit.
func (s *Server) protect(next http.Handler) http.Handler {
	g := s.guard
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		// Invite links carry the invite code in the query: never send it
		// to another site in Referer.
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		if s.secure(r) {
			// The room is reached over TLS: browsers are to keep to it
			// (the session cookie is Secure then, see sessionCookie).
			h.Set("Strict-Transport-Security", "max-age=15552000")
		}
		if strings.HasPrefix(r.URL.Path, "/api/") {
			if g.api != nil {
				// The /48's bucket too: its holder has 65,536 /64s.
				if ok, retry, wide := g.api.allow(g.clientAddr(r)); !ok {
					g.rateLimited(w, r, retry, widen(g.apiLimit, wide), "too many requests from your address: slow down")
					return
				}
			}
			if err := s.crossSite(r); err != nil {
				g.crossSite.Add(1)
				writeErr(w, http.StatusForbidden, protocol.Forbidden, err.Error())
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// crossSite refuses a request that changes state with the session cookie
// and comes from a page of another origin: a form or fetch on another
// site, or on a sibling host or port of the room's own site, which the
// cookie's SameSite=Lax does not stop (a top-level form POST carries it,
// and "same site" ignores ports and subdomains). Such a page could start
// a guest session in the visitor's place (their seats and games lost with
// the old cookie), log them out, or create tables as them. A request with
// a bearer token (a program's) is not a browser's and is not checked; the
// Origin is judged as the WebSocket's is (the request's host, or
// Config.AllowedOrigins and -public-url); a browser that sends no Origin is
// judged by Sec-Fetch-Site.
func (s *Server) crossSite(r *http.Request) error {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return nil
	}
	if r.Header.Get("Authorization") != "" {
		return nil
	}
	if r.Header.Get("Origin") != "" {
		if err := wsconn.CheckOrigin(r, s.originPatterns()); err != nil {
			return fmt.Errorf("a request from another site's page is refused (Origin %.80q)", r.Header.Get("Origin"))
		}
		return nil
	}
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "", "same-origin", "none":
		return nil
	default:
		return fmt.Errorf("a request from another site's page is refused (Sec-Fetch-Site %.20q)", site)
	}
}

// secure reports whether the room is reached over TLS: served with TLS
// here, or behind a proxy at an https public URL.
func (s *Server) secure(r *http.Request) bool {
	return r.TLS != nil || strings.HasPrefix(s.cfg.PublicURL, "https://")
}

// noDirListing serves the client's files but answers 404 for any
// directory other than the root (http.FileServer would list it, showing
// every file of the client and whatever is ever added next to it).
func noDirListing(fsys fs.FS) http.Handler {
	files := http.FileServerFS(fsys)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name != "" && name != "." {
			if st, err := fs.Stat(fsys, name); err == nil && st.IsDir() {
				http.NotFound(w, r)
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}
