package server

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"cardroom/games"
	"cardroom/protocol"
	"cardroom/store"
	"cardroom/table"
)

// FuzzClientSession plays a hostile client against a running room: the
// input is read as a sequence of up to maxFuzzMessages WebSocket messages
// of every client type, whose fields are drawn from the input — tables
// that exist (its own, another player's open table) and that do not,
// seats and numbers far out of range, moves from the last legal list and
// garbage, options, bot levels, chat fields — sent on one connection as
// fast as it can (hostileSession). The room's contract for bad input: it
// answers every message with a known server message (an error with a
// known code for a refusal), never closes the connection (fewer messages
// than the refusals that close one), and still answers a ping after the
// sequence, with /healthz still up. A panic in any handler fails the
// run. The other player's table stays as it was unless the fuzzer joined
// or watched it. Most inputs start with a game of the fuzzer against two
// bots, and every state message it received passes the leak sweep: its
// view is the engine's view of its seat at that step, replayed from the
// stored log, and no card outside that view appears in the message or
// its history entries (sweepHostile).
func FuzzClientSession(f *testing.F) {
	addHostileSeeds(f)
	ts := startServerCfg(f, f.TempDir(), hostileConfig(Config{Store: store.NewMemory()}))
	f.Fuzz(func(t *testing.T, data []byte) { hostileSession(t, data, ts, ts, false) })
}

// FuzzAnonymousSession is FuzzClientSession for a connection without a
// session (an anonymous spectator, which may only watch): everything
// else is refused with a known code, nothing changes, and the other
// player's table is a game in play, so the states it watches pass the
// leak sweep as a spectator's (no hand at all).
func FuzzAnonymousSession(f *testing.F) {
	addHostileSeeds(f)
	ts := startServerCfg(f, f.TempDir(), hostileConfig(Config{Store: store.NewMemory()}))
	f.Fuzz(func(t *testing.T, data []byte) { hostileSession(t, data, ts, ts, true) })
}

// hostileConfig is cfg with the per-address and per-player request
// limits out of the fuzzer's way (its inputs all come from one address,
// one after another) and bots that move almost at once (a game of bots
// at full speed would send a watcher thousands of states an input).
func hostileConfig(cfg Config) Config {
	cfg.Rate, cfg.Burst, cfg.HTTPRate = 10000, 10000, -1
	cfg.SessionsPerIPPerHour, cfg.OpenTablesPerIP, cfg.TablesPerIP, cfg.MaxConnsPerIP = -1, -1, -1, -1
	cfg.HintsPerMinute, cfg.HintsPerIPPerMinute = -1, -1
	cfg.Table.BotDelay = 2 * time.Millisecond
	return cfg
}

// addHostileSeeds adds the hostile sessions' seeds: a few short
// sequences written by hand, and long inputs from a fixed generator, so
// that a plain test run (the seeds alone) plays whole sequences of every
// kind.
func addHostileSeeds(f *testing.F) {
	for _, seed := range [][]byte{
		{},
		{1, 0, 0, 1, 2},                      // create, then join
		{1, 3, 0, 8, 0, 8, 0, 8, 0, 8, 0, 8}, // a game with bots, then moves from the legal list
		{2, 1, 0, 200, 3, 1, 4, 1, 0, 9},     // join the other table at seat −56, leave, add a bot
		{11, 1, 0, 0, 'h', 'i', 12, 0, 1, 13, 0, 255, 255, 255, 14, 0, 1},
		{9, 0, 1, 7, 0, 9, 2, 0, 5, 2, 0, 6, 0, 0},
		{1, 2, 5, 255, 255, 1, 4, 250, 5, 1, 7},
	} {
		f.Add(seed)
	}
	rng := rand.New(rand.NewPCG(16, 14))
	for range 6 {
		b := make([]byte, 400)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		f.Add(b)
	}
}

// hostileSession is one input of FuzzClientSession: the fuzzer connects
// to at (anonymously if anon), and the other player's table is made on
// home (a game in play if anon, open otherwise).
func hostileSession(t *testing.T, data []byte, at, home *testServer, anon bool) {
	serverTypes := protocol.ServerTypes()
	defer stopTables(at.s)
	defer stopTables(home.s)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// Another player's open table, for the fuzzer to join, watch,
	// chat at and fiddle with.
	hostTok, _, err := home.s.NewSession(ctx, "host")
	if err != nil {
		t.Fatal(err)
	}
	var other struct {
		ID string `json:"id"`
	}
	bots := map[string]string{"1": "random"}
	if anon {
		// The host never passes: the game waits for it, in play.
		bots = map[string]string{"1": "random", "2": "random", "3": "random"}
	}
	if code := httpJSON(t, "POST", home.url+"/api/tables", hostTok, map[string]any{"game": "papayoo", "seat": 0,
		"bots": bots}, &other); code != 200 {
		t.Fatalf("the other player's table: %d", code)
	}
	before := home.s.table(other.ID).Summary()
	tok := ""
	if !anon {
		if tok, _, err = at.s.NewSession(ctx, "fuzzer"); err != nil {
			t.Fatal(err)
		}
	}
	pc, err := protocol.Dial(ctx, at.url, &protocol.Options{Token: tok})
	if err != nil {
		t.Fatal(err)
	}
	defer pc.CloseNow()
	// The reader never blocks: a client that stopped reading while it
	// sends would be cut by the room as too slow (its outgoing queue's
	// bound), which is the room's right.
	var (
		mu      sync.Mutex
		pending []protocol.Incoming
		readErr error
		wake    = make(chan struct{}, 1)
	)
	go func() {
		for {
			m, err := pc.Recv(ctx)
			mu.Lock()
			if err != nil {
				readErr = err
			} else {
				pending = append(pending, m)
			}
			mu.Unlock()
			select {
			case wake <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	g := &fuzzGen{data: data, other: other.ID}
	touched := false // the fuzzer joined or watched the other table
	var sent []string
	var states [][]byte // every state message, for the leak sweep
	// take checks the messages that arrived, after waiting up to wait
	// for one if none has, and keeps what the next messages can use
	// (created tables, legal moves); it reports whether the final pong
	// was among them.
	take := func(wait time.Duration) bool {
		mu.Lock()
		none := len(pending) == 0 && readErr == nil
		mu.Unlock()
		if none && wait > 0 {
			select {
			case <-wake:
			case <-time.After(wait):
			}
		}
		mu.Lock()
		got, err := pending, readErr
		pending = nil
		mu.Unlock()
		end := false
		for _, m := range got {
			checkFuzzReply(t, m, serverTypes, sent)
			g.learn(m)
			if m.Type == protocol.TypeState {
				states = append(states, m.Raw)
			}
			var p struct {
				ID string `json:"id"`
			}
			end = end || m.Type == protocol.TypePong && json.Unmarshal(m.Raw, &p) == nil && p.ID == "end"
		}
		if err != nil && !end {
			t.Fatalf("the room closed the connection after %q: %v (%d cut as too slow in all)", sent, err, at.s.slowKicks.Load())
		}
		return end
	}
	if len(data) > 0 && data[0]%4 != 0 {
		// Most inputs start with a game the fuzzer plays against two
		// bots (the first byte chooses the game), so the sequence meets
		// a game in progress: its moves, hints, rematches and states.
		g.i++
		names := games.Names()
		name := names[int(data[0]/4)%len(names)]
		opts := maps.Clone(quickOptions(name))
		if opts == nil {
			opts = map[string]string{}
		}
		opts["players"] = "3"
		b, _ := json.Marshal(map[string]any{"type": protocol.TypeCreate, "game": name, "options": opts, "seat": 0,
			"bots": map[string]string{"1": "random", "2": "random"}})
		sent = append(sent, string(b))
		if err := pc.SendRaw(ctx, b); err != nil {
			t.Fatalf("send %s: %v", b, err)
		}
	}
	// progress: the last message sent moves a game on (a create, a join,
	// a move), so the next one waits a little for the answer and the
	// sequence plays from fresh states.
	progress := len(sent) > 0
	for n := 0; n < maxFuzzMessages && g.more(); n++ {
		wait := time.Duration(0)
		if progress {
			wait = 30 * time.Millisecond
		}
		take(wait)
		b, tbl, typ := g.message()
		progress = typ == protocol.TypeCreate || typ == protocol.TypeJoin || typ == protocol.TypeMove
		if tbl == other.ID && (typ == protocol.TypeJoin || typ == protocol.TypeWatch) {
			touched = true
		}
		sent = append(sent, string(b))
		if err := pc.SendRaw(ctx, b); err != nil {
			t.Fatalf("send %s after %q: %v", b, sent, err)
		}
	}
	if err := pc.SendRaw(ctx, []byte(`{"type":"ping","id":"end"}`)); err != nil {
		t.Fatalf("send ping after %q: %v", sent, err)
	}
	for !take(time.Second) {
		if ctx.Err() != nil {
			t.Fatalf("no pong after %q", sent)
		}
	}
	if code := httpJSON(t, "GET", at.url+"/healthz", "", nil, nil); code != 200 {
		t.Fatalf("after %q: /healthz %d", sent, code)
	}
	sweepHostile(t, at, append(g.mine, other.ID), states, sent)
	if !touched {
		after := home.s.table(other.ID).Summary()
		if after.Status != before.Status || len(after.Seats) != len(before.Seats) || after.Owner != before.Owner {
			t.Errorf("the other player's table changed without the fuzzer at it: %+v → %+v after %q", before, after, sent)
		}
		for i := range after.Seats {
			if after.Seats[i].Player != before.Seats[i].Player || after.Seats[i].Kind != before.Seats[i].Kind {
				t.Errorf("seat %d of the other table changed: %+v → %+v after %q", i, before.Seats[i], after.Seats[i], sent)
			}
		}
	}
}

// sweepHostile runs the leak sweep over the state messages the fuzzer
// received from the tables it played at or watched: each one's view must
// be the engine's view of the seat it names at that step (replayed from
// the stored log), and carry no card outside it; each history entry must
// be the engine's and show no card outside the view at its own step.
func sweepHostile(t *testing.T, at *testServer, ids []string, states [][]byte, sent []string) {
	t.Helper()
	ctx := context.Background()
	byTable := map[string][][]byte{}
	for _, b := range states {
		var h struct {
			Table string `json:"table"`
		}
		if json.Unmarshal(b, &h) == nil {
			byTable[h.Table] = append(byTable[h.Table], b)
		}
	}
	// One node's store: a cluster's nodes share their database.
	st := at.s.store
	for _, id := range ids {
		mine := byTable[id]
		if len(mine) == 0 {
			continue
		}
		meta, err := st.Table(ctx, id)
		if err != nil {
			t.Fatalf("table %s: %v", id, err)
		}
		events, err := st.Events(ctx, id)
		if err != nil {
			t.Fatalf("table %s: events: %v", id, err)
		}
		eng, err := games.Lookup(meta.Game)
		if err != nil {
			t.Fatalf("table %s: %v", id, err)
		}
		rec := table.Record(meta, events)
		views, _ := replayViews(t, eng, rec)
		hist := historyOf(t, eng, rec)
		for _, b := range mine {
			sweep(func(format string, args ...any) {
				t.Errorf("after %q: "+format, append([]any{sent}, args...)...)
			}, eng.Deck(), "fuzzer", b, views, hist)
		}
	}
}

// maxFuzzMessages bounds one input's messages: under the refusals in a row
// that close a connection (40), so a closed connection is a failure.
const maxFuzzMessages = 30

// checkFuzzReply checks one server message of FuzzClientSession: a
// known type, and an error with a known code and a message.
func checkFuzzReply(t *testing.T, m protocol.Incoming, types []string, sent []string) {
	t.Helper()
	if !slices.Contains(types, m.Type) {
		t.Fatalf("a server message of unknown type %q: %s after %q", m.Type, m.Raw, sent)
	}
	if _, err := m.Decode(); err != nil {
		t.Fatalf("a server message that does not decode (%v): %s after %q", err, m.Raw, sent)
	}
	if m.Type != protocol.TypeError {
		return
	}
	var e struct {
		Code    protocol.Code `json:"code"`
		Message string        `json:"message"`
	}
	if err := json.Unmarshal(m.Raw, &e); err != nil || !e.Code.Known() || e.Message == "" {
		t.Fatalf("an error without a known code and a message: %s after %q", m.Raw, sent)
	}
}

// fuzzGen turns FuzzClientSession's input into client messages.
type fuzzGen struct {
	data  []byte
	i     int
	other string   // another player's open table
	mine  []string // tables the fuzzer created or joined
	legal []string // the last legal list it was sent
	lines []int64  // chat line ids it has seen
}

func (g *fuzzGen) more() bool { return g.i < len(g.data) }

func (g *fuzzGen) byte() byte {
	if g.i >= len(g.data) {
		return 0
	}
	b := g.data[g.i]
	g.i++
	return b
}

func (g *fuzzGen) pick(xs ...string) string { return xs[int(g.byte())%len(xs)] }

// learn keeps what later messages can refer to: tables, legal moves,
// chat lines.
func (g *fuzzGen) learn(m protocol.Incoming) {
	var v struct {
		Table string   `json:"table"`
		ID    int64    `json:"line"`
		Legal []string `json:"legal"`
	}
	if json.Unmarshal(m.Raw, &v) != nil {
		return
	}
	switch m.Type {
	case protocol.TypeCreated, protocol.TypeJoined:
		if v.Table != "" && !slices.Contains(g.mine, v.Table) && len(g.mine) < 8 {
			g.mine = append(g.mine, v.Table)
		}
	case protocol.TypeState:
		if len(v.Legal) > 0 {
			g.legal = v.Legal
		}
	case protocol.TypeChat:
		var c struct {
			ID int64 `json:"id"`
		}
		json.Unmarshal(m.Raw, &c)
		if c.ID > 0 && len(g.lines) < 16 {
			g.lines = append(g.lines, c.ID)
		}
	}
}

func (g *fuzzGen) table() string {
	switch g.byte() % 5 {
	case 0:
		return g.other
	case 1, 2:
		if len(g.mine) > 0 {
			return g.mine[int(g.byte())%len(g.mine)]
		}
		return g.other
	case 3:
		return "t_" + strconv.Itoa(int(g.byte()))
	default:
		return g.pick("", "x", "t_"+string(rune(0x202e)), "../../etc", "t_00000000")
	}
}

// num is a number from the input, small or at an edge.
func (g *fuzzGen) num() int64 {
	switch b := g.byte(); b % 4 {
	case 0:
		return int64(int8(g.byte()))
	case 1:
		return []int64{-1 << 63, 1<<63 - 1, 1 << 31, -1 << 31, 1e9, 1 << 53}[int(g.byte())%6]
	default:
		return int64(g.byte()) - 8
	}
}

func (g *fuzzGen) text() string {
	n := int(g.byte() % 12)
	var b []byte
	for k := 0; k < n; k++ {
		b = append(b, g.byte())
	}
	return string(b)
}

func (g *fuzzGen) move() string {
	switch g.byte() % 4 {
	case 0, 1:
		if len(g.legal) > 0 {
			return g.legal[int(g.byte())%len(g.legal)]
		}
		return "play 7H"
	case 2:
		return g.pick("play", "pass", "pass 1S 2S 3S 4S 5S", "draw", "play 7D JOKER", "take", "meld 8S 8H 8D", "discard", "play 20P", "say ♥", "play 1S 1S")
	default:
		return g.text()
	}
}

func (g *fuzzGen) options() map[string]any {
	o := map[string]any{}
	for k := int(g.byte() % 3); k > 0; k-- {
		o[g.pick("players", "rounds", "decks", "jokers", "target", "hands", "stock_exhausted", "x", "")] =
			g.pick("1", "2", "3", "4", "8", "0", "-1", "99999999999999999999", "yes", "", strconv.FormatInt(g.num(), 10))
	}
	return o
}

// message builds the next client message; it returns its bytes, its
// table and its type.
func (g *fuzzGen) message() ([]byte, string, string) {
	// Moves are drawn as often as five other types together.
	types := append(protocol.ClientTypes(), protocol.TypeMove, protocol.TypeMove, protocol.TypeMove, protocol.TypeMove)
	typ := types[int(g.byte())%len(types)]
	m := map[string]any{"type": typ}
	if g.byte()%3 != 0 {
		m["id"] = g.num()
	}
	tbl := ""
	switch typ {
	case protocol.TypeCreate:
		m["game"] = g.pick(append(games.Names(), "chess", "")...)
		m["options"] = g.options()
		if g.byte()%2 == 0 {
			m["seat"] = g.num()
		}
		switch g.byte() % 4 {
		case 0:
			m["bots"] = map[string]string{"1": "random", "2": "random", "3": "random"}
		case 1:
			m["bots"] = map[string]string{strconv.FormatInt(g.num(), 10): g.pick("random", "easy", "medium", "hard", "ceiling", "x")}
		}
		if g.byte()%4 == 0 {
			m["clock_ms"] = g.num()
		}
		m["private"] = g.byte()%4 == 0
		m["rated"] = g.byte()%5 == 0
		if g.byte()%4 == 0 {
			m["when_empty"] = g.pick("bots", "close", "x", "")
		}
	case protocol.TypeLobby:
		m["subscribe"] = g.byte()%2 == 0
	case protocol.TypePing:
	default:
		tbl = g.table()
		if typ == protocol.TypeMove && len(g.mine) > 0 && g.byte()%4 != 0 {
			tbl = g.mine[0] // mostly the game in progress
		}
		m["table"] = tbl
		if g.byte()%3 == 0 {
			m["seat"] = g.num()
		}
		switch typ {
		case protocol.TypeJoin:
			if g.byte()%3 == 0 {
				m["invite"] = g.text()
			}
		case protocol.TypeAddBot, protocol.TypeRemoveBot:
			m["level"] = g.pick("random", "easy", "medium", "hard", "ceiling", "", "bot:hard")
		case protocol.TypeMove:
			m["move"] = g.move()
		case protocol.TypeChat:
			m["channel"] = g.pick(protocol.ChannelPlayers, protocol.ChannelSpectators, "x", "")
			if g.byte()%2 == 0 {
				m["text"] = g.text()
			} else {
				m["phrase"] = g.pick("gg", "hello", "thanks", "x", "")
			}
		case protocol.TypeChatSettings:
			m["show_spectators"] = g.byte()%2 == 0
			m["spectator_chat"] = g.byte()%2 == 0
		case protocol.TypeChatReport:
			if len(g.lines) > 0 && g.byte()%2 == 0 {
				m["line"] = g.lines[int(g.byte())%len(g.lines)]
			} else {
				m["line"] = g.num()
			}
			m["reason"] = g.pick("abuse", "spam", "x", "")
		case protocol.TypeRematch:
			m["accept"] = g.byte()%2 == 0
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(fmt.Sprint("fuzz message: ", err))
	}
	return b, tbl, typ
}
