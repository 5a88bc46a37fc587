package server

import (
	"encoding/json"
	"sort"
	"sync"
	"time"

	"cardroom/store"
	"cardroom/table"
)

// MaxLobby bounds the tables listed in the lobby.
const MaxLobby = 500

// lobby keeps the public tables' summaries and pushes the list to the
// subscribed connections, at most every 200 ms.
type lobby struct {
	s       *Server
	mu      sync.Mutex
	entries map[string]*table.Summary
	subs    map[*conn]struct{}
	dirty   bool
	quit    chan struct{}
	once    sync.Once
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
			l.dirty = true
		}
		return
	}
	l.entries[sum.ID] = sum.Public()
	l.dirty = true
}

func (l *lobby) remove(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.entries[id]; ok {
		delete(l.entries, id)
		l.dirty = true
	}
}

// list returns the lobby: open tables first (newest first), then playing ones.
func (l *lobby) list() []*table.Summary {
	l.mu.Lock()
	out := make([]*table.Summary, 0, len(l.entries))
	for _, e := range l.entries {
		out = append(out, e)
	}
	l.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.Status == store.StatusOpen) != (b.Status == store.StatusOpen) {
			return a.Status == store.StatusOpen
		}
		if !a.Created.Equal(b.Created) {
			return a.Created.After(b.Created)
		}
		return a.ID < b.ID
	})
	if len(out) > MaxLobby {
		out = out[:MaxLobby]
	}
	return out
}

func (l *lobby) message() []byte {
	b, _ := json.Marshal(struct {
		Type   string           `json:"type"`
		Tables []*table.Summary `json:"tables"`
	}{"lobby", l.list()})
	return b
}

func (l *lobby) subscribe(c *conn, on bool) {
	l.mu.Lock()
	if on {
		l.subs[c] = struct{}{}
	} else {
		delete(l.subs, c)
	}
	l.mu.Unlock()
	if on {
		c.Send(l.message())
	}
}

func (l *lobby) loop() {
	tk := time.NewTicker(200 * time.Millisecond)
	defer tk.Stop()
	for {
		select {
		case <-l.quit:
			return
		case <-tk.C:
		}
		l.mu.Lock()
		if !l.dirty || len(l.subs) == 0 {
			l.mu.Unlock()
			continue
		}
		l.dirty = false
		subs := make([]*conn, 0, len(l.subs))
		for c := range l.subs {
			subs = append(subs, c)
		}
		l.mu.Unlock()
		msg := l.message()
		for _, c := range subs {
			c.Send(msg)
		}
	}
}
