package rum500

import (
	"math/bits"

	"cardroom/game"
)

// Legal implements game.State: every legal move of seat, complete and exact.
func (s *State) Legal(seat game.Seat, buf []game.Move) []game.Move {
	if int(seat) != s.toMove || (s.phase != phDraw && s.phase != phPlay) {
		return buf
	}
	if s.phase == phDraw {
		return s.legalDraw(buf)
	}
	return s.legalPlay(buf)
}

func (s *State) legalDraw(buf []game.Move) []game.Move {
	h := &s.hands[s.toMove]
	if s.stockN > 0 {
		buf = append(buf, game.Move{Op: OpDraw})
	}
	var acc game.Mask // faces some meld accepts
	accAny := false
	for k := 0; k < s.meldsN; k++ {
		low, high := s.melds[k].accept()
		if low >= 0 {
			acc |= game.Bit(low)
			accAny = true
		}
		if high >= 0 {
			acc |= game.Bit(high)
			accAny = true
		}
	}
	avail, jk, cnt := h.One, int(h.Jokers), h.Count()
	var seen game.Mask
	seenJ := false
	for i := s.pileN - 1; i >= 0; i-- {
		c := int(s.pile[i])
		cnt++
		if c == jokerIx {
			jk++
			if seenJ {
				continue
			}
			seenJ = true
		} else {
			b := game.Bit(c)
			avail |= b
			if seen&b != 0 {
				continue // only the upper copy may be taken
			}
			seen |= b
		}
		maxSize := cnt
		if s.cfg.mustDisc {
			maxSize--
		}
		tm := game.Move{Op: OpTakeMeld, Card: card(c)}
		if c == jokerIx {
			buf = s.genMelds(buf, tm, avail, jk, -1, true, maxSize)
			if accAny {
				buf = s.genLayoffs(buf, OpTakeLayoff, c)
			}
		} else {
			buf = s.genMelds(buf, tm, avail, jk, c, false, maxSize)
			if acc.Has(c) {
				buf = s.genLayoffs(buf, OpTakeLayoff, c)
			}
		}
	}
	if s.cfg.topFree && s.stockN > 0 && s.pileN > 0 {
		buf = append(buf, game.Move{Op: OpTake, Card: card(int(s.pile[s.pileN-1]))})
	}
	if s.stockN == 0 {
		buf = append(buf, game.Move{Op: OpDecline})
	}
	return buf
}

func (s *State) legalPlay(buf []game.Move) []game.Move {
	h := &s.hands[s.toMove]
	cnt := h.Count()
	maxSize := cnt
	if s.cfg.mustDisc {
		maxSize--
	}
	buf = s.genMelds(buf, game.Move{Op: OpMeld}, h.One, int(h.Jokers), -1, false, maxSize)
	if !s.cfg.mustDisc || cnt >= 2 {
		for k := 0; k < s.meldsN; k++ {
			low, high := s.melds[k].accept()
			a := uint8(k + 1)
			both := low == high
			if low >= 0 {
				b := EndNone
				if both {
					b = EndLow
				}
				if h.One.Has(low) {
					buf = append(buf, game.Move{Op: OpLayoff, Card: card(low), A: a, B: b, Set: game.Bit(low)})
				}
				if h.Jokers > 0 {
					buf = append(buf, game.Move{Op: OpLayoff, Card: game.Joker, A: a, B: b, Set: game.Bit(low)})
				}
			}
			if high >= 0 {
				b := EndNone
				if both {
					b = EndHigh
				}
				if h.One.Has(high) {
					buf = append(buf, game.Move{Op: OpLayoff, Card: card(high), A: a, B: b, Set: game.Bit(high)})
				}
				if h.Jokers > 0 {
					buf = append(buf, game.Move{Op: OpLayoff, Card: game.Joker, A: a, B: b, Set: game.Bit(high)})
				}
			}
		}
	}
	for m := h.One; m != 0; m &= m - 1 {
		buf = append(buf, game.Move{Op: OpDiscard, Card: card(bits.TrailingZeros64(uint64(m)))})
	}
	if h.Jokers > 0 {
		buf = append(buf, game.Move{Op: OpDiscard, Card: game.Joker})
	}
	return buf
}

// genLayoffs appends the lay-offs of card c (jokerIx: a joker standing for
// any face a meld accepts) on every meld.
func (s *State) genLayoffs(buf []game.Move, op uint8, c int) []game.Move {
	cc := card(c)
	for k := 0; k < s.meldsN; k++ {
		low, high := s.melds[k].accept()
		a := uint8(k + 1)
		both := low == high
		if low >= 0 && (c == jokerIx || c == low) {
			b := EndNone
			if both {
				b = EndLow
			}
			buf = append(buf, game.Move{Op: op, Card: cc, A: a, B: b, Set: game.Bit(low)})
		}
		if high >= 0 && (c == jokerIx || c == high) {
			b := EndNone
			if both {
				b = EndHigh
			}
			buf = append(buf, game.Move{Op: op, Card: cc, A: a, B: b, Set: game.Bit(high)})
		}
	}
	return buf
}

// rankSuits is the 4-bit set of suits of rank r (1..13) present in m.
func rankSuits(m game.Mask, r int) uint32 {
	x := uint64(m) >> uint(r-1)
	return uint32(x&1 | (x>>13&1)<<1 | (x>>26&1)<<2 | (x>>39&1)<<3)
}

// setFaces maps a 4-bit suit set of rank r to faces.
func setFaces(suits uint32, r int) game.Mask {
	x := uint64(suits&1) | uint64(suits>>1&1)<<13 | uint64(suits>>2&1)<<26 | uint64(suits>>3&1)<<39
	return game.Mask(x << uint(r-1))
}

// genMelds appends every new meld that can be formed from the faces in avail
// and jk jokers, of at most maxSize cards: with at most one joker
// (genMelds01) and, unless meld_jokers=one, with two or more (genMeldsJokers).
// If req >= 0 the meld must hold face req as a natural card; if wantJoker,
// it must hold a joker. tmpl gives Op and Card of the moves.
func (s *State) genMelds(buf []game.Move, tmpl game.Move, avail game.Mask, jk int, req int, wantJoker bool, maxSize int) []game.Move {
	buf = genMelds01(buf, tmpl, avail, jk, req, wantJoker, maxSize)
	if jk >= 2 && !s.cfg.oneJoker {
		buf = genMeldsJokers(buf, tmpl, avail, jk, req, maxSize)
	}
	return buf
}

// genMeldsJokers appends the new melds holding from 2 to jk jokers (§12:
// "a joker may stand for any card in a meld", as many as the seat holds;
// a meld of jokers alone too), of at most maxSize cards; if req >= 0 the
// meld must hold face req as a natural card. A joker may stand for a card
// the seat also holds, as in genMelds01.
func genMeldsJokers(buf []game.Move, tmpl game.Move, avail game.Mask, jk int, req int, maxSize int) []game.Move {
	if maxSize < 3 {
		return buf
	}
	// jk is at most 4 (two decks of two jokers), which jokerSubsets's
	// four levels cover.
	rLo, rHi, sLo, sHi := 1, 13, 0, 3
	if req >= 0 {
		rLo, rHi = req%13+1, req%13+1
		sLo, sHi = req/13, req/13
	}
	// Sets: natural suits sub (holding req's suit), jokers js in the others.
	for r := rLo; r <= rHi; r++ {
		suits := rankSuits(avail, r)
		for sub := uint32(0); sub < 16; sub++ {
			if sub&^suits != 0 || req >= 0 && sub&(1<<uint(req/13)) == 0 {
				continue
			}
			comp := 0xF &^ sub
			for js := comp; js != 0; js = (js - 1) & comp {
				nj := bits.OnesCount32(js)
				k := bits.OnesCount32(sub) + nj
				if nj < 2 || nj > jk || k < 3 || k > maxSize {
					continue
				}
				m := tmpl
				m.Set = setFaces(sub|js, r)
				m.Set2 = setFaces(js, r)
				buf = append(buf, m)
			}
		}
	}
	// Runs.
	reqPos := runPositions(req)
	for st := sLo; st <= sHi; st++ {
		buf = jokerRuns(buf, tmpl, suitPositions(avail, st), uint8(st), reqPos, maxSize, 2, jk)
	}
	return buf
}

// runPositions is the run positions (0 a low ace … 13 a high ace) face req
// can take, both ends for an ace; 0 when req < 0 (no card required).
func runPositions(req int) uint32 {
	if req < 0 {
		return 0
	}
	p := uint32(1) << uint(req%13)
	if req%13 == 0 {
		p |= 1 << 13
	}
	return p
}

// jokerSubsets appends the runs of window w whose jokers stand for the
// gaps (missing) and for up to extra of the held positions held, minJ
// jokers or more in all; with reqPos set, a card of reqPos stays natural.
func jokerSubsets(buf []game.Move, tmpl game.Move, w, missing, held uint32, extra, minJ int, reqPos uint32, st uint8, l, lo int) []game.Move {
	add := func(buf []game.Move, j uint32) []game.Move {
		if bits.OnesCount32(j) < minJ || reqPos != 0 && (w&^j)&reqPos == 0 {
			return buf
		}
		return appendRun(buf, tmpl, w, j, st, l, lo)
	}
	buf = add(buf, missing)
	if extra < 1 {
		return buf
	}
	for a := held; a != 0; a &= a - 1 {
		ba := a & -a
		buf = add(buf, missing|ba)
		if extra < 2 {
			continue
		}
		for b := a & (a - 1); b != 0; b &= b - 1 {
			bb := b & -b
			buf = add(buf, missing|ba|bb)
			if extra < 3 {
				continue
			}
			for c := b & (b - 1); c != 0; c &= c - 1 {
				bc := c & -c
				buf = add(buf, missing|ba|bb|bc)
				if extra < 4 {
					continue
				}
				for d := c & (c - 1); d != 0; d &= d - 1 {
					buf = add(buf, missing|ba|bb|bc|d&-d)
				}
			}
		}
	}
	return buf
}

// genMelds01 appends the new melds genMelds describes that hold at most one
// joker.
func genMelds01(buf []game.Move, tmpl game.Move, avail game.Mask, jk int, req int, wantJoker bool, maxSize int) []game.Move {
	if maxSize < 3 {
		return buf
	}
	a := uint32(avail) & suit13
	b := uint32(avail>>13) & suit13
	c := uint32(avail>>26) & suit13
	d := uint32(avail>>39) & suit13
	var reqSuit uint32 = 0xF
	var reqPos uint32 = 1<<14 - 1
	var rankSel uint32 = suit13
	sLo, sHi := 0, 3
	if req >= 0 {
		rankSel = 1 << uint(req%13)
		sLo, sHi = req/13, req/13
		reqSuit = 1 << uint(req/13)
		reqPos = runPositions(req)
	}
	// Sets: ranks held in at least 3 suits (2 with a joker).
	three := (a&b&(c|d) | (a|b)&c&d) & rankSel
	var two uint32
	if jk > 0 {
		two = (a&(b|c|d) | b&(c|d) | c&d) & rankSel
	}
	if wantJoker {
		three = 0
	}
	for x := three | two; x != 0; x &= x - 1 {
		r := bits.TrailingZeros32(x) + 1
		suits := rankSuits(avail, r)
		if three&(1<<uint(r-1)) != 0 {
			for sub := suits; sub != 0; sub = (sub - 1) & suits {
				k := bits.OnesCount32(sub)
				if k >= 3 && sub&reqSuit != 0 && k <= maxSize {
					m := tmpl
					m.Set = setFaces(sub, r)
					buf = append(buf, m)
				}
			}
		}
		if two&(1<<uint(r-1)) != 0 {
			for sub := suits; sub != 0; sub = (sub - 1) & suits {
				k := bits.OnesCount32(sub)
				if k < 2 || k > 3 || sub&reqSuit == 0 || k+1 > maxSize {
					continue
				}
				for j := uint32(0); j < 4; j++ {
					if sub&(1<<j) != 0 {
						continue
					}
					m := tmpl
					jf := setFaces(1<<j, r)
					m.Set = setFaces(sub, r) | jf
					m.Set2 = jf
					buf = append(buf, m)
				}
			}
		}
	}
	// Runs.
	jokerReq := runPositions(req) // 0: none, where reqPos holds every position
	for st := sLo; st <= sHi; st++ {
		pos := suitPositions(avail, st)
		if !wantJoker {
			if starts := pos & (pos >> 1) & (pos >> 2); starts != 0 {
				buf = naturalRuns(buf, tmpl, pos, starts, uint8(st), reqPos, maxSize)
			}
		}
		if jk > 0 && bits.OnesCount32(pos) >= 2 {
			buf = jokerRuns(buf, tmpl, pos, uint8(st), jokerReq, maxSize, 1, 1)
		}
	}
	return buf
}

// naturalRuns appends the runs of one suit made of natural cards; starts
// holds the positions that begin three consecutive cards.
func naturalRuns(buf []game.Move, tmpl game.Move, pos, starts uint32, st uint8, reqPos uint32, maxSize int) []game.Move {
	if reqPos != 1<<14-1 {
		// Only windows that reach a required position: starts at or below
		// its highest bit (an ace's reqPos holds both 0 and 13: Q K A starts
		// at 11).
		top := 31 - bits.LeadingZeros32(reqPos)
		starts &= uint32(1)<<uint(top+1) - 1
	}
	for ; starts != 0; starts &= starts - 1 {
		lo := bits.TrailingZeros32(starts)
		for hi := lo + 2; hi < 14 && pos>>uint(hi)&1 != 0; hi++ {
			l := hi - lo + 1
			if l > 13 || l > maxSize {
				break
			}
			w := uint32(1<<uint(hi+1)) - uint32(1<<uint(lo))
			if w&reqPos == 0 {
				continue
			}
			m := tmpl
			m.Set = windowFaces(w, st)
			if l == 13 {
				m.B = EndHigh
				if lo == 0 {
					m.B = EndLow
				}
			}
			buf = append(buf, m)
		}
	}
	return buf
}

// jokerRuns appends the runs of suit st holding from minJ to maxJ jokers
// (maxJ at most 4, two decks of two): every window whose gaps jokers can
// fill, the jokers standing for the gaps and for held cards besides; with
// reqPos set, a card of reqPos stays natural.
func jokerRuns(buf []game.Move, tmpl game.Move, pos uint32, st uint8, reqPos uint32, maxSize, minJ, maxJ int) []game.Move {
	for lo := 0; lo <= 11; lo++ {
		for hi := lo + 2; hi < 14; hi++ {
			l := hi - lo + 1
			if l > 13 || l > maxSize {
				break
			}
			w := uint32(1<<uint(hi+1)) - uint32(1<<uint(lo))
			missing := w &^ pos
			nm := bits.OnesCount32(missing)
			if nm > maxJ {
				break // the window only grows: so do its gaps
			}
			buf = jokerSubsets(buf, tmpl, w, missing, w&pos, maxJ-nm, minJ, reqPos, st, l, lo)
		}
	}
	return buf
}

func appendRun(buf []game.Move, tmpl game.Move, w, jb uint32, st uint8, l, lo int) []game.Move {
	m := tmpl
	m.Set = windowFaces(w, st)
	m.Set2 = windowFaces(jb, st)
	if l == 13 {
		m.B = EndHigh
		if lo == 0 {
			m.B = EndLow
		}
	}
	return append(buf, m)
}
