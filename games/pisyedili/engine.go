// Package pisyedili implements Pis Yedili ("Dirty Seven"), the Turkish member
// of the Crazy Eights family, as specified in the shared rules document
// pisyedili.md, with the move notation of notation.md.
//
// Two decks (and two optional jokers) mean two physical copies of most
// faces. The engine tracks physical cards: a hand is a pair of masks (faces
// held at least once, faces held twice), the stock and the discard pile are
// fixed-size ordered arrays of cards, so a State copies by value and a
// playout allocates nothing. Moves name a card by its face: `play 7H` plays
// either copy.
//
// Move encoding (game.Move): Op is one of OpPlay, OpDraw, OpPenalty, OpPass,
// OpEnd; Card is the card played (OpPlay only); A is 1+suit nominated by a
// jack outside the opening round (1 = S, 2 = H, 3 = D, 4 = C) and 0
// otherwise. B, Set and Set2 are always zero.
//
// Chance is an explicit step: `dealer N` (random first dealer), `deal` with
// continuation lines `0: <cards>` … and `stock <cards, top first>`, and
// `shuffle <cards, top first>` when a card must be drawn, the stock is empty
// and the discard pile holds cards under its top card.
package pisyedili

import (
	"strconv"

	"cardroom/game"
)

// Engine is the Pis Yedili rules engine.
type Engine struct{}

// Name implements game.Engine.
func (Engine) Name() string { return "pisyedili" }

// Deck implements game.Engine.
func (Engine) Deck() game.Deck { return game.Standard }

// New implements game.Engine: the game starts with the choice of the first
// dealer pending (chance `dealer N`).
func (Engine) New(o game.Options) (game.State, error) {
	c, norm, err := parseOptions(o)
	if err != nil {
		return nil, err
	}
	s := &State{}
	s.init(norm, c)
	return s, nil
}

func (s *State) init(norm game.Options, c config) {
	s.opts, s.cfg = norm, c
	s.optsJSON = norm.AppendJSON(nil)
	s.n = c.players
	s.chance = ChanceDealer
	s.ph = PhaseDeal
	s.dealer = -1
	s.turn = -1
	s.dir = 1
	s.full1, s.full2 = fullMasks(c.jokers)
	s.total = s.full1.Count() + s.full2.Count()
}

func fullMasks(jokers bool) (game.Mask, game.Mask) {
	m := game.Mask(1)<<52 - 1
	if jokers {
		m |= jokerBit
	}
	return m, m
}

func itoa(n int) string { return strconv.Itoa(n) }

var _ game.Engine = Engine{}
var _ game.State = (*State)(nil)
