package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"cardroom/bot/ismcts"
	"cardroom/bot/kit"
	"cardroom/bot/pool"
	"cardroom/game"
)

// Kit is what the bots know about one game (package bot/kit).
type Kit = kit.Kit

func kitFor(name string) (Kit, bool) { return kit.For(name) }

// EasyMistakes is the probability that the easy level plays a random legal
// move instead of its rule-based choice.
const EasyMistakes = 0.2

func init() {
	Register("easy", func(seed uint64) Bot { return NewRule(seed, true) })
	Register("medium", func(seed uint64) Bot { return NewRule(seed, false) })
	Register("hard", func(seed uint64) Bot { return NewHard(seed, HardConfig{}) })
}

// Rule is the rule-based player (levels easy and medium).
type Rule struct {
	easy bool
	rng  game.Rand
	buf  []game.Move
}

// NewRule returns a rule-based bot; easy selects the easy level.
func NewRule(seed uint64, easy bool) *Rule { return &Rule{easy: easy, rng: game.NewRand(seed)} }

// Level implements Bot.
func (b *Rule) Level() string {
	if b.easy {
		return "easy"
	}
	return "medium"
}

// legalFromView lists the observer's legal moves. The legal moves depend
// only on what the observer knows, so any determinization gives them.
func legalFromView(e game.Engine, v game.View, r *game.Rand, buf []game.Move) (game.State, []game.Move, error) {
	if v.Observer() < 0 {
		return nil, nil, fmt.Errorf("bot: a spectator view has no moves")
	}
	st, err := e.Sample(v, r)
	if err != nil {
		return nil, nil, fmt.Errorf("bot: sample: %w", err)
	}
	buf = st.Legal(v.Observer(), buf[:0])
	if len(buf) == 0 {
		return nil, nil, fmt.Errorf("bot: seat %d has no legal move", v.Observer())
	}
	return st, buf, nil
}

// Choose implements Bot.
func (b *Rule) Choose(ctx context.Context, e game.Engine, v game.View) (game.Move, error) {
	if err := ctx.Err(); err != nil {
		return game.Move{}, err
	}
	_, legal, err := legalFromView(e, v, &b.rng, b.buf)
	if err != nil {
		return game.Move{}, err
	}
	b.buf = legal
	if len(legal) == 1 {
		return legal[0], nil
	}
	k, ok := kitFor(e.Name())
	if !ok || k.Rule == nil || (b.easy && b.rng.Float64() < EasyMistakes) {
		return legal[b.rng.IntN(len(legal))], nil
	}
	return k.Rule(v, legal, &b.rng, b.easy), nil
}

// HardConfig is the hard bot's budget.
type HardConfig struct {
	Iterations int           // per move; 0 = DefaultIterations unless Duration is set
	Duration   time.Duration // per move; 0 = none (the context's deadline still applies)
	Workers    int           // root-parallel trees; 0 = GOMAXPROCS
}

// DefaultIterations is the hard bot's budget per move when none is given
// (the server's turn clock may cut it short through the context).
const DefaultIterations = 4000

// Hard is the ISMCTS bot (level hard). It implements Hinter. It may be
// called from several goroutines (each call draws its search seed under a
// lock), but its moves are reproducible only when calls come in order.
type Hard struct {
	cfg HardConfig
	mu  sync.Mutex
	rng game.Rand
}

// NewHard returns a hard bot.
func NewHard(seed uint64, cfg HardConfig) *Hard {
	if cfg.Iterations <= 0 && cfg.Duration <= 0 {
		cfg.Iterations = DefaultIterations
	}
	return &Hard{cfg: cfg, rng: game.NewRand(seed)}
}

// WithWorkers returns a hard bot like b whose searches use n root-parallel
// trees. The server runs each decision on one worker of its bot pool, so
// its hard bots search with one tree: the pool, not the bot, decides how
// many cores bots may take.
func (b *Hard) WithWorkers(n int) *Hard {
	b.mu.Lock()
	defer b.mu.Unlock()
	c := b.cfg
	c.Workers = n
	return &Hard{cfg: c, rng: b.rng}
}

// Level implements Bot.
func (b *Hard) Level() string { return "hard" }

func (b *Hard) search(ctx context.Context, e game.Engine, v game.View) (*ismcts.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dom := ismcts.NewGeneric
	b.mu.Lock()
	seed := b.rng.Uint64()
	b.mu.Unlock()
	c := ismcts.Config{Iterations: b.cfg.Iterations, Duration: b.cfg.Duration, Workers: b.cfg.Workers, Seed: seed}
	if g, ok := pool.GrantFrom(ctx); ok {
		// On a server's bot pool the pool decides the budget, from how many
		// decisions wait (bot/pool/budget.go): an iteration count, so the
		// move is as reproducible as with a fixed budget.
		c.Iterations, c.Duration = g.Iterations, 0
	}
	// On a pool the tables' goroutines come first (ismcts.Config.Yield).
	c.Yield = pool.Shared(ctx)
	if k, ok := kitFor(e.Name()); ok && k.Domain != nil {
		dom = func() ismcts.Domain { return k.Domain(v) }
		if k.Search != nil {
			k.Search(&c)
		}
		if k.PriorShare > 0 && k.Rule != nil {
			pr := game.NewRand(c.Seed ^ 0x7f4a7c15)
			if _, legal, err := legalFromView(e, v, &pr, nil); err == nil && len(legal) > 1 {
				m := k.Rule(v, legal, &pr, false)
				c.Prior, c.PriorShare = &m, k.PriorShare
			}
		}
	}
	res, err := ismcts.Search(ctx, e, v, dom, c)
	if err == nil {
		pool.Spent(ctx, res.Iterations)
	}
	return res, err
}

// Choose implements Bot.
func (b *Hard) Choose(ctx context.Context, e game.Engine, v game.View) (game.Move, error) {
	res, err := b.search(ctx, e, v)
	if err != nil {
		return game.Move{}, err
	}
	return res.Best(), nil
}

// Hint implements Hinter: the root moves the search considered, best first.
// Value is the mean reward of the move for the seat in [0, 1] (1 = the best
// outcome of the round, see docs/bots.md); Visits is the number of search
// iterations that went through it.
func (b *Hard) Hint(ctx context.Context, e game.Engine, v game.View) ([]Rating, error) {
	res, err := b.search(ctx, e, v)
	if err != nil {
		return nil, err
	}
	out := make([]Rating, len(res.Moves))
	for i, m := range res.Moves {
		out[i] = Rating{Move: m.Text, Value: m.Value, Visits: m.Visits}
	}
	return out, nil
}

// Spec is a bot level with an optional budget, as the arena writes it:
// "random", "easy", "medium", "hard", "hard:2000" (iterations per move) or
// "hard:200ms" (time per move).
type Spec struct {
	Level      string
	Iterations int
	Duration   time.Duration
}

// ParseSpec reads a Spec.
func ParseSpec(s string) (Spec, error) {
	level, budget, has := strings.Cut(strings.TrimSpace(s), ":")
	sp := Spec{Level: level}
	if _, ok := levels[level]; !ok {
		return sp, fmt.Errorf("unknown bot level %q (known: %s)", level, strings.Join(Levels(), ", "))
	}
	if !has {
		return sp, nil
	}
	if level != "hard" {
		return sp, fmt.Errorf("bot %q: only hard takes a budget", s)
	}
	if n, err := strconv.Atoi(budget); err == nil && n > 0 {
		sp.Iterations = n
		return sp, nil
	}
	if d, err := time.ParseDuration(budget); err == nil && d > 0 {
		sp.Duration = d
		return sp, nil
	}
	return sp, fmt.Errorf("bot %q: the budget must be iterations (2000) or a duration (200ms)", s)
}

// String prints the spec back.
func (s Spec) String() string {
	switch {
	case s.Iterations > 0:
		return fmt.Sprintf("%s:%d", s.Level, s.Iterations)
	case s.Duration > 0:
		return fmt.Sprintf("%s:%s", s.Level, s.Duration)
	}
	return s.Level
}

// NewFromSpec builds a bot from a spec; workers applies to the hard bot.
func NewFromSpec(s Spec, seed uint64, workers int) (Bot, error) {
	if s.Level == "hard" {
		return NewHard(seed, HardConfig{Iterations: s.Iterations, Duration: s.Duration, Workers: workers}), nil
	}
	return New(s.Level, seed)
}
