package main

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
	"time"
)

// prctl options (linux/prctl.h).
const (
	prSetTimerSlack = 29
	prGetTimerSlack = 30
)

// timerSlack returns the calling thread's timer slack.
func timerSlack() (time.Duration, error) {
	r, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prGetTimerSlack, 0, 0)
	if errno != 0 {
		return 0, fmt.Errorf("prctl(PR_GET_TIMERSLACK): %w", errno)
	}
	return time.Duration(r), nil
}

// execWithTimerSlack sets the calling thread's slack and executes the
// running binary again from that thread, with mark added to the
// environment. It returns only on failure; the slack then stays on one
// thread only, which is harmless.
func execWithTimerSlack(slack time.Duration, mark string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding the binary to execute again: %w", err)
	}
	// prctl and execve on one thread: the slack is that thread's, and the
	// thread that calls execve becomes the new process's first.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetTimerSlack, uintptr(slack), 0); errno != 0 {
		return fmt.Errorf("prctl(PR_SET_TIMERSLACK): %w", errno)
	}
	if err := syscall.Exec(exe, os.Args, append(os.Environ(), mark)); err != nil {
		return fmt.Errorf("executing %s again: %w", exe, err)
	}
	return nil
}
