package e2e

import _ "cardroom/games/all" // the games of this build, with their bots
