package ismcts_test

import (
	"context"
	"reflect"
	"runtime"
	"testing"

	"cardroom/bot/ismcts"
	"cardroom/bot/papayoobot"
	"cardroom/game"
	"cardroom/games/papayoo"
)

// papayooPosition deals a 4-player round and plays passes (and the die)
// with random moves until `moves` moves were made.
func papayooPosition(t *testing.T, seed uint64, moves int) game.State {
	t.Helper()
	st, err := papayoo.Engine{}.New(game.Options{"players": "4", "rounds": "1"})
	if err != nil {
		t.Fatal(err)
	}
	r := game.NewRand(seed)
	for n := 0; ; {
		if st.ChancePending() {
			st.RollChance(&r)
			continue
		}
		if n == moves {
			return st
		}
		s := st.ToAct(nil)[0]
		l := st.Legal(s, nil)
		if err := st.Apply(s, l[r.IntN(len(l))]); err != nil {
			t.Fatal(err)
		}
		n++
	}
}

func TestSearchDeterministicAndBudgeted(t *testing.T) {
	for _, dom := range []struct {
		name string
		mk   func(v game.View) func() ismcts.Domain
	}{
		{"generic", func(game.View) func() ismcts.Domain { return ismcts.NewGeneric }},
		{"papayoo", func(v game.View) func() ismcts.Domain {
			return func() ismcts.Domain { return papayoobot.NewDomain(v) }
		}},
	} {
		for _, moves := range []int{0, 4, 9, 30} {
			st := papayooPosition(t, 3, moves)
			v := st.View(st.ToAct(nil)[0])
			cfg := ismcts.Config{Iterations: 500, Workers: 3, Seed: 42}
			a, err := ismcts.Search(context.Background(), papayoo.Engine{}, v, dom.mk(v), cfg)
			if err != nil {
				t.Fatalf("%s move %d: %v", dom.name, moves, err)
			}
			b, _ := ismcts.Search(context.Background(), papayoo.Engine{}, v, dom.mk(v), cfg)
			if !reflect.DeepEqual(a.Moves, b.Moves) || a.Iterations != b.Iterations {
				t.Fatalf("%s move %d: two searches with the same seed differ", dom.name, moves)
			}
			if len(a.Moves) > 1 && a.Iterations != 500 {
				t.Fatalf("%s move %d: %d iterations, want 500", dom.name, moves, a.Iterations)
			}
			// Root moves are legal, and pruned below MaxBranch for the pass.
			legal := st.Legal(v.Observer(), nil)
			if len(a.Moves) > 48 {
				t.Fatalf("%s move %d: %d root moves, more than MaxBranch", dom.name, moves, len(a.Moves))
			}
			visits := 0
			for _, m := range a.Moves {
				found := false
				for _, l := range legal {
					found = found || l == m.Move
				}
				if !found {
					t.Fatalf("%s move %d: root move %s is not legal", dom.name, moves, m.Text)
				}
				visits += m.Visits
			}
			if len(a.Moves) > 1 && visits != 500 {
				t.Fatalf("%s move %d: root visits %d, want 500", dom.name, moves, visits)
			}
		}
	}
}

// TestCandidatePassesDistinct: the pruned passes are distinct K-card
// subsets of the hand, the rule-based pass first.
func TestCandidatePassesDistinct(t *testing.T) {
	st := papayooPosition(t, 5, 0)
	ps := st.(*papayoo.State)
	r := game.NewRand(1)
	c := papayoobot.CandidatePasses(ps.Hand(0), 5, 24, &r)
	if len(c) < 10 {
		t.Fatalf("only %d candidate passes", len(c))
	}
	seen := map[game.Mask]bool{}
	for _, m := range c {
		if m.Count() != 5 || m&^ps.Hand(0) != 0 || seen[m] {
			t.Fatalf("bad candidate pass %s", m.Format(papayoo.Deck))
		}
		seen[m] = true
	}
	if c[0] != papayoobot.BestPass(ps.Hand(0), 5) {
		t.Fatalf("the rule-based pass is not the first candidate")
	}
}

// TestPriorShare: a prior credited with all the iterations wins the
// choice; its reported visits stay the search's own.
func TestPriorShare(t *testing.T) {
	st := papayooPosition(t, 3, 6)
	v := st.View(st.ToAct(nil)[0])
	legal := st.Legal(v.Observer(), nil)
	if len(legal) < 2 {
		t.Skip("single legal move")
	}
	cfg := ismcts.Config{Iterations: 300, Workers: 1, Seed: 1}
	plain, err := ismcts.Search(context.Background(), papayoo.Engine{}, v, ismcts.NewGeneric, cfg)
	if err != nil {
		t.Fatal(err)
	}
	worst := plain.Moves[len(plain.Moves)-1]
	cfg.Prior, cfg.PriorShare = &worst.Move, 1
	res, err := ismcts.Search(context.Background(), papayoo.Engine{}, v, ismcts.NewGeneric, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Best() != worst.Move || res.Moves[0].Visits != worst.Visits {
		t.Fatalf("prior %s not chosen with its own visits: %+v", worst.Text, res.Moves[0])
	}
}

// A search keeps nothing per iteration on the heap: with Papayoo's domain
// (its papayoo.Sampler) and the tree's buffers kept between searches, a
// 1,000-iteration search allocates a few dozen times (it was about 9,000
// with a fresh determinization and tree each time). The bound leaves room
// for a pool emptied by a collection.
func TestSearchAllocations(t *testing.T) {
	st := papayooPosition(t, 5, 4)
	v := st.View(st.ToAct(nil)[0])
	cfg := ismcts.Config{Iterations: 1000, Workers: 1, Seed: 7}
	papayoobot.Configure(&cfg)
	dom := func() ismcts.Domain { return papayoobot.NewDomain(v) }
	n := testing.AllocsPerRun(5, func() {
		if _, err := ismcts.Search(context.Background(), papayoo.Engine{}, v, dom, cfg); err != nil {
			t.Fatal(err)
		}
	})
	if n > 300 {
		t.Errorf("a 1,000-iteration search allocates %.0f times", n)
	}
	// And few bytes: the tree (about 75 KB here) comes from the pool.
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	const runs = 10
	for range runs {
		if _, err := ismcts.Search(context.Background(), papayoo.Engine{}, v, dom, cfg); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&m1)
	if per := (m1.TotalAlloc - m0.TotalAlloc) / runs; per > 40<<10 {
		t.Errorf("a 1,000-iteration search allocates %d bytes", per)
	}
}
