// Package cputime reads the CPU time the process (or one thread) has used,
// user and system together: what the server reports as
// process_cpu_seconds_total, and what the load tool and the benchmarks
// divide by their moves. Where a system has no such count, it reads 0.
package cputime
