package bot

import (
	"context"
	"errors"
	"testing"
	"time"

	"cardroom/game"
	"cardroom/games/papayoo"
)

// position plays a game of e with options o from seed until a seat must
// move after `moves` moves, with random moves, and returns it.
func position(t testing.TB, e game.Engine, o game.Options, seed uint64, moves int) game.State {
	t.Helper()
	st, err := e.New(o)
	if err != nil {
		t.Fatal(err)
	}
	r := game.NewRand(seed)
	for n := 0; !st.Over(); {
		if st.ChancePending() {
			st.RollChance(&r)
			continue
		}
		s := st.ToAct(nil)[0]
		if n == moves {
			return st
		}
		l := st.Legal(s, nil)
		if err := st.Apply(s, l[r.IntN(len(l))]); err != nil {
			t.Fatal(err)
		}
		n++
	}
	t.Fatalf("game over before move %d", moves)
	return nil
}

func legalContains(st game.State, s game.Seat, m game.Move) bool {
	for _, x := range st.Legal(s, nil) {
		if x == m {
			return true
		}
	}
	return false
}

// TestLevelsPlayLegalMoves: every level returns a legal move for the seat
// to act, in every registered game, and is deterministic for a seed.
func TestLevelsPlayLegalMoves(t *testing.T) {
	for _, e := range engines() {
		o := game.Options{"players": "4"}
		for _, moves := range []int{0, 3, 9, 30} {
			st := position(t, e, o, uint64(moves)+1, moves)
			s := st.ToAct(nil)[0]
			v := st.View(s)
			for _, lvl := range []string{"random", "easy", "medium", "hard"} {
				mk := func() Bot {
					if lvl == "hard" {
						return NewHard(5, HardConfig{Iterations: 300, Workers: 2})
					}
					b, err := New(lvl, 5)
					if err != nil {
						t.Fatal(err)
					}
					return b
				}
				m1, err := mk().Choose(context.Background(), e, v)
				if err != nil {
					t.Fatalf("%s %s move %d: %v", e.Name(), lvl, moves, err)
				}
				if !legalContains(st, s, m1) {
					t.Fatalf("%s %s move %d: illegal move %s", e.Name(), lvl, moves, st.FormatMove(m1))
				}
				m2, _ := mk().Choose(context.Background(), e, v)
				if m1 != m2 {
					t.Fatalf("%s %s move %d: not deterministic: %s then %s", e.Name(), lvl, moves, st.FormatMove(m1), st.FormatMove(m2))
				}
			}
		}
	}
}

// TestHardHint: the hint rates the legal moves best first, its first move
// is the one Choose plays with the same seed and budget, and the visits
// add up to the budget.
func TestHardHint(t *testing.T) {
	e := game.Engine(papayoo.Engine{})
	st := position(t, e, game.Options{"players": "4", "rounds": "1"}, 3, 6) // trick play
	s := st.ToAct(nil)[0]
	v := st.View(s)
	var h Hinter = NewHard(9, HardConfig{Iterations: 2000, Workers: 2})
	rs, err := h.Hint(context.Background(), e, v)
	if err != nil {
		t.Fatal(err)
	}
	legal := st.Legal(s, nil)
	if len(rs) != len(legal) {
		t.Fatalf("hint rates %d moves, %d are legal", len(rs), len(legal))
	}
	total := 0
	for i, r := range rs {
		if _, err := st.ParseMove(r.Move); err != nil {
			t.Fatalf("hint move %q: %v", r.Move, err)
		}
		if i > 0 && r.Visits > rs[i-1].Visits {
			t.Fatalf("hint not sorted by visits: %+v", rs)
		}
		if r.Value < 0 || r.Value > 1 {
			t.Fatalf("value %v outside [0,1]", r.Value)
		}
		total += r.Visits
	}
	if total != 2000 {
		t.Fatalf("visits add up to %d, want 2000", total)
	}
	m, err := NewHard(9, HardConfig{Iterations: 2000, Workers: 2}).Choose(context.Background(), e, v)
	if err != nil {
		t.Fatal(err)
	}
	if st.FormatMove(m) != rs[0].Move {
		t.Fatalf("Choose played %s, the hint's best is %s", st.FormatMove(m), rs[0].Move)
	}
}

// TestHardRespectsContext: a cancelled context stops the bot; a deadline
// bounds its time even with a huge iteration budget.
func TestHardRespectsContext(t *testing.T) {
	e := game.Engine(papayoo.Engine{})
	st := position(t, e, game.Options{"players": "4", "rounds": "1"}, 3, 5)
	v := st.View(st.ToAct(nil)[0])
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewHard(1, HardConfig{}).Choose(ctx, e, v); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: err = %v", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := NewHard(1, HardConfig{Iterations: 1 << 30}).Choose(ctx, e, v); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > time.Second { // generous: the machine may be busy
		t.Fatalf("deadline 100ms, took %s", el)
	}
	start = time.Now()
	if _, err := NewHard(1, HardConfig{Duration: 50 * time.Millisecond}).Choose(context.Background(), e, v); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > time.Second {
		t.Fatalf("budget 50ms, took %s", el)
	}
}

func TestParseSpec(t *testing.T) {
	for _, c := range []struct {
		in, out string
		ok      bool
	}{
		{"hard", "hard", true},
		{"hard:2000", "hard:2000", true},
		{"hard:200ms", "hard:200ms", true},
		{"medium", "medium", true},
		{"medium:20", "", false},
		{"hard:x", "", false},
		{"expert", "", false},
	} {
		sp, err := ParseSpec(c.in)
		if (err == nil) != c.ok {
			t.Fatalf("ParseSpec(%q) err = %v", c.in, err)
		}
		if c.ok && sp.String() != c.out {
			t.Fatalf("ParseSpec(%q) = %q", c.in, sp.String())
		}
	}
	for _, l := range []string{"random", "easy", "medium", "hard"} {
		if _, err := New(l, 1); err != nil {
			t.Fatalf("level %s not registered: %v", l, err)
		}
	}
}

// FuzzParseSpec: a spec that parses prints back to a spec that parses to
// the same value, and a level that parses is registered.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"hard", "hard:2000", "hard:200ms", "medium", "easy", "random", "hard:", "hard:-5", "x:1", ":"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := ParseSpec(s)
		if err != nil {
			return
		}
		back, err := ParseSpec(sp.String())
		if err != nil || back != sp {
			t.Fatalf("%q → %+v → %q → %+v, %v", s, sp, sp.String(), back, err)
		}
		if _, err := New(sp.Level, 1); err != nil {
			t.Fatalf("%q parsed to unknown level %q", s, sp.Level)
		}
	})
}
