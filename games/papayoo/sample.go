package papayoo

import (
	"errors"
	"fmt"

	"cardroom/game"
)

// binom[n][k] as float64, n ≤ 60.
var binom [61][61]float64

func init() {
	for n := 0; n <= 60; n++ {
		binom[n][0] = 1
		for k := 1; k <= n; k++ {
			binom[n][k] = binom[n-1][k-1] + binom[n-1][k]
		}
	}
}

// dealHidden deals every card of pool to the seats in seats so that seat j
// gets exactly caps[j] cards, none of a suit in voids[j] (bit per suit), and
// fseat gets all of forced (forced ⊆ pool). The layout is uniform over all
// layouts that satisfy the constraints: seats that accept the same suits
// are merged into one group (the seats without a relevant void form the
// unconstrained group), the cards are grouped into classes of suits that
// the groups accept alike, each group in turn (most constrained first)
// draws its per-class counts with probability proportional to the exact
// number of completions (a memoized count), then its cards uniformly within
// each class, and finally each group's cards are split uniformly among its
// seats. Every layout has the same weight, since the number of ways to
// split a group's cards among its seats does not depend on which cards they
// are. It reports false when no layout fits.
func dealHidden(r *game.Rand, pool game.Mask, seats []int, caps [8]int, voids [8]uint8, fseat int, forced game.Mask) ([8]game.Mask, bool) {
	var d hiddenDealer
	return d.deal(r, pool, seats, caps, voids, fseat, forced)
}

// hiddenDealer is dealHidden's working memory. A Sampler keeps one, so that
// a search's thousands of deals of the same view allocate nothing: the
// completion counts (memo) depend only on the deal's constraints, which
// are the same every time, and are kept while they are.
type hiddenDealer struct {
	stages [8]dealStage
	ns     int
	// Classes: present suits grouped by which stages accept them.
	clsMask  [5]game.Mask
	clsAllow [5]uint16 // bit per stage
	nc       int
	memo     map[uint32]float64
	memoFor  dealKey         // the constraints memo was computed for
	vecs     [8][]dealVector // per stage: the count vectors being enumerated
}

type dealStage struct {
	cap    int
	allow  uint8 // accepted suits
	seats  [8]int
	nseats int
}

// dealVector is a stage's count per class and its weight.
type dealVector struct {
	x [5]int
	w float64
}

// dealKey is what the completion counts depend on.
type dealKey struct {
	ok       bool
	clsMask  [5]game.Mask
	clsAllow [5]uint16
	caps     [8]int
	nc, ns   int
}

func (d *hiddenDealer) deal(r *game.Rand, pool game.Mask, seats []int, caps [8]int, voids [8]uint8, fseat int, forced game.Mask) ([8]game.Mask, bool) {
	var out [8]game.Mask
	if forced != 0 {
		if forced&^pool != 0 || fseat < 0 {
			return out, false
		}
		for su := 0; su < 5; su++ {
			if voids[fseat]&(1<<uint(su)) != 0 && forced&suitMask[su] != 0 {
				return out, false
			}
		}
		out[fseat] = forced
		caps[fseat] -= forced.Count()
		if caps[fseat] < 0 {
			return out, false
		}
		pool &^= forced
	}
	total := 0
	for _, j := range seats {
		if caps[j] < 0 {
			return out, false
		}
		total += caps[j]
	}
	if total != pool.Count() {
		return out, false
	}
	var present uint8
	for su := 0; su < 5; su++ {
		if pool&suitMask[su] != 0 {
			present |= 1 << uint(su)
		}
	}
	// Seats that accept the same suits are interchangeable: each such group
	// is one stage (its cards are split uniformly among its seats at the
	// end), which keeps the count small. Seats without a relevant void form
	// the last, unconstrained group.
	d.ns = 0
	for _, j := range seats {
		if caps[j] == 0 {
			continue
		}
		allow := ^voids[j] & present
		k := 0
		for k < d.ns && d.stages[k].allow != allow {
			k++
		}
		if k == d.ns {
			d.stages[k] = dealStage{allow: allow}
			d.ns++
		}
		st := &d.stages[k]
		st.cap += caps[j]
		st.seats[st.nseats] = j
		st.nseats++
	}
	stages := d.stages[:d.ns]
	if len(stages) == 0 {
		return out, true // nothing to deal (total is 0)
	}
	if len(stages) == 1 {
		for _, j := range stages[0].seats[:stages[0].nseats] {
			m := r.RandomBits(pool, caps[j])
			out[j] |= m
			pool &^= m
		}
		return out, true
	}
	// Most constrained first (smallest slack between accepted cards and
	// size); the unconstrained group, if any, last. A stable insertion
	// sort: the order is the same as a stable sort's.
	var slack [8]int
	for k, st := range stages {
		slack[k] = 1 << 20
		if st.allow != present {
			acc := 0
			for su := 0; su < 5; su++ {
				if st.allow&(1<<uint(su)) != 0 {
					acc += (pool & suitMask[su]).Count()
				}
			}
			slack[k] = acc - st.cap
		}
	}
	for i := 1; i < len(stages); i++ {
		for k := i; k > 0 && slack[k] < slack[k-1]; k-- {
			stages[k], stages[k-1] = stages[k-1], stages[k]
			slack[k], slack[k-1] = slack[k-1], slack[k]
		}
	}

	d.clsMask, d.clsAllow, d.nc = [5]game.Mask{}, [5]uint16{}, 0
	for su := 0; su < 5; su++ {
		if present&(1<<uint(su)) == 0 {
			continue
		}
		var pat uint16
		for k, st := range stages {
			if st.allow&(1<<uint(su)) != 0 {
				pat |= 1 << uint(k)
			}
		}
		if pat == 0 {
			return out, false
		}
		c := 0
		for c < d.nc && d.clsAllow[c] != pat {
			c++
		}
		if c == d.nc {
			d.clsAllow[c] = pat
			d.nc++
		}
		d.clsMask[c] |= pool & suitMask[su]
	}
	ns, nc := d.ns, d.nc
	var stageCaps [8]int
	for k, st := range stages {
		stageCaps[k] = st.cap
	}
	key := dealKey{ok: true, clsMask: d.clsMask, clsAllow: d.clsAllow, caps: stageCaps, nc: nc, ns: ns}
	if d.memo == nil || d.memoFor != key {
		if d.memo == nil {
			d.memo = map[uint32]float64{}
		} else {
			clear(d.memo)
		}
		d.memoFor = key
	}
	clsMask := d.clsMask
	var rem [5]int
	for c := 0; c < nc; c++ {
		rem[c] = clsMask[c].Count()
	}
	if d.count(0, &rem) == 0 {
		return out, false
	}
	var got [8]game.Mask // per stage
	for k := 0; k < ns; k++ {
		var pick [5]int
		if k == ns-1 {
			pick = rem
		} else {
			vs := d.vectors(k, &rem)
			n := 0 // the candidates: the vectors with completions, weighted by them
			tot := 0.0
			for _, v := range vs {
				var next [5]int
				for c := 0; c < nc; c++ {
					next[c] = rem[c] - v.x[c]
				}
				if w := v.w * d.count(k+1, &next); w > 0 {
					vs[n] = dealVector{v.x, w}
					n++
					tot += w
				}
			}
			if n == 0 {
				return out, false
			}
			u := r.Float64() * tot
			pick = vs[n-1].x
			for _, cd := range vs[:n] {
				if u < cd.w {
					pick = cd.x
					break
				}
				u -= cd.w
			}
		}
		for c := 0; c < nc; c++ {
			m := r.RandomBits(clsMask[c], pick[c])
			got[k] |= m
			clsMask[c] &^= m
			rem[c] -= pick[c]
		}
	}
	for k, st := range stages {
		m := got[k]
		for _, j := range st.seats[:st.nseats] {
			x := r.RandomBits(m, caps[j])
			out[j] |= x
			m &^= x
		}
	}
	return out, true
}

// count is the number of completions (weighted layouts) of stages k and
// after from the remaining class counts rem, memoized.
func (d *hiddenDealer) count(k int, rem *[5]int) float64 {
	if k == d.ns-1 {
		for c := 0; c < d.nc; c++ {
			if rem[c] > 0 && d.clsAllow[c]&(1<<uint(k)) == 0 {
				return 0
			}
		}
		return 1
	}
	kk := uint32(k)
	for c := 0; c < d.nc; c++ {
		kk = kk<<5 | uint32(rem[c])
	}
	if v, ok := d.memo[kk]; ok {
		return v
	}
	tot := 0.0
	for _, v := range d.vectors(k, rem) {
		var next [5]int
		for c := 0; c < d.nc; c++ {
			next[c] = rem[c] - v.x[c]
		}
		tot += v.w * d.count(k+1, &next)
	}
	d.memo[kk] = tot
	return tot
}

// vectors lists every count vector stage k can draw from rem, with its
// weight (the ways to choose its cards), in a buffer of stage k's own
// (valid until the next call for k: count recurses into the stages after).
func (d *hiddenDealer) vectors(k int, rem *[5]int) []dealVector {
	var x [5]int
	d.vecs[k] = d.enumerate(k, rem, 0, d.stages[k].cap, 1, &x, d.vecs[k][:0])
	return d.vecs[k]
}

func (d *hiddenDealer) enumerate(k int, rem *[5]int, c, left int, w float64, x *[5]int, buf []dealVector) []dealVector {
	if c == d.nc {
		if left == 0 {
			buf = append(buf, dealVector{*x, w})
		}
		return buf
	}
	if d.clsAllow[c]&(1<<uint(k)) == 0 {
		x[c] = 0
		return d.enumerate(k, rem, c+1, left, w, x, buf)
	}
	after := 0
	for e := c + 1; e < d.nc; e++ {
		if d.clsAllow[e]&(1<<uint(k)) != 0 {
			after += rem[e]
		}
	}
	lo := max(left-after, 0)
	hi := min(rem[c], left)
	for v := lo; v <= hi; v++ {
		x[c] = v
		buf = d.enumerate(k, rem, c+1, left-v, w*binom[rem[c]][v], x, buf)
	}
	x[c] = 0
	return buf
}

var errSample = errors.New("papayoo: sample")

func sampleErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errSample, fmt.Sprintf(format, args...))
}

// Sample implements game.Engine: it rebuilds a full state from a view,
// dealing the cards the observer cannot see uniformly among the layouts that
// respect the hand sizes, the voids shown, and the cards the observer passed
// to its left neighbour (which that seat still holds unless played). Other
// seats' hidden passes are drawn uniformly among the passes consistent with
// the sampled hands.
//
// It reads the view (samplePlan, which checks it) and then deals (deal):
// a Sampler reads the view once and deals many times, drawing exactly the
// same states from the same generator.
func (Engine) Sample(gv game.View, r *game.Rand) (game.State, error) {
	var v *View
	switch x := gv.(type) {
	case *View:
		v = x
	default:
		return nil, sampleErr("not a papayoo view: %T", gv)
	}
	if v == nil {
		return nil, sampleErr("nil view")
	}
	p := new(samplePlan)
	if err := p.read(v); err != nil {
		return nil, err
	}
	s := new(State)
	if err := p.deal(r, s, new(hiddenDealer)); err != nil {
		return nil, err
	}
	return s, nil
}

// Sampler draws determinizations of one view for a search: it reads and
// checks the view once (NewSampler), and every Sample deals into a reused
// State exactly what Engine.Sample deals with the same generator (the same
// state, the same random numbers consumed), without allocating.
type Sampler struct {
	plan samplePlan
	st   State
	d    hiddenDealer
}

// NewSampler reads v; it returns the error Engine.Sample would.
func NewSampler(v *View) (*Sampler, error) {
	if v == nil {
		return nil, sampleErr("nil view")
	}
	z := new(Sampler)
	if err := z.plan.read(v); err != nil {
		return nil, err
	}
	return z, nil
}

// Sample returns a determinization, valid until the next call. An error is
// one Engine.Sample would return for the same view and generator.
func (z *Sampler) Sample(r *game.Rand) (*State, error) {
	if err := z.plan.deal(r, &z.st, &z.d); err != nil {
		return nil, err
	}
	return &z.st, nil
}

// samplePlan is what a view says, read and checked once: the state before
// any hidden card is dealt (base) and what the deal must respect.
type samplePlan struct {
	base State
	// early: the view is before the deal (dealer draw, deal): base is the
	// sample.
	early bool
	pass  bool // the pass phase: hands are dealt, passes partly made
	die   bool // the die is still to roll (after the pass)
	phase string
	obs   int
	own   game.Mask
	// passed: the seats whose pass is in; myPass, received: the observer's
	// pass and what it received (0 if not known).
	passed           uint8
	myPass, received game.Mask
	others           [8]int // the seats other than the observer
	nothers          int
	caps             [8]int // the cards each other seat still holds
	seq              [60]int
	nseq             int // card indices in play order
	leaders          [21]int
	played           [8]game.Mask
	voids            [8]uint8
	all              game.Mask // every card played
	left             int       // the observer's left neighbour, -1 for a spectator
	forced           game.Mask // the observer's pass that its left neighbour still holds
	dieSuit          game.Suit
}

// read checks v and fills the plan.
func (p *samplePlan) read(v *View) error {
	*p = samplePlan{}
	s := &p.base
	t, err := newState(v.Options)
	if err != nil {
		return err
	}
	*s = *t
	n := int(s.n)
	if v.Players != n || len(v.Totals) != n || v.Round < 0 || v.Round > int(s.rounds) || v.Dealer < -1 || int(v.Dealer) >= n {
		return sampleErr("inconsistent view header")
	}
	obs := int(v.Seat)
	if obs >= n || obs < -1 {
		return sampleErr("bad observer %d", obs)
	}
	p.obs, p.phase = obs, v.Phase
	s.round = v.Round
	s.dealer = int8(v.Dealer)
	// Scores and totals.
	fin := len(v.RoundScores)
	for _, row := range v.RoundScores {
		if len(row) != n {
			return sampleErr("bad round scores")
		}
	}
	lastPlayed := v.Phase == PhaseRoundOver || v.Phase == PhaseOver // the last round's tricks are replayed
	keep := fin
	if lastPlayed {
		keep = fin - 1
		if keep < 0 {
			return sampleErr("no finished round")
		}
	}
	for k := 0; k < keep; k++ {
		var row [8]int16
		for i := 0; i < n; i++ {
			row[i] = int16(v.RoundScores[k][i])
		}
		if k < histFixed {
			s.hist[k] = row
		} else {
			s.histMore = append(s.histMore, row)
		}
	}
	for i := 0; i < n; i++ {
		s.totals[i] = int32(v.Totals[i])
		if lastPlayed {
			s.totals[i] -= int32(v.RoundScores[fin-1][i])
		}
	}
	switch v.Phase {
	case PhaseDealer:
		s.phase = phDealer
		s.dealer = -1
		p.early = true
		return nil
	case PhaseDeal:
		if v.Dealer < 0 {
			return sampleErr("no dealer")
		}
		s.phase = phDeal
		p.early = true
		return nil
	case PhasePass, PhaseDie, PhasePlay, PhaseRoundOver, PhaseOver:
	default:
		return sampleErr("unknown phase %q", v.Phase)
	}
	if v.Dealer < 0 || v.Round < 1 {
		return sampleErr("no dealer or round")
	}
	if v.Phase == PhaseRoundOver {
		s.dealer = int8((int(v.Dealer) + n - 1) % n)
	}
	if obs >= 0 {
		p.own = v.Hand
	}
	own := p.own
	if own&^s.deck != 0 {
		return sampleErr("hand holds cards not in play")
	}
	if len(v.Passed) != n {
		return sampleErr("bad passed list")
	}
	for i, x := range v.Passed {
		if x {
			p.passed |= 1 << uint(i)
		}
	}
	if obs >= 0 && p.passed&(1<<uint(obs)) != 0 {
		if p.myPass = v.MyPass; p.myPass.Count() != int(s.ks) {
			return sampleErr("bad own pass")
		}
	}
	H := int(s.hs)
	for j := 0; j < n; j++ {
		if j != obs {
			p.others[p.nothers] = j
			p.nothers++
		}
	}
	others := p.others[:p.nothers]
	if v.Phase == PhasePass {
		if own.Count() != H && obs >= 0 || p.myPass&^own != 0 {
			return sampleErr("bad hand in the pass phase")
		}
		for _, j := range others {
			p.caps[j] = H
		}
		if p.passed == 1<<uint(n)-1 {
			return sampleErr("every seat has passed in the pass phase")
		}
		p.pass = true
		return nil
	}
	// The pass has resolved: read the plays.
	if p.passed != 1<<uint(n)-1 {
		return sampleErr("pass not complete after the pass phase")
	}
	if obs >= 0 {
		if p.received = v.Received; p.received.Count() != int(s.ks) {
			return sampleErr("bad received cards")
		}
	}
	if len(v.Tricks) > H {
		return sampleErr("too many tricks")
	}
	nlead := 0
	for _, t := range v.Tricks {
		if len(t.Cards) != n {
			return sampleErr("a completed trick without %d cards", n)
		}
		p.leaders[nlead] = int(t.Leader)
		nlead++
		for _, c := range t.Cards {
			i := int(idxOfCrd[c])
			if i < 0 {
				return sampleErr("trick: card %d is not a Papayoo card", c)
			}
			if p.nseq == len(p.seq) {
				return sampleErr("more plays than cards")
			}
			p.seq[p.nseq] = i
			p.nseq++
		}
	}
	if v.Phase == PhasePlay {
		if len(v.Trick.Cards) >= n {
			return sampleErr("current trick too long")
		}
		p.leaders[nlead] = int(v.Trick.Leader)
		nlead++
		for _, c := range v.Trick.Cards {
			i := int(idxOfCrd[c])
			if i < 0 {
				return sampleErr("trick: card %d is not a Papayoo card", c)
			}
			if p.nseq == len(p.seq) {
				return sampleErr("more plays than cards")
			}
			p.seq[p.nseq] = i
			p.nseq++
		}
	}
	if (v.Phase == PhaseRoundOver || v.Phase == PhaseOver) && len(v.Tricks) != H {
		return sampleErr("round over without %d tricks", H)
	}
	seq := p.seq[:p.nseq]
	if v.Phase == PhaseDie && len(seq) > 0 {
		return sampleErr("plays before the die")
	}
	for k, i := range seq {
		t := k / n
		if t >= nlead || p.leaders[t] < 0 || p.leaders[t] >= n {
			return sampleErr("bad trick leader")
		}
		seat := (p.leaders[t] + k%n) % n
		if p.all.Has(i) || !s.deck.Has(i) {
			return sampleErr("card %s played twice or not in play", cardName[i])
		}
		p.all |= game.Bit(i)
		p.played[seat] |= game.Bit(i)
		if led := suitOf[seq[t*n]]; k%n != 0 && suitOf[i] != led {
			p.voids[seat] |= 1 << led
		}
	}
	if own&p.all != 0 {
		return sampleErr("hand holds played cards")
	}
	p.left = -1
	if obs >= 0 {
		p.left = (obs + 1) % n
		p.forced = p.myPass &^ p.all
		if own.Count()+p.played[obs].Count() != H {
			return sampleErr("own hand size")
		}
	}
	for _, j := range others {
		p.caps[j] = H - p.played[j].Count()
	}
	su, rolled := v.Die()
	if v.Phase == PhaseDie {
		if rolled {
			return sampleErr("die shown before the roll")
		}
		p.die = true
		return nil
	}
	if !rolled || su >= Payoo || v.Papayoo != game.NewCard(su, 7) {
		return sampleErr("bad die and Papayoo %q", cardText(v.Papayoo))
	}
	p.dieSuit = su
	return nil
}

// deal draws the hidden cards (and the hidden passes) into s, then
// replays the pass, the die and the plays the view showed.
func (p *samplePlan) deal(r *game.Rand, s *State, d *hiddenDealer) error {
	s.CopyFrom(&p.base)
	if p.early {
		return nil
	}
	n, obs, own := int(s.n), p.obs, p.own
	others := p.others[:p.nothers]
	if p.pass {
		h, ok := d.deal(r, s.deck&^own, others, p.caps, [8]uint8{}, -1, 0)
		if !ok {
			return sampleErr("no layout fits the view")
		}
		if obs >= 0 {
			h[obs] = own
		}
		s.setDeal(&h)
		s.round = p.base.round
		for j := 0; j < n; j++ {
			if p.passed&(1<<uint(j)) == 0 {
				continue
			}
			x := p.myPass
			if j != obs {
				x = r.RandomBits(h[j], int(s.ks))
			}
			s.pass[j] = x
			s.passed |= 1 << uint(j)
		}
		return nil
	}
	h, ok := d.deal(r, s.deck&^own&^p.all, others, p.caps, p.voids, p.left, p.forced)
	if !ok {
		return sampleErr("no layout fits the view")
	}
	if obs >= 0 {
		h[obs] = own
	}
	// Hands just after the pass, and the passes.
	var post [8]game.Mask
	for j := 0; j < n; j++ {
		post[j] = h[j] | p.played[j]
	}
	if obs >= 0 && (p.received&^post[obs] != 0 || p.myPass&^post[p.left] != 0) {
		return sampleErr("passed or received cards inconsistent")
	}
	var pass [8]game.Mask
	for j := 0; j < n; j++ {
		nx := (j + 1) % n
		switch {
		case j == obs:
			pass[j] = p.myPass
		case nx == obs:
			pass[j] = p.received
		default:
			pass[j] = r.RandomBits(post[nx], int(s.ks))
		}
	}
	// Dealt hands, then replay the pass, the die and the plays.
	var dealt [8]game.Mask
	for j := 0; j < n; j++ {
		dealt[j] = post[j]&^pass[(j+n-1)%n] | pass[j]
	}
	s.setDeal(&dealt)
	s.round = p.base.round
	for j := 0; j < n; j++ {
		s.SubmitPass(j, pass[j])
	}
	if s.hands != post {
		return sampleErr("pass reconstruction failed")
	}
	if p.die {
		return nil
	}
	s.setDie(int(p.dieSuit))
	for k, i := range p.seq[:p.nseq] {
		if k%n == 0 && int(s.turn) != p.leaders[k/n] {
			return sampleErr("trick %d led by %d, not by the previous winner %d", k/n+1, p.leaders[k/n], s.turn)
		}
		if s.phase != phPlay || !s.LegalPlays().Has(i) {
			return sampleErr("play of %s is not legal", cardName[i])
		}
		s.Play(i)
	}
	if s.phaseName() != p.phase {
		return sampleErr("phase %s after the replay, view says %s", s.phaseName(), p.phase)
	}
	return nil
}
