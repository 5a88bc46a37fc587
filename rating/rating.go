// Package rating is a Bayesian skill rating for games of two or more
// sides ranked at the end, ties included: the Plackett–Luce model of Weng
// and Lin, "A Bayesian Approximation Method for Online Ranking" (JMLR 12,
// 2011), Algorithm 4, the model OpenSkill uses by default. Each player's
// skill is a normal belief (Mu, Sigma); one game's ranking moves every
// player's Mu towards what the ranking says and shrinks Sigma by what the
// game taught. It is pure arithmetic: no I/O, no dependencies, no state.
//
// docs/ratings.md explains the parameters, the display number and how a
// card game's result becomes a ranking.
package rating

import (
	"errors"
	"fmt"
	"math"
)

// Rating is one player's skill belief: mean Mu and standard deviation Sigma.
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// Params are the model's parameters. Default gives OpenSkill's defaults
// (mu 25, sigma 25/3, beta 25/6, tau 25/300, kappa 0.0001) with LimitSigma
// on.
type Params struct {
	// Mu and Sigma are a new player's belief.
	Mu, Sigma float64
	// Beta is the spread of one game's performance around a player's skill:
	// the larger it is, the more luck a game holds and the less one game
	// moves a rating. Half the initial Sigma, as in OpenSkill and TrueSkill.
	Beta float64
	// Tau is added (in variance) to every Sigma before a game, so that a
	// rating never freezes: a player who improves can still show it.
	Tau float64
	// Kappa is the smallest factor by which one game may shrink a variance,
	// so that Sigma stays positive whatever the inputs.
	Kappa float64
	// LimitSigma keeps a game from raising Sigma (Tau inflates it before the
	// update; without the limit a player with a small Sigma could end a game
	// with a larger one). With it a unique first place never lowers the
	// conservative rating Mu − 3·Sigma: Mu rises and Sigma does not.
	LimitSigma bool
	// ProvisionalSigma: a rating whose Sigma is above it is provisional
	// (shown marked: it says little yet).
	ProvisionalSigma float64
}

// Default returns the parameters Cardroom rates with.
func Default() Params {
	return Params{
		Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Tau: 25.0 / 300, Kappa: 0.0001,
		LimitSigma: true, ProvisionalSigma: DefaultProvisionalSigma,
	}
}

// DefaultProvisionalSigma is Default's ProvisionalSigma: a new player stays
// provisional for about 20 four-seat games among new players, about 5
// among established ones (TestProvisionalGames).
const DefaultProvisionalSigma = 6.0

// New is a new player's rating.
func (p Params) New() Rating { return Rating{Mu: p.Mu, Sigma: p.Sigma} }

// Validate reports parameters the model cannot use.
func (p Params) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
		zero bool // zero allowed
	}{{"mu", p.Mu, true}, {"sigma", p.Sigma, false}, {"beta", p.Beta, false}, {"tau", p.Tau, true}, {"kappa", p.Kappa, false}, {"provisional sigma", p.ProvisionalSigma, true}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("rating: %s is %v", f.name, f.v)
		}
		if f.name != "mu" && (f.v < 0 || f.v == 0 && !f.zero) {
			return fmt.Errorf("rating: %s must be positive, not %v", f.name, f.v)
		}
	}
	if p.Kappa >= 1 {
		return fmt.Errorf("rating: kappa must be below 1, not %v", p.Kappa)
	}
	return nil
}

// Ordinal is the conservative skill Mu − 3·Sigma: the player is 99.85 %
// likely to be at least this good. Leaderboards sort by it, so that a
// lucky newcomer (large Sigma) does not top one.
func (r Rating) Ordinal() float64 { return r.Mu - 3*r.Sigma }

// Display is the number players see: 1000 + 40·Ordinal, rounded. A new
// player (Mu 25, Sigma 25/3) shows 1000; an established average player
// (Mu 25, Sigma 2) 1760; the scale is the model's, stretched so
// that one game moves it by whole points.
func (r Rating) Display() int { return int(math.Round(1000 + 40*r.Ordinal())) }

// Provisional reports whether r says little yet (Sigma above
// ProvisionalSigma).
func (p Params) Provisional(r Rating) bool { return r.Sigma > p.ProvisionalSigma }

// ErrInput is wrapped by every error about a game's input.
var ErrInput = errors.New("rating: bad input")

func inputErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInput, fmt.Sprintf(format, args...))
}

// MaxSides bounds the sides of one game (a card table has at most a
// dozen seats; the update is quadratic in the sides).
const MaxSides = 64

// Rate updates one game of single players: players[i] finished at
// ranks[i], lower is better, equal ranks are a tie (1, 2, 2, 4 or 0, 1, 1,
// 2: only the order matters). It returns the new ratings in the same
// order and changes nothing on an error.
func (p Params) Rate(players []Rating, ranks []int) ([]Rating, error) {
	teams := make([][]Rating, len(players))
	for i := range players {
		teams[i] = players[i : i+1]
	}
	out, err := p.RateTeams(teams, ranks)
	if err != nil {
		return nil, err
	}
	res := make([]Rating, len(out))
	for i := range out {
		res[i] = out[i][0]
	}
	return res, nil
}

// RateTeams is Rate for sides of one or more players each (a team's skill
// is the sum of its players'). The card games rate single players; teams
// are here because the reference implementations publish their test
// vectors with teams.
func (p Params) RateTeams(teams [][]Rating, ranks []int) ([][]Rating, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	k := len(teams)
	if k < 2 || k > MaxSides {
		return nil, inputErr("a game has 2 to %d sides, not %d", MaxSides, k)
	}
	if len(ranks) != k {
		return nil, inputErr("%d ranks for %d sides", len(ranks), k)
	}
	type side struct {
		mu, s2 float64 // the team's mean and variance
	}
	sides := make([]side, k)
	for i, t := range teams {
		if len(t) == 0 || len(t) > MaxSides {
			return nil, inputErr("side %d has %d players", i, len(t))
		}
		for j, r := range t {
			if math.IsNaN(r.Mu) || math.IsInf(r.Mu, 0) || math.IsNaN(r.Sigma) || math.IsInf(r.Sigma, 0) || r.Sigma <= 0 || math.Abs(r.Mu) > 1e6 || r.Sigma > 1e6 {
				return nil, inputErr("side %d player %d: rating %v is not a finite mean with a positive deviation", i, j, r)
			}
			s2 := r.Sigma*r.Sigma + p.Tau*p.Tau
			sides[i].mu += r.Mu
			sides[i].s2 += s2
		}
	}
	// c² = Σ (σ_i² + β²) over the sides (Algorithm 4, procedure 3).
	c2 := 0.0
	for _, s := range sides {
		c2 += s.s2 + p.Beta*p.Beta
	}
	c := math.Sqrt(c2)
	// e_i = exp(μ_i/c), shifted by the largest μ so that no exponential
	// overflows (every quotient below is a ratio of them).
	maxMu := sides[0].mu
	for _, s := range sides {
		maxMu = max(maxMu, s.mu)
	}
	e := make([]float64, k)
	for i, s := range sides {
		e[i] = math.Exp((s.mu - maxMu) / c)
	}
	// sumQ[q] = Σ e_s over the sides s ranked at or below q (C_q);
	// a[q] = how many sides share q's rank (A_q).
	sumQ := make([]float64, k)
	a := make([]float64, k)
	for q := range k {
		for s := range k {
			if ranks[s] >= ranks[q] {
				sumQ[q] += e[s]
			}
			if ranks[s] == ranks[q] {
				a[q]++
			}
		}
	}
	out := make([][]Rating, k)
	for i, si := range sides {
		omega, delta := 0.0, 0.0
		for q := range k {
			if ranks[q] > ranks[i] {
				continue
			}
			quot := e[i] / sumQ[q]
			delta += quot * (1 - quot) / a[q]
			if q == i {
				omega += (1 - quot) / a[q]
			} else {
				omega -= quot / a[q]
			}
		}
		omega *= si.s2 / c
		gamma := math.Sqrt(si.s2) / c // OpenSkill's default γ
		delta *= gamma * si.s2 / c2
		out[i] = make([]Rating, len(teams[i]))
		for j, r := range teams[i] {
			s2 := r.Sigma*r.Sigma + p.Tau*p.Tau
			share := s2 / si.s2
			nr := Rating{
				Mu:    r.Mu + share*omega,
				Sigma: math.Sqrt(s2) * math.Sqrt(max(1-share*delta, p.Kappa)),
			}
			if p.LimitSigma && nr.Sigma > r.Sigma {
				nr.Sigma = r.Sigma
			}
			out[i][j] = nr
		}
	}
	return out, nil
}

// Ranks turns a game's final totals into ranks (0 best; equal totals share
// a rank, the next rank skips: 0, 1, 1, 3). higherWins says which way the
// totals count (500 Rum: the highest; Papayoo and Pis Yedili: the lowest).
func Ranks(totals []int, higherWins bool) []int {
	r := make([]int, len(totals))
	for i, ti := range totals {
		for _, tj := range totals {
			if higherWins && tj > ti || !higherWins && tj < ti {
				r[i]++
			}
		}
	}
	return r
}
