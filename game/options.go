package game

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Options are a game's settings as name → value text, e.g. players=4
// rounds=4. Engines validate them in New and return them normalized, with
// every default filled in, from State.Options.
type Options map[string]string

// OptionSpec documents one option of a game.
//
// An "int" option always has a range: its value must be Min to Max
// inclusive, and Max must be above 0 and at least Min (there is no
// unbounded integer option: every engine states the largest value it
// handles, so no option can overflow a total or make a game endless).
// Normalize refuses a spec without a valid range; that is a programming
// error in the engine, reported as an *OptionError naming the option.
type OptionSpec struct {
	Name    string   `json:"name"`
	Default string   `json:"default"`          // "" when the default depends on other options
	Values  []string `json:"values,omitempty"` // the allowed values of an enumeration
	Min     int      `json:"min,omitempty"`    // for integers: the smallest value allowed
	Max     int      `json:"max,omitempty"`    // for integers: the largest value allowed (required, > 0)
	Kind    string   `json:"kind"`             // "int", "bool", "enum"
	Doc     string   `json:"doc"`
}

// OptionError says which option is wrong and why.
type OptionError struct {
	Name, Value, Reason string
}

func (e *OptionError) Error() string {
	if e.Value == "" {
		return fmt.Sprintf("option %s: %s", e.Name, e.Reason)
	}
	return fmt.Sprintf("option %s=%q: %s", e.Name, e.Value, e.Reason)
}

// ParseOptions reads "name=value name=value" (separated by spaces or commas).
func ParseOptions(s string) (Options, error) {
	o := Options{}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }) {
		k, v, ok := strings.Cut(f, "=")
		if !ok || k == "" {
			return nil, &OptionError{Name: f, Reason: "want name=value"}
		}
		if _, dup := o[k]; dup {
			return nil, &OptionError{Name: k, Reason: "given twice"}
		}
		o[k] = v
	}
	return o, nil
}

// String prints the options sorted by name, "a=1 b=2": the form records use.
func (o Options) String() string {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k + "=" + o[k])
	}
	return b.String()
}

// Clone copies the options.
func (o Options) Clone() Options {
	c := make(Options, len(o))
	for k, v := range o {
		c[k] = v
	}
	return c
}

// Normalize checks the options against specs and returns a copy with every
// default filled in. Options whose default is "" are left for the engine to
// fill. Unknown names and values outside a spec are errors, and so is a spec
// that is itself invalid (see CheckSpec): every error is an *OptionError.
func Normalize(o Options, specs []OptionSpec) (Options, error) {
	byName := map[string]OptionSpec{}
	for _, s := range specs {
		if err := s.CheckSpec(); err != nil {
			return nil, err
		}
		byName[s.Name] = s
	}
	for k := range o {
		if _, ok := byName[k]; !ok {
			return nil, &OptionError{Name: k, Reason: "unknown option"}
		}
	}
	out := Options{}
	for _, s := range specs {
		v, ok := o[s.Name]
		if !ok {
			if s.Default == "" {
				continue
			}
			v = s.Default
		}
		if err := s.Check(v); err != nil {
			return nil, err
		}
		out[s.Name] = v
	}
	return out, nil
}

// CheckSpec reports whether the spec itself is well formed: a known kind, an
// int with Min ≤ Max and Max > 0, an enum with values, and a default (if
// any) that the spec accepts. A bad spec is a programming error in the
// engine; the *OptionError names the option.
func (s OptionSpec) CheckSpec() error {
	bad := func(why string) error {
		return &OptionError{Name: s.Name, Reason: "invalid option spec: " + why}
	}
	switch s.Kind {
	case "int":
		if s.Max <= 0 {
			return bad("an int option needs an upper bound Max > 0")
		}
		if s.Min > s.Max {
			return bad(fmt.Sprintf("Min %d above Max %d", s.Min, s.Max))
		}
	case "bool":
	case "enum":
		if len(s.Values) == 0 {
			return bad("an enum option needs values")
		}
	default:
		return bad(fmt.Sprintf("unknown kind %q", s.Kind))
	}
	if s.Default != "" {
		if err := s.Check(s.Default); err != nil {
			return bad("default " + err.Error())
		}
	}
	return nil
}

// Check validates one value against the spec. An integer must be written in
// canonical decimal, as strconv.Itoa prints it ("7", "-3", "0"): a sign '+',
// leading zeros ("07", "-0"), spaces, exponents and other forms are refused
// as "not a canonical integer", so the options text in a record is
// canonical. It must then be Min to Max inclusive ("must be Min to Max").
// Errors are *OptionError.
func (s OptionSpec) Check(v string) error {
	switch s.Kind {
	case "int":
		n, err := strconv.Atoi(v)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return &OptionError{Name: s.Name, Value: v, Reason: "not an integer"}
		}
		if !canonicalInt(v) {
			return &OptionError{Name: s.Name, Value: v, Reason: "not a canonical integer"}
		}
		if s.Max <= 0 {
			return &OptionError{Name: s.Name, Value: v, Reason: "invalid option spec: an int option needs an upper bound Max > 0"}
		}
		if err != nil || n < s.Min || n > s.Max {
			return &OptionError{Name: s.Name, Value: v, Reason: fmt.Sprintf("must be %d to %d", s.Min, s.Max)}
		}
	case "bool":
		if v != "true" && v != "false" {
			return &OptionError{Name: s.Name, Value: v, Reason: "must be true or false"}
		}
	case "enum":
		for _, a := range s.Values {
			if a == v {
				return nil
			}
		}
		return &OptionError{Name: s.Name, Value: v, Reason: "must be one of " + strings.Join(s.Values, ", ")}
	}
	return nil
}

// canonicalInt reports whether v is an integer as strconv.Itoa prints it:
// "0", or an optional '-' then a digit 1-9 then digits.
func canonicalInt(v string) bool {
	if v == "0" {
		return true
	}
	v = strings.TrimPrefix(v, "-")
	if v == "" || v[0] < '1' || v[0] > '9' {
		return false
	}
	for i := 1; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

// Int reads an integer option that Normalize has checked (0 if absent).
func (o Options) Int(name string) int {
	n, _ := strconv.Atoi(o[name])
	return n
}

// Bool reads a boolean option that Normalize has checked.
func (o Options) Bool(name string) bool { return o[name] == "true" }
