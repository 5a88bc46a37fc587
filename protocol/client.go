package protocol

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/coder/websocket"
)

// Options configure a Client.
type Options struct {
	// Token is the session token (NewSession), sent as
	// "Authorization: Bearer <token>" on the handshake. Empty: an
	// anonymous connection, which may only watch.
	Token string
	// HTTPClient makes the handshake (default http.DefaultClient).
	HTTPClient *http.Client
	// ReadLimit bounds one server message (default 16 MiB: a Papayoo
	// pass lists 2,000 moves).
	ReadLimit int64
}

// Client is one WebSocket connection to a card room. Send may be called
// from any goroutine; Recv and Next from one at a time.
type Client struct {
	base    string
	opts    Options
	ws      *websocket.Conn
	welcome WelcomeMsg
}

// HandshakeError is a refused WebSocket handshake (401 for a bad token,
// 503 while the server is busy or stopping).
type HandshakeError struct {
	StatusCode int // 0 when no HTTP answer came
	Err        error
}

func (e *HandshakeError) Error() string {
	return fmt.Sprintf("protocol: handshake refused (HTTP %d): %v", e.StatusCode, e.Err)
}

func (e *HandshakeError) Unwrap() error { return e.Err }

// WSURL is the WebSocket address of a room whose base URL is http(s)://host.
func WSURL(baseURL string) string {
	return "ws" + strings.TrimPrefix(strings.TrimSuffix(baseURL, "/"), "http") + "/ws"
}

// Dial opens a connection to the room at baseURL (http://host:port) and
// reads its welcome. opts may be nil.
func Dial(ctx context.Context, baseURL string, opts *Options) (*Client, error) {
	c := &Client{base: baseURL}
	if opts != nil {
		c.opts = *opts
	}
	if c.opts.ReadLimit <= 0 {
		c.opts.ReadLimit = 1 << 24
	}
	if _, err := c.dial(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Client) dial(ctx context.Context) (*WelcomeMsg, error) {
	h := http.Header{}
	if c.opts.Token != "" {
		h.Set("Authorization", "Bearer "+c.opts.Token)
	}
	ws, resp, err := websocket.Dial(ctx, WSURL(c.base), &websocket.DialOptions{HTTPHeader: h, HTTPClient: c.opts.HTTPClient})
	if err != nil {
		code := 0
		if resp != nil {
			code = resp.StatusCode
		}
		return nil, &HandshakeError{StatusCode: code, Err: err}
	}
	ws.SetReadLimit(c.opts.ReadLimit)
	_, b, err := ws.Read(ctx)
	if err != nil {
		ws.CloseNow()
		return nil, fmt.Errorf("protocol: no welcome: %w", err)
	}
	var w WelcomeMsg
	if err := json.Unmarshal(b, &w); err != nil || w.Type != TypeWelcome {
		ws.CloseNow()
		return nil, fmt.Errorf("protocol: the first message is not a welcome: %.200s", b)
	}
	c.ws, c.welcome = ws, w
	return &c.welcome, nil
}

// Welcome is the welcome of the current connection.
func (c *Client) Welcome() *WelcomeMsg { return &c.welcome }

// Token is the session token the client dials with ("" for anonymous).
func (c *Client) Token() string { return c.opts.Token }

// Conn is the underlying WebSocket, for what the protocol does not cover
// (tests send binary or oversized frames through it).
func (c *Client) Conn() *websocket.Conn { return c.ws }

// Redial closes the connection and dials again with the same token, as a
// client does after a drop or a server restart; it returns the new welcome,
// whose Seats say which tables to watch again.
func (c *Client) Redial(ctx context.Context) (*WelcomeMsg, error) {
	c.ws.CloseNow()
	return c.dial(ctx)
}

// Send writes one client message.
func (c *Client) Send(ctx context.Context, m ClientMsg) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return c.SendRaw(ctx, b)
}

// SendRaw writes one text frame as it is.
func (c *Client) SendRaw(ctx context.Context, b []byte) error {
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// Incoming is one server message: its type and its bytes as received.
type Incoming struct {
	Type string
	Raw  []byte
}

// Decode decodes the message into its own type (DecodeServer).
func (in Incoming) Decode() (ServerMsg, error) { return DecodeServer(in.Raw) }

// Recv reads the next message and its type, without decoding the rest:
// the caller decodes what it needs (Decode, DecodeStateHead). Raw is the
// caller's to keep.
func (c *Client) Recv(ctx context.Context) (Incoming, error) {
	_, b, err := c.ws.Read(ctx)
	if err != nil {
		return Incoming{}, err
	}
	return incoming(b)
}

// incoming is a message as received, with its type.
func incoming(b []byte) (Incoming, error) {
	typ, err := PeekType(b)
	if err != nil {
		return Incoming{Raw: b}, err
	}
	return Incoming{Type: typ, Raw: b}, nil
}

// RecvInto is Recv reading into buf (grown when a message is longer) and
// returning it as Raw, for a reader that is done with each message before
// it reads the next: no message allocates once buf has grown to the
// longest (the load tool reads thousands of messages a second this way).
// Raw is only valid until the next RecvInto with the same buf.
func (c *Client) RecvInto(ctx context.Context, buf []byte) (Incoming, error) {
	_, r, err := c.ws.Reader(ctx)
	if err != nil {
		return Incoming{}, err
	}
	b := buf[:0]
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return Incoming{}, err
		}
	}
	return incoming(b)
}

// Next reads the next message and decodes it into its own type (a pointer:
// *StateMsg, *AckMsg, …; *UnknownMsg for a type this package does not
// know). raw is the message as received.
func (c *Client) Next(ctx context.Context) (m ServerMsg, raw []byte, err error) {
	in, err := c.Recv(ctx)
	if err != nil {
		return nil, in.Raw, err
	}
	m, err = in.Decode()
	return m, in.Raw, err
}

// Close closes the connection normally.
func (c *Client) Close() error { return c.ws.Close(websocket.StatusNormalClosure, "") }

// CloseNow closes the connection at once.
func (c *Client) CloseNow() error { return c.ws.CloseNow() }

// HTTPError is an HTTP answer other than 200, with its error body.
type HTTPError struct {
	StatusCode int
	Body       ErrorBody
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("HTTP %d: %s: %s", e.StatusCode, e.Body.Error.Code, e.Body.Error.Message)
}

// NewSession creates a guest session (POST /api/session); its Token is the
// identity to dial with. hc may be nil (http.DefaultClient).
func NewSession(ctx context.Context, hc *http.Client, baseURL, name string) (Session, error) {
	var s Session
	err := PostJSON(ctx, hc, baseURL+"/api/session", "", SessionReq{Name: name}, &s)
	if err == nil && s.Token == "" {
		err = errors.New("protocol: a session without a token")
	}
	return s, err
}

// PostJSON posts body as JSON to url (with the token as Bearer, if any)
// and decodes a 200 answer into out; another status is an *HTTPError.
func PostJSON(ctx context.Context, hc *http.Client, url, token string, body, out any) error {
	if hc == nil {
		hc = http.DefaultClient
	}
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	rb, err := io.ReadAll(io.LimitReader(resp.Body, 1<<24))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		e := &HTTPError{StatusCode: resp.StatusCode}
		json.Unmarshal(rb, &e.Body)
		return e
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(rb, out)
}
