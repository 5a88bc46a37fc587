// Package server is the card room's front: identity (guest sessions), the
// lobby, the HTTP endpoints, the WebSocket protocol of docs/protocol.md,
// metrics and graceful shutdown. Tables run in package table and are
// reached by id through messages only; everything they hold is rebuilt from
// the store on start, so a restarted server resumes every unfinished game.
package server

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cardroom/bot"
	"cardroom/bot/pool"
	"cardroom/games"
	"cardroom/protocol"
	"cardroom/server/wsconn"
	"cardroom/store"
	"cardroom/table"
	"cardroom/web"
)

// Protocol limits (documented in docs/protocol.md).
const (
	MaxMessage   = protocol.MaxMessage // bytes; larger messages are refused with too_large
	HardMaxFrame = 1 << 20             // bytes; larger messages close the connection
	RatePerSec   = 20
	RateBurst    = 40
	MaxStrikes   = 40 // refused-for-rate messages in a row before disconnection
	OutQueue     = 256
	PongTimeout  = 10 * time.Second // a ping unanswered for this long drops the client
	SessionTTL   = 30 * 24 * time.Hour
)

// Config configures a server.
type Config struct {
	Store store.Store
	Log   *slog.Logger
	// Table settings (grace period, bot delay…); Store, Log, Metrics,
	// OnChange and OnStop are filled by the server.
	Table table.Config
	// PingInterval is the WebSocket keep-alive period. Default 30 s.
	PingInterval time.Duration
	// Assets is the browser client; default web.Assets().
	Assets fs.FS
	// Rate and Burst limit each connection's messages (default RatePerSec
	// and RateBurst).
	Rate  float64
	Burst float64
	// Seeds, if set, gives each new table's seed (tests); default random.
	Seeds func() uint64

	// What one client can make the server hold (docs/server.md, "Limits").
	// Zero means the default; a negative number means no limit.

	// OutQueue and OutQueueBytes bound the messages waiting to be written
	// to one connection (default 256 and 2 MiB); a client over either is
	// disconnected.
	OutQueue      int
	OutQueueBytes int
	// WriteTimeout bounds one WebSocket write (default 10 s): a peer that
	// stops reading is disconnected after it.
	WriteTimeout time.Duration
	// MaxConnections bounds the open WebSockets (default 20,000).
	MaxConnections int
	// MaxWatches bounds the tables one connection watches at once, the
	// ones it created or joined included (default 64): each costs the
	// table a subscriber and the connection every state message it sends.
	MaxWatches int
	// MaxTables bounds the tables in memory (default 10,000).
	MaxTables int
	// MaxStoreBytes bounds the disk the store holds (a SQLite database
	// and its WAL; the store must say, with a Bytes method): past it, new
	// tables and tournaments are refused (busy) while the games under way
	// play on. Zero: no bound but the disk's, whose "full" the store
	// answers without losing an accepted move.
	MaxStoreBytes int64
	// OpenTablesPerPlayer bounds the open (not started) tables one player
	// owns (default 5); BotTablesPerPlayer the unfinished tables one
	// player created with no human seat (default 2).
	OpenTablesPerPlayer int
	BotTablesPerPlayer  int
	// TablesPerPlayer bounds the unfinished tables one player owns, quick
	// play included (default 20).
	TablesPerPlayer int
	// TablesPerIP and OpenTablesPerIP bound the unfinished and the open
	// tables created from one address (the per-address limits' key), by
	// any of its players (defaults 60 and 15; an IPv6 /48 gets 16 times
	// each). Guest sessions are cheap, so the per-player bounds alone let
	// one address hold a thousand tables and a few fill MaxTables and the
	// lobby's page.
	TablesPerIP     int
	OpenTablesPerIP int
	// HintsPerMinute bounds each player's hint requests (default 20);
	// HintsPerIPPerMinute those from one address, whoever asks (default
	// 60; an IPv6 /48 16 times as many): hints run on the bot pool beside
	// every table's bots, and guest sessions are cheap.
	HintsPerMinute      int
	HintsPerIPPerMinute int
	// RecordCache bounds the finished games whose logs (and replay
	// histories) stay in memory for replays (-record-cache; default 256,
	// at most MaxRecordCache).
	RecordCache int
	// BotWorkers is the number of bot decisions and hints computed at once
	// (default GOMAXPROCS−1, at least 1: one core stays for the tables);
	// BotQueue how many may wait (default 65,536).
	BotWorkers int
	BotQueue   int
	// BotIterations is the hard bot's search budget per move or hint while
	// the bot pool keeps up (default bot.DefaultIterations); with jobs
	// waiting it is halved down to BotMinIterations (default a quarter of
	// it, at least pool.MinIterations), see bot/pool/budget.go.
	BotIterations    int
	BotMinIterations int
	// BotNice is the nice value of the bot workers' threads (pool.Options:
	// when the cores are short, the tables run before the searches); 0
	// keeps the process's priority, negative is 0, above 19 is 19.
	BotNice int
	// SessionPurgeEvery is the period of the expired-session purge
	// (default 10 min).
	SessionPurgeEvery time.Duration
	// AllowedOrigins are extra Origin host patterns accepted on /ws (the
	// room's own host is always accepted; see wsconn.AcceptOptions).
	AllowedOrigins []string
	// PublicURL is the address people use to reach the room, such as
	// https://cards.example.com when a reverse proxy serves it (default
	// none: the page's own address). The client builds invite links on it
	// (welcome.public_url), and pages loaded from it may open /ws even
	// when the proxy passes on a Host of its own. Checked by New
	// (CheckPublicURL).
	PublicURL string
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client (guard.go, clientAddr): only then do the per-address
	// limits and the logs use the forwarded address, and connections from
	// a trusted proxy are not capped per address. Empty (the default): no
	// header is believed, every peer is a client.
	TrustedProxies []netip.Prefix
	// MetricsFrom are the client addresses /metrics answers (the room's
	// counters are for its operator, and a scrape costs a pause of every
	// goroutine and 20 KiB of text); nil: loopback and the private
	// networks (DefaultMetricsFrom). ParseMetricsFrom reads -metrics-from.
	MetricsFrom []netip.Prefix

	// Limits of the HTTP front (guard.go, whose DefaultHTTP… constants are
	// the defaults). Zero means the default and a negative value switches
	// the limit off, as above. The timeouts bound how long a slow client
	// holds a connection; GET /ws clears them once upgraded.
	HTTPReadHeaderTimeout time.Duration
	HTTPReadTimeout       time.Duration
	HTTPWriteTimeout      time.Duration
	HTTPIdleTimeout       time.Duration
	MaxHeaderBytes        int // negative: the default too
	// MaxConnsPerIP caps the connections open at once from one address
	// (default 256).
	MaxConnsPerIP int
	// HTTPRate and HTTPBurst are a token bucket per address over /api/
	// (default 20 a second, burst 60).
	HTTPRate  float64
	HTTPBurst float64
	// SessionsPerIPPerHour caps POST /api/session per address (default 60).
	SessionsPerIPPerHour int
	// CreationsPerIPPerDay caps the accounts claimed and tournaments
	// created from one address in a day, together (default 10).
	CreationsPerIPPerDay int
	// quotas are the shared buckets of the two quotas above, for a test;
	// a cluster node uses its store's (store.Quotas), one node none.
	quotas store.Quotas
	// Accounts are the limits of accounts and logins (accounts.go).
	Accounts AccountsConfig
	// Bots are the limits of bot accounts and their tokens (botaccount.go).
	Bots BotConfig
	// Chat bounds table chat (chat.go).
	Chat ChatConfig
	// RematchTTL is how long a rematch offer waits for the humans'
	// answers (default DefaultRematchTTL, 10 minutes; rematch.go).
	RematchTTL time.Duration
	// MaxSeries bounds the tables remembered as part of a rematch series
	// and the series results kept (default DefaultMaxSeries; negative: no
	// bound). Past it the memory is cleared: series restart.
	MaxSeries int
	// Analysis is the post-game analysis (analysis.go).
	Analysis AnalysisConfig
	// Tournaments bounds duplicate tournaments (tournament.go).
	Tournaments TournamentConfig
	// Cluster, when set, makes the server a node of a cluster
	// (cluster.go, docs/cluster.md).
	Cluster *ClusterConfig
}

// Server is one card room node.
type Server struct {
	cfg     Config
	store   store.Store
	log     *slog.Logger
	metrics *table.Metrics
	mux     *http.ServeMux
	lobby   *lobby

	mu     sync.Mutex
	tables map[string]*table.Table
	// origins: table -> where it was created from, for the tables created
	// here since the start; pending: the tables being created (quota.go).
	origins map[string]origin
	pending map[*reservation]struct{}
	conns   map[*conn]struct{}
	// seatIndex: player -> tables where the player holds a seat
	// (unfinished); seatsOf: table -> the players it added to seatIndex,
	// so that a table that stops forgets its own entries without a walk
	// over every player of the room.
	seatIndex map[string][]string
	seatsOf   map[string][]string
	// watchers: table -> the connections subscribed to it here.
	watchers map[string]map[*conn]struct{}
	nextConn atomic.Uint64 // the last connection number (boot in its high half)
	boot     uint32        // this process's life: random, never 0
	cl       *clusterNode  // nil: a single node

	connections    atomic.Int64
	quit           chan struct{}
	sessionsPurged atomic.Int64
	queuedBytes    atomic.Int64 // bytes waiting in every connection's queue
	slowKicks      atomic.Int64 // connections dropped for not reading
	watchRefused   atomic.Int64 // watches, joins and creations refused at MaxWatches
	quotaHits      atomic.Int64 // requests refused by a per-player quota
	addrTableHits  atomic.Int64 // tables refused by a per-address bound (TablesPerIP, OpenTablesPerIP)
	storeFull      atomic.Int64 // tables and tournaments refused at MaxStoreBytes
	panics         atomic.Int64 // handlings of one input that panicked and were recovered (Server.recovered)
	pool           *pool.Pool
	hints          *limiter     // per player
	addrHints      *addrLimiter // per address
	records        *recordCache
	guard          *guard    // per-address limits (guard.go)
	acct           *accounts // accounts, logins and password hashing (accounts.go)
	quarantine     []Damaged
	msgsIn         atomic.Int64
	msgsOut        atomic.Int64
	wsWrites       atomic.Int64 // write system calls to sockets (several messages may share one)
	badInput       atomic.Int64
	rateKicks      atomic.Int64
	closing        atomic.Bool
	started        time.Time
	httpSrv        *http.Server

	rt ratingState // rated tables being rated (ratings.go)

	bots *botAccounts // bot accounts and their tokens (botaccount.go)

	chat      *chatHub   // table chat (chat.go)
	rematches *rematches // rematch offers and series (rematch.go)
	an        *analyser  // post-game analysis (analysis.go)

	tour *tournaments // duplicate tournaments (tournament.go)
}

// New builds a server and restores every unfinished table from the store.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: no store")
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	pub, err := CheckPublicURL(cfg.PublicURL)
	if err != nil {
		return nil, err
	}
	cfg.PublicURL = pub
	if cfg.PingInterval <= 0 {
		cfg.PingInterval = 30 * time.Second
	}
	if cfg.Assets == nil {
		cfg.Assets = web.Assets()
	}
	if cfg.Rate <= 0 {
		cfg.Rate = RatePerSec
	}
	if cfg.Burst < 1 {
		cfg.Burst = RateBurst
	}
	defInt := func(v *int, d int) {
		if *v == 0 {
			*v = d
		} else if *v < 0 {
			*v = math.MaxInt
		}
	}
	defInt(&cfg.OutQueue, OutQueue)
	defInt(&cfg.OutQueueBytes, 2<<20)
	defInt(&cfg.MaxConnections, 20000)
	defInt(&cfg.MaxWatches, 64)
	defInt(&cfg.MaxTables, 10000)
	defInt(&cfg.OpenTablesPerPlayer, 5)
	defInt(&cfg.BotTablesPerPlayer, 2)
	defInt(&cfg.TablesPerPlayer, 20)
	defInt(&cfg.TablesPerIP, 60)
	defInt(&cfg.OpenTablesPerIP, 15)
	defInt(&cfg.HintsPerMinute, 20)
	defInt(&cfg.HintsPerIPPerMinute, 60)
	defInt(&cfg.RecordCache, 256)
	defInt(&cfg.MaxSeries, DefaultMaxSeries)
	if cfg.RematchTTL <= 0 {
		cfg.RematchTTL = DefaultRematchTTL
	}
	cfg.RecordCache = min(cfg.RecordCache, MaxRecordCache)
	defInt(&cfg.BotWorkers, max(1, runtime.GOMAXPROCS(0)-1))
	defInt(&cfg.BotQueue, 1<<16)
	if cfg.BotIterations == 0 {
		cfg.BotIterations = bot.DefaultIterations
	}
	if cfg.BotMinIterations == 0 {
		cfg.BotMinIterations = min(cfg.BotIterations, max(pool.MinIterations, cfg.BotIterations/4))
	}
	budget := pool.Budget{Full: cfg.BotIterations, Min: cfg.BotMinIterations}
	if err := budget.Check(); err != nil {
		return nil, err
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = 10 * time.Second
	}
	if cfg.SessionPurgeEvery <= 0 {
		cfg.SessionPurgeEvery = 10 * time.Minute
	}
	s := &Server{
		cfg: cfg, store: cfg.Store, log: cfg.Log, metrics: table.NewMetrics(),
		tables: map[string]*table.Table{}, origins: map[string]origin{}, pending: map[*reservation]struct{}{}, conns: map[*conn]struct{}{}, started: time.Now(),
		seatIndex: map[string][]string{}, seatsOf: map[string][]string{}, watchers: map[string]map[*conn]struct{}{}, quit: make(chan struct{}),
		records: newRecordCache(cfg.RecordCache),
	}
	// Connection numbers start at a random life of this process (boot):
	// a cluster's nodes name relayed connections by node and number, and a
	// node restarted from 1 would inherit its last life's connections on
	// the other nodes (whose views went to its new first client). The
	// boot is the number's high half, so a peer can tell which life a
	// connection belongs to (clusterNode.peerRestart).
	s.boot = uint32(randomSeed()>>32) | 1
	s.nextConn.Store(uint64(s.boot) << 32)
	s.lobby = newLobby(s)
	s.chat, s.rematches = newChatHub(s, cfg.Chat), newRematches(cfg.RematchTTL, cfg.MaxSeries) // chat.go, rematch.go
	s.pool = pool.NewWith(pool.Options{Workers: min(cfg.BotWorkers, 1024), MaxQueue: min(cfg.BotQueue, 1<<20), Budget: budget, Nice: cfg.BotNice})
	s.hints = newLimiter(float64(cfg.HintsPerMinute)/60, float64(min(cfg.HintsPerMinute, 1<<20)))
	s.addrHints = newAddrLimiter("hints", float64(cfg.HintsPerIPPerMinute)/60, float64(min(cfg.HintsPerIPPerMinute, 1<<20)))
	tc := cfg.Table
	tc.Store, tc.Log, tc.Metrics, tc.Pool = cfg.Store, cfg.Log, s.metrics, s.pool
	tc.OnChange = s.onChange
	tc.OnStop = func(id string) { s.tableStopped(id, 0) }
	tc.BotAccount = s.isBotAccount // botaccount.go
	s.cfg.Table = tc
	if s.an, err = newAnalyser(s, cfg.Analysis); err != nil { // analysis.go
		s.lobby.stop()
		s.pool.Close()
		return nil, err
	}
	s.routes()
	if cfg.Cluster != nil {
		// A node of a cluster restores nothing by itself: it claims the
		// tables nobody holds, as every node does (cluster.go).
		if s.cl, err = newClusterNode(s, *cfg.Cluster); err != nil {
			s.lobby.stop()
			s.pool.Close()
			return nil, err
		}
		s.cl.start()
	} else if err := s.restore(); err != nil {
		s.lobby.stop()
		s.pool.Close()
		return nil, err
	}
	go s.purgeSessions()
	go s.sweepUnrated() // ratings.go
	go s.watchdog()
	go s.pinger()
	return s, nil
}

// Damaged is an unfinished table that could not be restored: its row or
// its event log cannot be read, or the log does not replay. It is left in
// the store untouched (quarantined) while the rest of the room runs; it is
// listed in /healthz and /metrics, and `cardroom doctor` reads it.
type Damaged struct {
	ID   string
	Game string
	// Stage is what could not be read: "table row", "game", "event log"
	// or "replay". It is what /healthz shows: Reason may quote a stored
	// event (a deal's hands, a pass's cards of a game still in play), so
	// it goes to the server's log only.
	Stage  string
	Reason string
}

// restore loads every unfinished table one by one, so one damaged table
// cannot keep the room from starting.
func (s *Server) restore() error {
	ctx := context.Background()
	ids, err := s.store.UnfinishedIDs(ctx)
	if err != nil {
		return fmt.Errorf("restore: list the unfinished tables: %w (cardroom doctor checks the database)", err)
	}
	n := 0
	for _, id := range ids {
		if t, d := s.restoreOne(ctx, id); d != nil {
			s.quarantine = append(s.quarantine, *d)
			s.log.Error("restore: table quarantined", "table", d.ID, "game", d.Game, "reason", d.Reason)
		} else {
			s.mu.Lock()
			s.tables[id] = t
			s.mu.Unlock()
			n++
		}
	}
	if n > 0 {
		s.log.Info("restored tables", "count", n)
	}
	return nil
}

func (s *Server) restoreOne(ctx context.Context, id string) (*table.Table, *Damaged) {
	return s.restoreWith(ctx, id, s.cfg.Table)
}

// restoreWith restores a table from its log with the table configuration
// tc (a cluster node's fences its writes).
func (s *Server) restoreWith(ctx context.Context, id string, tc table.Config) (*table.Table, *Damaged) {
	meta, err := s.store.Table(ctx, id)
	if err != nil {
		return nil, &Damaged{ID: id, Stage: "table row", Reason: "table row: " + err.Error()}
	}
	if _, err := games.Lookup(meta.Game); err != nil {
		return nil, &Damaged{ID: id, Game: meta.Game, Stage: "game", Reason: "game not available in this build"}
	}
	events, err := s.store.Events(ctx, id)
	if err != nil {
		return nil, &Damaged{ID: id, Game: meta.Game, Stage: "event log", Reason: "event log: " + err.Error()}
	}
	t, err := table.Restore(tc, meta, events)
	if err != nil {
		return nil, &Damaged{ID: id, Game: meta.Game, Stage: "replay", Reason: "replay: " + err.Error()}
	}
	return t, nil
}

// Quarantined lists the tables that could not be restored at start.
func (s *Server) Quarantined() []Damaged { return append([]Damaged(nil), s.quarantine...) }

// purgeSessions deletes expired sessions now and every SessionPurgeEvery.
func (s *Server) purgeSessions() {
	tk := time.NewTicker(s.cfg.SessionPurgeEvery)
	defer tk.Stop()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		n, err := s.store.PurgeSessions(ctx, time.Now())
		if err != nil {
			s.log.Warn("purge expired sessions", "err", err)
		} else if n > 0 {
			s.log.Info("purged expired sessions", "count", n)
			s.sessionsPurged.Add(int64(n))
		}
		if q := s.guard.shared; q != nil {
			// Refilled shared buckets are the same as none.
			if _, err := q.PurgeQuotas(ctx); err != nil {
				s.log.Warn("purge refilled quota buckets", "err", err)
			}
		}
		cancel()
		select {
		case <-s.quit:
			return
		case <-tk.C:
		}
	}
}

// Handler is the server's HTTP handler.
func (s *Server) Handler() http.Handler { return s.mux }

// Metrics exposes the table metrics (tests read them).
func (s *Server) Metrics() *table.Metrics { return s.metrics }

// Serve serves on l until Shutdown.
func (s *Server) Serve(l net.Listener) error {
	s.mu.Lock()
	if s.closing.Load() {
		// Shutdown ran first (it found no HTTP server to stop): serve
		// nothing rather than forever.
		s.mu.Unlock()
		l.Close()
		return nil
	}
	// Timeouts and the header limit (guard.go): without them one slow
	// client holds a connection forever. GET /ws clears the deadlines. The
	// listener caps the connections per address.
	c := s.cfg
	s.httpSrv = &http.Server{Handler: s.mux, ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		ReadHeaderTimeout: c.HTTPReadHeaderTimeout, ReadTimeout: c.HTTPReadTimeout, WriteTimeout: c.HTTPWriteTimeout,
		IdleTimeout: c.HTTPIdleTimeout, MaxHeaderBytes: c.MaxHeaderBytes}
	srv := s.httpSrv
	s.mu.Unlock()
	err := srv.Serve(s.guard.listener(l))
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops accepting, closes every connection, stops the tables
// (their logs are already durable) and closes the store.
func (s *Server) Shutdown(ctx context.Context) error {
	s.closing.Store(true)
	s.mu.Lock()
	srv := s.httpSrv
	s.mu.Unlock()
	var err error
	if srv != nil {
		err = srv.Shutdown(ctx)
	}
	s.mu.Lock()
	conns := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	tables := make([]*table.Table, 0, len(s.tables))
	for _, t := range s.tables {
		tables = append(tables, t)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.shutdown()
	}
	for _, t := range tables {
		t.Stop()
	}
	if s.cl != nil {
		s.cl.close()
	}
	s.lobby.stop()
	close(s.quit)
	s.pool.Close()
	if e := s.store.Close(); err == nil {
		err = e
	}
	return err
}

func (s *Server) onChange(sum *table.Summary) {
	s.lobby.update(sum)
	if s.cl != nil {
		s.cl.changed(sum) // cluster.go: every node's lobby
	}
	if sum.Status == store.StatusFinished {
		s.an.finished(sum) // analysis.go
		if sum.Rated {
			s.rateFinished(sum) // ratings.go
		}
		return
	}
	s.indexSeats(sum)
}

// indexSeats records the players seated at an unfinished table (here, or
// at another node of the cluster).
func (s *Server) indexSeats(sum *table.Summary) {
	if sum.Status == store.StatusFinished {
		s.unindexSeats(sum.ID)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, si := range sum.Seats {
		if si.Player == "" || slices.Contains(s.seatIndex[si.Player], sum.ID) {
			continue
		}
		s.seatIndex[si.Player] = append(s.seatIndex[si.Player], sum.ID)
		s.seatsOf[sum.ID] = append(s.seatsOf[sum.ID], si.Player)
	}
}

// tableStopped forgets a table that stopped here; epoch is its lease's in
// a cluster (0 on one node). The table leaves s.tables last: until then
// this node does not take the table over again (takeOver finds it), so
// nothing here can drop a newer run's seats, lobby entry or lease, which a
// table given up and at once taken back by this node would otherwise lose
// to the old run's late end.
func (s *Server) tableStopped(id string, epoch int64) {
	s.unindexSeats(id)
	s.lobby.remove(id)
	s.forgetRated(id)
	if s.cl != nil {
		s.cl.stopped(id, epoch) // cluster.go
	}
	s.mu.Lock()
	delete(s.tables, id)
	delete(s.origins, id)
	s.mu.Unlock()
}

// unindexSeats forgets a table's seats in seatIndex.
func (s *Server) unindexSeats(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.seatsOf[id] {
		ids := slices.DeleteFunc(s.seatIndex[p], func(x string) bool { return x == id })
		if len(ids) == 0 {
			delete(s.seatIndex, p)
		} else {
			s.seatIndex[p] = ids
		}
	}
	delete(s.seatsOf, id)
}

// closeSessionConns closes every WebSocket opened with the session whose
// token hash is h (a revoked session).
func (s *Server) closeSessionConns(h string) {
	s.closeTokenConns(h, "you logged out: this connection is closed", "logged out")
}

// closeTokenConns closes the sockets opened with the token whose hash is
// h, each with an unauthorized error saying msg first (so a program knows
// not to reconnect with it), and returns how many there were.
func (s *Server) closeTokenConns(h, msg, why string) int {
	if s.cl != nil {
		s.cl.revoked(h, msg, why) // cluster.go: the other nodes close theirs
	}
	return s.closeLocalTokenConns(h, msg, why)
}

// closeLocalTokenConns is closeTokenConns for this node's sockets only.
func (s *Server) closeLocalTokenConns(h, msg, why string) int {
	s.mu.Lock()
	var cs []*conn
	for c := range s.conns {
		if c.sess.TokenHash == h {
			cs = append(cs, c)
		}
	}
	s.mu.Unlock()
	for _, c := range cs {
		c.sendErr(nil, "", &table.Error{Code: protocol.Unauthorized, Msg: msg})
		c.kill(wsconn.StatusPolicyViolation, why)
	}
	return len(cs)
}

func (s *Server) table(id string) *table.Table {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tables[id]
}

var b32 = base32.NewEncoding("abcdefghijkmnpqrstuvwxyz23456789").WithPadding(base32.NoPadding)

func randomID(prefix string, n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return prefix + b32.EncodeToString(b)
}

func (s *Server) seed() uint64 {
	if s.cfg.Seeds != nil {
		return s.cfg.Seeds()
	}
	return randomSeed()
}

func randomSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	var x uint64
	for _, c := range b {
		x = x<<8 | uint64(c)
	}
	return x
}

// MaxSeats bounds a seat number from a client before any engine sees it.
const MaxSeats = protocol.MaxSeats

// Bounds of the create request's lists.
const (
	maxOptions   = 32 // options in one request
	maxOptionLen = 64 // bytes of one option name or value
)

// checkCreateReq range-checks every number and list of a create request
// before anything is allocated from it.
func checkCreateReq(req protocol.CreateReq) error {
	if req.Game == "" {
		return &table.Error{Code: protocol.BadRequest, Msg: "field game is required"}
	}
	if _, err := games.Lookup(req.Game); err != nil {
		return &table.Error{Code: protocol.UnknownGame, Msg: err.Error()}
	}
	if req.ClockMS != 0 && (req.ClockMS < 1000 || req.ClockMS > 3600000) {
		return &table.Error{Code: protocol.BadRequest, Msg: "clock_ms must be 0 or 1000 to 3600000"}
	}
	if req.Seat != nil && (*req.Seat < -1 || *req.Seat >= MaxSeats) {
		return &table.Error{Code: protocol.BadSeat, Msg: fmt.Sprintf("seat %d: want -1 (none) or a seat number", *req.Seat)}
	}
	if len(req.Options) > maxOptions {
		return &table.Error{Code: protocol.BadOptions, Msg: fmt.Sprintf("%d options: at most %d", len(req.Options), maxOptions)}
	}
	for k, v := range req.Options {
		if len(k) > maxOptionLen || len(v) > maxOptionLen {
			return &table.Error{Code: protocol.BadOptions, Msg: fmt.Sprintf("option %.20q: names and values have at most %d bytes", k, maxOptionLen)}
		}
		if strings.ContainsAny(k+v, " ,\t=\n\r") {
			return &table.Error{Code: protocol.BadOptions, Msg: fmt.Sprintf("option %q=%q: names and values cannot contain spaces, commas or '='", k, v)}
		}
	}
	if err := table.CheckWhenEmpty(req.WhenEmpty); err != nil {
		return err
	}
	if len(req.Bots) > MaxSeats {
		return &table.Error{Code: protocol.BadRequest, Msg: fmt.Sprintf("bots: %d entries, at most %d", len(req.Bots), MaxSeats)}
	}
	for k := range req.Bots {
		if n, err := strconv.Atoi(k); err != nil || n < 0 || n >= MaxSeats || strconv.Itoa(n) != k {
			return &table.Error{Code: protocol.BadSeat, Msg: fmt.Sprintf("bots: %.20q is not a seat number", k)}
		}
	}
	return nil
}

func (s *Server) createTable(ctx context.Context, sess store.Session, from origin, req protocol.CreateReq, quick bool) (*table.Table, error) {
	if err := checkCreateReq(req); err != nil {
		return nil, err
	}
	if req.Rated {
		if err := s.checkRated(ctx, sess, req); err != nil { // ratings.go
			return nil, err
		}
		req.WhenEmpty = protocol.WhenEmptyEnd
	}
	opts := make([]string, 0, len(req.Options))
	for k, v := range req.Options {
		opts = append(opts, k+"="+v)
	}
	meta := store.Table{
		ID: randomID("t_", 6), Game: req.Game, Options: strings.Join(opts, " "), Private: req.Private,
		ClockMS: req.ClockMS, BotLevel: req.BotLevel, Owner: sess.Player, Seed: s.seed(),
		Status: store.StatusOpen, Rated: req.Rated, WhenEmpty: req.WhenEmpty,
	}
	if req.Private {
		meta.Invite = randomID("", 10)
	}
	seats := map[int]store.Seat{}
	if quick {
		level := req.Level
		if level == "" {
			level = "random"
		}
		if _, err := bot.New(level, 0); err != nil {
			return nil, &table.Error{Code: protocol.BadLevel, Msg: err.Error()}
		}
		if meta.BotLevel == "" {
			meta.BotLevel = level
		}
		seats[0] = s.seatFor(ctx, sess)
		for i := 1; i < 16; i++ {
			seats[i] = store.Seat{Bot: level}
		}
	} else {
		for k, level := range req.Bots {
			n, _ := strconv.Atoi(k) // checked by checkCreateReq
			if _, err := bot.New(level, 0); err != nil {
				return nil, &table.Error{Code: protocol.BadLevel, Msg: err.Error()}
			}
			seats[n] = store.Seat{Bot: level}
		}
		if req.Seat != nil && *req.Seat >= 0 {
			n := int(*req.Seat)
			if _, dup := seats[n]; dup {
				return nil, &table.Error{Code: protocol.SeatTaken, Msg: fmt.Sprintf("seat %d has a bot", n)}
			}
			seats[n] = s.seatFor(ctx, sess)
		}
	}
	// Size the seats from the engine: build a probe state via table.Create's
	// validation (it copies at most the engine's number of seats).
	max := 0
	for n := range seats {
		if n+1 > max {
			max = n + 1
		}
	}
	meta.Seats = make([]store.Seat, max)
	for n, st := range seats {
		meta.Seats[n] = st
	}
	n, err := seatCount(req.Game, meta.Options)
	if err != nil {
		return nil, err
	}
	if !quick {
		for k := range seats {
			if k >= n {
				return nil, &table.Error{Code: protocol.BadSeat, Msg: fmt.Sprintf("seat %d: the table has %d seats", k, n)}
			}
		}
	}
	if len(meta.Seats) > n {
		meta.Seats = meta.Seats[:n]
	}
	botsOnly := len(meta.Seats) == n
	for _, st := range meta.Seats {
		botsOnly = botsOnly && st.Bot != ""
	}
	res, err := s.checkCreate(sess.Player, from, botsOnly)
	if err != nil {
		return nil, err
	}
	t, err := s.openTable(ctx, meta)
	if err != nil {
		s.done(res, "")
		return nil, err
	}
	s.done(res, t.ID())
	s.log.Info("table created", "table", t.ID(), "game", req.Game, "options", meta.Options, "owner", sess.Player, "private", req.Private)
	return t, nil
}

// openTable creates and stores a new table (table.Create) and puts it in
// memory and in the lobby. A storage failure is unavailable.
func (s *Server) openTable(ctx context.Context, meta store.Table) (*table.Table, error) {
	tc := s.cfg.Table
	if s.cl != nil {
		var err error
		if tc, err = s.cl.claim(ctx, meta.ID); err != nil { // cluster.go
			return nil, err
		}
	}
	t, err := table.Create(ctx, tc, meta)
	if err != nil {
		if s.cl != nil {
			s.cl.forget(meta.ID)
		}
		var te *table.Error
		if !errors.As(err, &te) {
			return nil, &table.Error{Code: protocol.Unavailable, Msg: "the table could not be stored; retry later"}
		}
		return nil, err
	}
	s.addTable(t)
	return t, nil
}

// addTable puts a table that now runs here (created, or taken over by a
// cluster node) in memory and, in a cluster, takes its commands from the
// bus. Its summary has reached the lobby already: every new table
// publishes one (OnChange).
func (s *Server) addTable(t *table.Table) {
	s.mu.Lock()
	s.tables[t.ID()] = t
	s.mu.Unlock()
	if s.cl != nil {
		s.cl.serveTable(t)
	}
}

func seatCount(gameName, options string) (int, error) {
	eng, err := games.Lookup(gameName)
	if err != nil {
		return 0, &table.Error{Code: protocol.UnknownGame, Msg: err.Error()}
	}
	o, err := parseOpts(options)
	if err != nil {
		return 0, err
	}
	st, err := eng.New(o)
	if err != nil {
		return 0, &table.Error{Code: protocol.BadOptions, Msg: err.Error()}
	}
	return st.Seats(), nil
}

// originPatterns are the Origin hosts accepted on /ws besides the room's
// own (wsconn.Accept always accepts an Origin whose host is the
// request's Host, and a request with no Origin: a program, not a page).
// A page elsewhere, even on localhost, cannot open a cookie-authenticated
// socket.
func (s *Server) originPatterns() []string {
	if s.cfg.PublicURL == "" {
		return s.cfg.AllowedOrigins
	}
	// A pattern with "://" is matched against the Origin's scheme and
	// host: an http page cannot pass for the https room.
	return append(s.cfg.AllowedOrigins[:len(s.cfg.AllowedOrigins):len(s.cfg.AllowedOrigins)], s.cfg.PublicURL)
}

// CheckPublicURL validates a public URL (Config.PublicURL, -public-url)
// and returns it in the form the server uses: scheme://host[:port] with no
// trailing slash. The room is served at the root of its host, so a path,
// query, fragment or user is refused, as is any scheme but http and https.
// The empty string is valid: no public URL.
func CheckPublicURL(raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return "", fmt.Errorf("public-url %q: %v", raw, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("public-url %q: want http:// or https://", raw)
	case u.Host == "" || u.Hostname() == "":
		return "", fmt.Errorf("public-url %q: no host", raw)
	case u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return "", fmt.Errorf("public-url %q: want only scheme://host[:port]", raw)
	case u.Path != "" && u.Path != "/":
		return "", fmt.Errorf("public-url %q: the room is served at the root of its host, not under %s", raw, u.Path)
	case strings.ContainsAny(u.Host, "*?[]\\") && !strings.HasPrefix(u.Host, "["):
		return "", fmt.Errorf("public-url %q: the host has a pattern character", raw)
	}
	return u.Scheme + "://" + strings.ToLower(u.Host), nil
}

// recovered is called with recover() by the deferred function of a
// goroutine that handles one input (a client's message, a relayed
// command, an analysis): a panic there (a bug) ends that handling, not
// the room, and is logged with its stack and counted. It reports whether
// there was one; what to drop then is the caller's.
func (s *Server) recovered(r any, what string, attrs ...any) bool {
	if r == nil {
		return false
	}
	s.panics.Add(1)
	s.log.Error(what+": panic recovered", append(attrs, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))...)
	return true
}
