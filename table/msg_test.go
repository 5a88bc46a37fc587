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
	"cardroom/protocol"
	"cardroom/store"
)

// refStateMsg is the state message built the plain way: the whole
// protocol.StateMsg through encoding/json, the legal moves formatted
// afresh, the shared part as of now. stateMsg must write exactly these
// bytes when t.common was written at now.
func (t *Table) refStateMsg(seat game.Seat, now time.Time) []byte {
	c := t.refCommon(now)
	m := protocol.StateMsg{Table: t.id, Seq: t.log.len(), Status: t.wireStatus(), Seat: seat,
		Legal: []string{}, ToAct: []game.Seat{}, Game: c.Game, Options: c.Options, Clock: c.Clock, Seats: c.Seats,
		Result: c.Result, ServerTimeMS: c.ServerTimeMS}
	var view game.View
	if t.meta.Status != store.StatusOpen {
		view = t.st.View(game.Seat(seat))
		if t.meta.Status == store.StatusPlaying {
			m.ToAct = t.st.ToAct(m.ToAct)
		}
		if seat >= 0 && slices.Contains(m.ToAct, game.Seat(seat)) {
			moves := t.st.Legal(game.Seat(seat), nil)
			m.LegalCount = len(moves)
			listed := t.cfg.MaxLegal
			if pk, ok := t.st.(game.Picker); ok && len(moves) > 0 {
				if p, ok := pk.Pick(game.Seat(seat)); ok {
					listed = min(listed, protocol.PickListed)
					m.Pick = &protocol.Pick{Verb: p.Verb, N: p.N, From: []string{}}
					for _, c := range p.From.Cards(t.st.Engine().Deck(), nil) {
						m.Pick.From = append(m.Pick.From, t.st.Engine().Deck().Format(c))
					}
				}
			}
			for i, mv := range moves {
				if i >= listed {
					break
				}
				m.Legal = append(m.Legal, t.st.FormatMove(mv))
			}
		}
	}
	m.View, _ = json.Marshal(view)
	if t.hist.frag != nil {
		// The entries as a client decodes them (protocol.HistoryEntry),
		// written again by encoding/json.
		m.History = new(protocol.MoveHistory)
		if err := json.Unmarshal(t.hist.frag, m.History); err != nil {
			panic(err)
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

// refCommon is the shared part of the state messages at now.
func (t *Table) refCommon(now time.Time) protocol.StateCommon {
	c := protocol.StateCommon{Game: t.meta.Game, Options: t.opts, Seats: t.seatInfos(), ServerTimeMS: now.UnixMilli()}
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
	return c
}

// refCommonJSON is protocol.StateCommon marshalled by encoding/json.
func (t *Table) refCommonJSON(now time.Time) []byte {
	b, _ := json.Marshal(t.refCommon(now))
	return b
}

// TestHandWrittenJSON: over whole random games of every engine (4 seats),
// every observer's state message is byte for byte the one encoding/json
// writes of protocol.StateMsg, whatever the legal-move cache holds
// (protocol's own TestHandWrittenJSON checks the encoder on odd strings
// and ids).
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
					// The history: the whole of it, or what is new since
					// the last broadcast (none: no history field).
					switch steps % 3 {
					case 0:
						tb.hist.frag = tb.histAll()
					case 1:
						tb.hist.frag = tb.histNew()
					}
					for s := game.Spectator; s < 4; s++ {
						got, want := tb.stateMsg(s), tb.refStateMsg(s, now)
						if !bytes.Equal(got, want) {
							t.Fatalf("step %d seat %d:\n got %s\nwant %s", steps, s, got, want)
						}
					}
					if from := max(0, tb.hist.count()-protocol.MaxHistory); steps%3 == 0 && steps > 0 &&
						!bytes.Contains(tb.stateMsg(game.Spectator), []byte(`"history":{"from":`+strconv.Itoa(from)+`,`)) {
						t.Fatalf("step %d: the whole history (from %d) is not in the message", steps, from)
					}
					tb.common, tb.hist.frag = nil, nil
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
					if err := tb.apply(s, tb.st.FormatMove(moves[rng.IntN(len(moves))]), false); err != nil {
						t.Fatal(err)
					}
				}
				// The end: status finished, the result in the message.
				tb.advance()
				now := time.Now()
				tb.common = tb.commonJSONAt(now)
				for s := game.Spectator; s < 4; s++ {
					if got, want := tb.stateMsg(s), tb.refStateMsg(s, now); !bytes.Equal(got, want) {
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
		for s := game.Spectator; s < 4; s++ {
			if got, want := tb.stateMsg(s), tb.refStateMsg(s, now); !bytes.Equal(got, want) || !bytes.Contains(got, []byte(`"view":null`)) {
				t.Errorf("open table, seat %d:\n got %s\nwant %s", s, got, want)
			}
		}
	})
	tb.Stop()
}
