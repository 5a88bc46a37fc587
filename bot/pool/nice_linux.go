package pool

import "syscall"

// lowerPriority sets the calling thread's nice value to n: on Linux,
// setpriority's PRIO_PROCESS with a thread id applies to that thread only.
func lowerPriority(n int) error {
	return syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), n)
}

// threadNice returns the calling thread's nice value (tests).
func threadNice() (int, error) {
	// The raw getpriority system call returns 20 - nice (the glibc wrapper
	// undoes that; syscall.Getpriority does not).
	p, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	return 20 - p, err
}
