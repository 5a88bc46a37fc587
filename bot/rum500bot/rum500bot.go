// Package rum500bot is what the bots know about 500 Rum: the rule-based
// player (levels easy and medium) and the ISMCTS domain of the hard level.
// docs/bots.md describes the heuristics.
package rum500bot

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	"cardroom/bot/ismcts"
	"cardroom/game"
	"cardroom/games/rum500"
)

var std = game.Standard

// value is a card's points (ace 15, J Q K 10, pips face value, joker 15).
func value(i int) int {
	if i == 52 {
		return 15
	}
	r := i%13 + 1
	switch {
	case r == 1:
		return 15
	case r >= 10:
		return 10
	}
	return r
}

func maskPoints(m game.Mask) int {
	p := 0
	for ; m != 0; m &= m - 1 {
		p += value(bits.TrailingZeros64(uint64(m)))
	}
	return p
}

// meldPoints is what a meld or take move puts on the table for the player.
func meldPoints(m game.Move) int {
	switch m.Op {
	case rum500.OpTakeMeld, rum500.OpMeld:
		return maskPoints(m.Set) + 15*m.Set2.Count()
	case rum500.OpTakeLayoff, rum500.OpLayoff:
		return value(std.Index(m.Card))
	}
	return 0
}

// Info is what the rule-based choice knows besides the legal moves; fields
// are zero when unknown (in search playouts).
type Info struct {
	Hand     []int // card indices (game.Standard), with repeats for two decks
	Pile     []int // the discard pile, bottom first
	NextKnow []int // cards the next player is known to hold
	Accept   game.Mask
	OppMin   int // fewest cards in an opponent's hand (99 if unknown)
	Known    bool
}

// useful rates how much card i helps the rest of the hand: pairs and
// near-runs (same suit, rank distance 1 or 2).
func useful(i int, hand []int) int {
	if i == 52 {
		return 20
	}
	u := 0
	r, s := i%13, i/13
	skipped := false
	for _, h := range hand {
		if h == i && !skipped {
			skipped = true
			continue
		}
		if h == 52 {
			continue
		}
		hr, hs := h%13, h/13
		if hr == r && hs != s {
			u += 6
		}
		if hs == s {
			d := hr - r
			if d < 0 {
				d = -d
			}
			if d == 1 {
				u += 6
			} else if d == 2 {
				u += 3
			}
		}
	}
	return u
}

// takeValue rates a take from the discard pile: the points it melds at once
// minus the cost of the cards above the taken one that do not fit the hand.
func takeValue(m game.Move, in *Info, easy bool) (float64, bool) {
	x := std.Index(m.Card)
	pos := -1
	for i := len(in.Pile) - 1; i >= 0; i-- {
		if in.Pile[i] == x {
			pos = i
			break
		}
	}
	if pos < 0 {
		return 0, false
	}
	above := in.Pile[pos+1:]
	if easy && len(above) > 0 {
		return 0, false // easy never digs into the pile
	}
	v := float64(meldPoints(m))
	for _, c := range above {
		if m.Set.Has(c) {
			continue
		}
		u := useful(c, append(in.Hand, above...))
		v -= 0.5*float64(value(c)) - 0.4*float64(u)
	}
	if in.OppMin <= 2 {
		v -= 0.6 * float64(len(above)) * 6 // a hand may end soon: the new cards would count against us
	}
	return v, true
}

// Choose picks a move by the rules of thumb.
func Choose(legal []game.Move, in *Info, r *game.Rand, easy bool) game.Move {
	if len(legal) == 1 {
		return legal[0]
	}
	best, bs := -1, math.Inf(-1)
	for i, m := range legal {
		var v float64
		switch m.Op {
		case rum500.OpDraw:
			v = 0
		case rum500.OpDecline:
			v = -1
		case rum500.OpTake:
			v = 1
		case rum500.OpTakeMeld, rum500.OpTakeLayoff:
			tv, ok := takeValue(m, in, easy)
			if !ok {
				v = float64(meldPoints(m)) - 5
				if easy {
					v = -10
				}
			} else {
				v = tv
			}
		case rum500.OpMeld:
			// Melding now banks the points and avoids being caught with them.
			v = 1000 + float64(meldPoints(m)) + 5*float64(m.Set.Count()+m.Set2.Count())
		case rum500.OpLayoff:
			v = 900 + float64(meldPoints(m))
		case rum500.OpDiscard:
			v = discardScore(std.Index(m.Card), in, easy)
		}
		if v > bs || (v == bs && r.IntN(2) == 0) {
			best, bs = i, v
		}
	}
	return legal[best]
}

// discardScore: shed high cards that do not help the hand and that the next
// player cannot use (no lay-off on the table, no meld with its known cards).
func discardScore(i int, in *Info, easy bool) float64 {
	v := float64(value(i))
	if !in.Known {
		return v
	}
	v -= float64(useful(i, in.Hand))
	if easy {
		return v
	}
	if in.Accept.Has(i) {
		v -= 25 // the next player could take it and lay it off
	}
	if u := useful(i, in.NextKnow); u >= 6 {
		v -= 20 // it fits what the next player is known to hold
	}
	return v
}

// InfoFromView builds the Info of a view's observer.
func InfoFromView(v *rum500.View) *Info {
	in := &Info{Known: true, OppMin: 99}
	if v.HasHand() {
		in.Hand = v.Hand.Indices(nil)
	}
	for _, c := range v.Pile {
		in.Pile = append(in.Pile, std.Index(c))
	}
	n := v.Players
	if v.Seat >= 0 && n > 0 {
		next := (int(v.Seat) + 1) % n
		if next < len(v.Known) {
			in.NextKnow = v.Known[next].Indices(nil)
		}
		for k, sz := range v.HandSizes {
			if k != int(v.Seat) && sz < in.OppMin {
				in.OppMin = sz
			}
		}
	}
	// Faces the melds on the table accept: the next rank at either end of a
	// run, the missing suits of a set.
	for k := range v.Melds {
		md := &v.Melds[k]
		if len(md.Stands) == 0 {
			continue
		}
		if !md.Run {
			r := std.Index(md.Stands[0]) % 13
			for s := 0; s < 4; s++ {
				in.Accept |= game.Bit(s*13 + r)
			}
			continue
		}
		lo, hi := std.Index(md.Stands[0]), std.Index(md.Stands[len(md.Stands)-1])
		suit := lo / 13
		if lo%13 > 0 {
			in.Accept |= game.Bit(lo - 1)
		}
		if hi%13 < 12 {
			in.Accept |= game.Bit(hi + 1)
		} else if hi%13 == 12 {
			in.Accept |= game.Bit(suit * 13) // the ace above the king
		}
	}
	return in
}

// Rule is the rule-based player's choice from a view (bot.Kit.Rule).
func Rule(gv game.View, legal []game.Move, r *game.Rand, easy bool) game.Move {
	v, ok := gv.(*rum500.View)
	if !ok {
		return legal[r.IntN(len(legal))]
	}
	return Choose(legal, InfoFromView(v), r, easy)
}

// Noise is the share of random moves in playouts.
const Noise = 0.05

// Domain is the ISMCTS domain of 500 Rum: playouts with the rule-based
// choice made from the legal moves alone, the horizon at the end of the
// hand, and a reward from the hand's score difference.
//
// A search runs it thousands of times per move, so it allocates nothing
// once warm: determinizations come from a rum500.Sampler (the view is
// parsed once per search, and each one is dealt into a reused State, see
// Sample), and on the engine's State the playout, the horizon and the
// reward use its native API and buffers held here instead of the
// contract's Result and ToAct, which copy. They make the same moves from
// the same random numbers as the contract's path, which is kept for any
// other State.
type Domain struct {
	ismcts.Generic
	view   *rum500.View
	samp   *rum500.Sampler
	ev     *Evidence     // nil: determinizations are uniform
	hands  []rum500.Hand // the hands of the deal Sample judges
	buf    []game.Move
	row    []int
	seats  [8]game.Seat
	info   Info
	rounds int     // hands scored at Start
	scale  float64 // Reward's scale, in points
}

// NewDomain makes a domain (bot.Kit.Domain) for a search of view v.
func NewDomain(v game.View) ismcts.Domain {
	d := &Domain{info: Info{OppMin: 99}, scale: RewardScale}
	d.view, _ = v.(*rum500.View)
	return d
}

// NewYardstick makes the domain of the all-seeing yardstick (bot.Kit's
// Yardstick): the search as the ceiling's first figures were measured,
// with the reward's scale of 50 points.
func NewYardstick(v game.View) ismcts.Domain {
	d := NewDomain(v).(*Domain)
	d.scale = yardstickScale
	return d
}

// RewardScale is the margin, in points, at which the reward is
// 0.5 + 0.5·tanh(1), three quarters of the way from an even hand to a
// sure win (Reward).
const RewardScale = 150.0

// yardstickScale is the ceiling's (the hard bot's before RewardScale).
const yardstickScale = 50

// ready makes the domain's sampler (and reads the evidence) on first use.
func (d *Domain) ready() error {
	if d.samp != nil {
		return nil
	}
	if d.view == nil {
		return errors.New("rum500bot: the domain was made without a 500 Rum view")
	}
	z, err := rum500.NewSampler(d.view)
	if err != nil {
		return err
	}
	d.samp = z
	if UseEvidence {
		d.ev = ReadEvidence(d.view)
	}
	return nil
}

// Uniform is a determinization of the search's view as Engine.Sample would
// draw it from r (drawn by a rum500.Sampler made on first use). The State
// is valid until the next call (the search plays each one out before
// drawing the next).
func (d *Domain) Uniform(r *game.Rand) (*rum500.State, error) {
	if err := d.ready(); err != nil {
		return nil, err
	}
	return d.samp.Sample(r), nil
}

// Sample implements ismcts.Sampler: a determinization of the search's view
// whose opponents' hands fit the evidence of their turns (Evidence): the
// first of at most EvidenceTries uniform deals that fits, or else the one
// that breaks it least (the hands are dealt and judged first, and the
// state built for the deal kept). It is valid until the next call.
func (d *Domain) Sample(r *game.Rand) (game.State, error) {
	if err := d.ready(); err != nil {
		return nil, err
	}
	if d.ev == nil {
		return d.samp.Sample(r), nil
	}
	var best game.Rand
	bestMis := -1
	for k := 0; k < EvidenceTries; k++ {
		before := *r
		d.hands = d.samp.Deal(r, d.hands)
		mis, limit := 0, 1<<30
		if bestMis >= 0 {
			limit = bestMis // a deal no better than the best is not counted out
		}
		for o, h := range d.hands {
			if o != int(d.view.Seat) && mis < limit {
				mis += d.ev.misfits(o, h, limit-mis)
			}
		}
		if mis == 0 {
			return d.samp.Sample(&before), nil // the same deal; r is where it left off
		}
		if bestMis < 0 || mis < bestMis {
			best, bestMis = before, mis
		}
	}
	// Deal the least bad again (from a copy: r goes on from the last).
	return d.samp.Sample(&best), nil
}

// UseEvidence makes the hard bot's determinizations fit what the opponents'
// turns say of their hands (Evidence).
var UseEvidence = true

// EvidenceTries is the most deals Sample draws to find one that fits.
const EvidenceTries = 16

// Configure sets the search parameters that suit 500 Rum.
func Configure(c *ismcts.Config) {
	if c.Exploration == 0 {
		c.Exploration = 0.5
	}
	if c.MaxBranch == 0 {
		c.MaxBranch = 96
	}
	if c.MaxSteps == 0 {
		c.MaxSteps = 600
	}
}

// Start implements ismcts.Domain: it notes how many hands were scored.
func (d *Domain) Start(st game.State) {
	if s, ok := st.(*rum500.State); ok {
		d.rounds = s.RoundsPlayed()
		return
	}
	d.rounds = len(st.Result().Rounds)
}

// Horizon implements ismcts.Domain: the end of the game, or the deal after
// the hand being played was scored.
func (d *Domain) Horizon(st game.State) bool {
	if st.Over() {
		return true
	}
	if !st.ChancePending() {
		return false
	}
	if s, ok := st.(*rum500.State); ok {
		return s.RoundsPlayed() > d.rounds
	}
	return len(st.Result().Rounds) > d.rounds
}

// Playout implements ismcts.Domain. On the engine's State it is
// ismcts.ContractPlayout with the calls made on the State itself (no
// interface call makes its arguments escape), so it allocates nothing.
func (d *Domain) Playout(st game.State, r *game.Rand, maxSteps int) error {
	s, ok := st.(*rum500.State)
	if !ok {
		return ismcts.ContractPlayout(st, r, maxSteps, d.Horizon, d.policy, &d.buf)
	}
	for step := 0; step < maxSteps; step++ {
		if s.Over() || d.Horizon(s) {
			return nil
		}
		if s.ChancePending() {
			s.RollChance(r)
			continue
		}
		ss := s.ToAct(d.seats[:0])
		if len(ss) == 0 {
			return nil
		}
		p := ss[0]
		d.buf = s.Legal(p, d.buf[:0])
		if len(d.buf) == 0 {
			return nil
		}
		m := d.policy(s, p, d.buf, r)
		if err := s.Apply(p, m); err != nil {
			return fmt.Errorf("ismcts: playout move %s refused: %w", s.FormatMove(m), err)
		}
	}
	return nil
}

func (d *Domain) policy(st game.State, s game.Seat, legal []game.Move, r *game.Rand) game.Move {
	if r.Float64() < Noise {
		// A random move, but never a random deep take or decline.
		m := legal[r.IntN(len(legal))]
		if m.Op != rum500.OpTakeMeld && m.Op != rum500.OpTakeLayoff && m.Op != rum500.OpDecline {
			return m
		}
	}
	return Choose(legal, &d.info, r, false)
}

// Reward implements ismcts.Domain: 0.5 + 0.5·tanh((own − best other) /
// scale) on the hand's scores, the scale RewardScale (yardstickScale for
// the ceiling's domain).
func (d *Domain) Reward(st game.State, out []float64) {
	k := d.rounds
	if s, ok := st.(*rum500.State); ok {
		d.row = s.AppendRoundScores(d.row[:0], k)
	} else if res := st.Result(); len(res.Rounds) > k {
		d.row = append(d.row[:0], res.Rounds[k]...)
	} else {
		d.row = d.row[:0]
	}
	if len(d.row) == 0 {
		for i := range out {
			out[i] = 0.5
		}
		return
	}
	row := d.row
	for i := range out {
		if i >= len(row) {
			break
		}
		other := math.Inf(-1)
		for j, p := range row {
			if j != i && float64(p) > other {
				other = float64(p)
			}
		}
		out[i] = 0.5 + 0.5*math.Tanh((float64(row[i])-other)/d.scale)
	}
}
