package main

import _ "cardroom/games/all" // every game of this build, with its bots
