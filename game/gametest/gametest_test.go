package gametest_test

import (
	"testing"

	"cardroom/game"
	"cardroom/game/gametest"
	"cardroom/games"
)

// Every registered engine passes the contract's checks with its defaults.
func TestEveryEngine(t *testing.T) {
	for _, e := range games.All() {
		gametest.Check(t, e, gametest.Config{Options: []game.Options{{}}, Games: 1, Seed: 42})
	}
}
