// Package pgtest gives tests a PostgreSQL database of their own.
//
// A test binary that uses it starts at most one private server, on first
// use, so packages that never ask pay nothing: Debian's binaries are
// looked up under /usr/lib/postgresql/*/bin (the newest version wins),
// initdb makes a cluster in a temporary directory (as the postgres system
// user when the tests run as root, since PostgreSQL refuses to run as
// root), and pg_ctl starts it on a free port of 127.0.0.1 (password
// authentication) with its unix socket in that directory (trust: only the
// directory's owner can reach it), so it never meets the distribution's
// own cluster or another test binary's. Tests connect through the socket. The cluster runs with fsync off: a
// test server that loses its data in a power cut loses nothing of value,
// and the tests run several times faster. Main stops the server and
// removes the directory when the tests end.
//
// Each test gets a fresh schema (URL), named after nothing the test
// controls and dropped when the test ends, and a URL whose search_path
// is that schema: tables of one test are invisible to the next, at the
// cost of a CREATE SCHEMA (a millisecond) rather than a CREATE DATABASE.
//
// CARDROOM_TEST_POSTGRES=postgres://user:pass@host/db uses that server
// instead (the user needs CREATE on the database). Without binaries and
// without that variable, URL reports that PostgreSQL is unavailable and
// the caller skips; with CI set (as .ci/run's environment has) it fails
// the test instead, as the browser tests do for a missing Chromium, so CI
// cannot pass by testing nothing.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvURL names the variable that points the tests at an existing server.
const EnvURL = "CARDROOM_TEST_POSTGRES"

var (
	once     sync.Once
	base     string // the server's URL (no search_path); "" when unavailable
	why      string // why it is unavailable
	instance *cluster
	schemas  atomic.Int64
)

// Main runs the tests and then stops the private server, if one was
// started. Call it from TestMain: func TestMain(m *testing.M) { pgtest.Main(m) }.
func Main(m *testing.M) {
	code := m.Run()
	Stop()
	os.Exit(code)
}

// Stop stops the private server, if one was started: for a TestMain that
// has more to do than Main.
func Stop() {
	if instance != nil {
		if err := instance.stop(); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest:", err)
		}
		instance = nil
	}
}

// URL returns the address of a fresh, empty schema on the test server
// (its search_path set), dropped when t ends, and true; or "" and false
// when no PostgreSQL is available, after logging why. With CI set, a
// missing PostgreSQL fails t instead.
func URL(t testing.TB) (string, bool) {
	t.Helper()
	once.Do(start)
	if base == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set but PostgreSQL is unavailable: %s", why)
		}
		t.Logf("PostgreSQL tests skipped: %s", why)
		return "", false
	}
	name, err := newSchema(base)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		if err := dropSchema(base, name); err != nil {
			t.Errorf("pgtest: drop schema %s: %v", name, err)
		}
	})
	return withSearchPath(base, name), true
}

// Require is URL for a test that needs PostgreSQL: it skips t (fails it
// in CI) when none is available.
func Require(t testing.TB) string {
	t.Helper()
	u, ok := URL(t)
	if !ok {
		t.Skip("no PostgreSQL (see the log above)")
	}
	return u
}

// withSearchPath adds search_path to a URL; pgx sends unknown parameters
// to the server as run-time settings.
func withSearchPath(u, schema string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	q := p.Query()
	q.Set("search_path", schema)
	p.RawQuery = q.Encode()
	return p.String()
}

func exec1(u, stmt string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, u)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	_, err = c.Exec(ctx, stmt)
	return err
}

// newSchema creates a schema with a name no other test binary on a shared
// server picks (a random part) and that orders by creation (a counter).
func newSchema(u string) (string, error) {
	b := make([]byte, 4)
	rand.Read(b)
	name := fmt.Sprintf("cardroom_test_%d_%s", schemas.Add(1), hex.EncodeToString(b))
	return name, exec1(u, "CREATE SCHEMA "+name)
}

func dropSchema(u, name string) error { return exec1(u, "DROP SCHEMA "+name+" CASCADE") }

// start finds a server: the environment's, else a private one.
func start() {
	if u := os.Getenv(EnvURL); u != "" {
		if err := exec1(u, "SELECT 1"); err != nil {
			why = fmt.Sprintf("%s=%s: %v", EnvURL, redact(u), err)
			return
		}
		base = u
		return
	}
	bin, err := findBinaries()
	if err != nil {
		why = err.Error() + " (scripts/setup installs Debian's postgresql package; or set " + EnvURL + ")"
		return
	}
	c, err := startCluster(bin)
	if err != nil {
		why = err.Error()
		return
	}
	instance, base = c, c.url
}

// redact hides a URL's password in messages.
func redact(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(unparsable URL)"
	}
	return p.Redacted()
}

// binGlob is where Debian's postgresql-NN packages put their binaries.
var binGlob = "/usr/lib/postgresql/*/bin"

// findBinaries returns the newest version's bin directory holding initdb,
// pg_ctl and postgres.
func findBinaries() (string, error) {
	dirs, _ := filepath.Glob(binGlob)
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		ok := true
		for _, b := range []string{"initdb", "pg_ctl", "postgres"} {
			if fi, err := os.Stat(filepath.Join(d, b)); err != nil || fi.Mode()&0o111 == 0 {
				ok = false
			}
		}
		if ok {
			return d, nil
		}
	}
	return "", fmt.Errorf("no PostgreSQL server binaries (initdb, pg_ctl, postgres) under %s", binGlob)
}

// version is the NN of /usr/lib/postgresql/NN/bin, or 0.
func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// cluster is the private server.
type cluster struct {
	bin, dir, data string
	url            string     // through the unix socket
	tcp            string     // through 127.0.0.1, with the password
	owner          *user.User // the postgres system user when we are root; nil otherwise
}

// command runs a PostgreSQL binary as the cluster's owner.
func (c *cluster) command(name string, args ...string) *exec.Cmd {
	path := filepath.Join(c.bin, name)
	if c.owner == nil {
		return exec.Command(path, args...)
	}
	return exec.Command("runuser", append([]string{"-u", c.owner.Username, "--", path}, args...)...)
}

func startCluster(bin string) (*cluster, error) {
	c := &cluster{bin: bin}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root, and there is no postgres system user to run PostgreSQL as: %v", err)
		}
		if _, err := exec.LookPath("runuser"); err != nil {
			return nil, fmt.Errorf("running as root, and runuser is missing: %v", err)
		}
		c.owner = u
	}
	dir, err := os.MkdirTemp("", "cardroom-pgtest-")
	if err != nil {
		return nil, err
	}
	c.dir, c.data = dir, filepath.Join(dir, "data")
	fail := func(err error) (*cluster, error) {
		os.RemoveAll(dir)
		return nil, err
	}
	if c.owner != nil {
		uid, _ := strconv.Atoi(c.owner.Uid)
		gid, _ := strconv.Atoi(c.owner.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return fail(err)
		}
	}
	pw := make([]byte, 16)
	rand.Read(pw)
	password := hex.EncodeToString(pw)
	pwFile := filepath.Join(dir, "pw")
	if err := os.WriteFile(pwFile, []byte(password+"\n"), 0o600); err != nil {
		return fail(err)
	}
	if c.owner != nil {
		uid, _ := strconv.Atoi(c.owner.Uid)
		os.Chown(pwFile, uid, -1)
	}
	// Password authentication over TCP: the port is on 127.0.0.1, where
	// any local user could otherwise connect; the socket is in our
	// directory, which only the owner can enter.
	if out, err := c.command("initdb", "-D", c.data, "-U", "postgres", "--pwfile", pwFile,
		"--auth-host=scram-sha-256", "--auth-local=trust", "-E", "UTF8", "--locale=C", "--no-sync").CombinedOutput(); err != nil {
		return fail(fmt.Errorf("initdb: %v\n%s", err, out))
	}
	os.Remove(pwFile)
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		port, err := freePort()
		if err != nil {
			return fail(err)
		}
		opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c shared_buffers=32MB", port, c.dir)
		out, err := c.command("pg_ctl", "-D", c.data, "-l", filepath.Join(c.dir, "log"), "-o", opts, "-w", "-t", "60", "start").CombinedOutput()
		if err == nil {
			// The tests connect through the unix socket, where trust is safe
			// (the directory is the owner's alone) and a connection costs no
			// password exchange: a SCRAM login takes 20 ms under the race
			// detector, and every test opens several connections.
			q := url.Values{"host": {c.dir}, "port": {strconv.Itoa(port)}, "sslmode": {"disable"}}
			c.url = (&url.URL{Scheme: "postgres", User: url.User("postgres"), Path: "/postgres", RawQuery: q.Encode()}).String()
			c.tcp = (&url.URL{Scheme: "postgres", User: url.UserPassword("postgres", password),
				Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), Path: "/postgres", RawQuery: "sslmode=disable"}).String()
			for _, u := range []string{c.url, c.tcp} {
				if err := exec1(u, "SELECT 1"); err != nil {
					c.stop()
					return nil, fmt.Errorf("the private PostgreSQL started but does not answer at %s: %v", redact(u), err)
				}
			}
			return c, nil
		}
		log, _ := os.ReadFile(filepath.Join(c.dir, "log"))
		lastErr = fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, log)
		// Most likely someone took the port between our probe and the
		// server's bind: try another.
	}
	return fail(lastErr)
}

// freePort asks the kernel for a port of 127.0.0.1 that is free now.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// stop shuts the server down at once (nothing in it is worth a clean
// shutdown) and removes its directory.
func (c *cluster) stop() error {
	out, err := c.command("pg_ctl", "-D", c.data, "-m", "immediate", "-w", "stop").CombinedOutput()
	if err != nil {
		err = fmt.Errorf("pg_ctl stop: %v\n%s", err, out)
	}
	return errors.Join(err, os.RemoveAll(c.dir))
}
