// Package ismcts is single-observer Information Set Monte Carlo Tree Search
// (Cowling, Powley & Whitehouse 2012) over the game.State contract.
//
// The search starts from a View only: every iteration draws a fresh
// determinization with Engine.Sample(view) (or with the Domain's Sample, see
// Sampler), so the searching seat never sees the true hidden state. One tree is shared by all determinizations; a node is
// a sequence of moves, and a child is "available" in an iteration when its
// move is legal in that iteration's determinization (UCB uses availability
// counts instead of the parent's visits). Opponents' moves are in the tree
// too, each rated from the point of view of the seat that plays it.
//
// Chance steps met inside the tree are rolled at random and not branched on.
// A decision with more legal moves than Config.MaxBranch ends the tree walk
// (the playout policy takes over), except at the root, where the Domain's
// Candidates hook prunes the list (Papayoo's 3,003 passes).
//
// Root parallelism: Config.Workers independent trees, each with its own
// generator and an equal share of the iteration budget; their root
// statistics are summed. With an iteration budget and no deadline the result
// is a pure function of the view, the seed and the configuration.
package ismcts

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"
	"time"

	"cardroom/game"
)

// Domain is the game-specific knowledge the search uses. A Domain may keep
// scratch buffers: every worker gets its own from the factory.
type Domain interface {
	// Playout plays st on from where the tree walk stopped until Horizon
	// (or for at most maxSteps steps), rolling chance from r; the domain's
	// playout policy chooses every move. It may use the engine's native API.
	Playout(st game.State, r *game.Rand, maxSteps int) error
	// Candidates prunes the root's legal moves when there are more than
	// maxBranch of them; it returns a non-empty subset of legal.
	Candidates(st game.State, s game.Seat, legal []game.Move, maxBranch int, r *game.Rand) []game.Move
	// Observe is called before every move the search applies (tree and
	// playout), so the domain can track what it needs (the current trick,
	// the cards seen) without reading the engine's internals.
	Observe(st game.State, s game.Seat, m game.Move)
	// Start is called with every fresh determinization before any move is
	// applied to it, so the domain can note where the search began.
	Start(st game.State)
	// Horizon reports whether the playout should stop at st (the end of the
	// round that was being played at the start, or the end of the game).
	Horizon(st game.State) bool
	// Reward writes into out[s], for every seat, how good st is for seat s,
	// in [0, 1] (higher is better). st is usually at the horizon, but may be
	// cut short by Config.MaxSteps.
	Reward(st game.State, out []float64)
}

// Config is a search budget and its parameters.
type Config struct {
	Iterations  int           // total iterations over all workers; 0 = until the deadline
	Duration    time.Duration // wall-clock budget; 0 = none (then Iterations must be > 0)
	Workers     int           // root-parallel trees; 0 = GOMAXPROCS
	Exploration float64       // UCB constant c; 0 = 0.7
	MaxBranch   int           // decisions with more legal moves end the tree walk; 0 = 48
	MaxSteps    int           // safety bound on one playout's length; 0 = 4000
	Seed        uint64        // seeds the workers' generators
	// Prior, if set, is the move the rule-based player would choose at the
	// root; it is credited PriorShare × iterations extra visits when the
	// most visited move is picked, so the search overrules the rules only
	// when it finds a clearly better move (useful when playouts are noisy).
	Prior      *game.Move
	PriorShare float64
	// Yield makes each worker give its thread up (runtime.Gosched) every
	// checkEvery iterations, a fraction of a millisecond: a search on a
	// server's bot pool then lets the goroutines that wait for a thread
	// (the tables' moves, the sockets) run first, instead of holding its
	// thread until the runtime preempts it after 10 ms.
	Yield bool
}

// checkEvery is how often (in iterations, a power of two) a worker looks
// at its context and deadline and, with Config.Yield, gives its thread up:
// 32 iterations are 0.2–0.7 ms of search in the three games.
const checkEvery = 32

func (c Config) norm() Config {
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.Exploration == 0 {
		c.Exploration = 0.7
	}
	if c.MaxBranch <= 0 {
		c.MaxBranch = 48
	}
	if c.MaxSteps <= 0 {
		c.MaxSteps = 4000
	}
	if c.Iterations <= 0 && c.Duration <= 0 {
		c.Duration = 200 * time.Millisecond
	}
	if c.Iterations > 0 && c.Workers > c.Iterations {
		c.Workers = c.Iterations
	}
	return c
}

// MoveStat is one root move and what the search found about it.
type MoveStat struct {
	Move   game.Move
	Text   string
	Visits int
	Value  float64 // mean reward for the observer, in [0, 1]
}

// Result is the outcome of a search.
type Result struct {
	Moves      []MoveStat // root moves, most visited first (counting the prior's extra visits)
	Iterations int        // iterations done, over all workers
	Elapsed    time.Duration
}

// Best is the most visited move.
func (r *Result) Best() game.Move { return r.Moves[0].Move }

// ErrNoMove is returned when the observer has no legal move in the view.
var ErrNoMove = errors.New("ismcts: the observer has no legal move")

// Search runs ISMCTS for the observer of v.
func Search(ctx context.Context, e game.Engine, v game.View, newDomain func() Domain, cfg Config) (*Result, error) {
	cfg = cfg.norm()
	start := time.Now()
	obs := v.Observer()
	if obs < 0 {
		return nil, fmt.Errorf("ismcts: a spectator view has no moves")
	}
	r0 := game.NewRand(cfg.Seed ^ 0x5bd1e995)
	st0, err := e.Sample(v, &r0)
	if err != nil {
		return nil, fmt.Errorf("ismcts: sample: %w", err)
	}
	legal := st0.Legal(obs, nil)
	if len(legal) == 0 {
		return nil, ErrNoMove
	}
	cands := legal
	if len(legal) > cfg.MaxBranch {
		cands = newDomain().Candidates(st0, obs, legal, cfg.MaxBranch, &r0)
		if len(cands) == 0 {
			cands = legal[:1]
		}
	}
	deadline := time.Time{}
	if cfg.Duration > 0 {
		deadline = start.Add(cfg.Duration)
	}
	if d, ok := ctx.Deadline(); ok {
		// Leave a little time to answer.
		d = d.Add(-time.Duration(float64(time.Until(d)) * 0.05))
		if deadline.IsZero() || d.Before(deadline) {
			deadline = d
		}
	}
	if len(cands) == 1 {
		return &Result{Moves: []MoveStat{{Move: cands[0], Text: st0.FormatMove(cands[0])}}, Elapsed: time.Since(start)}, nil
	}
	workers := make([]*worker, cfg.Workers)
	var wg sync.WaitGroup
	for w := range workers {
		share := 0
		if cfg.Iterations > 0 {
			share = cfg.Iterations / cfg.Workers
			if w < cfg.Iterations%cfg.Workers {
				share++
			}
		}
		wk := newWorker(e, v, newDomain(), cands, cfg, cfg.Seed+uint64(w+1)*0x9e3779b97f4a7c15, st0.Seats())
		workers[w] = wk
		if cfg.Workers == 1 {
			// One tree runs on the caller's goroutine: on a server's bot
			// pool that is the worker's thread, whose lowered priority
			// (pool.Options.Nice) must apply to the search itself.
			wk.run(ctx, share, deadline)
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			wk.run(ctx, share, deadline)
		}()
	}
	wg.Wait()
	defer func() {
		for _, wk := range workers {
			wk.release()
		}
	}()
	res := &Result{Elapsed: time.Since(start)}
	stats := make([]MoveStat, len(cands))
	var firstErr error
	for _, wk := range workers {
		if wk.err != nil && firstErr == nil {
			firstErr = wk.err
		}
		res.Iterations += wk.iters
		for ch := wk.nodes[0].first; ch >= 0; ch = wk.nodes[ch].next {
			n := &wk.nodes[ch]
			idx := n.cand
			stats[idx].Visits += int(n.visits)
			stats[idx].Value += n.reward
		}
	}
	if firstErr != nil && res.Iterations == 0 {
		return nil, firstErr
	}
	for i := range stats {
		stats[i].Move = cands[i]
		stats[i].Text = st0.FormatMove(cands[i])
		if stats[i].Visits > 0 {
			stats[i].Value /= float64(stats[i].Visits)
		}
	}
	key := make(map[game.Move]float64, len(stats))
	for _, m := range stats {
		key[m.Move] = float64(m.Visits)
		if cfg.Prior != nil && m.Move == *cfg.Prior {
			key[m.Move] += cfg.PriorShare * float64(res.Iterations)
		}
	}
	sort.SliceStable(stats, func(i, j int) bool {
		if ki, kj := key[stats[i].Move], key[stats[j].Move]; ki != kj {
			return ki > kj
		}
		return stats[i].Value > stats[j].Value
	})
	res.Moves = stats
	if res.Iterations == 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// node is one move sequence in the tree. Children form a linked list.
// An observation node (seat obsSeat, see Observer) stands for what the
// observer saw after its move; its children are the observer's next moves.
type node struct {
	move   game.Move
	seat   game.Seat
	obs    uint64 // an observation node's key
	cand   int32  // index in the candidate list (root children only)
	first  int32  // first child, -1 if none
	next   int32  // next sibling, -1 if none
	visits float64
	avail  float64
	reward float64 // sum of rewards for seat
}

type worker struct {
	e     game.Engine
	v     game.View
	dom   Domain
	cands []game.Move
	cfg   Config
	rng   game.Rand
	*workerBufs
	rewards []float64
	iters   int
	err     error
	wide    Wider
	samp    Sampler
	see     Observer
}

// workerBufs are a worker's growing buffers, kept from one search to the
// next (bufPool): a room's bots search many times a second, and the tree
// of a search of a few thousand iterations, a few hundred kilobytes, would
// otherwise be garbage each time, which the collector pays for on every
// table of the room.
type workerBufs struct {
	nodes  []node
	path   []int32
	legal  []game.Move
	seats  []game.Seat
	tried  []bool
	compat []int32
}

// maxPooledNodes bounds the tree a pooled buffer keeps (about 4 MB).
const maxPooledNodes = 1 << 16

var bufPool = sync.Pool{New: func() any { return &workerBufs{nodes: make([]node, 0, 1024)} }}

// release gives the worker's buffers back to the pool; the worker is not
// used after it.
func (w *worker) release() {
	b := w.workerBufs
	if b == nil {
		return
	}
	w.workerBufs = nil
	if cap(b.nodes) > maxPooledNodes {
		return // an unusually large tree: let it go
	}
	b.nodes, b.path, b.legal, b.seats, b.tried, b.compat = b.nodes[:0], b.path[:0], b.legal[:0], b.seats[:0], b.tried[:0], b.compat[:0]
	bufPool.Put(b)
}

// Sampler is an optional Domain method: Sample draws the iteration's
// determinization of the search's view (in place of Engine.Sample), e.g.
// from a copy of the view parsed once. The state may be reused by the next
// call.
type Sampler interface {
	Sample(r *game.Rand) (game.State, error)
}

// Observer is an optional Domain method: ObsKey summarizes what the
// observer sees after one of its moves in the tree until it is to move
// again (e.g. the opponents' moves, played by a model of them inside st,
// and the cards it drew). The tree then branches on that key below every
// move of the observer, so its next decisions are chosen knowing what it
// saw (closed loop) instead of being averaged over every outcome (open
// loop). ok false: no branching there.
type Observer interface {
	ObsKey(st game.State, obs game.Seat) (key uint64, ok bool)
}

// obsSeat marks an observation node.
const obsSeat game.Seat = -2

// observe moves from cur to its observation child for st (created if
// new) when the domain is an Observer; cur otherwise.
func (w *worker) observe(cur int32, st game.State, obs game.Seat) int32 {
	if w.see == nil {
		return cur
	}
	key, ok := w.see.ObsKey(st, obs)
	if !ok {
		return cur
	}
	for ch := w.nodes[cur].first; ch >= 0; ch = w.nodes[ch].next {
		if n := &w.nodes[ch]; n.seat == obsSeat && n.obs == key {
			return ch
		}
	}
	id := w.addChild(cur, game.Move{}, obsSeat)
	w.nodes[id].obs = key
	return id
}

// Wider is an optional Domain method: TooWide reports, without listing the
// moves, that seat s has more than maxBranch legal moves at st (Papayoo's
// pass), so the tree walk stops there.
type Wider interface {
	TooWide(st game.State, s game.Seat, maxBranch int) bool
}

func newWorker(e game.Engine, v game.View, dom Domain, cands []game.Move, cfg Config, seed uint64, nseats int) *worker {
	w := &worker{e: e, v: v, dom: dom, cands: cands, cfg: cfg, rng: game.NewRand(seed), rewards: make([]float64, nseats)}
	w.wide, _ = dom.(Wider)
	w.samp, _ = dom.(Sampler)
	w.see, _ = dom.(Observer)
	w.workerBufs = bufPool.Get().(*workerBufs)
	w.nodes = append(w.nodes[:0], node{first: -1, next: -1, seat: v.Observer()})
	// Root children: one per candidate, in order.
	prev := int32(-1)
	for i, m := range cands {
		w.nodes = append(w.nodes, node{move: m, seat: v.Observer(), cand: int32(i), first: -1, next: -1})
		id := int32(len(w.nodes) - 1)
		if prev < 0 {
			w.nodes[0].first = id
		} else {
			w.nodes[prev].next = id
		}
		prev = id
	}
	return w
}

func (w *worker) run(ctx context.Context, share int, deadline time.Time) {
	for {
		if share > 0 && w.iters >= share {
			return
		}
		if w.iters&(checkEvery-1) == 0 {
			if w.cfg.Yield && w.iters > 0 {
				runtime.Gosched()
			}
			if ctx.Err() != nil {
				return
			}
			if !deadline.IsZero() && !time.Now().Before(deadline) {
				return
			}
		}
		if err := w.iterate(); err != nil {
			w.err = err
			return
		}
		w.iters++
	}
}

func (w *worker) addChild(parent int32, m game.Move, s game.Seat) int32 {
	w.nodes = append(w.nodes, node{move: m, seat: s, first: -1, next: w.nodes[parent].first})
	id := int32(len(w.nodes) - 1)
	w.nodes[parent].first = id
	return id
}

func (w *worker) ucb(n *node, c float64) float64 {
	return n.reward/n.visits + c*math.Sqrt(math.Log(n.avail)/n.visits)
}

func (w *worker) iterate() error {
	obs := w.v.Observer()
	var st game.State
	var err error
	if w.samp != nil {
		st, err = w.samp.Sample(&w.rng)
	} else {
		st, err = w.e.Sample(w.v, &w.rng)
	}
	if err != nil {
		return fmt.Errorf("ismcts: sample: %w", err)
	}
	w.dom.Start(st)
	c := w.cfg.Exploration
	w.path = w.path[:0]

	// Root: every candidate is available in every determinization; an
	// unvisited candidate goes first.
	var pick int32 = -1
	best := math.Inf(-1)
	for ch := w.nodes[0].first; ch >= 0; ch = w.nodes[ch].next {
		n := &w.nodes[ch]
		n.avail++
		if best == math.Inf(1) {
			continue
		}
		if n.visits == 0 {
			best, pick = math.Inf(1), ch
			continue
		}
		if u := w.ucb(n, c); u > best {
			best, pick = u, ch
		}
	}
	w.dom.Observe(st, obs, w.nodes[pick].move)
	if err := st.Apply(obs, w.nodes[pick].move); err != nil {
		return fmt.Errorf("ismcts: root move %s refused in a determinization: %w", st.FormatMove(w.nodes[pick].move), err)
	}
	w.path = append(w.path, pick)
	cur := pick
	expanded := w.nodes[pick].visits == 0
	steps := 0
	if !expanded {
		cur = w.observe(cur, st, obs)
	}

	// Tree walk.
	for !expanded && steps < w.cfg.MaxSteps {
		if st.Over() || w.dom.Horizon(st) {
			break
		}
		if st.ChancePending() {
			st.RollChance(&w.rng)
			steps++
			continue
		}
		w.seats = st.ToAct(w.seats[:0])
		if len(w.seats) == 0 {
			break
		}
		s := w.seats[0]
		if w.wide != nil && w.wide.TooWide(st, s, w.cfg.MaxBranch) {
			break
		}
		w.legal = st.Legal(s, w.legal[:0])
		if len(w.legal) == 0 || len(w.legal) > w.cfg.MaxBranch {
			break
		}
		if cap(w.tried) < len(w.legal) {
			w.tried = make([]bool, len(w.legal))
		}
		w.tried = w.tried[:len(w.legal)]
		for i := range w.tried {
			w.tried[i] = false
		}
		w.compat = w.compat[:0]
		for ch := w.nodes[cur].first; ch >= 0; ch = w.nodes[ch].next {
			n := &w.nodes[ch]
			if n.seat != s {
				continue
			}
			for i := range w.legal {
				if w.legal[i] == n.move {
					w.tried[i] = true
					w.compat = append(w.compat, ch)
					break
				}
			}
		}
		untried := len(w.legal) - len(w.compat)
		var next int32
		if untried > 0 {
			k := w.rng.IntN(untried)
			var m game.Move
			for i, t := range w.tried {
				if !t {
					if k == 0 {
						m = w.legal[i]
						break
					}
					k--
				}
			}
			for _, ch := range w.compat {
				w.nodes[ch].avail++
			}
			next = w.addChild(cur, m, s)
			w.nodes[next].avail = 1
			expanded = true
		} else {
			best := math.Inf(-1)
			next = -1
			for _, ch := range w.compat {
				n := &w.nodes[ch]
				n.avail++
				if u := w.ucb(n, c); u > best {
					best, next = u, ch
				}
			}
		}
		w.dom.Observe(st, s, w.nodes[next].move)
		if err := st.Apply(s, w.nodes[next].move); err != nil {
			return fmt.Errorf("ismcts: tree move refused: %w", err)
		}
		w.path = append(w.path, next)
		cur = next
		steps++
		if s == obs && !expanded {
			cur = w.observe(cur, st, obs)
		}
	}

	// Playout.
	if steps < w.cfg.MaxSteps {
		if err := w.dom.Playout(st, &w.rng, w.cfg.MaxSteps-steps); err != nil {
			return err
		}
	}

	for i := range w.rewards {
		w.rewards[i] = 0
	}
	w.dom.Reward(st, w.rewards)
	for _, id := range w.path {
		n := &w.nodes[id]
		n.visits++
		if int(n.seat) < len(w.rewards) && n.seat >= 0 {
			n.reward += w.rewards[n.seat]
		}
	}
	return nil
}
