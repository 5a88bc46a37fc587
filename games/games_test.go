package games_test

import (
	"testing"

	"cardroom/game"
	"cardroom/games"
	_ "cardroom/games/all"
	"cardroom/record"
)

// TestRegistry: every game of the build registered itself with options
// that its engine accepts: a quick game ends within a few thousand random
// steps, a deal is accepted, and the rounds option names an integer option
// whose maximum the engine accepts too.
func TestRegistry(t *testing.T) {
	names := games.Names()
	if len(names) < 3 {
		t.Fatalf("registered games %v: the build has three", names)
	}
	for _, name := range names {
		g, err := games.Get(name)
		if err != nil || g.Engine.Name() != name {
			t.Fatalf("Get(%s) = %v, %v", name, g.Engine, err)
		}
		st, err := g.Engine.New(g.Quick)
		if err != nil {
			t.Fatalf("%s: quick options %v refused: %v", name, g.Quick, err)
		}
		rng := game.NewRand(1)
		if err := record.Play(st, &rng, record.RandomPolicy(&rng), nil, 50000); err != nil || !st.Over() {
			t.Errorf("%s: a quick game did not end (%v)", name, err)
		}
		if _, err := g.Engine.New(g.Deal); err != nil {
			t.Errorf("%s: deal options %v refused: %v", name, g.Deal, err)
		}
		if g.Rounds != "" {
			found := false
			for _, sp := range g.Engine.OptionSpecs() {
				found = found || sp.Name == g.Rounds && sp.Kind == "int"
			}
			if !found {
				t.Errorf("%s: rounds option %q is not an integer option", name, g.Rounds)
			}
			if _, err := g.Engine.New(g.Long()); err != nil || len(g.Long()) != 1 {
				t.Errorf("%s: long options %v refused: %v", name, g.Long(), err)
			}
		} else if g.Long() != nil {
			t.Errorf("%s: long options %v without a rounds option", name, g.Long())
		}
	}
	if _, err := games.Get("no-such-game"); err == nil {
		t.Error("an unknown game was found")
	}
}

// TestRegisterTwicePanics: a second registration of a name is refused.
func TestRegisterTwicePanics(t *testing.T) {
	g, _ := games.Get(games.Names()[0])
	defer func() {
		if recover() == nil {
			t.Error("registering a game twice did not panic")
		}
	}()
	games.Register(g)
}
