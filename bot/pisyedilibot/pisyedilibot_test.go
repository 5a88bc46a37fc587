package pisyedilibot_test

import (
	"context"
	"testing"

	"cardroom/bot"
	"cardroom/bot/arena"
	"cardroom/bot/ismcts"
	"cardroom/bot/pisyedilibot"
	"cardroom/game"
	"cardroom/games/pisyedili"
)

// TestArenaHands plays a few duplicate hands with every level: every move
// the bots choose is accepted by the engine and every hand ends.
func TestArenaHands(t *testing.T) {
	var seats []bot.Spec
	for _, s := range []string{"hard:100", "medium", "easy", "random"} {
		sp, err := bot.ParseSpec(s)
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, sp)
	}
	rep, err := arena.Run(context.Background(), arena.Config{Engine: pisyedili.Engine{},
		Options: game.Options{"players": "4", "hands": "1"}, Seats: seats, Deals: 2, Seed: 3, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Games) != 8 {
		t.Fatalf("%d games, want 8", len(rep.Games))
	}
	for _, g := range rep.Games {
		if len(g.Rounds) != 1 {
			t.Fatalf("deal %d rotation %d: %d hands scored", g.Deal, g.Rotation, len(g.Rounds))
		}
	}
}

// TestChooseDefendsChain: facing a seven chain with a 7 in hand, the
// rule-based player plays the 7 rather than draw 3 (spec §8).
func TestChooseDefendsChain(t *testing.T) {
	seven := game.NewCard(game.Hearts, 7)
	legal := []game.Move{{Op: pisyedili.OpPlay, Card: seven}, {Op: pisyedili.OpPenalty}}
	r := game.NewRand(1)
	info := &pisyedilibot.Info{Hand: []game.Card{seven, game.NewCard(game.Spades, 3)}, NextSize: 5, MinOpp: 5, ChainKind: "seven"}
	if m := pisyedilibot.Choose(legal, info, &r, false); m.Op != pisyedili.OpPlay {
		t.Fatalf("chose %v, want the 7", m)
	}
}

// TestChooseNamesHeldSuit: a jack names the suit the player holds most of (spec §5).
func TestChooseNamesHeldSuit(t *testing.T) {
	jack := game.NewCard(game.Spades, game.Jack)
	var legal []game.Move
	for a := uint8(1); a <= 4; a++ {
		legal = append(legal, game.Move{Op: pisyedili.OpPlay, Card: jack, A: a})
	}
	legal = append(legal, game.Move{Op: pisyedili.OpDraw})
	hand := []game.Card{jack, game.NewCard(game.Diamonds, 3), game.NewCard(game.Diamonds, 9), game.NewCard(game.Clubs, 4)}
	r := game.NewRand(1)
	m := pisyedilibot.Choose(legal, &pisyedilibot.Info{Hand: hand, NextSize: 5, MinOpp: 5}, &r, false)
	if m.Card != jack || m.A != 1+uint8(game.Diamonds) {
		t.Fatalf("chose %s, want play JS D", pisyedili.FormatMove(m))
	}
}

// TestLeafPrefersFewerCards: the leaf estimate of a hand cut short is in
// [0, 1] for every seat and rates a seat close to going out (§9: the first
// to empty the hand wins it) above a seat with many cards.
func TestLeafPrefersFewerCards(t *testing.T) {
	st, err := pisyedili.Engine{}.New(game.Options{"players": "4"})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*pisyedili.State)
	r := game.NewRand(5)
	var buf []game.Move
	checked := 0
	for step := 0; step < 3000 && !s.Over(); step++ {
		if s.ChancePending() {
			s.RollChance(&r)
			continue
		}
		if s.Playing() {
			out := make([]float64, 4)
			pisyedilibot.Leaf(s, out)
			for a := game.Seat(0); a < 4; a++ {
				if out[a] < 0 || out[a] > 1 {
					t.Fatalf("step %d: leaf %v out of [0, 1]", step, out)
				}
				for b := game.Seat(0); b < 4; b++ {
					if s.HandSize(a) <= 2 && s.HandSize(b) >= 7 && out[a] <= out[b] {
						t.Fatalf("step %d: seat %d with %d cards rated %.3f, seat %d with %d cards %.3f",
							step, a, s.HandSize(a), out[a], b, s.HandSize(b), out[b])
					}
					if s.HandSize(a) <= 2 && s.HandSize(b) >= 7 {
						checked++
					}
				}
			}
		}
		seat := s.Turn()
		buf = s.Legal(seat, buf[:0])
		m := buf[0]
		if len(buf) > 1 && buf[len(buf)-1].Op == pisyedili.OpDraw {
			m = buf[r.IntN(len(buf)-1)]
		}
		if err := s.Apply(seat, m); err != nil {
			t.Fatal(err)
		}
	}
	if checked == 0 {
		t.Fatal("no position with a short and a long hand")
	}
}

// TestHardDeterministic: the hard bot's search is a pure function of the
// view, the seed and an iteration budget (docs/bots.md), with the fast
// sampler and the native playouts.
func TestHardDeterministic(t *testing.T) {
	st, _ := pisyedili.Engine{}.New(game.Options{"players": "4"})
	s := st.(*pisyedili.State)
	r := game.NewRand(9)
	var buf []game.Move
	for moves := 0; moves < 12 || s.ChancePending(); {
		if s.ChancePending() {
			s.RollChance(&r)
			continue
		}
		buf = s.Legal(s.Turn(), buf[:0])
		if err := s.Apply(s.Turn(), buf[0]); err != nil {
			t.Fatal(err)
		}
		moves++
	}
	v := s.View(s.Turn())
	var first []bot.Rating
	for k := 0; k < 2; k++ {
		h := bot.NewHard(42, bot.HardConfig{Iterations: 400, Workers: 2})
		got, err := h.Hint(context.Background(), pisyedili.Engine{}, v)
		if err != nil {
			t.Fatal(err)
		}
		if k == 0 {
			first = got
			continue
		}
		if len(got) != len(first) {
			t.Fatalf("%d ratings, then %d", len(first), len(got))
		}
		for i := range got {
			if got[i] != first[i] {
				t.Fatalf("rating %d: %+v, then %+v", i, first[i], got[i])
			}
		}
	}
}

// TestInfoFromView: the rule-based player's Info comes from the view's
// typed fields and agrees with the state: the observer's cards (both copies
// of a face), the next player's and the smallest opponent's hand sizes, the
// opening round and a pending chain's kind.
func TestInfoFromView(t *testing.T) {
	st, _ := pisyedili.Engine{}.New(game.Options{"players": "4", "hands": "1"})
	s := st.(*pisyedili.State)
	r := game.NewRand(21)
	var buf []game.Move
	chains, openings := 0, 0
	for step := 0; step < 3000 && !s.Over(); step++ {
		if s.ChancePending() {
			s.RollChance(&r)
			continue
		}
		me := s.Turn()
		in := pisyedilibot.InfoFromView(s.View(me).(*pisyedili.View))
		if got, want := game.Standard.FormatSorted(in.Hand), game.Standard.FormatSorted(s.HandCards(me, nil)); got != want {
			t.Fatalf("step %d: Info hand %s, seat %d holds %s", step, got, me, want)
		}
		minOpp := 99
		for p := game.Seat(0); p < 4; p++ {
			if p != me {
				minOpp = min(minOpp, s.HandSize(p))
			}
		}
		kind, _ := s.Chain()
		switch {
		case in.NextSize != s.HandSize((me+1)%4) || in.MinOpp != minOpp:
			t.Fatalf("step %d: next %d min %d, want %d %d", step, in.NextSize, in.MinOpp, s.HandSize((me+1)%4), minOpp)
		case in.Opening != s.InOpening() || in.ChainKind != kind:
			t.Fatalf("step %d: opening %v chain %q, want %v %q", step, in.Opening, in.ChainKind, s.InOpening(), kind)
		}
		if kind != "" {
			chains++
		}
		if in.Opening {
			openings++
		}
		buf = s.Legal(me, buf[:0])
		m := buf[r.IntN(len(buf))]
		if len(buf) > 1 && buf[len(buf)-1].Op == pisyedili.OpDraw {
			m = buf[r.IntN(len(buf)-1)]
		}
		if err := s.Apply(me, m); err != nil {
			t.Fatal(err)
		}
	}
	if chains == 0 || openings == 0 {
		t.Fatalf("%d positions with a chain, %d in the opening round", chains, openings)
	}
}

// TestFieldModel: with FieldModel, every move the search applies for its
// seat is followed at once by the opponents' turns (played by the policy),
// so the tree sees only its own seat to act, until the hand ends or the
// horizon is reached; without it, the next seat to act is usually an
// opponent. Positions from random play, many seeds.
func TestFieldModel(t *testing.T) {
	cases := []struct {
		name      string
		field     bool
		wantOwn   bool // every state after a move is the observer's turn (or the end)
		wantOther bool // some state after a move is an opponent's turn
	}{
		{"field model", true, true, false},
		{"searched opponents", false, false, true},
	}
	defer func(old bool) { pisyedilibot.FieldModel = old }(pisyedilibot.FieldModel)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pisyedilibot.FieldModel = tc.field
			own, other := 0, 0
			for seed := uint64(1); seed <= 20; seed++ {
				st, _ := pisyedili.Engine{}.New(game.Options{"players": "4", "hands": "1"})
				s := st.(*pisyedili.State)
				r := game.NewRand(seed)
				var buf []game.Move
				for moves := 0; moves < int(seed)*3 || s.ChancePending(); {
					if s.ChancePending() {
						s.RollChance(&r)
						continue
					}
					if !s.Playing() {
						break
					}
					buf = s.Legal(s.Turn(), buf[:0])
					if err := s.Apply(s.Turn(), buf[r.IntN(len(buf))]); err != nil {
						t.Fatal(err)
					}
					moves++
				}
				if !s.Playing() || s.ChancePending() {
					continue
				}
				me := s.Turn()
				dom := pisyedilibot.NewDomain(s.View(me))
				for k := 0; k < 5; k++ {
					d, err := dom.(ismcts.Sampler).Sample(&r)
					if err != nil {
						t.Fatal(err)
					}
					dom.Start(d)
					legal := d.Legal(me, nil)
					if len(legal) == 0 {
						t.Fatalf("seed %d: no legal move for the observer in a determinization", seed)
					}
					m := legal[r.IntN(len(legal))]
					dom.Observe(d, me, m)
					if err := d.Apply(me, m); err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					if d.ChancePending() || dom.Horizon(d) {
						continue
					}
					if acting := d.ToAct(nil); len(acting) == 1 && acting[0] == me {
						own++
					} else {
						other++
					}
				}
			}
			if own+other < 20 {
				t.Fatalf("only %d positions checked", own+other)
			}
			if tc.wantOwn && other > 0 {
				t.Errorf("%d of %d states after the observer's move had an opponent to act", other, own+other)
			}
			if tc.wantOther && other == 0 {
				t.Errorf("no opponent ever to act after the observer's move in %d states", own)
			}
		})
	}
}

// mediumGame plays a 4-player hand by the medium rules from seed and calls
// at before every move (it stops when at returns false).
func mediumGame(t *testing.T, seed uint64, at func(s *pisyedili.State) bool) {
	t.Helper()
	st, _ := pisyedili.Engine{}.New(game.Options{"players": "4", "hands": "1"})
	s := st.(*pisyedili.State)
	r := game.NewRand(seed)
	var buf []game.Move
	for step := 0; step < 5000 && !s.Over(); step++ {
		if s.ChancePending() {
			s.RollChance(&r)
			continue
		}
		if !at(s) {
			return
		}
		p := s.Turn()
		buf = s.Legal(p, buf[:0])
		m := pisyedilibot.Rule(s.View(p), buf, &r, false)
		if err := s.Apply(p, m); err != nil {
			t.Fatal(err)
		}
	}
}

// held is how many cards of f seat p holds in s.
func held(s *pisyedili.State, p game.Seat, f game.Mask) int {
	h1, h2 := s.HandMasks(p)
	return (h1 & f).Count() + (h2 & f).Count()
}

// TestSoftVoidsTrueForMedium: the evidence the hard bot uses is true of
// the medium rules: in games they play, every soft void of the view holds
// in the true hands (medium never draws, takes a penalty or ends its turn
// with a card it could play; pisyedili.VoidKind).
func TestSoftVoidsTrueForMedium(t *testing.T) {
	checked := map[pisyedili.VoidKind]int{}
	for seed := uint64(1); seed <= 30; seed++ {
		mediumGame(t, seed, func(s *pisyedili.State) bool {
			for _, vd := range s.View(game.Spectator).(*pisyedili.View).Shown {
				if !vd.Why.Soft() {
					continue
				}
				checked[vd.Why]++
				if n := held(s, vd.Seat, vd.Lacks); n > vd.Since {
					t.Fatalf("seed %d: seat %d holds %d cards of its %s void, received %d since", seed, vd.Seat, n, vd.Why, vd.Since)
				}
			}
			return true
		})
	}
	t.Logf("soft voids checked: %v", checked)
	if checked[pisyedili.VoidDrew] < 100 || checked[pisyedili.VoidTookPenalty] < 10 {
		t.Fatalf("too few soft voids checked: %v", checked)
	}
}

// TestDomainUsesEvidence: the hard bot's determinizations keep the soft
// voids (Evidence = 1): at positions of medium games where an opponent
// drew (Since 0), that opponent is dealt a card it could have played far
// less often than by the rules' sampler (Evidence = 0), which deals every
// layout the rules allow. Deterministic seeds.
func TestDomainUsesEvidence(t *testing.T) {
	defer func(old float64) { pisyedilibot.Evidence = old }(pisyedilibot.Evidence)
	broken := map[float64]int{}
	positions := 0
	for seed := uint64(1); seed <= 40 && positions < 20; seed++ {
		mediumGame(t, seed, func(s *pisyedili.State) bool {
			me := s.Turn()
			v := s.View(me).(*pisyedili.View)
			var vd *pisyedili.Void
			for i := range v.Shown {
				if w := &v.Shown[i]; w.Seat != me && w.Why == pisyedili.VoidDrew && w.Since == 0 && v.HandSizes[w.Seat] >= 4 {
					vd = w
				}
			}
			if vd == nil || v.Stage != pisyedili.PhaseNormal {
				return true
			}
			positions++
			for _, p := range []float64{0, 1} {
				pisyedilibot.Evidence = p
				dom := pisyedilibot.NewDomain(v)
				r := game.NewRand(seed)
				for k := 0; k < 50; k++ {
					d, err := dom.(ismcts.Sampler).Sample(&r)
					if err != nil {
						t.Fatal(err)
					}
					h1, h2 := d.(interface {
						HandMasks(game.Seat) (game.Mask, game.Mask)
					}).HandMasks(vd.Seat)
					if (h1&vd.Lacks).Count()+(h2&vd.Lacks).Count() > vd.Since {
						broken[p]++
					}
				}
			}
			return false // one position a game
		})
	}
	t.Logf("%d positions, 50 deals each: the drawer dealt a playable card %d times by the rules' sampler, %d with evidence", positions, broken[0], broken[1])
	if positions < 10 || broken[0] < positions*50/2 || broken[1]*20 > broken[0] {
		t.Fatalf("%d positions: broken %d uniform, %d with evidence", positions, broken[0], broken[1])
	}
}
