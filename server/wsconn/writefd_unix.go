//go:build unix

package wsconn

import "syscall"

// writeFD is one write system call on the socket's descriptor; it does
// not wait (the descriptor is non-blocking, as the runtime keeps it).
func writeFD(fd uintptr, b []byte) (int, error) { return syscall.Write(int(fd), b) }
