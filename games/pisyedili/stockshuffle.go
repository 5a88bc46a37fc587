package pisyedili

import "cardroom/game"

// ShuffleStock puts the stock's cards in a fresh random order from r,
// leaving everything else as it is. It is for a yardstick of the arena
// (bot/ceiling's "ceiling-hands"), a player that sees every hand but not
// the stock: the rules never call it, and no player's view shows the
// stock's order, so a reshuffled stock is one the view cannot tell apart.
func (s *State) ShuffleStock(r *game.Rand) { r.ShuffleCards(s.stock[:s.stockN]) }
