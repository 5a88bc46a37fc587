package arena

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	"cardroom/bot"
)

// GapConfig is a yardstick run: each subject plays one seat against a
// field of identical opponents, on the same duplicate deals (the same
// Seed), and the gap between the first subject (the base, e.g. medium) and
// the last (the top, e.g. the all-seeing ceiling) is the scale on which
// every subject in between (e.g. hard) is placed.
type GapConfig struct {
	Config              // Engine, Options, Deals, Seed, Workers, Progress, MaxSteps, MoveTime; Seats is ignored
	Field    bot.Spec   // the opponents of every run
	Subjects []bot.Spec // base, the bots measured, top; at least two
	// Reuse holds runs played before on the same deals (the same game,
	// options, field, deals and seed), by subject spec: a subject found
	// here is not played again. Only a bot whose code has not changed
	// since may be reused (e.g. the yardstick while the hard bot is
	// tuned).
	Reuse map[string]*Report
}

// GapRow is one metric of a gap run.
type GapRow struct {
	Metric string
	// Value[i] is subject i's figure per deal against the field (its mean
	// over its seat in every rotation), with its 95% interval over deals.
	Value []Stat
	// Diff[i] is subject i − base, paired deal by deal.
	Diff []Stat
	// Closed[i] is the share of the base→top gap subject i closes:
	// mean(Diff[i]) / mean(Diff[top]), with a 95% interval (below); 0 for
	// the base, 1 for the top. Its N is 0 when the gap is 0.
	Closed []Stat
}

// GapReport is the result of a gap run.
type GapReport struct {
	Game, Options, Field string
	Subjects             []string
	Deals                int
	Rows                 []GapRow
	Runs                 []*Report // one per subject, Games included
}

// RunGap plays one arena per subject (subject in seat 0's list position,
// the field in the others, rotated over every seat as usual) on the same
// deals, then compares the subjects deal by deal.
func RunGap(ctx context.Context, cfg GapConfig) (*GapReport, error) {
	if len(cfg.Subjects) < 2 {
		return nil, fmt.Errorf("arena: a gap needs at least a base and a top")
	}
	st0, err := cfg.Engine.New(cfg.Options)
	if err != nil {
		return nil, err
	}
	n := st0.Seats()
	gr := &GapReport{Game: cfg.Engine.Name(), Options: cfg.Options.String(), Field: cfg.Field.String(), Deals: cfg.Deals}
	for _, sub := range cfg.Subjects {
		c := cfg.Config
		c.Seats = []bot.Spec{sub}
		for len(c.Seats) < n {
			c.Seats = append(c.Seats, cfg.Field)
		}
		if rep, ok := cfg.Reuse[sub.String()]; ok {
			if len(rep.Games) != cfg.Deals*n {
				return nil, fmt.Errorf("arena: the reused run of %s has %d games, not %d", sub, len(rep.Games), cfg.Deals*n)
			}
			if c.Progress != nil {
				fmt.Fprintf(c.Progress, "arena: gap run %s reused\n", sub)
			}
			gr.Subjects = append(gr.Subjects, sub.String())
			gr.Runs = append(gr.Runs, rep)
			continue
		}
		if c.Progress != nil {
			fmt.Fprintf(c.Progress, "arena: gap run %s against %d × %s\n", sub, n-1, cfg.Field)
		}
		rep, err := Run(ctx, c)
		if err != nil {
			return nil, err
		}
		gr.Subjects = append(gr.Subjects, sub.String())
		gr.Runs = append(gr.Runs, rep)
	}
	gr.Rows = gapRows(gr.Subjects, gr.Runs, cfg.Deals)
	return gr, nil
}

// gapRows compares the subjects' per-deal figures. A subject equal to the
// field (the base medium against three medium) pools all its seats, which
// is its figure against the field by symmetry.
func gapRows(subjects []string, runs []*Report, deals int) []GapRow {
	var rows []GapRow
	for _, m := range []Metric{Points, RoundWins, GameWins} {
		vals := make([][]float64, len(subjects))
		ok := make([]bool, deals)
		for d := range ok {
			ok[d] = true
		}
		for i, rep := range runs {
			per := perDeal(rep.Games, deals, distinct(rep.Seats))
			vals[i] = make([]float64, deals)
			for d, a := range per[subjects[i]] {
				x, has := a.value(m)
				vals[i][d], ok[d] = x, ok[d] && has
			}
		}
		keep := func(xs []float64) []float64 {
			var out []float64
			for d, x := range xs {
				if ok[d] {
					out = append(out, x)
				}
			}
			return out
		}
		top := len(subjects) - 1
		diffs := make([][]float64, len(subjects))
		row := GapRow{Metric: m.String()}
		for i := range subjects {
			diffs[i] = make([]float64, deals)
			for d := range diffs[i] {
				diffs[i][d] = vals[i][d] - vals[0][d]
			}
			row.Value = append(row.Value, MeanCI(keep(vals[i])))
			row.Diff = append(row.Diff, MeanCI(keep(diffs[i])))
		}
		for i := range subjects {
			row.Closed = append(row.Closed, RatioCI(keep(diffs[i]), keep(diffs[top])))
		}
		rows = append(rows, row)
	}
	return rows
}

func distinct(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// RatioCI is mean(xs) / mean(ys) for paired observations (the same deals)
// with a 95% interval by the delta method: the ratio's standard error is
// that of the mean of x − R·y, divided by |mean(ys)|. It is reliable when
// the denominator's interval is well clear of 0; with a mean(ys) of 0 the
// ratio is undefined and the Stat has N = 0.
func RatioCI(xs, ys []float64) Stat {
	n := len(xs)
	if n == 0 || n != len(ys) {
		return Stat{}
	}
	mx, my := 0.0, 0.0
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx, my = mx/float64(n), my/float64(n)
	if my == 0 {
		return Stat{}
	}
	r := mx / my
	z := make([]float64, n)
	for i := range xs {
		z[i] = xs[i] - r*ys[i]
	}
	s := MeanCI(z)
	h := (s.Hi - s.Mean) / math.Abs(my)
	return Stat{Mean: r, Lo: r - h, Hi: r + h, SD: s.SD / math.Abs(my), N: n}
}

// Print writes the gap report for people.
func (gr *GapReport) Print(w io.Writer) {
	fmt.Fprintf(w, "gap: game %s (%s), %d deals; each of %s in one seat against %s in the others (rotated)\n",
		gr.Game, gr.Options, gr.Deals, strings.Join(gr.Subjects, ", "), gr.Field)
	top := len(gr.Subjects) - 1
	nw := nameWidth(gr.Subjects)
	for _, row := range gr.Rows {
		fmt.Fprintf(w, "\n%s (per deal, 95%% CI):\n", row.Metric)
		fmt.Fprintf(w, "  %-*s %-30s %-30s %-30s\n", nw, "bot", "value", "− "+gr.Subjects[0]+" (paired)", "gap closed")
		format := fmtPct
		if row.Metric == Points.String() {
			format = func(s Stat) string { return fmtStat(s, 1) }
		}
		for i, s := range gr.Subjects {
			closed := "-"
			if c := row.Closed[i]; c.N > 0 && i > 0 && i < top {
				closed = fmt.Sprintf("%.0f%% [%.0f, %.0f]", 100*c.Mean, 100*c.Lo, 100*c.Hi)
			}
			fmt.Fprintf(w, "  %-*s %-30s %-30s %-30s\n", nw, s, format(row.Value[i]), format(row.Diff[i]), closed)
		}
	}
}

// PrintSpeed writes each subject's time per move (wall clock; kept out of
// Print, whose text is a pure function of the configuration).
func (gr *GapReport) PrintSpeed(w io.Writer) {
	fmt.Fprint(w, "time per move (wall clock, sharing the cores with the games played at once):")
	for i, rep := range gr.Runs {
		for _, sp := range rep.Speed {
			if sp.Bot == gr.Subjects[i] {
				fmt.Fprintf(w, " %s %.2f ms;", sp.Bot, sp.MsPerMove)
			}
		}
	}
	fmt.Fprintln(w)
}
