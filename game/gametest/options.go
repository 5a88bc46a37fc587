package gametest

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"testing"

	"cardroom/game"
)

// CheckOptions checks an engine's option specs and New's use of them: every
// spec is well formed (game.OptionSpec.CheckSpec) and named once; every int
// option has Max > 0 and Min ≤ Default ≤ Max; New accepts Min and Max alone
// (the other options at their defaults) and shows them unchanged in
// Options; New refuses with an *OptionError naming the option Min-1, Max+1,
// the extremes of int, non-canonical forms and garbage; and New fills in
// every option whose default is "". Check runs it for every engine.
func CheckOptions(t *testing.T, e game.Engine) {
	t.Helper()
	for _, p := range OptionProblems(e) {
		t.Error(p)
	}
}

// OptionProblems is CheckOptions' findings, one line each; none for a good engine.
func OptionProblems(e game.Engine) (out []string) {
	bad := func(format string, a ...any) {
		out = append(out, e.Name()+": "+fmt.Sprintf(format, a...))
	}
	specs := e.OptionSpecs()
	seen := map[string]bool{}
	for _, s := range specs {
		if seen[s.Name] {
			bad("option %s specified twice", s.Name)
		}
		seen[s.Name] = true
		if err := s.CheckSpec(); err != nil {
			bad("spec %s: %v", s.Name, err)
		}
	}
	// The defaults alone give a game with every option filled in.
	st, err := e.New(game.Options{})
	if err != nil {
		bad("New with the defaults: %v", err)
	} else {
		norm := st.Options()
		for _, s := range specs {
			v, ok := norm[s.Name]
			if !ok {
				bad("New does not fill in option %s (default %q)", s.Name, s.Default)
				continue
			}
			if s.Default != "" && v != s.Default {
				bad("option %s: default %q but New gives %q", s.Name, s.Default, v)
			}
			if err := s.Check(v); err != nil {
				bad("New fills in option %s with a value its spec refuses: %v", s.Name, err)
			}
		}
	}
	for _, s := range specs {
		if s.Kind != "int" {
			continue
		}
		if s.Max <= 0 {
			bad("int option %s has no upper bound (Max %d)", s.Name, s.Max)
			continue
		}
		if s.Min > s.Max {
			bad("int option %s: Min %d above Max %d", s.Name, s.Min, s.Max)
			continue
		}
		if s.Default != "" {
			d, err := strconv.Atoi(s.Default)
			if err != nil || d < s.Min || d > s.Max {
				bad("int option %s: default %q not in %d..%d", s.Name, s.Default, s.Min, s.Max)
			}
		}
		for _, n := range []int{s.Min, s.Max} {
			v := strconv.Itoa(n)
			st, err := e.New(game.Options{s.Name: v})
			if err != nil {
				bad("New(%s=%s) with the other defaults refused: %v", s.Name, v, err)
			} else if got := st.Options()[s.Name]; got != v {
				bad("New(%s=%s) shows %s=%q", s.Name, v, s.Name, got)
			}
			// With other players counts the value may be refused, but only
			// by an *OptionError.
			for _, p := range specs {
				if p.Name == "players" && p.Name != s.Name && p.Kind == "int" {
					for _, pn := range []int{p.Min, p.Max} {
						o := game.Options{s.Name: v, p.Name: strconv.Itoa(pn)}
						if st, err := e.New(o); err != nil {
							var oe *game.OptionError
							if !errors.As(err, &oe) {
								bad("New(%s) refused with %T, want *game.OptionError: %v", o, err, err)
							}
						} else if st.Options()[s.Name] != v {
							bad("New(%s) shows %s=%q", o, s.Name, st.Options()[s.Name])
						}
					}
				}
			}
		}
		refuse := []string{
			"9223372036854775807", "-9223372036854775808", "99999999999999999999",
			"1e3", "", " 1", "1 ", "0x10", "1.0", "ten",
			"+" + strconv.Itoa(s.Max), "0" + strconv.Itoa(s.Max),
		}
		if s.Min > math.MinInt {
			refuse = append(refuse, strconv.Itoa(s.Min-1))
		}
		if s.Max < math.MaxInt {
			refuse = append(refuse, strconv.Itoa(s.Max+1))
		}
		for _, v := range refuse {
			st, err := e.New(game.Options{s.Name: v})
			var oe *game.OptionError
			switch {
			case err == nil:
				bad("New(%s=%q) accepted (range %d..%d)", s.Name, v, s.Min, s.Max)
			case !errors.As(err, &oe):
				bad("New(%s=%q) refused with %T, want *game.OptionError: %v", s.Name, v, err, err)
			case oe.Name != s.Name:
				bad("New(%s=%q) refused naming option %q: %v", s.Name, v, oe.Name, err)
			case st != nil:
				bad("New(%s=%q) refused but returned a state", s.Name, v)
			}
		}
	}
	// An unknown option is refused too.
	if _, err := e.New(game.Options{"no_such_option": "1"}); err == nil {
		bad("New accepted an unknown option")
	} else if oe := (*game.OptionError)(nil); !errors.As(err, &oe) {
		bad("unknown option refused with %T, want *game.OptionError", err)
	}
	return out
}
