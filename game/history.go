package game

import "strconv"

// The public move history: what a table shows as "who did what". Each
// engine describes its own steps (a Historian); the server keeps the
// entries and sends them to every observer alike (docs/protocol.md,
// "The move history"). An entry holds public information only: a card in it is one
// every observer may see once the step is done (a card played, a trick, the
// pile, a meld, the hands shown at the end of a hand), never a card drawn,
// passed or held.

// Kind says what an entry records. The kinds are the protocol's; each
// game's doc lists the ones it produces.
type Kind string

// The kinds the games produce.
const (
	KindDeal     Kind = "deal"      // a deal (seat = the dealer)
	KindPass     Kind = "pass"      // Papayoo: cards passed (count, to); Pis Yedili: the turn ended without a play
	KindDie      Kind = "die"       // Papayoo: the die (suit, the Papayoo card)
	KindPlay     Kind = "play"      // a card played
	KindTrick    Kind = "trick"     // Papayoo: a trick closed (seat = winner, its cards, points)
	KindRound    Kind = "round"     // Papayoo: a round scored
	KindDraw     Kind = "draw"      // cards drawn (count; Pis Yedili: why)
	KindPenalty  Kind = "penalty"   // Pis Yedili: a chain's penalty taken (count, why)
	KindHand     Kind = "hand"      // Pis Yedili, 500 Rum: a hand scored
	KindShuffle  Kind = "shuffle"   // Pis Yedili: the pile shuffled into the stock (count)
	KindTake     Kind = "take"      // 500 Rum: cards taken from the pile
	KindMeld     Kind = "meld"      // 500 Rum: a meld
	KindLayoff   Kind = "layoff"    // 500 Rum: a card laid off on a meld
	KindDiscard  Kind = "discard"   // 500 Rum: a discard
	KindDecline  Kind = "decline"   // 500 Rum: the stock is empty and the seat declined the pile
	KindOut      Kind = "out"       // 500 Rum: the seat went out
	KindTurnOver Kind = "turn_over" // 500 Rum: the pile was turned over into the stock (count)
)

// Why is the reason for a draw (Pis Yedili).
type Why string

// The reasons for a draw.
const (
	WhyTurn    Why = "turn"    // an ordinary draw in the seat's turn
	WhySeven   Why = "seven"   // a seven chain
	WhyJoker   Why = "joker"   // a joker chain
	WhyAce     Why = "ace"     // another seat played an ace
	WhyPenalty Why = "penalty" // the rest of a chain's penalty, after a reshuffle
	WhyEnd     Why = "end"     // the end-of-hand draws
)

// By says who chose a move when it was not the seat's own player.
type By string

// The stand-ins. The zero By is the seat's own player (or its bot seat).
const (
	ByAway    By = "away"    // a bot played for an absent player
	ByTimeout By = "timeout" // the turn clock ran out and a bot played
)

// Entry is one line of the history. Seat is who acted (Spectator, -1: the
// table or chance). To and Suit are meaningful only when HasTo and HasSuit
// are set (seat 0 and spades are real values); Meld is a meld's number as
// moves name it (1 for the first), 0 for none.
type Entry struct {
	Seat    Seat
	Kind    Kind
	Cards   []Card
	Count   int
	Points  int
	Scores  []int
	Hands   [][]Card
	To      Seat
	Suit    Suit
	Why     Why
	Meld    int
	As      []Card // for each joker in Cards, in order, the card it stands for
	By      By
	HasTo   bool
	HasSuit bool
}

// Pauses reports whether people need a moment to take the entry in before
// the next bot move: a trick closed, a round or hand scored, a chain's
// cards drawn. The table waits its trick pause after such a step.
func (e *Entry) Pauses() bool {
	switch e.Kind {
	case KindTrick, KindRound, KindHand, KindPenalty:
		return true
	case KindDraw:
		return e.Why == WhySeven || e.Why == WhyJoker
	}
	return false
}

// AppendJSON appends the entry's JSON, cards in the notation of deck d:
// the fields in the protocol's order, each omitted when empty or zero
// except seat and kind (protocol.HistoryEntry is the same object for
// encoding/json; a test checks both write the same bytes).
func (e *Entry) AppendJSON(b []byte, d Deck) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(e.Seat), 10)
	b = append(b, `,"kind":`...)
	b = AppendJSONString(b, string(e.Kind))
	if len(e.Cards) > 0 {
		b = append(b, `,"cards":`...)
		b = appendCardList(b, e.Cards, d)
	}
	if e.Count != 0 {
		b = append(b, `,"count":`...)
		b = strconv.AppendInt(b, int64(e.Count), 10)
	}
	if e.Points != 0 {
		b = append(b, `,"points":`...)
		b = strconv.AppendInt(b, int64(e.Points), 10)
	}
	if len(e.Scores) > 0 {
		b = append(b, `,"scores":[`...)
		for i, x := range e.Scores {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(x), 10)
		}
		b = append(b, ']')
	}
	if len(e.Hands) > 0 {
		b = append(b, `,"hands":[`...)
		for i, h := range e.Hands {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCardList(b, h, d)
		}
		b = append(b, ']')
	}
	if e.HasTo {
		b = append(b, `,"to":`...)
		b = strconv.AppendInt(b, int64(e.To), 10)
	}
	if e.HasSuit {
		b = append(b, `,"suit":"`...)
		b = append(b, e.Suit.Letter(), '"')
	}
	if e.Why != "" {
		b = append(b, `,"why":`...)
		b = AppendJSONString(b, string(e.Why))
	}
	if e.Meld != 0 {
		b = append(b, `,"meld":`...)
		b = strconv.AppendInt(b, int64(e.Meld), 10)
	}
	if len(e.As) > 0 {
		b = append(b, `,"as":`...)
		b = appendCardList(b, e.As, d)
	}
	if e.By != "" {
		b = append(b, `,"by":`...)
		b = AppendJSONString(b, string(e.By))
	}
	return append(b, '}')
}

// appendCardList writes cards as a JSON array of their texts (null for
// none, as encoding/json writes a nil slice).
func appendCardList(b []byte, cs []Card, d Deck) []byte {
	if cs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, c := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendJSONString(b, d.Format(c))
	}
	return append(b, ']')
}

// Historian is implemented by engines that describe their steps for the
// history. Both methods are pure: they read the states before and after
// one step (neither is modified) and append that step's entries to buf.
// Playouts never call them.
type Historian interface {
	// AppendMove describes seat s's move m, which turned before into
	// after. The entries of the seat's own choices (not of what followed
	// from them, such as a trick closing) carry by.
	AppendMove(buf []Entry, before, after State, s Seat, m Move, by By) []Entry
	// AppendChance describes a chance step that turned before into after.
	AppendChance(buf []Entry, before, after State) []Entry
}
