// Command randombot is an example external bot: it talks to a Cardroom
// server with the same protocol as the browser (docs/protocol.md), takes a
// seat and plays uniformly random legal moves (the random bot's logic)
// until the game ends.
//
//	go run ./examples/randombot -url http://localhost:8080 -table t_abc123
//	go run ./examples/randombot -url http://localhost:8080 -quick papayoo
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// state is the part of the server's state message a bot needs.
type state struct {
	Type    string          `json:"type"`
	Table   string          `json:"table"`
	Seq     int             `json:"seq"`
	Seat    int             `json:"seat"`
	Status  string          `json:"status"`
	Legal   []string        `json:"legal"`
	Result  json.RawMessage `json:"result"`
	Code    string          `json:"code"`
	Message string          `json:"message"`
	ID      json.RawMessage `json:"id"`
}

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

func post(url, token string, body any, out any) error {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		var e struct {
			Error struct{ Code, Message string }
		}
		json.NewDecoder(resp.Body).Decode(&e)
		return fmt.Errorf("%s: %s: %s", url, e.Error.Code, e.Error.Message)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

func run(base, name, tableID, invite, quick, options string, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, seed>>1|1))
	// 1. A guest session: the token is our identity (Bearer).
	var sess struct{ Token, Player string }
	if err := post(base+"/api/session", "", map[string]string{"name": name}, &sess); err != nil {
		return err
	}
	// 2. Quick play creates a table with us at seat 0 and bots elsewhere.
	if quick != "" {
		opts := map[string]string{}
		for _, kv := range strings.Fields(strings.ReplaceAll(options, ",", " ")) {
			k, v, _ := strings.Cut(kv, "=")
			opts[k] = v
		}
		var sum struct{ ID string }
		if err := post(base+"/api/quickplay", sess.Token, map[string]any{"game": quick, "options": opts}, &sum); err != nil {
			return err
		}
		tableID = sum.ID
	}
	if tableID == "" {
		return fmt.Errorf("give -table or -quick")
	}
	// 3. The WebSocket, with the token as a Bearer header.
	ctx := context.Background()
	h := http.Header{}
	h.Set("Authorization", "Bearer "+sess.Token)
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws", &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		return err
	}
	defer ws.CloseNow()
	ws.SetReadLimit(1 << 22)
	send := func(v any) error {
		b, _ := json.Marshal(v)
		return ws.Write(ctx, websocket.MessageText, b)
	}
	// 4. Join (a seat we already hold, e.g. from quick play, is returned).
	if err := send(map[string]any{"type": "join", "table": tableID, "invite": invite, "id": "join"}); err != nil {
		return err
	}
	log.Printf("%s joined table %s (watch it at %s/?table=%s)", name, tableID, base, tableID)
	lastSeq := -1
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			return err
		}
		var m state
		if err := json.Unmarshal(b, &m); err != nil {
			return err
		}
		switch m.Type {
		case "error":
			// Refusals of stale moves are normal; anything else is worth a look.
			log.Printf("error %s: %s", m.Code, m.Message)
			if m.Code == "forbidden" || m.Code == "no_table" || m.Code == "table_full" || m.Code == "not_open" {
				return fmt.Errorf("%s", m.Message)
			}
		case "state":
			if m.Table != tableID {
				continue
			}
			if m.Status == "finished" {
				fmt.Fprintf(os.Stdout, "game over: %s\n", m.Result)
				return nil
			}
			// 5. The random bot's logic: a uniformly random legal move.
			if len(m.Legal) > 0 && m.Seq > lastSeq {
				lastSeq = m.Seq
				mv := m.Legal[rng.IntN(len(m.Legal))]
				if err := send(map[string]any{"type": "move", "table": tableID, "move": mv, "id": m.Seq}); err != nil {
					return err
				}
			}
		}
	}
}
