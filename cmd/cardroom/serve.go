package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"cardroom/bot"
	"cardroom/bot/analysis"
	"cardroom/bot/pool"
	"cardroom/cluster"
	"cardroom/server"
	"cardroom/store"
	"cardroom/table"
)

func init() {
	register("serve", "run the card room (HTTP + WebSocket, embedded SQLite); the default command", runServe)
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// defaultDataDir is $CARDROOM_DATA, else the user's data directory
// ($XDG_DATA_HOME or ~/.local/share)/cardroom, else ./cardroom-data.
func defaultDataDir() string {
	if v := os.Getenv("CARDROOM_DATA"); v != "" {
		return v
	}
	if v := os.Getenv("XDG_DATA_HOME"); v != "" {
		return filepath.Join(v, "cardroom")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".local", "share", "cardroom")
	}
	return "cardroom-data"
}

func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", envOr("CARDROOM_ADDR", "localhost:8080"), "listen address (env CARDROOM_ADDR); port 0 picks a free port")
	data := fs.String("data", defaultDataDir(), "data directory holding cardroom.db (env CARDROOM_DATA)")
	storeURL := fs.String("store", os.Getenv("CARDROOM_STORE"), "the database: empty for the SQLite file cardroom.db in -data, or a PostgreSQL URL postgres://user:password@host:port/database (env CARDROOM_STORE; docs/cluster.md)")
	natsURL := fs.String("nats", os.Getenv("CARDROOM_NATS"), "the cluster's NATS bus, nats://host:port (env CARDROOM_NATS): with a PostgreSQL -store, this node joins a cluster (docs/cluster.md)")
	node := fs.String("node", os.Getenv("CARDROOM_NODE"), "this node's name in a cluster, unique, letters, digits, '-' and '_' (env CARDROOM_NODE; default: the host name and the port)")
	leaseTTL := fs.Duration("lease-ttl", 5*time.Second, "cluster: how long a table's lease lasts unrenewed; a dead node's tables move within about this (1s to 1m)")
	maxRemote := fs.Int("max-remote-conns", 20000, "cluster: other nodes' connections this node serves as the owner of their tables")
	publicURL := fs.String("public-url", os.Getenv("CARDROOM_PUBLIC_URL"), "the address people use, e.g. https://cards.example.com: invite links and the WebSocket Origin check (env CARDROOM_PUBLIC_URL)")
	metricsFromFlag := fs.String("metrics-from", os.Getenv("CARDROOM_METRICS_FROM"), "comma-separated addresses or CIDR prefixes of the clients /metrics answers, or \"any\" (env CARDROOM_METRICS_FROM); empty: loopback and private networks ("+server.DefaultMetricsFrom+")")
	trustedProxies := fs.String("trusted-proxies", os.Getenv("CARDROOM_TRUSTED_PROXIES"), "comma-separated addresses or CIDR prefixes of reverse proxies whose X-Forwarded-For names the client, e.g. 127.0.0.1,::1 (env CARDROOM_TRUSTED_PROXIES); empty: trust none")
	grace := fs.Duration("grace", 60*time.Second, "absence before a bot plays for a disconnected player")
	botDelay := fs.Duration("bot-delay", 500*time.Millisecond, "pause before each bot move, so people can follow (a timer: it holds no bot worker)")
	trickPause := fs.Duration("trick-pause", 1500*time.Millisecond, "least pause before a bot move after a trick, a round's end or a chain, while someone watches (0: none)")
	linger := fs.Duration("linger", 2*time.Minute, "how long a finished table stays in memory")
	queue := fs.Int("queue", 64, "commands queued per table before refusing (busy)")
	rate := fs.Float64("rate", server.RatePerSec, "messages a second allowed per connection")
	burst := fs.Float64("burst", server.RateBurst, "message burst allowed per connection")
	maxConnsPerIP := fs.Int("max-conns-per-ip", server.DefaultMaxConnsPerIP, "connections open at once from one address (IPv6: one /64); 0: unlimited")
	httpRate := fs.Float64("http-rate", server.DefaultHTTPRate, "requests a second to /api/ per address; 0: no limit")
	httpBurst := fs.Float64("http-burst", server.DefaultHTTPBurst, "request burst to /api/ per address")
	sessionsPerIP := fs.Int("sessions-per-ip", server.DefaultSessionsPerIPPerHour, "guest sessions created per address per hour; 0: no limit")
	creationsPerIP := fs.Int("creations-per-ip", server.DefaultCreationsPerIPPerDay, "accounts claimed and tournaments created per address per day, together; 0: no limit")
	httpHeaderTimeout := fs.Duration("http-header-timeout", server.DefaultHTTPReadHeaderTimeout, "longest a client may take to send a request's headers (1s to 1h): a slow client holds a connection until then")
	httpReadTimeout := fs.Duration("http-read-timeout", server.DefaultHTTPReadTimeout, "longest a client may take to send a whole request (1s to 1h)")
	httpWriteTimeout := fs.Duration("http-write-timeout", server.DefaultHTTPWriteTimeout, "longest a client may take to read an answer (1s to 1h; a WebSocket has -write-timeout)")
	httpIdleTimeout := fs.Duration("http-idle-timeout", server.DefaultHTTPIdleTimeout, "how long an idle keep-alive connection stays open (1s to 1h)")
	maxHeaderBytes := fs.Int("max-header-bytes", server.DefaultMaxHeaderBytes, "bytes of request headers read (1024 to 1048576)")
	outQueue := fs.Int("out-queue", server.OutQueue, "messages waiting for one connection before it is dropped as too slow")
	outQueueBytes := fs.Int("out-queue-bytes", 2<<20, "bytes waiting for one connection before it is dropped as too slow")
	writeTimeout := fs.Duration("write-timeout", 10*time.Second, "longest one WebSocket write may wait for a peer that does not read")
	maxConns := fs.Int("max-connections", 20000, "open WebSockets; 0: no limit")
	maxTables := fs.Int("max-tables", 10000, "tables in memory; 0: no limit")
	maxWatches := fs.Int("max-watches", 64, "tables one connection may watch at once (joined and created ones included); 0: no limit")
	openPer := fs.Int("open-tables-per-player", 5, "open (not started) tables one player may own; 0: no limit")
	tablesPer := fs.Int("tables-per-player", 20, "unfinished tables one player may own, quick play included; 0: no limit")
	botTablesPer := fs.Int("bot-tables-per-player", 2, "unfinished games of bots only one player may own; 0: no limit")
	maxDBMiB := fs.Int64("max-db-mib", 0, "MiB of disk the SQLite database and its WAL may hold; past it new tables and tournaments are refused while games under way play on; 0: no limit but the disk's")
	tablesPerIP := fs.Int("tables-per-ip", 60, "unfinished tables created from one address by any of its players (an IPv6 /48: 16 times); 0: no limit")
	openPerIP := fs.Int("open-tables-per-ip", 15, "open (not started) tables created from one address by any of its players (an IPv6 /48: 16 times); 0: no limit")
	hintsPer := fs.Int("hints-per-minute", 20, "hints one player may ask for a minute; 0: no limit")
	hintsPerIP := fs.Int("hints-per-ip", 60, "hints asked for from one address a minute, by any of its players (an IPv6 /48: 16 times); 0: no limit")
	rematchTTL := fs.Duration("rematch-ttl", server.DefaultRematchTTL, "how long a rematch offer waits for the players' answers (1m to 24h)")
	maxSeries := fs.Int("max-series", server.DefaultMaxSeries, "tables remembered as part of a rematch series, and series results kept (100 to 1000000; past it the memory is cleared and series restart their count)")
	recordCache := fs.Int("record-cache", 256, "finished games whose logs stay in memory for replays (1 to 65536)")
	chatPer := fs.Int("chat-per-minute", server.DefaultChatPerMinute, "chat lines (and reports) one player may send a minute, across tables; 0: no limit")
	chatBurst := fs.Int("chat-burst", server.DefaultChatBurst, "chat lines one player may send at once")
	chatHistory := fs.Int("chat-history", server.DefaultChatHistory, "chat lines kept per table and sent to a new watcher")
	reportsPerIP := fs.Int("reports-per-ip", server.DefaultReportsPerIPPerDay, "chat reports taken from one address a day (each is kept for the operator); 0: no limit")
	botWorkers := fs.Int("bot-workers", 0, "bot moves and hints computed at once (default: cores − 1, at least 1)")
	botQueue := fs.Int("bot-queue", 1<<16, "bot moves and hints waiting for a worker")
	botIters := fs.Int("bot-iterations", bot.DefaultIterations, "hard bot search iterations per move or hint while the bot pool keeps up")
	botNice := fs.Int("bot-nice", 10, "the nice value of the bot workers' threads (0 to 19; Linux): when the cores are short, human moves run before bot searches; 0: the process's priority")
	botMinIters := fs.Int("bot-min-iterations", 0, "the least the hard bot searches when bot moves and hints wait for a worker (default: a quarter of -bot-iterations, at least 100)")
	analysisOn := fs.Bool("analysis", true, "analyse every finished game's human seats in the background, when the bot pool is idle (docs/bots.md)")
	analysisBudget := fs.Int("analysis-budget", analysis.DefaultBudget, fmt.Sprintf("post-game analysis: determinizations per decision, 1 to %d", analysis.MaxBudget))
	analysisQueue := fs.Int("analysis-queue", server.DefaultAnalysisQueue, "post-game analysis: seats waiting, at most 65536")
	analysesPerIP := fs.Int("analyses-per-ip", server.DefaultAnalysesPerIPPerHour, "post-game analysis: seats one address may ask to have analysed an hour; 0: no limit")
	maxTourn := fs.Int("max-tournaments", 100, "open or running tournaments in the room, at least 1 (docs/tournaments.md)")
	tournPer := fs.Int("tournaments-per-player", 3, "open or running tournaments one player may have created, at least 1")
	tournEntrants := fs.Int("tournament-entrants", 32, "entrants a tournament may have, 1 to 64")
	tournFill := fs.Duration("tournament-fill-ttl", 24*time.Hour, "how long a tournament that starts when full waits for its entrants")
	tournPerIP := fs.Int("tournament-entries-per-ip", 1, "entrants a tournament takes from one address (every entrant plays the same cards); 0: no limit")
	tournCreatedPerIP := fs.Int("tournaments-per-ip", 3, "open or running tournaments created from one address; 0: no limit")
	openTTL := fs.Duration("open-ttl", 30*time.Minute, "an open table nobody seated is connected to closes after this; 0: never")
	maxSteps := fs.Int("max-steps", 100_000, "steps a game may take; one that reaches it unfinished is ended unfinished (the rules bound no game's length); 0: no limit")
	pausedTTL := fs.Duration("paused-ttl", 2*time.Hour, "a game paused because every human left ends after this; 0: never")
	busyTimeout := fs.Duration("busy-timeout", 5*time.Second, "how long a database write waits for a lock held by another process before the step is refused")
	walLimit := fs.Int64("wal-limit", 64<<20, "WAL size in bytes over which the WAL is copied back and started over")
	pageSize := fs.Int("page-size", store.DefaultPageSize, "page size of a new SQLite database (a power of two, 512-65536); an existing one keeps its own")
	logTail := fs.Int("log-tail", store.DefaultTailLimit, "entries the SQLite event log's tail holds (in memory too, about 100 bytes each) before the oldest are folded into the log (16-1048576)")
	logLevel := fs.String("log-level", envOr("CARDROOM_LOG", "info"), "debug, info, warn or error")
	syncMode := fs.String("sync", "normal", "SQLite synchronous: normal (fsync at checkpoints), off (never fsync; safe against process crashes only) or full")
	checkpoint := fs.Duration("checkpoint", store.CheckpointEvery, "period of the background WAL checkpoint")
	commitWindow := fs.Duration("commit-window", 0, "how long the store holds a move's commit open for others to share it: 0 adapts (up to 2ms while moves of different tables come faster than one per 2ms, none otherwise), positive is fixed (at most 50ms), negative never holds (docs/server.md)")
	slack := fs.Duration("timer-slack", DefaultTimerSlack, fmt.Sprintf("how late the kernel may end the process's timed sleeps, to wake it less often (Linux; 0 to %v; 0: the system's; docs/server.md)", maxTimerSlack))
	pprofAddr := fs.String("pprof", "", "serve net/http/pprof on this address (e.g. localhost:6060); off by default")
	logJSON := fs.Bool("log-json", false, "structured logs as JSON instead of text")
	// Accounts (docs/accounts.md).
	hashConc := fs.Int("hash-concurrency", server.DefaultHashConcurrency, "password hashes (argon2id) computed at once; each holds -hash-memory")
	hashMem := fs.Uint("hash-memory", server.DefaultHashMemoryKiB, "argon2id memory of new password hashes, in KiB")
	hashTime := fs.Uint("hash-time", server.DefaultHashTime, "argon2id passes of new password hashes")
	failAcct := fs.Int("login-failures-per-account", server.DefaultLoginFailuresPerAccount, "failed logins allowed per account name per hour; 0: no limit")
	failIP := fs.Int("login-failures-per-ip", server.DefaultLoginFailuresPerIP, "failed logins allowed per address per hour; 0: no limit")
	sessPerAcct := fs.Int("sessions-per-account", server.DefaultSessionsPerAccount, "sessions one account keeps (logging in past it ends the oldest); 0: no limit")
	// Bot accounts (docs/bots.md, "Bot accounts").
	botTokens := fs.Int("bot-tokens-per-account", server.DefaultBotTokensPerAccount, "API tokens one bot account holds; 0: no limit")
	maxBotAccts := fs.Int("max-bot-accounts", server.DefaultMaxBotAccounts, "accounts that may be marked as bots; 0: no limit")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *botIters < pool.MinIterations || *botIters > pool.MaxIterations {
		fmt.Fprintf(stderr, "serve: -bot-iterations %d: want %d to %d\n", *botIters, pool.MinIterations, pool.MaxIterations)
		return 2
	}
	if *botMinIters != 0 && (*botMinIters < pool.MinIterations || *botMinIters > *botIters) {
		fmt.Fprintf(stderr, "serve: -bot-min-iterations %d: want %d to -bot-iterations (%d)\n", *botMinIters, pool.MinIterations, *botIters)
		return 2
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"http-header-timeout", *httpHeaderTimeout}, {"http-read-timeout", *httpReadTimeout}, {"http-write-timeout", *httpWriteTimeout}, {"http-idle-timeout", *httpIdleTimeout}} {
		if d.v < time.Second || d.v > time.Hour {
			fmt.Fprintf(stderr, "serve: -%s %v: want 1s to 1h\n", d.name, d.v)
			return 2
		}
	}
	if *maxHeaderBytes < 1024 || *maxHeaderBytes > 1<<20 {
		fmt.Fprintf(stderr, "serve: -max-header-bytes %d: want 1024 to %d\n", *maxHeaderBytes, 1<<20)
		return 2
	}
	if *rematchTTL < time.Minute || *rematchTTL > 24*time.Hour {
		fmt.Fprintf(stderr, "serve: -rematch-ttl %v: want 1m to 24h\n", *rematchTTL)
		return 2
	}
	if *maxSeries < 100 || *maxSeries > 1_000_000 {
		fmt.Fprintf(stderr, "serve: -max-series %d: want 100 to 1000000\n", *maxSeries)
		return 2
	}
	if *maxDBMiB < 0 || *maxDBMiB > 1<<30 {
		fmt.Fprintf(stderr, "serve: -max-db-mib %d: want 0 (no limit) to %d\n", *maxDBMiB, 1<<30)
		return 2
	}
	if *maxDBMiB > 0 && *storeURL != "" {
		fmt.Fprintln(stderr, "serve: -max-db-mib bounds a SQLite database only; PostgreSQL's disk is its operator's to watch")
	}
	pub, err := server.CheckPublicURL(*publicURL)
	if err != nil {
		fmt.Fprintf(stderr, "serve: -%v\n", err)
		return 2
	}
	proxies, err := server.ParseTrustedProxies(*trustedProxies)
	if err != nil {
		fmt.Fprintf(stderr, "serve: -%v\n", err)
		return 2
	}
	metricsFrom, err := server.ParseMetricsFrom(*metricsFromFlag)
	if err != nil {
		fmt.Fprintf(stderr, "serve: -%v\n", err)
		return 2
	}
	if err := checkTimerSlack(*slack); err != nil {
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return 2
	}
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(stderr, "serve: -log-level: %v\n", err)
		return 2
	}
	var h slog.Handler = slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: lvl})
	if *logJSON {
		h = slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: lvl})
	}
	log := slog.New(h)
	// Before anything is opened: this may execute the binary again.
	if o := ensureTimerSlack(*slack, mayReexec); o.Err != nil {
		log.Warn("timer slack not set: the runtime wakes more often (docs/server.md)", "want", *slack, "slack", o.Slack, "err", o.Err)
	} else if o.Reexecd {
		log.Debug("timer slack set", "slack", o.Slack)
	}

	// The garbage collector runs at Go's default (GOGC=100): with GOGC=200
	// a room of 4,000 sockets held 50 KiB of RSS a socket instead of 37 for
	// about a tenth less CPU (docs/server.md). GOGC in the environment
	// still decides.
	var st store.Store
	dbPath := filepath.Join(*data, "cardroom.db")
	if *storeURL != "" {
		pg, where, err := openPostgresStore(fs, *storeURL, log)
		if err != nil {
			fmt.Fprintf(stderr, "serve: -store: %v\n", err)
			return 1
		}
		st, dbPath = pg, where
	} else {
		if err := os.MkdirAll(*data, 0o755); err != nil {
			fmt.Fprintf(stderr, "serve: data directory: %v\n", err)
			return 1
		}
		sq, err := store.OpenSQLiteWith(dbPath, store.SQLiteOptions{Sync: *syncMode, BusyTimeout: *busyTimeout, WALLimit: *walLimit, CheckpointEvery: *checkpoint, CommitWindow: *commitWindow, PageSize: *pageSize, TailLimit: *logTail})
		if err != nil {
			fmt.Fprintf(stderr, "serve: database %s: %v\n", dbPath, err)
			return 1
		}
		st = sq
	}
	if *botNice < 0 || *botNice > 19 {
		st.Close()
		fmt.Fprintf(stderr, "serve: -bot-nice %d: want 0 to 19\n", *botNice)
		return 1
	}
	var clusterCfg *server.ClusterConfig
	if *natsURL != "" {
		if *storeURL == "" {
			st.Close()
			fmt.Fprintln(stderr, "serve: -nats: a cluster shares one PostgreSQL database: give -store postgres://… too (docs/cluster.md)")
			return 1
		}
		name := *node
		if name == "" {
			name = defaultNodeName(*addr)
		}
		if err := cluster.CheckNode(name); err != nil {
			st.Close()
			fmt.Fprintf(stderr, "serve: -node: %v\n", err)
			return 1
		}
		clusterCfg = &server.ClusterConfig{NATS: *natsURL, Node: name, LeaseTTL: *leaseTTL, MaxRemoteConns: *maxRemote}
		log.Info("cluster node", "node", name, "nats", *natsURL, "lease_ttl", *leaseTTL)
	} else if *node != "" {
		log.Warn("-node is for a cluster node: give -nats too, or it is ignored")
	}
	srv, err := server.New(server.Config{
		Cluster: clusterCfg,
		Store:   st, Log: log, Rate: *rate, Burst: *burst,
		MaxConnsPerIP: offIfZero(*maxConnsPerIP), SessionsPerIPPerHour: offIfZero(*sessionsPerIP), CreationsPerIPPerDay: offIfZero(*creationsPerIP),
		HTTPRate: offIfZero(*httpRate), HTTPBurst: *httpBurst,
		HTTPReadHeaderTimeout: *httpHeaderTimeout, HTTPReadTimeout: *httpReadTimeout, HTTPWriteTimeout: *httpWriteTimeout,
		HTTPIdleTimeout: *httpIdleTimeout, MaxHeaderBytes: *maxHeaderBytes, RematchTTL: *rematchTTL, MaxSeries: *maxSeries,
		OutQueue: *outQueue, OutQueueBytes: *outQueueBytes, WriteTimeout: *writeTimeout,
		MaxConnections: offIfZero(*maxConns), MaxTables: offIfZero(*maxTables), MaxWatches: offIfZero(*maxWatches),
		OpenTablesPerPlayer: offIfZero(*openPer), TablesPerPlayer: offIfZero(*tablesPer),
		MaxStoreBytes: *maxDBMiB << 20, TablesPerIP: offIfZero(*tablesPerIP), OpenTablesPerIP: offIfZero(*openPerIP),
		BotTablesPerPlayer: offIfZero(*botTablesPer), HintsPerMinute: offIfZero(*hintsPer), HintsPerIPPerMinute: offIfZero(*hintsPerIP), RecordCache: max(1, *recordCache),
		BotWorkers: *botWorkers, BotQueue: *botQueue, BotIterations: *botIters, BotMinIterations: *botMinIters, BotNice: *botNice,
		PublicURL: pub, TrustedProxies: proxies, MetricsFrom: metricsFrom, Analysis: server.AnalysisConfig{Off: !*analysisOn, Budget: *analysisBudget, Queue: *analysisQueue, PerIPPerHour: offIfZero(*analysesPerIP)},
		Chat: server.ChatConfig{PerMinute: offIfZero(*chatPer), Burst: *chatBurst, History: *chatHistory, ReportsPerIPPerDay: offIfZero(*reportsPerIP)},
		Tournaments: server.TournamentConfig{MaxOpen: *maxTourn, PerPlayer: *tournPer,
			MaxEntrants: *tournEntrants, FillTTL: *tournFill, PerAddress: offIfZero(*tournPerIP),
			PerCreatorAddress: offIfZero(*tournCreatedPerIP)},
		Accounts: server.AccountsConfig{HashConcurrency: *hashConc, HashMemoryKiB: uint32(min(*hashMem, 1<<20)), HashTime: uint32(min(*hashTime, 16)),
			LoginFailuresPerAccount: offIfZero(*failAcct), LoginFailuresPerIP: offIfZero(*failIP), SessionsPerAccount: offIfZero(*sessPerAcct)},
		Bots: server.BotConfig{TokensPerAccount: offIfZero(*botTokens), MaxBotAccounts: offIfZero(*maxBotAccts)},
		Table: table.Config{Grace: *grace, BotDelay: *botDelay, TrickPause: *trickPause, Linger: *linger, QueueSize: *queue, OpenTTL: offIfZero(*openTTL), PausedTTL: offIfZero(*pausedTTL),
			MaxSteps: offIfZero(*maxSteps)},
	})
	if err != nil {
		st.Close()
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return 1
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		srv.Shutdown(context.Background())
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return 1
	}
	host := l.Addr().String()
	everywhere := false
	if ip, err := netip.ParseAddrPort(host); err == nil && ip.Addr().IsUnspecified() {
		everywhere = true // 0.0.0.0 or [::]: not an address to open
	}
	if strings.HasPrefix(*addr, "localhost:") || everywhere {
		host = "localhost:" + portOf(host)
	}
	fmt.Fprintf(stdout, "Cardroom is running: open http://%s/\n", host)
	if pub != "" {
		fmt.Fprintf(stdout, "Invite links use %s/\n", pub)
	} else if everywhere {
		fmt.Fprintf(stdout, "Listening on every interface: others on your network open http://<this machine's address>:%s/ (-public-url sets the invite links)\n", portOf(host))
	}
	log.Info("serving", "addr", l.Addr().String(), "db", dbPath, "public_url", pub, "trusted_proxies", len(proxies))

	if *pprofAddr != "" {
		go func() {
			mux := http.NewServeMux()
			mux.HandleFunc("/debug/pprof/", pprof.Index)
			mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
			mux.Handle("/debug/pprof/heap", pprof.Handler("heap"))
			mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
			log.Warn("pprof", "err", http.ListenAndServe(*pprofAddr, mux))
		}()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(l) }()
	select {
	case err := <-errc:
		if err != nil {
			fmt.Fprintf(stderr, "serve: %v\n", err)
			return 1
		}
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Error("shutdown", "err", err)
		return 1
	}
	log.Info("stopped")
	return 0
}

func portOf(hostport string) string {
	_, p, err := net.SplitHostPort(hostport)
	if err != nil {
		return hostport
	}
	return p
}

// offIfZero maps a flag's "0: no limit" to server.Config's: there zero
// means the default and a negative value no limit.
func offIfZero[T int | float64 | time.Duration](v T) T {
	if v == 0 {
		return -1
	}
	return v
}

// defaultNodeName is a cluster node's name when -node is not given: the
// host name and the port of -addr (or the process id for port 0), made a
// valid node name.
func defaultNodeName(addr string) string {
	host, _ := os.Hostname()
	_, port, _ := net.SplitHostPort(addr)
	if port == "" || port == "0" {
		port = strconv.Itoa(os.Getpid())
	}
	name := []byte(host + "-" + port)
	for i, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			name[i] = '_'
		}
	}
	if len(name) > 64 {
		name = name[len(name)-64:]
	}
	return string(name)
}
