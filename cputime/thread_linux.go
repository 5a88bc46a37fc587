package cputime

import (
	"syscall"
	"time"
)

// Thread is the CPU time the calling thread has used so far (Linux; 0
// elsewhere): lock the goroutine to its thread to read it twice.
func Thread() time.Duration { return rusage(syscall.RUSAGE_THREAD) }
