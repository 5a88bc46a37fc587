package pisyedili

import (
	"encoding/json"
	"reflect"
	"testing"

	"cardroom/game"
)

// TestSampleViews: at random positions of random games (chance steps
// included: pending reshuffles, end-of-hand draws, deals), a state sampled
// from any observer's view shows that observer the same view, keeps every
// card once (§1), and puts in the stock only cards of the stock pool.
func TestSampleViews(t *testing.T) {
	handOver, shown := 0, 0
	defer func() {
		if shown == 0 {
			t.Errorf("no position with a shown void was sampled")
		}
		if handOver == 0 {
			t.Errorf("no end-of-hand position (waiting for a reshuffle) was sampled")
		}
	}()
	for ci, o := range propertyConfigs {
		st, _ := Engine{}.New(o)
		s := st.(*State)
		rng := game.NewRand(uint64(ci))
		sr := game.NewRand(uint64(ci) + 99)
		var buf []game.Move
		moves := 0
		checked, chanceChecked := 0, 0
		special := map[Phase]int{}
		for step := 0; !s.Over() && step < 20000; step++ {
			if step%5 == 0 || s.chance == ChanceShuffle {
				for obs := game.Spectator; int(obs) < s.n; obs++ {
					v := s.View(obs)
					got, err := Engine{}.Sample(v, &sr)
					if err != nil {
						t.Fatalf("%s step %d: Sample(view of %d): %v", o, step, obs, err)
					}
					gs := got.(*State)
					if !reflect.DeepEqual(gs.View(obs), v) {
						a, _ := json.Marshal(gs.View(obs))
						b, _ := json.Marshal(v)
						t.Fatalf("%s step %d observer %d: sampled view differs\n got %s\nwant %s", o, step, obs, a, b)
					}
					if err := conserved(gs); err != nil {
						t.Fatalf("%s step %d observer %d: sampled state: %v", o, step, obs, err)
					}
					if err := voidsHold(gs); err != nil {
						t.Fatalf("%s step %d observer %d: sampled state breaks a shown void: %v", o, step, obs, err)
					}
					if len(v.(*View).Shown) > 0 {
						shown++
					}
					for _, c := range gs.stock[:gs.stockN] {
						i := idx(c)
						if !gs.pool1.Has(i) {
							t.Fatalf("%s step %d: sampled stock holds %v outside the stock pool", o, step, c)
						}
					}
					if !reflect.DeepEqual(gs.Result(), s.Result()) {
						t.Fatalf("%s step %d: sampled result differs", o, step)
					}
					checked++
					if s.ph == PhaseHandOver || s.ph == PhaseAfterDraw {
						special[s.ph]++
					}
					if s.ChancePending() {
						chanceChecked++
					}
				}
			}
			if s.ChancePending() {
				s.RollChance(&rng)
				continue
			}
			buf = s.Legal(game.Seat(s.turn), buf[:0])
			m := buf[rng.IntN(len(buf))]
			if moves > 300 {
				m = playFirst(buf, &rng)
			}
			moves++
			if err := s.Apply(game.Seat(s.turn), m); err != nil {
				t.Fatal(err)
			}
		}
		if chanceChecked == 0 || special[PhaseAfterDraw] == 0 {
			t.Errorf("%s: no chance or after-draw position sampled", o)
		}
		handOver += special[PhaseHandOver]
	}
}

// TestSampleStockPool: after a reshuffle the stock can only hold reshuffled
// cards, so an unseen card that was not reshuffled must be in another hand:
// sampled stocks stay inside the stock pool (as multisets), and the
// constraint is active (some unseen cards lie outside the pool).
func TestSampleStockPool(t *testing.T) {
	st, _ := Engine{}.New(game.Options{"players": "2"})
	s := st.(*State)
	rng := game.NewRand(11)
	sr := game.NewRand(12)
	var buf []game.Move
	active := 0
	for step := 0; !s.Over() && step < 30000; step++ {
		if s.ChancePending() {
			s.RollChance(&rng)
			continue
		}
		if s.pool1 != s.full1 && step%3 == 0 {
			v := s.View(0).(*View)
			gs, err := Engine{}.Sample(v, &sr)
			if err != nil {
				t.Fatal(err)
			}
			g := gs.(*State)
			var inStock, inPool, unseen [53]int
			for _, c := range g.stock[:g.stockN] {
				inStock[idx(c)]++
			}
			for _, c := range cards(t, joinS(v.StockPool)) {
				inPool[idx(c)]++
			}
			for p := 1; p < g.n; p++ {
				for i := 0; i < 53; i++ {
					if g.h1[p].Has(i) {
						unseen[i]++
					}
					if g.h2[p].Has(i) {
						unseen[i]++
					}
				}
			}
			for i := 0; i < 53; i++ {
				if inStock[i] > inPool[i] {
					t.Fatalf("step %d: sampled stock holds %s %d times, the pool %d", step, game.Standard.Format(faceCard[i]), inStock[i], inPool[i])
				}
				if unseen[i]+inStock[i] > inPool[i] {
					active++
				}
			}
		}
		buf = s.Legal(game.Seat(s.turn), buf[:0])
		if err := s.Apply(game.Seat(s.turn), buf[rng.IntN(len(buf))]); err != nil {
			t.Fatal(err)
		}
	}
	if active == 0 {
		t.Fatal("the stock-pool constraint was never active")
	}
}
