//go:build unix

package server

import "syscall"

// cpuSeconds is the process's user and system CPU time, so that a load
// tool on another machine can read what a move costs the server.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
