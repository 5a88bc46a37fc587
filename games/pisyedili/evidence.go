package pisyedili

import "cardroom/game"

// A search bot's determinizations may use more than the rules: the soft
// voids of the view (VoidKind.Soft) say what a seat that plays as the
// rule-based bots do cannot hold. Engine.Sample must deal every layout the
// rules allow, so it ignores them; a Sampler told to (UseEvidence) deals
// hands that keep them instead. It is for bots only: against a player who
// draws with a playable card the evidence is wrong, and a bot that takes
// it as certain misreads that player.

// UseEvidence makes Sample deal hands that keep the view's soft voids as
// well as the hard ones: each soft void is kept with probability p in a
// determinization (p ≥ 1: always; p ≤ 0: never, and Sample deals exactly
// what Engine.Sample deals). With evidence the deal is constructive, not
// rejection sampling (a few soft voids at once rule out almost every
// uniform deal): the cards that a void limits for some seat are dealt
// first, each to the stock or to a seat that may still take it (it holds
// fewer than Since of the void's cards), in proportion to the room left
// there, then the others fill the rest at random. With only Since = 0
// voids this is the uniform deal given the voids; a void with Since = k > 0
// is met as "at most k", which such a deal meets by holding about k of
// them (a stronger reading, all but the k newest cards outside the void,
// was tried and did not pay: docs/bots.md). When the voids cannot all be
// kept (the evidence was wrong, or too few cards are left) a card goes
// where there is room.
func (z *Sampler) UseEvidence(p float64) {
	z.evidence = p
	z.hasSoft = len(z.extra) > 0
	for q := 0; q < z.base.n; q++ {
		if !z.deal.hidden[q] {
			continue
		}
		for _, v := range z.base.soft[q] {
			if v.f != 0 {
				z.hasSoft = true
			}
		}
	}
}

// Suppose adds a void of the bot's own reading of the view, kept like a
// soft void when the Sampler takes evidence (UseEvidence with p > 0, and
// always, not with probability p): hidden seat holds at most atMost cards
// of lacks now. A search bot derives them from the view's plays (what a
// seat that plays by its rules would not have played); the engine knows
// no such rule, so it never deals by them itself. Ignored for a seat whose
// hand is seen, and beyond maxSuppose voids with atMost > 0.
func (z *Sampler) Suppose(seat game.Seat, lacks game.Mask, atMost int) {
	q := int(seat)
	if q < 0 || q >= z.base.n || !z.deal.hidden[q] || lacks&deckBits == 0 {
		return
	}
	if atMost < 0 {
		atMost = 0
	}
	z.extra = append(z.extra, cons{f: lacks & deckBits, left: atMost, seat: int8(q)})
	z.hasSoft = true
}

// maxSuppose bounds the voids with room left (atMost > 0) that Suppose
// adds to a deal; those with none are only a mask of faces a seat may not
// take, and cost nothing.
const maxSuppose = 48

// cons is one void a hidden seat must keep in dealEvidence: it may take at
// most left more cards of f.
type cons struct {
	f    game.Mask
	left int
	seat int8
}

// dealEvidence is dealHidden with the soft voids kept (each with
// probability p): see UseEvidence.
func (s *State) dealEvidence(r *game.Rand, d *hiddenDeal, elig []game.Card, p float64, extra []cons) {
	var cs [maxSeats*(2+softSlots) + maxSuppose]cons
	nc := 0
	var room [maxSeats]int
	var allowed [maxSeats]game.Mask
	var limited game.Mask // the faces some void limits
	for q := 0; q < s.n; q++ {
		if !d.hidden[q] {
			continue
		}
		room[q] = s.hn[q]
		allowed[q] = deckBits
		for _, v := range s.voids[q] {
			if v.f != 0 {
				cs[nc] = cons{f: v.f, left: v.k, seat: int8(q)}
				nc++
			}
		}
		for _, v := range s.soft[q] {
			if v.f != 0 && (p >= 1 || r.Float64() < p) {
				cs[nc] = cons{f: v.f, left: int(v.k), seat: int8(q)}
				nc++
			}
		}
	}
	for _, c := range extra {
		if c.left > 0 && nc == len(cs) {
			continue
		}
		if c.left > 0 {
			cs[nc] = c
			nc++
			continue
		}
		allowed[c.seat] &^= c.f
		limited |= c.f
	}
	un := d.unseen
	var ecount [53]int // the copies of each face that may be in the stock
	for _, c := range elig {
		ecount[idx(c)]++
	}
	stockRoom := s.stockN
	var tracked [maxSeats]game.Mask // the faces some void of the seat still counts
	for j := 0; j < nc; j++ {
		tracked[cs[j].seat] |= cs[j].f
	}
	take := func(q, i int) {
		msAdd(&s.h1[q], &s.h2[q], i)
		room[q]--
		if !tracked[q].Has(i) {
			return
		}
		for j := 0; j < nc; j++ {
			if c := &cs[j]; int(c.seat) == q && c.f.Has(i) {
				c.left--
				if c.left <= 0 {
					allowed[q] &^= c.f
				}
			}
		}
	}
	for j := 0; j < nc; j++ {
		c := &cs[j]
		if c.left <= 0 {
			allowed[c.seat] &^= c.f
		}
		limited |= c.f
	}
	if d.drawnHidden {
		// The card drawn comes from the stock, as in dealHidden.
		c := elig[r.IntN(len(elig))]
		i := idx(c)
		s.drawn = c
		un[i]--
		ecount[i]--
		take(s.turn, i)
	}
	var stock [maxCards]game.Card
	ns := 0
	// place deals one copy of face i: to the stock (if it may go there) or
	// a hidden seat that may still take it, in proportion to the room left.
	place := func(i int, toStock bool) {
		w := 0
		if toStock {
			w = stockRoom
		}
		for q := 0; q < s.n; q++ {
			if room[q] > 0 && allowed[q].Has(i) {
				w += room[q]
			}
		}
		if w == 0 {
			// The voids cannot all be kept: any room will do.
			if toStock && stockRoom > 0 {
				stock[ns] = faceCard[i]
				ns++
				stockRoom--
				return
			}
			for q := 0; q < s.n; q++ {
				if room[q] > 0 {
					take(q, i)
					return
				}
			}
			stock[ns] = faceCard[i] // cannot happen: the counts add up (fromView)
			ns++
			stockRoom--
			return
		}
		u := r.IntN(w)
		if toStock {
			if u < stockRoom {
				stock[ns] = faceCard[i]
				ns++
				stockRoom--
				return
			}
			u -= stockRoom
		}
		for q := 0; q < s.n; q++ {
			if room[q] > 0 && allowed[q].Has(i) {
				if u < room[q] {
					take(q, i)
					return
				}
				u -= room[q]
			}
		}
	}
	// shuffled lists, in random order, copies(i) copies of each face i.
	var order [maxCards]game.Card
	shuffled := func(copies func(i int) int) []game.Card {
		n := 0
		for i := 0; i < 53; i++ {
			for range copies(i) {
				order[n] = faceCard[i]
				n++
			}
		}
		r.ShuffleCards(order[:n])
		return order[:n]
	}
	// The cards that cannot be in the stock (after a reshuffle) go to the
	// hands first, then the limited ones, in random order.
	for _, c := range shuffled(func(i int) int { return un[i] - ecount[i] }) {
		place(idx(c), false)
	}
	// free is how many copies of face i, limited (in) or not, may be in
	// the stock or a hand.
	free := func(i int, in bool) int {
		if limited.Has(i) != in {
			return 0
		}
		return min(ecount[i], un[i])
	}
	for _, c := range shuffled(func(i int) int { return free(i, true) }) {
		place(idx(c), true)
	}
	// The rest may go anywhere: a random fill of the room left.
	rest := shuffled(func(i int) int { return free(i, false) })
	j := 0
	for ; stockRoom > 0 && j < len(rest); j++ {
		stock[ns] = rest[j]
		ns++
		stockRoom--
	}
	for q := 0; q < s.n; q++ {
		for ; room[q] > 0 && j < len(rest); j++ {
			take(q, idx(rest[j]))
		}
	}
	r.ShuffleCards(stock[:ns])
	copy(s.stock[:ns], stock[:ns])
}
