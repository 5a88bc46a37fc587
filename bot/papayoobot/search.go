package papayoobot

import (
	"fmt"

	"cardroom/bot/ismcts"
	"cardroom/game"
	"cardroom/games/papayoo"
)

// Noise is the probability that a playout move is uniformly random instead
// of the rule-based choice (fully greedy playouts play worse, as the Hearts
// program xinxin found).
const Noise = 0.1

// RewardScale maps round points onto the search's reward: 1 - points/scale.
const RewardScale = 250.0

// Exploration is the UCB constant for Papayoo's reward scale.
const Exploration = 0.12

// Domain is the ISMCTS domain of Papayoo. It tracks the current trick and
// the voids shown, starting from the root view, as the search plays.
type Domain struct {
	n         int
	deck      game.Mask
	rootTrick [8]int8
	rootLen   int
	rootVoids [8]uint8
	trick     [8]int8
	trickLen  int
	voids     [8]uint8
	sit       Sit
	view      *papayoo.View
	samp      *papayoo.Sampler // made on first use (Sample)
}

var _ ismcts.Sampler = (*Domain)(nil)

// NewDomain makes a domain for a search from view gv.
func NewDomain(gv game.View) ismcts.Domain {
	d := &Domain{}
	if v, ok := gv.(*papayoo.View); ok {
		d.view = v
		s := FromView(v)
		d.n = v.Players
		d.rootTrick, d.rootLen, d.rootVoids = s.Trick, s.TrickLen, s.Voids
	}
	return d
}

// Configure sets the search parameters that suit Papayoo.
func Configure(c *ismcts.Config) {
	if c.Exploration == 0 {
		c.Exploration = Exploration
	}
}

// Sample implements ismcts.Sampler: the iteration's determinization, drawn
// by a papayoo.Sampler, which reads the view once per search and deals
// without allocating exactly what Engine.Sample deals from the same
// generator (so the search's choices are the same as with Engine.Sample).
func (d *Domain) Sample(r *game.Rand) (game.State, error) {
	if d.samp == nil {
		if d.view == nil {
			return nil, fmt.Errorf("papayoobot: the search's view is not a Papayoo view")
		}
		z, err := papayoo.NewSampler(d.view)
		if err != nil {
			return nil, err
		}
		d.samp = z
	}
	st, err := d.samp.Sample(r)
	if err != nil {
		return nil, err
	}
	return st, nil
}

// Start implements ismcts.Domain.
func (d *Domain) Start(st game.State) {
	ps := st.(*papayoo.State)
	d.n = ps.Seats()
	d.deck = papayoo.DeckFor(d.n)
	d.trick, d.trickLen, d.voids = d.rootTrick, d.rootLen, d.rootVoids
}

// Observe implements ismcts.Domain.
func (d *Domain) Observe(st game.State, s game.Seat, m game.Move) {
	if m.Op != papayoo.OpPlay {
		return
	}
	d.track(st.(*papayoo.State), int(s), deck.Index(m.Card))
}

func (d *Domain) track(ps *papayoo.State, seat, i int) {
	led := ps.LedSuit()
	if led < 0 {
		d.trickLen = 0
	} else if suitOf(i) != led {
		d.voids[seat] |= 1 << uint(led)
	}
	if d.trickLen < len(d.trick) {
		d.trick[d.trickLen] = int8(i)
		d.trickLen++
	}
}

// Horizon implements ismcts.Domain: the end of the round being played.
func (d *Domain) Horizon(st game.State) bool {
	ps := st.(*papayoo.State)
	return ps.Over() || (ps.ChancePending() && ps.Die() >= 0)
}

// Reward implements ismcts.Domain: 1 - round points / 250 for every seat.
func (d *Domain) Reward(st game.State, out []float64) {
	ps := st.(*papayoo.State)
	for i := range out {
		out[i] = 1 - float64(ps.RoundPoints(i))/RewardScale
	}
}

// TooWide implements ismcts.Wider: a pass has thousands of choices.
func (d *Domain) TooWide(st game.State, s game.Seat, maxBranch int) bool {
	return st.(*papayoo.State).InPassPhase()
}

// Candidates implements ismcts.Domain: a pruned set of passes.
func (d *Domain) Candidates(st game.State, s game.Seat, legal []game.Move, maxBranch int, r *game.Rand) []game.Move {
	ps := st.(*papayoo.State)
	if !ps.InPassPhase() {
		return ismcts.RandomSubset(legal, maxBranch, r)
	}
	k := legal[0].Set.Count()
	var out []game.Move
	for _, p := range CandidatePasses(ps.Hand(int(s)), k, min(maxBranch, 24), r) {
		out = append(out, game.Move{Op: papayoo.OpPass, Set: p})
	}
	return out
}

// Playout implements ismcts.Domain with the engine's native fast path.
func (d *Domain) Playout(st game.State, r *game.Rand, maxSteps int) error {
	ps, ok := st.(*papayoo.State)
	if !ok {
		return fmt.Errorf("papayoobot: not a papayoo state")
	}
	n := ps.Seats()
	for step := 0; step < maxSteps; step++ {
		if ps.Over() {
			return nil
		}
		if ps.ChancePending() {
			if ps.Die() >= 0 {
				return nil // the round is over
			}
			ps.RollChance(r)
			continue
		}
		if ps.InPassPhase() {
			for seat := 0; seat < n; seat++ {
				if !ps.HasPassed(seat) {
					ps.SubmitPass(seat, d.playoutPass(ps.Hand(seat), r))
				}
			}
			continue
		}
		seat := ps.Turn()
		legal := ps.LegalPlays()
		var i int
		if legal&(legal-1) == 0 {
			i = lowest(legal)
		} else if r.Float64() < Noise {
			i = legal.Nth(r.IntN(legal.Count()))
		} else {
			s := &d.sit
			s.N, s.Me, s.Hand = n, seat, ps.Hand(seat)
			var out game.Mask
			for k := 0; k < n; k++ {
				if k != seat {
					out |= ps.Hand(k)
				}
			}
			s.Out = out
			s.Pap = -1
			if die := ps.Die(); die >= 0 {
				s.Pap = die*10 + 6
			}
			if ps.LedSuit() < 0 {
				s.TrickLen = 0
			} else {
				s.TrickLen = d.trickLen
			}
			s.Trick = d.trick
			s.Voids = d.voids
			i = s.ChooseCard(legal, false)
		}
		d.track(ps, seat, i)
		ps.Play(i)
	}
	return nil
}

// playoutPass is the rule-based pass with a little noise.
func (d *Domain) playoutPass(hand game.Mask, r *game.Rand) game.Mask {
	k := papayoo.PassSize(d.n)
	var sc [60]int
	PassScores(hand, k, &sc)
	for m := hand; m != 0; m &= m - 1 {
		i := lowest(m)
		sc[i] = sc[i]*4 + r.IntN(12)
	}
	return topK(hand, k, &sc)
}
