package pisyedili

import (
	"testing"

	"cardroom/game"
)

// §13 penalty_ends_turn=false: the penalised player then plays a normal turn.
func TestOptionPenaltyEndsTurnFalse(t *testing.T) {
	s := build(t, pos{opts: game.Options{"penalty_ends_turn": "false"}, hands: []string{"9D 2H", "2S", "2D", "2C"}, stock: "3S 4S 5S 6S", pile: "7H", chain: ChainSeven, k: 1})
	do(t, s, 0, "penalty")
	if s.turn != 0 || s.ph != PhaseNormal || s.hn[0] != 5 || s.why != ReasonPenalty {
		t.Fatalf("§13 penalty_ends_turn=false: want A to play on after drawing 3, got turn %d hand %d", s.turn, s.hn[0])
	}
	// The top is still 7H, with no chain: hearts, sevens, jacks, jokers.
	wantLegal(t, s, []string{"play 2H", "draw"}, "§13 penalty_ends_turn=false")
	if v := s.View(1).(*View); v.TurnReason != ReasonPenalty || v.Chain != nil {
		t.Fatalf("view: reason %q chain %v", v.TurnReason, v.Chain)
	}
}

// §5/§13 joker_follow: transparent (the card under the joker) or any.
func TestOptionJokerFollow(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want []string
	}{
		{"transparent", []string{"play 5S", "draw"}},
		{"any", []string{"play 5S", "play 9H", "play 3C", "draw"}},
	} {
		s := build(t, pos{opts: game.Options{"joker_follow": tc.mode}, hands: []string{"JK 2C", "2D", "5S 9H 3C", "2C"}, stock: "2H 3H 4H 5H 6H 7H 8H 9H 10H QH KH", pile: "6S"})
		do(t, s, 0, "play JK")
		do(t, s, 1, "penalty")
		wantLegal(t, s, tc.want, "§5 joker_follow="+tc.mode)
	}
}

// §8: an ace with two players: the other draws one, the ace's player plays on.
func TestAceTwoPlayers(t *testing.T) {
	s := build(t, pos{opts: game.Options{"players": "2"}, hands: []string{"AH 5H 2C", "2S"}, stock: "3S 4S", pile: "9H"})
	do(t, s, 0, "play AH")
	if s.hn[1] != 2 || s.turn != 0 || s.ph != PhaseAceContinue {
		t.Fatalf("§8 two players: B draws 1 and A plays on")
	}
	do(t, s, 0, "play 5H")
	if s.turn != 1 {
		t.Fatalf("after 5H, B moves")
	}
}

// Views carry the observer's hand only; the drawn card only to the drawer.
func TestViewPrivacy(t *testing.T) {
	s := build(t, pos{hands: []string{"6D 3C", "2S 4S", "2D", "2C"}, stock: "9S 2H", pile: "6S"})
	do(t, s, 0, "draw")
	for obs := game.Spectator; obs < 4; obs++ {
		v := s.View(obs).(*View)
		switch {
		case obs < 0 && (v.Hand.Len() != 0 || v.Drawn != game.NoCard):
			t.Fatalf("spectator view shows a hand %v or a drawn card %q", v.Hand, v.Drawn)
		case obs == 0 && (joinS(v.Hand) != "9S 6D 3C" || v.Drawn != card(t, "9S")):
			t.Fatalf("drawer's view: hand %v drawn %q", v.Hand, v.Drawn)
		case obs > 0 && v.Drawn != game.NoCard:
			t.Fatalf("seat %d sees the drawn card", obs)
		}
		if v.Revealed != nil || v.StockSize != 1 || v.HandSizes[0] != 3 {
			t.Fatalf("view %d: %+v", obs, v)
		}
	}
}

// Shown voids (§6, §7): a draw in the opening round shows no plain club, a
// forced pass shows no playable card; both are public.
func TestShownVoids(t *testing.T) {
	s := build(t, pos{ph: PhaseOpening, open: 4, hands: []string{"JH 3D 9H", "2C 9D", "3C 9D", "4C 9D"}, stock: "AC 5H 3C"})
	do(t, s, 0, "draw")
	v := s.View(1).(*View)
	v.Shown = hardVoids(v.Shown) // the soft ones: TestSoftVoids
	if len(v.Shown) != 1 || v.Shown[0].Seat != 0 || v.Shown[0].Why != VoidOpeningDraw || v.Shown[0].Since != 1 ||
		joinS(v.Shown[0].Lacks) != "2C 3C 4C 5C 6C 9C QC KC" {
		t.Fatalf("§6: a draw in the opening round shows no plain club: %+v", v.Shown)
	}
	s = build(t, pos{hands: []string{"8C 6D", "2S", "3S", "4S"}, pile: "9H"})
	do(t, s, 0, "pass")
	v = s.View(2).(*View)
	if len(v.Shown) != 1 || v.Shown[0].Why != VoidForcedPass || v.Shown[0].Since != 0 || v.Shown[0].Lacks.Count() != 13+3+3+1 {
		t.Fatalf("§7: a forced pass shows no playable card: %+v", v.Shown)
	}
}
