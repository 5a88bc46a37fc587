// Command randombot is an example external bot: it talks to a Cardroom
// server with the same protocol as the browser (docs/protocol.md), through
// the Go client of package protocol, as a bot account (docs/bots.md, "Bot
// accounts"): it takes a seat and plays uniformly random legal moves (the
// random bot's logic) until the game ends, reconnecting after a drop.
//
// With a token issued before (POST /api/account/bot, or a first run below):
//
//	go run ./examples/randombot -url http://localhost:8080 -token bot_… -table t_abc123
//
// Or let it make its bot account: it logs in to the account -name with
// -password (claiming the name first if it has no account), marks it as a
// bot, and prints the new token to reuse with -token:
//
//	go run ./examples/randombot -name MyBot -password 'a long password' -quick papayoo
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"cardroom/protocol"
)

// config is what the flags say.
type config struct {
	base, token, name, password string
	table, invite               string
	quick, options              string
	seed                        uint64
	// out receives the game's result and a newly issued token.
	out io.Writer
}

func main() {
	var c config
	flag.StringVar(&c.base, "url", "http://localhost:8080", "server URL")
	flag.StringVar(&c.token, "token", os.Getenv("CARDROOM_BOT_TOKEN"), "the bot account's API token (bot_…; default $CARDROOM_BOT_TOKEN)")
	flag.StringVar(&c.name, "name", "", "without -token: the account to make a bot of (created if it does not exist)")
	flag.StringVar(&c.password, "password", "", "without -token: the account's password")
	flag.StringVar(&c.table, "table", "", "table to join (first free seat)")
	flag.StringVar(&c.invite, "invite", "", "invite code of a private table")
	flag.StringVar(&c.quick, "quick", "", "start a quick-play game of this game instead (with bots)")
	flag.StringVar(&c.options, "options", "", "game options for -quick, e.g. rounds=1")
	flag.Uint64Var(&c.seed, "seed", uint64(time.Now().UnixNano()), "random seed")
	flag.Parse()
	c.out = os.Stdout
	if err := run(context.Background(), c); err != nil {
		log.Fatal(err)
	}
}

// botToken returns the API token to connect with: -token, or a new one of
// the account -name, which is logged in to (or claimed, when the name has
// no account yet) and marked as a bot.
func botToken(ctx context.Context, c config) (string, error) {
	if c.token != "" {
		return c.token, nil
	}
	if c.name == "" || c.password == "" {
		return "", errors.New("give -token, or -name and -password to make a bot account")
	}
	sess, err := protocol.Login(ctx, nil, c.base, c.name, c.password)
	var he *protocol.HTTPError
	if errors.As(err, &he) && he.Body.Error.Code == protocol.BadCredentials {
		// No such account (or a wrong password: then the claim below is
		// refused with name_taken). Claim the name as a new account.
		if sess, err = protocol.NewSession(ctx, nil, c.base, c.name); err != nil {
			return "", err
		}
		if _, err = protocol.Claim(ctx, nil, c.base, sess.Token, "", c.password); err != nil {
			return "", fmt.Errorf("claim %q: %w", c.name, err)
		}
	} else if err != nil {
		return "", err
	}
	t, err := protocol.MakeBot(ctx, nil, c.base, sess.Token, "randombot")
	if err != nil {
		return "", err
	}
	// Shown once: the room keeps only its hash.
	fmt.Fprintf(c.out, "bot token (keep it; use it with -token): %s\n", t.Token)
	return t.Token, nil
}

func run(ctx context.Context, c config) error {
	rng := rand.New(rand.NewPCG(c.seed, c.seed>>1|1))
	// 1. The bot account's token is our identity (Bearer), on HTTP and on
	// the WebSocket alike.
	token, err := botToken(ctx, c)
	if err != nil {
		return err
	}
	tableID := c.table
	// 2. Quick play creates a table with us at seat 0 and bots elsewhere
	// (a casual one: bot accounts do not play rated games).
	if c.quick != "" {
		opts := map[string]string{}
		for _, kv := range strings.Fields(strings.ReplaceAll(c.options, ",", " ")) {
			k, v, _ := strings.Cut(kv, "=")
			opts[k] = v
		}
		var sum protocol.Summary
		if err := protocol.PostJSON(ctx, nil, c.base+"/api/quickplay", token, protocol.CreateReq{Game: c.quick, Options: opts}, &sum); err != nil {
			return err
		}
		tableID = sum.ID
	}
	if tableID == "" {
		return fmt.Errorf("give -table or -quick")
	}
	// 3. The WebSocket, with the token as a Bearer header; Dial reads the
	// welcome.
	cl, err := protocol.Dial(ctx, c.base, &protocol.Options{Token: token})
	if err != nil {
		return err
	}
	defer cl.CloseNow()
	// 4. Join (a seat we already hold, e.g. from quick play, is returned,
	// with the table's state).
	join := func() error {
		return cl.Send(ctx, protocol.JoinReq{ID: json.RawMessage(`"join"`), Table: tableID, Invite: c.invite})
	}
	if err := join(); err != nil {
		return err
	}
	log.Printf("joined table %s (watch it at %s/?table=%s)", tableID, c.base, tableID)
	lastSeq, drops := -1, 0
	var sent *protocol.MoveReq // the last move sent, to send again if it was dropped
	for {
		msg, _, err := cl.Next(ctx)
		if err != nil {
			// 6. A dropped connection (a restart, the network): dial again
			// with the same token and join again, a few times, backing off.
			if drops++; drops > 5 || ctx.Err() != nil {
				return err
			}
			log.Printf("connection lost (%v): reconnecting", err)
			time.Sleep(time.Duration(drops) * time.Second)
			if _, err := cl.Redial(ctx); err != nil {
				var he *protocol.HandshakeError
				if errors.As(err, &he) && he.StatusCode == 401 {
					return fmt.Errorf("the token was refused (revoked?): %w", err)
				}
				continue
			}
			lastSeq = -1
			if err := join(); err != nil {
				return err
			}
			continue
		}
		switch m := msg.(type) {
		case *protocol.ErrorMsg:
			// Refusals of stale moves are normal; anything else is worth a look.
			log.Printf("error %s: %s", m.Code, m.Message)
			switch m.Code {
			case protocol.RateLimited:
				// 7. Too fast: the room dropped the message. Wait as long
				// as it says (or a moment) and send the move again; the
				// table does not move on without it. (If it was made
				// meanwhile, the copy is refused as stale: harmless.)
				wait := 250 * time.Millisecond
				if m.Limit != nil && m.Limit.Retry > 0 {
					wait = time.Duration(m.Limit.Retry) * time.Second
				}
				time.Sleep(wait)
				if sent != nil {
					if err := cl.Send(ctx, *sent); err != nil {
						return err
					}
				}
			case protocol.Unauthorized:
				return fmt.Errorf("the token stopped working (revoked): %s", m.Message)
			case protocol.Forbidden, protocol.NoTable, protocol.TableFull, protocol.NotOpen:
				return fmt.Errorf("%s", m.Message)
			}
		case *protocol.StateMsg:
			if m.Table != tableID {
				continue
			}
			if m.Status == protocol.StatusFinished {
				res, _ := json.Marshal(m.Result)
				fmt.Fprintf(c.out, "game over: %s\n", res)
				return nil
			}
			// 5. The random bot's logic: a uniformly random legal move. When
			// a seat has too many moves to list (a pick), legal still holds
			// a few of them, which is all a random bot needs.
			if len(m.Legal) > 0 && m.Seq > lastSeq {
				lastSeq = m.Seq
				mv := m.Legal[rng.IntN(len(m.Legal))]
				id, _ := json.Marshal(m.Seq)
				sent = &protocol.MoveReq{ID: id, Table: tableID, Move: mv}
				if err := cl.Send(ctx, *sent); err != nil {
					return err
				}
			}
		}
	}
}
