package server

// Accounts (docs/accounts.md): a guest claims their name with a password
// and keeps their player id; an account logs in on any device; sessions
// are listed and revoked; passwords are hashed with argon2id under a bound
// on concurrent hashes. The endpoints are routed in http.go.

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
	"golang.org/x/text/unicode/norm"

	"cardroom/protocol"
	"cardroom/store"
)

// Defaults of AccountsConfig (docs/accounts.md, docs/server.md "Limits").
const (
	// argon2id at OWASP's first recommended setting: 19 MiB, 2 passes,
	// one lane. One hash takes some tens of milliseconds of one core.
	DefaultHashTime      = 2
	DefaultHashMemoryKiB = 19 * 1024
	// Hashes computed at once: each holds HashMemoryKiB and a core, and a
	// client triggers one with every login, so they are bounded. A request
	// waits at most HashWait for a slot, then is refused with busy.
	DefaultHashConcurrency = 2
	DefaultHashWait        = 2 * time.Second
	// Failed logins allowed per account name and per address, as token
	// buckets of that size refilled over an hour.
	DefaultLoginFailuresPerAccount = 10
	DefaultLoginFailuresPerIP      = 50
	// Sessions one account keeps; logging in past it ends the oldest.
	DefaultSessionsPerAccount = 20
)

// The parameters' hard limits: a stored hash asking for more is refused
// as damaged instead of costing a gigabyte, and a Config asking for more
// is capped.
const (
	maxHashTime      = 16
	maxHashMemoryKiB = 1 << 20 // 1 GiB
	maxHashThreads   = 8
	saltLen          = 16
	keyLen           = 32
	sessionIDLen     = 16 // hex digits of the token hash shown as a session id
)

// AccountsConfig bounds what accounts cost (Config.Accounts). Zero means
// the default; for the limiters and SessionsPerAccount a negative value
// switches the limit off.
type AccountsConfig struct {
	// HashTime (passes) and HashMemoryKiB are the argon2id parameters of
	// new hashes. Stored hashes keep theirs and are rehashed with these at
	// their next successful login, so raising them needs no migration.
	HashTime      uint32
	HashMemoryKiB uint32
	// HashConcurrency bounds the hashes computed at once; HashWait is how
	// long a request waits for a slot before busy.
	HashConcurrency int
	HashWait        time.Duration
	// LoginFailuresPerAccount and LoginFailuresPerIP are the failed
	// logins (and wrong current passwords) allowed per hour, per account
	// name and per address.
	LoginFailuresPerAccount int
	LoginFailuresPerIP      int
	// SessionsPerAccount bounds one account's sessions.
	SessionsPerAccount int
}

func (c *AccountsConfig) defaults() {
	if c.HashTime == 0 {
		c.HashTime = DefaultHashTime
	}
	if c.HashMemoryKiB == 0 {
		c.HashMemoryKiB = DefaultHashMemoryKiB
	}
	c.HashTime = min(c.HashTime, maxHashTime)
	c.HashMemoryKiB = max(8, min(c.HashMemoryKiB, maxHashMemoryKiB))
	if c.HashConcurrency <= 0 {
		c.HashConcurrency = DefaultHashConcurrency
	}
	c.HashConcurrency = min(c.HashConcurrency, 256)
	if c.HashWait <= 0 {
		c.HashWait = DefaultHashWait
	}
	if c.LoginFailuresPerAccount == 0 {
		c.LoginFailuresPerAccount = DefaultLoginFailuresPerAccount
	}
	if c.LoginFailuresPerIP == 0 {
		c.LoginFailuresPerIP = DefaultLoginFailuresPerIP
	}
	if c.SessionsPerAccount == 0 {
		c.SessionsPerAccount = DefaultSessionsPerAccount
	} else if c.SessionsPerAccount < 0 {
		c.SessionsPerAccount = math.MaxInt
	}
}

// accounts is a server's account state: the store's Accounts (nil when the
// store has none: the endpoints then answer unavailable and guests play
// as before), the hashing semaphore and the login limiters.
type accounts struct {
	cfg   AccountsConfig
	st    store.Accounts
	sem   chan struct{}
	dummy string // a hash of nothing, verified for unknown names
	// byAccount is keyed by name skeleton (so unknown names are limited
	// too, and the answer does not tell whether an account exists);
	// byAddr by addrKey. nil: off.
	byAccount, byAddr *limiter

	hashes, hashBusy            atomic.Int64
	logins, loginFailures       atomic.Int64
	limitedAccount, limitedAddr atomic.Int64
	claims, revoked             atomic.Int64
}

func newAccounts(c AccountsConfig, st store.Store) *accounts {
	c.defaults()
	a := &accounts{cfg: c, sem: make(chan struct{}, c.HashConcurrency)}
	a.st, _ = st.(store.Accounts)
	if n := c.LoginFailuresPerAccount; n > 0 {
		a.byAccount = newLimiter(float64(n)/3600, float64(n))
	}
	if n := c.LoginFailuresPerIP; n > 0 {
		a.byAddr = newLimiter(float64(n)/3600, float64(n))
	}
	a.dummy = encodeHash(c.HashTime, c.HashMemoryKiB, 1, make([]byte, saltLen), make([]byte, keyLen))
	return a
}

// ---- password hashes ----

// errHashBusy: no hashing slot within HashWait.
var errHashBusy = errors.New("too many passwords are being checked right now: retry in a moment")

// hashParams are an argon2id hash's parameters, salt and key.
type hashParams struct {
	time, memory uint32
	threads      uint8
	salt, key    []byte
}

// encodeHash writes the PHC string form, the one of the reference
// implementation: $argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>, with
// unpadded standard base64.
func encodeHash(t, m uint32, p uint8, salt, key []byte) string {
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, m, t, p, b64.EncodeToString(salt), b64.EncodeToString(key))
}

// decodeHash parses encodeHash's form, refusing parameters beyond the hard
// limits (a damaged row must not cost a gigabyte).
func decodeHash(s string) (hashParams, error) {
	var hp hashParams
	f := strings.Split(s, "$")
	if len(f) != 6 || f[0] != "" || f[1] != "argon2id" || f[2] != "v="+strconv.Itoa(argon2.Version) {
		return hp, errors.New("not an argon2id hash of version 19")
	}
	var p uint32
	if _, err := fmt.Sscanf(f[3], "m=%d,t=%d,p=%d", &hp.memory, &hp.time, &p); err != nil {
		return hp, fmt.Errorf("argon2id parameters %q: %v", f[3], err)
	}
	if hp.memory < 8 || hp.memory > maxHashMemoryKiB || hp.time < 1 || hp.time > maxHashTime || p < 1 || p > maxHashThreads {
		return hp, fmt.Errorf("argon2id parameters %q out of bounds", f[3])
	}
	hp.threads = uint8(p)
	var err error
	b64 := base64.RawStdEncoding
	if hp.salt, err = b64.DecodeString(f[4]); err != nil || len(hp.salt) < 8 || len(hp.salt) > 64 {
		return hp, errors.New("argon2id salt damaged")
	}
	if hp.key, err = b64.DecodeString(f[5]); err != nil || len(hp.key) < 16 || len(hp.key) > 64 {
		return hp, errors.New("argon2id key damaged")
	}
	return hp, nil
}

// withSlot runs f while holding a hashing slot, waiting at most HashWait
// (or until ctx ends) for one.
func (a *accounts) withSlot(ctx context.Context, f func()) error {
	t := time.NewTimer(a.cfg.HashWait)
	defer t.Stop()
	select {
	case a.sem <- struct{}{}:
	case <-t.C:
		a.hashBusy.Add(1)
		return errHashBusy
	case <-ctx.Done():
		a.hashBusy.Add(1)
		return errHashBusy
	}
	defer func() { <-a.sem }()
	a.hashes.Add(1)
	f()
	return nil
}

// hash returns a new hash of password, with a fresh random salt and the
// configured parameters.
func (a *accounts) hash(ctx context.Context, password string) (string, error) {
	salt := make([]byte, saltLen)
	rand.Read(salt)
	var key []byte
	err := a.withSlot(ctx, func() {
		key = argon2.IDKey([]byte(password), salt, a.cfg.HashTime, a.cfg.HashMemoryKiB, 1, keyLen)
	})
	if err != nil {
		return "", err
	}
	return encodeHash(a.cfg.HashTime, a.cfg.HashMemoryKiB, 1, salt, key), nil
}

// verify reports whether password matches the stored hash, comparing the
// keys in constant time. stale is true when the hash's parameters are not
// the configured ones: the caller rehashes it.
func (a *accounts) verify(ctx context.Context, password, stored string) (ok, stale bool, err error) {
	hp, err := decodeHash(stored)
	if err != nil {
		return false, false, err
	}
	var key []byte
	if err := a.withSlot(ctx, func() {
		key = argon2.IDKey([]byte(password), hp.salt, hp.time, hp.memory, hp.threads, uint32(len(hp.key)))
	}); err != nil {
		return false, false, err
	}
	ok = subtle.ConstantTimeCompare(key, hp.key) == 1
	stale = hp.time != a.cfg.HashTime || hp.memory != a.cfg.HashMemoryKiB || hp.threads != 1 || len(hp.key) != keyLen
	return ok, stale, nil
}

// checkPassword normalizes a new password (NFKC, as NIST SP 800-63B
// advises, so the same password typed on another keyboard is the same
// bytes) and applies the length bounds.
func checkPassword(p, name string) (string, error) {
	if len(p) > protocol.MaxPassword {
		return "", fmt.Errorf("password: at most %d bytes", protocol.MaxPassword)
	}
	if !utf8.ValidString(p) {
		return "", errors.New("password is not valid UTF-8")
	}
	p = norm.NFKC.String(p)
	if len(p) < protocol.MinPassword || len(p) > protocol.MaxPassword {
		return "", fmt.Errorf("password: %d to %d bytes", protocol.MinPassword, protocol.MaxPassword)
	}
	if strings.EqualFold(p, name) {
		return "", errors.New("password: not your name")
	}
	return p, nil
}

// loginPassword normalizes a password given to log in: as checkPassword,
// without the lower bound (a short one is just wrong).
func loginPassword(p string) (string, error) {
	if len(p) > protocol.MaxPassword || !utf8.ValidString(p) {
		return "", fmt.Errorf("password: at most %d bytes of UTF-8", protocol.MaxPassword)
	}
	return norm.NFKC.String(p), nil
}

// ---- the limiters ----

// refund gives back the token an attempt took: logins are charged before
// the password is checked (so parallel guesses cannot all pass a check
// first) and only failures keep their charge.
func (l *limiter) refund(key string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if b := l.buckets[key]; b != nil {
		b.tokens = min(l.burst, b.tokens+1)
	}
}

func allowKey(l *limiter, key string) (bool, time.Duration) {
	if l == nil {
		return true, 0
	}
	return l.allow(key)
}

// charge takes one attempt from the account's and the address's buckets,
// answering 429 with the code of the one that is empty. It returns a
// refund function for a successful attempt.
func (s *Server) charge(w http.ResponseWriter, r *http.Request, skel string) (refund func(), ok bool) {
	a := s.acct
	addr := addrKey(s.guard.clientAddr(r)) // the client behind a trusted proxy (guard.go)
	if ok, retry := allowKey(a.byAddr, addr); !ok {
		a.limitedAddr.Add(1)
		loginLimited(w, retry, protocol.LoginLimitedAddress, "too many failed logins from your address: try again later")
		return nil, false
	}
	if ok, retry := allowKey(a.byAccount, skel); !ok {
		a.byAddr.refund(addr)
		a.limitedAccount.Add(1)
		loginLimited(w, retry, protocol.LoginLimitedAccount, "too many failed logins for this account: try again later (sessions already logged in keep working)")
		return nil, false
	}
	return func() { a.byAddr.refund(addr); a.byAccount.refund(skel) }, true
}

func loginLimited(w http.ResponseWriter, retry time.Duration, code protocol.Code, msg string) {
	w.Header().Set("Retry-After", strconv.FormatInt(int64(math.Ceil(max(retry.Seconds(), 1))), 10))
	writeErr(w, code.HTTPStatus(), code, msg)
}

// ---- requests ----

// readAccountReq decodes a JSON body into v, answering the error itself:
// too_large over MaxMessage, bad_json for what is not a JSON object,
// bad_request for a field of the wrong type or an unknown field.
//
// The body must be declared application/json: a page elsewhere can make a
// browser POST a form here without asking, but not with that type, so a
// forged form cannot log a visitor in to someone else's account (login
// CSRF) or claim a name for them.
func readAccountReq(w http.ResponseWriter, r *http.Request, v any) bool {
	if ct := r.Header.Get("Content-Type"); ct != "application/json" && !strings.HasPrefix(ct, "application/json;") {
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, "Content-Type must be application/json")
		return false
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, MaxMessage+1))
	if err != nil {
		writeErr(w, http.StatusBadRequest, protocol.BadJSON, "the body could not be read")
		return false
	}
	if len(b) > MaxMessage {
		writeErr(w, http.StatusRequestEntityTooLarge, protocol.TooLarge, fmt.Sprintf("body over %d bytes", MaxMessage))
		return false
	}
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.DisallowUnknownFields()
	err = d.Decode(v)
	var te *json.UnmarshalTypeError
	switch {
	case err == nil && d.More():
		writeErr(w, http.StatusBadRequest, protocol.BadJSON, "one JSON object expected")
	case err == nil:
		return true
	case errors.As(err, &te):
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, fmt.Sprintf("field %s must be a %s", te.Field, te.Type))
	case strings.HasPrefix(err.Error(), "json: unknown field"):
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, strings.TrimPrefix(err.Error(), "json: "))
	default:
		writeErr(w, http.StatusBadRequest, protocol.BadJSON, "not a JSON object: "+err.Error())
	}
	return false
}

// accountStore returns the store's Accounts, answering unavailable when
// the store keeps none.
func (s *Server) accountStore(w http.ResponseWriter) (store.Accounts, bool) {
	if s.acct.st == nil {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "this room's store keeps no accounts")
		return nil, false
	}
	return s.acct.st, true
}

func storeDown(w http.ResponseWriter) {
	writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "accounts cannot be read or stored now; nothing was changed; retry")
}

func hashErr(w http.ResponseWriter, err error) {
	if errors.Is(err, errHashBusy) {
		writeErr(w, http.StatusServiceUnavailable, protocol.Busy, err.Error())
		return
	}
	writeErr(w, http.StatusInternalServerError, protocol.Internal, "the password could not be checked")
}

func accountInfo(a store.Account) protocol.Account {
	return protocol.Account{Player: a.Player, Name: a.Name, Created: a.Created, PasswordChanged: a.PasswordChanged}
}

// seatFor is who sess sits down as: its player and name, and whether the
// player holds an account, which the table marks beside the name. A store
// without accounts, or one that cannot answer now, leaves the mark off: a
// missing mark only makes an account's seat look like a guest's, never
// the other way round.
func (s *Server) seatFor(ctx context.Context, sess store.Session) store.Seat {
	return store.Seat{Player: sess.Player, Name: sess.Name, Account: s.hasAccount(ctx, sess.Player)}
}

// hasAccount reports whether player holds an account: false for nobody,
// in a room without accounts, or when the store cannot answer now.
func (s *Server) hasAccount(ctx context.Context, player string) bool {
	if player == "" || s.acct == nil || s.acct.st == nil {
		return false
	}
	_, err := s.acct.st.AccountByPlayer(ctx, player)
	return err == nil
}

// checkGuestName refuses a new guest's name that looks like an account's
// (the same skeleton): nobody can sit down as "Anna" — or "аnna" — while
// Anna has an account. Guests who took a name before it was claimed keep
// it until their session ends (docs/accounts.md).
func (s *Server) checkGuestName(ctx context.Context, name string) error {
	if s.acct == nil || s.acct.st == nil {
		return nil
	}
	_, err := s.acct.st.AccountBySkeleton(ctx, skeleton(name))
	switch {
	case err == nil:
		return errNameTaken
	case errors.Is(err, store.ErrNotFound):
		return nil
	}
	return err
}

var errNameTaken = errors.New("an account has this name or one that looks like it: log in, or choose another name")

// handleClaim is POST /api/account: the caller's player id becomes an
// account with the session's name (or the one given) and a password.
func (s *Server) handleClaim(w http.ResponseWriter, r *http.Request, sess store.Session) {
	st, ok := s.accountStore(w)
	if !ok {
		return
	}
	var req protocol.ClaimReq
	if !readAccountReq(w, r, &req) {
		return
	}
	if req.Password == "" {
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, "field password is required")
		return
	}
	name := sess.Name
	if req.Name != "" {
		n, err := validName(req.Name)
		if err != nil {
			writeErr(w, http.StatusBadRequest, protocol.BadRequest, err.Error())
			return
		}
		name = n
	}
	pw, err := checkPassword(req.Password, name)
	if err != nil {
		writeErr(w, http.StatusBadRequest, protocol.BadPassword, err.Error())
		return
	}
	if !s.guard.allowCreation(w, r, "accounts and tournaments") {
		return
	}
	claimed := false
	defer func() {
		if !claimed {
			s.guard.refundCreation(r)
		}
	}()
	ctx := r.Context()
	if _, err := st.AccountByPlayer(ctx, sess.Player); err == nil {
		writeErr(w, http.StatusConflict, protocol.HasAccount, "you already have an account")
		return
	} else if !errors.Is(err, store.ErrNotFound) {
		storeDown(w)
		return
	}
	skel := skeleton(name)
	if _, err := st.AccountBySkeleton(ctx, skel); err == nil {
		writeErr(w, http.StatusConflict, protocol.NameTaken, fmt.Sprintf("an account has the name %q or one that looks like it: choose another", name))
		return
	} else if !errors.Is(err, store.ErrNotFound) {
		storeDown(w)
		return
	}
	h, err := s.acct.hash(ctx, pw)
	if err != nil {
		hashErr(w, err)
		return
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	acc := store.Account{Player: sess.Player, Name: name, Skeleton: skel, Hash: h, Created: now, PasswordChanged: now}
	switch err := st.CreateAccount(ctx, acc); {
	case errors.Is(err, store.ErrNameTaken):
		writeErr(w, http.StatusConflict, protocol.NameTaken, fmt.Sprintf("an account has the name %q or one that looks like it: choose another", name))
		return
	case errors.Is(err, store.ErrHasAccount):
		writeErr(w, http.StatusConflict, protocol.HasAccount, "you already have an account")
		return
	case err != nil:
		s.log.Warn("create account", "err", err)
		storeDown(w)
		return
	}
	claimed = true
	s.acct.claims.Add(1)
	s.log.Info("account claimed", "player", sess.Player, "name", name)
	writeJSON(w, http.StatusOK, accountInfo(acc))
}

// handleAccount is GET /api/account: the caller's account, or 404
// no_account for a guest.
func (s *Server) handleAccount(w http.ResponseWriter, r *http.Request, sess store.Session) {
	st, ok := s.accountStore(w)
	if !ok {
		return
	}
	acc, err := st.AccountByPlayer(r.Context(), sess.Player)
	if errors.Is(err, store.ErrNotFound) {
		writeErr(w, http.StatusNotFound, protocol.NoAccount, "you play as a guest: claim your name with a password to keep it")
		return
	}
	if err != nil {
		storeDown(w)
		return
	}
	writeJSON(w, http.StatusOK, accountInfo(acc))
}

// handleLogin is POST /api/login: a new session for an account's player
// id, on any device. A wrong password and an unknown name get the same
// answer after the same work (a hash is checked either way).
func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	st, ok := s.accountStore(w)
	if !ok {
		return
	}
	var req protocol.LoginReq
	if !readAccountReq(w, r, &req) {
		return
	}
	if req.Name == "" || req.Password == "" {
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, "fields name and password are required")
		return
	}
	name, err := validName(req.Name)
	if err != nil {
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, err.Error())
		return
	}
	pw, err := loginPassword(req.Password)
	if err != nil {
		writeErr(w, http.StatusBadRequest, protocol.BadPassword, err.Error())
		return
	}
	skel := skeleton(name)
	refund, ok := s.charge(w, r, skel)
	if !ok {
		return
	}
	ctx := r.Context()
	acc, err := st.AccountBySkeleton(ctx, skel)
	known := err == nil
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		refund()
		storeDown(w)
		return
	}
	// The address's session quota is taken before the password is hashed
	// (a slot of the room's few hashing workers, ~25 ms), and given back
	// if no session comes of it: a successful login is refunded from the
	// failure buckets, so without this one address could keep the workers
	// busy logging in to its own account past its session quota.
	if !s.guard.allowSession(w, r) {
		refund()
		return
	}
	stored := s.acct.dummy
	if known {
		stored = acc.Hash
	}
	good, stale, err := s.acct.verify(ctx, pw, stored)
	if errors.Is(err, errHashBusy) {
		refund()
		s.guard.refundSession(r)
		hashErr(w, err)
		return
	}
	if err != nil {
		refund()
		s.guard.refundSession(r)
		s.log.Error("account hash unreadable", "player", acc.Player, "err", err)
		writeErr(w, http.StatusInternalServerError, protocol.Internal, "this account's password cannot be checked")
		return
	}
	if !known || !good {
		s.guard.refundSession(r)
		s.acct.loginFailures.Add(1)
		writeErr(w, http.StatusUnauthorized, protocol.BadCredentials, "wrong name or password")
		return
	}
	refund()
	if stale {
		if h, err := s.acct.hash(ctx, pw); err == nil {
			if err := st.Rehash(ctx, acc.Player, acc.Hash, h); err != nil {
				s.log.Warn("rehash password", "player", acc.Player, "err", err)
			}
		}
	}
	tok, sess, err := s.newSessionFor(ctx, acc.Player, acc.Name)
	if err != nil {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "the session could not be stored; retry later")
		return
	}
	if gone, err := st.TrimSessions(ctx, acc.Player, s.acct.cfg.SessionsPerAccount, sess.TokenHash); err != nil {
		s.log.Warn("trim sessions", "player", acc.Player, "err", err)
	} else {
		s.revokeConns(gone)
	}
	s.acct.logins.Add(1)
	s.setSessionCookie(w, r, tok, sess.Expires)
	writeJSON(w, http.StatusOK, protocol.Session{Token: tok, Player: sess.Player, Name: sess.Name, Expires: sess.Expires})
}

// newSessionFor stores a new session of an existing player id.
func (s *Server) newSessionFor(ctx context.Context, player, name string) (string, store.Session, error) {
	b := make([]byte, 32)
	rand.Read(b)
	tok := hex.EncodeToString(b)
	now := time.Now().UTC()
	sess := store.Session{TokenHash: hashToken(tok), Player: player, Name: name, Created: now, Expires: now.Add(SessionTTL)}
	if err := s.store.CreateSession(ctx, sess); err != nil {
		return "", store.Session{}, err
	}
	return tok, sess, nil
}

// setSessionCookie sets the session cookie: HttpOnly (no script reads
// it), SameSite=Lax, and Secure when the room is reached over TLS (secure),
// so a plain-http request a network attacker provokes never carries it.
func (s *Server) setSessionCookie(w http.ResponseWriter, r *http.Request, tok string, expires time.Time) {
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secure(r), Expires: expires})
}

func (s *Server) clearSessionCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: "", Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secure(r), MaxAge: -1})
}

// revokeConns closes the WebSockets of revoked sessions (the logout path's
// closeSessionConns, once per session).
func (s *Server) revokeConns(hashes []string) {
	s.acct.revoked.Add(int64(len(hashes)))
	for _, h := range hashes {
		s.closeSessionConns(h)
	}
}

// handlePassword is POST /api/account/password: needs the current
// password (charged to the login limiters like a login, so a stolen
// session cannot guess it fast), and ends every other session. It costs
// two hashes, a slot of the room's few hashing workers each, so it also
// takes a token of the address's session quota, kept when the change is
// made: a login is bounded the same way, and without it one account could
// change its password back and forth at the API rate and keep every other
// player's login waiting.
func (s *Server) handlePassword(w http.ResponseWriter, r *http.Request, sess store.Session) {
	st, ok := s.accountStore(w)
	if !ok {
		return
	}
	var req protocol.PasswordReq
	if !readAccountReq(w, r, &req) {
		return
	}
	if req.Current == "" || req.Password == "" {
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, "fields current and password are required")
		return
	}
	ctx := r.Context()
	acc, err := st.AccountByPlayer(ctx, sess.Player)
	if errors.Is(err, store.ErrNotFound) {
		writeErr(w, http.StatusNotFound, protocol.NoAccount, "you play as a guest: claim your name first")
		return
	}
	if err != nil {
		storeDown(w)
		return
	}
	cur, err := loginPassword(req.Current)
	if err != nil {
		writeErr(w, http.StatusBadRequest, protocol.BadPassword, "current "+err.Error())
		return
	}
	pw, err := checkPassword(req.Password, acc.Name)
	if err != nil {
		writeErr(w, http.StatusBadRequest, protocol.BadPassword, err.Error())
		return
	}
	refund, ok := s.charge(w, r, acc.Skeleton)
	if !ok {
		return
	}
	if !s.guard.allowSession(w, r) {
		refund()
		return
	}
	good, _, err := s.acct.verify(ctx, cur, acc.Hash)
	if err != nil {
		refund()
		s.guard.refundSession(r)
		hashErr(w, err)
		return
	}
	if !good {
		s.acct.loginFailures.Add(1)
		writeErr(w, http.StatusForbidden, protocol.WrongPassword, "the current password is wrong")
		return
	}
	refund()
	h, err := s.acct.hash(ctx, pw)
	if err != nil {
		hashErr(w, err)
		return
	}
	gone, err := st.ChangePassword(ctx, acc.Player, h, time.Now().UTC(), sess.TokenHash)
	if err != nil {
		storeDown(w)
		return
	}
	s.revokeConns(gone)
	s.log.Info("password changed", "player", acc.Player, "sessions_revoked", len(gone))
	writeJSON(w, http.StatusOK, protocol.Revoked{OK: true, Revoked: len(gone)})
}

// sessionID is the id a session is listed and revoked by: the start of its
// token's hash. It names a session to its owner and grants nothing.
func sessionID(tokenHash string) string { return tokenHash[:min(sessionIDLen, len(tokenHash))] }

// handleSessions is GET /api/sessions: the caller's sessions.
func (s *Server) handleSessions(w http.ResponseWriter, r *http.Request, sess store.Session) {
	st, ok := s.accountStore(w)
	if !ok {
		return
	}
	ss, err := st.SessionsOf(r.Context(), sess.Player)
	if err != nil {
		storeDown(w)
		return
	}
	out := protocol.Sessions{Sessions: []protocol.SessionInfo{}}
	for _, x := range ss {
		out.Sessions = append(out.Sessions, protocol.SessionInfo{ID: sessionID(x.TokenHash), Created: x.Created, Expires: x.Expires, Current: x.TokenHash == sess.TokenHash})
	}
	writeJSON(w, http.StatusOK, out)
}

// handleRevoke is DELETE /api/sessions/{id}: end one of the caller's
// sessions and close its sockets.
func (s *Server) handleRevoke(w http.ResponseWriter, r *http.Request, sess store.Session) {
	st, ok := s.accountStore(w)
	if !ok {
		return
	}
	id := r.PathValue("id")
	if len(id) != sessionIDLen || strings.Trim(id, "0123456789abcdef") != "" {
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, fmt.Sprintf("a session id is %d lowercase hex digits", sessionIDLen))
		return
	}
	ss, err := st.SessionsOf(r.Context(), sess.Player)
	if err != nil {
		storeDown(w)
		return
	}
	for _, x := range ss {
		if sessionID(x.TokenHash) != id {
			continue
		}
		if err := s.store.DeleteSession(r.Context(), x.TokenHash); err != nil {
			storeDown(w)
			return
		}
		s.revokeConns([]string{x.TokenHash})
		if x.TokenHash == sess.TokenHash {
			s.clearSessionCookie(w, r)
		}
		writeJSON(w, http.StatusOK, protocol.Revoked{OK: true, Revoked: 1})
		return
	}
	writeErr(w, http.StatusNotFound, protocol.NoSession, "you have no session "+id)
}

// handleRevokeAll is DELETE /api/sessions: "log out everywhere", this
// session included.
func (s *Server) handleRevokeAll(w http.ResponseWriter, r *http.Request, sess store.Session) {
	st, ok := s.accountStore(w)
	if !ok {
		return
	}
	gone, err := st.DeleteSessionsOf(r.Context(), sess.Player, "")
	if err != nil {
		storeDown(w)
		return
	}
	s.revokeConns(gone)
	s.clearSessionCookie(w, r)
	writeJSON(w, http.StatusOK, protocol.Revoked{OK: true, Revoked: len(gone)})
}

// accountRoutes routes the account endpoints (docs/protocol.md,
// "Accounts") and sets up their state.
func (s *Server) accountRoutes(m *http.ServeMux) {
	s.acct = newAccounts(s.cfg.Accounts, s.store)
	m.HandleFunc("POST /api/login", s.handleLogin)
	m.HandleFunc("POST /api/account", s.auth(s.handleClaim))
	m.HandleFunc("GET /api/account", s.auth(s.handleAccount))
	m.HandleFunc("POST /api/account/password", s.auth(s.handlePassword))
	m.HandleFunc("GET /api/sessions", s.auth(s.handleSessions))
	m.HandleFunc("DELETE /api/sessions", s.auth(s.handleRevokeAll))
	m.HandleFunc("DELETE /api/sessions/{id}", s.auth(s.handleRevoke))
}

// accountMetrics writes the account metrics with handleMetrics' writer.
func (s *Server) accountMetrics(metric func(name, typ, help string, v any)) {
	a := s.acct
	metric("cardroom_password_hashes_total", "counter", "argon2id hashes computed (logins, claims, password changes).", a.hashes.Load())
	metric("cardroom_password_hashing", "gauge", "argon2id hashes being computed now (bounded by -hash-concurrency).", len(a.sem))
	metric("cardroom_password_hash_busy_total", "counter", "Requests refused busy because every hashing slot stayed taken.", a.hashBusy.Load())
	metric("cardroom_logins_total", "counter", "Successful account logins.", a.logins.Load())
	metric("cardroom_login_failures_total", "counter", "Failed logins and wrong current passwords.", a.loginFailures.Load())
	metric("cardroom_login_limited_account_total", "counter", "Logins refused by the per-account failure limit.", a.limitedAccount.Load())
	metric("cardroom_login_limited_address_total", "counter", "Logins refused by the per-address failure limit.", a.limitedAddr.Load())
	metric("cardroom_accounts_claimed_total", "counter", "Guest names claimed as accounts.", a.claims.Load())
	metric("cardroom_sessions_revoked_total", "counter", "Sessions ended by revocation, log out everywhere, a password change or the per-account bound.", a.revoked.Load())
}
