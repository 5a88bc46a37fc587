// Package store keeps what the card room must not forget: sessions, tables
// (their settings and seats) and each table's event log, which is exactly the
// entries of the game's record. Everything a table holds in memory can be
// rebuilt from its row and its log, so a restarted server (or, later, another
// node) resumes every unfinished game.
//
// Store is the small interface the server uses; SQLite (embedded, the
// default) implements it, and Memory is a map-backed version for tests.
// A PostgreSQL implementation can be added behind the same interface.
package store

import (
	"context"
	"errors"
	"sort"
	"sync"
	"time"

	"cardroom/record"
)

// ErrNotFound is returned when a session or table does not exist.
var ErrNotFound = errors.New("not found")

// ErrConflict is returned when an event's sequence number is already taken.
var ErrConflict = errors.New("conflict: event already logged")

// Session is a guest's identity. Only the token's hash is stored.
type Session struct {
	TokenHash string
	Player    string
	Name      string
	Created   time.Time
	Expires   time.Time
}

// Table statuses.
const (
	StatusOpen     = "open"
	StatusPlaying  = "playing"
	StatusFinished = "finished"
)

// Seat is who sits at one seat of a table: a player (Player set), a bot
// (Bot set to its level) or nobody.
type Seat struct {
	Player string
	Name   string
	Bot    string
}

// Table is a table's settings and state outside the event log.
type Table struct {
	ID       string
	Game     string
	Options  string // game.Options.String()
	Private  bool
	Invite   string
	ClockMS  int
	BotLevel string
	Owner    string
	Seed     uint64
	Created  time.Time
	Status   string
	Result   string // record.ResultText
	Finished time.Time
	Seats    []Seat
}

// Store is the persistence the server needs.
type Store interface {
	CreateSession(ctx context.Context, s Session) error
	// Session returns the session with the token hash; ErrNotFound if none.
	Session(ctx context.Context, tokenHash string) (Session, error)
	DeleteSession(ctx context.Context, tokenHash string) error

	// CreateTable stores a new table (with its seats).
	CreateTable(ctx context.Context, t Table) error
	// UpdateTable stores a table's status, result and seats.
	UpdateTable(ctx context.Context, t Table) error
	// Table returns one table.
	Table(ctx context.Context, id string) (Table, error)
	// Unfinished lists the tables that are open or playing.
	Unfinished(ctx context.Context) ([]Table, error)
	// History lists the tables where player holds a seat, newest first.
	History(ctx context.Context, player string, limit int) ([]Table, error)

	// Append logs entry number seq (0-based) of a table's event log and
	// returns once it is durable (committed). A seq already logged is
	// ErrConflict.
	Append(ctx context.Context, table string, seq int, e record.Entry) error
	// Events returns a table's event log in order.
	Events(ctx context.Context, table string) ([]record.Entry, error)

	Close() error
}

// Memory is an in-memory Store for tests.
type Memory struct {
	mu       sync.Mutex
	sessions map[string]Session
	tables   map[string]Table
	events   map[string][]record.Entry
	// FailAppend, when set, makes Append fail (to test storage faults).
	FailAppend error
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory {
	return &Memory{sessions: map[string]Session{}, tables: map[string]Table{}, events: map[string][]record.Entry{}}
}

func (m *Memory) CreateSession(_ context.Context, s Session) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sessions[s.TokenHash] = s
	return nil
}

func (m *Memory) Session(_ context.Context, h string) (Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.sessions[h]
	if !ok {
		return Session{}, ErrNotFound
	}
	return s, nil
}

func (m *Memory) DeleteSession(_ context.Context, h string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.sessions, h)
	return nil
}

func (m *Memory) CreateTable(_ context.Context, t Table) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.tables[t.ID]; ok {
		return ErrConflict
	}
	t.Seats = append([]Seat(nil), t.Seats...)
	m.tables[t.ID] = t
	return nil
}

func (m *Memory) UpdateTable(_ context.Context, t Table) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.tables[t.ID]; !ok {
		return ErrNotFound
	}
	t.Seats = append([]Seat(nil), t.Seats...)
	m.tables[t.ID] = t
	return nil
}

func (m *Memory) Table(_ context.Context, id string) (Table, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tables[id]
	if !ok {
		return Table{}, ErrNotFound
	}
	t.Seats = append([]Seat(nil), t.Seats...)
	return t, nil
}

func (m *Memory) Unfinished(_ context.Context) ([]Table, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Table
	for _, t := range m.tables {
		if t.Status != StatusFinished {
			t.Seats = append([]Seat(nil), t.Seats...)
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func (m *Memory) History(_ context.Context, player string, limit int) ([]Table, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Table
	for _, t := range m.tables {
		for _, s := range t.Seats {
			if s.Player == player {
				t.Seats = append([]Seat(nil), t.Seats...)
				out = append(out, t)
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.After(out[j].Created) })
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

func (m *Memory) Append(_ context.Context, table string, seq int, e record.Entry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.FailAppend != nil {
		return m.FailAppend
	}
	ev := m.events[table]
	if seq != len(ev) {
		return ErrConflict
	}
	e.Line = 0
	m.events[table] = append(ev, e)
	return nil
}

func (m *Memory) Events(_ context.Context, table string) ([]record.Entry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]record.Entry(nil), m.events[table]...), nil
}

func (m *Memory) Close() error { return nil }
