// Package ceiling is the all-seeing player of the arena: a yardstick, not
// a level of the room. It is handed the true State, not a seat's View, so
// it knows every hand (and, where the state holds it, the stock's order)
// and measures how far the hidden information holds the hard bot back.
//
// It is perfect-information Monte Carlo tree search on the real deal: the
// hard bot's own search (bot/ismcts with the game's kit: the same tree, the
// same medium-rule playouts, the same rewards and iteration budget), except
// that every iteration starts from a copy of the true state instead of a
// determinization sampled from the view. So the only difference between
// hard and ceiling at the same budget is what they know, and the gap
// between them is the price of not seeing the cards for this search. (A
// flat Monte Carlo of each legal move would be a weaker yardstick than the
// hard bot's tree, and would mix the value of the tree with the value of
// the information.) Chance the state does not hold yet — Papayoo's die, a
// reshuffle — is rolled inside the search, as for hard.
//
// A second, fairer yardstick, HandsLevel ("ceiling-hands"), sees every
// hand but not the stock's order: each iteration starts from a copy of the
// true state whose stock is reshuffled (the stock holds exactly the cards
// no hand and no pile shows). It separates what an honest player could
// infer (the other hands) from what no one can know (the next draws).
//
// The yardstick's search is kept as it was measured first (the opponents
// searched in the tree): the hard bot's Pis Yedili search now plays the
// opponents by its model of the field (pisyedilibot.FieldModel), and a
// ceiling that did so too would move with every improvement of the hard
// bot's search instead of measuring it (docs/bots.md, "The ceiling").
//
// It cannot be seated in the room: it does not implement bot.Bot (its
// Choose takes a State), it is not registered with bot.Register, so
// bot.New and every level check of the server and the table refuse its
// name, and only the arena (bot/arena) builds it. Its budget is an
// iteration count, never wall time, so its moves are a pure function of
// the state, the seed and the budget.
package ceiling

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"cardroom/bot/ismcts"
	"cardroom/bot/kit"
	"cardroom/game"
)

// Level is the ceiling's name in the arena's seat lists ("ceiling",
// "ceiling:N").
const Level = "ceiling"

// HandsLevel is the fairer yardstick ("ceiling-hands", "ceiling-hands:N"):
// it sees every hand but not the order of the stock, which every iteration
// of its search reshuffles (StockShuffler). No player can know the stock's
// order, so the gap between hard and this bot is the part of the hidden
// information an honest player could hope to infer, and the gap between it
// and Level the part no one can.
const HandsLevel = "ceiling-hands"

// IsLevel reports whether level names one of the all-seeing bots.
func IsLevel(level string) bool { return level == Level || level == HandsLevel }

// StockShuffler is a State whose hidden stock can be put in a random order
// without changing anything a view shows (pisyedili.State, rum500.State;
// Papayoo has no stock, so its plain ceiling already sees hands only).
// HandsLevel plays only games whose states implement it.
type StockShuffler interface {
	ShuffleStock(r *game.Rand)
}

// DefaultIterations is the budget per move when none is given: the hard
// bot's room setting (bot.DefaultIterations), so the two compare at equal
// search effort.
const DefaultIterations = 4000

// MaxIterations bounds the budget a seat list may ask for.
const MaxIterations = 1_000_000

// Bot is the all-seeing player. Its moves are reproducible when calls come
// in order (each call draws its search seed from the bot's generator).
type Bot struct {
	iters int
	rng   game.Rand
	hands bool // HandsLevel: the stock is reshuffled in every iteration
}

// New returns an all-seeing bot searching iters iterations a move
// (0 = DefaultIterations).
func New(seed uint64, iters int) *Bot {
	if iters <= 0 {
		iters = DefaultIterations
	}
	return &Bot{iters: iters, rng: game.NewRand(seed)}
}

// NewLevel returns the bot of an all-seeing level (Level or HandsLevel).
func NewLevel(level string, seed uint64, iters int) (*Bot, error) {
	if !IsLevel(level) {
		return nil, fmt.Errorf("ceiling: %q is not an all-seeing level", level)
	}
	b := New(seed, iters)
	b.hands = level == HandsLevel
	return b, nil
}

// Level is the bot's level name.
func (b *Bot) Level() string {
	if b.hands {
		return HandsLevel
	}
	return Level
}

// Iterations is the bot's budget per move.
func (b *Bot) Iterations() int { return b.iters }

// ParseIterations reads the budget of a seat spec: "ceiling" (0, the
// default) or "ceiling:N" with 1 ≤ N ≤ MaxIterations, and the same for
// "ceiling-hands". A time budget is refused: the yardstick must not depend
// on the machine's load.
func ParseIterations(s string) (int, error) {
	level, budget, has := strings.Cut(strings.TrimSpace(s), ":")
	if !IsLevel(level) {
		return 0, fmt.Errorf("ceiling: %q is not a ceiling spec", s)
	}
	if !has {
		return 0, nil
	}
	n, err := strconv.Atoi(budget)
	if err != nil || n < 1 || n > MaxIterations {
		return 0, fmt.Errorf("ceiling: %q: the budget must be a number of iterations from 1 to %d (never a time)", s, MaxIterations)
	}
	return n, nil
}

// Choose returns the move for seat s in the true state st, which must be
// a seat that has to act now. st is not changed: the search works on
// copies.
func (b *Bot) Choose(ctx context.Context, st game.State, s game.Seat) (game.Move, error) {
	if err := ctx.Err(); err != nil {
		return game.Move{}, err
	}
	if s < 0 || int(s) >= st.Seats() {
		return game.Move{}, fmt.Errorf("ceiling: no seat %d", s)
	}
	e := st.Engine()
	v := st.View(s)
	truth := st.Clone()
	if _, ok := truth.(StockShuffler); b.hands && !ok {
		return game.Move{}, fmt.Errorf("ceiling: %s cannot hide the order of its stock (its State has no ShuffleStock); use %s", e.Name(), Level)
	}
	k, hasKit := kit.For(e.Name())
	dom := func() ismcts.Domain {
		var inner ismcts.Domain
		switch {
		case hasKit && k.Yardstick != nil:
			inner = k.Yardstick(v)
		case hasKit && k.Domain != nil:
			inner = k.Domain(v)
		default:
			inner = ismcts.NewGeneric()
		}
		w, _ := inner.(ismcts.Wider)
		return &seer{Domain: inner, wide: w, truth: truth, hands: b.hands}
	}
	c := ismcts.Config{Iterations: b.iters, Workers: 1, Seed: b.rng.Uint64()}
	if hasKit && k.Search != nil {
		k.Search(&c)
	}
	res, err := ismcts.Search(ctx, e, v, dom, c)
	if err != nil {
		return game.Move{}, fmt.Errorf("ceiling: %w", err)
	}
	return res.Best(), nil
}

// seer is the game's search domain with one change: every iteration's
// "determinization" is a copy of the true state (ismcts.Sampler). Embedding
// the Domain interface hides the game's own sampler (Pis Yedili's), which
// would deal from the view.
type seer struct {
	ismcts.Domain
	wide  ismcts.Wider
	truth game.State
	hands bool
}

// Sample implements ismcts.Sampler: the true state, its stock reshuffled
// for HandsLevel (the hands stay true; every card not in a hand or the
// pile is in the stock, so the stock's cards are exactly the unseen ones).
func (d *seer) Sample(r *game.Rand) (game.State, error) {
	st := d.truth.Clone()
	if d.hands {
		st.(StockShuffler).ShuffleStock(r)
	}
	return st, nil
}

// TooWide implements ismcts.Wider when the game's domain does.
func (d *seer) TooWide(st game.State, s game.Seat, maxBranch int) bool {
	return d.wide != nil && d.wide.TooWide(st, s, maxBranch)
}
