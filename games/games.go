// Package games lists every engine Cardroom knows, by name.
package games

import (
	"fmt"
	"sort"

	"cardroom/game"
	"cardroom/games/papayoo"
	"cardroom/games/pisyedili"
	"cardroom/games/rum500"
)

// all holds one entry per engine; each engine's package adds its line here.
var all = []game.Engine{papayoo.Engine{}, pisyedili.Engine{}, rum500.Engine{}}

// Lookup returns the engine with the given name.
func Lookup(name string) (game.Engine, error) {
	for _, e := range all {
		if e.Name() == name {
			return e, nil
		}
	}
	return nil, fmt.Errorf("unknown game %q (known: %v)", name, Names())
}

// All returns the engines.
func All() []game.Engine { return append([]game.Engine(nil), all...) }

// Names lists the engines' names, sorted.
func Names() []string {
	n := make([]string, 0, len(all))
	for _, e := range all {
		n = append(n, e.Name())
	}
	sort.Strings(n)
	return n
}
