package pisyedili

// The options: their specs, and what the engine makes of them.

import "cardroom/game"

// maxHands is the largest value of the hands option. pisyedili.md §13 sets
// none ("integer ≥ 1"); every number a client sends is range-checked, so
// the engine takes one far above any real game. A hand's penalty is at
// most 10 × the whole deck's points (10 × 1080), so totals stay far
// inside an int; a table bounds a game's length by its steps anyway
// (-max-steps, docs/server.md).
const maxHands = 1000

var optionSpecs = []game.OptionSpec{
	{Name: "players", Kind: "int", Default: "4", Min: 2, Max: maxSeats, Doc: "number of players, 2 to 7"},
	{Name: "jokers", Kind: "bool", Default: "true", Doc: "play with the two jokers (106 cards) or without (104)"},
	{Name: "hands", Kind: "int", Default: "", Min: 1, Max: maxHands, Doc: "number of hands in the game, 1 to 1000; default = the number of players"},
	{Name: "seven_stack", Kind: "enum", Default: "linear", Values: []string{"linear", "doubling"}, Doc: "seven chain size: linear 3, 6, 9 … or doubling 3, 6, 12 …"},
	{Name: "penalty_ends_turn", Kind: "bool", Default: "true", Doc: "taking a chain's penalty ends the player's turn"},
	{Name: "jack_wild", Kind: "bool", Default: "true", Doc: "a jack may be played on any card"},
	{Name: "jack_on_jack", Kind: "bool", Default: "true", Doc: "a jack may be played on a jack"},
	{Name: "joker_follow", Kind: "enum", Default: "transparent", Values: []string{"transparent", "any"}, Doc: "after a joker: follow the card under it (transparent) or play any card (any)"},
	{Name: "play_any_after_draw", Kind: "bool", Default: "false", Doc: "after a voluntary draw any playable card may be played, not only the drawn one"},
	{Name: "draw_until_playable", Kind: "bool", Default: "false", Doc: "a voluntary draw goes on until a playable card is drawn (or nothing is left)"},
	{Name: "finishing_card_effects", Kind: "bool", Default: "false", Doc: "the finishing card's draw effect (7, joker, ace) is executed before the end-of-hand draws"},
	{Name: "ten_mode", Kind: "enum", Default: "bounce", Values: []string{"bounce", "reverse"}, Doc: "a 10 bounces the turn back one seat (bounce) or reverses the direction of play (reverse)"},
}

// OptionSpecs implements game.Engine.
func (Engine) OptionSpecs() []game.OptionSpec {
	return append([]game.OptionSpec(nil), optionSpecs...)
}

// config is the parsed options.
type config struct {
	players           int
	hands             int
	jokers            bool
	doubling          bool
	penaltyEndsTurn   bool
	jackWild          bool
	jackOnJack        bool
	jokerAny          bool
	playAnyAfterDraw  bool
	drawUntilPlayable bool
	finishingEffects  bool
	tenReverse        bool
}

// parseOptions checks o against the specs and returns the engine's
// configuration and the normalized options (every default filled in).
func parseOptions(o game.Options) (config, game.Options, error) {
	norm, err := game.Normalize(o, optionSpecs)
	if err != nil {
		return config{}, nil, err
	}
	if _, ok := norm["hands"]; !ok {
		norm["hands"] = norm["players"]
	}
	c := config{
		players:           norm.Int("players"),
		hands:             norm.Int("hands"),
		jokers:            norm.Bool("jokers"),
		doubling:          norm["seven_stack"] == "doubling",
		penaltyEndsTurn:   norm.Bool("penalty_ends_turn"),
		jackWild:          norm.Bool("jack_wild"),
		jackOnJack:        norm.Bool("jack_on_jack"),
		jokerAny:          norm["joker_follow"] == "any",
		playAnyAfterDraw:  norm.Bool("play_any_after_draw"),
		drawUntilPlayable: norm.Bool("draw_until_playable"),
		finishingEffects:  norm.Bool("finishing_card_effects"),
		tenReverse:        norm["ten_mode"] == "reverse",
	}
	if c.hands < 1 {
		return config{}, nil, &game.OptionError{Name: "hands", Value: norm["hands"], Reason: "must be at least 1"}
	}
	return c, norm, nil
}
