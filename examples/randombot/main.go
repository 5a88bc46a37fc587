// Command randombot is an example external bot: it talks to a Cardroom
// server with the same protocol as the browser (docs/protocol.md), through
// the Go client of package protocol, takes a seat and plays uniformly
// random legal moves (the random bot's logic) until the game ends.
//
//	go run ./examples/randombot -url http://localhost:8080 -table t_abc123
//	go run ./examples/randombot -url http://localhost:8080 -quick papayoo
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"cardroom/protocol"
)

func main() {
	base := flag.String("url", "http://localhost:8080", "server URL")
	name := flag.String("name", "randombot", "display name")
	tableID := flag.String("table", "", "table to join (first free seat)")
	invite := flag.String("invite", "", "invite code of a private table")
	quick := flag.String("quick", "", "start a quick-play game of this game instead (with bots)")
	options := flag.String("options", "", "game options for -quick, e.g. rounds=1")
	seed := flag.Uint64("seed", uint64(time.Now().UnixNano()), "random seed")
	flag.Parse()
	if err := run(*base, *name, *tableID, *invite, *quick, *options, *seed); err != nil {
		log.Fatal(err)
	}
}

func run(base, name, tableID, invite, quick, options string, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, seed>>1|1))
	ctx := context.Background()
	// 1. A guest session: the token is our identity (Bearer).
	sess, err := protocol.NewSession(ctx, nil, base, name)
	if err != nil {
		return err
	}
	// 2. Quick play creates a table with us at seat 0 and bots elsewhere.
	if quick != "" {
		opts := map[string]string{}
		for _, kv := range strings.Fields(strings.ReplaceAll(options, ",", " ")) {
			k, v, _ := strings.Cut(kv, "=")
			opts[k] = v
		}
		var sum protocol.Summary
		if err := protocol.PostJSON(ctx, nil, base+"/api/quickplay", sess.Token, protocol.CreateReq{Game: quick, Options: opts}, &sum); err != nil {
			return err
		}
		tableID = sum.ID
	}
	if tableID == "" {
		return fmt.Errorf("give -table or -quick")
	}
	// 3. The WebSocket, with the token as a Bearer header; Dial reads the
	// welcome.
	c, err := protocol.Dial(ctx, base, &protocol.Options{Token: sess.Token})
	if err != nil {
		return err
	}
	defer c.CloseNow()
	// 4. Join (a seat we already hold, e.g. from quick play, is returned).
	if err := c.Send(ctx, protocol.JoinReq{ID: json.RawMessage(`"join"`), Table: tableID, Invite: invite}); err != nil {
		return err
	}
	log.Printf("%s joined table %s (watch it at %s/?table=%s)", name, tableID, base, tableID)
	lastSeq := -1
	for {
		msg, _, err := c.Next(ctx)
		if err != nil {
			return err
		}
		switch m := msg.(type) {
		case *protocol.ErrorMsg:
			// Refusals of stale moves are normal; anything else is worth a look.
			log.Printf("error %s: %s", m.Code, m.Message)
			switch m.Code {
			case protocol.Forbidden, protocol.NoTable, protocol.TableFull, protocol.NotOpen:
				return fmt.Errorf("%s", m.Message)
			}
		case *protocol.StateMsg:
			if m.Table != tableID {
				continue
			}
			if m.Status == "finished" {
				res, _ := json.Marshal(m.Result)
				fmt.Fprintf(os.Stdout, "game over: %s\n", res)
				return nil
			}
			// 5. The random bot's logic: a uniformly random legal move.
			if len(m.Legal) > 0 && m.Seq > lastSeq {
				lastSeq = m.Seq
				mv := m.Legal[rng.IntN(len(m.Legal))]
				id, _ := json.Marshal(m.Seq)
				if err := c.Send(ctx, protocol.MoveReq{ID: id, Table: tableID, Move: mv}); err != nil {
					return err
				}
			}
		}
	}
}
