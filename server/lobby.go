package server

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"cardroom/protocol"
	"cardroom/store"
	"cardroom/table"
)

// MaxLobby bounds the tables listed in the lobby.
const MaxLobby = 500

// lobbyEvery is the shortest interval between two encodings of the lobby:
// what subscribers are pushed and what GET /api/tables answers is at most
// that old.
const lobbyEvery = 200 * time.Millisecond

// lobby keeps the public tables' summaries and pushes the list to the
// subscribed connections, at most every lobbyEvery.
//
// The list is encoded once per change, not once per reader: with 500
// tables, sorting and marshalling it for every GET /api/tables cost about
// 3 ms of CPU (329 requests a second took 0.66 core). The encoded bytes
// are kept (cache) and rebuilt only when an entry changed (ver ahead of
// the cache's), at most every lobbyEvery; the HTTP answer and the
// WebSocket message share the one encoding of the list.
type lobby struct {
	s       *Server
	mu      sync.Mutex
	entries map[string]*table.Summary
	subs    map[*conn]struct{}
	// ver counts the changes to entries; pushed is the version last
	// pushed to the subscribers.
	ver, pushed uint64
	cache       *lobbyCache
	quit        chan struct{}
	once        sync.Once
	// build serializes the encodings, so that a burst of requests on a
	// stale cache encodes the list once.
	build sync.Mutex
	// onlineMu guards onlineC, the cached GET /api/online answer.
	onlineMu sync.Mutex
	onlineC  *onlineCache
}

// lobbyCache is the lobby encoded at version ver. Its slices are never
// modified: readers use them without the lock.
type lobbyCache struct {
	ver   uint64
	built time.Time
	http  []byte // the body of GET /api/tables: {"tables":[…]}\n
	ws    []byte // the lobby message: {"type":"lobby","tables":[…]}
}

func newLobby(s *Server) *lobby {
	l := &lobby{s: s, entries: map[string]*table.Summary{}, subs: map[*conn]struct{}{}, quit: make(chan struct{})}
	go l.loop()
	return l
}

func (l *lobby) stop() { l.once.Do(func() { close(l.quit) }) }

func (l *lobby) update(sum *table.Summary) {
	if sum == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if sum.Private || sum.Status == store.StatusFinished {
		if _, ok := l.entries[sum.ID]; ok {
			delete(l.entries, sum.ID)
			l.ver++
		}
		return
	}
	l.entries[sum.ID] = sum.Public()
	l.ver++
}

func (l *lobby) remove(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.entries[id]; ok {
		delete(l.entries, id)
		l.ver++
	}
}

// list returns the lobby: open tables first, those someone waits at (a
// seated player connected) before the others, each newest first; then
// playing ones; at most MaxLobby.
func (l *lobby) list() []*table.Summary {
	l.mu.Lock()
	out := make([]*table.Summary, 0, len(l.entries))
	for _, e := range l.entries {
		out = append(out, e)
	}
	l.mu.Unlock()
	sortLobby(out)
	if len(out) > MaxLobby {
		out = out[:MaxLobby]
	}
	return out
}

// sortLobby orders the lobby. An open table whose seated players are all
// gone is one nobody is waiting at (it closes at -open-ttl): it comes
// after the ones a player waits at, so that stale tables, even hundreds
// of them made with cheap guest sessions, cannot push those off the
// lobby's page.
func sortLobby(out []*table.Summary) {
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.Status == store.StatusOpen) != (b.Status == store.StatusOpen) {
			return a.Status == store.StatusOpen
		}
		if wa, wb := waitedAt(a), waitedAt(b); a.Status == store.StatusOpen && wa != wb {
			return wa
		}
		if !a.Created.Equal(b.Created) {
			return a.Created.After(b.Created)
		}
		return a.ID < b.ID
	})
}

// waitedAt reports whether a seated player is connected to the table.
func waitedAt(s *table.Summary) bool {
	for _, si := range s.Seats {
		if si.Kind == protocol.SeatHuman && si.Connected {
			return true
		}
	}
	return false
}

// encoded returns the lobby's encoding, rebuilding it if an entry changed
// since it was built and it is at least lobbyEvery old (or if fresh is
// set: the loop, which runs every lobbyEvery anyway). A change younger
// than that is served at the next rebuild; the loop pushes it to the
// subscribers.
func (l *lobby) encoded(fresh bool) *lobbyCache {
	l.mu.Lock()
	c := l.cache
	stale := c == nil || c.ver != l.ver && (fresh || time.Since(c.built) >= lobbyEvery)
	l.mu.Unlock()
	if !stale {
		return c
	}
	l.build.Lock()
	defer l.build.Unlock()
	l.mu.Lock()
	if c = l.cache; c != nil && c.ver == l.ver {
		l.mu.Unlock()
		return c // built while we waited
	}
	ver := l.ver
	l.mu.Unlock()
	list := l.list() // may include changes after ver: they are rebuilt later
	tables, _ := json.Marshal(list)
	c = &lobbyCache{ver: ver, built: time.Now()}
	c.http = make([]byte, 0, len(tables)+12)
	c.http = append(append(append(c.http, `{"tables":`...), tables...), "}\n"...)
	c.ws = protocol.AppendLobby(make([]byte, 0, len(tables)+27), tables)
	l.mu.Lock()
	if l.cache == nil || l.cache.ver < ver {
		l.cache = c
	}
	l.mu.Unlock()
	return c
}

// httpBody is the body of GET /api/tables ({"tables": [summary, …]}).
func (l *lobby) httpBody() []byte { return l.encoded(false).http }

// message is the lobby message of the protocol.
func (l *lobby) message() []byte { return l.encoded(false).ws }

func (l *lobby) subscribe(c *conn, on bool) {
	l.mu.Lock()
	if on {
		l.subs[c] = struct{}{}
	} else {
		delete(l.subs, c)
	}
	l.mu.Unlock()
	if on {
		// Possibly up to lobbyEvery old: then the version is ahead of
		// pushed, and the loop sends the change.
		c.Send(l.message())
	}
}

func (l *lobby) loop() {
	tk := time.NewTicker(lobbyEvery)
	defer tk.Stop()
	for {
		select {
		case <-l.quit:
			return
		case <-tk.C:
		}
		l.mu.Lock()
		if l.ver == l.pushed || len(l.subs) == 0 {
			l.mu.Unlock()
			continue
		}
		l.mu.Unlock()
		c := l.encoded(true)
		l.mu.Lock()
		l.pushed = c.ver
		subs := make([]*conn, 0, len(l.subs))
		for c := range l.subs {
			subs = append(subs, c)
		}
		l.mu.Unlock()
		for _, s := range subs {
			s.Send(c.ws)
		}
	}
}

// onlineEvery is how long an answer of GET /api/online is reused: the
// list is built by walking every connection under the server's lock, which
// a flood of requests must not repeat each time.
const onlineEvery = time.Second

// onlineCache is an encoded GET /api/online answer; body is never
// modified once built.
type onlineCache struct {
	built time.Time
	body  []byte
}

// online answers who is connected: the distinct players with an open
// WebSocket, at most protocol.MaxOnlineListed named (by name, then id),
// all counted. Encoded at most every onlineEvery.
func (l *lobby) online() []byte {
	l.onlineMu.Lock()
	defer l.onlineMu.Unlock()
	if c := l.onlineC; c != nil && time.Since(c.built) < onlineEvery {
		return c.body
	}
	s := l.s
	byPlayer := map[string]protocol.OnlinePlayer{}
	add := func(p protocol.OnlinePlayer) {
		p.Account = p.Account || byPlayer[p.Player].Account
		p.BotAccount = p.BotAccount || byPlayer[p.Player].BotAccount
		byPlayer[p.Player] = p
	}
	for _, p := range s.localOnline(0) {
		add(p)
	}
	if s.cl != nil {
		for _, p := range s.cl.peersOnline() { // the other nodes' (cluster.go)
			add(p)
		}
	}
	out := protocol.Online{Count: len(byPlayer), Players: make([]protocol.OnlinePlayer, 0, min(len(byPlayer), protocol.MaxOnlineListed))}
	all := make([]protocol.OnlinePlayer, 0, len(byPlayer))
	for _, p := range byPlayer {
		all = append(all, p)
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := strings.ToLower(all[i].Name), strings.ToLower(all[j].Name)
		if a != b {
			return a < b
		}
		return all[i].Player < all[j].Player
	})
	out.Players = append(out.Players, all[:min(len(all), protocol.MaxOnlineListed)]...)
	body, _ := json.Marshal(out)
	l.onlineC = &onlineCache{built: time.Now(), body: append(body, '\n')}
	return l.onlineC.body
}

// handleOnline answers GET /api/online (protocol.Online). Public like the
// lobby list: the names are those the lobby's tables already show.
func (s *Server) handleOnline(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(s.lobby.online())
}

// localOnline lists the players connected to this node (at most limit; 0:
// all).
func (s *Server) localOnline(limit int) []protocol.OnlinePlayer {
	byPlayer := map[string]protocol.OnlinePlayer{}
	s.mu.Lock()
	for c := range s.conns {
		if p := c.sess.Player; p != "" {
			// A player's sockets may predate and follow a claim.
			byPlayer[p] = protocol.OnlinePlayer{Player: p, Name: c.sess.Name, Account: c.account || byPlayer[p].Account}
		}
	}
	s.mu.Unlock()
	out := make([]protocol.OnlinePlayer, 0, len(byPlayer))
	for _, p := range byPlayer {
		if limit > 0 && len(out) == limit {
			break
		}
		p.BotAccount = s.isBotAccount(p.Player) // botaccount.go
		out = append(out, p)
	}
	return out
}
