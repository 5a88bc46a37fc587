package papayoo

import (
	"strconv"
	"strings"

	"cardroom/game"
)

// parseCard reads one card in Papayoo notation (aliases accepted) and
// returns its index.
func parseCard(tok string) (int, error) {
	c, err := deck.Parse(tok)
	if err != nil {
		return -1, err
	}
	i := deck.Index(c)
	if i < 0 {
		return -1, game.ErrBadCard
	}
	return i, nil
}

// parseCardSet reads distinct cards; a repeated card is an error.
func parseCardSet(toks []string) (game.Mask, error) {
	var m game.Mask
	for _, t := range toks {
		i, err := parseCard(t)
		if err != nil {
			return 0, err
		}
		if m.Has(i) {
			return 0, &dupError{t}
		}
		m |= game.Bit(i)
	}
	return m, nil
}

type dupError struct{ tok string }

func (e *dupError) Error() string { return "card " + strconv.Quote(e.tok) + " given twice" }

// ParseMove implements game.State: "pass <cards>" or "play <card>". A pass
// must name distinct cards; their number is checked by Apply (a pass of the
// wrong size is illegal, not malformed).
func (s *State) ParseMove(text string) (game.Move, error) {
	return parseMove(text)
}

func parseMove(text string) (game.Move, error) {
	f := strings.Fields(text)
	if len(f) == 0 {
		return game.Move{}, game.Errorf(game.ErrMalformed, game.Spectator, text, "empty move")
	}
	switch f[0] {
	case "play":
		if len(f) != 2 {
			return game.Move{}, game.Errorf(game.ErrMalformed, game.Spectator, text, "want \"play <card>\"")
		}
		i, err := parseCard(f[1])
		if err != nil {
			return game.Move{}, game.Errorf(game.ErrMalformed, game.Spectator, text, "%v", err)
		}
		return game.Move{Op: OpPlay, Card: cardOf[i]}, nil
	case "pass":
		if len(f) < 2 {
			return game.Move{}, game.Errorf(game.ErrMalformed, game.Spectator, text, "want \"pass <cards>\"")
		}
		m, err := parseCardSet(f[1:])
		if err != nil {
			return game.Move{}, game.Errorf(game.ErrMalformed, game.Spectator, text, "%v", err)
		}
		return game.Move{Op: OpPass, Set: m}, nil
	}
	return game.Move{}, game.Errorf(game.ErrMalformed, game.Spectator, text, "unknown verb %q: want pass or play", f[0])
}

// FormatMove implements game.State.
func (s *State) FormatMove(m game.Move) string { return FormatMove(m) }

// FormatMove prints a Papayoo move in canonical notation.
func FormatMove(m game.Move) string {
	switch m.Op {
	case OpPass:
		return "pass " + (m.Set & fullDeck).Format(deck)
	case OpPlay:
		if idxOfCrd[m.Card] >= 0 {
			return "play " + cardName[idxOfCrd[m.Card]]
		}
		return "play ?"
	}
	return "?" + strconv.Itoa(int(m.Op))
}

// formatDeal prints a deal as a chance text.
func formatDeal(n int, h *[8]game.Mask) string {
	var b strings.Builder
	b.WriteString("deal")
	for i := 0; i < n; i++ {
		b.WriteString("\n")
		b.WriteString(strconv.Itoa(i))
		b.WriteString(": ")
		b.WriteString(h[i].Format(deck))
	}
	return b.String()
}

// SampleChance implements game.State.
func (s *State) SampleChance(r *game.Rand) string {
	switch s.phase {
	case phDealer:
		return "dealer " + strconv.Itoa(r.IntN(int(s.n)))
	case phDeal:
		h := s.dealRandom(r)
		return formatDeal(int(s.n), &h)
	case phDie:
		return "die " + suitName[r.IntN(4)]
	}
	return ""
}

func badChance(text, format string, args ...any) error {
	first, _, _ := strings.Cut(text, "\n")
	return game.Errorf(game.ErrBadChance, game.Spectator, first, format, args...)
}

// ApplyChance implements game.State: "dealer N", "deal" with lines
// "<seat>: <cards>" (each seat once, exactly H distinct cards each, together
// the whole deck in play), or "die S|H|D|C".
func (s *State) ApplyChance(text string) error {
	if !s.ChancePending() {
		first, _, _ := strings.Cut(text, "\n")
		if s.phase == phOver {
			return game.Errorf(game.ErrNoChance, game.Spectator, first, "the game is over")
		}
		return game.Errorf(game.ErrNoChance, game.Spectator, first, "no chance step is pending")
	}
	lines := strings.Split(text, "\n")
	head := strings.Fields(lines[0])
	if len(head) == 0 {
		return badChance(text, "empty chance outcome")
	}
	want := map[uint8]string{phDealer: "dealer", phDeal: "deal", phDie: "die"}[s.phase]
	if head[0] != want {
		return badChance(text, "want a %q outcome, not %q", want, head[0])
	}
	switch s.phase {
	case phDealer:
		if len(head) != 2 || len(lines) != 1 {
			return badChance(text, "want \"dealer <seat>\"")
		}
		d, err := strconv.Atoi(head[1])
		if err != nil || d < 0 || d >= int(s.n) || head[1] != strconv.Itoa(d) {
			return badChance(text, "dealer must be a seat 0 to %d", s.n-1)
		}
		s.dealer = int8(d)
		s.phase = phDeal
		return nil
	case phDie:
		if len(head) != 2 || len(lines) != 1 {
			return badChance(text, "want \"die S|H|D|C\"")
		}
		for i, l := range suitName[:4] {
			if head[1] == l {
				s.setDie(i)
				return nil
			}
		}
		return badChance(text, "die must show S, H, D or C, not %q", head[1])
	}
	// The deal.
	if len(head) != 1 {
		return badChance(text, "\"deal\" takes no arguments on its line")
	}
	n := int(s.n)
	if len(lines)-1 != n {
		return badChance(text, "want %d hand lines, got %d", n, len(lines)-1)
	}
	var h [8]game.Mask
	var seen uint8
	var all game.Mask
	for _, l := range lines[1:] {
		num, rest, ok := strings.Cut(strings.TrimSpace(l), ":")
		seat, err := strconv.Atoi(num)
		if !ok || err != nil || seat < 0 || seat >= n || num != strconv.Itoa(seat) {
			return badChance(text, "want \"<seat>: <cards>\", got %q", l)
		}
		if seen&(1<<uint(seat)) != 0 {
			return badChance(text, "seat %d dealt twice", seat)
		}
		seen |= 1 << uint(seat)
		m, err := parseCardSet(strings.Fields(rest))
		if err != nil {
			return badChance(text, "seat %d: %v", seat, err)
		}
		if c := m.Count(); c != int(s.hs) {
			return badChance(text, "seat %d has %d cards, want %d", seat, c, s.hs)
		}
		if x := m &^ s.deck; x != 0 {
			return badChance(text, "seat %d: %s not in play with %d players", seat, x.Format(deck), n)
		}
		if x := m & all; x != 0 {
			return badChance(text, "seat %d: %s dealt twice", seat, x.Format(deck))
		}
		all |= m
		h[seat] = m
	}
	if all != s.deck {
		return badChance(text, "the hands are not the whole deck in play")
	}
	s.setDeal(&h)
	return nil
}
