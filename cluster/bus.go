package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
)

// Config is a node's connection to the bus.
type Config struct {
	URL  string // nats://host:port (several, comma-separated, for a NATS cluster)
	Node string // this node's name (CheckNode)
	Room string // subject prefix; default DefaultRoom
	// Heartbeat is the period of the node's heartbeat; a peer silent for
	// three periods is down. Default 1 s.
	Heartbeat time.Duration
	Log       *slog.Logger
	// OnCut is called when the node loses the bus (and again, with false,
	// when it is back). Called from a goroutine of the bus.
	OnCut func(cut bool)
	// OnPeerDown is called when a peer's heartbeats stop.
	OnPeerDown func(node string)
	// Boot names this process among the node's lives: a random number,
	// new at every start, carried by the heartbeats (0: none). A node that
	// crashes and is back within three heartbeats is never reported down;
	// its new Boot tells its peers that whatever they held for its last
	// life (relayed connections above all) is gone.
	Boot uint32
	// OnPeerRestart is called when a peer's heartbeats carry a new Boot
	// (the peer restarted between two heartbeats' checks), with that Boot.
	OnPeerRestart func(node string, boot uint32)
}

// Bus is a node's connection to NATS, with the heartbeats that tell the
// node which peers are alive.
type Bus struct {
	NC  *nats.Conn
	Sub Subjects
	cfg Config

	connected atomic.Bool
	closing   atomic.Bool
	mu        sync.Mutex
	peers     map[string]time.Time
	boots     map[string]uint32 // the peers' Boot, as their heartbeats last said
	quit      chan struct{}
	once      sync.Once
	hbSub     *nats.Subscription
}

// Dial connects to the bus. It retries the first connection until ctx
// ends, and reconnects for ever after (a node cut off stops serving until
// it is back: OnCut).
func Dial(ctx context.Context, cfg Config) (*Bus, error) {
	if err := CheckNode(cfg.Node); err != nil {
		return nil, err
	}
	if cfg.Room == "" {
		cfg.Room = DefaultRoom
	}
	if err := CheckRoom(cfg.Room); err != nil {
		return nil, err
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	b := &Bus{Sub: Subjects{Room: cfg.Room}, cfg: cfg, peers: map[string]time.Time{}, boots: map[string]uint32{}, quit: make(chan struct{})}
	opts := []nats.Option{
		nats.Name("cardroom " + cfg.Node),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250 * time.Millisecond),
		nats.ReconnectJitter(100*time.Millisecond, time.Second),
		// A dead link is found within about three heartbeats, not NATS's
		// default two minutes.
		nats.PingInterval(cfg.Heartbeat),
		nats.MaxPingsOutstanding(3),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if b.connected.Swap(false) && !b.closing.Load() {
				cfg.Log.Warn("cluster: cut from the bus", "err", err)
				if cfg.OnCut != nil {
					cfg.OnCut(true)
				}
			}
		}),
		nats.ReconnectHandler(func(*nats.Conn) {
			if !b.connected.Swap(true) {
				cfg.Log.Info("cluster: back on the bus")
				if cfg.OnCut != nil {
					cfg.OnCut(false)
				}
			}
		}),
		nats.ErrorHandler(func(_ *nats.Conn, s *nats.Subscription, err error) {
			subj := ""
			if s != nil {
				subj = s.Subject
			}
			cfg.Log.Warn("cluster: bus error", "subject", subj, "err", err)
		}),
	}
	var nc *nats.Conn
	var err error
	for {
		nc, err = nats.Connect(cfg.URL, opts...)
		if err == nil {
			break
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("cluster: connect to %s: %w", cfg.URL, err)
		case <-time.After(250 * time.Millisecond):
		}
	}
	b.NC = nc
	b.connected.Store(true)
	b.hbSub, err = nc.Subscribe(b.Sub.Heartbeat(), func(m *nats.Msg) {
		node, boot := ParseHeartbeat(m.Data)
		if node == cfg.Node || CheckNode(node) != nil {
			return
		}
		b.mu.Lock()
		_, known := b.peers[node]
		b.peers[node] = time.Now()
		last := b.boots[node]
		if boot != 0 {
			b.boots[node] = boot
		}
		b.mu.Unlock()
		if !known {
			cfg.Log.Info("cluster: peer up", "node", node)
		}
		if last != 0 && boot != 0 && boot != last {
			cfg.Log.Warn("cluster: peer restarted", "node", node)
			if cfg.OnPeerRestart != nil {
				cfg.OnPeerRestart(node, boot)
			}
		}
	})
	if err != nil {
		nc.Close()
		return nil, err
	}
	go b.heartbeats()
	return b, nil
}

// Node is this node's name.
func (b *Bus) Node() string { return b.cfg.Node }

// Connected reports whether the node is on the bus now.
func (b *Bus) Connected() bool { return b.connected.Load() && b.NC.IsConnected() }

// Peers returns the nodes heard from within three heartbeats.
func (b *Bus) Peers() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]string, 0, len(b.peers))
	for n := range b.peers {
		out = append(out, n)
	}
	return out
}

// Met records a node this one has just heard from other than by a
// heartbeat (an owner answered, a relay sent a command), so that its
// death is noticed even if none of its heartbeats has arrived yet: a
// node younger than a heartbeat period, or a heartbeat sent before this
// node subscribed. Later heartbeats keep it alive; their absence for three
// periods reports it down.
func (b *Bus) Met(node string) {
	if node == b.cfg.Node || CheckNode(node) != nil {
		return
	}
	b.mu.Lock()
	if _, ok := b.peers[node]; !ok {
		b.peers[node] = time.Now()
	}
	b.mu.Unlock()
}

// Alive reports whether node is this one or a peer heard from recently.
func (b *Bus) Alive(node string) bool {
	if node == b.cfg.Node {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.peers[node]
	return ok
}

// heartbeats publishes this node's heartbeat each period and reports the
// peers whose heartbeats stopped.
func (b *Bus) heartbeats() {
	tk := time.NewTicker(b.cfg.Heartbeat)
	defer tk.Stop()
	beat := AppendHeartbeat(nil, b.cfg.Node, b.cfg.Boot)
	for {
		b.NC.Publish(b.Sub.Heartbeat(), beat)
		select {
		case <-b.quit:
			return
		case <-tk.C:
		}
		limit := time.Now().Add(-3 * b.cfg.Heartbeat)
		var down []string
		b.mu.Lock()
		for n, at := range b.peers {
			if at.Before(limit) {
				down = append(down, n)
				delete(b.peers, n)
				delete(b.boots, n)
			}
		}
		b.mu.Unlock()
		for _, n := range down {
			b.cfg.Log.Warn("cluster: peer down", "node", n)
			if b.cfg.OnPeerDown != nil {
				b.cfg.OnPeerDown(n)
			}
		}
	}
}

// AppendHeartbeat appends a heartbeat's payload: the node's name, and its
// Boot after a space when there is one.
func AppendHeartbeat(b []byte, node string, boot uint32) []byte {
	b = append(b, node...)
	if boot != 0 {
		b = append(b, ' ')
		b = strconv.AppendUint(b, uint64(boot), 10)
	}
	return b
}

// ParseHeartbeat reads AppendHeartbeat's payload; a payload without a Boot
// (a node from before Boot) gives 0.
func ParseHeartbeat(p []byte) (node string, boot uint32) {
	name, rest, ok := strings.Cut(string(p), " ")
	if !ok {
		return name, 0
	}
	v, err := strconv.ParseUint(rest, 10, 32)
	if err != nil {
		return name, 0
	}
	return name, uint32(v)
}

// Close leaves the bus: what was published is flushed first.
func (b *Bus) Close() {
	b.once.Do(func() {
		b.closing.Store(true)
		close(b.quit)
		b.NC.Drain()
		deadline := time.Now().Add(2 * time.Second)
		for !b.NC.IsClosed() && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		b.NC.Close()
	})
}

// IsNoResponders reports whether err says nobody subscribes to a request's
// subject: for a table, that no node owns it now.
func IsNoResponders(err error) bool { return errors.Is(err, nats.ErrNoResponders) }
