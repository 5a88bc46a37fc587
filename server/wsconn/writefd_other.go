//go:build !unix

package wsconn

// writeFD writes nothing where a socket is not a descriptor that can be
// written without waiting: TryWriteText then reports nothing sent, and
// the caller's writer goroutine writes as usual.
func writeFD(uintptr, []byte) (int, error) { return 0, nil }
