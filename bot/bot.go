// Package bot holds the players that fill empty seats: one interface for
// every game and every level. A bot is given only a seat's View and the
// game's Engine; it builds full states with Engine.Sample (determinization),
// so it cannot see the true hidden state by construction.
package bot

import (
	"context"
	"fmt"

	"cardroom/game"
)

// Bot chooses moves for one seat.
type Bot interface {
	// Level is the bot's level name ("random", "easy", "medium", "hard").
	Level() string
	// Choose returns a legal move for the view's observer, which must be a
	// seat that has to act now. It honours ctx's deadline and cancellation.
	Choose(ctx context.Context, e game.Engine, v game.View) (game.Move, error)
}

// Factory makes a bot of one level from a seed; bots are deterministic for a
// seed (given the same views and, for search bots, the same iteration budget).
type Factory func(seed uint64) Bot

var levels = map[string]Factory{
	"random": func(seed uint64) Bot { return NewRandom(seed) },
}

// Register adds a level; later levels (rule-based, search) register here.
func Register(level string, f Factory) { levels[level] = f }

// New returns a bot of the named level.
func New(level string, seed uint64) (Bot, error) {
	f, ok := levels[level]
	if !ok {
		return nil, fmt.Errorf("unknown bot level %q", level)
	}
	return f(seed), nil
}

// Levels lists the registered levels.
func Levels() []string {
	out := make([]string, 0, len(levels))
	for _, l := range []string{"random", "easy", "medium", "hard"} {
		if _, ok := levels[l]; ok {
			out = append(out, l)
		}
	}
	return out
}

// Random plays a uniformly random legal move.
type Random struct {
	rng game.Rand
	buf []game.Move
}

// NewRandom returns a random bot seeded with seed.
func NewRandom(seed uint64) *Random { return &Random{rng: game.NewRand(seed)} }

// Level implements Bot.
func (b *Random) Level() string { return "random" }

// Choose implements Bot.
func (b *Random) Choose(ctx context.Context, e game.Engine, v game.View) (game.Move, error) {
	if err := ctx.Err(); err != nil {
		return game.Move{}, err
	}
	st, err := e.Sample(v, &b.rng)
	if err != nil {
		return game.Move{}, fmt.Errorf("bot: sample: %w", err)
	}
	b.buf = st.Legal(v.Observer(), b.buf[:0])
	if len(b.buf) == 0 {
		return game.Move{}, fmt.Errorf("bot: seat %d has no legal move", v.Observer())
	}
	return b.buf[b.rng.IntN(len(b.buf))], nil
}

// Rating is one legal move as a search bot rates it, for hints and analysis.
type Rating struct {
	Move   string  `json:"move"`   // the move in notation
	Value  float64 `json:"value"`  // expected outcome for the seat, higher is better (engine-specific scale, documented by the bot)
	Visits int     `json:"visits"` // how much search went into it
}

// Hinter is a bot that can rate the legal moves of a position, best first.
// The hard bot implements it; it backs the client's hint button.
type Hinter interface {
	Hint(ctx context.Context, e game.Engine, v game.View) ([]Rating, error)
}
