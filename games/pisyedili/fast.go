package pisyedili

import (
	"cardroom/game"
)

// Read-only accessors and a fast determinization sampler for search bots.
// They change nothing in the rules: the accessors only read the state, and a
// Sampler draws exactly what Engine.Sample draws from the same generator.

// HandMasks returns seat p's hand as a multiset over the standard deck
// indices (game.Standard.Card(i)): the faces held at least once, and the
// faces held twice.
func (s *State) HandMasks(p game.Seat) (once, twice game.Mask) {
	if p < 0 || int(p) >= s.n {
		return 0, 0
	}
	return s.h1[p], s.h2[p]
}

// HandSize is the number of cards seat p holds.
func (s *State) HandSize(p game.Seat) int {
	if p < 0 || int(p) >= s.n {
		return 0
	}
	return s.hn[p]
}

// HandCards appends seat p's cards to buf (each physical card once, in deck
// index order) and returns it.
func (s *State) HandCards(p game.Seat, buf []game.Card) []game.Card {
	if p < 0 || int(p) >= s.n {
		return buf
	}
	for m := s.h1[p]; m != 0; m &= m - 1 {
		buf = append(buf, faceCard[m.Lowest()])
	}
	for m := s.h2[p]; m != 0; m &= m - 1 {
		buf = append(buf, faceCard[m.Lowest()])
	}
	return buf
}

// HandValue is the penalty value of seat p's hand (§11) before any
// multiplier.
func (s *State) HandValue(p game.Seat) int {
	if p < 0 || int(p) >= s.n {
		return 0
	}
	return msValue(s.h1[p], s.h2[p])
}

// Turn is the seat to move (or whose turn is in progress); -1 if none.
func (s *State) Turn() game.Seat { return game.Seat(s.turn) }

// NextSeat is the seat after p in the direction of play.
func (s *State) NextSeat(p game.Seat) game.Seat { return game.Seat(s.step(int(p), 1)) }

// Chain is the pending penalty chain: kind "seven", "joker" or "" and its
// count k.
func (s *State) Chain() (kind string, k int) { return chainNames[s.chain], s.chainK }

// InOpening reports whether the opening clubs round is being played.
func (s *State) InOpening() bool { return s.ph == PhaseOpening }

// HandNo is the current (or last) hand number, 1-based.
func (s *State) HandNo() int { return s.hand }

// Playing reports whether a hand is being played (a seat is to act or a
// reshuffle is pending in the middle of play), as opposed to the deal, the
// end-of-hand draws and the end of the game.
func (s *State) Playing() bool { return s.ph >= PhaseOpening && s.ph <= PhaseAceContinue }

// StockSize is the number of cards in the stock.
func (s *State) StockSize() int { return s.stockN }

// Sampler draws determinizations of one view quickly: it reads the view
// once, and every Sample deals the hidden cards into a reused State exactly
// as Engine.Sample would with the same generator (same states, same random
// numbers consumed), without reading the view again or allocating — unless
// it is told to take the soft voids as evidence (UseEvidence), which the
// rules' sampler never does.
type Sampler struct {
	base     State
	deal     hiddenDeal
	st       State
	evidence float64 // UseEvidence's p
	hasSoft  bool    // a hidden seat has a soft void, or Suppose added one
	extra    []cons  // Suppose's voids
}

// NewSampler reads v. It returns an error when Engine.Sample would.
func NewSampler(v *View) (*Sampler, error) {
	z := &Sampler{}
	if err := z.base.fromView(v, &z.deal); err != nil {
		return nil, err
	}
	if b := &z.base; b.hist != nil {
		b.hist = b.hist[:len(b.hist):len(b.hist)] // an append copies
	}
	return z, nil
}

// Sample returns a determinization. The State is reused: it is valid until
// the next call.
func (z *Sampler) Sample(r *game.Rand) *State {
	s := &z.st
	*s = z.base
	if z.deal.trivial {
		return s
	}
	d := &z.deal
	elig := d.elig // a copy: dealHidden shuffles it
	if z.evidence > 0 && z.hasSoft {
		s.dealEvidence(r, d, elig[:d.ne], z.evidence, z.extra)
		return s
	}
	s.dealHidden(r, d.unseen, elig[:d.ne], &d.hidden, d.drawnHidden)
	return s
}

// Top is what the next card must follow: the active suit and rank (§5).
func (s *State) Top() (suit game.Suit, rank int) { return s.suit, s.rank }
