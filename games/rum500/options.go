package rum500

import (
	"cardroom/game"
	"fmt"
)

// The options: their specs, and what the engine makes of them.

// The largest target and going-out bonus. rum500.md §12 sets none
// ("integer > 0", "integer ≥ 0"); every number a client sends is
// range-checked, so the engine takes bounds far above any real game. A
// hand moves a total by at most the points of every card in play (two
// decks with jokers: 852) plus the bonus, so totals stay far inside an
// int however long a game lasts. The rules themselves do not bound the
// number of hands (a hand's score may be negative, and
// tie_resolution=play_on plays on while the best totals tie); see
// docs/games/rum500.md.
const (
	maxTarget = 100_000
	maxBonus  = 100_000
)

// OptionSpecs implements game.Engine.
func (Engine) OptionSpecs() []game.OptionSpec {
	return []game.OptionSpec{
		{Name: "players", Default: "4", Kind: "int", Min: 2, Max: 8, Doc: "number of players, 2 to 8"},
		{Name: "decks", Default: "", Kind: "int", Min: 1, Max: 2, Doc: "decks shuffled together, 1 or 2; default 1 for 2–4 players, 2 for 5–8"},
		{Name: "two_player_hand", Default: "13", Kind: "enum", Values: []string{"13", "10"}, Doc: "cards dealt to each player in a 2-player game (7 otherwise)"},
		{Name: "jokers", Default: "0", Kind: "enum", Values: []string{"0", "2"}, Doc: "jokers per deck (wild, 15 points)"},
		{Name: "meld_jokers", Default: "any", Kind: "enum", Values: []string{"any", "one"}, Doc: "jokers a new meld may hold: any number (the spec: a joker may stand for any card in a meld), or at most one"},
		{Name: "target", Default: "500", Kind: "int", Min: 1, Max: maxTarget, Doc: "the game ends after the hand in which a cumulative score reaches this, 1 to 100000"},
		{Name: "top_discard_free", Default: "false", Kind: "bool", Doc: "the top discard alone may be taken with no immediate use"},
		{Name: "must_discard_to_go_out", Default: "false", Kind: "bool", Doc: "a player goes out only by discarding the last card"},
		{Name: "stock_exhausted", Default: "end_when_declined", Kind: "enum", Values: stockRuleNames, Doc: "what happens when the stock runs out"},
		{Name: "go_out_bonus", Default: "0", Kind: "int", Min: 0, Max: maxBonus, Doc: "points added to the hand score of the player who goes out, 0 to 100000"},
		{Name: "tie_resolution", Default: "shared", Kind: "enum", Values: []string{"shared", "play_on"}, Doc: "a tie for the highest score at the end: co-winners, or play more hands"},
	}
}

// config is the options in the form the engine uses.
type config struct {
	n          int
	decks      int
	handSize   int
	jokers     int  // per deck
	oneJoker   bool // meld_jokers=one: at most one joker in a new meld
	target     int
	topFree    bool
	mustDisc   bool
	stock      stockRule
	bonus      int
	playOn     bool
	totalCards int
}

// parseOptions checks o against the specs and returns the engine's
// configuration and the normalized options (every default filled in).
func parseOptions(o game.Options) (config, game.Options, error) {
	norm, err := game.Normalize(o, Engine{}.OptionSpecs())
	if err != nil {
		return config{}, nil, err
	}
	var c config
	c.n = norm.Int("players")
	if _, ok := norm["decks"]; !ok {
		if c.n <= 4 {
			norm["decks"] = "1"
		} else {
			norm["decks"] = "2"
		}
	}
	c.decks = norm.Int("decks")
	c.handSize = 7
	if c.n == 2 {
		c.handSize = norm.Int("two_player_hand")
	}
	c.jokers = norm.Int("jokers")
	c.oneJoker = norm["meld_jokers"] == "one"
	c.target = norm.Int("target")
	c.topFree = norm.Bool("top_discard_free")
	c.mustDisc = norm.Bool("must_discard_to_go_out")
	for i, n := range stockRuleNames {
		if norm["stock_exhausted"] == n {
			c.stock = stockRule(i)
		}
	}
	c.bonus = norm.Int("go_out_bonus")
	c.playOn = norm["tie_resolution"] == "play_on"
	c.totalCards = c.decks * (52 + c.jokers)
	if need := c.n*c.handSize + 2; need > c.totalCards {
		return config{}, nil, &game.OptionError{Name: "decks", Value: norm["decks"],
			Reason: fmt.Sprintf("%d players need %d cards (hands, the upcard and at least one stock card) but %d deck(s) hold %d", c.n, need, c.decks, c.totalCards)}
	}
	return c, norm, nil
}
