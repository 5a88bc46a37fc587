package store

import (
	"context"
	"errors"
	"sort"
	"time"
)

// ErrNameTaken is returned by CreateAccount when another account has the
// same name skeleton: the name, or one that looks like it, is taken.
var ErrNameTaken = errors.New("name taken by an account")

// ErrHasAccount is returned by CreateAccount for a player who already has
// an account.
var ErrHasAccount = errors.New("the player already has an account")

// Account is a player id that a password protects (docs/accounts.md). A
// guest becomes one by claiming their name: the player id stays, so the
// games and seats recorded under it stay theirs.
type Account struct {
	Player string
	// Name is the display name (the server's validName result).
	Name string
	// Skeleton is Name's confusable skeleton (server/names.go), unique
	// among accounts.
	Skeleton string
	// Hash is the password's argon2id hash in PHC string form
	// ("$argon2id$v=19$m=…,t=…,p=…$salt$hash"): it carries its own
	// parameters and salt.
	Hash            string
	Created         time.Time
	PasswordChanged time.Time
}

// Accounts is the persistence of accounts, beside Store: a store that
// implements it (both of this package's do) enables the account endpoints.
// Sessions are Store's; the methods here list and revoke them by player.
type Accounts interface {
	// CreateAccount stores a new account and, in the same transaction,
	// renames the player's sessions to the account's name. ErrNameTaken if
	// another account has the skeleton, ErrHasAccount if the player has one.
	CreateAccount(ctx context.Context, a Account) error
	// AccountByPlayer returns the player's account, or ErrNotFound for a
	// guest (the ratings' "rated needs an account" check uses it).
	AccountByPlayer(ctx context.Context, player string) (Account, error)
	// AccountBySkeleton returns the account whose name has the skeleton,
	// or ErrNotFound.
	AccountBySkeleton(ctx context.Context, skeleton string) (Account, error)
	// ChangePassword stores a new hash and, in the same transaction,
	// deletes every session of the player but keep (a token hash; "" keeps
	// none). It returns the deleted token hashes, sorted, so their sockets
	// can be closed. ErrNotFound if the player has no account.
	ChangePassword(ctx context.Context, player, hash string, at time.Time, keep string) ([]string, error)
	// Rehash replaces the hash only if it is still old: a login that
	// upgrades the parameters never undoes a concurrent password change.
	Rehash(ctx context.Context, player, old, hash string) error
	// SessionsOf lists the player's sessions, newest first.
	SessionsOf(ctx context.Context, player string) ([]Session, error)
	// DeleteSessionsOf deletes the player's sessions but keep ("" keeps
	// none) and returns the deleted token hashes, sorted.
	DeleteSessionsOf(ctx context.Context, player, keep string) ([]string, error)
	// TrimSessions deletes all but the newest limit sessions of the player
	// and returns the deleted token hashes (the bound on an account's
	// sessions). The session keep ("" for none), the login's own, is never
	// deleted: creation times are kept to the millisecond, so two logins
	// in one millisecond tie, and the one just made could otherwise be the
	// one trimmed.
	TrimSessions(ctx context.Context, player string, limit int, keep string) ([]string, error)
}

var (
	_ Accounts = (*Memory)(nil)
	_ Accounts = (*SQLite)(nil)
)

// keepFirst moves the session keep, if there, to the front of ss (sorted
// newest first), so that trimming to a limit keeps it.
func keepFirst(ss []Session, keep string) {
	if keep == "" {
		return
	}
	for i, s := range ss {
		if s.TokenHash == keep {
			copy(ss[1:i+1], ss[:i])
			ss[0] = s
			return
		}
	}
}

// sortSessions orders sessions newest first (ties by token hash, so the
// order is stable).
func sortSessions(ss []Session) {
	sort.Slice(ss, func(i, j int) bool {
		if !ss[i].Created.Equal(ss[j].Created) {
			return ss[i].Created.After(ss[j].Created)
		}
		return ss[i].TokenHash < ss[j].TokenHash
	})
}

// CreateAccount implements Accounts.
func (m *Memory) CreateAccount(_ context.Context, a Account) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.accounts == nil {
		m.accounts = map[string]Account{}
	}
	if _, ok := m.accounts[a.Player]; ok {
		return ErrHasAccount
	}
	for _, b := range m.accounts {
		if b.Skeleton == a.Skeleton {
			return ErrNameTaken
		}
	}
	m.accounts[a.Player] = a
	for h, s := range m.sessions {
		if s.Player == a.Player {
			s.Name = a.Name
			m.sessions[h] = s
		}
	}
	return nil
}

// AccountByPlayer implements Accounts.
func (m *Memory) AccountByPlayer(_ context.Context, player string) (Account, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.accounts[player]
	if !ok {
		return Account{}, ErrNotFound
	}
	return a, nil
}

// AccountBySkeleton implements Accounts.
func (m *Memory) AccountBySkeleton(_ context.Context, skeleton string) (Account, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, a := range m.accounts {
		if a.Skeleton == skeleton {
			return a, nil
		}
	}
	return Account{}, ErrNotFound
}

// ChangePassword implements Accounts.
func (m *Memory) ChangePassword(_ context.Context, player, hash string, at time.Time, keep string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.accounts[player]
	if !ok {
		return nil, ErrNotFound
	}
	a.Hash, a.PasswordChanged = hash, at
	m.accounts[player] = a
	return m.deleteSessionsOf(player, keep), nil
}

// Rehash implements Accounts.
func (m *Memory) Rehash(_ context.Context, player, old, hash string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.accounts[player]
	if !ok {
		return ErrNotFound
	}
	if a.Hash == old {
		a.Hash = hash
		m.accounts[player] = a
	}
	return nil
}

// SessionsOf implements Accounts.
func (m *Memory) SessionsOf(_ context.Context, player string) ([]Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sessionsOf(player), nil
}

func (m *Memory) sessionsOf(player string) []Session {
	var out []Session
	for _, s := range m.sessions {
		if s.Player == player {
			out = append(out, s)
		}
	}
	sortSessions(out)
	return out
}

// DeleteSessionsOf implements Accounts.
func (m *Memory) DeleteSessionsOf(_ context.Context, player, keep string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.deleteSessionsOf(player, keep), nil
}

func (m *Memory) deleteSessionsOf(player, keep string) []string {
	var out []string
	for h, s := range m.sessions {
		if s.Player == player && h != keep {
			delete(m.sessions, h)
			out = append(out, h)
		}
	}
	sort.Strings(out)
	return out
}

// TrimSessions implements Accounts.
func (m *Memory) TrimSessions(_ context.Context, player string, limit int, keep string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ss := m.sessionsOf(player)
	keepFirst(ss, keep)
	var out []string
	for i := max(0, limit); i < len(ss); i++ {
		delete(m.sessions, ss[i].TokenHash)
		out = append(out, ss[i].TokenHash)
	}
	return out, nil
}
