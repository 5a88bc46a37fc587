package rum500bot_test

import (
	"testing"

	"cardroom/bot/ismcts"
	"cardroom/bot/rum500bot"
	"cardroom/game"
	"cardroom/games/rum500"
)

func hand(t *testing.T, cards ...string) rum500.Hand {
	t.Helper()
	var h rum500.Hand
	for _, s := range cards {
		if s == "JK" {
			h.Jokers++
			continue
		}
		i := game.Standard.Index(card(t, s))
		if h.One.Has(i) {
			h.Two |= game.Bit(i)
		} else {
			h.One |= game.Bit(i)
		}
	}
	return h
}

func TestHasMeld(t *testing.T) {
	for _, c := range []struct {
		cards []string
		want  bool
	}{
		{[]string{"7S", "7H", "7D"}, true},
		{[]string{"7S", "7H", "8D", "9C"}, false},
		{[]string{"4C", "5C", "6C"}, true},
		{[]string{"AC", "2C", "3C"}, true},
		{[]string{"QC", "KC", "AC"}, true},
		{[]string{"KC", "AC", "2C"}, false}, // never round the corner
		{[]string{"4C", "6C", "8C", "10C"}, false},
		{[]string{"4C", "6C", "JK"}, true},
		{[]string{"QD", "AD", "JK"}, true}, // Q JK=K A
		{[]string{"2D", "4H", "JK"}, false},
		{[]string{"9S", "9H", "JK"}, true},
	} {
		if got := rum500bot.HasMeld(hand(t, c.cards...)); got != c.want {
			t.Errorf("HasMeld(%v) = %v, want %v", c.cards, got, c.want)
		}
	}
}

// playMedium plays games of two medium players, one hand each (game g's
// generator seeded from seed + g), and calls f at every decision before
// the move, with the step, the state, the view of the seat to act and its
// legal moves.
func playMedium(tb testing.TB, games int, seed uint64, f func(step int, st *rum500.State, v *rum500.View, legal []game.Move)) {
	tb.Helper()
	o, err := game.ParseOptions("players=2 target=1")
	if err != nil {
		tb.Fatal(err)
	}
	var legal []game.Move
	for g := 0; g < games; g++ {
		gs, err := rum500.Engine{}.New(o)
		if err != nil {
			tb.Fatal(err)
		}
		st := gs.(*rum500.State)
		r := game.NewRand(seed + uint64(g))
		for step := 0; !st.Over(); step++ {
			if st.ChancePending() {
				st.RollChance(&r)
				continue
			}
			s := st.ToAct(nil)[0]
			legal = st.Legal(s, legal[:0])
			v := st.View(s).(*rum500.View)
			f(step, st, v, legal)
			if err := st.Apply(s, rum500bot.Rule(v, legal, &r, false)); err != nil {
				tb.Fatal(err)
			}
		}
	}
}

// positionsOfMedium is playMedium at every decision of games from seed 1000.
func positionsOfMedium(t *testing.T, games int, f func(st *rum500.State, v *rum500.View)) {
	t.Helper()
	playMedium(t, games, 1000, func(_ int, st *rum500.State, v *rum500.View, _ []game.Move) { f(st, v) })
}

// TestEvidenceTrueForMedium: a medium player's true hand fits everything
// the evidence reads from its turns (no meld, no card the table accepted,
// the last discard its best-rated, the last draw not a missed take), at
// every position of 60 games; and the evidence does say something: most
// uniform deals of the same positions break it.
func TestEvidenceTrueForMedium(t *testing.T) {
	var read, dealt, broken int
	positionsOfMedium(t, 60, func(st *rum500.State, v *rum500.View) {
		ev := rum500bot.ReadEvidence(v)
		d := rum500bot.NewDomain(v).(*rum500bot.Domain)
		r := game.NewRand(uint64(len(v.Moves)))
		for o := 0; o < v.Players; o++ {
			if o == int(v.Seat) {
				continue
			}
			if m := ev.Misfits(o, st.HandOf(o)); m != 0 {
				t.Fatalf("seat %d's true hand breaks the evidence %d times:\n%s", o, m, st.View(game.Seat(o)))
			}
			if ev.Read(o) {
				read++
				z, err := d.Uniform(&r)
				if err != nil {
					t.Fatal(err)
				}
				dealt++
				if ev.Misfits(o, z.HandOf(o)) != 0 {
					broken++
				}
			}
		}
	})
	t.Logf("%d positions with evidence; %d of %d uniform deals break it", read, broken, dealt)
	if read < 500 || broken*2 < dealt {
		t.Fatalf("the evidence says too little: %d positions, %d of %d uniform deals break it", read, broken, dealt)
	}
}

// TestEvidenceSample: the domain's determinization is the first of the
// first EvidenceTries uniform deals that fits the evidence (Uniform, from
// the same generator), or one that breaks it as little as any of them.
func TestEvidenceSample(t *testing.T) {
	var n, fit int
	positionsOfMedium(t, 20, func(st *rum500.State, v *rum500.View) {
		ev := rum500bot.ReadEvidence(v)
		opp := 1 - int(v.Seat)
		if !ev.Read(opp) {
			return
		}
		r1 := game.NewRand(uint64(len(v.Moves)))
		r2 := r1
		a, err := rum500bot.NewDomain(v).(ismcts.Sampler).Sample(&r1)
		if err != nil {
			t.Fatal(err)
		}
		got := a.(*rum500.State).HandOf(opp)
		u := rum500bot.NewDomain(v).(*rum500bot.Domain)
		least := -1
		var want *rum500.Hand
		for k := 0; k < rum500bot.EvidenceTries && want == nil; k++ {
			z, err := u.Uniform(&r2)
			if err != nil {
				t.Fatal(err)
			}
			h := z.HandOf(opp)
			m := ev.Misfits(opp, h)
			if m == 0 {
				want = &h
			}
			if least < 0 || m < least {
				least = m
			}
		}
		n++
		switch {
		case want != nil:
			fit++
			if got != *want || r1 != r2 {
				t.Fatalf("the determinization is not the first uniform deal that fits")
			}
		case ev.Misfits(opp, got) != least:
			t.Fatalf("the determinization breaks the evidence %d times, the best of the deals %d", ev.Misfits(opp, got), least)
		}
	})
	t.Logf("%d positions: a fitting deal among the first %d at %d", n, rum500bot.EvidenceTries, fit)
	if n < 100 || fit == 0 || fit == n {
		t.Fatalf("the positions do not try both cases: %d of %d fit", fit, n)
	}
}
