// Command cardroom is the whole card room in one binary: the server (the
// default), and tools that work on game records, bots and load.
//
// Each subcommand lives in its own file and registers itself in init.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand: run gets the arguments after its name and
// returns the process exit code.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

func register(name, summary string, run func(args []string, stdout, stderr io.Writer) int) {
	commands[name] = command{summary: summary, run: run}
}

// defaultCommand runs when no subcommand is given.
var defaultCommand = "serve"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	name := defaultCommand
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	if name == "help" {
		usage(stdout)
		return 0
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "cardroom: unknown command %q\n", name)
		usage(stderr)
		return 2
	}
	return c.run(args, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: cardroom [command] [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
}
