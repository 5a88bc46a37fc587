package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"cardroom/bot/pool"
	"cardroom/game"
)

// TestHardAtPoolBudget: the hard bot searches exactly the iterations its
// pool grant allows, whatever its own budget (an iteration count or a
// time), plays a legal move at the least budget in every game, and plays the
// same move again for the same seed and grant (the budget is an input, not
// a clock).
func TestHardAtPoolBudget(t *testing.T) {
	for _, e := range engines() {
		for _, moves := range []int{0, 9} {
			st := position(t, e, game.Options{"players": "4"}, uint64(moves)+7, moves)
			s := st.ToAct(nil)[0]
			v := st.View(s)
			if len(st.Legal(s, nil)) < 2 {
				continue // no search is needed
			}
			for _, c := range []struct {
				name string
				cfg  HardConfig
				g    pool.Grant
			}{
				{"least", HardConfig{Workers: 1}, pool.Grant{Iterations: pool.MinIterations, Level: 5}},
				{"halved", HardConfig{Iterations: 4000, Workers: 1}, pool.Grant{Iterations: 2000, Level: 1}},
				{"over a time budget", HardConfig{Duration: time.Hour, Workers: 1}, pool.Grant{Iterations: 300, Level: 3}},
			} {
				var first game.Move
				for run := range 2 {
					ctx := pool.WithGrant(context.Background(), c.g)
					m, err := NewHard(11, c.cfg).Choose(ctx, e, v)
					if err != nil {
						t.Fatalf("%s move %d %s: %v", e.Name(), moves, c.name, err)
					}
					if !legalContains(st, s, m) {
						t.Fatalf("%s move %d %s: illegal move %s", e.Name(), moves, c.name, st.FormatMove(m))
					}
					if n, ok := pool.SpentFrom(ctx); !ok || n != c.g.Iterations {
						t.Fatalf("%s move %d %s: searched %d iterations (reported %v), granted %d", e.Name(), moves, c.name, n, ok, c.g.Iterations)
					}
					if run == 0 {
						first = m
					} else if m != first {
						t.Fatalf("%s move %d %s: %s then %s for the same seed and grant", e.Name(), moves, c.name, st.FormatMove(first), st.FormatMove(m))
					}
				}
			}
		}
	}
}

// TestHintsShareThePoolBudget: a hint computed on a busy pool is granted
// the reduced budget too (its visits add up to the grant), and the pool's
// histogram counts the iterations of bot moves and hints alike.
func TestHintsShareThePoolBudget(t *testing.T) {
	e := engines()[0]
	st := position(t, e, game.Options{"players": "4"}, 3, 6)
	v := st.View(st.ToAct(nil)[0])
	p := pool.NewWithBudget(1, 8, pool.Budget{Full: 2000, Min: 500})
	block, started := make(chan struct{}), make(chan struct{})
	p.Submit(context.Background(), func(context.Context) { close(started); <-block })
	<-started
	h := NewHard(3, HardConfig{Workers: 1})
	visits := make(chan int, 2)
	hint := func(ctx context.Context) {
		rs, err := h.Hint(ctx, e, v)
		if err != nil {
			t.Error(err)
		}
		n := 0
		for _, r := range rs {
			n += r.Visits
		}
		visits <- n
	}
	p.Submit(context.Background(), hint) // one job waits behind it: half
	p.Submit(context.Background(), hint) // nothing waits: full
	close(block)
	p.Close()
	if a, b := <-visits, <-visits; a != 1000 || b != 2000 {
		t.Errorf("hint visits %d then %d, want 1000 (busy) then 2000 (idle)", a, b)
	}
	var out strings.Builder
	p.WriteMetrics(&out)
	if !strings.Contains(out.String(), "cardroom_bot_iterations_sum 3000\n") || !strings.Contains(out.String(), "cardroom_bot_iterations_count 2\n") {
		t.Errorf("iterations histogram does not count the two hints:\n%s", out.String())
	}
}

// BenchmarkPoolBurst: a burst of 8 hard-bot decisions (the first trick of a
// 4-player Papayoo round) on a pool of one worker, with the budget (4,000
// iterations halved down to 1,000 while others wait) and without it (every
// search takes 4,000). ms/burst is how long the last table of the burst
// waits for its move.
func BenchmarkPoolBurst(b *testing.B) {
	e := engines()[0]
	st := position(b, e, game.Options{"players": "4", "rounds": "1"}, 3, 6)
	v := st.View(st.ToAct(nil)[0])
	for _, c := range []struct {
		name   string
		budget pool.Budget
	}{{"budget", pool.Budget{Full: 4000, Min: 1000}}, {"none", pool.Budget{}}} {
		b.Run(c.name, func(b *testing.B) {
			p := pool.NewWithBudget(1, 16, c.budget)
			defer p.Close()
			h := NewHard(1, HardConfig{Iterations: 4000, Workers: 1})
			for b.Loop() {
				done := make(chan struct{}, 8)
				for range 8 {
					p.Submit(context.Background(), func(ctx context.Context) {
						h.Choose(ctx, e, v)
						done <- struct{}{}
					})
				}
				for range 8 {
					<-done
				}
			}
		})
	}
}
