package protocol

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// The bodies and answers of the account endpoints (docs/protocol.md,
// "Accounts"; the design is in docs/accounts.md). They are HTTP only:
// nothing about accounts travels on the WebSocket.

// Password length bounds, in bytes of the NFKC-normalized password. The
// upper bound caps what one login costs to hash and store.
const (
	MinPassword = 8
	MaxPassword = 128
)

// ClaimReq is the body of POST /api/account: the caller's guest identity
// becomes an account protected by Password. Name is optional: empty claims
// the session's own name.
type ClaimReq struct {
	Name     string `json:"name,omitempty"`
	Password string `json:"password"`
}

// LoginReq is the body of POST /api/login. The answer is a Session (with
// its token, and the cookie set), for the account's player id.
type LoginReq struct {
	Name     string `json:"name"`
	Password string `json:"password"`
}

// PasswordReq is the body of POST /api/account/password.
type PasswordReq struct {
	Current  string `json:"current"`
	Password string `json:"password"`
}

// Account answers POST /api/account and GET /api/account.
type Account struct {
	Player          string    `json:"player"`
	Name            string    `json:"name"`
	Created         time.Time `json:"created"`
	PasswordChanged time.Time `json:"password_changed"`
}

// SessionInfo is one session in Sessions. ID names it for
// DELETE /api/sessions/{id}; it is not the token and cannot be used as one.
type SessionInfo struct {
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires"`
	// Current marks the session of the request.
	Current bool `json:"current,omitempty"`
}

// Sessions answers GET /api/sessions: the caller's sessions, newest first.
type Sessions struct {
	Sessions []SessionInfo `json:"sessions"`
}

// Revoked answers the requests that end sessions (DELETE /api/sessions,
// POST /api/account/password): how many sessions were ended.
type Revoked struct {
	OK      bool `json:"ok"`
	Revoked int  `json:"revoked"`
}

// Login logs in to an account (POST /api/login) and returns the new
// session, whose token a program sends as Bearer (as NewSession's). A
// refusal is an *HTTPError: bad_credentials, login_limited_account,
// login_limited_address…
func Login(ctx context.Context, hc *http.Client, baseURL, name, password string) (Session, error) {
	var s Session
	err := PostJSON(ctx, hc, baseURL+"/api/login", "", LoginReq{Name: name, Password: password}, &s)
	if err == nil && s.Token == "" {
		err = errors.New("protocol: a session without a token")
	}
	return s, err
}

// Claim turns the guest of token into an account (POST /api/account);
// name "" keeps the session's name.
func Claim(ctx context.Context, hc *http.Client, baseURL, token, name, password string) (Account, error) {
	var a Account
	err := PostJSON(ctx, hc, baseURL+"/api/account", token, ClaimReq{Name: name, Password: password}, &a)
	return a, err
}
