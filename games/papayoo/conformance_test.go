package papayoo

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"cardroom/game"
)

// Conformance scenarios of papayoo.md §8, one test each. Seats A, B, C, D…
// are seats 0, 1, 2, 3…; A is the dealer unless stated.

// §8.1 Deal sizes (and §4.1, §4.2).
func TestConformance01_DealSizes(t *testing.T) {
	for n := 3; n <= 8; n++ {
		for _, viaText := range []bool{false, true} {
			s := mustNew(t, "players="+strconv.Itoa(n)+" first_dealer=0")
			r := game.NewRand(uint64(n))
			if viaText {
				mustChance(t, s, s.SampleChance(&r))
			} else {
				s.RollChance(&r)
			}
			var union game.Mask
			for i := 0; i < n; i++ {
				if got, want := s.hands[i].Count(), []int{3: 20, 4: 15, 5: 12, 6: 10, 7: 8, 8: 7}[n]; got != want {
					t.Errorf("§8.1 N=%d: seat %d has %d cards, want %d", n, i, got, want)
				}
				if union&s.hands[i] != 0 {
					t.Errorf("§8.1 N=%d: a card dealt twice", n)
				}
				union |= s.hands[i]
			}
			want := fullDeck
			if n >= 7 {
				want &^= mustMask(t, "1S 1H 1D 1C")
			}
			if union != want {
				t.Errorf("§8.1 N=%d: dealt %d cards, want the %d of the deck in play", n, union.Count(), want.Count())
			}
			if !union.Has(40) {
				t.Errorf("§8.1 N=%d: 1P missing", n)
			}
			if wantCards := map[bool]int{true: 56, false: 60}[n >= 7]; union.Count() != wantCards {
				t.Errorf("§8.1 N=%d: %d cards in play, want %d", n, union.Count(), wantCards)
			}
		}
	}
}

// §8.2 250-point invariant with the 1s removed: N = 8, 7, 3 (and every N in
// the property test).
func TestConformance02_250Points(t *testing.T) {
	for _, n := range []int{8, 7, 3} {
		for seed := uint64(0); seed < 20; seed++ {
			s := mustNew(t, "players="+strconv.Itoa(n)+" rounds=1")
			r := game.NewRand(seed)
			playRandom(t, s, &r, nil)
			sum := 0
			for _, p := range s.Result().Rounds[0] {
				sum += p
			}
			if sum != 250 {
				t.Fatalf("§8.2 N=%d seed %d: round scores sum to %d, want 250", n, seed, sum)
			}
		}
	}
}

// §8.3 Pass sizes: N = 5, passes of 3 or 5 cards are illegal, 4 distinct
// cards are legal; after resolution the cards moved left.
func TestConformance03_PassSizes(t *testing.T) {
	s := mustNew(t, "players=5 first_dealer=0")
	r := game.NewRand(3)
	s.RollChance(&r)
	hands := s.hands
	for _, k := range []int{3, 5} {
		m := r.RandomBits(s.hands[0], k)
		err := s.Apply(0, game.Move{Op: OpPass, Set: m})
		if game.Code(err) != game.ErrIllegal {
			t.Errorf("§8.3: pass of %d cards: got %v, want illegal", k, err)
		}
	}
	// A card not in the hand, and a repeated card.
	other := s.hands[1] & -s.hands[1]
	if err := s.Apply(0, game.Move{Op: OpPass, Set: r.RandomBits(s.hands[0], 3) | other}); game.Code(err) != game.ErrIllegal {
		t.Errorf("§8.3: pass with another seat's card: got %v, want illegal", err)
	}
	c := cardName[s.hands[0].Lowest()]
	if _, err := s.ParseMove("pass " + c + " " + c + " " + c + " " + c); game.Code(err) != game.ErrMalformed {
		t.Errorf("§8.3: pass with a repeated card: got %v, want malformed", err)
	}
	if s.hands != hands || s.passed != 0 {
		t.Fatal("§8.3: a refused pass changed the state")
	}
	var passes [5]game.Mask
	for i := 0; i < 5; i++ {
		passes[i] = r.RandomBits(s.hands[i], 4)
		mustApply(t, s, i, FormatMove(game.Move{Op: OpPass, Set: passes[i]}))
	}
	for i := 0; i < 5; i++ {
		if s.hands[i].Count() != 12 {
			t.Errorf("§8.3: seat %d has %d cards after the pass, want 12", i, s.hands[i].Count())
		}
	}
	if s.hands[1]&passes[0] != passes[0] {
		t.Error("§8.3: A's passed cards are not in B's hand")
	}
	if s.hands[0]&passes[4] != passes[4] {
		t.Error("§8.3: E's passed cards are not in A's hand")
	}
	if s.hands[0]&passes[0] != 0 {
		t.Error("§8.3: A still holds a passed card")
	}
}

// §8.4 Pass is blind and simultaneous.
func TestConformance04_BlindPass(t *testing.T) {
	s := mustNew(t, "players=4 first_dealer=0")
	r := game.NewRand(4)
	s.RollChance(&r)
	dealt := s.hands
	var passes [4]game.Mask
	for i := 0; i < 3; i++ {
		passes[i] = r.RandomBits(s.hands[i], 5)
		mustApply(t, s, i, FormatMove(game.Move{Op: OpPass, Set: passes[i]}))
		if s.hands != dealt {
			t.Fatalf("§8.4: a hand changed after %d passes", i+1)
		}
		if got := s.Legal(game.Seat(i), nil); len(got) != 0 {
			t.Errorf("§8.4: seat %d has passed but has %d legal moves", i, len(got))
		}
		err := s.Apply(game.Seat(i), game.Move{Op: OpPass, Set: r.RandomBits(s.hands[i], 5)})
		if game.Code(err) != game.ErrNotYourTurn {
			t.Errorf("§8.4: second pass of seat %d: got %v, want not_your_turn", i, err)
		}
	}
	if got := s.ToAct(nil); !reflect.DeepEqual(got, []game.Seat{3}) {
		t.Errorf("§8.4: to act %v, want [3]", got)
	}
	// No seat observes another's chosen cards.
	for obs := game.Seat(-1); obs < 4; obs++ {
		v := s.view(obs)
		if obs >= 0 && v.Hand != dealt[obs] {
			t.Errorf("§8.4: seat %d sees hand %s, want its dealt hand", obs, v.Hand.Format(deck))
		}
		for i := 0; i < 3; i++ {
			if game.Seat(i) == obs {
				continue
			}
			if x := passes[i] & (v.MyPass | v.Received); x != 0 {
				t.Errorf("§8.4: seat %d's view shows seat %d's passed card(s) %s", obs, i, x.Format(deck))
			}
		}
		if v.Received != 0 {
			t.Errorf("§8.4: seat %d sees received cards before the pass resolved", obs)
		}
		if !reflect.DeepEqual(v.Passed, []bool{true, true, true, false}) {
			t.Errorf("§8.4: passed flags %v", v.Passed)
		}
	}
	passes[3] = r.RandomBits(s.hands[3], 5)
	mustApply(t, s, 3, FormatMove(game.Move{Op: OpPass, Set: passes[3]}))
	for i := 0; i < 4; i++ {
		want := dealt[i]&^passes[i] | passes[(i+3)%4]
		if s.hands[i] != want {
			t.Errorf("§8.4: seat %d's hand after all passes is wrong", i)
		}
	}
	if !s.ChancePending() || s.phase != phDie {
		t.Error("§8.4: the die is not pending after the pass")
	}
	if v := s.view(1); v.Received != passes[0] || v.MyPass != passes[1] {
		t.Errorf("§8.4: seat 1 sees received %s passed %s", v.Received.Format(deck), v.MyPass.Format(deck))
	}
}

// §8.5 Papayoo determined after passing: die = spades, 7S is worth 40 and the
// other sevens 0.
func TestConformance05_PapayooAfterPass(t *testing.T) {
	// The die is a chance step after the pass, not before.
	s := mustNew(t, "players=4 first_dealer=0")
	r := game.NewRand(5)
	s.RollChance(&r)
	if _, rolled := s.view(0).Die(); rolled || s.view(0).Papayoo != game.NoCard || s.phase != phPass {
		t.Fatal("§8.5: die known before the pass")
	}
	if err := s.ApplyChance("die S"); game.Code(err) != game.ErrNoChance {
		t.Errorf("§8.5: die during the pass: got %v, want no_chance", err)
	}
	// Won sevens: A leads 7H, the others play 7D 7C 7S; then 1H … .
	p := position(t, 4, 0, int(game.Spades), 0, "7H 1H", "7D 2D", "7C 2C", "7S 2S")
	if v := p.view(0); v.Papayoo != game.NewCard(game.Spades, 7) {
		t.Errorf("§8.5: papayoo %v, want 7S", v.Papayoo)
	} else if su, rolled := v.Die(); !rolled || su != game.Spades {
		t.Errorf("§8.5: die %v %v, want S", su, rolled)
	}
	for i, c := range []string{"7H", "7D", "7C", "7S"} {
		mustApply(t, p, i, "play "+c)
	}
	if p.points[0] != 40 {
		t.Errorf("§8.5: A won 7H 7D 7C 7S with die S: %d points, want 40", p.points[0])
	}
	q := position(t, 4, 0, int(game.Spades), 0, "7H", "7D", "7C", "1H")
	for i, c := range []string{"7H", "7D", "7C", "1H"} {
		mustApply(t, q, i, "play "+c)
	}
	if got := q.Result().Rounds[0]; !reflect.DeepEqual(got, []int{0, 0, 0, 0}) {
		t.Errorf("§8.5: 7H 7D 7C with die S scored %v, want all 0", got)
	}
}

// §8.6 Following suit.
func TestConformance06_FollowSuit(t *testing.T) {
	p := position(t, 4, 0, 0, 0, "4D 1S 2S 3S", "2D 9D 17P 7S", "5D 1H 2H 3H", "6D 1C 2C 3C")
	mustApply(t, p, 0, "play 4D")
	if got := legalTexts(p, 1); !reflect.DeepEqual(got, []string{"play 2D", "play 9D"}) {
		t.Errorf("§8.6: legal %v, want [play 2D play 9D]", got)
	}
	if err := p.Apply(1, game.Move{Op: OpPlay, Card: cardOf[mustMask(t, "17P").Lowest()]}); game.Code(err) != game.ErrIllegal {
		t.Errorf("§8.6: 17P when holding diamonds: got %v, want illegal", err)
	}
	mustApply(t, p, 1, "play 2D") // under the 4D: legal, no obligation to overtake
	mustApply(t, p, 2, "play 5D")
	if got := legalTexts(p, 3); !reflect.DeepEqual(got, []string{"play 6D"}) {
		t.Errorf("§8.6: legal %v, want [play 6D]", got)
	}
}

// §8.7 Void in the led suit: any card.
func TestConformance07_Void(t *testing.T) {
	p := position(t, 4, 0, 0, 0, "4D 1S 2S", "17P 7S 10C", "5D 1H 2H", "6D 1C 2C")
	mustApply(t, p, 0, "play 4D")
	if got := legalTexts(p, 1); !reflect.DeepEqual(got, []string{"play 7S", "play 10C", "play 17P"}) {
		t.Errorf("§8.7: legal %v, want all three", got)
	}
	mustApply(t, p, 1, "play 17P")
	if v := p.view(-1); v.Voids[1] != 1<<game.Diamonds || v.Voids[0]|v.Voids[2]|v.Voids[3] != 0 {
		t.Errorf("§8.7: voids of B %v, want [D]", v.Voids[1])
	}
}

// §8.8 Payoo led and nobody else has Payoo.
func TestConformance08_PayooLedAlone(t *testing.T) {
	p := position(t, 4, 0, int(game.Spades), 0, "5P 1S", "10H 2S", "7S 3S", "9C 4S")
	for i, c := range []string{"5P", "10H", "7S", "9C"} {
		mustApply(t, p, i, "play "+c)
	}
	if p.points[0] != 45 {
		t.Errorf("§8.8: A took %d points, want 5 + 40 = 45", p.points[0])
	}
	if got := p.ToAct(nil); !reflect.DeepEqual(got, []game.Seat{0}) {
		t.Errorf("§8.8: to act %v, want A", got)
	}
	if v := p.view(-1); v.Tricks[0].Winner != 0 || v.Tricks[0].Points != 45 || v.Trick.Leader != 0 {
		t.Errorf("§8.8: view trick %+v current %+v", v.Tricks[0], v.Trick)
	}
}

// §8.9 Nobody follows an ordinary suit.
func TestConformance09_NobodyFollows(t *testing.T) {
	for _, tc := range []struct {
		die  game.Suit
		want int16
	}{{game.Hearts, 60}, {game.Spades, 20}} {
		p := position(t, 4, 0, int(tc.die), 0, "1C 1S", "20P 2S", "10H 3S", "7H 4S")
		for i, c := range []string{"1C", "20P", "10H", "7H"} {
			mustApply(t, p, i, "play "+c)
		}
		if p.winners[0] != 0 || p.points[0] != tc.want {
			t.Errorf("§8.9 die %v: winner %d with %d points, want A with %d", tc.die, p.winners[0], p.points[0], tc.want)
		}
	}
}

// §8.10 Highest of the led suit wins; off-suit high cards do not.
// §8.11 The winner leads next, with any card.
func TestConformance10and11_HighestOfLedSuitWinnerLeads(t *testing.T) {
	p := position(t, 4, 0, 0, 0, "3H 1S 1D", "8H 10D 1C", "19P 2S 2D", "10S 3S 3D")
	for i, c := range []string{"3H", "8H", "19P", "10S"} {
		mustApply(t, p, i, "play "+c)
	}
	if p.winners[0] != 1 {
		t.Fatalf("§8.10: winner %d, want B (8H)", p.winners[0])
	}
	// §8.11
	if got := p.ToAct(nil); !reflect.DeepEqual(got, []game.Seat{1}) {
		t.Errorf("§8.11: to act %v, want [1]", got)
	}
	for _, s := range []game.Seat{0, 2, 3} {
		if len(p.Legal(s, nil)) != 0 {
			t.Errorf("§8.11: seat %d has legal moves", s)
		}
	}
	if got := legalTexts(p, 1); !reflect.DeepEqual(got, []string{"play 10D", "play 1C"}) {
		t.Errorf("§8.11: leader's legal %v, want its whole hand", got)
	}
}

// §8.12 Round count and dealer rotation.
func TestConformance12_RoundsAndDealers(t *testing.T) {
	s := mustNew(t, "players=4 rounds=4 first_dealer=0")
	r := game.NewRand(12)
	var dealers []int
	deals := 0
	playRandom(t, s, &r, func(s *State, chance string) {
		if strings.HasPrefix(chance, "deal") {
			deals++
			dealers = append(dealers, int(s.dealer))
		}
	})
	if !reflect.DeepEqual(dealers, []int{0, 1, 2, 3}) || deals != 4 {
		t.Errorf("§8.12: dealers %v, want [0 1 2 3]", dealers)
	}
	if !s.Over() || s.ChancePending() || len(s.ToAct(nil)) != 0 {
		t.Error("§8.12: the game is not over after round 4")
	}
	if err := s.ApplyChance("deal"); game.Code(err) != game.ErrNoChance {
		t.Errorf("§8.12: a fifth deal: got %v, want no_chance", err)
	}
	if err := s.Apply(0, game.Move{Op: OpPlay, Card: cardOf[0]}); !errors.Is(err, game.ErrGameOver) {
		t.Errorf("§8.12: move after the end: got %v, want game_over", err)
	}
	if len(s.Result().Rounds) != 4 {
		t.Errorf("§8.12: %d rounds scored", len(s.Result().Rounds))
	}
	// Default rounds = N and first_dealer=random draws "dealer N".
	d := mustNew(t, "players=5")
	if d.Options()["rounds"] != "5" || !d.ChancePending() || !strings.HasPrefix(d.SampleChance(&r), "dealer ") {
		t.Error("§3: default rounds must be N and the first dealer a chance step")
	}
}

// §8.13 Final ranking and ties.
func TestConformance13_Ranking(t *testing.T) {
	for _, tc := range []struct {
		totals []int32
		want   []game.Seat
	}{
		{[]int32{310, 250, 250, 190}, []game.Seat{3}},
		{[]int32{200, 200, 300, 300}, []game.Seat{0, 1}},
	} {
		s := mustNew(t, "players=4 first_dealer=0")
		copy(s.totals[:], tc.totals)
		s.phase = phOver
		res := s.Result()
		if !reflect.DeepEqual(res.Winners, tc.want) || res.HigherWins {
			t.Errorf("§8.13 totals %v: winners %v, want %v", tc.totals, res.Winners, tc.want)
		}
	}
}

// §8.14 Worked score (§4.6): 20P, 15P, 3P and the Papayoo make 78.
func TestConformance14_WorkedScore(t *testing.T) {
	p := position(t, 4, 0, int(game.Hearts), 0, "20P", "15P", "3P", "7H")
	for i, c := range []string{"20P", "15P", "3P", "7H"} {
		mustApply(t, p, i, "play "+c)
	}
	if got := p.Result().Rounds[0]; !reflect.DeepEqual(got, []int{78, 0, 0, 0}) {
		t.Errorf("§8.14: scores %v, want A 78", got)
	}
	// The whole worked example of §4.6 (B: 7S 7D 1P = 1; C: the other Payoo = 171).
	rest := fullDeck & suitMask[4] &^ mustMask(t, "1P 3P 15P 20P")
	pts := 0
	for m := rest; m != 0; m &= m - 1 {
		pts += int(payooPts[m.Lowest()])
	}
	if pts != 171 || 78+1+pts != 250 {
		t.Errorf("§4.6: C's Payoo are worth %d, want 171", pts)
	}
}
