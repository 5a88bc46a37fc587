package main

import (
	"context"
	"encoding/json"
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
			Workers: *workers, MoveTime: *moveTime}, !*quiet, *jsonOut, stdout, stderr)
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
		fmt.Fprintln(stderr, "arena:", err)
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
func runGap(subjects []bot.Spec, field string, cfg arena.Config, progress, jsonOut bool, stdout, stderr io.Writer) int {
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	gr, err := arena.RunGap(ctx, arena.GapConfig{Config: cfg, Field: fs, Subjects: subjects})
	if err != nil {
		fmt.Fprintln(stderr, "arena:", err)
		return 1
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
