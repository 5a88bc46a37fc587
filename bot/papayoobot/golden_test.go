package papayoobot_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"strconv"
	"testing"

	"cardroom/bot"
	"cardroom/bot/papayoobot"
	"cardroom/game"
	"cardroom/games/papayoo"
)

// goldenBotHash is the digest of the easy and medium rule-based moves, of
// determinizations and of hard-bot moves over random games of every size,
// recorded from the bots before the views became typed: the bots must keep
// choosing the same moves for the same views and seeds.
const goldenBotHash = "4e3c92e8976a9f86"

func TestGoldenMoves(t *testing.T) {
	h := fnv.New64a()
	e := papayoo.Engine{}
	positions := 0
	sizes := []int{3, 4, 5, 6, 7, 8}
	randomGames(t, sizes, game.Options{"first_dealer": "0"}, true, func(n, step int, st game.State, s game.Seat, legal []game.Move) {
		v := st.View(s)
		for _, easy := range []bool{true, false} {
			rr := game.NewRand(uint64(step))
			m := papayoobot.Rule(v, legal, &rr, easy)
			fmt.Fprintf(h, "%d %d %v %s\n", n, step, easy, st.FormatMove(m))
		}
		for k := 0; k < 2; k++ {
			rr := game.NewRand(uint64(step*7 + k))
			smp, err := e.Sample(v, &rr)
			if err != nil {
				t.Fatalf("players %d step %d: %v", n, step, err)
			}
			ps := smp.(*papayoo.State)
			for j := 0; j < n; j++ {
				fmt.Fprintf(h, "%x %x ", ps.Hand(j), ps.PassOf(j))
			}
			fmt.Fprintln(h)
		}
		if step%9 == 0 {
			m, err := bot.NewHard(uint64(step), bot.HardConfig{Iterations: 150, Workers: 1}).Choose(context.Background(), e, v)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(h, "hard %s\n", st.FormatMove(m))
		}
		positions++
	})
	if positions < 100 {
		t.Fatalf("only %d positions", positions)
	}
	if got := fmt.Sprintf("%x", h.Sum64()); got != goldenBotHash {
		t.Fatalf("bot moves and samples digest %s, recorded %s", got, goldenBotHash)
	}
}

// randomGames plays one round of Papayoo for each number of players with
// uniformly random moves (the generator seeded with the number of
// players), and calls visit at every decision before the move is made: for
// the last seat to act when last is set, else the first. The bots' tests
// walk the same positions so that their goldens stay comparable.
func randomGames(t *testing.T, sizes []int, extra game.Options, last bool, visit func(n, step int, st game.State, s game.Seat, legal []game.Move)) {
	t.Helper()
	e := papayoo.Engine{}
	for _, n := range sizes {
		opts := game.Options{"players": strconv.Itoa(n), "rounds": "1"}
		for k, v := range extra {
			opts[k] = v
		}
		st, err := e.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		r := game.NewRand(uint64(n))
		for step := 0; !st.Over(); step++ {
			if st.ChancePending() {
				st.RollChance(&r)
				continue
			}
			seats := st.ToAct(nil)
			s := seats[0]
			if last {
				s = seats[len(seats)-1]
			}
			legal := st.Legal(s, nil)
			visit(n, step, st, s, legal)
			if err := st.Apply(s, legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}
