package rum500

import (
	"strconv"

	"cardroom/game"
)

func (s *State) refuse(code game.ErrorCode, seat game.Seat, m game.Move, format string, args ...any) error {
	return game.Errorf(code, seat, s.FormatMove(m), format, args...)
}

// Apply implements game.State. A refused move changes nothing.
func (s *State) Apply(seat game.Seat, m game.Move) error {
	switch {
	case int(seat) < 0 || int(seat) >= s.cfg.n:
		return s.refuse(game.ErrBadSeat, seat, m, "no seat %d in a %d-player game", seat, s.cfg.n)
	case s.phase == phOver:
		return s.refuse(game.ErrGameOver, seat, m, "the game is over")
	case s.ChancePending():
		return s.refuse(game.ErrNoChance, seat, m, "a deal is pending")
	case int(seat) != s.toMove:
		return s.refuse(game.ErrNotYourTurn, seat, m, "seat %d is to play", s.toMove)
	}
	if !canonical(m) {
		return s.refuse(game.ErrMalformed, seat, m, "not a move of this game")
	}
	if reason := s.apply(int(seat), m); reason != "" {
		return s.refuse(game.ErrIllegal, seat, m, "%s", reason)
	}
	return nil
}

// canonical reports whether m's fields fit its verb (unused fields zero).
func canonical(m game.Move) bool {
	switch m.Op {
	case OpDraw, OpDecline:
		return m.Card == game.NoCard && m.A == 0 && m.B == 0 && m.Set == 0 && m.Set2 == 0
	case OpTake, OpDiscard:
		return ix(m.Card) >= 0 && m.A == 0 && m.B == 0 && m.Set == 0 && m.Set2 == 0
	case OpMeld:
		return m.Card == game.NoCard && m.A == 0 && m.B <= EndHigh
	case OpTakeMeld:
		return ix(m.Card) >= 0 && m.A == 0 && m.B <= EndHigh
	case OpLayoff, OpTakeLayoff:
		return ix(m.Card) >= 0 && m.A != 0 && m.B <= EndHigh && m.Set2 == 0 && m.Set.Count() == 1
	}
	return false
}

// apply checks and plays m for the seat to move; it returns why the move is
// illegal (and changes nothing), or "".
func (s *State) apply(seat int, m game.Move) string {
	h := &s.hands[seat]
	drawPhase := s.phase == phDraw
	switch m.Op {
	case OpDraw, OpTakeMeld, OpTakeLayoff, OpTake, OpDecline:
		if !drawPhase {
			return "you have drawn already: meld, lay off or discard"
		}
	default:
		if drawPhase {
			return "draw first (draw, or take from the discard pile)"
		}
	}
	switch m.Op {
	case OpDraw:
		if s.stockN == 0 {
			return "the stock is empty: take from the discard pile or decline"
		}
		s.stockN--
		c := int(s.stock[s.stockN])
		h.add(c)
		if s.turned {
			s.known[seat].add(c) // the turned-over stock's order is public
		}
		s.phase = phPlay
		s.log(seat, m)
	case OpTake:
		if !s.cfg.topFree {
			return "take needs an immediate use (meld or layoff) unless top_discard_free is on"
		}
		if s.stockN == 0 {
			return "with the stock empty a take needs an immediate use"
		}
		c := ix(m.Card)
		if c < 0 || s.pileN == 0 || int(s.pile[s.pileN-1]) != c {
			return "only the top card of the discard pile may be taken alone"
		}
		s.pileN--
		h.add(c)
		s.known[seat].add(c)
		s.phase = phPlay
		s.log(seat, m)
	case OpTakeMeld, OpTakeLayoff:
		return s.applyTake(seat, m)
	case OpDecline:
		if s.stockN != 0 {
			return "decline only when the stock is empty"
		}
		s.log(seat, m)
		s.endHand(-1)
	case OpMeld:
		nm, reason := shape(m.Set, m.Set2, m.B)
		if reason != "" {
			return reason
		}
		if m.Card != game.NoCard || m.A != 0 {
			return "not a meld move"
		}
		if r := s.canMeld(h, nm); r != "" {
			return r
		}
		if s.cfg.mustDisc && h.Count()-nm.faces.Count() < 1 {
			return "must_discard_to_go_out: keep a card to discard"
		}
		s.removeMeld(seat, nm)
		s.place(nm, seat)
		s.log(seat, m)
		s.afterPlay(seat)
	case OpLayoff:
		k, f, joker, end, reason := s.checkLayoff(m)
		if reason != "" {
			return reason
		}
		if joker && h.Jokers == 0 || !joker && h.Has(f) == 0 {
			return "you do not hold " + game.Standard.Format(m.Card)
		}
		if s.cfg.mustDisc && h.Count() < 2 {
			return "must_discard_to_go_out: keep a card to discard"
		}
		c := f
		if joker {
			c = jokerIx
		}
		h.remove(c)
		s.known[seat].remove(c)
		s.layoff(k, f, joker, end, seat)
		s.log(seat, m)
		s.afterPlay(seat)
	case OpDiscard:
		c := ix(m.Card)
		if c < 0 || m.A != 0 || m.B != 0 || m.Set != 0 || m.Set2 != 0 {
			return "not a discard"
		}
		if h.Has(c) == 0 {
			return "you do not hold " + cardStr(c)
		}
		h.remove(c)
		s.known[seat].remove(c)
		s.pile[s.pileN] = uint8(c)
		s.pileN++
		s.log(seat, m)
		if h.Count() == 0 {
			s.endHand(seat)
			return ""
		}
		s.endTurn()
	}
	return ""
}

// canMeld checks that the hand holds the meld's natural cards and jokers.
func (s *State) canMeld(h *hand, nm meld) string {
	nat := nm.faces &^ nm.jokers
	if miss := nat &^ h.One; miss != 0 {
		return "you do not hold " + cardStr(miss.Lowest())
	}
	if j := nm.jokers.Count(); j > 0 {
		if j > 1 && s.cfg.oneJoker {
			return "meld_jokers=one: a new meld holds at most one joker"
		}
		if h.Jokers == 0 {
			return "you hold no joker"
		}
		if j > int(h.Jokers) {
			return "the meld needs " + strconv.Itoa(j) + " jokers; you hold " + strconv.Itoa(int(h.Jokers))
		}
	}
	return ""
}

// removeMeld takes a new meld's cards out of the seat's hand.
func (s *State) removeMeld(seat int, nm meld) {
	h := &s.hands[seat]
	for x := nm.faces &^ nm.jokers; x != 0; x &= x - 1 {
		f := x.Lowest()
		h.remove(f)
		s.known[seat].remove(f)
	}
	for j := nm.jokers.Count(); j > 0; j-- {
		h.remove(jokerIx)
		s.known[seat].remove(jokerIx)
	}
}

// checkLayoff validates the meld number, the face and the end of a lay-off
// (or take-layoff) move, without looking at the hand.
func (s *State) checkLayoff(m game.Move) (k, f int, joker bool, end uint8, reason string) {
	c := ix(m.Card)
	if c < 0 || m.Set2 != 0 || m.Set.Count() != 1 {
		return 0, 0, false, 0, "not a lay-off"
	}
	f = m.Set.Lowest()
	joker = c == jokerIx
	if !joker && f != c || f >= 52 {
		return 0, 0, false, 0, "not a lay-off"
	}
	k = int(m.A) - 1
	if k < 0 || k >= s.meldsN {
		return 0, 0, false, 0, "no meld " + itoa(int(m.A))
	}
	end, reason = s.melds[k].fit(f, m.B)
	if reason != "" {
		if joker {
			reason = "a joker standing for " + cardStr(f) + ": " + reason
		}
		return 0, 0, false, 0, reason
	}
	return k, f, joker, end, ""
}

// pileFind is the position of the upper copy of card c in the pile, or -1.
func (s *State) pileFind(c int) int {
	for i := s.pileN - 1; i >= 0; i-- {
		if int(s.pile[i]) == c {
			return i
		}
	}
	return -1
}

func (s *State) applyTake(seat int, m game.Move) string {
	c := ix(m.Card)
	if c < 0 {
		return "not a card"
	}
	i := s.pileFind(c)
	if i < 0 {
		return cardStr(c) + " is not in the discard pile"
	}
	// The hand after taking pile[i:].
	nh := s.hands[seat]
	for j := i; j < s.pileN; j++ {
		nh.add(int(s.pile[j]))
	}
	if m.Op == OpTakeMeld {
		if m.A != 0 {
			return "not a take-meld move"
		}
		nm, reason := shape(m.Set, m.Set2, m.B)
		if reason != "" {
			return reason
		}
		if c == jokerIx {
			if nm.jokers == 0 {
				return "the joker taken must be in the meld"
			}
		} else if !(nm.faces &^ nm.jokers).Has(c) {
			return "the meld must hold " + cardStr(c) + ", the card taken"
		}
		if r := s.canMeld(&nh, nm); r != "" {
			return r
		}
		if s.cfg.mustDisc && nh.Count()-nm.faces.Count() < 1 {
			return "must_discard_to_go_out: keep a card to discard"
		}
		s.takeCards(seat, i, nh)
		s.removeMeld(seat, nm)
		s.place(nm, seat)
		s.log(seat, m)
		s.phase = phPlay
		s.afterPlay(seat)
		return ""
	}
	k, f, joker, end, reason := s.checkLayoff(m)
	if reason != "" {
		return reason
	}
	s.takeCards(seat, i, nh)
	s.hands[seat].remove(c)
	s.known[seat].remove(c)
	s.layoff(k, f, joker, end, seat)
	s.log(seat, m)
	s.phase = phPlay
	s.afterPlay(seat)
	return ""
}

// takeCards moves pile[i:] into the seat's hand (nh is that hand) and makes
// the cards known.
func (s *State) takeCards(seat, i int, nh hand) {
	for j := i; j < s.pileN; j++ {
		s.known[seat].add(int(s.pile[j]))
	}
	s.hands[seat] = nh
	s.pileN = i
}

func (s *State) log(seat int, m game.Move) {
	s.hist = append(s.hist, histEntry{int8(seat), m})
}

// afterPlay ends the hand if the seat went out by a meld or lay-off.
func (s *State) afterPlay(seat int) {
	if s.hands[seat].Count() == 0 {
		s.endHand(seat)
	}
}

// endTurn passes the turn after a discard, applying the stock rules (§8).
func (s *State) endTurn() {
	s.toMove = (s.toMove + 1) % s.cfg.n
	s.phase = phDraw
	if s.stockN > 0 {
		return
	}
	switch s.cfg.stock {
	case endImmediately:
		s.endHand(-1)
	case turnOverDiscards:
		if s.turned || s.pileN < 2 {
			s.endHand(-1)
			return
		}
		// The pile but its top, turned over: its bottom card becomes the
		// stock's top.
		n := s.pileN - 1
		for j := 0; j < n; j++ {
			s.stock[n-1-j] = s.pile[j]
		}
		s.stockN = n
		s.pile[0] = s.pile[n]
		s.pileN = 1
		s.turned = true
	}
}

// endHand scores the hand (§9) and either ends the game (§10) or waits for
// the next deal.
func (s *State) endHand(out int) {
	n := s.cfg.n
	s.out = out
	best := -1 << 62
	for i := 0; i < n; i++ {
		sc := s.table[i] - s.hands[i].points()
		if i == out {
			sc += s.cfg.bonus
		}
		s.rounds = append(s.rounds, sc)
		s.totals[i] += sc
		best = max(best, s.totals[i])
	}
	s.phase = phDeal
	if best >= s.cfg.target {
		ties := 0
		for i := 0; i < n; i++ {
			if s.totals[i] == best {
				ties++
			}
		}
		if ties == 1 || !s.cfg.playOn {
			s.phase = phOver
		}
	}
}
