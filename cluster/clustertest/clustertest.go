// Package clustertest gives tests a cluster's bus: a NATS server embedded
// in the test process (nats-server/v2, the way NATS projects test) and a
// TCP proxy in front of it that a test cuts to partition a node off.
package clustertest

import (
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
)

// StartNATS runs a NATS server on a free port of 127.0.0.1 until t ends
// and returns its URL.
func StartNATS(t testing.TB) string {
	t.Helper()
	ns, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("the NATS server did not start")
	}
	t.Cleanup(ns.Shutdown)
	return ns.ClientURL()
}

// Proxy relays TCP connections to a NATS server until Partition.
type Proxy struct {
	l     net.Listener
	mu    sync.Mutex
	cut   bool
	conns []net.Conn
}

// NewProxy starts a proxy to the server at natsURL until t ends.
func NewProxy(t testing.TB, natsURL string) *Proxy {
	t.Helper()
	target := strings.TrimPrefix(natsURL, "nats://")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{l: l}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", target)
			p.mu.Lock()
			if err != nil || p.cut {
				p.mu.Unlock()
				c.Close()
				if up != nil {
					up.Close()
				}
				continue
			}
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { io.Copy(up, c); up.Close() }()
			go func() { io.Copy(c, up); c.Close() }()
		}
	}()
	t.Cleanup(func() { l.Close(); p.Partition() })
	return p
}

// URL is the proxy's address for a node: nats://127.0.0.1:port.
func (p *Proxy) URL() string { return "nats://" + p.l.Addr().String() }

// Partition cuts every link through the proxy and refuses new ones.
func (p *Proxy) Partition() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = true
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}
