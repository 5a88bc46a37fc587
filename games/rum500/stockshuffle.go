package rum500

import "cardroom/game"

// ShuffleStock puts the stock's cards in a fresh random order from r,
// leaving everything else as it is. It is for a yardstick of the arena
// (bot/ceiling's "ceiling-hands"), a player that sees every hand but not
// the stock: the rules never call it, and no player's view shows the
// stock's order, so a reshuffled stock is one the view cannot tell apart.
// A stock turned over from the discard pile (stock rule
// turn_over_discards) keeps its order: every player saw the pile, so that
// order is public (rum500.md §8, §11).
func (s *State) ShuffleStock(r *game.Rand) {
	if s.turned {
		return
	}
	st := s.stock[:s.stockN]
	r.Shuffle(len(st), func(i, j int) { st[i], st[j] = st[j], st[i] })
}
