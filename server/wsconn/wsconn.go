// Package wsconn is the server side of a WebSocket (RFC 6455), cut to
// what a card room needs: text and binary messages with no extensions, a
// read limit, pings, and the close handshake.
//
// It exists for cost, not features. A room holds thousands of sockets
// that are idle most of the time and each get a message or two a second,
// so what a socket holds while idle and what a message costs to send are
// the whole bill:
//
//   - An idle socket holds a 128-byte read buffer and no write buffer:
//     the HTTP server's 4 KiB reader and writer are dropped at the upgrade,
//     and the frames are assembled in a buffer shared by every socket
//     (a pool) that is held only while a write is in progress.
//   - WriteText writes any number of messages with one write system
//     call, so the messages a connection has queued (a move's state and
//     its acknowledgement, say) share one system call instead of one
//     each.
//   - TryWriteText does the same without waiting: a goroutine that must
//     not block (a table's, say) writes the frames itself when the socket
//     takes them at once, as it nearly always does, instead of waking a
//     writer goroutine to make the same system call.
//
// Writes are safe from any goroutine (a mutex orders them); Wait, Next
// and Read belong to one reader at a time (successive goroutines may take
// turns, each starting the next), which also answers pings and records
// pongs and the peer's close frame, so Ping and Close need it running.
package wsconn

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"
)

// MessageType is a data message's opcode.
type MessageType int

// The data message types.
const (
	Text   MessageType = 1
	Binary MessageType = 2
)

// StatusCode is a close frame's status code (RFC 6455 section 7.4).
type StatusCode int

// The status codes the room uses.
const (
	StatusNormalClosure   StatusCode = 1000
	StatusGoingAway       StatusCode = 1001
	StatusProtocolError   StatusCode = 1002
	StatusUnsupportedData StatusCode = 1003
	// StatusNoStatusRcvd is what a close frame without a code reads as; it
	// is never sent.
	StatusNoStatusRcvd    StatusCode = 1005
	StatusInvalidData     StatusCode = 1007
	StatusPolicyViolation StatusCode = 1008
	StatusMessageTooBig   StatusCode = 1009
	StatusInternalError   StatusCode = 1011
	// StatusTryAgainLater (RFC 6455 registry: "Try Again Later"): the
	// node cannot serve the connection now; another node can (a cluster).
	StatusTryAgainLater StatusCode = 1013
)

// CloseError is what Next returns once the peer's close frame has arrived.
type CloseError struct {
	Code   StatusCode
	Reason string
}

func (e *CloseError) Error() string {
	return fmt.Sprintf("websocket closed by the peer: %d %q", e.Code, e.Reason)
}

// ErrClosed is returned by writes on a connection that is closed, or whose
// close frame has been sent.
var ErrClosed = errors.New("websocket: connection closed")

// protocolError is a peer's violation of RFC 6455: the connection is
// failed with the code.
type protocolError struct {
	code  StatusCode
	msg   string
	flood bool // over a frame bound (IsFlood)
}

func (e *protocolError) Error() string { return "websocket: " + e.msg }

// IsFlood reports whether err failed a connection for sending frames
// faster than its bounds (MaxControlPerSecond, MaxFragments): the server
// counts it as a flood, not as a broken client.
func IsFlood(err error) bool {
	var pe *protocolError
	return errors.As(err, &pe) && pe.flood
}

// The bounds on frames that carry no message of their own, so that no
// peer makes the server work for free: data messages are charged by the
// server's per-socket rate, but a ping costs a pong's write, and empty
// continuation frames cost a read each. A browser sends neither pings nor
// fragments; MaxControlPerSecond leaves room for pongs to every ping
// (one a minute) and a client library's keep-alive.
const (
	// MaxControlPerSecond bounds the control frames (ping, pong) a peer
	// sends in a second of the clock; past it the connection fails (1008).
	MaxControlPerSecond = 10
	// MaxFragments bounds the frames of one data message (1008 past it).
	MaxFragments = 64
)

// The opcodes.
const (
	opContinuation = 0
	opText         = 1
	opBinary       = 2
	opClose        = 8
	opPing         = 9
	opPong         = 10
)

// readBufSize is the read buffer of a socket, held for the socket's life:
// a client's moves in this room (about 70 bytes with the frame's header)
// fit in it, so one read system call usually brings a whole frame, and a
// longer payload is read past it straight into the caller's buffer (a
// second read). It was 512 bytes: at four sockets a table, 1.5 KiB more
// a table, to save that second read for the rare messages between 128
// and 512 bytes.
const readBufSize = 128

// failDrain bounds how long a connection failed for a violation reads
// what its peer had already sent before closing (see fail).
const failDrain = 50 * time.Millisecond

// closeWait is how long Close waits for the peer's close frame.
const closeWait = time.Second

// Conn is one server-side WebSocket.
type Conn struct {
	nc net.Conn
	br *bufio.Reader
	// rc is nc's descriptor for TryWriteText's non-blocking write; nil
	// when nc has none (a pipe in tests, TLS), and then TryWriteText
	// leaves every write to WriteText.
	rc syscall.RawConn

	// Read state, owned by the reader goroutine.
	limit     int64       // a message longer than this fails the connection (1009)
	inMessage bool        // a data message has started (Next returned)
	final     bool        // the current frame is the message's last
	left      int64       // payload bytes left in the current frame
	total     int64       // the current message's length so far
	mask      [4]byte     // the current frame's masking key
	maskPos   int         // position in the key
	typ       MessageType // the current message's type
	hdr       [14]byte
	frags     int32 // the current message's frames so far
	ctlN      int32 // control frames in the clock second ctlSec
	ctlSec    int64

	wmu       sync.Mutex // orders writes
	closeSent bool       // under wmu
	// TryWriteText's system call, under wmu: its frames and its result
	// (fields rather than a closure's captures, which would be allocated
	// on every write).
	tryBuf  []byte
	tryN    int
	tryErr  error
	tryFunc func(fd uintptr) bool

	closed    atomic.Bool
	closeRecv chan struct{} // closed when the peer's close frame arrived (or the reader ended)
	recvOnce  sync.Once

	pmu     sync.Mutex
	pings   map[uint64]chan struct{} // the pings waiting for their pong; nil when none (an idle socket holds no map)
	pingSeq uint64
}

// AcceptOptions are Accept's.
type AcceptOptions struct {
	// OriginPatterns are the Origin hosts accepted besides the request's
	// own Host, as path.Match patterns, compared without case; a pattern
	// with "://" is matched against the Origin's scheme and host. A request
	// with no Origin header (a program, not a page) is always accepted.
	OriginPatterns []string
	// ReadLimit is the longest message accepted (default 32 KiB); a longer
	// one fails the connection with StatusMessageTooBig.
	ReadLimit int64
}

// Accept checks the upgrade request, answers it and takes the connection
// over from the HTTP server. On error it has answered with an HTTP error.
func Accept(w http.ResponseWriter, r *http.Request, opts *AcceptOptions) (*Conn, error) {
	if opts == nil {
		opts = &AcceptOptions{}
	}
	key, status, err := checkRequest(r)
	if err != nil {
		if status == http.StatusUpgradeRequired {
			w.Header().Set("Connection", "Upgrade")
			w.Header().Set("Upgrade", "websocket")
			w.Header().Set("Sec-WebSocket-Version", "13")
		}
		http.Error(w, err.Error(), status)
		return nil, err
	}
	if err := checkOrigin(r, opts.OriginPatterns); err != nil {
		http.Error(w, err.Error(), http.StatusForbidden)
		return nil, err
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		err := errors.New("websocket: the response cannot be hijacked")
		http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
		return nil, err
	}
	nc, brw, err := hj.Hijack()
	if err != nil {
		http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
		return nil, fmt.Errorf("websocket: hijack: %w", err)
	}
	// Whatever the client sent after its request (it may start sending
	// frames before it reads the answer) is in the HTTP server's reader;
	// keep those bytes, drop the reader and its writer.
	var rd io.Reader = nc
	if n := brw.Reader.Buffered(); n > 0 {
		early, _ := brw.Reader.Peek(n)
		rd = io.MultiReader(bytes.NewReader(bytes.Clone(early)), nc)
	}
	c := newConn(nc, rd, opts.ReadLimit)
	resp := "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " + acceptKey(key) + "\r\n\r\n"
	if _, err := io.WriteString(nc, resp); err != nil {
		nc.Close()
		return nil, fmt.Errorf("websocket: answer the upgrade: %w", err)
	}
	return c, nil
}

// newConn makes the Conn of an upgraded socket that reads from rd.
func newConn(nc net.Conn, rd io.Reader, limit int64) *Conn {
	if limit <= 0 {
		limit = 32 << 10
	}
	c := &Conn{nc: nc, br: bufio.NewReaderSize(rd, readBufSize), limit: limit,
		closeRecv: make(chan struct{})}
	if sc, ok := nc.(syscall.Conn); ok {
		if rc, err := sc.SyscallConn(); err == nil {
			c.rc = rc
			c.tryFunc = c.tryWrite
		}
	}
	return c
}

// checkRequest validates an upgrade request (RFC 6455 section 4.2.1) and
// returns the client's key, or the HTTP status to refuse it with.
func checkRequest(r *http.Request) (key string, status int, err error) {
	switch {
	case r.Method != http.MethodGet:
		return "", http.StatusMethodNotAllowed, errors.New("websocket: the upgrade must be a GET")
	case !r.ProtoAtLeast(1, 1):
		return "", http.StatusUpgradeRequired, errors.New("websocket: the upgrade needs HTTP/1.1")
	case !hasToken(r.Header, "Connection", "upgrade"):
		return "", http.StatusUpgradeRequired, errors.New("websocket: Connection header does not say Upgrade")
	case !hasToken(r.Header, "Upgrade", "websocket"):
		return "", http.StatusUpgradeRequired, errors.New("websocket: Upgrade header does not say websocket")
	case r.Header.Get("Sec-WebSocket-Version") != "13":
		return "", http.StatusUpgradeRequired, errors.New("websocket: only version 13 is spoken")
	}
	key = strings.TrimSpace(r.Header.Get("Sec-WebSocket-Key"))
	if b, err := base64.StdEncoding.DecodeString(key); err != nil || len(b) != 16 {
		return "", http.StatusBadRequest, errors.New("websocket: Sec-WebSocket-Key is not 16 bytes in base64")
	}
	return key, 0, nil
}

// hasToken reports whether a comma-separated header holds the token (any case).
func hasToken(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for t := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

// CheckOrigin is the Origin check of Accept, for other requests a page
// could forge (the server's state-changing API calls).
func CheckOrigin(r *http.Request, patterns []string) error { return checkOrigin(r, patterns) }

// checkOrigin accepts no Origin (a program), the request's own host, or a
// host (or scheme://host) that matches one of the patterns.
func checkOrigin(r *http.Request, patterns []string) error {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return fmt.Errorf("websocket: Origin %q is not a URL with a host", origin)
	}
	if strings.EqualFold(u.Host, r.Host) {
		return nil
	}
	for _, p := range patterns {
		target := u.Host
		if strings.Contains(p, "://") {
			target = u.Scheme + "://" + u.Host
		}
		ok, err := path.Match(strings.ToLower(p), strings.ToLower(target))
		if err != nil {
			return fmt.Errorf("websocket: origin pattern %q: %w", p, err)
		}
		if ok {
			return nil
		}
	}
	return fmt.Errorf("websocket: Origin %q may not open a socket on %q", u.Host, r.Host)
}

// acceptKey is the Sec-WebSocket-Accept answer to a key (RFC 6455 section 4.2.2).
func acceptKey(key string) string {
	h := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	return base64.StdEncoding.EncodeToString(h[:])
}

// SetReadLimit sets the longest message accepted (see AcceptOptions.ReadLimit).
func (c *Conn) SetReadLimit(n int64) {
	if n > 0 {
		c.limit = n
	}
}

// Next waits for the next data message and returns its type; Read reads
// its payload. Control frames met on the way are handled: a ping is
// answered, a pong ends the matching Ping, and a close frame is answered
// and ends the connection with a *CloseError. A peer's violation of the
// protocol closes the connection with the right code. The rest of a
// message that was not read is skipped.
func (c *Conn) Next() (MessageType, error) {
	if c.inMessage {
		// Skip what the caller did not read of the last message.
		if _, err := c.skip(); err != nil {
			return 0, err
		}
	}
	for {
		op, fin, err := c.frame()
		if err != nil {
			return 0, c.fail(err)
		}
		switch op {
		case opText, opBinary:
			c.inMessage, c.final, c.typ, c.total, c.frags = true, fin, MessageType(op), c.left, 1
			if c.total > c.limit {
				return 0, c.fail(&protocolError{code: StatusMessageTooBig, msg: fmt.Sprintf("message over %d bytes", c.limit)})
			}
			return c.typ, nil
		case opContinuation:
			return 0, c.fail(&protocolError{code: StatusProtocolError, msg: "continuation frame outside a message"})
		}
		if err := c.control(op); err != nil {
			return 0, err
		}
	}
}

// Wait blocks until the next data message starts (its first byte has
// come) or the connection fails (it is then closed, and the error is what
// Next would have returned); control frames that come first are handled
// as Next handles them. Next then reads the message. A reader goroutine
// that waits in Wait rather than in Next parks with a shallower stack (a
// few hundred bytes less), which matters under thousands of idle sockets,
// and goes back to that depth after each ping or pong. Called inside a
// message that was not read to its end, it returns at once.
func (c *Conn) Wait() error {
	for !c.inMessage {
		b, err := c.br.Peek(1)
		if err != nil {
			return c.fail(err)
		}
		if b[0]&0x0f < opClose {
			return nil // a data frame's header: Next's to read (and check)
		}
		op, _, err := c.frame()
		if err != nil {
			return c.fail(err)
		}
		if err := c.control(op); err != nil {
			return err
		}
	}
	return nil
}

// Read reads the current message's payload (io.Reader: io.EOF at its end).
func (c *Conn) Read(p []byte) (int, error) { return c.read(p, false) }

// skip reads and drops the rest of the current message and reports
// whether there was any.
func (c *Conn) skip() (bool, error) {
	some := false
	for {
		n, err := c.read(nil, true)
		some = some || n > 0
		if err == io.EOF {
			return some, nil
		}
		if err != nil {
			return some, err
		}
	}
}

// read is Read; with skip it drops the rest of the current frame instead
// of reading into p.
func (c *Conn) read(p []byte, skip bool) (int, error) {
	if !c.inMessage {
		return 0, io.EOF
	}
	for c.left == 0 {
		if c.final {
			c.inMessage = false
			return 0, io.EOF
		}
		// The message goes on in a continuation frame; control frames may
		// come between.
		op, fin, err := c.frame()
		if err != nil {
			return 0, c.fail(err)
		}
		switch op {
		case opContinuation:
			c.final = fin
			// Compared before the sum: a frame may declare up to 2^63-1
			// bytes, and total + left would wrap past the limit.
			over := c.left > c.limit-c.total
			c.total += c.left
			if over {
				return 0, c.fail(&protocolError{code: StatusMessageTooBig, msg: fmt.Sprintf("message over %d bytes", c.limit)})
			}
			if c.frags++; c.frags > MaxFragments {
				return 0, c.fail(&protocolError{code: StatusPolicyViolation, msg: fmt.Sprintf("a message in more than %d frames", MaxFragments), flood: true})
			}
		case opText, opBinary:
			return 0, c.fail(&protocolError{code: StatusProtocolError, msg: "a new message inside a fragmented one"})
		default:
			if err := c.control(op); err != nil {
				return 0, err
			}
		}
	}
	if skip {
		n, err := c.br.Discard(int(min(c.left, 1<<30)))
		c.left -= int64(n)
		if err != nil {
			return n, c.fail(err)
		}
		return n, nil
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := io.ReadFull(c.br, p)
	c.unmask(p[:n])
	c.left -= int64(n)
	if err != nil {
		return n, c.fail(err)
	}
	return n, nil
}

// ReadMessage reads the whole current message into buf and returns how
// much it holds; what does not fit is read and dropped (over is true). A
// text message that was kept whole must be valid UTF-8.
func (c *Conn) ReadMessage(buf []byte) (n int, over bool, err error) {
	for n < len(buf) {
		k, err := c.Read(buf[n:])
		n += k
		if err == io.EOF {
			return n, false, c.checkText(buf[:n])
		}
		if err != nil {
			return n, false, err
		}
	}
	// Full: anything after is over the caller's buffer.
	over, err = c.skip()
	if err != nil {
		return n, over, err
	}
	if over {
		return n, true, nil
	}
	return n, false, c.checkText(buf[:n])
}

func (c *Conn) checkText(b []byte) error {
	if c.typ == Text && !utf8.Valid(b) {
		return c.fail(&protocolError{code: StatusInvalidData, msg: "text message is not UTF-8"})
	}
	return nil
}

func (c *Conn) unmask(b []byte) {
	for i := range b {
		b[i] ^= c.mask[c.maskPos&3]
		c.maskPos++
	}
}

// frame reads the next frame's header (RFC 6455 section 5.2) and checks
// what a server must: masked, no reserved bits, known opcodes, short and
// whole control frames.
func (c *Conn) frame() (op byte, fin bool, err error) {
	h := c.hdr[:2]
	if _, err := io.ReadFull(c.br, h); err != nil {
		return 0, false, err
	}
	fin, op = h[0]&0x80 != 0, h[0]&0x0f
	if h[0]&0x70 != 0 {
		return 0, false, &protocolError{code: StatusProtocolError, msg: "reserved bits set (no extension was agreed)"}
	}
	switch op {
	case opContinuation, opText, opBinary, opClose, opPing, opPong:
	default:
		return 0, false, &protocolError{code: StatusProtocolError, msg: fmt.Sprintf("unknown opcode %d", op)}
	}
	if h[1]&0x80 == 0 {
		return 0, false, &protocolError{code: StatusProtocolError, msg: "a client frame must be masked"}
	}
	n := int64(h[1] & 0x7f)
	switch n {
	case 126:
		if _, err := io.ReadFull(c.br, c.hdr[2:4]); err != nil {
			return 0, false, err
		}
		n = int64(binary.BigEndian.Uint16(c.hdr[2:4]))
	case 127:
		if _, err := io.ReadFull(c.br, c.hdr[2:10]); err != nil {
			return 0, false, err
		}
		u := binary.BigEndian.Uint64(c.hdr[2:10])
		if u>>63 != 0 {
			return 0, false, &protocolError{code: StatusProtocolError, msg: "frame length has its top bit set"}
		}
		n = int64(u)
	}
	if op >= opClose && (!fin || n > 125) {
		return 0, false, &protocolError{code: StatusProtocolError, msg: "control frames must be whole and at most 125 bytes"}
	}
	if _, err := io.ReadFull(c.br, c.mask[:]); err != nil {
		return 0, false, err
	}
	c.left, c.maskPos = n, 0
	return op, fin, nil
}

// control handles a control frame whose header frame has read.
func (c *Conn) control(op byte) error {
	if now := time.Now().Unix(); now != c.ctlSec {
		c.ctlSec, c.ctlN = now, 0
	}
	if c.ctlN++; c.ctlN > MaxControlPerSecond {
		return c.fail(&protocolError{code: StatusPolicyViolation, msg: fmt.Sprintf("more than %d control frames in a second", MaxControlPerSecond), flood: true})
	}
	// The payload is read onto the reader's stack: a socket holds no
	// buffer of its own for control frames, which are rare.
	var ctl [125]byte
	p := ctl[:c.left]
	if _, err := io.ReadFull(c.br, p); err != nil {
		return c.fail(err)
	}
	c.unmask(p)
	c.left = 0
	switch op {
	case opPing:
		if err := c.writeFrame(opPong, p); err != nil && !errors.Is(err, ErrClosed) {
			return c.fail(err)
		}
	case opPong:
		if len(p) == 8 {
			c.pmu.Lock()
			if ch, ok := c.pings[binary.BigEndian.Uint64(p)]; ok {
				close(ch)
				c.unping(binary.BigEndian.Uint64(p))
			}
			c.pmu.Unlock()
		}
	case opClose:
		ce := &CloseError{Code: StatusNoStatusRcvd}
		switch {
		case len(p) == 1:
			return c.fail(&protocolError{code: StatusProtocolError, msg: "close frame of one byte"})
		case len(p) >= 2:
			ce.Code = StatusCode(binary.BigEndian.Uint16(p))
			ce.Reason = string(p[2:])
			if !validCloseCode(ce.Code) {
				return c.fail(&protocolError{code: StatusProtocolError, msg: fmt.Sprintf("close code %d may not be sent", ce.Code)})
			}
			if !utf8.ValidString(ce.Reason) {
				return c.fail(&protocolError{code: StatusInvalidData, msg: "close reason is not UTF-8"})
			}
		}
		// Answer with the same code (or none), then the socket can go.
		var echo []byte
		if ce.Code != StatusNoStatusRcvd {
			echo = binary.BigEndian.AppendUint16(nil, uint16(ce.Code))
		}
		c.writeClose(echo)
		c.recvOnce.Do(func() { close(c.closeRecv) })
		c.CloseNow()
		return ce
	}
	return nil
}

// validCloseCode reports whether a peer may send the code (RFC 6455
// section 7.4.1: 1004–1006 and 1015 are reserved; 3000–4999 are for
// libraries and applications).
func validCloseCode(c StatusCode) bool {
	switch {
	case c >= 1000 && c <= 1003, c >= 1007 && c <= 1014:
		return true
	case c >= 3000 && c <= 4999:
		return true
	}
	return false
}

// fail ends the connection after a read error: a protocol violation is
// answered with its close code first. It returns err.
//
// After a violation the peer may have sent more than the read buffer
// holds (the rest of a message over the limit, say); closing a socket
// with unread bytes makes the kernel reset the connection, and a reset
// can cost the peer the close frame it has not read yet. So what the
// peer has already sent is read and dropped first, for at most
// failDrain: a peer that goes on sending is cut then.
func (c *Conn) fail(err error) error {
	var pe *protocolError
	if errors.As(err, &pe) {
		c.writeClose(closePayload(pe.code, pe.msg))
		c.nc.SetReadDeadline(time.Now().Add(failDrain))
		io.CopyN(io.Discard, c.br, 1<<20)
	}
	c.recvOnce.Do(func() { close(c.closeRecv) })
	c.CloseNow()
	return err
}

func closePayload(code StatusCode, reason string) []byte {
	if len(reason) > 123 {
		reason = reason[:123]
		for !utf8.ValidString(reason) {
			reason = reason[:len(reason)-1]
		}
	}
	b := binary.BigEndian.AppendUint16(make([]byte, 0, 2+len(reason)), uint16(code))
	return append(b, reason...)
}

// header writes a server frame's header (unmasked) into h and returns its length.
func header(h *[10]byte, op byte, n int) int {
	h[0] = 0x80 | op
	switch {
	case n <= 125:
		h[1] = byte(n)
		return 2
	case n <= 0xffff:
		h[1] = 126
		binary.BigEndian.PutUint16(h[2:4], uint16(n))
		return 4
	default:
		h[1] = 127
		binary.BigEndian.PutUint64(h[2:10], uint64(n))
		return 10
	}
}

// WriteText sends each message as a text frame, all in one system call.
// It blocks until the kernel has taken them; a peer that stops reading
// blocks it until CloseNow.
//
// The frames are copied into one buffer from a pool shared by every
// socket and written with one write: copying a few KiB costs far less
// than the system call, and a socket keeps nothing between writes (a
// writev would leave its vector of buffers in the socket's descriptor,
// and the frame headers and the list of messages in the Conn: about
// 400 bytes under every idle socket).
func (c *Conn) WriteText(msgs ...[]byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.closeSent || c.closed.Load() {
		return ErrClosed
	}
	bp, b := textFrames(msgs)
	_, err := c.nc.Write(b)
	putFrameBuf(bp, b)
	return err
}

// textFrames assembles msgs as text frames in a pooled buffer (bp, to
// give back with putFrameBuf once written).
func textFrames(msgs [][]byte) (bp *[]byte, b []byte) {
	size := 0
	for _, m := range msgs {
		size += 10 + len(m)
	}
	bp = getFrameBuf(size)
	b = (*bp)[:0]
	for _, m := range msgs {
		b = appendFrame(b, opText, m)
	}
	return bp, b
}

// Pending is the rest of a TryWriteText that the socket took only in
// part. It holds the socket's write lock, so that no other frame can be
// written into the middle of a message: Finish writes the rest, waiting
// as WriteText does, and releases it. Whoever gets a Pending must call
// Finish, from any goroutine.
type Pending struct {
	c   *Conn
	bp  *[]byte
	b   []byte // the frames
	off int    // how much of b the socket took
}

// Finish writes the rest of the frames (it blocks like WriteText; a peer
// that stops reading blocks it until CloseNow) and releases the socket.
func (p *Pending) Finish() error {
	_, err := p.c.nc.Write(p.b[p.off:])
	putFrameBuf(p.bp, p.b)
	p.c.wmu.Unlock()
	return err
}

// TryWriteText is WriteText for a goroutine that must not wait: it makes
// the same one system call, without blocking. done reports that the
// socket took every frame. Otherwise, if it took none (its buffer was
// full, another write held the socket, or the socket has no descriptor
// to write to without waiting), p is nil and nothing was sent: the caller
// hands the messages to a writer that may wait (WriteText). If it took
// part of them, p holds the socket until p.Finish writes the rest.
func (c *Conn) TryWriteText(msgs ...[]byte) (done bool, p *Pending, err error) {
	if c.rc == nil || !c.wmu.TryLock() {
		return false, nil, nil
	}
	if c.closeSent || c.closed.Load() {
		c.wmu.Unlock()
		return false, nil, ErrClosed
	}
	bp, b := textFrames(msgs)
	c.tryBuf, c.tryN, c.tryErr = b, 0, nil
	if err := c.rc.Write(c.tryFunc); err != nil {
		c.tryErr = err // the socket is closed
	}
	n, err := c.tryN, c.tryErr
	c.tryBuf, c.tryErr = nil, nil
	switch {
	case err == nil && n == len(b):
		putFrameBuf(bp, b)
		c.wmu.Unlock()
		return true, nil, nil
	case n > 0:
		return false, &Pending{c: c, bp: bp, b: b, off: n}, nil
	default:
		putFrameBuf(bp, b)
		c.wmu.Unlock()
		if err == syscall.EAGAIN || err == syscall.EINTR {
			err = nil // nothing taken: the caller's writer will wait
		}
		return false, nil, err
	}
}

// tryWrite is TryWriteText's one attempt at the descriptor (RawConn.Write
// calls it; returning true means it is not called again, so it never
// waits for the socket to become writable).
func (c *Conn) tryWrite(fd uintptr) bool {
	n, err := writeFD(fd, c.tryBuf)
	if n < 0 {
		n = 0
	}
	c.tryN, c.tryErr = n, err
	return true
}

// appendFrame appends a server frame (unmasked) of op and payload p.
func appendFrame(b []byte, op byte, p []byte) []byte {
	var h [10]byte
	k := header(&h, op, len(p))
	return append(append(b, h[:k]...), p...)
}

// framePool holds the buffers WriteText assembles its frames in: *[]byte,
// each held by one write at a time.
var framePool sync.Pool

// frameBufMin is the least capacity of a pooled frame buffer (a move's
// state messages are one to a few KiB), frameBufMax the largest kept in
// the pool (a longer one, a subscriber's first message with a long
// history say, is left to the collector).
const (
	frameBufMin = 4 << 10
	frameBufMax = 64 << 10
)

// getFrameBuf returns a buffer of at least size bytes' capacity.
func getFrameBuf(size int) *[]byte {
	bp, ok := framePool.Get().(*[]byte)
	if !ok {
		bp = new([]byte)
	}
	if cap(*bp) < size {
		// Too short for this write (or new): replaced, not put back. Put
		// back, it was the pool's first buffer again at the next write, so
		// every longer write (a move's five messages to one client holding
		// four seats, about 10 KB) made a new buffer, and the pool grew
		// with them until a collection (52 MB held at 10,000 tables of one
		// client).
		*bp = make([]byte, 0, max(size, frameBufMin))
	}
	return bp
}

// putFrameBuf gives a buffer back to the pool once its write has
// returned; b is what it was last grown to. What it held is overwritten
// by the next write before any of it is sent again.
func putFrameBuf(bp *[]byte, b []byte) {
	if cap(b) > frameBufMax {
		return
	}
	*bp = b[:0]
	framePool.Put(bp)
}

// writeFrame writes one control frame.
func (c *Conn) writeFrame(op byte, p []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.closeSent || c.closed.Load() {
		return ErrClosed
	}
	return c.writeLocked(op, p)
}

// writeLocked writes one control frame (at most 125 bytes of payload)
// from a buffer on the stack.
func (c *Conn) writeLocked(op byte, p []byte) error {
	var buf [2 + 125]byte
	_, err := c.nc.Write(appendFrame(buf[:0], op, p))
	return err
}

// writeClose sends a close frame once; later messages are refused.
func (c *Conn) writeClose(p []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.closeSent || c.closed.Load() {
		return
	}
	c.closeSent = true
	c.nc.SetWriteDeadline(time.Now().Add(closeWait))
	c.writeLocked(opClose, p)
}

// Ping sends a ping and waits for its pong, which the reader goroutine
// receives; ctx bounds the wait. If ctx ends while the ping is still being
// written (the peer does not read), the connection is closed.
func (c *Conn) Ping(ctx context.Context) error {
	c.pmu.Lock()
	c.pingSeq++
	id := c.pingSeq
	ch := make(chan struct{})
	if c.pings == nil {
		c.pings = map[uint64]chan struct{}{}
	}
	c.pings[id] = ch
	c.pmu.Unlock()
	defer func() {
		c.pmu.Lock()
		c.unping(id)
		c.pmu.Unlock()
	}()
	var p [8]byte
	binary.BigEndian.PutUint64(p[:], id)
	// A peer that stopped reading can block the write itself: when ctx
	// ends first, the connection is closed, which ends the write.
	stop := context.AfterFunc(ctx, func() { c.CloseNow() })
	err := c.writeFrame(opPing, p[:])
	stop()
	if err != nil {
		return err
	}
	select {
	case <-ch:
		return nil
	case <-c.closeRecv:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

// unping forgets ping id (under pmu), and the map once it is empty: an
// idle socket holds none between its pings.
func (c *Conn) unping(id uint64) {
	delete(c.pings, id)
	if len(c.pings) == 0 {
		c.pings = nil
	}
}

// Close sends a close frame with the code and reason, waits briefly for
// the peer's answer (read by the reader goroutine) and closes the socket.
func (c *Conn) Close(code StatusCode, reason string) error {
	c.writeClose(closePayload(code, reason))
	t := time.NewTimer(closeWait)
	defer t.Stop()
	select {
	case <-c.closeRecv:
	case <-t.C:
	}
	return c.CloseNow()
}

// CloseNow closes the socket without a close frame; a write blocked on a
// peer that does not read returns.
func (c *Conn) CloseNow() error {
	if c.closed.Swap(true) {
		return nil
	}
	return c.nc.Close()
}

// SetWriteDeadline bounds the writes from now on (a last flush before
// closing, say).
func (c *Conn) SetWriteDeadline(t time.Time) error { return c.nc.SetWriteDeadline(t) }
