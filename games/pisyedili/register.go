package pisyedili

import (
	"cardroom/game"
	"cardroom/games"
)

func init() {
	games.Register(games.Game{Engine: Engine{}, Deal: game.Options{"hands": "1"}, Quick: game.Options{"hands": "1"}, Rounds: "hands"})
}
