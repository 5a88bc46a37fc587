package rum500

import "cardroom/game"

// The public history of a 500 Rum game (docs/games/rum500.md, "History"):
// Engine implements game.Historian. Everything but a draw from the stock is
// public in 500 Rum (§11): the pile, what is taken from it, melds and
// lay-offs with the cards jokers stand for, discards, and every hand once
// the hand is over. A draw is told by its count only, even from a stock
// whose order is public.

var _ game.Historian = Engine{}

// AppendMove implements game.Historian.
func (Engine) AppendMove(buf []game.Entry, before, after game.State, s game.Seat, m game.Move, by game.By) []game.Entry {
	b, ok1 := before.(*State)
	a, ok2 := after.(*State)
	if !ok1 || !ok2 || int(s) < 0 || int(s) >= b.cfg.n {
		return buf
	}
	pts := a.table[s] - b.table[s]
	switch m.Op {
	case OpDraw:
		buf = append(buf, game.Entry{Seat: s, Kind: game.KindDraw, Count: 1, By: by})
	case OpTake:
		buf = append(buf, game.Entry{Seat: s, Kind: game.KindTake, Cards: []game.Card{m.Card}, Count: 1, By: by})
	case OpTakeMeld, OpTakeLayoff:
		// §6.1: X and every card above it.
		i := b.pileFind(ix(m.Card))
		if i < 0 {
			return buf
		}
		taken := make([]game.Card, b.pileN-i)
		for j := range taken {
			taken[j] = ixCard[b.pile[i+j]]
		}
		buf = append(buf, game.Entry{Seat: s, Kind: game.KindTake, Cards: taken, Count: len(taken), By: by})
		if m.Op == OpTakeMeld {
			buf = appendMeld(buf, a, s, pts, by)
		} else {
			buf = appendLayoff(buf, s, m, pts, by)
		}
	case OpMeld:
		buf = appendMeld(buf, a, s, pts, by)
	case OpLayoff:
		buf = appendLayoff(buf, s, m, pts, by)
	case OpDiscard:
		buf = append(buf, game.Entry{Seat: s, Kind: game.KindDiscard, Cards: []game.Card{m.Card}, By: by})
	case OpDecline:
		buf = append(buf, game.Entry{Seat: s, Kind: game.KindDecline, By: by})
	default:
		return buf
	}
	if a.turned && !b.turned {
		// §8, turn_over_discards: the pile but its top becomes the stock.
		buf = append(buf, game.Entry{Seat: game.Spectator, Kind: game.KindTurnOver, Count: a.stockN})
	}
	if (b.phase != phDraw && b.phase != phPlay) || (a.phase != phDeal && a.phase != phOver) {
		return buf
	}
	// §6.4, §8: the hand is over; §9: it is scored, and every hand shown.
	n := b.cfg.n
	if a.out >= 0 {
		buf = append(buf, game.Entry{Seat: game.Seat(a.out), Kind: game.KindOut})
	}
	scores := make([]int, n)
	if len(a.rounds) >= n {
		copy(scores, a.rounds[len(a.rounds)-n:])
	}
	hands := make([][]game.Card, n)
	for p := range hands {
		hands[p] = a.hands[p].Cards(make([]game.Card, 0, a.hands[p].Count()))
	}
	return append(buf, game.Entry{Seat: game.Spectator, Kind: game.KindHand, Scores: scores, Hands: hands})
}

// appendMeld describes the meld just placed (the last one on the table):
// its cards in order, JK for a joker, and what each joker stands for.
func appendMeld(buf []game.Entry, a *State, s game.Seat, pts int, by game.By) []game.Entry {
	if a.meldsN == 0 {
		return buf
	}
	md := &a.melds[a.meldsN-1]
	var slots [14]int
	order := md.order(slots[:0])
	e := game.Entry{Seat: s, Kind: game.KindMeld, Cards: make([]game.Card, len(order)), Points: pts, Meld: a.meldsN, By: by}
	for j, sl := range order {
		f := md.slotFace(sl)
		e.Cards[j] = ixCard[f]
		if md.jokers.Has(f) {
			e.Cards[j] = game.Joker
			e.As = append(e.As, ixCard[f])
		}
	}
	return append(buf, e)
}

// appendLayoff describes a lay-off: the card laid (JK for a joker, with
// the card it stands for) on meld number A.
func appendLayoff(buf []game.Entry, s game.Seat, m game.Move, pts int, by game.By) []game.Entry {
	e := game.Entry{Seat: s, Kind: game.KindLayoff, Cards: []game.Card{m.Card}, Meld: int(m.A), Points: pts, By: by}
	if m.Card == game.Joker {
		e.As = []game.Card{ixCard[m.Set.Lowest()]}
	}
	return append(buf, e)
}

// AppendChance implements game.Historian: the deal (seat: the dealer).
func (Engine) AppendChance(buf []game.Entry, before, after game.State) []game.Entry {
	b, ok1 := before.(*State)
	a, ok2 := after.(*State)
	if ok1 && ok2 && b.phase == phDeal {
		buf = append(buf, game.Entry{Seat: game.Seat(a.dealer), Kind: game.KindDeal})
	}
	return buf
}
