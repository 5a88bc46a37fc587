package papayoo

import (
	"cardroom/game"
	"strconv"
)

// The options: their specs, and what the engine makes of them.

// MaxRounds is the largest value of the rounds option. papayoo.md §6 sets
// none ("integer ≥ 1"); every number a client sends is range-checked, so
// the engine takes one far above any real game: at 250 points a round a
// seat's total stays within 250,000. A table bounds a game's length by
// its steps anyway (-max-steps, docs/server.md).
const MaxRounds = 1000

// OptionSpecs implements game.Engine.
func (Engine) OptionSpecs() []game.OptionSpec {
	return []game.OptionSpec{
		{Name: "players", Kind: "int", Default: "4", Min: 3, Max: 8, Doc: "number of players, 3 to 8"},
		{Name: "rounds", Kind: "int", Default: "", Min: 1, Max: MaxRounds, Doc: "number of rounds R, 1 to 1000; default = number of players"},
		{Name: "first_dealer", Kind: "enum", Default: "random", Values: []string{"random", "0", "1", "2", "3", "4", "5", "6", "7"},
			Doc: "the first dealer: random (a chance step \"dealer N\") or a seat index"},
		{Name: "tie_break", Kind: "enum", Default: "shared", Values: []string{"shared"}, Doc: "ties for the lowest total: co-winners"},
	}
}

// config is the options in the form the engine uses.
type config struct {
	players     int
	rounds      int
	firstDealer int // -1: random (a chance step)
}

// parseOptions checks o against the specs and returns the engine's
// configuration and the normalized options (every default filled in).
func parseOptions(o game.Options) (config, game.Options, error) {
	no, err := game.Normalize(o, Engine{}.OptionSpecs())
	if err != nil {
		return config{}, nil, err
	}
	c := config{players: no.Int("players"), firstDealer: -1}
	if _, ok := no["rounds"]; !ok {
		no["rounds"] = strconv.Itoa(c.players)
	}
	c.rounds = no.Int("rounds")
	if fd := no["first_dealer"]; fd != "random" {
		d, _ := strconv.Atoi(fd)
		if d >= c.players {
			return config{}, nil, &game.OptionError{Name: "first_dealer", Value: fd, Reason: "must be random or a seat below " + strconv.Itoa(c.players)}
		}
		c.firstDealer = d
	}
	return c, no, nil
}
