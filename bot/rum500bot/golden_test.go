package rum500bot_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardroom/bot"
	"cardroom/bot/ismcts"
	"cardroom/bot/rum500bot"
	"cardroom/game"
	"cardroom/games/rum500"
)

var update = flag.Bool("update", false, "rewrite testdata/hard_moves.golden from the current search")

// goldenOptions are the tables the golden positions come from: every stock
// rule, two decks with jokers, must_discard_to_go_out and top_discard_free,
// two to five players. A low target gives games of several hands, so later
// hands (round scores, a dealer that moved on) are among the positions.
var goldenOptions = []string{
	"players=2 target=150",
	"players=3 top_discard_free=true target=100",
	"players=4 jokers=2 stock_exhausted=turn_over_discards target=100",
	"players=2 two_player_hand=10 decks=2 jokers=2 must_discard_to_go_out=true stock_exhausted=turn_over_discards target=150",
	"players=3 stock_exhausted=end_immediately go_out_bonus=25 target=100",
	"players=5 jokers=2 target=100",
	"players=2 stock_exhausted=turn_over_discards target=100", // hoarded until the stock runs out
}

// goldenView is a position the hard bot decides in.
type goldenView struct {
	name string
	v    *rum500.View
}

// goldenPositions plays one game per option set with a mix of the
// rule-based player (so melds reach the table and the pile is dug into) and
// random moves, and keeps a view of the seat to act at every fifth decision
// that has a choice. In the last game nobody melds until the stock has run
// out and the pile has been turned over, so that case is covered too.
func goldenPositions(t *testing.T) []goldenView {
	t.Helper()
	var out []goldenView
	for gi, opts := range goldenOptions {
		o, err := game.ParseOptions(opts)
		if err != nil {
			t.Fatal(err)
		}
		st, err := rum500.Engine{}.New(o)
		if err != nil {
			t.Fatal(err)
		}
		r := game.NewRand(uint64(100 + gi))
		in := &rum500bot.Info{OppMin: 99}
		hoard := gi == len(goldenOptions)-1
		var legal []game.Move
		for step, kept := 0, 0; !st.Over() && kept < 12 && step < 3000; step++ {
			if st.ChancePending() {
				st.RollChance(&r)
				continue
			}
			s := st.ToAct(nil)[0]
			legal = st.Legal(s, legal[:0])
			v := st.View(s).(*rum500.View)
			if len(legal) > 1 && step%5 == 0 && (!hoard || v.TurnedOver) {
				out = append(out, goldenView{fmt.Sprintf("%d/%d", gi, step), v})
				kept++
			}
			m := legal[r.IntN(len(legal))]
			if hoard && !v.TurnedOver {
				m = hoardMove(legal, &r)
			} else if r.IntN(4) != 0 {
				m = rum500bot.Choose(legal, in, &r, false)
			}
			if err := st.Apply(s, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// hoardMove draws from the stock, or discards at random, when it can.
func hoardMove(legal []game.Move, r *game.Rand) game.Move {
	var disc []game.Move
	for _, m := range legal {
		switch m.Op {
		case rum500.OpDraw:
			return m
		case rum500.OpDiscard:
			disc = append(disc, m)
		}
	}
	if len(disc) > 0 {
		return disc[r.IntN(len(disc))]
	}
	return legal[r.IntN(len(legal))]
}

// hardRecord is what the search decides at one position: the hard bot's
// move (one worker, and two workers), and the root visits of a direct
// search, which any change to a determinization, a playout or a reward
// would move.
func hardRecord(t *testing.T, g goldenView) string {
	t.Helper()
	e := rum500.Engine{}
	ctx := context.Background()
	var parts []string
	for _, workers := range []int{1, 2} {
		m, err := bot.NewHard(7, bot.HardConfig{Iterations: 200, Workers: workers}).Choose(ctx, e, g.v)
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		parts = append(parts, rum500.FormatMove(m))
	}
	cfg := ismcts.Config{Iterations: 300, Workers: 1, Seed: 11}
	rum500bot.Configure(&cfg)
	res, err := ismcts.Search(ctx, e, g.v, func() ismcts.Domain { return rum500bot.NewDomain(g.v) }, cfg)
	if err != nil {
		t.Fatalf("%s: %v", g.name, err)
	}
	var visits []string
	for _, ms := range res.Moves {
		if ms.Visits > 0 {
			visits = append(visits, fmt.Sprintf("%s=%d", ms.Text, ms.Visits))
		}
	}
	parts = append(parts, strings.Join(visits, ", "))
	return g.name + " " + g.v.Phase + " | " + strings.Join(parts, " | ")
}

// TestHardMovesGolden: the hard bot's moves and the search's root visits on
// positions from six games are those recorded in testdata/hard_moves.golden
// before the search's allocations were removed (the Sampler, the native
// playout): the rewrite changed no decision. Rewrite the file with -update
// only for a change meant to alter the bot's play.
func TestHardMovesGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("searches ~60 positions")
	}
	pos := goldenPositions(t)
	// The positions must cover what the sampler and the playout deal with.
	var draw, play, turned, known, later int
	for _, g := range pos {
		switch g.v.Phase {
		case "draw":
			draw++
		case "play":
			play++
		}
		if g.v.TurnedOver {
			turned++
		}
		for i, k := range g.v.Known {
			if i != int(g.v.Seat) && k.Count() > 0 {
				known++
				break
			}
		}
		if g.v.Round > 1 {
			later++
		}
	}
	t.Logf("%d positions: %d draw, %d play, %d with the pile turned over, %d with known opponent cards, %d after the first hand", len(pos), draw, play, turned, known, later)
	if draw == 0 || play == 0 || turned == 0 || known == 0 || later == 0 {
		t.Fatalf("the positions miss a case (draw %d, play %d, turned %d, known %d, later hands %d)", draw, play, turned, known, later)
	}
	var got []string
	for _, g := range pos {
		got = append(got, hardRecord(t, g))
	}
	path := filepath.Join("testdata", "hard_moves.golden")
	text := strings.Join(got, "\n") + "\n"
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	wl := strings.Split(strings.TrimSuffix(string(want), "\n"), "\n")
	if len(wl) != len(got) {
		t.Fatalf("%d positions, the golden file has %d", len(got), len(wl))
	}
	for i := range got {
		if got[i] != wl[i] {
			t.Errorf("position %d:\n got %s\nwant %s", i, got[i], wl[i])
		}
	}
}
