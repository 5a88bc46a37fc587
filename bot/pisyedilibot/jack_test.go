package pisyedilibot

import (
	"testing"

	"cardroom/game"
	"cardroom/games/pisyedili"
)

// TestJackFact: in games the medium rules play, whenever the jack on top
// was played outside the opening round, jackFact finds from the view of
// the seat to move who played it and the suit it named (or declines when
// that was the observer), and that seat holds most of the suit by the
// medium rules' count (bestSuit), as JackTries assumes: it has received no
// card since (§8: only the seats after it drew or passed on the jack).
func TestJackFact(t *testing.T) {
	found, mine := 0, 0
	for seed := uint64(1); seed <= 40; seed++ {
		st, _ := pisyedili.Engine{}.New(game.Options{"players": "4", "hands": "1"})
		s := st.(*pisyedili.State)
		r := game.NewRand(seed)
		var buf []game.Move
		jacker, suit, live := game.Seat(-1), game.Suit(0), false
		for step := 0; step < 5000 && !s.Over(); step++ {
			if s.ChancePending() {
				s.RollChance(&r)
				continue
			}
			p := s.Turn()
			v := s.View(p).(*pisyedili.View)
			if !s.Playing() {
				break
			}
			if v.Top == game.NoCard || v.Top.Rank() != game.Jack || v.Top == game.Joker {
				live = false
			}
			q, su, ok := jackFact(v)
			switch {
			case live && jacker == p:
				if ok {
					t.Fatalf("seed %d step %d: jackFact names seat %d; the observer played the jack", seed, step, q)
				}
				mine++
			case live:
				if !ok || q != jacker || su != suit {
					t.Fatalf("seed %d step %d: jackFact %d %v %v, want seat %d named %v", seed, step, q, su, ok, jacker, suit)
				}
				h := s.HandCards(q, nil)
				if got := bestSuit(h, game.NoCard); got != int(suit) {
					t.Fatalf("seed %d step %d: seat %d named %v but holds most of %v", seed, step, q, suit, game.Suit(got))
				}
				found++
			case ok:
				t.Fatalf("seed %d step %d: jackFact names seat %d, but no jack was played on top", seed, step, q)
			}
			buf = s.Legal(p, buf[:0])
			m := Rule(v, buf, &r, false)
			if m.Op == pisyedili.OpPlay && m.Card.Rank() == game.Jack && m.Card != game.Joker && m.A > 0 {
				jacker, suit, live = p, game.Suit(m.A-1), true
			} else if m.Op == pisyedili.OpPlay {
				live = false
			}
			if err := s.Apply(p, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d positions with another seat's jack on top, %d with the observer's", found, mine)
	if found < 100 || mine < 1 {
		t.Fatalf("too few positions: %d, %d", found, mine)
	}
}

// TestJackTriesRedeals: with JackTries the hard bot's determinizations
// give the seat that named the suit of the jack on top a hand in which the
// medium rules would have named it, far more often than without (medium
// games, deterministic seeds); the plays' evidence, which checks the same
// jack among the other plays (playFit), is off for the comparison.
func TestJackTriesRedeals(t *testing.T) {
	defer func(old int) { JackTries = old }(JackTries)
	defer func(old bool) { PlayEvidence = old }(PlayEvidence)
	PlayEvidence = false
	fits := map[int]int{}
	positions := 0
	for seed := uint64(1); seed <= 30; seed++ {
		st, _ := pisyedili.Engine{}.New(game.Options{"players": "4", "hands": "1"})
		s := st.(*pisyedili.State)
		r := game.NewRand(seed)
		var buf []game.Move
		for step := 0; step < 5000 && !s.Over() && positions < 60; step++ {
			if s.ChancePending() {
				s.RollChance(&r)
				continue
			}
			p := s.Turn()
			v := s.View(p)
			if q, su, ok := jackFact(v.(*pisyedili.View)); ok {
				positions++
				for _, tries := range []int{0, 8} {
					JackTries = tries
					dom := NewDomain(v)
					rr := game.NewRand(seed + uint64(step))
					for k := 0; k < 20; k++ {
						d, err := dom.(*Domain).Sample(&rr)
						if err != nil {
							t.Fatal(err)
						}
						ps, _ := stateOf(d)
						if bestSuit(ps.HandCards(q, nil), game.NoCard) == int(su) {
							fits[tries]++
						}
					}
				}
			}
			buf = s.Legal(p, buf[:0])
			if err := s.Apply(p, Rule(v, buf, &r, false)); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d positions, 20 deals each: the jack's player holds most of the named suit in %d deals without JackTries, %d with 8", positions, fits[0], fits[8])
	if positions < 30 || fits[8] < positions*20*8/10 || fits[8] < 2*fits[0] {
		t.Fatalf("%d positions: %d fit without, %d with", positions, fits[0], fits[8])
	}
}
