package game

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Suit is one of the four ordinary suits, Papayoo's fifth suit, or the joker's
// pseudo-suit. The order S H D C P is the notation's sort order.
type Suit uint8

// The suits, in the notation's sort order.
const (
	Spades Suit = iota
	Hearts
	Diamonds
	Clubs
	Payoo     // Papayoo's fifth suit, ranks 1–20
	JokerSuit // the joker has no real suit
)

// NumSuits is the number of ordinary suits (S H D C).
const NumSuits = 4

var suitLetters = [...]byte{'S', 'H', 'D', 'C', 'P', '*'}

// Letter is the notation letter of the suit (S, H, D, C, P).
func (s Suit) Letter() byte {
	if int(s) < len(suitLetters) {
		return suitLetters[s]
	}
	return '?'
}

func (s Suit) String() string { return string(s.Letter()) }

// ParseSuit reads a suit letter (either case) or a suit symbol.
func ParseSuit(s string) (Suit, error) {
	switch s {
	case "S", "s", "♠":
		return Spades, nil
	case "H", "h", "♥":
		return Hearts, nil
	case "D", "d", "♦":
		return Diamonds, nil
	case "C", "c", "♣":
		return Clubs, nil
	}
	return 0, fmt.Errorf("bad suit %q: want S, H, D or C", s)
}

// Card is a card face packed as suit<<5 | rank. Rank 1 is the ace (printed "A")
// in the standard deck and the 1 in Papayoo; ranks 11–13 are J Q K in the
// standard deck. The zero value is NoCard. Two physical copies of the same
// face (two decks) are the same Card: engines track copies themselves.
type Card uint8

// NoCard is the zero Card; it is not a card of any deck.
const NoCard Card = 0

// Joker is the joker of the standard deck (notation JK).
const Joker Card = Card(JokerSuit << 5)

// Rank names in the standard deck.
const (
	Ace   = 1
	Jack  = 11
	Queen = 12
	King  = 13
)

// NewCard packs a suit and a rank.
func NewCard(s Suit, rank int) Card { return Card(uint8(s)<<5 | uint8(rank)) }

// Suit of the card (JokerSuit for the joker).
func (c Card) Suit() Suit { return Suit(c >> 5) }

// Rank of the card: 1–13 (standard), 1–10 or 1–20 (Papayoo), 0 for the joker.
func (c Card) Rank() int { return int(c & 31) }

// IsJoker reports whether c is the joker.
func (c Card) IsJoker() bool { return c == Joker }

// Deck is a family of cards with its own notation and bit layout. Masks and
// card indices are always relative to a deck.
type Deck uint8

const (
	// Standard is the 52-card deck plus the joker (index 52).
	Standard Deck = iota
	// PapayooDeck has ranks 1–10 in S H D C and 1–20 in Payoo.
	PapayooDeck
)

// Size is the number of distinct faces in the deck (the joker counts as one).
func (d Deck) Size() int {
	if d == PapayooDeck {
		return 60
	}
	return 53
}

// Index maps a card to its bit index in this deck, or -1 if the card is not
// part of the deck. Index order is the notation's sort order, so iterating a
// mask from low to high bits prints a hand sorted.
func (d Deck) Index(c Card) int {
	s, r := c.Suit(), c.Rank()
	switch d {
	case PapayooDeck:
		if s < Payoo && r >= 1 && r <= 10 {
			return int(s)*10 + r - 1
		}
		if s == Payoo && r >= 1 && r <= 20 {
			return 40 + r - 1
		}
	default:
		if c == Joker {
			return 52
		}
		if s < Payoo && r >= 1 && r <= 13 {
			return int(s)*13 + r - 1
		}
	}
	return -1
}

// Card is the inverse of Index; it returns NoCard for an index outside the deck.
func (d Deck) Card(i int) Card {
	switch d {
	case PapayooDeck:
		if i >= 0 && i < 40 {
			return NewCard(Suit(i/10), i%10+1)
		}
		if i >= 40 && i < 60 {
			return NewCard(Payoo, i-39)
		}
	default:
		if i >= 0 && i < 52 {
			return NewCard(Suit(i/13), i%13+1)
		}
		if i == 52 {
			return Joker
		}
	}
	return NoCard
}

// Contains reports whether the card belongs to the deck.
func (d Deck) Contains(c Card) bool { return d.Index(c) >= 0 }

// Format prints a card in canonical notation: "7H", "10S", "13P", "AS", "QH", "JK".
func (d Deck) Format(c Card) string {
	if !d.Contains(c) {
		return fmt.Sprintf("?%d", uint8(c))
	}
	if c == Joker {
		return "JK"
	}
	return d.rankString(c.Rank()) + c.Suit().String()
}

func (d Deck) rankString(r int) string {
	if d == Standard {
		switch r {
		case Ace:
			return "A"
		case Jack:
			return "J"
		case Queen:
			return "Q"
		case King:
			return "K"
		}
	}
	return itoa(r)
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return string([]byte{byte('0' + n/10), byte('0' + n%10)})
}

// ErrBadCard is wrapped by every card parsing error.
var ErrBadCard = errors.New("bad card")

func badCard(tok, why string) error {
	return fmt.Errorf("%w %q: %s", ErrBadCard, tok, why)
}

// Parse reads one card in this deck's notation. Accepted besides the canonical
// form: lower case, T for 10, the suit symbols ♠ ♥ ♦ ♣, and P13 for 13P.
// Anything else is an error that quotes the token.
func (d Deck) Parse(tok string) (Card, error) {
	if tok == "" {
		return NoCard, badCard(tok, "empty")
	}
	up := strings.ToUpper(tok)
	if up == "JK" {
		if d == Standard {
			return Joker, nil
		}
		return NoCard, badCard(tok, "no joker in this deck")
	}
	var rankPart string
	var suit Suit
	switch {
	case d == PapayooDeck && len(up) >= 2 && up[0] == 'P' && up[1] >= '0' && up[1] <= '9':
		rankPart, suit = up[1:], Payoo // alias P13 for 13P
	case strings.HasSuffix(up, "P") && d == PapayooDeck:
		rankPart, suit = up[:len(up)-1], Payoo
	default:
		var s string
		for _, sym := range []string{"♠", "♥", "♦", "♣"} {
			if strings.HasSuffix(up, sym) {
				s = sym
				break
			}
		}
		if s == "" && len(up) > 0 {
			s = up[len(up)-1:]
		}
		ps, err := ParseSuit(s)
		if err != nil {
			return NoCard, badCard(tok, "unknown suit")
		}
		suit, rankPart = ps, up[:len(up)-len(s)]
	}
	r, ok := d.parseRank(rankPart, suit)
	if !ok {
		return NoCard, badCard(tok, "unknown rank")
	}
	return NewCard(suit, r), nil
}

func (d Deck) parseRank(s string, suit Suit) (int, bool) {
	max := 10
	if d == Standard {
		switch s {
		case "A":
			return Ace, true
		case "J":
			return Jack, true
		case "Q":
			return Queen, true
		case "K":
			return King, true
		case "T":
			return 10, true
		}
		if s == "1" {
			return 0, false
		}
	} else {
		if s == "T" {
			return 10, true
		}
		if suit == Payoo {
			max = 20
		}
	}
	if len(s) == 0 || len(s) > 2 || s[0] == '0' {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	if n < 1 || n > max {
		return 0, false
	}
	return n, true
}

// ParseList reads cards separated by spaces (runs of white space are
// tolerated on input). Duplicates are kept: two decks hold identical faces.
func (d Deck) ParseList(s string) ([]Card, error) {
	f := strings.Fields(s)
	out := make([]Card, 0, len(f))
	for _, t := range f {
		c, err := d.Parse(t)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// FormatList prints cards in the given order, separated by single spaces.
func (d Deck) FormatList(cs []Card) string {
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(d.Format(c))
	}
	return b.String()
}

// Sort orders cards by the notation's sort order (suit S H D C P, rank
// ascending, jokers last), in place.
func (d Deck) Sort(cs []Card) {
	sort.SliceStable(cs, func(i, j int) bool { return d.Index(cs[i]) < d.Index(cs[j]) })
}

// FormatSorted prints a copy of the cards in sort order.
func (d Deck) FormatSorted(cs []Card) string {
	c := append([]Card(nil), cs...)
	d.Sort(c)
	return d.FormatList(c)
}
