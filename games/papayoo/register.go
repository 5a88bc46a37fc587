package papayoo

import (
	"cardroom/game"
	"cardroom/games"
)

func init() {
	games.Register(games.Game{Engine: Engine{}, Deal: game.Options{"rounds": "1"}, Quick: game.Options{"rounds": "1"}, Rounds: "rounds"})
}
