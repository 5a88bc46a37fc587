package server

import (
	"context"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"cardroom/cluster"
	"cardroom/protocol"
	"cardroom/server/wsconn"
	"cardroom/store"
	"cardroom/table"
)

// socket is what a conn writes to: a WebSocket (wsconn.Conn), or, for a
// connection of another node served here as a table's owner, that node's
// subject on the bus (vsock).
type socket interface {
	WriteText(msgs ...[]byte) error
	TryWriteText(msgs ...[]byte) (done bool, p *wsconn.Pending, err error)
	Ping(ctx context.Context) error
	Close(code wsconn.StatusCode, why string) error
	CloseNow() error
	SetWriteDeadline(t time.Time) error
}

// vsock is a virtual conn's socket: what the owner writes goes, in frames,
// on the subject of the connection at its node, which writes it to the
// client's WebSocket.
type vsock struct {
	cl      *clusterNode
	subject string // the connection's subject at its node
	buf     []byte // the frames of the last write, reused: Publish copies them
	// muted: nothing more goes on the subject (the connection it names is
	// no longer this one's: mute). mu orders it with the writes, so that
	// once mute returns no write is under way.
	mu    sync.Mutex
	muted bool
}

// mute stops a virtual conn's socket at once: from its return, not a word
// more goes on its subject, not the messages still queued nor the close.
// For a stand-in whose subject now names another client's connection (a
// node's earlier life, a forged command), whatever it would send there is
// someone else's view.
func (c *conn) mute() {
	if v, ok := c.ws.(*vsock); ok {
		v.mu.Lock()
		v.muted = true
		v.mu.Unlock()
	}
}

// retire mutes a virtual conn and drops it.
func (c *conn) retire(why string) {
	c.mute()
	c.drop(wsconn.StatusGoingAway, why)
}

// WriteText is called by the connection's one writer at a time.
func (v *vsock) WriteText(msgs ...[]byte) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.muted {
		return nil
	}
	v.buf = cluster.AppendFrames(v.buf[:0], msgs...)
	err := v.cl.bus.NC.Publish(v.subject, v.buf)
	if cap(v.buf) > 64<<10 {
		v.buf = nil // a rare big batch does not stay with an idle connection
	}
	return err
}

// Ping: the relaying node pings its client; the bus's own pings watch the
// link between the nodes.
// TryWriteText leaves every write to the writer (WriteText): a relay
// publishes without waiting anyway.
func (v *vsock) TryWriteText(...[]byte) (bool, *wsconn.Pending, error) { return false, nil, nil }

func (v *vsock) Ping(context.Context) error { return nil }

func (v *vsock) Close(_ wsconn.StatusCode, why string) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.muted {
		return nil
	}
	m := &nats.Msg{Subject: v.subject, Header: nats.Header{}}
	m.Header.Set(cluster.HOp, cluster.OpClose)
	m.Header.Set(cluster.HWhy, why)
	m.Header.Set(cluster.HNode, v.cl.cfg.Node)
	return v.cl.bus.NC.PublishMsg(m)
}

func (v *vsock) CloseNow() error                  { return nil }
func (v *vsock) SetWriteDeadline(time.Time) error { return nil }

// newVirtualConn makes the conn an owner serves another node's connection
// with: the same conn as a local one (queues, limits, table
// subscriptions, chat), writing to the bus instead of a socket, and fed by
// the relayed commands (enqueue) instead of a reader.
func (s *Server) newVirtualConn(k vkey, sess store.Session) *conn {
	return &conn{s: s, ws: &vsock{cl: s.cl, subject: s.cl.bus.Sub.Conn(k.node, k.id)}, sess: sess, virtual: true, id: k.id,
		done: make(chan struct{}), finished: make(chan struct{}),
		tokens: s.cfg.Burst, last: time.Now()}
}

// enqueue queues a relayed command; false: the queue is full.
func (c *conn) enqueue(raw []byte) bool {
	c.inMu.Lock()
	if len(c.inbox) >= remoteInbox {
		c.inMu.Unlock()
		return false
	}
	c.inbox = append(c.inbox, raw)
	start := !c.inRunning
	c.inRunning = true
	c.inMu.Unlock()
	if start {
		go c.inboxRun()
	}
	return true
}

// inboxRun handles the queued relayed commands in order, as a local
// connection's reader would, and ends when the queue is empty. The
// watching set is only touched here and in cleanup, after the connection
// ended; one inboxRun at a time.
func (c *conn) inboxRun() {
	ctx := context.Background()
	for {
		c.inMu.Lock()
		if len(c.inbox) == 0 {
			c.inRunning = false
			c.inMu.Unlock()
			return
		}
		raw := c.inbox[0]
		c.inbox[0] = nil
		c.inbox = c.inbox[1:]
		c.inMu.Unlock()
		select {
		case <-c.done:
			continue
		default:
		}
		m, e := protocol.DecodeClient(raw)
		if e != nil {
			c.Send(marshalMsg(e))
			continue
		}
		c.handle(ctx, m, raw)
	}
}

// connID numbers a node's connections (relayed ones are named by it).
func (s *Server) connID() uint64 { return s.nextConn.Add(1) }

// closeWatchers closes the connections (local and virtual) watching a
// table that left this node, so that their clients reconnect and reach
// its new owner.
func (s *Server) closeWatchers(id, msg string) {
	s.mu.Lock()
	var cs []*conn
	for c := range s.watchers[id] {
		cs = append(cs, c)
	}
	s.mu.Unlock()
	tryElsewhere(cs, id, msg, "table moved")
}

// tryElsewhere closes connections that another node can serve: an
// unavailable error saying msg (about tableID, if any), then status 1013
// ("try again later") with why, so that clients reconnect (docs/protocol.md).
func tryElsewhere(cs []*conn, tableID, msg, why string) {
	for _, c := range cs {
		c.sendErr(nil, tableID, &table.Error{Code: protocol.Unavailable, Msg: msg})
		c.kill(wsconn.StatusTryAgainLater, why)
	}
}

// closeAllConns closes every local connection (a node cut from the
// cluster).
func (s *Server) closeAllConns(msg string) {
	s.mu.Lock()
	cs := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		cs = append(cs, c)
	}
	s.mu.Unlock()
	tryElsewhere(cs, "", msg, "node cut from the cluster")
}

// addWatcher and dropWatcher keep the index of who watches a table here.
func (s *Server) addWatcher(id string, c *conn) {
	s.mu.Lock()
	m := s.watchers[id]
	if m == nil {
		m = map[*conn]struct{}{}
		s.watchers[id] = m
	}
	m[c] = struct{}{}
	s.mu.Unlock()
}

func (s *Server) dropWatcher(id string, c *conn) {
	s.mu.Lock()
	if m := s.watchers[id]; m != nil {
		delete(m, c)
		if len(m) == 0 {
			delete(s.watchers, id)
		}
	}
	s.mu.Unlock()
}

func (s *Server) tableCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tables)
}

// remoteSummary is a peer's summary of a table it plays (nil: none, or
// no cluster).
func (s *Server) remoteSummary(id string) *table.Summary {
	if s.cl == nil {
		return nil
	}
	return s.cl.remoteSummary(id)
}
