package rum500bot

import (
	"math/bits"

	"cardroom/game"
	"cardroom/games/rum500"
)

// Evidence is what an opponent's turns say of its hand if it plays by the
// medium rules (Choose), read from its last turn of the hand, the one that
// ended with its last discard (it has not moved since, so its hand now is
// the hand it kept then):
//
//   - the medium rules meld and lay off everything they can before they
//     discard, so it held no meld and no card the table then accepted
//     (melds made and cards laid off since may accept its cards now);
//   - they discard the best-rated card (discardScore), so every card it
//     kept rates no higher than the one it discarded, on the hand then
//     (the hand now and that card);
//   - if it drew from the stock, they would have taken the card on top of
//     the pile had two of its cards made a meld with it, so none did (all
//     but the card drawn, which is one of those it held after the draw).
//
// A seat that has not discarded in this hand holds the cards it was dealt,
// of which nothing is known. Against players who hold melds back these are
// not facts: Domain.Sample keeps the deal that breaks them least when none
// of its tries fits.
type Evidence struct {
	seen   [8]bool      // the seat discarded in this hand
	forbid [8]game.Mask // the faces the table accepted at its last discard
	// The last discard, by the medium rules the hand's best-rated: every
	// card kept rated no higher (discardScore on the hand then, the hand
	// now and the card discarded).
	disc   [8]int       // the card discarded, -1 if not read
	accept [8]game.Mask // the table's faces as Info.Accept read them then
	next   [8]game.Mask // a superset of the next seat's known cards then
	// The last draw, if it was from the stock: the medium rules would have
	// taken the pile's top card then had the hand made a meld with it.
	top    [8]int       // the pile's top card then, -1 if not read
	played [8]game.Mask // the cards played from the hand in that turn, discard included
}

// ReadEvidence reads v's evidence on every seat but the observer.
func ReadEvidence(v *rum500.View) *Evidence {
	e := &Evidence{}
	for i := range e.disc {
		e.disc[i], e.top[i] = -1, -1
	}
	if !v.HasHand() || v.Shown != nil {
		return e
	}
	for o := 0; o < v.Players && o < len(e.seen); o++ {
		if o == int(v.Seat) {
			continue
		}
		last := -1
		for i, p := range v.Moves {
			if int(p.Seat) == o && p.Move.Op == rum500.OpDiscard {
				last = i
			}
		}
		if last < 0 {
			continue
		}
		since := v.Moves[last+1:]
		e.seen[o] = true
		e.readDraw(v, o, last)
		e.forbid[o], e.accept[o] = tableAccept(v, since)
		e.disc[o] = std.Index(v.Moves[last].Move.Card)
		// The next seat's known cards then: those known now, and any it
		// has played since (a superset, so the rule is never stricter
		// than the truth).
		nx := (o + 1) % v.Players
		if nx < len(v.Known) {
			e.next[o] = v.Known[nx].One
		}
		for _, p := range since {
			if int(p.Seat) == nx {
				e.next[o] |= p.Move.Set
				if c := std.Index(p.Move.Card); c >= 0 && c < 52 {
					e.next[o] |= game.Bit(c)
				}
			}
		}
	}
	return e
}

// Read reports whether there is evidence on seat o (it discarded in this
// hand).
func (e *Evidence) Read(o int) bool { return o >= 0 && o < len(e.seen) && e.seen[o] }

// Misfits is how far hand h breaks the evidence on seat o: 1 for a meld it
// would have put down, 1 for each card it would have laid off, 1 for a
// missed take of the pile's top card and 1 for each card it would have
// discarded rather than the one it did; 0 when the hand fits.
func (e *Evidence) Misfits(o int, h rum500.Hand) int { return e.misfits(o, h, 1<<30) }

// misfits is Misfits, but it may stop counting at limit.
func (e *Evidence) misfits(o int, h rum500.Hand, limit int) int {
	if o >= len(e.seen) || !e.seen[o] {
		return 0
	}
	n := (h.One & e.forbid[o]).Count()
	if HasMeld(h) {
		n++
	}
	if x := e.top[o]; x >= 0 && !drawFits(h.One|e.played[o], x) {
		n++
	}
	d := e.disc[o]
	if n >= limit || d < 0 || d >= 52 {
		return n
	}
	// The hand when it discarded: the hand now and d. Every card kept
	// rated no higher than d by discardScore; the next seat's known cards
	// lower a card's rating by 20 at most, so count them as if they did
	// wherever they might (the rule stays a necessary one).
	then := h
	then.One, then.Two = h.One|game.Bit(d), h.Two|(h.One&game.Bit(d))
	top := float64(value(d) - usefulIn(d, then))
	if e.accept[o].Has(d) {
		top -= 25
	}
	for m := h.One; m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(uint64(m))
		sc := float64(value(c) - usefulIn(c, then))
		if e.accept[o].Has(c) {
			sc -= 25
		}
		if e.next[o]&near(c) != 0 {
			sc -= 20
		}
		if sc > top {
			n++
			if n >= limit {
				return n
			}
		}
	}
	return n
}

// usefulIn is useful(i, h's cards) for a card i that is not a joker,
// counted on the hand's masks: 6 for each card of its rank in another
// suit and of its suit one rank away, 3 two ranks away.
func usefulIn(i int, h rum500.Hand) int {
	r, s := i%13, i/13
	var pair, one, two game.Mask
	for t := 0; t < 4; t++ {
		if t != s {
			pair |= game.Bit(t*13 + r)
		}
	}
	for _, k := range [2]int{-1, 1} {
		if q := r + k; q >= 0 && q < 13 {
			one |= game.Bit(s*13 + q)
		}
		if q := r + 2*k; q >= 0 && q < 13 {
			two |= game.Bit(s*13 + q)
		}
	}
	cnt := func(m game.Mask) int { return (h.One & m).Count() + (h.Two & m).Count() }
	return 6*cnt(pair|one) + 3*cnt(two)
}

// readDraw notes seat o's last draw if it was from the stock (its turn
// ending with the discard at moves[last]) and the card that lay on top of
// the pile then: the discard just before it.
func (e *Evidence) readDraw(v *rum500.View, o, last int) {
	draw := -1
	for i := last - 1; i >= 0; i-- {
		p := v.Moves[i]
		if int(p.Seat) != o {
			break
		}
		switch p.Move.Op {
		case rum500.OpMeld:
			e.played[o] |= p.Move.Set
		case rum500.OpLayoff:
			if c := std.Index(p.Move.Card); c >= 0 && c < 52 {
				e.played[o] |= game.Bit(c)
			}
		case rum500.OpDraw:
			draw = i
		default:
			e.played[o] = 0
			return // a take: the turn says nothing of this kind
		}
		if draw >= 0 {
			break
		}
	}
	if draw <= 0 || v.Moves[draw-1].Move.Op != rum500.OpDiscard {
		e.played[o] = 0
		return
	}
	if c := std.Index(v.Moves[draw-1].Move.Card); c >= 0 && c < 52 {
		e.top[o] = c
		e.played[o] |= game.Bit(std.Index(v.Moves[last].Move.Card)) &^ game.Bit(52)
	}
}

// drawFits reports whether a seat that drew from the stock with x on top
// of the pile, and that held the faces u once the card drawn had joined
// them, can have held no two cards that make a meld with x: for some card
// of u (the one drawn), the others make none with x.
func drawFits(u game.Mask, x int) bool {
	if !meldsWith(u, x) {
		return true
	}
	for m := u; m != 0; m &= m - 1 {
		if !meldsWith(u&^(m&-m), x) {
			return true
		}
	}
	return false
}

// meldsWith reports whether two of the faces u make a meld with face x:
// two more of its rank, or two next to it in its suit (the ace low or
// high).
func meldsWith(u game.Mask, x int) bool {
	r, s := x%13, x/13
	n := 0
	for t := 0; t < 4; t++ {
		if t != s && u.Has(t*13+r) {
			n++
		}
	}
	if n >= 2 {
		return true
	}
	row := suitRun(u, s)
	for _, p := range [2]int{r, 13} { // x's positions: its rank, and 13 for a high ace
		if p == 13 && r != 0 {
			break
		}
		has := func(q int) bool { return q >= 0 && q <= 13 && row&(1<<q) != 0 }
		if has(p-1) && (has(p-2) || has(p+1)) || has(p+1) && has(p+2) {
			return true
		}
	}
	return false
}

// tableAccept is the faces the table's melds accepted before the moves
// since were made: melds made since are left out, and cards laid off since
// are taken off their melds.
//
// The second mask is what the medium rules' Info.Accept made of the same
// melds (InfoFromView: a set's four faces, a run's next card past its first
// and last card as written, so past a high ace its 2).
func tableAccept(v *rum500.View, since []rum500.Played) (acc, medium game.Mask) {
	var off [128]game.Mask // per meld number: faces laid off since
	made := 0
	for _, p := range since {
		m := p.Move
		switch m.Op {
		case rum500.OpMeld, rum500.OpTakeMeld:
			made++
		case rum500.OpLayoff, rum500.OpTakeLayoff:
			f := std.Index(m.Card)
			if m.Card == game.Joker {
				f = m.Set.Lowest()
			}
			if int(m.A) < len(off) && f >= 0 {
				off[m.A] |= game.Bit(f)
			}
		}
	}
	for k := 0; k < len(v.Melds)-made; k++ {
		md := &v.Melds[k]
		faces := md.Faces()
		if md.Number < len(off) {
			faces &^= off[md.Number]
		}
		acc |= meldAccept(faces, md.Run)
		medium |= mediumAccept(faces, md.Run)
	}
	return acc, medium
}

// mediumAccept is InfoFromView's reading of a meld with these faces.
func mediumAccept(faces game.Mask, run bool) game.Mask {
	if faces == 0 {
		return 0
	}
	lowest := faces.Lowest()
	s := lowest / 13
	var m game.Mask
	if !run {
		for t := 0; t < 4; t++ {
			m |= game.Bit(t*13 + lowest%13)
		}
		return m
	}
	row := uint32(faces>>(13*s)) & 0x1fff
	lo, hi := s*13+trailing(row), s*13+31-leading(row)
	if row&1 != 0 && row&2 == 0 {
		// The ace is high: written last, after the lowest other card.
		lo, hi = s*13+trailing(row&^1), s*13
	}
	if lo%13 > 0 {
		m |= game.Bit(lo - 1)
	}
	if hi%13 < 12 {
		m |= game.Bit(hi + 1)
	} else if hi%13 == 12 {
		m |= game.Bit(s * 13)
	}
	return m
}

// meldAccept is the faces a meld with these faces accepts: the missing
// suits of a set of three, the next card at either end of a run (none
// beyond an ace).
func meldAccept(faces game.Mask, run bool) game.Mask {
	if faces == 0 {
		return 0
	}
	lowest := faces.Lowest()
	if !run {
		if faces.Count() >= 4 {
			return 0
		}
		var all game.Mask
		for s := 0; s < 4; s++ {
			all |= game.Bit(s*13 + lowest%13)
		}
		return all &^ faces
	}
	s := lowest / 13
	row := uint32(faces>>(13*s)) & 0x1fff
	if row&1 != 0 && row&2 == 0 {
		row = row&^1 | 1<<13 // the ace is high
	}
	var acc game.Mask
	lo, hi := trailing(row), 31-leading(row)
	if lo > 0 {
		acc |= game.Bit(s*13 + (lo-1)%13)
	}
	if hi < 13 {
		acc |= game.Bit(s*13 + (hi+1)%13)
	}
	return acc
}

func trailing(x uint32) int { return bits.TrailingZeros32(x) }
func leading(x uint32) int  { return bits.LeadingZeros32(x) }

// suitRun is the ranks of suit s in faces as a 14-bit row: bit 0 the ace
// low, bits 1–12 the ranks 2 to K, bit 13 the ace again, high.
func suitRun(faces game.Mask, s int) uint32 {
	row := uint32(faces>>(13*s)) & 0x1fff
	return row | (row&1)<<13
}

// HasMeld reports whether a hand holds a meld it could put down: three
// faces of a rank or three in a row of a suit (the ace low or high), or,
// with a joker, two of them and the joker in the gap or at an end.
func HasMeld(h rum500.Hand) bool {
	faces := h.One
	need := 3
	if h.Jokers > 0 {
		need = 2
	}
	for r := 0; r < 13; r++ {
		n := 0
		for s := 0; s < 4; s++ {
			if faces.Has(s*13 + r) {
				n++
			}
		}
		if n >= need {
			return true
		}
	}
	for s := 0; s < 4; s++ {
		row := suitRun(faces, s)
		if row&(row>>1)&(row>>2) != 0 {
			return true
		}
		if h.Jokers > 0 {
			// Two of any three in a row: adjacent, or one apart.
			if row&(row>>1)&0x1fff != 0 || row&(row>>2)&0xfff != 0 {
				return true
			}
		}
	}
	return false
}

// near is the faces that make a pair or a near-run with face c (what
// useful counts), as a mask.
func near(c int) game.Mask {
	r, s := c%13, c/13
	var m game.Mask
	for t := 0; t < 4; t++ {
		if t != s {
			m |= game.Bit(t*13 + r)
		}
	}
	for d := -2; d <= 2; d++ {
		if d != 0 && r+d >= 0 && r+d < 13 {
			m |= game.Bit(s*13 + r + d)
		}
	}
	return m
}
