package gametest

import (
	"fmt"
	"strings"

	"cardroom/game"
)

// PickProblem checks a state's Pick for a seat against its Legal list: when
// the state says the seat's moves are a Pick, Legal must list exactly the
// N-card subsets of From, each printed as the verb and its cards. It
// returns "" when they agree (or the state has no Pick for the seat).
func PickProblem(st game.State, s game.Seat) string {
	pk, ok := st.(game.Picker)
	if !ok {
		return ""
	}
	p, ok := pk.Pick(s)
	if !ok {
		return ""
	}
	legal := st.Legal(s, nil)
	if len(legal) != p.Count() {
		return fmt.Sprintf("seat %d: Pick %q %d of %d cards stands for %d moves, Legal lists %d", s, p.Verb, p.N, p.From.Count(), p.Count(), len(legal))
	}
	d := st.Engine().Deck()
	seen := make(map[game.Mask]bool, len(legal))
	for _, m := range legal {
		text := st.FormatMove(m)
		f := strings.Fields(text)
		if len(f) != 1+p.N || f[0] != p.Verb {
			return fmt.Sprintf("seat %d: legal move %q is not %q and %d cards", s, text, p.Verb, p.N)
		}
		var set game.Mask
		for _, tok := range f[1:] {
			c, err := d.Parse(tok)
			if err != nil {
				return fmt.Sprintf("seat %d: legal move %q: %v", s, text, err)
			}
			i := d.Index(c)
			if i < 0 || !p.From.Has(i) || set.Has(i) {
				return fmt.Sprintf("seat %d: legal move %q names a card outside the Pick's %d cards, or twice", s, text, p.From.Count())
			}
			set |= game.Bit(i)
		}
		if seen[set] {
			return fmt.Sprintf("seat %d: legal move %q listed twice", s, text)
		}
		seen[set] = true
	}
	return ""
}
