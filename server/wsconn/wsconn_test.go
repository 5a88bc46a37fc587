package wsconn

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// The tests talk to this package's server with an independent client
// (coder/websocket) for the conforming cases, and with hand-made frames
// for the violations a conforming client never sends.

// serve starts an HTTP server whose handler accepts a socket and hands it
// to fn (on the handler's goroutine).
func serve(t testing.TB, opts *AcceptOptions, fn func(*Conn)) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := Accept(w, r, opts)
		if err != nil {
			return
		}
		fn(c)
	}))
	t.Cleanup(ts.Close)
	return ts
}

func wsURL(ts *httptest.Server) string { return "ws" + strings.TrimPrefix(ts.URL, "http") }

// echo reads messages and writes each back, until an error.
func echo(limit int) func(*Conn) {
	return func(c *Conn) {
		buf := make([]byte, limit)
		for {
			if _, err := c.Next(); err != nil {
				return
			}
			n, over, err := c.ReadMessage(buf)
			if err != nil {
				return
			}
			if over {
				c.WriteText([]byte("over"))
				continue
			}
			if err := c.WriteText(buf[:n]); err != nil {
				return
			}
		}
	}
}

func dial(t *testing.T, ts *httptest.Server) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, wsURL(ts), nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(1 << 22)
	t.Cleanup(func() { ws.CloseNow() })
	return ws
}

// TestEcho: messages of every length class (7-bit, 16-bit and 64-bit
// lengths, RFC 6455 section 5.2) arrive whole and go back whole.
func TestEcho(t *testing.T) {
	ts := serve(t, &AcceptOptions{ReadLimit: 1 << 20}, echo(1<<20))
	ws := dial(t, ts)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, n := range []int{0, 1, 125, 126, 127, 65535, 65536, 300000} {
		msg := bytes.Repeat([]byte("é"), n/2)
		msg = append(msg, strings.Repeat("x", n%2)...)
		if err := ws.Write(ctx, websocket.MessageText, msg); err != nil {
			t.Fatal(err)
		}
		typ, got, err := ws.Read(ctx)
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if typ != websocket.MessageText || !bytes.Equal(got, msg) {
			t.Errorf("%d bytes: got %v of %d bytes back", n, typ, len(got))
		}
	}
}

// TestWriteTextBatch: several messages written in one call arrive as
// separate messages, in order.
func TestWriteTextBatch(t *testing.T) {
	ts := serve(t, nil, func(c *Conn) {
		c.WriteText([]byte("one"), []byte(strings.Repeat("2", 70000)), []byte(""), []byte("four"))
		c.Next() // until the client goes
	})
	ws := dial(t, ts)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, want := range []string{"one", strings.Repeat("2", 70000), "", "four"} {
		_, got, err := ws.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Fatalf("got %.20q (%d bytes), want %.20q", got, len(got), want)
		}
	}
}

// TestReadMessageOver: a message longer than the caller's buffer fills
// it and reports over; the next message is read normally.
func TestReadMessageOver(t *testing.T) {
	ts := serve(t, nil, echo(8))
	ws := dial(t, ts)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, c := range []struct{ in, out string }{{"123456789", "over"}, {"12345678", "12345678"}, {"ok", "ok"}} {
		if err := ws.Write(ctx, websocket.MessageText, []byte(c.in)); err != nil {
			t.Fatal(err)
		}
		_, got, err := ws.Read(ctx)
		if err != nil || string(got) != c.out {
			t.Errorf("%q: got %q, %v; want %q", c.in, got, err, c.out)
		}
	}
}

// TestPing: a ping is answered by a reading client; one that never
// answers runs out the context.
func TestPing(t *testing.T) {
	res := make(chan error, 1)
	ts := serve(t, nil, func(c *Conn) {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			res <- c.Ping(ctx)
		}()
		c.Next()
	})
	ws := dial(t, ts)
	go ws.Read(context.Background()) // answers pings
	if err := <-res; err != nil {
		t.Errorf("ping to a reading client: %v", err)
	}

	ts2 := serve(t, nil, func(c *Conn) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		go c.Next() // the reader: it sees only the ping's non-answer
		res <- c.Ping(ctx)
	})
	raw := rawDial(t, ts2)
	defer raw.Close()
	if err := <-res; !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("ping to a client that does not answer: %v, want deadline", err)
	}
}

// TestCloseHandshake: the server's close reaches the client with its code
// and reason; a client's close reaches Next as a *CloseError and is
// answered, so the client's Close succeeds.
func TestCloseHandshake(t *testing.T) {
	ts := serve(t, nil, func(c *Conn) {
		go c.Next()
		c.Close(StatusPolicyViolation, "too slow")
	})
	ws := dial(t, ts)
	_, _, err := ws.Read(context.Background())
	if got := websocket.CloseStatus(err); got != websocket.StatusPolicyViolation {
		t.Errorf("client saw %v (status %d), want 1008", err, got)
	}
	var ce websocket.CloseError
	if errors.As(err, &ce) && ce.Reason != "too slow" {
		t.Errorf("reason %q", ce.Reason)
	}

	got := make(chan error, 1)
	ts2 := serve(t, nil, func(c *Conn) {
		_, err := c.Next()
		got <- err
	})
	ws2 := dial(t, ts2)
	if err := ws2.Close(websocket.StatusGoingAway, "bye"); err != nil {
		t.Errorf("client close: %v (the server did not answer)", err)
	}
	err = <-got
	var sce *CloseError
	if !errors.As(err, &sce) || sce.Code != StatusGoingAway || sce.Reason != "bye" {
		t.Errorf("server saw %v, want CloseError 1001 bye", err)
	}
}

// rawConn is a client that writes frames by hand.
type rawConn struct {
	net.Conn
	br *bufio.Reader
}

// rawDial upgrades a plain TCP connection, optionally sending early
// bytes right after the request.
func rawDial(t testing.TB, ts *httptest.Server, early ...byte) *rawConn {
	t.Helper()
	nc, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	req := "GET / HTTP/1.1\r\nHost: " + strings.TrimPrefix(ts.URL, "http://") + "\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\n" +
		"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
	if _, err := nc.Write(append([]byte(req), early...)); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(nc)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The key and answer of RFC 6455 section 1.3.
	if resp.StatusCode != 101 || resp.Header.Get("Sec-WebSocket-Accept") != "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" {
		t.Fatalf("upgrade answer %d %v", resp.StatusCode, resp.Header)
	}
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	return &rawConn{Conn: nc, br: br}
}

// frame is a masked client frame: b0 is the first byte (FIN, RSV, opcode).
func frame(b0 byte, payload []byte) []byte {
	mask := [4]byte{1, 2, 3, 4}
	var f []byte
	switch n := len(payload); {
	case n <= 125:
		f = []byte{b0, 0x80 | byte(n)}
	case n <= 0xffff:
		f = binary.BigEndian.AppendUint16([]byte{b0, 0x80 | 126}, uint16(n))
	default:
		f = binary.BigEndian.AppendUint64([]byte{b0, 0x80 | 127}, uint64(n))
	}
	f = append(f, mask[:]...)
	for i, b := range payload {
		f = append(f, b^mask[i%4])
	}
	return f
}

// readFrame reads one server frame (unmasked).
func (r *rawConn) readFrame(t *testing.T) (op byte, fin bool, payload []byte) {
	t.Helper()
	var h [2]byte
	if _, err := io.ReadFull(r.br, h[:]); err != nil {
		t.Fatalf("read frame: %v", err)
	}
	if h[1]&0x80 != 0 {
		t.Fatal("a server frame is masked")
	}
	n := int(h[1] & 0x7f)
	switch n {
	case 126:
		var b [2]byte
		io.ReadFull(r.br, b[:])
		n = int(binary.BigEndian.Uint16(b[:]))
	case 127:
		var b [8]byte
		io.ReadFull(r.br, b[:])
		n = int(binary.BigEndian.Uint64(b[:]))
	}
	payload = make([]byte, n)
	if _, err := io.ReadFull(r.br, payload); err != nil {
		t.Fatal(err)
	}
	return h[0] & 0x0f, h[0]&0x80 != 0, payload
}

// TestFragmentsAndControl: a message in fragments, with a ping between
// them (RFC 6455 section 5.4: control frames may be injected), is read
// whole, and the ping is answered with its payload.
func TestFragmentsAndControl(t *testing.T) {
	got := make(chan string, 1)
	ts := serve(t, nil, func(c *Conn) {
		buf := make([]byte, 64)
		c.Next()
		n, _, err := c.ReadMessage(buf)
		if err != nil {
			got <- err.Error()
			return
		}
		got <- string(buf[:n])
		c.Next()
	})
	r := rawDial(t, ts)
	defer r.Close()
	var w []byte
	w = append(w, frame(0x01, []byte("Hel"))...) // text, not final
	w = append(w, frame(0x89, []byte("are you there"))...)
	w = append(w, frame(0x00, []byte("lo, "))...)
	w = append(w, frame(0x80, []byte("wörld"))...) // final continuation
	if _, err := r.Write(w); err != nil {
		t.Fatal(err)
	}
	if op, fin, p := r.readFrame(t); op != opPong || !fin || string(p) != "are you there" {
		t.Errorf("answer to the ping: op %d fin %v %q", op, fin, p)
	}
	if s := <-got; s != "Hello, wörld" {
		t.Errorf("message %q", s)
	}
}

// TestEarlyFrames: frames the client sends before reading the upgrade's
// answer (they sit in the HTTP server's buffer) are not lost.
func TestEarlyFrames(t *testing.T) {
	got := make(chan string, 1)
	ts := serve(t, nil, func(c *Conn) {
		buf := make([]byte, 64)
		c.Next()
		n, _, _ := c.ReadMessage(buf)
		got <- string(buf[:n])
	})
	r := rawDial(t, ts, frame(0x81, []byte("early"))...)
	defer r.Close()
	if s := <-got; s != "early" {
		t.Errorf("got %q", s)
	}
}

// TestViolations: what a server must refuse (RFC 6455 sections 5.1–5.5,
// 7.4 and 8.1) fails the connection with the right close code, and Next or
// ReadMessage returns an error; so do frames past the bounds on frames
// that carry no message (MaxControlPerSecond, MaxFragments), with 1008 and
// an error IsFlood knows.
func TestViolations(t *testing.T) {
	long := make([]byte, 126)
	// Unsolicited pongs (answered with nothing), 2×MaxControlPerSecond+1
	// of them: however a clock second splits them, one second has more
	// than the bound.
	var pongs []byte
	for range 2*MaxControlPerSecond + 1 {
		pongs = append(pongs, frame(0x8a, []byte("p"))...)
	}
	// A message in MaxFragments+1 frames: a first and empty continuations.
	frags := frame(0x01, []byte("a"))
	for range MaxFragments {
		frags = append(frags, frame(0x00, nil)...)
	}
	cases := []struct {
		name   string
		frames []byte
		code   StatusCode
		flood  bool // IsFlood
	}{
		{"control frames over the bound", pongs, StatusPolicyViolation, true},
		{"fragments over the bound", frags, StatusPolicyViolation, true},
		{"unmasked", []byte{0x81, 0x02, 'h', 'i'}, StatusProtocolError, false},
		{"reserved bit", frame(0xc1, []byte("hi")), StatusProtocolError, false},
		{"unknown opcode", frame(0x83, []byte("hi")), StatusProtocolError, false},
		{"fragmented ping", frame(0x09, []byte("p")), StatusProtocolError, false},
		{"long ping", frame(0x89, long), StatusProtocolError, false},
		{"continuation first", frame(0x80, []byte("x")), StatusProtocolError, false},
		{"text inside fragmented", append(frame(0x01, []byte("a")), frame(0x81, []byte("b"))...), StatusProtocolError, false},
		{"invalid UTF-8", frame(0x81, []byte{0xff, 0xfe}), StatusInvalidData, false},
		{"close code 1005", frame(0x88, []byte{0x03, 0xed}), StatusProtocolError, false},
		{"close of one byte", frame(0x88, []byte{0x03}), StatusProtocolError, false},
		{"close reason not UTF-8", frame(0x88, []byte{0x03, 0xe8, 0xff}), StatusInvalidData, false},
		{"over the limit", frame(0x81, make([]byte, 200)), StatusMessageTooBig, false},
		{"over the limit in fragments", append(frame(0x01, make([]byte, 100)), frame(0x80, make([]byte, 100))...), StatusMessageTooBig, false},
		{"length top bit", []byte{0x81, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4}, StatusProtocolError, false},
		// A continuation that declares 2^63-1 bytes after 10: the sum
		// wrapped below the limit, and the message was read on (found by
		// FuzzRead).
		{"over the limit by a wrapping length", append(frame(0x01, make([]byte, 10)),
			0x80, 0xff, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4, 'x'), StatusMessageTooBig, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := make(chan error, 1)
			ts := serve(t, &AcceptOptions{ReadLimit: 150}, func(c *Conn) {
				buf := make([]byte, 1000)
				for {
					if _, err := c.Next(); err != nil {
						res <- err
						return
					}
					if _, _, err := c.ReadMessage(buf); err != nil {
						res <- err
						return
					}
				}
			})
			r := rawDial(t, ts)
			defer r.Close()
			r.Write(tc.frames)
			op, _, p := r.readFrame(t)
			if op != opClose || len(p) < 2 || StatusCode(binary.BigEndian.Uint16(p)) != tc.code {
				t.Errorf("answer op %d payload %q, want close %d", op, p, tc.code)
			}
			if err := <-res; err == nil {
				t.Error("the server read on")
			} else if IsFlood(err) != tc.flood {
				t.Errorf("IsFlood(%v) = %v, want %v", err, !tc.flood, tc.flood)
			}
			// And then the socket is closed.
			if _, err := r.br.ReadByte(); err != io.EOF {
				t.Errorf("after the close frame: %v, want EOF", err)
			}
		})
	}
}

// TestAcceptChecks: requests that are not a version-13 upgrade, or come
// from a page of another origin, are refused with an HTTP error.
func TestAcceptChecks(t *testing.T) {
	ts := serve(t, &AcceptOptions{OriginPatterns: []string{"*.example.com", "https://cards.example.org"}}, func(c *Conn) { c.CloseNow() })
	host := strings.TrimPrefix(ts.URL, "http://")
	good := func() http.Header {
		return http.Header{"Upgrade": {"websocket"}, "Connection": {"Upgrade"}, "Sec-Websocket-Version": {"13"}, "Sec-Websocket-Key": {"dGhlIHNhbXBsZSBub25jZQ=="}}
	}
	cases := []struct {
		name   string
		method string
		edit   func(http.Header)
		status int
	}{
		{"ok", "GET", func(http.Header) {}, 101},
		{"post", "POST", func(http.Header) {}, 405},
		{"no upgrade", "GET", func(h http.Header) { h.Del("Upgrade") }, 426},
		{"no connection upgrade", "GET", func(h http.Header) { h.Set("Connection", "keep-alive") }, 426},
		{"version 8", "GET", func(h http.Header) { h.Set("Sec-Websocket-Version", "8") }, 426},
		{"short key", "GET", func(h http.Header) { h.Set("Sec-Websocket-Key", "c2hvcnQ=") }, 400},
		{"own origin", "GET", func(h http.Header) { h.Set("Origin", "http://"+host) }, 101},
		{"foreign origin", "GET", func(h http.Header) { h.Set("Origin", "http://localhost:9") }, 403},
		{"pattern origin", "GET", func(h http.Header) { h.Set("Origin", "http://a.example.com") }, 101},
		{"scheme pattern", "GET", func(h http.Header) { h.Set("Origin", "https://cards.example.org") }, 101},
		{"scheme pattern, http", "GET", func(h http.Header) { h.Set("Origin", "http://cards.example.org") }, 403},
		{"origin without host", "GET", func(h http.Header) { h.Set("Origin", "null") }, 403},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, ts.URL, nil)
			req.Header = good()
			tc.edit(req.Header)
			resp, err := http.DefaultTransport.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Errorf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if tc.status == 426 && resp.Header.Get("Sec-Websocket-Version") != "13" {
				t.Errorf("426 without the version the server speaks: %v", resp.Header)
			}
		})
	}
}

// fakeConn is a net.Conn reading a fixed stream and discarding writes.
type fakeConn struct {
	net.Conn
	rd      io.Reader
	written int
}

func (f *fakeConn) Read(p []byte) (int, error)  { return f.rd.Read(p) }
func (f *fakeConn) Write(p []byte) (int, error) { f.written += len(p); return len(p), nil }
func (f *fakeConn) Close() error                { return nil }
func (f *fakeConn) SetWriteDeadline(time.Time) error {
	return nil
}

// SetReadDeadline is called by fail before it drains what the peer sent
// after a protocol violation.
func (f *fakeConn) SetReadDeadline(time.Time) error { return nil }

// FuzzRead: any byte stream is read without a panic, every message read
// is within the limit, and a valid frame built from the input reads back
// exactly.
func FuzzRead(f *testing.F) {
	f.Add(frame(0x81, []byte("hello")), []byte("hi"))
	f.Add(append(frame(0x01, []byte("a")), frame(0x80, []byte("b"))...), []byte{})
	f.Add([]byte{0x81, 0xfe, 0x00, 0x05, 1, 2, 3, 4, 'a'}, []byte("x"))
	f.Fuzz(func(t *testing.T, stream, msg []byte) {
		const limit = 300
		fc := &fakeConn{rd: bytes.NewReader(stream)}
		c := newConn(fc, fc, limit)
		buf := make([]byte, 100)
		for range 50 {
			if _, err := c.Next(); err != nil {
				break
			}
			n, _, err := c.ReadMessage(buf)
			if n > len(buf) {
				t.Fatalf("read %d bytes into a %d-byte buffer", n, len(buf))
			}
			if err != nil {
				// (A refused message's total counts the frame that
				// took it over the limit.)
				break
			}
			if c.total < 0 || c.total > limit {
				t.Fatalf("read a %d-byte message, limit %d", c.total, limit)
			}
		}
		if len(msg) > limit {
			return
		}
		fc2 := &fakeConn{rd: bytes.NewReader(frame(0x82, msg))}
		c2 := newConn(fc2, fc2, limit)
		typ, err := c2.Next()
		if err != nil || typ != Binary {
			t.Fatalf("valid frame: %v %v", typ, err)
		}
		out := make([]byte, limit)
		n, over, err := c2.ReadMessage(out)
		if err != nil || over || !bytes.Equal(out[:n], msg) {
			t.Fatalf("valid frame read back %q, %v, %v; want %q", out[:n], over, err, msg)
		}
	})
}

// TestWriteTextSharedBuffers: the frames of every socket are assembled in
// buffers shared through a pool; sockets writing at once, with messages
// of every size (below, around and above the pool's least and largest
// buffer), each receive exactly their own messages, in order. A buffer
// given back to the pool while its write was still sending, or handed to
// two writers, would show here as another socket's bytes or a torn frame.
func TestWriteTextSharedBuffers(t *testing.T) {
	const socks, rounds = 8, 60
	sizes := []int{0, 1, 125, 126, 3000, frameBufMin - 20, frameBufMin + 1, 20000, frameBufMax + 1}
	msg := func(sock, round, k int) []byte {
		size := sizes[(round+k+sock)%len(sizes)]
		b := fmt.Appendf(nil, "%d/%d/%d:", sock, round, k)
		for len(b) < size {
			b = append(b, byte('a'+(sock+round+len(b))%26))
		}
		return b
	}
	var next atomic.Int32
	ts := serve(t, nil, func(c *Conn) {
		sock := int(next.Add(1) - 1)
		for round := range rounds {
			batch := make([][]byte, 1+round%3)
			for k := range batch {
				batch[k] = msg(sock, round, k)
			}
			if err := c.WriteText(batch...); err != nil {
				return
			}
		}
		c.Next() // until the client goes
	})
	var wg sync.WaitGroup
	errs := make(chan error, socks)
	for range socks {
		ws := dial(t, ts)
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			sock := -1
			for round := range rounds {
				for k := range 1 + round%3 {
					_, got, err := ws.Read(ctx)
					if err != nil {
						errs <- err
						return
					}
					if sock < 0 {
						fmt.Sscanf(string(got), "%d/", &sock)
					}
					if want := msg(sock, round, k); !bytes.Equal(got, want) {
						errs <- fmt.Errorf("socket %d round %d message %d: got %.30q (%d bytes), want %.30q (%d bytes)", sock, round, k, got, len(got), want, len(want))
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestWait: Wait handles the control frames before a message (a ping is
// answered, RFC 6455 section 5.5.2), returns once a data frame starts,
// and Next then reads that message whole; a violation met in Wait fails
// the connection with its close code as Next would, and a peer that
// goes makes Wait return an error.
func TestWait(t *testing.T) {
	t.Run("control then message", func(t *testing.T) {
		got := make(chan string, 2)
		ts := serve(t, nil, func(c *Conn) {
			buf := make([]byte, 64)
			for range 2 {
				if err := c.Wait(); err != nil {
					got <- "wait: " + err.Error()
					return
				}
				if _, err := c.Next(); err != nil {
					got <- "next: " + err.Error()
					return
				}
				n, _, err := c.ReadMessage(buf)
				if err != nil {
					got <- "read: " + err.Error()
					return
				}
				got <- string(buf[:n])
			}
			c.Wait() // until the client goes
		})
		r := rawDial(t, ts)
		defer r.Close()
		var w []byte
		w = append(w, frame(0x89, []byte("one"))...)
		w = append(w, frame(0x8a, []byte("unasked pong"))...)
		w = append(w, frame(0x89, []byte("two"))...)
		w = append(w, frame(0x81, []byte("first"))...)
		w = append(w, frame(0x01, []byte("sec"))...) // a fragmented message, a ping inside
		w = append(w, frame(0x89, []byte("three"))...)
		w = append(w, frame(0x80, []byte("ond"))...)
		if _, err := r.Write(w); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"one", "two", "three"} {
			if op, _, p := r.readFrame(t); op != opPong || string(p) != want {
				t.Errorf("got op %d %q, want the pong %q", op, p, want)
			}
		}
		for _, want := range []string{"first", "second"} {
			if s := <-got; s != want {
				t.Errorf("got %q, want %q", s, want)
			}
		}
	})
	t.Run("violation", func(t *testing.T) {
		res := make(chan error, 1)
		ts := serve(t, nil, func(c *Conn) { res <- c.Wait() })
		r := rawDial(t, ts)
		defer r.Close()
		r.Write(frame(0x09, []byte("p"))) // a fragmented ping
		if op, _, p := r.readFrame(t); op != opClose || len(p) < 2 || StatusCode(binary.BigEndian.Uint16(p)) != StatusProtocolError {
			t.Errorf("answer op %d payload %q, want close %d", op, p, StatusProtocolError)
		}
		if err := <-res; err == nil {
			t.Error("Wait returned nil after a violation")
		}
	})
	t.Run("peer gone", func(t *testing.T) {
		res := make(chan error, 1)
		ts := serve(t, nil, func(c *Conn) { res <- c.Wait() })
		r := rawDial(t, ts)
		r.Close()
		select {
		case err := <-res:
			if err == nil {
				t.Error("Wait returned nil when the peer went")
			}
		case <-time.After(5 * time.Second):
			t.Fatal("Wait did not return when the peer went")
		}
	})
}

// TestTryWriteText: TryWriteText sends what the socket takes at once and
// never waits. When the peer stops reading, a write is either not sent at
// all (the caller keeps the messages) or sent in part, and then the rest
// holds the socket: no other frame (a WriteText from another goroutine)
// can be written into the middle of the message, and Finish completes it.
// The peer reads every frame that was sent whole and in order.
func TestTryWriteText(t *testing.T) {
	conns := make(chan *Conn, 1)
	ts := serve(t, nil, func(c *Conn) {
		conns <- c
		c.Wait() // answers nothing; holds the socket open until the test ends
	})
	rc := rawDial(t, ts)
	c := <-conns
	c.nc.(*net.TCPConn).SetWriteBuffer(8 << 10)
	rc.Conn.(*net.TCPConn).SetReadBuffer(8 << 10)

	msg := func(i int) []byte {
		return append([]byte(fmt.Sprintf("%06d:", i)), bytes.Repeat([]byte{'a' + byte(i%26)}, 200<<10)...)
	}
	if done, p, err := c.TryWriteText([]byte("hello")); !done || p != nil || err != nil {
		t.Fatalf("a short write to an idle socket: done %v, pending %v, err %v", done, p != nil, err)
	}
	var sent [][]byte
	sent = append(sent, []byte("hello"))
	var pending *Pending
	for i := 0; pending == nil; i++ {
		if i > 10000 {
			t.Fatal("a peer that does not read never filled the socket")
		}
		m := msg(i)
		done, p, err := c.TryWriteText(m)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case done:
			sent = append(sent, m)
		case p != nil:
			sent = append(sent, m)
			pending = p
		default:
			// Nothing taken: the message is the caller's to queue. Try
			// one more, larger than what may be left, to get a partial
			// write (or nothing again).
		}
	}
	// The socket is held: another try is refused at once, and a blocking
	// write waits for Finish.
	if done, p, err := c.TryWriteText([]byte("x")); done || p != nil || err != nil {
		t.Fatalf("a try while a write is pending: done %v, pending %v, err %v", done, p != nil, err)
	}
	after := make(chan error, 1)
	go func() { after <- c.WriteText([]byte("after")) }()
	sent = append(sent, []byte("after"))
	finished := make(chan error, 1)
	go func() { finished <- pending.Finish() }()
	for i, want := range sent {
		op, fin, got := rc.readFrame(t)
		if op != opText || !fin || !bytes.Equal(got, want) {
			t.Fatalf("frame %d: op %d fin %v, %d bytes %.12q; want text, %d bytes %.12q", i, op, fin, len(got), got, len(want), want)
		}
	}
	if err := <-finished; err != nil {
		t.Fatal(err)
	}
	if err := <-after; err != nil {
		t.Fatal(err)
	}
}

// TestTryWriteTextNoDescriptor: a socket without a descriptor to write to
// without waiting (a pipe) leaves every write to WriteText.
func TestTryWriteTextNoDescriptor(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	c := newConn(a, a, 0)
	if done, p, err := c.TryWriteText([]byte("x")); done || p != nil || err != nil {
		t.Fatalf("done %v, pending %v, err %v; want nothing sent", done, p != nil, err)
	}
}
