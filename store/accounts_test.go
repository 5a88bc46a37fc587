package store

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// accountStores are both implementations of Accounts, with their Store.
func accountStores(t *testing.T) map[string]interface {
	Store
	Accounts
} {
	sq, err := OpenSQLite(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sq.Close() })
	m := map[string]interface {
		Store
		Accounts
	}{"sqlite": sq, "memory": NewMemory()}
	if p := pgStore(t); p != nil {
		m["postgres"] = p
	}
	return m
}

// TestAccountsContract runs the same checks on every implementation:
// creation and its refusals, lookups, the sessions' rename, password
// change with revocation, rehash, and listing and trimming sessions.
func TestAccountsContract(t *testing.T) {
	for name, st := range accountStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			now := time.Now().UTC().Truncate(time.Millisecond)
			for i, h := range []string{"h1", "h2", "h3"} {
				s := Session{TokenHash: h, Player: "p1", Name: "anna", Created: now.Add(time.Duration(i) * time.Second), Expires: now.Add(time.Hour)}
				if err := st.CreateSession(ctx, s); err != nil {
					t.Fatal(err)
				}
			}
			st.CreateSession(ctx, Session{TokenHash: "other", Player: "p2", Name: "bob", Created: now, Expires: now.Add(time.Hour)})
			if _, err := st.AccountByPlayer(ctx, "p1"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("guest's account: %v, want ErrNotFound", err)
			}
			a := Account{Player: "p1", Name: "Anna", Skeleton: "anna", Hash: "$argon2id$x", Created: now, PasswordChanged: now}
			if err := st.CreateAccount(ctx, a); err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				what string
				acc  Account
				want error
			}{
				{"same player", Account{Player: "p1", Name: "Other", Skeleton: "other"}, ErrHasAccount},
				{"same skeleton", Account{Player: "p2", Name: "ANNA", Skeleton: "anna"}, ErrNameTaken},
			} {
				if err := st.CreateAccount(ctx, c.acc); !errors.Is(err, c.want) {
					t.Errorf("%s: %v, want %v", c.what, err, c.want)
				}
			}
			if got, err := st.AccountByPlayer(ctx, "p1"); err != nil || got != a {
				t.Errorf("by player = %+v, %v; want %+v", got, err, a)
			}
			if got, err := st.AccountBySkeleton(ctx, "anna"); err != nil || got.Player != "p1" {
				t.Errorf("by skeleton = %+v, %v", got, err)
			}
			if _, err := st.AccountBySkeleton(ctx, "bob"); !errors.Is(err, ErrNotFound) {
				t.Errorf("unknown skeleton: %v", err)
			}
			if s, _ := st.Session(ctx, "h2"); s.Name != "Anna" {
				t.Errorf("session name after claim = %q, want the account's", s.Name)
			}
			if s, _ := st.Session(ctx, "other"); s.Name != "bob" {
				t.Errorf("another player's session renamed: %q", s.Name)
			}
			ss, err := st.SessionsOf(ctx, "p1")
			var hs []string
			for _, s := range ss {
				hs = append(hs, s.TokenHash)
			}
			if err != nil || !slices.Equal(hs, []string{"h3", "h2", "h1"}) {
				t.Errorf("sessions = %v, %v; want newest first", hs, err)
			}

			if err := st.Rehash(ctx, "p1", "stale", "$argon2id$y"); err != nil {
				t.Fatal(err)
			}
			if got, _ := st.AccountByPlayer(ctx, "p1"); got.Hash != a.Hash {
				t.Errorf("rehash over a changed hash replaced it: %q", got.Hash)
			}
			if err := st.Rehash(ctx, "p1", a.Hash, "$argon2id$y"); err != nil {
				t.Fatal(err)
			}
			if got, _ := st.AccountByPlayer(ctx, "p1"); got.Hash != "$argon2id$y" {
				t.Errorf("rehash: %q", got.Hash)
			}

			later := now.Add(time.Minute)
			gone, err := st.ChangePassword(ctx, "p1", "$argon2id$z", later, "h2")
			if err != nil || !slices.Equal(gone, []string{"h1", "h3"}) {
				t.Errorf("change password revoked %v, %v; want h1 h3", gone, err)
			}
			if got, _ := st.AccountByPlayer(ctx, "p1"); got.Hash != "$argon2id$z" || !got.PasswordChanged.Equal(later) {
				t.Errorf("after change: %+v", got)
			}
			if _, err := st.Session(ctx, "h2"); err != nil {
				t.Errorf("the kept session: %v", err)
			}
			if _, err := st.Session(ctx, "other"); err != nil {
				t.Errorf("another player's session: %v", err)
			}
			if _, err := st.ChangePassword(ctx, "p2", "h", later, ""); !errors.Is(err, ErrNotFound) {
				t.Errorf("change password of a guest: %v", err)
			}

			for i, h := range []string{"n1", "n2", "n3"} {
				st.CreateSession(ctx, Session{TokenHash: h, Player: "p1", Name: "Anna", Created: later.Add(time.Duration(i) * time.Second), Expires: later.Add(time.Hour)})
			}
			gone, err = st.TrimSessions(ctx, "p1", 2, "")
			if err != nil || !slices.Equal(gone, []string{"n1", "h2"}) {
				t.Errorf("trim to 2 deleted %v, %v; want the oldest (n1 h2)", gone, err)
			}
			gone, err = st.DeleteSessionsOf(ctx, "p1", "n3")
			if err != nil || !slices.Equal(gone, []string{"n2"}) {
				t.Errorf("delete all but n3: %v, %v", gone, err)
			}
			gone, err = st.DeleteSessionsOf(ctx, "p1", "")
			if ss, _ := st.SessionsOf(ctx, "p1"); err != nil || len(ss) != 0 || !slices.Equal(gone, []string{"n3"}) {
				t.Errorf("log out everywhere: deleted %v, left %v, %v", gone, ss, err)
			}
			// Two logins in one millisecond: the newer by its order of
			// arrival may sort after the other; the login's own session
			// (keep) stays whatever the order.
			for _, h := range []string{"t1", "t0"} {
				st.CreateSession(ctx, Session{TokenHash: h, Player: "p1", Name: "Anna", Created: later.Add(time.Minute), Expires: later.Add(time.Hour)})
			}
			gone, err = st.TrimSessions(ctx, "p1", 1, "t1")
			if err != nil || !slices.Equal(gone, []string{"t0"}) {
				t.Errorf("trim to 1 keeping t1 deleted %v, %v; want t0", gone, err)
			}
			if _, err := st.Session(ctx, "t1"); err != nil {
				t.Errorf("the kept session after the trim: %v", err)
			}
			st.DeleteSessionsOf(ctx, "p1", "")
			if n, _ := st.CountSessions(ctx); n != 1 {
				t.Errorf("%d sessions left, want bob's only", n)
			}
		})
	}
}

// TestAccountsPersist: an account survives a restart (reopening the file),
// and the skeleton's unique index holds in the database itself.
func TestAccountsPersist(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cardroom.db")
	st, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Millisecond)
	a := Account{Player: "p1", Name: "Anna", Skeleton: "anna", Hash: "$argon2id$x", Created: now, PasswordChanged: now}
	if err := st.CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	st.Close()
	st, err = OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if got, err := st.AccountByPlayer(ctx, "p1"); err != nil || got != a {
		t.Errorf("after reopen: %+v, %v", got, err)
	}
	_, err = st.w.ExecContext(ctx, `INSERT INTO accounts(player, name, skeleton, hash, created, password_changed) VALUES ('p2', 'ANNA', 'anna', 'h', 0, 0)`)
	if !isConflict(err) {
		t.Errorf("a second row with the same skeleton: %v, want a unique violation", err)
	}
}
