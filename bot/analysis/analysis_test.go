package analysis

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"cardroom/bot"
	"cardroom/game"
	"cardroom/games"
	_ "cardroom/games/all"
	"cardroom/games/pisyedili"
	"cardroom/record"
)

func load(t *testing.T, path string) (game.Engine, *record.Record) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := record.ParseString(string(data))
	if err != nil {
		t.Fatal(err)
	}
	return engineOf(t, rec), rec
}

func engineOf(t *testing.T, rec *record.Record) game.Engine {
	t.Helper()
	name, _ := rec.Get("Game")
	e, err := games.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func analyse(t *testing.T, e game.Engine, rec *record.Record, seat game.Seat, cfg Config) *Analysis {
	t.Helper()
	a, err := Analyse(context.Background(), e, rec, seat, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func decisionAt(t *testing.T, a *Analysis, step int) Decision {
	t.Helper()
	for _, d := range a.Decisions {
		if d.Step == step {
			return d
		}
	}
	t.Fatalf("no decision at step %d in %+v", step, a.Decisions)
	return Decision{}
}

// lastStep is the 1-based number of the record's last entry.
func lastStep(rec *record.Record) int { return len(rec.Entries) }

// pisBlunder builds a Pis Yedili position where seat 0 could go out and
// does not: four medium bots play a hand from a fixed seed until seat 0
// holds one card that it may play; the record is cut there and seat 0
// draws instead. Going out scores 0 and makes the others pay; drawing
// leaves two cards in hand and the hand goes on, so the draw is the
// clearly losing move.
func pisBlunder(t *testing.T) (game.Engine, *record.Record) {
	t.Helper()
	e, err := games.Lookup("pisyedili")
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed < 40; seed++ {
		o := game.Options{"players": "4", "hands": "1"}
		st, err := e.New(o)
		if err != nil {
			t.Fatal(err)
		}
		rc := record.NewRecorder(e, st.Options(), []string{"a", "b", "c", "d"}, "")
		bots := make([]bot.Bot, 4)
		for i := range bots {
			bots[i], _ = bot.New("medium", seed*10+uint64(i))
		}
		rng := game.NewRand(seed)
		var cut *record.Record
		_, err = record.PlayWith(st, &rng, func(st game.State, s game.Seat) (game.Move, error) {
			v := st.View(s).(*pisyedili.View)
			if s == 0 && cut == nil && v.Hand.Len() == 1 {
				var draw, play bool
				for _, m := range st.Legal(0, nil) {
					draw = draw || st.FormatMove(m) == "draw"
					play = play || strings.HasPrefix(st.FormatMove(m), "play")
				}
				if draw && play {
					c := *rc.Rec
					c.Entries = append(append([]record.Entry(nil), rc.Rec.Entries...), record.Entry{Seat: 0, Text: "draw"})
					cut = &c
				}
			}
			return bots[s].Choose(context.Background(), e, v)
		}, rc, 5000)
		if err != nil && cut == nil {
			t.Fatal(err)
		}
		if cut != nil {
			return e, cut
		}
	}
	t.Fatal("no seed gave seat 0 a last card to play")
	return nil, nil
}

// TestBlunderIsTheBiggestMistake: on positions where one move is clearly
// losing, that move is marked first.
func TestBlunderIsTheBiggestMistake(t *testing.T) {
	pe, prec := load(t, "testdata/papayoo-blunder.rec")
	ye, yrec := pisBlunder(t)
	re, rrec := load(t, "testdata/rum500-blunder.rec")
	for _, tc := range []struct {
		name    string
		e       game.Engine
		rec     *record.Record
		minLoss float64
	}{
		// testdata/papayoo-blunder.rec: seat 0 takes the 40-point Papayoo
		// with 10S where 4S ducks under seat 2's 9S.
		{"papayoo", pe, prec, 25},
		// pisBlunder: seat 0 draws instead of going out.
		{"pisyedili", ye, yrec, 10},
		// testdata/rum500-blunder.rec: seat 0 draws the last stock card
		// and discards with three kings in hand, which ends the hand
		// (end_immediately) with the kings counted against it: some 66
		// points worse than melding them first.
		{"rum500", re, rrec, 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := analyse(t, tc.e, tc.rec, 0, Config{Seed: 1, Budget: 300})
			step := lastStep(tc.rec)
			d := decisionAt(t, a, step)
			if len(a.Mistakes) == 0 || a.Mistakes[0] != step {
				t.Fatalf("mistakes %v, want step %d (%s, loss %.1f ± %.1f) first", a.Mistakes, step, d.Move, d.Loss, d.StdErr)
			}
			t.Logf("%s: step %d %s, best %s, loss %.1f ± %.1f, mistakes %v", tc.name, step, d.Move, d.Best, d.Loss, d.StdErr, a.Mistakes)
			if !d.Mistake || d.Loss < tc.minLoss || d.Best == d.Move {
				t.Errorf("blunder %+v: want a marked mistake losing at least %.0f", d, tc.minLoss)
			}
			if worse := d.Value > d.BestV; a.LowerIsBetter != worse {
				t.Errorf("the blunder's value %.1f should be worse than the best's %.1f (lower is better: %v)", d.Value, d.BestV, a.LowerIsBetter)
			}
		})
	}
}

// TestHiddenCardsDoNotMatter: two records that differ only in cards seat 0
// never saw give the same analysis.
func TestHiddenCardsDoNotMatter(t *testing.T) {
	pe, prec := load(t, "testdata/papayoo-blunder.rec")
	// Seat 1's 8D and seat 2's 3C are never passed nor played, and
	// swapping them keeps every move legal (seat 2 shows a heart void in
	// both: it follows neither).
	swapped := swapInDeal(t, prec, "8D", "3C")
	ye, yrec := pisBlunder(t)
	// The last two cards of the stock are never drawn before the cut.
	yswapped := swapStockTail(t, yrec)
	// Nor are some cards of two other seats, never played before the cut.
	yhands := swapUnplayed(t, ye, yrec)
	for _, tc := range []struct {
		name string
		e    game.Engine
		a, b *record.Record
	}{
		{"papayoo", pe, prec, swapped},
		{"pisyedili stock", ye, yrec, yswapped},
		{"pisyedili hands", ye, yrec, yhands},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.a.String() == tc.b.String() {
				t.Fatal("the records are the same")
			}
			if _, err := record.Replay(tc.e, tc.b, nil); err != nil {
				t.Fatalf("the edited record does not replay: %v", err)
			}
			cfg := Config{Seed: 5, Budget: 60}
			ja, _ := json.Marshal(analyse(t, tc.e, tc.a, 0, cfg))
			jb, _ := json.Marshal(analyse(t, tc.e, tc.b, 0, cfg))
			if !bytes.Equal(ja, jb) {
				t.Errorf("the analyses differ:\n%s\n%s", ja, jb)
			}
			// And the other seats, who saw those cards, may see a
			// difference: not asserted (it depends on the position), but
			// the same seed on the same record is the same analysis.
			jc, _ := json.Marshal(analyse(t, tc.e, tc.a, 0, cfg))
			if !bytes.Equal(ja, jc) {
				t.Errorf("the same record and seed gave two analyses")
			}
		})
	}
}

func swapInDeal(t *testing.T, rec *record.Record, a, b string) *record.Record {
	t.Helper()
	return editDeal(t, rec, func(f []string) {
		for j, w := range f {
			switch w {
			case a:
				f[j] = b
			case b:
				f[j] = a
			}
		}
	})
}

// editDeal returns a copy of rec whose deal has every line's words edited.
func editDeal(t *testing.T, rec *record.Record, edit func(words []string)) *record.Record {
	t.Helper()
	out := &record.Record{Tags: rec.Tags, Entries: append([]record.Entry(nil), rec.Entries...)}
	for i, en := range out.Entries {
		if !en.Chance || !strings.HasPrefix(en.Text, "deal\n") {
			continue
		}
		lines := strings.Split(en.Text, "\n")
		for k, l := range lines {
			f := strings.Fields(l)
			edit(f)
			lines[k] = strings.Join(f, " ")
		}
		out.Entries[i].Text = strings.Join(lines, "\n")
		return out
	}
	t.Fatal("no deal in the record")
	return nil
}

// swapUnplayed swaps a card of one other seat's hand in the deal for one
// of another's, two cards that no move of the record names (so their
// holders never played them), such that the record still replays.
func swapUnplayed(t *testing.T, e game.Engine, rec *record.Record) *record.Record {
	t.Helper()
	named := map[string]bool{}
	var hands map[string][]string
	for _, en := range rec.Entries {
		if en.Chance && strings.HasPrefix(en.Text, "deal\n") {
			hands = map[string][]string{}
			for _, l := range strings.Split(en.Text, "\n") {
				if f := strings.Fields(l); len(f) > 1 {
					hands[f[0]] = f[1:]
				}
			}
			continue
		}
		if !en.Chance {
			for _, w := range strings.Fields(en.Text) {
				named[w] = true
			}
		}
	}
	mine := map[string]bool{}
	for _, c := range hands["0:"] {
		mine[c] = true
	}
	seats := []string{"1:", "2:", "3:"}
	for i, a := range seats {
		for _, b := range seats[i+1:] {
			for _, x := range hands[a] {
				for _, y := range hands[b] {
					if x == y || named[x] || named[y] || mine[x] || mine[y] {
						continue
					}
					done := map[string]bool{}
					out := editDeal(t, rec, func(f []string) {
						if len(f) == 0 || (f[0] != a && f[0] != b) {
							return
						}
						from, to := x, y
						if f[0] == b {
							from, to = y, x
						}
						for j, w := range f {
							if w == from && !done[f[0]] {
								f[j], done[f[0]] = to, true
							}
						}
					})
					if _, err := record.Replay(e, out, nil); err == nil {
						return out
					}
				}
			}
		}
	}
	t.Fatal("no pair of unplayed cards to swap")
	return nil
}

func swapStockTail(t *testing.T, rec *record.Record) *record.Record {
	t.Helper()
	return editDeal(t, rec, func(f []string) {
		if len(f) < 4 || f[0] != "stock" {
			return
		}
		n := len(f)
		for k := n - 2; k > 0; k-- {
			if f[k] != f[n-1] {
				f[k], f[n-1] = f[n-1], f[k]
				return
			}
		}
	})
}

// TestDeterministic: the same record and seed give the same JSON, whatever
// else ran before; the shape has every documented field.
func TestDeterministic(t *testing.T) {
	e, rec := load(t, "testdata/papayoo-blunder.rec")
	cfg := Config{Seed: 9, Budget: 40}
	j1, _ := json.Marshal(analyse(t, e, rec, 0, cfg))
	analyse(t, e, rec, 1, Config{Seed: 3, Budget: 20}) // something else in between
	j2, _ := json.Marshal(analyse(t, e, rec, 0, cfg))
	if !bytes.Equal(j1, j2) {
		t.Fatalf("two runs differ:\n%s\n%s", j1, j2)
	}
	var m map[string]any
	if err := json.Unmarshal(j1, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"version", "game", "seat", "seed", "budget", "unit", "lower_is_better", "threshold", "decisions", "mistakes", "total_loss"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %q in %s", k, j1)
		}
	}
	a := analyse(t, e, rec, 0, cfg)
	if a.Decisions[0].Legal < 1000 || !a.Decisions[0].Pruned || len(a.Decisions[0].Moves) > MaxCandidates {
		t.Errorf("the pass: %+v, want a pruned decision of at most %d candidates", a.Decisions[0], MaxCandidates)
	}
}

// TestForcedAndBadInput: a single legal move is listed as forced, and a
// bad seat or budget is an error.
func TestForcedAndBadInput(t *testing.T) {
	e, rec := load(t, "testdata/papayoo-blunder.rec")
	// A Pis Yedili hand has forced moves (a pass after a draw that does
	// not match, a draw with nothing to play).
	ye, yrec := pisBlunder(t)
	forced := 0
	for _, d := range analyse(t, ye, yrec, 0, Config{Seed: 1, Budget: 10}).Decisions {
		if d.Forced != (d.Legal == 1) || d.Forced && (d.Loss != 0 || len(d.Moves) != 0) {
			t.Errorf("decision %+v: forced must mean one legal move, not evaluated", d)
		}
		if d.Forced {
			forced++
		}
	}
	if forced == 0 {
		t.Error("no forced decision listed")
	}
	for _, tc := range []struct {
		name string
		seat game.Seat
		cfg  Config
	}{
		{"seat too high", 3, Config{}},
		{"negative seat", -1, Config{}},
		{"negative budget", 0, Config{Budget: -1}},
		{"huge budget", 0, Config{Budget: MaxBudget + 1}},
	} {
		if _, err := Analyse(context.Background(), e, rec, tc.seat, tc.cfg); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	bad := &record.Record{Tags: rec.Tags, Entries: append(append([]record.Entry(nil), rec.Entries...), record.Entry{Seat: 0, Text: "play 99Z"})}
	if _, err := Analyse(context.Background(), e, bad, 0, Config{}); err == nil {
		t.Error("a record that does not replay: no error")
	}
}

// TestStandInMovesAreNotThePlayers: a move a bot made for the player
// (Config.StandIn) is listed with its mark and not rated, so the blunder
// it is in each position (the Papayoo 10S, the 500 Rum discard) is never
// the player's mistake nor part of the total loss; the other decisions
// are rated exactly as without the mark; a bad mark is refused.
func TestStandInMovesAreNotThePlayers(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		by         game.By
	}{
		{"papayoo away", "testdata/papayoo-blunder.rec", game.ByAway},
		{"rum500 timeout", "testdata/rum500-blunder.rec", game.ByTimeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, rec := load(t, tc.path)
			step := lastStep(rec)
			cfg := Config{Seed: 1, Budget: 100}
			plain := analyse(t, e, rec, 0, cfg)
			cfg.StandIn = map[int]game.By{step: tc.by}
			marked := analyse(t, e, rec, 0, cfg)
			d := decisionAt(t, marked, step)
			if d.By != string(tc.by) || d.Mistake || d.Loss != 0 || len(d.Moves) != 0 || d.Best != "" {
				t.Errorf("the stand-in's decision %+v: want by %q, not rated, no mistake", d, tc.by)
			}
			for _, s := range marked.Mistakes {
				if s == step {
					t.Errorf("the stand-in's move is among the mistakes %v", marked.Mistakes)
				}
			}
			if want := round2(plain.TotalLoss - decisionAt(t, plain, step).Loss); marked.TotalLoss != want {
				t.Errorf("total loss %.2f with the stand-in's move, want %.2f (%.2f without its loss)", marked.TotalLoss, want, plain.TotalLoss)
			}
			if len(marked.Decisions) != len(plain.Decisions) {
				t.Fatalf("%d decisions marked, %d plain", len(marked.Decisions), len(plain.Decisions))
			}
			for i, p := range plain.Decisions {
				if m := marked.Decisions[i]; p.Step != step && (m.Loss != p.Loss || m.Best != p.Best || m.By != "") {
					t.Errorf("decision %d changed by the mark: %+v, was %+v", p.Step, m, p)
				}
			}
		})
	}
	e, rec := load(t, "testdata/papayoo-blunder.rec")
	for _, bad := range []map[int]game.By{{0: game.ByAway}, {3: "bot"}, {3: ""}} {
		if _, err := Analyse(context.Background(), e, rec, 0, Config{StandIn: bad}); err == nil {
			t.Errorf("stand-in marks %v: no error", bad)
		}
	}
}

// TestChunkGivesWay: with one thread for goroutines, an analysis chunk
// gives it up after every sample, so a goroutine that wants it runs about
// once a sample: a chunk on a server's bot pool (tens of milliseconds)
// does not hold up the tables' goroutines until the runtime preempts it.
func TestChunkGivesWay(t *testing.T) {
	e, rec := load(t, "testdata/papayoo-blunder.rec")
	j, err := Prepare(e, rec, 0, Config{Seed: 1, Budget: 200})
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var ran atomic.Int64
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			ran.Add(1)
			runtime.Gosched()
		}
	}()
	runtime.Gosched() // the other goroutine starts
	before := ran.Load()
	chunks := 0
	for ; chunks < 3 && !j.Done(); chunks++ {
		if err := j.Next(); err != nil {
			t.Fatal(err)
		}
	}
	during := ran.Load() - before
	stop.Store(true)
	<-done
	if want := int64(chunks * ChunkSamples / 4); chunks == 0 || during < want {
		t.Errorf("the other goroutine ran %d times during %d chunks, want at least %d", during, chunks, want)
	}
}
