package pisyedili

import (
	"fmt"
	"reflect"
	"testing"

	"cardroom/game"
)

// Conformance scenarios of pisyedili.md §15, one test each. Seats A, B, C, D
// are 0, 1, 2, 3.

// §15.1 Stacked 7s (§8 chain rules, seven_stack).
func TestScenario01StackedSevens(t *testing.T) {
	for _, mode := range []string{"linear", "doubling"} {
		t.Run(mode, func(t *testing.T) {
			p := pos{
				opts:  game.Options{"seven_stack": mode},
				hands: []string{"7H 2S", "7C 3S", "2D 3D 7S", "4C 7D JH JK 5D"},
				stock: "2H 3H 4H 5H 6H 8H 9H QH KH",
				pile:  "5H",
			}
			s := build(t, p)
			do(t, s, 0, "play 7H")
			if s.chain != ChainSeven || s.chainK != 1 || s.turn != 1 {
				t.Fatalf("§15.1: after 7H want a seven chain of 1 for B, got kind %d k %d turn %d", s.chain, s.chainK, s.turn)
			}
			do(t, s, 1, "play 7C")
			if s.chainK != 2 || s.turn != 2 || s.chainCards() != 6 {
				t.Fatalf("§15.1: after 7C want k=2 (6 cards) for C, got k %d (%d) turn %d", s.chainK, s.chainCards(), s.turn)
			}
			// C holds a 7 here; the version without one is below. With a third 7, D draws 9 or 12.
			c := *s
			do(t, &c, 2, "play 7S")
			want := map[string]int{"linear": 9, "doubling": 12}[mode]
			if c.chainCards() != want || c.View(3).(*View).Chain.Draw != want {
				t.Fatalf("§15.1: a third 7: D draws %d, want %d (%s)", c.chainCards(), want, mode)
			}
			wantLegal(t, &c, []string{"play 7D", "penalty"}, "§15.1 D on a chain of 3")

			// C without a 7: the only action is the penalty.
			s.remove(2, game.NewCard(game.Spades, 7))
			wantLegal(t, s, []string{"penalty"}, "§15.1 C without a 7")
			before := s.hn[2]
			do(t, s, 2, "penalty")
			if s.hn[2] != before+6 || s.turn != 3 || s.chain != ChainNone {
				t.Fatalf("§15.1: C drew %d (want 6), turn %d (want D), chain %d", s.hn[2]-before, s.turn, s.chain)
			}
			if top := s.pile[s.pileN-1]; top != game.NewCard(game.Clubs, 7) {
				t.Fatalf("§15.1: top is %v, want 7C", top)
			}
			// D plays normally on 7C: clubs, any 7 (a new chain of 1), any J, any joker.
			wantLegal(t, s, join([]string{"play 4C", "play 7D", "play JK", "draw"}, jack("JH")), "§15.1 D after the penalty")
			do(t, s, 3, "play 7D")
			if s.chain != ChainSeven || s.chainK != 1 {
				t.Fatalf("§15.1: 7D on 7C after the penalty starts a new chain of 1, got k=%d", s.chainK)
			}
		})
	}
}

// §15.2 Chain defence is same-kind only (§8, §14 #3).
func TestScenario02SameKindDefence(t *testing.T) {
	s := build(t, pos{hands: []string{"JH 10H JK 8H", "2S", "2D", "2C"}, stock: "3S 4S 5S", pile: "7H", chain: ChainSeven, k: 1})
	wantLegal(t, s, []string{"penalty"}, "§15.2 seven chain")
	for _, m := range []string{"play JH S", "play 10H", "play JK", "play 8H", "draw", "pass"} {
		refuse(t, s, 0, m, game.ErrIllegal)
	}
	s = build(t, pos{hands: []string{"7H 7S 2H", "2S", "2D", "2C"}, stock: "3S 4S 5S", pile: "5H JK", chain: ChainJoker, k: 1})
	wantLegal(t, s, []string{"penalty"}, "§15.2 joker chain")
	refuse(t, s, 0, "play 7H", game.ErrIllegal)
}

// §15.3 Stacked jokers (§8; joker_follow=transparent, §5).
func TestScenario03StackedJokers(t *testing.T) {
	stock := "2S 3S 4S 5S 6S 8S 9S 10S QS KS 2H 3H 4H 5H 6H 8H 9H 10H QH KH 2C 3C"
	s := build(t, pos{hands: []string{"JK 2C", "JK 3C", "4C 5C", "5S 9D 3C JH"}, stock: stock, pile: "5D"})
	do(t, s, 0, "play JK")
	do(t, s, 1, "play JK")
	if s.chain != ChainJoker || s.chainK != 2 || s.chainCards() != 20 {
		t.Fatalf("§15.3: want a joker chain of 2 (20 cards), got k %d (%d)", s.chainK, s.chainCards())
	}
	wantLegal(t, s, []string{"penalty"}, "§15.3 C")
	do(t, s, 2, "penalty")
	if s.hn[2] != 22 || s.turn != 3 {
		t.Fatalf("§15.3: C holds %d (want 2+20), turn %d (want D)", s.hn[2], s.turn)
	}
	// D follows the card under the jokers, 5D: diamonds, fives, jacks (no club 3).
	wantLegal(t, s, join([]string{"play 5S", "play 9D", "draw"}, jack("JH")), "§15.3 D")
	refuse(t, s, 3, "play 3C", game.ErrIllegal)
}

// §15.4 The 10 bounces the turn back one seat (§8).
func TestScenario04TenBounce(t *testing.T) {
	hands := []string{"5D 10S 2S", "10D 3H", "4C 4H", "6H 6S"}
	s := build(t, pos{hands: hands, stock: "2H 3S", pile: "9D", turn: 1})
	do(t, s, 1, "play 10D")
	if s.turn != 0 || s.why != ReasonBounce {
		t.Fatalf("§15.4: after B's 10D want A (bounce), got %d", s.turn)
	}
	a := *s
	do(t, &a, 0, "play 5D")
	if a.turn != 1 {
		t.Fatalf("§15.4: after A's 5D want B, got %d", a.turn)
	}
	do(t, &a, 1, "draw")
	do(t, &a, 1, "pass")
	if a.turn != 2 {
		t.Fatalf("§15.4: then C, got %d", a.turn)
	}
	// A answers with 10S: the turn bounces to D, then back to A.
	do(t, s, 0, "play 10S")
	if s.turn != 3 {
		t.Fatalf("§15.4: after A's 10S want D, got %d", s.turn)
	}
	do(t, s, 3, "play 6S")
	if s.turn != 0 {
		t.Fatalf("§15.4: after D want A, got %d", s.turn)
	}
	// ten_mode=reverse: the direction changes for good.
	r := build(t, pos{opts: game.Options{"ten_mode": "reverse"}, hands: hands, stock: "2H 3S", pile: "9D", turn: 1})
	do(t, r, 1, "play 10D")
	if r.turn != 0 || r.dir != -1 {
		t.Fatalf("§13 ten_mode=reverse: want A and counter-clockwise, got %d dir %d", r.turn, r.dir)
	}
	do(t, r, 0, "play 5D")
	if r.turn != 3 {
		t.Fatalf("§13 ten_mode=reverse: after A want D, got %d", r.turn)
	}
}

// §15.5 The 8 skips (§8), also with two players.
func TestScenario05EightSkip(t *testing.T) {
	s := build(t, pos{hands: []string{"8C 2C", "3C", "4C", "5C"}, stock: "2H", pile: "9C"})
	do(t, s, 0, "play 8C")
	if s.turn != 2 || s.why != ReasonSkip {
		t.Fatalf("§15.5: after 8C want C (B skipped), got %d", s.turn)
	}
	s = build(t, pos{opts: game.Options{"players": "2"}, hands: []string{"8C 2C", "3C"}, stock: "2H", pile: "9C"})
	do(t, s, 0, "play 8C")
	if s.turn != 0 {
		t.Fatalf("§15.5: two players: after 8C want A again, got %d", s.turn)
	}
}

// §15.6 The ace: the others draw one each, the ace's player plays on (§8).
func TestScenario06Ace(t *testing.T) {
	s := build(t, pos{
		hands: []string{"AH AS 5H 7S JD JK 2C", "2S", "2D", "3D"},
		stock: "3S 4S 5S 6S 8S 9S 10S",
		pile:  "9H",
	})
	do(t, s, 0, "play AH")
	for p, want := range []string{"", "2S 3S", "4S 2D", "5S 3D"} {
		if p > 0 && handOf(s, p) != want {
			t.Fatalf("§15.6: after AH seat %d holds %q, want %q (one card each, in order B, C, D)", p, handOf(s, p), want)
		}
	}
	if s.ph != PhaseAceContinue || s.turn != 0 {
		t.Fatalf("§15.6: want A in ace_continue, got phase %s turn %d", phaseNames[s.ph], s.turn)
	}
	// Hearts, aces, jacks, jokers, or end; no draw.
	wantLegal(t, s, join([]string{"play AS", "play 5H", "play JK", "end"}, jack("JD")), "§15.6 ace continuation")
	refuse(t, s, 0, "draw", game.ErrIllegal)
	do(t, s, 0, "play AS")
	for p, want := range []string{"", "2S 3S 6S", "4S 8S 2D", "5S 9S 3D"} {
		if p > 0 && handOf(s, p) != want {
			t.Fatalf("§15.6: after AS seat %d holds %q, want %q", p, handOf(s, p), want)
		}
	}
	if s.ph != PhaseAceContinue || s.turn != 0 {
		t.Fatalf("§15.6: want A in ace_continue again")
	}
	do(t, s, 0, "play 7S")
	if s.turn != 1 || s.chain != ChainSeven || s.chainK != 1 {
		t.Fatalf("§15.6: after 7S B faces a seven chain of 1, got turn %d chain %d k %d", s.turn, s.chain, s.chainK)
	}
	// `end` passes the turn on.
	s = build(t, pos{hands: []string{"AH 2C", "2S", "2D", "3D"}, stock: "3S 4S 5S", pile: "9H"})
	do(t, s, 0, "play AH")
	do(t, s, 0, "end")
	if s.turn != 1 || s.ph != PhaseNormal {
		t.Fatalf("§15.6: after end want B in normal, got %d %s", s.turn, phaseNames[s.ph])
	}
}

// §15.7 The opening clubs round (§6).
func TestScenario07Opening(t *testing.T) {
	open := func(hand, stock string) *State {
		return build(t, pos{ph: PhaseOpening, open: 4, hands: []string{hand, "2C 9D", "3C 9D", "4C 9D"}, stock: stock})
	}
	// (a) a plain club is held: play a club, no draw.
	s := open("4C 7C 9H", "2H 3H")
	wantLegal(t, s, []string{"play 4C", "play 7C"}, "§15.7a")
	refuse(t, s, 0, "draw", game.ErrIllegal)
	refuse(t, s, 0, "pass", game.ErrIllegal)
	// (b) only a special club: play it or draw; 7C has no effect.
	s = open("7C JH 3D", "2H 3H")
	wantLegal(t, s, []string{"play 7C", "draw"}, "§15.7b")
	do(t, s, 0, "play 7C")
	if s.chain != ChainNone || s.turn != 1 || s.hn[1] != 2 {
		t.Fatalf("§15.7b: 7C in the opening round must have no effect (chain %d, turn %d, B holds %d)", s.chain, s.turn, s.hn[1])
	}
	wantLegal(t, s, []string{"play 2C"}, "§15.7b B")
	// (c) no club: only draw, until a club is held; a special club may be played or A draws on.
	s = open("JH 3D 9H", "AC 5H 3C 8H")
	wantLegal(t, s, []string{"draw"}, "§15.7c no club")
	do(t, s, 0, "draw")
	wantLegal(t, s, []string{"play AC", "draw"}, "§15.7c after AC")
	do(t, s, 0, "draw")
	wantLegal(t, s, []string{"play AC", "draw"}, "§15.7c after 5H")
	do(t, s, 0, "draw")
	wantLegal(t, s, []string{"play AC", "play 3C"}, "§15.7c after 3C")
	do(t, s, 0, "play AC")
	if s.turn != 1 || s.hn[1] != 2 || s.hn[2] != 2 {
		t.Fatalf("§15.7c: AC in the opening round has no effect")
	}
	// (d) jokers and J♥ are never legal in the opening round; JC names nothing.
	s = open("JK JH JC 9H", "2H")
	wantLegal(t, s, []string{"play JC", "draw"}, "§15.7d")
	refuse(t, s, 0, "play JK", game.ErrIllegal)
	refuse(t, s, 0, "play JH S", game.ErrIllegal)
	refuse(t, s, 0, "play JC H", game.ErrIllegal)
	do(t, s, 0, "play JC")
	if s.suit != game.Clubs || s.rank != game.Jack {
		t.Fatalf("§15.7d: JC sets clubs and rank J")
	}
	// Nothing to draw and no club: the forced pass counts as the opening turn.
	s = build(t, pos{ph: PhaseOpening, open: 4, hands: []string{"9H", "2C 9D", "3C 9D", "4C 9D"}})
	wantLegal(t, s, []string{"pass"}, "§6 forced pass")
	do(t, s, 0, "pass")
	if s.openLeft != 3 || s.turn != 1 {
		t.Fatalf("§6: a forced pass counts as the opening turn")
	}
}

// §15.8 Opening → normal, from a real deal.
func TestScenario08OpeningToNormal(t *testing.T) {
	st, _ := Engine{}.New(nil)
	s := st.(*State)
	if err := s.ApplyChance("dealer 3"); err != nil {
		t.Fatal(err)
	}
	deal := fullDeal(t, s, []string{"4C 9C 7H JH JK 2D 3S", "5C 2H 3H 4H 5H 6H 8H", "6C 2H 3H 4H 5H 6H 8H", "7C 9H 9H 10H 10H QH QH"}, "")
	if err := s.ApplyChance(deal); err != nil {
		t.Fatal(err)
	}
	if s.turn != 0 || s.ph != PhaseOpening {
		t.Fatalf("§3: after the deal by D, A opens; got turn %d phase %s", s.turn, phaseNames[s.ph])
	}
	do(t, s, 0, "play 4C")
	do(t, s, 1, "play 5C")
	do(t, s, 2, "play 6C")
	do(t, s, 3, "play 7C")
	if s.ph != PhaseNormal || s.turn != 0 || s.chain != ChainNone {
		t.Fatalf("§15.8: want A to move in normal with no chain, got %s turn %d chain %d", phaseNames[s.ph], s.turn, s.chain)
	}
	wantLegal(t, s, join([]string{"play 9C", "play 7H", "play JK", "draw"}, jack("JH")), "§15.8 A after the opening")
}

// §15.9 Voluntary draw: only the drawn card may then be played (§7).
func TestScenario09VoluntaryDraw(t *testing.T) {
	s := build(t, pos{hands: []string{"6D 3C", "2S", "2D", "2C"}, stock: "9S 2H", pile: "6S"})
	do(t, s, 0, "draw")
	wantLegal(t, s, []string{"play 9S", "pass"}, "§15.9 drew 9S")
	refuse(t, s, 0, "play 6D", game.ErrIllegal)
	refuse(t, s, 0, "draw", game.ErrIllegal)
	if v := s.View(0).(*View); v.Drawn != card(t, "9S") || s.View(1).(*View).Drawn != game.NoCard {
		t.Fatalf("§15.9: the drawn card is shown to the drawer only")
	}
	s = build(t, pos{hands: []string{"6D 3C", "2S", "2D", "2C"}, stock: "2H 9S", pile: "6S"})
	do(t, s, 0, "draw")
	wantLegal(t, s, []string{"pass"}, "§15.9 drew 2H")
	do(t, s, 0, "pass")
	if s.turn != 1 {
		t.Fatalf("§15.9: after the pass B moves")
	}
	// play_any_after_draw: any playable card after the draw.
	s = build(t, pos{opts: game.Options{"play_any_after_draw": "true"}, hands: []string{"6D 3C", "2S", "2D", "2C"}, stock: "2H 9S", pile: "6S"})
	do(t, s, 0, "draw")
	wantLegal(t, s, []string{"play 6D", "pass"}, "§13 play_any_after_draw")
	// draw_until_playable: the draw goes on until a playable card.
	s = build(t, pos{opts: game.Options{"draw_until_playable": "true"}, hands: []string{"6D 3C", "2S", "2D", "2C"}, stock: "2H 3D 9S 4S", pile: "6S"})
	do(t, s, 0, "draw")
	if s.hn[0] != 5 || s.drawn != game.NewCard(game.Spades, 9) {
		t.Fatalf("§13 draw_until_playable: want 3 cards drawn ending with 9S, got hand %s", handOf(s, 0))
	}
	wantLegal(t, s, []string{"play 9S", "pass"}, "§13 draw_until_playable")
}

// §15.10 The jack names a suit (§5).
func TestScenario10Jack(t *testing.T) {
	s := build(t, pos{hands: []string{"JS 2C", "5S 3D 4H JC JK 9H", "2D", "2C"}, stock: "3S", pile: "5D"})
	refuse(t, s, 0, "play JS", game.ErrIllegal) // a jack must name a suit
	do(t, s, 0, "play JS H")
	wantLegal(t, s, join([]string{"play 4H", "play 9H", "play JK", "draw"}, jack("JC")), "§15.10 B after JS naming hearts")
	// jack_on_jack=false, jack_wild=false.
	s = build(t, pos{opts: game.Options{"jack_on_jack": "false"}, hands: []string{"JS 2C", "5S 3D 4H JC JK", "2D", "2C"}, stock: "3S", pile: "5D"})
	do(t, s, 0, "play JS H")
	wantLegal(t, s, []string{"play 4H", "play JK", "draw"}, "§13 jack_on_jack=false")
	s = build(t, pos{opts: game.Options{"jack_wild": "false"}, hands: []string{"JS JD 2C", "2S", "2D", "2C"}, stock: "3S", pile: "5D"})
	wantLegal(t, s, join([]string{"draw"}, jack("JD")), "§13 jack_wild=false")
}

// §15.11 End-of-hand recursive draws and the multiplier (§9.1, §11 example 1).
func TestScenario11EndOfHandDraws(t *testing.T) {
	s := build(t, pos{hands: []string{"7H KC 3D", "JS", "2S", "4H"}, stock: "5S AD 9C 2H 8C", pile: "5D", turn: 1})
	do(t, s, 1, "play JS H")
	v := s.View(game.Spectator).(*View)
	last := v.Finished[len(v.Finished)-1]
	if got := handOf(s, 0); got != "" { // hands are gathered after scoring
		t.Fatalf("hands not cleared: %q", got)
	}
	if s.cur.finisher != 1 || s.cur.mult != 2 {
		t.Fatalf("§15.11: want finisher B ×2, got %d ×%d", s.cur.finisher, s.cur.mult)
	}
	if got := last.Hands[0]; got.Len() != 7 {
		t.Fatalf("§15.11: A ends with %v, want 7 cards", got)
	}
	if want := "5S 2H 7H AD 3D 9C KC"; joinS(last.Hands[0]) != want || joinS(last.EndDraws[0]) != "5S 2H AD 9C" {
		t.Fatalf("§15.11: A's hand %v (draws %v), want %s", last.Hands[0], last.EndDraws[0], want)
	}
	if last.Points[0] != 94 || last.Points[1] != 0 || last.Points[2] != 4 || last.Points[3] != 8 {
		t.Fatalf("§15.11: penalties %v, want [94 0 4 8]", last.Points)
	}
	if last.EndDraws[2].Len() != 0 || last.EndDraws[3].Len() != 0 {
		t.Fatalf("§15.11: C and D draw nothing")
	}
}

// joinS is a card set of a view in canonical notation, separated by spaces.
func joinS(x any) string {
	switch x := x.(type) {
	case Cards:
		return x.String()
	case *Cards:
		return x.String()
	case game.Mask:
		return Cards{Once: x}.String()
	}
	panic(fmt.Sprintf("joinS(%T)", x))
}

// §15.12 Finishing multipliers (§11).
func TestScenario12Multipliers(t *testing.T) {
	for _, tc := range []struct {
		card string
		mult int
	}{{"JK", 10}, {"7S", 3}, {"JS H", 2}, {"9S", 1}} {
		s := build(t, pos{hands: []string{"JK 4S", tc.card[:2], "2S", "4H"}, stock: "3S", pile: "5S", turn: 1})
		do(t, s, 1, "play "+tc.card)
		r := s.Result()
		if s.cur.mult != tc.mult || r.Rounds[0][0] != 104*tc.mult || r.Rounds[0][2] != 2*tc.mult || r.Rounds[0][3] != 4*tc.mult {
			t.Fatalf("§15.12: finishing with %s: multiplier %d, penalties %v; want ×%d", tc.card, s.cur.mult, r.Rounds[0], tc.mult)
		}
	}
}

// §15.13 Finishing with a 7 does not make the next player draw (§9 item 1),
// unless finishing_card_effects=true.
func TestScenario13FinishingSeven(t *testing.T) {
	stock := "2H 3H 4H 5H 6H 8H 9H 10H"
	s := build(t, pos{hands: []string{"7C", "2S", "2D", "4H"}, stock: stock, pile: "7H", chain: ChainSeven, k: 1})
	do(t, s, 0, "play 7C")
	last := s.View(0).(*View).Finished[0]
	if last.Hands[1].Len() != 1 || last.Multiplier != 3 || last.Points[1] != 6 {
		t.Fatalf("§15.13: B must not draw; want B with 1 card, ×3; got %v ×%d", last.Hands[1], last.Multiplier)
	}
	s = build(t, pos{opts: game.Options{"finishing_card_effects": "true"}, hands: []string{"7C", "2S", "2D", "4H"}, stock: stock, pile: "7H", chain: ChainSeven, k: 1})
	do(t, s, 0, "play 7C")
	last = s.View(0).(*View).Finished[0]
	if last.Hands[1].Len() != 7 || last.Multiplier != 3 {
		t.Fatalf("§13 finishing_card_effects: B draws the chain of 2 (6 cards); got %v", last.Hands[1])
	}
	// An ace finish with effects: everyone else draws one.
	s = build(t, pos{opts: game.Options{"finishing_card_effects": "true"}, hands: []string{"AH", "2S", "2D", "4H"}, stock: stock, pile: "7H"})
	do(t, s, 0, "play AH")
	last = s.View(0).(*View).Finished[0]
	if last.Hands[1].Len() != 2 || last.Hands[2].Len() != 2 || last.Hands[3].Len() != 2 {
		t.Fatalf("§13 finishing_card_effects: an ace finish makes each draw one; got %v", last.Hands)
	}
}

// §15.14 Empty stock: the pile under its top is reshuffled (§10).
func TestScenario14EmptyStock(t *testing.T) {
	pile := "2S 3S 4S 5S 6S 8S 9S 10S QS KS 2H 7H"
	s := build(t, pos{hands: []string{"9D", "2D 3D", "4D", "5D"}, pile: pile, turn: 1, chain: ChainSeven, k: 1})
	do(t, s, 1, "penalty")
	if !s.ChancePending() || s.chance != ChanceShuffle || len(s.ToAct(nil)) != 0 {
		t.Fatalf("§15.14: want a reshuffle pending")
	}
	before := *s
	for _, bad := range []string{
		"shuffle 2S 3S 4S 5S 6S 8S 9S 10S QS KS",       // one missing
		"shuffle 2S 3S 4S 5S 6S 8S 9S 10S QS KS 7H",    // the top card
		"shuffle 2S 3S 4S 5S 6S 8S 9S 10S QS KS 2H 2H", // too many
		"shuffle 2S 3S 4S 5S 6S 8S 9S 10S QS KS XX",
		"deal\n0: 2S",
	} {
		if err := s.ApplyChance(bad); game.Code(err) != game.ErrBadChance {
			t.Fatalf("§15.14: %q: want bad_chance, got %v", bad, err)
		}
		if !reflect.DeepEqual(before, *s) {
			t.Fatalf("§15.14: a refused shuffle changed the state")
		}
	}
	if err := s.ApplyChance("shuffle KS QS 10S 9S 8S 6S 5S 4S 3S 2S 2H"); err != nil {
		t.Fatal(err)
	}
	if got := handOf(s, 1); got != "10S QS KS 2D 3D" {
		t.Fatalf("§15.14: B drew the top three of the new stock, holds %q", got)
	}
	if s.pileN != 1 || s.pile[0] != game.NewCard(game.Hearts, 7) || s.stockN != 8 || s.turn != 2 {
		t.Fatalf("§15.14: pile %d (top %v), stock %d, turn %d", s.pileN, s.pile[0], s.stockN, s.turn)
	}
	// The stock pool is public: after the reshuffle it holds the 11 cards.
	if v := s.View(0).(*View); v.StockPool.Len() != 11 {
		t.Fatalf("§15.14: stock pool %v", v.StockPool)
	}
	// Nothing left at all: the penalty is cancelled.
	s = build(t, pos{hands: []string{"9D", "2D 3D", "4D", "5D"}, stock: "2C", pile: "7H", turn: 1, chain: ChainSeven, k: 1})
	do(t, s, 1, "penalty")
	if s.hn[1] != 3 || s.ChancePending() || s.turn != 2 {
		t.Fatalf("§10: a penalty with one card left draws it and cancels the rest")
	}
}

// §15.15 Blocked hand (§9 item 2).
func TestScenario15Blocked(t *testing.T) {
	s := build(t, pos{opts: game.Options{"hands": "1"}, hands: []string{"8C 6D", "2S", "3S", "4S"}, pile: "9H", turn: 0})
	for i := 0; i < 4; i++ {
		wantLegal(t, s, []string{"pass"}, "§15.15")
		do(t, s, s.turn, "pass")
	}
	if !s.Over() {
		t.Fatalf("§15.15: four forced passes must end the hand (and the one-hand game)")
	}
	r := s.Result()
	if s.cur.finisher != -1 || s.cur.mult != 1 || r.Rounds[0][0] != 14 || r.Rounds[0][1] != 2 {
		t.Fatalf("§15.15: blocked hand: finisher %d ×%d points %v; want -1 ×1 [14 2 3 4]", s.cur.finisher, s.cur.mult, r.Rounds[0])
	}
	if len(r.Winners) != 1 || r.Winners[0] != 1 {
		t.Fatalf("§12: the lowest total wins: %v", r.Winners)
	}
	// A play in between resets the count.
	s = build(t, pos{hands: []string{"8C 6D", "2S 9S", "3S", "4S"}, pile: "9H", turn: 0})
	do(t, s, 0, "pass")
	do(t, s, 1, "play 9S")
	if s.dead != 0 {
		t.Fatalf("§9: a played card resets the forced-pass count")
	}
}

// §15.16 Card values (§11).
func TestScenario16CardValues(t *testing.T) {
	sum := 0
	for _, c := range cards(t, "JK JC AD QS KH 10C 2D") {
		sum += CardValue(c)
	}
	if sum != 168 {
		t.Fatalf("§15.16: want 168, got %d", sum)
	}
	// Scored in a hand finished with a 7 (×3). A's ace triggers one
	// end-of-hand draw: the stock is empty, so the 5S under the top is
	// reshuffled (§10) and drawn: 3 × (168 + 5).
	s := build(t, pos{hands: []string{"JK JC AD QS KH 10C 2D", "7S", "2S", "4H"}, pile: "5S", turn: 1})
	do(t, s, 1, "play 7S")
	if s.chance != ChanceShuffle || s.ph != PhaseHandOver {
		t.Fatalf("§9.1/§10: the end-of-hand draw waits for a reshuffle")
	}
	if v := s.View(2).(*View); len(v.Revealed) != 4 || v.Revealed[0].Len() != 7 {
		t.Fatalf("hands are shown once the hand is over: %v", v.Revealed)
	}
	if err := s.ApplyChance("shuffle 5S"); err != nil {
		t.Fatal(err)
	}
	if got := s.Result().Rounds[0][0]; got != 3*(168+5) {
		t.Fatalf("§15.16: ×3 → want %d, got %d", 3*(168+5), got)
	}
	// Nothing to draw at all: the trigger lapses, 3 × 168.
	s = build(t, pos{hands: []string{"JK JC AD QS KH 10C 2D", "7S", "2S", "4H"}, pile: "", turn: 1})
	s.suit, s.rank = game.Spades, 5
	s.pileN = 0
	do(t, s, 1, "play 7S")
	if got := s.Result().Rounds[0][0]; got != 3*168 {
		t.Fatalf("§15.16: ×3 → want %d, got %d", 3*168, got)
	}
}
