package rum500

import (
	"strconv"
	"strings"

	"cardroom/game"
)

// Move text (notation.md, 500 Rum):
//
//	draw
//	take 8H meld 8S 8H 8D
//	take 7D layoff 2
//	take 4C                      (top_discard_free)
//	meld 5C 6C 7C
//	layoff 9D 3                  (+ " low"/" high" when the card fits both ends)
//	discard KS
//	decline
//
// Jokers (option): in a meld list a joker is written JK=<card it stands
// for>, e.g. "meld 5C JK=6C 7C", "meld 8S 8H JK=8D"; a laid-off joker too:
// "layoff JK=9D 3", "take JK=9D layoff 3". A taken joker used in a new meld
// is written "take JK meld 5C JK=6C 7C".

func malformed(text, format string, args ...any) error {
	return game.Errorf(game.ErrMalformed, game.Spectator, text, format, args...)
}

// FormatMove implements game.State.
func (s *State) FormatMove(m game.Move) string { return FormatMove(m) }

// FormatMove prints a move in canonical notation.
func FormatMove(m game.Move) string {
	var buf [64]byte
	return string(appendMove(buf[:0], m))
}

// appendMove appends the canonical text of m.
func appendMove(b []byte, m game.Move) []byte {
	switch m.Op {
	case OpDraw:
		return append(b, "draw"...)
	case OpDecline:
		return append(b, "decline"...)
	case OpTake:
		return appendCard(append(b, "take "...), m.Card)
	case OpDiscard:
		return appendCard(append(b, "discard "...), m.Card)
	case OpMeld:
		return appendMeldList(append(b, "meld "...), m.Set, m.Set2, m.B)
	case OpTakeMeld:
		b = appendCard(append(b, "take "...), m.Card)
		return appendMeldList(append(b, " meld "...), m.Set, m.Set2, m.B)
	case OpLayoff:
		b = appendLayCard(append(b, "layoff "...), m)
		b = strconv.AppendInt(append(b, ' '), int64(m.A), 10)
		return append(b, endWord(m.B)...)
	case OpTakeLayoff:
		b = appendLayCard(append(b, "take "...), m)
		b = strconv.AppendInt(append(b, " layoff "...), int64(m.A), 10)
		return append(b, endWord(m.B)...)
	}
	return strconv.AppendInt(append(b, '?'), int64(m.Op), 10)
}

// appendCard appends a card's canonical text ("?" plus nothing for a card
// outside the deck, as game.Standard.Format prints it).
func appendCard(b []byte, c game.Card) []byte {
	if i := ix(c); i >= 0 {
		return append(b, cardText[i]...)
	}
	return append(b, game.Standard.Format(c)...)
}

func endWord(b uint8) string {
	switch b {
	case EndLow:
		return " low"
	case EndHigh:
		return " high"
	}
	return ""
}

func appendLayCard(b []byte, m game.Move) []byte {
	if m.Card == game.Joker {
		return append(append(b, "JK="...), cardStr(m.Set.Lowest())...)
	}
	return appendCard(b, m.Card)
}

// meldList prints a meld's cards in the canonical order: a set by suit, a
// run ascending with the ace first when low and last when high.
func meldList(faces, jk game.Mask, b uint8) string {
	var buf [64]byte
	return string(appendMeldList(buf[:0], faces, jk, b))
}

// appendMeldList appends meldList(faces, jk, b).
func appendMeldList(b []byte, faces, jk game.Mask, end uint8) []byte {
	nm, reason := shape(faces, jk, end)
	start := len(b)
	put := func(f int) {
		if len(b) > start {
			b = append(b, ' ')
		}
		if jk.Has(f) {
			b = append(b, "JK="...)
		}
		b = append(b, cardStr(f)...)
	}
	if reason != "" {
		for x := faces; x != 0; x &= x - 1 {
			put(x.Lowest())
		}
		return b
	}
	var slots [14]int
	for _, sl := range nm.order(slots[:0]) {
		put(nm.slotFace(sl))
	}
	return b
}

// ParseMove implements game.State.
func (s *State) ParseMove(text string) (game.Move, error) { return ParseMove(text) }

// ParseMove reads a move in notation (canonical form or accepted aliases).
func ParseMove(text string) (game.Move, error) {
	tok := strings.Fields(text)
	if len(tok) == 0 {
		return game.Move{}, malformed(text, "empty move")
	}
	verb := tok[0] // verbs and words are lower case only (notation.md, "Moves")
	args := tok[1:]
	var m game.Move
	switch verb {
	case "draw", "decline":
		if len(args) != 0 {
			return m, malformed(text, "%s takes no arguments, got %q", verb, args[0])
		}
		m.Op = OpDraw
		if verb == "decline" {
			m.Op = OpDecline
		}
		return m, nil
	case "discard":
		if len(args) != 1 {
			if len(args) > 1 {
				return m, malformed(text, "want \"discard CARD\", got %q after the card", args[1])
			}
			return m, malformed(text, "want \"discard CARD\"")
		}
		c, err := game.Standard.Parse(args[0])
		if err != nil {
			return m, malformed(text, "%v", err)
		}
		return game.Move{Op: OpDiscard, Card: c}, nil
	case "meld":
		m.Op = OpMeld
		return parseMeldList(text, m, args)
	case "layoff":
		if len(args) < 2 {
			return m, malformed(text, "want \"layoff CARD MELD [low|high]\"")
		}
		m.Op = OpLayoff
		return parseLayoff(text, m, args[0], args[1:])
	case "take":
		if len(args) == 0 {
			return m, malformed(text, "want \"take CARD meld …\", \"take CARD layoff N\" or \"take CARD\"")
		}
		if len(args) == 1 {
			c, err := game.Standard.Parse(args[0])
			if err != nil {
				return m, malformed(text, "%v", err)
			}
			return game.Move{Op: OpTake, Card: c}, nil
		}
		switch args[1] {
		case "meld":
			c, err := game.Standard.Parse(args[0])
			if err != nil {
				return m, malformed(text, "%v", err)
			}
			m.Op, m.Card = OpTakeMeld, c
			return parseMeldList(text, m, args[2:])
		case "layoff":
			m.Op = OpTakeLayoff
			return parseLayoff(text, m, args[0], args[2:])
		}
		return m, malformed(text, "after \"take %s\" want \"meld\" or \"layoff\", got %q", args[0], args[1])
	}
	return m, malformed(text, "unknown verb %q (want draw, take, meld, layoff, discard or decline)", tok[0])
}

// parseLaid reads a laid card: a card, or JK=<card> for a joker.
func parseLaid(text, t string) (c game.Card, face int, err error) {
	if strings.HasPrefix(game.UpperASCII(t), "JK=") {
		f, err := game.Standard.Parse(t[3:])
		if err != nil || f == game.Joker {
			return 0, 0, malformed(text, "bad joker %q: want JK=<card it stands for>", t)
		}
		return game.Joker, ix(f), nil
	}
	c, err = game.Standard.Parse(t)
	if err != nil {
		return 0, 0, malformed(text, "%v", err)
	}
	if c == game.Joker {
		return 0, 0, malformed(text, "a joker on the table must name the card it stands for: JK=<card>, got %q", t)
	}
	return c, ix(c), nil
}

func parseLayoff(text string, m game.Move, cardTok string, rest []string) (game.Move, error) {
	c, f, err := parseLaid(text, cardTok)
	if err != nil {
		return game.Move{}, err
	}
	if len(rest) > 2 {
		return game.Move{}, malformed(text, "want a meld number, then optionally low or high; got %q after them", rest[2])
	}
	if len(rest) < 1 {
		return game.Move{}, malformed(text, "want a meld number, then optionally low or high")
	}
	n, err := strconv.Atoi(rest[0])
	if err != nil || n < 1 || n > maxMelds || rest[0] != strconv.Itoa(n) {
		return game.Move{}, malformed(text, "bad meld number %q", rest[0])
	}
	m.Card, m.Set, m.A = c, game.Bit(f), uint8(n)
	if len(rest) == 2 {
		switch rest[1] {
		case "low":
			m.B = EndLow
		case "high":
			m.B = EndHigh
		default:
			return game.Move{}, malformed(text, "bad end %q: want low or high", rest[1])
		}
	}
	return m, nil
}

func parseMeldList(text string, m game.Move, toks []string) (game.Move, error) {
	if len(toks) == 0 {
		return game.Move{}, malformed(text, "a meld lists its cards")
	}
	acePos := -1
	for k, t := range toks {
		c, f, err := parseLaid(text, t)
		if err != nil {
			return game.Move{}, err
		}
		b := game.Bit(f)
		if m.Set&b != 0 {
			return game.Move{}, game.Errorf(game.ErrIllegal, game.Spectator, text,
				"%s twice: a meld holds each card once (with two decks a set needs different suits)", cardStr(f))
		}
		m.Set |= b
		if c == game.Joker {
			m.Set2 |= b
		}
		if f%13 == 0 {
			acePos = k
		}
	}
	lowest := m.Set.Lowest()
	if m.Set.Count() == 13 && m.Set&^(game.Mask(suit13)<<(13*uint(lowest/13))) == 0 {
		switch acePos {
		case 0:
			m.B = EndLow
		case len(toks) - 1:
			m.B = EndHigh
		default:
			return game.Move{}, malformed(text, "a 13-card run must show where the ace is: first (low) or last (high), got %q in the middle", toks[acePos])
		}
	}
	return m, nil
}
