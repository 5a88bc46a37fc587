package ceiling

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"cardroom/bot"
	"cardroom/bot/ismcts"
	"cardroom/bot/kit"
	"cardroom/game"
	"cardroom/games"
	_ "cardroom/games/all" // the games of this build, with their bots
	"cardroom/record"
)

// dealOptions are one deal of a game (the arena's unit) at a small table.
func dealOptions(t *testing.T, name string) (game.Engine, game.Options) {
	t.Helper()
	g, err := games.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	o := g.Deal.Clone()
	if _, ok := o["players"]; !ok {
		o["players"] = "4"
	}
	if name == "rum500" {
		o["players"], o["target"] = "2", "1" // one hand
	}
	return g.Engine, o
}

// dealt is a deal of a game with its chance rolled from seed: the first
// seat is to act.
func dealt(t *testing.T, name string, seed uint64) game.State {
	t.Helper()
	e, o := dealOptions(t, name)
	st, err := e.New(o)
	if err != nil {
		t.Fatal(err)
	}
	r := game.NewRand(seed)
	for st.ChancePending() {
		st.RollChance(&r)
	}
	return st
}

// play plays one deal with a ceiling bot in every seat, checking that every
// move it chooses is in the seat's legal list, and returns the moves played.
func play(t *testing.T, name string, seed uint64, iters int) []string {
	t.Helper()
	e, o := dealOptions(t, name)
	st, err := e.New(o)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]*Bot, st.Seats())
	for s := range bots {
		bots[s] = New(seed*31+uint64(s), iters)
	}
	var moves []string
	chance := game.NewRand(seed)
	choose := func(st game.State, s game.Seat) (game.Move, error) {
		m, err := bots[s].Choose(context.Background(), st, s)
		if err != nil {
			return m, err
		}
		if !slices.Contains(st.Legal(s, nil), m) {
			t.Fatalf("%s seed %d: seat %d chose %s, not a legal move", name, seed, s, st.FormatMove(m))
		}
		moves = append(moves, st.FormatMove(m))
		return m, nil
	}
	// Rule-based playouts may draw for a long time in Pis Yedili: a bounded
	// game is enough to check legality.
	if _, err := record.PlayWith(st, &chance, choose, nil, 600); err != nil && !errors.Is(err, record.ErrMaxSteps) {
		t.Fatalf("%s seed %d: %v", name, seed, err)
	}
	if len(moves) == 0 {
		t.Fatalf("%s seed %d: no move played", name, seed)
	}
	return moves
}

// TestLegalInEveryGame: over seeds, the ceiling bot plays only legal moves
// in every game, in every seat.
func TestLegalInEveryGame(t *testing.T) {
	for _, name := range games.Names() {
		t.Run(name, func(t *testing.T) {
			for seed := uint64(1); seed <= 3; seed++ {
				play(t, name, seed, 40)
			}
		})
	}
}

// TestDeterministic: the same seeds and budget play the same game.
func TestDeterministic(t *testing.T) {
	for _, name := range games.Names() {
		t.Run(name, func(t *testing.T) {
			a, b := play(t, name, 5, 60), play(t, name, 5, 60)
			if !slices.Equal(a, b) {
				t.Fatalf("two games with the same seed differ:\n%v\n%v", a, b)
			}
		})
	}
}

// TestStateUnchanged: Choose searches copies; the state it is handed is the
// same afterwards, for every observer.
func TestStateUnchanged(t *testing.T) {
	for _, name := range games.Names() {
		t.Run(name, func(t *testing.T) {
			st := dealt(t, name, 3)
			views := func() string {
				var sb strings.Builder
				for s := game.Spectator; int(s) < st.Seats(); s++ {
					sb.WriteString(st.View(s).String())
				}
				return sb.String()
			}
			before := views()
			s := st.ToAct(nil)[0]
			if _, err := New(1, 50).Choose(context.Background(), st, s); err != nil {
				t.Fatal(err)
			}
			if after := views(); after != before {
				t.Fatalf("Choose changed the state")
			}
		})
	}
}

// TestNotARoomLevel: the ceiling is not a bot.Bot and no level of package
// bot, so nothing that builds bots from a level name can make one.
func TestNotARoomLevel(t *testing.T) {
	if _, ok := any(New(1, 0)).(bot.Bot); ok {
		t.Error("*ceiling.Bot implements bot.Bot: it could be seated")
	}
	if _, err := bot.New(Level, 1); err == nil {
		t.Errorf("bot.New(%q) succeeded", Level)
	}
	if _, err := bot.ParseSpec(Level); err == nil {
		t.Errorf("bot.ParseSpec(%q) succeeded", Level)
	}
	if slices.Contains(bot.Levels(), Level) {
		t.Errorf("bot.Levels() = %v lists %q", bot.Levels(), Level)
	}
}

// TestChooseRefusesBadInput: a cancelled context, a seat that does not
// exist and a spectator get an error, not a move.
func TestChooseRefusesBadInput(t *testing.T) {
	e, o := dealOptions(t, "papayoo")
	st, _ := e.New(o)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name string
		ctx  context.Context
		seat game.Seat
	}{
		{"cancelled", ctx, 0},
		{"no such seat", context.Background(), 9},
		{"spectator", context.Background(), game.Spectator},
	}
	for _, tc := range cases {
		if _, err := New(1, 10).Choose(tc.ctx, st, tc.seat); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// TestParseIterations: only an iteration count in range is a budget.
func TestParseIterations(t *testing.T) {
	cases := []struct {
		in   string
		want int
		ok   bool
	}{
		{"ceiling", 0, true},
		{"ceiling:2000", 2000, true},
		{" ceiling:1 ", 1, true},
		{"ceiling:0", 0, false},
		{"ceiling:-5", 0, false},
		{"ceiling:200ms", 0, false},
		{"ceiling:2000000", 0, false},
		{"ceiling:", 0, false},
		{"hard:2000", 0, false},
		{"ceiling-hands", 0, true},
		{"ceiling-hands:300", 300, true},
		{"ceiling-hands:0", 0, false},
		{"ceiling-hands:200ms", 0, false},
		{"ceiling-cards:300", 0, false},
	}
	for _, tc := range cases {
		n, err := ParseIterations(tc.in)
		if (err == nil) != tc.ok || n != tc.want {
			t.Errorf("ParseIterations(%q) = %d, %v; want %d, ok %v", tc.in, n, err, tc.want, tc.ok)
		}
	}
	if New(1, 0).Iterations() != DefaultIterations {
		t.Errorf("default budget %d, want %d", New(1, 0).Iterations(), DefaultIterations)
	}
}

// TestNewLevel: only the two all-seeing names are levels of this package,
// and neither is a level of the room.
func TestNewLevel(t *testing.T) {
	for _, tc := range []struct {
		level string
		ok    bool
	}{{Level, true}, {HandsLevel, true}, {"hard", false}, {"", false}} {
		b, err := NewLevel(tc.level, 1, 10)
		if (err == nil) != tc.ok || (tc.ok && b.Level() != tc.level) {
			t.Errorf("NewLevel(%q) = %v, %v; want ok %v", tc.level, b, err, tc.ok)
		}
	}
	if _, err := bot.New(HandsLevel, 1); err == nil {
		t.Errorf("bot.New(%q) succeeded", HandsLevel)
	}
}

// TestHandsSeesHandsNotStock: every determinization of ceiling-hands holds
// the true hands and pile and a stock of the true stock's cards, so every
// seat's view of it (and a spectator's) is the true state's view; yet some
// of them differ from the truth (in what no view shows: the stock's
// order). The plain ceiling's determinization is the truth itself.
func TestHandsSeesHandsNotStock(t *testing.T) {
	for _, name := range []string{"pisyedili", "rum500"} {
		t.Run(name, func(t *testing.T) { handsSeesHandsNotStock(t, name) })
	}
}

func handsSeesHandsNotStock(t *testing.T, name string) {
	st := dealt(t, name, 7)
	r := game.NewRand(7)
	views := func(st game.State) string {
		var sb strings.Builder
		for s := game.Spectator; int(s) < st.Seats(); s++ {
			sb.WriteString(st.View(s).String())
		}
		return sb.String()
	}
	want := views(st)
	for _, hands := range []bool{false, true} {
		d := &seer{truth: st, hands: hands}
		differs := 0
		for i := 0; i < 20; i++ {
			sm, err := d.Sample(&r)
			if err != nil {
				t.Fatal(err)
			}
			if got := views(sm); got != want {
				t.Fatalf("hands=%v: a determinization's views differ from the truth's:\n%s\nwant\n%s", hands, got, want)
			}
			if !reflect.DeepEqual(sm, st) {
				differs++
			}
		}
		if hands && differs == 0 {
			t.Error("ceiling-hands never reshuffled the stock in 20 determinizations")
		}
		if !hands && differs > 0 {
			t.Errorf("the plain ceiling's determinization differs from the truth %d times in 20", differs)
		}
	}
}

// TestHandsNeedsAStockToHide: a game whose State cannot reshuffle its
// stock gets a clear error from ceiling-hands, not a silent plain ceiling.
func TestHandsNeedsAStockToHide(t *testing.T) {
	st := dealt(t, "papayoo", 3)
	b, _ := NewLevel(HandsLevel, 1, 10)
	if _, err := b.Choose(context.Background(), st, st.ToAct(nil)[0]); err == nil || !strings.Contains(err.Error(), "cannot hide") {
		t.Fatalf("ceiling-hands on papayoo: %v, want a \"cannot hide\" error", err)
	}
}

// TestYardstickSearchesOpenLoop: the yardstick keeps the search its first
// figures were measured with: its domain hides the game domain's optional
// methods that would change the search (Pis Yedili's closed loop,
// ismcts.Observer, and its sampler), though the game's own domain has them.
func TestYardstickSearchesOpenLoop(t *testing.T) {
	st := dealt(t, "pisyedili", 1)
	v := st.View(st.ToAct(nil)[0])
	k, _ := kit.For("pisyedili")
	inner := k.Domain(v)
	if _, ok := inner.(ismcts.Observer); !ok {
		t.Fatal("the Pis Yedili domain is not an ismcts.Observer: nothing to hide")
	}
	var d ismcts.Domain = &seer{Domain: inner, truth: st}
	if _, ok := d.(ismcts.Observer); ok {
		t.Error("the ceiling's domain branches on observations: the yardstick moved")
	}
}
