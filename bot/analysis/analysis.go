// Package analysis rates every decision one seat made in a game record:
// for each position where the seat had a choice, every legal move is
// evaluated from that seat's information at the time (its View, never the
// true state), and the move played is compared with the best one. The
// result says, in the game's own points, how much each move cost in
// expectation, and marks the biggest mistakes.
//
// The method (docs/bots.md, "Post-game analysis"): at a decision, K
// determinizations are drawn from the seat's view with Engine.Sample
// (or the game's own sampler, which deals exactly what Engine.Sample would),
// as the hard bot draws them. Every candidate move is applied to each
// determinization and the rest of the round (the hand in 500 Rum and Pis
// Yedili) is played out by the hard bot's playout policy: the medium rules
// with a little randomness, on the engine's fast path where the game has
// one. The outcome of a playout is the seat's points of that round, not its
// rank. A candidate's value is the mean outcome over the K playouts, and the
// loss of the move played is how much worse its mean is than the best
// candidate's. All candidates see the same K determinizations and the same
// playout seeds (common random numbers), so the luck of the deal cancels in
// the differences, and the loss's standard error is that of the paired
// differences.
//
// Everything is a pure function of the record, the seat, the seed and the
// budget: each decision's generators are seeded from (seed, step), so a
// decision's numbers do not depend on the other decisions analysed, and
// records that differ only in cards the seat never saw give the same
// analysis (the views are equal, so are the samples).
package analysis

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sort"

	"cardroom/bot/ismcts"
	"cardroom/bot/kit"
	"cardroom/game"
	"cardroom/record"
)

// Version is the version of the JSON shape of Analysis (docs/bots.md). It
// changes only when a field changes meaning or goes away.
const Version = 1

// DefaultBudget is the number of determinizations per decision when
// Config.Budget is 0: a 4-player Papayoo game of 5 rounds analyses in a few
// seconds on one core, and two seeds agree on the losses to within a few
// points (docs/bots.md gives the measured spread).
const DefaultBudget = 500

// MaxBudget bounds Config.Budget (a client of the server cannot set it, an
// operator can: -analysis-budget).
const MaxBudget = 10000

// MaxCandidates bounds the moves evaluated at one decision. A decision with
// more legal moves (a Papayoo pass: thousands; a 500 Rum turn with many
// melds) evaluates the move played, the rule-based move and a selection
// made by the game's search domain (Papayoo: the pass candidates the hard
// bot searches), so its best is the best of those: the decision is marked
// Pruned.
const MaxCandidates = 24

// maxSteps bounds one playout (a round of every game is far shorter).
const maxSteps = 4000

// TopMistakes is how many of the largest losses are marked as mistakes.
const TopMistakes = 3

// Config is the analysis's seed and budget, and who made which move.
type Config struct {
	Seed   uint64
	Budget int // determinizations per decision; 0 = DefaultBudget
	// StandIn names the steps (1-based, as Decision.Step) whose move a
	// bot made for the seat's player: game.ByAway or game.ByTimeout, as
	// the table marked them. Such a decision is listed with its By and
	// not evaluated: it is not the player's, so it is never their
	// mistake and adds nothing to the total loss. Only the running table
	// knows these marks (the record does not keep them).
	StandIn map[int]game.By
}

// Check reports a budget out of range.
func (c Config) Check() error {
	if c.Budget < 0 || c.Budget > MaxBudget {
		return fmt.Errorf("analysis: the budget is %d determinizations a decision, want 1 to %d (0: %d)", c.Budget, MaxBudget, DefaultBudget)
	}
	for step, by := range c.StandIn {
		if step < 1 || (by != game.ByAway && by != game.ByTimeout) {
			return fmt.Errorf("analysis: stand-in mark %q at step %d: want %q or %q at a step from 1", by, step, game.ByAway, game.ByTimeout)
		}
	}
	return nil
}

func (c Config) budget() int {
	if c.Budget == 0 {
		return DefaultBudget
	}
	return c.Budget
}

// Analysis is the analysis of one seat's decisions in one game. Its JSON is
// the shape `cardroom analyse --json` prints and the server serves
// (docs/bots.md, "Post-game analysis"; Version says which shape).
type Analysis struct {
	Version int    `json:"version"`
	Game    string `json:"game"`
	Seat    int    `json:"seat"`
	Seed    uint64 `json:"seed"`
	Budget  int    `json:"budget"` // determinizations per decision
	// Unit names what Value counts: "points taken" (Papayoo), "penalty
	// points" (Pis Yedili), "score" (500 Rum: the seat's total at the end
	// of the hand).
	Unit string `json:"unit"`
	// LowerIsBetter is true when fewer points are better (Papayoo, Pis
	// Yedili). Loss is always >= 0 whatever the direction.
	LowerIsBetter bool `json:"lower_is_better"`
	// Threshold is the least loss a mistake has (see MistakeThreshold).
	Threshold float64    `json:"threshold"`
	Decisions []Decision `json:"decisions"`
	// Mistakes are the steps of the marked decisions, largest loss first.
	Mistakes []int `json:"mistakes"`
	// TotalLoss is the sum of the losses of every decision (a stand-in's
	// decisions have none).
	TotalLoss float64 `json:"total_loss"`
	// StandInUnknown: a bot played for the seat's player at least once,
	// but not every move it made may be known (only the running table
	// knew: the server was restarted meanwhile), so the unmarked ones are
	// rated as the player's. Set by the server; Analyse never sets it.
	StandInUnknown bool `json:"stand_in_unknown,omitempty"`
}

// Decision is one position where the seat moved.
type Decision struct {
	// Step is the entry's 1-based number in the record's body: the
	// server's replay at step Step shows the move played, at Step-1 the
	// position before it.
	Step  int    `json:"step"`
	Round int    `json:"round"` // 1-based round (hand) the decision belongs to
	Move  string `json:"move"`  // the move played, in notation
	Legal int    `json:"legal"` // how many legal moves the seat had
	// Forced decisions (one legal move) are listed without evaluation.
	Forced bool `json:"forced,omitempty"`
	// By is set when a bot made the move for the seat's player ("away":
	// the player was absent; "timeout": their turn clock ran out). Such a
	// decision is listed without evaluation, like a forced one: it is not
	// the player's.
	By string `json:"by,omitempty"`
	// Pruned: more than MaxCandidates legal moves, Moves holds a selection.
	Pruned bool    `json:"pruned,omitempty"`
	Best   string  `json:"best,omitempty"`
	Value  float64 `json:"value"`      // the move played's expected outcome, in Unit
	BestV  float64 `json:"best_value"` // the best candidate's
	Loss   float64 `json:"loss"`       // BestV − Value in the better direction, >= 0
	// StdErr is the standard error of Loss (paired over the samples).
	StdErr  float64 `json:"stderr"`
	Mistake bool    `json:"mistake,omitempty"`
	// Moves are the evaluated candidates, best first (the move played
	// among them).
	Moves []Rated `json:"moves,omitempty"`
}

// Rated is one candidate move's evaluation.
type Rated struct {
	Move  string  `json:"move"`
	Value float64 `json:"value"` // expected outcome, in Unit
	Loss  float64 `json:"loss"`  // against the decision's best, >= 0
}

// MistakeThreshold is the least expected loss, in the game's points, that
// can mark a decision as a mistake, besides being twice its standard error
// (so sampling noise is not flagged). Papayoo: 5 points, a middling Payoo
// card, 2% of a round's 250 points; Pis Yedili: 10 penalty points, about one
// card's value; 500 Rum: 10 points, one high card melded or left in hand.
// The measured spread between two seeds at the default budget is well under
// these (docs/bots.md).
func MistakeThreshold(gameName string) float64 {
	switch gameName {
	case "papayoo":
		return 5
	case "pisyedili", "rum500":
		return 10
	}
	return 5
}

func unitOf(gameName string, higherWins bool) string {
	switch {
	case gameName == "papayoo":
		return "points taken"
	case gameName == "pisyedili":
		return "penalty points"
	case higherWins:
		return "score"
	}
	return "points"
}

// decision is one decision to evaluate, found by Prepare.
type decision struct {
	step   int
	round  int
	view   game.View
	played game.Move
	text   string
	by     game.By // a stand-in made the move (Config.StandIn)
	base   float64 // added to the round's points for Value (500 Rum: the total before the hand)
	rounds int     // rounds finished before the decision
}

// Job is an analysis being computed a little at a time: Next does at most
// ChunkSamples determinizations of one decision, so the server can run an
// analysis as many short jobs on its bot pool and let bot moves and hints
// go first. The chunks change nothing in the numbers: each sample's
// generators are seeded from its index.
type Job struct {
	e      game.Engine
	seat   game.Seat
	cfg    Config
	higher bool
	out    Analysis
	ds     []decision
	next   int
	cur    *evaluation // the decision being evaluated, nil between decisions
}

// ChunkSamples is how many determinizations one Next call does at most:
// at most ChunkSamples × MaxCandidates playouts, a few tens of
// milliseconds on one core.
const ChunkSamples = 40

// ErrNoDecision is returned by Prepare for a seat that never moved.
var ErrNoDecision = errors.New("analysis: the seat made no move in the record")

// Prepare replays rec and lists seat's decisions. A record that does not
// replay, or a seat out of range, is an error.
func Prepare(e game.Engine, rec *record.Record, seat game.Seat, cfg Config) (*Job, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	st, err := rec.Start(e)
	if err != nil {
		return nil, err
	}
	if seat < 0 || int(seat) >= st.Seats() {
		return nil, fmt.Errorf("analysis: seat %d: the game has seats 0 to %d", seat, st.Seats()-1)
	}
	j := &Job{e: e, seat: seat, cfg: cfg, higher: st.Result().HigherWins}
	j.out = Analysis{Version: Version, Game: e.Name(), Seat: int(seat), Seed: cfg.Seed, Budget: cfg.budget(),
		Unit: unitOf(e.Name(), j.higher), LowerIsBetter: !j.higher, Threshold: MistakeThreshold(e.Name()),
		Decisions: []Decision{}, Mistakes: []int{}}
	moves := 0
	for i, en := range rec.Entries {
		if !en.Comment && !en.Chance {
			moves++
		}
		if !en.Comment && !en.Chance && en.Seat == seat {
			m, perr := st.ParseMove(en.Text)
			if perr == nil {
				res := st.Result()
				d := decision{step: i + 1, round: len(res.Rounds) + 1, view: st.View(seat), played: m,
					text: st.FormatMove(m), rounds: len(res.Rounds), by: cfg.StandIn[i+1]}
				if j.higher && int(seat) < len(res.Totals) {
					d.base = float64(res.Totals[seat])
				}
				j.ds = append(j.ds, d)
			}
		}
		if err := record.Step(st, en); err != nil {
			return nil, &record.ReplayError{Index: i, Line: en.Line, Move: moves, Entry: en, Err: err}
		}
	}
	if len(j.ds) == 0 {
		return nil, ErrNoDecision
	}
	return j, nil
}

// Len is the number of decisions.
func (j *Job) Len() int { return len(j.ds) }

// Done reports whether every decision is evaluated.
func (j *Job) Done() bool { return j.next >= len(j.ds) }

// Next evaluates the next chunk of samples of the current decision (and
// the whole of a forced one).
func (j *Job) Next() error {
	if j.Done() {
		return nil
	}
	d := &j.ds[j.next]
	if j.cur == nil {
		ev, err := j.begin(d)
		if err != nil {
			return fmt.Errorf("analysis: step %d (%s): %w", d.step, d.text, err)
		}
		j.cur = ev
	}
	if err := j.cur.run(ChunkSamples); err != nil {
		return fmt.Errorf("analysis: step %d (%s): %w", d.step, d.text, err)
	}
	if j.cur.done() {
		j.out.Decisions = append(j.out.Decisions, j.cur.finish())
		j.cur = nil
		j.next++
	}
	return nil
}

// Result is the analysis once Done (a partial one before: the decisions so
// far, no mistakes marked).
func (j *Job) Result() *Analysis {
	a := j.out
	a.Decisions = append([]Decision(nil), j.out.Decisions...)
	a.Mistakes = []int{}
	if j.Done() {
		markMistakes(&a)
	}
	return &a
}

// Analyse is Prepare and every decision: the whole analysis of seat's
// decisions in rec. It stops with ctx's error between two decisions.
func Analyse(ctx context.Context, e game.Engine, rec *record.Record, seat game.Seat, cfg Config) (*Analysis, error) {
	j, err := Prepare(e, rec, seat, cfg)
	if err != nil {
		return nil, err
	}
	for !j.Done() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := j.Next(); err != nil {
			return nil, err
		}
	}
	return j.Result(), nil
}

// mix is splitmix64 of a and b: the seeds of one decision's generators.
func mix(a, b uint64) uint64 {
	z := a ^ (b+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// evaluation is one decision being evaluated.
type evaluation struct {
	j      *Job
	d      *decision
	out    Decision
	st0    game.State
	cands  []game.Move
	played int
	dom    ismcts.Domain
	samp   ismcts.Sampler
	pl     player
	seed   uint64
	// good[c][i]: the outcome of candidate c on sample i, in the better
	// direction (negated when fewer points are better).
	good [][]float64
	i    int // samples done
}

func (j *Job) begin(d *decision) (*evaluation, error) {
	ev := &evaluation{j: j, d: d, out: Decision{Step: d.step, Round: d.round, Move: d.text, By: string(d.by)}, seed: mix(j.cfg.Seed, uint64(d.step))}
	r0 := game.NewRand(mix(ev.seed, 0))
	st0, err := j.e.Sample(d.view, &r0)
	if err != nil {
		return nil, fmt.Errorf("sample: %w", err)
	}
	ev.st0 = st0
	legal := st0.Legal(j.seat, nil)
	ev.out.Legal = len(legal)
	if len(legal) <= 1 {
		ev.out.Forced = true
		return ev, nil
	}
	if d.by != "" {
		return ev, nil // a stand-in's move: listed, not rated (done says so)
	}
	k, hasKit := kit.For(j.e.Name())
	if hasKit && k.Domain != nil {
		ev.dom = k.Domain(d.view)
	} else {
		ev.dom = ismcts.NewGeneric()
	}
	ev.cands = legal
	if len(legal) > MaxCandidates {
		ev.out.Pruned = true
		cands := []game.Move{d.played}
		if hasKit && k.Rule != nil {
			cands = append(cands, k.Rule(d.view, legal, &r0, false))
		}
		cands = append(cands, ev.dom.Candidates(st0, j.seat, legal, MaxCandidates, &r0)...)
		ev.cands = dedupe(cands, MaxCandidates)
	}
	ev.played = -1
	for i, m := range ev.cands {
		if m == d.played {
			ev.played = i
		}
	}
	if ev.played < 0 {
		return nil, fmt.Errorf("the move played is not legal in the seat's view")
	}
	ev.samp, _ = ev.dom.(ismcts.Sampler)
	ev.pl = player{seat: j.seat, rounds: d.rounds}
	ev.good = make([][]float64, len(ev.cands))
	for c := range ev.good {
		ev.good[c] = make([]float64, j.cfg.budget())
	}
	return ev, nil
}

func (ev *evaluation) done() bool { return ev.unrated() || ev.i >= ev.j.cfg.budget() }

// unrated: a forced decision or a stand-in's, listed without evaluation.
func (ev *evaluation) unrated() bool { return ev.out.Forced || ev.out.By != "" }

// run evaluates up to n more samples: every candidate on the same
// determinization with the same playout seed.
func (ev *evaluation) run(n int) error {
	for ; n > 0 && !ev.done(); n-- {
		i := ev.i
		rs := game.NewRand(mix(ev.seed, uint64(2*i+1)))
		var base game.State
		var err error
		if ev.samp != nil {
			base, err = ev.samp.Sample(&rs)
		} else {
			base, err = ev.j.e.Sample(ev.d.view, &rs)
		}
		if err != nil {
			return fmt.Errorf("sample: %w", err)
		}
		base = base.Clone() // a Sampler may reuse its state
		for c, m := range ev.cands {
			rp := game.NewRand(mix(ev.seed, uint64(2*i+2)))
			v, err := ev.pl.playout(base.Clone(), ev.dom, m, &rp)
			if err != nil {
				return err
			}
			if !ev.j.higher {
				v = -v
			}
			ev.good[c][i] = v
		}
		ev.i++
		// A chunk is tens of milliseconds on a server's bot pool: between
		// samples the tables' goroutines may have the thread (as
		// ismcts.Config.Yield gives it up in a search).
		runtime.Gosched()
	}
	return nil
}

// finish turns the samples into the decision's numbers.
func (ev *evaluation) finish() Decision {
	out := ev.out
	if ev.unrated() {
		return out
	}
	means := make([]float64, len(ev.cands))
	best := 0
	for c := range ev.cands {
		s := 0.0
		for _, v := range ev.good[c] {
			s += v
		}
		means[c] = s / float64(len(ev.good[c]))
		if means[c] > means[best] {
			best = c
		}
	}
	value := func(g float64) float64 {
		if !ev.j.higher {
			g = -g
		}
		return round2(ev.d.base + g)
	}
	for c, m := range ev.cands {
		out.Moves = append(out.Moves, Rated{Move: ev.st0.FormatMove(m), Value: value(means[c]), Loss: round2(means[best] - means[c])})
	}
	sort.SliceStable(out.Moves, func(a, b int) bool { return out.Moves[a].Loss < out.Moves[b].Loss })
	out.Best = ev.st0.FormatMove(ev.cands[best])
	out.Value, out.BestV = value(means[ev.played]), value(means[best])
	out.Loss = round2(means[best] - means[ev.played])
	out.StdErr = round2(pairedSE(ev.good[best], ev.good[ev.played]))
	return out
}

// pairedSE is the standard error of the mean of a[i] − b[i].
func pairedSE(a, b []float64) float64 {
	n := float64(len(a))
	if n < 2 {
		return 0
	}
	mean := 0.0
	for i := range a {
		mean += a[i] - b[i]
	}
	mean /= n
	ss := 0.0
	for i := range a {
		d := a[i] - b[i] - mean
		ss += d * d
	}
	return math.Sqrt(ss / (n - 1) / n)
}

func round2(x float64) float64 {
	r := math.Round(x*100) / 100
	if r == 0 {
		return 0 // no "-0" in the JSON
	}
	return r
}

func dedupe(ms []game.Move, n int) []game.Move {
	out := make([]game.Move, 0, n)
	seen := map[game.Move]bool{}
	for _, m := range ms {
		if !seen[m] && len(out) < n {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out
}

// markMistakes marks the TopMistakes largest losses that are at least the
// threshold and at least twice their standard error. A stand-in's move is
// never the player's mistake (it has no loss: it is not rated).
func markMistakes(a *Analysis) {
	var idx []int
	for i, d := range a.Decisions {
		if d.By != "" {
			continue
		}
		a.TotalLoss += d.Loss
		if !d.Forced && d.Loss >= a.Threshold && d.Loss >= 2*d.StdErr {
			idx = append(idx, i)
		}
	}
	a.TotalLoss = round2(a.TotalLoss)
	sort.SliceStable(idx, func(x, y int) bool { return a.Decisions[idx[x]].Loss > a.Decisions[idx[y]].Loss })
	for _, i := range idx[:min(len(idx), TopMistakes)] {
		a.Decisions[i].Mistake = true
		a.Mistakes = append(a.Mistakes, a.Decisions[i].Step)
	}
}

// player plays one candidate and the rest of the round out.
type player struct {
	seat   game.Seat
	rounds int // rounds finished at the decision
}

// maxSegments bounds how many times a playout is resumed (see playout).
const maxSegments = 100

// playout applies m to st and plays to the end of the round with the search
// domain's playout: the hard bot's policy. A domain may stop before the end
// of the round (Pis Yedili's looks Depth moves ahead, then judges the
// position); the playout is then resumed from where it stopped, after
// Start, until the round ends. It returns the seat's points of the round
// (in 500 Rum, the hand's score).
func (p *player) playout(st game.State, dom ismcts.Domain, m game.Move, r *game.Rand) (float64, error) {
	dom.Start(st)
	dom.Observe(st, p.seat, m)
	if err := st.Apply(p.seat, m); err != nil {
		return 0, fmt.Errorf("candidate %s refused in a determinization: %w", st.FormatMove(m), err)
	}
	for seg := 0; seg < maxSegments; seg++ {
		if seg > 0 {
			dom.Start(st)
		}
		if err := dom.Playout(st, r, maxSteps); err != nil {
			return 0, err
		}
		if res := st.Result(); len(res.Rounds) > p.rounds {
			return float64(res.Rounds[p.rounds][p.seat]), nil
		}
		if st.Over() {
			break
		}
	}
	// A hand that does not end (Pis Yedili's draws can cycle for ever
	// among rule-based players): its penalty as it stands.
	if hv, ok := st.(interface{ HandValue(game.Seat) int }); ok {
		return float64(hv.HandValue(p.seat)), nil
	}
	return 0, fmt.Errorf("the round did not end in a playout")
}
