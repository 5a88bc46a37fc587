package bot

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"testing"

	"cardroom/game"
	"cardroom/games"
	"cardroom/games/papayoo"
	"cardroom/games/pisyedili"
	"cardroom/games/rum500"
)

// engines are the games the bots are tested on: the registry's, plus any
// engine not registered yet.
func engines() []game.Engine {
	all := games.All()
	for _, e := range []game.Engine{papayoo.Engine{}, rum500.Engine{}, pisyedili.Engine{}} {
		if _, err := games.Lookup(e.Name()); err != nil {
			all = append(all, e)
		}
	}
	return all
}

func lookup(name string) (game.Engine, error) {
	for _, e := range engines() {
		if e.Name() == name {
			return e, nil
		}
	}
	return games.Lookup(name)
}

// detConfigs are the games and options the determinization tests play.
var detConfigs = []struct {
	game string
	opts string
}{
	{"papayoo", "players=4 rounds=2"},
	{"papayoo", "players=3 rounds=1"},
	{"papayoo", "players=7 rounds=1"},
	{"rum500", "players=2 target=150"},
	{"rum500", "players=4 target=150"},
	{"pisyedili", "players=4 hands=1"},
	{"pisyedili", "players=3 hands=1"},
}

func sortedTexts(st game.State, ms []game.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = st.FormatMove(m)
	}
	sort.Strings(out)
	return out
}

// TestDeterminization plays random games of every registered engine and, at
// many positions, samples full states from each seat's view and checks that
// every sample agrees with the view: the sample's view for the observer
// deep-equals the view (same own hand, public cards, hand sizes, voids,
// passes, die, chains, scores), the observer's legal moves are the same, the
// sample plays on to the end of the round, and engine-specific invariants
// hold (Papayoo: shown voids respected, no card in two places, the cards
// the observer passed are in the left neighbour's hand unless played).
func TestDeterminization(t *testing.T) {
	for _, c := range detConfigs {
		e, err := lookup(c.game)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(c.game+"/"+c.opts, func(t *testing.T) {
			o, _ := game.ParseOptions(c.opts)
			for g := 0; g < 3; g++ {
				checkDeterminizationGame(t, e, o, uint64(100+g))
			}
		})
	}
}

func checkDeterminizationGame(t *testing.T, e game.Engine, o game.Options, seed uint64) {
	st, err := e.New(o)
	if err != nil {
		t.Fatalf("New(%v): %v", o, err)
	}
	rng := game.NewRand(seed)
	srng := game.NewRand(seed ^ 0xabcdef)
	var buf []game.Move
	var seats []game.Seat
	checked := 0
	for step := 0; step < 3000 && !st.Over(); step++ {
		if st.ChancePending() {
			st.RollChance(&rng)
			continue
		}
		seats = st.ToAct(seats[:0])
		if (step < 150 && step%3 == 0) || step%25 == 0 {
			for s := 0; s < st.Seats(); s++ {
				checkSamples(t, e, st, game.Seat(s), &srng, step)
				checked++
			}
		}
		s := seats[0]
		buf = st.Legal(s, buf[:0])
		// Avoid endless voluntary draws: prefer anything but "draw" late in a game.
		m := buf[rng.IntN(len(buf))]
		if step > 600 {
			for _, x := range buf {
				if t := st.FormatMove(x); t != "draw" {
					m = x
					break
				}
			}
		}
		if err := st.Apply(s, m); err != nil {
			t.Fatalf("step %d: apply %s: %v", step, st.FormatMove(m), err)
		}
	}
	if checked == 0 {
		t.Fatalf("no position checked")
	}
}

func checkSamples(t *testing.T, e game.Engine, st game.State, obs game.Seat, r *game.Rand, step int) {
	t.Helper()
	v := st.View(obs)
	wantMoves := st.Legal(obs, nil)
	var want []string
	if len(wantMoves) <= 200 { // a pass has thousands: compare counts only
		want = sortedTexts(st, wantMoves)
	}
	for k := 0; k < 4; k++ {
		smp, err := e.Sample(v, r)
		if err != nil {
			t.Fatalf("step %d seat %d: Sample: %v\nview:\n%s", step, obs, err, v)
		}
		if got := smp.View(obs); !reflect.DeepEqual(got, v) {
			gj, _ := json.Marshal(got)
			vj, _ := json.Marshal(v)
			t.Fatalf("step %d seat %d: the sample's view differs from the view:\nview:   %s\nsample: %s", step, obs, vj, gj)
		}
		if gotMoves := smp.Legal(obs, nil); len(gotMoves) != len(wantMoves) {
			t.Fatalf("step %d seat %d: %d legal moves in the sample, %d in the game", step, obs, len(gotMoves), len(wantMoves))
		} else if want != nil {
			if got := sortedTexts(smp, gotMoves); !reflect.DeepEqual(got, want) {
				t.Fatalf("step %d seat %d: legal moves in the sample %v, in the game %v", step, obs, got, want)
			}
		}
		switch sv := v.(type) {
		case *papayoo.View:
			checkPapayooSample(t, smp.(*papayoo.State), sv, obs, step)
		case *rum500.View:
			checkRumSample(t, smp, sv, step)
		case *pisyedili.View:
			checkPisSample(t, smp, sv, step)
		}
		if k > 0 {
			continue
		}
		// The sample is a real game: it plays on to the end of the round.
		cl := smp.Clone()
		rounds := len(cl.Result().Rounds)
		var buf []game.Move
		var seats []game.Seat
		for i := 0; i < 400 && !cl.Over() && len(cl.Result().Rounds) == rounds; i++ {
			if cl.ChancePending() {
				cl.RollChance(r)
				continue
			}
			seats = cl.ToAct(seats[:0])
			if len(seats) == 0 {
				t.Fatalf("step %d seat %d: sample stuck: nobody to act", step, obs)
			}
			buf = cl.Legal(seats[0], buf[:0])
			if len(buf) == 0 {
				t.Fatalf("step %d seat %d: sample stuck: seat %d to act has no move", step, obs, seats[0])
			}
			if err := cl.Apply(seats[0], buf[r.IntN(len(buf))]); err != nil {
				t.Fatalf("step %d seat %d: playing on from the sample: %v", step, obs, err)
			}
		}
	}
}

func checkPapayooSample(t *testing.T, ps *papayoo.State, v *papayoo.View, obs game.Seat, step int) {
	t.Helper()
	n := ps.Seats()
	var union game.Mask
	for s := 0; s < n; s++ {
		h := ps.Hand(s)
		if union&h != 0 {
			t.Fatalf("step %d seat %d: card(s) %s in two hands", step, obs, (union & h).Format(papayoo.Deck))
		}
		union |= h
		for su := game.Spades; su <= papayoo.Payoo; su++ {
			if !v.Voids[s].Has(su) {
				continue
			}
			if x := h & papayoo.SuitMask(int(su)); x != 0 {
				t.Fatalf("step %d seat %d: seat %d showed a void in %s but holds %s", step, obs, s, su, x.Format(papayoo.Deck))
			}
		}
		if c := h.Count(); c != v.HandSizes[s] {
			t.Fatalf("step %d seat %d: seat %d holds %d cards, the view says %d", step, obs, s, c, v.HandSizes[s])
		}
	}
	var played game.Mask
	for _, tr := range v.Tricks {
		played |= maskOf(tr.Cards)
	}
	played |= maskOf(v.Trick.Cards)
	if union&played != 0 {
		t.Fatalf("step %d seat %d: played card(s) %s still in a hand", step, obs, (union & played).Format(papayoo.Deck))
	}
	if all := papayoo.DeckFor(n); v.Phase == papayoo.PhasePlay && union|played != all {
		t.Fatalf("step %d seat %d: hands and played cards do not make the deck: missing %s", step, obs, (all &^ (union | played)).Format(papayoo.Deck))
	}
	if v.Phase == papayoo.PhasePlay && v.MyPass != 0 {
		left := int(game.Next(obs, n))
		if x := v.MyPass &^ played &^ ps.Hand(left); x != 0 {
			t.Fatalf("step %d seat %d: passed card(s) %s not in the left neighbour's hand", step, obs, x.Format(papayoo.Deck))
		}
	}
}

func maskOf(cs []game.Card) game.Mask {
	m := game.MaskOf(papayoo.Deck, cs...)
	if m.Count() != len(cs) {
		panic(fmt.Sprintf("bad or repeated cards %v", cs))
	}
	return m
}

// TestSampleHidesTruth checks that determinizations vary: from the first
// trick of a Papayoo round, the opponents' hands are not always the true
// ones (a sampler that leaked the true state would fail).
func TestSampleHidesTruth(t *testing.T) {
	e := papayoo.Engine{}
	st, _ := e.New(game.Options{"players": "4", "rounds": "1"})
	r := game.NewRand(7)
	for st.(*papayoo.State).Turn() < 0 {
		if st.ChancePending() {
			st.RollChance(&r)
			continue
		}
		s := st.ToAct(nil)[0]
		if err := st.Apply(s, st.Legal(s, nil)[0]); err != nil {
			t.Fatal(err)
		}
	}
	v := st.View(0)
	same := 0
	for k := 0; k < 20; k++ {
		smp, err := e.Sample(v, &r)
		if err != nil {
			t.Fatal(err)
		}
		if smp.(*papayoo.State).Hand(2) == st.(*papayoo.State).Hand(2) {
			same++
		}
	}
	if same == 20 {
		t.Fatalf("20 samples all reproduced seat 2's true hand")
	}
}

// checkRumSample: every seat's hand in the sample (as its own view shows it)
// has the size the observer's view gives and holds the cards the seat is
// known to hold; no card is in more places than there are decks.
func checkRumSample(t *testing.T, smp game.State, v *rum500.View, step int) {
	t.Helper()
	all := map[game.Card]int{}
	for _, c := range v.Pile {
		all[c]++
	}
	for _, md := range v.Melds {
		for _, c := range md.Cards(nil) {
			all[c]++
		}
	}
	for k := 0; k < v.Players; k++ {
		hv := smp.View(game.Seat(k)).(*rum500.View)
		hand := hv.Hand.Cards(nil)
		if len(hand) != v.HandSizes[k] {
			t.Fatalf("step %d seat %d: seat %d holds %d cards, the view says %d", step, v.Seat, k, len(hand), v.HandSizes[k])
		}
		h := map[game.Card]int{}
		for _, c := range hand {
			h[c]++
		}
		for _, c := range v.Known[k].Cards(nil) {
			if h[c] == 0 {
				t.Fatalf("step %d seat %d: seat %d is known to hold %s but the sample gave it %s", step, v.Seat, k, game.Standard.Format(c), game.Standard.FormatList(hand))
			}
			h[c]--
		}
		for _, c := range hand {
			all[c]++
		}
	}
	decks := 1
	if v.Players > 4 {
		decks = 2
	}
	for c, n := range all {
		if n > decks {
			t.Fatalf("step %d seat %d: %s is in %d places", step, v.Seat, game.Standard.Format(c), n)
		}
	}
}

// checkPisSample: hand sizes as in the view, hands + pile + stock = the
// deck, and no face in more places than its two copies.
func checkPisSample(t *testing.T, smp game.State, v *pisyedili.View, step int) {
	t.Helper()
	all := map[game.Card]int{}
	for _, c := range v.Pile {
		all[c]++
	}
	total := len(v.Pile) + v.StockSize
	for k := 0; k < v.Players; k++ {
		hv := smp.View(game.Seat(k)).(*pisyedili.View)
		if hv.Hand.Len() != v.HandSizes[k] {
			t.Fatalf("step %d seat %d: seat %d holds %d cards, the view says %d", step, v.Seat, k, hv.Hand.Len(), v.HandSizes[k])
		}
		for _, c := range hv.Hand.List(nil) {
			all[c]++
		}
		total += hv.Hand.Len()
	}
	deck := 104
	if v.Options.Bool("jokers") {
		deck = 106
	}
	if total != deck {
		t.Fatalf("step %d seat %d: hands, pile and stock hold %d cards, want %d", step, v.Seat, total, deck)
	}
	for c, n := range all {
		if n > 2 {
			t.Fatalf("step %d seat %d: %s is in %d places", step, v.Seat, game.Standard.Format(c), n)
		}
	}
}
