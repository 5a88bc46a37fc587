package pisyedili

import (
	"reflect"
	"testing"

	"cardroom/game"
)

// TestSamplerMatchesSample: at random positions of random games, a Sampler
// built from any observer's view draws exactly the state Engine.Sample draws
// from the same generator (§3, §10: the hidden hands and the stock), so the
// fast path keeps every guarantee of Sample.
func TestSamplerMatchesSample(t *testing.T) {
	checked := 0
	for ci, o := range propertyConfigs {
		st, _ := Engine{}.New(o)
		s := st.(*State)
		rng := game.NewRand(uint64(ci) + 7)
		var buf []game.Move
		for step := 0; !s.Over() && step < 3000; step++ {
			if step%11 == 0 {
				for obs := game.Spectator; int(obs) < s.n; obs++ {
					v := s.View(obs).(*View)
					z, err := NewSampler(v)
					if err != nil {
						t.Fatalf("%s step %d: NewSampler(view of %d): %v", o, step, obs, err)
					}
					for k := 0; k < 2; k++ {
						r1 := game.NewRand(uint64(step*10 + k))
						r2 := r1
						want, err := Engine{}.Sample(v, &r1)
						if err != nil {
							t.Fatal(err)
						}
						got := z.Sample(&r2)
						if !reflect.DeepEqual(got.View(obs), want.View(obs)) || got.h1 != want.(*State).h1 ||
							got.h2 != want.(*State).h2 || got.stock != want.(*State).stock || r1 != r2 {
							t.Fatalf("%s step %d observer %d: Sampler differs from Sample", o, step, obs)
						}
						checked++
					}
				}
			}
			if s.ChancePending() {
				s.RollChance(&rng)
				continue
			}
			buf = s.Legal(game.Seat(s.turn), buf[:0])
			s.Apply(game.Seat(s.turn), buf[rng.IntN(len(buf))])
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}

// TestAccessors: the read-only accessors agree with the view (§4).
func TestAccessors(t *testing.T) {
	st, _ := Engine{}.New(game.Options{"players": "4"})
	s := st.(*State)
	r := game.NewRand(3)
	for s.ChancePending() {
		s.RollChance(&r)
	}
	v := s.View(s.Turn()).(*View)
	for p := game.Seat(0); p < 4; p++ {
		if s.HandSize(p) != v.HandSizes[p] || len(s.HandCards(p, nil)) != v.HandSizes[p] {
			t.Fatalf("seat %d: size %d, view %d", p, s.HandSize(p), v.HandSizes[p])
		}
		sum := 0
		for _, c := range s.HandCards(p, nil) {
			sum += CardValue(c)
		}
		if sum != s.HandValue(p) {
			t.Fatalf("seat %d: value %d, want %d", p, s.HandValue(p), sum)
		}
	}
	if !s.InOpening() || !s.Playing() || s.StockSize() != v.StockSize || int(s.NextSeat(s.Turn())) != int(v.Next) {
		t.Fatalf("opening %v playing %v stock %d next %d", s.InOpening(), s.Playing(), s.StockSize(), s.NextSeat(s.Turn()))
	}
	if k, n := s.Chain(); k != "" || n != 0 {
		t.Fatalf("chain %q %d at the start", k, n)
	}
}
