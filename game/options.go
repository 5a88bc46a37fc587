package game

import (
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
type OptionSpec struct {
	Name    string   `json:"name"`
	Default string   `json:"default"`          // "" when the default depends on other options
	Values  []string `json:"values,omitempty"` // the allowed values of an enumeration
	Min     int      `json:"min,omitempty"`    // for integers
	Max     int      `json:"max,omitempty"`    // for integers; 0 = no upper bound
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
// fill. Unknown names and values outside a spec are errors.
func Normalize(o Options, specs []OptionSpec) (Options, error) {
	byName := map[string]OptionSpec{}
	for _, s := range specs {
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

// Check validates one value against the spec.
func (s OptionSpec) Check(v string) error {
	switch s.Kind {
	case "int":
		n, err := strconv.Atoi(v)
		if err != nil {
			return &OptionError{Name: s.Name, Value: v, Reason: "not an integer"}
		}
		if n < s.Min || (s.Max != 0 && n > s.Max) {
			if s.Max != 0 {
				return &OptionError{Name: s.Name, Value: v, Reason: fmt.Sprintf("must be %d to %d", s.Min, s.Max)}
			}
			return &OptionError{Name: s.Name, Value: v, Reason: fmt.Sprintf("must be at least %d", s.Min)}
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

// Int reads an integer option that Normalize has checked (0 if absent).
func (o Options) Int(name string) int {
	n, _ := strconv.Atoi(o[name])
	return n
}

// Bool reads a boolean option that Normalize has checked.
func (o Options) Bool(name string) bool { return o[name] == "true" }
