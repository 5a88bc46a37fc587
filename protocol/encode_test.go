package protocol

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"

	"cardroom/game"
)

// Strings that encoding/json writes in every way: plain, escaped, HTML
// escaped, non-ASCII, the line separators it escapes, invalid UTF-8.
var oddStrings = []string{"", "play 10S", `a"b`, `a\b`, "a<b>&", "é", "\u2028", "\x01", "\xff", "t_7gq2m4xk"}

// handState writes m the way the table does: the head, the shared part,
// the view.
func handState(m testState) []byte {
	opts, _ := json.Marshal(m.Options)
	seats, _ := json.Marshal(m.Seats)
	common := AppendStateCommon(nil, m.Game, opts, m.Clock, seats, m.Result, m.ServerTimeMS)
	legal := AppendLegal(nil, m.Legal...)
	b := AppendStateHead(nil, m.Table, m.Seq, m.Status, m.Seat, m.ToAct, legal, m.LegalCount)
	b = AppendPick(b, m.Pick)
	var hist []byte
	if m.History != nil {
		hist = AppendHistory(nil, m.History.From, m.histJSON)
	}
	return AppendStateEnd(b, common, hist, m.View)
}

// testState is a state message with its history entries also written by
// hand (game.Entry.AppendJSON), as the table keeps them.
type testState struct {
	*StateMsg
	histJSON []byte
}

// randomEntry is a history entry with every field random, empty or zero.
func randomEntry(rng *rand.Rand) game.Entry {
	cards := func() []game.Card {
		if rng.IntN(3) == 0 {
			return nil
		}
		cs := []game.Card{}
		for range rng.IntN(4) {
			cs = append(cs, game.Standard.Card(rng.IntN(53)))
		}
		return cs
	}
	kinds := []game.Kind{game.KindPlay, game.KindTrick, game.KindMeld, game.KindHand, "odd<kind>", "é"}
	e := game.Entry{Seat: game.Seat(rng.IntN(6) - 1), Kind: kinds[rng.IntN(len(kinds))], Cards: cards(), As: cards(),
		Count: rng.IntN(3), Points: rng.IntN(5) - 2, Meld: rng.IntN(3), To: game.Seat(rng.IntN(4)), HasTo: rng.IntN(2) == 0,
		Suit: game.Suit(rng.IntN(4)), HasSuit: rng.IntN(2) == 0}
	if rng.IntN(2) == 0 {
		e.Why = []game.Why{game.WhySeven, game.WhyEnd, `a"b`}[rng.IntN(3)]
	}
	if rng.IntN(2) == 0 {
		e.By = []game.By{game.ByAway, game.ByTimeout}[rng.IntN(2)]
	}
	if rng.IntN(2) == 0 {
		for range rng.IntN(3) {
			e.Scores = append(e.Scores, rng.IntN(200)-50)
		}
	}
	if rng.IntN(2) == 0 {
		for range rng.IntN(4) {
			h := cards()
			if h == nil {
				h = []game.Card{}
			}
			e.Hands = append(e.Hands, h)
		}
	}
	return e
}

func randomState(rng *rand.Rand) testState {
	pick := func() string { return oddStrings[rng.IntN(len(oddStrings))] }
	m := &StateMsg{Table: pick(), Seq: rng.IntN(1000), Status: TableStatus(pick()), Seat: game.Seat(rng.IntN(6) - 1),
		ToAct: []game.Seat{}, Legal: []string{}, Game: pick(), Options: game.Options{},
		ServerTimeMS: rng.Int64(), View: json.RawMessage(`null`)}
	for range rng.IntN(4) {
		m.ToAct = append(m.ToAct, game.Seat(rng.IntN(8)))
	}
	for range rng.IntN(5) {
		m.Legal = append(m.Legal, pick())
	}
	m.LegalCount = len(m.Legal) + rng.IntN(3)
	if rng.IntN(3) == 0 {
		m.Pick = &Pick{Verb: pick(), N: rng.IntN(6), From: []string{}}
		for range rng.IntN(4) {
			m.Pick.From = append(m.Pick.From, pick())
		}
	}
	for range rng.IntN(3) {
		m.Options[pick()] = pick()
	}
	for i := range rng.IntN(5) {
		m.Seats = append(m.Seats, SeatInfo{Seat: game.Seat(i), Name: pick(), Kind: SeatKind(pick()), Player: pick(), Connected: rng.IntN(2) == 0, Away: rng.IntN(2) == 0})
	}
	if rng.IntN(2) == 0 {
		m.Clock = &Clock{MS: 30000, Remaining: map[string]int{strconv.Itoa(rng.IntN(4)): rng.IntN(30000)}}
	}
	if rng.IntN(3) == 0 {
		m.Result = &game.Result{Totals: []int{1, 2}, Rounds: [][]int{{1, 2}}, Winners: []game.Seat{0}}
	}
	if rng.IntN(2) == 0 {
		v, _ := json.Marshal(map[string]any{"hand": []string{pick(), pick()}, "observer": m.Seat})
		m.View = v
	}
	ts := testState{StateMsg: m}
	if rng.IntN(2) == 0 {
		m.History = &MoveHistory{From: rng.IntN(50), Entries: []HistoryEntry{}}
		for i := range rng.IntN(5) {
			if i > 0 {
				ts.histJSON = append(ts.histJSON, ',')
			}
			e := randomEntry(rng)
			ts.histJSON = e.AppendJSON(ts.histJSON, game.Standard)
			m.History.Entries = append(m.History.Entries, EntryOf(&e, game.Standard))
		}
	}
	return ts
}

// TestHandWrittenJSON: the hand-written state, ack and lobby messages are
// byte for byte what encoding/json writes of their types, over random
// messages full of strings that encoding/json escapes. (table's own
// TestHandWrittenJSON checks the table's messages over whole games.)
func TestHandWrittenJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		m := randomState(rng)
		want, err := json.Marshal(m.StateMsg)
		if err != nil {
			t.Fatal(err)
		}
		if got := handState(m); !bytes.Equal(got, want) {
			t.Fatalf("state %d:\n got %s\nwant %s", i, got, want)
		}
	}
	for _, id := range []string{"", `"x1"`, `17`, `"a<b"`, `"é"`, `null`, `"a b"`} {
		want, _ := json.Marshal(AckMsg{ID: json.RawMessage(id), Table: "t_x", Seq: 12})
		if got := AppendAck(nil, json.RawMessage(id), "t_x", 12); !bytes.Equal(got, want) {
			t.Errorf("ack with id %q: got %s, want %s", id, got, want)
		}
	}
	for _, s := range oddStrings {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("string %q: got %s, want %s", s, got, want)
		}
	}
	tables := []*Summary{{ID: "t_1", Game: "papayoo", Seats: []SeatInfo{{Seat: 0, Kind: "empty"}}}}
	list, _ := json.Marshal(tables)
	want, _ := json.Marshal(LobbyMsg{Tables: tables})
	if got := AppendLobby(nil, list); !bytes.Equal(got, want) {
		t.Errorf("lobby: got %s, want %s", got, want)
	}
}

// benchState is a state message of a 4-seat game in the middle of a
// round: a hand, a trick, scores, seven legal moves, a clock.
func benchState() *StateMsg {
	view, _ := json.Marshal(map[string]any{
		"observer": 0, "hand": []string{"1S", "4S", "9S", "2H", "7H", "10H", "3D", "8D", "11D", "5C", "12C", "6P", "13P", "20P"},
		"trick": map[string]any{"leader": 3, "cards": []string{"7H"}}, "scores": []int{12, 40, 3, 0}, "round": 1, "dice": "H",
		"tricks": []int{2, 1, 0, 1}, "passed": []string{"10S", "7C", "20P", "3C", "12P"},
	})
	return &StateMsg{Table: "t_7gq2m4xk", Seq: 37, Status: "playing", Seat: 0, ToAct: []game.Seat{0},
		Legal: []string{"play 2H", "play 7H", "play 10H", "play 1S", "play 4S", "play 9S", "play 3D"}, LegalCount: 7,
		Game: "papayoo", Options: game.Options{"players": "4", "rounds": "1", "first_dealer": "random", "tie_break": "shared"},
		Clock: &Clock{MS: 30000, Remaining: map[string]int{"0": 28750}},
		Seats: []SeatInfo{{Seat: 0, Name: "alice", Kind: "human", Player: "p_k2j4h5g6", Connected: true},
			{Seat: 1, Name: "bot:random", Kind: "bot", Level: "random", Connected: true},
			{Seat: 2, Name: "bob", Kind: "human", Player: "p_aaaaaaaa", Connected: true},
			{Seat: 3, Name: "carol", Kind: "human", Player: "p_bbbbbbbb", Connected: true}},
		ServerTimeMS: 1795964400000, View: view}
}

// BenchmarkState compares the two ways of writing one broadcast of a state
// message to four seats and a spectator: "hand" as the table does it (the
// options and seats written once and kept, the shared part written once
// per broadcast, each seat's head by hand), "plain" through encoding/json
// for every observer. The views are marshalled beforehand in both (they
// are the engines' and cost the same either way).
func BenchmarkState(b *testing.B) {
	m := benchState()
	b.Run("hand", func(b *testing.B) {
		opts, _ := json.Marshal(m.Options)
		seats, _ := json.Marshal(m.Seats)
		legal := AppendLegal(nil, m.Legal...)
		b.ReportAllocs()
		for b.Loop() {
			common := AppendStateCommon(make([]byte, 0, 64+len(opts)+len(seats)), m.Game, opts, m.Clock, seats, m.Result, m.ServerTimeMS)
			for seat := game.Spectator; seat < 4; seat++ {
				out := make([]byte, 0, 128+len(m.Table)+len(legal)+len(common)+len(m.View))
				out = AppendStateHead(out, m.Table, m.Seq, m.Status, seat, m.ToAct, legal, m.LegalCount)
				out = AppendStateEnd(out, common, nil, m.View)
				_ = out
			}
		}
	})
	b.Run("plain", func(b *testing.B) {
		type plain StateMsg // encoding/json's own struct encoder, not MarshalJSON
		b.ReportAllocs()
		for b.Loop() {
			for seat := game.Spectator; seat < 4; seat++ {
				c := plain(*m)
				c.Type, c.Seat = TypeState, seat
				if _, err := json.Marshal(c); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
