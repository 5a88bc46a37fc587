package pisyedili

import (
	"errors"
	"fmt"

	"cardroom/game"
)

// sampleTries bounds the rejection sampling of Sample.
const sampleTries = 1000

// deckBits is every face index of the standard deck (joker included).
const deckBits = game.Mask(1)<<53 - 1

// checkCards reports a multiset that is not one: faces outside the deck, or
// a second copy without a first.
func checkCards(c Cards) error {
	if (c.Once|c.Twice)&^deckBits != 0 || c.Twice&^c.Once != 0 {
		return errors.New("pisyedili: Sample: a card set of the view is not a multiset of the deck")
	}
	return nil
}

// count adds the copies of c to counts.
func (c Cards) count(counts *[53]int) {
	for m := c.Once; m != 0; m &= m - 1 {
		counts[m.Lowest()]++
	}
	for m := c.Twice; m != 0; m &= m - 1 {
		counts[m.Lowest()]++
	}
}

func (s *State) resultFrom(h *HandResult) (result, error) {
	r := result{finisher: int8(h.Finisher), card: h.Card, mult: h.Multiplier}
	if h.Card != game.NoCard && idx(h.Card) < 0 {
		return r, errors.New("pisyedili: Sample: a hand result has a card of no deck")
	}
	if len(h.EndDraws) != s.n || (h.Hands != nil && len(h.Hands) != s.n) || (h.Points != nil && len(h.Points) != s.n) {
		return r, errors.New("pisyedili: view: a hand result has the wrong number of seats")
	}
	for p := 0; p < s.n; p++ {
		if err := checkCards(h.EndDraws[p]); err != nil {
			return r, err
		}
		r.drawn1[p], r.drawn2[p] = h.EndDraws[p].Once, h.EndDraws[p].Twice
		if h.Hands != nil {
			if err := checkCards(h.Hands[p]); err != nil {
				return r, err
			}
			r.final1[p], r.final2[p] = h.Hands[p].Once, h.Hands[p].Twice
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
	v, ok := gv.(*View)
	if !ok {
		return nil, fmt.Errorf("pisyedili: Sample: not a Pis Yedili view (%T)", gv)
	}
	s := &State{}
	var d hiddenDeal
	if err := s.fromView(v, &d); err != nil {
		return nil, err
	}
	if !d.trivial {
		s.dealHidden(r, d.unseen, d.elig[:d.ne], &d.hidden, d.drawnHidden)
	}
	return s, nil
}

// hiddenDeal is what a view leaves to chance: the unseen cards (per face),
// those that may be in the stock (elig[:ne]), the seats whose hands are
// hidden and whether the drawn card is; trivial when nothing is (between
// hands, game over).
type hiddenDeal struct {
	unseen      [53]int
	elig        [maxCards]game.Card
	ne          int
	hidden      [maxSeats]bool
	drawnHidden bool
	trivial     bool
}

// fromView sets s to everything v shows, the hidden hands empty and the
// stock unfilled, and d to what dealHidden must deal. It reads the view's
// typed fields and checks that they make a state.
func (s *State) fromView(v *View, d *hiddenDeal) error {
	cfg, norm, err := parseOptions(v.Options)
	if err != nil {
		return err
	}
	s.init(norm, cfg)
	if v.Players != s.n || len(v.HandSizes) != s.n || len(v.Totals) != s.n {
		return errors.New("pisyedili: Sample: the view's seat counts disagree with its options")
	}
	obs := int(v.Seat)
	if obs < -1 || obs >= s.n {
		return fmt.Errorf("pisyedili: Sample: bad observer %d", obs)
	}
	switch {
	case int(v.Stage) >= len(phaseNames) || phaseNames[v.Stage] != v.Phase:
		return fmt.Errorf("pisyedili: Sample: phase %d named %q", v.Stage, v.Phase)
	case int(v.Chance) >= len(chanceNames):
		return fmt.Errorf("pisyedili: Sample: unknown chance %d", v.Chance)
	case int(v.TurnReason) >= len(reasonNames):
		return fmt.Errorf("pisyedili: Sample: unknown turn reason %d", v.TurnReason)
	case v.Turn < -1 || int(v.Turn) >= s.n || v.Dealer < -1 || int(v.Dealer) >= s.n:
		return fmt.Errorf("pisyedili: Sample: turn %d, dealer %d", v.Turn, v.Dealer)
	case len(v.Pile) > maxCards || v.StockSize < 0 || v.StockSize > maxCards:
		return errors.New("pisyedili: Sample: too many cards in the pile or the stock")
	}
	s.ph, s.chance, s.why = v.Stage, v.Chance, v.TurnReason
	s.hand, s.dealer, s.turn = v.Round, int(v.Dealer), int(v.Turn)
	s.dir = 1
	if v.Direction == Counterclockwise {
		s.dir = -1
	}
	s.openLeft, s.dead = v.OpeningLeft, v.DeadPasses
	copy(s.totals[:], v.Totals)

	// The discard pile and the active suit and rank.
	var known [53]int
	for _, c := range v.Pile {
		i := idx(c)
		if i < 0 {
			return errors.New("pisyedili: Sample: the pile holds a card of no deck")
		}
		s.pile[s.pileN] = c
		s.pileN++
		known[i]++
	}
	if len(v.Plays) != 0 && len(v.Plays) != len(v.Pile) {
		return errors.New("pisyedili: Sample: the plays are not parallel to the pile")
	}
	for i := range v.Plays {
		pl := &v.Plays[i]
		if pl.Seat < -1 || int(pl.Seat) >= s.n || int(pl.Kind) >= len(playKindNames) || pl.Since < 0 || pl.Since > 1<<30 || (pl.Seat < 0 && pl.Since != 0) ||
			len(pl.Sizes) != s.n || pl.Suit > game.Clubs || (!pl.HasSuit && pl.Suit != 0) {
			return fmt.Errorf("pisyedili: Sample: bad play %d", i)
		}
		r := playRec{by: int8(pl.Seat + 1), kind: pl.Kind, at: -int32(pl.Since)}
		if pl.HasSuit {
			r.suit = uint8(pl.Suit) + 1
		}
		for q, n := range pl.Sizes {
			if n < 0 || n > maxCards {
				return fmt.Errorf("pisyedili: Sample: bad play %d", i)
			}
			r.sizes[q] = uint8(n)
		}
		s.plays[i] = r
	}
	if s.pileN > 0 {
		if v.ActiveSuit > game.Clubs || v.ActiveRank < 0 || v.ActiveRank > game.King {
			return errors.New("pisyedili: Sample: bad active suit or rank")
		}
		s.suit, s.rank, s.anyFollows = v.ActiveSuit, v.ActiveRank, v.AnyFollows
	}
	if c := v.Chain; c != nil {
		if c.Kind == ChainNone || int(c.Kind) >= len(chainNames) {
			return fmt.Errorf("pisyedili: Sample: unknown chain %d", c.Kind)
		}
		s.chain, s.chainK = c.Kind, c.Count
	}
	if p := v.StockPool; p != nil {
		if err := checkCards(*p); err != nil {
			return err
		}
		s.pool1, s.pool2 = p.Once, p.Twice
	} else {
		s.pool1, s.pool2 = s.full1, s.full2
	}
	if d := v.Drawing; d != nil {
		if int(d.Kind) >= len(jobNames) {
			return fmt.Errorf("pisyedili: Sample: unknown drawing %d", d.Kind)
		}
		s.job, s.jobSeat, s.jobLeft, s.jobOwner, s.seatsLeft = d.Kind, int(d.Seat), d.Left, int(d.Owner), d.SeatsLeft
	}

	// Hand history.
	hasCur := (s.ph == PhaseDeal && s.hand > 0) || s.ph == PhaseOver
	for i := range v.Finished {
		res, err := s.resultFrom(&v.Finished[i])
		if err != nil {
			return err
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
			return err
		}
		s.cur = res
	}

	if s.ph == PhaseDeal || s.ph == PhaseOver {
		d.trivial = true
		return nil
	}

	// Known hands.
	hidden := &d.hidden
	for p := 0; p < s.n; p++ {
		var h Cards
		switch {
		case s.ph == PhaseHandOver:
			if len(v.Revealed) != s.n {
				return errors.New("pisyedili: Sample: hand over without revealed hands")
			}
			h = v.Revealed[p]
		case p == obs:
			h = v.Hand
		default:
			hidden[p] = true
		}
		if err := checkCards(h); err != nil {
			return err
		}
		h.count(&known)
		s.h1[p], s.h2[p] = h.Once, h.Twice
		s.hn[p] = v.HandSizes[p]
	}
	if s.ph == PhaseAfterDraw && obs == s.turn {
		if v.Drawn != game.NoCard && idx(v.Drawn) < 0 {
			return errors.New("pisyedili: Sample: the drawn card is of no deck")
		}
		s.drawn = v.Drawn
	}
	drawnHidden := s.ph == PhaseAfterDraw && obs != s.turn
	d.drawnHidden = drawnHidden
	if drawnHidden && s.turn < 0 {
		return errors.New("pisyedili: Sample: a drawn card without a turn")
	}
	for _, vd := range v.Shown {
		if int(vd.Why) >= len(voidNames) {
			return fmt.Errorf("pisyedili: Sample: unknown shown void %d", vd.Why)
		}
		if vd.Seat < 0 || int(vd.Seat) >= s.n {
			return fmt.Errorf("pisyedili: Sample: shown void of seat %d", vd.Seat)
		}
		if vd.Why.Soft() {
			// Kept so that the state's view is the view, never dealt by.
			sl := &s.soft[vd.Seat]
			i := 0
			for i < softSlots && sl[i].f != 0 {
				i++
			}
			if i == softSlots || vd.Lacks&deckBits == 0 || vd.Since < 0 {
				return fmt.Errorf("pisyedili: Sample: bad soft voids of seat %d", vd.Seat)
			}
			sl[i] = softVoid{f: vd.Lacks & deckBits, k: int32(vd.Since), why: vd.Why}
			continue
		}
		s.voids[vd.Seat][vd.Why] = void{f: vd.Lacks & deckBits, k: vd.Since}
	}

	// The unseen cards, and those that may be in the stock.
	unseen, elig := &d.unseen, &d.elig
	pool1, pool2 := s.pool1, s.pool2
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
			return fmt.Errorf("pisyedili: Sample: the view shows too many %s", faceName[i])
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
		return errors.New("pisyedili: Sample: the stock does not fit the stock pool")
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
	total := 0
	for _, n := range unseen {
		total += n
	}
	if total-need != want {
		return fmt.Errorf("pisyedili: Sample: %d unseen cards for %d hidden places", total, want+need)
	}
	s.stockN, d.ne = v.StockSize, ne
	return nil
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
