// Package rum500 is the 500 Rum (Rummy 500) engine: the rules of
// ../shared/rules/rum500.md with the move notation of notation.md.
//
// The state is one value-copyable struct of fixed arrays (plus the history of
// the current hand and the finished hands' scores), so playouts copy it by
// value and never allocate in the move loop.
//
// Move encoding (game.Move):
//
//	Op        Card            A       B            Set                 Set2
//	OpDraw    -               -       -            -                   -
//	OpTakeMeld X (taken card) -       ace end*     meld faces          faces jokers stand for
//	OpTakeLayoff X            meld #  end**        face X stands for   -
//	OpTake    X (top, free)   -       -            -                   -
//	OpMeld    -               -       ace end*     meld faces          faces jokers stand for
//	OpLayoff  laid card       meld #  end**        face it stands for  -
//	OpDiscard discarded card  -       -            -                   -
//	OpDecline -               -       -            -                   -
//
// * B is EndLow/EndHigh only for a 13-card run (where the ace is), else 0.
// ** B is EndLow/EndHigh only when the face fits both ends of the run (an
// ace on a 2…K run), else 0. Faces are bits of game.Standard (suit*13+rank-1).
// For a natural card the "face it stands for" is the card itself.
package rum500

import "cardroom/game"

// Engine is the 500 Rum engine.
type Engine struct{}

// Name implements game.Engine.
func (Engine) Name() string { return "rum500" }

// Deck implements game.Engine.
func (Engine) Deck() game.Deck { return game.Standard }

// New implements game.Engine.
func (Engine) New(o game.Options) (game.State, error) {
	c, norm, err := parseOptions(o)
	if err != nil {
		return nil, err
	}
	return newState(c, norm), nil
}

func newState(c config, norm game.Options) *State {
	s := &State{cfg: c, opts: norm, optsJSON: norm.AppendJSON(nil), phase: phDealer, dealer: -1, out: -1}
	return s
}
