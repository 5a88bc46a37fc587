package pisyedili

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"cardroom/game"
)

// Audit tests: every rule of pisyedili.md not already pinned elsewhere, one
// table case each, citing its section. Seats A, B, C, D are 0, 1, 2, 3.

// run plays steps on s: "<seat> <move>" for a move, "! <outcome>" for a
// chance outcome.
func run(t *testing.T, s *State, steps ...string) {
	t.Helper()
	for _, st := range steps {
		head, rest, _ := strings.Cut(st, " ")
		if head == "!" {
			if err := s.ApplyChance(rest); err != nil {
				t.Fatalf("chance %q: %v", rest, err)
			}
			continue
		}
		seat, err := strconv.Atoi(head)
		if err != nil {
			t.Fatalf("bad step %q", st)
		}
		do(t, s, seat, rest)
	}
}

type auditCase struct {
	name  string // cites the spec section
	pos   pos
	steps []string
	check func(t *testing.T, s *State)
}

func (c auditCase) test(t *testing.T) {
	s := build(t, c.pos)
	run(t, s, c.steps...)
	c.check(t, s)
}

func wantTurn(t *testing.T, s *State, turn int, ph Phase) {
	t.Helper()
	if s.ChancePending() || s.turn != turn || s.ph != ph {
		t.Fatalf("want seat %d to move in %s, got seat %d in %s (chance %q)", turn, phaseNames[ph], s.turn, phaseNames[s.ph], chanceNames[s.chance])
	}
}

func wantHand(t *testing.T, s *State, p int, want string) {
	t.Helper()
	if got := handOf(s, p); got != want {
		t.Fatalf("seat %d holds %q, want %q", p, got, want)
	}
}

func TestAuditOpening(t *testing.T) {
	opening := func(open, turn int, hands []string, stock, pile string) pos {
		return pos{ph: PhaseOpening, open: open, turn: turn, hands: hands, stock: stock, pile: pile}
	}
	cases := []auditCase{
		{
			name: "§6 only special clubs and nothing to draw: the club must be played, no pass",
			pos:  opening(4, 0, []string{"7C 9H", "2C", "3C", "4C"}, "", ""),
			check: func(t *testing.T, s *State) {
				wantLegal(t, s, []string{"play 7C"}, "§6")
				refuse(t, s, 0, "pass", game.ErrIllegal)
				refuse(t, s, 0, "draw", game.ErrIllegal)
			},
		},
		{
			name:  "§6 §10 an opening draw from an empty stock reshuffles the clubs under the top",
			pos:   opening(2, 2, []string{"2H", "3H", "9H", "4C"}, "", "2C 3C"),
			steps: []string{"2 draw"},
			check: func(t *testing.T, s *State) {
				if s.chance != ChanceShuffle {
					t.Fatalf("§10: want a reshuffle pending")
				}
				run(t, s, "! shuffle 2C")
				wantTurn(t, s, 2, PhaseOpening)
				wantLegal(t, s, []string{"play 2C"}, "§6 a plain club arrived")
				if s.pileN != 1 || s.suit != game.Clubs || s.rank != 3 {
					t.Fatalf("§10: the top 3C stays")
				}
			},
		},
		{
			name:  "§6 a forced pass as the last opening turn: normal play on the last club, first opener moves",
			pos:   opening(1, 3, []string{"4H 5C 9D", "2H", "3H", "9H"}, "", "4C"),
			steps: []string{"3 pass"},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 0, PhaseNormal)
				if s.dead != 1 || s.suit != game.Clubs || s.rank != 4 {
					t.Fatalf("§6/§9: dead %d, active %v %d", s.dead, s.suit, s.rank)
				}
				// Nothing drawable: A must play (§7).
				wantLegal(t, s, []string{"play 4H", "play 5C"}, "§7 nothing drawable")
			},
		},
		{
			name:  "§6 opening draws do not count as forced passes and the drawer acts again",
			pos:   opening(4, 0, []string{"9H", "2C", "3C", "4C"}, "5H 6C", ""),
			steps: []string{"0 draw", "0 draw"},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 0, PhaseOpening)
				if s.why != ReasonOpeningDraw || s.dead != 0 {
					t.Fatalf("§6: why %s dead %d", reasonNames[s.why], s.dead)
				}
				wantLegal(t, s, []string{"play 6C"}, "§6 plain club drawn")
			},
		},
	}
	// §6: the last opening club is a special club: no effect, normal play
	// starts with A on clubs and that rank.
	for _, tc := range []struct {
		card string
		want []string
	}{
		{"AC", []string{"play 2C", "play AH", "draw"}},
		{"7C", []string{"play 2C", "play 7H", "draw"}},
		{"8C", []string{"play 2C", "play 8H", "draw"}},
		{"10C", []string{"play 2C", "play 10H", "draw"}},
		{"JC", join([]string{"play 2C", "draw"}, jack("JH"))},
	} {
		rank := strings.TrimSuffix(tc.card, "C")
		cases = append(cases, auditCase{
			name:  "§6 last opening card " + tc.card + " has no effect; normal play follows clubs or its rank",
			pos:   opening(1, 3, []string{"2C 9D " + rank + "H", "2S", "3S", tc.card + " 5S"}, "2D 3D 4D 5D", "4C"),
			steps: []string{"3 play " + tc.card},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 0, PhaseNormal)
				if s.chain != ChainNone || s.hn[1] != 1 || s.hn[2] != 1 || s.why != ReasonNext {
					t.Fatalf("§6: %s must have no effect (chain %d, B %d, C %d, why %s)", tc.card, s.chain, s.hn[1], s.hn[2], reasonNames[s.why])
				}
				wantLegal(t, s, tc.want, "§6 → §5")
			},
		})
	}
	for _, c := range cases {
		t.Run(c.name, c.test)
	}
}

func TestAuditSpecials(t *testing.T) {
	stock := "2S 3S 4S 5S 6S 8S 9S 10S QS KS"
	cases := []auditCase{
		{
			name:  "§8 ace continuation with a jack: the jack nominates and ends the turn",
			pos:   pos{hands: []string{"AH JD 2C", "2D", "3D", "4D"}, stock: stock, pile: "9H"},
			steps: []string{"0 play AH", "0 play JD S"},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 1, PhaseNormal)
				if s.suit != game.Spades || s.rank != game.Jack {
					t.Fatalf("§5: active %v %d", s.suit, s.rank)
				}
				wantLegal(t, s, []string{"play 2S", "draw"}, "§5 B on JD naming spades")
			},
		},
		{
			name:  "§8 ace continuation with a joker: next(X) faces a joker chain, then follows the ace",
			pos:   pos{hands: []string{"AH JK 2C", "2D", "3H 3D", "4D"}, stock: stock + " 2H 3H 4H 5H 6H 7H 8H 9H 10H QH KH 2C 3C 4C", pile: "9H"},
			steps: []string{"0 play AH", "0 play JK"},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 1, PhaseNormal)
				if s.chain != ChainJoker || s.chainK != 1 {
					t.Fatalf("§8: want a joker chain of 1")
				}
				run(t, s, "1 penalty")
				wantTurn(t, s, 2, PhaseNormal)
				// Transparent: hearts or aces (C holds 3H 3D plus the ace draw 3S).
				wantLegal(t, s, []string{"play 3H", "draw"}, "§5 transparent joker over AH")
			},
		},
		{
			name:  "§8 ace continuation with a 10 bounces to prev(X)",
			pos:   pos{hands: []string{"2D", "AH 10H 2C", "3D", "4D"}, stock: stock, pile: "9H", turn: 1},
			steps: []string{"1 play AH"},
			check: func(t *testing.T, s *State) {
				run(t, s, "1 play 10H")
				wantTurn(t, s, 0, PhaseNormal)
			},
		},
		{
			name:  "§8 ace continuation with an 8 skips next(X)",
			pos:   pos{hands: []string{"AH 8H 2C", "2D", "3D", "4D"}, stock: stock, pile: "9H"},
			steps: []string{"0 play AH", "0 play 8H"},
			check: func(t *testing.T, s *State) { wantTurn(t, s, 2, PhaseNormal) },
		},
		{
			name:  "§8 a second ace changes the suit to follow in the continuation",
			pos:   pos{hands: []string{"AH AS 5S 5H 2C", "2D", "3D", "4D"}, stock: stock, pile: "9H"},
			steps: []string{"0 play AH", "0 play AS"},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 0, PhaseAceContinue)
				wantLegal(t, s, []string{"play 5S", "end"}, "§8 on AS")
			},
		},
		{
			name:  "§8 §10 ace draws: the pile under the top is reshuffled, then the rest are cancelled; X plays on",
			pos:   pos{hands: []string{"AH 5H", "2D", "3D", "4D"}, pile: "9H"},
			steps: []string{"0 play AH", "! shuffle 9H"},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 0, PhaseAceContinue)
				wantHand(t, s, 1, "9H 2D")
				wantHand(t, s, 2, "3D")
				wantHand(t, s, 3, "4D")
				wantLegal(t, s, []string{"play 5H", "end"}, "§8 after cancelled ace draws")
			},
		},
		{
			name:  "§8 `end` resets the forced-pass count and passes to next(X) (§9)",
			pos:   pos{hands: []string{"AH 5D", "2D", "3D", "4D"}, pile: "9H"},
			steps: []string{"0 play AH", "! shuffle 9H", "0 end"},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 1, PhaseNormal)
				if s.dead != 0 {
					t.Fatalf("§9: end resets the count")
				}
			},
		},
		{
			name:  "§8 a 10 with two players: prev(X) = next(X), the opponent moves",
			pos:   pos{opts: game.Options{"players": "2"}, hands: []string{"10H 2C", "2D"}, stock: stock, pile: "9H"},
			steps: []string{"0 play 10H"},
			check: func(t *testing.T, s *State) { wantTurn(t, s, 1, PhaseNormal) },
		},
		{
			name:  "§13 ten_mode=reverse with two players: the opponent moves, direction reversed",
			pos:   pos{opts: game.Options{"players": "2", "ten_mode": "reverse"}, hands: []string{"10H 2C", "2D 3D"}, stock: stock, pile: "9H"},
			steps: []string{"0 play 10H"},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 1, PhaseNormal)
				if s.dir != -1 {
					t.Fatalf("§13: the direction is reversed")
				}
			},
		},
		{
			name:  "§13 ten_mode=reverse: an 8 then skips counter-clockwise",
			pos:   pos{opts: game.Options{"ten_mode": "reverse"}, hands: []string{"10H 2C", "2D", "3D", "8H 4D"}, stock: stock, pile: "9H"},
			steps: []string{"0 play 10H", "3 play 8H"},
			check: func(t *testing.T, s *State) { wantTurn(t, s, 1, PhaseNormal) },
		},
		{
			name:  "§8 bounce never changes the direction: B's 10 → A, A's 10 → D, D plays → A",
			pos:   pos{hands: []string{"10S 2C 3C", "10H 2H", "3D", "4S 9D"}, stock: stock, pile: "9H", turn: 1},
			steps: []string{"1 play 10H", "0 play 10S", "3 play 4S"},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 0, PhaseNormal)
				if s.dir != 1 {
					t.Fatalf("§8: bounce keeps clockwise play")
				}
			},
		},
		{
			name:  "§8 a 10 answering a bounce, then plain play goes clockwise from the bounced player",
			pos:   pos{hands: []string{"5D 2C", "10D 2H", "3D", "4S 9D"}, stock: stock, pile: "9D", turn: 1},
			steps: []string{"1 play 10D", "0 play 5D"},
			check: func(t *testing.T, s *State) { wantTurn(t, s, 1, PhaseNormal) },
		},
		{
			name:  "§13 jack_on_jack=false: no jack at all on a jack, not even of the named suit",
			pos:   pos{opts: game.Options{"jack_on_jack": "false"}, hands: []string{"JS 2C", "JH 4H 5D", "2D", "2C"}, stock: stock, pile: "5D"},
			steps: []string{"0 play JS H"},
			check: func(t *testing.T, s *State) {
				wantLegal(t, s, []string{"play 4H", "draw"}, "§13 jack_on_jack=false")
				refuse(t, s, 1, "play JH S", game.ErrIllegal)
			},
		},
		{
			name:  "§13 jack_wild=false: a jack plays on its suit or on a jack (the rank), not on anything",
			pos:   pos{opts: game.Options{"jack_wild": "false"}, hands: []string{"JD 2C", "JC JH 4H", "2D", "2C"}, stock: stock, pile: "5D"},
			steps: []string{"0 play JD H"},
			check: func(t *testing.T, s *State) {
				wantLegal(t, s, join([]string{"play 4H", "draw"}, jack("JC"), jack("JH")), "§13 jack_wild=false on JD naming hearts")
			},
		},
		{
			name:  "§5 a joker over a jack keeps the named suit (transparent)",
			pos:   pos{hands: []string{"JS 2C", "JK 2H", "5S 9D 3H 2S", "2C"}, stock: stock + " 2H 3H 4H 5H 6H 7H 8H 9H 10H", pile: "5D"},
			steps: []string{"0 play JS D", "1 play JK", "2 penalty"},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 3, PhaseNormal)
				if s.suit != game.Diamonds || s.rank != game.Jack {
					t.Fatalf("§5: active %v %d, want D J", s.suit, s.rank)
				}
			},
		},
		{
			name:  "§8 doubling seven chain: 3, 6, 12, 24",
			pos:   pos{opts: game.Options{"seven_stack": "doubling"}, hands: []string{"7S 2C", "7H 2C", "7D 2C", "7C 2C"}, stock: stock, pile: "5S"},
			steps: []string{"0 play 7S", "1 play 7H", "2 play 7D", "3 play 7C"},
			check: func(t *testing.T, s *State) {
				if s.chainK != 4 || s.chainCards() != 24 {
					t.Fatalf("§8 doubling: k %d draws %d, want 24", s.chainK, s.chainCards())
				}
				if v := s.View(0).(*View); v.Chain == nil || v.Chain.Draw != 24 || v.Chain.Kind != ChainSeven {
					t.Fatalf("view chain %+v", v.Chain)
				}
			},
		},
		{
			name:  "§8 the chained 7s are linear by default: 4 sevens make 12",
			pos:   pos{hands: []string{"7S 2C", "7H 2C", "7D 2C", "7C 2C"}, stock: stock + " 2H 3H", pile: "5S"},
			steps: []string{"0 play 7S", "1 play 7H", "2 play 7D", "3 play 7C"},
			check: func(t *testing.T, s *State) {
				if s.chainCards() != 12 {
					t.Fatalf("§8 linear: %d, want 12", s.chainCards())
				}
				run(t, s, "0 penalty")
				wantTurn(t, s, 1, PhaseNormal)
				if s.hn[0] != 13 || s.stockN != 0 {
					t.Fatalf("§8: A drew %d, want 12", s.hn[0]-1)
				}
			},
		},
		{
			name:  "§10 a penalty reshuffles mid-draw and keeps drawing; the top 7 stays",
			pos:   pos{hands: []string{"7H 2C", "2D", "3D", "4D"}, stock: "2S", pile: "3S 4S 5S 6S 9H"},
			steps: []string{"0 play 7H", "1 penalty", "! shuffle 4S 5S 9H 6S 3S"},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 2, PhaseNormal)
				wantHand(t, s, 1, "2S 4S 5S 2D")
				if s.pileN != 1 || s.pile[0] != game.NewCard(game.Hearts, 7) || s.suit != game.Hearts || s.rank != 7 || s.stockN != 3 {
					t.Fatalf("§10: pile %d stock %d active %v %d", s.pileN, s.stockN, s.suit, s.rank)
				}
			},
		},
		{
			name:  "§10 a voluntary draw from an empty stock reshuffles; the jack's named suit stays",
			pos:   pos{hands: []string{"2C 3C", "2D", "3D", "4D"}, pile: "8H 9D JS", suit: "H"},
			steps: []string{"0 draw", "! shuffle 8H 9D"},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 0, PhaseAfterDraw)
				if s.suit != game.Hearts || s.rank != game.Jack {
					t.Fatalf("§10: the named suit stays")
				}
				wantLegal(t, s, []string{"play 8H", "pass"}, "§7 drew 8H")
			},
		},
		{
			name: "§10 nothing to draw: no draw; a playable card must be played; else a forced pass",
			pos:  pos{hands: []string{"2H 3C", "2D", "3D", "4D"}, pile: "9H"},
			check: func(t *testing.T, s *State) {
				wantLegal(t, s, []string{"play 2H"}, "§7 must play")
				refuse(t, s, 0, "pass", game.ErrIllegal)
				refuse(t, s, 0, "draw", game.ErrIllegal)
			},
		},
		{
			name:  "§13 draw_until_playable: nothing playable is drawn and the stock runs out: only pass",
			pos:   pos{opts: game.Options{"draw_until_playable": "true"}, hands: []string{"2C 3C", "2D", "3D", "4D"}, stock: "2D 3D", pile: "9H"},
			steps: []string{"0 draw"},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 0, PhaseAfterDraw)
				wantHand(t, s, 0, "2D 3D 2C 3C")
				wantLegal(t, s, []string{"pass"}, "§13 draw_until_playable")
				run(t, s, "0 pass")
				if s.dead != 0 || s.turn != 1 {
					t.Fatalf("§9: a pass after a voluntary draw is not a forced pass")
				}
			},
		},
		{
			name:  "§13 penalty_ends_turn=false: the penalised player may also draw, then play the drawn card",
			pos:   pos{opts: game.Options{"penalty_ends_turn": "false"}, hands: []string{"7H 2C", "2D", "3D", "4D"}, stock: "2S 3S 4S 9H", pile: "5H"},
			steps: []string{"0 play 7H", "1 penalty", "1 draw"},
			check: func(t *testing.T, s *State) {
				wantTurn(t, s, 1, PhaseAfterDraw)
				wantLegal(t, s, []string{"play 9H", "pass"}, "§13")
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, c.test)
	}
}

func lastResult(t *testing.T, s *State) HandResult {
	t.Helper()
	v := s.View(game.Spectator).(*View)
	if len(v.Finished) == 0 {
		t.Fatalf("no finished hand")
	}
	return v.Finished[len(v.Finished)-1]
}

func TestAuditEndOfHand(t *testing.T) {
	cases := []auditCase{
		{
			name: "§9.1 draws go clockwise from next(finisher), each seat empties its queue before the next",
			pos: pos{hands: []string{"7H AH 4S", "9S", "7D 2S", "AD 3S"}, turn: 1,
				stock: "2H 3H 4H 5H 6H 8H 9H 10H QH KH", pile: "5S"},
			steps: []string{"1 play 9S"},
			check: func(t *testing.T, s *State) {
				r := lastResult(t, s)
				want := []string{"6H 8H 9H 10H", "", "2H 3H 4H", "5H"}
				for p, w := range want {
					if joinS(r.EndDraws[p]) != w {
						t.Fatalf("§9.1: seat %d drew %v, want %q (all %v)", p, r.EndDraws[p], w, r.EndDraws)
					}
				}
				// A: 7H AH 4S + 6H 8H 9H 10H = 7+11+4+6+8+9+10.
				if r.Points[0] != 55 || r.Points[2] != 2+7+2+3+4 || r.Points[3] != 11+3+5 {
					t.Fatalf("§11: points %v", r.Points)
				}
			},
		},
		{
			name: "§9.1 an ace in hand draws a 7, which draws 3; a 7 so drawn draws an ace, which draws 1",
			pos: pos{hands: []string{"AH", "9S", "2D", "3D"}, turn: 1,
				stock: "7C 2H 3H AC 4H 5H", pile: "5S"},
			steps: []string{"1 play 9S"},
			check: func(t *testing.T, s *State) {
				r := lastResult(t, s)
				if joinS(r.EndDraws[0]) != "2H 3H 4H AC 7C" || joinS(r.EndDraws[2]) != "" {
					t.Fatalf("§9.1: A drew %v, want AC-triggered 4H too", r.EndDraws)
				}
			},
		},
		{
			name: "§9.1 jokers drawn do not trigger; the hand's 7s and aces trigger once each",
			pos: pos{hands: []string{"7H 7D", "9S", "2D", "3D"}, turn: 1,
				stock: "JK 2H 3H 4H 5H 6H 8H", pile: "5S"},
			steps: []string{"1 play 9S"},
			check: func(t *testing.T, s *State) {
				r := lastResult(t, s)
				if r.EndDraws[0].Len() != 6 || joinS(r.EndDraws[0]) != "2H 3H 4H 5H 6H JK" {
					t.Fatalf("§9.1: A drew %v, want 6 cards", r.EndDraws[0])
				}
			},
		},
		{
			name: "§9.1 §10 a reshuffle during the end-of-hand draws, then the remaining triggers lapse",
			pos: pos{hands: []string{"7H", "9S", "AD", "7C 2S"}, turn: 1,
				stock: "2H", pile: "3S 4S 5S"},
			steps: []string{"1 play 9S", "! shuffle 5S 4S 3S"},
			check: func(t *testing.T, s *State) {
				r := lastResult(t, s)
				// C draws 2H; D draws 5S 4S 3S (new stock); A's 3 lapse.
				want := []string{"", "", "2H", "3S 4S 5S"}
				for p, w := range want {
					if joinS(r.EndDraws[p]) != w {
						t.Fatalf("§9.1: seat %d drew %v, want %q", p, r.EndDraws[p], w)
					}
				}
				if r.Points[0] != 7 {
					t.Fatalf("§9.1: A's draws lapse, 7 points; got %d", r.Points[0])
				}
			},
		},
		{
			name: "§9 item 1 finishing with an ace: no ace draws, multiplier 1; finishing with an 8: nobody skipped matters",
			pos: pos{hands: []string{"2C", "AS", "3D", "4D"}, turn: 1,
				stock: "2H 3H", pile: "5S"},
			steps: []string{"1 play AS"},
			check: func(t *testing.T, s *State) {
				r := lastResult(t, s)
				if r.Multiplier != 1 || r.Finisher != 1 || r.Hands[0].Len() != 1 || r.Points[0] != 2 {
					t.Fatalf("§9: ace finish: %+v", r)
				}
			},
		},
		{
			name: "§9 item 1 finishing in an ace continuation with a 7: ×3, nobody draws for the 7",
			pos: pos{hands: []string{"2C", "AS 7S", "3D", "4D"}, turn: 1,
				stock: "2H 3H 4H 5H 6H 8H", pile: "5S"},
			steps: []string{"1 play AS", "1 play 7S"},
			check: func(t *testing.T, s *State) {
				r := lastResult(t, s)
				// The ace made C, D, A draw one each (2H, 3H, 4H); the 7 makes nobody draw.
				if r.Multiplier != 3 || joinS(r.Hands[2]) != "2H 3D" || r.Points[2] != 3*5 || joinS(r.Hands[0]) != "4H 2C" {
					t.Fatalf("§9/§11: %+v", r)
				}
			},
		},
		{
			name: "§13 finishing_card_effects: a joker on a joker chain makes next(X) draw 20 first",
			pos: pos{opts: game.Options{"finishing_card_effects": "true"}, hands: []string{"2C", "JK", "3D", "4D"}, turn: 1,
				stock: "2S 3S 4S 5S 6S 8S 9S 10S QS KS 2H 3H 4H 5H 6H 8H 9H 10H QH KH 2C", pile: "5S JK", chain: ChainJoker, k: 1},
			steps: []string{"1 play JK"},
			check: func(t *testing.T, s *State) {
				r := lastResult(t, s)
				if r.Multiplier != 10 || r.Hands[2].Len() != 21 || r.Hands[3].Len() != 1 {
					t.Fatalf("§13: C draws 20 then the hand ends: %v", r.Hands)
				}
			},
		},
		{
			name: "§13 finishing_card_effects with doubling: a third 7 makes next(X) draw 12",
			pos: pos{opts: game.Options{"finishing_card_effects": "true", "seven_stack": "doubling"}, hands: []string{"2C", "7S", "3D", "4D"}, turn: 1,
				stock: "2S 3S 4S 5S 6S 8S 9S 10S QS KS 2H 3H 4H", pile: "7H 7D", chain: ChainSeven, k: 2},
			steps: []string{"1 play 7S"},
			check: func(t *testing.T, s *State) {
				r := lastResult(t, s)
				if r.Multiplier != 3 || r.Hands[2].Len() != 13 {
					t.Fatalf("§13: C draws 12: %v", r.Hands)
				}
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, c.test)
	}
}

// §3 §12: the deal passes to the left each hand, next(dealer) opens, the game
// lasts `hands` hands, the lowest total wins (ties shared).
func TestAuditHandsRotation(t *testing.T) {
	for _, o := range []game.Options{{"players": "3"}, {"players": "2", "hands": "3"}, {"players": "5", "hands": "2"}} {
		st, err := Engine{}.New(o)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		r := game.NewRand(3)
		buf := make([]game.Move, 0, 64)
		if err := s.ApplyChance("dealer 1"); err != nil {
			t.Fatal(err)
		}
		var dealers, openers []int
		for !s.Over() {
			s.RollChance(&r)
			dealers = append(dealers, s.dealer)
			openers = append(openers, s.turn)
			if s.ph != PhaseOpening || s.openLeft != s.n {
				t.Fatalf("§6: a hand starts with the opening round")
			}
			for !s.Over() && !(s.chance == ChanceDeal) {
				if s.ChancePending() {
					s.RollChance(&r)
					continue
				}
				buf = s.Legal(game.Seat(s.turn), buf[:0])
				if err := s.Apply(game.Seat(s.turn), playFirst(buf, &r)); err != nil {
					t.Fatal(err)
				}
			}
		}
		for i := range dealers {
			if want := (1 + i) % s.n; dealers[i] != want || openers[i] != (want+1)%s.n {
				t.Fatalf("§3 %v: hand %d dealt by %d opened by %d, want %d and %d", o, i+1, dealers[i], openers[i], want, (want+1)%s.n)
			}
		}
		if len(dealers) != s.cfg.hands || len(s.Result().Rounds) != s.cfg.hands {
			t.Fatalf("§12 %v: %d hands played, want %d", o, len(dealers), s.cfg.hands)
		}
		res := s.Result()
		best := res.Totals[0]
		for _, x := range res.Totals {
			best = min(best, x)
		}
		for p, x := range res.Totals {
			in := false
			for _, w := range res.Winners {
				in = in || int(w) == p
			}
			if in != (x == best) {
				t.Fatalf("§12: totals %v winners %v", res.Totals, res.Winners)
			}
		}
	}
	// Ties are shared: a blocked one-hand game with A and B on 4 points.
	s := build(t, pos{opts: game.Options{"hands": "1"}, hands: []string{"2D 2C", "2D 2H", "3C 3H", "3H 3D"}, pile: "9S"})
	for i := 0; i < 4; i++ {
		do(t, s, s.turn, "pass")
	}
	if w := s.Result().Winners; !s.Over() || len(w) != 2 || w[0] != 0 || w[1] != 1 {
		t.Fatalf("§12: co-winners A and B, got %v (%v)", w, s.Result().Totals)
	}
}

// notation.md: canonical printing, aliases accepted, anything else refused
// with an error quoting the bad token.
func TestAuditNotation(t *testing.T) {
	for _, tc := range []struct{ in, canon string }{
		{"play 5D", "play 5D"},
		{"play td", "play 10D"},
		{"play T♦", "play 10D"},
		{"play 10♦", "play 10D"},
		{"play js h", "play JS H"},
		{"play J♠ ♥", "play JS H"},
		{"play jk", "play JK"},
		{"play Jk", "play JK"},
		{"play JC", "play JC"},
		{"play qh", "play QH"},
		{"play  AS ", "play AS"},
		{"draw", "draw"},
		{"penalty", "penalty"},
		{"pass", "pass"},
		{"end", "end"},
	} {
		m, err := ParseMove(tc.in)
		if err != nil {
			t.Fatalf("notation: %q refused: %v", tc.in, err)
		}
		if got := FormatMove(m); got != tc.canon {
			t.Fatalf("notation: %q prints %q, want %q", tc.in, got, tc.canon)
		}
	}
	for _, tc := range []struct{ in, token string }{
		{"play 1S", "1S"},
		{"play 11S", "11S"},
		{"play 5X", "5X"},
		{"play 13P", "13P"},
		{"play JS X", "X"},
		{"play 5D H", "5D"},
		{"play JK H", "JK"},
		{"Play 5D", "Play"},
		{"drew", "drew"},
		{"draw 5D", "draw"},
		{"play", "play"},
		{"play JS H C", "play"},
		{"", ""},
	} {
		_, err := ParseMove(tc.in)
		if game.Code(err) != game.ErrMalformed {
			t.Fatalf("notation: %q: want malformed, got %v", tc.in, err)
		}
		if !strings.Contains(err.Error(), tc.token) {
			t.Fatalf("notation: %q: the error %q does not quote %q", tc.in, err, tc.token)
		}
	}
}

// §4 hidden information: a view carries the observer's hand and the drawn
// card only to their owner, never the stock order or another hand, in the
// JSON and in String() alike (the spectator sees public parts only).
func TestAuditViewSecrets(t *testing.T) {
	s := build(t, pos{hands: []string{"KD QD 2C", "KH QH 3C", "KC QC 4C", "3S 4S 5C"}, stock: "9D 8D 6D", pile: "6C"})
	do(t, s, 0, "draw") // A draws 9D
	secret := map[int][]string{0: {"KD", "QD", "9D"}, 1: {"KH", "QH"}, 2: {"KC", "QC"}, 3: {"3S", "4S"}}
	stockCards := []string{"8D", "6D"}
	for obs := game.Spectator; obs < 4; obs++ {
		v := s.View(obs).(*View)
		js, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		// The shown voids list faces by the public top card (A drew: it
		// held no club, 6, jack or joker), not cards anyone holds; they are
		// checked in TestSoftVoidsPublic.
		str := v.String()
		if len(v.Shown) > 0 {
			w := *v
			w.Shown = nil
			js, _ = json.Marshal(&w)
			str = w.String()
		}
		texts := map[string]string{"json": string(js), "String": str}
		for what, text := range texts {
			for p, cs := range secret {
				for _, c := range cs {
					if p != int(obs) && strings.Contains(text, c) {
						t.Fatalf("§4: view of %d (%s) shows %s of seat %d:\n%s", obs, what, c, p, text)
					}
					if p == int(obs) && what == "json" && !strings.Contains(text, c) {
						t.Fatalf("§4: view of %d misses its own %s", obs, c)
					}
				}
			}
			for _, c := range stockCards {
				if strings.Contains(text, c) {
					t.Fatalf("§4: view of %d (%s) shows stock card %s", obs, what, c)
				}
			}
		}
		if obs < 0 && (v.Hand.Len() != 0 || strings.Contains(v.String(), "hand:")) {
			t.Fatalf("§4: the spectator view has a hand")
		}
	}
}

// §13 option validation and defaults.
func TestAuditOptions(t *testing.T) {
	for _, bad := range []game.Options{
		{"players": "1"}, {"players": "8"}, {"hands": "0"}, {"seven_stack": "tripling"}, {"ten_mode": "skip"},
		{"joker_follow": "none"}, {"jokers": "maybe"}, {"jack_wild": "1x"}, {"colour": "red"},
	} {
		if _, err := (Engine{}).New(bad); err == nil {
			t.Fatalf("§13: option %v accepted", bad)
		}
	}
	st, err := Engine{}.New(game.Options{"players": "6"})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	want := map[string]string{"players": "6", "hands": "6", "jokers": "true", "seven_stack": "linear", "penalty_ends_turn": "true",
		"jack_wild": "true", "jack_on_jack": "true", "joker_follow": "transparent", "play_any_after_draw": "false",
		"draw_until_playable": "false", "finishing_card_effects": "false", "ten_mode": "bounce"}
	for k, v := range want {
		if got := s.Options()[k]; got != v {
			t.Fatalf("§13: default %s = %q, want %q", k, got, v)
		}
	}
	if s.total != 106 || !s.ChancePending() || s.chance != ChanceDealer {
		t.Fatalf("§1 §3: 106 cards and a random first dealer")
	}
	st, _ = Engine{}.New(game.Options{"jokers": "false"})
	if st.(*State).total != 104 || st.Options()["players"] != "4" || st.Options()["hands"] != "4" {
		t.Fatalf("§1 §2: jokers=false is 104 cards; 4 players and 4 hands by default")
	}
}
