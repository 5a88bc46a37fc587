package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"cardroom/bot/analysis"
	"cardroom/game"
)

func init() {
	register("analyse", "rate every decision of one seat in a record: the best move, the loss of the move played, the biggest mistakes", cmdAnalyse)
}

// cmdAnalyse prints bot/analysis's rating of one seat's decisions. The
// table shows the same numbers as --json (docs/bots.md describes the shape
// and how far to trust them).
func cmdAnalyse(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("analyse", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seat := fs.Int("seat", -1, "the seat whose decisions are rated (required)")
	asJSON := fs.Bool("json", false, "print the analysis as JSON")
	seed := fs.Uint64("seed", 1, "the sampling seed (the same record, seat, seed and budget give the same analysis)")
	budget := fs.Int("budget", analysis.DefaultBudget, fmt.Sprintf("determinizations per decision, 1 to %d", analysis.MaxBudget))
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: cardroom analyse FILE --seat N [--json] [--seed S] [--budget B]")
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 || *seat < 0 {
		fs.Usage()
		return 2
	}
	if *budget < 1 || *budget > analysis.MaxBudget {
		fmt.Fprintf(stderr, "analyse: --budget %d: want 1 to %d\n", *budget, analysis.MaxBudget)
		return 2
	}
	rec, e, err := loadRecord(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "analyse: %s: %v\n", pos[0], err)
		return 2
	}
	a, err := analysis.Analyse(context.Background(), e, rec, game.Seat(*seat), analysis.Config{Seed: *seed, Budget: *budget})
	if err != nil {
		fmt.Fprintf(stderr, "analyse: %s: %v\n", pos[0], err)
		return 1
	}
	if *asJSON {
		writeJSON(stdout, a)
		return 0
	}
	printAnalysis(stdout, a)
	return 0
}

// printAnalysis writes the readable table: one line a decision, then the
// biggest mistakes.
func printAnalysis(w io.Writer, a *analysis.Analysis) {
	dir := "more is better"
	if a.LowerIsBetter {
		dir = "fewer is better"
	}
	fmt.Fprintf(w, "%s, seat %d: values are expected %s at the end of the round (%s); %d samples a decision, seed %d\n\n",
		a.Game, a.Seat, a.Unit, dir, a.Budget, a.Seed)
	fmt.Fprintf(w, "%5s %5s  %-28s %-28s %7s  %s\n", "step", "round", "played", "best", "loss", "alternatives (value)")
	for _, d := range a.Decisions {
		if d.Forced {
			fmt.Fprintf(w, "%5d %5d  %-28s %-28s %7s\n", d.Step, d.Round, d.Move, "(forced)", "")
			continue
		}
		mark := " "
		if d.Mistake {
			mark = "!"
		}
		var alts []string
		for _, m := range d.Moves {
			if len(alts) == 3 {
				break
			}
			if m.Move != d.Move {
				alts = append(alts, fmt.Sprintf("%s (%.1f)", m.Move, m.Value))
			}
		}
		fmt.Fprintf(w, "%5d %5d  %-28s %-28s %6.1f%s  %s\n", d.Step, d.Round, d.Move, d.Best, d.Loss, mark, strings.Join(alts, ", "))
	}
	fmt.Fprintf(w, "\ntotal expected loss: %.1f %s\n", a.TotalLoss, a.Unit)
	if len(a.Mistakes) == 0 {
		fmt.Fprintf(w, "no mistakes (a loss of at least %.0f and twice its standard error)\n", a.Threshold)
		return
	}
	fmt.Fprintf(w, "biggest mistakes (loss of at least %.0f and twice its standard error):\n", a.Threshold)
	for _, step := range a.Mistakes {
		for _, d := range a.Decisions {
			if d.Step == step {
				fmt.Fprintf(w, "  step %d: %s, better %s: %.1f ± %.1f %s lost\n", d.Step, d.Move, d.Best, d.Loss, d.StdErr, a.Unit)
			}
		}
	}
}
