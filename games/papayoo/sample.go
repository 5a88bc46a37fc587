package papayoo

import (
	"errors"
	"fmt"
	"sort"

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
	type stage struct {
		cap   int
		allow uint8 // accepted suits
		seats []int
	}
	var stages []stage
	for _, j := range seats {
		if caps[j] == 0 {
			continue
		}
		allow := ^voids[j] & present
		k := 0
		for k < len(stages) && stages[k].allow != allow {
			k++
		}
		if k == len(stages) {
			stages = append(stages, stage{allow: allow})
		}
		stages[k].cap += caps[j]
		stages[k].seats = append(stages[k].seats, j)
	}
	if len(stages) == 0 {
		return out, true // nothing to deal (total is 0)
	}
	if len(stages) == 1 {
		for _, j := range stages[0].seats {
			m := r.RandomBits(pool, caps[j])
			out[j] |= m
			pool &^= m
		}
		return out, true
	}
	// Most constrained first (smallest slack between accepted cards and
	// size); the unconstrained group, if any, last.
	slack := func(st stage) int {
		if st.allow == present {
			return 1 << 20
		}
		acc := 0
		for su := 0; su < 5; su++ {
			if st.allow&(1<<uint(su)) != 0 {
				acc += (pool & suitMask[su]).Count()
			}
		}
		return acc - st.cap
	}
	sort.SliceStable(stages, func(a, b int) bool { return slack(stages[a]) < slack(stages[b]) })

	// Classes: present suits grouped by which stages accept them.
	var clsMask [5]game.Mask
	var clsAllow [5]uint16 // bit per stage
	nc := 0
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
		for c < nc && clsAllow[c] != pat {
			c++
		}
		if c == nc {
			clsAllow[c] = pat
			nc++
		}
		clsMask[c] |= pool & suitMask[su]
	}
	ns := len(stages)
	memo := map[uint32]float64{}
	key := func(k int, rem *[5]int) uint32 {
		x := uint32(k)
		for c := 0; c < nc; c++ {
			x = x<<5 | uint32(rem[c])
		}
		return x
	}
	var count func(k int, rem *[5]int) float64
	// enumerate calls f for every count vector x of stage k drawn from rem.
	enumerate := func(k int, rem *[5]int, f func(x *[5]int, w float64)) {
		var x [5]int
		var rec func(c, left int, w float64)
		rec = func(c, left int, w float64) {
			if c == nc {
				if left == 0 {
					f(&x, w)
				}
				return
			}
			if clsAllow[c]&(1<<uint(k)) == 0 {
				x[c] = 0
				rec(c+1, left, w)
				return
			}
			after := 0
			for d := c + 1; d < nc; d++ {
				if clsAllow[d]&(1<<uint(k)) != 0 {
					after += rem[d]
				}
			}
			lo := left - after
			if lo < 0 {
				lo = 0
			}
			hi := min(rem[c], left)
			for v := lo; v <= hi; v++ {
				x[c] = v
				rec(c+1, left-v, w*binom[rem[c]][v])
			}
			x[c] = 0
		}
		rec(0, stages[k].cap, 1)
	}
	count = func(k int, rem *[5]int) float64 {
		if k == ns-1 {
			for c := 0; c < nc; c++ {
				if rem[c] > 0 && clsAllow[c]&(1<<uint(k)) == 0 {
					return 0
				}
			}
			return 1
		}
		kk := key(k, rem)
		if v, ok := memo[kk]; ok {
			return v
		}
		tot := 0.0
		enumerate(k, rem, func(x *[5]int, w float64) {
			var next [5]int
			for c := 0; c < nc; c++ {
				next[c] = rem[c] - x[c]
			}
			tot += w * count(k+1, &next)
		})
		memo[kk] = tot
		return tot
	}
	var rem [5]int
	for c := 0; c < nc; c++ {
		rem[c] = clsMask[c].Count()
	}
	if count(0, &rem) == 0 {
		return out, false
	}
	var got [8]game.Mask // per stage
	for k := 0; k < ns; k++ {
		var pick [5]int
		if k == ns-1 {
			pick = rem
		} else {
			type cand struct {
				x [5]int
				w float64
			}
			var cands []cand
			tot := 0.0
			enumerate(k, &rem, func(x *[5]int, w float64) {
				var next [5]int
				for c := 0; c < nc; c++ {
					next[c] = rem[c] - x[c]
				}
				if w *= count(k+1, &next); w > 0 {
					cands = append(cands, cand{*x, w})
					tot += w
				}
			})
			if len(cands) == 0 {
				return out, false
			}
			u := r.Float64() * tot
			pick = cands[len(cands)-1].x
			for _, cd := range cands {
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
		for _, j := range st.seats {
			x := r.RandomBits(m, caps[j])
			out[j] |= x
			m &^= x
		}
	}
	return out, true
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
	s, err := newState(v.Options)
	if err != nil {
		return nil, err
	}
	n := int(s.n)
	if v.Players != n || len(v.Totals) != n || v.Round < 0 || v.Round > int(s.rounds) || v.Dealer < -1 || int(v.Dealer) >= n {
		return nil, sampleErr("inconsistent view header")
	}
	obs := int(v.Seat)
	if obs >= n || obs < -1 {
		return nil, sampleErr("bad observer %d", obs)
	}
	s.round = v.Round
	s.dealer = int8(v.Dealer)
	// Scores and totals.
	fin := len(v.RoundScores)
	for _, row := range v.RoundScores {
		if len(row) != n {
			return nil, sampleErr("bad round scores")
		}
	}
	lastPlayed := v.Phase == PhaseRoundOver || v.Phase == PhaseOver // the last round's tricks are replayed
	keep := fin
	if lastPlayed {
		keep = fin - 1
		if keep < 0 {
			return nil, sampleErr("no finished round")
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
		return s, nil
	case PhaseDeal:
		if v.Dealer < 0 {
			return nil, sampleErr("no dealer")
		}
		s.phase = phDeal
		return s, nil
	case PhasePass, PhaseDie, PhasePlay, PhaseRoundOver, PhaseOver:
	default:
		return nil, sampleErr("unknown phase %q", v.Phase)
	}
	if v.Dealer < 0 || v.Round < 1 {
		return nil, sampleErr("no dealer or round")
	}
	if v.Phase == PhaseRoundOver {
		s.dealer = int8((int(v.Dealer) + n - 1) % n)
	}
	own := game.Mask(0)
	if obs >= 0 {
		own = v.Hand
	}
	if own&^s.deck != 0 {
		return nil, sampleErr("hand holds cards not in play")
	}
	if len(v.Passed) != n {
		return nil, sampleErr("bad passed list")
	}
	var passed uint8
	for i, p := range v.Passed {
		if p {
			passed |= 1 << uint(i)
		}
	}
	var myPass, received game.Mask
	if obs >= 0 && passed&(1<<uint(obs)) != 0 {
		if myPass = v.MyPass; myPass.Count() != int(s.ks) {
			return nil, sampleErr("bad own pass")
		}
	}
	H := int(s.hs)
	var caps [8]int
	var others []int
	for j := 0; j < n; j++ {
		if j != obs {
			others = append(others, j)
		}
	}
	if v.Phase == PhasePass {
		if own.Count() != H && obs >= 0 || myPass&^own != 0 {
			return nil, sampleErr("bad hand in the pass phase")
		}
		for _, j := range others {
			caps[j] = H
		}
		h, ok := dealHidden(r, s.deck&^own, others, caps, [8]uint8{}, -1, 0)
		if !ok {
			return nil, sampleErr("no layout fits the view")
		}
		if obs >= 0 {
			h[obs] = own
		}
		s.setDeal(&h)
		s.round = v.Round
		for j := 0; j < n; j++ {
			if passed&(1<<uint(j)) == 0 {
				continue
			}
			p := myPass
			if j != obs {
				p = r.RandomBits(h[j], int(s.ks))
			}
			s.pass[j] = p
			s.passed |= 1 << uint(j)
		}
		if s.passed == 1<<uint(n)-1 {
			return nil, sampleErr("every seat has passed in the pass phase")
		}
		return s, nil
	}
	// The pass has resolved: read the plays.
	if passed != 1<<uint(n)-1 {
		return nil, sampleErr("pass not complete after the pass phase")
	}
	if obs >= 0 {
		if received = v.Received; received.Count() != int(s.ks) {
			return nil, sampleErr("bad received cards")
		}
	}
	if len(v.Tricks) > H {
		return nil, sampleErr("too many tricks")
	}
	var seqBuf [60]int
	var leadBuf [21]int
	seq := seqBuf[:0]      // card indices in play order
	leaders := leadBuf[:0] // leader of each trick
	for _, t := range v.Tricks {
		if len(t.Cards) != n {
			return nil, sampleErr("a completed trick without %d cards", n)
		}
		leaders = append(leaders, int(t.Leader))
		for _, c := range t.Cards {
			i := int(idxOfCrd[c])
			if i < 0 {
				return nil, sampleErr("trick: card %d is not a Papayoo card", c)
			}
			seq = append(seq, i)
		}
	}
	if v.Phase == PhasePlay {
		if len(v.Trick.Cards) >= n {
			return nil, sampleErr("current trick too long")
		}
		leaders = append(leaders, int(v.Trick.Leader))
		for _, c := range v.Trick.Cards {
			i := int(idxOfCrd[c])
			if i < 0 {
				return nil, sampleErr("trick: card %d is not a Papayoo card", c)
			}
			seq = append(seq, i)
		}
	}
	if (v.Phase == PhaseRoundOver || v.Phase == PhaseOver) && len(v.Tricks) != H {
		return nil, sampleErr("round over without %d tricks", H)
	}
	if v.Phase == PhaseDie && len(seq) > 0 {
		return nil, sampleErr("plays before the die")
	}
	var played [8]game.Mask
	var voids [8]uint8
	var all game.Mask
	for k, i := range seq {
		t := k / n
		if t >= len(leaders) || leaders[t] < 0 || leaders[t] >= n {
			return nil, sampleErr("bad trick leader")
		}
		seat := (leaders[t] + k%n) % n
		if all.Has(i) || !s.deck.Has(i) {
			return nil, sampleErr("card %s played twice or not in play", cardName[i])
		}
		all |= game.Bit(i)
		played[seat] |= game.Bit(i)
		if led := suitOf[seq[t*n]]; k%n != 0 && suitOf[i] != led {
			voids[seat] |= 1 << led
		}
	}
	if own&all != 0 {
		return nil, sampleErr("hand holds played cards")
	}
	var forced game.Mask
	left := -1
	if obs >= 0 {
		left = (obs + 1) % n
		forced = myPass &^ all
		if obs >= 0 && own.Count()+played[obs].Count() != H {
			return nil, sampleErr("own hand size")
		}
	}
	for _, j := range others {
		caps[j] = H - played[j].Count()
	}
	h, ok := dealHidden(r, s.deck&^own&^all, others, caps, voids, left, forced)
	if !ok {
		return nil, sampleErr("no layout fits the view")
	}
	if obs >= 0 {
		h[obs] = own
	}
	// Hands just after the pass, and the passes.
	var post [8]game.Mask
	for j := 0; j < n; j++ {
		post[j] = h[j] | played[j]
	}
	if obs >= 0 && (received&^post[obs] != 0 || myPass&^post[left] != 0) {
		return nil, sampleErr("passed or received cards inconsistent")
	}
	var pass [8]game.Mask
	for j := 0; j < n; j++ {
		nx := (j + 1) % n
		switch {
		case j == obs:
			pass[j] = myPass
		case nx == obs:
			pass[j] = received
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
	s.round = v.Round
	for j := 0; j < n; j++ {
		s.SubmitPass(j, pass[j])
	}
	if s.hands != post {
		return nil, sampleErr("pass reconstruction failed")
	}
	su, rolled := v.Die()
	if v.Phase == PhaseDie {
		if rolled {
			return nil, sampleErr("die shown before the roll")
		}
		return s, nil
	}
	if !rolled || su >= Payoo || v.Papayoo != game.NewCard(su, 7) {
		return nil, sampleErr("bad die and Papayoo %q", cardText(v.Papayoo))
	}
	s.setDie(int(su))
	for k, i := range seq {
		if k%n == 0 && int(s.turn) != leaders[k/n] {
			return nil, sampleErr("trick %d led by %d, not by the previous winner %d", k/n+1, leaders[k/n], s.turn)
		}
		if s.phase != phPlay || !s.LegalPlays().Has(i) {
			return nil, sampleErr("play of %s is not legal", cardName[i])
		}
		s.Play(i)
	}
	if s.phaseName() != v.Phase {
		return nil, sampleErr("phase %s after the replay, view says %s", s.phaseName(), v.Phase)
	}
	return s, nil
}
