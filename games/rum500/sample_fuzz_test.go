package rum500

import (
	"encoding/json"
	"testing"

	"cardroom/game"
)

// FuzzSample: a view decoded from any JSON is sampled or refused with an
// error, never a panic, and a Sampler of the same view agrees: it refuses
// what Engine.Sample refuses, and deals the same state from the same
// generator (§11: the unseen cards only are dealt).
func FuzzSample(f *testing.F) {
	r := game.NewRand(5)
	for _, opts := range []string{"players=2 target=50", "players=4 jokers=2 stock_exhausted=turn_over_discards target=50"} {
		o, err := game.ParseOptions(opts)
		if err != nil {
			f.Fatal(err)
		}
		st, err := Engine{}.New(o)
		if err != nil {
			f.Fatal(err)
		}
		s := st.(*State)
		for step := 0; step < 400 && !s.Over(); step++ {
			if s.ChancePending() {
				s.RollChance(&r)
				continue
			}
			seat := s.ToAct(nil)[0]
			legal := s.Legal(seat, nil)
			if err := s.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
				f.Fatal(err)
			}
			if step%23 == 0 {
				b, _ := json.Marshal(s.View(game.Seat(r.IntN(s.cfg.n+1) - 1)))
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v View
		if json.Unmarshal(b, &v) != nil {
			return
		}
		ra := game.NewRand(1)
		st, err := Engine{}.Sample(&v, &ra)
		z, zerr := NewSampler(&v)
		if (err == nil) != (zerr == nil) {
			t.Fatalf("Sample: %v; NewSampler: %v", err, zerr)
		}
		if err != nil {
			return
		}
		rb := game.NewRand(1)
		sameSample(t, "fuzzed view", st.(*State), z.Sample(&rb))
	})
}
