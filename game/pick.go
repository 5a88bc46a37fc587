package game

// A Pick describes a legal-move set too large to list move by move: every
// legal move of the seat is Verb followed by N distinct cards of From (in
// any order; a move prints its cards in sort order), every such move is
// legal, and nothing else is. Papayoo's pass is one: any 5 of a 15-card
// hand is C(15,5) = 3003 moves, which would make a state message of 80 KB
// for one choice a player makes with five clicks.
type Pick struct {
	Verb string // the move's verb, "pass"
	N    int    // how many cards the move names
	From Mask   // the cards to choose from, in the engine's Deck layout
}

// Picker is implemented by states that can describe a seat's legal moves
// as a Pick. Pick returns ok false when the seat's moves are not of that
// form (and then the Legal list is the only description). The contract
// checks (gametest) hold a state to it: when ok, Legal(seat) lists exactly
// the N-card subsets of From, in an order that depends on the Pick alone
// (the server lists the first few and reuses them while the Pick is the
// same, without enumerating the moves again).
type Picker interface {
	Pick(seat Seat) (p Pick, ok bool)
}

// Count is the number of moves a Pick stands for: C(|From|, N).
func (p Pick) Count() int {
	n, k := p.From.Count(), p.N
	if k < 0 || k > n {
		return 0
	}
	k = min(k, n-k)
	c := 1
	for i := 1; i <= k; i++ {
		c = c * (n - k + i) / i
	}
	return c
}
