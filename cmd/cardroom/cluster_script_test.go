package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"cardroom/protocol"
)

// clusterScript is scripts/cluster, from this package's directory.
var clusterScript = filepath.Join("..", "..", "scripts", "cluster")

// TestClusterScriptArgs: bad options are refused with exit 2 and a
// message naming the option, before anything is installed or started; a
// taken port is refused with exit 1.
func TestClusterScriptArgs(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := strconv.Itoa(taken.Addr().(*net.TCPAddr).Port)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--nodes", "0"}, 2, "--nodes 0: want 1 to 16"},
		{[]string{"--nodes", "17"}, 2, "--nodes 17"},
		{[]string{"--nodes", "x"}, 2, "--nodes x"},
		{[]string{"--nodes=-1"}, 2, "--nodes -1"},
		{[]string{"--nodes"}, 2, "usage:"},
		{[]string{"--base-port", "80"}, 2, "--base-port 80: want 1024 to"},
		{[]string{"--base-port", "65534", "--nodes", "3"}, 2, "--base-port 65534"},
		{[]string{"--base-port", "8o81"}, 2, "--base-port 8o81"},
		{[]string{"--bogus"}, 2, "unknown argument --bogus"},
		{[]string{"--nodes", "1", "--base-port", port}, 1, "port " + port + " is taken"},
		{[]string{"--help"}, 0, "--base-port P"},
	} {
		cmd := exec.Command("bash", append([]string{clusterScript}, c.args...)...)
		out, err := cmd.CombinedOutput()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code || !strings.Contains(string(out), c.want) || strings.Contains(string(out), "installing") {
			t.Errorf("cluster %v: exit %d, want %d with %q:\n%s", c.args, code, c.code, c.want, out)
		}
	}
}

// TestClusterScript runs scripts/cluster --nodes 2 for real: both nodes
// answer /healthz, a session made on one node is valid on the other (one
// PostgreSQL behind both), and SIGTERM stops everything and removes the
// temporary directory. It needs PostgreSQL and nats-server: outside CI it
// skips without them (scripts/setup installs both); in CI (CI set) the
// script installs what is missing, as it would for a developer.
func TestClusterScript(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: scripts/cluster builds cardroom and starts PostgreSQL")
	}
	if os.Getenv("CI") == "" {
		pg, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
		_, err := exec.LookPath("nats-server")
		if _, err2 := os.Stat("/usr/sbin/nats-server"); err2 == nil {
			err = nil // Debian's place, off a user's PATH
		}
		if len(pg) == 0 || err != nil {
			t.Skip("scripts/cluster test skipped: needs Debian's postgresql and nats-server (scripts/setup installs them), or CI set")
		}
	}
	base := freeRun(t, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", clusterScript, "--nodes", "2", "--base-port", strconv.Itoa(base), "--", "-log-level", "warn")
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) } // the script cleans up on TERM
	cmd.WaitDelay = 30 * time.Second
	// The script's report, line by line, up to "ready"; its directory line
	// says where everything lives. Later lines are read and dropped.
	pr, pw := io.Pipe()
	cmd.Stdout = pw
	var stderr strings.Builder
	cmd.Stderr = &stderr
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
			}
		}
		close(lines)
	}()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			cmd.Process.Signal(syscall.SIGTERM)
			cmd.Wait()
		}
		pw.Close()
	}()
	dir := ""
	var out strings.Builder
	for l := range lines {
		out.WriteString(l + "\n")
		if f := strings.Fields(l); len(f) == 2 && f[0] == "directory" {
			dir = f[1]
		}
		if l == "ready" {
			break
		}
	}
	if dir == "" || !strings.HasSuffix(out.String(), "ready\n") {
		t.Fatalf("the script did not get ready:\n%s\nstderr:\n%s", out.String(), stderr.String())
	}
	go func() {
		for range lines {
		}
	}()
	if _, err := os.Stat(filepath.Join(dir, "node2", "log")); err != nil {
		t.Errorf("node 2's log: %v", err)
	}
	urls := []string{fmt.Sprintf("http://127.0.0.1:%d", base), fmt.Sprintf("http://127.0.0.1:%d", base+1)}
	for _, u := range urls {
		if code := getStatus(t, u+"/healthz", ""); code != http.StatusOK {
			t.Errorf("%s/healthz: %d", u, code)
		}
	}
	sess, err := protocol.NewSession(ctx, nil, urls[0], "alice")
	if err != nil {
		t.Fatal(err)
	}
	if code := getStatus(t, urls[1]+"/api/session", sess.Token); code != http.StatusOK {
		t.Errorf("node 1's session on node 2: %d, want 200 (one store)", code)
	}
	if code := getStatus(t, urls[1]+"/api/session", "not-a-token"); code != http.StatusUnauthorized {
		t.Errorf("a made-up token on node 2: %d, want 401", code)
	}

	cmd.Process.Signal(syscall.SIGTERM)
	err = cmd.Wait()
	stopped = true
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 143 {
		t.Errorf("the script after SIGTERM: %v, want exit 143\nstderr:\n%s", err, stderr.String())
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the directory %s after the stop: %v, want it removed", dir, err)
	}
	for _, u := range urls {
		if c, err := net.DialTimeout("tcp", strings.TrimPrefix(u, "http://"), time.Second); err == nil {
			c.Close()
			t.Errorf("%s still listens after the stop", u)
		}
	}
}

// freeRun finds n consecutive free ports of 127.0.0.1 (free now: the
// script checks again before starting).
func freeRun(t *testing.T, n int) int {
	for base := 30000 + os.Getpid()%5000*4; base < 60000; base += n {
		ok := true
		for i := range n {
			l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", base+i))
			if err != nil {
				ok = false
				break
			}
			l.Close()
		}
		if ok {
			return base
		}
	}
	t.Fatal("no free ports")
	return 0
}

// getStatus is a GET's status code (with a Bearer token if given).
func getStatus(t *testing.T, url, token string) int {
	req, _ := http.NewRequest("GET", url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		t.Errorf("GET %s: %v", url, err)
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}
