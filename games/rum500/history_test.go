package rum500

import (
	"testing"

	"cardroom/game"
	"cardroom/game/gametest"
)

// TestHistoryPublic plays random games of several option sets and checks
// every history entry: it names only cards the spectator sees after its
// step (never a card drawn from the stock), and every kind of
// docs/games/rum500.md appears.
func TestHistoryPublic(t *testing.T) {
	cfg := gametest.HistoryConfig{Seed: 3, Games: 2, Options: []game.Options{
		{"players": "2", "target": "100"},
		{"players": "4", "target": "100", "jokers": "2"},
		{"players": "3", "target": "100", "stock_exhausted": "turn_over_discards", "top_discard_free": "true"},
		{"players": "5", "target": "100", "stock_exhausted": "end_when_declined", "jokers": "2"},
	}}
	kinds := gametest.CheckHistory(t, Engine{}, cfg)
	for _, k := range []game.Kind{game.KindDeal, game.KindDraw, game.KindTake, game.KindMeld, game.KindLayoff, game.KindDiscard, game.KindOut, game.KindHand} {
		if kinds[k] == 0 {
			t.Errorf("no %q entry in the random games (%v)", k, kinds)
		}
	}
}

// TestHistoryKinds pins each kind of entry on a position built for it,
// with the rule that decides what it says.
func TestHistoryKinds(t *testing.T) {
	type step struct {
		text  string
		wants []string
	}
	for _, tc := range []struct {
		rule  string
		p     pos
		steps []step
	}{
		{"§6.1 a draw from the stock: a count, never the card; §6.3 a discard", pos{hands: []string{"8S 8D 5C", "2H 3H 4S", "9H 10H 6S"}, pile: "8H", stock: "rest"},
			[]step{{"draw", []string{`{"seat":0,"kind":"draw","count":1}`}}, {"discard 5C", []string{`{"seat":0,"kind":"discard","cards":["5C"]}`}}}},
		{"§6.1, §14.1: a deep take lists every card taken, then the meld it made", pos{hands: []string{"8S 8D 5C", "2H 3H 4S", "9H 10H 6S"}, pile: "8H KC 3S QD", stock: "rest"},
			[]step{{"take 8H meld 8S 8H 8D", []string{`{"seat":0,"kind":"take","cards":["8H","KC","3S","QD"],"count":4}`,
				`{"seat":0,"kind":"meld","cards":["8S","8H","8D"],"points":24,"meld":1}`}}}},
		{"§6.1, §14.2: a take laid off on an opponent's meld", pos{hands: []string{"9S KH", "2H 3H 4S", "8D 9H 10H"}, pile: "7D 2C", melds: []mspec{{"4D 5D 6D", 1}}, stock: "rest"},
			[]step{{"take 7D layoff 1", []string{`{"seat":0,"kind":"take","cards":["7D","2C"],"count":2}`,
				`{"seat":0,"kind":"layoff","cards":["7D"],"points":7,"meld":1}`}}}},
		{"§6.4, §9, §14.9: going out ends the hand: who, the scores, every hand shown", pos{hands: []string{"9C 10C", "5C 2D", "6C 3D"}, pile: "9H", stock: "JC 4S 4H"},
			[]step{{"draw", []string{`{"seat":0,"kind":"draw","count":1}`}},
				{"meld 9C 10C JC", []string{`{"seat":0,"kind":"meld","cards":["9C","10C","JC"],"points":29,"meld":1}`, `{"seat":0,"kind":"out"}`,
					`{"seat":-1,"kind":"hand","scores":[29,-7,-9],"hands":[[],["2D","5C"],["3D","6C"]]}`}}}},
		{"§12 jokers: a joker in a meld and laid off, with the card it stands for", pos{opts: "players=3 jokers=2", hands: []string{"JK JK 5C 7C 2D", "2H 3H 4S", "9H 10H 6S"}, pile: "9S", stock: "rest", play: true},
			[]step{{"meld 5C JK=6C 7C", []string{`{"seat":0,"kind":"meld","cards":["5C","JK","7C"],"points":27,"meld":1,"as":["6C"]}`}},
				{"layoff JK=8C 1", []string{`{"seat":0,"kind":"layoff","cards":["JK"],"points":15,"meld":1,"as":["8C"]}`}}}},
		{"§8 end_when_declined: the stock is empty and the seat declines; nobody went out", pos{hands: []string{"9C 2C", "5C 2D", "6C 3D"}, pile: "9H"},
			[]step{{"decline", []string{`{"seat":0,"kind":"decline"}`, `{"seat":-1,"kind":"hand","scores":[-11,-7,-9],"hands":[["2C","9C"],["2D","5C"],["3D","6C"]]}`}}}},
		{"§8 turn_over_discards: the pile but its top becomes the stock", pos{opts: "players=3 stock_exhausted=turn_over_discards", hands: []string{"9C 2C", "5C 2D", "6C 3D"}, pile: "9H 2S", stock: "4S"},
			[]step{{"draw", []string{`{"seat":0,"kind":"draw","count":1}`}}, {"discard 4S", []string{`{"seat":0,"kind":"discard","cards":["4S"]}`, `{"seat":-1,"kind":"turn_over","count":2}`}}}},
	} {
		s := build(t, tc.p)
		for _, st := range tc.steps {
			before := s.Clone()
			seat := game.Seat(s.toMove)
			m := mustMove(t, st.text)
			play(t, s, st.text)
			got := Engine{}.AppendMove(nil, before, s, seat, m, "")
			var js []string
			for i := range got {
				js = append(js, string(got[i].AppendJSON(nil, game.Standard)))
			}
			if len(js) != len(st.wants) {
				t.Errorf("%s: %s: entries %v, want %v", tc.rule, st.text, js, st.wants)
				continue
			}
			for i := range js {
				if js[i] != st.wants[i] {
					t.Errorf("%s: %s: entry %d = %s, want %s", tc.rule, st.text, i, js[i], st.wants[i])
				}
			}
		}
	}
}

// TestHistoryDeal: a deal names its dealer (§3).
func TestHistoryDeal(t *testing.T) {
	st, _ := Engine{}.New(game.Options{"players": "3"})
	r := game.NewRand(9)
	st.RollChance(&r)
	before := st.Clone()
	st.RollChance(&r)
	got := Engine{}.AppendChance(nil, before, st)
	if len(got) != 1 || got[0].Kind != game.KindDeal || int(got[0].Seat) != st.(*State).dealer {
		t.Errorf("deal entries %v, dealer %d", got, st.(*State).dealer)
	}
}

// FuzzHistory: the describer never panics over random games of any seed,
// player count and option set.
func FuzzHistory(f *testing.F) {
	f.Add(uint64(1), uint8(2), uint8(0))
	f.Add(uint64(7), uint8(5), uint8(0xff))
	f.Fuzz(func(t *testing.T, seed uint64, n, flags uint8) {
		o := game.Options{"players": itoa(2 + int(n%7)), "target": "100"}
		if flags&1 != 0 {
			o["jokers"] = "2"
		}
		if flags&2 != 0 {
			o["top_discard_free"] = "true"
		}
		o["stock_exhausted"] = stockRuleNames[int(flags>>2)%3]
		rng := game.NewRand(seed)
		var buf []game.Move
		policy := func(st game.State, s game.Seat) game.Move {
			buf = st.Legal(s, buf[:0])
			return buf[rng.IntN(len(buf))]
		}
		if ps := gametest.HistoryProblems(Engine{}, o, &rng, policy, 50000, map[game.Kind]int{}); len(ps) > 0 {
			t.Fatal(ps)
		}
	})
}
