package store

import (
	"context"
	"errors"
	"sort"
	"sync"
	"time"

	"cardroom/game"
	"cardroom/protocol"
	"cardroom/record"
)

// ErrNotFound is returned when a session or table does not exist.
var ErrNotFound = errors.New("not found")

// ErrConflict is returned when an event's sequence number is already taken.
var ErrConflict = errors.New("conflict: event already logged")

// ErrClosed is returned by a store that is closed (or closing) for a request
// it did not take: such a request is not committed.
var ErrClosed = errors.New("store closed")

// ErrReadOnly is returned for writes to a store opened read-only
// (OpenSQLiteReadOnly, which `cardroom doctor` uses).
var ErrReadOnly = errors.New("store opened read-only")

// Session is a guest's identity. Only the token's hash is stored.
type Session struct {
	TokenHash string
	Player    string
	Name      string
	Created   time.Time
	Expires   time.Time
}

// Table statuses. Only open and playing tables are "unfinished" (loaded
// again on start); finished and closed ones are history.
// The type is the protocol's: the same words are sent to clients.
type Status = protocol.TableStatus

// The statuses.
const (
	StatusOpen     = protocol.StatusOpen
	StatusPlaying  = protocol.StatusPlaying
	StatusFinished = protocol.StatusFinished
	// StatusClosed is an open table that expired before anyone played: it
	// is neither resumed on start nor listed in a player's history.
	StatusClosed = protocol.StatusClosed
)

// IsUnfinished reports whether a table with this status is resumed on start.
func IsUnfinished(status Status) bool { return status == StatusOpen || status == StatusPlaying }

// Seat is who sits at one seat of a table: a player (Player set), a bot
// (Bot set to its level) or nobody.
type Seat struct {
	Player string
	Name   string
	Bot    string
	// Account says the player held an account when they sat down: the
	// name was theirs, not a guest's that may look like an account's (a
	// guest who took a name before it was claimed keeps it for the
	// session). Tables show it beside the name (docs/accounts.md).
	Account bool
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
	Status   Status
	Result   string      // record.ResultText
	Winners  []game.Seat // the winning seats of a finished game (several on a shared win)
	// StandIn lists the human seats a bot played for at least once (the
	// player absent past the grace period, or out of time), in seat order.
	StandIn  []game.Seat
	Finished time.Time
	Seats    []Seat
	Rated    bool // a rated game (docs/ratings.md): fixed options, no hints
	// WhenEmpty is what the table does once only bots are left
	// (protocol.WhenEmptyPause, the default when empty, or WhenEmptyEnd).
	WhenEmpty string
}

// Store is the persistence the server needs.
type Store interface {
	CreateSession(ctx context.Context, s Session) error
	// Session returns the session with the token hash; ErrNotFound if none.
	// It does not judge expiry (the caller compares Expires with its clock).
	Session(ctx context.Context, tokenHash string) (Session, error)
	DeleteSession(ctx context.Context, tokenHash string) error
	// PurgeSessions deletes every session whose expiry is at or before now
	// and returns how many it deleted, so that guests who never come back
	// do not accumulate for ever.
	PurgeSessions(ctx context.Context, now time.Time) (int, error)
	// CountSessions is the number of stored sessions (a metric).
	CountSessions(ctx context.Context) (int, error)

	// CreateTable stores a new table (with its seats).
	CreateTable(ctx context.Context, t Table) error
	// UpdateTable stores a table's status, result and seats.
	UpdateTable(ctx context.Context, t Table) error
	// Table returns one table.
	Table(ctx context.Context, id string) (Table, error)
	// Unfinished lists the tables that are open or playing, in id order.
	// One unreadable table fails the whole list: a server that must start
	// despite damage uses UnfinishedIDs and loads each table on its own.
	Unfinished(ctx context.Context) ([]Table, error)
	// UnfinishedIDs lists the ids of the open and playing tables, in id
	// order. It reads only the tables' ids and statuses, so damage in one
	// table's seats or log does not hide the others: the server loads each
	// with Table and Events and quarantines the ones that fail.
	UnfinishedIDs(ctx context.Context) ([]string, error)
	// History lists the tables where player holds a seat, newest first.
	// Closed tables (never played) are left out.
	History(ctx context.Context, player string, limit int) ([]Table, error)

	// Append logs entry number seq (0-based) of a table's event log. It
	// returns nil only if the entry is committed (durable), and an error
	// only if it is not committed: never both. A caller whose ctx ends
	// while its entry is still queued gets ctx's error and the entry is
	// dropped; once the store has started committing the entry, Append
	// waits for the outcome whatever ctx says, because the table must know
	// whether its log holds the step. A seq already logged, or past the
	// log's end (it would leave a gap), is ErrConflict.
	Append(ctx context.Context, table string, seq int, e record.Entry) error
	// Events returns a table's whole event log in order, or an error if it
	// cannot: a missing entry (a gap), an entry that does not make sense
	// (a bad seat), or a row the database cannot read. It never returns a
	// silently shorter log, since replaying a prefix would resume a
	// different game.
	Events(ctx context.Context, table string) ([]record.Entry, error)

	Close() error
}

// Memory is an in-memory Store for tests.
type Memory struct {
	mu       sync.Mutex
	sessions map[string]Session
	tables   map[string]Table
	events   map[string][]record.Entry
	accounts map[string]Account  // by player (accounts.go); made on first use
	ratings  *memRatings         // ratings.go; made on first use
	bots     *memBots            // botaccount.go; made on first use
	leases   map[string]memLease // lease.go; made on first use
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

func (m *Memory) PurgeSessions(_ context.Context, now time.Time) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for h, s := range m.sessions {
		if !s.Expires.After(now) {
			delete(m.sessions, h)
			n++
		}
	}
	return n, nil
}

func (m *Memory) CountSessions(context.Context) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.sessions), nil
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
		if IsUnfinished(t.Status) {
			t.Seats = append([]Seat(nil), t.Seats...)
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func (m *Memory) UnfinishedIDs(_ context.Context) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, t := range m.tables {
		if IsUnfinished(t.Status) {
			out = append(out, t.ID)
		}
	}
	sort.Strings(out)
	return out, nil
}

func (m *Memory) History(_ context.Context, player string, limit int) ([]Table, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Table
	for _, t := range m.tables {
		if t.Status == StatusClosed {
			continue
		}
		for _, s := range t.Seats {
			if s.Player == player {
				t.Seats = append([]Seat(nil), t.Seats...)
				out = append(out, t)
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Created.Equal(out[j].Created) {
			return out[i].Created.After(out[j].Created)
		}
		return out[i].ID < out[j].ID
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// Append implements Store. The entry is committed under the lock, so a ctx
// that is already done refuses it before anything happens, and once it is
// in, nothing can undo it: nil and committed coincide, as the contract asks.
func (m *Memory) Append(ctx context.Context, table string, seq int, e record.Entry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.appendLocked(ctx, table, seq, e)
}

// appendLocked is Append under m.mu (AppendFenced checks its lease first).
func (m *Memory) appendLocked(ctx context.Context, table string, seq int, e record.Entry) error {
	if err := ctx.Err(); err != nil {
		return err
	}
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

var (
	_ Store = (*Memory)(nil)
	_ Store = (*SQLite)(nil)
)
