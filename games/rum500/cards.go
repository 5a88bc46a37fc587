package rum500

import (
	"math/bits"

	"cardroom/game"
)

// Card indices are game.Standard's: suit*13 + rank-1 for 0..51, 52 for the
// joker. Piles, stocks and meld owners hold indices (uint8).

// ix maps a card to its index, or -1 if it is not a card of the deck.
func ix(c game.Card) int { return int(cardIx[c]) }

// card maps an index (0..52) back to the card; NoCard outside.
func card(i int) game.Card {
	if uint(i) < uint(len(ixCard)) {
		return ixCard[i]
	}
	return game.NoCard
}

var (
	cardIx [256]int8
	ixCard [53]game.Card
)

func cardStr(i int) string { return game.Standard.Format(card(i)) }

// value is a card's points in hand (and on the table, except an ace at the
// low end of a run, which counts 1).
var value [53]int

// rankMask[r] holds the four faces of rank r (1..13).
var rankMask [14]game.Mask

func init() {
	for c := range cardIx {
		cardIx[c] = int8(game.Standard.Index(game.Card(c)))
	}
	for i := range ixCard {
		ixCard[i] = game.Standard.Card(i)
	}
	for i := 0; i < 52; i++ {
		r := i%13 + 1
		switch {
		case r == 1:
			value[i] = 15
		case r >= 10:
			value[i] = 10
		default:
			value[i] = r
		}
		rankMask[r] |= game.Bit(i)
	}
	value[jokerIx] = 15
}

// hand is a multiset of cards with at most two copies of a face: one holds
// the faces present at least once, two those present twice, jk counts jokers.
type hand struct {
	one, two game.Mask
	jk       uint8
}

func (h *hand) add(i int) {
	if i == jokerIx {
		h.jk++
		return
	}
	b := game.Bit(i)
	if h.one&b != 0 {
		h.two |= b
	} else {
		h.one |= b
	}
}

// remove takes one copy of card i out; false if there is none.
func (h *hand) remove(i int) bool {
	if i == jokerIx {
		if h.jk == 0 {
			return false
		}
		h.jk--
		return true
	}
	b := game.Bit(i)
	switch {
	case h.two&b != 0:
		h.two &^= b
	case h.one&b != 0:
		h.one &^= b
	default:
		return false
	}
	return true
}

// has is the number of copies of card i.
func (h *hand) has(i int) int {
	if i == jokerIx {
		return int(h.jk)
	}
	b := game.Bit(i)
	n := 0
	if h.one&b != 0 {
		n++
	}
	if h.two&b != 0 {
		n++
	}
	return n
}

func (h *hand) count() int { return h.one.Count() + h.two.Count() + int(h.jk) }

// points is the hand's value in hand.
func (h *hand) points() int {
	p := 15 * int(h.jk)
	for _, m := range [2]game.Mask{h.one, h.two} {
		for ; m != 0; m &= m - 1 {
			p += value[bits.TrailingZeros64(uint64(m))]
		}
	}
	return p
}

// indices appends the hand's cards in sort order (copies adjacent, jokers last).
func (h *hand) indices(buf []int) []int {
	for m := h.one; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(uint64(m))
		buf = append(buf, i)
		if h.two.Has(i) {
			buf = append(buf, i)
		}
	}
	for k := 0; k < int(h.jk); k++ {
		buf = append(buf, jokerIx)
	}
	return buf
}

// strs prints the hand sorted, one string per card.
func (h *hand) strs() []string {
	out := []string{}
	for _, i := range h.indices(nil) {
		out = append(out, cardStr(i))
	}
	return out
}
