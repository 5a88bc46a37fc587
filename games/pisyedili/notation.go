package pisyedili

import (
	"strings"

	"cardroom/game"
)

// ParseMove implements game.State. It checks the syntax only; Apply checks
// legality.
func (s *State) ParseMove(text string) (game.Move, error) { return ParseMove(text) }

// FormatMove implements game.State.
func (s *State) FormatMove(m game.Move) string { return FormatMove(m) }

// ParseMove reads a move: `play 5D`, `play JS H`, `play JC`, `play JK`,
// `draw`, `penalty`, `pass`, `end`. Cards accept the notation's aliases.
func ParseMove(text string) (game.Move, error) {
	f := strings.Fields(text)
	bad := func(format string, args ...any) (game.Move, error) {
		return game.Move{}, game.Errorf(game.ErrMalformed, game.Spectator, text, format, args...)
	}
	if len(f) == 0 {
		return bad("empty move")
	}
	switch f[0] {
	case "play":
		if len(f) < 2 || len(f) > 3 {
			return bad("want \"play <card>\" or \"play <jack> <suit>\"")
		}
		c, err := game.Standard.Parse(f[1])
		if err != nil {
			return bad("%v", err)
		}
		m := game.Move{Op: OpPlay, Card: c}
		if len(f) == 3 {
			if c == game.Joker || c.Rank() != game.Jack {
				return bad("only a jack names a suit, not %s", game.Standard.Format(c))
			}
			su, err := game.ParseSuit(f[2])
			if err != nil {
				return bad("%v", err)
			}
			m.A = uint8(su) + 1
		}
		return m, nil
	case "draw", "penalty", "pass", "end":
		if len(f) != 1 {
			return bad("%s takes no argument", f[0])
		}
		switch f[0] {
		case "draw":
			return game.Move{Op: OpDraw}, nil
		case "penalty":
			return game.Move{Op: OpPenalty}, nil
		case "pass":
			return game.Move{Op: OpPass}, nil
		}
		return game.Move{Op: OpEnd}, nil
	}
	return bad("unknown verb %q: want play, draw, penalty, pass or end", f[0])
}

// FormatMove prints a move in canonical notation.
func FormatMove(m game.Move) string {
	switch m.Op {
	case OpPlay:
		t := "play " + game.Standard.Format(m.Card)
		if m.A >= 1 && m.A <= 4 {
			t += " " + game.Suit(m.A-1).String()
		} else if m.A != 0 {
			t += " ?"
		}
		return t
	case OpDraw:
		return "draw"
	case OpPenalty:
		return "penalty"
	case OpPass:
		return "pass"
	case OpEnd:
		return "end"
	}
	return "?op" + itoa(int(m.Op))
}
