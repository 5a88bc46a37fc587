package game

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Suit is one of the four ordinary suits, or the joker's pseudo-suit; a
// game with more suits (Papayoo's fifth) numbers them from FirstGameSuit in
// its own package. The order S H D C is the notation's sort order.
type Suit uint8

// The suits, in the notation's sort order.
const (
	Spades Suit = iota
	Hearts
	Diamonds
	Clubs
	// FirstGameSuit is the first suit value a game may give a suit of its
	// own (its deck's DeckSpec formats and parses it).
	FirstGameSuit
	JokerSuit Suit = 5 // the joker has no real suit
)

// NumSuits is the number of ordinary suits (S H D C).
const NumSuits = 4

var suitLetters = [...]byte{'S', 'H', 'D', 'C'}

// Letter is the notation letter of an ordinary suit (S, H, D, C); '?' for
// any other suit (a game's own suits are printed by its deck).
func (s Suit) Letter() byte {
	if int(s) < len(suitLetters) {
		return suitLetters[s]
	}
	return '?'
}

var suitNames = [...]string{"S", "H", "D", "C"}

// String is the suit's letter as a string, without allocating (views
// write it for every jack's named suit).
func (s Suit) String() string {
	if int(s) < len(suitNames) {
		return suitNames[s]
	}
	return "?"
}

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

// CutSuit splits a card token (upper case) into its rank part and its
// ordinary suit, read from a trailing letter or symbol.
func CutSuit(up string) (rank string, s Suit, ok bool) {
	suit := ""
	for _, sym := range []string{"♠", "♥", "♦", "♣"} {
		if strings.HasSuffix(up, sym) {
			suit = sym
			break
		}
	}
	if suit == "" && len(up) > 0 {
		suit = up[len(up)-1:]
	}
	ps, err := ParseSuit(suit)
	if err != nil {
		return "", 0, false
	}
	return up[:len(up)-len(suit)], ps, true
}

// ParseNumber reads a plain rank number 1 to max ("T" is 10; no leading
// zero).
func ParseNumber(s string, max int) (int, bool) {
	if s == "T" && max >= 10 {
		return 10, true
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

// Card is a card face packed as suit<<5 | rank. Rank 1 is the ace (printed
// "A") in the standard deck; ranks 11–13 are J Q K there; a game's own deck
// gives ranks its own meaning. The zero value is NoCard. Two physical copies
// of the same face (two decks) are the same Card: engines track copies
// themselves.
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

// Rank of the card: 1–13 in the standard deck, 0 for the joker.
func (c Card) Rank() int { return int(c & 31) }

// IsJoker reports whether c is the joker.
func (c Card) IsJoker() bool { return c == Joker }

// ItoA prints a small non-negative number (a rank).
func ItoA(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return string([]byte{byte('0' + n/10), byte('0' + n%10)})
}

// UpperASCII upper-cases the ASCII letters of a token and nothing else.
// Card tokens are read through it rather than strings.ToUpper, which maps
// other letters onto card letters too (the long s "ſ" onto S, so "7ſ"
// would read as 7S): notation.md accepts lower case as the one alias of
// case, and everything else must be refused.
func UpperASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'a' && b[j] <= 'z' {
					b[j] -= 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// ErrBadCard is wrapped by every card parsing error.
var ErrBadCard = errors.New("bad card")

// BadCard is the error of a card token that does not parse; why says what
// is wrong.
func BadCard(tok, why string) error {
	return fmt.Errorf("%w %q: %s", ErrBadCard, tok, why)
}

// DeckSpec is one family of cards: how many faces, their bit layout (Index,
// Card) and their notation (Format, Parse). The standard deck is here; a
// game with its own deck (Papayoo) implements one in its package.
type DeckSpec interface {
	// Size is the number of distinct faces.
	Size() int
	// Index maps a card to its bit index, or -1 if it is not in the deck.
	// Index order is the notation's sort order, so a mask iterated from
	// its low bits prints a hand sorted.
	Index(c Card) int
	// Card is the inverse of Index (NoCard outside the deck).
	Card(i int) Card
	// Format prints a card of the deck in canonical notation.
	Format(c Card) string
	// Parse reads one card: the canonical form and the deck's aliases; an
	// error wraps ErrBadCard and quotes the token.
	Parse(tok string) (Card, error)
}

// Deck is a family of cards with its own notation and bit layout. Masks and
// card indices are always relative to a deck. Build one with NewDeck; the
// standard one is Standard.
type Deck struct{ spec DeckSpec }

// NewDeck makes a Deck of a spec.
func NewDeck(s DeckSpec) Deck { return Deck{s} }

// Standard is the 52-card deck plus the joker (index 52).
var Standard = NewDeck(standardDeck{})

// Size is the number of distinct faces in the deck (the joker counts as one).
func (d Deck) Size() int { return d.spec.Size() }

// Index maps a card to its bit index in this deck, or -1 if the card is not
// part of the deck.
func (d Deck) Index(c Card) int { return d.spec.Index(c) }

// Card is the inverse of Index; it returns NoCard for an index outside the deck.
func (d Deck) Card(i int) Card { return d.spec.Card(i) }

// Contains reports whether the card belongs to the deck.
func (d Deck) Contains(c Card) bool { return d.spec.Index(c) >= 0 }

// Format prints a card in canonical notation: "7H", "10S", "AS", "QH", "JK"
// (and the deck's own forms, e.g. Papayoo's "13P").
func (d Deck) Format(c Card) string {
	if !d.Contains(c) {
		return fmt.Sprintf("?%d", uint8(c))
	}
	return d.spec.Format(c)
}

// Parse reads one card in this deck's notation. Accepted besides the
// canonical form: lower case, T for 10, the suit symbols ♠ ♥ ♦ ♣, and the
// deck's own aliases. Anything else is an error that quotes the token.
func (d Deck) Parse(tok string) (Card, error) {
	if tok == "" {
		return NoCard, BadCard(tok, "empty")
	}
	return d.spec.Parse(tok)
}

// standardDeck is the 52 cards in S H D C, A 2 … 10 J Q K, then the joker.
type standardDeck struct{}

func (standardDeck) Size() int { return 53 }

func (standardDeck) Index(c Card) int {
	if c == Joker {
		return 52
	}
	s, r := c.Suit(), c.Rank()
	if s < NumSuits && r >= 1 && r <= 13 {
		return int(s)*13 + r - 1
	}
	return -1
}

func (standardDeck) Card(i int) Card {
	if i >= 0 && i < 52 {
		return NewCard(Suit(i/13), i%13+1)
	}
	if i == 52 {
		return Joker
	}
	return NoCard
}

func (standardDeck) Format(c Card) string {
	if c == Joker {
		return "JK"
	}
	r := ""
	switch c.Rank() {
	case Ace:
		r = "A"
	case Jack:
		r = "J"
	case Queen:
		r = "Q"
	case King:
		r = "K"
	default:
		r = ItoA(c.Rank())
	}
	return r + c.Suit().String()
}

func (standardDeck) Parse(tok string) (Card, error) {
	up := UpperASCII(tok)
	if up == "JK" {
		return Joker, nil
	}
	rank, suit, ok := CutSuit(up)
	if !ok {
		return NoCard, BadCard(tok, "unknown suit")
	}
	var r int
	switch rank {
	case "A":
		r = Ace
	case "J":
		r = Jack
	case "Q":
		r = Queen
	case "K":
		r = King
	case "1":
		ok = false
	default:
		r, ok = ParseNumber(rank, 10)
	}
	if !ok {
		return NoCard, BadCard(tok, "unknown rank")
	}
	return NewCard(suit, r), nil
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

// Sort orders cards by the notation's sort order (the deck's index order:
// suits S H D C then the deck's own, rank ascending, jokers last), in place.
func (d Deck) Sort(cs []Card) {
	sort.SliceStable(cs, func(i, j int) bool { return d.Index(cs[i]) < d.Index(cs[j]) })
}

// FormatSorted prints a copy of the cards in sort order.
func (d Deck) FormatSorted(cs []Card) string {
	c := append([]Card(nil), cs...)
	d.Sort(c)
	return d.FormatList(c)
}
