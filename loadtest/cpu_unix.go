//go:build unix

package loadtest

import (
	"syscall"
	"time"
)

// ownCPU is the process's CPU time so far, user and system.
func ownCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
