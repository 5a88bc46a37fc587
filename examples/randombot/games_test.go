package main

import _ "cardroom/games/all" // the games of this build, with their bots
