package gametest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"cardroom/game"
	"cardroom/record"
)

// HistoryConfig says which games CheckHistory plays.
type HistoryConfig struct {
	Options  []game.Options
	Games    int    // random games per configuration (default 3)
	Seed     uint64 // base seed
	MaxSteps int    // default 20000
	Policy   func(rng *game.Rand) record.Policy
}

// CheckHistory plays random whole games of an engine that is a
// game.Historian and checks every step's history entries (HistoryProblems).
// It returns how many entries of each kind the games produced, so a test
// can require that every kind it documents appears.
func CheckHistory(t *testing.T, e game.Engine, cfg HistoryConfig) map[game.Kind]int {
	t.Helper()
	if cfg.Games == 0 {
		cfg.Games = 3
	}
	if cfg.MaxSteps == 0 {
		cfg.MaxSteps = 20000
	}
	kinds := map[game.Kind]int{}
	for ci, o := range cfg.Options {
		for g := 0; g < cfg.Games; g++ {
			seed := cfg.Seed + uint64(ci*1000+g)
			rng := game.NewRand(seed)
			policy := record.RandomPolicy(&rng)
			if cfg.Policy != nil {
				policy = cfg.Policy(&rng)
			}
			for _, p := range HistoryProblems(e, o, &rng, policy, cfg.MaxSteps, kinds) {
				t.Errorf("%s %s seed %d: %s", e.Name(), o, seed, p)
			}
		}
	}
	return kinds
}

// HistoryProblems plays one game and describes every step, and lists what
// is wrong: the engine is not a Historian, the describer panics or changes
// a state, an entry has no kind, a seat out of range or JSON that is not
// valid, or — the point — an entry names a card that is not public after
// its step: one that the spectator's view (the least any observer sees)
// does not show. Each entry's kind is counted in kinds.
func HistoryProblems(e game.Engine, o game.Options, rng *game.Rand, policy record.Policy, maxSteps int, kinds map[game.Kind]int) (out []string) {
	h, ok := e.(game.Historian)
	if !ok {
		return []string{"the engine is not a game.Historian"}
	}
	st, err := e.New(o)
	if err != nil {
		return []string{err.Error()}
	}
	d := e.Deck()
	var buf []game.Entry
	var toAct []game.Seat
	for step := 0; step < maxSteps && !st.Over(); step++ {
		before := st.Clone()
		what := ""
		if st.ChancePending() {
			st.RollChance(rng)
			what = "chance"
		} else {
			toAct = st.ToAct(toAct[:0])
			if len(toAct) == 0 {
				return append(out, fmt.Sprintf("step %d: nobody to act and no chance", step))
			}
			s := toAct[rng.IntN(len(toAct))]
			m := policy(st, s)
			what = fmt.Sprintf("seat %d %s", s, st.FormatMove(m))
			if err := st.Apply(s, m); err != nil {
				return append(out, fmt.Sprintf("step %d: %s: %v", step, what, err))
			}
			buf, err = describe(h, buf[:0], before, st, s, m, false)
		}
		if what == "chance" {
			buf, err = describe(h, buf[:0], before, st, 0, game.Move{}, true)
		}
		if err != nil {
			return append(out, fmt.Sprintf("step %d: %s: %v", step, what, err))
		}
		pub, _ := json.Marshal(st.View(game.Spectator))
		public := CardTokens(d, string(pub))
		for i := range buf {
			en := &buf[i]
			kinds[en.Kind]++
			where := fmt.Sprintf("step %d (%s) entry %s", step, what, en.AppendJSON(nil, d))
			if p := EntryProblem(en, st.Seats(), d); p != "" {
				out = append(out, where+": "+p)
			}
			for _, cs := range append([][]game.Card{en.Cards, en.As}, en.Hands...) {
				for _, c := range cs {
					if !public[d.Format(c)] {
						out = append(out, fmt.Sprintf("%s: names %s, which the spectator does not see", where, d.Format(c)))
					}
				}
			}
		}
		if again, _ := json.Marshal(st.View(game.Spectator)); string(again) != string(pub) {
			out = append(out, fmt.Sprintf("step %d: describing changed the state", step))
		}
		if len(out) > 10 {
			return out
		}
	}
	if !st.Over() {
		out = append(out, fmt.Sprintf("the game did not end in %d steps", maxSteps))
	}
	return out
}

// describe runs the describer on one step; a panic is an error.
func describe(h game.Historian, buf []game.Entry, before, after game.State, s game.Seat, m game.Move, chance bool) (out []game.Entry, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the describer panicked: %v", r)
		}
	}()
	if chance {
		return h.AppendChance(buf, before, after), nil
	}
	return h.AppendMove(buf, before, after, s, m, game.ByTimeout), nil
}

// EntryProblem says what is wrong with an entry of an n-seat game: no
// kind, a seat or recipient out of range, invalid JSON; "" if nothing.
func EntryProblem(e *game.Entry, n int, d game.Deck) string {
	switch {
	case e.Kind == "":
		return "no kind"
	case e.Seat < game.Spectator || int(e.Seat) >= n:
		return fmt.Sprintf("seat %d out of range", e.Seat)
	case e.HasTo && (e.To < 0 || int(e.To) >= n):
		return fmt.Sprintf("to %d out of range", e.To)
	case e.Count < 0:
		return "negative count"
	case e.Scores != nil && len(e.Scores) != n, e.Hands != nil && len(e.Hands) != n:
		return "scores or hands not one per seat"
	}
	var v map[string]any
	if err := json.Unmarshal(e.AppendJSON(nil, d), &v); err != nil {
		return "invalid JSON: " + err.Error()
	}
	return ""
}

// CardTokens finds every card written in canonical notation in a text.
func CardTokens(d game.Deck, s string) map[string]bool {
	out := map[string]bool{}
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z')
	}) {
		if c, err := d.Parse(tok); err == nil && d.Format(c) == tok {
			out[tok] = true
		}
	}
	return out
}
