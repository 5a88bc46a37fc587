package pisyedili

import (
	"strconv"
	"strings"
	"testing"

	"cardroom/game"
)

// Spec check: rules, option values and edge cases of pisyedili.md that the
// other test files do not pin yet, one table case each, citing the section.
// Seats A, B, C, D are 0, 1, 2, 3.

// scResult is the last finished hand's result, from the spectator's view.
func scResult(t *testing.T, s *State) HandResult {
	t.Helper()
	v := s.View(game.Spectator).(*View)
	if len(v.Finished) == 0 {
		t.Fatalf("no finished hand (phase %s, chance %q)", phaseNames[s.ph], chanceNames[s.chance])
	}
	return v.Finished[len(v.Finished)-1]
}

func scPoints(t *testing.T, s *State, want ...int) {
	t.Helper()
	r := scResult(t, s)
	for p, w := range want {
		if r.Points[p] != w {
			t.Fatalf("points %v, want %v", r.Points, want)
		}
	}
}

// pisyedili.md §8 (the ace: "every other player draws 1 card (in clockwise
// order starting at next(X))"), §2 (next = clockwise neighbour), §13
// ten_mode=reverse: a reversed direction does not change the order of the
// ace draws, but the turn after the ace's player goes on in the direction of
// play.
func TestSpecCheck_ReverseAceDrawsClockwise(t *testing.T) {
	for _, tc := range []struct {
		name     string
		then     string
		wantTurn int
	}{
		{"end", "3 end", 2},            // next in the reversed direction: C
		{"plain card", "3 play 5H", 2}, // same
		{"8 skips counter-clockwise", "3 play 8H", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := build(t, pos{opts: game.Options{"ten_mode": "reverse"},
				hands: []string{"10H 2C", "2D 3D", "3C", "AH 5H 8H 4S"},
				stock: "2S 3S 4S 5S 6S 8S 9S", pile: "9H"})
			run(t, s, "0 play 10H") // reversed: D moves
			wantTurn(t, s, 3, PhaseNormal)
			run(t, s, "3 play AH")
			wantTurn(t, s, 3, PhaseAceContinue)
			// Clockwise from next(D) = A: A 2S, B 3S, C 4S.
			wantHand(t, s, 0, "2S 2C")
			wantHand(t, s, 1, "3S 2D 3D")
			wantHand(t, s, 2, "4S 3C")
			run(t, s, tc.then)
			wantTurn(t, s, tc.wantTurn, PhaseNormal)
		})
	}
}

// pisyedili.md §9.1: the end-of-hand draws go "in clockwise order starting
// at next(finisher)", also when a 10 has reversed the direction
// (ten_mode=reverse, §13).
func TestSpecCheck_ReverseEndOfHandClockwise(t *testing.T) {
	s := build(t, pos{opts: game.Options{"ten_mode": "reverse"},
		hands: []string{"10H 7S 2C", "AD 2D", "7C", "4H"},
		stock: "2S 3S 4S 5S 6S 8S 9S QS KS", pile: "9H"})
	run(t, s, "0 play 10H", "3 play 4H") // D (counter-clockwise after A) goes out
	r := scResult(t, s)
	// A (next(D) clockwise) first: 2S 3S 4S; then B: 5S; then C: 6S 8S 9S.
	want := []string{"2S 3S 4S", "5S", "6S 8S 9S", ""}
	for p, w := range want {
		if joinS(r.EndDraws[p]) != w {
			t.Fatalf("§9.1: seat %d drew %v, want %q (all %v)", p, r.EndDraws[p], w, r.EndDraws)
		}
	}
}

// pisyedili.md §8 ("TakePenalty … the next player is next(player)") with
// ten_mode=reverse (§13: "reverses the direction of play"): the next player
// is the next one in the direction of play, and the penalty draw is the
// penalised player's only.
func TestSpecCheck_ReversePenaltyNext(t *testing.T) {
	s := build(t, pos{opts: game.Options{"ten_mode": "reverse"},
		hands: []string{"10H 2C", "2D", "3D", "7H 4S"},
		stock: "2S 3S 4S 5S 6S", pile: "9H"})
	run(t, s, "0 play 10H", "3 play 7H") // D's 7: the chain is C's (counter-clockwise)
	wantTurn(t, s, 2, PhaseNormal)
	wantLegal(t, s, []string{"penalty"}, "§8 C on a seven chain")
	run(t, s, "2 penalty")
	wantTurn(t, s, 1, PhaseNormal)
	wantHand(t, s, 2, "2S 3S 4S 3D")
}

// pisyedili.md §3 and §6: every hand starts with the opening round, dealt by
// next(previous dealer) and opened by next(dealer), turn order "plain
// clockwise" even when a 10 reversed the direction in the previous hand
// (ten_mode=reverse, §13); §11: hand penalties add up to the totals.
func TestSpecCheck_NextHandAfterReverse(t *testing.T) {
	s := build(t, pos{opts: game.Options{"ten_mode": "reverse", "hands": "2"},
		hands: []string{"10H 2C", "2D", "3D", "4H"},
		stock: "2S 3S", pile: "9H"})
	dealer := s.dealer // build: the dealer is prev(turn) = D
	run(t, s, "0 play 10H", "3 play 4H")
	if s.chance != ChanceDeal || s.dealer != s.cw(dealer) {
		t.Fatalf("§3: want the next deal by next(%d), got chance %q dealer %d", dealer, chanceNames[s.chance], s.dealer)
	}
	if got := s.totals; got[0] != 2 || got[1] != 2 || got[2] != 3 || got[3] != 0 {
		t.Fatalf("§11: totals %v after hand 1", got[:4])
	}
	// Dealer A (0): B opens, then C, D, A.
	run(t, s, "! "+fullDeal(t, s, []string{
		"2C 2H 3H 4H 5H 6H 8H", "3C 2S 3S 4S 5S 6S 8S", "4C 2D 3D 4D 5D 6D 8D", "5C 9S 9H 9D QS QH QD",
	}, ""))
	if s.dealer != 0 || s.dir != 1 {
		t.Fatalf("§3: dealer %d direction %d", s.dealer, s.dir)
	}
	wantTurn(t, s, 1, PhaseOpening)
	run(t, s, "1 play 3C")
	wantTurn(t, s, 2, PhaseOpening)
	run(t, s, "2 play 4C", "3 play 5C", "0 play 2C")
	wantTurn(t, s, 1, PhaseNormal)
}

// pisyedili.md §11 worked examples 2–4 (values, multipliers, the finisher
// scores 0).
func TestSpecCheck_WorkedExamples(t *testing.T) {
	cases := []struct {
		name  string
		pos   pos
		steps []string
		want  []int
	}{
		{
			name:  "example 2: C out with a joker (×10): D {JK 4S} 1040, A {QH} 100",
			pos:   pos{hands: []string{"QH", "2S", "JK", "JK 4S"}, pile: "5D", turn: 2},
			steps: []string{"2 play JK"},
			want:  []int{100, 20, 0, 1040},
		},
		{
			name:  "example 3: D out with 7C (×3): B {JD 10S} 105",
			pos:   pos{hands: []string{"2H", "JD 10S", "3H", "7C"}, pile: "5C", turn: 3},
			steps: []string{"3 play 7C"},
			want:  []int{6, 105, 9, 0},
		},
		{
			name:  "example 4: blocked hand (×1): A {8C 6D} 14",
			pos:   pos{hands: []string{"8C 6D", "QS", "KS", "2S"}, pile: "9H"},
			steps: []string{"0 pass", "1 pass", "2 pass", "3 pass"},
			want:  []int{14, 10, 10, 2},
		},
		{
			name:  "a jack's 25 and an ace's 11 under a jack finish (×2)",
			pos:   pos{hands: []string{"JC AD", "JS", "KD QD", "10S 9C"}, pile: "5S", turn: 1},
			steps: []string{"1 play JS H"},
			want:  []int{2 * (25 + 11 + 0), 0, 40, 38},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := build(t, c.pos)
			run(t, s, c.steps...)
			if strings.HasPrefix(c.name, "a jack") {
				// A's ace triggers one end-of-hand draw: nothing is left
				// to draw but the pile under the top (5S) — reshuffled.
				run(t, s, "! shuffle 5S")
				c.want[0] = 2 * (25 + 11 + 5)
			}
			scPoints(t, s, c.want...)
		})
	}
}

// pisyedili.md §7 (after_draw: "Play(drawn card) if it is playable") and §8:
// a drawn special card played at once has its full effect.
func TestSpecCheck_DrawnSpecialCards(t *testing.T) {
	stock := "2S 3S 4S 5S 6S 8S 9S 10S QS KS"
	cases := []auditCase{
		{
			name:  "§7 §8 a drawn ace: the others draw one each, then ace_continue",
			pos:   pos{hands: []string{"2C 5H", "2D", "3D", "4D"}, stock: "AH " + stock, pile: "9H"},
			steps: []string{"0 draw", "0 play AH"},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 0, PhaseAceContinue)
				wantHand(t, s, 1, "2S 2D")
				wantHand(t, s, 2, "3S 3D")
				wantHand(t, s, 3, "4S 4D")
				wantLegal(t, s, []string{"play 5H", "end"}, "§8 ace continuation after a drawn ace")
			},
		},
		{
			name:  "§7 §8 a drawn joker: a joker chain for next(X)",
			pos:   pos{hands: []string{"2C 5H", "2D", "3D", "4D"}, stock: "JK " + stock, pile: "9H"},
			steps: []string{"0 draw"},
			check: func(t *testing.T, s *State) {
				wantLegal(t, s, []string{"play JK", "pass"}, "§5 a joker plays on anything")
				run(t, s, "0 play JK")
				wantTurn(t, s, 1, PhaseNormal)
				if s.chain != ChainJoker || s.chainK != 1 || s.chainCards() != 10 {
					t.Fatalf("§8: want a joker chain of 1")
				}
			},
		},
		{
			name:  "§7 §8 a drawn 10 bounces to prev(X)",
			pos:   pos{hands: []string{"2C 5H", "2D", "3D", "4D"}, stock: "10H " + stock, pile: "9H", turn: 1},
			steps: []string{"1 draw", "1 play 10H"},
			check: func(t *testing.T, s *State) { wantTurn(t, s, 0, PhaseNormal) },
		},
		{
			name:  "§7 §8 a drawn 8 skips next(X)",
			pos:   pos{hands: []string{"2C 5H", "2D", "3D", "4D"}, stock: "8H " + stock, pile: "9H"},
			steps: []string{"0 draw", "0 play 8H"},
			check: func(t *testing.T, s *State) { wantTurn(t, s, 2, PhaseNormal) },
		},
		{
			name:  "§7 §5 a drawn jack names a suit (any of four), no other card",
			pos:   pos{hands: []string{"2C 5H", "2D", "3D 4S", "4D"}, stock: "JD " + stock, pile: "9H"},
			steps: []string{"0 draw"},
			check: func(t *testing.T, s *State) {
				wantLegal(t, s, join([]string{"pass"}, jack("JD")), "§7 drew JD")
				refuse(t, s, 0, "play 5H", game.ErrIllegal)
				refuse(t, s, 0, "play JD", game.ErrIllegal)
				run(t, s, "0 play JD S")
				wantTurn(t, s, 1, PhaseNormal)
				if s.suit != game.Spades || s.rank != game.Jack {
					t.Fatalf("§5: active %v %d", s.suit, s.rank)
				}
			},
		},
		{
			name:  "§7 the drawn card is a second copy of a held card: play either copy",
			pos:   pos{hands: []string{"9S 3C", "2D", "3D", "4D"}, stock: "9S " + stock, pile: "6S"},
			steps: []string{"0 draw"},
			check: func(t *testing.T, s *State) {
				wantLegal(t, s, []string{"play 9S", "pass"}, "§7 drew a second 9S")
				run(t, s, "0 play 9S")
				wantHand(t, s, 0, "9S 3C")
				wantTurn(t, s, 1, PhaseNormal)
			},
		},
		{
			name:  "§7 after_draw: no end, no penalty, no second draw",
			pos:   pos{hands: []string{"6D 3C", "2D", "3D", "4D"}, stock: "2H " + stock, pile: "6S"},
			steps: []string{"0 draw"},
			check: func(t *testing.T, s *State) {
				refuse(t, s, 0, "end", game.ErrIllegal)
				refuse(t, s, 0, "penalty", game.ErrIllegal)
				refuse(t, s, 0, "draw", game.ErrIllegal)
				refuse(t, s, 0, "play 6D", game.ErrIllegal)
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, c.test)
	}
}

// pisyedili.md §13 play_any_after_draw and draw_until_playable combined
// (§7): the draw goes on until a playable card arrives, then any playable
// card of the hand may be played.
func TestSpecCheck_AfterDrawOptionsCombined(t *testing.T) {
	s := build(t, pos{opts: game.Options{"play_any_after_draw": "true", "draw_until_playable": "true"},
		hands: []string{"6D 3C JH", "2D", "3D", "4D"}, stock: "2H 3D 9S 4S", pile: "6S"})
	run(t, s, "0 draw")
	wantTurn(t, s, 0, PhaseAfterDraw)
	wantHand(t, s, 0, "9S 2H JH 3D 6D 3C")
	// Playable on 6S: 9S (drawn), 6D, any jack; 2H, 3D, 3C are not.
	wantLegal(t, s, join([]string{"play 9S", "play 6D", "pass"}, jack("JH")), "§13 both options")
	run(t, s, "0 play 6D")
	wantTurn(t, s, 1, PhaseNormal)
}

// pisyedili.md §8: with penalty_ends_turn=false the penalised player plays
// on the 7 on top without a chain, so a 7 starts a new chain of 1 (§8 "a 7
// played now starts a new chain with k = 1").
func TestSpecCheck_PenaltyPlaysOnNewChain(t *testing.T) {
	for _, mode := range []string{"linear", "doubling"} {
		s := build(t, pos{opts: game.Options{"penalty_ends_turn": "false", "seven_stack": mode},
			hands: []string{"7S 2C", "2D", "3D", "4D"}, stock: "2S 3S 4S 5S 6S 8S 9S 10S QS KS",
			pile: "7H 7D", chain: ChainSeven, k: 2})
		run(t, s, "0 penalty")
		wantTurn(t, s, 0, PhaseNormal)
		if s.hn[0] != 8 {
			t.Fatalf("§8: A drew %d, want 6", s.hn[0]-2)
		}
		run(t, s, "0 play 7S")
		wantTurn(t, s, 1, PhaseNormal)
		if s.chain != ChainSeven || s.chainK != 1 || s.chainCards() != 3 {
			t.Fatalf("§8 %s: a new chain of 1 (3 cards), got k %d (%d)", mode, s.chainK, s.chainCards())
		}
	}
}

// pisyedili.md §8: after a joker chain's penalty the next joker starts a new
// chain of 1 (10 cards), and the jokers are 10 per joker whatever
// seven_stack says (§13).
func TestSpecCheck_JokerChains(t *testing.T) {
	stock := "2S 3S 4S 5S 6S 8S 9S 10S QS KS 2H 3H 4H 5H 6H 8H 9H 10H QH KH 2D 3D 4D 5D 6D 8D 9D 10D QD KD"
	s := build(t, pos{hands: []string{"JK 2C", "2D", "JK 3C", "4D 4C"}, stock: stock, pile: "5C"})
	run(t, s, "0 play JK", "1 penalty", "2 play JK")
	wantTurn(t, s, 3, PhaseNormal)
	if s.chain != ChainJoker || s.chainK != 1 || s.chainCards() != 10 {
		t.Fatalf("§8: a joker after a resolved joker chain starts a chain of 1, got k %d", s.chainK)
	}
	wantLegal(t, s, []string{"penalty"}, "§8 D")
	run(t, s, "3 penalty")
	if s.hn[3] != 12 {
		t.Fatalf("§8: D drew %d, want 10", s.hn[3]-2)
	}
	// Transparent (§5): A follows 5C under both jokers.
	wantTurn(t, s, 0, PhaseNormal)
	if s.suit != game.Clubs || s.rank != 5 {
		t.Fatalf("§5: active %v %d, want C 5", s.suit, s.rank)
	}

	d := build(t, pos{opts: game.Options{"seven_stack": "doubling"}, hands: []string{"JK 2C", "JK 3C", "3D", "4D"}, stock: stock, pile: "5C"})
	run(t, d, "0 play JK", "1 play JK")
	if d.chainCards() != 20 {
		t.Fatalf("§8: jokers draw 10 × k with seven_stack=doubling too, got %d", d.chainCards())
	}
}

// pisyedili.md §10: a reshuffle keeps the top card and activeSuit,
// activeRank and pending unchanged — even when the card under a transparent
// joker (§5) goes into the new stock, the next player still follows it.
func TestSpecCheck_ReshuffleUnderJoker(t *testing.T) {
	s := build(t, pos{hands: []string{"JK 2C", "2D", "5S 3H 4D", "2C"}, pile: "3S 4S 6S"})
	run(t, s, "0 play JK", "1 penalty")
	if s.chance != ChanceShuffle {
		t.Fatalf("§10: want a reshuffle")
	}
	run(t, s, "! shuffle 6S 4S 3S")
	// B draws the three cards, the other seven are cancelled (§10).
	wantHand(t, s, 1, "3S 4S 6S 2D")
	wantTurn(t, s, 2, PhaseNormal)
	if s.pileN != 1 || s.pile[0] != game.Joker || s.chain != ChainNone {
		t.Fatalf("§10: the joker stays on top, the chain is resolved")
	}
	// Nothing left to draw: C must play a card matching 6S (spades, sixes),
	// a jack or a joker.
	wantLegal(t, s, []string{"play 5S"}, "§5 §10 C follows 6S under the joker")
}

// pisyedili.md §10 with joker_follow=any: the reshuffle keeps "any card may
// follow" for the player after the penalty.
func TestSpecCheck_ReshuffleJokerFollowAny(t *testing.T) {
	s := build(t, pos{opts: game.Options{"joker_follow": "any"}, hands: []string{"JK 2C", "2D", "5H 3H", "2C"}, pile: "3S 4S 6S"})
	run(t, s, "0 play JK", "1 penalty", "! shuffle 6S 4S 3S")
	wantTurn(t, s, 2, PhaseNormal)
	wantLegal(t, s, []string{"play 5H", "play 3H"}, "§5 joker_follow=any")
}

// pisyedili.md §9 item 2 and §6: forced passes in the opening round count
// towards a blocked hand (N consecutive forced passes, nothing drawable);
// the hand ends with no finisher, multiplier 1.
func TestSpecCheck_BlockedInOpening(t *testing.T) {
	cases := []struct {
		name string
		pos  pos
		want []int
	}{
		{
			name: "all four openers pass: nothing played at all",
			pos:  pos{opts: game.Options{"hands": "1"}, ph: PhaseOpening, open: 4, hands: []string{"9H", "2D", "3S", "4H QD"}},
			want: []int{9, 2, 3, 14},
		},
		{
			name: "two opening passes, then two normal forced passes",
			pos:  pos{opts: game.Options{"hands": "1"}, ph: PhaseOpening, open: 2, turn: 2, hands: []string{"9H", "2D", "3S", "4H QD"}, pile: "4C"},
			want: []int{9, 2, 3, 14},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := build(t, c.pos)
			for i := 0; i < 4; i++ {
				if s.Over() {
					t.Fatalf("§9: the hand ended after %d passes", i)
				}
				wantLegal(t, s, []string{"pass"}, "§6 §7 forced pass")
				do(t, s, s.turn, "pass")
			}
			if !s.Over() {
				t.Fatalf("§9 item 2: four forced passes block the hand")
			}
			r := scResult(t, s)
			if r.Finisher != -1 || r.Multiplier != 1 || r.Card != game.NoCard {
				t.Fatalf("§9: blocked: finisher %d ×%d card %v", r.Finisher, r.Multiplier, r.Card)
			}
			scPoints(t, s, c.want...)
		})
	}
}

// pisyedili.md §9 item 2: the forced-pass count needs N consecutive
// forced passes: with 3 players, 3 are enough; a `penalty` in between
// (even one that draws nothing, §10) resets it.
func TestSpecCheck_BlockedCount(t *testing.T) {
	s := build(t, pos{opts: game.Options{"players": "3", "hands": "1"}, hands: []string{"9H", "2D", "3S"}, pile: "4C"})
	run(t, s, "0 pass", "1 pass")
	if s.Over() {
		t.Fatalf("§9: two passes of three do not block")
	}
	run(t, s, "2 pass")
	if !s.Over() {
		t.Fatalf("§9: three forced passes block a 3-player hand")
	}
	scPoints(t, s, 9, 2, 3)

	// A seven chain on a stock and pile with nothing to draw: the penalty
	// draws nothing but resets the count.
	s = build(t, pos{hands: []string{"9H", "2D", "3S", "4D"}, pile: "7C", chain: ChainSeven, k: 1, turn: 3})
	s.dead = 3
	run(t, s, "3 penalty")
	if s.dead != 0 || s.hn[3] != 1 {
		t.Fatalf("§9 §10: a cancelled penalty resets the forced-pass count (dead %d)", s.dead)
	}
	wantTurn(t, s, 0, PhaseNormal)
	run(t, s, "0 pass", "1 pass", "2 pass")
	if s.ph == PhaseDeal || s.Over() {
		t.Fatalf("§9: three passes after the penalty do not block 4 players")
	}
}

// pisyedili.md §6 with 2 and 7 players: the opening round is N turns, then
// next(last opener) = the first opener moves in the normal phase.
func TestSpecCheck_OpeningLength(t *testing.T) {
	for _, n := range []int{2, 7} {
		hands := make([]string, n)
		for p := range hands {
			hands[p] = []string{"2C", "3C", "4C", "5C", "6C", "9C", "QC"}[p] + " 9D 5S"
		}
		s := build(t, pos{opts: game.Options{"players": itoa(n)}, ph: PhaseOpening, open: n, hands: hands, stock: "2H 3H"})
		for p := 0; p < n; p++ {
			wantTurn(t, s, p, PhaseOpening)
			do(t, s, p, "play "+strings.Fields(hands[p])[0])
		}
		wantTurn(t, s, 0, PhaseNormal)
	}
}

// pisyedili.md §8 ace continuation: a 10 after a second ace bounces to
// prev(X); an 8 after an ace in a two-player game gives X another (normal)
// turn; a 7 after an ace in a 3-player game is next(X)'s chain.
func TestSpecCheck_AceContinuationEndings(t *testing.T) {
	stock := "2S 3S 4S 5S 6S 8S 9S 10S QS KS"
	cases := []auditCase{
		{
			name:  "§8 A, A, then 10: prev(X)",
			pos:   pos{hands: []string{"AH AS 10S 2C", "2D", "3D", "4D"}, stock: stock, pile: "9H"},
			steps: []string{"0 play AH", "0 play AS", "0 play 10S"},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 3, PhaseNormal)
				if s.hn[1] != 3 || s.hn[2] != 3 || s.hn[3] != 3 {
					t.Fatalf("§8: two aces, two draws each: %v", s.hn[:4])
				}
			},
		},
		{
			name:  "§8 two players: A then 8: X moves again in a normal turn",
			pos:   pos{opts: game.Options{"players": "2"}, hands: []string{"AH 8H 2C 5C", "2D"}, stock: stock, pile: "9H"},
			steps: []string{"0 play AH", "0 play 8H"},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 0, PhaseNormal)
				wantLegal(t, s, []string{"draw"}, "§7 X on 8H, no heart or 8")
			},
		},
		{
			name:  "§8 three players: A then 7: next(X) faces a chain of 1",
			pos:   pos{opts: game.Options{"players": "3"}, hands: []string{"AH 7H 2C", "2D", "3D"}, stock: stock, pile: "9H"},
			steps: []string{"0 play AH", "0 play 7H"},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 1, PhaseNormal)
				if s.chain != ChainSeven || s.chainK != 1 {
					t.Fatalf("§8: chain %d k %d", s.chain, s.chainK)
				}
			},
		},
		{
			name:  "§8 seven players: an ace makes six players draw, clockwise",
			pos:   pos{opts: game.Options{"players": "7"}, hands: []string{"2C", "3C", "AH 5H", "4C", "5C", "6C", "9C"}, stock: stock, pile: "9H", turn: 2},
			steps: []string{"2 play AH"},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 2, PhaseAceContinue)
				// From next(C) = seat 3 round to seat 1.
				for p, w := range []string{"6S 2C", "8S 3C", "5H", "2S 4C", "3S 5C", "4S 6C", "5S 9C"} {
					wantHand(t, s, p, w)
				}
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, c.test)
	}
}

// pisyedili.md §5: the jack names any of the four suits, its own included;
// jack_wild=false makes a jack match by suit or rank only; with
// jack_on_jack=false as well, no jack follows a jack.
func TestSpecCheck_Jacks(t *testing.T) {
	stock := "2S 3S 4S"
	cases := []auditCase{
		{
			name:  "§5 a jack naming its own suit",
			pos:   pos{hands: []string{"JD 2C", "4D 5S 4H JS", "2D", "2C"}, stock: stock, pile: "5H"},
			steps: []string{"0 play JD D"},
			check: func(t *testing.T, s *State) {
				wantLegal(t, s, join([]string{"play 4D", "draw"}, jack("JS")), "§5 on JD naming diamonds")
			},
		},
		{
			name: "§13 jack_wild=false: a jack of another suit and rank is not playable",
			pos:  pos{opts: game.Options{"jack_wild": "false"}, hands: []string{"JD JS 5S 9C", "2D", "3D", "2C"}, stock: stock, pile: "5D"},
			check: func(t *testing.T, s *State) {
				wantLegal(t, s, join([]string{"play 5S", "draw"}, jack("JD")), "§13 jack_wild=false on 5D")
				refuse(t, s, 0, "play JS D", game.ErrIllegal)
			},
		},
		{
			name:  "§13 jack_wild=false and jack_on_jack=false: no jack on a jack, the named suit plays",
			pos:   pos{opts: game.Options{"jack_wild": "false", "jack_on_jack": "false"}, hands: []string{"JD 2C", "JH 4H 5D JC", "2D", "2C"}, stock: stock, pile: "5D"},
			steps: []string{"0 play JD H"},
			check: func(t *testing.T, s *State) {
				wantLegal(t, s, []string{"play 4H", "draw"}, "§13 both jack options off")
			},
		},
		{
			name:  "§13 jack_on_jack=false: a jack is wild again once a non-jack is on top",
			pos:   pos{opts: game.Options{"jack_on_jack": "false"}, hands: []string{"JD 2C", "4H 9S", "JS 2D", "2C"}, stock: stock, pile: "5D"},
			steps: []string{"0 play JD H", "1 play 4H"},
			check: func(t *testing.T, s *State) {
				wantLegal(t, s, join([]string{"draw"}, jack("JS")), "§5 a jack on 4H")
			},
		},
		{
			name: "§5 a joker may be played on a jack (and names nothing)",
			pos:  pos{hands: []string{"JK 2C", "2D", "3D", "2C"}, stock: stock, pile: "5D JS", suit: "H"},
			check: func(t *testing.T, s *State) {
				wantLegal(t, s, []string{"play JK", "draw"}, "§5 a joker on JS naming hearts")
				refuse(t, s, 0, "play JK H", game.ErrMalformed)
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, c.test)
	}
}

// pisyedili.md §9.1: both copies of a 7 and of an ace in hand trigger, each
// once: 3 + 3 + 1 + 1 = 8 cards; a drawn joker does not trigger.
func TestSpecCheck_EndOfHandBothCopies(t *testing.T) {
	s := build(t, pos{hands: []string{"7H 7H AH AH", "9S", "2D", "3D"}, turn: 1,
		stock: "2S 3S 4S JK 5S 6S 8S 9S 10S QS KS", pile: "5S"})
	run(t, s, "1 play 9S")
	r := scResult(t, s)
	if joinS(r.EndDraws[0]) != "2S 3S 4S 5S 6S 8S 9S JK" {
		t.Fatalf("§9.1: A drew %v, want 8 cards", r.EndDraws[0])
	}
	want := 2*7 + 2*11 + 2 + 3 + 4 + 5 + 6 + 8 + 9 + 100
	scPoints(t, s, want, 0, 2, 3)
}

// pisyedili.md §13 finishing_card_effects=true (§9 item 1): the finishing
// 7's chain is drawn by next(X) first, and the 7s among those cards then
// trigger in the end-of-hand draws (§9.1); a finishing 8, 10 or jack has no
// draw effect, only its multiplier.
func TestSpecCheck_FinishingEffects(t *testing.T) {
	o := game.Options{"finishing_card_effects": "true"}
	s := build(t, pos{opts: o, hands: []string{"2C", "7S", "3D", "4D"}, turn: 1,
		stock: "7H 2S 3S 4S 5S 6S 8S", pile: "5S"})
	run(t, s, "1 play 7S")
	r := scResult(t, s)
	// C draws the chain 7H 2S 3S, then its 7H triggers 3: 4S 5S 6S.
	if joinS(r.Hands[2]) != "2S 3S 4S 5S 6S 7H 3D" || joinS(r.EndDraws[2]) != "4S 5S 6S" || r.Multiplier != 3 {
		t.Fatalf("§13 §9.1: C holds %v (end draws %v) ×%d", r.Hands[2], r.EndDraws[2], r.Multiplier)
	}
	for _, tc := range []struct {
		card string
		mult int
	}{{"8S", 1}, {"10S", 1}, {"JS H", 2}, {"9S", 1}} {
		s := build(t, pos{opts: o, hands: []string{"2C", tc.card[:strings.IndexByte(tc.card+" ", ' ')], "3D", "4D"}, turn: 1,
			stock: "2S 3S 4S", pile: "5S"})
		run(t, s, "1 play "+tc.card)
		r := scResult(t, s)
		if r.Multiplier != tc.mult || r.Hands[0].Len() != 1 || r.Hands[2].Len() != 1 || r.Hands[3].Len() != 1 {
			t.Fatalf("§13: finishing with %s: ×%d hands %v", tc.card, r.Multiplier, r.Hands)
		}
	}
}

// pisyedili.md §1, §3: a random deal gives 7 cards to each player from 106
// (104 without jokers) cards, the rest is the stock, no up-card; next(dealer)
// opens the clubs round (§6).
func TestSpecCheck_RandomDeal(t *testing.T) {
	for _, tc := range []struct {
		o     game.Options
		total int
	}{
		{game.Options{}, 106},
		{game.Options{"jokers": "false", "players": "7"}, 104},
		{game.Options{"players": "2"}, 106},
	} {
		s := must(t, tc.o).(*State)
		if err := s.ApplyChance("dealer " + itoa(s.n-1)); err != nil {
			t.Fatal(err)
		}
		r := game.NewRand(7)
		s.RollChance(&r)
		jokers := 0
		for p := 0; p < s.n; p++ {
			if s.hn[p] != 7 {
				t.Fatalf("§3: seat %d holds %d", p, s.hn[p])
			}
			jokers += msCount(s.h1[p], s.h2[p], jokerBit)
		}
		for _, c := range s.stock[:s.stockN] {
			if c == game.Joker {
				jokers++
			}
		}
		if s.stockN != tc.total-7*s.n || s.pileN != 0 {
			t.Fatalf("§3 %v: stock %d pile %d", tc.o, s.stockN, s.pileN)
		}
		if want := map[bool]int{true: 2, false: 0}[tc.total == 106]; jokers != want {
			t.Fatalf("§1 %v: %d jokers dealt", tc.o, jokers)
		}
		wantTurn(t, s, 0, PhaseOpening)
		if s.openLeft != s.n || s.dealer != s.n-1 {
			t.Fatalf("§6: opening turns %d", s.openLeft)
		}
	}
}

// pisyedili.md §3 and §6 with a deal given as a chance outcome: the stock
// line is top first, so an opening draw takes its first card; there is no
// up-card.
func TestSpecCheck_DealStockTop(t *testing.T) {
	s := must(t, nil).(*State)
	if err := s.ApplyChance("dealer 2"); err != nil {
		t.Fatal(err)
	}
	run(t, s, "! "+fullDeal(t, s, []string{
		"2C 3C 4C 5C 6C 9C QC", "KC 2H 3H 4H 5H 6H 8H", "2D 3D 4D 5D 6D 8D 9D", "2S 3S 4S 5S 6S 8S 9S",
	}, "AC KC"))
	if v := s.View(game.Spectator).(*View); v.Top != game.NoCard || len(v.Pile) != 0 {
		t.Fatalf("§3: no up-card")
	}
	wantTurn(t, s, 3, PhaseOpening)
	wantLegal(t, s, []string{"draw"}, "§6 D holds no club")
	run(t, s, "3 draw")
	wantLegal(t, s, []string{"play AC", "draw"}, "§6 D drew AC first")
	run(t, s, "3 draw")
	wantLegal(t, s, []string{"play AC", "play KC"}, "§6 D drew KC next")
}

// pisyedili.md §12 and §13: the `hands` option is "integer ≥ 1"; the spec
// sets no upper bound, so a game of 101 hands must be accepted (the bound
// was 100). The engine still range-checks a client's number, far above any
// real game.
func TestSpecCheck_HandsBound(t *testing.T) {
	if _, err := (Engine{}).New(game.Options{"hands": strconv.Itoa(maxHands + 1)}); err == nil {
		t.Errorf("hands=%d accepted past the engine's bound", maxHands+1)
	}
	for _, h := range []string{"101", "200", strconv.Itoa(maxHands)} {
		st, err := Engine{}.New(game.Options{"hands": h})
		if err != nil {
			t.Fatalf("§13 hands=%s (integer ≥ 1) refused: %v", h, err)
		}
		if got := st.Options()["hands"]; got != h {
			t.Fatalf("§13 hands=%s: normalized to %s", h, got)
		}
	}
}

// pisyedili.md §9 item 1: a joker finishing on a joker chain ends the hand
// at once: next(X) does not draw 20, the multiplier is 10 (§11).
func TestSpecCheck_FinishingJokerOnChain(t *testing.T) {
	s := build(t, pos{hands: []string{"2C", "JK", "3D", "4D"}, turn: 1,
		stock: "2S 3S 4S 5S 6S 8S 9S 10S QS KS 2H 3H 4H 5H 6H 8H 9H 10H QH KH", pile: "5S JK", chain: ChainJoker, k: 1})
	run(t, s, "1 play JK")
	r := scResult(t, s)
	if r.Multiplier != 10 || r.Hands[2].Len() != 1 || r.Finisher != 1 {
		t.Fatalf("§9: C must not draw: hands %v ×%d", r.Hands, r.Multiplier)
	}
	scPoints(t, s, 20, 0, 30, 40)
}

// pisyedili.md §8 ace continuation ("any c playable on the ace by §5"): with
// jack_wild=false only a jack of the ace's suit (or another ace, a joker)
// follows; with ten_mode=reverse a 10 there reverses the direction.
func TestSpecCheck_AceContinuationOptions(t *testing.T) {
	stock := "2S 3S 4S 5S 6S 8S 9S 10S QS KS"
	s := build(t, pos{opts: game.Options{"jack_wild": "false"}, hands: []string{"AH JH JS 5D 2C", "2D", "3D", "4D"}, stock: stock, pile: "9H"})
	run(t, s, "0 play AH")
	wantLegal(t, s, join([]string{"end"}, jack("JH")), "§8 §13 jack_wild=false on AH")

	s = build(t, pos{opts: game.Options{"ten_mode": "reverse"}, hands: []string{"AH 10H 2C", "2D", "3D", "4D"}, stock: stock, pile: "9H"})
	run(t, s, "0 play AH", "0 play 10H")
	wantTurn(t, s, 3, PhaseNormal)
	if s.dir != -1 || s.why != ReasonReverse {
		t.Fatalf("§13 ten_mode=reverse: direction %d reason %s", s.dir, reasonNames[s.why])
	}
}

// pisyedili.md §7: outside a chain, with a card to draw, there is no pass
// without drawing, whether or not the player holds a playable card; the
// legal moves print in canonical notation (notation.md: 10 as "10").
func TestSpecCheck_NoPassWithoutDraw(t *testing.T) {
	for _, hand := range []string{"10H 2C", "2C 3C"} {
		s := build(t, pos{hands: []string{hand, "2D", "3D", "4D"}, stock: "2S", pile: "9H"})
		refuse(t, s, 0, "pass", game.ErrIllegal)
		refuse(t, s, 0, "end", game.ErrIllegal)
		refuse(t, s, 0, "penalty", game.ErrIllegal)
		want := []string{"draw"}
		if hand == "10H 2C" {
			want = append(want, "play 10H")
		}
		wantLegal(t, s, want, "§7 "+hand)
	}
}

// pisyedili.md §6 with the options of §13: in the opening round every club
// may be played, a jack on a jack too (jack_on_jack=false restricts §5
// matching only), and draw_until_playable does not apply: an opening draw
// takes one card and the player acts again.
func TestSpecCheck_OpeningIgnoresOptions(t *testing.T) {
	s := build(t, pos{opts: game.Options{"jack_on_jack": "false", "jack_wild": "false"}, ph: PhaseOpening, open: 3, turn: 1,
		hands: []string{"2C", "JC 9H", "3C", "4C"}, stock: "2H 3H", pile: "JC"})
	wantLegal(t, s, []string{"play JC", "draw"}, "§6 JC on JC")

	s = build(t, pos{opts: game.Options{"draw_until_playable": "true"}, ph: PhaseOpening, open: 4,
		hands: []string{"9H", "2C", "3C", "4C"}, stock: "2H 3H 5C"})
	run(t, s, "0 draw")
	wantTurn(t, s, 0, PhaseOpening)
	wantHand(t, s, 0, "2H 9H")
	wantLegal(t, s, []string{"draw"}, "§6 one card per opening draw")
}
