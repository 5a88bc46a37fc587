package pisyedili

import (
	"errors"
	"fmt"

	"cardroom/game"
)

// sampleTries bounds the rejection sampling of Sample.
const sampleTries = 1000

func sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func lookup(names []string, s, what string) (int, error) {
	for i, n := range names {
		if n == s {
			return i, nil
		}
	}
	return 0, fmt.Errorf("pisyedili: view: unknown %s %q", what, s)
}

func parseCards(list []string, m1, m2 *game.Mask, counts *[53]int) error {
	for _, t := range list {
		c, err := game.Standard.Parse(t)
		if err != nil {
			return fmt.Errorf("pisyedili: view: %w", err)
		}
		i := idx(c)
		if m1 != nil {
			msAdd(m1, m2, i)
		}
		if counts != nil {
			counts[i]++
		}
	}
	return nil
}

func parseCard(t string) (game.Card, error) {
	if t == "" {
		return game.NoCard, nil
	}
	c, err := game.Standard.Parse(t)
	if err != nil {
		return game.NoCard, fmt.Errorf("pisyedili: view: %w", err)
	}
	return c, nil
}

func (s *State) resultFrom(h *HandResult) (result, error) {
	r := result{finisher: int8(h.Finisher), mult: h.Multiplier}
	c, err := parseCard(h.Card)
	if err != nil {
		return r, err
	}
	r.card = c
	if len(h.EndDraws) != s.n || (h.Hands != nil && len(h.Hands) != s.n) || (h.Points != nil && len(h.Points) != s.n) {
		return r, errors.New("pisyedili: view: a hand result has the wrong number of seats")
	}
	for p := 0; p < s.n; p++ {
		if err := parseCards(h.EndDraws[p], &r.drawn1[p], &r.drawn2[p], nil); err != nil {
			return r, err
		}
		if h.Hands != nil {
			if err := parseCards(h.Hands[p], &r.final1[p], &r.final2[p], nil); err != nil {
				return r, err
			}
		}
		if h.Points != nil {
			r.points[p] = h.Points[p]
		}
	}
	return r, nil
}

// Sample implements game.Engine: it deals the cards the observer cannot see
// (the other hands and the stock order) uniformly among the layouts that fit
// the view: the observer's hand, the discard pile, the revealed hands of an
// ending hand, the hand sizes, and the stock pool (after a reshuffle the
// stock can only hold cards that were reshuffled into it), and the shown
// voids (a player who drew in the opening round held no plain club, a forced
// pass shows no playable card: the player holds at most as many of those
// cards as it has received since). The voids are met by rejection, exact
// when one of sampleTries deals fits; otherwise the last deal is kept.
func (Engine) Sample(gv game.View, r *game.Rand) (game.State, error) {
	var v *View
	switch x := gv.(type) {
	case *View:
		v = x
	default:
		return nil, fmt.Errorf("pisyedili: Sample: not a Pis Yedili view (%T)", gv)
	}
	norm, cfg, err := parseOptions(v.Options)
	if err != nil {
		return nil, err
	}
	s := &State{}
	s.init(norm, cfg)
	if v.Players != s.n || len(v.HandSizes) != s.n || len(v.Totals) != s.n {
		return nil, errors.New("pisyedili: Sample: the view's seat counts disagree with its options")
	}
	obs := int(v.Seat)
	if obs < -1 || obs >= s.n {
		return nil, fmt.Errorf("pisyedili: Sample: bad observer %d", obs)
	}
	ph, err := lookup(phaseNames[:], v.Phase, "phase")
	if err != nil {
		return nil, err
	}
	ch, err := lookup(chanceNames[:], v.Chance, "chance")
	if err != nil {
		return nil, err
	}
	why, err := lookup(reasonNames[:], v.TurnReason, "turn reason")
	if err != nil {
		return nil, err
	}
	s.ph, s.chance, s.why = phase(ph), chanceKind(ch), reason(why)
	s.hand, s.dealer, s.turn = v.HandNo, int(v.Dealer), int(v.Turn)
	s.dir = 1
	if v.Direction == "counterclockwise" {
		s.dir = -1
	}
	s.openLeft, s.dead = v.OpeningLeft, v.DeadPasses
	copy(s.totals[:], v.Totals)

	// The discard pile and the active suit and rank.
	var known [53]int
	for _, t := range v.Pile {
		c, err := parseCard(t)
		if err != nil {
			return nil, err
		}
		s.pile[s.pileN] = c
		s.pileN++
		known[idx(c)]++
	}
	if s.pileN > 0 {
		su, err := game.ParseSuit(v.ActiveSuit)
		if err != nil {
			return nil, fmt.Errorf("pisyedili: view: %w", err)
		}
		s.suit = su
		for rk := 1; rk <= 13; rk++ {
			if rankName(rk) == v.ActiveRank {
				s.rank = rk
			}
		}
		s.anyFollows = v.AnyFollows
	}
	if v.Chain != nil {
		k, err := lookup(chainNames[:], v.Chain.Kind, "chain")
		if err != nil {
			return nil, err
		}
		s.chain, s.chainK = uint8(k), v.Chain.Count
	}
	if v.StockPool != nil {
		if err := parseCards(v.StockPool, &s.pool1, &s.pool2, nil); err != nil {
			return nil, err
		}
	} else {
		s.pool1, s.pool2 = s.full1, s.full2
	}
	if d := v.Drawing; d != nil {
		k, err := lookup(jobNames[:], d.Kind, "drawing")
		if err != nil {
			return nil, err
		}
		s.job, s.jobSeat, s.jobLeft, s.jobOwner, s.seatsLeft = jobKind(k), int(d.Seat), d.Left, int(d.Owner), d.SeatsLeft
	}

	// Hand history.
	hasCur := (s.ph == phDeal && s.hand > 0) || s.ph == phGameOver
	for i := range v.Finished {
		res, err := s.resultFrom(&v.Finished[i])
		if err != nil {
			return nil, err
		}
		if hasCur && i == len(v.Finished)-1 {
			s.cur, s.hasCur = res, true
		} else {
			s.hist = append(s.hist, res)
		}
	}
	if v.Ending != nil {
		res, err := s.resultFrom(v.Ending)
		if err != nil {
			return nil, err
		}
		s.cur = res
	}

	if s.ph == phDeal || s.ph == phGameOver {
		return s, nil
	}

	// Known hands.
	var hidden [maxSeats]bool
	for p := 0; p < s.n; p++ {
		switch {
		case s.ph == phHandOver:
			if len(v.Revealed) != s.n {
				return nil, errors.New("pisyedili: Sample: hand over without revealed hands")
			}
			if err := parseCards(v.Revealed[p], &s.h1[p], &s.h2[p], &known); err != nil {
				return nil, err
			}
		case p == obs:
			if err := parseCards(v.Hand, &s.h1[p], &s.h2[p], &known); err != nil {
				return nil, err
			}
		default:
			hidden[p] = true
		}
		s.hn[p] = v.HandSizes[p]
	}
	if s.ph == phAfterDraw && obs == s.turn {
		c, err := parseCard(v.Drawn)
		if err != nil {
			return nil, err
		}
		s.drawn = c
	}
	drawnHidden := s.ph == phAfterDraw && obs != s.turn
	for _, vd := range v.Shown {
		w, err := lookup(voidNames[:], vd.Why, "shown void")
		if err != nil {
			return nil, err
		}
		if vd.Seat < 0 || int(vd.Seat) >= s.n {
			return nil, fmt.Errorf("pisyedili: Sample: shown void of seat %d", vd.Seat)
		}
		var f, f2 game.Mask
		if err := parseCards(vd.Lacks, &f, &f2, nil); err != nil {
			return nil, err
		}
		s.voids[vd.Seat][w] = void{f: f | f2, k: vd.Since}
	}

	// The unseen cards, and those that may be in the stock.
	var unseen [53]int
	var pool1, pool2 = s.pool1, s.pool2
	var elig [maxCards]game.Card
	ne := 0
	for i := 0; i < 53; i++ {
		n := 0
		if s.full1.Has(i) {
			n++
		}
		if s.full2.Has(i) {
			n++
		}
		n -= known[i]
		if n < 0 {
			return nil, fmt.Errorf("pisyedili: Sample: the view shows too many %s", game.Standard.Format(faceCard[i]))
		}
		unseen[i] = n
		pn := 0
		if pool1.Has(i) {
			pn++
		}
		if pool2.Has(i) {
			pn++
		}
		for k := 0; k < min(pn, n); k++ {
			elig[ne] = faceCard[i]
			ne++
		}
	}
	need := v.StockSize
	if drawnHidden {
		need++
	}
	if ne < need {
		return nil, errors.New("pisyedili: Sample: the stock does not fit the stock pool")
	}
	want := 0
	for p := 0; p < s.n; p++ {
		if hidden[p] {
			want += s.hn[p]
		}
	}
	if drawnHidden {
		want--
	}
	if total := sum(unseen[:]); total-v.StockSize-b2i(drawnHidden) != want {
		return nil, fmt.Errorf("pisyedili: Sample: %d unseen cards for %d hidden places", total, want+v.StockSize+b2i(drawnHidden))
	}
	s.stockN = v.StockSize
	s.dealHidden(r, unseen, elig[:ne], &hidden, drawnHidden)
	return s, nil
}

// dealHidden deals the unseen cards into s: the hidden drawn card (if any)
// and the stock from elig (the cards that may be in the stock; shuffled in
// place), then the hidden hands from the rest. It is rejection sampling:
// it deals uniformly until the shown voids hold (exact when it succeeds);
// after sampleTries failures it keeps the last deal. Engine.Sample and
// Sampler share it, so both draw the same states from the same generator.
func (s *State) dealHidden(r *game.Rand, unseen [53]int, elig []game.Card, hidden *[maxSeats]bool, drawnHidden bool) {
	// Rejection sampling: deal uniformly until the shown voids hold (exact
	// when it succeeds); after sampleTries failures keep the last deal.
	for try := 0; try < sampleTries; try++ {
		un := unseen
		h1, h2 := s.h1, s.h2
		r.ShuffleCards(elig)
		k := 0
		if drawnHidden {
			s.drawn = elig[0]
			un[idx(s.drawn)]--
			msAdd(&h1[s.turn], &h2[s.turn], idx(s.drawn))
			k = 1
		}
		for i := 0; i < s.stockN; i++ {
			c := elig[k+i]
			s.stock[s.stockN-1-i] = c
			un[idx(c)]--
		}
		var rest [maxCards]game.Card
		nr := 0
		for i := 0; i < 53; i++ {
			for k := 0; k < un[i]; k++ {
				rest[nr] = faceCard[i]
				nr++
			}
		}
		r.ShuffleCards(rest[:nr])
		j := 0
		ok := true
		for p := 0; p < s.n; p++ {
			if !hidden[p] {
				continue
			}
			m := s.hn[p]
			if drawnHidden && p == s.turn {
				m--
			}
			for ; m > 0; m-- {
				msAdd(&h1[p], &h2[p], idx(rest[j]))
				j++
			}
			for _, vd := range s.voids[p] {
				if vd.f != 0 && msCount(h1[p], h2[p], vd.f) > vd.k {
					ok = false
				}
			}
		}
		if ok || try == sampleTries-1 {
			s.h1, s.h2 = h1, h2
			break
		}
	}
}
