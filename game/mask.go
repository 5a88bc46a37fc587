package game

import "math/bits"

// Mask is a set of distinct card faces of one deck, one bit per Deck.Index.
// A whole Papayoo hand, or a hand from one standard deck, is one Mask; games
// with two decks keep two masks or counts.
type Mask uint64

// Bit is the one-card mask for index i.
func Bit(i int) Mask { return 1 << uint(i) }

// MaskOf builds a mask from cards of deck d; cards outside the deck are ignored.
func MaskOf(d Deck, cs ...Card) Mask {
	var m Mask
	for _, c := range cs {
		if i := d.Index(c); i >= 0 {
			m |= Bit(i)
		}
	}
	return m
}

// Has reports whether index i is in the set.
func (m Mask) Has(i int) bool { return m&Bit(i) != 0 }

// Count is the number of cards in the set.
func (m Mask) Count() int { return bits.OnesCount64(uint64(m)) }

// Lowest is the index of the lowest card, or -1 for the empty set.
func (m Mask) Lowest() int {
	if m == 0 {
		return -1
	}
	return bits.TrailingZeros64(uint64(m))
}

// Highest is the index of the highest card, or -1 for the empty set.
func (m Mask) Highest() int {
	if m == 0 {
		return -1
	}
	return 63 - bits.LeadingZeros64(uint64(m))
}

// Nth returns the index of the n-th set bit (0-based, from the low end), or -1.
func (m Mask) Nth(n int) int {
	for ; m != 0; m &= m - 1 {
		if n == 0 {
			return bits.TrailingZeros64(uint64(m))
		}
		n--
	}
	return -1
}

// Cards appends the cards of the set to buf in sort order.
func (m Mask) Cards(d Deck, buf []Card) []Card {
	for ; m != 0; m &= m - 1 {
		buf = append(buf, d.Card(bits.TrailingZeros64(uint64(m))))
	}
	return buf
}

// Format prints the set in sort order.
func (m Mask) Format(d Deck) string { return d.FormatList(m.Cards(d, nil)) }
