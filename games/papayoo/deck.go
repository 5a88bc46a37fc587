package papayoo

import (
	"strings"

	"cardroom/game"
)

// Payoo is Papayoo's fifth suit, ranks 1–20 (notation "13P", alias "P13").
const Payoo = game.FirstGameSuit

// Deck is the Papayoo deck: ranks 1–10 in S H D C, then 1–20 in Payoo (60
// faces; index = suit×10 + rank − 1 for the ordinary suits, 40 + rank − 1
// for Payoo, which is also the notation's sort order). Fewer players use a
// subset of it (deckFor).
var Deck = game.NewDeck(deckSpec{})

type deckSpec struct{}

func (deckSpec) Size() int { return 60 }

func (deckSpec) Index(c game.Card) int {
	s, r := c.Suit(), c.Rank()
	if s < game.NumSuits && r >= 1 && r <= 10 {
		return int(s)*10 + r - 1
	}
	if s == Payoo && r >= 1 && r <= 20 {
		return 40 + r - 1
	}
	return -1
}

func (deckSpec) Card(i int) game.Card {
	if i >= 0 && i < 40 {
		return game.NewCard(game.Suit(i/10), i%10+1)
	}
	if i >= 40 && i < 60 {
		return game.NewCard(Payoo, i-39)
	}
	return game.NoCard
}

func (deckSpec) Format(c game.Card) string {
	if c.Suit() == Payoo {
		return game.ItoA(c.Rank()) + "P"
	}
	return game.ItoA(c.Rank()) + c.Suit().String()
}

func (deckSpec) Parse(tok string) (game.Card, error) {
	up := game.UpperASCII(tok)
	if up == "JK" {
		return game.NoCard, game.BadCard(tok, "no joker in this deck")
	}
	var rank string
	var suit game.Suit
	switch {
	case len(up) >= 2 && up[0] == 'P' && up[1] >= '0' && up[1] <= '9':
		rank, suit = up[1:], Payoo // alias P13 for 13P
	case strings.HasSuffix(up, "P"):
		rank, suit = up[:len(up)-1], Payoo
	default:
		var ok bool
		if rank, suit, ok = game.CutSuit(up); !ok {
			return game.NoCard, game.BadCard(tok, "unknown suit")
		}
	}
	max := 10
	if suit == Payoo {
		max = 20
	}
	r, ok := game.ParseNumber(rank, max)
	if !ok {
		return game.NoCard, game.BadCard(tok, "unknown rank")
	}
	return game.NewCard(suit, r), nil
}

// suitLetter is the notation letter of a Papayoo suit: S H D C, P for Payoo.
func suitLetter(s game.Suit) byte {
	if s == Payoo {
		return 'P'
	}
	return s.Letter()
}
