package papayoo

import "cardroom/game"

// The public history of a Papayoo game (docs/games/papayoo.md, "History"):
// Engine implements game.Historian. A pass names its count and recipient,
// never its cards; everything else a step shows is public at once: the die,
// the card played, the trick it closes, the round's score.

var _ game.Historian = Engine{}

// AppendMove implements game.Historian.
func (Engine) AppendMove(buf []game.Entry, before, after game.State, s game.Seat, m game.Move, by game.By) []game.Entry {
	b, ok1 := before.(*State)
	a, ok2 := after.(*State)
	if !ok1 || !ok2 {
		return buf
	}
	n := int(b.n)
	switch m.Op {
	case OpPass:
		// §4.3: every seat passes K cards to its left neighbour, blind.
		return append(buf, game.Entry{Seat: s, Kind: game.KindPass, Count: m.Set.Count(), To: game.Next(s, n), HasTo: true, By: by})
	case OpPlay:
		buf = append(buf, game.Entry{Seat: s, Kind: game.KindPlay, Cards: []game.Card{m.Card}, By: by})
	default:
		return buf
	}
	if a.tricks == b.tricks {
		return buf // the trick is still open
	}
	// §4.5: the trick is complete; its winner takes its points.
	t := int(a.tricks) - 1
	cards := make([]game.Card, n)
	pts := 0
	for j := range cards {
		c := a.plays[t*n+j]
		cards[j] = cardOf[c]
		pts += a.CardPoints(int(c))
	}
	buf = append(buf, game.Entry{Seat: game.Seat(a.winners[t]), Kind: game.KindTrick, Cards: cards, Points: pts})
	if a.phase != phDeal && a.phase != phOver {
		return buf
	}
	// §4.6: the round is scored; the Papayoo went to the winner of the
	// trick that held it.
	row := a.hist[0][:]
	if k := int(a.round) - 1; k < histFixed {
		row = a.hist[k][:]
	} else if k-histFixed < len(a.histMore) {
		row = a.histMore[k-histFixed][:]
	}
	scores := make([]int, n)
	for i := range scores {
		scores[i] = int(row[i])
	}
	e := game.Entry{Seat: game.Spectator, Kind: game.KindRound, Scores: scores, Cards: []game.Card{cardOf[a.pap]}}
	for j := 0; j < int(a.tricks)*n; j++ {
		if int8(a.plays[j]) == a.pap {
			e.To, e.HasTo = game.Seat(a.winners[j/n]), true
		}
	}
	return append(buf, e)
}

// AppendChance implements game.Historian: the deal (seat: the dealer) and
// the die (its suit and the Papayoo card); the first dealer's draw shows
// in the deal that follows.
func (Engine) AppendChance(buf []game.Entry, before, after game.State) []game.Entry {
	b, ok1 := before.(*State)
	a, ok2 := after.(*State)
	if !ok1 || !ok2 {
		return buf
	}
	switch b.phase {
	case phDeal:
		return append(buf, game.Entry{Seat: game.Seat(a.dealer), Kind: game.KindDeal})
	case phDie:
		return append(buf, game.Entry{Seat: game.Spectator, Kind: game.KindDie, Suit: game.Suit(a.die), HasSuit: true,
			Cards: []game.Card{cardOf[a.pap]}})
	}
	return buf
}
