package pisyedilibot

import (
	"strings"
	"testing"

	"cardroom/game"
	"cardroom/games/pisyedili"
)

// TestPlayVoidsTrueForMedium: the voids the plays show (playVoids) hold on
// the true hands of medium players at every tenth decision of 60 games,
// but for the one case a void cannot express, which must stay rare: at
// the play the seat held both copies of a card of the played suit rated 1
// or 2 above it (the follow-up bonus of the single copy played outweighs
// it), so it held that card and still played as medium plays.
func TestPlayVoidsTrueForMedium(t *testing.T) {
	n, wrong, positions := 0, 0, 0
	mediumPositions(t, 60, 10, func(s *pisyedili.State, v *pisyedili.View) {
		positions++
		playVoids(v, func(q game.Seat, lacks game.Mask, atMost int) {
			n++
			h1, h2 := s.HandMasks(q)
			if (h1&lacks).Count()+(h2&lacks).Count() > atMost {
				wrong++
			}
		})
	})
	t.Logf("%d positions, %d voids, %d broken (a double at the play)", positions, n, wrong)
	if n < 2000 || wrong*100 > n {
		t.Fatalf("%d voids, %d wrong", n, wrong)
	}
}

// TestPlayFitTrueHands: on the true hands of medium players every play
// made with nothing received since is what playFit's rules would make
// (the check is exact then: §7 the legal cards, the medium ratings, the
// jack's suit), at every fifth decision of 60 games; and it checks many.
func TestPlayFitTrueHands(t *testing.T) {
	defer func(old int) { MaxSince = old }(MaxSince)
	MaxSince = 0
	checked := 0
	var buf []game.Card
	var checks []playCheck
	mediumPositions(t, 60, 5, func(s *pisyedili.State, v *pisyedili.View) {
		checks = playChecks(v, checks[:0])
		var m int
		m, buf = playFit(s, checks, buf)
		if m != 0 {
			t.Fatalf("%d of %d plays misfit the true hands\n%s", m, len(checks), v)
		}
		checked += len(checks)
	})
	if checked < 3000 {
		t.Fatalf("only %d plays checked", checked)
	}
}

// lowHeart is a position of a hand-written deal (4 players, dealer D):
// the opening round is played (A 2C, B 3C, C 4C, D 6C, §6), then A plays
// 6H on 6C (§5, the rank) and B plays 3H on hearts, a low plain heart that
// a medium player plays only when it holds no higher one; C is to move.
// B holds no higher plain heart (it played as medium would).
func lowHeart(t *testing.T) *pisyedili.State {
	t.Helper()
	hands := []string{"2C 6H 9S 9D 4S 3D KD", "3C 3H 5S 8D 2D 4D 5D", "4C 9C 2S QS KS 2H 9H", "6C KC QC 5C 8S 10S 3S"}
	var count [53]int
	for _, h := range hands {
		cs, err := std.ParseList(h)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			count[std.Index(c)]++
		}
	}
	var stock []string
	for i := 0; i < 53; i++ {
		for k := count[i]; k < 2; k++ {
			stock = append(stock, std.Format(std.Card(i)))
		}
	}
	st, err := pisyedili.Engine{}.New(game.Options{"players": "4", "hands": "1"})
	if err != nil {
		t.Fatal(err)
	}
	deal := "deal\n0: " + hands[0] + "\n1: " + hands[1] + "\n2: " + hands[2] + "\n3: " + hands[3] + "\nstock " + strings.Join(stock, " ")
	for _, c := range []string{"dealer 3", deal} {
		if err := st.ApplyChance(c); err != nil {
			t.Fatal(err)
		}
	}
	for i, m := range []string{"play 2C", "play 3C", "play 4C", "play 6C", "play 6H", "play 3H"} {
		mv, err := pisyedili.ParseMove(m)
		if err == nil {
			err = st.Apply(game.Seat(i%4), mv)
		}
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
	return st.(*pisyedili.State)
}

// TestPlayEvidenceLowHeart: the hard bot's sampler honours the plays: in
// the lowHeart position, B (who played 3H on hearts with nothing received
// since) is dealt a higher plain heart (4H 5H 6H 9H QH KH) in far fewer
// determinizations than the rules' uniform sampler deals it one (fixed
// seeds, 2,000 deals each).
func TestPlayEvidenceLowHeart(t *testing.T) {
	s := lowHeart(t)
	v := s.View(2).(*pisyedili.View)
	if s.Turn() != 2 || len(v.Plays) != 6 || v.Plays[5].Seat != 1 || v.Plays[5].Since != 0 {
		t.Fatalf("the position: turn %d, plays %+v", s.Turn(), v.Plays)
	}
	var higher game.Mask
	for _, c := range []string{"4H", "5H", "6H", "9H", "QH", "KH"} {
		x, _ := std.Parse(c)
		higher |= game.Bit(std.Index(x))
	}
	const deals = 2000
	holds := func(st game.State) bool {
		ps, _ := stateOf(st)
		h1, h2 := ps.HandMasks(1)
		return (h1|h2)&higher != 0
	}
	uniform, withPlays := 0, 0
	r := game.NewRand(1)
	for k := 0; k < deals; k++ {
		st, err := pisyedili.Engine{}.Sample(v, &r)
		if err != nil {
			t.Fatal(err)
		}
		if holds(st) {
			uniform++
		}
	}
	dom := NewDomain(v).(*Domain)
	r = game.NewRand(1)
	for k := 0; k < deals; k++ {
		st, err := dom.Sample(&r)
		if err != nil {
			t.Fatal(err)
		}
		if holds(st) {
			withPlays++
		}
	}
	t.Logf("B holds a higher plain heart in %d of %d uniform deals, %d with the plays as evidence", uniform, deals, withPlays)
	if uniform < deals/4 || withPlays*10 > uniform {
		t.Fatalf("uniform %d, with the plays %d of %d", uniform, withPlays, deals)
	}
}

// TestPlayEvidenceAgainstOthers: against players the medium rules do not
// describe (random moves), the plays' evidence is often wrong; the hard
// bot's determinizations are still deals the view allows (every hand of
// its size, the observer's own hand as it is).
func TestPlayEvidenceAgainstOthers(t *testing.T) {
	positions := 0
	random := func(_ *pisyedili.View, legal []game.Move, r *game.Rand) game.Move { return legal[r.IntN(len(legal))] }
	playPositions(t, 20, 400, 13, random, func(seed uint64, step int, s *pisyedili.State, v *pisyedili.View, r *game.Rand) {
		p := s.Turn()
		positions++
		dom := NewDomain(v).(*Domain)
		for k := 0; k < 5; k++ {
			d, err := dom.Sample(r)
			if err != nil {
				t.Fatal(err)
			}
			ds, _ := stateOf(d)
			for q := game.Seat(0); int(q) < v.Players; q++ {
				if ds.HandSize(q) != v.HandSizes[q] || len(ds.HandCards(q, nil)) != v.HandSizes[q] {
					t.Fatalf("seed %d step %d: seat %d dealt %d cards, want %d", seed, step, q, len(ds.HandCards(q, nil)), v.HandSizes[q])
				}
			}
			if o1, o2 := ds.HandMasks(p); (pisyedili.Cards{Once: o1, Twice: o2}) != v.Hand {
				t.Fatalf("seed %d step %d: the observer's hand changed", seed, step)
			}
		}
	})
	if positions < 100 {
		t.Fatalf("only %d positions", positions)
	}
}
