package rum500

import (
	"cardroom/game"
	"cardroom/games"
)

func init() {
	// The arena's unit is the whole game to 500; a quick game is one to a
	// target of 1 that ends when the stock runs out.
	games.Register(games.Game{Engine: Engine{}, Quick: game.Options{"target": "1", "stock_exhausted": "end_immediately"}})
}
