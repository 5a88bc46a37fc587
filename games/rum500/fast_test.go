package rum500

import (
	"reflect"
	"testing"

	"cardroom/game"
)

// samplerGames are the tables TestSamplerMatchesSample plays: every stock
// rule, one and two decks, jokers, two to eight players, and the
// observer-specific cases of §11 (known cards after takes, the turned-over
// stock's public order). hoard is the share of turns in which the player
// only draws and discards, so that stocks run out.
var samplerGames = []struct {
	opts  string
	hoard int // out of 4
}{
	{"players=2 target=50", 0},
	{"players=2 two_player_hand=10 jokers=2 stock_exhausted=turn_over_discards target=50", 3},
	{"players=3 top_discard_free=true stock_exhausted=end_immediately target=50", 2},
	{"players=4 jokers=2 stock_exhausted=turn_over_discards must_discard_to_go_out=true target=50", 3},
	{"players=5 decks=2 jokers=2 target=50", 1},
	{"players=8 stock_exhausted=turn_over_discards target=30", 2},
	{"players=2 decks=2 tie_resolution=play_on go_out_bonus=20 target=30", 2},
}

// samplerMove is a random move, or with probability hoard/4 a draw or a
// discard when one is legal.
func samplerMove(legal []game.Move, r *game.Rand, hoard int) game.Move {
	if r.IntN(4) < hoard {
		for _, m := range legal {
			if m.Op == OpDraw {
				return m
			}
		}
		if legal[len(legal)-1].Op == OpDiscard {
			k := 0
			for k < len(legal) && legal[k].Op != OpDiscard {
				k++
			}
			return legal[k+r.IntN(len(legal)-k)]
		}
	}
	return legal[r.IntN(len(legal))]
}

// sameSample fails unless a and b are the same state: the engine's own
// equality (reflect.DeepEqual of clones, as the property tests compare a
// state with its copy; Clone drops the spare capacity of the history and
// the scores), plus every seat's view and the stock spelled out, so a
// failure says where they differ.
func sameSample(t *testing.T, where string, a, b *State) {
	t.Helper()
	for i := 0; i < a.cfg.n; i++ {
		if a.hands[i] != b.hands[i] {
			t.Fatalf("%s: seat %d holds %v, Sample dealt %v", where, i, b.hands[i].strs(), a.hands[i].strs())
		}
	}
	if a.stockN != b.stockN || a.stock != b.stock {
		t.Fatalf("%s: the stocks differ: %v / %v", where, b.stock[:b.stockN], a.stock[:a.stockN])
	}
	for obs := game.Spectator; int(obs) < a.cfg.n; obs++ {
		if !reflect.DeepEqual(a.View(obs), b.View(obs)) {
			t.Fatalf("%s: the views of %d differ", where, obs)
		}
	}
	if !reflect.DeepEqual(a.Clone(), b.Clone()) {
		t.Fatalf("%s: the states differ", where)
	}
}

// TestSamplerMatchesSample: for the views of every seat and of a spectator,
// at every step of random games (every phase: the first dealer and the deals
// pending, draw, play, the end of a hand with its hands shown, the end of the
// game), a Sampler draws exactly the state Engine.Sample draws from an equal
// generator and leaves the generator in the same state, so a search that
// samples with it makes the same decisions. The unseen cards are dealt as
// §4 and §11 say Sample must (the observer's hand, the pile, the melds, the
// known cards and a turned-over stock stay as the view shows them). Between
// two samples the previous state is played on, as a search's playout does,
// to show that reusing it leaks nothing into the next one. Deal, from the
// same generator, deals the same hands.
func TestSamplerMatchesSample(t *testing.T) {
	phases := map[string]int{}
	turned, known, ended := 0, 0, 0
	every := 4 // of the draw and play steps, the views of one in every
	if testing.Short() {
		every = 16
	}
	for gi, g := range samplerGames {
		o, err := game.ParseOptions(g.opts)
		if err != nil {
			t.Fatal(err)
		}
		gs, err := Engine{}.New(o)
		if err != nil {
			t.Fatal(err)
		}
		s := gs.(*State)
		rng := game.NewRand(uint64(gi) + 1)
		var legal []game.Move
		var hands []Hand
		for step := 0; step < 3000; step++ {
			for obs := game.Spectator; int(obs) < s.cfg.n && (step%every == 0 || s.phase < phDraw || s.Over()); obs++ {
				v := s.View(obs).(*View)
				z, err := NewSampler(v)
				if err != nil {
					t.Fatalf("%s step %d: NewSampler(view of %d): %v", g.opts, step, obs, err)
				}
				phases[v.Phase]++
				if v.TurnedOver {
					turned++
				}
				for i, k := range v.Known {
					if i != int(obs) && k.Count() > 0 && !s.ChancePending() {
						known++
						break
					}
				}
				for k := 0; k < 2; k++ {
					r1 := game.NewRand(uint64(step*16 + k))
					r2, r3 := r1, r1
					want, err := Engine{}.Sample(v, &r1)
					if err != nil {
						t.Fatal(err)
					}
					got := z.Sample(&r2)
					where := g.opts + " step " + itoa(step) + " observer " + itoa(int(obs))
					sameSample(t, where, want.(*State), got)
					if r1 != r2 {
						t.Fatalf("%s: Sampler consumed other random numbers than Sample", where)
					}
					// Deal: the same hands from the same numbers.
					hands = z.Deal(&r3, hands)
					if r3 != r1 || len(hands) != s.cfg.n {
						t.Fatalf("%s: Deal consumed other random numbers than Sample, or dealt %d hands", where, len(hands))
					}
					for i, h := range hands {
						if h != got.hands[i] {
							t.Fatalf("%s: Deal gave seat %d %v, Sample %v", where, i, h, got.hands[i])
						}
					}
					// Play the sampled state on (a playout), to the end
					// of the hand at most.
					for j := 0; j < 40 && !got.Over() && !got.ChancePending(); j++ {
						p := game.Seat(got.toMove)
						legal = got.Legal(p, legal[:0])
						if err := got.Apply(p, legal[r2.IntN(len(legal))]); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			if s.Over() {
				ended++
				break
			}
			if s.ChancePending() {
				s.RollChance(&rng)
				continue
			}
			p := game.Seat(s.toMove)
			legal = s.Legal(p, legal[:0])
			if err := s.Apply(p, samplerMove(legal, &rng, g.hoard)); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("views by phase %v; %d with the stock turned over, %d with an opponent's known cards; %d of %d games ended", phases, turned, known, ended, len(samplerGames))
	for _, ph := range phaseNames {
		if phases[ph] == 0 {
			t.Errorf("no view in phase %s", ph)
		}
	}
	if turned == 0 || known == 0 {
		t.Errorf("the views miss a case: %d with the stock turned over, %d with known cards", turned, known)
	}
}

// TestSamplerRefusesAsSample: NewSampler refuses a view exactly when
// Engine.Sample does, with Sample's error.
func TestSamplerRefusesAsSample(t *testing.T) {
	o, _ := game.ParseOptions("players=3")
	gs, _ := Engine{}.New(o)
	s := gs.(*State)
	r := game.NewRand(5)
	for s.ChancePending() {
		s.RollChance(&r)
	}
	bad := map[string]func(v *View){
		"hand sizes": func(v *View) { v.HandSizes[1]++ },
		"stock":      func(v *View) { v.Stock += 2 },
		"phase":      func(v *View) { v.Phase = "nap" },
		"table":      func(v *View) { v.Table[0] = 7 },
	}
	for name, spoil := range bad {
		v := s.View(0).(*View)
		spoil(v)
		r1 := game.NewRand(1)
		_, want := Engine{}.Sample(v, &r1)
		z, err := NewSampler(v)
		if want == nil || err == nil || err.Error() != want.Error() || z != nil {
			t.Errorf("%s: NewSampler gives %v, Sample %v", name, err, want)
		}
	}
}

// TestSamplerAllocations: once its buffers are warm, Sample allocates
// nothing, even though each sampled state's hand is played to its end (the
// history and the round scores grow into the buffers the Sampler keeps).
func TestSamplerAllocations(t *testing.T) {
	o, _ := game.ParseOptions("players=2")
	gs, _ := Engine{}.New(o)
	s := gs.(*State)
	r := game.NewRand(3)
	for s.ChancePending() {
		s.RollChance(&r)
	}
	var legal []game.Move
	for j := 0; j < 5; j++ {
		legal = s.Legal(game.Seat(s.toMove), legal[:0])
		if err := s.Apply(game.Seat(s.toMove), legal[r.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	z, err := NewSampler(s.View(game.Seat(s.toMove)).(*View))
	if err != nil {
		t.Fatal(err)
	}
	legal = make([]game.Move, 0, 512)
	playHand := func() {
		st := z.Sample(&r)
		for !st.Over() && !st.ChancePending() {
			p := game.Seat(st.toMove)
			legal = st.Legal(p, legal[:0])
			if err := st.Apply(p, legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := 0; i < 50; i++ {
		playHand()
	}
	if a := testing.AllocsPerRun(200, playHand); a > 0.05 {
		t.Errorf("a sample and its hand allocate %.2f times", a)
	}
}
