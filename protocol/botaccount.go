package protocol

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// Bot accounts (docs/bots.md, "Bot accounts"; docs/protocol.md, "Bot
// accounts"): an account marked as a bot connects with an API token
// instead of a cookie session. The token goes in the Authorization header
// ("Bearer bot_…") of the WebSocket handshake and of HTTP requests; it is
// shown once, when issued, and kept by the room only as a hash.

// BotTokenPrefix starts every bot API token: a token is the prefix and 64
// lowercase hex digits (32 random bytes). The prefix tells a bot token
// from a session token at a glance (and to secret scanners).
const BotTokenPrefix = "bot_"

// MaxBotLabel bounds a token's label, in bytes.
const MaxBotLabel = 40

// BotReq is the body of POST /api/account/bot: mark the caller's account
// as a bot (the first time; for good) and issue a new API token. Label is
// an optional note to tell tokens apart ("laptop", "v2").
type BotReq struct {
	Label string `json:"label,omitempty"`
}

// BotToken answers POST /api/account/bot: the new token, shown this once.
type BotToken struct {
	Token string `json:"token"`
	// ID names the token for DELETE /api/account/bot/tokens/{id}; it is
	// not the token and cannot be used as one.
	ID      string    `json:"id"`
	Label   string    `json:"label,omitempty"`
	Created time.Time `json:"created"`
	Player  string    `json:"player"`
	Name    string    `json:"name"`
}

// BotTokenInfo is one token in BotAccount: everything but the token.
type BotTokenInfo struct {
	ID      string    `json:"id"`
	Label   string    `json:"label,omitempty"`
	Created time.Time `json:"created"`
	// Current marks the token of the request (a bot asking about itself).
	Current bool `json:"current,omitempty"`
}

// BotAccount answers GET /api/account/bot: whether the caller's account is
// a bot, since when, and its tokens, newest first.
type BotAccount struct {
	Player string         `json:"player"`
	Name   string         `json:"name"`
	Bot    bool           `json:"bot"`
	Since  time.Time      `json:"since,omitzero"`
	Tokens []BotTokenInfo `json:"tokens"`
}

// MakeBot marks the account of sessionToken (a login session, not a bot
// token) as a bot and returns a new API token (POST /api/account/bot). A
// refusal is an *HTTPError: no_account for a guest, rate_limited when the
// bot has its limit of tokens, forbidden with a bot token…
func MakeBot(ctx context.Context, hc *http.Client, baseURL, sessionToken, label string) (BotToken, error) {
	var t BotToken
	err := PostJSON(ctx, hc, baseURL+"/api/account/bot", sessionToken, BotReq{Label: label}, &t)
	if err == nil && t.Token == "" {
		err = errors.New("protocol: a bot token answer without a token")
	}
	return t, err
}
