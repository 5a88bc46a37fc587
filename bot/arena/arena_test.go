package arena

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"cardroom/bot"
	"cardroom/game"
	"cardroom/games"
	"cardroom/record"
)

func specs(t *testing.T, ss ...string) []bot.Spec {
	var out []bot.Spec
	for _, s := range ss {
		sp, err := bot.ParseSpec(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sp)
	}
	return out
}

func papayooCfg(t *testing.T) Config {
	e, err := games.Lookup("papayoo")
	if err != nil {
		t.Skip("papayoo not registered")
	}
	return Config{Engine: e, Options: game.Options{"players": "4", "rounds": "1"},
		Seats: specs(t, "hard:60", "medium", "random", "medium"), Deals: 3, Seed: 7, Workers: 2}
}

// TestArenaReproducible: the same seed gives the same games and figures,
// whatever the number of workers.
func TestArenaReproducible(t *testing.T) {
	cfg := papayooCfg(t)
	a, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 1
	b, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Games, b.Games) || !reflect.DeepEqual(a.Bots, b.Bots) || !reflect.DeepEqual(a.Pairs, b.Pairs) {
		t.Fatalf("two runs with seed %d differ", cfg.Seed)
	}
}

// TestArenaRotationAndDuplicate: every bot sits in every seat of every
// deal, the deals (chance) are identical across rotations, each round's
// points sum to 250, and the intervals contain the means.
func TestArenaRotationAndDuplicate(t *testing.T) {
	cfg := papayooCfg(t)
	cfg.RecordDir = t.TempDir()
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Games) != cfg.Deals*4 {
		t.Fatalf("%d games, want %d", len(rep.Games), cfg.Deals*4)
	}
	for d := 0; d < cfg.Deals; d++ {
		seen := map[string]map[int]bool{}
		var deal string
		for r := 0; r < 4; r++ {
			g := rep.Games[d*4+r]
			if g.Deal != d || g.Rotation != r {
				t.Fatalf("game %d is deal %d rotation %d", d*4+r, g.Deal, g.Rotation)
			}
			for s, b := range g.Bots {
				if seen[b] == nil {
					seen[b] = map[int]bool{}
				}
				seen[b][s] = true
			}
			sum := 0
			for _, p := range g.Rounds[0] {
				sum += p
			}
			if sum != 250 {
				t.Fatalf("deal %d rotation %d: round points sum to %d", d, r, sum)
			}
			// The chance outcomes are the same in every rotation.
			data, err := os.ReadFile(filepath.Join(cfg.RecordDir, "papayoo-deal0000"+string(rune('0'+d))+"-rot"+string(rune('0'+r))+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			rec, err := record.ParseString(string(data))
			if err != nil {
				t.Fatal(err)
			}
			var chance string
			for _, en := range rec.Entries {
				if en.Chance {
					chance += en.Text + "\n"
				}
			}
			if r == 0 {
				deal = chance
			} else if chance != deal {
				t.Fatalf("deal %d: rotation %d had other chance outcomes:\n%s\nvs\n%s", d, r, chance, deal)
			}
			if _, err := record.Replay(cfg.Engine, rec, nil); err != nil {
				t.Fatalf("record of deal %d rotation %d does not replay: %v", d, r, err)
			}
		}
		for b, ss := range seen {
			if len(ss) != 4 {
				t.Fatalf("deal %d: bot %s sat in seats %v only", d, b, ss)
			}
		}
	}
	for _, b := range rep.Bots {
		for _, s := range []Stat{b.Points, b.RoundWins, b.GameWins} {
			if s.N != cfg.Deals || s.Lo > s.Mean || s.Hi < s.Mean {
				t.Fatalf("bot %s: bad interval %+v", b.Bot, s)
			}
		}
	}
	if len(rep.Pairs) != 3 {
		t.Fatalf("%d pairs for 3 bots", len(rep.Pairs))
	}
}

func TestMeanCI(t *testing.T) {
	s := MeanCI([]float64{1, 2, 3, 4, 5})
	if s.Mean != 3 || s.Lo >= 3 || s.Hi <= 3 || s.Hi-3 != 3-s.Lo {
		t.Fatalf("MeanCI = %+v", s)
	}
	// sd = sqrt(2.5), half-width = 2.776 * sd / sqrt(5)
	if h := s.Hi - s.Mean; h < 1.95 || h > 1.97 {
		t.Fatalf("half-width %v, want 1.963", h)
	}
	if s := MeanCI(nil); s.N != 0 {
		t.Fatalf("empty: %+v", s)
	}
}

// TestArenaBounds: counts out of range are refused before anything runs
// (a mistyped --deals 99999999999 made the arena allocate its games and
// die of memory).
func TestArenaBounds(t *testing.T) {
	for _, tc := range []struct {
		name           string
		deals, workers int
	}{
		{"no deals", 0, 1},
		{"negative deals", -3, 1},
		{"too many deals", MaxDeals + 1, 1},
		{"far too many deals", 99_999_999_999, 1},
		{"negative workers", 1, -4},
		{"too many workers", 1, MaxWorkers + 1},
	} {
		cfg := papayooCfg(t)
		cfg.Deals, cfg.Workers = tc.deals, tc.workers
		if rep, err := Run(context.Background(), cfg); err == nil || rep != nil {
			t.Errorf("%s: report %v, error %v; want a refusal", tc.name, rep != nil, err)
		}
	}
}
