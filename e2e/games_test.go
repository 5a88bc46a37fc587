package e2e

import (
	"sort"
	"strings"
	"testing"
	"time"

	"cardroom/games"
	_ "cardroom/games/all" // the games of this build
	"cardroom/server"
)

// gameTest is what the browser tests know of one game: how its whole-game
// test is played and how the simple player (pickJS) plays its table.
type gameTest struct {
	players int
	opts    map[string]string // options for a short game
	shotAt  int               // the move after which the table is photographed
	limit   time.Duration     // the whole game by clicks must end within (the table paces bot moves: views/table.js)
	shots   map[string]string // data-testid → screenshot name, when it first shows
	// seed, if not 0, is the tables' seed in the whole-game tests: the
	// deal, and the random bots' moves, of a short game that still has what
	// the test is about. The test's player is deterministic, so the game
	// is the same every run while the engine and the page are; when they
	// change, it is another game, perhaps a longer one.
	seed uint64
	// player is the game's part of pickJS: JavaScript that may use q(sel),
	// en(sel) (enabled elements), mark(el, kind) and must return mark(…,
	// 'move' or 'local') or 'wait'. A final-scores dialog, a spectator's
	// table and a dismiss-hand button are handled before it.
	player string
}

// gameTests has one entry per game of the build (TestEveryGameIsPlayed); a
// new game adds its entry here and a Test<Game>WholeGame calling
// playWholeGame.
var gameTests = map[string]gameTest{
	"papayoo": {
		players: 3, opts: map[string]string{"rounds": "1"}, shotAt: 8, limit: 120 * time.Second,
		shots: map[string]string{"pass-panel": "papayoo-pass", "received": "papayoo-received"},
		player: `
    const confirm = q('[data-testid=pass-confirm]');
    if (confirm) {
      if (!confirm.disabled) return mark(confirm, 'move');
      const unsel = en('[data-testid=hand-card][aria-pressed=false]');
      return unsel.length ? mark(unsel[unsel.length - 1], 'local') : 'wait';
    }
    const c = en('[data-testid=hand-card]');
    return c.length ? mark(c[0], 'move') : 'wait';`,
	},
	"rum500": {
		// Seed 3: about 20 clicks, with a take from the pile.
		players: 3, opts: map[string]string{"target": "60"}, shotAt: 10, limit: 180 * time.Second, seed: 3,
		shots: map[string]string{"take-offer": "rum500-take-offer"},
		player: `
    const opt = en('[data-testid=take-option]');
    if (opt.length) return mark(opt[0], 'move');
    const draw = en('[data-testid=draw-stock]');
    const pile = en('[data-testid=pile-card]');
    if (pile.length && (draw.length || q('[data-testid=decline]'))) return mark(pile[0], 'local');
    if (draw.length) return mark(draw[0], 'move');
    const decline = en('[data-testid=decline]');
    if (decline.length) return mark(decline[0], 'move');
    const meld = en('[data-testid=meld-option]');
    if (meld.length) return mark(meld[0], 'move');
    const layoff = en('[data-testid^=layoff-]');
    if (layoff.length) return mark(layoff[0], 'move');
    const discard = en('[data-testid=discard]');
    if (discard.length) return mark(discard[0], 'move');
    const sel = en('[data-testid=hand-card][aria-pressed=true]');
    if (sel.length) return mark(sel[0], 'local');
    const cards = en('[data-testid=hand-card]');
    return cards.length ? mark(cards[cards.length - 1], 'local') : 'wait';`,
	},
	"pisyedili": {
		// Seed 12: about 35 clicks, with the opening, a jack's suit picker
		// and a chain (a random deal takes 7 to 140 clicks, up to two
		// minutes).
		players: 3, opts: map[string]string{"hands": "1"}, shotAt: 6, limit: 180 * time.Second, seed: 12,
		shots: map[string]string{"suit-picker": "pisyedili-jack", "chain": "pisyedili-chain", "opening": "pisyedili-opening"},
		player: `
    const suit = en('[data-testid=suit-picker] button[data-testid^=suit-]');
    if (suit.length) return mark(suit[0], 'move');
    const cards = en('[data-testid=hand-card]');
    if (cards.length) return mark(cards[0], 'move');
    for (const id of ['penalty', 'pass', 'end-turn', 'draw']) {
      const b = en('[data-testid=' + id + ']');
      if (b.length) return mark(b[0], 'move');
    }
    return 'wait';`,
	},
}

func sortedGames() []string {
	var out []string
	for g := range gameTests {
		out = append(out, g)
	}
	sort.Strings(out)
	return out
}

// seeded is the server tweak that gives the game's tables its seed.
func (g gameTest) seeded(c *server.Config) {
	if g.seed != 0 {
		c.Seeds = func() uint64 { return g.seed }
	}
}

// playWholeGame plays the game's whole-game test (gameTests).
func playWholeGame(t *testing.T, game string) (*env, *tab, string) {
	g, ok := gameTests[game]
	if !ok {
		t.Fatalf("no gameTests entry for %s", game)
	}
	return playGame(newEnv(t, g.seeded), game, g.players, g.opts, g.shotAt, g.limit, g.shots)
}

// TestEveryGameIsPlayed: every game of the build has a player and a short
// whole game here (it needs no browser).
func TestEveryGameIsPlayed(t *testing.T) {
	names := games.Names()
	if len(names) == 0 {
		t.Fatal("no game registered")
	}
	if got, want := strings.Join(sortedGames(), " "), strings.Join(names, " "); got != want {
		t.Errorf("browser tests cover %s, the build has %s", got, want)
	}
	for name, g := range gameTests {
		if strings.TrimSpace(g.player) == "" || g.players < 2 || g.limit <= 0 || g.shotAt <= 0 {
			t.Errorf("%s: incomplete gameTests entry", name)
		}
		if !strings.Contains(pickJS, "if (game === \""+name+"\") {") {
			t.Errorf("%s: its player is not in pickJS", name)
		}
	}
}
