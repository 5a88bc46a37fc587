package server

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"cardroom/protocol"
	"cardroom/table"
)

// clientAddr believes X-Forwarded-For only from a trusted proxy, and then
// only as far as the rightmost address that is not a trusted proxy:
// whatever stands left of it is the client's to write.
func TestClientAddr(t *testing.T) {
	cases := []struct {
		name    string
		trusted string
		remote  string
		xff     []string
		want    string
	}{
		{"no proxies: the header is ignored", "", "203.0.113.9:5000", []string{"1.2.3.4"}, "203.0.113.9:5000"},
		{"untrusted peer spoofs", "10.0.0.0/8", "203.0.113.9:5000", []string{"1.2.3.4"}, "203.0.113.9:5000"},
		{"untrusted peer spoofs a trusted address", "10.0.0.0/8", "203.0.113.9:5000", []string{"10.0.0.7"}, "203.0.113.9:5000"},
		{"trusted proxy, one client", "10.0.0.1", "10.0.0.1:4000", []string{"198.51.100.7"}, "198.51.100.7"},
		{"client prepends a forged address", "10.0.0.1", "10.0.0.1:4000", []string{"6.6.6.6, 198.51.100.7"}, "198.51.100.7"},
		{"forged header line before the proxy's", "10.0.0.1", "10.0.0.1:4000", []string{"6.6.6.6", "198.51.100.7"}, "198.51.100.7"},
		{"a chain of trusted proxies", "10.0.0.0/8", "10.0.0.1:4000", []string{"6.6.6.6, 198.51.100.7, 10.1.1.1, 10.2.2.2"}, "198.51.100.7"},
		{"client claims to be a proxy", "10.0.0.0/8", "10.0.0.1:4000", []string{"10.9.9.9"}, "10.9.9.9"},
		{"trusted proxy without header", "10.0.0.1", "10.0.0.1:4000", nil, "10.0.0.1"},
		{"garbage stops the walk at the proxy", "10.0.0.1", "10.0.0.1:4000", []string{"198.51.100.7, not-an-ip"}, "10.0.0.1"},
		{"entry with a port", "10.0.0.1", "10.0.0.1:4000", []string{"198.51.100.7:1234"}, "198.51.100.7"},
		{"IPv6 client behind an IPv6 proxy", "::1", "[::1]:4000", []string{"2001:db8::5"}, "2001:db8::5"},
		{"bracketed IPv6 entry", "::1", "[::1]:4000", []string{"[2001:db8::5]"}, "2001:db8::5"},
		{"IPv4-mapped proxy address", "127.0.0.1", "[::ffff:127.0.0.1]:4000", []string{"198.51.100.7"}, "198.51.100.7"},
		{"empty entries", "10.0.0.1", "10.0.0.1:4000", []string{" , 198.51.100.7"}, "198.51.100.7"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			trusted, err := ParseTrustedProxies(c.trusted)
			if err != nil {
				t.Fatal(err)
			}
			g := newGuard(Config{TrustedProxies: trusted})
			r := httptest.NewRequest("GET", "/api/games", nil)
			r.RemoteAddr = c.remote
			for _, v := range c.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := g.clientAddr(r); got != c.want {
				t.Errorf("clientAddr = %q, want %q", got, c.want)
			}
		})
	}
}

// A header of thousands of entries costs a bounded walk and still names
// the rightmost client.
func TestClientAddrLongHeader(t *testing.T) {
	trusted, _ := ParseTrustedProxies("10.0.0.0/8")
	g := newGuard(Config{TrustedProxies: trusted})
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "10.0.0.1:1"
	r.Header.Set("X-Forwarded-For", strings.Repeat("6.6.6.6, ", 5000)+"198.51.100.7, 10.0.0.2")
	if got := g.clientAddr(r); got != "198.51.100.7" {
		t.Errorf("clientAddr = %q", got)
	}
	// Every entry a trusted proxy: the walk ends after maxForwardedHops.
	r.Header.Set("X-Forwarded-For", strings.Repeat("10.0.0.3, ", 5000))
	if got := g.clientAddr(r); got != "10.0.0.3" {
		t.Errorf("all trusted: clientAddr = %q", got)
	}
}

func TestParseTrustedProxies(t *testing.T) {
	cases := []struct {
		in      string
		want    []string
		errPart string
	}{
		{"", nil, ""},
		{"127.0.0.1", []string{"127.0.0.1/32"}, ""},
		{" 10.1.2.3/8 , ::1 ", []string{"10.0.0.0/8", "::1/128"}, ""},
		{"::ffff:127.0.0.1", []string{"127.0.0.1/32"}, ""},
		{"10.0.0.0/33", nil, "not a CIDR prefix"},
		{"localhost", nil, "not an address"},
		{"10.0.0.1,,", []string{"10.0.0.1/32"}, ""},
		{strings.Repeat("10.0.0.1,", 1025), nil, "more than 1024"},
	}
	for _, c := range cases {
		got, err := ParseTrustedProxies(c.in)
		if c.errPart != "" {
			if err == nil || !strings.Contains(err.Error(), c.errPart) {
				t.Errorf("%.30q: err %v, want %q", c.in, err, c.errPart)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		var s []string
		for _, p := range got {
			s = append(s, p.String())
		}
		if strings.Join(s, " ") != strings.Join(c.want, " ") {
			t.Errorf("%q: %v, want %v", c.in, s, c.want)
		}
	}
}

func TestCheckPublicURL(t *testing.T) {
	cases := []struct {
		in, want, errPart string
	}{
		{"", "", ""},
		{"https://cards.example.com", "https://cards.example.com", ""},
		{"https://Cards.Example.com/", "https://cards.example.com", ""},
		{"http://192.168.1.20:8080", "http://192.168.1.20:8080", ""},
		{"http://[2001:db8::1]:8080/", "http://[2001:db8::1]:8080", ""},
		{"ftp://cards.example.com", "", "http:// or https://"},
		{"cards.example.com", "", "http:// or https://"},
		{"https://", "", "no host"},
		{"https://cards.example.com/room", "", "root of its host"},
		{"https://cards.example.com/?x=1", "", "only scheme://host"},
		{"https://user@cards.example.com", "", "only scheme://host"},
		{"https://cards.example.com#x", "", "only scheme://host"},
		{"https://*.example.com", "", "pattern character"},
	}
	for _, c := range cases {
		got, err := CheckPublicURL(c.in)
		if c.errPart != "" {
			if err == nil || !strings.Contains(err.Error(), c.errPart) {
				t.Errorf("%q: got %q, err %v; want an error with %q", c.in, got, err, c.errPart)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// apiStatus sends GET /api/games with the given X-Forwarded-For (none if
// empty) and returns the status.
func apiStatus(t *testing.T, hc *http.Client, base, xff string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", base+"/api/games", nil)
	if xff != "" {
		req.Header.Set("X-Forwarded-For", xff)
	}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// The API rate per address (burst 3, no refill here) counts what
// clientAddr says: a client that writes its own X-Forwarded-For gets a
// fresh bucket only when it is talking through a trusted proxy, and even
// then not by prepending addresses.
func TestForwardedForAndRateLimit(t *testing.T) {
	cases := []struct {
		name    string
		trusted string
		xffs    []string // one request each
		want    []int
	}{
		{"no proxies: rotating the header does not help", "",
			[]string{"1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4"}, []int{200, 200, 200, 429}},
		{"untrusted peer: rotating the header does not help", "10.0.0.0/8",
			[]string{"1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4"}, []int{200, 200, 200, 429}},
		{"trusted proxy: each client its own bucket", "127.0.0.1",
			[]string{"1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4", "1.1.1.1", "1.1.1.1", "1.1.1.1"}, []int{200, 200, 200, 200, 200, 200, 429}},
		{"trusted proxy: prepending forged addresses does not help", "127.0.0.1",
			[]string{"1.1.1.1, 9.9.9.9", "2.2.2.2, 9.9.9.9", "3.3.3.3, 9.9.9.9", "4.4.4.4, 9.9.9.9"}, []int{200, 200, 200, 429}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			trusted, err := ParseTrustedProxies(c.trusted)
			if err != nil {
				t.Fatal(err)
			}
			ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, HTTPRate: 1e-9, HTTPBurst: 3, TrustedProxies: trusted})
			for i, xff := range c.xffs {
				if got := apiStatus(t, http.DefaultClient, ts.url, xff); got != c.want[i] {
					t.Errorf("request %d (X-Forwarded-For %q): %d, want %d", i, xff, got, c.want[i])
				}
			}
		})
	}
}

// With a public URL, a page served from it may open /ws whatever Host the
// proxy passes on; any other origin (or the same host over plain http)
// may not, and the welcome carries the URL for the invite links.
func TestPublicURLOrigin(t *testing.T) {
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, PublicURL: "https://Cards.example.com/"})
	sess := newSession(t, ts.url, "alice")
	cases := []struct {
		origin string
		ok     bool
	}{
		{"", true}, // a program
		{"https://cards.example.com", true},
		{"https://CARDS.example.com", true},
		{"http://cards.example.com", false},
		{"https://evil.example.com", false},
		{"https://cards.example.com.evil.example", false},
		{ts.url, true}, // the room's own host
	}
	for _, c := range cases {
		h := http.Header{"Authorization": {"Bearer " + sess.Token}}
		if c.origin != "" {
			h.Set("Origin", c.origin)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		ws, _, err := websocket.Dial(ctx, protocol.WSURL(ts.url), &websocket.DialOptions{HTTPHeader: h})
		if (err == nil) != c.ok {
			t.Errorf("Origin %q: err %v, want ok=%v", c.origin, err, c.ok)
		}
		if err == nil {
			_, b, err := ws.Read(ctx)
			var w protocol.WelcomeMsg
			if err != nil || json.Unmarshal(b, &w) != nil || w.PublicURL != "https://cards.example.com" {
				t.Errorf("Origin %q: welcome %s (%v): want public_url https://cards.example.com", c.origin, b, err)
			}
			ws.CloseNow()
		}
		cancel()
	}
	// No public URL: the welcome has none.
	ts2 := startServer(t, t.TempDir(), table.Config{})
	c := dial(t, ts2.url, newSession(t, ts2.url, "bob"))
	if _, ok := c.welcome["public_url"]; ok {
		t.Errorf("welcome without -public-url: %v", c.welcome)
	}
	if _, err := New(Config{Store: ts2.s.store, PublicURL: "https://cards.example.com/room"}); err == nil {
		t.Error("New accepted a public URL with a path")
	}
}

// ---- nginx in front (the README's configuration) ----

// nginxPath finds nginx; without it the test skips, except in CI
// (scripts/setup installs nginx-light), where a missing proxy fails.
func nginxPath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("nginx")
	if err != nil {
		if _, e := os.Stat("/usr/sbin/nginx"); e == nil {
			return "/usr/sbin/nginx"
		}
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set but nginx is missing (scripts/setup installs nginx-light): %v", err)
		}
		t.Skipf("the reverse-proxy test needs nginx (Debian package nginx-light; scripts/setup installs it): %v", err)
	}
	return p
}

// readmeNginx is the nginx block of README.md.
func readmeNginx(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "```nginx\n")
	if i < 0 {
		t.Fatal("README.md has no ```nginx block")
	}
	s = s[i+len("```nginx\n"):]
	j := strings.Index(s, "```")
	if j < 0 {
		t.Fatal("README.md: the nginx block does not end")
	}
	return s[:j]
}

// selfSigned writes a certificate for localhost and 127.0.0.1 and its key
// to dir, and returns a pool that trusts it.
func selfSigned(t *testing.T, dir string) (certPath, keyPath string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "localhost"},
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	certPath, keyPath = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
	os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certPath, keyPath, pool
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// clientFrom is an HTTPS client that trusts pool and connects from the
// loopback address local (127.0.0.0/8 is all loopback on Linux), so that
// the test can be several clients behind the proxy.
func clientFrom(local string, pool *x509.CertPool) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}, Timeout: 5 * time.Second}
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		DialContext: d.DialContext, TLSClientConfig: &tls.Config{RootCAs: pool},
	}}
}

// TestBehindNginx runs the README's nginx block, TLS included, in front of
// a room started with the README's flags, and plays a whole game over
// WebSocket through it from a page origin of the public URL; the room
// sees each client's own address (the API rate per address applies to the
// client, whatever it writes in X-Forwarded-For, not to the proxy).
func TestBehindNginx(t *testing.T) {
	needGame(t, "papayoo")
	bin := nginxPath(t)
	dir := t.TempDir()
	port := freePort(t)
	public := fmt.Sprintf("https://localhost:%d", port)
	ts := startServerCfg(t, t.TempDir(), Config{Rate: 10000, Burst: 10000, HTTPRate: 1e-9, HTTPBurst: 4,
		PublicURL: public, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	certPath, keyPath, pool := selfSigned(t, dir)

	site := readmeNginx(t)
	for _, r := range []struct{ old, new string }{
		{"/etc/letsencrypt/live/cards.example.com/fullchain.pem", certPath},
		{"/etc/letsencrypt/live/cards.example.com/privkey.pem", keyPath},
		{"listen 443 ssl;", fmt.Sprintf("listen 127.0.0.1:%d ssl;", port)},
		{"server_name cards.example.com;", "server_name localhost;"},
		{"proxy_pass http://127.0.0.1:8080;", "proxy_pass " + ts.url + ";"},
	} {
		if !strings.Contains(site, r.old) {
			t.Fatalf("README.md's nginx block no longer has %q: update this test with it", r.old)
		}
		site = strings.ReplaceAll(site, r.old, r.new)
	}
	// What Debian's /etc/nginx/nginx.conf provides around a site, with
	// every path in the test's directory.
	conf := fmt.Sprintf(`worker_processes 1;
error_log %[1]s/error.log warn;
pid %[1]s/nginx.pid;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path %[1]s/body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
%[2]s
}
`, dir, site)
	confPath := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "-t", "-p", dir, "-c", confPath).CombinedOutput(); err != nil {
		t.Fatalf("nginx -t refuses the README's block: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-p", dir, "-c", confPath, "-g", "daemon off;")
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	alice := clientFrom("127.0.0.3", pool)
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := alice.Get(public + "/healthz")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("nginx did not come up: %v (error.log: %s)", err, readFile(filepath.Join(dir, "error.log")))
		}
		time.Sleep(50 * time.Millisecond)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := protocol.NewSession(ctx, alice, public, "alice") // /api/ request 1 of alice's 4
	if err != nil {
		t.Fatal(err)
	}
	// A browser page of the public URL: Origin is the public URL, and
	// nginx passes Host localhost:port on.
	ws, _, err := websocket.Dial(ctx, protocol.WSURL(public), &websocket.DialOptions{HTTPClient: alice,
		HTTPHeader: http.Header{"Authorization": {"Bearer " + s.Token}, "Origin": {public}}})
	if err != nil {
		t.Fatalf("WebSocket through nginx: %v", err)
	}
	ws.CloseNow()
	pc, err := protocol.Dial(ctx, public, &protocol.Options{Token: s.Token, HTTPClient: alice})
	if err != nil {
		t.Fatalf("protocol.Dial through nginx: %v", err)
	}
	if got := pc.Welcome().PublicURL; got != public {
		t.Errorf("welcome.public_url %q, want %q", got, public)
	}
	c := wrapClient(t, session{s.Token, s.Player, s.Name}, pc)
	id := seatAll(t, c)
	fin := c.play(id, 3, nil)
	for seat, st := range fin {
		if st.Status != "finished" {
			t.Errorf("seat %d: %s, want finished through the proxy", seat, st.Status)
		}
	}

	// alice has used 1 of her 4 API requests; forging X-Forwarded-For
	// does not give her more, and bob, behind the same proxy, has his own.
	for i, want := range []int{200, 200, 200, 429} {
		if got := apiStatus(t, alice, public, fmt.Sprintf("6.6.6.%d", i)); got != want {
			t.Errorf("alice's request %d with a forged X-Forwarded-For: %d, want %d", i+2, got, want)
		}
	}
	if got := apiStatus(t, clientFrom("127.0.0.4", pool), public, ""); got != 200 {
		t.Errorf("bob behind the same proxy: %d, want 200 (the proxy's address must not be the key)", got)
	}
}

func readFile(p string) string { b, _ := os.ReadFile(p); return string(b) }
