package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"runtime/trace"
	"sync"
	"time"

	"cardroom/game"
	"cardroom/loadtest"
)

func init() {
	register("load", "load-test a running server: N tables of WebSocket clients playing random legal moves", runLoad)
}

func runLoad(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", "http://localhost:8080", "server base URL; for a cluster, its nodes' URLs separated by commas (tables round robin over them, a table's clients on different nodes)")
	tables := fs.Int("tables", 100, "tables to open")
	pace := fs.Float64("pace", 1, "moves a second per table; 0 = as fast as possible")
	clients := fs.Int("clients", 4, "WebSocket clients per table: 4 (one per seat) or 1 (one holding every seat)")
	duration := fs.Duration("duration", 30*time.Second, "measuring time after setup and warm-up")
	warmup := fs.Duration("warmup", 0, "play this long first without measuring (the synchronized start is a burst)")
	gameName := fs.String("game", "", "game (default: the first registered)")
	options := fs.String("options", "", "game options (default: the longest game the engine allows, so games do not end during a run)")
	setup := fs.Int("setup", 64, "tables set up concurrently")
	reconnect := fs.Bool("reconnect", false, "a client whose socket is lost (a node killed) dials the next node and takes its seats back, as behind a load balancer; moves unanswered for 10 s are given up, and steps gone after a reconnect are counted (must be 0)")
	botTables := fs.Int("bot-tables", 0, "also open this many tables of bots only, playing beside the measured ones (their moves are counted, not measured); the server's -bot-tables-per-player allows one per creator")
	botLevel := fs.String("bot-level", "hard", "the level of the -bot-tables' bots")
	cpuProfile := fs.String("cpuprofile", "", "write the load generator's own CPU profile to this file")
	traceFile := fs.String("trace", "", "write the load generator's own execution trace of the first seconds of the measured window (-trace-for) to this file: whether a tail is the tool's own (go tool trace)")
	traceFor := fs.Duration("trace-for", 4*time.Second, "how long -trace records")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *botTables < 0 {
		fmt.Fprintf(stderr, "load: -bot-tables %d: want 0 or more\n", *botTables)
		return 2
	}
	urls, err := loadtest.ParseURLs(*url)
	if err != nil {
		fmt.Fprintf(stderr, "load: -url: %v\n", err)
		return 2
	}
	cfg := loadtest.Config{URLs: urls, Tables: *tables, Pace: *pace, Clients: *clients, Duration: *duration, Warmup: *warmup,
		Game: *gameName, Setup: *setup, Progress: stderr, Reconnect: *reconnect, BotTables: *botTables, BotLevel: *botLevel}
	if *options != "" {
		o, err := game.ParseOptions(*options)
		if err != nil {
			fmt.Fprintf(stderr, "load: -options: %v\n", err)
			return 2
		}
		cfg.Options = o
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "load: %v\n", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "load: %v\n", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	if *traceFile != "" {
		f, err := os.Create(*traceFile)
		if err != nil {
			fmt.Fprintf(stderr, "load: %v\n", err)
			return 1
		}
		defer f.Close()
		var once sync.Once
		stopTrace := func() { once.Do(trace.Stop) }
		defer stopTrace()
		cfg.OnWindow = func() {
			if err := trace.Start(f); err != nil {
				fmt.Fprintf(stderr, "load: trace: %v\n", err)
				return
			}
			time.AfterFunc(*traceFor, stopTrace)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := loadtest.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "load: %v\n", err)
		return 1
	}
	fmt.Fprint(stdout, rep.String())
	return 0
}
