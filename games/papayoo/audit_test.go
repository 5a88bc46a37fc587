package papayoo

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"cardroom/game"
)

// Audit tests: the rules of papayoo.md not already pinned by the
// conformance tests, one table case each, citing its section.

// §4.2 the deal table for every N, and the pass sizes it implies.
func TestAuditDealTable(t *testing.T) {
	for _, tc := range []struct {
		n, cards, h, k int
		packets        []int
	}{
		{3, 60, 20, 5, []int{3, 3, 3, 3, 3, 3, 2}},
		{4, 60, 15, 5, []int{3, 3, 3, 3, 3}},
		{5, 60, 12, 4, []int{3, 3, 3, 3}},
		{6, 60, 10, 3, []int{3, 3, 3, 1}},
		{7, 56, 8, 3, []int{3, 3, 2}},
		{8, 56, 7, 3, []int{3, 3, 1}},
	} {
		name := "§4.2 N=" + strconv.Itoa(tc.n)
		s := mustNew(t, "players="+strconv.Itoa(tc.n)+" first_dealer="+strconv.Itoa(tc.n-1))
		if HandSize(tc.n) != tc.h || PassSize(tc.n) != tc.k || DeckFor(tc.n).Count() != tc.cards || tc.n*tc.h != tc.cards {
			t.Fatalf("%s: H %d K %d cards %d", name, HandSize(tc.n), PassSize(tc.n), DeckFor(tc.n).Count())
		}
		if !reflect.DeepEqual(packets[tc.n], tc.packets) {
			t.Fatalf("%s: packets %v, want %v", name, packets[tc.n], tc.packets)
		}
		// The packets go clockwise from the dealer's left: position p of the
		// shuffled deck goes to seat dealer+1+dealPos[p].
		p := 0
		for _, k := range tc.packets {
			for seat := 0; seat < tc.n; seat++ {
				for j := 0; j < k; j++ {
					if int(dealPos[tc.n][p]) != seat {
						t.Fatalf("%s: card %d of the deal goes to relative seat %d, want %d", name, p, dealPos[tc.n][p], seat)
					}
					p++
				}
			}
		}
		// A real deal by the last seat: every hand H cards, then K-subsets to pass.
		r := game.NewRand(uint64(tc.n))
		mustChance(t, s, s.SampleChance(&r))
		for i := 0; i < tc.n; i++ {
			if s.hands[i].Count() != tc.h {
				t.Fatalf("%s: seat %d holds %d", name, i, s.hands[i].Count())
			}
		}
		if tc.n >= 5 { // C(H,K) pass moves (3 and 4 players are checked by the property test)
			if got, want := len(s.Legal(0, nil)), int(binom[tc.h][tc.k]); got != want {
				t.Fatalf("%s: %d legal passes, want C(%d,%d) = %d", name, got, tc.h, tc.k, want)
			}
		}
		if s.view(0).PassSize != tc.k || s.view(0).HandSize != tc.h {
			t.Fatalf("%s: the view's H and K", name)
		}
	}
}

// §4.3 the pass: exact K distinct own cards, final, blind, atomic, to the
// LEFT neighbour (the next seat clockwise), for the smallest and largest N.
func TestAuditPass(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
	}{{"§4.3 N=3 passes go left, seat 2 → seat 0", 3}, {"§4.3 N=8 passes go left, seat 7 → seat 0", 8}, {"§4.3 N=7 passes go left", 7}} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustNew(t, "players="+strconv.Itoa(tc.n)+" first_dealer=1")
			r := game.NewRand(9)
			s.RollChance(&r)
			dealt := s.hands
			k := int(s.ks)
			if tc.n >= 7 { // the removed 1s are nobody's to pass
				for _, c := range []string{"1S", "1H", "1D", "1C"} {
					m := r.RandomBits(s.hands[0], k-1) | mustMask(t, c)
					if err := s.Apply(0, game.Move{Op: OpPass, Set: m}); game.Code(err) != game.ErrIllegal {
						t.Fatalf("§4.1: passing %s with %d players: %v", c, tc.n, err)
					}
				}
			}
			if err := s.Apply(0, game.Move{Op: OpPlay, Card: cardOf[s.hands[0].Lowest()]}); game.Code(err) != game.ErrIllegal {
				t.Fatalf("§4.3: a play during the pass: %v", err)
			}
			var passes [8]game.Mask
			for i := tc.n - 1; i >= 0; i-- {
				passes[i] = r.RandomBits(s.hands[i], k)
				mustApply(t, s, i, FormatMove(game.Move{Op: OpPass, Set: passes[i]}))
				if i > 0 && (s.hands != dealt || s.ChancePending()) {
					t.Fatalf("§4.3: hands changed before every seat passed")
				}
			}
			for i := 0; i < tc.n; i++ {
				left := (i + 1) % tc.n
				if s.hands[left]&passes[i] != passes[i] || s.hands[i]&passes[i] != 0 {
					t.Fatalf("§4.3: seat %d's pass did not go to seat %d", i, left)
				}
				if s.hands[i].Count() != int(s.hs) {
					t.Fatalf("§4.3: hand sizes stay H")
				}
				v := s.view(game.Seat(i))
				if v.Received != passes[(i+tc.n-1)%tc.n] || v.MyPass != passes[i] {
					t.Fatalf("§4.3/§5: seat %d sees received %s, passed %s", i, v.Received.Format(deck), v.MyPass.Format(deck))
				}
			}
			// §4.4 the die only now; §4.5 the dealer (seat 1) leads.
			if s.phase != phDie || len(s.ToAct(nil)) != 0 {
				t.Fatalf("§4.4: the die is rolled after the pass")
			}
			before := *s
			for _, bad := range []string{"die", "die X", "die 3", "die H S", "die P", "deal"} {
				if err := s.ApplyChance(bad); game.Code(err) != game.ErrBadChance || !sameState(&before, s) {
					t.Fatalf("§4.4: chance %q: %v", bad, err)
				}
			}
			mustChance(t, s, "die D")
			if got := s.ToAct(nil); !reflect.DeepEqual(got, []game.Seat{1}) || s.pap != int8(mustMask(t, "7D").Lowest()) {
				t.Fatalf("§4.5: the dealer leads after the die: %v", got)
			}
			if v := s.view(game.Spectator); v.Papayoo != game.NewCard(game.Diamonds, 7) || !strings.Contains(v.String(), "die: D (Papayoo 7D = 40)") {
				t.Fatalf("§4.4: the die is public: %v\n%s", v.Papayoo, v)
			}
		})
	}
}

// §4.5 trick rules and §4.6 scoring: table of one-trick positions (4
// players, seat 0 leads, die hearts unless stated).
func TestAuditTricks(t *testing.T) {
	for _, tc := range []struct {
		name   string
		die    int
		hands  []string
		legal1 []string // seat 1's legal plays after the lead
		plays  []string
		winner int
		points int
	}{
		{"§4.5 Payoo led: holders of Payoo must follow with Payoo", 1,
			[]string{"5P", "9P 7H 10S", "1C", "2C"}, []string{"play 9P"},
			[]string{"5P", "9P", "1C", "2C"}, 1, 14},
		{"§4.5 ranks compare numerically: 10 beats 9, 12P beats 9P", 1,
			[]string{"9S", "10S", "2S", "1S"}, []string{"play 10S"},
			[]string{"9S", "10S", "2S", "1S"}, 1, 0},
		{"§4.5 Payoo 12 beats Payoo 9 and 2", 1,
			[]string{"9P", "12P", "2P", "20P"}, []string{"play 12P"},
			[]string{"9P", "12P", "2P", "20P"}, 3, 9 + 12 + 2 + 20},
		{"§4.5 the Papayoo discarded never wins; §4.6 it scores 40 for the winner", 0,
			[]string{"2H", "7S", "3H", "10C"}, []string{"play 7S"},
			[]string{"2H", "7S", "3H", "10C"}, 2, 40},
		{"§4.5 no trump: a 20P discarded on hearts does not win", 1,
			[]string{"3H", "20P 1S", "2H", "1H"}, []string{"play 1S", "play 20P"},
			[]string{"3H", "20P", "2H", "1H"}, 0, 20},
		{"§4.6 the other sevens are worth 0", 3,
			[]string{"7H", "7S", "7D", "1H"}, []string{"play 7S"},
			[]string{"7H", "7S", "7D", "1H"}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := position(t, 4, 0, tc.die, 0, tc.hands...)
			mustApply(t, p, 0, "play "+tc.plays[0])
			if got := legalTexts(p, 1); !reflect.DeepEqual(got, tc.legal1) {
				t.Fatalf("%s: seat 1 may play %v, want %v", tc.name, got, tc.legal1)
			}
			for i := 1; i < 4; i++ {
				mustApply(t, p, i, "play "+tc.plays[i])
			}
			if p.winners[0] != int8(tc.winner) || p.Result().Rounds[0][tc.winner] != tc.points {
				t.Fatalf("%s: winner %d with %v, want %d with %d", tc.name, p.winners[0], p.Result().Rounds, tc.winner, tc.points)
			}
		})
	}
	// §4.5 the winner leads the next trick.
	p := position(t, 4, 0, 1, 2, "2S 2H", "3S 3H", "4S 4H", "5S 5H")
	for _, st := range []string{"2 play 4S", "3 play 5S", "0 play 2S", "1 play 3S"} {
		seat, _ := strconv.Atoi(st[:1])
		mustApply(t, p, seat, st[2:])
	}
	if got := p.ToAct(nil); !reflect.DeepEqual(got, []game.Seat{3}) || p.view(0).Tricks[0].Winner != 3 {
		t.Fatalf("§4.5: the winner (seat 3) leads: %v", got)
	}
	if got := legalTexts(p, 3); !reflect.DeepEqual(got, []string{"play 5H"}) {
		t.Fatalf("§4.5: leader plays any card: %v", got)
	}
	if err := p.Apply(0, game.Move{Op: OpPlay, Card: cardOf[mustMask(t, "2H").Lowest()]}); game.Code(err) != game.ErrNotYourTurn {
		t.Fatalf("§4.5: out of turn: %v", err)
	}
}

// §3 §4 §4.7 §6: rounds, dealer rotation from first_dealer, the dealer
// leads, 250 a round, co-winners; option validation.
func TestAuditRounds(t *testing.T) {
	s := mustNew(t, "players=3 rounds=5 first_dealer=2")
	r := game.NewRand(77)
	var dealers, leaders []int
	playRandom(t, s, &r, func(s *State, chance string) {
		switch {
		case strings.HasPrefix(chance, "deal"):
			dealers = append(dealers, int(s.dealer))
		case strings.HasPrefix(chance, "die"):
			leaders = append(leaders, int(s.dealer))
		}
	})
	if !reflect.DeepEqual(dealers, []int{2, 0, 1, 2, 0}) {
		t.Fatalf("§4 item 7: dealers %v, want 2 0 1 2 0", dealers)
	}
	res := s.Result()
	if len(res.Rounds) != 5 {
		t.Fatalf("§4.7: %d rounds", len(res.Rounds))
	}
	sum := 0
	for _, row := range res.Rounds {
		sum += row[0] + row[1] + row[2]
	}
	if sum != 5*250 || res.Totals[0]+res.Totals[1]+res.Totals[2] != 1250 {
		t.Fatalf("§4.6: 250 a round")
	}
	// Co-winners: three seats tied for the lowest total.
	w := mustNew(t, "players=5 first_dealer=0")
	copy(w.totals[:], []int32{100, 300, 100, 100, 150})
	w.phase = phOver
	if got := w.Result().Winners; !reflect.DeepEqual(got, []game.Seat{0, 2, 3}) || !reflect.DeepEqual(w.view(1).Winners, []game.Seat{0, 2, 3}) {
		t.Fatalf("§4.7: co-winners %v", got)
	}
	// §6 option validation.
	for _, bad := range []string{"players=2", "players=9", "rounds=0", "first_dealer=4", "first_dealer=x", "tie_break=dealer", "colour=red"} {
		o, err := game.ParseOptions("players=4 " + bad)
		if err == nil {
			_, err = Engine{}.New(o)
		}
		if err == nil {
			t.Fatalf("§6: option %q accepted", bad)
		}
	}
	if d := mustNew(t, "players=8 first_dealer=7"); d.dealer != 7 || d.phase != phDeal || d.Options()["rounds"] != "8" {
		t.Fatalf("§6: first_dealer=7 with 8 players")
	}
}

// notation.md: canonical printing, aliases, errors quoting the bad token.
func TestAuditNotation(t *testing.T) {
	for _, tc := range []struct{ in, canon string }{
		{"play 7H", "play 7H"},
		{"play 7h", "play 7H"},
		{"play 13p", "play 13P"},
		{"play P13", "play 13P"},
		{"play p20", "play 20P"},
		{"play TS", "play 10S"},
		{"play 10♠", "play 10S"},
		{"play 1♣", "play 1C"},
		{"pass 12P 3C 20P 7H 10S", "pass 10S 7H 3C 12P 20P"},
		{"pass  p12 3c   20P 7♥ ts", "pass 10S 7H 3C 12P 20P"},
	} {
		m, err := parseMove(tc.in)
		if err != nil {
			t.Fatalf("notation: %q refused: %v", tc.in, err)
		}
		if got := FormatMove(m); got != tc.canon {
			t.Fatalf("notation: %q prints %q, want %q", tc.in, got, tc.canon)
		}
	}
	for _, tc := range []struct{ in, token string }{
		{"play 21P", "21P"},
		{"play 11S", "11S"},
		{"play 0S", "0S"},
		{"play JK", "JK"},
		{"play QH", "QH"},
		{"play AS", "AS"},
		{"play 7X", "7X"},
		{"play 7H 8H", "play"},
		{"play", "play"},
		{"pass", "pass"},
		{"pass 7H 7h", "7h"},
		{"pass 7H P0", "P0"},
		{"Play 7H", "Play"},
		{"discard 7H", "discard"},
		{"", ""},
	} {
		_, err := parseMove(tc.in)
		if game.Code(err) != game.ErrMalformed || !strings.Contains(err.Error(), tc.token) {
			t.Fatalf("notation: %q: want malformed quoting %q, got %v", tc.in, tc.token, err)
		}
	}
}

// §5 hidden information, String() included: a view's text names no card of
// another hand, and another seat's pass only once the observer received it.
func TestAuditViewText(t *testing.T) {
	s := mustNew(t, "players=4 first_dealer=0")
	r := game.NewRand(21)
	s.RollChance(&r)
	tokens := func(text string) map[string]bool {
		out := map[string]bool{}
		for _, f := range strings.FieldsFunc(text, func(c rune) bool {
			return c == ' ' || c == '\n' || c == '[' || c == ']' || c == '(' || c == ')' || c == ',' || c == ':' || c == ';'
		}) {
			out[f] = true
		}
		return out
	}
	check := func(stage string) {
		for obs := game.Spectator; obs < 4; obs++ {
			v := s.view(obs)
			tok := tokens(v.String())
			known := game.Mask(0)
			if obs >= 0 {
				known = s.hands[obs]
				if s.HasPassed(int(obs)) {
					known |= s.pass[obs]
					if s.phase != phPass {
						known |= s.pass[(int(obs)+3)%4]
					}
				}
			}
			for i := 0; i < 4; i++ {
				known |= s.played[i]
			}
			if s.pap >= 0 {
				known |= game.Bit(int(s.pap))
			}
			for m := s.deck &^ known; m != 0; m &= m - 1 {
				if c := cardName[m.Lowest()]; tok[c] {
					t.Fatalf("§5 %s: the text view of %d names %s:\n%s", stage, obs, c, v.String())
				}
			}
			if obs < 0 && (v.Hand != 0 || strings.Contains(v.String(), "hand:")) {
				t.Fatalf("§5: the spectator has a hand")
			}
		}
	}
	check("dealt")
	for i := 0; i < 3; i++ {
		mustApply(t, s, i, FormatMove(game.Move{Op: OpPass, Set: r.RandomBits(s.hands[i], 5)}))
	}
	check("three passed")
	mustApply(t, s, 3, FormatMove(game.Move{Op: OpPass, Set: r.RandomBits(s.hands[3], 5)}))
	mustChance(t, s, "die C")
	check("after the pass")
	for k := 0; k < 6; k++ {
		buf := s.Legal(game.Seat(s.turn), nil)
		if err := s.Apply(game.Seat(s.turn), buf[r.IntN(len(buf))]); err != nil {
			t.Fatal(err)
		}
	}
	check("in play")
}
