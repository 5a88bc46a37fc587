package rum500

import (
	"math/bits"

	"cardroom/game"
)

// A run's cards sit on positions 0..13 of its suit: 0 is the low ace, 1..12
// the ranks 2..K, 13 the high ace. A run never holds both 0 and 13.
//
// meld is one meld on the table. Cards never move once placed, so each
// card's owner and its points are fixed when it is placed.
type meld struct {
	run    bool
	suit   uint8     // a run's suit
	rank   uint8     // a set's rank (1..13)
	lo, hi int8      // a run's lowest and highest positions
	faces  game.Mask // the faces on the meld (what jokers stand for included)
	jokers game.Mask // the faces jokers stand for
	owner  [14]int8  // run: by position; set: by suit
	acc    [2]int8   // the faces accept() gives, kept up to date
}

const suit13 = 0x1FFF

// faceAt is the face index at run position p of suit s.
func faceAt(s uint8, p int) int { return int(s)*13 + p%13 }

// windowFaces maps a 14-bit position mask of suit s to faces.
func windowFaces(w uint32, s uint8) game.Mask {
	f := uint64(w&suit13) | uint64(w>>13)
	return game.Mask(f << (13 * uint(s)))
}

// suitPositions is the 14-bit position mask of the faces of suit s in m,
// with an ace on both 0 and 13.
func suitPositions(m game.Mask, s int) uint32 {
	r := uint32(uint64(m)>>(13*uint(s))) & suit13
	return r | (r&1)<<13
}

// shape checks that faces (with jokers standing for the faces in jk) form a
// valid new meld and returns it, without owners. b tells where the ace of a
// 13-card run is. The reason is empty when the meld is valid.
func shape(faces, jk game.Mask, b uint8) (meld, string) {
	var m meld
	if faces>>52 != 0 || jk&^faces != 0 {
		return m, "not a meld"
	}
	if faces.Count() < 3 {
		return m, "a meld needs at least 3 cards"
	}
	lowest := faces.Lowest()
	r := lowest%13 + 1
	if faces&^rankMask[r] == 0 {
		if b != EndNone {
			return m, "low/high only for a 13-card run"
		}
		m.rank = uint8(r)
		m.faces, m.jokers = faces, jk
		for i := range m.owner {
			m.owner[i] = -1
		}
		return m, ""
	}
	s := lowest / 13
	if faces&^(game.Mask(suit13)<<(13*uint(s))) != 0 {
		return m, "not a set (same rank, different suits) nor a run (same suit, consecutive ranks)"
	}
	r13 := uint32(uint64(faces)>>(13*uint(s))) & suit13
	pos := r13
	switch {
	case r13 == suit13:
		switch b {
		case EndLow:
		case EndHigh:
			pos = r13&^1 | 1<<13
		default:
			return m, "a 13-card run must show where the ace is (first: low, last: high)"
		}
	case b != EndNone:
		return m, "low/high only for a 13-card run"
	case r13&1 != 0 && r13&2 == 0 && r13&(1<<12) != 0:
		pos = r13&^1 | 1<<13 // Q K A
	}
	lo := bits.TrailingZeros32(pos)
	x := pos >> uint(lo)
	if x&(x+1) != 0 {
		if r13&1 != 0 {
			return m, "not a run: cards not consecutive (the ace is low or high, never round the corner)"
		}
		return m, "not a run: cards not consecutive"
	}
	m.run = true
	m.suit = uint8(s)
	m.lo = int8(lo)
	m.hi = int8(31 - bits.LeadingZeros32(pos))
	m.faces, m.jokers = faces, jk
	for i := range m.owner {
		m.owner[i] = -1
	}
	return m, ""
}

// accept gives the faces that may be laid off on the meld: at the low and
// high end of a run, or the missing suit of a set of three (as low). -1 when
// none.
func (m *meld) accept() (low, high int) { return int(m.acc[0]), int(m.acc[1]) }

// refresh recomputes acc after the meld changed.
func (m *meld) refresh() {
	l, h := m.computeAccept()
	m.acc = [2]int8{int8(l), int8(h)}
}

func (m *meld) computeAccept() (low, high int) {
	low, high = -1, -1
	if !m.run {
		if m.faces.Count() < 4 {
			for s := 0; s < 4; s++ {
				f := s*13 + int(m.rank) - 1
				if !m.faces.Has(f) {
					return f, -1
				}
			}
		}
		return
	}
	if m.lo > 0 && !(m.lo == 1 && m.hi == 13) {
		low = faceAt(m.suit, int(m.lo)-1)
	}
	if m.hi < 13 && !(m.hi == 12 && m.lo == 0) {
		high = faceAt(m.suit, int(m.hi)+1)
	}
	return
}

// fit checks that face f may be laid off on m with the end b given in the
// move, and returns the end it goes to (EndLow for sets). ok false when it
// does not fit; the reason then says why.
func (m *meld) fit(f int, b uint8) (end uint8, reason string) {
	low, high := m.accept()
	switch {
	case f == low && f == high:
		if b == EndNone {
			return 0, "the card fits both ends: say low or high"
		}
		return b, ""
	case f == low:
		if b != EndNone {
			return 0, "low/high only when the card fits both ends"
		}
		return EndLow, ""
	case f == high:
		if b != EndNone {
			return 0, "low/high only when the card fits both ends"
		}
		return EndHigh, ""
	}
	return 0, "it does not fit the meld"
}

// points a card placed at position p (run) or on a set is worth on the table.
func (m *meld) points(f int, joker bool, p int) int {
	switch {
	case joker:
		return 15
	case m.run && p == 0:
		return 1
	}
	return value[f]
}

// order lists the meld's slots in printing order: run positions ascending,
// or set suits S H D C. For each slot it gives the face and the owner slot.
func (m *meld) order(buf []int) []int {
	if m.run {
		for p := int(m.lo); p <= int(m.hi); p++ {
			buf = append(buf, p)
		}
		return buf
	}
	for s := 0; s < 4; s++ {
		if m.faces.Has(s*13 + int(m.rank) - 1) {
			buf = append(buf, s)
		}
	}
	return buf
}

// slotFace is the face at a slot given by order.
func (m *meld) slotFace(slot int) int {
	if m.run {
		return faceAt(m.suit, slot)
	}
	return slot*13 + int(m.rank) - 1
}

// aceEnd is the B value a meld move needs to show where the ace of a
// 13-card run is.
func aceEnd(faces game.Mask, lo int8) uint8 {
	if faces.Count() == 13 && faces&^(game.Mask(suit13)<<(13*uint(faces.Lowest()/13))) == 0 {
		if lo == 0 {
			return EndLow
		}
		return EndHigh
	}
	return EndNone
}

// place puts a new meld on the table for seat and credits its points.
func (s *State) place(m meld, seat int) {
	if m.run {
		for p := int(m.lo); p <= int(m.hi); p++ {
			f := faceAt(m.suit, p)
			m.owner[p] = int8(seat)
			s.table[seat] += m.points(f, m.jokers.Has(f), p)
		}
	} else {
		for st := 0; st < 4; st++ {
			f := st*13 + int(m.rank) - 1
			if m.faces.Has(f) {
				m.owner[st] = int8(seat)
				s.table[seat] += m.points(f, m.jokers.Has(f), 0)
			}
		}
	}
	m.refresh()
	s.melds[s.meldsN] = m
	s.meldsN++
}

// layoff adds face f (a joker standing for f if joker) to meld k at end.
func (s *State) layoff(k int, f int, joker bool, end uint8, seat int) {
	m := &s.melds[k]
	b := game.Bit(f)
	m.faces |= b
	if joker {
		m.jokers |= b
	}
	if !m.run {
		m.owner[f/13] = int8(seat)
		s.table[seat] += m.points(f, joker, 0)
		m.refresh()
		return
	}
	var p int
	if end == EndLow {
		m.lo--
		p = int(m.lo)
	} else {
		m.hi++
		p = int(m.hi)
	}
	m.owner[p] = int8(seat)
	s.table[seat] += m.points(f, joker, p)
	m.refresh()
}
