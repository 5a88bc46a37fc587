package store

import (
	"context"
	"errors"
	"sort"
	"time"
)

// Bot accounts (docs/bots.md, "Bot accounts"): an account marked as a bot
// and the API tokens its programs connect with. Marking is for good: a
// bot's games and casual results stay a bot's, so nobody can play as a
// human, switch to a program and back.

// ErrNotBot is returned by CreateBotToken for a player that is not a bot
// account.
var ErrNotBot = errors.New("the player is not a bot account")

// ErrTooManyTokens is returned by CreateBotToken when the bot already has
// its limit of tokens.
var ErrTooManyTokens = errors.New("the bot has its limit of API tokens")

// Bot is a bot account: its player id and since when it is a bot.
type Bot struct {
	Player string
	Since  time.Time
}

// BotToken is one API token of a bot account. Only the SHA-256 of the
// token is kept: the token itself is shown once, when it is issued.
type BotToken struct {
	Hash    string // hex SHA-256 of the token
	Player  string
	Label   string // the owner's note, e.g. "laptop"
	Created time.Time
}

// BotAccounts is the persistence of bot accounts, beside Store and
// Accounts: a store that implements it (both of this package's do) enables
// the bot endpoints.
type BotAccounts interface {
	// MarkBot makes the account of player a bot and returns since when it
	// is one: at, or the first marking's time if it was marked before
	// (marking is idempotent). ErrNotFound if the player has no account.
	MarkBot(ctx context.Context, player string, at time.Time) (time.Time, error)
	// Bots lists at most limit bot accounts, in player id order (the
	// server keeps them in memory to mark seats).
	Bots(ctx context.Context, limit int) ([]Bot, error)
	// CreateBotToken stores a token of a bot account unless it already has
	// limit tokens (ErrTooManyTokens); ErrNotBot if the player is not a bot.
	CreateBotToken(ctx context.Context, t BotToken, limit int) error
	// BotToken returns the token whose hash is given, or ErrNotFound.
	BotToken(ctx context.Context, hash string) (BotToken, error)
	// BotTokensOf lists the player's tokens, newest first.
	BotTokensOf(ctx context.Context, player string) ([]BotToken, error)
	// DeleteBotToken deletes one of the player's tokens; ErrNotFound if
	// the player has no token with this hash.
	DeleteBotToken(ctx context.Context, player, hash string) error
}

var (
	_ BotAccounts = (*Memory)(nil)
	_ BotAccounts = (*SQLite)(nil)
)

// sortBotTokens orders tokens newest first (ties by hash).
func sortBotTokens(ts []BotToken) {
	sort.Slice(ts, func(i, j int) bool {
		if !ts[i].Created.Equal(ts[j].Created) {
			return ts[i].Created.After(ts[j].Created)
		}
		return ts[i].Hash < ts[j].Hash
	})
}

// memBots is the Memory store's part of BotAccounts.
type memBots struct {
	since  map[string]time.Time // player -> marked
	tokens map[string]BotToken  // by hash
}

// botsLocked returns m.bots, made on first use; m.mu is held.
func (m *Memory) botsLocked() *memBots {
	if m.bots == nil {
		m.bots = &memBots{since: map[string]time.Time{}, tokens: map[string]BotToken{}}
	}
	return m.bots
}

// MarkBot implements BotAccounts.
func (m *Memory) MarkBot(_ context.Context, player string, at time.Time) (time.Time, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.accounts[player]; !ok {
		return time.Time{}, ErrNotFound
	}
	b := m.botsLocked()
	if t, ok := b.since[player]; ok {
		return t, nil
	}
	b.since[player] = at
	return at, nil
}

// Bots implements BotAccounts.
func (m *Memory) Bots(_ context.Context, limit int) ([]Bot, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Bot
	for p, t := range m.botsLocked().since {
		out = append(out, Bot{Player: p, Since: t})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Player < out[j].Player })
	if len(out) > limit {
		out = out[:max(0, limit)]
	}
	return out, nil
}

// CreateBotToken implements BotAccounts.
func (m *Memory) CreateBotToken(_ context.Context, t BotToken, limit int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.botsLocked()
	if _, ok := b.since[t.Player]; !ok {
		return ErrNotBot
	}
	n := 0
	for _, x := range b.tokens {
		if x.Player == t.Player {
			n++
		}
	}
	if n >= limit {
		return ErrTooManyTokens
	}
	b.tokens[t.Hash] = t
	return nil
}

// BotToken implements BotAccounts.
func (m *Memory) BotToken(_ context.Context, hash string) (BotToken, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.botsLocked().tokens[hash]
	if !ok {
		return BotToken{}, ErrNotFound
	}
	return t, nil
}

// BotTokensOf implements BotAccounts.
func (m *Memory) BotTokensOf(_ context.Context, player string) ([]BotToken, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []BotToken
	for _, t := range m.botsLocked().tokens {
		if t.Player == player {
			out = append(out, t)
		}
	}
	sortBotTokens(out)
	return out, nil
}

// DeleteBotToken implements BotAccounts.
func (m *Memory) DeleteBotToken(_ context.Context, player, hash string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.botsLocked()
	if t, ok := b.tokens[hash]; !ok || t.Player != player {
		return ErrNotFound
	}
	delete(b.tokens, hash)
	return nil
}
