// Package all links every game of this build into a program: each import
// registers a game's engine (package games) and its bots' knowledge
// (package bot/kit). A program that serves or plays games imports this
// package once, for its side effects; a new game adds its two lines here.
package all

import (
	_ "cardroom/bot/papayoobot"
	_ "cardroom/bot/pisyedilibot"
	_ "cardroom/bot/rum500bot"
	_ "cardroom/games/papayoo"
	_ "cardroom/games/pisyedili"
	_ "cardroom/games/rum500"
)
