package pisyedili

import "cardroom/game"

// The public history of a Pis Yedili game (docs/games/pisyedili.md,
// "History"): Engine implements game.Historian. A card played is public;
// a draw is told by its count and reason only (§10: every draw takes the
// stock's hidden top cards), whoever drew and whatever rule made them draw.
//
// The describer reads how many cards each seat drew in a step from the
// hand sizes before and after it (the end-of-hand draws from the hand's
// result, which counts them apart), so it follows the engine's draw jobs
// without re-running them, across reshuffles too.

var _ game.Historian = Engine{}

// AppendMove implements game.Historian.
func (Engine) AppendMove(buf []game.Entry, before, after game.State, s game.Seat, m game.Move, by game.By) []game.Entry {
	b, ok1 := before.(*State)
	a, ok2 := after.(*State)
	if !ok1 || !ok2 || int(s) < 0 || int(s) >= b.n {
		return buf
	}
	played := -1
	var why game.Why // the reason for the draws other than the end-of-hand ones
	switch m.Op {
	case OpPlay:
		e := game.Entry{Seat: s, Kind: game.KindPlay, Cards: []game.Card{m.Card}, By: by}
		if m.A > 0 {
			e.Suit, e.HasSuit = game.Suit(m.A-1), true // §8: a jack names the suit
		}
		buf = append(buf, e)
		played = int(s)
		// §8: an ace makes everyone else draw one; finishing_card_effects
		// (§9) makes a finishing 7 or joker's chain drawn, too.
		switch {
		case m.Card == game.Joker:
			why = game.WhyJoker
		case m.Card.Rank() == 7:
			why = game.WhySeven
		default:
			why = game.WhyAce
		}
	case OpDraw:
		why = game.WhyTurn
	case OpPenalty:
		why = chainWhy(b.chain)
	case OpPass, OpEnd:
		buf = append(buf, game.Entry{Seat: s, Kind: game.KindPass, By: by})
	default:
		return buf
	}
	start := b.cw(int(s))
	switch m.Op {
	case OpDraw, OpPenalty:
		// The seat's own choice is listed even when its cards wait for a
		// reshuffle (the next step then lists them).
		kind := game.KindDraw
		if m.Op == OpPenalty {
			kind = game.KindPenalty
		}
		buf = append(buf, game.Entry{Seat: s, Kind: kind, Count: drawn(b, a, int(s), played, false), Why: why, By: by})
		start = int(s)
		why = ""
	}
	return appendDraws(buf, b, a, played, start, why)
}

// AppendChance implements game.Historian: the deal (seat: the dealer), and
// a reshuffle with the draws it let go on.
func (Engine) AppendChance(buf []game.Entry, before, after game.State) []game.Entry {
	b, ok1 := before.(*State)
	a, ok2 := after.(*State)
	if !ok1 || !ok2 {
		return buf
	}
	switch b.chance {
	case ChanceDeal:
		return append(buf, game.Entry{Seat: game.Seat(a.dealer), Kind: game.KindDeal})
	case ChanceShuffle:
		// §10: the pile but its top card becomes the stock.
		buf = append(buf, game.Entry{Seat: game.Spectator, Kind: game.KindShuffle, Count: b.pileN - 1})
		var why game.Why
		switch b.job {
		case DrawOpening, DrawVoluntary:
			why = game.WhyTurn
		case DrawPenalty:
			why = game.WhyPenalty
		case DrawAce, DrawFinishAce:
			why = game.WhyAce
		case DrawFinishChain:
			why = game.WhySeven
			if b.cur.card == game.Joker {
				why = game.WhyJoker
			}
		}
		return appendDraws(buf, b, a, -1, b.jobSeat, why)
	}
	return buf
}

// chainWhy is the reason of a chain's draw.
func chainWhy(k ChainKind) game.Why {
	if k == ChainJoker {
		return game.WhyJoker
	}
	return game.WhySeven
}

// appendDraws lists, seat by seat clockwise from start, the cards drawn in
// the step (why: the reason of the draws that are not end-of-hand ones; ""
// when they are listed already), then the end-of-hand draws, then the
// hand's score if it ended. played is the seat that played a card in the
// step, or -1.
func appendDraws(buf []game.Entry, b, a *State, played, start int, why game.Why) []game.Entry {
	if why != "" {
		for k := 0; k < b.n; k++ {
			p := (start + k) % b.n
			if c := drawn(b, a, p, played, false); c > 0 {
				buf = append(buf, game.Entry{Seat: game.Seat(p), Kind: game.KindDraw, Count: c, Why: why})
			}
		}
	}
	for k := 0; k < b.n; k++ {
		p := (start + k) % b.n
		if c := drawn(b, a, p, played, true); c > 0 {
			buf = append(buf, game.Entry{Seat: game.Seat(p), Kind: game.KindDraw, Count: c, Why: game.WhyEnd})
		}
	}
	if ended(b, a) {
		// §11: the hand is scored.
		scores := make([]int, b.n)
		copy(scores, a.cur.points[:b.n])
		buf = append(buf, game.Entry{Seat: game.Spectator, Kind: game.KindHand, Scores: scores})
	}
	return buf
}

// ended reports whether the hand was scored in the step from b to a.
func ended(b, a *State) bool {
	return (a.ph == PhaseDeal || a.ph == PhaseOver) && a.hasCur && b.ph != PhaseDeal && b.ph != PhaseOver
}

// drawn is how many cards seat p drew in the step from b to a: the
// end-of-hand draws (§9.1) when eoh, the others otherwise. played is the
// seat that played a card in the step (its hand lost one), or -1.
func drawn(b, a *State, p, played int, eoh bool) int {
	end := ended(b, a)
	eohBefore, eohAfter := 0, 0
	if b.ph == PhaseHandOver {
		eohBefore = msCount(b.cur.drawn1[p], b.cur.drawn2[p], ^game.Mask(0))
	}
	if a.ph == PhaseHandOver || end {
		eohAfter = msCount(a.cur.drawn1[p], a.cur.drawn2[p], ^game.Mask(0))
	}
	e := eohAfter - eohBefore
	if eoh {
		return e
	}
	sizeAfter := a.hn[p]
	if end {
		sizeAfter = msCount(a.cur.final1[p], a.cur.final2[p], ^game.Mask(0))
	}
	d := sizeAfter - b.hn[p]
	if p == played {
		d++
	}
	return d - e
}
