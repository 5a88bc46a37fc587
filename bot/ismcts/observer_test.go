package ismcts_test

import (
	"context"
	"testing"

	"cardroom/bot/ismcts"
	"cardroom/game"
)

// coinGame is a one-player toy: a coin is tossed face down; the player
// either stops (a sure 0.6) or goes on, sees the coin, and calls it
// (1 if right, 0 if wrong). Going on is worth 1 to a player that calls
// what it saw, 0.5 to one that calls without looking.
type coinGame struct {
	coin  int // 0 or 1: hidden until the player goes on
	stage int // 0: stop or go on; 1: call; 2: over
	score float64
}

type coinView struct{ coinGame }

func (v *coinView) Observer() game.Seat { return 0 }
func (v *coinView) Head() *game.Header  { return &game.Header{} }
func (v *coinView) String() string      { return "coin" }

type coinEngine struct{}

func (coinEngine) Name() string                   { return "coin" }
func (coinEngine) Deck() game.Deck                { return game.Standard }
func (coinEngine) OptionSpecs() []game.OptionSpec { return nil }
func (coinEngine) New(game.Options) (game.State, error) {
	return &coinGame{}, nil
}

// Sample tosses the hidden coin.
func (coinEngine) Sample(v game.View, r *game.Rand) (game.State, error) {
	g := v.(*coinView).coinGame
	g.coin = r.IntN(2)
	return &g, nil
}

const (
	opStop = iota + 1
	opGo
	opCall
)

func (g *coinGame) Engine() game.Engine                 { return coinEngine{} }
func (g *coinGame) Options() game.Options               { return game.Options{} }
func (g *coinGame) Seats() int                          { return 1 }
func (g *coinGame) ChancePending() bool                 { return false }
func (g *coinGame) RollChance(*game.Rand)               {}
func (g *coinGame) SampleChance(*game.Rand) string      { return "" }
func (g *coinGame) ApplyChance(string) error            { return nil }
func (g *coinGame) ParseMove(string) (game.Move, error) { return game.Move{}, nil }
func (g *coinGame) Over() bool                          { return g.stage == 2 }
func (g *coinGame) Result() game.Result                 { return game.Result{} }
func (g *coinGame) View(game.Seat) game.View            { return &coinView{*g} }
func (g *coinGame) Clone() game.State                   { c := *g; return &c }
func (g *coinGame) ToAct(buf []game.Seat) []game.Seat {
	if g.stage == 2 {
		return buf
	}
	return append(buf, 0)
}
func (g *coinGame) Legal(s game.Seat, buf []game.Move) []game.Move {
	switch g.stage {
	case 0:
		return append(buf, game.Move{Op: opStop}, game.Move{Op: opGo})
	case 1:
		return append(buf, game.Move{Op: opCall, A: 0}, game.Move{Op: opCall, A: 1})
	}
	return buf
}
func (g *coinGame) Apply(s game.Seat, m game.Move) error {
	switch m.Op {
	case opStop:
		g.stage, g.score = 2, 0.6
	case opGo:
		g.stage = 1
	case opCall:
		g.stage = 2
		if int(m.A) == g.coin {
			g.score = 1
		}
	}
	return nil
}
func (g *coinGame) FormatMove(m game.Move) string {
	return [...]string{"", "stop", "go", "call"}[m.Op]
}

// coinDomain plays the toy out at random; seeingCoinDomain also tells
// the search the coin the player saw after going on.
type coinDomain struct{}

func (d *coinDomain) Playout(st game.State, r *game.Rand, maxSteps int) error {
	var buf []game.Move
	for st.(*coinGame).stage < 2 {
		buf = st.Legal(0, buf[:0])
		_ = st.Apply(0, buf[r.IntN(len(buf))])
	}
	return nil
}
func (d *coinDomain) Candidates(_ game.State, _ game.Seat, legal []game.Move, _ int, _ *game.Rand) []game.Move {
	return legal
}
func (d *coinDomain) Observe(game.State, game.Seat, game.Move) {}
func (d *coinDomain) Start(game.State)                         {}
func (d *coinDomain) Horizon(st game.State) bool               { return st.Over() }
func (d *coinDomain) Reward(st game.State, out []float64)      { out[0] = st.(*coinGame).score }

type seeingCoinDomain struct{ coinDomain }

func (d *seeingCoinDomain) ObsKey(st game.State, _ game.Seat) (uint64, bool) {
	g := st.(*coinGame)
	return uint64(g.coin), g.stage == 1
}

// TestObserverClosesTheLoop: a search whose domain says what the player
// saw (ismcts.Observer) calls the coin it saw and goes on; without it the
// call below "go" is one move for every toss, worth 0.5, and the search
// stops for the sure 0.6.
func TestObserverClosesTheLoop(t *testing.T) {
	v := &coinView{}
	cfg := ismcts.Config{Iterations: 3000, Workers: 1, Seed: 3, Exploration: 0.5}
	for _, tc := range []struct {
		name string
		dom  func() ismcts.Domain
		want string
	}{
		{"open loop", func() ismcts.Domain { return &coinDomain{} }, "stop"},
		{"closed loop", func() ismcts.Domain { return &seeingCoinDomain{} }, "go"},
	} {
		res, err := ismcts.Search(context.Background(), coinEngine{}, v, tc.dom, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Moves[0].Text != tc.want {
			t.Errorf("%s: plays %s (%+v), want %s", tc.name, res.Moves[0].Text, res.Moves, tc.want)
		}
	}
}
