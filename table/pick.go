package table

import (
	"cardroom/game"
	"cardroom/protocol"
)

// A seat whose legal moves the engine describes as a game.Pick (Papayoo's
// pass: any 5 of 15 cards, 3003 moves) gets the pick in its state message
// and only protocol.PickListed of the moves in its legal list. Listing
// them all made each such message 80 KB (2,000 listed moves), held once
// per seat in the legal cache and once per socket queue: most of the room's
// memory and bytes during a pass, for a choice the client makes by
// selecting cards.

// pickOf returns the seat's Pick, if the engine gives one.
func (t *Table) pickOf(seat game.Seat) (game.Pick, bool) {
	pk, ok := t.st.(game.Picker)
	if !ok || seat < 0 {
		return game.Pick{}, false
	}
	return pk.Pick(seat)
}

// listedMax is how many legal moves a state message lists for the seat.
func (t *Table) listedMax(seat game.Seat) int {
	if _, ok := t.pickOf(seat); ok {
		return min(t.cfg.MaxLegal, protocol.PickListed)
	}
	return t.cfg.MaxLegal
}

// appendPick writes the seat's pick field (protocol.AppendPick), or
// nothing when its moves are listed in full.
func (t *Table) appendPick(b []byte, seat game.Seat) []byte {
	p, ok := t.pickOf(seat)
	if !ok {
		return b
	}
	d := t.st.Engine().Deck()
	var buf [64]game.Card
	cards := p.From.Cards(d, buf[:0])
	wp := protocol.Pick{Verb: p.Verb, N: p.N, From: make([]string, len(cards))}
	for i, c := range cards {
		wp.From[i] = d.Format(c)
	}
	return protocol.AppendPick(b, &wp)
}
