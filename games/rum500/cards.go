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

// cardText holds the canonical text of every card index.
var cardText [53]string

func cardStr(i int) string {
	if uint(i) < uint(len(cardText)) {
		return cardText[i]
	}
	return game.Standard.Format(game.NoCard)
}

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
		cardText[i] = game.Standard.Format(ixCard[i])
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

// Hand is a multiset of 500 Rum cards (a hand, or the cards a seat is known
// to hold) with at most two copies of a face: One holds the faces present at
// least once, Two those present twice (two decks), Jokers counts the jokers.
// Faces are card indices of game.Standard (suit*13 + rank-1).
type Hand struct {
	One, Two game.Mask
	Jokers   uint8
}

// hand is the engine's name for Hand.
type hand = Hand

func (h *hand) add(i int) {
	if i == jokerIx {
		h.Jokers++
		return
	}
	b := game.Bit(i)
	if h.One&b != 0 {
		h.Two |= b
	} else {
		h.One |= b
	}
}

// remove takes one copy of card i out; false if there is none.
func (h *hand) remove(i int) bool {
	if i == jokerIx {
		if h.Jokers == 0 {
			return false
		}
		h.Jokers--
		return true
	}
	b := game.Bit(i)
	switch {
	case h.Two&b != 0:
		h.Two &^= b
	case h.One&b != 0:
		h.One &^= b
	default:
		return false
	}
	return true
}

// Has is the number of copies of card index i (52 for the joker).
func (h Hand) Has(i int) int {
	if i == jokerIx {
		return int(h.Jokers)
	}
	b := game.Bit(i)
	n := 0
	if h.One&b != 0 {
		n++
	}
	if h.Two&b != 0 {
		n++
	}
	return n
}

// Count is the number of cards.
func (h Hand) Count() int { return h.One.Count() + h.Two.Count() + int(h.Jokers) }

// points is the hand's value in hand.
func (h *hand) points() int {
	p := 15 * int(h.Jokers)
	for _, m := range [2]game.Mask{h.One, h.Two} {
		for ; m != 0; m &= m - 1 {
			p += value[bits.TrailingZeros64(uint64(m))]
		}
	}
	return p
}

// Indices appends the card indices in sort order (copies adjacent, jokers
// last).
func (h Hand) Indices(buf []int) []int {
	for m := h.One; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(uint64(m))
		buf = append(buf, i)
		if h.Two.Has(i) {
			buf = append(buf, i)
		}
	}
	for k := 0; k < int(h.Jokers); k++ {
		buf = append(buf, jokerIx)
	}
	return buf
}

// Cards appends the cards in sort order (copies adjacent, jokers last).
func (h Hand) Cards(buf []game.Card) []game.Card {
	for m := h.One; m != 0; m &= m - 1 {
		c := ixCard[bits.TrailingZeros64(uint64(m))]
		buf = append(buf, c)
		if h.Two&(m&-m) != 0 {
			buf = append(buf, c)
		}
	}
	for k := 0; k < int(h.Jokers); k++ {
		buf = append(buf, game.Joker)
	}
	return buf
}
