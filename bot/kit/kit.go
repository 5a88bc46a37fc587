// Package kit is the registry of what the bots know about each game: a
// rule-based player and the search domain of the hard bot. Each game's kit
// lives in its own package (bot/<game>bot) and registers itself here from
// an init function, so package bot lists no game; a game without a kit gets
// random moves from easy and medium, and the generic search domain (random
// playouts) from hard.
package kit

import (
	"sync"

	"cardroom/bot/ismcts"
	"cardroom/game"
)

// Kit is what the bots know about one game.
type Kit struct {
	// Rule chooses among legal (the observer's legal moves, never empty)
	// from the view alone. easy is true for the easy level, which skips some
	// heuristics; the caller adds the easy level's random mistakes.
	Rule func(v game.View, legal []game.Move, r *game.Rand, easy bool) game.Move
	// Domain makes the ISMCTS domain for a search from view v (one per
	// search worker).
	Domain func(v game.View) ismcts.Domain
	// Yardstick, if set, makes the domain of the all-seeing yardstick
	// (bot/ceiling) instead of Domain: the search its first figures were
	// measured with, kept when the hard bot's own search changes, so that
	// the gap is to a fixed target (docs/bots.md, "The ceiling").
	Yardstick func(v game.View) ismcts.Domain
	// Search adjusts the hard bot's configuration for the game (may be nil).
	Search func(c *ismcts.Config)
	// PriorShare > 0 makes the hard bot compute the rule-based move and
	// credit it that share of the iterations as extra visits (see
	// ismcts.Config.Prior).
	PriorShare float64
}

var (
	mu   sync.RWMutex
	kits = map[string]Kit{}
)

// Register records the kit of the game named game. Registering a game
// twice is a programming error.
func Register(game string, k Kit) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := kits[game]; dup {
		panic("kit: " + game + " registered twice")
	}
	kits[game] = k
}

// For returns the kit of a game, if one is registered.
func For(game string) (Kit, bool) {
	mu.RLock()
	defer mu.RUnlock()
	k, ok := kits[game]
	return k, ok
}
