package server

// Bot accounts (docs/bots.md, "Bot accounts"; endpoints in docs/protocol.md,
// "Bot accounts"). An account's owner marks it as a bot, for good, and gets
// API tokens: a program then connects with "Authorization: Bearer bot_…"
// on the WebSocket and the HTTP API, without a cookie session. Tokens are
// random, shown once, stored as SHA-256 hashes, listed, revoked (which
// closes their sockets at once) and issued again, up to a bound per bot.
// A bot account's seats carry a BOT badge (SeatInfo.BotAccount) and it
// plays casual tables only.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"cardroom/protocol"
	"cardroom/store"
	"cardroom/table"
)

// Defaults of BotConfig.
const (
	// DefaultBotTokensPerAccount: enough for a few machines or versions of
	// one bot; a lost token is revoked and another issued.
	DefaultBotTokensPerAccount = 5
	// DefaultMaxBotAccounts bounds the bot accounts of a room: their ids are
	// held in memory (a few dozen bytes each) to mark seats without a read.
	DefaultMaxBotAccounts = 10000
)

// botSessionPrefix starts the TokenHash of the store.Session a bot token
// stands for: it keeps bot tokens apart from sessions (a session
// endpoint never finds one) and tells handlers that the caller is a
// program with a token, not its owner with a login session.
const botSessionPrefix = "bot:"

// BotConfig bounds bot accounts (Config.Bots). Zero means the default; a
// negative value switches the bound off.
type BotConfig struct {
	// TokensPerAccount bounds the API tokens one bot account holds.
	TokensPerAccount int
	// MaxBotAccounts bounds the accounts marked as bots.
	MaxBotAccounts int
}

func (c *BotConfig) defaults() {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		} else if *v < 0 {
			*v = 1 << 30
		}
	}
	def(&c.TokensPerAccount, DefaultBotTokensPerAccount)
	def(&c.MaxBotAccounts, DefaultMaxBotAccounts)
}

// botAccounts is the server's bot-account state: the store's BotAccounts
// (nil: the endpoints answer unavailable and no seat is a bot's) and the
// set of bot players, read by every table on every seat change.
type botAccounts struct {
	cfg BotConfig
	st  store.BotAccounts

	mu  sync.Mutex // serializes marking, so MaxBotAccounts holds
	set sync.Map   // player -> time.Time it became a bot
	n   atomic.Int64

	issued, revoked, refused atomic.Int64
}

// isBotAccount reports whether player is a bot account. It never blocks
// (table.Config.BotAccount).
func (s *Server) isBotAccount(player string) bool {
	if s.bots == nil || player == "" {
		return false
	}
	_, ok := s.bots.set.Load(player)
	return ok
}

// botSince returns since when player is a bot account (zero if not).
func (s *Server) botSince(player string) time.Time {
	v, _ := s.bots.set.Load(player)
	t, _ := v.(time.Time)
	return t
}

// errBotRated refuses a rated table to a bot account: ratings compare
// people (and the room's own bot levels, which are fixed programs); a bot
// account's program can change at any moment, so its number would mean
// nothing and would move its opponents' for nothing.
var errBotRated = &table.Error{Code: protocol.Forbidden, Msg: "bot accounts play casual tables only: rated games are for people (docs/bots.md)"}

// isBotSession reports whether sess stands for a bot token.
func isBotSession(sess store.Session) bool {
	return strings.HasPrefix(sess.TokenHash, botSessionPrefix)
}

// botSession authenticates a bot token. It is taken only from the
// Authorization header: a cookie or a query string would put it in
// browsers and logs.
func (s *Server) botSession(r *http.Request, tok string) (store.Session, error) {
	b := s.bots
	if h := r.Header.Get("Authorization"); !strings.HasPrefix(h, "Bearer ") || strings.TrimSpace(h[len("Bearer "):]) != tok {
		b.refused.Add(1)
		return store.Session{}, errSession("a bot token goes in the Authorization header (Bearer), not in a cookie or the URL")
	}
	hexPart := tok[len(protocol.BotTokenPrefix):]
	if len(hexPart) != 64 || strings.Trim(hexPart, "0123456789abcdef") != "" {
		b.refused.Add(1)
		return store.Session{}, errSession("invalid bot token: bot_ and 64 lowercase hex digits expected")
	}
	if b.st == nil || s.acct.st == nil {
		return store.Session{}, errors.New("this room's store keeps no bot accounts")
	}
	h := hashToken(tok)
	t, err := b.st.BotToken(r.Context(), h)
	if errors.Is(err, store.ErrNotFound) {
		b.refused.Add(1)
		return store.Session{}, errSession("invalid bot token: revoked, or never issued (the owner issues a new one: POST /api/account/bot)")
	}
	if err != nil {
		s.log.Warn("bot token lookup", "err", err)
		return store.Session{}, err
	}
	acc, err := s.acct.st.AccountByPlayer(r.Context(), t.Player)
	if err != nil {
		s.log.Warn("bot token's account", "player", t.Player, "err", err)
		return store.Session{}, err
	}
	if ownerOnly(r) {
		return store.Session{}, errBotToken("a bot token cannot manage the account's sessions or password: use the account's login session")
	}
	// A token does not expire; the session it stands for lasts as long as
	// the request or the socket.
	return store.Session{TokenHash: botSessionPrefix + h, Player: acc.Player, Name: acc.Name, Created: t.Created, Expires: time.Now().Add(SessionTTL)}, nil
}

// errBotToken is a request a bot token may not make (403 forbidden): what
// manages the account itself is its owner's, with the login session.
type errBotToken string

func (e errBotToken) Error() string { return string(e) }

// ownerOnly reports whether r manages the account's sessions or password:
// a leaked bot token must not log its owner out everywhere, list the
// owner's devices or try passwords. (The token endpoints refuse bot tokens
// in botStore, with the same answer.)
func ownerOnly(r *http.Request) bool {
	p := r.URL.Path
	return p == "/api/logout" || p == "/api/sessions" || strings.HasPrefix(p, "/api/sessions/") ||
		p == "/api/account/password" || (p == "/api/account" && r.Method != http.MethodGet)
}

// botStore returns the stores the bot endpoints need, answering
// unavailable when the room keeps no accounts; and refuses a bot token: a
// token cannot mint, list or revoke tokens (a leaked one must not be able
// to make more), only its owner's login session can.
func (s *Server) botStore(w http.ResponseWriter, sess store.Session) (store.Accounts, store.BotAccounts, bool) {
	if isBotSession(sess) {
		writeErr(w, http.StatusForbidden, protocol.Forbidden, "bot tokens are managed from the account's login session, not with a bot token")
		return nil, nil, false
	}
	if s.bots.st == nil || s.acct.st == nil {
		writeErr(w, http.StatusServiceUnavailable, protocol.Unavailable, "this room's store keeps no bot accounts")
		return nil, nil, false
	}
	return s.acct.st, s.bots.st, true
}

// checkLabel validates a token's label: at most MaxBotLabel bytes of
// printable UTF-8.
func checkLabel(l string) (string, error) {
	l = strings.TrimSpace(l)
	if len(l) > protocol.MaxBotLabel || !utf8.ValidString(l) {
		return "", fmt.Errorf("label: at most %d bytes of UTF-8", protocol.MaxBotLabel)
	}
	for _, r := range l {
		if !unicode.IsPrint(r) {
			return "", errors.New("label: printable characters only")
		}
	}
	return l, nil
}

// handleMakeBot is POST /api/account/bot: marks the caller's account as a
// bot (the first time) and issues a new token.
func (s *Server) handleMakeBot(w http.ResponseWriter, r *http.Request, sess store.Session) {
	accts, bots, ok := s.botStore(w, sess)
	if !ok {
		return
	}
	var req protocol.BotReq
	if !readAccountReq(w, r, &req) {
		return
	}
	label, err := checkLabel(req.Label)
	if err != nil {
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, err.Error())
		return
	}
	ctx := r.Context()
	acc, err := accts.AccountByPlayer(ctx, sess.Player)
	if errors.Is(err, store.ErrNotFound) {
		writeErr(w, http.StatusNotFound, protocol.NoAccount, "only an account can be a bot: claim your name with a password first")
		return
	}
	if err != nil {
		storeDown(w)
		return
	}
	if !s.isBotAccount(acc.Player) {
		if code, msg := s.markBot(ctx, bots, acc.Player); code != "" {
			writeErr(w, code.HTTPStatus(), code, msg)
			return
		}
	}
	b := make([]byte, 32)
	rand.Read(b)
	tok := protocol.BotTokenPrefix + hex.EncodeToString(b)
	bt := store.BotToken{Hash: hashToken(tok), Player: acc.Player, Label: label, Created: time.Now().UTC().Truncate(time.Millisecond)}
	switch err := bots.CreateBotToken(ctx, bt, s.bots.cfg.TokensPerAccount); {
	case errors.Is(err, store.ErrTooManyTokens):
		writeErr(w, http.StatusTooManyRequests, protocol.RateLimited, fmt.Sprintf("a bot holds at most %d tokens: revoke one first (DELETE /api/account/bot/tokens/{id})", s.bots.cfg.TokensPerAccount))
		return
	case err != nil:
		s.log.Warn("create bot token", "player", acc.Player, "err", err)
		storeDown(w)
		return
	}
	s.bots.issued.Add(1)
	s.log.Info("bot token issued", "player", acc.Player, "id", sessionID(bt.Hash))
	writeJSON(w, http.StatusOK, protocol.BotToken{Token: tok, ID: sessionID(bt.Hash), Label: label, Created: bt.Created, Player: acc.Player, Name: acc.Name})
}

// markBot marks player as a bot account, or says why not (a code and a
// message). A player seated at an unfinished table cannot become a bot:
// the table already counts them as a person (a rated one would rate a
// program).
func (s *Server) markBot(ctx context.Context, bots store.BotAccounts, player string) (protocol.Code, string) {
	b := s.bots
	b.mu.Lock()
	defer b.mu.Unlock()
	if s.isBotAccount(player) {
		return "", ""
	}
	if b.n.Load() >= int64(b.cfg.MaxBotAccounts) {
		return protocol.Busy, "this room holds its limit of bot accounts"
	}
	s.mu.Lock()
	seated := len(s.seatIndex[player])
	s.mu.Unlock()
	if seated > 0 {
		return protocol.Forbidden, "leave your unfinished tables first: a seated player cannot become a bot"
	}
	since, err := bots.MarkBot(ctx, player, time.Now().UTC())
	if err != nil {
		s.log.Warn("mark bot account", "player", player, "err", err)
		return protocol.Unavailable, "accounts cannot be read or stored now; nothing was changed; retry"
	}
	b.set.Store(player, since)
	b.n.Add(1)
	s.log.Info("account marked as a bot", "player", player)
	return "", ""
}

// handleBotAccount is GET /api/account/bot: whether the caller's account
// is a bot, and its tokens (never the tokens themselves).
func (s *Server) handleBotAccount(w http.ResponseWriter, r *http.Request, sess store.Session) {
	accts, bots, ok := s.botStore(w, sess)
	if !ok {
		return
	}
	ctx := r.Context()
	acc, err := accts.AccountByPlayer(ctx, sess.Player)
	if errors.Is(err, store.ErrNotFound) {
		writeErr(w, http.StatusNotFound, protocol.NoAccount, "you play as a guest: only an account can be a bot")
		return
	}
	if err != nil {
		storeDown(w)
		return
	}
	out := protocol.BotAccount{Player: acc.Player, Name: acc.Name, Bot: s.isBotAccount(acc.Player), Since: s.botSince(acc.Player), Tokens: []protocol.BotTokenInfo{}}
	ts, err := bots.BotTokensOf(ctx, acc.Player)
	if err != nil {
		storeDown(w)
		return
	}
	for _, t := range ts {
		out.Tokens = append(out.Tokens, protocol.BotTokenInfo{ID: sessionID(t.Hash), Label: t.Label, Created: t.Created})
	}
	writeJSON(w, http.StatusOK, out)
}

// handleRevokeBotToken is DELETE /api/account/bot/tokens/{id}: the token
// stops working and its sockets are closed at once.
func (s *Server) handleRevokeBotToken(w http.ResponseWriter, r *http.Request, sess store.Session) {
	_, bots, ok := s.botStore(w, sess)
	if !ok {
		return
	}
	id := r.PathValue("id")
	if len(id) != sessionIDLen || strings.Trim(id, "0123456789abcdef") != "" {
		writeErr(w, http.StatusBadRequest, protocol.BadRequest, fmt.Sprintf("a token id is %d lowercase hex digits", sessionIDLen))
		return
	}
	ctx := r.Context()
	ts, err := bots.BotTokensOf(ctx, sess.Player)
	if err != nil {
		storeDown(w)
		return
	}
	for _, t := range ts {
		if sessionID(t.Hash) != id {
			continue
		}
		switch err := bots.DeleteBotToken(ctx, sess.Player, t.Hash); {
		case errors.Is(err, store.ErrNotFound): // revoked meanwhile
		case err != nil:
			storeDown(w)
			return
		}
		n := s.closeBotConns(botSessionPrefix + t.Hash)
		s.bots.revoked.Add(1)
		s.log.Info("bot token revoked", "player", sess.Player, "id", id, "sockets", n)
		writeJSON(w, http.StatusOK, protocol.Revoked{OK: true, Revoked: 1})
		return
	}
	writeErr(w, http.StatusNotFound, protocol.NoSession, "your bot has no token "+id)
}

// closeBotConns closes the sockets opened with a revoked bot token and
// returns how many there were.
func (s *Server) closeBotConns(h string) int {
	return s.closeTokenConns(h, "this bot token was revoked: the connection is closed", "bot token revoked")
}

// markBotSeats marks the bot accounts' seats of a summary built from the
// store (a table not in memory); tables in memory mark their own.
func (s *Server) markBotSeats(sum *table.Summary) {
	for i := range sum.Seats {
		if sum.Seats[i].Kind == protocol.SeatHuman && s.isBotAccount(sum.Seats[i].Player) {
			sum.Seats[i].BotAccount = true
		}
	}
}

// botRoutes routes the bot-account endpoints and loads the bot players.
// A room whose list cannot be read starts without the badges (logged):
// the players still play, and tokens still authenticate.
func (s *Server) botRoutes(m *http.ServeMux) {
	b := &botAccounts{cfg: s.cfg.Bots}
	b.cfg.defaults()
	b.st, _ = s.store.(store.BotAccounts)
	s.bots = b
	if b.st != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		ps, err := b.st.Bots(ctx, b.cfg.MaxBotAccounts)
		cancel()
		if err != nil {
			s.log.Error("load the bot accounts", "err", err)
		}
		for _, p := range ps {
			b.set.Store(p.Player, p.Since)
		}
		b.n.Store(int64(len(ps)))
	}
	m.HandleFunc("POST /api/account/bot", s.auth(s.handleMakeBot))
	m.HandleFunc("GET /api/account/bot", s.auth(s.handleBotAccount))
	m.HandleFunc("DELETE /api/account/bot/tokens/{id}", s.auth(s.handleRevokeBotToken))
}

// botMetrics writes the bot-account metrics with handleMetrics' writer.
func (s *Server) botMetrics(metric func(name, typ, help string, v any)) {
	b := s.bots
	metric("cardroom_bot_accounts", "gauge", "Accounts marked as bots (bounded by -max-bot-accounts).", b.n.Load())
	metric("cardroom_bot_tokens_issued_total", "counter", "Bot API tokens issued.", b.issued.Load())
	metric("cardroom_bot_tokens_revoked_total", "counter", "Bot API tokens revoked.", b.revoked.Load())
	metric("cardroom_bot_tokens_refused_total", "counter", "Requests and handshakes refused for a malformed, revoked or unknown bot token.", b.refused.Load())
}
