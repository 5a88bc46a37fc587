package pisyedili

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"cardroom/game"
)

// TestPlaysRecorded: the view tells who played each card of the pile (§4:
// the pile is public history), in which situation, the suit a jack named
// (§5), every hand size then and how many cards the player has received
// since (§10: the draws are public by count), the same for every seat;
// a reshuffle keeps the top card's record with the card (§10).
func TestPlaysRecorded(t *testing.T) {
	// A plays 9H on 6H; B plays JS naming D; C defends nothing, draws one
	// (9D) and plays it; D plays AD (§8: the others draw one each) and
	// then 5D onto its ace.
	s := build(t, pos{hands: []string{"9H 2C 3C", "JS 4C 4S", "5S 6S", "AD 5D 2S"}, stock: "9D 8S 7S 6C", pile: "6H"})
	do(t, s, 0, "play 9H")
	do(t, s, 1, "play JS D")
	do(t, s, 2, "draw")
	do(t, s, 2, "play 9D")
	do(t, s, 3, "play AD")
	do(t, s, 3, "play 5D")
	want := []Play{
		{Seat: -1, Kind: PlayUnknown, Sizes: []int{0, 0, 0, 0}}, // set up by hand: not recorded
		{Seat: 0, Kind: PlayNormal, Since: 1, Sizes: []int{3, 3, 2, 3}},
		{Seat: 1, Kind: PlayNormal, Suit: game.Diamonds, HasSuit: true, Since: 1, Sizes: []int{2, 3, 2, 3}},
		{Seat: 2, Kind: PlayAfterDraw, Since: 1, Sizes: []int{2, 2, 3, 3}},
		{Seat: 3, Kind: PlayNormal, Since: 0, Sizes: []int{2, 2, 2, 3}},
		{Seat: 3, Kind: PlayAceContinue, Since: 0, Sizes: []int{3, 3, 3, 2}},
	}
	for obs := game.Spectator; obs < 4; obs++ {
		v := s.View(obs).(*View)
		if !reflect.DeepEqual(v.Plays, want) {
			t.Fatalf("view of %d: plays\n%+v\nwant\n%+v", obs, v.Plays, want)
		}
	}
	// §8: a seven chain's defence is a chain play; §6: the opening round.
	s = build(t, pos{hands: []string{"2H", "7D 5S", "3C", "4C"}, stock: "9S 8S 5D 4D", pile: "7H", turn: 1, chain: ChainSeven, k: 1})
	do(t, s, 1, "play 7D")
	if pl := s.View(0).(*View).Plays[1]; pl.Seat != 1 || pl.Kind != PlayChain {
		t.Fatalf("§8: a 7 on a seven chain: %+v", pl)
	}
	s = build(t, pos{ph: PhaseOpening, open: 4, hands: []string{"JC 3D", "2C 9D", "3C 9D", "4C 9D"}, stock: "5H AC 3C"})
	do(t, s, 0, "play JC")
	if pl := s.View(1).(*View).Plays[0]; pl.Seat != 0 || pl.Kind != PlayOpening || pl.HasSuit {
		t.Fatalf("§6: a jack in the opening round names no suit: %+v", pl)
	}

	// §10: a reshuffle keeps the top card and its record. A plays 9H on
	// 6H; B draws from an empty stock: the pile under 9H is reshuffled.
	s = build(t, pos{hands: []string{"9H 2C 3C", "4H 4C", "5S 6S", "2S 3S"}, pile: "7S 6H"})
	do(t, s, 0, "play 9H")
	top := s.View(2).(*View).Plays[2]
	do(t, s, 1, "draw")
	if s.chance != ChanceShuffle {
		t.Fatal("want a reshuffle")
	}
	r := game.NewRand(1)
	s.RollChance(&r)
	v := s.View(2).(*View)
	if len(v.Pile) != 1 || !reflect.DeepEqual(v.Plays, []Play{top}) || top.Seat != 0 || top.Kind != PlayNormal {
		t.Fatalf("§10: after the reshuffle the pile is %v with plays %+v, want the top's record %+v", v.Pile, v.Plays, top)
	}

	// The JSON writes the same: "plays", parallel to "pile".
	js, _ := json.Marshal(s.View(2))
	var parsed struct {
		Pile  []string `json:"pile"`
		Plays []struct {
			Seat  int    `json:"seat"`
			Kind  string `json:"kind"`
			Suit  string `json:"suit"`
			Since int    `json:"since"`
			Sizes []int  `json:"sizes"`
		} `json:"plays"`
	}
	if err := json.Unmarshal(js, &parsed); err != nil || len(parsed.Plays) != len(parsed.Pile) || parsed.Plays[0].Seat != 0 ||
		parsed.Plays[0].Kind != "normal" || parsed.Plays[0].Suit != "" || !slices.Equal(parsed.Plays[0].Sizes, v.Plays[0].Sizes) {
		t.Fatalf("the JSON of the plays: %s", js)
	}
}

// TestPlaysMatchGame: in random games, the view's plays are what happened:
// the seat that played each pile card, the suit a jack named, the hand
// sizes before the play and the cards that seat has drawn since (counted
// here from the hand sizes, §10), the same in every seat's view and in the
// JSON; every hand size is public, so the plays tell nothing hidden.
func TestPlaysMatchGame(t *testing.T) {
	type rec struct {
		seat  game.Seat
		suit  int // 1+suit, 0 none
		sizes []int
		recv  int // the seat's received count at the play
	}
	checked := 0
	for ci, o := range propertyConfigs {
		st, _ := Engine{}.New(o)
		s := st.(*State)
		rng := game.NewRand(uint64(ci) + 31)
		recv := make([]int, s.n)
		var pile []rec // parallel to the state's pile
		var buf []game.Move
		for step := 0; !s.Over() && step < 3000; step++ {
			if step%7 == 0 && s.Playing() {
				var first []Play
				for obs := game.Spectator; int(obs) < s.n; obs++ {
					v := s.View(obs).(*View)
					if obs == game.Spectator {
						first = v.Plays
					} else if !reflect.DeepEqual(v.Plays, first) {
						t.Fatalf("%s step %d: seat %d's plays differ from the spectator's", o, step, obs)
					}
				}
				if len(first) != s.pileN || len(pile) != s.pileN {
					t.Fatalf("%s step %d: %d plays, %d tracked, pile %d", o, step, len(first), len(pile), s.pileN)
				}
				for i, pl := range first {
					w := pile[i]
					if pl.Seat != w.seat || pl.HasSuit != (w.suit > 0) || (w.suit > 0 && int(pl.Suit) != w.suit-1) ||
						!slices.Equal(pl.Sizes, w.sizes) || pl.Since != recv[w.seat]-w.recv {
						t.Fatalf("%s step %d: play %d is %+v, want %+v (received now %d)", o, step, i, pl, w, recv[w.seat])
					}
					checked++
				}
			}
			before := make([]int, s.n)
			copy(before, s.hn[:s.n])
			if s.ChancePending() {
				s.RollChance(&rng)
			} else {
				p := game.Seat(s.turn)
				buf = s.Legal(p, buf[:0])
				m := buf[rng.IntN(len(buf))]
				if m.Op == OpPlay {
					pile = append(pile, rec{seat: p, sizes: slices.Clone(before), recv: recv[p]})
					if m.Card.Rank() == game.Jack && m.Card != game.Joker && m.A > 0 {
						pile[len(pile)-1].suit = int(m.A)
					}
				}
				if err := s.Apply(p, m); err != nil {
					t.Fatal(err)
				}
				if m.Op == OpPlay {
					before[p]--
				}
			}
			for q := 0; q < s.n; q++ {
				if s.Playing() && s.hn[q] > before[q] {
					recv[q] += s.hn[q] - before[q]
				}
			}
			switch {
			case !s.Playing():
				pile = pile[:0]
			case s.pileN == 1 && len(pile) > 1: // a reshuffle: the top stays
				pile = append(pile[:0], pile[len(pile)-1])
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d plays checked", checked)
	}
}

// TestSampleIgnoresPlays: the plays are evidence about a policy, not the
// rules: Engine.Sample (and a Sampler without Suppose) deal exactly the
// same states with and without them (§4: every hand the rules allow),
// while the sampled state keeps them, so that its view is the view.
func TestSampleIgnoresPlays(t *testing.T) {
	n := 0
	goldenGame(t, game.Options{"players": "4"}, 3, func(s *State, step int) bool {
		if step%9 != 0 || !s.Playing() || s.pileN < 3 {
			return true
		}
		v := s.View(game.Seat(s.turn)).(*View)
		bare := *v
		bare.Plays = nil
		r1, r2 := game.NewRand(uint64(step)), game.NewRand(uint64(step))
		a, err1 := Engine{}.Sample(v, &r1)
		b, err2 := Engine{}.Sample(&bare, &r2)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		x, y := a.(*State), b.(*State)
		if x.h1 != y.h1 || x.h2 != y.h2 || x.stock != y.stock {
			t.Fatalf("step %d: the plays changed the deal", step)
		}
		if !reflect.DeepEqual(a.View(v.Seat).(*View).Plays, v.Plays) {
			t.Fatalf("step %d: the sample's view lost the plays", step)
		}
		n++
		return n < 60
	})
	if n < 20 {
		t.Fatalf("only %d positions", n)
	}
}

// TestSupposeNeverImpossible: a Sampler told by Suppose that a seat holds
// none of the whole deck (evidence that no deal can meet: the bot's model
// of that player is wrong) still deals a state the view allows: every hand
// of its size, every card once (§1, §3); a satisfiable void is met.
func TestSupposeNeverImpossible(t *testing.T) {
	var s *State
	goldenGame(t, game.Options{"players": "4"}, 3, func(st *State, step int) bool {
		if st.Playing() && st.ph == PhaseNormal && st.pileN > 4 && !st.ChancePending() {
			s = st.Clone().(*State)
			return false
		}
		return true
	})
	v := s.View(0).(*View)
	hearts := suitMask[game.Hearts]
	for _, impossible := range []bool{true, false} {
		z, err := NewSampler(v)
		if err != nil {
			t.Fatal(err)
		}
		if impossible {
			z.Suppose(1, deckBits, 0)
		} else {
			z.Suppose(1, hearts, 0)
		}
		z.UseEvidence(1)
		r := game.NewRand(5)
		for k := 0; k < 50; k++ {
			d := z.Sample(&r)
			var all [53]int
			total := d.stockN + d.pileN
			for i := 0; i < d.stockN; i++ {
				all[idx(d.stock[i])]++
			}
			for i := 0; i < d.pileN; i++ {
				all[idx(d.pile[i])]++
			}
			for q := 0; q < d.n; q++ {
				if msCount(d.h1[q], d.h2[q], deckBits) != v.HandSizes[q] {
					t.Fatalf("impossible=%v: seat %d holds %d cards, want %d", impossible, q, msCount(d.h1[q], d.h2[q], deckBits), v.HandSizes[q])
				}
				Cards{Once: d.h1[q], Twice: d.h2[q]}.count(&all)
				total += v.HandSizes[q]
			}
			for i, c := range all {
				if c > 2 {
					t.Fatalf("impossible=%v: %s dealt %d times", impossible, faceName[i], c)
				}
			}
			if total != d.total {
				t.Fatalf("impossible=%v: %d cards, want %d", impossible, total, d.total)
			}
			if !impossible && msCount(d.h1[1], d.h2[1], hearts) != 0 {
				t.Fatalf("seat 1 was dealt hearts against a satisfiable void: %v", Cards{Once: d.h1[1], Twice: d.h2[1]})
			}
		}
	}
}

// FuzzSamplePlays: a view whose plays are spoilt by fuzzed bytes is read
// by Engine.Sample and NewSampler alike (both refuse it or both accept
// it), never panics, and when accepted comes back in the sample's view as
// it was (the plays round-trip through the state); a Sampler given
// fuzzed Suppose voids still deals every hidden hand its size.
func FuzzSamplePlays(f *testing.F) {
	f.Add(uint64(1), []byte{0, 1, 2, 3})
	f.Add(uint64(4), []byte{255, 7, 200, 1, 9, 0})
	f.Fuzz(func(t *testing.T, seed uint64, bs []byte) {
		var v *View
		goldenGame(t, game.Options{"players": "4"}, seed%8, func(s *State, step int) bool {
			if s.Playing() && !s.ChancePending() && s.pileN > 2 && step > int(seed%40) {
				v = s.View(game.Seat(s.turn)).(*View)
				return false
			}
			return true
		})
		if v == nil {
			return
		}
		for k := 0; k+1 < len(bs); k += 2 {
			i, b := int(bs[k])%len(v.Plays), bs[k+1]
			pl := &v.Plays[i]
			switch b % 6 {
			case 0:
				pl.Seat = game.Seat(int(b/6)%7 - 1)
			case 1:
				pl.Kind = PlayKind(b / 6 % 8)
			case 2:
				pl.Since = int(b/6) - 3
			case 3:
				sizes := make([]int, int(b/6)%6)
				for q := range sizes {
					sizes[q] = int(b) - 100
					if q < len(pl.Sizes) {
						sizes[q] = pl.Sizes[q] + int(b%3)
					}
				}
				pl.Sizes = sizes
			case 4:
				pl.Suit, pl.HasSuit = game.Suit(b/6%6), b&64 != 0
			case 5:
				v.Plays = v.Plays[:int(b)%(len(v.Plays)+1)]
			}
			if len(v.Plays) == 0 {
				break
			}
		}
		r := game.NewRand(seed)
		st, err := Engine{}.Sample(v, &r)
		z, err2 := NewSampler(v)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("Sample: %v, NewSampler: %v", err, err2)
		}
		if err != nil {
			return
		}
		if got := st.View(v.Seat).(*View).Plays; len(v.Plays) > 0 && !reflect.DeepEqual(got, v.Plays) {
			t.Fatalf("the plays did not round-trip:\n got %+v\nwant %+v", got, v.Plays)
		}
		for k, b := range bs {
			z.Suppose(game.Seat(int(b)%6-1), game.Mask(uint64(b)*0x9e3779b97f4a7c15), k%3)
		}
		z.UseEvidence(1)
		d := z.Sample(&r)
		for q := 0; q < d.n; q++ {
			if msCount(d.h1[q], d.h2[q], deckBits) != v.HandSizes[q] {
				t.Fatalf("seat %d holds %d cards, want %d", q, msCount(d.h1[q], d.h2[q], deckBits), v.HandSizes[q])
			}
		}
	})
}
