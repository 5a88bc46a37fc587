package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"cardroom/bot"
	"cardroom/bot/arena"
	"cardroom/game"
	"cardroom/games"
)

func init() {
	register("arena", "play bots against each other on duplicate deals and compare them", runArena)
}

func runArena(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(stderr)
	names := games.Names()
	gameName := fs.String("game", names[0], "game: "+strings.Join(names, ", "))
	players := fs.Int("players", 4, "number of players")
	seatsFlag := fs.String("seats", "", "comma-separated bot of each seat: random, easy, medium, hard, hard:N (N iterations a move), hard:200ms, ceiling, ceiling:N (the all-seeing bot, arena only), ceiling-hands, ceiling-hands:N (sees every hand, not the stock order; Pis Yedili)")
	gapFlag := fs.String("gap", "", "instead of --seats: comma-separated base,bot…,top (e.g. medium,hard,ceiling); each plays one seat against --field, and the share of the base→top gap each closes is reported")
	fieldFlag := fs.String("field", "medium", "the opponents of a --gap run")
	deals := fs.Int("deals", 100, "number of duplicate deals (each played once per rotation)")
	seed := fs.Uint64("seed", 1, "seed of the deals and the bots")
	optsFlag := fs.String("options", "", "game options name=value,... (default: the game's deal, one round or hand where it has several)")
	workers := fs.Int("workers", 0, "games played at once (0 = all cores)")
	records := fs.String("records", "", "directory to write every game's record to")
	moveTime := fs.Duration("move-time", 0, "deadline per move given to every bot (0 = none)")
	jsonOut := fs.Bool("json", false, "print the report as JSON")
	runsFile := fs.String("runs", "", "with --gap: a file of the subjects' runs (games included): a subject whose run it holds for the same game, options, field, deals and seed is not played again, and every run is written back to it (reuse only bots whose code has not changed)")
	quiet := fs.Bool("quiet", false, "no progress lines")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: cardroom arena --game %s --players 4 --seats hard,medium,medium,medium --deals 2000 --seed 1\n", names[0])
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	g, err := games.Get(*gameName)
	if err != nil {
		fmt.Fprintln(stderr, "arena:", err)
		return 2
	}
	e := g.Engine
	opts := g.Deal.Clone()
	if *optsFlag != "" {
		o, err := game.ParseOptions(*optsFlag)
		if err != nil {
			fmt.Fprintln(stderr, "arena:", err)
			return 2
		}
		for k, v := range o {
			opts[k] = v
		}
	}
	if _, ok := opts["players"]; !ok {
		opts["players"] = strconv.Itoa(*players)
	}
	n, _ := strconv.Atoi(opts["players"])
	if (*seatsFlag == "") == (*gapFlag == "") {
		fmt.Fprintln(stderr, "arena: give either --seats or --gap")
		return 2
	}
	if *runsFile != "" && *gapFlag == "" {
		fmt.Fprintln(stderr, "arena: --runs needs --gap")
		return 2
	}
	list := *seatsFlag
	if *gapFlag != "" {
		list = *gapFlag
	}
	var specs []bot.Spec
	for _, s := range strings.Split(list, ",") {
		sp, err := arena.ParseSeat(s)
		if err != nil {
			fmt.Fprintln(stderr, "arena:", err)
			return 2
		}
		specs = append(specs, sp)
	}
	if *gapFlag != "" {
		return runGap(specs, *fieldFlag, arena.Config{Engine: e, Options: opts, Deals: *deals, Seed: *seed,
			Workers: *workers, MoveTime: *moveTime}, *runsFile, !*quiet, *jsonOut, stdout, stderr)
	}
	if len(specs) != n {
		fmt.Fprintf(stderr, "arena: %d seats given for %d players\n", len(specs), n)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg := arena.Config{Engine: e, Options: opts, Seats: specs, Deals: *deals, Seed: *seed,
		Workers: *workers, RecordDir: *records, MoveTime: *moveTime}
	if !*quiet {
		cfg.Progress = stderr
	}
	start := time.Now()
	rep, err := arena.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "arena:", strings.TrimPrefix(err.Error(), "arena: "))
		return 1
	}
	rep.Elapsed = time.Since(start)
	if *jsonOut {
		rep.Games = nil
		return arenaJSON(rep, stdout, stderr)
	}
	rep.Print(stdout)
	rep.PrintSpeed(stderr) // wall clock: stdout stays a pure function of the flags
	return 0
}

// runGap is arena --gap: one run per subject against a field, compared.
func runGap(subjects []bot.Spec, field string, cfg arena.Config, runsFile string, progress, jsonOut bool, stdout, stderr io.Writer) int {
	if len(subjects) < 2 {
		fmt.Fprintln(stderr, "arena: --gap needs at least a base and a top (e.g. medium,hard,ceiling)")
		return 2
	}
	fs, err := arena.ParseSeat(field)
	if err != nil {
		fmt.Fprintln(stderr, "arena: --field:", err)
		return 2
	}
	if progress {
		cfg.Progress = stderr
	}
	key := gapRunsKey{Game: cfg.Engine.Name(), Options: cfg.Options.String(), Field: fs.String(), Deals: cfg.Deals, Seed: cfg.Seed}
	saved := gapRuns{gapRunsKey: key, Runs: map[string]*arena.Report{}}
	if runsFile != "" {
		if err := saved.load(runsFile, key); err != nil {
			fmt.Fprintln(stderr, "arena: --runs:", err)
			return 2
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	gr, err := arena.RunGap(ctx, arena.GapConfig{Config: cfg, Field: fs, Subjects: subjects, Reuse: saved.Runs})
	if err != nil {
		fmt.Fprintln(stderr, "arena:", strings.TrimPrefix(err.Error(), "arena: "))
		return 1
	}
	if runsFile != "" {
		for i, sub := range gr.Subjects {
			saved.Runs[sub] = gr.Runs[i]
		}
		if err := saved.save(runsFile); err != nil {
			fmt.Fprintln(stderr, "arena: --runs:", err)
			return 1
		}
	}
	if jsonOut {
		for _, r := range gr.Runs {
			r.Games = nil
		}
		return arenaJSON(gr, stdout, stderr)
	}
	gr.Print(stdout)
	gr.PrintSpeed(stderr)
	return 0
}

// arenaJSON prints a report as indented JSON; the exit code.
func arenaJSON(v any, stdout, stderr io.Writer) int {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintln(stderr, "arena:", err)
		return 1
	}
	return 0
}

// gapRunsKey is what a saved run must share with a --gap run to be reused:
// the same deals played against the same field.
type gapRunsKey struct {
	Game, Options, Field string
	Deals                int
	Seed                 uint64
}

// gapRuns is the file of --runs: the runs of a gap's subjects, games
// included, by subject spec.
type gapRuns struct {
	gapRunsKey
	Runs map[string]*arena.Report
}

// load reads the runs saved in path, if it exists, and checks that they
// were played on the deals of key.
func (g *gapRuns) load(path string, key gapRunsKey) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var f gapRuns
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if f.gapRunsKey != key {
		return fmt.Errorf("%s holds runs of %+v, not of %+v", path, f.gapRunsKey, key)
	}
	for k, r := range f.Runs {
		g.Runs[k] = r
	}
	return nil
}

// save writes the runs to path.
func (g *gapRuns) save(path string) error {
	b, err := json.Marshal(g)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
