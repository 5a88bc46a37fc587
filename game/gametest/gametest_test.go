package gametest_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"cardroom/game"
	"cardroom/game/gametest"
	"cardroom/games"
	"cardroom/games/papayoo"
)

// Every registered engine passes the contract's checks with its defaults.
func TestEveryEngine(t *testing.T) {
	for _, e := range games.All() {
		gametest.Check(t, e, gametest.Config{Options: []game.Options{{}}, Games: 1, Seed: 42})
	}
}

// unbounded is Papayoo with its rounds option stripped of its upper bound.
type unbounded struct{ papayoo.Engine }

func (unbounded) OptionSpecs() []game.OptionSpec {
	specs := papayoo.Engine{}.OptionSpecs()
	for i := range specs {
		if specs[i].Name == "rounds" {
			specs[i].Max = 0
		}
	}
	return specs
}

// plainErrors is Papayoo refusing options with a plain error, and accepting
// any number of rounds.
type plainErrors struct{ papayoo.Engine }

func (plainErrors) New(o game.Options) (game.State, error) {
	if o["players"] == "2" {
		return nil, errors.New("too few")
	}
	if _, ok := o["rounds"]; ok {
		o = o.Clone()
		o["rounds"] = "1"
	}
	return papayoo.Engine{}.New(o)
}

// The options check finds nothing wrong with the real engines and finds
// what is wrong with broken ones.
func TestOptionProblems(t *testing.T) {
	for _, e := range games.All() {
		if p := gametest.OptionProblems(e); len(p) != 0 {
			t.Errorf("%s: %q", e.Name(), p)
		}
	}
	has := func(ps []string, sub string) bool {
		for _, p := range ps {
			if strings.Contains(p, sub) {
				return true
			}
		}
		return false
	}
	p := gametest.OptionProblems(unbounded{})
	if !has(p, "int option rounds has no upper bound") || !has(p, "spec rounds") {
		t.Errorf("unbounded rounds not reported: %q", p)
	}
	p = gametest.OptionProblems(plainErrors{})
	max := strconv.Itoa(papayoo.MaxRounds)
	for _, want := range []string{
		`New(players="2") refused with *errors.errorString`,
		`New(rounds="` + strconv.Itoa(papayoo.MaxRounds+1) + `") accepted`,
		`New(rounds="9223372036854775807") accepted`,
		`New(rounds="1e3") accepted`,
		`New(rounds="") accepted`,
		`New(rounds="0` + max + `") accepted`,
		`New(rounds=` + max + `) shows rounds="1"`,
	} {
		if !has(p, want) {
			t.Errorf("plainErrors: %q not reported in %q", want, p)
		}
	}
}
