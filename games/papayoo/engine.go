// Package papayoo is the rules engine of Papayoo (rules: the shared
// papayoo.md specification): 3 to 8 players, a blind simultaneous pass to the
// left, a die that makes one seven the 40-point Papayoo, tricks with Payoo as
// a fifth suit and no trumps, 250 points a round, lowest total wins.
//
// Hands are game.Mask values in the Deck layout (index =
// suit*10+rank-1 for S H D C, 40+rank-1 for Payoo), and the whole State is a
// struct of fixed-size arrays, so copying it by value is a full clone and a
// random playout allocates nothing.
//
// Move encoding (game.Move):
//
//   - OpPass (Op=1): the seat's whole pass; Set = the mask of its K cards.
//     Text "pass 10S 7H 20P 3C 12P" (printed in sort order, parsed in any order).
//   - OpPlay (Op=2): play one card to the trick; Card = the card.
//     Text "play 7H".
//
// The other Move fields are zero. Chance steps and their record texts:
// "dealer N" (the random first dealer), "deal" with one continuation line per
// seat "0: <cards>" (every hand, sorted), and "die H" (the die after the pass).
package papayoo

import "cardroom/game"

// Engine is the Papayoo rules.
type Engine struct{}

var _ game.Engine = Engine{}

// Name implements game.Engine.
func (Engine) Name() string { return "papayoo" }

// Deck implements game.Engine.
func (Engine) Deck() game.Deck { return Deck }

// New implements game.Engine.
func (e Engine) New(o game.Options) (game.State, error) {
	s, err := newState(o)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// NewState is New with the concrete type, for fast callers.
func NewState(o game.Options) (*State, error) { return newState(o) }

func newState(o game.Options) (*State, error) {
	c, no, err := parseOptions(o)
	if err != nil {
		return nil, err
	}
	n := c.players
	s := &State{
		n:      int8(n),
		hs:     int8(handSize[n]),
		ks:     int8(passSize[n]),
		rounds: c.rounds,
		dealer: -1,
		leader: -1,
		turn:   -1,
		die:    -1,
		deck:   deckFor(n),
		opts:   no,
	}
	s.optsJSON = no.AppendJSON(nil)
	if c.firstDealer < 0 {
		s.phase = phDealer
	} else {
		s.dealer = int8(c.firstDealer)
		s.phase = phDeal
	}
	return s, nil
}
