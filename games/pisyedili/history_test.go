package pisyedili

import (
	"testing"

	"cardroom/game"
	"cardroom/game/gametest"
	"cardroom/record"
)

// TestHistoryPublic plays random games of several option sets and checks
// every history entry: it names only cards the spectator sees after its
// step (never a drawn card), and every kind of docs/games/pisyedili.md
// appears.
func TestHistoryPublic(t *testing.T) {
	cfg := gametest.HistoryConfig{Seed: 5, Games: 3, Policy: boundedPolicy, Options: []game.Options{
		{"players": "2", "hands": "2"},
		{"players": "4", "hands": "2"},
		{"players": "3", "hands": "2", "finishing_card_effects": "true", "draw_until_playable": "true"},
		{"players": "7", "hands": "1", "seven_stack": "doubling", "ten_mode": "reverse"},
	}}
	kinds := gametest.CheckHistory(t, Engine{}, cfg)
	for _, k := range []game.Kind{game.KindDeal, game.KindPlay, game.KindDraw, game.KindPass, game.KindPenalty, game.KindHand, game.KindShuffle} {
		if kinds[k] == 0 {
			t.Errorf("no %q entry in the random games (%v)", k, kinds)
		}
	}
}

// TestHistoryKinds pins each kind of entry on a position built for it,
// with the rule that decides what it says.
func TestHistoryKinds(t *testing.T) {
	type step struct {
		seat  int // -1: the chance outcome in text
		text  string
		wants []string
	}
	stock := "2H 3H 4H 5H 6H 8H 9H 10H"
	for _, tc := range []struct {
		rule  string
		p     pos
		steps []step
	}{
		{"§8 a jack names the suit", pos{hands: []string{"JS 2C", "2S", "3S", "4S"}, stock: stock, pile: "5S"},
			[]step{{0, "play JS H", []string{`{"seat":0,"kind":"play","cards":["JS"],"suit":"H"}`}}}},
		{"§8 an ace: everyone else draws one, clockwise", pos{hands: []string{"AH 2H", "2S", "3S", "4S"}, stock: stock, pile: "5H"},
			[]step{{0, "play AH", []string{`{"seat":0,"kind":"play","cards":["AH"]}`,
				`{"seat":1,"kind":"draw","count":1,"why":"ace"}`, `{"seat":2,"kind":"draw","count":1,"why":"ace"}`, `{"seat":3,"kind":"draw","count":1,"why":"ace"}`}},
				{0, "end", []string{`{"seat":0,"kind":"pass"}`}}}},
		{"§7 a voluntary draw, then a pass", pos{hands: []string{"9C 2C", "2S", "3S", "4S"}, stock: stock, pile: "5H"},
			[]step{{0, "draw", []string{`{"seat":0,"kind":"draw","count":1,"why":"turn"}`}}, {0, "pass", []string{`{"seat":0,"kind":"pass"}`}}}},
		{"§8 a seven chain's penalty: the count, never the cards", pos{hands: []string{"2D 3D", "2S", "3S", "4S"}, stock: stock, pile: "7H 7S", chain: ChainSeven, k: 2},
			[]step{{0, "penalty", []string{`{"seat":0,"kind":"penalty","count":6,"why":"seven"}`}}}},
		{"§8 a joker chain's penalty", pos{hands: []string{"2D 3D", "2S", "3S", "4S"}, stock: stock + " QH KH", pile: "5H JK", chain: ChainJoker, k: 1},
			[]step{{0, "penalty", []string{`{"seat":0,"kind":"penalty","count":10,"why":"joker"}`}}}},
		{"§9.1, §11 example 1: end-of-hand draws, then the hand's penalties", pos{hands: []string{"7H KC 3D", "JS", "2S", "4H"}, stock: "5S AD 9C 2H 8C", pile: "5D", turn: 1},
			[]step{{1, "play JS H", []string{`{"seat":1,"kind":"play","cards":["JS"],"suit":"H"}`, `{"seat":0,"kind":"draw","count":4,"why":"end"}`,
				`{"seat":-1,"kind":"hand","scores":[94,0,4,8]}`}}}},
		{"§9 finishing_card_effects: the next player draws the finishing seven's chain", pos{opts: game.Options{"finishing_card_effects": "true"}, hands: []string{"7C", "2S", "2D", "4H"}, stock: stock, pile: "7H", chain: ChainSeven, k: 1},
			[]step{{0, "play 7C", []string{`{"seat":0,"kind":"play","cards":["7C"]}`, `{"seat":1,"kind":"draw","count":6,"why":"seven"}`,
				`{"seat":-1,"kind":"hand","scores":[0,90,6,12]}`}}}},
		{"§10 a reshuffle: the penalty waits for it, then its cards are drawn", pos{hands: []string{"9D", "2D 3D", "4D", "5D"}, pile: "2S 3S 4S 5S 6S 8S 9S 10S QS KS 2H 7H", turn: 1, chain: ChainSeven, k: 1},
			[]step{{1, "penalty", []string{`{"seat":1,"kind":"penalty","why":"seven"}`}},
				{-1, "shuffle KS QS 10S 9S 8S 6S 5S 4S 3S 2S 2H", []string{`{"seat":-1,"kind":"shuffle","count":11}`, `{"seat":1,"kind":"draw","count":3,"why":"penalty"}`}}}},
		{"§9 item 2: a blocked hand ends after a forced pass by every seat", pos{opts: game.Options{"hands": "1"}, hands: []string{"8C 6D", "2S", "3S", "4S"}, pile: "9H"},
			[]step{{0, "pass", []string{`{"seat":0,"kind":"pass"}`}}, {1, "pass", []string{`{"seat":1,"kind":"pass"}`}}, {2, "pass", []string{`{"seat":2,"kind":"pass"}`}},
				{3, "pass", []string{`{"seat":3,"kind":"pass"}`, `{"seat":-1,"kind":"hand","scores":[14,2,3,4]}`}}}},
	} {
		s := build(t, tc.p)
		for _, st := range tc.steps {
			before := s.Clone()
			var got []game.Entry
			if st.seat < 0 {
				if err := s.ApplyChance(st.text); err != nil {
					t.Fatalf("%s: %v", tc.rule, err)
				}
				got = Engine{}.AppendChance(nil, before, s)
			} else {
				m, err := s.ParseMove(st.text)
				if err != nil {
					t.Fatal(err)
				}
				do(t, s, st.seat, st.text)
				got = Engine{}.AppendMove(nil, before, s, game.Seat(st.seat), m, "")
			}
			checkEntries(t, tc.rule+": "+st.text, got, st.wants)
		}
	}
}

// TestHistoryDealAndBy: a deal names its dealer; a stand-in's mark goes on
// the seat's own choice only, not on the draws that follow from it.
func TestHistoryDealAndBy(t *testing.T) {
	st, _ := Engine{}.New(game.Options{"players": "3", "hands": "1"})
	s := st.(*State)
	r := game.NewRand(3)
	s.RollChance(&r) // the dealer
	before := s.Clone()
	s.RollChance(&r)
	checkEntries(t, "§3 the deal", Engine{}.AppendChance(nil, before, s), []string{`{"seat":` + itoa(s.dealer) + `,"kind":"deal"}`})

	b := build(t, pos{hands: []string{"AH 2H", "2S", "3S", "4S"}, stock: "2H 3H 4H 5H", pile: "5H"})
	before2 := b.Clone()
	do(t, b, 0, "play AH")
	got := Engine{}.AppendMove(nil, before2, b, 0, game.Move{Op: OpPlay, Card: game.NewCard(game.Hearts, 1)}, game.ByAway)
	if len(got) != 4 || got[0].By != game.ByAway || got[1].By != "" {
		t.Errorf("by marks: %v", got)
	}
}

// checkEntries compares entries with their wanted JSON.
func checkEntries(t *testing.T, rule string, got []game.Entry, wants []string) {
	t.Helper()
	var js []string
	for i := range got {
		js = append(js, string(got[i].AppendJSON(nil, game.Standard)))
	}
	if len(js) != len(wants) {
		t.Errorf("%s: entries %v, want %v", rule, js, wants)
		return
	}
	for i := range js {
		if js[i] != wants[i] {
			t.Errorf("%s: entry %d = %s, want %s", rule, i, js[i], wants[i])
		}
	}
}

// FuzzHistory: the describer never panics over random games of any seed,
// player count and option set.
func FuzzHistory(f *testing.F) {
	f.Add(uint64(1), uint8(2), uint8(0))
	f.Add(uint64(7), uint8(5), uint8(0xff))
	f.Fuzz(func(t *testing.T, seed uint64, n, flags uint8) {
		o := game.Options{"players": itoa(2 + int(n%6)), "hands": "1"}
		if flags&1 != 0 {
			o["finishing_card_effects"] = "true"
		}
		if flags&2 != 0 {
			o["draw_until_playable"] = "true"
		}
		if flags&4 != 0 {
			o["ten_mode"] = "reverse"
		}
		if flags&8 != 0 {
			o["jokers"] = "false"
		}
		rng := game.NewRand(seed)
		var p record.Policy = boundedPolicy(&rng)
		if ps := gametest.HistoryProblems(Engine{}, o, &rng, p, 20000, map[game.Kind]int{}); len(ps) > 0 {
			t.Fatal(ps)
		}
	})
}
