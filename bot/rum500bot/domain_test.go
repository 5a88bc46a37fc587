package rum500bot_test

import (
	"context"
	"reflect"
	"testing"

	"cardroom/bot/ismcts"
	"cardroom/bot/rum500bot"
	"cardroom/game"
	"cardroom/games/rum500"
)

// opaque hides the engine's State behind the contract, so the Domain takes
// its contract path (ismcts.ContractPlayout, Result).
type opaque struct{ game.State }

// TestDomainNativeMatchesContract: on the golden positions, an iteration
// done the fast way (the Domain's Sampler, its native playout, horizon and
// reward) and the contract's way (Engine.Sample, then the same Domain seeing
// only a game.State) end in the same state with the same rewards and the
// same random numbers consumed: the fast path changes no decision.
func TestDomainNativeMatchesContract(t *testing.T) {
	// The evidence redeals (Domain.Sample); Engine.Sample does not.
	defer func(old bool) { rum500bot.UseEvidence = old }(rum500bot.UseEvidence)
	rum500bot.UseEvidence = false
	e := rum500.Engine{}
	scored := 0
	for _, g := range goldenPositions(t) {
		fast, slow := rum500bot.NewDomain(g.v), rum500bot.NewDomain(g.v)
		n := g.v.Players
		for k := 0; k < 4; k++ {
			r1 := game.NewRand(uint64(k) + 1)
			r2 := r1
			a, err := fast.(ismcts.Sampler).Sample(&r1)
			if err != nil {
				t.Fatal(err)
			}
			b0, err := e.Sample(g.v, &r2)
			if err != nil {
				t.Fatal(err)
			}
			b := opaque{b0}
			fast.Start(a)
			slow.Start(b)
			if err := fast.Playout(a, &r1, 600); err != nil {
				t.Fatal(err)
			}
			if err := slow.Playout(b, &r2, 600); err != nil {
				t.Fatal(err)
			}
			ra, rb := make([]float64, n), make([]float64, n)
			fast.Reward(a, ra)
			slow.Reward(b, rb)
			if !reflect.DeepEqual(a.Clone(), b0.Clone()) || r1 != r2 {
				t.Fatalf("%s sample %d: the playouts differ", g.name, k)
			}
			if !reflect.DeepEqual(ra, rb) {
				t.Fatalf("%s sample %d: rewards %v, by the contract %v", g.name, k, ra, rb)
			}
			if fast.Horizon(a) != slow.Horizon(b) {
				t.Fatalf("%s sample %d: the horizons differ", g.name, k)
			}
			if ra[0] != 0.5 || ra[1] != 0.5 {
				scored++
			}
		}
	}
	if scored == 0 {
		t.Fatal("no playout reached a scored hand")
	}
}

// TestSearchAllocates: once warm, an iteration's determinization, playout
// and reward allocate nothing, and a whole search of 500 iterations
// allocates a few dozen times (the tree and the per-search buffers), not
// once or more per iteration (it was 16 per iteration, issue 14).
func TestSearchAllocates(t *testing.T) {
	pos := goldenPositions(t)
	g := pos[len(pos)/2]
	d := rum500bot.NewDomain(g.v)
	r := game.NewRand(9)
	out := make([]float64, g.v.Players)
	iter := func() {
		st, err := d.(ismcts.Sampler).Sample(&r)
		if err != nil {
			t.Fatal(err)
		}
		d.Start(st)
		if err := d.Playout(st, &r, 600); err != nil {
			t.Fatal(err)
		}
		d.Reward(st, out)
	}
	for i := 0; i < 100; i++ {
		iter()
	}
	if a := testing.AllocsPerRun(500, iter); a > 0.02 {
		t.Errorf("an iteration allocates %.2f times", a)
	}
	cfg := ismcts.Config{Iterations: 500, Workers: 1}
	rum500bot.Configure(&cfg)
	e := rum500.Engine{}
	a := testing.AllocsPerRun(3, func() {
		if _, err := ismcts.Search(context.Background(), e, g.v, func() ismcts.Domain { return rum500bot.NewDomain(g.v) }, cfg); err != nil {
			t.Fatal(err)
		}
	})
	if a > 250 {
		t.Errorf("a search of 500 iterations allocates %.0f times", a)
	}
	t.Logf("a search of 500 iterations allocates %.0f times", a)
}
