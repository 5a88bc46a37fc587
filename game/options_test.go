package game

import (
	"errors"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	rounds := OptionSpec{Name: "rounds", Kind: "int", Min: 1, Max: 100}
	bonus := OptionSpec{Name: "bonus", Kind: "int", Min: 0, Max: 1000}
	delta := OptionSpec{Name: "delta", Kind: "int", Min: -5, Max: 5}
	flag := OptionSpec{Name: "flag", Kind: "bool"}
	mode := OptionSpec{Name: "mode", Kind: "enum", Values: []string{"a", "b"}}
	cases := []struct {
		spec   OptionSpec
		v      string
		reason string // "" = accepted; else a substring of the error
	}{
		{rounds, "1", ""},
		{rounds, "7", ""},
		{rounds, "100", ""},
		{rounds, "0", "must be 1 to 100"},
		{rounds, "101", "must be 1 to 100"},
		{rounds, "-1", "must be 1 to 100"},
		{rounds, "9223372036854775807", "must be 1 to 100"},
		{rounds, "-9223372036854775808", "must be 1 to 100"},
		{rounds, "99999999999999999999", "must be 1 to 100"}, // beyond int
		{rounds, "07", "not a canonical integer"},
		{rounds, "+7", "not a canonical integer"},
		{rounds, "007", "not a canonical integer"},
		{rounds, "+99999999999999999999", "not a canonical integer"},
		{rounds, "", "not an integer"},
		{rounds, " 1", "not an integer"},
		{rounds, "1 ", "not an integer"},
		{rounds, "1e3", "not an integer"},
		{rounds, "0x10", "not an integer"},
		{rounds, "1.0", "not an integer"},
		{rounds, "seven", "not an integer"},
		{bonus, "0", ""},
		{bonus, "1000", ""},
		{bonus, "-0", "not a canonical integer"},
		{bonus, "00", "not a canonical integer"},
		{bonus, "1001", "must be 0 to 1000"},
		{delta, "-5", ""},
		{delta, "-6", "must be -5 to 5"},
		{delta, "-05", "not a canonical integer"},
		{flag, "true", ""},
		{flag, "false", ""},
		{flag, "True", "must be true or false"},
		{flag, "1", "must be true or false"},
		{flag, "", "must be true or false"},
		{mode, "a", ""},
		{mode, "b", ""},
		{mode, "c", "must be one of a, b"},
		{mode, "A", "must be one of a, b"},
		{OptionSpec{Name: "n", Kind: "int", Min: 1}, "5", "upper bound"}, // no Max: no value passes
	}
	for _, c := range cases {
		err := c.spec.Check(c.v)
		if c.reason == "" {
			if err != nil {
				t.Errorf("%s=%q: refused: %v", c.spec.Name, c.v, err)
			}
			continue
		}
		var oe *OptionError
		if !errors.As(err, &oe) {
			t.Errorf("%s=%q: want an *OptionError with %q, got %v", c.spec.Name, c.v, c.reason, err)
			continue
		}
		if oe.Name != c.spec.Name || !strings.Contains(oe.Reason, c.reason) {
			t.Errorf("%s=%q: want %s: …%s…, got %v", c.spec.Name, c.v, c.spec.Name, c.reason, err)
		}
	}
}

func TestNormalize(t *testing.T) {
	specs := []OptionSpec{
		{Name: "players", Kind: "int", Default: "4", Min: 2, Max: 8},
		{Name: "rounds", Kind: "int", Default: "", Min: 1, Max: 100},
		{Name: "jokers", Kind: "bool", Default: "false"},
		{Name: "mode", Kind: "enum", Default: "a", Values: []string{"a", "b"}},
	}
	cases := []struct {
		in     string
		want   string // normalized; "" when refused
		name   string // the option the error names
		reason string
	}{
		{"", "jokers=false mode=a players=4", "", ""},
		{"players=8 rounds=100", "jokers=false mode=a players=8 rounds=100", "", ""},
		{"players=2 rounds=1 jokers=true mode=b", "jokers=true mode=b players=2 rounds=1", "", ""},
		{"players=9", "", "players", "must be 2 to 8"},
		{"rounds=101", "", "rounds", "must be 1 to 100"},
		{"rounds=1000000", "", "rounds", "must be 1 to 100"},
		{"rounds=+5", "", "rounds", "not a canonical integer"},
		{"players=04", "", "players", "not a canonical integer"},
		{"jokers=yes", "", "jokers", "must be true or false"},
		{"mode=c", "", "mode", "must be one of a, b"},
		{"colour=red", "", "colour", "unknown option"},
	}
	for _, c := range cases {
		o, err := ParseOptions(c.in)
		if err != nil {
			t.Fatalf("ParseOptions(%q): %v", c.in, err)
		}
		got, err := Normalize(o, specs)
		if c.want != "" {
			if err != nil || got.String() != c.want {
				t.Errorf("Normalize(%q) = %q, %v; want %q", c.in, got.String(), err, c.want)
			}
			continue
		}
		var oe *OptionError
		if !errors.As(err, &oe) || oe.Name != c.name || !strings.Contains(oe.Reason, c.reason) {
			t.Errorf("Normalize(%q): want option %s: …%s…, got %v", c.in, c.name, c.reason, err)
		}
		if got != nil {
			t.Errorf("Normalize(%q) refused but returned %v", c.in, got)
		}
	}
}

// A spec that is itself wrong (an int without an upper bound above all) is
// refused by Normalize whatever the options, naming the option.
func TestNormalizeBadSpec(t *testing.T) {
	good := OptionSpec{Name: "players", Kind: "int", Default: "4", Min: 2, Max: 8}
	bad := []OptionSpec{
		{Name: "rounds", Kind: "int", Min: 1},                          // no Max
		{Name: "rounds", Kind: "int", Min: 1, Max: 0, Default: "3"},    // no Max, with a default
		{Name: "rounds", Kind: "int", Min: -5, Max: -1},                // Max not above 0
		{Name: "rounds", Kind: "int", Min: 10, Max: 5},                 // Min above Max
		{Name: "rounds", Kind: "int", Min: 1, Max: 100, Default: "0"},  // default out of range
		{Name: "rounds", Kind: "int", Min: 1, Max: 100, Default: "01"}, // default not canonical
		{Name: "rounds", Kind: "enum"},                                 // no values
		{Name: "rounds", Kind: "enum", Values: []string{"a"}, Default: "b"},
		{Name: "rounds", Kind: "bool", Default: "yes"},
		{Name: "rounds", Kind: "float", Default: "1.5"},
		{Name: "rounds"}, // no kind
	}
	for _, b := range bad {
		for _, in := range []Options{{}, {"players": "3"}, {"rounds": "5"}} {
			got, err := Normalize(in, []OptionSpec{good, b})
			var oe *OptionError
			if !errors.As(err, &oe) || oe.Name != "rounds" || !strings.Contains(oe.Reason, "invalid option spec") {
				t.Errorf("spec %+v, options %v: want an invalid-spec error naming rounds, got %v, %v", b, in, got, err)
			}
		}
		if err := b.CheckSpec(); err == nil {
			t.Errorf("CheckSpec(%+v) accepted", b)
		}
	}
	if err := good.CheckSpec(); err != nil {
		t.Errorf("CheckSpec(%+v): %v", good, err)
	}
}
