package papayoo

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"cardroom/game"
)

// Spec checks: rules, option values and edge cases of papayoo.md (and
// notation.md) that the conformance and audit tests do not already pin.
// Every test cites the section it checks.

// specDealText writes hands as an ApplyChance "deal" text.
func specDealText(n int, hands []game.Mask) string {
	var b strings.Builder
	b.WriteString("deal")
	for i := 0; i < n; i++ {
		b.WriteString("\n" + strconv.Itoa(i) + ": " + hands[i].Format(deck))
	}
	return b.String()
}

// specPassAll has every seat pass, seat 0 first, and returns the passes.
func specPassAll(t *testing.T, s *State, r *game.Rand) []game.Mask {
	t.Helper()
	n := int(s.n)
	passes := make([]game.Mask, n)
	for i := 0; i < n; i++ {
		passes[i] = r.RandomBits(s.hands[i], int(s.ks))
		mustApply(t, s, i, FormatMove(game.Move{Op: OpPass, Set: passes[i]}))
	}
	return passes
}

// papayoo.md §4.2: "The dealer shuffles and deals all cards, in packets,
// clockwise starting with the left neighbour", with the packet sequences of
// the table. Two checks per N: (1) the same shuffle dealt by dealer d gives
// to seat d+1+j what dealer 0 gives to seat 1+j (the deal is relative to the
// dealer's left, whoever deals); (2) the documented procedure (shuffle of
// the deck in play, then the packets of the table, first packet to the
// dealer's left) reproduces the engine's deal exactly.
func TestSpecCheck_DealClockwiseFromDealersLeft(t *testing.T) {
	table := map[int][]int{
		3: {3, 3, 3, 3, 3, 3, 2},
		4: {3, 3, 3, 3, 3},
		5: {3, 3, 3, 3},
		6: {3, 3, 3, 1},
		7: {3, 3, 2},
		8: {3, 3, 1},
	}
	for n := 3; n <= 8; n++ {
		var base [8]game.Mask
		for d := 0; d < n; d++ {
			s := mustNew(t, "players="+strconv.Itoa(n)+" first_dealer="+strconv.Itoa(d))
			r := game.NewRand(uint64(40 + n))
			shadow := r
			s.RollChance(&r)
			if d == 0 {
				base = s.hands
			} else {
				for j := 0; j < n; j++ {
					if got, want := s.hands[(d+1+j)%n], base[(1+j)%n]; got != want {
						t.Fatalf("§4.2 N=%d dealer %d: seat %d (dealer's left +%d) got %s, want what dealer 0's seat %d got: %s",
							n, d, (d+1+j)%n, j, got.Format(deck), (1+j)%n, want.Format(deck))
					}
				}
			}
			// The documented procedure.
			var cards []game.Card
			for m := DeckFor(n); m != 0; m &= m - 1 {
				cards = append(cards, deck.Card(m.Lowest()))
			}
			shadow.ShuffleCards(cards)
			var want [8]game.Mask
			p := 0
			for _, k := range table[n] {
				for rel := 0; rel < n; rel++ {
					for j := 0; j < k; j++ {
						want[(d+1+rel)%n] |= game.Bit(deck.Index(cards[p]))
						p++
					}
				}
			}
			if p != len(cards) {
				t.Fatalf("§4.2 N=%d: the packets deal %d of %d cards", n, p, len(cards))
			}
			if want != s.hands {
				t.Fatalf("§4.2 N=%d dealer %d: the deal is not the shuffled deck dealt in packets from the dealer's left", n, d)
			}
		}
	}
}

// papayoo.md §4.1, §4.2, §8.1: a recorded deal is accepted only if it is
// the deck in play, H cards a seat; with 7 or 8 players the ordinary 1s are
// out of the game (a deal naming one is refused) and 1P is in.
func TestSpecCheck_DealTextMustBeDeckInPlay(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		swap string // replace the lowest card of seat 0 by this one
		ok   bool
	}{
		{"§4.1 N=7: 1S is out of the game", 7, "1S", false},
		{"§4.1 N=8: 1C is out of the game", 8, "1C", false},
		{"§4.1 N=7: the deck in play", 7, "", true},
		{"§4.1 N=8: the deck in play", 8, "", true},
		{"§4.2 N=6: a card twice (and one missing)", 6, "dup", false},
	} {
		s := mustNew(t, "players="+strconv.Itoa(tc.n)+" first_dealer=0")
		r := game.NewRand(uint64(tc.n))
		h := s.dealRandom(&r)
		hands := h[:tc.n]
		switch tc.swap {
		case "":
		case "dup":
			hands[0] = hands[0]&^game.Bit(hands[0].Lowest()) | game.Bit(hands[1].Lowest())
		default:
			hands[0] = hands[0]&^game.Bit(hands[0].Lowest()) | mustMask(t, tc.swap)
		}
		err := s.ApplyChance(specDealText(tc.n, hands))
		if tc.ok != (err == nil) || (!tc.ok && game.Code(err) != game.ErrBadChance) {
			t.Fatalf("%s: ApplyChance: %v", tc.name, err)
		}
		if tc.ok {
			var all game.Mask
			for i := 0; i < tc.n; i++ {
				all |= s.hands[i]
			}
			if !all.Has(40) || all&ordinary1 != 0 || all.Count() != 56 {
				t.Fatalf("%s: dealt %s", tc.name, all.Format(deck))
			}
		}
	}
}

// papayoo.md §4.3 and §8.3 for every N: a pass is exactly K cards (K from
// the table of §4.2); K−1 and K+1 cards are illegal, K cards are legal.
func TestSpecCheck_PassSizeEveryN(t *testing.T) {
	for n, k := range map[int]int{3: 5, 4: 5, 5: 4, 6: 3, 7: 3, 8: 3} {
		s := mustNew(t, "players="+strconv.Itoa(n)+" first_dealer=0")
		r := game.NewRand(uint64(n))
		s.RollChance(&r)
		for _, size := range []int{k - 1, k + 1} {
			m := r.RandomBits(s.hands[0], size)
			if err := s.Apply(0, game.Move{Op: OpPass, Set: m}); game.Code(err) != game.ErrIllegal {
				t.Errorf("§4.3 N=%d: a pass of %d cards: %v, want illegal", n, size, err)
			}
		}
		if s.passed != 0 {
			t.Fatalf("§4.3 N=%d: a refused pass counted", n)
		}
		if err := s.Apply(0, game.Move{Op: OpPass, Set: r.RandomBits(s.hands[0], k)}); err != nil {
			t.Errorf("§4.3 N=%d: a pass of K=%d cards refused: %v", n, k, err)
		}
	}
}

// papayoo.md §4.3: "Legal Pass actions for a seat: every K-subset of its
// current hand" — each listed once, each of K cards of the hand, and each
// accepted by Apply.
func TestSpecCheck_PassLegalIsEveryKSubset(t *testing.T) {
	for _, n := range []int{6, 7, 8} {
		s := mustNew(t, "players="+strconv.Itoa(n)+" first_dealer=2")
		r := game.NewRand(uint64(n) * 3)
		s.RollChance(&r)
		seat := n - 1
		h, k := s.hands[seat], int(s.ks)
		ms := s.Legal(game.Seat(seat), nil)
		seen := map[game.Mask]bool{}
		for _, m := range ms {
			if m.Op != OpPass || m.Set.Count() != k || m.Set&^h != 0 || seen[m.Set] {
				t.Fatalf("§4.3 N=%d: bad or repeated legal pass %s", n, FormatMove(m))
			}
			seen[m.Set] = true
			c := s.Clone().(*State)
			if err := c.Apply(game.Seat(seat), m); err != nil {
				t.Fatalf("§4.3 N=%d: legal pass %s refused: %v", n, FormatMove(m), err)
			}
		}
		if want := int(binom[h.Count()][k]); len(seen) != want {
			t.Fatalf("§4.3 N=%d: %d distinct passes, want C(%d,%d) = %d", n, len(seen), h.Count(), k, want)
		}
	}
}

// papayoo.md §4.3 "Any K cards may be chosen (Payoo, sevens, anything)" and
// §7 item 10: all four sevens and 20P may be passed, and arrive at the left
// neighbour.
func TestSpecCheck_PassAnyCardsSevensAndPayoo(t *testing.T) {
	s := mustNew(t, "players=4 first_dealer=3")
	hands := []game.Mask{
		mustMask(t, "7S 7H 7D 7C 20P 1S 2S 3S 4S 5S 6S 8S 9S 10S 1H"),
		mustMask(t, "2H 3H 4H 5H 6H 8H 9H 10H 1D 2D 3D 4D 5D 6D 8D"),
		mustMask(t, "9D 10D 1C 2C 3C 4C 5C 6C 8C 9C 10C 1P 2P 3P 4P"),
		mustMask(t, "5P 6P 7P 8P 9P 10P 11P 12P 13P 14P 15P 16P 17P 18P 19P"),
	}
	mustChance(t, s, specDealText(4, hands))
	mustApply(t, s, 0, "pass 7S 7H 7D 7C 20P")
	mustApply(t, s, 1, "pass 2H 3H 4H 5H 6H")
	mustApply(t, s, 2, "pass 1P 2P 3P 4P 9D")
	mustApply(t, s, 3, "pass 15P 16P 17P 18P 19P")
	if want := mustMask(t, "7S 7H 7D 7C 20P"); s.hands[1]&want != want || s.hands[0]&want != 0 {
		t.Fatalf("§4.3: the sevens and 20P did not go to seat 1: %s", s.hands[1].Format(deck))
	}
	if want := mustMask(t, "15P 16P 17P 18P 19P"); s.hands[0]&want != want {
		t.Fatalf("§4.3: seat 3's pass did not reach seat 0")
	}
}

// papayoo.md §4.4: for each die suit s, 7s is the Papayoo worth 40 and the
// other three sevens 0; the view of every observer (spectators included)
// shows the die and the Papayoo (§5: the die is public).
func TestSpecCheck_DieEachSuit(t *testing.T) {
	for su, letter := range []string{"S", "H", "D", "C"} {
		s := mustNew(t, "players=4 first_dealer=0")
		r := game.NewRand(uint64(su))
		s.RollChance(&r)
		specPassAll(t, s, &r)
		mustChance(t, s, "die "+letter)
		for i, l := range []string{"S", "H", "D", "C"} {
			want := 0
			if i == su {
				want = 40
			}
			if got := s.CardPoints(mustMask(t, "7"+l).Lowest()); got != want {
				t.Errorf("§4.4 die %s: 7%s worth %d, want %d", letter, l, got, want)
			}
		}
		for obs := game.Spectator; obs < 4; obs++ {
			b, _ := json.Marshal(s.View(obs))
			if !strings.Contains(string(b), `"die":"`+letter+`","papayoo":"7`+letter+`"`) {
				t.Fatalf("§4.4/§5 die %s: view of %d lacks the die: %s", letter, obs, b)
			}
		}
		if got := legalTexts(s, 0); len(got) != 15 {
			t.Fatalf("§4.5: the dealer leads with any of its 15 cards, got %d", len(got))
		}
	}
}

// papayoo.md §4.4: "the roll is a chance event drawn from the game RNG at
// this point (not earlier)", each suit with probability 1/4 (§1, §7 item 3):
// the same post-pass state rolled with different generators shows all four
// suits about equally often.
func TestSpecCheck_DieDrawnAtRollUniform(t *testing.T) {
	s := mustNew(t, "players=5 first_dealer=1")
	r := game.NewRand(5)
	s.RollChance(&r)
	specPassAll(t, s, &r)
	if s.phase != phDie {
		t.Fatal("§4.4: the die is not pending after the pass")
	}
	var count [4]int
	const rolls = 4000
	for seed := uint64(0); seed < rolls; seed++ {
		c := s.Clone().(*State)
		rr := game.NewRand(seed)
		c.RollChance(&rr)
		count[c.Die()]++
		if c.PapayooIndex() != c.Die()*10+6 {
			t.Fatalf("§4.4: die %d but Papayoo index %d", c.Die(), c.PapayooIndex())
		}
	}
	for su, k := range count {
		if k < rolls/4*85/100 || k > rolls/4*115/100 {
			t.Fatalf("§4.4: suit %d rolled %d times in %d, want about %d (%v)", su, k, rolls, rolls/4, count)
		}
	}
	// The text form draws the same way.
	var text [4]int
	for seed := uint64(0); seed < 400; seed++ {
		rr := game.NewRand(seed)
		f := strings.Fields(s.SampleChance(&rr))
		if len(f) != 2 || f[0] != "die" {
			t.Fatalf("§4.4: chance text %v", f)
		}
		text[strings.Index("SHDC", f[1])]++
	}
	for su, k := range text {
		if k < 60 || k > 140 {
			t.Fatalf("§4.4: text die suit %d drawn %d times in 400 (%v)", su, k, text)
		}
	}
}

// papayoo.md §3 and §7 item 6: with first_dealer=random the first dealer is
// drawn uniformly among the N seats.
func TestSpecCheck_FirstDealerUniform(t *testing.T) {
	for n := 3; n <= 8; n++ {
		s := mustNew(t, "players="+strconv.Itoa(n))
		if s.phase != phDealer || !s.ChancePending() {
			t.Fatalf("§3 N=%d: no dealer draw pending", n)
		}
		count := make([]int, n)
		per := 400
		for seed := 0; seed < per*n; seed++ {
			c := s.Clone().(*State)
			rr := game.NewRand(uint64(seed))
			c.RollChance(&rr)
			if c.Dealer() < 0 || c.Dealer() >= n || c.phase != phDeal {
				t.Fatalf("§3 N=%d: dealer %d", n, c.Dealer())
			}
			count[c.Dealer()]++
		}
		for seat, k := range count {
			if k < per*80/100 || k > per*120/100 {
				t.Fatalf("§3 N=%d: seat %d drawn first dealer %d times in %d, want about %d (%v)", n, seat, k, per*n, per, count)
			}
		}
	}
}

// papayoo.md §4.5 and §7 item 4: for every N and any first dealer, the
// dealer (and nobody else) leads the first trick after the die.
func TestSpecCheck_DealerLeadsEveryN(t *testing.T) {
	for n := 3; n <= 8; n++ {
		for _, d := range []int{0, n - 1, n / 2} {
			s := mustNew(t, "players="+strconv.Itoa(n)+" first_dealer="+strconv.Itoa(d))
			r := game.NewRand(uint64(n*10 + d))
			s.RollChance(&r)
			specPassAll(t, s, &r)
			mustChance(t, s, "die C")
			if got := s.ToAct(nil); !reflect.DeepEqual(got, []game.Seat{game.Seat(d)}) {
				t.Fatalf("§4.5 N=%d dealer %d: to act %v", n, d, got)
			}
			for seat := 0; seat < n; seat++ {
				if seat != d && len(s.Legal(game.Seat(seat), nil)) != 0 {
					t.Fatalf("§4.5 N=%d: seat %d may move before the dealer leads", n, seat)
				}
			}
			if got := len(s.Legal(game.Seat(d), nil)); got != int(s.hs) {
				t.Fatalf("§4.5 N=%d: the dealer may lead %d cards, want all %d", n, got, s.hs)
			}
		}
	}
}

// papayoo.md §4.5 "Order: after the leader, each other player plays one
// card, clockwise" — across the wrap from the last seat to seat 0 — and
// "The winner ... leads the next trick".
func TestSpecCheck_ClockwiseOrderAcrossWrap(t *testing.T) {
	p := position(t, 5, 3, int(game.Spades), 3, "2D 1S", "9D 2S", "4D 3S", "5D 4S", "3D 5S")
	order := []int{3, 4, 0, 1, 2}
	cards := map[int]string{0: "2D", 1: "9D", 2: "4D", 3: "5D", 4: "3D"}
	for _, seat := range order {
		if got := p.ToAct(nil); !reflect.DeepEqual(got, []game.Seat{game.Seat(seat)}) {
			t.Fatalf("§4.5: to act %v, want [%d]", got, seat)
		}
		for other := 0; other < 5; other++ {
			if other != seat && len(p.Legal(game.Seat(other), nil)) != 0 {
				t.Fatalf("§4.5: seat %d has moves on seat %d's turn", other, seat)
			}
		}
		mustApply(t, p, seat, "play "+cards[seat])
	}
	if p.winners[0] != 1 {
		t.Fatalf("§4.5: 9D (seat 1) should win, winner %d", p.winners[0])
	}
	if got := p.ToAct(nil); !reflect.DeepEqual(got, []game.Seat{1}) {
		t.Fatalf("§4.5: the winner leads next, to act %v", got)
	}
	// The next trick goes on clockwise from the new leader: 1, 2, 3, 4, 0.
	for _, seat := range []int{1, 2, 3, 4, 0} {
		if p.Turn() != seat {
			t.Fatalf("§4.5: turn %d, want %d", p.Turn(), seat)
		}
		mustApply(t, p, seat, "play "+strconv.Itoa(seat+1)+"S")
	}
	if p.winners[1] != 4 || len(p.Result().Rounds) != 1 || p.phase != phDeal || p.Dealer() != 4 {
		t.Fatalf("§4.5: 5S (seat 4) wins the last trick, the round ends, seat 4 deals next: winner %d, rounds %v, dealer %d",
			p.winners[1], p.Result().Rounds, p.Dealer())
	}
	if got := p.Result().Rounds[0]; !reflect.DeepEqual(got, []int{0, 0, 0, 0, 0}) {
		t.Fatalf("§4.6: no Payoo and no Papayoo in play; scores %v", got)
	}
}

// papayoo.md §4.5 following and winning, §7 item 11 discarding: one-trick
// positions with 4 players, seat 0 leading.
func TestSpecCheck_FollowAndWinTable(t *testing.T) {
	for _, tc := range []struct {
		name   string
		die    game.Suit
		hands  []string
		plays  []string
		legal  map[int][]string // legal plays of a seat when it is its turn
		winner int
		points int
	}{
		{"§4.5 the led suit is the leader's card, not the highest so far: after 3H and a 20P discard, a holder of hearts and Payoo must play hearts",
			game.Spades, []string{"3H", "20P 1S", "5H 9P", "12P 2S"}, []string{"3H", "20P", "5H", "12P"},
			map[int][]string{2: {"play 5H"}, 3: {"play 2S", "play 12P"}}, 2, 32},
		{"§4.5 Payoo led: a holder of Payoo may not discard the Papayoo",
			game.Spades, []string{"5P", "7S 2P", "1C", "2C"}, []string{"5P", "2P", "1C", "2C"},
			map[int][]string{1: {"play 2P"}}, 0, 7},
		{"§7.11 Payoo led: a seat void in Payoo may discard the Papayoo; the highest Payoo takes it",
			game.Spades, []string{"5P", "7S 10H", "3P", "6P"}, []string{"5P", "7S", "3P", "6P"},
			map[int][]string{1: {"play 7S", "play 10H"}}, 3, 5 + 40 + 3 + 6},
		{"§4.5 the Papayoo may be led; a higher card of its suit takes it",
			game.Spades, []string{"7S", "10S 20P", "1S", "2H"}, []string{"7S", "10S", "1S", "2H"},
			map[int][]string{1: {"play 10S"}, 3: {"play 2H"}}, 1, 40},
		{"§4.5 the Papayoo ranks as a 7 of its suit: 8H beats it",
			game.Hearts, []string{"6H", "7H", "8H", "1H"}, []string{"6H", "7H", "8H", "1H"},
			nil, 2, 40},
		{"§4.5 the led Papayoo wins when nobody plays higher in its suit",
			game.Hearts, []string{"7H", "2H", "3H", "20P"}, []string{"7H", "2H", "3H", "20P"},
			nil, 0, 60},
		{"§4.5 Payoo led high: lower Payoo do not win, the leader keeps it",
			game.Clubs, []string{"15P", "3P", "14P", "1P"}, []string{"15P", "3P", "14P", "1P"},
			nil, 0, 33},
		{"§4.5 ranks compare numerically in Payoo: 10P beats 9P and 2P (not as text)",
			game.Clubs, []string{"9P", "2P", "10P", "1H"}, []string{"9P", "2P", "10P", "1H"},
			nil, 2, 21},
		{"§4.5 no obligation to overtake: a holder of 10D and 1D may play 1D under 5D",
			game.Clubs, []string{"5D", "1D 10D", "2D", "3D"}, []string{"5D", "1D", "2D", "3D"},
			map[int][]string{1: {"play 1D", "play 10D"}}, 0, 0},
		{"§4.5 the last player to act can win the trick",
			game.Clubs, []string{"2S", "3S", "4S", "5S"}, []string{"2S", "3S", "4S", "5S"},
			nil, 3, 0},
	} {
		p := position(t, 4, 0, int(tc.die), 0, tc.hands...)
		for seat, c := range tc.plays {
			if want, ok := tc.legal[seat]; ok {
				if got := legalTexts(p, seat); !reflect.DeepEqual(sortedCopy(got), sortedCopy(want)) {
					t.Fatalf("%s: seat %d may play %v, want %v", tc.name, seat, got, want)
				}
			}
			mustApply(t, p, seat, "play "+c)
		}
		if int(p.winners[0]) != tc.winner || int(p.points[tc.winner]) != tc.points {
			t.Fatalf("%s: winner %d with %v, want %d with %d", tc.name, p.winners[0], p.points[:4], tc.winner, tc.points)
		}
	}
}

// papayoo.md §4.6 worked example (and §8.14), played as a whole round
// through the public API: a recorded deal, a pass, die = hearts, 15
// tricks. The won piles are A: 20P 15P 3P 7H = 78; B: 7S 7D 1P = 1; C: the
// 16 other Payoo = 171; D: nothing that scores = 0; 78 + 1 + 171 + 0 = 250.
// With rounds=1 the game then ends (§4.7) and D, lowest, wins alone; every
// observer sees the round's scores (§5).
func TestSpecCheck_WorkedExampleWholeRound(t *testing.T) {
	final := []game.Mask{ // the hands after the pass
		mustMask(t, "2P 4P 5P 6P 20P 7S 10S 2C 1H 2H 3H 4H 5H 6H 8H"),
		mustMask(t, "7P 8P 9P 10P 15P 1P 1C 3C 4C 5C 6C 7C 8C 9C 10C"),
		mustMask(t, "19P 18P 17P 16P 3P 1S 2S 3S 4S 5S 6S 8S 9S 7D 1D"),
		mustMask(t, "11P 12P 13P 14P 7H 9H 10H 2D 3D 4D 5D 6D 8D 9D 10D"),
	}
	// Each seat passes 5 cards that its left neighbour must end with.
	passes := make([]game.Mask, 4)
	for i := range passes {
		m := final[(i+1)%4]
		for k := 0; k < 5; k++ {
			passes[i] |= game.Bit(m.Lowest())
			m &= m - 1
		}
	}
	dealt := make([]game.Mask, 4)
	for i := range dealt {
		dealt[i] = final[i]&^passes[(i+3)%4] | passes[i]
	}
	s := mustNew(t, "players=4 rounds=1 first_dealer=0")
	mustChance(t, s, specDealText(4, dealt))
	for i := 3; i >= 0; i-- {
		mustApply(t, s, i, FormatMove(game.Move{Op: OpPass, Set: passes[i]}))
	}
	for i := range final {
		if s.hands[i] != final[i] {
			t.Fatalf("§4.3: seat %d holds %s after the pass", i, s.hands[i].Format(deck))
		}
	}
	mustChance(t, s, "die H")
	tricks := []string{ // "seat card" in play order
		"0 2P, 1 7P, 2 19P, 3 11P",
		"2 18P, 3 12P, 0 4P, 1 8P",
		"2 17P, 3 13P, 0 5P, 1 9P",
		"2 16P, 3 14P, 0 6P, 1 10P",
		"2 1S, 3 2D, 0 10S, 1 1C",
		"0 20P, 1 15P, 2 3P, 3 7H",
		"0 2C, 1 10C, 2 1D, 3 3D",
		"1 1P, 2 7D, 3 4D, 0 7S",
		"1 3C, 2 2S, 3 9H, 0 1H",
		"1 4C, 2 3S, 3 10H, 0 2H",
		"1 5C, 2 4S, 3 5D, 0 3H",
		"1 6C, 2 5S, 3 6D, 0 4H",
		"1 7C, 2 6S, 3 8D, 0 5H",
		"1 8C, 2 8S, 3 9D, 0 6H",
		"1 9C, 2 9S, 3 10D, 0 8H",
	}
	winners := []int{2, 2, 2, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	for k, tr := range tricks {
		for _, st := range strings.Split(tr, ", ") {
			seat, card, _ := strings.Cut(st, " ")
			i, _ := strconv.Atoi(seat)
			mustApply(t, s, i, "play "+card)
		}
		if int(s.winners[k]) != winners[k] {
			t.Fatalf("§4.5 trick %d: winner %d, want %d", k+1, s.winners[k], winners[k])
		}
	}
	if !s.Over() {
		t.Fatal("§4.7: the game is not over after its only round")
	}
	res := s.Result()
	if want := [][]int{{78, 1, 171, 0}}; !reflect.DeepEqual(res.Rounds, want) || !reflect.DeepEqual(res.Totals, want[0]) {
		t.Fatalf("§4.6: rounds %v totals %v, want %v", res.Rounds, res.Totals, want)
	}
	if !reflect.DeepEqual(res.Winners, []game.Seat{3}) || res.HigherWins {
		t.Fatalf("§4.7: winners %v, want [3] (lowest)", res.Winners)
	}
	for obs := game.Spectator; obs < 4; obs++ {
		v := s.view(obs)
		if !reflect.DeepEqual(v.RoundScores, [][]int{{78, 1, 171, 0}}) || !reflect.DeepEqual(v.Totals, []int{78, 1, 171, 0}) ||
			!reflect.DeepEqual(v.Winners, []game.Seat{3}) || len(v.Tricks) != 15 || v.Tricks[5].Points != 78 || v.Tricks[7].Points != 1 {
			t.Fatalf("§5: view of %d: scores %v totals %v winners %v", obs, v.RoundScores, v.Totals, v.Winners)
		}
	}
}

// papayoo.md §3, §6: `rounds` defaults to N for every N; `first_dealer`
// takes random (the default) or any seat index below N; `tie_break` is
// shared (the default, and its only value).
func TestSpecCheck_OptionValues(t *testing.T) {
	for n := 3; n <= 8; n++ {
		s := mustNew(t, "players="+strconv.Itoa(n))
		o := s.Options()
		if o["rounds"] != strconv.Itoa(n) || s.rounds != n || o["first_dealer"] != "random" || o["tie_break"] != "shared" {
			t.Fatalf("§6 N=%d: defaults %v", n, o)
		}
		if s.phase != phDealer || s.Dealer() != -1 {
			t.Fatalf("§6 N=%d: first_dealer=random must draw the dealer", n)
		}
		for d := 0; d < 8; d++ {
			o, _ := game.ParseOptions("players=" + strconv.Itoa(n) + " first_dealer=" + strconv.Itoa(d) + " tie_break=shared")
			st, err := NewState(o)
			if d < n {
				if err != nil || st.Dealer() != d || st.phase != phDeal {
					t.Fatalf("§6 N=%d first_dealer=%d: %v", n, d, err)
				}
			} else if err == nil {
				t.Fatalf("§6 N=%d: first_dealer=%d (no such seat) accepted", n, d)
			}
		}
	}
	for _, good := range []string{"rounds=1", "rounds=2", "rounds=12", "rounds=24"} {
		if s := mustNew(t, "players=4 "+good); strconv.Itoa(s.rounds) != strings.TrimPrefix(good, "rounds=") {
			t.Fatalf("§6: %s gives %d rounds", good, s.rounds)
		}
	}
	for _, bad := range []string{"rounds=0", "rounds=-1", "rounds=x", "first_dealer=-1", "tie_break=random", "players=1"} {
		o, err := game.ParseOptions("players=4 " + bad)
		if err == nil {
			_, err = NewState(o)
		}
		if err == nil {
			t.Fatalf("§6: %s accepted", bad)
		}
	}
}

// papayoo.md §6: "`rounds` | integer ≥ 1". The spec sets no upper bound;
// the engine range-checks a client's number with one far above any real
// game (MaxRounds; it was 100, which refused games the spec allows), and
// refuses past it with an option error.
func TestSpecCheck_RoundsBound(t *testing.T) {
	for _, r := range []string{"101", "200", strconv.Itoa(MaxRounds)} {
		o, _ := game.ParseOptions("players=3 rounds=" + r)
		if _, err := NewState(o); err != nil {
			t.Errorf("§6: rounds=%s (an integer ≥ 1) refused: %v", r, err)
		}
	}
	o, _ := game.ParseOptions("players=3 rounds=" + strconv.Itoa(MaxRounds+1))
	var oe *game.OptionError
	if _, err := NewState(o); !errors.As(err, &oe) || oe.Name != "rounds" {
		t.Errorf("rounds=%d: want an option error, got %v", MaxRounds+1, err)
	}
}

// papayoo.md §4 item 7, §4.7, §8.12: R rounds exactly, the dealer moving to
// the left each round and wrapping around the table, then no further deal.
func TestSpecCheck_RoundsAndRotation(t *testing.T) {
	for _, tc := range []struct {
		n, rounds, first int
		dealers          []int
	}{
		{4, 1, 2, []int{2}},
		{6, 7, 5, []int{5, 0, 1, 2, 3, 4, 5}},
		{8, 9, 3, []int{3, 4, 5, 6, 7, 0, 1, 2, 3}},
		{3, 6, 1, []int{1, 2, 0, 1, 2, 0}},
	} {
		s := mustNew(t, "players="+strconv.Itoa(tc.n)+" rounds="+strconv.Itoa(tc.rounds)+" first_dealer="+strconv.Itoa(tc.first))
		r := game.NewRand(uint64(tc.n + tc.rounds))
		var dealers, leaders []int
		playRandom(t, s, &r, func(s *State, chance string) {
			if strings.HasPrefix(chance, "deal") {
				dealers = append(dealers, s.Dealer())
			}
			if strings.HasPrefix(chance, "die") {
				leaders = append(leaders, s.Dealer())
			}
		})
		if !reflect.DeepEqual(dealers, tc.dealers) || !reflect.DeepEqual(leaders, tc.dealers) {
			t.Fatalf("§4 N=%d R=%d: dealers %v, want %v", tc.n, tc.rounds, dealers, tc.dealers)
		}
		if !s.Over() || len(s.Result().Rounds) != tc.rounds || s.Round() != tc.rounds {
			t.Fatalf("§4.7 N=%d: over %v after %d rounds, want %d", tc.n, s.Over(), len(s.Result().Rounds), tc.rounds)
		}
		for seat := 0; seat < tc.n; seat++ {
			if len(s.Legal(game.Seat(seat), nil)) != 0 {
				t.Fatalf("§4.7: seat %d has moves after the end", seat)
			}
		}
	}
}

// notation.md "Cards" and "Moves": the aliases (lower case, T for 10, suit
// symbols, P13 for 13P) in every combination the notation allows, and the
// canonical printing in sort order (rank ascending numerically).
func TestSpecCheck_NotationAliases(t *testing.T) {
	for _, tc := range []struct{ in, canon string }{
		{"play TP", "play 10P"},
		{"play tp", "play 10P"},
		{"play P10", "play 10P"},
		{"play p1", "play 1P"},
		{"play 20p", "play 20P"},
		{"play t♦", "play 10D"},
		{"play 1♦", "play 1D"},
		{"play 10♥", "play 10H"},
		{"play 1s", "play 1S"},
		{"pass 20P 1P 10P 9P 2P", "pass 1P 2P 9P 10P 20P"},
		{"pass 10C 9C 1♣ TS 2s", "pass 2S 10S 1C 9C 10C"},
		{"pass p20 P2 p10", "pass 2P 10P 20P"},
	} {
		m, err := parseMove(tc.in)
		if err != nil {
			t.Fatalf("notation.md: %q refused: %v", tc.in, err)
		}
		if got := FormatMove(m); got != tc.canon {
			t.Fatalf("notation.md: %q prints %q, want %q", tc.in, got, tc.canon)
		}
	}
	for _, tc := range []struct{ in, token string }{
		{"play 10", "10"},
		{"play H7", "H7"},
		{"play 7HH", "7HH"},
		{"play ♥7", "♥7"},
		{"play P", "P"},
		{"play 7P7", "7P7"},
		{"play 13♥P", "13♥P"},
		{"play 1.0S", "1.0S"},
		{"play +7H", "+7H"},
		{"play 010S", "010S"},
		{"play 7♤", "7♤"},
		{"play P♥", "P♥"},
		{"PLAY 7H", "PLAY"},
		{"pass 7H 7♥", "7♥"},
		{"pass 13P P13", "P13"},
		{"pass 10S TS", "TS"},
	} {
		_, err := parseMove(tc.in)
		if game.Code(err) != game.ErrMalformed || !strings.Contains(err.Error(), tc.token) {
			t.Fatalf("notation.md: %q: want malformed quoting %q, got %v", tc.in, tc.token, err)
		}
	}
}

// notation.md "parsers accept the canonical form plus the aliases listed
// here, and reject anything else". The parser upper-cased tokens with
// strings.ToUpper, so the Latin long s "ſ" (U+017F, whose upper case is
// "S") read as spades: "7ſ" was accepted as 7S although it is neither
// canonical nor a listed alias.
func TestSpecCheck_ParserRefusesLongS(t *testing.T) {
	for _, in := range []string{"play 7\u017f", "play 10\u017f", "pass 1\u017f 2S 3S 4S 5S"} {
		if m, err := parseMove(in); err == nil {
			t.Errorf("notation.md: %q accepted as %q, want malformed", in, FormatMove(m))
		}
	}
	if c, err := Deck.Parse("7\u017f"); err == nil {
		t.Errorf("notation.md: Deck.Parse(\"7\u017f\") = %s, want an error", Deck.Format(c))
	}
}

// notation.md "Sort order, wherever the engine prints a set of cards (a
// hand, a pass)": S H D C then P, ranks ascending numerically (9 before 10,
// 2P before 10P before 20P), in the view's JSON and text and in the deal
// record.
func TestSpecCheck_PrintedSetsSorted(t *testing.T) {
	p := position(t, 4, 0, int(game.Hearts), 0,
		"20P 10P 9P 2P 1C 10D 2H 10S 9S",
		"1S 2S 3S 4S 5S 6S 7S 8S 1H",
		"3H 4H 5H 6H 7H 8H 9H 10H 1D",
		"2D 3D 4D 5D 6D 7D 8D 9D 2C")
	b, _ := json.Marshal(p.View(0))
	want := `"hand":["9S","10S","2H","10D","1C","2P","9P","10P","20P"]`
	if !strings.Contains(string(b), want) {
		t.Fatalf("notation.md: view JSON %s lacks %s", b, want)
	}
	if !strings.Contains(p.view(0).String(), "hand: 9S 10S 2H 10D 1C 2P 9P 10P 20P\n") {
		t.Fatalf("notation.md: view text\n%s", p.view(0).String())
	}
	s := mustNew(t, "players=3 first_dealer=0")
	r := game.NewRand(8)
	text := s.SampleChance(&r)
	for _, line := range strings.Split(text, "\n")[1:] {
		_, cs, _ := strings.Cut(line, ": ")
		list, err := Deck.ParseList(cs)
		if err != nil || Deck.FormatSorted(list) != cs {
			t.Fatalf("notation.md: deal line %q is not in sort order", line)
		}
	}
}
