// Command cardroom is the whole card room in one binary: the server (the
// default), and tools that work on game records, bots and load.
//
// Each subcommand lives in its own file and registers itself in init.
package main

import (
	"fmt"
	"io"
	"os"
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
	mayReexec = true
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	name := defaultCommand
	switch {
	case len(args) == 0:
	case isHelpFlag(args[0]):
		// "cardroom -h" asks about cardroom, not about its default command.
		usage(stdout)
		return 0
	case args[0] != "" && args[0][0] != '-':
		name, args = args[0], args[1:]
	}
	if name == "help" {
		// "cardroom help CMD" is "cardroom CMD -h", as in go help.
		if len(args) == 0 {
			usage(stdout)
			return 0
		}
		if _, ok := commands[args[0]]; !ok {
			fmt.Fprintf(stderr, "cardroom help: unknown command %q\n\n", args[0])
			usage(stderr)
			return 2
		}
		commandHelp(stdout, args[0])
		return 0
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "cardroom: unknown command %q\n\n", name)
		usage(stderr)
		return 2
	}
	if wantsHelp(args) {
		commandHelp(stdout, name)
		return 0
	}
	return c.run(args, stdout, stderr)
}
