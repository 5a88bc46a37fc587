package server

import (
	"bufio"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

// BenchmarkIdleSocket reports what an idle WebSocket costs the server in
// memory: Go heap and goroutine stack bytes a socket, over 1,000 sockets
// of anonymous spectators (issue 14's target is 32 KiB of RSS a
// connection). The clients are raw TCP connections in this process that
// hold a few hundred bytes each, so the figure is the server's:
//
//	go test ./server -run '^$' -bench IdleSocket -benchtime 1x
func BenchmarkIdleSocket(b *testing.B) {
	const n = 1000
	ts := startServerCfg(b, b.TempDir(), Config{MaxConnsPerIP: -1, MaxConnections: -1, PingInterval: time.Hour})
	addr := strings.TrimPrefix(ts.url, "http://")
	req := "GET /ws HTTP/1.1\r\nHost: " + addr + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
	var heap, stack float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		conns := make([]net.Conn, 0, n)
		for range n {
			nc, err := net.Dial("tcp", addr)
			if err != nil {
				b.Fatal(err)
			}
			conns = append(conns, nc)
			if _, err := nc.Write([]byte(req)); err != nil {
				b.Fatal(err)
			}
			resp, err := http.ReadResponse(bufio.NewReaderSize(nc, 256), nil)
			if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
				b.Fatalf("upgrade: %v %v", resp, err)
			}
		}
		for ts.s.connections.Load() < n {
			time.Sleep(10 * time.Millisecond)
		}
		// Let the welcome's writers end, then count what stays.
		time.Sleep(300 * time.Millisecond)
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap = float64(int64(after.HeapInuse)-int64(before.HeapInuse)) / n
		stack = float64(int64(after.StackInuse)-int64(before.StackInuse)) / n
		for _, c := range conns {
			c.Close()
		}
		for ts.s.connections.Load() > 0 {
			time.Sleep(10 * time.Millisecond)
		}
	}
	b.ReportMetric(heap, "heap-B/socket")
	b.ReportMetric(stack, "stack-B/socket")
	b.ReportMetric(heap+stack, "B/socket")
}
