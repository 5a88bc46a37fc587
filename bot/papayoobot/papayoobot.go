// Package papayoobot is what the bots know about Papayoo: the rule-based
// player (levels easy and medium) and the ISMCTS domain of the hard level
// (its playout policy, the pruned candidate passes, the horizon and reward).
//
// The heuristics work on a Sit, a compact picture of what one seat knows
// (masks in the papayoo.Deck layout). The rule-based bot builds it from
// the seat's View; the search builds it from a determinized native state
// plus the cards it has watched being played, so the same code decides in
// both places. docs/bots.md describes the heuristics.
package papayoobot

import (
	"math/bits"

	"cardroom/game"
	"cardroom/games/papayoo"
)

var deck = papayoo.Deck

// Suit masks in the Papayoo layout (4 = Payoo).
var suitMask = [5]game.Mask{0x3FF, 0x3FF << 10, 0x3FF << 20, 0x3FF << 30, 0xFFFFF << 40}

func suitOf(i int) int {
	if i >= 40 {
		return 4
	}
	return i / 10
}

// rank of card index i within its suit (1-based).
func rankOf(i int) int {
	if i >= 40 {
		return i - 39
	}
	return i%10 + 1
}

// Sit is what a seat knows when it plays a card.
type Sit struct {
	N        int
	Me       int
	Hand     game.Mask
	Out      game.Mask // cards still held by the other seats
	Pap      int       // index of the Papayoo card, -1 if the die is not rolled
	Trick    [8]int8   // cards of the current trick, in play order
	TrickLen int
	Leader   int
	Voids    [8]uint8  // suits each seat has shown void in
	GaveLeft game.Mask // cards the seat passed to its left neighbour, not yet played
}

// points of card i for the round.
func (s *Sit) points(i int) int {
	if i == s.Pap {
		return 40
	}
	if i >= 40 {
		return i - 39
	}
	return 0
}

func lowest(m game.Mask) int  { return bits.TrailingZeros64(uint64(m)) }
func highest(m game.Mask) int { return 63 - bits.LeadingZeros64(uint64(m)) }

// below is the set of cards of m with an index lower than i.
func below(m game.Mask, i int) game.Mask { return m & (game.Bit(i) - 1) }
func above(m game.Mask, i int) game.Mask { return m &^ (game.Bit(i+1) - 1) }

// ChooseCard picks the card to play (an index) from legal (a mask of legal
// cards). noTrack is the easy level: it ignores which cards are out.
func (s *Sit) ChooseCard(legal game.Mask, noTrack bool) int {
	if legal&(legal-1) == 0 {
		return lowest(legal)
	}
	if s.TrickLen == 0 {
		return s.lead(legal, noTrack)
	}
	led := suitOf(int(s.Trick[0]))
	if legal&suitMask[led] == 0 {
		return s.discard(legal, noTrack)
	}
	return s.follow(legal, led, noTrack)
}

// trickInfo: the winning card so far and the points already in the trick.
func (s *Sit) trickInfo() (win int, pts int) {
	led := suitOf(int(s.Trick[0]))
	win = int(s.Trick[0])
	for j := 0; j < s.TrickLen; j++ {
		c := int(s.Trick[j])
		pts += s.points(c)
		if suitOf(c) == led && c > win {
			win = c
		}
	}
	return
}

// follow plays a card of the led suit: duck under the winning card with the
// highest card that stays under it; drop the Papayoo under a higher card;
// when winning is certain and the trick is clean, win with the highest.
func (s *Sit) follow(legal game.Mask, led int, noTrack bool) int {
	win, pts := s.trickInfo()
	last := s.TrickLen == s.N-1
	if s.Pap >= 0 && legal.Has(s.Pap) && s.Pap < win {
		return s.Pap // the 40 points go to someone else
	}
	under := below(legal, win)
	if s.Pap >= 0 && under.Has(s.Pap) {
		under &^= game.Bit(s.Pap)
	}
	if under != 0 {
		return highest(under)
	}
	// Every card wins for now.
	over := legal
	if s.Pap >= 0 && over&^game.Bit(s.Pap) != 0 {
		over &^= game.Bit(s.Pap)
	}
	if last {
		if pts == 0 || led != 4 {
			return highest(over) // the trick is ours anyway: shed the highest
		}
		return highest(over)
	}
	// Others still to play may overtake. With a clean trick in an ordinary
	// suit, shed the highest; otherwise the lowest, hoping to be overtaken.
	if led != 4 && pts == 0 {
		if !noTrack {
			// If nobody left can hold a higher card, we win: shed the top.
			if above(s.Out&suitMask[led], highest(over)) == 0 {
				return highest(over)
			}
		}
		return highest(over)
	}
	return lowest(over)
}

// discard sheds, when void: the Papayoo first, then the card that is most
// dangerous to keep (high Payoo, high cards of suits with few low cards out).
func (s *Sit) discard(legal game.Mask, noTrack bool) int {
	if s.Pap >= 0 && legal.Has(s.Pap) {
		return s.Pap
	}
	best, bestScore := lowest(legal), -1<<30
	for m := legal; m != 0; m &= m - 1 {
		i := lowest(m)
		sc := s.danger(i, noTrack)
		if sc > bestScore {
			best, bestScore = i, sc
		}
	}
	return best
}

// danger of keeping card i: how likely it is to win a trick with points later.
func (s *Sit) danger(i int, noTrack bool) int {
	su, r := suitOf(i), rankOf(i)
	if su == 4 {
		sc := 2*r + 4
		if !noTrack {
			// A Payoo card with no lower Payoo out will win the trick it is played in.
			if below(s.Out&suitMask[4], i) == 0 {
				sc += 10
			}
		}
		return sc
	}
	sc := 2 * r
	if !noTrack {
		lower := below(s.Out&suitMask[su], i).Count()
		if lower == 0 {
			sc -= 8 // cannot win a trick of its suit unless led by us
		} else {
			sc += 2 * min(lower, 4)
		}
		if s.Pap >= 0 && suitOf(s.Pap) == su && i > s.Pap && s.Out.Has(s.Pap) {
			sc += 6 // may catch the Papayoo
		}
	}
	return sc
}

// lead picks a card to lead: the card that others can most easily beat and
// least easily duck, in a suit where nobody has shown a void.
func (s *Sit) lead(legal game.Mask, noTrack bool) int {
	best, bestScore := lowest(legal), 1<<30
	for m := legal; m != 0; m &= m - 1 {
		i := lowest(m)
		su, r := suitOf(i), rankOf(i)
		var sc int
		if noTrack {
			sc = 3 * r
			if su == 4 {
				sc += 8
			}
		} else {
			out := s.Out & suitMask[su]
			lower := below(out, i).Count()
			higher := above(out, i).Count()
			sc = 10*lower - higher
			if higher == 0 {
				sc += 30 // we win it for sure
				if out == 0 {
					sc += 20 // and everybody discards on it
				}
			}
			for k := 0; k < s.N; k++ {
				if k != s.Me && s.Voids[k]&(1<<uint(su)) != 0 {
					sc += 15
				}
			}
			if su == 4 {
				sc += r / 2
			}
			if s.Pap >= 0 && suitOf(s.Pap) == su && s.Out.Has(s.Pap) && higher > 0 {
				sc -= 4 // flush the Papayoo out
			}
		}
		if i == s.Pap {
			sc += 200
		}
		if sc < bestScore {
			best, bestScore = i, sc
		}
	}
	return best
}

// PassScores rates every card of a hand for passing, before the die is
// known: high Payoo cards, sevens without low cover, high cards of short
// suits; a suit short enough to be emptied by the pass gets a bonus.
func PassScores(hand game.Mask, k int, sc *[60]int) {
	for m := hand; m != 0; m &= m - 1 {
		i := lowest(m)
		su, r := suitOf(i), rankOf(i)
		inSuit := hand & suitMask[su]
		n := inSuit.Count()
		lowCover := below(inSuit, i).Count()
		var v int
		if su == 4 {
			v = r + 2
			if r >= 10 && lowCover < 3 {
				v += 6
			}
			if r <= 5 {
				v = r - 4
			}
		} else {
			v = 2*(r-5) + 1
			if r == 7 {
				v = 8 // a quarter chance of being the Papayoo
				if lowCover >= 3 {
					v -= 4
				}
			}
			if r >= 8 && lowCover <= 1 {
				v += 4
			}
			if n <= 2 {
				v += 6 - 2*n // voiding a short suit is worth a lot
			}
			if r <= 3 {
				v = r - 6
			}
		}
		sc[i] = v
	}
}

// BestPass is the K highest-rated cards.
func BestPass(hand game.Mask, k int) game.Mask {
	var sc [60]int
	PassScores(hand, k, &sc)
	return topK(hand, k, &sc)
}

func topK(hand game.Mask, k int, sc *[60]int) game.Mask {
	var out game.Mask
	for ; k > 0; k-- {
		best, bs := -1, -1<<30
		for m := hand &^ out; m != 0; m &= m - 1 {
			i := lowest(m)
			if sc[i] > bs {
				best, bs = i, sc[i]
			}
		}
		if best < 0 {
			break
		}
		out |= game.Bit(best)
	}
	return out
}

// CandidatePasses is a pruned set of passes for the search to rank: the
// rule-based pass, its one-card swaps with the next-best cards, and passes
// from randomly perturbed ratings; at most max distinct passes.
func CandidatePasses(hand game.Mask, k, max int, r *game.Rand) []game.Mask {
	var sc [60]int
	PassScores(hand, k, &sc)
	best := topK(hand, k, &sc)
	out := []game.Mask{best}
	seen := map[game.Mask]bool{best: true}
	add := func(m game.Mask) {
		if len(out) < max && !seen[m] && m.Count() == k {
			seen[m] = true
			out = append(out, m)
		}
	}
	// Swaps: drop one chosen card, take one of the 4 next-best.
	rest := topK(hand&^best, min(4, (hand&^best).Count()), &sc)
	for in := best; in != 0; in &= in - 1 {
		for o := rest; o != 0; o &= o - 1 {
			add(best&^game.Bit(lowest(in)) | game.Bit(lowest(o)))
		}
	}
	for tries := 0; len(out) < max && tries < 20*max; tries++ {
		var p [60]int
		for m := hand; m != 0; m &= m - 1 {
			i := lowest(m)
			p[i] = sc[i]*4 + r.IntN(25)
		}
		add(topK(hand, k, &p))
	}
	return out
}

// FromView builds the Sit of a view's observer.
func FromView(v *papayoo.View) *Sit {
	s := &Sit{N: v.Players, Me: int(v.Seat), Pap: -1, Leader: int(v.Trick.Leader), Hand: v.Hand}
	seen := s.Hand
	for _, t := range v.Tricks {
		seen |= game.MaskOf(deck, t.Cards...)
	}
	for j, c := range v.Trick.Cards {
		if i := deck.Index(c); i >= 0 && j < len(s.Trick) {
			s.Trick[j] = int8(i)
			seen |= game.Bit(i)
		}
	}
	s.TrickLen = min(len(v.Trick.Cards), len(s.Trick))
	s.Out = papayoo.DeckFor(v.Players) &^ seen
	if i := deck.Index(v.Papayoo); i >= 0 {
		s.Pap = i
	}
	for k, vs := range v.Voids {
		if k < len(s.Voids) {
			s.Voids[k] = uint8(vs)
		}
	}
	s.GaveLeft = v.MyPass & s.Out
	return s
}

// Rule is the rule-based player's choice from a view (bot.Kit.Rule).
func Rule(gv game.View, legal []game.Move, r *game.Rand, easy bool) game.Move {
	v, ok := gv.(*papayoo.View)
	if !ok || len(legal) == 0 {
		return legal[r.IntN(len(legal))]
	}
	if legal[0].Op == papayoo.OpPass {
		hand := v.Hand
		var pass game.Mask
		if easy {
			// Easy passes the highest cards, ignoring suit lengths and sevens.
			var sc [60]int
			for m := hand; m != 0; m &= m - 1 {
				i := lowest(m)
				sc[i] = rankOf(i)
				if i >= 40 {
					sc[i] = rankOf(i) - 4
				}
			}
			pass = topK(hand, v.PassSize, &sc)
		} else {
			pass = BestPass(hand, v.PassSize)
		}
		for _, m := range legal {
			if m.Set == pass {
				return m
			}
		}
		return legal[r.IntN(len(legal))]
	}
	var lm game.Mask
	for _, m := range legal {
		lm |= game.Bit(deck.Index(m.Card))
	}
	s := FromView(v)
	i := s.ChooseCard(lm, easy)
	return game.Move{Op: papayoo.OpPlay, Card: deck.Card(i)}
}
