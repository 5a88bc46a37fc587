package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"cardroom/cluster"
	"cardroom/protocol"
	"cardroom/record"
	"cardroom/server/wsconn"
	"cardroom/store"
	"cardroom/table"
)

// ClusterConfig makes the server one node of a cluster (docs/cluster.md):
// the store must be shared by every node and implement store.Leases (the
// PostgreSQL store), and the nodes meet on a NATS bus.
type ClusterConfig struct {
	NATS string // nats://host:port
	Node string // this node's name, unique in the cluster (cluster.CheckNode)
	Room string // the bus's subject prefix; default cluster.DefaultRoom
	// LeaseTTL is how long a table's lease lasts without renewal: a dead
	// node's tables are taken over within about this (plus a sweep).
	// Default 5 s; 1 s to 1 min.
	LeaseTTL time.Duration
	// Heartbeat is the period of the node's heartbeat on the bus; a peer
	// silent for three is down. Default 1 s.
	Heartbeat time.Duration
	// MaxRemoteConns bounds the connections of other nodes this node serves
	// as a table's owner (each costs what a local connection costs).
	// Default 20000.
	MaxRemoteConns int
}

// Bounds of the cluster's settings and queues.
const (
	minLeaseTTL = time.Second
	maxLeaseTTL = time.Minute
	// remoteInbox bounds the commands of one relayed connection waiting
	// for the owner (a connection's own reader holds at most one).
	remoteInbox = 64
	// sweepBatch bounds the orphaned tables one sweep tries to claim.
	sweepBatch = 64
	// maxPresence bounds the players one node announces as online.
	maxPresence = 5000
	// cmdQueue bounds the commands for this node's tables waiting for the
	// dispatcher (which only queues each on its connection); past it the
	// bus drops them and the relaying node answers the client unavailable.
	cmdQueue = 1 << 14
)

// vkey names a relayed connection: its node and its number there.
type vkey struct {
	node string
	id   uint64
}

// owned is a table this node holds the lease of.
type owned struct {
	epoch int64
	sub   *nats.Subscription
	lost  bool // the lease is gone: stopping must not release it
}

// remoteSum is a table summary from the node that owns the table.
type remoteSum struct {
	node string
	sum  *table.Summary
	from origin // where the table was created from, if its owner knows
}

// clusterNode is the server's side of the cluster: the leases it holds,
// the connections it relays to other owners, the connections of other
// nodes it serves as an owner (virtual conns), and the cluster-wide lobby
// and presence.
type clusterNode struct {
	s      *Server
	cfg    ClusterConfig
	bus    *cluster.Bus
	leases store.Leases
	cmds   chan *nats.Msg // commands for the tables this node owns
	quit   chan struct{}
	once   sync.Once
	cut    atomic.Bool // off the bus: serve nothing

	mu       sync.Mutex
	owned    map[string]*owned
	claiming map[string]chan struct{} // a claim in progress, per table
	damaged  map[string]bool          // tables this node could not restore
	vconns   map[vkey]*conn           // other nodes' connections, served here
	relays   map[uint64]*conn         // this node's connections relaying to owners
	relayTo  map[string]map[uint64]bool
	remote   map[string]remoteSum               // summaries of tables owned by peers
	presence map[string][]protocol.OnlinePlayer // peers' online players
	dirty    map[string]*table.Summary          // summaries to publish (nil: removed)
	lastOK   time.Time                          // the last complete renewal's start

	relayedIn, relayedOut, claims, takeovers, lostLeases, fenced, busy atomic.Int64
	// relayTimeouts counts relayed messages the owner did not answer in
	// time: their connections were closed (relay).
	relayTimeouts atomic.Int64
	// staleDrops counts relayed commands dropped unanswered because the
	// leases had gone unrenewed too long (stale).
	staleDrops atomic.Int64
}

// presenceMsg is a node's online players, published every few seconds.
type presenceMsg struct {
	Node    string                  `json:"node"`
	Players []protocol.OnlinePlayer `json:"players"`
}

// lobbyMsg is a summary, or a removal, from a table's owner.
type lobbyMsg struct {
	Node    string         `json:"node"`
	Summary *table.Summary `json:"summary,omitempty"`
	Remove  string         `json:"remove,omitempty"`
	// Addr and Net are the table's origin (its creator's address key and
	// /48), for the per-address table bounds of the other nodes; the bus
	// is the cluster's own, and no client ever sees them.
	Addr string `json:"addr,omitempty"`
	Net  string `json:"net,omitempty"`
}

// maxOriginKey bounds an origin key a peer sends (an IPv6 /64's text is
// well under it).
const maxOriginKey = 64

func newClusterNode(s *Server, cfg ClusterConfig) (*clusterNode, error) {
	leases, ok := s.store.(store.Leases)
	if !ok {
		return nil, errors.New("cluster: the store has no leases: a cluster needs PostgreSQL (--store postgres://…)")
	}
	if _, chat := s.store.(store.Chat); chat {
		if _, fenced := s.store.(store.FencedChat); !fenced {
			return nil, errors.New("cluster: the store keeps chat but cannot fence it by the tables' leases (store.FencedChat)")
		}
	}
	// The quotas of lasting things (sessions, accounts, tournaments) are
	// the cluster's: an address behind a balancer meets every node. (Set
	// before the server's goroutines start: they read it unlocked.)
	if q, ok := s.store.(store.Quotas); ok && s.guard.shared == nil {
		s.guard.shared = q
	}
	if cfg.LeaseTTL == 0 {
		cfg.LeaseTTL = 5 * time.Second
	}
	if cfg.LeaseTTL < minLeaseTTL || cfg.LeaseTTL > maxLeaseTTL {
		return nil, fmt.Errorf("cluster: lease ttl %v: want %v to %v", cfg.LeaseTTL, minLeaseTTL, maxLeaseTTL)
	}
	if cfg.MaxRemoteConns <= 0 {
		cfg.MaxRemoteConns = 20000
	}
	cl := &clusterNode{s: s, cfg: cfg, leases: leases, cmds: make(chan *nats.Msg, cmdQueue), quit: make(chan struct{}),
		owned: map[string]*owned{}, claiming: map[string]chan struct{}{}, damaged: map[string]bool{},
		vconns: map[vkey]*conn{}, relays: map[uint64]*conn{}, relayTo: map[string]map[uint64]bool{},
		remote: map[string]remoteSum{}, presence: map[string][]protocol.OnlinePlayer{}, dirty: map[string]*table.Summary{},
		lastOK: time.Now()}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	bus, err := cluster.Dial(ctx, cluster.Config{URL: cfg.NATS, Node: cfg.Node, Room: cfg.Room, Heartbeat: cfg.Heartbeat,
		Log: s.log, OnCut: cl.onCut, OnPeerDown: cl.peerDown, Boot: s.boot, OnPeerRestart: cl.peerRestart})
	if err != nil {
		return nil, err
	}
	cl.bus = bus
	sub := bus.Sub
	nc := bus.NC
	subs := []struct {
		subj string
		f    nats.MsgHandler
	}{
		{sub.Conns(cfg.Node), cl.fromOwner},
		{sub.Bye(cfg.Node), cl.fromBye},
		{sub.Lobby(), cl.fromLobby},
		{sub.LobbySync(), func(*nats.Msg) { cl.republish() }},
		{sub.Presence(), cl.fromPresence},
		{sub.Revoke(), cl.fromRevoke},
	}
	for _, x := range subs {
		sub, err := nc.Subscribe(x.subj, x.f)
		if err != nil {
			bus.Close()
			return nil, err
		}
		// The relayed messages must not be dropped for a burst: what a
		// client is sent waits here at most as long as it takes to queue
		// it on its connection (which bounds itself).
		sub.SetPendingLimits(1<<20, 256<<20)
	}
	if err := nc.Flush(); err != nil {
		bus.Close()
		return nil, err
	}
	nc.Publish(sub.LobbySync(), nil)
	return cl, nil
}

// start runs the node's loops: commands, renewals, the sweep for orphaned
// tables, the lobby and presence.
func (cl *clusterNode) start() {
	go cl.dispatch()
	go cl.renewals()
	go cl.sweeps()
	go cl.publisher()
}

// tableConfig is the server's table configuration for a table held at
// epoch: its writes are fenced.
func (cl *clusterNode) tableConfig(epoch int64) table.Config {
	tc := cl.s.cfg.Table
	tc.Store = &fencedStore{Store: cl.s.store, l: cl.leases, epoch: epoch, cl: cl}
	tc.OnStop = func(id string) { cl.s.tableStopped(id, epoch) }
	return tc
}

// fencedStore is the store a table of a cluster node writes through:
// every entry and every update of its row carries the lease's epoch, so a
// node that has lost the table cannot write to it (store.Leases).
type fencedStore struct {
	store.Store
	l     store.Leases
	epoch int64
	cl    *clusterNode
}

func (f *fencedStore) Append(ctx context.Context, id string, seq int, e record.Entry) error {
	err := f.l.AppendFenced(ctx, id, f.epoch, seq, e)
	f.check(id, err)
	return err
}

func (f *fencedStore) UpdateTable(ctx context.Context, t store.Table) error {
	err := f.l.UpdateTableFenced(ctx, t, f.epoch)
	f.check(t.ID, err)
	return err
}

// check stops serving a table whose write was fenced: another node has it.
func (f *fencedStore) check(id string, err error) {
	if errors.Is(err, store.ErrFenced) {
		f.cl.fenced.Add(1)
		go f.cl.lose(id, f.epoch, "its lease was lost (a write was fenced)")
	}
}

// claim takes a new table's lease before the table is stored
// (openTable): the creating node owns it.
func (cl *clusterNode) claim(ctx context.Context, id string) (table.Config, error) {
	epoch, err := cl.claimLease(ctx, id)
	if err != nil {
		return table.Config{}, &table.Error{Code: protocol.Unavailable, Msg: "the table could not be claimed; retry later"}
	}
	return cl.tableConfig(epoch), nil
}

// claimLease claims a table's lease for this node and records it as
// owned; forget undoes it.
func (cl *clusterNode) claimLease(ctx context.Context, id string) (int64, error) {
	epoch, err := cl.leases.Claim(ctx, id, cl.cfg.Node, cl.cfg.LeaseTTL)
	if err != nil {
		return 0, err
	}
	cl.claims.Add(1)
	cl.mu.Lock()
	cl.owned[id] = &owned{epoch: epoch}
	cl.mu.Unlock()
	return epoch, nil
}

// serveTable subscribes to a table's commands once it runs here.
func (cl *clusterNode) serveTable(t *table.Table) {
	id := t.ID()
	sub, err := cl.bus.NC.ChanSubscribe(cl.bus.Sub.Table(id), cl.cmds)
	if err == nil {
		// The subscription is known to the bus before anyone is told
		// where the table is.
		err = cl.bus.NC.Flush()
	}
	if err != nil {
		cl.s.log.Warn("cluster: subscribe to a table", "table", id, "err", err)
	}
	cl.mu.Lock()
	if o := cl.owned[id]; o != nil {
		o.sub = sub
	} else if sub != nil {
		sub.Unsubscribe()
	}
	cl.mu.Unlock()
}

// forget undoes claim for a table that could not be created.
func (cl *clusterNode) forget(id string) {
	cl.mu.Lock()
	o := cl.owned[id]
	delete(cl.owned, id)
	cl.mu.Unlock()
	if o != nil {
		cl.release(id, o.epoch)
	}
}

func (cl *clusterNode) release(id string, epoch int64) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := cl.leases.Release(ctx, id, cl.cfg.Node, epoch); err != nil && !errors.Is(err, store.ErrFenced) {
		cl.s.log.Warn("cluster: release a lease", "table", id, "err", err)
	}
}

// stopped is the cluster's part of a table's end on this node: stop
// taking its commands, give its lease up (unless it was lost) and take
// it out of every node's lobby.
func (cl *clusterNode) stopped(id string, epoch int64) {
	cl.mu.Lock()
	o := cl.owned[id]
	if o == nil || o.epoch != epoch {
		// Not this run's: a newer claim of the table (or none) is not
		// this run's to give up.
		cl.mu.Unlock()
		return
	}
	delete(cl.owned, id)
	cl.dirty[id] = nil
	cl.mu.Unlock()
	if o.sub != nil {
		o.sub.Unsubscribe()
	}
	if !o.lost {
		cl.release(id, o.epoch)
	}
}

// appendChat stores a chat line of a table this node owns, fenced by the
// lease it holds in the store as a move is (store.FencedChat): a node
// that lost the table without noticing yet writes nothing, is refused
// with store.ErrFenced, and gives the table up. A table this node does
// not own is refused too.
func (cl *clusterNode) appendChat(ctx context.Context, st store.Chat, l store.ChatLine, keep int) error {
	epoch := cl.heldEpoch(l.Table)
	if epoch == 0 {
		return store.ErrFenced
	}
	// newClusterNode refused a store whose chat is not a FencedChat.
	err := st.(store.FencedChat).AppendChatFenced(ctx, l, keep, epoch)
	if errors.Is(err, store.ErrFenced) {
		cl.fenced.Add(1)
		go cl.lose(l.Table, epoch, "its lease was lost (a chat line was refused)")
	}
	return err
}

// heldEpoch is the epoch of the table's lease this node holds, 0 when it
// holds none (not owned, or lost).
func (cl *clusterNode) heldEpoch(id string) int64 {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if o := cl.owned[id]; o != nil && !o.lost {
		return o.epoch
	}
	return 0
}

// lose stops a table whose lease (of that epoch) this node no longer
// holds, and closes the connections watching it here so that they
// reconnect and reach the new owner. A late word about an older lease (a
// fenced write of a run that ended) leaves a newer run alone.
func (cl *clusterNode) lose(id string, epoch int64, why string) {
	cl.mu.Lock()
	o := cl.owned[id]
	if o == nil || o.lost || o.epoch != epoch {
		cl.mu.Unlock()
		return
	}
	o.lost = true
	if o.sub != nil {
		o.sub.Unsubscribe()
	}
	cl.mu.Unlock()
	cl.lostLeases.Add(1)
	cl.s.log.Warn("cluster: table given up", "table", id, "why", why)
	if t := cl.s.table(id); t != nil {
		t.Stop()
	}
	cl.s.closeWatchers(id, "the table moved to another node: reconnect")
}

// takeOver claims a table nobody serves and runs it here from its log. It
// returns errNoTable for a table that is not in the store or is over.
func (cl *clusterNode) takeOver(ctx context.Context, id string) (*table.Table, error) {
	for {
		if t := cl.s.table(id); t != nil {
			return t, nil
		}
		if cl.cut.Load() || cl.s.closing.Load() {
			return nil, errOffBus
		}
		cl.mu.Lock()
		if cl.damaged[id] {
			cl.mu.Unlock()
			return nil, errNoTable
		}
		if wait, busy := cl.claiming[id]; busy {
			cl.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		done := make(chan struct{})
		cl.claiming[id] = done
		cl.mu.Unlock()
		t, err := cl.takeOverOnce(ctx, id)
		cl.mu.Lock()
		delete(cl.claiming, id)
		cl.mu.Unlock()
		close(done)
		return t, err
	}
}

var (
	errNoTable = errors.New("no such unfinished table")
	errOffBus  = errors.New("this node is off the cluster's bus")
)

func (cl *clusterNode) takeOverOnce(ctx context.Context, id string) (*table.Table, error) {
	meta, err := cl.s.store.Table(ctx, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && !store.IsUnfinished(meta.Status) {
		return nil, errNoTable
	}
	if err != nil {
		return nil, err
	}
	epoch, err := cl.claimLease(ctx, id)
	if err != nil {
		return nil, err
	}
	// Restoring publishes the table's summary (OnChange): the lobby, the
	// seat index and the other nodes hear of it from there.
	t, d := cl.s.restoreWith(ctx, id, cl.tableConfig(epoch))
	if d != nil {
		cl.mu.Lock()
		cl.damaged[id] = true
		cl.mu.Unlock()
		cl.forget(id)
		cl.s.log.Error("cluster: table quarantined", "table", d.ID, "game", d.Game, "reason", d.Reason)
		return nil, errNoTable
	}
	cl.s.addTable(t)
	// A lease lost while the table was restored (lose found no table to
	// stop) stops it now: it must not run here unowned.
	if cl.heldEpoch(id) != epoch {
		t.Stop()
		return nil, fmt.Errorf("table %s: its lease was lost while it was restored", id)
	}
	cl.takeovers.Add(1)
	cl.s.log.Info("cluster: table taken over", "table", id, "epoch", epoch)
	return t, nil
}

// renewals renews every lease this node holds each third of the ttl. A
// lost lease stops its table; a node that cannot renew for two thirds of
// the ttl gives every table up before its leases can expire under it.
func (cl *clusterNode) renewals() {
	every := cl.cfg.LeaseTTL / 3
	tk := time.NewTicker(every)
	defer tk.Stop()
	for {
		select {
		case <-cl.quit:
			return
		case <-tk.C:
		}
		start := time.Now()
		held := map[string]int64{}
		cl.mu.Lock()
		for id, o := range cl.owned {
			if !o.lost {
				held[id] = o.epoch
			}
		}
		cl.mu.Unlock()
		epochs := maps.Clone(held) // held empties as it is renewed
		var lost []string
		ok := true
		for len(held) > 0 && ok {
			batch := map[string]int64{}
			for id, e := range held {
				if len(batch) == store.MaxRenewBatch {
					break
				}
				batch[id] = e
				delete(held, id)
			}
			ctx, cancel := context.WithTimeout(context.Background(), every)
			l, err := cl.leases.RenewAll(ctx, cl.cfg.Node, batch, cl.cfg.LeaseTTL)
			if err != nil && ctx.Err() == nil {
				// Once more at once: a lost connection or a lock conflict
				// should not cost a third of the ttl.
				l, err = cl.leases.RenewAll(ctx, cl.cfg.Node, batch, cl.cfg.LeaseTTL)
			}
			cancel()
			if err != nil {
				cl.s.log.Warn("cluster: renew the leases", "err", err)
				ok = false
			}
			lost = append(lost, l...)
		}
		for _, id := range lost {
			cl.lose(id, epochs[id], "its lease could not be renewed")
		}
		cl.mu.Lock()
		if ok {
			cl.lastOK = start
		}
		stale := time.Since(cl.lastOK) > cl.cfg.LeaseTTL*2/3
		cl.mu.Unlock()
		if stale {
			cl.loseAll("its leases could not be renewed in time")
		}
	}
}

// stale reports whether the leases have gone unrenewed for two thirds of
// their life (the renewals' own threshold, loseAll): they may have
// expired, by the database's clock, and other nodes taken the tables.
func (cl *clusterNode) stale() bool {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return time.Since(cl.lastOK) > cl.cfg.LeaseTTL*2/3
}

// loseAll gives up every table this node holds.
func (cl *clusterNode) loseAll(why string) {
	cl.mu.Lock()
	held := make(map[string]int64, len(cl.owned))
	for id, o := range cl.owned {
		if !o.lost {
			held[id] = o.epoch
		}
	}
	cl.mu.Unlock()
	for id, epoch := range held {
		cl.lose(id, epoch, why)
	}
}

// sweeps claims, every fifth of the ttl, the unfinished tables that no
// node holds: a dead node's, or every table after the cluster restarted.
// Every node sweeps; a claim is atomic, so each table gets one owner.
func (cl *clusterNode) sweeps() {
	for {
		wait := cl.cfg.LeaseTTL/5 + rand.N(cl.cfg.LeaseTTL/10+1)
		select {
		case <-cl.quit:
			return
		case <-time.After(wait):
		}
		if cl.cut.Load() || cl.s.closing.Load() {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), cl.cfg.LeaseTTL)
		ids, err := cl.leases.Orphans(ctx, sweepBatch)
		if err != nil {
			cl.s.log.Warn("cluster: list the orphaned tables", "err", err)
		}
		rand.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		for _, id := range ids {
			if max := cl.s.cfg.MaxTables; max > 0 && cl.s.tableCount() >= max {
				break
			}
			if _, err := cl.takeOver(ctx, id); err != nil && !errors.Is(err, store.ErrLeaseHeld) && !errors.Is(err, errNoTable) {
				cl.s.log.Warn("cluster: take over a table", "table", id, "err", err)
			}
		}
		cancel()
	}
}

// onCut: a node off the bus cannot be reached by the others, which will
// take its tables once the leases expire; it stops serving at once (after
// a second's grace for a blip) rather than play on unseen.
func (cl *clusterNode) onCut(cut bool) {
	if !cut {
		cl.cut.Store(false)
		cl.bus.NC.Publish(cl.bus.Sub.LobbySync(), nil)
		cl.republish()
		return
	}
	cl.cut.Store(true)
	go func() {
		time.Sleep(time.Second)
		if !cl.cut.Load() || cl.s.closing.Load() {
			return
		}
		cl.loseAll("the node is cut from the bus")
		cl.s.closeAllConns("this node lost the cluster: reconnect")
		cl.mu.Lock()
		for _, v := range cl.vconns {
			v.drop(wsconn.StatusGoingAway, "cut from the bus")
		}
		cl.mu.Unlock()
	}()
}

// peerDown: a node's heartbeats stopped. Its connections served here are
// dropped, this node's connections relayed to it are closed (they
// reconnect and reach the table's next owner), and its tables leave the
// lobby until their next owner announces them.
func (cl *clusterNode) peerDown(node string) {
	cl.peerGone(node, func(vkey) bool { return false })
}

// peerRestart: a node's heartbeats carry a new boot, so it crashed and
// came back between two checks of its heartbeats and was never reported
// down. Everything peerDown drops for a dead node is dropped for its last
// life: its connections served here (but the ones its new life has opened
// already: their numbers carry the new boot), and this node's connections
// relayed to its tables (they reconnect to the tables' owner now).
func (cl *clusterNode) peerRestart(node string, boot uint32) {
	cl.peerGone(node, func(k vkey) bool { return uint32(k.id>>32) == boot })
}

// peerGone drops what this node holds for a node that is gone, but the
// connections it served here that keep says are of its present life.
func (cl *clusterNode) peerGone(node string, keep func(vkey) bool) {
	cl.mu.Lock()
	var drop []*conn
	for k, v := range cl.vconns {
		if k.node == node && !keep(k) {
			drop = append(drop, v)
		}
	}
	var relayed []*conn
	for id := range cl.relayTo[node] {
		if c := cl.relays[id]; c != nil {
			relayed = append(relayed, c)
		}
	}
	var gone []string
	for id, r := range cl.remote {
		if r.node == node {
			gone = append(gone, id)
			delete(cl.remote, id)
		}
	}
	delete(cl.presence, node)
	cl.mu.Unlock()
	for _, v := range drop {
		v.retire("its node is gone")
	}
	tryElsewhere(relayed, "", "the node playing your table is down: reconnect", "a table's node is down")
	for _, id := range gone {
		cl.s.lobby.remove(id)
		cl.s.unindexSeats(id)
	}
}

// relay sends a client's message for a table this node does not run to
// the table's owner. It reports false when the caller should handle the
// message here after all: the table was taken over by this node, or it
// does not exist (the caller says so).
func (cl *clusterNode) relay(ctx context.Context, c *conn, id string, raw []byte, fail func(error)) bool {
	if !cluster.TableOK(id) || c.virtual {
		return false
	}
	if c.relayed == nil {
		// The connection's first relayed message: owners' answers to it
		// are routed from here on (fromOwner).
		c.relayed = map[string]string{}
		cl.mu.Lock()
		cl.relays[c.id] = c
		cl.mu.Unlock()
	}
	m := &nats.Msg{Subject: cl.bus.Sub.Table(id), Data: cluster.AppendCommand(make([]byte, 0, 128+len(raw)), cluster.Command{
		Op: cluster.OpMsg, Node: cl.cfg.Node, Conn: c.id, Player: c.sess.Player, Token: c.sess.TokenHash, Name: c.sess.Name}, raw)}
	ctx, cancel := context.WithTimeout(ctx, 2*cl.cfg.LeaseTTL)
	defer cancel()
	unavailable := func(msg string) bool {
		fail(&table.Error{Code: protocol.Unavailable, Msg: msg})
		return true
	}
	for {
		rctx, rcancel := context.WithTimeout(ctx, 2*time.Second)
		rep, err := cl.bus.NC.RequestMsgWithContext(rctx, m)
		rcancel()
		var answer, owner string
		if err == nil {
			var ok bool
			if answer, owner, ok = cluster.ParseReply(rep.Data); !ok {
				return unavailable("the table's node answered nonsense; retry later")
			}
		}
		switch {
		case err == nil && answer == cluster.Queued:
			cl.relayedIn.Add(1)
			if old := c.relayed[id]; old != owner {
				// A new owner for this connection (its first message to
				// the table, or the table moved): watch its liveness, and
				// stop hearing the old owner if no other table of the
				// connection is its (fromOwner takes a close only from an
				// owner: a stale one woke and closed it as "moved").
				c.relayed[id] = owner
				cl.bus.Met(owner)
				still := false
				for _, n := range c.relayed {
					still = still || n == old
				}
				cl.mu.Lock()
				if cl.relayTo[owner] == nil {
					cl.relayTo[owner] = map[uint64]bool{}
				}
				cl.relayTo[owner][c.id] = true
				if old != "" && !still {
					delete(cl.relayTo[old], c.id)
					if len(cl.relayTo[old]) == 0 {
						delete(cl.relayTo, old)
					}
				}
				cl.mu.Unlock()
			}
			return true
		case err == nil && answer == cluster.ErrBusy:
			fail(&table.Error{Code: protocol.Busy, Msg: "the table's node is busy; retry in a moment"})
			return true
		case err == nil: // moved: ask again
		case cluster.IsNoResponders(err):
			_, err := cl.takeOver(ctx, id)
			switch {
			case err == nil:
				return false
			case errors.Is(err, errNoTable):
				return false
			case errors.Is(err, errOffBus):
				return unavailable("this node is cut from the cluster: reconnect")
			case !errors.Is(err, store.ErrLeaseHeld):
				return unavailable("the table cannot be reached now; retry later")
			}
			// Held by a node that does not answer: it is starting to
			// serve the table, or dying and its lease will expire.
		default:
			// No answer in time: the owner may have the command queued
			// all the same (a pause of its process: a GC, a starved CPU)
			// and play it when it wakes, so no refusal may be told (a
			// move is committed and acknowledged, or refused, never
			// both). As when an owner dies, the connection is closed
			// (1013): the view after the reconnection shows whether the
			// move was played.
			cl.relayTimeouts.Add(1)
			c.kill(wsconn.StatusTryAgainLater, "the table's node does not answer: reconnect")
			return true
		}
		select {
		case <-ctx.Done():
			return unavailable("the table is moving to another node; retry in a moment")
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// unrelay tells the owners a connection relayed to that it has gone.
func (cl *clusterNode) unrelay(c *conn) {
	cl.mu.Lock()
	delete(cl.relays, c.id)
	for node, ids := range cl.relayTo {
		delete(ids, c.id)
		if len(ids) == 0 {
			delete(cl.relayTo, node)
		}
	}
	cl.mu.Unlock()
	bye := cluster.AppendCommand(nil, cluster.Command{Op: cluster.OpBye, Node: cl.cfg.Node, Conn: c.id}, nil)
	// On each table's subject, behind the connection's last commands
	// (whose stand-in it then drops in order); and to each owner's own
	// subject, which reaches it after the table moved or stopped too
	// (its stand-in was kept for ever).
	owners := map[string]bool{}
	for id, owner := range c.relayed {
		cl.bus.NC.Publish(cl.bus.Sub.Table(id), bye)
		owners[owner] = true
	}
	for owner := range owners {
		cl.bus.NC.Publish(cl.bus.Sub.Bye(owner), bye)
	}
}

// fromBye hears a relaying node's goodbye on this node's own subject
// (unrelay).
func (cl *clusterNode) fromBye(m *nats.Msg) {
	if cmd, _, err := cluster.ParseCommand(m.Data); err == nil && cmd.Op == cluster.OpBye {
		cl.bye(vkey{cmd.Node, cmd.Conn})
	}
}

// bye drops the stand-in of a relaying node's connection that has gone,
// if this node serves one.
func (cl *clusterNode) bye(k vkey) {
	cl.mu.Lock()
	v := cl.vconns[k]
	cl.mu.Unlock()
	if v != nil {
		v.kill(wsconn.StatusNormalClosure, "")
	}
}

// fromOwner delivers what an owner sent one of this node's connections.
func (cl *clusterNode) fromOwner(m *nats.Msg) {
	id, ok := cl.bus.Sub.ConnOf(m.Subject)
	if !ok {
		return
	}
	cl.mu.Lock()
	c := cl.relays[id]
	cl.mu.Unlock()
	if c == nil {
		return
	}
	if m.Header != nil && m.Header.Get(cluster.HOp) == cluster.OpClose {
		// Only from a node the connection relays to now: an owner that
		// lost the tables while it was stopped wakes and closes its
		// stand-ins, and the connection may be playing them on their new
		// owner by then.
		if node := m.Header.Get(cluster.HNode); node != "" {
			cl.mu.Lock()
			ours := cl.relayTo[node][id]
			cl.mu.Unlock()
			if !ours {
				return
			}
		}
		why := m.Header.Get(cluster.HWhy)
		if len(why) > 120 {
			why = why[:120]
		}
		c.kill(wsconn.StatusTryAgainLater, why)
		return
	}
	frames, err := cluster.Frames(m.Data)
	if err != nil {
		cl.s.log.Warn("cluster: damaged frames from an owner", "subject", m.Subject)
		return
	}
	for _, f := range frames {
		cl.relayedOut.Add(1)
		if !c.Send(f) {
			return
		}
	}
}

// dispatch takes the commands for this node's tables off the bus: each
// goes to its connection's queue here (a virtual conn), in order, and is
// acknowledged at once; the connection handles it as a local one would.
func (cl *clusterNode) dispatch() {
	for {
		var m *nats.Msg
		select {
		case <-cl.quit:
			return
		case m = <-cl.cmds:
		}
		cl.commandSafely(m)
	}
}

// commandSafely is command with a panic (a bug) recovered: it ends that
// command's handling, not the node.
func (cl *clusterNode) commandSafely(m *nats.Msg) {
	defer func() { cl.s.recovered(recover(), "cluster: a relayed command", "subject", m.Subject) }()
	cl.command(m)
}

func (cl *clusterNode) command(m *nats.Msg) {
	reply := func(answer string) {
		if m.Reply != "" {
			m.Respond(cluster.Reply(answer, cl.cfg.Node))
		}
	}
	cmd, raw, err := cluster.ParseCommand(m.Data)
	if err != nil {
		cl.s.log.Warn("cluster: a damaged command", "subject", m.Subject)
		return
	}
	k := vkey{cmd.Node, cmd.Conn}
	cl.bus.Met(cmd.Node)
	if cmd.Op == cluster.OpBye {
		cl.bye(k)
		return
	}
	tid := strings.TrimSuffix(strings.TrimPrefix(m.Subject, cl.bus.Sub.Room+".t."), ".in")
	if cl.stale() {
		// This node has not renewed its leases in time (it was stopped:
		// the commands waited in its buffer): another node may own the
		// table by now and answer. No answer from here, so that the new
		// owner's is the one taken; the renewals give the tables up.
		cl.staleDrops.Add(1)
		return
	}
	if cl.s.table(tid) == nil {
		reply(cluster.ErrMoved)
		return
	}
	cl.mu.Lock()
	v := cl.vconns[k]
	if v != nil && (v.sess.Player != cmd.Player || v.sess.TokenHash != cmd.Token) {
		// A connection keeps its session for life: a command for another
		// one under the same name is not that connection's (a relay from
		// another life of the node, or forged). The old stand-in goes, so
		// nothing of it reaches this command's client.
		delete(cl.vconns, k)
		v.mute() // now: nothing more of it reaches the subject
		go v.drop(wsconn.StatusGoingAway, "its connection was replaced")
		v = nil
	}
	if v == nil {
		if len(cl.vconns) >= cl.cfg.MaxRemoteConns {
			cl.mu.Unlock()
			cl.busy.Add(1)
			reply(cluster.ErrBusy)
			return
		}
		sess := store.Session{Player: cmd.Player, Name: cmd.Name, TokenHash: cmd.Token}
		if sess.Player == "" {
			sess.Name = "spectator"
		}
		v = cl.s.newVirtualConn(k, sess)
		cl.vconns[k] = v
		go func() {
			<-v.finished
			v.cleanup()
			cl.mu.Lock()
			if cl.vconns[k] == v {
				delete(cl.vconns, k)
			}
			cl.mu.Unlock()
		}()
	}
	cl.mu.Unlock()
	if !v.enqueue(raw) {
		cl.busy.Add(1)
		reply(cluster.ErrBusy)
		return
	}
	reply(cluster.Queued)
}

// changed marks a summary of a table owned here to be published.
func (cl *clusterNode) changed(sum *table.Summary) {
	cl.mu.Lock()
	cl.dirty[sum.ID] = sum
	cl.mu.Unlock()
}

// republish marks every table owned here to be published (a node has
// started, or this one is back on the bus).
func (cl *clusterNode) republish() {
	var sums []*table.Summary
	cl.mu.Lock()
	ids := make([]string, 0, len(cl.owned))
	for id := range cl.owned {
		ids = append(ids, id)
	}
	cl.mu.Unlock()
	for _, id := range ids {
		if t := cl.s.table(id); t != nil {
			sums = append(sums, t.Summary())
		}
	}
	cl.mu.Lock()
	for _, s := range sums {
		cl.dirty[s.ID] = s
	}
	cl.mu.Unlock()
}

// publisher sends the changed summaries (at most every quarter second a
// table, however often it changes) and this node's presence.
func (cl *clusterNode) publisher() {
	tk := time.NewTicker(250 * time.Millisecond)
	defer tk.Stop()
	n := 0
	for {
		select {
		case <-cl.quit:
			return
		case <-tk.C:
		}
		cl.mu.Lock()
		dirty := cl.dirty
		cl.dirty = map[string]*table.Summary{}
		cl.mu.Unlock()
		for id, sum := range dirty {
			msg := lobbyMsg{Node: cl.cfg.Node, Summary: sum}
			if sum == nil {
				msg = lobbyMsg{Node: cl.cfg.Node, Remove: id}
			} else {
				o := cl.s.tableOrigin(id)
				msg.Addr, msg.Net = o.addr, o.net
			}
			if b, err := json.Marshal(msg); err == nil {
				cl.bus.NC.Publish(cl.bus.Sub.Lobby(), b)
			}
		}
		if n++; n%8 == 0 {
			b, _ := json.Marshal(presenceMsg{Node: cl.cfg.Node, Players: cl.s.localOnline(maxPresence)})
			cl.bus.NC.Publish(cl.bus.Sub.Presence(), b)
		}
	}
}

// fromLobby takes a peer's summary into this node's lobby.
func (cl *clusterNode) fromLobby(m *nats.Msg) {
	var msg lobbyMsg
	if json.Unmarshal(m.Data, &msg) != nil || msg.Node == cl.cfg.Node || cluster.CheckNode(msg.Node) != nil {
		return
	}
	if msg.Remove != "" {
		cl.mu.Lock()
		r, ok := cl.remote[msg.Remove]
		if ok && r.node == msg.Node {
			delete(cl.remote, msg.Remove)
		}
		cl.mu.Unlock()
		if ok && r.node == msg.Node && cl.s.table(msg.Remove) == nil {
			cl.s.lobby.remove(msg.Remove)
			cl.s.unindexSeats(msg.Remove)
		}
		return
	}
	sum := msg.Summary
	if sum == nil || sum.ID == "" || cl.s.table(sum.ID) != nil {
		return // a stale word from a table's previous owner
	}
	var from origin
	if len(msg.Addr) <= maxOriginKey && len(msg.Net) <= maxOriginKey {
		from = origin{msg.Addr, msg.Net}
	}
	cl.mu.Lock()
	cl.remote[sum.ID] = remoteSum{node: msg.Node, sum: sum, from: from}
	cl.mu.Unlock()
	cl.s.lobby.update(sum)
	cl.s.indexSeats(sum)
}

// fromPresence keeps a peer's online players.
func (cl *clusterNode) fromPresence(m *nats.Msg) {
	var msg presenceMsg
	if json.Unmarshal(m.Data, &msg) != nil || msg.Node == cl.cfg.Node || cluster.CheckNode(msg.Node) != nil {
		return
	}
	if len(msg.Players) > maxPresence {
		msg.Players = msg.Players[:maxPresence]
	}
	cl.mu.Lock()
	cl.presence[msg.Node] = msg.Players
	cl.mu.Unlock()
}

// revokeMsg closes every socket of a token, on every node: a session
// logged out or a bot token revoked on one node ends everywhere.
type revokeMsg struct {
	Node      string `json:"node"`
	TokenHash string `json:"token_hash"`
	Msg       string `json:"msg"`
	Why       string `json:"why"`
}

func (cl *clusterNode) revoked(h, msg, why string) {
	if b, err := json.Marshal(revokeMsg{Node: cl.cfg.Node, TokenHash: h, Msg: msg, Why: why}); err == nil {
		cl.bus.NC.Publish(cl.bus.Sub.Revoke(), b)
	}
}

func (cl *clusterNode) fromRevoke(m *nats.Msg) {
	var msg revokeMsg
	if json.Unmarshal(m.Data, &msg) != nil || msg.Node == cl.cfg.Node || msg.TokenHash == "" {
		return
	}
	cl.s.closeLocalTokenConns(msg.TokenHash, msg.Msg, msg.Why)
}

// peersOnline returns the peers' online players.
func (cl *clusterNode) peersOnline() []protocol.OnlinePlayer {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	var out []protocol.OnlinePlayer
	for _, ps := range cl.presence {
		out = append(out, ps...)
	}
	return out
}

// peerTables returns the peers' tables that player owns or that were
// created from origin from's address or /48, for the table bounds
// (Server.owned); none on a room of one node (cl nil). A peer's table
// counts from its first summary on the bus (published within a quarter
// second of a change): requests on several nodes within that moment can
// pass a bound together (each node counts its own tables at once).
func (cl *clusterNode) peerTables(player string, from origin) []remoteSum {
	if cl == nil {
		return nil
	}
	cl.mu.Lock()
	defer cl.mu.Unlock()
	var out []remoteSum
	for _, r := range cl.remote {
		if r.sum.Owner == player || (from.addr != "" && r.from.addr == from.addr) || (from.net != "" && r.from.net == from.net) {
			out = append(out, r)
		}
	}
	return out
}

// remoteSummary returns a peer's summary of a table, if it sent one.
func (cl *clusterNode) remoteSummary(id string) *table.Summary {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return cl.remote[id].sum
}

// close gives every lease up (the tables are stopped by Shutdown first)
// and leaves the bus.
func (cl *clusterNode) close() {
	cl.once.Do(func() {
		close(cl.quit)
		cl.mu.Lock()
		vs := make([]*conn, 0, len(cl.vconns))
		for _, v := range cl.vconns {
			vs = append(vs, v)
		}
		cl.mu.Unlock()
		for _, v := range vs {
			v.shutdown()
		}
		cl.bus.Close()
	})
}

// metrics writes the cluster's lines of /metrics.
func (cl *clusterNode) metrics(metric func(name, typ, help string, v any)) {
	cl.mu.Lock()
	owned, vconns, relays := len(cl.owned), len(cl.vconns), len(cl.relays)
	cl.mu.Unlock()
	on := 0
	if cl.bus.Connected() && !cl.cut.Load() {
		on = 1
	}
	metric("cardroom_cluster_connected", "gauge", "1 while this node is on the cluster's bus.", on)
	metric("cardroom_cluster_peers", "gauge", "Other nodes heard from.", len(cl.bus.Peers()))
	metric("cardroom_cluster_tables_owned", "gauge", "Tables whose lease this node holds.", owned)
	metric("cardroom_cluster_remote_conns", "gauge", "Other nodes' connections this node serves as a table's owner.", vconns)
	metric("cardroom_cluster_relaying_conns", "gauge", "This node's connections that relay to another node.", relays)
	metric("cardroom_cluster_relayed_commands_total", "counter", "Client messages relayed to another node.", cl.relayedIn.Load())
	metric("cardroom_cluster_stale_commands_total", "counter", "Relayed commands left unanswered because this node's leases had gone unrenewed too long (it was paused): another node may own the tables.", cl.staleDrops.Load())
	metric("cardroom_cluster_relay_timeouts_total", "counter", "Relayed client messages the owner did not answer in time (the connection was closed: the owner may play it still).", cl.relayTimeouts.Load())
	metric("cardroom_cluster_relayed_messages_total", "counter", "Messages from another node relayed to a client here.", cl.relayedOut.Load())
	metric("cardroom_cluster_claims_total", "counter", "Leases claimed.", cl.claims.Load())
	metric("cardroom_cluster_takeovers_total", "counter", "Tables taken over from their log.", cl.takeovers.Load())
	metric("cardroom_cluster_leases_lost_total", "counter", "Tables given up because their lease was lost.", cl.lostLeases.Load())
	metric("cardroom_cluster_fenced_total", "counter", "Writes refused because the lease had passed to another node.", cl.fenced.Load())
	metric("cardroom_cluster_busy_total", "counter", "Relayed messages refused: too many connections or queued messages.", cl.busy.Load())
}
