package server

import (
	"bufio"
	"encoding/binary"
	"io"
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
//
// "sent" sockets have each sent a message (a ping, answered) before they
// idle: the reader's goroutine has read and handed on a message, so its
// stack shows whether a message's path grows it (a reader that handled
// its own messages kept a stack of 4–8 KiB; see conn.reader).
func BenchmarkIdleSocket(b *testing.B) {
	b.Run("fresh", func(b *testing.B) { idleSockets(b, false) })
	b.Run("sent", func(b *testing.B) { idleSockets(b, true) })
}

func idleSockets(b *testing.B, send bool) {
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
			br := bufio.NewReaderSize(nc, 256)
			resp, err := http.ReadResponse(br, nil)
			if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
				b.Fatalf("upgrade: %v %v", resp, err)
			}
			if send {
				// A masked text frame {"type":"ping"}, then its answer (after
				// the welcome): the pong's type is in the second frame.
				if _, err := nc.Write(maskedText(`{"type":"ping"}`)); err != nil {
					b.Fatal(err)
				}
				for range 2 {
					if _, err := readServerFrame(br); err != nil {
						b.Fatal(err)
					}
				}
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

// maskedText is a client's text frame (masked, RFC 6455 section 5.3) of a
// short payload.
func maskedText(payload string) []byte {
	key := [4]byte{1, 2, 3, 4}
	f := append([]byte{0x81, 0x80 | byte(len(payload))}, key[:]...)
	for i := range len(payload) {
		f = append(f, payload[i]^key[i%4])
	}
	return f
}

// readServerFrame reads one unmasked frame from the server and returns
// its payload.
func readServerFrame(br *bufio.Reader) ([]byte, error) {
	var h [2]byte
	if _, err := io.ReadFull(br, h[:]); err != nil {
		return nil, err
	}
	n := int(h[1] & 0x7f)
	switch n {
	case 126:
		var l [2]byte
		if _, err := io.ReadFull(br, l[:]); err != nil {
			return nil, err
		}
		n = int(binary.BigEndian.Uint16(l[:]))
	case 127:
		var l [8]byte
		if _, err := io.ReadFull(br, l[:]); err != nil {
			return nil, err
		}
		n = int(binary.BigEndian.Uint64(l[:]))
	}
	p := make([]byte, n)
	_, err := io.ReadFull(br, p)
	return p, err
}
