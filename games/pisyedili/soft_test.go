package pisyedili

import (
	"encoding/json"
	"reflect"
	"testing"

	"cardroom/game"
)

// hardVoids is the voids of vs the rules made (not the soft ones).
func hardVoids(vs []Void) []Void {
	var out []Void
	for _, v := range vs {
		if !v.Why.Soft() {
			out = append(out, v)
		}
	}
	return out
}

// softOf is the soft voids of seat p in v.
func softOf(v *View, p game.Seat) []Void {
	var out []Void
	for _, vd := range v.Shown {
		if vd.Seat == p && vd.Why.Soft() {
			out = append(out, vd)
		}
	}
	return out
}

// matchFaces is the faces playable on top card c by §5 (jacks and the
// joker wild), as a mask.
func matchFaces(c game.Card) game.Mask {
	return suitMask[c.Suit()] | rankMask[c.Rank()] | jackMask | jokerBit
}

// TestSoftVoids: the engine records, as public facts, what a voluntary
// choice shows of a hand that is played as the rule-based bots play it: a
// voluntary draw (§7; §6 with special clubs in hand), a penalty taken
// (§8 chain rules), an end after an ace (§8 ace continuation).
func TestSoftVoids(t *testing.T) {
	// §7 / §15.9: A holds 6D, playable on 6S, and draws: it "held none of"
	// the faces that match 6S (which is false: it does not play as the bots
	// do, and the void is soft). The drawn card counts in Since; a pass
	// renews the fact (the drawn card did not match either).
	s := build(t, pos{hands: []string{"6D 3C", "6H 9C", "2H 9C", "2D 9C"}, stock: "2H 9S", pile: "6S"})
	do(t, s, 0, "draw")
	for obs := game.Spectator; obs < 4; obs++ {
		got := softOf(s.View(obs).(*View), 0)
		if len(got) != 1 || got[0].Why != VoidDrew || got[0].Lacks != matchFaces(card(t, "6S")) || got[0].Since != 1 {
			t.Fatalf("§7: after A's voluntary draw the view of %d shows %+v", obs, got)
		}
	}
	do(t, s, 0, "pass")
	got := softOf(s.View(2).(*View), 0)
	if len(got) != 1 || got[0].Why != VoidDrew || got[0].Since != 0 {
		t.Fatalf("§7: a pass after the draw renews the void (since 0): %+v", got)
	}
	if len(hardVoids(s.View(2).(*View).Shown)) != 0 {
		t.Fatalf("§7: a voluntary draw makes no hard void")
	}
	// B, C, D play; A plays its 6D: the soft void was false, and it is
	// dropped (A had received no card since).
	do(t, s, 1, "play 6H")
	do(t, s, 2, "play 2H")
	do(t, s, 3, "play 2D")
	do(t, s, 0, "play 6D")
	if got := softOf(s.View(1).(*View), 0); len(got) != 0 {
		t.Fatalf("a play that belies a soft void drops it: %+v", got)
	}

	// §7: the drawn card is played: the fact is renewed too.
	s = build(t, pos{hands: []string{"4D 3C", "2S", "2D", "2C"}, stock: "9S 2H", pile: "6S"})
	do(t, s, 0, "draw")
	do(t, s, 0, "play 9S")
	if got := softOf(s.View(1).(*View), 0); len(got) != 1 || got[0].Since != 0 || got[0].Lacks != matchFaces(card(t, "6S")) {
		t.Fatalf("§7: after playing the drawn card: %+v", got)
	}

	// §6: in the opening round A holds only a special club (7C) and draws:
	// hard, no plain club; soft, no special club either.
	s = build(t, pos{ph: PhaseOpening, open: 4, hands: []string{"7C JH 3D", "2C 9D", "3C 9D", "4C 9D"}, stock: "5H AC 3C"})
	do(t, s, 0, "draw")
	v := s.View(1).(*View)
	if h := hardVoids(v.Shown); len(h) != 1 || h[0].Why != VoidOpeningDraw || h[0].Lacks != plainClubs {
		t.Fatalf("§6: the hard void of an opening draw: %+v", h)
	}
	if got := softOf(v, 0); len(got) != 1 || got[0].Why != VoidDrew || (Cards{Once: got[0].Lacks}).String() != "AC 7C 8C 10C JC" || got[0].Since != 1 {
		t.Fatalf("§6: the soft void of an opening draw with a special club: %+v", got)
	}

	// §8 chain rules: B takes a seven chain's penalty (3 cards) although
	// it holds 7D: soft void of every 7, since 3.
	s = build(t, pos{hands: []string{"2H", "7D 5S", "3C", "4C"}, stock: "9S 8S 5D 4D", pile: "7H", turn: 1, chain: ChainSeven, k: 1})
	do(t, s, 1, "penalty")
	got = softOf(s.View(0).(*View), 1)
	if len(got) != 1 || got[0].Why != VoidTookPenalty || got[0].Lacks != rankMask[7] || got[0].Since != 3 {
		t.Fatalf("§8: a seven chain's penalty taken: %+v", got)
	}
	// A joker chain: the jokers.
	s = build(t, pos{hands: []string{"2H", "JK 5S", "3C", "4C"}, stock: "2S 3S 4S 5S 6S 8S 9S 10S QS KS AS", pile: "5H JK", turn: 1, chain: ChainJoker, k: 1})
	do(t, s, 1, "penalty")
	if got := softOf(s.View(0).(*View), 1); len(got) != 1 || got[0].Why != VoidTookPenalty || got[0].Lacks != jokerBit || got[0].Since != 10 {
		t.Fatalf("§8: a joker chain's penalty taken: %+v", got)
	}

	// §8 ace continuation: A plays AH, B, C, D draw, A ends its turn
	// although it holds 5H: soft void of what matches AH.
	s = build(t, pos{hands: []string{"AH 5H 2C", "3S", "3D", "4D"}, stock: "9S 8S 7S 6S", pile: "4H"})
	do(t, s, 0, "play AH")
	do(t, s, 0, "end")
	got = softOf(s.View(3).(*View), 0)
	if len(got) != 1 || got[0].Why != VoidEnded || got[0].Lacks != matchFaces(card(t, "AH")) || got[0].Since != 0 {
		t.Fatalf("§8: an end after an ace: %+v", got)
	}

	// The JSON names the new kinds (voidNames), the old field names stay.
	js, _ := json.Marshal(s.View(3))
	var parsed struct {
		Shown []struct {
			Seat  int      `json:"seat"`
			Why   string   `json:"why"`
			Lacks []string `json:"lacks"`
			Since int      `json:"since"`
		} `json:"shown"`
	}
	if err := json.Unmarshal(js, &parsed); err != nil || len(parsed.Shown) != 1 || parsed.Shown[0].Why != "ended" || len(parsed.Shown[0].Lacks) != 13+3+3+1 {
		t.Fatalf("the JSON of a soft void: %s", js)
	}
}

// TestSoftVoidsPublic: a soft void tells nothing a seat did not see. A
// draws a playable card (9S on 6S) in one game and an unplayable one (2H)
// in the other; every other seat's view (and the spectator's) is the same
// byte for byte, after the draw and after A's pass (§4: the stock and the
// drawn card are hidden; §7).
func TestSoftVoidsPublic(t *testing.T) {
	a := build(t, pos{hands: []string{"4D 3C", "2S", "2D", "2C"}, stock: "9S 2H", pile: "6S"})
	b := build(t, pos{hands: []string{"4D 3C", "2S", "2D", "2C"}, stock: "2H 9S", pile: "6S"})
	same := func(when string) {
		t.Helper()
		for obs := game.Spectator; obs < 4; obs++ {
			if obs == 0 {
				continue
			}
			ja, _ := json.Marshal(a.View(obs))
			jb, _ := json.Marshal(b.View(obs))
			if string(ja) != string(jb) {
				t.Fatalf("%s: the view of %d tells the drawn card:\n%s\n%s", when, obs, ja, jb)
			}
			if a.View(obs).String() != b.View(obs).String() {
				t.Fatalf("%s: the text view of %d tells the drawn card", when, obs)
			}
		}
		if len(softOf(a.View(1).(*View), 0)) != 1 {
			t.Fatalf("%s: no soft void to compare", when)
		}
	}
	do(t, a, 0, "draw")
	do(t, b, 0, "draw")
	same("after the draw")
	do(t, a, 0, "pass") // A keeps the playable 9S
	do(t, b, 0, "pass")
	same("after the pass")
}

// softPosition plays a seeded random game (uniform moves, so voluntary
// draws with a playable card happen) until a seat other than obs has a
// soft drew void with Since 0 that its true hand belies, and enough
// hidden cards that uniform deals often break it. It returns the state.
func softPosition(t *testing.T, seed uint64, obs game.Seat) (*State, game.Seat, Void) {
	t.Helper()
	st, _ := Engine{}.New(game.Options{"players": "4"})
	s := st.(*State)
	r := game.NewRand(seed)
	var buf []game.Move
	for step := 0; step < 20000 && !s.Over(); step++ {
		if s.ChancePending() {
			s.RollChance(&r)
			continue
		}
		if s.turn != int(obs) && s.ph == PhaseNormal {
			v := s.View(obs).(*View)
			for _, vd := range softOf(v, game.Seat(s.turn)) {
				p := int(vd.Seat)
				if vd.Why == VoidDrew && vd.Since == 0 && msCount(s.h1[p], s.h2[p], vd.Lacks) > 0 && s.hn[p] >= 5 {
					return s, vd.Seat, vd
				}
			}
		}
		buf = s.Legal(game.Seat(s.turn), buf[:0])
		if err := s.Apply(game.Seat(s.turn), buf[r.IntN(len(buf))]); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("no position with a belied soft void")
	return nil, 0, Void{}
}

// TestSampleIgnoresSoftVoids: Engine.Sample deals every layout the rules
// allow, so a seat whose soft void is false (it drew holding a playable
// card, as §7 allows) is dealt such hands too; a Sampler with
// UseEvidence(1) keeps the soft void, with 0.5 about half the time.
func TestSampleIgnoresSoftVoids(t *testing.T) {
	const n = 400
	const obs = game.Seat(0)
	for _, seed := range []uint64{1, 2, 3} {
		s, q, vd := softPosition(t, seed, obs)
		v := s.View(obs).(*View)
		breaks := func(gs *State) bool { return msCount(gs.h1[q], gs.h2[q], vd.Lacks) > vd.Since }
		r := game.NewRand(seed + 10)
		uniform := 0
		for i := 0; i < n; i++ {
			gst, err := Engine{}.Sample(v, &r)
			if err != nil {
				t.Fatal(err)
			}
			if breaks(gst.(*State)) {
				uniform++
			}
		}
		count := func(p float64) int {
			z, err := NewSampler(v)
			if err != nil {
				t.Fatal(err)
			}
			z.UseEvidence(p)
			k := 0
			for i := 0; i < n; i++ {
				gs := z.Sample(&r)
				if breaks(gs) {
					k++
				}
				if i < 20 {
					if !reflect.DeepEqual(gs.View(obs), v) {
						t.Fatalf("seed %d: a determinization with evidence does not fit the view", seed)
					}
					if err := conserved(gs); err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					if err := voidsHold(gs); err != nil {
						t.Fatalf("seed %d: evidence broke a hard void: %v", seed, err)
					}
				}
			}
			return k
		}
		all, half := count(1), count(0.5)
		t.Logf("seed %d: seat %d void %s (%d faces), hand %d: breaks it in %d/%d uniform deals, %d with evidence, %d with p = 0.5",
			seed, q, vd.Why, vd.Lacks.Count(), s.hn[q], uniform, n, all, half)
		if uniform < n/4 {
			t.Fatalf("seed %d: Engine.Sample broke the soft void in only %d of %d deals: it must ignore it", seed, uniform, n)
		}
		if all != 0 {
			t.Fatalf("seed %d: with evidence the void was broken %d times", seed, all)
		}
		if half < uniform/4 || half > uniform*3/4 {
			t.Fatalf("seed %d: with p = 0.5 the void was broken %d times (uniform %d)", seed, half, uniform)
		}
	}
}

// TestEvidenceSamplesFit: at random positions of random games, the
// evidence sampler's determinizations fit the view (their view is the
// view), conserve the cards, keep the hard voids and the stock pool, and
// keep the soft voids whenever they can be kept together.
func TestEvidenceSamplesFit(t *testing.T) {
	soft, kept := 0, 0
	for ci, o := range propertyConfigs {
		st, _ := Engine{}.New(o)
		s := st.(*State)
		rng := game.NewRand(uint64(ci) + 7)
		sr := game.NewRand(uint64(ci) + 77)
		var buf []game.Move
		for step := 0; !s.Over() && step < 3000; step++ {
			if step%7 == 0 && s.Playing() {
				for obs := game.Seat(0); int(obs) < s.n; obs++ {
					v := s.View(obs).(*View)
					z, err := NewSampler(v)
					if err != nil {
						t.Fatal(err)
					}
					z.UseEvidence(1)
					gs := z.Sample(&sr)
					if !reflect.DeepEqual(gs.View(obs), v) {
						a, _ := json.Marshal(gs.View(obs))
						b, _ := json.Marshal(v)
						t.Fatalf("%s step %d observer %d: view differs\n got %s\nwant %s", o, step, obs, a, b)
					}
					if err := conserved(gs); err != nil {
						t.Fatalf("%s step %d: %v", o, step, err)
					}
					if err := voidsHold(gs); err != nil {
						t.Fatalf("%s step %d: %v", o, step, err)
					}
					for _, c := range gs.stock[:gs.stockN] {
						if !gs.pool1.Has(idx(c)) {
							t.Fatalf("%s step %d: stock card %v outside the pool", o, step, c)
						}
					}
					for _, vd := range v.Shown {
						if vd.Why.Soft() && vd.Seat != obs {
							soft++
							if msCount(gs.h1[vd.Seat], gs.h2[vd.Seat], vd.Lacks) <= vd.Since {
								kept++
							}
						}
					}
				}
			}
			if s.ChancePending() {
				s.RollChance(&rng)
				continue
			}
			buf = s.Legal(game.Seat(s.turn), buf[:0])
			m := playFirst(buf, &rng) // draws only when nothing else is legal
			if err := s.Apply(game.Seat(s.turn), m); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d of %d soft voids kept", kept, soft)
	if soft < 100 || kept*100 < soft*95 {
		t.Fatalf("%d of %d soft voids kept, want at least 95%%", kept, soft)
	}
}
