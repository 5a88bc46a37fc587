package papayoo

import (
	"testing"

	"cardroom/game"
	"cardroom/game/gametest"
)

// TestHistoryPublic plays random games of every size and checks every
// history entry: it names only cards the spectator sees after its step,
// and every kind of docs/games/papayoo.md appears.
func TestHistoryPublic(t *testing.T) {
	cfg := gametest.HistoryConfig{Seed: 11, Games: 2, Options: []game.Options{
		{"players": "3", "rounds": "2"}, {"players": "4", "rounds": "2"}, {"players": "5", "rounds": "1"},
		{"players": "7", "rounds": "1"}, {"players": "8", "rounds": "1"},
	}}
	kinds := gametest.CheckHistory(t, Engine{}, cfg)
	for _, k := range []game.Kind{game.KindDeal, game.KindPass, game.KindDie, game.KindPlay, game.KindTrick, game.KindRound} {
		if kinds[k] == 0 {
			t.Errorf("no %q entry in the random games (%v)", k, kinds)
		}
	}
}

// historyDeal is the deal of docs/games/papayoo.md's example (dealer 2).
const historyDeal = `deal
  0: 5S 9S 5H 8H 10H 3D 1C 3C 6C 10C 4P 10P 13P 19P 20P
  1: 8S 1H 4H 1D 6D 7D 10D 2C 2P 5P 6P 7P 9P 11P 16P
  2: 2S 3S 4S 6S 2H 6H 7H 9H 2D 8C 9C 1P 3P 15P 18P
  3: 1S 7S 10S 3H 4D 5D 8D 9D 4C 5C 7C 8P 12P 14P 17P`

// TestHistoryKinds pins the entries of each step of the doc's example,
// with the rule that makes them what they are.
func TestHistoryKinds(t *testing.T) {
	s := mustNew(t, "players=4 rounds=1 first_dealer=2")
	steps := []struct {
		rule  string
		seat  int // -1: chance
		text  string
		by    game.By
		wants []string
	}{
		{"§4.2 the deal, seat = the dealer", -1, historyDeal, "", []string{`{"seat":2,"kind":"deal"}`}},
		{"§4.3 a blind pass to the left: count and recipient, no card", 0, "pass 5H 10C 10P 13P 20P", "", []string{`{"seat":0,"kind":"pass","count":5,"to":1}`}},
		{"§4.3 seat 3 passes to seat 0; a timeout is marked", 3, "pass 7S 10S 5D 8D 9D", game.ByTimeout, []string{`{"seat":3,"kind":"pass","count":5,"to":0,"by":"timeout"}`}},
		{"§4.3", 1, "pass 1H 4H 2P 7P 16P", "", []string{`{"seat":1,"kind":"pass","count":5,"to":2}`}},
		{"§4.3 the last pass resolves, still no card named", 2, "pass 4S 2H 6H 3P 15P", "", []string{`{"seat":2,"kind":"pass","count":5,"to":3}`}},
		{"§4.4 the die names the Papayoo", -1, "die D", "", []string{`{"seat":-1,"kind":"die","cards":["7D"],"suit":"D"}`}},
		{"§4.5 the dealer leads", 2, "play 8C", game.ByAway, []string{`{"seat":2,"kind":"play","cards":["8C"],"by":"away"}`}},
		{"§4.5", 3, "play 5C", "", []string{`{"seat":3,"kind":"play","cards":["5C"]}`}},
		{"§4.5", 0, "play 6C", "", []string{`{"seat":0,"kind":"play","cards":["6C"]}`}},
		{"§4.5 the trick closes: the highest club wins it; the by mark stays on the play", 1, "play 10C", game.ByTimeout, []string{
			`{"seat":1,"kind":"play","cards":["10C"],"by":"timeout"}`,
			`{"seat":1,"kind":"trick","cards":["8C","5C","6C","10C"]}`}},
	}
	for _, st := range steps {
		before := s.Clone()
		var got []game.Entry
		if st.seat < 0 {
			mustChance(t, s, st.text)
			got = Engine{}.AppendChance(nil, before, s)
		} else {
			m, err := s.ParseMove(st.text)
			if err != nil {
				t.Fatal(err)
			}
			mustApply(t, s, st.seat, st.text)
			got = Engine{}.AppendMove(nil, before, s, game.Seat(st.seat), m, st.by)
		}
		checkEntries(t, st.rule, got, st.wants)
	}
}

// TestHistoryRound: the last trick of a round is followed by the round's
// entry (§4.6): the round's points per seat, the Papayoo and who took it.
func TestHistoryRound(t *testing.T) {
	s := mustNew(t, "players=3 rounds=1 first_dealer=0")
	r := game.NewRand(5)
	var last []game.Entry
	var buf []game.Move
	for !s.Over() {
		before := s.Clone()
		if s.ChancePending() {
			s.RollChance(&r)
			continue
		}
		seat := s.ToAct(nil)[0]
		buf = s.Legal(seat, buf[:0])
		m := buf[r.IntN(len(buf))]
		mustApply(t, s, int(seat), s.FormatMove(m))
		last = Engine{}.AppendMove(nil, before, s, seat, m, "")
	}
	if len(last) != 3 || last[1].Kind != game.KindTrick || last[2].Kind != game.KindRound {
		t.Fatalf("the last move's entries: %v", last)
	}
	round := last[2]
	v := s.view(game.Spectator)
	taker := game.Seat(-1)
	for _, tr := range v.Tricks {
		for _, c := range tr.Cards {
			if c == v.Papayoo {
				taker = tr.Winner
			}
		}
	}
	if !sameInts(round.Scores, s.Result().Rounds[0]) || len(round.Cards) != 1 || round.Cards[0] != v.Papayoo || !round.HasTo || round.To != taker {
		t.Errorf("round entry %s; want scores %v, Papayoo %v taken by %d", round.AppendJSON(nil, Deck), s.Result().Rounds[0], v.Papayoo, taker)
	}
	if tr := v.Tricks[len(v.Tricks)-1]; last[1].Seat != tr.Winner || last[1].Points != tr.Points {
		t.Errorf("last trick entry %s; want winner %d points %d", last[1].AppendJSON(nil, Deck), tr.Winner, tr.Points)
	}
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkEntries compares entries with their wanted JSON.
func checkEntries(t *testing.T, rule string, got []game.Entry, wants []string) {
	t.Helper()
	if len(got) != len(wants) {
		var js []string
		for i := range got {
			js = append(js, string(got[i].AppendJSON(nil, Deck)))
		}
		t.Errorf("%s: %d entries %v, want %v", rule, len(got), js, wants)
		return
	}
	for i := range got {
		if j := string(got[i].AppendJSON(nil, Deck)); j != wants[i] {
			t.Errorf("%s: entry %d = %s, want %s", rule, i, j, wants[i])
		}
	}
}

// FuzzHistory: the describer never panics on any legal step of random
// games, whatever the seed and player count.
func FuzzHistory(f *testing.F) {
	for _, s := range []uint64{1, 2, 99} {
		f.Add(s, uint8(1))
	}
	f.Fuzz(func(t *testing.T, seed uint64, n uint8) {
		o := game.Options{"players": string(rune('3' + n%6)), "rounds": "1"}
		rng := game.NewRand(seed)
		var buf []game.Move
		policy := func(st game.State, s game.Seat) game.Move {
			buf = st.Legal(s, buf[:0])
			return buf[rng.IntN(len(buf))]
		}
		if p := gametest.HistoryProblems(Engine{}, o, &rng, policy, 5000, map[game.Kind]int{}); len(p) > 0 {
			t.Fatal(p)
		}
	})
}
