package table

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/store"
)

// refStateMsg is the state message built the plain way: encoding/json for
// every part and the legal moves formatted afresh. stateMsg must write
// exactly these bytes.
func (t *Table) refStateMsg(seat int) []byte {
	h := stateHead{Type: "state", Table: t.id, Seq: len(t.log), Status: t.meta.Status, Seat: seat,
		Legal: []string{}, ToAct: []game.Seat{}}
	var view game.View
	if t.meta.Status != store.StatusOpen {
		view = t.st.View(game.Seat(seat))
		h.ToAct = t.st.ToAct(h.ToAct)
		if seat >= 0 && slices.Contains(h.ToAct, game.Seat(seat)) {
			t.moveBuf = t.st.Legal(game.Seat(seat), t.moveBuf[:0])
			h.LegalCount = len(t.moveBuf)
			for i, mv := range t.moveBuf {
				if i >= t.cfg.MaxLegal {
					break
				}
				h.Legal = append(h.Legal, t.st.FormatMove(mv))
			}
			if cap(t.moveBuf) > 4*t.cfg.MaxLegal {
				t.moveBuf = nil
			}
		}
	}
	head, _ := json.Marshal(h)
	common := t.common
	if common == nil {
		common = t.commonJSON()
	}
	vb, _ := json.Marshal(view)
	var out []byte
	out = append(out, head[:len(head)-1]...)
	out = append(out, ',')
	out = append(out, common[1:len(common)-1]...)
	out = append(out, `,"view":`...)
	out = append(out, vb...)
	return append(out, '}')
}

// refBroadcast is broadcast as it was before the hand-written messages
// and the legal-move cache (for BenchmarkMove's "plain" variant): every
// part through encoding/json, the legal moves formatted afresh.
func (t *Table) refBroadcast() {
	if t.meta.ClockMS > 0 && t.meta.Status == store.StatusPlaying {
		now := time.Now()
		t.toAct = t.st.ToAct(t.toAct[:0])
		for _, s := range t.toAct {
			ss := &t.seats[s]
			if t.meta.Seats[s].Bot == "" && ss.deadline.IsZero() && !ss.expired {
				ss.deadline = now.Add(time.Duration(t.meta.ClockMS) * time.Millisecond)
			}
		}
	}
	t.common = t.refCommonJSON(time.Now())
	defer func() { t.common = nil }()
	cache := map[int][]byte{}
	var dead []Subscriber
	for sub := range t.subs {
		seats := t.seatsOf(sub.Player())
		if len(seats) == 0 {
			seats = []int{int(game.Spectator)}
		}
		for _, s := range seats {
			b, ok := cache[s]
			if !ok {
				b = t.refStateMsg(s)
				cache[s] = b
			}
			if b != nil && !sub.Send(b) {
				dead = append(dead, sub)
				break
			}
		}
	}
	for _, sub := range dead {
		t.drop(sub)
	}
}

// refCommonJSON is stateCommon marshalled by encoding/json.
func (t *Table) refCommonJSON(now time.Time) []byte {
	c := stateCommon{Game: t.meta.Game, Options: t.opts, Seats: t.seatInfos(), ServerTimeMS: now.UnixMilli()}
	if t.meta.Status != store.StatusOpen {
		if t.meta.ClockMS > 0 && t.meta.Status == store.StatusPlaying {
			cl := &Clock{MS: t.meta.ClockMS, Remaining: map[string]int{}}
			for _, s := range t.st.ToAct(nil) {
				if d := t.seats[s].deadline; !d.IsZero() {
					cl.Remaining[strconv.Itoa(int(s))] = int(max(0, d.Sub(now).Milliseconds()))
				}
			}
			c.Clock = cl
		}
		if t.st.Over() {
			r := t.st.Result()
			c.Result = &r
		}
	}
	b, _ := json.Marshal(c)
	return b
}

// TestHandWrittenJSON: over whole random games of every engine (4 seats),
// every observer's state message is byte for byte the one encoding/json
// writes, whatever the legal-move cache holds; the ack too.
func TestHandWrittenJSON(t *testing.T) {
	for _, g := range []struct{ name, opts string }{
		{"papayoo", "players=4 rounds=2"},
		{"rum500", "players=4 target=100"},
		{"pisyedili", "players=4 hands=1"},
	} {
		t.Run(g.name, func(t *testing.T) {
			if _, err := gamesLookup(g.name); err != nil {
				t.Skip(err)
			}
			seats := []store.Seat{{Player: "a", Name: "a"}, {Player: "b", Name: "b<&>"}, {Player: "c", Name: "c"}, {Player: "d", Name: "d"}}
			meta := store.Table{ID: "t_json", Game: g.name, Options: g.opts, Seed: 7, Owner: "a", Seats: seats, ClockMS: 60000}
			tb, err := Create(context.Background(), Config{Store: store.NewMemory(), Grace: time.Hour}, meta)
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Stop()
			rng := rand.New(rand.NewPCG(3, 4))
			steps := 0
			tb.do(context.Background(), func() {
				for ; steps < 3000 && !tb.st.Over(); steps++ {
					now := time.Now()
					tb.common = tb.commonJSONAt(now)
					if want := tb.refCommonJSON(now); !bytes.Equal(tb.common, want) {
						t.Fatalf("step %d common:\n got %s\nwant %s", steps, tb.common, want)
					}
					for s := -1; s < 4; s++ {
						got, want := tb.stateMsg(s), tb.refStateMsg(s)
						if !bytes.Equal(got, want) {
							t.Fatalf("step %d seat %d:\n got %s\nwant %s", steps, s, got, want)
						}
					}
					tb.common = nil
					if tb.st.ChancePending() {
						tb.advance()
						continue
					}
					if steps%7 == 3 {
						tb.seats[steps%4].away = !tb.seats[steps%4].away // seats change now and then
					}
					tb.schedule() // turn clocks
					to := tb.st.ToAct(nil)
					s := to[rng.IntN(len(to))]
					moves := tb.st.Legal(s, nil)
					if err := tb.apply(int(s), tb.st.FormatMove(moves[rng.IntN(len(moves))]), false); err != nil {
						t.Fatal(err)
					}
				}
				// The end: status finished, the result in the message.
				tb.advance()
				tb.common = tb.commonJSONAt(time.Now())
				for s := -1; s < 4; s++ {
					if got, want := tb.stateMsg(s), tb.refStateMsg(s); !bytes.Equal(got, want) {
						t.Fatalf("end, seat %d:\n got %s\nwant %s", s, got, want)
					}
				}
				if !tb.st.Over() || !bytes.Contains(tb.common, []byte(`"result":{`)) {
					t.Errorf("the game did not end in %d steps: %s", steps, tb.common)
				}
			})
			if steps < 50 {
				t.Errorf("only %d steps checked", steps)
			}
		})
	}
	// Before the start: no view, no legal moves.
	open := []store.Seat{{Player: "a", Name: "a"}, {}, {Bot: "random"}, {}}
	tb, err := Create(context.Background(), Config{Store: store.NewMemory(), Grace: time.Hour}, store.Table{ID: "t_open", Game: "papayoo", Options: "players=4", Seed: 1, Owner: "a", Seats: open})
	if err != nil {
		t.Fatal(err)
	}
	tb.do(context.Background(), func() {
		now := time.Now()
		tb.common = tb.commonJSONAt(now)
		if want := tb.refCommonJSON(now); !bytes.Equal(tb.common, want) {
			t.Errorf("open table, common:\n got %s\nwant %s", tb.common, want)
		}
		for s := -1; s < 4; s++ {
			if got, want := tb.stateMsg(s), tb.refStateMsg(s); !bytes.Equal(got, want) || !bytes.Contains(got, []byte(`"view":null`)) {
				t.Errorf("open table, seat %d:\n got %s\nwant %s", s, got, want)
			}
		}
	})
	tb.Stop()
	for _, id := range []string{"", `"x1"`, `17`, `"a<b"`, `"é"`, `null`} {
		want, _ := json.Marshal(struct {
			Type  string          `json:"type"`
			ID    json.RawMessage `json:"id,omitempty"`
			Table string          `json:"table"`
			Seq   int             `json:"seq"`
		}{"ack", json.RawMessage(id), "t_x", 12})
		if got := ackMsg(json.RawMessage(id), "t_x", 12); !bytes.Equal(got, want) {
			t.Errorf("ack with id %q: got %s, want %s", id, got, want)
		}
	}
	for _, s := range []string{"", "play 10S", `a"b`, `a\b`, "a<b>&", "é", "\u2028", "\x01", "\xff"} {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("string %q: got %s, want %s", s, got, want)
		}
	}
}
