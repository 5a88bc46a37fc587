// Package games is the registry of the games Cardroom knows. Each engine's
// package registers itself (Register, in an init function), so adding a game
// touches no list here; package games/all links every game of the build
// (engines and their bots) into a program with one blank import.
package games

import (
	"fmt"
	"sort"
	"sync"

	"cardroom/game"
)

// Game is one registered game: its engine and the options tools use to
// play it briefly.
type Game struct {
	Engine game.Engine
	// Deal are the options of one deal, the unit on which the arena
	// compares bots: one round or hand where the game has several, nil
	// where a whole game is the unit (500 Rum plays to its target).
	Deal game.Options
	// Quick are the options of a whole game that ends quickly, for tests
	// and demonstrations.
	Quick game.Options
	// Rounds names the option that sets how many rounds (or hands) the
	// game lasts, "" if none does (500 Rum plays to a target).
	Rounds string
}

// Long returns the options of the longest game the engine allows (its
// rounds option at its maximum), for load tests whose games must not end
// during a run; nil for a game without a rounds option.
func (g Game) Long() game.Options {
	for _, sp := range g.Engine.OptionSpecs() {
		if g.Rounds != "" && sp.Name == g.Rounds {
			return game.Options{sp.Name: fmt.Sprint(sp.Max)}
		}
	}
	return nil
}

var (
	mu  sync.RWMutex
	all = map[string]Game{}
)

// Register adds a game. Registering a name twice is a programming error.
func Register(g Game) {
	mu.Lock()
	defer mu.Unlock()
	name := g.Engine.Name()
	if _, dup := all[name]; dup {
		panic("games: " + name + " registered twice")
	}
	all[name] = g
}

// Lookup returns the engine with the given name.
func Lookup(name string) (game.Engine, error) {
	g, err := Get(name)
	return g.Engine, err
}

// Get returns the registered game with the given name.
func Get(name string) (Game, error) {
	mu.RLock()
	g, ok := all[name]
	mu.RUnlock()
	if !ok {
		return Game{}, fmt.Errorf("unknown game %q (known: %v)", name, Names())
	}
	return g, nil
}

// All returns the engines, sorted by name.
func All() []game.Engine {
	var out []game.Engine
	for _, n := range Names() {
		g, _ := Get(n)
		out = append(out, g.Engine)
	}
	return out
}

// Names lists the registered games' names, sorted.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	n := make([]string, 0, len(all))
	for k := range all {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}
