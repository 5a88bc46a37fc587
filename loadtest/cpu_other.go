//go:build !unix

package loadtest

import "time"

// ownCPU is unknown here: the report's CPU figure reads 0.
func ownCPU() time.Duration { return 0 }
