// Package arena plays bots against each other on duplicate deals and
// measures them.
//
// Duplicate deals: deal d is one game, played once per rotation r = 0..n-1,
// with seat s taken by bot Seats[(s+r) mod n], so every bot plays every seat
// of the same deal. Chance is held equal: every chance step of every
// rotation of deal d is drawn with SampleChance from a generator seeded from
// (Seed, d) alone, so the k-th chance step of each rotation consumes the same
// random numbers. For Papayoo and 500 Rum this makes the first dealer, every
// deal (and the 500 Rum stock and up-card) and the die identical in all
// rotations whatever the players do; a chance step whose draw depends on the
// play (a reshuffle of a Pis Yedili stock, whose size and content depend on
// what was played) gets the same random numbers, not the same outcome.
//
// Statistics are per deal, so that the rotations and seats of one deal,
// which are strongly correlated, count as one observation: for each bot,
// the deal's value is its mean over all its seats and rotations; the
// reported mean and 95% interval are over deals (normal approximation, t
// quantile for few deals). Paired differences subtract two bots' values deal
// by deal before averaging, which cancels the luck of the deal.
package arena

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"cardroom/bot"
	"cardroom/bot/ceiling"
	"cardroom/game"
	"cardroom/record"
)

// Bounds of a run: a run keeps every game's outcome in memory (a few
// hundred bytes each, times the rotations), so a mistyped count is refused
// rather than exhausting the memory.
const (
	MaxDeals   = 100_000
	MaxWorkers = 1024
)

// Config describes an arena run.
type Config struct {
	Engine    game.Engine
	Options   game.Options // must set the number of players the engine needs
	Seats     []bot.Spec   // one per seat (ParseSeat; levels ceiling.Level and ceiling.HandsLevel are the all-seeing bots)
	Deals     int
	Seed      uint64
	Workers   int           // games played at once; 0 = GOMAXPROCS
	Progress  io.Writer     // progress lines, nil = none
	RecordDir string        // write every game's record here if not ""
	MaxSteps  int           // safety bound on one game's steps; 0 = 200000
	MoveTime  time.Duration // per-move deadline given to bots through ctx; 0 = none
}

// Game is the outcome of one game (one rotation of one deal).
type Game struct {
	Deal, Rotation int
	Bots           []string // the spec of the bot in each seat
	Rounds         [][]int  // points per finished round per seat
	Totals         []int
	Winners        []game.Seat
	HigherWins     bool
	Steps          int
}

// Stat is a mean with its 95% confidence interval.
type Stat struct {
	Mean, Lo, Hi, SD float64
	N                int // observations (deals)
}

// BotStats summarizes one bot (one distinct spec).
type BotStats struct {
	Bot       string
	Seats     int  // how many seats it holds at the table
	Points    Stat // mean points per round (hand)
	RoundWins Stat // share of rounds (hands) won: best score of the round, ties shared
	GameWins  Stat // share of games won (Result winners, ties shared)
}

// Pair is the paired difference A − B over the same deals.
type Pair struct {
	A, B      string
	Points    Stat
	RoundWins Stat
	GameWins  Stat
}

// Report is the whole result.
type Report struct {
	Game       string
	Options    string
	Seats      []string
	Deals      int
	Games      []Game // in deal, rotation order
	Bots       []BotStats
	Pairs      []Pair
	Elapsed    time.Duration
	HigherWins bool
	// Speed is each bot's thinking time (wall clock, so it depends on the
	// machine's load and on Workers; kept out of Games, which are a pure
	// function of the configuration).
	Speed []Speed `json:",omitempty"`
}

// Speed is the time one bot spent choosing its moves over a run.
type Speed struct {
	Bot       string
	Moves     int
	MsPerMove float64
}

// thinkClock sums the thinking time of each bot over a run.
type thinkClock struct {
	mu    sync.Mutex
	moves map[string]int
	total map[string]time.Duration
}

func (c *thinkClock) add(b string, d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.moves == nil {
		c.moves, c.total = map[string]int{}, map[string]time.Duration{}
	}
	c.moves[b]++
	c.total[b] += d
}

func (c *thinkClock) speeds(labels []BotStats) []Speed {
	var out []Speed
	for _, b := range labels {
		if n := c.moves[b.Bot]; n > 0 {
			out = append(out, Speed{Bot: b.Bot, Moves: n, MsPerMove: float64(c.total[b.Bot].Microseconds()) / 1000 / float64(n)})
		}
	}
	return out
}

// Run plays the arena.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	n := len(cfg.Seats)
	if n == 0 {
		return nil, fmt.Errorf("arena: no seats")
	}
	if cfg.Deals <= 0 || cfg.Deals > MaxDeals {
		return nil, fmt.Errorf("arena: deals must be 1 to %d, not %d", MaxDeals, cfg.Deals)
	}
	if cfg.Workers < 0 || cfg.Workers > MaxWorkers {
		return nil, fmt.Errorf("arena: workers must be 0 (one per core) to %d, not %d", MaxWorkers, cfg.Workers)
	}
	st0, err := cfg.Engine.New(cfg.Options)
	if err != nil {
		return nil, err
	}
	if st0.Seats() != n {
		return nil, fmt.Errorf("arena: %d bots for a %d-seat game (set the players option)", n, st0.Seats())
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = 200000
	}
	if cfg.RecordDir != "" {
		if err := os.MkdirAll(cfg.RecordDir, 0o755); err != nil {
			return nil, err
		}
	}
	total := cfg.Deals * n
	games := make([]Game, total)
	errs := make([]error, total)
	var next, done atomic.Int64
	var clock thinkClock
	start := time.Now()
	stop := make(chan struct{})
	var pwg sync.WaitGroup
	if cfg.Progress != nil {
		pwg.Add(1)
		go func() {
			defer pwg.Done()
			t := time.NewTicker(2 * time.Second)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					d := done.Load()
					el := time.Since(start)
					eta := time.Duration(0)
					if d > 0 {
						eta = time.Duration(float64(el) * float64(int64(total)-d) / float64(d))
					}
					fmt.Fprintf(cfg.Progress, "arena: %d/%d games (%.0f%%), %s elapsed, about %s to go\n",
						d, total, 100*float64(d)/float64(total), el.Round(time.Second), eta.Round(time.Second))
				}
			}
		}()
	}
	var wg sync.WaitGroup
	for w := 0; w < cfg.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				j := int(next.Add(1) - 1)
				if j >= total || ctx.Err() != nil {
					return
				}
				games[j], errs[j] = playOne(ctx, cfg, j/n, j%n, &clock)
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	close(stop)
	pwg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, e := range errs {
		if e != nil {
			return nil, e
		}
	}
	rep := Summarize(cfg.Engine.Name(), cfg.Options.String(), specStrings(cfg.Seats), cfg.Deals, games)
	rep.Elapsed = time.Since(start)
	rep.Speed = clock.speeds(rep.Bots)
	return rep, nil
}

// ParseSeat reads one seat of an arena: a bot level as bot.ParseSpec
// reads it, or the all-seeing "ceiling" / "ceiling:N" (N iterations a
// move) and "ceiling-hands" / "ceiling-hands:N" (every hand, not the
// stock), which only the arena knows (package bot/ceiling).
func ParseSeat(s string) (bot.Spec, error) {
	if level, _, _ := strings.Cut(strings.TrimSpace(s), ":"); ceiling.IsLevel(level) {
		n, err := ceiling.ParseIterations(s)
		return bot.Spec{Level: level, Iterations: n}, err
	}
	return bot.ParseSpec(s)
}

func specStrings(ss []bot.Spec) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.String()
	}
	return out
}

// mix derives independent seeds from the run's seed and small integers.
func mix(vals ...uint64) uint64 {
	h := uint64(0x243f6a8885a308d3)
	for _, v := range vals {
		h ^= v + 0x9e3779b97f4a7c15 + (h << 6) + (h >> 2)
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	return h
}

// BotSeed is the seed of the bot in seat s of rotation r of deal d.
func BotSeed(seed uint64, d, r, s int) uint64 { return mix(seed, 2, uint64(d), uint64(r), uint64(s)) }

// ChanceSeed is the seed of deal d's chance generator (the same for every rotation).
func ChanceSeed(seed uint64, d int) uint64 { return mix(seed, 1, uint64(d)) }

func playOne(ctx context.Context, cfg Config, d, r int, clock *thinkClock) (Game, error) {
	n := len(cfg.Seats)
	e := cfg.Engine
	st, err := e.New(cfg.Options)
	if err != nil {
		return Game{}, err
	}
	g := Game{Deal: d, Rotation: r, Bots: make([]string, n)}
	bots := make([]bot.Bot, n)
	// seers[s] is the all-seeing bot of seat s, if it holds one: it alone
	// is given the true state; every other seat gets its view.
	seers := make([]*ceiling.Bot, n)
	names := make([]string, n)
	for s := 0; s < n; s++ {
		sp := cfg.Seats[(s+r)%n]
		g.Bots[s] = sp.String()
		names[s] = "bot:" + sp.String()
		if ceiling.IsLevel(sp.Level) {
			if seers[s], err = ceiling.NewLevel(sp.Level, BotSeed(cfg.Seed, d, r, s), sp.Iterations); err != nil {
				return Game{}, err
			}
			continue
		}
		b, err := bot.NewFromSpec(sp, BotSeed(cfg.Seed, d, r, s), 1)
		if err != nil {
			return Game{}, err
		}
		bots[s] = b
	}
	var rc *record.Recorder
	if cfg.RecordDir != "" {
		rc = record.NewRecorder(e, st.Options(), names, "")
		rc.Rec.Set("Arena", fmt.Sprintf("seed %d deal %d rotation %d", cfg.Seed, d, r))
	}
	chance := game.NewRand(ChanceSeed(cfg.Seed, d))
	choose := func(st game.State, s game.Seat) (game.Move, error) {
		mctx, cancel := ctx, context.CancelFunc(func() {})
		if cfg.MoveTime > 0 {
			mctx, cancel = context.WithTimeout(ctx, cfg.MoveTime)
		}
		defer cancel()
		var m game.Move
		var err error
		t0 := time.Now()
		defer func() { clock.add(g.Bots[s], time.Since(t0)) }()
		if seers[s] != nil {
			m, err = seers[s].Choose(mctx, st, s)
		} else {
			m, err = bots[s].Choose(mctx, e, st.View(s))
		}
		if err != nil {
			return m, fmt.Errorf("bot %s: %w", g.Bots[s], err)
		}
		return m, nil
	}
	steps, err := record.PlayWith(st, &chance, choose, rc, cfg.MaxSteps)
	g.Steps = steps
	if err != nil {
		return g, fmt.Errorf("arena: deal %d rotation %d: %w", d, r, err)
	}
	res := st.Result()
	g.Rounds, g.Totals, g.Winners, g.HigherWins = res.Rounds, res.Totals, res.Winners, res.HigherWins
	if rc != nil {
		name := filepath.Join(cfg.RecordDir, fmt.Sprintf("%s-deal%05d-rot%d.txt", e.Name(), d, r))
		if err := os.WriteFile(name, []byte(rc.Rec.String()), 0o644); err != nil {
			return g, err
		}
	}
	return g, nil
}

// Summarize computes the statistics of a set of games (all rotations of
// deals 0..deals-1).
func Summarize(gameName, opts string, seats []string, deals int, games []Game) *Report {
	rep := &Report{Game: gameName, Options: opts, Seats: seats, Deals: deals, Games: games}
	var labels []string
	count := map[string]int{}
	for _, s := range seats {
		if count[s] == 0 {
			labels = append(labels, s)
		}
		count[s]++
	}
	if len(games) > 0 {
		rep.HigherWins = games[0].HigherWins
	}
	per := perDeal(games, deals, labels)
	series := func(l string, m Metric) []float64 {
		var xs []float64
		for _, a := range per[l] {
			if x, ok := a.value(m); ok {
				xs = append(xs, x)
			}
		}
		return xs
	}
	for _, l := range labels {
		rep.Bots = append(rep.Bots, BotStats{
			Bot: l, Seats: count[l],
			Points:    MeanCI(series(l, Points)),
			RoundWins: MeanCI(series(l, RoundWins)),
			GameWins:  MeanCI(series(l, GameWins)),
		})
	}
	diff := func(a, b string, m Metric) []float64 {
		var xs []float64
		for d := 0; d < deals; d++ {
			x, ok1 := per[a][d].value(m)
			y, ok2 := per[b][d].value(m)
			if ok1 && ok2 {
				xs = append(xs, x-y)
			}
		}
		return xs
	}
	for i := 0; i < len(labels); i++ {
		for j := i + 1; j < len(labels); j++ {
			a, b := labels[i], labels[j]
			rep.Pairs = append(rep.Pairs, Pair{A: a, B: b,
				Points:    MeanCI(diff(a, b, Points)),
				RoundWins: MeanCI(diff(a, b, RoundWins)),
				GameWins:  MeanCI(diff(a, b, GameWins)),
			})
		}
	}
	return rep
}

// Metric is one of the arena's figures of a bot on a deal.
type Metric int

// The metrics, as Report prints them.
const (
	Points    Metric = iota // mean points per round (hand)
	RoundWins               // share of rounds won, ties shared
	GameWins                // share of games won, ties shared
)

// String names the metric as the arena's flags do.
func (m Metric) String() string {
	return [...]string{"points", "rounds", "games"}[m]
}

// acc is one bot's sums over the games of one deal.
type acc struct{ pts, rw, gw, nr, ng float64 }

// value is the deal's figure of the bot for m; false if it did not play.
func (a acc) value(m Metric) (float64, bool) {
	switch m {
	case Points:
		return a.pts / a.nr, a.nr > 0
	case RoundWins:
		return a.rw / a.nr, a.nr > 0
	}
	return a.gw / a.ng, a.ng > 0
}

// perDeal sums each bot's points, round wins and game wins per deal, over
// all its seats and rotations, for the bots labels.
func perDeal(games []Game, deals int, labels []string) map[string][]acc {
	per := map[string][]acc{}
	for _, l := range labels {
		per[l] = make([]acc, deals)
	}
	for _, g := range games {
		for _, row := range g.Rounds {
			best := row[0]
			for _, p := range row {
				if (g.HigherWins && p > best) || (!g.HigherWins && p < best) {
					best = p
				}
			}
			nb := 0
			for _, p := range row {
				if p == best {
					nb++
				}
			}
			for s, p := range row {
				a := &per[g.Bots[s]][g.Deal]
				a.pts += float64(p)
				a.nr++
				if p == best {
					a.rw += 1 / float64(nb)
				}
			}
		}
		for s := range g.Bots {
			a := &per[g.Bots[s]][g.Deal]
			a.ng++
			for _, w := range g.Winners {
				if int(w) == s {
					a.gw += 1 / float64(len(g.Winners))
				}
			}
		}
	}
	return per
}

// MeanCI is the mean of xs with a two-sided 95% confidence interval
// (Student t for fewer than 30 observations, normal beyond).
func MeanCI(xs []float64) Stat {
	n := len(xs)
	if n == 0 {
		return Stat{}
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(n)
	if n == 1 {
		return Stat{Mean: mean, Lo: mean, Hi: mean, N: 1} // no interval from one deal
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / float64(n-1))
	h := tQuantile(n-1) * sd / math.Sqrt(float64(n))
	return Stat{Mean: mean, Lo: mean - h, Hi: mean + h, SD: sd, N: n}
}

// tQuantile is the 97.5% quantile of Student's t with df degrees of freedom.
func tQuantile(df int) float64 {
	table := []float64{0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	if df < len(table) {
		return table[df]
	}
	if df < 60 {
		return 2.000
	}
	if df < 120 {
		return 1.980
	}
	return 1.960
}

// nameWidth is the width of the reports' first column: 14, or the longest
// seat name ("ceiling-hands:4000"), so that the columns stay aligned.
func nameWidth(names []string) int {
	w := 14
	for _, n := range names {
		w = max(w, utf8.RuneCountInString(n))
	}
	return w
}

// Print writes the report for people.
func (rep *Report) Print(w io.Writer) {
	fmt.Fprintf(w, "game %s (%s), seats %s, %d deals × %d rotations = %d games, %s\n",
		rep.Game, rep.Options, strings.Join(rep.Seats, ","), rep.Deals, len(rep.Seats), len(rep.Games), rep.Elapsed.Round(time.Millisecond))
	better := "lower is better"
	if rep.HigherWins {
		better = "higher is better"
	}
	fmt.Fprintf(w, "\nper bot (mean per deal, 95%% CI over %d deals):\n", rep.Deals)
	names := make([]string, len(rep.Bots))
	for i, b := range rep.Bots {
		names[i] = b.Bot
	}
	nw := nameWidth(names)
	fmt.Fprintf(w, "  %-*s %5s  %-30s %-26s %-26s\n", nw, "bot", "seats", "points/round ("+better+")", "rounds won", "games won")
	for _, b := range rep.Bots {
		fmt.Fprintf(w, "  %-*s %5d  %-30s %-26s %-26s\n", nw, b.Bot, b.Seats, fmtStat(b.Points, 1), fmtPct(b.RoundWins), fmtPct(b.GameWins))
	}
	if len(rep.Pairs) > 0 {
		fmt.Fprintf(w, "\npaired differences A − B (same deals, same seats):\n")
		fmt.Fprintf(w, "  %-28s %-30s %-26s %-26s\n", "A − B", "points/round", "rounds won", "games won")
		for _, p := range rep.Pairs {
			fmt.Fprintf(w, "  %-28s %-30s %-26s %-26s\n", p.A+" − "+p.B, fmtStat(p.Points, 1), fmtPct(p.RoundWins), fmtPct(p.GameWins))
		}
	}
}

// PrintSpeed writes each bot's time per move. It is kept out of Print,
// whose text is a pure function of the run's configuration.
func (rep *Report) PrintSpeed(w io.Writer) {
	if len(rep.Speed) == 0 {
		return
	}
	fmt.Fprint(w, "time per move (wall clock, sharing the cores with the games played at once):")
	for _, sp := range rep.Speed {
		fmt.Fprintf(w, " %s %.2f ms (%d moves);", sp.Bot, sp.MsPerMove, sp.Moves)
	}
	fmt.Fprintln(w)
}

func fmtStat(s Stat, scale float64) string {
	if s.N == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f [%.2f, %.2f]", s.Mean*scale, s.Lo*scale, s.Hi*scale)
}

func fmtPct(s Stat) string {
	if s.N == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%% [%.1f, %.1f]", s.Mean*100, s.Lo*100, s.Hi*100)
}

// Labels returns the distinct bots of the report, sorted by name (for tests).
func (rep *Report) Labels() []string {
	var out []string
	for _, b := range rep.Bots {
		out = append(out, b.Bot)
	}
	sort.Strings(out)
	return out
}
