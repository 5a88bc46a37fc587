package loadtest

import (
	"math"
	"runtime/metrics"
	"time"

	"cardroom/cputime"
)

// The load tool measures itself over the window too. On one machine the
// tool and the server share the cores, and a reply the tool reads late is
// counted as the server's latency: the tool's own CPU and the delay its
// goroutines waited for a processor say how much of a tail may be the
// tool's (docs/server.md, "Load testing").

// selfSample is the tool's CPU time and scheduling-delay histogram at one
// moment.
type selfSample struct {
	cpu   time.Duration
	sched *metrics.Float64Histogram
}

const schedMetric = "/sched/latencies:seconds"

func sampleSelf() selfSample {
	var s selfSample
	s.cpu = cputime.Process()
	m := []metrics.Sample{{Name: schedMetric}}
	metrics.Read(m)
	if m[0].Value.Kind() == metrics.KindFloat64Histogram {
		s.sched = m[0].Value.Float64Histogram()
	}
	return s
}

// SelfStats is what the load tool spent and waited over the window.
type SelfStats struct {
	CPU time.Duration
	// SchedP99 and SchedMax are the 99th percentile and the largest of
	// the times the tool's goroutines waited, runnable, for a processor
	// (the upper bounds of the runtime's histogram buckets; the runtime
	// samples these waits).
	SchedP99, SchedMax time.Duration
}

// selfStats is the change from a to b.
func selfStats(a, b selfSample) SelfStats {
	st := SelfStats{CPU: b.cpu - a.cpu}
	if a.sched == nil || b.sched == nil || len(a.sched.Counts) != len(b.sched.Counts) {
		return st
	}
	d := make([]uint64, len(b.sched.Counts))
	for i := range d {
		d[i] = b.sched.Counts[i] - a.sched.Counts[i]
	}
	st.SchedP99 = histQuantile(d, b.sched.Buckets, 0.99)
	st.SchedMax = histQuantile(d, b.sched.Buckets, 1)
	return st
}

// histQuantile is the upper bound of the bucket holding quantile q of
// counts (bucket i spans buckets[i] to buckets[i+1]); 0 with no counts.
func histQuantile(counts []uint64, buckets []float64, q float64) time.Duration {
	var total uint64
	for _, c := range counts {
		total += c
	}
	if total == 0 {
		return 0
	}
	need := uint64(math.Ceil(q * float64(total)))
	var seen uint64
	for i, c := range counts {
		seen += c
		if seen >= need && c > 0 {
			hi := buckets[i+1]
			if math.IsInf(hi, 1) {
				hi = buckets[i]
			}
			return time.Duration(hi * float64(time.Second))
		}
	}
	return 0
}
