package papayoo

import (
	"fmt"
	"testing"

	"cardroom/game"
)

// TestSamplerMatchesSample: for views of every phase of random games, from
// every observer and the spectator, with three to eight players, a Sampler
// deals exactly the states Engine.Sample deals from the same generator, one
// after the other (the reused State keeps nothing of the previous sample),
// and consumes the same random numbers.
func TestSamplerMatchesSample(t *testing.T) {
	views := 0
	phases := map[string]bool{}
	for _, players := range []int{3, 4, 5, 8} {
		r := game.NewRand(uint64(players))
		s := mustNew(t, fmt.Sprintf("players=%d rounds=2", players))
		for step := 0; !s.Over(); step++ {
			if step > 0 {
				randomStep(t, s, &r)
			}
			if step%3 != 0 && step > 2 {
				continue
			}
			for obs := -1; obs < players; obs++ {
				v := s.view(game.Seat(obs))
				z, err := NewSampler(v)
				if err != nil {
					t.Fatalf("%d players, step %d, seat %d: NewSampler: %v", players, step, obs, err)
				}
				ra, rb := game.NewRand(uint64(step)), game.NewRand(uint64(step))
				for k := 0; k < 3; k++ {
					want, err := Engine{}.Sample(v, &ra)
					if err != nil {
						t.Fatalf("%d players, step %d, seat %d: Sample: %v", players, step, obs, err)
					}
					got, err := z.Sample(&rb)
					if err != nil {
						t.Fatalf("%d players, step %d, seat %d: Sampler: %v", players, step, obs, err)
					}
					if !sameState(got, want.(*State)) {
						t.Fatalf("%d players, step %d, seat %d, sample %d: the Sampler's state differs from Engine.Sample's", players, step, obs, k)
					}
				}
				if ra.Uint64() != rb.Uint64() {
					t.Fatalf("%d players, step %d, seat %d: the generators drifted apart", players, step, obs)
				}
				views++
				phases[v.Phase] = true
			}
		}
	}
	for _, ph := range []string{PhaseDealer, PhaseDeal, PhasePass, PhaseDie, PhasePlay, PhaseRoundOver} { // a finished game is not viewed here
		if !phases[ph] {
			t.Errorf("no view of phase %s was checked", ph)
		}
	}
	if views < 500 {
		t.Errorf("only %d views checked", views)
	}
}

// A Sampler's determinization allocates nothing (a search draws thousands).
func TestSamplerAllocates(t *testing.T) {
	r := game.NewRand(9)
	s := mustNew(t, "players=4 rounds=1")
	for i := 0; i < 30; i++ { // into the first tricks
		randomStep(t, s, &r)
	}
	if s.phase != phPlay {
		t.Fatalf("phase %s, want play", s.phaseName())
	}
	z, err := NewSampler(s.view(1))
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(200, func() {
		if _, err := z.Sample(&r); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Sampler.Sample allocates %.1f times", n)
	}
}
