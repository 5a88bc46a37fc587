//go:build !unix

package server

// cpuSeconds is not measured here: process_cpu_seconds_total reads 0.
func cpuSeconds() float64 { return 0 }
